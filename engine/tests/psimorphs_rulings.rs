//! One test per rule and ruling of `rulesets/psimorphs.md` (PM1-PM30), each named, with
//! scripted dice. Ann and Bo are the worked example's morphs (see `psimorphs_common`).

mod psimorphs_common;
use herald_engine::dice::ScriptedDice;
use herald_engine::game::{Fight, Side};
use herald_engine::psimorphs::check::{rerolls, roll};
use herald_engine::psimorphs::{
    gm_check, gm_keep, gm_redo, Attribute, CheckSpec, Decision, Entrant, Event, GmError, Group,
    MorphSheet, MorphState, NewMorph, RuleError, Tables,
};
use psimorphs_common::*;
use serde_json::Value;

/// An NPC robot: attributes in sheet order, ranks `G:N,...`, and the NPC options.
fn robot(attrs: [u32; 6], ranks: &str, level: u32, hp: u32, quickness: bool) -> MorphSheet {
    NewMorph {
        attributes: attrs.map(Some),
        ranks: Some(herald_engine::psimorphs::parse_pairs(ranks).expect("ranks")),
        level: Some(level),
        hp: Some(hp),
        quickness,
        ..NewMorph::default()
    }
    .create(true, &Tables::default().budget)
    .expect("a legal NPC")
}

fn ann_e() -> Entrant {
    entrant("Ann", Some("ann"), ann())
}

fn bo_e() -> Entrant {
    entrant("Bo", Some("bo"), bo())
}

