//! Psi Morphs (`psimorphs`) in chat: its commands, its morphs' sheets, the GM's `/check` out of
//! fights and what outlasts a fight, on the engine's [`herald_engine::psimorphs`]. Narration,
//! prompts and refusals are in [`narrate`].

use super::{AsOf, Game, Meaning, Rolled, Sides};
use crate::command::{ArgKind, ArgSpec, CommandSpec, GameCommand, Group as HelpGroup, GAME_HELP};
use crate::config::Config;
use crate::store::games::Character;
use anyhow::{Context, Result};
use chrono::{DateTime, Duration, Utc};
use herald_engine::dice::RollSource;
use herald_engine::game::{Prompt, Side};
use herald_engine::psimorphs::{
    gm_check, gm_keep, gm_redo, parse_pairs, Attribute, Decision, Effect, Entrant, Event,
    FightSetup, Group, MorphFight, MorphSheet, MorphState, NewMorph, RuleError, Tables, Target,
    NAME_FIELDS,
};
use serde_json::{json, Value};

mod narrate;

/// Psi Morphs, with the realm's house tables (PM4, PM12, PM16, PM19) and its decision timeout
/// (the GM's check's redo offer lapses with it, PM27).
pub struct PsiMorphs {
    tables: Tables,
    timeout_secs: u64,
}

const GROUP_WORDS: &[&str] = &[
    "combat",
    "physical",
    "mental",
    "negotiating",
    "atom",
    "energy",
];
const ATTRIBUTE_WORDS: &[&str] = &[
    "strength",
    "dexterity",
    "agility",
    "intelligence",
    "willpower",
    "resilience",
    "str",
    "dex",
    "agi",
    "int",
    "will",
    "res",
];
const SCORE: ArgKind = ArgKind::Number { min: 0, max: 1000 };
const ISP: ArgSpec = ArgSpec::flag(
    "--isp",
    "isp",
    ArgKind::Number {
        min: 0,
        max: 10_000,
    },
    "ISPs added to the check (PM13)",
    "--isp 2",
);

/// The usage of `/morph create`, for its refusals.
const CREATE_USAGE: &str = "/morph create NAME [--str N] [--dex N] [--agi N] [--int N] [--will N] [--res N] [--ranks G:N,...] [--master G:N,...] [--pafp N] [--pefp N] [--isp T:N,...] [--reflexes]";
const CHECK_USAGE: &str = "/check GROUP ATTRIBUTE DIFFICULTY [--isp N]";

