//! Properties of any Psi Morphs fight: any sequence of legal decisions (ISPs included) ends
//! within the page's limits (PM12's round limit; a redo chain bounded by ISPs, PM14; free
//! decisions bounded by the forces maintained, PM22); a refused decision changes nothing; every
//! check's total is its dice + level + ranks + half + ISPs (PM1, PM13). Morphs range over
//! everything an NPC may be (PM17), players and NPCs, with any state a challenge accepts.

use herald_engine::dice::SeededDice;
use herald_engine::game::Fight;
use herald_engine::psimorphs::*;
use proptest::prelude::*;

/// Any morph within the NPC bounds (PM17), a player's or an NPC, awake and alive.
fn entrant() -> impl Strategy<Value = Entrant> {
    (
        proptest::array::uniform6(0..=12u8),
        proptest::array::uniform6(0..=6u8),
        proptest::array::uniform6(0..=2u8),
        (1..=5u8, 1..=60u16, 0..=12u8, 0..=12u8),
        proptest::array::uniform7(0..=8u16),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(attrs, ranks, master, (level, hp, pa, pe), isp, (player, reflexes, quickness))| {
                let ranks = Ranks::from_array(ranks);
                let mut m = [0u8; 6];
                for (i, r) in ranks.to_array().iter().enumerate() {
                    m[i] = master[i].min(*r);
                }
                let isp = Isp {
                    combat: isp[0],
                    physical: isp[1],
                    mental: isp[2],
                    negotiating: isp[3],
                    atom: isp[4],
                    energy: isp[5],
                    general: isp[6],
                };
                let sheet = MorphSheet {
                    level,
                    attributes: Attributes::from_array(attrs),
                    ranks,
                    master: Ranks::from_array(m),
                    max_hp: hp,
                    pa_fp: pa,
                    pe_fp: pe,
                    isp,
                    reflexes: player && reflexes,
                    quickness: !player && quickness,
                };
                Entrant {
                    name: "M".into(),
                    owner: player.then(|| "p".to_string()),
                    state: MorphState::fresh(&sheet, "2026-12-01"),
                    sheet,
                }
            },
        )
}

/// Every decision a morph could type now, legal or not, with some ISPs.
fn every_decision(isp: u16) -> Vec<Decision> {
    let mut out = vec![
        Decision::Attack { isp },
        Decision::Pass,
        Decision::Redo,
        Decision::Keep,
        Decision::Yield,
    ];
    for group in Group::ALL {
        out.push(Decision::Defend { group, isp });
        out.push(Decision::Resist { group, isp });
    }
    for f in ["eb1", "eb2", "hs1", "as1", "kc1", "ll1", "zz9"] {
        let force = ForceId::new(f).unwrap();
        out.push(Decision::Force { force, isp });
        out.push(Decision::Drop { force });
        out.push(Decision::BreakFree { force });
    }
    out
}

/// A check's total is its dice and its modifier, the modifier its parts (PM1, PM13).
fn check_sums(events: &[Event]) -> Result<(), TestCaseError> {
    for e in events {
        if let Event::Check(c) = e {
            let faces: u32 = c.dice.iter().map(|d| d.sum()).sum();
            prop_assert_eq!(faces, c.dice_total);
            prop_assert_eq!(
                c.modifier,
                i32::from(c.level) + i32::from(c.ranks) + c.half + i32::from(c.isp)
            );
            prop_assert_eq!(c.total, c.dice_total as i32 + c.modifier);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // Any sequence of legal decisions, ISPs included, ends within the round limit (PM12), and
    // each decision rolls at most 4 chains of at most 20 dice (PM4).
    #[test]
    fn any_legal_sequence_ends_within_the_limits(
        a in entrant(),
        b in entrant(),
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u16>(), 4000),
    ) {
        let tables = Tables::default();
        let mut dice = SeededDice::from_u64(seed);
        let (mut f, events) = MorphFight::start(FightSetup { morphs: [a, b], tables: tables.clone() }, &mut dice);
        check_sums(&events)?;
        let mut decisions = 0;
        for pick in picks {
            let Some((side, _)) = f.awaited() else { break };
            let options = f.options();
            let mut d = options[usize::from(pick) % options.len()];
            // Some ISPs on a check the decision leads to, within what the morph holds.
            let extra = pick / 64 % 4;
            match &mut d {
                Decision::Attack { isp } | Decision::Force { isp, .. } | Decision::Defend { isp, .. } | Decision::Resist { isp, .. } => *isp = extra,
                _ => {}
            }
            let events = match f.decide(side, d, &mut dice) {
                Ok(e) => e,
                // Too many ISPs for this check: the decision without them is legal.
                Err(RuleError::NotEnoughIsp { .. }) => {
                    let plain = options[usize::from(pick) % options.len()];
                    f.decide(side, plain, &mut dice).map_err(|e| TestCaseError::fail(format!("{plain}: {e}")))?
                }
                Err(e) => return Err(TestCaseError::fail(format!("legal {d} refused: {e}"))),
            };
            check_sums(&events)?;
            decisions += 1;
            prop_assert!(f.round() <= tables.round_limit);
        }
        prop_assert!(f.is_over(), "not over after {decisions} decisions, round {}", f.round());
        let o = f.outcome().unwrap();
        prop_assert!(o.rounds <= tables.round_limit);
        prop_assert!(f.pending().is_empty());
    }

    // A refused decision is an error and changes nothing: not the fight, not the dice.
    #[test]
    fn a_refused_decision_changes_nothing(
        a in entrant(),
        b in entrant(),
        seed in any::<u64>(),
        picks in proptest::collection::vec((any::<u16>(), 0..=20u16, any::<bool>()), 60),
    ) {
        let mut dice = SeededDice::from_u64(seed);
        let (mut f, _) = MorphFight::start(FightSetup { morphs: [a, b], tables: Tables::default() }, &mut dice);
        for (pick, isp, wrong_side) in picks {
            let Some((side, _)) = f.awaited() else { break };
            let all = every_decision(isp);
            let d = all[usize::from(pick) % all.len()];
            let who = if wrong_side { side.other() } else { side };
            let before = format!("{f:?}");
            let at = dice.word_pos();
            match f.decide(who, d, &mut dice) {
                Err(_) => {
                    prop_assert_eq!(format!("{f:?}"), before, "{} changed the fight", d);
                    prop_assert_eq!(dice.word_pos(), at, "{} rolled", d);
                }
                Ok(_) => prop_assert_eq!(who, side),
            }
            if let Some((s, def)) = f.default_decision() {
                f.decide(s, def, &mut dice).unwrap();
            }
        }
    }
}
