//! `/rules [TOPIC]` through the real pipeline (issue 15, item 14): a checklist summed up in a
//! PsiKnight channel, a ruling quoted from docs/rulings.md, the channel's own game summed up in a
//! channel of The Tourney, and a topic that does not exist answered with the topics.

mod common;
use common::*;

const CONFIG: &str = r##"
[games.channels]
"#tourney" = "tourney"
"##;

#[tokio::test]
async fn rules_sum_up_the_channels_game() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
[#lists] ann: /rules
[#lists] ann: /rules joust
[#lists] ann: /rule R41
[#lists] ann: /rules chess
[#tourney] ann: /rules
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("/rules TOPIC sums up the rules: joust, swordplay, psi, bonus, knight, honor, nobility, ransom, tournament; /rules R26 shows one ruling.")
        // Joust steps 1-3, with R7's netting.
        .expect("1-3 Both roll Observe: one success earns +30 Bonus, two the lower roll +10")
        .expect("9-10 No fall in three passes ends the Joust (R27)")
        .expect("R41 Fighting on. After a practice Joust both are asked at once whether to go on to Swordplay")
        .expect("No rules topic 'chess'.")
        // T3 in the Tourney's channel, not PsiKnight's Joust.
        .expect("the attacker hits only above the defender's total, a tie is parried (T3)");
    let tourney: Vec<&str> = run
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("[#tourney]"))
        .collect();
    assert_eq!(tourney.len(), 5, "{tourney:?}");
    assert!(tourney.iter().all(|l| !l.contains("Joust")), "{tourney:?}");
    // Nothing was written: no knight, no fight.
    let store = books.store().await;
    let fights: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fights")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(fights, 0);
}
