//! The one command grammar: every transport's text becomes a [`Command`].
//!
//! Console lines, script transcripts, IRC messages (prefix `!`) and Discord slash commands all
//! arrive here, so `/roll 100`, `/rol 1d100` and `!roll 100` are one command, and a mistake gets
//! the same one-line answer everywhere: what was wrong, then the usage.
//!
//! - [`parse`] turns a line into `None` (ordinary chat), a [`Command`], or a [`ParseError`].
//! - [`COMMANDS`] is the table: for each command its words, aliases, usage, summary, arguments and
//!   who may use it. The parser is driven by it (arguments are read by the generic reader from the
//!   [`ArgSpec`]s, then the entry's own builder turns them into a [`Command`]), `/help` is written
//!   from it, and the Discord adapter is to generate its slash commands from it. Adding a
//!   command is one entry in the table plus its [`Command`] variant.
//!
//! ## Lines
//!
//! A line is a command when, after leading spaces, it starts with one of the prefixes and the next
//! character is a letter: `!!!`, `/ shrug` or `/1d100` stay chat, so excited IRC users are not
//! answered with errors. Command words are case-insensitive. Arguments are separated by spaces;
//! double quotes (straight or curly) hold a name with spaces, `\"` puts a quote inside one. A
//! quoted word is never an option and never a sub-command word, so `/knight "create"` looks up a
//! knight named Create. Options (`--top`) may come in any order, as `--month 2026-12` or
//! `--month=2026-12`; a phone's `—top` is read as `--top`. A name that is the last positional
//! argument may also be given unquoted (`/joust Sir Alan`): the words up to the next option are
//! joined with single spaces. Lines are capped at [`MAX_LINE_CHARS`].
//!
//! The grammar checks syntax only. Whether a knight exists, whether three skills were chosen
//! (R3), or whether a decision is legal now is for the engine and the session to say.

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// The prefixes a line may start with when a transport configures none: `/` and `!`.
pub const DEFAULT_PREFIXES: &[char] = &['/', '!'];

/// The longest command line accepted, in characters (Discord's own message limit).
pub const MAX_LINE_CHARS: usize = 2000;

/// How much of a player's word an error message repeats back.
const MAX_SHOWN_CHARS: usize = 40;

/// The largest number of points a command may name (a guard against overflow, far above any
/// real balance).
const MAX_POINTS: i64 = 1_000_000;

/// The longest delay `in ...` may name: a year, so a typo cannot schedule for the next century.
const MAX_DELAY_SECS: u64 = 366 * 86_400;

mod error;
mod help;
mod lexer;
mod parse;
mod spec;
mod table;
#[cfg(test)]
mod tests;

pub use error::*;
pub use help::*;
pub use lexer::*;
pub use parse::*;
pub use spec::*;
pub use table::*;

/// A number of points counted in halves, as the books keep them (R29): `HalfPoints(5)` is 2.5.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct HalfPoints(pub i64);

impl HalfPoints {
    /// Whole points, as half-points.
    pub const fn from_points(points: i64) -> Self {
        HalfPoints(points.saturating_mul(2))
    }

    /// The count of half points.
    pub const fn halves(self) -> i64 {
        self.0
    }
}

impl fmt::Display for HalfPoints {
    /// `5` halves is "2.5", `-3` is "-1.5", `4` is "2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs.is_multiple_of(2) {
            write!(f, "{sign}{}", abs / 2)
        } else {
            write!(f, "{sign}{}.5", abs / 2)
        }
    }
}

/// A calendar month, for `--month YYYY-MM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct YearMonth {
    /// The year, four digits.
    pub year: i32,
    /// The month, 1 to 12.
    pub month: u32,
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// When a tournament is to start. The grammar does not read the clock: the session resolves
/// this against its own clock and the realm's time zone with [`When::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// A moment with a zone: `2026-12-05T18:00:00Z` or `2026-12-05T18:00+01:00`.
    At(DateTime<Utc>),
    /// A wall-clock time without a zone, `2026-12-05T18:00`, meant in the realm's time zone
    /// (the zone R25 uses for days and months).
    Local(NaiveDateTime),
    /// A delay from now: `in 2h`, `in 1h30m`, `in 1d`.
    In(Duration),
}

