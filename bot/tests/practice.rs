//! Practice fights from chat lines to the books: transcripts with `@dice` and `@clock` against
//! a real SQLite file.

mod common;
use common::*;
use sqlx::Row;

#[tokio::test]
async fn the_worked_example_as_a_transcript() {
    let books = Books::new();
    let transcript = include_str!("transcripts/example.txt");
    let run = run(&books.path(), transcript).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Dara rolls Observe 77 vs 40: success")
        .expect("Sir Eoin rolls Lance 60 vs 65 (40 + 25 sweep): hit.")
        .expect("Dame Dara rolls Shield 97 vs 5 (30 − 25 opponent's Bonus): failure.")
        .expect("Dame Dara is unhorsed!")
        .expect("— Swordplay — Dame Dara goes first (1A: just unhorsed).")
        .expect("Dame Dara rolls Dodge 35 vs 40: success.");
    // The events of EXAMPLES.md, in order, among the others.
    let wanted = [
        ("psi", "Dara", 15),
        ("roll", "Dara", 77),
        ("roll", "Eoin", 12),
        ("bonus", "Eoin", 10),
        ("roll", "Dara", 33),
        ("roll", "Eoin", 35),
        ("bonus", "Eoin", 15),
        ("roll", "Dara", 50),
        ("roll", "Eoin", 60),
        ("roll", "Dara", 97),
        ("unhorsed", "Dara", 0),
        ("injury", "Dara", 0),
        ("roll", "Dara", 25),
        ("roll", "Eoin", 28),
        ("bonus", "Dara", 10),
        ("roll", "Eoin", 30),
        ("roll", "Dara", 35),
    ];
    let mut it = run.events.iter();
    for (kind, knight, n) in wanted {
        let found = it.any(|e| {
            e["type"] == kind
                && e["knight"] == knight
                && (n == 0 || e["roll"] == n || e["amount"] == n)
        });
        assert!(
            found,
            "missing {kind} {knight} {n} in order; events: {:#?}",
            run.events
        );
    }
    // The fight is still on, with its steps in the books.
    let store = books.store().await;
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights WHERE ended_at IS NULL")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(open, 1);
    let row = sqlx::query("SELECT recorded, kind FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(row.get::<bool, _>("recorded"));
    assert_eq!(row.get::<String, _>("kind"), "practice");
}

#[tokio::test]
async fn a_knight_fights_in_one_channel_at_a_time() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
carl: /knight create Cael --top lance,ride,sword --psi cpk:40 --monarch ragnar
[#east] dana: /joust evan
[#east] evan: /accept
[#west] carl: /joust dana
[#west] dana: /joust carl
[#east] carl: /joust evan
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    // Dara is in the fight in #east: nobody can start another with her elsewhere.
    run.expect("[#west] Dame Dara is already fighting in #east; one fight at a time.");
    // One fight per channel: #east is busy.
    run.expect("[#east] A fight is on in #east: Dame Dara vs Sir Eoin.");
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights WHERE ended_at IS NULL")
        .fetch_one(books.store().await.pool())
        .await
        .unwrap();
    assert_eq!(open, 1);
}

/// Live, the session actors fire their own deadlines on tokio's clock: with time paused, a
/// deadline is exact and the test never sleeps. (The timeout of a decision, which writes to the
/// books, is pinned by the transcripts' `@wait`; here the lapse of a challenge, which writes
/// nothing, so no database work is in flight while paused time jumps.)
#[tokio::test]
async fn a_live_deadline_fires_on_time() {
    use herald_bot::app::App;
    use herald_bot::clock::Clock;
    use herald_bot::config::Config;
    use herald_bot::hub::{Hub, Incoming};
    use herald_bot::store::Store;
    use std::sync::Arc;
    use std::time::Duration;

    let books = Books::new();
    let store = Store::open(&books.path()).await.unwrap();
    let app = Arc::new(App::new(store, Config::default(), Some(0)).unwrap());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let say = |user: &str, text: &str| Incoming {
        realm: "local".into(),
        channel: "#lists".into(),
        user: user.into(),
        text: text.into(),
    };
    let hub = Hub::live(app.clone(), Arc::new(Clock::live()), vec!['/', '!'], tx);
    for line in DARA_AND_EOIN.lines().filter(|l| !l.starts_with('@')) {
        let (user, text) = line.split_once(": ").unwrap();
        hub.handle(&say(user, text)).await;
    }
    let lines = hub.handle(&say("dana", "/joust evan")).await;
    assert!(lines[0].contains("(300s)"), "{lines:?}");
    // From here on no database work is in flight, so paused time can jump safely.
    tokio::time::pause();
    // 299 seconds: nothing yet.
    tokio::time::sleep(Duration::from_secs(299)).await;
    assert!(rx.try_recv().is_err(), "nothing is due before 300 s");
    // R126: at 300 seconds the challenge lapses, and the channel is told.
    let lapse = tokio::time::timeout(Duration::from_secs(2), rx.recv())
        .await
        .expect("the challenge lapses at 300 s")
        .expect("the outbox is open");
    assert_eq!(lapse.channel, "#lists");
    assert_eq!(
        lapse.text,
        "The challenge of Dame Dara to Sir Eoin lapses unanswered."
    );
    // Back to running time before the books are read again.
    tokio::time::resume();
    let lines = hub.handle(&say("evan", "/accept")).await;
    assert_eq!(
        lines,
        vec!["There is no challenge to accept here. Usage: /joust TARGET to issue one."]
    );
}

#[tokio::test]
async fn odds_answer_in_one_line() {
    let books = Books::new();
    let transcript =
        format!("{DARA_AND_EOIN}dana: /odds Eoin\ndana: /odds Eoin Dara\ndana: /odds Nobody\n");
    let run = run(&books.path(), &transcript).await;
    let odds: Vec<&str> = run
        .lines()
        .into_iter()
        .filter(|l| l.contains('%'))
        .collect();
    assert_eq!(odds.len(), 2, "{}", run.out);
    assert!(odds
        .iter()
        .all(|l| l.contains("Sir Eoin") && l.contains("Dame Dara")));
    run.expect("No knight or player named 'Nobody' here.");
}
