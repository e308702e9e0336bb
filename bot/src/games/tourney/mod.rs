//! The Tourney (`tourney`) in chat: its commands, its knights' sheets and what outlasts a bout,
//! on the engine's [`herald_engine::tourney`]. Narration and prompts are in [`narrate`].

use super::{AsOf, Game, Meaning, Sides};
use crate::command::{ArgKind, ArgSpec, CommandSpec, GameCommand, Group, GAME_HELP};
use crate::config::Config;
use crate::store::games::Character;
use anyhow::{Context, Result};
use herald_engine::game::{Prompt, Side};
use herald_engine::psiknight::Style;
use herald_engine::tourney::{
    parse_skills, Bout, BoutSetup, Decision, Entrant, NewTourneyKnight, RuleError, Tables,
    TourneySheet, TourneyState, Weapon, WeaponState,
};
use serde_json::Value;

mod narrate;

/// The Tourney, with the realm's house tables (T10, T11, T8).
pub struct Tourney {
    tables: Tables,
}

const WEAPON_WORDS: &[&str] = &["broadsword", "mace", "axe", "greatsword"];

const COMMANDS: &[CommandSpec] = &[
    CommandSpec::game(
        &["knight", "create"],
        "/knight create NAME [--weapon W] [--skill W:N,...] [--strength N] [--dame]",
        "Create your Tourney knight: five weapon skills (0-6) and Strength (1-5) adding up to 10 (T12).",
        "/knight create Gimby --skill broadsword:4,dagger:1 --strength 5",
        &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your knight's name", "Gimby").greedy(),
            ArgSpec::flag("--weapon", "weapon", ArgKind::Choice(WEAPON_WORDS), "the main weapon (broadsword)", "--weapon mace"),
            ArgSpec::flag("--skill", "skill", ArgKind::Text, "weapon skills: W:N,...; the unlisted are 0", "--skill broadsword:4,dagger:1"),
            ArgSpec::flag("--strength", "strength", ArgKind::Number { min: 0, max: 99 }, "Strength (3)", "--strength 5"),
            ArgSpec::flag("--health", "health", ArgKind::Number { min: 0, max: 99 }, "Health: 7 for a player's knight, 1-20 for an NPC", "--health 7"),
            ArgSpec::flag("--dame", "dame", ArgKind::Switch, "styled Dame, not Sir", "--dame"),
        ],
        Group::Knights,
    ),
    CommandSpec::game(
        &["knight"],
        "/knight [NAME]",
        "Show a Tourney knight's sheet and state: skills, Strength, Health, hits, weapons.",
        "/knight Gimby",
        &[ArgSpec::pos("name", "NAME", ArgKind::Knight, "the knight; yours when left out", "Gimby").optional().greedy()],
        Group::Knights,
    ),
    CommandSpec::game(
        &["attack"],
        "/attack",
        "Your action: an opposed combat test against your opponent (T3).",
        "/attack",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["stand"],
        "/stand",
        "Your action while down: the Strength test to stand up, d6 + Strength beats 3 (T8).",
        "/stand",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["yield"],
        "/yield",
        "At your own decision: give up the bout (T14).",
        "/yield",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["smith"],
        "/smith [WEAPON]",
        "Out of a fight: repair your damaged weapons at once, or order a new main weapon for tomorrow (T16).",
        "/smith mace",
        &[ArgSpec::pos("weapon", "WEAPON", ArgKind::Choice(WEAPON_WORDS), "a new main weapon", "mace").optional()],
        Group::Knights,
    ),
    GAME_HELP,
];

fn sheet_of(c: &Character) -> Result<TourneySheet> {
    serde_json::from_value(c.sheet.clone())
        .with_context(|| format!("{}'s sheet does not parse", c.name))
}

fn state_of(c: &Character) -> Result<TourneyState> {
    serde_json::from_value(c.state.clone())
        .with_context(|| format!("{}'s state does not parse", c.name))
}

