//! One fight at a time for a knight across processes: two processes (two stores, each with its
//! own hub) on one database (a SQLite file, and PostgreSQL when `HERALD_TEST_PG` is set) race to
//! start fights of the same knight; the books let exactly one start.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Answer, Hub, Incoming, Rights};
use herald_bot::store::db;
use std::sync::Arc;

fn at() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc)
}

/// A process on the books of `backend`.
async fn process(backend: &Backend, seed: u64) -> Hub {
    let config = Config::default();
    let app = Arc::new(App::new(backend.store().await, config, Some(seed)).unwrap());
    Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
}

async fn say(hub: &Hub, channel: &str, user: &str, text: &str) -> Answer {
    hub.answer(
        &Incoming {
            realm: "local".into(),
            channel: channel.into(),
            user: user.into(),
            text: text.into(),
        },
        Rights::default(),
    )
    .await
}

fn joined(a: &Answer) -> String {
    a.lines.join(" ")
}

/// The claims that hold a fighter: those of open fights (migration 0019 leaves an ended fight's
/// claims for the next start to take over).
async fn open_claims(hub: &Hub) -> i64 {
    db::query_scalar(
        "SELECT COUNT(*) FROM engaged_fighters e JOIN fights f ON f.id = e.fight_id \
         WHERE f.ended_at IS NULL",
    )
    .fetch_one(hub.app().store.db())
    .await
    .unwrap()
}

/// Ends the fight in `channel` by a yield of whichever of `users` is to move.
async fn end_fight(hub: &Hub, channel: &str, users: [&str; 2]) {
    let first = say(hub, channel, users[0], "/yield").await;
    if joined(&first).contains("yields") {
        return;
    }
    let second = say(hub, channel, users[1], "/yield").await;
    assert!(joined(&second).contains("yields"), "{first:?} {second:?}");
}

#[tokio::test]
async fn two_processes_racing_to_start_fights_of_one_knight_start_exactly_one() {
    for backend in backends().await {
        let which = backend.name();
        let (one, two) = (process(&backend, 7).await, process(&backend, 8).await);
        for (nick, name, top, monarch) in [
            ("ash", "Ash", "lance,shield,ride", "llewellyn"),
            ("brim", "Brim", "observe,dodge,sword", "seonaid"),
            ("cai", "Cai", "lance,shield,ride", "llewellyn"),
        ] {
            let a = say(
                &one,
                "#a",
                nick,
                &format!("/knight create {name} --top {top} --psi cpk:40 --monarch {monarch}"),
            )
            .await;
            assert!(joined(&a).contains(name), "{which}: {a:?}");
        }
        let mut won = [0, 0];
        for round in 0..20 {
            // Ash is challenged in #a of one process and in #b of the other, and accepts in
            // both at once.
            let c = say(&one, "#a", "brim", "/joust ash").await;
            assert!(joined(&c).contains("challenges"), "{which} {round}: {c:?}");
            let c = say(&two, "#b", "cai", "/joust ash").await;
            assert!(joined(&c).contains("challenges"), "{which} {round}: {c:?}");
            let (a, b) = if round % 2 == 0 {
                tokio::join!(
                    say(&one, "#a", "ash", "/accept"),
                    say(&two, "#b", "ash", "/accept")
                )
            } else {
                let (b, a) = tokio::join!(
                    say(&two, "#b", "ash", "/accept"),
                    say(&one, "#a", "ash", "/accept")
                );
                (a, b)
            };
            let started = [joined(&a), joined(&b)].map(|t| t.contains("Fight #"));
            assert_eq!(
                started.iter().filter(|s| **s).count(),
                1,
                "{which} {round}: exactly one fight starts: {a:?} {b:?}"
            );
            let (hub, channel, other, refused) = if started[0] {
                (&one, "#a", "brim", &b)
            } else {
                (&two, "#b", "cai", &a)
            };
            let elsewhere = if started[0] { "#a" } else { "#b" };
            assert_eq!(
                refused.lines,
                vec![format!(
                    "Sir Ash is already fighting in {elsewhere}; one fight at a time."
                )],
                "{which} {round}"
            );
            won[usize::from(!started[0])] += 1;
            assert_eq!(open_claims(hub).await, 2, "{which} {round}");
            // The fight's end frees Ash (and the refused challenge is withdrawn).
            end_fight(hub, channel, ["ash", other]).await;
            assert_eq!(open_claims(hub).await, 0, "{which} {round}");
            let (loser_hub, loser_channel) = if started[0] {
                (&two, "#b")
            } else {
                (&one, "#a")
            };
            let w = say(loser_hub, loser_channel, "ash", "/decline").await;
            assert!(joined(&w).contains("decline"), "{which} {round}: {w:?}");
        }
        assert_eq!(won[0] + won[1], 20, "{which}");

        // The claim is the books': a process opened after the fight began (a restart) refuses
        // the knight too, and so does the first process's own check.
        say(&one, "#a", "brim", "/joust ash").await;
        let a = say(&one, "#a", "ash", "/accept").await;
        assert!(joined(&a).contains("Fight #"), "{which}: {a:?}");
        let three = process(&backend, 9).await;
        say(&three, "#c", "cai", "/joust ash").await;
        let r = say(&three, "#c", "ash", "/accept").await;
        assert_eq!(
            r.lines,
            vec!["Sir Ash is already fighting in #a; one fight at a time.".to_string()],
            "{which}"
        );
        end_fight(&one, "#a", ["ash", "brim"]).await;
        say(&three, "#c", "cai", "/joust ash").await;
        let r = say(&three, "#c", "ash", "/accept").await;
        assert!(
            joined(&r).contains("Fight #"),
            "{which}: freed by the end: {r:?}"
        );
    }
}

