//! The command line: the contract of `DESIGN.md` ("Contract for the command line").

use crate::app::App;
use crate::clock::Clock;
use crate::config::Config;
use crate::hub::Hub;
use crate::narration::Narration;
use crate::store::Store;
use crate::transport::{console, discord, irc, script};
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Herald referees PsiKnight jousts and sword duels in chat rooms.
#[derive(Debug, Parser)]
#[command(name = "herald", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Cmd,
}

/// Options every subcommand takes.
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// The configuration file (admins, moderators, time zone, timeouts, transports).
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,
    /// The database, instead of the configured one: a SQLite file, or a `postgres://` URL.
    #[arg(long, value_name = "PATH|URL", global = true)]
    pub db: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Starts every transport the configuration enables; with none, the console room.
    Run {
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
    },
    /// An interactive local room: `nick: text` speaks as nick.
    Console {
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
        /// Fixes every die, for a reproducible session.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Replays a transcript (`-` for standard input) and prints the replies.
    Script {
        /// The transcript file, or `-`.
        file: PathBuf,
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
        /// Fixes every die not given by `@dice`.
        #[arg(long)]
        seed: Option<u64>,
        /// Writes every engine event, one JSON object per line.
        #[arg(long, value_name = "PATH")]
        events: Option<PathBuf>,
    },
    /// Replays a finished fight from the database and checks its logged outcome.
    Verify {
        /// The fight's number.
        fight_id: i64,
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
    },
    /// Monte-Carlo odds between two fighters of the books (knights, or characters of `--game`),
    /// with the default decision policy.
    Simulate {
        #[command(flatten)]
        /// The knights, the number and kind of fights, the seed.
        args: crate::simulate::Args,
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
    },
    /// Writes the books as one JSON document to standard output.
    Export {
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
    },
    /// Restores an export (`-` for standard input) into a new database, given by --db.
    Import {
        /// The export file, or `-`.
        file: PathBuf,
        #[command(flatten)]
        /// The options every subcommand takes.
        common: Common,
    },
    /// Moves SQLite books into an empty PostgreSQL database: every table copied, then each
    /// table's count and the two exports compared.
    MigrateDb {
        /// The SQLite file.
        #[arg(long, value_name = "PATH")]
        from: PathBuf,
        /// The PostgreSQL database, `postgres://USER@HOST/NAME`.
        #[arg(long, value_name = "URL")]
        to: String,
    },
}

/// An error that ends the program with a status of its own, not the usual 1 (README, "Command
/// line"): 2 for a database file that is not there (or, for `import`, one already there, or an
/// export that is not whole), 3 for `verify` on a fight still open.
#[derive(Debug)]
pub struct Exit {
    /// The exit status.
    pub code: u8,
    /// What went wrong, one line.
    pub message: String,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}

/// The status for a database file that does not exist.
pub const EXIT_NO_DATABASE: u8 = 2;
/// The status of `herald verify` for a fight that has not ended.
pub const EXIT_OPEN_FIGHT: u8 = 3;

/// Refuses a database file that does not exist, before anything opens it (opening would create
/// it, with its `-wal` and `-shm`): only `run`, `console` and `script` make a new database.
fn existing(db: &Path) -> Result<()> {
    if db.exists() || db.to_str().is_some_and(crate::store::is_postgres_url) {
        return Ok(());
    }
    Err(Exit {
        code: EXIT_NO_DATABASE,
        message: format!(
            "there is no database at {} (give --db PATH of an existing file, or --config with a [database] path); nothing was created",
            db.display()
        ),
    }
    .into())
}

/// Parses the command line and runs it.
pub fn run() -> Result<()> {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HERALD_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        // Colours only for a terminal: a log file or `docker logs` gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(dispatch(cli.command))
}

fn config_and_db(common: &Common) -> Result<(Config, PathBuf)> {
    let config = Config::load_or_default(common.config.as_deref())?;
    let db = common
        .db
        .clone()
        .unwrap_or_else(|| match &config.database.url {
            Some(url) => PathBuf::from(url),
            None => config.database.path.clone(),
        });
    Ok((config, db))
}

