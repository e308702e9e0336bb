//! The psionic duel with PFP (`pfpduel`) in chat: its commands, its psionists' sheets and what
//! outlasts a fight (health until the realm's next day, PF34), on the engine's
//! [`herald_engine::pfpduel`]. Narration is in [`narrate`], prompts and refusals in [`prompt`].

use super::{AsOf, Game, Meaning, Sides};
use crate::command::{ArgKind, ArgSpec, CommandSpec, GameCommand, Group, GAME_HELP};
use crate::config::Config;
use crate::store::games::Character;
use anyhow::{Context, Result};
use herald_engine::game::{Prompt, Side};
use herald_engine::pfpduel::{
    Backlash, Decision, DoubleEffect, Duel, DuelSetup, Entrant, Event, House, MentalKind,
    NewPsionist, PfpSheet, PfpState, RuleError,
};
use serde_json::{json, Value};

mod narrate;
mod prompt;

/// The psionic duel with PFP, with the realm's house numbers (PF29, PF30).
pub struct PfpDuel {
    house: House,
}

const EFFECT_WORDS: &[&str] = &[
    "control",
    "maneuver",
    "flaw",
    "tactical",
    "unleash",
    "iron",
    "vanish",
    "weaken",
    "unbalance",
];

/// `/effect`'s usage, for its refusals.
pub const EFFECT_USAGE: &str =
    "Usage: /effect pain|mental|physical N, /effect puppet S G (S strikes, G grounds), /effect none";

