//! The PFP duel's events as narration, in the page's words: a pool with its dice and
//! penalties, a keep with its double's effect, a test with both results, each loss, payment,
//! contact and damage with what it leaves, each citing its ruling.

use super::prompt::{faces, test_name};
use crate::games::Sides;
use herald_engine::game::Side;
use herald_engine::pfpduel::event::{
    ActionKind, ContactEndWhy, DamageWhy, DoubleTestWhy, GroundWhy, MentalKind, PenaltyWhy, Role,
    Via, WonBy,
};
use herald_engine::pfpduel::{DoubleEffect, EndReason, Event};

/// A double's effect as the page names it.
fn effect_name(e: DoubleEffect) -> &'static str {
    match e {
        DoubleEffect::Control => "Loss of control (PF9)",
        DoubleEffect::Maneuver => "Psionic maneuver (PF10)",
        DoubleEffect::Flaw => "Flaw (PF12)",
        DoubleEffect::Tactical => "Tactical advantage (PF11)",
        DoubleEffect::Unleash => "Psychic Unleash (PF16)",
        DoubleEffect::Iron => "Iron Will (PF12)",
        DoubleEffect::Vanish => "Mental Disappearance (PF13)",
        DoubleEffect::Weaken => "Weakening of will (PF14)",
        DoubleEffect::Unbalance => "Unbalance (PF7)",
    }
}

fn mental_name(k: MentalKind) -> &'static str {
    match k {
        MentalKind::Pain => "Psychic pain",
        MentalKind::Mental => "Mental block",
        MentalKind::Physical => "Physical blockage",
        MentalKind::Puppet => "Puppet",
    }
}

fn penalty_name(w: PenaltyWhy) -> &'static str {
    match w {
        PenaltyWhy::Ground => "on the ground, PF21",
        PenaltyWhy::OpenMind => "open mind, PF22",
        PenaltyWhy::Invaded => "invaded, PF23",
        PenaltyWhy::MentalBlock => "mental block, PF18",
        PenaltyWhy::LossOfControl => "loss of control, PF9",
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Attacker => "attacker",
        Role::Defender => "defender",
        Role::Psionist => "psionist",
        Role::OpenMind => "open mind",
    }
}

