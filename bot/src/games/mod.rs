//! The games Herald referees, each in a folder of its own, and the contract a game of
//! characters keeps ([`Game`]) so that the one referee ([`crate::referee`]) drives it; a game
//! with books of its own (PsiKnight) keeps the referee's [`crate::referee::Ruleset`] itself.
//!
//! A game supplies, on top of its engine fight ([`herald_engine::game::Fight`]): its command
//! table (read by the one parser), how a character is created and shown, what a fight starts
//! from and what outlasts it, and the words of its narration, prompts and refusals. The core
//! names no game but in [`GAMES`], the list the channel's game is looked up in.

use crate::app::App;
use crate::command::{CommandSpec, GameCommand};
use crate::config::Config;
use crate::referee::Table;
use crate::store::games::Character;
use crate::store::{Id, Store};
use crate::verify::Report;
use anyhow::Result;
use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use herald_engine::dice::RollSource;
use herald_engine::game::{Fight, Prompt, Side};
use serde_json::Value;
use std::sync::Arc;

pub mod pfpduel;
pub mod powerpool;
pub mod psiknight;
pub mod psimorphs;
pub mod replay;
pub mod tourney;

/// The names of a fight's two sides: "Sir Ector" for narration, and who speaks for each (the
/// player, or the NPC's name).
#[derive(Clone, Debug)]
pub struct Sides {
    /// "Sir Ector", challenger first.
    pub styled: [String; 2],
    /// "Ector", for events.
    pub plain: [String; 2],
    /// The players; an NPC's is its name.
    pub users: [String; 2],
    /// Which sides Herald decides for (non-player characters).
    pub npc: [bool; 2],
    /// Every creature in listing order: the challenger, its allies as named, the foes as named
    /// (PC33); in a duel the two, so that a member's index is its side's.
    pub members: Vec<Member>,
}

/// One creature of a fight: its side, its names, and who speaks for it.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its side.
    pub side: Side,
    /// "Sir Ector".
    pub styled: String,
    /// "Ector", for events.
    pub plain: String,
    /// The player; an NPC's is its name.
    pub user: String,
    /// Whether Herald decides for it.
    pub npc: bool,
}

impl Sides {
    /// The member a player speaks for (an NPC's name speaks for none).
    pub fn member_of(&self, user: &str) -> Option<usize> {
        self.members
            .iter()
            .position(|m| !m.npc && m.user.eq_ignore_ascii_case(user))
    }

    /// "Ash (ann)", or an NPC's styled name alone, for a member.
    pub fn who_member(&self, member: usize) -> String {
        match self.members.get(member) {
            Some(m) if m.npc => m.styled.clone(),
            Some(m) => format!("{} ({})", m.styled, m.user),
            None => "?".into(),
        }
    }

    /// Every member's plain name, in listing order, for events.
    pub fn names(&self) -> Vec<String> {
        self.members.iter().map(|m| m.plain.clone()).collect()
    }

    /// "Sir Ector (ann)", or an NPC's styled name alone.
    pub fn who(&self, side: Side) -> String {
        let i = side.index();
        if self.npc[i] {
            self.styled[i].clone()
        } else {
            format!("{} ({})", self.styled[i], self.users[i])
        }
    }
}

/// A character as the game reads it on a realm day: sheet and state, healed and re-armed as
/// the game's recovery rules say.
#[derive(Clone, Debug, PartialEq)]
pub struct AsOf {
    /// The sheet, as the game's JSON.
    pub sheet: Value,
    /// The state, as the game's JSON.
    pub state: Value,
}

/// What a command of the game's table means, once the game has read it.
#[derive(Clone, Debug, PartialEq)]
pub enum Meaning<D> {
    /// The game's creation command (`/knight create`): the name, the sheet and the state.
    Create(String, AsOf),
    /// A decision in the fight.
    Decide(D),
    /// Show a character (`/knight NAME`): its name, or yours.
    Show(Option<String>),
    /// A change to the speaker's character out of a fight (`/smith`): its new sheet and state,
    /// and what to say.
    Change(AsOf, String),
    /// A refusal, as one line.
    Refused(String),
    /// The game's own challenge verb (`/fight TARGET`): handled as `/challenge TARGET`.
    Challenge(String),
    /// A challenge of groups (`/psicombat FOE,FOE --with ALLY`): the foes and the
    /// challenger's allies, as named ([`Game::MAX_SIDE`]).
    Group(Vec<String>, Vec<String>),
    /// Removing one's own character from the books (`/morph retire`); its fights stay.
    Retire,
    /// A decision naming its target (`/attack TARGET`): refused unless the target is the
    /// speaker's opponent (its name, or its player's nick).
    DecideOn(D, String),
    /// A command that rolls dice out of a fight (a GM's `/check`, its `/redo` and `/keep`),
    /// answered by [`Game::roll`]; in the speaker's own fight here it is the decision given
    /// instead, if any.
    Roll(Option<D>),
}

