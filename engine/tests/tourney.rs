//! The Tourney, ruling by ruling (T1–T22 of `rulesets/tourney.md`) with scripted dice. Every
//! number is worked from the page; the dice follow T22: the roll-off in pairs, challenger (A)
//! first; per /attack the attacker's die, the defender's, then the fumbler's effect die; per
//! /stand one die.

mod tourney_common;
use herald_engine::dice::ScriptedDice;
use herald_engine::game::{Fight, Side};
use herald_engine::name::NameError;
use herald_engine::tourney::event::{
    ExchangeResult, ExchangeRule, FirstActorRule, FumbleEffect, ModReason, Natural, TestKind,
};
use herald_engine::tourney::fight::exchange;
use herald_engine::tourney::*;
use tourney_common::*;
use Weapon::*;
use WeaponState::*;

// ----- knights used throughout -----

/// Al: broadsword 3, dagger 2, Strength 3, Health 7. Totals are easy: die + 3.
fn al() -> TourneySheet {
    sheet("Al", Broadsword, &[(Broadsword, 3), (Dagger, 2)], 3, 7)
}

/// Bo: broadsword 3, dagger 2, Strength 3, Health 7: Al's twin.
fn bo() -> TourneySheet {
    sheet("Bo", Broadsword, &[(Broadsword, 3), (Dagger, 2)], 3, 7)
}

/// Al against Bo, Al first (roll-off 5 v 2).
fn al_first() -> Pair {
    Pair::start(fresh(al()), fresh(bo()), &[5, 2])
}

/// The bout from two entrants, A first.
fn a_first(a: Entrant, b: Entrant) -> Pair {
    Pair::start(a, b, &[5, 2])
}

/// The `test` events among `events`, as (knight, test, die, base, modifier sum, total, success).
fn test_rows(events: &[Event]) -> Vec<(Side, TestKind, u8, i32, i32, i32, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Test {
                knight,
                test,
                die,
                base,
                modifiers,
                total,
                success,
                ..
            } => Some((
                *knight,
                *test,
                *die,
                *base,
                modifiers.total(),
                *total,
                *success,
            )),
            _ => None,
        })
        .collect()
}

fn mod_reasons(events: &[Event], who: Side, kind: TestKind) -> Vec<(ModReason, i32)> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Test {
                knight,
                test,
                modifiers,
                ..
            } if *knight == who && *test == kind => {
                Some(modifiers.iter().map(|m| (m.reason, m.value)).collect())
            }
            _ => None,
        })
        .expect("such a test")
}

fn exchange_of(events: &[Event]) -> (ExchangeResult, ExchangeRule) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Exchange { result, rule, .. } => Some((*result, *rule)),
            _ => None,
        })
        .expect("an exchange")
}

fn damage_of(events: &[Event]) -> Option<(u8, u8, u8)> {
    events.iter().find_map(|e| match e {
        Event::Damage {
            weapon_damage,
            strength_bonus,
            hits,
            ..
        } => Some((*weapon_damage, *strength_bonus, *hits)),
        _ => None,
    })
}

fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

// ----- T1 the test -----

// T1: a stand test succeeds only above the target; equal fails.
#[test]
fn t1_equal_to_the_target_fails() {
    let weak = sheet("Weak", Broadsword, &[(Broadsword, 3)], 1, 7);
    let mut p = a_first(fresh(weak), fresh(bo()));
    p.go(A, Decision::Attack, &[1, 3, 5]); // A fumbles and falls
    assert!(p.bout.is_down(A));
    p.go(B, Decision::Attack, &[2, 5]); // 5 v 7-1: parried
    let ev = p.go(A, Decision::Stand, &[2]); // 2 + 1 = 3, not above 3
    assert_eq!(test_rows(&ev), [(A, TestKind::Stand, 2, 1, 0, 3, false)]);
    assert!(p.bout.is_down(A), "equal to the target fails (T1)");
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Stand, &[3]); // 3 + 1 = 4 > 3
    assert_eq!(test_rows(&ev), [(A, TestKind::Stand, 3, 1, 0, 4, true)]);
    assert!(!p.bout.is_down(A));
}

// T1, T3: a combat test's total is d6 + the skill of the weapon in hand.
#[test]
fn t1_combat_total_is_die_plus_skill() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[4, 2]);
    assert_eq!(
        test_rows(&ev),
        [
            (A, TestKind::Attack, 4, 3, 0, 7, true),
            (B, TestKind::Defend, 2, 3, 0, 5, false)
        ]
    );
}

// ----- T2 the Rule of 1 and 6 -----

// T2: a natural 1 fails however high the total; a natural 6 succeeds however low.
#[test]
fn t2_the_natural_die_decides_first() {
    let master = sheet("Master", Broadsword, &[(Broadsword, 10)], 3, 7);
    let novice = sheet("Novice", Broadsword, &[(Broadsword, 0)], 3, 7);
    // The master's 1 (total 11) against the novice's 2 (total 2): parried.
    let mut p = a_first(fresh(master.clone()), fresh(novice.clone()));
    let ev = p.go(A, Decision::Attack, &[1, 2, 5]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Parried, ExchangeRule::AttackerFumble)
    );
    // The novice's 6 (total 6) against the master's 5 (total 15): a hit.
    let ev = p.go(B, Decision::Attack, &[6, 5]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Hit, ExchangeRule::AttackerCritical)
    );
}

// T2: a critical is a success and nothing more: the same damage as any hit.
#[test]
fn t2_a_critical_does_no_extra_damage() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[6, 2]);
    assert_eq!(damage_of(&ev), Some((2, 0, 2)));
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[5, 2]);
    assert_eq!(damage_of(&ev), Some((2, 0, 2)));
}

// T2: the stand test too: a 6 stands whatever the target, a 1 fails whatever the Strength.
#[test]
fn t2_stand_test_obeys_1_and_6() {
    let strong = sheet("Strong", Broadsword, &[(Broadsword, 3)], 9, 7);
    let setup = |target| BoutSetup {
        knights: [fresh(strong.clone()), fresh(bo())],
        tables: Tables {
            stand_target: target,
            ..Tables::default()
        },
    };
    let mut p = Pair::start_with(setup(3), &[5, 2]);
    p.go(A, Decision::Attack, &[1, 3, 6]); // fell
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Stand, &[1]); // 1 + 9 = 10 > 3, but a fumble
    assert!(!test_rows(&ev)[0].6 && p.bout.is_down(A));
    let mut p = Pair::start_with(setup(30), &[5, 2]);
    p.go(A, Decision::Attack, &[1, 3, 6]);
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Stand, &[6]); // 6 + 9 = 15, not above 30, but a critical
    assert!(test_rows(&ev)[0].6 && !p.bout.is_down(A));
}

// ----- T3 the opposed combat test -----

