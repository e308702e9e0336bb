//! What outlasts a fight and how it recovers (PM8, PM9, PM28): hp, FP, ISPs and death, on the
//! sheet between fights; full again at the first touch on a later realm day.
//!
//! The engine reads no clock: the caller gives the realm's day as `YYYY-MM-DD` (R25), and days
//! compare as strings, which ISO dates allow.

use super::gm::PendingCheck;
use super::sheet::{Isp, MorphSheet};
use serde::{Deserialize, Serialize};

/// A morph's state beside its sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MorphState {
    /// Hit points now; 0 or less is unconscious (PM8).
    pub hp: i32,
    /// PA FP left.
    pub pa_fp: u8,
    /// PE FP left.
    pub pe_fp: u8,
    /// ISPs left, by type.
    pub isp: Isp,
    /// Dead (PM9): never fights or recovers again.
    pub dead: bool,
    /// The realm day of its creation or last recovery.
    pub day: String,
    /// Set by [`MorphState::as_of`] when it recovered and not yet written back: the fight that
    /// starts from it reports `recovered`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recovered: bool,
    /// A GM's check awaiting `/redo` or `/keep` (PM27).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<PendingCheck>,
}

impl MorphState {
    /// A fresh morph's state on `day`: everything full.
    pub fn fresh(sheet: &MorphSheet, day: &str) -> MorphState {
        MorphState {
            hp: i32::from(sheet.max_hp),
            pa_fp: sheet.pa_fp,
            pe_fp: sheet.pe_fp,
            isp: sheet.isp,
            dead: false,
            day: day.to_string(),
            recovered: false,
            check: None,
        }
    }

    /// The state as it reads on `day` (PM28): on a later day than its `day` a living morph is
    /// full again (and wakes), and `day` becomes `day`; the dead stay as they are (PM9).
    pub fn as_of(&self, sheet: &MorphSheet, day: &str) -> MorphState {
        if self.dead || day <= self.day.as_str() {
            return self.clone();
        }
        MorphState {
            recovered: true,
            ..MorphState::fresh(sheet, day)
        }
    }

    /// Unconscious: hp 0 or less (PM8).
    pub fn unconscious(&self) -> bool {
        self.hp <= 0
    }
}
