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

// ---------------------------------------------------------------------------------------------
// The values commands carry
// ---------------------------------------------------------------------------------------------

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
        if abs % 2 == 0 {
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
    /// `/status`: what is going on in this channel, and who must decide.
    Status,
    /// `/help [COMMAND]`.
    Help {
        /// The command asked about, canonical (`roll` for `rol`, `knight create`).
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
            Command::Status => "status",
            Command::Help { .. } => "help",
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

    /// The command's table entry.
    pub fn spec(&self) -> Option<&'static CommandSpec> {
        find_spec(self.name())
    }

    /// Who may use this command.
    pub fn access(&self) -> Access {
        self.spec().map_or(Access::Everyone, |s| s.access)
    }
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

/// Who may use a command. The session enforces it, and says why when it refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Anyone in the channel (acting for their own knight where a knight is involved).
    Everyone,
    /// A player whose knight is in this channel's fight, pending or under way.
    Fighter,
    /// Moderators: they run tournaments.
    Moderator,
    /// Admins: they edit the books.
    Admin,
}

impl Access {
    /// A note for `/help`: "" for everyone, else who.
    fn note(self) -> &'static str {
        match self {
            Access::Everyone => "",
            Access::Fighter => " (fighters)",
            Access::Moderator => " (moderators)",
            Access::Admin => " (admins)",
        }
    }
}

/// The headings under which `/help` lists commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Knights, Honor, land, allegiance and ransom.
    Knights,
    /// Challenges and the state of a fight.
    Fights,
    /// A fighter's moves.
    Decisions,
    /// Tournaments and the Melee.
    Tournaments,
    /// Editing the books.
    Admin,
}

impl Group {
    /// All groups, in `/help` order.
    pub const ALL: [Group; 5] = [
        Group::Knights,
        Group::Fights,
        Group::Decisions,
        Group::Tournaments,
        Group::Admin,
    ];

    /// The heading.
    pub fn title(self) -> &'static str {
        match self {
            Group::Knights => "Knights and books",
            Group::Fights => "Fights",
            Group::Decisions => "Decisions",
            Group::Tournaments => "Tournaments",
            Group::Admin => "Admin",
        }
    }
}

/// The fighting skills' command words, in the engine's order.
pub const SKILL_WORDS: &[&str] = &["lance", "ride", "observe", "shield", "dodge", "sword"];
/// The psi skills' command words, in the engine's order.
pub const PSI_WORDS: &[&str] = &[
    "apportation",
    "cpk",
    "hypercognition",
    "mesmerism",
    "telepathy",
    "catapsi",
    "negapsi",
];
/// Fighting then psi skills: what `/spend` accepts.
pub const ANY_SKILL_WORDS: &[&str] = &[
    "lance",
    "ride",
    "observe",
    "shield",
    "dodge",
    "sword",
    "apportation",
    "cpk",
    "hypercognition",
    "mesmerism",
    "telepathy",
    "catapsi",
    "negapsi",
];
/// The psi skills and `off`: what `/psi` accepts.
pub const PSI_OR_OFF_WORDS: &[&str] = &[
    "apportation",
    "cpk",
    "hypercognition",
    "mesmerism",
    "telepathy",
    "catapsi",
    "negapsi",
    "off",
];
/// The monarchs by name (their kingdoms are accepted too).
pub const MONARCH_WORDS: &[&str] = &["llewellyn", "ragnar", "seonaid"];
/// The Bonus modes (R5).
pub const BONUS_WORDS: &[&str] = &["attack", "defend", "weaken"];

const ANY_SKILL_EXPECTED: &str = "lance, ride, observe, shield, dodge, sword, apportation, cpk, \
     hypercognition, mesmerism, telepathy, catapsi, negapsi";
const PSI_OR_OFF_EXPECTED: &str =
    "apportation, cpk, hypercognition, mesmerism, telepathy, catapsi, negapsi, off";

/// What kind of value an argument takes. Rich enough for a Discord option: its type, its
/// choices ([`ArgKind::choices`]) and its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// Free text (a tournament or side name, a host, a channel).
    Text,
    /// A knight's name.
    Knight,
    /// Whom to challenge: a nick, `@nick`, a Discord mention or a knight's name.
    Target,
    /// Comma-separated fighting skills: `lance,ride,shield`.
    Skills,
    /// Comma-separated psi skills with points: `cpk:20,negapsi:20`.
    PsiPoints,
    /// A monarch by name or kingdom.
    Monarch,
    /// A fighting or a psi skill.
    AnySkill,
    /// A psi skill, or `off`.
    PsiOrOff,
    /// A Bonus mode.
    BonusMode,
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
    /// A whole number in a range.
    Number {
        /// The least accepted.
        min: u32,
        /// The most accepted.
        max: u32,
    },
    /// Points above zero, whole or half: `2`, `2.5`.
    Points,
    /// Points, possibly negative: `-1.5`.
    SignedPoints,
    /// A ledger entry number: `42` or `#42`.
    EntryId,
    /// A month, `YYYY-MM`.
    Month,
    /// A moment: `2026-12-05T18:00:00Z`, `2026-12-05T18:00`, or `in 2h`.
    When,
    /// A dice expression: the rest of the line.
    Dice,
    /// Free text to the end of the line.
    Reason,
    /// A command word, for `/help`.
    Topic,
    /// An option without a value: `--dame`.
    Switch,
}

impl ArgKind {
    /// The fixed choices, for a Discord option or a help line; empty when the value is free.
    pub fn choices(self) -> &'static [&'static str] {
        match self {
            ArgKind::Monarch => MONARCH_WORDS,
            ArgKind::AnySkill => ANY_SKILL_WORDS,
            ArgKind::PsiOrOff => PSI_OR_OFF_WORDS,
            ArgKind::BonusMode => BONUS_WORDS,
            ArgKind::Choice(words) => words,
            _ => &[],
        }
    }

    /// Takes the rest of the line as it stands, options and quotes included.
    pub fn is_rest_of_line(self) -> bool {
        matches!(self, ArgKind::Dice | ArgKind::Reason)
    }
}

/// One argument of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgSpec {
    /// An identifier, lower-case, unique in its command: a Discord option name.
    pub name: &'static str,
    /// As written in the usage line: `KNIGHT`, or the option itself, `--top`.
    pub label: &'static str,
    /// The kind of value.
    pub kind: ArgKind,
    /// Must be given.
    pub required: bool,
    /// The last positional argument, which may be several unquoted words.
    pub greedy: bool,
    /// `Some("--top")` for an option, `None` for a positional argument.
    pub flag: Option<&'static str>,
    /// A short description (a Discord option description, at most 100 characters).
    pub about: &'static str,
    /// An example, as typed: `--top lance,ride,shield`, `"Sir Alan"`.
    pub example: &'static str,
}

impl ArgSpec {
    /// A required positional argument.
    pub const fn pos(
        name: &'static str,
        label: &'static str,
        kind: ArgKind,
        about: &'static str,
        example: &'static str,
    ) -> Self {
        ArgSpec {
            name,
            label,
            kind,
            required: true,
            greedy: false,
            flag: None,
            about,
            example,
        }
    }

    /// An optional `--flag`.
    pub const fn flag(
        flag: &'static str,
        name: &'static str,
        kind: ArgKind,
        about: &'static str,
        example: &'static str,
    ) -> Self {
        ArgSpec {
            name,
            label: flag,
            kind,
            required: false,
            greedy: false,
            flag: Some(flag),
            about,
            example,
        }
    }

    /// The positional argument may be left out.
    pub const fn optional(mut self) -> Self {
        self.required = false;
        self
    }

    /// The option must be given.
    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// The positional argument takes the words that follow, until an option.
    pub const fn greedy(mut self) -> Self {
        self.greedy = true;
        self
    }
}

/// Turns the arguments read for an entry into its [`Command`].
type Build = fn(&Values) -> Result<Command, ParseErrorKind>;

/// One command of the table.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The command's words: `["roll"]`, `["knight", "create"]`.
    pub path: &'static [&'static str],
    /// Other spellings of the whole path: `rol` for `roll`.
    pub aliases: &'static [&'static str],
    /// The usage line, with `/`; rendered with the prefix the player used.
    pub usage: &'static str,
    /// One sentence for `/help`.
    pub summary: &'static str,
    /// A complete example line, with `/`.
    pub example: &'static str,
    /// The arguments: positional ones in order, then options.
    pub args: &'static [ArgSpec],
    /// Who may use it.
    pub access: Access,
    /// Its `/help` heading.
    pub group: Group,
    build: Build,
}

impl CommandSpec {
    /// An entry of a game's own table: it reads into a [`Command::Game`] with its words and
    /// arguments, which the game's folder then interprets.
    pub const fn game(
        path: &'static [&'static str],
        usage: &'static str,
        summary: &'static str,
        example: &'static str,
        args: &'static [ArgSpec],
        group: Group,
    ) -> CommandSpec {
        CommandSpec {
            path,
            aliases: &[],
            usage,
            summary,
            example,
            args,
            access: Access::Everyone,
            group,
            build: |v| Ok(Command::Game(v.game_command())),
        }
    }

    /// The same entry with other arguments (the options two tables' entries of the same words
    /// share, for Discord's registration).
    pub fn with_args(&self, args: &'static [ArgSpec]) -> CommandSpec {
        CommandSpec { args, ..*self }
    }

    /// The words joined: `knight create`.
    pub fn name(&self) -> String {
        self.path.join(" ")
    }

    fn is(&self, phrase: &str) -> bool {
        let mut words = phrase.split(' ');
        (self.path.iter().all(|p| words.next() == Some(*p)) && words.next().is_none())
            || self.aliases.contains(&phrase)
    }

    fn first_word(&self) -> &'static str {
        self.path.first().copied().unwrap_or("")
    }

    fn positionals(&self) -> impl Iterator<Item = &'static ArgSpec> {
        self.args.iter().filter(|a| a.flag.is_none())
    }
}

const KNIGHT: ArgSpec = ArgSpec::pos(
    "knight",
    "KNIGHT",
    ArgKind::Knight,
    "the knight",
    "\"Sir Alan\"",
)
.greedy();
const OPT_NAME: ArgSpec = ArgSpec::pos(
    "name",
    "NAME",
    ArgKind::Knight,
    "the knight; yours when left out",
    "Alan",
)
.optional()
.greedy();
/// A tournament, by number (`2`, `#2`) or name, when more than one is scheduled.
const WHICH: ArgSpec = ArgSpec::pos(
    "which",
    "TOURNAMENT",
    ArgKind::Text,
    "the tournament, by number or name",
    "\"Yule Lists\"",
)
.optional()
.greedy();

/// A decision command without arguments.
macro_rules! decision {
    ($word:literal, $decision:expr, $summary:literal) => {
        CommandSpec {
            path: &[$word],
            aliases: &[],
            usage: concat!("/", $word),
            summary: $summary,
            example: concat!("/", $word),
            args: &[],
            access: Access::Fighter,
            group: Group::Decisions,
            build: |_| Ok(Command::Decide($decision)),
        }
    };
}

/// `/help [COMMAND]` in a channel of a game on the seam: its own commands and the common ones.
pub const GAME_HELP: CommandSpec = CommandSpec::game(
    &["help"],
    "/help [COMMAND]",
    "List this channel's game's commands, or show how to use one.",
    "/help attack",
    &[
        ArgSpec::pos("command", "COMMAND", ArgKind::Text, "a command", "attack")
            .optional()
            .greedy(),
    ],
    Group::Fights,
);

