//! A realm's tournaments (`/r/REALM/tournaments`) and one tournament
//! (`/r/REALM/tournaments/ID`): schedule, entries, the Lists one column per round (pairs and
//! bye: the Lists re-pair every round), results, the Melee's sides and passes, the awards.

use super::page::{self, layout};
use super::{Answer, Web};
use crate::store::Id;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use maud::{html, Markup};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// `/r/REALM/tournaments`.
pub async fn list(State(web): State<Arc<Web>>, Path(realm): Path<String>) -> Answer {
    let id = web.realm(&realm).await?;
    let rows = web.app.store.web_tournaments(id).await?;
    Ok(layout(
        &format!("Tournaments of {realm}"),
        Some(&realm),
        html! {
            h1 { "Tournaments of " (realm) }
            @if rows.is_empty() { p { "No tournament has been scheduled yet." } } @else {
                div.scroll { table #tournaments {
                    thead { tr { th.num { "#" } th { "Name" } th { "Starts" } th { "Channel" } th { "Status" } th.num { "Entries" } } }
                    tbody { @for t in &rows { tr {
                        td.num { (t.id) }
                        td { a href=(page::tournament_path(&realm, t.id)) { (t.name) } }
                        td { (page::when(&t.starts_at)) }
                        td { (t.channel) }
                        td { (t.status) }
                        td.num { (t.entries) }
                    } } }
                } }
            }
        },
    )
    .into_response())
}

/// The names of the knights a tournament's state names, by id.
pub async fn names(
    web: &Web,
    ids: impl Iterator<Item = Id>,
) -> anyhow::Result<HashMap<Id, String>> {
    let mut names = HashMap::new();
    for id in ids {
        if let std::collections::hash_map::Entry::Vacant(e) = names.entry(id) {
            if let Some(k) = web.app.store.knight(id).await? {
                e.insert(k.sheet.name);
            }
        }
    }
    Ok(names)
}

/// Every knight id a tournament's state holds.
fn ids_in(state: &Value, out: &mut Vec<Id>) {
    match state {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    (
                        "first" | "second" | "winner" | "loser" | "bye" | "knight" | "challenger"
                        | "challenged" | "captive" | "captor" | "first_prize",
                        Value::Number(n),
                    ) => out.extend(n.as_i64()),
                    ("entrants", Value::Array(a)) => out.extend(a.iter().filter_map(Value::as_i64)),
                    _ => ids_in(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| ids_in(v, out)),
        _ => {}
    }
}

/// `/r/REALM/tournaments/ID`.
pub async fn one(State(web): State<Arc<Web>>, Path((realm, id)): Path<(String, String)>) -> Answer {
    let (realm_id, t) = web.tournament(&realm, &id).await?;
    let id = t.id;
    let state: Value = t
        .state
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null);
    let mut ids = Vec::new();
    ids_in(&state, &mut ids);
    let names = names(&web, ids.into_iter()).await?;
    let entrants = web.app.store.web_entrants(id).await?;
    let fights = web.app.store.web_tournament_fights(realm_id, id).await?;
    let awards = web.app.store.web_tournament_awards(id).await?;
    let status = super::status_word(t.status);
    let live = status == "running" || status == "scheduled";
    let name_of = |v: &Value| -> Markup {
        match v.as_i64().and_then(|k| names.get(&k)) {
            Some(n) => html! { a href=(page::knight_path(&realm, n)) { (n) } },
            None => html! { "—" },
        }
    };
    let rounds = state["lists"]["rounds"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let melee = &state["melee"]["melee"];
    Ok(layout(
        &t.name,
        Some(&realm),
        html! {
            h1 { (t.name) }
            dl {
                dt { "Number" } dd { "#" (t.id) }
                dt { "Status" } dd #status { (status) }
                dt { "Starts" } dd { (t.starts_at.format("%Y-%m-%d %H:%M UTC")) }
                dt { "Channel" } dd { (t.channel) }
                @if let Some(h) = &t.host { dt { "Host" } dd { (h) } }
                dt { "Melee" } dd { @if t.melee { "after the Lists, " (t.melee_minutes) " minutes" @if t.remount { ", one remount each" } } @else { "none" } }
            }
            @if live { p #live-note.live data-live=(format!("{}/live", page::tournament_path(&realm, t.id))) { "This page follows the tournament as it is fought." } }
            h2 { "Entries" }
            @if entrants.is_empty() { p.muted { "No knight has entered yet." } } @else {
                ol { @for (_, n) in &entrants { li { a href=(page::knight_path(&realm, n)) { (n) } } } }
            }
            @if !rounds.is_empty() {
                h2 { "The Lists" }
                div.rounds { @for (i, round) in rounds.iter().enumerate() { section {
                    h3 { "Round " (i + 1) }
                    ul { @for p in round["pairings"].as_array().into_iter().flatten() { li {
                        (name_of(&p["first"])) " vs " (name_of(&p["second"]))
                        br;
                        span.muted { @match p["result"]["outcome"].as_object().and_then(|o| o.iter().next()) {
                            Some((kind, o)) if kind == "won" => { (name_of(&o["winner"])) " won" },
                            Some(_) => "both out",
                            None => "to be fought",
                        } }
                    } } }
                    @if !round["bye"].is_null() { p { "Bye: " (name_of(&round["bye"])) } }
                } } }
            }
            @if melee.is_object() {
                h2 { "The Melee" }
                @let sides = melee["side_names"].as_array().cloned().unwrap_or_default();
                div.rounds { @for (s, side) in ["first", "second"].iter().enumerate() { section {
                    h3 { (sides.get(s).and_then(Value::as_str).unwrap_or(side)) }
                    ul { @for k in melee["knights"].as_array().into_iter().flatten().filter(|k| k["side"] == *side) { li {
                        (name_of(&k["knight"]))
                        @if !k["out"].is_null() { span.muted { " (out)" } }
                    } } }
                } } }
                h3 { "Passes" }
                ol { @for p in melee["passes"].as_array().into_iter().flatten() { li {
                    (name_of(&p["challenger"])) " vs " (name_of(&p["challenged"]))
                    @if p["for_ransom"] == true { " (for ransom)" }
                    ": " (match &p["state"] { Value::String(s) => s.clone(), Value::Object(o) => o.keys().next().cloned().unwrap_or_default(), _ => String::new() })
                } } }
            }
            h2 { "Fights" }
            @if fights.is_empty() { p.muted { "No fight yet." } } @else {
                ul #fights { @for f in &fights { li {
                    a href=(page::fight_path(&realm, f.id)) { "#" (f.id) }
                    " " (if f.kind == "melee" { "Melee pass" } else { "Lists match" }) ": "
                    (f.fighters[0]) " vs " (f.fighters[1]) " — " (super::knight::result(f))
                } } }
            }
            h2 { "Awards" }
            @if awards.is_empty() { p.muted { "None yet." } } @else {
                ul #awards { @for a in &awards { li {
                    a href=(page::knight_path(&realm, &a.knight)) { (a.knight) } " "
                    (page::signed(a.hp_halves)) " HP"
                    @if a.pp_halves != 0 { ", " (page::signed(a.pp_halves)) " PP" }
                    ": " (a.reason)
                } } }
            }
        },
    )
    .into_response())
}
