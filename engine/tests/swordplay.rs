//! The Swordplay checklist step by step (1A–3, the damage table, lasting effects) and the rulings
//! that decide it (R2, R5, R6, R12, R14–R19, R42). Every number is worked from the rules.

mod common;
use common::*;
use herald_engine::psiknight::event::{
    Counter, DamageResult, EndReason, Event, FirstPlayerRule, Injury, ModKind, Modifier, RollSkill,
};
use herald_engine::psiknight::{
    BonusMode, Decision, KnightSheet, MatchKind, Opening, PromptKind, PsiSkill, RuleError, Side,
};

/// Ash, the challenger: Lance 30, Ride 30, Observe 40, Shield 35, Dodge 45, Sword 50; CPK 20 and
/// Hypercognition 20.
fn ash() -> KnightSheet {
    knight("Ash", [30, 30, 40, 35, 45, 50], [0, 20, 20, 0, 0, 0, 0])
}

/// Bryn, the challenged: Lance 40, Ride 40, Observe 30, Shield 40, Dodge 30, and an odd Sword 45,
/// so that halving it drops a fraction; CPK 20 and Hypercognition 20.
fn bryn() -> KnightSheet {
    knight("Bryn", [40, 40, 30, 40, 30, 45], [0, 20, 20, 0, 0, 0, 0])
}

/// Ash against Bryn, straight into Swordplay: Bryn, the challenged, goes first (1B).
fn swordplay() -> Duel {
    swordplay_of(ash(), bryn(), [None, None])
}

fn swordplay_of(a: KnightSheet, b: KnightSheet, armed: [Option<PsiSkill>; 2]) -> Duel {
    Duel::start_with(MatchKind::Practice, Opening::Swordplay, a, b, armed, &[])
}

/// Queues `rolls` and makes `decision` for `side`.
fn play(d: &mut Duel, side: Side, decision: Decision, rolls: &[u32]) {
    d.dice(rolls);
    d.go(side, decision);
}

/// The modifiers of the last roll.
fn last_mods(d: &Duel) -> Vec<Modifier> {
    d.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Roll { modifiers, .. } => Some(modifiers.to_vec()),
            _ => None,
        })
        .expect("no roll yet")
}

fn count(d: &Duel, pred: impl Fn(&Event) -> bool) -> usize {
    d.events.iter().filter(|e| pred(e)).count()
}

/// The one prompt now awaited, as (side, kind, options, default).
fn prompt(d: &Duel) -> (Side, PromptKind, Vec<Decision>, Decision) {
    let p = d.m.pending();
    assert_eq!(p.len(), 1, "expected exactly one prompt: {p:?}");
    let p = p.into_iter().next().unwrap();
    (p.side, p.kind, p.options, p.default)
}

fn awaits_action(d: &Duel, side: Side) {
    let (s, kind, options, default) = prompt(d);
    assert_eq!((s, kind), (side, PromptKind::Action));
    assert_eq!(
        options,
        vec![
            Decision::Attack,
            Decision::Observe,
            Decision::Press,
            Decision::Yield
        ]
    );
    assert_eq!(default, Decision::Attack);
}

fn awaits_counter(d: &Duel, side: Side, options: &[Decision]) {
    let (s, kind, got, _) = prompt(d);
    assert_eq!((s, kind), (side, PromptKind::Counter));
    assert_eq!(got, options);
}

const ALL_COUNTERS: [Decision; 4] = [
    Decision::Block,
    Decision::Dodge,
    Decision::Parry,
    Decision::Yield,
];

/// Bryn's opening turn hits Ash: Attack, Sword 10 ≤ 45; Ash Dodges 99 > 45; Bryn rolls `damage`.
fn bryn_hits_ash(damage: u32) -> Duel {
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, damage]);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 99, 45, false));
    d
}

/// Ash's turn misses (Attack 99), then Bryn hits again (Sword 10), Ash Parries 99 (Parry is always
/// allowed, R16) and Bryn rolls `damage`.
fn bryn_hits_ash_again(d: &mut Duel, damage: u32) {
    play(d, A, Decision::Attack, &[99]);
    play(d, B, Decision::Attack, &[10]);
    play(d, A, Decision::Parry, &[99, damage]);
}

/// Bryn's opening turn misses (Observe 99 > 30), then Ash hits Bryn (Sword 10 ≤ 50), Bryn Dodges
/// 99 > 30 and Ash rolls `damage`.
fn ash_hits_bryn(damage: u32) -> Duel {
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[99, damage]);
    d
}

/// A practice Joust in which Bryn unhorses Ash in pass 1 with Ash's Shield roll `fall`.
fn ash_unhorsed_with(fall: u32) -> Duel {
    // Joust 1: Observe 90/40 and 90/30 both fail; 2: Ride 90/30 and 80/40 both fail: no Bonus.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash(),
        bryn(),
        [None, None],
        &[90, 90, 90, 80],
    );
    // Step 4: Ash's Ride roll 90 beat 80, so he announces first.
    d.go(A, Decision::NoSweep);
    d.go(B, Decision::NoSweep);
    // 6C: Bryn's 40 beats Ash's 30. 7: Lance 10/40 hits; Ash's Shield 35 is limited to 10.
    play(&mut d, B, Decision::High, &[10, fall]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, fall, 10, false));
    assert!(d.saw(&Event::Unhorsed { knight: A }));
    d
}

/// As `ash_unhorsed`, both agreeing to Swordplay (R41).
fn ash_unhorsed(fall: u32) -> Duel {
    let mut d = ash_unhorsed_with(fall);
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    d
}

/// As `ash_unhorsed` with a fall roll of 50 (no injury), before anyone answers R41.
fn ash_unhorsed_no_answer() -> Duel {
    ash_unhorsed_with(50)
}

/// A Lists match of three passes in which every Observe, Ride and Lance roll is 95 (all fail),
/// followed by the 1C roll-off dice `roll_off`.
fn quiet_lists(roll_off: &[u32]) -> Duel {
    let mut d = Duel::start(MatchKind::Lists, ash(), bryn(), [None, None], &[95; 4]);
    for pass in 1..=3 {
        // R8: the Ride rolls tie; Bryn's Ride 40 beats 30, so he announces first.
        d.go(B, Decision::NoSweep);
        d.go(A, Decision::NoSweep);
        // 6C: Bryn first; Lance 95 misses on both sides.
        play(&mut d, B, Decision::High, &[95]);
        d.dice(&[95]);
        if pass < 3 {
            d.dice(&[95; 4]);
        } else {
            d.dice(roll_off);
        }
        d.go(A, Decision::High);
    }
    assert!(d.m.in_swordplay());
    d
}

