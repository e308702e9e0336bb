//! A psionic duel: focus, then rounds of two activations until a side is knocked out, yields,
//! or round 10 ends (PF32, PF33).
//!
//! A [`Duel`] is a value, started from a [`DuelSetup`] and driven only by [`Duel::decide_into`]
//! (or [`Fight::decide`]). It throws every die in the order of PF36 and stops at the next
//! decision with more than one legal answer (PF35), which [`Duel::awaited`] names. A fight is
//! therefore its setup, its dice and its decision log.

use super::event::{
    ActionKind, ContactEndWhy, DamageWhy, DoubleEffect, DoubleTestWhy, Effects, EndReason, Event,
    Faces, GroundWhy, InitiativeDice, LossWhy, MentalKind, Penalties, PenaltyWhy, PuppetActions,
    Role, SheetEntry, SpendWhy, TestKind, TestSide, Via, WonBy,
};
use super::sheet::PfpSheet;
use crate::dice::RollSource;
use crate::game::{Fight, FightResult, Prompt, Side, Sink};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// After this round a fight ends (PF32).
pub const MAX_ROUNDS: u32 = 10;
/// AP a side gets each round (PF3).
pub const AP_PER_ROUND: u8 = 3;
/// Psionic actions a side may take each round (PF3).
pub const MAX_PSIONIC: u8 = 2;
/// Ejections a side may try each round (PF24).
pub const MAX_EJECTIONS: u8 = 2;
/// A test's dice before AP and penalties (PF2).
pub const BASE_DICE: u8 = 3;
/// After this many equal initiative pairs the challenger is high (a bound, as R121).
pub const MAX_INITIATIVE_PAIRS: u32 = 100;

/// One fighter as a fight starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The sheet.
    pub sheet: PfpSheet,
    /// Health now (the sheet's less what was lost today, PF34).
    pub health: u8,
}

/// Everything a fight starts from. Stored with it, it and the decision log replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelSetup {
    /// The challenger and the challenged.
    pub minds: [Entrant; 2],
}

/// The choice after a failed backlash test (PF16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backlash {
    /// 1d6 damage.
    Health,
    /// All his PFP.
    Pfp,
}

/// A fighter's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// `/duel`.
    Duel,
    /// `/contact`.
    Contact,
    /// `/effect KIND N` (puppet: `strength` actions, bit i of `bits` set for `ground`).
    Effect {
        /// Which effect.
        kind: MentalKind,
        /// Its strength: N PFP.
        strength: u8,
        /// A puppet's actions: bit i set is `ground`, else `strike`.
        bits: u8,
    },
    /// `/effect none` after a won contact.
    NoEffect,
    /// `/recover`.
    Recover,
    /// `/eject`.
    Eject,
    /// `/move`.
    Move,
    /// `/end`.
    End,
    /// `/dice N`.
    Dice(u8),
    /// `/keep A B [EFFECT]`; `b` is 0 when one die was thrown.
    Keep {
        /// The first face kept.
        a: u8,
        /// The second face kept; 0 for none.
        b: u8,
        /// A double's effect.
        effect: Option<DoubleEffect>,
    },
    /// `/reroll V`.
    Reroll(u8),
    /// `/backlash health|pfp`.
    Backlash(Backlash),
    /// `/hold N`.
    Hold(u8),
    /// `/maintain`.
    Maintain,
    /// `/release`.
    Release,
    /// `/yield`.
    Yield,
}

impl Decision {
    /// A pain effect of strength `n`.
    pub fn pain(n: u8) -> Decision {
        Decision::Effect {
            kind: MentalKind::Pain,
            strength: n,
            bits: 0,
        }
    }

    /// A puppet of `strikes` strikes then `grounds` grounds (PF20, counted).
    pub fn puppet(strikes: u8, grounds: u8) -> Decision {
        let n = strikes.saturating_add(grounds).min(7);
        let g = grounds.min(n);
        Decision::Effect {
            kind: MentalKind::Puppet,
            strength: n,
            bits: (((1u16 << g) - 1) << (n - g)) as u8,
        }
    }

    /// The command word alone: `keep`, `effect`.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Duel => "duel",
            Decision::Contact => "contact",
            Decision::Effect { .. } | Decision::NoEffect => "effect",
            Decision::Recover => "recover",
            Decision::Eject => "eject",
            Decision::Move => "move",
            Decision::End => "end",
            Decision::Dice(_) => "dice",
            Decision::Keep { .. } => "keep",
            Decision::Reroll(_) => "reroll",
            Decision::Backlash(_) => "backlash",
            Decision::Hold(_) => "hold",
            Decision::Maintain => "maintain",
            Decision::Release => "release",
            Decision::Yield => "yield",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Decision::Effect {
                kind: MentalKind::Puppet,
                strength,
                bits,
            } => {
                // Counted: `effect puppet S G`, S strikes and G grounds (PF20).
                let grounds = (bits & ((1u16 << strength.min(7)) - 1) as u8).count_ones() as u8;
                write!(
                    f,
                    "effect puppet {} {grounds}",
                    strength.saturating_sub(grounds)
                )
            }
            Decision::Effect { kind, strength, .. } => {
                write!(f, "effect {} {strength}", kind.word())
            }
            Decision::NoEffect => f.write_str("effect none"),
            Decision::Dice(n) => write!(f, "dice {n}"),
            Decision::Keep { a, b: 0, .. } => write!(f, "keep {a}"),
            Decision::Keep { a, b, effect } => match effect {
                Some(e) => write!(f, "keep {a} {b} {}", e.word()),
                None => write!(f, "keep {a} {b}"),
            },
            Decision::Reroll(v) => write!(f, "reroll {v}"),
            Decision::Backlash(Backlash::Health) => f.write_str("backlash health"),
            Decision::Backlash(Backlash::Pfp) => f.write_str("backlash pfp"),
            Decision::Hold(n) => write!(f, "hold {n}"),
            other => f.write_str(other.word()),
        }
    }
}

/// Why a decision was refused. A refused decision leaves the fight unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The fight has ended.
    #[error("the fight is over")]
    FightOver,
    /// The other side's decision is awaited.
    #[error("it is not your decision now")]
    NotYourTurn {
        /// Who is awaited.
        awaited: Side,
    },
    /// Not one of the legal answers now.
    #[error("/{decision} is not a legal answer now")]
    NotAnOption {
        /// What was tried.
        decision: Decision,
        /// What the prompt asks for.
        what: &'static str,
    },
}

/// One fighter inside a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Mind {
    psionist: bool,
    power: u8,
    aptitude: u8,
    health: u8,
    pfp: u8,
    ap: u8,
    psionic: u8,
    ejections: u8,
    /// `/recover` and `/move` this round (PF27).
    recovers: u8,
    ground: bool,
    /// Weakenings ending with this round, and with the next (PF14).
    weak: [u8; 2],
    /// May not duel or contact the other through this round (PF13); 0 for never.
    barred_until: u32,
    /// Iron Will's PFP left to absorb this round (PF12).
    shield: u8,
    /// In the other's mind.
    inside: bool,
    /// Mental blocks held on the other's ejections (PF18).
    block: u8,
    /// Physical blockage stock (PF19).
    stock: u8,
}

impl Mind {
    #[inline]
    fn power_score(&self) -> u8 {
        self.power
            .saturating_sub(self.weak[0].saturating_add(self.weak[1]))
    }

