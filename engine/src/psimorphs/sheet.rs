//! A morph's sheet: level, six attributes, ranks and master ranks in six skill groups, hit
//! points, force points and ISPs, with the creation rules of PM16 (a player's morph, on the
//! house budget) and PM17 (a moderator's NPC, within bounds and no budget).

use super::tables::Budget;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A skill group (the text's "skill groups"); ISPs come in one type per group and General.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Combat: attacks and defence.
    Combat,
    /// Misc Physical: a player's other defence (PM26).
    Physical,
    /// Misc Mental: a player's other resistance (PM21).
    Mental,
    /// Negotiating.
    Negotiating,
    /// Psi Atom: PA forces.
    Atom,
    /// Psi Energy: PE forces.
    Energy,
}

impl Group {
    /// All six, in the order of the sheet.
    pub const ALL: [Group; 6] = [
        Group::Combat,
        Group::Physical,
        Group::Mental,
        Group::Negotiating,
        Group::Atom,
        Group::Energy,
    ];

    /// The word of commands and events: `combat`, `physical`, `atom`.
    pub fn token(self) -> &'static str {
        match self {
            Group::Combat => "combat",
            Group::Physical => "physical",
            Group::Mental => "mental",
            Group::Negotiating => "negotiating",
            Group::Atom => "atom",
            Group::Energy => "energy",
        }
    }

    /// The text's name: `Misc Physical`, `Psi Atom`.
    pub fn label(self) -> &'static str {
        match self {
            Group::Combat => "Combat",
            Group::Physical => "Misc Physical",
            Group::Mental => "Misc Mental",
            Group::Negotiating => "Negotiating",
            Group::Atom => "Psi Atom",
            Group::Energy => "Psi Energy",
        }
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

impl FromStr for Group {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Group, UnknownWord> {
        let w = s.trim().to_ascii_lowercase();
        Group::ALL
            .into_iter()
            .find(|g| g.token() == w || g.label().eq_ignore_ascii_case(&w))
            .ok_or(UnknownWord {
                word: s.trim().to_string(),
                expected: "combat, physical, mental, negotiating, atom or energy",
            })
    }
}

/// One of the six attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    /// Strength: damage is strength + 5 (PM25).
    Strength,
    /// Dexterity: attacks.
    Dexterity,
    /// Agility: defence.
    Agility,
    /// Intelligence: forces and resistance.
    Intelligence,
    /// Willpower: forces and resistance.
    Willpower,
    /// Resilience: resistance.
    Resilience,
}

impl Attribute {
    /// All six, in the order of the sheet.
    pub const ALL: [Attribute; 6] = [
        Attribute::Strength,
        Attribute::Dexterity,
        Attribute::Agility,
        Attribute::Intelligence,
        Attribute::Willpower,
        Attribute::Resilience,
    ];

    /// The word of events: `strength`.
    pub fn token(self) -> &'static str {
        match self {
            Attribute::Strength => "strength",
            Attribute::Dexterity => "dexterity",
            Attribute::Agility => "agility",
            Attribute::Intelligence => "intelligence",
            Attribute::Willpower => "willpower",
            Attribute::Resilience => "resilience",
        }
    }

    /// The three-letter form of options and the compact log: `str`, `dex`.
    pub fn short(self) -> &'static str {
        &self.token()[..3]
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

impl FromStr for Attribute {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Attribute, UnknownWord> {
        let w = s.trim().to_ascii_lowercase();
        Attribute::ALL
            .into_iter()
            .find(|a| a.token() == w || (w.len() >= 3 && a.token().starts_with(&w)))
            .ok_or(UnknownWord {
                word: s.trim().to_string(),
                expected: "strength, dexterity, agility, intelligence, willpower or resilience",
            })
    }
}

/// A word that names nothing the sheet knows.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown word '{word}': choose {expected}")]
pub struct UnknownWord {
    /// The word as given.
    pub word: String,
    /// What was expected.
    pub expected: &'static str,
}

