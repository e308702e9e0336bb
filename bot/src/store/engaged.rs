//! One fight at a time for a fighter, kept by the books rather than by each process's memory:
//! a fight's start claims its fighters in `engaged_fighters` (migration 0017) in the same
//! transaction that records the fight, so of two processes starting fights of one knight at
//! once exactly one commits. A fight's end writes nothing here (migration 0019): a claim whose
//! fight has ended holds nothing, and the next start of its fighter takes it over. So the claims
//! a table holds are those of open fights and of some ended ones; a reader of them keeps the
//! rows whose fight is open.

use super::db::{self, Tx};
use super::Id;
use anyhow::Result;
use thiserror::Error;

/// The claims of the fights open in the books, made again after an import (the table is not
/// exported, being derived from the fights): a fighter's first open fight holds them. The same
/// statements as migration 0017's, valid on both backends.
pub const OPEN_CLAIMS: [&str; 2] = [
    "INSERT INTO engaged_fighters (kind, fighter_id, fight_id) \
     SELECT 'knight', k, MIN(id) FROM ( \
     SELECT challenger_id AS k, id FROM fights WHERE ended_at IS NULL AND challenger_id IS NOT NULL \
     UNION ALL \
     SELECT challenged_id AS k, id FROM fights WHERE ended_at IS NULL AND challenged_id IS NOT NULL \
     ) AS open_knights GROUP BY k",
    "INSERT INTO engaged_fighters (kind, fighter_id, fight_id) \
     SELECT 'character', c, MIN(id) FROM ( \
     SELECT m.character_id AS c, f.id FROM fights f JOIN fight_members m ON m.fight_id = f.id \
     WHERE f.ended_at IS NULL \
     UNION ALL \
     SELECT challenger_character AS c, id FROM fights f \
     WHERE ended_at IS NULL AND challenger_character IS NOT NULL \
     AND NOT EXISTS (SELECT 1 FROM fight_members m WHERE m.fight_id = f.id) \
     UNION ALL \
     SELECT challenged_character AS c, id FROM fights f \
     WHERE ended_at IS NULL AND challenged_character IS NOT NULL \
     AND NOT EXISTS (SELECT 1 FROM fight_members m WHERE m.fight_id = f.id) \
     ) AS open_characters GROUP BY c",
];

/// Which ids a claim names: PsiKnight's knights or the seam's characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fighters {
    /// Knights, by knight id (PsiKnight's fights).
    Knights,
    /// Characters, by character id (the games on the referee's seam).
    Characters,
}

impl Fighters {
    fn name(self) -> &'static str {
        match self {
            Fighters::Knights => "knight",
            Fighters::Characters => "character",
        }
    }
}

/// A fight refused at its start because one of its fighters is in another open fight, perhaps
/// started by another process on the same books.
#[derive(Debug, Error)]
#[error("fighter {fighter} is already fighting in {channel}")]
pub struct Engaged {
    /// The fighter already engaged (a knight's or a character's id).
    pub fighter: Id,
    /// The channel of the fight that holds them, as the books name it.
    pub channel: String,
}

/// Claims `ids` for `fight` inside its start's transaction, or answers [`Engaged`] naming the
/// first already held (the caller drops the transaction, so nothing of the fight is written).
/// Claims are taken in order of id, so two starts racing over the same pair wait on one
/// another instead of deadlocking. A claim left by an ended fight is taken over; the fight is
/// read as ended only when its end is committed and seen by this statement (a fight not seen at
/// all, started by a transaction committed meanwhile on PostgreSQL, counts as open), so a start
/// never takes a claim from a fight in progress.
pub(super) async fn claim(tx: &mut Tx<'_>, kind: Fighters, ids: &[Id], fight: Id) -> Result<()> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let taken = db::query(
            "INSERT INTO engaged_fighters (kind, fighter_id, fight_id) VALUES (?, ?, ?) \
             ON CONFLICT (kind, fighter_id) DO UPDATE SET fight_id = excluded.fight_id \
             WHERE EXISTS (SELECT 1 FROM fights f WHERE f.id = engaged_fighters.fight_id \
             AND f.ended_at IS NOT NULL)",
        )
        .bind(kind.name())
        .bind(id)
        .bind(fight)
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() == 0 {
            let channel: Option<String> = db::query_scalar(
                "SELECT f.channel FROM engaged_fighters e JOIN fights f ON f.id = e.fight_id \
                 WHERE e.kind = ? AND e.fighter_id = ?",
            )
            .bind(kind.name())
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            return Err(Engaged {
                fighter: id,
                channel: channel.unwrap_or_else(|| "another channel".into()),
            }
            .into());
        }
    }
    Ok(())
}
