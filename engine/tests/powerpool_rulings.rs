//! One test per ruling of `rulesets/powerpool.md` (PC1–PC39), each with scripted dice and
//! named in a comment. The worked example (PC38's dice order) is `powerpool_example.rs`.

use herald_engine::dice::ScriptedDice;
use herald_engine::game::Side;
use herald_engine::powerpool::event::{
    Condition, ConditionWhy, EndWhy, Event, ExchangeResult, FightOutcome, LossWhy, Role, SaveWhy,
    Seat, Skipped, Until,
};
use herald_engine::powerpool::modes::step_up;
use herald_engine::powerpool::sheet::{derived_hp, derived_save, pool_size};
use herald_engine::powerpool::{
    Act, AttackMode as A, Combat, DefenseMode as D, EndReason, Entrant, Kind, Levels, NewCreature,
    Phase, PuppetOrder, RuleError, Rules, Seats, Setup, Standing, State,
};

/// An NPC sheet (no budget), fresh.
fn npc(name: &str, kind: Kind, hd: u32, attacks: &[A], defenses: &[D]) -> Entrant {
    with(name, kind, hd, 8, attacks, defenses, &[])
}

fn with(
    name: &str,
    kind: Kind,
    hd: u32,
    die: u32,
    attacks: &[A],
    defenses: &[D],
    spells: &[u32],
) -> Entrant {
    let sheet = NewCreature {
        name: name.into(),
        kind: Some(kind),
        hd: Some(hd),
        die: Some(die),
        attacks: attacks.to_vec(),
        defenses: defenses.to_vec(),
        spells: spells.to_vec(),
        ..Default::default()
    }
    .create(true, &Rules::default())
    .expect("a legal NPC");
    let state = State::fresh(&sheet);
    Entrant { sheet, state }
}

/// A fight of `creatures` (the first `challengers` on the challenger's side), started on the
/// initiative dice `init`.
struct Bout {
    f: Combat,
    dice: ScriptedDice,
    events: Vec<Event>,
}

impl Bout {
    fn new(creatures: Vec<Entrant>, challengers: u8, init: &[u32]) -> Bout {
        Bout::ruled(creatures, challengers, init, Rules::default())
    }

    fn ruled(creatures: Vec<Entrant>, challengers: u8, init: &[u32], rules: Rules) -> Bout {
        let mut dice = ScriptedDice::new(init.iter().copied());
        let mut events = Vec::new();
        let setup = Setup {
            creatures: creatures.into(),
            challengers,
            rules,
        };
        let f = Combat::begin(setup, &mut dice, &mut events);
        assert_eq!(dice.remaining(), 0, "initiative uses exactly its dice");
        Bout { f, dice, events }
    }

    /// `seat` decides `act`, the step rolling `rolls` (all of them); its events.
    fn go(&mut self, seat: Seat, act: Act, rolls: &[u32]) -> Vec<Event> {
        self.dice.push(rolls.iter().copied());
        let mut events = Vec::new();
        self.f
            .decide_into(seat, act, &mut self.dice, &mut events)
            .unwrap_or_else(|e| panic!("{act:?} by #{seat} refused: {e}"));
        assert_eq!(self.dice.remaining(), 0, "the step uses exactly its dice");
        self.events.extend(events.iter().copied());
        events
    }

    /// `seat` decides `act`, which must be refused, and the fight must not change.
    fn refused(&mut self, seat: Seat, act: Act) -> RuleError {
        let before = format!("{:?}", self.f);
        let err = self
            .f
            .decide_into(seat, act, &mut self.dice, &mut Vec::new())
            .expect_err("refused");
        assert_eq!(format!("{:?}", self.f), before, "a refusal changes nothing");
        err
    }
}

fn attack(targets: &[Seat], mode: A) -> Act {
    Act::Attack {
        targets: targets.iter().copied().collect(),
        mode,
        dice: 0,
        fear: true,
    }
}

fn attack_n(target: Seat, mode: A, dice: u8) -> Act {
    Act::Attack {
        targets: Seats::one(target),
        mode,
        dice,
        fear: true,
    }
}

fn defend(mode: Option<D>) -> Act {
    Act::Defend {
        mode,
        dice: 0,
        spells: Levels::default(),
        draw: Seats::EMPTY,
    }
}

fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

fn exchange(events: &[Event]) -> ExchangeResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::Exchange { result, .. } => Some(*result),
            _ => None,
        })
        .expect("an exchange")
}

/// A psionicist of 2 HD (2d8) with every attack mode, against a mind of 1 HD (1d8).
fn duel(defenses: &[D], init: &[u32]) -> Bout {
    Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &A::ALL, &[D::Labyrinth]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], defenses),
        ],
        1,
        init,
    )
}

#[test]
fn pc1_only_the_ten_modes_of_the_rules() {
    // PC1: "Some Reflections" is no rule: its modes are not read.
    for idea in ["mind-knife", "psychic-crush", "ego-lash", "id-insinuation"] {
        assert_eq!(A::parse(idea), None, "{idea}");
    }
    for idea in [
        "empty-mind",
        "shield-thoughts",
        "fortress-of-intellect",
        "cerebral-barrier",
    ] {
        assert_eq!(D::parse(idea), None, "{idea}");
    }
    assert_eq!(A::ALL.len() + D::ALL.len(), 10);
}

