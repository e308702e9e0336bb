//! The knights' sums the standings are read from (`knight_sums`: Honor, Prestige and the record
//! of every knight, in the order of three indexes), brought up to date from the log of changes
//! the books' triggers append to in every write's transaction (`knight_sums_pending`, migration
//! 0015). Folding many changes at once moves each knight's index entries once, instead of once
//! per ledger entry and fight. The fights' ends wait in the log: the book writer folds it every
//! [`FOLD_ENDS`] of them, and whoever reads the sums first asks it to fold what is left, so a
//! reader never sees them behind the books. A ledger entry made by hand (an award, a spend) is
//! folded in its own transaction.

use super::db::{self, Tx};
use super::Store;
use anyhow::Result;

/// Fights ended by the book writer between two folds it makes of its own accord. A reader folds
/// whatever is left before it reads; this only bounds the log when nobody reads. A fold rewrites
/// every page of the sums and of their three indexes that one of its knights is on, and a few
/// hundred ends already reach most of a realm's pages: folding eight times as many ends at once
/// writes those pages once instead of eight times (on the pipeline bench's 6,000 knights a fold
/// of 512 ends wrote 105 pages, one of all 3,000 ends 129). The log then holds at most about
/// 12,000 rows of a few bytes each, which a reader's fold sums in one pass.
pub(crate) const FOLD_ENDS: usize = 4096;

/// The log's changes of each knight summed, for the folds below, keeping the knights `$which`.
macro_rules! pending_sums {
    ($which:literal) => {
        concat!(
            "(SELECT knight_id, SUM(hp_halves) AS hp, SUM(pp_halves) AS pp, SUM(wins) AS w, ",
            "SUM(losses) AS l, SUM(draws) AS d FROM knight_sums_pending GROUP BY knight_id ",
            "HAVING ",
            $which,
            ") AS p"
        )
    };
}

/// SQLite's fold, in two statements. A knight whose Honor, Prestige or wins change moves in the
/// standings' three indexes; one who only lost or drew (a fight's loser: half the knights of a
/// fold) does not, and the second statement sets no indexed column, so SQLite leaves the
/// indexes alone for them (a row costs about a fifth). Summing the log twice costs less than
/// the index entries spared. PostgreSQL needs no such split: an update that leaves every
/// indexed value as it was adds no index entry when the row's page has room (HOT).
const SQLITE_FOLDS: [&str; 2] = [
    concat!(
        "UPDATE knight_sums SET hp_halves = knight_sums.hp_halves + p.hp, ",
        "pp_halves = knight_sums.pp_halves + p.pp, wins = knight_sums.wins + p.w, ",
        "losses = knight_sums.losses + p.l, draws = knight_sums.draws + p.d FROM ",
        pending_sums!("hp <> 0 OR pp <> 0 OR w <> 0"),
        " WHERE knight_sums.knight_id = p.knight_id"
    ),
    concat!(
        "UPDATE knight_sums SET losses = knight_sums.losses + p.l, ",
        "draws = knight_sums.draws + p.d FROM ",
        pending_sums!("hp = 0 AND pp = 0 AND w = 0"),
        " WHERE knight_sums.knight_id = p.knight_id"
    ),
];

/// Folds every change logged so far into the sums, inside `tx`. On PostgreSQL the changes are
/// taken with the one statement that applies them, so two processes folding at once each apply
/// a change once; SQLite's writer lock, taken at the first statement, does the same.
pub(crate) async fn fold(tx: &mut Tx<'_>) -> Result<()> {
    if tx.is_postgres() {
        db::query(
            "WITH taken AS (DELETE FROM knight_sums_pending RETURNING knight_id, hp_halves, \
             pp_halves, wins, losses, draws), \
             p AS (SELECT knight_id, CAST(SUM(hp_halves) AS BIGINT) AS hp, \
             CAST(SUM(pp_halves) AS BIGINT) AS pp, CAST(SUM(wins) AS BIGINT) AS w, \
             CAST(SUM(losses) AS BIGINT) AS l, CAST(SUM(draws) AS BIGINT) AS d \
             FROM taken GROUP BY knight_id) \
             UPDATE knight_sums SET hp_halves = knight_sums.hp_halves + p.hp, \
             pp_halves = knight_sums.pp_halves + p.pp, wins = knight_sums.wins + p.w, \
             losses = knight_sums.losses + p.l, draws = knight_sums.draws + p.d \
             FROM p WHERE knight_sums.knight_id = p.knight_id",
        )
        .execute(&mut *tx)
        .await?;
        return Ok(());
    }
    // Two statements by what changes (SQLite rewrites an index whenever a statement sets one of
    // its columns, changed or not): see [`SQLITE_FOLDS`].
    for sql in SQLITE_FOLDS {
        db::query(sql).execute(&mut *tx).await?;
    }
    db::query("DELETE FROM knight_sums_pending")
        .execute(&mut *tx)
        .await?;
    Ok(())
}

impl Store {
    /// Brings the knights' sums up to date with every change committed so far: a read when
    /// nothing is pending; else the book writer folds the log in its next transaction, shared by
    /// every reader asking at that moment. Every reader of `knight_sums` calls it first.
    pub async fn fold_sums(&self) -> Result<()> {
        let pending: Option<i64> = db::query_scalar("SELECT id FROM knight_sums_pending LIMIT 1")
            .fetch_optional(self.db())
            .await?;
        if pending.is_none() {
            return Ok(());
        }
        let (done, folded) = tokio::sync::oneshot::channel();
        self.commit(super::Write::Fold(done), folded, "the knights' sums")
            .await
    }
}
