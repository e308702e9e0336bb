//! The Discord transport: a thin serenity adapter over the one grammar and the sessions.
//!
//! - A slash command ([`commands`]) is acknowledged at once (deferred, privately for a sheet or a
//!   mistake), written back as the line a player could have typed, handed to the [`Hub`] like
//!   any chat line, and answered by editing the deferred reply.
//! - A button or menu press ([`controls`]) is acknowledged by greying out the presser's row (or,
//!   for a psi declaration, by a silent acknowledgement); a press by anyone but the awaited
//!   player is refused privately, naming who is awaited. The choice becomes the line `/sweep` or
//!   `/psi cpk`, and the step's narration follows as one message with the next prompt's controls.
//!   Earlier controls in the channel are greyed out once a move or a timeout supersedes them.
//! - Every message ([`messages`]) is one step's lines joined, split under 2,000 characters, with
//!   player-written mention syntax made inert and `allowed_mentions` that may ping only the
//!   players the message waits for.
//! - Timeouts arrive as [`Outgoing`] lines and are posted to their channel.
//! - Lines for the speaker alone (a psi skill armed, R21) are ephemeral: the reply to `/psi`,
//!   deferred privately, while the channel's line is posted to the channel; a follow-up only the
//!   presser sees for the psi menu; a direct message for a prefix command.
//!
//! A realm is a guild (its id as text); a channel is written `<#id>`, so the sessions' own
//! messages name it as a Discord channel link; a user is their id, so admins are configured by
//! Discord user id. The name each player goes by (guild nick, else global name, else username)
//! is kept in the books when it changes, for the web pages, which never show an id.
//!
//! **Architecture invariant:** nothing here knows the rules. Every command goes through
//! [`crate::command::parse`] in the hub; this module only moves lines and presses.

pub mod commands;
pub mod controls;
pub mod messages;

use crate::config::{DiscordConfig, Permissions};
use crate::hub::{Hub, Incoming, Outgoing, Rights};
use anyhow::{Context as _, Result};
use controls::{Controls, Press};
use messages::Post;
use serenity::all::{
    ActivityData, AutocompleteChoice, ChannelId, ClientBuilder, CommandInteraction,
    ComponentInteraction, ComponentInteractionDataKind, Context, CreateAutocompleteResponse,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse, EditMessage, EventHandler, GatewayIntents, GuildId,
    Http, HttpBuilder, Interaction, Message, MessageId, Ready, RoleId, User,
};
use serenity::builder::Builder;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Said when a command comes from outside a server.
const NOT_IN_A_SERVER: &str =
    "Herald keeps the lists in a server's channels; use its commands there.";

/// Said for a control Herald no longer knows.
const STALE_CONTROL: &str =
    "That choice is no longer open. /status shows where the fight stands and who must act.";

/// Interaction tokens last 15 minutes; past this age Herald edits its messages through the
/// channel instead.
const TOKEN_LIFETIME: Duration = Duration::from_secs(14 * 60);

/// How long the timeout forwarder waits for more lines of the same step before posting them as
/// one message.
const COALESCE: Duration = Duration::from_millis(25);

/// The most timeout lines gathered into one batch.
const MAX_BATCH: usize = 200;

/// The bot token. Its `Debug` and `Display` never show it, so it cannot reach a log.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    /// A token given directly (tests, or a secret store).
    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into())
    }

    /// The token from the environment variable the configuration names (`DISCORD_TOKEN` by
    /// default); never from the configuration file.
    pub fn from_env(config: &DiscordConfig) -> Result<Token> {
        let name = config.token_env.trim();
        match std::env::var(name) {
            Ok(t) if !t.trim().is_empty() => Ok(Token(t.trim().to_string())),
            _ => anyhow::bail!(
                "[discord] needs the bot token in the environment variable {name}, which is not set"
            ),
        }
    }

    fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<hidden>)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<hidden>")
    }
}

/// Settings of the transport beyond the fixed `[discord]` keys.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Also read chat messages that start with a prefix (`!roll 100`). This needs Discord's
    /// privileged Message Content intent, so it is off unless asked for.
    pub prefix_commands: bool,
}

