//! Random lines against the chat grammar, then against the whole pipeline (grammar, hub,
//! sessions, engine, SQLite): random bytes, any Unicode, very long lines, nested quotes, and
//! command soup that starts real challenges and fights. Nothing may panic, and every reply is one
//! line that a chat network carries as one message.
//!
//! The runner is seeded, so every run tries the same cases (no luck in tests); the case counts
//! keep the file within a few seconds. `fuzz/run grammar` explores the grammar further with
//! coverage guidance, and each crash it ever finds is kept below as a regression test.

use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::command::{parse, MAX_LINE_CHARS};
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming};
use herald_bot::store::Store;
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngSeed, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once};

const PREFIXES: [char; 2] = ['/', '!'];

/// Panics anywhere in this test binary, the session actors' tasks included: tokio catches a
/// task's panic, so a panicking session would otherwise only fall silent.
static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(RunnerConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x0dd5_f022),
        failure_persistence: None,
        ..RunnerConfig::default()
    })
}

/// One line as a chat network sees it: not empty, no control character and no line or
/// paragraph separator (IRC would split the message there, or drop it).
fn is_one_line(reply: &str) -> bool {
    !reply.is_empty()
        && !reply
            .chars()
            .any(|c| c.is_control() || (c.is_whitespace() && c != ' '))
}

/// Words the grammar knows, and words that trouble grammars.
const WORDS: &[&str] = &[
    "knight",
    "create",
    "honor",
    "roll",
    "ledger",
    "standings",
    "spend",
    "land",
    "grant",
    "advance",
    "swear",
    "release",
    "renounce",
    "hostility",
    "declare",
    "end",
    "ransom",
    "demand",
    "free",
    "kill",
    "pay",
    "joust",
    "accept",
    "decline",
    "status",
    "odds",
    "help",
    "bonus",
    "attack",
    "defend",
    "weaken",
    "psi",
    "off",
    "tournament",
    "schedule",
    "start",
    "cancel",
    "enter",
    "withdraw",
    "bracket",
    "melee",
    "join",
    "pass",
    "prize",
    "admin",
    "award",
    "revoke",
    "rename",
    "retire",
    "sweep",
    "nosweep",
    "high",
    "low",
    "swordplay",
    "observe",
    "press",
    "block",
    "dodge",
    "parry",
    "yield",
    "--top",
    "--psi",
    "--monarch",
    "--dame",
    "--month",
    "--host",
    "--channel",
    "--melee",
    "--remount",
    "--melee-minutes",
    "--force",
    "--",
    "-",
    "lance",
    "ride",
    "shield",
    "sword",
    "hypercognition",
    "apportation",
    "telepathy",
    "mesmerism",
    "negapsi",
    "catapsi",
    "cpk",
    "seonaid",
    "llewellyn",
    "ragnar",
    "observe,dodge,sword",
    "lance,shield,ride",
    "hypercognition:20,apportation:20",
    "mesmerism:20,negapsi:20",
    "Dara",
    "Eoin",
    "ann",
    "bob",
    "@bob",
    "<@123>",
    "#lists",
    "hp",
    "pp",
    "1d100",
    "4d6kh3",
    "2d10!",
    "d%",
    "100",
    "0",
    "-1",
    "1.5",
    "99999999999999999999",
    "2026-12",
    "2026-12-01T10:00",
    "tomorrow",
    "\"",
    "'",
    "\\",
    "\"\"",
    "''",
    "\\\"",
    "é",
    "🗡",
    "\u{202e}",
    "\u{200b}",
    "\u{2028}",
    "\t",
    "\u{0}",
    ":",
    ",",
    "=",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => "\\PC{0,12}",
        1 => any::<String>(),
    ]
}

/// A quoted argument, quotes nested inside quotes, escaped or not, balanced or not.
fn quoted() -> impl Strategy<Value = String> {
    let leaf = word();
    leaf.prop_recursive(4, 24, 4, |inner| {
        (
            proptest::sample::select(&["\"", "'", "\\\"", "“", "«"][..]),
            proptest::collection::vec(inner, 0..4),
            any::<bool>(),
        )
            .prop_map(|(quote, words, closed)| {
                let close = match quote {
                    "“" => "”",
                    "«" => "»",
                    q => q,
                };
                let mut s = format!("{quote}{}", words.join(" "));
                if closed {
                    s.push_str(close);
                }
                s
            })
    })
}