    /// The score a test adds: the power score, or an open mind NPC's aptitude (PF22).
    #[inline]
    fn score(&self) -> u8 {
        if self.psionist {
            self.power_score()
        } else {
            self.aptitude
        }
    }

    /// An open mind: not a psionist, or a psionist at 0 PFP (PF15, PF31).
    #[inline]
    fn open(&self) -> bool {
        !self.psionist || self.pfp == 0
    }
}

/// A fixed queue of effects waiting in a duel's D6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Queue {
    head: u8,
    len: u8,
    items: [(u8, Option<DoubleEffect>); 32],
}

impl Queue {
    fn push(&mut self, side: Side, e: DoubleEffect) {
        let i = (self.head as usize + self.len as usize) % 32;
        if (self.len as usize) < 32 {
            self.items[i] = (side.index() as u8, Some(e));
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<(Side, DoubleEffect)> {
        if self.len == 0 {
            return None;
        }
        let (s, e) = self.items[self.head as usize];
        self.head = ((self.head as usize + 1) % 32) as u8;
        self.len -= 1;
        let side = if s == 0 {
            Side::Challenger
        } else {
            Side::Challenged
        };
        e.map(|e| (side, e))
    }
}

/// Where a duel's D8 stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum D8 {
    #[default]
    Loss,
    Tactical,
    Unleash(u8),
    Unbalance(u8),
    Backlash(u8),
    Vanish,
}

/// The test under way (a duel, a contact or an ejection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Test {
    kind: TestKind,
    /// The side acting (the attacker, the contacting psionist, the ejecting victim).
    actor: Side,
    /// R1: the low side, who tests first (PF8).
    first: Side,
    thrown: [bool; 2],
    kept_once: [bool; 2],
    faces: [Faces; 2],
    kept: [Faces; 2],
    effects: [Effects; 2],
    /// Loss of control chosen by R1 before R2 threw (PF9).
    controls_pre: u8,
    /// R1's Maneuvers owed before R2 keeps (D4).
    r1_maneuvers: u8,
    queue: Queue,
    /// The rerolled die's new face before a rekeep (PF10).
    rerolled: u8,
    result: [u8; 2],
    winner: Option<Side>,
    by: WonBy,
    d8: D8,
}

impl Test {
    fn new(kind: TestKind, actor: Side, first: Side) -> Test {
        Test {
            kind,
            actor,
            first,
            thrown: [false; 2],
            kept_once: [false; 2],
            faces: [Faces::new(); 2],
            kept: [Faces::new(); 2],
            effects: [Effects::default(); 2],
            controls_pre: 0,
            r1_maneuvers: 0,
            queue: Queue::default(),
            rerolled: 0,
            result: [0; 2],
            winner: None,
            by: WonBy::Tie,
            d8: D8::Loss,
        }
    }
}

/// Where the fight stands: named for what it awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The invader takes held actions (PF19).
    Hold(Side),
    /// A side's activation.
    Activate(Side),
    /// A tester announces AP dice.
    Dice(Side),
    /// A duel tester keeps.
    Keep(Side, bool),
    /// A Maneuver's owner rerolls.
    Reroll(Side),
    /// A mental effect: after a zeroing duel (free) or a won contact.
    Effect(Side, bool),
    /// The backlash choice.
    Backlash(Side),
    /// End of round: keep a contact.
    Maintain(Side),
    /// Over.
    Over,
}

/// One psionic duel. See the module docs.
#[derive(Clone, Debug)]
pub struct Duel {
    setup: DuelSetup,
    m: [Mind; 2],
    phase: Phase,
    round: u32,
    high: Side,
    test: Test,
    /// Which invader's maintenance comes next (0: high, 1: low, 2: done).
    eor: u8,
    result: Option<(Option<Side>, EndReason)>,
}

#[inline]
fn roll_d6(dice: &mut impl RollSource) -> u8 {
    dice.roll(6).clamp(1, 6) as u8
}

fn is_double(faces: &[u8]) -> bool {
    faces
        .iter()
        .enumerate()
        .any(|(i, a)| faces[i + 1..].contains(a))
}

/// The best two of some faces, highest first.
#[inline]
fn best_two(faces: &Faces) -> Faces {
    // One pass instead of a sort: this runs for every keep and every opposed test.
    let (mut hi, mut lo) = (0u8, 0u8);
    for &f in faces.as_slice() {
        if f > hi {
            lo = hi;
            hi = f;
        } else if f > lo {
            lo = f;
        }
    }
    match faces.len() {
        0 => Faces::new(),
        1 => Faces::of(&[hi]),
        _ => Faces::of(&[hi, lo]),
    }
}

/// The faces left when `kept` is taken out, highest first.
fn unkept(faces: &Faces, kept: &Faces) -> Faces {
    let mut rest = *faces;
    for &k in kept.as_slice() {
        rest.remove(k);
    }
    rest.sorted_desc()
}