fn with_hp(mut e: Entrant, hp: i32) -> Entrant {
    e.state.hp = hp;
    e
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

fn spec(
    group: Group,
    attribute_value: u8,
    level: u8,
    ranks: u8,
    master: u8,
    isp: u16,
) -> CheckSpec {
    CheckSpec {
        group,
        attribute: Attribute::Intelligence,
        attribute_value,
        level,
        ranks,
        master,
        isp,
    }
}

const PASS: Decision = Decision::Pass;
const KEEP: Decision = Decision::Keep;
const REDO: Decision = Decision::Redo;

// PM1: 2d10 + level + ranks + half the attribute (round up), success at or above the
// difficulty. The seed's Joe: level 2, Negotiating 4 (1 master), intelligence 6; 2 and 9, the 9
// rerolls a 9: 20 + 9 = 29 >= 25.
#[test]
fn pm1_a_check_is_2d10_level_ranks_and_half_the_attribute() {
    let joe = NewMorph {
        attributes: [None, None, None, Some(6), None, None],
        ranks: Some(vec![(Group::Negotiating, 4)]),
        master: Some(vec![(Group::Negotiating, 1)]),
        level: Some(2),
        ..NewMorph::default()
    }
    .create(true, &Tables::default().budget)
    .unwrap();
    let state = MorphState::fresh(&joe, "2026-12-01");
    let tables = Tables::default();
    for (difficulty, success) in [(25, true), (29, true), (30, false)] {
        let mut events = Vec::new();
        let mut dice = ScriptedDice::new([2, 9, 9]);
        let o = gm_check(
            &joe,
            &state,
            Group::Negotiating,
            Attribute::Intelligence,
            difficulty,
            0,
            &tables,
            "2026-12-01T10:02:00Z",
            &mut dice,
            &mut events,
        )
        .unwrap();
        assert_eq!(o.rolled.dice_total, 20);
        assert_eq!(o.rolled.spec.modifier(), 9, "2 + 4 + 3");
        assert_eq!(o.rolled.total, 29);
        assert_eq!(o.success, success, "difficulty {difficulty}");
    }
    // Half rounds up: 5 gives 3, 4 gives 2.
    assert_eq!(spec(Group::Combat, 5, 1, 0, 0, 0).half(), 3);
    assert_eq!(spec(Group::Combat, 4, 1, 0, 0, 0).half(), 2);
}

// PM2: die 1, die 2, then die 1's chain, then die 2's; an attack rolls nothing until the
// defender's choice, and then the attacker's check first.
#[test]
fn pm2_the_dice_order() {
    let tables = Tables::default();
    let mut dice = ScriptedDice::new([9, 10, 4, 10, 2]);
    let r = roll(spec(Group::Combat, 4, 1, 3, 1, 0), &tables, 1, &mut dice);
    assert_eq!(r.dice[0].faces(), [9, 4]);
    assert_eq!(r.dice[1].faces(), [10, 10, 2]);
    assert_eq!(dice.remaining(), 0);
    let mut h = Harness::example();
    h.ok(A, attack(0), &[]);
    let new = h.ok(B, defend(Group::Physical, 0), &[7, 1, 2, 2]);
    let checks: Vec<&Value> = new.iter().filter(|e| e["type"] == "check").collect();
    assert_eq!(checks[0]["name"], "Ann");
    assert_eq!(checks[0]["dice"], serde_json::json!([[7], [1]]));
    assert_eq!(checks[1]["name"], "Bo");
    assert_eq!(checks[1]["dice"], serde_json::json!([[2], [2]]));
}

// PM3: a face at chain step k rerolls at min(10, T + k), T = 10 - master - bonus ISPs / 5;
// two master ranks give 8, 9, 10, then a 10 always rerolls; each die chains on its own.
#[test]
fn pm3_rerolls_climb_with_the_chain() {
    assert!(rerolls(8, 8, 0, 20));
    assert!(!rerolls(8, 8, 1, 20));
    assert!(rerolls(9, 8, 1, 20));
    assert!(!rerolls(9, 8, 2, 20));
    assert!(rerolls(10, 8, 2, 20));
    assert!(rerolls(10, 8, 9, 20));
    let tables = Tables::default();
    let mut dice = ScriptedDice::new([8, 1, 9, 10, 10, 3]);
    let r = roll(spec(Group::Combat, 4, 1, 2, 2, 0), &tables, 1, &mut dice);
    assert_eq!(r.threshold, 8);
    assert_eq!(r.dice[0].faces(), [8, 9, 10, 10, 3]);
    assert_eq!(r.dice[1].faces(), [1]);
    assert_eq!(spec(Group::Combat, 4, 1, 2, 0, 4).threshold(&tables), 10);
    assert_eq!(spec(Group::Combat, 4, 1, 2, 0, 5).threshold(&tables), 9);
    assert_eq!(spec(Group::Combat, 4, 1, 2, 1, 10).threshold(&tables), 7);
}

// PM4: T is at least 2 (a 1 never rerolls) and one die rolls at most 20 times.
#[test]
fn pm4_the_floor_and_the_cap() {
    let tables = Tables::default();
    assert_eq!(spec(Group::Combat, 4, 1, 20, 20, 100).threshold(&tables), 2);
    assert!(!rerolls(1, 2, 0, 20));
    assert!(rerolls(2, 2, 0, 20));
    let mut dice = ScriptedDice::new(vec![10; 40]);
    let r = roll(spec(Group::Combat, 4, 1, 0, 0, 0), &tables, 1, &mut dice);
    assert_eq!((r.dice[0].faces().len(), r.dice[1].faces().len()), (20, 20));
    assert_eq!(r.dice_total, 400);
    assert_eq!(dice.remaining(), 0);
}

// PM5: the challenger acts first between players; against an NPC the player acts first,
// whoever challenged.
#[test]
fn pm5_the_order_of_turns() {
    let h = Harness::example();
    assert_eq!(h.fight.order(), [A, B]);
    let drone = robot([4, 4, 4, 3, 3, 3], "combat:3", 1, 20, false);
    let h = Harness::new(
        entrant("Drone", None, drone.clone()),
        ann_e(),
        Tables::default(),
    );
    assert_eq!(h.fight.order(), [B, A]);
    assert_eq!(h.of("turn")[0]["name"], "Ann");
    let h = Harness::new(ann_e(), entrant("Drone", None, drone), Tables::default());
    assert_eq!(h.fight.order(), [A, B]);
}

// PM6: a tie against an NPC goes to the player, attacking and defending.
#[test]
fn pm6_a_tie_against_an_npc_goes_to_the_player() {
    let drone = robot([4, 4, 4, 3, 3, 3], "combat:3", 1, 20, false);
    let mut h = Harness::new(ann_e(), entrant("Drone", None, drone), Tables::default());
    h.ok(A, attack(0), &[]);
    // Ann 3+3+6 = 12, Drone 2+4+6 = 12.
    let new = h.ok(B, defend(Group::Combat, 0), &[3, 3, 2, 4]);
    let opposed = new.iter().find(|e| e["type"] == "opposed").unwrap();
    assert_eq!(opposed["tie"], true);
    assert_eq!(opposed["tie_rule"], "player_vs_npc");
    assert_eq!(opposed["winner"], "Ann");
    assert!(new.iter().any(|e| e["type"] == "hit"));
    h.ok(B, attack(0), &[]);
    // Drone 3+3+6 = 12 attacking, Ann 2+4+6 = 12 defending: the player again.
    let new = h.ok(A, defend(Group::Combat, 0), &[3, 3, 2, 4]);
    let opposed = new.iter().find(|e| e["type"] == "opposed").unwrap();
    assert_eq!(opposed["winner"], "Ann");
    assert!(new.iter().any(|e| e["type"] == "miss"));
}

// PM7: between players a tie has no winner: a tied attack misses (the example), a tied
// resistance fails, and the side it goes against may redo.
#[test]
fn pm7_a_tie_between_players_has_no_winner() {
    let mut h = Harness::example();
    // Ann's Energy Blast I: 5+5+6 = 16 vs 14.
    h.ok(A, force("eb1", 0), &[5, 5]);
    // Bo resists 5+6+5 = 16: a tie, the resistance fails; against Bo, who may redo.
    let new = h.ok(B, resist(Group::Energy, 0), &[5, 6]);
    let opposed = new.iter().find(|e| e["type"] == "opposed").unwrap();
    assert_eq!(opposed["winner"], Value::Null);
    assert_eq!(opposed["tie_rule"], "players");
    assert_eq!(opposed["against"], "Bo");
    assert_eq!(h.fight.awaited(), Some((B, "redo or keep")));
    let new = h.ok(B, KEEP, &[]);
    assert!(new
        .iter()
        .any(|e| e["type"] == "force_damage" && e["damage"] == 6));
}

// PM8: at 0 hp a morph is unconscious and loses; one that starts unconscious loses at once.
#[test]
fn pm8_zero_hp_is_unconscious_and_loses() {
    let mut h = Harness::new(ann_e(), with_hp(bo_e(), 10), Tables::default());
    h.ok(A, attack(0), &[]);
    // Ann 5+5+6 = 16 vs Bo 5+4+6 = 15: 10 damage, Bo at 0.
    h.ok(B, defend(Group::Physical, 0), &[5, 5, 5, 4]);
    h.ok(B, KEEP, &[]);
    assert_eq!(h.fight.hp(B), 0);
    assert!(h.has("unconscious"));
    let o = h.fight.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(A), "unconscious"));
    let h = Harness::new(ann_e(), with_hp(bo_e(), -3), Tables::default());
    let o = h.fight.outcome().expect("over at once");
    assert_eq!((o.winner, o.rounds), (Some(A), 0));
}

