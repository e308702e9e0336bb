//! Psionic combat's words: the narration of its events, its prompts, `/status`, refusals,
//! the sheet, and the events as JSON with the creatures' names.

use super::Sides;
use crate::store::games::Character;
use herald_engine::game::Prompt;
use herald_engine::powerpool::event::{
    Condition, ConditionWhy, EndWhy, ExchangeResult, FightOutcome, LossWhy, Role, SaveWhy, Seat,
    Seats, Skipped, NAME_FIELDS,
};
use herald_engine::powerpool::{
    Act, Combat, Decision, EndReason, Event, Phase, PuppetOrder, RuleError, Sheet, State,
};
use serde_json::Value;

/// The event as JSON with creatures' names for seats (the page's fields).
pub fn event_json(event: &Event, names: &[String]) -> Value {
    let mut v = serde_json::to_value(event).unwrap_or(Value::Null);
    let name = |n: &Value| -> Value {
        match n.as_u64() {
            Some(s) => Value::String(
                names
                    .get(s as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("#{s}")),
            ),
            None => n.clone(),
        }
    };
    fn deep(v: &Value, name: &dyn Fn(&Value) -> Value) -> Value {
        match v {
            Value::Array(items) => Value::Array(items.iter().map(|i| deep(i, name)).collect()),
            Value::Null => Value::Null,
            other => name(other),
        }
    }
    if let Value::Object(map) = &mut v {
        // `named` holds seats too: the attack's targets as typed.
        for field in NAME_FIELDS.iter().chain([&"named"]) {
            if let Some(x) = map.get_mut(*field) {
                *x = deep(x, &name);
            }
        }
    }
    v
}

fn who(sides: &Sides, seat: Seat) -> &str {
    sides
        .members
        .get(seat as usize)
        .map_or("?", |m| m.plain.as_str())
}