const COMMANDS: &[CommandSpec] = &[
    CommandSpec::game(
        &["morph", "create"],
        CREATE_USAGE,
        "Create your morph: attributes 1-6 adding to 21, ranks 0-4 adding to 8, one edge, 10 FP, 8 ISP points (PM16); NPCs by moderators with /npc create and --level, --hp, --quickness (PM17).",
        "/morph create Ann --str 5 --dex 4 --agi 3 --int 3 --will 3 --res 3 --ranks combat:3,physical:1,energy:3,atom:1 --master combat:1",
        &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your morph's name", "Ann"),
            ArgSpec::flag("--str", "str", SCORE, "strength (4)", "--str 5"),
            ArgSpec::flag("--dex", "dex", SCORE, "dexterity (4)", "--dex 4"),
            ArgSpec::flag("--agi", "agi", SCORE, "agility (4)", "--agi 3"),
            ArgSpec::flag("--int", "int", SCORE, "intelligence (3)", "--int 3"),
            ArgSpec::flag("--will", "will", SCORE, "willpower (3)", "--will 3"),
            ArgSpec::flag("--res", "res", SCORE, "resilience (3)", "--res 3"),
            ArgSpec::flag("--strength", "strength", SCORE, "strength (4)", "--strength 5"),
            ArgSpec::flag("--dexterity", "dexterity", SCORE, "dexterity (4)", "--dexterity 4"),
            ArgSpec::flag("--agility", "agility", SCORE, "agility (4)", "--agility 3"),
            ArgSpec::flag("--intelligence", "intelligence", SCORE, "intelligence (3)", "--intelligence 3"),
            ArgSpec::flag("--willpower", "willpower", SCORE, "willpower (3)", "--willpower 3"),
            ArgSpec::flag("--resilience", "resilience", SCORE, "resilience (3)", "--resilience 3"),
            ArgSpec::flag("--ranks", "ranks", ArgKind::Text, "ranks by group G:N,...; the unlisted are 0", "--ranks combat:3,energy:2"),
            ArgSpec::flag("--master", "master", ArgKind::Text, "master ranks G:N,... (at most its ranks)", "--master combat:1"),
            ArgSpec::flag("--pafp", "pafp", SCORE, "PA FP (5)", "--pafp 5"),
            ArgSpec::flag("--pefp", "pefp", SCORE, "PE FP (5)", "--pefp 5"),
            ArgSpec::flag("--isp", "isp", ArgKind::Text, "ISPs by type T:N,... (combat 4, general 2)", "--isp combat:4,general:2"),
            ArgSpec::flag("--reflexes", "reflexes", ArgKind::Switch, "Lightning Reflexes, the edge instead of a master rank", "--reflexes"),
            ArgSpec::flag("--level", "level", SCORE, "NPCs: level 1-20", "--level 3"),
            ArgSpec::flag("--hp", "hp", SCORE, "NPCs: max hp 1-500", "--hp 40"),
            ArgSpec::flag("--quickness", "quickness", ArgKind::Switch, "NPCs: Lightning Quickness (PM10)", "--quickness"),
        ],
        HelpGroup::Knights,
    ),
    CommandSpec::game(
        &["morph", "retire"],
        "/morph retire",
        "Remove your morph from the books; its fights stay in the log.",
        "/morph retire",
        &[],
        HelpGroup::Knights,
    ),
    CommandSpec::game(
        &["forces"],
        "/forces",
        "The realm's force catalogue: id, name, type, difficulty, FP, target and effect (PM19).",
        "/forces",
        &[],
        HelpGroup::Knights,
    ),
    CommandSpec::game(
        &["fight"],
        "/fight TARGET",
        "Challenge a player's morph (by nick or name) or an NPC to a fight.",
        "/fight bo",
        &[ArgSpec::pos("target", "TARGET", ArgKind::Target, "a player's nick or a morph's name", "bo").greedy()],
        HelpGroup::Fights,
    ),
    CommandSpec::game(
        &["attack"],
        "/attack [TARGET] [--isp N]",
        "Your turn: a normal attack on your opponent, Combat + dexterity against its defence (PM25).",
        "/attack bo --isp 2",
        &[
            ArgSpec::pos("target", "TARGET", ArgKind::Target, "your opponent", "bo").optional().greedy(),
            ISP,
        ],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["force"],
        "/force NAME [--isp N]",
        "Your turn: use a force of the catalogue by id or name; its FP go, success or not (PM18).",
        "/force eb1 --isp 2",
        &[
            ArgSpec::pos("force", "NAME", ArgKind::Text, "the force's id or name (/forces)", "eb1").greedy(),
            ISP,
        ],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["pass"],
        "/pass",
        "Your turn: do nothing.",
        "/pass",
        &[],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["drop"],
        "/drop FORCE",
        "On your turn, free: end a force you maintain (PM22).",
        "/drop as1",
        &[ArgSpec::pos("force", "FORCE", ArgKind::Text, "the force's id or name", "as1").greedy()],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["breakfree"],
        "/breakfree FORCE",
        "On your turn, free: break free of a force your opponent has maintained on you for 10 rounds or more (PM22).",
        "/breakfree ll1",
        &[ArgSpec::pos("force", "FORCE", ArgKind::Text, "the force's id or name", "ll1").greedy()],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["defend"],
        "/defend combat|physical [--isp N]",
        "When attacked: defend with Combat or Misc Physical, + agility (PM26; an NPC uses Combat).",
        "/defend physical",
        &[
            ArgSpec::pos("group", "combat|physical", ArgKind::Choice(&["combat", "physical"]), "the defence's group", "physical"),
            ISP,
        ],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["resist"],
        "/resist atom|energy|mental [--isp N]",
        "When an enemy force succeeds on you: resist with its group or Misc Mental (PM21).",
        "/resist energy",
        &[
            ArgSpec::pos("group", "atom|energy|mental", ArgKind::Choice(&["atom", "energy", "mental"]), "the resistance's group", "energy"),
            ISP,
        ],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["redo"],
        "/redo",
        "When an outcome goes against you: redo your check for 3 ISPs of its type or General (PM14).",
        "/redo",
        &[],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["keep"],
        "/keep",
        "When an outcome goes against you: keep it (PM14).",
        "/keep",
        &[],
        HelpGroup::Decisions,
    ),
    CommandSpec::game(
        &["check"],
        CHECK_USAGE,
        "Out of fights, the GM's check for your morph: 2d10 + level + ranks + half the attribute against the difficulty 1-200 (PM27).",
        "/check negotiating intelligence 25 --isp 1",
        &[
            ArgSpec::pos("group", "GROUP", ArgKind::Choice(GROUP_WORDS), "the skill group", "negotiating"),
            ArgSpec::pos("attribute", "ATTRIBUTE", ArgKind::Choice(ATTRIBUTE_WORDS), "the attribute", "intelligence"),
            ArgSpec::pos("difficulty", "DIFFICULTY", ArgKind::Number { min: 0, max: 1_000_000 }, "the difficulty the GM names, 1-200", "25"),
            ISP,
        ],
        HelpGroup::Knights,
    ),
    CommandSpec::game(
        &["yield"],
        "/yield",
        "At any of your own decisions: give up the fight, a loss (PM11).",
        "/yield",
        &[],
        HelpGroup::Decisions,
    ),
    GAME_HELP,
];

