//! Practice fights from chat lines to the books: transcripts with `@dice` and `@clock` against
//! a real SQLite file.

mod common;
use common::*;
use sqlx::Row;

#[tokio::test]
async fn the_worked_example_as_a_transcript() {
    let books = Books::new();
    let transcript = include_str!("transcripts/example.txt");
    let run = run(&books.path(), transcript).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Dara rolls Observe 77 vs 40: success")
        .expect("Sir Eoin rolls Lance 60 vs 65 (40 + 25 sweep): hit.")
        .expect("Dame Dara rolls Shield 97 vs 5 (30 − 25 opponent's Bonus): failure.")
        .expect("Dame Dara is unhorsed!")
        .expect("— Swordplay — Dame Dara goes first (1A: just unhorsed).")
        .expect("Dame Dara rolls Dodge 35 vs 40: success.");
    // The events of EXAMPLES.md, in order, among the others.
    let wanted = [
        ("psi", "Dara", 15),
        ("roll", "Dara", 77),
        ("roll", "Eoin", 12),
        ("bonus", "Eoin", 10),
        ("roll", "Dara", 33),
        ("roll", "Eoin", 35),
        ("bonus", "Eoin", 15),
        ("roll", "Dara", 50),
        ("roll", "Eoin", 60),
        ("roll", "Dara", 97),
        ("unhorsed", "Dara", 0),
        ("injury", "Dara", 0),
        ("roll", "Dara", 25),
        ("roll", "Eoin", 28),
        ("bonus", "Dara", 10),
        ("roll", "Eoin", 30),
        ("roll", "Dara", 35),
    ];
    let mut it = run.events.iter();
    for (kind, knight, n) in wanted {
        let found = it.any(|e| {
            e["type"] == kind
                && e["knight"] == knight
                && (n == 0 || e["roll"] == n || e["amount"] == n)
        });
        assert!(
            found,
            "missing {kind} {knight} {n} in order; events: {:#?}",
            run.events
        );
    }
    // The fight is still on, with its steps in the books.
    let store = books.store().await;
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights WHERE ended_at IS NULL")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(open, 1);
    let row = sqlx::query("SELECT recorded, kind FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(row.get::<bool, _>("recorded"));
    assert_eq!(row.get::<String, _>("kind"), "practice");
}
