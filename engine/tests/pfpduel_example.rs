//! The worked example of `rulesets/pfpduel.md`, event for event.

mod pfpduel_common;

use herald_engine::pfpduel::{Decision, DoubleEffect};
use pfpduel_common::*;
use serde_json::json;

#[test]
fn the_worked_example_event_for_event() {
    let mut t = T::start(ann_bo(), &[5, 6, 3, 3, 2, 5]);
    t.go(B, Decision::Duel);
    t.dice(&[6, 2, 2])
        .go(A, Decision::Dice(0))
        .go(A, keep(6, 2));
    t.dice(&[5, 5, 3, 1]).go(B, Decision::Dice(1));
    t.go(B, keep_e(5, DoubleEffect::Maneuver));
    t.dice(&[1]).go(B, Decision::Reroll(6));
    t.go(A, keep_e(2, DoubleEffect::Weaken));
    t.go(B, Decision::pain(2));
    t.go(B, Decision::pain(2));
    t.go(A, Decision::Eject);
    t.dice(&[6, 4, 1, 5, 3, 2, 1, 6]).go(A, Decision::Dice(2));
    t.go(B, Decision::Contact);
    t.dice(&[5, 2, 1]).go(A, Decision::Dice(1));
    t.dice(&[6, 4, 3]).go(B, Decision::Dice(0));
    t.go(B, Decision::pain(2));
    assert_eq!(t.dice.remaining(), 0);
    let side = |name: &str, role: &str, kept: &[u8], score: u8, result: u8, effects: &[&str]| json!({"name": name, "role": role, "kept": kept, "score": score, "result": result, "effects": effects});
    let want = vec![
        json!({"type": "fight_started", "challenger": "Ann", "challenged": "Bo", "sheets": [
            {"name": "Ann", "psionist": true, "power": 2, "aptitude": 0, "health": 6},
            {"name": "Bo", "psionist": true, "power": 2, "aptitude": 0, "health": 6}]}),
        json!({"type": "pfp_rolled", "name": "Ann", "die": 5, "pfp": 5}),
        json!({"type": "pfp_rolled", "name": "Bo", "die": 6, "pfp": 6}),
        json!({"type": "initiative", "round": 1, "dice": {"Ann": 3, "Bo": 3}, "high": null}),
        json!({"type": "initiative", "round": 1, "dice": {"Ann": 2, "Bo": 5}, "high": "Bo"}),
        json!({"type": "activation", "round": 1, "name": "Bo", "ap": 3}),
        json!({"type": "action", "name": "Bo", "action": "duel", "ap": 2, "psionic_actions": 1}),
        json!({"type": "dice_added", "name": "Ann", "test": "duel", "dice": 0, "ap": 3}),
        json!({"type": "pool", "name": "Ann", "test": "duel", "role": "defender", "base": 3, "added": 0, "penalties": [], "size": 3, "faces": [6, 2, 2]}),
        json!({"type": "keep", "name": "Ann", "kept": [6, 2], "double": false, "effect": null, "rekeep": false}),
        json!({"type": "dice_added", "name": "Bo", "test": "duel", "dice": 1, "ap": 1}),
        json!({"type": "pool", "name": "Bo", "test": "duel", "role": "attacker", "base": 3, "added": 1, "penalties": [], "size": 4, "faces": [5, 5, 3, 1]}),
        json!({"type": "keep", "name": "Bo", "kept": [5, 5], "double": true, "effect": "maneuver", "rekeep": false}),
        json!({"type": "reroll", "name": "Ann", "by": "Bo", "old": 6, "new": 1, "faces": [1, 2, 2]}),
        json!({"type": "keep", "name": "Ann", "kept": [2, 2], "double": true, "effect": "weaken", "rekeep": true}),
        json!({"type": "weakened", "name": "Bo", "by": "Ann", "until_round": 2, "power_score": 1}),
        json!({"type": "test", "kind": "duel", "round": 1, "attacker": "Bo", "defender": "Ann", "first": "Ann",
            "sides": [side("Bo", "attacker", &[5, 5], 1, 11, &["maneuver"]), side("Ann", "defender", &[2, 2], 2, 6, &["weaken"])],
            "winner": "Bo", "by": "result", "difference": 5}),
        json!({"type": "pfp_lost", "name": "Ann", "why": "duel", "difference": 5, "flaw": 0, "unleash": [], "shield": 0, "lost": 5, "pfp": 0}),
        json!({"type": "open_mind", "name": "Ann"}),
        json!({"type": "contact", "psionist": "Bo", "victim": "Ann", "via": "duel"}),
        json!({"type": "pfp_spent", "name": "Bo", "amount": 1, "why": "effect", "pfp": 5}),
        json!({"type": "effect", "psionist": "Bo", "victim": "Ann", "effect": "pain", "strength": 2, "cost": 1, "free": true}),
        json!({"type": "damage", "name": "Ann", "amount": 2, "why": "pain", "health": 4}),
        json!({"type": "action", "name": "Bo", "action": "effect", "ap": 0, "psionic_actions": 2}),
        json!({"type": "pfp_spent", "name": "Bo", "amount": 2, "why": "effect", "pfp": 3}),
        json!({"type": "effect", "psionist": "Bo", "victim": "Ann", "effect": "pain", "strength": 2, "cost": 2, "free": false}),
        json!({"type": "damage", "name": "Ann", "amount": 2, "why": "pain", "health": 2}),
        json!({"type": "activation_ended", "round": 1, "name": "Bo", "ap": 0}),
        json!({"type": "activation", "round": 1, "name": "Ann", "ap": 3}),
        json!({"type": "action", "name": "Ann", "action": "eject", "ap": 2, "psionic_actions": 0}),
        json!({"type": "dice_added", "name": "Ann", "test": "eject", "dice": 2, "ap": 0}),
        json!({"type": "pool", "name": "Ann", "test": "eject", "role": "open_mind", "base": 3, "added": 2,
            "penalties": [{"why": "open_mind", "dice": 1}, {"why": "invaded", "dice": 1}], "size": 3, "faces": [6, 4, 1]}),
        json!({"type": "dice_added", "name": "Bo", "test": "eject", "dice": 0, "ap": 0}),
        json!({"type": "pool", "name": "Bo", "test": "eject", "role": "psionist", "base": 3, "added": 0, "penalties": [], "size": 3, "faces": [5, 3, 2]}),
        json!({"type": "test", "kind": "eject", "round": 1, "attacker": "Ann", "defender": "Bo", "first": "Ann",
            "sides": [side("Ann", "open_mind", &[6, 4], 2, 12, &[]), side("Bo", "psionist", &[5, 3], 1, 9, &[])],
            "winner": "Ann", "by": "result", "difference": 3}),
        json!({"type": "contact_ended", "psionist": "Bo", "victim": "Ann", "why": "ejected"}),
        json!({"type": "activation_ended", "round": 1, "name": "Ann", "ap": 0}),
        json!({"type": "round_ended", "round": 1}),
        json!({"type": "initiative", "round": 2, "dice": {"Ann": 1, "Bo": 6}, "high": "Bo"}),
        json!({"type": "activation", "round": 2, "name": "Bo", "ap": 3}),
        json!({"type": "action", "name": "Bo", "action": "contact", "ap": 2, "psionic_actions": 1}),
        json!({"type": "dice_added", "name": "Ann", "test": "contact", "dice": 1, "ap": 2}),
        json!({"type": "pool", "name": "Ann", "test": "contact", "role": "open_mind", "base": 3, "added": 1,
            "penalties": [{"why": "open_mind", "dice": 1}], "size": 3, "faces": [5, 2, 1]}),
        json!({"type": "dice_added", "name": "Bo", "test": "contact", "dice": 0, "ap": 2}),
        json!({"type": "pool", "name": "Bo", "test": "contact", "role": "psionist", "base": 3, "added": 0, "penalties": [], "size": 3, "faces": [6, 4, 3]}),
        json!({"type": "test", "kind": "contact", "round": 2, "attacker": "Bo", "defender": "Ann", "first": "Ann",
            "sides": [side("Bo", "psionist", &[6, 4], 1, 11, &[]), side("Ann", "open_mind", &[5, 2], 2, 9, &[])],
            "winner": "Bo", "by": "result", "difference": 2}),
        json!({"type": "contact", "psionist": "Bo", "victim": "Ann", "via": "contact"}),
        json!({"type": "pfp_spent", "name": "Bo", "amount": 2, "why": "effect", "pfp": 1}),
        json!({"type": "effect", "psionist": "Bo", "victim": "Ann", "effect": "pain", "strength": 2, "cost": 2, "free": false}),
        json!({"type": "damage", "name": "Ann", "amount": 2, "why": "pain", "health": 0}),
        json!({"type": "fight_ended", "winner": "Bo", "loser": "Ann", "reason": "knockout", "health": [0, 6], "pfp": [0, 1]}),
    ];
    check(&t.events, &want);
    assert!(t.duel.is_over());
    assert_eq!(t.duel.health_lost(A), 6);
    assert_eq!(t.duel.health_lost(B), 0);
}