fn sheet_of(c: &Character) -> Result<MorphSheet> {
    serde_json::from_value(c.sheet.clone())
        .with_context(|| format!("{}'s sheet does not parse", c.name))
}

fn state_of(c: &Character) -> Result<MorphState> {
    serde_json::from_value(c.state.clone())
        .with_context(|| format!("{}'s state does not parse", c.name))
}

fn as_of(sheet: &MorphSheet, state: &MorphState) -> AsOf {
    AsOf {
        sheet: serde_json::to_value(sheet).unwrap_or(Value::Null),
        state: serde_json::to_value(state).unwrap_or(Value::Null),
    }
}

/// A number option as given; one past the bounds when it does not fit, so the rules refuse it.
fn number(command: &GameCommand, name: &str) -> Option<u32> {
    command
        .arg(name)
        .map(|n| n.parse::<u32>().unwrap_or(u32::MAX))
}

fn isp(command: &GameCommand) -> u16 {
    number(command, "isp").map_or(0, |n| n.min(u32::from(u16::MAX)) as u16)
}

/// A morph's name (the page's sheet): 1-20 letters, digits, `-` or `_`, a letter first.
fn check_name(name: &str) -> Result<(), String> {
    let ok = (1..=20).contains(&name.chars().count())
        && name.chars().next().is_some_and(char::is_alphabetic)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "a morph's name is 1-20 letters, digits, - or _, a letter first; '{name}' is not"
        ))
    }
}

/// Events of a GM's check as JSON, the morph named.
fn check_events(events: &[Event], name: &str) -> Vec<Value> {
    let names = [name.to_string(), String::new()];
    events.iter().map(|e| named(e, &names)).collect()
}

