//! A small harness for bout tests: two Tourney knights, scripted dice, every event kept, and the
//! page's compact rendering of events.
#![allow(dead_code)]

use herald_engine::dice::ScriptedDice;
use herald_engine::game::Side;
use herald_engine::psiknight::Style;
use herald_engine::tourney::event::Event;
use herald_engine::tourney::{
    Bout, BoutSetup, Decision, Entrant, NewTourneyKnight, RuleError, Skills, Tables, TourneySheet,
    TourneyState, Weapon, WeaponState,
};

pub use Side::{Challenged as B, Challenger as A};

/// A sheet with the given main weapon, skills (unlisted 0), Strength and Health; no creation
/// rule is checked, so NPC-sized and odd knights can be built.
pub fn sheet(
    name: &str,
    main: Weapon,
    skills: &[(Weapon, u8)],
    strength: u8,
    health: u8,
) -> TourneySheet {
    let mut s = Skills::default();
    for &(w, v) in skills {
        s.set(w, v);
    }
    TourneySheet {
        name: name.to_string(),
        style: Style::Sir,
        main,
        skills: s,
        strength,
        health,
    }
}

/// Sir Ector of the worked example: the defaults (broadsword 6, dagger 1, Strength 3).
pub fn ector() -> TourneySheet {
    NewTourneyKnight {
        name: "Ector".into(),
        ..Default::default()
    }
    .create(false)
    .expect("Ector fits T12")
}

/// Sir Gimby of the worked example: broadsword 4, dagger 1, Strength 5 (+1 a blow).
pub fn gimby() -> TourneySheet {
    NewTourneyKnight {
        name: "Gimby".into(),
        skills: Some(vec![(Weapon::Broadsword, 4), (Weapon::Dagger, 1)]),
        strength: Some(5),
        ..Default::default()
    }
    .create(false)
    .expect("Gimby fits T12")
}

/// A knight at the start of a fresh day: no hits, both weapons sound.
pub fn fresh(sheet: TourneySheet) -> Entrant {
    Entrant {
        sheet,
        state: TourneyState::default(),
    }
}

/// A knight with hits taken and weapon states.
pub fn worn(sheet: TourneySheet, hits: u8, main: WeaponState, dagger: WeaponState) -> Entrant {
    Entrant {
        sheet,
        state: TourneyState {
            hits,
            main,
            dagger,
            ..Default::default()
        },
    }
}

/// Two knights, scripted dice, and the events so far.
pub struct Pair {
    pub bout: Bout,
    pub dice: ScriptedDice,
    pub events: Vec<Event>,
}

impl Pair {
    /// Starts a bout with the page's tables; `rolls` are consumed from the roll-off on.
    pub fn start(a: Entrant, b: Entrant, rolls: &[u32]) -> Pair {
        Self::start_with(
            BoutSetup {
                knights: [a, b],
                tables: Tables::default(),
            },
            rolls,
        )
    }

    /// Starts a bout from a whole setup.
    pub fn start_with(setup: BoutSetup, rolls: &[u32]) -> Pair {
        let mut dice = ScriptedDice::new(rolls.iter().copied());
        let mut events = Vec::new();
        let bout = Bout::start_into(setup, &mut dice, &mut events);
        Pair { bout, dice, events }
    }

    /// A decision that must be accepted, on `rolls` queued first; returns its events and checks
    /// it consumed exactly those rolls (T22).
    pub fn go(&mut self, side: Side, decision: Decision, rolls: &[u32]) -> Vec<Event> {
        self.dice.push(rolls.iter().copied());
        let mut ev = Vec::new();
        self.bout
            .decide_into(side, decision, &mut self.dice, &mut ev)
            .unwrap_or_else(|e| panic!("{side:?} {decision} refused: {e}"));
        assert_eq!(
            self.dice.remaining(),
            0,
            "{side:?} {decision} left scripted dice unused"
        );
        self.events.extend(ev.iter().cloned());
        ev
    }

