//! The project's own rulings that the bot decides (docs/rulings.md).

mod common;
use common::*;

#[tokio::test]
async fn r123_one_knight_per_player() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}dana: /knight create Brenna --top lance,ride,sword --psi cpk:40 --monarch ragnar --dame\n"
    );
    let run = run(&books.path(), &transcript).await;
    run.expect("Cannot create that knight: you already have a knight, Dara; a player has one knight at a time.");
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM knights")
        .fetch_one(books.store().await.pool())
        .await
        .unwrap();
    assert_eq!(n, 2);
}

#[tokio::test]
async fn r126_the_challenger_may_withdraw_and_a_bystander_may_not_decline() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}dana: /joust evan\ncarl: /decline\ndana: /decline\nevan: /accept\n"
    );
    let run = run(&books.path(), &transcript).await;
    run.expect("Only evan can decline this challenge.")
        .expect("Dame Dara withdraws the challenge.")
        .expect("There is no challenge to accept here.");
}

#[tokio::test]
async fn r127_declarations_do_not_restart_the_clock() {
    // Both fail Observe and Ride (90s; Dara's Ride 90 beats 80): Dara announces first. At 10:00:00
    // the prompt gives her 120 s; arming psi at 10:01:00 does not restart it, so at 10:02:00
    // /nosweep is taken for her.
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}dana: /joust evan\n@dice 90 90 90 80\nevan: /accept\n@wait 60\ndana: /psi apportation\n@wait 59\n"
    );
    let first = run(&books.path(), &transcript).await;
    first.expect("Dame Dara arms Apportation.");
    first.expect_not("did not answer in time");
    let books = Books::new();
    let transcript = format!("{transcript}@wait 1\n");
    let second = run(&books.path(), &transcript).await;
    second.expect("Dame Dara (dana) did not answer in time: /nosweep is taken for them.");
}

#[tokio::test]
async fn commands_are_refused_above_the_speakers_rights() {
    use herald_bot::app::App;
    use herald_bot::clock::Clock;
    use herald_bot::config::Config;
    use herald_bot::hub::{Hub, Incoming, Rights};
    use herald_bot::store::Store;
    use std::sync::Arc;

    let books = Books::new();
    let config: Config =
        toml::from_str("[permissions]\nadmins = [\"alice\"]\nmoderators = [\"bob\"]").unwrap();
    let store = Store::open(&books.path()).await.unwrap();
    let app = Arc::new(App::new(store, config, Some(0)).unwrap());
    let hub = Hub::manual(app, Arc::new(Clock::manual(chrono::Utc::now())), vec!['/']);
    let say = |user: &str, text: &str| Incoming {
        realm: "local".into(),
        channel: "#lists".into(),
        user: user.into(),
        text: text.into(),
    };
    let refused = "Only a moderator may use /tournament start; moderators are named under [permissions] in the configuration, or hold one of its moderator_roles on Discord.";
    assert_eq!(
        hub.handle(&say("carl", "/tournament start")).await,
        vec![refused]
    );
    // A moderator by name, an admin, and a member whose platform role makes them a moderator
    // all get past the door.
    for (user, rights) in [
        ("bob", Rights::default()),
        ("alice", Rights::default()),
        ("carl", Rights { moderator: true }),
    ] {
        let lines = hub.handle_as(&say(user, "/tournament start"), rights).await;
        assert_ne!(lines, vec![refused], "{user}");
    }
    assert_eq!(
        hub.handle(&say("bob", "/admin retire Dara")).await,
        vec!["Only an admin may use /admin retire; admins are named under [permissions] in the configuration."]
    );
}