const COMMANDS: &[CommandSpec] = &[
    CommandSpec::game(
        &["psionist", "create"],
        "/psionist create NAME",
        "Create your psionist: power 2 and health 6, the house numbers, no options (PF30). Moderators' NPCs take --power N (1-6) and --health N (1-20), or --open-mind [--aptitude N] (0-6).",
        "/psionist create Ann",
        &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your psionist's name", "Ann").greedy(),
            ArgSpec::flag("--power", "power", ArgKind::Number { min: 0, max: 99 }, "an NPC psionist's power, 1-6 (2)", "--power 3"),
            ArgSpec::flag("--health", "health", ArgKind::Number { min: 0, max: 99 }, "an NPC's health, 1-20 (6)", "--health 8"),
            ArgSpec::flag("--aptitude", "aptitude", ArgKind::Number { min: 0, max: 99 }, "an open mind's aptitude, 0-6 (2)", "--aptitude 3"),
            ArgSpec::flag("--open-mind", "open_mind", ArgKind::Switch, "an NPC who is not a psionist (PF31)", "--open-mind"),
        ],
        Group::Knights,
    ),
    CommandSpec::game(
        &["psionist"],
        "/psionist [NAME]",
        "Show a psionist's sheet: power (or aptitude), health now, knocked out until, the record.",
        "/psionist Ann",
        &[ArgSpec::pos("name", "NAME", ArgKind::Knight, "the psionist; yours when left out", "Ann").optional().greedy()],
        Group::Knights,
    ),
    CommandSpec::game(&["duel"], "/duel", "Your activation: provoke a psionic duel (1 AP, psionic; both need 1 PFP, PF2).", "/duel", &[], Group::Decisions),
    CommandSpec::game(&["contact"], "/contact", "Your activation: contact the open mind, an opposed test (1 AP, psionic, PF24).", "/contact", &[], Group::Decisions),
    CommandSpec::game(
        &["effect"],
        "/effect pain|mental|physical N, /effect puppet S G, /effect none",
        "A mental effect of strength N (1 to your power) for N PFP on the mind you are in (PF17-PF20): pain (N damage), mental (N dice fewer to eject you), physical (N held actions), puppet (S strikes and G grounds, S + G = N); 1 AP, none after a won contact or a zeroing duel; none: no effect after a contact.",
        "/effect pain 2",
        &[ArgSpec::pos("what", "KIND N", ArgKind::Text, "pain|mental|physical N, puppet S G, or none", "pain 2").greedy()],
        Group::Decisions,
    ),
    CommandSpec::game(&["recover"], "/recover", "Your activation: recover 2 PFP at the end of the round (1 AP, psionic; not while invaded, PF27).", "/recover", &[], Group::Decisions),
    CommandSpec::game(&["eject"], "/eject", "Your activation: try to push the intruder out of your mind (1 AP, twice a round, PF24).", "/eject", &[], Group::Decisions),
    CommandSpec::game(&["move"], "/move", "Your activation: stand up, and recover 2 PFP at the round's end if you are a psionist not invaded (1 AP, PF21, PF27).", "/move", &[], Group::Decisions),
    CommandSpec::game(&["end"], "/end", "End your activation; AP left are lost at the round's end (PF3).", "/end", &[], Group::Decisions),
    CommandSpec::game(
        &["dice"],
        "/dice N",
        "Add N of your AP as dice to your coming test: 3 + N dice, less penalties (PF2, PF3).",
        "/dice 1",
        &[ArgSpec::pos("n", "N", ArgKind::Number { min: 0, max: 99 }, "AP to add as dice", "1")],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["keep"],
        "/keep A B [EFFECT]",
        "Your duel result: the two faces kept, and for a double its effect: control, maneuver, flaw, tactical, unleash (attacker); maneuver, iron, vanish, weaken, unbalance (defender) (PF2, PF10).",
        "/keep 5 5 maneuver",
        &[
            ArgSpec::pos("a", "A", ArgKind::Number { min: 1, max: 6 }, "a face kept", "5"),
            ArgSpec::pos("b", "B", ArgKind::Number { min: 1, max: 6 }, "the other face kept", "5").optional(),
            ArgSpec::pos("effect", "EFFECT", ArgKind::Choice(EFFECT_WORDS), "a double's effect", "maneuver").optional(),
        ],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["reroll"],
        "/reroll V",
        "Your Maneuver: the opponent's die showing V is rerolled (PF10).",
        "/reroll 6",
        &[ArgSpec::pos("v", "V", ArgKind::Number { min: 1, max: 6 }, "a face of the opponent's dice", "6")],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["backlash"],
        "/backlash health|pfp",
        "After a failed backlash test: take 1d6 damage, or lose all your PFP (PF16).",
        "/backlash pfp",
        &[ArgSpec::pos("what", "health|pfp", ArgKind::Choice(&["health", "pfp"]), "what the backlash costs", "pfp")],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["hold"],
        "/hold N",
        "Your Physical blockage: take N held actions (AP) from your victim now (PF19).",
        "/hold 1",
        &[ArgSpec::pos("n", "N", ArgKind::Number { min: 0, max: 99 }, "held actions to take", "1")],
        Group::Decisions,
    ),
    CommandSpec::game(&["maintain"], "/maintain", "At the round's end: keep your contact for 1 PFP (PF26).", "/maintain", &[], Group::Decisions),
    CommandSpec::game(&["release"], "/release", "At the round's end: let your contact go (PF26).", "/release", &[], Group::Decisions),
    CommandSpec::game(&["yield"], "/yield", "At your own prompt: give up the fight, a loss (PF33).", "/yield", &[], Group::Decisions),
    GAME_HELP,
];

fn sheet_of(c: &Character) -> Result<PfpSheet> {
    serde_json::from_value(c.sheet.clone())
        .with_context(|| format!("{}'s sheet does not parse", c.name))
}

fn state_of(c: &Character) -> Result<PfpState> {
    serde_json::from_value(c.state.clone())
        .with_context(|| format!("{}'s state does not parse", c.name))
}

fn as_of(sheet: &PfpSheet, state: &PfpState) -> AsOf {
    AsOf {
        sheet: serde_json::to_value(sheet).unwrap_or(Value::Null),
        state: serde_json::to_value(state).unwrap_or(Value::Null),
    }
}

fn number(command: &GameCommand, name: &str) -> Option<u8> {
    command
        .arg(name)
        .map(|n| n.parse::<u32>().map_or(u8::MAX, |n| n.min(255) as u8))
}

