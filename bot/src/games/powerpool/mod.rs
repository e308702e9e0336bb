//! Psionic combat with power pools (`powerpool`) in chat: its commands, its creatures' sheets
//! and what outlasts a fight, on the engine's [`herald_engine::powerpool`]. The decisions are
//! read in [`read`]; narration, prompts and refusals are in [`narrate`].

use super::{AsOf, Game, Meaning, Sides};
use crate::command::{ArgKind, ArgSpec, CommandSpec, GameCommand, Group, GAME_HELP};
use crate::config::Config;
use crate::store::games::Character;
use anyhow::{Context, Result};
use herald_engine::game::{Prompt, Side};
use herald_engine::powerpool::{
    AttackMode, Combat, Decision, DefenseMode, Entrant, Event, Kind, NewCreature, RuleError, Rules,
    Setup, Sheet, Standing, State,
};
use serde_json::Value;

mod narrate;
mod read;

/// Psionic combat with power pools, with the realm's house data (PC31, PC34).
pub struct PowerPool {
    rules: Rules,
}

const KIND_WORDS: &[&str] = &["psionicist", "wild", "none"];
const ORDER_WORDS: &[&str] = &["pass", "yield"];

const CREATE_USAGE: &str = "/creature create NAME --kind psionicist|wild|none --hd N [--die dX] [--attack M,M] [--defense M,M] [--spells L,L]";

