//! Knights: the six fighting skills, the seven psi skills, monarchs, styles and ranks, and the
//! creation rules of "Creating Your PsiKnight" as decided by R3.

use crate::name::{check_name, NameError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// One of the six fighting skills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    /// Striking with the lance in the Joust.
    Lance,
    /// Staying in the saddle: the charge, and the defense against a Low strike.
    Ride,
    /// Reading the opponent: Joust step 1, and the Swordplay Observe action.
    Observe,
    /// Defense against a High strike; the Block counter.
    Shield,
    /// The Dodge counter.
    Dodge,
    /// Attack, Press and Parry in Swordplay.
    Sword,
}

impl Skill {
    /// All six, in the order of the rules' list.
    pub const ALL: [Skill; 6] = [
        Skill::Lance,
        Skill::Ride,
        Skill::Observe,
        Skill::Shield,
        Skill::Dodge,
        Skill::Sword,
    ];

    /// The lower-case name used in commands and events.
    pub fn name(self) -> &'static str {
        match self {
            Skill::Lance => "lance",
            Skill::Ride => "ride",
            Skill::Observe => "observe",
            Skill::Shield => "shield",
            Skill::Dodge => "dodge",
            Skill::Sword => "sword",
        }
    }

    /// The capitalised name used in narration.
    pub fn title(self) -> &'static str {
        match self {
            Skill::Lance => "Lance",
            Skill::Ride => "Ride",
            Skill::Observe => "Observe",
            Skill::Shield => "Shield",
            Skill::Dodge => "Dodge",
            Skill::Sword => "Sword",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One of the seven psi skills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PsiSkill {
    /// Moving things with the mind: +25 to your next Lance, Sword or Shield roll.
    Apportation,
    /// Self-healing: ignore an injury just suffered.
    Cpk,
    /// Insight: your next Observe succeeds, or +25 to your next Dodge.
    Hypercognition,
    /// Suggestion: cancel the opponent's pending Bonus.
    Mesmerism,
    /// Mind to mind: +25 to your next Ride roll in a Joust.
    Telepathy,
    /// Psychic static: cancel the opponent's successful psi effect.
    Catapsi,
    /// Inversion: reverse the opponent's successful psi effect.
    Negapsi,
}

impl PsiSkill {
    /// All seven, in the order of the rules' list.
    pub const ALL: [PsiSkill; 7] = [
        PsiSkill::Apportation,
        PsiSkill::Cpk,
        PsiSkill::Hypercognition,
        PsiSkill::Mesmerism,
        PsiSkill::Telepathy,
        PsiSkill::Catapsi,
        PsiSkill::Negapsi,
    ];

    /// The lower-case name used in commands and events.
    pub fn name(self) -> &'static str {
        match self {
            PsiSkill::Apportation => "apportation",
            PsiSkill::Cpk => "cpk",
            PsiSkill::Hypercognition => "hypercognition",
            PsiSkill::Mesmerism => "mesmerism",
            PsiSkill::Telepathy => "telepathy",
            PsiSkill::Catapsi => "catapsi",
            PsiSkill::Negapsi => "negapsi",
        }
    }

    /// The capitalised name used in narration.
    pub fn title(self) -> &'static str {
        match self {
            PsiSkill::Apportation => "Apportation",
            PsiSkill::Cpk => "CPK",
            PsiSkill::Hypercognition => "Hypercognition",
            PsiSkill::Mesmerism => "Mesmerism",
            PsiSkill::Telepathy => "Telepathy",
            PsiSkill::Catapsi => "Catapsi",
            PsiSkill::Negapsi => "Negapsi",
        }
    }

    /// Catapsi and Negapsi fire in answer to the opponent's psi, not at a moment of their own.
    pub fn is_reaction(self) -> bool {
        matches!(self, PsiSkill::Catapsi | PsiSkill::Negapsi)
    }

    fn index(self) -> usize {
        self as usize
    }
}

pub use crate::name::UnknownName;

impl FromStr for Skill {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Skill::ALL
            .into_iter()
            .find(|k| k.name() == word)
            .ok_or_else(|| UnknownName {
                kind: "skill",
                word: s.to_string(),
                expected: "lance, ride, observe, shield, dodge, sword",
            })
    }
}

impl FromStr for PsiSkill {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        PsiSkill::ALL
            .into_iter()
            .find(|k| k.name() == word)
            .ok_or_else(|| UnknownName {
                kind: "psi skill",
                word: s.to_string(),
                expected:
                    "apportation, cpk, hypercognition, mesmerism, telepathy, catapsi, negapsi",
            })
    }
}

impl fmt::Display for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl fmt::Display for PsiSkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// The three monarchs to whom every knight owes initial allegiance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Monarch {
    /// King Llewellyn of Gorllewin.
    Llewellyn,
    /// King Ragnar of Vegland.
    Ragnar,
    /// Queen Seonaid of Beanntan.
    Seonaid,
}

