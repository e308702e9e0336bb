//! Psi Morphs' words: each event as the page tells it, the prompts with their options (each a
//! whole command line) and defaults, `/status`, refusals, and the sheet.

use super::Sides;
use crate::store::games::Character;
use herald_engine::game::{Prompt, Side};
use herald_engine::psimorphs::event::{EndReason, EndedReason, IspPurpose, Purpose, TieRule};
use herald_engine::psimorphs::fight::{WHAT_DEFENSE, WHAT_REDO, WHAT_RESIST};
use herald_engine::psimorphs::{
    Attribute, Decision, Event, Group, Isp, MorphFight, MorphSheet, MorphState, RuleError,
};

/// The names narration uses, challenger first.
pub struct Names([String; 2]);

impl Names {
    /// The fighters of a fight.
    pub fn of(sides: &Sides) -> Names {
        Names(sides.styled.clone())
    }

    /// One morph alone (a GM's check names it as the challenger).
    pub fn one(name: &str) -> Names {
        Names([name.to_string(), String::new()])
    }

    fn get(&self, side: Side) -> &str {
        &self.0[side.index()]
    }
}

/// "combat 4, general 2", or "none".
pub fn isp_list(isp: &Isp) -> String {
    let mut parts = Vec::new();
    for g in Group::ALL {
        let n = isp.get(herald_engine::psimorphs::IspType::Of(g));
        if n > 0 {
            parts.push(format!("{} {n}", g.token()));
        }
    }
    if isp.general > 0 {
        parts.push(format!("general {}", isp.general));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn chains(dice: &[herald_engine::psimorphs::Chain; 2]) -> String {
    dice.iter()
        .map(|c| {
            let faces: Vec<String> = c.faces().iter().map(u8::to_string).collect();
            format!("[{}]", faces.join(","))
        })
        .collect()
}

/// The lines of `events`: one for each that a player needs to follow the fight.
pub fn narrate_events(events: &[Event], names: &Names) -> Vec<String> {
    events.iter().filter_map(|e| line(e, names)).collect()
}

fn line(event: &Event, n: &Names) -> Option<String> {
    Some(match event {
        Event::Recovered { name, hp, pa_fp, pe_fp, isp } => format!(
            "{} is full again on a new realm day: {hp} hp, PA FP {pa_fp}, PE FP {pe_fp}, ISPs {} (PM28).",
            n.get(*name),
            isp_list(isp)
        ),
        Event::FightStarted { order, quickness, sides, .. } => {
            let mut s = format!(
                "{} acts first each round, then {} (PM5). {}: {} hp, {}: {} hp.",
                n.get(order[0]),
                n.get(order[1]),
                n.get(sides[0].name),
                sides[0].hp,
                n.get(sides[1].name),
                sides[1].hp
            );
            for q in quickness {
                s.push_str(&format!(" {} has Lightning Quickness (PM10).", n.get(*q)));
            }
            s
        }
        Event::RoundStarted { round } => format!("Round {round}."),
        Event::Turn { .. } => return None,
        Event::TurnSkipped { name, round, .. } => format!(
            "{} loses the turn of round {round} to Lightning Quickness (PM10).",
            n.get(*name)
        ),
        Event::AttackDeclared { attacker, defender, isp } => format!(
            "{} attacks {}{}.",
            n.get(*attacker),
            n.get(*defender),
            with_isp(*isp)
        ),
        Event::DefenseChosen { name, group, isp } => format!(
            "{} defends with {}{}.",
            n.get(*name),
            group.label(),
            with_isp(*isp)
        ),
        Event::ResistChosen { name, group, isp } => format!(
            "{} resists with {}{}.",
            n.get(*name),
            group.label(),
            with_isp(*isp)
        ),
        Event::IspSpent { name, purpose, amount, taken, left } => format!(
            "{} spends {amount} ISPs {} ({}); left: {} (PM{}).",
            n.get(*name),
            match purpose {
                IspPurpose::Bonus => "as a bonus",
                IspPurpose::Redo => "to redo the check",
            },
            isp_list(taken),
            isp_list(left),
            match purpose {
                IspPurpose::Bonus => 13,
                IspPurpose::Redo => 14,
            }
        ),
        Event::Check(c) => {
            let what = match c.purpose {
                Purpose::Attack => "attack",
                Purpose::Defense => "defence",
                Purpose::Force => "force check",
                Purpose::Resist => "resistance",
                Purpose::Gm => "check",
            };
            let against = match (c.difficulty, c.opposing_total) {
                (Some(d), _) if c.purpose != Purpose::Resist => {
                    format!(" vs {d}: {}", if c.success { "success" } else { "failure" })
                }
                _ => String::new(),
            };
            format!(
                "{}'s {what}{} ({} + {}): {} = {} + {} (level {} + ranks {} + half {} + ISPs {}) = {}, rerolls at {}+{against}.",
                n.get(c.name),
                if c.attempt > 1 { format!(", attempt {}", c.attempt) } else { String::new() },
                c.group.label(),
                c.attribute,
                chains(&c.dice),
                c.dice_total,
                c.modifier,
                c.level,
                c.ranks,
                c.half,
                c.isp,
                c.total,
                c.threshold
            )
        }
        Event::Opposed { a, a_total, b, b_total, winner, tie_rule, .. } => {
            let result = match (winner, tie_rule) {
                (None, _) => "a tie between players: no winner (PM7)".to_string(),
                (Some(w), Some(TieRule::PlayerVsNpc)) => {
                    format!("a tie goes to the player, {} (PM6)", n.get(*w))
                }
                (Some(w), _) => format!("{} wins", n.get(*w)),
            };
            format!("{} {a_total} vs {} {b_total}: {result}.", n.get(*a), n.get(*b))
        }
        Event::Kept { name, total } => format!("{} keeps {total} (PM14).", n.get(*name)),
        Event::Hit { attacker, defender, strength, critical, damage, hp_after, max_hp, .. } => format!(
            "{} hits {}: strength {strength} + 5{} = {damage} damage; {} has {hp_after} hp of {max_hp} (PM25).",
            n.get(*attacker),
            n.get(*defender),
            if *critical { ", doubled at twice the defence" } else { "" },
            n.get(*defender)
        ),
        Event::Miss { attacker, defender, .. } => {
            format!("{}'s attack misses {}.", n.get(*attacker), n.get(*defender))
        }
        Event::Passed { name } => format!("{} passes.", n.get(*name)),
        Event::Yielded { name } => format!("{} yields (PM11).", n.get(*name)),
        Event::ForceDeclared { name, force_name, force_type, target, difficulty, fp_cost, fp_left, isp, .. } => format!(
            "{} uses {force_name} on {} (DC {difficulty}){}: {fp_cost} {} FP spent, {fp_left} left (PM18).",
            n.get(*name),
            if target == name { "self".to_string() } else { n.get(*target).to_string() },
            with_isp(*isp),
            force_type.label()
        ),
        Event::ForceFailed { name, force_name, total, difficulty, .. } => format!(
            "{}'s {force_name} fails: {total} vs {difficulty}.",
            n.get(*name)
        ),
        Event::ForceResisted { name, force_name, target, .. } => format!(
            "{} resists {}'s {force_name} (PM21).",
            n.get(*target),
            n.get(*name)
        ),
        Event::ForceDamage { force_name, target, damage, hp_after, max_hp, .. } => format!(
            "{force_name} deals {} {damage} damage: {hp_after} hp of {max_hp}.",
            n.get(*target)
        ),
        Event::Healed { force_name, target, amount, hp_after, .. } => format!(
            "{force_name} restores {amount} hp to {}: {hp_after} hp.",
            n.get(*target)
        ),
        Event::Maintained { name, force_name, target, maintained, limit, attribute, effective, .. } => format!(
            "{} maintains {force_name} on {}: {} {attribute} {effective} ({maintained} of {limit} such forces, PM22).",
            n.get(*name),
            n.get(*target),
            possessive(n.get(*target)),
        ),
        Event::ForceEnded { force_name, by, on, reason, attribute, effective, .. } => format!(
            "{}'s {force_name} on {} ends ({}): {attribute} {effective}.",
            n.get(*by),
            n.get(*on),
            match reason {
                EndedReason::Dropped => "dropped, PM22",
                EndedReason::BrokeFree => "broken free of, PM22",
                EndedReason::Unconscious => "its user is unconscious, PM24",
                EndedReason::FightOver => "the fight is over, PM24",
            }
        ),
        Event::ForcesAvailable { name, forces, .. } => {
            let ids: Vec<String> = forces.iter().map(ToString::to_string).collect();
            format!(
                "{}'s forces are back after rounds without one: {} (PM20).",
                n.get(*name),
                ids.join(", ")
            )
        }
        Event::Unconscious { name, hp, max_hp } => format!(
            "{} is unconscious at {hp} hp of {max_hp} (PM8).",
            n.get(*name)
        ),
        Event::Died { name, hp, max_hp } => format!(
            "{} dies at {hp} hp, below -{max_hp} (PM9).",
            n.get(*name)
        ),
        Event::FightEnded { winner, loser, reason, rounds, .. } => match (winner, loser) {
            (Some(w), Some(l)) => format!(
                "{} wins in round {rounds}: {} {}.",
                n.get(*w),
                n.get(*l),
                match reason {
                    EndReason::Unconscious => "is unconscious (PM8)",
                    EndReason::Died => "is dead (PM9)",
                    EndReason::Yield => "yielded (PM11)",
                    EndReason::RoundLimit => "reached the round limit",
                }
            ),
            _ => format!("After round {rounds} the fight is a draw (PM12)."),
        },
    })
}

fn with_isp(isp: u16) -> String {
    if isp > 0 {
        format!(" with {isp} ISPs")
    } else {
        String::new()
    }
}

fn possessive(name: &str) -> String {
    format!("{name}'s")
}

fn options(prompt: &Prompt<Decision>) -> String {
    prompt
        .options
        .iter()
        .map(|d| format!("/{d}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A prompt: "Ann (ann), round 1 [--isp N adds ISPs]: /attack, /force eb1, ..., /pass, /yield
/// (120s, then /attack)."; each option a whole command line.
pub fn prompt(fight: &MorphFight, prompt: &Prompt<Decision>, sides: &Sides, left: u64) -> String {
    let who = sides.who(prompt.side);
    let opponent = &sides.styled[prompt.side.other().index()];
    let head = match prompt.what {
        WHAT_DEFENSE => format!("{who}, {opponent} attacks"),
        WHAT_RESIST => match (fight.force_at_stake(), fight.resist_against()) {
            (Some(f), Some((total, dc))) => format!("{who}, {} succeeds, {total} vs {dc}", f.name),
            _ => who,
        },
        WHAT_REDO => match fight.redo_offer() {
            Some((mine, Some(other), theirs)) => format!(
                "{who}, {mine} vs {}'s {theirs} goes against you",
                sides.styled[other.index()]
            ),
            Some((mine, None, dc)) => format!("{who}, {mine} vs {dc} goes against you"),
            None => who,
        },
        _ => format!("{who}, round {}", fight.round()),
    };
    let opts = options(prompt).replace(
        "/redo",
        &format!("/redo ({} ISPs)", fight.tables().redo_cost),
    );
    // The hint stays out of the options and the deadline, which Discord's buttons read.
    let isp = if prompt.what == WHAT_REDO {
        ""
    } else {
        " [--isp N adds ISPs]"
    };
    format!("{head}{isp}: {opts} ({left}s, then /{}).", prompt.default)
}

/// `/status`: the round, and each morph's hp, FP, ISPs and forces.
pub fn stage(fight: &MorphFight, sides: &Sides) -> String {
    let mut said = vec![format!("Round {}", fight.round())];
    for side in Side::BOTH {
        let (pa, pe) = fight.fp(side);
        let mut s = format!(
            "{}: {} hp of {}, PA FP {pa}, PE FP {pe}, ISPs {}",
            sides.styled[side.index()],
            fight.hp(side),
            fight.sheet(side).max_hp,
            isp_list(&fight.isp(side))
        );
        for (f, by, on, since) in fight.maintained() {
            if on == side {
                s.push_str(&format!(
                    ", {} on it by {} since round {since}",
                    f.name,
                    sides.styled[by.index()]
                ));
            }
        }
        said.push(s);
    }
    format!("{}.", said.join("; "))
}

/// A refused decision, with what to do instead.
pub fn refusal(fight: &MorphFight, error: &RuleError, sides: &Sides, side: Side) -> String {
    let me = &sides.styled[side.index()];
    // The options of the one awaited: the speaker's own unless it is not their decision.
    let choices = fight
        .options()
        .iter()
        .map(|d| format!("/{d}"))
        .collect::<Vec<_>>()
        .join(", ");
    match error {
        RuleError::NotYourTurn { awaited, what } => format!(
            "Not your decision, {me}: waiting for {}'s {what} ({choices}).",
            sides.who(*awaited)
        ),
        RuleError::FightOver => "That fight is over.".into(),
        other => format!("{me}: {other}. Now: {choices}."),
    }
}

fn pairs(values: [u8; 6], master: Option<[u8; 6]>) -> String {
    let parts: Vec<String> = Group::ALL
        .iter()
        .zip(values)
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(
            |(i, (g, n))| match master.map(|m| m[i]).filter(|m| *m > 0) {
                Some(m) => format!("{} {n} ({m} master)", g.token()),
                None => format!("{} {n}", g.token()),
            },
        )
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The sheet and state in one line.
pub fn sheet_line(c: &Character, sheet: &MorphSheet, state: &MorphState) -> String {
    let who = match &c.owner {
        Some(o) => format!("{} ({o})", c.name),
        None => format!("{} (NPC)", c.name),
    };
    let attrs: Vec<String> = Attribute::ALL
        .iter()
        .map(|a| format!("{} {}", a.short(), sheet.attributes.get(*a)))
        .collect();
    let mut edges = Vec::new();
    if sheet.reflexes {
        edges.push("Lightning Reflexes");
    }
    if sheet.quickness {
        edges.push("Lightning Quickness");
    }
    let condition = if state.dead {
        ": dead (PM9)".to_string()
    } else if state.unconscious() {
        ": unconscious until the realm's next day (PM8)".to_string()
    } else {
        String::new()
    };
    let mut line = format!(
        "{who}: level {}; {}; ranks {}; {}hp {}/{}{condition}; PA FP {}/{}, PE FP {}/{}; ISPs {}; {}.",
        sheet.level,
        attrs.join(", "),
        pairs(sheet.ranks.to_array(), Some(sheet.master.to_array())),
        if edges.is_empty() { String::new() } else { format!("{}; ", edges.join(", ")) },
        state.hp,
        sheet.max_hp,
        state.pa_fp,
        sheet.pa_fp,
        state.pe_fp,
        sheet.pe_fp,
        isp_list(&state.isp),
        c.record,
    );
    if let Some(p) = &state.check {
        line.push_str(&format!(
            " A check of {} stands at {} vs {}: /redo or /keep.",
            p.spec.group.label(),
            p.total,
            p.difficulty
        ));
    }
    line
}
