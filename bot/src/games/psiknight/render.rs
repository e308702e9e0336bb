//! Narration: engine events and prompts as lines a player can check against the checklist.

use herald_engine::psiknight::event::{
    Action, Counter, DamageResult, EndReason, Event, FirstPlayerRule, FirstStrikeRule, Height,
    Injury, Modifier, RollSkill,
};
use herald_engine::psiknight::{Match, Prompt, PromptKind, Side};
use std::fmt::{self, Write as _};

/// Display names, challenger first ("Dame Dara", "Sir Eoin").
pub type Names = [String; 2];

fn injury_words(kind: Injury) -> &'static str {
    match kind {
        Injury::WeaponArm => "a weapon-arm injury (no Block, Sword halved)",
        Injury::ShieldArm => "a shield-arm injury (no Block)",
        Injury::Legs => "a legs injury (no Dodge)",
        Injury::Major => "a major injury (out of every fight for the rest of the day)",
    }
}

pub(crate) fn injury_short(kind: Injury) -> &'static str {
    match kind {
        Injury::WeaponArm => "weapon arm",
        Injury::ShieldArm => "shield arm",
        Injury::Legs => "legs",
        Injury::Major => "major injury",
    }
}

/// A number as replies write it: one minus sign, the narration's − (U+2212), never `-`.
pub(crate) fn signed(n: i32) -> String {
    Signed(n).to_string()
}

/// [`signed`], written where it goes: a roll's line is made in one buffer.
struct Signed(i32);

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            write!(f, "\u{2212}{}", self.0.unsigned_abs())
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// "40 + 25 sweep − 25 opponent's Bonus, limited to 60", written at the end of `s`.
fn write_breakdown(s: &mut String, base: i32, modifiers: &[Modifier], cap: Option<u32>) {
    let _ = write!(s, "{}", Signed(base));
    for m in modifiers {
        let sign = if m.value < 0 { '−' } else { '+' };
        let _ = write!(s, " {sign} {} {}", m.value.abs(), m.kind.label());
    }
    if let Some(c) = cap {
        let _ = write!(s, ", limited to {c}");
    }
}

/// The sum behind a target, when anything changed it: " (40 + 25 sweep)", else nothing.
pub(crate) fn roll_sums(base: i32, modifiers: &[Modifier], cap: Option<u32>) -> String {
    let mut s = String::new();
    write_roll_sums(&mut s, base, modifiers, cap);
    s
}

/// [`roll_sums`], written at the end of `s`.
fn write_roll_sums(s: &mut String, base: i32, modifiers: &[Modifier], cap: Option<u32>) {
    if !(modifiers.is_empty() && cap.is_none()) {
        s.push_str(" (");
        write_breakdown(s, base, modifiers, cap);
        s.push(')');
    }
}

/// One line for a roll: "Sir Eoin rolls Lance 60 vs 65 (40 + 25 sweep): hit."
#[allow(clippy::too_many_arguments)]
fn roll_line(
    who: &str,
    skill: RollSkill,
    roll: u32,
    target: i32,
    success: bool,
    base: i32,
    modifiers: &[Modifier],
    cap: Option<u32>,
    automatic: Option<bool>,
) -> String {
    let verdict = match (skill, success) {
        (RollSkill::Lance, true) => "hit",
        (RollSkill::Lance, false) => "miss",
        (_, true) => "success",
        (_, false) => "failure",
    };
    let auto = match automatic {
        Some(true) => " (Hypercognition: succeeds whatever the roll)",
        Some(false) => " (reversed Hypercognition: fails whatever the roll)",
        None => "",
    };
    // One buffer for the line: a roll is narrated at nearly every step.
    let mut line = String::with_capacity(96 + who.len() + 24 * modifiers.len());
    let _ = write!(
        line,
        "{who} rolls {} {roll} vs {}",
        skill.title(),
        Signed(target)
    );
    write_roll_sums(&mut line, base, modifiers, cap);
    let _ = write!(line, ": {verdict}{auto}.");
    line
}