// ----- Step 1: the first player -----

#[test]
fn step_1a_the_fighter_just_unhorsed_goes_first() {
    // Swordplay 1A: Ash, the challenger, fell; he goes first although Bryn was challenged.
    let d = ash_unhorsed(50);
    assert!(d.saw(&Event::SwordplayStarted {
        first: A,
        rule: FirstPlayerRule::Unhorsed
    }));
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_1b_the_challenged_goes_first_when_there_was_no_joust() {
    // Swordplay 1B.
    let d = swordplay();
    assert_eq!(
        d.events,
        vec![Event::SwordplayStarted {
            first: B,
            rule: FirstPlayerRule::Challenged
        }]
    );
    assert!(d.m.in_swordplay());
    awaits_action(&d, B);
}

#[test]
fn step_1c_roll_off_low_roll_goes_first() {
    // Swordplay 1C: challenger rolls first (R40); Bryn's 40 < Ash's 60: Bryn first.
    let d = quiet_lists(&[60, 40]);
    let offs: Vec<&Event> = d
        .events
        .iter()
        .filter(|e| matches!(e, Event::RollOff { .. }))
        .collect();
    assert_eq!(
        offs,
        vec![
            &Event::RollOff {
                knight: A,
                roll: 60
            },
            &Event::RollOff {
                knight: B,
                roll: 40
            },
        ]
    );
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::RollOff
    }));
    awaits_action(&d, B);
    d.all_dice_used();
}

#[test]
fn step_1c_roll_off_challenger_lower_goes_first() {
    // Swordplay 1C: Ash's 30 < Bryn's 70.
    let d = quiet_lists(&[30, 70]);
    assert!(d.saw(&Event::SwordplayStarted {
        first: A,
        rule: FirstPlayerRule::RollOff
    }));
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn r14_roll_off_ties_roll_again() {
    // R14: 50 = 50 ties, roll again; then 70 against 20: Bryn is lower.
    let d = quiet_lists(&[50, 50, 70, 20]);
    assert_eq!(
        count(&d, |e| matches!(e, Event::RollOff { .. })),
        4,
        "a tie rolls again"
    );
    assert!(d.saw(&Event::SwordplayStarted {
        first: B,
        rule: FirstPlayerRule::RollOff
    }));
    d.all_dice_used();
}

// ----- Step 2A: the action -----

#[test]
fn step_2a_attack_rolls_sword() {
    // Swordplay 2A Attack: Sword 45; 45 ≤ 45 succeeds, and the defender must counter.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[45]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 45, 45, true));
    assert!(last_mods(&d).is_empty());
    awaits_counter(&d, A, &ALL_COUNTERS);
    d.all_dice_used();
}

#[test]
fn step_2a_observe_rolls_observe() {
    // Swordplay 2A Observe: Observe 30; 30 ≤ 30 succeeds; countered like an attack (R18).
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[30]);
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 30, 30, true));
    awaits_counter(&d, A, &ALL_COUNTERS);
}

#[test]
fn step_2a_press_rolls_sword_plus_25() {
    // Swordplay 2A Press: Sword 45 + 25 = 70; 70 succeeds.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[70]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 70, 70, true));
    assert_eq!(
        last_mods(&d),
        vec![Modifier {
            kind: ModKind::Press,
            value: 25
        }]
    );
    awaits_counter(&d, A, &ALL_COUNTERS);
}