/// What a command rolled out of a fight did ([`Game::roll`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rolled {
    /// The character's new state, to save; `None` when nothing changed.
    pub state: Option<Value>,
    /// What to say.
    pub lines: Vec<String>,
    /// The events, as JSON with the character named (the core adds the `game` field).
    pub events: Vec<Value>,
}

/// One game on the seam: its engine fight and everything the referee asks of it.
pub trait Game: Sized + Send + Sync + 'static {
    /// The engine's fight.
    type Fight: Fight;

    /// The game's id: `tourney`.
    const ID: &'static str;
    /// Its name in replies: `The Tourney`.
    const NAME: &'static str;
    /// What a character is called: `knight`.
    const CHARACTER: &'static str;
    /// What a fight is called in a challenge: `a bout on foot`.
    const BOUT: &'static str;

    /// The game with the realm's data (its house tables) from the configuration.
    fn new(config: &Config) -> Result<Self>;

    /// Its own command table, read before the core's in its channels.
    fn commands() -> &'static [CommandSpec];

    /// Reads a command of its table, for `character` (the speaker's, if any), on `day`. `npc`
    /// is true for `/npc create`: the creation rules without a budget.
    fn meaning(
        &self,
        command: &GameCommand,
        character: Option<&Character>,
        npc: bool,
        day: &str,
    ) -> Meaning<<Self::Fight as Fight>::Decision>;

    /// The character as it reads on `day` (hits healed, weapons replaced...).
    fn as_of(&self, character: &Character, day: &str) -> Result<AsOf>;

    /// "Sir Ector".
    fn styled(&self, character: &Character) -> String;

    /// Why the character (as of today) cannot fight now, if it cannot.
    fn cannot_fight(&self, character: &Character) -> Result<Option<String>>;

    /// What a fight between the two (as of today, challenger first) starts from.
    fn setup(&self, fighters: [&Character; 2]) -> Result<<Self::Fight as Fight>::Setup>;

    /// What outlasts the finished fight: each character's sheet and state, on `day`.
    fn after(&self, fight: &Self::Fight, fighters: [&Character; 2], day: &str)
        -> Result<[AsOf; 2]>;

    /// The finished fight's outcome, for the books.
    fn outcome(&self, fight: &Self::Fight) -> Value;

    /// One event as JSON, fighters named by `names` (without the `game` field, which the core
    /// adds).
    fn event_json(&self, event: &<Self::Fight as Fight>::Event, names: &[String; 2]) -> Value;

    /// Narration of events, for the channel.
    fn narrate(&self, events: &[<Self::Fight as Fight>::Event], sides: &Sides) -> Vec<String>;

    /// A prompt as one line: who, what, the options, the deadline and its default.
    fn prompt(
        &self,
        fight: &Self::Fight,
        prompt: &Prompt<<Self::Fight as Fight>::Decision>,
        sides: &Sides,
        left_secs: u64,
    ) -> String;

    /// Where the fight stands, for `/status`: "Round 3; Sir Ector is down."
    fn stage(&self, fight: &Self::Fight, sides: &Sides) -> String;

    /// A refused decision as one line: what was wrong and what to do instead.
    fn refusal(
        &self,
        fight: &Self::Fight,
        error: &<Self::Fight as Fight>::Error,
        sides: &Sides,
        side: Side,
    ) -> String;

    /// A character's sheet and state, for `/sheet` and the game's show command.
    fn sheet_lines(&self, character: &Character) -> Result<Vec<String>>;

    /// `/rules [TOPIC]`: the game's rules summed up in chat, citing its rulings; without a
    /// summary of its own, a game points to its commands.
    fn rules(&self, topic: Option<&str>) -> Vec<String> {
        let _ = topic;
        vec![format!(
            "{} has no summary of its rules in chat; /help lists its commands and how to use each.",
            Self::NAME
        )]
    }

    /// After a fight, what the default policy does for an NPC between fights (T19: the
    /// smith), as a change to save; `None` when nothing.
    fn npc_between_fights(&self, character: &Character, day: &str) -> Option<AsOf>;

    /// Answers a [`Meaning::Roll`] for `character` (as of today, not fighting), rolling
    /// `dice`. None in a game without such commands.
    fn roll(
        &self,
        command: &GameCommand,
        character: &Character,
        now: DateTime<Utc>,
        dice: &mut dyn RollSource,
    ) -> Rolled {
        let _ = (character, now, dice);
        Rolled {
            lines: vec![format!(
                "/{} rolls nothing in {}; /help lists its commands.",
                command.name,
                Self::NAME
            )],
            ..Rolled::default()
        }
    }

    /// When reading `character` on `day` recovers it (a new day's rest): the sheet and state
    /// to save at once, and the event to log. None in a game whose recovery is only read.
    fn recovery(&self, character: &Character, day: &str) -> Result<Option<(AsOf, Value)>> {
        let _ = (character, day);
        Ok(None)
    }

    /// An offer the character's state holds out of a fight (the GM's check's redo, PM27):
    /// when it lapses, and the command it then takes (`/keep`). `None` in a game without one.
    fn lapse(&self, character: &Character) -> Option<(DateTime<Utc>, &'static str)> {
        let _ = character;
        None
    }

    /// Whether the character no longer counts as its player's (dead): its player may create
    /// another, and the old one is then retired.
    fn gone(&self, character: &Character) -> bool {
        let _ = character;
        false
    }

    /// The event of a challenge's step (`challenge`, `accepted`, `declined`), if the game
    /// logs one; `by` took the step.
    fn challenge_event(&self, kind: &'static str, sides: &Sides, by: Side) -> Option<Value> {
        let _ = (kind, sides, by);
        None
    }

    /// Reads a command of its table during `fight`, for `side`: a decision that names the
    /// fight's creatures, which [`Game::meaning`] cannot resolve. `None` leaves the command to
    /// [`Game::meaning`].
    fn meaning_in_fight(
        &self,
        _fight: &Self::Fight,
        _side: Side,
        _command: &GameCommand,
    ) -> Option<Meaning<<Self::Fight as Fight>::Decision>> {
        None
    }

    /// A decision as its command line, for "... takes /attack Brim stab": by default its
    /// `Display`.
    fn decision_text(
        &self,
        _fight: &Self::Fight,
        decision: &<Self::Fight as Fight>::Decision,
    ) -> String {
        decision.to_string()
    }

    /// Why the character (as of today) may not issue a challenge, if it may not (a mind that
    /// is not psionic, PC33).
    fn cannot_challenge(&self, _character: &Character) -> Result<Option<String>> {
        Ok(None)
    }

    /// The most creatures a side may field: more than one lets `/CHALLENGE FOE,FOE --with
    /// ALLY` fight in groups ([`Meaning::Group`]).
    const MAX_SIDE: usize = 1;

    /// What a group fight starts from: the fighters in listing order, the first `challengers`
    /// of them the challenger's side. By default only a duel.
    fn group_setup(
        &self,
        fighters: &[&Character],
        challengers: usize,
    ) -> Result<<Self::Fight as Fight>::Setup> {
        match fighters {
            [a, b] if challengers == 1 => self.setup([a, b]),
            _ => anyhow::bail!("{} fights one against one", Self::NAME),
        }
    }

    /// What outlasts a finished group fight, for each fighter in listing order.
    fn group_after(
        &self,
        fight: &Self::Fight,
        fighters: &[&Character],
        day: &str,
    ) -> Result<Vec<AsOf>> {
        match fighters {
            [a, b] => Ok(self.after(fight, [a, b], day)?.into()),
            _ => anyhow::bail!("{} fights one against one", Self::NAME),
        }
    }

    /// Whether the member lost the finished fight whatever its side did (it yielded, PC32).
    fn lost_alone(&self, _fight: &Self::Fight, _member: usize) -> bool {
        false
    }

    /// Which member a prompt awaits: by default its side's one creature.
    fn member_awaited(
        &self,
        _fight: &Self::Fight,
        prompt: &Prompt<<Self::Fight as Fight>::Decision>,
    ) -> usize {
        prompt.side.index()
    }

    /// [`Game::meaning_in_fight`] for the player of `member`: a game of groups makes the
    /// decision that member's own.
    fn meaning_of_member(
        &self,
        fight: &Self::Fight,
        side: Side,
        _member: usize,
        command: &GameCommand,
    ) -> Option<Meaning<<Self::Fight as Fight>::Decision>> {
        self.meaning_in_fight(fight, side, command)
    }

    /// [`Game::challenge_event`] with the step taken by `member`.
    fn member_challenge_event(
        &self,
        kind: &'static str,
        sides: &Sides,
        member: usize,
    ) -> Option<Value> {
        let side = sides
            .members
            .get(member)
            .map_or(Side::Challenger, |m| m.side);
        self.challenge_event(kind, sides, side)
    }

    /// [`Game::event_json`] with every member named, in listing order.
    fn member_event_json(&self, event: &<Self::Fight as Fight>::Event, names: &[String]) -> Value {
        let two = [
            names.first().cloned().unwrap_or_default(),
            names.get(1).cloned().unwrap_or_default(),
        ];
        self.event_json(event, &two)
    }

    /// A refused decision of `member`, as one line.
    fn member_refusal(
        &self,
        fight: &Self::Fight,
        error: &<Self::Fight as Fight>::Error,
        sides: &Sides,
        member: usize,
    ) -> String {
        let side = sides
            .members
            .get(member)
            .map_or(Side::Challenger, |m| m.side);
        self.refusal(fight, error, sides, side)
    }
}

