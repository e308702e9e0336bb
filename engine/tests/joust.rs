//! The Joust checklist (steps 1–10) and the rulings that touch it, step by step with scripted
//! dice. Every number is worked from the rules and rulings; the dice follow R40: where both roll
//! in one step the challenger (A) rolls first, and a psi roll comes just before the roll it
//! changes (just after, for reactions and CPK).

mod common;
use common::*;
use herald_engine::psiknight::event::{
    EndReason, Event, FirstPlayerRule, FirstStrikeRule, Height, Injury, ModKind, Modifier,
    RollSkill,
};
use herald_engine::psiknight::policy::Policy;
use herald_engine::psiknight::{
    fall_injury, BonusMode, Decision, KnightSheet, MatchKind, PromptKind, PsiSkill, RuleError, Side,
};
use serde_json::json;

// ----- knights and dice used throughout -----

/// Al: Lance, Ride, Observe 40; Shield, Dodge, Sword 30. His best of Lance and Ride is 40.
fn al() -> KnightSheet {
    knight("Al", [40, 40, 40, 30, 30, 30], [0; 7])
}

/// Bo: Lance, Ride, Observe 30; Shield, Dodge, Sword 40. His best of Lance and Ride is 30.
fn bo() -> KnightSheet {
    knight("Bo", [30, 30, 30, 40, 40, 40], [0; 7])
}

/// Steps 1–2 with Al against Bo and nothing earned: Observe 90 > 40 and 90 > 30 both fail,
/// Ride 92 > 40 and 91 > 30 both fail. Al's Ride roll 92 beats 91, so Al announces first; with
/// no sweep and no Bonus, 6C gives Al (40) first strike over Bo (30).
const QUIET: [u32; 4] = [90, 90, 92, 91];

/// Al +30 (Observe 40 ≤ 40 against Bo's 31 > 30, step 1C); Ride 92 and 91 both fail, so Al
/// announces first.
const AL_30: [u32; 4] = [40, 31, 92, 91];

/// Bo +30 (Al's Observe 41 > 40 fails, Bo's 30 ≤ 30 succeeds, step 1C); Al announces first.
const BO_30: [u32; 4] = [41, 30, 92, 91];

fn start(kind: MatchKind, rolls: &[u32]) -> Duel {
    Duel::start(kind, al(), bo(), [None, None], rolls)
}

fn practice(rolls: &[u32]) -> Duel {
    start(MatchKind::Practice, rolls)
}

fn sweep_word(sweep: bool) -> Decision {
    if sweep {
        Decision::Sweep
    } else {
        Decision::NoSweep
    }
}

/// Steps 4–5 for both, in whatever order the match asks for them.
fn announce(d: &mut Duel, a_sweeps: bool, b_sweeps: bool) {
    for _ in 0..2 {
        let p = d.m.pending();
        assert_eq!(p.len(), 1, "one sweep announcement at a time");
        assert_eq!(p[0].kind, PromptKind::Sweep);
        let side = p[0].side;
        let sweep = if side == A { a_sweeps } else { b_sweeps };
        d.go(side, sweep_word(sweep));
    }
}

/// Queues `rolls` and strikes.
fn strike(d: &mut Duel, side: Side, height: Decision, rolls: &[u32]) -> Vec<Event> {
    d.dice(rolls);
    d.go(side, height)
}

/// Every Bonus earned, as (knight, amount, total).
fn bonuses(events: &[Event]) -> Vec<(Side, u32, u32)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Bonus {
                knight,
                amount,
                total,
            } => Some((knight, amount, total)),
            _ => None,
        })
        .collect()
}

/// The last roll of `side` on `skill`: (roll, target, success, modifiers, cap).
fn roll_of(d: &Duel, side: Side, skill: RollSkill) -> (u32, i32, bool, Vec<Modifier>, Option<u32>) {
    d.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Roll {
                knight,
                skill: s,
                roll,
                target,
                success,
                modifiers,
                cap,
                ..
            } if *knight == side && *s == skill => {
                Some((*roll, *target, *success, modifiers.to_vec(), *cap))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {skill:?} roll of {side:?}"))
}

fn first_strike(d: &Duel) -> (Option<Side>, FirstStrikeRule) {
    d.events
        .iter()
        .find_map(|e| match *e {
            Event::FirstStrike { knight, rule } => Some((knight, rule)),
            _ => None,
        })
        .expect("no first strike yet")
}

fn one_prompt(d: &Duel) -> (Side, PromptKind) {
    let p = d.m.pending();
    assert_eq!(p.len(), 1, "expected one prompt, got {p:?}");
    (p[0].side, p[0].kind)
}

fn md(kind: ModKind, value: i32) -> Modifier {
    Modifier { kind, value }
}

fn ended(d: &Duel) -> (Option<Side>, EndReason) {
    let o = d.m.outcome().expect("the match should be over");
    (o.winner, o.reason)
}

/// One pass with no unhorsing: no sweeps, A strikes first (as under QUIET) and both Lances
/// miss (80 > 40, 80 > 30); `next` holds the dice of whatever follows the pass.
fn quiet_strikes(d: &mut Duel, next: &[u32]) {
    announce(d, false, false);
    strike(d, A, Decision::High, &[80]);
    d.dice(&[80]);
    strike(d, B, Decision::High, next);
}

/// Al unhorses Bo in the first strike of pass 1 with a defense roll of `defense`: QUIET, Lance
/// 20 ≤ 40 hits High, Bo's Shield 40 limited to 20.
fn al_unhorses_bo(kind: MatchKind, defense: u32) -> Duel {
    let mut d = start(kind, &QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[20, defense]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, defense, 20, false));
    assert!(d.saw(&Event::Unhorsed { knight: B }));
    d
}

// ----- step 1: Observe -----

#[test]
fn joust_1_observe_then_ride_challenger_first() {
    // Joust 1, 2, R40: Observe both (challenger first), then Ride both.
    let d = practice(&[11, 12, 13, 14]);
    assert_eq!(
        d.rolls(),
        vec![
            (A, RollSkill::Observe, 11, 40, true),
            (B, RollSkill::Observe, 12, 30, true),
            (A, RollSkill::Ride, 13, 40, true),
            (B, RollSkill::Ride, 14, 30, true),
        ]
    );
    assert!(d.saw(&Event::PassStarted { pass: 1 }));
    assert_eq!(d.m.pass(), 1);
    d.all_dice_used();
}

#[test]
fn joust_1a_both_fail_no_bonus() {
    // Joust 1A, R1: 41 > 40 and 31 > 30 both fail (one above the skill fails).
    let d = practice(&[41, 31, 92, 91]);
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 41, 40, false));
    assert_eq!(d.rolls()[1], (B, RollSkill::Observe, 31, 30, false));
    assert_eq!(bonuses(&d.events), vec![]);
    assert_eq!(d.m.bonus(A).0, 0);
    assert_eq!(d.m.bonus(B).0, 0);
}

#[test]
fn joust_1b_both_succeed_low_roller_earns_10() {
    // Joust 1B: both succeed, Bo's 20 is lower than Al's 25: Bo +10.
    let d = practice(&[25, 20, 92, 91]);
    assert_eq!(bonuses(&d.events), vec![(B, 10, 10)]);
    // And the other way: Al's 20 is lower than Bo's 25 (25 ≤ 30 succeeds).
    let d = practice(&[20, 25, 92, 91]);
    assert_eq!(bonuses(&d.events), vec![(A, 10, 10)]);
    assert_eq!(d.m.bonus(A), (10, BonusMode::Weaken));
}

#[test]
fn joust_1b_equal_rolls_no_bonus() {
    // Joust 1B "(if any)": both succeed with 20, no low roller.
    let d = practice(&[20, 20, 92, 91]);
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 20, 40, true));
    assert_eq!(d.rolls()[1], (B, RollSkill::Observe, 20, 30, true));
    assert_eq!(bonuses(&d.events), vec![]);
}

#[test]
fn joust_1c_one_succeeds_earns_30() {
    // Joust 1C, R1: Al's 40 ≤ 40 succeeds, Bo's 31 > 30 fails: Al +30.
    let d = practice(&AL_30);
    assert_eq!(bonuses(&d.events), vec![(A, 30, 30)]);
    // Al's 41 > 40 fails, Bo's 30 ≤ 30 succeeds: Bo +30.
    let d = practice(&BO_30);
    assert_eq!(bonuses(&d.events), vec![(B, 30, 30)]);
}

// ----- step 2: Ride -----

