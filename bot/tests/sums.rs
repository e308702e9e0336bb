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
