//! The worked example of `rulesets/powerpool.md`, event for event, and a few rulings.

use herald_engine::dice::ScriptedDice;
use herald_engine::game::{Fight, Side};
use herald_engine::powerpool::event::Event;
use herald_engine::powerpool::{
    Act, AttackMode, Combat, Decision, DefenseMode, Entrant, Kind, Levels, NewCreature, Rules,
    Seats, Setup, State,
};

fn entrant(n: NewCreature) -> Entrant {
    let sheet = n.create(false, &Rules::default()).expect("a legal sheet");
    let state = State::fresh(&sheet);
    Entrant { sheet, state }
}

fn ash() -> Entrant {
    entrant(NewCreature {
        name: "Ash".into(),
        kind: Some(Kind::Psionicist),
        hd: Some(8),
        attacks: vec![
            AttackMode::Stab,
            AttackMode::Overload,
            AttackMode::Subversion,
        ],
        defenses: vec![
            DefenseMode::Mantra,
            DefenseMode::Pinnacle,
            DefenseMode::Labyrinth,
        ],
        ..Default::default()
    })
}

fn brim() -> Entrant {
    entrant(NewCreature {
        name: "Brim".into(),
        kind: Some(Kind::Wild),
        hd: Some(8),
        die: Some(6),
        attacks: vec![AttackMode::Overload],
        defenses: vec![DefenseMode::Blank],
        spells: vec![3, 2, 1],
        ..Default::default()
    })
}

fn types(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let v = format!("{e:?}");
            v.split([' ', '{']).next().unwrap_or("").to_string()
        })
        .collect()
}

#[test]
fn the_worked_example_event_for_event() {
    // PC2, PC3, PC35: Ash 8d8, 36 HP, save 13; Brim 4d6, 28 HP, save 13.
    let (a, b) = (ash(), brim());
    assert_eq!((a.sheet.pool(), a.sheet.hp_max, a.sheet.save), (8, 36, 13));
    assert_eq!((b.sheet.pool(), b.sheet.hp_max, b.sheet.save), (4, 28, 13));
    let mut dice = ScriptedDice::new([9, 14]);
    let (mut f, mut events) = Combat::start(Setup::duel(a, b, Rules::default()), &mut dice);
    // PC7: Brim goes first.
    assert_eq!(f.order(), &[1, 0]);
    dice.push([5, 3, 6, 2, 7, 1]);
    let attack = Act::Attack {
        targets: Seats::one(0),
        mode: AttackMode::Overload,
        dice: 0,
        fear: true,
    };
    events.extend(
        f.decide(Side::Challenged, Decision::any(attack), &mut dice)
            .unwrap(),
    );
    let defend = Act::Defend {
        mode: Some(DefenseMode::Mantra),
        dice: 2,
        spells: Levels::default(),
        draw: Seats::EMPTY,
    };
    events.extend(
        f.decide(Side::Challenger, Decision::any(defend), &mut dice)
            .unwrap(),
    );
    // PC16, PC30: stunned, not controlled; 8 damage.
    assert_eq!(f.hp(0), 28);
    events.extend(
        f.decide(Side::Challenged, Decision::any(Act::Pass), &mut dice)
            .unwrap(),
    );
    dice.push([15, 3, 11, 7, 2, 9, 5, 12, 4, 6, 5, 2, 3]);
    let stab = Act::Attack {
        targets: Seats::one(1),
        mode: AttackMode::Stab,
        dice: 0,
        fear: true,
    };
    events.extend(
        f.decide(Side::Challenger, Decision::any(stab), &mut dice)
            .unwrap(),
    );
    let blank = Act::Defend {
        mode: Some(DefenseMode::Blank),
        dice: 0,
        spells: Levels::of(&[3, 2]),
        draw: Seats::EMPTY,
    };
    events.extend(
        f.decide(Side::Challenged, Decision::any(blank), &mut dice)
            .unwrap(),
    );
    // PC38: the page's dice, consumed in exactly its order: every scripted die is used, and
    // the figures below come out as the page gives them only in that order.
    assert_eq!(dice.remaining(), 0);
    assert_eq!(
        types(&events),
        [
            "FightStarted",
            "Initiative",
            "Initiative",
            "TurnOrder",
            "RoundStarted",
            "Turn",
            "Attack",
            "Condition",
            "Defense",
            "PoolRoll",
            "PoolRoll",
            "Exchange",
            "Condition",
            "Damage",
            "Turn",
            "RoundStarted",
            "Turn",
            "Pass",
            "Turn",
            "Attack",
            "Condition",
            "Defense",
            "Save",
            "PoolRoll",
            "PoolRoll",
            "Exchange",
            "Controlled",
            "ControlEnded",
            "FightEnded",
        ]
    );
    let r = f.result().expect("over");
    assert_eq!((r.winner, r.reason), (Some(Side::Challenger), "control"));
    assert_eq!(f.round(), 2);
    let carry = f.carry();
    assert_eq!((carry[0].hp, carry[0].dice_lost), (28, 0));
    assert_eq!(carry[1].spells_spent, Levels::of(&[3, 2]));
    // PC39: a rest brings Ash back; a second that day is refused.
    let sheet = ash().sheet;
    let rested = carry[0].rest(&sheet, "2026-12-01").unwrap();
    assert_eq!(rested.hp, 36);
    assert!(rested.rest(&sheet, "2026-12-01").is_err());
}