/// The day after `day` (`YYYY-MM-DD`), for "knocked out until".
fn next_day(day: &str) -> String {
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.succ_opt())
        .map_or_else(
            || "the realm's next day".to_string(),
            |d| format!("{} 00:00", d.format("%Y-%m-%d")),
        )
}

/// Reads `/effect ...`: `pain 2`, `puppet 1 1`, `puppet strike ground`, `none`.
fn effect(what: &str) -> Result<Decision, String> {
    let words: Vec<String> = what.split_whitespace().map(str::to_lowercase).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let n = |w: &str| w.parse::<u8>().ok().filter(|n| *n <= 20);
    let kind = match words.first().copied() {
        Some("none") if words.len() == 1 => return Ok(Decision::NoEffect),
        Some("pain") => MentalKind::Pain,
        Some("mental") => MentalKind::Mental,
        Some("physical") => MentalKind::Physical,
        Some("puppet") => {
            let rest = &words[1..];
            if rest.iter().all(|w| matches!(*w, "strike" | "ground")) && !rest.is_empty() {
                let g = rest.iter().filter(|w| **w == "ground").count() as u8;
                return Ok(Decision::puppet(rest.len() as u8 - g, g));
            }
            return match rest {
                [s, g] => match (n(s), n(g)) {
                    (Some(s), Some(g)) if s + g >= 1 => Ok(Decision::puppet(s, g)),
                    _ => Err(format!(
                        "/effect puppet S G: S strikes and G grounds, at least one in all. {EFFECT_USAGE}"
                    )),
                },
                _ => Err(format!(
                    "/effect puppet takes S G (strikes, grounds): /effect puppet 1 1. {EFFECT_USAGE}"
                )),
            };
        }
        Some(other) => {
            return Err(format!(
                "'{other}' is not a mental effect: pain, mental, physical, puppet or none. {EFFECT_USAGE}"
            ))
        }
        None => return Err(EFFECT_USAGE.to_string()),
    };
    match words.get(1..) {
        Some([s]) => match n(s) {
            Some(strength) if strength >= 1 => Ok(Decision::Effect {
                kind,
                strength,
                bits: 0,
            }),
            _ => Err(format!(
                "'{s}' is not a strength: a whole number from 1 to your power. {EFFECT_USAGE}"
            )),
        },
        _ => Err(format!(
            "/effect {} takes its strength N: /effect {} 1. {EFFECT_USAGE}",
            kind.word(),
            kind.word()
        )),
    }
}

impl PfpDuel {
    fn create(&self, command: &GameCommand, npc: bool, day: &str) -> Meaning<Decision> {
        let Some(name) = command.arg("name") else {
            return Meaning::Refused("Usage: /psionist create NAME".into());
        };
        let new = NewPsionist {
            name: name.to_string(),
            open_mind: command.has("open_mind"),
            power: number(command, "power"),
            aptitude: number(command, "aptitude"),
            health: number(command, "health"),
        };
        match new.create(npc, self.house) {
            Ok(sheet) => {
                let state = PfpState {
                    lost: 0,
                    day: day.to_string(),
                };
                Meaning::Create(sheet.name.clone(), as_of(&sheet, &state))
            }
            Err(e) => Meaning::Refused(format!(
                "Cannot create {name}: {e}. Usage: {}",
                if npc {
                    "/npc create NAME [--power N] [--health N], or /npc create NAME --open-mind [--aptitude N] [--health N]"
                } else {
                    "/psionist create NAME"
                }
            )),
        }
    }
}

impl Game for PfpDuel {
    type Fight = Duel;

    const ID: &'static str = "pfpduel";
    const NAME: &'static str = "the PFP duel";
    const CHARACTER: &'static str = "psionist";
    const BOUT: &'static str = "a psionic duel";