/// The narration of a batch of events, a line each (some events say nothing on their own).
pub fn narrate(events: &[Event], names: &Names) -> Vec<String> {
    let n = |s: Side| names[s.index()].as_str();
    let mut lines = Vec::new();
    for e in events {
        let line = match e {
            Event::PassStarted { pass } => format!("— Joust, pass {pass} —"),
            Event::PsiArmed {
                knight,
                skill: Some(s),
            } => {
                format!("{} arms {s}.", n(*knight))
            }
            Event::PsiArmed {
                knight,
                skill: None,
            } => format!("{} disarms psi.", n(*knight)),
            Event::Psi {
                knight,
                skill,
                roll,
                target,
                success,
            } => format!(
                "{} calls on {skill}: {roll} vs {target}, {}.",
                n(*knight),
                if *success { "success" } else { "failure" }
            ),
            Event::PsiCancelled { knight, skill, by } => {
                format!("{}'s Catapsi cancels {}'s {skill}.", n(*by), n(*knight))
            }
            Event::PsiReversed { knight, skill, by } => {
                format!("{}'s Negapsi reverses {}'s {skill}!", n(*by), n(*knight))
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
            } => roll_line(
                n(*knight),
                *skill,
                *roll,
                *target,
                *success,
                *base,
                modifiers,
                *cap,
                *automatic,
            ),
            Event::Bonus {
                knight,
                amount,
                total,
            } => {
                if amount == total {
                    format!("{} earns a +{amount} Bonus.", n(*knight))
                } else {
                    format!("{} earns +{amount}: Bonus now +{total}.", n(*knight))
                }
            }
            Event::BonusNetted {
                knight,
                remaining,
                cancelled,
            } => match knight {
                Some(k) => format!(
                    "Bonuses net out: {cancelled} cancels on both sides; {} keeps +{remaining}.",
                    n(*k)
                ),
                None => format!("Bonuses net out: +{cancelled} each, both cancelled."),
            },
            Event::BonusMode { knight, mode } => {
                format!("{} will use the Bonus to {}.", n(*knight), mode.name())
            }
            Event::BonusSpent { .. } => continue,
            Event::BonusCancelled { knight, amount, by } => format!(
                "{}'s Mesmerism cancels {}'s +{amount} Bonus.",
                n(*by),
                n(*knight)
            ),
            Event::BonusDoubled { knight, total } => {
                format!("{}'s Bonus is doubled instead: +{total}.", n(*knight))
            }
            Event::BonusExpired { knight, amount } => {
                format!(
                    "{}'s unused +{amount} Bonus ends with the pass.",
                    n(*knight)
                )
            }
            Event::Sweep { knight, sweep } => {
                if *sweep {
                    format!("{} announces a sweep (+25 Lance).", n(*knight))
                } else {
                    format!("{} does not sweep.", n(*knight))
                }
            }
            Event::FirstStrike { knight, rule } => match (knight, rule) {
                (Some(k), FirstStrikeRule::Sweep) => {
                    format!("{} strikes first (6A: the other swept).", n(*k))
                }
                (Some(k), FirstStrikeRule::Bonus) => {
                    format!("{} strikes first (6B: holds the Bonus).", n(*k))
                }
                (Some(k), _) => format!("{} strikes first (6C: higher Lance or Ride).", n(*k)),
                (None, _) => format!(
                    "All even (6D): both strike, {} first, and both may fall.",
                    n(Side::Challenger)
                ),
            },
            Event::Strike { knight, height } => format!(
                "{} aims {}.",
                n(*knight),
                match height {
                    Height::High => "High (Shield defends)",
                    Height::Low => "Low (Ride defends)",
                }
            ),
            Event::Unhorsed { knight } => format!("{} is unhorsed!", n(*knight)),
            Event::Injury { knight, kind } => {
                format!("{} suffers {}.", n(*knight), injury_words(*kind))
            }
            Event::InjuryHealed { knight, kind } => {
                format!("CPK heals {}'s {}.", n(*knight), injury_short(*kind))
            }
            Event::FightOn { knight, agreed } => {
                if *agreed {
                    format!("{} will fight on with swords.", n(*knight))
                } else {
                    format!("{} declines Swordplay.", n(*knight))
                }
            }
            Event::RollOff { knight, roll } => {
                format!("{} rolls {roll} for first turn.", n(*knight))
            }
            Event::SwordplayStarted { first, rule } => format!(
                "— Swordplay — {} goes first ({}).",
                n(*first),
                match rule {
                    FirstPlayerRule::Unhorsed => "1A: just unhorsed",
                    FirstPlayerRule::Challenged => "1B: just challenged",
                    FirstPlayerRule::RollOff => "1C: low roll",
                }
            ),
            Event::Action { knight, action } => format!(
                "{} {}.",
                n(*knight),
                match action {
                    Action::Attack => "attacks",
                    Action::Observe => "observes",
                    Action::Press => "presses (+25 Sword; Luck to defend next)",
                }
            ),
            Event::Counter { knight, counter } => format!(
                "{} {}.",
                n(*knight),
                match counter {
                    Counter::Block => "blocks",
                    Counter::Dodge => "dodges",
                    Counter::Parry => "parries (Sword −20)",
                    Counter::Luck => "must trust to Luck (10) after pressing",
                }
            ),
            Event::Damage {
                knight,
                roll,
                result,
                ..
            } => format!(
                "Damage {roll}: {}.",
                match result {
                    DamageResult::Kill => format!("KILL, {} is beaten", n(*knight)),
                    DamageResult::WeaponArm => format!("WEAPON ARM ({})", n(*knight)),
                    DamageResult::ShieldArm => format!("SHIELD ARM ({})", n(*knight)),
                    DamageResult::Legs => format!("LEGS, {} falls down", n(*knight)),
                    DamageResult::Armor => "armor holds, no damage".to_string(),
                }
            ),
            Event::Yielded { knight } => format!("{} yields.", n(*knight)),
            Event::MatchEnded { winner, reason } => {
                let why = match reason {
                    EndReason::Unhorsed => "by unhorsing",
                    EndReason::BothUnhorsed => "both fell",
                    EndReason::NoUnhorsing => "no one fell in three passes",
                    EndReason::MajorInjury => "a major injury ends it",
                    EndReason::Kill => "by a kill",
                    EndReason::SecondArmHit => "a second arm hit counts as a kill",
                    EndReason::Yield => "by yield",
                    EndReason::PassOver => "the pass is over",
                };
                match winner {
                    Some(w) => format!("{} wins ({why}).", n(*w)),
                    None => format!("A draw ({why})."),
                }
            }
        };
        lines.push(line);
    }
    lines
}

