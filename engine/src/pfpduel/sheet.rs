//! A psionist's sheet (or an open mind's), the creation rules of PF30 and PF31, and what
//! outlasts a fight: health lost, until the realm's next day (PF34).
//!
//! The engine reads no clock: the caller gives the realm's day as `YYYY-MM-DD`, and days
//! compare as strings, which ISO dates allow.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The longest name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The realm's house numbers for a player's psionist (PF29, PF30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct House {
    /// Every player's psionist's power (PF30): 2.
    pub power: u8,
    /// Every player's psionist's health (PF29): 6.
    pub health: u8,
}

impl Default for House {
    fn default() -> Self {
        House {
            power: 2,
            health: 6,
        }
    }
}

/// What a fight needs to know of a fighter. The fight keeps a copy taken at its start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PfpSheet {
    /// The name, unique per game and realm (any case).
    pub name: String,
    /// A psionist (true) or an open mind (false, NPCs only, PF31).
    pub psionist: bool,
    /// Power (PF1): added to power tests, the cap of an effect's strength; 0 for an open mind.
    pub power: u8,
    /// Aptitude (PF22): an open mind's resisting score; 0 for a psionist.
    pub aptitude: u8,
    /// Health (PF29): physical damage comes off it; 0 is knocked out.
    pub health: u8,
}

/// What outlasts a fight (PF34): health lost, and the realm day it was lost on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PfpState {
    /// Health lost, 0 to the sheet's health.
    pub lost: u8,
    /// The realm day (`YYYY-MM-DD`) of the last change; `""` for a fresh character.
    pub day: String,
}

impl PfpState {
    /// The state as it reads on `day`: on a later day than the last change, all health is back
    /// (PF34); on the same day nothing changes.
    pub fn as_of(&self, day: &str) -> PfpState {
        if day > self.day.as_str() {
            PfpState {
                lost: 0,
                day: day.to_string(),
            }
        } else {
            self.clone()
        }
    }

    /// Health now: the sheet's less what was lost.
    #[inline]
    pub fn health(&self, sheet: &PfpSheet) -> u8 {
        sheet.health.saturating_sub(self.lost)
    }

    /// Whether the character is knocked out until the realm's next day (PF34).
    #[inline]
    pub fn knocked_out(&self, sheet: &PfpSheet) -> bool {
        self.health(sheet) == 0
    }
}

/// The choices made to create a character; `None` takes the default.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NewPsionist {
    /// The name.
    pub name: String,
    /// `--open-mind`: an open-mind NPC (PF31).
    pub open_mind: bool,
    /// `--power N`.
    pub power: Option<u8>,
    /// `--aptitude N`.
    pub aptitude: Option<u8>,
    /// `--health N`.
    pub health: Option<u8>,
}

/// Why a sheet cannot be made as asked. Each message names its rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SheetError {
    /// No name.
    #[error("a psionist needs a name: 1 to {MAX_NAME_CHARS} letters, digits, -, _ or ', starting with a letter")]
    EmptyName,
    /// Too long.
    #[error("a name has at most {MAX_NAME_CHARS} characters; this one has {0}")]
    NameTooLong(usize),
    /// A character not allowed.
    #[error("a name may use letters, digits, -, _ and ' only; '{0}' is not allowed")]
    NameCharacter(char),
    /// Not starting with a letter.
    #[error("a name starts with a letter")]
    NameStart,
    /// A player gave an option: every player's psionist has the house numbers (PF30).
    #[error("{0}: a player's psionist has power {1} and health {2}, no options (PF30)")]
    PlayerOption(&'static str, u8, u8),
    /// Power out of 1–6 for an NPC psionist.
    #[error("power {0}: an NPC psionist's power is 1 to 6 (PF31)")]
    Power(u8),
    /// Aptitude out of 0–6.
    #[error("aptitude {0}: an open mind's aptitude is 0 to 6 (PF31)")]
    Aptitude(u8),
    /// Health out of 1–20.
    #[error("health {0}: an NPC's health is 1 to 20 (PF31)")]
    Health(u8),
    /// `--power` for an open mind.
    #[error("an open mind has no power: it is not a psionist (PF31); use --aptitude N")]
    OpenMindPower,
    /// `--aptitude` for a psionist.
    #[error("a psionist has no aptitude score (PF22); --aptitude goes with --open-mind")]
    PsionistAptitude,
    /// `--open-mind` for a player.
    #[error("--open-mind: only moderators' NPCs are open minds; a player's psionist is a psionist (PF31)")]
    PlayerOpenMind,
}

/// Checks a name: 1 to 24 letters, digits, `-`, `_` or `'`, starting with a letter.
pub fn check_name(name: &str) -> Result<String, SheetError> {
    let name = name.trim();
    let Some(first) = name.chars().next() else {
        return Err(SheetError::EmptyName);
    };
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(SheetError::NameTooLong(chars));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '\'')))
    {
        return Err(SheetError::NameCharacter(c));
    }
    if !first.is_alphabetic() {
        return Err(SheetError::NameStart);
    }
    Ok(name.to_string())
}

impl NewPsionist {
    /// Checks the creation rules and builds the sheet: PF30 for a player's psionist (the house
    /// numbers, no options), PF31 for an NPC (`npc`).
    pub fn create(&self, npc: bool, house: House) -> Result<PfpSheet, SheetError> {
        let name = check_name(&self.name)?;
        if !npc {
            if self.open_mind {
                return Err(SheetError::PlayerOpenMind);
            }
            let given = [
                ("--power", self.power),
                ("--aptitude", self.aptitude),
                ("--health", self.health),
            ];
            if let Some((flag, _)) = given.iter().find(|(_, v)| v.is_some()) {
                return Err(SheetError::PlayerOption(flag, house.power, house.health));
            }
            return Ok(PfpSheet {
                name,
                psionist: true,
                power: house.power,
                aptitude: 0,
                health: house.health,
            });
        }
        let health = self.health.unwrap_or(house.health);
        if !(1..=20).contains(&health) {
            return Err(SheetError::Health(health));
        }
        if self.open_mind {
            if self.power.is_some() {
                return Err(SheetError::OpenMindPower);
            }
            let aptitude = self.aptitude.unwrap_or(2);
            if aptitude > 6 {
                return Err(SheetError::Aptitude(aptitude));
            }
            Ok(PfpSheet {
                name,
                psionist: false,
                power: 0,
                aptitude,
                health,
            })
        } else {
            if self.aptitude.is_some() {
                return Err(SheetError::PsionistAptitude);
            }
            let power = self.power.unwrap_or(house.power);
            if !(1..=6).contains(&power) {
                return Err(SheetError::Power(power));
            }
            Ok(PfpSheet {
                name,
                psionist: true,
                power,
                aptitude: 0,
                health,
            })
        }
    }
}
