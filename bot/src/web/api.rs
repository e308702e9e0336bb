//! The same data as the pages, as JSON under `/api/...`, with the field names of
//! `herald export` (`name`, `owner`, `hp`, `pp`, `title`, `landed`, `winner`, `seed_hash`, ...).
//! Owners are display nicks only, as on the pages.

use super::page::{self, PAGE_ROWS};
use super::{Answer, Oops, Web};
use crate::export::points;
use crate::store::web::Sort;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use axum::Json;
use herald_engine::psiknight::{PsiSkill, Skill};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

fn ok(value: Value) -> Answer {
    Ok(Json(value).into_response())
}

/// `/api/realms`.
pub async fn realms(State(web): State<Arc<Web>>) -> Answer {
    let realms = web.app.store.web_realms().await?;
    ok(json!(realms
        .iter()
        .map(|r| json!({"name": r.name, "knights": r.knights, "characters": r.characters, "fights": r.fights}))
        .collect::<Vec<_>>()))
}

fn record(r: &[i64; 3]) -> Value {
    json!({"wins": r[0], "losses": r[1], "draws": r[2]})
}

/// `/api/r/REALM/standings?sort=&page=`.
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
    let names = web.names(id).await?;
    let knights: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "name": r.knight.sheet.name,
                "owner": names.of(&r.knight.owner),
                "style": r.knight.sheet.style,
                "monarch": r.knight.sheet.monarch.name(),
                "hp": points(r.hp_halves),
                "pp": points(r.pp_halves),
                "landed": r.knight.landed,
                "title": r.knight.rank.name(),
                "record": record(&r.record),
            })
        })
        .collect();
    ok(json!({
        "realm": realm,
        "sort": sort.param(),
        "page": page_no,
        "pages": ((total + PAGE_ROWS - 1) / PAGE_ROWS).max(1),
        "total": total,
        "knights": knights,
    }))
}

/// `/api/r/REALM/knights/NAME?page=`: the knight and a page of its ledger.
pub async fn knight(
    State(web): State<Arc<Web>>,
    Path((realm, name)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let id = web.realm(&realm).await?;
    let k = web
        .app
        .store
        .web_knight(id, &name)
        .await?
        .ok_or_else(|| Oops::NotFound("knight".into()))?;
    let page_no = page::page_number(q.get("page"));
    let (ledger, total) = web
        .app
        .store
        .web_ledger(k.knight.id, (page_no - 1) * PAGE_ROWS, PAGE_ROWS)
        .await?;
    let names = web.names(id).await?;
    let sheet = &k.knight.sheet;
    let skills: Map<String, Value> = Skill::ALL
        .iter()
        .map(|s| (s.name().to_string(), json!(sheet.skill(*s))))
        .collect();
    let psi: Map<String, Value> = PsiSkill::ALL
        .iter()
        .map(|s| (s.name().to_string(), json!(sheet.psi(*s))))
        .collect();
    ok(json!({
        "id": k.knight.id,
        "realm": realm,
        "name": sheet.name,
        "owner": names.of(&k.knight.owner),
        "style": sheet.style,
        "monarch": sheet.monarch.name(),
        "skills": skills,
        "psi": psi,
        "hp": points(k.hp_halves),
        "pp": points(k.pp_halves),
        "landed": k.knight.landed,
        "title": k.knight.rank.name(),
        "lord": k.lord,
        "vassals": k.vassals,
        "captor": k.captor.as_ref().map(|(c, _)| c),
        "ransom": k.captor.as_ref().map(|(_, r)| points(*r)),
        "retired": k.retired,
        "status": match (&k.died_at, k.retired) {
            (Some(_), _) => "killed",
            (None, true) => "retired",
            (None, false) => "active",
        },
        "died_at": k.died_at,
        "record": record(&k.record),
        "ledger_page": page_no,
        "ledger_total": total,
        "ledger": ledger.iter().map(|e| json!({
            "id": e.id,
            "hp": points(e.hp_halves),
            "pp": points(e.pp_halves),
            "kind": e.kind,
            "reason": e.reason,
            "fight": e.fight,
            "revokes": e.revokes,
            "at": e.at,
        })).collect::<Vec<_>>(),
    }))
}

/// `/api/r/REALM/characters`: the characters of the games on the seam.
pub async fn characters(State(web): State<Arc<Web>>, Path(realm): Path<String>) -> Answer {
    let id = web.realm(&realm).await?;
    let names = web.names(id).await?;
    let all = web.app.store.all_characters().await?;
    ok(json!(all
        .iter()
        .filter(|(r, _, _)| *r == realm)
        .map(|(_, c, retired)| json!({
            "game": c.game,
            "realm": realm,
            "name": c.name,
            "owner": c.owner.as_deref().and_then(|o| names.of(o)),
            "npc": c.owner.is_none(),
            "sheet": c.sheet,
            "state": c.state,
            "record": {"wins": c.record.wins, "losses": c.record.losses, "draws": c.record.draws},
            "retired": retired,
        }))
        .collect::<Vec<_>>()))
}

/// `/api/r/REALM/tournaments`.
pub async fn tournaments(State(web): State<Arc<Web>>, Path(realm): Path<String>) -> Answer {
    let id = web.realm(&realm).await?;
    let rows = web.app.store.web_tournaments(id).await?;
    ok(json!(rows
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "channel": t.channel, "starts_at": t.starts_at, "status": t.status, "entries": t.entries}))
        .collect::<Vec<_>>()))
}