/// The gateway intents Herald asks for: guilds only (for role names), plus messages and their
/// content when prefix commands are on. Interactions need no intent.
pub fn intents(settings: &Settings) -> GatewayIntents {
    let mut intents = GatewayIntents::GUILDS;
    if settings.prefix_commands {
        intents |= GatewayIntents::GUILD_MESSAGES | GatewayIntents::MESSAGE_CONTENT;
    }
    intents
}

/// Whether an [`Outgoing`] belongs to a Discord realm (a guild id).
pub fn is_discord_realm(realm: &str) -> bool {
    !realm.is_empty() && realm.len() <= 20 && realm.bytes().all(|b| b.is_ascii_digit())
}

/// Splits the hub's outbox: Discord realms' lines to the first receiver, every other realm's to
/// the second, for a process that runs Discord beside another transport.
pub fn split_outbox(
    mut outbox: mpsc::UnboundedReceiver<Outgoing>,
) -> (
    mpsc::UnboundedReceiver<Outgoing>,
    mpsc::UnboundedReceiver<Outgoing>,
) {
    let (discord_tx, discord_rx) = mpsc::unbounded_channel();
    let (other_tx, other_rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(o) = outbox.recv().await {
            let to = if is_discord_realm(&o.realm) {
                &discord_tx
            } else {
                &other_tx
            };
            let _ = to.send(o);
        }
    });
    (discord_rx, other_rx)
}

/// A channel as the sessions name it: `<#id>`, which Discord shows as a link.
pub fn channel_name(channel: ChannelId) -> String {
    format!("<#{channel}>")
}

/// The channel a session's name stands for.
pub fn channel_of(name: &str) -> Option<ChannelId> {
    let id = name
        .strip_prefix("<#")?
        .strip_suffix('>')?
        .parse::<u64>()
        .ok()?;
    (id != 0).then(|| ChannelId::new(id))
}

/// Whether a member is a moderator: by id in `permissions.moderators` (or an admin), or by
/// holding a role named in `permissions.moderator_roles` (case-insensitive).
pub fn is_moderator(permissions: &Permissions, user: &str, role_names: &[String]) -> bool {
    permissions.is_moderator(user)
        || role_names.iter().any(|r| {
            permissions
                .moderator_roles
                .iter()
                .any(|m| m.eq_ignore_ascii_case(r))
        })
}

/// Lines of timeouts grouped by channel, in the order channels first spoke, so one step's lines
/// go out as one message.
pub fn group_by_channel(batch: Vec<Outgoing>) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for o in batch {
        match groups.iter_mut().find(|(c, _)| *c == o.channel) {
            Some((_, lines)) => lines.push(o.text),
            None => groups.push((o.channel, vec![o.text])),
        }
    }
    groups
}

/// Starts the Discord transport with the token from the environment and runs until the
/// gateway connection ends for good. `outgoing` carries the hub's timeout lines for Discord
/// realms (see [`split_outbox`]).
pub async fn run(
    hub: Arc<Hub>,
    config: &DiscordConfig,
    outgoing: mpsc::UnboundedReceiver<Outgoing>,
) -> Result<()> {
    let token = Token::from_env(config)?;
    let settings = Settings {
        prefix_commands: config.prefix_commands,
    };
    serve(hub, config, settings, token, outgoing).await
}

/// [`run`] with the token and settings given.
pub async fn serve(
    hub: Arc<Hub>,
    config: &DiscordConfig,
    settings: Settings,
    token: Token,
    outgoing: mpsc::UnboundedReceiver<Outgoing>,
) -> Result<()> {
    crate::transport::tls_provider();
    let mut http =
        HttpBuilder::new(token.expose()).default_allowed_mentions(messages::allowed_mentions(&[]));
    let proxy = config.proxy.trim();
    if !proxy.is_empty() {
        // A proxy (or a local fake) keeps the rate limits itself.
        http = http.proxy(proxy).ratelimiter_disabled(true);
    }
    let shards = config.shards()?;
    let herald = Arc::new(Herald {
        hub,
        shards: shards.clone(),
        guild_ids: config
            .guild_ids
            .iter()
            .filter(|g| **g != 0)
            .map(|g| GuildId::new(*g))
            .collect(),
        prefix_commands: settings.prefix_commands,
        registered: AtomicBool::new(false),
        restored: Mutex::new(HashSet::new()),
        live: Mutex::new(HashMap::new()),
        turns: Mutex::new(HashMap::new()),
        names: Mutex::new(HashMap::new()),
    });
    let mut client = ClientBuilder::new_with_http(http.build(), intents(&settings))
        .activity(ActivityData::playing("/joust"))
        .event_handler_arc(herald.clone())
        .await
        .context("cannot set up the Discord client")?;
    tokio::spawn(forward(herald, client.http.clone(), outgoing));
    // This process's shards only: a guild's channels live where its shard runs.
    match shards {
        None => client.start_autosharded().await,
        Some(s) => client.start_shard_range(s.range, s.total).await,
    }
    .context("the Discord connection ended")
}