#[test]
fn joust_2a_one_rides_well_earns_15() {
    // Joust 2A: Al's Ride 40 ≤ 40, Bo's 31 > 30: Al +15.
    let d = practice(&[90, 90, 40, 31]);
    assert_eq!(bonuses(&d.events), vec![(A, 15, 15)]);
    // Al's 41 > 40, Bo's 30 ≤ 30: Bo +15.
    let d = practice(&[90, 90, 41, 30]);
    assert_eq!(bonuses(&d.events), vec![(B, 15, 15)]);
}

#[test]
fn joust_2b_both_or_neither_no_effect() {
    // Joust 2B: both succeed (10 ≤ 40, 20 ≤ 30), then both fail (41 > 40, 31 > 30).
    let d = practice(&[90, 90, 10, 20]);
    assert_eq!(bonuses(&d.events), vec![]);
    let d = practice(&[90, 90, 41, 31]);
    assert_eq!(bonuses(&d.events), vec![]);
}

#[test]
fn joust_r4_bonus_earned_twice_adds_up() {
    // R4: Al +30 (Observe 40 against 31) and +15 (Ride 40 against 31): one Bonus of 45.
    let d = practice(&[40, 31, 40, 31]);
    assert_eq!(bonuses(&d.events), vec![(A, 30, 30), (A, 15, 45)]);
    assert_eq!(d.m.bonus(A), (45, BonusMode::Weaken));
    // Only one fighter holds a Bonus: nothing to net (R7).
    assert!(!d
        .events
        .iter()
        .any(|e| matches!(e, Event::BonusNetted { .. })));
}

// ----- step 3: netting -----
//
// R7's "equal totals cancel both" cannot arise in a pass: step 1 gives one fighter 10 or 30,
// step 2 gives one fighter 15, so two totals above zero are 10 against 15 or 30 against 15.

#[test]
fn joust_3_larger_bonus_reduced_by_smaller() {
    // Joust 3, R7: Al +30 (step 1C), Bo +15 (Ride 41 > 40, 30 ≤ 30): Al keeps 15, Bo none.
    let d = practice(&[40, 31, 41, 30]);
    assert_eq!(bonuses(&d.events), vec![(A, 30, 30), (B, 15, 15)]);
    assert!(d.saw(&Event::BonusNetted {
        knight: Some(A),
        remaining: 15,
        cancelled: 15
    }));
    assert_eq!(d.m.bonus(A).0, 15);
    assert_eq!(d.m.bonus(B).0, 0);
}

#[test]
fn joust_3_smaller_bonus_cancelled_either_side() {
    // Joust 3, R7: Bo +10 (low roller 20 < 25), Al +15 (Ride 40 against 31): Al keeps 5.
    let d = practice(&[25, 20, 40, 31]);
    assert_eq!(bonuses(&d.events), vec![(B, 10, 10), (A, 15, 15)]);
    assert!(d.saw(&Event::BonusNetted {
        knight: Some(A),
        remaining: 5,
        cancelled: 10
    }));
    assert_eq!((d.m.bonus(A).0, d.m.bonus(B).0), (5, 0));
    // Bo +30 (1C), Al +15: Bo keeps 15.
    let d = practice(&[41, 30, 40, 31]);
    assert!(d.saw(&Event::BonusNetted {
        knight: Some(B),
        remaining: 15,
        cancelled: 15
    }));
    assert_eq!((d.m.bonus(A).0, d.m.bonus(B).0), (0, 15));
}

// ----- steps 4–5: sweep announcements -----

#[test]
fn joust_4_higher_ride_roll_announces_first_even_if_it_failed() {
    // Joust 4, R8: Al's Ride 95 fails and Bo's 10 succeeds (Bo +15), but 95 is the higher roll.
    let d = practice(&[90, 90, 95, 10]);
    assert_eq!(bonuses(&d.events), vec![(B, 15, 15)]);
    assert_eq!(one_prompt(&d), (A, PromptKind::Sweep));
    // Bo's 20 beats Al's 10: Bo first.
    let d = practice(&[90, 90, 10, 20]);
    assert_eq!(one_prompt(&d), (B, PromptKind::Sweep));
}

#[test]
fn joust_4_r8_tied_ride_rolls_go_to_ride_skill() {
    // R8: Ride rolls tie at 50; the challenged Al (Ride 40) beats the challenger Bo (Ride 30).
    let d = Duel::start(
        MatchKind::Practice,
        bo(),
        al(),
        [None, None],
        &[90, 90, 50, 50],
    );
    assert_eq!(one_prompt(&d), (B, PromptKind::Sweep));
    // The challenger Al (Ride 40) beats Bo (Ride 30).
    let d = practice(&[90, 90, 50, 50]);
    assert_eq!(one_prompt(&d), (A, PromptKind::Sweep));
}

#[test]
fn joust_4_r8_tied_ride_rolls_and_skills_go_to_challenger() {
    // R8: Ride rolls tie at 50, Ride skills tie at 40: the challenger announces first.
    let twin = knight("Cy", [40, 40, 40, 30, 30, 30], [0; 7]);
    let d = Duel::start(
        MatchKind::Practice,
        twin,
        al(),
        [None, None],
        &[90, 90, 50, 50],
    );
    assert_eq!(one_prompt(&d), (A, PromptKind::Sweep));
}

#[test]
fn joust_5_second_announces_after_seeing_the_first() {
    // Joust 5, R8: Al announces first; Bo is asked only then, with Al's choice already out.
    let mut d = practice(&QUIET);
    let p = d.m.pending();
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].options,
        vec![Decision::Sweep, Decision::NoSweep, Decision::Yield]
    );
    assert_eq!(p[0].default, Decision::NoSweep);
    let ev = d.go(A, Decision::Sweep);
    assert_eq!(
        ev,
        vec![Event::Sweep {
            knight: A,
            sweep: true
        }]
    );
    assert_eq!(one_prompt(&d), (B, PromptKind::Sweep));
    // Al may not announce twice.
    assert_eq!(
        d.refused(A, Decision::NoSweep),
        RuleError::NotYourTurn {
            awaited: B,
            kind: PromptKind::Sweep
        }
    );
}

// ----- step 6: first strike -----

#[test]
fn joust_6a_one_sweeps_the_other_strikes_first() {
    // Joust 6A: Al sweeps, Bo does not: Bo strikes first (6C would have given it to Al).
    let mut d = practice(&QUIET);
    announce(&mut d, true, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Sweep));
    assert_eq!(one_prompt(&d), (B, PromptKind::Strike));
    // Bo sweeps, Al does not: Al first.
    let mut d = practice(&QUIET);
    announce(&mut d, false, true);
    assert_eq!(first_strike(&d), (Some(A), FirstStrikeRule::Sweep));
}

#[test]
fn joust_6a_comes_before_the_bonus() {
    // Joust 6A before 6B: Al holds +30 but sweeps alone, so Bo strikes first.
    let mut d = practice(&AL_30);
    announce(&mut d, true, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Sweep));
}

#[test]
fn joust_6b_neither_sweeps_bonus_holder_first() {
    // Joust 6B: Bo holds +30; neither sweeps; Bo first though Al's skills (40) win 6C.
    let mut d = practice(&BO_30);
    announce(&mut d, false, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Bonus));
    assert_eq!(one_prompt(&d), (B, PromptKind::Strike));
}

#[test]
fn joust_6b_both_sweep_bonus_holder_first() {
    // Joust 6B "(or both!)": both sweep, Bo holds +30: Bo first.
    let mut d = practice(&BO_30);
    announce(&mut d, true, true);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Bonus));
}

#[test]
fn joust_6c_both_sweep_no_bonus_goes_to_skill() {
    // Joust 6C: both sweep, nobody holds a Bonus: Al (40) over Bo (30).
    let mut d = practice(&QUIET);
    announce(&mut d, true, true);
    assert_eq!(first_strike(&d), (Some(A), FirstStrikeRule::Skill));
    assert_eq!(one_prompt(&d), (A, PromptKind::Strike));
}

#[test]
fn joust_6c_r9_higher_of_lance_and_ride() {
    // Joust 6C, R9: Ed has Lance 30, Ride 50 (best 50); Fa Lance 45, Ride 40 (best 45, though a
    // higher Lance and a higher sum, 85 > 80). Ed strikes first whichever side he is on.
    let ed = || knight("Ed", [30, 50, 30, 30, 30, 30], [0; 7]);
    let fa = || knight("Fa", [45, 40, 30, 30, 30, 30], [0; 7]);
    // Observe 90, 90 fail; Ride 95 > 40 and 96 > 50 fail: Ed (B) announces first.
    let mut d = Duel::start(
        MatchKind::Practice,
        fa(),
        ed(),
        [None, None],
        &[90, 90, 95, 96],
    );
    announce(&mut d, false, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Skill));
    let mut d = Duel::start(
        MatchKind::Practice,
        ed(),
        fa(),
        [None, None],
        &[90, 90, 95, 96],
    );
    announce(&mut d, false, false);
    assert_eq!(first_strike(&d), (Some(A), FirstStrikeRule::Skill));
}