/// Every command Herald understands.
pub const COMMANDS: &[CommandSpec] = &[
    // Knights and books
    CommandSpec {
        path: &["knight", "create"],
        aliases: &[],
        usage: "/knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N[,SKILL:N...] --monarch MONARCH [--dame]",
        summary: "Create your knight: three skills at 40, 40 psi points, a monarch.",
        example: "/knight create \"Alan the Bold\" --top lance,ride,shield --psi cpk:20,negapsi:20 --monarch ragnar",
        args: &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your knight's name", "\"Alan the Bold\"")
                .greedy(),
            ArgSpec::flag("--top", "top", ArgKind::Skills, "the three fighting skills that start at 40", "--top lance,ride,shield")
                .required(),
            ArgSpec::flag("--psi", "psi", ArgKind::PsiPoints, "psi skills with points adding up to 40", "--psi cpk:20,negapsi:20")
                .required(),
            ArgSpec::flag("--monarch", "monarch", ArgKind::Monarch, "your monarch, by name or kingdom", "--monarch ragnar")
                .required(),
            ArgSpec::flag("--dame", "dame", ArgKind::Switch, "styled Dame rather than Sir", "--dame"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::CreateKnight(CreateKnight {
                name: v.req("name")?,
                top: v.req("top")?,
                psi: v.req("psi")?,
                monarch: v.req("monarch")?,
                style: if v.has("dame") { Style::Dame } else { Style::Sir },
            }))
        },
    },
    CommandSpec {
        path: &["knight"],
        aliases: &[],
        usage: "/knight [NAME]",
        summary: "Show a knight's sheet, yours when no name is given.",
        example: "/knight Alan",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Knight { name: v.opt("name")? }),
    },
    CommandSpec {
        path: &["honor"],
        aliases: &["honour"],
        usage: "/honor [NAME]",
        summary: "Show a knight's Honor and Prestige, yours when no name is given.",
        example: "/honor Alan",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Honor { name: v.opt("name")? }),
    },
    CommandSpec {
        path: &["roll"],
        aliases: &["rol"],
        usage: "/roll EXPR",
        summary: "Roll dice, such as 1d100 or 4d6kh3.",
        example: "/roll 1d100",
        args: &[ArgSpec::pos("expr", "EXPR", ArgKind::Dice, "a dice expression", "1d100")],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Roll { expr: v.req("expr")? }),
    },
    CommandSpec {
        path: &["ledger"],
        aliases: &[],
        usage: "/ledger [NAME] [--month YYYY-MM] [--page N]",
        summary: "Show the entries of a knight's books, yours when no name is given, newest first, 30 a page.",
        example: "/ledger Alan --month 2026-12 --page 2",
        args: &[
            OPT_NAME,
            ArgSpec::flag("--month", "month", ArgKind::Month, "only this month", "--month 2026-12"),
            ArgSpec::flag("--page", "page", ArgKind::Number { min: 1, max: 1_000_000 }, "which page of 30 entries, newest first", "--page 2"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::Ledger {
                name: v.opt("name")?,
                month: v.opt("month")?,
                page: v.opt("page")?,
            })
        },
    },
    CommandSpec {
        path: &["fight"],
        aliases: &[],
        usage: "/fight N",
        summary: "Sum up a fight of the books: who, when, what kind, the result, the awards and the seed.",
        example: "/fight 12",
        args: &[ArgSpec::pos("id", "N", ArgKind::Number { min: 1, max: 1_000_000_000 }, "the fight's number", "12")],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Fight { id: v.req("id")? }),
    },
    CommandSpec {
        path: &["fights"],
        aliases: &[],
        usage: "/fights [NAME] [--page N]",
        summary: "List a knight's fights, yours when no name is given, newest first, 10 a page.",
        example: "/fights Alan --page 2",
        args: &[
            OPT_NAME,
            ArgSpec::flag("--page", "page", ArgKind::Number { min: 1, max: 1_000_000 }, "which page of 10 fights, newest first", "--page 2"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::Fights {
                name: v.opt("name")?,
                page: v.opt("page")?,
            })
        },
    },
    CommandSpec {
        path: &["standings"],
        aliases: &[],
        usage: "/standings [hp|pp]",
        summary: "Rank the realm's knights by Honor or by Prestige.",
        example: "/standings pp",
        args: &[ArgSpec::pos("by", "hp|pp", ArgKind::Choice(&["hp", "pp"]), "rank by Honor or Prestige", "pp")
            .optional()],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            let by = match v.opt::<&'static str>("by")? {
                Some("pp") => Standing::Pp,
                _ => Standing::Hp,
            };
            Ok(Command::Standings { by })
        },
    },
    CommandSpec {
        path: &["spend"],
        aliases: &[],
        usage: "/spend SKILL",
        summary: "Spend Honor to raise a fighting or psi skill by 10.",
        example: "/spend lance",
        args: &[ArgSpec::pos("skill", "SKILL", ArgKind::AnySkill, "the skill to raise", "lance")],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Spend { skill: v.req("skill")? }),
    },
    CommandSpec {
        path: &["land"],
        aliases: &[],
        usage: "/land",
        summary: "Buy a grant of lands from your monarch for 12 Honor.",
        example: "/land",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(Command::Land),
    },
    CommandSpec {
        path: &["grant"],
        aliases: &[],
        usage: "/grant KNIGHT",
        summary: "As a noble, offer lands to a knight, who becomes your vassal on accepting.",
        example: "/grant Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Grant { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["advance"],
        aliases: &[],
        usage: "/advance",
        summary: "Ask your monarch for the next noble title.",
        example: "/advance",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(Command::Advance),
    },
    CommandSpec {
        path: &["swear"],
        aliases: &[],
        usage: "/swear KNIGHT",
        summary: "Swear allegiance to a lord, or accept a knight's oath.",
        example: "/swear Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Swear { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["release"],
        aliases: &[],
        usage: "/release KNIGHT",
        summary: "End an allegiance by mutual consent.",
        example: "/release Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Release { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["renounce"],
        aliases: &[],
        usage: "/renounce KNIGHT",
        summary: "Break an allegiance, with the penalties the rules name.",
        example: "/renounce Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Renounce { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["hostility"],
        aliases: &[],
        usage: "/hostility declare|end KNIGHT",
        summary: "Declare hostility, or agree to end it.",
        example: "/hostility declare Alan",
        args: &[
            ArgSpec::pos("action", "declare|end", ArgKind::Choice(&["declare", "end"]), "declare or end", "declare"),
            KNIGHT,
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            let action = match v.req::<&'static str>("action")? {
                "end" => HostilityAction::End,
                _ => HostilityAction::Declare,
            };
            Ok(Command::Hostility {
                action,
                knight: v.req("knight")?,
            })
        },
    },
    CommandSpec {
        path: &["ransom", "demand"],
        aliases: &[],
        usage: "/ransom demand KNIGHT [PP]",
        summary: "Name your captive's ransom, the customary one when no amount is given.",
        example: "/ransom demand Alan 2.5",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the captive", "Alan"),
            ArgSpec::pos("pp", "PP", ArgKind::Points, "the Prestige asked", "2.5").optional(),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::RansomDemand {
                knight: v.req("knight")?,
                pp: v.opt("pp")?,
            })
        },
    },
    CommandSpec {
        path: &["ransom", "free"],
        aliases: &[],
        usage: "/ransom free KNIGHT",
        summary: "Free your captive without ransom.",
        example: "/ransom free Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::RansomFree { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["ransom", "kill"],
        aliases: &[],
        usage: "/ransom kill KNIGHT",
        summary: "Kill your captive, if taken in a fight under hostility.",
        example: "/ransom kill Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::RansomKill { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["ransom", "pay"],
        aliases: &[],
        usage: "/ransom pay KNIGHT PP",
        summary: "Pay all or part of a captive's ransom from your Prestige.",
        example: "/ransom pay Alan 2.5",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the captive", "Alan"),
            ArgSpec::pos("pp", "PP", ArgKind::Points, "the Prestige paid", "2.5"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::RansomPay {
                knight: v.req("knight")?,
                pp: v.req("pp")?,
            })
        },
    },
    // Fights
    CommandSpec {
        path: &["joust"],
        aliases: &[],
        usage: "/joust TARGET",
        summary: "Challenge a knight to a practice fight.",
        example: "/joust @evan",
        args: &[ArgSpec::pos("target", "TARGET", ArgKind::Target, "a player or a knight", "@evan").greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| Ok(Command::Joust { target: v.req("target")? }),
    },
    CommandSpec {
        path: &["accept"],
        aliases: &[],
        usage: "/accept",
        summary: "Accept a challenge, an oath offered or a melee pass.",
        example: "/accept",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Accept),
    },
    CommandSpec {
        path: &["decline"],
        aliases: &[],
        usage: "/decline",
        summary: "Decline a challenge, or decline Swordplay after a practice Joust.",
        example: "/decline",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Decline),
    },
    CommandSpec {
        path: &["status"],
        aliases: &[],
        usage: "/status",
        summary: "Show what is under way in this channel and who must decide.",
        example: "/status",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Status),
    },
    CommandSpec {
        path: &["challenge"],
        aliases: &[],
        usage: "/challenge TARGET",
        summary: "Challenge a player or a character to a fight in this channel's game.",
        example: "/challenge @bo",
        args: &[ArgSpec::pos("target", "TARGET", ArgKind::Target, "a player or a character", "@bo").greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| Ok(Command::Challenge { target: v.req("target")? }),
    },
    CommandSpec {
        path: &["game"],
        aliases: &[],
        usage: "/game [GAME]",
        summary: "Say which game this channel plays; moderators change it by naming another.",
        example: "/game tourney",
        args: &[ArgSpec::pos("game", "GAME", ArgKind::Text, "a game's id: psiknight, tourney", "tourney").optional()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| Ok(Command::SetGame { game: v.opt("game")? }),
    },
    CommandSpec {
        path: &["narration"],
        aliases: &[],
        usage: "/narration [MODE]",
        summary: "Say how this channel's fights are told, compact or full; moderators switch it.",
        example: "/narration compact",
        args: &[ArgSpec::pos("mode", "MODE", ArgKind::Text, "compact (a step a line) or full (an event a line)", "compact").optional()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| Ok(Command::Narration { mode: v.opt("mode")? }),
    },
    CommandSpec {
        path: &["sheet"],
        aliases: &[],
        usage: "/sheet [NAME]",
        summary: "Show a character's sheet and state in this channel's game.",
        example: "/sheet Gimby",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Sheet { name: v.opt("name")? }),
    },
    CommandSpec {
        path: &["record"],
        aliases: &[],
        usage: "/record [NAME]",
        summary: "Show a character's wins, losses and draws in this channel's game.",
        example: "/record Gimby",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Record { name: v.opt("name")? }),
    },
    CommandSpec {
        path: &["npc", "create"],
        aliases: &[],
        usage: "/npc create NAME [OPTIONS]",
        summary: "Create a non-player character with this game's creation options, no budget.",
        example: "/npc create Drone-7 --strength 7",
        args: &[ArgSpec::pos("rest", "NAME [OPTIONS]", ArgKind::Reason, "the name and the game's options", "Drone-7 --strength 7")],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| Ok(Command::NpcCreate { rest: v.req("rest")? }),
    },
    CommandSpec {
        path: &["npc", "retire"],
        aliases: &[],
        usage: "/npc retire NAME",
        summary: "Remove a non-player character; its fights stay in the books.",
        example: "/npc retire Drone-7",
        args: &[ArgSpec::pos("name", "NAME", ArgKind::Knight, "the non-player character", "Drone-7").greedy()],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| Ok(Command::NpcRetire { name: v.req("name")? }),
    },
    CommandSpec {
        path: &["as"],
        aliases: &[],
        usage: "/as NAME COMMAND",
        summary: "Give a non-player character's decision instead of its default.",
        example: "/as Drone-7 /attack",
        args: &[
            ArgSpec::pos("name", "NAME", ArgKind::Knight, "the non-player character", "Drone-7"),
            ArgSpec::pos("command", "COMMAND", ArgKind::Reason, "the command, as typed", "/attack"),
        ],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| Ok(Command::As { name: v.req("name")?, command: v.req("command")? }),
    },
    CommandSpec {
        path: &["odds"],
        aliases: &[],
        usage: "/odds KNIGHT [KNIGHT]",
        summary: "Estimate the chances of a fight, against your own knight when one name is given.",
        example: "/odds Alan \"Brenna Dubh\"",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "a knight", "Alan"),
            ArgSpec::pos("other", "KNIGHT", ArgKind::Knight, "the other knight; yours when left out", "\"Brenna Dubh\"")
                .optional(),
        ],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::Odds {
                knight: v.req("knight")?,
                other: v.opt("other")?,
            })
        },
    },
    CommandSpec {
        path: &["help"],
        aliases: &[],
        usage: "/help [COMMAND]",
        summary: "List the commands, or show how to use one.",
        example: "/help roll",
        args: &[ArgSpec::pos("command", "COMMAND", ArgKind::Topic, "a command", "roll").optional().greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            let topic = match v.opt::<String>("command")? {
                Some(t) => Some(help_topic(&t)?),
                None => None,
            };
            Ok(Command::Help { topic })
        },
    },
    // Decisions
    decision!("sweep", Decision::Sweep, "Announce a sweep attack: +25 Lance, but the other strikes first."),
    decision!("nosweep", Decision::NoSweep, "Announce no sweep."),
    decision!("high", Decision::High, "Strike High: the defender rolls Shield."),
    decision!("low", Decision::Low, "Strike Low: the defender rolls Ride."),
    decision!("swordplay", Decision::Swordplay, "Agree to go on to Swordplay after a practice Joust."),
    decision!("attack", Decision::Attack, "Swordplay: attack with your Sword."),
    decision!("observe", Decision::Observe, "Swordplay: observe your opponent."),
    decision!("press", Decision::Press, "Swordplay: press the attack, Sword +25, but your next counter is Luck."),
    decision!("block", Decision::Block, "Counter with your Shield."),
    decision!("dodge", Decision::Dodge, "Counter with Dodge."),
    decision!("parry", Decision::Parry, "Counter with your Sword, -20."),
    decision!("yield", Decision::Yield, "Give up the match."),
    CommandSpec {
        path: &["bonus"],
        aliases: &[],
        usage: "/bonus attack|defend|weaken",
        summary: "Choose how your pending Bonus will be used.",
        example: "/bonus attack",
        args: &[ArgSpec::pos("mode", "attack|defend|weaken", ArgKind::BonusMode, "how the Bonus is used", "attack")],
        access: Access::Fighter,
        group: Group::Decisions,
        build: |v| Ok(Command::Decide(Decision::Bonus(v.req("mode")?))),
    },
    CommandSpec {
        path: &["psi"],
        aliases: &[],
        usage: "/psi SKILL|off",
        summary: "Arm a psi skill to fire at its next moment, or disarm it.",
        example: "/psi hypercognition",
        args: &[ArgSpec::pos("skill", "SKILL|off", ArgKind::PsiOrOff, "the psi skill to arm, or off", "hypercognition")],
        access: Access::Fighter,
        group: Group::Decisions,
        build: |v| Ok(Command::Decide(Decision::Psi(v.req("skill")?))),
    },
    // Tournaments
    CommandSpec {
        path: &["tournament"],
        aliases: &[],
        usage: "/tournament",
        summary: "Show this month's tournament.",
        example: "/tournament",
        args: &[],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |_| Ok(Command::Tournament),
    },
    CommandSpec {
        path: &["tournament", "schedule"],
        aliases: &[],
        usage: "/tournament schedule NAME WHEN [--host HOST] [--channel #CHANNEL] [--melee] [--remount] [--melee-minutes N] [--force]",
        summary: "Schedule a tournament; WHEN is 2026-12-05T18:00 (realm time), 2026-12-05T18:00Z or in 2h.",
        example: "/tournament schedule \"Yule Lists\" 2026-12-05T18:00 --host ragnar --melee",
        args: &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "the tournament's name", "\"Yule Lists\""),
            ArgSpec::pos("when", "WHEN", ArgKind::When, "when the Lists begin", "2026-12-05T18:00"),
            ArgSpec::flag("--host", "host", ArgKind::Text, "the hosting monarch or noble", "--host ragnar"),
            ArgSpec::flag("--channel", "channel", ArgKind::Text, "the channel it is held in", "--channel #lists"),
            ArgSpec::flag("--melee", "melee", ArgKind::Switch, "a Melee follows the Lists", "--melee"),
            ArgSpec::flag("--remount", "remount", ArgKind::Switch, "one remount per knight in the Melee", "--remount"),
            ArgSpec::flag("--melee-minutes", "melee_minutes", ArgKind::Number { min: 1, max: 1440 }, "the Melee's time limit", "--melee-minutes 30"),
            ArgSpec::flag("--force", "force", ArgKind::Switch, "schedule even if this month has one", "--force"),
        ],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| {
            Ok(Command::TournamentSchedule(Schedule {
                name: v.req("name")?,
                when: v.req("when")?,
                host: v.opt("host")?,
                channel: v.opt("channel")?,
                melee: v.has("melee"),
                remount: v.has("remount"),
                melee_minutes: v.opt("melee_minutes")?,
                force: v.has("force"),
            }))
        },
    },
    CommandSpec {
        path: &["tournament", "start"],
        aliases: &[],
        usage: "/tournament start [TOURNAMENT]",
        summary: "Start a tournament held here now: the next one, or the one named.",
        example: "/tournament start",
        args: &[WHICH],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(Command::TournamentStart { which: v.opt("which")? }),
    },
    CommandSpec {
        path: &["tournament", "cancel"],
        aliases: &[],
        usage: "/tournament cancel [TOURNAMENT]",
        summary: "Cancel a scheduled tournament; name it when more than one is.",
        example: "/tournament cancel \"Yule Lists\"",
        args: &[WHICH],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(Command::TournamentCancel { which: v.opt("which")? }),
    },
    CommandSpec {
        path: &["enter"],
        aliases: &[],
        usage: "/enter [TOURNAMENT]",
        summary: "Enter your knight in the next tournament, or the one named.",
        example: "/enter",
        args: &[WHICH],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(Command::Enter { which: v.opt("which")? }),
    },
    CommandSpec {
        path: &["withdraw"],
        aliases: &[],
        usage: "/withdraw [TOURNAMENT]",
        summary: "Withdraw your knight from the tournament entered, or the one named.",
        example: "/withdraw",
        args: &[WHICH],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(Command::Withdraw { which: v.opt("which")? }),
    },
    CommandSpec {
        path: &["bracket"],
        aliases: &[],
        usage: "/bracket",
        summary: "Show the Lists so far.",
        example: "/bracket",
        args: &[],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |_| Ok(Command::Bracket),
    },
    CommandSpec {
        path: &["melee", "open"],
        aliases: &[],
        usage: "/melee open SIDE SIDE",
        summary: "Open the Melee with its two sides, once the Lists are over.",
        example: "/melee open Ravens Wolves",
        args: &[
            ArgSpec::pos("first", "SIDE", ArgKind::Text, "the first side's name", "Ravens"),
            ArgSpec::pos("second", "SIDE", ArgKind::Text, "the second side's name", "Wolves"),
        ],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(Command::MeleeOpen { first: v.req("first")?, second: v.req("second")? }),
    },
    CommandSpec {
        path: &["melee", "start"],
        aliases: &[],
        usage: "/melee start",
        summary: "Start the Melee: the muster is over and the time limit runs.",
        example: "/melee start",
        args: &[],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |_| Ok(Command::MeleeStart),
    },
    CommandSpec {
        path: &["melee", "time"],
        aliases: &[],
        usage: "/melee time",
        summary: "Call time on the Melee before its limit.",
        example: "/melee time",
        args: &[],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |_| Ok(Command::MeleeTime),
    },
    CommandSpec {
        path: &["melee", "join"],
        aliases: &[],
        usage: "/melee join SIDE",
        summary: "Join a side of the Melee.",
        example: "/melee join Ravens",
        args: &[ArgSpec::pos("side", "SIDE", ArgKind::Text, "the side's name", "Ravens").greedy()],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(Command::MeleeJoin { side: v.req("side")? }),
    },
    CommandSpec {
        path: &["pass"],
        aliases: &[],
        usage: "/pass KNIGHT",
        summary: "Offer a Melee pass to a knight of the other side.",
        example: "/pass Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(Command::Pass { knight: v.req("knight")? }),
    },
    CommandSpec {
        path: &["melee", "prize"],
        aliases: &[],
        usage: "/melee prize KNIGHT",
        summary: "Name the knight who wins the Melee's first prize.",
        example: "/melee prize Alan",
        args: &[KNIGHT],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(Command::MeleePrize { knight: v.req("knight")? }),
    },
    // Admin
    CommandSpec {
        path: &["admin", "award"],
        aliases: &[],
        usage: "/admin award KNIGHT HP REASON...",
        summary: "Award Honor by hand, negative to take it away, with a reason for the ledger.",
        example: "/admin award Alan 1.5 won the Yule Melee",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the knight", "Alan"),
            ArgSpec::pos("hp", "HP", ArgKind::SignedPoints, "Honor, whole or half points", "-1.5"),
            ArgSpec::pos("reason", "REASON", ArgKind::Reason, "why, for the ledger", "won the Yule Melee"),
        ],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| {
            Ok(Command::AdminAward {
                knight: v.req("knight")?,
                hp: v.req("hp")?,
                reason: v.req("reason")?,
            })
        },
    },
    CommandSpec {
        path: &["admin", "revoke"],
        aliases: &[],
        usage: "/admin revoke ENTRY_ID",
        summary: "Reverse a ledger entry.",
        example: "/admin revoke 42",
        args: &[ArgSpec::pos("entry", "ENTRY_ID", ArgKind::EntryId, "the ledger entry's number", "42")],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| Ok(Command::AdminRevoke { entry: v.req("entry")? }),
    },
    CommandSpec {
        path: &["admin", "rename"],
        aliases: &[],
        usage: "/admin rename KNIGHT NEW_NAME",
        summary: "Rename a knight.",
        example: "/admin rename Alan \"Alan the Bold\"",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the knight", "Alan"),
            ArgSpec::pos("new_name", "NEW_NAME", ArgKind::Text, "the new name", "\"Alan the Bold\"").greedy(),
        ],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| {
            Ok(Command::AdminRename {
                knight: v.req("knight")?,
                new_name: v.req("new_name")?,
            })
        },
    },
    CommandSpec {
        path: &["admin", "retire"],
        aliases: &[],
        usage: "/admin retire KNIGHT",
        summary: "Retire a knight from the realm.",
        example: "/admin retire Alan",
        args: &[KNIGHT],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| Ok(Command::AdminRetire { knight: v.req("knight")? }),
    },
];

