//! The two backends behind one way of querying: SQLite (in the process, the default) and
//! PostgreSQL (one server shared by several processes). The store writes each query once, with
//! `?` placeholders, which become `$1`, `$2`, … for PostgreSQL; values are bound as [`Bind`]
//! values and rows read back as [`Row`]s, the same from either side: a flag kept as an integer
//! (SQLite's way, kept by the PostgreSQL schema too) reads as a `bool`, as PostgreSQL's own
//! booleans do. Only where the dialects truly differ does the store ask [`Db::is_postgres`].

use futures::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::{Column, PgPool, Postgres, Row as _, Sqlite, SqlitePool, TypeInfo, ValueRef};
use std::sync::Arc;

/// A pool of connections to one of the backends.
#[derive(Clone, Debug)]
pub enum Db {
    /// A SQLite file or memory database.
    Sqlite(SqlitePool),
    /// A PostgreSQL database.
    Postgres(PgPool),
}

/// A transaction on either backend. Queries run on `&mut *tx` (its [`Open`] transaction), as
/// on sqlx's own; dropped without [`Tx::commit`], it rolls back.
pub struct Tx<'c>(Open<'c>);

/// A transaction in progress, on either backend.
pub enum Open<'c> {
    /// SQLite's.
    Sqlite(sqlx::Transaction<'c, Sqlite>),
    /// PostgreSQL's.
    Postgres(sqlx::Transaction<'c, Postgres>),
}

impl<'c> std::ops::Deref for Tx<'c> {
    type Target = Open<'c>;
    fn deref(&self) -> &Open<'c> {
        &self.0
    }
}

impl std::ops::DerefMut for Tx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// A connection taken from the pool and kept (the book writer's).
#[derive(Debug)]
pub enum Conn {
    /// SQLite's.
    Sqlite(PoolConnection<Sqlite>),
    /// PostgreSQL's.
    Postgres(PoolConnection<Postgres>),
}

/// The advisory lock every change to the books takes first on PostgreSQL: what SQLite's
/// `BEGIN IMMEDIATE` gives (one writer of the books at a time), across every process sharing
/// the database. Held to the transaction's end. The value is arbitrary; the same in every
/// process.
const BOOKS_LOCK: i64 = 0x4845_5241_4c44; // "HERALD"

impl Db {
    /// Whether this is PostgreSQL (for the few statements whose SQL differs).
    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }

    /// A condition true when `column` holds a character outside printable ASCII (a name the
    /// database's `lower()` may not fold as the bot does).
    pub fn non_ascii(&self, column: &str) -> String {
        match self {
            Db::Sqlite(_) => format!("{column} GLOB '*[^ -~]*'"),
            Db::Postgres(_) => format!("{column} ~ '[^ -~]'"),
        }
    }

    /// A transaction that only reads, or writes what constraints alone keep right.
    pub async fn begin(&self) -> Result<Tx<'static>, sqlx::Error> {
        Ok(match self {
            Db::Sqlite(p) => Tx(Open::Sqlite(p.begin().await?)),
            Db::Postgres(p) => Tx(Open::Postgres(p.begin().await?)),
        })
    }

    /// A transaction that changes the books (loads, checks through the rules, writes): one at a
    /// time. SQLite takes its write lock at `BEGIN IMMEDIATE`; PostgreSQL the books' advisory
    /// lock, so that two processes cannot both spend the same points.
    pub async fn begin_write(&self) -> Result<Tx<'static>, sqlx::Error> {
        match self {
            Db::Sqlite(p) => Ok(Tx(Open::Sqlite(p.begin_with("BEGIN IMMEDIATE").await?))),
            Db::Postgres(p) => {
                let mut tx = Tx(Open::Postgres(p.begin().await?));
                tx.lock_books().await?;
                Ok(tx)
            }
        }
    }

    /// Resolves once the pool is closed ([`sqlx::Pool::close`]): a connection kept must then be
    /// given back, or the close waits for it forever.
    pub fn close_event(&self) -> sqlx::pool::CloseEvent {
        match self {
            Db::Sqlite(p) => p.close_event(),
            Db::Postgres(p) => p.close_event(),
        }
    }

    /// A connection of the pool, to keep.
    pub async fn acquire(&self) -> Result<Conn, sqlx::Error> {
        Ok(match self {
            Db::Sqlite(p) => Conn::Sqlite(p.acquire().await?),
            Db::Postgres(p) => Conn::Postgres(p.acquire().await?),
        })
    }
}

