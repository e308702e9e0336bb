//! A restart in the middle of a fight: a first run leaves the fight open in the database file, a
//! second run on the same file restores it by replaying its decision log and plays it to the end.

mod common;
use common::*;
use herald_bot::store::Store;
use herald_bot::verify::verify;
use herald_engine::psiknight::Decision;
use sqlx::Row;

/// One row of `fight_steps`, as read back.
#[derive(Debug, PartialEq)]
struct StepRow {
    seq: i64,
    side: Option<String>,
    decision: Option<Decision>,
    rolls: Vec<(u32, bool)>,
    at: chrono::DateTime<chrono::Utc>,
}

async fn steps(store: &Store, fight: i64) -> Vec<StepRow> {
    sqlx::query(
        "SELECT seq, side, decision, rolls, at FROM fight_steps WHERE fight_id = ? ORDER BY seq",
    )
    .bind(fight)
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| StepRow {
        seq: r.get("seq"),
        side: r.get("side"),
        decision: r
            .get::<Option<String>, _>("decision")
            .map(|d| serde_json::from_str(&d).expect("a decision as JSON")),
        rolls: serde_json::from_str(&r.get::<String, _>("rolls")).expect("rolls as JSON"),
        at: chrono::DateTime::parse_from_rfc3339(&r.get::<String, _>("at"))
            .expect("an RFC 3339 time")
            .with_timezone(&chrono::Utc),
    })
    .collect()
}

fn utc(text: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&chrono::Utc)
}

fn position(run: &Run, needle: &str) -> usize {
    run.lines()
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line containing {needle:?} in:\n{}", run.out))
}

