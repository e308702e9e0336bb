//! The Discord transport end to end, against a fake Discord on 127.0.0.1: serenity's REST goes
//! to a local server through `[discord] proxy`, whose `/gateway` answers with a local gateway
//! that sends Hello, READY, then the interactions a test writes. The tests assert on the REST
//! calls Herald makes and on the books in SQLite.

#[path = "discord/fake.rs"]
mod fake;

use fake::{Call, Fake, APP, CHANNEL, CHANNEL_2, DM_CHANNEL, GUILD, GUILD_2};
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::{Config, DiscordConfig};
use herald_bot::hub::Hub;
use herald_bot::store::Store;
use herald_bot::transport::discord::{self, Settings, Token};
use serde_json::{json, Value};
use std::sync::Arc;

const DANA: u64 = 111_111_111_111_111_111;
const EVAN: u64 = 222_222_222_222_222_222;
const BYSTANDER: u64 = 333_333_333_333_333_333;

/// Herald on Discord, wired to a fake, with its books in a temporary SQLite file.
struct Herald {
    fake: Fake,
    app: Arc<App>,
    transport: tokio::task::JoinHandle<()>,
    dir: tempfile::TempDir,
}

impl Herald {
    async fn start(settings: Settings) -> Herald {
        Herald::start_with(settings, Config::default()).await
    }

    async fn start_with(settings: Settings, config: Config) -> Herald {
        let dir = tempfile::tempdir().expect("a temp dir");
        Herald::start_in(settings, config, dir).await
    }

    /// Starts on the books in `dir`, as after a restart.
    async fn start_in(settings: Settings, config: Config, dir: tempfile::TempDir) -> Herald {
        // Herald's warnings (a refused REST call) show with a failing test's output.
        let _ = tracing_subscriber::fmt()
            .with_env_filter("warn")
            .with_test_writer()
            .try_init();
        let store = Store::open(&dir.path().join("herald.db"))
            .await
            .expect("the database opens");
        let app = Arc::new(App::new(store, config, Some(7)).expect("the app"));
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let hub = Arc::new(Hub::live(
            app.clone(),
            Arc::new(Clock::live()),
            vec!['/', '!'],
            tx,
        ));
        let mut fake = Fake::start().await;
        let config = DiscordConfig {
            token_env: "UNUSED_IN_TESTS".into(),
            guild_ids: vec![GUILD],
            proxy: fake.rest_url.clone(),
            prefix_commands: settings.prefix_commands,
            ..Default::default()
        };
        let transport = tokio::spawn(async move {
            let token = Token::new("test-token");
            if let Err(e) = discord::serve(hub, &config, settings, token, rx).await {
                eprintln!("the Discord transport stopped: {e:#}");
            }
        });
        fake.wait_ready().await;
        fake.wait_for("the command registration", |c| {
            c.is(
                "PUT",
                &format!("/api/v10/applications/{APP}/guilds/{GUILD}/commands"),
            )
        })
        .await;
        Herald {
            fake,
            app,
            transport,
            dir,
        }
    }

    /// Stops this Herald's transport and hands over its books.
    fn stop(self) -> tempfile::TempDir {
        self.transport.abort();
        self.dir
    }

    /// Sends a slash command and waits for its deferred reply to be filled in.
    async fn command(&mut self, user: u64, name: &str, options: Value, resolved: Value) -> Call {
        let token = self.fake.command(user, name, options, resolved);
        self.fake
            .wait_for("the deferral", |c| {
                c.is("POST", "/api/v10/interactions/") && c.path.contains(&token)
            })
            .await;
        let original = format!("/webhooks/{APP}/{token}/messages/@original");
        self.fake
            .wait_for("the answer", |c| {
                c.method == "PATCH" && c.path.ends_with(&original)
            })
            .await
    }

    /// Presses a control as `user` and returns the acknowledgement and the follow-up.
    async fn press(&mut self, user: u64, custom_id: &str) -> (Call, Call) {
        let message = self
            .fake
            .message_with(custom_id)
            .unwrap_or_else(|| panic!("no message offers {custom_id}"));
        let token = self.fake.press(user, &message, custom_id, &[]);
        let ack = self
            .fake
            .wait_for("the acknowledgement", |c| {
                c.is("POST", "/api/v10/interactions/") && c.path.contains(&token)
            })
            .await;
        let followup = self
            .fake
            .wait_for("the follow-up", |c| {
                c.method == "POST" && c.path == format!("/api/v10/webhooks/{APP}/{token}")
            })
            .await;
        (ack, followup)
    }
}

fn content(call: &Call) -> &str {
    call.body["content"].as_str().unwrap_or_default()
}

fn button(user: u64, word: &str) -> String {
    format!("herald:{user}:{word}")
}

/// `allowed_mentions` that ping exactly `users`, and never everyone or a role.
fn assert_pings_only(call: &Call, users: &[u64]) {
    let am = &call.body["allowed_mentions"];
    assert_eq!(am["parse"], json!([]), "{am}");
    assert_eq!(am["roles"], json!([]), "{am}");
    let wanted: Vec<String> = users.iter().map(u64::to_string).collect();
    assert_eq!(am["users"], json!(wanted), "{am}");
}

fn create_knight(name: &str, top: &str, psi: &str, monarch: &str, dame: bool) -> Value {
    json!([{"name": "create", "type": 1, "options": [
        {"name": "name", "type": 3, "value": name},
        {"name": "top", "type": 3, "value": top},
        {"name": "psi", "type": 3, "value": psi},
        {"name": "monarch", "type": 3, "value": monarch},
        {"name": "dame", "type": 5, "value": dame}
    ]}])
}

async fn dubbed(herald: &mut Herald) {
    let answer = herald
        .command(
            DANA,
            "knight",
            create_knight(
                "Dara",
                "observe,dodge,sword",
                "hypercognition:20,apportation:20",
                "seonaid",
                true,
            ),
            json!({}),
        )
        .await;
    assert!(
        content(&answer).starts_with("Dame Dara is dubbed"),
        "{answer:?}"
    );
    let answer = herald
        .command(
            EVAN,
            "knight",
            create_knight(
                "Eoin",
                "lance,shield,ride",
                "mesmerism:20,negapsi:20",
                "llewellyn",
                false,
            ),
            json!({}),
        )
        .await;
    assert!(
        content(&answer).starts_with("Sir Eoin is dubbed"),
        "{answer:?}"
    );
}

