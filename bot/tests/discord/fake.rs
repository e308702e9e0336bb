//! A fake Discord on 127.0.0.1: a REST endpoint that records every call Herald makes and keeps
//! the messages it posts, and a gateway that says Hello, takes the Identify, sends READY, then
//! whatever events a test pushes (`INTERACTION_CREATE`, `MESSAGE_CREATE`).
//!
//! The gateway serves one session per shard, as Discord does: each Identify names its
//! `[shard_id, shard_total]`, READY lists the guilds of that shard, and an event goes to the
//! session of its guild's shard (`(guild_id >> 22) % shard_total`), one without a guild (a
//! direct message) to shard 0's. Events for a shard with no session wait for one.
//!
//! Only what Herald uses is implemented; anything else answers 404 so a test sees it.
#![allow(dead_code)]

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch, Notify};
use tokio_tungstenite::tungstenite::Message as WsMessage;

pub const APP: u64 = 900_000_000_000_000_001;
pub const BOT: u64 = 900_000_000_000_000_002;
pub const GUILD: u64 = 900_000_000_000_000_003;
pub const CHANNEL: u64 = 900_000_000_000_000_004;
/// The direct-message channel Herald opens with any user.
pub const DM_CHANNEL: u64 = 900_000_000_000_000_005;
/// A second guild, on shard 0 of 2 (GUILD is on shard 1 of 2).
pub const GUILD_2: u64 = 900_000_000_004_194_307;
/// A channel of GUILD_2.
pub const CHANNEL_2: u64 = 900_000_000_004_194_308;

/// The shard of `guild` among `total`, as Discord computes it.
pub fn shard_of(guild: u64, total: u64) -> u64 {
    (guild >> 22) % total.max(1)
}

/// How long any wait on Herald may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// One REST call Herald made.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    /// The path without the query.
    pub path: String,
    pub authorization: Option<String>,
    pub body: Value,
}

impl Call {
    pub fn is(&self, method: &str, path_start: &str) -> bool {
        self.method == method && self.path.starts_with(path_start)
    }
}

#[derive(Default)]
struct State {
    calls: Vec<Call>,
    /// Every message Herald posted or edited, by id, as Discord would return it.
    messages: HashMap<u64, Value>,
    /// The order messages were created in.
    order: Vec<u64>,
    /// Each interaction token's original response.
    originals: HashMap<String, u64>,
    /// The message a component interaction was pressed on, by the interaction's token.
    pressed_on: HashMap<String, u64>,
    next_id: u64,
    identify: Option<Value>,
    /// Every Identify, in order.
    identifies: Vec<Value>,
    /// The shards whose session is connected now.
    connected: Vec<u64>,
}

/// The gateway's sessions, one per shard, and the events waiting for theirs.
#[derive(Default)]
struct Router {
    /// The shard total the sessions identified with (1 until one does).
    total: u64,
    /// Each shard's session: its connection's number and where its events go.
    sessions: HashMap<u64, (u64, mpsc::UnboundedSender<(String, Value)>)>,
    /// Events whose shard has no session yet, in order.
    pending: Vec<(String, Value)>,
}

impl Router {
    /// Sends every waiting event whose shard has a session.
    fn dispatch(&mut self) {
        let total = self.total.max(1);
        let mut kept = Vec::new();
        for (name, data) in std::mem::take(&mut self.pending) {
            let guild = data["guild_id"]
                .as_str()
                .and_then(|g| g.parse::<u64>().ok());
            let shard = guild.map_or(0, |g| shard_of(g, total));
            match self.sessions.get(&shard) {
                Some((_, to)) if to.send((name.clone(), data.clone())).is_ok() => {}
                _ => kept.push((name, data)),
            }
        }
        self.pending = kept;
    }
}

impl State {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        800_000_000_000_000_000 + self.next_id
    }
}

/// The fake; dropped at the end of a test with everything it spawned stopped by the runtime.
pub struct Fake {
    pub rest_url: String,
    pub gateway_url: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    events: mpsc::UnboundedSender<(String, Value)>,
    /// How many sessions have identified so far.
    ready: watch::Receiver<usize>,
    cursor: usize,
    next_interaction: u64,
    /// The guild and channel commands and chat come from.
    place: (u64, u64),
}

