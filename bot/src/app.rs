//! The shared state of a running Herald: storage, configuration, the dice, and who is fighting.
//! One `Arc<App>` is shared by every session and transport.

use crate::config::Config;
use crate::dice::DiceQueue;
use crate::store::{Id, Store};
use anyhow::Result;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use herald_engine::dice::{Seed, SeededDice};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::games::GameInfo;

/// What a transport knows of a speaker beyond the name: a Discord member with one of the
/// `moderator_roles` is a moderator though the configuration does not list their id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights {
    /// A moderator by the platform's roles.
    pub moderator: bool,
}

/// Something was said in a channel (an answer, or a timeout's lines): the web's live pages
/// re-read the books of that channel when they hear it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The realm's name.
    pub realm: String,
    /// The channel.
    pub channel: String,
}

/// One who hears what is said where ([`App::listen`]), counted while it listens.
pub struct Listener {
    rx: tokio::sync::broadcast::Receiver<Said>,
    listeners: Arc<AtomicUsize>,
}

impl Listener {
    /// The next channel that speaks; an error if notices were missed or none will come.
    pub async fn recv(&mut self) -> Result<Said, tokio::sync::broadcast::error::RecvError> {
        self.rx.recv().await
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.listeners.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The game a channel plays, shared by whatever reads it for every line said there (the hub
/// parsing the line, the channel's session): a moderator's `/game` is one store to it.
#[derive(Debug)]
pub struct ChannelGame(AtomicUsize);

impl ChannelGame {
    fn new(game: &'static GameInfo) -> ChannelGame {
        ChannelGame(AtomicUsize::new(Self::index(game)))
    }

    /// Its place among the games, which are few and fixed: PsiKnight's for an unknown one.
    fn index(game: &GameInfo) -> usize {
        crate::games::GAMES
            .iter()
            .position(|g| g.id == game.id)
            .unwrap_or(0)
    }

    /// The game.
    pub fn get(&self) -> &'static GameInfo {
        &crate::games::GAMES[self.0.load(Ordering::Relaxed)]
    }

    fn set(&self, game: &'static GameInfo) {
        self.0.store(Self::index(game), Ordering::Relaxed);
    }
}

/// The realm of the console room and of transcripts.
pub const LOCAL_REALM: &str = "local";

/// Marks `ids` as held by `channel` in `map`; refuses, naming the holder, if one already is.
fn claim(map: &Mutex<HashMap<Id, String>>, ids: &[Id], channel: &str) -> Result<(), (Id, String)> {
    let mut held = map.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((id, c)) = ids
        .iter()
        .find_map(|k| held.get(k).map(|c| (*k, c.clone())))
    {
        return Err((id, c));
    }
    for &k in ids {
        held.insert(k, channel.to_string());
    }
    Ok(())
}

fn holder(map: &Mutex<HashMap<Id, String>>, id: Id) -> Option<String> {
    map.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .cloned()
}

fn release(map: &Mutex<HashMap<Id, String>>, ids: &[Id]) {
    let mut held = map.lock().unwrap_or_else(|e| e.into_inner());
    for k in ids {
        held.remove(k);
    }
}

/// Shared state. Locks here are `std::sync::Mutex`es held only for short, synchronous work and
/// never across an `.await`.
pub struct App {
    /// The books.
    pub store: Store,
    /// The configuration.
    pub config: Config,
    /// The realm's time zone (R25): `[realm]`'s, for realms that name none of their own.
    pub tz: Tz,
    /// Each `[realms.NAME]`'s settings, rulers and time zone over the global ones, resolved once:
    /// every command asks for them.
    named: HashMap<String, NamedRealm>,
    /// Dice queued by `@dice`, used before any generator.
    pub queue: DiceQueue,
    master: Mutex<SeededDice>,
    busy: Mutex<HashMap<Id, String>>,
    /// Characters of the games on the seam in a fight, by channel.
    engaged: Mutex<HashMap<Id, String>>,
    /// The channels' games, as looked up: the configuration's, or a moderator's choice.
    games: Mutex<HashMap<Id, HashMap<String, Arc<ChannelGame>>>>,
    /// Knights in a tournament under way, by the channel it is held in.
    enlisted: Mutex<HashMap<Id, String>>,
    realms: Mutex<HashMap<String, Id>>,
    /// The place of each channel a transport has listed (a Discord channel's guild), for
    /// channels named from another place (a tournament's `--channel <#id>`).
    channel_places: Mutex<HashMap<String, String>>,
    events: Option<Mutex<Box<dyn Write + Send>>>,
    /// Acts that cannot be undone, asked and awaiting `/confirm` (R173).
    pub confirmations: crate::confirm::Confirmations,
    /// What was said where, for whoever listens (the web's live pages).
    pub said: tokio::sync::broadcast::Sender<Said>,
    /// How many listen to [`App::said`] ([`App::listen`]): read for every line spoken, where
    /// the channel's own count would take its lock.
    listeners: Arc<AtomicUsize>,
    /// How many times a channel has spoken: what the web's pages keep is good until it moves.
    spoken: std::sync::atomic::AtomicU64,
}

/// A `[realms.NAME]` with every setting it leaves out taken from the global ones.
struct NamedRealm {
    tz: Tz,
    settings: crate::config::RealmConfig,
    permissions: crate::config::Permissions,
}

impl App {
    /// Shared state over an open store. `seed` fixes every fight's dice (for scripts and tests);
    /// without it the operating system provides one.
    pub fn new(store: Store, config: Config, seed: Option<u64>) -> Result<App> {
        let tz = config.timezone()?;
        let mut named = HashMap::new();
        for (name, realm) in &config.realms {
            let tz = match &realm.timezone {
                Some(own) => crate::config::parse_timezone(&format!("[realms.{name}]"), own)?,
                None => tz,
            };
            let realm = NamedRealm {
                tz,
                settings: config.realm_settings(name),
                permissions: config.permissions_of(name).into_owned(),
            };
            named.insert(name.clone(), realm);
        }
        let master = match seed {
            Some(n) => SeededDice::from_u64(n),
            None => SeededDice::new(rand::random::<Seed>()),
        };
        Ok(App {
            store,
            config,
            tz,
            named,
            queue: DiceQueue::default(),
            master: Mutex::new(master),
            busy: Mutex::new(HashMap::new()),
            engaged: Mutex::new(HashMap::new()),
            games: Mutex::new(HashMap::new()),
            enlisted: Mutex::new(HashMap::new()),
            realms: Mutex::new(HashMap::new()),
            channel_places: Mutex::new(HashMap::new()),
            events: None,
            confirmations: crate::confirm::Confirmations::default(),
            said: tokio::sync::broadcast::channel(1024).0,
            listeners: Arc::new(AtomicUsize::new(0)),
            spoken: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// Writes every engine event to `sink`, one JSON object per line (`--events`).
    pub fn with_event_sink(mut self, sink: Box<dyn Write + Send>) -> App {
        self.events = Some(Mutex::new(sink));
        self
    }

    /// A fresh seed for a fight, or dice for `/roll`, from the realm's master stream.
    pub fn next_seed(&self) -> Seed {
        self.master
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .next_seed()
    }

    /// The id of the realm of `place` (an IRC network, a Discord guild's id, `local`, or a
    /// realm's own name): the `[realms.NAME]` listing it, else the place's own realm; created
    /// on first use.
    pub async fn realm(&self, place: &str) -> Result<Id> {
        let name = self.config.realm_of(place);
        if let Some(&id) = self
            .realms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(id);
        }
        let id = self.store.realm(name).await?;
        self.realms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), id);
        Ok(id)
    }

    /// Who rules the realm `id` (its `[realms.NAME]` admins and moderators, or `[permissions]`).
    pub fn permissions(&self, id: Id) -> &crate::config::Permissions {
        self.named(id)
            .map_or(&self.config.permissions, |r| &r.permissions)
    }

    /// The `[realms.NAME]` of realm `id`, as resolved at start-up; `None` for a realm the
    /// configuration does not name.
    fn named(&self, id: Id) -> Option<&NamedRealm> {
        if self.named.is_empty() {
            return None;
        }
        let realms = self.realms.lock().unwrap_or_else(|e| e.into_inner());
        let name = realms
            .iter()
            .find(|(_, &r)| r == id)
            .map(|(name, _)| name)?;
        self.named.get(name.as_str())
    }

    /// How the books name `channel` of `place`: as the transport does, except an IRC channel of
    /// a network joined to a named realm, which carries its network (`#lists@libera`), since
    /// two networks of one realm may both have a `#lists`. Discord's channel ids are unique.
    pub fn book_channel(&self, place: &str, channel: &str) -> String {
        if self.config.is_joined(place) && place.parse::<u64>().is_err() {
            format!("{channel}@{place}")
        } else {
            channel.to_string()
        }
    }

    /// The channel as `place`'s transport names it, from its name in the books.
    pub fn transport_channel<'a>(&self, place: &str, book: &'a str) -> &'a str {
        if self.config.is_joined(place) && place.parse::<u64>().is_err() {
            book.strip_suffix(place)
                .and_then(|c| c.strip_suffix('@'))
                .unwrap_or(book)
        } else {
            book
        }
    }

