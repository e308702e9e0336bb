//! `herald verify`: replays a finished fight from the database and confirms its logged outcome.

use crate::session::replay;
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

/// Replays fight `id` from its seed and decisions and compares the result with the books.
pub async fn verify(store: &Store, id: Id) -> Result<Report> {
    let Some(game) = store.fight_game(id).await? else {
        anyhow::bail!("there is no fight #{id}");
    };
    if let Some(verify) = crate::games::find(&game).and_then(|g| g.verify) {
        return verify(store, id).await;
    }
    let fight = store.fight(id).await?;
    let Some(logged) = store.fight_outcome(id).await? else {
        return Ok(Report {
            ok: false,
            message: format!("Fight #{id} has not ended; only a finished fight can be verified."),
        });
    };
    let (m, _, mismatches) = match replay(&fight) {
        Ok(r) => r,
        Err(e) => {
            return Ok(Report {
                ok: false,
                message: format!("Fight #{id} does not replay: {e:#}"),
            })
        }
    };
    let injected = fight
        .steps
        .iter()
        .flat_map(|s| &s.rolls)
        .filter(|r| r.1)
        .count();
    if let Some(&first) = mismatches.first() {
        return Ok(Report {
            ok: false,
            message: format!(
                "Fight #{id} differs: roll #{} (and {} more) is not what the seed gives.",
                first + 1,
                mismatches.len() - 1
            ),
        });
    }
    match m.outcome() {
        Some(o) if *o == logged => Ok(Report {
            ok: true,
            message: format!(
                "Fight #{id} verifies: {} decisions replayed from seed {}; outcome {:?} by {:?}{}.",
                fight.steps.len().saturating_sub(1),
                hex::encode(fight.seed),
                o.winner
                    .map(|w| fight.setup.knights[w.index()].name.clone()),
                o.reason,
                if injected > 0 {
                    format!("; {injected} rolls were scripted, not from the seed")
                } else {
                    String::new()
                }
            ),
        }),
        Some(o) => Ok(Report {
            ok: false,
            message: format!(
                "Fight #{id} differs: the replay ends {o:?}, the books say {logged:?}."
            ),
        }),
        None => Ok(Report {
            ok: false,
            message: format!(
                "Fight #{id} differs: the replay does not reach the end the books record."
            ),
        }),
    }
}
