//! Reading psionic combat's commands into the engine's decisions: modes, dice, spells and the
//! creatures named, each refusal one line with the command's usage.

use super::Meaning;
use crate::command::GameCommand;
use herald_engine::powerpool::event::Seat;
use herald_engine::powerpool::event::Seats;
use herald_engine::powerpool::{Act, AttackMode, Decision, DefenseMode, Levels, PuppetOrder, ANY};

/// Turns a creature's name into its seat in the fight, or says why not.
pub type SeatOf<'a> = &'a dyn Fn(&str) -> Result<Seat, String>;

const ATTACK: &str = "/attack TARGET[,TARGET] MODE [DICE] [nofear]";
const DEFEND: &str = "/defend MODE|none [DICE] [spells L,L] [draw NAME,NAME]";
const JOIN: &str = "/join [DICE] [spells L,L] [draw NAME,NAME]";

/// Whether the command is a decision of the fight.
pub fn is_decision(name: &str) -> bool {
    matches!(
        name,
        "attack"
            | "maintain"
            | "dedicate"
            | "release"
            | "pass"
            | "defend"
            | "join"
            | "stay"
            | "puppet"
            | "yield"
    )
}

/// `/psicombat FOE[,FOE] [--with ALLY[,ALLY]]`: one foe alone is a duel; more, or allies, a
/// fight of groups (PC33), whose sizes and names the referee checks.
pub fn challenge(command: &GameCommand) -> Meaning<Decision> {
    let names = |text: &str| -> Vec<String> {
        text.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    };
    let foes = names(command.arg("foes").unwrap_or(""));
    let allies = names(command.arg("with").unwrap_or(""));
    if foes.is_empty() {
        return Meaning::Refused(
            "Usage: /psicombat FOE[,FOE] [--with ALLY[,ALLY]] (players' nicks or creatures' names)"
                .into(),
        );
    }
    if command.has("with") && allies.is_empty() {
        return Meaning::Refused(
            "--with names your allies, e.g. --with Cai,Dun. Usage: /psicombat FOE[,FOE] [--with ALLY[,ALLY]]"
                .into(),
        );
    }
    match (foes.as_slice(), allies.is_empty()) {
        ([foe], true) => Meaning::Challenge(foe.clone()),
        _ => Meaning::Group(foes, allies),
    }
}

/// A decision command, creatures named through `seat`; by the awaited creature of the
/// speaker's side when it is the only one (so that it matches a prompt's option), else by
/// whichever the engine finds (for `/yield`, the side's creature).
pub fn decision(command: &GameCommand, seat: SeatOf<'_>, awaited: &[Seat]) -> Meaning<Decision> {
    let by = match awaited {
        [one] => *one,
        _ => ANY,
    };
    match act(command, seat) {
        Ok(act) => Meaning::Decide(Decision { seat: by, act }),
        Err(line) => Meaning::Refused(line),
    }
}

fn act(command: &GameCommand, seat: SeatOf<'_>) -> Result<Act, String> {
    let arg = |name: &str| command.arg(name).unwrap_or("").trim();
    let named = |usage: &str| -> Result<Seat, String> {
        seat(arg("name")).map_err(|e| format!("{}. Usage: {usage}", capital(&e)))
    };
    Ok(match command.name.as_str() {
        "attack" => {
            let refuse = |why: String| format!("{}. Usage: {ATTACK}", capital(&why));
            let mut targets = Seats::EMPTY;
            for name in arg("target").split(',').filter(|n| !n.trim().is_empty()) {
                targets.push(seat(name).map_err(refuse)?);
            }
            let mode = AttackMode::parse(arg("mode")).ok_or_else(|| {
                refuse(format!(
                    "'{}' is not an attack mode: stab, invasion, wave, subversion or overload",
                    arg("mode")
                ))
            })?;
            let (mut dice, mut fear) = (0, true);
            for word in arg("more").split_whitespace() {
                if word.eq_ignore_ascii_case("nofear") {
                    fear = false;
                } else if dice == 0 {
                    dice = count(word).map_err(refuse)?;
                } else {
                    return Err(refuse(format!("'{word}' is not understood here")));
                }
            }
            Act::Attack {
                targets,
                mode,
                dice,
                fear,
            }
        }
        "maintain" => Act::Maintain(named("/maintain NAME")?),
        "dedicate" => Act::Dedicate(named("/dedicate NAME")?),
        "release" => Act::Release(named("/release NAME")?),
        "pass" => Act::Pass,
        "stay" => Act::Stay,
        "yield" => Act::Yield,
        "puppet" => Act::Puppet(if arg("order").eq_ignore_ascii_case("yield") {
            PuppetOrder::Yield
        } else {
            PuppetOrder::Pass
        }),
        "defend" => {
            let word = arg("mode");
            let mode = if word.eq_ignore_ascii_case("none") {
                None
            } else {
                Some(DefenseMode::parse(word).ok_or_else(|| {
                    format!(
                        "'{word}' is not a defense mode: mantra, blank, labyrinth, swarm, pinnacle or none. Usage: {DEFEND}"
                    )
                })?)
            };
            let (dice, spells, draw) = extras(arg("more"), seat, DEFEND)?;
            Act::Defend {
                mode,
                dice,
                spells,
                draw,
            }
        }
        "join" => {
            let (dice, spells, draw) = extras(arg("more"), seat, JOIN)?;
            Act::Join { dice, spells, draw }
        }
        other => {
            return Err(format!(
                "/{other} is not a command of Power Pools; /help lists them."
            ))
        }
    })
}

/// `[DICE] [spells L,L] [draw NAME,NAME]`.
fn extras(text: &str, seat: SeatOf<'_>, usage: &str) -> Result<(u8, Levels, Seats), String> {
    let refuse = |why: String| format!("{}. Usage: {usage}", capital(&why));
    let (mut dice, mut spells, mut draw) = (0, Levels::default(), Seats::EMPTY);
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        match word.to_ascii_lowercase().as_str() {
            "spells" => {
                let levels = list(words.next(), |w| {
                    w.parse::<u8>()
                        .ok()
                        .filter(|l| (1..=9).contains(l))
                        .ok_or(format!("'{w}' is not a spell level (1 to 9)"))
                })
                .map_err(refuse)?;
                if levels.is_empty() {
                    return Err(refuse("spells takes levels, e.g. spells 3,2".into()));
                }
                spells = Levels::of(&levels);
            }
            "draw" => {
                let names = list(words.next(), seat).map_err(refuse)?;
                if names.is_empty() {
                    return Err(refuse("draw takes allies' names, e.g. draw Cai,Dun".into()));
                }
                draw = names.into_iter().collect();
            }
            _ if dice == 0 => dice = count(word).map_err(refuse)?,
            _ => return Err(refuse(format!("'{word}' is not understood here"))),
        }
    }
    Ok((dice, spells, draw))
}

/// DICE: 1 or more (the engine checks it against the pool, PC11).
fn count(word: &str) -> Result<u8, String> {
    word.parse::<u8>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(format!("'{word}' is not a number of dice: 1 to your pool"))
}

/// A comma-separated list, each item read by `item`; empty when not given.
pub fn list<T>(
    text: Option<&str>,
    item: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    text.unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(item)
        .collect()
}

/// `--die d6`: the sides.
pub fn die(text: &str) -> Result<u32, String> {
    let t = text.trim().to_ascii_lowercase();
    t.strip_prefix('d')
        .unwrap_or(&t)
        .parse::<u32>()
        .map_err(|_| format!("'{text}' is not a die: d4, d6, d8, d10 or d12"))
}

/// A message as the start of a line: "No creature...".
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