    fn new(config: &Config) -> Result<Self> {
        let house = match &config.pfpduel {
            Some(v) => v.clone().try_into::<House>().context(
                "[pfpduel] is not a valid table of the PFP duel's house numbers (power, health)",
            )?,
            None => House::default(),
        };
        anyhow::ensure!(
            (1..=6).contains(&house.power),
            "[pfpduel] power = {}: a psionist's power is 1 to 6 (PF30)",
            house.power
        );
        anyhow::ensure!(
            (1..=20).contains(&house.health),
            "[pfpduel] health = {}: health is 1 to 20 (PF29)",
            house.health
        );
        Ok(PfpDuel { house })
    }

    fn commands() -> &'static [CommandSpec] {
        COMMANDS
    }

    fn meaning(
        &self,
        command: &GameCommand,
        _character: Option<&Character>,
        npc: bool,
        day: &str,
    ) -> Meaning<Decision> {
        let d = match command.name.as_str() {
            "psionist create" => return self.create(command, npc, day),
            "psionist" => return Meaning::Show(command.arg("name").map(str::to_string)),
            "duel" => Decision::Duel,
            "contact" => Decision::Contact,
            "recover" => Decision::Recover,
            "eject" => Decision::Eject,
            "move" => Decision::Move,
            "end" => Decision::End,
            "maintain" => Decision::Maintain,
            "release" => Decision::Release,
            "yield" => Decision::Yield,
            "effect" => match effect(command.arg("what").unwrap_or("")) {
                Ok(d) => d,
                Err(line) => return Meaning::Refused(line),
            },
            "dice" => Decision::Dice(number(command, "n").unwrap_or(0)),
            "hold" => Decision::Hold(number(command, "n").unwrap_or(0)),
            "reroll" => Decision::Reroll(number(command, "v").unwrap_or(0)),
            "backlash" => Decision::Backlash(match command.arg("what") {
                Some("health") => Backlash::Health,
                _ => Backlash::Pfp,
            }),
            "keep" => {
                let effect = command.arg("effect").and_then(|w| {
                    DoubleEffect::ALL
                        .into_iter()
                        .find(|e| e.word().eq_ignore_ascii_case(w))
                });
                Decision::Keep {
                    a: number(command, "a").unwrap_or(0),
                    b: number(command, "b").unwrap_or(0),
                    effect,
                }
            }
            other => {
                return Meaning::Refused(format!(
                    "/{other} is not a command of the PFP duel; /help lists them."
                ))
            }
        };
        Meaning::Decide(d)
    }

    fn as_of(&self, c: &Character, day: &str) -> Result<AsOf> {
        Ok(as_of(&sheet_of(c)?, &state_of(c)?.as_of(day)))
    }

    fn styled(&self, c: &Character) -> String {
        c.name.clone()
    }

    fn cannot_fight(&self, c: &Character) -> Result<Option<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        Ok(state.knocked_out(&sheet).then(|| {
            format!(
                "{} is knocked out until {} (realm time): no fight until then (PF34).",
                sheet.name,
                next_day(&state.day)
            )
        }))
    }

    fn setup(&self, fighters: [&Character; 2]) -> Result<DuelSetup> {
        let entrant = |c: &Character| -> Result<Entrant> {
            let (sheet, state) = (sheet_of(c)?, state_of(c)?);
            Ok(Entrant {
                health: state.health(&sheet),
                sheet,
            })
        };
        Ok(DuelSetup {
            minds: [entrant(fighters[0])?, entrant(fighters[1])?],
        })
    }

    fn after(&self, fight: &Duel, fighters: [&Character; 2], day: &str) -> Result<[AsOf; 2]> {
        // PF34: health lost stays until the realm's next day; PFP, AP, contacts and the ground
        // end with the fight.
        let one = |side: Side| -> Result<AsOf> {
            let sheet = sheet_of(fighters[side.index()])?;
            let state = PfpState {
                lost: fight.health_lost(side),
                day: day.to_string(),
            };
            Ok(as_of(&sheet, &state))
        };
        Ok([one(Side::Challenger)?, one(Side::Challenged)?])
    }

    fn outcome(&self, fight: &Duel) -> Value {
        match fight.outcome() {
            Some((winner, reason)) => json!({
                "winner": winner,
                "reason": reason.name(),
                "round": fight.round(),
                "health": [fight.health(Side::Challenger), fight.health(Side::Challenged)],
                "pfp": [fight.pfp(Side::Challenger), fight.pfp(Side::Challenged)],
            }),
            None => Value::Null,
        }
    }

    fn event_json(&self, event: &Event, names: &[String; 2]) -> Value {
        named(serde_json::to_value(event).unwrap_or(Value::Null), names)
    }

    fn narrate(&self, events: &[Event], sides: &Sides) -> Vec<String> {
        narrate::narrate(events, sides)
    }

    fn prompt(&self, fight: &Duel, p: &Prompt<Decision>, sides: &Sides, left: u64) -> String {
        prompt::prompt(fight, p, sides, left)
    }

    fn stage(&self, fight: &Duel, sides: &Sides) -> String {
        prompt::stage(fight, sides)
    }

    fn refusal(&self, fight: &Duel, error: &RuleError, sides: &Sides, side: Side) -> String {
        prompt::refusal(fight, error, sides, side)
    }

    fn sheet_lines(&self, c: &Character) -> Result<Vec<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        let who = match &c.owner {
            Some(o) => format!("{} ({o})", sheet.name),
            None => format!("{} (NPC)", sheet.name),
        };
        let kind = if sheet.psionist {
            format!("psionist, power {}", sheet.power)
        } else {
            format!("open mind, aptitude {}", sheet.aptitude)
        };
        let health = state.health(&sheet);
        let out = if health == 0 {
            format!(
                ": knocked out until {} (realm time, PF34)",
                next_day(&state.day)
            )
        } else {
            String::new()
        };
        let r = c.record;
        let plural =
            |n: i64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        Ok(vec![format!(
            "{who}: {kind}; health {health} of {}{out}; {}, {}, {}.",
            sheet.health,
            plural(r.wins, "win", "wins"),
            plural(r.losses, "loss", "losses"),
            plural(r.draws, "draw", "draws"),
        )])
    }

    fn npc_between_fights(&self, _c: &Character, _day: &str) -> Option<AsOf> {
        None
    }
}

