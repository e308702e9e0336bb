//! `herald migrate-db --from herald.db --to postgres://...`: a realm's SQLite books moved to
//! PostgreSQL. Every table is copied row by row, ids kept, in one transaction on an empty
//! PostgreSQL database; then the two are compared: each table's count of rows, and `herald
//! export` of both, which must be identical.

use crate::export::{export, quoted, tables};
use crate::store::db::{self, Arg};
use crate::store::Store;
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The most values bound in one statement (PostgreSQL allows 65,535).
const MAX_BINDS: usize = 30_000;

/// What was moved: each table's rows.
#[derive(Debug)]
pub struct Moved {
    /// Each table and its number of rows, as both databases now count them.
    pub tables: Vec<(String, i64)>,
}

impl Moved {
    /// "moved 1,234 rows of 21 tables; counts and exports agree".
    pub fn summary(&self, to: &str) -> String {
        let rows: i64 = self.tables.iter().map(|(_, n)| n).sum();
        format!(
            "moved {rows} rows of {} tables to {to}; every table's count and the two exports agree",
            self.tables.len()
        )
    }
}

/// Copies the SQLite books at `from` into the PostgreSQL database at `to` (which must hold no
/// books yet), then checks the counts and the exports.
pub async fn migrate(from: &Path, to: &str) -> Result<Moved> {
    if !crate::store::is_postgres_url(to) {
        bail!("--to must be a PostgreSQL URL (postgres://USER@HOST/NAME), not {to}");
    }
    let source = Store::open(from).await?;
    let target = Store::open_postgres(to).await?;
    let src = source.sqlite()?.clone();
    let (src_db, dst_db) = (source.db(), target.db());
    let realms: i64 = db::query_scalar("SELECT COUNT(*) FROM realms")
        .fetch_one(dst_db)
        .await?;
    if realms > 0 {
        bail!("the PostgreSQL database already holds books: migrate into an empty one");
    }
    let listed = tables(&mut *src.acquire().await?).await?;
    let order = by_dependency(&src, &listed).await?;

    let mut tx = dst_db.begin().await?;
    for (table, columns) in &order {
        let rows = db::query(&format!(
            "SELECT {} FROM {} ORDER BY rowid",
            columns
                .iter()
                .map(|c| quoted(c))
                .collect::<Vec<_>>()
                .join(", "),
            quoted(table)
        ))
        .fetch_all(src_db)
        .await?;
        // A column naming a row of its own table (a knight's lord) is filled in once every row
        // is in, whatever order they came in.
        let own = self_references(&src, table).await?;
        let per_row = columns.len().max(1);
        for chunk in rows.chunks((MAX_BINDS / per_row).max(1)) {
            let mut values = Vec::with_capacity(chunk.len());
            let mut args = Vec::new();
            for row in chunk {
                let cells: Vec<&str> = row
                    .values()
                    .iter()
                    .zip(columns)
                    .map(|(value, column)| match (value, own.contains(column)) {
                        // A NULL goes in as SQL's, which takes the column's type.
                        (db::Value::Null, _) | (_, true) => "NULL",
                        (value, false) => {
                            args.push(arg(value));
                            "?"
                        }
                    })
                    .collect();
                values.push(format!("({})", cells.join(", ")));
            }
            let sql = format!(
                "INSERT INTO {} ({}) VALUES {}",
                quoted(table),
                columns
                    .iter()
                    .map(|c| quoted(c))
                    .collect::<Vec<_>>()
                    .join(", "),
                values.join(", ")
            );
            let mut query = db::query(&sql);
            for a in args {
                query = query.bind(a);
            }
            query
                .execute(&mut *tx)
                .await
                .with_context(|| format!("cannot copy the rows of {table}"))?;
        }
        for column in &own {
            let i = columns.iter().position(|c| c == column).unwrap_or(0);
            for row in &rows {
                if let (Some(db::Value::Int(id)), Some(value)) =
                    (row.values().first(), row.values().get(i))
                {
                    if *value != db::Value::Null {
                        db::query(&format!(
                            "UPDATE {} SET {} = ? WHERE {} = ?",
                            quoted(table),
                            quoted(column),
                            quoted(&columns[0])
                        ))
                        .bind(arg(value))
                        .bind(*id)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
            }
        }
    }
    // Ids go on from the highest copied, as SQLite's would.
    let identities = db::query(
        "SELECT CAST(table_name AS TEXT) AS t, CAST(column_name AS TEXT) AS c \
         FROM information_schema.columns WHERE table_schema = current_schema() \
         AND is_identity = 'YES'",
    )
    .fetch_all(&mut *tx)
    .await?;
    for row in identities {
        let (table, column): (String, String) = (row.try_get("t")?, row.try_get("c")?);
        db::query(&format!(
            "SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({c}), 0) + 1, false) FROM {t}",
            c = quoted(&column),
            t = quoted(&table)
        ))
        .bind(quoted(&table))
        .bind(&column)
        .fetch_all(&mut *tx)
        .await?;
    }
    // The open fights' claims on their fighters are derived, not copied.
    for claims in crate::store::engaged::OPEN_CLAIMS {
        db::query(claims).execute(&mut *tx).await?;
    }
    tx.commit().await?;

    // The check: every table's count (the derived ones too, but for the sums' log of changes,
    // whose rows depend on when each side last folded them), then the exports.
    let mut counted = Vec::new();
    let mut all: BTreeSet<String> = listed.iter().map(|(t, _)| t.clone()).collect();
    all.extend(
        crate::export::DERIVED
            .iter()
            .filter(|t| **t != "knight_sums_pending")
            .map(|t| t.to_string()),
    );
    for table in all {
        let sql = format!("SELECT COUNT(*) FROM {}", quoted(&table));
        let a: i64 = db::query_scalar(&sql).fetch_one(src_db).await?;
        let b: i64 = db::query_scalar(&sql).fetch_one(dst_db).await?;
        if a != b {
            bail!("{table} has {a} rows in SQLite but {b} in PostgreSQL");
        }
        counted.push((table, a));
    }
    let (a, b) = (export(&source).await?, export(&target).await?);
    if a != b {
        let differs = a
            .as_object()
            .into_iter()
            .flatten()
            .find(|(k, v)| b.get(k.as_str()) != Some(v))
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| "the document".to_string());
        bail!("the exports differ ({differs}): the copy is not faithful");
    }
    Ok(Moved { tables: counted })
}

/// A stored value to bind again.
fn arg(value: &db::Value) -> Arg {
    match value {
        db::Value::Null => Arg::Text(None),
        db::Value::Int(i) => Arg::Int(Some(*i)),
        db::Value::Real(r) => Arg::Real(Some(*r)),
        db::Value::Text(t) => Arg::Text(Some(t.clone())),
        db::Value::Bool(b) => Arg::Int(Some(i64::from(*b))),
    }
}

/// The tables in an order where each comes after those it refers to.
async fn by_dependency(
    src: &sqlx::SqlitePool,
    listed: &[(String, Vec<String>)],
) -> Result<Vec<(String, Vec<String>)>> {
    let mut parents: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (table, _) in listed {
        let refers: Vec<String> =
            sqlx::query_scalar("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?)")
                .bind(table)
                .fetch_all(src)
                .await?;
        parents.insert(table, refers.into_iter().filter(|p| p != table).collect());
    }
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut order = Vec::new();
    while order.len() < listed.len() {
        let next = listed.iter().find(|(t, _)| {
            !done.contains(t)
                && parents[t.as_str()]
                    .iter()
                    .all(|p| done.contains(p) || !parents.contains_key(p.as_str()))
        });
        let Some(next) = next else {
            bail!("the tables refer to one another in a cycle");
        };
        done.insert(next.0.clone());
        order.push(next.clone());
    }
    Ok(order)
}

/// The columns of `table` that refer to its own rows.
async fn self_references(src: &sqlx::SqlitePool, table: &str) -> Result<BTreeSet<String>> {
    let own: Vec<String> =
        sqlx::query_scalar("SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE \"table\" = ?")
            .bind(table)
            .bind(table)
            .fetch_all(src)
            .await?;
    Ok(own.into_iter().collect())
}
