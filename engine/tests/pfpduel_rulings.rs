//! One test per ruling of `rulesets/pfpduel.md` (PF1–PF37), with scripted dice, and the
//! readings the engine takes where the page is open (a counted puppet, an attacker's 6-6, the
//! bound on effects, two open minds). Ann is the challenger (A), Bo or an open mind the
//! challenged (B); unless said, Ann throws 5 for focus, Bo 6, and Bo is high (2 v 5).

mod pfpduel_common;

use herald_engine::pfpduel::event::Effects;
use herald_engine::pfpduel::{
    Backlash, Decision, DoubleEffect, EndReason, House, NewPsionist, PfpState, RuleError,
    SheetError,
};
use pfpduel_common::*;
use serde_json::json;

use Decision::{Contact, Dice, Duel, Eject, End, Maintain, Move, Recover, Reroll, Yield};

/// Ann (5 PFP) and Bo (6 PFP), power 2 and health 6; Bo high; Bo's activation.
fn ann_bo_started() -> T {
    T::start(ann_bo(), &[5, 6, 2, 5])
}

/// Ann, psionist of power 2 and 4 PFP, high, against Echo, an open mind of aptitude 2 and
/// health 6; Ann's activation.
fn ann_echo() -> T {
    T::start(
        setup(psionist("Ann", 2, 6), open_mind("Echo", 2, 6)),
        &[4, 5, 2],
    )
}

/// Ann in Echo's mind by a won contact: Echo's 2 1 (5) against Ann's 6 5 (13); her effect
/// prompt, 2 AP left.
fn ann_in_echo() -> T {
    let mut t = ann_echo();
    t.go(A, Contact);
    t.dice(&[2, 1]).go(B, Dice(0));
    t.dice(&[6, 5, 4]).go(A, Dice(0));
    assert!(t.duel.inside(A));
    t
}

/// Bo's duel with Ann's pool and keep, then Bo's pool: Bo keeps next.
fn duel(ann: &[u32], ann_keep: Decision, bo: &[u32]) -> T {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(ann).go(A, Dice(0)).go(A, ann_keep);
    t.dice(bo).go(B, Dice(0));
    t
}

// PF1: one number, power: added to every power test.
#[test]
fn pf1_power_is_the_score_of_every_power_test() {
    let mut t = T::start(
        setup(psionist("Ann", 2, 6), psionist("Bo", 4, 6)),
        &[5, 6, 2, 5],
    );
    t.go(B, Duel);
    t.dice(&[6, 3, 1]).go(A, Dice(0)).go(A, keep(6, 3));
    t.dice(&[4, 2, 1]).go(B, Dice(0)).go(B, keep(4, 2));
    let test = t.last("test");
    assert!(has(
        test,
        &json!({"sides": [{"name": "Bo", "score": 4, "result": 10}, {"name": "Ann", "score": 2, "result": 11}], "winner": "Ann", "difference": 1})
    ));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Bo", "lost": 1, "pfp": 5})
    ));
}

// PF2: a power test throws 3 dice + 1 per AP announced; the tester keeps any two.
#[test]
fn pf2_a_test_throws_three_dice_and_one_per_ap_and_keeps_two() {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[1, 2, 3, 4, 5]).go(A, Dice(2));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Ann", "base": 3, "added": 2, "size": 5, "faces": [1, 2, 3, 4, 5]})
    ));
    assert_eq!(t.duel.ap(A), 1, "the AP are spent at once");
    let options = t.duel.options();
    assert!(options.contains(&keep(5, 4)) && options.contains(&keep(2, 1)));
    assert_eq!(options.len(), 10 + 1, "every pair, and /yield");
}

// PF3: 3 AP a round, at most 2 psionic actions; AP left are lost at the round's end; PF27:
// /recover and /move give 2 PFP each at the round's end.
#[test]
fn pf3_three_ap_two_psionic_actions_and_pf27_recovery() {
    let mut t = ann_bo_started();
    t.go(B, Recover).go(B, Recover);
    assert_eq!(t.duel.psionic_actions(B), 2);
    assert_eq!(
        t.duel.options(),
        vec![Move, End, Yield],
        "no third psionic action"
    );
    t.go(B, Move);
    t.dice(&[3, 1]).go(A, End);
    assert!(has(
        t.last("pfp_recovered"),
        &json!({"name": "Bo", "actions": 3, "gained": 6, "pfp": 12})
    ));
    assert_eq!(t.of("pfp_recovered").len(), 1, "Ann did not recover");
    assert_eq!((t.duel.round(), t.duel.ap(A), t.duel.ap(B)), (2, 3, 3));
}