#[test]
fn pc2_the_pool_is_the_hit_dice_and_rolling_spends_none() {
    // PC2: HD dice for a psionicist; an exchange spends none (a tie: 3+4 v 5+2).
    assert_eq!(pool_size(Kind::Psionicist, 7), 7);
    let mut b = duel(&[], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(None), &[3, 4, 7]);
    assert_eq!(exchange(&events), ExchangeResult::Tie);
    assert_eq!((b.f.pool(0), b.f.pool(1)), (2, 1));
}

#[test]
fn pc3_a_wild_talent_rolls_half_its_hit_dice_at_least_one() {
    // PC3: "a 10th level wizard with a wild talent rolls 5d4".
    assert_eq!(pool_size(Kind::Wild, 10), 5);
    assert_eq!(pool_size(Kind::Wild, 9), 4);
    assert_eq!(pool_size(Kind::Wild, 1), 1);
}

#[test]
fn pc4_a_mundane_mind_rolls_half_and_never_attacks() {
    // PC4: half its HD, no mode; it never attacks, and its turn passes itself (PC8).
    assert_eq!(pool_size(Kind::None, 6), 3);
    let refused = NewCreature {
        name: "Ox".into(),
        kind: Some(Kind::None),
        hd: Some(2),
        attacks: vec![A::Stab],
        ..Default::default()
    }
    .create(false, &Rules::default())
    .unwrap_err();
    assert!(
        refused.to_string().contains("not psionic knows no mode"),
        "{refused}"
    );
    let mut b = Bout::new(
        vec![
            npc("Ox", Kind::None, 2, &[], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
        ],
        1,
        &[20, 1],
    );
    assert!(has(&b.events, |e| *e
        == Event::Pass {
            creature: 0,
            auto: true
        }));
    assert_eq!(b.f.phase(), Phase::Turn(1));
    let err = b.refused(0, attack(&[1], A::Stab));
    assert_eq!(err, RuleError::NotYourTurn);
}

#[test]
fn pc5_all_are_aware_from_the_start() {
    // PC5: no surprise, no sleep: every creature's first turn is its own.
    let mut b = duel(&[], &[20, 1]);
    b.go(0, Act::Pass, &[]);
    let skipped: Vec<_> = b
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Turn { skipped, .. } => Some(*skipped),
            _ => None,
        })
        .collect();
    assert_eq!(skipped, [None, None]);
}

#[test]
fn pc6_die_steps_are_capped_at_d20() {
    // PC6: d4-d6-d8-d10-d12-d20; d10 up two is d20.
    assert_eq!(step_up(4, 1), 6);
    assert_eq!(step_up(10, 2), 20);
    assert_eq!(step_up(12, 2), 20);
}

#[test]
fn pc7_initiative_once_highest_first_ties_roll_again() {
    // PC7: 10 and 10 tie; they roll again (try 2): 5 and 12.
    let b = duel(&[], &[10, 10, 5, 12]);
    assert_eq!(b.f.order(), &[1, 0]);
    let tries: Vec<(Seat, u8, u8)> = b
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Initiative {
                creature,
                roll,
                attempt,
            } => Some((creature, roll, attempt)),
            _ => None,
        })
        .collect();
    assert_eq!(tries, [(0, 10, 1), (1, 10, 1), (0, 5, 2), (1, 12, 2)]);
}

#[test]
fn pc8_a_turn_is_one_action_and_one_with_nothing_to_decide_passes_itself() {
    // PC8: attack, maintain or pass end the turn; a creature that cannot attack passes.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Ox", Kind::None, 2, &[], &[]),
        ],
        1,
        &[20, 1],
    );
    let events = b.go(0, Act::Pass, &[]);
    assert!(has(&events, |e| *e
        == Event::Pass {
            creature: 0,
            auto: false
        }));
    assert!(has(&events, |e| *e
        == Event::Pass {
            creature: 1,
            auto: true
        }));
}

#[test]
fn pc9_an_attack_rolls_one_to_all_its_dice() {
    // PC9: DICE 1 to the pool, named with the attack; more is refused; an unknown mode too.
    let mut b = duel(&[], &[20, 1]);
    assert_eq!(
        b.refused(0, attack_n(1, A::Invasion, 3)),
        RuleError::Dice { pool: 2, given: 3 }
    );
    let mut only = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
        ],
        1,
        &[20, 1],
    );
    assert_eq!(
        only.refused(0, attack(&[1], A::Wave)),
        RuleError::Mode("Psionic Wave")
    );
    let events = b.go(0, attack_n(1, A::Invasion, 1), &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Attack {
            dice: 1,
            die: 8,
            ..
        }
    )));
}

