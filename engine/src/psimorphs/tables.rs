//! The house numbers and the force catalogue the text leaves out (PM4, PM12, PM16, PM19, PM20,
//! PM22), as realm data. A fight keeps the tables it started with (they are in its setup).
//!
//! In a realm's TOML every entry is optional and defaults to the page's value:
//!
//! ```toml
//! [psimorphs]
//! round_limit = 50        # PM12: after this round the fight is a draw
//! threshold_floor = 2     # PM4: the least reroll number
//! chain_cap = 20          # PM4: the most rolls of one die
//! quiet_rounds = 3        # PM20: rounds without a force that bring every force back
//! breakfree_rounds = 10   # PM22
//! [psimorphs.budget]      # PM16
//! attribute_sum = 21
//! [[psimorphs.forces]]    # PM19: replaces the whole catalogue
//! id = "eb1"
//! name = "Energy Blast I"
//! kind = "pe"
//! difficulty = 14
//! fp = 2
//! target = "enemy"
//! effect = { damage = 6 }
//! ```

use super::sheet::{Attribute, Group};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use thiserror::Error;

/// The creation budget of a player's morph (PM16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Budget {
    /// Each attribute at least this: 1.
    pub attribute_min: u8,
    /// Each attribute at most this: 6.
    pub attribute_max: u8,
    /// The attributes add up to at most this: 21.
    pub attribute_sum: u8,
    /// Each group's ranks at most this: 4.
    pub rank_max: u8,
    /// Ranks add up to at most this: 8.
    pub rank_sum: u8,
    /// Master ranks and Lightning Reflexes, together: 1.
    pub edges: u8,
    /// Hit points: 20.
    pub hp: u16,
    /// Each kind of FP at most this: 10.
    pub fp_max: u8,
    /// PA FP and PE FP add up to at most this: 10.
    pub fp_sum: u8,
    /// ISP points: 8.
    pub isp_points: u8,
    /// What one General ISP costs in points: 2.
    pub general_isp_cost: u8,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            attribute_min: 1,
            attribute_max: 6,
            attribute_sum: 21,
            rank_max: 4,
            rank_sum: 8,
            edges: 1,
            hp: 20,
            fp_max: 10,
            fp_sum: 10,
            isp_points: 8,
            general_isp_cost: 2,
        }
    }
}

/// PA or PE: which FP a force costs and which group checks it (PM18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForceType {
    /// Psi Atom: PA FP, a Psi Atom check.
    Pa,
    /// Psi Energy: PE FP, a Psi Energy check.
    Pe,
}

impl ForceType {
    /// The group whose check uses it.
    pub fn group(self) -> Group {
        match self {
            ForceType::Pa => Group::Atom,
            ForceType::Pe => Group::Energy,
        }
    }

    /// `PA`, `PE`.
    pub fn label(self) -> &'static str {
        match self {
            ForceType::Pa => "PA",
            ForceType::Pe => "PE",
        }
    }
}

/// Whom a force works on (PM19): the user, willing, or the opponent, who resists (PM21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The user.
    #[serde(rename = "self")]
    User,
    /// The opponent.
    Enemy,
}

/// What a force does when it works (PM19, PM22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Fixed damage, never doubled (PM25).
    Damage(u16),
    /// Restores hp, up to the maximum.
    Heal(u16),
    /// Changes an attribute while maintained (PM22, PM23).
    Modifier {
        /// The attribute.
        attribute: Attribute,
        /// By how much: a bonus above 0, a penalty below.
        amount: i8,
    },
}

/// A force of the catalogue (PM19).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Force {
    /// Its id in commands: `eb1` (at most 8 letters and digits).
    pub id: Cow<'static, str>,
    /// Its name: `Energy Blast I`.
    pub name: Cow<'static, str>,
    /// PA or PE.
    pub kind: ForceType,
    /// The check's difficulty.
    pub difficulty: u16,
    /// FP it costs, success or not (PM18).
    pub fp: u8,
    /// The user or the opponent.
    pub target: Target,
    /// What it does.
    pub effect: Effect,
}

impl Force {
    /// Whether it is maintained: a modifier (PM22).
    pub fn maintained(&self) -> bool {
        matches!(self.effect, Effect::Modifier { .. })
    }
}

const fn force(
    id: &'static str,
    name: &'static str,
    kind: ForceType,
    difficulty: u16,
    fp: u8,
    target: Target,
    effect: Effect,
) -> Force {
    Force {
        id: Cow::Borrowed(id),
        name: Cow::Borrowed(name),
        kind,
        difficulty,
        fp,
        target,
        effect,
    }
}

/// The page's catalogue (PM19).
pub const CATALOGUE: &[Force] = &[
    force(
        "eb1",
        "Energy Blast I",
        ForceType::Pe,
        14,
        2,
        Target::Enemy,
        Effect::Damage(6),
    ),
    force(
        "eb2",
        "Energy Blast II",
        ForceType::Pe,
        20,
        4,
        Target::Enemy,
        Effect::Damage(12),
    ),
    force(
        "hs1",
        "Healing Surge I",
        ForceType::Pa,
        14,
        3,
        Target::User,
        Effect::Heal(6),
    ),
    force(
        "as1",
        "Atom Strength I",
        ForceType::Pa,
        12,
        2,
        Target::User,
        Effect::Modifier {
            attribute: Attribute::Strength,
            amount: 2,
        },
    ),
    force(
        "kc1",
        "Kinetic Charge I",
        ForceType::Pe,
        16,
        3,
        Target::User,
        Effect::Modifier {
            attribute: Attribute::Strength,
            amount: 3,
        },
    ),
    force(
        "ll1",
        "Leaden Limbs I",
        ForceType::Pa,
        16,
        3,
        Target::Enemy,
        Effect::Modifier {
            attribute: Attribute::Agility,
            amount: -4,
        },
    ),
];