/// Where a message with controls stands, to grey them out later.
#[derive(Clone, Debug)]
enum Sent {
    /// An interaction's first reply, editable through the interaction's token.
    Original {
        token: String,
        message: MessageId,
        since: Instant,
    },
    /// A follow-up message of an interaction.
    Followup {
        token: String,
        message: MessageId,
        since: Instant,
    },
    /// A message posted to the channel.
    Channel { message: MessageId },
}

impl Sent {
    fn message(&self) -> MessageId {
        match self {
            Sent::Original { message, .. }
            | Sent::Followup { message, .. }
            | Sent::Channel { message } => *message,
        }
    }
}

/// A message whose controls may still be pressed.
#[derive(Clone, Debug)]
struct Live {
    sent: Sent,
    controls: Controls,
}

/// Where a reply goes.
#[derive(Clone, Copy)]
enum Target<'a> {
    /// An interaction: `deferred` when its first reply is the deferred one, to be edited.
    Interaction {
        token: &'a str,
        deferred: bool,
        private: bool,
    },
    /// A channel (timeouts, prefix commands).
    Channel,
}

/// The transport's state, shared by every shard's handler and the timeout forwarder.
struct Herald {
    hub: Arc<Hub>,
    /// The shards this process runs (`[discord] shards`); `None` for all.
    shards: Option<crate::config::Shards>,
    guild_ids: Vec<GuildId>,
    prefix_commands: bool,
    registered: AtomicBool,
    restored: Mutex<HashSet<GuildId>>,
    /// Messages with controls still live, per channel. Held only for short, synchronous work.
    live: Mutex<HashMap<ChannelId, Vec<Live>>>,
    /// One lock per channel, held from handing a line to the hub until its reply is sent and
    /// its controls recorded, so a channel's messages and their bookkeeping keep the order of
    /// its moves (acknowledgements are sent before waiting for it).
    turns: Mutex<HashMap<ChannelId, Arc<tokio::sync::Mutex<()>>>>,
    /// The name each player (guild, user id) goes by as last kept in the books.
    names: Mutex<HashMap<(String, String), String>>,
}

#[serenity::async_trait]
impl EventHandler for Herald {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(
            "Discord: connected as {} on shard {:?}",
            ready.user.name,
            ready.shard
        );
        // The process owning shard 0 registers the commands for every process.
        let first = self.shards.as_ref().is_none_or(|s| s.owns_first());
        if first && !self.registered.swap(true, Ordering::SeqCst) {
            if let Err(e) = self.register(&ctx.http).await {
                tracing::error!("cannot register the slash commands: {e:#}");
                self.registered.store(false, Ordering::SeqCst);
            }
        }
        for guild in ready.guilds {
            let first = self
                .restored
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(guild.id);
            if first {
                self.restore(&ctx.http, guild.id).await;
            }
        }
    }

    async fn guild_create(&self, _ctx: Context, guild: serenity::all::Guild, _new: Option<bool>) {
        // Which guild each channel is in, for a `<#id>` named from another guild of the realm.
        let channels = guild.channels.keys().map(|c| channel_name(*c));
        self.hub
            .app()
            .know_channels(&guild.id.to_string(), channels);
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(ci) => {
                let rights = self.rights(
                    &ctx,
                    ci.guild_id,
                    ci.member.as_deref().map(|m| &m.roles[..]),
                );
                self.on_command(&ctx.http, &ci, rights).await
            }
            Interaction::Component(ci) => self.on_component(&ctx.http, &ci).await,
            Interaction::Autocomplete(ci) => self.on_autocomplete(&ctx.http, &ci).await,
            _ => {}
        }
    }

    async fn message(&self, ctx: Context, msg: Message) {
        if !self.prefix_commands || msg.author.bot {
            return;
        }
        let Some(guild) = msg.guild_id else { return };
        let incoming = Incoming {
            realm: guild.to_string(),
            channel: channel_name(msg.channel_id),
            user: msg.author.id.to_string(),
            text: messages::plain_mentions(&msg.content),
        };
        let turn = self.turn(msg.channel_id);
        let _turn = turn.lock().await;
        let rights = self.rights(&ctx, Some(guild), msg.member.as_ref().map(|m| &m.roles[..]));
        let answer = self.hub.answer(&incoming, rights).await;
        if !answer.lines.is_empty() || !answer.private.is_empty() {
            let nick = msg.member.as_ref().and_then(|m| m.nick.as_deref());
            self.keep_name(&incoming.realm, nick, &msg.author).await;
        }
        for post in messages::compose(&answer.private) {
            let dm = CreateMessage::new()
                .content(post.content)
                .allowed_mentions(messages::allowed_mentions(&[]));
            if let Err(e) = msg.author.id.direct_message(&ctx, dm).await {
                tracing::warn!("cannot send a direct message: {e}");
            }
        }
        let lines = answer.lines;
        if lines.is_empty() {
            return;
        }
        let moves = commands::is_fight_move(&incoming.text);
        self.deliver(&ctx.http, Target::Channel, msg.channel_id, &lines, moves)
            .await;
    }
}

