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
