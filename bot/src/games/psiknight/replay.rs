//! A joust told again from the books for its replay ([`crate::games::GameInfo::replay`]): the
//! knights' sheets as they fought, and each step in the words of the channel's full narration.

use super::render::narrate;
use crate::config::Config;
use crate::games::replay::{Replay, ReplayStep};
use crate::store::history::FightSummary;
use crate::store::Store;
use anyhow::Result;
use futures::future::BoxFuture;
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
        let mut steps = Vec::with_capacity(fight.steps.len());
        crate::live::replay_with::<Match>(
            fight.id,
            fight.setup.clone(),
            fight.seed,
            fight.steps.iter().cloned().map(Ok),
            |step, events| {
                let head = match (step.side, step.decision) {
                    (Some(side), Some(decision)) => format!("{}: {decision}", names[side.index()]),
                    _ => "Start".to_string(),
                };
                steps.push(ReplayStep {
                    head,
                    // A joust's replay shows its events in words only.
                    events: Vec::new(),
                    lines: narrate(&events, &names),
                    rolls: step.rolls.clone(),
                });
                Ok(())
            },
        )?;
        Ok(Replay { sheets, steps })
    })
}
