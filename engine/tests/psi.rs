//! The seven psi skills at each of their moments (R22), succeeding and failing; the limits (R20),
//! declarations (R21), Catapsi and Negapsi (R23, R24) and psi against Joust injuries (R12).
//! Every number is worked from the rules.

mod common;
use common::*;
use herald_engine::psiknight::event::{
    EndReason, Event, FirstStrikeRule, Injury, ModKind, Modifier, RollSkill,
};
use herald_engine::psiknight::{
    BonusMode, Decision, KnightSheet, MatchKind, Opening, PromptKind, PsiSkill, RuleError, Side,
};

use PsiSkill::{Apportation, Catapsi, Cpk, Hypercognition, Mesmerism, Negapsi, Telepathy};

/// Ash, the challenger: Lance 30, Ride 30, Observe 40, Shield 35, Dodge 45, Sword 50; every psi
/// skill at 20.
fn ash() -> KnightSheet {
    knight("Ash", [30, 30, 40, 35, 45, 50], [20; 7])
}

/// Bryn, the challenged: Lance 40, Ride 40, Observe 30, Shield 40, Dodge 30, Sword 45; every psi
/// skill at 30.
fn bryn() -> KnightSheet {
    knight("Bryn", [40, 40, 30, 40, 30, 45], [30; 7])
}

/// A practice Joust of Ash against Bryn with `armed` before the first die (R21).
fn joust(armed: [Option<PsiSkill>; 2], rolls: &[u32]) -> Duel {
    Duel::start(MatchKind::Practice, ash(), bryn(), armed, rolls)
}

/// Straight into Swordplay: Bryn goes first (1B).
fn swordplay(armed: [Option<PsiSkill>; 2]) -> Duel {
    Duel::start_with(
        MatchKind::Practice,
        Opening::Swordplay,
        ash(),
        bryn(),
        armed,
        &[],
    )
}

/// The quiet start of a pass: Observe 95 and 95, Ride 95 and 95 all fail. R8: the Ride rolls tie
/// and Bryn's Ride 40 beats 30, so he announces first; with no sweep and no Bonus, 6C gives Bryn
/// (40) first strike over Ash (30).
const QUIET: [u32; 4] = [95; 4];

/// Both announce no sweep, Bryn first.
fn no_sweeps(d: &mut Duel) {
    d.go(B, Decision::NoSweep);
    d.go(A, Decision::NoSweep);
}

fn play(d: &mut Duel, side: Side, decision: Decision, rolls: &[u32]) -> Vec<Event> {
    d.dice(rolls);
    d.go(side, decision)
}

/// Every psi roll as (knight, skill, roll, target, success).
fn psi_rolls(d: &Duel) -> Vec<(Side, PsiSkill, u32, i32, bool)> {
    d.events
        .iter()
        .filter_map(|e| match *e {
            Event::Psi {
                knight,
                skill,
                roll,
                target,
                success,
            } => Some((knight, skill, roll, target, success)),
            _ => None,
        })
        .collect()
}

/// The serialized "type" of each event: the order of what happened.
fn types(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The last roll with its modifiers and automatic flag.
fn last_roll_full(d: &Duel) -> (RollSkill, u32, i32, Vec<Modifier>, Option<bool>) {
    d.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Roll {
                skill,
                roll,
                target,
                modifiers,
                automatic,
                ..
            } => Some((*skill, *roll, *target, modifiers.to_vec(), *automatic)),
            _ => None,
        })
        .expect("no roll yet")
}

fn modifier(kind: ModKind, value: i32) -> Modifier {
    Modifier { kind, value }
}

// ----- Apportation: before your own Lance, Sword (Attack, Press, Parry) or Shield roll -----

#[test]
fn apportation_before_own_lance_succeeds_r22() {
    // R22: Apportation 30 ≤ 30, then Lance 40 + 25 = 65: 65 hits; Ash's Shield 35 (limited to
    // 65) holds with 35.
    let mut d = joust([None, Some(Apportation)], &QUIET);
    no_sweeps(&mut d);
    let ev = play(&mut d, B, Decision::High, &[30, 65, 35]);
    assert_eq!(types(&ev), ["strike", "psi", "roll", "roll"]);
    assert_eq!(psi_rolls(&d), vec![(B, Apportation, 30, 30, true)]);
    assert_eq!(
        d.rolls()[4..],
        [
            (B, RollSkill::Lance, 65, 65, true),
            (A, RollSkill::Shield, 35, 35, true)
        ]
    );
    // R21: used up.
    assert_eq!(d.m.armed(B), None);
    d.all_dice_used();
}

#[test]
fn apportation_before_own_lance_fails_r22() {
    // R22: Apportation 31 > 30 fails: Lance stays 40, and 65 misses.
    let mut d = joust([None, Some(Apportation)], &QUIET);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[31, 65]);
    assert_eq!(psi_rolls(&d), vec![(B, Apportation, 31, 30, false)]);
    assert_eq!(d.last_roll(), (B, RollSkill::Lance, 65, 40, false));
    // R21: used up although it failed.
    assert_eq!(d.m.armed(B), None);
    d.all_dice_used();
}

#[test]
fn apportation_before_own_attack_succeeds_r22() {
    // R22: Sword 45 + 25 = 70.
    let mut d = swordplay([None, Some(Apportation)]);
    let ev = play(&mut d, B, Decision::Attack, &[30, 70]);
    assert_eq!(types(&ev), ["action", "psi", "roll"]);
    assert_eq!(
        last_roll_full(&d),
        (
            RollSkill::Sword,
            70,
            70,
            vec![modifier(ModKind::Apportation, 25)],
            None
        )
    );
    d.all_dice_used();
}

#[test]
fn apportation_before_own_attack_fails_r22() {
    // R22: 31 > 30: Sword 45; 46 misses.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[31, 46]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 46, 45, false));
    assert_eq!(d.m.armed(B), None);
}

