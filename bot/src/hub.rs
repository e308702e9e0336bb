//! The hub: routes each incoming line to its channel's session actor, one tokio task per active
//! channel, so a channel's commands are handled in order while channels run in parallel.

use crate::app::{App, ChannelGame};
use crate::clock::Clock;
use crate::command::Command;
use crate::games::GameInfo;
use crate::narration::Narration;
use crate::reply::Lines;
use crate::session::Session;
use crate::store::Id;
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// A line of chat from a transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// Where it was said (the place): the IRC network, the Discord guild, or `local` for console
    /// and scripts. Its realm is the configuration's `[realms.NAME]` listing it, else itself.
    pub realm: String,
    /// The channel (or the user's name for a private message).
    pub channel: String,
    /// Who spoke.
    pub user: String,
    /// What they said.
    pub text: String,
}

pub use crate::app::Rights;

/// A line for a channel, from a timeout rather than in answer to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The realm.
    pub realm: String,
    /// The channel.
    pub channel: String,
    /// The text.
    pub text: String,
}

/// What a line of chat is answered with: lines for its channel, and lines for its speaker
/// alone (a psi skill armed is its knight's secret until it fires, R21). Transports send the
/// private lines privately: by private message on IRC, ephemerally on Discord, and as
/// `[to NICK] ...` in the console and in transcripts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// For the channel.
    pub lines: Lines,
    /// For the speaker alone.
    pub private: Lines,
}

/// A session's mail. Sent boxed: a mailbox's slots are then one pointer each, which matters
/// with 10,000 channels open.
enum Msg {
    Command {
        user: String,
        rights: Rights,
        command: Command,
        reply: oneshot::Sender<Answer>,
    },
    Fire {
        reply: oneshot::Sender<Lines>,
    },
    Deadline {
        reply: oneshot::Sender<Option<DateTime<Utc>>>,
    },
    /// Restore an open fight of a game.
    Restore {
        fight: crate::store::OpenLogged,
        reply: oneshot::Sender<Lines>,
    },
    /// Load what the channel's game holds there (its tournaments) from the books.
    Load {
        announce: bool,
        reply: oneshot::Sender<Lines>,
    },
    /// Whether a player is a party to the challenge open in the channel.
    Engaged {
        user: String,
        reply: oneshot::Sender<bool>,
    },
}

type Key = (String, String);

/// A channel's door: its session's mailbox, and what every line said there needs before it
/// gets in (the realm, the channel's name in the books, the game it plays), looked up when
/// the session opens rather than for each line.
struct Door {
    tx: mpsc::Sender<Box<Msg>>,
    realm: Id,
    book: Arc<str>,
    game: Arc<ChannelGame>,
}

/// Where a line goes: its channel's realm, name in the books and game, and the session's
/// mailbox if it is open.
struct Found {
    realm: Id,
    book: Arc<str>,
    game: &'static GameInfo,
    tx: Option<mpsc::Sender<Box<Msg>>>,
}

/// The doors, by place and then channel: found for each line from the line's own names.
type Doors = HashMap<String, HashMap<String, Door>>;

/// Routes lines to session actors.
pub struct Hub {
    app: Arc<App>,
    clock: Arc<Clock>,
    prefixes: Vec<char>,
    sessions: Mutex<Doors>,
    /// Where live timeouts speak; `None` when deadlines are fired by hand (transcripts).
    outbox: Option<mpsc::UnboundedSender<Outgoing>>,
    /// Lines for other channels than the one spoken in, kept for [`Hub::take_notices`] when
    /// there is no outbox.
    notices: Mutex<Vec<Outgoing>>,
    /// How this transport's channels tell fights unless the configuration or a moderator says.
    narration: Narration,
}

const MAILBOX: usize = 16;

