//! The Tourney: foot combat on d6 + a weapon skill, decided where the text is silent by the
//! rulings T1–T22 of `rulesets/tourney.md`.
//!
//! - [`sheet`]: weapons, skills and the sheet, with the creation rules (T12, T20).
//! - [`state`]: what outlasts a bout, healing and the smith (T15, T16, T21).
//! - [`tables`]: the house tables of weapons, Strength and standing up, as realm data (T8, T10,
//!   T11).
//! - [`fight`]: the [`Bout`], a state machine on the [`crate::game::Fight`] contract.
//! - [`event`]: what a bout reports, with the page's field names.
//!
//! Start a [`Bout`] from a [`BoutSetup`] (both [`Entrant`]s as of the day, and the [`Tables`]),
//! ask [`Bout::awaited`] who must act, feed [`Bout::decide_into`], read the [`Event`]s, and when
//! it is over write [`Bout::carry`] back to the knights' states.

pub mod event;
pub mod fight;
pub mod sheet;
pub mod state;
pub mod tables;

pub use event::{EndReason, Event, Outcome};
pub use fight::{Bout, BoutSetup, Decision, Entrant, RuleError};
pub use sheet::{
    parse_skills, NewTourneyKnight, SheetError, Skills, TourneySheet, UnknownWeapon, Weapon,
    WeaponState,
};
pub use state::{SmithError, Smithed, TourneyState};
pub use tables::Tables;