// PF4: equal initiative faces are thrown again; the higher is high (activates first). PF8:
// the low side announces, throws and keeps before the high side announces.
#[test]
fn pf4_initiative_rethrows_equal_faces_and_pf8_the_low_side_tests_first() {
    let mut t = T::start(ann_bo(), &[5, 6, 3, 3, 4, 4, 1, 2]);
    let highs: Vec<_> = t
        .of("initiative")
        .iter()
        .map(|e| e["high"].clone())
        .collect();
    assert_eq!(highs, [json!(null), json!(null), json!("Bo")]);
    assert_eq!(t.duel.awaited(), Some(B));
    t.go(B, Duel);
    t.dice(&[6, 3, 2]).go(A, Dice(0)).go(A, keep(6, 3));
    t.dice(&[6, 3, 1]).go(B, Dice(0)).go(B, keep(6, 3));
    let order: Vec<(String, String)> = t
        .events
        .iter()
        .filter(|e| ["dice_added", "pool", "keep"].contains(&e["type"].as_str().unwrap()))
        .map(|e| {
            (
                e["type"].as_str().unwrap().into(),
                e["name"].as_str().unwrap().into(),
            )
        })
        .collect();
    let names: Vec<&str> = order.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["Ann", "Ann", "Ann", "Bo", "Bo", "Bo"]);
    assert_eq!(t.last("test")["first"], "Ann");
}

// PF5: each penalty is one die fewer, never below 1 die; PF21: on the ground, one die fewer,
// and /move stands up; PF22: an open mind throws one die fewer and adds its aptitude; PF23:
// an invaded mind throws one die fewer; PF20: a puppet's ground.
#[test]
fn pf5_penalties_never_leave_fewer_than_one_die() {
    let mut t = ann_in_echo();
    t.go(A, Decision::puppet(0, 1));
    assert!(has(
        t.last("grounded"),
        &json!({"name": "Echo", "why": "puppet"})
    ));
    t.go(A, End);
    assert_eq!(t.duel.options(), vec![Eject, Move, End, Yield]);
    t.go(B, Eject);
    t.dice(&[6]).go(B, Dice(0));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Echo", "test": "eject", "role": "open_mind", "added": 0,
            "penalties": [{"why": "ground", "dice": 1}, {"why": "open_mind", "dice": 1}, {"why": "invaded", "dice": 1}],
            "size": 1, "faces": [6]})
    ));
    t.dice(&[1, 1, 2]).go(A, Dice(0));
    assert!(has(
        t.last("test"),
        &json!({"kind": "eject", "attacker": "Echo",
            "sides": [{"name": "Echo", "kept": [6], "score": 2, "result": 8}, {"name": "Ann", "kept": [2, 1], "result": 5}],
            "winner": "Echo"})
    ));
    assert!(has(t.last("contact_ended"), &json!({"why": "ejected"})));
    t.dice(&[3, 1]).go(B, Move);
    assert_eq!(t.last("stood_up")["name"], "Echo");
    assert!(!t.duel.on_ground(B));
    assert_eq!(t.dice.remaining(), 0, "PF36: every die at its step");
}

// PF6: equal results go to the unkept dice, highest first; all equal is a tie; the loser of
// equal results loses 0.
#[test]
fn pf6_equal_results_compare_the_unkept_dice_then_tie() {
    let mut t = duel(&[6, 3, 2], keep(6, 3), &[6, 3, 1]);
    t.go(B, keep(6, 3));
    assert!(has(
        t.last("test"),
        &json!({"winner": "Ann", "by": "dice", "difference": 0})
    ));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Bo", "difference": 0, "lost": 0, "pfp": 6})
    ));
    let mut t = duel(&[6, 3, 1], keep(6, 3), &[6, 3, 1]);
    t.go(B, keep(6, 3));
    assert!(has(t.last("test"), &json!({"winner": null, "by": "tie"})));
    assert!(t.of("pfp_lost").is_empty(), "a tie costs nothing");
}

