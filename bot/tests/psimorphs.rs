//! Psi Morphs played through the real pipeline (grammar, hub, sessions, referee, engine, a real
//! SQLite file): the page's worked example checked against `--events` event for event, each
//! prompt's timeout, an NPC fight with `/as`, death and a new morph, the GM's `/check`, a restart
//! mid-fight, `verify`, `simulate`, what outlasts a fight and its recovery, bad input, `export`.

mod common;
#[allow(unused_imports)]
#[path = "../../engine/tests/psimorphs_common/mod.rs"]
mod pm;
use common::*;
use herald_bot::verify::verify;
use serde_json::Value;

const CONFIG: &str = r##"
[games.channels]
"#morphs" = "psimorphs"
[permissions]
moderators = ["mod"]
"##;

const EXAMPLE: &str = include_str!("transcripts/psimorphs_example.txt");
const EXAMPLE_EVENTS: &str = include_str!("transcripts/psimorphs_example.events");

/// The example's morphs, at 10:00 on 2026-12-01.
fn morphs() -> &'static str {
    let end = EXAMPLE.find("[#morphs] ann: /fight bo").unwrap();
    &EXAMPLE[..end]
}

/// The page's compact line of an event, the challenge's steps included.
fn compact(e: &Value) -> String {
    match e["type"].as_str() {
        Some("challenge") => format!(
            "challenge {} -> {}",
            e["challenger"].as_str().unwrap(),
            e["challenged"].as_str().unwrap()
        ),
        Some(t @ ("accepted" | "declined")) => format!("{t} {}", e["name"].as_str().unwrap()),
        _ => pm::compact(e),
    }
}

async fn character(books: &Books, name: &str) -> Value {
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    doc["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name && c["retired"] != true)
        .cloned()
        .unwrap_or(Value::Null)
}

// The page's worked example in chat (PM5, PM7, PM13, PM14, PM18, PM20, PM21, PM22, PM24, PM25,
// PM8, PM29): every event of `--events`, in order, is the page's listing.
#[tokio::test]
async fn the_worked_example_is_refereed_event_for_event() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, EXAMPLE).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let got: Vec<String> = run.events.iter().map(compact).collect();
    let want: Vec<&str> = EXAMPLE_EVENTS.lines().collect();
    assert_eq!(got, want, "{}", run.out);
    assert!(run.events.iter().all(|e| e["game"] == "psimorphs"));
    run.expect("Ann challenges Bo to a fight! bo: /accept or /decline (300s).")
        .expect("Ann (ann), round 1 [--isp N adds ISPs]: /attack, /force eb1, /force eb2, /force hs1, /force as1, /force kc1, /force ll1, /pass, /yield (120s, then /attack).")
        .expect("Bo (bo), Ann attacks [--isp N adds ISPs]: /defend combat, /defend physical, /yield (120s, then /defend physical).")
        .expect("Bo (bo), 19 vs Ann's 24 goes against you: /redo (3 ISPs), /keep, /yield (120s, then /keep).")
        .expect("Ann 24 vs Bo 24: a tie between players: no winner (PM7).")
        .expect("Ann (ann), Energy Blast I succeeds, 16 vs 14 [--isp N adds ISPs]: /resist energy, /resist mental, /yield")
        .expect("Bo: PM20: you used Energy Blast I in round 1 and have had 0 of 3 rounds in a row without a force.")
        .expect("Ann hits Bo: strength 7 + 5, doubled at twice the defence = 24 damage; Bo has -4 hp of 20 (PM25).")
        .expect("Ann wins in round 3: Bo is unconscious (PM8).")
        .expect("Fight #1 is over. Dice seed: ");
    // The fight's closing transaction wrote what outlasts it (PM28) and the record (PM29).
    let ann = character(&books, "Ann").await;
    assert_eq!(ann["state"]["hp"], 14);
    assert_eq!(ann["state"]["pa_fp"], 3);
    assert_eq!(ann["state"]["pe_fp"], 5);
    assert_eq!(ann["state"]["isp"], serde_json::json!({"general": 1}));
    assert_eq!(ann["record"]["wins"], 1);
    let bo = character(&books, "Bo").await;
    assert_eq!(bo["state"]["hp"], -4);
    assert_eq!(bo["state"]["pe_fp"], 3);
    assert_eq!(bo["state"]["isp"], serde_json::json!({}));
    assert_eq!(bo["state"]["dead"], false);
    assert_eq!(bo["record"]["losses"], 1);
    let report = verify(&books.store().await, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("Ann won (unconscious)"),
        "{}",
        report.message
    );
}

