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

const GUILD: &str = "123456789012345678";

/// One process serving an IRC network and a Discord guild of one realm: two hubs, one state.
async fn two_transports(backend: &Backend) -> (Hub, Hub) {
    let config: Config = toml::from_str(&format!(
        "[realms.albion]\nirc_networks = [\"libera\"]\ndiscord_guilds = [{GUILD}]\n"
    ))
    .expect("the test configuration parses");
    config.check().expect("the test configuration is valid");
    let app = Arc::new(App::new(backend.store().await, config, Some(7)).unwrap());
    let clock = Arc::new(Clock::manual(at()));
    (
        Hub::manual(app.clone(), clock.clone(), vec!['!']),
        Hub::manual(app, clock, vec!['/', '!']),
    )
}

fn code_in(a: &Answer) -> String {
    assert!(
        a.lines.is_empty(),
        "a code is said to its asker alone: {a:?}"
    );
    let line = a.private.join(" ");
    let code = line
        .split("link code is ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no code in {a:?}"));
    code.to_string()
}

fn private(a: &Answer) -> String {
    assert!(a.lines.is_empty(), "said to the speaker alone: {a:?}");
    a.private.join(" ")
}

#[tokio::test]
async fn a_knight_made_on_irc_fights_on_discord_after_link_and_unlink_undoes_it() {
    for backend in backends().await {
        let which = backend.name();
        let (irc, discord) = two_transports(&backend).await;
        let create = |name: &str, top: &str| {
            format!("/knight create {name} --top {top} --psi cpk:40 --monarch llewellyn")
        };
        let made = say(
            &irc,
            "libera",
            "#lists",
            "ash",
            &create("Ash", "lance,shield,ride").replacen('/', "!", 1),
        )
        .await;
        assert!(made.lines.join(" ").contains("Ash"), "{which}: {made:?}");
        say(
            &discord,
            GUILD,
            "<#1>",
            "222",
            &create("Brim", "observe,dodge,sword"),
        )
        .await;
        say(
            &discord,
            GUILD,
            "<#1>",
            "333",
            &create("Cai", "observe,dodge,sword"),
        )
        .await;

        let code = code_in(&say(&irc, "libera", "#lists", "ash", "!link").await);
        let linked = private(&say(&discord, GUILD, "<#1>", "111", &format!("/link {code}")).await);
        assert!(
            linked.contains("now plays as ash (the knight Ash)"),
            "{which}: {linked}"
        );
        // Ash is 111's on Discord: its sheet, a challenge and a fight.
        let mine = say(&discord, GUILD, "<#1>", "111", "/knight").await;
        assert!(mine.lines.join(" ").contains("Ash"), "{which}: {mine:?}");
        say(&discord, GUILD, "<#1>", "222", "/joust Ash").await;
        let accepted = say(&discord, GUILD, "<#1>", "111", "/accept").await;
        assert!(
            accepted.lines.join(" ").contains("Ash"),
            "{which}: {accepted:?}"
        );
        let row = db::query("SELECT channel, place, challenged_user FROM fights")
            .fetch_one(irc.app().store.db())
            .await
            .unwrap();
        assert_eq!(
            (
                row.try_get::<String, _>("channel").unwrap(),
                row.try_get::<String, _>("place").unwrap(),
                row.try_get::<String, _>("challenged_user").unwrap()
            ),
            ("<#1>".into(), GUILD.into(), "ash".into()),
            "{which}"
        );

        // A code is spent once; an account linked already is told to /unlink; its own code is
        // the asker's to give, not to type.
        let reused = private(&say(&discord, GUILD, "<#2>", "444", &format!("/link {code}")).await);
        assert!(reused.contains("was used already"), "{which}: {reused}");
        let cai = code_in(&say(&discord, GUILD, "<#2>", "333", "/link").await);
        let again = private(&say(&irc, "libera", "#lists", "111", &format!("!link {cai}")).await);
        assert!(again.contains("/link"), "{which}: {again}");
        let twice = private(&say(&discord, GUILD, "<#2>", "111", &format!("/link {cai}")).await);
        assert!(
            twice.contains("linked to ash already") && twice.contains("/unlink first"),
            "{which}: {twice}"
        );
        let asks = private(&say(&discord, GUILD, "<#2>", "111", "/link").await);
        assert!(asks.contains("/unlink first"), "{which}: {asks}");
        let own = private(&say(&discord, GUILD, "<#2>", "333", &format!("/link {cai}")).await);
        assert!(own.contains("own code"), "{which}: {own}");
        let unknown = private(&say(&discord, GUILD, "<#2>", "555", "/link ZZZZZZ").await);
        assert!(
            unknown.contains("No link code ZZZZZZ"),
            "{which}: {unknown}"
        );

        // /unlink from the Discord side: 111 plays as itself again, and Ash stays ash's.
        let undone = private(&say(&discord, GUILD, "<#2>", "111", "/unlink").await);
        assert!(
            undone.contains("Unlinked from ash") && undone.contains("stay with the account"),
            "{which}: {undone}"
        );
        let none = say(&discord, GUILD, "<#2>", "111", "/knight").await;
        assert!(!none.lines.join(" ").contains("Ash"), "{which}: {none:?}");
        let still = say(&irc, "libera", "#lists", "ash", "!knight").await;
        assert!(still.lines.join(" ").contains("Ash"), "{which}: {still:?}");
        let nothing = private(&say(&discord, GUILD, "<#2>", "111", "/unlink").await);
        assert!(nothing.contains("linked to no other"), "{which}: {nothing}");
    }
}