// PM9: between players hp stops at -max (unconscious, alive); against an NPC below -max hp is
// death, both ways, and the dead stay dead.
#[test]
fn pm9_death_only_against_npcs() {
    let strong = morph(
        [6, 4, 3, 3, 3, 2],
        "combat:3,physical:1,energy:3,atom:1",
        "combat:1",
        None,
        false,
    );
    let mut h = Harness::new(
        entrant("Ann", Some("ann"), strong),
        with_hp(bo_e(), 1),
        Tables::default(),
    );
    h.ok(A, attack(0), &[]);
    // Ann 8+8+6 = 22 >= 2 x (1+1+6): (6 + 5) x 2 = 22 on 1 hp: -21, stopped at -20.
    h.ok(B, defend(Group::Physical, 0), &[8, 8, 1, 1]);
    h.ok(B, KEEP, &[]);
    assert_eq!(h.fight.hp(B), -20);
    assert!(!h.has("died"));
    assert!(!h.fight.carry()[1].dead);
    // Robo kills Ann: 9+9+9 = 27 vs 1+1+6 = 8, (20 + 5) x 2 = 50: -30 < -20.
    let robo = robot([20, 5, 4, 3, 3, 3], "combat:4", 2, 30, false);
    let mut h = Harness::new(ann_e(), entrant("Robo", None, robo), Tables::default());
    h.ok(A, PASS, &[]);
    h.ok(B, attack(0), &[]);
    h.ok(A, defend(Group::Combat, 0), &[9, 9, 1, 1]);
    h.ok(A, KEEP, &[]);
    assert_eq!(h.fight.hp(A), -30);
    assert!(h.has("died"));
    assert_eq!(h.fight.outcome().unwrap().reason, "died");
    let [ann_after, _] = h.fight.carry();
    assert!(ann_after.dead);
    assert_eq!(
        ann_after.as_of(&ann(), "2026-12-09").hp,
        -30,
        "the dead never recover"
    );
    // And Ann kills a robot of 1 hp: 8+8+6 = 22 vs 1+1+6 = 8, (5 + 5) x 2 = 20: -19 < -1.
    let weak = robot([4, 4, 4, 3, 3, 3], "combat:3", 1, 1, false);
    let mut h = Harness::new(ann_e(), entrant("Weak", None, weak), Tables::default());
    h.ok(A, attack(0), &[]);
    h.ok(B, defend(Group::Combat, 0), &[8, 8, 1, 1]);
    assert!(h.has("died"));
    assert!(h.fight.carry()[1].dead);
}

// PM10: an NPC's Lightning Quickness takes a player's first turn, except with Lightning
// Reflexes; the player still defends.
#[test]
fn pm10_lightning_quickness_and_reflexes() {
    let quick = robot([4, 4, 4, 3, 3, 3], "combat:3", 1, 20, true);
    let mut h = Harness::new(
        ann_e(),
        entrant("Quick", None, quick.clone()),
        Tables::default(),
    );
    let skipped = h.of("turn_skipped");
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["name"], "Ann");
    assert_eq!(skipped[0]["reason"], "lightning_quickness");
    assert_eq!(h.fight.awaited(), Some((B, "turn")));
    h.ok(B, attack(0), &[]);
    assert_eq!(h.fight.awaited(), Some((A, "defence")));
    let nimble = NewMorph {
        reflexes: true,
        master: Some(vec![]),
        ..NewMorph::default()
    }
    .create(false, &Tables::default().budget)
    .unwrap();
    let h = Harness::new(
        entrant("Nim", Some("nim"), nimble),
        entrant("Quick", None, quick),
        Tables::default(),
    );
    assert!(!h.has("turn_skipped"));
    assert_eq!(h.fight.awaited(), Some((A, "turn")));
}

// PM11: /yield at one's own decision loses; at another's it is refused and changes nothing.
#[test]
fn pm11_yield_at_ones_own_decision() {
    let mut h = Harness::example();
    h.ok(A, attack(0), &[]);
    let before = format!("{:?}", h.fight);
    assert!(matches!(
        h.go(A, Decision::Yield, &[]),
        Err(RuleError::NotYourTurn { awaited: B, .. })
    ));
    assert_eq!(format!("{:?}", h.fight), before);
    h.ok(B, Decision::Yield, &[]);
    let o = h.fight.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(A), "yield"));
}

