//! The realms (`/`) and a realm's standings (`/r/REALM`), with its characters of the other
//! games.

use super::page::{self, layout, PAGE_ROWS};
use super::{Answer, Web};
use crate::store::web::Sort;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use maud::html;
use std::collections::HashMap;
use std::sync::Arc;

/// `/`: every realm of the books.
pub async fn index(State(web): State<Arc<Web>>) -> Answer {
    let realms = web.app.store.web_realms().await?;
    Ok(layout(
        "The realms",
        None,
        html! {
            h1 { "The realms" }
            @if realms.is_empty() {
                p { "No realm has its books yet: the first command in chat opens one." }
            } @else {
                div.scroll { table {
                    thead { tr { th { "Realm" } th.num { "Knights" } th.num { "Characters" } th.num { "Fights" } } }
                    tbody { @for r in &realms { tr {
                        td { a href=(page::realm_path(&r.name)) { (r.name) } }
                        td.num { (r.knights) } td.num { (r.characters) } td.num { (r.fights) }
                    } } }
                } }
            }
        },
    )
    .into_response())
}

/// `/r/REALM?sort=hp|pp|name|title|wins&page=N`: the standings, and the characters of the
/// other games.
pub async fn standings(
    State(web): State<Arc<Web>>,
    Path(realm): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let id = web.realm(&realm).await?;
    let sort = Sort::from_param(q.get("sort").map(String::as_str));
    let page_no = page::page_number(q.get("page"));
    let (rows, total) = web
        .standings(id, sort, (page_no - 1) * PAGE_ROWS, PAGE_ROWS)
        .await?;
    let characters: Vec<_> = web
        .app
        .store
        .all_characters()
        .await?
        .into_iter()
        .filter(|(r, _, retired)| *r == realm && !retired)
        .map(|(_, c, _)| c)
        .collect();
    let names = web.names(id).await?;
    let base = page::realm_path(&realm);
    let sorted = |s: Sort, label: &str| {
        html! {
            th.num[s != Sort::Name && s != Sort::Title].sorted[s == sort] {
                a href=(format!("{base}?sort={}", s.param())) { (label) }
            }
        }
    };
    let first = (page_no - 1) * PAGE_ROWS;
    Ok(layout(
        &format!("Standings of {realm}"),
        Some(&realm),
        html! {
            h1 { "Standings of " (realm) }
            p.muted { (total) " knights in the lists. Sort by a column's name." }
            div.scroll { table #standings {
                thead { tr {
                    th.num { "#" }
                    (sorted(Sort::Name, "Knight"))
                    (sorted(Sort::Title, "Title"))
                    (sorted(Sort::Honor, "HP"))
                    (sorted(Sort::Prestige, "PP"))
                    th { "Landed" }
                    (sorted(Sort::Wins, "Record (W–L–D)"))
                    th { "Player" }
                } }
                tbody { @for (i, r) in rows.iter().enumerate() { tr {
                    td.num { (first + i as i64 + 1) }
                    td { a href=(page::knight_path(&realm, &r.knight.sheet.name)) { (r.knight.sheet.name) } }
                    td { (r.knight.rank.title(r.knight.sheet.style)) }
                    td.num { (crate::reply::points(r.hp_halves)) }
                    td.num { (crate::reply::points(r.pp_halves)) }
                    td { @if r.knight.landed { "landed" } @else { "—" } }
                    td.num { (r.record[0]) "–" (r.record[1]) "–" (r.record[2]) }
                    td { (names.of(&r.knight.owner).unwrap_or("—")) }
                } } }
            } }
            (page::pager(page_no, total, |p| format!("{base}?sort={}&page={p}", sort.param())))
            @if !characters.is_empty() {
                h2 { "Characters of the other games" }
                div.scroll { table #characters {
                    thead { tr { th { "Game" } th { "Character" } th.num { "Record (W–L–D)" } th { "Player" } } }
                    tbody { @for c in &characters { tr {
                        td { (crate::games::find(&c.game).map_or(c.game.as_str(), |g| g.name)) }
                        td { a href=(page::character_path(&realm, &c.game, &c.name)) { (c.name) } }
                        td.num { (c.record.wins) "–" (c.record.losses) "–" (c.record.draws) }
                        td { (c.owner.as_deref().map_or(Some("NPC"), |o| names.of(o)).unwrap_or("—")) }
                    } } }
                } }
            }
        },
    )
    .into_response())
}
