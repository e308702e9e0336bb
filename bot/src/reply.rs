//! What every answer is made of: lines for the channel, and points as players read them. A leaf
//! of the crate: the modules that answer commands share it without importing one another.

/// What a command or a deadline answers: lines for the channel.
pub type Lines = Vec<String>;

/// Said when a change could not be written to the books; nothing was changed.
pub const UNWRITTEN: &str =
    "Herald could not write the books just now; nothing was changed. Please try again.";

/// Said when the books could not be read to answer.
pub const UNREAD: &str =
    "Herald could not read the books just now; nothing was changed. Please try again.";

/// The minus sign of every reply: the narration's U+2212, also for points below zero (players
/// may type either `-` or `−`).
pub const MINUS: char = '\u{2212}';

/// Half points as players read them: "1.5", "2", "−0.5".
pub fn points(halves: i64) -> String {
    let sign = if halves < 0 {
        MINUS.to_string()
    } else {
        String::new()
    };
    let abs = halves.unsigned_abs();
    if abs.is_multiple_of(2) {
        format!("{sign}{}", abs / 2)
    } else {
        format!("{sign}{}.5", abs / 2)
    }
}

/// "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
