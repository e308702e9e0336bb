//! `herald import FILE --db NEW`: an export of the books (see [`crate::export`]) restored into a
//! new database.
//!
//! The database is built beside NEW under a name of its own, every row in one transaction, and
//! takes NEW's name only once that transaction has committed: a refusal or a failure halfway
//! leaves no file at NEW, and a file already there is never touched.

use crate::export::{quoted, tables, FORMAT};
use anyhow::{Context, Result};
use serde_json::{Map, Value};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{ConnectOptions, Connection, SqliteConnection};
use std::path::{Path, PathBuf};

/// The migrations every database of this Herald has.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// What an import wrote: rows by table, in the order of the tables.
#[derive(Debug)]
pub struct Imported {
    /// Each table with its number of rows.
    pub tables: Vec<(String, usize)>,
}

impl Imported {
    /// One line for the command line: the rows restored, the main tables named.
    pub fn summary(&self, db: &Path) -> String {
        let count = |name: &str| {
            self.tables
                .iter()
                .find(|(t, _)| t == name)
                .map_or(0, |(_, n)| *n)
        };
        let rows: usize = self.tables.iter().map(|(_, n)| n).sum();
        format!(
            "imported {rows} rows into {}: {} knights, {} characters, {} fights, {} ledger entries, {} tournaments",
            crate::store::redacted(&db.display().to_string()),
            count("knights"),
            count("characters"),
            count("fights"),
            count("ledger"),
            count("tournaments")
        )
    }
}

/// Restores the export `text` into a new database at `db`. `Ok(Err(line))` is a refusal (a
/// file already at `db`, or an export that is not whole or does not fit these books), one line
/// saying what was wrong; nothing is then left at `db`. `Err` is a failure of the machine (a
/// disk full), after which nothing is left at `db` either.
pub async fn import(text: &str, db: &Path) -> Result<Result<Imported, String>> {
    if db.exists() {
        return Ok(Err(format!(
            "there is already a file at {}: import makes a new database only; give --db a path where there is none",
            db.display()
        )));
    }
    let doc: Value = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(e) => return Ok(Err(format!("this is not an export of Herald's books: {e}"))),
    };
    let tables_doc = match whole(&doc) {
        Ok(t) => t,
        Err(line) => return Ok(Err(line)),
    };
    let building = Building::beside(db);
    let result = restore(&building.path, tables_doc).await;
    match result {
        Ok(Ok(imported)) => {
            // No-clobber: a file that appeared at `db` meanwhile is left as it is.
            if db.exists() {
                return Ok(Err(format!(
                    "a file appeared at {} during the import; it is left as it is",
                    db.display()
                )));
            }
            std::fs::rename(&building.path, db).with_context(|| {
                format!(
                    "cannot move the imported database to {} from {}",
                    db.display(),
                    building.path.display()
                )
            })?;
            Ok(Ok(imported))
        }
        other => other,
    }
}

/// Restores the export `text` into the PostgreSQL database at `url`, which must hold no books
/// yet. The export is built and checked as for a file (in a SQLite file of its own, removed
/// after), then moved in one PostgreSQL transaction through the store's query layer, as `herald
/// migrate-db` moves books, and the counts and exports of both compared. A refusal or a failure
/// leaves the PostgreSQL database without books.
pub async fn import_postgres(text: &str, url: &str) -> Result<Result<Imported, String>> {
    let target = crate::store::Store::open_postgres(url).await?;
    let realms: i64 = crate::store::db::query_scalar("SELECT COUNT(*) FROM realms")
        .fetch_one(target.db())
        .await?;
    if realms > 0 {
        return Ok(Err(
            "that PostgreSQL database already holds books: import makes new books only; give --db an empty database"
                .to_string(),
        ));
    }
    drop(target);
    // Removed, with its journal, however this ends.
    let built = Building {
        path: std::env::temp_dir().join(format!(
            "herald-import-{}-{}.db",
            std::process::id(),
            chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default()
        )),
    };
    let file = built.path.clone();
    let imported = match import(text, &file).await? {
        Ok(imported) => imported,
        Err(line) => return Ok(Err(line)),
    };
    crate::migrate_db::migrate(&file, url).await?;
    Ok(Ok(imported))
}

/// The export's `tables`, once its `format` and `schema` say it is an export these books can
/// take; else the line that says why not.
fn whole(doc: &Value) -> Result<&Map<String, Value>, String> {
    if doc.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!(
            "this is not an export of Herald's books: it has no \"format\": \"{FORMAT}\" (write one with herald export)"
        ));
    }
    let ours = MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0);
    match doc.get("schema").and_then(Value::as_i64) {
        Some(theirs) if theirs == ours => {}
        theirs => {
            return Err(format!(
                "this export's books are at migration {}, and this Herald's at {ours}: import it with the Herald that exported it, open that database with this one, and export again",
                theirs.map_or_else(|| "(none given)".to_string(), |v| v.to_string())
            ))
        }
    }
    doc.get("tables").and_then(Value::as_object).ok_or_else(|| {
        "this export has no \"tables\": it is not whole (write it again with herald export)"
            .to_string()
    })
}

