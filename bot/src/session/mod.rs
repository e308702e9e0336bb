//! A channel's session: the game the channel plays and its table of fights (a [`Table`] for
//! whichever game it is), driven by commands and deadlines.
//!
//! A session never reads a clock: `now` comes with every call, from the transport's clock (the
//! wall clock live, the transcript's `@clock` in scripts). Before each command it fires any
//! deadline already past, so a command always meets the channel as it stands; the common
//! commands are answered here or by the core, the game's own by its table.

use crate::app::Rights;
use crate::app::{App, ChannelGame};
use crate::command::{Access, Command};
use crate::dice::FightDice;
use crate::games::GameInfo;
use crate::referee::Table;
use crate::store::{Id, OpenLogged};
use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use herald_engine::dice::SeededDice;
use herald_engine::notation;
use std::sync::Arc;

mod narration;

/// One channel's state.
pub struct Session {
    app: Arc<App>,
    realm: Id,
    channel: String,
    /// The fights of the channel's game, made on first use.
    table: Option<Box<dyn Table>>,
    /// The channel's game, once looked up (the cell the hub reads too); only this session
    /// changes it (`/game`).
    game: Option<Arc<ChannelGame>>,
    /// The channel's narration, once looked up; only this session changes it (`/narration`).
    narration: Option<crate::narration::Narration>,
    /// The transport's narration, for a channel neither the configuration nor a moderator set.
    narration_default: crate::narration::Narration,
}

pub use crate::reply::Lines;

use crate::reply::UNWRITTEN as SORRY;

impl Session {
    /// An idle session for a channel of a realm.
    pub fn new(app: Arc<App>, realm: Id, channel: &str) -> Session {
        Session {
            app,
            realm,
            channel: channel.to_string(),
            table: None,
            game: None,
            narration: None,
            narration_default: crate::narration::Narration::Full,
        }
    }

    /// The lines the last command left for its speaker alone (a psi skill armed is the
    /// knight's secret until it fires, R21), taken once.
    pub fn take_private(&mut self) -> Lines {
        self.table
            .as_mut()
            .map(|t| t.take_private())
            .unwrap_or_default()
    }

    /// Whether `user` is a party to the challenge open here.
    pub fn challenges(&self, user: &str) -> bool {
        self.table.as_ref().is_some_and(|t| t.engaged(user))
    }

    /// The channel.
    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// When this session next needs [`Session::on_deadline`], if ever.
    pub fn next_deadline(&self) -> Option<DateTime<Utc>> {
        self.table.as_ref().and_then(|t| t.next_deadline())
    }

    /// Whether a fight is in progress here.
    pub fn has_fight(&self) -> bool {
        self.table.as_ref().is_some_and(|t| t.has_fight())
    }

    /// Whether the table held is the channel's game's.
    fn holds_table(&self) -> bool {
        let (Some(game), Some(table)) = (&self.game, &self.table) else {
            return false;
        };
        table.game() == game.get().id
    }

    /// The table of the channel's game, made on first use.
    async fn table(&mut self) -> Result<&mut Box<dyn Table>> {
        let game = self.game().await?;
        self.table_of(game).await
    }

    /// The table of `game` here, made (and told the channel's narration) unless it is the one
    /// already held.
    async fn table_of(&mut self, game: &'static GameInfo) -> Result<&mut Box<dyn Table>> {
        if self.table.as_ref().is_none_or(|t| t.game() != game.id) {
            let mut table = (game.table)(self.app.clone(), self.realm, &self.channel)?;
            table.set_narration(self.narration().await?);
            self.table = Some(table);
        }
        self.table.as_mut().context("a table was just made")
    }