#[test]
fn pc10_an_attacker_is_dazed_to_the_rounds_end_and_defends_with_labyrinth_only() {
    // PC10: Ash attacks (a tie), then Brim attacks him in the same round: dazed, Ash may use
    // only Cognitive Labyrinth; the daze lifts at the round's end.
    let mut b = Bout::new(
        vec![
            npc(
                "Ash",
                Kind::Psionicist,
                2,
                &[A::Invasion],
                &[D::Mantra, D::Labyrinth],
            ),
            npc("Brim", Kind::Psionicist, 2, &[A::Invasion], &[]),
        ],
        1,
        &[20, 1],
    );
    let events = b.go(0, attack(&[1], A::Invasion), &[]);
    assert!(has(&events, |e| *e
        == Event::Condition {
            creature: 0,
            condition: Condition::Dazed,
            why: ConditionWhy::Attacked,
            until: Some(Until::EndOfRound),
            of: None
        }));
    b.go(1, defend(None), &[3, 4, 5, 2]);
    b.go(1, attack(&[0], A::Invasion), &[]);
    assert_eq!(
        b.refused(0, defend(Some(D::Mantra))),
        RuleError::OnlyLabyrinth
    );
    b.go(0, defend(Some(D::Labyrinth)), &[3, 4, 5, 2]);
    assert_eq!(b.f.round(), 2);
    assert!(!b.f.conditions(0).contains(&"dazed".to_string()));
}

#[test]
fn pc11_a_defender_rolls_one_to_all_its_dice_after_the_attack() {
    // PC11: 1 die of 2, announced after the attack; more than the pool is refused.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Invasion], &[D::Mantra]),
        ],
        1,
        &[20, 1],
    );
    b.go(0, attack(&[1], A::Invasion), &[]);
    let three = Act::Defend {
        mode: Some(D::Mantra),
        dice: 3,
        spells: Levels::default(),
        draw: Seats::EMPTY,
    };
    assert_eq!(b.refused(1, three), RuleError::Dice { pool: 2, given: 3 });
    let one = Act::Defend {
        mode: Some(D::Mantra),
        dice: 1,
        spells: Levels::default(),
        draw: Seats::EMPTY,
    };
    let events = b.go(1, one, &[4, 4, 8]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Defense {
            creature: 1,
            dice: 1,
            ..
        }
    )));
    assert_eq!(exchange(&events), ExchangeResult::Tie);
}

/// Brim attacks first and loses (PC17): stunned, a die lost; then it is Ash's turn.
fn brim_stunned(defenses: &[D]) -> Bout {
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Invasion], defenses),
        ],
        1,
        &[1, 20],
    );
    b.go(1, attack(&[0], A::Invasion), &[]);
    let events = b.go(0, defend(None), &[1, 1, 8, 8]);
    assert_eq!(exchange(&events), ExchangeResult::Defender);
    b
}

#[test]
fn pc12_a_stunned_target_without_labyrinth_is_defenceless() {
    // PC12: not asked, no dice, total 0; the attacker still rolls, and wins.
    let mut b = brim_stunned(&[D::Mantra]);
    let events = b.go(0, attack(&[1], A::Invasion), &[1, 1]);
    assert!(has(&events, |e| *e
        == Event::Defense {
            creature: 1,
            role: Role::Target,
            mode: None,
            able: false,
            dice: 0,
            die: 8,
            spells: Levels::default(),
            bonus: 0
        }));
    assert!(has(&events, |e| matches!(
        e,
        Event::Exchange {
            attack_total: 2,
            defense_total: Some(0),
            result: ExchangeResult::Attacker,
            ..
        }
    )));
}

#[test]
fn pc13_a_stun_lasts_to_the_end_of_the_next_turn_which_is_lost() {
    // PC13: Brim, stunned in round 1, loses its round-2 turn, then is free of it.
    let mut b = brim_stunned(&[]);
    assert!(b.f.conditions(1).contains(&"stunned".to_string()));
    let events = b.go(0, Act::Pass, &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Turn {
            round: 2,
            creature: 1,
            skipped: Some(Skipped::Stunned),
            ..
        }
    )));
    assert!(b.f.conditions(1).is_empty(), "{:?}", b.f.conditions(1));
}

#[test]
fn pc14_a_tie_has_no_winner_but_the_attacker_is_dazed() {
    // PC14: 3+4 v 5+2: no control, no die lost, no stun.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Invasion], &[]),
        ],
        1,
        &[20, 1],
    );
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(None), &[3, 4, 5, 2]);
    assert_eq!(exchange(&events), ExchangeResult::Tie);
    assert!(!has(&events, |e| matches!(
        e,
        Event::Controlled { .. }
            | Event::DieLost { .. }
            | Event::Condition {
                condition: Condition::Stunned,
                ..
            }
    )));
    assert!(b.f.conditions(0).contains(&"dazed".to_string()));
}