#[test]
fn apportation_before_own_press_succeeds_r22() {
    // R22: 45 + 25 (Press) + 25 = 95.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Press, &[30, 95]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 95, 95, true));
}

#[test]
fn apportation_before_own_press_fails_r22() {
    // R22: 45 + 25 = 70; 71 misses.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Press, &[31, 71]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 71, 70, false));
}

#[test]
fn apportation_before_own_parry_succeeds_r22() {
    // R22: Bryn's Observe is no Apportation moment (it stays armed); at his Parry, 45 − 20 + 25 = 50.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Observe, &[99]);
    assert_eq!(d.m.armed(B), Some(Apportation));
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[30, 50]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 50, 50, true));
    assert_eq!(psi_rolls(&d), vec![(B, Apportation, 30, 30, true)]);
    d.all_dice_used();
}

#[test]
fn apportation_before_own_parry_fails_r22() {
    // R22: 45 − 20 = 25; 26 fails; damage 60 is armor.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[31, 26, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Sword, 26, 25, false)));
    d.all_dice_used();
}

#[test]
fn apportation_before_own_block_succeeds_r22() {
    // R22: Shield 40 + 25 = 65.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Block, &[30, 65]);
    assert_eq!(d.last_roll(), (B, RollSkill::Shield, 65, 65, true));
    d.all_dice_used();
}

#[test]
fn apportation_before_own_block_fails_r22() {
    // R22: Shield 40; 41 fails.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Block, &[31, 41, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Shield, 41, 40, false)));
    d.all_dice_used();
}

#[test]
fn apportation_before_joust_shield_against_high_succeeds_r22() {
    // R22, R10: Bryn's Lance 40 hits High; Ash's Apportation 20 ≤ 20; Shield 35 + 25 = 60,
    // limited to 40; 38 holds (it would fail against 35).
    let mut d = joust([Some(Apportation), None], &QUIET);
    no_sweeps(&mut d);
    let ev = play(&mut d, B, Decision::High, &[40, 20, 38]);
    assert_eq!(types(&ev), ["strike", "roll", "psi", "roll"]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 38, 40, true));
    assert!(!d.saw(&Event::Unhorsed { knight: A }));
    d.all_dice_used();
}

#[test]
fn apportation_before_joust_shield_against_high_fails_r22() {
    // R22: 21 > 20: Shield 35; 38 fails: unhorsed.
    let mut d = joust([Some(Apportation), None], &QUIET);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[40, 21, 38]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 38, 35, false));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
}

#[test]
fn apportation_has_no_moment_at_dodge_observe_or_luck_r22() {
    // R22: Bryn Presses (99), then arms Apportation; his Luck against Ash's Attack comes with no
    // psi moment; nor do his Dodge or Observe. It stays armed throughout.
    let mut d = swordplay([None, None]);
    play(&mut d, B, Decision::Press, &[99]);
    d.go(B, Decision::Psi(Some(Apportation)));
    play(&mut d, A, Decision::Attack, &[10, 5]);
    assert_eq!(d.last_roll(), (B, RollSkill::Luck, 5, 10, true));
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[10]);
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.armed(B), Some(Apportation));
    assert_eq!(d.m.psi_attempts_left(B), 2);
    d.all_dice_used();
}

// ----- Hypercognition: before your own Observe or Dodge roll -----

#[test]
fn hypercognition_before_joust_observe_succeeds_r22_r18() {
    // R22, R18: Hypercognition 20 ≤ 20; Observe 95 succeeds anyway; Bryn fails (95 > 30): 1C
    // gives Ash +30.
    let d = joust([Some(Hypercognition), None], &[20, 95, 95, 95, 95]);
    assert_eq!(psi_rolls(&d), vec![(A, Hypercognition, 20, 20, true)]);
    let roll = d
        .events
        .iter()
        .find_map(|e| match e {
            Event::Roll {
                skill: RollSkill::Observe,
                knight: Side::Challenger,
                roll,
                target,
                success,
                automatic,
                ..
            } => Some((*roll, *target, *success, *automatic)),
            _ => None,
        })
        .unwrap();
    assert_eq!(roll, (95, 40, true, Some(true)));
    assert!(d.saw(&Event::Bonus {
        knight: A,
        amount: 30,
        total: 30
    }));
    d.all_dice_used();
}

#[test]
fn hypercognition_before_joust_observe_fails_r22() {
    // R22: 21 > 20: Observe 95 fails; both failed: no Bonus (1A).
    let d = joust([Some(Hypercognition), None], &[21, 95, 95, 95, 95]);
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 95, 40, false));
    assert_eq!(d.m.bonus(A).0, 0);
    assert_eq!(d.m.armed(A), None);
}

#[test]
fn hypercognition_before_swordplay_observe_succeeds_r22_r18() {
    // R22, R18: Observe 99 succeeds; Ash must counter; his Dodge 99 fails: +30.
    let mut d = swordplay([None, Some(Hypercognition)]);
    let ev = play(&mut d, B, Decision::Observe, &[30, 99]);
    assert_eq!(types(&ev), ["action", "psi", "roll"]);
    assert_eq!(
        last_roll_full(&d),
        (RollSkill::Observe, 99, 30, vec![], Some(true))
    );
    play(&mut d, A, Decision::Dodge, &[99]);
    assert_eq!(d.m.bonus(B).0, 30);
    d.all_dice_used();
}

#[test]
fn hypercognition_before_swordplay_observe_fails_r22() {
    // R22: 31 > 30: Observe 99 fails, the turn is over.
    let mut d = swordplay([None, Some(Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[31, 99]);
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 99, 30, false));
    assert_eq!(d.m.awaiting()[0], Some(PromptKind::Action));
}

