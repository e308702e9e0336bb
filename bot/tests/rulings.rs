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
