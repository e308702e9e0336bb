//! Runs transcripts through the real pipeline (grammar, hub, sessions, engine, SQLite) in process.
#![allow(dead_code)]

use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::Hub;
use herald_bot::store::Store;
use herald_bot::transport::script;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub mod realm;

/// A temporary directory holding a real SQLite file.
pub struct Books {
    pub dir: tempfile::TempDir,
}

impl Books {
    pub fn new() -> Books {
        Books {
            dir: tempfile::tempdir().expect("a temp dir"),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("herald.db")
    }

    pub async fn store(&self) -> Store {
        Store::open(&self.path()).await.expect("the database opens")
    }
}

/// Where a test's books live: a SQLite file, or a PostgreSQL database of the test's own.
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite(Books),
    /// A database created for this test on the server `HERALD_TEST_PG` names, dropped with it.
    Postgres(PgDatabase),
}

/// A PostgreSQL database made for one test: dropped when the value is, so that test runs do not
/// fill the server's disk.
pub struct PgDatabase {
    /// The server's URL as `HERALD_TEST_PG` gives it (its maintenance database).
    server: String,
    /// The database's name, `herald_test_<pid>_<n>_<nanos>`.
    name: String,
    /// The URL of this database.
    url: String,
}

impl Drop for PgDatabase {
    /// Drops the database on a connection of its own, from a thread of its own with its own
    /// runtime: the test's runtime may be busy running this drop, or gone. Connections the test
    /// left open (a store's pool, a child process) are ended by the server (`FORCE`). A failure
    /// is said, never raised: a drop must not panic.
    fn drop(&mut self) {
        let (server, name) = (self.server.clone(), self.name.clone());
        let dropped = std::thread::Builder::new()
            .name("drop-test-db".into())
            .spawn(move || drop_database(&server, &name))
            .map_err(|e| e.to_string())
            .and_then(|t| t.join().unwrap_or_else(|_| Err("it panicked".into())));
        if let Err(e) = dropped {
            eprintln!("the test database {} was not dropped: {e}", self.name);
        }
    }
}

/// `DROP DATABASE name WITH (FORCE)` on a fresh connection to `server`, on a runtime made for it.
fn drop_database(server: &str, name: &str) -> Result<(), String> {
    use sqlx::Connection;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let mut admin = sqlx::PgConnection::connect(server)
            .await
            .map_err(|e| e.to_string())?;
        sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut admin)
            .await
            .map_err(|e| e.to_string())?;
        admin.close().await.map_err(|e| e.to_string())
    })
}

/// Drops the test databases of test processes no longer running (one killed before its guards
/// ran): their names carry the process id. Said, never raised, when it fails.
async fn drop_orphans(admin: &mut sqlx::PgConnection) {
    let names: Vec<String> = match sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname LIKE 'herald\\_test\\_%'",
    )
    .fetch_all(&mut *admin)
    .await
    {
        Ok(names) => names,
        Err(e) => {
            eprintln!("the old test databases were not listed: {e}");
            return;
        }
    };
    for name in names {
        let pid = name.split('_').nth(2).and_then(|p| p.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
        if let Err(e) = sqlx::query(&drop).execute(&mut *admin).await {
            eprintln!("the old test database {name} was not dropped: {e}");
        }
    }
}

impl Backend {
    /// What `[database] url` would say.
    pub fn url(&self) -> String {
        match self {
            Backend::Sqlite(books) => books.path().display().to_string(),
            Backend::Postgres(db) => db.url.clone(),
        }
    }

    /// A store over these books (opened anew each time, as by another process).
    pub async fn store(&self) -> Store {
        Store::connect(&self.url())
            .await
            .expect("the database opens")
    }

    /// "sqlite" or "postgres", for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }
}

/// The variable naming the PostgreSQL server the tests may use (`.ci/run` starts one and sets it),
/// a URL such as `postgres://postgres@127.0.0.1:5433/postgres`.
pub const TEST_PG: &str = "HERALD_TEST_PG";