// PF7: a test "by rolling a double": 3 dice less penalties, no AP, no score; a double passes.
// PF16: Psychic Unleash in its order: the PFP die, the defender's double test and the ground,
// 1 damage, the attacker's backlash test. PF15: the zeroing duel's winner enters with a free
// effect, which cannot be declined.
#[test]
fn pf7_double_tests_and_pf16_psychic_unleash() {
    let mut t = duel(&[3, 2, 1], keep(3, 2), &[6, 6, 1]);
    t.dice(&[2]).go(B, keep_e(6, DoubleEffect::Unleash));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Ann", "difference": 7, "unleash": [2], "lost": 5, "pfp": 0})
    ));
    assert!(has(
        t.last("contact"),
        &json!({"psionist": "Bo", "via": "duel"})
    ));
    assert!(t.duel.effect_is_free());
    assert!(!t.duel.options().contains(&Decision::NoEffect), "PF15");
    t.dice(&[1, 2, 3, 3, 1]).go(B, Decision::pain(1));
    let tests = t.of("double_test");
    assert!(has(
        tests[0],
        &json!({"name": "Ann", "why": "unbalance", "size": 2, "penalties": [{"why": "invaded", "dice": 1}], "faces": [1, 2], "success": false})
    ));
    assert!(has(
        tests[1],
        &json!({"name": "Bo", "why": "backlash", "size": 3, "success": true})
    ));
    assert!(has(
        t.last("grounded"),
        &json!({"name": "Ann", "why": "unbalance"})
    ));
    let damage: Vec<_> = t
        .of("damage")
        .iter()
        .map(|e| (e["why"].clone(), e["health"].clone()))
        .collect();
    assert_eq!(
        damage,
        [(json!("pain"), json!(5)), (json!("unleash"), json!(4))]
    );
    assert_eq!(t.duel.awaited(), Some(B), "Bo's activation goes on");
    assert_eq!(t.dice.remaining(), 0);
}

// PF16: a failed backlash: 1d6 damage chosen; PF25: hurt, the invader loses his contacts.
#[test]
fn pf16_a_failed_backlash_and_pf25_hurt_breaks_contacts() {
    let mut t = duel(&[3, 2, 1], keep(3, 2), &[6, 6, 1]);
    t.dice(&[2]).go(B, keep_e(6, DoubleEffect::Unleash));
    t.dice(&[1, 2, 1, 2, 3]).go(B, Decision::pain(1));
    assert_eq!(t.duel.what(), "backlash");
    assert_eq!(
        t.duel.default_decision(),
        Some((B, Decision::Backlash(Backlash::Pfp))),
        "PF37"
    );
    t.dice(&[4]).go(B, Decision::Backlash(Backlash::Health));
    assert!(has(
        t.last("damage"),
        &json!({"name": "Bo", "amount": 4, "why": "backlash", "die": 4, "health": 2})
    ));
    assert!(has(
        t.last("contact_ended"),
        &json!({"psionist": "Bo", "victim": "Ann", "why": "damage"})
    ));
    assert!(!t.duel.inside(B));
}

// PF9: Loss of control before the other throws: one die fewer.
#[test]
fn pf9_loss_of_control_before_the_throw_is_a_die_fewer() {
    let mut t = ann_bo_started();
    t.go(B, End);
    t.go(A, Duel);
    t.dice(&[4, 4, 1])
        .go(A, Dice(0))
        .go(A, keep_e(4, DoubleEffect::Control));
    // PF35: two different faces are kept without a prompt.
    t.dice(&[6, 5]).go(B, Dice(0));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Bo", "role": "defender", "penalties": [{"why": "loss_of_control", "dice": 1}], "size": 2})
    ));
    assert!(has(
        t.last("test"),
        &json!({"winner": "Bo", "difference": 3})
    ));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Ann", "lost": 3, "pfp": 2})
    ));
}

// PF9: Loss of control after the throw: the lower kept die is lost, the best two left kept.
#[test]
fn pf9_loss_of_control_after_the_throw_takes_the_lower_kept_die() {
    let mut t = duel(&[6, 3, 2], keep(6, 3), &[5, 5, 1]);
    t.go(B, keep_e(5, DoubleEffect::Control));
    assert!(has(
        t.last("die_lost"),
        &json!({"name": "Ann", "die": 3, "faces": [6, 2], "kept": [6, 2]})
    ));
    assert!(has(
        t.last("test"),
        &json!({"winner": "Bo", "difference": 2})
    ));
}

// PF10: the first tester's Maneuver rerolls a die of the second before he keeps.
#[test]
fn pf10_the_first_testers_maneuver_rerolls_before_the_second_keeps() {
    let mut t = duel(&[3, 3, 1], keep_e(3, DoubleEffect::Maneuver), &[6, 5, 1]);
    assert_eq!(t.duel.awaited(), Some(A));
    assert_eq!(t.duel.what(), "reroll");
    t.dice(&[2]).go(A, Reroll(6));
    assert!(has(
        t.last("reroll"),
        &json!({"name": "Bo", "by": "Ann", "old": 6, "new": 2, "faces": [2, 5, 1]})
    ));
    t.go(B, keep(5, 2));
    assert!(has(t.last("keep"), &json!({"name": "Bo", "rekeep": false})));
    assert!(has(
        t.last("test"),
        &json!({"winner": "Bo", "difference": 1})
    ));
}