#[test]
fn pc15_spells_are_a_bonus_spent_with_the_roll_and_kept_if_a_save_ends_it_first() {
    // PC15: spells 3,2 add 5 to the defense and are spent; after a failed Blank Mind save
    // (PC18) none is spent.
    let brim = || {
        with(
            "Brim",
            Kind::Wild,
            8,
            6,
            &[A::Overload],
            &[D::Blank],
            &[3, 2, 1],
        )
    };
    let ash = || npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]);
    let spells = |mode| Act::Defend {
        mode,
        dice: 0,
        spells: Levels::of(&[3, 2]),
        draw: Seats::EMPTY,
    };
    let mut b = Bout::new(vec![ash(), brim()], 1, &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, spells(None), &[8, 8, 1, 1, 1, 1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::PoolRoll {
            creature: 1,
            sum: 4,
            bonus: 5,
            total: 9,
            ..
        }
    )));
    assert_eq!(b.f.carry()[1].spells_spent, Levels::of(&[3, 2]));
    // Ash's save is 16 (2 HD): a 5 fails, and the spells stay memorised.
    let mut b = Bout::new(vec![ash(), brim()], 1, &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, spells(Some(D::Blank)), &[5]);
    assert_eq!(exchange(&events), ExchangeResult::BlankMind);
    assert_eq!(b.f.carry()[1].spells_spent, Levels::default());
}

#[test]
fn pc16_the_attacker_wins_control_or_a_mantras_stun_and_the_modes_effect() {
    // PC16: Barrier Mantra: stunned instead of controlled, and Overload still hurts (its own
    // faces, PC30); without it, control.
    let mut b = duel(&[D::Mantra], &[20, 1]);
    b.go(0, attack(&[1], A::Overload), &[]);
    let events = b.go(1, defend(Some(D::Mantra)), &[8, 8, 3]);
    assert!(!has(&events, |e| matches!(e, Event::Controlled { .. })));
    assert!(has(&events, |e| matches!(
        e,
        Event::Condition {
            creature: 1,
            condition: Condition::Stunned,
            why: ConditionWhy::BarrierMantra,
            ..
        }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::Damage {
            creature: 1,
            amount: 3,
            ..
        }
    )));
    let mut b = duel(&[], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(None), &[8, 8, 3]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Controlled {
            creature: 1,
            controller: 0,
            ..
        }
    )));
}

#[test]
fn pc17_the_defender_wins_the_attacker_loses_a_die_is_stunned_and_its_controls_end() {
    // PC17: Ash holds Brim with a dedicated die, then loses an attack on Cob: a die lost (its
    // pool 0 while the die is still dedicated), a stun, and the control ends, its die back.
    let mut b = three();
    b.go(0, Act::Dedicate(1), &[]);
    b.go(0, attack_n(2, A::Stab, 1), &[]);
    let events = b.go(2, defend(None), &[1, 8]);
    assert_eq!(exchange(&events), ExchangeResult::Defender);
    assert!(has(&events, |e| *e
        == Event::DieLost {
            creature: 0,
            why: LossWhy::LostAttack,
            pool: 0,
            lost: 1
        }));
    assert!(has(&events, |e| matches!(
        e,
        Event::ControlEnded {
            controller: 0,
            why: EndWhy::ControllerLost,
            returned: 1,
            expended: 0,
            ..
        }
    )));
    assert!(b.f.conditions(0).contains(&"stunned".to_string()));
}

#[test]
fn pc18_blank_mind_the_attacker_saves_before_any_die() {
    // PC18: a failed save (5 v 16) is the defender's win, no pool die rolled; a success (16)
    // goes on.
    let mut b = duel(&[D::Blank], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(Some(D::Blank)), &[5]);
    assert!(has(&events, |e| *e
        == Event::Save {
            creature: 0,
            why: SaveWhy::BlankMind,
            roll: 5,
            target: 16,
            success: false
        }));
    assert!(!has(&events, |e| matches!(e, Event::PoolRoll { .. })));
    assert!(has(&events, |e| matches!(
        e,
        Event::DieLost {
            creature: 0,
            why: LossWhy::BlankMind,
            ..
        }
    )));
    let mut b = duel(&[D::Blank], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(Some(D::Blank)), &[16, 8, 8, 1]);
    assert_eq!(exchange(&events), ExchangeResult::Attacker);
}

#[test]
fn pc19_cognitive_labyrinth_defends_when_unable() {
    // PC19: stunned, Brim is still asked, and may use Labyrinth.
    let mut b = brim_stunned(&[D::Labyrinth]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    assert_eq!(b.f.awaited(), vec![1]);
    let events = b.go(1, defend(Some(D::Labyrinth)), &[1, 1, 8]);
    assert_eq!(exchange(&events), ExchangeResult::Defender);
}

#[test]
fn pc20_pinnacle_of_will_steps_its_users_dice_up_once() {
    // PC20: d8 becomes d10 (a 10 fits).
    let mut b = duel(&[D::Pinnacle], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(Some(D::Pinnacle)), &[1, 1, 10]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Defense {
            creature: 1,
            die: 10,
            ..
        }
    )));
}

/// Ash (2 HD, stab, invasion) against Brim (1 HD) and Cob (not psionic, 2 HD): Ash stabs
/// Brim under control in round 1; in round 2 it is Ash's turn with the control due.
fn three() -> Bout {
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab, A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cob", Kind::None, 2, &[], &[]),
        ],
        1,
        &[20, 10, 5],
    );
    b.go(0, attack(&[1], A::Stab), &[]);
    let events = b.go(1, defend(None), &[12, 12, 1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Controlled { creature: 1, .. }
    )));
    assert_eq!(b.f.round(), 2);
    assert_eq!(b.f.phase(), Phase::Turn(0));
    b
}