/// Makes a channel's table of fights for a game on the seam.
pub type MakeTable = fn(Arc<App>, Id, &str) -> Result<Box<dyn Table>>;

/// `herald verify` of one fight of a game on the seam.
pub type Verify = fn(&Store, Id) -> BoxFuture<'_, Result<Report>>;

/// Two characters of a game, by name, in a realm, as they read on a day, for `herald
/// simulate`'s arguments.
pub type FindMatchup = for<'a> fn(
    &'a Store,
    &'a Config,
    Id,
    [&'a str; 2],
    &'a str,
    &'a crate::simulate::Args,
) -> BoxFuture<'a, Result<crate::simulate::Lookup>>;

/// A game as the channel's game is looked up: its id, its name and its table.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The id: `psiknight`, `tourney`.
    pub id: &'static str,
    /// The name: `PsiKnight`, `The Tourney`.
    pub name: &'static str,
    /// Its channel's table, read before [`FALLBACK`].
    pub commands: fn() -> &'static [CommandSpec],
    /// How to start a fight, for `/game`.
    pub start: &'static str,
    /// A channel's table of fights.
    pub table: MakeTable,
    /// Checks the game's realm data in the configuration.
    pub check: fn(&Config) -> Result<()>,
    /// `herald verify` for a fight of the game.
    pub verify: Verify,
    /// Two of its characters, ready for `herald simulate`.
    pub matchup: FindMatchup,
    /// A character's sheet and state as the game shows them (`/sheet`), for the web's pages.
    pub sheet_lines: SheetLines,
    /// A fight of the game told again from the books, each step in the words its channel read.
    pub replay: replay::ReplayFight,
    /// Whether a command of its table is a move in a fight (a decision that takes a turn, a
    /// challenge), after which earlier buttons no longer stand; the shared `/accept` and
    /// `/decline` are moves in every game.
    pub is_move: fn(&CommandSpec) -> bool,
    /// A page of the fights of the speaker's or a named fighter, for `/fights`.
    pub fights_of: crate::history::FightsOf,
    /// What the game keeps in books of its own beyond the one fight log, which the hub asks
    /// about at start-up and for a private command; `None` for a game without.
    pub own_books: Option<&'static OwnBooks>,
    /// How the transports treat a command of the game's own ([`privacy`]); [`open`] for a
    /// game whose commands are all played in the open.
    pub privacy: fn(&crate::command::Command) -> Privacy,
    /// The label of one of its fixed choices (a slash command's option, a menu's entry):
    /// "Clairvoyance" for `clairvoyance`; `None` when the word is its own label.
    pub choice_label: fn(&str) -> Option<String>,
    /// The menu of a declaration its fighters may make beside their prompts on Discord
    /// (PsiKnight's psi, R21); `None` for a game without.
    pub menu: Option<&'static Menu>,
}