fn plural(n: u8, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Narration of a step's events, one line each but for the round's head.
pub fn narrate(events: &[Event], sides: &Sides) -> Vec<String> {
    let name = |s: &Side| sides.styled[s.index()].as_str();
    let mut lines: Vec<String> = Vec::new();
    let mut focus: Vec<String> = Vec::new();
    let mut added: Option<u8> = None;
    // The round whose head was said: equal initiative pairs are thrown again under it.
    let mut header: Option<u32> = None;
    for e in events {
        match e {
            Event::FightStarted { sheets, .. } => {
                let each: Vec<String> = sheets
                    .iter()
                    .map(|s| {
                        if s.psionist {
                            format!(
                                "{}, a psionist of power {}, health {}",
                                name(&s.name),
                                s.power,
                                s.health
                            )
                        } else {
                            format!(
                                "{}, an open mind of aptitude {}, health {}",
                                name(&s.name),
                                s.aptitude,
                                s.health
                            )
                        }
                    })
                    .collect();
                lines.push(format!("{}.", each.join("; ")));
            }
            Event::PfpRolled { name: s, pfp, .. } => {
                focus.push(format!("{} {}", name(s), plural(*pfp, "PFP", "PFP")));
            }
            Event::Initiative { round, dice, high } => {
                if !focus.is_empty() {
                    lines.push(format!("Focus: {} (PF28).", focus.join(", ")));
                    focus.clear();
                }
                let pair = format!(
                    "{} {}, {} {}",
                    sides.styled[0], dice.0[0], sides.styled[1], dice.0[1]
                );
                let head = if header == Some(*round) {
                    String::new()
                } else {
                    format!("— Round {round} — ")
                };
                header = Some(*round);
                match high {
                    None => lines.push(format!(
                        "{head}Initiative: {pair}: equal, thrown again (PF4)."
                    )),
                    Some(h) => lines.push(format!(
                        "{head}Initiative: {pair}: {} is high (activates first), {} low (tests first) (PF4).",
                        name(h),
                        name(&h.other())
                    )),
                }
            }
            Event::Activation { name: s, ap, .. } => {
                lines.push(format!("{}'s activation: {ap} AP.", name(s)));
            }
            Event::ActivationEnded { name: s, ap, .. } => {
                lines.push(format!(
                    "{}'s activation ends ({} left).",
                    name(s),
                    plural(*ap, "AP", "AP")
                ));
            }
            Event::Action {
                name: s,
                action,
                ap,
                psionic_actions,
            } => {
                let what = match action {
                    ActionKind::Duel => "provokes a psionic duel",
                    ActionKind::Contact => "tries to contact the open mind",
                    ActionKind::Effect => "applies a mental effect",
                    ActionKind::Recover => "recovers (2 PFP at the round's end, PF27)",
                    ActionKind::Eject => "tries to eject the intruder (PF24)",
                    ActionKind::Move => "moves",
                };
                lines.push(format!(
                    "{} {what}: {ap} AP left, {psionic_actions}/2 psionic actions.",
                    name(s)
                ));
            }
            Event::DiceAdded { dice, .. } => added = Some(*dice),
            Event::Pool {
                name: s,
                test,
                role,
                base,
                added: n,
                penalties,
                size,
                faces: f,
            } => {
                let mut sum = format!("{base} + {}", added.take().unwrap_or(*n));
                for p in penalties.iter() {
                    sum.push_str(&format!(" − {} ({})", p.dice, penalty_name(p.why)));
                }
                lines.push(format!(
                    "{} throws for the {} ({}): {sum} = {}: {}.",
                    name(s),
                    test_name(*test),
                    role_name(*role),
                    plural(*size, "die", "dice"),
                    faces(f.as_slice())
                ));
            }
            Event::Keep {
                name: s,
                kept,
                double,
                effect,
                rekeep,
            } => {
                let again = if *rekeep { " again" } else { "" };
                let what = match (double, effect) {
                    (true, Some(e)) => format!(": a double, {}", effect_name(*e)),
                    (true, None) => ": a double, no effect".into(),
                    _ => String::new(),
                };
                lines.push(format!(
                    "{} keeps{again} {}{what}.",
                    name(s),
                    faces(kept.as_slice())
                ));
            }
            Event::Reroll {
                name: s,
                by,
                old,
                new,
                faces: f,
            } => lines.push(format!(
                "{}'s Maneuver rerolls {}'s {old}: {new} (now {}) (PF10).",
                name(by),
                name(s),
                faces(f.as_slice())
            )),
            Event::DieLost {
                name: s,
                die,
                kept,
                ..
            } => lines.push(format!(
                "Loss of control: {} loses the {die} kept and keeps {} (PF9).",
                name(s),
                faces(kept.as_slice())
            )),
            Event::IronWill {
                name: s,
                die,
                shield,
            } => lines.push(format!(
                "Iron Will: {} throws {die}: {shield} PFP of losses absorbed this round (PF12).",
                name(s)
            )),
            Event::Weakened {
                name: s,
                until_round,
                power_score,
                ..
            } => lines.push(format!(
                "Weakening of will: {}'s power score is {power_score} until the end of round {until_round} (PF14).",
                name(s)
            )),
            Event::Test {
                kind,
                sides: both,
                winner,
                by,
                difference,
                ..
            } => {
                let each: Vec<String> = both
                    .iter()
                    .map(|t| {
                        let effects: Vec<&str> = t.effects.iter().map(|e| e.word()).collect();
                        let effects = if effects.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", effects.join(", "))
                        };
                        format!(
                            "{} {} + {} = {}{effects}",
                            name(&t.name),
                            t.kept
                                .as_slice()
                                .iter()
                                .map(u8::to_string)
                                .collect::<Vec<_>>()
                                .join("+"),
                            t.score,
                            t.result
                        )
                    })
                    .collect();
                let end = match (winner, by) {
                    (Some(w), WonBy::Result) => format!("{} wins by {difference}", name(w)),
                    (Some(w), WonBy::Dice) => {
                        format!("equal: {} wins on the unkept dice (PF6)", name(w))
                    }
                    (Some(w), WonBy::Tactical) => {
                        format!("equal: {}'s Tactical advantage wins (PF11)", name(w))
                    }
                    _ => "a tie: no winner (PF6)".into(),
                };
                let mut title = test_name(*kind).to_string();
                if let Some(c) = title.get_mut(..1) {
                    c.make_ascii_uppercase();
                }
                lines.push(format!("{title}: {} vs {}: {end}.", each[0], each[1]));
            }
            Event::PfpLost {
                name: s,
                difference,
                flaw,
                unleash,
                shield,
                lost,
                pfp,
                ..
            } => {
                let mut parts = Vec::new();
                if let Some(d) = difference {
                    parts.push(format!("the difference {d}"));
                }
                if let Some(f) = flaw.filter(|f| *f > 0) {
                    parts.push(format!("{f} for Flaw"));
                }
                if let Some(u) = unleash.filter(|u| !u.is_empty()) {
                    parts.push(format!("Unleash {}", faces(u.as_slice())));
                }
                if *shield > 0 {
                    parts.push(format!("less {shield} of Iron Will"));
                }
                let why = if parts.is_empty() {
                    "the backlash: all his PFP (PF16)".to_string()
                } else {
                    parts.join(", ")
                };
                lines.push(format!(
                    "{} loses {} ({why}): {} left.",
                    name(s),
                    plural(*lost, "PFP", "PFP"),
                    plural(*pfp, "PFP", "PFP")
                ));
            }
            Event::PfpSpent {
                name: s,
                amount,
                pfp,
                ..
            } => lines.push(format!(
                "{} pays {}: {} left.",
                name(s),
                plural(*amount, "PFP", "PFP"),
                plural(*pfp, "PFP", "PFP")
            )),
            Event::OpenMind { name: s } => lines.push(format!(
                "{} is at 0 PFP: an open mind (PF15).",
                name(s)
            )),
            Event::Contact {
                psionist,
                victim,
                via,
            } => lines.push(match via {
                Via::Duel => format!(
                    "{} enters {}'s mind (PF15).",
                    name(psionist),
                    name(victim)
                ),
                Via::Contact => format!(
                    "{} is in {}'s mind (PF24).",
                    name(psionist),
                    name(victim)
                ),
            }),
            Event::ContactBlocked { psionist, victim } => lines.push(format!(
                "{} blocks {}'s contact (PF24).",
                name(victim),
                name(psionist)
            )),
            Event::ContactEnded {
                psionist,
                victim,
                why,
            } => {
                let why = match why {
                    ContactEndWhy::Ejected => "ejected (PF24)",
                    ContactEndWhy::Released => "released (PF26)",
                    ContactEndWhy::Unpaid => "no PFP to keep it (PF26)",
                    ContactEndWhy::Damage => "hurt, he loses his contacts (PF25)",
                };
                lines.push(format!(
                    "{} is out of {}'s mind: {why}.",
                    name(psionist),
                    name(victim)
                ));
            }
            Event::Effect {
                psionist,
                victim,
                effect,
                strength,
                free,
                actions,
                ..
            } => {
                let detail = match effect {
                    MentalKind::Pain => String::new(),
                    MentalKind::Mental => {
                        format!(": {} fewer to eject (PF18)", plural(*strength, "die", "dice"))
                    }
                    MentalKind::Physical => format!(
                        ": {} held in stock (PF19)",
                        plural(*strength, "action", "actions")
                    ),
                    MentalKind::Puppet => {
                        let words: Vec<&str> = actions
                            .iter()
                            .map(|a| match a {
                                herald_engine::pfpduel::event::PuppetAction::Strike => "strike",
                                herald_engine::pfpduel::event::PuppetAction::Ground => "ground",
                            })
                            .collect();
                        format!(": {} (PF20)", words.join(", "))
                    }
                };
                let free = if *free {
                    ", the first PFP free (PF15)"
                } else {
                    ""
                };
                lines.push(format!(
                    "{}'s {} {strength} on {}{free}{detail}.",
                    name(psionist),
                    mental_name(*effect),
                    name(victim)
                ));
            }
            Event::Damage {
                name: s,
                amount,
                why,
                die,
                health,
            } => {
                let why = match why {
                    DamageWhy::Pain => "psychic pain".to_string(),
                    DamageWhy::Puppet => "a puppet's strike (PF20)".to_string(),
                    DamageWhy::Tactical => "Tactical advantage (PF11)".to_string(),
                    DamageWhy::Unleash => "Psychic Unleash (PF16)".to_string(),
                    DamageWhy::Backlash => {
                        format!("backlash, 1d6 = {} (PF16)", die.unwrap_or(*amount))
                    }
                };
                lines.push(format!(
                    "{} takes {amount} damage ({why}): health {health}.",
                    name(s)
                ));
            }
            Event::DoubleTest {
                name: s,
                why,
                size,
                faces: f,
                success,
                ..
            } => {
                let why = match why {
                    DoubleTestWhy::Unbalance => "Unbalance",
                    DoubleTestWhy::Backlash => "backlash",
                };
                lines.push(format!(
                    "{}'s {why} test, {}: {}: {} (PF7).",
                    name(s),
                    plural(*size, "die", "dice"),
                    faces(f.as_slice()),
                    if *success {
                        "a double, passed"
                    } else {
                        "no double, failed"
                    }
                ));
            }
            Event::Grounded { name: s, why } => lines.push(format!(
                "{} is on the ground ({}): one die fewer on every test (PF21).",
                name(s),
                match why {
                    GroundWhy::Unbalance => "Unbalance",
                    GroundWhy::Puppet => "a puppet",
                }
            )),
            Event::StoodUp { name: s } => lines.push(format!("{} stands up (PF21).", name(s))),
            Event::Vanished {
                name: s,
                attacker,
                until_round,
            } => lines.push(format!(
                "Mental Disappearance: {} cannot duel or contact {} until the end of round {until_round} (PF13).",
                name(attacker),
                name(s)
            )),
            Event::ApBlocked {
                name: s,
                by,
                amount,
                ap,
                hold_left,
            } => lines.push(format!(
                "{} takes {} from {} (PF19): {} AP left, {hold_left} held in stock.",
                name(by),
                plural(*amount, "action", "actions"),
                name(s),
                ap
            )),
            Event::Maintained {
                psionist, victim, ..
            } => lines.push(format!(
                "{} keeps the contact in {}'s mind (PF26).",
                name(psionist),
                name(victim)
            )),
            Event::PfpRecovered {
                name: s,
                gained,
                pfp,
                ..
            } => lines.push(format!(
                "{} recovers {gained} PFP: {} (PF27).",
                name(s),
                plural(*pfp, "PFP", "PFP")
            )),
            Event::RoundEnded { round } => lines.push(format!("Round {round} ends.")),
            Event::FightEnded {
                winner,
                loser,
                reason,
                ..
            } => lines.push(match (winner, loser, reason) {
                (Some(w), Some(l), EndReason::Knockout) => format!(
                    "{} wins: {} is knocked out (PF33).",
                    name(w),
                    name(l)
                ),
                (Some(w), Some(l), EndReason::Yield) => {
                    format!("{} wins: {} yields (PF33).", name(w), name(l))
                }
                (Some(w), _, EndReason::Resisted) => format!(
                    "{} wins: the open mind resisted ten rounds (PF32).",
                    name(w)
                ),
                (None, _, EndReason::Knockout) => {
                    "A draw: both are knocked out (PF33).".to_string()
                }
                _ => "A draw: ten rounds are over (PF32).".to_string(),
            }),
        }
    }
    if !focus.is_empty() {
        lines.push(format!("Focus: {} (PF28).", focus.join(", ")));
    }
    lines
}