impl Conn {
    /// A transaction on this connection.
    pub async fn begin(&mut self) -> Result<Tx<'_>, sqlx::Error> {
        use sqlx::Connection;
        Ok(match self {
            Conn::Sqlite(c) => Tx(Open::Sqlite(c.begin().await?)),
            Conn::Postgres(c) => Tx(Open::Postgres(c.begin().await?)),
        })
    }

    /// Closes the connection when dropped instead of giving it back to the pool.
    pub fn close_on_drop(&mut self) {
        match self {
            Conn::Sqlite(c) => c.close_on_drop(),
            Conn::Postgres(c) => c.close_on_drop(),
        }
    }
}

impl Tx<'_> {
    /// Commits.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Open::Sqlite(t) => t.commit().await,
            Open::Postgres(t) => t.commit().await,
        }
    }

    /// Rolls back.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Open::Sqlite(t) => t.rollback().await,
            Open::Postgres(t) => t.rollback().await,
        }
    }

    /// Whether this is PostgreSQL's (for the few statements whose SQL differs).
    pub fn is_postgres(&self) -> bool {
        matches!(self.0, Open::Postgres(_))
    }

    /// Takes the books' lock for the rest of the transaction (PostgreSQL); SQLite's first write
    /// already holds its one writer's lock.
    pub async fn lock_books(&mut self) -> Result<(), sqlx::Error> {
        if let Open::Postgres(t) = &mut self.0 {
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(BOOKS_LOCK)
                .execute(&mut **t)
                .await?;
        }
        Ok(())
    }
}

/// A value bound to a placeholder. A NULL keeps its type, which PostgreSQL needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// An integer (flags are 0 or 1).
    Int(Option<i64>),
    /// Text.
    Text(Option<String>),
    /// A floating-point number.
    Real(Option<f64>),
}

/// What can be bound to a placeholder.
pub trait Bind {
    /// The value.
    fn arg(&self) -> Arg;
    /// A NULL of this type.
    fn null() -> Arg
    where
        Self: Sized;
}

macro_rules! bind_int {
    ($($t:ty),*) => {$(
        impl Bind for $t {
            fn arg(&self) -> Arg {
                Arg::Int(Some(i64::from(*self)))
            }
            fn null() -> Arg {
                Arg::Int(None)
            }
        }
    )*};
}
bind_int!(i64, i32, i16, u32, u16, u8, bool);

impl Bind for usize {
    fn arg(&self) -> Arg {
        Arg::Int(Some(i64::try_from(*self).unwrap_or(i64::MAX)))
    }
    fn null() -> Arg {
        Arg::Int(None)
    }
}

impl Bind for f64 {
    fn arg(&self) -> Arg {
        Arg::Real(Some(*self))
    }
    fn null() -> Arg {
        Arg::Real(None)
    }
}

impl Bind for str {
    fn arg(&self) -> Arg {
        Arg::Text(Some(self.to_string()))
    }
}

