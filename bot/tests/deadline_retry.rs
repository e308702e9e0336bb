//! A deadline whose write fails is tried again later, not at once in a loop: the fight stands
//! as it was, the channel hears once that the books could not be written, and the default is
//! taken once the books take writes again. Both drivers: PsiKnight's joust and The Tourney's
//! bout.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Outgoing};
use herald_bot::transport::script;
use sqlx::Connection;
use std::sync::Arc;

const CONFIG: &str = r##"
[games.channels]
"#tourney" = "tourney"
"##;

const SORRY: &str =
    "Herald could not write the books just now; nothing was changed. Please try again.";

/// A joust in #lists and a bout in #tourney, each awaiting its first decision (120 s).
const TWO_FIGHTS: &str = "\
@clock 2026-12-01T10:00:00Z
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
dana: /joust evan
evan: /accept
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
";

fn said<'a>(out: &'a [Outgoing], channel: &str) -> Vec<&'a str> {
    out.iter()
        .filter(|o| o.channel == channel)
        .map(|o| o.text.as_str())
        .collect()
}

#[tokio::test]
async fn a_deadline_whose_write_fails_is_retried_later_not_at_once() {
    let books = Books::new();
    let config: Config = toml::from_str(CONFIG).unwrap();
    let app = App::new(books.store().await, config, Some(0)).unwrap();
    let hub = Hub::manual(
        Arc::new(app),
        Arc::new(Clock::manual(chrono::Utc::now())),
        vec!['/'],
    );
    let mut out = Vec::new();
    script::run(&hub, TWO_FIGHTS, &mut out).await.unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("Fight #1"), "{out}");
    assert!(out.contains("Fight #2"), "{out}");
    let start = hub.clock().now();

    // The books stop taking a fight's steps.
    let url = format!("sqlite://{}", books.path().display());
    let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query(
        "CREATE TRIGGER broken BEFORE INSERT ON fight_steps BEGIN SELECT RAISE(ABORT, 'the disk is full'); END",
    )
    .execute(&mut db)
    .await
    .unwrap();

    // Both deadlines fall due: each fails once, is said once, and is not fired again at once.
    let due = hub.advance(start + chrono::Duration::seconds(121)).await;
    for channel in ["#lists", "#tourney"] {
        let lines = said(&due, channel);
        assert_eq!(
            lines.len(),
            1,
            "{channel} was told {} lines, the first {:?}",
            lines.len(),
            &lines[..lines.len().min(3)]
        );
        assert_eq!(lines, vec![SORRY], "{channel}");
    }
    // Until the retry falls due, nothing more is tried or said.
    let quiet = hub.advance(start + chrono::Duration::seconds(150)).await;
    assert!(quiet.is_empty(), "{quiet:?}");
    // A retry that fails again is not said again.
    let again = hub.advance(start + chrono::Duration::seconds(152)).await;
    assert!(again.is_empty(), "{again:?}");

    // The books take writes again: the next retry takes the defaults.
    sqlx::query("DROP TRIGGER broken")
        .execute(&mut db)
        .await
        .unwrap();
    let retried = hub.advance(start + chrono::Duration::seconds(182)).await;
    for channel in ["#lists", "#tourney"] {
        let lines = said(&retried, channel);
        assert!(
            lines.iter().any(|l| l.contains("did not answer in time")),
            "{channel}: {retried:?}"
        );
        assert!(!lines.contains(&SORRY), "{channel}: {retried:?}");
    }
    let steps: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fight_steps")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert!(steps > 2, "the defaults were stored: {steps} steps");
}