/// A process whose `#m1` and `#m2` play the PFP duel, a game on the referee's seam.
async fn duel_process(backend: &Backend, seed: u64) -> Hub {
    let config: Config = toml::from_str(
        r##"
[games.channels]
"#m1" = "pfpduel"
"#m2" = "pfpduel"
"##,
    )
    .expect("the test configuration parses");
    let app = Arc::new(App::new(backend.store().await, config, Some(seed)).unwrap());
    Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
}

#[tokio::test]
async fn a_character_of_a_seam_game_starts_one_fight_of_two_accepted_at_once() {
    for backend in backends().await {
        let which = backend.name();
        let (one, two) = (
            duel_process(&backend, 7).await,
            duel_process(&backend, 8).await,
        );
        for (nick, name) in [("ann", "Ann"), ("bo", "Bo"), ("cy", "Cy")] {
            let a = say(&one, "#m1", nick, &format!("/psionist create {name}")).await;
            assert!(joined(&a).contains("ready"), "{which}: {a:?}");
        }
        let c = say(&one, "#m1", "bo", "/challenge ann").await;
        assert!(!c.lines.is_empty(), "{which}: {c:?}");
        let c = say(&two, "#m2", "cy", "/challenge ann").await;
        assert!(!c.lines.is_empty(), "{which}: {c:?}");
        let (a, b) = tokio::join!(
            say(&one, "#m1", "ann", "/accept"),
            say(&two, "#m2", "ann", "/accept")
        );
        let started = [joined(&a), joined(&b)].map(|t| t.contains("Fight #"));
        assert_eq!(
            started.iter().filter(|s| **s).count(),
            1,
            "{which}: exactly one fight starts: {a:?} {b:?}"
        );
        let (refused, elsewhere) = if started[0] { (&b, "#m1") } else { (&a, "#m2") };
        assert_eq!(
            refused.lines,
            vec![format!(
                "Ann is already fighting in {elsewhere}; one fight at a time."
            )],
            "{which}"
        );
        let claims: i64 = db::query_scalar(
            "SELECT COUNT(*) FROM engaged_fighters e JOIN fights f ON f.id = e.fight_id \
                 WHERE e.kind = 'character' AND f.ended_at IS NULL",
        )
        .fetch_one(one.app().store.db())
        .await
        .unwrap();
        assert_eq!(claims, 2, "{which}");
        // Its end frees Ann.
        let (hub, channel, other) = if started[0] {
            (&one, "#m1", "bo")
        } else {
            (&two, "#m2", "cy")
        };
        end_fight(hub, channel, ["ann", other]).await;
        assert_eq!(open_claims(&one).await, 0, "{which}");
    }
}