// PF10: a rekeep offers a new effect only for a new double: not the same pair when the
// rerolled die did not come up its value; the same pair when it did.
#[test]
fn pf10_a_double_that_did_not_change_earns_nothing_twice() {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[6, 2, 2, 3])
        .go(A, Dice(0))
        .go(A, keep_e(2, DoubleEffect::Iron));
    t.dice(&[5, 5, 1])
        .go(B, Dice(0))
        .go(B, keep_e(5, DoubleEffect::Maneuver));
    let mut same = t.duel.clone();
    t.dice(&[4]).go(B, Reroll(6));
    assert!(t.duel.is_rekeep());
    let options = t.duel.options();
    assert!(options.contains(&keep(2, 2)));
    assert!(
        !options.contains(&keep_e(2, DoubleEffect::Weaken)),
        "{options:?}"
    );
    // The same duel, the 6 rerolled to a 2: the pair is new.
    let mut dice = herald_engine::dice::ScriptedDice::new([2]);
    same.decide_into(B, Reroll(6), &mut dice, &mut Vec::new())
        .unwrap();
    assert!(same.options().contains(&keep_e(2, DoubleEffect::Weaken)));
}

// PF11: Tactical advantage wins equal results: 1 damage to the defender, no PFP difference;
// otherwise nothing. PF12's Flaw: 1 more PFP lost by a losing defender.
#[test]
fn pf11_tactical_advantage_and_flaw() {
    let mut t = duel(&[5, 3, 2], keep(5, 3), &[4, 4, 1]);
    t.go(B, keep_e(4, DoubleEffect::Tactical));
    assert!(has(
        t.last("test"),
        &json!({"winner": "Bo", "by": "tactical", "difference": 0})
    ));
    assert!(has(t.last("pfp_lost"), &json!({"name": "Ann", "lost": 0})));
    assert!(has(
        t.last("damage"),
        &json!({"name": "Ann", "amount": 1, "why": "tactical", "health": 5})
    ));
    let mut t = duel(&[6, 3, 2], keep(6, 3), &[4, 4, 1]);
    t.go(B, keep_e(4, DoubleEffect::Tactical));
    assert_eq!(t.last("test")["winner"], "Ann");
    assert!(t.of("damage").is_empty(), "no tie, no damage");
    let mut t = duel(&[6, 3, 2], keep(6, 3), &[5, 5, 1]);
    t.go(B, keep_e(5, DoubleEffect::Flaw));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Ann", "difference": 1, "flaw": 1, "lost": 2, "pfp": 3})
    ));
}

// PF12: Iron Will's die is thrown at its keep and absorbs the defender's losses this round.
#[test]
fn pf12_iron_will_absorbs_this_rounds_losses() {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[3, 3, 1, 4])
        .go(A, Dice(0))
        .go(A, keep_e(3, DoubleEffect::Iron));
    assert!(has(
        t.last("iron_will"),
        &json!({"name": "Ann", "die": 4, "shield": 4})
    ));
    t.dice(&[6, 5, 1]).go(B, Dice(0)).go(B, keep(6, 5));
    assert!(has(
        t.last("pfp_lost"),
        &json!({"name": "Ann", "difference": 5, "shield": 4, "lost": 1, "pfp": 4})
    ));
}

// PF13: Mental Disappearance: a higher defender bars the attacker's /duel and /contact this
// round and the next; a defender's 6-6 offers Unbalance or Disappearance only.
#[test]
fn pf13_mental_disappearance_bars_the_attacker() {
    let mut t = duel(&[3, 3, 1], keep_e(3, DoubleEffect::Vanish), &[3, 2, 1]);
    t.go(B, keep(3, 2));
    assert!(has(
        t.last("vanished"),
        &json!({"name": "Ann", "attacker": "Bo", "until_round": 2})
    ));
    assert!(!t.duel.options().contains(&Duel), "barred this round");
    t.go(B, End);
    t.dice(&[2, 5]).go(A, End);
    assert_eq!(t.duel.round(), 2);
    assert!(!t.duel.options().contains(&Duel), "and the next");
    assert_eq!(
        DoubleEffect::offered(false, 6),
        &[DoubleEffect::Unbalance, DoubleEffect::Vanish]
    );
}

