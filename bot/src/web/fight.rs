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

/// Tells fight `f` again from the books, through its game's
/// [`crate::games::GameInfo::replay`] (each step as the channel read it), with the dice of every
/// step; a step its narration says nothing of shows its events in words.
pub async fn tell(web: &Web, f: &FightSummary) -> Result<Told> {
    let store = &web.app.store;
    let replay = match crate::games::find(&f.game) {
        Some(game) => (game.replay)(store, &web.app.config, f).await?,
        None => crate::games::replay::untold(store, f).await?,
    };
    let steps = replay
        .steps
        .into_iter()
        .enumerate()
        .map(|(n, step)| {
            let lines = if step.lines.is_empty() {
                step.events.iter().map(event_words).collect()
            } else {
                step.lines
            };
            ToldStep {
                n,
                head: step.head,
                lines,
                dice: dice_text(&step.rolls),
                events: step.events,
            }
        })
        .collect();
    Ok(Told {
        sheets: replay.sheets,
        steps,
    })
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
