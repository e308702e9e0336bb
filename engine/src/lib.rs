//! # herald-engine
//!
//! The rules Herald referees, as pure values and state machines. Nothing in this crate reads a
//! socket, a clock, a database or an operating-system random source: every die comes through the
//! [`dice::RollSource`] trait, every decision through [`psiknight::Match::decide`], and every
//! result goes out as [`psiknight::Event`] data. The bot crate drives it; tests drive it with
//! scripted dice.
//!
//! - [`dice`]: the one trait every roll goes through, the seeded production generator and the
//!   scripted source for tests.
//! - [`game`]: the contract every game's fight keeps ([`game::Fight`]), so one referee drives
//!   them all.
//! - [`name`]: a character's name, as every game checks it (R122).
//! - [`notation`]: dice expressions for `/roll` (`1d100`, `4d6kh3`, `2d10!`), bounded and safe.
//! - [`psiknight`]: the PsiKnight ruleset: knights, a [`psiknight::Match`] (Joust, then Swordplay),
//!   the books and tournaments.
//! - [`tourney`]: The Tourney ruleset: Tourney knights and a [`tourney::Bout`] on foot.
//! - [`pfpduel`]: Psionic duel with PFP: psionists and a [`pfpduel::Duel`] of d6 pools and doubles.
//! - [`powerpool`]: Psionic combat with power pools: creatures and a [`powerpool::Combat`] of up
//!   to three a side.
//! - [`psimorphs`]: Psi Morphs: morphs, a [`psimorphs::MorphFight`] of checks and forces.
#![deny(missing_docs)]

pub mod dice;
pub mod game;
pub mod name;
pub mod notation;
pub mod pfpduel;
pub mod powerpool;
pub mod psiknight;
pub mod psimorphs;
pub mod tourney;