impl Bind for String {
    fn arg(&self) -> Arg {
        self.as_str().arg()
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl Bind for &str {
    fn arg(&self) -> Arg {
        (**self).arg()
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl<T: Bind> Bind for &T {
    fn arg(&self) -> Arg {
        (**self).arg()
    }
    fn null() -> Arg {
        T::null()
    }
}

impl<T: Bind> Bind for Option<T> {
    fn arg(&self) -> Arg {
        match self {
            Some(v) => v.arg(),
            None => T::null(),
        }
    }
    fn null() -> Arg {
        T::null()
    }
}

impl Bind for Arg {
    fn arg(&self) -> Arg {
        self.clone()
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

/// A value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// NULL.
    Null,
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
    /// A boolean (PostgreSQL's, from an expression such as `EXISTS`).
    Bool(bool),
}

/// What a [`Value`] can be read as.
pub trait Decode: Sized {
    /// The value as this type, or why not.
    fn decode(value: &Value) -> Result<Self, String>;
}

fn mismatch<T>(value: &Value, want: &str) -> Result<T, String> {
    Err(format!("expected {want}, found {value:?}"))
}

impl Decode for i64 {
    fn decode(value: &Value) -> Result<Self, String> {
        match value {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(i64::from(*b)),
            other => mismatch(other, "an integer"),
        }
    }
}

macro_rules! decode_int {
    ($($t:ty),*) => {$(
        impl Decode for $t {
            fn decode(value: &Value) -> Result<Self, String> {
                let i = i64::decode(value)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range for {}", stringify!($t)))
            }
        }
    )*};
}
decode_int!(i32, i16, u64, u32, u16, u8, usize);

impl Decode for bool {
    fn decode(value: &Value) -> Result<Self, String> {
        match value {
            Value::Bool(b) => Ok(*b),
            Value::Int(i) => Ok(*i != 0),
            other => mismatch(other, "a flag"),
        }
    }
}

impl Decode for f64 {
    fn decode(value: &Value) -> Result<Self, String> {
        match value {
            Value::Real(r) => Ok(*r),
            Value::Int(i) => Ok(*i as f64),
            other => mismatch(other, "a number"),
        }
    }
}

impl Decode for String {
    fn decode(value: &Value) -> Result<Self, String> {
        match value {
            Value::Text(s) => Ok(s.clone()),
            other => mismatch(other, "text"),
        }
    }
}

impl Decode for Value {
    fn decode(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(value: &Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            other => T::decode(other).map(Some),
        }
    }
}

/// A column of a [`Row`], by name or position.
pub trait ColumnIndex {
    /// Its position in `row`.
    fn position(&self, row: &Row) -> Result<usize, sqlx::Error>;
}

impl ColumnIndex for &str {
    fn position(&self, row: &Row) -> Result<usize, sqlx::Error> {
        row.columns
            .iter()
            .position(|c| c == self)
            .ok_or_else(|| sqlx::Error::ColumnNotFound(self.to_string()))
    }
}

impl ColumnIndex for usize {
    fn position(&self, row: &Row) -> Result<usize, sqlx::Error> {
        if *self < row.values.len() {
            Ok(*self)
        } else {
            Err(sqlx::Error::ColumnIndexOutOfBounds {
                index: *self,
                len: row.values.len(),
            })
        }
    }
}

/// A row read from either backend.
#[derive(Clone, Debug)]
pub struct Row {
    columns: Arc<[String]>,
    values: Vec<Value>,
}

impl Row {
    /// A column's value as `T`.
    pub fn try_get<T: Decode, I: ColumnIndex>(&self, index: I) -> Result<T, sqlx::Error> {
        let i = index.position(self)?;
        T::decode(&self.values[i]).map_err(|e| sqlx::Error::ColumnDecode {
            index: self.columns[i].clone(),
            source: e.into(),
        })
    }

    /// The columns' names, in order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The values, in column order.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
}

/// What a statement did.
#[derive(Clone, Copy, Debug)]
pub struct Done {
    rows_affected: u64,
}

impl Done {
    /// How many rows it changed.
    pub fn rows_affected(&self) -> u64 {
        self.rows_affected
    }
}

/// Rows read, or rows changed.
#[doc(hidden)]
pub enum Out {
    Rows(Vec<Row>),
    Done(Done),
}

/// Where a query runs: the pool, a transaction, or a kept connection.
pub trait Executor<'e>: Send + 'e {
    #[doc(hidden)]
    fn run(self, sql: &'e str, args: Vec<Arg>, rows: bool) -> BoxFuture<'e, sqlx::Result<Out>>;
}

impl<'e> Executor<'e> for &'e Db {
    fn run(self, sql: &'e str, args: Vec<Arg>, rows: bool) -> BoxFuture<'e, sqlx::Result<Out>> {
        match self {
            Db::Sqlite(p) => Box::pin(run_sqlite(p, sql, args, rows)),
            Db::Postgres(p) => Box::pin(run_postgres(p, sql, args, rows)),
        }
    }
}

impl<'e, 'c: 'e> Executor<'e> for &'e mut Open<'c> {
    fn run(self, sql: &'e str, args: Vec<Arg>, rows: bool) -> BoxFuture<'e, sqlx::Result<Out>> {
        match self {
            Open::Sqlite(t) => Box::pin(run_sqlite(&mut **t, sql, args, rows)),
            Open::Postgres(t) => Box::pin(run_postgres(&mut **t, sql, args, rows)),
        }
    }
}

impl<'e, 'c: 'e> Executor<'e> for &'e mut Tx<'c> {
    fn run(self, sql: &'e str, args: Vec<Arg>, rows: bool) -> BoxFuture<'e, sqlx::Result<Out>> {
        self.0.run(sql, args, rows)
    }
}

impl<'e> Executor<'e> for &'e mut Conn {
    fn run(self, sql: &'e str, args: Vec<Arg>, rows: bool) -> BoxFuture<'e, sqlx::Result<Out>> {
        match self {
            Conn::Sqlite(c) => Box::pin(run_sqlite(&mut **c, sql, args, rows)),
            Conn::Postgres(c) => Box::pin(run_postgres(&mut **c, sql, args, rows)),
        }
    }
}

/// The query with its arguments bound, given to it: text bound by reference would be copied
/// again when the query leaves for the database's thread.
macro_rules! bound {
    ($sql:expr, $args:expr) => {{
        let mut query = sqlx::query($sql);
        for arg in $args {
            query = match arg {
                Arg::Int(v) => query.bind(v),
                Arg::Text(v) => query.bind(v),
                Arg::Real(v) => query.bind(v),
            };
        }
        query
    }};
}

async fn run_sqlite<'e, E: sqlx::Executor<'e, Database = Sqlite>>(
    on: E,
    sql: &'e str,
    args: Vec<Arg>,
    rows: bool,
) -> sqlx::Result<Out> {
    let query = bound!(sql, args);
    if !rows {
        let done = query.execute(on).await?;
        return Ok(Out::Done(Done {
            rows_affected: done.rows_affected(),
        }));
    }
    let found = query.fetch_all(on).await?;
    let columns = names(found.first().map(|r| r.columns()));
    found
        .iter()
        .map(|row| {
            let values = (0..row.len())
                .map(|i| {
                    let raw = row.try_get_raw(i)?;
                    if raw.is_null() {
                        return Ok(Value::Null);
                    }
                    let kind = raw.type_info().name().to_string();
                    Ok(match kind.as_str() {
                        "INTEGER" | "BOOLEAN" | "INT4" | "INT8" => {
                            Value::Int(row.try_get_unchecked(i)?)
                        }
                        "REAL" | "NUMERIC" => Value::Real(row.try_get_unchecked(i)?),
                        _ => Value::Text(row.try_get_unchecked(i)?),
                    })
                })
                .collect::<sqlx::Result<Vec<_>>>()?;
            Ok(Row {
                columns: columns.clone(),
                values,
            })
        })
        .collect::<sqlx::Result<Vec<_>>>()
        .map(Out::Rows)
}

async fn run_postgres<'e, E: sqlx::Executor<'e, Database = Postgres>>(
    on: E,
    sql: &'e str,
    args: Vec<Arg>,
    rows: bool,
) -> sqlx::Result<Out> {
    let sql = numbered(sql);
    let query = bound!(&sql, args);
    if !rows {
        let done = query.execute(on).await?;
        return Ok(Out::Done(Done {
            rows_affected: done.rows_affected(),
        }));
    }
    let found = query.fetch_all(on).await?;
    let columns = names(found.first().map(|r| r.columns()));
    found
        .iter()
        .map(|row| {
            let values = (0..row.len())
                .map(|i| {
                    let raw = row.try_get_raw(i)?;
                    if raw.is_null() {
                        return Ok(Value::Null);
                    }
                    let kind = raw.type_info().name().to_string();
                    Ok(match kind.as_str() {
                        "INT8" => Value::Int(row.try_get_unchecked(i)?),
                        "INT4" => Value::Int(row.try_get_unchecked::<i32, _>(i)?.into()),
                        "INT2" => Value::Int(row.try_get_unchecked::<i16, _>(i)?.into()),
                        "BOOL" => Value::Bool(row.try_get_unchecked(i)?),
                        "FLOAT8" => Value::Real(row.try_get_unchecked(i)?),
                        "FLOAT4" => Value::Real(row.try_get_unchecked::<f32, _>(i)?.into()),
                        "TEXT" | "VARCHAR" | "NAME" | "BPCHAR" | "UNKNOWN" | "JSON" => {
                            Value::Text(row.try_get_unchecked(i)?)
                        }
                        other => {
                            return Err(sqlx::Error::ColumnDecode {
                                index: row.columns()[i].name().to_string(),
                                source: format!(
                                    "a column of type {other}: cast it to BIGINT or TEXT"
                                )
                                .into(),
                            })
                        }
                    })
                })
                .collect::<sqlx::Result<Vec<_>>>()?;
            Ok(Row {
                columns: columns.clone(),
                values,
            })
        })
        .collect::<sqlx::Result<Vec<_>>>()
        .map(Out::Rows)
}

fn names<C: Column>(columns: Option<&[C]>) -> Arc<[String]> {
    columns
        .unwrap_or_default()
        .iter()
        .map(|c| c.name().to_string())
        .collect()
}

/// `sql` with its `?` placeholders numbered `$1`, `$2`, … (PostgreSQL's), `?N` as `$N`, leaving
/// those inside quotes alone.
pub fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '?') if chars.peek().is_some_and(char::is_ascii_digit) => out.push('$'),
            (None, '\'' | '"') => {
                quote = Some(c);
                out.push(c);
            }
            (Some(q), c) if c == q => {
                quote = None;
                out.push(c);
            }
            (None, '?') => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(c),
        }
    }
    out
}

/// A query to bind and run; see [`query`].
#[must_use]
pub struct Query<'q> {
    sql: &'q str,
    args: Vec<Arg>,
}

/// A query over either backend, with `?` placeholders.
pub fn query(sql: &str) -> Query<'_> {
    Query {
        sql,
        args: Vec::new(),
    }
}

impl<'q> Query<'q> {
    /// Binds the next placeholder.
    pub fn bind<T: Bind>(mut self, value: T) -> Self {
        self.args.push(value.arg());
        self
    }

    /// Runs it; how many rows it changed.
    pub async fn execute<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Done>
    where
        'q: 'e,
    {
        match on.run(self.sql, self.args, false).await? {
            Out::Done(done) => Ok(done),
            Out::Rows(rows) => Ok(Done {
                rows_affected: rows.len() as u64,
            }),
        }
    }

    /// Every row.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Vec<Row>>
    where
        'q: 'e,
    {
        match on.run(self.sql, self.args, true).await? {
            Out::Rows(rows) => Ok(rows),
            Out::Done(_) => Ok(Vec::new()),
        }
    }

    /// The first row, if any.
    pub async fn fetch_optional<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Option<Row>>
    where
        'q: 'e,
    {
        Ok(self.fetch_all(on).await?.into_iter().next())
    }

    /// The first row; an error if there is none.
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Row>
    where
        'q: 'e,
    {
        self.fetch_optional(on)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

/// A query whose first column is the answer; see [`query_scalar`].
#[must_use]
pub struct Scalar<'q, O> {
    query: Query<'q>,
    out: std::marker::PhantomData<fn() -> O>,
}

/// A query over either backend whose rows are read as their first column.
pub fn query_scalar<O: Decode>(sql: &str) -> Scalar<'_, O> {
    Scalar {
        query: query(sql),
        out: std::marker::PhantomData,
    }
}

impl<'q, O: Decode> Scalar<'q, O> {
    /// Binds the next placeholder.
    pub fn bind<T: Bind>(mut self, value: T) -> Self {
        self.query = self.query.bind(value);
        self
    }

    /// Every row's first column.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Vec<O>>
    where
        'q: 'e,
    {
        self.query
            .fetch_all(on)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect()
    }

    /// The first row's first column, if there is a row.
    pub async fn fetch_optional<'e>(self, on: impl Executor<'e>) -> sqlx::Result<Option<O>>
    where
        'q: 'e,
    {
        self.query
            .fetch_optional(on)
            .await?
            .map(|row| row.try_get(0))
            .transpose()
    }

    /// The first row's first column; an error if there is no row.
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> sqlx::Result<O>
    where
        'q: 'e,
    {
        self.query.fetch_one(on).await?.try_get(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_quotes() {
        assert_eq!(
            numbered("SELECT '?', x FROM t WHERE a = ? AND b IN (?, ?)"),
            "SELECT '?', x FROM t WHERE a = $1 AND b IN ($2, $3)"
        );
        assert_eq!(
            numbered("SELECT x FROM t WHERE a = ?1 OR b = ?1 LIMIT ?2"),
            "SELECT x FROM t WHERE a = $1 OR b = $1 LIMIT $2"
        );
    }
}