// T3: beat hits; a tie is parried; lower is parried, and the defender never hits back.
#[test]
fn t3_beat_tie_lower() {
    for (a_die, b_die, want) in [
        (4, 3, (ExchangeResult::Hit, ExchangeRule::Beat)),
        (4, 4, (ExchangeResult::Parried, ExchangeRule::Tie)),
        (2, 5, (ExchangeResult::Parried, ExchangeRule::Lower)),
    ] {
        let mut p = al_first();
        let ev = p.go(A, Decision::Attack, &[a_die, b_die]);
        assert_eq!(exchange_of(&ev), want, "{a_die} v {b_die}");
        let landed = want.0 == ExchangeResult::Hit;
        assert_eq!(p.bout.hits(B), if landed { 2 } else { 0 });
        assert_eq!(p.bout.hits(A), 0, "only the attacker can hit (T3)");
    }
}

// ----- T4 criticals and fumbles together -----

// T4: the whole order of precedence, as a table.
#[test]
fn t4_order_of_precedence() {
    use ExchangeResult::*;
    use ExchangeRule::*;
    use Natural::*;
    let c = Some(Critical);
    let f = Some(Fumble);
    let cases = [
        (c, c, 12, 12, (Nothing, BothCritical)),
        (f, f, 3, 3, (Nothing, BothFumble)),
        (c, f, 3, 20, (Hit, AttackerCritical)),
        (c, None, 3, 20, (Hit, AttackerCritical)),
        (f, c, 20, 3, (Parried, DefenderCritical)),
        (None, c, 20, 3, (Parried, DefenderCritical)),
        (f, None, 20, 3, (Parried, AttackerFumble)),
        (None, f, 3, 20, (Hit, DefenderFumble)),
        (None, None, 8, 7, (Hit, Beat)),
        (None, None, 7, 7, (Parried, Tie)),
        (None, None, 6, 7, (Parried, Lower)),
    ];
    for (a, d, at, dt, want) in cases {
        assert_eq!(exchange(a, d, at, dt), want, "{a:?} {d:?} {at} {dt}");
    }
}

// T4: both criticals: nothing at all (no hit, no effect die).
#[test]
fn t4_both_critical_nothing_happens() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[6, 6]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Nothing, ExchangeRule::BothCritical)
    );
    assert_eq!(damage_of(&ev), None);
    assert_eq!(p.dice.taken(), 4, "no fumble die");
}

// T4: both fumbles: nothing at all (no hit, no fumble effect for either).
#[test]
fn t4_both_fumble_nothing_happens() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[1, 1]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Nothing, ExchangeRule::BothFumble)
    );
    assert!(!has(&ev, |e| matches!(e, Event::FumbleEffect { .. })));
    assert_eq!(p.bout.weapons(A), (Sound, Sound));
    assert_eq!(p.bout.weapons(B), (Sound, Sound));
}

// T4: the attacker's critical beats the defender's fumble: a hit, and the fumbler's effect.
#[test]
fn t4_critical_against_fumble_hits_and_the_fumbler_suffers() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[6, 1, 2]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Hit, ExchangeRule::AttackerCritical)
    );
    assert_eq!(p.bout.hits(B), 2);
    assert!(has(&ev, |e| matches!(
        e,
        Event::FumbleEffect {
            knight: B,
            die: 2,
            effect: FumbleEffect::WeaponDamaged
        }
    )));
    assert_eq!(p.bout.weapons(B).0, Damaged);
}

// T4: the defender's critical parries the attacker's fumble; the attacker suffers his effect.
#[test]
fn t4_defender_critical_against_attacker_fumble() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[1, 6, 4]);
    assert_eq!(
        exchange_of(&ev),
        (ExchangeResult::Parried, ExchangeRule::DefenderCritical)
    );
    assert!(p.bout.is_down(A), "fumble die 4: he falls");
}

// ----- T6 the fumble effect -----

// T6: the effect die: 1–3 the weapon in hand is damaged, 4–6 he falls.
#[test]
fn t6_fumble_die_bands() {
    for die in 1..=6u32 {
        let mut p = al_first();
        let ev = p.go(A, Decision::Attack, &[1, 3, die]);
        let damaged = die <= 3;
        let want = if damaged {
            FumbleEffect::WeaponDamaged
        } else {
            FumbleEffect::Fell
        };
        assert!(
            has(
                &ev,
                |e| matches!(e, Event::FumbleEffect { knight: A, effect, .. } if *effect == want)
            ),
            "die {die}"
        );
        assert_eq!(p.bout.weapons(A).0 == Damaged, damaged, "die {die}");
        assert_eq!(p.bout.is_down(A), !damaged, "die {die}");
    }
}

// T6: the effect die comes after the exchange and its damage.
#[test]
fn t6_effect_comes_after_the_damage() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Attack, &[4, 1, 2]);
    let kinds: Vec<&str> = ev
        .iter()
        .map(|e| match e {
            Event::Action { .. } => "action",
            Event::Test { .. } => "test",
            Event::Exchange { .. } => "exchange",
            Event::Damage { .. } => "damage",
            Event::FumbleEffect { .. } => "fumble_effect",
            Event::WeaponState { .. } => "weapon_state",
            Event::RoundStarted { .. } => "round_started",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "action",
            "test",
            "test",
            "exchange",
            "damage",
            "fumble_effect",
            "weapon_state"
        ]
    );
}

// T6, T21: the fumble effect is rolled even when the blow ended the bout; its damage outlasts it.
#[test]
fn t6_fumble_effect_rolled_when_the_blow_ends_the_fight() {
    let mut p = a_first(fresh(al()), worn(bo(), 5, Sound, Sound));
    let ev = p.go(A, Decision::Attack, &[3, 1, 2]); // Bo's fumble is hit: 2 hits, Health 0
    assert_eq!(p.bout.outcome().unwrap().reason, EndReason::Out);
    assert_eq!(p.dice.taken(), 5, "the effect die was rolled");
    assert!(matches!(ev.last(), Some(Event::FightEnded { .. })));
    assert_eq!(p.bout.carry("d")[1].main, Damaged);
}

// ----- T7 damaged, lost, the dagger -----

// T7: a damaged weapon fights like a sound one.
#[test]
fn t7_damaged_fights_like_sound() {
    let mut sound = a_first(fresh(al()), fresh(bo()));
    let mut damaged = a_first(worn(al(), 0, Damaged, Sound), fresh(bo()));
    let a = sound.go(A, Decision::Attack, &[4, 3]);
    let b = damaged.go(A, Decision::Attack, &[4, 3]);
    assert_eq!(a, b);
}