impl Fake {
    pub async fn start() -> Fake {
        Fake::start_with_guilds(vec![GUILD]).await
    }

    /// A fake whose bot is in `guilds` (each shard's READY lists those of its shard).
    pub async fn start_with_guilds(guilds: Vec<u64>) -> Fake {
        let rest = TcpListener::bind("127.0.0.1:0").await.expect("a REST port");
        let gateway = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a gateway port");
        let rest_url = format!("http://{}", rest.local_addr().unwrap());
        let gateway_url = format!("ws://{}", gateway.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State::default()));
        let changed = Arc::new(Notify::new());
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let (ready_tx, ready_rx) = watch::channel(0usize);
        tokio::spawn(serve_rest(
            rest,
            gateway_url.clone(),
            state.clone(),
            changed.clone(),
        ));
        tokio::spawn(serve_gateway(
            gateway,
            gateway_url.clone(),
            events_rx,
            ready_tx,
            state.clone(),
            changed.clone(),
            guilds,
        ));
        Fake {
            rest_url,
            gateway_url,
            state,
            changed,
            events: events_tx,
            ready: ready_rx,
            cursor: 0,
            next_interaction: 0,
            place: (GUILD, CHANNEL),
        }
    }

    /// Waits until the gateway has sent READY.
    pub async fn wait_ready(&mut self) {
        self.wait_sessions(1).await;
    }

    /// Waits until `n` sessions have identified (counting reconnections).
    pub async fn wait_sessions(&mut self, n: usize) {
        tokio::time::timeout(PATIENCE, self.ready.wait_for(|r| *r >= n))
            .await
            .expect("Herald connects to the gateway in time")
            .expect("the gateway runs");
    }

    /// Every Identify so far, in order.
    pub fn identifies(&self) -> Vec<Value> {
        self.state.lock().unwrap().identifies.clone()
    }

    /// Waits until the shards connected are exactly `shards` (in any order).
    pub async fn wait_connected(&mut self, shards: &[u64]) {
        let mut want = shards.to_vec();
        want.sort_unstable();
        let found = tokio::time::timeout(PATIENCE, async {
            loop {
                let notified = self.changed.notified();
                {
                    let mut now = self.state.lock().unwrap().connected.clone();
                    now.sort_unstable();
                    if now == want {
                        return;
                    }
                }
                notified.await;
            }
        })
        .await;
        if found.is_err() {
            let s = self.state.lock().unwrap();
            let shards: Vec<&Value> = s.identifies.iter().map(|i| &i["shard"]).collect();
            panic!(
                "the sessions connected are {:?}, not {want:?} (identified: {shards:?})",
                s.connected
            );
        }
    }

    /// Commands and chat come from `channel` of `guild` from now on.
    pub fn set_place(&mut self, guild: u64, channel: u64) {
        self.place = (guild, channel);
    }

    /// What Herald identified with.
    pub fn identify(&self) -> Option<Value> {
        self.state.lock().unwrap().identify.clone()
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<Call> {
        self.state.lock().unwrap().calls.clone()
    }

    /// Waits for the next call after the previous match that satisfies `pred`.
    pub async fn wait_for(&mut self, what: &str, pred: impl Fn(&Call) -> bool) -> Call {
        let found = tokio::time::timeout(PATIENCE, async {
            loop {
                let notified = self.changed.notified();
                {
                    let state = self.state.lock().unwrap();
                    if let Some((i, call)) = state
                        .calls
                        .iter()
                        .enumerate()
                        .skip(self.cursor)
                        .find(|(_, c)| pred(c))
                    {
                        self.cursor = i + 1;
                        return call.clone();
                    }
                }
                notified.await;
            }
        })
        .await;
        match found {
            Ok(call) => call,
            Err(_) => panic!(
                "Herald did not make {what} in time; calls so far:\n{:#?}",
                self.calls()
            ),
        }
    }

    /// A message Herald posted, as it stands now.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.state.lock().unwrap().messages.get(&id).cloned()
    }

    /// The newest message with an enabled control `custom_id`.
    pub fn message_with(&self, custom_id: &str) -> Option<Value> {
        let state = self.state.lock().unwrap();
        state
            .order
            .iter()
            .rev()
            .filter_map(|id| state.messages.get(id))
            .find(|m| {
                m["components"].as_array().is_some_and(|rows| {
                    rows.iter().any(|row| {
                        row["components"].as_array().is_some_and(|cs| {
                            cs.iter()
                                .any(|c| c["custom_id"] == custom_id && c["disabled"] != true)
                        })
                    })
                })
            })
            .cloned()
    }

    /// Every control on a message, with whether it is disabled.
    pub fn controls_of(message: &Value) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        for row in message["components"].as_array().into_iter().flatten() {
            for c in row["components"].as_array().into_iter().flatten() {
                out.push((
                    c["custom_id"].as_str().unwrap_or_default().to_string(),
                    c["disabled"] == true,
                ));
            }
        }
        out
    }

    fn next_token(&mut self) -> (u64, String) {
        self.next_interaction += 1;
        (
            700_000_000_000_000_000 + self.next_interaction,
            format!("interaction-token-{}", self.next_interaction),
        )
    }

    /// Sends a slash command from `user`; returns its interaction token.
    pub fn command(&mut self, user: u64, name: &str, options: Value, resolved: Value) -> String {
        let (id, token) = self.next_token();
        let data = json!({
            "id": "600000000000000001",
            "name": name,
            "type": 1,
            "options": options,
            "resolved": resolved,
            "guild_id": self.place.0.to_string(),
        });
        let mut interaction = interaction_base(id, &token, user, 2, self.place);
        interaction["data"] = data;
        self.send_event("INTERACTION_CREATE", interaction);
        token
    }

    /// Sends a slash command from `user` going by `nick` in the guild (or none) and `global`
    /// as their global name (or none); returns its interaction token.
    pub fn command_named(
        &mut self,
        user: u64,
        nick: Option<&str>,
        global: Option<&str>,
        name: &str,
        options: Value,
    ) -> String {
        let (id, token) = self.next_token();
        let mut interaction = interaction_base(id, &token, user, 2, self.place);
        interaction["member"]["nick"] = json!(nick);
        interaction["member"]["user"]["global_name"] = json!(global);
        interaction["data"] = json!({
            "id": "600000000000000001",
            "name": name,
            "type": 1,
            "options": options,
            "resolved": {},
            "guild_id": self.place.0.to_string(),
        });
        self.send_event("INTERACTION_CREATE", interaction);
        token
    }

    /// Sends a slash command from `user` in a direct message (no guild); returns its token.
    pub fn direct_command(&mut self, user: u64, name: &str, options: Value) -> String {
        let (id, token) = self.next_token();
        let mut interaction = interaction_base(id, &token, user, 2, (0, DM_CHANNEL));
        for key in ["guild_id", "member", "guild_locale"] {
            interaction.as_object_mut().unwrap().remove(key);
        }
        interaction["user"] = user_json(user);
        interaction["context"] = json!(1);
        interaction["authorizing_integration_owners"] = json!({"1": user.to_string()});
        interaction["data"] = json!({
            "id": "600000000000000001",
            "name": name,
            "type": 1,
            "options": options,
            "resolved": {},
        });
        self.send_event("INTERACTION_CREATE", interaction);
        token
    }

    /// Sends an autocomplete request (what `user` is typing into a command); returns its token.
    pub fn autocomplete(&mut self, user: u64, name: &str, options: Value) -> String {
        let (id, token) = self.next_token();
        let mut interaction = interaction_base(id, &token, user, 4, self.place);
        interaction["data"] = json!({
            "id": "600000000000000001",
            "name": name,
            "type": 1,
            "options": options,
            "guild_id": self.place.0.to_string(),
        });
        self.send_event("INTERACTION_CREATE", interaction);
        token
    }

    /// Presses the control `custom_id` on `message` as `user`; returns the interaction token.
    pub fn press(
        &mut self,
        user: u64,
        message: &Value,
        custom_id: &str,
        values: &[&str],
    ) -> String {
        let (id, token) = self.next_token();
        let mut interaction = interaction_base(id, &token, user, 3, self.place);
        interaction["data"] = if values.is_empty() {
            json!({"custom_id": custom_id, "component_type": 2})
        } else {
            json!({"custom_id": custom_id, "component_type": 3, "values": values})
        };
        interaction["message"] = message.clone();
        let message_id: u64 = message["id"].as_str().unwrap().parse().unwrap();
        self.state
            .lock()
            .unwrap()
            .pressed_on
            .insert(token.clone(), message_id);
        self.send_event("INTERACTION_CREATE", interaction);
        token
    }

    /// A chat message from `user` in the channel.
    pub fn chat(&mut self, user: u64, content: &str) {
        let (id, _) = self.next_token();
        let message = json!({
            "id": id.to_string(),
            "channel_id": self.place.1.to_string(),
            "guild_id": self.place.0.to_string(),
            "author": user_json(user),
            "member": member_json(None),
            "content": content,
            "timestamp": "2026-12-01T10:00:00.000000+00:00",
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
        });
        self.send_event("MESSAGE_CREATE", message);
    }

    fn send_event(&self, name: &str, data: Value) {
        self.events
            .send((name.to_string(), data))
            .expect("the gateway is running");
    }
}