async fn dispatch(cmd: Cmd) -> Result<()> {
    match cmd {
        Cmd::Run { common } => {
            let (config, db) = config_and_db(&common)?;
            if config.irc.is_none() && config.discord.is_none() {
                return run_console(config, &db, None, true).await;
            }
            run_transports(config, &db).await
        }
        Cmd::Console { common, seed } => {
            let (config, db) = config_and_db(&common)?;
            run_console(config, &db, seed, false).await
        }
        Cmd::Script {
            file,
            common,
            seed,
            events,
        } => {
            let config = Config::load_or_default(common.config.as_deref())?;
            let transcript = if file == Path::new("-") {
                std::io::read_to_string(std::io::stdin())
                    .context("cannot read the transcript from standard input")?
            } else {
                std::fs::read_to_string(&file)
                    .with_context(|| format!("cannot read the transcript {}", file.display()))?
            };
            let store = match &common.db {
                Some(path) => Store::open_at(path).await?,
                None => Store::open_memory().await?,
            };
            let mut app = App::new(store, config, Some(seed.unwrap_or(0)))?;
            if let Some(path) = events {
                let file = std::fs::File::create(&path)
                    .with_context(|| format!("cannot write the events to {}", path.display()))?;
                app = app.with_event_sink(Box::new(std::io::BufWriter::new(file)));
            }
            let prefixes = app.config.console.prefixes.clone();
            let clock = Arc::new(Clock::manual(chrono::Utc::now()));
            let hub = Hub::manual(Arc::new(app), clock, prefixes);
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            script::run(&hub, &transcript, &mut out).await
        }
        Cmd::Verify { fight_id, common } => {
            let (_, db) = config_and_db(&common)?;
            existing(&db)?;
            let store = Store::open_at(&db).await?;
            let report = crate::verify::verify(&store, fight_id).await?;
            println!("{}", report.message);
            if report.ok {
                Ok(())
            } else if crate::verify::still_open(&store, fight_id).await? {
                Err(Exit {
                    code: EXIT_OPEN_FIGHT,
                    message: format!("fight #{fight_id} is still open: nothing to verify yet"),
                }
                .into())
            } else {
                anyhow::bail!("fight #{fight_id} does not verify")
            }
        }
        Cmd::Simulate { args, common } => {
            let (config, db) = config_and_db(&common)?;
            existing(&db)?;
            crate::simulate::command(&args, &db, &config).await
        }
        Cmd::Export { common } => {
            let (_, db) = config_and_db(&common)?;
            existing(&db)?;
            let store = Store::open_at(&db).await?;
            let doc = crate::export::export(&store).await?;
            println!("{}", serde_json::to_string_pretty(&doc)?);
            Ok(())
        }
        Cmd::MigrateDb { from, to } => {
            existing(&from)?;
            let moved = crate::migrate_db::migrate(&from, &to).await?;
            println!("{}", moved.summary(&to));
            Ok(())
        }
        Cmd::Import { file, common } => {
            let (_, db) = config_and_db(&common)?;
            let text = if file == Path::new("-") {
                std::io::read_to_string(std::io::stdin())
                    .context("cannot read the export from standard input")
            } else {
                std::fs::read_to_string(&file)
                    .with_context(|| format!("cannot read the export {}", file.display()))
            };
            let refused = |message: String| Exit {
                code: EXIT_NO_DATABASE,
                message: format!(
                    "cannot import {}: {message}; nothing was written",
                    file.display()
                ),
            };
            let text = text.map_err(|e| refused(format!("{e:#}")))?;
            let imported = match db.to_str().filter(|u| crate::store::is_postgres_url(u)) {
                Some(url) => crate::import::import_postgres(&text, url).await?,
                None => crate::import::import(&text, &db).await?,
            };
            match imported {
                Ok(imported) => {
                    println!("{}", imported.summary(&db));
                    Ok(())
                }
                Err(line) => Err(refused(line).into()),
            }
        }
    }
}

async fn run_console(config: Config, db: &Path, seed: Option<u64>, web: bool) -> Result<()> {
    let store = Store::open_at(db).await?;
    let channel = config.console.channel.clone();
    let nick = config.console.nick.clone();
    let prefixes = config.console.prefixes.clone();
    let app = Arc::new(App::new(store, config, seed)?);
    if web {
        start_web(&app).await;
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let hub = Hub::live(app, Arc::new(Clock::live()), prefixes, tx);
    console::run(&hub, &channel, &nick, rx).await
}

/// Runs every configured transport, each with its own hub over the one shared state, until a
/// stop signal or until one of them fails.
async fn run_transports(config: Config, db: &Path) -> Result<()> {
    let store = Store::open_at(db).await?;
    let irc_configs = config.irc_connections();
    let discord_config = config.discord.clone();
    let app = Arc::new(App::new(store, config, None)?);
    start_web(&app).await;
    let clock = Arc::new(Clock::live());
    let mut transports = tokio::task::JoinSet::new();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    // One connection, and one hub, per IRC network.
    for irc_config in irc_configs {
        irc_config.check()?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let hub = Hub::live(app.clone(), clock.clone(), irc_config.prefixes(), tx)
            .with_narration(Narration::Compact);
        let mut stopped = stopped.clone();
        transports.spawn(async move {
            // IRC says QUIT before it goes.
            let shutdown = async move {
                let _ = stopped.wait_for(|s| *s).await;
            };
            irc::run(&hub, &irc_config, rx, shutdown)
                .await
                .context("the IRC transport stopped")
        });
    }
    if let Some(discord_config) = discord_config {
        // Interactions arrive as `/name ...` lines; `!` serves prefix commands when enabled.
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let hub = Arc::new(
            Hub::live(app.clone(), clock.clone(), vec!['/', '!'], tx)
                .with_narration(Narration::Compact),
        );
        let mut stopped = stopped.clone();
        transports.spawn(async move {
            tokio::select! {
                result = discord::run(hub, &discord_config, rx) => {
                    result.context("the Discord transport stopped")
                }
                _ = stopped.wait_for(|s| *s) => Ok(()),
            }
        });
    }
    let result = tokio::select! {
        () = stop_signal() => Ok(()),
        Some(ended) = transports.join_next() => match ended {
            Ok(result) => result,
            Err(e) => Err(anyhow::anyhow!("a transport failed: {e}")),
        },
    };
    let _ = stop.send(true);
    // Give the transports a moment to say goodbye; then whatever is left is stopped.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while transports.join_next().await.is_some() {}
    })
    .await;
    result
}

/// Serves the realm's web pages when `[web] enabled` (the default) and says where. An address
/// already taken turns the pages off with a warning: the chat goes on without them.
async fn start_web(app: &Arc<App>) {
    if !app.config.web.enabled {
        return;
    }
    match crate::web::serve(app.clone()).await {
        Ok(addr) => println!("Herald serves the realm on the web at http://{addr}/"),
        Err(e) => eprintln!(
            "herald: the web pages are off: {e:#} (set [web] bind to a free address, or enabled = false)"
        ),
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there is one (`docker stop`).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
