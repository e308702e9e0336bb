//! The page's worked example (`rulesets/psimorphs.md`): Ann against Bo, three rounds, event for
//! event as the page lists them, with the refused second Energy Blast (PM20) and the final
//! states.

mod psimorphs_common;
use herald_engine::psimorphs::{Group, RuleError};
use psimorphs_common::*;

const EXPECTED: &str = "\
fight_started Ann v Bo, order Ann, Bo
round_started 1
turn Ann, round 1
attack_declared Ann -> Bo, isp 5
defense_chosen Bo physical, isp 0
isp_spent Ann bonus 5 (combat 4, general 1), left general 1
check Ann attack combat/dex [8,2][3]=13 +11 (1+3+2+5) = 24, thr 8, vs Bo 19: success
check Bo defense physical/agi [7][6]=13 +6 (1+3+2+0) = 19, thr 10, vs Ann 24: failure
opposed attack Ann 24, Bo 19: winner Ann, against Bo
isp_spent Bo redo 3 (general 3), left energy 2
check Bo defense physical/agi [10,2][6]=18 +6 (1+3+2+0) = 24, thr 10, vs Ann 24: failure (attempt 2)
opposed attack Ann 24, Bo 24: winner none (tie, players), against Ann
miss Ann -> Bo 24 v 24
turn Bo, round 1
force_declared Bo eb1 -> Ann, DC 14, 2 PE FP (3 left), isp 2
isp_spent Bo bonus 2 (energy 2), left none
check Bo force energy/int [5][4]=9 +7 (1+2+2+2) = 16, thr 10, vs 14: success
resist_chosen Ann energy, isp 0
check Ann resist energy/res [3][2]=5 +6 (1+3+2+0) = 11, thr 10, vs Bo 16: failure
opposed resist Bo 16, Ann 11: winner Bo, against Ann
force_damage Bo eb1 -> Ann 6, hp 20 -> 14
round_started 2
turn Ann, round 2
force_declared Ann as1 -> Ann, DC 12, 2 PA FP (3 left), isp 0
check Ann force atom/int [6][4]=10 +4 (1+1+2+0) = 14, thr 10, vs 12: success
maintained Ann as1 on Ann strength 2: strength 7, 1 of 2 PA
turn Bo, round 2
attack_declared Bo -> Ann, isp 0
defense_chosen Ann combat, isp 0
check Bo attack combat/dex [9][2]=11 +5 (1+2+2+0) = 16, thr 10, vs Ann 21: failure
check Ann defense combat/agi [9,5][1]=15 +6 (1+3+2+0) = 21, thr 9, vs Bo 16: success
opposed attack Bo 16, Ann 21: winner Ann, against Bo
miss Bo -> Ann 16 v 21
round_started 3
turn Ann, round 3
attack_declared Ann -> Bo, isp 0
defense_chosen Bo physical, isp 0
check Ann attack combat/dex [10,7][9,2]=28 +6 (1+3+2+0) = 34, thr 9, vs Bo 15: success
check Bo defense physical/agi [6][3]=9 +6 (1+3+2+0) = 15, thr 10, vs Ann 34: failure
opposed attack Ann 34, Bo 15: winner Ann, against Bo
hit Ann -> Bo 34 v 15, strength 7, critical, damage 24, hp 20 -> -4
unconscious Bo, hp -4 of 20
force_ended as1 by Ann on Ann, fight_over: strength 5
fight_ended winner Ann, loser Bo, unconscious, round 3";

