//! # herald-bot
//!
//! Herald, the chat bot that referees PsiKnight fights. The rules live in `herald-engine`; this
//! crate holds everything with IO: transports, the command grammar, channel sessions, storage
//! and configuration.
#![deny(missing_docs)]

pub mod command;