/// The claims are not exported (they are the open fights'): an import makes them again, so a
/// knight of a fight still open in the imported books is still refused elsewhere.
#[tokio::test]
async fn an_import_claims_the_fighters_of_its_open_fights_again() {
    let books = Books::new();
    let hub = {
        let app = Arc::new(App::new(books.store().await, Config::default(), Some(7)).unwrap());
        Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
    };
    for (nick, name, top, monarch) in [
        ("ash", "Ash", "lance,shield,ride", "llewellyn"),
        ("brim", "Brim", "observe,dodge,sword", "seonaid"),
    ] {
        let line = format!("/knight create {name} --top {top} --psi cpk:40 --monarch {monarch}");
        say(&hub, "#a", nick, &line).await;
    }
    say(&hub, "#a", "brim", "/joust ash").await;
    let a = say(&hub, "#a", "ash", "/accept").await;
    assert!(joined(&a).contains("Fight #"), "{a:?}");
    let doc = herald_bot::export::export(&hub.app().store).await.unwrap();
    assert!(doc["tables"].get("engaged_fighters").is_none());
    let copy = books.path().with_file_name("imported.db");
    let text = serde_json::to_string(&doc).unwrap();
    herald_bot::import::import(&text, &copy)
        .await
        .unwrap()
        .unwrap();
    let store = herald_bot::store::Store::open(&copy).await.unwrap();
    let claims: Vec<(String, i64)> =
        db::query("SELECT kind, fight_id FROM engaged_fighters ORDER BY fighter_id")
            .fetch_all(store.db())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.try_get("kind").unwrap(), r.try_get("fight_id").unwrap()))
            .collect();
    assert_eq!(
        claims,
        [("knight".to_string(), 1), ("knight".to_string(), 1)]
    );
}

/// A tournament's match whose knight another process holds in a fight waits for it, as for a
/// fight of its own process, and starts when that fight is over; it is not an error.
#[tokio::test]
async fn a_tournament_match_waits_for_a_knight_fighting_in_another_process() {
    for backend in backends().await {
        let which = backend.name();
        let config = "[permissions]\nmoderators = [\"mod\"]\n";
        let hub = |seed| {
            let config: Config = toml::from_str(config).expect("the test configuration parses");
            let backend = &backend;
            async move {
                let app = Arc::new(App::new(backend.store().await, config, Some(seed)).unwrap());
                Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
            }
        };
        let (one, two) = (hub(7).await, hub(8).await);
        for (nick, name, top, monarch) in [
            ("ash", "Ash", "lance,shield,ride", "llewellyn"),
            ("brim", "Brim", "observe,dodge,sword", "seonaid"),
            ("cai", "Cai", "lance,shield,ride", "llewellyn"),
        ] {
            let line =
                format!("/knight create {name} --top {top} --psi cpk:40 --monarch {monarch}");
            say(&one, "#t", nick, &line).await;
        }
        // Ash fights Cai in the other process.
        say(&two, "#b", "ash", "/joust cai").await;
        let a = say(&two, "#b", "cai", "/accept").await;
        assert!(joined(&a).contains("Fight #"), "{which}: {a:?}");
        for (user, line) in [
            ("mod", "/tournament schedule Yule in 1h"),
            ("ash", "/enter"),
            ("brim", "/enter"),
        ] {
            let a = say(&one, "#t", user, line).await;
            assert!(!a.lines.is_empty(), "{which}: {line}: {a:?}");
        }
        let started = say(&one, "#t", "mod", "/tournament start").await;
        let text = joined(&started);
        assert!(
            text.contains("The next match waits for Sir Ash, who is still fighting in #b."),
            "{which}: {started:?}"
        );
        assert!(!text.contains("could not write"), "{which}: {started:?}");
        // Still fighting a minute on: the wait is not said again.
        let again = one.advance(at() + chrono::Duration::seconds(61)).await;
        assert!(
            again.iter().all(|o| !o.text.contains("Fight #")),
            "{which}: {again:?}"
        );
        end_fight(&two, "#b", ["ash", "cai"]).await;
        let rode = one.advance(at() + chrono::Duration::seconds(122)).await;
        let said: Vec<&str> = rode.iter().map(|o| o.text.as_str()).collect();
        assert!(
            said.iter()
                .any(|t| t.starts_with("Fight #") && t.contains("a Lists match of Yule")),
            "{which}: {said:?}"
        );
    }
}