// T7: damaged again it breaks; the dagger is drawn at once and fights with its skill and damage;
// the dagger damaged twice is lost too, and the knight, disarmed, loses.
#[test]
fn t7_break_draw_dagger_then_disarmed() {
    let mut p = a_first(worn(al(), 0, Damaged, Sound), fresh(bo()));
    let ev = p.go(A, Decision::Attack, &[1, 3, 3]);
    assert!(has(&ev, |e| *e
        == Event::WeaponState {
            knight: A,
            weapon: Broadsword,
            state: Lost
        }));
    assert!(has(&ev, |e| *e
        == Event::WeaponDrawn {
            knight: A,
            weapon: Dagger
        }));
    assert_eq!(p.bout.wielding(A), Dagger);
    assert!(!p.bout.is_over(), "drawing the dagger takes no action");
    p.go(B, Decision::Attack, &[2, 5]);
    // With the dagger: skill 2, damage 1.
    let ev = p.go(A, Decision::Attack, &[5, 2]);
    assert_eq!(test_rows(&ev)[0], (A, TestKind::Attack, 5, 2, 0, 7, true));
    assert_eq!(damage_of(&ev), Some((1, 0, 1)));
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Attack, &[1, 3, 1]);
    assert!(has(&ev, |e| *e
        == Event::WeaponState {
            knight: A,
            weapon: Dagger,
            state: Damaged
        }));
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Attack, &[1, 3, 2]);
    assert!(has(&ev, |e| *e
        == Event::WeaponState {
            knight: A,
            weapon: Dagger,
            state: Lost
        }));
    assert!(has(&ev, |e| *e == Event::Disarmed { knight: A }));
    let o = *p.bout.outcome().expect("disarmed ends the bout");
    assert_eq!((o.winner, o.reason), (B, EndReason::Disarmed));
    assert_eq!(p.bout.carry("d")[0].main, Lost);
    assert_eq!(p.bout.carry("d")[0].dagger, Lost);
}

// T7, T16: a knight whose main weapon was lost starts the next bout with his dagger.
#[test]
fn t7_lost_main_starts_with_the_dagger() {
    let p = a_first(worn(al(), 0, Lost, Sound), fresh(bo()));
    assert_eq!(p.bout.wielding(A), Dagger);
    match &p.events[0] {
        Event::FightStarted { knights, .. } => {
            assert_eq!(knights[0].wields, Dagger);
            assert_eq!(knights[0].skill, 2);
            assert_eq!(knights[0].main, Broadsword);
            assert_eq!(knights[0].main_state, Lost);
        }
        other => panic!("{other:?}"),
    }
}

// T7: the defender can be disarmed too, by his own fumble, and loses though he was not out.
#[test]
fn t7_defender_disarmed_loses() {
    let mut p = a_first(fresh(al()), worn(bo(), 0, Lost, Damaged));
    let ev = p.go(A, Decision::Attack, &[2, 1, 3]); // Bo's fumble: hit, dagger lost
    assert!(has(&ev, |e| *e == Event::Disarmed { knight: B }));
    let o = *p.bout.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (A, EndReason::Disarmed));
}

// T7: a knight without any weapon cannot fight: a setup with one ends before the roll-off.
#[test]
fn t7_unarmed_at_the_start_loses_at_once() {
    let p = Pair::start(fresh(al()), worn(bo(), 0, Lost, Lost), &[]);
    let o = *p.bout.outcome().unwrap();
    assert_eq!((o.winner, o.reason, o.rounds), (A, EndReason::Disarmed, 0));
    assert_eq!(p.dice.taken(), 0);
}

// ----- T8 falling down -----

// T8: a fallen knight must stand (or yield); /attack is refused and names the options.
#[test]
fn t8_down_must_stand() {
    let mut p = al_first();
    p.go(A, Decision::Attack, &[1, 3, 5]);
    p.go(B, Decision::Attack, &[2, 5]);
    let err = p.refused(A, Decision::Attack);
    assert_eq!(err.to_string(), "you are down: /stand or /yield (T8)");
    let prompt = &p.bout.pending()[0];
    assert_eq!(prompt.options, [Decision::Stand, Decision::Yield]);
    assert_eq!(prompt.default, Decision::Stand);
}

// T8: /stand while standing is refused too.
#[test]
fn t8_stand_while_standing_refused() {
    let mut p = al_first();
    let err = p.refused(A, Decision::Stand);
    assert_eq!(err.to_string(), "you are standing: /attack or /yield (T8)");
}

// T8: down is −1 on combat tests (it bites when defending), not on the stand test.
#[test]
fn t8_down_minus_one_on_combat_only() {
    let mut p = al_first();
    p.go(A, Decision::Attack, &[1, 3, 5]);
    let ev = p.go(B, Decision::Attack, &[3, 4]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Defend),
        [(ModReason::Down, -1)]
    );
    assert_eq!(test_rows(&ev)[1], (A, TestKind::Defend, 4, 3, -1, 6, true));
    let ev = p.go(A, Decision::Stand, &[4]);
    assert_eq!(mod_reasons(&ev, A, TestKind::Stand), []);
}

// T8: a failed stand leaves him down and spends the action: the other acts next.
#[test]
fn t8_failed_stand_spends_the_action() {
    let mut p = al_first();
    p.go(A, Decision::Attack, &[1, 3, 5]);
    p.go(B, Decision::Attack, &[2, 5]);
    let ev = p.go(A, Decision::Stand, &[1]);
    assert!(!has(&ev, |e| matches!(e, Event::Down { .. })));
    assert!(p.bout.is_down(A));
    assert_eq!(p.bout.awaited(), Some(B));
}

// T8: falling while down changes nothing.
#[test]
fn t8_falling_while_down_changes_nothing() {
    let mut p = al_first();
    p.go(A, Decision::Attack, &[1, 3, 5]); // Al falls
    let ev = p.go(B, Decision::Attack, &[3, 1, 6]); // Al fumbles defending, falls again
    assert!(has(&ev, |e| matches!(
        e,
        Event::FumbleEffect {
            knight: A,
            effect: FumbleEffect::Fell,
            ..
        }
    )));
    assert!(
        !has(&ev, |e| matches!(e, Event::Down { .. })),
        "no second fall"
    );
    assert!(p.bout.is_down(A));
    assert_eq!(p.bout.weapons(A), (Sound, Sound));
    // One stand gets him up.
    p.go(A, Decision::Stand, &[4]);
    assert!(!p.bout.is_down(A));
}

// ----- T9 rounds, who acts first -----

// T9: the higher roll-off die starts; the challenged can start.
#[test]
fn t9_higher_roll_off_starts() {
    let p = Pair::start(fresh(al()), fresh(bo()), &[2, 5]);
    assert_eq!(p.bout.awaited(), Some(B));
    assert!(p.events.contains(&Event::FirstActor {
        knight: B,
        rule: FirstActorRule::RollOff
    }));
}