pub fn user_json(id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "username": format!("user{}", id % 1000),
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": id == BOT,
    })
}

fn member_json(user: Option<u64>) -> Value {
    let mut m = json!({
        "roles": [],
        "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "nick": null,
        "avatar": null,
        "premium_since": null,
        "permissions": "0",
    });
    if let Some(u) = user {
        m["user"] = user_json(u);
    }
    m
}

fn interaction_base(id: u64, token: &str, user: u64, kind: u8, place: (u64, u64)) -> Value {
    let (guild, channel) = place;
    json!({
        "id": id.to_string(),
        "application_id": APP.to_string(),
        "type": kind,
        "token": token,
        "version": 1,
        "guild_id": guild.to_string(),
        "channel_id": channel.to_string(),
        "member": member_json(Some(user)),
        "app_permissions": "0",
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": guild.to_string()},
        "context": 0,
        "attachment_size_limit": 10_485_760,
    })
}

/// Fills in what Discord adds to components Herald sends.
fn normalize_components(components: &Value) -> Value {
    let mut rows = components.clone();
    for row in rows.as_array_mut().into_iter().flatten() {
        for c in row["components"].as_array_mut().into_iter().flatten() {
            if c.get("disabled").is_none() {
                c["disabled"] = json!(false);
            }
            for o in c["options"].as_array_mut().into_iter().flatten() {
                if o.get("default").is_none() {
                    o["default"] = json!(false);
                }
            }
        }
    }
    rows
}