#[test]
fn pc21_under_control_the_pool_is_zero_its_turns_lost_and_its_controls_expended() {
    // PC21: Brim's pool is 0 and its turn lost. Then Ash, holding Brim with a die, falls under
    // Dun's control: that die is expended (lost until rest).
    let b = three();
    assert_eq!(b.f.pool(1), 0);
    assert!(has(&b.events, |e| matches!(
        e,
        Event::Turn {
            creature: 1,
            skipped: Some(Skipped::Controlled),
            ..
        }
    )));
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Dun", Kind::Psionicist, 2, &[A::Stab], &[]),
        ],
        1,
        &[20, 10, 5],
    );
    b.go(0, attack(&[1], A::Stab), &[]);
    b.go(1, defend(None), &[12, 12, 1]);
    b.go(2, Act::Pass, &[]);
    b.go(0, Act::Dedicate(1), &[]);
    b.go(0, Act::Pass, &[]);
    b.go(2, attack(&[0], A::Stab), &[]);
    let events = b.go(0, defend(None), &[12, 12, 1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::ControlEnded {
            controller: 0,
            why: EndWhy::ControllerControlled,
            returned: 0,
            expended: 1,
            ..
        }
    )));
    assert_eq!(b.f.carry()[0].dice_lost, 1);
}

#[test]
fn pc22_a_due_control_is_kept_by_a_die_or_the_action_or_lapses() {
    // PC22: /maintain keeps it with the turn; not kept, it lapses at the turn's end; /release
    // ends it; /dedicate holds it with a die.
    let mut b = three();
    let events = b.go(0, Act::Maintain(1), &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Maintained { controller: 0, .. }
    )));
    let mut b = three();
    let events = b.go(0, Act::Pass, &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::ControlEnded {
            why: EndWhy::Lapsed,
            ..
        }
    )));
    let mut b = three();
    let events = b.go(0, Act::Release(1), &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::ControlEnded {
            why: EndWhy::Released,
            ..
        }
    )));
    assert_eq!(b.f.phase(), Phase::Turn(0), "a release is free");
    let mut b = three();
    let events = b.go(0, Act::Dedicate(1), &[]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Dedicated {
            dice: 1,
            pool: 1,
            ..
        }
    )));
    assert_eq!(b.f.phase(), Phase::Turn(0), "dedicating is free");
}

#[test]
fn pc23_naming_a_controlled_creature_attacks_its_controller_never_ones_own_side() {
    // PC23: Brim (side 2) controls Ash's ally Cai; Ash attacks Cai: the attack goes to Brim.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Cai", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Dun", Kind::None, 1, &[], &[]),
        ],
        2,
        &[15, 10, 20, 5],
    );
    b.go(2, attack(&[1], A::Stab), &[]);
    b.go(1, defend(None), &[12, 12, 1]);
    // Brim, dazed by its own attack, is defenceless (PC10, PC12): the dice roll at once.
    let events = b.go(0, attack(&[1], A::Stab), &[1, 1]);
    assert!(has(
        &events,
        |e| matches!(e, Event::Attack { named, defenders, .. }
        if named.as_slice() == [1] && defenders.as_slice() == [2])
    ));
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Cai", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Stab], &[]),
        ],
        2,
        &[20, 10, 5],
    );
    assert!(matches!(
        b.refused(0, attack(&[1], A::Stab)),
        RuleError::Target(_)
    ));
}

#[test]
fn pc24_mental_stab_steps_the_attackers_dice_up_twice() {
    // PC24: a d10 NPC stabs with d20s.
    let mut b = Bout::new(
        vec![
            with("Ash", Kind::Psionicist, 1, 10, &[A::Stab], &[], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
        ],
        1,
        &[20, 1],
    );
    let events = b.go(0, attack(&[1], A::Stab), &[]);
    assert!(has(&events, |e| matches!(e, Event::Attack { die: 20, .. })));
}

#[test]
fn pc25_a_possessor_works_its_puppet_which_saves_against_an_order_to_yield() {
    // PC25: possessed in round 1 (its possessor dazed, the puppet's turn is lost); in round 2
    // Ash, keeping the control, orders Brim to yield: 3 v its save 16 fails, Brim yields.
    let mut b = three_invaded();
    b.go(0, Act::Maintain(1), &[]);
    assert_eq!(b.f.phase(), Phase::Puppet { puppet: 1, by: 0 });
    let events = b.go(0, Act::Puppet(PuppetOrder::Yield), &[3]);
    assert!(has(&events, |e| *e
        == Event::Save {
            creature: 1,
            why: SaveWhy::Possession,
            roll: 3,
            target: 16,
            success: false
        }));
    assert!(has(&events, |e| *e
        == Event::Yielded {
            creature: 1,
            forced: true
        }));
    // A puppet that saves does not yield.
    let mut b = three_invaded();
    b.go(0, Act::Maintain(1), &[]);
    let events = b.go(0, Act::Puppet(PuppetOrder::Yield), &[16]);
    assert!(!has(&events, |e| matches!(e, Event::Yielded { .. })));
}

fn three_invaded() -> Bout {
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cob", Kind::None, 2, &[], &[]),
        ],
        1,
        &[20, 10, 5],
    );
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(1, defend(None), &[8, 8, 1]);
    // The possessor is dazed by its attack: the puppet's round-1 turn is lost (PC10).
    assert!(has(&events, |e| matches!(
        e,
        Event::Turn {
            round: 1,
            creature: 1,
            skipped: Some(Skipped::Controlled),
            ..
        }
    )));
    b
}