/// The six attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attributes {
    /// Strength.
    pub strength: u8,
    /// Dexterity.
    pub dexterity: u8,
    /// Agility.
    pub agility: u8,
    /// Intelligence.
    pub intelligence: u8,
    /// Willpower.
    pub willpower: u8,
    /// Resilience.
    pub resilience: u8,
}

impl Default for Attributes {
    /// The page's defaults: 4, 4, 4, 3, 3, 3.
    fn default() -> Self {
        Attributes::from_array([4, 4, 4, 3, 3, 3])
    }
}

impl Attributes {
    /// From the six values in sheet order.
    pub const fn from_array(a: [u8; 6]) -> Attributes {
        Attributes {
            strength: a[0],
            dexterity: a[1],
            agility: a[2],
            intelligence: a[3],
            willpower: a[4],
            resilience: a[5],
        }
    }

    /// The six values in sheet order.
    #[inline]
    pub const fn to_array(self) -> [u8; 6] {
        [
            self.strength,
            self.dexterity,
            self.agility,
            self.intelligence,
            self.willpower,
            self.resilience,
        ]
    }

    /// One attribute.
    #[inline]
    pub fn get(&self, a: Attribute) -> u8 {
        self.to_array()[a.index()]
    }
}

/// A number per skill group: ranks or master ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Ranks {
    /// Combat.
    #[serde(skip_serializing_if = "is_zero8")]
    pub combat: u8,
    /// Misc Physical.
    #[serde(skip_serializing_if = "is_zero8")]
    pub physical: u8,
    /// Misc Mental.
    #[serde(skip_serializing_if = "is_zero8")]
    pub mental: u8,
    /// Negotiating.
    #[serde(skip_serializing_if = "is_zero8")]
    pub negotiating: u8,
    /// Psi Atom.
    #[serde(skip_serializing_if = "is_zero8")]
    pub atom: u8,
    /// Psi Energy.
    #[serde(skip_serializing_if = "is_zero8")]
    pub energy: u8,
}

fn is_zero8(n: &u8) -> bool {
    *n == 0
}

fn is_zero16(n: &u16) -> bool {
    *n == 0
}

impl Ranks {
    /// From six values in sheet order.
    pub const fn from_array(a: [u8; 6]) -> Ranks {
        Ranks {
            combat: a[0],
            physical: a[1],
            mental: a[2],
            negotiating: a[3],
            atom: a[4],
            energy: a[5],
        }
    }

    /// The six values in sheet order.
    #[inline]
    pub const fn to_array(self) -> [u8; 6] {
        [
            self.combat,
            self.physical,
            self.mental,
            self.negotiating,
            self.atom,
            self.energy,
        ]
    }

    /// One group's number.
    #[inline]
    pub fn get(&self, g: Group) -> u8 {
        self.to_array()[g.index()]
    }

    /// The sum over the six groups.
    pub fn sum(&self) -> u32 {
        self.to_array().iter().map(|&n| u32::from(n)).sum()
    }
}

/// A type of ISPs: one per skill group, or General (PM13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IspType {
    /// The ISPs of one group.
    Of(Group),
    /// General ISPs: any check (PM13).
    General,
}

impl FromStr for IspType {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<IspType, UnknownWord> {
        if s.trim().eq_ignore_ascii_case("general") {
            return Ok(IspType::General);
        }
        s.parse::<Group>()
            .map(IspType::Of)
            .map_err(|e| UnknownWord {
                expected: "combat, physical, mental, negotiating, atom, energy or general",
                ..e
            })
    }
}

/// ISPs by type: six groups and General. Serialized with the types that hold some.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Isp {
    /// Combat ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub combat: u16,
    /// Misc Physical ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub physical: u16,
    /// Misc Mental ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub mental: u16,
    /// Negotiating ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub negotiating: u16,
    /// Psi Atom ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub atom: u16,
    /// Psi Energy ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub energy: u16,
    /// General ISPs.
    #[serde(skip_serializing_if = "is_zero16")]
    pub general: u16,
}