    /// Records that `channels` (as the transport names them) are in `place`: a Discord guild's
    /// channels, as its gateway lists them.
    pub fn know_channels(&self, place: &str, channels: impl IntoIterator<Item = String>) {
        let mut known = self
            .channel_places
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for channel in channels {
            known.insert(channel, place.to_string());
        }
    }

    /// The place of `channel`, if a transport has listed it.
    pub fn place_of_channel(&self, channel: &str) -> Option<String> {
        self.channel_places
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(channel)
            .cloned()
    }

    /// The name of a realm this process has looked up by name ([`App::realm`]).
    pub fn realm_name(&self, id: Id) -> Option<String> {
        self.realms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(_, &r)| r == id)
            .map(|(name, _)| name.clone())
    }

    /// The time zone of realm `realm` (R25): its `[realms.NAME] timezone`, else `[realm]`'s.
    pub fn tz_of(&self, realm: Id) -> Tz {
        self.named(realm).map_or(self.tz, |r| r.tz)
    }

    /// The settings of realm `realm`: its `[realms.NAME]` time zone and timeouts over
    /// `[realm]`'s.
    pub fn settings(&self, realm: Id) -> &crate::config::RealmConfig {
        self.named(realm)
            .map_or(&self.config.realm, |r| &r.settings)
    }

    /// How long a fighter of realm `realm` has for each decision before the default is taken.
    pub fn decision_timeout(&self, realm: Id) -> chrono::Duration {
        seconds(self.settings(realm).decision_timeout_secs)
    }

    /// How long a challenge (or an offer answered like one, R172) of realm `realm` waits for
    /// its `/accept`.
    pub fn challenge_timeout(&self, realm: Id) -> chrono::Duration {
        seconds(self.settings(realm).challenge_timeout_secs)
    }

    /// The calendar day (YYYY-MM-DD) of `at` in realm `realm`'s time zone (R25).
    pub fn day_in(&self, realm: Id, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.tz_of(realm))
            .format("%Y-%m-%d")
            .to_string()
    }

    /// The calendar month (YYYY-MM) of `at` in realm `realm`'s time zone (R25).
    pub fn month_in(&self, realm: Id, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.tz_of(realm))
            .format("%Y-%m")
            .to_string()
    }

    /// The configuration as realm `realm` reads it: its `[realms.NAME]` settings as `[realm]`'s,
    /// for a game made for one realm's table (its timeouts).
    pub fn config_of(&self, realm: Id) -> std::borrow::Cow<'_, Config> {
        match self.named(realm) {
            Some(r) => {
                let mut config = self.config.clone();
                config.realm = r.settings.clone();
                std::borrow::Cow::Owned(config)
            }
            None => std::borrow::Cow::Borrowed(&self.config),
        }
    }

    /// Marks knights as fighting in `channel`; refuses (returning the channel) if one already is.
    pub fn claim(&self, knights: &[Id], channel: &str) -> Result<(), (Id, String)> {
        claim(&self.busy, knights, channel)
    }

    /// Where a knight is fighting, if anywhere.
    pub fn fighting_in(&self, knight: Id) -> Option<String> {
        holder(&self.busy, knight)
    }

    /// Frees knights after their fight.
    pub fn release(&self, knights: &[Id]) {
        release(&self.busy, knights)
    }

    /// As [`App::claim`], for characters of the games on the seam.
    pub fn claim_characters(&self, ids: &[Id], channel: &str) -> Result<(), (Id, String)> {
        claim(&self.engaged, ids, channel)
    }

    /// Where a character of a game on the seam is fighting, if anywhere.
    pub fn character_fighting_in(&self, id: Id) -> Option<String> {
        holder(&self.engaged, id)
    }

    /// Frees characters after their fight.
    pub fn release_characters(&self, ids: &[Id]) {
        release(&self.engaged, ids)
    }

    /// The game a channel plays (a moderator's choice, remembered in the books, else the
    /// configuration's: `[games.channels]`, then `[games] default`), as a cell that every
    /// reader of the channel can keep: a moderator's `/game` changes it for all of them at once.
    pub async fn channel_game(&self, realm: Id, channel: &str) -> Result<Arc<ChannelGame>> {
        let known = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&realm)
            .and_then(|channels| channels.get(channel).cloned());
        if let Some(game) = known {
            return Ok(game);
        }
        let chosen = self.store.channel_game(realm, channel).await?;
        let id = chosen.unwrap_or_else(|| self.config.games.of(channel).to_string());
        let game = crate::games::find(&id).unwrap_or(&crate::games::PSIKNIGHT);
        Ok(self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(realm)
            .or_default()
            .entry(channel.to_string())
            .or_insert_with(|| Arc::new(ChannelGame::new(game)))
            .clone())
    }

    /// Remembers a channel's new game, in the books and here.
    pub async fn set_game_of(
        &self,
        realm: Id,
        channel: &str,
        game: &'static GameInfo,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let cell = self.channel_game(realm, channel).await?;
        self.store
            .set_channel_game(realm, channel, game.id, by, at)
            .await?;
        cell.set(game);
        Ok(())
    }

    /// Marks knights as taking part in the tournament held in `channel`: they fight there, and
    /// nowhere else, until they are out of it.
    pub fn enlist(&self, knights: &[Id], channel: &str) {
        let mut enlisted = self.enlisted.lock().unwrap_or_else(|e| e.into_inner());
        for &k in knights {
            enlisted.insert(k, channel.to_string());
        }
    }

    /// Where a knight is taking part in a tournament, if anywhere.
    pub fn enlisted_in(&self, knight: Id) -> Option<String> {
        self.enlisted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&knight)
            .cloned()
    }

    /// Knights out of their tournament, or at its end.
    pub fn discharge(&self, knights: &[Id]) {
        let mut enlisted = self.enlisted.lock().unwrap_or_else(|e| e.into_inner());
        for k in knights {
            enlisted.remove(k);
        }
    }

    /// Tells the listeners, if any, that `channel` of `realm` just spoke.
    pub fn spoke(&self, realm: &str, channel: &str) {
        self.spoken
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.listeners.load(Ordering::Relaxed) > 0 {
            let _ = self.said.send(Said {
                realm: self.config.realm_of(realm).to_string(),
                channel: channel.to_string(),
            });
        }
    }

    /// Hears what is said where from now on ([`App::spoke`]): the web's live pages.
    pub fn listen(&self) -> Listener {
        self.listeners.fetch_add(1, Ordering::Relaxed);
        Listener {
            rx: self.said.subscribe(),
            listeners: self.listeners.clone(),
        }
    }

    /// How many times a channel has spoken so far ([`App::spoke`]).
    pub fn spoken(&self) -> u64 {
        self.spoken.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes a game's events (JSON objects) to the `--events` sink, each with `"game"`.
    pub fn log_game_events(&self, game: &str, events: impl Iterator<Item = serde_json::Value>) {
        if self.events.is_none() {
            return;
        }
        self.write_events(events.map(|mut e| {
            if let Some(object) = e.as_object_mut() {
                object.insert("game".into(), game.into());
            }
            e.to_string()
        }));
    }

    /// Writes events, each a line of JSON, to the `--events` sink, if any: a game that tells
    /// its events in its own way (PsiKnight's name no game) writes them here.
    pub fn write_events(&self, lines: impl Iterator<Item = String>) {
        let Some(sink) = &self.events else { return };
        let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
        for line in lines {
            if let Err(err) = writeln!(sink, "{line}") {
                tracing::warn!("cannot write an event: {err}");
            }
        }
        let _ = sink.flush();
    }
}

/// A configured timeout as a duration, at most [`crate::config::MAX_TIMEOUT_SECS`] (which the
/// configuration's check enforces at start-up), so that a deadline is always a time.
fn seconds(secs: u64) -> chrono::Duration {
    let secs = secs.min(crate::config::MAX_TIMEOUT_SECS);
    chrono::Duration::seconds(i64::try_from(secs).unwrap_or(0))
}