#[test]
fn pc26_pc27_a_wave_names_up_to_three_who_defend_as_one_group() {
    // PC26, PC27: Brim and Cob defend as one (1 + 1 = 2 v 16): one control group; and a
    // group that wins costs the attacker one die only (PC17 once).
    let side = || {
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Wave], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cob", Kind::None, 2, &[], &[]),
        ]
    };
    let mut b = Bout::new(side(), 1, &[20, 10, 5]);
    assert!(matches!(
        b.refused(0, attack(&[1, 2], A::Stab)),
        RuleError::Mode(_) | RuleError::Target(_)
    ));
    b.go(0, attack(&[1, 2], A::Wave), &[]);
    b.go(1, defend(None), &[]);
    let events = b.go(2, defend(None), &[8, 8, 1, 1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Exchange {
            attack_total: 16,
            defense_total: Some(2),
            ..
        }
    )));
    let groups: Vec<u16> = events
        .iter()
        .filter_map(|e| match e {
            Event::Controlled { group, .. } => Some(*group),
            _ => None,
        })
        .collect();
    assert_eq!(groups, [1, 1]);
    assert_eq!(b.f.outcome().map(|o| o.reason), Some(EndReason::Control));
    let mut b = Bout::new(side(), 1, &[20, 10, 5]);
    b.go(0, attack(&[1, 2], A::Wave), &[]);
    b.go(1, defend(None), &[]);
    let events = b.go(2, defend(None), &[1, 1, 8, 8]);
    let lost = events
        .iter()
        .filter(|e| matches!(e, Event::DieLost { .. }))
        .count();
    assert_eq!(lost, 1);
}

#[test]
fn pc28_imagination_swarm_an_ally_joins_and_a_mundane_ally_is_drawn_then_dazed() {
    // PC28: Cai, an ally who knows Swarm, may join Brim's defense; Brim draws Cob (not
    // psionic), who rolls its dice and is dazed after, whatever the result.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Stab], &[D::Swarm]),
            npc("Cai", Kind::Psionicist, 1, &[A::Stab], &[D::Swarm]),
            npc("Cob", Kind::None, 2, &[], &[]),
        ],
        1,
        &[20, 10, 5, 2],
    );
    b.go(0, attack(&[1], A::Stab), &[]);
    assert_eq!(b.f.awaited(), vec![1, 2]);
    b.go(
        2,
        Act::Join {
            dice: 0,
            spells: Levels::default(),
            draw: Seats::EMPTY,
        },
        &[],
    );
    b.go(
        1,
        Act::Defend {
            mode: Some(D::Swarm),
            dice: 0,
            spells: Levels::default(),
            draw: Seats::one(3),
        },
        &[],
    );
    assert_eq!(b.f.phase(), Phase::Drawn);
    let events = b.go(3, defend(None), &[12, 12, 1, 1, 1, 1]);
    let roles: Vec<Role> = events
        .iter()
        .filter_map(|e| match e {
            Event::Defense { role, .. } => Some(*role),
            _ => None,
        })
        .collect();
    assert_eq!(roles, [Role::Target, Role::Joined, Role::Drawn]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Exchange {
            defense_total: Some(4),
            ..
        }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::Condition {
            creature: 3,
            condition: Condition::Dazed,
            why: ConditionWhy::ImaginationSwarm,
            ..
        }
    )));
}

#[test]
fn pc29_subversion_frightens_unless_nofear() {
    // PC29: Brim, under Barrier Mantra, is stunned and frightened of Ash: it may not attack
    // Ash for the rest of the fight; nofear frightens no one.
    let mut b = duel(&[D::Mantra], &[20, 1]);
    b.go(0, attack(&[1], A::Subversion), &[]);
    let events = b.go(1, defend(Some(D::Mantra)), &[8, 8, 1]);
    assert!(has(&events, |e| *e
        == Event::Condition {
            creature: 1,
            condition: Condition::Frightened,
            why: ConditionWhy::Subversion,
            until: Some(Until::EndOfFight),
            of: Some(0)
        }));
    assert!(b.f.conditions(1).contains(&"frightened of Ash".to_string()));
    let mut b = duel(&[D::Mantra], &[20, 1]);
    let nofear = Act::Attack {
        targets: Seats::one(1),
        mode: A::Subversion,
        dice: 0,
        fear: false,
    };
    b.go(0, nofear, &[]);
    let events = b.go(1, defend(Some(D::Mantra)), &[8, 8, 1]);
    assert!(!has(&events, |e| matches!(
        e,
        Event::Condition {
            condition: Condition::Frightened,
            ..
        }
    )));
}