impl Hub {
    /// A hub whose sessions fire their own deadlines on `clock` and speak through `outbox`.
    pub fn live(
        app: Arc<App>,
        clock: Arc<Clock>,
        prefixes: Vec<char>,
        outbox: mpsc::UnboundedSender<Outgoing>,
    ) -> Hub {
        Hub {
            app,
            clock,
            prefixes,
            sessions: Mutex::new(HashMap::new()),
            outbox: Some(outbox),
            notices: Mutex::new(Vec::new()),
            narration: Narration::Full,
        }
    }

    /// A hub whose deadlines fire only through [`Hub::advance`] (transcripts).
    pub fn manual(app: Arc<App>, clock: Arc<Clock>, prefixes: Vec<char>) -> Hub {
        Hub {
            app,
            clock,
            prefixes,
            sessions: Mutex::new(HashMap::new()),
            outbox: None,
            notices: Mutex::new(Vec::new()),
            narration: Narration::Full,
        }
    }

    /// The hub with `narration` as its channels' default (compact on IRC and Discord); the
    /// configuration's `[narration]` and a moderator's `/narration` outrank it.
    pub fn with_narration(mut self, narration: Narration) -> Hub {
        self.narration = narration;
        self
    }

    /// The shared state.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// The clock.
    pub fn clock(&self) -> &Arc<Clock> {
        &self.clock
    }