    /// The channel's game. The lookup is boxed: every channel's task would otherwise be sized
    /// for a database read it makes once.
    async fn game(&mut self) -> Result<&'static GameInfo> {
        if let Some(game) = &self.game {
            return Ok(game.get());
        }
        let game = Box::pin(self.app.channel_game(self.realm, &self.channel)).await?;
        let playing = game.get();
        self.game = Some(game);
        Ok(playing)
    }

    /// `/game [ID]`: which game the channel plays, or a moderator's change of it.
    async fn set_game(
        &mut self,
        user: &str,
        rights: Rights,
        wanted: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let current = self.game().await?;
        let Some(wanted) = wanted else {
            return Ok(vec![format!(
                "{} plays {} ({}): {}. /help lists its commands.",
                self.channel, current.name, current.id, current.start
            )]);
        };
        if !(rights.moderator || self.app.permissions(self.realm).is_moderator(user)) {
            return Ok(vec![format!(
                "Only a moderator may change the game of {}; it plays {}.",
                self.channel, current.name
            )]);
        }
        let Some(game) = crate::games::find(wanted) else {
            return Ok(vec![format!(
                "'{}' is not a game Herald referees; the games are {}. Usage: /game ID",
                wanted.trim(),
                crate::games::ids()
            )]);
        };
        if self.table.as_ref().is_some_and(|t| t.busy()) {
            return Ok(vec![format!(
                "{} keeps playing {} while a fight, a challenge or a tournament is open here; change it once they are over.",
                self.channel, current.name
            )]);
        }
        if game.id == current.id {
            return Ok(vec![format!(
                "{} already plays {}.",
                self.channel, game.name
            )]);
        }
        self.app
            .set_game_of(self.realm, &self.channel, game, user, now)
            .await?;
        self.table = None;
        Ok(vec![format!(
            "{} now plays {} ({}): {}.",
            self.channel, game.name, game.id, game.start
        )])
    }

    /// Handles one command from `user`, refusing commands above their rights.
    pub async fn handle(
        &mut self,
        user: &str,
        rights: Rights,
        command: Command,
        now: DateTime<Utc>,
    ) -> Lines {
        // What an earlier command left unsaid to its speaker is not this one's to say.
        let _ = self.take_private();
        // A deadline already past (the timer not yet run, or the process down when it fell due)
        // is settled first, so the command meets the channel as it now stands.
        let mut lines = self.catch_up(now).await;
        lines.extend(self.handle_now(user, rights, command, now).await);
        lines
    }

    /// Fires every deadline due by `now`, in order, including those the firing creates.
    async fn catch_up(&mut self, now: DateTime<Utc>) -> Lines {
        let mut lines = Vec::new();
        // Each firing moves the deadline on, so this ends; the bound guards against one that
        // would not.
        for _ in 0..1_000 {
            if self.next_deadline().is_none_or(|d| d > now) {
                break;
            }
            lines.extend(self.on_deadline(now).await);
        }
        lines
    }

    async fn handle_now(
        &mut self,
        user: &str,
        rights: Rights,
        command: Command,
        now: DateTime<Utc>,
    ) -> Lines {
        // Every command's access is checked here, once (the grammar's table says who may use it).
        let permissions = self.app.permissions(self.realm);
        match command.access() {
            Access::Admin if !permissions.is_admin(user) => {
                return vec![format!(
                    "Only an admin may use /{}; admins are named under [permissions] in the configuration.",
                    command.name()
                )];
            }
            Access::Moderator if !(rights.moderator || permissions.is_moderator(user)) => {
                return vec![format!(
                    "Only a moderator may use /{}; moderators are named under [permissions] in the configuration, or hold one of its moderator_roles on Discord.",
                    command.name()
                )];
            }
            _ => {}
        }
        let answered = match &command {
            Command::SetGame { game } => {
                Box::pin(self.set_game(user, rights, game.as_deref(), now)).await
            }
            Command::Narration { mode } => {
                Box::pin(self.set_narration(user, rights, mode.as_deref(), now)).await
            }
            _ => self.dispatch(user, rights, command, now).await,
        };
        match answered {
            Ok(lines) => lines,
            Err(err) => {
                tracing::error!(channel = %self.channel, "{err:#}");
                vec![SORRY.to_string()]
            }
        }
    }

    async fn dispatch(
        &mut self,
        user: &str,
        rights: Rights,
        command: Command,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let channel = self.channel.clone();
        // The table held, without a future the size of making one: a move's future is boxed
        // for every command, and a small box is the allocator's fast path.
        let table = match self.holds_table() {
            true => self.table.as_mut().context("a table is held")?,
            false => Box::pin(self.table()).await?,
        };
        if let Some(lines) = table.handle(user, rights, &command, now).await? {
            return Ok(lines);
        }
        let game = self.game().await?;
        match command {
            Command::Roll { expr } => Ok(vec![roll(&self.app, user, &expr)]),
            Command::Help { topic } => Ok(crate::command::help(topic.as_deref(), '/')),
            c if crate::history::handles(&c) => {
                Box::pin(crate::history::handle(
                    &self.app, self.realm, game.id, user, c,
                ))
                .await
            }
            other => {
                let words = other.words();
                Ok(vec![format!(
                    "/{words} is a command of {}; {channel} plays {}: /help lists its commands.",
                    crate::games::owner_of(words, game).name,
                    game.name
                )])
            }
        }
    }

    /// A deadline passed: the channel's table settles it (a challenge lapses, the awaited
    /// fighters get their game's defaults, a tournament moves on).
    pub async fn on_deadline(&mut self, now: DateTime<Utc>) -> Lines {
        match &mut self.table {
            Some(t) if t.next_deadline().is_some_and(|d| d <= now) => t.on_deadline(now).await,
            _ => Vec::new(),
        }
    }

    /// Restores an open fight of `game` from the books, and says where it stands.
    pub async fn restore(&mut self, fight: OpenLogged, now: DateTime<Utc>) -> Result<Lines> {
        let game = crate::games::find(&fight.game)
            .with_context(|| format!("a fight here is of an unknown game, {}", fight.game))?;
        self.table_of(game).await?.restore(fight, now).await
    }

    /// Loads what the channel's game holds here from the books (its tournaments): after a
    /// schedule (saying so when `announce`), and at start-up.
    pub async fn load(&mut self, announce: bool, now: DateTime<Utc>) -> Result<Lines> {
        self.table().await?.load(announce, now).await
    }
}

/// `/roll EXPR`: dice out of any fight, from a fresh seed behind the `@dice` queue.
fn roll(app: &App, user: &str, expr: &str) -> String {
    let mut rng = SeededDice::new(app.next_seed());
    let mut dice = FightDice::new(&mut rng, &app.queue);
    match notation::roll(expr, &mut dice) {
        Ok(rolled) => format!("{user} rolls {rolled}"),
        Err(e) => format!("Cannot roll '{expr}': {e}. Usage: /roll EXPR, e.g. /roll 100, /roll 2d6+3, /roll 4d6kh3"),
    }
}
