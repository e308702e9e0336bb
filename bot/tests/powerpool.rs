//! Psionic combat with power pools played through the real pipeline (grammar, hub, sessions,
//! referee, engine, a real SQLite file): the page's worked example event for event, a whole
//! fight, each prompt's timeout, an NPC with `/as`, a restart mid-fight, `verify`, `simulate`,
//! what persists between fights and `/rest`, bad input for each command, and the export.

mod common;
use common::*;
use herald_bot::verify::verify;
use serde_json::{json, Value};

const CONFIG: &str = r##"
[games.channels]
"#minds" = "powerpool"
[permissions]
moderators = ["mod"]
"##;

/// The page's worked example, from the sheets to the end of the fight.
const EXAMPLE: &str = include_str!("transcripts/powerpool_example.txt");

const CREATURES: &str = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload,subversion --defense mantra,pinnacle,labyrinth
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1
";

/// The events of the worked example, every field, as the page lists them.
fn example_events() -> Vec<Value> {
    vec![
        json!({"type": "fight_started", "sides": [["Ash"], ["Brim"]]}),
        json!({"type": "initiative", "creature": "Ash", "roll": 9, "try": 1}),
        json!({"type": "initiative", "creature": "Brim", "roll": 14, "try": 1}),
        json!({"type": "turn_order", "order": ["Brim", "Ash"]}),
        json!({"type": "round_started", "round": 1}),
        json!({"type": "turn", "by": null, "creature": "Brim", "round": 1, "skipped": null}),
        json!({"type": "attack", "attacker": "Brim", "defenders": ["Ash"], "dice": 4, "die": 6, "frighten": false, "mode": "overload", "named": ["Ash"]}),
        json!({"type": "condition", "condition": "dazed", "creature": "Brim", "of": null, "until": "end_of_round", "why": "attacked"}),
        json!({"type": "defense", "able": true, "bonus": 0, "creature": "Ash", "dice": 2, "die": 8, "mode": "mantra", "role": "target", "spells": []}),
        json!({"type": "pool_roll", "bonus": 0, "creature": "Brim", "die": 6, "faces": [5, 3, 6, 2], "result": "won", "side": "attack", "side_total": 16, "sum": 16, "total": 16, "versus": 8}),
        json!({"type": "pool_roll", "bonus": 0, "creature": "Ash", "die": 8, "faces": [7, 1], "result": "lost", "side": "defense", "side_total": 8, "sum": 8, "total": 8, "versus": 16}),
        json!({"type": "exchange", "attack_total": 16, "attacker": "Brim", "defenders": ["Ash"], "defense_total": 8, "result": "attacker"}),
        json!({"type": "condition", "condition": "stunned", "creature": "Ash", "of": null, "until": "end_of_next_turn", "why": "barrier_mantra"}),
        json!({"type": "damage", "amount": 8, "creature": "Ash", "hp": 28, "why": "synaptic_overload"}),
        json!({"type": "turn", "by": null, "creature": "Ash", "round": 1, "skipped": "stunned"}),
        json!({"type": "round_started", "round": 2}),
        json!({"type": "turn", "by": null, "creature": "Brim", "round": 2, "skipped": null}),
        json!({"type": "pass", "auto": false, "creature": "Brim"}),
        json!({"type": "turn", "by": null, "creature": "Ash", "round": 2, "skipped": null}),
        json!({"type": "attack", "attacker": "Ash", "defenders": ["Brim"], "dice": 8, "die": 12, "frighten": false, "mode": "stab", "named": ["Brim"]}),
        json!({"type": "condition", "condition": "dazed", "creature": "Ash", "of": null, "until": "end_of_round", "why": "attacked"}),
        json!({"type": "defense", "able": true, "bonus": 5, "creature": "Brim", "dice": 4, "die": 6, "mode": "blank", "role": "target", "spells": [3, 2]}),
        json!({"type": "save", "creature": "Ash", "roll": 15, "success": true, "target": 13, "why": "blank_mind"}),
        json!({"type": "pool_roll", "bonus": 0, "creature": "Ash", "die": 12, "faces": [3, 11, 7, 2, 9, 5, 12, 4], "result": "won", "side": "attack", "side_total": 53, "sum": 53, "total": 53, "versus": 21}),
        json!({"type": "pool_roll", "bonus": 5, "creature": "Brim", "die": 6, "faces": [6, 5, 2, 3], "result": "lost", "side": "defense", "side_total": 21, "sum": 16, "total": 21, "versus": 53}),
        json!({"type": "exchange", "attack_total": 53, "attacker": "Ash", "defenders": ["Brim"], "defense_total": 21, "result": "attacker"}),
        json!({"type": "controlled", "controller": "Ash", "creature": "Brim", "group": 1, "mode": "stab"}),
        json!({"type": "control_ended", "controller": "Ash", "creatures": ["Brim"], "expended": 0, "pool": 8, "returned": 0, "why": "fight_ended"}),
        json!({"type": "fight_ended", "losers": ["Brim"], "reason": "control", "result": "win", "rounds": 2, "winners": ["Ash"]}),
    ]
}

