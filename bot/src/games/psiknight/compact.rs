//! A joust's start and steps told compact (see [`crate::narration`]), a step and the prompt it
//! leads to in one line.

use super::render::{narrate, prompt_line, roll_sums, Names};
use super::{Lines, Tiltyard, NOT_RECORDED_END, NOT_RECORDED_START};
use crate::narration::{join, CLAUSE, PROMPT};
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::event::{Action, Counter, Height, RollSkill};
use herald_engine::psiknight::{Decision, Event, Side};

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
        let step = sentence(join(clauses(events, &f.own.sides.plain)));
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
        said.extend(clauses(events, &f.own.sides.plain));
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
        if f.fight.is_over() {
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
        let left = f.left(now);
        let prompts: Vec<String> = f
            .fight
            .pending()
            .iter()
            .map(|p| prompt_line(&f.fight, p, &f.own.sides.plain, &f.own.sides.users, left))
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

/// Adds a clause, after the heading waiting for one.
fn push(out: &mut Vec<String>, heading: &mut Option<String>, text: String) {
    match heading.take() {
        Some(h) => out.push(format!("{h} {text}")),
        None => out.push(text),
    }
}

/// What a roll follows, if anything: the move it is part of.
struct Lead {
    knight: Side,
    text: String,
    /// Whether its roll says hit or miss (a strike or an attack) rather than success or failure.
    blow: bool,
}

/// A batch of events as clauses: the rolls of one skill by both knights in one group
/// ("Observe: Dara 96/40 ✗, Eoin 82/30 ✗"), a move and its roll in one clause ("Aline attacks:
/// Sword 76 vs 40, miss"); every other event as the full narration says it.
pub fn clauses(events: &[Event], names: &Names) -> Vec<String> {
    let n = |s: Side| names[s.index()].as_str();
    let mut out: Vec<String> = Vec::new();
    // A heading ("Pass 1 —") the next clause is written after.
    let mut heading: Option<String> = None;
    let mut lead: Option<Lead> = None;
    // The skill of the group of rolls the last clause is, if it is one.
    let mut group: Option<RollSkill> = None;
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::PassStarted { pass } => {
                if let Some(l) = lead.take() {
                    push(&mut out, &mut heading, l.text);
                }
                group = None;
                heading = Some(format!("Pass {pass} —"));
            }
            Event::BonusSpent { .. } => {}
            Event::Strike { knight, height } => {
                let aim = match height {
                    Height::High => "High",
                    Height::Low => "Low",
                };
                group = None;
                lead = Some(Lead {
                    knight: *knight,
                    text: format!("{} aims {aim}", n(*knight)),
                    blow: true,
                });
            }
            Event::Action { knight, action } => {
                let what = match action {
                    Action::Attack => "attacks",
                    Action::Observe => "observes",
                    Action::Press => "presses (+25 Sword; Luck to defend next)",
                };
                group = None;
                lead = Some(Lead {
                    knight: *knight,
                    text: format!("{} {what}", n(*knight)),
                    blow: !matches!(action, Action::Observe),
                });
            }
            Event::Counter { knight, counter } => {
                let what = match counter {
                    Counter::Block => "blocks",
                    Counter::Dodge => "dodges",
                    Counter::Parry => "parries",
                    Counter::Luck => "trusts to Luck after pressing",
                };
                group = None;
                lead = Some(Lead {
                    knight: *knight,
                    text: format!("{} {what}", n(*knight)),
                    blow: false,
                });
            }
            Event::Roll {
                knight,
                skill,
                roll,
                target,
                success,
                base,
                modifiers,
                cap,
                automatic,
            } => {
                let sums = roll_sums(*base, modifiers, *cap);
                let auto = match automatic {
                    Some(true) => " (Hypercognition)",
                    Some(false) => " (reversed Hypercognition)",
                    None => "",
                };
                let target = super::render::signed(*target);
                if let Some(l) = lead.take().filter(|l| l.knight == *knight) {
                    let verdict = match (l.blow, *success) {
                        (true, true) => "hit",
                        (true, false) => "miss",
                        (false, true) => "success",
                        (false, false) => "failure",
                    };
                    push(
                        &mut out,
                        &mut heading,
                        format!(
                            "{}: {} {roll} vs {target}{sums}, {verdict}{auto}",
                            l.text,
                            skill.title()
                        ),
                    );
                    group = None;
                    continue;
                } else if let Some(l) = lead.take() {
                    push(&mut out, &mut heading, l.text);
                }
                let mark = if *success { "✓" } else { "✗" };
                let one = format!("{} {roll}/{target}{sums} {mark}{auto}", n(*knight));
                // Rolls of one skill side by side (Observe, Ride) make one group.
                let next_same = matches!(
                    events.get(i + 1),
                    Some(Event::Roll { skill: s, knight: k, .. }) if s == skill && k != knight
                );
                match (group, out.last_mut()) {
                    (Some(g), Some(last)) if g == *skill => {
                        last.push_str(&format!(", {one}"));
                        group = None;
                    }
                    _ if next_same => {
                        push(&mut out, &mut heading, format!("{}: {one}", skill.title()));
                        group = Some(*skill);
                    }
                    _ => {
                        push(
                            &mut out,
                            &mut heading,
                            format!(
                                "{} {} {roll} vs {target}{sums}, {}{auto}",
                                n(*knight),
                                skill.title(),
                                if *success { "success" } else { "failure" }
                            ),
                        );
                        group = None;
                    }
                }
            }
            other => {
                if let Some(l) = lead.take() {
                    push(&mut out, &mut heading, l.text);
                }
                group = None;
                let text = match other {
                    Event::Sweep {
                        knight,
                        sweep: true,
                    } => {
                        format!("{} sweeps (+25 Lance)", n(*knight))
                    }
                    Event::Bonus {
                        knight,
                        amount,
                        total,
                    } if amount != total => {
                        format!("{} +{amount}: Bonus +{total}", n(*knight))
                    }
                    Event::Bonus { knight, amount, .. } => {
                        format!("{} +{amount} Bonus", n(*knight))
                    }
                    // "— Swordplay — Dara goes first": the dashes set a line apart, not a clause.
                    _ => narrate(std::slice::from_ref(other), names)
                        .join(" ")
                        .trim_start_matches("— ")
                        .to_string(),
                };
                if !text.is_empty() {
                    push(&mut out, &mut heading, text);
                }
            }
        }
    }
    if let Some(l) = lead.take() {
        push(&mut out, &mut heading, l.text);
    }
    if let Some(h) = heading {
        out.push(h.trim_end_matches(" —").to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_engine::psiknight::event::{ModKind, Modifier, Modifiers};

    fn names() -> Names {
        ["Dara".into(), "Eoin".into()]
    }

    fn roll(knight: Side, skill: RollSkill, roll: u32, target: i32, success: bool) -> Event {
        Event::Roll {
            knight,
            skill,
            roll,
            target,
            success,
            base: target,
            modifiers: Modifiers::new(),
            cap: None,
            automatic: None,
        }
    }

    // Issue 15, item 8: a pass's opening rolls in one clause per skill, both knights side by side.
    #[test]
    fn the_rolls_of_one_skill_make_one_group() {
        let (d, e) = (Side::Challenger, Side::Challenged);
        let events = [
            Event::PassStarted { pass: 1 },
            roll(d, RollSkill::Observe, 96, 40, false),
            roll(e, RollSkill::Observe, 82, 30, false),
            roll(d, RollSkill::Ride, 23, 30, true),
            roll(e, RollSkill::Ride, 37, 40, true),
        ];
        assert_eq!(
            join(clauses(&events, &names())),
            "Pass 1 — Observe: Dara 96/40 ✗, Eoin 82/30 ✗ · Ride: Dara 23/30 ✓, Eoin 37/40 ✓"
        );
    }

    // R10's sweep and every other modifier stay in the sum, beside the move that rolled.
    #[test]
    fn a_move_and_its_roll_are_one_clause_with_the_sums() {
        let e = Side::Challenged;
        let events = [
            Event::Strike {
                knight: e,
                height: Height::High,
            },
            Event::Roll {
                knight: e,
                skill: RollSkill::Lance,
                roll: 60,
                target: 65,
                success: true,
                base: 40,
                modifiers: {
                    let mut m = Modifiers::new();
                    m.push(Modifier {
                        kind: ModKind::Sweep,
                        value: 25,
                    });
                    m
                },
                cap: None,
                automatic: None,
            },
            roll(Side::Challenger, RollSkill::Shield, 97, 30, false),
        ];
        assert_eq!(
            join(clauses(&events, &names())),
            "Eoin aims High: Lance 60 vs 65 (40 + 25 sweep), hit · Dara Shield 97 vs 30, failure"
        );
    }

    #[test]
    fn an_attack_says_hit_or_miss() {
        let events = [
            Event::Action {
                knight: Side::Challenger,
                action: Action::Attack,
            },
            roll(Side::Challenger, RollSkill::Sword, 76, 40, false),
        ];
        assert_eq!(
            join(clauses(&events, &names())),
            "Dara attacks: Sword 76 vs 40, miss"
        );
    }
}