fn as_of(sheet: &TourneySheet, state: &TourneyState) -> AsOf {
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

impl Tourney {
    fn create(&self, command: &GameCommand, npc: bool, day: &str) -> Meaning<Decision> {
        let usage =
            "Usage: /knight create NAME [--weapon W] [--skill W:N,...] [--strength N] [--dame]";
        let Some(name) = command.arg("name") else {
            return Meaning::Refused(usage.into());
        };
        let skills = match command.arg("skill").map(parse_skills).transpose() {
            Ok(s) => s,
            Err(e) => return Meaning::Refused(format!("Cannot create {name}: {e}. {usage}")),
        };
        let main = match command.arg("weapon").map(str::parse::<Weapon>).transpose() {
            Ok(w) => w,
            Err(e) => return Meaning::Refused(format!("Cannot create {name}: {e}. {usage}")),
        };
        let new = NewTourneyKnight {
            name: name.to_string(),
            style: if command.has("dame") {
                Style::Dame
            } else {
                Style::Sir
            },
            main,
            skills,
            strength: number(command, "strength"),
            health: number(command, "health"),
        };
        match new.create(npc) {
            Ok(sheet) => {
                let state = TourneyState {
                    day: day.to_string(),
                    ..TourneyState::default()
                };
                Meaning::Create(sheet.name.clone(), as_of(&sheet, &state))
            }
            Err(e) => Meaning::Refused(format!("Cannot create {name}: {e}.")),
        }
    }

    fn smith(&self, command: &GameCommand, c: Option<&Character>, day: &str) -> Meaning<Decision> {
        let Some(c) = c else {
            return Meaning::Refused(
                "You have no Tourney knight to send to the smith. Create one: /knight create NAME"
                    .into(),
            );
        };
        let (Ok(sheet), Ok(state)) = (sheet_of(c), state_of(c)) else {
            return Meaning::Refused(format!("{}'s sheet cannot be read; ask an admin.", c.name));
        };
        let order = match command.arg("weapon").map(str::parse::<Weapon>).transpose() {
            Ok(w) => w,
            Err(e) => return Meaning::Refused(format!("{e}. Usage: /smith [WEAPON]")),
        };
        match state.smith(&sheet, order, day) {
            Ok((state, done)) => {
                let mut said = Vec::new();
                if !done.repaired.is_empty() {
                    let what: Vec<&str> = done.repaired.iter().map(|w| w.label()).collect();
                    said.push(format!(
                        "{}'s {} repaired (T16)",
                        sheet.styled(),
                        join_and(&what)
                    ));
                }
                if let Some(w) = done.ordered {
                    said.push(format!(
                        "{} orders a {}: it is his at the start of the realm's next day; until then he fights with his dagger (T16)",
                        sheet.styled(),
                        w.label()
                    ));
                } else if !done.coming.is_empty() {
                    let what: Vec<&str> = done.coming.iter().map(|w| w.label()).collect();
                    said.push(format!(
                        "a new {} comes at the start of the realm's next day",
                        join_and(&what)
                    ));
                }
                let line = format!("{}.", capitalized(&said.join("; ")));
                Meaning::Change(as_of(&sheet, &state), line)
            }
            Err(e) => Meaning::Refused(format!("{}: {e}.", sheet.styled())),
        }
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => format!("{one} is"),
        [init @ .., last] => format!("{} and {last} are", init.join(", ")),
    }
}

impl Game for Tourney {
    type Fight = Bout;

    const ID: &'static str = "tourney";
    const NAME: &'static str = "The Tourney";
    const CHARACTER: &'static str = "knight";
    const BOUT: &'static str = "a bout on foot";

    fn new(config: &Config) -> Result<Self> {
        let tables = match &config.tourney {
            Some(v) => v
                .clone()
                .try_into::<Tables>()
                .context("[tourney] is not a valid table of The Tourney's house rules")?,
            None => Tables::default(),
        };
        Ok(Tourney { tables })
    }

    fn commands() -> &'static [CommandSpec] {
        COMMANDS
    }

    fn meaning(
        &self,
        command: &GameCommand,
        character: Option<&Character>,
        npc: bool,
        day: &str,
    ) -> Meaning<Decision> {
        match command.name.as_str() {
            "knight create" => self.create(command, npc, day),
            "knight" => Meaning::Show(command.arg("name").map(str::to_string)),
            "attack" => Meaning::Decide(Decision::Attack),
            "stand" => Meaning::Decide(Decision::Stand),
            "yield" => Meaning::Decide(Decision::Yield),
            "smith" => self.smith(command, character, day),
            other => Meaning::Refused(format!(
                "/{other} is not a command of The Tourney; /help lists them."
            )),
        }
    }

    fn as_of(&self, c: &Character, day: &str) -> Result<AsOf> {
        let (sheet, state) = state_of(c)?.as_of(&sheet_of(c)?, day);
        Ok(as_of(&sheet, &state))
    }

    fn styled(&self, c: &Character) -> String {
        sheet_of(c).map_or_else(|_| c.name.clone(), |s| s.styled())
    }

    fn cannot_fight(&self, c: &Character) -> Result<Option<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        if state.is_out(&sheet) {
            return Ok(Some(format!(
                "{} is out of the Tourney at Health 0 until the realm's next day (T15).",
                sheet.styled()
            )));
        }
        if !state.armed() {
            return Ok(Some(format!(
                "{} has no weapon until the realm's next day (T7, T16).",
                sheet.styled()
            )));
        }
        Ok(None)
    }

    fn setup(&self, fighters: [&Character; 2]) -> Result<BoutSetup> {
        let entrant = |c: &Character| -> Result<Entrant> {
            Ok(Entrant {
                sheet: sheet_of(c)?,
                state: state_of(c)?,
            })
        };
        Ok(BoutSetup {
            knights: [entrant(fighters[0])?, entrant(fighters[1])?],
            tables: self.tables.clone(),
        })
    }

    fn after(&self, fight: &Bout, fighters: [&Character; 2], day: &str) -> Result<[AsOf; 2]> {
        // T21: hits and both weapons' states outlast the bout; an order at the smith too (T16).
        let [a, b] = fight.carry(day);
        Ok([
            as_of(&sheet_of(fighters[0])?, &a),
            as_of(&sheet_of(fighters[1])?, &b),
        ])
    }

    fn outcome(&self, fight: &Bout) -> Value {
        serde_json::to_value(fight.outcome()).unwrap_or(Value::Null)
    }

    fn event_json(&self, event: &herald_engine::tourney::Event, names: &[String; 2]) -> Value {
        serde_json::to_value(event.named(names)).unwrap_or(Value::Null)
    }

    fn narrate(&self, events: &[herald_engine::tourney::Event], sides: &Sides) -> Vec<String> {
        narrate::narrate(events, sides)
    }

    fn prompt(&self, fight: &Bout, prompt: &Prompt<Decision>, sides: &Sides, left: u64) -> String {
        let offer = if fight.yield_offered(prompt.side) {
            " at Health 1 you may yield (T14);"
        } else {
            ""
        };
        format!(
            "{},{offer} your action: {} ({left}s, then /{}).",
            sides.who(prompt.side),
            prompt
                .options
                .iter()
                .map(|d| format!("/{d}"))
                .collect::<Vec<_>>()
                .join(", "),
            prompt.default
        )
    }

    fn stage(&self, fight: &Bout, sides: &Sides) -> String {
        let mut said = vec![format!("Round {}", fight.round())];
        for side in Side::BOTH {
            let i = side.index();
            let (main, dagger) = fight.weapons(side);
            let mut parts = vec![format!("Health {}", fight.effective_health(side))];
            parts.push(format!("wields the {}", fight.wielding(side).label()));
            if main != WeaponState::Sound || dagger != WeaponState::Sound {
                parts.push(format!(
                    "{} {}, dagger {}",
                    fight.sheet(side).main.label(),
                    main.name(),
                    dagger.name()
                ));
            }
            if fight.is_down(side) {
                parts.push("down".into());
            }
            said.push(format!("{}: {}", sides.styled[i], parts.join(", ")));
        }
        format!("{}.", said.join("; "))
    }

    fn refusal(&self, fight: &Bout, error: &RuleError, sides: &Sides, side: Side) -> String {
        let me = &sides.styled[side.index()];
        match error {
            RuleError::NotYourTurn { awaited } => format!(
                "Not your move, {me}: waiting for {} to act ({}).",
                sides.who(*awaited),
                fight
                    .options(*awaited)
                    .iter()
                    .map(|d| format!("/{d}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            RuleError::FightOver => "That fight is over.".into(),
            other => format!("{me}: {other}."),
        }
    }

    fn sheet_lines(&self, c: &Character) -> Result<Vec<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        let skills: Vec<String> = Weapon::ALL
            .iter()
            .map(|&w| {
                let main = if w == sheet.main { " (main)" } else { "" };
                format!("{} {}{main}", w.token(), sheet.skills.get(w))
            })
            .collect();
        let who = match &c.owner {
            Some(o) => format!("{} ({o})", sheet.styled()),
            None => format!("{} (NPC)", sheet.styled()),
        };
        let mut weapons = format!(
            "{} {}, dagger {}",
            sheet.main.label(),
            state.main.name(),
            state.dagger.name()
        );
        if let Some(w) = state.ordered {
            weapons.push_str(&format!(
                "; a {} ordered, ready the realm's next day",
                w.label()
            ));
        }
        let health = state.effective_health(&sheet);
        let out = if health == 0 {
            ": out until the realm's next day (T15)"
        } else if health == 1 {
            ": -1 on every test (T13)"
        } else {
            ""
        };
        let r = c.record;
        Ok(vec![format!(
            "{who}: {}; Strength {} (+{} a blow); Health {} - {} hits = {health}{out}; {weapons}; {} {}, {} {}.",
            skills.join(", "),
            sheet.strength,
            self.tables.strength_bonus(sheet.strength),
            sheet.health,
            state.hits,
            r.wins,
            if r.wins == 1 { "win" } else { "wins" },
            r.losses,
            if r.losses == 1 { "loss" } else { "losses" },
        )])
    }

    fn rules(&self, _topic: Option<&str>) -> Vec<String> {
        vec![
            "The Tourney, on foot: a roll-off decides who acts first (T9); in turn each knight may /attack or /yield, and a knight down (-1 on combat tests) must /stand, d6 + Strength above 3, before anything else (T8).".into(),
            "An attack: both roll d6 + the skill of the weapon in hand; the attacker hits only above the defender's total, a tie is parried (T3); a 1 always fails and a 6 always succeeds (T2).".into(),
            "A fumble damages the weapon in hand (twice: it is lost and the dagger is drawn) on 1-3, or fells the knight on 4-6 (T6, T7, T8).".into(),
            "A hit takes the weapon's damage plus the Strength bonus off Health (T10, T11, T13); at Health 1 a knight has -1 on every test and may yield (T14); at 0 he is out until the realm's next day (T15).".into(),
            "Between fights /smith repairs a damaged weapon at once; a lost one is replaced on the realm's next day, when all hits heal (T15, T16).".into(),
        ]
    }

    fn npc_between_fights(&self, c: &Character, day: &str) -> Option<AsOf> {
        // T19: the policy takes an NPC to the smith after each fight.
        let (sheet, state) = (sheet_of(c).ok()?, state_of(c).ok()?);
        let (state, _) = state.smith(&sheet, None, day).ok()?;
        Some(as_of(&sheet, &state))
    }
}
