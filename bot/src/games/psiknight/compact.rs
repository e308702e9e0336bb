//! A joust's start and steps told compact (see [`crate::narration`]), a step and the prompt it
//! leads to in one line.

use super::{Lines, Tiltyard, NOT_RECORDED_END, NOT_RECORDED_START};
use crate::narration::{clauses, join, CLAUSE, PROMPT};
use crate::render::prompt_line;
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::{Decision, Event};

/// A line of clauses as a sentence: a full stop unless it already ends as one.
fn sentence(mut line: String) -> String {
    if !line.is_empty() && !line.ends_with(['.', '!', '?']) {
        line.push('.');
    }
    line
}

impl Tiltyard {
    /// A fight's first lines told compact: the fight and its notices in one line, the opening
    /// rolls and the first prompt in another. `lines` are the fight's line and notices; `told`,
    /// whether the challenge already said the fight is not recorded (once is enough).
    pub(super) fn compact_start(
        &self,
        lines: Lines,
        told: bool,
        events: &[Event],
        now: DateTime<Utc>,
    ) -> Lines {
        let head = lines
            .into_iter()
            .filter(|l| !(told && l == NOT_RECORDED_START))
            .collect::<Vec<_>>()
            .join(CLAUSE);
        let Some(f) = &self.fight else {
            return vec![head];
        };
        let step = sentence(join(clauses(events, &f.plain)));
        vec![head, self.with_prompts(step, now)]
    }

    /// A step told compact: who timed out, the events, the end of the fight with its awards
    /// (the "not recorded" notice was said before it started) and the prompt it leads to, in
    /// one line; a tournament's next lines after it.
    pub(super) async fn compact_step(
        &mut self,
        events: &[Event],
        decision: Decision,
        timed_out: Option<&str>,
        end_lines: Lines,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let mut said: Vec<String> = Vec::new();
        if let Some(who) = timed_out {
            said.push(format!(
                "{who} did not answer in time: /{} is taken",
                decision.word()
            ));
        }
        said.extend(clauses(events, &f.plain));
        // The end lines of the fight itself run to its seed; a tournament's own come after.
        let seed_line = end_lines
            .iter()
            .position(|l| l.starts_with("Fight #") && l.contains(" is over. Dice seed: "));
        let mut after = end_lines;
        let own: Vec<String> = match seed_line {
            Some(i) => after.drain(..=i).collect(),
            None => Vec::new(),
        };
        said.extend(own.into_iter().filter(|l| l != NOT_RECORDED_END));
        // The seed ends the line as it ends the full narration's, without a full stop to copy.
        let line = match seed_line {
            Some(_) => join(said),
            None => sentence(join(said)),
        };
        // A declaration changes no one's turn: the prompt already standing still holds.
        if matches!(decision, Decision::Bonus(_) | Decision::Psi(_)) {
            return Ok(vec![line]);
        }
        if f.m.is_over() {
            let mut lines = vec![line];
            lines.extend(after);
            lines.extend(self.after_step(now).await?);
            return Ok(lines);
        }
        Ok(vec![self.with_prompts(line, now)])
    }

    /// `line` with the prompts standing after it, each after [`PROMPT`].
    fn with_prompts(&self, line: String, now: DateTime<Utc>) -> String {
        let Some(f) = &self.fight else {
            return line;
        };
        let left = (f.deadline - now).num_seconds().max(0) as u64;
        let prompts: Vec<String> =
            f.m.pending()
                .iter()
                .map(|p| prompt_line(&f.m, p, &f.plain, &f.users, left))
                .collect();
        if prompts.is_empty() {
            return line;
        }
        let prompts = prompts.join(PROMPT);
        if line.is_empty() {
            prompts
        } else {
            format!("{}{PROMPT}{prompts}", line.trim_end_matches('.'))
        }
    }
}
