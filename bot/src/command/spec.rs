//! The table's types: who may use a command, its `/help` heading, its arguments and their kinds,
//! and one entry ([`CommandSpec`]).

use super::*;

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
    pub(crate) fn note(self) -> &'static str {
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

pub(crate) const ANY_SKILL_EXPECTED: &str =
    "lance, ride, observe, shield, dodge, sword, apportation, cpk, \
     hypercognition, mesmerism, telepathy, catapsi, negapsi";
pub(crate) const PSI_OR_OFF_EXPECTED: &str =
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
pub(crate) type Build = fn(&Values) -> Result<Command, ParseErrorKind>;

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
    pub(crate) build: Build,
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

    pub(crate) fn is(&self, phrase: &str) -> bool {
        self.is_path(phrase) || self.aliases.contains(&phrase)
    }

    /// Whether `phrase` is the entry's words with one space between them. Asked of every entry
    /// of a table for every line read: the one- and two-word entries are compared without
    /// splitting the phrase.
    fn is_path(&self, phrase: &str) -> bool {
        match self.path {
            [word] => *word == phrase,
            [first, second] => {
                phrase.len() == first.len() + 1 + second.len()
                    && phrase.starts_with(first)
                    && phrase.as_bytes().get(first.len()) == Some(&b' ')
                    && phrase.ends_with(second)
            }
            path => {
                let mut words = phrase.split(' ');
                path.iter().all(|p| words.next() == Some(*p)) && words.next().is_none()
            }
        }
    }

    pub(crate) fn first_word(&self) -> &'static str {
        self.path.first().copied().unwrap_or("")
    }

    pub(crate) fn positionals(&self) -> impl Iterator<Item = &'static ArgSpec> {
        self.args.iter().filter(|a| a.flag.is_none())
    }
}
