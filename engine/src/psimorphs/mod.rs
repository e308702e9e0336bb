//! Psi Morphs: one morph against one in combat rounds, 2d10 exploding checks and psionic
//! forces, decided where the text is silent by the rulings PM1–PM30 of `rulesets/psimorphs.md`.
//!
//! - [`sheet`]: groups, attributes, ISPs and the sheet, with the creation rules (PM16, PM17).
//! - [`tables`]: the house numbers and the force catalogue, as realm data (PM4, PM12, PM19).
//! - [`check`]: a skill check and its reroll chains (PM1–PM4).
//! - [`state`]: what outlasts a fight and its recovery (PM28).
//! - [`fight`]: the [`MorphFight`], a state machine on the [`crate::game::Fight`] contract.
//! - [`gm`]: the GM's check outside fights (PM27).
//! - [`event`]: what a fight reports, with the page's field names.
//!
//! Start a [`MorphFight`] from a [`FightSetup`] (both [`Entrant`]s as of the day, and the
//! [`Tables`]), ask [`MorphFight::awaited`] who must decide, feed [`MorphFight::decide_into`],
//! read the [`Event`]s, and when it is over write [`MorphFight::carry`] back to the sheets.

pub mod check;
pub mod event;
pub mod fight;
pub mod gm;
pub mod sheet;
pub mod state;
pub mod tables;

pub use check::{Chain, CheckSpec, Rolled};
pub use event::{EndReason, Event, NAME_FIELDS};
pub use fight::{Decision, Entrant, FightSetup, MorphFight, Outcome, RuleError};
pub use gm::{gm_check, gm_keep, gm_redo, GmError, GmOutcome, PendingCheck};
pub use sheet::{
    parse_pairs, Attribute, Attributes, Group, Isp, IspType, MorphSheet, NewMorph, Ranks,
    SheetError, UnknownWord,
};
pub use state::MorphState;
pub use tables::{Budget, Effect, Force, ForceId, ForceType, Tables, Target};