#[test]
fn step_2a_a_failed_attack_ends_the_turn() {
    // Swordplay 2A: "If this action roll fails, the turn is over; skip to 3."
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[46]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 46, 45, false));
    assert_eq!(count(&d, |e| matches!(e, Event::Counter { .. })), 0);
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2a_a_failed_observe_ends_the_turn() {
    // Swordplay 2A: Observe 31 > 30.
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[31]);
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 31, 30, false));
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2a_a_failed_press_ends_the_turn() {
    // Swordplay 2A: Press 71 > 70.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[71]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 71, 70, false));
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_3_turns_alternate() {
    // Swordplay 3: B, A, B, A whatever happened.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[99]);
    awaits_action(&d, A);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[10]);
    awaits_action(&d, B);
    play(&mut d, B, Decision::Observe, &[99]);
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn default_action_is_attack() {
    // The default policy's action on a timeout is Attack.
    let d = swordplay();
    assert_eq!(d.m.default_decision(B), Some(Decision::Attack));
    assert_eq!(d.m.default_decision(A), None);
}

// ----- Step 2B: the counter -----

#[test]
fn step_2b_block_rolls_shield() {
    // Swordplay 2B Block: Shield 35; 35 holds; 2D: the turn is over, Ash's turn follows.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Block, &[35]);
    assert!(d.saw(&Event::Counter {
        knight: A,
        counter: Counter::Block
    }));
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 35, 35, true));
    assert_eq!(count(&d, |e| matches!(e, Event::Damage { .. })), 0);
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2b_dodge_rolls_dodge() {
    // Swordplay 2B Dodge: Dodge 45.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[45]);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 45, 45, true));
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2b_parry_rolls_sword_minus_20() {
    // Swordplay 2B Parry: Sword 50 − 20 = 30.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Parry, &[30]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 30, 30, true));
    assert_eq!(
        last_mods(&d),
        vec![Modifier {
            kind: ModKind::Parry,
            value: -20
        }]
    );
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2b_parry_failing_by_one() {
    // Swordplay 2B Parry: 31 > 30 fails, so 2D rolls damage (60: armor).
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Parry, &[31, 60]);
    assert_eq!(
        d.rolls()[1],
        (A, RollSkill::Sword, 31, 30, false),
        "Parry is Sword − 20"
    );
    d.all_dice_used();
}

#[test]
fn step_2b_luck_after_own_press_is_forced_r15() {
    // R15: Bryn Pressed (and missed, 71 > 70); Ash's Attack 10 ≤ 50 hits; Bryn must roll Luck,
    // with no prompt, against 10: 10 holds.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[71]);
    play(&mut d, A, Decision::Attack, &[10, 10]);
    assert!(d.saw(&Event::Counter {
        knight: B,
        counter: Counter::Luck
    }));
    assert_eq!(d.last_roll(), (B, RollSkill::Luck, 10, 10, true));
    // No counter was asked of Bryn: his own turn follows at once.
    awaits_action(&d, B);
    d.all_dice_used();
}

#[test]
fn step_2b_luck_failing_rolls_damage_r15() {
    // R15: Luck 11 > 10 fails; 2D: damage 60 is armor.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Attack, &[10, 11, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Luck, 11, 10, false)));
    assert!(d.saw(&Event::Damage {
        knight: B,
        attacker: A,
        roll: 60,
        result: DamageResult::Armor
    }));
    d.all_dice_used();
}

#[test]
fn step_2b_luck_after_a_successful_press_too_r15() {
    // R15: Bryn's Press 70 hits, Ash Dodges 45; then Ash's Attack 10 meets Bryn's forced Luck.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[70]);
    play(&mut d, A, Decision::Dodge, &[45]);
    play(&mut d, A, Decision::Attack, &[10, 5]);
    assert_eq!(d.last_roll(), (B, RollSkill::Luck, 5, 10, true));
    d.all_dice_used();
}

#[test]
fn step_2b_luck_counters_an_observe_too_r15_r18() {
    // R15, R18: an Observe is countered like an attack, so after a Press it meets Luck as well.
    // Ash's Observe 10 ≤ 40; Bryn's Luck 50 > 10 fails: 2C, Ash earns +30.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Observe, &[10, 50]);
    assert_eq!(d.last_roll(), (B, RollSkill::Luck, 50, 10, false));
    assert!(d.saw(&Event::Bonus {
        knight: A,
        amount: 30,
        total: 30
    }));
    assert_eq!(count(&d, |e| matches!(e, Event::Damage { .. })), 0);
    d.all_dice_used();
}

#[test]
fn luck_only_after_the_defenders_own_last_turn_was_a_press_r15() {
    // R15: Bryn Pressed, then Attacked on his next turn; Ash's next hit meets a normal counter.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    awaits_counter(&d, B, &ALL_COUNTERS);
    // And the attacker's own Press does not give the defender Luck: Ash Presses (99 misses),
    // Bryn's Attack 10 meets Ash's Luck 5; Ash's next hit meets Bryn's normal counter.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Press, &[99]);
    play(&mut d, B, Decision::Attack, &[10, 5]);
    assert_eq!(d.last_roll(), (A, RollSkill::Luck, 5, 10, true));
    play(&mut d, A, Decision::Press, &[10]);
    awaits_counter(&d, B, &ALL_COUNTERS);
    d.all_dice_used();
}

// ----- Step 2C: the results of an Observe -----

#[test]
fn step_2c_defender_failed_attacker_earns_30() {
    // Swordplay 2C: Observe 20 ≤ 30; Ash's Dodge 46 > 45 fails: +30, and no damage.
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[20]);
    play(&mut d, A, Decision::Dodge, &[46]);
    assert!(d.saw(&Event::Bonus {
        knight: B,
        amount: 30,
        total: 30
    }));
    assert_eq!(d.m.bonus(B), (30, BonusMode::Weaken));
    assert_eq!(count(&d, |e| matches!(e, Event::Damage { .. })), 0);
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2c_defender_succeeded_but_rolled_higher_attacker_earns_10() {
    // Swordplay 2C: Observe 20; Dodge 21 ≤ 45 holds, but 21 > 20: +10.
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[20]);
    play(&mut d, A, Decision::Dodge, &[21]);
    assert!(d.saw(&Event::Bonus {
        knight: B,
        amount: 10,
        total: 10
    }));
    assert_eq!(d.m.bonus(B).0, 10);
}

#[test]
fn step_2c_defender_rolled_equal_no_bonus() {
    // Swordplay 2C: Dodge 20 equals the Observe roll 20: not higher, no Bonus.
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[20]);
    play(&mut d, A, Decision::Dodge, &[20]);
    assert_eq!(d.m.bonus(B).0, 0);
    assert_eq!(count(&d, |e| matches!(e, Event::Bonus { .. })), 0);
    awaits_action(&d, A);
}

#[test]
fn step_2c_defender_rolled_lower_no_bonus() {
    // Swordplay 2C: Parry 5 ≤ 30 and lower than 20: no Bonus.
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[20]);
    play(&mut d, A, Decision::Parry, &[5]);
    assert_eq!(d.m.bonus(B).0, 0);
    assert_eq!(count(&d, |e| matches!(e, Event::Bonus { .. })), 0);
}

// ----- Step 2D and the damage table -----

#[test]
fn step_2d_defender_succeeded_turn_over_no_damage() {
    // Swordplay 2D: the defender succeeded; no damage is rolled.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[44]);
    assert_eq!(count(&d, |e| matches!(e, Event::Damage { .. })), 0);
    awaits_action(&d, A);
    d.all_dice_used();
}

fn killed_by(damage: u32) {
    let d = bryn_hits_ash(damage);
    assert!(d.saw(&Event::Damage {
        knight: A,
        attacker: B,
        roll: damage,
        result: DamageResult::Kill
    }));
    assert!(d.m.is_over());
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::Kill));
    assert!(o.swordplay);
    assert!(d.saw(&Event::MatchEnded {
        winner: Some(B),
        reason: EndReason::Kill
    }));
    assert_eq!(count(&d, |e| matches!(e, Event::Injury { .. })), 0);
    assert!(d.m.pending().is_empty());
    d.all_dice_used();
}

