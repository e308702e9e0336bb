//! The whole pipeline under load: parse, session actor, engine, SQLite commit, narration.
//!
//! Opens FIGHTS practice fights at once (one per channel), reports resident memory, then drives
//! every fight to its end with the players' default moves from many tasks at once and reports
//! commands per second. Run with `cargo bench -p herald-bot --bench pipeline [FIGHTS]`; the
//! number of players acting at once is `HERALD_BENCH_TASKS` (default 256). With `--restore`, it
//! instead starts a second Herald on the same database, as after a restart, and reports how
//! long restoring every open fight takes.
//!
//! `HERALD_BENCH_DB=postgres://...` runs it on that PostgreSQL database instead of a fresh SQLite
//! file; its channels, players and knights are then named for the process, so that two benches
//! started at once share one realm's books as two Herald processes would.

use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming};
use herald_bot::store::Store;
use std::sync::Arc;
use std::time::Instant;

fn rss_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn say(channel: &str, user: &str, text: &str) -> Incoming {
    Incoming {
        realm: "bench".into(),
        channel: channel.into(),
        user: user.into(),
        text: text.into(),
    }
}

/// The player awaited and the default move, from the last prompt line: "… (user), …, then /move)."
fn next_move(lines: &[String]) -> Option<(String, String)> {
    let line = lines.iter().rev().find(|l| l.contains(", then /"))?;
    let user = line.split_once(" (")?.1.split_once(')')?.0.to_string();
    let mv = line
        .rsplit_once("then /")?
        .1
        .trim_end_matches(").")
        .to_string();
    Some((user, mv))
}

// The runtime `herald run` uses: one worker thread per core.
#[tokio::main]
async fn main() {
    let fights: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_000);
    let dir = std::env::temp_dir().join(format!("herald-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let url = std::env::var("HERALD_BENCH_DB")
        .unwrap_or_else(|_| dir.join("bench.db").display().to_string());
    let tag = match std::env::var("HERALD_BENCH_DB") {
        Ok(_) => format!("p{}x", std::process::id()),
        Err(_) => String::new(),
    };
    let store = Store::connect(&url).await.expect("the database");
    let app = Arc::new(App::new(store, Config::default(), Some(1)).expect("the app"));
    let hub = Arc::new(Hub::manual(
        app,
        Arc::new(Clock::manual(chrono::Utc::now())),
        vec!['/', '!'],
    ));
    let rss_before = rss_kib("VmRSS:");

    let t = Instant::now();
    let mut prompts = Vec::with_capacity(fights);
    for i in 0..fights {
        let ch = format!("#c{tag}{i}");
        let (a, b) = (format!("a{tag}{i}"), format!("b{tag}{i}"));
        for (u, n, top) in [
            (&a, format!("Al{tag}{i}"), "lance,ride,observe"),
            (&b, format!("Bo{tag}{i}"), "shield,dodge,sword"),
        ] {
            let line = format!(
                "/knight create {n} --top {top} --psi cpk:20,apportation:20 --monarch ragnar"
            );
            hub.handle(&say(&ch, u, &line)).await;
        }
        hub.handle(&say(&ch, &a, &format!("/joust {b}"))).await;
        // Only the next move is kept, so the bench's own memory does not blur the bot's.
        let lines = hub.handle(&say(&ch, &b, "/accept")).await;
        prompts.push((ch, next_move(&lines)));
    }
    let setup_secs = t.elapsed().as_secs_f64();
    let rss_open = rss_kib("VmRSS:");
    println!(
        "{fights} fights open: resident memory {:.1} MB (was {:.1} MB before; {:.1} KB per fight); set up in {setup_secs:.1}s",
        rss_open as f64 / 1024.0,
        rss_before as f64 / 1024.0,
        (rss_open.saturating_sub(rss_before)) as f64 / fights as f64
    );

    if std::env::args().any(|a| a == "--restore") {
        drop(hub);
        let store = Store::connect(&url).await.expect("the database");
        let app = Arc::new(App::new(store, Config::default(), Some(2)).expect("the app"));
        let hub = Hub::manual(
            app,
            Arc::new(Clock::manual(chrono::Utc::now())),
            vec!['/', '!'],
        );
        let t = Instant::now();
        let said = hub.restore("bench").await.expect("the restore");
        println!(
            "{fights} open fights restored in {:.2}s ({} lines said); resident {:.1} MB",
            t.elapsed().as_secs_f64(),
            said.len(),
            rss_kib("VmRSS:") as f64 / 1024.0
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }

    let t = Instant::now();
    // Players acting at once, each driving its share of the channels in turn.
    let tasks: usize = std::env::var("HERALD_BENCH_TASKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let mut handles = Vec::new();
    let per_task = prompts.len().div_ceil(tasks);
    let mut chunks = Vec::new();
    while !prompts.is_empty() {
        let rest = prompts.split_off(prompts.len().saturating_sub(per_task));
        chunks.push(rest);
    }
    for chunk in chunks {
        let hub = hub.clone();
        handles.push(tokio::spawn(async move {
            let mut commands = 0u64;
            for (ch, mut next) in chunk {
                while let Some((user, mv)) = next {
                    let lines = hub.handle(&say(&ch, &user, &format!("/{mv}"))).await;
                    next = next_move(&lines);
                    commands += 1;
                    if commands > 10_000_000 {
                        break;
                    }
                }
            }
            commands
        }));
    }
    let mut commands = 0;
    for h in handles {
        commands += h.await.expect("a driver task");
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{commands} commands in {secs:.2}s over {fights} channels from {tasks} tasks: {:.0} commands/s; peak resident {:.1} MB",
        commands as f64 / secs,
        rss_kib("VmHWM:") as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(&dir);
}