/// A line that starts like a command, then words, quotes and noise.
fn command_soup() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(&["/", "!", " /", "//", "/ ", "!!", ""][..]),
        proptest::collection::vec(prop_oneof![3 => word(), 1 => quoted()], 0..10),
        proptest::sample::select(&[" ", "  ", "\t", ""][..]),
    )
        .prop_map(|(prefix, words, gap)| format!("{prefix}{}", words.join(gap)))
}

/// A line around the length cap, or far past it.
fn long_line() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(
            &[
                "/roll ",
                "/knight create ",
                "/help ",
                "!admin award x 1 ",
                "/",
            ][..],
        ),
        prop_oneof![
            (MAX_LINE_CHARS - 20..MAX_LINE_CHARS + 20).prop_map(|n| "a".repeat(n)),
            (MAX_LINE_CHARS - 5..MAX_LINE_CHARS + 5).prop_map(|n| "é ".repeat(n / 2)),
            (1..40usize).prop_map(|n| "\"".repeat(n * 100)),
            Just("🗡".repeat(3 * MAX_LINE_CHARS)),
        ],
    )
        .prop_map(|(head, tail)| format!("{head}{tail}"))
}

fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => command_soup(),
        1 => any::<String>().prop_map(|s| format!("/{s}")),
        1 => proptest::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => "[/!][\\PC\"'\\\\ ]{0,300}",
        1 => long_line(),
    ]
}

/// What the grammar must do with any line: never panic; a refusal is one line.
fn check_grammar(line: &str) -> Result<(), TestCaseError> {
    let result = parse(line, &PREFIXES);
    let trimmed = line.trim();
    let mut chars = trimmed.chars();
    let looks_like_a_command = chars.next().is_some_and(|c| PREFIXES.contains(&c))
        && chars.next().is_some_and(char::is_alphabetic);
    prop_assert_eq!(result.is_some(), looks_like_a_command, "{:?}", line);
    match result {
        Some(Err(e)) => {
            let reply = e.to_string();
            prop_assert!(is_one_line(&reply), "{:?} gave {:?}", line, reply);
        }
        Some(Ok(command)) => {
            prop_assert!(command.spec().is_some(), "{:?}", command);
        }
        None => {}
    }
    Ok(())
}

