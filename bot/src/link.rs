//! `/link` and `/unlink`: one player's accounts on several platforms (an IRC nick, a Discord
//! user) joined, so that the knight and every game's characters of the first are the player's
//! on both. Every answer goes to the speaker alone: the code must reach only its asker, and a
//! link names accounts. They belong to no game; the hub answers them before the channel's
//! session, from the speaker's own account (not the one it plays as); the lines are the
//! speaker's alone.

use crate::app::App;
use crate::reply::Lines;
use crate::store::links::LinkRefused;
use crate::store::Id;
use anyhow::Result;
use chrono::{DateTime, Duration, Utc};

/// How long a code is good for.
pub const VALID_MINUTES: i64 = 10;

/// The letters of a code: no 0/O, 1/I to misread.
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

fn code_from(seed: &[u8]) -> String {
    seed.iter()
        .take(6)
        .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
        .collect()
}

/// The answer, for the speaker alone (the hub sends it privately).
fn private(line: String) -> Lines {
    vec![line]
}

/// `/link [CODE]` by `user` (as the transport names it) at `now`.
pub async fn link(
    app: &App,
    realm: Id,
    user: &str,
    code: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Lines> {
    let store = &app.store;
    let Some(code) = code else {
        if let Some(to) = store.linked_to(realm, user).await? {
            return Ok(private(format!(
                "This account is linked to {to} already: ask for a code there, or /unlink first."
            )));
        }
        let expires = now + Duration::minutes(VALID_MINUTES);
        // A code the realm has had already is drawn again (one in a billion).
        for _ in 0..8 {
            let code = code_from(&app.next_seed());
            if store.new_link_code(realm, user, &code, expires).await? {
                return Ok(private(format!(
                    "Your link code is {code}, good until {} UTC ({VALID_MINUTES} minutes): type /link {code} on your other account, on IRC or Discord, and its knight and characters are this account's. Keep it to yourself.",
                    expires.format("%H:%M")
                )));
            }
        }
        anyhow::bail!("no free link code after 8 draws");
    };
    let code = code.trim().to_uppercase();
    let answer = match store.use_link_code(realm, user, &code, now).await? {
        Ok(account) => {
            let knight = match store.knight_of(realm, &account).await? {
                Some(k) => format!(" (the knight {})", k.sheet.name),
                None => String::new(),
            };
            format!(
                "Linked: this account now plays as {account}{knight}, with its characters in every game. /unlink undoes it; characters stay with the account that made them."
            )
        }
        Err(LinkRefused::Unknown) => format!(
            "No link code {code} here: type /link on your other account for one, then /link CODE here."
        ),
        Err(LinkRefused::Expired) => format!(
            "The link code {code} has expired ({VALID_MINUTES} minutes): type /link on your other account for a new one."
        ),
        Err(LinkRefused::Used) => format!(
            "The link code {code} was used already: type /link on your other account for a new one."
        ),
        Err(LinkRefused::Own) => format!(
            "{code} is this account's own code: type /link {code} on your other account."
        ),
        Err(LinkRefused::Linked(to)) => format!(
            "This account is linked to {to} already: /unlink first, then /link {code}."
        ),
        Err(LinkRefused::HasMembers(members)) => format!(
            "{} linked to this account: /unlink first, then /link {code}.",
            match members.as_slice() {
                [one] => format!("{one} is"),
                many => format!("{} are", many.join(", ")),
            }
        ),
        Err(LinkRefused::Chained(to)) => format!(
            "The account that asked for {code} is linked to {to} now: ask for a code on {to}'s side."
        ),
    };
    Ok(private(answer))
}

/// `/unlink` by `user`: its link to an account, or every account's link to it.
pub async fn unlink(app: &App, realm: Id, user: &str) -> Result<Lines> {
    let links = app.store.unlink(realm, user).await?;
    if links.is_empty() {
        return Ok(private(
            "This account is linked to no other: /link gives a code to join one.".into(),
        ));
    }
    let names: Vec<String> = links
        .iter()
        .map(|(member, account)| {
            if member == user {
                account.clone()
            } else {
                member.clone()
            }
        })
        .collect();
    Ok(private(format!(
        "Unlinked from {}. Characters stay with the account that made them: each account plays its own again.",
        names.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_six_unmistakable_letters_and_digits() {
        let code = code_from(&[0, 31, 8, 40, 255, 7, 9]);
        assert_eq!(code, "A9JJ9H");
        assert!(code.chars().all(|c| !"01IO".contains(c)));
    }
}