#[test]
fn hypercognition_before_dodge_succeeds_r22() {
    // R22: Dodge 45 + 25 = 70.
    let mut d = swordplay([Some(Hypercognition), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[20, 70]);
    assert_eq!(
        last_roll_full(&d),
        (
            RollSkill::Dodge,
            70,
            70,
            vec![modifier(ModKind::Hypercognition, 25)],
            None
        )
    );
    d.all_dice_used();
}

#[test]
fn hypercognition_before_dodge_fails_r22() {
    // R22: Dodge 45; 70 fails; damage 60.
    let mut d = swordplay([Some(Hypercognition), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[21, 70, 60]);
    assert!(d.rolls().contains(&(A, RollSkill::Dodge, 70, 45, false)));
    d.all_dice_used();
}

#[test]
fn hypercognition_has_no_moment_at_parry_block_or_attack_r22() {
    // R22: it stays armed through Ash's Parry, Block and Attack.
    let mut d = swordplay([Some(Hypercognition), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Parry, &[10]);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Block, &[10]);
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.armed(A), Some(Hypercognition));
    d.all_dice_used();
}

// ----- Telepathy: before your own Ride roll in a Joust -----

#[test]
fn telepathy_before_joust_ride_succeeds_r22() {
    // R22: Telepathy 20 ≤ 20; Ride 30 + 25 = 55: 55 succeeds; Bryn's 95 fails: Ash +15 (2A).
    let d = joust([Some(Telepathy), None], &[95, 95, 20, 55, 95]);
    assert_eq!(psi_rolls(&d), vec![(A, Telepathy, 20, 20, true)]);
    assert_eq!(d.rolls()[2], (A, RollSkill::Ride, 55, 55, true));
    assert!(d.saw(&Event::Bonus {
        knight: A,
        amount: 15,
        total: 15
    }));
    d.all_dice_used();
}

#[test]
fn telepathy_before_joust_ride_fails_r22() {
    // R22: 21 > 20: Ride 30; 55 fails.
    let d = joust([Some(Telepathy), None], &[95, 95, 21, 55, 95]);
    assert_eq!(d.rolls()[2], (A, RollSkill::Ride, 55, 30, false));
    assert_eq!(d.m.bonus(A).0, 0);
}

#[test]
fn telepathy_before_joust_defense_against_low_succeeds_r22() {
    // R22, R21: armed after step 2, Telepathy fires at the Ride defense against Low: 30 + 25 = 55,
    // limited to Bryn's Lance roll 40 (R10); 38 holds.
    let mut d = joust([None, None], &QUIET);
    d.go(B, Decision::NoSweep);
    d.go(A, Decision::Psi(Some(Telepathy)));
    d.go(A, Decision::NoSweep);
    let ev = play(&mut d, B, Decision::Low, &[40, 20, 38]);
    assert_eq!(types(&ev), ["strike", "roll", "psi", "roll"]);
    assert_eq!(d.last_roll(), (A, RollSkill::Ride, 38, 40, true));
    d.all_dice_used();
}

#[test]
fn telepathy_before_joust_defense_against_low_fails_r22() {
    // R22: 21 > 20: Ride 30; 38 fails: unhorsed.
    let mut d = joust([None, None], &QUIET);
    d.go(B, Decision::NoSweep);
    d.go(A, Decision::Psi(Some(Telepathy)));
    d.go(A, Decision::NoSweep);
    play(&mut d, B, Decision::Low, &[40, 21, 38]);
    assert_eq!(d.last_roll(), (A, RollSkill::Ride, 38, 30, false));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
}

#[test]
fn telepathy_has_no_moment_in_swordplay_r22() {
    // R22: "in a Joust": no Swordplay roll is a Ride roll; it stays armed.
    let mut d = swordplay([Some(Telepathy), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[10]);
    play(&mut d, A, Decision::Observe, &[10]);
    play(&mut d, B, Decision::Dodge, &[10]);
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.armed(A), Some(Telepathy));
}

// ----- Mesmerism: at your sweep announcement, or before your Swordplay action roll -----

/// Ash earns +30 (Observe 10/40 against Bryn's 95/30); Rides 95 and 90 fail, so Ash announces
/// first (step 4).
const ASH_HOLDS_30: [u32; 4] = [10, 95, 95, 90];

#[test]
fn mesmerism_at_own_sweep_announcement_succeeds_r22() {
    // R22: Bryn's Mesmerism fires at his own announcement (not Ash's): 30 ≤ 30 cancels Ash's 30;
    // then 6B finds no Bonus and 6C gives Bryn first strike.
    let mut d = joust([None, Some(Mesmerism)], &ASH_HOLDS_30);
    d.go(A, Decision::NoSweep);
    assert!(psi_rolls(&d).is_empty());
    let ev = play(&mut d, B, Decision::NoSweep, &[30]);
    assert_eq!(
        types(&ev),
        ["psi", "bonus_cancelled", "sweep", "first_strike"]
    );
    assert!(d.saw(&Event::BonusCancelled {
        knight: A,
        amount: 30,
        by: B
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    assert!(d.saw(&Event::FirstStrike {
        knight: Some(B),
        rule: FirstStrikeRule::Skill
    }));
    d.all_dice_used();
}

#[test]
fn mesmerism_at_own_sweep_announcement_fails_r22() {
    // R22: 31 > 30: Ash keeps 30 and strikes first (6B).
    let mut d = joust([None, Some(Mesmerism)], &ASH_HOLDS_30);
    d.go(A, Decision::NoSweep);
    play(&mut d, B, Decision::NoSweep, &[31]);
    assert_eq!(d.m.bonus(A).0, 30);
    assert!(d.saw(&Event::FirstStrike {
        knight: Some(A),
        rule: FirstStrikeRule::Bonus
    }));
    assert_eq!(d.m.armed(B), None);
}

#[test]
fn mesmerism_does_not_fire_without_an_opposing_bonus_r22_r21() {
    // R22: no Bonus on Ash: Bryn's announcement rolls nothing, and Mesmerism stays armed (R21).
    let mut d = joust([None, Some(Mesmerism)], &QUIET);
    no_sweeps(&mut d);
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.armed(B), Some(Mesmerism));
    assert_eq!(d.m.psi_attempts_left(B), 1);
}

/// Swordplay: Bryn's Observe 99 fails (his Mesmerism finds no Bonus and stays armed); Ash's
/// Observe 10 succeeds against Bryn's Dodge 99: Ash holds +30 as Bryn's turn comes.
fn ash_holds_30_in_swordplay(armed: [Option<PsiSkill>; 2]) -> Duel {
    let mut d = swordplay(armed);
    play(&mut d, B, Decision::Observe, &[99]);
    assert!(psi_rolls(&d).is_empty(), "no Bonus to cancel yet (R22)");
    play(&mut d, A, Decision::Observe, &[10]);
    play(&mut d, B, Decision::Dodge, &[99]);
    assert_eq!(d.m.bonus(A).0, 30);
    d
}

#[test]
fn mesmerism_before_own_action_roll_succeeds_r22() {
    // R22: 30 ≤ 30 just before Bryn's action roll: Ash's Bonus (in attack mode) is cancelled and
    // the mode returns to weaken (R5).
    let mut d = ash_holds_30_in_swordplay([None, Some(Mesmerism)]);
    d.go(A, Decision::Bonus(BonusMode::Attack));
    let ev = play(&mut d, B, Decision::Attack, &[30, 99]);
    assert_eq!(types(&ev), ["action", "psi", "bonus_cancelled", "roll"]);
    assert!(d.saw(&Event::BonusCancelled {
        knight: A,
        amount: 30,
        by: B
    }));
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    d.all_dice_used();
}

#[test]
fn mesmerism_before_own_action_roll_fails_r22() {
    // R22: 31 > 30: Ash keeps his 30.
    let mut d = ash_holds_30_in_swordplay([None, Some(Mesmerism)]);
    play(&mut d, B, Decision::Attack, &[31, 99]);
    assert_eq!(psi_rolls(&d), vec![(B, Mesmerism, 31, 30, false)]);
    assert_eq!(d.m.bonus(A).0, 30);
}

// ----- CPK: just after you suffer an injury -----

#[test]
fn cpk_after_a_joust_fall_injury_succeeds_and_does_not_count_r12() {
    // R12, R22: Bryn's Lance 10 hits; Ash's Shield 96 > 10 fails: unhorsed, weapon arm; CPK
    // 20 ≤ 20 heals it and leaves Ash's one attempt of the pass unspent.
    let mut d = joust([Some(Cpk), None], &QUIET);
    no_sweeps(&mut d);
    let ev = play(&mut d, B, Decision::High, &[10, 96, 20]);
    assert_eq!(
        types(&ev),
        [
            "strike",
            "roll",
            "roll",
            "unhorsed",
            "injury",
            "psi",
            "injury_healed"
        ]
    );
    assert!(d.saw(&Event::InjuryHealed {
        knight: A,
        kind: Injury::WeaponArm
    }));
    assert!(d.m.injuries(A).is_empty());
    assert_eq!(d.m.psi_attempts_left(A), 1);
    // In Swordplay the Sword is whole and Block allowed.
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    play(&mut d, A, Decision::Attack, &[50]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 50, 50, true));
    d.go(B, Decision::Yield);
    d.all_dice_used();
}

#[test]
fn cpk_after_a_joust_fall_injury_fails_r12() {
    // R12: 98 is the shield arm; CPK 21 > 20 fails: it stands.
    let mut d = joust([Some(Cpk), None], &QUIET);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[10, 98, 21]);
    assert_eq!(psi_rolls(&d), vec![(A, Cpk, 21, 20, false)]);
    assert_eq!(d.m.injuries(A), vec![Injury::ShieldArm]);
    assert_eq!(d.m.armed(A), None);
}

#[test]
fn cpk_after_a_joust_injury_fires_even_with_the_pass_attempt_spent_r12() {
    // R12: Ash's Hypercognition (21, failed) spent his attempt of the pass (R20); CPK armed
    // afterwards still fires against the fall injury (97, weapon arm): 20 heals.
    let mut d = joust([Some(Hypercognition), None], &[21, 95, 95, 95, 95]);
    assert_eq!(d.m.psi_attempts_left(A), 0);
    d.go(A, Decision::Psi(Some(Cpk)));
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[10, 97, 20]);
    assert_eq!(
        psi_rolls(&d),
        vec![(A, Hypercognition, 21, 20, false), (A, Cpk, 20, 20, true)]
    );
    assert!(d.m.injuries(A).is_empty());
    d.all_dice_used();
}

