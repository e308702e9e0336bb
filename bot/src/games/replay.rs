//! A fight told again from the books, the one way every game's replay is read (the web's fight
//! page): both sheets as they were, and each step with who decided what, its events, the
//! lines the channel read for it and its dice. A game supplies it through
//! [`super::GameInfo::replay`]; the games on the seam share [`bout`].

use super::Game;
use crate::config::Config;
use crate::referee::{sides_of, Characters};
use crate::store::games::{Character, OpenBout};
use crate::store::history::FightSummary;
use crate::store::Store;
use anyhow::Result;
use futures::future::BoxFuture;
use serde_json::Value;

/// A fight told again.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The sheets both fighters started with, as label/value pairs per fighter.
    pub sheets: [Vec<(String, String)>; 2],
    /// Every step, the start first.
    pub steps: Vec<ReplayStep>,
}

/// One step of a fight told again.
#[derive(Clone, Debug, Default)]
pub struct ReplayStep {
    /// Who decided what: "Start", "Dara: lance".
    pub head: String,
    /// The events as the game's JSON, where the replay shows them.
    pub events: Vec<Value>,
    /// The narration as the channel read it.
    pub lines: Vec<String>,
    /// The dice it consumed, each marked when it was scripted.
    pub rolls: Vec<(u32, bool)>,
}

/// [`super::GameInfo::replay`]: fight `f` of the game told again from `store`.
pub type ReplayFight =
    for<'a> fn(&'a Store, &'a Config, &'a FightSummary) -> BoxFuture<'a, Result<Replay>>;

/// One step of a fight replayed: the events as the game's JSON and the lines the channel read
/// for them.
pub type NarratedStep = (Vec<Value>, Vec<String>);

/// A fight of a game on the seam told again: its setup as the sheets, and each step's events
/// with the game's narration over them (none when one of its creatures has left the books).
pub fn bout<'a, G: Game>(
    store: &'a Store,
    config: &'a Config,
    f: &'a FightSummary,
) -> BoxFuture<'a, Result<Replay>> {
    Box::pin(async move {
        told(store, f, |bout, fighters, challengers| {
            narrated::<G>(config, bout, fighters, challengers).map(Some)
        })
        .await
    })
}

/// A fight of a game this build does not know told again: its steps and dice, without words.
pub fn untold<'a>(store: &'a Store, f: &'a FightSummary) -> BoxFuture<'a, Result<Replay>> {
    Box::pin(told(store, f, |_, _, _| Ok(None)))
}

/// Reads fight `f` from the one log and tells it with `narrate` (its bout, its creatures in
/// listing order and the challenger's count).
async fn told(
    store: &Store,
    f: &FightSummary,
    narrate: impl FnOnce(&OpenBout, &[Character], usize) -> Result<Option<Vec<NarratedStep>>>,
) -> Result<Replay> {
    let bout = store.bout(f.id).await?;
    let mut rows = Vec::new();
    flatten("", &bout.setup, None, &mut rows);
    let sheets = [0, 1].map(|i| {
        rows.iter()
            .filter(|(_, _, side)| *side == Some(i))
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect()
    });
    let (ids, challengers) = bout.creatures();
    let mut fighters = Vec::with_capacity(ids.len());
    for id in &ids {
        fighters.extend(store.character(*id).await?);
    }
    // Without every creature in the books the narration cannot name them: the events alone.
    let told = if fighters.len() == ids.len() {
        narrate(&bout, &fighters, challengers)?.unwrap_or_default()
    } else {
        Vec::new()
    };
    let names = &f.fighters;
    let steps = bout
        .steps
        .iter()
        .enumerate()
        .map(|(n, step)| {
            let head = match (step.side, &step.decision) {
                (Some(side), Some(d)) => {
                    format!("{}: {}", names[side.index()], d.trim_matches('"'))
                }
                _ => "Start".to_string(),
            };
            let (events, lines) = told.get(n).cloned().unwrap_or_default();
            ReplayStep {
                head,
                events,
                lines,
                rolls: step.rolls.clone(),
            }
        })
        .collect();
    Ok(Replay { sheets, steps })
}

/// A setup of JSON as label/value pairs, nested keys joined by dots, each with the side it
/// belongs to: the first index of a list of objects (the two fighters) names the side; what
/// no side owns (the house tables) has none.
fn flatten(
    prefix: &str,
    value: &Value,
    side: Option<usize>,
    out: &mut Vec<(String, String, Option<usize>)>,
) {
    let key = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                flatten(&key(k), v, side, out);
            }
        }
        Value::Array(items) if side.is_none() && items.iter().all(Value::is_object) => {
            for (i, v) in items.iter().enumerate() {
                flatten(prefix, v, Some(i), out);
            }
        }
        Value::String(s) => out.push((prefix.to_string(), s.clone(), side)),
        other => out.push((prefix.to_string(), other.to_string(), side)),
    }
}

/// A fight of a game on the seam replayed from its seed and decisions and told as the channel
/// told it: each step's events as JSON, and `Game::narrate` over them, its creatures as
/// `fighters` in listing order (the challenger's side the first `challengers`).
pub fn narrated<G: Game>(
    config: &Config,
    bout: &OpenBout,
    fighters: &[Character],
    challengers: usize,
) -> Result<Vec<NarratedStep>> {
    let game = Characters(G::new(config)?);
    let refs: Vec<&Character> = fighters.iter().collect();
    let sides = sides_of(&game, &refs, challengers)?;
    let game = game.0;
    let names = sides.plain.clone();
    let setup = serde_json::from_value(bout.setup.clone())?;
    let mut told = Vec::with_capacity(bout.steps.len());
    crate::live::replay_with::<G::Fight>(
        bout.id,
        setup,
        bout.seed,
        bout.steps.iter().map(crate::store::Step::decoded),
        |_, events| {
            told.push((
                events.iter().map(|e| game.event_json(e, &names)).collect(),
                game.narrate(&events, &sides),
            ));
            Ok(())
        },
    )?;
    Ok(told)
}