// PM8, PM28: unconscious until the realm's next day; then the first touch recovers the morph,
// saves it and logs `recovered` once.
#[tokio::test]
async fn what_outlasts_a_fight_recovers_at_the_next_days_first_touch() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, EXAMPLE).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let later = "\
@clock 2026-12-01T23:00:00Z
[#morphs] bo: /fight ann
[#morphs] bo: /check combat agility 10
[#morphs] ann: /sheet
@clock 2026-12-02T08:00:00Z
[#morphs] bo: /sheet
[#morphs] bo: /record
";
    let run = run_with(&books.path(), CONFIG, later).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Bo is unconscious at -4 hp of 20 until the realm's next day (PM8, PM28).")
        .expect("Bo (bo): PM27: an unconscious morph makes no checks")
        .expect("Ann (ann): level 1; str 5, dex 4, agi 3, int 3, wil 3, res 3; ranks combat 3 (1 master), physical 1, atom 1, energy 3; hp 14/20; PA FP 3/5, PE FP 5/5; ISPs general 1; 1 win, 0 losses, 0 draws.")
        .expect("Bo (bo): level 1; str 3, dex 4, agi 4, int 4, wil 3, res 3; ranks combat 2, physical 3, mental 1, energy 2; hp 20/20; PA FP 5/5, PE FP 5/5; ISPs energy 2, general 3; 0 wins, 1 loss, 0 draws.")
        .expect("Bo in Psi Morphs: 0 wins, 1 loss, 0 draws.");
    let recovered: Vec<&Value> = run
        .events
        .iter()
        .filter(|e| e["type"] == "recovered")
        .collect();
    assert_eq!(recovered.len(), 1, "{:?}", run.events);
    assert_eq!(recovered[0]["name"], "Bo");
    assert_eq!(recovered[0]["hp"], 20);
    assert_eq!(recovered[0]["game"], "psimorphs");
    let bo = character(&books, "Bo").await;
    assert_eq!(bo["state"]["hp"], 20);
    assert_eq!(bo["state"]["day"], "2026-12-02");
    assert!(bo["state"].get("recovered").is_none(), "{bo}");
}

// PM15: each prompt's timeout takes the default policy's decision: a turn /attack, a defence
// the group with more ranks, a redo /keep, a resistance the better group.
#[tokio::test]
async fn each_prompts_timeout_takes_the_default() {
    let books = Books::new();
    let transcript = format!(
        "{}\
[#morphs] ann: /fight bo
[#morphs] bo: /accept
@wait 121
# Ann 1+1+6 = 8 against Bo's Misc Physical 2+2+6 = 10: against Ann, who may redo.
@dice 1 1 2 2
@wait 121
@wait 121
# Bo 1+1+5 = 7 against Ann's Combat 5+5+6 = 16: against Bo.
@dice 1 1 5 5
@wait 121
@wait 121
@wait 121
# Round 2: Ann's Energy Blast I 5+5+6 = 16 vs 14; Bo resists 1+1+5 = 7.
@dice 5 5
[#morphs] ann: /force eb1
@dice 1 1
@wait 121
@wait 121
[#morphs] ann: /status
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ann (ann) did not answer in time: /attack is taken for them.")
        .expect("Bo (bo) did not answer in time: /defend physical is taken for them.")
        .expect("Ann (ann) did not answer in time: /keep is taken for them.")
        .expect("Bo (bo) did not answer in time: /attack is taken for them.")
        .expect("Ann (ann) did not answer in time: /defend combat is taken for them.")
        .expect("Bo (bo) did not answer in time: /keep is taken for them.")
        .expect("Bo (bo) did not answer in time: /resist energy is taken for them.")
        .expect("Energy Blast I deals Bo 6 damage: 14 hp of 20.")
        .expect("Round 2; Ann: 20 hp of 20, PA FP 5, PE FP 3, ISPs combat 4, general 2; Bo: 14 hp of 20");
    let kept = run.events.iter().filter(|e| e["type"] == "kept").count();
    assert_eq!(kept, 3, "{}", run.out);
}

// PM17, PM10, PM26, PM6, PM9: an NPC made by a moderator accepts at once, its Lightning
// Quickness takes the player's first turn, it decides by the default policy or a moderator's
// /as; a player's morph it kills is dead, and its player creates another.
#[tokio::test]
async fn an_npc_fight_with_as_and_a_death() {
    let books = Books::new();
    let transcript = format!(
        "{}\
[#morphs] ann: /npc create Robo --str 20 --dex 5 --ranks combat:4 --level 2 --hp 30 --quickness
[#morphs] mod: /npc create Robo --reflexes
[#morphs] mod: /npc create Robo --str 20 --dex 5 --ranks combat:4 --level 2 --hp 30 --quickness
[#morphs] ann: /fight Robo
# Robo 9+9+9 = 27 against Ann's Combat 1+1+6 = 8: at least twice, (20 + 5) x 2 = 50.
@dice 9 9 1 1
[#morphs] ann: /defend combat
[#morphs] ann: /keep
[#morphs] ann: /sheet
[#morphs] ann: /fight Robo
[#morphs] ann: /morph create Ann2
[#morphs] ann: /record Robo
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Only a moderator may use /npc create")
        .expect("Cannot create Robo: PM17: Lightning Reflexes is a player's discipline")
        .expect("Robo is ready for Psi Morphs (a non-player character: Herald decides for it).")
        .expect("Ann challenges Robo to a fight! Robo accepts at once.")
        .expect("Robo has Lightning Quickness (PM10).")
        .expect("Ann loses the turn of round 1 to Lightning Quickness (PM10).")
        .expect("Robo takes /attack.")
        .expect("Ann (ann), Robo attacks [--isp N adds ISPs]: /defend combat, /defend physical, /yield")
        .expect("Robo hits Ann: strength 20 + 5, doubled at twice the defence = 50 damage; Ann has -30 hp of 20 (PM25).")
        .expect("Ann dies at -30 hp, below -20 (PM9).")
        .expect("Robo wins in round 1: Ann is dead (PM9).")
        .expect("Ann (ann): level 1;")
        .expect(": dead (PM9)")
        .expect("Ann is dead (PM9) and never fights again; its player may create another with /morph create.")
        .expect("Ann2 is ready for Psi Morphs.")
        .expect("Robo in Psi Morphs: 1 win, 0 losses, 0 draws.");
    let types: Vec<&str> = run
        .events
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        &types[..4],
        ["challenge", "accepted", "fight_started", "round_started"]
    );
    assert_eq!(types[4], "turn_skipped");
    assert!(run.events[2]["quickness"] == serde_json::json!(["Robo"]));
    // The dead morph keeps its record, retired once its player made another.
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    let dead = doc["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Ann")
        .unwrap();
    assert_eq!(dead["state"]["dead"], true);
    assert_eq!(dead["record"]["losses"], 1);
}

// A moderator's /as order for an NPC decision; PM6: a tie between a player and an NPC goes to
// the player.
#[tokio::test]
async fn a_moderators_order_and_a_tie_against_an_npc() {
    let books = Books::new();
    let transcript = format!(
        "{}\
[#morphs] mod: /npc create Drone --dex 4 --agi 4 --ranks combat:3
[#morphs] mod: /as Drone /pass
[#morphs] ann: /fight Drone
[#morphs] mod: /as Drone /pass
[#morphs] ann: /pass
# Round 2: Ann 3+3+6 = 12 against Drone's 2+4+6 = 12: the player wins the tie (PM6).
@dice 3 3 2 4
[#morphs] ann: /attack Drone
[#morphs] ann: /attack Bo
[#morphs] ann: /attack drone
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("There is no fight in #morphs for Drone to act in.")
        .expect("Drone will take /pass at its next decision, if it is a choice then.")
        .expect("Drone takes /pass, as a moderator ordered.")
        .expect("Drone takes /defend combat.")
        .expect("Ann 12 vs Drone 12: a tie goes to the player, Ann (PM6).")
        .expect("Ann hits Drone: strength 5 + 5 = 10 damage; Drone has 10 hp of 20 (PM25).")
        .expect("Drone takes /attack.")
        .expect("'Bo' is not your opponent; you fight Drone. Usage: /attack [TARGET] [--isp N]");
}

// PM27, PM1, PM13, PM14: the GM's check out of fights, its redo and keep, the offer lapsing
// after 120 s, an NPC's check by /as (the seed's Joe), refused in a fight.
#[tokio::test]
async fn the_gms_check_with_redo_keep_and_its_lapse() {
    let books = Books::new();
    let transcript = format!(
        "{}\
# Combat + strength: 2+3 + 1+3+3 = 12 vs 20, a failure Ann can pay to redo.
@dice 2 3
[#morphs] ann: /check combat strength 20
[#morphs] ann: /sheet
@dice 8 8
[#morphs] ann: /redo
@dice 1 1
[#morphs] ann: /check combat strength 20
@wait 121
[#morphs] ann: /redo
[#morphs] ann: /keep
[#morphs] mod: /npc create Joe --level 2 --ranks negotiating:4 --master negotiating:1 --int 6
@dice 2 9 9
[#morphs] mod: /as Joe /check negotiating intelligence 25
[#morphs] ann: /fight bo
[#morphs] bo: /accept
[#morphs] ann: /check combat strength 20
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ann's check (Combat + strength): [2][3] = 5 + 7 (level 1 + ranks 3 + half 3 + ISPs 0) = 12, rerolls at 9+ vs 20: failure.")
        .expect("Ann (ann), 12 vs 20 goes against you: /redo (3 ISPs), /keep (120s, then /keep).")
        .expect("A check of Combat stands at 12 vs 20: /redo or /keep.")
        .expect("Ann spends 3 ISPs to redo the check (combat 3); left: combat 1, general 2 (PM14).")
        .expect("Ann's check, attempt 2 (Combat + strength): [8][8] = 16 + 7 (level 1 + ranks 3 + half 3 + ISPs 0) = 23, rerolls at 9+ vs 20: success.")
        .expect("Ann's check (Combat + strength): [1][1] = 2 + 7 (level 1 + ranks 3 + half 3 + ISPs 0) = 9, rerolls at 9+ vs 20: failure.")
        // PM27: at the 120th second the offer lapses and /keep is taken, the channel told.
        .expect("Time is up for Ann: /keep is taken.")
        .expect("Ann keeps 9.")
        .expect("Ann (ann): PM27: you have no failed check to redo or keep.")
        // PM1: the seed's Joe, 2 and 9, the 9 rerolls a 9: 20 + 9 = 29 >= 25.
        .expect("Joe's check (Negotiating + intelligence): [2][9,9] = 20 + 9 (level 2 + ranks 4 + half 3 + ISPs 0) = 29, rerolls at 9+ vs 25: success.")
        .expect("Ann is fighting in #morphs; /check waits until the fight is over.");
    let gm: Vec<&Value> = run.events.iter().filter(|e| e["type"] == "check").collect();
    assert_eq!(gm.len(), 4);
    assert!(gm
        .iter()
        .all(|e| e["purpose"] == "gm" && e["game"] == "psimorphs"));
    assert_eq!(gm[1]["attempt"], 2);
    assert_eq!(gm[3]["name"], "Joe");
}

// A restart mid-fight resumes it exactly: the second run plays the example to its end, and
// `herald verify` replays the whole fight.
#[tokio::test]
async fn a_restart_mid_fight_resumes_it_exactly() {
    let books = Books::new();
    let cut = EXAMPLE.find("@dice 6 4\n").unwrap();
    let run = run_with(&books.path(), CONFIG, &EXAMPLE[..cut]).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let report = verify(&books.store().await, 1).await.unwrap();
    assert!(!report.ok);
    assert!(
        report.message.contains("is still open"),
        "{}",
        report.message
    );
    let second = format!("@clock 2026-12-01T10:01:00Z\n{}", &EXAMPLE[cut..]);
    let run = run_with(&books.path(), CONFIG, &second).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("[#morphs] Herald is back. Fight #1 resumes where it stood.")
        .expect("Round 2; Ann: 14 hp of 20")
        .expect("Ann wins in round 3: Bo is unconscious (PM8).");
    let got: Vec<String> = run.events.iter().map(compact).collect();
    let want: Vec<&str> = EXAMPLE_EVENTS.lines().collect();
    assert_eq!(got[..], want[want.len() - got.len()..], "{}", run.out);
    let report = verify(&books.store().await, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// Bad input for each command: one line that says what was wrong and how to say it right, and
// nothing written.
#[tokio::test]
async fn bad_input_gets_one_line_with_the_usage_and_writes_nothing() {
    let books = Books::new();
    let cases: &[(&str, &str)] = &[
        ("/morph create", "Usage: /morph create NAME"),
        ("/morph create 9lives", "Cannot create 9lives: a morph's name is 1-20 letters, digits, - or _, a letter first"),
        ("/morph create Cy --str 7", "Cannot create Cy: PM16: strength 7 is outside 1-6."),
        ("/morph create Cy --str 6 --dex 6", "Cannot create Cy: PM16: attributes add up to 25, more than 21."),
        ("/morph create Cy --ranks combat:5", "Cannot create Cy: PM16: 5 ranks in Combat, more than 4."),
        ("/morph create Cy --master combat:1 --reflexes", "PM16: 1 master ranks and Lightning Reflexes are 2 edges, more than 1"),
        ("/morph create Cy --quickness", "Cannot create Cy: PM10: Lightning Quickness is for NPCs"),
        ("/morph create Cy --isp combat:9", "Cannot create Cy: PM16: ISPs cost 9 points"),
        ("/morph create Cy --ranks fire:2", "Cannot create Cy: unknown word 'fire'"),
        ("/morph create Cy --str x", "Usage: /morph create NAME"),
        ("/morph retire", "you have no morph in Psi Morphs yet"),
        ("/fight", "Usage: /fight TARGET"),
        ("/fight nobody", "cy, you have no morph in Psi Morphs yet."),
        ("/attack", "There is no fight in #morphs to make a move in."),
        ("/force zz1", "No force 'zz1' in the realm's catalogue (/forces lists them). Usage: /force NAME [--isp N]"),
        ("/force", "Usage: /force NAME [--isp N]"),
        ("/drop", "Usage: /drop FORCE"),
        ("/breakfree nothing", "No force 'nothing' in the realm's catalogue (/forces lists them). Usage: /breakfree FORCE"),
        ("/defend sideways", "Usage: /defend combat|physical [--isp N]"),
        ("/resist fire", "Usage: /resist atom|energy|mental [--isp N]"),
        ("/redo", "There is no fight in #morphs to make a move in."),
        ("/check combat strength 10", "you have no morph in Psi Morphs yet"),
        ("/check combat luck 10", "Usage: /check GROUP ATTRIBUTE DIFFICULTY [--isp N]"),
        ("/check combat", "Usage: /check GROUP ATTRIBUTE DIFFICULTY [--isp N]"),
        ("/attack --isp x", "Usage: /attack [TARGET] [--isp N]"),
        ("/help nonsense", "No command 'nonsense' in Psi Morphs; /help lists them."),
    ];
    for (line, want) in cases {
        let run = run_with(
            &books.path(),
            CONFIG,
            &format!("@clock 2026-12-01T10:00:00Z\n[#morphs] cy: {line}\n"),
        )
        .await;
        assert_eq!(run.result, Ok(()), "{}", run.out);
        let lines = run.lines();
        assert_eq!(lines.len(), 1, "{line}: {}", run.out);
        assert!(lines[0].contains(want), "{line}: {}", run.out);
        assert!(run.events.is_empty(), "{line}");
    }
    let doc = herald_bot::export::export(&books.store().await)
        .await
        .unwrap();
    assert_eq!(doc["characters"].as_array().unwrap().len(), 0);
    // With a morph, and in a fight.
    let transcript = format!(
        "{}\
[#morphs] ann: /check combat strength 500
[#morphs] ann: /check combat strength 10 --isp 99
[#morphs] ann: /keep
[#morphs] ann: /fight ann
[#morphs] ann: /fight bo
[#morphs] ann: /fight bo
[#morphs] bo: /accept
[#morphs] bo: /attack
[#morphs] ann: /attack --isp 99
[#morphs] ann: /defend physical
[#morphs] ann: /drop as1
[#morphs] ann: /breakfree as1
[#morphs] ann: /force eb2 --isp 99
[#morphs] cy: /attack
[#morphs] ann: /morph retire
[#morphs] ann: /morph create Ann3
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ann (ann): PM27: the difficulty must be 1-200, not 500.")
        .expect("Ann (ann): PM13: you have 6 ISPs for a Combat check (its type and General); --isp 99 is more.")
        .expect("Ann (ann): PM27: you have no failed check to redo or keep.")
        .expect("A morph cannot fight themself. Usage: /challenge TARGET")
        .expect("Ann has challenged Bo here; wait for /accept or /decline.")
        .expect("Not your decision, Bo: waiting for Ann (ann)'s turn")
        .expect("Ann: PM13: you have 6 ISPs for a Combat check (Combat and General); --isp 99 is more.")
        .expect("Ann: /defend is not an answer now: the fight awaits your turn.")
        .expect("Ann: PM22: you maintain no as1.")
        .expect("Ann: PM22: no as1 of your opponent is maintained on you.")
        .expect("Ann: PM13: you have 2 ISPs for a Psi Energy check")
        .expect("Only Ann (ann) and Bo (bo) act in this fight;")
        .expect("Ann is fighting in #morphs; retire it once the fight is over.")
        .expect("Cannot create Ann3:");
    let types: Vec<&str> = run
        .events
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "challenge",
            "accepted",
            "fight_started",
            "round_started",
            "turn"
        ],
        "refusals log nothing"
    );
}

// /help lists the game's commands and explains each; /forces lists the catalogue (PM19);
// /morph retire removes one's morph.
#[tokio::test]
async fn help_forces_and_retire() {
    let books = Books::new();
    let mut transcript = String::from("@clock 2026-12-01T10:00:00Z\n[#morphs] ann: /help\n");
    let topics = [
        "morph create",
        "morph retire",
        "forces",
        "fight",
        "attack",
        "force",
        "pass",
        "drop",
        "breakfree",
        "defend",
        "resist",
        "redo",
        "keep",
        "check",
        "yield",
        "sheet",
        "record",
        "accept",
        "decline",
        "status",
    ];
    for t in topics {
        transcript.push_str(&format!("[#morphs] ann: /help {t}\n"));
    }
    transcript.push_str(
        "[#morphs] ann: /forces\n[#morphs] ann: /morph create Ann\n[#morphs] ann: /morph retire\n[#morphs] ann: /sheet\n[#morphs] ann: /morph create Ann\n",
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Psi Morphs in #morphs: /morph create NAME")
        .expect("/fight TARGET, /attack [TARGET] [--isp N], /force NAME [--isp N], /pass, /drop FORCE, /breakfree FORCE, /defend combat|physical [--isp N], /resist atom|energy|mental [--isp N], /redo, /keep, /check GROUP ATTRIBUTE DIFFICULTY [--isp N], /yield");
    for t in topics {
        let usage = format!("/{t}");
        assert!(
            run.lines()
                .iter()
                .any(|l| l.starts_with(&format!("[#morphs] {usage}")) && l.contains("Example: /")),
            "/help {t}: {}",
            run.out
        );
    }
    run.expect("Forces (PM19): eb1 Energy Blast I (PE, DC 14, 2 FP, enemy: 6 damage); eb2 Energy Blast II (PE, DC 20, 4 FP, enemy: 12 damage); hs1 Healing Surge I (PA, DC 14, 3 FP, self: restores 6 hp); as1 Atom Strength I (PA, DC 12, 2 FP, self: strength +2, maintained); kc1 Kinetic Charge I (PE, DC 16, 3 FP, self: strength +3, maintained); ll1 Leaden Limbs I (PA, DC 16, 3 FP, enemy: agility -4, maintained).")
        .expect("Ann is retired; its fights stay in the books. /morph create NAME makes a new one.")
        .expect("ann, you have no morph in Psi Morphs yet.");
    assert_eq!(
        run.lines()
            .iter()
            .filter(|l| l.contains("Ann is ready for Psi Morphs."))
            .count(),
        2
    );
}

// The realm's house tables from [psimorphs] (PM12): a round limit of 1 makes two passers draw.
#[tokio::test]
async fn the_house_tables_come_from_the_configuration() {
    let books = Books::new();
    let config = format!("{CONFIG}\n[psimorphs]\nround_limit = 1\n");
    let transcript = format!(
        "{}\
[#morphs] ann: /fight bo
[#morphs] bo: /accept
[#morphs] ann: /pass
[#morphs] bo: /pass
[#morphs] ann: /record
",
        morphs()
    );
    let run = run_with(&books.path(), &config, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("After round 1 the fight is a draw (PM12).")
        .expect("Ann in Psi Morphs: 0 wins, 0 losses, 1 draw.");
    let bad: Result<herald_bot::config::Config, _> = toml::from_str("[psimorphs]\nchain_cap = 0\n");
    let bad = bad.unwrap();
    assert!(herald_bot::games::check(&bad).is_err());
}

// `herald export`: a morph's sheet and state with the page's fields.
#[tokio::test]
async fn export_shows_the_morphs_sheet_and_state() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, EXAMPLE).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let ann = character(&books, "Ann").await;
    assert_eq!(ann["game"], "psimorphs");
    assert_eq!(ann["owner"], "ann");
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&ann["sheet"]),
        [
            "attributes",
            "isp",
            "level",
            "master",
            "max_hp",
            "pa_fp",
            "pe_fp",
            "quickness",
            "ranks",
            "reflexes"
        ]
    );
    assert_eq!(
        keys(&ann["state"]),
        ["day", "dead", "hp", "isp", "pa_fp", "pe_fp"]
    );
    assert_eq!(ann["sheet"]["attributes"]["strength"], 5);
    assert_eq!(ann["sheet"]["master"]["combat"], 1);
    let doc = herald_bot::export::export(&books.store().await)
        .await
        .unwrap();
    assert_eq!(doc["fights"][0]["game"], "psimorphs");
    assert_eq!(doc["fights"][0]["winner"], "Ann");
}

/// `herald simulate` on two morphs of the books: the real binary.
#[tokio::test]
async fn herald_simulate_gives_psimorphs_odds() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, morphs()).await;
    assert_eq!(run.result, Ok(()));
    let simulate = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
            .env_remove("HERALD_LOG")
            .args([
                "simulate", "Ann", "Bo", "--fights", "10000", "--seed", "7", "--db",
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
    let text = simulate(&["--game", "psimorphs"]);
    assert!(
        text.contains("10,000 fights of Psi Morphs, Ann v Bo, default policy, seed 7"),
        "{text}"
    );
    assert!(
        text.contains("repeat: herald simulate Ann Bo --game psimorphs"),
        "{text}"
    );
    let figures = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("fights/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(figures(&simulate(&["--game", "psimorphs"])), figures(&text));
}

// `/fight` is Psi Morphs' challenge and every channel's history: a fight's number asks for the
// fight, a name challenges.
#[tokio::test]
async fn fight_with_a_number_is_the_history_of_that_fight() {
    let books = Books::new();
    let transcript = format!("{EXAMPLE}[#morphs] ann: /fight 1\n[#morphs] bo: /fight #1\n");
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let summaries = run
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("[#morphs] Fight #1 (Psi Morphs"))
        .count();
    assert_eq!(summaries, 2, "{}", run.out);
    run.expect_not("challenges 1");
}

// PM27: a check whose redo offer is still open when its morph is about to fight is kept first,
// the channel told and the keep logged, before the fight's first event.
#[tokio::test]
async fn a_check_still_open_is_kept_before_a_fight() {
    let books = Books::new();
    let transcript = format!(
        "{}\
@dice 1 1
[#morphs] ann: /check combat strength 20
[#morphs] ann: /fight bo
[#morphs] bo: /accept
",
        morphs()
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ann (ann), 9 vs 20 goes against you: /redo (3 ISPs), /keep (120s, then /keep).")
        .expect("Time is up for Ann: /keep is taken.")
        .expect("Ann keeps 9.")
        .expect("Fight #1: Ann vs Bo");
    let types: Vec<&str> = run
        .events
        .iter()
        .filter_map(|e| e["type"].as_str())
        .collect();
    let kept = types
        .iter()
        .position(|t| *t == "kept")
        .expect("a kept event");
    let started = types
        .iter()
        .position(|t| *t == "fight_started")
        .expect("the fight's start");
    assert!(kept < started, "{types:?}");
    let ann = character(&books, "Ann").await;
    assert!(ann["state"]["check"].is_null(), "{ann}");
}
