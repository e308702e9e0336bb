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

/// Whether fight `id` is in the books and has not ended (`herald verify` then exits with a
/// status of its own, README "Command line").
pub async fn still_open(store: &Store, id: Id) -> Result<bool> {
    let open: Option<bool> = sqlx::query_scalar("SELECT ended_at IS NULL FROM fights WHERE id = ?")
        .bind(id)
        .fetch_optional(store.pool())
        .await?;
    Ok(open.unwrap_or(false))
}

/// A fight's end in English: "Aline won by a kill", "a draw: no one fell in three passes".
fn told(outcome: &herald_engine::psiknight::Outcome, names: [&str; 2]) -> String {
    use herald_engine::psiknight::event::EndReason;
    let how = match outcome.reason {
        EndReason::Unhorsed => "by unhorsing",
        EndReason::BothUnhorsed => "as both fell",
        EndReason::NoUnhorsing => "as no one fell in three passes",
        EndReason::MajorInjury => "by a major injury",
        EndReason::Kill => "by a kill",
        EndReason::SecondArmHit => "by a second arm hit, which counts as a kill",
        EndReason::Yield => "by the other's yield",
        EndReason::PassOver => "at the end of the pass",
    };
    match outcome.winner {
        Some(w) => format!("{} won {how}", names[w.index()]),
        None => match outcome.reason {
            EndReason::PassOver => "the pass ended with no winner".to_string(),
            _ => format!("a draw {how}"),
        },
    }
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
            message: format!(
                "Fight #{id} is still open ({} steps so far): it has not ended, so there is nothing to verify yet.",
                fight.steps.len().saturating_sub(1)
            ),
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
    let names = [
        fight.setup.knights[0].name.as_str(),
        fight.setup.knights[1].name.as_str(),
    ];
    match m.outcome() {
        Some(o) if *o == logged => Ok(Report {
            ok: true,
            message: format!(
                "Fight #{id} verifies: {} decisions replayed from seed {}; {}{}.",
                fight.steps.len().saturating_sub(1),
                hex::encode(fight.seed),
                told(o, names),
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
                "Fight #{id} differs: in the replay {}, but the books say {}.",
                told(o, names),
                told(&logged, names)
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
