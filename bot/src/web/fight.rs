//! A fight's replay (`/r/REALM/fights/ID`): both sheets as they were, every step in order with
//! its dice and its narration, the seed hash and (once ended) the seed, and whether
//! `herald verify` passes. `?step=N` shows the steps up to N with links to the next and the
//! previous; the script adds the same control to the full list.

use super::page::{self, layout};
use super::{number, Answer, Oops, Web};
use crate::store::history::FightSummary;
use crate::store::Id;
use anyhow::Result;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::{Match, PsiSkill, Skill};
use maud::{html, Markup};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// One step of a fight, told as the channel saw it.
#[derive(Clone, Debug, Serialize)]
pub struct ToldStep {
    /// Its number: 0 is the start.
    pub n: usize,
    /// Who decided what: "Start", "Dara (challenger): lance".
    pub head: String,
    /// The narration as the channel read it (the game's events in words for a step it did not
    /// narrate).
    pub lines: Vec<String>,
    /// The dice it consumed: "dice 47, 12", with the scripted ones marked.
    pub dice: String,
    /// The events as the game's JSON (the games on the seam).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Value>,
}

/// A fight told again from the books.
#[derive(Clone, Debug)]
pub struct Told {
    /// The sheets both fighters started with, as label/value pairs per fighter.
    pub sheets: [Vec<(String, String)>; 2],
    /// Every step.
    pub steps: Vec<ToldStep>,
}

fn dice_text(rolls: &[(u32, bool)]) -> String {
    if rolls.is_empty() {
        return String::new();
    }
    let each: Vec<String> = rolls
        .iter()
        .map(|(v, scripted)| {
            if *scripted {
                format!("{v} (scripted)")
            } else {
                v.to_string()
            }
        })
        .collect();
    format!("dice {}", each.join(", "))
}

/// An event of a game on the seam in words, from its JSON: its type, then its fields.
fn event_words(event: &Value) -> String {
    let Some(map) = event.as_object() else {
        return event.to_string();
    };
    let kind = map.get("type").and_then(Value::as_str).unwrap_or("event");
    let fields: Vec<String> = map
        .iter()
        .filter(|(k, _)| *k != "type")
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k} {s}"),
            other => format!("{k} {other}"),
        })
        .collect();
    if fields.is_empty() {
        kind.replace('_', " ")
    } else {
        format!("{}: {}", kind.replace('_', " "), fields.join(", "))
    }
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

/// A step's events in the words of its game's full narration, through the game's
/// [`crate::games::GameInfo::replay_lines`]; as data for a game without.
fn replay_lines(game: &str, events: &[impl Serialize], names: &[String; 2]) -> Result<Vec<String>> {
    let events = events
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()?;
    match crate::games::find(game).and_then(|g| g.replay_lines) {
        Some(tell) => tell(&events, names),
        None => Ok(events.iter().map(Value::to_string).collect()),
    }
}

/// Tells fight `f` again from the books, each game's by its own narration as the channel read
/// it (PsiKnight's through `render`, the others' through their `Game::narrate`), with the dice
/// of every step.
pub async fn tell(web: &Web, f: &FightSummary) -> Result<Told> {
    let store = &web.app.store;
    if f.game == crate::games::PSIKNIGHT.id {
        let fight = store.fight(f.id).await?;
        let mut names = [String::new(), String::new()];
        for (i, id) in fight.knights.iter().enumerate() {
            names[i] = match store.knight(*id).await? {
                Some(k) => k.styled(),
                None => fight.setup.knights[i].name.clone(),
            };
        }
        let sheets = fight.setup.knights.clone().map(|k| {
            let mut rows = vec![
                ("name".to_string(), k.name.clone()),
                ("monarch".to_string(), k.monarch.name().to_string()),
            ];
            rows.extend(
                Skill::ALL
                    .iter()
                    .map(|s| (s.name().to_string(), k.skill(*s).to_string())),
            );
            rows.extend(
                PsiSkill::ALL
                    .iter()
                    .filter(|s| k.psi(**s) > 0)
                    .map(|s| (s.name().to_string(), k.psi(*s).to_string())),
            );
            rows
        });
        let mut rng = SeededDice::new(fight.seed);
        let mut steps = Vec::new();
        let mut m: Option<Match> = None;
        for (n, step) in fight.steps.iter().enumerate() {
            let mut dice = crate::dice::ReplayDice::new(&mut rng, step.rolls.clone());
            let (events, head) = match (&mut m, step.side, step.decision) {
                (None, _, _) => {
                    let (started, events) = Match::start(fight.setup.clone(), &mut dice);
                    m = Some(started);
                    (events, "Start".to_string())
                }
                (Some(m), Some(side), Some(decision)) => {
                    let events = m.decide(side, decision, &mut dice).map_err(|e| {
                        anyhow::anyhow!("fight #{} step {n} no longer replays: {e}", f.id)
                    })?;
                    let who = &names[side.index()];
                    (events, format!("{who}: {decision}"))
                }
                _ => anyhow::bail!("fight #{} step {n} has no decision", f.id),
            };
            steps.push(ToldStep {
                n,
                head,
                lines: replay_lines(&f.game, &events, &names)?,
                dice: dice_text(&step.rolls),
                events: Vec::new(),
            });
        }
        return Ok(Told { sheets, steps });
    }
    let bout = store.bout(f.id).await?;
    let names = f.fighters.clone();
    let mut rows = Vec::new();
    flatten("", &bout.setup, None, &mut rows);
    let sheets = [0, 1].map(|i| {
        rows.iter()
            .filter(|(_, _, side)| *side == Some(i))
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect()
    });
    // Every creature in listing order: a group fight's members, else the two.
    let (ids, challengers) = if bout.members.is_empty() {
        (bout.characters.to_vec(), 1)
    } else {
        (
            bout.members.iter().map(|m| m.character).collect::<Vec<_>>(),
            bout.members.iter().filter(|m| m.side == 0).count(),
        )
    };
    let mut fighters = Vec::with_capacity(ids.len());
    for id in &ids {
        fighters.extend(store.character(*id).await?);
    }
    // Without every creature in the books the narration cannot name them: the events alone.
    let told = match (fighters.len() == ids.len())
        .then(|| crate::games::narrated(&web.app.config, &bout, &fighters, challengers))
        .flatten()
    {
        Some(told) => told?,
        None => Vec::new(),
    };
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
            // A game whose narration says nothing of a step still shows its events.
            let lines = if lines.is_empty() {
                events.iter().map(event_words).collect()
            } else {
                lines
            };
            ToldStep {
                n,
                head,
                lines,
                dice: dice_text(&step.rolls),
                events,
            }
        })
        .collect();
    Ok(Told { sheets, steps })
}

