//! Reply lines as Discord messages: one message per step (lines joined, not one per roll),
//! split under Discord's 2,000-character limit, mention syntax that came from players made
//! harmless, players named by id shown as mentions, and `allowed_mentions` that lets only the
//! players the message waits for be pinged.

use super::controls::{awaited_all, Awaited, Controls};
use serenity::all::{CreateAllowedMentions, UserId};

/// Discord's limit on a message's content, in UTF-16 code units (what Discord counts).
pub const MAX_CHARS: usize = 2000;

/// A zero-width space: placed inside `@everyone` or `<@…>` it keeps the text readable and makes
/// it no mention at all.
const BREAK: char = '\u{200B}';

/// One message to send.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Post {
    /// The text, under [`MAX_CHARS`].
    pub content: String,
    /// Buttons and menus (only on the last message of a reply).
    pub controls: Controls,
    /// The only users this message may ping: the players it waits for.
    pub pingable: Vec<UserId>,
}

impl Post {
    /// `allowed_mentions` for this message: no `@everyone`, no roles, no one parsed from the
    /// text; only [`Post::pingable`].
    pub fn allowed_mentions(&self) -> CreateAllowedMentions {
        allowed_mentions(&self.pingable)
    }
}

/// Mentions that ping only `users`: never `@everyone` or `@here`, never a role, never a user
/// the text happens to name.
pub fn allowed_mentions(users: &[UserId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .everyone(false)
        .all_users(false)
        .all_roles(false)
        .empty_roles()
        .users(users.iter().copied())
        .replied_user(false)
}

/// Makes mention syntax in text that came from players inert: `@everyone`, `@here`, and any
/// `<@…>` (users, roles) get a zero-width space, so a knight named `@everyone` or `<@&123>`
/// reads as written and pings no one even where `allowed_mentions` is not honoured.
pub fn neutralize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '<' && rest[1..].starts_with('@') {
            out.push('<');
            out.push(BREAK);
            rest = &rest[1..];
            continue;
        }
        if c == '@'
            && (starts_with_ci(&rest[1..], "everyone") || starts_with_ci(&rest[1..], "here"))
        {
            out.push('@');
            out.push(BREAK);
            rest = &rest[1..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn starts_with_ci(text: &str, word: &str) -> bool {
    text.get(..word.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(word))
}

/// Whether `word` looks like a Discord id (a snowflake: 15 to 21 digits).
fn is_snowflake(word: &str) -> bool {
    (15..=21).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit())
}

/// Shows players named by their Discord id as mentions: a whole word of 15 to 21 digits becomes
/// `<@id>`. Whether the mention pings is for `allowed_mentions` to say, not the text.
pub fn show_mentions(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut word_start: Option<usize> = None;
    let flush = |out: &mut String, text: &str, start: usize, end: usize| {
        let word = &text[start..end];
        let after_at = text[..start].ends_with(['@', '&', '#', '!']);
        if is_snowflake(word) && !after_at {
            out.push_str("<@");
            out.push_str(word);
            out.push('>');
        } else {
            out.push_str(word);
        }
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            word_start.get_or_insert(i);
            continue;
        }
        if let Some(start) = word_start.take() {
            flush(&mut out, text, start, i);
        }
        out.push(c);
    }
    if let Some(start) = word_start {
        flush(&mut out, text, start, text.len());
    }
    out
}

fn units(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Splits text into pieces of at most `max` UTF-16 units: between lines where it can, else at
/// the last space that fits, else between characters. No piece is empty.
pub fn split(text: &str, max: usize) -> Vec<String> {
    let max = max.max(2);
    let mut pieces = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let needed = units(line) + usize::from(!current.is_empty());
        if units(&current) + needed <= max {
            if !current.is_empty() {
                current.push('\n');
            }
            current.push_str(line);
            continue;
        }
        if !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
        let mut rest = line;
        while units(rest) > max {
            let (head, tail) = cut(rest, max);
            pieces.push(head.to_string());
            rest = tail;
        }
        current.push_str(rest);
    }
    if !current.trim().is_empty() {
        pieces.push(current);
    }
    pieces.retain(|p| !p.trim().is_empty());
    pieces
}

/// The longest head of `line` within `max` units, at a space when there is one, and the rest.
fn cut(line: &str, max: usize) -> (&str, &str) {
    let mut used = 0;
    let mut end = 0;
    let mut last_space = None;
    for (i, c) in line.char_indices() {
        if used + c.len_utf16() > max {
            break;
        }
        used += c.len_utf16();
        end = i + c.len_utf8();
        if c == ' ' && i > 0 {
            last_space = Some(i);
        }
    }
    match last_space {
        Some(s) => (&line[..s], &line[s + 1..]),
        None => (&line[..end], &line[end..]),
    }
}

/// Reply lines as the messages to send: joined into one message (split only past the limit),
/// with the controls for whoever the lines wait for on the last one.
pub fn compose(lines: &[String]) -> Vec<Post> {
    let waiting: Vec<Awaited> = lines
        .iter()
        .flat_map(|l| awaited_all(l))
        .filter(|a| !a.words.is_empty())
        .collect();
    let mut pingable: Vec<UserId> = Vec::new();
    for a in &waiting {
        if let Some(id) = a.user.parse::<u64>().ok().filter(|n| *n != 0) {
            let id = UserId::new(id);
            if !pingable.contains(&id) {
                pingable.push(id);
            }
        }
    }
    let text = lines
        .iter()
        .map(|l| show_mentions(&neutralize(l)))
        .collect::<Vec<_>>()
        .join("\n");
    let mut posts: Vec<Post> = split(&text, MAX_CHARS)
        .into_iter()
        .map(|content| Post {
            content,
            controls: Controls::default(),
            pingable: pingable.clone(),
        })
        .collect();
    if let Some(last) = posts.last_mut() {
        last.controls = Controls::for_awaited(&waiting);
    }
    posts
}

/// A whole chat message from a player, with user mentions (`<@123>`, `<@!123>`) turned into
/// the bare ids Herald knows players by, so `!joust <@123>` names the player 123.
pub fn plain_mentions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("<@") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 2..];
        let digits = after.strip_prefix('!').unwrap_or(after);
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if n > 0 && digits[n..].starts_with('>') {
            out.push_str(&digits[..n]);
            rest = &digits[n + 1..];
        } else {
            out.push_str("<@");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_here_and_role_mentions_are_made_inert() {
        assert_eq!(neutralize("@everyone"), "@\u{200B}everyone");
        assert_eq!(neutralize("hi @Here!"), "hi @\u{200B}Here!");
        assert_eq!(
            neutralize("<@&42> and <@7>"),
            "<\u{200B}@&42> and <\u{200B}@7>"
        );
        assert_eq!(neutralize("a@b.c, 5 < 6"), "a@b.c, 5 < 6");
        assert_eq!(neutralize("é<@"), "é<\u{200B}@");
    }

    #[test]
    fn ids_become_mentions_but_small_numbers_and_hex_do_not() {
        assert_eq!(
            show_mentions("Dame Dara (123456789012345678), strike"),
            "Dame Dara (<@123456789012345678>), strike"
        );
        assert_eq!(
            show_mentions("123456789012345678: /accept"),
            "<@123456789012345678>: /accept"
        );
        assert_eq!(show_mentions("rolls 1d100: 42"), "rolls 1d100: 42");
        let seed = "Dice seed: 0123456789012345678abc";
        assert_eq!(show_mentions(seed), seed);
        // What neutralize broke stays broken.
        let inert = neutralize("<@123456789012345678>");
        assert_eq!(show_mentions(&inert), inert);
    }

    #[test]
    fn allowed_mentions_name_only_the_awaited() {
        let json = serde_json::to_value(allowed_mentions(&[UserId::new(111)])).unwrap();
        assert_eq!(json["parse"], serde_json::json!([]));
        assert_eq!(json["roles"], serde_json::json!([]));
        assert_eq!(json["users"], serde_json::json!(["111"]));
        assert_eq!(json["replied_user"], false);
    }

    #[test]
    fn short_replies_are_one_message() {
        let lines: Vec<String> = (1..=20).map(|i| format!("Roll {i}: success.")).collect();
        let posts = compose(&lines);
        assert_eq!(posts.len(), 1);
        assert_eq!(posts[0].content.lines().count(), 20);
        assert!(posts[0].controls.is_empty());
        assert!(posts[0].pingable.is_empty());
    }

    #[test]
    fn long_replies_split_between_lines_under_the_limit() {
        let line = "x".repeat(150);
        let lines: Vec<String> = (0..30).map(|_| line.clone()).collect();
        let pieces = split(&lines.join("\n"), MAX_CHARS);
        assert_eq!(pieces.len(), 3);
        assert!(pieces.iter().all(|p| units(p) <= MAX_CHARS));
        // 13 lines of 150 and 12 newlines: 1,962 units.
        assert_eq!(pieces[0].lines().count(), 13);
        let total: usize = pieces.iter().map(|p| p.lines().count()).sum();
        assert_eq!(total, 30);
    }

    #[test]
    fn a_line_past_the_limit_is_cut_at_a_space_or_between_characters() {
        let words = "word ".repeat(500);
        let pieces = split(words.trim_end(), MAX_CHARS);
        assert!(pieces.len() >= 2);
        assert!(pieces.iter().all(|p| units(p) <= MAX_CHARS));
        assert!(pieces
            .iter()
            .all(|p| !p.starts_with(' ') && !p.ends_with(' ')));
        // No spaces, and characters of two UTF-16 units each.
        let emoji = "🛡".repeat(1500);
        let pieces = split(&emoji, MAX_CHARS);
        assert_eq!(pieces.len(), 2, "3,000 units");
        assert_eq!(units(&pieces[0]), 2000);
        assert!(pieces.iter().all(|p| units(p) <= MAX_CHARS));
        assert_eq!(pieces.concat(), emoji);
    }

    #[test]
    fn empty_replies_send_nothing() {
        assert!(split("", MAX_CHARS).is_empty());
        assert!(split("\n\n", MAX_CHARS).is_empty());
        assert!(compose(&[]).is_empty());
    }

    #[test]
    fn a_step_with_a_prompt_pings_that_fighter_only() {
        let lines = vec![
            "Sir Eoin (222222222222222222) does not sweep.".to_string(),
            "Dame Dara (111111111111111111), announce a sweep or not: /sweep, /nosweep, /yield (120s, then /nosweep).".to_string(),
        ];
        let posts = compose(&lines);
        assert_eq!(posts.len(), 1);
        let post = &posts[0];
        assert_eq!(post.pingable, vec![UserId::new(111111111111111111)]);
        assert!(post
            .content
            .contains("Dame Dara (<@111111111111111111>), announce"));
        assert!(post.content.contains("(<@222222222222222222>) does not"));
        assert_eq!(post.controls.rows.len(), 2);
    }

    #[test]
    fn an_injected_mention_pings_no_one() {
        let lines = vec![
            "No knight or player named '@everyone <@&42> <@99>' here. Usage: /knight [NAME]"
                .to_string(),
        ];
        let posts = compose(&lines);
        assert_eq!(posts.len(), 1);
        assert!(posts[0].pingable.is_empty());
        assert!(!posts[0].content.contains("@everyone"));
        assert!(!posts[0].content.contains("<@&"));
        assert!(!posts[0].content.contains("<@99>"));
        let json = serde_json::to_value(posts[0].allowed_mentions()).unwrap();
        assert_eq!(json["parse"], serde_json::json!([]));
        assert_eq!(json["users"], serde_json::json!([]));
    }

    #[test]
    fn controls_ride_on_the_last_piece() {
        let mut lines: Vec<String> = (0..30).map(|_| "y".repeat(150)).collect();
        lines.push(
            "Dame Dara (111111111111111111), strike: /high, /low, /yield (120s, then /high)."
                .into(),
        );
        let posts = compose(&lines);
        assert_eq!(posts.len(), 3);
        assert!(posts[0].controls.is_empty() && posts[1].controls.is_empty());
        assert!(!posts[2].controls.is_empty());
    }

    #[test]
    fn chat_mentions_become_bare_ids() {
        assert_eq!(plain_mentions("!joust <@123>"), "!joust 123");
        assert_eq!(plain_mentions("!joust <@!123> now"), "!joust 123 now");
        assert_eq!(plain_mentions("<@&5> <@x> <@"), "<@&5> <@x> <@");
    }
}
