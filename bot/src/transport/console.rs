//! `herald console`: an interactive local room on standard input and output. A line `nick: text`
//! speaks as `nick`; a line without a prefix speaks as the last speaker. A reply for the speaker
//! alone is shown `[to NICK] ...`.

use super::LOCAL_REALM;
use crate::hub::{Hub, Incoming, Outgoing, Rights};
use anyhow::Result;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

/// Splits `nick: text`; a line whose part before ':' is not one word is all text.
pub fn speaker(line: &str) -> (Option<&str>, &str) {
    match line.split_once(':') {
        Some((nick, text))
            if !nick.trim().is_empty()
                && !nick.trim().contains(char::is_whitespace)
                && !nick.trim().starts_with(['/', '!']) =>
        {
            (Some(nick.trim()), text.trim())
        }
        _ => (None, line.trim()),
    }
}

/// Runs the console room until standard input ends.
pub async fn run(
    hub: &Hub,
    channel: &str,
    first_nick: &str,
    mut timeouts: mpsc::UnboundedReceiver<Outgoing>,
) -> Result<()> {
    println!("Herald console, channel {channel}. Type 'nick: /help' to begin; Ctrl-D to leave.");
    for o in hub.restore(LOCAL_REALM).await? {
        println!("[{}] {}", o.channel, o.text);
    }
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut nick = first_nick.to_string();
    loop {
        tokio::select! {
            line = lines.next_line() => {
                let Some(line) = line? else { break };
                let (who, text) = speaker(&line);
                if let Some(who) = who {
                    nick = who.to_string();
                }
                if text.is_empty() {
                    continue;
                }
                let incoming = Incoming {
                    realm: LOCAL_REALM.to_string(),
                    channel: channel.to_string(),
                    user: nick.clone(),
                    text: text.to_string(),
                };
                let answer = hub.answer(&incoming, Rights::default()).await;
                for reply in answer.lines {
                    println!("[{channel}] {reply}");
                }
                // A line for the speaker alone (a psi skill armed, R21).
                for reply in answer.private {
                    println!("[to {nick}] {reply}");
                }
            }
            Some(o) = timeouts.recv() => println!("[{}] {}", o.channel, o.text),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_names_the_speaker() {
        assert_eq!(speaker("dana: /roll 100"), (Some("dana"), "/roll 100"));
        assert_eq!(speaker("/roll 100"), (None, "/roll 100"));
        assert_eq!(speaker("/joust evan: now"), (None, "/joust evan: now"));
        assert_eq!(
            speaker("hello there: friend"),
            (None, "hello there: friend")
        );
    }
}