/// A declaration made from a menu under a fighter's prompt on Discord: its command word, what
/// the menu asks and its choices. A choice made is the line `/WORD CHOICE`; a declaration
/// changes no one's turn, so the message's buttons stay.
#[derive(Debug)]
pub struct Menu {
    /// The command word: `psi`.
    pub word: &'static str,
    /// What the menu asks, after the fighter's name: "arm a psi skill…".
    pub asks: &'static str,
    /// The choices, as typed after the word.
    pub choices: &'static [&'static str],
    /// A choice's label.
    pub label: fn(&str) -> String,
}

/// The menu whose command word is `word`, of whichever game has it.
pub fn menu(word: &str) -> Option<&'static Menu> {
    GAMES.iter().filter_map(|g| g.menu).find(|m| m.word == word)
}

/// How the transports treat a command: where it may be said and who reads its answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Privacy {
    /// It touches no channel's challenge or fight (a sheet, the books, a roll, help), so it
    /// works by private message; the rest is answered with where to say it.
    pub by_message: bool,
    /// Its answer is for its asker's eyes alone (a sheet, the books, help, a secret).
    pub answered_privately: bool,
    /// A secret declaration (PsiKnight's psi, R21): by private message it is made in the
    /// channel where the speaker fights.
    pub secret: bool,
}

