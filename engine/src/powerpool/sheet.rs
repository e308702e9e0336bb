//! A creature's sheet and its creation rules (PC2–PC4, PC34, PC35), what outlasts a fight, and
//! the night's rest (PC39).

use super::modes::{AttackMode, Attacks, DefenseMode, Defenses, Kind, Levels};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The realm's data for the game (`[powerpool]`, PC34): the players' most hit dice, the modes
/// budget's step and the round limit of PC31.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The most hit dice of a player's creature (8).
    pub max_hd: u8,
    /// A psionicist knows 1 + ⌊HD / this⌋ attack modes at most, and as many defense modes (4).
    pub modes_per_hd: u8,
    /// After this round the fight is a draw (10).
    pub round_limit: u8,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_hd: 8,
            modes_per_hd: 4,
            round_limit: 10,
        }
    }
}

/// A creature's sheet, as created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// Its name.
    pub name: String,
    /// Its kind of mind.
    pub kind: Kind,
    /// Hit dice.
    pub hd: u8,
    /// The hit die's sides.
    pub die: u8,
    /// The attack modes it knows.
    pub attacks: Attacks,
    /// The defense modes it knows.
    pub defenses: Defenses,
    /// Memorised spell levels.
    pub spells: Levels,
    /// Its hit points unhurt (PC35).
    pub hp_max: u16,
    /// Its saving throw: d20 ≥ this (PC35).
    pub save: u8,
}

impl Sheet {
    /// The pool's size: HD dice for a psionicist, ⌊HD/2⌋ (at least 1) for the others (PC2–PC4).
    #[inline]
    pub fn pool(&self) -> u8 {
        pool_size(self.kind, self.hd)
    }
}

/// The pool's size for a kind and hit dice (PC2–PC4).
pub fn pool_size(kind: Kind, hd: u8) -> u8 {
    match kind {
        Kind::Psionicist => hd,
        _ => (hd / 2).max(1),
    }
}

/// HP: ⌊HD × (die + 1) / 2⌋, the hit dice's average (PC35).
pub fn derived_hp(hd: u8, die: u8) -> u16 {
    (u16::from(hd) * (u16::from(die) + 1)) / 2
}

/// The save: 16 − ⌊(HD − 1)/2⌋, never below 2 (PC35).
pub fn derived_save(hd: u8) -> u8 {
    16u8.saturating_sub(hd.saturating_sub(1) / 2).max(2)
}

/// What `/creature create` (or `/npc create`) asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewCreature {
    /// The name.
    pub name: String,
    /// `--kind`.
    pub kind: Option<Kind>,
    /// `--hd`.
    pub hd: Option<u32>,
    /// `--die`, its sides.
    pub die: Option<u32>,
    /// `--attack`.
    pub attacks: Vec<AttackMode>,
    /// `--defense`.
    pub defenses: Vec<DefenseMode>,
    /// `--spells`.
    pub spells: Vec<u32>,
    /// `--hp` (NPCs only).
    pub hp: Option<u32>,
    /// `--save` (NPCs only).
    pub save: Option<u32>,
}

