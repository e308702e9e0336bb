//! The psionic duel with PFP played through the real pipeline (grammar, hub, sessions, referee,
//! engine, a real SQLite file): the page's worked example checked against its events, a whole
//! fight left to its timeouts, an NPC fight with `/as`, a restart mid-fight, `verify`,
//! `simulate`, what persists between fights (PF34), bad input for each command, `/help`, and
//! `export`.

mod common;
use common::*;
use herald_bot::verify::verify;

const CONFIG: &str = r##"
[games.channels]
"#minds" = "pfpduel"
[permissions]
moderators = ["mod"]
"##;

/// The page's worked example, as it is written.
const EXAMPLE: &str = include_str!("transcripts/pfpduel_example.txt");
/// Its events, as `--events` writes them.
const EXAMPLE_EVENTS: &str = include_str!("transcripts/pfpduel_example.jsonl");
/// Its events as the page lists them, one a line, the type first.
const EXAMPLE_PAGE: &str = include_str!("transcripts/pfpduel_example.page");
/// The example with bad input for each command between its steps.
const BAD_INPUT: &str = include_str!("transcripts/pfpduel_bad_input.txt");
/// A fight whose every kind of prompt is left to time out.
const TIMEOUTS: &str = include_str!("transcripts/pfpduel_timeouts.txt");

