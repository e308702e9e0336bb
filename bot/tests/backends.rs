//! The store on both backends, one suite: every test runs on a SQLite file and, when
//! `HERALD_TEST_PG` names a server (CI starts one), on a PostgreSQL database of its own. Two
//! stores opened on one database stand for two processes sharing it.

mod common;
use common::*;
use herald_bot::store::books::Doer;
use herald_bot::store::{db, NewFight, Step, Store};
use herald_engine::psiknight::books::Points;
use herald_engine::psiknight::{MatchKind, MatchSetup};

/// A fight's setup between the two knights of `store`'s realm, as a fight starts from.
async fn setup(store: &Store, realm: i64) -> (MatchSetup, [i64; 2]) {
    let dara = store.knight_of(realm, "dana").await.unwrap().unwrap();
    let eoin = store.knight_of(realm, "evan").await.unwrap().unwrap();
    let setup = MatchSetup {
        kind: MatchKind::Practice,
        opening: Default::default(),
        knights: [dara.sheet.clone(), eoin.sheet.clone()],
        armed: [None, None],
    };
    (setup, [dara.id, eoin.id])
}

fn start_step() -> Step {
    Step {
        side: None,
        decision: None,
        rolls: vec![(77, true)],
        at: "2026-12-01T10:05:00Z".parse().unwrap(),
    }
}

// The worked example of EXAMPLES.md says the same lines on both backends, and leaves the same
// open fight in the books, which a store opened anew (a restart) reads back step by step.
#[tokio::test]
async fn the_worked_example_reads_the_same_on_each_backend() {
    let transcript = include_str!("transcripts/example.txt");
    let mut said = Vec::new();
    for backend in backends().await {
        let run = run_on(backend.store().await, "", transcript).await;
        assert_eq!(run.result, Ok(()), "on {}", backend.name());
        run.expect("Dame Dara is unhorsed!")
            .expect("Dame Dara rolls Dodge 35 vs 40: success.");
        said.push((backend.name(), run.out.clone()));

        let store = backend.store().await;
        let realm = store
            .realm(herald_bot::transport::LOCAL_REALM)
            .await
            .unwrap();
        let open = store.open_fights(realm).await.unwrap();
        assert_eq!(open.len(), 1, "on {}", backend.name());
        assert!(
            open[0].recorded,
            "the day's first practice fight is recorded (R26)"
        );
        let again = store.fight(open[0].id).await.unwrap();
        assert_eq!(again.steps, open[0].steps, "on {}", backend.name());
        assert!(open[0].steps.len() > 5);
    }
    for (name, out) in &said[1..] {
        assert_eq!(out, &said[0].1, "{name} tells the fight as SQLite does");
    }
}

// R26: one recorded practice fight per pair per realm day, whichever process starts it: two
// stores start the same pair's fight at once, 20 days running, and exactly one of each day's
// two is recorded.
#[tokio::test]
async fn the_pairs_practice_fight_is_recorded_once_a_day_across_processes() {
    for backend in backends().await {
        let run = run_on(backend.store().await, "", DARA_AND_EOIN).await;
        assert_eq!(run.result, Ok(()));
        let (a, b) = (backend.store().await, backend.store().await);
        let realm = a.realm(herald_bot::transport::LOCAL_REALM).await.unwrap();
        let (setup, knights) = setup(&a, realm).await;
        for day in 1..=20 {
            let day = format!("2026-12-{day:02}");
            let fight = |store: Store, setup: MatchSetup, day: String| async move {
                let f = NewFight {
                    realm,
                    channel: "#lists",
                    knights,
                    users: ["dana", "evan"],
                    setup: &setup,
                    seed: [7; 32],
                    day: &day,
                    at: "2026-12-01T10:00:00Z".parse().unwrap(),
                    tournament: None,
                    ransom: false,
                };
                // A knight fights once at a time (migration 0017): the start that loses the
                // race is refused whole, so it records nothing either.
                match store.start_fight(f, &start_step()).await {
                    Ok((_, recorded)) => recorded,
                    Err(e) if e.is::<herald_bot::store::engaged::Engaged>() => false,
                    Err(e) => panic!("{e:#}"),
                }
            };
            let (x, y) = tokio::join!(
                fight(a.clone(), setup.clone(), day.clone()),
                fight(b.clone(), setup.clone(), day.clone())
            );
            assert!(x ^ y, "{day} on {}: recorded {x} and {y}", backend.name());
            // The day's fight ends (which frees the pair) before the next day's.
            herald_bot::store::db::query("UPDATE fights SET ended_at = ? WHERE ended_at IS NULL")
                .bind(format!("{day}T23:00:00Z"))
                .execute(a.db())
                .await
                .unwrap();
        }
    }
}

