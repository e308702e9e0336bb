//! A knight's page (`/r/REALM/knights/NAME`): the sheet, the title, lord and vassals,
//! captivity, the record, an Honor chart and the ledger, paged; and a character of another
//! game (`/r/REALM/characters/GAME/NAME`): its sheet as its game shows it, and its fights.

use super::page::{self, layout, PAGE_ROWS};
use super::{Answer, Oops, Web};
use crate::store::history::FightSummary;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use herald_engine::psiknight::{PsiSkill, Skill};
use maud::{html, Markup};
use std::collections::HashMap;
use std::sync::Arc;

/// How many recent fights a knight's or character's page lists.
const FIGHTS: i64 = 20;

/// How many days with an entry the Honor chart shows, the latest.
const CHART_DAYS: i64 = 120;

/// `/r/REALM/knights/NAME?page=N`.
pub async fn knight(
    State(web): State<Arc<Web>>,
    Path((realm, name)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let id = web.realm(&realm).await?;
    let store = &web.app.store;
    let k = store
        .web_knight(id, &name)
        .await?
        .ok_or_else(|| Oops::NotFound("knight".into()))?;
    let page_no = page::page_number(q.get("page"));
    let (ledger, total) = store
        .web_ledger(k.knight.id, (page_no - 1) * PAGE_ROWS, PAGE_ROWS)
        .await?;
    let series = store.web_honor_series(k.knight.id, CHART_DAYS).await?;
    let names = web.names(id).await?;
    let (fights, fought) = store.fights_of_knight(k.knight.id, 0, FIGHTS).await?;
    let sheet = &k.knight.sheet;
    let here = page::knight_path(&realm, &sheet.name);
    let status = match (&k.died_at, k.retired) {
        (Some(at), _) => format!("Killed {}", page::when(at)),
        (None, true) => "Retired".to_string(),
        (None, false) => "In the lists".to_string(),
    };
    Ok(layout(
        &k.knight.styled(),
        Some(&realm),
        html! {
            h1 { (k.knight.styled()) }
            dl {
                dt { "Status" } dd { (status) }
                dt { "Title" } dd { (k.knight.rank.title(sheet.style)) @if k.knight.landed { ", landed" } }
                dt { "Monarch" } dd { (sheet.monarch.name()) }
                dt { "Honor" } dd #hp { (crate::reply::points(k.hp_halves)) " HP" }
                dt { "Prestige" } dd { (crate::reply::points(k.pp_halves)) " PP" }
                dt { "Record" } dd { (k.record[0]) " won, " (k.record[1]) " lost, " (k.record[2]) " drawn" }
                dt { "Lord" } dd { @match &k.lord {
                    Some(l) => a href=(page::knight_path(&realm, l)) { (l) },
                    None => "none",
                } }
                dt { "Vassals" } dd { @if k.vassals.is_empty() { "none" } @else {
                    @for (i, v) in k.vassals.iter().enumerate() {
                        @if i > 0 { ", " } a href=(page::knight_path(&realm, v)) { (v) }
                    }
                } }
                dt { "Captivity" } dd { @match &k.captor {
                    Some((c, ransom)) => { "held by " a href=(page::knight_path(&realm, c)) { (c) } " for a ransom of " (crate::reply::points(*ransom)) " HP" },
                    None => "free",
                } }
                @if let Some(p) = names.of(&k.knight.owner) { dt { "Player" } dd { (p) } }
            }
            h2 { "Skills" }
            div.scroll { table {
                thead { tr { @for s in Skill::ALL { th.num { (s.name()) } } } }
                tbody { tr { @for s in Skill::ALL { td.num { (sheet.skill(s)) } } } }
            } }
            @if sheet.psi_skills().any(|(_, v)| v > 0) {
                h2 { "Psi" }
                div.scroll { table {
                    thead { tr { @for s in PsiSkill::ALL { @if sheet.psi(s) > 0 { th.num { (s.name()) } } } } }
                    tbody { tr { @for s in PsiSkill::ALL { @if sheet.psi(s) > 0 { td.num { (sheet.psi(s)) } } } } }
                } }
            }
            h2 { "Honor over time" }
            (page::line_chart(&format!("Honor of {} by day", sheet.name), &series))
            h2 { "Fights" }
            (fight_list(&realm, &fights, fought))
            h2 { "Ledger" }
            p.muted { (total) " entries, newest first." }
            div.scroll { table #ledger {
                thead { tr { th.num { "#" } th { "Date" } th.num { "HP" } th.num { "PP" } th { "Reason" } th { "Fight" } } }
                tbody { @for e in &ledger { tr {
                    td.num { (e.id) }
                    td { (page::when(&e.at)) }
                    td.num { (page::signed(e.hp_halves)) }
                    td.num { (page::signed(e.pp_halves)) }
                    td { (e.reason) @if let Some(r) = e.revoked_by { span.muted { " (revoked by #" (r) ")" } } }
                    td { @if let Some(f) = e.fight { a href=(page::fight_path(&realm, f)) { "#" (f) } } }
                } } }
            } }
            (page::pager(page_no, total, |p| format!("{here}?page={p}")))
        },
    )
    .into_response())
}