fn golden() -> Vec<serde_json::Value> {
    EXAMPLE_EVENTS
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

// The worked example, die for die (PF36): the page's events in its order, each marked with the
// game; the narration; the records and sheets after (PF33, PF34); export and verify.
#[tokio::test]
async fn the_worked_example_is_refereed_event_for_event() {
    let books = Books::new();
    let transcript = format!(
        "{EXAMPLE}\
[#minds] bo: /challenge ann
[#minds] ann: /sheet
[#minds] ann: /record Bo
@clock 2026-12-02T00:00:01Z
[#minds] ann: /sheet
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    assert_eq!(run.events, golden());
    let types: Vec<&str> = run
        .events
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    let page: Vec<&str> = EXAMPLE_PAGE
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(types, page);
    assert!(run.events.iter().all(|e| e["game"] == "pfpduel"));
    run.expect("Ann challenges Bo to a psionic duel! bo: /accept or /decline (300s).")
        .expect("Focus: Ann 5 PFP, Bo 6 PFP (PF28).")
        .expect("— Round 1 — Initiative: Ann 3, Bo 3: equal, thrown again (PF4).")
        .expect("Initiative: Ann 2, Bo 5: Bo is high (activates first), Ann low (tests first) (PF4).")
        // The page's prompt, word for word.
        .expect("[#minds] Bo (bo), your activation: 3 AP, 0/2 psionic actions, 6 PFP: /duel, /recover, /move, /end, /yield (120s, then /duel).")
        .expect("Ann (ann), keep two of your dice 6 2 2 (defender): /keep 6 2, /keep 2 2, /keep 2 2 maneuver, /keep 2 2 iron, /keep 2 2 vanish, /keep 2 2 weaken, /yield (120s, then /keep 6 2).")
        .expect("Bo's Maneuver rerolls Ann's 6: 1 (now 1 2 2) (PF10).")
        .expect("Ann keeps again 2 2: a double, Weakening of will (PF14).")
        .expect("Duel: Bo 5+5 + 1 = 11 [maneuver] vs Ann 2+2 + 2 = 6 [weaken]: Bo wins by 5.")
        .expect("Ann is at 0 PFP: an open mind (PF15).")
        .expect("Bo's Psychic pain 2 on Ann, the first PFP free (PF15).")
        .expect("Ann throws for the ejection (open mind): 3 + 2 − 1 (open mind, PF22) − 1 (invaded, PF23) = 3 dice: 6 4 1.")
        // PF35: Bo has no AP, so he is not asked for dice.
        .expect_not("Bo (bo), your dice for the ejection")
        .expect("Bo is out of Ann's mind: ejected (PF24).")
        .expect("Contact: Bo 6+4 + 1 = 11 vs Ann 5+2 + 2 = 9: Bo wins by 2.")
        .expect("Ann takes 2 damage (psychic pain): health 0.")
        .expect("Bo wins: Ann is knocked out (PF33).")
        .expect("Fight #1 is over. Dice seed: ")
        // PF34: knocked out until the realm's next day, health back then.
        .expect("Ann is knocked out until 2026-12-02 00:00 (realm time): no fight until then (PF34).")
        .expect("Ann (ann): psionist, power 2; health 0 of 6: knocked out until 2026-12-02 00:00 (realm time, PF34); 0 wins, 1 loss, 0 draws.")
        .expect("Bo in the PFP duel: 1 win, 0 losses, 0 draws.")
        .expect("Ann (ann): psionist, power 2; health 6 of 6; 0 wins, 1 loss, 0 draws.");
    // Dice fairness: the seed shown at the end hashes to the hash shown at the start.
    run.assert_seed_matches_its_hash();

    // What outlasts the fight was written with its end: health lost on its day, the records.
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    let characters = doc["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 2);
    let ann = &characters[0];
    assert_eq!(ann["game"], "pfpduel");
    assert_eq!(ann["name"], "Ann");
    assert_eq!(ann["owner"], "ann");
    assert_eq!(ann["npc"], false);
    assert_eq!(ann["sheet"]["power"], 2);
    assert_eq!(ann["sheet"]["health"], 6);
    assert_eq!(ann["state"]["lost"], 6);
    assert_eq!(ann["state"]["day"], "2026-12-01");
    assert_eq!(ann["record"]["losses"], 1);
    assert_eq!(characters[1]["state"]["lost"], 0);
    assert_eq!(characters[1]["record"]["wins"], 1);
    assert_eq!(doc["fights"][0]["game"], "pfpduel");
    assert_eq!(doc["fights"][0]["winner"], "Bo");

    // herald verify replays it from its seed and decisions.
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("the PFP duel verifies"),
        "{}",
        report.message
    );
    assert!(
        report.message.contains("Bo won (knockout)"),
        "{}",
        report.message
    );
    assert!(
        report.message.contains("28 rolls were scripted"),
        "{}",
        report.message
    );
}

// Bad input for each command: one line saying what was wrong and how to say it right, and
// nothing changes: the fight's events stay exactly the page's.
#[tokio::test]
async fn bad_input_gets_one_line_and_changes_nothing() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, BAD_INPUT).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    assert_eq!(run.events, golden());
    run.expect("/psionist create: NAME is missing (your psionist's name, e.g. Ann). Usage: /psionist create NAME")
        .expect("Cannot create 9lives: a name starts with a letter. Usage: /psionist create NAME")
        // PF30: a refused sheet names its rule.
        .expect("Cannot create Ann: --power: a player's psionist has power 2 and health 6, no options (PF30). Usage: /psionist create NAME")
        .expect("Cannot create Bob: you already have Bo in this game; a player has one character per game.")
        .expect("No psionist or player named 'nobody' plays the PFP duel here. Usage: /challenge TARGET")
        .expect("There is no fight in #minds to make a move in. Usage: /challenge TARGET")
        .expect("Not your move, Ann: waiting for Bo (bo), your activation: 3 AP, 0/2 psionic actions, 6 PFP: /duel, /recover, /move, /end, /yield.")
        .expect("Bo: /contact is not a legal answer now; your activation: 3 AP")
        .expect("Bo: /eject is not a legal answer now;")
        .expect("Bo: /dice 1 is not a legal answer now;")
        .expect("Only Ann (ann) and Bo (bo) act in this fight; waiting for Bo (bo) activation")
        .expect("Ann: /dice 9 is not a legal answer now; your dice for the duel (defender, 3 AP): /dice 0, /dice 1, /dice 2, /dice 3, /yield.")
        .expect("/dice: N must be a whole number from 0 to 99; 'x' is not. Usage: /dice N")
        .expect("Ann: /keep 6 6 is not a legal answer now; keep two of your dice 6 2 2 (defender):")
        .expect("/keep: A must be a whole number from 1 to 6; '7' is not. Usage: /keep A B [EFFECT]")
        // PF10, PF16: an Unleash is the attacker's, on 6-6.
        .expect("Ann: /keep 2 2 unleash is not a legal answer now;")
        .expect("Bo: /keep 5 5 iron is not a legal answer now;")
        .expect("Bo: /reroll 4 is not a legal answer now; your Maneuver: reroll one of Ann's dice 6 2 2 (PF10): /reroll 6, /reroll 2, /yield.")
        .expect("Bo: /hold 1 is not a legal answer now;")
        .expect("/backlash: 'maybe' is not health or pfp. Usage: /backlash health|pfp")
        // PF17: an effect's strength is at most the power.
        .expect("Bo: /effect pain 3 is not a legal answer now; your free mental effect on Ann")
        .expect("'fire' is not a mental effect: pain, mental, physical, puppet or none. Usage: /effect pain|mental|physical N")
        .expect("/effect pain takes its strength N: /effect pain 1. Usage:")
        // PF15: the zeroing duel's effect cannot be declined.
        .expect("Bo: /effect none is not a legal answer now;")
        .expect("Bo: /maintain is not a legal answer now;")
        // PF27: no recovery while invaded.
        .expect("Ann: /recover is not a legal answer now; your activation: 3 AP, 0/2 psionic actions, 0 PFP: /eject, /end, /yield.")
        // PF13/PF2: no duel with an open mind.
        .expect("Bo: /duel is not a legal answer now; your activation: 3 AP, 0/2 psionic actions, 3 PFP: /contact, /recover, /move, /end, /yield.");
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// PF37: every kind of prompt left to time out takes the default policy's answer, and the
// channel is told; a yield is a loss (PF33).
#[tokio::test]
async fn every_prompt_times_out_to_the_default() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, TIMEOUTS).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    for (who, default) in [
        ("Bo", "/duel"),
        ("Ann", "/dice 0"),
        ("Ann", "/keep 3 3 iron"),
        ("Bo", "/keep 6 6 unleash"),
        ("Bo", "/effect pain 2"),
        ("Bo", "/backlash pfp"),
        ("Bo", "/recover"),
        ("Bo", "/move"),
        ("Ann", "/eject"),
        ("Ann", "/dice 2"),
        ("Bo", "/contact"),
        ("Bo", "/hold 1"),
        ("Bo", "/maintain"),
    ] {
        run.expect(&format!(
            "{who} ({}) did not answer in time: {default} is taken for them.",
            who.to_lowercase()
        ));
    }
    run.expect("Iron Will: Ann throws 2: 2 PFP of losses absorbed this round (PF12).")
        .expect("Ann loses 5 PFP (the difference 6, Unleash 1, less 2 of Iron Will): 0 PFP left.")
        .expect("Ann's Unbalance test, 2 dice: 1 2: no double, failed (PF7).")
        .expect("Ann is on the ground (Unbalance): one die fewer on every test (PF21).")
        .expect("Bo's backlash test, 3 dice: 1 2 3: no double, failed (PF7).")
        .expect("Ann throws for the ejection (open mind): 3 + 2 − 1 (on the ground, PF21) − 1 (open mind, PF22) − 1 (invaded, PF23) = 2 dice: 6 5.")
        .expect("Bo recovers 4 PFP: 4 PFP (PF27).")
        .expect("Bo takes 1 action from Ann (PF19): 2 AP left, 0 held in stock.")
        .expect("Bo keeps the contact in Ann's mind (PF26).")
        .expect("Round 3 of 10; Ann is high; Ann: 0 PFP, an open mind, health 3, 3 AP, on the ground; Bo: 2 PFP, health 6, 3 AP, in Ann's mind.")
        .expect("Bo wins: Ann yields (PF33).")
        .expect("Ann in the PFP duel: 0 wins, 1 loss, 0 draws.");
    let end = run.events.last().unwrap();
    assert_eq!(end["type"], "fight_ended");
    assert_eq!(end["reason"], "yield");
    assert_eq!(end["winner"], "Bo");
}

// The example's Maneuver left to time out rerolls the highest face (PF37), as Bo chose.
#[tokio::test]
async fn a_reroll_times_out_to_the_highest_face() {
    let books = Books::new();
    let transcript = EXAMPLE.replace("[#minds] bo: /reroll 6", "@wait 121");
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Bo (bo) did not answer in time: /reroll 6 is taken for them.");
    assert_eq!(run.events, golden());
}

// PF31: moderators' NPCs, a psionist or an open mind, each refusal naming its rule; an NPC
// accepts at once and decides by the policy, or as a moderator orders (/as).
#[tokio::test]
async fn an_npc_open_mind_fights_by_the_policy_and_as_ordered() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /psionist create Ann
[#minds] ann: /npc create Echo --open-mind
[#minds] mod: /npc create Echo --open-mind --power 3
[#minds] mod: /npc create Vex --power 7
[#minds] mod: /npc create Vex --aptitude 2
[#minds] mod: /npc create Vex --power 3 --health 8
[#minds] mod: /npc create Echo --open-mind --aptitude 3 --health 4
[#minds] ann: /sheet Echo
@dice 4 5 2
[#minds] ann: /challenge Echo
[#minds] mod: /as Echo /dice 2
[#minds] mod: /as Ann /end
@dice 6 5 1 1
[#minds] ann: /contact
@dice 3 2 1
[#minds] ann: /dice 0
@dice 6 1
[#minds] ann: /end
[#minds] ann: /yield
[#minds] ann: /sheet Echo
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Only a moderator may use /npc create")
        .expect("Cannot create Echo: an open mind has no power: it is not a psionist (PF31); use --aptitude N.")
        .expect("Cannot create Vex: power 7: an NPC psionist's power is 1 to 6 (PF31).")
        .expect("Cannot create Vex: a psionist has no aptitude score (PF22); --aptitude goes with --open-mind.")
        .expect("Vex is ready for the PFP duel (a non-player character: Herald decides for it).")
        .expect("Vex (NPC): psionist, power 3; health 8 of 8; 0 wins, 0 losses, 0 draws.")
        .expect("Echo (NPC): open mind, aptitude 3; health 4 of 4; 0 wins, 0 losses, 0 draws.")
        .expect("Ann challenges Echo to a psionic duel! Echo accepts at once.")
        .expect("Ann, a psionist of power 2, health 6; Echo, an open mind of aptitude 3, health 4.")
        // PF28: only a psionist throws for focus.
        .expect("Focus: Ann 4 PFP (PF28).")
        .expect("Echo will take /dice 2 at its next decision, if it is a choice then.")
        .expect("'Ann' is not a non-player character of this fight;")
        .expect("Echo takes /dice 2, as a moderator ordered.")
        // PF22: one die fewer for an open mind resisting; its aptitude is its score.
        .expect("Echo throws for the contact (open mind): 3 + 2 − 1 (open mind, PF22) = 4 dice: 6 5 1 1.")
        .expect("Contact: Ann 3+2 + 2 = 7 vs Echo 6+5 + 3 = 14: Echo wins by 7.")
        .expect("Echo blocks Ann's contact (PF24).")
        .expect("Echo wins: Ann yields (PF33).")
        .expect("Echo (NPC): open mind, aptitude 3; health 4 of 4; 1 win, 0 losses, 0 draws.");
    let focus: Vec<_> = run
        .events
        .iter()
        .filter(|e| e["type"] == "pfp_rolled")
        .collect();
    assert_eq!(focus.len(), 1);
}

// A restart mid-fight resumes it exactly: the second run plays the example to its end, and the
// events of both runs are the page's.
#[tokio::test]
async fn a_restart_mid_fight_resumes_it_exactly() {
    let books = Books::new();
    let (first, second) = EXAMPLE.split_at(EXAMPLE.find("[#minds] ann: /eject").unwrap());
    let run1 = run_with(&books.path(), CONFIG, first).await;
    assert_eq!(run1.result, Ok(()), "{}", run1.out);
    {
        let store = books.store().await;
        let report = verify(&store, 1).await.unwrap();
        assert!(!report.ok);
        assert!(
            report.message.contains("is still open"),
            "{}",
            report.message
        );
    }
    let second = format!("@clock 2026-12-01T10:01:00Z\n{second}[#minds] ann: /record\n");
    let run2 = run_with(&books.path(), CONFIG, &second).await;
    assert_eq!(run2.result, Ok(()), "{}", run2.out);
    run2.expect("[#minds] Herald is back. Fight #1 resumes where it stood.")
        .expect("Round 1 of 10; Bo is high; Ann: 0 PFP, an open mind, health 2, 3 AP; Bo: 3 PFP, health 6, 0 AP, in Ann's mind, power score 1.")
        .expect("Ann (ann), your activation: 3 AP, 0/2 psionic actions, 0 PFP: /eject, /end, /yield")
        .expect("Bo wins: Ann is knocked out (PF33).")
        .expect("Ann in the PFP duel: 0 wins, 1 loss, 0 draws.");
    let mut events = run1.events.clone();
    events.extend(run2.events.iter().cloned());
    assert_eq!(events, golden());
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// /help lists the game's commands; /help COMMAND explains each.
#[tokio::test]
async fn help_covers_every_command() {
    let books = Books::new();
    let words = [
        "psionist create",
        "psionist",
        "duel",
        "contact",
        "effect",
        "recover",
        "eject",
        "move",
        "end",
        "dice",
        "keep",
        "reroll",
        "backlash",
        "hold",
        "maintain",
        "release",
        "yield",
    ];
    let mut transcript = "[#minds] ann: /help\n".to_string();
    for w in words {
        transcript.push_str(&format!("[#minds] ann: /help {w}\n"));
    }
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    run.expect("the PFP duel in #minds: /psionist create NAME, /psionist [NAME], /duel, /contact, /effect pain|mental|physical N, /effect puppet S G, /effect none, /recover, /eject, /move, /end, /dice N, /keep A B [EFFECT], /reroll V, /backlash health|pfp, /hold N, /maintain, /release, /yield.");
    for w in words {
        let usage = if w == "effect" {
            "/effect pain|mental|physical N".to_string()
        } else {
            format!("/{w}")
        };
        run.expect(&usage);
    }
    run.expect("/keep A B [EFFECT] — Your duel result: the two faces kept, and for a double its effect")
        .expect("/hold N — Your Physical blockage: take N held actions (AP) from your victim now (PF19). Example: /hold 1")
        .expect_not("No command");
}

/// `herald simulate` on two psionists of the books: the real binary.
#[tokio::test]
async fn herald_simulate_gives_pfpduel_odds() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        CONFIG,
        "[#minds] ann: /psionist create Ann\n[#minds] bo: /psionist create Bo\n",
    )
    .await;
    assert_eq!(run.result, Ok(()));
    let simulate = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
            .env_remove("HERALD_LOG")
            .args([
                "simulate", "Ann", "Bo", "--fights", "20000", "--seed", "7", "--db",
            ])
            .arg(books.path())
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let text = simulate(&["--game", "pfpduel"]);
    assert!(
        text.contains("20,000 fights of the PFP duel, Ann v Bo, default policy, seed 7"),
        "{text}"
    );
    assert!(text.contains("Ann wins"), "{text}");
    assert!(
        text.contains(
            "repeat: herald simulate Ann Bo --game pfpduel --fights 20000 --realm local --seed 7"
        ),
        "{text}"
    );
    let figures = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("fights/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(figures(&simulate(&[])), figures(&text));
    // The realm's house numbers are the ones simulated.
    let config = books.path().with_extension("toml");
    std::fs::write(&config, "[pfpduel]\npower = 6\nhealth = 20\n").unwrap();
    let housed = simulate(&["--config", config.to_str().unwrap()]);
    assert_eq!(
        figures(&housed),
        figures(&text),
        "the sheets, not the house, are simulated"
    );
}
