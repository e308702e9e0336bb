//! History in chat (issue 15, item 11): `/fight N` sums up a fight of the books, `/fights
//! [NAME]` lists a knight's fights newest first, paged, the hint the real next command.

mod common;
use common::*;

// /fight N: who, when, kind, result, awards, seed (published once ended); /fights: newest first.
#[tokio::test]
async fn a_past_fight_summed_up_and_a_knights_fights_listed() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /fight 1
dana: /fights
dana: /joust evan
evan: /accept
dana: /fight 1
dana: /yield
evan: /yield
dana: /fight 1
evan: /fights Dara
evan: /fights Dara --page 2
dana: /fights Zed
dana: /fight 99
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("There is no fight #1 in the books.")
        .expect("Dame Dara has fought no fight yet.")
        .expect("Fight #1 (PsiKnight practice, #lists): Dara (dana) vs Eoin (evan), since 2026-12-01 10:00.")
        .expect("Result: still being fought.")
        .expect("(the seed is published when the fight ends)")
        .expect("Fight #1 (PsiKnight practice, #lists): Dara (dana) vs Eoin (evan), 2026-12-01 10:00 to 2026-12-01 10:00.")
        .expect("Result: Dara won (yield).")
        .expect("Awards: Dara +1 HP.")
        .expect("replay it with herald verify 1.")
        .expect("Fights of Dame Dara: 1 fight.")
        .expect("#1 2026-12-01 10:00 PsiKnight practice: Dara vs Eoin, Dara won (yield).")
        .expect("Dame Dara has 1 fight (1 page of 10); there is no page 2. The last: /fights Dara --page 1")
        .expect("No knight or player named 'Zed' here. Usage: /fights [NAME] [--page N]")
        .expect("There is no fight #99 in the books.");
}

/// Eleven practice fights of Dara and Eoin, each yielded at its first prompt.
fn eleven_fights() -> String {
    "dana: /joust evan\nevan: /accept\ndana: /yield\nevan: /yield\n".repeat(11)
}

// Over more than 10 fights, /fights shows the newest 10 and its hint is the real next command,
// with the name when one was given and without it when not; the next page shows the rest.
#[tokio::test]
async fn more_than_ten_fights_are_paged_and_the_hint_is_the_next_command() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{}\
evan: /fights Dara
dana: /fights
dana: /fights Dara --page 2
",
        eleven_fights()
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Fights of Dame Dara: 11 fights. Page 1 of 2, newest first.")
        .expect("#11 2026-12-01 10:00 PsiKnight practice: Dara vs Eoin, Eoin won (yield).")
        .expect("(1 fight earlier: /fights Dara --page 2)")
        .expect("(1 fight earlier: /fights --page 2)")
        .expect("Fights of Dame Dara: 11 fights. Page 2 of 2, newest first.");
    let lines = run.lines();
    let page = |header: usize| -> Vec<&str> {
        lines[header + 1..]
            .iter()
            .take_while(|l| l.contains("] #"))
            .copied()
            .collect()
    };
    let first = lines
        .iter()
        .position(|l| l.ends_with("Page 1 of 2, newest first."))
        .unwrap();
    let shown = page(first);
    assert_eq!(shown.len(), 10, "{}", run.out);
    assert!(
        shown[0].contains("] #11 ") && shown[9].contains("] #2 "),
        "{shown:?}"
    );
    let second = lines
        .iter()
        .position(|l| l.ends_with("Page 2 of 2, newest first."))
        .unwrap();
    let rest = page(second);
    assert_eq!(rest.len(), 1, "{}", run.out);
    assert!(rest[0].contains("] #1 "), "{rest:?}");
    assert!(!lines[second + 2].contains("earlier"), "{}", run.out);
}

// A fight of a Lists tournament is summed up as a match of its tournament, by number and name.
#[tokio::test]
async fn a_tournament_fight_is_summed_up_with_its_tournament() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
[#yard] mod: /tournament schedule \"Yule Lists\" 2026-12-01T11:00:00Z --channel #lists
dana: /enter
evan: /enter
@clock 2026-12-01T11:00:00Z
dana: /yield
evan: /yield
dana: /fight 1
dana: /fights Eoin
"
    );
    let run = run_with(
        &books.path(),
        "[permissions]\nmoderators = [\"mod\"]\n",
        &transcript,
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Fight #1 (PsiKnight Lists match of tournament #1 (Yule Lists), #lists): ")
        .expect("#1 2026-12-01 11:00 PsiKnight Lists match of tournament #1 (Yule Lists): ");
}

// A character of another game (The Tourney): /fight N sums up its bout, /fights NAME and
// /fights (the speaker's own) list its bouts, in a channel that plays The Tourney.
#[tokio::test]
async fn a_tourney_characters_bout_is_summed_up_and_listed() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5
[#tourney] ann: /fights
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
[#tourney] ann: /yield
[#tourney] bo: /fight 1
[#tourney] bo: /fights Ector
[#tourney] bo: /fights
[#tourney] bo: /fights Nobody
";
    let run = run_with(
        &books.path(),
        "[games.channels]\n\"#tourney\" = \"tourney\"\n",
        transcript,
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("[#tourney] Ector has fought no fight yet.")
        .expect("[#tourney] Fight #1 (The Tourney bout, #tourney): Ector (ann) vs Gimby (bo), 2026-12-01 10:00 to 2026-12-01 10:00.")
        .expect("[#tourney] Result: Gimby won (yielded).")
        .expect("[#tourney] Awards: none.")
        .expect("replay it with herald verify 1.")
        .expect("[#tourney] Fights of Ector: 1 fight.")
        .expect("[#tourney] Fights of Gimby: 1 fight.")
        .expect("[#tourney] #1 2026-12-01 10:00 The Tourney bout: Ector vs Gimby, Gimby won (yielded).")
        .expect("[#tourney] No character named 'Nobody' in this game here. Usage: /fights [NAME] [--page N]");
}
