//! What a line that is not a valid command gets: a [`ParseError`], one line saying what was
//! wrong and how to say it right.

use super::*;

/// What was wrong with a command line. Every message is one line; words repeated back from the
/// line are shortened and have control characters escaped.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// The line is longer than [`MAX_LINE_CHARS`].
    #[error("a command may be at most {max} characters long")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// No command has this word.
    #[error("unknown command '{word}'{}", did_you_mean(.suggestion))]
    UnknownCommand {
        /// The word as typed.
        word: String,
        /// The nearest command.
        suggestion: Option<String>,
    },
    /// A command with sub-commands (`/ransom`) got none, or an unknown one.
    #[error("{}", which_action(.word, .expected))]
    UnknownAction {
        /// The word given, if any.
        word: Option<String>,
        /// The sub-commands.
        expected: String,
    },
    /// A required argument was not given.
    #[error("{label} is missing ({about}, e.g. {example})")]
    Missing {
        /// As in the usage: `KNIGHT`, `--top`.
        label: &'static str,
        /// What it is.
        about: &'static str,
        /// An example.
        example: &'static str,
    },
    /// An option that needs a value was given none.
    #[error("{label} needs a value, e.g. {example}")]
    NoValue {
        /// The option.
        label: &'static str,
        /// An example.
        example: &'static str,
    },
    /// A switch was given a value (`--dame=yes`).
    #[error("{label} takes no value")]
    SwitchValue {
        /// The switch.
        label: &'static str,
    },
    /// More words than the command takes.
    #[error("unexpected '{word}'; names with spaces go in double quotes")]
    Unexpected {
        /// The first extra word.
        word: String,
    },
    /// An option this command does not have.
    #[error("unknown option '{word}'; {known}")]
    UnknownOption {
        /// The option as typed.
        word: String,
        /// The options it does have.
        known: String,
    },
    /// The same option twice.
    #[error("{label} is given twice")]
    Repeated {
        /// The option.
        label: &'static str,
    },
    /// A name of a game's kind (a skill, a monarch) that matches none.
    #[error("{0}")]
    UnknownName(UnknownName),
    /// A word not among the choices.
    #[error("'{word}' is not {expected}")]
    BadChoice {
        /// The word.
        word: String,
        /// The choices.
        expected: String,
    },
    /// Not a whole number in range.
    #[error("{label} must be a whole number from {min} to {max}; '{word}' is not")]
    BadNumber {
        /// The argument.
        label: &'static str,
        /// The word.
        word: String,
        /// The least accepted.
        min: u32,
        /// The most accepted.
        max: u32,
    },
    /// Not a number of whole or half points.
    #[error("{label} must be {what}, such as 2 or 2.5; '{word}' is not")]
    BadPoints {
        /// The argument.
        label: &'static str,
        /// The word.
        word: String,
        /// What is accepted.
        what: &'static str,
    },
    /// A number of points beyond what the books take.
    #[error(
        "{label} is too large: '{word}' is more than {max} points, the most one entry may hold"
    )]
    TooManyPoints {
        /// The argument.
        label: &'static str,
        /// The word.
        word: String,
        /// The most accepted.
        max: i64,
    },
    /// Not a ledger entry number.
    #[error("ENTRY_ID must be a ledger entry number such as 42; '{word}' is not")]
    BadEntry {
        /// The word.
        word: String,
    },
    /// Not a month.
    #[error("--month must be a month written YYYY-MM, such as 2026-12; '{word}' is not")]
    BadMonth {
        /// The word.
        word: String,
    },
    /// Not a moment or a delay.
    #[error("'{word}' is not a time: {why}")]
    BadWhen {
        /// The words.
        word: String,
        /// What went wrong and what is accepted.
        why: &'static str,
    },
    /// An item of a list not written as its kind asks (a psi skill without its points).
    #[error("{how}; '{word}' is not")]
    BadItem {
        /// The item.
        word: String,
        /// How each item is written, with an example.
        how: &'static str,
    },
    /// An opening quote without its closing one.
    #[error("a quote is not closed; end the name with \"")]
    UnterminatedQuote,
    /// A closing quote glued to the next word.
    #[error("a closing quote must be followed by a space")]
    QuoteJoined,
    /// A table entry asked for an argument it does not declare: a fault in Herald itself.
    #[error("Herald's command table is inconsistent at '{0}'; please tell an admin")]
    Internal(&'static str),
}