    /// The open door of `channel` in `realm`, if any.
    fn door(&self, realm: &str, channel: &str) -> Option<Found> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let door = sessions.get(realm)?.get(channel)?;
        (!door.tx.is_closed()).then(|| Found {
            realm: door.realm,
            book: door.book.clone(),
            game: door.game.get(),
            tx: Some(door.tx.clone()),
        })
    }

    async fn session(&self, realm: &str, channel: &str) -> Result<mpsc::Sender<Box<Msg>>> {
        if let Some(Found { tx: Some(tx), .. }) = self.door(realm, channel) {
            return Ok(tx);
        }
        let (realm_id, book, game) = self.look_up(realm, channel).await?;
        self.app.store.locate(realm_id, &book, realm);
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let doors = sessions.entry(realm.to_string()).or_default();
        if let Some(door) = doors.get(channel).filter(|d| !d.tx.is_closed()) {
            return Ok(door.tx.clone());
        }
        let (tx, rx) = mpsc::channel(MAILBOX);
        let session =
            Session::new(self.app.clone(), realm_id, &book).with_narration(self.narration);
        let timers = self.outbox.clone().map(|out| Timers {
            clock: self.clock.clone(),
            out,
            place: realm.to_string(),
            channel: channel.to_string(),
        });
        let spoke = self.app.clone();
        tokio::spawn(actor(session, rx, self.clock.clone(), timers, spoke));
        doors.insert(
            channel.to_string(),
            Door {
                tx: tx.clone(),
                realm: realm_id,
                book,
                game,
            },
        );
        Ok(tx)
    }

    /// The place and channel of every session opened.
    fn keys(&self) -> Vec<Key> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions
            .iter()
            .flat_map(|(place, doors)| doors.keys().map(|c| (place.clone(), c.clone())))
            .collect()
    }

    /// The realm, book name and game of a line's channel, and its session if open: for a
    /// channel already open, one lookup.
    async fn find(&self, incoming: &Incoming) -> Result<Found> {
        if let Some(found) = self.door(&incoming.realm, &incoming.channel) {
            return Ok(found);
        }
        let (realm, book, game) = self.look_up(&incoming.realm, &incoming.channel).await?;
        Ok(Found {
            realm,
            book,
            game: game.get(),
            tx: None,
        })
    }

    /// A channel's realm, name in the books and game, as the configuration and the books say.
    async fn look_up(
        &self,
        place: &str,
        channel: &str,
    ) -> Result<(Id, Arc<str>, Arc<ChannelGame>)> {
        let realm = self.app.realm(place).await?;
        let book: Arc<str> = self.app.book_channel(place, channel).into();
        let game = self.app.channel_game(realm, &book).await?;
        Ok((realm, book, game))
    }

    /// Handles one line of chat; returns the replies for its channel (none for ordinary chat).
    /// Lines for the speaker alone are left out: [`Hub::answer`] has them.
    pub async fn handle(&self, incoming: &Incoming) -> Lines {
        self.handle_as(incoming, Rights::default()).await
    }

    /// As [`Hub::handle`], for a speaker whose platform grants `rights`.
    pub async fn handle_as(&self, incoming: &Incoming, rights: Rights) -> Lines {
        self.answer(incoming, rights).await.lines
    }

    /// Handles one line of chat: the replies for its channel and those for its speaker alone.
    pub async fn answer(&self, incoming: &Incoming, rights: Rights) -> Answer {
        let (realm_id, book, game, tx) = match self.find(incoming).await {
            Ok(found) => (found.realm, found.book, found.game, found.tx),
            Err(e) => {
                tracing::error!("cannot tell the game of {}: {e:#}", incoming.channel);
                return unread();
            }
        };
        let parsed = game.parse(&incoming.text, &self.prefixes);
        let command = match parsed {
            None => return Answer::default(),
            Some(Err(e)) => {
                return Answer {
                    lines: vec![match other_game(&incoming.text, &self.prefixes, game) {
                        Some(line) => format!("{line} {} plays {}.", incoming.channel, game.name),
                        None => e.to_string(),
                    }],
                    private: Vec::new(),
                }
            }
            Some(Ok(c)) => c,
        };
        // Linking is the speaker's own account's, whatever game the channel plays.
        let linking = match &command {
            Command::Link { code } => Some(
                crate::link::link(
                    &self.app,
                    realm_id,
                    &incoming.user,
                    code.as_deref(),
                    self.clock.now(),
                )
                .await,
            ),
            Command::Unlink => Some(crate::link::unlink(&self.app, realm_id, &incoming.user).await),
            _ => None,
        };
        if let Some(private) = linking {
            return match private {
                Ok(private) => Answer {
                    lines: Vec::new(),
                    private,
                },
                Err(e) => {
                    tracing::error!("cannot link {}: {e:#}", incoming.user);
                    unwritten()
                }
            };
        }
        // A linked account plays as the account it is linked to, everywhere.
        let user = match self.app.store.account_of(realm_id, &incoming.user).await {
            Ok(user) => user,
            Err(e) => {
                tracing::error!("cannot read the links of {}: {e:#}", incoming.user);
                return unread();
            }
        };
        // A schedule may name another channel to hold the tournament: that channel's session
        // learns of it at once, for its reminders and its start.
        let mut command = command;
        // Where the tournament is held, when that is another place of the realm.
        let mut held_in: Option<String> = None;
        if let Some(channel) = command.held_in_mut() {
            // A channel of another guild (a Discord `<#id>` its gateway listed there) is
            // that guild's, if the guild is of this realm; else it cannot be named here.
            let place = self
                .app
                .place_of_channel(channel)
                .unwrap_or_else(|| incoming.realm.clone());
            if place != incoming.realm {
                let (ours, theirs) = (
                    self.app.config.realm_of(&incoming.realm),
                    self.app.config.realm_of(&place),
                );
                if ours != theirs {
                    return Answer {
                        lines: vec![format!(
                            "{channel} is a channel of another realm ({theirs}); name a channel of {ours} with --channel, or schedule it there."
                        )],
                        private: Vec::new(),
                    };
                }
                held_in = Some(place.clone());
            }
            // A channel named on a joined network is that network's, as the books name it.
            *channel = self.app.book_channel(&place, channel);
            self.app.store.locate(realm_id, channel, &place);
        }
        let scheduled = command.schedules();
        let (reply, answer) = oneshot::channel();
        let msg = Msg::Command {
            user,
            rights,
            command,
            reply,
        };
        let answer = match tx {
            Some(tx) => Self::post(tx, msg, answer).await,
            None => {
                self.ask(&incoming.realm, &incoming.channel, msg, answer)
                    .await
            }
        };
        self.app.spoke(&incoming.realm, &book);
        if scheduled {
            match self
                .load_tournaments(&incoming.realm, Some(&book), true)
                .await
            {
                Ok(notices) => notices.into_iter().for_each(|n| self.notify(n)),
                Err(e) => {
                    tracing::error!("cannot load the tournaments of {}: {e:#}", incoming.realm)
                }
            }
            // Held in another place of the realm: that place's channel learns of it at once.
            if let Some(place) = held_in {
                match self.load_tournaments(&place, Some(&book), true).await {
                    Ok(notices) => notices.into_iter().for_each(|n| self.notify(n)),
                    Err(e) => tracing::error!("cannot load the tournaments of {place}: {e:#}"),
                }
            }
        }
        answer
    }

    /// The channels of `realm` where `user` has a challenge, a fight or a tournament under way
    /// (the places a private `/psi` may be meant for), sorted.
    pub async fn engaged(&self, realm: &str, user: &str) -> Result<Vec<String>> {
        let realm_id = self.app.realm(realm).await?;
        let account = self.app.store.account_of(realm_id, user).await?;
        let user = account.as_str();
        let mut channels = Vec::new();
        // Held elsewhere in the realm (another network's channel) is not this place's.
        let here = |book: String| {
            let channel = self.app.transport_channel(realm, &book).to_string();
            (self.app.book_channel(realm, &channel) == book).then_some(channel)
        };
        for books in crate::games::GAMES.iter().filter_map(|g| g.own_books) {
            let held = (books.engaged)(&self.app, realm_id, user).await?;
            channels.extend(held.into_iter().filter_map(here));
        }
        let keys: Vec<Key> = self
            .keys()
            .into_iter()
            .filter(|(r, _)| r == realm)
            .collect();
        for (r, channel) in keys {
            let (reply, answer) = oneshot::channel();
            let msg = Msg::Engaged {
                user: user.to_string(),
                reply,
            };
            if self.ask(&r, &channel, msg, answer).await {
                channels.push(channel);
            }
        }
        channels.sort();
        channels.dedup();
        Ok(channels)
    }

    /// Has each channel holding a tournament of `realm` load it, except `skip` (which already
    /// has); returns what they said.
    async fn load_tournaments(
        &self,
        realm: &str,
        skip: Option<&str>,
        announce: bool,
    ) -> Result<Vec<Outgoing>> {
        let realm_id = self.app.realm(realm).await?;
        // Only the tournaments held in this place: another place's are its own process's.
        let places = self.app.store.tournament_places(realm_id).await?;
        let mut channels: Vec<String> = Vec::new();
        for books in crate::games::GAMES.iter().filter_map(|g| g.own_books) {
            let held = (books.holding)(&self.app.store, realm_id).await?;
            channels.extend(
                held.into_iter()
                    .filter(|(id, _)| places.get(id).is_none_or(|p| p == realm))
                    .map(|(_, c)| c)
                    .filter(|c| Some(c.as_str()) != skip)
                    .map(|c| self.app.transport_channel(realm, &c).to_string()),
            );
        }
        channels.sort();
        channels.dedup();
        let mut out = Vec::new();
        for channel in channels {
            let (reply, answer) = oneshot::channel();
            let msg = Msg::Load { announce, reply };
            for text in self.ask(realm, &channel, msg, answer).await {
                out.push(Outgoing {
                    realm: realm.to_string(),
                    channel: channel.clone(),
                    text,
                });
            }
        }
        Ok(out)
    }

    /// Says a line in a channel other than the one that spoke: through the outbox when live,
    /// else kept for [`Hub::take_notices`].
    fn notify(&self, line: Outgoing) {
        match &self.outbox {
            Some(out) => {
                let _ = out.send(line);
            }
            None => self
                .notices
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line),
        }
    }

    /// Lines said in other channels since the last call (hubs without an outbox).
    pub fn take_notices(&self) -> Vec<Outgoing> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|e| e.into_inner()))
    }

    async fn ask<T: Default>(
        &self,
        realm: &str,
        channel: &str,
        msg: Msg,
        answer: oneshot::Receiver<T>,
    ) -> T {
        match self.session(realm, channel).await {
            Ok(tx) => Self::post(tx, msg, answer).await,
            Err(e) => {
                tracing::error!("cannot open a session for {channel}: {e:#}");
                T::default()
            }
        }
    }

    /// Sends `msg` to a session and awaits its answer; the default if the session is gone.
    async fn post<T: Default>(
        tx: mpsc::Sender<Box<Msg>>,
        msg: Msg,
        answer: oneshot::Receiver<T>,
    ) -> T {
        if tx.send(Box::new(msg)).await.is_err() {
            return T::default();
        }
        answer.await.unwrap_or_default()
    }

    /// Restores every unfinished fight of `realm` (a place: the realm's fights held in its other
    /// places are their processes') from the books, each in its channel, then the tournaments
    /// scheduled or under way, each in the channel holding it.
    pub async fn restore(&self, realm: &str) -> Result<Vec<Outgoing>> {
        let realm_id = self.app.realm(realm).await?;
        let mut out = Vec::new();
        // Every game's open fights of the one log, this place's only: another place's are
        // its own process's.
        let open = self.app.store.open_fights_in(realm_id, realm).await?;
        for fight in open {
            let channel = self
                .app
                .transport_channel(realm, &fight.channel)
                .to_string();
            let (reply, answer) = oneshot::channel();
            let msg = Msg::Restore { fight, reply };
            for text in self.ask(realm, &channel, msg, answer).await {
                out.push(Outgoing {
                    realm: realm.to_string(),
                    channel: channel.clone(),
                    text,
                });
            }
        }
        // After the fights: a tournament whose match was restored must not start another.
        out.extend(self.load_tournaments(realm, None, false).await?);
        Ok(out)
    }

    /// Advances a manual clock to `to`, firing in order every deadline that falls due on the
    /// way, including those the firing itself creates (those due at one instant in the order
    /// of their realm and channel). Returns what they said.
    pub async fn advance(&self, to: DateTime<Utc>) -> Vec<Outgoing> {
        let mut out = Vec::new();
        // Each firing moves its session's deadline forward by at least a second, so this ends;
        // the bound only guards against a session that would not.
        for _ in 0..100_000 {
            let mut earliest: Option<(DateTime<Utc>, Key)> = None;
            for key in self.keys() {
                let (reply, answer) = oneshot::channel();
                if let Some(d) = self
                    .ask(&key.0, &key.1, Msg::Deadline { reply }, answer)
                    .await
                {
                    // Deadlines due at one instant fire in the channels' order, not the map's.
                    let first = earliest.as_ref().is_none_or(|(e, k)| (d, &key) < (*e, k));
                    if d <= to && first {
                        earliest = Some((d, key));
                    }
                }
            }
            let Some((at, key)) = earliest else { break };
            if at > self.clock.now() {
                self.clock.set(at);
            }
            let (reply, answer) = oneshot::channel();
            for text in self.ask(&key.0, &key.1, Msg::Fire { reply }, answer).await {
                out.push(Outgoing {
                    realm: key.0.clone(),
                    channel: key.1.clone(),
                    text,
                });
            }
            self.app
                .spoke(&key.0, &self.app.book_channel(&key.0, &key.1));
        }
        if to > self.clock.now() {
            self.clock.set(to);
        }
        out
    }
}

