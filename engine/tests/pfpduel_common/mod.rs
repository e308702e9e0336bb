//! A small harness for PFP duel tests: psionists and open minds, scripted dice, every event
//! kept as JSON with the sides named, and a subset check of the page's event fields.
#![allow(dead_code)]

use herald_engine::dice::ScriptedDice;
use herald_engine::game::Side;
use herald_engine::pfpduel::{Decision, Duel, DuelSetup, Entrant, Event, PfpSheet, RuleError};
use serde_json::Value;

pub use Side::{Challenged as B, Challenger as A};

/// A psionist of `power` and `health`.
pub fn psionist(name: &str, power: u8, health: u8) -> PfpSheet {
    PfpSheet {
        name: name.into(),
        psionist: true,
        power,
        aptitude: 0,
        health,
    }
}

/// An open mind of `aptitude` and `health`.
pub fn open_mind(name: &str, aptitude: u8, health: u8) -> PfpSheet {
    PfpSheet {
        name: name.into(),
        psionist: false,
        power: 0,
        aptitude,
        health,
    }
}

/// Ann and Bo of the worked example: power 2, health 6.
pub fn ann_bo() -> DuelSetup {
    setup(psionist("Ann", 2, 6), psionist("Bo", 2, 6))
}

/// A setup of two sheets at full health.
pub fn setup(a: PfpSheet, b: PfpSheet) -> DuelSetup {
    let ha = a.health;
    let hb = b.health;
    DuelSetup {
        minds: [
            Entrant {
                sheet: a,
                health: ha,
            },
            Entrant {
                sheet: b,
                health: hb,
            },
        ],
    }
}

/// A fight under test: the duel, its scripted dice and every event so far as JSON.
pub struct T {
    pub duel: Duel,
    pub dice: ScriptedDice,
    pub events: Vec<Value>,
    names: [String; 2],
}

/// Names the sides in an event's JSON, as the bot does.
pub fn named(v: Value, names: &[String; 2]) -> Value {
    match v {
        Value::String(s) if s == "challenger" => Value::String(names[0].clone()),
        Value::String(s) if s == "challenged" => Value::String(names[1].clone()),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| named(x, names)).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let k = match k.as_str() {
                        "challenger" if x.is_number() => names[0].clone(),
                        "challenged" if x.is_number() => names[1].clone(),
                        _ => k,
                    };
                    (k, named(x, names))
                })
                .collect(),
        ),
        other => other,
    }
}

impl T {
    /// Starts `setup` on `dice`.
    pub fn start(setup: DuelSetup, dice: &[u32]) -> T {
        let names = [
            setup.minds[0].sheet.name.clone(),
            setup.minds[1].sheet.name.clone(),
        ];
        let mut d = ScriptedDice::new(dice.iter().copied());
        let mut events: Vec<Event> = Vec::new();
        let duel = Duel::start_into(setup, &mut d, &mut events);
        let mut t = T {
            duel,
            dice: d,
            events: Vec::new(),
            names,
        };
        t.take(events);
        t
    }

    fn take(&mut self, events: Vec<Event>) {
        for e in events {
            let v = serde_json::to_value(e).expect("an event serializes");
            self.events.push(named(v, &self.names));
        }
    }

    /// Adds dice to the script.
    pub fn dice(&mut self, dice: &[u32]) -> &mut Self {
        self.dice.push(dice.iter().copied());
        self
    }

    /// `side` decides; panics if refused.
    pub fn go(&mut self, side: Side, d: Decision) -> &mut Self {
        if let Err(e) = self.try_go(side, d) {
            panic!(
                "{side:?} {d}: refused: {e}; awaiting {:?} {}",
                self.duel.awaited(),
                self.duel.what()
            );
        }
        self
    }

    /// `side` decides; the refusal if any.
    pub fn try_go(&mut self, side: Side, d: Decision) -> Result<(), RuleError> {
        let mut events = Vec::new();
        self.duel
            .decide_into(side, d, &mut self.dice, &mut events)?;
        self.take(events);
        Ok(())
    }

    /// The events of a type.
    pub fn of(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["type"] == kind).collect()
    }

    /// The last event of a type.
    pub fn last(&self, kind: &str) -> &Value {
        self.of(kind)
            .last()
            .copied()
            .unwrap_or_else(|| panic!("no {kind} event in {:#?}", self.events))
    }
}

/// Whether `got` holds every field of `want` with the same value (objects compared the same way).
pub fn has(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            w.iter().all(|(k, v)| g.get(k).is_some_and(|x| has(x, v)))
        }
        (Value::Array(g), Value::Array(w)) => {
            g.len() == w.len() && g.iter().zip(w).all(|(x, y)| has(x, y))
        }
        _ => got == want,
    }
}

/// Checks the events one for one against `want` (each a subset of fields with its `type`).
pub fn check(events: &[Value], want: &[Value]) {
    for (i, w) in want.iter().enumerate() {
        let Some(g) = events.get(i) else {
            panic!("event {i} missing: want {w}");
        };
        assert!(has(g, w), "event {i}: got {g}, want {w}");
    }
    assert_eq!(
        events.len(),
        want.len(),
        "extra events: {:#?}",
        &events[want.len()..]
    );
}

/// Keep A B with no effect.
pub fn keep(a: u8, b: u8) -> Decision {
    Decision::Keep { a, b, effect: None }
}

/// Keep A A with an effect.
pub fn keep_e(a: u8, effect: herald_engine::pfpduel::DoubleEffect) -> Decision {
    Decision::Keep {
        a,
        b: a,
        effect: Some(effect),
    }
}
