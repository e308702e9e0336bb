//! The PFP duel's prompts (who, what, every legal answer, the time and the default), its
//! `/status` line and its refusals, each one line.

use crate::games::Sides;
use herald_engine::game::{Prompt, Side};
use herald_engine::pfpduel::event::TestKind;
use herald_engine::pfpduel::{Decision, Duel, RuleError, MAX_ROUNDS};

/// `6 2 2`.
pub fn faces(f: &[u8]) -> String {
    f.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// `duel`, `contact`, `ejection`.
pub fn test_name(kind: TestKind) -> &'static str {
    match kind {
        TestKind::Duel => "duel",
        TestKind::Contact => "contact",
        TestKind::Eject => "ejection",
    }
}

fn role(fight: &Duel, side: Side) -> &'static str {
    let actor = fight.test_actor();
    match (fight.test_kind(), side == actor) {
        (TestKind::Duel, true) => "attacker",
        (TestKind::Duel, false) => "defender",
        (TestKind::Contact, true) | (TestKind::Eject, false) => "psionist",
        _ => "open mind",
    }
}

/// What the awaited side is asked, as the prompt's head says it.
fn what(fight: &Duel, side: Side, sides: &Sides) -> String {
    let other = &sides.styled[side.other().index()];
    match fight.what() {
        "activation" => format!(
            "your activation: {} AP, {}/2 psionic actions, {} PFP",
            fight.ap(side),
            fight.psionic_actions(side),
            fight.pfp(side)
        ),
        "hold" => format!(
            "your Physical blockage: take held actions from {other} ({} in stock, {other} has {} AP) (PF19)",
            fight.hold_stock(side),
            fight.ap(side.other())
        ),
        "dice" => format!(
            "your dice for the {} ({}, {} AP)",
            test_name(fight.test_kind()),
            role(fight, side),
            fight.ap(side)
        ),
        "keep" => {
            let mine = fight.faces(side).map(faces).unwrap_or_default();
            let theirs = match (fight.kept(side.other()), fight.faces(side.other())) {
                (Some(k), _) => format!("; {other} kept {}", faces(k)),
                (None, Some(f)) => format!("; {other} threw {}", faces(f)),
                _ => String::new(),
            };
            let again = if fight.is_rekeep() { " again" } else { "" };
            format!(
                "keep{again} two of your dice {mine} ({}{theirs})",
                role(fight, side)
            )
        }
        "reroll" => format!(
            "your Maneuver: reroll one of {other}'s dice {} (PF10)",
            fight.faces(side.other()).map(faces).unwrap_or_default()
        ),
        "effect" if fight.effect_is_free() => format!(
            "your free mental effect on {other}, the first PFP free ({} PFP, PF15)",
            fight.pfp(side)
        ),
        "effect" => format!(
            "your mental effect on {other}, no AP ({} PFP, PF17)",
            fight.pfp(side)
        ),
        "backlash" => "your backlash test failed: 1d6 damage or all your PFP (PF16)".into(),
        "maintain" => format!(
            "keep your contact in {other}'s mind for 1 PFP ({} PFP, PF26)",
            fight.pfp(side)
        ),
        other => other.to_string(),
    }
}

/// The options as the prompt lists them: `/duel, /recover, /end, /yield`.
pub fn options(options: &[Decision]) -> String {
    options
        .iter()
        .map(|d| format!("/{d}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A prompt as one line: `Bo (bo), your activation: 3 AP, 0/2 psionic actions, 6 PFP: /duel,
/// /recover, /move, /end, /yield (120s, then /duel).`
pub fn prompt(fight: &Duel, p: &Prompt<Decision>, sides: &Sides, left: u64) -> String {
    format!(
        "{}, {}: {} ({left}s, then /{}).",
        sides.who(p.side),
        what(fight, p.side, sides),
        options(&p.options),
        p.default
    )
}

/// Where the fight stands, for `/status`.
pub fn stage(fight: &Duel, sides: &Sides) -> String {
    let mut said = vec![format!(
        "Round {} of {MAX_ROUNDS}; {} is high",
        fight.round(),
        sides.styled[fight.high().index()]
    )];
    for side in Side::BOTH {
        let mut parts = Vec::new();
        if fight.is_psionist(side) {
            parts.push(format!("{} PFP", fight.pfp(side)));
            if fight.pfp(side) == 0 {
                parts.push("an open mind".into());
            }
        } else {
            parts.push("an open mind".into());
        }
        parts.push(format!("health {}", fight.health(side)));
        parts.push(format!("{} AP", fight.ap(side)));
        if fight.inside(side) {
            parts.push(format!("in {}'s mind", sides.styled[side.other().index()]));
        }
        if fight.on_ground(side) {
            parts.push("on the ground".into());
        }
        if fight.power_score(side) < fight.setup().minds[side.index()].sheet.power
            && fight.is_psionist(side)
        {
            parts.push(format!("power score {}", fight.power_score(side)));
        }
        if fight.barred_until(side) >= fight.round() {
            parts.push(format!(
                "barred until the end of round {}",
                fight.barred_until(side)
            ));
        }
        said.push(format!(
            "{}: {}",
            sides.styled[side.index()],
            parts.join(", ")
        ));
    }
    format!("{}.", said.join("; "))
}

/// A refused decision as one line: what was wrong, and the legal answers now.
pub fn refusal(fight: &Duel, error: &RuleError, sides: &Sides, side: Side) -> String {
    let me = &sides.styled[side.index()];
    match error {
        RuleError::NotYourTurn { awaited } => format!(
            "Not your move, {me}: waiting for {}, {}: {}.",
            sides.who(*awaited),
            what(fight, *awaited, sides),
            options(&fight.options())
        ),
        RuleError::FightOver => "That fight is over.".into(),
        RuleError::NotAnOption { decision, .. } => format!(
            "{me}: /{decision} is not a legal answer now; {}: {}.",
            what(fight, side, sides),
            options(&fight.options())
        ),
    }
}