/// An event's JSON with every field that names a fighter holding its name.
fn named(event: &Event, names: &[String; 2]) -> Value {
    let mut v = serde_json::to_value(event).unwrap_or(Value::Null);
    name_sides(&mut v, names);
    v
}

fn name_sides(v: &mut Value, names: &[String; 2]) {
    let side = |v: &mut Value| {
        if let Value::String(s) = v {
            match s.as_str() {
                "challenger" => *s = names[0].clone(),
                "challenged" => *s = names[1].clone(),
                _ => {}
            }
        }
    };
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if NAME_FIELDS.contains(&k.as_str()) {
                    match x {
                        Value::Array(items) => items.iter_mut().for_each(side),
                        other => side(other),
                    }
                } else {
                    name_sides(x, names);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| name_sides(x, names)),
        _ => {}
    }
}

impl PsiMorphs {
    fn create(&self, command: &GameCommand, npc: bool, day: &str) -> Meaning<Decision> {
        let usage = if npc {
            "Usage: /npc create NAME [the options of /morph create] [--level N] [--hp N] [--quickness]"
                .to_string()
        } else {
            format!("Usage: {CREATE_USAGE}")
        };
        let Some(name) = command.arg("name") else {
            return Meaning::Refused(usage);
        };
        if let Err(e) = check_name(name) {
            return Meaning::Refused(format!("Cannot create {name}: {e}. {usage}"));
        }
        let attribute = |short: &str, long: &str| number(command, short).or(number(command, long));
        let pairs = |option: &str| command.arg(option).map(parse_pairs).transpose();
        let isp = command.arg("isp").map(parse_pairs).transpose();
        let (ranks, master, isp) = match (pairs("ranks"), pairs("master"), isp) {
            (Ok(r), Ok(m), Ok(i)) => (r, m, i),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                return Meaning::Refused(format!("Cannot create {name}: {e}. {usage}"))
            }
        };
        let new = NewMorph {
            attributes: [
                attribute("str", "strength"),
                attribute("dex", "dexterity"),
                attribute("agi", "agility"),
                attribute("int", "intelligence"),
                attribute("will", "willpower"),
                attribute("res", "resilience"),
            ],
            ranks,
            master,
            pa_fp: number(command, "pafp"),
            pe_fp: number(command, "pefp"),
            isp,
            reflexes: command.has("reflexes"),
            level: number(command, "level"),
            hp: number(command, "hp"),
            quickness: command.has("quickness"),
        };
        match new.create(npc, &self.tables.budget) {
            Ok(sheet) => {
                let state = MorphState::fresh(&sheet, day);
                Meaning::Create(name.to_string(), as_of(&sheet, &state))
            }
            Err(e) => Meaning::Refused(format!("Cannot create {name}: {e}.")),
        }
    }

    /// A force named in a command, by id or name.
    fn force(
        &self,
        command: &GameCommand,
        usage: &str,
    ) -> Result<herald_engine::psimorphs::ForceId, String> {
        let text = command.arg("force").unwrap_or("");
        self.tables.find(text).ok_or_else(|| {
            format!(
                "No force '{}' in the realm's catalogue (/forces lists them). Usage: {usage}",
                text.trim()
            )
        })
    }

    fn forces_line(&self) -> String {
        let forces: Vec<String> = self
            .tables
            .forces
            .iter()
            .map(|f| {
                let effect = match f.effect {
                    Effect::Damage(n) => format!("{n} damage"),
                    Effect::Heal(n) => format!("restores {n} hp"),
                    Effect::Modifier { attribute, amount } => {
                        format!("{attribute} {amount:+}, maintained")
                    }
                };
                let target = match f.target {
                    Target::User => "self",
                    Target::Enemy => "enemy",
                };
                format!(
                    "{} {} ({}, DC {}, {} FP, {target}: {effect})",
                    f.id,
                    f.name,
                    f.kind.label(),
                    f.difficulty,
                    f.fp
                )
            })
            .collect();
        format!("Forces (PM19): {}.", forces.join("; "))
    }

    fn group(command: &GameCommand) -> Group {
        command
            .arg("group")
            .and_then(|g| g.parse().ok())
            .unwrap_or(Group::Combat)
    }

    /// `/check` and its `/redo`, `/keep` for a morph (PM27).
    fn gm(
        &self,
        command: &GameCommand,
        c: &Character,
        now: DateTime<Utc>,
        mut dice: &mut dyn RollSource,
    ) -> Result<Rolled> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        let who = match &c.owner {
            Some(o) => format!("{} ({o})", c.name),
            None => c.name.clone(),
        };
        let until =
            (now + Duration::seconds(self.timeout_secs.min(i64::MAX as u64) as i64)).to_rfc3339();
        let mut events = Vec::new();
        let refused = |line: String| Rolled {
            lines: vec![line],
            ..Rolled::default()
        };
        let outcome = match command.name.as_str() {
            "check" => {
                let group: Group = command
                    .arg("group")
                    .and_then(|g| g.parse().ok())
                    .unwrap_or(Group::Combat);
                let attribute: Attribute = command
                    .arg("attribute")
                    .and_then(|a| a.parse().ok())
                    .unwrap_or(Attribute::Strength);
                let difficulty = command
                    .arg("difficulty")
                    .and_then(|d| d.parse::<i64>().ok())
                    .unwrap_or(0);
                gm_check(
                    &sheet,
                    &state,
                    group,
                    attribute,
                    difficulty,
                    isp(command),
                    &self.tables,
                    &until,
                    &mut dice,
                    &mut events,
                )
            }
            "redo" => {
                let lapsed = state
                    .check
                    .as_ref()
                    .and_then(|p| DateTime::parse_from_rfc3339(&p.until).ok())
                    .is_some_and(|u| u <= now);
                if lapsed {
                    // The offer lapsed (PM27: 120 s, then /keep): the keep is taken now.
                    let Ok((state, total)) = gm_keep(&state, &mut events) else {
                        return Ok(refused(String::new()));
                    };
                    return Ok(Rolled {
                        state: Some(serde_json::to_value(&state)?),
                        lines: vec![format!(
                            "{who}: the redo offer had lapsed, so /keep was taken: {} keeps {total} (PM27).",
                            c.name
                        )],
                        events: check_events(&events, &c.name),
                    });
                }
                gm_redo(&state, &self.tables, &until, &mut dice, &mut events)
            }
            _ => match gm_keep(&state, &mut events) {
                Ok((state, total)) => {
                    return Ok(Rolled {
                        state: Some(serde_json::to_value(&state)?),
                        lines: vec![format!("{} keeps {total}.", c.name)],
                        events: check_events(&events, &c.name),
                    })
                }
                Err(e) => {
                    return Ok(refused(format!(
                        "{who}: {e}. Usage: {CHECK_USAGE}, then /redo or /keep"
                    )))
                }
            },
        };
        let o = match outcome {
            Ok(o) => o,
            Err(e) => {
                return Ok(refused(format!(
                    "{who}: {e}. Usage: {CHECK_USAGE}, then /redo or /keep"
                )))
            }
        };
        let mut lines = narrate::narrate_events(&events, &narrate::Names::one(&c.name));
        if o.offered {
            lines.push(format!(
                "{who}, {} vs {} goes against you: /redo ({} ISPs), /keep ({}s, then /keep).",
                o.rolled.total,
                events
                    .iter()
                    .find_map(|e| match e {
                        Event::Check(c) => c.difficulty,
                        _ => None,
                    })
                    .unwrap_or(0),
                self.tables.redo_cost,
                self.timeout_secs
            ));
        }
        Ok(Rolled {
            state: Some(serde_json::to_value(&o.state)?),
            lines,
            events: check_events(&events, &c.name),
        })
    }
}

