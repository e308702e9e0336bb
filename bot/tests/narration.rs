//! Compact narration (issue 15, item 8): the same 20 seeded practice jousts told in full and
//! compact, a moderator's `/narration`, the configuration's `[narration]`, and a compact line's
//! prompts read back as Discord reads them.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming};
use herald_bot::store::Store;
use herald_bot::transport::discord::controls::{awaited, awaited_all};
use herald_bot::transport::irc::{split_message, text_budget};
use std::sync::Arc;

/// A hub over a fresh in-memory database, with `seed` for its fights' dice.
async fn hub(config: &str, seed: u64) -> Hub {
    let config: Config = toml::from_str(config).expect("test config parses");
    let store = Store::open_memory().await.expect("the database opens");
    let app = App::new(store, config, Some(seed)).unwrap();
    let prefixes = app.config.console.prefixes.clone();
    Hub::manual(
        Arc::new(app),
        Arc::new(Clock::manual(
            chrono::DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
                .unwrap()
                .into(),
        )),
        prefixes,
    )
}

async fn say(hub: &Hub, user: &str, text: &str) -> Vec<String> {
    hub.handle(&Incoming {
        realm: "local".into(),
        channel: "#lists".into(),
        user: user.into(),
        text: text.into(),
    })
    .await
}

/// The first prompt standing in `lines` (as Discord's buttons read them), answered by the fixed
/// policy of the measurement: go on to Swordplay whenever asked, else the prompt's default.
fn answer(lines: &[String]) -> Option<(String, String)> {
    lines.iter().rev().find_map(|line| {
        line.split(" ▸ ").find_map(|part| {
            let a = awaited(part)?;
            let default = part.rsplit_once("then /")?.1.trim_end_matches(").");
            let word = if a.words.iter().any(|w| w == "swordplay") {
                "swordplay"
            } else {
                default
            };
            Some((a.user, format!("/{word}")))
        })
    })
}

/// One practice joust between Dara and Eoin with `seed`, told as `config` says: every line the
/// channel got from the challenge to the end, and the line that ends the fight.
async fn fight(config: &str, seed: u64) -> (Vec<String>, String) {
    let hub = hub(config, seed).await;
    say(&hub, "dana", "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame").await;
    say(&hub, "evan", "/knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn").await;
    let mut all = say(&hub, "dana", "/joust evan").await;
    let mut last = say(&hub, "evan", "/accept").await;
    all.extend(last.clone());
    for _ in 0..200 {
        if let Some(end) = last.iter().find(|l| l.contains(" is over. Dice seed: ")) {
            let end = end.split(" · ").last().unwrap_or(end).to_string();
            return (all, end);
        }
        let (user, word) = answer(&last).unwrap_or_else(|| panic!("no prompt in {last:#?}"));
        last = say(&hub, &user, &word).await;
        all.extend(last.clone());
    }
    panic!("fight {seed} did not end: {all:#?}");
}

const COMPACT: &str = "[narration]\ndefault = \"compact\"\n";

// Issue 15, item 8: the same 20 seeded fights (practice jousts, Swordplay taken whenever
// offered, every other decision the prompt's default) take at most a third of the lines when
// told compact, and are the same fights.
#[tokio::test]
async fn twenty_seeded_fights_take_at_most_a_third_of_the_lines_when_compact() {
    let (mut full, mut compact, mut swordplay) = (0, 0, 0);
    // As IRC sends them: a line longer than a message's room (Herald's mask guessed at its
    // longest) goes as two messages or more.
    let budget = text_budget("herald".len() + 1 + 11 + 1 + 63, "#lists");
    let on_irc =
        |lines: &[String]| -> usize { lines.iter().map(|l| split_message(l, budget).len()).sum() };
    let (mut full_irc, mut compact_irc) = (0, 0);
    for seed in 1..=20 {
        let (f, f_end) = fight("", seed).await;
        let (c, c_end) = fight(COMPACT, seed).await;
        assert_eq!(f_end, c_end, "seed {seed}: the same fight, told two ways");
        if f.iter().any(|l| l.contains("— Swordplay —")) {
            swordplay += 1;
        }
        full += f.len();
        compact += c.len();
        full_irc += on_irc(&f);
        compact_irc += on_irc(&c);
    }
    eprintln!(
        "20 fights ({swordplay} with Swordplay): full {full} lines ({:.1} a fight), compact {compact} lines ({:.1} a fight); as IRC messages: full {full_irc}, compact {compact_irc}",
        full as f64 / 20.0,
        compact as f64 / 20.0
    );
    assert!(swordplay > 0, "some fights go on to Swordplay");
    assert!(
        compact * 3 <= full,
        "compact {compact} lines against full {full}: more than a third"
    );
    assert!(
        compact_irc * 3 <= full_irc,
        "on IRC, compact {compact_irc} messages against full {full_irc}: more than a third"
    );
}

