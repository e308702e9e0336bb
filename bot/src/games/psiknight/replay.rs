//! A joust told again from the books for its replay ([`crate::games::GameInfo::replay`]): the
//! knights' sheets as they fought, and each step in the words of the channel's full narration.

use super::render::narrate;
use crate::config::Config;
use crate::games::replay::{Replay, ReplayStep};
use crate::store::history::FightSummary;
use crate::store::Store;
use anyhow::Result;
use futures::future::BoxFuture;
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::{Match, PsiSkill, Skill};

/// Fight `f` (a joust of PsiKnight's) replayed from its seed and decisions.
pub fn replay<'a>(
    store: &'a Store,
    _config: &'a Config,
    f: &'a FightSummary,
) -> BoxFuture<'a, Result<Replay>> {
    Box::pin(async move {
        let fight = store.fight(f.id).await?;
        let mut names = [String::new(), String::new()];
        for (i, id) in fight.knights.iter().enumerate() {
            names[i] = match store.knight(*id).await? {
                Some(k) => k.styled(),
                None => fight.setup.knights[i].name.clone(),
            };
        }
        let sheets = fight.setup.knights.clone().map(|k| {
            let mut rows = vec![
                ("name".to_string(), k.name.clone()),
                ("monarch".to_string(), k.monarch.name().to_string()),
            ];
            rows.extend(
                Skill::ALL
                    .iter()
                    .map(|s| (s.name().to_string(), k.skill(*s).to_string())),
            );
            rows.extend(
                PsiSkill::ALL
                    .iter()
                    .filter(|s| k.psi(**s) > 0)
                    .map(|s| (s.name().to_string(), k.psi(*s).to_string())),
            );
            rows
        });
        let mut rng = SeededDice::new(fight.seed);
        let mut steps = Vec::new();
        let mut m: Option<Match> = None;
        for (n, step) in fight.steps.iter().enumerate() {
            let mut dice = crate::dice::ReplayDice::new(&mut rng, step.rolls.clone());
            let (events, head) = match (&mut m, step.side, step.decision) {
                (None, _, _) => {
                    let (started, events) = Match::start(fight.setup.clone(), &mut dice);
                    m = Some(started);
                    (events, "Start".to_string())
                }
                (Some(m), Some(side), Some(decision)) => {
                    let events = m.decide(side, decision, &mut dice).map_err(|e| {
                        anyhow::anyhow!("fight #{} step {n} no longer replays: {e}", f.id)
                    })?;
                    let who = &names[side.index()];
                    (events, format!("{who}: {decision}"))
                }
                _ => anyhow::bail!("fight #{} step {n} has no decision", f.id),
            };
            steps.push(ReplayStep {
                head,
                // A joust's replay shows its events in words only.
                events: Vec::new(),
                lines: narrate(&events, &names),
                rolls: step.rolls.clone(),
            });
        }
        Ok(Replay { sheets, steps })
    })
}