#[test]
fn pc17_the_defender_wins_the_attacker_loses_a_die_and_is_stunned() {
    let mut dice = ScriptedDice::new([14, 9]);
    let (mut f, _) = Combat::start(Setup::duel(ash(), brim(), Rules::default()), &mut dice);
    assert_eq!(f.order(), &[0, 1]);
    // Ash stabs with 1d12: 1; Brim defends with blank, save 20 succeeds, 4d6 = 4.
    dice.push([20, 1, 1, 1, 1, 1]);
    let stab = Act::Attack {
        targets: Seats::one(1),
        mode: AttackMode::Stab,
        dice: 1,
        fear: true,
    };
    f.decide(Side::Challenger, Decision::any(stab), &mut dice)
        .unwrap();
    let blank = Act::Defend {
        mode: Some(DefenseMode::Blank),
        dice: 0,
        spells: Levels::default(),
        draw: Seats::EMPTY,
    };
    f.decide(Side::Challenged, Decision::any(blank), &mut dice)
        .unwrap();
    assert_eq!((f.pool(0), f.lost(0)), (7, 1));
    assert!(f.conditions(0).contains(&"stunned".to_string()));
}

#[test]
fn a_refused_decision_changes_nothing() {
    let mut dice = ScriptedDice::new([14, 9]);
    let (mut f, _) = Combat::start(Setup::duel(ash(), brim(), Rules::default()), &mut dice);
    let before = format!("{f:?}");
    // PC23: never one's own side; PC26: several targets only with wave.
    let own = Act::Attack {
        targets: Seats::one(0),
        mode: AttackMode::Stab,
        dice: 0,
        fear: true,
    };
    assert!(f
        .decide(Side::Challenger, Decision::any(own), &mut dice)
        .is_err());
    let too_many = Act::Attack {
        targets: Seats::one(1),
        mode: AttackMode::Stab,
        dice: 9,
        fear: true,
    };
    assert!(f
        .decide(Side::Challenger, Decision::any(too_many), &mut dice)
        .is_err());
    assert!(f
        .decide(Side::Challenged, Decision::any(Act::Pass), &mut dice)
        .is_err());
    assert_eq!(before, format!("{f:?}"));
}

#[test]
fn the_default_policy_always_ends_a_fight() {
    // PC31, PC37: any fight by the policy ends within the round limit.
    let mut dice = herald_engine::dice::SeededDice::from_u64(7);
    for _ in 0..2000 {
        let mut f = Combat::start_into(
            Setup::duel(ash(), brim(), Rules::default()),
            &mut dice,
            &mut herald_engine::game::Discard,
        );
        assert!(f.play_out(&mut dice, &mut herald_engine::game::Discard, 10_000));
        assert!(f.round() <= 10);
    }
}
