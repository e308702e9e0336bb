//! Transports: thin adapters between a chat platform and the [`crate::hub::Hub`]. They know
//! nothing of the rules.

pub mod console;
pub mod discord;
pub mod irc;
pub mod script;

pub use crate::app::LOCAL_REALM;

/// Picks rustls's crypto provider for the process. Both TLS transports call it before they
/// connect: with IRC's and Discord's TLS stacks in one binary, rustls cannot choose by itself.
pub fn tls_provider() {
    // An error only means a provider is already installed, which is all that is needed.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
}
