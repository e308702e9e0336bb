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
use herald_engine::psiknight::knight::UnknownName;
use herald_engine::psiknight::{BonusMode, Decision, Monarch, NewKnight, PsiSkill, Skill, Style};
use serde::{Deserialize, Serialize};
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

/// The choices of `/knight create`, ready for the engine's [`NewKnight::create`], which checks
/// the creation rules (R3); the grammar has checked only that each word names something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateKnight {
    /// The name as typed (quotes removed).
    pub name: String,
    /// The fighting skills that start at 40, in the order given.
    pub top: Vec<Skill>,
    /// The psi skills with their percentiles, in the order given.
    pub psi: Vec<(PsiSkill, u32)>,
    /// The monarch, named by name or kingdom.
    pub monarch: Monarch,
    /// Dame with `--dame`, else Sir.
    pub style: Style,
}

impl CreateKnight {
    /// The engine's form of these choices.
    pub fn to_new_knight(&self) -> NewKnight {
        self.clone().into()
    }
}

impl From<CreateKnight> for NewKnight {
    fn from(k: CreateKnight) -> Self {
        NewKnight {
            name: k.name,
            top: k.top,
            psi: k.psi,
            monarch: k.monarch,
            style: k.style,
        }
    }
}

/// A fighting skill or a psi skill: what `/spend` raises (R30 prices both alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnySkill {
    /// One of the six fighting skills.
    Fighting(Skill),
    /// One of the seven psi skills.
    Psi(PsiSkill),
}

impl AnySkill {
    /// The lower-case name used in commands.
    pub fn name(self) -> &'static str {
        match self {
            AnySkill::Fighting(s) => s.name(),
            AnySkill::Psi(s) => s.name(),
        }
    }
}

impl fmt::Display for AnySkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnySkill::Fighting(s) => s.fmt(f),
            AnySkill::Psi(s) => s.fmt(f),
        }
    }
}

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

/// Which points `/standings` ranks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Honor Points (the default).
    #[default]
    Hp,
    /// Prestige Points.
    Pp,
}

/// `/hostility declare` or `/hostility end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostilityAction {
    /// Begin a state of hostility (R33).
    Declare,
    /// Assent to ending it; it ends when both have (R33).
    End,
}

/// The settings of `/tournament schedule`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// The tournament's name.
    pub name: String,
    /// When the Lists begin.
    pub when: When,
    /// The host: a monarch or a noble sponsor, as typed.
    pub host: Option<String>,
    /// The channel it is held in, as typed (`#lists` or a Discord `<#id>`); `None` for this one.
    pub channel: Option<String>,
    /// A Melee follows the Lists (R37).
    pub melee: bool,
    /// Each knight may remount once in the Melee (R37).
    pub remount: bool,
    /// The Melee's time limit in minutes.
    pub melee_minutes: Option<u32>,
    /// Schedule even if the month already has a tournament (R38); the override is logged.
    pub force: bool,
}