#[test]
fn pc30_overload_deals_the_members_own_faces_and_zero_hp_is_unconscious() {
    // PC30: Brim (4 HP) rolls an 8 under Mantra: 8 damage, -4 HP, unconscious, and the fight
    // ends (PC31).
    let mut b = duel(&[D::Mantra], &[20, 1]);
    b.go(0, attack(&[1], A::Overload), &[]);
    let events = b.go(1, defend(Some(D::Mantra)), &[8, 8, 8]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Damage {
            creature: 1,
            amount: 8,
            hp: -4,
            ..
        }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::Condition {
            creature: 1,
            condition: Condition::Unconscious,
            ..
        }
    )));
    assert_eq!(
        b.f.outcome().map(|o| o.reason),
        Some(EndReason::Unconscious)
    );
}

#[test]
fn pc31_a_round_without_an_attack_or_the_round_limit_is_a_draw() {
    // PC31: someone could attack and nobody did: a draw, with no winners.
    let mut b = duel(&[], &[20, 1]);
    b.go(0, Act::Pass, &[]);
    let events = b.go(1, Act::Pass, &[]);
    assert!(has(&events, |e| *e
        == Event::FightEnded {
            result: FightOutcome::Draw,
            winners: Seats::EMPTY,
            losers: Seats::EMPTY,
            reason: EndReason::NoAttack,
            rounds: 1
        }));
    assert_eq!(b.f.standing(0), Some(Standing::Draw));
    // The realm's round limit (house): a tie in round 1 of 1 ends it.
    let rules = Rules {
        round_limit: 1,
        ..Rules::default()
    };
    let mut b = Bout::ruled(
        vec![
            npc("Ash", Kind::Psionicist, 2, &[A::Invasion], &[]),
            npc("Brim", Kind::Psionicist, 2, &[A::Invasion], &[]),
        ],
        1,
        &[20, 1],
        rules,
    );
    b.go(0, attack(&[1], A::Invasion), &[]);
    b.go(1, defend(None), &[3, 4, 5, 2]);
    b.go(1, Act::Pass, &[]);
    assert_eq!(b.f.outcome().map(|o| o.reason), Some(EndReason::RoundLimit));
}

#[test]
fn pc32_a_yield_at_any_time_loses_and_voids_the_exchange_of_its_attacker() {
    // PC32: Ash attacks and yields before Brim defends: the exchange is void, Ash loses.
    let mut b = duel(&[], &[20, 1]);
    b.go(0, attack(&[1], A::Invasion), &[]);
    let events = b.go(0, Act::Yield, &[]);
    assert!(!has(&events, |e| matches!(e, Event::Exchange { .. })));
    assert_eq!(
        b.f.outcome().map(|o| o.winner),
        Some(Some(Side::Challenged))
    );
    assert_eq!(b.f.standing(0), Some(Standing::Loss));
}

#[test]
fn pc33_sides_of_one_to_three_a_mundane_one_may_be_named() {
    // PC33: three a side, listing order, a mind that is not psionic among them.
    let b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cai", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cob", Kind::None, 1, &[], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Dun", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Eel", Kind::None, 1, &[], &[]),
        ],
        3,
        &[20, 19, 18, 17, 16, 15],
    );
    assert!(matches!(b.events[0], Event::FightStarted { sides }
        if sides[0].as_slice() == [0, 1, 2] && sides[1].as_slice() == [3, 4, 5]));
    assert_eq!(b.f.side_of(2), Side::Challenger);
    assert_eq!(b.f.side_of(3), Side::Challenged);
}

#[test]
fn pc34_the_creation_budget() {
    // PC34 (house): modes grow with HD; psionicists d8 and no spells; wild talents one attack
    // mode and spells by HD; players stop at the realm's HD.
    let new = |kind, hd, attacks: &[A], defenses: &[D], spells: &[u32], die| NewCreature {
        name: "Ash".into(),
        kind: Some(kind),
        hd: Some(hd),
        die,
        attacks: attacks.to_vec(),
        defenses: defenses.to_vec(),
        spells: spells.to_vec(),
        ..Default::default()
    };
    let rules = Rules::default();
    let ok = |n: NewCreature| n.create(false, &rules).map(drop);
    let err = |n: NewCreature| n.create(false, &rules).unwrap_err().to_string();
    assert!(ok(new(
        Kind::Psionicist,
        4,
        &[A::Stab, A::Wave],
        &[D::Mantra, D::Blank],
        &[],
        None
    ))
    .is_ok());
    assert!(err(new(
        Kind::Psionicist,
        4,
        &[A::Stab, A::Wave, A::Overload],
        &[],
        &[],
        None
    ))
    .contains("1 to 2 attack modes"));
    assert!(err(new(Kind::Psionicist, 3, &[], &[], &[], None)).contains("1 to 1 attack modes"));
    assert!(
        err(new(Kind::Psionicist, 3, &[A::Stab], &[], &[1], None)).contains("memorises no spells")
    );
    assert!(err(new(Kind::Psionicist, 3, &[A::Stab], &[], &[], Some(6))).contains("d8"));
    assert!(
        err(new(Kind::Wild, 3, &[A::Stab, A::Wave], &[], &[], None)).contains("one attack mode")
    );
    assert!(err(new(Kind::Wild, 3, &[A::Stab], &[], &[3], None)).contains("at most 2"));
    assert!(
        err(new(Kind::Wild, 2, &[A::Stab], &[], &[1, 1, 1, 1, 1], None))
            .contains("add up to at most 4")
    );
    assert!(ok(new(
        Kind::Wild,
        2,
        &[A::Stab],
        &[D::Blank],
        &[1, 1, 1, 1],
        Some(4)
    ))
    .is_ok());
    assert!(err(new(Kind::Psionicist, 9, &[A::Stab], &[], &[], None)).contains("1 to 8 hit dice"));
    let wider = Rules {
        max_hd: 10,
        ..Rules::default()
    };
    assert!(new(Kind::Psionicist, 9, &[A::Stab], &[], &[], None)
        .create(false, &wider)
        .is_ok());
}

