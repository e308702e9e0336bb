//! `herald verify`: replays a finished fight from the database and confirms its logged outcome,
//! as the fight's game does.

use crate::store::{Id, Step, Store};
use anyhow::Result;

/// What verification found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Whether the fight verifies.
    pub ok: bool,
    /// One line a person can read.
    pub message: String,
}

/// The report on fight `id` whose replay did not reach its end, `why`.
pub fn unplayable(id: Id, why: &anyhow::Error) -> Report {
    Report {
        ok: false,
        message: format!("Fight #{id} does not replay: {why:#}"),
    }
}

/// The report on fight `id` when a roll of its log is not what its seed gives (`mismatches`,
/// from [`crate::live::replay`]); `None` when every roll is.
pub fn rolls_differ(id: Id, mismatches: &[usize]) -> Option<Report> {
    let first = mismatches.first()?;
    Some(Report {
        ok: false,
        message: format!(
            "Fight #{id} differs: roll #{} (and {} more) is not what the seed gives.",
            first + 1,
            mismatches.len() - 1
        ),
    })
}

/// What a verification adds when rolls of the log came from a script (`@dice`), not the seed:
/// "; 3 rolls were scripted, not from the seed", else nothing.
pub fn scripted<D>(steps: &[Step<D>]) -> String {
    match steps.iter().flat_map(|s| &s.rolls).filter(|r| r.1).count() {
        0 => String::new(),
        n => format!("; {n} rolls were scripted, not from the seed"),
    }
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