/// Ash with Lance 40: his best of Lance and Ride ties Bryn's 40, so with no sweep and no Bonus
/// the pass goes to 6D: both strike, challenger first (R9).
fn ash_lance_40() -> KnightSheet {
    knight("Ash", [40, 30, 40, 35, 45, 50], [20; 7])
}

#[test]
fn cpk_in_a_6d_pass_does_not_count_r12() {
    // R12 "even in a 6D pass": Ash's Lance 10 hits; Bryn's Shield 96 > 10 fails, weapon arm;
    // his CPK 30 heals it. Bryn then arms Apportation, and it still fires before his own Lance:
    // 30 ≤ 30, Lance 40 + 25 = 65 hits; Ash's Shield 35 (limited to 65): 36 fails. Both fell.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash_lance_40(),
        bryn(),
        [None, Some(Cpk)],
        &QUIET,
    );
    no_sweeps(&mut d);
    assert!(d.saw(&Event::FirstStrike {
        knight: None,
        rule: FirstStrikeRule::Both
    }));
    play(&mut d, A, Decision::High, &[10, 96, 30]);
    assert!(d.m.injuries(B).is_empty());
    assert_eq!(d.m.psi_attempts_left(B), 1);
    d.go(B, Decision::Psi(Some(Apportation)));
    play(&mut d, B, Decision::High, &[30, 65, 36]);
    assert_eq!(
        psi_rolls(&d),
        vec![(B, Cpk, 30, 30, true), (B, Apportation, 30, 30, true)]
    );
    assert!(d.rolls().contains(&(B, RollSkill::Lance, 65, 65, true)));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
    assert!(d.saw(&Event::Unhorsed { knight: B }));
    d.all_dice_used();
}