const COMMANDS: &[CommandSpec] = &[
    CommandSpec::game(
        &["creature", "create"],
        CREATE_USAGE,
        "Create your creature: its kind of mind, hit dice and the modes it knows (budget PC34); moderators add --hp and --save to /npc create.",
        "/creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra,pinnacle",
        &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your creature's name", "Ash"),
            ArgSpec::flag("--kind", "kind", ArgKind::Choice(KIND_WORDS), "psionicist, wild (a wild talent) or none (PC3, PC4)", "--kind psionicist").required(),
            ArgSpec::flag("--hd", "hd", ArgKind::Number { min: 0, max: 999 }, "hit dice: 1-8 for a player's creature", "--hd 8").required(),
            ArgSpec::flag("--die", "die", ArgKind::Text, "the hit die (d8)", "--die d6"),
            ArgSpec::flag("--attack", "attack", ArgKind::Text, "attack modes: stab, invasion, wave, subversion, overload", "--attack stab,overload"),
            ArgSpec::flag("--defense", "defense", ArgKind::Text, "defense modes: mantra, blank, labyrinth, swarm, pinnacle", "--defense mantra"),
            ArgSpec::flag("--spells", "spells", ArgKind::Text, "memorised spell levels, e.g. 3,2,1", "--spells 3,2,1"),
            ArgSpec::flag("--hp", "hp", ArgKind::Number { min: 0, max: 99_999 }, "NPCs only: hit points 1-999 (PC35)", "--hp 40"),
            ArgSpec::flag("--save", "save", ArgKind::Number { min: 0, max: 999 }, "NPCs only: the save, 2-20 (PC35)", "--save 12"),
        ],
        Group::Knights,
    ),
    CommandSpec::game(
        &["creature", "retire"],
        "/creature retire",
        "Out of a fight: retire your creature, so that you may create another; its fights stay in the books.",
        "/creature retire",
        &[],
        Group::Knights,
    ),
    CommandSpec::game(
        &["creature"],
        "/creature [NAME]",
        "Show a creature's sheet and state: kind, hit dice, pool, HP, save, modes, spells left, record.",
        "/creature Ash",
        &[ArgSpec::pos("name", "NAME", ArgKind::Knight, "the creature; yours when left out", "Ash").optional().greedy()],
        Group::Knights,
    ),
    CommandSpec::game(
        &["psicombat"],
        "/psicombat FOE[,FOE] [--with ALLY[,ALLY]]",
        "Challenge a player (their creature) or a creature to psionic combat (PC33); your creature must be psionic. Groups: up to three a side, e.g. /psicombat bo,dee --with cai; every named player must /accept, one /decline calls it off.",
        "/psicombat bo",
        &[
            ArgSpec::pos("foes", "FOE", ArgKind::Target, "a player's nick or a creature's name", "bo"),
            ArgSpec::flag("--with", "with", ArgKind::Text, "your allies, up to two: players' nicks or creatures' names (an NPC ally only by a moderator)", "--with Cai"),
        ],
        Group::Fights,
    ),
    CommandSpec::game(
        &["attack"],
        "/attack TARGET[,TARGET] MODE [DICE] [nofear]",
        "Your turn: attack with a mode you know, rolling DICE of your pool (all by default); several targets only with wave; nofear for a Subversion without fear (PC9, PC29).",
        "/attack Brim stab",
        &[
            ArgSpec::pos("target", "TARGET", ArgKind::Text, "the creature attacked", "Brim"),
            ArgSpec::pos("mode", "MODE", ArgKind::Text, "stab, invasion, wave, subversion or overload", "stab"),
            ArgSpec::pos("more", "[DICE] [nofear]", ArgKind::Text, "dice of your pool; nofear", "4").optional().greedy(),
        ],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["maintain"],
        "/maintain NAME",
        "Your turn: keep your control of NAME with the turn's action (PC22).",
        "/maintain Brim",
        &[ArgSpec::pos("name", "NAME", ArgKind::Text, "the creature you control", "Brim").greedy()],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["dedicate"],
        "/dedicate NAME",
        "Your turn, free: keep your control of NAME with a die of your pool until you release it (PC22).",
        "/dedicate Brim",
        &[ArgSpec::pos("name", "NAME", ArgKind::Text, "the creature you control", "Brim").greedy()],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["release"],
        "/release NAME",
        "Your turn, free: end your control of NAME; a dedicated die returns (PC22).",
        "/release Brim",
        &[ArgSpec::pos("name", "NAME", ArgKind::Text, "the creature you control", "Brim").greedy()],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["pass"],
        "/pass",
        "Your turn: do nothing (PC8).",
        "/pass",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["defend"],
        "/defend MODE|none [DICE] [spells L,L] [draw NAME,NAME]",
        "Attacked (or drawn in): defend with a mode you know or none, DICE of your pool (all by default), memorised spells for a bonus, allies drawn by Imagination Swarm (PC11, PC15, PC28).",
        "/defend blank spells 3,2",
        &[
            ArgSpec::pos("mode", "MODE", ArgKind::Text, "mantra, blank, labyrinth, swarm, pinnacle or none", "blank"),
            ArgSpec::pos("more", "[DICE] [spells L,L] [draw NAME,NAME]", ArgKind::Text, "dice, spells, allies drawn", "2").optional().greedy(),
        ],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["join"],
        "/join [DICE] [spells L,L] [draw NAME,NAME]",
        "An ally with Imagination Swarm: join the defense of an attacked ally (PC28).",
        "/join 3",
        &[ArgSpec::pos("more", "[DICE] [spells L,L] [draw NAME,NAME]", ArgKind::Text, "dice, spells, allies drawn", "3").optional().greedy()],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["stay"],
        "/stay",
        "An ally with Imagination Swarm: stay out of the defense (PC28).",
        "/stay",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["puppet"],
        "/puppet pass|yield",
        "On your puppet's turn: let it pass, or order it to yield, which it resists with a save (PC25).",
        "/puppet yield",
        &[ArgSpec::pos("order", "ORDER", ArgKind::Choice(ORDER_WORDS), "pass or yield", "pass")],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["yield"],
        "/yield",
        "At any time: your creature leaves the fight and loses (PC32).",
        "/yield",
        &[],
        Group::Decisions,
    ),
    CommandSpec::game(
        &["rest"],
        "/rest",
        "Out of a fight, once per realm day: a night's rest brings back the pool, HP and spells (PC39).",
        "/rest",
        &[],
        Group::Knights,
    ),
    GAME_HELP,
];