fn message_json(id: u64, body: &Value, flags: u64) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": CHANNEL.to_string(),
        "guild_id": GUILD.to_string(),
        "author": user_json(BOT),
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "timestamp": "2026-12-01T10:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "flags": flags,
        "components": normalize_components(body.get("components").unwrap_or(&json!([]))),
        "allowed_mentions": body.get("allowed_mentions").cloned().unwrap_or(Value::Null),
    })
}

/// Applies an edit's fields to a stored message.
fn edit(message: &mut Value, body: &Value) {
    if let Some(content) = body.get("content") {
        message["content"] = content.clone();
    }
    if let Some(components) = body.get("components") {
        message["components"] = normalize_components(components);
    }
    if let Some(am) = body.get("allowed_mentions") {
        message["allowed_mentions"] = am.clone();
    }
}

async fn serve_rest(
    listener: TcpListener,
    gateway_url: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(connection(
            stream,
            gateway_url.clone(),
            state.clone(),
            changed.clone(),
        ));
    }
}

/// One keep-alive HTTP/1.1 connection.
async fn connection(
    stream: TcpStream,
    gateway_url: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        match reader.read_line(&mut request_line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let target = parts.next().unwrap_or_default().to_string();
        let mut length = 0usize;
        let mut authorization = None;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).await.unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                match name.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap_or(0),
                    "authorization" => authorization = Some(value.trim().to_string()),
                    _ => {}
                }
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let path = target.split('?').next().unwrap_or_default().to_string();
        let (status, response) = route(&state, &gateway_url, &method, &path, &body);
        state.lock().unwrap().calls.push(Call {
            method,
            path,
            authorization,
            body,
        });
        changed.notify_waiters();
        let text = response.map(|v| v.to_string()).unwrap_or_default();
        let reason = match status {
            200 => "OK",
            204 => "No Content",
            _ => "Not Found",
        };
        let head = if status == 204 {
            format!("HTTP/1.1 204 {reason}\r\n\r\n")
        } else {
            format!(
                "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                text.len()
            )
        };
        let stream = reader.get_mut();
        if stream.write_all(head.as_bytes()).await.is_err()
            || (status != 204 && stream.write_all(text.as_bytes()).await.is_err())
        {
            return;
        }
    }
}

