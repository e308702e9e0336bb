//! `herald export`: the books as one JSON document, for backups and audits.
//!
//! The document has two parts. The readable one names fighters, for audits: `fights` and
//! `characters`, and each game's books of its own ([`crate::games::OwnBooks::export`]:
//! PsiKnight's `knights`, `ledger`, `tournaments` and the books between fights, `allegiances`,
//! `hostilities`, `captivities` with their ransom payments, `injuries`, `offers`, `grants`). `tables` holds every row of every table as stored, column by column, which is what
//! `herald import` restores (see [`crate::import`]); `schema` is the last migration the books
//! had, so an export is only read back by a Herald with the same tables.

use crate::store::db::{self, Db};
use crate::store::Store;
use anyhow::{Context, Result};
use serde_json::{json, Map, Value};
use sqlx::SqliteConnection;

/// What an export says it is, so that `herald import` knows one when it reads one.
pub const FORMAT: &str = "herald-books";

/// Tables the database keeps by triggers from others (the folded names of `0006`, the
/// knights' sums of `0012` and their log of changes, `0015`): not exported, made again by the
/// triggers as their rows are imported. `engaged_fighters` (`0017`) is the open fights' claims,
/// made again from them.
pub(crate) const DERIVED: &[&str] = &[
    "knight_folds",
    "knight_sums",
    "knight_sums_pending",
    "engaged_fighters",
];

/// The tables of the books, each with its columns in order, as the database at hand has them:
/// every table but SQLite's own, the migrations' and the [`DERIVED`] ones.
pub(crate) async fn tables(conn: &mut SqliteConnection) -> Result<Vec<(String, Vec<String>)>> {
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut tables = Vec::new();
    for name in names.into_iter().filter(|n| !DERIVED.contains(&n.as_str())) {
        let columns = sqlx::query_scalar("SELECT name FROM pragma_table_info(?) ORDER BY cid")
            .bind(&name)
            .fetch_all(&mut *conn)
            .await?;
        tables.push((name, columns));
    }
    Ok(tables)
}