fn injured_by(damage: u32, result: DamageResult, injury: Option<Injury>) {
    let d = bryn_hits_ash(damage);
    assert!(d.saw(&Event::Damage {
        knight: A,
        attacker: B,
        roll: damage,
        result
    }));
    assert!(!d.m.is_over());
    assert_eq!(d.m.injuries(A), injury.into_iter().collect::<Vec<_>>());
    assert_eq!(
        count(&d, |e| matches!(e, Event::Injury { .. })),
        usize::from(injury.is_some())
    );
    if let Some(kind) = injury {
        assert!(d.saw(&Event::Injury { knight: A, kind }));
    }
    // Step 3: the other player's turn.
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn step_2d_damage_01_kills() {
    // Swordplay 2D 01-22.
    killed_by(1);
}

#[test]
fn step_2d_damage_22_kills() {
    // Swordplay 2D 01-22.
    killed_by(22);
}

#[test]
fn step_2d_damage_23_weapon_arm() {
    // Swordplay 2D 23-30.
    injured_by(23, DamageResult::WeaponArm, Some(Injury::WeaponArm));
}

#[test]
fn step_2d_damage_30_weapon_arm() {
    // Swordplay 2D 23-30.
    injured_by(30, DamageResult::WeaponArm, Some(Injury::WeaponArm));
}

#[test]
fn step_2d_damage_31_shield_arm() {
    // Swordplay 2D 31-33.
    injured_by(31, DamageResult::ShieldArm, Some(Injury::ShieldArm));
}

#[test]
fn step_2d_damage_33_shield_arm() {
    // Swordplay 2D 31-33.
    injured_by(33, DamageResult::ShieldArm, Some(Injury::ShieldArm));
}

#[test]
fn step_2d_damage_34_legs() {
    // Swordplay 2D 34-50.
    injured_by(34, DamageResult::Legs, Some(Injury::Legs));
}

#[test]
fn step_2d_damage_50_legs() {
    // Swordplay 2D 34-50.
    injured_by(50, DamageResult::Legs, Some(Injury::Legs));
}

#[test]
fn step_2d_damage_51_armor() {
    // Swordplay 2D 51-00: armor protected the defender.
    injured_by(51, DamageResult::Armor, None);
}

#[test]
fn step_2d_damage_100_armor() {
    // Swordplay 2D 51-00: "00" is 100.
    injured_by(100, DamageResult::Armor, None);
}

#[test]
fn step_2d_press_hits_roll_the_same_table_r17() {
    // R17: the table applies to a Press as to an Attack: Press 70 hits, Dodge 99 fails, 22 kills.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[70]);
    play(&mut d, A, Decision::Dodge, &[99, 22]);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::Kill));
}

// ----- Lasting effects -----

#[test]
fn weapon_arm_halves_sword_dropping_fractions_r2() {
    // Swordplay 2D 23-30, R2: Bryn's Sword 45 is halved to 22 (the half dropped).
    let mut d = ash_hits_bryn(25);
    assert_eq!(d.m.injuries(B), vec![Injury::WeaponArm]);
    play(&mut d, B, Decision::Attack, &[23]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 23, 22, false));
    assert_eq!(
        last_mods(&d),
        vec![Modifier {
            kind: ModKind::WeaponArm,
            value: -23
        }]
    );
}

#[test]
fn weapon_arm_attack_at_the_halved_value_succeeds_r2() {
    // Swordplay 2D 23-30: 22 ≤ 22.
    let mut d = ash_hits_bryn(30);
    play(&mut d, B, Decision::Attack, &[22]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 22, 22, true));
}

#[test]
fn weapon_arm_press_halves_the_base_first_r2() {
    // R2: halve first (45 → 22), then +25: 47, not (45 + 25) / 2 = 35.
    let mut d = ash_hits_bryn(23);
    play(&mut d, B, Decision::Press, &[47]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 47, 47, true));
}

#[test]
fn weapon_arm_parry_halves_the_base_first_r2() {
    // R2: 22 − 20 = 2, not (45 − 20) / 2 = 12. Parry is still allowed (R16).
    let mut d = ash_hits_bryn(23);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[3, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Sword, 3, 2, false)));
    let mut d = ash_hits_bryn(23);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[2]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 2, 2, true));
}

#[test]
fn weapon_arm_bars_block_r16() {
    // Swordplay 2D 23-30, R16: no Block for the rest of the fight.
    let mut d = ash_hits_bryn(23);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    awaits_counter(&d, B, &[Decision::Dodge, Decision::Parry, Decision::Yield]);
    assert_eq!(
        d.refused(B, Decision::Block),
        RuleError::CounterBarred {
            counter: Decision::Block,
            injury: Injury::WeaponArm
        }
    );
    // Dodge is still allowed: 30 holds.
    play(&mut d, B, Decision::Dodge, &[30]);
    assert_eq!(d.last_roll(), (B, RollSkill::Dodge, 30, 30, true));
    d.all_dice_used();
}

#[test]
fn shield_arm_bars_block_but_keeps_sword_r16() {
    // Swordplay 2D 31-33, R16: no Block; Sword is not halved (45).
    let mut d = ash_hits_bryn(31);
    assert_eq!(d.m.injuries(B), vec![Injury::ShieldArm]);
    play(&mut d, B, Decision::Attack, &[45]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 45, 45, true));
    play(&mut d, A, Decision::Dodge, &[1]);
    play(&mut d, A, Decision::Attack, &[10]);
    awaits_counter(&d, B, &[Decision::Dodge, Decision::Parry, Decision::Yield]);
    assert_eq!(
        d.refused(B, Decision::Block),
        RuleError::CounterBarred {
            counter: Decision::Block,
            injury: Injury::ShieldArm
        }
    );
    // Parry at the full Sword: 45 − 20 = 25.
    play(&mut d, B, Decision::Parry, &[25]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 25, 25, true));
    d.all_dice_used();
}

#[test]
fn legs_bar_dodge_r16() {
    // Swordplay 2D 34-50, R16: the defender falls and may not Dodge; Block and Parry remain.
    let mut d = bryn_hits_ash(34);
    assert_eq!(d.m.injuries(A), vec![Injury::Legs]);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    awaits_counter(&d, A, &[Decision::Block, Decision::Parry, Decision::Yield]);
    assert_eq!(
        d.refused(A, Decision::Dodge),
        RuleError::CounterBarred {
            counter: Decision::Dodge,
            injury: Injury::Legs
        }
    );
    play(&mut d, A, Decision::Block, &[35]);
    assert_eq!(d.last_roll(), (A, RollSkill::Shield, 35, 35, true));
    // Legs leave the Sword whole: Ash's Attack is at 50.
    play(&mut d, A, Decision::Attack, &[50]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 50, 50, true));
}

#[test]
fn parry_is_always_allowed_r16() {
    // R16: weapon arm (no Block) and legs (no Dodge): only Parry is left, and it is the default.
    let mut d = bryn_hits_ash(40);
    bryn_hits_ash_again(&mut d, 27);
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm, Injury::Legs]);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    let (_, _, options, default) = prompt(&d);
    assert_eq!(options, vec![Decision::Parry, Decision::Yield]);
    assert_eq!(default, Decision::Parry);
    // Parry at 50 halved to 25, − 20 = 5.
    play(&mut d, A, Decision::Parry, &[5]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 5, 5, true));
}

