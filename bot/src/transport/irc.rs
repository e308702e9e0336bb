//! The IRC transport: Herald in IRC channels, over the `irc` crate.
//!
//! A thin adapter. A line of chat becomes an [`Incoming`] for the [`Hub`]; the hub's replies,
//! and the timeouts it posts to the outbox, become PRIVMSGs. What this module owns is the
//! protocol: IRCv3 capabilities that tell a player's services account, replies that fit the
//! 512-byte line, a send rate no network calls flooding, and reconnecting when the server goes
//! away.
//!
//! [`Link`] is the protocol state of one connection without IO (a message in, actions out), so
//! it is tested line by line; [`run`] drives it over a real socket, one connection after the
//! other, while the sessions and the books carry on regardless.

use crate::command::with_prefix_where;
use crate::command::{parse, Command, ParseErrorKind};
use crate::config::IrcConfig;
use crate::hub::{Hub, Incoming, Outgoing, Rights};
use anyhow::{bail, Result};
use futures::StreamExt;
use irc::client::prelude::{Client, Message, Prefix, Response};
use irc::proto::{CapSubCommand, Command as IrcCommand};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{sleep, sleep_until, timeout, Instant};

/// The most bytes of one IRC line, CR LF included (RFC 1459, 2.3).
pub const MAX_LINE: usize = 512;

/// The capabilities Herald asks for when the server offers them: they tell who is logged in to
/// services, so a player is their account and a nick change does not lose a knight.
pub const WANTED_CAPS: [&str; 3] = ["account-tag", "extended-join", "account-notify"];

/// A mask's length when the server has not shown Herald its own: the nick, a 10-byte user name
/// with its `~`, and a 63-byte host (the usual USERLEN and HOSTLEN), so a guess never overflows.
const MASK_GUESS_EXTRA: usize = 1 + 11 + 1 + 63;

/// The fewest bytes a piece of text may be given, whatever the target: room for any character.
const MIN_BUDGET: usize = 32;

/// How long a TCP (and TLS) connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the server may take to welcome Herald after connecting.
const REGISTER_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a QUIT may take to leave when Herald stops.
const QUIT_TIMEOUT: Duration = Duration::from_secs(2);

/// Lines kept while the link is down; older ones are dropped past this, with a warning.
const QUEUE_LIMIT: usize = 10_000;

/// A reply made safe for one IRC message: line breaks and NULs become spaces, and the CTCP
/// delimiter is dropped so that no reply can pose as a CTCP request.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\r' | '\n' | '\0' => Some(' '),
            '\u{1}' => None,
            c => Some(c),
        })
        .collect()
}

/// Bytes left for a PRIVMSG's text to `target` once the server relays it to the channel as
/// `:MASK PRIVMSG TARGET :TEXT\r\n`, `mask_len` being the length of Herald's `nick!user@host`.
pub fn text_budget(mask_len: usize, target: &str) -> usize {
    let frame = 1 + mask_len + 1 + "PRIVMSG ".len() + target.len() + " :".len() + "\r\n".len();
    MAX_LINE.saturating_sub(frame).max(MIN_BUDGET)
}

/// The longest head of `text` that fits in `budget` bytes, and the rest. The cut falls on the
/// last space that fits (which is dropped), else on the last character boundary.
pub fn take_piece(text: &str, budget: usize) -> (&str, &str) {
    if text.len() <= budget {
        return (text, "");
    }
    // Room for any one character, so that every piece makes progress.
    let budget = budget.max(4);
    if text.len() <= budget {
        return (text, "");
    }
    // A space at index `budget` still ends a head of exactly `budget` bytes.
    let space = text.as_bytes()[..=budget]
        .iter()
        .rposition(|&b| b == b' ')
        .filter(|&i| i > 0);
    match space {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => {
            let mut cut = budget;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.split_at(cut)
        }
    }
}

/// A reply as the pieces it is sent in: each fits `budget` bytes, none holds a line break, and
/// together, joined by spaces, they read as the reply did.
pub fn split_message(text: &str, budget: usize) -> Vec<String> {
    let text = sanitize(text);
    let mut rest = text.trim_end();
    let mut pieces = Vec::new();
    while !rest.is_empty() {
        let (head, tail) = take_piece(rest, budget);
        if !head.trim().is_empty() {
            pieces.push(head.to_string());
        }
        rest = tail;
    }
    pieces
}

/// A token bucket: `burst` lines at once, then `per_sec` lines a second, so that a long
/// narration never gets Herald disconnected for flooding.
#[derive(Debug)]
pub struct Throttle {
    burst: f64,
    per_sec: f64,
    tokens: f64,
    at: Instant,
}

impl Throttle {
    /// A full bucket at `now`.
    pub fn new(burst: u32, per_sec: f64, now: Instant) -> Throttle {
        Throttle {
            burst: f64::from(burst.max(1)),
            per_sec: if per_sec.is_finite() && per_sec > 0.0 {
                per_sec
            } else {
                1.0
            },
            tokens: f64::from(burst.max(1)),
            at: now,
        }
    }

    /// Takes the right to send one line now, or says how long until there is one.
    pub fn take(&mut self, now: Instant) -> Result<(), Duration> {
        if now > self.at {
            let earned = (now - self.at).as_secs_f64() * self.per_sec;
            self.tokens = (self.tokens + earned).min(self.burst);
            self.at = now;
        }
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - self.tokens) / self.per_sec;
            Err(Duration::try_from_secs_f64(wait)
                .unwrap_or(Duration::MAX)
                .min(Duration::from_secs(3600)))
        }
    }
}

