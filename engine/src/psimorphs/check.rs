//! A skill check: 2d10 + level + ranks + half the attribute (rounded up) + bonus ISPs (PM1,
//! PM13), each die rerolling and adding while it shows at least the chain's reroll number
//! (PM3, PM4), die 1, die 2, then die 1's chain, then die 2's (PM2).

use super::sheet::{Attribute, Group};
use super::tables::{Tables, MAX_CHAIN};
use crate::dice::RollSource;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Serialize};

/// Everything a check adds and rerolls by, fixed when it is declared; a redo rolls it again
/// unchanged (PM14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CheckSpec {
    /// The skill group.
    pub group: Group,
    /// The attribute.
    pub attribute: Attribute,
    /// The attribute's effective value (PM23).
    pub attribute_value: u8,
    /// Level of experience.
    pub level: u8,
    /// Ranks in the group.
    pub ranks: u8,
    /// Master ranks in the group.
    pub master: u8,
    /// Bonus ISPs (PM13).
    pub isp: u16,
}

impl CheckSpec {
    /// Half the attribute, rounded up (PM1).
    #[inline]
    pub fn half(&self) -> i32 {
        (i32::from(self.attribute_value) + 1) / 2
    }

    /// Level + ranks + half + ISPs: what the dice are added to.
    #[inline]
    pub fn modifier(&self) -> i32 {
        i32::from(self.level) + i32::from(self.ranks) + self.half() + i32::from(self.isp)
    }

    /// T = 10 − master ranks − ⌊bonus ISPs / 5⌋, at least the floor (PM3, PM4).
    #[inline]
    pub fn threshold(&self, tables: &Tables) -> u8 {
        let lowered =
            i32::from(self.master) + i32::from(self.isp / tables.isp_per_threshold.max(1));
        (10 - lowered).max(i32::from(tables.threshold_floor)) as u8
    }
}

/// One die's faces: its first roll and its rerolls.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Chain {
    faces: [u8; MAX_CHAIN as usize],
    len: u8,
}

impl Chain {
    /// The faces rolled, first to last.
    #[inline]
    pub fn faces(&self) -> &[u8] {
        &self.faces[..usize::from(self.len)]
    }

    /// Their sum.
    #[inline]
    pub fn sum(&self) -> u32 {
        self.faces().iter().map(|&f| u32::from(f)).sum()
    }

    /// A chain of given faces (for tests and replays).
    pub fn of(faces: &[u8]) -> Chain {
        let mut c = Chain::default();
        for &f in faces.iter().take(usize::from(MAX_CHAIN)) {
            c.push(f);
        }
        c
    }

    #[inline]
    fn push(&mut self, face: u8) {
        self.faces[usize::from(self.len)] = face;
        self.len += 1;
    }

    #[inline]
    fn last(&self) -> u8 {
        self.faces[usize::from(self.len) - 1]
    }
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.faces()).finish()
    }
}

impl Serialize for Chain {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(usize::from(self.len)))?;
        for f in self.faces() {
            seq.serialize_element(f)?;
        }
        seq.end()
    }
}

/// A rolled check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rolled {
    /// What it added.
    pub spec: CheckSpec,
    /// The reroll number it rolled with.
    pub threshold: u8,
    /// Die 1's faces, die 2's faces.
    pub dice: [Chain; 2],
    /// The sum of every face.
    pub dice_total: u32,
    /// Dice + modifier.
    pub total: i32,
    /// 1, then 2, 3 ... after redos (PM14).
    pub attempt: u8,
}

/// Whether a face at chain step `step` rerolls at reroll number `t` (PM3): at least
/// min(10, T + step), and never the cap's last roll (PM4).
#[inline]
pub fn rerolls(face: u8, t: u8, step: u8, cap: u8) -> bool {
    step + 1 < cap && face >= (t + step).min(10)
}

#[inline]
fn d10(dice: &mut impl RollSource) -> u8 {
    // A d10 fits a u8; the clamp keeps a misbehaving source on the die.
    dice.roll(10).clamp(1, 10) as u8
}

/// Rolls `spec`: die 1, die 2, then die 1's chain, then die 2's (PM2, PM3, PM4).
pub fn roll(spec: CheckSpec, tables: &Tables, attempt: u8, dice: &mut impl RollSource) -> Rolled {
    let t = spec.threshold(tables);
    let cap = tables.chain_cap.clamp(1, MAX_CHAIN);
    let mut chains = [Chain::default(); 2];
    chains[0].push(d10(dice));
    chains[1].push(d10(dice));
    for chain in &mut chains {
        while rerolls(chain.last(), t, chain.len - 1, cap) {
            chain.push(d10(dice));
        }
    }
    let dice_total = chains[0].sum() + chains[1].sum();
    Rolled {
        spec,
        threshold: t,
        dice: chains,
        dice_total,
        total: dice_total as i32 + spec.modifier(),
        attempt,
    }
}
