//! Properties of any psionic combat: any sequence of legal decisions ends within the page's
//! limits (PC31's round limit, so a bounded number of decisions), and a refused decision
//! changes nothing. Creatures range over everything an NPC may be (1-20 HD, d4-d12, any
//! modes, spells), one to three a side (PC33).

use herald_engine::dice::{RollSource, SeededDice};
use herald_engine::game::{Discard, Fight};
use herald_engine::powerpool::event::Seat;
use herald_engine::powerpool::{
    Act, AttackMode, Combat, DefenseMode, Entrant, Kind, Levels, NewCreature, PuppetOrder, Rules,
    Seats, Setup, State,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// Any NPC: its kind, HD, die, modes (as bit sets) and spells.
fn creature() -> impl Strategy<Value = Entrant> {
    (
        0..3usize,
        1..=20u32,
        0..5usize,
        0..32u8,
        0..32u8,
        proptest::collection::vec(1..=9u32, 0..4),
    )
        .prop_map(|(kind, hd, die, attacks, defenses, spells)| {
            let kind = [Kind::Psionicist, Kind::Wild, Kind::None][kind];
            let pick_a = |bits: u8| -> Vec<AttackMode> {
                AttackMode::ALL
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, m)| m)
                    .collect()
            };
            let pick_d = |bits: u8| -> Vec<DefenseMode> {
                DefenseMode::ALL
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, m)| m)
                    .collect()
            };
            let (mut attacks, defenses) = if kind.psionic() {
                (pick_a(attacks), pick_d(defenses))
            } else {
                (Vec::new(), Vec::new())
            };
            if kind.psionic() && attacks.is_empty() {
                attacks.push(AttackMode::Stab);
            }
            let sheet = NewCreature {
                name: "C".into(),
                kind: Some(kind),
                hd: Some(hd),
                die: Some([4, 6, 8, 10, 12][die]),
                attacks,
                defenses,
                spells,
                ..Default::default()
            }
            .create(true, &Rules::default())
            .expect("a legal NPC");
            let state = State::fresh(&sheet);
            Entrant { sheet, state }
        })
}

/// One to three a side, the challenger psionic (PC33).
fn setup() -> impl Strategy<Value = Setup> {
    (
        proptest::collection::vec(creature(), 1..=3),
        proptest::collection::vec(creature(), 1..=3),
    )
        .prop_map(|(mut mine, theirs)| {
            if !mine[0].sheet.kind.psionic() {
                mine[0].sheet.kind = Kind::Psionicist;
                mine[0].sheet.attacks = [AttackMode::Stab].into_iter().collect();
            }
            let challengers = mine.len() as u8;
            mine.extend(theirs);
            for (i, e) in mine.iter_mut().enumerate() {
                e.sheet.name = format!("C{i}");
            }
            Setup {
                creatures: mine.into(),
                challengers,
                rules: Rules::default(),
            }
        })
}

/// A legal option of the awaited seat, varied: dice 1 to the pool, a spell, a target.
fn varied(f: &Combat, seat: Seat, pick: u32) -> Option<Act> {
    let options = f.options_for(seat);
    // Leave /yield rare, so that fights run long.
    let plain: Vec<Act> = options
        .iter()
        .copied()
        .filter(|a| *a != Act::Yield)
        .collect();
    let act = *plain.get(pick as usize % plain.len().max(1))?;
    let pool = f.pool(seat);
    // 1 to the pool; with an empty pool only "all", which is none (PC11).
    let dice = |pick: u32| {
        if pool == 0 {
            0
        } else {
            (pick % u32::from(pool)) as u8 + 1
        }
    };
    Some(match act {
        Act::Attack {
            targets,
            mode,
            fear,
            ..
        } => Act::Attack {
            targets,
            mode,
            dice: dice(pick),
            fear: fear && !pick.is_multiple_of(3),
        },
        Act::Defend { mode, draw, .. } => Act::Defend {
            mode,
            dice: dice(pick),
            spells: Levels::default(),
            draw,
        },
        other => other,
    })
}