#[test]
fn the_worked_example_event_for_event() {
    let mut h = Harness::example();
    h.ok(A, attack(5), &[]);
    h.ok(B, defend(Group::Physical, 0), &[8, 3, 2, 7, 6]);
    h.ok(B, herald_engine::psimorphs::Decision::Redo, &[10, 6, 2]);
    h.ok(B, force("eb1", 2), &[5, 4]);
    h.ok(A, resist(Group::Energy, 0), &[3, 2]);
    h.ok(A, force("as1", 0), &[6, 4]);
    // PM20: Bo used Energy Blast I in round 1 and has had 0 rounds without a force.
    let refused = h.go(B, force("eb1", 0), &[]).unwrap_err();
    assert!(
        matches!(
            refused,
            RuleError::Cooldown {
                round: 1,
                quiet: 0,
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "PM20: you used Energy Blast I in round 1 and have had 0 of 3 rounds in a row without a force"
    );
    h.ok(B, attack(0), &[]);
    h.ok(A, defend(Group::Combat, 0), &[9, 2, 9, 1, 5]);
    h.ok(A, attack(0), &[]);
    h.ok(B, defend(Group::Physical, 0), &[10, 9, 7, 2, 6, 3]);
    let got = h.compact();
    let want: Vec<&str> = EXPECTED.lines().collect();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "event {i}");
    }
    assert_eq!(got.len(), want.len(), "{got:#?}");

    // Final state: Ann 14/20, PA 3, PE 5, general 1; Bo -4/20, PA 5, PE 3, no ISPs.
    let [a, b] = h.fight.carry();
    assert_eq!((a.hp, a.pa_fp, a.pe_fp), (14, 3, 5));
    assert_eq!((a.isp.general, a.isp.total()), (1, 1));
    assert_eq!((b.hp, b.pa_fp, b.pe_fp, b.isp.total()), (-4, 5, 3, 0));
    assert!(!b.dead, "PM9: between players, unconscious, alive");
    let o = h.fight.outcome().expect("over");
    assert_eq!((o.winner, o.reason, o.rounds), (Some(A), "unconscious", 3));
    // PM28: the realm's next day both are full again.
    let next = b.as_of(h.fight.sheet(B), "2026-12-02");
    assert_eq!(
        (next.hp, next.pe_fp, next.isp.general, next.isp.energy),
        (20, 5, 3, 2)
    );
    assert!(next.recovered);
    let same_day = b.as_of(h.fight.sheet(B), "2026-12-01");
    assert_eq!(same_day.hp, -4);
}

#[test]
fn the_example_events_carry_the_pages_fields() {
    let mut h = Harness::example();
    h.ok(A, attack(5), &[]);
    h.ok(B, defend(Group::Physical, 0), &[8, 3, 2, 7, 6]);
    let started = &h.events[0];
    assert_eq!(started["pvp"], true);
    assert_eq!(started["quickness"], serde_json::json!([]));
    assert_eq!(started["sides"][0]["name"], "Ann");
    assert_eq!(started["sides"][0]["owner"], "ann");
    assert_eq!(
        started["sides"][1]["isp"],
        serde_json::json!({"energy": 2, "general": 3})
    );
    let check = h.of("check")[0];
    for field in [
        "name",
        "purpose",
        "group",
        "attribute",
        "attribute_value",
        "half",
        "level",
        "ranks",
        "master",
        "isp",
        "threshold",
        "dice",
        "dice_total",
        "modifier",
        "total",
        "difficulty",
        "opposing",
        "opposing_total",
        "success",
        "attempt",
    ] {
        assert!(check.get(field).is_some(), "check has {field}");
    }
    assert_eq!(check["opposing"], "Bo");
    assert_eq!(check["dice"], serde_json::json!([[8, 2], [3]]));
    assert_eq!(check["difficulty"], serde_json::Value::Null);
}

// PM29: a yield is a loss: the one who yields loses, the other wins.
#[test]
fn pm29_a_yield_is_a_loss() {
    use herald_engine::game::{Fight, Side};
    let mut h = Harness::example();
    h.ok(A, herald_engine::psimorphs::Decision::Yield, &[]);
    let r = h.fight.result().expect("a yield ends the fight");
    assert_eq!(r.winner, Some(Side::Challenged));
}