/// A fresh PostgreSQL database for one test on the server of `HERALD_TEST_PG`, so tests run in
/// parallel, dropped with the value; `None`, with a printed message, when the variable is unset.
/// The first call of a test process also drops what processes that died left behind.
pub async fn postgres() -> Option<Backend> {
    use sqlx::Connection;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    static SWEPT: AtomicBool = AtomicBool::new(false);
    let Ok(server) = std::env::var(TEST_PG) else {
        eprintln!("SKIPPED on PostgreSQL: {TEST_PG} is not set");
        return None;
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let name = format!(
        "herald_test_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = sqlx::PgConnection::connect(&server)
        .await
        .expect("the test PostgreSQL server answers");
    if !SWEPT.swap(true, Ordering::Relaxed) {
        drop_orphans(&mut admin).await;
    }
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("a test database is created");
    // The server's URL up to its path, with this test's database instead.
    let root = match server.match_indices('/').nth(2) {
        Some((i, _)) => &server[..i],
        None => server.as_str(),
    };
    let url = format!("{root}/{name}");
    Some(Backend::Postgres(PgDatabase { server, name, url }))
}

/// Every backend a store test runs on: SQLite, and PostgreSQL when `HERALD_TEST_PG` is set.
pub async fn backends() -> Vec<Backend> {
    let mut all = vec![Backend::Sqlite(Books::new())];
    all.extend(postgres().await);
    all
}

/// A `Write` that collects into a shared buffer (for `--events`).
#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    pub fn lines(&self) -> Vec<serde_json::Value> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// What a run printed.
pub struct Run {
    pub out: String,
    pub events: Vec<serde_json::Value>,
    pub result: Result<(), String>,
}

impl Run {
    pub fn lines(&self) -> Vec<&str> {
        self.out.lines().collect()
    }

    /// Whether some reply line contains `needle`.
    pub fn said(&self, needle: &str) -> bool {
        self.out.lines().any(|l| l.contains(needle))
    }

    /// Panics with the transcript if `needle` was not said.
    pub fn expect(&self, needle: &str) -> &Self {
        assert!(
            self.said(needle),
            "expected a line containing {needle:?} in:\n{}",
            self.out
        );
        self
    }

    /// Dice fairness: the seed told at a fight's end hashes to the hash told at its start.
    pub fn assert_seed_matches_its_hash(&self) {
        let after = |marker: &str| {
            let lines = self.lines();
            let line = lines
                .iter()
                .find(|l| l.contains(marker))
                .unwrap_or_else(|| panic!("no {marker:?} in:\n{}", self.out));
            let rest = &line[line.find(marker).unwrap() + marker.len()..];
            rest.split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string()
        };
        let (hash, seed) = (after("Dice seed hash "), after("Dice seed: "));
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(&seed, &mut bytes).unwrap();
        assert_eq!(herald_bot::fairness::seed_hash(&bytes), hash);
    }

    /// Panics if `needle` was said.
    pub fn expect_not(&self, needle: &str) -> &Self {
        assert!(
            !self.said(needle),
            "did not expect {needle:?} in:\n{}",
            self.out
        );
        self
    }
}

/// Runs `transcript` against the database at `db` with `config` (TOML) and seed 0.
pub async fn run_with(db: &Path, config: &str, transcript: &str) -> Run {
    let store = Store::open(db).await.expect("the database opens");
    run_on(store, config, transcript).await
}

/// Runs `transcript` on `store` with `config` (TOML) and seed 0.
pub async fn run_on(store: Store, config: &str, transcript: &str) -> Run {
    let config: Config = toml::from_str(config).expect("test config parses");
    let sink = Sink::default();
    let app = App::new(store, config, Some(0))
        .unwrap()
        .with_event_sink(Box::new(sink.clone()));
    let prefixes = app.config.console.prefixes.clone();
    let hub = Hub::manual(
        Arc::new(app),
        Arc::new(Clock::manual(chrono::Utc::now())),
        prefixes,
    );
    let mut out = Vec::new();
    let result = script::run(&hub, transcript, &mut out)
        .await
        .map_err(|e| format!("{e:#}"));
    Run {
        out: String::from_utf8(out).unwrap(),
        events: sink.lines(),
        result,
    }
}

/// Runs `transcript` with the default configuration.
pub async fn run(db: &Path, transcript: &str) -> Run {
    run_with(db, "", transcript).await
}

/// The knights of EXAMPLES.md, created at 10:00 on 2026-12-01.
pub const DARA_AND_EOIN: &str = "\
@clock 2026-12-01T10:00:00Z
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
";