fn route(
    state: &Mutex<State>,
    gateway_url: &str,
    method: &str,
    path: &str,
    body: &Value,
) -> (u16, Option<Value>) {
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let mut s = state.lock().unwrap();
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => (200, Some(json!({"url": gateway_url}))),
        ("GET", ["gateway", "bot"]) => (
            200,
            Some(json!({
                "url": gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
            })),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let commands: Vec<Value> = body
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(i, mut c)| {
                    c["id"] = json!((500_000_000_000_000_000u64 + i as u64).to_string());
                    c["application_id"] = json!(APP.to_string());
                    c["version"] = json!("1");
                    if c.get("type").is_none() {
                        c["type"] = json!(1);
                    }
                    c["default_member_permissions"] = Value::Null;
                    c
                })
                .collect();
            (200, Some(Value::Array(commands)))
        }
        ("POST", ["interactions", _, token, "callback"]) => {
            let kind = body["type"].as_u64().unwrap_or(0);
            let data = body.get("data").cloned().unwrap_or(json!({}));
            let flags = data["flags"].as_u64().unwrap_or(0);
            match kind {
                4 | 5 => {
                    let id = s.id();
                    s.messages.insert(id, message_json(id, &data, flags));
                    s.order.push(id);
                    s.originals.insert(token.to_string(), id);
                }
                7 => {
                    if let Some(id) = s.pressed_on.get(*token).copied() {
                        if let Some(m) = s.messages.get_mut(&id) {
                            edit(m, &data);
                        }
                    }
                }
                _ => {}
            }
            (204, None)
        }
        ("PATCH", ["webhooks", _, token, "messages", which]) => {
            let id = if *which == "@original" {
                s.originals.get(*token).copied()
            } else {
                which.parse().ok()
            };
            match id.and_then(|id| s.messages.get_mut(&id)) {
                Some(m) => {
                    edit(m, body);
                    (200, Some(m.clone()))
                }
                None => not_found(),
            }
        }
        ("POST", ["webhooks", _, _token]) => {
            let id = s.id();
            let flags = body["flags"].as_u64().unwrap_or(0);
            let m = message_json(id, body, flags);
            s.messages.insert(id, m.clone());
            s.order.push(id);
            (200, Some(m))
        }
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = body["recipient_id"]
                .as_str()
                .and_then(|id| id.parse().ok())
                .unwrap_or(0);
            (
                200,
                Some(json!({
                    "id": DM_CHANNEL.to_string(),
                    "type": 1,
                    "last_message_id": null,
                    "recipients": [user_json(recipient)],
                })),
            )
        }
        ("POST", ["channels", _, "messages"]) => {
            let id = s.id();
            let m = message_json(id, body, 0);
            s.messages.insert(id, m.clone());
            s.order.push(id);
            (200, Some(m))
        }
        ("PATCH", ["channels", _, "messages", which]) => {
            match which
                .parse::<u64>()
                .ok()
                .and_then(|id| s.messages.get_mut(&id))
            {
                Some(m) => {
                    edit(m, body);
                    (200, Some(m.clone()))
                }
                None => not_found(),
            }
        }
        _ => not_found(),
    }
}

fn not_found() -> (u16, Option<Value>) {
    (404, Some(json!({"message": "404: Not Found", "code": 0})))
}

fn ready_payload(gateway_url: &str, shard: [u64; 2], guilds: &[u64]) -> Value {
    let guilds: Vec<Value> = guilds
        .iter()
        .filter(|g| shard_of(**g, shard[1]) == shard[0])
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    json!({
        "v": 10,
        "user": {
            "id": BOT.to_string(),
            "username": "Herald",
            "discriminator": "0",
            "global_name": null,
            "avatar": null,
            "bot": true,
            "verified": true,
            "mfa_enabled": false,
            "flags": 0,
        },
        "guilds": guilds,
        "session_id": format!("fake-session-{}", shard[0]),
        "resume_gateway_url": gateway_url,
        "shard": shard,
        "application": {"id": APP.to_string(), "flags": 0},
        "private_channels": [],
        "presences": [],
        "relationships": [],
    })
}