// PM12: after the round limit the fight is a draw.
#[test]
fn pm12_the_round_limit_is_a_draw() {
    let tables = Tables {
        round_limit: 2,
        ..Tables::default()
    };
    let mut h = Harness::new(ann_e(), bo_e(), tables);
    for side in [A, B, A, B] {
        h.ok(side, PASS, &[]);
    }
    let o = h.fight.outcome().unwrap();
    assert_eq!((o.winner, o.reason, o.rounds), (None, "round_limit", 2));
    assert_eq!(h.of("fight_ended")[0]["draw"], true);
}

// PM13: bonus ISPs of the check's type first, then General, +1 each, every full 5 lowers T;
// more than one holds is refused; a yield before the roll spends nothing.
#[test]
fn pm13_bonus_isps() {
    let mut h = Harness::example();
    assert!(matches!(
        h.go(A, attack(7), &[]),
        Err(RuleError::NotEnoughIsp {
            have: 6,
            asked: 7,
            ..
        })
    ));
    h.ok(A, attack(6), &[]);
    let new = h.ok(B, defend(Group::Physical, 0), &[1, 1, 1, 1]);
    let spent = new.iter().find(|e| e["type"] == "isp_spent").unwrap();
    assert_eq!(
        spent["taken"],
        serde_json::json!({"combat": 4, "general": 2})
    );
    let check = new.iter().find(|e| e["type"] == "check").unwrap();
    assert_eq!(check["isp"], 6);
    assert_eq!(check["threshold"], 8, "10 - 1 master - 6/5");
    assert_eq!(check["total"], 2 + 1 + 3 + 2 + 6);
    let mut h = Harness::example();
    h.ok(A, attack(5), &[]);
    h.ok(B, Decision::Yield, &[]);
    assert_eq!(
        h.fight.carry()[0].isp.total(),
        6,
        "nothing spent before the roll"
    );
}

// PM14: a redo costs 3 ISPs (own type, then General), rolls the same check again with the
// same T, replaces the result even when lower, and is offered again while ISPs last.
#[test]
fn pm14_redo_replaces_and_is_offered_again() {
    let mut h = Harness::example();
    h.ok(A, PASS, &[]);
    h.ok(B, attack(0), &[]);
    // Bo 5+5+5 = 15 vs Ann 3+3+6 = 12: against Ann.
    h.ok(A, defend(Group::Combat, 0), &[5, 5, 3, 3]);
    assert_eq!(h.fight.awaited(), Some((A, "redo or keep")));
    // Lower, 2+2+6 = 10, and it stands; combat 1 + general 2 pay again.
    let new = h.ok(A, REDO, &[2, 2]);
    let spent = new.iter().find(|e| e["type"] == "isp_spent").unwrap();
    assert_eq!(spent["taken"], serde_json::json!({"combat": 3}));
    let check = new.iter().find(|e| e["type"] == "check").unwrap();
    assert_eq!(
        (check["total"].as_i64(), check["attempt"].as_i64()),
        (Some(10), Some(2))
    );
    assert_eq!(check["threshold"], 9);
    assert_eq!(h.fight.awaited(), Some((A, "redo or keep")));
    let new = h.ok(A, REDO, &[5, 5]);
    let spent = new.iter().find(|e| e["type"] == "isp_spent").unwrap();
    assert_eq!(
        spent["taken"],
        serde_json::json!({"combat": 1, "general": 2})
    );
    let check = new.iter().find(|e| e["type"] == "check").unwrap();
    assert_eq!(
        (check["total"].as_i64(), check["attempt"].as_i64()),
        (Some(16), Some(3))
    );
    // Now against Bo, who holds 3 General for a Combat check.
    assert_eq!(h.fight.awaited(), Some((B, "redo or keep")));
    let new = h.ok(B, KEEP, &[]);
    assert_eq!(types(&new)[..2], ["kept", "miss"]);
    assert!(h.fight.isp(A).is_empty());
}

// PM15: the default policy: /attack; defend with the group of more ranks (Combat on a tie, an
// NPC Combat); resist with the better ranks + half attribute (the force's group on a tie);
// /keep.
#[test]
fn pm15_the_default_policy() {
    let mut h = Harness::example();
    assert_eq!(h.fight.default_decision(), Some((A, attack(0))));
    h.ok(A, attack(0), &[]);
    assert_eq!(
        h.fight.default_decision(),
        Some((B, defend(Group::Physical, 0)))
    );
    h.ok(B, defend(Group::Physical, 0), &[1, 1, 9, 9]);
    assert_eq!(h.fight.default_decision(), Some((A, KEEP)));
    h.ok(A, KEEP, &[]);
    h.ok(B, attack(0), &[]);
    assert_eq!(
        h.fight.default_decision(),
        Some((A, defend(Group::Combat, 0)))
    );
    h.ok(A, defend(Group::Combat, 0), &[1, 1, 8, 8]);
    h.ok(B, KEEP, &[]);
    // Round 2: Ann's Energy Blast; Bo's energy 2 + 2 beats mental 1 + 2.
    h.ok(A, force("eb1", 0), &[8, 8]);
    assert_eq!(
        h.fight.default_decision(),
        Some((B, resist(Group::Energy, 0)))
    );
    let drone = robot([4, 4, 4, 3, 3, 3], "combat:1,physical:5", 1, 20, false);
    let mut h = Harness::new(ann_e(), entrant("Drone", None, drone), Tables::default());
    h.ok(A, attack(0), &[]);
    assert_eq!(
        h.fight.default_decision(),
        Some((B, defend(Group::Combat, 0)))
    );
}

