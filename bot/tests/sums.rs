//! The knights' sums the standings read are folded in from their log of changes by whoever
//! reads them, and by the book writer now and then: however many fold at once, on however many
//! connections (as several processes would), each change counts once.

mod common;
use common::realm::*;
use common::*;
use herald_bot::store::books::Doer;
use herald_engine::psiknight::books::Points;

// Four writers award Honor while four readers fold, each on a connection of its own to the
// same books; then the sums equal a fresh aggregation of the ledger and the fights, and nothing
// is left in the log. On both backends.
#[tokio::test]
async fn folds_at_once_count_each_change_once() {
    for backend in backends().await {
        let on = backend.name();
        realm_books_on(&backend).await;
        let admin = backend.store().await;
        let realm = admin
            .realm(herald_bot::transport::LOCAL_REALM)
            .await
            .unwrap();
        let knights: Vec<i64> =
            herald_bot::store::db::query_scalar("SELECT id FROM knights WHERE realm_id = ?")
                .bind(realm)
                .fetch_all(admin.db())
                .await
                .unwrap();
        assert!(knights.len() >= 4, "on {on}");
        let mut tasks = Vec::new();
        for w in 0..4 {
            let (writer, knights) = (backend.store().await, knights.clone());
            tasks.push(tokio::spawn(async move {
                for i in 0..25 {
                    let doer = Doer {
                        realm,
                        user: "root",
                        actor: None,
                        fight: None,
                        at: "2026-12-01T11:00:00Z".parse().unwrap(),
                        month: "2026-12",
                    };
                    let knight = knights[(w + i) % knights.len()];
                    writer
                        .admin_award(&doer, knight, Points::whole(1), "for the test")
                        .await
                        .unwrap();
                }
            }));
            let reader = backend.store().await;
            tasks.push(tokio::spawn(async move {
                for _ in 0..25 {
                    reader.fold_sums().await.unwrap();
                    tokio::task::yield_now().await;
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let (kept, fresh) = kept_and_fresh_sums(&admin).await;
        assert_eq!(kept, fresh, "on {on}");
        let left: i64 =
            herald_bot::store::db::query_scalar("SELECT COUNT(*) FROM knight_sums_pending")
                .fetch_one(admin.db())
                .await
                .unwrap();
        assert_eq!(left, 0, "on {on}");
    }
}

// Every kind of change in the log folds into its knight's sums, whether it moves the knight in
// the standings (Honor, Prestige, wins) or not (losses, draws alone, which SQLite's fold writes
// by a statement of their own), and a knight with both kinds gets both. On both backends.
#[tokio::test]
async fn a_fold_adds_each_kind_of_change_to_its_knight() {
    for backend in backends().await {
        let on = backend.name();
        realm_books_on(&backend).await;
        let store = backend.store().await;
        store.fold_sums().await.unwrap();
        let sums = || async {
            herald_bot::store::db::query(
                "SELECT knight_id, hp_halves, pp_halves, wins, losses, draws FROM knight_sums \
                 ORDER BY knight_id",
            )
            .fetch_all(store.db())
            .await
            .unwrap()
            .iter()
            .map(|r| [0, 1, 2, 3, 4, 5].map(|i| r.try_get::<i64, _>(i).unwrap()))
            .collect::<Vec<_>>()
        };
        // Rounds of (knight's place, [hp, pp, wins, losses, draws]) for each row logged,
        // folded after each round.
        let rounds: [&[(usize, [i64; 5])]; 2] = [
            &[
                (0, [0, 0, 0, 1, 0]),
                (1, [0, 0, 0, 0, 1]),
                (2, [0, 0, 0, 1, 0]),
                (2, [0, 0, 0, 1, 0]),
                (2, [0, 0, 0, 0, 1]),
                (3, [0, 0, 1, 0, 0]),
                (3, [4, 2, 0, 0, 0]),
            ],
            &[
                (0, [3, 0, 0, 0, 0]),
                (1, [0, -2, 0, 0, 0]),
                (1, [0, 0, 0, 1, 0]),
                (2, [0, 0, 1, 0, 0]),
                (3, [0, 0, 0, 0, 1]),
            ],
        ];
        for (round, logged) in rounds.iter().enumerate() {
            let before = sums().await;
            assert!(before.len() >= 4, "on {on}");
            for &(at, [hp, pp, w, l, d]) in logged.iter() {
                herald_bot::store::db::query(
                    "INSERT INTO knight_sums_pending (knight_id, hp_halves, pp_halves, wins, \
                     losses, draws) VALUES (?, ?, ?, ?, ?, ?)",
                )
                .bind(before[at][0])
                .bind(hp)
                .bind(pp)
                .bind(w)
                .bind(l)
                .bind(d)
                .execute(store.db())
                .await
                .unwrap();
            }
            store.fold_sums().await.unwrap();
            let mut expected = before.clone();
            for (at, change) in logged.iter() {
                for (i, v) in change.iter().enumerate() {
                    expected[*at][i + 1] += v;
                }
            }
            assert_eq!(sums().await, expected, "on {on}, round {round}");
        }
        let left: i64 =
            herald_bot::store::db::query_scalar("SELECT COUNT(*) FROM knight_sums_pending")
                .fetch_one(store.db())
                .await
                .unwrap();
        assert_eq!(left, 0, "on {on}");
    }
}