impl Game for PsiMorphs {
    type Fight = MorphFight;

    const ID: &'static str = "psimorphs";
    const NAME: &'static str = "Psi Morphs";
    const CHARACTER: &'static str = "morph";
    const BOUT: &'static str = "a fight";

    fn new(config: &Config) -> Result<Self> {
        let tables = match &config.psimorphs {
            Some(v) => v
                .clone()
                .try_into::<Tables>()
                .context("[psimorphs] is not a valid table of Psi Morphs' house rules")?,
            None => Tables::default(),
        };
        tables.validate()?;
        Ok(PsiMorphs {
            tables,
            timeout_secs: config.realm.decision_timeout_secs,
        })
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
            "morph create" => self.create(command, npc, day),
            "morph retire" => Meaning::Retire,
            // An answer that changes nothing, as one line.
            "forces" => Meaning::Refused(self.forces_line()),
            "fight" => match command.arg("target") {
                Some(t) => Meaning::Challenge(t.to_string()),
                None => Meaning::Refused(
                    "Usage: /fight TARGET (a player's nick or a morph's name)".into(),
                ),
            },
            "attack" => {
                let d = Decision::Attack { isp: isp(command) };
                match command.arg("target") {
                    Some(t) => Meaning::DecideOn(d, t.to_string()),
                    None => Meaning::Decide(d),
                }
            }
            "force" => match self.force(command, "/force NAME [--isp N]") {
                Ok(force) => Meaning::Decide(Decision::Force {
                    force,
                    isp: isp(command),
                }),
                Err(line) => Meaning::Refused(line),
            },
            "drop" => match self.force(command, "/drop FORCE") {
                Ok(force) => Meaning::Decide(Decision::Drop { force }),
                Err(line) => Meaning::Refused(line),
            },
            "breakfree" => match self.force(command, "/breakfree FORCE") {
                Ok(force) => Meaning::Decide(Decision::BreakFree { force }),
                Err(line) => Meaning::Refused(line),
            },
            "pass" => Meaning::Decide(Decision::Pass),
            "yield" => Meaning::Decide(Decision::Yield),
            "defend" => Meaning::Decide(Decision::Defend {
                group: Self::group(command),
                isp: isp(command),
            }),
            "resist" => Meaning::Decide(Decision::Resist {
                group: Self::group(command),
                isp: isp(command),
            }),
            // Out of the speaker's fight, /redo and /keep answer a GM's check (PM27).
            "redo" if character.is_some() => Meaning::Roll(Some(Decision::Redo)),
            "keep" if character.is_some() => Meaning::Roll(Some(Decision::Keep)),
            "redo" => Meaning::Decide(Decision::Redo),
            "keep" => Meaning::Decide(Decision::Keep),
            "check" => Meaning::Roll(None),
            other => Meaning::Refused(format!(
                "/{other} is not a command of Psi Morphs; /help lists them."
            )),
        }
    }

    fn as_of(&self, c: &Character, day: &str) -> Result<AsOf> {
        let sheet = sheet_of(c)?;
        Ok(as_of(&sheet, &state_of(c)?.as_of(&sheet, day)))
    }

    fn styled(&self, c: &Character) -> String {
        c.name.clone()
    }

    fn cannot_fight(&self, c: &Character) -> Result<Option<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        if state.dead {
            return Ok(Some(format!(
                "{} is dead (PM9) and never fights again; its player may create another with /morph create.",
                c.name
            )));
        }
        if state.unconscious() {
            return Ok(Some(format!(
                "{} is unconscious at {} hp of {} until the realm's next day (PM8, PM28).",
                c.name, state.hp, sheet.max_hp
            )));
        }
        Ok(None)
    }

    fn setup(&self, fighters: [&Character; 2]) -> Result<FightSetup> {
        let entrant = |c: &Character| -> Result<Entrant> {
            Ok(Entrant {
                name: c.name.clone(),
                owner: c.owner.clone(),
                sheet: sheet_of(c)?,
                state: state_of(c)?,
            })
        };
        Ok(FightSetup {
            morphs: [entrant(fighters[0])?, entrant(fighters[1])?],
            tables: self.tables.clone(),
        })
    }

    fn after(
        &self,
        fight: &MorphFight,
        fighters: [&Character; 2],
        _day: &str,
    ) -> Result<[AsOf; 2]> {
        // PM28: hp, FP, ISPs and death outlast the fight; the day stays that of the last
        // recovery, so a later day's first touch recovers what the fight wrote.
        let [a, b] = fight.carry();
        Ok([
            as_of(&sheet_of(fighters[0])?, &a),
            as_of(&sheet_of(fighters[1])?, &b),
        ])
    }

    fn outcome(&self, fight: &MorphFight) -> Value {
        serde_json::to_value(fight.outcome()).unwrap_or(Value::Null)
    }

    fn event_json(&self, event: &Event, names: &[String; 2]) -> Value {
        named(event, names)
    }

    fn narrate(&self, events: &[Event], sides: &Sides) -> Vec<String> {
        narrate::narrate_events(events, &narrate::Names::of(sides))
    }

    fn prompt(
        &self,
        fight: &MorphFight,
        prompt: &Prompt<Decision>,
        sides: &Sides,
        left: u64,
    ) -> String {
        narrate::prompt(fight, prompt, sides, left)
    }

    fn stage(&self, fight: &MorphFight, sides: &Sides) -> String {
        narrate::stage(fight, sides)
    }

    fn refusal(&self, fight: &MorphFight, error: &RuleError, sides: &Sides, side: Side) -> String {
        narrate::refusal(fight, error, sides, side)
    }

    fn sheet_lines(&self, c: &Character) -> Result<Vec<String>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        Ok(vec![narrate::sheet_line(c, &sheet, &state)])
    }

    fn npc_between_fights(&self, _c: &Character, _day: &str) -> Option<AsOf> {
        None
    }

    fn roll(
        &self,
        command: &GameCommand,
        c: &Character,
        now: DateTime<Utc>,
        dice: &mut dyn RollSource,
    ) -> Rolled {
        self.gm(command, c, now, dice).unwrap_or_else(|e| Rolled {
            lines: vec![format!(
                "{}'s sheet cannot be read ({e:#}); ask an admin.",
                c.name
            )],
            ..Rolled::default()
        })
    }

    fn recovery(&self, c: &Character, day: &str) -> Result<Option<(AsOf, Value)>> {
        let (sheet, state) = (sheet_of(c)?, state_of(c)?);
        let mut after = state.as_of(&sheet, day);
        if !after.recovered {
            return Ok(None);
        }
        // Saved now, so the flag that tells a fight's start to report it is not kept.
        after.recovered = false;
        let event = json!({
            "type": "recovered",
            "name": c.name,
            "hp": after.hp,
            "pa_fp": after.pa_fp,
            "pe_fp": after.pe_fp,
            "isp": after.isp,
        });
        Ok(Some((as_of(&sheet, &after), event)))
    }

    fn lapse(&self, c: &Character) -> Option<(DateTime<Utc>, &'static str)> {
        // PM27: a redo offer unanswered for the decision timeout takes /keep.
        let until = state_of(c).ok()?.check?.until;
        let until = DateTime::parse_from_rfc3339(&until).ok()?;
        Some((until.with_timezone(&Utc), "/keep"))
    }

    fn gone(&self, c: &Character) -> bool {
        state_of(c).is_ok_and(|s| s.dead)
    }

    fn challenge_event(&self, kind: &'static str, sides: &Sides, by: Side) -> Option<Value> {
        Some(json!({
            "type": kind,
            "challenger": sides.plain[0],
            "challenged": sides.plain[1],
            "npc": sides.npc[1],
            "name": sides.plain[by.index()],
        }))
    }
}