/// The database being built beside its final name; removed, with its journal and the start-up
/// lock's file [`Store::open`](crate::store::Store::open) puts beside it, unless it took that
/// name (the lock's file is removed then too: the name it was made for is gone). No other
/// process opens a database being built, so removing its lock's file takes no lock from anyone.
struct Building {
    path: PathBuf,
}

impl Building {
    fn beside(db: &Path) -> Building {
        let name = db
            .file_name()
            .map_or_else(|| "herald.db".into(), |n| n.to_string_lossy().into_owned());
        let path = db.with_file_name(format!(".{name}.import-{}", std::process::id()));
        Building { path }
    }
}

impl Drop for Building {
    fn drop(&mut self) {
        for suffix in ["", "-journal", "-wal", "-shm", ".lock"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Builds the books at `path` from the export's tables, in one transaction.
async fn restore(path: &Path, doc: &Map<String, Value>) -> Result<Result<Imported, String>> {
    // A journal that goes with the transaction: nothing but the database file is left after.
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Delete)
        .foreign_keys(true);
    let mut conn = options
        .connect()
        .await
        .with_context(|| format!("cannot create the database {}", path.display()))?;
    MIGRATOR
        .run(&mut conn)
        .await
        .context("cannot apply the database migrations")?;
    let result = fill(&mut conn, doc).await;
    conn.close().await?;
    result
}

/// Every row of the export, in one transaction, checked against the tables this Herald has.
async fn fill(
    conn: &mut SqliteConnection,
    doc: &Map<String, Value>,
) -> Result<Result<Imported, String>> {
    let tables = tables(conn).await?;
    if let Some(unknown) = doc.keys().find(|t| !tables.iter().any(|(n, _)| n == *t)) {
        return Ok(Err(format!(
            "this export has a table '{unknown}' these books do not have"
        )));
    }
    let mut tx = conn.begin().await?;
    // Rows may name rows further on (a knight's lord, a ledger entry's fight): the keys are
    // checked once every row is in.
    sqlx::query("PRAGMA defer_foreign_keys = ON")
        .execute(&mut *tx)
        .await?;
    let mut imported = Imported { tables: Vec::new() };
    for (table, columns) in &tables {
        let Some(rows) = doc.get(table) else {
            return Ok(Err(format!(
                "this export has no table '{table}': it is not whole (write it again with herald export)"
            )));
        };
        let Some(rows) = rows.as_array() else {
            return Ok(Err(format!(
                "this export's table '{table}' is not a list of rows"
            )));
        };
        for (i, row) in rows.iter().enumerate() {
            let place = format!("table '{table}', row {}", i + 1);
            let Some(row) = row.as_object() else {
                return Ok(Err(format!("{place} is not an object of columns")));
            };
            if let Some(c) = row.keys().find(|c| !columns.contains(c)) {
                return Ok(Err(format!(
                    "{place} has a column '{c}' the table does not have"
                )));
            }
            let names: Vec<String> = row.keys().map(|c| quoted(c)).collect();
            let sql = format!(
                "INSERT INTO {} ({}) VALUES ({})",
                quoted(table),
                names.join(", "),
                vec!["?"; names.len()].join(", ")
            );
            let mut insert = sqlx::query(&sql);
            for (column, value) in row {
                insert = match value {
                    Value::Null => insert.bind(None::<i64>),
                    Value::String(s) => insert.bind(s.as_str()),
                    Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                        (Some(i), _) => insert.bind(i),
                        (None, Some(f)) if !n.is_u64() => insert.bind(f),
                        _ => return Ok(Err(format!("{place}: column '{column}' holds {n}, beyond an integer's range"))),
                    },
                    _ => {
                        return Ok(Err(format!(
                            "{place}: column '{column}' holds {value}; stored values are numbers, strings and nulls"
                        )))
                    }
                };
            }
            if let Err(e) = insert.execute(&mut *tx).await {
                return Ok(Err(format!(
                    "{place} does not fit the books: {}",
                    db_message(&e)
                )));
            }
        }
        imported.tables.push((table.clone(), rows.len()));
    }
    let broken: Option<(String, Option<i64>, String)> =
        sqlx::query_as("SELECT \"table\", rowid, parent FROM pragma_foreign_key_check LIMIT 1")
            .fetch_optional(&mut *tx)
            .await?;
    if let Some((table, rowid, parent)) = broken {
        return Ok(Err(format!(
            "table '{table}' (row id {}) names a row of '{parent}' the export does not hold",
            rowid.map_or_else(|| "?".to_string(), |r| r.to_string())
        )));
    }
    // The open fights' claims on their fighters are derived, not exported.
    for claims in crate::store::engaged::OPEN_CLAIMS {
        sqlx::query(claims).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(Ok(imported))
}

/// SQLite's own words for a refused row ("UNIQUE constraint failed: knights.id").
fn db_message(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_string(),
        other => other.to_string(),
    }
}