/// The table entry for a command's words or an alias (`roll`, `rol`, `knight create`),
/// case-insensitive.
pub fn find_spec(name: &str) -> Option<&'static CommandSpec> {
    let phrase = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    COMMANDS.iter().find(|s| s.is(&phrase))
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

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
    /// A skill, psi skill or monarch that does not exist: the engine's message.
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
    /// A psi skill without its points.
    #[error("write each psi skill with its points, such as cpk:20; '{word}' is not")]
    BadPsiPoints {
        /// The item.
        word: String,
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

fn did_you_mean(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(s) => format!("; did you mean '{s}'?"),
        None => String::new(),
    }
}

fn which_action(word: &Option<String>, expected: &str) -> String {
    match word {
        Some(w) => format!("'{w}' is not {expected}"),
        None => format!("say which: {expected}"),
    }
}

/// A bad command line: what was wrong, and the usage. Display is the one-line reply. Boxed,
/// so that a `Result` carrying it stays small.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", .0.message)]
pub struct ParseError(Box<ErrorDetail>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct ErrorDetail {
    kind: ParseErrorKind,
    command: Option<String>,
    usage: String,
    message: String,
}

/// Which usage an error shows.
#[derive(Clone, Copy)]
enum Context {
    /// A recognised command.
    Spec(&'static CommandSpec),
    /// A command word with sub-commands (`ransom`): all their usages.
    Group(&'static str),
    /// Nothing recognised: the usage of `/help`.
    Help,
}

impl Context {
    fn usage(self, prefix: char) -> String {
        match self {
            Context::Spec(spec) => with_prefix(spec.usage, prefix),
            Context::Group(word) => COMMANDS
                .iter()
                .filter(|s| s.first_word() == word)
                .map(|s| with_prefix(s.usage, prefix))
                .collect::<Vec<_>>()
                .join(" | "),
            Context::Help => format!("{prefix}help [COMMAND]"),
        }
    }

    fn command(self) -> Option<String> {
        match self {
            Context::Spec(spec) => Some(spec.name()),
            Context::Group(word) => Some(word.to_string()),
            Context::Help => None,
        }
    }
}

impl ParseError {
    /// `labelled`: the message starts with the command's words. Not for an unknown command,
    /// whose context is only the suggestion's usage.
    fn new(kind: ParseErrorKind, context: Context, prefix: char, labelled: bool) -> Self {
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
fn shown(word: &str) -> String {
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
fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn unknown_name(e: UnknownName) -> ParseErrorKind {
    ParseErrorKind::UnknownName(UnknownName {
        word: shown(&e.word),
        ..e
    })
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

/// One word of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    text: String,
    quoted: bool,
}

impl Token {
    /// The option's name if this is one (`--top`, `--top=x`, `—top`): the part before any `=`,
    /// lower-case with `--`, and the inline value.
    fn as_option(&self) -> Option<(String, Option<String>)> {
        if self.quoted {
            return None;
        }
        let body = self
            .text
            .strip_prefix("--")
            .or_else(|| self.text.strip_prefix('—'))
            .or_else(|| self.text.strip_prefix('–'))?;
        if !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        Some((format!("--{}", name.to_lowercase()), value))
    }
}

fn opens_quote(c: char) -> bool {
    matches!(c, '"' | '“')
}

fn closes_quote(c: char) -> bool {
    matches!(c, '"' | '”')
}

/// Reads a line one word at a time, so that a rest-of-line argument can take the text as it
/// stands.
#[derive(Clone, Copy, Debug)]
struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }

    fn remaining(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn skip_spaces(&mut self) {
        let rest = self.remaining();
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
    }

    /// The rest of the line, trimmed, consuming it.
    fn take_rest(&mut self) -> &'a str {
        let rest = self.remaining().trim();
        self.pos = self.src.len();
        rest
    }

    fn next_token(&mut self) -> Result<Option<Token>, ParseErrorKind> {
        self.skip_spaces();
        let rest = self.remaining();
        let mut chars = rest.char_indices();
        let Some((_, first)) = chars.next() else {
            return Ok(None);
        };
        if opens_quote(first) {
            let mut text = String::new();
            let mut escaped = false;
            for (i, c) in chars {
                if escaped {
                    if !(opens_quote(c) || closes_quote(c) || c == '\\') {
                        text.push('\\');
                    }
                    text.push(c);
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if closes_quote(c) {
                    self.pos += i + c.len_utf8();
                    if self.remaining().starts_with(|n: char| !n.is_whitespace()) {
                        return Err(ParseErrorKind::QuoteJoined);
                    }
                    return Ok(Some(Token { text, quoted: true }));
                } else {
                    text.push(c);
                }
            }
            self.pos = self.src.len();
            return Err(ParseErrorKind::UnterminatedQuote);
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.pos += end;
        Ok(Some(Token {
            text: rest.get(..end).unwrap_or("").to_string(),
            quoted: false,
        }))
    }

    /// The next word without consuming it; errors read as no word.
    fn peek(&self) -> Option<Token> {
        let mut probe = *self;
        probe.next_token().ok().flatten()
    }
}

/// Writes a value so that it reads back as one argument: bare when it is one plain word, else
/// in double quotes with `"` and `\` escaped. For adapters that build a line from structured
/// input (a Discord option).
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && !value.chars().any(|c| {
            c.is_whitespace()
                || opens_quote(c)
                || closes_quote(c)
                || c == '\\'
                || c == '—'
                || c == '–'
        })
        && !value.starts_with('-');
    if plain {
        return value.to_string();
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        if opens_quote(c) || closes_quote(c) || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Reads a line. `None`: not a command (ordinary chat). `Some(Ok)`: a command.
/// `Some(Err)`: a command that is wrong, with a one-line reply that gives the usage.
///
/// A line is a command when, after leading spaces, it starts with one of `prefixes` followed by
/// a letter ([`DEFAULT_PREFIXES`] are `/` and `!`). Never panics, whatever the input.
pub fn parse(line: &str, prefixes: &[char]) -> Option<Result<Command, ParseError>> {
    let line = line.trim();
    let mut chars = line.chars();
    let prefix = chars.next()?;
    if !prefixes.contains(&prefix) || !chars.next().is_some_and(char::is_alphabetic) {
        return None;
    }
    let body = line.get(prefix.len_utf8()..)?;
    Some(parse_body(line, body, prefix))
}

/// Reads a line in a channel whose game has its own table: an entry of `table` first (its
/// words may be the core's too: a game's `/attack` is not PsiKnight's), else the core table, as
/// [`parse`].
pub fn parse_in(
    line: &str,
    prefixes: &[char],
    table: &'static [CommandSpec],
) -> Option<Result<Command, ParseError>> {
    let trimmed = line.trim();
    let mut chars = trimmed.chars();
    let prefix = chars.next()?;
    if !prefixes.contains(&prefix) || !chars.next().is_some_and(char::is_alphabetic) {
        return None;
    }
    let body = trimmed.get(prefix.len_utf8()..)?;
    if trimmed.chars().nth(MAX_LINE_CHARS).is_none() {
        let mut lexer = Lexer::new(body);
        if let Some(spec) = lookup_in(&mut lexer, table) {
            return Some(
                read_args(spec, &mut lexer)
                    .map_err(|kind| ParseError::new(kind, Context::Spec(spec), prefix, true)),
            );
        }
    }
    parse(line, prefixes)
}

/// The entry of `table` named by the line's first one or two words, consuming them.
fn lookup_in(lexer: &mut Lexer<'_>, table: &'static [CommandSpec]) -> Option<&'static CommandSpec> {
    let mut ahead = *lexer;
    let w1 = ahead.next_token().ok()??.text.to_lowercase();
    let w2 = ahead
        .peek()
        .filter(|t| !t.quoted)
        .map(|t| t.text.to_lowercase());
    if let Some(w2) = w2 {
        let phrase = format!("{w1} {w2}");
        if let Some(spec) = table.iter().find(|s| s.path.len() == 2 && s.is(&phrase)) {
            let _ = lexer.next_token();
            let _ = lexer.next_token();
            return Some(spec);
        }
    }
    let spec = table.iter().find(|s| s.path.len() == 1 && s.is(&w1))?;
    let _ = lexer.next_token();
    Some(spec)
}

fn parse_body(line: &str, body: &str, prefix: char) -> Result<Command, ParseError> {
    if line.chars().nth(MAX_LINE_CHARS).is_some() {
        // Name the command if its first words are recognisable, without reading the whole line.
        let head: String = body.chars().take(80).collect();
        let (context, labelled) = match lookup(&mut Lexer::new(&head)) {
            Ok(spec) => (Context::Spec(spec), true),
            Err((kind, context)) => (context, !is_unknown_command(&kind)),
        };
        let kind = ParseErrorKind::TooLong {
            max: MAX_LINE_CHARS,
        };
        return Err(ParseError::new(kind, context, prefix, labelled));
    }
    let mut lexer = Lexer::new(body);
    let spec = lookup(&mut lexer).map_err(|(kind, context)| {
        let labelled = !is_unknown_command(&kind);
        ParseError::new(kind, context, prefix, labelled)
    })?;
    read_args(spec, &mut lexer)
        .map_err(|kind| ParseError::new(kind, Context::Spec(spec), prefix, true))
}

fn is_unknown_command(kind: &ParseErrorKind) -> bool {
    matches!(kind, ParseErrorKind::UnknownCommand { .. })
}

/// Finds the table entry for the first one or two words, consuming them.
fn lookup(lexer: &mut Lexer<'_>) -> Result<&'static CommandSpec, (ParseErrorKind, Context)> {
    let first = match lexer.next_token() {
        Ok(Some(t)) => t,
        Ok(None) => {
            let kind = ParseErrorKind::UnknownCommand {
                word: String::new(),
                suggestion: None,
            };
            return Err((kind, Context::Help));
        }
        Err(kind) => return Err((kind, Context::Help)),
    };
    let w1 = first.text.to_lowercase();
    let w2 = lexer
        .peek()
        .filter(|t| !t.quoted)
        .map(|t| t.text.to_lowercase());
    if let Some(w2) = &w2 {
        let phrase = format!("{w1} {w2}");
        if let Some(spec) = COMMANDS.iter().find(|s| s.path.len() == 2 && s.is(&phrase)) {
            // Consume the second word, which peek has read successfully.
            let _ = lexer.next_token();
            return Ok(spec);
        }
    }
    let base = COMMANDS.iter().find(|s| s.path.len() == 1 && s.is(&w1));
    let group = COMMANDS
        .iter()
        .find(|s| s.path.len() == 2 && s.first_word() == w1)
        .map(|s| s.first_word());
    match (base, group) {
        (Some(spec), Some(group)) if w2.is_some() && spec.positionals().next().is_none() => {
            Err((unknown_action(group, w2.as_deref()), Context::Group(group)))
        }
        (Some(spec), _) => Ok(spec),
        (None, Some(group)) => Err((unknown_action(group, w2.as_deref()), Context::Group(group))),
        (None, None) => {
            let suggestion = suggest(&w1);
            let context = match suggestion {
                Some((_, context)) => context,
                None => Context::Help,
            };
            let kind = ParseErrorKind::UnknownCommand {
                word: shown(&first.text),
                suggestion: suggestion.map(|(s, _)| s),
            };
            Err((kind, context))
        }
    }
}

fn unknown_action(group: &'static str, word: Option<&str>) -> ParseErrorKind {
    let subs: Vec<&str> = COMMANDS
        .iter()
        .filter(|s| s.path.len() == 2 && s.first_word() == group)
        .filter_map(|s| s.path.get(1).copied())
        .collect();
    ParseErrorKind::UnknownAction {
        word: word.map(shown),
        expected: join_or(&subs),
    }
}

/// The nearest command to a mistyped word: by edit distance (at most 2), or a word it begins
/// (`tourn`). Second words count too, so `/award` suggests `admin award`.
fn suggest(word: &str) -> Option<(String, Context)> {
    let word_chars = word.chars().count();
    if word_chars == 0 || word_chars > 32 {
        return None;
    }
    // The best so far: distance, entry, and whether its second word matched.
    let mut best: Option<(usize, &'static CommandSpec, bool)> = None;
    for spec in COMMANDS {
        let words = std::iter::once((spec.first_word(), false))
            .chain(spec.aliases.iter().map(|a| (*a, false)))
            .chain(spec.path.get(1).map(|s| (*s, true)));
        for (candidate, second) in words {
            let d = if word.len() >= 3 && candidate.starts_with(word) {
                1
            } else if candidate.chars().count().abs_diff(word_chars) > 2 {
                // The distance is at least the difference in length.
                continue;
            } else {
                edit_distance(word, candidate)
            };
            if d <= 2 && best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, spec, second));
            }
        }
    }
    let (_, spec, second) = best?;
    if second {
        return Some((spec.name(), Context::Spec(spec)));
    }
    let first = spec.first_word();
    let has_group = COMMANDS
        .iter()
        .any(|s| s.path.len() == 2 && s.first_word() == first);
    let context = if has_group {
        Context::Group(first)
    } else {
        Context::Spec(spec)
    };
    Some((first.to_string(), context))
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbours (`jousr`, `josut`) each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        d[at(i, 0)] = i;
    }
    for j in 0..=b.len() {
        d[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[at(i - 1, j)] + 1)
                .min(d[at(i, j - 1)] + 1)
                .min(d[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[at(i - 2, j - 2)] + 1);
            }
            d[at(i, j)] = v;
        }
    }
    d[at(a.len(), b.len())]
}

/// The canonical form of a `/help` topic: `rol` is `roll`, `/knight  Create` is `knight create`,
/// `ransom` is the ransom group.
fn help_topic(text: &str) -> Result<String, ParseErrorKind> {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            if i == 0 {
                w.trim_start_matches(['/', '!'])
            } else {
                w
            }
        })
        .filter(|w| !w.is_empty())
        .collect();
    let phrase = words.join(" ");
    if let Some(spec) = COMMANDS.iter().find(|s| s.is(&phrase)) {
        return Ok(spec.name());
    }
    if let [word] = words.as_slice() {
        if let Some(spec) = COMMANDS.iter().find(|s| s.first_word() == *word) {
            return Ok(spec.first_word().to_string());
        }
    }
    Err(ParseErrorKind::UnknownCommand {
        word: shown(&phrase),
        suggestion: words.first().and_then(|w| suggest(w)).map(|(s, _)| s),
    })
}

/// Reads an entry's arguments from the rest of the line, then builds its command.
fn read_args(spec: &'static CommandSpec, lexer: &mut Lexer<'_>) -> Result<Command, ParseErrorKind> {
    let mut values = Values::default();
    let mut positionals = spec.positionals();
    let mut next_positional = positionals.next();
    // The greedy argument being extended with more words, until an option interrupts it.
    let mut open: Option<&'static ArgSpec> = None;
    loop {
        if let Some(arg) = next_positional.filter(|a| a.kind.is_rest_of_line()) {
            let rest = unquote_whole(lexer.take_rest());
            if !rest.is_empty() {
                values.push(arg.name, Value::Text(rest));
            }
            break;
        }
        let Some(token) = lexer.next_token()? else {
            break;
        };
        if let Some((name, inline)) = token.as_option() {
            open = None;
            let arg = spec
                .args
                .iter()
                .find(|a| a.flag == Some(name.as_str()))
                .ok_or_else(|| unknown_option(spec, &token.text))?;
            if values.has(arg.name) {
                return Err(ParseErrorKind::Repeated { label: arg.label });
            }
            if arg.kind == ArgKind::Switch {
                if inline.is_some() {
                    return Err(ParseErrorKind::SwitchValue { label: arg.label });
                }
                values.push(arg.name, Value::Switch);
                continue;
            }
            let value_token = match inline {
                Some(text) if !text.is_empty() => Token {
                    text,
                    quoted: false,
                },
                Some(_) => return Err(no_value(arg)),
                None => match lexer.next_token()? {
                    Some(t) if t.as_option().is_none() => t,
                    _ => return Err(no_value(arg)),
                },
            };
            let value = read_value(arg, value_token, lexer)?;
            values.push(arg.name, value);
            continue;
        }
        if let Some(arg) = open {
            values.extend_text(arg.name, &token.text);
            continue;
        }
        let Some(arg) = next_positional else {
            let word = if token.quoted {
                quote(&token.text)
            } else {
                token.text
            };
            return Err(ParseErrorKind::Unexpected { word: shown(&word) });
        };
        let value = read_value(arg, token, lexer)?;
        values.push(arg.name, value);
        if arg.greedy {
            open = Some(arg);
        }
        next_positional = positionals.next();
    }
    if let Some(arg) = spec.args.iter().find(|a| a.required && !values.has(a.name)) {
        return Err(missing(arg));
    }
    let mut command = (spec.build)(&values)?;
    if let Command::Game(g) = &mut command {
        g.name = spec.name();
    }
    Ok(command)
}

fn missing(arg: &ArgSpec) -> ParseErrorKind {
    ParseErrorKind::Missing {
        label: arg.label,
        about: arg.about,
        example: arg.example,
    }
}

fn no_value(arg: &ArgSpec) -> ParseErrorKind {
    ParseErrorKind::NoValue {
        label: arg.label,
        example: arg.example,
    }
}

fn unknown_option(spec: &CommandSpec, word: &str) -> ParseErrorKind {
    let flags: Vec<&str> = spec.args.iter().filter_map(|a| a.flag).collect();
    let known = if flags.is_empty() {
        "this command takes no options".to_string()
    } else {
        format!("this command takes {}", join_or(&flags))
    };
    ParseErrorKind::UnknownOption {
        word: shown(word),
        known,
    }
}

/// A rest-of-line text wholly in quotes loses them: `"won the melee"` is `won the melee`.
fn unquote_whole(rest: &str) -> String {
    let mut lexer = Lexer::new(rest);
    if let Ok(Some(token)) = lexer.next_token() {
        if token.quoted && lexer.remaining().trim().is_empty() {
            return token.text.trim().to_string();
        }
    }
    rest.to_string()
}

/// A comma-separated list may be written with spaces after the commas (`lance, ride, shield`):
/// words are joined while one ends or the next begins with a comma.
fn continue_list(first: String, lexer: &mut Lexer<'_>) -> String {
    let mut text = first;
    while let Some(next) = lexer.peek() {
        if next.as_option().is_some() || !(text.ends_with(',') || next.text.starts_with(',')) {
            break;
        }
        let _ = lexer.next_token();
        text.push_str(&next.text);
    }
    text
}

fn list_items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Reads one argument's value from its first word (and, for lists and times, the words that
/// belong with it).
fn read_value(arg: &ArgSpec, token: Token, lexer: &mut Lexer<'_>) -> Result<Value, ParseErrorKind> {
    let word = token.text.trim();
    if word.is_empty() {
        return Err(missing(arg));
    }
    match arg.kind {
        ArgKind::Text | ArgKind::Knight | ArgKind::Target | ArgKind::Topic => {
            Ok(Value::Text(word.to_string()))
        }
        ArgKind::Skills => {
            let text = continue_list(token.text, lexer);
            let skills = list_items(&text)
                .map(|s| s.parse::<Skill>().map_err(unknown_name))
                .collect::<Result<Vec<_>, _>>()?;
            if skills.is_empty() {
                return Err(missing(arg));
            }
            Ok(Value::Skills(skills))
        }
        ArgKind::PsiPoints => {
            let text = continue_list(token.text, lexer);
            let mut psi = Vec::new();
            for item in list_items(&text) {
                let Some((name, points)) = item.split_once([':', '=']) else {
                    return Err(ParseErrorKind::BadPsiPoints { word: shown(item) });
                };
                let skill = name.parse::<PsiSkill>().map_err(unknown_name)?;
                let points = parse_digits(points.trim(), 9)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| ParseErrorKind::BadPsiPoints { word: shown(item) })?;
                psi.push((skill, points));
            }
            if psi.is_empty() {
                return Err(missing(arg));
            }
            Ok(Value::PsiPoints(psi))
        }
        ArgKind::Monarch => word
            .parse::<Monarch>()
            .map(Value::Monarch)
            .map_err(unknown_name),
        ArgKind::AnySkill => {
            if let Ok(skill) = word.parse::<Skill>() {
                Ok(Value::Any(AnySkill::Fighting(skill)))
            } else if let Ok(skill) = word.parse::<PsiSkill>() {
                Ok(Value::Any(AnySkill::Psi(skill)))
            } else {
                Err(unknown_name(UnknownName {
                    kind: "skill",
                    word: word.to_string(),
                    expected: ANY_SKILL_EXPECTED,
                }))
            }
        }
        ArgKind::PsiOrOff => {
            if word.eq_ignore_ascii_case("off") {
                return Ok(Value::PsiOrOff(None));
            }
            word.parse::<PsiSkill>()
                .map(|s| Value::PsiOrOff(Some(s)))
                .map_err(|e| {
                    unknown_name(UnknownName {
                        expected: PSI_OR_OFF_EXPECTED,
                        ..e
                    })
                })
        }
        ArgKind::BonusMode => {
            let mode = [BonusMode::Attack, BonusMode::Defend, BonusMode::Weaken]
                .into_iter()
                .find(|m| m.name().eq_ignore_ascii_case(word));
            mode.map(Value::Bonus)
                .ok_or_else(|| bad_choice(word, BONUS_WORDS))
        }
        ArgKind::Choice(words) => words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(word))
            .copied()
            .map(Value::Choice)
            .ok_or_else(|| bad_choice(word, words)),
        ArgKind::Number { min, max } => parse_digits(word, 10)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (min..=max).contains(n))
            .map(Value::Number)
            .ok_or_else(|| ParseErrorKind::BadNumber {
                label: arg.label,
                word: shown(word),
                min,
                max,
            }),
        ArgKind::Points | ArgKind::SignedPoints if too_many_points(word) => {
            Err(ParseErrorKind::TooManyPoints {
                label: arg.label,
                word: shown(word),
                max: MAX_POINTS,
            })
        }
        ArgKind::Points => parse_half_points(word)
            .filter(|h| *h > 0)
            .map(|h| Value::Points(HalfPoints(h)))
            .ok_or_else(|| ParseErrorKind::BadPoints {
                label: arg.label,
                word: shown(word),
                what: "a number of points above 0, whole or half",
            }),
        ArgKind::SignedPoints => parse_half_points(word)
            .map(|h| Value::Points(HalfPoints(h)))
            .ok_or_else(|| ParseErrorKind::BadPoints {
                label: arg.label,
                word: shown(word),
                what: "a number of whole or half points, negative to take away",
            }),
        ArgKind::EntryId => parse_digits(word.strip_prefix('#').unwrap_or(word), 18)
            .filter(|n| *n > 0)
            .map(Value::Entry)
            .ok_or_else(|| ParseErrorKind::BadEntry { word: shown(word) }),
        ArgKind::Month => parse_month(word)
            .map(Value::Month)
            .ok_or_else(|| ParseErrorKind::BadMonth { word: shown(word) }),
        ArgKind::When => read_when(word, lexer).map(Value::When),
        ArgKind::Dice | ArgKind::Reason | ArgKind::Switch => {
            Err(ParseErrorKind::Internal(arg.name))
        }
    }
}

