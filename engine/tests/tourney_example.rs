//! The page's worked example (`rulesets/tourney.md`): Sir Ector against Sir Gimby, the text's four
//! exchanges (T5) and on to the end, event by event, with the final states and the day after.

mod tourney_common;
use herald_engine::tourney::{Decision, EndReason, TourneyState, Weapon, WeaponState};
use tourney_common::*;

const EXPECTED: &str = "\
fight_started Ector (broadsword 6, strength 3, health 7, hits 0) v Gimby (broadsword 4, strength 5, health 7, hits 0)
roll_off Ector 4
roll_off Gimby 2
first_actor Ector roll_off
round_started 1
action Ector attack
test Ector attack broadsword 3+6=9 against 6 success
test Gimby defend broadsword 2+4=6 against 9 failure
exchange Ector>Gimby hit beat
damage Gimby 2 (broadsword 2 + strength 0) by Ector: hits_taken 2, health 5
action Gimby attack
test Gimby attack broadsword 5+4=9 against 9 failure
test Ector defend broadsword 3+6=9 against 9 success
exchange Gimby>Ector parried tie
round_started 2
action Ector attack
test Ector attack broadsword 5+6=11 against 10 failure
test Gimby defend broadsword 6+4=10 against 11 critical success
exchange Ector>Gimby parried defender_critical
action Gimby attack
test Gimby attack broadsword 2+4=6 against 7 success
test Ector defend broadsword 1+6=7 against 6 fumble failure
exchange Gimby>Ector hit defender_fumble
damage Ector 3 (broadsword 2 + strength 1) by Gimby: hits_taken 3, health 4
fumble_effect Ector 2 weapon_damaged
weapon_state Ector broadsword damaged
round_started 3
action Ector attack
test Ector attack broadsword 1+6=7 against 7 fumble failure
test Gimby defend broadsword 3+4=7 against 7 success
exchange Ector>Gimby parried attacker_fumble
fumble_effect Ector 5 fell
down Ector true
action Gimby attack
test Gimby attack broadsword 5+4=9 against 8 success
test Ector defend broadsword 3+6-1(down)=8 against 9 failure
exchange Gimby>Ector hit beat
damage Ector 3 (broadsword 2 + strength 1) by Gimby: hits_taken 6, health 1
yield_offered Ector
round_started 4
action Ector stand
test Ector stand 2+3-1(health_1)=4 target 3 success
down Ector false
action Gimby attack
test Gimby attack broadsword 4+4=8 against 7 success
test Ector defend broadsword 2+6-1(health_1)=7 against 8 failure
exchange Gimby>Ector hit beat
damage Ector 3 (broadsword 2 + strength 1) by Gimby: hits_taken 7, health 0
fight_ended Gimby beats Ector: out";

/// Plays the transcript's decisions on its dice.
fn play() -> Pair {
    let mut p = Pair::start(fresh(ector()), fresh(gimby()), &[4, 2]);
    p.go(A, Decision::Attack, &[3, 2]);
    p.go(B, Decision::Attack, &[5, 3]);
    p.go(A, Decision::Attack, &[5, 6]);
    p.go(B, Decision::Attack, &[2, 1, 2]);
    p.go(A, Decision::Attack, &[1, 3, 5]);
    assert!(p.bout.is_down(A), "Ector fell (T6, T8)");
    assert_eq!(p.bout.default_decision(), Some((B, Decision::Attack)));
    p.go(B, Decision::Attack, &[5, 3]);
    assert!(
        p.bout.yield_offered(A),
        "Ector at Health 1 is offered to yield (T14)"
    );
    assert_eq!(p.bout.default_decision(), Some((A, Decision::Stand)));
    p.go(A, Decision::Stand, &[2]);
    p.go(B, Decision::Attack, &[4, 2]);
    p
}

#[test]
fn worked_example_events_in_order() {
    let p = play();
    let got = p.compact();
    let want: Vec<&str> = EXPECTED.lines().collect();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "event #{i}");
    }
    assert_eq!(got.len(), want.len(), "{got:#?}");
}