#[test]
fn counter_barred_message_is_one_line_r16() {
    let mut d = bryn_hits_ash(34);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    let msg = d.refused(A, Decision::Dodge).to_string();
    assert!(!msg.contains('\n'));
    assert!(msg.contains("R16"), "{msg}");
}

#[test]
fn second_arm_hit_weapon_then_shield_kills_r17() {
    // Swordplay 2D NOTE, R17: weapon arm (23), then shield arm (33): a Kill.
    let mut d = bryn_hits_ash(23);
    bryn_hits_ash_again(&mut d, 33);
    assert!(d.saw(&Event::Damage {
        knight: A,
        attacker: B,
        roll: 33,
        result: DamageResult::ShieldArm
    }));
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
    d.all_dice_used();
}

#[test]
fn second_arm_hit_shield_then_weapon_kills_r17() {
    // R17: shield arm (31), then weapon arm (30).
    let mut d = bryn_hits_ash(31);
    bryn_hits_ash_again(&mut d, 30);
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
}

#[test]
fn second_weapon_arm_hit_kills_r17() {
    // R17: "of any kind": the same arm twice, 23 then 30.
    let mut d = bryn_hits_ash(23);
    bryn_hits_ash_again(&mut d, 30);
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
}

#[test]
fn second_shield_arm_hit_kills_r17() {
    // R17: 33 then 31.
    let mut d = bryn_hits_ash(33);
    bryn_hits_ash_again(&mut d, 31);
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
}

#[test]
fn legs_then_arm_is_only_a_first_arm_hit_r17() {
    // R17 counts arm hits only: legs (45), then weapon arm (26) is an injury, not a Kill.
    let mut d = bryn_hits_ash(45);
    bryn_hits_ash_again(&mut d, 26);
    assert!(!d.m.is_over());
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm, Injury::Legs]);
}

#[test]
fn second_legs_has_no_further_effect_r17() {
    // Swordplay 2D 34-50, R17: legs (50), then legs again (34): nothing more happens.
    let mut d = bryn_hits_ash(50);
    bryn_hits_ash_again(&mut d, 34);
    assert!(d.saw(&Event::Damage {
        knight: A,
        attacker: B,
        roll: 34,
        result: DamageResult::Legs
    }));
    assert!(!d.m.is_over());
    assert_eq!(d.m.injuries(A), vec![Injury::Legs]);
    assert_eq!(count(&d, |e| matches!(e, Event::Injury { .. })), 1);
    awaits_action(&d, A);
    d.all_dice_used();
}

#[test]
fn second_legs_gives_cpk_nothing_to_heal_r17() {
    // R17, R22, R128: the second LEGS is no injury suffered, so an armed CPK does not fire at it.
    let mut d = bryn_hits_ash(50);
    d.go(A, Decision::Psi(Some(PsiSkill::Cpk)));
    bryn_hits_ash_again(&mut d, 34);
    assert_eq!(count(&d, |e| matches!(e, Event::Psi { .. })), 0);
    assert_eq!(d.m.armed(A), Some(PsiSkill::Cpk));
    d.all_dice_used();
}

#[test]
fn a_kill_is_not_cancellable_by_cpk_r17() {
    // R17: a Kill is not an injury: Ash's armed CPK does not roll, and the match is over.
    let mut d = swordplay_of(ash(), bryn(), [Some(PsiSkill::Cpk), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, 22]);
    assert_eq!(count(&d, |e| matches!(e, Event::Psi { .. })), 0);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::Kill));
    d.all_dice_used();
}

#[test]
fn a_second_arm_hit_is_not_cancellable_by_cpk_r17() {
    // R17: the first arm hit (23) is an injury: CPK 21 > 20 fails and it stands. Ash arms CPK
    // again (one attempt left, R20); the second arm hit (31) is a Kill and CPK does not roll.
    let mut d = swordplay_of(ash(), bryn(), [Some(PsiSkill::Cpk), None]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, 23, 21]);
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm]);
    d.go(A, Decision::Psi(Some(PsiSkill::Cpk)));
    assert_eq!(d.m.psi_attempts_left(A), 1);
    bryn_hits_ash_again(&mut d, 31);
    assert_eq!(count(&d, |e| matches!(e, Event::Psi { .. })), 1);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
    d.all_dice_used();
}

#[test]
fn joust_weapon_arm_carries_into_swordplay_r12() {
    // R12: a fall with 96 is a weapon-arm injury; in Swordplay Ash's Sword 50 is halved to 25
    // and he may not Block; a Swordplay shield-arm hit (31) is then a second arm hit: a Kill.
    let mut d = ash_unhorsed(96);
    assert!(d.saw(&Event::Injury {
        knight: A,
        kind: Injury::WeaponArm
    }));
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm]);
    play(&mut d, A, Decision::Attack, &[26]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 26, 25, false));
    play(&mut d, B, Decision::Attack, &[10]);
    awaits_counter(&d, A, &[Decision::Dodge, Decision::Parry, Decision::Yield]);
    play(&mut d, A, Decision::Dodge, &[99, 31]);
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
    assert!(o.unhorsed[0] && o.swordplay);
    d.all_dice_used();
}

#[test]
fn joust_shield_arm_carries_into_swordplay_r12() {
    // R12: a fall with 98 is a shield-arm injury: no Block, Sword whole (50); a Swordplay
    // weapon-arm hit (30) is a second arm hit.
    let mut d = ash_unhorsed(98);
    assert_eq!(d.m.injuries(A), vec![Injury::ShieldArm]);
    play(&mut d, A, Decision::Attack, &[50]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 50, 50, true));
    play(&mut d, B, Decision::Dodge, &[1]);
    play(&mut d, B, Decision::Attack, &[10]);
    assert_eq!(
        d.refused(A, Decision::Block),
        RuleError::CounterBarred {
            counter: Decision::Block,
            injury: Injury::ShieldArm
        }
    );
    play(&mut d, A, Decision::Parry, &[99, 30]);
    let o = d.m.outcome().expect("a second arm hit ends the match");
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::SecondArmHit));
    d.all_dice_used();
}

#[test]
fn joust_arm_injury_then_swordplay_legs_is_no_kill_r12_r17() {
    // R12, R17: a carried weapon arm plus legs (40) is two injuries, not a second arm hit.
    let mut d = ash_unhorsed(97);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[99, 40]);
    assert!(!d.m.is_over());
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm, Injury::Legs]);
}

// ----- R5: the Bonus in Swordplay -----