// Issue 15, item 8: a compact line that ends with prompts gets a row of buttons for each, as
// Discord reads them (both fighters asked whether to go on, R41).
#[test]
fn a_compact_line_ending_with_prompts_gets_everyones_buttons() {
    let line = "Eoin aims High: Lance 60 vs 65 (40 + 25 sweep), hit · Dara Shield 97 vs 5 (30 − 25 opponent's Bonus), failure · Dara is unhorsed! ▸ Dara (111), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline). ▸ Eoin (222), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline).";
    let waiting = awaited_all(line);
    assert_eq!(waiting.len(), 2, "{waiting:#?}");
    assert_eq!(
        (waiting[0].user.as_str(), waiting[0].name.as_str()),
        ("111", "Dara")
    );
    assert_eq!(waiting[1].user, "222");
    assert_eq!(waiting[0].words, vec!["swordplay", "decline", "yield"]);
    // A compact challenge with its notices still waits for the challenged.
    let challenge = "Dame Dara challenges Sir Eoin to a practice joust! 222: /accept or /decline (300s). · Note: this fight will not be recorded: Dame Dara and Sir Eoin have already had their recorded practice fight today (R26).";
    assert_eq!(awaited_all(challenge)[0].words, vec!["accept", "decline"]);
}

// Issue 15, item 8: the console and transcripts tell fights in full unless configured; the
// configuration names a channel's narration; a moderator's /narration outranks it and is
// remembered in the books; anyone may ask, no one else may change it.
#[tokio::test]
async fn narration_is_configured_and_a_moderators_choice_is_remembered() {
    let books = Books::new();
    let config =
        "[permissions]\nmoderators = [\"mo\"]\n[narration.channels]\n\"#short\" = \"compact\"\n";
    let run = run_with(
        &books.path(),
        config,
        "\
@clock 2026-12-01T10:00:00Z
dana: /narration
[#short] dana: /narration
dana: /narration compact
mo: /narration terse
mo: /narration compact
dana: /narration
",
    )
    .await;
    let lines = run.lines();
    assert!(lines[0].contains("#lists tells fights full"), "{}", run.out);
    assert!(
        lines[1].contains("#short tells fights compact"),
        "{}",
        run.out
    );
    assert!(
        lines[2].contains("Only a moderator may change how #lists tells fights"),
        "{}",
        run.out
    );
    assert!(
        lines[3].contains("'terse' is not a narration; say /narration compact"),
        "{}",
        run.out
    );
    assert!(
        lines[4].contains("#lists now tells fights compact"),
        "{}",
        run.out
    );
    assert!(
        lines[5].contains("#lists tells fights compact"),
        "{}",
        run.out
    );
    // Remembered across a restart (a new process over the same books).
    let run = run_with(&books.path(), config, "dana: /narration\n").await;
    run.expect("#lists tells fights compact");
}

// Issue 15, item 8: told compact, "not recorded" is said once, with the challenge (R26), and
// a step's sums that show every modifier are kept.
#[tokio::test]
async fn compact_says_not_recorded_once_and_keeps_the_sums() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        COMPACT,
        &format!(
            "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
evan: /decline
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
evan: /decline
"
        ),
    )
    .await;
    let count = |needle: &str| run.lines().iter().filter(|l| l.contains(needle)).count();
    assert_eq!(count("not be recorded"), 1, "{}", run.out);
    assert_eq!(count("not recorded"), 0, "{}", run.out);
    run.expect("Eoin aims High: Lance 30 vs 40, hit · Dara Shield 50 vs 15 (30 − 15 opponent's Bonus), failure");
    assert_eq!(count("Fight #2 is over"), 1, "{}", run.out);
    run.expect("Sir Eoin earns 1 HP");
}