impl Duel {
    /// Starts a fight: `fight_started`, focus (PF28), round 1's initiative and the first
    /// activation. A setup the challenge should have refused (a side at health 0, two open
    /// minds) ends at once.
    pub fn start_into(
        setup: DuelSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Duel {
        let m = [0, 1].map(|i| {
            let e = &setup.minds[i];
            Mind {
                psionist: e.sheet.psionist,
                power: if e.sheet.psionist { e.sheet.power } else { 0 },
                aptitude: if e.sheet.psionist {
                    0
                } else {
                    e.sheet.aptitude
                },
                health: e.health.min(e.sheet.health),
                ..Mind::default()
            }
        });
        let mut d = Duel {
            setup,
            m,
            phase: Phase::Over,
            round: 0,
            high: Side::Challenger,
            test: Test::new(TestKind::Duel, Side::Challenger, Side::Challenged),
            eor: 0,
            result: None,
        };
        sink.push(Event::FightStarted {
            challenger: Side::Challenger,
            challenged: Side::Challenged,
            sheets: Side::BOTH.map(|s| {
                let k = &d.m[s.index()];
                SheetEntry {
                    name: s,
                    psionist: k.psionist,
                    power: k.power,
                    aptitude: k.aptitude,
                    health: k.health,
                }
            }),
        });
        if d.check_knockout(sink) {
            return d;
        }
        if !d.m[0].psionist && !d.m[1].psionist {
            d.finish(None, EndReason::Rounds, sink);
            return d;
        }
        for s in Side::BOTH {
            if d.m[s.index()].psionist {
                let die = roll_d6(dice);
                d.m[s.index()].pfp = die;
                sink.push(Event::PfpRolled {
                    name: s,
                    die,
                    pfp: die,
                });
            }
        }
        d.start_round(1, dice, sink);
        d.settle(dice, sink);
        d
    }

    // ----- getters -----

    /// The setup this fight started from.
    pub fn setup(&self) -> &DuelSetup {
        &self.setup
    }

    /// The round under way.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The side that activates first this round.
    pub fn high(&self) -> Side {
        self.high
    }

    /// A side's PFP now.
    pub fn pfp(&self, side: Side) -> u8 {
        self.m[side.index()].pfp
    }

    /// A side's health now.
    pub fn health(&self, side: Side) -> u8 {
        self.m[side.index()].health
    }

    /// A side's AP left this round.
    pub fn ap(&self, side: Side) -> u8 {
        self.m[side.index()].ap
    }

    /// A side's psionic actions this round.
    pub fn psionic_actions(&self, side: Side) -> u8 {
        self.m[side.index()].psionic
    }

    /// Whether a side is on the ground (PF21).
    pub fn on_ground(&self, side: Side) -> bool {
        self.m[side.index()].ground
    }

    /// Whether a side is in the other's mind.
    pub fn inside(&self, side: Side) -> bool {
        self.m[side.index()].inside
    }

    /// A side's power score now (PF14).
    pub fn power_score(&self, side: Side) -> u8 {
        self.m[side.index()].power_score()
    }

    /// The faces a side threw in the test under way, if it has.
    pub fn faces(&self, side: Side) -> Option<&[u8]> {
        let t = &self.test;
        (t.thrown[side.index()] && !matches!(self.phase, Phase::Activate(_)))
            .then(|| t.faces[side.index()].as_slice())
    }

    /// The kind of the test under way.
    pub fn test_kind(&self) -> TestKind {
        self.test.kind
    }

    /// The side acting in the test under way: the duel's attacker, the contacting psionist,
    /// the ejecting victim.
    pub fn test_actor(&self) -> Side {
        self.test.actor
    }

    /// The dice a side keeps in the duel under way, once it has kept.
    pub fn kept(&self, side: Side) -> Option<&[u8]> {
        let t = &self.test;
        t.kept_once[side.index()].then(|| t.kept[side.index()].as_slice())
    }

    /// Whether the awaited keep is a keep again after a Maneuver's reroll (PF10).
    pub fn is_rekeep(&self) -> bool {
        matches!(self.phase, Phase::Keep(_, true))
    }

    /// The Physical blockage actions a side holds in stock (PF19).
    pub fn hold_stock(&self, side: Side) -> u8 {
        self.m[side.index()].stock
    }

    /// The Mental block a side holds on the other's ejections (PF18).
    pub fn mental_block(&self, side: Side) -> u8 {
        self.m[side.index()].block
    }

    /// The last round through which a side may not duel or contact the other (PF13); 0 for
    /// none.
    pub fn barred_until(&self, side: Side) -> u32 {
        self.m[side.index()].barred_until
    }

    /// Whether a side is a psionist (not an open-mind NPC).
    pub fn is_psionist(&self, side: Side) -> bool {
        self.m[side.index()].psionist
    }

    /// Who must decide now; `None` once the fight is over.
    pub fn awaited(&self) -> Option<Side> {
        match self.phase {
            Phase::Hold(s)
            | Phase::Activate(s)
            | Phase::Dice(s)
            | Phase::Keep(s, _)
            | Phase::Reroll(s)
            | Phase::Effect(s, _)
            | Phase::Backlash(s)
            | Phase::Maintain(s) => Some(s),
            Phase::Over => None,
        }
    }

    /// What the awaited decision is, for messages and buttons: `activation`, `dice`, `keep`,
    /// `reroll`, `effect`, `backlash`, `hold`, `maintain`.
    pub fn what(&self) -> &'static str {
        match self.phase {
            Phase::Hold(_) => "hold",
            Phase::Activate(_) => "activation",
            Phase::Dice(_) => "dice",
            Phase::Keep(..) => "keep",
            Phase::Reroll(_) => "reroll",
            Phase::Effect(..) => "effect",
            Phase::Backlash(_) => "backlash",
            Phase::Maintain(_) => "maintain",
            Phase::Over => "nothing",
        }
    }

    /// Whether the awaited effect is a zeroing duel's free one (PF15).
    pub fn effect_is_free(&self) -> bool {
        matches!(self.phase, Phase::Effect(_, true))
    }

    /// Whether the fight has ended.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The winner (`None`: a draw) and why, once over.
    pub fn outcome(&self) -> Option<(Option<Side>, EndReason)> {
        self.result
    }

    /// Health lost in this fight, per side (what outlasts it, PF34).
    pub fn health_lost(&self, side: Side) -> u8 {
        let e = &self.setup.minds[side.index()];
        e.sheet.health.saturating_sub(self.m[side.index()].health)
    }

    // ----- legality -----

    #[inline]
    fn invaded(&self, s: Side) -> bool {
        self.m[s.other().index()].inside
    }

    #[inline]
    fn barred(&self, s: Side) -> bool {
        self.round <= self.m[s.index()].barred_until
    }

    #[inline]
    fn psionic_ok(&self, s: Side) -> bool {
        let k = &self.m[s.index()];
        k.ap >= 1 && k.psionic < MAX_PSIONIC
    }

    fn can_duel(&self, s: Side) -> bool {
        let (k, o) = (&self.m[s.index()], &self.m[s.other().index()]);
        self.psionic_ok(s)
            && k.psionist
            && o.psionist
            && k.pfp >= 1
            && o.pfp >= 1
            && !self.barred(s)
    }

    fn can_contact(&self, s: Side) -> bool {
        let (k, o) = (&self.m[s.index()], &self.m[s.other().index()]);
        self.psionic_ok(s) && k.psionist && k.pfp >= 1 && o.open() && !k.inside && !self.barred(s)
    }

    /// The strongest effect `s` can pay now: up to power, N PFP (the first free after a
    /// zeroing duel, PF15, PF17).
    fn max_effect(&self, s: Side, free: bool) -> u8 {
        let k = &self.m[s.index()];
        if !k.inside {
            return 0;
        }
        k.power.min(k.pfp.saturating_add(u8::from(free)))
    }

    fn can_effect(&self, s: Side) -> bool {
        self.psionic_ok(s) && self.max_effect(s, false) >= 1
    }

    fn can_recover(&self, s: Side) -> bool {
        self.psionic_ok(s) && self.m[s.index()].psionist && !self.invaded(s)
    }

    fn can_eject(&self, s: Side) -> bool {
        let k = &self.m[s.index()];
        k.ap >= 1 && k.ejections < MAX_EJECTIONS && self.invaded(s)
    }

    fn can_move(&self, s: Side) -> bool {
        let k = &self.m[s.index()];
        k.ap >= 1 && (k.ground || (k.psionist && !self.invaded(s)))
    }

    /// The effect decisions up to strength `max`.
    fn effect_options(max: u8, out: &mut Vec<Decision>) {
        for kind in [MentalKind::Pain, MentalKind::Mental, MentalKind::Physical] {
            for n in 1..=max {
                out.push(Decision::Effect {
                    kind,
                    strength: n,
                    bits: 0,
                });
            }
        }
        // PF20: the order of forced actions changes nothing, so a puppet is counted: S
        // strikes then G grounds, S + G from 1 to the power.
        for n in 1..=max.min(7) {
            for grounds in 0..=n {
                out.push(Decision::puppet(n - grounds, grounds));
            }
        }
    }

    /// Whether a keep by `s` may take an effect on a double of `value` (PF10).
    fn effect_allowed(&self, s: Side, value: u8, rekeep: bool) -> bool {
        let t = &self.test;
        if !t.effects[s.index()].has_room() {
            return false;
        }
        if !rekeep {
            return true;
        }
        let before = t.kept[s.index()].as_slice();
        let same = before.len() == 2 && before[0] == before[1] && before[0] == value;
        !same || t.rerolled == value
    }