/// Bryn's Observe 20 ≤ 30; Ash's Dodge 99 fails: Bryn earns +30 (2C). Ash's turn follows.
fn bryn_earns_30() -> Duel {
    let mut d = swordplay();
    play(&mut d, B, Decision::Observe, &[20]);
    play(&mut d, A, Decision::Dodge, &[99]);
    assert_eq!(d.m.bonus(B), (30, BonusMode::Weaken));
    d
}

#[test]
fn r5_weaken_is_the_default_and_lowers_the_counter_to_the_next_hit() {
    // R5: weaken: Ash's Dodge against Bryn's next attack that hits is 45 − 30 = 15; 16 fails.
    let mut d = bryn_earns_30();
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    play(&mut d, A, Decision::Dodge, &[16, 60]);
    assert!(d.rolls().contains(&(A, RollSkill::Dodge, 16, 15, false)));
    assert!(d.saw(&Event::BonusSpent {
        knight: B,
        amount: 30,
        mode: BonusMode::Weaken
    }));
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
    d.all_dice_used();
}

#[test]
fn r5_weaken_waits_for_an_attack_that_hits() {
    // R5: Bryn's Attack 99 misses: the weaken Bonus is not spent.
    let mut d = bryn_earns_30();
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[99]);
    assert_eq!(d.m.bonus(B), (30, BonusMode::Weaken));
    assert_eq!(count(&d, |e| matches!(e, Event::BonusSpent { .. })), 0);
}

#[test]
fn r5_attack_mode_adds_to_the_next_attack() {
    // R5: attack: Sword 45 + 30 = 75; 75 hits; Ash's Dodge is not weakened (45).
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    assert_eq!(d.m.bonus(B), (30, BonusMode::Attack));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[75]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 75, 75, true));
    assert_eq!(
        last_mods(&d),
        vec![Modifier {
            kind: ModKind::BonusAttack,
            value: 30
        }]
    );
    play(&mut d, A, Decision::Dodge, &[45]);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 45, 45, true));
    // R5: spent, and the mode returns to weaken.
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
    d.all_dice_used();
}

#[test]
fn r5_attack_mode_is_spent_by_a_missed_attack() {
    // R5: the Bonus is spent the first time its mode applies: Sword 76 > 75 misses, Bonus gone.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[76]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 76, 75, false));
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
}

#[test]
fn r5_attack_mode_adds_to_a_press() {
    // R5: a Press is an attack: 45 + 25 + 30 = 100.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Press, &[100]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 100, 100, true));
}

#[test]
fn r5_attack_mode_does_not_apply_to_a_parry() {
    // R5: a Parry is a Sword roll but no attack: 45 − 20 = 25; the Bonus waits.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[25]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 25, 25, true));
    assert_eq!(d.m.bonus(B), (30, BonusMode::Attack));
}

#[test]
fn r5_defend_mode_adds_to_the_counter_when_hit() {
    // R5: defend: Bryn's Dodge 30 + 30 = 60; 60 holds.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Defend));
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Dodge, &[60]);
    assert_eq!(d.last_roll(), (B, RollSkill::Dodge, 60, 60, true));
    assert_eq!(
        last_mods(&d),
        vec![Modifier {
            kind: ModKind::BonusDefend,
            value: 30
        }]
    );
    assert!(d.saw(&Event::BonusSpent {
        knight: B,
        amount: 30,
        mode: BonusMode::Defend
    }));
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
}

#[test]
fn r5_no_bonus_applies_to_an_observe_action() {
    // R5: an Observe is not an attack: Bryn's attack-mode Bonus does not raise Observe 30.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Observe, &[31]);
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 31, 30, false));
    assert!(last_mods(&d).is_empty());
    assert_eq!(d.m.bonus(B), (30, BonusMode::Attack));
}

#[test]
fn r5_weaken_does_not_apply_to_the_counter_against_an_observe() {
    // R5: Bryn's Observe 10 succeeds; Ash's Dodge against it stays 45 (45 holds), and since
    // 45 > 10, Bryn earns +10 more: 40 (R4).
    let mut d = bryn_earns_30();
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Observe, &[10]);
    play(&mut d, A, Decision::Dodge, &[45]);
    assert_eq!(d.last_roll(), (A, RollSkill::Dodge, 45, 45, true));
    assert!(last_mods(&d).is_empty());
    assert_eq!(count(&d, |e| matches!(e, Event::BonusSpent { .. })), 0);
    assert_eq!(d.m.bonus(B), (40, BonusMode::Weaken));
}

#[test]
fn r5_defend_does_not_apply_to_the_counter_against_an_observe() {
    // R5: Ash's Observe 10 succeeds; Bryn's Dodge stays 30 (31 fails): Ash earns +30, and
    // Bryn's defend Bonus waits for an attack.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Defend));
    play(&mut d, A, Decision::Observe, &[10]);
    play(&mut d, B, Decision::Dodge, &[31]);
    assert_eq!(d.last_roll(), (B, RollSkill::Dodge, 31, 30, false));
    assert_eq!(d.m.bonus(B), (30, BonusMode::Defend));
    assert_eq!(d.m.bonus(A), (30, BonusMode::Weaken));
}

#[test]
fn r5_luck_is_weakened_like_any_counter() {
    // R5, R15: Ash earns +30 against Bryn's Luck (after Bryn's Press); Bryn Presses again; Ash's
    // Attack hits and Bryn's Luck is 10 − 30 = −20: even a 1 fails.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Observe, &[10, 50]);
    assert_eq!(d.m.bonus(A).0, 30);
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Attack, &[10, 1, 60]);
    assert!(d.rolls().contains(&(B, RollSkill::Luck, 1, -20, false)));
    assert!(d.saw(&Event::BonusSpent {
        knight: A,
        amount: 30,
        mode: BonusMode::Weaken
    }));
    d.all_dice_used();
}

#[test]
fn r5_luck_takes_a_defend_bonus() {
    // R5, R15: Bryn's defend Bonus raises his Luck to 10 + 30 = 40; 40 holds.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Defend));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Attack, &[10, 40]);
    assert_eq!(d.last_roll(), (B, RollSkill::Luck, 40, 40, true));
    assert_eq!(d.m.bonus(B), (0, BonusMode::Weaken));
    d.all_dice_used();
}

