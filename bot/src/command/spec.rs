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
    /// A kind of value a game defines (PsiKnight's skills, monarchs, psi points).
    Game(&'static GameKind),
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
            ArgKind::Game(kind) => kind.choices,
            ArgKind::Choice(words) => words,
            _ => &[],
        }
    }

    /// Takes the rest of the line as it stands, options and quotes included.
    pub fn is_rest_of_line(self) -> bool {
        matches!(self, ArgKind::Dice | ArgKind::Reason)
    }
}

/// A kind of argument a game defines: its words, for a Discord option and `/help`, and its
/// reader, which turns what was typed into a value of the game's own type for its builder
/// ([`Values::game`]) or says in one line what is wrong.
pub struct GameKind {
    /// The fixed choices; empty when the value is free (a list).
    pub choices: &'static [&'static str],
    /// A comma-separated list, whose items may be spaced after their commas: the reader gets
    /// the whole list, and an empty one is missing.
    pub list: bool,
    /// Reads the value.
    pub read: fn(&str) -> Result<GameValue, ParseErrorKind>,
}

impl PartialEq for GameKind {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for GameKind {}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameKind")
            .field("choices", &self.choices)
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

/// A value a game's reader made ([`GameKind::read`]), carried by the parser to the game's
/// builder without the core knowing its type.
#[derive(Clone)]
pub struct GameValue(std::sync::Arc<dyn Any + Send + Sync>);

impl GameValue {
    /// Wraps a game's value.
    pub fn new<T: Any + Send + Sync>(value: T) -> Self {
        GameValue(std::sync::Arc::new(value))
    }

    /// The value, when it is of type `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }
}

impl PartialEq for GameValue {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for GameValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GameValue")
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
