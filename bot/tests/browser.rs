//! The realm on the web in a real browser (issue 19): Herald's pages served on 127.0.0.1 from
//! books built by transcripts, Debian's headless chromium driven through chromedriver (started
//! here on 127.0.0.1) with fantoccini: the standings, a link followed to a knight, a replay
//! stepped through, a live fight page receiving the step a move makes, and the XSS knights
//! shown as text with no dialog. Each page is screenshot into the test's temp dir. Without
//! chromium and chromedriver the test says so and skips; `.ci/run` installs both.

mod common;
use common::realm::*;
use fantoccini::{Client, ClientBuilder, Locator};
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming, Rights};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

/// The longest a page may take to show what is awaited.
const PATIENCE: Duration = Duration::from_secs(15);

/// A program on `PATH` (or Debian's place for it).
fn program(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

/// chromedriver on 127.0.0.1, killed when dropped.
struct Driver(Child, u16);

impl Driver {
    async fn start(binary: &Path) -> Driver {
        let port = free_port();
        let driver = Driver(
            Command::new(binary)
                .arg(format!("--port={port}"))
                .arg("--allowed-ips=127.0.0.1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver runs"),
            port,
        );
        // A bounded poll until it listens.
        for _ in 0..600 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return driver;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("chromedriver does not listen on 127.0.0.1:{port}");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn browser(driver: &Driver, profile: &Path, chromium: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=412,915",
    ]
    .iter()
    .map(|a| a.to_string())
    .chain(std::iter::once(format!(
        "--user-data-dir={}",
        profile.display()
    )))
    .collect::<Vec<_>>();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({"args": args, "binary": chromium}),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.1))
        .await
        .expect("a chromium session")
}

/// Saves a screenshot of the page as `name`.png in `dir`, for a person to look at.
async fn shot(client: &Client, dir: &Path, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Waits (bounded) for an element, then its text.
async fn text_of(client: &Client, css: &str) -> String {
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css} within {PATIENCE:?}: {e}"))
        .text()
        .await
        .unwrap()
}

/// Whether the element is shown (not hidden by the step-through).
async fn shown(client: &Client, css: &str) -> bool {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap()
}

// Standings → a knight by its link; a replay stepped through by the script's buttons and by
// the plain links; a live fight page gains the step a move makes; the XSS knights are text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_in_a_real_browser() {
    let (Some(chromium), Some(chromedriver)) = (program("chromium"), program("chromedriver"))
    else {
        eprintln!(
            "SKIPPED: no chromium and chromedriver on PATH, so the browser test does not run. \
             Install them (apt-get install chromium chromium-driver) to run it; .ci/run installs them on Debian."
        );
        return;
    };
    let books = realm_books().await;
    let mut config: Config = toml::from_str(CONFIG).unwrap();
    config.web.bind = "127.0.0.1:0".into();
    let app = Arc::new(App::new(books.store().await, config, Some(0)).unwrap());
    let addr = herald_bot::web::serve(app.clone()).await.unwrap();
    let site = format!("http://{addr}");
    let hub = Hub::manual(
        app.clone(),
        Arc::new(Clock::manual("2026-12-02T10:00:00Z".parse().unwrap())),
        vec!['/'],
    );
    hub.restore("local").await.unwrap();

    let driver = Driver::start(&chromedriver).await;
    // HERALD_SCREENSHOTS keeps them somewhere that outlives the test.
    let shots = std::env::var_os("HERALD_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| books.dir.path().join("screenshots"));
    std::fs::create_dir_all(&shots).unwrap();
    let client = browser(&driver, &books.dir.path().join("profile"), &chromium).await;

    // The standings, then a knight by following its link.
    client.goto(&format!("{site}/r/local")).await.unwrap();
    assert!(text_of(&client, "#standings").await.contains("Eoin"));
    shot(&client, &shots, "standings").await;
    client
        .find(Locator::Css("a[href='/r/local/knights/Eoin']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert!(text_of(&client, "h1").await.contains("Sir Eoin"));
    assert!(text_of(&client, "#ledger").await.contains("#1"));
    client
        .find(Locator::Css("svg"))
        .await
        .expect("the Honor chart");
    shot(&client, &shots, "knight").await;

    // A replay: the script shows the start alone, then a step per click.
    client
        .goto(&format!("{site}/r/local/fights/1"))
        .await
        .unwrap();
    assert_eq!(text_of(&client, "#step-where").await, "Step 0 of 4");
    assert!(shown(&client, "#step-0").await);
    assert!(!shown(&client, "#step-1").await);
    client
        .find(Locator::Id("step-next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(text_of(&client, "#step-where").await, "Step 1 of 4");
    assert!(shown(&client, "#step-1").await);
    assert!(text_of(&client, "#step-1").await.contains("does not sweep"));
    assert!(text_of(&client, "#verify").await.contains("verifies"));
    shot(&client, &shots, "replay").await;
    // The plain links, as without the script.
    client
        .goto(&format!("{site}/r/local/fights/1?step=2"))
        .await
        .unwrap();
    client
        .find(Locator::Id("next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert!(text_of(&client, "#step-3").await.contains("unhorsed"));
    shot(&client, &shots, "replay-step").await;

    // A live fight page receives the step a move makes, without reloading.
    client
        .goto(&format!("{site}/r/local/fights/4"))
        .await
        .unwrap();
    assert!(text_of(&client, "#live-note").await.starts_with("Live"));
    assert!(client.find(Locator::Id("step-1")).await.is_err());
    let answer = hub
        .answer(
            &Incoming {
                realm: "local".into(),
                channel: "#open".into(),
                user: "dana".into(),
                text: "/nosweep".into(),
            },
            Rights::default(),
        )
        .await;
    assert!(answer.lines.iter().any(|l| l.contains("does not sweep")));
    assert!(text_of(&client, "#step-1")
        .await
        .contains("Dame Dara does not sweep."));
    shot(&client, &shots, "live").await;

    // The XSS knights: their names are text on the page, and no dialog opened.
    client
        .goto(&format!("{site}/r/local?sort=name"))
        .await
        .unwrap();
    let table = text_of(&client, "#standings").await;
    for name in XSS {
        assert!(table.contains(name), "{name} not shown as text in {table}");
    }
    assert!(
        client.get_alert_text().await.is_err(),
        "a dialog opened on the standings"
    );
    client
        .goto(&format!(
            "{site}/r/local/knights/{}",
            herald_bot::web::segment(XSS[1])
        ))
        .await
        .unwrap();
    assert_eq!(text_of(&client, "h1").await, format!("Sir {}", XSS[1]));
    assert!(client.get_alert_text().await.is_err(), "a dialog opened");
    shot(&client, &shots, "xss").await;
    client.close().await.unwrap();
    for name in [
        "standings",
        "knight",
        "replay",
        "replay-step",
        "live",
        "xss",
    ] {
        assert!(shots.join(format!("{name}.png")).exists());
    }
    eprintln!("screenshots in {}", shots.display());
}
