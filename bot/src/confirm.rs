//! Acts that cannot be undone wait for `/confirm` (R180): the question asked, kept per player
//! and realm until it is confirmed, replaced or lapses. Held by the [`crate::app::App`], put and
//! taken by the office.

use crate::command::Command;
use crate::store::Id;
use chrono::{DateTime, Utc};

/// How long a question waits for `/confirm`, by the session's clock (a transcript's `@clock`).
pub const CONFIRM_SECS: i64 = 60;

/// An act asked and awaiting its player's `/confirm`.
#[derive(Clone, Debug)]
pub(crate) struct Asked {
    /// The command that asked, answered again on `/confirm`.
    pub(crate) command: Command,
    /// The command as the player would type it again: "/ransom kill Alan".
    pub(crate) typed: String,
    /// The question as put: `/confirm` goes ahead only while the books still give the same one.
    pub(crate) question: String,
    /// When it was asked.
    pub(crate) at: DateTime<Utc>,
}

impl Asked {
    pub(crate) fn lapsed(&self, now: DateTime<Utc>) -> bool {
        now - self.at > chrono::Duration::seconds(CONFIRM_SECS)
    }
}

/// The acts awaiting `/confirm`, one per player and realm (R180). Kept in memory: nothing is
/// written until the player confirms, so a restart only drops the question. Other commands
/// leave a question open; it lapses after [`CONFIRM_SECS`], and a second question takes the
/// place of the first, saying so.
#[derive(Debug, Default)]
pub struct Confirmations(std::sync::Mutex<std::collections::HashMap<(Id, String), Asked>>);

impl Confirmations {
    fn map(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<(Id, String), Asked>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records `asked` for `user`; returns the question it replaces, if one was still open.
    pub(crate) fn put(
        &self,
        realm: Id,
        user: &str,
        asked: Asked,
        now: DateTime<Utc>,
    ) -> Option<Asked> {
        let mut map = self.map();
        map.retain(|_, a| !a.lapsed(now));
        map.insert((realm, user.to_string()), asked)
            .filter(|earlier| !earlier.lapsed(now))
    }

    /// The act `user` confirms now, taken from the open questions; or the one line that says
    /// why there is none: nothing asked, asked too long ago, or asked of someone else.
    pub(crate) fn take(&self, realm: Id, user: &str, now: DateTime<Utc>) -> Result<Asked, String> {
        let mut map = self.map();
        match map.remove(&(realm, user.to_string())) {
            Some(asked) if asked.lapsed(now) => Err(format!(
                "{user}, too late: {} was asked {}s ago, and a question waits {CONFIRM_SECS}s; nothing was done. To go ahead, ask again: {}",
                asked.typed,
                (now - asked.at).num_seconds(),
                asked.typed
            )),
            Some(asked) => Ok(asked),
            None => {
                let other = map
                    .iter()
                    .filter(|((r, _), a)| *r == realm && !a.lapsed(now))
                    .max_by_key(|((_, u), a)| (a.at, u.clone()));
                Err(match other {
                    Some(((_, asker), a)) => format!(
                        "{user}, nothing of yours awaits /confirm: {asker}'s {} waits for {asker}'s own /confirm.",
                        a.typed
                    ),
                    None => format!(
                        "{user}, nothing awaits your /confirm: it goes ahead, within {CONFIRM_SECS}s of the question, with hostility on your own lord or vassal, or /ransom kill."
                    ),
                })
            }
        }
    }
}
