//! The project's own rulings for fights (docs/rulings.md, R120–R128).

mod common;
use common::*;
use herald_engine::psiknight::event::{EndReason, Event, FirstPlayerRule, Injury};
use herald_engine::psiknight::{Decision, MatchKind};

/// Cy (Lance 40, Ride 30) against Di (Lance 30, Ride 40): both best 40, so first strike is 6D
/// (R9). Observe 90, 90 and Ride 92, 91 all fail; no Bonus; Cy announces first; no sweeps.
fn tied(kind: MatchKind) -> Duel {
    let cy = knight("Cy", [40, 30, 30, 30, 30, 40], [0; 7]);
    let di = knight("Di", [30, 40, 30, 30, 40, 30], [0; 7]);
    let mut d = Duel::start(kind, cy, di, [None, None], &[90, 90, 92, 91]);
    d.go(A, Decision::NoSweep);
    d.go(B, Decision::NoSweep);
    d
}

/// Both fall in the 6D pass: Cy's Lance 20 hits High and Di's Shield (limited to 20) fails on
/// `di_roll`; Di's Lance 10 hits Low and Cy's Ride (limited to 10) fails on `cy_roll`.
fn both_fall(kind: MatchKind, di_roll: u32, cy_roll: u32) -> Duel {
    let mut d = tied(kind);
    d.dice(&[20, di_roll]);
    d.go(A, Decision::High);
    d.dice(&[10, cy_roll]);
    d.go(B, Decision::Low);
    assert!(d.saw(&Event::Unhorsed { knight: A }) && d.saw(&Event::Unhorsed { knight: B }));
    d
}

#[test]
fn r120_lists_double_fall_with_one_major_injury_goes_to_the_one_who_can_go_on() {
    // R120, R12: Di falls on 100 (major injury), Cy on 11 (none): Cy wins, no Swordplay.
    let d = both_fall(MatchKind::Lists, 100, 11);
    assert!(d.saw(&Event::Injury {
        knight: B,
        kind: Injury::Major
    }));
    let o = d.m.outcome().expect("the match is over");
    assert_eq!(o.winner, Some(A));
    assert_eq!(o.reason, EndReason::MajorInjury);
    assert!(!o.swordplay);
    assert_eq!(o.major_injury, [false, true]);
    d.all_dice_used();
}

#[test]
fn r120_lists_double_fall_with_two_major_injuries_has_no_winner() {
    // R120: both fall on 100: no one can fight on.
    let d = both_fall(MatchKind::Lists, 100, 100);
    let o = d.m.outcome().expect("the match is over");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, EndReason::MajorInjury);
    assert_eq!(o.major_injury, [true, true]);
}

#[test]
fn r120_practice_double_fall_with_a_major_injury_is_a_draw() {
    // R120, R12, R13: in practice the Joust's result stands: both fell, a draw, no question asked.
    let d = both_fall(MatchKind::Practice, 100, 11);
    let o = d.m.outcome().expect("the match is over");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, EndReason::MajorInjury);
    assert!(d.m.pending().is_empty());
}

#[test]
fn r121_a_roll_off_that_ties_a_hundred_times_goes_to_the_challenger() {
    // R121, R14: the Lists double fall goes to Swordplay by roll-off; 200 rolls of 50 tie 100
    // times, and the challenger goes first instead of rolling for ever.
    let mut d = tied(MatchKind::Lists);
    d.dice(&[20, 50]);
    d.go(A, Decision::High);
    let mut rolls = vec![10, 11];
    rolls.extend(std::iter::repeat_n(50, 200));
    d.dice(&rolls);
    d.go(B, Decision::Low);
    assert!(d.saw(&Event::SwordplayStarted {
        first: A,
        rule: FirstPlayerRule::RollOff
    }));
    let offs = d
        .events
        .iter()
        .filter(|e| matches!(e, Event::RollOff { .. }))
        .count();
    assert_eq!(offs, 200);
    d.all_dice_used();
}
