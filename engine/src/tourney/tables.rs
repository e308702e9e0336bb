//! The house tables the text leaves out (T8, T10, T11), as realm data. A bout keeps the tables it
//! started with (they are part of its [`super::BoutSetup`]).
//!
//! In a realm's TOML every entry is optional and defaults to the page's value:
//!
//! ```toml
//! [tourney]
//! stand_target = 3          # T8: d6 + Strength must beat this to stand up
//! greatsword_defence = -2   # T10: the two-handed sword's modifier when defending
//! strength_bonus = [5, 7, 9] # T11: +1 a blow from Strength 5, +2 from 7, +3 from 9
//!
//! [tourney.weapons]         # T10: hits a blow does, before the Strength bonus
//! dagger = 1
//! broadsword = 2
//! mace = 2
//! axe = 2
//! greatsword = 3
//! ```

use super::sheet::Weapon;
use serde::{Deserialize, Serialize};

/// Hits a blow of each weapon does (T10), before the Strength bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct WeaponDamage {
    /// The dagger: 1.
    pub dagger: u8,
    /// The broadsword: 2.
    pub broadsword: u8,
    /// The mace: 2.
    pub mace: u8,
    /// The axe: 2.
    pub axe: u8,
    /// The two-handed sword: 3.
    pub greatsword: u8,
}

impl Default for WeaponDamage {
    fn default() -> Self {
        WeaponDamage {
            dagger: 1,
            broadsword: 2,
            mace: 2,
            axe: 2,
            greatsword: 3,
        }
    }
}

impl WeaponDamage {
    /// The damage of one weapon.
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
}

/// The house tables of one realm (T8, T10, T11). `Default` is the page's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Tables {
    /// Each weapon's damage in hits (T10); `[tourney.weapons]` in TOML.
    #[serde(rename = "weapons", alias = "damage")]
    pub damage: WeaponDamage,
    /// The Strengths from which each further +1 damage a blow applies (T11): the bonus is how
    /// many of these the wielder's Strength reaches. The page's `[5, 7, 9]` gives 1–4 +0,
    /// 5–6 +1, 7–8 +2, 9 +3.
    pub strength_bonus: Vec<u8>,
    /// What d6 + Strength must beat to stand up (T8).
    pub stand_target: u8,
    /// The two-handed sword's modifier on its combat test when defending (T10).
    pub greatsword_defence: i8,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            damage: WeaponDamage::default(),
            strength_bonus: vec![5, 7, 9],
            stand_target: 3,
            greatsword_defence: -2,
        }
    }
}

impl Tables {
    /// Hits a blow of `weapon` does before the Strength bonus (T10).
    #[inline]
    pub fn damage(&self, weapon: Weapon) -> u8 {
        self.damage.get(weapon)
    }

    /// The damage bonus a blow gets from the wielder's Strength (T11).
    #[inline]
    pub fn strength_bonus(&self, strength: u8) -> u8 {
        // A count, not a search: the list need not be sorted for this to mean what it says.
        self.strength_bonus
            .iter()
            .filter(|&&from| strength >= from)
            .count() as u8
    }
}
