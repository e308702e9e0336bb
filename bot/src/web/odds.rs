//! `/r/REALM/odds?a=NAME&b=NAME&game=ID`: `herald simulate`'s figures for two knights of the
//! books (PsiKnight, the default) or two characters of another game (through its
//! `GameInfo::matchup`; a side may name several, `Ash,Cai`, in a game of groups), with a bar
//! chart. The fights are bounded ([`FIGHTS`]) and run off the async threads; the figures are
//! kept for the same two sheets (PsiKnight) or the same names while the books have not moved
//! (the other games), so a second look costs nothing.

use super::page::{self, layout};
use super::{Answer, Oops, Web};
use crate::games::GameInfo;
use crate::store::Id;
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
    /// The two sides as the figures name them.
    pub names: [String; 2],
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
    let wanted = q.get("game").map(|s| s.trim()).filter(|s| !s.is_empty());
    let game = match wanted {
        None => &crate::games::PSIKNIGHT,
        Some(id) => crate::games::find(id).ok_or_else(|| Oops::NotFound("game".into()))?,
    };
    let mut problem = None;
    let mut figures = None;
    let mut names = [String::new(), String::new()];
    let psiknight = game.id == crate::games::PSIKNIGHT.id;
    if !psiknight && (!a.is_empty() || !b.is_empty()) {
        match other_game(&web, game, realm_id, [a, b]).await? {
            Ok((found, f)) => {
                names = found;
                figures = Some(f);
            }
            Err(p) => problem = Some(p),
        }
    } else if !a.is_empty() || !b.is_empty() {
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
                label { "Game " select name="game" {
                    @for g in crate::games::GAMES {
                        option value=(g.id) selected[g.id == game.id] { (g.name) }
                    }
                } }
                label { "A " input name="a" value=(a) required; }
                label { "B " input name="b" value=(b) required; }
                button type="submit" { "Simulate" }
            }
            @if let Some(p) = &problem { p #problem.bad { (p) } }
            @if let Some(f) = &figures {
                @let share = |n: u32| if f.fights == 0 { 0.0 } else { f64::from(n) / f64::from(f.fights) };
                h2 { (names[0]) " vs " (names[1]) }
                p.muted { (f.fights) " " (if psiknight { "practice fights" } else { "fights" }) " of " (game.name) " with the default decisions, seed 0." }
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
    let names = [a.name.clone(), b.name.clone()];
    let (a, b) = (a.clone(), b.clone());
    let o = tokio::task::spawn_blocking(move || {
        crate::games::knight_odds(&a, &b, FIGHTS, 0, MatchKind::Practice)
    })
    .await?;
    let figures = Arc::new(Figures {
        names,
        fights: o.fights,
        wins: o.wins,
        draws: o.draws,
        unfinished: o.unfinished,
    });
    keep(web, key, figures.clone());
    Ok(figures)
}

/// The figures for characters of a game on the seam named `names` (each side one name, or
/// several with commas in a game of groups), as they read today: found and simulated, or the
/// one line saying what was wrong and how to say it right.
async fn other_game(
    web: &Web,
    game: &GameInfo,
    realm: Id,
    names: [&str; 2],
) -> anyhow::Result<Result<([String; 2], Arc<Figures>), String>> {
    if names.iter().any(|n| n.is_empty()) {
        return Ok(Err(format!(
            "Name two characters of {}: a and b.",
            game.name
        )));
    }
    for name in names.iter().flat_map(|n| n.split(',')).map(str::trim) {
        if web
            .app
            .store
            .character_named(realm, game.id, name)
            .await?
            .is_none()
        {
            return Ok(Err(format!(
                "There is no character of {} named '{name}' in this realm.",
                game.name
            )));
        }
    }
    // The same names read the same sheets while the books have not moved and the day is the
    // same (recovery goes by the realm's day, R25).
    let day = web.app.day_in(realm, chrono::Utc::now());
    let key = format!(
        "{}|{realm}|{}|{}|{day}|{}",
        game.id,
        names[0].to_lowercase(),
        names[1].to_lowercase(),
        web.app.spoken()
    );
    if let Some(f) = web.odds.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Ok((f.names.clone(), f.clone())));
    }
    let args = crate::simulate::Args {
        knight_a: names[0].to_string(),
        knight_b: names[1].to_string(),
        fights: FIGHTS,
        kind: crate::simulate::Kind::Practice,
        seed: Some(0),
        realm: String::new(),
        game: Some(game.id.to_string()),
    };
    let find = game.matchup;
    let crate::simulate::Lookup::Found(m) =
        find(&web.app.store, &web.app.config, realm, names, &day, &args).await?
    else {
        return Ok(Err(format!(
            "Those are not two sides of {} that can fight: name one character a side{}.",
            game.name,
            if names.iter().any(|n| n.contains(',')) {
                ", or a group of this game's size"
            } else {
                ""
            }
        )));
    };
    let m = Arc::new(m);
    let run = m.clone();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let o = tokio::task::spawn_blocking(move || run.run(FIGHTS, 0, threads, &|_| {})).await?;
    let figures = Arc::new(Figures {
        names: m.styled.clone(),
        fights: o.fights,
        wins: o.wins,
        draws: o.draws,
        unfinished: o.unfinished,
    });
    keep(web, key, figures.clone());
    Ok(Ok((m.styled.clone(), figures)))
}

/// Keeps `figures` under `key`, forgetting all once [`KEPT`] are kept.
fn keep(web: &Web, key: String, figures: Arc<Figures>) {
    let mut kept = web.odds.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.clear();
    }
    kept.insert(key, figures);
}
