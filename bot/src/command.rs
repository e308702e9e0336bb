//! The one command grammar: every transport's text becomes a [`Command`].
