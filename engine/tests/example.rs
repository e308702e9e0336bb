//! The worked example of EXAMPLES.md, roll by roll.

mod common;
use common::*;
use herald_engine::psiknight::event::{
    EndReason, Event, FirstPlayerRule, FirstStrikeRule, Injury, RollSkill,
};
use herald_engine::psiknight::{Decision, MatchKind, PromptKind, PsiSkill};

#[test]
fn the_worked_example() {
    // Dara challenges Eoin and arms Hypercognition before the first die (R21).
    let mut d = Duel::start(
        MatchKind::Practice,
        dara(),
        eoin(),
        [Some(PsiSkill::Hypercognition), None],
        &[15, 77, 12, 33, 35],
    );
    // 15: Hypercognition fires before Dara's own Observe (R21, R22); 77 succeeds anyway (R18).
    assert!(d.saw(&Event::Psi {
        knight: A,
        skill: PsiSkill::Hypercognition,
        roll: 15,
        target: 20,
        success: true
    }));
    assert_eq!(
        d.rolls(),
        vec![
            (A, RollSkill::Observe, 77, 40, true),
            (B, RollSkill::Observe, 12, 30, true),
            (A, RollSkill::Ride, 33, 30, false),
            (B, RollSkill::Ride, 35, 40, true),
        ]
    );
    // Eoin: +10 (low roller, 12 < 77: Joust 1B, R18) and +15 (2A): 25, nothing to net (R7).
    assert!(d.saw(&Event::Bonus {
        knight: B,
        amount: 10,
        total: 10
    }));
    assert!(d.saw(&Event::Bonus {
        knight: B,
        amount: 15,
        total: 25
    }));
    // Eoin's Ride roll 35 beat 33: he announces first (step 4, R8).
    let p = d.m.pending();
    assert_eq!((p[0].side, p[0].kind), (B, PromptKind::Sweep));
    d.go(B, Decision::Sweep);
    d.go(A, Decision::NoSweep);
    // 6A: Dara strikes first.
    assert!(d.saw(&Event::FirstStrike {
        knight: Some(A),
        rule: FirstStrikeRule::Sweep
    }));
    d.go(A, Decision::Psi(Some(PsiSkill::Apportation)));
    d.dice(&[50, 60, 97]);
    d.go(A, Decision::Low);
    // Her one attempt of this pass is spent (R20): Apportation stays armed (R21).
    assert_eq!(d.m.armed(A), Some(PsiSkill::Apportation));
    assert_eq!(d.last_roll(), (A, RollSkill::Lance, 50, 30, false));
    d.go(B, Decision::High);
    let rolls = d.rolls();
    assert_eq!(rolls[rolls.len() - 2], (B, RollSkill::Lance, 60, 65, true));
    // 30 − 25 (Eoin's weaken Bonus) = 5, limited to 60 stays 5 (R2, R5, R10).
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 97, 5, false));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
    assert!(d.saw(&Event::Injury {
        knight: A,
        kind: Injury::WeaponArm
    }));
    // R41: both asked at once.
    let p = d.m.pending();
    assert_eq!(p.len(), 2);
    assert!(p.iter().all(|p| p.kind == PromptKind::FightOn));
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    // Swordplay 1A: the one just unhorsed goes first.
    assert!(d.saw(&Event::SwordplayStarted {
        first: A,
        rule: FirstPlayerRule::Unhorsed
    }));
    d.dice(&[25, 28]);
    d.go(A, Decision::Observe);
    assert_eq!(d.last_roll(), (A, RollSkill::Observe, 25, 40, true));
    d.go(B, Decision::Dodge);
    assert_eq!(d.last_roll(), (B, RollSkill::Dodge, 28, 30, true));
    // 2C: the defender succeeded but rolled higher: +10.
    assert!(d.saw(&Event::Bonus {
        knight: A,
        amount: 10,
        total: 10
    }));
    d.dice(&[30, 35]);
    d.go(B, Decision::Attack);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 30, 30, true));
    // Dara cannot Block with her weapon arm (R16).
    let p = d.m.pending();
    assert_eq!(
        p[0].options,
        vec![Decision::Dodge, Decision::Parry, Decision::Yield]
    );
    d.go(A, Decision::Dodge);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 35, 40, true));
    // Her weaken Bonus waits for her own next attack that hits (R5, R6); Apportation stays armed.
    assert_eq!(d.m.bonus(A).0, 10);
    assert_eq!(d.m.armed(A), Some(PsiSkill::Apportation));
    d.all_dice_used();
    assert!(!d.m.is_over());
    // And her Sword is halved to 20 (R2): a Yield ends it.
    d.go(A, Decision::Yield);
    assert_eq!(d.m.outcome().unwrap().winner, Some(B));
    assert_eq!(d.m.outcome().unwrap().reason, EndReason::Yield);
}