impl Privacy {
    /// Said and answered in the open.
    pub const OPEN: Privacy = Privacy {
        by_message: false,
        answered_privately: false,
        secret: false,
    };
    /// Works by private message; answered in the open where it is said.
    pub const ANYWHERE: Privacy = Privacy {
        by_message: true,
        answered_privately: false,
        secret: false,
    };
    /// Works by private message, and answered to its asker alone.
    pub const ASKER: Privacy = Privacy {
        by_message: true,
        answered_privately: true,
        secret: false,
    };
}

/// [`GameInfo::privacy`] of a game whose own commands are all played in the open.
pub fn open(_: &crate::command::Command) -> Privacy {
    Privacy::OPEN
}

/// [`GameInfo::choice_label`] of a game whose choices are their own labels.
pub fn no_labels(_: &str) -> Option<String> {
    None
}

/// How the transports treat `command`: a command every game shares as the core says, a game's
/// own as its folder says ([`GameInfo::privacy`]).
pub fn privacy(command: &crate::command::Command) -> Privacy {
    use crate::command::Command;
    match command {
        Command::Roll { .. } | Command::Odds { .. } => Privacy::ANYWHERE,
        // A fight's history, help and a link code reach their asker alone.
        Command::Fight { .. }
        | Command::Fights { .. }
        | Command::Help { .. }
        | Command::Link { .. }
        | Command::Unlink => Privacy::ASKER,
        other => GAMES
            .iter()
            .map(|g| (g.privacy)(other))
            .find(|p| *p != Privacy::OPEN)
            .unwrap_or_default(),
    }
}

/// The label of a fixed choice `word` as the game whose word it is gives it, else `None`.
pub fn choice_label(word: &str) -> Option<String> {
    GAMES.iter().find_map(|g| (g.choice_label)(word))
}

/// A game's books of its own, as the hub needs them, so that the hub names none of them.
pub struct OwnBooks {
    /// The channels holding something of the game's (a tournament, with its number) that each
    /// loads at start-up and after a schedule.
    pub holding: Holding,
    /// The channels where a player's character fights or is enlisted (the places a private
    /// command may be meant for), beyond the challenges the sessions tell.
    pub engaged: EngagedIn,
    /// Its sections of `herald export`'s readable part, each with its name.
    pub export: ExportSections,
}

/// [`OwnBooks::export`]: a game's sections of the export.
pub type ExportSections =
    for<'a> fn(&'a Store) -> BoxFuture<'a, Result<Vec<(&'static str, Value)>>>;

/// [`OwnBooks::holding`]: each tournament's number and channel.
pub type Holding = for<'a> fn(&'a Store, Id) -> BoxFuture<'a, Result<Vec<(Id, String)>>>;