fn sheet_of(c: &Character) -> Result<Sheet> {
    serde_json::from_value(c.sheet.clone())
        .with_context(|| format!("{}'s sheet does not parse", c.name))
}

fn state_of(c: &Character) -> Result<State> {
    serde_json::from_value(c.state.clone())
        .with_context(|| format!("{}'s state does not parse", c.name))
}

fn entrant(c: &Character) -> Result<Entrant> {
    Ok(Entrant {
        sheet: sheet_of(c)?,
        state: state_of(c)?,
    })
}

/// A creature of the fight by name, or a line naming those there are.
fn seat_named(fight: &Combat, name: &str) -> Result<u8, String> {
    fight.seat_named(name).ok_or_else(|| {
        let names: Vec<&str> = (0..fight.seats()).map(|s| fight.name(s)).collect();
        format!(
            "no creature named '{}' in this fight ({})",
            name.trim(),
            names.join(", ")
        )
    })
}

fn as_of(sheet: &Sheet, state: &State) -> AsOf {
    AsOf {
        sheet: serde_json::to_value(sheet).unwrap_or(Value::Null),
        state: serde_json::to_value(state).unwrap_or(Value::Null),
    }
}

impl PowerPool {
    fn create(&self, command: &GameCommand, npc: bool) -> Meaning<Decision> {
        let usage = format!("Usage: {CREATE_USAGE}");
        let Some(name) = command.arg("name") else {
            return Meaning::Refused(usage);
        };
        let refuse = |why: String| Meaning::Refused(format!("Cannot create {name}: {why}."));
        let number = |arg: &str| {
            command
                .arg(arg)
                .map(|n| n.parse::<u32>().unwrap_or(u32::MAX))
        };
        let die = match command.arg("die").map(read::die).transpose() {
            Ok(d) => d,
            Err(e) => return refuse(format!("{e}. {usage}")),
        };
        let attacks = match read::list(command.arg("attack"), |w| {
            AttackMode::parse(w).ok_or(format!(
                "'{w}' is not an attack mode: stab, invasion, wave, subversion, overload"
            ))
        }) {
            Ok(l) => l,
            Err(e) => return refuse(e),
        };
        let defenses = match read::list(command.arg("defense"), |w| {
            DefenseMode::parse(w).ok_or(format!(
                "'{w}' is not a defense mode: mantra, blank, labyrinth, swarm, pinnacle"
            ))
        }) {
            Ok(l) => l,
            Err(e) => return refuse(e),
        };
        let spells = match read::list(command.arg("spells"), |w| {
            w.parse::<u32>()
                .map_err(|_| format!("'{w}' is not a spell level: levels are 1 to 9, e.g. 3,2,1"))
        }) {
            Ok(l) => l,
            Err(e) => return refuse(e),
        };
        let new = NewCreature {
            name: name.to_string(),
            kind: command.arg("kind").and_then(Kind::parse),
            hd: number("hd"),
            die,
            attacks,
            defenses,
            spells,
            hp: number("hp"),
            save: number("save"),
        };
        match new.create(npc, &self.rules) {
            Ok(sheet) => {
                let state = State::fresh(&sheet);
                Meaning::Create(sheet.name.clone(), as_of(&sheet, &state))
            }
            Err(e) => refuse(e.to_string()),
        }
    }

    fn rest(&self, c: Option<&Character>, day: &str) -> Meaning<Decision> {
        let Some(c) = c else {
            return Meaning::Refused(
                "You have no creature to rest. Create one: /creature create NAME".into(),
            );
        };
        let (Ok(sheet), Ok(state)) = (sheet_of(c), state_of(c)) else {
            return Meaning::Refused(format!("{}'s sheet cannot be read; ask an admin.", c.name));
        };
        match state.rest(&sheet, day) {
            Ok(rested) => Meaning::Change(
                as_of(&sheet, &rested),
                format!(
                    "{} rests: {} HP, pool {}d{}, every spell memorised again (PC39).",
                    sheet.name,
                    rested.hp,
                    sheet.pool(),
                    sheet.die
                ),
            ),
            Err(e) => Meaning::Refused(format!("{}: {e}; again tomorrow.", sheet.name)),
        }
    }
}

