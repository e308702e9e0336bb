//! Transports: thin adapters between a chat platform and the [`crate::hub::Hub`]. They know
//! nothing of the rules.

pub mod console;
pub mod discord;
pub mod irc;
pub mod script;

/// The realm of the console room and of transcripts.
pub const LOCAL_REALM: &str = "local";