// T9: a tied pair rolls again.
#[test]
fn t9_ties_roll_again() {
    let p = Pair::start(fresh(al()), fresh(bo()), &[3, 3, 6, 6, 1, 2]);
    assert_eq!(p.bout.awaited(), Some(B));
    let roll_offs = p
        .events
        .iter()
        .filter(|e| matches!(e, Event::RollOff { .. }))
        .count();
    assert_eq!(roll_offs, 6);
}

// T9: after 100 tied pairs the challenger starts (rule `ties`).
#[test]
fn t9_hundred_tied_pairs_challenger_starts() {
    let rolls = vec![4u32; 200];
    let p = Pair::start(fresh(al()), fresh(bo()), &rolls);
    assert_eq!(p.dice.taken(), 200);
    assert_eq!(p.bout.awaited(), Some(A));
    assert!(p.events.contains(&Event::FirstActor {
        knight: A,
        rule: FirstActorRule::Ties
    }));
    // 99 tied pairs and then a decided one is still the roll-off.
    let mut rolls = vec![4u32; 198];
    rolls.extend([1, 2]);
    let p = Pair::start(fresh(al()), fresh(bo()), &rolls);
    assert_eq!(p.bout.awaited(), Some(B));
}

// T9: a round is one action each, the first actor first every round.
#[test]
fn t9_rounds_alternate() {
    let mut p = Pair::start(fresh(al()), fresh(bo()), &[1, 4]);
    assert_eq!((p.bout.round(), p.bout.awaited()), (1, Some(B)));
    let ev = p.go(B, Decision::Attack, &[2, 5]);
    assert!(!has(&ev, |e| matches!(e, Event::RoundStarted { .. })));
    assert_eq!((p.bout.round(), p.bout.awaited()), (1, Some(A)));
    let ev = p.go(A, Decision::Attack, &[2, 5]);
    assert_eq!(ev.last(), Some(&Event::RoundStarted { round: 2 }));
    assert_eq!((p.bout.round(), p.bout.awaited()), (2, Some(B)));
    let ev = p.go(B, Decision::Attack, &[2, 5]);
    assert!(has(&ev, |e| *e
        == Event::Action {
            knight: B,
            action: event::ActionKind::Attack,
            round: 2
        }));
}

// T9: the roll-off is not a test: a 1 and a 6 are just numbers (no natural, no effect).
#[test]
fn t9_roll_off_is_not_a_test() {
    let p = Pair::start(fresh(al()), fresh(bo()), &[6, 1]);
    assert_eq!(p.dice.taken(), 2);
    assert_eq!(p.bout.awaited(), Some(A));
    assert_eq!(
        p.events.len(),
        5,
        "fight_started, two roll_offs, first_actor, round_started"
    );
}

// ----- T10 weapons -----

// T10: damage per weapon: dagger 1, broadsword, mace, axe 2, greatsword 3.
#[test]
fn t10_weapon_damages() {
    for (w, dmg) in [
        (Dagger, 1),
        (Broadsword, 2),
        (Mace, 2),
        (Axe, 2),
        (Greatsword, 3),
    ] {
        assert_eq!(Tables::default().damage(w), dmg);
        let (main, state) = if w == Dagger {
            (Broadsword, Lost)
        } else {
            (w, Sound)
        };
        let k = sheet("K", main, &[(w, 3)], 3, 7);
        let mut p = a_first(worn(k, 0, state, Sound), fresh(bo()));
        let ev = p.go(A, Decision::Attack, &[5, 2]);
        assert_eq!(damage_of(&ev), Some((dmg, 0, dmg)), "{w:?}");
        assert_eq!(p.bout.hits(B), dmg);
    }
}

// T10: the two-handed sword is −2 on its combat test when defending, not when attacking.
#[test]
fn t10_greatsword_minus_two_defending() {
    let gs = sheet("Gs", Greatsword, &[(Greatsword, 3)], 3, 7);
    let mut p = a_first(fresh(gs), fresh(bo()));
    let ev = p.go(A, Decision::Attack, &[3, 3]);
    assert_eq!(mod_reasons(&ev, A, TestKind::Attack), []);
    let ev = p.go(B, Decision::Attack, &[3, 4]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Defend),
        [(ModReason::TwoHandedDefence, -2)]
    );
    // 3+3 = 6 against 4+3-2 = 5: a hit that a sword would have parried.
    assert_eq!(exchange_of(&ev), (ExchangeResult::Hit, ExchangeRule::Beat));
}

// T10: the tables are realm data; a bout keeps the tables it started with.
#[test]
fn t10_realm_tables_apply() {
    let tables = Tables {
        damage: tables::WeaponDamage {
            broadsword: 4,
            ..Default::default()
        },
        greatsword_defence: -1,
        ..Default::default()
    };
    let mut p = Pair::start_with(
        BoutSetup {
            knights: [fresh(al()), fresh(bo())],
            tables: tables.clone(),
        },
        &[5, 2],
    );
    let ev = p.go(A, Decision::Attack, &[5, 2]);
    assert_eq!(damage_of(&ev), Some((4, 0, 4)));
    assert_eq!(p.bout.setup().tables, tables);
}

// T10: the tables read from realm data in the page's shape; missing entries are the page's.
#[test]
fn t10_tables_serde_shape() {
    let t: Tables = serde_json::from_value(serde_json::json!({
        "weapons": {"greatsword": 4},
        "stand_target": 2
    }))
    .unwrap();
    assert_eq!(t.damage(Greatsword), 4);
    assert_eq!(t.damage(Dagger), 1);
    assert_eq!(t.stand_target, 2);
    assert_eq!(t.greatsword_defence, -2);
    assert_eq!(t.strength_bonus, [5, 7, 9]);
    let json = serde_json::to_value(Tables::default()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "weapons": {"dagger": 1, "broadsword": 2, "mace": 2, "axe": 2, "greatsword": 3},
            "strength_bonus": [5, 7, 9], "stand_target": 3, "greatsword_defence": -2
        })
    );
    let empty: Tables = serde_json::from_str("{}").unwrap();
    assert_eq!(empty, Tables::default());
}

// ----- T11 Strength -----

// T11: the bonus bands: 1–4 +0, 5–6 +1, 7–8 +2, 9 +3.
#[test]
fn t11_strength_bonus_bands() {
    let t = Tables::default();
    let got: Vec<u8> = (1..=9).map(|s| t.strength_bonus(s)).collect();
    assert_eq!(got, [0, 0, 0, 0, 1, 1, 2, 2, 3]);
}

// T11: the bonus is added to each blow.
#[test]
fn t11_bonus_on_every_blow() {
    for (strength, bonus) in [(4, 0), (5, 1), (7, 2), (9, 3)] {
        let k = sheet("K", Mace, &[(Mace, 3)], strength, 7);
        let mut p = a_first(fresh(k), fresh(bo()));
        let ev = p.go(A, Decision::Attack, &[5, 2]);
        assert_eq!(
            damage_of(&ev),
            Some((2, bonus, 2 + bonus)),
            "Strength {strength}"
        );
    }
}