/// Any decision at all, mostly illegal: random seats, modes, dice and spells.
fn anything(seats: Seat, r: &mut impl RollSource) -> (Seat, Act) {
    let mut roll = |n: u32| r.roll(n);
    // A seat one past the last is no creature at all.
    let seat = roll(u32::from(seats) + 1) as u8 - 1;
    let target = roll(u32::from(seats) + 1) as u8 - 1;
    let act = match roll(10) {
        1 => Act::Attack {
            targets: Seats::one(target),
            mode: AttackMode::ALL[roll(5) as usize - 1],
            dice: roll(25) as u8 - 1,
            fear: roll(2) == 1,
        },
        2 => Act::Maintain(target),
        3 => Act::Dedicate(target),
        4 => Act::Release(target),
        5 => Act::Pass,
        6 => Act::Defend {
            mode: DefenseMode::ALL.get(roll(6) as usize - 1).copied(),
            dice: roll(25) as u8 - 1,
            spells: Levels::of(&[roll(9) as u8]),
            draw: Seats::one(target),
        },
        7 => Act::Join {
            dice: roll(25) as u8 - 1,
            spells: Levels::default(),
            draw: Seats::EMPTY,
        },
        8 => Act::Stay,
        9 => Act::Puppet(if roll(2) == 1 {
            PuppetOrder::Pass
        } else {
            PuppetOrder::Yield
        }),
        _ => Act::Yield,
    };
    (seat, act)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    // PC31, PC33: any legal decisions end the fight within the round limit.
    #[test]
    fn any_legal_decisions_end_within_the_limits(setup in setup(), seed in any::<u64>()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut f = Combat::begin(setup, &mut dice, &mut Discard);
        let mut decisions = 0;
        while f.outcome().is_none() {
            let seat = *f.awaited().first().expect("a fight not over awaits someone");
            let pick = dice.roll(1000);
            let act = varied(&f, seat, pick)
                .or_else(|| f.default_for(seat))
                .expect("an awaited creature has a decision");
            f.decide_into(seat, act, &mut dice, &mut Discard)
                .unwrap_or_else(|e| panic!("a legal option {act:?} refused: {e}"));
            decisions += 1;
            // Each round has at most one turn a creature, each turn a few free decisions and
            // an exchange's answers.
            prop_assert!(decisions < 10 * 6 * 20, "too many decisions");
        }
        let o = f.outcome().unwrap();
        prop_assert!(o.rounds <= Rules::default().round_limit);
    }

    // A refused decision changes nothing; an accepted one is taken as it would be.
    #[test]
    fn a_refused_decision_changes_nothing(setup in setup(), seed in any::<u64>()) {
        let mut dice = SeededDice::from_u64(seed);
        let mut f = Combat::begin(setup, &mut dice, &mut Discard);
        let seats = f.seats();
        for _ in 0..200 {
            if f.outcome().is_some() {
                break;
            }
            let (seat, act) = anything(seats, &mut dice);
            let before = format!("{f:?}");
            let mut events = Vec::new();
            let mut probe = SeededDice::from_u64(seed ^ 1);
            if f.clone().decide_into(seat, act, &mut probe, &mut events).is_err() {
                prop_assert!(f.decide_into(seat, act, &mut probe, &mut events).is_err());
                prop_assert_eq!(format!("{f:?}"), before);
                prop_assert!(events.is_empty());
            }
            // Then the default goes on, so that the fight moves.
            let seat = f.awaited()[0];
            let act = f.default_for(seat).unwrap();
            f.decide_into(seat, act, &mut dice, &mut Discard).unwrap();
        }
    }
}

#[test]
fn the_default_policy_ends_every_fight_of_a_thousand_setups() {
    // PC37 through the contract's play_out: a thousand setups, each on its own seed.
    let mut rng = proptest::test_runner::TestRunner::deterministic();
    for seed in 0..1000 {
        let s = setup().new_tree(&mut rng).unwrap().current();
        let mut dice = SeededDice::from_u64(seed);
        let mut f = Combat::start_into(s, &mut dice, &mut Discard);
        assert!(f.play_out(&mut dice, &mut Discard, 10_000), "seed {seed}");
    }
}
