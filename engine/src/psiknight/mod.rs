//! PsiKnight (1994): knights, the Joust and Swordplay checklists with the seven psi skills, the
//! books of Honor and Prestige, and tournaments, decided where the text is silent by the
//! project's rulings (R1, R2, ...; see `docs/rulings.md`).

pub mod books;
pub mod decision;
pub mod knight;
pub mod tournament;

pub use decision::{BonusMode, Decision, Side};
pub use knight::{KnightSheet, Monarch, NewKnight, PsiSkill, Rank, Skill, Style};