impl Herald {
    /// The account `user` plays as in `guild`'s realm: the one it is linked to, else itself
    /// (also when the books cannot be read: the hub then answers the line itself).
    async fn playing_as(&self, guild: GuildId, user: &str) -> String {
        let app = self.hub.app();
        let account = match app.realm(&guild.to_string()).await {
            Ok(realm) => app.store.account_of(realm, user).await,
            Err(e) => Err(e),
        };
        account.unwrap_or_else(|e| {
            tracing::error!("cannot read the links of {user}: {e:#}");
            user.to_string()
        })
    }

    async fn register(&self, http: &Http) -> Result<()> {
        let commands = commands::create_commands();
        if self.guild_ids.is_empty() {
            serenity::all::Command::set_global_commands(http, commands).await?;
        } else {
            for guild in &self.guild_ids {
                guild.set_commands(http, commands.clone()).await?;
            }
        }
        Ok(())
    }

    async fn restore(&self, http: &Http, guild: GuildId) {
        // Another process's shard: its fights are that process's to restore.
        if self
            .shards
            .as_ref()
            .is_some_and(|s| !s.owns_guild(guild.get()))
        {
            return;
        }
        let outgoing = match self.hub.restore(&guild.to_string()).await {
            Ok(o) => o,
            Err(e) => {
                tracing::error!("cannot restore the fights of guild {guild}: {e:#}");
                return;
            }
        };
        for (channel, lines) in group_by_channel(outgoing) {
            match channel_of(&channel) {
                Some(c) => {
                    let turn = self.turn(c);
                    let _turn = turn.lock().await;
                    self.deliver(http, Target::Channel, c, &lines, true).await
                }
                None => tracing::warn!("a restored fight names no Discord channel: {channel}"),
            }
        }
    }