/// `/api/r/REALM/tournaments/ID`.
pub async fn tournament(
    State(web): State<Arc<Web>>,
    Path((realm, id)): Path<(String, String)>,
) -> Answer {
    let (realm_id, t) = web.tournament(&realm, &id).await?;
    let id = t.id;
    let entrants = web.app.store.web_entrants(id).await?;
    let fights = web.app.store.web_tournament_fights(realm_id, id).await?;
    let awards = web.app.store.web_tournament_awards(id).await?;
    let state: Value = t
        .state
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null);
    ok(json!({
        "id": t.id,
        "realm": realm,
        "name": t.name,
        "channel": t.channel,
        "host": t.host,
        "starts_at": t.starts_at.to_rfc3339(),
        "melee": t.melee,
        "status": super::status_word(t.status),
        "entrants": entrants.iter().map(|(_, n)| n).collect::<Vec<_>>(),
        "state": state,
        "fights": fights.iter().map(|f| json!({"id": f.id, "kind": f.kind, "knights": f.fighters, "winner": f.winner, "reason": f.reason, "ended_at": f.ended_at})).collect::<Vec<_>>(),
        "awards": awards.iter().map(|a| json!({"knight": a.knight, "hp": points(a.hp_halves), "pp": points(a.pp_halves), "reason": a.reason})).collect::<Vec<_>>(),
    }))
}

/// `/api/r/REALM/fights/ID`: the fight, its steps told, and whether it verifies.
pub async fn fight(
    State(web): State<Arc<Web>>,
    Path((realm, id)): Path<(String, String)>,
) -> Answer {
    let realm_id = web.realm(&realm).await?;
    let f = super::fight::find(&web, realm_id, &id).await?;
    let told = super::fight::tell(&web, &f).await?;
    let verify = match f.ended_at {
        Some(_) => Some(crate::verify::verify(&web.app.store, f.id).await?),
        None => None,
    };
    ok(json!({
        "id": f.id,
        "game": f.game,
        "kind": f.kind,
        "channel": f.channel,
        "knights": f.fighters,
        "winner": f.winner,
        "reason": f.reason,
        "recorded": f.recorded,
        "tournament": f.tournament.as_ref().map(|(id, _)| id),
        "seed_hash": f.seed_hash,
        "seed": f.seed,
        "started_at": f.started_at,
        "ended_at": f.ended_at,
        "steps": told.steps,
        "verify": verify.map(|v| json!({"ok": v.ok, "message": v.message})),
    }))
}