// ----- T12 creation -----

fn new(name: &str) -> NewTourneyKnight {
    NewTourneyKnight {
        name: name.into(),
        ..Default::default()
    }
}

// T12: the defaults: broadsword 6, dagger 1, Strength 3, Health 7 (Sir Ector).
#[test]
fn t12_defaults() {
    let k = new("Ector").create(false).unwrap();
    assert_eq!(k.main, Broadsword);
    assert_eq!(k.skills.get(Broadsword), 6);
    assert_eq!(k.skills.get(Dagger), 1);
    assert_eq!(k.skills.get(Mace), 0);
    assert_eq!((k.strength, k.health), (3, 7));
    assert_eq!(k.styled(), "Sir Ector");
    let mut m = new("Maud");
    m.main = Some(Greatsword);
    m.style = herald_engine::psiknight::Style::Dame;
    let k = m.create(false).unwrap();
    assert_eq!((k.skills.get(Greatsword), k.skills.get(Broadsword)), (6, 0));
    assert_eq!(k.styled(), "Dame Maud");
}

// T12: with skills given, the unlisted are 0; Gimby fits the budget.
#[test]
fn t12_given_skills_and_gimby() {
    let k = gimby();
    assert_eq!(k.skills.get(Broadsword), 4);
    assert_eq!(k.skills.get(Dagger), 1);
    assert_eq!(k.skills.get(Axe), 0);
    assert_eq!(k.strength, 5);
    let mut n = new("Axel");
    n.main = Some(Axe);
    n.skills = Some(vec![(Axe, 5), (Mace, 2)]);
    let k = n.create(false).unwrap();
    assert_eq!(
        (k.skills.get(Axe), k.skills.get(Mace), k.skills.get(Dagger)),
        (5, 2, 0)
    );
}

// T12: the page's refusals, word for word.
#[test]
fn t12_refusals() {
    let mut n = new("Ector");
    n.strength = Some(4);
    let e = n.create(false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "skills and Strength must add up to exactly 10 (T12): these add up to 11"
    );
    let mut n = new("Ector");
    n.skills = Some(vec![(Broadsword, 7)]);
    n.strength = Some(3);
    assert_eq!(
        n.create(false).unwrap_err().to_string(),
        "broadsword 7: a skill is 0 to 6 (T12)"
    );
    let mut n = new("Ector");
    n.main = Some(Dagger);
    assert_eq!(
        n.create(false).unwrap_err().to_string(),
        "the dagger is every knight's sidearm, not a main weapon (T7, T10)"
    );
    assert_eq!(
        n.create(true).unwrap_err(),
        SheetError::DaggerMain,
        "NPCs too"
    );
}

// T12: Strength 1–5, Health 7 only, no skill twice, the budget short of 10.
#[test]
fn t12_ranges_and_repeats() {
    let mut n = new("K");
    n.skills = Some(vec![(Broadsword, 4)]);
    n.strength = Some(6);
    assert!(matches!(
        n.create(false),
        Err(SheetError::StrengthRange {
            value: 6,
            max: 5,
            ..
        })
    ));
    n.strength = Some(0);
    assert!(matches!(
        n.create(false),
        Err(SheetError::StrengthRange { value: 0, .. })
    ));
    let mut n = new("K");
    n.health = Some(8);
    assert_eq!(n.create(false), Err(SheetError::PlayerHealth(8)));
    n.health = Some(7);
    assert!(n.create(false).is_ok());
    let mut n = new("K");
    n.skills = Some(vec![(Broadsword, 3), (Broadsword, 3), (Dagger, 1)]);
    assert_eq!(n.create(false), Err(SheetError::SkillRepeated(Broadsword)));
    let mut n = new("K");
    n.skills = Some(vec![(Broadsword, 3)]);
    assert_eq!(n.create(false), Err(SheetError::Budget(6)));
}

// T12 (R122): names of 1–32 letters, digits, spaces, ' - and .; runs of spaces folded.
#[test]
fn t12_names() {
    assert_eq!(new("  Sir   Kay ").create(false).unwrap().name, "Sir Kay");
    assert_eq!(
        new("O'Neil-Smith Jr.").create(false).unwrap().name,
        "O'Neil-Smith Jr."
    );
    assert_eq!(
        new("  ").create(false),
        Err(SheetError::Name(NameError::Empty))
    );
    assert_eq!(
        new(&"x".repeat(33)).create(false),
        Err(SheetError::Name(NameError::TooLong(33)))
    );
    assert!(new(&"x".repeat(32)).create(false).is_ok());
    assert_eq!(
        new("@here").create(false),
        Err(SheetError::Name(NameError::Character('@')))
    );
}

// T12: `--skill` text: weapons and numbers, each mistake its own error.
#[test]
fn t12_parse_skills() {
    assert_eq!(
        parse_skills("broadsword:4,dagger:1").unwrap(),
        [(Broadsword, 4), (Dagger, 1)]
    );
    assert_eq!(
        parse_skills(" Mace : 5 , AXE:1 ").unwrap(),
        [(Mace, 5), (Axe, 1)]
    );
    let e = parse_skills("spear:3").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown weapon 'spear': choose dagger, broadsword, mace, axe or greatsword"
    );
    assert_eq!(
        parse_skills("mace:x"),
        Err(SheetError::SkillSyntax("mace:x".into()))
    );
    assert_eq!(
        parse_skills("mace"),
        Err(SheetError::SkillSyntax("mace".into()))
    );
    assert_eq!(
        parse_skills("mace:"),
        Err(SheetError::SkillSyntax("mace:".into()))
    );
    assert_eq!(
        parse_skills("mace:300"),
        Err(SheetError::SkillSyntax("mace:300".into()))
    );
    assert_eq!(
        parse_skills("mace:1,mace:2"),
        Err(SheetError::SkillRepeated(Mace))
    );
    assert_eq!(parse_skills(""), Err(SheetError::NoSkills));
}

