//! The small ones of issue 15 (bug 7), each a line a player met: usage hints, numbers, time
//! zones, the ledger's author, names with a style, Melee pass numbers, the minus sign, and an
//! admin revoke that leaves Honor or Prestige below zero.

mod common;
use common::*;

const ADMINS: &str = "\
[permissions]
admins = [\"alice\"]
moderators = [\"mod\"]
";

const KNIGHTS: &str = "\
@clock 2026-12-01T10:00:00Z
alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn
brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
";

async fn say(transcript: &str) -> Run {
    let books = Books::new();
    let run = run_with(&books.path(), ADMINS, transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run
}

/// `/odds Zed` answers with /odds's usage, not /knight's.
#[tokio::test]
async fn odds_of_an_unknown_knight_shows_the_usage_of_odds() {
    let run = say(&format!("{KNIGHTS}alan: /odds Zed\n")).await;
    run.expect("Usage: /odds KNIGHT [KNIGHT]")
        .expect_not("Usage: /knight");
}

/// The hint says `in 2h`; quoted, it is one word and still a delay.
#[tokio::test]
async fn a_quoted_delay_schedules_a_tournament() {
    let run = say(&format!(
        "{KNIGHTS}mod: /tournament schedule Yule \"in 2h\"\n"
    ))
    .await;
    run.expect("Tournament #1, Yule, is scheduled for Tue 1 Dec 2026 12:00 UTC")
        .expect_not("is not a time");
}

/// A number too large is too large, with the bound, not "not a number".
#[tokio::test]
async fn an_award_too_large_says_so_with_the_bound() {
    let run = say(&format!(
        "{KNIGHTS}alice: /admin award Alan 999999999999 x\n"
    ))
    .await;
    run.expect("too large")
        .expect("1000000")
        .expect_not("is not");
}

/// "by adm" once: an entry whose reason already names its author is not signed twice.
#[tokio::test]
async fn the_ledger_names_an_author_once() {
    let run = say(&format!(
        "{KNIGHTS}alice: /admin rename Alan Alan the Bold\nalan: /ledger\n"
    ))
    .await;
    run.expect("renamed from Alan to Alan the Bold by alice")
        .expect_not("by alice, by alice");
}

/// A style typed into the name is the style, not part of the name: "Sir Lancelot" is dubbed
/// Sir Lancelot (named Lancelot), and the reply says the style was taken off. A style that
/// contradicts the knight's (`Dame` without `--dame`) is refused with the command to write.
#[tokio::test]
async fn a_style_in_the_name_is_taken_off_and_said() {
    let run = say("@clock 2026-12-01T10:00:00Z
lance: /knight create \"Sir Lancelot\" --top lance,shield,ride --psi cpk:40 --monarch llewellyn
gwen: /knight create \"Dame Gwen\" --top lance,shield,ride --psi cpk:40 --monarch llewellyn
")
    .await;
    run.expect("Sir Lancelot is dubbed")
        .expect("'Sir' is a style, not part of the name")
        .expect_not("Sir Sir")
        .expect("Cannot create that knight: 'Dame' is a style, not part of the name; a Dame is made with --dame");
}

/// One minus sign in replies: the narration's − (U+2212), also for points below zero.
#[tokio::test]
async fn negative_points_use_the_narrations_minus_sign() {
    let run = say(&format!(
        "{KNIGHTS}alice: /admin award Alan -2 a correction\nalan: /honor\nalan: /ledger\nalan: /standings\n"
    ))
    .await;
    run.expect("Sir Alan: −2 HP, 0 PP, unlanded.")
        .expect("−2 HP: a correction")
        .expect("now −2 HP, 0 PP")
        .expect("(alan): −2 HP");
    for line in run.lines() {
        assert!(
            !line.contains(" -2") && !line.contains("(-2"),
            "a hyphen for a minus: {line}"
        );
    }
}

/// An admin revoke that leaves Honor or Prestige below zero is allowed (the books stay true to what was
/// revoked), and the reply says so (README, "Admins").
#[tokio::test]
async fn a_revoke_leaving_a_balance_below_zero_says_so() {
    let run = say(&format!(
        "{KNIGHTS}alice: /admin award Alan 3 seed\nalan: /spend lance\nalice: /admin revoke 1\n"
    ))
    .await;
    run.expect("alice revokes entry #1")
        .expect("Sir Alan now has −2 HP, 0 PP: below zero in Honor. A revoke may leave a balance below zero")
        .expect_not("-2");
}