/// Everything a player, moderator or admin can ask of Herald. Plain data: the session decides
/// what it means now (`/accept` answers a challenge, an allegiance offer or a melee pass).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// `/knight create`: create your knight (R3).
    CreateKnight(CreateKnight),
    /// `/knight [NAME]`: show a sheet; `None` is your own.
    Knight {
        /// The knight to show.
        name: Option<String>,
    },
    /// `/honor [NAME]`: Honor and Prestige; `None` is your own.
    Honor {
        /// The knight to show.
        name: Option<String>,
    },
    /// `/roll EXPR`: roll dice; the expression is parsed by the engine's notation module.
    Roll {
        /// The rest of the line, trimmed.
        expr: String,
    },
    /// `/ledger [NAME] [--month YYYY-MM] [--page N]`: the entries of the books, newest first.
    Ledger {
        /// The knight; `None` is your own.
        name: Option<String>,
        /// Only this month's entries.
        month: Option<YearMonth>,
        /// Which page of 30 entries, newest first; `None` is the first.
        page: Option<u32>,
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
    /// `/standings [hp|pp]`: the realm's knights ranked.
    Standings {
        /// What to rank by.
        by: Standing,
    },
    /// `/spend SKILL`: raise a skill by one step (R30).
    Spend {
        /// The skill to raise.
        skill: AnySkill,
    },
    /// `/land`: buy a grant of lands from your monarch (R31).
    Land,
    /// `/grant KNIGHT`: as a noble, grant lands to a knight who becomes your vassal (R31).
    Grant {
        /// The knight to receive lands.
        knight: String,
    },
    /// `/advance`: ask for the next noble title (R32).
    Advance,
    /// `/swear KNIGHT`: swear allegiance to a lord, or accept a knight's oath.
    Swear {
        /// The other party.
        knight: String,
    },
    /// `/release KNIGHT`: release a vassal by mutual consent.
    Release {
        /// The vassal or lord.
        knight: String,
    },
    /// `/renounce KNIGHT`: break allegiance (R33).
    Renounce {
        /// The lord or vassal.
        knight: String,
    },
    /// `/hostility declare|end KNIGHT` (R33).
    Hostility {
        /// Declare or end.
        action: HostilityAction,
        /// The other party.
        knight: String,
    },
    /// `/ransom demand KNIGHT [PP]`: name a captive's ransom; `None` is the customary one.
    RansomDemand {
        /// The captive.
        knight: String,
        /// The ransom asked.
        pp: Option<HalfPoints>,
    },
    /// `/ransom free KNIGHT`: free a captive without ransom.
    RansomFree {
        /// The captive.
        knight: String,
    },
    /// `/ransom kill KNIGHT`: kill a captive of a fight under hostility.
    RansomKill {
        /// The captive.
        knight: String,
    },
    /// `/ransom pay KNIGHT PP`: pay all or part of a captive's ransom.
    RansomPay {
        /// The captive.
        knight: String,
        /// The Prestige paid.
        pp: HalfPoints,
    },
    /// `/admin award KNIGHT HP REASON...`: a ledger entry by hand.
    AdminAward {
        /// The knight.
        knight: String,
        /// Honor awarded; negative to take away.
        hp: HalfPoints,
        /// Why, for the ledger.
        reason: String,
    },
    /// `/admin revoke ENTRY_ID`: reverse a ledger entry.
    AdminRevoke {
        /// The entry's number.
        entry: u64,
    },
    /// `/admin rename KNIGHT NEW_NAME`.
    AdminRename {
        /// The knight.
        knight: String,
        /// The new name.
        new_name: String,
    },
    /// `/admin retire KNIGHT`: retire a knight from the realm.
    AdminRetire {
        /// The knight.
        knight: String,
    },
    /// `/joust TARGET`: challenge a knight to a practice fight.
    Joust {
        /// A nick, `@nick`, a Discord mention `<@123>` or a knight name, as typed; the session
        /// resolves it.
        target: String,
    },
    /// `/accept`: accept a challenge, an allegiance offer or a melee pass.
    Accept,
    /// `/decline`: decline a challenge, or decline Swordplay after a practice Joust (R41).
    Decline,
    /// `/confirm`: go ahead with the act that cannot be undone the speaker was just asked to
    /// confirm (oathbreaking, `/ransom kill`), within 60 s of the asking (R180).
    Confirm,
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
    /// A fighter's decision: the checklist moves, `/bonus` and `/psi`.
    Decide(Decision),
    /// `/tournament`: show this month's tournament.
    Tournament,
    /// `/tournament schedule ...`.
    TournamentSchedule(Schedule),
    /// `/tournament start [TOURNAMENT]`.
    TournamentStart {
        /// Which tournament, by number or name; the one scheduled here when left out.
        which: Option<String>,
    },
    /// `/tournament cancel [TOURNAMENT]`.
    TournamentCancel {
        /// Which tournament, by number or name; the only one scheduled when left out.
        which: Option<String>,
    },
    /// `/melee prize KNIGHT`: name the Melee's first prize (R37).
    MeleePrize {
        /// The knight.
        knight: String,
    },
    /// `/enter [TOURNAMENT]`: enter a tournament.
    Enter {
        /// Which tournament, by number or name; the next one scheduled when left out.
        which: Option<String>,
    },
    /// `/withdraw [TOURNAMENT]`: withdraw from a tournament.
    Withdraw {
        /// Which tournament, by number or name; the one entered when left out.
        which: Option<String>,
    },
    /// `/bracket`: the Lists so far.
    Bracket,
    /// `/melee join SIDE` (R37).
    MeleeJoin {
        /// The side's name, as the moderator gave it.
        side: String,
    },
    /// `/pass KNIGHT`: offer a melee pass to a knight of the other side (R37).
    Pass {
        /// The knight offered the pass.
        knight: String,
    },
    /// `/melee open SIDE SIDE`: a moderator opens the Melee with its two sides (R37, R133).
    MeleeOpen {
        /// The first side's name.
        first: String,
        /// The second side's name.
        second: String,
    },
    /// `/melee start`: the muster is over and passes may be offered (R133).
    MeleeStart,
    /// `/melee time`: a moderator calls time before the limit (R135).
    MeleeTime,
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
            Command::CreateKnight(_) => "knight create",
            Command::Knight { .. } => "knight",
            Command::Honor { .. } => "honor",
            Command::Roll { .. } => "roll",
            Command::Ledger { .. } => "ledger",
            Command::Standings { .. } => "standings",
            Command::Fight { .. } => "fight",
            Command::Fights { .. } => "fights",
            Command::Spend { .. } => "spend",
            Command::Land => "land",
            Command::Grant { .. } => "grant",
            Command::Advance => "advance",
            Command::Swear { .. } => "swear",
            Command::Release { .. } => "release",
            Command::Renounce { .. } => "renounce",
            Command::Hostility { .. } => "hostility",
            Command::RansomDemand { .. } => "ransom demand",
            Command::RansomFree { .. } => "ransom free",
            Command::RansomKill { .. } => "ransom kill",
            Command::RansomPay { .. } => "ransom pay",
            Command::AdminAward { .. } => "admin award",
            Command::AdminRevoke { .. } => "admin revoke",
            Command::AdminRename { .. } => "admin rename",
            Command::AdminRetire { .. } => "admin retire",
            Command::Joust { .. } => "joust",
            Command::Accept => "accept",
            Command::Decline => "decline",
            Command::Confirm => "confirm",
            Command::Link { .. } => "link",
            Command::Unlink => "unlink",
            Command::Status => "status",
            Command::Help { .. } => "help",
            Command::Rules { .. } => "rules",
            Command::Odds { .. } => "odds",
            Command::Decide(d) => d.word(),
            Command::Tournament => "tournament",
            Command::TournamentSchedule(_) => "tournament schedule",
            Command::TournamentStart { .. } => "tournament start",
            Command::TournamentCancel { .. } => "tournament cancel",
            Command::MeleePrize { .. } => "melee prize",
            Command::Enter { .. } => "enter",
            Command::Withdraw { .. } => "withdraw",
            Command::Bracket => "bracket",
            Command::MeleeJoin { .. } => "melee join",
            Command::Pass { .. } => "pass",
            Command::MeleeOpen { .. } => "melee open",
            Command::MeleeStart => "melee start",
            Command::MeleeTime => "melee time",
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

    /// The channel a command names to hold what it sets up there (`/tournament schedule ...
    /// --channel #c`), which the hub places in the realm's books; `None` for the rest.
    pub fn held_in_mut(&mut self) -> Option<&mut String> {
        match self {
            Command::TournamentSchedule(s) => s.channel.as_mut(),
            _ => None,
        }
    }

    /// Whether the command schedules what channels load from the books (a tournament), after
    /// which the hub has them load it anew.
    pub fn schedules(&self) -> bool {
        matches!(self, Command::TournamentSchedule(_))
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