/// A list of fights with their results, each linked to its replay.
pub fn fight_list(realm: &str, fights: &[FightSummary], total: i64) -> Markup {
    html! {
        @if fights.is_empty() { p.muted { "No fight yet." } } @else {
            @if total > fights.len() as i64 { p.muted { "The latest " (fights.len()) " of " (total) "." } }
            ul { @for f in fights { li {
                a href=(page::fight_path(realm, f.id)) { "#" (f.id) }
                " " (page::when(&f.started_at)) ": " (f.fighters[0]) " vs " (f.fighters[1]) " — " (result(f))
            } } }
        }
    }
}

/// How a fight came out, in a few words.
pub fn result(f: &FightSummary) -> String {
    let how = f
        .reason
        .as_deref()
        .map(|r| format!(" ({})", r.replace('_', " ")))
        .unwrap_or_default();
    match (&f.ended_at, &f.winner) {
        (None, _) => "still being fought".to_string(),
        (Some(_), Some(w)) => format!("{w} won{how}"),
        (Some(_), None) => format!("a draw{how}"),
    }
}

/// `/r/REALM/characters/GAME/NAME`.
pub async fn character(
    State(web): State<Arc<Web>>,
    Path((realm, game, name)): Path<(String, String, String)>,
) -> Answer {
    let id = web.realm(&realm).await?;
    let info = crate::games::find(&game).ok_or_else(|| Oops::NotFound("game".into()))?;
    let c = web
        .app
        .store
        .character_named(id, info.id, &name)
        .await?
        .ok_or_else(|| Oops::NotFound("character".into()))?;
    let lines = match (info.sheet_lines)(&web.app.config, &c) {
        Ok(lines) => lines,
        Err(e) => vec![format!("(the sheet cannot be shown: {e})")],
    };
    let (fights, fought) = web.app.store.fights_of_character(c.id, 0, FIGHTS).await?;
    let names = web.names(id).await?;
    Ok(layout(
        &c.name,
        Some(&realm),
        html! {
            h1 { (c.name) }
            dl {
                dt { "Game" } dd { (info.name) }
                dt { "Record" } dd { (c.record.wins) " won, " (c.record.losses) " lost, " (c.record.draws) " drawn" }
                dt { "Player" } dd { (c.owner.as_deref().map_or(Some("NPC"), |o| names.of(o)).unwrap_or("—")) }
            }
            h2 { "Sheet" }
            ul #sheet { @for l in &lines { li { (l) } } }
            h2 { "Fights" }
            (fight_list(&realm, &fights, fought))
        },
    )
    .into_response())
}