/// Cy (Lance 40, Ride 30) against Di (Lance 30, Ride 40): both best 40, so 6C ties (R9).
/// Observe 90, 90 and Ride 92 > 30, 91 > 40 all fail; Cy announces first; no sweeps.
fn tied_pair(kind: MatchKind) -> Duel {
    let cy = knight("Cy", [40, 30, 30, 30, 30, 40], [0; 7]);
    let di = knight("Di", [30, 40, 30, 30, 40, 30], [0; 7]);
    let mut d = Duel::start(kind, cy, di, [None, None], &[90, 90, 92, 91]);
    announce(&mut d, false, false);
    d
}

/// The 6D pass of `tied_pair` in which both fall: Cy's Lance 20 ≤ 40 hits High, Di's Shield 30
/// limited to 20 fails on 50; Di still strikes: Lance 10 ≤ 30 hits Low, Cy's Ride 30 limited
/// to 10 fails on 11. `after` holds the dice of what follows.
fn both_fall(kind: MatchKind, after: &[u32]) -> Duel {
    let mut d = tied_pair(kind);
    assert_eq!(first_strike(&d), (None, FirstStrikeRule::Both));
    // R9: the challenger strikes first.
    assert_eq!(one_prompt(&d), (A, PromptKind::Strike));
    strike(&mut d, A, Decision::High, &[20, 50]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 50, 20, false));
    assert!(d.saw(&Event::Unhorsed { knight: B }));
    // 6D: Di strikes though already unhorsed.
    assert_eq!(one_prompt(&d), (B, PromptKind::Strike));
    d.dice(&[10, 11]);
    strike(&mut d, B, Decision::Low, after);
    assert_eq!(
        d.rolls()[d.rolls().len() - 2],
        (B, RollSkill::Lance, 10, 30, true)
    );
    assert_eq!(roll_of(&d, A, RollSkill::Ride).0, 11);
    assert_eq!(roll_of(&d, A, RollSkill::Ride).1, 10);
    assert!(d.saw(&Event::Unhorsed { knight: A }));
    d
}

#[test]
fn joust_6d_r13_practice_both_unhorsed_is_a_draw() {
    // Joust 6D, R9, R13, R27: both fall; practice asks to fight on; a decline makes it a draw.
    let mut d = both_fall(MatchKind::Practice, &[]);
    let p = d.m.pending();
    assert_eq!(p.len(), 2);
    assert!(p.iter().all(|p| p.kind == PromptKind::FightOn));
    d.go(A, Decision::Decline);
    assert_eq!(ended(&d), (None, EndReason::BothUnhorsed));
    assert_eq!(d.m.outcome().unwrap().unhorsed, [true, true]);
    d.all_dice_used();
}

#[test]
fn joust_6d_r13_practice_both_unhorsed_fight_on_by_roll_off() {
    // R13, R14: Swordplay by agreement, first player by roll-off: Cy 30, Di 20, lower first.
    let mut d = both_fall(MatchKind::Practice, &[]);
    d.go(B, Decision::Swordplay);
    d.dice(&[30, 20]);
    d.go(A, Decision::Swordplay);
    assert!(d.saw(&Event::RollOff {
        knight: A,
        roll: 30
    }));
    assert!(d.saw(&Event::RollOff {
        knight: B,
        roll: 20
    }));
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::RollOff
    }));
    assert_eq!(one_prompt(&d), (B, PromptKind::Action));
    d.all_dice_used();
}

#[test]
fn joust_6d_r13_r35_lists_both_unhorsed_swordplay_follows() {
    // R13, R35: in the lists a double fall goes straight to Swordplay, by roll-off (R14):
    // 50 and 50 tie and roll again; Cy 10 < Di 60 goes first.
    let d = both_fall(MatchKind::Lists, &[50, 50, 10, 60]);
    assert!(d.m.in_swordplay());
    assert!(d.saw(&Event::SwordplayStarted {
        first: A,
        rule: FirstPlayerRule::RollOff
    }));
    assert_eq!(one_prompt(&d), (A, PromptKind::Action));
    d.all_dice_used();
}

#[test]
fn joust_6d_r13_r37_melee_both_unhorsed() {
    // R13, R37: in a melee both are unhorsed and the pass is over with no winner.
    let d = both_fall(MatchKind::Melee, &[]);
    assert_eq!(ended(&d), (None, EndReason::PassOver));
    assert_eq!(d.m.outcome().unwrap().unhorsed, [true, true]);
    assert!(d.m.pending().is_empty());
    d.all_dice_used();
}

#[test]
fn joust_6d_second_strikes_after_a_first_miss() {
    // Joust 6D: Cy misses (Lance 41 > 40), Di still strikes and unhorses Cy: only Cy falls.
    let mut d = tied_pair(MatchKind::Practice);
    strike(&mut d, A, Decision::High, &[41]);
    assert_eq!(d.last_roll(), (A, RollSkill::Lance, 41, 40, false));
    strike(&mut d, B, Decision::High, &[10, 11]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 11, 10, false));
    d.go(B, Decision::Decline);
    assert_eq!(ended(&d), (Some(B), EndReason::Unhorsed));
}

// ----- steps 7–8: the strikes -----

#[test]
fn joust_7_strike_prompt_and_r11_default_high() {
    // Joust 7, R11: the striker declares High or Low; a timeout is High, and High means Shield.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    let p = d.m.pending();
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].side, p[0].kind), (A, PromptKind::Strike));
    assert_eq!(
        p[0].options,
        vec![Decision::High, Decision::Low, Decision::Yield]
    );
    assert_eq!(p[0].default, Decision::High);
    assert_eq!(d.m.default_decision(A), Some(Decision::High));
    assert_eq!(Policy::default().decide(&d.m, A), Some(Decision::High));
    let dflt = d.m.default_decision(A).unwrap();
    let ev = strike(&mut d, A, dflt, &[20, 20]);
    assert!(ev.contains(&Event::Strike {
        knight: A,
        height: Height::High
    }));
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 20, 20, true));
}

#[test]
fn joust_7_lance_miss_no_defense_roll() {
    // Joust 7B: Al's Lance 41 > 40 misses; Bo rolls nothing; Bo strikes next (step 8).
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::Low, &[41]);
    assert_eq!(d.last_roll(), (A, RollSkill::Lance, 41, 40, false));
    assert_eq!(d.rolls().len(), 5);
    assert_eq!(d.dice.taken(), 5);
    assert_eq!(one_prompt(&d), (B, PromptKind::Strike));
}

#[test]
fn joust_7a_sweep_adds_25_to_lance() {
    // Joust 7A: Al sweeps, so Bo strikes first (6A) and misses (99 > 30); Al's Lance is
    // 40 + 25 = 65 and 65 hits; Bo's Shield 40 (limited to 65, no lower) fails on 41.
    let mut d = practice(&QUIET);
    announce(&mut d, true, false);
    strike(&mut d, B, Decision::High, &[99]);
    assert_eq!(d.last_roll(), (B, RollSkill::Lance, 99, 30, false));
    strike(&mut d, A, Decision::High, &[65, 41]);
    let (roll, target, hit, mods, _) = roll_of(&d, A, RollSkill::Lance);
    assert_eq!((roll, target, hit), (65, 65, true));
    assert_eq!(mods, vec![md(ModKind::Sweep, 25)]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 41, 40, false));
    // Bo, who did not sweep, had no +25.
    assert!(roll_of(&d, B, RollSkill::Lance).3.is_empty());
}

#[test]
fn joust_7a_sweep_66_misses() {
    // Joust 7A: 66 > 65 misses even when sweeping; the pass ends and pass 2 rolls.
    let mut d = practice(&QUIET);
    announce(&mut d, true, false);
    strike(&mut d, B, Decision::High, &[99]);
    d.dice(&[66]);
    strike(&mut d, A, Decision::High, &QUIET);
    assert_eq!(roll_of(&d, A, RollSkill::Lance).0, 66);
    assert_eq!(roll_of(&d, A, RollSkill::Lance).1, 65);
    assert!(!roll_of(&d, A, RollSkill::Lance).2);
    assert_eq!(d.m.pass(), 2);
    d.all_dice_used();
}