/// A fight of the realm by its number, or the 404.
pub async fn find(web: &Web, realm: Id, id: &str) -> Result<FightSummary, Oops> {
    let id = number(id, "fight")?;
    web.app
        .store
        .fight_summary(realm, id)
        .await?
        .ok_or_else(|| Oops::NotFound("fight".into()))
}

/// One step as a list item.
pub fn step_item(s: &ToldStep) -> Markup {
    html! {
        li id=(format!("step-{}", s.n)) value=(s.n) {
            div { strong { (s.head) } }
            @for l in &s.lines { div { (l) } }
            @if !s.dice.is_empty() { div.dice { (s.dice) } }
        }
    }
}

/// `/r/REALM/fights/ID?step=N`.
pub async fn replay(
    State(web): State<Arc<Web>>,
    Path((realm, id)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let realm_id = web.realm(&realm).await?;
    let f = find(&web, realm_id, &id).await?;
    let told = tell(&web, &f).await?;
    let last = told.steps.len().saturating_sub(1);
    let step: Option<usize> = q
        .get("step")
        .and_then(|s| s.parse().ok())
        .map(|s: usize| s.min(last));
    let ended = f.ended_at.is_some();
    let verified = if ended {
        Some(crate::verify::verify(&web.app.store, f.id).await?)
    } else {
        None
    };
    let names = web.names(realm_id).await?;
    let here = page::fight_path(&realm, f.id);
    let game = crate::games::find(&f.game).map_or(f.game.as_str(), |g| g.name);
    let link = |name: &str| -> Markup {
        if f.game == crate::games::PSIKNIGHT.id {
            html! { a href=(page::knight_path(&realm, name)) { (name) } }
        } else {
            html! { a href=(page::character_path(&realm, &f.game, name)) { (name) } }
        }
    };
    let shown = &told.steps[..step.map_or(told.steps.len(), |s| s + 1)];
    Ok(layout(
        &format!("Fight #{}", f.id),
        Some(&realm),
        html! {
            h1 { "Fight #" (f.id) ": " (link(&f.fighters[0])) " vs " (link(&f.fighters[1])) }
            dl {
                dt { "Game" } dd { (game) ", " (f.kind) }
                @if let Some((t, name)) = &f.tournament {
                    dt { "Tournament" } dd { a href=(page::tournament_path(&realm, *t)) { (name) } }
                }
                dt { "Channel" } dd { (f.channel) }
                dt { "Players" } dd {
                    (names.of(&f.players[0]).unwrap_or("—")) ", " (names.of(&f.players[1]).unwrap_or("—"))
                }
                dt { "Started" } dd { (page::when(&f.started_at)) }
                dt { "Result" } dd #result { (super::knight::result(&f)) }
                @if let Some(end) = &f.ended_at { dt { "Ended" } dd { (page::when(end)) } }
                dt { "Seed hash" } dd { code { (f.seed_hash) } }
                dt { "Seed" } dd { @match &f.seed { Some(s) => code #seed { (s) }, None => "published when the fight ends" } }
                @if let Some(v) = &verified {
                    dt { "Verify" } dd #verify.ok[v.ok].bad[!v.ok] { (if v.ok { "passes: " } else { "fails: " }) (v.message) }
                }
            }
            h2 { "Sheets at the start" }
            div.rounds { @for (i, sheet) in told.sheets.iter().enumerate() { section {
                h3 { (f.fighters[i]) }
                dl { @for (k, v) in sheet { dt { (k) } dd { (v) } } }
            } } }
            h2 { "Steps" }
            @if let Some(s) = step {
                nav.stepper aria-label="steps" {
                    @if s > 0 { a #prev rel="prev" href=(format!("{here}?step={}", s - 1)) { "← Previous" } }
                    span { "Step " (s) " of " (last) }
                    @if s < last { a #next rel="next" href=(format!("{here}?step={}", s + 1)) { "Next →" } }
                    a href=(here) { "All steps" }
                }
            } @else if ended {
                p { a #step-through href=(format!("{here}?step=0")) { "Step through from the start" } }
            }
            @if !ended {
                p #live-note.live data-live=(format!("{here}/live?from={}", told.steps.len())) { "The fight is still being fought: reload for new steps." }
            }
            ol #steps.steps start="0" data-stepper[ended && step.is_none()] {
                @for s in shown { (step_item(s)) }
            }
        },
    )
    .into_response())
}
