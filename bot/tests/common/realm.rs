//! The books of a small realm for the web's tests: fights of two games, a tournament, an open
//! fight, and knights with the names no chat command accepts.

use super::*;

/// Moderators, and a channel that plays The Tourney.
pub const CONFIG: &str = "[permissions]\nmoderators = [\"mod\"]\nadmins = [\"mod\"]\n\
[games.channels]\n\"#tourney\" = \"tourney\"\n";

/// Fight #1: Eoin unhorses Dara in a practice joust (every die scripted, as in fights.rs);
/// tournament #1 with its Lists match (fight #2); fight #3: a Tourney bout; fight #4: a joust
/// left open in #open at Dara's first prompt.
pub fn realm_transcript() -> String {
    format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
evan: /decline
[#yard] mod: /tournament schedule \"Yule <script>alert(1)</script>\" 2026-12-01T11:00:00Z --channel #lists
dana: /enter
evan: /enter
@clock 2026-12-01T11:00:00Z
dana: /yield
evan: /yield
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
[#tourney] ann: /yield
xa: /knight create Xa --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
xb: /knight create Xb --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
@clock 2026-12-02T10:00:00Z
[#open] dana: /joust evan
@dice 90 90 90 20 30 50
[#open] evan: /accept
"
    )
}

/// The two names no chat command accepts (R122), as an import or older books may hold them.
pub const XSS: [&str; 2] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
];

/// The realm's books: the transcript, then the XSS names given to Xa and Xb in SQL.
pub async fn realm_books() -> Books {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, &realm_transcript()).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Fight #4").expect("Dame Xa is dubbed");
    let store = books.store().await;
    for (old, new) in [("Xa", XSS[0]), ("Xb", XSS[1])] {
        sqlx::query("UPDATE knights SET name = ?, name_key = ? WHERE name = ?")
            .bind(new)
            .bind(new.to_lowercase())
            .bind(old)
            .execute(store.pool())
            .await
            .unwrap();
    }
    books
}

/// The realm's books as [`realm_books`] makes them, on `backend` (SQLite or PostgreSQL), the
/// XSS names given through the store's query layer.
pub async fn realm_books_on(backend: &Backend) {
    let run = run_on(backend.store().await, CONFIG, &realm_transcript()).await;
    assert_eq!(run.result, Ok(()), "on {}: {}", backend.name(), run.out);
    run.expect("Fight #4").expect("Dame Xa is dubbed");
    let store = backend.store().await;
    for (old, new) in [("Xa", XSS[0]), ("Xb", XSS[1])] {
        herald_bot::store::db::query("UPDATE knights SET name = ?, name_key = ? WHERE name = ?")
            .bind(new)
            .bind(new.to_lowercase())
            .bind(old)
            .execute(store.db())
            .await
            .unwrap();
    }
}

/// Every knight's sums as the books keep them (`knight_sums`), and as a fresh aggregation of
/// the ledger and the fights counts them: the two must be the same rows. On either backend.
pub async fn kept_and_fresh_sums(
    store: &herald_bot::store::Store,
) -> (Vec<[i64; 6]>, Vec<[i64; 6]>) {
    // As every reader of the sums does, first.
    store.fold_sums().await.unwrap();
    let read = |text: &'static str| async move {
        herald_bot::store::db::query(text)
            .fetch_all(store.db())
            .await
            .unwrap()
            .iter()
            .map(|r| [0, 1, 2, 3, 4, 5].map(|i| r.try_get::<i64, _>(i).unwrap()))
            .collect::<Vec<_>>()
    };
    let kept = read(
        "SELECT k.id, s.hp_halves, s.pp_halves, s.wins, s.losses, s.draws \
         FROM knights k JOIN knight_sums s ON s.knight_id = k.id ORDER BY k.id",
    )
    .await;
    let fresh = read(
        "SELECT k.id, \
         COALESCE((SELECT CAST(SUM(hp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0), \
         COALESCE((SELECT CAST(SUM(pp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0), \
         (SELECT COUNT(*) FROM fights f WHERE f.winner_id = k.id), \
         (SELECT COUNT(*) FROM fights f WHERE (f.challenger_id = k.id OR f.challenged_id = k.id) \
            AND f.ended_at IS NOT NULL AND f.winner_id IS NOT NULL AND f.winner_id <> k.id), \
         (SELECT COUNT(*) FROM fights f WHERE (f.challenger_id = k.id OR f.challenged_id = k.id) \
            AND f.ended_at IS NOT NULL AND f.winner_id IS NULL) \
         FROM knights k ORDER BY k.id",
    )
    .await;
    // The realm, retirement and name each knight's sums are ordered by are the knight's.
    let stray: i64 = herald_bot::store::db::query_scalar(
        "SELECT COUNT(*) FROM knights k LEFT JOIN knight_sums s ON s.knight_id = k.id \
         WHERE s.knight_id IS NULL OR s.realm_id <> k.realm_id OR s.retired <> k.retired \
         OR s.name_key <> k.name_key",
    )
    .fetch_one(store.db())
    .await
    .unwrap();
    assert_eq!(stray, 0, "knights whose sums are not theirs");
    (kept, fresh)
}
