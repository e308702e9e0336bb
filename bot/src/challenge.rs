//! What a challenge says in every game: issued, declined, withdrawn, lapsed. Both tables (the
//! referee's and PsiKnight's) say these lines; a game names only the fight (`a practice
//! joust`, `a bout on foot`) and the fighters as it styles them.

/// "Sir Ann challenges Dame Bo to a practice joust! bo: /accept or /decline (300s)." `what`
/// is the fight; `answers` the player who must answer; `secs` the time they have.
pub fn issued(challenger: &str, challenged: &str, what: &str, answers: &str, secs: u64) -> String {
    format!(
        "{challenger} challenges {challenged} to {what}! {answers}: /accept or /decline ({secs}s)."
    )
}

/// "Dame Bo declines the challenge of Sir Ann."
pub fn declined(challenged: &str, challenger: &str) -> String {
    format!("{challenged} declines the challenge of {challenger}.")
}

/// "Sir Ann withdraws the challenge."
pub fn withdrawn(challenger: &str) -> String {
    format!("{challenger} withdraws the challenge.")
}

/// "The challenge of Sir Ann to Dame Bo lapses unanswered."
pub fn lapsed(challenger: &str, challenged: &str) -> String {
    format!("The challenge of {challenger} to {challenged} lapses unanswered.")
}
