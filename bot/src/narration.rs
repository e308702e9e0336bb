//! How a channel's fights are told: in full (a line an event, a line a prompt) or compact (a
//! step in one line, with the prompt it leads to on the same line).
//!
//! A channel's narration is, in order: a moderator's `/narration` choice, remembered in the
//! books; the configuration's `[narration.channels]`; its `[narration] default`; else the
//! transport's own default, compact on IRC and Discord, full in the console and in transcripts.
//!
//! A compact line keeps every sum that shows a modifier ("Lance 60 vs 65 (40 + 25 sweep)"); its
//! clauses are parted by [`CLAUSE`] and a prompt follows [`PROMPT`], so that a reader of prompts
//! (Discord's buttons) finds each one whole between the marks, as names cannot hold them (R122).

use serde::Deserialize;
use std::collections::BTreeMap;

/// How a channel's fights are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Narration {
    /// A step in one line, with the prompt it leads to.
    Compact,
    /// A line an event and a line a prompt.
    Full,
}

impl Narration {
    /// The word for it in `/narration` and in the configuration.
    pub fn word(self) -> &'static str {
        match self {
            Narration::Compact => "compact",
            Narration::Full => "full",
        }
    }

    /// The mode a word names, in any case.
    pub fn from_word(word: &str) -> Option<Narration> {
        [Narration::Compact, Narration::Full]
            .into_iter()
            .find(|n| n.word().eq_ignore_ascii_case(word.trim()))
    }
}

/// `[narration]`: how fights are told, for every channel (`default`) or for some
/// (`[narration.channels]`); a moderator's `/narration` in a channel outranks both.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NarrationConfig {
    /// Every channel's narration; unset, each transport's own (compact on IRC and Discord, full
    /// in the console and in transcripts).
    pub default: Option<Narration>,
    /// Channel name = "compact" or "full".
    pub channels: BTreeMap<String, Narration>,
}

impl NarrationConfig {
    /// The configured narration of `channel` (names compared in any case), if any.
    pub fn of(&self, channel: &str) -> Option<Narration> {
        self.channels
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(channel))
            .map(|(_, n)| *n)
            .or(self.default)
    }
}

/// Parts the clauses of a compact line.
pub const CLAUSE: &str = " · ";

/// Comes before each prompt on a compact line.
pub const PROMPT: &str = " ▸ ";

/// The clauses of a line, joined, without their full stops.
pub fn join(clauses: impl IntoIterator<Item = String>) -> String {
    clauses
        .into_iter()
        .map(|c| c.trim_end_matches('.').to_string())
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>()
        .join(CLAUSE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_names_a_mode_in_any_case() {
        assert_eq!(Narration::from_word(" Compact"), Some(Narration::Compact));
        assert_eq!(Narration::from_word("FULL"), Some(Narration::Full));
        assert_eq!(Narration::from_word("short"), None);
    }
}
