//! A small harness for match tests: two knights, scripted dice, and every event kept.
#![allow(dead_code)]

use herald_engine::dice::ScriptedDice;
use herald_engine::psiknight::event::{Event, RollSkill};
use herald_engine::psiknight::{
    Decision, KnightSheet, Match, MatchKind, MatchSetup, Monarch, Opening, PsiSkill, RuleError,
    Side, Style,
};

pub use Side::{Challenged as B, Challenger as A};

/// A knight with the given fighting skills (Lance, Ride, Observe, Shield, Dodge, Sword) and psi
/// skills (Apportation, CPK, Hypercognition, Mesmerism, Telepathy, Catapsi, Negapsi).
pub fn knight(name: &str, skills: [u8; 6], psi: [u8; 7]) -> KnightSheet {
    KnightSheet::new(name, Style::Sir, Monarch::Ragnar, skills, psi)
}

/// Psi values with one skill set.
pub fn psi(skill: PsiSkill, value: u8) -> [u8; 7] {
    let mut p = [0u8; 7];
    let i = PsiSkill::ALL.iter().position(|&s| s == skill).unwrap();
    p[i] = value;
    p
}

/// The knights of the worked example (EXAMPLES.md).
pub fn dara() -> KnightSheet {
    // Observe, Dodge, Sword at 40; Hypercognition 20, Apportation 20.
    let mut p = psi(PsiSkill::Hypercognition, 20);
    p[0] = 20;
    KnightSheet::new(
        "Dara",
        Style::Dame,
        Monarch::Seonaid,
        [30, 30, 40, 30, 40, 40],
        p,
    )
}

/// Eoin: Lance, Shield, Ride at 40; Mesmerism 20, Negapsi 20.
pub fn eoin() -> KnightSheet {
    let mut p = psi(PsiSkill::Mesmerism, 20);
    p[6] = 20;
    KnightSheet::new(
        "Eoin",
        Style::Sir,
        Monarch::Llewellyn,
        [40, 40, 30, 40, 30, 30],
        p,
    )
}

/// Two fighters, scripted dice, and the events so far.
pub struct Duel {
    pub m: Match,
    pub dice: ScriptedDice,
    pub events: Vec<Event>,
}

impl Duel {
    /// Starts a match; `rolls` are consumed from the first die on.
    pub fn start(
        kind: MatchKind,
        a: KnightSheet,
        b: KnightSheet,
        armed: [Option<PsiSkill>; 2],
        rolls: &[u32],
    ) -> Duel {
        Self::start_with(kind, Opening::Joust, a, b, armed, rolls)
    }

    /// As `start`, with the opening chosen.
    pub fn start_with(
        kind: MatchKind,
        opening: Opening,
        a: KnightSheet,
        b: KnightSheet,
        armed: [Option<PsiSkill>; 2],
        rolls: &[u32],
    ) -> Duel {
        let mut dice = ScriptedDice::new(rolls.iter().copied());
        let setup = MatchSetup {
            kind,
            opening,
            knights: [a, b],
            armed,
        };
        let (m, events) = Match::start(setup, &mut dice);
        Duel { m, dice, events }
    }

    /// Queues more rolls.
    pub fn dice(&mut self, rolls: &[u32]) -> &mut Self {
        self.dice.push(rolls.iter().copied());
        self
    }

    /// A decision that must be accepted; returns its events.
    pub fn go(&mut self, side: Side, decision: Decision) -> Vec<Event> {
        let ev = self
            .m
            .decide(side, decision, &mut self.dice)
            .unwrap_or_else(|e| panic!("{side:?} {decision:?} refused: {e}"));
        self.events.extend(ev.iter().cloned());
        ev
    }

    /// A decision that must be refused; checks the match did not change.
    pub fn refused(&mut self, side: Side, decision: Decision) -> RuleError {
        let before = format!("{:?}", self.m);
        let taken = self.dice.taken();
        let err = self
            .m
            .decide(side, decision, &mut self.dice)
            .expect_err("decision should be refused");
        assert_eq!(
            before,
            format!("{:?}", self.m),
            "a refused decision changed the match"
        );
        assert_eq!(taken, self.dice.taken(), "a refused decision rolled dice");
        err
    }

    /// Every roll event as (knight, skill, roll, target, success).
    pub fn rolls(&self) -> Vec<(Side, RollSkill, u32, i32, bool)> {
        self.events
            .iter()
            .filter_map(|e| match *e {
                Event::Roll {
                    knight,
                    skill,
                    roll,
                    target,
                    success,
                    ..
                } => Some((knight, skill, roll, target, success)),
                _ => None,
            })
            .collect()
    }

    /// The last roll event.
    pub fn last_roll(&self) -> (Side, RollSkill, u32, i32, bool) {
        *self.rolls().last().expect("no roll yet")
    }

    /// Whether an event equal to `e` happened.
    pub fn saw(&self, e: &Event) -> bool {
        self.events.contains(e)
    }

    /// All dice were used.
    pub fn all_dice_used(&self) {
        assert_eq!(self.dice.remaining(), 0, "unused scripted dice");
    }
}
