//! Properties of any PFP duel: any sequence of legal decisions ends within the page's limits
//! (round 10, PF32; each test's effects bounded), and a refused decision changes nothing. The
//! fighters range over everything an NPC may be (PF31), with any health a challenge accepts.

use herald_engine::dice::SeededDice;
use herald_engine::game::Side;
use herald_engine::pfpduel::{Decision, Duel, DuelSetup, Entrant, PfpSheet, MAX_ROUNDS};
use proptest::prelude::*;

/// Any NPC: a psionist of power 1–6 or an open mind of aptitude 0–6, health 1–20, with some of
/// it lost today but not all.
fn entrant(name: &'static str) -> impl Strategy<Value = Entrant> {
    (any::<bool>(), 0..=6u8, 1..=20u8, 0..20u8).prop_map(move |(psionist, n, health, lost)| {
        let sheet = PfpSheet {
            name: name.into(),
            psionist,
            power: if psionist { n.max(1) } else { 0 },
            aptitude: if psionist { 0 } else { n },
            health,
        };
        Entrant {
            health: health.saturating_sub(lost).max(1),
            sheet,
        }
    })
}

/// Two fighters, at least one a psionist (PF31).
fn setup() -> impl Strategy<Value = DuelSetup> {
    (entrant("Ann"), entrant("Bo")).prop_map(|(mut a, b)| {
        if !a.sheet.psionist && !b.sheet.psionist {
            a.sheet.psionist = true;
            a.sheet.power = a.sheet.aptitude.max(1);
            a.sheet.aptitude = 0;
        }
        DuelSetup { minds: [a, b] }
    })
}

/// A decision no prompt ever offers.
fn nonsense() -> impl Strategy<Value = Decision> {
    prop_oneof![
        Just(Decision::Dice(200)),
        Just(Decision::Hold(200)),
        Just(Decision::Reroll(9)),
        Just(Decision::Keep {
            a: 7,
            b: 7,
            effect: None
        }),
        Just(Decision::pain(9)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    // PF32 and the bound on effects: whatever legal answers are chosen, the fight ends, by
    // round 10, in a bounded number of decisions.
    #[test]
    fn any_legal_decisions_end_within_the_limits(setup in setup(), seed in any::<u64>(), picks in proptest::collection::vec(any::<u16>(), 4000)) {
        let mut dice = SeededDice::from_u64(seed);
        let mut duel = Duel::start_into(setup, &mut dice, &mut Vec::new());
        let mut steps = 0;
        while let Some(side) = duel.awaited() {
            let options = duel.options();
            // /yield is always last; leave it out so the fight runs its course.
            let legal = &options[..options.len() - 1];
            let pick = if legal.is_empty() {
                Decision::Yield
            } else {
                legal[usize::from(picks[steps % picks.len()]) % legal.len()]
            };
            duel.decide_into(side, pick, &mut dice, &mut Vec::new()).unwrap();
            steps += 1;
            prop_assert!(steps < 4000, "no end after {steps} decisions");
            prop_assert!(duel.round() <= MAX_ROUNDS);
        }
        prop_assert!(duel.is_over());
    }

    // A refused decision (the wrong side, or an answer no prompt offers) changes nothing and
    // reports nothing.
    #[test]
    fn a_refused_decision_changes_nothing(setup in setup(), seed in any::<u64>(), steps in 0..60usize, bad in nonsense()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut duel = Duel::start_into(setup, &mut dice, &mut Vec::new());
        for _ in 0..steps {
            let Some((side, d)) = duel.default_decision() else { break };
            duel.decide_into(side, d, &mut dice, &mut Vec::new()).unwrap();
        }
        let before = format!("{duel:?}");
        let mut events = Vec::new();
        match duel.awaited() {
            Some(side) => {
                prop_assert!(duel.decide_into(side.other(), Decision::End, &mut dice, &mut events).is_err());
                prop_assert!(duel.decide_into(side, bad, &mut dice, &mut events).is_err());
            }
            None => {
                prop_assert!(duel.decide_into(Side::Challenger, Decision::Yield, &mut dice, &mut events).is_err());
            }
        }
        prop_assert!(events.is_empty());
        prop_assert_eq!(before, format!("{duel:?}"));
    }

    // The simulations' fast path (`play_out`, PF37) is the referee's: every prompt's default
    // answered through `decide_into`, with the same dice, gives the same events and result.
    #[test]
    fn play_out_is_the_prompts_defaults(setup in setup(), seed in any::<u64>()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut fast_events = Vec::new();
        let mut fast = Duel::start_into(setup.clone(), &mut dice, &mut fast_events);
        prop_assert!(fast.play_out(&mut dice, &mut fast_events, 100_000));
        let mut dice = SeededDice::from_u64(seed);
        let mut events = Vec::new();
        let mut slow = Duel::start_into(setup, &mut dice, &mut events);
        while let Some((side, d)) = slow.default_decision() {
            slow.decide_into(side, d, &mut dice, &mut events).unwrap();
        }
        prop_assert_eq!(fast.outcome(), slow.outcome());
        prop_assert_eq!(fast_events, events);
    }
}
