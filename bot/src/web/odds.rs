//! `/r/REALM/odds?a=NAME&b=NAME`: `herald simulate`'s figures for two knights of the books,
//! with a bar chart. The fights are bounded ([`FIGHTS`]) and run off the async threads; the
//! figures are kept for the same two sheets, so a second look costs nothing.

use super::page::{self, layout};
use super::{Answer, Web};
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use herald_engine::psiknight::MatchKind;
use maud::html;
use std::collections::HashMap;
use std::sync::Arc;

/// The fights one look at the odds runs.
pub const FIGHTS: u32 = 5_000;

/// The most pairs of sheets whose figures are kept.
const KEPT: usize = 256;

/// The figures for two sheets.
#[derive(Clone, Debug)]
pub struct Figures {
    /// The fights run.
    pub fights: u32,
    /// Each knight's wins, then the draws and the fights left unfinished.
    pub wins: [u32; 2],
    /// Fights with no winner.
    pub draws: u32,
    /// Fights still running at the cap.
    pub unfinished: u32,
}

/// `/r/REALM/odds?a=&b=`.
pub async fn page(
    State(web): State<Arc<Web>>,
    Path(realm): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let realm_id = web.realm(&realm).await?;
    let a = q.get("a").map(|s| s.trim()).unwrap_or("");
    let b = q.get("b").map(|s| s.trim()).unwrap_or("");
    let mut problem = None;
    let mut figures = None;
    let mut names = [String::new(), String::new()];
    if !a.is_empty() || !b.is_empty() {
        let ka = web.app.store.knight_named(realm_id, a).await?;
        let kb = web.app.store.knight_named(realm_id, b).await?;
        match (ka, kb) {
            (Some(ka), Some(kb)) if ka.id != kb.id => {
                names = [ka.sheet.name.clone(), kb.sheet.name.clone()];
                figures = Some(odds(&web, &ka.sheet, &kb.sheet).await?);
            }
            (Some(_), Some(_)) => {
                problem = Some("A knight cannot fight itself: name two knights.".to_string())
            }
            (None, _) => {
                problem = Some(format!(
                    "There is no knight named '{a}' in the lists of {realm}."
                ))
            }
            (_, None) => {
                problem = Some(format!(
                    "There is no knight named '{b}' in the lists of {realm}."
                ))
            }
        }
    }
    Ok(layout(
        "Odds",
        Some(&realm),
        html! {
            h1 { "Odds" }
            form.odds method="get" action=(format!("{}/odds", page::realm_path(&realm))) {
                label { "Knight A " input name="a" value=(a) required; }
                label { "Knight B " input name="b" value=(b) required; }
                button type="submit" { "Simulate" }
            }
            @if let Some(p) = &problem { p #problem.bad { (p) } }
            @if let Some(f) = &figures {
                @let share = |n: u32| if f.fights == 0 { 0.0 } else { f64::from(n) / f64::from(f.fights) };
                h2 { (names[0]) " vs " (names[1]) }
                p.muted { (f.fights) " practice fights with the default decisions, seed 0." }
                (page::bar_chart("Share of the fights won", &[
                    (format!("{} wins", names[0]), share(f.wins[0])),
                    (format!("{} wins", names[1]), share(f.wins[1])),
                    ("Draws".to_string(), share(f.draws)),
                ]))
                ul #odds {
                    li { (names[0]) " wins " (f.wins[0]) }
                    li { (names[1]) " wins " (f.wins[1]) }
                    li { "Draws " (f.draws) }
                    @if f.unfinished > 0 { li { "Unfinished " (f.unfinished) } }
                }
            }
        },
    )
    .into_response())
}

/// The figures for two sheets, simulated once and then kept.
async fn odds(
    web: &Web,
    a: &herald_engine::psiknight::KnightSheet,
    b: &herald_engine::psiknight::KnightSheet,
) -> anyhow::Result<Arc<Figures>> {
    let key = format!(
        "{}|{}",
        serde_json::to_string(a)?,
        serde_json::to_string(b)?
    );
    if let Some(f) = web.odds.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(f.clone());
    }
    let (a, b) = (a.clone(), b.clone());
    let o = tokio::task::spawn_blocking(move || {
        crate::games::knight_odds(&a, &b, FIGHTS, 0, MatchKind::Practice)
    })
    .await?;
    let figures = Arc::new(Figures {
        fights: o.fights,
        wins: o.wins,
        draws: o.draws,
        unfinished: o.unfinished,
    });
    let mut kept = web.odds.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(key, figures.clone());
    Ok(figures)
}