/// A prompt as a line: "Sir Eoin (evan): /sweep or /nosweep? 120s (default /nosweep)."
pub fn prompt_line(
    m: &Match,
    p: &Prompt,
    names: &Names,
    players: &[String; 2],
    secs_left: u64,
) -> String {
    let what = match p.kind {
        PromptKind::Sweep => "announce a sweep or not",
        PromptKind::Strike => "strike",
        PromptKind::FightOn => "go on to Swordplay?",
        PromptKind::Action => "your turn",
        PromptKind::Counter => "defend",
    };
    // Written into one buffer: a prompt follows nearly every move of every fight.
    let (name, player) = (&names[p.side.index()], &players[p.side.index()]);
    let mut line = String::with_capacity(96 + name.len() + player.len() + 12 * p.options.len());
    line.push_str(name);
    line.push_str(" (");
    line.push_str(player);
    line.push_str("), ");
    line.push_str(what);
    if let (b @ 1.., mode) = m.bonus(p.side) {
        let _ = write!(line, " [Bonus +{b}, {}]", mode.name());
    }
    line.push_str(": ");
    for (i, d) in p.options.iter().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        line.push('/');
        line.push_str(d.word());
    }
    let _ = write!(line, " ({secs_left}s, then /{}).", p.default.word());
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_engine::psiknight::event::ModKind;

    // R2: an effective skill may fall below 0; it is written with the narration's one minus
    // sign, as its modifiers are (issue 15: `-5` and `−5` mixed).
    #[test]
    fn r2_a_target_below_zero_has_the_narrations_minus_sign() {
        let modifiers = [
            Modifier {
                kind: ModKind::Parry,
                value: -20,
            },
            Modifier {
                kind: ModKind::Weakened,
                value: -15,
            },
        ];
        let line = roll_line(
            "Sir Eoin",
            RollSkill::Sword,
            3,
            -5,
            false,
            30,
            &modifiers,
            None,
            None,
        );
        assert!(
            line.contains("vs \u{2212}5 (30 \u{2212} 20 parry \u{2212} 15"),
            "{line}"
        );
        assert!(!line.contains('-'), "{line}");
    }
}