/// DANA challenges EVAN through the user picker; returns the challenge message.
async fn challenge(herald: &mut Herald) -> Call {
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    herald
        .command(
            DANA,
            "joust",
            json!([{"name": "target", "type": 6, "value": EVAN.to_string()}]),
            resolved,
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roll_is_answered_with_a_number_and_commands_come_from_the_table() {
    let mut herald = Herald::start(Settings::default()).await;
    // Registered to the configured guild, from the one table, with the token from the caller.
    let registration = herald
        .fake
        .calls()
        .into_iter()
        .find(|c| c.method == "PUT")
        .unwrap();
    assert_eq!(
        registration.authorization.as_deref(),
        Some("Bot test-token")
    );
    let names: Vec<&str> = registration
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for name in [
        "roll", "joust", "knight", "sweep", "yield", "psi", "ransom", "admin",
    ] {
        assert!(names.contains(&name), "/{name} in {names:?}");
    }
    // Minimal intents: guilds only, nothing privileged.
    let identify = herald.fake.identify().expect("Herald identified");
    assert_eq!(identify["intents"], 1);
    assert_eq!(identify["token"], "Bot test-token");

    herald.app.queue.push([42]);
    let token = herald.fake.command(
        DANA,
        "roll",
        json!([{"name": "expr", "type": 3, "value": "100"}]),
        json!({}),
    );
    let deferral = herald
        .fake
        .wait_for("the deferral", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    assert_eq!(deferral.body["type"], 5, "deferred, answered after");
    assert_eq!(deferral.body["data"]["flags"], 0, "a roll is public");
    let answer = herald
        .fake
        .wait_for("the answer", |c| {
            c.method == "PATCH" && c.path.ends_with(&format!("{token}/messages/@original"))
        })
        .await;
    let text = content(&answer);
    assert!(text.starts_with(&format!("<@{DANA}> rolls")), "{text}");
    assert!(text.contains("42"), "{text}");
    assert_pings_only(&answer, &[]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_joust_by_buttons_ends_with_the_award_in_the_books() {
    let mut herald = Herald::start(Settings::default()).await;
    dubbed(&mut herald).await;
    // The knights as the books hold them.
    let realm = herald.app.realm(&GUILD.to_string()).await.unwrap();
    let eoin = herald
        .app
        .store
        .knight_named(realm, "Eoin")
        .await
        .unwrap()
        .expect("Eoin is in the books");
    assert_eq!(eoin.owner, EVAN.to_string(), "players are known by user id");
    // Knight names autocomplete from the books.
    let token = herald.fake.autocomplete(
        BYSTANDER,
        "knight",
        json!([{"name": "show", "type": 1, "options": [
            {"name": "name", "type": 3, "value": "da", "focused": true}
        ]}]),
    );
    let suggestions = herald
        .fake
        .wait_for("the suggestions", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    assert_eq!(suggestions.body["type"], 8);
    assert_eq!(
        suggestions.body["data"]["choices"],
        json!([{"name": "Dara", "value": "Dara"}])
    );

    let challenge = challenge(&mut herald).await;
    let text = content(&challenge);
    assert!(
        text.contains(&format!("Sir Eoin to a practice joust! <@{EVAN}>: /accept")),
        "{text}"
    );
    assert_pings_only(&challenge, &[EVAN]);
    assert_eq!(
        challenge.body["components"][0]["components"][0]["custom_id"],
        button(EVAN, "accept")
    );

    // Pass 1 of the declined transcript: Eoin unhorses Dara (see transcripts/declined.txt).
    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    let (ack, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    assert_eq!(ack.body["type"], 7, "the press greys out its row at once");
    assert_eq!(
        ack.body["data"]["components"][0]["components"][0]["disabled"],
        true
    );
    let text = content(&step);
    assert!(
        text.starts_with("Fight #1: Dame Dara vs Sir Eoin"),
        "{text}"
    );
    assert!(text.contains("Dame Dara rolls Observe 90 vs 40: failure."));
    assert!(text.contains(&format!("Dame Dara (<@{DANA}>), announce a sweep or not")));
    assert!(text.lines().count() >= 7, "the step is one message: {text}");
    assert_pings_only(&step, &[DANA]);
    let rows = step.body["components"].as_array().unwrap();
    assert_eq!(rows[0]["components"][0]["custom_id"], button(DANA, "sweep"));
    assert_eq!(rows[0]["components"][1]["label"], "No sweep");
    assert_eq!(rows[1]["components"][0]["type"], 3, "a psi menu");

    let (_, step) = herald.press(DANA, &button(DANA, "nosweep")).await;
    assert!(content(&step).contains("Dame Dara does not sweep."));
    assert_pings_only(&step, &[EVAN]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "nosweep")).await;
    assert!(content(&step).contains("Sir Eoin strikes first (6B: holds the Bonus)."));
    let (_, step) = herald.press(EVAN, &button(EVAN, "high")).await;
    let text = content(&step);
    assert!(text.contains("Dame Dara is unhorsed!"), "{text}");
    // R41: both are asked whether to go on, each with their own buttons.
    assert_pings_only(&step, &[DANA, EVAN]);
    let controls = Fake::controls_of(&herald.fake.message_with(&button(EVAN, "decline")).unwrap());
    assert!(controls.contains(&(button(DANA, "swordplay"), false)));
    assert!(controls.contains(&(button(EVAN, "decline"), false)));

    let (ack, last) = herald.press(EVAN, &button(EVAN, "decline")).await;
    eprintln!("ACK {}", serde_json::to_string_pretty(&ack.body).unwrap());
    let text = content(&last);
    assert!(text.contains("Sir Eoin wins (by unhorsing)."), "{text}");
    assert!(text.contains("Sir Eoin earns 1 HP."), "{text}");
    assert!(last.body.get("components").is_none_or(|c| c == &json!([])));

    // The award is in the books.
    let balance = herald.app.store.balance(eoin.id).await.unwrap();
    assert_eq!(balance.hp_halves, 2, "1 HP");
    let ended: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM fights WHERE ended_at IS NOT NULL AND winner_id = ?",
    )
    .bind(eoin.id)
    .fetch_one(herald.app.store.pool())
    .await
    .unwrap();
    assert_eq!(ended, 1);
    // Dara's unused Swordplay button no longer stands: greyed out by the fight's end.
    let greyed = herald
        .fake
        .wait_for("Dara's buttons greyed out", |c| {
            c.method == "PATCH"
                && c.body["components"].as_array().is_some_and(|rows| {
                    rows.iter().any(|r| {
                        r["components"][0]["custom_id"] == button(DANA, "swordplay")
                            && r["components"][0]["disabled"] == true
                    })
                })
        })
        .await;
    assert!(greyed.path.contains("/webhooks/"), "{greyed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_by_someone_else_is_refused_privately() {
    let mut herald = Herald::start(Settings::default()).await;
    dubbed(&mut herald).await;
    challenge(&mut herald).await;
    // Dara cannot accept her own challenge by its button.
    let message = herald.fake.message_with(&button(EVAN, "accept")).unwrap();
    let token = herald
        .fake
        .press(DANA, &message, &button(EVAN, "accept"), &[]);
    let refusal = herald
        .fake
        .wait_for("the refusal", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    assert_eq!(refusal.body["type"], 4);
    assert_eq!(
        refusal.body["data"]["flags"], 64,
        "only the presser sees it"
    );
    let text = refusal.body["data"]["content"].as_str().unwrap();
    assert_eq!(
        text,
        format!("Not your move: Herald is waiting for Sir Eoin (<@{EVAN}>) to choose /accept or /decline.")
    );
    assert_eq!(refusal.body["data"]["allowed_mentions"]["users"], json!([]));

    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    let (_, _) = herald.press(EVAN, &button(EVAN, "accept")).await;
    // A bystander presses Dara's sweep button: refused, and the fight does not move.
    let message = herald.fake.message_with(&button(DANA, "sweep")).unwrap();
    let bystander = herald
        .fake
        .press(BYSTANDER, &message, &button(DANA, "sweep"), &[]);
    let refusal = herald
        .fake
        .wait_for("the refusal", |c| {
            c.path.ends_with(&format!("{bystander}/callback"))
        })
        .await;
    assert_eq!(refusal.body["data"]["flags"], 64);
    assert!(refusal.body["data"]["content"]
        .as_str()
        .unwrap()
        .starts_with(&format!("Not your move: Herald is waiting for Dame Dara (<@{DANA}>) to choose /sweep, /nosweep or /yield")));
    // Nor may the bystander use Dara's psi menu; Dara may, and her buttons stay as they were.
    let psi = button(DANA, "psi");
    let message = herald.fake.message_with(&psi).unwrap();
    let token = herald.fake.press(BYSTANDER, &message, &psi, &["catapsi"]);
    let refusal = herald
        .fake
        .wait_for("the refusal", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    assert_eq!(refusal.body["data"]["flags"], 64);
    let token = herald.fake.press(DANA, &message, &psi, &["off"]);
    let ack = herald
        .fake
        .wait_for("the acknowledgement", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    assert_eq!(ack.body["type"], 6, "a declaration changes no one's turn");
    let said = herald
        .fake
        .wait_for("the declaration", |c| {
            c.method == "POST" && c.path == format!("/api/v10/webhooks/{APP}/{token}")
        })
        .await;
    assert_eq!(content(&said), "Dame Dara disarms psi.");
    assert_eq!(
        said.body["flags"], 64,
        "a disarming is the presser's alone (R21)"
    );
    // Dara's own press still works, so the bystander's did not count.
    let (_, step) = herald.press(DANA, &button(DANA, "sweep")).await;
    assert!(
        content(&step).contains("Dame Dara announces a sweep"),
        "{step:?}"
    );
    assert!(herald
        .fake
        .calls()
        .iter()
        .all(|c| !c.path.contains(&bystander) || c.path.ends_with("/callback")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mention_injection_pings_no_one() {
    let mut herald = Herald::start(Settings {
        prefix_commands: true,
    })
    .await;
    let identify = herald.fake.identify().unwrap();
    assert_eq!(
        identify["intents"].as_u64().unwrap() & (1 << 15),
        1 << 15,
        "message content only when prefix commands are on"
    );
    // A knight name that is a mention of everyone and of a role, looked up privately.
    let answer = herald
        .command(
            BYSTANDER,
            "knight",
            json!([{"name": "show", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "@everyone <@&42>"}
            ]}]),
            json!({}),
        )
        .await;
    let text = content(&answer);
    assert!(text.starts_with("No knight or player named"), "{text}");
    assert!(
        !text.contains("@everyone") && !text.contains("<@&"),
        "{text}"
    );
    assert_pings_only(&answer, &[]);
    let deferral = herald
        .fake
        .calls()
        .into_iter()
        .rev()
        .find(|c| c.path.ends_with("/callback"))
        .unwrap();
    assert_eq!(
        deferral.body["data"]["flags"], 64,
        "a knight's sheet is private"
    );

    // The same as a challenge target, typed in the channel: answered in the open, pinging no one.
    let answer = herald
        .command(
            BYSTANDER,
            "knight",
            create_knight("Brenna", "lance,ride,shield", "cpk:40", "ragnar", true),
            json!({}),
        )
        .await;
    assert!(content(&answer).starts_with("Dame Brenna is dubbed"));
    herald.fake.chat(BYSTANDER, "!joust <@&42> @everyone @here");
    let posted = herald
        .fake
        .wait_for("the channel answer", |c| {
            c.is("POST", &format!("/api/v10/channels/{CHANNEL}/messages"))
        })
        .await;
    let text = content(&posted);
    assert!(text.starts_with("No knight or player named"), "{text}");
    assert!(!text.contains("@everyone") && !text.contains("@here") && !text.contains("<@&"));
    assert_pings_only(&posted, &[]);
    // Every message Herald sent said who may be pinged.
    for c in herald.fake.calls() {
        let sends_text = c.body.get("content").is_some() || c.body["data"].get("content").is_some();
        if sends_text {
            let am = c
                .body
                .get("allowed_mentions")
                .or(c.body["data"].get("allowed_mentions"));
            assert!(am.is_some(), "no allowed_mentions on {c:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_is_posted_to_the_channel_and_greys_out_the_old_buttons() {
    let mut config = Config::default();
    config.realm.decision_timeout_secs = 1;
    let mut herald = Herald::start_with(Settings::default(), config).await;
    dubbed(&mut herald).await;
    challenge(&mut herald).await;
    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    assert!(content(&step).contains(&format!("Dame Dara (<@{DANA}>), announce a sweep")));
    // Dara does not answer: a second later the engine's default is taken for her, in the
    // channel, as one message with Eoin's prompt and buttons.
    let posted = herald
        .fake
        .wait_for("the timeout's message", |c| {
            c.is("POST", &format!("/api/v10/channels/{CHANNEL}/messages"))
        })
        .await;
    let text = content(&posted);
    assert!(
        text.starts_with(&format!(
            "Dame Dara (<@{DANA}>) did not answer in time: /nosweep is taken for them."
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("Sir Eoin (<@{EVAN}>), announce a sweep or not")),
        "{text}"
    );
    assert_pings_only(&posted, &[EVAN]);
    assert_eq!(
        posted.body["components"][0]["components"][0]["custom_id"],
        button(EVAN, "sweep")
    );
    // Dara's buttons are greyed out.
    herald
        .fake
        .wait_for("Dara's buttons greyed out", |c| {
            c.method == "PATCH"
                && c.body["components"][0]["components"][0]["custom_id"] == button(DANA, "sweep")
                && c.body["components"][0]["components"][0]["disabled"] == true
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_an_open_fight_is_posted_again_with_its_buttons() {
    let mut first = Herald::start(Settings::default()).await;
    dubbed(&mut first).await;
    challenge(&mut first).await;
    first.app.queue.push([90, 90, 90, 20, 30, 50]);
    first.press(EVAN, &button(EVAN, "accept")).await;
    let books = first.stop();

    // READY names the guild; Herald restores its open fight and says where it stands.
    let mut second = Herald::start_in(Settings::default(), Config::default(), books).await;
    let posted = second
        .fake
        .wait_for("the restored fight", |c| {
            c.is("POST", &format!("/api/v10/channels/{CHANNEL}/messages"))
        })
        .await;
    let text = content(&posted);
    assert!(
        text.starts_with("Herald is back. Fight #1 resumes where it stood."),
        "{text}"
    );
    assert!(
        text.contains(&format!("Dame Dara (<@{DANA}>), announce a sweep or not")),
        "{text}"
    );
    assert_pings_only(&posted, &[DANA]);
    assert_eq!(
        posted.body["components"][0]["components"][0]["custom_id"],
        button(DANA, "sweep")
    );
    // And the fight goes on by its buttons.
    let (_, step) = second.press(DANA, &button(DANA, "nosweep")).await;
    assert!(
        content(&step).contains("Dame Dara does not sweep."),
        "{step:?}"
    );
}

// The Tourney on Discord with no transport code of its own: its commands are registered from
// its table, its prompts get their buttons, and no psi menu (The Tourney has no psi).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tourney_bout_is_fought_by_buttons() {
    let config: Config = toml::from_str("[games]\ndefault = \"tourney\"\n").unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    let create = |name: &str, extra: Value| {
        let mut options = vec![json!({"name": "name", "type": 3, "value": name})];
        options.extend(extra.as_array().cloned().unwrap_or_default());
        json!([{"name": "create", "type": 1, "options": options}])
    };
    let answer = herald
        .command(DANA, "knight", create("Ector", json!([])), json!({}))
        .await;
    assert!(
        content(&answer).starts_with("Sir Ector is ready for The Tourney."),
        "{answer:?}"
    );
    let gimby = create(
        "Gimby",
        json!([
            {"name": "skill", "type": 3, "value": "broadsword:4,dagger:1"},
            {"name": "strength", "type": 4, "value": 5}
        ]),
    );
    let answer = herald.command(EVAN, "knight", gimby, json!({})).await;
    assert!(
        content(&answer).contains("Strength 5 (+1 a blow)"),
        "{answer:?}"
    );
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    let challenge = herald
        .command(
            DANA,
            "challenge",
            json!([{"name": "target", "type": 6, "value": EVAN.to_string()}]),
            resolved,
        )
        .await;
    assert!(
        content(&challenge).contains(&format!("to a bout on foot! <@{EVAN}>: /accept")),
        "{challenge:?}"
    );
    // The worked example's roll-off and first exchange (T9, T3).
    herald.app.queue.push([4, 2]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    let text = content(&step);
    assert!(text.contains("Sir Ector acts first (T9)"), "{text}");
    let row = &step.body["components"][0]["components"];
    assert_eq!(row[0]["custom_id"], button(DANA, "attack"));
    assert_eq!(row[1]["custom_id"], button(DANA, "yield"));
    assert_eq!(
        step.body["components"].as_array().map(Vec::len),
        Some(1),
        "no psi menu: {}",
        step.body["components"]
    );
    herald.app.queue.push([3, 2]);
    let (_, step) = herald.press(DANA, &button(DANA, "attack")).await;
    let text = content(&step);
    assert!(
        text.contains(
            "Sir Ector attacks: broadsword 3+6 = 9 vs Sir Gimby broadsword 2+4 = 6: hit."
        ),
        "{text}"
    );
    assert_eq!(
        step.body["components"][0]["components"][0]["custom_id"],
        button(EVAN, "attack")
    );
}

// The PFP duel on Discord: its commands come from its table, and its prompts' options with
// arguments (/dice 0, /keep 6 2, /reroll 6, /effect pain 2) are buttons that send the whole line.
// The page's worked example, fought by buttons up to Ann's ejection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pfp_duel_is_fought_by_buttons() {
    let config: Config = toml::from_str("[games]\ndefault = \"pfpduel\"\n").unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    let create = |name: &str| json!([{"name": "create", "type": 1, "options": [{"name": "name", "type": 3, "value": name}]}]);
    let answer = herald
        .command(DANA, "psionist", create("Ann"), json!({}))
        .await;
    assert!(
        content(&answer).starts_with("Ann is ready for the PFP duel."),
        "{answer:?}"
    );
    herald
        .command(EVAN, "psionist", create("Bo"), json!({}))
        .await;
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    let challenge = herald
        .command(
            DANA,
            "challenge",
            json!([{"name": "target", "type": 6, "value": EVAN.to_string()}]),
            resolved,
        )
        .await;
    assert!(
        content(&challenge).contains(&format!("to a psionic duel! <@{EVAN}>: /accept")),
        "{challenge:?}"
    );
    herald.app.queue.push([5, 6, 3, 3, 2, 5]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    assert!(
        content(&step).contains("Bo is high (activates first)"),
        "{step:?}"
    );
    let row = &step.body["components"][0]["components"];
    assert_eq!(row[0]["custom_id"], button(EVAN, "duel"));
    assert_eq!(row[0]["label"], "Duel");
    let (_, step) = herald.press(EVAN, &button(EVAN, "duel")).await;
    // Ann's dice: /dice 0 ... /dice 3, /yield: one row of five.
    let row = &step.body["components"][0]["components"];
    assert_eq!(row[0]["custom_id"], button(DANA, "dice 0"));
    assert_eq!(row[0]["label"], "Dice 0");
    assert_eq!(row[4]["custom_id"], button(DANA, "yield"));
    herald.app.queue.push([6, 2, 2]);
    let (_, step) = herald.press(DANA, &button(DANA, "dice 0")).await;
    assert!(
        content(&step).contains("Ann throws for the duel (defender): 3 + 0 = 3 dice: 6 2 2."),
        "{step:?}"
    );
    // Seven options to keep: two rows, both Ann's.
    let rows = step.body["components"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(
        rows[0]["components"][0]["custom_id"],
        button(DANA, "keep 6 2")
    );
    assert_eq!(
        rows[0]["components"][2]["custom_id"],
        button(DANA, "keep 2 2 maneuver")
    );
    assert_eq!(rows[1]["components"][1]["custom_id"], button(DANA, "yield"));
    let (_, step) = herald.press(DANA, &button(DANA, "keep 6 2")).await;
    assert!(content(&step).contains("Ann keeps 6 2."), "{step:?}");
    herald.app.queue.push([5, 5, 3, 1]);
    herald.press(EVAN, &button(EVAN, "dice 1")).await;
    let (_, step) = herald.press(EVAN, &button(EVAN, "keep 5 5 maneuver")).await;
    assert_eq!(
        step.body["components"][0]["components"][0]["custom_id"],
        button(EVAN, "reroll 6")
    );
    herald.app.queue.push([1]);
    herald.press(EVAN, &button(EVAN, "reroll 6")).await;
    let (_, step) = herald.press(DANA, &button(DANA, "keep 2 2 weaken")).await;
    let text = content(&step);
    assert!(
        text.contains(
            "Duel: Bo 5+5 + 1 = 11 [maneuver] vs Ann 2+2 + 2 = 6 [weaken]: Bo wins by 5."
        ),
        "{text}"
    );
    let (_, step) = herald.press(EVAN, &button(EVAN, "effect pain 2")).await;
    assert!(
        content(&step).contains("Bo's Psychic pain 2 on Ann, the first PFP free (PF15)."),
        "{step:?}"
    );
    let (_, step) = herald.press(EVAN, &button(EVAN, "effect pain 2")).await;
    assert!(content(&step).contains("health 2."), "{step:?}");
    assert_eq!(
        step.body["components"][0]["components"][0]["custom_id"],
        button(DANA, "eject")
    );
}

/// Sends a slash command; returns its deferral and its answer.
async fn deferred(herald: &mut Herald, user: u64, name: &str, options: Value) -> (Call, Call) {
    let token = herald.fake.command(user, name, options, json!({}));
    let deferral = herald
        .fake
        .wait_for("the deferral", |c| {
            c.path.ends_with(&format!("{token}/callback"))
        })
        .await;
    let answer = herald
        .fake
        .wait_for("the answer", |c| {
            c.method == "PATCH" && c.path.ends_with(&format!("{token}/messages/@original"))
        })
        .await;
    (deferral, answer)
}

// R21 on Discord: /psi is deferred privately and armed in that reply alone, the channel's line
// posted to the channel; the psi menu's press is told in a follow-up only the presser sees, the
// channel's line in a public one. Nothing public names the skill. /fight N and /fights answer
// privately (issue 15, item 11).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn psi_is_armed_ephemerally_and_history_is_answered_privately() {
    let mut herald = Herald::start(Settings::default()).await;
    dubbed(&mut herald).await;
    challenge(&mut herald).await;

    let skill = |s: &str| json!([{"name": "skill", "type": 3, "value": s}]);
    let (deferral, answer) = deferred(&mut herald, DANA, "psi", skill("apportation")).await;
    assert_eq!(deferral.body["data"]["flags"], 64, "deferred privately");
    assert_eq!(content(&answer), "Dame Dara arms Apportation.");
    let posted = herald
        .fake
        .wait_for("the channel's line", |c| {
            c.is("POST", &format!("/api/v10/channels/{CHANNEL}/messages"))
        })
        .await;
    assert_eq!(content(&posted), "Dame Dara has readied a psi skill.");
    let (deferral, answer) = deferred(&mut herald, DANA, "psi", skill("telepathy")).await;
    assert_eq!(deferral.body["data"]["flags"], 64);
    assert_eq!(content(&answer), "Dame Dara has no Telepathy (R21).");

    // In the fight, by the psi menu.
    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    herald.press(EVAN, &button(EVAN, "accept")).await;
    let psi = button(DANA, "psi");
    let message = herald.fake.message_with(&psi).unwrap();
    let token = herald.fake.press(DANA, &message, &psi, &["hypercognition"]);
    let followup = format!("/api/v10/webhooks/{APP}/{token}");
    let public = herald
        .fake
        .wait_for("the channel's line", |c| {
            c.method == "POST" && c.path == followup
        })
        .await;
    assert_eq!(content(&public), "Dame Dara has readied a psi skill.");
    assert_eq!(public.body["flags"].as_u64().unwrap_or(0), 0, "{public:?}");
    let alone = herald
        .fake
        .wait_for("the presser's line", |c| {
            c.method == "POST" && c.path == followup
        })
        .await;
    assert_eq!(content(&alone), "Dame Dara arms Hypercognition.");
    assert_eq!(alone.body["flags"], 64, "only the presser sees it");

    // No message the channel sees names a skill armed: each is a private reply or follow-up.
    let calls = herald.fake.calls();
    let private_token = |token: &str| {
        calls.iter().any(|d| {
            d.path.ends_with(&format!("/{token}/callback")) && d.body["data"]["flags"] == 64
        })
    };
    for c in &calls {
        let text = content(c);
        if text.contains(" arms ") || text.contains("no Telepathy") {
            let token = c.path.split('/').nth(5).unwrap_or_default();
            let private = c.body["flags"] == 64 || c.method == "PATCH" && private_token(token);
            assert!(private, "said in the open: {c:?}");
        }
    }

    // History is the asker's alone.
    let id = json!([{"name": "id", "type": 4, "value": 1}]);
    let (deferral, answer) = deferred(&mut herald, BYSTANDER, "fight", id).await;
    assert_eq!(
        deferral.body["data"]["flags"], 64,
        "/fight answers privately"
    );
    assert!(
        content(&answer).starts_with("Fight #1 (PsiKnight practice, <#"),
        "{answer:?}"
    );
    let name = json!([{"name": "name", "type": 3, "value": "Eoin"}]);
    let (deferral, answer) = deferred(&mut herald, BYSTANDER, "fights", name).await;
    assert_eq!(
        deferral.body["data"]["flags"], 64,
        "/fights answers privately"
    );
    assert!(
        content(&answer).starts_with("Fights of Sir Eoin: 1 fight."),
        "{answer:?}"
    );
}

// R21 with prefix commands: a `!psi` said in the channel is answered by direct message, and the
// channel hears only that a psi skill is readied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prefix_psi_is_answered_by_direct_message() {
    let mut herald = Herald::start(Settings {
        prefix_commands: true,
    })
    .await;
    dubbed(&mut herald).await;
    challenge(&mut herald).await;
    herald.fake.chat(DANA, "!psi apportation");
    let opened = herald
        .fake
        .wait_for("the direct message channel", |c| {
            c.is("POST", "/api/v10/users/@me/channels")
        })
        .await;
    assert_eq!(opened.body["recipient_id"], DANA.to_string());
    let told = herald
        .fake
        .wait_for("the direct message", |c| {
            c.is("POST", &format!("/api/v10/channels/{DM_CHANNEL}/messages"))
        })
        .await;
    assert_eq!(content(&told), "Dame Dara arms Apportation.");
    let posted = herald
        .fake
        .wait_for("the channel's line", |c| {
            c.is("POST", &format!("/api/v10/channels/{CHANNEL}/messages"))
        })
        .await;
    assert_eq!(content(&posted), "Dame Dara has readied a psi skill.");
}

// Issue 15, item 8: told compact, a step and its prompt are one line, and that line still gets
// the buttons of whoever it waits for: one fighter's, then both fighters' when both are asked
// whether to go on (R41).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compact_step_ending_with_prompts_gets_their_buttons() {
    let config: Config = toml::from_str("[narration]\ndefault = \"compact\"\n").unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    dubbed(&mut herald).await;
    challenge(&mut herald).await;
    // Pass 1 of the declined transcript: Eoin unhorses Dara (see transcripts/declined.txt).
    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    let text = content(&step);
    assert_eq!(
        text.lines().count(),
        2,
        "the fight's line and its step: {text}"
    );
    assert!(
        text.contains(&format!(
            "Pass 1 — Observe: Dara 90/40 ✗, Eoin 90/30 ✗ · Ride: Dara 90/30 ✗, Eoin 20/40 ✓ · Eoin +15 Bonus ▸ Dara (<@{DANA}>), announce a sweep or not"
        )),
        "{text}"
    );
    assert_pings_only(&step, &[DANA]);
    let rows = step.body["components"].as_array().unwrap();
    assert_eq!(rows[0]["components"][0]["custom_id"], button(DANA, "sweep"));
    assert_eq!(rows[1]["components"][0]["type"], 3, "a psi menu");

    let (_, step) = herald.press(DANA, &button(DANA, "nosweep")).await;
    assert_eq!(content(&step).lines().count(), 1, "{}", content(&step));
    assert_pings_only(&step, &[EVAN]);
    herald.press(EVAN, &button(EVAN, "nosweep")).await;
    let (_, step) = herald.press(EVAN, &button(EVAN, "high")).await;
    let text = content(&step);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("Dara is unhorsed!"), "{text}");
    assert_pings_only(&step, &[DANA, EVAN]);
    let controls = Fake::controls_of(&herald.fake.message_with(&button(EVAN, "decline")).unwrap());
    assert!(controls.contains(&(button(DANA, "swordplay"), false)));
    assert!(controls.contains(&(button(EVAN, "decline"), false)));
}

// Power Pools on Discord with no transport code of its own: its commands are registered from
// its table, a challenge is accepted by its button, and a decision given by its slash command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_powerpool_fight_is_fought_by_slash_commands() {
    let config: Config = toml::from_str("[games]\ndefault = \"powerpool\"\n").unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    let create = |name: &str, extra: Value| {
        let mut options = vec![json!({"name": "name", "type": 3, "value": name})];
        options.extend(extra.as_array().cloned().unwrap_or_default());
        json!([{"name": "create", "type": 1, "options": options}])
    };
    let ash = create(
        "Ash",
        json!([
            {"name": "kind", "type": 3, "value": "psionicist"},
            {"name": "hd", "type": 4, "value": 8},
            {"name": "attack", "type": 3, "value": "stab,overload,subversion"},
            {"name": "defense", "type": 3, "value": "mantra,pinnacle,labyrinth"}
        ]),
    );
    let answer = herald.command(DANA, "creature", ash, json!({})).await;
    assert!(
        content(&answer).starts_with("Ash is ready for Power Pools."),
        "{answer:?}"
    );
    let brim = create(
        "Brim",
        json!([
            {"name": "kind", "type": 3, "value": "wild"},
            {"name": "hd", "type": 4, "value": 8},
            {"name": "die", "type": 3, "value": "d6"},
            {"name": "attack", "type": 3, "value": "overload"},
            {"name": "defense", "type": 3, "value": "blank"}
        ]),
    );
    let answer = herald.command(EVAN, "creature", brim, json!({})).await;
    assert!(content(&answer).contains("pool 4 of 4d6"), "{answer:?}");
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    let challenge = herald
        .command(
            DANA,
            "psicombat",
            json!([{"name": "foes", "type": 6, "value": EVAN.to_string()}]),
            resolved,
        )
        .await;
    assert!(
        content(&challenge).contains(&format!(
            "Ash challenges Brim to a psionic combat! <@{EVAN}>: /accept"
        )),
        "{challenge:?}"
    );
    // The worked example's initiative (PC7).
    herald.app.queue.push([9, 14]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    let text = content(&step);
    assert!(text.contains("Initiative: Ash 9, Brim 14 (PC7)."), "{text}");
    assert!(
        text.contains(&format!(
            "Brim (<@{EVAN}>), your turn: /attack Ash overload, /pass, /yield"
        )),
        "{text}"
    );
    let answer = herald
        .command(
            EVAN,
            "attack",
            json!([
                {"name": "target", "type": 3, "value": "Ash"},
                {"name": "mode", "type": 3, "value": "overload"}
            ]),
            json!({}),
        )
        .await;
    assert!(
        content(&answer).contains("Brim attacks Ash with Synaptic Overload, 4d6."),
        "{answer:?}"
    );
}

// Psi Morphs on Discord with no transport code of its own: `/morph create` and `/challenge`
// from its table, then the fight by the buttons of its prompts, options with arguments included
// (`/defend physical`, `/force eb1`): PM5's order, PM7's tie between players, PM14's offer to
// redo or keep, and PM29's yield.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_psi_morphs_fight_is_fought_by_buttons() {
    let config: Config = toml::from_str("[games]\ndefault = \"psimorphs\"\n").unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    let create = |name: &str| json!([{"name": "create", "type": 1, "options": [{"name": "name", "type": 3, "value": name}]}]);
    let answer = herald
        .command(DANA, "morph", create("Ann"), json!({}))
        .await;
    assert!(
        content(&answer).starts_with("Ann is ready for Psi Morphs."),
        "{answer:?}"
    );
    herald.command(EVAN, "morph", create("Bo"), json!({})).await;
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    let challenge = herald
        .command(
            DANA,
            "challenge",
            json!([{"name": "target", "type": 6, "value": EVAN.to_string()}]),
            resolved,
        )
        .await;
    assert!(
        content(&challenge).contains(&format!("Ann challenges Bo to a fight! <@{EVAN}>: /accept")),
        "{challenge:?}"
    );
    // PM5: the same speed, so the challenger acts first; her options are buttons.
    let (_, step) = herald.press(EVAN, &button(EVAN, "accept")).await;
    assert!(
        content(&step).contains("Ann acts first each round, then Bo (PM5)."),
        "{step:?}"
    );
    let row = &step.body["components"][0]["components"];
    assert_eq!(row[0]["custom_id"], button(DANA, "attack"));
    assert_eq!(row[1]["custom_id"], button(DANA, "force eb1"));
    let (_, step) = herald.press(DANA, &button(DANA, "attack")).await;
    let row = &step.body["components"][0]["components"];
    assert_eq!(row[0]["custom_id"], button(EVAN, "defend combat"));
    assert_eq!(row[1]["custom_id"], button(EVAN, "defend physical"));
    // PM7: Ann 5+3 + 6 = 14 against Bo 6+4 + 4 = 14, a tie between players: no winner.
    herald.app.queue.push([5, 3, 6, 4]);
    let (_, step) = herald.press(EVAN, &button(EVAN, "defend physical")).await;
    assert!(
        content(&step).contains("Ann 14 vs Bo 14: a tie between players: no winner (PM7)."),
        "{step:?}"
    );
    // PM14: the missed attack goes against Ann, who has ISPs to redo it; she keeps it.
    assert!(content(&step).contains("goes against you"), "{step:?}");
    let (_, step) = herald.press(DANA, &button(DANA, "keep")).await;
    assert_eq!(
        step.body["components"][0]["components"][0]["custom_id"],
        button(EVAN, "attack")
    );
    herald.press(EVAN, &button(EVAN, "attack")).await;
    // Bo 1+1 + 6 = 8 against Ann 9+9 + 6 = 24: the outcome goes against Bo (PM14).
    herald.app.queue.push([1, 1, 9, 9]);
    let (_, step) = herald.press(DANA, &button(DANA, "defend combat")).await;
    assert!(content(&step).contains("goes against you"), "{step:?}");
    let row = &step.body["components"][0]["components"];
    let ids: Vec<&str> = row
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .collect();
    assert!(ids.contains(&button(EVAN, "keep").as_str()), "{ids:?}");
    assert!(ids.contains(&button(EVAN, "redo").as_str()), "{ids:?}");
    herald.press(EVAN, &button(EVAN, "keep")).await;
    // Round 2: Ann yields, and Bo wins (PM29).
    let (_, step) = herald.press(DANA, &button(DANA, "yield")).await;
    assert!(content(&step).contains("Bo wins"), "{step:?}");
    assert!(content(&step).contains("Dice seed: "), "{step:?}");
}

/// Sends `/roll 100` as DANA going by `nick` and `global`, and waits for its answer.
async fn roll_as(herald: &mut Herald, nick: Option<&str>, global: Option<&str>) {
    let token = herald.fake.command_named(
        DANA,
        nick,
        global,
        "roll",
        json!([{"name": "expr", "type": 3, "value": "100"}]),
    );
    herald
        .fake
        .wait_for("the answer", |c| {
            c.method == "PATCH" && c.path.ends_with(&format!("{token}/messages/@original"))
        })
        .await;
}

/// The name the books keep for a Discord user of the guild.
async fn kept_name(herald: &Herald, user: u64) -> Option<String> {
    sqlx::query_scalar(
        "SELECT n.shown FROM users u JOIN realms r ON r.id = u.realm_id \
         LEFT JOIN user_names n ON n.user_id = u.id WHERE r.name = ? AND u.name = ?",
    )
    .bind(GUILD.to_string())
    .bind(user.to_string())
    .fetch_one(herald.app.store.pool())
    .await
    .unwrap()
}

/// A page of the realm on the web, as text.
async fn web_page(herald: &Herald, uri: &str) -> String {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = herald_bot::web::router(herald.app.clone())
        .oneshot(
            axum::http::Request::get(uri)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), axum::http::StatusCode::OK, "{uri}");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(body.to_vec()).unwrap()
}

// Discord keys players by id, which no page shows: the transport keeps the name each player
// goes by as it sees them speak (the guild nick, else the global name, else the username),
// and the pages show it; a new nick replaces the old.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_show_a_discord_player_by_the_name_they_go_by() {
    let mut herald = Herald::start(Settings::default()).await;
    dubbed(&mut herald).await;
    // The fake's players have no nick nor global name: the username.
    assert_eq!(kept_name(&herald, DANA).await.as_deref(), Some("user111"));
    assert_eq!(kept_name(&herald, EVAN).await.as_deref(), Some("user222"));
    roll_as(&mut herald, None, Some("Dana Global")).await;
    assert_eq!(
        kept_name(&herald, DANA).await.as_deref(),
        Some("Dana Global")
    );
    roll_as(&mut herald, Some("Dame of the Lists"), Some("Dana Global")).await;
    assert_eq!(
        kept_name(&herald, DANA).await.as_deref(),
        Some("Dame of the Lists")
    );
    let realm = format!("/r/{GUILD}");
    let standings = web_page(&herald, &realm).await;
    let knight = web_page(&herald, &format!("{realm}/knights/Dara")).await;
    let api = web_page(&herald, &format!("/api{realm}/standings")).await;
    for page in [&standings, &knight, &api] {
        assert!(page.contains("Dame of the Lists"), "{page}");
        assert!(!page.contains(&DANA.to_string()), "no id shown: {page}");
        assert!(!page.contains(&EVAN.to_string()), "no id shown: {page}");
    }
    assert!(standings.contains("user222"), "{standings}");
}

// A Discord user who typed `/link CODE` plays the IRC account's knight: challenged through the
// user picker by its Discord id, it accepts by the button made for the account it plays as.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knight_made_on_irc_fights_by_buttons_on_discord_after_link() {
    use herald_bot::hub::{Incoming, Rights};
    let config: Config = toml::from_str(&format!(
        "[realms.albion]\nirc_networks = [\"libera\"]\ndiscord_guilds = [{GUILD}]\n"
    ))
    .unwrap();
    let mut herald = Herald::start_with(Settings::default(), config).await;
    // IRC in the same process: a hub of its own over the same state.
    let irc = Hub::manual(herald.app.clone(), Arc::new(Clock::live()), vec!['!']);
    let ash = |text: &str| Incoming {
        realm: "libera".into(),
        channel: "#lists".into(),
        user: "ash".into(),
        text: text.into(),
    };
    let made = irc
        .answer(
            &ash("!knight create Ash --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid"),
            Rights::default(),
        )
        .await;
    assert!(
        made.lines.join(" ").contains("Sir Ash is dubbed"),
        "{made:?}"
    );
    let asked = irc.answer(&ash("!link"), Rights::default()).await;
    let private = asked.private.join(" ");
    let code = private
        .split("link code is ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no code in {asked:?}"))
        .to_string();
    let linked = herald
        .command(
            DANA,
            "link",
            json!([{"name": "code", "type": 3, "value": code}]),
            json!({}),
        )
        .await;
    assert!(
        content(&linked).contains("now plays as ash (the knight Ash)"),
        "{linked:?}"
    );
    let eoin = herald
        .command(
            EVAN,
            "knight",
            create_knight(
                "Eoin",
                "lance,shield,ride",
                "mesmerism:20,negapsi:20",
                "llewellyn",
                false,
            ),
            json!({}),
        )
        .await;
    assert!(content(&eoin).starts_with("Sir Eoin is dubbed"), "{eoin:?}");
    let resolved = json!({"users": {DANA.to_string(): fake::user_json(DANA)}});
    let challenge = herald
        .command(
            EVAN,
            "joust",
            json!([{"name": "target", "type": 6, "value": DANA.to_string()}]),
            resolved,
        )
        .await;
    let text = content(&challenge);
    assert!(text.contains("challenges Sir Ash"), "{text}");
    let accept = challenge.body["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no button: {challenge:?}"))
        .to_string();
    herald.app.queue.push([90, 90, 90, 20, 30, 50]);
    let (_, step) = herald.press(DANA, &accept).await;
    let text = content(&step);
    assert!(text.starts_with("Fight #1: Sir Eoin vs Sir Ash"), "{text}");
}

/// A real `herald run` of a sharded bot: shards `shards` of 2 over the books in `dir`, its REST
/// calls signed with `token` so a test tells the processes apart; killed (SIGKILL) when dropped.
struct ShardProcess(std::process::Child);

impl ShardProcess {
    fn run(fake: &Fake, dir: &std::path::Path, shards: &str, token: &str) -> ShardProcess {
        let db = dir.join("herald.db");
        let config = dir.join(format!("shard-{shards}.toml"));
        let toml = format!(
            "[database]\nurl = \"{}\"\n[web]\nenabled = false\n\
             [discord]\ntoken_env = \"HERALD_TEST_DISCORD_TOKEN\"\n\
             guild_ids = [{GUILD}, {GUILD_2}]\nproxy = \"{}\"\n\
             shards = \"{shards}\"\nshard_total = 2\n",
            db.display(),
            fake.rest_url
        );
        std::fs::write(&config, toml).unwrap();
        ShardProcess(
            std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
                .arg("run")
                .arg("--config")
                .arg(&config)
                .env("HERALD_TEST_DISCORD_TOKEN", token)
                .env_remove("HERALD_LOG")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("herald runs"),
        )
    }
}

impl Drop for ShardProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sends a command as `user` where the fake's place is and returns the call that answers it
/// (the deferred reply's edit, or the immediate response).
async fn answered(fake: &mut Fake, user: u64, name: &str, options: Value, resolved: Value) -> Call {
    let token = fake.command(user, name, options, resolved);
    wait_answer(fake, &token).await
}

async fn wait_answer(fake: &mut Fake, token: &str) -> Call {
    let original = format!("{token}/messages/@original");
    let token = token.to_string();
    fake.wait_for("the answer", move |c| {
        (c.method == "PATCH" && c.path.ends_with(&original))
            || (c.path.ends_with(&format!("{token}/callback")) && c.body["type"] == 4)
    })
    .await
}

// `[discord] shards`: two processes on one set of books, shards "0" and "1" of 2. Each shard's
// session identifies with its own `[shard_id, shard_total]`; a guild's command is answered by
// the process owning its shard, a private message by shard 0's; shard 0's process registers the
// commands; and a fight in a guild of shard 1 goes on after shard 0's process is killed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_each_answer_the_guilds_of_their_own_shards() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("warn")
        .with_test_writer()
        .try_init();
    assert_eq!(fake::shard_of(GUILD, 2), 1);
    assert_eq!(fake::shard_of(GUILD_2, 2), 0);
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut fake = Fake::start_with_guilds(vec![GUILD, GUILD_2]).await;
    // The books exist before the two processes open them at once.
    drop(Store::open(&dir.path().join("herald.db")).await.unwrap());
    let first = ShardProcess::run(&fake, dir.path(), "0", "token-a");
    let _second = ShardProcess::run(&fake, dir.path(), "1", "token-b");
    fake.wait_sessions(2).await;
    let mut shards: Vec<Value> = fake
        .identifies()
        .iter()
        .map(|i| i["shard"].clone())
        .collect();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(shards, [json!([0, 2]), json!([1, 2])]);
    let registered = fake
        .wait_for("the command registration", |c| c.method == "PUT")
        .await;
    assert_eq!(registered.authorization.as_deref(), Some("Bot token-a"));

    // A guild of shard 0: the first process answers.
    fake.set_place(GUILD_2, CHANNEL_2);
    let roll = json!([{"name": "expr", "type": 3, "value": "100"}]);
    let a = answered(&mut fake, DANA, "roll", roll.clone(), json!({})).await;
    assert_eq!(a.authorization.as_deref(), Some("Bot token-a"), "{a:?}");
    assert!(
        content(&a).starts_with(&format!("<@{DANA}> rolls")),
        "{a:?}"
    );
    // A guild of shard 1: the second.
    fake.set_place(GUILD, CHANNEL);
    let a = answered(&mut fake, DANA, "roll", roll.clone(), json!({})).await;
    assert_eq!(a.authorization.as_deref(), Some("Bot token-b"), "{a:?}");
    assert!(
        content(&a).starts_with(&format!("<@{DANA}> rolls")),
        "{a:?}"
    );
    // A private message comes on shard 0.
    let token = fake.direct_command(DANA, "roll", roll.clone());
    let a = wait_answer(&mut fake, &token).await;
    assert_eq!(a.authorization.as_deref(), Some("Bot token-a"), "{a:?}");
    assert!(
        a.body["data"]["content"]
            .as_str()
            .is_some_and(|t| t.contains("server's channels")),
        "{a:?}"
    );

    // A fight in the guild of shard 1.
    for (user, name, top, psi, monarch, dame) in [
        (
            DANA,
            "Dara",
            "observe,dodge,sword",
            "hypercognition:20,apportation:20",
            "seonaid",
            true,
        ),
        (
            EVAN,
            "Eoin",
            "lance,shield,ride",
            "mesmerism:20,negapsi:20",
            "llewellyn",
            false,
        ),
    ] {
        let a = answered(
            &mut fake,
            user,
            "knight",
            create_knight(name, top, psi, monarch, dame),
            json!({}),
        )
        .await;
        assert!(content(&a).contains("is dubbed"), "{a:?}");
    }
    let resolved = json!({"users": {EVAN.to_string(): fake::user_json(EVAN)}});
    let challenge = answered(
        &mut fake,
        DANA,
        "joust",
        json!([{"name": "target", "type": 6, "value": EVAN.to_string()}]),
        resolved,
    )
    .await;
    assert_eq!(challenge.authorization.as_deref(), Some("Bot token-b"));
    let accept = challenge.body["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no button: {challenge:?}"))
        .to_string();
    let message = fake
        .message_with(&accept)
        .unwrap_or_else(|| panic!("no message offers {accept}"));
    let token = fake.press(EVAN, &message, &accept, &[]);
    let step = fake
        .wait_for("the fight's start", |c| {
            c.method == "POST" && c.path == format!("/api/v10/webhooks/{APP}/{token}")
        })
        .await;
    assert!(
        content(&step).starts_with("Fight #1: Dame Dara vs Sir Eoin"),
        "{step:?}"
    );
    assert_eq!(step.authorization.as_deref(), Some("Bot token-b"));

    // Shard 0's process dies; the fight of shard 1's guild goes on in the other.
    drop(first);
    fake.wait_connected(&[1]).await;
    let status = answered(&mut fake, EVAN, "status", json!([]), json!({})).await;
    assert_eq!(status.authorization.as_deref(), Some("Bot token-b"));
    assert!(content(&status).contains("Fight #1"), "{status:?}");
    assert!(
        fake.calls()
            .iter()
            .all(|c| c.method != "PUT" || c.authorization.as_deref() == Some("Bot token-a")),
        "only shard 0's process registers the commands"
    );
}