/// Why a sheet is refused; each names its rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SheetError {
    /// The name breaks the page's rule.
    #[error("a name is 1-24 letters, digits, -, _ or ', starting with a letter ({0:?} is not)")]
    Name(String),
    /// No `--kind`.
    #[error("--kind is required: psionicist, wild or none (PC3, PC4)")]
    NoKind,
    /// No `--hd`.
    #[error("--hd is required: the creature's hit dice")]
    NoHd,
    /// Hit dice out of bounds.
    #[error("PC34: a player's creature has 1 to {max} hit dice ({got} given)")]
    Hd {
        /// The most.
        max: u8,
        /// As given.
        got: u32,
    },
    /// NPC hit dice out of bounds.
    #[error("an NPC has 1 to 20 hit dice ({0} given)")]
    NpcHd(u32),
    /// A die not allowed.
    #[error("{0}")]
    Die(&'static str),
    /// A mode or spell budget broken.
    #[error("{0}")]
    Budget(String),
    /// `--hp` or `--save` out of bounds or by a player.
    #[error("{0}")]
    NpcOnly(&'static str),
    /// A spell level out of 1–9.
    #[error("a spell level is 1 to 9 ({0} given)")]
    SpellLevel(u32),
    /// A mode given twice.
    #[error("a mode is named once ({0} twice)")]
    Repeated(&'static str),
}

/// Checks the page's name rule: 1–24 letters, digits, `-`, `_`, `'`, starting with a letter.
pub fn check_name(name: &str) -> Result<String, SheetError> {
    let name = name.trim();
    let ok = (1..=24).contains(&name.chars().count())
        && name.chars().next().is_some_and(char::is_alphabetic)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '\''));
    if ok {
        Ok(name.to_string())
    } else {
        Err(SheetError::Name(name.to_string()))
    }
}

impl NewCreature {
    /// Checks the creation rules and builds the sheet: the budget of PC34 for a player's
    /// creature, the NPC bounds for `npc`.
    pub fn create(&self, npc: bool, rules: &Rules) -> Result<Sheet, SheetError> {
        let name = check_name(&self.name)?;
        let kind = self.kind.ok_or(SheetError::NoKind)?;
        let hd_given = self.hd.ok_or(SheetError::NoHd)?;
        if npc && !(1..=20).contains(&hd_given) {
            return Err(SheetError::NpcHd(hd_given));
        }
        if !npc && !(1..=u32::from(rules.max_hd)).contains(&hd_given) {
            return Err(SheetError::Hd {
                max: rules.max_hd,
                got: hd_given,
            });
        }
        let hd = hd_given as u8;
        let die = self.die.unwrap_or(8);
        if npc {
            if ![4, 6, 8, 10, 12].contains(&die) {
                return Err(SheetError::Die(
                    "an NPC's hit die is d4, d6, d8, d10 or d12",
                ));
            }
        } else if kind == Kind::Psionicist && die != 8 {
            return Err(SheetError::Die("PC34: a psionicist's hit die is d8"));
        } else if ![4, 6, 8, 10].contains(&die) {
            return Err(SheetError::Die(
                "PC34: a player's wild talent or non-psionic creature has d4, d6, d8 or d10",
            ));
        }
        let die = die as u8;
        let mut attacks = Attacks::default();
        for &m in &self.attacks {
            if attacks.has(m) {
                return Err(SheetError::Repeated(m.word()));
            }
            attacks.add(m);
        }
        let mut defenses = Defenses::default();
        for &m in &self.defenses {
            if defenses.has(m) {
                return Err(SheetError::Repeated(m.word()));
            }
            defenses.add(m);
        }
        if let Some(&bad) = self.spells.iter().find(|l| !(1..=9).contains(*l)) {
            return Err(SheetError::SpellLevel(bad));
        }
        let levels: Vec<u8> = self.spells.iter().map(|&l| l as u8).collect();
        let spells = Levels::of(&levels);
        if (self.hp.is_some() || self.save.is_some()) && !npc {
            return Err(SheetError::NpcOnly(
                "PC35: --hp and --save are for NPCs; a player's creature has the derived ones",
            ));
        }
        if npc {
            if kind.psionic() && attacks.is_empty() {
                return Err(SheetError::Budget(
                    "a psionic NPC knows at least one attack mode".into(),
                ));
            }
            if !kind.psionic() && (!attacks.is_empty() || !defenses.is_empty()) {
                return Err(SheetError::Budget(
                    "PC4: a creature that is not psionic knows no mode".into(),
                ));
            }
        } else {
            self.budget(kind, hd, attacks, defenses, &levels, rules)?;
        }
        let hp_max = match self.hp {
            Some(hp) if (1..=999).contains(&hp) => hp as u16,
            Some(_) => return Err(SheetError::NpcOnly("an NPC's --hp is 1 to 999")),
            None => derived_hp(hd, die),
        };
        let save = match self.save {
            Some(s) if (2..=20).contains(&s) => s as u8,
            Some(_) => return Err(SheetError::NpcOnly("an NPC's --save is 2 to 20")),
            None => derived_save(hd),
        };
        Ok(Sheet {
            name,
            kind,
            hd,
            die,
            attacks,
            defenses,
            spells,
            hp_max,
            save,
        })
    }

