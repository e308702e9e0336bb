//! Psionic combat with power pools: mind against mind, pools of dice, decided where the text is
//! silent by the rulings PC1–PC39 of `rulesets/powerpool.md`.
//!
//! - [`modes`]: the kinds of mind, the ten modes and the die steps (PC6).
//! - [`sheet`]: the sheet and its creation rules (PC2–PC4, PC34, PC35), what persists and the
//!   rest (PC39), and the realm's [`Rules`].
//! - [`decision`]: a creature's decisions and why one is refused.
//! - [`fight`]: the [`Combat`], a state machine on the [`crate::game::Fight`] contract, with up
//!   to three creatures a side, each a seat (PC33).
//! - [`event`]: what a combat reports, with the page's field names.

pub mod decision;
pub mod event;
pub mod fight;
pub mod modes;
pub mod sheet;

pub use decision::{Act, Decision, RuleError, ANY};
pub use event::{EndReason, Event, PuppetOrder, Seat, Seats};
pub use fight::{Combat, Entrant, Outcome, Phase, Setup, Standing};
pub use modes::{AttackMode, DefenseMode, Kind, Levels};
pub use sheet::{NewCreature, RestError, Rules, Sheet, SheetError, State};