#[test]
fn joust_7b1_high_is_defended_with_shield() {
    // Joust 7B1: High → Bo rolls Shield (40, limited to the Lance roll 20).
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    let ev = strike(&mut d, A, Decision::High, &[20, 20]);
    assert!(ev.contains(&Event::Strike {
        knight: A,
        height: Height::High
    }));
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 20, 20, true));
}

#[test]
fn joust_7b2_low_is_defended_with_ride() {
    // Joust 7B2: Low → Bo rolls Ride (30, limited to the Lance roll 20).
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    let ev = strike(&mut d, A, Decision::Low, &[20, 20]);
    assert!(ev.contains(&Event::Strike {
        knight: A,
        height: Height::Low
    }));
    assert_eq!(d.last_roll(), (B, RollSkill::Ride, 20, 20, true));
}

#[test]
fn joust_7b3_r10_limited_at_exactly_the_lance_roll() {
    // Joust 7B3, R10: Bo's Shield 40 against Lance 25 is 25; 25 holds.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[25, 25]);
    let (roll, target, held, _, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (25, 25, true, Some(25)));
    assert!(!d.saw(&Event::Unhorsed { knight: B }));
    // 26 fails: unhorsed.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[25, 26]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 26, 25, false));
    assert!(d.saw(&Event::Unhorsed { knight: B }));
}

#[test]
fn joust_7b3_r10_skill_already_lower_stays() {
    // Joust 7B3 "may be lower": Bo's Ride 30 against Lance 35 stays 30; 30 holds, no cap shown.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::Low, &[35, 30]);
    let (roll, target, held, _, cap) = roll_of(&d, B, RollSkill::Ride);
    assert_eq!((roll, target, held, cap), (30, 30, true, None));
    // Shield 40 against Lance 40: equal, nothing lowered.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[40, 41]);
    let (roll, target, held, _, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (41, 40, false, None));
}

#[test]
fn joust_7b3_r10_r40_cap_after_apportation() {
    // R10, R2, R40: Bo's Apportation fires just before his Shield (psi 10 ≤ 25): 40 + 25 = 65,
    // limited to Al's Lance 35; 36 fails.
    let bo = knight(
        "Bo",
        [30, 30, 30, 40, 40, 40],
        psi(PsiSkill::Apportation, 25),
    );
    let mut d = Duel::start(
        MatchKind::Practice,
        al(),
        bo,
        [None, Some(PsiSkill::Apportation)],
        &QUIET,
    );
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[35, 10, 36]);
    let (roll, target, held, mods, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (36, 35, false, Some(35)));
    assert_eq!(mods, vec![md(ModKind::Apportation, 25)]);
    let lance = d
        .events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Roll {
                    skill: RollSkill::Lance,
                    ..
                }
            )
        })
        .unwrap();
    let psi_at = d
        .events
        .iter()
        .position(|e| {
            *e == Event::Psi {
                knight: B,
                skill: PsiSkill::Apportation,
                roll: 10,
                target: 25,
                success: true,
            }
        })
        .unwrap();
    let shield = d
        .events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Roll {
                    skill: RollSkill::Shield,
                    ..
                }
            )
        })
        .unwrap();
    assert!(lance < psi_at && psi_at < shield);
}

#[test]
fn joust_7c_unhorsed_defender_does_not_strike_back() {
    // Joust 7C: Bo falls to the first strike; the Joust ends: no strike of Bo's, and the
    // practice question comes next (R41).
    let d = al_unhorses_bo(MatchKind::Practice, 50);
    assert!(!d
        .rolls()
        .iter()
        .any(|r| r.0 == B && r.1 == RollSkill::Lance));
    let p = d.m.pending();
    assert_eq!(p.len(), 2);
    assert!(p.iter().all(|p| p.kind == PromptKind::FightOn));
    assert_eq!(d.m.outcome(), None);
    d.all_dice_used();
}

#[test]
fn joust_8_second_strike_switches_fighters() {
    // Joust 8: Al misses (99); Bo strikes High, Lance 25 ≤ 30; Al's Shield 30 limited to 25
    // fails on 26: Al unhorsed.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[99]);
    assert_eq!(one_prompt(&d), (B, PromptKind::Strike));
    strike(&mut d, B, Decision::High, &[25, 26]);
    assert_eq!(d.rolls()[5], (B, RollSkill::Lance, 25, 30, true));
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 26, 25, false));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
    d.go(A, Decision::Decline);
    assert_eq!(ended(&d), (Some(B), EndReason::Unhorsed));
}

// ----- Bonus uses (R5, R6) -----

#[test]
fn joust_r5_weaken_is_the_default() {
    // R5 weaken: Al's +30 (6B: he strikes first) comes off Bo's Shield: 40 − 30 = 10, the
    // Lance 35 does not lower it; 11 fails.
    let mut d = practice(&AL_30);
    assert_eq!(d.m.bonus(A), (30, BonusMode::Weaken));
    announce(&mut d, false, false);
    assert_eq!(first_strike(&d), (Some(A), FirstStrikeRule::Bonus));
    strike(&mut d, A, Decision::High, &[35, 11]);
    assert_eq!(roll_of(&d, A, RollSkill::Lance).1, 40);
    let (roll, target, held, mods, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (11, 10, false, None));
    assert_eq!(mods, vec![md(ModKind::Weakened, -30)]);
    assert!(d.saw(&Event::BonusSpent {
        knight: A,
        amount: 30,
        mode: BonusMode::Weaken
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
}

#[test]
fn joust_r5_weaken_applies_before_the_cap() {
    // R5, R2, R10: Al +15 (Ride 40 against 31). Bo's Shield 40 − 15 = 25, then limited to the
    // Lance 30: stays 25 (capping first would give 30 − 15 = 15). 25 holds.
    let mut d = practice(&[90, 90, 40, 31]);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[30, 25]);
    let (roll, target, held, mods, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (25, 25, true, None));
    assert_eq!(mods, vec![md(ModKind::Weakened, -15)]);
}

#[test]
fn joust_r5_attack_adds_to_lance() {
    // R5 attack: Al's Lance 40 + 30 = 70; 70 hits; Bo's Shield is not weakened (40, limited to
    // 70 stays 40) and 40 holds.
    let mut d = practice(&AL_30);
    let ev = d.go(A, Decision::Bonus(BonusMode::Attack));
    assert_eq!(
        ev,
        vec![Event::BonusMode {
            knight: A,
            mode: BonusMode::Attack
        }]
    );
    assert_eq!(d.m.bonus(A), (30, BonusMode::Attack));
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[70, 40]);
    let (roll, target, hit, mods, _) = roll_of(&d, A, RollSkill::Lance);
    assert_eq!((roll, target, hit), (70, 70, true));
    assert_eq!(mods, vec![md(ModKind::BonusAttack, 30)]);
    let (roll, target, held, mods, _) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held), (40, 40, true));
    assert!(mods.is_empty());
    assert!(d.saw(&Event::BonusSpent {
        knight: A,
        amount: 30,
        mode: BonusMode::Attack
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
}

#[test]
fn joust_r5_attack_is_spent_on_a_miss() {
    // R5: the attack Bonus applies to the next Lance roll, hit or miss: 71 > 70 misses and the
    // Bonus is gone; nothing is left to expire at the pass end.
    let mut d = practice(&AL_30);
    d.go(A, Decision::Bonus(BonusMode::Attack));
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[71]);
    assert_eq!(d.last_roll(), (A, RollSkill::Lance, 71, 70, false));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    d.dice(&[99]);
    let ev = strike(&mut d, B, Decision::High, &QUIET);
    assert!(!ev.iter().any(|e| matches!(e, Event::BonusExpired { .. })));
}

#[test]
fn joust_r5_defend_adds_to_defense_before_the_cap() {
    // R5 defend: Bo +30; he picks attack, then changes to defend before it is used. He strikes
    // first (6B) with a plain Lance 30 (99 misses). Al's Lance 38 hits: Bo's Shield 40 + 30 =
    // 70, limited to 38 (capping first would give 38 + 30 = 68); 39 fails.
    let mut d = practice(&BO_30);
    d.go(B, Decision::Bonus(BonusMode::Attack));
    d.go(B, Decision::Bonus(BonusMode::Defend));
    assert_eq!(d.m.bonus(B), (30, BonusMode::Defend));
    announce(&mut d, false, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Bonus));
    strike(&mut d, B, Decision::High, &[99]);
    let (roll, target, hit, mods, _) = roll_of(&d, B, RollSkill::Lance);
    assert_eq!((roll, target, hit), (99, 30, false));
    assert!(mods.is_empty());
    assert_eq!(d.m.bonus(B), (30, BonusMode::Defend));
    strike(&mut d, A, Decision::High, &[38, 39]);
    let (roll, target, held, mods, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (39, 38, false, Some(38)));
    assert_eq!(mods, vec![md(ModKind::BonusDefend, 30)]);
    assert!(d.saw(&Event::BonusSpent {
        knight: B,
        amount: 30,
        mode: BonusMode::Defend
    }));
}

