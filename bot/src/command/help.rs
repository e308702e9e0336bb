//! `/help` from the table, and the commands named in a reply written with the player's prefix.

use super::*;

/// Rewrites the commands that a line names with `/` (`/accept`, `(/nosweep)`) to `prefix`, for
/// transports whose players type another prefix (IRC's `!`). Only known command words at the
/// start of a word change: `1d100/2`, `and/or` and URLs stay as they are.
pub fn with_prefix(line: &str, prefix: char) -> String {
    with_prefix_where(line, prefix, |word| {
        COMMANDS
            .iter()
            .any(|spec| spec.path.first() == Some(&word) || spec.aliases.contains(&word))
    })
}

/// As [`with_prefix`], for the command words that `known` knows (every game's, on IRC).
pub fn with_prefix_where(line: &str, prefix: char, known: impl Fn(&str) -> bool) -> String {
    if prefix == '/' {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        if c == '/' && prev.is_none_or(|p| p.is_whitespace() || "([{,;:\"'".contains(p)) {
            let word: String = line[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let known = !word.is_empty() && known(&word);
            out.push(if known { prefix } else { c });
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// The reply to `/help`, one line each, with the player's prefix. No topic: one line per group
/// listing its commands. A topic (as [`Command::Help`] carries it: `roll`, `ransom`,
/// `knight create`): each matching command's usage and summary.
pub fn help(topic: Option<&str>, prefix: char) -> Vec<String> {
    let Some(topic) = topic else {
        let mut lines: Vec<String> = Group::ALL
            .iter()
            .map(|group| {
                let names: Vec<String> = COMMANDS
                    .iter()
                    .filter(|s| s.group == *group)
                    .map(|s| format!("{prefix}{}", s.name()))
                    .collect();
                format!("{}: {}", group.title(), names.join(", "))
            })
            .collect();
        lines.push(format!("{prefix}help COMMAND shows how to use one."));
        return lines;
    };
    let topic = help_topic(topic).unwrap_or_default();
    let lines: Vec<String> = COMMANDS
        .iter()
        .filter(|s| s.name() == topic || (!topic.contains(' ') && s.first_word() == topic))
        .map(|s| {
            format!(
                "{} — {}{}",
                with_prefix(s.usage, prefix),
                s.summary,
                s.access.note()
            )
        })
        .collect();
    if lines.is_empty() {
        return vec![format!("No such command. {prefix}help lists them all.")];
    }
    lines
}