// PF14: Weakening of will: at once, through the end of the next round.
#[test]
fn pf14_weakening_lasts_through_the_next_round() {
    let mut t = duel(&[2, 2, 1], keep_e(2, DoubleEffect::Weaken), &[3, 2, 1]);
    assert!(has(
        t.last("weakened"),
        &json!({"name": "Bo", "by": "Ann", "until_round": 2, "power_score": 1})
    ));
    t.go(B, keep(3, 2));
    assert!(has(
        t.last("test"),
        &json!({"sides": [{"name": "Bo", "score": 1, "result": 6}, {"name": "Ann", "result": 6}], "by": "tie"})
    ));
    t.go(B, End).dice(&[2, 5]).go(A, End);
    assert_eq!(t.duel.power_score(B), 1, "round 2");
    t.go(B, End).dice(&[2, 5]).go(A, End);
    assert_eq!((t.duel.round(), t.duel.power_score(B)), (3, 2));
}

// PF15: at 0 PFP by paying, a psionist is an open mind with no free effect.
#[test]
fn pf15_zero_pfp_by_paying_opens_the_mind_without_a_free_effect() {
    let mut t = T::start(
        setup(psionist("Ann", 2, 6), open_mind("Echo", 0, 6)),
        &[1, 5, 2],
    );
    t.go(A, Contact);
    t.dice(&[1, 1]).go(B, Dice(0));
    t.dice(&[6, 5, 4]).go(A, Dice(0));
    t.go(A, Decision::pain(1));
    assert!(has(
        t.last("pfp_spent"),
        &json!({"name": "Ann", "amount": 1, "pfp": 0})
    ));
    assert_eq!(t.last("open_mind")["name"], "Ann");
    assert_eq!(t.of("contact").len(), 1, "no free effect for Echo");
}

// PF17: an effect is 1 to the power in strength for as many PFP; after a won contact one comes
// without AP, or none; in an activation it is a psionic action of 1 AP.
#[test]
fn pf17_mental_effects_cost_their_strength() {
    let mut t = ann_in_echo();
    let options = t.duel.options();
    assert!(options.contains(&Decision::pain(2)) && !options.contains(&Decision::pain(3)));
    assert!(options.contains(&Decision::NoEffect));
    t.go(A, Decision::pain(2));
    assert!(has(
        t.last("effect"),
        &json!({"psionist": "Ann", "victim": "Echo", "effect": "pain", "strength": 2, "cost": 2, "free": false})
    ));
    assert_eq!((t.duel.ap(A), t.duel.pfp(A), t.duel.health(B)), (2, 2, 4));
    t.go(A, Decision::pain(1));
    assert!(has(
        t.last("action"),
        &json!({"name": "Ann", "action": "effect", "ap": 1, "psionic_actions": 2})
    ));
    assert_eq!(t.duel.health(B), 3);
}

// PF18: a Mental block of N is N dice fewer on the victim's ejections.
#[test]
fn pf18_a_mental_block_takes_dice_from_ejections() {
    let mut t = ann_in_echo();
    t.go(
        A,
        Decision::Effect {
            kind: herald_engine::pfpduel::MentalKind::Mental,
            strength: 2,
            bits: 0,
        },
    );
    t.go(A, End);
    t.go(B, Eject);
    t.dice(&[3]).go(B, Dice(2));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Echo", "added": 2, "penalties": [{"why": "open_mind", "dice": 1}, {"why": "invaded", "dice": 1}, {"why": "mental_block", "dice": 2}], "size": 1})
    ));
}

// PF19: a Physical blockage stock is taken from the victim's AP at its activation (/hold N).
#[test]
fn pf19_physical_blockage_holds_actions() {
    let mut t = ann_in_echo();
    t.go(
        A,
        Decision::Effect {
            kind: herald_engine::pfpduel::MentalKind::Physical,
            strength: 2,
            bits: 0,
        },
    );
    t.go(A, End);
    assert_eq!((t.duel.what(), t.duel.awaited()), ("hold", Some(A)));
    assert_eq!(
        t.duel.options(),
        vec![
            Decision::Hold(0),
            Decision::Hold(1),
            Decision::Hold(2),
            Yield
        ]
    );
    assert_eq!(
        t.duel.default_decision(),
        Some((A, Decision::Hold(2))),
        "PF37: all"
    );
    t.go(A, Decision::Hold(2));
    assert!(has(
        t.last("ap_blocked"),
        &json!({"name": "Echo", "by": "Ann", "amount": 2, "ap": 1, "hold_left": 0})
    ));
    assert_eq!(t.duel.what(), "activation");
}

