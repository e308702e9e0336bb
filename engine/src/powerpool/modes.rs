//! The ten modes of psionic combat, the kinds of mind, and the die-step scale (PC6).

use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of mind a creature has (PC2–PC4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A psionicist: a pool of its hit dice (PC2).
    Psionicist,
    /// A wild talent: half its hit dice, at least one (PC3).
    Wild,
    /// Not psionic: half its hit dice, no mode; it never attacks (PC4).
    None,
}

impl Kind {
    /// Whether it is psionically active (may attack, challenge, join).
    #[inline]
    pub fn psionic(self) -> bool {
        self != Kind::None
    }

    /// The word of `--kind`.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Psionicist => "psionicist",
            Kind::Wild => "wild",
            Kind::None => "none",
        }
    }

    /// Reads `--kind`.
    pub fn parse(word: &str) -> Option<Kind> {
        match word.trim().to_ascii_lowercase().as_str() {
            "psionicist" | "psion" => Some(Kind::Psionicist),
            "wild" | "wild-talent" | "wild_talent" => Some(Kind::Wild),
            "none" | "non-psionic" => Some(Kind::None),
            _ => None,
        }
    }
}

/// The five attack modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackMode {
    /// Mental Stab: two die steps up (PC24).
    Stab,
    /// Personality Invasion: possession (PC25).
    Invasion,
    /// Psionic Wave: up to three opponents as one group (PC26).
    Wave,
    /// Subconscious Subversion: fear (PC29).
    Subversion,
    /// Synaptic Overload: damage of the defender's own dice (PC30).
    Overload,
}

/// The five defense modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefenseMode {
    /// Barrier Mantra: stunned instead of controlled (PC16).
    Mantra,
    /// Blank Mind: the attacker saves or fails (PC18).
    Blank,
    /// Cognitive Labyrinth: defends even when unable (PC19).
    Labyrinth,
    /// Imagination Swarm: draws allies; lets an ally join (PC28).
    Swarm,
    /// Pinnacle of Will: one die step up (PC20).
    Pinnacle,
}

impl AttackMode {
    /// Every attack mode, in the page's order.
    pub const ALL: [AttackMode; 5] = [
        AttackMode::Stab,
        AttackMode::Invasion,
        AttackMode::Wave,
        AttackMode::Subversion,
        AttackMode::Overload,
    ];

    /// The default policy's order (PC37).
    pub const POLICY: [AttackMode; 5] = [
        AttackMode::Stab,
        AttackMode::Overload,
        AttackMode::Subversion,
        AttackMode::Invasion,
        AttackMode::Wave,
    ];

    /// The short word: `stab`.
    pub fn word(self) -> &'static str {
        match self {
            AttackMode::Stab => "stab",
            AttackMode::Invasion => "invasion",
            AttackMode::Wave => "wave",
            AttackMode::Subversion => "subversion",
            AttackMode::Overload => "overload",
        }
    }

    /// The full name: `Mental Stab`.
    pub fn title(self) -> &'static str {
        match self {
            AttackMode::Stab => "Mental Stab",
            AttackMode::Invasion => "Personality Invasion",
            AttackMode::Wave => "Psionic Wave",
            AttackMode::Subversion => "Subconscious Subversion",
            AttackMode::Overload => "Synaptic Overload",
        }
    }

    /// Reads a mode by its short or full name (`stab`, `mental-stab`, `Mental Stab`).
    pub fn parse(word: &str) -> Option<AttackMode> {
        let w = normal(word);
        Self::ALL
            .into_iter()
            .find(|m| w == m.word() || w == normal(m.title()))
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl DefenseMode {
    /// Every defense mode, in the page's order.
    pub const ALL: [DefenseMode; 5] = [
        DefenseMode::Mantra,
        DefenseMode::Blank,
        DefenseMode::Labyrinth,
        DefenseMode::Swarm,
        DefenseMode::Pinnacle,
    ];

    /// The default policy's order (PC37).
    pub const POLICY: [DefenseMode; 5] = [
        DefenseMode::Blank,
        DefenseMode::Mantra,
        DefenseMode::Pinnacle,
        DefenseMode::Labyrinth,
        DefenseMode::Swarm,
    ];

    /// The short word: `mantra`.
    pub fn word(self) -> &'static str {
        match self {
            DefenseMode::Mantra => "mantra",
            DefenseMode::Blank => "blank",
            DefenseMode::Labyrinth => "labyrinth",
            DefenseMode::Swarm => "swarm",
            DefenseMode::Pinnacle => "pinnacle",
        }
    }

    /// The full name: `Barrier Mantra`.
    pub fn title(self) -> &'static str {
        match self {
            DefenseMode::Mantra => "Barrier Mantra",
            DefenseMode::Blank => "Blank Mind",
            DefenseMode::Labyrinth => "Cognitive Labyrinth",
            DefenseMode::Swarm => "Imagination Swarm",
            DefenseMode::Pinnacle => "Pinnacle of Will",
        }
    }

    /// Reads a mode by its short or full name (`blank`, `blank-mind`).
    pub fn parse(word: &str) -> Option<DefenseMode> {
        let w = normal(word);
        Self::ALL
            .into_iter()
            .find(|m| w == m.word() || w == normal(m.title()))
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

fn normal(word: &str) -> String {
    word.trim().to_ascii_lowercase().replace([' ', '_'], "-")
}

impl fmt::Display for AttackMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl fmt::Display for DefenseMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A set of attack modes, as a bit set; serialized as a list of words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Attacks(u8);

/// A set of defense modes, as a bit set; serialized as a list of words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Defenses(u8);

impl Attacks {
    /// Whether `m` is in the set.
    #[inline]
    pub fn has(self, m: AttackMode) -> bool {
        self.0 & m.bit() != 0
    }
    /// Adds `m`.
    pub fn add(&mut self, m: AttackMode) {
        self.0 |= m.bit();
    }
    /// How many.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether it is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The modes, in the page's order.
    pub fn iter(self) -> impl Iterator<Item = AttackMode> {
        AttackMode::ALL.into_iter().filter(move |m| self.has(*m))
    }
}

impl Defenses {
    /// Whether `m` is in the set.
    #[inline]
    pub fn has(self, m: DefenseMode) -> bool {
        self.0 & m.bit() != 0
    }
    /// Adds `m`.
    pub fn add(&mut self, m: DefenseMode) {
        self.0 |= m.bit();
    }
    /// How many.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether it is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The modes, in the page's order.
    pub fn iter(self) -> impl Iterator<Item = DefenseMode> {
        DefenseMode::ALL.into_iter().filter(move |m| self.has(*m))
    }
}

impl FromIterator<AttackMode> for Attacks {
    fn from_iter<I: IntoIterator<Item = AttackMode>>(iter: I) -> Self {
        let mut s = Attacks::default();
        iter.into_iter().for_each(|m| s.add(m));
        s
    }
}

impl FromIterator<DefenseMode> for Defenses {
    fn from_iter<I: IntoIterator<Item = DefenseMode>>(iter: I) -> Self {
        let mut s = Defenses::default();
        iter.into_iter().for_each(|m| s.add(m));
        s
    }
}

impl Serialize for Attacks {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Attacks {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<AttackMode>::deserialize(d)?.into_iter().collect())
    }
}

