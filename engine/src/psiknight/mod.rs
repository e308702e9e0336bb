//! PsiKnight (1994): knights, the Joust and Swordplay checklists with the seven psi skills, the
//! books of Honor and Prestige, and tournaments, decided where the text is silent by the
//! project's rulings (R1, R2, ...; see `docs/rulings.md`).
//!
//! The heart is [`Match`]: start it from a [`MatchSetup`], ask [`Match::pending`] who must decide
//! what, feed [`Match::decide`], and read the [`Event`]s it returns.

pub mod books;
pub mod decision;
pub mod event;
pub mod fight;
mod game;
mod joust;
pub mod knight;
pub mod policy;
mod psi;
mod swordplay;
pub mod tournament;

pub use decision::{BonusMode, Decision, Side};
pub use event::{Discard, Event, EventSink, Outcome};
pub use fight::{Match, MatchKind, MatchSetup, Opening, Prompt, PromptKind, RuleError};
pub use joust::fall_injury;
pub use knight::{KnightSheet, Monarch, NewKnight, PsiSkill, Rank, Skill, Style};