/// The tables of the books as [`tables`] lists them, on either backend. PostgreSQL's tables
/// have the same columns, but for the `rowid` that keeps the order of rows where SQLite's own
/// rowid does, which is not listed.
async fn tables_of(db: &Db) -> Result<Vec<(String, Vec<String>)>> {
    let pool = match db {
        Db::Sqlite(pool) => return tables(&mut *pool.acquire().await?).await,
        Db::Postgres(_) => db,
    };
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    for row in db::query(
        "SELECT CAST(table_name AS TEXT) AS t, CAST(column_name AS TEXT) AS c \
         FROM information_schema.columns WHERE table_schema = current_schema() \
         AND table_name <> '_sqlx_migrations' AND column_name <> 'rowid' \
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(pool)
    .await?
    {
        let (table, column): (String, String) = (row.try_get("t")?, row.try_get("c")?);
        if DERIVED.contains(&table.as_str()) {
            continue;
        }
        match tables.last_mut() {
            Some((last, columns)) if *last == table => columns.push(column),
            _ => tables.push((table, vec![column])),
        }
    }
    Ok(tables)
}

/// `sql` as PostgreSQL writes SQLite's JSON functions: `json_object` and `json_array` as
/// `json_build_object` and `json_build_array`, `json(X)` as a cast, and `json_group_array(X)`
/// as `json_agg(X)`, an empty one `[]` as SQLite's.
pub(crate) fn postgres_json(sql: &str) -> String {
    let sql = calls(sql, "json_group_array", |x| {
        format!("COALESCE(json_agg({x}), CAST('[]' AS json))")
    });
    let sql = calls(&sql, "json", |x| format!("CAST({x} AS json)"));
    let sql = calls(&sql, "json_object", |x| format!("json_build_object({x})"));
    calls(&sql, "json_array", |x| format!("json_build_array({x})"))
}

/// `sql` with every call of the function `name` replaced by `with` its arguments' text.
fn calls(sql: &str, name: &str, with: impl Fn(&str) -> String + Copy) -> String {
    let call = format!("{name}(");
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(&call) {
        let word = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let open = at + call.len();
        if word {
            out.push_str(&rest[..open]);
            rest = &rest[open..];
            continue;
        }
        let mut depth = 1;
        let close = rest[open..].char_indices().find_map(|(i, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (depth == 0).then_some(open + i)
        });
        let Some(close) = close else { break };
        out.push_str(&rest[..at]);
        out.push_str(&with(&calls(&rest[open..close], name, with)));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A stored value as JSON: integers, reals, text and nulls (a JSON text column stays a string).
fn json_value(value: &db::Value) -> Value {
    match value {
        db::Value::Null => Value::Null,
        db::Value::Int(i) => json!(i),
        db::Value::Real(r) => json!(r),
        db::Value::Text(t) => json!(t),
        db::Value::Bool(b) => json!(b),
    }
}

/// An identifier quoted for SQL.
pub(crate) fn quoted(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

/// Every row of `table`, in the order of its rows, each an object of its columns' values as
/// stored (integers, reals, text and nulls; a JSON text column stays a string). The order is
/// SQLite's rowid; on PostgreSQL the `rowid` column kept for it, else the `id`, else the key.
async fn rows(db: &Db, table: &str, columns: &[String]) -> Result<Vec<Value>> {
    let list: Vec<String> = columns.iter().map(|c| quoted(c)).collect();
    let order = match db {
        Db::Sqlite(_) => "rowid".to_string(),
        Db::Postgres(_) => {
            let has_rowid: bool = db::query_scalar(
                "SELECT EXISTS (SELECT 1 FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'rowid')",
            )
            .bind(table)
            .fetch_one(db)
            .await?;
            match (has_rowid, columns.iter().any(|c| c == "id")) {
                (true, _) => "rowid".to_string(),
                (false, true) => "id".to_string(),
                _ => quoted(&columns[0]),
            }
        }
    };
    let sql = format!(
        "SELECT {} FROM {} ORDER BY {order}",
        list.join(", "),
        quoted(table)
    );
    Ok(db::query(&sql)
        .fetch_all(db)
        .await?
        .iter()
        .map(|row| {
            let object: Map<String, Value> = row
                .columns()
                .iter()
                .zip(row.values())
                .map(|(c, v)| (c.clone(), json_value(v)))
                .collect();
            Value::Object(object)
        })
        .collect())
}

/// The objects a query of one `json_object(...)` column builds, parsed.
pub(crate) async fn objects(db: &Db, sql: &str) -> Result<Vec<Value>> {
    let sql = match db {
        Db::Sqlite(_) => sql.to_string(),
        Db::Postgres(_) => postgres_json(sql),
    };
    db::query_scalar::<String>(&sql)
        .fetch_all(db)
        .await?
        .iter()
        .map(|text| serde_json::from_str(text).context("a row read back as JSON"))
        .collect()
}

/// Points from half points: a whole number when whole, else one decimal (`2.5`).
pub(crate) fn points(halves: i64) -> Value {
    if halves % 2 == 0 {
        json!(halves / 2)
    } else {
        json!(halves as f64 / 2.0)
    }
}

/// Builds the export document: `format` and `schema`, the readable sections (`fights`,
/// `characters`, and each game's own: PsiKnight's `knights`, `ledger`, `tournaments`,
/// `allegiances`, `hostilities`, `captivities`, `injuries`, `offers`, `grants`) and `tables`,
/// every stored row.
pub async fn export(store: &Store) -> Result<Value> {
    let pool = store.db();
    // A group fight's every creature by side, in listing order (`fight_members`).
    let mut members: std::collections::HashMap<i64, [Vec<String>; 2]> = Default::default();
    for row in db::query(
        "SELECT m.fight_id, m.side, c.name FROM fight_members m \
         JOIN characters c ON c.id = m.character_id ORDER BY m.fight_id, m.seat",
    )
    .fetch_all(pool)
    .await?
    {
        let side = usize::from(row.try_get::<i64, _>("side")? != 0);
        members.entry(row.try_get("fight_id")?).or_default()[side].push(row.try_get("name")?);
    }
    let mut fights = Vec::new();
    for row in db::query(
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
        let id = row.try_get::<i64, _>("id")?;
        let mut fight = json!({
            "id": id,
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
        });
        if let Some(sides) = members.remove(&id) {
            fight["sides"] = json!(sides);
        }
        fights.push(fight);
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
    let mut doc = Map::new();
    doc.insert("format".into(), json!(FORMAT));
    let schema: Option<i64> = db::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(pool)
        .await?;
    doc.insert("schema".into(), json!(schema));
    doc.insert("fights".into(), json!(fights));
    doc.insert("characters".into(), json!(characters));
    // Each game's books of its own, named for audits (PsiKnight's knights, ledger, tournaments
    // and the books between fights).
    for books in crate::games::GAMES.iter().filter_map(|g| g.own_books) {
        for (section, value) in (books.export)(store).await? {
            doc.insert(section.into(), value);
        }
    }
    let mut tables_doc = Map::new();
    for (table, columns) in tables_of(pool).await? {
        tables_doc.insert(table.clone(), json!(rows(pool, &table, &columns).await?));
    }
    doc.insert("tables".into(), Value::Object(tables_doc));
    Ok(Value::Object(doc))
}
