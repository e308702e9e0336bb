//! `herald export`: the books as one JSON document, for backups and audits.

use crate::store::Store;
use anyhow::Result;
use herald_engine::psiknight::{PsiSkill, Skill};
use serde_json::{json, Map, Value};
use sqlx::Row;

fn points(halves: i64) -> Value {
    if halves % 2 == 0 {
        json!(halves / 2)
    } else {
        json!(halves as f64 / 2.0)
    }
}

/// Builds the export document: `{"knights": [...], "ledger": [...], "fights": [...],
/// "tournaments": [...]}`.
pub async fn export(store: &Store) -> Result<Value> {
    let pool = store.pool();
    let mut knights = Vec::new();
    for row in sqlx::query(
        "SELECT k.*, u.name AS owner_name, r.name AS realm_name, \
         (SELECT COALESCE(SUM(hp_halves), 0) FROM ledger l WHERE l.knight_id = k.id) AS hp, \
         (SELECT COALESCE(SUM(pp_halves), 0) FROM ledger l WHERE l.knight_id = k.id) AS pp \
         FROM knights k JOIN users u ON u.id = k.owner_id JOIN realms r ON r.id = k.realm_id ORDER BY k.id",
    )
    .fetch_all(pool)
    .await?
    {
        let mut skills = Map::new();
        for s in Skill::ALL {
            skills.insert(s.name().into(), json!(row.try_get::<i64, _>(s.name())?));
        }
        let mut psi = Map::new();
        for s in PsiSkill::ALL {
            psi.insert(s.name().into(), json!(row.try_get::<i64, _>(s.name())?));
        }
        knights.push(json!({
            "id": row.try_get::<i64, _>("id")?,
            "realm": row.try_get::<String, _>("realm_name")?,
            "name": row.try_get::<String, _>("name")?,
            "owner": row.try_get::<String, _>("owner_name")?,
            "style": row.try_get::<String, _>("style")?,
            "monarch": row.try_get::<String, _>("monarch")?,
            "skills": skills,
            "psi": psi,
            "hp": points(row.try_get("hp")?),
            "pp": points(row.try_get("pp")?),
            "landed": row.try_get::<bool, _>("landed")?,
            "title": row.try_get::<String, _>("rank")?,
            "retired": row.try_get::<bool, _>("retired")?,
        }));
    }
    let mut ledger = Vec::new();
    for row in sqlx::query(
        "SELECT l.*, k.name AS knight_name FROM ledger l JOIN knights k ON k.id = l.knight_id ORDER BY l.id",
    )
    .fetch_all(pool)
    .await?
    {
        ledger.push(json!({
            "id": row.try_get::<i64, _>("id")?,
            "knight": row.try_get::<String, _>("knight_name")?,
            "hp": points(row.try_get("hp_halves")?),
            "pp": points(row.try_get("pp_halves")?),
            "kind": row.try_get::<String, _>("kind")?,
            "reason": row.try_get::<String, _>("reason")?,
            "fight": row.try_get::<Option<i64>, _>("fight_id")?,
            "by": row.try_get::<Option<String>, _>("by_user")?,
            "revokes": row.try_get::<Option<i64>, _>("revokes")?,
            "tournament": row.try_get::<Option<i64>, _>("tournament_id")?,
            "at": row.try_get::<String, _>("at")?,
        }));
    }
    let mut fights = Vec::new();
    for row in sqlx::query(
        "SELECT f.*, COALESCE(a.name, ca.name) AS a_name, COALESCE(b.name, cb.name) AS b_name, \
         COALESCE(w.name, cw.name) AS w_name FROM fights f \
         LEFT JOIN knights a ON a.id = f.challenger_id LEFT JOIN knights b ON b.id = f.challenged_id \
         LEFT JOIN knights w ON w.id = f.winner_id \
         LEFT JOIN characters ca ON ca.id = f.challenger_character \
         LEFT JOIN characters cb ON cb.id = f.challenged_character \
         LEFT JOIN characters cw ON cw.id = f.winner_character ORDER BY f.id",
    )
    .fetch_all(pool)
    .await?
    {
        fights.push(json!({
            "id": row.try_get::<i64, _>("id")?,
            "game": row.try_get::<String, _>("game")?,
            "kind": row.try_get::<String, _>("kind")?,
            "channel": row.try_get::<String, _>("channel")?,
            "knights": [row.try_get::<String, _>("a_name")?, row.try_get::<String, _>("b_name")?],
            "winner": row.try_get::<Option<String>, _>("w_name")?,
            "reason": row.try_get::<Option<String>, _>("reason")?,
            "recorded": row.try_get::<bool, _>("recorded")?,
            "tournament": row.try_get::<Option<i64>, _>("tournament_id")?,
            "seed_hash": row.try_get::<String, _>("seed_hash")?,
            "started_at": row.try_get::<String, _>("started_at")?,
            "ended_at": row.try_get::<Option<String>, _>("ended_at")?,
        }));
    }
    let mut tournaments = Vec::new();
    for row in sqlx::query(
        "SELECT t.*, r.name AS realm_name, \
         (SELECT json_group_array(k.name) FROM tournament_entries e JOIN knights k ON k.id = e.knight_id \
          WHERE e.tournament_id = t.id) AS entrants \
         FROM tournaments t JOIN realms r ON r.id = t.realm_id ORDER BY t.id",
    )
    .fetch_all(pool)
    .await?
    {
        let entrants: Value =
            serde_json::from_str(&row.try_get::<String, _>("entrants")?).unwrap_or(Value::Null);
        tournaments.push(json!({
            "id": row.try_get::<i64, _>("id")?,
            "realm": row.try_get::<String, _>("realm_name")?,
            "name": row.try_get::<String, _>("name")?,
            "channel": row.try_get::<String, _>("channel")?,
            "host": row.try_get::<Option<String>, _>("host")?,
            "starts_at": row.try_get::<String, _>("starts_at")?,
            "melee": row.try_get::<bool, _>("melee")?,
            "status": row.try_get::<String, _>("status")?,
            "scheduled_by": row.try_get::<String, _>("scheduled_by")?,
            "overrode": row.try_get::<Option<i64>, _>("overrode")?,
            "entrants": entrants,
            "ended_at": row.try_get::<Option<String>, _>("ended_at")?,
        }));
    }
    let characters: Vec<Value> = store
        .all_characters()
        .await?
        .into_iter()
        .map(|(realm, c, retired)| {
            json!({
                "game": c.game,
                "realm": realm,
                "name": c.name,
                "owner": c.owner,
                "npc": c.owner.is_none(),
                "sheet": c.sheet,
                "state": c.state,
                "record": {"wins": c.record.wins, "losses": c.record.losses, "draws": c.record.draws},
                "retired": retired,
            })
        })
        .collect();
    Ok(json!({
        "knights": knights,
        "ledger": ledger,
        "fights": fights,
        "tournaments": tournaments,
        "characters": characters,
    }))
}
