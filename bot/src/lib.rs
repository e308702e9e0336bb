//! # herald-bot
//!
//! Herald, the chat bot that referees play-by-chat fights of five games. The rules live in
//! `herald-engine`; this crate holds everything with IO: transports, the command grammar,
//! channel sessions, storage and configuration.
//!
//! A line of chat flows: transport → [`hub::Hub`] (parses it with [`command::parse`]) → the
//! channel's [`session::Session`] actor → the engine → [`store::Store`] (one transaction) →
//! the game's narration → back to the transport.
#![deny(missing_docs)]

pub mod app;
pub mod challenge;
pub mod cli;
pub mod clock;
pub mod command;
pub mod config;
pub mod confirm;
pub mod dice;
pub mod export;
pub mod fairness;
pub mod games;
pub mod history;
pub mod hub;
pub mod import;
pub mod link;
pub mod live;
pub mod migrate_db;
pub mod narration;
pub mod referee;
pub mod reply;
pub mod session;
pub mod simulate;
pub mod store;
pub mod transport;
pub mod verify;
pub mod web;

// PsiKnight's books in chat, where the tests have always found them.
pub use games::psiknight::{desk, office};