/// [`OwnBooks::engaged`]: the channels of a player in a realm.
pub type EngagedIn = for<'a> fn(&'a App, Id, &'a str) -> BoxFuture<'a, Result<Vec<String>>>;

impl std::fmt::Debug for OwnBooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OwnBooks")
    }
}

/// [`GameInfo::sheet_lines`]: a character's sheet and state in lines.
pub type SheetLines = fn(&Config, &Character) -> Result<Vec<String>>;

/// [`GameInfo::sheet_lines`] of a game on the seam: its [`Game::sheet_lines`].
pub fn sheet_lines<G: Game>(config: &Config, character: &Character) -> Result<Vec<String>> {
    G::new(config)?.sheet_lines(character)
}

/// [`GameInfo::is_move`] of a game whose moves are its decisions: an entry of its `/help`
/// heading Decisions.
pub fn decides(spec: &CommandSpec) -> bool {
    spec.group == crate::command::Group::Decisions
}

/// PsiKnight, the first game.
pub const PSIKNIGHT: GameInfo = GameInfo {
    id: <psiknight::PsiKnight as crate::referee::Ruleset>::ID,
    name: <psiknight::PsiKnight as crate::referee::Ruleset>::NAME,
    commands: || &psiknight::commands::COMMANDS,
    start: "create a knight with /knight create NAME --top S,S,S --psi P:N --monarch M, then /joust TARGET",
    table: crate::referee::table::<psiknight::PsiKnight>,
    check: |_| Ok(()),
    verify: |store, id| Box::pin(psiknight::verify::verify_joust(store, id)),
    matchup: psiknight::simulate::matchup,
    sheet_lines: psiknight::sheet_lines,
    replay: psiknight::replay::replay,
    is_move: psiknight::commands::is_move,
    fights_of: psiknight::desk::fights_of,
    own_books: Some(&psiknight::OWN_BOOKS),
    privacy: psiknight::commands::privacy,
    choice_label: psiknight::commands::choice_label,
    menu: Some(&psiknight::commands::PSI_MENU),
};

/// The command words every game shares: they mean the same in every channel.
pub const COMMON: &[&str] = &[
    "accept",
    "decline",
    "status",
    "help",
    "roll",
    "rol",
    "game",
    "sheet",
    "record",
    "challenge",
    "npc",
    "as",
    "link",
    "unlink",
];

/// Every game Herald referees.
pub const GAMES: &[GameInfo] = &[
    PSIKNIGHT,
    GameInfo {
        id: tourney::Tourney::ID,
        name: tourney::Tourney::NAME,
        commands: tourney::Tourney::commands,
        start: "create a knight with /knight create NAME [--weapon W] [--skill W:N,...] [--strength N], then /challenge TARGET",
        table: crate::referee::table::<crate::referee::Characters<tourney::Tourney>>,
        check: |config| tourney::Tourney::new(config).map(drop),
        verify: crate::referee::verify::<tourney::Tourney>,
        matchup: crate::simulate::matchup::<tourney::Tourney>,
        sheet_lines: sheet_lines::<tourney::Tourney>,
        replay: replay::bout::<tourney::Tourney>,
        is_move: decides,
        fights_of: crate::history::of_character,
        own_books: None,
        privacy: open,
        choice_label: no_labels,
        menu: None,
    },
    GameInfo {
        id: pfpduel::PfpDuel::ID,
        name: pfpduel::PfpDuel::NAME,
        commands: pfpduel::PfpDuel::commands,
        start: "create a psionist with /psionist create NAME, then /challenge TARGET",
        table: crate::referee::table::<crate::referee::Characters<pfpduel::PfpDuel>>,
        check: |config| pfpduel::PfpDuel::new(config).map(drop),
        verify: crate::referee::verify::<pfpduel::PfpDuel>,
        matchup: crate::simulate::matchup::<pfpduel::PfpDuel>,
        sheet_lines: sheet_lines::<pfpduel::PfpDuel>,
        replay: replay::bout::<pfpduel::PfpDuel>,
        is_move: decides,
        fights_of: crate::history::of_character,
        own_books: None,
        privacy: open,
        choice_label: no_labels,
        menu: None,
    },
    GameInfo {
        id: psimorphs::PsiMorphs::ID,
        name: psimorphs::PsiMorphs::NAME,
        commands: psimorphs::PsiMorphs::commands,
        start: "create a morph with /morph create NAME [--str N ...] (see /help morph create), then /fight TARGET",
        table: crate::referee::table::<crate::referee::Characters<psimorphs::PsiMorphs>>,
        check: |config| psimorphs::PsiMorphs::new(config).map(drop),
        verify: crate::referee::verify::<psimorphs::PsiMorphs>,
        matchup: crate::simulate::matchup::<psimorphs::PsiMorphs>,
        sheet_lines: sheet_lines::<psimorphs::PsiMorphs>,
        replay: replay::bout::<psimorphs::PsiMorphs>,
        is_move: decides,
        fights_of: crate::history::of_character,
        own_books: None,
        privacy: open,
        choice_label: no_labels,
        menu: None,
    },
    GameInfo {
        id: powerpool::PowerPool::ID,
        name: powerpool::PowerPool::NAME,
        commands: powerpool::PowerPool::commands,
        start: "create a creature with /creature create NAME --kind psionicist|wild|none --hd N [--attack M,M] [--defense M,M], then /psicombat FOE",
        table: crate::referee::table::<crate::referee::Characters<powerpool::PowerPool>>,
        check: |config| powerpool::PowerPool::new(config).map(drop),
        verify: crate::referee::verify::<powerpool::PowerPool>,
        matchup: crate::simulate::matchup::<powerpool::PowerPool>,
        sheet_lines: sheet_lines::<powerpool::PowerPool>,
        replay: replay::bout::<powerpool::PowerPool>,
        is_move: decides,
        fights_of: crate::history::of_character,
        own_books: None,
        privacy: open,
        choice_label: no_labels,
        menu: None,
    },
];

