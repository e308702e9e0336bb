//! The Tourney played through the real pipeline (grammar, hub, sessions, referee, engine, a real
//! SQLite file): the page's worked example, a weapon damaged then broken, an NPC, `/game`, a
//! PsiKnight command in a Tourney channel, a restart mid-fight, `verify` and `export`.

mod common;
use common::*;
use herald_bot::verify::verify;

const CONFIG: &str = r##"
[games.channels]
"#tourney" = "tourney"
[permissions]
moderators = ["mod"]
"##;

const KNIGHTS: &str = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5
";

/// The worked example of the page, up to the last blow.
const EXAMPLE_FIGHT: &str = "\
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
@dice 3 2
[#tourney] ann: /attack
@dice 5 3
[#tourney] bo: /attack
@dice 5 6
[#tourney] ann: /attack
@dice 2 1 2
[#tourney] bo: /attack
@dice 1 3 5
[#tourney] ann: /attack
@dice 5 3
[#tourney] bo: /attack
";

const EXAMPLE_END: &str = "\
@dice 2
[#tourney] ann: /stand
@dice 4 2
[#tourney] bo: /attack
";

fn types(run: &Run) -> Vec<String> {
    run.events
        .iter()
        .map(|e| e["type"].as_str().unwrap_or("").to_string())
        .collect()
}

// The page's worked example (T5's four exchanges, then T6, T8, T13, T14, T15, T16, T21).
#[tokio::test]
async fn the_worked_example_is_refereed_as_the_page_gives_it() {
    let books = Books::new();
    let transcript = format!(
        "{KNIGHTS}{EXAMPLE_FIGHT}{EXAMPLE_END}\
[#tourney] ann: /smith
[#tourney] bo: /challenge ann
[#tourney] ann: /record
@clock 2026-12-02T09:00:00Z
[#tourney] ann: /sheet
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Ector challenges Sir Gimby to a bout on foot! bo: /accept or /decline (300s).")
        .expect("Roll-off: Sir Ector 4, Sir Gimby 2: Sir Ector acts first (T9).")
        .expect("Sir Ector (ann), your action: /attack, /yield (120s, then /attack).")
        .expect("Sir Ector attacks: broadsword 3+6 = 9 vs Sir Gimby broadsword 2+4 = 6: hit. Sir Gimby takes 2 (broadsword 2 + Strength 0): Health 5.")
        // T3: a tie is parried.
        .expect("Sir Gimby attacks: broadsword 5+4 = 9 vs Sir Ector broadsword 3+6 = 9: a tie is parried (T3).")
        // T2, T4: a critical parries; a fumbling defender is hit, and his weapon is damaged (T6).
        .expect("6+4 = 10 (critical): a critical parries (T2).")
        .expect("1+6 = 7 (fumble): a fumble is hit (T4). Sir Ector takes 3 (broadsword 2 + Strength 1): Health 4. Sir Ector's fumble die 2: weapon damaged (T6).")
        // T6, T8: the fumble die 5 fells him; down, -1 on his defence.
        .expect("Sir Ector's fumble die 5: he falls (T6, T8).")
        .expect("3+6-1 (down) = 8: hit.")
        // T14: at Health 1 he is offered to yield, in his prompt.
        .expect("Sir Ector (ann), at Health 1 you may yield (T14); your action: /stand, /yield (120s, then /stand).")
        // T8, T13: the Strength test, -1 at Health 1.
        .expect("Sir Ector tries to stand: 2+3-1 (Health 1) = 4 vs 3: up (T8).")
        // T15: Health 0 is out.
        .expect("Sir Gimby wins: Sir Ector is out of the Tourney until the realm's next day (T15).")
        .expect("Fight #1 is over. Dice seed: ")
        // T16: the smith repairs at once.
        .expect("Sir Ector's broadsword is repaired (T16).")
        // T15: out, he can be challenged by no one until the next day.
        .expect("Sir Ector is out of the Tourney at Health 0 until the realm's next day (T15).")
        .expect("Sir Ector in The Tourney: 0 wins, 1 loss, 0 draws.")
        // T15, T21: the realm's next day heals every hit.
        .expect("Sir Ector (ann): dagger 1, broadsword 6 (main), mace 0, axe 0, greatsword 0; Strength 3 (+0 a blow); Health 7 - 0 hits = 7; broadsword sound, dagger sound; 0 wins, 1 loss.");
    // Dice fairness: the seed shown at the end hashes to the hash shown at the start.
    run.assert_seed_matches_its_hash();
    // The events, in the page's order, each marked with its game.
    let t = types(&run);
    let expected = [
        "fight_started",
        "roll_off",
        "roll_off",
        "first_actor",
        "round_started",
        "action",
        "test",
        "test",
        "exchange",
        "damage",
    ];
    assert_eq!(&t[..expected.len()], &expected, "{t:?}");
    assert_eq!(t.last().map(String::as_str), Some("fight_ended"));
    assert_eq!(t.iter().filter(|x| *x == "round_started").count(), 4);
    assert!(run.events.iter().all(|e| e["game"] == "tourney"));
    let end = run.events.last().unwrap();
    assert_eq!(end["winner"], "Gimby");
    assert_eq!(end["loser"], "Ector");
    assert_eq!(end["reason"], "out");
    assert_eq!(end["rounds"], 4);
    let damage: Vec<u64> = run
        .events
        .iter()
        .filter(|e| e["type"] == "damage")
        .map(|e| e["hits_taken"].as_u64().unwrap())
        .collect();
    assert_eq!(damage, [2, 3, 6, 7]);

    // The books: what outlasts the bout (T21), the record (T18), the fight of its game.
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    let characters = doc["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 2);
    let gimby = &characters[1];
    assert_eq!(gimby["game"], "tourney");
    assert_eq!(gimby["name"], "Gimby");
    assert_eq!(gimby["owner"], "bo");
    assert_eq!(gimby["npc"], false);
    assert_eq!(gimby["state"]["hits"], 2);
    assert_eq!(gimby["record"]["wins"], 1);
    assert_eq!(characters[0]["record"]["losses"], 1);
    assert_eq!(
        characters[0]["state"]["main"], "sound",
        "repaired at the smith"
    );
    assert_eq!(doc["fights"][0]["game"], "tourney");
    assert_eq!(doc["fights"][0]["winner"], "Gimby");
    assert_eq!(doc["knights"].as_array().unwrap().len(), 0);

    // herald verify replays it from its seed and decisions.
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("Gimby won (out)"),
        "{}",
        report.message
    );
    assert!(
        report.message.contains("19 rolls were scripted"),
        "{}",
        report.message
    );
}

// T7: damaged again, a weapon breaks and is lost; the dagger is drawn at once.
#[tokio::test]
async fn a_fumble_damages_a_weapon_then_breaks_it_and_the_dagger_is_drawn() {
    let books = Books::new();
    let transcript = format!(
        "{KNIGHTS}\
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
# Ector fumbles (1 v 3+4): parried; fumble die 2: broadsword damaged.
@dice 1 3 2
[#tourney] ann: /attack
# Both fumble: nothing happens (T4).
@dice 1 1
[#tourney] bo: /attack
# Ector fumbles again; fumble die 3: the damaged broadsword breaks.
@dice 1 3 3
[#tourney] ann: /attack
[#tourney] ann: /status
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("both fumble: nothing happens (T4).")
        .expect("Sir Ector's broadsword breaks and is lost (T7). Sir Ector draws his dagger (T7).")
        .expect("Sir Ector: Health 7, wields the dagger, broadsword lost, dagger sound");
    let states: Vec<&str> = run
        .events
        .iter()
        .filter(|e| e["type"] == "weapon_state")
        .map(|e| e["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["damaged", "lost"]);
}

// T19: a timeout takes the default, /attack, and the channel is told.
#[tokio::test]
async fn a_timeout_takes_the_default_and_says_so() {
    let books = Books::new();
    let transcript = format!(
        "{KNIGHTS}\
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
@dice 3 2
@wait 121
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    run.expect("Sir Ector (ann) did not answer in time: /attack is taken for them.")
        .expect("Sir Ector attacks: broadsword 3+6 = 9");
}

// T20, T19: an NPC has no budget, accepts at once and fights by the default policy; a
// moderator's /as gives its next decision.
#[tokio::test]
async fn an_npc_accepts_at_once_and_a_moderator_gives_its_decision() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector
[#tourney] ann: /npc create Drone-7 --strength 9
[#tourney] mod: /npc create Drone-7 --strength 9 --skill mace:10 --weapon mace --health 12
# The roll-off 2 v 5: the drone starts, and attacks at once: 3+10 = 13 v 2+6 = 8, hit.
@dice 2 5 3 2
[#tourney] ann: /challenge Drone-7
[#tourney] mod: /as Drone-7 /yield
@dice 4 4
[#tourney] ann: /attack
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Only a moderator may use /npc create")
        .expect(
            "Sir Drone-7 is ready for The Tourney (a non-player character: Herald decides for it).",
        )
        .expect("Sir Ector challenges Sir Drone-7 to a bout on foot! Sir Drone-7 accepts at once.")
        .expect("Sir Drone-7 takes /attack.")
        // T11: Strength 9 is +3 a blow; a mace does 2.
        .expect("Sir Ector takes 5 (mace 2 + Strength 3): Health 2.")
        .expect("Sir Drone-7 will take /yield at its next decision, if it is a choice then.")
        .expect("Sir Drone-7 takes /yield, as a moderator ordered.")
        .expect("Sir Ector wins: Sir Drone-7 yielded (T14).");
}

// The channel's game: /game says it, a moderator changes it (refused during a fight), and a
// command of another game is answered with the game it belongs to.
#[tokio::test]
async fn the_channels_game_is_told_changed_and_remembered() {
    let books = Books::new();
    let first = "\
@clock 2026-12-01T10:00:00Z
ann: /game
ann: /game tourney
mod: /game chess
mod: /game tourney
ann: /joust bo
ann: /knight create Ector
bo: /knight create Gimby
ann: /challenge bo
bo: /accept
mod: /game psiknight
[#tourney] ann: /stand
[#elsewhere] ann: /stand
";
    let run = run_with(&books.path(), CONFIG, first).await;
    run.expect("#lists plays PsiKnight (psiknight)")
        .expect("Only a moderator may change the game of #lists; it plays PsiKnight.")
        .expect("'chess' is not a game Herald referees; the games are psiknight, tourney, pfpduel, psimorphs, powerpool.")
        .expect("#lists now plays The Tourney (tourney)")
        .expect("/joust is a command of PsiKnight; #lists plays The Tourney")
        .expect("Fight #1: Sir Ector vs Sir Gimby, a bout on foot of The Tourney.")
        .expect("#lists keeps playing The Tourney while a fight, a challenge or a tournament is open here")
        .expect("[#elsewhere] /stand is a command of The Tourney; #elsewhere plays PsiKnight.");
    // Remembered across a restart: the open fight comes back, and #lists still plays it.
    let second = "\
@clock 2026-12-01T10:05:00Z
ann: /game
";
    let run = run_with(&books.path(), CONFIG, second).await;
    run.expect("Herald is back. Fight #1 resumes where it stood.")
        .expect("#lists plays The Tourney (tourney)");
}

// A restart mid-fight resumes it exactly: the second run plays the example to its end.
#[tokio::test]
async fn a_restart_mid_fight_resumes_it_exactly() {
    let books = Books::new();
    let first = format!("{KNIGHTS}{EXAMPLE_FIGHT}");
    let run = run_with(&books.path(), CONFIG, &first).await;
    run.expect("Sir Ector is at Health 1 and may yield (T14).");
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
    let second = format!("@clock 2026-12-01T10:01:00Z\n{EXAMPLE_END}[#tourney] ann: /record\n");
    let run = run_with(&books.path(), CONFIG, &second).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("[#tourney] Herald is back. Fight #1 resumes where it stood.")
        .expect("Round 4")
        .expect("Sir Ector tries to stand: 2+3-1 (Health 1) = 4 vs 3: up (T8).")
        .expect("Sir Gimby wins: Sir Ector is out of the Tourney until the realm's next day (T15).")
        .expect("Sir Ector in The Tourney: 0 wins, 1 loss, 0 draws.");
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// T12: a refused sheet says which rule it breaks; one knight per player per game.
#[tokio::test]
async fn a_refused_sheet_names_its_rule() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector --strength 4
[#tourney] ann: /knight create Ector --skill broadsword:7
[#tourney] ann: /knight create Ector --weapon dagger
[#tourney] ann: /knight create Ector
[#tourney] ann: /knight create Other
[#tourney] bo: /knight create ector
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    run.expect("skills and Strength must add up to exactly 10 (T12): these add up to 11")
        .expect("broadsword 7: a skill is 0 to 6 (T12)")
        .expect("Sir Ector is ready for The Tourney.")
        .expect("Cannot create Other: you already have Ector in this game; a player has one character per game.")
        .expect("Cannot create ector: there is already a character named ector in this game here.");
}

// R170 for every game: a character's name is found and kept unique whatever its case and
// accents.
#[tokio::test]
async fn a_name_is_one_whatever_its_case_and_accents() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Éowyn
[#tourney] bo: /knight create eowyn
[#tourney] bo: /knight create Gimby
[#tourney] bo: /sheet EOWYN
[#tourney] bo: /challenge eowyn
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    run.expect("Sir Éowyn is ready for The Tourney.")
        .expect("Cannot create eowyn: there is already a character named eowyn in this game here.")
        .expect("Sir Éowyn (ann): dagger")
        .expect("Sir Gimby challenges Sir Éowyn to a bout on foot!");
}

// A word both games know keeps the channel's own answer: PsiKnight's /knight create is not
// sent to The Tourney, nor a common /roll to PsiKnight.
#[tokio::test]
async fn a_shared_word_keeps_the_channels_own_error() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
ann: /knight create Alan --bogus 1
[#tourney] ann: /roll 1d
[#tourney] ann: /joust
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    run.expect_not("is a command of The Tourney")
        .expect_not("/roll is a command of")
        .expect("[#tourney] /joust is a command of PsiKnight; #tourney plays The Tourney.");
}

// T19: /odds in a Tourney channel simulates the two as they stand, both by the default policy.
#[tokio::test]
async fn odds_in_a_tourney_channel_are_the_tourneys() {
    let books = Books::new();
    let transcript =
        format!("{KNIGHTS}[#tourney] ann: /odds Gimby\n[#tourney] ann: /odds Nobody\n");
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    run.expect("Sir Gimby v Sir Ector, 20,000 fights of The Tourney: Sir Gimby wins ")
        .expect(
            "No knight or player named 'Nobody' plays The Tourney here. Usage: /odds NAME [NAME]",
        );
}

/// `herald simulate` on two Tourney knights of the books: the real binary.
#[tokio::test]
async fn herald_simulate_gives_tourney_odds() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, KNIGHTS).await;
    assert_eq!(run.result, Ok(()));
    let simulate = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
            .env_remove("HERALD_LOG")
            .args([
                "simulate", "Ector", "Gimby", "--fights", "10000", "--seed", "7", "--db",
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
    let text = simulate(&[]);
    assert!(
        text.contains(
            "10,000 fights of The Tourney, Sir Ector v Sir Gimby, default policy, seed 7"
        ),
        "{text}"
    );
    assert!(text.contains("Sir Ector wins"), "{text}");
    assert!(text.contains("won out"), "{text}");
    assert!(text.contains("repeat: herald simulate Ector Gimby --game tourney --fights 10000 --realm local --seed 7"), "{text}");
    // The same seed gives the same figures (the throughput line aside).
    let figures = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("fights/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(figures(&simulate(&["--game", "tourney"])), figures(&text));
    // The realm's house tables in the configuration are the ones simulated: blows of 7 hits
    // end every bout at its first hit.
    let config = books.path().with_extension("toml");
    std::fs::write(&config, "[tourney.weapons]\nbroadsword = 7\n").unwrap();
    let housed = simulate(&["--config", config.to_str().unwrap()]);
    assert_ne!(figures(&housed), figures(&text), "{housed}");
}

// T19: after each fight the default policy takes an NPC to the smith; T6: its fumble damaged
// its weapon during the bout.
#[tokio::test]
async fn after_a_bout_an_npc_goes_to_the_smith() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector
[#tourney] mod: /npc create Drone-7 --weapon mace --skill mace:5
# The drone starts (2 v 5) and fumbles (1 v 3+6): parried; fumble die 2: its mace is damaged.
@dice 2 5 1 3 2
[#tourney] ann: /challenge Drone-7
[#tourney] ann: /status
[#tourney] ann: /yield
[#tourney] ann: /sheet Drone-7
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Drone-7's fumble die 2: weapon damaged (T6).")
        .expect("Sir Drone-7: Health 7, wields the mace, mace damaged, dagger sound")
        .expect("Sir Drone-7 wins: Sir Ector yielded (T14).")
        .expect("Sir Drone-7 (NPC): dagger 0, broadsword 0, mace 5 (main), axe 0, greatsword 0; Strength 3 (+0 a blow); Health 7 - 0 hits = 7; mace sound, dagger sound; 1 win, 0 losses.");
}

// T15: a knight knocked out elsewhere after being challenged cannot accept: the bout starts
// from the sheets as they are at /accept, not at the challenge (T21).
#[tokio::test]
async fn an_accept_reads_the_sheets_as_they_are_then() {
    let books = Books::new();
    let config = "[games]\ndefault = \"tourney\"\n[permissions]\nmoderators = [\"mod\"]\n";
    let transcript = format!(
        "{KNIGHTS}\
[#t2] mod: /npc create Drone-7 --weapon mace --skill mace:10 --strength 9
[#tourney] ann: /challenge bo
# In #t2 the drone starts (2 v 5) and hits for 5 (3+10 v 2+4); Gimby's blow is parried by a
# critical (2+4 v 6+10); the drone hits again: Gimby is out.
@dice 2 5 3 2
[#t2] bo: /challenge Drone-7
@dice 2 6 3 2
[#t2] bo: /attack
[#tourney] bo: /accept
"
    );
    let run = run_with(&books.path(), config, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(
        "[#t2] Sir Drone-7 wins: Sir Gimby is out of the Tourney until the realm's next day (T15).",
    )
    .expect(
        "[#tourney] Sir Gimby is out of the Tourney at Health 0 until the realm's next day (T15).",
    )
    .expect_not("[#tourney] Fight #2");
}

// R170, as in PsiKnight: a name first, then a nick; `@nick` is always the player.
#[tokio::test]
async fn a_target_is_a_name_first_and_at_nick_the_player() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Bo
[#tourney] bo: /knight create Gimby
[#tourney] carl: /knight create Cai
[#tourney] carl: /record bo
[#tourney] carl: /record @bo
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    run.expect("Sir Bo in The Tourney: 0 wins")
        .expect("Sir Gimby in The Tourney: 0 wins");
}