#[test]
fn cpk_after_a_swordplay_injury_succeeds_and_counts_r20() {
    // R22, R20: Bryn's hit, damage 25: weapon arm; CPK 20 heals it and is one of Ash's two.
    let mut d = swordplay([Some(Cpk), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, 25, 20]);
    assert!(d.saw(&Event::InjuryHealed {
        knight: A,
        kind: Injury::WeaponArm
    }));
    assert!(d.m.injuries(A).is_empty());
    assert_eq!(d.m.psi_attempts_left(A), 1);
    // Healed: Sword whole (50) ...
    play(&mut d, A, Decision::Attack, &[50]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 50, 50, true));
    // ... and a later shield-arm hit (31) is a first arm hit, not a Kill (R17).
    play(&mut d, B, Decision::Dodge, &[10]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Block, &[99, 31]);
    assert!(!d.m.is_over());
    assert_eq!(d.m.injuries(A), vec![Injury::ShieldArm]);
    d.all_dice_used();
}

#[test]
fn cpk_after_a_swordplay_injury_fails_and_counts_r20() {
    // R20: 21 > 20 fails; the legs (40) stand; the attempt is spent.
    let mut d = swordplay([Some(Cpk), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, 40, 21]);
    assert_eq!(d.m.injuries(A), vec![Injury::Legs]);
    assert_eq!(d.m.psi_attempts_left(A), 1);
    assert_eq!(d.m.armed(A), None);
}

// ----- R20: limits -----

#[test]
fn r20_swordplay_two_attempts_per_match_failed_ones_count() {
    // R20: two failed Apportations (31 > 30) use up Bryn's two; R21: a third could never
    // fire, so arming it is refused, and the Attack rolls no psi.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[31, 99]);
    play(&mut d, A, Decision::Observe, &[99]);
    d.go(B, Decision::Psi(Some(Apportation)));
    play(&mut d, B, Decision::Attack, &[31, 99]);
    play(&mut d, A, Decision::Observe, &[99]);
    assert_eq!(d.m.psi_attempts_left(B), 0);
    let armed = d.m.armed(B);
    assert_eq!(
        d.refused(B, Decision::Psi(Some(Apportation))),
        RuleError::PsiSpent(Apportation)
    );
    assert_eq!(d.m.armed(B), armed, "a refusal changes nothing");
    d.go(B, Decision::Psi(None));
    play(&mut d, B, Decision::Attack, &[70]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 45, false));
    assert_eq!(psi_rolls(&d).len(), 2);
    assert_eq!(d.m.armed(B), None);
    d.all_dice_used();
}

#[test]
fn r20_joust_one_attempt_per_pass_then_the_next_pass_r21() {
    // R20: Ash's failed Hypercognition (21) is his one attempt of pass 1; Apportation armed
    // after it does not fire at his Lance (95 against 30) and stays armed (R21). In pass 2 it
    // fires: 20 ≤ 20, Lance 30 + 25 = 55 hits.
    let mut d = joust([Some(Hypercognition), None], &[21, 95, 95, 95, 95]);
    d.go(A, Decision::Psi(Some(Apportation)));
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[95]);
    d.dice(&[95]);
    d.dice(&QUIET);
    d.go(A, Decision::High);
    assert_eq!(d.rolls()[5], (A, RollSkill::Lance, 95, 30, false));
    assert_eq!(d.m.pass(), 2);
    assert_eq!(d.m.armed(A), Some(Apportation));
    assert_eq!(d.m.psi_attempts_left(A), 1);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[95]);
    // Bryn's Shield 40, limited to 55: 40 holds. Pass 3 follows.
    d.dice(&[20, 55, 40]);
    d.dice(&QUIET);
    d.go(A, Decision::High);
    assert!(d.rolls().contains(&(A, RollSkill::Lance, 55, 55, true)));
    assert_eq!(
        psi_rolls(&d),
        vec![
            (A, Hypercognition, 21, 20, false),
            (A, Apportation, 20, 20, true)
        ]
    );
    d.all_dice_used();
}

#[test]
fn r20_joust_a_reaction_is_the_passes_one_attempt() {
    // R20 "reactions included": Bryn's Catapsi (30) cancels Ash's Hypercognition (20), so Ash's
    // Observe 95 fails. Bryn's Apportation armed later does not fire at his Lance (40 hits at 40).
    let mut d = joust(
        [Some(Hypercognition), Some(Catapsi)],
        &[20, 30, 95, 95, 95, 95],
    );
    assert!(d.saw(&Event::PsiCancelled {
        knight: A,
        skill: Hypercognition,
        by: B
    }));
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 95, 40, false));
    assert_eq!(d.m.psi_attempts_left(B), 0);
    d.go(B, Decision::Psi(Some(Apportation)));
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[40, 10]);
    assert!(d.rolls().contains(&(B, RollSkill::Lance, 40, 40, true)));
    assert_eq!(psi_rolls(&d).len(), 2);
    assert_eq!(d.m.armed(B), Some(Apportation));
    d.all_dice_used();
}

#[test]
fn r20_joust_no_reaction_without_an_attempt_left() {
    // R20: Bryn's Hypercognition (30) was his attempt of the pass; his Catapsi armed after it
    // cannot answer Ash's Apportation (20): Lance 30 + 25 = 55 hits; Bryn's Shield 40 holds.
    // Bryn's Observe 95 succeeded automatically and Ash's failed: Bryn +30, first strike (6B).
    let mut d = joust(
        [Some(Apportation), Some(Hypercognition)],
        &[95, 30, 95, 95, 95],
    );
    d.go(B, Decision::Psi(Some(Catapsi)));
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[95]);
    d.dice(&[20, 55, 40]);
    d.dice(&QUIET);
    d.go(A, Decision::High);
    assert_eq!(
        psi_rolls(&d),
        vec![
            (B, Hypercognition, 30, 30, true),
            (A, Apportation, 20, 20, true)
        ]
    );
    assert!(d.rolls().contains(&(A, RollSkill::Lance, 55, 55, true)));
    assert_eq!(d.m.armed(B), Some(Catapsi));
    d.all_dice_used();
}

