//! A realm is named by its `[realms.NAME]` wherever a realm is named: `herald simulate
//! --realm` and the web's `/r/NAME`. A network or guild joined to a named realm has no books of
//! its own, so naming it means its realm: `simulate --realm libera` reads albion's books, and
//! `/r/libera/...` moves for good to `/r/albion/...`.

mod common;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming, Rights};
use std::process::Command;
use std::sync::Arc;
use tower::ServiceExt;

const CONFIG: &str = r##"
[web]
enabled = false

[realms.albion]
irc_networks = ["libera", "oftc"]
"##;

/// Books with Ash and Brim made on libera, a network of albion.
async fn books() -> (Books, Arc<App>) {
    let books = Books::new();
    let config: Config = toml::from_str(CONFIG).unwrap();
    config.check().unwrap();
    let app = Arc::new(App::new(books.store().await, config, Some(7)).unwrap());
    let at = "2026-12-01T10:00:00Z".parse().unwrap();
    let hub = Hub::manual(app.clone(), Arc::new(Clock::manual(at)), vec!['!']);
    for (nick, line) in [
        (
            "ash",
            "!knight create Ash --top lance,shield,ride --psi cpk:40 --monarch llewellyn",
        ),
        (
            "brim",
            "!knight create Brim --top observe,dodge,sword --psi cpk:40 --monarch seonaid",
        ),
    ] {
        let a = hub
            .answer(
                &Incoming {
                    realm: "libera".into(),
                    channel: "#lists".into(),
                    user: nick.into(),
                    text: line.into(),
                },
                Rights::default(),
            )
            .await;
        assert!(a.lines.join(" ").contains("dubbed"), "{a:?}");
    }
    (books, app)
}

/// `herald simulate` on the books with the configuration; its output but the throughput line.
fn simulate(books: &Books, args: &[&str]) -> (Option<i32>, String, String) {
    let config = books.dir.path().join("herald.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .env_remove("HERALD_LOG")
        .env_remove("RUST_LOG")
        .arg("simulate")
        .args(args)
        .arg("--config")
        .arg(&config)
        .arg("--db")
        .arg(books.path())
        .output()
        .expect("herald runs");
    let stdout = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains(" fights/s"))
        .collect::<Vec<_>>()
        .join("\n");
    (
        out.status.code(),
        stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn simulate_takes_a_realms_name_and_a_joined_network_means_its_realm() {
    let (books, _app) = books().await;
    let by_name = simulate(
        &books,
        &[
            "Ash", "Brim", "--fights", "200", "--seed", "5", "--realm", "albion",
        ],
    );
    assert_eq!(by_name.0, Some(0), "{by_name:?}");
    assert!(by_name.1.contains("seed 5"), "{by_name:?}");
    // The network joined to albion reads albion's books: the same report.
    let by_place = simulate(
        &books,
        &[
            "Ash", "Brim", "--fights", "200", "--seed", "5", "--realm", "libera",
        ],
    );
    assert_eq!(by_place.0, Some(0), "{by_place:?}");
    let report = |out: &str| {
        out.lines()
            .filter(|l| !l.starts_with("repeat:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(report(&by_place.1), report(&by_name.1));
    // A place of no realm is a realm of its own, without these knights; the error names it.
    let elsewhere = simulate(
        &books,
        &["Ash", "Brim", "--fights", "10", "--realm", "efnet"],
    );
    assert_ne!(elsewhere.0, Some(0), "{elsewhere:?}");
    assert!(elsewhere.2.contains("realm efnet"), "{elsewhere:?}");
}

async fn get(app: &Arc<App>, uri: &str) -> (StatusCode, Option<String>, String) {
    let response = herald_bot::web::router(app.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let location = response
        .headers()
        .get(header::LOCATION)
        .map(|l| l.to_str().unwrap().to_string());
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, location, String::from_utf8(body.to_vec()).unwrap())
}

#[tokio::test]
async fn the_webs_pages_of_a_joined_network_move_to_its_realms() {
    let (_books, app) = books().await;
    let (status, _, body) = get(&app, "/r/albion").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("Ash"), "{body}");
    for (from, to) in [
        ("/r/libera", "/r/albion"),
        ("/r/oftc/knights/Ash", "/r/albion/knights/Ash"),
        (
            "/api/r/libera/standings?sort=name",
            "/api/r/albion/standings?sort=name",
        ),
    ] {
        let (status, location, _) = get(&app, from).await;
        assert_eq!(status, StatusCode::PERMANENT_REDIRECT, "{from}");
        assert_eq!(location.as_deref(), Some(to), "{from}");
    }
    // A place of no named realm is its own, unmoved (here without books: the 404).
    let (status, location, _) = get(&app, "/r/efnet").await;
    assert_eq!((status, location), (StatusCode::NOT_FOUND, None));
}
