//! PsiKnight's books in `herald export`'s readable part: the knights with their Honor and
//! Prestige, the ledger, the tournaments and the books between fights, named for audits
//! ([`crate::games::OwnBooks::export`]).

use crate::export::{objects, points, postgres_json};
use crate::store::db::{self, Db};
use crate::store::Store;
use anyhow::{Context, Result};
use futures::future::BoxFuture;
use herald_engine::psiknight::{PsiSkill, Skill};
use serde_json::{json, Map, Value};

/// PsiKnight's sections of the export, each with its name.
pub fn sections(store: &Store) -> BoxFuture<'_, Result<Vec<(&'static str, Value)>>> {
    Box::pin(async move {
        let pool = store.db();
        let mut out = vec![
            ("knights", json!(knights(pool).await?)),
            ("ledger", json!(ledger(pool).await?)),
            ("tournaments", json!(tournaments(pool).await?)),
        ];
        for (section, sql) in BETWEEN_FIGHTS {
            out.push((section, json!(objects(pool, sql).await?)));
        }
        Ok(out)
    })
}

async fn knights(pool: &Db) -> Result<Vec<Value>> {
    let mut knights = Vec::new();
    for row in db::query(
        "SELECT k.*, u.name AS owner_name, r.name AS realm_name, \
         (SELECT COALESCE(CAST(SUM(hp_halves) AS BIGINT), 0) FROM ledger l WHERE l.knight_id = k.id) AS hp, \
         (SELECT COALESCE(CAST(SUM(pp_halves) AS BIGINT), 0) FROM ledger l WHERE l.knight_id = k.id) AS pp, \
         (SELECT name FROM knights lord WHERE lord.id = k.lord_id) AS lord_name \
         FROM knights k JOIN users u ON u.id = k.owner_id JOIN realms r ON r.id = k.realm_id ORDER BY k.id",
    )
    .fetch_all(pool)
    .await?
    {
        let mut skills = Map::new();
        for s in Skill::ALL {
            skills.insert(s.name().into(), json!(row.try_get::<i64, _>(s.name())?));
        }
        let died_at = row.try_get::<Option<String>, _>("died_at")?;
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
            "lord": row.try_get::<Option<String>, _>("lord_name")?,
            "retired": row.try_get::<bool, _>("retired")?,
            // A dead knight is also retired (R33, R109): the status tells the two apart.
            "status": match (row.try_get::<bool, _>("retired")?, died_at.is_some()) {
                (_, true) => "killed",
                (true, false) => "retired",
                (false, false) => "active",
            },
            "died_at": died_at,
        }));
    }
    Ok(knights)
}

async fn ledger(pool: &Db) -> Result<Vec<Value>> {
    let mut ledger = Vec::new();
    for row in db::query(
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
    Ok(ledger)
}

async fn tournaments(pool: &Db) -> Result<Vec<Value>> {
    let mut tournaments = Vec::new();
    let sql = "SELECT t.*, r.name AS realm_name, \
         (SELECT json_group_array(k.name) FROM tournament_entries e JOIN knights k ON k.id = e.knight_id \
          WHERE e.tournament_id = t.id) AS entrants, \
         (SELECT json_group_array(json_object('knight', k.name, 'player', e.user_name, 'at', e.at)) \
          FROM tournament_entries e JOIN knights k ON k.id = e.knight_id \
          WHERE e.tournament_id = t.id) AS entries, \
         (SELECT json_group_array(json_object('knight', k.name, 'entry', l.id, \
                 'hp_halves', l.hp_halves, 'pp_halves', l.pp_halves, 'reason', l.reason)) \
          FROM ledger l JOIN knights k ON k.id = l.knight_id WHERE l.tournament_id = t.id) AS awards \
         FROM tournaments t JOIN realms r ON r.id = t.realm_id ORDER BY t.id";
    let sql = match pool {
        Db::Sqlite(_) => sql.to_string(),
        Db::Postgres(_) => postgres_json(sql),
    };
    for row in db::query(&sql).fetch_all(pool).await? {
        let parsed = |column: &str| -> Result<Value> {
            Ok(match row.try_get::<Option<String>, _>(column)? {
                Some(text) => serde_json::from_str(&text)
                    .with_context(|| format!("tournament {column} read back as JSON"))?,
                None => Value::Null,
            })
        };
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
            "entrants": parsed("entrants")?,
            "entries": parsed("entries")?,
            // The Lists and the Melee as they stand (or stood at the end): the bracket, the
            // matches' results, the Melee's passes.
            "state": parsed("state")?,
            // The results as the ledger has them: each award of the tournament.
            "awards": parsed("awards")?,
            "ended_at": row.try_get::<Option<String>, _>("ended_at")?,
            "ended_by": row.try_get::<Option<String>, _>("ended_by")?,
        }));
    }
    Ok(tournaments)
}