// PM16: the house budget: the defaults spend it all; a refused sheet names its rule.
#[test]
fn pm16_creation_on_the_house_budget() {
    let budget = Tables::default().budget;
    let s = NewMorph::default().create(false, &budget).unwrap();
    assert_eq!(
        s.attributes
            .to_array()
            .iter()
            .map(|&n| u32::from(n))
            .sum::<u32>(),
        21
    );
    assert_eq!(s.ranks.sum(), 8);
    assert_eq!((s.level, s.max_hp, s.pa_fp + s.pe_fp), (1, 20, 10));
    assert_eq!(
        (s.isp.combat, s.isp.general),
        (4, 2),
        "4 + 2 x 2 = 8 points"
    );
    let refused = |n: NewMorph| n.create(false, &budget).unwrap_err().to_string();
    assert_eq!(
        refused(NewMorph {
            attributes: [Some(5), None, None, None, None, None],
            ..NewMorph::default()
        }),
        "PM16: attributes add up to 22, more than 21"
    );
    assert!(refused(NewMorph {
        isp: Some(vec![(herald_engine::psimorphs::IspType::General, 5)]),
        ..NewMorph::default()
    })
    .starts_with("PM16: ISPs cost 10 points"));
    assert!(refused(NewMorph {
        level: Some(2),
        ..NewMorph::default()
    })
    .starts_with("PM16: a player's morph is level 1"));
    assert!(refused(NewMorph {
        master: Some(vec![(Group::Combat, 1), (Group::Energy, 1)]),
        ..NewMorph::default()
    })
    .starts_with("PM16: 2 master ranks are 2 edges, more than 1"));
}

// PM17: NPCs by moderators: bounds, no budget, no ISPs unless given, no Reflexes.
#[test]
fn pm17_npc_bounds() {
    let budget = Tables::default().budget;
    let npc = |n: NewMorph| n.create(true, &budget);
    let big = npc(NewMorph {
        attributes: [Some(20); 6],
        level: Some(20),
        hp: Some(500),
        quickness: true,
        ..NewMorph::default()
    })
    .unwrap();
    assert!(big.isp.is_empty());
    assert!(big.quickness);
    for (n, want) in [
        (
            NewMorph {
                level: Some(21),
                ..NewMorph::default()
            },
            "PM17: level 21 is outside 1-20",
        ),
        (
            NewMorph {
                hp: Some(0),
                ..NewMorph::default()
            },
            "PM17: 0 hp is outside 1-500",
        ),
        (
            NewMorph {
                attributes: [Some(21), None, None, None, None, None],
                ..NewMorph::default()
            },
            "PM17: strength 21 is outside 0-20",
        ),
        (
            NewMorph {
                reflexes: true,
                ..NewMorph::default()
            },
            "PM17: Lightning Reflexes is a player's discipline",
        ),
    ] {
        assert!(npc(n).unwrap_err().to_string().starts_with(want), "{want}");
    }
}

// PM18: a force's FP go at the declaration, success or not; refused without the FP; success
// at the difficulty.
#[test]
fn pm18_using_a_force() {
    let mut h = Harness::example();
    // 1+1+6 = 8 < 14; Ann's 2 General cannot pay a redo.
    let new = h.ok(A, force("eb1", 0), &[1, 1]);
    assert_eq!(
        types(&new)[..3],
        ["force_declared", "check", "force_failed"]
    );
    assert_eq!(h.fight.fp(A), (5, 3));
    let mut poor = ann_e();
    poor.state.pe_fp = 1;
    let mut h = Harness::new(poor, bo_e(), Tables::default());
    let before = format!("{:?}", h.fight);
    assert!(matches!(
        h.go(A, force("eb1", 0), &[]),
        Err(RuleError::NoFp {
            need: 2,
            have: 1,
            ..
        })
    ));
    assert_eq!(format!("{:?}", h.fight), before);
    let mut h = Harness::example();
    // 4+4+6 = 14: exactly the difficulty succeeds.
    h.ok(A, force("eb1", 0), &[4, 4]);
    assert_eq!(h.fight.awaited(), Some((B, "resistance")));
}

// PM19: the catalogue: a force by id or name in any case, spaces optional; Healing Surge up to
// the maximum.
#[test]
fn pm19_the_force_catalogue() {
    let t = Tables::default();
    for text in ["eb1", "EB1", "Energy Blast I", "energyblasti"] {
        assert_eq!(t.find(text), Some(fid("eb1")), "{text}");
    }
    assert_eq!(t.find("Energy Blast III"), None);
    assert_eq!(t.forces.len(), 6);
    let mut h = Harness::new(with_hp(ann_e(), 17), bo_e(), Tables::default());
    // Psi Atom 1 + 1 + 2 = 4, +5+5 = 14 vs 14.
    let new = h.ok(A, force("hs1", 0), &[5, 5]);
    let healed = new.iter().find(|e| e["type"] == "healed").unwrap();
    assert_eq!(
        (healed["amount"].as_i64(), healed["hp_after"].as_i64()),
        (Some(3), Some(20))
    );
}

