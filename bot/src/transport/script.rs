//! `herald script`: replays a transcript and prints the bot's replies, one line each, prefixed
//! with the channel; a line for the speaker alone (a psi skill armed) is prefixed
//! `[to NICK]` instead.
//!
//! Transcript lines: `[#channel] nick: text` (the channel defaults to `#lists`); `@clock
//! 2026-12-01T10:00:00Z` sets the clock; `@wait SECONDS` advances it, firing every timeout that
//! falls due; `@dice N N N` queues the next dice rolled; `#` starts a comment.

use super::LOCAL_REALM;
use crate::hub::{Hub, Incoming, Outgoing, Rights};
use anyhow::{bail, Context, Result};
use chrono::{DateTime, Duration, Utc};
use std::io::Write;

/// The channel of a line that names none.
pub const DEFAULT_CHANNEL: &str = "#lists";

/// One line of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Nothing to do: blank or a comment.
    Blank,
    /// `@clock`.
    Clock(DateTime<Utc>),
    /// `@wait`.
    Wait(u64),
    /// `@dice`.
    Dice(Vec<u32>),
    /// A chat line.
    Say {
        /// The channel.
        channel: String,
        /// The speaker.
        nick: String,
        /// The text.
        text: String,
    },
}

/// Parses one transcript line; an error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<Line> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Line::Blank);
    }
    if let Some(rest) = line.strip_prefix('@') {
        let mut words = rest.split_whitespace();
        let directive = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        return match directive {
            "clock" => {
                let [at] = args.as_slice() else {
                    bail!("@clock takes one RFC 3339 time, e.g. @clock 2026-12-01T10:00:00Z");
                };
                let at = DateTime::parse_from_rfc3339(at).with_context(|| {
                    format!("@clock: '{at}' is not an RFC 3339 time such as 2026-12-01T10:00:00Z")
                })?;
                Ok(Line::Clock(at.with_timezone(&Utc)))
            }
            "wait" => {
                let [secs] = args.as_slice() else {
                    bail!("@wait takes a number of seconds, e.g. @wait 120");
                };
                let secs: u64 = secs
                    .parse()
                    .with_context(|| format!("@wait: '{secs}' is not a whole number of seconds"))?;
                if secs > 10 * 366 * 24 * 3600 {
                    bail!("@wait: {secs} seconds is more than ten years");
                }
                Ok(Line::Wait(secs))
            }
            "dice" => {
                if args.is_empty() {
                    bail!("@dice takes one or more results, e.g. @dice 15 77 12");
                }
                let values = args
                    .iter()
                    .map(|a| match a.parse::<u32>() {
                        Ok(v) if v >= 1 => Ok(v),
                        _ => bail!("@dice: '{a}' is not a die result (a whole number from 1)"),
                    })
                    .collect::<Result<Vec<u32>>>()?;
                Ok(Line::Dice(values))
            }
            other => bail!("unknown directive @{other}; expected @clock, @wait or @dice"),
        };
    }
    let (channel, rest) = match line.strip_prefix('[') {
        Some(rest) => {
            let Some((channel, rest)) = rest.split_once(']') else {
                bail!("a line starting with '[' needs '[#channel] nick: text'");
            };
            (channel.trim().to_string(), rest.trim_start())
        }
        None => (DEFAULT_CHANNEL.to_string(), line),
    };
    if channel.is_empty() {
        bail!("empty channel name in '[...]'");
    }
    let Some((nick, text)) = rest.split_once(':') else {
        bail!("expected 'nick: text'");
    };
    let nick = nick.trim();
    if nick.is_empty() || nick.contains(char::is_whitespace) {
        bail!("expected 'nick: text' with a nick of one word");
    }
    Ok(Line::Say {
        channel,
        nick: nick.to_string(),
        text: text.trim().to_string(),
    })
}

/// Runs a transcript through `hub`, writing replies to `out`. Fights left open in the database
/// by an earlier run are restored before the first chat line or wait.
pub async fn run(hub: &Hub, transcript: &str, out: &mut impl Write) -> Result<()> {
    let mut restored = false;
    for (n, raw) in transcript.lines().enumerate() {
        let number = n + 1;
        let line = parse_line(raw).with_context(|| format!("transcript line {number}"))?;
        if !restored && matches!(line, Line::Say { .. } | Line::Wait(_)) {
            restored = true;
            print(out, &hub.restore(LOCAL_REALM).await?)?;
        }
        match line {
            Line::Blank => {}
            Line::Clock(at) => {
                if at > hub.clock().now() && restored {
                    print(out, &hub.advance(at).await)?;
                }
                hub.clock().set(at);
            }
            Line::Wait(secs) => {
                let to = hub.clock().now() + Duration::seconds(secs as i64);
                print(out, &hub.advance(to).await)?;
            }
            Line::Dice(values) => hub.app().queue.push(values),
            Line::Say {
                channel,
                nick,
                text,
            } => {
                let incoming = Incoming {
                    realm: LOCAL_REALM.to_string(),
                    channel: channel.clone(),
                    user: nick.clone(),
                    text,
                };
                let answer = hub.answer(&incoming, Rights::default()).await;
                for text in answer.lines {
                    writeln!(out, "[{channel}] {text}")?;
                }
                for text in answer.private {
                    writeln!(out, "[to {nick}] {text}")?;
                }
                print(out, &hub.take_notices())?;
            }
        }
        if let Some((value, sides)) = hub.app().queue.take_misfit() {
            bail!("transcript line {number}: @dice result {value} does not fit the d{sides} it was rolled for");
        }
    }
    let left = hub.app().queue.len();
    if left > 0 {
        tracing::warn!("{left} @dice result(s) were never rolled");
    }
    Ok(())
}

fn print(out: &mut impl Write, lines: &[Outgoing]) -> Result<()> {
    for o in lines {
        writeln!(out, "[{}] {}", o.channel, o.text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_lines_parse() {
        assert_eq!(parse_line("  # a comment").unwrap(), Line::Blank);
        assert_eq!(parse_line("@wait 120").unwrap(), Line::Wait(120));
        assert_eq!(
            parse_line("@dice 15 77 12").unwrap(),
            Line::Dice(vec![15, 77, 12])
        );
        assert_eq!(
            parse_line("[#yard] dana: /roll 100").unwrap(),
            Line::Say {
                channel: "#yard".into(),
                nick: "dana".into(),
                text: "/roll 100".into()
            }
        );
        assert_eq!(
            parse_line("evan: hello: there").unwrap(),
            Line::Say {
                channel: "#lists".into(),
                nick: "evan".into(),
                text: "hello: there".into()
            }
        );
    }

    #[test]
    fn malformed_directives_are_errors() {
        for bad in [
            "@dice 0",
            "@dice x",
            "@dice",
            "@wait -1",
            "@clock tomorrow",
            "@frobnicate",
            "no colon here",
            "[#x dana: hi",
        ] {
            assert!(parse_line(bad).is_err(), "{bad} should be an error");
        }
    }
}