impl Monarch {
    /// All three.
    pub const ALL: [Monarch; 3] = [Monarch::Llewellyn, Monarch::Ragnar, Monarch::Seonaid];

    /// "King Llewellyn of Gorllewin".
    pub fn full_name(self) -> &'static str {
        match self {
            Monarch::Llewellyn => "King Llewellyn of Gorllewin",
            Monarch::Ragnar => "King Ragnar of Vegland",
            Monarch::Seonaid => "Queen Seonaid of Beanntan",
        }
    }

    /// The lower-case name used in commands and storage.
    pub fn name(self) -> &'static str {
        match self {
            Monarch::Llewellyn => "llewellyn",
            Monarch::Ragnar => "ragnar",
            Monarch::Seonaid => "seonaid",
        }
    }

    /// The kingdom, lower-case.
    pub fn kingdom(self) -> &'static str {
        match self {
            Monarch::Llewellyn => "gorllewin",
            Monarch::Ragnar => "vegland",
            Monarch::Seonaid => "beanntan",
        }
    }
}

impl FromStr for Monarch {
    type Err = UnknownName;
    /// A monarch by name or by kingdom, case-insensitive: `ragnar` or `vegland`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim().to_ascii_lowercase();
        Monarch::ALL
            .into_iter()
            .find(|m| m.name() == word || m.kingdom() == word)
            .ok_or_else(|| UnknownName {
                kind: "monarch",
                word: s.to_string(),
                expected: "llewellyn (gorllewin), ragnar (vegland), seonaid (beanntan)",
            })
    }
}

/// Sir or Dame, and the female forms of the noble titles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Sir; Baron, Viscount, Earl, Duke.
    #[default]
    Sir,
    /// Dame; Baroness, Viscountess, Countess, Duchess.
    Dame,
}

/// A knight's rank: unranked, or one of the four noble titles (R32).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// A knight without a title.
    #[default]
    Knight,
    /// The first noble rank: 20 PP.
    Baron,
    /// 80 PP.
    Viscount,
    /// 320 PP (a Count is an Earl).
    Earl,
    /// 1,440 PP.
    Duke,
}

impl Rank {
    /// The title as addressed, for this style: "Sir", "Baroness", "Earl", "Countess".
    pub fn title(self, style: Style) -> &'static str {
        match (self, style) {
            (Rank::Knight, Style::Sir) => "Sir",
            (Rank::Knight, Style::Dame) => "Dame",
            (Rank::Baron, Style::Sir) => "Baron",
            (Rank::Baron, Style::Dame) => "Baroness",
            (Rank::Viscount, Style::Sir) => "Viscount",
            (Rank::Viscount, Style::Dame) => "Viscountess",
            (Rank::Earl, Style::Sir) => "Earl",
            (Rank::Earl, Style::Dame) => "Countess",
            (Rank::Duke, Style::Sir) => "Duke",
            (Rank::Duke, Style::Dame) => "Duchess",
        }
    }

    /// The lower-case name used in storage.
    pub fn name(self) -> &'static str {
        match self {
            Rank::Knight => "knight",
            Rank::Baron => "baron",
            Rank::Viscount => "viscount",
            Rank::Earl => "earl",
            Rank::Duke => "duke",
        }
    }
}

/// The number a knight starts with in each of their three chosen fighting skills (R3).
pub const TOP_SKILL: u8 = 40;
/// The number a knight starts with in the other three fighting skills (R3).
pub const OTHER_SKILL: u8 = 30;
/// The percentiles a new knight divides among psi skills (R3).
pub const PSI_POINTS: u32 = 40;

/// What a fight needs to know of a knight: name, style and skill values. A [`crate::psiknight::Match`]
/// holds a copy taken when it starts, so spending points mid-fight changes only the next fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnightSheet {
    /// The knight's name, unique in a realm (case-insensitive).
    pub name: String,
    /// Sir or Dame.
    pub style: Style,
    /// The knight's monarch.
    pub monarch: Monarch,
    /// Fighting skills, indexed in [`Skill::ALL`] order.
    skills: [u8; 6],
    /// Psi skills, indexed in [`PsiSkill::ALL`] order; 0 means not learned.
    psi: [u8; 7],
}

impl KnightSheet {
    /// A sheet with the given values; no creation rules are checked (for knights that have
    /// improved since creation, and for tests). Use [`NewKnight::create`] for a new knight.
    pub fn new(
        name: impl Into<String>,
        style: Style,
        monarch: Monarch,
        skills: [u8; 6],
        psi: [u8; 7],
    ) -> Self {
        KnightSheet {
            name: name.into(),
            style,
            monarch,
            skills,
            psi,
        }
    }