#[test]
fn r20_swordplay_a_reaction_counts_for_the_reactor() {
    // R20: Ash's Catapsi (20) against Bryn's Apportation (30): one attempt each.
    let mut d = swordplay([Some(Catapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[30, 20, 99]);
    assert_eq!(d.m.psi_attempts_left(A), 1);
    assert_eq!(d.m.psi_attempts_left(B), 1);
}

#[test]
fn r20_swordplay_attempts_are_fresh_after_the_joust() {
    // R20: Ash used his pass attempt in the Joust (Hypercognition 21); Swordplay gives him two.
    let mut d = joust([Some(Hypercognition), None], &[21, 95, 95, 95, 95]);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[10, 50]);
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    assert_eq!(d.m.psi_attempts_left(A), 2);
    assert_eq!(d.m.psi_attempts_left(B), 2);
}

// ----- R21: declarations -----

#[test]
fn r21_only_a_learned_skill_can_be_armed() {
    // R21: Cai has only Apportation.
    let cai = knight("Cai", [30, 30, 40, 35, 45, 50], psi(Apportation, 40));
    let mut d = Duel::start_with(
        MatchKind::Practice,
        Opening::Swordplay,
        cai,
        bryn(),
        [Some(Telepathy), None],
        &[],
    );
    // A setup naming an unlearned skill arms nothing.
    assert_eq!(d.m.armed(A), None);
    assert_eq!(
        d.refused(A, Decision::Psi(Some(Telepathy))),
        RuleError::PsiNotLearned(Telepathy)
    );
    let msg = RuleError::PsiNotLearned(Telepathy).to_string();
    assert!(!msg.contains('\n'));
    d.go(A, Decision::Psi(Some(Apportation)));
    assert_eq!(d.m.armed(A), Some(Apportation));
}

#[test]
fn r21_a_new_declaration_replaces_the_old() {
    // R21: Apportation replaced by Hypercognition: the Attack rolls no psi.
    let mut d = swordplay([None, Some(Apportation)]);
    d.go(B, Decision::Psi(Some(Hypercognition)));
    assert!(d.saw(&Event::PsiArmed {
        knight: B,
        skill: Some(Hypercognition)
    }));
    assert_eq!(d.m.armed(B), Some(Hypercognition));
    play(&mut d, B, Decision::Attack, &[46]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 46, 45, false));
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.armed(B), Some(Hypercognition));
    d.all_dice_used();
}

#[test]
fn r21_psi_none_disarms() {
    // R21: disarmed, the Attack rolls no psi.
    let mut d = swordplay([None, Some(Apportation)]);
    d.go(B, Decision::Psi(None));
    assert!(d.saw(&Event::PsiArmed {
        knight: B,
        skill: None
    }));
    assert_eq!(d.m.armed(B), None);
    play(&mut d, B, Decision::Attack, &[46]);
    assert!(psi_rolls(&d).is_empty());
    assert_eq!(d.m.psi_attempts_left(B), 2);
    d.all_dice_used();
}

#[test]
fn r21_used_up_on_success_too() {
    // R21: after a success (30), nothing fires at the next Attack.
    let mut d = swordplay([None, Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[30, 99]);
    assert_eq!(d.m.armed(B), None);
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[46]);
    assert_eq!(psi_rolls(&d).len(), 1);
    d.all_dice_used();
}

#[test]
fn r21_armed_in_the_joust_with_no_attempt_left_fires_in_swordplay() {
    // R21: Ash's attempt of the pass is spent (Hypercognition 21); Apportation armed after it
    // finds no attempt at his Shield defense (10 hits, Shield 50 > 10 fails) and stays armed;
    // in Swordplay (1A, Ash first) it fires: 20, Sword 50 + 25 = 75.
    let mut d = joust([Some(Hypercognition), None], &[21, 95, 95, 95, 95]);
    d.go(A, Decision::Psi(Some(Apportation)));
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[10, 50]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 50, 10, false));
    assert_eq!(d.m.armed(A), Some(Apportation));
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    play(&mut d, A, Decision::Attack, &[20, 75]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 75, 75, true));
    assert_eq!(d.m.psi_attempts_left(A), 1);
    d.all_dice_used();
}

#[test]
fn r21_nothing_can_be_armed_once_swordplays_attempts_are_spent() {
    // R20, R21: Ash spends both attempts on Hypercognition (21, failed, before a Dodge 44 that
    // holds; 21 again before an Observe 99 that fails). No later moment comes in this match, so
    // arming it a third time is refused, and his next Dodge (45) is unmodified.
    let mut d = swordplay([Some(Hypercognition), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[21, 44]);
    d.go(A, Decision::Psi(Some(Hypercognition)));
    play(&mut d, A, Decision::Observe, &[21, 99]);
    assert_eq!(d.m.psi_attempts_left(A), 0);
    assert_eq!(
        d.refused(A, Decision::Psi(Some(Hypercognition))),
        RuleError::PsiSpent(Hypercognition)
    );
    let msg = RuleError::PsiSpent(Hypercognition).to_string();
    assert!(msg.contains("(R20)") && msg.contains("/psi none"), "{msg}");
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[45]);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 45, 45, true));
    assert_eq!(psi_rolls(&d).len(), 2);
    assert_eq!(d.m.armed(A), None);
    d.all_dice_used();
}

// ----- Catapsi: cancels the opponent's successful psi -----

#[test]
fn catapsi_cancels_a_plus_25() {
    // Catapsi, R21: 20 ≤ 20 cancels Apportation (10 ≤ 30): Sword 45; 46 misses.
    let mut d = swordplay([Some(Catapsi), Some(Apportation)]);
    let ev = play(&mut d, B, Decision::Attack, &[10, 20, 46]);
    assert_eq!(
        types(&ev),
        ["action", "psi", "psi", "psi_cancelled", "roll"]
    );
    assert!(d.saw(&Event::PsiCancelled {
        knight: B,
        skill: Apportation,
        by: A
    }));
    assert_eq!(last_roll_full(&d), (RollSkill::Sword, 46, 45, vec![], None));
    d.all_dice_used();
}