fn without_game(events: &[Value]) -> Vec<Value> {
    events
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e.as_object_mut().unwrap().remove("game");
            e
        })
        .collect()
}

// The page's worked example: the sheets (PC2, PC3, PC35), initiative (PC7), Overload against
// Barrier Mantra (PC11, PC16, PC30, PC13), Stab against Blank Mind with spells (PC24, PC15,
// PC18, PC21), the end (PC31, PC36), the dice in the page's order (PC38).
#[tokio::test]
async fn the_worked_example_is_refereed_event_for_event() {
    let books = Books::new();
    let transcript = format!(
        "{EXAMPLE}\
[#minds] ann: /sheet
[#minds] bo: /record
[#minds] ann: /rest
[#minds] ann: /rest
[#minds] bo: /creature Brim
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ash (ann): psionicist, 8 HD (d8); pool 8 of 8d8 (0 lost); 36/36 HP; save 13;")
        .expect("Brim (bo): wild talent, 8 HD (d6); pool 4 of 4d6 (0 lost); 28/28 HP; save 13;")
        .expect("Ash challenges Brim to a psionic combat! bo: /accept or /decline (300s).")
        .expect("Fight #1: Ash vs Brim, a psionic combat of Power Pools. Dice seed hash ")
        .expect("Initiative: Ash 9, Brim 14 (PC7).")
        .expect("Turn order: Brim, Ash (PC7).")
        .expect("Brim (bo), your turn: /attack Ash overload, /pass, /yield (120s, then /attack Ash overload).")
        .expect("Brim attacks Ash with Synaptic Overload, 4d6.")
        .expect("Brim is dazed to the end of the round (PC10).")
        .expect("Ash (ann), defend (8 dice in your pool): /defend mantra, /defend labyrinth, /defend pinnacle, /defend none, /yield (120s, then /defend mantra).")
        .expect("Ash defends with Barrier Mantra, 2d8.")
        .expect("Brim rolls 4d6: 5+3+6+2 = 16.")
        .expect("Ash rolls 2d8: 7+1 = 8.")
        .expect("Brim wins the exchange, 16 to 8 (PC16).")
        .expect("Ash is stunned instead of controlled (Barrier Mantra, PC16) and loses its next turn (PC13).")
        .expect("Ash takes 8 damage from Synaptic Overload: 28 HP (PC30).")
        .expect("Ash is stunned and loses the turn (PC13).")
        .expect("— Round 2 —")
        .expect("Brim passes.")
        .expect("Ash (ann), your turn: /attack Brim stab, /attack Brim subversion, /attack Brim overload, /pass, /yield (120s, then /attack Brim stab).")
        .expect("Ash attacks Brim with Mental Stab, 8d12.")
        .expect("Brim defends with Blank Mind, 4d6, sacrificing spells 3,2 for +5 (PC15).")
        .expect("Ash saves against Blank Mind (PC18): 15 vs 13, success.")
        .expect("Ash rolls 8d12: 3+11+7+2+9+5+12+4 = 53.")
        .expect("Brim rolls 4d6: 6+5+2+3 = 16 + 5 (spells) = 21.")
        .expect("Ash wins the exchange, 53 to 21 (PC16).")
        .expect("Brim falls under Ash's control (Mental Stab, PC21).")
        .expect("Ash's control of Brim ends: the fight is over (PC36).")
        .expect("Ash wins by control in round 2")
        .expect("Fight #1 is over. Dice seed: ")
        // Final state: Ash 28/36, pool 8/8, 1-0-0; Brim 28/28, spells 3 and 2 spent.
        .expect("Ash (ann): psionicist, 8 HD (d8); pool 8 of 8d8 (0 lost); 28/36 HP; save 13;")
        .expect("record 1-0-0.")
        .expect("Brim in Power Pools: 0 wins, 1 loss, 0 draws.")
        // PC39: a rest brings Ash to 36 HP; a second that realm day is refused.
        .expect("Ash rests: 36 HP, pool 8d8, every spell memorised again (PC39).")
        .expect("Ash: PC39: a creature rests once per realm day, and this one has rested today; again tomorrow.")
        .expect("Brim (bo): wild talent, 8 HD (d6); pool 4 of 4d6 (0 lost); 28/28 HP; save 13; attacks Synaptic Overload; defenses Blank Mind; spells 3,2,1 (1 left); record 0-1-0.");
    assert_eq!(run.events.len(), example_events().len());
    assert!(run.events.iter().all(|e| e["game"] == "powerpool"));
    assert_eq!(without_game(&run.events), example_events());

    // The books: the state written in the fight's closing transaction (and Ash's rest since).
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    let characters = doc["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 2);
    let (ash, brim) = (&characters[0], &characters[1]);
    assert_eq!(ash["game"], "powerpool");
    assert_eq!(ash["name"], "Ash");
    assert_eq!(ash["owner"], "ann");
    assert_eq!(
        ash["sheet"],
        json!({"name": "Ash", "kind": "psionicist", "hd": 8, "die": 8,
               "attacks": ["stab", "subversion", "overload"],
               "defenses": ["mantra", "labyrinth", "pinnacle"],
               "spells": [], "hp_max": 36, "save": 13})
    );
    assert_eq!(
        ash["state"],
        json!({"hp": 36, "dice_lost": 0, "spells_spent": [], "rested_on": "2026-12-01"})
    );
    assert_eq!(ash["record"]["wins"], 1);
    assert_eq!(
        brim["state"],
        json!({"hp": 28, "dice_lost": 0, "spells_spent": [3, 2], "rested_on": null})
    );
    assert_eq!(brim["record"]["losses"], 1);
    assert_eq!(doc["fights"][0]["game"], "powerpool");

    // herald verify replays it from its seed and decisions.
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(
        report.message.contains("Fight #1 of Power Pools verifies"),
        "{}",
        report.message
    );
    assert!(
        report.message.contains("Ash won (control)"),
        "{}",
        report.message
    );
    assert!(
        report.message.contains("21 rolls were scripted"),
        "{}",
        report.message
    );
}

// PC37 on every prompt of a duel: the challenge lapses (its default is /decline); a turn's
// timeout attacks, a defense's timeout defends with the policy's first mode.
#[tokio::test]
async fn each_prompts_timeout_takes_the_default() {
    let books = Books::new();
    let transcript = format!(
        "{CREATURES}\
[#minds] ann: /psicombat bo
@wait 301
[#minds] ann: /psicombat bo
@dice 9 14
[#minds] bo: /accept
@wait 121
@dice 1 1 1 1 8 8 8 8 8 8 8 8
@wait 121
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    // The lapse is a decline, logged as the page's `challenge_declined`.
    let declined: Vec<&Value> = run
        .events
        .iter()
        .filter(|e| e["type"] == "challenge_declined")
        .collect();
    assert_eq!(declined.len(), 1, "{:?}", run.events);
    assert_eq!(declined[0]["creature"], "Brim");
    assert_eq!(declined[0]["game"], "powerpool");
    run.expect("The challenge of Ash to Brim lapses unanswered.")
        .expect("Brim (bo) did not answer in time: /attack Ash overload is taken for them.")
        .expect("Brim attacks Ash with Synaptic Overload, 4d6.")
        .expect("Ash (ann) did not answer in time: /defend mantra is taken for them.")
        .expect("Ash defends with Barrier Mantra, 8d8.")
        .expect("Ash wins the exchange, 64 to 4 (PC17).")
        .expect("Brim is stunned and loses its next turn (PC17, PC13).")
        .expect("Brim loses a die until rest (PC17): pool 3, 1 lost.");
    // A lost attack's die stays lost after the fight (what persists), until /rest.
    let dice_lost: Vec<u64> = run
        .events
        .iter()
        .filter(|e| e["type"] == "die_lost")
        .map(|e| e["lost"].as_u64().unwrap())
        .collect();
    assert_eq!(dice_lost, [1]);
}

// A whole fight by timeouts alone, on the seeded dice, ends within the round limit (PC31) and
// verifies; what persists is written at its end and read back by the next fight (PC30, PC39).
#[tokio::test]
async fn a_whole_fight_by_timeouts_ends_and_verifies() {
    let books = Books::new();
    let transcript = format!(
        "{CREATURES}\
[#minds] ann: /psicombat bo
[#minds] bo: /accept
@wait 100000
[#minds] ann: /record
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Fight #1 is over. Dice seed: ");
    let end = run.events.last().unwrap();
    assert_eq!(end["type"], "fight_ended");
    assert!(end["rounds"].as_u64().unwrap() <= 10);
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
    assert!(!report.message.contains("scripted"), "{}", report.message);
    // The closing transaction wrote each creature's HP as the events leave it.
    let doc = herald_bot::export::export(&store).await.unwrap();
    for c in doc["characters"].as_array().unwrap() {
        let hp = run
            .events
            .iter()
            .rev()
            .find(|e| e["type"] == "damage" && e["creature"] == c["name"])
            .map_or_else(
                || c["sheet"]["hp_max"].as_i64().unwrap(),
                |e| e["hp"].as_i64().unwrap(),
            );
        assert_eq!(c["state"]["hp"].as_i64().unwrap(), hp, "{c}");
    }
}

// PC30, PC31, PC39: Overload's damage stays after the fight; at 0 HP or below a creature is
// unconscious, its side loses, and it cannot fight until it rests, once per realm day.
#[tokio::test]
async fn damage_persists_until_rest_and_unconscious_cannot_fight() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 2 --attack overload
[#minds] bo: /creature create Brim --kind psionicist --hd 1 --attack stab --defense mantra
[#minds] ann: /psicombat bo
@dice 20 1
[#minds] bo: /accept
[#minds] ann: /attack Brim overload
# 8+8 against Brim's 8: Barrier Mantra stuns him instead of control, and his own 8 hurts him.
@dice 8 8 8
[#minds] bo: /defend mantra
[#minds] ann: /sheet Brim
[#minds] ann: /psicombat bo
[#minds] bo: /rest
[#minds] bo: /rest
[#minds] ann: /psicombat bo
[#minds] bo: /decline
@clock 2026-12-02T10:00:00Z
[#minds] bo: /rest
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Brim is stunned instead of controlled (Barrier Mantra, PC16)")
        .expect("Brim takes 8 damage from Synaptic Overload: -4 HP (PC30).")
        .expect("Brim falls unconscious: out of the fight, no one dies (PC30).")
        .expect("Ash wins by knocking out in round 1: Brim is unconscious (PC31).")
        .expect("Brim (bo): psionicist, 1 HD (d8); pool 1 of 1d8 (0 lost); -4/4 HP: unconscious until rest;")
        .expect("Brim is unconscious at -4 HP and cannot fight until it rests (/rest, PC30, PC39).")
        .expect("Brim rests: 4 HP, pool 1d8")
        .expect("Brim: PC39: a creature rests once per realm day")
        .expect("Ash challenges Brim to a psionic combat!")
        .expect("Brim declines the challenge of Ash.")
        .expect("Brim rests: 4 HP");
}

// An NPC (no budget, --hp, --save) accepts at once and fights by the default policy; a
// moderator's /as gives its next decision, and rests it.
#[tokio::test]
async fn an_npc_fights_by_the_policy_and_a_moderator_orders_it() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra
[#minds] ann: /npc create Mind-Flayer --kind psionicist --hd 12 --die d10 --attack stab,invasion,wave,subversion,overload --hp 60 --save 9
[#minds] mod: /npc create Mind-Flayer --kind psionicist --hd 12 --die d10 --attack stab,invasion,wave,subversion,overload --defense blank,mantra,labyrinth,swarm,pinnacle --hp 60 --save 9
[#minds] mod: /npc create Husk --kind psionicist --hd 21 --attack stab
# The flayer wins initiative and stabs at once: 12d20 against Ash's defense.
@dice 2 18
[#minds] ann: /psicombat Mind-Flayer
[#minds] mod: /as Mind-Flayer /yield
@dice 1 1 1 1 1 1 1 1 1 1 1 1 8 8 8 8 8 8 8 8
[#minds] ann: /defend mantra
[#minds] mod: /as Mind-Flayer /rest
# Stunned, the flayer may defend only with Cognitive Labyrinth (PC12): it yields, as ordered.
[#minds] ann: /attack Mind-Flayer overload
[#minds] mod: /as Mind-Flayer /rest
[#minds] ann: /sheet Mind-Flayer
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Only a moderator may use /npc")
        .expect("Mind-Flayer is ready for Power Pools (a non-player character: Herald decides for it).")
        .expect("Cannot create Husk: an NPC has 1 to 20 hit dice (21 given).")
        .expect("Ash challenges Mind-Flayer to a psionic combat! Mind-Flayer accepts at once.")
        .expect("Mind-Flayer takes /attack Ash stab.")
        .expect("Mind-Flayer attacks Ash with Mental Stab, 12d20.")
        .expect("Ash wins the exchange, 64 to 12 (PC17).")
        .expect("Mind-Flayer loses a die until rest (PC17): pool 11, 1 lost.")
        .expect("Mind-Flayer will take /yield at its next decision, if it is a choice then.")
        .expect("Mind-Flayer is fighting in #minds; /rest waits until the fight is over.")
        .expect("Mind-Flayer takes /yield, as a moderator ordered.")
        .expect("Mind-Flayer yields (PC32).")
        .expect("Ash wins by a yield")
        .expect("Mind-Flayer rests: 60 HP, pool 12d10")
        .expect("Mind-Flayer (NPC): psionicist, 12 HD (d10); pool 12 of 12d10 (0 lost); 60/60 HP; save 9;");
}

// A restart mid-fight resumes it exactly: the second run finishes the example, and it verifies.
#[tokio::test]
async fn a_restart_mid_fight_resumes_it_exactly() {
    let books = Books::new();
    let (first, rest) = EXAMPLE.split_at(EXAMPLE.find("[#minds] bo: /pass").unwrap());
    let run = run_with(&books.path(), CONFIG, first).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Ash is stunned and loses the turn (PC13).");
    let second = format!("@clock 2026-12-01T10:01:00Z\n{rest}[#minds] ann: /record\n");
    let run = run_with(&books.path(), CONFIG, &second).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Herald is back. Fight #1 resumes where it stood.")
        .expect("Round 2; Ash: 28/36 HP, pool 8 of 8d8; Brim: 28/28 HP, pool 4 of 4d6.")
        .expect("Ash rolls 8d12: 3+11+7+2+9+5+12+4 = 53.")
        .expect("Ash wins by control in round 2")
        .expect("Ash in Power Pools: 1 win, 0 losses, 0 draws.");
    let store = books.store().await;
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// Bad input for each command: one line that says what was wrong and how to say it, and
// nothing written: the fight goes on as if it had not been said, and verifies.
#[tokio::test]
async fn bad_input_for_each_command_is_one_line_and_changes_nothing() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#minds] ann: /creature create Ash --kind psionicist
[#minds] ann: /creature create Ash --kind mage --hd 8 --attack stab
[#minds] ann: /creature create Ash --kind psionicist --hd 9 --attack stab
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --die d6 --attack stab
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,punch
[#minds] ann: /creature create Ash --kind psionicist --hd 4 --attack stab,overload,wave
[#minds] ann: /creature create Ash --kind wild --hd 4 --attack stab --spells 3
[#minds] ann: /creature create Ash --kind psionicist --hd 4 --attack stab --hp 40
[#minds] ann: /creature create 9Ash --kind psionicist --hd 4 --attack stab
[#minds] ann: /creature Nobody
[#minds] ann: /creature retire
[#minds] ann: /rest
[#minds] ann: /attack Brim stab
[#minds] ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload,subversion --defense mantra,pinnacle,labyrinth
[#minds] bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1
[#minds] cy: /creature create Cob --kind none --hd 2
[#minds] cy: /psicombat ann
[#minds] ann: /psicombat
[#minds] ann: /psicombat bo,bo
[#minds] ann: /psicombat bo --with ann
[#minds] ann: /psicombat Nobody
[#minds] ann: /psicombat Ash
[#minds] ann: /psicombat bo
@dice 9 14
[#minds] bo: /accept
[#minds] ann: /pass
[#minds] bo: /attack Nobody overload
[#minds] bo: /attack Ash punch
[#minds] bo: /attack Ash stab
[#minds] bo: /attack Ash overload 9
[#minds] bo: /attack Ash overload 0
[#minds] bo: /attack Ash overload 2 loudly
[#minds] bo: /attack Brim overload
[#minds] bo: /attack
[#minds] bo: /maintain Ash
[#minds] bo: /dedicate Ash
[#minds] bo: /release Nobody
[#minds] bo: /join
[#minds] bo: /stay
[#minds] bo: /puppet dance
[#minds] bo: /defend blank
[#minds] cy: /pass
[#minds] bo: /rest
[#minds] bo: /attack Ash overload
[#minds] ann: /defend blank
[#minds] ann: /defend mantra 9
[#minds] ann: /defend mantra spells 3
[#minds] ann: /defend mantra spells x
[#minds] ann: /defend mantra draw Brim
[#minds] ann: /defend shout
[#minds] ann: /status
[#minds] ann: /defend mantra 2
";
    let run = run_with(&books.path(), CONFIG, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("/creature create: --hd is missing (hit dice: 1-8 for a player's creature, e.g. --hd 8). Usage: /creature create NAME --kind psionicist|wild|none --hd N")
        .expect("/creature create: 'mage' is not psionicist, wild or none. Usage: /creature create")
        .expect("Cannot create Ash: PC34: a player's creature has 1 to 8 hit dice (9 given).")
        .expect("Cannot create Ash: PC34: a psionicist's hit die is d8.")
        .expect("Cannot create Ash: 'punch' is not an attack mode: stab, invasion, wave, subversion, overload.")
        .expect("Cannot create Ash: PC34: a psionicist of 4 HD knows 1 to 2 attack modes.")
        .expect("Cannot create Ash: PC34: at 4 HD each spell level is at most 2.")
        .expect("Cannot create Ash: PC35: --hp and --save are for NPCs; a player's creature has the derived ones.")
        .expect("Cannot create 9Ash: a name is 1-24 letters, digits, -, _ or ', starting with a letter")
        .expect("No creature or player named 'Nobody' plays Power Pools here.")
        .expect("ann, you have no creature in Power Pools yet. Create one: /creature create NAME")
        .expect("You have no creature to rest. Create one: /creature create NAME")
        .expect("There is no fight in #minds to make a move in.")
        .expect("PC33: only a psionically active creature begins psionic combat, and Cob is not psionic; it may be named as a foe.")
        .expect("/psicombat: FOE is missing (a player's nick or a creature's name, e.g. bo). Usage: /psicombat FOE[,FOE] [--with ALLY[,ALLY]]")
        .expect("Brim is named twice; each creature fights once, on one side. Usage: /psicombat FOE[,FOE] [--with ALLY[,ALLY]]")
        .expect("Ash is yours: a creature cannot fight beside or against themself. Usage: /psicombat")
        .expect("No creature or player named 'Nobody' plays Power Pools here.")
        .expect("A creature cannot fight themself.")
        .expect("Not your decision now, Ash: waiting for Brim (only /yield may be said at any time).")
        .expect("No creature named 'Nobody' in this fight (Ash, Brim). Usage: /attack TARGET[,TARGET] MODE [DICE] [nofear]")
        .expect("'punch' is not an attack mode: stab, invasion, wave, subversion or overload. Usage: /attack")
        .expect("Brim: it does not know Mental Stab. Now: /attack Ash overload, /pass, /yield.")
        .expect("Brim: PC11: dice are 1 to the pool (4); 9 is not. Now: /attack Ash overload, /pass, /yield.")
        .expect("'0' is not a number of dice: 1 to your pool. Usage: /attack")
        .expect("'loudly' is not understood here. Usage: /attack")
        .expect("Brim: PC23: targets are opponents; Brim is on your side.")
        .expect("/attack: TARGET is missing (the creature attacked, e.g. Brim). Usage: /attack")
        .expect("Brim: PC22: you hold no control over Ash. Now: /attack Ash overload, /pass, /yield.")
        .expect("Brim: PC22: you hold no control over Ash.")
        .expect("No creature named 'Nobody' in this fight (Ash, Brim). Usage: /release NAME")
        .expect("Brim: on your turn: /attack, /maintain, /dedicate, /release or /pass.")
        .expect("Brim: on your turn: /attack, /maintain, /dedicate, /release or /pass.")
        .expect("/puppet: 'dance' is not pass or yield. Usage: /puppet pass|yield")
        .expect("Brim: on your turn: /attack, /maintain, /dedicate, /release or /pass.")
        .expect("Only Ash (ann) and Brim (bo) act in this fight;")
        .expect("Brim is fighting in #minds; /rest waits until the fight is over.")
        .expect("Brim attacks Ash with Synaptic Overload, 4d6.")
        .expect("Ash: it does not know Blank Mind. Now: /defend mantra, /defend labyrinth, /defend pinnacle, /defend none, /yield.")
        .expect("Ash: PC11: dice are 1 to the pool (8); 9 is not.")
        .expect("Ash: PC15: only memorised spells not yet spent can be sacrificed (none left).")
        .expect("'x' is not a spell level (1 to 9). Usage: /defend MODE|none [DICE] [spells L,L] [draw NAME,NAME]")
        .expect("Ash: PC28: only Imagination Swarm draws allies.")
        .expect("'shout' is not a defense mode: mantra, blank, labyrinth, swarm, pinnacle or none. Usage: /defend")
        .expect("Round 1; Ash: 36/36 HP, pool 8 of 8d8; Brim: 28/28 HP, pool 4 of 4d6, dazed.")
        .expect("Ash defends with Barrier Mantra, 2d8.");
    // Nothing of the refused lines was written: three creatures, and the fight's steps are
    // the challenge's start, Brim's attack and Ash's defense, as it replays.
    let store = books.store().await;
    let doc = herald_bot::export::export(&store).await.unwrap();
    assert_eq!(doc["characters"].as_array().unwrap().len(), 3);
    let bout = store.bout(1).await.unwrap();
    assert_eq!(bout.steps.len(), 3);
}

// /help lists the game's commands, and /help COMMAND explains each.
#[tokio::test]
async fn help_covers_every_command() {
    let books = Books::new();
    let words = [
        "creature create",
        "creature retire",
        "creature",
        "psicombat",
        "attack",
        "maintain",
        "dedicate",
        "release",
        "pass",
        "defend",
        "join",
        "stay",
        "puppet",
        "yield",
        "rest",
    ];
    let mut transcript = String::from("@clock 2026-12-01T10:00:00Z\n[#minds] ann: /help\n");
    for w in words {
        transcript.push_str(&format!("[#minds] ann: /help {w}\n"));
    }
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Power Pools in #minds: /creature create NAME --kind");
    for w in words {
        run.expect(&format!("[#minds] /{w}"));
    }
    run.expect_not("No command");
}

// /creature retire: a player's creature leaves, its name is free, and another can be made.
#[tokio::test]
async fn a_creature_retires_and_another_is_made() {
    let books = Books::new();
    let transcript = format!(
        "{CREATURES}\
[#minds] ann: /creature create Other --kind psionicist --hd 1 --attack stab
[#minds] ann: /creature retire
[#minds] ann: /creature create Other --kind psionicist --hd 1 --attack stab
"
    );
    let run = run_with(&books.path(), CONFIG, &transcript).await;
    run.expect("Cannot create Other: you already have Ash in this game")
        .expect("Ash is retired; its fights stay in the books.")
        .expect("Other is ready for Power Pools.");
}

/// `herald simulate A B --game powerpool`: the real binary, on two creatures of the books.
#[tokio::test]
async fn herald_simulate_gives_powerpool_odds() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, CREATURES).await;
    assert_eq!(run.result, Ok(()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .env_remove("HERALD_LOG")
        .args([
            "simulate",
            "Ash",
            "Brim",
            "--game",
            "powerpool",
            "--fights",
            "10000",
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
        text.contains("10,000 fights of Power Pools, Ash v Brim, default policy, seed 7"),
        "{text}"
    );
    assert!(text.contains("Ash wins"), "{text}");
}