// R30: two processes spend the same knight's last 2 HP at once, 20 rounds: exactly one raise is
// bought each round, and the balance never goes below zero.
#[tokio::test]
async fn concurrent_spends_of_the_last_points_buy_one_raise() {
    for backend in backends().await {
        let run = run_on(backend.store().await, "", DARA_AND_EOIN).await;
        assert_eq!(run.result, Ok(()));
        let admin = backend.store().await;
        let realm = admin
            .realm(herald_bot::transport::LOCAL_REALM)
            .await
            .unwrap();
        let dara = admin.knight_of(realm, "dana").await.unwrap().unwrap();
        let skills = [
            "lance", "ride", "shield", "lance", "ride", "shield", "lance", "ride", "shield",
        ];
        let mut raised = 0;
        for (round, skill) in (1..=20).zip(skills.iter().cycle()) {
            let before = admin.balance(dara.id).await.unwrap().hp_halves;
            let at = "2026-12-01T11:00:00Z".parse().unwrap();
            let doer = Doer {
                realm,
                user: "root",
                actor: None,
                fight: None,
                at,
                month: "2026-12",
            };
            // Exactly the price of the next raise, whatever it is by now.
            let sheet = admin.knight(dara.id).await.unwrap().unwrap().sheet;
            let value = match *skill {
                "lance" => sheet.skill(herald_engine::psiknight::Skill::Lance),
                "ride" => sheet.skill(herald_engine::psiknight::Skill::Ride),
                _ => sheet.skill(herald_engine::psiknight::Skill::Shield),
            };
            if value >= 80 {
                continue;
            }
            let price = herald_engine::psiknight::books::spend(
                Points::whole(1000),
                herald_engine::psiknight::Skill::Lance,
                value,
            )
            .map(|s| s.cost)
            .unwrap();
            admin
                .admin_award(&doer, dara.id, price, "for the test")
                .await
                .unwrap();
            let line = format!("@clock 2026-12-01T11:00:00Z\ndana: /spend {skill}\n");
            let (x, y) = tokio::join!(
                run_on(backend.store().await, "", &line),
                run_on(backend.store().await, "", &line)
            );
            let bought = [&x, &y].iter().filter(|r| r.said("raises")).count();
            assert_eq!(
                bought,
                1,
                "round {round} on {}: {} / {}",
                backend.name(),
                x.out,
                y.out
            );
            raised += 1;
            let after = admin.balance(dara.id).await.unwrap().hp_halves;
            assert_eq!(after, before, "round {round}: the price paid once");
        }
        assert!(raised >= 9, "on {}", backend.name());
    }
}

// The ledger is append-only and one entry is revoked at most once (R153), whichever process
// asks: two stores revoke the same entry at once, and one of them is refused.
#[tokio::test]
async fn an_entry_is_revoked_once_across_processes() {
    for backend in backends().await {
        let run = run_on(backend.store().await, "", DARA_AND_EOIN).await;
        assert_eq!(run.result, Ok(()));
        let (a, b) = (backend.store().await, backend.store().await);
        let realm = a.realm(herald_bot::transport::LOCAL_REALM).await.unwrap();
        let dara = a.knight_of(realm, "dana").await.unwrap().unwrap();
        let doer = Doer {
            realm,
            user: "root",
            actor: None,
            fight: None,
            at: "2026-12-01T11:00:00Z".parse().unwrap(),
            month: "2026-12",
        };
        let (entry, _) = a
            .admin_award(&doer, dara.id, Points::whole(3), "for the test")
            .await
            .unwrap();
        let (x, y) = tokio::join!(a.revoke(&doer, entry), b.revoke(&doer, entry));
        let done = [&x, &y].iter().filter(|r| matches!(r, Ok(Ok(_)))).count();
        assert_eq!(done, 1, "on {}: {x:?} / {y:?}", backend.name());
        assert_eq!(a.balance(dara.id).await.unwrap().hp_halves, 0);
        let rows: i64 = db::query_scalar("SELECT COUNT(*) FROM ledger WHERE knight_id = ?")
            .bind(dara.id)
            .fetch_one(a.db())
            .await
            .unwrap();
        assert_eq!(rows, 2, "the award and its one reversal, both kept");
    }
}