// PM20: a used force (failed too) waits for 3 rounds in a row without a force; then every used
// force is back; a refused command is no use.
#[test]
fn pm20_cooldown() {
    let mut h = Harness::example();
    h.ok(A, force("eb1", 0), &[1, 1]);
    h.ok(B, PASS, &[]);
    for quiet in 0..3u8 {
        let before = format!("{:?}", h.fight);
        match h.go(A, force("eb1", 0), &[]) {
            Err(RuleError::Cooldown {
                round: 1,
                quiet: q,
                needed: 3,
                ..
            }) => assert_eq!(q, quiet),
            other => panic!("{other:?}"),
        }
        assert_eq!(format!("{:?}", h.fight), before);
        h.ok(A, PASS, &[]);
        h.ok(B, PASS, &[]);
    }
    let back = h.of("forces_available");
    assert_eq!(back.len(), 1);
    assert_eq!(
        (back[0]["name"].as_str(), back[0]["round"].as_i64()),
        (Some("Ann"), Some(4))
    );
    assert_eq!(back[0]["forces"], serde_json::json!(["eb1"]));
    assert!(h.fight.options().contains(&force("eb1", 0)));
}

// PM21: a `self` force has no resistance; an `enemy` force is resisted with its group or Misc
// Mental (an NPC its group only); the resister who wins stops it.
#[test]
fn pm21_unwilling_targets_resist() {
    let mut h = Harness::example();
    // Atom Strength I: 6+4+4 = 14 vs 12, on herself: maintained at once.
    let new = h.ok(A, force("as1", 0), &[6, 4]);
    assert!(new.iter().any(|e| e["type"] == "maintained"));
    assert!(!new.iter().any(|e| e["type"] == "resist_chosen"));
    h.ok(B, force("eb1", 0), &[8, 8]);
    assert!(matches!(
        h.go(A, resist(Group::Atom, 0), &[]),
        Err(RuleError::WrongGroup { rule: "PM21", .. })
    ));
    // Ann's Misc Mental 1 + 1 + 2 + 9+8 = 21 against Bo's 8+8 + 5 = 21: a tie between
    // players, so the resistance fails (PM7).
    let new = h.ok(A, resist(Group::Mental, 0), &[9, 8]);
    assert!(new.iter().any(|e| e["type"] == "force_damage"), "{new:?}");
    let drone = robot([4, 4, 4, 3, 3, 3], "combat:3,energy:1", 1, 20, false);
    let mut h = Harness::new(ann_e(), entrant("Drone", None, drone), Tables::default());
    h.ok(A, force("eb1", 0), &[8, 8]);
    assert!(matches!(
        h.go(B, resist(Group::Mental, 0), &[]),
        Err(RuleError::NpcGroup {
            rule: "PM21",
            allowed: "energy"
        })
    ));
    // Drone's Psi Energy 1 + 1 + 2 = 4 + 10,10,3 + 9 = 36 beats 22.
    let new = h.ok(B, resist(Group::Energy, 0), &[10, 9, 10, 3]);
    assert!(new.iter().any(|e| e["type"] == "force_resisted"));
}

// PM22: the maintenance limit ⌈(int + will + ranks) / 5⌉; /drop is free; /breakfree from
// round r + 10 (here a house 2).
#[test]
fn pm22_maintaining_dropping_and_breaking_free() {
    let dim = morph([6, 6, 4, 1, 1, 3], "combat:3,atom:1", "", None, false);
    let mut h = Harness::new(entrant("Dim", Some("dim"), dim), bo_e(), Tables::default());
    assert_eq!(h.fight.limit(A, herald_engine::psimorphs::ForceType::Pa), 1);
    // Psi Atom 1 + 1 + 1 = 3, +5+5 = 13 vs 12.
    h.ok(A, force("as1", 0), &[5, 5]);
    h.ok(B, PASS, &[]);
    assert!(matches!(
        h.go(A, force("ll1", 0), &[]),
        Err(RuleError::MaintainLimit { count: 1, .. })
    ));
    let new = h.ok(A, Decision::Drop { force: fid("as1") }, &[]);
    assert_eq!(new[0]["reason"], "dropped");
    assert_eq!(h.fight.awaited(), Some((A, "turn")), "/drop is free");
    assert!(h.fight.options().contains(&force("ll1", 0)));

    let tables = Tables {
        breakfree_rounds: 2,
        ..Tables::default()
    };
    let mut h = Harness::new(ann_e(), bo_e(), tables);
    // Leaden Limbs I: 6+6+4 = 16 vs 16; Bo's Misc Mental 1+1+4 = 6.
    h.ok(A, force("ll1", 0), &[6, 6]);
    h.ok(B, resist(Group::Mental, 0), &[1, 1]);
    h.ok(B, KEEP, &[]);
    assert_eq!(h.fight.effective(B, Attribute::Agility), 0);
    let breakfree = Decision::BreakFree { force: fid("ll1") };
    for _ in 0..2 {
        match h.go(B, breakfree, &[]) {
            Err(RuleError::CannotBreakFree(why)) => {
                assert!(
                    why.contains("round 1; you may break free from round 3"),
                    "{why}"
                )
            }
            other => panic!("{other:?}"),
        }
        h.ok(B, PASS, &[]);
        h.ok(A, PASS, &[]);
    }
    let new = h.ok(B, breakfree, &[]);
    assert_eq!(new[0]["reason"], "broke_free");
    assert_eq!(h.fight.effective(B, Attribute::Agility), 4);
    assert_eq!(h.fight.awaited(), Some((B, "turn")));
}