    /// A decision that must be refused; checks it changed nothing and rolled nothing.
    pub fn refused(&mut self, side: Side, decision: Decision) -> RuleError {
        let before = format!("{:?}", self.bout);
        let taken = self.dice.taken();
        let mut ev = Vec::new();
        let err = self
            .bout
            .decide_into(side, decision, &mut self.dice, &mut ev)
            .expect_err("decision should be refused");
        assert_eq!(
            before,
            format!("{:?}", self.bout),
            "a refused decision changed the bout"
        );
        assert_eq!(taken, self.dice.taken(), "a refused decision rolled dice");
        assert!(ev.is_empty(), "a refused decision reported events: {ev:?}");
        err
    }

    /// The events so far in the page's compact form, knights by name.
    pub fn compact(&self) -> Vec<String> {
        compact_all(&self.events, &self.names())
    }

    /// Both knights' names, challenger first.
    pub fn names(&self) -> [String; 2] {
        [
            self.bout.sheet(A).name.clone(),
            self.bout.sheet(B).name.clone(),
        ]
    }
}

/// Events in the page's compact form.
pub fn compact_all(events: &[Event], names: &[String; 2]) -> Vec<String> {
    events.iter().map(|e| compact(&e.named(names))).collect()
}

/// One event in the compact form of the page's worked example.
pub fn compact(e: &Event<&str>) -> String {
    use herald_engine::tourney::event::Event::*;
    fn word<T: serde::Serialize>(v: &T) -> String {
        serde_json::to_value(v)
            .unwrap()
            .as_str()
            .unwrap_or("null")
            .to_string()
    }
    match e {
        FightStarted { knights, .. } => {
            let k = |i: usize| {
                let k = &knights[i];
                format!(
                    "{} ({} {}, strength {}, health {}, hits {})",
                    k.knight,
                    k.wields.token(),
                    k.skill,
                    k.strength,
                    k.health,
                    k.hits
                )
            };
            format!("fight_started {} v {}", k(0), k(1))
        }
        RollOff { knight, die } => format!("roll_off {knight} {die}"),
        FirstActor { knight, rule } => format!("first_actor {knight} {}", word(rule)),
        RoundStarted { round } => format!("round_started {round}"),
        Action { knight, action, .. } => format!("action {knight} {}", word(action)),
        Test {
            knight,
            test,
            weapon,
            die,
            base,
            modifiers,
            total,
            against,
            target,
            natural,
            success,
        } => {
            let mut s = format!("test {knight} {}", word(test));
            if let Some(w) = weapon {
                s += &format!(" {}", w.token());
            }
            s += &format!(" {die}+{base}");
            for m in modifiers.iter() {
                s += &format!("{:+}({})", m.value, m.reason.name());
            }
            s += &format!("={total}");
            if let Some(a) = against {
                s += &format!(" against {a}");
            }
            if let Some(t) = target {
                s += &format!(" target {t}");
            }
            if let Some(n) = natural {
                s += &format!(" {}", word(n));
            }
            s += if *success { " success" } else { " failure" };
            s
        }
        Exchange {
            attacker,
            defender,
            result,
            rule,
        } => format!(
            "exchange {attacker}>{defender} {} {}",
            word(result),
            word(rule)
        ),
        Damage {
            knight,
            by,
            weapon,
            weapon_damage,
            strength_bonus,
            hits,
            hits_taken,
            health,
        } => format!(
            "damage {knight} {hits} ({} {weapon_damage} + strength {strength_bonus}) by {by}: \
             hits_taken {hits_taken}, health {health}",
            weapon.token()
        ),
        FumbleEffect {
            knight,
            die,
            effect,
        } => format!("fumble_effect {knight} {die} {}", word(effect)),
        WeaponState {
            knight,
            weapon,
            state,
        } => format!("weapon_state {knight} {} {}", weapon.token(), state.name()),
        WeaponDrawn { knight, weapon } => format!("weapon_drawn {knight} {}", weapon.token()),
        Down { knight, down } => format!("down {knight} {down}"),
        YieldOffered { knight, .. } => format!("yield_offered {knight}"),
        Disarmed { knight } => format!("disarmed {knight}"),
        Yielded { knight } => format!("yielded {knight}"),
        FightEnded {
            winner,
            loser,
            reason,
            ..
        } => format!("fight_ended {winner} beats {loser}: {}", reason.name()),
    }
}

/// The tests among some events, as (knight, kind, die, total, success).
pub fn tests(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|e| matches!(e, Event::Test { .. }))
        .cloned()
        .collect()
}
