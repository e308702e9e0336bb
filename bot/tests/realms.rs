//! One realm across places: `[realms.NAME]` joins IRC networks (and Discord guilds) into one
//! realm's books, each place its own channels; a process restores only the fights and
//! tournaments of the places it serves. Two processes are two stores on one database (SQLite
//! file, and PostgreSQL when `HERALD_TEST_PG` is set), each with its own hub.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Answer, Hub, Incoming, Outgoing, Rights};
use herald_bot::store::db;
use std::sync::Arc;

const CONFIG: &str = r##"
[permissions]
moderators = ["boss"]

[realms.albion]
irc_networks = ["libera", "oftc"]
moderators = ["warden"]
"##;

fn at() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc)
}

/// A process serving some places over the books at `url`.
async fn process(backend: &Backend) -> Hub {
    let config: Config = toml::from_str(CONFIG).expect("the test configuration parses");
    config.check().expect("the test configuration is valid");
    let app = Arc::new(App::new(backend.store().await, config, Some(7)).unwrap());
    Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
}

async fn say(hub: &Hub, place: &str, channel: &str, user: &str, text: &str) -> Answer {
    hub.answer(
        &Incoming {
            realm: place.into(),
            channel: channel.into(),
            user: user.into(),
            text: text.into(),
        },
        Rights::default(),
    )
    .await
}

fn text(out: &[Outgoing]) -> String {
    out.iter()
        .map(|o| format!("{} {} {}\n", o.realm, o.channel, o.text))
        .collect()
}

#[tokio::test]
async fn each_process_restores_only_the_fights_of_its_own_places() {
    for backend in backends().await {
        let which = backend.name();
        let (libera, oftc) = (process(&backend).await, process(&backend).await);
        for (hub, place, nick, name, top, monarch) in [
            (
                &libera,
                "libera",
                "ash",
                "Ash",
                "lance,shield,ride",
                "llewellyn",
            ),
            (
                &oftc,
                "oftc",
                "brim",
                "Brim",
                "observe,dodge,sword",
                "seonaid",
            ),
            (
                &libera,
                "libera",
                "cai",
                "Cai",
                "lance,shield,ride",
                "llewellyn",
            ),
            (
                &oftc,
                "oftc",
                "dun",
                "Dun",
                "observe,dodge,sword",
                "seonaid",
            ),
        ] {
            let a = say(
                hub,
                place,
                "#lists",
                nick,
                &format!("/knight create {name} --top {top} --psi cpk:40 --monarch {monarch}"),
            )
            .await;
            assert!(a.lines.join(" ").contains(name), "{which}: {a:?}");
        }
        // The books are the realm's: a knight made on one network is seen from the other.
        let standings = say(&oftc, "oftc", "#lists", "dun", "/standings").await;
        assert!(
            standings.lines.join("\n").contains("Ash"),
            "{which}: {standings:?}"
        );
        // A fight in each network's #lists: two channels of one name, two places.
        say(&libera, "libera", "#lists", "ash", "/joust brim").await;
        let a = say(&libera, "libera", "#lists", "brim", "/accept").await;
        assert!(a.lines.join(" ").contains("Ash"), "{which}: {a:?}");
        say(&oftc, "oftc", "#lists", "cai", "/joust dun").await;
        let a = say(&oftc, "oftc", "#lists", "dun", "/accept").await;
        assert!(a.lines.join(" ").contains("Cai"), "{which}: {a:?}");
        let store = &libera.app().store;
        let rows = db::query("SELECT channel, place FROM fights ORDER BY id")
            .fetch_all(store.db())
            .await
            .unwrap();
        let rows: Vec<(String, String)> = rows
            .iter()
            .map(|r| (r.try_get("channel").unwrap(), r.try_get("place").unwrap()))
            .collect();
        assert_eq!(
            rows,
            [
                ("#lists@libera".to_string(), "libera".to_string()),
                ("#lists@oftc".to_string(), "oftc".to_string())
            ],
            "{which}"
        );
        drop((libera, oftc));

        // Restarted: each process restores its own network's fight, in its own #lists.
        let (libera, oftc) = (process(&backend).await, process(&backend).await);
        let here = text(&libera.restore("libera").await.unwrap());
        let there = text(&oftc.restore("oftc").await.unwrap());
        assert!(
            here.contains("libera #lists ") && here.contains("Ash") && !here.contains("Cai"),
            "{which}: libera restored:\n{here}"
        );
        assert!(
            there.contains("oftc #lists ") && there.contains("Cai") && !there.contains("Ash"),
            "{which}: oftc restored:\n{there}"
        );
        assert!(!here.contains("@"), "{which}: {here}");
    }
}

#[tokio::test]
async fn a_realm_names_its_own_moderators_and_other_places_keep_the_permissions_section() {
    let backend = Backend::Sqlite(Books::new());
    let hub = process(&backend).await;
    let compact = "/narration compact";
    let ok = |a: &Answer| !a.lines.join(" ").contains("Only a moderator");
    assert!(ok(&say(&hub, "libera", "#lists", "warden", compact).await));
    assert!(!ok(&say(&hub, "oftc", "#lists", "boss", compact).await));
    assert!(ok(&say(&hub, "efnet", "#lists", "boss", compact).await));
    assert!(!ok(&say(&hub, "efnet", "#lists", "warden", compact).await));
    // The realm's name, not the network's, is what the books and the web know.
    let a = hub.app().realm("libera").await.unwrap();
    assert_eq!(hub.app().realm("oftc").await.unwrap(), a);
    assert_eq!(hub.app().realm("albion").await.unwrap(), a);
    assert_ne!(hub.app().realm("efnet").await.unwrap(), a);
    assert_eq!(hub.app().realm_name(a).as_deref(), Some("albion"));
}