    /// The value of a fighting skill.
    #[inline]
    pub fn skill(&self, skill: Skill) -> u8 {
        self.skills[skill.index()]
    }

    /// The value of a psi skill; 0 if not learned.
    #[inline]
    pub fn psi(&self, skill: PsiSkill) -> u8 {
        self.psi[skill.index()]
    }

    /// Sets a fighting skill (after spending Honor, R30).
    pub fn set_skill(&mut self, skill: Skill, value: u8) {
        self.skills[skill.index()] = value;
    }

    /// Sets a psi skill (after spending Honor, R30).
    pub fn set_psi(&mut self, skill: PsiSkill, value: u8) {
        self.psi[skill.index()] = value;
    }

    /// All fighting skills with their values, in [`Skill::ALL`] order.
    pub fn skills(&self) -> impl Iterator<Item = (Skill, u8)> + '_ {
        Skill::ALL.into_iter().map(|s| (s, self.skill(s)))
    }

    /// The learned psi skills (above 0) with their values, in [`PsiSkill::ALL`] order.
    pub fn psi_skills(&self) -> impl Iterator<Item = (PsiSkill, u8)> + '_ {
        PsiSkill::ALL
            .into_iter()
            .map(|s| (s, self.psi(s)))
            .filter(|&(_, v)| v > 0)
    }

    /// "Sir Alan" or "Dame Brenna" (without a noble title; see [`Rank::title`]).
    pub fn styled(&self) -> String {
        format!("{} {}", Rank::Knight.title(self.style), self.name)
    }
}

pub use crate::name::MAX_NAME_CHARS;

/// The choices a player makes to create a knight (R3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewKnight {
    /// The name.
    pub name: String,
    /// The three fighting skills that start at 40.
    pub top: Vec<Skill>,
    /// One to three psi skills with their percentiles.
    pub psi: Vec<(PsiSkill, u32)>,
    /// The monarch owed allegiance.
    pub monarch: Monarch,
    /// Sir or Dame.
    pub style: Style,
}

/// Why a new knight cannot be created as asked; one variant per rule of R3.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CreationError {
    /// The name breaks R122.
    #[error(transparent)]
    Name(#[from] NameError),
    /// Not exactly three top skills.
    #[error("choose exactly three skills to start at 40; you chose {0}")]
    TopCount(usize),
    /// A top skill was named twice.
    #[error("{0} is listed twice among the skills to start at 40")]
    TopRepeated(Skill),
    /// No psi skill, or more than three.
    #[error("choose one, two or three psi skills; you chose {0}")]
    PsiCount(usize),
    /// A psi skill was named twice.
    #[error("{0} is listed twice among the psi skills")]
    PsiRepeated(PsiSkill),
    /// A psi skill below 10.
    #[error("each psi skill needs at least 10; {0} has {1}")]
    PsiTooLow(PsiSkill, u32),
    /// A psi skill not in steps of 10.
    #[error("psi points go in steps of 10; {0} has {1}")]
    PsiStep(PsiSkill, u32),
    /// The psi points do not add up to 40.
    #[error("psi points must add up to {PSI_POINTS}; these add up to {0}")]
    PsiTotal(u32),
}

