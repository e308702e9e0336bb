//! The web pages under load: the standings page and a 200-step replay, served in process from
//! a realm of 10,000 knights and 100,000 ledger entries in a real SQLite file.
//!
//! Run with `cargo bench -p herald-bot --bench web [REQUESTS]` (default 2,000 of each, after
//! 50 to warm up); it reports requests per second and the p50 and p99 latency of each page,
//! the requests sent one after another and `HERALD_BENCH_TASKS` (default 8) at once. The
//! standings are measured warm (kept since the books last moved) and cold: before each request
//! an admin's award goes into the books through the store (its own transaction, which keeps
//! the knight's sums) and a channel is said to have spoken, so the page is read anew; only the
//! request is timed.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::dice::{DiceQueue, FightDice};
use herald_bot::hub::{Hub, Incoming, Rights};
use herald_bot::store::books::Doer;
use herald_bot::store::{NewFight, Step, Store};
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::books::Points;
use herald_engine::psiknight::policy::Policy;
use herald_engine::psiknight::{KnightSheet, Match, MatchKind, MatchSetup, Monarch, Side, Style};
use http_body_util::BodyExt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const KNIGHTS: i64 = 10_000;
const LEDGER: i64 = 100_000;
const STEPS: usize = 200;

/// 10,000 knights with 10 ledger entries each, in two transactions.
async fn realm(store: &Store) -> i64 {
    let realm = store.realm("bench").await.unwrap();
    let mut tx = store.pool().begin().await.unwrap();
    for i in 0..KNIGHTS {
        let user: i64 =
            sqlx::query_scalar("INSERT INTO users (realm_id, name) VALUES (?, ?) RETURNING id")
                .bind(realm)
                .bind(format!("player{i}"))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
        sqlx::query(
            "INSERT INTO knights (realm_id, owner_id, name, name_key, style, monarch, lance, ride, \
             observe, shield, dodge, sword, created_at) \
             VALUES (?, ?, ?, ?, 'sir', 'ragnar', 30, 30, 30, 30, 30, 30, '2026-12-01T10:00:00Z')",
        )
        .bind(realm)
        .bind(user)
        .bind(format!("Knight {i}"))
        .bind(format!("knight {i}"))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    let first: i64 = sqlx::query_scalar("SELECT MIN(id) FROM knights")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let mut tx = store.pool().begin().await.unwrap();
    for n in 0..LEDGER {
        sqlx::query(
            "INSERT INTO ledger (realm_id, knight_id, hp_halves, pp_halves, kind, reason, month, at) \
             VALUES (?, ?, ?, 0, 'admin', 'a bench entry', '2026-12', ?)",
        )
        .bind(realm)
        .bind(first + n % KNIGHTS)
        .bind(1 + n % 7)
        .bind(format!("2026-12-{:02}T10:00:00Z", 1 + n % 28))
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    realm
}

/// A Swordplay of two poor swordsmen, played by the default policy from seed after seed until
/// one lasts 200 steps, written to the books step by step as Herald writes them.
async fn long_fight(store: &Store, realm: i64) -> i64 {
    let sheet = |name: &str| {
        KnightSheet::new(
            name,
            Style::Sir,
            Monarch::Ragnar,
            [30, 30, 30, 30, 60, 5],
            [0; 7],
        )
    };
    let setup = MatchSetup {
        kind: MatchKind::Practice,
        opening: herald_engine::psiknight::fight::Opening::Swordplay,
        knights: [sheet("Knight 0"), sheet("Knight 1")],
        armed: [None, None],
    };
    let policy = Policy { fight_on: true };
    let queue = DiceQueue::default();
    let at = chrono::Utc::now();
    for n in 0u64.. {
        let seed = herald_engine::dice::seed_from_u64(n);
        let mut rng = SeededDice::new(seed);
        let mut dice = FightDice::new(&mut rng, &queue);
        let (mut m, _) = Match::start(setup.clone(), &mut dice);
        let mut steps = vec![Step {
            side: None,
            decision: None,
            rolls: dice.log,
            at,
        }];
        while steps.len() < STEPS && !m.is_over() {
            let side = *Side::BOTH
                .iter()
                .find(|s| m.awaiting()[s.index()].is_some())
                .unwrap();
            let decision = policy.decide(&m, side).unwrap();
            let mut dice = FightDice::new(&mut rng, &queue);
            m.decide(side, decision, &mut dice).unwrap();
            steps.push(Step {
                side: Some(side),
                decision: Some(decision),
                rolls: dice.log,
                at,
            });
        }
        if steps.len() < STEPS {
            continue;
        }
        let knights: Vec<i64> = sqlx::query_scalar("SELECT id FROM knights ORDER BY id LIMIT 2")
            .fetch_all(store.pool())
            .await
            .unwrap();
        let (id, _) = store
            .start_fight(
                NewFight {
                    realm,
                    channel: "#bench",
                    knights: [knights[0], knights[1]],
                    users: ["player0", "player1"],
                    setup: &setup,
                    seed,
                    day: "2026-12-01",
                    at,
                    tournament: None,
                    ransom: false,
                },
                &steps[0],
            )
            .await
            .unwrap();
        for (seq, step) in steps.iter().enumerate().skip(1) {
            store.add_step(id, seq as i64, step).await.unwrap();
        }
        return id;
    }
    unreachable!()
}

/// Requests `uri` `n` times, `tasks` at once; each request's latency. `cold`: an award to a
/// knight and a channel's line before each request, untimed, so nothing kept serves it.
async fn load(
    app: &Arc<App>,
    uri: &str,
    n: usize,
    tasks: usize,
    cold: bool,
) -> (Duration, Vec<Duration>) {
    let router = herald_bot::web::router(app.clone());
    let start = Instant::now();
    let mut handles = Vec::new();
    for t in 0..tasks {
        let router = router.clone();
        let uri = uri.to_string();
        let count = n / tasks + usize::from(t < n % tasks);
        let app = app.clone();
        handles.push(tokio::spawn(async move {
            let mut times = Vec::with_capacity(count);
            let mut write = Duration::ZERO;
            for i in 0..count {
                if cold {
                    let began = Instant::now();
                    award(&app, (t * count + i) as i64).await;
                    write += began.elapsed();
                }
                let began = Instant::now();
                let response = router
                    .clone()
                    .oneshot(Request::get(&uri).body(Body::empty()).unwrap())
                    .await
                    .unwrap();
                assert_eq!(response.status(), StatusCode::OK, "{uri}");
                let body = response.into_body().collect().await.unwrap().to_bytes();
                assert!(body.len() > 1000);
                times.push(began.elapsed());
            }
            times
        }));
    }
    let mut times = Vec::new();
    for h in handles {
        times.extend(h.await.unwrap());
    }
    let busy: Duration = times.iter().sum();
    // The requests' share of the wall time: the writes between them are not counted.
    let total = if cold {
        start.elapsed().min(busy / tasks as u32)
    } else {
        start.elapsed()
    };
    (total, times)
}

/// Half a point of Honor to the `n`th knight by an admin, through the store as `/admin award`
/// writes it; then a channel speaks, as it does after every change.
async fn award(app: &App, n: i64) {
    let realm = app.store.web_realm("bench").await.unwrap().unwrap();
    let at = chrono::Utc::now();
    let doer = Doer {
        realm,
        user: "bench",
        actor: None,
        fight: None,
        at,
        month: "2026-12",
    };
    let knight: i64 = sqlx::query_scalar("SELECT id FROM knights ORDER BY id LIMIT 1 OFFSET ?")
        .bind(n % KNIGHTS)
        .fetch_one(app.store.pool())
        .await
        .unwrap();
    app.store
        .admin_award(&doer, knight, Points::from_halves(1), "a bench award")
        .await
        .unwrap();
    app.spoke("bench", "#bench");
}

/// Reads server-sent events from `body` until a `step` event; bounded, so a lost step fails
/// the run rather than hanging it.
async fn next_step(body: &mut Body, text: &mut String) {
    loop {
        if let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if block.lines().any(|l| l == "event: step") {
                return;
            }
            continue;
        }
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .expect("a step within 10 s")
            .expect("the stream is open")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
    }
}

/// The live page's figure: from a move's chat line handed to the hub to its step arriving on
/// the fight page's event stream, over `fights` practice jousts of four moves each (every die
/// scripted as in fights.rs; a day apart, so the once-a-day rule and injuries leave each
/// alone). The step's way: grammar, session, engine, the books' writer, the hub's notice, the
/// stream's read of the books and its telling of the fight.
async fn live(app: &Arc<App>, fights: usize) -> Vec<Duration> {
    let clock = Arc::new(Clock::manual("2026-12-01T10:00:00Z".parse().unwrap()));
    let hub = Hub::manual(app.clone(), clock.clone(), vec!['/']);
    let site = herald_bot::web::router(app.clone());
    let say = |user: &str, text: &str| Incoming {
        realm: "bench".into(),
        channel: "#live".into(),
        user: user.into(),
        text: text.into(),
    };
    for (user, line) in [
        ("dana", "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame"),
        ("evan", "/knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn"),
    ] {
        hub.answer(&say(user, line), Rights::default()).await;
    }
    let mut times = Vec::with_capacity(fights * 4);
    for day in 0..fights {
        clock.set(
            "2026-12-01T10:00:00Z"
                .parse::<chrono::DateTime<chrono::Utc>>()
                .unwrap()
                + chrono::Duration::days(day as i64),
        );
        hub.answer(&say("dana", "/joust evan"), Rights::default())
            .await;
        app.queue.push([90, 90, 90, 20, 30, 50]);
        hub.answer(&say("evan", "/accept"), Rights::default()).await;
        let fight: i64 = sqlx::query_scalar("SELECT MAX(id) FROM fights")
            .fetch_one(app.store.pool())
            .await
            .unwrap();
        let response = site
            .clone()
            .oneshot(
                Request::get(format!("/r/bench/fights/{fight}/live?from=1"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let mut body = response.into_body();
        let mut text = String::new();
        for (user, line) in [
            ("dana", "/nosweep"),
            ("evan", "/nosweep"),
            ("evan", "/high"),
            ("evan", "/decline"),
        ] {
            let began = Instant::now();
            let answer = hub.answer(&say(user, line), Rights::default()).await;
            assert!(!answer.lines.is_empty(), "{line}: {answer:?}");
            next_step(&mut body, &mut text).await;
            times.push(began.elapsed());
        }
    }
    times
}

fn report(what: &str, tasks: usize, total: Duration, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{what:<28} {tasks:>2} at once: {:>8.0} requests/s, p50 {:>7.2} ms, p99 {:>7.2} ms",
        times.len() as f64 / total.as_secs_f64(),
        at(0.50).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
    );
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2_000);
    let tasks: usize = std::env::var("HERALD_BENCH_TASKS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(8);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("herald.db")).await.unwrap();
    let began = Instant::now();
    let realm = realm(&store).await;
    let fight = long_fight(&store, realm).await;
    println!(
        "{KNIGHTS} knights, {LEDGER} ledger entries, fight #{fight} of {STEPS} steps, written in {:.1} s",
        began.elapsed().as_secs_f64()
    );
    let app = Arc::new(App::new(store, Config::default(), Some(0)).unwrap());
    let pages = [
        ("standings (by Honor)", "/r/bench".to_string()),
        ("standings (page 100)", "/r/bench?page=100".to_string()),
        ("200-step replay", format!("/r/bench/fights/{fight}")),
        (
            "knight with ledger",
            "/r/bench/knights/Knight%207".to_string(),
        ),
    ];
    for (what, uri) in &pages {
        load(&app, uri, 50, 1, false).await;
        for t in [1, tasks] {
            let (total, times) = load(&app, uri, n, t, false).await;
            report(what, t, total, times);
        }
    }
    let fights: usize = std::env::var("HERALD_BENCH_LIVE_FIGHTS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(250);
    let started = Instant::now();
    let mut steps = live(&app, fights).await;
    let total = started.elapsed();
    steps.sort();
    let at = |q: f64| steps[((steps.len() as f64 * q) as usize).min(steps.len() - 1)];
    println!(
        "live step, chat line to SSE: {} moves in {fights} fights, median {:.2} ms, p99 {:.2} ms, max {:.2} ms ({:.1} s in all)",
        steps.len(),
        at(0.50).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        steps[steps.len() - 1].as_secs_f64() * 1000.0,
        total.as_secs_f64()
    );
    for (what, uri) in [
        ("standings cold (by Honor)", "/r/bench"),
        ("standings cold (page 100)", "/r/bench?page=100"),
        ("standings cold (by wins)", "/r/bench?sort=wins"),
    ] {
        for t in [1, tasks] {
            let (total, times) = load(&app, uri, n, t, true).await;
            report(what, t, total, times);
        }
    }
}
