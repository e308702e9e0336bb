//! How a channel's fights are told: in full (a line an event, a line a prompt) or compact (a
//! step in one line, with the prompt it leads to on the same line).
//!
//! A channel's narration is, in order: a moderator's `/narration` choice, remembered in the
//! books; the configuration's `[narration.channels]`; its `[narration] default`; else the
//! transport's own default, compact on IRC and Discord, full in the console and in transcripts.
//!
//! A compact line keeps every sum that shows a modifier ("Lance 60 vs 65 (40 + 25 sweep)"); its
//! clauses are parted by [`CLAUSE`] and a prompt follows [`PROMPT`], so that a reader of prompts
//! (Discord's buttons) finds each one whole between the marks, as names cannot hold them (R122).

use crate::render::{narrate, roll_sums, Names};
use herald_engine::psiknight::event::{Action, Counter, Event, Height, RollSkill};
use herald_engine::psiknight::Side;
use serde::Deserialize;
use std::collections::BTreeMap;

/// How a channel's fights are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Narration {
    /// A step in one line, with the prompt it leads to.
    Compact,
    /// A line an event and a line a prompt.
    Full,
}

impl Narration {
    /// The word for it in `/narration` and in the configuration.
    pub fn word(self) -> &'static str {
        match self {
            Narration::Compact => "compact",
            Narration::Full => "full",
        }
    }

    /// The mode a word names, in any case.
    pub fn from_word(word: &str) -> Option<Narration> {
        [Narration::Compact, Narration::Full]
            .into_iter()
            .find(|n| n.word().eq_ignore_ascii_case(word.trim()))
    }
}

/// `[narration]`: how fights are told, for every channel (`default`) or for some
/// (`[narration.channels]`); a moderator's `/narration` in a channel outranks both.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NarrationConfig {
    /// Every channel's narration; unset, each transport's own (compact on IRC and Discord, full
    /// in the console and in transcripts).
    pub default: Option<Narration>,
    /// Channel name = "compact" or "full".
    pub channels: BTreeMap<String, Narration>,
}

impl NarrationConfig {
    /// The configured narration of `channel` (names compared in any case), if any.
    pub fn of(&self, channel: &str) -> Option<Narration> {
        self.channels
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(channel))
            .map(|(_, n)| *n)
            .or(self.default)
    }
}

/// Parts the clauses of a compact line.
pub const CLAUSE: &str = " · ";

/// Comes before each prompt on a compact line.
pub const PROMPT: &str = " ▸ ";

/// The clauses of a line, joined, without their full stops.
pub fn join(clauses: impl IntoIterator<Item = String>) -> String {
    clauses
        .into_iter()
        .map(|c| c.trim_end_matches('.').to_string())
        .filter(|c| !c.is_empty())
        .collect::<Vec<_>>()
        .join(CLAUSE)
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
                let target = crate::render::signed(*target);
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

    #[test]
    fn a_word_names_a_mode_in_any_case() {
        assert_eq!(Narration::from_word(" Compact"), Some(Narration::Compact));
        assert_eq!(Narration::from_word("FULL"), Some(Narration::Full));
        assert_eq!(Narration::from_word("short"), None);
    }
}