#[test]
fn r5_a_new_bonus_after_one_is_spent_starts_in_weaken() {
    // R5: the attack-mode Bonus is spent (75 hits, Dodge 45 holds); the next Bonus earned
    // (Observe 10, Dodge 11 > 10: +10) is in weaken mode.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Attack, &[75]);
    play(&mut d, A, Decision::Dodge, &[45]);
    play(&mut d, A, Decision::Observe, &[99]);
    play(&mut d, B, Decision::Observe, &[10]);
    play(&mut d, A, Decision::Dodge, &[11]);
    assert_eq!(d.m.bonus(B), (10, BonusMode::Weaken));
}

#[test]
fn r5_the_mode_may_change_until_used() {
    // R5: attack, then defend: the last choice holds.
    let mut d = bryn_earns_30();
    d.go(B, Decision::Bonus(BonusMode::Attack));
    d.go(B, Decision::Bonus(BonusMode::Defend));
    assert!(d.saw(&Event::BonusMode {
        knight: B,
        mode: BonusMode::Defend
    }));
    play(&mut d, A, Decision::Attack, &[10]);
    play(&mut d, B, Decision::Parry, &[55]);
    assert_eq!(d.last_roll(), (B, RollSkill::Sword, 55, 55, true));
}

#[test]
fn r5_a_bonus_mode_without_a_bonus_is_refused() {
    // R5: /bonus with no Bonus is refused.
    let mut d = swordplay();
    assert_eq!(
        d.refused(B, Decision::Bonus(BonusMode::Attack)),
        RuleError::NoBonus
    );
    assert_eq!(
        d.refused(A, Decision::Bonus(BonusMode::Defend)),
        RuleError::NoBonus
    );
}

#[test]
fn r5_an_expired_bonus_leaves_the_mode_at_weaken() {
    // R5, R6: Ash earns +30 in pass 1 (Observe 10/40 against 90/30) and sets it to defend; no
    // Lance hits (99, 99), so it expires with the pass; his +30 of pass 2 is in weaken mode.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash(),
        bryn(),
        [None, None],
        &[10, 90, 90, 80],
    );
    d.go(A, Decision::Bonus(BonusMode::Defend));
    d.go(A, Decision::NoSweep);
    d.go(B, Decision::NoSweep);
    play(&mut d, A, Decision::High, &[99]);
    play(&mut d, B, Decision::High, &[99, 10, 90, 90, 80]);
    assert!(d.saw(&Event::BonusExpired {
        knight: A,
        amount: 30
    }));
    assert_eq!(d.m.pass(), 2);
    assert_eq!(d.m.bonus(A), (30, BonusMode::Weaken));
    d.all_dice_used();
}

#[test]
fn r6_a_joust_bonus_never_carries_into_swordplay() {
    // R6: Ash earns +30 in the Joust (Observe 10/40, Bryn 90/30), strikes first with it (6B),
    // misses (Lance 99), and is unhorsed (Bryn's Lance 10, Ash's Shield 50 > 10). The Bonus
    // expires with the pass; in Swordplay Bryn's Dodge against Ash's hit is a whole 30.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash(),
        bryn(),
        [None, None],
        &[10, 90, 90, 80],
    );
    assert_eq!(d.m.bonus(A).0, 30);
    d.go(A, Decision::NoSweep);
    d.go(B, Decision::NoSweep);
    play(&mut d, A, Decision::High, &[99]);
    play(&mut d, B, Decision::High, &[10, 50]);
    assert!(d.saw(&Event::BonusExpired {
        knight: A,
        amount: 30
    }));
    d.go(A, Decision::Swordplay);
    d.go(B, Decision::Swordplay);
    assert_eq!(d.m.bonus(A), (0, BonusMode::Weaken));
    assert_eq!(
        d.refused(A, Decision::Bonus(BonusMode::Attack)),
        RuleError::NoBonus
    );
    play(&mut d, A, Decision::Attack, &[10]);
    assert_eq!(d.last_roll(), (A, RollSkill::Sword, 10, 50, true));
    play(&mut d, B, Decision::Dodge, &[30]);
    assert_eq!(d.last_roll(), (B, RollSkill::Dodge, 30, 30, true));
    assert!(last_mods(&d).is_empty());
    d.all_dice_used();
}

// ----- R18: Observe with Hypercognition -----

#[test]
fn r18_hypercognition_observe_succeeds_and_keeps_its_number() {
    // R18: Hypercognition 15 ≤ 20; Observe 95 succeeds anyway. Ash's Dodge 45 holds and 45 is
    // not higher than 95: no Bonus (2C).
    let mut d = swordplay_of(ash(), bryn(), [None, Some(PsiSkill::Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[15, 95]);
    assert_eq!(d.last_roll(), (B, RollSkill::Observe, 95, 30, true));
    awaits_counter(&d, A, &ALL_COUNTERS);
    play(&mut d, A, Decision::Dodge, &[45]);
    assert_eq!(d.m.bonus(B).0, 0);
    d.all_dice_used();
}

#[test]
fn r18_hypercognition_observe_against_a_failed_counter_earns_30() {
    // R18, 2C: the automatic success still earns +30 when the counter fails (Dodge 99).
    let mut d = swordplay_of(ash(), bryn(), [None, Some(PsiSkill::Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[15, 100]);
    play(&mut d, A, Decision::Dodge, &[99]);
    assert_eq!(d.m.bonus(B).0, 30);
}

#[test]
fn r18_hypercognition_observe_rolled_low_still_compared() {
    // R18: automatic success with 5; Ash's Dodge 6 > 5: +10.
    let mut d = swordplay_of(ash(), bryn(), [None, Some(PsiSkill::Hypercognition)]);
    play(&mut d, B, Decision::Observe, &[15, 5]);
    play(&mut d, A, Decision::Dodge, &[6]);
    assert_eq!(d.m.bonus(B).0, 10);
}

// ----- R19: yield -----

#[test]
fn r19_yield_at_own_action() {
    // R19.
    let mut d = swordplay();
    d.go(B, Decision::Yield);
    assert!(d.saw(&Event::Yielded { knight: B }));
    assert!(d.saw(&Event::MatchEnded {
        winner: Some(A),
        reason: EndReason::Yield
    }));
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(A), EndReason::Yield));
    assert!(d.m.pending().is_empty());
}

#[test]
fn r19_yield_at_own_counter() {
    // R19: Ash yields instead of countering.
    let mut d = swordplay();
    play(&mut d, B, Decision::Attack, &[10]);
    d.go(A, Decision::Yield);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::Yield));
    d.all_dice_used();
}