// T10: weapons by token, any case; labels for narration; serde as the token.
#[test]
fn t10_weapon_names() {
    assert_eq!("GreatSword".parse::<Weapon>(), Ok(Greatsword));
    assert_eq!("two-handed sword".parse::<Weapon>(), Ok(Greatsword));
    assert_eq!(Greatsword.label(), "two-handed sword");
    assert_eq!(Broadsword.label(), "broadsword");
    let tokens: Vec<&str> = Weapon::ALL.iter().map(|w| w.token()).collect();
    assert_eq!(
        tokens,
        ["dagger", "broadsword", "mace", "axe", "greatsword"]
    );
    assert_eq!(serde_json::to_value(Greatsword).unwrap(), "greatsword");
    assert_eq!(serde_json::to_value(Damaged).unwrap(), "damaged");
    assert_eq!(Lost.name(), "lost");
    let err = "lance".parse::<Weapon>().unwrap_err();
    assert!(err.to_string().contains("'lance'") && err.to_string().contains("greatsword"));
    assert_eq!(
        serde_json::to_value(ector().skills).unwrap(),
        serde_json::json!({"dagger": 1, "broadsword": 6, "mace": 0, "axe": 0, "greatsword": 0})
    );
    let back: TourneySheet =
        serde_json::from_value(serde_json::to_value(gimby()).unwrap()).unwrap();
    assert_eq!(back, gimby());
}

// ----- T13 hits and Health -----

// T13: hits are capped at Health: effective Health stops at 0.
#[test]
fn t13_hits_capped() {
    let gs = sheet("Gs", Greatsword, &[(Greatsword, 3)], 9, 7);
    let mut p = a_first(fresh(gs), worn(bo(), 5, Sound, Sound));
    let ev = p.go(A, Decision::Attack, &[5, 2]); // 3 + 3 = 6 hits on 2 left
    assert!(has(&ev, |e| matches!(
        e,
        Event::Damage {
            hits: 6,
            hits_taken: 7,
            health: 0,
            ..
        }
    )));
    assert_eq!(p.bout.hits(B), 7);
    assert_eq!(p.bout.carry("d")[1].hits, 7);
}

// T13: at effective Health 1, −1 on every test: attack, defend and stand.
#[test]
fn t13_health_1_minus_one_on_every_test() {
    let mut p = a_first(worn(al(), 6, Sound, Sound), fresh(bo()));
    let ev = p.go(A, Decision::Attack, &[1, 3, 5]); // falls
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Attack),
        [(ModReason::Health1, -1)]
    );
    let ev = p.go(B, Decision::Attack, &[2, 5]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Defend),
        [(ModReason::Health1, -1), (ModReason::Down, -1)]
    );
    let ev = p.go(A, Decision::Stand, &[4]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Stand),
        [(ModReason::Health1, -1)]
    );
    assert_eq!(test_rows(&ev)[0].5, 4 + 3 - 1);
}

// T13, T20: however he came to it: an NPC of Health 1 has −1 from the start.
#[test]
fn t13_health_1_npc() {
    let frail = sheet("Frail", Broadsword, &[(Broadsword, 3)], 3, 1);
    let mut p = a_first(fresh(frail), fresh(bo()));
    let ev = p.go(A, Decision::Attack, &[4, 2]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Attack),
        [(ModReason::Health1, -1)]
    );
    assert_eq!(mod_reasons(&ev, B, TestKind::Defend), []);
}

// ----- T14 yielding -----

// T14: a blow that leaves a knight at Health 1 offers him to yield, in his next prompt.
#[test]
fn t14_yield_offered_at_health_1() {
    let mut p = a_first(fresh(al()), worn(bo(), 4, Sound, Sound));
    let ev = p.go(A, Decision::Attack, &[4, 2]);
    assert_eq!(
        ev.last(),
        Some(&Event::YieldOffered {
            knight: B,
            health: 1
        })
    );
    assert!(p.bout.yield_offered(B));
    assert_eq!(p.bout.awaited(), Some(B), "his prompt comes next");
    p.go(B, Decision::Attack, &[2, 5]);
    assert!(!p.bout.yield_offered(B), "the offer goes with his decision");
}

// T14: no offer when the blow leaves him above 1.
#[test]
fn t14_no_offer_above_1() {
    let mut p = a_first(fresh(al()), worn(bo(), 3, Sound, Sound));
    let ev = p.go(A, Decision::Attack, &[4, 2]);
    assert!(!has(&ev, |e| matches!(e, Event::YieldOffered { .. })));
    assert!(!p.bout.yield_offered(B));
}

// T14: any knight may yield at his own decisions: standing, down, first thing.
#[test]
fn t14_yield_at_any_own_decision() {
    let mut p = al_first();
    let ev = p.go(A, Decision::Yield, &[]);
    assert_eq!(
        ev,
        [
            Event::Action {
                knight: A,
                action: event::ActionKind::Yield,
                round: 1
            },
            Event::Yielded { knight: A },
            Event::FightEnded {
                winner: B,
                loser: A,
                reason: EndReason::Yielded,
                rounds: 1
            }
        ]
    );
    let mut p = al_first();
    p.go(A, Decision::Attack, &[1, 3, 5]);
    p.go(B, Decision::Attack, &[2, 5]);
    p.go(A, Decision::Yield, &[]); // down
    assert_eq!(p.bout.outcome().unwrap().reason, EndReason::Yielded);
    // Not at the other's decision.
    let mut p = al_first();
    let err = p.refused(B, Decision::Yield);
    assert_eq!(err, RuleError::NotYourTurn { awaited: A });
}

// ----- T15 Health 0 -----

// T15: at Health 0 he is out and loses at once.
#[test]
fn t15_out_at_zero() {
    let mut p = a_first(worn(al(), 5, Sound, Sound), fresh(bo()));
    p.go(A, Decision::Attack, &[2, 5]);
    let ev = p.go(B, Decision::Attack, &[5, 2]);
    assert_eq!(
        ev.last(),
        Some(&Event::FightEnded {
            winner: B,
            loser: A,
            reason: EndReason::Out,
            rounds: 1
        })
    );
    assert!(!has(&ev, |e| matches!(e, Event::YieldOffered { .. })));
    assert_eq!(p.bout.awaited(), None);
    assert_eq!(p.bout.default_decision(), None);
    let err = p.refused(A, Decision::Attack);
    assert_eq!(err, RuleError::FightOver);
    let state = p.bout.carry("2026-12-01")[0].clone();
    assert!(state.is_out(&al()));
}

// T15: all hits heal at the start of the realm's next day; the same day, nothing.
#[test]
fn t15_hits_heal_next_day() {
    let s = TourneyState {
        hits: 7,
        day: "2026-12-01".into(),
        ..Default::default()
    };
    let (_, same) = s.as_of(&al(), "2026-12-01");
    assert_eq!(same, s);
    assert!(same.is_out(&al()));
    let (_, next) = s.as_of(&al(), "2026-12-02");
    assert_eq!(next.hits, 0);
    assert_eq!(next.day, "2026-12-02");
    assert_eq!(next.effective_health(&al()), 7);
    // An earlier day (a clock set back) heals nothing.
    let (_, earlier) = s.as_of(&al(), "2026-11-30");
    assert_eq!(earlier.hits, 7);
}

