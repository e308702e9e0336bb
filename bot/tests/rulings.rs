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

const MODERATOR: &str = "[permissions]\nmoderators = [\"mod\"]\n";

/// Dara, Eoin and a third knight, Finn, entered in a tournament held in #lists at 11:00.
const THREE_ENTERED: &str = "\
finn: /knight create Finn --top lance,ride,observe --psi cpk:40 --monarch ragnar
[#yard] mod: /tournament schedule \"Yule Lists\" 2026-12-01T11:00:00Z --channel #lists
dana: /enter
evan: /enter
[#yard] finn: /enter
";

// R163: a schedule made in one channel for another is announced in both; the tournament starts
// on time there; no practice joust starts in its channel while it runs, and a knight still in it
// fights nowhere else; a knight out of it may.
#[tokio::test]
async fn r163_one_thing_at_a_time_in_a_tournament_channel() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
@dice 3 2
@clock 2026-12-01T11:00:00Z
[#lists] finn: /joust dana
[#yard] finn: /joust dana
@dice 2
[#lists] dana: /yield
[#yard] dana: /joust evan
[#lists] evan: /status
"
    );
    let run = run_with(&books.path(), MODERATOR, &transcript).await;
    run.expect("[#yard] Tournament #1, Yule Lists, is scheduled for Tue 1 Dec 2026 11:00 UTC in #lists")
        .expect("[#lists] Yule Lists will be held here Tue 1 Dec 2026 11:00 UTC: the Lists. /enter to take part.")
        .expect("[#lists] Yule Lists begins! 3 knights ride in the Lists: Dame Dara, Sir Eoin, Sir Finn.")
        .expect("[#lists] Round 1: Dame Dara vs Sir Eoin; Sir Finn sits out this round (R34).")
        .expect("[#lists] A fight is on in #lists: Dame Dara vs Sir Eoin.")
        .expect("[#yard] Sir Finn is in the tournament under way in #lists, and fights only there until out of it.")
        .expect("[#lists] Sir Eoin wins the match and rides on; Dame Dara is out of the Lists.")
        .expect("[#lists] Round 2: Sir Eoin vs Sir Finn.")
        // Dara is out of the Lists: she may fight elsewhere, but Eoin may not.
        .expect("[#yard] Sir Eoin is already fighting in #lists; one fight at a time.");
}

// R165: a tournament that has begun cannot be cancelled; one not begun can, by a moderator only,
// and then it never starts.
#[tokio::test]
async fn r165_cancelling() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
dana: /tournament cancel
mod: /tournament cancel
mod: /tournament cancel
@clock 2026-12-01T12:00:00Z
dana: /tournament
"
    );
    let run = run_with(&books.path(), MODERATOR, &transcript).await;
    run.expect("Only a moderator may use /tournament cancel")
        .expect("Yule Lists (#1), due Tue 1 Dec 2026 11:00 UTC in #lists, is cancelled by mod.")
        .expect("No tournament is scheduled; there is nothing to cancel.")
        .expect("No tournament is scheduled. A moderator schedules one")
        .expect_not("begins!");
    let status: String = sqlx::query_scalar("SELECT status FROM tournaments WHERE id = 1")
        .fetch_one(books.store().await.pool())
        .await
        .unwrap();
    assert_eq!(status, "cancelled");
}

// R162: a knight of the tournament arms psi before their match; it is armed when the match
// starts (the match's stored setup holds it).
#[tokio::test]
async fn r162_psi_is_armed_for_the_next_match() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
@dice 3 2
@clock 2026-12-01T11:00:00Z
[#lists] finn: /psi telepathy
[#lists] finn: /psi cpk
@dice 2
[#lists] dana: /yield
"
    );
    let run = run_with(&books.path(), MODERATOR, &transcript).await;
    run.expect("Sir Finn has no Telepathy (R21).")
        .expect("Sir Finn arms CPK for their next match.")
        .expect("Round 2: Sir Eoin vs Sir Finn.");
    let setup: String = sqlx::query_scalar("SELECT setup FROM fights WHERE id = 2")
        .fetch_one(books.store().await.pool())
        .await
        .unwrap();
    let setup: serde_json::Value = serde_json::from_str(&setup).unwrap();
    assert_eq!(setup["kind"], "lists");
    assert_eq!(setup["armed"], serde_json::json!([null, "cpk"]), "{setup}");
}

// R21, R162: arming for the next match is the knight's secret too: told to them alone, the
// channel hearing only that a skill is readied; a skill they lack is refused to them alone.
#[tokio::test]
async fn r162_psi_armed_for_the_next_match_is_told_to_the_knight_alone() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
@dice 3 2
@clock 2026-12-01T11:00:00Z
[#lists] finn: /psi telepathy
[#lists] finn: /psi cpk
"
    );
    let run = run_with(&books.path(), MODERATOR, &transcript).await;
    run.expect("[to finn] Sir Finn has no Telepathy (R21).")
        .expect("[to finn] Sir Finn arms CPK for their next match.")
        .expect("[#lists] Sir Finn has readied a psi skill.");
    assert!(
        run.lines()
            .iter()
            .filter(|l| l.contains("Telepathy") || l.contains("arms CPK"))
            .all(|l| l.starts_with("[to finn] ")),
        "{}",
        run.out
    );
}

// R161, R12: the entrants are fixed at the start; a knight out with a major injury that day does
// not ride, and the others' Lists are drawn without her.
#[tokio::test]
async fn r161_a_knight_who_cannot_ride_at_the_start_is_left_out() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
dana: /joust evan
# Dara's Shield roll is 100: unhorsed with a major injury (Joust step 9, R12).
@dice 90 90 90 20 30 100
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
@dice 2
@clock 2026-12-01T11:00:00Z
"
    );
    let run = run_with(&books.path(), MODERATOR, &transcript).await;
    run.expect("Dame Dara suffers a major injury")
        .expect("Dame Dara is out with a major injury for the rest of the day (R12). Dame Dara does not ride in Yule Lists.")
        .expect("Yule Lists begins! 2 knights ride in the Lists: Sir Eoin, Sir Finn.")
        .expect("Round 1: Sir Eoin vs Sir Finn.");
}

// R160: when a match comes up and the books say a knight cannot ride (here Finn's major injury
// of the day, written straight into the books between two runs, as a Swordplay injury would
// be), that knight loses it without a die rolled, and it counts as a match for R36.
#[tokio::test]
async fn r160_a_match_that_cannot_be_ridden_is_lost_without_a_die() {
    let books = Books::new();
    let first = format!(
        "{DARA_AND_EOIN}{THREE_ENTERED}\
@dice 3 2
@clock 2026-12-01T11:00:00Z
"
    );
    let run1 = run_with(&books.path(), MODERATOR, &first).await;
    run1.expect("Round 1: Dame Dara vs Sir Eoin; Sir Finn sits out this round (R34).");
    {
        let store = books.store().await;
        sqlx::query(
            "INSERT INTO major_injuries (knight_id, day, fight_id) VALUES (3, '2026-12-01', 1)",
        )
        .execute(store.pool())
        .await
        .unwrap();
    }
    let second = "\
@clock 2026-12-01T11:01:00Z
@dice 2
[#lists] dana: /yield
";
    let run2 = run_with(&books.path(), MODERATOR, second).await;
    run2.expect("Round 2: Sir Eoin vs Sir Finn.")
        .expect("Sir Finn cannot ride and is out of the Lists without a die rolled (R160).")
        .expect(
            "The Lists are over. Champion: Sir Eoin; finalist: Sir Finn; semi-finalist: Dame Dara.",
        )
        .expect_not("Fight #2");
    // R36 (Dara #1, Eoin #2, Finn #3): Eoin 2 matches + champion 1 + first prize 1 = 4; Finn 1
    // match + finalist 1 = 2;
    // Dara 1 match + semi-finalist 1 = 2.
    let store = books.store().await;
    for (knight, hp) in [(2, 4), (3, 2), (1, 2)] {
        let halves: i64 = sqlx::query_scalar(
            "SELECT SUM(hp_halves) FROM ledger WHERE knight_id = ? AND kind = 'tournament'",
        )
        .bind(knight)
        .fetch_one(store.pool())
        .await
        .unwrap();
        assert_eq!(halves, hp * 2, "knight {knight}:\n{}", run2.out);
    }
}