/// Names the sides in an event's JSON: `challenger`/`challenged` as values, and as the keys of
/// the initiative's `dice`.
fn named(v: Value, names: &[String; 2]) -> Value {
    match v {
        Value::String(s) if s == "challenger" => Value::String(names[0].clone()),
        Value::String(s) if s == "challenged" => Value::String(names[1].clone()),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| named(x, names)).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let k = match k.as_str() {
                        "challenger" if x.is_number() => names[0].clone(),
                        "challenged" if x.is_number() => names[1].clone(),
                        _ => k,
                    };
                    (k, named(x, names))
                })
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_read_as_the_page_writes_them() {
        assert_eq!(effect("pain 2"), Ok(Decision::pain(2)));
        assert_eq!(effect("none"), Ok(Decision::NoEffect));
        // Counted puppets: the order of forced actions changes nothing (PF20).
        assert_eq!(effect("puppet 1 1"), Ok(Decision::puppet(1, 1)));
        assert_eq!(effect("puppet ground strike"), Ok(Decision::puppet(1, 1)));
        assert_eq!(Decision::puppet(2, 1).to_string(), "effect puppet 2 1");
        assert!(effect("pain").unwrap_err().contains("/effect pain 1"));
        assert!(effect("fire 2")
            .unwrap_err()
            .contains("not a mental effect"));
        assert!(effect("puppet 0 0").is_err());
    }

    #[test]
    fn the_next_day_is_midnight_of_the_day_after() {
        assert_eq!(next_day("2026-12-01"), "2026-12-02 00:00");
        assert_eq!(next_day("2026-12-31"), "2027-01-01 00:00");
    }
}