impl When {
    /// The moment meant, given the session's clock and the realm's time zone; `None` for a
    /// local time that does not exist in that zone (skipped by a daylight-saving change) or a
    /// moment out of range. An ambiguous local time (a repeated hour) takes the earlier one.
    pub fn resolve<Tz: TimeZone>(&self, now: DateTime<Utc>, zone: &Tz) -> Option<DateTime<Utc>> {
        match self {
            When::At(at) => Some(*at),
            When::Local(naive) => zone
                .from_local_datetime(naive)
                .earliest()
                .map(|t| t.with_timezone(&Utc)),
            When::In(delay) => chrono::Duration::from_std(*delay)
                .ok()
                .and_then(|d| now.checked_add_signed(d)),
        }
    }
}

/// Everything a player, moderator or admin can ask of Herald: the commands every game shares,
/// and a game's own (read as text, [`Command::Game`], or into the game's own type,
/// [`Command::Own`]). Plain data: the session decides what it means now (`/accept` answers a
/// challenge, an allegiance offer or a melee pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `/roll EXPR`: roll dice; the expression is parsed by the engine's notation module.
    Roll {
        /// The rest of the line, trimmed.
        expr: String,
    },
    /// `/fight N`: a past (or open) fight summed up in a few lines.
    Fight {
        /// The fight's number.
        id: u32,
    },
    /// `/fights [NAME] [--page N]`: a knight's (or a character's) fights, newest first.
    Fights {
        /// The knight or character; `None` is your own.
        name: Option<String>,
        /// Which page of 10 fights, newest first; `None` is the first.
        page: Option<u32>,
    },
    /// `/accept`: accept a challenge, an allegiance offer or a melee pass.
    Accept,
    /// `/decline`: decline a challenge, or decline Swordplay after a practice Joust (R41).
    Decline,
    /// `/link [CODE]`: without a code, a one-time code for the speaker alone (10 minutes); with
    /// one, typed on another platform, joins the speaker's account to the code's.
    Link {
        /// The code from the other account, if given.
        code: Option<String>,
    },
    /// `/unlink`: undoes the speaker's links, from either side.
    Unlink,
    /// `/status`: what is going on in this channel, and who must decide.
    Status,
    /// `/help [COMMAND]`.
    Help {
        /// The command asked about, canonical (`roll` for `rol`, `knight create`).
        topic: Option<String>,
    },
    /// `/rules [TOPIC]`: a checklist or a part of the rules summed up; a ruling by number.
    Rules {
        /// The topic (`joust`) or ruling (`R26`); `None` lists the topics.
        topic: Option<String>,
    },
    /// `/odds KNIGHT [KNIGHT]`: the chances of a fight; one name is against yourself.
    Odds {
        /// The first knight.
        knight: String,
        /// The second; `None` is your own knight.
        other: Option<String>,
    },
    /// `/challenge TARGET`: start a fight in the channel's game (PsiKnight's is `/joust`).
    Challenge {
        /// A nick, `@nick`, a mention or a character's name.
        target: String,
    },
    /// `/game [ID]`: which game the channel plays; with an id, a moderator changes it.
    SetGame {
        /// The game's id; `None` asks.
        game: Option<String>,
    },
    /// `/narration [compact|full]`: how the channel's fights are told; a moderator changes it.
    Narration {
        /// The mode's word; `None` asks.
        mode: Option<String>,
    },
    /// `/sheet [NAME]`: a character's sheet and state in the channel's game.
    Sheet {
        /// The character; yours when `None`.
        name: Option<String>,
    },
    /// `/record [NAME]`: wins, losses and draws in the channel's game.
    Record {
        /// The character; yours when `None`.
        name: Option<String>,
    },
    /// `/npc create NAME ...`: a moderator creates a non-player character with the game's
    /// creation options (no budget).
    NpcCreate {
        /// The name and the options, as typed: read by the game's creation command.
        rest: String,
    },
    /// `/npc retire NAME`.
    NpcRetire {
        /// The character.
        name: String,
    },
    /// `/as NAME COMMAND...`: a moderator gives an NPC's decision.
    As {
        /// The NPC.
        name: String,
        /// The command, with its prefix: `/attack`.
        command: String,
    },
    /// A command of the channel's game's own table (`/attack`, `/smith`), as read; the game's
    /// folder gives it meaning.
    Game(GameCommand),
    /// A command of a game's own table that its builder read into the game's own type
    /// (PsiKnight's `/spend lance`); the game's folder takes it back with [`OwnCommand::get`].
    Own(OwnCommand),
}