#[test]
fn catapsi_failing_leaves_the_effect() {
    // Catapsi, R20: 21 > 20 fails: Sword 70; 70 hits. Ash's attempt is spent anyway.
    let mut d = swordplay([Some(Catapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[10, 21, 70]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 70, true));
    assert_eq!(d.m.armed(A), None);
    assert_eq!(d.m.psi_attempts_left(A), 1);
}

#[test]
fn catapsi_does_not_answer_a_failed_psi_roll() {
    // Catapsi, R21 "just after your opponent's psi roll succeeds": Apportation 31 fails;
    // Catapsi stays armed.
    let mut d = swordplay([Some(Catapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[31, 46]);
    assert_eq!(psi_rolls(&d), vec![(B, Apportation, 31, 30, false)]);
    assert_eq!(d.m.armed(A), Some(Catapsi));
    assert_eq!(d.m.psi_attempts_left(A), 2);
    d.all_dice_used();
}

#[test]
fn catapsi_cancels_hypercognitions_automatic_success() {
    // Catapsi, R18: Hypercognition (10) cancelled (20): Observe 95 > 30 is an ordinary failure.
    let mut d = swordplay([Some(Catapsi), Some(Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[10, 20, 95]);
    assert_eq!(
        last_roll_full(&d),
        (RollSkill::Observe, 95, 30, vec![], None)
    );
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 95, 30, false));
    d.all_dice_used();
}

#[test]
fn catapsi_cancels_mesmerism() {
    // Catapsi, R22: Mesmerism (30) cancelled (20): Ash keeps his 30.
    let mut d = ash_holds_30_in_swordplay([Some(Catapsi), Some(Mesmerism)]);
    play(&mut d, B, Decision::Attack, &[30, 20, 99]);
    assert!(d.saw(&Event::PsiCancelled {
        knight: B,
        skill: Mesmerism,
        by: A
    }));
    assert_eq!(d.m.bonus(A).0, 30);
    assert!(!d
        .events
        .iter()
        .any(|e| matches!(e, Event::BonusCancelled { .. })));
    d.all_dice_used();
}

#[test]
fn catapsi_cancels_cpk() {
    // Catapsi, R22: CPK (30) cancelled (20): Bryn's weapon arm (25) stands.
    let mut d = swordplay([Some(Catapsi), Some(Cpk)]);
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[99, 25, 30, 20]);
    assert!(d.saw(&Event::PsiCancelled {
        knight: B,
        skill: Cpk,
        by: A
    }));
    assert_eq!(d.m.injuries(B), vec![Injury::WeaponArm]);
    assert!(!d
        .events
        .iter()
        .any(|e| matches!(e, Event::InjuryHealed { .. })));
    d.all_dice_used();
}

// ----- Negapsi: reverses the opponent's successful psi (R23) -----

#[test]
fn negapsi_turns_plus_25_into_minus_25_r23() {
    // R23: Apportation 25 ≤ 30; Negapsi 10 ≤ 20 and 10 < 25: Sword 45 − 25 = 20; 21 misses.
    let mut d = swordplay([Some(Negapsi), Some(Apportation)]);
    let ev = play(&mut d, B, Decision::Attack, &[25, 10, 21]);
    assert_eq!(types(&ev), ["action", "psi", "psi", "psi_reversed", "roll"]);
    assert!(d.saw(&Event::PsiReversed {
        knight: B,
        skill: Apportation,
        by: A
    }));
    assert_eq!(
        last_roll_full(&d),
        (
            RollSkill::Sword,
            21,
            20,
            vec![modifier(ModKind::Apportation, -25)],
            None
        )
    );
    d.all_dice_used();
}

#[test]
fn negapsi_turns_a_dodge_plus_25_into_minus_25_r23() {
    // R23: Bryn's Hypercognition before his Dodge, reversed: 30 − 25 = 5; 6 fails.
    let mut d = swordplay([Some(Negapsi), Some(Hypercognition)]);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[25, 10, 6, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Dodge, 6, 5, false)));
    d.all_dice_used();
}

#[test]
fn negapsi_turns_automatic_success_into_automatic_failure_r23() {
    // R23: Bryn's Hypercognition reversed: Observe 1 fails all the same.
    let mut d = swordplay([Some(Negapsi), Some(Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[25, 10, 1]);
    assert_eq!(
        last_roll_full(&d),
        (RollSkill::Observe, 1, 30, vec![], Some(false))
    );
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 1, 30, false));
    d.all_dice_used();
}

#[test]
fn negapsi_reverses_hypercognition_in_joust_step_1_r23() {
    // R23: Ash's Hypercognition 15 reversed by Bryn's Negapsi 10: Ash's Observe 1 fails; Bryn's
    // 20 succeeds: 1C, Bryn +30.
    let d = joust(
        [Some(Hypercognition), Some(Negapsi)],
        &[15, 10, 1, 20, 95, 95],
    );
    assert_eq!(d.rolls()[0], (A, RollSkill::Observe, 1, 40, false));
    assert!(d.saw(&Event::Bonus {
        knight: B,
        amount: 30,
        total: 30
    }));
    d.all_dice_used();
}

#[test]
fn negapsi_doubles_the_bonus_instead_of_cancelling_r23() {
    // R23: Mesmerism 30 reversed by Negapsi 10: Ash's 30 becomes 60.
    let mut d = ash_holds_30_in_swordplay([Some(Negapsi), Some(Mesmerism)]);
    play(&mut d, B, Decision::Attack, &[30, 10, 99]);
    assert!(d.saw(&Event::BonusDoubled {
        knight: A,
        total: 60
    }));
    assert_eq!(d.m.bonus(A).0, 60);
    d.all_dice_used();
}