#[test]
fn joust_r6_unused_bonus_expires_at_the_pass_end() {
    // R5, R6: Al's weaken +30 waits for his own hit; his Lance 41 misses. Bo's Lance 25 hits
    // and Al's Shield 30, limited to 25, gets nothing from Al's weaken Bonus: 25 holds. The
    // pass ends, the Bonus expires, and pass 2's fresh +30 starts from nothing.
    let mut d = practice(&AL_30);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[41]);
    assert_eq!(d.m.bonus(A), (30, BonusMode::Weaken));
    d.dice(&[25, 25]);
    let ev = strike(&mut d, B, Decision::High, &AL_30);
    let (roll, target, held, mods, _) = roll_of(&d, A, RollSkill::Shield);
    assert_eq!((roll, target, held), (25, 25, true));
    assert!(mods.is_empty());
    let expired = ev
        .iter()
        .position(|e| {
            *e == Event::BonusExpired {
                knight: A,
                amount: 30,
            }
        })
        .expect("the Bonus should expire");
    let pass2 = ev
        .iter()
        .position(|e| *e == Event::PassStarted { pass: 2 })
        .unwrap();
    assert!(expired < pass2);
    assert_eq!(bonuses(&ev), vec![(A, 30, 30)]);
    assert_eq!(d.m.bonus(A), (30, BonusMode::Weaken));
}

#[test]
fn joust_r6_defend_bonus_expires_and_mode_resets() {
    // R5, R6: a defend Bonus never called on (Bo misses) expires; the mode returns to weaken.
    let mut d = practice(&AL_30);
    d.go(A, Decision::Bonus(BonusMode::Defend));
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[41]);
    d.dice(&[99]);
    let ev = strike(&mut d, B, Decision::High, &QUIET);
    assert!(ev.contains(&Event::BonusExpired {
        knight: A,
        amount: 30
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    assert_eq!(
        d.refused(A, Decision::Bonus(BonusMode::Attack)),
        RuleError::NoBonus
    );
}

#[test]
fn joust_r6_bonus_never_carries_into_swordplay() {
    // R6: Al holds +30 in defend mode, so his hit does not weaken Bo (Shield 40 limited to 20,
    // fails on 21). His Bonus expires with the pass and Swordplay starts without it.
    let mut d = practice(&AL_30);
    d.go(A, Decision::Bonus(BonusMode::Defend));
    announce(&mut d, false, false);
    let ev = strike(&mut d, A, Decision::High, &[20, 21]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 21, 20, false));
    assert!(ev.contains(&Event::BonusExpired {
        knight: A,
        amount: 30
    }));
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::Unhorsed
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
}

#[test]
fn joust_r1_r2_target_below_zero_and_no_automatic_success() {
    // R1, R2: Al +45 (R4). Bo's Shield 40 − 45 = −5; the Lance roll 1 does not lower it; a
    // roll of 1 still fails.
    let mut d = practice(&[40, 31, 40, 31]);
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[1, 1]);
    assert_eq!(d.rolls()[4], (A, RollSkill::Lance, 1, 40, true));
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 1, -5, false));
    assert!(d.saw(&Event::Unhorsed { knight: B }));
}

#[test]
fn joust_r1_r2_target_above_100_and_no_automatic_failure() {
    // R1, R2, 7A: Al +45 in attack mode, sweeping: 40 + 25 + 45 = 110; 100 hits. Bo (6A first)
    // missed with 99. Bo's Shield 40, limited to 100, holds on 40.
    let mut d = practice(&[40, 31, 40, 31]);
    d.go(A, Decision::Bonus(BonusMode::Attack));
    announce(&mut d, true, false);
    assert_eq!(first_strike(&d), (Some(B), FirstStrikeRule::Sweep));
    strike(&mut d, B, Decision::High, &[99]);
    d.dice(&[100, 40]);
    strike(&mut d, A, Decision::High, &QUIET);
    let (roll, target, hit, mods, _) = roll_of(&d, A, RollSkill::Lance);
    assert_eq!((roll, target, hit), (100, 110, true));
    assert_eq!(
        mods,
        vec![md(ModKind::Sweep, 25), md(ModKind::BonusAttack, 45)]
    );
    let (roll, target, held, _, _) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held), (40, 40, true));
    assert!(!d.saw(&Event::Unhorsed { knight: B }));
}

// ----- step 9: the fall and its injury (R12) -----

#[test]
fn joust_9_r12_fall_injury_table() {
    // Joust 9, R12: 1–95 nothing, 96–97 weapon arm, 98–99 shield arm, 100 major.
    assert_eq!(fall_injury(1), None);
    assert_eq!(fall_injury(95), None);
    assert_eq!(fall_injury(96), Some(Injury::WeaponArm));
    assert_eq!(fall_injury(97), Some(Injury::WeaponArm));
    assert_eq!(fall_injury(98), Some(Injury::ShieldArm));
    assert_eq!(fall_injury(99), Some(Injury::ShieldArm));
    assert_eq!(fall_injury(100), Some(Injury::Major));
}

fn injuries_seen(d: &Duel) -> Vec<(Side, Injury)> {
    d.events
        .iter()
        .filter_map(|e| match *e {
            Event::Injury { knight, kind } => Some((knight, kind)),
            _ => None,
        })
        .collect()
}

#[test]
fn joust_9_r12_fall_on_95_no_injury() {
    // Joust 9, R12: unhorsed on 95 (target 20): no injury.
    let d = al_unhorses_bo(MatchKind::Practice, 95);
    assert_eq!(injuries_seen(&d), vec![]);
    assert!(d.m.injuries(B).is_empty());
}

#[test]
fn joust_9_r12_fall_on_96_weapon_arm() {
    // Joust 9, R12: 96 → weapon arm.
    let d = al_unhorses_bo(MatchKind::Practice, 96);
    assert_eq!(injuries_seen(&d), vec![(B, Injury::WeaponArm)]);
    assert_eq!(d.m.injuries(B), vec![Injury::WeaponArm]);
}

#[test]
fn joust_9_r12_fall_on_97_weapon_arm() {
    // Joust 9, R12: 97 → weapon arm.
    let d = al_unhorses_bo(MatchKind::Practice, 97);
    assert_eq!(injuries_seen(&d), vec![(B, Injury::WeaponArm)]);
}

#[test]
fn joust_9_r12_fall_on_98_shield_arm() {
    // Joust 9, R12: 98 → shield arm.
    let d = al_unhorses_bo(MatchKind::Practice, 98);
    assert_eq!(injuries_seen(&d), vec![(B, Injury::ShieldArm)]);
    assert_eq!(d.m.injuries(B), vec![Injury::ShieldArm]);
}

#[test]
fn joust_9_r12_fall_on_99_shield_arm() {
    // Joust 9, R12: 99 → shield arm; the match goes on to the practice question.
    let d = al_unhorses_bo(MatchKind::Practice, 99);
    assert_eq!(injuries_seen(&d), vec![(B, Injury::ShieldArm)]);
    assert_eq!(d.m.pending().len(), 2);
}

#[test]
fn joust_9_r12_fall_on_100_major_ends_practice() {
    // Joust 9, R12: 100 → major injury; the practice match ends at once with the Joust's
    // result (Al wins), and no one is asked to fight on.
    let mut d = al_unhorses_bo(MatchKind::Practice, 100);
    assert_eq!(injuries_seen(&d), vec![(B, Injury::Major)]);
    assert_eq!(ended(&d), (Some(A), EndReason::MajorInjury));
    let o = d.m.outcome().unwrap().clone();
    assert_eq!(o.major_injury, [false, true]);
    assert_eq!(o.unhorsed, [false, true]);
    assert!(!o.swordplay);
    assert!(d.m.pending().is_empty());
    assert!(d.saw(&Event::MatchEnded {
        winner: Some(A),
        reason: EndReason::MajorInjury
    }));
    assert_eq!(d.refused(A, Decision::Swordplay), RuleError::MatchOver);
    d.all_dice_used();
}