#[test]
fn pc35_hp_and_save_are_derived_npcs_set_their_own() {
    // PC35: HP the hit dice's average, the save 16 - (HD-1)/2; NPCs --hp 1-999, --save 2-20.
    assert_eq!(
        (derived_hp(8, 8), derived_hp(8, 6), derived_hp(1, 4)),
        (36, 28, 2)
    );
    assert_eq!(
        (
            derived_save(1),
            derived_save(2),
            derived_save(3),
            derived_save(20)
        ),
        (16, 16, 15, 7)
    );
    let npc = |hp, save| NewCreature {
        name: "Flayer".into(),
        kind: Some(Kind::Psionicist),
        hd: Some(12),
        attacks: vec![A::Stab],
        hp,
        save,
        ..Default::default()
    };
    let sheet = npc(Some(60), Some(9))
        .create(true, &Rules::default())
        .unwrap();
    assert_eq!((sheet.hp_max, sheet.save), (60, 9));
    assert!(npc(Some(1000), None)
        .create(true, &Rules::default())
        .is_err());
    assert!(npc(None, Some(1)).create(true, &Rules::default()).is_err());
}

#[test]
fn pc36_every_control_ends_with_the_fight_and_dedicated_dice_return() {
    // PC36: Ash holds Brim with a die and takes Cob: the fight ends, the die returns.
    let mut b = three();
    b.go(0, Act::Dedicate(1), &[]);
    b.go(0, attack_n(2, A::Stab, 1), &[]);
    let events = b.go(2, defend(None), &[12, 1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::ControlEnded {
            why: EndWhy::FightEnded,
            returned: 1,
            expended: 0,
            pool: 2,
            ..
        }
    )));
    assert_eq!(b.f.carry()[0].dice_lost, 0);
}

#[test]
fn pc37_the_default_policy() {
    // PC37: a due control is dedicated if a die stays in the pool, else maintained; then the
    // first free opponent with stab first; a target defends with blank first.
    let b = three();
    assert_eq!(b.f.default_for(0), Some(Act::Dedicate(1)));
    let mut b = three();
    b.go(0, Act::Dedicate(1), &[]);
    assert_eq!(b.f.default_for(0), Some(attack(&[2], A::Stab)));
    let mut b = three();
    b.go(0, Act::Release(1), &[]);
    assert_eq!(b.f.default_for(0), Some(attack(&[1], A::Stab)));
    let mut b = duel(&[D::Mantra, D::Blank, D::Pinnacle], &[20, 1]);
    assert_eq!(b.f.default_for(0), Some(attack(&[1], A::Stab)));
    b.go(0, attack(&[1], A::Stab), &[]);
    assert_eq!(b.f.default_for(1), Some(defend(Some(D::Blank))));
    // A pool of one: a die would not stay, so the control is maintained.
    let mut b = Bout::new(
        vec![
            npc("Ash", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Brim", Kind::Psionicist, 1, &[A::Stab], &[]),
            npc("Cob", Kind::None, 2, &[], &[]),
        ],
        1,
        &[20, 10, 5],
    );
    b.go(0, attack(&[1], A::Stab), &[]);
    b.go(1, defend(None), &[12, 1]);
    assert_eq!(b.f.default_for(0), Some(Act::Maintain(1)));
}

#[test]
fn pc39_rest_once_per_realm_day_brings_everything_back() {
    // PC39: HP, dice and spells return; a second rest that day is refused.
    let e = with(
        "Brim",
        Kind::Wild,
        8,
        6,
        &[A::Overload],
        &[D::Blank],
        &[3, 2, 1],
    );
    let hurt = State {
        hp: 3,
        dice_lost: 2,
        spells_spent: Levels::of(&[3]),
        rested_on: None,
    };
    let rested = hurt.rest(&e.sheet, "2026-12-01").unwrap();
    assert_eq!(
        (rested.hp, rested.dice_lost, rested.spells_spent),
        (28, 0, Levels::default())
    );
    assert!(rested.rest(&e.sheet, "2026-12-01").is_err());
    assert!(rested.rest(&e.sheet, "2026-12-02").is_ok());
}