/// What a game's own command type tells the core about a command: its words, and what the hub
/// does around it.
pub trait GameOrder: Any + fmt::Debug + Send + Sync {
    /// The command's words, as in the table: `knight create`, `sweep`.
    fn name(&self) -> &'static str;

    /// The channel the command names to hold what it sets up there ([`Command::held_in_mut`]).
    fn held_in_mut(&mut self) -> Option<&mut String> {
        None
    }

    /// Whether it schedules what channels load from the books ([`Command::schedules`]).
    fn schedules(&self) -> bool {
        false
    }
}

/// A [`GameOrder`] that can be cloned and compared behind a box; implemented for every game
/// command type that is `Clone` and `PartialEq`.
trait OwnOrder: GameOrder {
    fn boxed(&self) -> Box<dyn OwnOrder>;
    fn same(&self, other: &dyn Any) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<T: GameOrder + Clone + PartialEq> OwnOrder for T {
    fn boxed(&self) -> Box<dyn OwnOrder> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A command in its game's own type, which the core carries without knowing it.
pub struct OwnCommand(Box<dyn OwnOrder>);

impl OwnCommand {
    /// Wraps a game's command.
    pub fn new<T: GameOrder + Clone + PartialEq>(order: T) -> Self {
        OwnCommand(Box::new(order))
    }

    /// The game's command, when it is of type `T`.
    pub fn get<T: GameOrder>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    fn order(&self) -> &dyn OwnOrder {
        self.0.as_ref()
    }
}

impl Clone for OwnCommand {
    fn clone(&self) -> Self {
        OwnCommand(self.0.boxed())
    }
}

impl PartialEq for OwnCommand {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_any())
    }
}

impl Eq for OwnCommand {}

impl fmt::Debug for OwnCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A command of a game's own table, as read by the one parser: its words, and each argument
/// given, by its [`ArgSpec::name`], as text (a switch as an empty string).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCommand {
    /// The command's words: `attack`, `knight create`.
    pub name: String,
    /// The arguments given.
    pub args: Vec<(String, String)>,
}

impl GameCommand {
    /// An argument's text, if given.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether an argument (a switch) was given.
    pub fn has(&self, name: &str) -> bool {
        self.arg(name).is_some()
    }
}

impl Command {
    /// The command's words, as in the table: `roll`, `knight create`, `ransom pay`, `sweep`.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Own(own) => own.order().name(),
            Command::Roll { .. } => "roll",
            Command::Fight { .. } => "fight",
            Command::Fights { .. } => "fights",
            Command::Accept => "accept",
            Command::Decline => "decline",
            Command::Link { .. } => "link",
            Command::Unlink => "unlink",
            Command::Status => "status",
            Command::Help { .. } => "help",
            Command::Rules { .. } => "rules",
            Command::Odds { .. } => "odds",
            Command::Challenge { .. } => "challenge",
            Command::SetGame { .. } => "game",
            Command::Narration { .. } => "narration",
            Command::Sheet { .. } => "sheet",
            Command::Record { .. } => "record",
            Command::NpcCreate { .. } => "npc create",
            Command::NpcRetire { .. } => "npc retire",
            Command::As { .. } => "as",
            Command::Game(_) => "a game's command",
        }
    }

    /// The command's words as its table has them, a game's own included: `attack` for a
    /// [`Command::Game`] (whose [`Command::name`] is the placeholder "a game's command").
    pub fn words(&self) -> &str {
        match self {
            Command::Game(g) => &g.name,
            other => other.name(),
        }
    }

    /// The channel a command names to hold what it sets up there (`/tournament schedule ...
    /// --channel #c`), which the hub places in the realm's books; `None` for the rest.
    pub fn held_in_mut(&mut self) -> Option<&mut String> {
        match self {
            Command::Own(own) => own.0.held_in_mut(),
            _ => None,
        }
    }

    /// Whether the command schedules what channels load from the books (a tournament), after
    /// which the hub has them load it anew.
    pub fn schedules(&self) -> bool {
        matches!(self, Command::Own(own) if own.order().schedules())
    }

    /// The command's table entry.
    pub fn spec(&self) -> Option<&'static CommandSpec> {
        table::spec_named(self.name())
    }

    /// Who may use this command.
    pub fn access(&self) -> Access {
        self.spec().map_or(Access::Everyone, |s| s.access)
    }
}