#[test]
fn joust_9_r12_high_roll_that_holds_is_no_injury() {
    // Joust 9, R12: only a fallen fighter is injured. Gil (Lance 75) sweeps: 100; his Lance 97
    // hits; Bo's Shield 99, limited to 97, holds on 96: no fall, no injury.
    let gil = knight("Gil", [75, 40, 40, 30, 30, 30], [0; 7]);
    let bo = knight("Bo", [30, 30, 30, 99, 40, 40], [0; 7]);
    let mut d = Duel::start(MatchKind::Practice, gil, bo, [None, None], &QUIET);
    announce(&mut d, true, false);
    strike(&mut d, B, Decision::High, &[99]);
    d.dice(&[97, 96]);
    strike(&mut d, A, Decision::High, &QUIET);
    let (roll, target, held, _, cap) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held, cap), (96, 97, true, Some(97)));
    assert_eq!(injuries_seen(&d), vec![]);
    assert!(!d.saw(&Event::Unhorsed { knight: B }));
    assert_eq!(d.m.pass(), 2);
}

#[test]
fn joust_r12_weapon_arm_halves_sword_in_the_swordplay() {
    // R12, R2: Bo's weapon arm (97) carries into the Swordplay: Sword 40 halved to 20. Bo, just
    // unhorsed, goes first (Swordplay 1A); Attack 20 ≤ 20 succeeds.
    let mut d = al_unhorses_bo(MatchKind::Practice, 97);
    d.go(B, Decision::Swordplay);
    d.go(A, Decision::Swordplay);
    assert_eq!(one_prompt(&d), (B, PromptKind::Action));
    d.dice(&[20]);
    d.go(B, Decision::Attack);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 20, 20, true));
}

#[test]
fn joust_r12_shield_arm_bars_block_in_the_swordplay() {
    // R12, R16: Bo's shield arm (98) carries into the Swordplay. Bo's Observe 99 > 30 fails; Al
    // attacks, Sword 10 ≤ 30; Bo may not Block.
    let mut d = al_unhorses_bo(MatchKind::Practice, 98);
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    d.dice(&[99]);
    d.go(B, Decision::Observe);
    d.dice(&[10]);
    d.go(A, Decision::Attack);
    let p = d.m.pending();
    assert_eq!((p[0].side, p[0].kind), (B, PromptKind::Counter));
    assert_eq!(
        p[0].options,
        vec![Decision::Dodge, Decision::Parry, Decision::Yield]
    );
    assert_eq!(
        d.refused(B, Decision::Block),
        RuleError::CounterBarred {
            counter: Decision::Block,
            injury: Injury::ShieldArm
        }
    );
}

#[test]
fn joust_r12_r40_cpk_just_after_the_injury_outside_the_limit() {
    // R12, R20, R40: Bo spends his pass attempt on Hypercognition (50 > 20 fails, just before
    // his Observe), then arms CPK. He falls on 97; CPK rolls just after the injury (15 ≤ 20)
    // although his attempt is spent, and heals it.
    let mut p = psi(PsiSkill::Cpk, 20);
    p[2] = 20;
    let bo = knight("Bo", [30, 30, 30, 40, 40, 40], p);
    let mut d = Duel::start(
        MatchKind::Practice,
        al(),
        bo,
        [None, Some(PsiSkill::Hypercognition)],
        &[90, 50, 90, 92, 91],
    );
    assert_eq!(d.rolls()[1], (B, RollSkill::Observe, 90, 30, false));
    assert_eq!(d.m.psi_attempts_left(B), 0);
    d.go(B, Decision::Psi(Some(PsiSkill::Cpk)));
    announce(&mut d, false, false);
    let ev = strike(&mut d, A, Decision::High, &[20, 97, 15]);
    let tail: Vec<Event> = ev
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Unhorsed { .. }
                    | Event::Injury { .. }
                    | Event::Psi { .. }
                    | Event::InjuryHealed { .. }
            )
        })
        .cloned()
        .collect();
    assert_eq!(
        tail,
        vec![
            Event::Unhorsed { knight: B },
            Event::Injury {
                knight: B,
                kind: Injury::WeaponArm
            },
            Event::Psi {
                knight: B,
                skill: PsiSkill::Cpk,
                roll: 15,
                target: 20,
                success: true
            },
            Event::InjuryHealed {
                knight: B,
                kind: Injury::WeaponArm
            },
        ]
    );
    assert!(d.m.injuries(B).is_empty());
    d.all_dice_used();
}

// ----- psi in the Joust (R20, R40) -----

#[test]
fn joust_r40_telepathy_just_before_ride() {
    // R40: Al's Telepathy rolls just before his own Ride (15 ≤ 20): Ride 40 + 25 = 65; 65
    // succeeds, Bo's 91 fails: Al +15 (2A).
    let al = knight("Al", [40, 40, 40, 30, 30, 30], psi(PsiSkill::Telepathy, 20));
    let d = Duel::start(
        MatchKind::Practice,
        al,
        bo(),
        [Some(PsiSkill::Telepathy), None],
        &[90, 90, 15, 65, 91],
    );
    assert_eq!(d.rolls()[2], (A, RollSkill::Ride, 65, 65, true));
    assert_eq!(
        roll_of(&d, A, RollSkill::Ride).3,
        vec![md(ModKind::Telepathy, 25)]
    );
    let psi_at = d
        .events
        .iter()
        .position(|e| matches!(e, Event::Psi { .. }))
        .unwrap();
    let obs_b = d
        .events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Roll {
                    knight: B,
                    skill: RollSkill::Observe,
                    ..
                }
            )
        })
        .unwrap();
    let ride_a = d
        .events
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Roll {
                    knight: A,
                    skill: RollSkill::Ride,
                    ..
                }
            )
        })
        .unwrap();
    assert!(obs_b < psi_at && psi_at < ride_a);
    assert_eq!(bonuses(&d.events), vec![(A, 15, 15)]);
    d.all_dice_used();
}

#[test]
fn joust_r40_reaction_just_after_the_psi_roll() {
    // R40, R23: Bo's Negapsi answers just after Al's Telepathy (15 ≤ 20); 10 ≤ 20 and 10 < 15:
    // reversed, Ride 40 − 25 = 15; 16 fails.
    let al = knight("Al", [40, 40, 40, 30, 30, 30], psi(PsiSkill::Telepathy, 20));
    let bo = knight("Bo", [30, 30, 30, 40, 40, 40], psi(PsiSkill::Negapsi, 20));
    let d = Duel::start(
        MatchKind::Practice,
        al,
        bo,
        [Some(PsiSkill::Telepathy), Some(PsiSkill::Negapsi)],
        &[90, 90, 15, 10, 16, 91],
    );
    let seq: Vec<&Event> = d
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Psi { .. } | Event::PsiReversed { .. } | Event::Roll { .. }
            )
        })
        .collect();
    assert!(matches!(
        seq[2],
        Event::Psi {
            knight: A,
            skill: PsiSkill::Telepathy,
            roll: 15,
            success: true,
            ..
        }
    ));
    assert!(matches!(
        seq[3],
        Event::Psi {
            knight: B,
            skill: PsiSkill::Negapsi,
            roll: 10,
            success: true,
            ..
        }
    ));
    assert_eq!(
        *seq[4],
        Event::PsiReversed {
            knight: A,
            skill: PsiSkill::Telepathy,
            by: B
        }
    );
    assert_eq!(d.rolls()[2], (A, RollSkill::Ride, 16, 15, false));
    assert_eq!(d.rolls()[3], (B, RollSkill::Ride, 91, 30, false));
    d.all_dice_used();
}