impl NewKnight {
    /// Checks the rules of R3 and builds the knight's sheet: the chosen three skills at 40, the
    /// others at 30, the psi skills as allocated.
    pub fn create(&self) -> Result<KnightSheet, CreationError> {
        let name = check_name(&self.name)?;
        if self.top.len() != 3 {
            return Err(CreationError::TopCount(self.top.len()));
        }
        let mut skills = [OTHER_SKILL; 6];
        for &s in &self.top {
            if skills[s.index()] == TOP_SKILL {
                return Err(CreationError::TopRepeated(s));
            }
            skills[s.index()] = TOP_SKILL;
        }
        if self.psi.is_empty() || self.psi.len() > 3 {
            return Err(CreationError::PsiCount(self.psi.len()));
        }
        let mut psi = [0u8; 7];
        let mut total = 0u32;
        for &(s, v) in &self.psi {
            if psi[s.index()] != 0 {
                return Err(CreationError::PsiRepeated(s));
            }
            if v < 10 {
                return Err(CreationError::PsiTooLow(s, v));
            }
            if v % 10 != 0 {
                return Err(CreationError::PsiStep(s, v));
            }
            total = total.saturating_add(v);
            psi[s.index()] = v.min(100) as u8;
        }
        if total != PSI_POINTS {
            return Err(CreationError::PsiTotal(total));
        }
        // Collapse inner runs of spaces so "Sir  Alan" and "Sir Alan" are one name.
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        Ok(KnightSheet::new(
            name,
            self.style,
            self.monarch,
            skills,
            psi,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dara() -> NewKnight {
        NewKnight {
            name: "Dara".into(),
            top: vec![Skill::Observe, Skill::Dodge, Skill::Sword],
            psi: vec![(PsiSkill::Hypercognition, 20), (PsiSkill::Apportation, 20)],
            monarch: Monarch::Seonaid,
            style: Style::Dame,
        }
    }

    // R3: three skills at 40, three at 30, psi as allocated, 0 HP/PP is the books' concern.
    #[test]
    fn r3_a_valid_knight_gets_her_skills() {
        let k = dara().create().unwrap();
        assert_eq!(k.skill(Skill::Observe), 40);
        assert_eq!(k.skill(Skill::Dodge), 40);
        assert_eq!(k.skill(Skill::Sword), 40);
        assert_eq!(k.skill(Skill::Lance), 30);
        assert_eq!(k.skill(Skill::Ride), 30);
        assert_eq!(k.skill(Skill::Shield), 30);
        assert_eq!(k.psi(PsiSkill::Hypercognition), 20);
        assert_eq!(k.psi(PsiSkill::Apportation), 20);
        assert_eq!(k.psi(PsiSkill::Negapsi), 0);
        assert_eq!(k.styled(), "Dame Dara");
    }

    // R3: each violated rule is its own error; R122: names of 1 to 32 letters, digits, spaces, ' - .
    #[test]
    fn r3_each_rule_has_its_own_error() {
        let mut k = dara();
        k.psi = vec![(PsiSkill::Cpk, 30)];
        assert_eq!(k.create(), Err(CreationError::PsiTotal(30)));
        assert_eq!(
            CreationError::PsiTotal(30).to_string(),
            "psi points must add up to 40; these add up to 30"
        );
        k.psi = vec![(PsiSkill::Cpk, 15), (PsiSkill::Catapsi, 25)];
        assert_eq!(k.create(), Err(CreationError::PsiStep(PsiSkill::Cpk, 15)));
        k.psi = vec![(PsiSkill::Cpk, 0), (PsiSkill::Catapsi, 40)];
        assert_eq!(k.create(), Err(CreationError::PsiTooLow(PsiSkill::Cpk, 0)));
        k.psi = vec![
            (PsiSkill::Cpk, 10),
            (PsiSkill::Catapsi, 10),
            (PsiSkill::Negapsi, 10),
            (PsiSkill::Telepathy, 10),
        ];
        assert_eq!(k.create(), Err(CreationError::PsiCount(4)));
        k.psi = vec![];
        assert_eq!(k.create(), Err(CreationError::PsiCount(0)));
        k.psi = vec![(PsiSkill::Cpk, 20), (PsiSkill::Cpk, 20)];
        assert_eq!(k.create(), Err(CreationError::PsiRepeated(PsiSkill::Cpk)));
        let mut k = dara();
        k.top = vec![Skill::Lance, Skill::Ride];
        assert_eq!(k.create(), Err(CreationError::TopCount(2)));
        k.top = vec![Skill::Lance, Skill::Ride, Skill::Lance];
        assert_eq!(k.create(), Err(CreationError::TopRepeated(Skill::Lance)));
        let mut k = dara();
        k.name = "  ".into();
        assert_eq!(k.create(), Err(CreationError::Name(NameError::Empty)));
        k.name = "x".repeat(33);
        assert_eq!(k.create(), Err(CreationError::Name(NameError::TooLong(33))));
        k.name = "@everyone".into();
        assert_eq!(
            k.create(),
            Err(CreationError::Name(NameError::Character('@')))
        );
    }

    // R3: one psi skill with all 40, or three skills, are both fine.
    #[test]
    fn r3_one_to_three_psi_skills() {
        let mut k = dara();
        k.psi = vec![(PsiSkill::Negapsi, 40)];
        assert_eq!(k.create().unwrap().psi(PsiSkill::Negapsi), 40);
        k.psi = vec![
            (PsiSkill::Cpk, 10),
            (PsiSkill::Catapsi, 10),
            (PsiSkill::Negapsi, 20),
        ];
        assert!(k.create().is_ok());
    }

    #[test]
    fn names_parse_case_insensitively() {
        assert_eq!("LANCE".parse::<Skill>(), Ok(Skill::Lance));
        assert_eq!("Cpk".parse::<PsiSkill>(), Ok(PsiSkill::Cpk));
        assert_eq!("vegland".parse::<Monarch>(), Ok(Monarch::Ragnar));
        assert_eq!("Seonaid".parse::<Monarch>(), Ok(Monarch::Seonaid));
        let err = "arthur".parse::<Monarch>().unwrap_err();
        assert!(err.to_string().contains("unknown monarch 'arthur'"));
    }

    #[test]
    fn styles_follow_gender() {
        assert_eq!(Rank::Earl.title(Style::Dame), "Countess");
        assert_eq!(Rank::Duke.title(Style::Sir), "Duke");
        assert_eq!(Rank::Knight.title(Style::Dame), "Dame");
    }
}