    /// A member holding one of `moderator_roles` is a moderator (the session adds those named
    /// by id). Role names come from the cache that the Guilds intent fills.
    fn rights(&self, ctx: &Context, guild: Option<GuildId>, roles: Option<&[RoleId]>) -> Rights {
        let (Some(guild), Some(roles)) = (guild, roles) else {
            return Rights::default();
        };
        let names: Vec<String> = ctx
            .cache
            .guild(guild)
            .map(|g| {
                roles
                    .iter()
                    .filter_map(|r| g.roles.get(r).map(|role| role.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let config = &self.hub.app().config;
        let permissions = config.permissions_of(config.realm_of(&guild.to_string()));
        Rights {
            moderator: is_moderator(&permissions, "", &names),
        }
    }

    async fn on_command(&self, http: &Http, ci: &CommandInteraction, rights: Rights) {
        let Some(guild) = ci.guild_id else {
            respond_privately(http, ci.id, &ci.token, NOT_IN_A_SERVER).await;
            return;
        };
        let line = match commands::line(&ci.data.name, &ci.data.options) {
            Ok(line) => line,
            Err(e) => {
                respond_privately(http, ci.id, &ci.token, &e.to_string()).await;
                return;
            }
        };
        let private = commands::is_private(&line);
        let defer = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(private),
        );
        if let Err(e) = defer.execute(http, (ci.id, &ci.token)).await {
            tracing::warn!("cannot acknowledge /{}: {e}", ci.data.name);
            return;
        }
        let incoming = Incoming {
            realm: guild.to_string(),
            channel: channel_name(ci.channel_id),
            user: ci.user.id.to_string(),
            text: line,
        };
        let turn = self.turn(ci.channel_id);
        let _turn = turn.lock().await;
        let answer = self.hub.answer(&incoming, rights).await;
        let nick = ci.member.as_ref().and_then(|m| m.nick.as_deref());
        self.keep_name(&incoming.realm, nick, &ci.user).await;
        let target = Target::Interaction {
            token: &ci.token,
            deferred: true,
            private,
        };
        let moves = commands::is_fight_move(&incoming.text);
        if answer.private.is_empty() {
            self.deliver(http, target, ci.channel_id, &answer.lines, moves)
                .await;
        } else if private {
            // The private reply is the speaker's; the channel's lines are posted to it.
            self.deliver(http, target, ci.channel_id, &answer.private, false)
                .await;
            self.deliver(http, Target::Channel, ci.channel_id, &answer.lines, moves)
                .await;
        } else {
            self.deliver(http, target, ci.channel_id, &answer.lines, moves)
                .await;
            self.tell_alone(http, &ci.token, ci.channel_id, &answer.private)
                .await;
        }
    }

    /// Keeps the name a player goes by in the guild (the guild nick, else the global name,
    /// else the username) in the books for the web pages, which never show an id; the books
    /// are written only when it changed, and asked once a name per process.
    async fn keep_name(&self, realm: &str, nick: Option<&str>, user: &User) {
        let name = nick
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| user.display_name())
            .to_string();
        let key = (realm.to_string(), user.id.to_string());
        let known = self
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            == Some(&name);
        if known {
            return;
        }
        match self
            .hub
            .app()
            .store
            .keep_shown_name(realm, &key.1, &name)
            .await
        {
            Ok(true) => {
                self.names
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key, name);
            }
            // Not in the books yet: asked again at their next command.
            Ok(false) => {}
            Err(e) => tracing::warn!("cannot keep the name of Discord user {}: {e:#}", key.1),
        }
    }

    async fn on_component(&self, http: &Http, ci: &ComponentInteraction) {
        let Some(guild) = ci.guild_id else {
            respond_privately(http, ci.id, &ci.token, NOT_IN_A_SERVER).await;
            return;
        };
        let values = match &ci.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => Vec::new(),
        };
        // A user linked to another account (`/link`) presses for the account it plays as.
        let presser = self.playing_as(guild, &ci.user.id.to_string()).await;
        let (line, declaration) = match controls::press(&ci.data.custom_id, &values, &presser) {
            Press::Unknown => {
                respond_privately(http, ci.id, &ci.token, STALE_CONTROL).await;
                return;
            }
            Press::NotYours { awaited } => {
                let text = controls::refusal(&awaited, &ci.message.content);
                respond_privately(http, ci.id, &ci.token, &text).await;
                return;
            }
            Press::Line { line, declaration } => (line, declaration),
        };
        // Acknowledge at once: a move greys out the presser's row; a declaration changes no
        // one's turn, so the message stays as it is.
        let used = (!declaration)
            .then(|| Controls::from_components(&ci.message.components).used_by(&presser));
        let ack = match &used {
            None => CreateInteractionResponse::Acknowledge,
            Some(used) => CreateInteractionResponse::UpdateMessage(
                CreateInteractionResponseMessage::new()
                    .components(used.to_components())
                    .allowed_mentions(messages::allowed_mentions(&[])),
            ),
        };
        if let Err(e) = ack.execute(http, (ci.id, &ci.token)).await {
            tracing::warn!("cannot acknowledge a press: {e}");
            return;
        }
        let turn = self.turn(ci.channel_id);
        let _turn = turn.lock().await;
        if let Some(used) = &used {
            self.update_live(ci.channel_id, ci.message.id, used);
        }
        let incoming = Incoming {
            realm: guild.to_string(),
            channel: channel_name(ci.channel_id),
            user: presser,
            text: line,
        };
        let answer = self.hub.answer(&incoming, Rights::default()).await;
        let nick = ci.member.as_ref().and_then(|m| m.nick.as_deref());
        self.keep_name(&incoming.realm, nick, &ci.user).await;
        let target = Target::Interaction {
            token: &ci.token,
            deferred: false,
            private: false,
        };
        self.deliver(http, target, ci.channel_id, &answer.lines, !declaration)
            .await;
        self.tell_alone(http, &ci.token, ci.channel_id, &answer.private)
            .await;
    }