// T15: a setup with a knight already out ends at once, before the roll-off.
#[test]
fn t15_out_at_the_start_loses_at_once() {
    let p = Pair::start(fresh(al()), worn(bo(), 7, Sound, Sound), &[]);
    let o = *p.bout.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (A, EndReason::Out));
}

// ----- T16 the smith -----

// T16: /smith repairs damaged weapons at once.
#[test]
fn t16_smith_repairs() {
    let s = TourneyState {
        main: Damaged,
        dagger: Damaged,
        ..Default::default()
    };
    let (after, done) = s.smith(&al(), None, "2026-12-01").unwrap();
    assert_eq!((after.main, after.dagger), (Sound, Sound));
    assert_eq!(done.repaired, [Broadsword, Dagger]);
    assert_eq!(done.ordered, None);
    assert!(done.coming.is_empty());
    assert_eq!(after.day, "2026-12-01");
}

// T16: nothing damaged: an error, naming a lost weapon and when a new one comes.
#[test]
fn t16_smith_nothing_to_repair() {
    let e = TourneyState::default().smith(&al(), None, "d").unwrap_err();
    assert_eq!(e, SmithError::NothingToRepair { lost: None });
    assert!(e.to_string().contains("sound"));
    let lost = TourneyState {
        main: Lost,
        ..Default::default()
    };
    let e = lost.smith(&al(), None, "d").unwrap_err();
    assert_eq!(
        e,
        SmithError::NothingToRepair {
            lost: Some(Broadsword)
        }
    );
    assert!(e.to_string().contains("next day"), "{e}");
    // A lost main and a damaged dagger: the dagger is repaired, the broadsword still coming.
    let s = TourneyState {
        main: Lost,
        dagger: Damaged,
        ..Default::default()
    };
    let (after, done) = s.smith(&al(), None, "d").unwrap();
    assert_eq!(done.repaired, [Dagger]);
    assert_eq!(done.coming, [Broadsword]);
    assert_eq!(after.main, Lost);
}

// T16: a lost weapon is replaced at the start of the next day; a damaged one stays damaged.
#[test]
fn t16_lost_replaced_next_day() {
    let s = TourneyState {
        main: Lost,
        dagger: Lost,
        day: "2026-12-01".into(),
        ..Default::default()
    };
    assert!(!s.armed());
    let (_, same) = s.as_of(&al(), "2026-12-01");
    assert_eq!((same.main, same.dagger), (Lost, Lost));
    let (sheet, next) = s.as_of(&al(), "2026-12-02");
    assert_eq!((next.main, next.dagger), (Sound, Sound));
    assert_eq!(sheet.main, Broadsword);
    let d = TourneyState {
        main: Damaged,
        day: "2026-12-01".into(),
        ..Default::default()
    };
    assert_eq!(d.as_of(&al(), "2026-12-02").1.main, Damaged);
}

// T16: /smith WEAPON trades the main weapon: the dagger meanwhile, the new kind the next day.
#[test]
fn t16_smith_order() {
    let s = TourneyState {
        main: Damaged,
        day: "2026-12-01".into(),
        ..Default::default()
    };
    let (after, done) = s.smith(&al(), Some(Axe), "2026-12-01").unwrap();
    assert_eq!(done.ordered, Some(Axe));
    assert_eq!(done.coming, [Axe]);
    assert_eq!(done.ready_after, "2026-12-01");
    assert_eq!((after.main, after.ordered), (Lost, Some(Axe)));
    assert!(after.armed(), "the dagger meanwhile");
    // Meanwhile a bout starts with the dagger, and the order outlasts the bout.
    let (sheet, today) = after.as_of(&al(), "2026-12-01");
    let p = a_first(
        Entrant {
            sheet: sheet.clone(),
            state: today,
        },
        fresh(bo()),
    );
    assert_eq!(p.bout.wielding(A), Dagger);
    assert_eq!(p.bout.carry("2026-12-01")[0].ordered, Some(Axe));
    let (sheet, next) = after.as_of(&al(), "2026-12-02");
    assert_eq!(sheet.main, Axe);
    assert_eq!((next.main, next.ordered), (Sound, None));
    assert_eq!(
        s.smith(&al(), Some(Dagger), "d").unwrap_err(),
        SmithError::DaggerMain
    );
}

// ----- T17 modifiers add -----

// T17: Health 1, down and the two-handed sword defending sum: −4.
#[test]
fn t17_modifiers_add() {
    let gs = sheet("Gs", Greatsword, &[(Greatsword, 5)], 3, 7);
    let mut p = a_first(worn(gs, 6, Sound, Sound), fresh(bo()));
    p.go(A, Decision::Attack, &[1, 3, 4]); // falls
    let ev = p.go(B, Decision::Attack, &[2, 6]);
    assert_eq!(
        mod_reasons(&ev, A, TestKind::Defend),
        [
            (ModReason::Health1, -1),
            (ModReason::Down, -1),
            (ModReason::TwoHandedDefence, -2)
        ]
    );
    assert_eq!(test_rows(&ev)[1], (A, TestKind::Defend, 6, 5, -4, 7, true));
}

// ----- T18 the end -----

// T18: the three ends, through the Fight contract; never a draw.
#[test]
fn t18_results_through_the_contract() {
    let mut p = al_first();
    assert_eq!(p.bout.result(), None);
    p.go(A, Decision::Yield, &[]);
    let r = p.bout.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(B), "yielded"));
    let mut p = a_first(fresh(al()), worn(bo(), 5, Sound, Sound));
    p.go(A, Decision::Attack, &[5, 2]);
    assert_eq!(p.bout.result().unwrap().reason, "out");
    let mut p = a_first(worn(al(), 0, Lost, Damaged), fresh(bo()));
    p.go(A, Decision::Attack, &[1, 3, 1]);
    assert_eq!(p.bout.result().unwrap().reason, "disarmed");
    assert_eq!(p.bout.result().unwrap().winner, Some(B));
    assert!(p.bout.pending().is_empty());
}

// ----- T19 timeouts, default policy -----

// T19: prompts: standing /attack or /yield (default /attack), down /stand or /yield (/stand).
#[test]
fn t19_prompts_and_defaults() {
    let mut p = al_first();
    let pending = p.bout.pending();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].side, A);
    assert_eq!(pending[0].what, "your action");
    assert_eq!(pending[0].options, [Decision::Attack, Decision::Yield]);
    assert_eq!(pending[0].default, Decision::Attack);
    assert_eq!(p.bout.default_decision(), Some((A, Decision::Attack)));
    p.go(A, Decision::Attack, &[1, 3, 5]);
    p.go(B, Decision::Attack, &[2, 5]);
    assert_eq!(p.bout.default_decision(), Some((A, Decision::Stand)));
    assert_eq!(Decision::Stand.to_string(), "stand");
    assert_eq!(serde_json::to_value(Decision::Yield).unwrap(), "yield");
}