impl Game for PowerPool {
    type Fight = Combat;

    const ID: &'static str = "powerpool";
    const NAME: &'static str = "Power Pools";
    const CHARACTER: &'static str = "creature";
    const BOUT: &'static str = "a psionic combat";

    fn new(config: &Config) -> Result<Self> {
        let rules = match &config.powerpool {
            Some(v) => v
                .clone()
                .try_into::<Rules>()
                .context("[powerpool] is not a valid table of psionic combat's house data")?,
            None => Rules::default(),
        };
        Ok(PowerPool { rules })
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
            "creature create" => self.create(command, npc),
            "creature" => Meaning::Show(command.arg("name").map(str::to_string)),
            "creature retire" => Meaning::Retire,
            "psicombat" => read::challenge(command),
            "rest" => self.rest(character, day),
            // Out of a fight (or for a speaker not in it) no creature is named yet: the
            // referee answers that there is no fight, or who acts in it.
            _ => read::decision(command, &|_| Ok(0), &[]),
        }
    }

    fn meaning_in_fight(
        &self,
        fight: &Combat,
        side: Side,
        command: &GameCommand,
    ) -> Option<Meaning<Decision>> {
        if !read::is_decision(&command.name) {
            return None;
        }
        let seat = |name: &str| seat_named(fight, name);
        // By the side's awaited creature, else (a moderator's order for later, a /yield) by
        // the side's one creature.
        let mut by: Vec<u8> = fight
            .awaited()
            .into_iter()
            .filter(|&s| fight.side_of(s) == side)
            .collect();
        if by.is_empty() {
            by = (0..fight.seats())
                .filter(|&s| fight.side_of(s) == side)
                .collect();
        }
        Some(read::decision(command, &seat, &by))
    }

    fn decision_text(&self, fight: &Combat, decision: &Decision) -> String {
        decision.act.text(&|s| fight.name(s).to_string())
    }

    fn as_of(&self, c: &Character, _day: &str) -> Result<AsOf> {
        // Nothing returns by itself: HP, dice and spells wait for /rest (PC39).
        Ok(as_of(&sheet_of(c)?, &state_of(c)?))
    }

    fn styled(&self, c: &Character) -> String {
        c.name.clone()
    }

    fn cannot_fight(&self, c: &Character) -> Result<Option<String>> {
        let state = state_of(c)?;
        if state.hp <= 0 {
            return Ok(Some(format!(
                "{} is unconscious at {} HP and cannot fight until it rests (/rest, PC30, PC39).",
                c.name, state.hp
            )));
        }
        Ok(None)
    }

    fn cannot_challenge(&self, c: &Character) -> Result<Option<String>> {
        if sheet_of(c)?.kind.psionic() {
            return Ok(None);
        }
        Ok(Some(format!(
            "PC33: only a psionically active creature begins psionic combat, and {} is not psionic; it may be named as a foe.",
            c.name
        )))
    }

    fn setup(&self, fighters: [&Character; 2]) -> Result<Setup> {
        Ok(Setup::duel(
            entrant(fighters[0])?,
            entrant(fighters[1])?,
            self.rules.clone(),
        ))
    }

    // PC33: sides of one to three.
    const MAX_SIDE: usize = 3;

    fn group_setup(&self, fighters: &[&Character], challengers: usize) -> Result<Setup> {
        // PC33: listing order is the challenger, its allies as named, the foes as named.
        Ok(Setup {
            creatures: fighters
                .iter()
                .map(|c| entrant(c))
                .collect::<Result<Vec<_>>>()?
                .into(),
            challengers: u8::try_from(challengers).context("too many challengers")?,
            rules: self.rules.clone(),
        })
    }

    fn group_after(
        &self,
        fight: &Combat,
        fighters: &[&Character],
        _day: &str,
    ) -> Result<Vec<AsOf>> {
        // What persists, for every member (PC36, "Between fights").
        let carried = fight.carry();
        fighters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let state = carried.get(i).context("a creature left no state")?;
                Ok(as_of(&sheet_of(c)?, state))
            })
            .collect()
    }

    fn lost_alone(&self, fight: &Combat, member: usize) -> bool {
        // PC32: a yielded creature loses, whatever its side does.
        u8::try_from(member).is_ok_and(|s| fight.standing(s) == Some(Standing::Loss))
    }

    fn member_awaited(&self, _fight: &Combat, prompt: &Prompt<Decision>) -> usize {
        prompt.default.seat as usize
    }

    fn meaning_of_member(
        &self,
        fight: &Combat,
        _side: Side,
        member: usize,
        command: &GameCommand,
    ) -> Option<Meaning<Decision>> {
        if !read::is_decision(&command.name) {
            return None;
        }
        // A player decides for their own creature only: a decision is that seat's, and the
        // engine refuses it when that creature is not awaited.
        let seat = u8::try_from(member).ok()?;
        Some(read::decision(
            command,
            &|name| seat_named(fight, name),
            &[seat],
        ))
    }

    fn member_challenge_event(
        &self,
        kind: &'static str,
        sides: &Sides,
        member: usize,
    ) -> Option<Value> {
        (kind == "declined").then(|| {
            serde_json::json!({
                "type": "challenge_declined",
                "creature": sides.members.get(member).map(|m| m.plain.clone()),
            })
        })
    }

    fn member_event_json(&self, event: &Event, names: &[String]) -> Value {
        narrate::event_json(event, names)
    }

    fn member_refusal(
        &self,
        fight: &Combat,
        error: &RuleError,
        sides: &Sides,
        member: usize,
    ) -> String {
        narrate::refusal(fight, error, sides, member)
    }

    fn after(&self, fight: &Combat, fighters: [&Character; 2], _day: &str) -> Result<[AsOf; 2]> {
        // HP, dice lost and spells spent outlast the fight; control, stun, daze and fear end
        // with it (PC36).
        let carried = fight.carry();
        let state = |i: usize| carried.get(i).cloned().context("a creature left no state");
        Ok([
            as_of(&sheet_of(fighters[0])?, &state(0)?),
            as_of(&sheet_of(fighters[1])?, &state(1)?),
        ])
    }

    fn outcome(&self, fight: &Combat) -> Value {
        serde_json::to_value(fight.outcome()).unwrap_or(Value::Null)
    }

    fn event_json(&self, event: &Event, names: &[String; 2]) -> Value {
        narrate::event_json(event, names)
    }

    fn narrate(&self, events: &[Event], sides: &Sides) -> Vec<String> {
        narrate::narrate(events, sides)
    }

    fn prompt(
        &self,
        fight: &Combat,
        prompt: &Prompt<Decision>,
        sides: &Sides,
        left: u64,
    ) -> String {
        narrate::prompt(fight, prompt, sides, left)
    }

    fn stage(&self, fight: &Combat, _sides: &Sides) -> String {
        narrate::stage(fight)
    }

    fn refusal(&self, fight: &Combat, error: &RuleError, sides: &Sides, side: Side) -> String {
        narrate::refusal(fight, error, sides, side.index())
    }

    fn sheet_lines(&self, c: &Character) -> Result<Vec<String>> {
        Ok(vec![narrate::sheet_line(c, &sheet_of(c)?, &state_of(c)?)])
    }

    fn challenge_event(&self, kind: &'static str, sides: &Sides, by: Side) -> Option<Value> {
        // The page logs a challenge only when it is declined (withdrawn, or left to lapse),
        // naming the creature that declined it.
        self.member_challenge_event(kind, sides, by.index())
    }

    fn npc_between_fights(&self, _c: &Character, _day: &str) -> Option<AsOf> {
        // An NPC rests only when a moderator says so (`/as NAME /rest`).
        None
    }
}