/// The books between fights, named for audits: what the queries build, by section.
const BETWEEN_FIGHTS: &[(&str, &str)] = &[
    (
        "allegiances",
        "SELECT json_object('id', a.id, 'vassal', v.name, 'lord', l.name, \
         'began_at', a.began_at, 'began_reason', json(a.began_reason), \
         'ended_at', a.ended_at, 'ended_reason', json(a.ended_reason), \
         'marks', (SELECT json_group_array(json_object('kind', m.kind, 'detail', m.detail, 'at', m.at)) \
                   FROM allegiance_marks m WHERE m.allegiance_id = a.id)) \
         FROM allegiances a JOIN knights v ON v.id = a.vassal_id JOIN knights l ON l.id = a.lord_id \
         ORDER BY a.id",
    ),
    (
        "hostilities",
        "SELECT json_object('id', h.id, 'knights', json_array(a.name, b.name), \
         'declared_by', d.name, 'reason', json(h.reason), 'began_at', h.began_at, \
         'ended_at', h.ended_at, 'ended_reason', json(h.ended_reason)) \
         FROM hostilities h JOIN knights a ON a.id = h.knight_lo JOIN knights b ON b.id = h.knight_hi \
         LEFT JOIN knights d ON d.id = h.declared_by ORDER BY h.id",
    ),
    (
        "captivities",
        "SELECT json_object('id', c.id, 'captive', k.name, 'victor', v.name, 'fight', c.fight_id, \
         'under_hostility', json(CASE WHEN c.under_hostility <> 0 THEN 'true' ELSE 'false' END), \
         'customary_ransom_halves', c.customary_halves, 'demanded_halves', c.demanded_halves, \
         'began_at', c.began_at, 'ended_at', c.ended_at, 'ended_how', c.ended_how, \
         'payments', (SELECT json_group_array(json_object('payer', p.name, 'halves', r.halves, \
                      'ledger', r.ledger_id, 'at', r.at)) \
                      FROM ransom_payments r JOIN knights p ON p.id = r.payer_id \
                      WHERE r.captivity_id = c.id)) \
         FROM captivities c JOIN knights k ON k.id = c.captive_id JOIN knights v ON v.id = c.victor_id \
         ORDER BY c.id",
    ),
    (
        "injuries",
        "SELECT json_object('knight', k.name, 'day', i.day, 'fight', i.fight_id) \
         FROM major_injuries i JOIN knights k ON k.id = i.knight_id ORDER BY i.rowid",
    ),
    (
        "offers",
        "SELECT json_object('from', f.name, 'to', t.name, 'act', o.act, 'at', o.at) \
         FROM offers o JOIN knights f ON f.id = o.from_id JOIN knights t ON t.id = o.to_id \
         ORDER BY o.rowid",
    ),
    (
        "grants",
        "SELECT json_object('lord', l.name, 'vassal', v.name, 'at', g.at) \
         FROM grant_offers g JOIN knights l ON l.id = g.lord_id JOIN knights v ON v.id = g.vassal_id \
         ORDER BY g.rowid",
    ),
];