/// Where a live session's timeouts speak: the transport's place and channel (the session
/// holds the channel's name in the books).
struct Timers {
    clock: Arc<Clock>,
    out: mpsc::UnboundedSender<Outgoing>,
    place: String,
    channel: String,
}

async fn actor(
    mut session: Session,
    mut rx: mpsc::Receiver<Box<Msg>>,
    clock: Arc<Clock>,
    timers: Option<Timers>,
    spoke: Arc<App>,
) {
    loop {
        let wake = match (&timers, session.next_deadline()) {
            (Some(t), Some(d)) => t.clock.instant_at(d),
            _ => None,
        };
        let sleep = async {
            match wake {
                Some(w) => tokio::time::sleep_until(w).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            msg = rx.recv() => {
                let Some(msg) = msg else { break };
                let now = clock.now();
                match *msg {
                    // Boxed so an idle actor holds only a small future (10,000 channels at once).
                    Msg::Command { user, rights, command, reply } => {
                        let lines = Box::pin(session.handle(&user, rights, command, now)).await;
                        let _ = reply.send(Answer { lines, private: session.take_private() });
                    }
                    Msg::Engaged { user, reply } => {
                        let _ = reply.send(session.challenges(&user));
                    }
                    Msg::Fire { reply } => {
                        let _ = reply.send(Box::pin(session.on_deadline(now)).await);
                    }
                    Msg::Deadline { reply } => {
                        let _ = reply.send(session.next_deadline());
                    }
                    Msg::Load { announce, reply } => {
                        let lines = match Box::pin(session.load(announce, now)).await {
                            Ok(lines) => lines,
                            Err(e) => {
                                tracing::error!("cannot load the tournaments of {}: {e:#}", session.channel());
                                vec![format!("A tournament here could not be loaded: {e}")]
                            }
                        };
                        let _ = reply.send(lines);
                    }
                    Msg::Restore { fight, reply } => {
                        let lines = match Box::pin(session.restore(fight, now)).await {
                            Ok(lines) => lines,
                            Err(e) => {
                                tracing::error!("cannot restore a fight: {e:#}");
                                vec![format!("A fight here could not be restored: {e}")]
                            }
                        };
                        let _ = reply.send(lines);
                    }
                }
            }
            () = sleep => {
                if let Some(t) = &timers {
                    for text in Box::pin(session.on_deadline(t.clock.now())).await {
                        let _ = t.out.send(Outgoing { realm: t.place.clone(), channel: t.channel.clone(), text });
                    }
                    spoke.spoke(&t.place, session.channel());
                }
            }
        }
    }
}

/// The answer when the books cannot be read.
fn unread() -> Answer {
    Answer {
        lines: vec![crate::reply::UNREAD.into()],
        private: Vec::new(),
    }
}

/// The answer when the books cannot be written.
fn unwritten() -> Answer {
    Answer {
        lines: vec![crate::reply::UNWRITTEN.into()],
        private: Vec::new(),
    }
}

/// For a line that is no command of the channel's game: the game whose command it is, if
/// another game's ("/stand is a command of The Tourney;"), by name or by another spelling
/// (`/honour`). A word of the channel's own table, one every game shares (`/roll`, `/accept`),
/// or another game's spelling of a command this channel has too (`/rule`), keeps its own error.
fn other_game(text: &str, prefixes: &[char], here: &GameInfo) -> Option<String> {
    let body = text.trim().strip_prefix(|c: char| prefixes.contains(&c))?;
    let word = body.split_whitespace().next()?.to_lowercase();
    let ours = |name: &str| {
        crate::games::COMMON.contains(&name)
            || (here.commands)()
                .iter()
                .chain(crate::command::SHARED.iter())
                .any(|s| s.path.first() == Some(&name) || s.aliases.contains(&name))
    };
    if ours(&word) {
        return None;
    }
    let game = crate::games::GAMES.iter().find(|g| {
        g.id != here.id
            && (g.commands)().iter().any(|s| {
                let name = s.path.first().copied().unwrap_or_default();
                (name == word || s.aliases.contains(&word.as_str())) && !ours(name)
            })
    })?;
    Some(format!("/{word} is a command of {};", game.name))
}