#[test]
fn negapsi_doubles_a_joust_bonus_r23() {
    // R23: in the Joust too: Ash's 30 becomes 60 and he strikes first (6B).
    let mut d = joust([Some(Negapsi), Some(Mesmerism)], &ASH_HOLDS_30);
    d.go(A, Decision::NoSweep);
    play(&mut d, B, Decision::NoSweep, &[30, 10]);
    assert_eq!(d.m.bonus(A).0, 60);
    assert!(d.saw(&Event::FirstStrike {
        knight: Some(A),
        rule: FirstStrikeRule::Bonus
    }));
}

#[test]
fn negapsi_leaves_the_healed_injury_standing_r23() {
    // R23: CPK 25 reversed by Negapsi 10: Bryn's weapon arm stands.
    let mut d = swordplay([Some(Negapsi), Some(Cpk)]);
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[99, 25, 25, 10]);
    assert!(d.saw(&Event::PsiReversed {
        knight: B,
        skill: Cpk,
        by: A
    }));
    assert_eq!(d.m.injuries(B), vec![Injury::WeaponArm]);
    assert!(!d
        .events
        .iter()
        .any(|e| matches!(e, Event::InjuryHealed { .. })));
    d.all_dice_used();
}

#[test]
fn negapsi_equal_to_the_psi_roll_fails_r23() {
    // R23: Negapsi 10 ≤ 20 but not lower than Apportation's 10: it fails; Sword 70 hits.
    let mut d = swordplay([Some(Negapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[10, 10, 70]);
    assert_eq!(
        psi_rolls(&d),
        vec![(B, Apportation, 10, 30, true), (A, Negapsi, 10, 20, false)]
    );
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 70, true));
    // A failed attempt is still an attempt (R20).
    assert_eq!(d.m.psi_attempts_left(A), 1);
    d.all_dice_used();
}

#[test]
fn negapsi_higher_than_the_psi_roll_fails_r23() {
    // R23: Negapsi 15 ≤ 20 but 15 > 10.
    let mut d = swordplay([Some(Negapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[10, 15, 70]);
    assert_eq!(psi_rolls(&d)[1], (A, Negapsi, 15, 20, false));
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 70, true));
}

#[test]
fn negapsi_lower_but_over_its_skill_fails_r23() {
    // R23: Negapsi 21 < 30 but 21 > 20.
    let mut d = swordplay([Some(Negapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[30, 21, 70]);
    assert_eq!(psi_rolls(&d)[1], (A, Negapsi, 21, 20, false));
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 70, true));
}

#[test]
fn negapsi_at_its_skill_and_just_lower_succeeds_r23() {
    // R23: Negapsi 20 ≤ 20 and 20 < 21: reversed, Sword 20; 20 hits.
    let mut d = swordplay([Some(Negapsi), Some(Apportation)]);
    play(&mut d, B, Decision::Attack, &[21, 20, 20]);
    assert_eq!(psi_rolls(&d)[1], (A, Negapsi, 20, 20, true));
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 20, 20, true));
}

// ----- R24: no chains -----

#[test]
fn r24_no_reaction_to_a_reaction() {
    // R24: Ash's Catapsi answers Bryn's Apportation; nothing answers the Catapsi: the Sword roll
    // follows at once, and Bryn has spent one attempt only.
    let mut d = swordplay([Some(Catapsi), Some(Apportation)]);
    let ev = play(&mut d, B, Decision::Attack, &[10, 20, 46]);
    assert_eq!(
        types(&ev),
        ["action", "psi", "psi", "psi_cancelled", "roll"]
    );
    assert_eq!(psi_rolls(&d).len(), 2);
    assert_eq!(d.m.psi_attempts_left(B), 1);
    d.all_dice_used();
}

// ----- R12: a reaction to a Joust CPK counts -----

#[test]
fn r12_a_reaction_to_a_joust_cpk_counts_against_the_reactor() {
    // R12: Ash falls with 96 (weapon arm); his CPK (20) does not count, Bryn's Catapsi (30)
    // against it does: Bryn has no attempt left in this pass, Ash still has his.
    let mut d = joust([Some(Cpk), Some(Catapsi)], &QUIET);
    no_sweeps(&mut d);
    play(&mut d, B, Decision::High, &[10, 96, 20, 30]);
    assert!(d.saw(&Event::PsiCancelled {
        knight: A,
        skill: Cpk,
        by: B
    }));
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm]);
    assert_eq!(d.m.psi_attempts_left(B), 0);
    assert_eq!(d.m.psi_attempts_left(A), 1);
    d.all_dice_used();
}

#[test]
fn r12_a_reaction_to_a_joust_cpk_uses_the_pass_attempt_in_6d() {
    // R12: 6D: Ash's Lance 10 hits; Bryn's Shield 96 fails (weapon arm); Bryn's CPK 30 heals;
    // Ash's Catapsi 20 cancels it and spends Ash's attempt. Ash's Apportation armed next finds no
    // attempt at his Shield: Bryn's Lance 40 hits; Shield 35 (not 60); 38 fails.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash_lance_40(),
        bryn(),
        [Some(Catapsi), Some(Cpk)],
        &QUIET,
    );
    no_sweeps(&mut d);
    play(&mut d, A, Decision::High, &[10, 96, 30, 20]);
    assert_eq!(d.m.injuries(B), vec![Injury::WeaponArm]);
    assert_eq!(d.m.psi_attempts_left(A), 0);
    assert_eq!(d.m.psi_attempts_left(B), 1);
    d.go(A, Decision::Psi(Some(Apportation)));
    play(&mut d, B, Decision::High, &[40, 38]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 38, 35, false));
    assert_eq!(d.m.armed(A), Some(Apportation));
    assert_eq!(psi_rolls(&d).len(), 2);
    // Both fell: practice asks both whether to go on (R13, R41).
    d.go(A, Decision::Decline);
    assert_eq!(d.m.outcome().unwrap().reason, EndReason::BothUnhorsed);
    d.all_dice_used();
}