#[test]
fn random_lines_never_break_the_grammar() {
    count_panics();
    runner(3_000)
        .run(&any_line(), |line| check_grammar(&line))
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn very_long_lines_are_refused_in_one_line() {
    runner(200)
        .run(&long_line(), |line| check_grammar(&line))
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The realm of the console and scripts.
const REALM: &str = herald_bot::transport::LOCAL_REALM;
const USERS: [&str; 3] = ["ann", "bob", "cy"];
const CHANNELS: [&str; 2] = ["#lists", "#yard"];

/// A step of the pipeline test: someone says a line, or time passes.
#[derive(Clone, Debug)]
enum Step {
    Say {
        user: usize,
        channel: usize,
        text: String,
    },
    Wait(i64),
    /// Dara challenges Eoin and Eoin accepts, in a channel: the random lines that follow then
    /// meet a fight.
    Challenge(usize),
}

/// Lines that make fights happen, so the random ones land in every state a session has.
const MOVES: &[&str] = &[
    "/joust bob",
    "/joust Dara",
    "/joust ann",
    "/accept",
    "/decline",
    "/sweep",
    "/nosweep",
    "/high",
    "/low",
    "/swordplay",
    "/attack",
    "/observe",
    "/press",
    "/block",
    "/dodge",
    "/parry",
    "/yield",
    "/bonus weaken",
    "/psi mesmerism",
    "/psi hypercognition",
    "/status",
    "/roll 4d6kh3",
    "/knight",
    "/honor Eoin",
    "/odds Eoin",
    "/standings",
    "/ledger Dara",
    "/admin award Dara 1.5 for \"a \\\"fine\\\" 'pass'\"",
    "/tournament schedule Spring 2026-12-01T11:00 --melee",
    "/tournament start",
    "/enter",
];

fn step() -> impl Strategy<Value = Step> {
    let user = 0..USERS.len();
    let channel = prop_oneof![4 => Just(0usize), 1 => Just(1usize)];
    prop_oneof![
        6 => (user.clone(), channel.clone(), proptest::sample::select(MOVES))
            .prop_map(|(user, channel, text)| Step::Say { user, channel, text: text.to_string() }),
        4 => (user, channel.clone(), any_line())
            .prop_map(|(user, channel, text)| Step::Say { user, channel, text }),
        1 => (1i64..400).prop_map(Step::Wait),
        1 => channel.prop_map(Step::Challenge),
    ]
}

async fn pipeline() -> Hub {
    let config: Config =
        toml::from_str("[permissions]\nadmins = [\"ann\"]\nmoderators = [\"bob\"]\n")
            .expect("the test configuration parses");
    let store = Store::open_memory().await.expect("an in-memory database");
    let app = App::new(store, config, Some(0)).expect("the app starts");
    let start = "2026-12-01T10:00:00Z".parse().expect("a time");
    let prefixes = app.config.console.prefixes.clone();
    let hub = Hub::manual(Arc::new(app), Arc::new(Clock::manual(start)), prefixes);
    for (user, text) in [
        ("ann", "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame"),
        ("bob", "/knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn"),
    ] {
        say(&hub, user, "#lists", text).await;
    }
    hub
}

async fn say(hub: &Hub, user: &str, channel: &str, text: &str) -> Vec<String> {
    hub.handle(&Incoming {
        realm: REALM.to_string(),
        channel: channel.to_string(),
        user: user.to_string(),
        text: text.to_string(),
    })
    .await
}

#[test]
fn random_lines_never_break_the_pipeline() {
    count_panics();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let hub = rt.block_on(pipeline());
    let before = PANICS.load(Ordering::SeqCst);
    let rolls = std::cell::Cell::new(0u32);
    runner(150)
        .run(&proptest::collection::vec(step(), 1..12), |steps| {
            rt.block_on(async {
                for step in &steps {
                    let replies = match step {
                        Step::Say {
                            user,
                            channel,
                            text,
                        } => {
                            let user = USERS.get(*user).copied().unwrap_or("ann");
                            let channel = CHANNELS.get(*channel).copied().unwrap_or("#lists");
                            say(&hub, user, channel, text).await
                        }
                        Step::Wait(secs) => {
                            let to = hub.clock().now() + chrono::Duration::seconds(*secs);
                            hub.advance(to).await.into_iter().map(|o| o.text).collect()
                        }
                        Step::Challenge(channel) => {
                            let channel = CHANNELS.get(*channel).copied().unwrap_or("#lists");
                            let mut replies = say(&hub, "ann", channel, "/joust Eoin").await;
                            replies.extend(say(&hub, "bob", channel, "/accept").await);
                            replies
                        }
                    };
                    for reply in &replies {
                        if reply.contains(" rolls ") {
                            rolls.set(rolls.get() + 1);
                        }
                        prop_assert!(is_one_line(reply), "{:?} gave {:?}", step, reply);
                    }
                    prop_assert_eq!(PANICS.load(Ordering::SeqCst), before, "panic at {:?}", step);
                }
                Ok(())
            })
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // The random lines met fights, not only an idle channel.
    assert!(rolls.get() > 100, "only {} rolls narrated", rolls.get());
}

// Regression tests: every crash the fuzzers find is kept here. None so far: ten minutes each of
// `fuzz/run grammar` and `fuzz/run notation` found nothing; these are the edges they started from.

#[test]
fn edge_lines_are_refused_in_one_line() {
    for line in [
        "/",
        "!",
        "/\u{0}",
        "/a\u{2028}b",
        "/roll \"",
        "/knight create \"\\",
    ] {
        check_grammar(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    }
}