#[tokio::test]
async fn a_link_code_expires_after_ten_minutes_and_unlink_works_from_the_first_account() {
    let backend = Backend::Sqlite(Books::new());
    let (irc, discord) = two_transports(&backend).await;
    let late = code_in(&say(&irc, "libera", "#lists", "ash", "!link").await);
    irc.clock().set(at() + chrono::Duration::minutes(10));
    let expired = private(&say(&discord, GUILD, "<#1>", "111", &format!("/link {late}")).await);
    assert!(expired.contains("has expired"), "{expired}");
    let code = code_in(&say(&irc, "libera", "#lists", "ash", "!link").await);
    irc.clock()
        .set(at() + chrono::Duration::minutes(19) + chrono::Duration::seconds(59));
    let linked = private(&say(&discord, GUILD, "<#1>", "111", &format!("/link {code}")).await);
    assert!(linked.contains("now plays as ash"), "{linked}");
    // An account others are linked to joins no other; a code whose asker has since been
    // linked to another account is refused, naming it.
    let cai = code_in(&say(&irc, "libera", "#lists", "cai", "!link").await);
    let has = private(&say(&irc, "libera", "#lists", "ash", &format!("!link {cai}")).await);
    assert!(
        has.contains("111 is linked to this account") && has.contains("/unlink first"),
        "{has}"
    );
    let dun = code_in(&say(&irc, "libera", "#lists", "dun", "!link").await);
    let ash2 = code_in(&say(&irc, "libera", "#lists", "ash", "!link").await);
    say(&irc, "libera", "#lists", "dun", &format!("!link {ash2}")).await;
    let chained = private(&say(&discord, GUILD, "<#1>", "222", &format!("/link {dun}")).await);
    assert!(chained.contains("is linked to ash now"), "{chained}");
    let undone = private(&say(&irc, "libera", "#lists", "ash", "!unlink").await);
    assert!(undone.contains("Unlinked from 111, dun"), "{undone}");
    assert_eq!(
        irc.app()
            .store
            .account_of(irc.app().realm("libera").await.unwrap(), "111")
            .await
            .unwrap(),
        "111"
    );
}

// A tournament scheduled on one network for another of its channels is that network's: its
// process alone loads it and holds it. The realm's practice rule is one across networks.
#[tokio::test]
async fn a_tournament_is_held_by_its_own_networks_process_and_practice_is_the_realms() {
    for backend in backends().await {
        let which = backend.name();
        let (libera, oftc) = (process(&backend).await, process(&backend).await);
        for (hub, place, nick, name, top) in [
            (&libera, "libera", "ash", "Ash", "lance,shield,ride"),
            (&oftc, "oftc", "brim", "Brim", "observe,dodge,sword"),
        ] {
            let line =
                format!("/knight create {name} --top {top} --psi cpk:40 --monarch llewellyn");
            say(hub, place, "#lists", nick, &line).await;
        }
        let a = say(
            &libera,
            "libera",
            "#lists",
            "warden",
            "/tournament schedule \"Yule Lists\" in 1h --channel #hall",
        )
        .await;
        assert!(a.lines.join(" ").contains("Yule Lists"), "{which}: {a:?}");
        let row = db::query("SELECT channel, place FROM tournaments")
            .fetch_one(libera.app().store.db())
            .await
            .unwrap();
        assert_eq!(
            (
                row.try_get::<String, _>("channel").unwrap(),
                row.try_get::<String, _>("place").unwrap()
            ),
            ("#hall@libera".to_string(), "libera".to_string()),
            "{which}"
        );
        // The same pair's practice, once on each network the same day: recorded once.
        say(&libera, "libera", "#lists", "ash", "/joust brim").await;
        say(&libera, "libera", "#lists", "brim", "/accept").await;
        // A knight fights once at a time across processes (migration 0017): that fight ends
        // (by the yield of whichever is to move) before the other network's.
        say(&libera, "libera", "#lists", "ash", "/yield").await;
        say(&libera, "libera", "#lists", "brim", "/yield").await;
        say(&oftc, "oftc", "#duels", "brim", "/joust ash").await;
        say(&oftc, "oftc", "#duels", "ash", "/accept").await;
        let recorded: Vec<(String, i64)> =
            db::query("SELECT place, recorded FROM fights ORDER BY id")
                .fetch_all(oftc.app().store.db())
                .await
                .unwrap()
                .iter()
                .map(|r| (r.try_get("place").unwrap(), r.try_get("recorded").unwrap()))
                .collect();
        assert_eq!(
            recorded,
            [("libera".to_string(), 1), ("oftc".to_string(), 0)],
            "{which}"
        );
        drop((libera, oftc));

        let (libera, oftc) = (process(&backend).await, process(&backend).await);
        libera.restore("libera").await.unwrap();
        oftc.restore("oftc").await.unwrap();
        let later = at() + chrono::Duration::hours(2);
        let here = text(&libera.advance(later).await);
        let there = text(&oftc.advance(later).await);
        assert!(
            here.contains("libera #hall ") && here.contains("Yule Lists"),
            "{which}: libera:\n{here}"
        );
        assert!(!there.contains("Yule Lists"), "{which}: oftc:\n{there}");
    }
}
