//! `herald verify`: replays a finished fight from the database and confirms its logged outcome.

use crate::dice::ReplayDice;
use crate::store::{Id, OpenFight, Store};
use anyhow::Result;
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::Match;

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

/// Replays a stored fight: the match as it now stands, its stream positioned after the last roll,
/// and the replay's findings (rolls that disagree with the seed).
pub fn replay(fight: &OpenFight) -> Result<(Match, SeededDice, Vec<usize>)> {
    let mut rng = SeededDice::new(fight.seed);
    let mut steps = fight.steps.iter();
    let Some(first) = steps.next() else {
        anyhow::bail!("fight #{} has no start step", fight.id);
    };
    let mut mismatches = Vec::new();
    let mut offset = 0;
    let mut dice = ReplayDice::new(&mut rng, first.rolls.clone());
    let (mut m, _) = Match::start(fight.setup.clone(), &mut dice);
    mismatches.extend(dice.mismatches.iter().map(|i| i + offset));
    offset += first.rolls.len();
    for (n, step) in steps.enumerate() {
        let (Some(side), Some(decision)) = (step.side, step.decision) else {
            anyhow::bail!("fight #{} step {} has no decision", fight.id, n + 1);
        };
        let mut dice = ReplayDice::new(&mut rng, step.rolls.clone());
        m.decide(side, decision, &mut dice).map_err(|e| {
            anyhow::anyhow!("fight #{} step {} no longer replays: {e}", fight.id, n + 1)
        })?;
        mismatches.extend(dice.mismatches.iter().map(|i| i + offset));
        offset += step.rolls.len();
    }
    Ok((m, rng, mismatches))
}