/// At most this many forces in a catalogue (a fight keeps a bit per force).
pub const MAX_FORCES: usize = 32;

/// The most rolls of one die any table may set (PM4).
pub const MAX_CHAIN: u8 = 32;

/// A force's id as a decision carries it: up to 8 ASCII letters and digits, lower case.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ForceId {
    bytes: [u8; 8],
    len: u8,
}

impl ForceId {
    /// The id of `text` if it is 1–8 ASCII letters and digits (folded to lower case).
    pub fn new(text: &str) -> Option<ForceId> {
        let t = text.trim();
        if t.is_empty() || t.len() > 8 || !t.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        let mut bytes = [0u8; 8];
        for (i, b) in t.bytes().enumerate() {
            bytes[i] = b.to_ascii_lowercase();
        }
        Some(ForceId {
            bytes,
            len: t.len() as u8,
        })
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Display for ForceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for ForceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ForceId({})", self.as_str())
    }
}

impl Serialize for ForceId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ForceId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ForceId, D::Error> {
        let s = String::deserialize(d)?;
        ForceId::new(&s).ok_or_else(|| serde::de::Error::custom(format!("bad force id '{s}'")))
    }
}

/// The house tables of Psi Morphs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Tables {
    /// After this round the fight is a draw (PM12): 50.
    pub round_limit: u32,
    /// The least reroll number T (PM4): 2.
    pub threshold_floor: u8,
    /// The most rolls of one die (PM4): 20.
    pub chain_cap: u8,
    /// Rounds in a row without a force that bring every used force back (PM20): 3.
    pub quiet_rounds: u8,
    /// Rounds a force must have been maintained on a morph before it may break free (PM22): 10.
    pub breakfree_rounds: u32,
    /// ISPs a redo costs (PM14): 3.
    pub redo_cost: u16,
    /// Bonus ISPs on one check that lower T by 1 (PM13): 5.
    pub isp_per_threshold: u16,
    /// The creation budget (PM16).
    pub budget: Budget,
    /// The force catalogue (PM19).
    pub forces: Cow<'static, [Force]>,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            round_limit: 50,
            threshold_floor: 2,
            chain_cap: 20,
            quiet_rounds: 3,
            breakfree_rounds: 10,
            redo_cost: 3,
            isp_per_threshold: 5,
            budget: Budget::default(),
            forces: Cow::Borrowed(CATALOGUE),
        }
    }
}

/// Tables a fight cannot run on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("[psimorphs] {0}")]
pub struct TablesError(pub String);

impl Tables {
    /// Checks what the fight relies on: a chain cap of 1–32, a floor of 1–10, at least one
    /// round, at most 32 forces with distinct ids of 1–8 letters and digits.
    pub fn validate(&self) -> Result<(), TablesError> {
        let bad = |s: String| Err(TablesError(s));
        if self.chain_cap == 0 || self.chain_cap > MAX_CHAIN {
            return bad(format!("chain_cap must be 1-{MAX_CHAIN}"));
        }
        if !(1..=10).contains(&self.threshold_floor) {
            return bad("threshold_floor must be 1-10".into());
        }
        if self.round_limit == 0 {
            return bad("round_limit must be at least 1".into());
        }
        if self.isp_per_threshold == 0 {
            return bad("isp_per_threshold must be at least 1".into());
        }
        if self.forces.len() > MAX_FORCES {
            return bad(format!("at most {MAX_FORCES} forces"));
        }
        for (i, f) in self.forces.iter().enumerate() {
            let Some(id) = ForceId::new(&f.id) else {
                return bad(format!(
                    "force id '{}' must be 1-8 letters and digits",
                    f.id
                ));
            };
            if id.as_str() != f.id {
                return bad(format!("force id '{}' must be lower case", f.id));
            }
            if self.forces[..i].iter().any(|g| g.id == f.id) {
                return bad(format!("force id '{}' appears twice", f.id));
            }
        }
        Ok(())
    }

    /// A force by its index in the catalogue.
    #[inline]
    pub fn force(&self, index: usize) -> &Force {
        &self.forces[index]
    }

    /// A force's index by id.
    pub fn index_of(&self, id: ForceId) -> Option<usize> {
        self.forces.iter().position(|f| f.id == id.as_str())
    }

    /// A force by its id or its name, any case, spaces optional (PM19).
    pub fn find(&self, text: &str) -> Option<ForceId> {
        let fold = |s: &str| -> String {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let want = fold(text);
        self.forces
            .iter()
            .find(|f| fold(&f.id) == want || fold(&f.name) == want)
            .and_then(|f| ForceId::new(&f.id))
    }
}