    fn keep_options(&self, s: Side, rekeep: bool, out: &mut Vec<Decision>) {
        let faces = self.test.faces[s.index()].sorted_desc();
        let f = faces.as_slice();
        if f.len() == 1 {
            out.push(Decision::Keep {
                a: f[0],
                b: 0,
                effect: None,
            });
            return;
        }
        let attacker = s == self.test.actor;
        for i in 0..f.len() {
            for j in i + 1..f.len() {
                let (a, b) = (f[i], f[j]);
                let d = Decision::Keep { a, b, effect: None };
                if out.contains(&d) {
                    continue;
                }
                out.push(d);
                if a == b && self.effect_allowed(s, a, rekeep) {
                    for &e in DoubleEffect::offered(attacker, a) {
                        out.push(Decision::Keep {
                            a,
                            b,
                            effect: Some(e),
                        });
                    }
                }
            }
        }
    }

    /// The legal answers of the awaited side now, `/yield` last.
    pub fn options(&self) -> Vec<Decision> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over => return out,
            Phase::Hold(inv) => {
                let n = self.hold_max(inv);
                out.extend((0..=n).map(Decision::Hold));
            }
            Phase::Activate(s) => {
                if self.can_duel(s) {
                    out.push(Decision::Duel);
                }
                if self.can_contact(s) {
                    out.push(Decision::Contact);
                }
                if self.can_effect(s) {
                    Self::effect_options(self.max_effect(s, false), &mut out);
                }
                if self.can_recover(s) {
                    out.push(Decision::Recover);
                }
                if self.can_eject(s) {
                    out.push(Decision::Eject);
                }
                if self.can_move(s) {
                    out.push(Decision::Move);
                }
                out.push(Decision::End);
            }
            Phase::Dice(s) => {
                out.extend((0..=self.m[s.index()].ap).map(Decision::Dice));
            }
            Phase::Keep(s, rekeep) => self.keep_options(s, rekeep, &mut out),
            Phase::Reroll(owner) => {
                let f = self.test.faces[owner.other().index()].sorted_desc();
                for &v in f.as_slice() {
                    if !out.contains(&Decision::Reroll(v)) {
                        out.push(Decision::Reroll(v));
                    }
                }
            }
            Phase::Effect(s, free) => {
                Self::effect_options(self.max_effect(s, free), &mut out);
                if !free {
                    out.push(Decision::NoEffect);
                }
            }
            Phase::Backlash(_) => {
                out.push(Decision::Backlash(Backlash::Health));
                out.push(Decision::Backlash(Backlash::Pfp));
            }
            Phase::Maintain(_) => {
                out.push(Decision::Maintain);
                out.push(Decision::Release);
            }
        }
        out.push(Decision::Yield);
        out
    }

    fn hold_max(&self, invader: Side) -> u8 {
        let k = &self.m[invader.index()];
        if !k.inside {
            return 0;
        }
        k.stock.min(self.m[invader.other().index()].ap)
    }

    /// The one legal answer now, when there is only one besides `/yield` (PF35).
    fn single(&self) -> Option<Decision> {
        match self.phase {
            Phase::Over | Phase::Backlash(_) | Phase::Maintain(_) => None,
            Phase::Hold(inv) => (self.hold_max(inv) == 0).then_some(Decision::Hold(0)),
            Phase::Activate(s) => {
                let only_end = self.m[s.index()].ap == 0
                    || !(self.can_duel(s)
                        || self.can_contact(s)
                        || self.can_effect(s)
                        || self.can_recover(s)
                        || self.can_eject(s)
                        || self.can_move(s));
                only_end.then_some(Decision::End)
            }
            Phase::Dice(s) => (self.m[s.index()].ap == 0).then_some(Decision::Dice(0)),
            Phase::Keep(s, rekeep) => {
                let f = self.test.faces[s.index()].sorted_desc();
                let f = f.as_slice();
                match f.len() {
                    1 => Some(Decision::Keep {
                        a: f[0],
                        b: 0,
                        effect: None,
                    }),
                    2 if f[0] != f[1] || !self.effect_allowed(s, f[0], rekeep) => {
                        Some(Decision::Keep {
                            a: f[0],
                            b: f[1],
                            effect: None,
                        })
                    }
                    _ => None,
                }
            }
            Phase::Reroll(owner) => {
                let f = self.test.faces[owner.other().index()].as_slice();
                (f.iter().all(|&x| x == f[0])).then(|| Decision::Reroll(f[0]))
            }
            Phase::Effect(s, free) => {
                (!free && self.max_effect(s, false) == 0).then_some(Decision::NoEffect)
            }
        }
    }

    /// What a timeout, an NPC and a simulation decide now (PF37).
    pub fn default_decision(&self) -> Option<(Side, Decision)> {
        let side = self.awaited()?;
        let d = match self.phase {
            Phase::Over => return None,
            Phase::Hold(inv) => Decision::Hold(self.hold_max(inv)),
            Phase::Activate(s) => {
                let pain = self.max_effect(s, false);
                if self.can_eject(s) {
                    Decision::Eject
                } else if self.m[s.index()].ground && self.can_move(s) {
                    Decision::Move
                } else if self.can_effect(s) {
                    Decision::pain(pain)
                } else if self.can_duel(s) {
                    Decision::Duel
                } else if self.can_contact(s) {
                    Decision::Contact
                } else if self.can_recover(s) {
                    Decision::Recover
                } else if self.can_move(s) {
                    Decision::Move
                } else {
                    Decision::End
                }
            }
            Phase::Dice(s) => {
                if self.test.kind == TestKind::Eject && s == self.test.actor {
                    Decision::Dice(self.m[s.index()].ap)
                } else {
                    Decision::Dice(0)
                }
            }
            Phase::Keep(s, rekeep) => {
                let best = best_two(&self.test.faces[s.index()]);
                let f = best.as_slice();
                if f.len() == 1 {
                    Decision::Keep {
                        a: f[0],
                        b: 0,
                        effect: None,
                    }
                } else {
                    let (a, b) = (f[0], f[1]);
                    let attacker = s == self.test.actor;
                    let effect = (a == b && self.effect_allowed(s, a, rekeep)).then_some(
                        match (attacker, a == 6) {
                            (true, false) => DoubleEffect::Flaw,
                            (true, true) => DoubleEffect::Unleash,
                            (false, false) => DoubleEffect::Iron,
                            (false, true) => DoubleEffect::Vanish,
                        },
                    );
                    Decision::Keep { a, b, effect }
                }
            }
            Phase::Reroll(owner) => {
                let f = self.test.faces[owner.other().index()].as_slice();
                Decision::Reroll(f.iter().copied().max().unwrap_or(1))
            }
            Phase::Effect(s, free) => match self.max_effect(s, free) {
                0 => Decision::NoEffect,
                n => Decision::pain(n),
            },
            Phase::Backlash(_) => Decision::Backlash(Backlash::Pfp),
            Phase::Maintain(_) => Decision::Maintain,
        };
        Some((side, d))
    }

    // ----- the one input -----

    /// Takes `side`'s decision and runs the rules to the next decision, appending the events to
    /// `sink`. A refused decision returns a [`RuleError`], appends nothing and changes nothing.
    pub fn decide_into(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Result<(), RuleError> {
        let Some(awaited) = self.awaited() else {
            return Err(RuleError::FightOver);
        };
        if side != awaited {
            return Err(RuleError::NotYourTurn { awaited });
        }
        if decision != Decision::Yield && !self.options().contains(&decision) {
            return Err(RuleError::NotAnOption {
                decision,
                what: self.what(),
            });
        }
        self.apply(side, decision, dice, sink);
        self.settle(dice, sink);
        Ok(())
    }

    /// Plays the fight to its end with the default policy for both sides (PF37), appending
    /// every event; `max_decisions` bounds the work. Returns whether it ended.
    pub fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        for _ in 0..max_decisions {
            // The default is legal by construction, so it skips decide_into's checks. Where a
            // prompt has one legal answer (PF35) the default is that answer, so the policy
            // answers it as `settle` would, with the same dice and events.
            let Some((side, d)) = self.default_decision() else {
                return true;
            };
            self.apply(side, d, dice, sink);
        }
        self.is_over()
    }

    /// Answers at once every prompt with one legal answer (PF35).
    fn settle(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        // Each automatic answer moves the fight on; the bound guards an engine bug.
        for _ in 0..10_000 {
            let (Some(side), Some(d)) = (self.awaited(), self.single()) else {
                return;
            };
            self.apply(side, d, dice, sink);
        }
    }

    /// Runs a decision already known to be legal for the awaited `side`.
    fn apply(
        &mut self,
        side: Side,
        d: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        if d == Decision::Yield {
            self.finish(Some(side.other()), EndReason::Yield, sink);
            return;
        }
        match self.phase {
            Phase::Over => {}
            Phase::Hold(inv) => {
                if let Decision::Hold(n) = d {
                    let victim = inv.other();
                    if n > 0 {
                        self.m[victim.index()].ap -= n;
                        self.m[inv.index()].stock -= n;
                        sink.push(Event::ApBlocked {
                            name: victim,
                            by: inv,
                            amount: n,
                            ap: self.m[victim.index()].ap,
                            hold_left: self.m[inv.index()].stock,
                        });
                    }
                    self.phase = Phase::Activate(victim);
                }
            }
            Phase::Activate(s) => self.act(s, d, dice, sink),
            Phase::Dice(t) => {
                if let Decision::Dice(n) = d {
                    self.throw(t, n, dice, sink);
                }
            }
            Phase::Keep(s, rekeep) => {
                if let Decision::Keep { a, b, effect } = d {
                    self.keep(s, a, b, effect, rekeep, dice, sink);
                }
            }
            Phase::Reroll(owner) => {
                if let Decision::Reroll(v) = d {
                    self.reroll(owner, v, dice, sink);
                }
            }
            Phase::Effect(s, free) => {
                if let Decision::Effect {
                    kind,
                    strength,
                    bits,
                } = d
                {
                    self.effect(s, kind, strength, bits, free, sink);
                }
                if free {
                    self.test.d8 = D8::Tactical;
                    self.run_d8(dice, sink);
                } else {
                    self.after_action(s, sink);
                }
            }
            Phase::Backlash(att) => {
                if let Decision::Backlash(choice) = d {
                    match choice {
                        Backlash::Health => {
                            let die = roll_d6(dice);
                            self.damage(att, die, DamageWhy::Backlash, Some(die), sink);
                        }
                        Backlash::Pfp => {
                            let k = &mut self.m[att.index()];
                            let lost = k.pfp;
                            k.pfp = 0;
                            sink.push(Event::PfpLost {
                                name: att,
                                why: LossWhy::Backlash,
                                difference: None,
                                flaw: None,
                                unleash: None,
                                shield: 0,
                                lost,
                                pfp: 0,
                            });
                            if lost > 0 {
                                sink.push(Event::OpenMind { name: att });
                            }
                        }
                    }
                }
                self.run_d8(dice, sink);
            }
            Phase::Maintain(inv) => {
                let victim = inv.other();
                if d == Decision::Maintain {
                    let k = &mut self.m[inv.index()];
                    k.pfp -= 1;
                    let pfp = k.pfp;
                    sink.push(Event::PfpSpent {
                        name: inv,
                        amount: 1,
                        why: SpendWhy::Maintain,
                        pfp,
                    });
                    sink.push(Event::Maintained {
                        psionist: inv,
                        victim,
                        pfp,
                    });
                    if pfp == 0 {
                        sink.push(Event::OpenMind { name: inv });
                    }
                } else {
                    self.end_contact(inv, ContactEndWhy::Released, sink);
                }
                self.end_round(dice, sink);
            }
        }
    }

    // ----- rounds and activations -----

    fn start_round(&mut self, round: u32, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        self.round = round;
        let mut high = Side::Challenger;
        for _ in 0..MAX_INITIATIVE_PAIRS {
            let a = roll_d6(dice);
            let b = roll_d6(dice);
            let h = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Side::Challenger),
                std::cmp::Ordering::Less => Some(Side::Challenged),
                std::cmp::Ordering::Equal => None,
            };
            sink.push(Event::Initiative {
                round,
                dice: InitiativeDice([a, b]),
                high: h,
            });
            if let Some(h) = h {
                high = h;
                break;
            }
        }
        self.high = high;
        for k in &mut self.m {
            k.ap = AP_PER_ROUND;
            k.psionic = 0;
            k.ejections = 0;
            k.recovers = 0;
        }
        self.begin_activation(high, sink);
    }

    fn begin_activation(&mut self, s: Side, sink: &mut impl Sink<Event>) {
        sink.push(Event::Activation {
            round: self.round,
            name: s,
            ap: self.m[s.index()].ap,
        });
        let inv = s.other();
        self.phase = if self.hold_max(inv) > 0 {
            Phase::Hold(inv)
        } else {
            Phase::Activate(s)
        };
    }

    fn end_activation(&mut self, s: Side, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        sink.push(Event::ActivationEnded {
            round: self.round,
            name: s,
            ap: self.m[s.index()].ap,
        });
        if s == self.high {
            self.begin_activation(s.other(), sink);
        } else {
            self.eor = 0;
            self.end_round(dice, sink);
        }
    }

    /// Step 7: maintenance (high side first), recovery, the end of shields, Weakening and
    /// Disappearance, and the round limit.
    fn end_round(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let order = [self.high, self.high.other()];
        while (self.eor as usize) < 2 {
            let inv = order[self.eor as usize];
            self.eor += 1;
            if !self.m[inv.index()].inside {
                continue;
            }
            if self.m[inv.index()].pfp == 0 {
                self.end_contact(inv, ContactEndWhy::Unpaid, sink);
                continue;
            }
            self.phase = Phase::Maintain(inv);
            return;
        }
        for s in order {
            let invaded = self.invaded(s);
            let k = &mut self.m[s.index()];
            if k.psionist && !invaded && k.recovers > 0 {
                let gained = k.recovers.saturating_mul(2);
                k.pfp = k.pfp.saturating_add(gained);
                sink.push(Event::PfpRecovered {
                    name: s,
                    actions: k.recovers,
                    gained,
                    pfp: k.pfp,
                });
            }
        }
        for k in &mut self.m {
            k.shield = 0;
            k.weak = [k.weak[1], 0];
        }
        sink.push(Event::RoundEnded { round: self.round });
        if self.round >= MAX_ROUNDS {
            // PF32: two psionists draw; an open mind still standing has resisted.
            match Side::BOTH.into_iter().find(|s| !self.m[s.index()].psionist) {
                Some(open) => self.finish(Some(open), EndReason::Resisted, sink),
                None => self.finish(None, EndReason::Rounds, sink),
            }
            return;
        }
        self.start_round(self.round + 1, dice, sink);
    }

    /// An activation's action (step 3).
    fn act(
        &mut self,
        s: Side,
        d: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let (kind, psionic) = match d {
            Decision::End => {
                self.end_activation(s, dice, sink);
                return;
            }
            Decision::Duel => (ActionKind::Duel, true),
            Decision::Contact => (ActionKind::Contact, true),
            Decision::Effect { .. } => (ActionKind::Effect, true),
            Decision::Recover => (ActionKind::Recover, true),
            Decision::Eject => (ActionKind::Eject, false),
            Decision::Move => (ActionKind::Move, false),
            _ => return,
        };
        let k = &mut self.m[s.index()];
        k.ap -= 1;
        if psionic {
            k.psionic += 1;
        }
        sink.push(Event::Action {
            name: s,
            action: kind,
            ap: k.ap,
            psionic_actions: k.psionic,
        });
        match d {
            Decision::Duel => self.start_test(TestKind::Duel, s),
            Decision::Contact => self.start_test(TestKind::Contact, s),
            Decision::Eject => {
                self.m[s.index()].ejections += 1;
                self.start_test(TestKind::Eject, s);
            }
            Decision::Effect {
                kind,
                strength,
                bits,
            } => {
                self.effect(s, kind, strength, bits, false, sink);
                self.after_action(s, sink);
            }
            Decision::Recover => {
                self.m[s.index()].recovers += 1;
                self.after_action(s, sink);
            }
            Decision::Move => {
                let k = &mut self.m[s.index()];
                // PF27: a move counts for recovery; forced actions never do.
                k.recovers += 1;
                if k.ground {
                    k.ground = false;
                    sink.push(Event::StoodUp { name: s });
                }
                self.after_action(s, sink);
            }
            _ => {}
        }
    }

    /// After an action is done: a knockout ends the fight (PF33), else the activation goes on.
    fn after_action(&mut self, actor: Side, sink: &mut impl Sink<Event>) {
        if self.check_knockout(sink) {
            return;
        }
        // Every test and effect is the activating side's action: its activation goes on.
        self.phase = Phase::Activate(actor);
    }

    fn check_knockout(&mut self, sink: &mut impl Sink<Event>) -> bool {
        let out = [self.m[0].health == 0, self.m[1].health == 0];
        match out {
            [true, true] => self.finish(None, EndReason::Knockout, sink),
            [true, false] => self.finish(Some(Side::Challenged), EndReason::Knockout, sink),
            [false, true] => self.finish(Some(Side::Challenger), EndReason::Knockout, sink),
            [false, false] => return false,
        }
        true
    }

    fn finish(&mut self, winner: Option<Side>, reason: EndReason, sink: &mut impl Sink<Event>) {
        self.result = Some((winner, reason));
        self.phase = Phase::Over;
        sink.push(Event::FightEnded {
            winner,
            loser: winner.map(Side::other),
            reason,
            health: [self.m[0].health, self.m[1].health],
            pfp: [self.m[0].pfp, self.m[1].pfp],
        });
    }

    // ----- effects, damage, contacts -----

    fn damage(
        &mut self,
        s: Side,
        amount: u8,
        why: DamageWhy,
        die: Option<u8>,
        sink: &mut impl Sink<Event>,
    ) {
        let k = &mut self.m[s.index()];
        k.health = k.health.saturating_sub(amount);
        sink.push(Event::Damage {
            name: s,
            amount,
            why,
            die,
            health: k.health,
        });
        // PF25: any hurt ends all his contacts at once.
        if amount > 0 && self.m[s.index()].inside {
            self.end_contact(s, ContactEndWhy::Damage, sink);
        }
    }

    fn end_contact(&mut self, inv: Side, why: ContactEndWhy, sink: &mut impl Sink<Event>) {
        let k = &mut self.m[inv.index()];
        k.inside = false;
        k.block = 0;
        k.stock = 0;
        sink.push(Event::ContactEnded {
            psionist: inv,
            victim: inv.other(),
            why,
        });
    }

    fn enter(&mut self, inv: Side, via: Via, sink: &mut impl Sink<Event>) {
        let k = &mut self.m[inv.index()];
        k.inside = true;
        k.block = 0;
        k.stock = 0;
        sink.push(Event::Contact {
            psionist: inv,
            victim: inv.other(),
            via,
        });
    }

    /// A mental effect of `strength` from `s` on the mind he is in (PF17–PF20).
    fn effect(
        &mut self,
        s: Side,
        kind: MentalKind,
        strength: u8,
        bits: u8,
        free: bool,
        sink: &mut impl Sink<Event>,
    ) {
        let victim = s.other();
        let cost = strength.saturating_sub(u8::from(free));
        let k = &mut self.m[s.index()];
        let before = k.pfp;
        k.pfp = k.pfp.saturating_sub(cost);
        if cost > 0 {
            sink.push(Event::PfpSpent {
                name: s,
                amount: cost,
                why: SpendWhy::Effect,
                pfp: k.pfp,
            });
        }
        let actions = if kind == MentalKind::Puppet {
            PuppetActions {
                len: strength,
                bits,
            }
        } else {
            PuppetActions::default()
        };
        sink.push(Event::Effect {
            psionist: s,
            victim,
            effect: kind,
            strength,
            cost,
            free,
            actions,
        });
        if before > 0 && self.m[s.index()].pfp == 0 {
            sink.push(Event::OpenMind { name: s });
        }
        match kind {
            MentalKind::Pain => self.damage(victim, strength, DamageWhy::Pain, None, sink),
            MentalKind::Mental => {
                let k = &mut self.m[s.index()];
                k.block = k.block.saturating_add(strength);
            }
            MentalKind::Physical => {
                let k = &mut self.m[s.index()];
                k.stock = k.stock.saturating_add(strength);
            }
            MentalKind::Puppet => {
                for a in actions.iter() {
                    match a {
                        super::event::PuppetAction::Strike => {
                            self.damage(victim, 1, DamageWhy::Puppet, None, sink)
                        }
                        super::event::PuppetAction::Ground => {
                            if !self.m[victim.index()].ground {
                                self.m[victim.index()].ground = true;
                                sink.push(Event::Grounded {
                                    name: victim,
                                    why: GroundWhy::Puppet,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    // ----- tests -----

    fn start_test(&mut self, kind: TestKind, actor: Side) {
        let first = self.high.other();
        self.test = Test::new(kind, actor, first);
        self.phase = Phase::Dice(first);
    }

    fn role(&self, s: Side) -> Role {
        let t = &self.test;
        match t.kind {
            TestKind::Duel if s == t.actor => Role::Attacker,
            TestKind::Duel => Role::Defender,
            // The contact's psionist acts; the ejection's victim acts.
            TestKind::Contact if s == t.actor => Role::Psionist,
            TestKind::Eject if s != t.actor => Role::Psionist,
            _ => Role::OpenMind,
        }
    }

    fn penalties(&self, s: Side) -> Penalties {
        let t = &self.test;
        let k = &self.m[s.index()];
        let mut p = Penalties::default();
        p.push(PenaltyWhy::Ground, u8::from(k.ground));
        let open_role = self.role(s) == Role::OpenMind;
        p.push(PenaltyWhy::OpenMind, u8::from(open_role));
        p.push(PenaltyWhy::Invaded, u8::from(self.invaded(s)));
        if t.kind == TestKind::Eject && s == t.actor {
            p.push(PenaltyWhy::MentalBlock, self.m[s.other().index()].block);
        }
        if t.kind == TestKind::Duel && s != t.first {
            p.push(PenaltyWhy::LossOfControl, t.controls_pre);
        }
        p
    }

    /// `/dice N` and the throw of the pool (D1, D3, steps 5 and 6).
    fn throw(&mut self, t: Side, n: u8, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let kind = self.test.kind;
        let k = &mut self.m[t.index()];
        k.ap -= n;
        sink.push(Event::DiceAdded {
            name: t,
            test: kind,
            dice: n,
            ap: k.ap,
        });
        let penalties = self.penalties(t);
        let size = (BASE_DICE + n).saturating_sub(penalties.total()).max(1);
        // Thrown into their place: a copy read back at once from single-byte writes would
        // stall the load on the stores.
        let slot = &mut self.test.faces[t.index()];
        *slot = Faces::new();
        for _ in 0..size {
            slot.push(roll_d6(dice));
        }
        let faces = *slot;
        sink.push(Event::Pool {
            name: t,
            test: kind,
            role: self.role(t),
            base: BASE_DICE,
            added: n,
            penalties,
            size,
            faces,
        });
        let test = &mut self.test;
        test.thrown[t.index()] = true;
        let second = test.first.other();
        if kind == TestKind::Duel {
            self.phase = if t == test.first {
                Phase::Keep(t, false)
            } else if test.r1_maneuvers > 0 {
                Phase::Reroll(test.first)
            } else {
                Phase::Keep(second, false)
            };
        } else if t == test.first {
            self.phase = Phase::Dice(second);
        } else {
            self.resolve_opposed(sink);
        }
    }

    /// `/keep A B [EFFECT]` (D2, D5, a rekeep of D6).
    #[allow(clippy::too_many_arguments)]
    fn keep(
        &mut self,
        s: Side,
        a: u8,
        b: u8,
        effect: Option<DoubleEffect>,
        rekeep: bool,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let kept = if b == 0 {
            Faces::of(&[a])
        } else {
            Faces::of(&[a, b])
        };
        let double = b != 0 && a == b;
        self.test.kept[s.index()] = kept;
        self.test.kept_once[s.index()] = true;
        sink.push(Event::Keep {
            name: s,
            kept,
            double,
            effect,
            rekeep,
        });
        let other = s.other();
        let other_thrown = self.test.thrown[other.index()];
        if let Some(e) = effect {
            self.test.effects[s.index()].push(e);
            match e {
                DoubleEffect::Iron => {
                    let die = roll_d6(dice);
                    let k = &mut self.m[s.index()];
                    k.shield = k.shield.saturating_add(die);
                    sink.push(Event::IronWill {
                        name: s,
                        die,
                        shield: k.shield,
                    });
                }
                DoubleEffect::Weaken => {
                    let until_round = self.round + 1;
                    let k = &mut self.m[other.index()];
                    k.weak[1] = k.weak[1].saturating_add(1);
                    sink.push(Event::Weakened {
                        name: other,
                        by: s,
                        until_round,
                        power_score: k.power_score(),
                    });
                }
                DoubleEffect::Control if !other_thrown => self.test.controls_pre += 1,
                DoubleEffect::Maneuver if !other_thrown => self.test.r1_maneuvers += 1,
                DoubleEffect::Control | DoubleEffect::Maneuver => self.test.queue.push(s, e),
                _ => {}
            }
        }
        if !other_thrown {
            self.phase = Phase::Dice(other);
        } else {
            self.run_queue(dice, sink);
        }
    }

    /// `/reroll V`: a Maneuver's die (D4, D6).
    fn reroll(
        &mut self,
        owner: Side,
        v: u8,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let other = owner.other();
        let new = roll_d6(dice);
        let faces = &mut self.test.faces[other.index()];
        if let Some(slot) = faces.as_mut_slice().iter_mut().find(|x| **x == v) {
            *slot = new;
        }
        let faces = *faces;
        sink.push(Event::Reroll {
            name: other,
            by: owner,
            old: v,
            new,
            faces,
        });
        if !self.test.kept_once[other.index()] {
            // D4: R1's Maneuvers before R2 keeps.
            self.test.r1_maneuvers -= 1;
            self.phase = if self.test.r1_maneuvers > 0 {
                Phase::Reroll(owner)
            } else {
                Phase::Keep(other, false)
            };
        } else {
            self.test.rerolled = new;
            self.phase = Phase::Keep(other, true);
        }
    }

    /// D6: the effects chosen from D5 on, in order, until none waits; then D7.
    fn run_queue(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        while let Some((owner, e)) = self.test.queue.pop() {
            let other = owner.other();
            match e {
                DoubleEffect::Maneuver => {
                    self.phase = Phase::Reroll(owner);
                    return;
                }
                DoubleEffect::Control => {
                    // PF9: after the throw, the lower kept die is lost; the best two left.
                    let t = &mut self.test;
                    let kept = t.kept[other.index()];
                    let Some(&low) = kept.as_slice().iter().min() else {
                        continue;
                    };
                    t.faces[other.index()].remove(low);
                    let faces = t.faces[other.index()];
                    let kept = best_two(&faces);
                    t.kept[other.index()] = kept;
                    sink.push(Event::DieLost {
                        name: other,
                        die: low,
                        faces,
                        kept,
                    });
                }
                _ => {}
            }
        }
        self.compare_duel(sink);
        self.run_d8(dice, sink);
    }

    /// PF6: the winner of equal results by the unkept dice, highest first; `None`: a full tie.
    fn by_unkept(&self, a: Side, b: Side) -> Option<Side> {
        let t = &self.test;
        let ua = unkept(&t.faces[a.index()], &t.kept[a.index()]);
        let ub = unkept(&t.faces[b.index()], &t.kept[b.index()]);
        let (ua, ub) = (ua.as_slice(), ub.as_slice());
        for i in 0..ua.len().max(ub.len()) {
            match (ua.get(i), ub.get(i)) {
                (Some(x), Some(y)) if x > y => return Some(a),
                (Some(x), Some(y)) if x < y => return Some(b),
                (Some(_), None) => return Some(a),
                (None, Some(_)) => return Some(b),
                _ => {}
            }
        }
        None
    }

    fn test_event(&self, sink: &mut impl Sink<Event>) {
        let t = &self.test;
        let att = t.actor;
        let side = |s: Side| TestSide {
            name: s,
            role: self.role(s),
            faces: t.faces[s.index()],
            kept: t.kept[s.index()],
            score: self.m[s.index()].score(),
            result: t.result[s.index()],
            effects: t.effects[s.index()],
        };
        let (ra, rd) = (t.result[att.index()], t.result[att.other().index()]);
        sink.push(Event::Test {
            kind: t.kind,
            round: self.round,
            attacker: att,
            defender: att.other(),
            first: t.first,
            sides: [side(att), side(att.other())],
            winner: t.winner,
            by: t.by,
            difference: ra.abs_diff(rd),
        });
    }

    fn compare(&mut self, tactical: bool) {
        let att = self.test.actor;
        let def = att.other();
        for s in Side::BOTH {
            let r = self.test.kept[s.index()].sum() + self.m[s.index()].score();
            self.test.result[s.index()] = r;
        }
        let (ra, rd) = (self.test.result[att.index()], self.test.result[def.index()]);
        let (winner, by) = if ra > rd {
            (Some(att), WonBy::Result)
        } else if rd > ra {
            (Some(def), WonBy::Result)
        } else if tactical {
            (Some(att), WonBy::Tactical)
        } else {
            match self.by_unkept(att, def) {
                Some(w) => (Some(w), WonBy::Dice),
                None => (None, WonBy::Tie),
            }
        };
        self.test.winner = winner;
        self.test.by = by;
    }

    /// D7: the duel's results compared (PF6, PF11).
    fn compare_duel(&mut self, sink: &mut impl Sink<Event>) {
        let att = self.test.actor;
        let tactical = self.test.effects[att.index()].count(DoubleEffect::Tactical) > 0;
        self.compare(tactical);
        self.test_event(sink);
        self.test.d8 = D8::Loss;
    }

    /// Steps 5 and 6: a contact's or ejection's dice kept by Herald and compared (PF24).
    fn resolve_opposed(&mut self, sink: &mut impl Sink<Event>) {
        for s in Side::BOTH {
            self.test.kept[s.index()] = best_two(&self.test.faces[s.index()]);
        }
        self.compare(false);
        self.test_event(sink);
        let actor = self.test.actor;
        let won = self.test.winner == Some(actor);
        match self.test.kind {
            TestKind::Contact => {
                if won {
                    self.enter(actor, Via::Contact, sink);
                    self.phase = Phase::Effect(actor, false);
                    return;
                }
                sink.push(Event::ContactBlocked {
                    psionist: actor,
                    victim: actor.other(),
                });
            }
            TestKind::Eject => {
                if won {
                    self.end_contact(actor.other(), ContactEndWhy::Ejected, sink);
                }
            }
            TestKind::Duel => {}
        }
        self.after_action(actor, sink);
    }

    /// A test "by rolling a double" (PF7): whether it succeeded.
    fn double_test(
        &mut self,
        s: Side,
        why: DoubleTestWhy,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> bool {
        let mut penalties = Penalties::default();
        penalties.push(PenaltyWhy::Ground, u8::from(self.m[s.index()].ground));
        penalties.push(PenaltyWhy::Invaded, u8::from(self.invaded(s)));
        let size = BASE_DICE.saturating_sub(penalties.total()).max(1);
        let mut faces = Faces::new();
        for _ in 0..size {
            faces.push(roll_d6(dice));
        }
        let success = is_double(faces.as_slice());
        sink.push(Event::DoubleTest {
            name: s,
            why,
            size,
            penalties,
            faces,
            success,
        });
        success
    }

    fn ground(&mut self, s: Side, sink: &mut impl Sink<Event>) {
        if !self.m[s.index()].ground {
            self.m[s.index()].ground = true;
            sink.push(Event::Grounded {
                name: s,
                why: GroundWhy::Unbalance,
            });
        }
    }

    /// D8, from the stage it stands at; stops at the free effect's and the backlash's prompts.
    fn run_d8(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let att = self.test.actor;
        let def = att.other();
        let unleashes = self.test.effects[att.index()].count(DoubleEffect::Unleash);
        loop {
            match self.test.d8 {
                D8::Loss => {
                    self.test.d8 = D8::Tactical;
                    let Some(winner) = self.test.winner else {
                        continue;
                    };
                    let loser = winner.other();
                    let t = &self.test;
                    let difference = t.result[0].abs_diff(t.result[1]);
                    let (flaw, mut unleash) = (
                        if loser == def {
                            t.effects[att.index()].count(DoubleEffect::Flaw)
                        } else {
                            0
                        },
                        Faces::new(),
                    );
                    if loser == def {
                        for _ in 0..unleashes {
                            unleash.push(roll_d6(dice));
                        }
                    }
                    let total = difference
                        .saturating_add(flaw)
                        .saturating_add(unleash.sum());
                    let k = &mut self.m[loser.index()];
                    let shield = k.shield.min(total);
                    k.shield -= shield;
                    let before = k.pfp;
                    let lost = (total - shield).min(k.pfp);
                    k.pfp -= lost;
                    sink.push(Event::PfpLost {
                        name: loser,
                        why: LossWhy::Duel,
                        difference: Some(difference),
                        flaw: Some(flaw),
                        unleash: Some(unleash),
                        shield,
                        lost,
                        pfp: k.pfp,
                    });
                    if before > 0 && self.m[loser.index()].pfp == 0 {
                        sink.push(Event::OpenMind { name: loser });
                        let w = &self.m[winner.index()];
                        if w.psionist && w.pfp >= 1 && !w.inside {
                            // PF15: the winner enters and chooses a free effect at once.
                            self.enter(winner, Via::Duel, sink);
                            self.phase = Phase::Effect(winner, true);
                            return;
                        }
                    }
                }
                D8::Tactical => {
                    self.test.d8 = D8::Unleash(0);
                    if self.test.by == WonBy::Tactical {
                        let n = self.test.effects[att.index()].count(DoubleEffect::Tactical);
                        self.damage(def, n, DamageWhy::Tactical, None, sink);
                    }
                }
                D8::Unleash(i) => {
                    if i >= unleashes {
                        self.test.d8 = D8::Unbalance(0);
                        continue;
                    }
                    self.test.d8 = D8::Unleash(i + 1);
                    if !self.double_test(def, DoubleTestWhy::Unbalance, dice, sink) {
                        self.ground(def, sink);
                    }
                    self.damage(def, 1, DamageWhy::Unleash, None, sink);
                }
                D8::Unbalance(i) => {
                    let n = self.test.effects[def.index()].count(DoubleEffect::Unbalance);
                    if i >= n {
                        self.test.d8 = D8::Backlash(0);
                        continue;
                    }
                    self.test.d8 = D8::Unbalance(i + 1);
                    if !self.double_test(att, DoubleTestWhy::Unbalance, dice, sink) {
                        self.ground(att, sink);
                    }
                }
                D8::Backlash(i) => {
                    if i >= unleashes {
                        self.test.d8 = D8::Vanish;
                        continue;
                    }
                    self.test.d8 = D8::Backlash(i + 1);
                    if !self.double_test(att, DoubleTestWhy::Backlash, dice, sink) {
                        self.phase = Phase::Backlash(att);
                        return;
                    }
                }
                D8::Vanish => {
                    let t = &self.test;
                    if t.effects[def.index()].count(DoubleEffect::Vanish) > 0
                        && t.result[def.index()] > t.result[att.index()]
                    {
                        let until_round = self.round + 1;
                        let k = &mut self.m[att.index()];
                        k.barred_until = k.barred_until.max(until_round);
                        sink.push(Event::Vanished {
                            name: def,
                            attacker: att,
                            until_round,
                        });
                    }
                    self.after_action(att, sink);
                    return;
                }
            }
        }
    }
}

impl Fight for Duel {
    type Setup = DuelSetup;
    type Decision = Decision;
    type Event = Event;
    type Error = RuleError;

    fn start(setup: DuelSetup, dice: &mut impl RollSource) -> (Duel, Vec<Event>) {
        let mut events = Vec::new();
        let d = Duel::start_into(setup, dice, &mut events);
        (d, events)
    }

    fn setup(&self) -> &DuelSetup {
        &self.setup
    }

    fn start_into(
        setup: DuelSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Duel {
        Duel::start_into(setup, dice, sink)
    }

    fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        Duel::play_out(self, dice, sink, max_decisions)
    }

    fn pending(&self) -> Vec<Prompt<Decision>> {
        self.default_decision()
            .map(|(side, default)| Prompt {
                side,
                what: self.what(),
                options: self.options(),
                default,
            })
            .into_iter()
            .collect()
    }

    fn decide(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.decide_into(side, decision, dice, &mut events)?;
        Ok(events)
    }

    fn result(&self) -> Option<FightResult> {
        self.result.map(|(winner, reason)| FightResult {
            winner,
            reason: reason.name(),
        })
    }
}
