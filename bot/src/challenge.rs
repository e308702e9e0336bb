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

/// "A fight is on in #lists: Sir Ann vs Dame Bo. Wait for it to end, or challenge in another
/// channel.": a challenge refused while the channel's fight goes on.
pub fn fight_on(channel: &str, a: &str, b: &str) -> String {
    format!("A fight is on in {channel}: {a} vs {b}. Wait for it to end, or challenge in another channel.")
}

/// "Sir Ann has challenged Dame Bo here; wait for /accept or /decline.": a challenge refused
/// while another waits for its answer.
pub fn pending(challenger: &str, challenged: &str) -> String {
    format!("{challenger} has challenged {challenged} here; wait for /accept or /decline.")
}

/// "There is no challenge to accept here. Usage: /joust TARGET to issue one." `verb` is the
/// game's challenge command.
pub fn nothing_to_accept(verb: &str) -> String {
    format!("There is no challenge to accept here. Usage: /{verb} TARGET to issue one.")
}

/// "There is no fight in #lists to make a move in. Usage: /joust TARGET"
pub fn no_fight(channel: &str, verb: &str) -> String {
    format!("There is no fight in {channel} to make a move in. Usage: /{verb} TARGET")
}
