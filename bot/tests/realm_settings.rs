//! Per-realm settings: `[realms.NAME] timezone` (the realm's day for R26's once-a-day rule and
//! its tournaments' schedules) and its timeouts, over `[realm]`'s. Two realms of different time
//! zones played across one UTC hour that is midnight in only one of them.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Answer, Hub, Incoming, Rights};
use std::sync::Arc;

const CONFIG: &str = r##"
[realm]
timezone = "UTC"

[realms.east]
irc_networks = ["tokyo"]
timezone = "Asia/Tokyo"
challenge_timeout_secs = 60
moderators = ["warden"]

[realms.west]
irc_networks = ["hawaii"]
timezone = "Pacific/Honolulu"
moderators = ["warden"]
"##;

fn at(text: &str) -> chrono::DateTime<chrono::Utc> {
    text.parse().unwrap()
}

async fn say(hub: &Hub, place: &str, user: &str, text: &str) -> Answer {
    hub.answer(
        &Incoming {
            realm: place.into(),
            channel: "#lists".into(),
            user: user.into(),
            text: text.into(),
        },
        Rights::default(),
    )
    .await
}

/// Ends the fight in `place`'s #lists by a yield of whichever of `users` is to move.
async fn yielded(hub: &Hub, place: &str, users: [&str; 2]) {
    let first = say(hub, place, users[0], "/yield").await;
    if first.lines.join(" ").contains("yields") {
        return;
    }
    let second = say(hub, place, users[1], "/yield").await;
    assert!(
        second.lines.join(" ").contains("yields"),
        "{first:?} {second:?}"
    );
}

// R25 (the realm's day), R26 (one recorded practice fight per pair per day), each realm by its
// own time zone; and each realm's challenge timeout.
#[tokio::test]
async fn each_realm_counts_its_days_and_challenges_by_its_own_settings() {
    let books = Books::new();
    let config: Config = toml::from_str(CONFIG).unwrap();
    config.check().unwrap();
    let app = Arc::new(App::new(books.store().await, config, Some(7)).unwrap());
    // 23:30 in Tokyo, 04:30 in Honolulu, on 1 December.
    let clock = Arc::new(Clock::manual(at("2026-12-01T14:30:00Z")));
    let hub = Hub::manual(app, clock.clone(), vec!['/']);
    let pairs = [("tokyo", ["ash", "brim"]), ("hawaii", ["cai", "dun"])];
    for (place, [a, b]) in pairs {
        for (nick, top, monarch) in [
            (a, "lance,shield,ride", "llewellyn"),
            (b, "observe,dodge,sword", "seonaid"),
        ] {
            let line = format!(
                "/knight create {} --top {top} --psi cpk:40 --monarch {monarch}",
                nick.to_uppercase()
            );
            let made = say(&hub, place, nick, &line).await;
            assert!(made.lines.join(" ").contains("dubbed"), "{made:?}");
        }
    }
    // The challenge timeouts: east's own, west's from [realm].
    let c = say(&hub, "tokyo", "ash", "/joust brim").await;
    assert!(
        c.lines.join(" ").contains("/accept or /decline (60s)"),
        "{c:?}"
    );
    let c = say(&hub, "hawaii", "cai", "/joust dun").await;
    assert!(
        c.lines.join(" ").contains("/accept or /decline (300s)"),
        "{c:?}"
    );
    // R26: each pair's first practice fight of its day is recorded.
    for (place, [a, b]) in pairs {
        let started = say(&hub, place, b, "/accept").await;
        assert!(started.lines.join(" ").contains("Fight #"), "{started:?}");
        yielded(&hub, place, [a, b]).await;
    }
    // R25: an hour later, 00:30 of 2 December in Tokyo, a new day there; 05:30 still of
    // 1 December in Honolulu.
    hub.advance(at("2026-12-01T15:30:00Z")).await;
    let again = say(&hub, "tokyo", "ash", "/joust brim").await;
    assert!(
        !again.lines.join(" ").contains("will not be recorded"),
        "a new day in Tokyo: {again:?}"
    );
    let again = say(&hub, "hawaii", "cai", "/joust dun").await;
    assert!(
        again.lines.join(" ").contains("will not be recorded"),
        "the same day in Honolulu: {again:?}"
    );
    // The books agree: east's second fight is recorded, west's is not.
    for (place, [a, b]) in pairs {
        say(&hub, place, b, "/accept").await;
        yielded(&hub, place, [a, b]).await;
    }
    let recorded: Vec<i64> =
        herald_bot::store::db::query_scalar("SELECT recorded FROM fights ORDER BY id")
            .fetch_all(hub.app().store.db())
            .await
            .unwrap();
    assert_eq!(recorded, [1, 1, 1, 0]);
    // A tournament's time is told in its realm's zone.
    for (place, zone) in [("tokyo", "01:30 JST"), ("hawaii", "06:30 HST")] {
        let line = format!("/tournament schedule \"{place} Lists\" in 1h --channel #hall");
        let a = say(&hub, place, "warden", &line).await;
        assert!(a.lines.join(" ").contains(zone), "{place}: {a:?}");
    }
    // R25: the books' times are told in each realm's zone: `/fights` the first fight's start
    // (14:30 UTC), `/ledger` the day of the second's award (15:30 UTC: 2 December in Tokyo).
    let told = |a: &Answer| [a.lines.clone(), a.private.clone()].concat().join(" ");
    for (place, name, first, day) in [
        ("tokyo", "ASH", "2026-12-01 23:30", "2026-12-02"),
        ("hawaii", "CAI", "2026-12-01 04:30", "2026-12-01"),
    ] {
        let fights = say(&hub, place, "warden", &format!("/fights {name}")).await;
        assert!(told(&fights).contains(first), "{place}: {fights:?}");
        let (a, b) = if place == "tokyo" {
            ("ASH", "BRIM")
        } else {
            ("CAI", "DUN")
        };
        let mut ledgers = String::new();
        for knight in [a, b] {
            ledgers += &told(&say(&hub, place, "warden", &format!("/ledger {knight}")).await);
        }
        assert!(ledgers.contains(&format!(" {day} ")), "{place}: {ledgers}");
    }
}

#[test]
fn a_realms_timezone_is_checked_at_start_up_naming_its_section() {
    let config: Config =
        toml::from_str("[realms.east]\nirc_networks = [\"tokyo\"]\ntimezone = \"Mars/Olympus\"\n")
            .unwrap();
    let err = config.check().unwrap_err().to_string();
    assert!(
        err.contains("[realms.east] timezone 'Mars/Olympus' is not an IANA time zone"),
        "{err}"
    );
    let config: Config =
        toml::from_str("[realms.east]\nirc_networks = [\"tokyo\"]\ntimezone = \"EST\"\n").unwrap();
    let err = config.check().unwrap_err().to_string();
    assert!(
        err.contains("[realms.east] timezone 'EST' is an abbreviation"),
        "{err}"
    );
}
