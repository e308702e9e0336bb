//! A Tourney knight's sheet: the five weapon skills, Strength and Health, and the creation rules
//! of T12 (a player's knight, on a budget of 10) and T20 (a non-player character, no budget).

use crate::name::{check_name, NameError};
use crate::psiknight::{Rank, Style};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A weapon a Tourney knight can fight with (T10). Every knight carries a dagger as a sidearm
/// (T7); the other four can be his main weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// Every knight's sidearm; never the main weapon (T7, T10).
    Dagger,
    /// The broadsword: Sir Ector's and Sir Gimby's weapon in the text.
    Broadsword,
    /// The mace.
    Mace,
    /// The axe.
    Axe,
    /// The two-handed sword: heavier blows, slow to parry (T10).
    Greatsword,
}

impl Weapon {
    /// All five, in the order of the sheet (dagger first).
    pub const ALL: [Weapon; 5] = [
        Weapon::Dagger,
        Weapon::Broadsword,
        Weapon::Mace,
        Weapon::Axe,
        Weapon::Greatsword,
    ];

    /// The four that can be a knight's main weapon.
    pub const MAIN: [Weapon; 4] = [
        Weapon::Broadsword,
        Weapon::Mace,
        Weapon::Axe,
        Weapon::Greatsword,
    ];

    /// The word used in commands, events and storage: `dagger`, `greatsword`.
    pub fn token(self) -> &'static str {
        match self {
            Weapon::Dagger => "dagger",
            Weapon::Broadsword => "broadsword",
            Weapon::Mace => "mace",
            Weapon::Axe => "axe",
            Weapon::Greatsword => "greatsword",
        }
    }

    /// The name narration uses: "broadsword", "two-handed sword".
    pub fn label(self) -> &'static str {
        match self {
            Weapon::Greatsword => "two-handed sword",
            other => other.token(),
        }
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A word that names no weapon.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown weapon '{word}': choose dagger, broadsword, mace, axe or greatsword")]
pub struct UnknownWeapon {
    /// The word as given.
    pub word: String,
}

impl FromStr for Weapon {
    type Err = UnknownWeapon;

    /// A token in any case; the narration label "two-handed sword" is accepted too, since a
    /// player who reads it may type it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Weapon::ALL
            .into_iter()
            .find(|w| w.token() == word || w.label() == word)
            .ok_or_else(|| UnknownWeapon {
                word: s.trim().to_string(),
            })
    }
}

/// The state of one weapon, kept between fights (T7, T21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponState {
    /// Whole.
    #[default]
    Sound,
    /// Fumbled on once: fights like a sound one, breaks if damaged again (T7); `/smith` repairs it.
    Damaged,
    /// Broken (or traded at the smith): replaced at the start of the realm's next day (T16).
    Lost,
}

impl WeaponState {
    /// The snake_case word used in events and storage.
    pub fn name(self) -> &'static str {
        match self {
            WeaponState::Sound => "sound",
            WeaponState::Damaged => "damaged",
            WeaponState::Lost => "lost",
        }
    }
}

impl fmt::Display for WeaponState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The five weapon skills. Serialized as a map from weapon token to value
/// (`{"dagger": 1, "broadsword": 6, ...}`); a missing entry reads as 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Skills {
    /// Dagger skill.
    pub dagger: u8,
    /// Broadsword skill.
    pub broadsword: u8,
    /// Mace skill.
    pub mace: u8,
    /// Axe skill.
    pub axe: u8,
    /// Two-handed sword skill.
    pub greatsword: u8,
}

impl Skills {
    /// The skill for a weapon.
    #[inline]
    pub fn get(&self, weapon: Weapon) -> u8 {
        match weapon {
            Weapon::Dagger => self.dagger,
            Weapon::Broadsword => self.broadsword,
            Weapon::Mace => self.mace,
            Weapon::Axe => self.axe,
            Weapon::Greatsword => self.greatsword,
        }
    }