/// Whether `word` (lower case, without its prefix) is a command of any game, the core's
/// included: a transport that shares its prefix with other bots answers only these.
pub fn is_command(word: &str) -> bool {
    GAMES.iter().any(|g| {
        (g.commands)()
            .iter()
            .any(|s| s.path.first() == Some(&word) || s.aliases.contains(&word))
    })
}

impl GameInfo {
    /// Reads a line of chat in a channel of this game: its table first, else [`FALLBACK`].
    pub fn parse(
        &self,
        line: &str,
        prefixes: &[char],
    ) -> Option<Result<crate::command::Command, crate::command::ParseError>> {
        crate::command::parse_in(line, prefixes, (self.commands)())
    }
}

/// The table a line is read by where no channel's game is known (a private message on IRC,
/// Discord's registration beside each game's own): PsiKnight's, the shared commands among
/// its own. A channel reads its own game's table, then the shared commands alone
/// ([`crate::command::SHARED`]).
pub static FALLBACK: &[CommandSpec] = &psiknight::commands::COMMANDS;

/// PsiKnight's odds between two knights' sheets, for the web's page of a joust's odds.
pub use psiknight::simulate::odds as knight_odds;

/// The game a command (its words, `joust`, `knight create`) belongs to, for "/joust is a
/// command of PsiKnight": the first other game whose table has it, else `here`.
pub fn owner_of(words: &str, here: &'static GameInfo) -> &'static GameInfo {
    GAMES
        .iter()
        .filter(|g| g.id != here.id)
        .find(|g| (g.commands)().iter().any(|s| s.name() == words))
        .unwrap_or(here)
}

/// A game by id, any case.
pub fn find(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id.eq_ignore_ascii_case(id.trim()))
}

/// Checks every game's realm data in the configuration.
pub fn check(config: &Config) -> Result<()> {
    GAMES.iter().try_for_each(|g| (g.check)(config))
}

/// The ids of every game, for messages: "psiknight, tourney".
pub fn ids() -> String {
    GAMES.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
}

/// What a fight of `fighters` (in listing order, the first `challengers` the challenger's)
/// starts from: a duel's [`Game::setup`], else the game's [`Game::group_setup`].
pub(crate) fn setup_of<G: Game>(
    game: &G,
    fighters: &[&Character],
    challengers: usize,
) -> Result<<G::Fight as Fight>::Setup> {
    match fighters {
        [a, b] => game.setup([a, b]),
        _ => game.group_setup(fighters, challengers),
    }
}