    /// Lines for an interaction's user alone (a psi skill armed, R21): follow-ups only they see.
    async fn tell_alone(&self, http: &Http, token: &str, channel: ChannelId, lines: &[String]) {
        let alone = Target::Interaction {
            token,
            deferred: false,
            private: true,
        };
        self.deliver(http, alone, channel, lines, false).await;
    }

    async fn on_autocomplete(&self, http: &Http, ci: &CommandInteraction) {
        let mut suggestions = Vec::new();
        if let (Some(guild), Some((arg, typed))) = (
            ci.guild_id,
            commands::focused(&ci.data.name, &ci.data.options),
        ) {
            suggestions = match arg.kind {
                crate::command::ArgKind::Knight => {
                    commands::knight_names(self.hub.app(), &guild.to_string(), typed)
                        .await
                        .unwrap_or_else(|e| {
                            tracing::warn!("cannot suggest knight names: {e:#}");
                            Vec::new()
                        })
                }
                crate::command::ArgKind::Topic => commands::topics(typed),
                _ => Vec::new(),
            };
        }
        let choices = suggestions
            .into_iter()
            .take(commands::MAX_SUGGESTIONS)
            .map(|s| AutocompleteChoice::new(s.clone(), s))
            .collect();
        let answer = CreateInteractionResponse::Autocomplete(
            CreateAutocompleteResponse::new().set_choices(choices),
        );
        if let Err(e) = answer.execute(http, (ci.id, &ci.token)).await {
            tracing::warn!("cannot answer an autocomplete: {e}");
        }
    }

    /// Sends a reply's lines as messages. `supersede`: a move or a timeout, after which the
    /// channel's earlier controls no longer stand (new controls supersede them as well).
    async fn deliver(
        &self,
        http: &Http,
        target: Target<'_>,
        channel: ChannelId,
        lines: &[String],
        supersede: bool,
    ) {
        let mut posts = messages::compose(lines);
        let has_controls = posts.iter().any(|p| !p.controls.is_empty());
        if let Target::Interaction { private: true, .. } = target {
            // Private answers carry no controls: a fight is played in the open.
            for p in &mut posts {
                p.controls = Controls::default();
            }
        }
        if posts.is_empty() {
            if let Target::Interaction { deferred: true, .. } = target {
                // A deferred reply must be completed, or Discord shows "thinking" for 15 min.
                let done = Post {
                    content: "Done.".into(),
                    ..Post::default()
                };
                let _ = self.send(http, target, channel, &done, true).await;
            }
            return;
        }
        let stale = if supersede || has_controls {
            self.take_live(channel)
        } else {
            Vec::new()
        };
        for (i, post) in posts.iter().enumerate() {
            let sent = self.send(http, target, channel, post, i == 0).await;
            if let (Some(sent), false) = (sent, post.controls.is_empty()) {
                self.live
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(channel)
                    .or_default()
                    .push(Live {
                        sent,
                        controls: post.controls.clone(),
                    });
            }
        }
        for old in stale {
            set_controls(http, channel, &old.sent, &old.controls.all_disabled()).await;
        }
    }