fn bad_choice(word: &str, words: &[&str]) -> ParseErrorKind {
    ParseErrorKind::BadChoice {
        word: shown(word),
        expected: join_or(words),
    }
}

/// Plain ASCII digits, at most `max_len` of them (so the value cannot overflow a u64).
fn parse_digits(word: &str, max_len: usize) -> Option<u64> {
    if word.is_empty() || word.len() > max_len || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// A number of points written right but beyond [`MAX_POINTS`]: `999999999999`, `-2000000.5`.
fn too_many_points(word: &str) -> bool {
    let body = word.strip_prefix(['-', '+', '\u{2212}']).unwrap_or(word);
    let whole = body.split_once('.').map_or(body, |(w, _)| w);
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let digits = whole.trim_start_matches('0');
    digits.len() > 7 || digits.parse::<i64>().is_ok_and(|n| n > MAX_POINTS)
}

/// `2` → 4 halves, `2.5` → 5, `-1.5` → -3, `.5` → 1; anything finer than a half is refused.
fn parse_half_points(word: &str) -> Option<i64> {
    let (negative, body) = match word.strip_prefix(['-', '\u{2212}']) {
        Some(b) => (true, b),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let whole = if whole.is_empty() {
        0
    } else {
        i64::try_from(parse_digits(whole, 7)?).ok()?
    };
    let half = match fraction {
        "" | "0" | "00" => 0,
        "5" | "50" => 1,
        _ => return None,
    };
    if whole > MAX_POINTS {
        return None;
    }
    let halves = whole * 2 + half;
    Some(if negative { -halves } else { halves })
}

fn parse_month(word: &str) -> Option<YearMonth> {
    let (year, month) = word.split_once('-')?;
    if year.len() != 4 || month.is_empty() || month.len() > 2 {
        return None;
    }
    let year = i32::try_from(parse_digits(year, 4)?).ok()?;
    let month = u32::try_from(parse_digits(month, 2)?).ok()?;
    (1..=12)
        .contains(&month)
        .then_some(YearMonth { year, month })
}

const WHEN_FORMS: &str = "write 2026-12-05T18:00 (realm time), 2026-12-05T18:00Z (UTC) or a delay such as in 2h, in 1h30m or in 1d";

/// A moment or a delay, from one word (`2026-12-05T18:00Z`, `2h`) or more (`in 1h 30m`,
/// `2026-12-05 18:00`).
fn read_when(word: &str, lexer: &mut Lexer<'_>) -> Result<When, ParseErrorKind> {
    let bad = |word: &str, why| ParseErrorKind::BadWhen {
        word: shown(word),
        why,
    };
    let starts_with_digit =
        |t: &Token| !t.quoted && t.text.starts_with(|c: char| c.is_ascii_digit());
    // A delay quoted as one word: "in 2h", "in 1h 30m".
    if let Some(rest) = word
        .get(..3)
        .filter(|head| head.eq_ignore_ascii_case("in "))
        .map(|_| &word[3..])
    {
        let delay: String = rest.split_whitespace().collect();
        if delay.is_empty() {
            return Err(bad("in", "say how long, such as in 2h or in 1h30m"));
        }
        return parse_delay(&delay)
            .map(When::In)
            .map_err(|why| bad(&delay, why));
    }
    if word.eq_ignore_ascii_case("in") {
        let mut delay = String::new();
        while let Some(next) = lexer.peek().filter(starts_with_digit) {
            let _ = lexer.next_token();
            delay.push_str(&next.text);
        }
        if delay.is_empty() {
            return Err(bad("in", "say how long, such as in 2h or in 1h30m"));
        }
        return parse_delay(&delay)
            .map(When::In)
            .map_err(|why| bad(&delay, why));
    }
    if !word.contains(['-', ':']) && word.starts_with(|c: char| c.is_ascii_digit()) {
        return parse_delay(word)
            .map(When::In)
            .map_err(|why| bad(word, why));
    }
    let mut text = word.to_string();
    // A date and a time as two words.
    if word.len() == 10 && !word.contains(['T', 't']) {
        if let Some(time) = lexer
            .peek()
            .filter(|t| starts_with_digit(t) && t.text.contains(':'))
        {
            let _ = lexer.next_token();
            text = format!("{word}T{}", time.text);
        }
    }
    parse_moment(&text).ok_or_else(|| bad(&text, WHEN_FORMS))
}

fn parse_moment(text: &str) -> Option<When> {
    let upper = text.to_ascii_uppercase();
    let naive = |s: &str| {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f")
            .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M"))
            .ok()
    };
    if let Some(utc) = upper.strip_suffix('Z') {
        return naive(utc).map(|n| When::At(Utc.from_utc_datetime(&n)));
    }
    let zoned = [
        "%Y-%m-%dT%H:%M:%S%.f%:z",
        "%Y-%m-%dT%H:%M%:z",
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
    ]
    .iter()
    .find_map(|f| DateTime::parse_from_str(&upper, f).ok());
    if let Some(at) = zoned {
        return Some(When::At(at.with_timezone(&Utc)));
    }
    naive(&upper).map(When::Local)
}

/// `2h`, `30m`, `1d`, `1h30m`: numbers each followed by d, h or m.
fn parse_delay(text: &str) -> Result<Duration, &'static str> {
    const UNITS: &str = "give each number a unit, d, h or m, such as in 2h or in 1h30m";
    let mut total: u64 = 0;
    let mut number: Option<u64> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = number
                .unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(u64::from(d));
            number = Some(n.min(MAX_DELAY_SECS + 1));
            continue;
        }
        let unit = match c.to_ascii_lowercase() {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            _ => return Err(UNITS),
        };
        let n = number.take().ok_or(UNITS)?;
        total = total.saturating_add(n.saturating_mul(unit));
    }
    if number.is_some() {
        return Err(UNITS);
    }
    if total == 0 {
        return Err("the delay must be more than nothing");
    }
    if total > MAX_DELAY_SECS {
        return Err("a tournament may be scheduled at most a year ahead");
    }
    Ok(Duration::from_secs(total))
}