// PM23: per attribute the best bonus and the worst penalty apply, never below 0; one force
// is never maintained twice on one target.
#[test]
fn pm23_no_stacking() {
    let tables = Tables {
        quiet_rounds: 0,
        ..Tables::default()
    };
    let mut h = Harness::new(ann_e(), bo_e(), tables);
    h.ok(A, force("as1", 0), &[6, 6]);
    h.ok(B, PASS, &[]);
    // Kinetic Charge I: 5+5+6 = 16 vs 16; strength 5 + 3, not + 5.
    let new = h.ok(A, force("kc1", 0), &[5, 5]);
    let m = new.iter().find(|e| e["type"] == "maintained").unwrap();
    assert_eq!(m["same_type"], serde_json::json!(["as1"]));
    assert_eq!(h.fight.effective(A, Attribute::Strength), 8);
    h.ok(B, PASS, &[]);
    assert!(matches!(
        h.go(A, force("as1", 0), &[]),
        Err(RuleError::AlreadyOn { .. })
    ));
    // Bo's Leaden Limbs on Ann: 3 + 7+6 = 16; Ann's Psi Atom 1 + 1 + 4 = 6: agility 3 - 4 is 0.
    h.ok(A, PASS, &[]);
    h.ok(B, force("ll1", 0), &[7, 6]);
    h.ok(A, resist(Group::Atom, 0), &[1, 1]);
    assert_eq!(h.fight.effective(A, Attribute::Agility), 0);
}

// PM24: at 0 hp a morph's maintained forces end first (`force_ended`, `unconscious`), then
// the fight.
#[test]
fn pm24_forces_end_at_unconsciousness() {
    let mut h = Harness::new(with_hp(ann_e(), 1), bo_e(), Tables::default());
    h.ok(A, force("as1", 0), &[6, 6]);
    h.ok(B, attack(0), &[]);
    // Bo 5+5+5 = 15 vs Ann 1+1+6 = 8: 3 + 5 = 8 damage.
    h.ok(A, defend(Group::Combat, 0), &[5, 5, 1, 1]);
    let new = h.ok(A, KEEP, &[]);
    let t = types(&new);
    let at = t.iter().position(|x| *x == "force_ended").unwrap();
    assert_eq!(t[at..], ["force_ended", "unconscious", "fight_ended"]);
    assert_eq!(new[at]["reason"], "unconscious");
}

// PM25: one action a turn; damage is effective strength + 5, doubled at twice the defender's
// total (>=); force damage is never doubled.
#[test]
fn pm25_turn_attack_and_damage() {
    for (bo_dice, critical, damage) in [([3, 2], true, 20), ([3, 3], false, 10)] {
        let mut h = Harness::example();
        h.ok(A, attack(0), &[]);
        // Ann 8+8+6 = 22 against 11 (critical) or 12.
        h.ok(
            B,
            defend(Group::Physical, 0),
            &[8, 8, bo_dice[0], bo_dice[1]],
        );
        let new = h.ok(B, KEEP, &[]);
        let hit = new.iter().find(|e| e["type"] == "hit").unwrap();
        assert_eq!(hit["critical"], critical);
        assert_eq!(hit["damage"], damage);
        if critical {
            assert!(h.has("unconscious"), "20 damage on 20 hp");
        } else {
            assert_eq!(
                h.fight.awaited(),
                Some((B, "turn")),
                "one action, then Bo's turn"
            );
            assert!(matches!(
                h.go(A, attack(0), &[]),
                Err(RuleError::NotYourTurn { .. })
            ));
        }
    }
    let mut h = Harness::example();
    h.ok(A, force("eb1", 0), &[8, 8]);
    let new = h.ok(B, resist(Group::Energy, 0), &[1, 1]);
    let done = if new.iter().any(|e| e["type"] == "force_damage") {
        new
    } else {
        h.ok(B, KEEP, &[])
    };
    let dmg = done.iter().find(|e| e["type"] == "force_damage").unwrap();
    assert_eq!(dmg["damage"], 6, "22 vs 7 is no critical for a force");
}

// PM26: a player may defend with Misc Physical + agility; an NPC defends with Combat.
#[test]
fn pm26_misc_physical_defence() {
    let mut h = Harness::example();
    h.ok(A, attack(0), &[]);
    assert!(matches!(
        h.go(B, defend(Group::Mental, 0), &[]),
        Err(RuleError::WrongGroup { rule: "PM26", .. })
    ));
    let new = h.ok(B, defend(Group::Physical, 0), &[1, 1, 1, 1]);
    let d = new.iter().filter(|e| e["type"] == "check").nth(1).unwrap();
    assert_eq!(
        (d["group"].as_str(), d["attribute"].as_str()),
        (Some("physical"), Some("agility"))
    );
    let drone = robot([4, 4, 4, 3, 3, 3], "combat:1,physical:5", 1, 20, false);
    let mut h = Harness::new(ann_e(), entrant("Drone", None, drone), Tables::default());
    h.ok(A, attack(0), &[]);
    assert!(matches!(
        h.go(B, defend(Group::Physical, 0), &[]),
        Err(RuleError::NpcGroup {
            rule: "PM26",
            allowed: "combat"
        })
    ));
}