async fn serve_gateway(
    listener: TcpListener,
    gateway_url: String,
    mut events: mpsc::UnboundedReceiver<(String, Value)>,
    ready: watch::Sender<usize>,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    guilds: Vec<u64>,
) {
    let router = Arc::new(Mutex::new(Router::default()));
    let ready = Arc::new(ready);
    let guilds = Arc::new(guilds);
    {
        let router = router.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                let mut r = router.lock().unwrap();
                r.pending.push(event);
                r.dispatch();
            }
        });
    }
    let gateway = Arc::new(Gateway {
        url: gateway_url,
        router,
        ready,
        state,
        changed,
        guilds,
    });
    // Each connection is a session; a reconnecting client is served again from Hello.
    let mut number = 0u64;
    while let Ok((stream, _)) = listener.accept().await {
        number += 1;
        tokio::spawn(session(stream, number, gateway.clone()));
    }
}

/// What every session of the gateway shares.
struct Gateway {
    url: String,
    router: Arc<Mutex<Router>>,
    ready: Arc<watch::Sender<usize>>,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    guilds: Arc<Vec<u64>>,
}

/// One gateway connection: Hello, then heartbeats acknowledged, Identify answered with READY
/// for its shard, and its shard's events.
async fn session(stream: TcpStream, number: u64, gateway: Arc<Gateway>) {
    let Gateway {
        url: gateway_url,
        router,
        ready,
        state,
        changed,
        guilds,
    } = &*gateway;
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": null, "t": null});
    if ws.send(WsMessage::Text(hello.to_string())).await.is_err() {
        return;
    }
    let (to_session, mut mine) = mpsc::unbounded_channel::<(String, Value)>();
    let mut shard: Option<u64> = None;
    let mut seq = 0u64;
    loop {
        tokio::select! {
            incoming = ws.next() => {
                let Some(Ok(msg)) = incoming else { break };
                let Ok(text) = msg.into_text() else { continue };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else { continue };
                match payload["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11, "d": null, "s": null, "t": null});
                        if ws.send(WsMessage::Text(ack.to_string())).await.is_err() { break; }
                    }
                    Some(2) => {
                        let d = payload["d"].clone();
                        let id = d["shard"][0].as_u64().unwrap_or(0);
                        let total = d["shard"][1].as_u64().unwrap_or(1).max(1);
                        {
                            let mut s = state.lock().unwrap();
                            s.identify = Some(d.clone());
                            s.identifies.push(d);
                            s.connected.push(id);
                        }
                        changed.notify_waiters();
                        seq += 1;
                        let event = json!({"op": 0, "t": "READY", "s": seq, "d": ready_payload(gateway_url, [id, total], guilds)});
                        if ws.send(WsMessage::Text(event.to_string())).await.is_err() { break; }
                        shard = Some(id);
                        {
                            let mut r = router.lock().unwrap();
                            r.total = total;
                            r.sessions.insert(id, (number, to_session.clone()));
                            r.dispatch();
                        }
                        ready.send_modify(|n| *n += 1);
                    }
                    _ => {}
                }
            }
            event = mine.recv() => {
                let Some((name, data)) = event else { break };
                seq += 1;
                let event = json!({"op": 0, "t": name, "s": seq, "d": data});
                if ws.send(WsMessage::Text(event.to_string())).await.is_err() { break; }
            }
        }
    }
    // A closed session's shard waits for its next one.
    if let Some(id) = shard {
        {
            let mut r = router.lock().unwrap();
            if r.sessions.get(&id).is_some_and(|(n, _)| *n == number) {
                r.sessions.remove(&id);
            }
        }
        let mut s = state.lock().unwrap();
        if let Some(i) = s.connected.iter().position(|c| *c == id) {
            s.connected.remove(i);
        }
    }
    changed.notify_waiters();
}