    /// Sends one message; returns where it went if it carries controls to track.
    async fn send(
        &self,
        http: &Http,
        target: Target<'_>,
        channel: ChannelId,
        post: &Post,
        first: bool,
    ) -> Option<Sent> {
        let result = match target {
            Target::Interaction {
                token,
                deferred: true,
                ..
            } if first => EditInteractionResponse::new()
                .content(post.content.clone())
                .components(post.controls.to_components())
                .allowed_mentions(post.allowed_mentions())
                .execute(http, token)
                .await
                .map(|m| Sent::Original {
                    token: token.to_string(),
                    message: m.id,
                    since: Instant::now(),
                }),
            Target::Interaction { token, private, .. } => {
                let mut followup = CreateInteractionResponseFollowup::new()
                    .content(post.content.clone())
                    .ephemeral(private)
                    .allowed_mentions(post.allowed_mentions());
                if !post.controls.is_empty() {
                    followup = followup.components(post.controls.to_components());
                }
                followup
                    .execute(http, (None, token))
                    .await
                    .map(|m| Sent::Followup {
                        token: token.to_string(),
                        message: m.id,
                        since: Instant::now(),
                    })
            }
            Target::Channel => {
                let mut message = CreateMessage::new()
                    .content(post.content.clone())
                    .allowed_mentions(post.allowed_mentions());
                if !post.controls.is_empty() {
                    message = message.components(post.controls.to_components());
                }
                channel
                    .send_message(http, message)
                    .await
                    .map(|m| Sent::Channel { message: m.id })
            }
        };
        match result {
            Ok(sent) => Some(sent),
            Err(e) => {
                tracing::warn!("cannot send to {channel}: {e}");
                None
            }
        }
    }

    fn turn(&self, channel: ChannelId) -> Arc<tokio::sync::Mutex<()>> {
        self.turns
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(channel)
            .or_default()
            .clone()
    }

    fn take_live(&self, channel: ChannelId) -> Vec<Live> {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&channel)
            .unwrap_or_default()
    }

    /// Records a message's controls after a press; forgets the message once none is live.
    fn update_live(&self, channel: ChannelId, message: MessageId, controls: &Controls) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = live.get_mut(&channel) {
            for l in list.iter_mut().filter(|l| l.sent.message() == message) {
                l.controls = controls.clone();
            }
            list.retain(|l| l.controls.is_live());
            if list.is_empty() {
                live.remove(&channel);
            }
        }
    }
}

/// Greys out (or otherwise replaces) the controls of a message Herald sent.
async fn set_controls(http: &Http, channel: ChannelId, sent: &Sent, controls: &Controls) {
    let rows = controls.to_components();
    let result = match sent {
        Sent::Original { token, since, .. } if since.elapsed() < TOKEN_LIFETIME => {
            EditInteractionResponse::new()
                .components(rows)
                .execute(http, token)
                .await
                .map(drop)
        }
        Sent::Followup {
            token,
            message,
            since,
        } if since.elapsed() < TOKEN_LIFETIME => CreateInteractionResponseFollowup::new()
            .components(rows)
            .execute(http, (Some(*message), token))
            .await
            .map(drop),
        other => channel
            .edit_message(http, other.message(), EditMessage::new().components(rows))
            .await
            .map(drop),
    };
    if let Err(e) = result {
        tracing::warn!("cannot grey out old buttons in {channel}: {e}");
    }
}

/// Answers an interaction with a message only its user sees, pinging no one.
async fn respond_privately(http: &Http, id: serenity::all::InteractionId, token: &str, text: &str) {
    let answer = CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new()
            .content(
                messages::split(text, messages::MAX_CHARS)
                    .into_iter()
                    .next()
                    .unwrap_or_default(),
            )
            .ephemeral(true)
            .allowed_mentions(messages::allowed_mentions(&[])),
    );
    if let Err(e) = answer.execute(http, (id, token)).await {
        tracing::warn!("cannot answer an interaction: {e}");
    }
}

