//! A creature's decisions in psionic combat, and why one is refused.

use super::event::{PuppetOrder, Seat, Seats};
use super::modes::{AttackMode, DefenseMode, Levels};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// The seat of a decision that names none: the one creature of its side that is awaited (in a
/// one-against-one fight, always that side's creature).
pub const ANY: Seat = u8::MAX;

/// A decision: who decides (a seat, or [`ANY`]) and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The deciding creature's seat: the possessor on a puppet's turn.
    pub seat: Seat,
    /// What it decides.
    pub act: Act,
}

impl Decision {
    /// `act` by whichever creature of the deciding side is awaited.
    pub fn any(act: Act) -> Decision {
        Decision { seat: ANY, act }
    }
}

/// What a creature decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    /// `/attack TARGET[,TARGET] MODE [DICE] [nofear]` (PC9); `dice` 0 is all.
    Attack {
        /// As named (before PC23).
        targets: Seats,
        /// The mode.
        mode: AttackMode,
        /// 1 to the pool; 0 for all.
        dice: u8,
        /// Subversion frightens unless `nofear` (PC29).
        fear: bool,
    },
    /// `/maintain NAME`: keep a due control with the turn's action (PC22).
    Maintain(#[serde(with = "named")] Seat),
    /// `/dedicate NAME`: keep a due control with a die a member, free (PC22).
    Dedicate(#[serde(with = "named")] Seat),
    /// `/release NAME`: end a control, free (PC22).
    Release(#[serde(with = "named")] Seat),
    /// `/pass`.
    Pass,
    /// `/defend MODE|none [DICE] [spells L,L] [draw NAME,NAME]`, as a target or a drawn ally.
    Defend {
        /// `None` for none.
        mode: Option<DefenseMode>,
        /// 1 to the pool; 0 for all.
        dice: u8,
        /// Spells sacrificed (PC15).
        spells: Levels,
        /// Allies drawn in by Imagination Swarm (PC28).
        draw: Seats,
    },
    /// `/join [DICE] [spells L,L] [draw NAME,NAME]`: an ally joins with Imagination Swarm.
    Join {
        /// 1 to the pool; 0 for all.
        dice: u8,
        /// Spells sacrificed.
        spells: Levels,
        /// Allies drawn in.
        draw: Seats,
    },
    /// `/stay`: an ally does not join.
    Stay,
    /// `/puppet pass|yield` (PC25).
    Puppet(PuppetOrder),
    /// `/yield` (PC32).
    Yield,
}

/// The creature a decision names, stored as `{"creature": SEAT}`: a variant of an internally
/// tagged enum holds a map, never a bare number.
mod named {
    use super::Seat;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Named {
        creature: Seat,
    }

    pub fn serialize<S: Serializer>(seat: &Seat, s: S) -> Result<S::Ok, S::Error> {
        Named { creature: *seat }.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        Named::deserialize(d).map(|n| n.creature)
    }
}

impl Act {
    /// The command word: `attack`, `defend`, `puppet`...
    pub fn word(&self) -> &'static str {
        match self {
            Act::Attack { .. } => "attack",
            Act::Maintain(_) => "maintain",
            Act::Dedicate(_) => "dedicate",
            Act::Release(_) => "release",
            Act::Pass => "pass",
            Act::Defend { .. } => "defend",
            Act::Join { .. } => "join",
            Act::Stay => "stay",
            Act::Puppet(_) => "puppet",
            Act::Yield => "yield",
        }
    }

    /// The decision as a command line, creatures named by `name`: `attack Brim stab`.
    pub fn text(&self, name: &dyn Fn(Seat) -> String) -> String {
        let list = |s: &Seats| {
            s.as_slice()
                .iter()
                .map(|&x| name(x))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = self.word().to_string();
        let mut add = |part: String| {
            out.push(' ');
            out.push_str(&part);
        };
        match self {
            Act::Attack {
                targets,
                mode,
                dice,
                fear,
            } => {
                add(list(targets));
                add(mode.word().to_string());
                if *dice > 0 {
                    add(dice.to_string());
                }
                if *mode == AttackMode::Subversion && !fear {
                    add("nofear".into());
                }
            }
            Act::Maintain(s) | Act::Dedicate(s) | Act::Release(s) => add(name(*s)),
            Act::Defend {
                mode,
                dice,
                spells,
                draw,
            } => {
                add(mode.map_or("none", |m| m.word()).to_string());
                extras(&mut add, *dice, spells, &list(draw));
            }
            Act::Join { dice, spells, draw } => extras(&mut add, *dice, spells, &list(draw)),
            Act::Puppet(o) => add(match o {
                PuppetOrder::Pass => "pass",
                PuppetOrder::Yield => "yield",
            }
            .into()),
            Act::Pass | Act::Stay | Act::Yield => {}
        }
        out
    }
}

fn extras(add: &mut impl FnMut(String), dice: u8, spells: &Levels, draw: &str) {
    if dice > 0 {
        add(dice.to_string());
    }
    if !spells.is_empty() {
        add(format!("spells {}", spells.csv()));
    }
    if !draw.is_empty() {
        add(format!("draw {draw}"));
    }
}

impl fmt::Display for Decision {
    /// The command line with creatures as `#seat`; the bot names them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.act.text(&|s| format!("#{s}")))
    }
}

/// Why a decision is refused. Nothing changes.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The fight is over.
    #[error("the fight is over")]
    FightOver,
    /// Not this creature's decision now.
    #[error("it is not your decision now")]
    NotYourTurn,
    /// Several of the side's creatures are awaited, and the decision names none.
    #[error("several of your side's creatures are awaited; say which")]
    Ambiguous,
    /// No such creature in this fight.
    #[error("no such creature in this fight")]
    NoSuchCreature,
    /// This decision is not one of the prompt's kind.
    #[error("{0}")]
    Wrong(&'static str),
    /// A creature that cannot attack.
    #[error("PC9: {0}")]
    CannotAttack(&'static str),
    /// A target that is not a legal one.
    #[error("PC23: {0}")]
    Target(String),
    /// Fear forbids it (PC29).
    #[error(
        "PC29: {0} is frightened of {1} and may not attack it or take part in a defense against it"
    )]
    Frightened(String, String),
    /// A mode it does not know.
    #[error("it does not know {0}")]
    Mode(&'static str),
    /// Dice out of 1 to the pool.
    #[error("PC11: dice are 1 to the pool ({pool}); {given} is not")]
    Dice {
        /// The pool now.
        pool: u8,
        /// As given.
        given: u8,
    },
    /// Spells not memorised.
    #[error("PC15: only memorised spells not yet spent can be sacrificed ({0} left)")]
    Spells(String),
    /// A draw that is not allowed.
    #[error("PC28: {0}")]
    Draw(String),
    /// A control it does not hold, or not due.
    #[error("PC22: {0}")]
    Control(String),
    /// Unable to defend except with Labyrinth.
    #[error("PC12: unable to defend, it may use only Cognitive Labyrinth or none")]
    OnlyLabyrinth,
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every decision is stored in the fight log as JSON and read back for a restart and
    // `verify`: PC22's /maintain, /dedicate and /release too, which name a creature.
    #[test]
    fn every_decision_round_trips_as_json() {
        let acts = [
            Act::Attack {
                targets: [1, 2].into_iter().collect(),
                mode: AttackMode::Wave,
                dice: 3,
                fear: false,
            },
            Act::Maintain(4),
            Act::Dedicate(5),
            Act::Release(2),
            Act::Pass,
            Act::Defend {
                mode: Some(DefenseMode::Swarm),
                dice: 0,
                spells: Levels::of(&[3, 2]),
                draw: [3].into_iter().collect(),
            },
            Act::Join {
                dice: 2,
                spells: Levels::default(),
                draw: Seats::EMPTY,
            },
            Act::Stay,
            Act::Puppet(PuppetOrder::Yield),
            Act::Yield,
        ];
        for act in acts {
            let d = Decision { seat: 1, act };
            let text = serde_json::to_string(&d).expect("a decision serializes");
            let back: Decision = serde_json::from_str(&text).expect("and reads back");
            assert_eq!(back, d, "{text}");
        }
        assert_eq!(
            serde_json::to_value(Act::Dedicate(5)).unwrap(),
            serde_json::json!({"act": "dedicate", "creature": 5})
        );
    }
}
