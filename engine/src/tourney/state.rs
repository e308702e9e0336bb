//! What outlasts a bout (T21) and what happens between bouts: hits heal at the start of the
//! realm's next day (T15), a lost or ordered weapon arrives then too, a damaged one is repaired
//! at the smith at once (T16).
//!
//! The engine reads no clock: the caller gives the realm's day as `YYYY-MM-DD` (in its time
//! zone, as R25), and days compare as strings, which ISO dates allow.

use super::sheet::{TourneySheet, Weapon, WeaponState};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A Tourney knight's state, kept with his sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TourneyState {
    /// Hits taken, 0 to Health (T13).
    pub hits: u8,
    /// The main weapon. `Lost` also while an order at the smith is being made (T16).
    pub main: WeaponState,
    /// The dagger (T7).
    pub dagger: WeaponState,
    /// A main weapon ordered with `/smith WEAPON`, his at the start of the realm's next day.
    pub ordered: Option<Weapon>,
    /// The realm day (`YYYY-MM-DD`) of the last change; `""` for a fresh knight.
    pub day: String,
}

impl TourneyState {
    /// The sheet and state as they read on `day`. On a later day than the last change all hits
    /// have healed (T15), a lost main weapon is replaced by a sound one of the sheet's kind, or
    /// of the ordered kind, which becomes the sheet's `main`, and a lost dagger is replaced
    /// (T16). A damaged weapon stays damaged. On the same day nothing changes.
    pub fn as_of(&self, sheet: &TourneySheet, day: &str) -> (TourneySheet, TourneyState) {
        let mut sheet = sheet.clone();
        let mut state = self.clone();
        if day > self.day.as_str() {
            state.hits = 0;
            if let Some(kind) = state.ordered.take() {
                sheet.main = kind;
                state.main = WeaponState::Sound;
            } else if state.main == WeaponState::Lost {
                state.main = WeaponState::Sound;
            }
            if state.dagger == WeaponState::Lost {
                state.dagger = WeaponState::Sound;
            }
            state.day = day.to_string();
        }
        (sheet, state)
    }

    /// Health less hits taken, stopping at 0 (T13).
    #[inline]
    pub fn effective_health(&self, sheet: &TourneySheet) -> u8 {
        sheet.health.saturating_sub(self.hits)
    }

    /// Whether he is out of the Tourney until the realm's next day: Health 0 (T15).
    #[inline]
    pub fn is_out(&self, sheet: &TourneySheet) -> bool {
        self.effective_health(sheet) == 0
    }

    /// Whether he has a weapon to fight with: his main weapon or his dagger (T7).
    #[inline]
    pub fn armed(&self) -> bool {
        self.main != WeaponState::Lost || self.dagger != WeaponState::Lost
    }

    /// `/smith` (T16), out of a fight, on `day`; `self` and `sheet` as of that day (see
    /// [`TourneyState::as_of`]). With no order, repairs the damaged weapons at once, free. With
    /// an order, trades the main weapon for one of that kind, ready at the start of the realm's
    /// next day, meanwhile the dagger; a damaged dagger is repaired on the same visit.
    pub fn smith(
        &self,
        sheet: &TourneySheet,
        order: Option<Weapon>,
        day: &str,
    ) -> Result<(TourneyState, Smithed), SmithError> {
        let mut state = self.clone();
        let mut repaired = Vec::new();
        let main_kind = self.ordered.unwrap_or(sheet.main);
        if order.is_none() && state.main == WeaponState::Damaged {
            state.main = WeaponState::Sound;
            repaired.push(sheet.main);
        }
        if state.dagger == WeaponState::Damaged {
            state.dagger = WeaponState::Sound;
            repaired.push(Weapon::Dagger);
        }
        let ordered = match order {
            Some(Weapon::Dagger) => return Err(SmithError::DaggerMain),
            Some(kind) => {
                state.main = WeaponState::Lost;
                state.ordered = Some(kind);
                Some(kind)
            }
            None => {
                if repaired.is_empty() {
                    let lost = if self.main == WeaponState::Lost {
                        Some(main_kind)
                    } else if self.dagger == WeaponState::Lost {
                        Some(Weapon::Dagger)
                    } else {
                        None
                    };
                    return Err(SmithError::NothingToRepair { lost });
                }
                None
            }
        };
        let mut coming = Vec::new();
        if state.main == WeaponState::Lost {
            coming.push(state.ordered.unwrap_or(sheet.main));
        }
        if state.dagger == WeaponState::Lost {
            coming.push(Weapon::Dagger);
        }
        state.day = day.to_string();
        Ok((
            state,
            Smithed {
                repaired,
                ordered,
                coming,
                ready_after: day.to_string(),
            },
        ))
    }
}

/// What a visit to the smith did (T16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Smithed {
    /// The weapons repaired at once (the main weapon's kind, or `dagger`).
    pub repaired: Vec<Weapon>,
    /// The kind of main weapon ordered, if any.
    pub ordered: Option<Weapon>,
    /// The weapons that will be his at the start of the realm's next day (lost or ordered).
    pub coming: Vec<Weapon>,
    /// The day after which `coming` is ready: they are his on any later realm day.
    pub ready_after: String,
}

/// Why the smith has nothing to do.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SmithError {
    /// No weapon is damaged. `lost` names a lost one, which cannot be repaired (T16).
    #[error("{}", nothing_message(*.lost))]
    NothingToRepair {
        /// A lost weapon, replaced at the start of the realm's next day.
        lost: Option<Weapon>,
    },
    /// The dagger was ordered as main weapon.
    #[error("the dagger is every knight's sidearm, not a main weapon (T7, T10)")]
    DaggerMain,
}

fn nothing_message(lost: Option<Weapon>) -> String {
    match lost {
        None => "nothing to repair: your weapons are sound (T16)".to_string(),
        Some(w) => format!(
            "nothing to repair: a lost {} cannot be mended, and a new one is yours at the start \
             of the realm's next day (T16)",
            w.label()
        ),
    }
}
