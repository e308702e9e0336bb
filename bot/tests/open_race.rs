//! Herald processes started together on one new SQLite file: each opens the books, and the
//! migrations are applied once, by whichever comes first.

use herald_bot::store::Store;

// Two stores opening the same new file at the same moment, 20 times (each a new file): both
// open, and the migrations are recorded once each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_opening_one_new_file_at_once_both_open() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..20 {
        let path = dir.path().join(format!("books{round}.db"));
        let (a, b) = tokio::join!(
            tokio::spawn({
                let path = path.clone();
                async move { Store::open(&path).await.map(drop) }
            }),
            tokio::spawn({
                let path = path.clone();
                async move { Store::open(&path).await.map(drop) }
            })
        );
        a.unwrap()
            .unwrap_or_else(|e| panic!("round {round}, first: {e:#}"));
        b.unwrap()
            .unwrap_or_else(|e| panic!("round {round}, second: {e:#}"));
        let store = Store::open(&path).await.unwrap();
        let (runs, versions): (i64, i64) =
            sqlx::query_as("SELECT COUNT(*), COUNT(DISTINCT version) FROM _sqlx_migrations")
                .fetch_one(store.pool())
                .await
                .unwrap();
        assert_eq!(runs, versions, "round {round}: a migration recorded twice");
    }
}