// PF20: a puppet is counted: S strikes (1 damage each) and G grounds, S + G up to the power.
#[test]
fn pf20_a_puppet_is_counted_strikes_and_grounds() {
    let mut t = ann_in_echo();
    let puppets: Vec<Decision> = t
        .duel
        .options()
        .into_iter()
        .filter(|d| {
            matches!(
                d,
                Decision::Effect {
                    kind: herald_engine::pfpduel::MentalKind::Puppet,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(
        puppets,
        [
            Decision::puppet(1, 0),
            Decision::puppet(0, 1),
            Decision::puppet(2, 0),
            Decision::puppet(1, 1),
            Decision::puppet(0, 2)
        ]
    );
    t.go(A, Decision::puppet(1, 1));
    assert!(has(
        t.last("effect"),
        &json!({"effect": "puppet", "strength": 2, "cost": 2, "actions": ["strike", "ground"]})
    ));
    assert!(has(
        t.last("damage"),
        &json!({"name": "Echo", "amount": 1, "why": "puppet"})
    ));
    assert!(t.duel.on_ground(B));
}

// PF22: an open mind resisting a contact throws one die fewer and adds its aptitude; a fallen
// psionist adds his power score (the worked example). PF24: the side that acts must win: a
// full tie blocks the contact.
#[test]
fn pf22_open_minds_resist_and_pf24_a_full_tie_blocks_the_contact() {
    let mut t = ann_echo();
    t.go(A, Contact);
    t.dice(&[6, 3, 1]).go(B, Dice(1));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Echo", "role": "open_mind", "added": 1, "penalties": [{"why": "open_mind", "dice": 1}], "size": 3})
    ));
    t.dice(&[6, 3, 1]).go(A, Dice(0));
    assert!(has(
        t.last("test"),
        &json!({"kind": "contact", "sides": [{"name": "Ann", "score": 2, "result": 11}, {"name": "Echo", "score": 2, "result": 11}], "winner": null, "by": "tie"})
    ));
    assert!(has(
        t.last("contact_blocked"),
        &json!({"psionist": "Ann", "victim": "Echo"})
    ));
    assert!(!t.duel.inside(A));
}

// PF23: a penetrated mind throws one die fewer on every test; PF27: it cannot /recover.
#[test]
fn pf23_an_invaded_mind_throws_fewer_and_cannot_recover() {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[1, 2, 3]).go(A, Dice(0)).go(A, keep(3, 2));
    t.dice(&[6, 5, 4]).go(B, Dice(0)).go(B, keep(6, 5));
    // Ann lost 6 of her 5: at 0, an open mind, and Bo is in.
    t.go(B, Decision::pain(1));
    t.go(B, End);
    let options = t.duel.options();
    assert!(
        !options.contains(&Recover) && options.contains(&Eject),
        "{options:?}"
    );
    t.go(A, Eject);
    t.dice(&[6, 6, 6]).go(A, Dice(2));
    assert!(has(
        t.last("pool"),
        &json!({"name": "Ann", "penalties": [{"why": "open_mind", "dice": 1}, {"why": "invaded", "dice": 1}], "size": 3})
    ));
}

// PF26: at the round's end the invader keeps a contact for 1 PFP, or it ends unpaid.
#[test]
fn pf26_a_contact_is_maintained_for_one_pfp_or_ends_unpaid() {
    let mut t = ann_in_echo();
    t.go(A, Decision::NoEffect).go(A, End);
    t.go(B, End);
    assert_eq!((t.duel.what(), t.duel.awaited()), ("maintain", Some(A)));
    t.dice(&[5, 2]).go(A, Maintain);
    assert!(has(
        t.last("maintained"),
        &json!({"psionist": "Ann", "victim": "Echo", "pfp": 3})
    ));
    let mut t = ann_in_echo();
    t.go(A, Decision::pain(2));
    t.go(A, Decision::pain(2));
    assert_eq!(t.duel.pfp(A), 0);
    t.go(A, End);
    t.dice(&[5, 2]).go(B, End);
    assert!(has(
        t.last("contact_ended"),
        &json!({"psionist": "Ann", "why": "unpaid"})
    ));
}

// PF28: each psionist throws 1d6 for his PFP, challenger first; an open mind has none.
#[test]
fn pf28_starting_pfp_are_thrown_challenger_first() {
    let t = ann_bo_started();
    let rolled: Vec<_> = t
        .of("pfp_rolled")
        .iter()
        .map(|e| (e["name"].clone(), e["pfp"].clone()))
        .collect();
    assert_eq!(rolled, [(json!("Ann"), json!(5)), (json!("Bo"), json!(6))]);
    assert_eq!(ann_echo().of("pfp_rolled").len(), 1);
}

// PF29, PF30, PF31: the house numbers for a player's psionist, no options; NPCs' ranges.
#[test]
fn pf30_creation_and_pf31_npcs() {
    let house = House::default();
    let new = |name: &str| NewPsionist {
        name: name.into(),
        ..Default::default()
    };
    let sheet = new("Ann").create(false, house).unwrap();
    assert_eq!((sheet.power, sheet.health, sheet.psionist), (2, 6, true));
    let with_power = NewPsionist {
        power: Some(3),
        ..new("Ann")
    };
    assert_eq!(
        with_power.create(false, house),
        Err(SheetError::PlayerOption("--power", 2, 6))
    );
    assert_eq!(with_power.create(true, house).unwrap().power, 3);
    let too_strong = NewPsionist {
        power: Some(7),
        ..new("Vex")
    };
    assert_eq!(too_strong.create(true, house), Err(SheetError::Power(7)));
    let open = NewPsionist {
        open_mind: true,
        ..new("Echo")
    };
    let echo = open.create(true, house).unwrap();
    assert_eq!((echo.psionist, echo.aptitude, echo.health), (false, 2, 6));
    assert_eq!(open.create(false, house), Err(SheetError::PlayerOpenMind));
    let health = NewPsionist {
        health: Some(21),
        ..open.clone()
    };
    assert_eq!(health.create(true, house), Err(SheetError::Health(21)));
    // The realm's house numbers (PF30).
    let house = House {
        power: 3,
        health: 8,
    };
    assert_eq!(new("Ann").create(false, house).unwrap().health, 8);
}

// PF31: an open mind acts only to eject and stand up: otherwise its activation passes.
#[test]
fn pf31_an_open_mind_only_ejects_and_stands() {
    let mut t = ann_echo();
    t.dice(&[2, 5]).go(A, End);
    // Echo's activation had nothing to choose (PF35); round 2, Echo high: again nothing.
    assert_eq!(t.duel.round(), 2);
    assert_eq!(t.duel.awaited(), Some(A));
    assert_eq!(t.of("activation").len(), 4);
}

// PF32: after round 10 two psionists draw; an open mind still standing has resisted.
#[test]
fn pf32_the_round_limit() {
    let mut t = ann_bo_started();
    for round in 1..=10 {
        t.go(B, End);
        if round < 10 {
            t.dice(&[2, 5]);
        }
        t.go(A, End);
    }
    assert_eq!(t.duel.outcome(), Some((None, EndReason::Rounds)));
    assert!(has(
        t.last("fight_ended"),
        &json!({"winner": null, "loser": null, "reason": "rounds"})
    ));
    let mut t = ann_echo();
    for round in 1..=10 {
        if round < 10 {
            t.dice(&[5, 2]);
        }
        t.go(A, End);
    }
    assert_eq!(t.duel.outcome(), Some((Some(B), EndReason::Resisted)));
}

// PF33: damage is checked once the action under way is done, so a backlash can make it a
// draw; /yield at one's own prompt loses, and only there.
#[test]
fn pf33_knockouts_after_the_action_and_yields() {
    let mut t = T::start(
        setup(psionist("Ann", 2, 1), psionist("Bo", 2, 1)),
        &[5, 6, 2, 5],
    );
    t.go(B, Duel);
    t.dice(&[3, 2, 1]).go(A, Dice(0)).go(A, keep(3, 2));
    t.dice(&[6, 6, 1]).go(B, Dice(0));
    t.dice(&[2]).go(B, keep_e(6, DoubleEffect::Unleash));
    t.dice(&[1, 2, 1, 2, 3]).go(B, Decision::pain(1));
    assert_eq!(
        t.duel.health(A),
        0,
        "knocked out, but the duel's D8 goes on"
    );
    assert!(!t.duel.is_over());
    t.dice(&[3]).go(B, Decision::Backlash(Backlash::Health));
    assert_eq!(t.duel.outcome(), Some((None, EndReason::Knockout)));
    let mut t = ann_bo_started();
    assert!(matches!(
        t.try_go(A, Yield),
        Err(RuleError::NotYourTurn { .. })
    ));
    t.go(B, Yield);
    assert_eq!(t.duel.outcome(), Some((Some(A), EndReason::Yield)));
}

// PF34: health lost stays until the realm's next day; 0 is knocked out until then.
#[test]
fn pf34_health_returns_on_the_realms_next_day() {
    let sheet = NewPsionist {
        name: "Ann".into(),
        ..Default::default()
    }
    .create(false, House::default())
    .unwrap();
    let state = PfpState {
        lost: 6,
        day: "2026-12-01".into(),
    };
    assert!(state.knocked_out(&sheet));
    assert_eq!(state.as_of("2026-12-01"), state);
    let next = state.as_of("2026-12-02");
    assert_eq!((next.lost, next.health(&sheet)), (0, 6));
}

// PF35: a prompt with one legal answer is answered at once: no AP, no dice prompt.
#[test]
fn pf35_no_choice_no_prompt() {
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[6, 3, 2, 2, 1, 1]).go(A, Dice(3));
    assert_eq!(t.duel.ap(A), 0);
    t.go(A, keep(6, 3));
    t.dice(&[5, 4, 2, 1, 1]).go(B, Dice(2));
    t.dice(&[2, 5]).go(B, keep(5, 4));
    // Neither has AP left: Bo's activation ends, Ann's is not asked; round 2 begins.
    assert!(has(t.last("test"), &json!({"winner": "Ann", "by": "dice"})));
    assert!(has(
        t.last("activation_ended"),
        &json!({"round": 1, "name": "Ann", "ap": 0})
    ));
    assert_eq!(
        (t.duel.round(), t.duel.what(), t.duel.awaited()),
        (2, "activation", Some(B))
    );
}