// T19: the default policy never yields, and plays a bout to its end.
#[test]
fn t19_play_out_never_yields() {
    for seed in 0..300 {
        let mut dice = herald_engine::dice::SeededDice::from_u64(seed);
        let mut events = Vec::new();
        let setup = BoutSetup {
            knights: [fresh(ector()), fresh(gimby())],
            tables: Tables::default(),
        };
        let mut b = Bout::start_into(setup, &mut dice, &mut events);
        assert!(b.play_out(&mut dice, &mut events, 10_000));
        assert_ne!(b.outcome().unwrap().reason, EndReason::Yielded);
        assert!(!has(&events, |e| matches!(e, Event::Yielded { .. })));
    }
}

// T19: the fast path of play_out and the checked path of decide make the same bout.
#[test]
fn t19_play_out_matches_decide() {
    for seed in 0..200 {
        let setup = BoutSetup {
            knights: [fresh(ector()), fresh(gimby())],
            tables: Tables::default(),
        };
        let mut dice = herald_engine::dice::SeededDice::from_u64(seed);
        let (mut fast, mut fast_events) = Bout::start(setup.clone(), &mut dice);
        fast.play_out(&mut dice, &mut fast_events, 10_000);
        let mut dice = herald_engine::dice::SeededDice::from_u64(seed);
        let (mut slow, mut slow_events) = Bout::start(setup, &mut dice);
        while let Some(prompt) = slow.pending().pop() {
            slow_events.extend(slow.decide(prompt.side, prompt.default, &mut dice).unwrap());
        }
        assert_eq!(fast.outcome(), slow.outcome());
        assert_eq!(fast_events, slow_events);
    }
}

// ----- T20 NPCs -----

// T20: NPCs: skills 0–10, Strength 1–9, Health 1–20, any main weapon, no budget.
#[test]
fn t20_npc_ranges() {
    let mut n = new("Drone-7");
    n.main = Some(Greatsword);
    n.skills = Some(vec![(Greatsword, 10), (Dagger, 10), (Axe, 10)]);
    n.strength = Some(9);
    n.health = Some(20);
    let k = n.create(true).unwrap();
    assert_eq!(
        (k.skills.get(Greatsword), k.strength, k.health),
        (10, 9, 20)
    );
    assert!(n.create(false).is_err(), "a player's knight could not");
    n.skills = Some(vec![(Greatsword, 11)]);
    assert_eq!(
        n.create(true).unwrap_err().to_string(),
        "greatsword 11: a skill is 0 to 10 (T20)"
    );
    n.skills = None;
    n.strength = Some(10);
    assert!(matches!(
        n.create(true),
        Err(SheetError::StrengthRange { max: 9, .. })
    ));
    n.strength = Some(1);
    n.health = Some(21);
    assert_eq!(n.create(true), Err(SheetError::NpcHealth(21)));
    n.health = Some(0);
    assert_eq!(n.create(true), Err(SheetError::NpcHealth(0)));
    n.health = Some(1);
    let k = n.create(true).unwrap();
    assert_eq!(
        (k.skills.get(Greatsword), k.skills.get(Dagger)),
        (6, 1),
        "defaults"
    );
}

// ----- T21 what outlasts a bout -----

// T21: hits and both weapons carry; being down ends with the bout; `day` is the caller's.
#[test]
fn t21_carry() {
    let mut p = a_first(worn(al(), 1, Sound, Damaged), fresh(bo()));
    p.go(A, Decision::Attack, &[4, 1, 5]); // Bo fumbles: hit (2), falls
    p.go(B, Decision::Yield, &[]);
    assert!(p.bout.is_down(B));
    let [a, b] = p.bout.carry("2026-12-05");
    assert_eq!(
        a,
        TourneyState {
            hits: 1,
            main: Sound,
            dagger: Damaged,
            ordered: None,
            day: "2026-12-05".into()
        }
    );
    assert_eq!((b.hits, b.main, b.dagger), (2, Sound, Sound));
    // The next bout starts standing, with the hits taken.
    let q = a_first(
        Entrant {
            sheet: bo(),
            state: b,
        },
        fresh(al()),
    );
    assert!(!q.bout.is_down(A));
    assert_eq!(q.bout.hits(A), 2);
}

// ----- T22 dice order -----

// T22: per /attack two dice (three with a fumble); per /stand one; the roll-off in pairs.
#[test]
fn t22_dice_per_action() {
    let mut p = al_first();
    assert_eq!(p.dice.taken(), 2);
    p.go(A, Decision::Attack, &[3, 4]);
    assert_eq!(p.dice.taken(), 4);
    p.go(B, Decision::Attack, &[1, 4, 6]);
    assert_eq!(p.dice.taken(), 7);
    p.go(A, Decision::Attack, &[2, 2]);
    p.go(B, Decision::Stand, &[5]);
    assert_eq!(p.dice.taken(), 10);
    p.go(A, Decision::Yield, &[]);
    assert_eq!(p.dice.taken(), 10, "a yield rolls nothing");
}

// T22: the attacker's die first, then the defender's.
#[test]
fn t22_attacker_die_first() {
    let mut p = Pair::start(fresh(al()), fresh(bo()), &[2, 5]); // Bo first
    let ev = p.go(B, Decision::Attack, &[6, 2]);
    assert_eq!(test_rows(&ev)[0].0, B);
    assert_eq!(test_rows(&ev)[0].2, 6);
    assert_eq!(test_rows(&ev)[1].2, 2);
}

// ----- refusals -----

// Refused decisions change nothing and roll nothing (checked by the harness).
#[test]
fn refused_decisions_change_nothing() {
    let mut p = al_first();
    assert!(matches!(
        p.refused(B, Decision::Attack),
        RuleError::NotYourTurn { awaited: A }
    ));
    assert_eq!(
        p.refused(B, Decision::Attack).to_string(),
        "it is not your turn: the bout awaits the challenging knight's action"
    );
    p.refused(A, Decision::Stand);
    // And the bout goes on as if nothing was tried.
    p.go(A, Decision::Attack, &[4, 2]);
    assert_eq!(p.bout.hits(B), 2);
}

// The contract's decide returns the same events as decide_into.
#[test]
fn contract_decide_matches_decide_into() {
    let setup = BoutSetup {
        knights: [fresh(al()), fresh(bo())],
        tables: Tables::default(),
    };
    let mut dice = ScriptedDice::new([5, 2, 4, 2]);
    let (mut b, start) = Bout::start(setup, &mut dice);
    assert_eq!(start.len(), 5);
    let ev = b.decide(A, Decision::Attack, &mut dice).unwrap();
    assert_eq!(ev.len(), 5, "action, two tests, exchange, damage");
    assert!(b.decide(A, Decision::Attack, &mut dice).is_err());
}