// The first run's dice came from `@dice`: the log records them as scripted, so the restore is
// exact. Pass 1: both fail Observe (90, 90); Dara fails Ride (90 > 30), Eoin rides (20 ≤ 40):
// +15 to Eoin (Joust 2A). The restart comes after Dara's sweep announcement; Eoin's Bonus must
// survive it: no sweep, Eoin strikes first (6B), Lance 30 hits, Dara's Shield 30 − 15 = 15
// (R5), 50 fails: unhorsed; Eoin declines Swordplay (R41) and wins (R27), 1 HP (R28).
#[tokio::test]
async fn a_fight_with_scripted_dice_resumes_after_a_restart_and_finishes() {
    let books = Books::new();
    let first = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20
evan: /accept
@clock 2026-12-01T10:00:40Z
dana: /nosweep
"
    );
    let run1 = run(&books.path(), &first).await;
    assert_eq!(run1.result, Ok(()));
    run1.expect("Sir Eoin earns a +15 Bonus.")
        .expect("Dame Dara does not sweep.")
        .expect("Sir Eoin (evan), announce a sweep or not [Bonus +15, weaken]")
        .expect_not("is over");
    {
        let store = books.store().await;
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights WHERE ended_at IS NULL")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(open, 1, "the first run leaves the fight open");
        assert_eq!(steps(&store, 1).await.len(), 2);
    }

    let second = "\
@clock 2026-12-01T10:01:00Z
@dice 30 50
evan: /nosweep
evan: /high
evan: /decline
";
    let run2 = run(&books.path(), second).await;
    assert_eq!(run2.result, Ok(()));
    // Herald says the fight resumes, where it stands, and who is awaited, before anything else.
    assert!(
        run2.lines()[0].contains("Herald is back. Fight #1 resumes"),
        "{}",
        run2.out
    );
    run2.expect("Fight #1: Dame Dara vs Sir Eoin, Joust, pass 1.")
        .expect("Sir Eoin (evan), announce a sweep or not [Bonus +15, weaken]")
        .expect("Sir Eoin does not sweep.")
        .expect("Sir Eoin strikes first (6B: holds the Bonus).")
        .expect("Sir Eoin rolls Lance 30 vs 40: hit.")
        .expect("Dame Dara rolls Shield 50 vs 15 (30 − 15 opponent's Bonus): failure.")
        .expect("Dame Dara is unhorsed!")
        .expect("Sir Eoin declines Swordplay.")
        .expect("Sir Eoin wins (by unhorsing).")
        .expect("Sir Eoin earns 1 HP.")
        .expect("Fight #1 is over. Dice seed: ")
        .expect_not("could not be restored");
    assert!(position(&run2, "Herald is back") < position(&run2, "Sir Eoin does not sweep."));
    // The replay of the first run's steps says nothing of its own: no roll is narrated twice.
    run2.expect_not("Observe 90");

    let store = books.store().await;
    let eoin: i64 = sqlx::query_scalar("SELECT id FROM knights WHERE name = 'Eoin'")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let fight =
        sqlx::query("SELECT ended_at, winner_id, reason, recorded FROM fights WHERE id = 1")
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(
        fight
            .get::<Option<String>, _>("ended_at")
            .as_deref()
            .map(utc),
        Some(utc("2026-12-01T10:01:00Z"))
    );
    assert_eq!(fight.get::<Option<i64>, _>("winner_id"), Some(eoin));
    assert_eq!(
        fight.get::<Option<String>, _>("reason").as_deref(),
        Some("unhorsed")
    );
    assert!(fight.get::<bool, _>("recorded"));
    let ledger: Vec<(i64, i64, String)> =
        sqlx::query("SELECT knight_id, hp_halves, kind FROM ledger")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("knight_id"), r.get("hp_halves"), r.get("kind")))
            .collect();
    assert_eq!(ledger, vec![(eoin, 2, "practice".to_string())]);

    // The decision log: complete, in order, each step with the dice it consumed.
    let t0 = utc("2026-12-01T10:00:00Z");
    let t1 = utc("2026-12-01T10:00:40Z");
    let t2 = utc("2026-12-01T10:01:00Z");
    assert_eq!(
        steps(&store, 1).await,
        vec![
            StepRow {
                seq: 0,
                side: None,
                decision: None,
                rolls: vec![(90, true), (90, true), (90, true), (20, true)],
                at: t0,
            },
            StepRow {
                seq: 1,
                side: Some("challenger".into()),
                decision: Some(Decision::NoSweep),
                rolls: vec![],
                at: t1,
            },
            StepRow {
                seq: 2,
                side: Some("challenged".into()),
                decision: Some(Decision::NoSweep),
                rolls: vec![],
                at: t2,
            },
            StepRow {
                seq: 3,
                side: Some("challenged".into()),
                decision: Some(Decision::High),
                rolls: vec![(30, true), (50, true)],
                at: t2,
            },
            StepRow {
                seq: 4,
                side: Some("challenged".into()),
                decision: Some(Decision::Decline),
                rolls: vec![],
                at: t2,
            },
        ]
    );
    // And the books replay to the logged outcome.
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// R41 across a restart: one fighter has agreed to Swordplay before it, the other agrees after
// it; Swordplay follows with the one just unhorsed first (Swordplay 1A). Dara attacks: Sword 10
// ≤ 40; Eoin parries: Sword 30 − 20 = 10, 95 fails; damage 40: LEGS; Eoin's turn: attack, Sword
// 99 > 30 fails; Dara attacks: Sword 5 hits, Eoin cannot Dodge (R16) and blocks: Shield 77 > 40
// fails; damage 1: KILL.
#[tokio::test]
async fn a_half_answered_fight_on_question_survives_a_restart() {
    let books = Books::new();
    let first = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
dana: /swordplay
"
    );
    let run1 = run(&books.path(), &first).await;
    assert_eq!(run1.result, Ok(()));
    run1.expect("Dame Dara will fight on with swords.");

    let second = "\
@clock 2026-12-01T10:01:00Z
@dice 10 95 40 99 5 77 1
dana: /swordplay
evan: /swordplay
dana: /attack
evan: /parry
evan: /attack
dana: /attack
evan: /dodge
evan: /block
";
    let run2 = run(&books.path(), second).await;
    assert_eq!(run2.result, Ok(()));
    run2.expect("Herald is back. Fight #1 resumes")
        // Only Eoin is still asked; Dara has answered.
        .expect("Sir Eoin (evan), go on to Swordplay?")
        .expect_not("Dame Dara (dana), go on to Swordplay?")
        .expect("— Swordplay — Dame Dara goes first (1A: just unhorsed).")
        .expect("Sir Eoin rolls Sword 95 vs 10 (30 − 20 parry): failure.")
        .expect("Damage 40: LEGS, Sir Eoin falls down.")
        .expect("Sir Eoin rolls Sword 99 vs 30: failure.")
        .expect("Dame Dara rolls Sword 5 vs 40: success.")
        .expect("Damage 1: KILL, Sir Eoin is beaten.")
        .expect("Dame Dara wins (by a kill).")
        .expect("Dame Dara earns 1 HP.");
    // Dara answering again is refused (she has answered), and Eoin's Dodge is barred by LEGS.
    assert!(
        position(&run2, "Herald is back") < position(&run2, "Sir Eoin will fight on with swords.")
    );
    run2.expect("Not your move, Dame Dara. Waiting for Sir Eoin (evan)")
        .expect("cannot dodge with a legs injury (R16)");

    let store = books.store().await;
    let dara: i64 = sqlx::query_scalar("SELECT id FROM knights WHERE name = 'Dara'")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let row = sqlx::query("SELECT winner_id, reason FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<Option<i64>, _>("winner_id"), Some(dara));
    assert_eq!(
        row.get::<Option<String>, _>("reason").as_deref(),
        Some("kill")
    );
    let decisions: Vec<Option<Decision>> = steps(&store, 1)
        .await
        .into_iter()
        .map(|s| s.decision)
        .collect();
    assert_eq!(
        decisions,
        vec![
            None,
            Some(Decision::NoSweep),
            Some(Decision::NoSweep),
            Some(Decision::High),
            Some(Decision::Swordplay),
            Some(Decision::Swordplay),
            Some(Decision::Attack),
            Some(Decision::Parry),
            Some(Decision::Attack),
            Some(Decision::Attack),
            Some(Decision::Block),
        ]
    );
    let report = verify(&store, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}

// With the fight's own seeded dice, a restart changes nothing: the fight resumes with its stream
// where it was, so a fight interrupted and resumed ends exactly as the same fight uninterrupted
// (the same rolls, the same decisions at the same times, the same winner).
#[tokio::test]
async fn a_seeded_fight_resumed_after_a_restart_is_the_fight_without_one() {
    let first = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
evan: /accept
@wait 120
"
    );
    // The restarted Herald comes back at the time the first one stopped; every decision after
    // that is a timeout default.
    let second = "\
@clock 2026-12-01T10:02:00Z
@wait 100000
";
    let split = Books::new();
    let run1 = run(&split.path(), &first).await;
    assert_eq!(run1.result, Ok(()));
    run1.expect("did not answer in time").expect_not("is over");
    let run2 = run(&split.path(), second).await;
    assert_eq!(run2.result, Ok(()));
    run2.expect("Herald is back. Fight #1 resumes")
        .expect("Fight #1 is over. Dice seed: ");

    let whole = Books::new();
    let run0 = run(&whole.path(), &format!("{first}{second}")).await;
    assert_eq!(run0.result, Ok(()));
    run0.expect("Fight #1 is over. Dice seed: ")
        .expect_not("Herald is back");

    // What the resumed run said after its restore lines is what the whole run said after the
    // first run's part.
    let resumed = position(&run2, "Herald is back");
    let tail_of_split: Vec<&str> = run2.lines()[resumed + 1..]
        .iter()
        .skip_while(|l| !l.contains("did not answer in time"))
        .copied()
        .collect();
    let tail_of_whole: Vec<&str> = run0.lines()[run1.lines().len()..].to_vec();
    assert!(!tail_of_split.is_empty());
    assert_eq!(tail_of_split, tail_of_whole);

    let (a, b) = (split.store().await, whole.store().await);
    let (steps_a, steps_b) = (steps(&a, 1).await, steps(&b, 1).await);
    assert!(steps_a.len() >= 5, "{steps_a:#?}");
    assert_eq!(steps_a, steps_b);
    // Seeded, not scripted: every roll came from the fight's stream.
    assert!(steps_a.iter().flat_map(|s| &s.rolls).all(|r| !r.1));
    for sql in [
        "SELECT COALESCE(winner_id, 0) FROM fights WHERE id = 1",
        "SELECT COUNT(*) FROM ledger",
        "SELECT COALESCE(SUM(hp_halves), 0) FROM ledger",
    ] {
        let x: i64 = sqlx::query_scalar(sql).fetch_one(a.pool()).await.unwrap();
        let y: i64 = sqlx::query_scalar(sql).fetch_one(b.pool()).await.unwrap();
        assert_eq!(x, y, "{sql}");
    }
    for sql in [
        "SELECT COALESCE(reason, '') FROM fights WHERE id = 1",
        "SELECT COALESCE(ended_at, '') FROM fights WHERE id = 1",
        "SELECT seed FROM fights WHERE id = 1",
    ] {
        let x: String = sqlx::query_scalar(sql).fetch_one(a.pool()).await.unwrap();
        let y: String = sqlx::query_scalar(sql).fetch_one(b.pool()).await.unwrap();
        assert_eq!(x, y, "{sql}");
    }
    let report = verify(&a, 1).await.unwrap();
    assert!(report.ok, "{}", report.message);
}