pub(crate) fn did_you_mean(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(s) => format!("; did you mean '{s}'?"),
        None => String::new(),
    }
}

pub(crate) fn which_action(word: &Option<String>, expected: &str) -> String {
    match word {
        Some(w) => format!("'{w}' is not {expected}"),
        None => format!("say which: {expected}"),
    }
}

pub use herald_engine::name::UnknownName;

/// A bad command line: what was wrong, and the usage. Display is the one-line reply. Boxed,
/// so that a `Result` carrying it stays small.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", .0.message)]
pub struct ParseError(Box<ErrorDetail>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ErrorDetail {
    pub(crate) kind: ParseErrorKind,
    pub(crate) command: Option<String>,
    pub(crate) usage: String,
    pub(crate) message: String,
}

/// Which usage an error shows.
#[derive(Clone, Copy)]
pub(crate) enum Context {
    /// A recognised command.
    Spec(&'static CommandSpec),
    /// A command word with sub-commands (`ransom`) of a table: all their usages.
    Group(&'static str, &'static [CommandSpec]),
    /// Nothing recognised: the usage of `/help`.
    Help,
}

impl Context {
    pub(crate) fn usage(self, prefix: char) -> String {
        match self {
            Context::Spec(spec) => with_prefix(spec.usage, prefix),
            Context::Group(word, table) => table
                .iter()
                .filter(|s| s.first_word() == word)
                .map(|s| with_prefix(s.usage, prefix))
                .collect::<Vec<_>>()
                .join(" | "),
            Context::Help => format!("{prefix}help [COMMAND]"),
        }
    }

    pub(crate) fn command(self) -> Option<String> {
        match self {
            Context::Spec(spec) => Some(spec.name()),
            Context::Group(word, _) => Some(word.to_string()),
            Context::Help => None,
        }
    }
}

impl ParseError {
    /// `labelled`: the message starts with the command's words. Not for an unknown command,
    /// whose context is only the suggestion's usage.
    pub(crate) fn new(
        kind: ParseErrorKind,
        context: Context,
        prefix: char,
        labelled: bool,
    ) -> Self {
        let usage = context.usage(prefix);
        let command = context.command().filter(|_| labelled);
        let what = kind.to_string();
        let stop = if what.ends_with(['.', '?', '!']) {
            ""
        } else {
            "."
        };
        let message = match &command {
            Some(c) => format!("{prefix}{c}: {what}{stop} Usage: {usage}"),
            None => format!("{what}{stop} Usage: {usage}"),
        };
        ParseError(Box::new(ErrorDetail {
            kind,
            command,
            usage,
            message,
        }))
    }

    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.0.kind
    }

    /// The command's words when the command was recognised (`knight create`, or `ransom` for
    /// a missing sub-command); `None` for an unknown command.
    pub fn command(&self) -> Option<&str> {
        self.0.command.as_deref()
    }

    /// The usage line(s) shown, with the player's prefix.
    pub fn usage(&self) -> &str {
        &self.0.usage
    }

    /// The one-line reply (the same as Display).
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

/// A player's word as an error message may repeat it: at most [`MAX_SHOWN_CHARS`] characters,
/// with line breaks, other control characters and direction overrides escaped, so the reply
/// stays one line and reads left to right.
pub(crate) fn shown(word: &str) -> String {
    let mut out = String::new();
    let mut len = 0;
    for c in word.chars() {
        if len >= MAX_SHOWN_CHARS {
            out.push('…');
            break;
        }
        len += 1;
        let hidden = c.is_control()
            || (c.is_whitespace() && c != ' ')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
        if hidden {
            let escaped: String = c.escape_default().collect();
            len += escaped.chars().count() - 1;
            out.push_str(&escaped);
        } else {
            out.push(c);
        }
    }
    out
}

/// "a, b or c".
pub(crate) fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

pub(crate) fn unknown_name(e: UnknownName) -> ParseErrorKind {
    ParseErrorKind::UnknownName(UnknownName {
        word: shown(&e.word),
        ..e
    })
}