#[test]
fn r19_no_yield_at_someone_elses_decision() {
    // R19: Bryn's action is awaited; Ash cannot yield now.
    let mut d = swordplay();
    assert_eq!(
        d.refused(A, Decision::Yield),
        RuleError::NotYourTurn {
            awaited: B,
            kind: PromptKind::Action
        }
    );
    play(&mut d, B, Decision::Attack, &[10]);
    assert_eq!(
        d.refused(B, Decision::Yield),
        RuleError::NotYourTurn {
            awaited: A,
            kind: PromptKind::Counter
        }
    );
    assert!(!d.m.is_over());
}

#[test]
fn r19_yield_at_a_joust_decision() {
    // R19 "any of their own decisions": Bryn's sweep announcement (R8: tied Ride rolls, his Ride
    // 40 is higher); Ash is not awaited.
    let mut d = Duel::start(
        MatchKind::Practice,
        ash(),
        bryn(),
        [None, None],
        &[95, 95, 95, 95],
    );
    assert_eq!(
        d.refused(A, Decision::Yield),
        RuleError::NotYourTurn {
            awaited: B,
            kind: PromptKind::Sweep
        }
    );
    d.go(B, Decision::Yield);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(A), EndReason::Yield));
    assert!(!o.swordplay);
}

#[test]
fn r19_yield_when_asked_to_fight_on() {
    // R19, R41: both are asked at once; either may yield at that decision, but not after
    // answering it.
    let mut d = ash_unhorsed_no_answer();
    d.go(B, Decision::Swordplay);
    assert_eq!(d.refused(B, Decision::Yield), RuleError::AlreadyAnswered);
    d.go(A, Decision::Yield);
    let o = d.m.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(B), EndReason::Yield));
    assert!(!o.swordplay);
}

#[test]
fn r19_nothing_after_the_match_is_over() {
    let mut d = swordplay();
    d.go(B, Decision::Yield);
    assert_eq!(d.refused(A, Decision::Yield), RuleError::MatchOver);
    assert_eq!(d.refused(A, Decision::Attack), RuleError::MatchOver);
}

// ----- R42: the default counter -----

/// Bryn hits (Sword 10) a challenger with the given skills; the default counter asked of him.
fn default_counter(shield: u8, dodge: u8, sword: u8) -> Decision {
    let a = knight("Cai", [30, 30, 30, shield, dodge, sword], [0; 7]);
    let mut d = swordplay_of(a, bryn(), [None, None]);
    play(&mut d, B, Decision::Attack, &[10]);
    let (_, _, _, default) = prompt(&d);
    assert_eq!(d.m.default_decision(A), Some(default));
    default
}

#[test]
fn r42_highest_effective_target_dodge() {
    // R42: Block 35, Dodge 45, Parry 50 − 20 = 30: Dodge.
    assert_eq!(default_counter(35, 45, 50), Decision::Dodge);
}

#[test]
fn r42_highest_effective_target_parry() {
    // R42: Block 40, Dodge 30, Parry 80 − 20 = 60: Parry.
    assert_eq!(default_counter(40, 30, 80), Decision::Parry);
}

#[test]
fn r42_highest_effective_target_block() {
    // R42: Block 50, Dodge 40, Parry 60 − 20 = 40: Block.
    assert_eq!(default_counter(50, 40, 60), Decision::Block);
}

#[test]
fn r42_three_way_tie_goes_to_block() {
    // R42: 40, 40, 60 − 20 = 40: Block.
    assert_eq!(default_counter(40, 40, 60), Decision::Block);
}

#[test]
fn r42_dodge_parry_tie_goes_to_dodge() {
    // R42: 30, 40, 60 − 20 = 40: Dodge.
    assert_eq!(default_counter(30, 40, 60), Decision::Dodge);
}

#[test]
fn r42_block_parry_tie_goes_to_block() {
    // R42: 40, 30, 60 − 20 = 40: Block.
    assert_eq!(default_counter(40, 30, 60), Decision::Block);
}

#[test]
fn r42_parry_is_sword_minus_20() {
    // R42: 30, 30, 50 − 20 = 30: a three-way tie at 30 (not Parry at 50): Block.
    assert_eq!(default_counter(30, 30, 50), Decision::Block);
    // 30, 30, 51 − 20 = 31: Parry.
    assert_eq!(default_counter(30, 30, 51), Decision::Parry);
}

#[test]
fn r42_barred_counters_are_skipped() {
    // R42, R16: Ash with legs: Dodge 45 is barred; Block 35 beats Parry 30.
    let mut d = bryn_hits_ash(34);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    assert_eq!(d.m.default_decision(A), Some(Decision::Block));
}

#[test]
fn r42_barred_block_is_skipped() {
    // R42, R16: Bryn with a shield arm: Block 40 is barred; Dodge 30 beats Parry 25.
    let mut d = ash_hits_bryn(32);
    play(&mut d, B, Decision::Attack, &[99]);
    play(&mut d, A, Decision::Attack, &[10]);
    assert_eq!(d.m.default_decision(B), Some(Decision::Dodge));
}

#[test]
fn r42_uses_the_halved_sword_r2() {
    // R42, R2: Sword 90 with a weapon arm is 45, Parry 25 < Dodge 30: Dodge (whole, Parry 70).
    let a = knight("Cai", [30, 30, 30, 30, 30, 90], [0; 7]);
    let mut d = swordplay_of(a, bryn(), [None, None]);
    play(&mut d, B, Decision::Attack, &[10]);
    assert_eq!(d.m.default_decision(A), Some(Decision::Parry));
    play(&mut d, A, Decision::Dodge, &[99, 24]);
    assert_eq!(d.m.injuries(A), vec![Injury::WeaponArm]);
    play(&mut d, A, Decision::Attack, &[99]);
    play(&mut d, B, Decision::Attack, &[10]);
    assert_eq!(d.m.default_decision(A), Some(Decision::Dodge));
}

#[test]
fn r42_no_default_counter_for_luck_r15() {
    // R15: Luck is forced, so no counter is ever awaited or defaulted.
    let mut d = swordplay();
    play(&mut d, B, Decision::Press, &[99]);
    play(&mut d, A, Decision::Attack, &[10, 50, 60]);
    let (side, kind, _, _) = prompt(&d);
    assert_eq!((side, kind), (B, PromptKind::Action));
    d.all_dice_used();
}
