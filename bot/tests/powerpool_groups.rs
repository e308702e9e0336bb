//! Psionic combat in groups, up to three a side (PC33), through the real pipeline (grammar, hub,
//! sessions, referee, engine, a real SQLite file): the group challenge and its answers, whole
//! fights of two against one and three against three with the books checked after, the join,
//! drawn-ally and puppet prompts timing out to their defaults, a restart mid-fight, `verify`,
//! and bad input answered in one line with nothing written.

mod common;
use common::*;
use herald_bot::verify::verify;
use serde_json::{json, Value};

const CONFIG: &str = r##"
[games.channels]
"#minds" = "powerpool"
"#other" = "powerpool"
[permissions]
moderators = ["mod"]
"##;

/// Three players' creatures against two: Cai knows Imagination Swarm (PC28) and Personality
/// Invasion (PC25), Dun is not psionic (PC4), and so may be drawn.
const FIVE: &str = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra
[#minds] cai: /creature create Cai --kind psionicist --hd 4 --attack invasion --defense swarm
[#minds] dee: /creature create Dun --kind none --hd 4 --die d6
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1
[#minds] eve: /creature create Eve --kind psionicist --hd 4 --attack stab --defense mantra
";

/// Ash, Cai and Dun against Brim and Eve, each prompt of a group fight left to time out once.
const TIMEOUTS: &str = "\
[#minds] ann: /psicombat bo,eve --with cai,dee
[#minds] cai: /accept
[#minds] dee: /accept
[#minds] bo: /accept
# initiative in listing order (Ash, Cai, Dun, Brim, Eve): Brim, Ash, Eve, Cai, Dun
@dice 15 10 3 20 12
[#minds] eve: /accept
[#minds] bo: /attack Ash overload
# Ash's defense and Cai's choice to join both time out: /defend mantra and /stay (PC37)
@dice 1 1 1 1 5 5 5 5 5 5 5 5
@wait 121
[#minds] ann: /pass
[#minds] eve: /attack Cai stab
[#minds] cai: /defend swarm draw Dun
# Dun, drawn in, times out: all its dice (PC37)
@dice 1 1 1 1 4 4 4 4 3 3
@wait 121
@dice 8 8 8 8
[#minds] cai: /attack Brim invasion
# Round 2: Brim's turn is its possessor's; Cai times out: /puppet pass (PC25, PC37)
@wait 121
@dice 12 12 12 12 12 12 12 12
[#minds] ann: /attack Eve stab
";

fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

/// Each character of the export by name: its state and record.
async fn books_of(books: &Books) -> Vec<(String, Value, Value)> {
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    doc["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["state"].clone(),
                c["record"].clone(),
            )
        })
        .collect()
}

fn record(w: u64, l: u64, d: u64) -> Value {
    json!({"wins": w, "losses": l, "draws": d})
}

// PC33: two against one, to the end. Every named player accepts; each player decides for
// their own creature only (a word for another's is refused in one line, and a moderator's
// /as speaks for NPCs alone); the closing transaction writes every member's state and record.
#[tokio::test]
async fn two_against_one_is_fought_to_the_end_and_the_books_hold_every_member() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload,subversion --defense mantra,pinnacle,labyrinth
[#minds] cai: /creature create Cai --kind psionicist --hd 4 --attack stab,wave --defense swarm
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1
[#minds] ann: /psicombat bo --with cai
[#minds] ann: /status
[#minds] bo: /accept
[#minds] bo: /accept
@dice 10 15 5
[#minds] cai: /accept
[#minds] ann: /attack Brim stab
[#minds] bo: /defend blank
[#minds] mod: /as Cai /pass
[#minds] zed: /pass
[#minds] cai: /attack Brim stab
# PC18: Cai fails its save against Blank Mind: the spell stays memorised (PC15)
@dice 2
[#minds] bo: /defend blank spells 3
[#minds] cai: /pass
[#minds] ann: /attack Brim overload
@dice 15 8 8 8 8 8 8 8 8 6 5 4 3
[#minds] bo: /defend blank
[#minds] cai: /record
[#minds] cai: /fights
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ash and Cai challenge Brim to a psionic combat! cai, bo: /accept or /decline (300s).")
        .expect("Ash and Cai have challenged Brim; waiting for cai, bo to /accept or /decline (300s).")
        .expect("Brim accepts; waiting for cai: /accept or /decline.")
        .expect("Brim has accepted already; waiting for cai.")
        .expect("Fight #1: Ash and Cai vs Brim, a psionic combat of Power Pools. Dice seed hash ")
        .expect("Psionic combat: Ash and Cai against Brim.")
        .expect("Initiative: Ash 10, Cai 15, Brim 5 (PC7).")
        .expect("Turn order: Cai, Ash, Brim (PC7).")
        // Prompts name the member awaited and its player.
        .expect("Cai (cai), your turn: /attack Brim stab, /attack Brim wave, /pass, /yield (120s, then /attack Brim stab).")
        .expect("Not your decision now, Ash: waiting for Cai (only /yield may be said at any time).")
        .expect("Not your decision now, Brim: waiting for Cai (only /yield may be said at any time).")
        .expect("'Cai' is not a non-player character of this fight; /as speaks for an NPC that is fighting here.")
        .expect("Only Ash (ann), Cai (cai) and Brim (bo) act in this fight; waiting for Cai (cai) your turn:")
        .expect("Cai saves against Blank Mind (PC18): 2 vs 15, failure.")
        .expect("Cai loses a die until rest (PC18): pool 3, 1 lost.")
        .expect("Not your decision now, Cai: waiting for Ash")
        .expect("Ash rolls 8d8: 8+8+8+8+8+8+8+8 = 64.")
        .expect("Brim falls under Ash's control (Synaptic Overload, PC21).")
        .expect("Brim takes 18 damage from Synaptic Overload: 10 HP (PC30).")
        .expect("Ash and Cai win by control in round 1: Brim has no free creature left (PC31).")
        .expect("Fight #1 is over. Dice seed: ")
        .expect("Cai in Power Pools: 1 win, 0 losses, 0 draws.")
        // A member's history lists the group fight, not its leads' alone.
        .expect("Fights of Cai: 1 fight.");
    let sides = of_type(&run.events, "fight_started");
    assert_eq!(sides[0]["sides"], json!([["Ash", "Cai"], ["Brim"]]));
    assert_eq!(
        of_type(&run.events, "fight_ended")[0]["winners"],
        json!(["Ash", "Cai"])
    );

    // What persists (PC30, PC18, "Between fights"), for every member, and each its side's
    // result.
    let chars = books_of(&books).await;
    let hp_dice = |(name, state, rec): &(String, Value, Value)| {
        (
            name.clone(),
            state["hp"].clone(),
            state["dice_lost"].clone(),
            state["spells_spent"].clone(),
            rec.clone(),
        )
    };
    let got: Vec<_> = chars.iter().map(hp_dice).collect();
    assert_eq!(
        got,
        [
            (
                "Ash".into(),
                json!(36),
                json!(0),
                json!([]),
                record(1, 0, 0)
            ),
            (
                "Cai".into(),
                json!(18),
                json!(1),
                json!([]),
                record(1, 0, 0)
            ),
            (
                "Brim".into(),
                json!(10),
                json!(0),
                json!([]),
                record(0, 1, 0)
            ),
        ]
    );
    // The fight's members are in the books; verify reads them back.
    let store = books.store().await;
    let bout = store.bout(1).await.unwrap();
    let members: Vec<(i64, i64, String)> = bout
        .members
        .iter()
        .map(|m| (m.side, m.seat, m.user.clone()))
        .collect();
    assert_eq!(
        members,
        [
            (0, 0, "ann".into()),
            (0, 1, "cai".into()),
            (1, 2, "bo".into())
        ]
    );
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("Ash and Cai won (control)"),
        "{}",
        report.message
    );
}

// PC33, PC26, PC27, PC28: three against three with an NPC among the foes (it accepts at once
// and defends by the policy): Brim's Overload is beaten by Cai and Dun, drawn in; Ash's Wave
// then takes all three foes at once. Every member's record and state is written.
#[tokio::test]
async fn three_against_three_is_fought_to_the_end_and_verifies() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,wave --defense mantra
[#minds] cai: /creature create Cai --kind psionicist --hd 4 --attack stab --defense swarm
[#minds] dee: /creature create Dun --kind none --hd 4 --die d6
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1
[#minds] eve: /creature create Eve --kind psionicist --hd 4 --attack stab --defense mantra
[#minds] mod: /npc create Golem --kind none --hd 2 --hp 5
[#minds] ann: /psicombat bo,eve,Golem --with cai,dee
[#minds] cai: /accept
[#minds] bo: /accept
[#minds] eve: /accept
@dice 15 10 3 20 12 1
[#minds] dee: /accept
[#minds] bo: /attack Cai overload
[#minds] cai: /defend swarm draw Dun
@dice 2 2 2 2 5 5 5 5 3 3
[#minds] dee: /defend none 2
[#minds] ann: /attack Brim,Eve,Golem wave
@dice 8 8 8 8 8 8 8 8 1 1 1 1 1
[#minds] eve: /defend none
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ash, Cai and Dun challenge Brim, Eve and Golem to a psionic combat! Golem accepts at once. cai, dee, bo, eve: /accept or /decline (300s).")
        .expect("Eve accepts; waiting for dee: /accept or /decline.")
        .expect("Fight #1: Ash, Cai and Dun vs Brim, Eve and Golem, a psionic combat of Power Pools.")
        .expect("Turn order: Brim, Ash, Eve, Cai, Dun, Golem (PC7).")
        .expect("Dun (dee), drawn in, defend: /defend none, /yield (120s, then /defend none).")
        .expect("Cai and Dun win the exchange, 26 to 8 (PC17).")
        .expect("Dun is dazed and loses its next turn (Imagination Swarm, PC28, PC13).")
        .expect("Ash attacks Brim, Eve and Golem with Psionic Wave, 8d8.")
        .expect("Brim cannot defend: defenceless, total 0 (PC12).")
        .expect("Golem takes /defend none.")
        .expect("Ash wins the exchange, 64 to 5 (PC16).")
        .expect("Golem falls under Ash's control (Psionic Wave, PC21).")
        .expect("Ash, Cai and Dun win by control in round 1: Brim, Eve and Golem have no free creature left (PC31).");
    // PC27: one group of control for the Wave's members.
    let groups: Vec<&Value> = of_type(&run.events, "controlled")
        .iter()
        .map(|e| &e["group"])
        .collect();
    assert_eq!(groups, [&json!(1), &json!(1), &json!(1)]);
    let drawn: Vec<&Value> = of_type(&run.events, "defense")
        .into_iter()
        .filter(|e| e["role"] == "drawn")
        .collect();
    assert_eq!(drawn.len(), 1);
    assert_eq!(drawn[0]["creature"], "Dun");
    assert_eq!(drawn[0]["dice"], 2);
    assert!(run.events.iter().all(|e| e["game"] == "powerpool"));

    let chars = books_of(&books).await;
    let records: Vec<(&str, &Value)> = chars.iter().map(|(n, _, r)| (n.as_str(), r)).collect();
    let (win, loss) = (record(1, 0, 0), record(0, 1, 0));
    assert_eq!(
        records,
        [
            ("Ash", &win),
            ("Cai", &win),
            ("Dun", &win),
            ("Brim", &loss),
            ("Eve", &loss),
            ("Golem", &loss),
        ]
    );
    // PC17: Brim's lost die stays until rest; the daze and the controls end with the fight.
    assert_eq!(chars[3].1["dice_lost"], 1);
    assert_eq!(chars[2].1["dice_lost"], 0);

    let store = books.store().await;
    // The export lists the fight's every creature by side; its leads stay its `knights`.
    let doc = herald_bot::export::export(&store).await.unwrap();
    assert_eq!(
        doc["fights"][0]["sides"],
        json!([["Ash", "Cai", "Dun"], ["Brim", "Eve", "Golem"]])
    );
    assert_eq!(doc["fights"][0]["knights"], json!(["Ash", "Brim"]));
    assert_eq!(doc["fights"][0]["winner"], "Ash");
    assert_eq!(
        doc["tables"]["fight_members"].as_array().map(Vec::len),
        Some(6)
    );
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("Ash, Cai and Dun won (control)"),
        "{}",
        report.message
    );
    // The herald binary's verify says the same of the same books.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .env_remove("HERALD_LOG")
        .args(["verify", "1", "--db"])
        .arg(books.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Fight #1 of Power Pools verifies"), "{text}");
}

// PC37 on each prompt only a group fight has: an ally's join (default /stay), a drawn ally's
// dice (default all) and a possessor's order for its puppet (default /puppet pass), each left
// to time out in chat; the two awaited at once both take their defaults at the deadline.
#[tokio::test]
async fn the_join_drawn_and_puppet_prompts_time_out_to_their_defaults() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, &format!("{FIVE}{TIMEOUTS}")).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ash (ann), defend (8 dice in your pool): /defend mantra, /defend none, /yield (120s, then /defend mantra).")
        .expect("Cai (cai), an ally is attacked, join or stay: /join, /stay, /yield (120s, then /stay).")
        .expect("Ash (ann) did not answer in time: /defend mantra is taken for them.")
        .expect("Cai (cai) did not answer in time: /stay is taken for them.")
        .expect("Ash wins the exchange, 40 to 4 (PC17).")
        .expect("Dun (dee), drawn in, defend: /defend none, /yield (120s, then /defend none).")
        .expect("Dun (dee) did not answer in time: /defend none is taken for them.")
        .expect("Dun is drawn into the defense (PC28), 2d6.")
        .expect("Cai and Dun win the exchange, 22 to 4 (PC17).")
        .expect("Brim is possessed by Cai (PC25).")
        .expect("Brim's turn: its possessor Cai works the body (PC25).")
        .expect("Cai (cai), Brim's turn, your puppet: /puppet pass, /puppet yield, /yield (120s, then /puppet pass).")
        .expect("Cai (cai) did not answer in time: /puppet pass is taken for them.")
        .expect("Cai lets Brim pass (PC25).")
        .expect("Ash, Cai and Dun win by control in round 2: Brim and Eve have no free creature left (PC31).");
    // The events of each default: no joiner in the first defense; the drawn ally's every die;
    // the puppet's pass.
    let defenses = of_type(&run.events, "defense");
    assert!(
        defenses.iter().all(|e| e["role"] != "joined"),
        "{defenses:?}"
    );
    let drawn: Vec<&&Value> = defenses.iter().filter(|e| e["role"] == "drawn").collect();
    assert_eq!(drawn.len(), 1);
    assert_eq!(drawn[0]["dice"], 2);
    assert_eq!(drawn[0]["mode"], Value::Null);
    let orders = of_type(&run.events, "puppet_order");
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0]["order"], "pass");
    assert_eq!(orders[0]["controller"], "Cai");
    assert_eq!(orders[0]["puppet"], "Brim");
}

// PC22 in a group fight, through chat: a control is due on its controller's later turn; a word
// for a control not held is refused in one line; /dedicate holds it with a die (free, the turn
// goes on); the stored decision replays. PC32: a yield during the defense ends the fight when
// no foe is left free, and PC36 gives the dedicated die back.
#[tokio::test]
async fn a_control_is_dedicated_across_turns_and_the_fight_ends_by_a_yield() {
    let books = Books::new();
    let cut = TIMEOUTS.find("@dice 12 12 12 12 12 12 12 12").unwrap();
    let transcript = format!(
        "{FIVE}{}\
[#minds] ann: /pass
[#minds] cai: /maintain Eve
[#minds] cai: /dedicate Brim
[#minds] cai: /attack Eve invasion
[#minds] eve: /yield
",
        &TIMEOUTS[..cut]
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Cai (cai), your turn: /attack Eve invasion, /maintain Brim, /dedicate Brim, /release Brim, /pass, /yield (120s, then /dedicate Brim).")
        .expect("Cai: PC22: you hold no control over Eve. Now: /attack Eve invasion, /maintain Brim, /dedicate Brim, /release Brim, /pass, /yield.")
        .expect("Cai dedicates 1 die to holding Brim (PC22): pool 3.")
        .expect("Cai (cai), your turn: /attack Eve invasion, /release Brim, /pass, /yield (120s, then /attack Eve invasion).")
        .expect("Eve yields (PC32).")
        .expect("Cai's control of Brim ends: the fight is over (PC36). 1 dedicated back: pool 4.")
        .expect("Ash, Cai and Dun win by a yield in round 2: Brim and Eve have no free creature left after a yield (PC31).");
    let store = books.store().await;
    let bout = store.bout(1).await.unwrap();
    assert!(
        bout.steps.iter().any(|s| s
            .decision
            .as_deref()
            .is_some_and(|d| d.contains("\"dedicate\""))),
        "the dedication is in the fight log"
    );
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    // PC36: the dedicated die came back; nothing of the hold outlasts the fight.
    let chars = books_of(&books).await;
    assert_eq!(chars[1].0, "Cai");
    assert_eq!(chars[1].1["dice_lost"], 0);
}

/// Ash and Cai against Brim, accepted (initiative Cai, Ash, Brim).
const ASH_AND_CAI_V_BRIM: &str = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack overload --defense mantra
[#minds] cai: /creature create Cai --kind psionicist --hd 4 --attack stab --defense swarm
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank
[#minds] ann: /psicombat bo --with cai
[#minds] bo: /accept
@dice 10 15 5
[#minds] cai: /accept
";

// PC32: a member who yields loses, though its side wins; the others take their side's result.
#[tokio::test]
async fn a_member_who_yields_loses_though_its_side_wins() {
    let books = Books::new();
    let transcript = format!(
        "{ASH_AND_CAI_V_BRIM}\
[#minds] cai: /yield
[#minds] ann: /attack Brim overload
@dice 15 8 8 8 8 8 8 8 8 1 1 1 1
[#minds] bo: /defend blank
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Cai yields (PC32).")
        .expect("Ash wins by control in round 1: Cai and Brim have no free creature left (PC31).");
    let chars = books_of(&books).await;
    let records: Vec<(&str, &Value)> = chars.iter().map(|(n, _, r)| (n.as_str(), r)).collect();
    let (win, loss) = (record(1, 0, 0), record(0, 1, 0));
    assert_eq!(records, [("Ash", &win), ("Cai", &loss), ("Brim", &loss)]);
}

// A restart mid group fight resumes it exactly: the members are read back from the books, and
// the two runs' events are the uninterrupted fight's, event for event; it then verifies.
#[tokio::test]
async fn a_restart_mid_group_fight_resumes_it_exactly() {
    let whole = Books::new();
    let full = run_with(&whole.path(), CONFIG, &format!("{FIVE}{TIMEOUTS}")).await;
    assert_eq!(full.result, Ok(()), "{}", full.out);

    let books = Books::new();
    let cut = TIMEOUTS.find("[#minds] eve: /attack Cai stab").unwrap();
    let (first, rest) = TIMEOUTS.split_at(cut);
    let one = run_with(&books.path(), CONFIG, &format!("{FIVE}{first}")).await;
    assert_eq!(one.result, Ok(()), "{}", one.out);
    one.expect("Ash passes.").expect(
        "Eve (eve), your turn: /attack Ash stab, /attack Cai stab, /attack Dun stab, /pass, /yield",
    );
    let two = run_with(
        &books.path(),
        CONFIG,
        &format!("@clock 2026-12-01T10:03:00Z\n{rest}"),
    )
    .await;
    assert_eq!(two.result, Ok(()), "{}", two.out);
    two.expect("Herald is back. Fight #1 resumes where it stood.")
        .expect("Fight #1: Ash, Cai and Dun vs Brim and Eve, a psionic combat of Power Pools. Round 1; Ash: 36/36 HP, pool 8 of 8d8; Cai: 18/18 HP, pool 4 of 4d8; Dun: 14/14 HP, pool 2 of 2d6; Brim: 28/28 HP, pool 3 of 4d6, 1 lost, stunned, dazed; Eve: 18/18 HP, pool 4 of 4d8.")
        .expect("Eve (eve), your turn: /attack Ash stab, /attack Cai stab, /attack Dun stab, /pass, /yield")
        .expect("Cai and Dun win the exchange, 22 to 4 (PC17).")
        .expect("Ash, Cai and Dun win by control in round 2: Brim and Eve have no free creature left (PC31).");
    let mut events = one.events.clone();
    events.extend(two.events.iter().cloned());
    assert_eq!(events, full.events);
    assert_eq!(books_of(&books).await, books_of(&whole).await);
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// Step 1: one /decline by any named player calls the challenge off for all, with the page's
// challenge_declined naming its creature; the challenger's /decline withdraws it; a lapse is
// every unanswered player's decline (PC37). Nothing is fought, nothing written.
#[tokio::test]
async fn one_decline_or_a_lapse_calls_a_group_challenge_off_for_all() {
    let books = Books::new();
    let transcript = format!(
        "{FIVE}\
[#minds] ann: /psicombat bo,eve --with cai
[#minds] cai: /accept
[#minds] zed: /decline
[#minds] eve: /decline
[#minds] cai: /accept
[#minds] ann: /psicombat bo --with cai
[#minds] ann: /decline
[#minds] ann: /psicombat bo,eve --with cai
[#minds] bo: /accept
@wait 301
[#minds] ann: /status
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Cai accepts; waiting for bo, eve: /accept or /decline.")
        .expect("Only a player named in this challenge can decline it, or ann withdraw it.")
        .expect("Eve declines: the challenge of Ash and Cai to Brim and Eve is called off.")
        .expect("There is no challenge to accept here.")
        .expect("Ash withdraws the challenge.")
        .expect("The challenge of Ash and Cai to Brim and Eve lapses: cai and eve did not answer, so it is declined (PC37).")
        .expect("No fight in #minds (Power Pools).");
    let declined: Vec<&Value> = of_type(&run.events, "challenge_declined")
        .iter()
        .map(|e| &e["creature"])
        .collect();
    assert_eq!(
        declined,
        [&json!("Eve"), &json!("Ash"), &json!("Cai"), &json!("Eve")]
    );
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    assert_eq!(doc["fights"].as_array().map_or(0, Vec::len), 0);
}

// Bad input for a group challenge, each a one-line answer that says what was wrong and the
// usage, with nothing written: no challenge stands, no fight is in the books.
#[tokio::test]
async fn bad_group_challenges_are_one_line_and_write_nothing() {
    let books = Books::new();
    let transcript = format!(
        "{FIVE}\
[#other] fen: /creature create Fen --kind psionicist --hd 2 --attack stab
[#other] gus: /creature create Gus --kind psionicist --hd 2 --attack stab
[#minds] mod: /npc create Golem --kind none --hd 2
[#other] fen: /psicombat gus
@dice 20 1
[#other] gus: /accept
[#minds] ann: /psicombat bo --with cai,dee,eve
[#minds] ann: /psicombat bo,eve,gus,fen
[#minds] ann: /psicombat bo --with fen
[#minds] ann: /psicombat bo,Brim
[#minds] ann: /psicombat bo --with bo
[#minds] ann: /psicombat bo,ann
[#minds] ann: /psicombat bo,Nobody
[#minds] ann: /psicombat bo --with Golem
[#minds] ann: /psicombat bo --with ,
[#minds] dee: /psicombat bo --with cai
[#minds] ann: /status
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let usage = "Usage: /psicombat FOE[,FOE] [--with ALLY[,ALLY]]";
    // PC33: a fourth on a side.
    run.expect(&format!("At most 3 a side (PC33): you and 2 allies against 3 foes; you named 3 allies and 1 foes. {usage}"))
        .expect(&format!("At most 3 a side (PC33): you and 2 allies against 3 foes; you named 0 allies and 4 foes. {usage}"))
        // An ally who is fighting elsewhere.
        .expect("Fen is already fighting in #other; one fight at a time.")
        // A foe twice, an ally who is also a foe, yourself as a foe.
        .expect(&format!("Brim is named twice; each creature fights once, on one side. {usage}"))
        .expect(&format!("Ash is yours: a creature cannot fight beside or against themself. {usage}"))
        // An unknown name.
        .expect(&format!("No creature or player named 'Nobody' plays Power Pools here. {usage}"))
        // Only a moderator names an NPC as an ally.
        .expect(&format!("Golem is a non-player character: only a moderator names one as an ally. {usage}"))
        .expect("--with names your allies, e.g. --with Cai,Dun.")
        // PC33: only a psionically active creature challenges.
        .expect("PC33: only a psionically active creature begins psionic combat, and Dun is not psionic")
        .expect("No fight in #minds (Power Pools). Challenge someone");
    let answers = run
        .lines()
        .iter()
        .filter(|l| l.starts_with("[#minds]") && !l.contains("ready for") && !l.contains("HD ("))
        .count();
    // One line for each of the ten refused challenges, and /status.
    assert_eq!(answers, 11, "{}", run.out);
    assert!(of_type(&run.events, "challenge_declined").is_empty());
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    // Only #other's duel is in the books, with no members of a group.
    assert_eq!(doc["fights"].as_array().map_or(0, Vec::len), 1);
    assert!(doc["fights"][0].get("sides").is_none());
    assert_eq!(doc["tables"]["fight_members"], json!([]));
}

/// `herald simulate A,C B,D --game powerpool`: the real binary fights the groups of the books
/// by the default policy (PC37), and names them as the command line does to repeat the run.
#[tokio::test]
async fn herald_simulate_fights_groups() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, FIVE).await;
    assert_eq!(run.result, Ok(()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .env_remove("HERALD_LOG")
        .args([
            "simulate",
            "Ash,Cai,Dun",
            "Brim,Eve",
            "--game",
            "powerpool",
            "--fights",
            "2000",
            "--seed",
            "7",
            "--db",
        ])
        .arg(books.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(
            "2,000 fights of Power Pools, Ash, Cai and Dun v Brim and Eve, default policy, seed 7"
        ),
        "{text}"
    );
    assert!(text.contains("Ash, Cai and Dun win "), "{text}");
    assert!(
        text.contains(
            "repeat: herald simulate 'Ash,Cai,Dun' 'Brim,Eve' --game powerpool --fights 2000"
        ),
        "{text}"
    );
}

// A moderator by Discord's roles (the platform's rights, not the configuration's names) names
// an NPC as an ally as a configured one does; a player without those rights still may not.
#[tokio::test]
async fn a_moderator_by_role_names_an_npc_ally() {
    use herald_bot::app::{App, Rights};
    use herald_bot::clock::Clock;
    use herald_bot::hub::{Hub, Incoming};
    use std::sync::Arc;
    let books = Books::new();
    let setup =
        format!("{FIVE}[#minds] mod: /npc create Golem --kind psionicist --hd 2 --attack stab\n");
    let run = run_with(&books.path(), CONFIG, &setup).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let config = toml::from_str(CONFIG).unwrap();
    let app = Arc::new(App::new(books.store().await, config, Some(7)).unwrap());
    let at = "2026-12-01T10:05:00Z".parse().unwrap();
    let hub = Hub::manual(app, Arc::new(Clock::manual(at)), vec!['/']);
    let say = |user: &str, moderator: bool| {
        let incoming = Incoming {
            realm: "local".into(),
            channel: "#minds".into(),
            user: user.into(),
            text: "/psicombat bo --with Golem".into(),
        };
        let hub = &hub;
        async move {
            hub.answer(&incoming, Rights { moderator })
                .await
                .lines
                .join(" ")
        }
    };
    let refused = say("eve", false).await;
    assert!(
        refused.contains("Golem is a non-player character: only a moderator names one as an ally."),
        "{refused}"
    );
    let challenged = say("eve", true).await;
    assert!(
        challenged.contains("Eve and Golem") && !challenged.contains("only a moderator"),
        "{challenged}"
    );
}

// `/fight N` of a group fight names every creature of each side with its player, and the
// winning side whole, not the two leads alone.
#[tokio::test]
async fn a_group_fights_summary_names_every_member() {
    let books = Books::new();
    let transcript = format!("{ASH_AND_CAI_V_BRIM}[#minds] bo: /yield\n[#minds] cai: /fight 1\n");
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Fight #1 (Power Pools bout, #minds): Ash (ann) and Cai (cai) vs Brim (bo), 2026-12-01 10:00 to 2026-12-01 10:00.")
        .expect("Result: Ash and Cai won (yield).");
}

// `/odds` of sides of several, as `herald simulate` takes them: the sides named with commas, at
// most three a side (PC33), each creature once.
#[tokio::test]
async fn odds_in_chat_take_sides_of_several() {
    let books = Books::new();
    let transcript = format!(
        "{FIVE}\
[#minds] ann: /odds Ash,Cai Brim,Eve
[#minds] eve: /odds Ash,Cai
[#minds] ann: /odds Ash,Cai,Dun,Eve Brim
[#minds] ann: /odds Ash,Cai Cai
[#minds] ann: /odds Ash,Nobody Brim
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let usage = "Usage: /odds NAME[,NAME] [NAME[,NAME]]";
    run.expect("Ash and Cai v Brim and Eve, 20,000 fights of Power Pools: Ash and Cai win ")
        .expect(", Brim and Eve win ")
        // The other side is the speaker's own.
        .expect("Ash and Cai v Eve, 20,000 fights of Power Pools: Ash and Cai win ")
        .expect(", Eve wins ")
        .expect(&format!("At most 3 a side; 4 were named. {usage}"))
        .expect(&format!("Name each creature once. {usage}"))
        .expect(&format!(
            "No creature or player named 'Nobody' plays Power Pools here. {usage}"
        ));
}
