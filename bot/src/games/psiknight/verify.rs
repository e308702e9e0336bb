//! `herald verify` of a PsiKnight fight: replays it from the database and confirms its logged
//! outcome; a fight restored after a restart is replayed the same way.

use crate::store::{Id, OpenFight, Store};
use crate::verify::Report;
use anyhow::Result;
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::Match;

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

/// `herald verify` of a PsiKnight fight.
pub async fn verify_joust(store: &Store, id: Id) -> Result<Report> {
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
        Err(e) => return Ok(crate::verify::unplayable(id, &e)),
    };
    if let Some(report) = crate::verify::rolls_differ(id, &mismatches) {
        return Ok(report);
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
                crate::verify::scripted(&fight.steps)
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

/// Replays a stored fight ([`crate::live::replay`]): the match as it now stands, its stream
/// positioned after the last roll, and the rolls that disagree with the seed.
pub fn replay(fight: &OpenFight) -> Result<(Match, SeededDice, Vec<usize>)> {
    crate::live::replay(
        fight.id,
        fight.setup.clone(),
        fight.seed,
        fight.steps.iter().cloned().map(Ok),
    )
}
