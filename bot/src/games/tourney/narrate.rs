//! The Tourney's events as narration: an attack in one line, every total with its parts
//! ("3+6-1 (down) = 8"), what follows it (damage, the fumble die, a fall) on the same line.

use crate::games::Sides;
use herald_engine::game::Side;
use herald_engine::tourney::event::{
    ActionKind, EndReason, ExchangeRule, FumbleEffect, Natural, TestKind,
};
use herald_engine::tourney::{Event, WeaponState};

/// "3+6-1 (down) = 8 (fumble)".
fn sum(
    die: u8,
    base: i32,
    modifiers: &herald_engine::tourney::event::Modifiers,
    total: i32,
    natural: Option<Natural>,
) -> String {
    let mut s = format!("{die}+{base}");
    for m in modifiers.iter() {
        let reason = match m.reason.name() {
            "health_1" => "Health 1",
            "down" => "down",
            "two_handed_defence" => "two-handed",
            other => other,
        };
        s.push_str(&format!("{:+} ({reason})", m.value));
    }
    s.push_str(&format!(" = {total}"));
    match natural {
        Some(Natural::Critical) => s.push_str(" (critical)"),
        Some(Natural::Fumble) => s.push_str(" (fumble)"),
        None => {}
    }
    s
}

fn rule(rule: ExchangeRule) -> &'static str {
    match rule {
        ExchangeRule::Beat => "hit",
        ExchangeRule::Tie => "a tie is parried (T3)",
        ExchangeRule::Lower => "parried",
        ExchangeRule::AttackerCritical => "a critical hits (T2)",
        ExchangeRule::DefenderCritical => "a critical parries (T2)",
        ExchangeRule::AttackerFumble => "a fumble misses (T2)",
        ExchangeRule::DefenderFumble => "a fumble is hit (T4)",
        ExchangeRule::BothCritical => "both critical: nothing happens (T4)",
        ExchangeRule::BothFumble => "both fumble: nothing happens (T4)",
    }
}

/// Narration of a step's events.
pub fn narrate(events: &[Event], sides: &Sides) -> Vec<String> {
    let name = |s: &Side| sides.styled[s.index()].as_str();
    let mut lines: Vec<String> = Vec::new();
    // Parts of the line being built, joined with ". " when it closes.
    let mut line: Vec<String> = Vec::new();
    let mut roll_off: Vec<String> = Vec::new();
    let mut attack: Option<String> = None;
    let flush = |line: &mut Vec<String>, lines: &mut Vec<String>| {
        if !line.is_empty() {
            lines.push(format!("{}.", line.join(". ")));
            line.clear();
        }
    };
    for e in events {
        match e {
            Event::FightStarted { .. } => {}
            Event::RollOff { knight, die } => roll_off.push(format!("{} {die}", name(knight))),
            Event::FirstActor { knight, rule } => {
                let why = match rule {
                    herald_engine::tourney::event::FirstActorRule::RollOff => "T9",
                    herald_engine::tourney::event::FirstActorRule::Ties => {
                        "100 ties: the challenger, T9"
                    }
                };
                line.push(format!(
                    "Roll-off: {}: {} acts first ({why})",
                    roll_off.join(", "),
                    name(knight)
                ));
                roll_off.clear();
            }
            Event::RoundStarted { round } => {
                flush(&mut line, &mut lines);
                lines.push(format!("— Round {round} —"));
            }
            Event::Action { knight, action, .. } => {
                flush(&mut line, &mut lines);
                match action {
                    ActionKind::Yield => line.push(format!("{} yields (T14)", name(knight))),
                    ActionKind::Attack | ActionKind::Stand => {}
                }
            }
            Event::Test {
                knight,
                test,
                weapon,
                die,
                base,
                modifiers,
                total,
                target,
                natural,
                success,
                ..
            } => {
                let s = sum(*die, *base, modifiers, *total, *natural);
                match test {
                    TestKind::Attack => {
                        let w = weapon.map_or("", |w| w.label());
                        attack = Some(format!("{} attacks: {w} {s}", name(knight)));
                    }
                    TestKind::Defend => {
                        let w = weapon.map_or("", |w| w.label());
                        let a = attack.take().unwrap_or_default();
                        line.push(format!("{a} vs {} {w} {s}", name(knight)));
                    }
                    TestKind::Stand => line.push(format!(
                        "{} tries to stand: {s} vs {}: {}",
                        name(knight),
                        target.unwrap_or(3),
                        if *success {
                            "up (T8)"
                        } else {
                            "still down (T8)"
                        }
                    )),
                }
            }
            Event::Exchange { rule: r, .. } => {
                if let Some(last) = line.last_mut() {
                    last.push_str(&format!(": {}", rule(*r)));
                }
            }
            Event::Damage {
                knight,
                weapon,
                weapon_damage,
                strength_bonus,
                hits,
                health,
                ..
            } => line.push(format!(
                "{} takes {hits} ({} {weapon_damage} + Strength {strength_bonus}): Health {health}",
                name(knight),
                weapon.label()
            )),
            Event::FumbleEffect {
                knight,
                die,
                effect,
            } => line.push(match effect {
                FumbleEffect::WeaponDamaged => {
                    format!("{}'s fumble die {die}: weapon damaged (T6)", name(knight))
                }
                FumbleEffect::Fell => {
                    format!("{}'s fumble die {die}: he falls (T6, T8)", name(knight))
                }
            }),
            Event::WeaponState {
                knight,
                weapon,
                state,
            } => {
                if *state == WeaponState::Lost {
                    line.push(format!(
                        "{}'s {} breaks and is lost (T7)",
                        name(knight),
                        weapon.label()
                    ));
                }
            }
            Event::WeaponDrawn { knight, .. } => {
                line.push(format!("{} draws his dagger (T7)", name(knight)))
            }
            Event::Down { .. } => {}
            Event::YieldOffered { knight, .. } => line.push(format!(
                "{} is at Health 1 and may yield (T14)",
                name(knight)
            )),
            Event::Disarmed { knight } => line.push(format!(
                "{} has no weapon left: disarmed (T7)",
                name(knight)
            )),
            Event::Yielded { .. } => {}
            Event::FightEnded {
                winner,
                loser,
                reason,
                ..
            } => {
                flush(&mut line, &mut lines);
                let why = match reason {
                    EndReason::Out => format!(
                        "{} is out of the Tourney until the realm's next day (T15)",
                        name(loser)
                    ),
                    EndReason::Yielded => format!("{} yielded (T14)", name(loser)),
                    EndReason::Disarmed => format!("{} is disarmed (T7)", name(loser)),
                };
                lines.push(format!("{} wins: {why}.", name(winner)));
            }
        }
    }
    flush(&mut line, &mut lines);
    lines
}