/// Ash and two allies against Brim in #minds, a power-pool group fight, accepted by all.
async fn group_fight(hub: &Hub, which: &str) {
    for (nick, line) in [
        (
            "ann",
            "/creature create Ash --kind psionicist --hd 8 --attack overload --defense mantra",
        ),
        (
            "cai",
            "/creature create Cai --kind psionicist --hd 4 --attack stab --defense swarm",
        ),
        (
            "dee",
            "/creature create Dun --kind psionicist --hd 4 --attack stab --defense swarm",
        ),
        (
            "bo",
            "/creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank",
        ),
    ] {
        let a = say(hub, "#minds", nick, line).await;
        assert!(joined(&a).contains("ready"), "{which}: {a:?}");
    }
    say(hub, "#minds", "ann", "/psicombat bo --with cai,dee").await;
    for nick in ["bo", "cai", "dee"] {
        say(hub, "#minds", nick, "/accept").await;
    }
}

/// A group fight's end frees every creature of it, not its two leads alone, on both backends.
#[tokio::test]
async fn a_group_fights_end_frees_every_member() {
    for backend in backends().await {
        let which = backend.name();
        let config: Config = toml::from_str("[games.channels]\n\"#minds\" = \"powerpool\"\n")
            .expect("the test configuration parses");
        let app = Arc::new(App::new(backend.store().await, config, Some(7)).unwrap());
        let hub = Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!']);
        group_fight(&hub, which).await;
        assert_eq!(open_claims(&hub).await, 4, "{which}: the four are claimed");
        let y = say(&hub, "#minds", "bo", "/yield").await;
        assert!(joined(&y).contains("is over"), "{which}: {y:?}");
        assert_eq!(open_claims(&hub).await, 0, "{which}: every member is freed");
    }
}

/// A claim left by an ended fight (migration 0019: an end writes no claim) is taken over by the
/// next start of its fighter, a group fight's member included, and the claim so taken refuses a
/// start elsewhere while its fight is open, on both backends.
#[tokio::test]
async fn a_claim_of_an_ended_fight_is_taken_over_and_then_refuses_again() {
    for backend in backends().await {
        let which = backend.name();
        let config: Config = toml::from_str(
            "[games.channels]\n\"#minds\" = \"powerpool\"\n\"#other\" = \"powerpool\"\n",
        )
        .expect("the test configuration parses");
        let open = |seed| {
            let (backend, config) = (&backend, config.clone());
            async move {
                let app = Arc::new(App::new(backend.store().await, config, Some(seed)).unwrap());
                Hub::manual(app, Arc::new(Clock::manual(at())), vec!['/', '!'])
            }
        };
        let (hub, two) = (open(7).await, open(8).await);
        group_fight(&hub, which).await;
        let y = say(&hub, "#minds", "bo", "/yield").await;
        assert!(joined(&y).contains("is over"), "{which}: {y:?}");
        // Cai, a member of the ended fight, and Brim, its lead, fight again: their old claims
        // are taken over.
        say(&hub, "#minds", "cai", "/psicombat bo").await;
        let a = say(&hub, "#minds", "bo", "/accept").await;
        assert!(joined(&a).contains("Fight #"), "{which}: {a:?}");
        assert_eq!(open_claims(&hub).await, 2, "{which}");
        // Cai is held again: Dun's challenge in another process is refused at its start.
        let c = say(&two, "#other", "dee", "/psicombat cai").await;
        assert!(!c.lines.is_empty(), "{which}: {c:?}");
        let r = say(&two, "#other", "cai", "/accept").await;
        assert_eq!(
            r.lines,
            vec!["Cai is already fighting in #minds; one fight at a time.".to_string()],
            "{which}"
        );
    }
}