#[test]
fn worked_example_final_state() {
    let p = play();
    assert_eq!(p.dice.taken(), 19, "19 dice (T22)");
    let o = *p.bout.outcome().expect("over");
    assert_eq!(o.winner, B, "Gimby wins");
    assert_eq!(o.loser, A);
    assert_eq!(o.reason, EndReason::Out);
    assert_eq!(o.rounds, 4);
    let [ector_after, gimby_after] = p.bout.carry("2026-12-01");
    assert_eq!(
        ector_after,
        TourneyState {
            hits: 7,
            main: WeaponState::Damaged,
            dagger: WeaponState::Sound,
            ordered: None,
            day: "2026-12-01".into(),
        }
    );
    assert_eq!(gimby_after.hits, 2);
    assert_eq!(gimby_after.main, WeaponState::Sound);
    assert_eq!(gimby_after.dagger, WeaponState::Sound);
    assert_eq!(gimby_after.effective_health(&gimby()), 5);
    assert!(ector_after.is_out(&ector()), "out until the next day (T15)");

    // /smith: the broadsword is repaired at once, but Ector stays out (T16, T15).
    let (smithed, done) = ector_after
        .smith(&ector(), None, "2026-12-01")
        .expect("a damaged broadsword to repair");
    assert_eq!(done.repaired, vec![Weapon::Broadsword]);
    assert_eq!(smithed.main, WeaponState::Sound);
    assert!(smithed.is_out(&ector()));

    // The realm's next day: Health 7, no hits (T15).
    let (_, next) = smithed.as_of(&ector(), "2026-12-02");
    assert_eq!(next.hits, 0);
    assert_eq!(next.effective_health(&ector()), 7);
    assert!(!next.is_out(&ector()));
    let (_, gimby_next) = gimby_after.as_of(&gimby(), "2026-12-02");
    assert_eq!(gimby_next.hits, 0);
}

// T5: the text's four exchanges, with "Adding 5" read as 6: 9–6 hit, 9–9 parried, 11–10 parried
// by a critical, 6–7 hit by a fumble and the weapon damaged.
#[test]
fn t5_the_texts_four_exchanges() {
    let p = play();
    let ex: Vec<String> = p
        .compact()
        .into_iter()
        .filter(|l| l.starts_with("exchange") || l.starts_with("weapon_state"))
        .take(5)
        .collect();
    assert_eq!(
        ex,
        [
            "exchange Ector>Gimby hit beat",
            "exchange Gimby>Ector parried tie",
            "exchange Ector>Gimby parried defender_critical",
            "exchange Gimby>Ector hit defender_fumble",
            "weapon_state Ector broadsword damaged",
        ]
    );
    let ector_totals: Vec<i32> = p
        .events
        .iter()
        .filter_map(|e| match e {
            herald_engine::tourney::Event::Test {
                knight: A, total, ..
            } => Some(*total),
            _ => None,
        })
        .take(4)
        .collect();
    assert_eq!(
        ector_totals,
        [9, 9, 11, 7],
        "every one of Ector's totals adds 6"
    );
}

#[test]
fn worked_example_events_serialize_with_the_pages_field_names() {
    let p = play();
    let names = p.names();
    let json: Vec<serde_json::Value> = p
        .events
        .iter()
        .map(|e| serde_json::to_value(e.named(&names)).unwrap())
        .collect();
    assert_eq!(json[0]["type"], "fight_started");
    assert_eq!(json[0]["challenger"], "Ector");
    assert_eq!(json[0]["knights"][1]["knight"], "Gimby");
    assert_eq!(json[0]["knights"][1]["damage_bonus"], 1);
    assert_eq!(json[0]["knights"][0]["main_state"], "sound");
    assert_eq!(json[0]["knights"][0]["dagger_skill"], 1);
    assert_eq!(json[0]["knights"][0]["wields"], "broadsword");
    assert!(json[0].get("game").is_none(), "the bot adds \"game\"");
    assert_eq!(
        json[6],
        serde_json::json!({
            "type": "test", "knight": "Ector", "test": "attack", "weapon": "broadsword",
            "die": 3, "base": 6, "modifiers": [], "total": 9, "against": 6,
            "natural": null, "success": true
        })
    );
    let stand = json
        .iter()
        .find(|j| j["test"] == "stand")
        .expect("a stand test");
    assert_eq!(
        *stand,
        serde_json::json!({
            "type": "test", "knight": "Ector", "test": "stand", "weapon": null,
            "die": 2, "base": 3, "modifiers": [{"reason": "health_1", "value": -1}],
            "total": 4, "target": 3, "natural": null, "success": true
        })
    );
    assert_eq!(
        *json.last().unwrap(),
        serde_json::json!({"type": "fight_ended", "winner": "Gimby", "loser": "Ector",
            "reason": "out", "rounds": 4})
    );
    let damage = json.iter().find(|j| j["type"] == "damage").unwrap();
    assert_eq!(
        *damage,
        serde_json::json!({"type": "damage", "knight": "Gimby", "by": "Ector",
            "weapon": "broadsword", "weapon_damage": 2, "strength_bonus": 0, "hits": 2,
            "hits_taken": 2, "health": 5})
    );
    // Events read back as they were written.
    for (e, j) in p.events.iter().zip(&json) {
        let back: herald_engine::tourney::Event<String> =
            serde_json::from_value(j.clone()).unwrap();
        assert_eq!(back, e.named(&names).map_knights(str::to_string));
    }
}