/// Posts the hub's timeout lines, one message per channel and step.
async fn forward(
    herald: Arc<Herald>,
    http: Arc<Http>,
    mut outgoing: mpsc::UnboundedReceiver<Outgoing>,
) {
    while let Some(first) = outgoing.recv().await {
        let mut batch = vec![first];
        let mut open = true;
        // A step's lines are sent one by one in a burst: gather the burst.
        while batch.len() < MAX_BATCH {
            match tokio::time::timeout(COALESCE, outgoing.recv()).await {
                Ok(Some(o)) => batch.push(o),
                Ok(None) => {
                    open = false;
                    break;
                }
                Err(_) => break,
            }
        }
        batch.retain(|o| is_discord_realm(&o.realm));
        for (channel, lines) in group_by_channel(batch) {
            match channel_of(&channel) {
                Some(c) => {
                    let turn = herald.turn(c);
                    let _turn = turn.lock().await;
                    herald
                        .deliver(&http, Target::Channel, c, &lines, true)
                        .await
                }
                None => tracing::warn!("a timeout names no Discord channel: {channel}"),
            }
        }
        if !open {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_never_shows() {
        let t = Token::new("MTIz.secret.value");
        assert_eq!(format!("{t:?}"), "Token(<hidden>)");
        assert_eq!(format!("{t}"), "<hidden>");
        assert_eq!(t.expose(), "MTIz.secret.value");
    }

    #[test]
    fn a_missing_token_names_the_variable_not_a_value() {
        let config = DiscordConfig {
            token_env: "HERALD_TEST_TOKEN_THAT_IS_NEVER_SET".into(),
            ..DiscordConfig::default()
        };
        let err = Token::from_env(&config).unwrap_err().to_string();
        assert!(err.contains("HERALD_TEST_TOKEN_THAT_IS_NEVER_SET"), "{err}");
    }

    #[test]
    fn intents_are_minimal_unless_prefix_commands_are_on() {
        let plain = intents(&Settings::default());
        assert_eq!(plain, GatewayIntents::GUILDS);
        assert!(!plain.intersects(GatewayIntents::privileged()));
        let prefixed = intents(&Settings {
            prefix_commands: true,
        });
        assert!(prefixed.contains(GatewayIntents::MESSAGE_CONTENT));
        assert!(prefixed.contains(GatewayIntents::GUILD_MESSAGES));
        assert!(!prefixed.contains(GatewayIntents::GUILD_MEMBERS));
        assert!(!prefixed.contains(GatewayIntents::GUILD_PRESENCES));
    }

    #[test]
    fn channels_are_written_as_links_and_read_back() {
        let c = ChannelId::new(555);
        assert_eq!(channel_name(c), "<#555>");
        assert_eq!(channel_of("<#555>"), Some(c));
        assert_eq!(channel_of("#lists"), None);
        assert_eq!(channel_of("<#0>"), None);
        assert_eq!(channel_of("<#x>"), None);
    }

    #[test]
    fn discord_realms_are_guild_ids() {
        assert!(is_discord_realm("123456789012345678"));
        assert!(!is_discord_realm("local"));
        assert!(!is_discord_realm("irc.libera.chat"));
        assert!(!is_discord_realm(""));
    }

    #[test]
    fn moderators_by_id_or_by_role_name() {
        let p = Permissions {
            admins: vec!["111".into()],
            moderators: vec!["222".into()],
            moderator_roles: vec!["Herald".into()],
        };
        assert!(is_moderator(&p, "111", &[]));
        assert!(is_moderator(&p, "222", &[]));
        assert!(is_moderator(&p, "333", &["herald".into()]));
        assert!(!is_moderator(&p, "333", &["Squire".into()]));
    }

    #[test]
    fn timeout_lines_are_grouped_into_one_message_per_channel() {
        let o = |c: &str, t: &str| Outgoing {
            realm: "1".into(),
            channel: c.into(),
            text: t.into(),
        };
        let groups = group_by_channel(vec![
            o("<#1>", "a"),
            o("<#2>", "x"),
            o("<#1>", "b"),
            o("<#1>", "c"),
        ]);
        assert_eq!(
            groups,
            vec![
                ("<#1>".to_string(), vec!["a".into(), "b".into(), "c".into()]),
                ("<#2>".to_string(), vec!["x".into()]),
            ]
        );
    }

    #[tokio::test]
    async fn the_outbox_splits_by_realm() {
        let (tx, rx) = mpsc::unbounded_channel();
        let (mut discord, mut other) = split_outbox(rx);
        let o = |realm: &str| Outgoing {
            realm: realm.into(),
            channel: "c".into(),
            text: "t".into(),
        };
        tx.send(o("123")).unwrap();
        tx.send(o("irc.example")).unwrap();
        drop(tx);
        let wait = Duration::from_secs(5);
        let d = tokio::time::timeout(wait, discord.recv()).await.unwrap();
        assert_eq!(d.map(|o| o.realm), Some("123".to_string()));
        let i = tokio::time::timeout(wait, other.recv()).await.unwrap();
        assert_eq!(i.map(|o| o.realm), Some("irc.example".to_string()));
    }
}