// ---------------------------------------------------------------------------------------------
// Argument values, by name
// ---------------------------------------------------------------------------------------------

/// One argument's value, as read.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Text(String),
    Skills(Vec<Skill>),
    PsiPoints(Vec<(PsiSkill, u32)>),
    Monarch(Monarch),
    Any(AnySkill),
    PsiOrOff(Option<PsiSkill>),
    Bonus(BonusMode),
    Choice(&'static str),
    Number(u32),
    Points(HalfPoints),
    Entry(u64),
    Month(YearMonth),
    When(When),
    Switch,
}

/// The arguments read for one command, by their [`ArgSpec::name`].
#[derive(Debug, Default)]
struct Values {
    items: Vec<(&'static str, Value)>,
}

impl Values {
    /// The arguments as a game's command reads them: each as text. Its name is set by
    /// [`read_args`], which knows the entry.
    fn game_command(&self) -> GameCommand {
        let args = self
            .items
            .iter()
            .map(|(n, v)| {
                let text = match v {
                    Value::Text(t) => t.clone(),
                    Value::Choice(c) => c.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Switch => String::new(),
                    other => format!("{other:?}"),
                };
                (n.to_string(), text)
            })
            .collect();
        GameCommand {
            name: String::new(),
            args,
        }
    }

    fn push(&mut self, name: &'static str, value: Value) {
        self.items.push((name, value));
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.items.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn extend_text(&mut self, name: &str, word: &str) {
        if let Some((_, Value::Text(text))) = self.items.iter_mut().find(|(n, _)| *n == name) {
            text.push(' ');
            text.push_str(word);
        }
    }

    /// A required argument; its absence was reported before the build, so here it is a fault
    /// of the table.
    fn req<T: FromValue>(&self, name: &'static str) -> Result<T, ParseErrorKind> {
        self.get(name)
            .and_then(T::from_value)
            .ok_or(ParseErrorKind::Internal(name))
    }

    /// An optional argument.
    fn opt<T: FromValue>(&self, name: &'static str) -> Result<Option<T>, ParseErrorKind> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => T::from_value(v)
                .map(Some)
                .ok_or(ParseErrorKind::Internal(name)),
        }
    }
}

/// A Rust value an argument can be read as.
trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

macro_rules! from_value {
    ($t:ty, $variant:ident) => {
        impl FromValue for $t {
            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::$variant(v) => Some(v.clone()),
                    _ => None,
                }
            }
        }
    };
}

