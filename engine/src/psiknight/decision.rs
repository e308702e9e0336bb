//! What a fighter can decide: the moves of the checklists, Bonus modes and psi declarations.

use super::knight::PsiSkill;
use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::game::Side;

/// How a pending Bonus will be used (R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusMode {
    /// Subtract it from the opponent's defense against your next attack that hits (the default).
    #[default]
    Weaken,
    /// Add it to your next Lance roll, or your next Sword roll of an Attack or Press.
    Attack,
    /// Add it to your defense the next time you are hit.
    Defend,
}

impl BonusMode {
    /// The lower-case name used in commands and events.
    pub fn name(self) -> &'static str {
        match self {
            BonusMode::Weaken => "weaken",
            BonusMode::Attack => "attack",
            BonusMode::Defend => "defend",
        }
    }
}

/// A fighter's decision. The checklist moves answer a prompt of [`crate::psiknight::Match::pending`];
/// [`Decision::Bonus`] and [`Decision::Psi`] are declarations a fighter may make at any time
/// while the match is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Joust steps 4–5: announce a sweep attack (+25 Lance, but the other strikes first).
    Sweep,
    /// Joust steps 4–5: no sweep.
    NoSweep,
    /// Joust step 7: a High strike (the defender rolls Shield).
    High,
    /// Joust step 7: a Low strike (the defender rolls Ride).
    Low,
    /// After a practice Joust: agree to go on to Swordplay (R41).
    Swordplay,
    /// After a practice Joust: refuse Swordplay (R41).
    Decline,
    /// Swordplay 2A: roll Sword.
    Attack,
    /// Swordplay 2A: roll Observe.
    Observe,
    /// Swordplay 2A: roll Sword +25; the next counter you make is Luck (R15).
    Press,
    /// Swordplay 2B: roll Shield.
    Block,
    /// Swordplay 2B: roll Dodge.
    Dodge,
    /// Swordplay 2B: roll Sword −20.
    Parry,
    /// Give up the match (R19).
    Yield,
    /// Choose how the pending Bonus will be used (R5).
    Bonus(BonusMode),
    /// Arm a psi skill (R21), or with `None` disarm it.
    Psi(Option<PsiSkill>),
}

impl Decision {
    /// The command word for this decision, as a player types it after the prefix.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Sweep => "sweep",
            Decision::NoSweep => "nosweep",
            Decision::High => "high",
            Decision::Low => "low",
            Decision::Swordplay => "swordplay",
            Decision::Decline => "decline",
            Decision::Attack => "attack",
            Decision::Observe => "observe",
            Decision::Press => "press",
            Decision::Block => "block",
            Decision::Dodge => "dodge",
            Decision::Parry => "parry",
            Decision::Yield => "yield",
            Decision::Bonus(_) => "bonus",
            Decision::Psi(_) => "psi",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Bonus(mode) => write!(f, "bonus {}", mode.name()),
            Decision::Psi(Some(skill)) => write!(f, "psi {}", skill.name()),
            Decision::Psi(None) => f.write_str("psi off"),
            other => f.write_str(other.word()),
        }
    }
}