#[test]
fn joust_r20_one_psi_attempt_per_pass_reactions_included() {
    // R20, R21: Al's Hypercognition (10 ≤ 20) is cancelled by Bo's Catapsi (5 ≤ 20), so Al's
    // Observe 90 is rolled plainly and fails. That reaction was Bo's one attempt of the pass:
    // the Apportation he arms next stays armed through his Shield and his Lance, and fires in
    // pass 2 before his Lance (10 ≤ 20): 30 + 25 = 55, and 55 hits.
    let al = knight(
        "Al",
        [40, 40, 40, 30, 30, 30],
        psi(PsiSkill::Hypercognition, 20),
    );
    let mut p = psi(PsiSkill::Apportation, 20);
    p[5] = 20;
    let bo = knight("Bo", [30, 30, 30, 40, 40, 40], p);
    let mut d = Duel::start(
        MatchKind::Practice,
        al,
        bo,
        [Some(PsiSkill::Hypercognition), Some(PsiSkill::Catapsi)],
        &[10, 5, 90, 90, 92, 91],
    );
    assert!(d.saw(&Event::PsiCancelled {
        knight: A,
        skill: PsiSkill::Hypercognition,
        by: B
    }));
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 90, 40, false));
    assert_eq!(d.m.psi_attempts_left(A), 0);
    assert_eq!(d.m.psi_attempts_left(B), 0);
    d.go(B, Decision::Psi(Some(PsiSkill::Apportation)));
    announce(&mut d, false, false);
    // Pass 1: Al's Lance 20 hits; Bo's Shield 40 limited to 20, no Apportation; 20 holds.
    strike(&mut d, A, Decision::High, &[20, 20]);
    let (roll, target, held, mods, _) = roll_of(&d, B, RollSkill::Shield);
    assert_eq!((roll, target, held), (20, 20, true));
    assert!(mods.is_empty());
    d.dice(&[99]);
    strike(&mut d, B, Decision::High, &QUIET);
    assert_eq!(roll_of(&d, B, RollSkill::Lance).1, 30);
    assert_eq!(
        d.events
            .iter()
            .filter(|e| matches!(e, Event::Psi { .. }))
            .count(),
        2
    );
    // Pass 2: a fresh attempt; Apportation is still armed.
    assert_eq!(d.m.pass(), 2);
    assert_eq!(d.m.psi_attempts_left(B), 1);
    assert_eq!(d.m.armed(B), Some(PsiSkill::Apportation));
    announce(&mut d, false, false);
    strike(&mut d, A, Decision::High, &[99]);
    d.dice(&[10, 55, 30]);
    strike(&mut d, B, Decision::High, &QUIET);
    assert!(d.saw(&Event::Psi {
        knight: B,
        skill: PsiSkill::Apportation,
        roll: 10,
        target: 20,
        success: true
    }));
    let (roll, target, hit, mods, _) = roll_of(&d, B, RollSkill::Lance);
    assert_eq!((roll, target, hit), (55, 55, true));
    assert_eq!(mods, vec![md(ModKind::Apportation, 25)]);
    let (roll, target, held, _, _) = roll_of(&d, A, RollSkill::Shield);
    assert_eq!((roll, target, held), (30, 30, true));
    assert_eq!(d.m.armed(B), None);
    assert_eq!(d.m.pass(), 3);
    d.all_dice_used();
}

// ----- steps 9–10: the end of the Joust, by kind of match -----

#[test]
fn joust_9_r27_three_passes_then_practice_asks_and_decline_is_a_draw() {
    // Joust 9, R27, R41: three passes without an unhorsing; practice asks both; a decline
    // ends it as a draw.
    let mut d = practice(&QUIET);
    quiet_strikes(&mut d, &QUIET);
    assert_eq!(d.m.pass(), 2);
    quiet_strikes(&mut d, &QUIET);
    assert_eq!(d.m.pass(), 3);
    quiet_strikes(&mut d, &[]);
    let p = d.m.pending();
    assert_eq!(p.len(), 2);
    assert!(p.iter().all(|p| p.kind == PromptKind::FightOn));
    assert!(!d.saw(&Event::PassStarted { pass: 4 }));
    d.go(B, Decision::Decline);
    assert_eq!(ended(&d), (None, EndReason::NoUnhorsing));
    let o = d.m.outcome().unwrap();
    assert_eq!(o.passes, 3);
    assert_eq!(o.unhorsed, [false, false]);
    assert!(!o.swordplay);
    d.all_dice_used();
}

#[test]
fn joust_10_r14_r35_lists_three_passes_then_swordplay_by_roll_off() {
    // Joust 10, R35, R14: lists, three passes, no unhorsing: Swordplay with no question asked;
    // roll-off 40/40 ties and rolls again; Al 70, Bo 20: Bo, lower, goes first.
    let mut d = start(MatchKind::Lists, &QUIET);
    quiet_strikes(&mut d, &QUIET);
    quiet_strikes(&mut d, &QUIET);
    quiet_strikes(&mut d, &[40, 40, 70, 20]);
    let offs: Vec<(Side, u32)> = d
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::RollOff { knight, roll } => Some((knight, roll)),
            _ => None,
        })
        .collect();
    assert_eq!(offs, vec![(A, 40), (B, 40), (A, 70), (B, 20)]);
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::RollOff
    }));
    assert!(d.m.in_swordplay());
    assert_eq!(one_prompt(&d), (B, PromptKind::Action));
    assert_eq!(d.m.pass(), 3);
    d.all_dice_used();
}

#[test]
fn joust_9_r35_lists_unhorsing_ends_the_match() {
    // Joust 9, R35: in the lists an unhorsed knight loses at once: no Swordplay, no question.
    let d = al_unhorses_bo(MatchKind::Lists, 50);
    assert_eq!(ended(&d), (Some(A), EndReason::Unhorsed));
    assert!(d.m.pending().is_empty());
    assert_eq!(d.m.outcome().unwrap().passes, 1);
    d.all_dice_used();
}

#[test]
fn joust_10_r37_melee_is_one_pass() {
    // Joust 10, R37: a melee pass with no unhorsing ends after one pass, no winner.
    let mut d = start(MatchKind::Melee, &QUIET);
    quiet_strikes(&mut d, &[]);
    assert_eq!(ended(&d), (None, EndReason::PassOver));
    assert_eq!(d.m.outcome().unwrap().passes, 1);
    assert!(!d.saw(&Event::PassStarted { pass: 2 }));
    d.all_dice_used();
}

#[test]
fn joust_10_r37_melee_unhorsing_wins_the_pass() {
    // R37: the knight still mounted wins the pass.
    let d = al_unhorses_bo(MatchKind::Melee, 50);
    assert_eq!(ended(&d), (Some(A), EndReason::PassOver));
    assert_eq!(d.m.outcome().unwrap().unhorsed, [false, true]);
}

#[test]
fn joust_r27_unhorsing_decides_without_swordplay() {
    // R27: no Swordplay, so the unhorsing decides: Al wins.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(A, Decision::Decline);
    assert_eq!(ended(&d), (Some(A), EndReason::Unhorsed));
}

#[test]
fn joust_r27_swordplay_decides_when_it_follows() {
    // R27: Bo was unhorsed, but the Swordplay decides: Bo (first, 1A) fails an Observe (99 > 30)
    // and Al yields on his turn: Bo wins.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    d.dice(&[99]);
    d.go(B, Decision::Observe);
    d.go(A, Decision::Yield);
    assert_eq!(ended(&d), (Some(B), EndReason::Yield));
    let o = d.m.outcome().unwrap();
    assert_eq!(o.unhorsed, [false, true]);
    assert!(o.swordplay);
}

// ----- R41: fighting on -----

#[test]
fn joust_r41_both_asked_at_once_answer_in_either_order() {
    // R41: both prompts at once, default Decline; the challenged answers first.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    let p = d.m.pending();
    assert_eq!(p.len(), 2);
    assert_eq!((p[0].side, p[1].side), (A, B));
    for prompt in &p {
        assert_eq!(prompt.kind, PromptKind::FightOn);
        assert_eq!(prompt.default, Decision::Decline);
        assert!(prompt.options.contains(&Decision::Swordplay));
        assert!(prompt.options.contains(&Decision::Decline));
    }
    d.go(B, Decision::Swordplay);
    assert!(d.saw(&Event::FightOn {
        knight: B,
        agreed: true
    }));
    assert_eq!(one_prompt(&d), (A, PromptKind::FightOn));
    d.go(A, Decision::Swordplay);
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::Unhorsed
    }));
    // And the challenger first.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(A, Decision::Swordplay);
    assert_eq!(one_prompt(&d), (B, PromptKind::FightOn));
    d.go(B, Decision::Swordplay);
    assert!(d.m.in_swordplay());
}

#[test]
fn joust_r41_a_decline_ends_at_once() {
    // R41: the first answer is a decline: over, the other is not asked.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(B, Decision::Decline);
    assert!(d.m.is_over());
    assert!(d.m.pending().is_empty());
    assert_eq!(d.refused(A, Decision::Swordplay), RuleError::MatchOver);
    // A decline after an agreement ends it too.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Decline);
    assert_eq!(ended(&d), (Some(A), EndReason::Unhorsed));
    assert!(!d.m.outcome().unwrap().swordplay);
}