impl Isp {
    /// ISPs of one type.
    pub fn get(&self, t: IspType) -> u16 {
        match t {
            IspType::General => self.general,
            IspType::Of(g) => match g {
                Group::Combat => self.combat,
                Group::Physical => self.physical,
                Group::Mental => self.mental,
                Group::Negotiating => self.negotiating,
                Group::Atom => self.atom,
                Group::Energy => self.energy,
            },
        }
    }

    /// ISPs of one type, to change.
    pub fn get_mut(&mut self, t: IspType) -> &mut u16 {
        match t {
            IspType::General => &mut self.general,
            IspType::Of(g) => match g {
                Group::Combat => &mut self.combat,
                Group::Physical => &mut self.physical,
                Group::Mental => &mut self.mental,
                Group::Negotiating => &mut self.negotiating,
                Group::Atom => &mut self.atom,
                Group::Energy => &mut self.energy,
            },
        }
    }

    /// What a check of `group` can use: its own type and General (PM13).
    #[inline]
    pub fn usable(&self, group: Group) -> u16 {
        self.get(IspType::Of(group)).saturating_add(self.general)
    }

    /// Takes `n` for a check of `group`, its own type first, then General (PM13, PM14);
    /// returns what was taken. The caller has checked [`Isp::usable`].
    pub fn take(&mut self, group: Group, n: u16) -> Isp {
        let own = self.get_mut(IspType::Of(group));
        let from_own = (*own).min(n);
        *own -= from_own;
        let from_general = (n - from_own).min(self.general);
        self.general -= from_general;
        let mut taken = Isp::default();
        *taken.get_mut(IspType::Of(group)) = from_own;
        taken.general = from_general;
        taken
    }

    /// The total over every type.
    pub fn total(&self) -> u32 {
        [
            self.combat,
            self.physical,
            self.mental,
            self.negotiating,
            self.atom,
            self.energy,
            self.general,
        ]
        .iter()
        .map(|&n| u32::from(n))
        .sum()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

/// A morph's sheet (see the page's "The sheet").
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MorphSheet {
    /// Level of experience: 1 for a player's morph (PM16), 1–20 for an NPC.
    pub level: u8,
    /// The six attributes.
    pub attributes: Attributes,
    /// Ranks in the six groups.
    pub ranks: Ranks,
    /// Master ranks, each at most its group's ranks (PM3).
    pub master: Ranks,
    /// Maximum hit points.
    pub max_hp: u16,
    /// Maximum PA FP.
    pub pa_fp: u8,
    /// Maximum PE FP.
    pub pe_fp: u8,
    /// ISPs by type, as they refresh (PM28).
    pub isp: Isp,
    /// Lightning Reflexes (PM10), a player's edge.
    pub reflexes: bool,
    /// Lightning Quickness (PM10), an NPC's.
    pub quickness: bool,
}

/// NPC bounds (PM17).
pub const NPC_LEVEL: (u32, u32) = (1, 20);
/// NPC bounds on each attribute and each group's ranks (PM17).
pub const NPC_SCORE_MAX: u32 = 20;
/// NPC bounds on hit points (PM17).
pub const NPC_HP: (u32, u32) = (1, 500);
/// NPC bound on each kind of FP (PM17).
pub const NPC_FP_MAX: u32 = 100;
/// NPC bound on each type of ISP (PM17).
pub const NPC_ISP_MAX: u32 = 100;

/// What `/morph create` (or `/npc create`) asks for; what is not given takes the page's
/// default. A list replaces its whole default (PM16).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NewMorph {
    /// Each attribute as given, in sheet order.
    pub attributes: [Option<u32>; 6],
    /// `--ranks G:N,...`.
    pub ranks: Option<Vec<(Group, u32)>>,
    /// `--master G:N,...`.
    pub master: Option<Vec<(Group, u32)>>,
    /// `--pafp N`.
    pub pa_fp: Option<u32>,
    /// `--pefp N`.
    pub pe_fp: Option<u32>,
    /// `--isp T:N,...`.
    pub isp: Option<Vec<(IspType, u32)>>,
    /// `--reflexes`.
    pub reflexes: bool,
    /// `--level N` (NPCs).
    pub level: Option<u32>,
    /// `--hp N` (NPCs).
    pub hp: Option<u32>,
    /// `--quickness` (NPCs).
    pub quickness: bool,
}

/// Why a sheet is refused: the first rule it breaks, by number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{rule}: {what}")]
pub struct SheetError {
    /// The ruling: `PM16`.
    pub rule: &'static str,
    /// What is wrong, and the bound.
    pub what: String,
}

fn refuse<T>(rule: &'static str, what: String) -> Result<T, SheetError> {
    Err(SheetError { rule, what })
}

/// Parses `G:N,...` (spaces allowed after commas) into pairs; a word names the item.
pub fn parse_pairs<K: FromStr<Err = UnknownWord>>(
    text: &str,
) -> Result<Vec<(K, u32)>, UnknownWord> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, n) = part.split_once(':').ok_or_else(|| UnknownWord {
            word: part.to_string(),
            expected: "NAME:N pairs, e.g. combat:3,energy:2",
        })?;
        let n: u32 = n.trim().parse().map_err(|_| UnknownWord {
            word: part.to_string(),
            expected: "a whole number after the colon, e.g. combat:3",
        })?;
        out.push((k.parse()?, n));
    }
    Ok(out)
}

