//! Properties of any bout: it ends, a refused decision changes nothing, a test's total is its
//! die + base + modifiers (T1, T17), and hits taken never exceed Health (T13). Knights range
//! over everything an NPC may be (T20), with any state a challenge accepts (T7, T15).

mod tourney_common;
use herald_engine::dice::SeededDice;
use herald_engine::game::Side;
use herald_engine::tourney::event::Natural;
use herald_engine::tourney::*;
use proptest::prelude::*;
use tourney_common::*;

fn weapon_state() -> impl Strategy<Value = WeaponState> {
    prop_oneof![
        Just(WeaponState::Sound),
        Just(WeaponState::Damaged),
        Just(WeaponState::Lost)
    ]
}

/// Any NPC-sized knight, with a state a challenge would accept: armed, not out.
fn entrant() -> impl Strategy<Value = Entrant> {
    (
        0..4usize,
        proptest::array::uniform5(0..=10u8),
        1..=9u8,
        1..=20u8,
        any::<u8>(),
        weapon_state(),
        weapon_state(),
    )
        .prop_map(|(main, skills, strength, health, hits, m, d)| {
            let mut s = Skills::default();
            for (w, v) in Weapon::ALL.into_iter().zip(skills) {
                s.set(w, v);
            }
            let sheet = TourneySheet {
                name: "K".into(),
                style: Default::default(),
                main: Weapon::MAIN[main],
                skills: s,
                strength,
                health,
            };
            let dagger = if m == WeaponState::Lost && d == WeaponState::Lost {
                WeaponState::Damaged
            } else {
                d
            };
            Entrant {
                sheet,
                state: TourneyState {
                    hits: hits % health,
                    main: m,
                    dagger,
                    ..Default::default()
                },
            }
        })
}

fn setup() -> impl Strategy<Value = BoutSetup> {
    (entrant(), entrant()).prop_map(|(a, b)| BoutSetup {
        knights: [a, b],
        tables: Tables::default(),
    })
}

/// The legal decisions now, the awaited side's, from the prompt's own words.
fn legal(b: &Bout) -> Option<(Side, [Decision; 2])> {
    let side = b.awaited()?;
    Some((side, b.options(side)))
}

/// Every test's total is die + base + its modifiers (T1, T17), the natural field is the die's
/// (T2), and hits taken stay within Health (T13).
fn check_events(events: &[Event], setup: &BoutSetup) -> Result<(), TestCaseError> {
    for e in events {
        match e {
            Event::Test {
                die,
                base,
                modifiers,
                total,
                natural,
                ..
            } => {
                prop_assert_eq!(*total, i32::from(*die) + base + modifiers.total());
                prop_assert_eq!(*natural, Natural::of(*die));
                prop_assert!(modifiers.len() <= 3);
            }
            Event::Damage {
                knight,
                hits_taken,
                health,
                ..
            } => {
                let max = setup.knights[knight.index()].sheet.health;
                prop_assert!(*hits_taken <= max);
                prop_assert_eq!(*health, max - hits_taken);
            }
            _ => {}
        }
    }
    let ends = events
        .iter()
        .filter(|e| matches!(e, Event::FightEnded { .. }))
        .count();
    prop_assert!(ends <= 1, "one end at most");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // T18, T19: any legal sequence of decisions on seeded dice ends within a bound.
    #[test]
    fn any_legal_sequence_ends(setup in setup(), seed in any::<u64>(), choices in proptest::collection::vec(any::<u8>(), 64)) {
        let mut dice = SeededDice::from_u64(seed);
        let mut events = Vec::new();
        let mut b = Bout::start_into(setup.clone(), &mut dice, &mut events);
        let mut steps = 0usize;
        while let Some((side, options)) = legal(&b) {
            // Mostly the action, now and then a yield (T14): every choice is legal.
            let c = choices[steps % choices.len()];
            let d = if c < 8 { options[1] } else { options[0] };
            b.decide_into(side, d, &mut dice, &mut events).map_err(|e| TestCaseError::fail(e.to_string()))?;
            steps += 1;
            prop_assert!(steps < 20_000, "a bout that does not end");
        }
        prop_assert!(b.is_over());
        let o = *b.outcome().unwrap();
        prop_assert_ne!(o.winner, o.loser);
        let ended = matches!(events.last(), Some(Event::FightEnded { .. }));
        prop_assert!(ended, "the last event is fight_ended");
        check_events(&events, &setup)?;
    }

    // T19: the default policy ends every bout too, and never yields.
    #[test]
    fn default_policy_ends(setup in setup(), seed in any::<u64>()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut events = Vec::new();
        let mut b = Bout::start_into(setup.clone(), &mut dice, &mut events);
        prop_assert!(b.play_out(&mut dice, &mut events, 20_000));
        prop_assert_ne!(b.outcome().unwrap().reason, EndReason::Yielded);
        check_events(&events, &setup)?;
        for side in Side::BOTH {
            prop_assert!(b.hits(side) <= setup.knights[side.index()].sheet.health);
            prop_assert!(b.carry("d")[side.index()].hits <= setup.knights[side.index()].sheet.health);
        }
    }

    // A refused decision changes nothing, rolls nothing and reports nothing.
    #[test]
    fn refused_decision_changes_nothing(setup in setup(), seed in any::<u64>(), tries in proptest::collection::vec((any::<bool>(), 0..3u8), 1..40)) {
        let mut dice = SeededDice::from_u64(seed);
        let mut b = Bout::start_into(setup, &mut dice, &mut Vec::new());
        for (challenger, d) in tries {
            let side = if challenger { A } else { B };
            let decision = [Decision::Attack, Decision::Stand, Decision::Yield][d as usize];
            let before = format!("{b:?}");
            let dice_before = dice.word_pos();
            let mut events = Vec::new();
            match b.decide_into(side, decision, &mut dice, &mut events) {
                Err(_) => {
                    prop_assert_eq!(before, format!("{b:?}"));
                    prop_assert_eq!(dice_before, dice.word_pos());
                    prop_assert!(events.is_empty());
                }
                Ok(()) => prop_assert!(!events.is_empty()),
            }
        }
    }

    // T13: hits taken never exceed Health, decision by decision.
    #[test]
    fn hits_never_exceed_health(setup in setup(), seed in any::<u64>()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut b = Bout::start_into(setup.clone(), &mut dice, &mut Vec::new());
        for _ in 0..20_000 {
            let Some((side, d)) = b.default_decision() else { break };
            b.decide_into(side, d, &mut dice, &mut Vec::new()).unwrap();
            for s in Side::BOTH {
                let health = setup.knights[s.index()].sheet.health;
                prop_assert!(b.hits(s) <= health);
                prop_assert_eq!(b.effective_health(s), health - b.hits(s));
            }
        }
        prop_assert!(b.is_over());
    }
}