#[test]
fn joust_r41_timeout_declines() {
    // R41: a timeout counts as declining, for the default policy too.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(A, Decision::Swordplay);
    assert_eq!(d.m.default_decision(B), Some(Decision::Decline));
    assert_eq!(Policy::default().decide(&d.m, B), Some(Decision::Decline));
    let dflt = d.m.default_decision(B).unwrap();
    d.go(B, dflt);
    assert_eq!(ended(&d), (Some(A), EndReason::Unhorsed));
}

#[test]
fn joust_r41_answering_twice_is_refused() {
    // R41: one answer each.
    let mut d = al_unhorses_bo(MatchKind::Practice, 50);
    d.go(B, Decision::Swordplay);
    assert_eq!(
        d.refused(B, Decision::Swordplay),
        RuleError::AlreadyAnswered
    );
    assert_eq!(d.refused(B, Decision::Decline), RuleError::AlreadyAnswered);
}

#[test]
fn joust_pending_defaults() {
    // R11, R41, and the default policy: Sweep → NoSweep, Strike → High, FightOn → Decline.
    let mut d = practice(&QUIET);
    assert_eq!(d.m.pending()[0].default, Decision::NoSweep);
    assert_eq!(d.m.default_decision(A), Some(Decision::NoSweep));
    assert_eq!(d.m.default_decision(B), None);
    announce(&mut d, false, false);
    assert_eq!(d.m.pending()[0].default, Decision::High);
    strike(&mut d, A, Decision::High, &[20, 50]);
    assert!(d.m.pending().iter().all(|p| p.default == Decision::Decline));
}

// ----- R19: yield -----

#[test]
fn joust_r19_yield_at_a_sweep_announcement() {
    // R19: Al yields at his own sweep announcement and loses.
    let mut d = practice(&QUIET);
    let ev = d.go(A, Decision::Yield);
    assert!(ev.contains(&Event::Yielded { knight: A }));
    assert!(ev.contains(&Event::MatchEnded {
        winner: Some(B),
        reason: EndReason::Yield
    }));
    assert_eq!(ended(&d), (Some(B), EndReason::Yield));
}

#[test]
fn joust_r19_yield_at_a_strike_and_only_at_your_own_decision() {
    // R19: Bo may not yield while Al's strike is awaited; at his own strike he may.
    let mut d = practice(&QUIET);
    announce(&mut d, false, false);
    assert_eq!(
        d.refused(B, Decision::Yield),
        RuleError::NotYourTurn {
            awaited: A,
            kind: PromptKind::Strike
        }
    );
    strike(&mut d, A, Decision::High, &[99]);
    d.go(B, Decision::Yield);
    assert_eq!(ended(&d), (Some(A), EndReason::Yield));
    assert_eq!(d.m.outcome().unwrap().passes, 1);
}

// ----- illegal decisions -----

#[test]
fn joust_illegal_wrong_fighter() {
    // Steps 4–5: Al's announcement is awaited.
    let mut d = practice(&QUIET);
    assert_eq!(
        d.refused(B, Decision::NoSweep),
        RuleError::NotYourTurn {
            awaited: A,
            kind: PromptKind::Sweep
        }
    );
}

#[test]
fn joust_illegal_wrong_prompt_kind() {
    // An Attack, a High or a fight-on answer is no sweep announcement.
    let mut d = practice(&QUIET);
    let options = vec![Decision::Sweep, Decision::NoSweep, Decision::Yield];
    for decision in [Decision::Attack, Decision::High, Decision::Swordplay] {
        assert_eq!(
            d.refused(A, decision),
            RuleError::NotAnOption {
                decision,
                kind: PromptKind::Sweep,
                options: options.clone()
            }
        );
    }
    // And a sweep is no strike.
    announce(&mut d, false, false);
    assert_eq!(
        d.refused(A, Decision::Sweep),
        RuleError::NotAnOption {
            decision: Decision::Sweep,
            kind: PromptKind::Strike,
            options: vec![Decision::High, Decision::Low, Decision::Yield]
        }
    );
}

#[test]
fn joust_illegal_bonus_mode_without_a_bonus() {
    // R5: /bonus with no Bonus is refused.
    let mut d = practice(&QUIET);
    assert_eq!(
        d.refused(A, Decision::Bonus(BonusMode::Attack)),
        RuleError::NoBonus
    );
    assert_eq!(
        d.refused(B, Decision::Bonus(BonusMode::Weaken)),
        RuleError::NoBonus
    );
}

#[test]
fn joust_illegal_unlearned_psi() {
    // R21: only a psi skill the knight has can be armed.
    let mut d = practice(&QUIET);
    assert_eq!(
        d.refused(A, Decision::Psi(Some(PsiSkill::Telepathy))),
        RuleError::PsiNotLearned(PsiSkill::Telepathy)
    );
    assert_eq!(d.m.armed(A), None);
}

#[test]
fn joust_illegal_anything_after_the_match() {
    // Once over, every decision is refused.
    let mut d = al_unhorses_bo(MatchKind::Lists, 50);
    for (side, decision) in [
        (A, Decision::High),
        (B, Decision::Sweep),
        (A, Decision::Swordplay),
        (B, Decision::Yield),
        (A, Decision::Bonus(BonusMode::Attack)),
        (B, Decision::Psi(None)),
    ] {
        assert_eq!(d.refused(side, decision), RuleError::MatchOver);
    }
}

// ----- the serialized events -----

#[test]
fn joust_events_serialize_to_the_contract() {
    // The `--events` contract: snake_case "type", knights by display name.
    let names = ["Al".to_string(), "Bo".to_string()];
    let mut d = practice(&AL_30);
    announce(&mut d, false, false);
    // Bo's Shield 40 − 30 = 10, limited to 20 stays 10; 97 fails: unhorsed, weapon arm.
    strike(&mut d, A, Decision::High, &[20, 97]);
    d.go(A, Decision::Decline);
    let js: Vec<serde_json::Value> = d
        .events
        .iter()
        .map(|e| serde_json::to_value(e.named(&names)).unwrap())
        .collect();
    let of = |t: &str| -> Vec<&serde_json::Value> {
        js.iter().filter(|v| v["type"] == json!(t)).collect()
    };
    let roll = of("roll")[0];
    assert_eq!(roll["knight"], json!("Al"));
    assert_eq!(roll["skill"], json!("observe"));
    assert_eq!(roll["roll"], json!(40));
    assert_eq!(roll["target"], json!(40));
    assert_eq!(roll["success"], json!(true));
    let shield = of("roll")
        .into_iter()
        .find(|v| v["skill"] == json!("shield"))
        .unwrap();
    assert_eq!(shield["knight"], json!("Bo"));
    assert_eq!(shield["roll"], json!(97));
    assert_eq!(shield["target"], json!(10));
    assert_eq!(shield["success"], json!(false));
    let bonus = of("bonus")[0];
    assert_eq!(bonus["knight"], json!("Al"));
    assert_eq!(bonus["amount"], json!(30));
    assert_eq!(bonus["total"], json!(30));
    assert_eq!(of("unhorsed")[0]["knight"], json!("Bo"));
    let injury = of("injury")[0];
    assert_eq!(injury["knight"], json!("Bo"));
    assert_eq!(injury["kind"], json!("weapon_arm"));
    let end = of("match_ended")[0];
    assert_eq!(end["winner"], json!("Al"));
    assert_eq!(end["reason"], json!("unhorsed"));
}

#[test]
fn joust_events_serialize_a_draw_with_null_winner() {
    // A draw's match_ended has "winner": null (R13, R27).
    let names = ["Cy".to_string(), "Di".to_string()];
    let mut d = both_fall(MatchKind::Practice, &[]);
    d.go(B, Decision::Decline);
    let end = d
        .events
        .iter()
        .map(|e| serde_json::to_value(e.named(&names)).unwrap())
        .find(|v| v["type"] == json!("match_ended"))
        .unwrap();
    assert_eq!(end["winner"], serde_json::Value::Null);
    assert!(end.as_object().unwrap().contains_key("winner"));
    assert_eq!(end["reason"], json!("both_unhorsed"));
    let unhorsed: Vec<serde_json::Value> = d
        .events
        .iter()
        .filter(|e| matches!(e, Event::Unhorsed { .. }))
        .map(|e| serde_json::to_value(e.named(&names)).unwrap())
        .collect();
    assert_eq!(
        unhorsed,
        vec![
            json!({"type": "unhorsed", "knight": "Di"}),
            json!({"type": "unhorsed", "knight": "Cy"})
        ]
    );
}