// PF36 is pinned by the worked example (engine/tests/pfpduel_example.rs), which consumes the
// page's dice in order to the last; PF37: the default policy, prompt by prompt.
#[test]
fn pf37_the_default_policy() {
    let mut t = ann_bo_started();
    assert_eq!(t.duel.default_decision(), Some((B, Duel)));
    t.go(B, Duel);
    assert_eq!(t.duel.default_decision(), Some((A, Dice(0))));
    t.dice(&[3, 3, 6]).go(A, Dice(0));
    assert_eq!(
        t.duel.default_decision(),
        Some((A, keep(6, 3))),
        "the highest pair"
    );
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[3, 3, 1]).go(A, Dice(0));
    assert_eq!(
        t.duel.default_decision(),
        Some((A, keep_e(3, DoubleEffect::Iron)))
    );
    let t = duel(&[3, 2, 1], keep(3, 2), &[6, 6, 1]);
    assert_eq!(
        t.duel.default_decision(),
        Some((B, keep_e(6, DoubleEffect::Unleash)))
    );
    let mut t = ann_bo_started();
    t.go(B, Duel);
    t.dice(&[6, 6, 1]).go(A, Dice(0));
    assert_eq!(
        t.duel.default_decision(),
        Some((A, keep_e(6, DoubleEffect::Vanish)))
    );
    let t = duel(&[3, 2, 1], keep(3, 2), &[5, 5, 1]);
    assert_eq!(
        t.duel.default_decision(),
        Some((B, keep_e(5, DoubleEffect::Flaw)))
    );
    // An ejecting victim adds all its AP; an invaded psionist ejects first.
    let mut t = ann_in_echo();
    t.go(A, Decision::NoEffect).go(A, End);
    assert_eq!(t.duel.default_decision(), Some((B, Eject)));
    t.go(B, Eject);
    assert_eq!(t.duel.default_decision(), Some((B, Dice(2))));
}

// The readings the page leaves open: an attacker's 6-6 is Unleash only; a side's effects in one
// test stop at 16; two open minds cannot meet, and such a setup ends at once as a draw.
#[test]
fn open_points_attackers_six_six_the_effect_bound_and_two_open_minds() {
    assert_eq!(DoubleEffect::offered(true, 6), &[DoubleEffect::Unleash]);
    let t = duel(&[3, 2, 1], keep(3, 2), &[6, 6, 1]);
    let options = t.duel.options();
    assert!(options.contains(&keep_e(6, DoubleEffect::Unleash)));
    assert!(!options.contains(&keep_e(6, DoubleEffect::Control)));
    let mut effects = Effects::default();
    for _ in 0..16 {
        assert!(effects.push(DoubleEffect::Maneuver));
    }
    assert!(!effects.has_room() && !effects.push(DoubleEffect::Maneuver));
    let t = T::start(setup(open_mind("Echo", 2, 6), open_mind("Fay", 2, 6)), &[]);
    assert_eq!(t.duel.outcome(), Some((None, EndReason::Rounds)));
}