    /// Sets the skill for a weapon.
    pub fn set(&mut self, weapon: Weapon, value: u8) {
        let slot = match weapon {
            Weapon::Dagger => &mut self.dagger,
            Weapon::Broadsword => &mut self.broadsword,
            Weapon::Mace => &mut self.mace,
            Weapon::Axe => &mut self.axe,
            Weapon::Greatsword => &mut self.greatsword,
        };
        *slot = value;
    }

    /// Every weapon with its skill, in [`Weapon::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Weapon, u8)> + '_ {
        Weapon::ALL.into_iter().map(|w| (w, self.get(w)))
    }

    /// The sum of the five (T12's budget counts them with Strength).
    pub fn total(&self) -> u32 {
        self.iter().map(|(_, v)| u32::from(v)).sum()
    }
}

/// What a bout needs to know of a Tourney knight. The fight keeps a copy taken at its start (T21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TourneySheet {
    /// The knight's name, unique per game and realm (any case).
    pub name: String,
    /// Sir or Dame.
    pub style: Style,
    /// The main weapon's kind (never the dagger). A `/smith WEAPON` order changes it on the
    /// realm's next day (see [`super::TourneyState::as_of`]).
    pub main: Weapon,
    /// The five weapon skills.
    pub skills: Skills,
    /// The Ability Strength: the stand-up test (T8) and the damage bonus (T11).
    pub strength: u8,
    /// Health: hits taken come off it (T13).
    pub health: u8,
}

impl TourneySheet {
    /// "Sir Ector" or "Dame Brenna".
    pub fn styled(&self) -> String {
        format!("{} {}", Rank::Knight.title(self.style), self.name)
    }
}

pub use crate::name::MAX_NAME_CHARS;
/// What a player's skills and Strength add up to (T12).
pub const BUDGET: u32 = 10;
/// A player's knight's Health (T12).
pub const PLAYER_HEALTH: u8 = 7;
/// The main weapon's skill when no `--skill` is given (T12).
pub const DEFAULT_MAIN_SKILL: u8 = 6;
/// The dagger's skill when no `--skill` is given (T12).
pub const DEFAULT_DAGGER_SKILL: u8 = 1;
/// Strength when none is given (T12).
pub const DEFAULT_STRENGTH: u8 = 3;

/// The choices made to create a Tourney knight; `None` takes the default (T12).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NewTourneyKnight {
    /// The name.
    pub name: String,
    /// Sir or Dame.
    pub style: Style,
    /// The main weapon; the broadsword if `None`.
    pub main: Option<Weapon>,
    /// Weapon skills; `None`: main weapon 6, dagger 1; given: the unlisted are 0.
    pub skills: Option<Vec<(Weapon, u8)>>,
    /// Strength; 3 if `None`.
    pub strength: Option<u8>,
    /// Health; 7 if `None` (the only value a player's knight may have).
    pub health: Option<u8>,
}

