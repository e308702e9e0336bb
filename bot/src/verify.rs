//! `herald verify`: replays a finished fight from the database and confirms its logged outcome,
//! as the fight's game does.

use crate::store::{Id, Store};
use anyhow::Result;

/// What verification found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Whether the fight verifies.
    pub ok: bool,
    /// One line a person can read.
    pub message: String,
}

/// Whether fight `id` is in the books and has not ended (`herald verify` then exits with a
/// status of its own, README "Command line").
pub async fn still_open(store: &Store, id: Id) -> Result<bool> {
    let open: Option<bool> =
        crate::store::db::query_scalar("SELECT ended_at IS NULL FROM fights WHERE id = ?")
            .bind(id)
            .fetch_optional(store.db())
            .await?;
    Ok(open.unwrap_or(false))
}

/// Replays fight `id` from its seed and decisions and compares the result with the books, as
/// its game does.
pub async fn verify(store: &Store, id: Id) -> Result<Report> {
    let Some(game) = store.fight_game(id).await? else {
        anyhow::bail!("there is no fight #{id}");
    };
    // Every fight's row names its game (the fights from before the seam read `psiknight`).
    let Some(info) = crate::games::find(&game) else {
        anyhow::bail!(
            "fight #{id} is of the game '{game}', which this Herald does not know (it knows {})",
            crate::games::ids()
        );
    };
    (info.verify)(store, id).await
}