from_value!(String, Text);
from_value!(Vec<Skill>, Skills);
from_value!(Vec<(PsiSkill, u32)>, PsiPoints);
from_value!(Monarch, Monarch);
from_value!(AnySkill, Any);
from_value!(Option<PsiSkill>, PsiOrOff);
from_value!(BonusMode, Bonus);
from_value!(&'static str, Choice);
from_value!(u32, Number);
from_value!(HalfPoints, Points);
from_value!(u64, Entry);
from_value!(YearMonth, Month);
from_value!(When, When);

// ---------------------------------------------------------------------------------------------
// Help
// ---------------------------------------------------------------------------------------------

/// Rewrites the commands that a line names with `/` (`/accept`, `(/nosweep)`) to `prefix`, for
/// transports whose players type another prefix (IRC's `!`). Only known command words at the
/// start of a word change: `1d100/2`, `and/or` and URLs stay as they are.
pub fn with_prefix(line: &str, prefix: char) -> String {
    if prefix == '/' {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        if c == '/' && prev.is_none_or(|p| p.is_whitespace() || "([{,;:\"'".contains(p)) {
            let word: String = line[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let known = !word.is_empty()
                && COMMANDS.iter().any(|spec| {
                    spec.path.first() == Some(&word.as_str())
                        || spec.aliases.contains(&word.as_str())
                });
            out.push(if known { prefix } else { c });
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// The reply to `/help`, one line each, with the player's prefix. No topic: one line per group
/// listing its commands. A topic (as [`Command::Help`] carries it: `roll`, `ransom`,
/// `knight create`): each matching command's usage and summary.
pub fn help(topic: Option<&str>, prefix: char) -> Vec<String> {
    let Some(topic) = topic else {
        let mut lines: Vec<String> = Group::ALL
            .iter()
            .map(|group| {
                let names: Vec<String> = COMMANDS
                    .iter()
                    .filter(|s| s.group == *group)
                    .map(|s| format!("{prefix}{}", s.name()))
                    .collect();
                format!("{}: {}", group.title(), names.join(", "))
            })
            .collect();
        lines.push(format!("{prefix}help COMMAND shows how to use one."));
        return lines;
    };
    let topic = help_topic(topic).unwrap_or_default();
    let lines: Vec<String> = COMMANDS
        .iter()
        .filter(|s| s.name() == topic || (!topic.contains(' ') && s.first_word() == topic))
        .map(|s| {
            format!(
                "{} — {}{}",
                with_prefix(s.usage, prefix),
                s.summary,
                s.access.note()
            )
        })
        .collect();
    if lines.is_empty() {
        return vec![format!("No such command. {prefix}help lists them all.")];
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn commands_named_in_a_line_take_the_prefix() {
        use super::with_prefix;
        assert_eq!(
            with_prefix(
                "Dame Dara (dana), strike: /high, /low, /yield (120s, then /high).",
                '!'
            ),
            "Dame Dara (dana), strike: !high, !low, !yield (120s, then !high)."
        );
        assert_eq!(
            with_prefix("Usage: /roll EXPR, e.g. /roll 100", '!'),
            "Usage: !roll EXPR, e.g. !roll 100"
        );
        assert_eq!(
            with_prefix("and/or see http://x/joust /frobnicate", '!'),
            "and/or see http://x/joust /frobnicate"
        );
        assert_eq!(with_prefix("/accept", '/'), "/accept");
    }

    use super::*;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn ok(line: &str) -> Command {
        match parse(line, DEFAULT_PREFIXES) {
            Some(Ok(c)) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> ParseError {
        match parse(line, DEFAULT_PREFIXES) {
            Some(Err(e)) => e,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn s(text: &str) -> String {
        text.to_string()
    }

    fn utc(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    fn schedule(name: &str, when: When) -> Schedule {
        Schedule {
            name: s(name),
            when,
            host: None,
            channel: None,
            melee: false,
            remount: false,
            melee_minutes: None,
            force: false,
        }
    }

    // Every form of the brief, each with what it must become.
    #[test]
    fn every_form_parses() {
        let alan = || s("Alan");
        let cases: Vec<(&str, Command)> = vec![
            (
                "/knight create Alan --top lance,ride,shield --psi cpk:20,negapsi:20 --monarch ragnar",
                Command::CreateKnight(CreateKnight {
                    name: alan(),
                    top: vec![Skill::Lance, Skill::Ride, Skill::Shield],
                    psi: vec![(PsiSkill::Cpk, 20), (PsiSkill::Negapsi, 20)],
                    monarch: Monarch::Ragnar,
                    style: Style::Sir,
                }),
            ),
            // R3 choices by name or kingdom, flags in any order, any case.
            (
                "/KNIGHT Create \"Sir Alan the Bold\" --monarch Vegland --dame --psi Mesmerism:40 --TOP SWORD,dodge,Observe",
                Command::CreateKnight(CreateKnight {
                    name: s("Sir Alan the Bold"),
                    top: vec![Skill::Sword, Skill::Dodge, Skill::Observe],
                    psi: vec![(PsiSkill::Mesmerism, 40)],
                    monarch: Monarch::Ragnar,
                    style: Style::Dame,
                }),
            ),
            // The worked example's knight, with spaces after the commas and an em-dash.
            (
                "/knight create Dara --top observe, dodge, sword --psi hypercognition:20, apportation=20 --monarch seonaid —dame",
                Command::CreateKnight(CreateKnight {
                    name: s("Dara"),
                    top: vec![Skill::Observe, Skill::Dodge, Skill::Sword],
                    psi: vec![(PsiSkill::Hypercognition, 20), (PsiSkill::Apportation, 20)],
                    monarch: Monarch::Seonaid,
                    style: Style::Dame,
                }),
            ),
            // The grammar does not check R3: two top skills and 30 psi points pass through.
            (
                "/knight create Eoin --top lance,shield --psi mesmerism:30 --monarch gorllewin",
                Command::CreateKnight(CreateKnight {
                    name: s("Eoin"),
                    top: vec![Skill::Lance, Skill::Shield],
                    psi: vec![(PsiSkill::Mesmerism, 30)],
                    monarch: Monarch::Llewellyn,
                    style: Style::Sir,
                }),
            ),
            ("/knight", Command::Knight { name: None }),
            ("/knight Alan", Command::Knight { name: Some(alan()) }),
            ("/knight \"Alan the Bold\"", Command::Knight { name: Some(s("Alan the Bold")) }),
            ("/knight Alan   the Bold", Command::Knight { name: Some(s("Alan the Bold")) }),
            ("/knight \"create\"", Command::Knight { name: Some(s("create")) }),
            ("/honor", Command::Honor { name: None }),
            ("/honour Alan", Command::Honor { name: Some(alan()) }),
            ("/roll 100", Command::Roll { expr: s("100") }),
            ("/rol 1d100", Command::Roll { expr: s("1d100") }),
            ("!roll 100", Command::Roll { expr: s("100") }),
            ("/ROLL  4d6kh3 + 2 ", Command::Roll { expr: s("4d6kh3 + 2") }),
            ("/roll --x \"odd", Command::Roll { expr: s("--x \"odd") }),
            ("/ledger", Command::Ledger { name: None, month: None, page: None }),
            (
                "/ledger Alan --month 2026-11",
                Command::Ledger {
                    name: Some(alan()),
                    month: Some(YearMonth { year: 2026, month: 11 }),
                    page: None,
                },
            ),
            (
                "/ledger --month=2026-1 Alan the Bold",
                Command::Ledger {
                    name: Some(s("Alan the Bold")),
                    month: Some(YearMonth { year: 2026, month: 1 }),
                    page: None,
                },
            ),
            (
                "/ledger Alan --page 2",
                Command::Ledger {
                    name: Some(alan()),
                    month: None,
                    page: Some(2),
                },
            ),
            ("/standings", Command::Standings { by: Standing::Hp }),
            ("/standings HP", Command::Standings { by: Standing::Hp }),
            ("/standings pp", Command::Standings { by: Standing::Pp }),
            // R30: fighting and psi skills are both spendable.
            ("/spend lance", Command::Spend { skill: AnySkill::Fighting(Skill::Lance) }),
            ("/spend Observe", Command::Spend { skill: AnySkill::Fighting(Skill::Observe) }),
            ("/spend CPK", Command::Spend { skill: AnySkill::Psi(PsiSkill::Cpk) }),
            ("/land", Command::Land),
            ("/grant Alan", Command::Grant { knight: alan() }),
            ("/advance", Command::Advance),
            ("/swear Alan", Command::Swear { knight: alan() }),
            ("/release Alan", Command::Release { knight: alan() }),
            ("/renounce \"Alan the Bold\"", Command::Renounce { knight: s("Alan the Bold") }),
            (
                "/hostility declare Alan",
                Command::Hostility { action: HostilityAction::Declare, knight: alan() },
            ),
            (
                "/hostility END \"Alan the Bold\"",
                Command::Hostility { action: HostilityAction::End, knight: s("Alan the Bold") },
            ),
            ("/ransom demand Alan", Command::RansomDemand { knight: alan(), pp: None }),
            (
                "/ransom demand \"Alan the Bold\" 2.5",
                Command::RansomDemand { knight: s("Alan the Bold"), pp: Some(HalfPoints(5)) },
            ),
            ("/ransom free Alan", Command::RansomFree { knight: alan() }),
            ("/ransom kill Alan", Command::RansomKill { knight: alan() }),
            ("/ransom pay Alan 3", Command::RansomPay { knight: alan(), pp: HalfPoints(6) }),
            ("/ransom PAY Alan .5", Command::RansomPay { knight: alan(), pp: HalfPoints(1) }),
            (
                "/admin award Alan -1.5 late to the lists",
                Command::AdminAward { knight: alan(), hp: HalfPoints(-3), reason: s("late to the lists") },
            ),
            (
                "/admin award \"Alan the Bold\" 2 \"won the melee\"",
                Command::AdminAward { knight: s("Alan the Bold"), hp: HalfPoints(4), reason: s("won the melee") },
            ),
            (
                "/admin award Alan +0.5 --not-an-option \"quoted\" part",
                Command::AdminAward { knight: alan(), hp: HalfPoints(1), reason: s("--not-an-option \"quoted\" part") },
            ),
            ("/admin revoke 42", Command::AdminRevoke { entry: 42 }),
            ("/admin revoke #42", Command::AdminRevoke { entry: 42 }),
            (
                "/admin rename Alan \"Alan the Bold\"",
                Command::AdminRename { knight: alan(), new_name: s("Alan the Bold") },
            ),
            (
                "/admin rename \"Alan the Bold\" Alan the Brave",
                Command::AdminRename { knight: s("Alan the Bold"), new_name: s("Alan the Brave") },
            ),
            ("/admin retire Alan", Command::AdminRetire { knight: alan() }),
            ("/joust evan", Command::Joust { target: s("evan") }),
            ("/joust @evan", Command::Joust { target: s("@evan") }),
            ("/joust <@123456789012345678>", Command::Joust { target: s("<@123456789012345678>") }),
            ("/joust <@!42>", Command::Joust { target: s("<@!42>") }),
            ("/joust Sir Alan", Command::Joust { target: s("Sir Alan") }),
            ("/accept", Command::Accept),
            ("/decline", Command::Decline),
            ("/status", Command::Status),
            ("/help", Command::Help { topic: None }),
            ("/help roll", Command::Help { topic: Some(s("roll")) }),
            ("/help !ROL", Command::Help { topic: Some(s("roll")) }),
            ("/help knight  create", Command::Help { topic: Some(s("knight create")) }),
            ("/help ransom", Command::Help { topic: Some(s("ransom")) }),
            ("/odds Alan", Command::Odds { knight: alan(), other: None }),
            (
                "/odds Alan \"Brenna Dubh\"",
                Command::Odds { knight: alan(), other: Some(s("Brenna Dubh")) },
            ),
            ("/sweep", Command::Decide(Decision::Sweep)),
            ("/nosweep", Command::Decide(Decision::NoSweep)),
            ("/high", Command::Decide(Decision::High)),
            ("/low", Command::Decide(Decision::Low)),
            // R41: /swordplay agrees; /decline is one command whatever it declines.
            ("/swordplay", Command::Decide(Decision::Swordplay)),
            ("/attack", Command::Decide(Decision::Attack)),
            ("/observe", Command::Decide(Decision::Observe)),
            ("/press", Command::Decide(Decision::Press)),
            ("/block", Command::Decide(Decision::Block)),
            ("/dodge", Command::Decide(Decision::Dodge)),
            ("/parry", Command::Decide(Decision::Parry)),
            ("/yield", Command::Decide(Decision::Yield)),
            // R5: the three Bonus modes.
            ("/bonus attack", Command::Decide(Decision::Bonus(BonusMode::Attack))),
            ("/bonus Defend", Command::Decide(Decision::Bonus(BonusMode::Defend))),
            ("/bonus weaken", Command::Decide(Decision::Bonus(BonusMode::Weaken))),
            // R21: arming and disarming.
            ("/psi hypercognition", Command::Decide(Decision::Psi(Some(PsiSkill::Hypercognition)))),
            ("/psi Negapsi", Command::Decide(Decision::Psi(Some(PsiSkill::Negapsi)))),
            ("/psi off", Command::Decide(Decision::Psi(None))),
            ("/psi OFF", Command::Decide(Decision::Psi(None))),
            ("/tournament", Command::Tournament),
            (
                "/tournament schedule \"Yule Lists\" 2026-12-05T18:00:00Z",
                Command::TournamentSchedule(schedule("Yule Lists", When::At(utc("2026-12-05T18:00:00Z")))),
            ),
            (
                "/tournament schedule Yule 2026-12-05T18:00",
                Command::TournamentSchedule(schedule(
                    "Yule",
                    When::Local(NaiveDateTime::parse_from_str("2026-12-05T18:00", "%Y-%m-%dT%H:%M").unwrap()),
                )),
            ),
            (
                "/tournament schedule Yule 2026-12-05t18:00z",
                Command::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T18:00:00Z")))),
            ),
            (
                "/tournament schedule Yule 2026-12-05T18:00+01:00",
                Command::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T17:00:00Z")))),
            ),
            (
                "/tournament schedule Yule 2026-12-05 18:00:30Z",
                Command::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T18:00:30Z")))),
            ),
            (
                "/tournament schedule Yule in 2h",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(7200)))),
            ),
            (
                "/tournament schedule Yule in 30m",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(1800)))),
            ),
            (
                "/tournament schedule Yule IN 1d",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(86_400)))),
            ),
            (
                "/tournament schedule Yule in 1h30m",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(5400)))),
            ),
            (
                "/tournament schedule Yule in 1h 30m",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(5400)))),
            ),
            (
                "/tournament schedule Yule 45m",
                Command::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(2700)))),
            ),
            // R37, R38: every option, in any order.
            (
                "/tournament schedule \"Yule Lists\" in 2h --force --melee-minutes 45 --remount --channel #lists --melee --host \"Queen Seonaid\"",
                Command::TournamentSchedule(Schedule {
                    name: s("Yule Lists"),
                    when: When::In(Duration::from_secs(7200)),
                    host: Some(s("Queen Seonaid")),
                    channel: Some(s("#lists")),
                    melee: true,
                    remount: true,
                    melee_minutes: Some(45),
                    force: true,
                }),
            ),
            ("/tournament start", Command::TournamentStart { which: None }),
            ("/tournament Cancel", Command::TournamentCancel { which: None }),
            (
                "/tournament cancel Yule Lists",
                Command::TournamentCancel {
                    which: Some("Yule Lists".into()),
                },
            ),
            ("/melee prize Alan", Command::MeleePrize { knight: alan() }),
            ("/enter", Command::Enter { which: None }),
            ("/enter #2", Command::Enter { which: Some("#2".into()) }),
            ("/withdraw", Command::Withdraw { which: None }),
            ("/bracket", Command::Bracket),
            ("/melee join Ravens", Command::MeleeJoin { side: s("Ravens") }),
            ("/melee join The Ravens", Command::MeleeJoin { side: s("The Ravens") }),
            ("/pass Alan", Command::Pass { knight: alan() }),
            (
                "/melee open Ravens \"Grey Wolves\"",
                Command::MeleeOpen {
                    first: "Ravens".into(),
                    second: "Grey Wolves".into(),
                },
            ),
            ("/melee start", Command::MeleeStart),
            ("/melee time", Command::MeleeTime),
            ("   /land   ", Command::Land),
            ("/joust “Sir Alan”", Command::Joust { target: s("Sir Alan") }),
            ("/joust \"Alan \\\"the\\\" Bold\"", Command::Joust { target: s("Alan \"the\" Bold") }),
            ("/joust \"back\\slash\"", Command::Joust { target: s("back\\slash") }),
        ];
        for (line, expected) in cases {
            assert_eq!(ok(line), expected, "{line}");
            // Both prefixes, always.
            if let Some(rest) = line.trim_start().strip_prefix('/') {
                assert_eq!(ok(&format!("!{rest}")), expected, "!{rest}");
            }
        }
    }

    #[test]
    fn chat_is_not_a_command() {
        for line in [
            "",
            "   ",
            "hello there",
            "/",
            "!",
            "!!!",
            "! wow",
            "/ shrug",
            "/1d100",
            ":)",
            "http://example.com",
            "/\"roll\"",
            "—roll",
        ] {
            assert_eq!(parse(line, DEFAULT_PREFIXES), None, "{line:?}");
        }
        // A transport with only `!` (IRC) leaves `/` lines to chat, and no prefixes means no commands.
        assert_eq!(parse("/roll 100", &['!']), None);
        assert_eq!(ok("!roll 100"), Command::Roll { expr: s("100") });
        assert_eq!(parse("!roll 100", &[]), None);
        // A long ordinary line is chat, not an error.
        assert_eq!(parse(&"x".repeat(10_000), DEFAULT_PREFIXES), None);
    }

    fn usage_of(path: &str) -> &'static str {
        find_spec(path).unwrap().usage
    }

    // Each error: its kind, its one-line message, and the usage it shows.
    #[test]
    fn every_error_says_what_and_how() {
        use ParseErrorKind as K;
        type Check = fn(&ParseErrorKind) -> bool;
        let cases: Vec<(&str, Check, &str)> = vec![
            ("/jousr evan", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "joust"), "/joust TARGET"),
            ("/josut evan", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "joust"), "/joust TARGET"),
            ("/tourn", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "tournament"), "/tournament schedule NAME WHEN"),
            ("/award Alan 1 x", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "admin award"), "/admin award KNIGHT HP REASON..."),
            ("/xyzzy", |k| matches!(k, K::UnknownCommand { suggestion: None, .. }), "/help [COMMAND]"),
            ("/help xyzzy", |k| matches!(k, K::UnknownCommand { suggestion: None, .. }), "/help [COMMAND]"),
            ("/roll", |k| matches!(k, K::Missing { label: "EXPR", .. }), "/roll EXPR"),
            ("/rol   ", |k| matches!(k, K::Missing { label: "EXPR", .. }), "/roll EXPR"),
            ("/grant", |k| matches!(k, K::Missing { label: "KNIGHT", .. }), "/grant KNIGHT"),
            ("/joust \"\"", |k| matches!(k, K::Missing { label: "TARGET", .. }), "/joust TARGET"),
            ("/hostility", |k| matches!(k, K::Missing { label: "declare|end", .. }), "/hostility declare|end KNIGHT"),
            ("/hostility declare", |k| matches!(k, K::Missing { label: "KNIGHT", .. }), "/hostility declare|end KNIGHT"),
            ("/hostility maybe Alan", |k| matches!(k, K::BadChoice { .. }), "/hostility declare|end KNIGHT"),
            ("/ransom pay Alan", |k| matches!(k, K::Missing { label: "PP", .. }), "/ransom pay KNIGHT PP"),
            ("/admin award Alan 2", |k| matches!(k, K::Missing { label: "REASON", .. }), "/admin award KNIGHT HP REASON..."),
            ("/knight create Alan --psi cpk:40 --monarch ragnar", |k| matches!(k, K::Missing { label: "--top", .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --monarch ragnar", |k| matches!(k, K::Missing { label: "--psi", .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40", |k| matches!(k, K::Missing { label: "--monarch", .. }), usage_of("knight create")),
            ("/knight create --top lance,ride,shield --psi cpk:40 --monarch ragnar", |k| matches!(k, K::Missing { label: "NAME", .. }), usage_of("knight create")),
            ("/knight create Alan --top --psi cpk:40 --monarch ragnar", |k| matches!(k, K::NoValue { label: "--top", .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,bogus --psi cpk:40 --monarch ragnar", |k| matches!(k, K::UnknownName(n) if n.kind == "skill" && n.word == "bogus"), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi telekinesis:40 --monarch ragnar", |k| matches!(k, K::UnknownName(n) if n.kind == "psi skill"), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch arthur", |k| matches!(k, K::UnknownName(n) if n.kind == "monarch"), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk --monarch ragnar", |k| matches!(k, K::BadPsiPoints { .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:lots --monarch ragnar", |k| matches!(k, K::BadPsiPoints { .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --dame --dame", |k| matches!(k, K::Repeated { label: "--dame" }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --colour red", |k| matches!(k, K::UnknownOption { .. }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --dame=yes", |k| matches!(k, K::SwitchValue { label: "--dame" }), usage_of("knight create")),
            ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar dame", |k| matches!(k, K::Unexpected { word } if word == "dame"), usage_of("knight create")),
            ("/spend bogus", |k| matches!(k, K::UnknownName(n) if n.kind == "skill"), "/spend SKILL"),
            ("/psi bogus", |k| matches!(k, K::UnknownName(n) if n.kind == "psi skill" && n.expected.ends_with("off")), "/psi SKILL|off"),
            ("/bonus sideways", |k| matches!(k, K::BadChoice { .. }), "/bonus attack|defend|weaken"),
            ("/standings xp", |k| matches!(k, K::BadChoice { .. }), "/standings [hp|pp]"),
            ("/ransom pay Alan 2.3", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
            ("/ransom pay Alan -2", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
            ("/ransom pay Alan 0", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
            ("/ransom demand Alan lots", |k| matches!(k, K::BadPoints { .. }), "/ransom demand KNIGHT [PP]"),
            ("/admin award Alan x reason", |k| matches!(k, K::BadPoints { label: "HP", .. }), "/admin award KNIGHT HP REASON..."),
            ("/admin award Alan 99999999 reason", |k| matches!(k, K::TooManyPoints { max: 1_000_000, .. }), "/admin award KNIGHT HP REASON..."),
            ("/admin revoke abc", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
            ("/admin revoke 0", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
            ("/admin revoke 99999999999999999999999", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
            ("/ledger --month 2026-13", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
            ("/ledger --month 26-12", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
            ("/ledger --month december", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
            ("/ledger --month", |k| matches!(k, K::NoValue { label: "--month", .. }), "/ledger [NAME] [--month YYYY-MM]"),
            ("/ledger --month=", |k| matches!(k, K::NoValue { label: "--month", .. }), "/ledger [NAME] [--month YYYY-MM]"),
            ("/tournament schedule Yule tomorrow", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 2x", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 90", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 0m", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 400d", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule 2026-02-30T18:00", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule 2026-12-05T25:00Z", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule", |k| matches!(k, K::Missing { label: "WHEN", .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 2h --melee-minutes 0", |k| matches!(k, K::BadNumber { label: "--melee-minutes", .. }), usage_of("tournament schedule")),
            ("/tournament schedule Yule in 2h --melee-minutes -5", |k| matches!(k, K::BadNumber { .. }), usage_of("tournament schedule")),
            ("/tournament foo", |k| matches!(k, K::UnknownAction { word: Some(w), .. } if w == "foo"), "/tournament | /tournament schedule"),
            ("/ransom", |k| matches!(k, K::UnknownAction { word: None, .. }), "/ransom demand KNIGHT [PP] | /ransom free KNIGHT"),
            ("/ransom forgive Alan", |k| matches!(k, K::UnknownAction { .. }), "/ransom pay KNIGHT PP"),
            ("/admin", |k| matches!(k, K::UnknownAction { .. }), "/admin award"),
            ("/joust \"Sir Alan", |k| matches!(k, K::UnterminatedQuote), "/joust TARGET"),
            ("/joust \"Sir\"Alan", |k| matches!(k, K::QuoteJoined), "/joust TARGET"),
            ("/knight create \"Alan --top lance", |k| matches!(k, K::UnterminatedQuote), usage_of("knight create")),
            ("/land now", |k| matches!(k, K::Unexpected { word } if word == "now"), "/land"),
            ("/accept gladly", |k| matches!(k, K::Unexpected { .. }), "/accept"),
            ("/sweep left", |k| matches!(k, K::Unexpected { .. }), "/sweep"),
            ("/standings hp pp", |k| matches!(k, K::Unexpected { .. }), "/standings [hp|pp]"),
            ("/odds Alan Brenna Dubh", |k| matches!(k, K::Unexpected { word } if word == "Dubh"), "/odds KNIGHT [KNIGHT]"),
            ("/ransom pay Alan 2 now", |k| matches!(k, K::Unexpected { .. }), "/ransom pay KNIGHT PP"),
            ("/tournament \"foo\"", |k| matches!(k, K::Unexpected { .. }), "/tournament"),
            ("/land --force", |k| matches!(k, K::UnknownOption { known, .. } if known.contains("no options")), "/land"),
        ];
        for (line, check, usage) in cases {
            let e = err(line);
            assert!(check(e.kind()), "{line}: {:?}", e.kind());
            let message = e.to_string();
            assert!(message.contains("Usage: "), "{line}: {message}");
            assert!(message.contains(usage), "{line}: {message}");
            assert!(
                !message.contains('\n') && !message.contains('\r'),
                "{line}: {message}"
            );
            assert_eq!(message, e.message());
        }
    }

    #[test]
    fn overlong_lines_are_refused_with_their_usage() {
        let line = format!("/roll {}", "1".repeat(MAX_LINE_CHARS));
        let e = err(&line);
        assert_eq!(
            e.kind(),
            &ParseErrorKind::TooLong {
                max: MAX_LINE_CHARS
            }
        );
        assert!(e.to_string().contains("Usage: /roll EXPR"), "{e}");
        assert!(e.to_string().contains("at most 2000 characters"), "{e}");
        // Exactly at the limit is fine.
        let line = format!("/roll {}", "1".repeat(MAX_LINE_CHARS - 6));
        assert_eq!(line.chars().count(), MAX_LINE_CHARS);
        assert!(matches!(
            parse(&line, DEFAULT_PREFIXES),
            Some(Ok(Command::Roll { .. }))
        ));
        // Unknown command, counted in characters not bytes.
        let e = err(&format!("!zzz {}", "é".repeat(MAX_LINE_CHARS)));
        assert_eq!(
            e.kind(),
            &ParseErrorKind::TooLong {
                max: MAX_LINE_CHARS
            }
        );
        assert!(e.to_string().contains("Usage: !help [COMMAND]"), "{e}");
        let e = err(&format!("/joust \"{}", "a".repeat(1_000_000)));
        assert_eq!(
            e.kind(),
            &ParseErrorKind::TooLong {
                max: MAX_LINE_CHARS
            }
        );
    }

    #[test]
    fn messages_read_as_the_brief_shows() {
        let e = err("/knight create Alan --psi cpk:40 --monarch ragnar");
        assert_eq!(
            e.to_string(),
            "/knight create: --top is missing (the three fighting skills that start at 40, e.g. \
             --top lance,ride,shield). Usage: /knight create NAME --top SKILL,SKILL,SKILL --psi \
             SKILL:N[,SKILL:N...] --monarch MONARCH [--dame]"
        );
        // The engine's own message for a bad name.
        let e = err("/knight create Alan --top lance,ride,bogus --psi cpk:40 --monarch ragnar");
        assert!(e.to_string().starts_with(
            "/knight create: unknown skill 'bogus'; expected one of: lance, ride, observe, shield, dodge, sword. Usage:"
        ));
        let e = err("!jousr evan");
        assert_eq!(
            e.to_string(),
            "unknown command 'jousr'; did you mean 'joust'? Usage: !joust TARGET"
        );
        let e = err("/xyzzy");
        assert_eq!(
            e.to_string(),
            "unknown command 'xyzzy'. Usage: /help [COMMAND]"
        );
        let e = err("!ransom");
        assert_eq!(
            e.to_string(),
            "!ransom: say which: demand, free, kill or pay. Usage: !ransom demand KNIGHT [PP] | \
             !ransom free KNIGHT | !ransom kill KNIGHT | !ransom pay KNIGHT PP"
        );
        assert_eq!(e.command(), Some("ransom"));
        let e = err("/ransom forgive Alan");
        assert!(
            e.to_string()
                .starts_with("/ransom: 'forgive' is not demand, free, kill or pay. Usage: "),
            "{e}"
        );
        let e = err("/standings xp");
        assert!(
            e.to_string()
                .starts_with("/standings: 'xp' is not hp or pp. Usage: /standings [hp|pp]"),
            "{e}"
        );
        let e = err("/land \"\"");
        assert!(e.to_string().starts_with("/land: unexpected '\"\"'"), "{e}");
        let e = err("/ransom pay Alan 2.3");
        assert_eq!(
            e.to_string(),
            "/ransom pay: PP must be a number of points above 0, whole or half, such as 2 or 2.5; \
             '2.3' is not. Usage: /ransom pay KNIGHT PP"
        );
        assert_eq!(e.command(), Some("ransom pay"));
        assert_eq!(e.usage(), "/ransom pay KNIGHT PP");
    }

    #[test]
    fn repeated_words_are_shortened_and_kept_on_one_line() {
        let e = err("/joust \"Sir\nAlan\"x");
        assert!(matches!(e.kind(), ParseErrorKind::QuoteJoined));
        let e = err("/spend \"lan\nce\u{202e}\"");
        let message = e.to_string();
        assert!(message.contains("lan\\nce\\u{202e}"), "{message}");
        assert!(!message.contains('\n'));
        let e = err(&format!("/spend {}", "x".repeat(500)));
        assert!(
            e.to_string().contains(&format!("'{}…'", "x".repeat(40))),
            "{e}"
        );
    }

    #[test]
    fn when_resolves_against_the_sessions_clock_and_zone() {
        let now = utc("2026-12-01T10:00:00Z");
        let when = When::In(Duration::from_secs(5400));
        assert_eq!(when.resolve(now, &Utc), Some(utc("2026-12-01T11:30:00Z")));
        let at = When::At(utc("2026-12-05T18:00:00Z"));
        assert_eq!(
            at.resolve(now, &chrono_tz::Europe::London),
            Some(utc("2026-12-05T18:00:00Z"))
        );
        // R25: a time without a zone is the realm's time.
        let Some(Ok(Command::TournamentSchedule(winter))) = parse(
            "/tournament schedule Yule 2026-12-05T18:00",
            DEFAULT_PREFIXES,
        ) else {
            panic!()
        };
        assert_eq!(
            winter.when.resolve(now, &Utc),
            Some(utc("2026-12-05T18:00:00Z"))
        );
        assert_eq!(
            winter.when.resolve(now, &chrono_tz::Europe::Berlin),
            Some(utc("2026-12-05T17:00:00Z"))
        );
        let Some(Ok(Command::TournamentSchedule(summer))) = parse(
            "/tournament schedule Midsummer 2026-07-05T18:00",
            DEFAULT_PREFIXES,
        ) else {
            panic!()
        };
        assert_eq!(
            summer.when.resolve(now, &chrono_tz::Europe::London),
            Some(utc("2026-07-05T17:00:00Z"))
        );
        // An hour skipped by the clocks going forward does not exist.
        let gap = When::Local(
            NaiveDateTime::parse_from_str("2026-03-29T01:30", "%Y-%m-%dT%H:%M").unwrap(),
        );
        assert_eq!(gap.resolve(now, &chrono_tz::Europe::London), None);
    }

    #[test]
    fn half_points_read_and_print_alike() {
        // R29: points are kept in halves.
        for (word, halves) in [
            ("2", 4),
            ("2.5", 5),
            ("-1.5", -3),
            ("+3", 6),
            (".5", 1),
            ("0", 0),
            ("1.50", 3),
            ("2.", 4),
        ] {
            assert_eq!(parse_half_points(word), Some(halves), "{word}");
        }
        for word in [
            "", "-", ".", "2.3", "1.25", "abc", "1e3", "--1", "1.5.5", "１",
        ] {
            assert_eq!(parse_half_points(word), None, "{word}");
        }
        assert_eq!(HalfPoints(5).to_string(), "2.5");
        assert_eq!(HalfPoints(-3).to_string(), "-1.5");
        assert_eq!(HalfPoints(4).to_string(), "2");
        assert_eq!(HalfPoints::from_points(3), HalfPoints(6));
        assert_eq!(
            YearMonth {
                year: 2026,
                month: 3
            }
            .to_string(),
            "2026-03"
        );
    }

    #[test]
    fn create_knight_is_what_the_engine_needs() {
        let Command::CreateKnight(choices) = ok(
            "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame",
        ) else {
            panic!()
        };
        // R3: the engine accepts the worked example's knight as parsed.
        let sheet = choices.to_new_knight().create().unwrap();
        assert_eq!(sheet.skill(Skill::Observe), 40);
        assert_eq!(sheet.skill(Skill::Lance), 30);
        assert_eq!(sheet.psi(PsiSkill::Hypercognition), 20);
        assert_eq!(sheet.styled(), "Dame Dara");
        // R3 is the engine's to check, not the grammar's.
        let Command::CreateKnight(short) =
            ok("/knight create Eoin --top lance --psi cpk:40 --monarch ragnar")
        else {
            panic!()
        };
        assert!(short.to_new_knight().create().is_err());
    }

    #[test]
    fn the_table_is_consistent() {
        for spec in COMMANDS {
            let name = spec.name();
            // One entry per command, no alias shadowing another command.
            assert_eq!(COMMANDS.iter().filter(|s| s.is(&name)).count(), 1, "{name}");
            for alias in spec.aliases {
                assert_eq!(find_spec(alias).map(|s| s.name()), Some(name.clone()));
            }
            assert!(spec.usage.starts_with(&format!("/{name}")), "{name}");
            assert!(
                !spec.usage[1..].contains('/'),
                "{name}: a second / would take the prefix"
            );
            assert!(!spec.summary.contains('/'), "{name}");
            assert!(spec.summary.ends_with('.'), "{name}");
            let mut names: Vec<&str> = spec.args.iter().map(|a| a.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                spec.args.len(),
                "{name}: argument names must be unique"
            );
            let positionals: Vec<&ArgSpec> = spec.positionals().collect();
            for (i, arg) in spec.args.iter().enumerate() {
                assert!(
                    arg.about.len() <= 100 && !arg.about.is_empty(),
                    "{name} {}",
                    arg.name
                );
                assert!(
                    spec.usage.contains(arg.label),
                    "{name}: usage lacks {}",
                    arg.label
                );
                if let Some(flag) = arg.flag {
                    assert!(
                        flag.starts_with("--") && flag == flag.to_lowercase(),
                        "{flag}"
                    );
                    assert!(
                        !arg.greedy && arg.example.starts_with(flag),
                        "{name} {flag}"
                    );
                } else {
                    let last = positionals.last().map(|a| a.name) == Some(arg.name);
                    assert!(
                        !arg.greedy || last,
                        "{name}: only the last positional may be greedy"
                    );
                    assert!(!arg.kind.is_rest_of_line() || last, "{name}");
                    assert!(
                        spec.args[..i].iter().all(|a| a.flag.is_none()),
                        "{name}: positionals come before options"
                    );
                }
                assert!(arg.kind != ArgKind::Switch || arg.flag.is_some(), "{name}");
            }
            // The table's own example parses to this command.
            let example = ok(spec.example);
            assert_eq!(example.name(), name, "{}", spec.example);
            assert_eq!(example.spec().map(|s| s.name()), Some(name.clone()));
            // A line made from the argument examples: all of them, then only the required ones.
            let full = synthesize(spec, |_| true);
            assert_eq!(ok(&full).name(), name, "{full}");
            let minimal = synthesize(spec, |a| a.required);
            assert_eq!(ok(&minimal).name(), name, "{minimal}");
            // Leaving out each required option, or every positional, says what is missing.
            for arg in spec.args.iter().filter(|a| a.required) {
                let line = if arg.flag.is_some() {
                    synthesize(spec, |a| a.required && a.name != arg.name)
                } else {
                    synthesize(spec, |a| a.required && a.flag.is_some())
                };
                let first_missing = if arg.flag.is_some() {
                    arg.label
                } else {
                    positionals
                        .iter()
                        .find(|a| a.required)
                        .map(|a| a.label)
                        .unwrap_or("")
                };
                let e = err(&line);
                assert!(
                    matches!(e.kind(), ParseErrorKind::Missing { label, .. } if *label == first_missing),
                    "{line}: {e}"
                );
            }
        }
    }

    fn synthesize(spec: &CommandSpec, keep: impl Fn(&ArgSpec) -> bool) -> String {
        let mut line = format!("/{}", spec.name());
        for arg in spec.args.iter().filter(|a| keep(a)) {
            line.push(' ');
            line.push_str(arg.example);
        }
        line
    }

    #[test]
    fn choice_lists_match_the_engine() {
        let skills: Vec<&str> = Skill::ALL.iter().map(|s| s.name()).collect();
        let psi: Vec<&str> = PsiSkill::ALL.iter().map(|s| s.name()).collect();
        let monarchs: Vec<&str> = Monarch::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(SKILL_WORDS, skills.as_slice());
        assert_eq!(PSI_WORDS, psi.as_slice());
        assert_eq!(MONARCH_WORDS, monarchs.as_slice());
        assert_eq!(ANY_SKILL_WORDS, [skills, psi.clone()].concat().as_slice());
        assert_eq!(PSI_OR_OFF_WORDS, [psi, vec!["off"]].concat().as_slice());
        assert_eq!(ANY_SKILL_EXPECTED, ANY_SKILL_WORDS.join(", "));
        assert_eq!(PSI_OR_OFF_EXPECTED, PSI_OR_OFF_WORDS.join(", "));
        for mode in [BonusMode::Attack, BonusMode::Defend, BonusMode::Weaken] {
            assert!(BONUS_WORDS.contains(&mode.name()));
        }
        // Every decision word of the engine (but decline, which is its own command, R41) is a
        // command that yields that decision.
        for d in [
            Decision::Sweep,
            Decision::NoSweep,
            Decision::High,
            Decision::Low,
            Decision::Swordplay,
            Decision::Attack,
            Decision::Observe,
            Decision::Press,
            Decision::Block,
            Decision::Dodge,
            Decision::Parry,
            Decision::Yield,
        ] {
            assert_eq!(ok(&format!("/{}", d.word())), Command::Decide(d));
            assert_eq!(find_spec(d.word()).unwrap().access, Access::Fighter);
        }
        assert_eq!(ok("/decline"), Command::Decline);
        // Every choice of every argument is accepted by the parser.
        for spec in COMMANDS {
            for arg in spec.args.iter().filter(|a| a.flag.is_none()) {
                for choice in arg.kind.choices() {
                    let line = synthesize(spec, |a| a.required && a.name != arg.name);
                    let line = line.replacen(
                        &format!("/{}", spec.name()),
                        &format!("/{} {choice}", spec.name()),
                        1,
                    );
                    assert!(
                        matches!(parse(&line, DEFAULT_PREFIXES), Some(Ok(_))),
                        "{line}"
                    );
                }
            }
        }
    }

    #[test]
    fn access_follows_the_design() {
        assert_eq!(
            ok("/knight create A --top lance,ride,shield --psi cpk:40 --monarch ragnar").access(),
            Access::Everyone
        );
        assert_eq!(ok("/psi off").access(), Access::Fighter);
        assert_eq!(ok("/tournament start").access(), Access::Moderator);
        assert_eq!(ok("/melee prize Alan").access(), Access::Moderator);
        assert_eq!(ok("/tournament").access(), Access::Everyone);
        for line in [
            "/admin award A 1 x",
            "/admin revoke 1",
            "/admin rename A B",
            "/admin retire A",
        ] {
            assert_eq!(ok(line).access(), Access::Admin, "{line}");
        }
    }

    #[test]
    fn help_lists_and_explains() {
        let overview = help(None, '!');
        assert_eq!(overview.len(), Group::ALL.len() + 1);
        assert!(overview[0].starts_with("Knights and books: !knight create, !knight, !honor"));
        assert!(overview.iter().any(|l| l.starts_with("Decisions: !sweep")));
        assert!(overview
            .iter()
            .any(|l| l.starts_with("Admin: !admin award")));
        // Every command appears exactly once.
        let all = overview.join(" ");
        for spec in COMMANDS {
            assert!(
                all.contains(&format!("!{}", spec.name())),
                "{}",
                spec.name()
            );
        }
        assert_eq!(
            help(Some("rol"), '/'),
            vec!["/roll EXPR — Roll dice, such as 1d100 or 4d6kh3."]
        );
        let ransom = help(Some("ransom"), '!');
        assert_eq!(ransom.len(), 4);
        assert!(ransom[3].starts_with("!ransom pay KNIGHT PP — "));
        let knight = help(Some("knight"), '/');
        assert_eq!(knight.len(), 2);
        assert_eq!(help(Some("knight create"), '/').len(), 1);
        assert!(help(Some("tournament start"), '/')[0].ends_with("(moderators)"));
        assert!(help(Some("admin award"), '/')[0].ends_with("(admins)"));
        assert_eq!(
            help(Some("xyzzy"), '/'),
            vec!["No such command. /help lists them all."]
        );
        for line in overview.iter().chain(&ransom) {
            assert!(!line.contains('\n'));
        }
    }

    #[test]
    fn commands_serialize() {
        for line in [
            "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame",
            "/psi off",
            "/bonus attack",
            "/tournament schedule Yule in 2h --melee",
            "/tournament schedule Yule 2026-12-05T18:00",
            "/tournament schedule Yule 2026-12-05T18:00Z",
            "/admin award Alan -1.5 late",
            "/spend cpk",
            "/land",
        ] {
            let command = ok(line);
            let json = serde_json::to_string(&command).unwrap();
            let back: Command = serde_json::from_str(&json).unwrap();
            assert_eq!(back, command, "{json}");
        }
        assert_eq!(serde_json::to_string(&ok("/land")).unwrap(), "\"land\"");
        assert_eq!(
            serde_json::to_string(&ok("/ransom pay Alan 2.5")).unwrap(),
            r#"{"ransom_pay":{"knight":"Alan","pp":5}}"#
        );
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        assert_eq!(edit_distance("jousr", "joust"), 1);
        assert_eq!(edit_distance("josut", "joust"), 1);
        assert_eq!(edit_distance("", "roll"), 4);
        assert_eq!(edit_distance("roll", "roll"), 0);
        assert_eq!(edit_distance("sweep", "nosweep"), 2);
    }

    /// Random lines of every sort, from a fixed seed so a failure reproduces.
    fn random_line(rng: &mut ChaCha8Rng) -> String {
        const PIECES: &[&str] = &[
            "/",
            "!",
            " ",
            "  ",
            "\"",
            "“",
            "”",
            "\\",
            "\\\"",
            "--",
            "—",
            "=",
            ",",
            ":",
            "#",
            "@",
            "<@123>",
            "knight",
            "create",
            "roll",
            "rol",
            "ransom",
            "pay",
            "demand",
            "admin",
            "award",
            "tournament",
            "schedule",
            "melee",
            "join",
            "help",
            "psi",
            "bonus",
            "spend",
            "ledger",
            "--top",
            "--psi",
            "--monarch",
            "--dame",
            "--month",
            "--host",
            "--melee-minutes",
            "--force",
            "lance",
            "ride,",
            "shield",
            "cpk:20",
            "negapsi=20",
            "vegland",
            "in",
            "2h",
            "1h30m",
            "0m",
            "2026-12-05",
            "18:00",
            "2026-12-05T18:00Z",
            "2026-13",
            "2.5",
            "-1.5",
            "#42",
            "0",
            "99999999999999999999",
            "Sir Alan",
            "é",
            "🗡",
            "\u{202e}",
            "\u{0}",
            "\n",
            "\t",
            "\u{2028}",
            "\u{feff}",
            "ß",
            "İ",
            "ǅ",
        ];
        let mut line = String::new();
        match rng.next_u32() % 5 {
            0 => {
                // Raw bytes, made text the lossy way a transport would.
                let len = (rng.next_u32() % 64) as usize;
                let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
                line.push(if rng.next_u32() % 2 == 0 { '/' } else { '!' });
                line.push_str(&String::from_utf8_lossy(&bytes));
            }
            1 => {
                // Any Unicode scalar values.
                line.push('/');
                line.push('a');
                for _ in 0..(rng.next_u32() % 40) {
                    if let Some(c) = char::from_u32(rng.next_u32() % 0x11_0000) {
                        line.push(c);
                    }
                }
            }
            2 => {
                // Nested and unbalanced quotes around a real command.
                let spec = &COMMANDS[(rng.next_u32() as usize) % COMMANDS.len()];
                line.push_str(&format!("/{}", spec.name()));
                for _ in 0..(rng.next_u32() % 8) {
                    line.push_str(
                        [" \"", "\"", " “", "” ", "\\\"", " \"a \"b\" c\" ", " x"]
                            [(rng.next_u32() % 7) as usize],
                    );
                }
            }
            3 => {
                // Long lines around the limit, and far beyond it.
                let len = [
                    MAX_LINE_CHARS - 10,
                    MAX_LINE_CHARS,
                    MAX_LINE_CHARS + 1,
                    20_000,
                ][(rng.next_u32() % 4) as usize];
                line.push_str("/roll ");
                let mut count = line.chars().count();
                while count < len {
                    let piece = PIECES[(rng.next_u32() as usize) % PIECES.len()];
                    line.push_str(piece);
                    count += piece.chars().count();
                }
            }
            _ => {
                // A real command followed by a soup of meaningful pieces.
                let spec = &COMMANDS[(rng.next_u32() as usize) % COMMANDS.len()];
                line.push_str(&format!("/{}", spec.name()));
                for _ in 0..(rng.next_u32() % 12) {
                    if rng.next_u32() % 2 == 0 {
                        line.push(' ');
                    }
                    line.push_str(PIECES[(rng.next_u32() as usize) % PIECES.len()]);
                }
            }
        }
        line
    }

    // Whatever comes in: no panic; a prefixed line is always a command or a one-line error with
    // its usage; chat is always None.
    #[test]
    fn never_panics_and_always_answers() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x4845_5241_4c44);
        let (mut commands, mut errors) = (0, 0);
        for _ in 0..20_000 {
            let line = random_line(&mut rng);
            let trimmed = line.trim();
            let mut chars = trimmed.chars();
            let prefixed = chars.next().is_some_and(|c| c == '/' || c == '!')
                && chars.next().is_some_and(char::is_alphabetic);
            match parse(&line, DEFAULT_PREFIXES) {
                None => assert!(!prefixed, "{line:?}"),
                Some(Ok(command)) => {
                    assert!(prefixed);
                    assert!(!command.name().is_empty());
                    commands += 1;
                }
                Some(Err(e)) => {
                    assert!(prefixed);
                    let message = e.to_string();
                    assert!(!message.is_empty());
                    assert!(message.lines().count() == 1, "{line:?}: {message:?}");
                    assert!(
                        !message.contains(['\n', '\r', '\u{2028}', '\u{2029}', '\u{202e}']),
                        "{message:?}"
                    );
                    assert!(message.contains("Usage: "), "{message}");
                    assert!(message.chars().count() < 800, "{message}");
                    errors += 1;
                }
            }
        }
        // The generator reaches both outcomes often.
        assert!(
            commands > 1_000 && errors > 1_000,
            "{commands} commands, {errors} errors"
        );
    }

    // quote() is how an adapter writes a value; it must read back as exactly that value.
    #[test]
    fn quoted_values_read_back_exactly() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let alphabet: Vec<char> = "aZ é\"“”\\—–-,:=#@<>!/\t🗡".chars().collect();
        for _ in 0..5_000 {
            let len = 1 + (rng.next_u32() % 12) as usize;
            let value: String = (0..len)
                .map(|_| alphabet[(rng.next_u32() as usize) % alphabet.len()])
                .collect();
            if value.trim() != value || value.trim().is_empty() {
                continue;
            }
            let line = format!("/odds {} {}", quote(&value), quote("B"));
            assert_eq!(
                parse(&line, DEFAULT_PREFIXES),
                Some(Ok(Command::Odds {
                    knight: value.clone(),
                    other: Some(s("B"))
                })),
                "{line}"
            );
        }
        assert_eq!(quote("Alan"), "Alan");
        assert_eq!(quote("Sir Alan"), "\"Sir Alan\"");
        assert_eq!(quote("--top"), "\"--top\"");
        assert_eq!(quote("a\"b"), "\"a\\\"b\"");
    }
}