fn list(sides: &Sides, seats: &Seats) -> String {
    let names: Vec<&str> = seats.as_slice().iter().map(|&s| who(sides, s)).collect();
    match names.as_slice() {
        [] => "no one".into(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn dice(n: u8, die: u8) -> String {
    format!("{n}d{die}")
}

/// Narration of events, one line each (a run of initiative rolls is one line).
pub fn narrate(events: &[Event], sides: &Sides) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut rolls: Vec<String> = Vec::new();
    let mut attempt = 0;
    let flush = |rolls: &mut Vec<String>, attempt: u8, lines: &mut Vec<String>| {
        if !rolls.is_empty() {
            let head = if attempt > 1 {
                "Initiative, rolled again for a tie"
            } else {
                "Initiative"
            };
            lines.push(format!("{head}: {} (PC7).", rolls.join(", ")));
            rolls.clear();
        }
    };
    for e in events {
        if let Event::Initiative {
            creature,
            roll,
            attempt: a,
        } = e
        {
            if *a != attempt {
                flush(&mut rolls, attempt, &mut lines);
                attempt = *a;
            }
            rolls.push(format!("{} {roll}", who(sides, *creature)));
            continue;
        }
        flush(&mut rolls, attempt, &mut lines);
        if let Some(line) = line(e, sides) {
            lines.push(line);
        }
    }
    flush(&mut rolls, attempt, &mut lines);
    lines
}

fn line(e: &Event, sides: &Sides) -> Option<String> {
    let w = |s: Seat| who(sides, s).to_string();
    Some(match *e {
        Event::FightStarted { sides: s } => {
            format!("Psionic combat: {} against {}.", list(sides, &s[0]), list(sides, &s[1]))
        }
        Event::ChallengeDeclined { creature } => format!("{} declines.", w(creature)),
        Event::Initiative { .. } => return None,
        Event::TurnOrder { order } => {
            let names: Vec<String> = order.as_slice().iter().map(|&s| w(s)).collect();
            format!("Turn order: {} (PC7).", names.join(", "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::Turn {
            creature,
            skipped,
            by,
            ..
        } => match (skipped, by) {
            (Some(Skipped::Stunned), _) => format!("{} is stunned and loses the turn (PC13).", w(creature)),
            (Some(Skipped::Dazed), _) => format!("{} is dazed and loses the turn (PC13, PC28).", w(creature)),
            (Some(Skipped::Unconscious), _) => format!("{} is unconscious and loses the turn (PC30).", w(creature)),
            (Some(Skipped::Controlled), _) => format!("{} is under control and loses the turn (PC21).", w(creature)),
            (None, Some(by)) => format!("{}'s turn: its possessor {} works the body (PC25).", w(creature), w(by)),
            (None, None) => format!("{}'s turn.", w(creature)),
        },
        Event::Pass { creature, auto } => {
            if auto {
                format!("{} has nothing to decide and passes (PC8).", w(creature))
            } else {
                format!("{} passes.", w(creature))
            }
        }
        Event::Attack {
            attacker,
            mode,
            named,
            defenders,
            dice: n,
            die,
            frighten,
        } => {
            let mut s = format!(
                "{} attacks {} with {}, {}.",
                w(attacker),
                list(sides, &defenders),
                mode.title(),
                dice(n, die)
            );
            if named != defenders {
                s.push_str(&format!(
                    " ({} named: a controlled creature's attack goes to its controller, PC23.)",
                    list(sides, &named)
                ));
            }
            if mode == herald_engine::powerpool::AttackMode::Subversion && !frighten {
                s.push_str(" Without fear (nofear, PC29).");
            }
            s
        }
        Event::Defense {
            creature,
            role,
            mode,
            able,
            dice: n,
            die,
            spells,
            bonus,
        } => {
            if !able && mode.is_none() && n == 0 {
                return Some(format!(
                    "{} cannot defend: defenceless, total 0 (PC12).",
                    w(creature)
                ));
            }
            let how = match (role, mode) {
                (Role::Target, Some(m)) => format!("{} defends with {}", w(creature), m.title()),
                (Role::Target, None) => format!("{} defends with no mode", w(creature)),
                (Role::Joined, _) => format!("{} joins the defense (Imagination Swarm, PC28)", w(creature)),
                (Role::Drawn, _) => format!("{} is drawn into the defense (PC28)", w(creature)),
            };
            let spent = if spells.is_empty() {
                String::new()
            } else {
                format!(", sacrificing spells {} for +{bonus} (PC15)", spells.csv())
            };
            format!("{how}, {}{spent}.", dice(n, die))
        }
        Event::Save {
            creature,
            why,
            roll,
            target,
            success,
        } => {
            let what = match why {
                SaveWhy::BlankMind => "against Blank Mind (PC18)",
                SaveWhy::Possession => "against the order to yield (PC25)",
            };
            format!(
                "{} saves {what}: {roll} vs {target}, {}.",
                w(creature),
                if success { "success" } else { "failure" }
            )
        }
        Event::PoolRoll {
            creature,
            die,
            faces,
            sum,
            bonus,
            total,
            ..
        } => {
            let f: Vec<String> = faces.as_slice().iter().map(u8::to_string).collect();
            let spells = if bonus > 0 {
                format!(" + {bonus} (spells) = {total}")
            } else {
                String::new()
            };
            format!(
                "{} rolls {}: {} = {sum}{spells}.",
                w(creature),
                dice(faces.as_slice().len() as u8, die),
                f.join("+")
            )
        }
        Event::Exchange {
            attacker,
            defenders,
            attack_total,
            defense_total,
            result,
        } => match result {
            ExchangeResult::Attacker => format!(
                "{} wins the exchange, {attack_total} to {} (PC16).",
                w(attacker),
                defense_total.unwrap_or(0)
            ),
            ExchangeResult::Defender => format!(
                "{} {} the exchange, {} to {attack_total} (PC17).",
                list(sides, &defenders),
                if defenders.len() == 1 { "wins" } else { "win" },
                defense_total.unwrap_or(0)
            ),
            ExchangeResult::Tie => format!(
                "A tie, {attack_total} to {attack_total}: no one wins the exchange (PC14)."
            ),
            ExchangeResult::BlankMind => format!(
                "{}'s attack is rebuffed by Blank Mind before any die is rolled (PC18).",
                w(attacker)
            ),
        },
        Event::Controlled {
            creature,
            controller,
            mode,
            ..
        } => {
            if mode == herald_engine::powerpool::AttackMode::Invasion {
                format!("{} is possessed by {} (PC25).", w(creature), w(controller))
            } else {
                format!(
                    "{} falls under {}'s control ({}, PC21).",
                    w(creature),
                    w(controller),
                    mode.title()
                )
            }
        }
        Event::Condition {
            creature,
            condition,
            why,
            of,
            ..
        } => {
            let c = w(creature);
            match (condition, why) {
                (Condition::Dazed, ConditionWhy::Attacked) => {
                    format!("{c} is dazed to the end of the round (PC10).")
                }
                (Condition::Dazed, _) => {
                    format!("{c} is dazed and loses its next turn (Imagination Swarm, PC28, PC13).")
                }
                (Condition::Stunned, ConditionWhy::BarrierMantra) => format!(
                    "{c} is stunned instead of controlled (Barrier Mantra, PC16) and loses its next turn (PC13)."
                ),
                (Condition::Stunned, ConditionWhy::BlankMind) => {
                    format!("{c} is stunned and loses its next turn (PC18, PC13).")
                }
                (Condition::Stunned, _) => {
                    format!("{c} is stunned and loses its next turn (PC17, PC13).")
                }
                (Condition::Frightened, _) => format!(
                    "{c} is frightened of {} until the fight ends: it may not attack it nor defend against it (PC29).",
                    of.map_or_else(|| "its attacker".into(), w)
                ),
                (Condition::Unconscious, _) => {
                    format!("{c} falls unconscious: out of the fight, no one dies (PC30).")
                }
            }
        }
        Event::Damage {
            creature,
            amount,
            hp,
            ..
        } => format!(
            "{} takes {amount} damage from Synaptic Overload: {hp} HP (PC30).",
            w(creature)
        ),
        Event::DieLost {
            creature,
            why,
            pool,
            lost,
        } => format!(
            "{} loses a die until rest ({}): pool {pool}, {lost} lost.",
            w(creature),
            match why {
                LossWhy::LostAttack => "PC17",
                LossWhy::BlankMind => "PC18",
            }
        ),
        Event::Dedicated {
            controller,
            creatures,
            dice: n,
            pool,
        } => format!(
            "{} dedicates {n} {} to holding {} (PC22): pool {pool}.",
            w(controller),
            if n == 1 { "die" } else { "dice" },
            list(sides, &creatures)
        ),
        Event::Maintained {
            controller,
            creatures,
        } => format!(
            "{} keeps {} with the turn's action (PC22).",
            w(controller),
            list(sides, &creatures)
        ),
        Event::ControlEnded {
            controller,
            creatures,
            why,
            returned,
            expended,
            pool,
        } => {
            let why = match why {
                EndWhy::Released => "released (PC22)",
                EndWhy::Lapsed => "not kept, it lapses (PC22)",
                EndWhy::ControllerLost => "its controller lost an attack (PC17)",
                EndWhy::ControllerControlled => "its controller fell under control (PC21)",
                EndWhy::Yielded => "a yield (PC32)",
                EndWhy::FightEnded => "the fight is over (PC36)",
            };
            let mut s = format!(
                "{}'s control of {} ends: {why}.",
                w(controller),
                list(sides, &creatures)
            );
            if returned > 0 {
                s.push_str(&format!(" {returned} dedicated back: pool {pool}."));
            }
            if expended > 0 {
                s.push_str(&format!(" {expended} dedicated expended until rest (PC21)."));
            }
            s
        }
        Event::PuppetOrder {
            controller,
            puppet,
            order,
        } => match order {
            PuppetOrder::Pass => format!("{} lets {} pass (PC25).", w(controller), w(puppet)),
            PuppetOrder::Yield => {
                format!("{} orders {} to yield (PC25).", w(controller), w(puppet))
            }
        },
        Event::Yielded { creature, forced } => {
            if forced {
                format!("{} yields, its body forced by its possessor (PC25).", w(creature))
            } else {
                format!("{} yields (PC32).", w(creature))
            }
        }
        Event::FightEnded {
            result,
            winners,
            losers,
            reason,
            rounds,
        } => match result {
            FightOutcome::Win => format!(
                "{} {} {} in round {rounds}: {} {} (PC31).",
                list(sides, &winners),
                if winners.len() == 1 { "wins" } else { "win" },
                match reason {
                    EndReason::Control => "by control",
                    EndReason::Unconscious => "by knocking out",
                    _ => "by a yield",
                },
                list(sides, &losers),
                match (reason, losers.len() == 1) {
                    (EndReason::Control, true) => "has no free creature left",
                    (EndReason::Control, false) => "have no free creature left",
                    (EndReason::Unconscious, true) => "is unconscious",
                    (EndReason::Unconscious, false) => "are unconscious or held",
                    (_, true) => "yielded",
                    (_, false) => "have no free creature left after a yield",
                }
            ),
            FightOutcome::Draw => match reason {
                EndReason::RoundLimit => {
                    format!("A draw: round {rounds} ends the fight (PC31).")
                }
                _ => format!(
                    "A draw in round {rounds}: a round passed in which someone could have attacked and no one did (PC31)."
                ),
            },
        },
    })
}

/// A prompt: `Ash (ann), your turn: /attack Brim stab, /pass, /yield (120s, then /attack Brim stab).`
pub fn prompt(fight: &Combat, p: &Prompt<Decision>, sides: &Sides, left: u64) -> String {
    let text = |d: &Decision| format!("/{}", d.act.text(&|s| fight.name(s).to_string()));
    let mut options: Vec<String> = p.options.iter().map(text).collect();
    if !p.options.iter().any(|d| d.act == Act::Yield) {
        options.push("/yield".into());
    }
    // The member awaited, by name and player (a side of several, PC33).
    let me = p.default.seat;
    let whom = match sides.members.get(me as usize) {
        Some(m) if !m.npc => format!("{} ({})", fight.name(me), m.user),
        _ => fight.name(me).to_string(),
    };
    let what = match fight.phase() {
        Phase::Puppet { puppet, .. } => format!("{}'s turn, your puppet", fight.name(puppet)),
        Phase::Defense if matches!(p.default.act, Act::Stay) => {
            "an ally is attacked, join or stay".to_string()
        }
        Phase::Defense => format!("defend ({} dice in your pool)", fight.pool(me)),
        _ => p.what.to_string(),
    };
    format!(
        "{whom}, {what}: {} ({left}s, then {}).",
        options.join(", "),
        text(&p.default)
    )
}

/// Where the fight stands: the round, then each creature.
pub fn stage(fight: &Combat) -> String {
    let mut said = vec![format!("Round {}", fight.round())];
    for s in 0..fight.seats() {
        let sheet = &fight.started_from().creatures[s as usize].sheet;
        let mut parts = vec![
            format!("{}/{} HP", fight.hp(s), sheet.hp_max),
            format!("pool {} of {}d{}", fight.pool(s), sheet.pool(), sheet.die),
        ];
        if fight.lost(s) > 0 {
            parts.push(format!("{} lost", fight.lost(s)));
        }
        parts.extend(fight.conditions(s));
        for held in fight.controls_of(s) {
            let names: Vec<&str> = held.iter().map(|&x| fight.name(x)).collect();
            parts.push(format!("controls {}", names.join(", ")));
        }
        said.push(format!("{}: {}", fight.name(s), parts.join(", ")));
    }
    format!("{}.", said.join("; "))
}

/// A refused decision: what was wrong, and what may be done now.
pub fn refusal(fight: &Combat, error: &RuleError, sides: &Sides, member: usize) -> String {
    let me = who(sides, member as Seat);
    let now: Vec<String> = herald_engine::game::Fight::pending(fight)
        .iter()
        .filter(|p| p.default.seat as usize == member)
        .flat_map(|p| p.options.iter())
        .map(|d| format!("/{}", d.act.text(&|s| fight.name(s).to_string())))
        .collect();
    match error {
        RuleError::FightOver => "That fight is over.".into(),
        RuleError::NotYourTurn => {
            let waiting: Vec<String> = herald_engine::game::Fight::pending(fight)
                .iter()
                .map(|p| fight.name(p.default.seat).to_string())
                .collect();
            format!(
                "Not your decision now, {me}: waiting for {} (only /yield may be said at any time).",
                waiting.join(" and ")
            )
        }
        other if now.is_empty() => format!("{me}: {other}."),
        other => format!("{me}: {other}. Now: {}.", now.join(", ")),
    }
}

/// The sheet and its state, as one line.
pub fn sheet_line(c: &Character, sheet: &Sheet, state: &State) -> String {
    let who = match &c.owner {
        Some(o) => format!("{} ({o})", sheet.name),
        None => format!("{} (NPC)", sheet.name),
    };
    let modes = |titles: Vec<&str>| {
        if titles.is_empty() {
            "none".to_string()
        } else {
            titles.join(", ")
        }
    };
    let spells = if sheet.spells.is_empty() {
        "none".to_string()
    } else {
        let left = state.spells_left(sheet);
        format!(
            "{} ({} left)",
            sheet.spells.csv(),
            if left.is_empty() {
                "none".to_string()
            } else {
                left.csv()
            }
        )
    };
    let out = if state.hp <= 0 {
        ": unconscious until rest"
    } else {
        ""
    };
    let r = c.record;
    format!(
        "{who}: {}, {} HD (d{}); pool {} of {}d{} ({} lost); {}/{} HP{out}; save {}; attacks {}; defenses {}; spells {spells}; record {}-{}-{}.",
        match sheet.kind {
            herald_engine::powerpool::Kind::Psionicist => "psionicist",
            herald_engine::powerpool::Kind::Wild => "wild talent",
            herald_engine::powerpool::Kind::None => "not psionic",
        },
        sheet.hd,
        sheet.die,
        state.pool_now(sheet),
        sheet.pool(),
        sheet.die,
        state.dice_lost,
        state.hp,
        sheet.hp_max,
        sheet.save,
        modes(sheet.attacks.iter().map(|m| m.title()).collect()),
        modes(sheet.defenses.iter().map(|m| m.title()).collect()),
        r.wins,
        r.losses,
        r.draws,
    )
}