/// Why a sheet cannot be made as asked, or `--skill` text cannot be read. Each message names
/// its rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SheetError {
    /// The name breaks R122.
    #[error(transparent)]
    Name(#[from] NameError),
    /// The dagger was chosen as main weapon.
    #[error("the dagger is every knight's sidearm, not a main weapon (T7, T10)")]
    DaggerMain,
    /// A skill out of range: 0–6 for a player (T12), 0–10 for an NPC (T20).
    #[error("{weapon} {value}: a skill is 0 to {max} ({rule})")]
    SkillRange {
        /// Which skill.
        weapon: Weapon,
        /// The value given.
        value: u8,
        /// The most allowed.
        max: u8,
        /// `T12` or `T20`.
        rule: &'static str,
    },
    /// Strength out of range: 1–5 for a player (T12), 1–9 for an NPC (T20).
    #[error("Strength {value}: Strength is 1 to {max} ({rule})")]
    StrengthRange {
        /// The value given.
        value: u8,
        /// The most allowed.
        max: u8,
        /// `T12` or `T20`.
        rule: &'static str,
    },
    /// A player's knight with Health other than 7 (T12).
    #[error("Health {0}: a player's knight has Health 7 (T12)")]
    PlayerHealth(u8),
    /// An NPC's Health out of 1–20 (T20).
    #[error("Health {0}: Health is 1 to 20 (T20)")]
    NpcHealth(u8),
    /// A player's skills and Strength do not add up to 10 (T12).
    #[error("skills and Strength must add up to exactly 10 (T12): these add up to {0}")]
    Budget(u32),
    /// A skill given twice.
    #[error("the {0} skill is given twice")]
    SkillRepeated(Weapon),
    /// A word in `--skill` that names no weapon.
    #[error(transparent)]
    UnknownWeapon(#[from] UnknownWeapon),
    /// A `--skill` entry without a readable number (`broadsword`, `broadsword:x`).
    #[error("'{0}': a skill is WEAPON:NUMBER, e.g. broadsword:4")]
    SkillSyntax(String),
    /// `--skill` with nothing in it.
    #[error("no skills given: write them as WEAPON:NUMBER,..., e.g. broadsword:4,dagger:1")]
    NoSkills,
}

/// Reads `--skill` text: `broadsword:4,dagger:1` (spaces around the parts are allowed; `=` may
/// stand for `:`). Refuses an unknown weapon, a missing or garbled number, and one given twice.
pub fn parse_skills(text: &str) -> Result<Vec<(Weapon, u8)>, SheetError> {
    let mut out: Vec<(Weapon, u8)> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((word, number)) = part.split_once([':', '=']) else {
            // A bare weapon name is still worth naming as unknown if it is one.
            part.parse::<Weapon>()?;
            return Err(SheetError::SkillSyntax(part.to_string()));
        };
        let weapon: Weapon = word.parse()?;
        let value: u8 = number
            .trim()
            .parse()
            .map_err(|_| SheetError::SkillSyntax(part.to_string()))?;
        if out.iter().any(|&(w, _)| w == weapon) {
            return Err(SheetError::SkillRepeated(weapon));
        }
        out.push((weapon, value));
    }
    if out.is_empty() {
        return Err(SheetError::NoSkills);
    }
    Ok(out)
}

impl NewTourneyKnight {
    /// Checks the creation rules and builds the sheet: T12 for a player's knight, T20 for a
    /// non-player character (`npc`). The dagger is never the main weapon (T7, T10).
    pub fn create(&self, npc: bool) -> Result<TourneySheet, SheetError> {
        let name = check_name(&self.name)?;
        let main = self.main.unwrap_or(Weapon::Broadsword);
        if main == Weapon::Dagger {
            return Err(SheetError::DaggerMain);
        }
        let (rule, max_skill, max_strength) = if npc { ("T20", 10, 9) } else { ("T12", 6, 5) };
        let mut skills = Skills::default();
        match &self.skills {
            None => {
                skills.set(main, DEFAULT_MAIN_SKILL);
                skills.set(Weapon::Dagger, DEFAULT_DAGGER_SKILL);
            }
            Some(given) => {
                let mut seen = [false; 5];
                for &(weapon, value) in given {
                    if std::mem::replace(&mut seen[weapon.index()], true) {
                        return Err(SheetError::SkillRepeated(weapon));
                    }
                    if value > max_skill {
                        return Err(SheetError::SkillRange {
                            weapon,
                            value,
                            max: max_skill,
                            rule,
                        });
                    }
                    skills.set(weapon, value);
                }
            }
        }
        let strength = self.strength.unwrap_or(DEFAULT_STRENGTH);
        if !(1..=max_strength).contains(&strength) {
            return Err(SheetError::StrengthRange {
                value: strength,
                max: max_strength,
                rule,
            });
        }
        let health = self.health.unwrap_or(PLAYER_HEALTH);
        if npc {
            if !(1..=20).contains(&health) {
                return Err(SheetError::NpcHealth(health));
            }
        } else {
            if health != PLAYER_HEALTH {
                return Err(SheetError::PlayerHealth(health));
            }
            let total = skills.total() + u32::from(strength);
            if total != BUDGET {
                return Err(SheetError::Budget(total));
            }
        }
        Ok(TourneySheet {
            name,
            style: self.style,
            main,
            skills,
            strength,
            health,
        })
    }
}