    fn budget(
        &self,
        kind: Kind,
        hd: u8,
        attacks: Attacks,
        defenses: Defenses,
        spells: &[u8],
        rules: &Rules,
    ) -> Result<(), SheetError> {
        let refuse = |s: String| Err(SheetError::Budget(s));
        match kind {
            Kind::Psionicist => {
                let most = 1 + hd / rules.modes_per_hd.max(1);
                if attacks.is_empty() || attacks.len() > most as usize {
                    return refuse(format!(
                        "PC34: a psionicist of {hd} HD knows 1 to {most} attack modes"
                    ));
                }
                if defenses.len() > most as usize {
                    return refuse(format!(
                        "PC34: a psionicist of {hd} HD knows 0 to {most} defense modes"
                    ));
                }
                if !spells.is_empty() {
                    return refuse("PC34: a psionicist memorises no spells".into());
                }
            }
            Kind::Wild | Kind::None => {
                if kind == Kind::Wild && (attacks.len() != 1 || defenses.len() > 1) {
                    return refuse(
                        "PC34: a wild talent knows one attack mode and at most one defense mode"
                            .into(),
                    );
                }
                if kind == Kind::None && !(attacks.is_empty() && defenses.is_empty()) {
                    return refuse("PC34: a creature that is not psionic knows no mode".into());
                }
                let top = 9.min(hd.div_ceil(2));
                if spells.iter().any(|&l| l > top) {
                    return refuse(format!(
                        "PC34: at {hd} HD each spell level is at most {top}"
                    ));
                }
                let sum: u32 = spells.iter().map(|&l| u32::from(l)).sum();
                if sum > 2 * u32::from(hd) {
                    return refuse(format!(
                        "PC34: at {hd} HD the spell levels add up to at most {}",
                        2 * u32::from(hd)
                    ));
                }
            }
        }
        Ok(())
    }
}

/// What outlasts a fight: HP, dice lost, spells spent, until the next rest (PC39).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    /// Hit points now; may be 0 or below (unconscious, PC30).
    pub hp: i32,
    /// Pool dice lost until rest (lost attacks, expended dice).
    pub dice_lost: u8,
    /// Memorised spells sacrificed until rest.
    pub spells_spent: Levels,
    /// The realm day of the last rest; `None` before any.
    pub rested_on: Option<String>,
}

/// Why `/rest` is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RestError {
    /// Already rested this realm day.
    #[error("PC39: a creature rests once per realm day, and this one has rested today")]
    Today,
}

impl State {
    /// A fresh creature's state: unhurt, nothing lost.
    pub fn fresh(sheet: &Sheet) -> State {
        State {
            hp: i32::from(sheet.hp_max),
            ..State::default()
        }
    }

    /// The night's rest on `day` (PC39): everything returns; once per realm day.
    pub fn rest(&self, sheet: &Sheet, day: &str) -> Result<State, RestError> {
        if self.rested_on.as_deref() == Some(day) {
            return Err(RestError::Today);
        }
        Ok(State {
            rested_on: Some(day.to_string()),
            ..State::fresh(sheet)
        })
    }

    /// The spells it has left.
    pub fn spells_left(&self, sheet: &Sheet) -> Levels {
        sheet.spells.minus(&self.spells_spent)
    }

    /// The pool's dice today: its size less dice lost.
    pub fn pool_now(&self, sheet: &Sheet) -> u8 {
        sheet.pool().saturating_sub(self.dice_lost)
    }
}