impl NewMorph {
    /// Builds the sheet, or names the first rule it breaks: PM16 for a player's morph on the
    /// house `budget`, PM17 for an NPC (`npc`).
    pub fn create(&self, npc: bool, budget: &Budget) -> Result<MorphSheet, SheetError> {
        let rule = if npc { "PM17" } else { "PM16" };
        if !npc {
            if self.level.is_some_and(|l| l != 1) {
                return refuse("PM16", "a player's morph is level 1 (the text has no advancement; --level is for NPCs)".into());
            }
            if self.hp.is_some_and(|h| h != u32::from(budget.hp)) {
                return refuse(
                    "PM16",
                    format!("a player's morph has {} hp (--hp is for NPCs)", budget.hp),
                );
            }
            if self.quickness {
                return refuse("PM10", "Lightning Quickness is for NPCs; a player's morph may take --reflexes as its edge".into());
            }
        } else if self.reflexes {
            return refuse(
                "PM17",
                "Lightning Reflexes is a player's discipline; an NPC may have --quickness".into(),
            );
        }
        let level = self.level.unwrap_or(1);
        if npc && !(NPC_LEVEL.0..=NPC_LEVEL.1).contains(&level) {
            return refuse(
                rule,
                format!("level {level} is outside {}-{}", NPC_LEVEL.0, NPC_LEVEL.1),
            );
        }
        let defaults = Attributes::default().to_array();
        let mut attrs = [0u8; 6];
        let (lo, hi) = if npc {
            (0, NPC_SCORE_MAX)
        } else {
            (
                u32::from(budget.attribute_min),
                u32::from(budget.attribute_max),
            )
        };
        for (i, a) in Attribute::ALL.into_iter().enumerate() {
            let v = self.attributes[i].unwrap_or(u32::from(defaults[i]));
            if v < lo || v > hi {
                return refuse(rule, format!("{a} {v} is outside {lo}-{hi}"));
            }
            attrs[i] = v as u8;
        }
        let sum: u32 = attrs.iter().map(|&n| u32::from(n)).sum();
        if !npc && sum > u32::from(budget.attribute_sum) {
            return refuse(
                "PM16",
                format!(
                    "attributes add up to {sum}, more than {}",
                    budget.attribute_sum
                ),
            );
        }
        let rank_max = if npc {
            NPC_SCORE_MAX
        } else {
            u32::from(budget.rank_max)
        };
        let ranks = match &self.ranks {
            None => Ranks::from_array([3, 1, 1, 0, 1, 2]),
            Some(list) => list_of(list, rule, "ranks", rank_max)?,
        };
        if !npc && ranks.sum() > u32::from(budget.rank_sum) {
            return refuse(
                "PM16",
                format!(
                    "ranks add up to {}, more than {}",
                    ranks.sum(),
                    budget.rank_sum
                ),
            );
        }
        let master = match &self.master {
            None => Ranks::default(),
            Some(list) => list_of(list, rule, "master ranks", NPC_SCORE_MAX)?,
        };
        for g in Group::ALL {
            if master.get(g) > ranks.get(g) {
                return refuse(
                    rule,
                    format!(
                        "{} master ranks in {}, more than its {} ranks",
                        master.get(g),
                        g.label(),
                        ranks.get(g)
                    ),
                );
            }
        }
        if !npc {
            let edges = master.sum() + u32::from(self.reflexes);
            if edges > u32::from(budget.edges) {
                return refuse(
                    "PM16",
                    format!(
                        "{} master ranks{} are {edges} edges, more than {} (a master rank or Lightning Reflexes)",
                        master.sum(),
                        if self.reflexes { " and Lightning Reflexes" } else { "" },
                        budget.edges
                    ),
                );
            }
        }
        let max_hp = match self.hp {
            None => u32::from(budget.hp),
            Some(h) => h,
        };
        if npc && !(NPC_HP.0..=NPC_HP.1).contains(&max_hp) {
            return refuse(
                "PM17",
                format!("{max_hp} hp is outside {}-{}", NPC_HP.0, NPC_HP.1),
            );
        }
        let fp_max = if npc {
            NPC_FP_MAX
        } else {
            u32::from(budget.fp_max)
        };
        let pa = self.pa_fp.unwrap_or(5);
        let pe = self.pe_fp.unwrap_or(5);
        for (what, v) in [("PA FP", pa), ("PE FP", pe)] {
            if v > fp_max {
                return refuse(rule, format!("{v} {what}, more than {fp_max}"));
            }
        }
        if !npc && pa + pe > u32::from(budget.fp_sum) {
            return refuse(
                "PM16",
                format!(
                    "PA FP and PE FP add up to {}, more than {}",
                    pa + pe,
                    budget.fp_sum
                ),
            );
        }
        let mut isp = Isp::default();
        match &self.isp {
            None if npc => {}
            None => {
                isp.combat = 4;
                isp.general = 2;
            }
            Some(list) => {
                let max = if npc {
                    NPC_ISP_MAX
                } else {
                    u32::from(u16::MAX)
                };
                for &(t, n) in list {
                    if n > max {
                        return refuse(rule, format!("{n} ISPs of one type, more than {max}"));
                    }
                    *isp.get_mut(t) = n as u16;
                }
            }
        }
        if !npc {
            let points = isp.total() - u32::from(isp.general)
                + u32::from(isp.general) * u32::from(budget.general_isp_cost);
            if points > u32::from(budget.isp_points) {
                return refuse(
                    "PM16",
                    format!(
                        "ISPs cost {points} points (General {} each), more than {}",
                        budget.general_isp_cost, budget.isp_points
                    ),
                );
            }
        }
        Ok(MorphSheet {
            level: level as u8,
            attributes: Attributes::from_array(attrs),
            ranks,
            master,
            max_hp: max_hp as u16,
            pa_fp: pa as u8,
            pe_fp: pe as u8,
            isp,
            reflexes: self.reflexes,
            quickness: self.quickness,
        })
    }
}

fn list_of(
    list: &[(Group, u32)],
    rule: &'static str,
    what: &str,
    max: u32,
) -> Result<Ranks, SheetError> {
    let mut a = [0u8; 6];
    for &(g, n) in list {
        if n > max {
            return refuse(
                rule,
                format!("{n} {what} in {}, more than {max}", g.label()),
            );
        }
        a[g.index()] = n as u8;
    }
    Ok(Ranks::from_array(a))
}