// PM27: the GM's check: refused unconscious or dead and outside 1-200; a failure that can pay
// is offered a redo; /keep stands; no hp or FP change.
#[test]
fn pm27_the_gms_check() {
    let sheet = ann();
    let tables = Tables::default();
    let fresh = MorphState::fresh(&sheet, "2026-12-01");
    let check = |state: &MorphState, difficulty: i64, dice: &[u32]| {
        let mut d = ScriptedDice::new(dice.to_vec());
        let mut events: Vec<Event> = Vec::new();
        gm_check(
            &sheet,
            state,
            Group::Combat,
            Attribute::Strength,
            difficulty,
            0,
            &tables,
            "2026-12-01T10:02:00Z",
            &mut d,
            &mut events,
        )
    };
    let mut down = fresh.clone();
    down.hp = 0;
    assert!(matches!(
        check(&down, 10, &[5, 5]),
        Err(GmError::CannotAct(_))
    ));
    let mut dead = fresh.clone();
    dead.dead = true;
    assert!(matches!(
        check(&dead, 10, &[5, 5]),
        Err(GmError::CannotAct(_))
    ));
    assert!(matches!(
        check(&fresh, 0, &[5, 5]),
        Err(GmError::Difficulty(0))
    ));
    assert!(matches!(
        check(&fresh, 201, &[5, 5]),
        Err(GmError::Difficulty(201))
    ));
    assert!(check(&fresh, 200, &[5, 5]).is_ok());
    // 2+3 + 1+3+3 = 12 vs 20: offered.
    let o = check(&fresh, 20, &[2, 3]).unwrap();
    assert!(o.offered && !o.success);
    let pending = o.state.check.clone().expect("pending");
    assert_eq!(
        (pending.total, pending.until.as_str()),
        (12, "2026-12-01T10:02:00Z")
    );
    let mut events = Vec::new();
    let mut d = ScriptedDice::new([8, 8]);
    let r = gm_redo(&o.state, &tables, "x", &mut d, &mut events).unwrap();
    assert_eq!((r.rolled.total, r.rolled.attempt, r.success), (23, 2, true));
    assert_eq!(r.state.isp.combat, 1);
    assert_eq!((r.state.hp, r.state.pa_fp, r.state.pe_fp), (20, 5, 5));
    let (kept, total) = gm_keep(&o.state, &mut events).unwrap();
    assert_eq!((kept.check.clone(), total), (None, 12));
    assert_eq!(
        gm_keep(&kept, &mut events).unwrap_err(),
        GmError::NothingPending
    );
}

// PM28: on a later realm day a living morph is full again and its day moves; the same day
// changes nothing; a fight from a recovered state says `recovered` first.
#[test]
fn pm28_recovery_by_realm_day() {
    let sheet = bo();
    let mut s = MorphState::fresh(&sheet, "2026-12-01");
    s.hp = -4;
    s.pe_fp = 3;
    s.isp = Default::default();
    assert_eq!(s.as_of(&sheet, "2026-12-01"), s);
    let next = s.as_of(&sheet, "2026-12-02");
    assert_eq!(
        (next.hp, next.pe_fp, next.isp.total(), next.day.as_str()),
        (20, 5, 5, "2026-12-02")
    );
    assert!(next.recovered);
    let mut e = bo_e();
    e.state = next;
    let h = Harness::new(ann_e(), e, Tables::default());
    assert_eq!(h.events[0]["type"], "recovered");
    assert_eq!(h.events[0]["name"], "Bo");
    assert_eq!(h.fight.carry()[1].day, "2026-12-02");
}

// PM29: each fight gives a win and a loss, or a draw to both.
#[test]
fn pm29_the_record() {
    let mut h = Harness::example();
    h.ok(A, Decision::Yield, &[]);
    let r = h.fight.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(Side::Challenged), "yield"));
    let ended = h.of("fight_ended")[0].clone();
    assert_eq!(
        (ended["winner"].as_str(), ended["loser"].as_str()),
        (Some("Bo"), Some("Ann"))
    );
}

// PM30: no called or careful attacks in a fight: an attack's check adds level, ranks, half the
// attribute and ISPs, nothing else.
#[test]
fn pm30_no_called_attacks() {
    let mut h = Harness::example();
    h.ok(A, attack(2), &[]);
    let new = h.ok(B, defend(Group::Physical, 0), &[1, 1, 9, 9]);
    let c = new.iter().find(|e| e["type"] == "check").unwrap();
    assert_eq!(c["modifier"], 1 + 3 + 2 + 2);
    assert_eq!(c["total"], 2 + 8);
    assert_eq!(c["difficulty"], Value::Null);
}