impl Serialize for Defenses {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Defenses {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<DefenseMode>::deserialize(d)?.into_iter().collect())
    }
}

/// The die scale of PC6: d4–d6–d8–d10–d12–d20.
pub const STEPS: [u8; 6] = [4, 6, 8, 10, 12, 20];

/// `die` moved `n` steps up the scale, capped at d20 (PC6: d10 up two is d20).
pub fn step_up(die: u8, n: usize) -> u8 {
    let i = STEPS.iter().position(|&d| d == die).unwrap_or(2);
    STEPS[(i + n).min(STEPS.len() - 1)]
}

/// Spell levels as counts per level (index 1–9), so a list of spells is a small value;
/// serialized as the levels, highest first (`[3, 2, 1]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Levels(pub [u8; 10]);

impl Levels {
    /// From a list of levels 1–9 (others are ignored).
    pub fn of(levels: &[u8]) -> Levels {
        let mut l = Levels::default();
        for &v in levels {
            if (1..=9).contains(&v) {
                l.0[v as usize] = l.0[v as usize].saturating_add(1);
            }
        }
        l
    }
    /// The levels, highest first.
    pub fn list(&self) -> Vec<u8> {
        (1..=9u8)
            .rev()
            .flat_map(|v| std::iter::repeat_n(v, self.0[v as usize] as usize))
            .collect()
    }
    /// The total of the levels: a defense's bonus (PC15).
    pub fn total(&self) -> u32 {
        (1..=9).map(|v| v as u32 * self.0[v] as u32).sum()
    }
    /// How many spells.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }
    /// Whether every spell of `other` is in this.
    pub fn contains(&self, other: &Levels) -> bool {
        (0..10).all(|i| other.0[i] <= self.0[i])
    }
    /// This less `other` (as many as there are).
    pub fn minus(&self, other: &Levels) -> Levels {
        let mut l = *self;
        for i in 0..10 {
            l.0[i] = l.0[i].saturating_sub(other.0[i]);
        }
        l
    }
    /// This and `other`.
    pub fn plus(&self, other: &Levels) -> Levels {
        let mut l = *self;
        for i in 0..10 {
            l.0[i] = l.0[i].saturating_add(other.0[i]);
        }
        l
    }
    /// `3,2,1`.
    pub fn csv(&self) -> String {
        self.list()
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl Serialize for Levels {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.list())
    }
}

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Levels::of(&Vec::<u8>::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_cap_at_d20() {
        // PC6
        assert_eq!(step_up(8, 2), 12);
        assert_eq!(step_up(10, 2), 20);
        assert_eq!(step_up(12, 1), 20);
        assert_eq!(step_up(20, 2), 20);
        assert_eq!(step_up(4, 1), 6);
    }

    #[test]
    fn full_names_read() {
        assert_eq!(AttackMode::parse("mental-stab"), Some(AttackMode::Stab));
        assert_eq!(
            AttackMode::parse("Synaptic Overload"),
            Some(AttackMode::Overload)
        );
        assert_eq!(DefenseMode::parse("blank-mind"), Some(DefenseMode::Blank));
        assert_eq!(DefenseMode::parse("mind"), None);
    }

    #[test]
    fn levels_round_trip() {
        let l = Levels::of(&[1, 3, 2, 3]);
        assert_eq!(l.list(), vec![3, 3, 2, 1]);
        assert_eq!(l.total(), 9);
        assert!(l.contains(&Levels::of(&[3, 2])));
        assert!(!l.contains(&Levels::of(&[2, 2])));
    }
}