/// What a connection must do after a message from the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Send this at once, ahead of the replies (capability negotiation, rejoining).
    Send(Message),
    /// Registration is complete: the channels are being joined and replies may flow.
    Ready,
    /// Someone spoke in a channel Herald sits in, or to Herald alone.
    Said(Said),
}

/// A line of chat, with where its answers go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The session's channel: the channel, or the speaker's nick for a private message.
    pub channel: String,
    /// Where answers go: the channel, or the speaker's nick.
    pub reply_to: String,
    /// The player: their services account where the server tells it, else their nick.
    pub user: String,
    /// What they said.
    pub text: String,
    /// Whether it came by private message.
    pub private: bool,
    /// Their nick, where lines for them alone go.
    pub nick: String,
}

/// The protocol state of one connection to an IRC server, without IO.
#[derive(Debug)]
pub struct Link {
    nick: String,
    mask_len: Option<usize>,
    network: Option<String>,
    chantypes: Vec<char>,
    offered: Vec<String>,
    enabled: Vec<String>,
    negotiated: bool,
    ready: bool,
    accounts: HashMap<String, String>,
}

fn same_nick(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn key(nick: &str) -> String {
    nick.to_ascii_lowercase()
}

fn mask_len(prefix: &Prefix) -> Option<usize> {
    match prefix {
        Prefix::Nickname(nick, user, host) if !user.is_empty() && !host.is_empty() => {
            Some(nick.len() + 1 + user.len() + 1 + host.len())
        }
        _ => None,
    }
}

impl Link {
    /// A connection about to register as `nick`.
    pub fn new(nick: &str) -> Link {
        Link {
            nick: nick.to_string(),
            mask_len: None,
            network: None,
            chantypes: vec!['#', '&'],
            offered: Vec::new(),
            enabled: Vec::new(),
            negotiated: false,
            ready: false,
            accounts: HashMap::new(),
        }
    }

    /// The messages that open a connection: capability negotiation first, so the server holds
    /// registration until Herald has asked for what it wants, then NICK and USER.
    pub fn hello(&self) -> Vec<Message> {
        vec![
            IrcCommand::CAP(None, CapSubCommand::LS, Some("302".into()), None).into(),
            IrcCommand::NICK(self.nick.clone()).into(),
            IrcCommand::USER(
                self.nick.clone(),
                "0".into(),
                "Herald, marshal of the lists".into(),
            )
            .into(),
        ]
    }

    /// Herald's nick on this connection.
    pub fn nick(&self) -> &str {
        &self.nick
    }

    /// The network's name, if the server gave one (`NETWORK=`).
    pub fn network(&self) -> Option<&str> {
        self.network.as_deref()
    }

    /// Whether registration is complete.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// The capabilities the server granted.
    pub fn caps(&self) -> &[String] {
        &self.enabled
    }

    /// Whether `target` names a channel rather than a nick.
    pub fn is_channel(&self, target: &str) -> bool {
        target.starts_with(self.chantypes.as_slice())
    }

    /// Bytes left for a message's text to `target`, as the server will relay it.
    pub fn budget(&self, target: &str) -> usize {
        let mask = self.mask_len.unwrap_or(self.nick.len() + MASK_GUESS_EXTRA);
        text_budget(mask, target)
    }

    fn cap(&self, name: &str) -> bool {
        self.enabled.iter().any(|c| c == name)
    }

    /// The player behind a message from `nick`.
    fn user_of(&self, msg: &Message, nick: &str) -> String {
        let account = if self.cap("account-tag") {
            msg.tags
                .iter()
                .flatten()
                .find(|t| t.0 == "account")
                .and_then(|t| t.1.clone())
        } else {
            self.accounts.get(&key(nick)).cloned()
        };
        match account {
            Some(a) if !a.is_empty() && a != "*" => a,
            _ => nick.to_string(),
        }
    }

    fn set_account(&mut self, nick: &str, account: &str) {
        if account.is_empty() || account == "*" {
            self.accounts.remove(&key(nick));
        } else {
            self.accounts.insert(key(nick), account.to_string());
        }
    }

    fn on_cap(&mut self, sub: &CapSubCommand, a: Option<&str>, b: Option<&str>) -> Vec<Action> {
        // `CAP * LS :caps` parses as (a = caps); the continued `CAP * LS * :caps` as (a = "*",
        // b = caps).
        let caps = b.or(a).unwrap_or_default();
        let names = caps
            .split_whitespace()
            .map(|c| c.split('=').next().unwrap_or(c).to_string());
        let end = || Action::Send(IrcCommand::CAP(None, CapSubCommand::END, None, None).into());
        match sub {
            CapSubCommand::LS => {
                self.offered.extend(names);
                let more = b.is_some() && a == Some("*");
                if more || self.negotiated {
                    return Vec::new();
                }
                let wanted: Vec<&str> = WANTED_CAPS
                    .into_iter()
                    .filter(|w| self.offered.iter().any(|o| o == w))
                    .collect();
                if wanted.is_empty() {
                    self.negotiated = true;
                    return vec![end()];
                }
                vec![Action::Send(
                    IrcCommand::CAP(None, CapSubCommand::REQ, None, Some(wanted.join(" "))).into(),
                )]
            }
            CapSubCommand::ACK | CapSubCommand::NAK => {
                if *sub == CapSubCommand::ACK {
                    for name in names {
                        match name.strip_prefix('-') {
                            Some(off) => self.enabled.retain(|c| c != off),
                            None => self.enabled.push(name),
                        }
                    }
                }
                if self.negotiated {
                    return Vec::new();
                }
                self.negotiated = true;
                vec![end()]
            }
            CapSubCommand::DEL => {
                let gone: Vec<String> = names.collect();
                self.enabled.retain(|c| !gone.contains(c));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Takes in one message from the server; returns what the connection must do.
    pub fn on_message(&mut self, msg: &Message) -> Vec<Action> {
        let from = msg.source_nickname().unwrap_or_default().to_string();
        let mine = !from.is_empty() && same_nick(&from, &self.nick);
        match &msg.command {
            IrcCommand::CAP(_, sub, a, b) => self.on_cap(sub, a.as_deref(), b.as_deref()),
            IrcCommand::Response(Response::RPL_WELCOME, args) => {
                // Welcomed means negotiation is over, even on a server that never answered CAP.
                self.negotiated = true;
                if let Some(nick) = args.first() {
                    self.nick = nick.clone();
                }
                // "Welcome to the Internet Relay Network nick!user@host" (RFC 2812), where given.
                let mask = args
                    .last()
                    .and_then(|text| text.rsplit(' ').next())
                    .filter(|m| {
                        m.len() > self.nick.len() + 1
                            && m.get(..self.nick.len() + 1)
                                .is_some_and(|p| same_nick(p, &format!("{}!", self.nick)))
                            && m.contains('@')
                    });
                if let Some(mask) = mask {
                    self.mask_len = Some(mask.len());
                }
                Vec::new()
            }
            IrcCommand::Response(Response::RPL_ISUPPORT, args) => {
                for token in args.iter().skip(1) {
                    if let Some(name) = token.strip_prefix("NETWORK=") {
                        if !name.is_empty() {
                            self.network = Some(name.to_string());
                        }
                    } else if let Some(types) = token.strip_prefix("CHANTYPES=") {
                        self.chantypes = types.chars().collect();
                    }
                }
                Vec::new()
            }
            IrcCommand::Response(Response::RPL_ENDOFMOTD | Response::ERR_NOMOTD, _) => {
                if self.ready {
                    return Vec::new();
                }
                self.ready = true;
                vec![Action::Ready]
            }
            IrcCommand::NICK(new) => {
                if mine {
                    if let Some(len) = self.mask_len {
                        self.mask_len = Some(len + new.len() - self.nick.len().min(len));
                    }
                    self.nick = new.clone();
                } else if let Some(account) = self.accounts.remove(&key(&from)) {
                    self.accounts.insert(key(new), account);
                }
                Vec::new()
            }
            IrcCommand::JOIN(_, account, _) => {
                if mine {
                    if let Some(len) = msg.prefix.as_ref().and_then(mask_len) {
                        self.mask_len = Some(len);
                    }
                } else if let (true, Some(account)) = (self.cap("extended-join"), account) {
                    self.set_account(&from, account);
                }
                Vec::new()
            }
            IrcCommand::ACCOUNT(account) => {
                if !from.is_empty() {
                    self.set_account(&from, account);
                }
                Vec::new()
            }
            IrcCommand::QUIT(_) => {
                self.accounts.remove(&key(&from));
                Vec::new()
            }
            IrcCommand::KICK(channel, who, _) if same_nick(who, &self.nick) => {
                vec![Action::Send(
                    IrcCommand::JOIN(channel.clone(), None, None).into(),
                )]
            }
            IrcCommand::PRIVMSG(target, text) => {
                // Herald's own echoes, CTCP and /me are not commands.
                if from.is_empty() || mine || text.starts_with('\u{1}') {
                    return Vec::new();
                }
                let user = self.user_of(msg, &from);
                let said = if self.is_channel(target) {
                    Said {
                        channel: target.clone(),
                        reply_to: target.clone(),
                        user,
                        text: text.clone(),
                        private: false,
                        nick: from,
                    }
                } else if same_nick(target, &self.nick) {
                    Said {
                        channel: from.clone(),
                        reply_to: from.clone(),
                        user,
                        text: text.clone(),
                        private: true,
                        nick: from,
                    }
                } else {
                    return Vec::new();
                };
                vec![Action::Said(said)]
            }
            _ => Vec::new(),
        }
    }
}

/// Whether a command makes sense by private message: it touches no channel's challenge or fight
/// (a knight, the books, a roll, help). The rest is answered with where to say it.
pub fn works_privately(command: &Command) -> bool {
    crate::games::privacy(command).by_message
}

/// The answers to one line of chat, each with its target: the hub's, the channel's lines where
/// it was said and the speaker's own lines (a psi skill armed, R21) to their nick; for a private
/// message that belongs in a channel, a line that says so, except `!psi`, which is armed in the
/// channel where the speaker has a challenge, a fight or a tournament under way; and none for a
/// word that is no command of Herald's said in a channel, where other bots answer to the same
/// prefix (by private message it gets the hub's reply).
pub async fn answer(hub: &Hub, prefixes: &[char], realm: &str, said: &Said) -> Vec<Outgoing> {
    if said.private {
        if let Some((text, named)) = private_psi(&said.text, prefixes) {
            return psi_in_private(hub, realm, said, text, named).await;
        }
    }
    let to = |target: &str, lines: Vec<String>| {
        lines
            .into_iter()
            .map(|text| Outgoing {
                realm: realm.to_string(),
                channel: target.to_string(),
                text,
            })
            .collect::<Vec<_>>()
    };
    match parse(&said.text, prefixes) {
        None => return Vec::new(),
        Some(Err(e))
            if !said.private
                && matches!(e.kind(), ParseErrorKind::UnknownCommand { .. })
                && !first_word(&said.text, prefixes)
                    .is_some_and(|w| crate::games::is_command(&w)) =>
        {
            return Vec::new();
        }
        Some(Ok(command)) if said.private && !works_privately(&command) => {
            let prefix = prefixes.first().copied().unwrap_or('!');
            return to(
                &said.reply_to,
                vec![format!(
                    "{prefix}{} works in a channel, not by private message.",
                    command.name()
                )],
            );
        }
        Some(_) => {}
    }
    let incoming = Incoming {
        realm: realm.to_string(),
        channel: said.channel.clone(),
        user: said.user.clone(),
        text: said.text.clone(),
    };
    let answer = hub.answer(&incoming, Rights::default()).await;
    let mut out = to(&said.reply_to, answer.lines);
    out.extend(to(&said.nick, answer.private));
    out
}

/// A private `!psi SKILL [#CHANNEL]`: the declaration, and the channel named, if any.
fn private_psi<'a>(text: &'a str, prefixes: &[char]) -> Option<(&'a str, Option<&'a str>)> {
    let is_psi =
        |t: &str| matches!(parse(t, prefixes), Some(Ok(c)) if crate::games::privacy(&c).secret);
    if is_psi(text) {
        return Some((text, None));
    }
    let (rest, last) = text.trim_end().rsplit_once(char::is_whitespace)?;
    (last.starts_with(['#', '&']) && is_psi(rest)).then_some((rest, Some(last)))
}

/// `!psi` by private message (R21's secret): armed in the channel where the speaker has a
/// challenge, a fight or a tournament under way, or in the one they name when they have more
/// than one. The channel hears what it would of a `!psi` said there; the rest goes to the nick.
async fn psi_in_private(
    hub: &Hub,
    realm: &str,
    said: &Said,
    text: &str,
    named: Option<&str>,
) -> Vec<Outgoing> {
    let to = |target: &str, text: String| Outgoing {
        realm: realm.to_string(),
        channel: target.to_string(),
        text,
    };
    let engaged = match hub.engaged(realm, &said.user).await {
        Ok(channels) => channels,
        Err(e) => {
            tracing::error!("cannot tell where {} is engaged: {e:#}", said.user);
            return vec![to(&said.nick, crate::reply::UNREAD.into())];
        }
    };
    // As the player would type it again, with the channel added.
    let typed = format!(
        "/{}",
        text.trim()
            .trim_start_matches(|c: char| !c.is_alphanumeric())
    );
    let listed = engaged.join(" and ");
    let channel = match (named, engaged.as_slice()) {
        (_, []) => {
            return vec![to(
                &said.nick,
                "You have no challenge, fight or tournament under way to arm psi for; /psi SKILL works by private message once you have.".into(),
            )]
        }
        (Some(c), _) => match engaged.iter().find(|e| e.eq_ignore_ascii_case(c)) {
            Some(found) => found.clone(),
            None => {
                return vec![to(
                    &said.nick,
                    format!(
                        "You have no challenge, fight or tournament under way in {c}; you have one in {listed}."
                    ),
                )]
            }
        },
        (None, [one]) => one.clone(),
        (None, [first, ..]) => {
            return vec![to(
                &said.nick,
                format!(
                    "You have a challenge, a fight or a tournament under way in {listed}: say which, e.g. {typed} {first}"
                ),
            )]
        }
    };
    let incoming = Incoming {
        realm: realm.to_string(),
        channel: channel.clone(),
        user: said.user.clone(),
        text: text.to_string(),
    };
    let answer = hub.answer(&incoming, Rights::default()).await;
    let mut out: Vec<Outgoing> = answer.lines.into_iter().map(|l| to(&channel, l)).collect();
    out.extend(answer.private.into_iter().map(|l| to(&said.nick, l)));
    out
}

/// The command word of a line, lower case, without its prefix.
fn first_word(text: &str, prefixes: &[char]) -> Option<String> {
    let body = text.trim().strip_prefix(|c: char| prefixes.contains(&c))?;
    Some(body.split_whitespace().next()?.to_lowercase())
}

/// Where each fight of `realm` stands, channel by channel: told after a reconnection, in the
/// words of `status` asked by Herald itself.
pub async fn where_fights_stand(
    hub: &Hub,
    realm: &str,
    herald: &str,
    prefix: char,
) -> Vec<Outgoing> {
    let app = hub.app();
    // This network's fights only, of every game: a realm's other networks tell their own.
    let open = match app.realm(realm).await {
        Ok(id) => app.store.open_fight_channels(id, realm).await,
        Err(e) => Err(e),
    };
    let mut channels: Vec<String> = match open {
        Ok(open) => open
            .iter()
            .map(|c| app.transport_channel(realm, c).to_string())
            .collect(),
        Err(e) => {
            tracing::error!("cannot read the open fights of {realm}: {e:#}");
            return Vec::new();
        }
    };
    channels.sort();
    channels.dedup();
    let mut out = Vec::new();
    for channel in channels {
        let incoming = Incoming {
            realm: realm.to_string(),
            channel: channel.clone(),
            user: herald.to_string(),
            text: format!("{prefix}status"),
        };
        for text in hub.handle(&incoming).await {
            out.push(Outgoing {
                realm: realm.to_string(),
                channel: channel.clone(),
                text,
            });
        }
    }
    out
}

/// A reply waiting to be sent.
#[derive(Debug)]
struct Line {
    target: String,
    text: String,
}

/// Work for the hub, done in order so that a channel's commands keep theirs.
enum Work {
    Said {
        said: Said,
        realm: String,
    },
    Ready {
        realm: String,
        first: bool,
        nick: String,
    },
}

async fn worker(
    hub: &Hub,
    prefixes: &[char],
    mut work: mpsc::UnboundedReceiver<Work>,
    lines: mpsc::UnboundedSender<Line>,
) {
    let prefix = prefixes.first().copied().unwrap_or('!');
    while let Some(job) = work.recv().await {
        let told = match job {
            Work::Said { said, realm } => answer(hub, prefixes, &realm, &said)
                .await
                .into_iter()
                .map(|o| Line {
                    target: o.channel,
                    text: o.text,
                })
                .collect(),
            Work::Ready { realm, first, nick } => {
                let out = if first {
                    hub.restore(&realm).await.unwrap_or_else(|e| {
                        tracing::error!("cannot restore the fights of {realm}: {e:#}");
                        Vec::new()
                    })
                } else {
                    where_fights_stand(hub, &realm, &nick, prefix).await
                };
                out.into_iter()
                    .map(|o| Line {
                        target: o.channel,
                        text: o.text,
                    })
                    .collect::<Vec<_>>()
            }
        };
        for line in told {
            if lines.send(line).is_err() {
                return;
            }
        }
    }
}

/// Runs the IRC transport until `shutdown` completes: connects, joins the channels, answers,
/// and reconnects with a growing wait whenever the link drops. Timeouts posted to `outbox`
/// are said in their channels, after a reconnection if the link was down.
pub async fn run(
    hub: &Hub,
    config: &IrcConfig,
    outbox: mpsc::UnboundedReceiver<Outgoing>,
    shutdown: impl Future<Output = ()>,
) -> Result<()> {
    super::tls_provider();
    config.check()?;
    if !config.tls_ca_file.is_empty() && !Path::new(&config.tls_ca_file).is_file() {
        bail!(
            "[irc] tls_ca_file: cannot read the certificate file {}",
            config.tls_ca_file
        );
    }
    let prefixes = config.prefixes();
    let (work_tx, work_rx) = mpsc::unbounded_channel();
    let (line_tx, line_rx) = mpsc::unbounded_channel();
    let mut driver = Driver {
        config,
        work: work_tx,
        lines: line_rx,
        outbox,
        queue: VecDeque::new(),
        realm: None,
    };
    tokio::select! {
        r = driver.links(shutdown) => r,
        () = worker(hub, &prefixes, work_rx, line_tx) => Ok(()),
    }
}

/// An error with its causes, for the log: the `irc` crate's own words hide the IO error's.
fn why(e: irc::error::Error) -> String {
    format!("{:#}", anyhow::Error::new(e))
}

/// Why a connection ended.
enum End {
    Shutdown,
    Lost { why: String, served: bool },
}

/// The state that outlives each connection: the queue of replies and the realm's name.
struct Driver<'a> {
    config: &'a IrcConfig,
    work: mpsc::UnboundedSender<Work>,
    lines: mpsc::UnboundedReceiver<Line>,
    outbox: mpsc::UnboundedReceiver<Outgoing>,
    queue: VecDeque<Line>,
    realm: Option<String>,
}

impl Driver<'_> {
    async fn links(&mut self, shutdown: impl Future<Output = ()>) -> Result<()> {
        let mut shutdown = std::pin::pin!(shutdown);
        let min = Duration::from_millis(self.config.reconnect_min_ms);
        let max = Duration::from_millis(self.config.reconnect_max_ms);
        let mut wait = min;
        loop {
            match self.connection(shutdown.as_mut()).await {
                End::Shutdown => return Ok(()),
                End::Lost { why, served } => {
                    if served {
                        wait = min;
                    }
                    tracing::warn!(
                        "IRC link to {}:{} lost: {why}; reconnecting in {:.1}s",
                        self.config.server,
                        self.config.port,
                        wait.as_secs_f64()
                    );
                    tokio::select! {
                        () = &mut shutdown => return Ok(()),
                        () = sleep(wait) => {}
                    }
                    wait = (wait * 2).min(max);
                }
            }
        }
    }

    fn client_config(&self) -> irc::client::data::Config {
        let c = self.config;
        irc::client::data::Config {
            nickname: Some(c.nick.clone()),
            alt_nicks: (1..=3)
                .map(|n| format!("{}{}", c.nick, "_".repeat(n)))
                .collect(),
            username: Some(c.nick.clone()),
            realname: Some("Herald, marshal of the lists".into()),
            server: Some(c.server.clone()),
            port: Some(c.port),
            use_tls: Some(c.tls),
            cert_path: (!c.tls_ca_file.is_empty()).then(|| c.tls_ca_file.clone()),
            channels: c.channels.clone(),
            encoding: Some("UTF-8".into()),
            ping_time: Some(90),
            ping_timeout: Some(30),
            version: Some(format!("Herald {}", env!("CARGO_PKG_VERSION"))),
            ..Default::default()
        }
    }

    fn realm_for(&self, link: &Link) -> String {
        if let Some(r) = &self.realm {
            return r.clone();
        }
        if !self.config.network.is_empty() {
            return self.config.network.clone();
        }
        link.network()
            .map(str::to_string)
            .unwrap_or_else(|| self.config.server.clone())
    }

    fn enqueue(&mut self, target: String, text: &str) {
        // Herald's lines name commands with `/`; on IRC they are typed with the prefix.
        let prefix = self.config.prefixes().first().copied().unwrap_or('!');
        let text = with_prefix_where(&sanitize(text), prefix, crate::games::is_command)
            .trim_end()
            .to_string();
        if target.is_empty() || text.trim().is_empty() {
            return;
        }
        if self.queue.len() >= QUEUE_LIMIT {
            tracing::warn!("IRC send queue full: dropping the oldest line");
            self.queue.pop_front();
        }
        self.queue.push_back(Line { target, text });
    }

    /// Sends the next piece of the first queued line.
    fn send_piece(&mut self, link: &Link, client: &Client) -> Result<(), String> {
        let Some(line) = self.queue.front_mut() else {
            return Ok(());
        };
        let (head, rest) = take_piece(&line.text, link.budget(&line.target));
        let (head, rest) = (head.to_string(), rest.to_string());
        if !head.trim().is_empty() {
            client.send_privmsg(&line.target, &head).map_err(why)?;
        }
        if rest.trim().is_empty() {
            self.queue.pop_front();
        } else {
            line.text = rest;
        }
        Ok(())
    }

    async fn connection(&mut self, mut shutdown: Pin<&mut impl Future<Output = ()>>) -> End {
        let lost = |why: String, served: bool| End::Lost { why, served };
        let connect = timeout(CONNECT_TIMEOUT, Client::from_config(self.client_config()));
        let mut client = tokio::select! {
            () = &mut shutdown => return End::Shutdown,
            c = connect => match c {
                Err(_) => return lost("timed out connecting".into(), false),
                Ok(Err(e)) => return lost(format!("cannot connect: {}", why(e)), false),
                Ok(Ok(client)) => client,
            },
        };
        let mut stream = match client.stream() {
            Ok(s) => s,
            Err(e) => return lost(why(e), false),
        };
        let mut link = Link::new(&self.config.nick);
        for m in link.hello() {
            if let Err(e) = client.send(m) {
                return lost(why(e), false);
            }
        }
        let registered_by = Instant::now() + REGISTER_TIMEOUT;
        let mut throttle = Throttle::new(
            self.config.send_burst,
            self.config.send_per_sec,
            Instant::now(),
        );
        let mut next_send: Option<Instant> = None;
        loop {
            let sending = link.is_ready() && !self.queue.is_empty();
            let send_at = next_send.unwrap_or_else(Instant::now);
            tokio::select! {
                biased;
                () = &mut shutdown => {
                    let _ = client.send_quit("Herald leaves the lists");
                    let _ = timeout(QUIT_TIMEOUT, async {
                        while let Some(Ok(_)) = stream.next().await {}
                    })
                    .await;
                    return End::Shutdown;
                }
                msg = stream.next() => {
                    let msg = match msg {
                        Some(Ok(msg)) => msg,
                        Some(Err(e)) => return lost(why(e), link.is_ready()),
                        None => return lost("the server closed the connection".into(), link.is_ready()),
                    };
                    for action in link.on_message(&msg) {
                        match action {
                            Action::Send(m) => {
                                if let Err(e) = client.send(m) {
                                    return lost(why(e), link.is_ready());
                                }
                            }
                            Action::Ready => {
                                let realm = self.realm_for(&link);
                                let first = self.realm.is_none();
                                self.realm = Some(realm.clone());
                                tracing::info!(
                                    "on IRC as {} in realm {realm}, capabilities: {:?}",
                                    link.nick(),
                                    link.caps()
                                );
                                let nick = link.nick().to_string();
                                let _ = self.work.send(Work::Ready { realm, first, nick });
                            }
                            Action::Said(said) => {
                                let realm = self.realm_for(&link);
                                let _ = self.work.send(Work::Said { said, realm });
                            }
                        }
                    }
                }
                () = sleep_until(registered_by), if !link.is_ready() => {
                    return lost("the server did not welcome Herald in time".into(), false);
                }
                Some(line) = self.lines.recv() => self.enqueue(line.target, &line.text),
                Some(o) = self.outbox.recv() => self.enqueue(o.channel, &o.text),
                () = sleep_until(send_at), if sending => {
                    match throttle.take(Instant::now()) {
                        Ok(()) => {
                            next_send = None;
                            if let Err(e) = self.send_piece(&link, &client) {
                                return lost(e, true);
                            }
                        }
                        Err(wait) => next_send = Some(Instant::now() + wait),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn msg(line: &str) -> Message {
        line.parse().expect("a valid IRC line")
    }

    /// Feeds lines to a link; returns every action.
    fn feed(link: &mut Link, lines: &[&str]) -> Vec<Action> {
        lines
            .iter()
            .flat_map(|l| link.on_message(&msg(l)))
            .collect()
    }

    fn sent(actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Send(m) => Some(m.to_string().trim_end().to_string()),
                _ => None,
            })
            .collect()
    }

    fn said(actions: &[Action]) -> Vec<Said> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Said(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn hello_asks_for_capabilities_before_registering() {
        let link = Link::new("herald");
        let hello: Vec<String> = link
            .hello()
            .iter()
            .map(|m| m.to_string().trim_end().to_string())
            .collect();
        assert_eq!(hello[0], "CAP LS 302");
        assert_eq!(hello[1], "NICK herald");
        assert!(hello[2].starts_with("USER herald 0 * :"), "{}", hello[2]);
    }

    #[test]
    fn offered_account_capabilities_are_requested_then_negotiation_ends() {
        let mut link = Link::new("herald");
        let out = feed(
            &mut link,
            &[
                ":srv CAP * LS * :multi-prefix sasl=PLAIN,EXTERNAL account-tag",
                ":srv CAP * LS :extended-join away-notify",
            ],
        );
        // Nothing is asked before the last LS line.
        assert_eq!(sent(&out), ["CAP REQ :account-tag extended-join"]);
        let out = feed(
            &mut link,
            &[":srv CAP herald ACK :account-tag extended-join"],
        );
        assert_eq!(sent(&out), ["CAP END"]);
        assert_eq!(link.caps(), ["account-tag", "extended-join"]);
    }

    #[test]
    fn a_server_offering_nothing_wanted_gets_cap_end_at_once() {
        let mut link = Link::new("herald");
        let out = feed(&mut link, &[":irc.test CAP * LS :multi-prefix"]);
        assert_eq!(sent(&out), ["CAP END"]);
        assert!(link.caps().is_empty());
        // A refusal also ends negotiation, once.
        let mut link = Link::new("herald");
        feed(&mut link, &[":srv CAP * LS :account-tag"]);
        let out = feed(&mut link, &[":srv CAP herald NAK :account-tag"]);
        assert_eq!(sent(&out), ["CAP END"]);
        assert!(sent(&feed(&mut link, &[":srv CAP herald NAK :x"])).is_empty());
    }

    #[test]
    fn welcome_network_and_motd_make_the_link_ready() {
        let mut link = Link::new("herald");
        let out = feed(
            &mut link,
            &[
                ":irc.test 001 herald_ :Welcome to the Internet Relay Network herald_!~herald@127.0.0.1",
                ":irc.test 005 herald_ NETWORK=TestNet :is my network name",
                ":irc.test 005 herald_ CHANTYPES=#&+ NICKLEN=30 :are supported on this server",
                ":irc.test 376 herald_ :End of MOTD command",
                ":irc.test 376 herald_ :End of MOTD command",
            ],
        );
        assert_eq!(out, vec![Action::Ready], "ready once");
        assert_eq!(link.nick(), "herald_");
        assert_eq!(link.network(), Some("TestNet"));
        assert!(link.is_channel("+lists") && !link.is_channel("dana"));
        // "herald_!~herald@127.0.0.1" is 25 bytes.
        assert_eq!(link.budget("#lists"), text_budget(25, "#lists"));
    }

    #[test]
    fn no_motd_also_makes_the_link_ready() {
        let mut link = Link::new("herald");
        let out = feed(&mut link, &[":srv 422 herald :MOTD File is missing"]);
        assert_eq!(out, vec![Action::Ready]);
    }

    #[test]
    fn the_own_join_tells_the_mask_and_a_kick_rejoins() {
        let mut link = Link::new("herald");
        feed(
            &mut link,
            &[":herald!~herald@a.very.long.host.example.org JOIN #lists"],
        );
        let mask = "herald!~herald@a.very.long.host.example.org".len();
        assert_eq!(link.budget("#lists"), text_budget(mask, "#lists"));
        let out = feed(&mut link, &[":op!o@h KICK #lists herald :out"]);
        assert_eq!(sent(&out), ["JOIN #lists"]);
        assert!(sent(&feed(&mut link, &[":op!o@h KICK #lists dana :out"])).is_empty());
    }

    #[test]
    fn channel_lines_and_private_lines_are_told_apart() {
        let mut link = Link::new("herald");
        let out = feed(
            &mut link,
            &[
                ":dana!d@h PRIVMSG #lists :!roll 100",
                ":dana!d@h PRIVMSG Herald :!honor",
                ":dana!d@h PRIVMSG someone_else :!honor",
                ":dana!d@h PRIVMSG #lists :\u{1}ACTION waves\u{1}",
                ":herald!h@h PRIVMSG #lists :!roll 100",
                ":dana!d@h NOTICE #lists :!roll 100",
            ],
        );
        assert_eq!(
            said(&out),
            vec![
                Said {
                    channel: "#lists".into(),
                    reply_to: "#lists".into(),
                    user: "dana".into(),
                    text: "!roll 100".into(),
                    private: false,
                    nick: "dana".into(),
                },
                Said {
                    channel: "dana".into(),
                    reply_to: "dana".into(),
                    user: "dana".into(),
                    text: "!honor".into(),
                    private: true,
                    nick: "dana".into(),
                },
            ]
        );
    }

    #[test]
    fn the_account_tag_names_the_player_whatever_the_nick() {
        let mut link = Link::new("herald");
        feed(
            &mut link,
            &[
                ":srv CAP * LS :account-tag",
                ":srv CAP herald ACK :account-tag",
            ],
        );
        let out = feed(
            &mut link,
            &[
                "@account=dana :dana!d@h PRIVMSG #lists :!honor",
                "@account=dana :dana_away!d@h PRIVMSG #lists :!honor",
                ":guest!g@h PRIVMSG #lists :!honor",
                "@account=* :guest!g@h PRIVMSG #lists :!honor",
            ],
        );
        let users: Vec<String> = said(&out).into_iter().map(|s| s.user).collect();
        assert_eq!(users, ["dana", "dana", "guest", "guest"]);
    }

    #[test]
    fn extended_join_and_account_notify_follow_a_player_across_nicks() {
        let mut link = Link::new("herald");
        feed(
            &mut link,
            &[
                ":srv CAP * LS :extended-join account-notify",
                ":srv CAP herald ACK :extended-join account-notify",
                ":dana!d@h JOIN #lists dana :Dana of the Lists",
                ":evan!e@h JOIN #lists * :Evan",
            ],
        );
        let out = feed(
            &mut link,
            &[
                ":dana!d@h NICK :dana_afk",
                ":dana_afk!d@h PRIVMSG #lists :!honor",
                ":evan!e@h ACCOUNT evan_acct",
                ":evan!e@h PRIVMSG #lists :!honor",
                ":evan!e@h ACCOUNT *",
                ":evan!e@h PRIVMSG #lists :!honor",
                ":dana_afk!d@h QUIT :bye",
                ":dana_afk!d@h PRIVMSG #lists :!honor",
            ],
        );
        let users: Vec<String> = said(&out).into_iter().map(|s| s.user).collect();
        assert_eq!(users, ["dana", "evan_acct", "evan", "dana_afk"]);
    }

    #[test]
    fn without_the_capability_an_account_tag_is_not_trusted() {
        // Only a granted account-tag makes the tag the server's word about an account.
        let mut link = Link::new("herald");
        let out = feed(
            &mut link,
            &["@account=admin :eve!e@h PRIVMSG #lists :!honor"],
        );
        assert_eq!(said(&out)[0].user, "eve");
    }

    #[test]
    fn sanitize_removes_line_breaks_and_ctcp() {
        assert_eq!(sanitize("a\r\nPRIVMSG #x :b\0\u{1}c"), "a  PRIVMSG #x :b c");
    }

    #[test]
    fn the_budget_counts_the_relayed_prefix() {
        // ":herald!~herald@127.0.0.1 PRIVMSG #lists :" is 42 bytes, CR LF 2 more.
        assert_eq!(text_budget(24, "#lists"), 512 - 42 - 2);
        assert_eq!(text_budget(600, "#lists"), MIN_BUDGET);
    }

    #[test]
    fn pieces_break_at_spaces_then_at_characters() {
        assert_eq!(take_piece("abc def ghi", 7), ("abc def", "ghi"));
        assert_eq!(take_piece("abc def ghi", 8), ("abc def", "ghi"));
        assert_eq!(take_piece("abcdefghij", 6), ("abcdef", "ghij"));
        // "é" is two bytes: the cut moves back to a character boundary.
        assert_eq!(take_piece("ééééé", 5), ("éé", "ééé"));
        // Below one character's room, a piece still holds a character.
        assert_eq!(take_piece("abc", 1), ("abc", ""));
        assert_eq!(take_piece("日本", 1), ("日", "本"));
        assert_eq!(split_message("one two\nthree", 9), ["one two", "three"]);
        assert!(split_message(" \r\n ", 100).is_empty());
    }

    #[test]
    fn a_long_reply_is_split_into_lines_that_fit() {
        let reply: String = (1..=200).map(|n| format!("{n} ")).collect();
        let budget = text_budget(24, "#lists");
        let pieces = split_message(&reply, budget);
        assert!(pieces.len() >= 2);
        assert!(pieces.iter().all(|p| p.len() <= budget));
        assert_eq!(pieces.join(" "), reply.trim_end());
    }

    #[tokio::test(start_paused = true)]
    async fn the_throttle_allows_a_burst_then_the_rate() {
        let start = Instant::now();
        let mut t = Throttle::new(3, 2.0, start);
        assert!(t.take(start).is_ok());
        assert!(t.take(start).is_ok());
        assert!(t.take(start).is_ok());
        // Two a second: the fourth line waits half a second.
        assert_eq!(t.take(start), Err(Duration::from_millis(500)));
        let later = start + Duration::from_millis(500);
        assert!(t.take(later).is_ok());
        assert_eq!(t.take(later), Err(Duration::from_millis(500)));
        // A long quiet refills the burst, no more.
        let quiet = later + Duration::from_secs(60);
        for _ in 0..3 {
            assert!(t.take(quiet).is_ok());
        }
        assert!(t.take(quiet).is_err());
    }

    #[test]
    fn only_a_players_own_books_answer_privately() {
        let p = |line: &str| parse(line, &['!']).unwrap().unwrap();
        for ok in ["!honor", "!knight", "!help", "!roll 100", "!standings"] {
            assert!(works_privately(&p(ok)), "{ok}");
        }
        for channel in ["!joust evan", "!accept", "!status", "!high", "!enter"] {
            assert!(!works_privately(&p(channel)), "{channel}");
        }
    }

    #[test]
    fn linking_accounts_works_by_private_message() {
        let p = |line: &str| parse(line, &['!']).unwrap().unwrap();
        for ok in ["!link", "!link K7QF2M", "!unlink"] {
            assert!(works_privately(&p(ok)), "{ok}");
        }
    }

    proptest! {
        #[test]
        fn every_piece_fits_and_nothing_is_lost(text in "[a-zé日 \\r\\n]{0,1500}", budget in 32usize..480) {
            let pieces = split_message(&text, budget);
            for p in &pieces {
                prop_assert!(p.len() <= budget);
                prop_assert!(!p.contains(['\r', '\n']));
            }
            let words = |s: &str| s.split_whitespace().collect::<String>();
            prop_assert_eq!(words(&pieces.concat()), words(&sanitize(&text)));
        }
    }
}
