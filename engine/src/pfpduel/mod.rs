//! Psionic duel with PFP: one psionist against another (or an open mind), pools of d6 with
//! doubles that trigger effects, decided where the text is silent by the rulings PF1–PF37 of
//! `rulesets/pfpduel.md`.
//!
//! - [`sheet`]: the psionist's (or open mind's) sheet, its creation rules (PF30, PF31) and what
//!   outlasts a fight (health until the realm's next day, PF34).
//! - [`fight`]: the [`Duel`], a state machine on the [`crate::game::Fight`] contract.
//! - [`event`]: what a fight reports, with the page's field names.

pub mod event;
pub mod fight;
pub mod sheet;

pub use event::{DoubleEffect, MentalKind};
pub use event::{EndReason, Event};
pub use fight::{Backlash, Decision, Duel, DuelSetup, Entrant, RuleError, MAX_ROUNDS};
pub use sheet::{House, NewPsionist, PfpSheet, PfpState, SheetError};
