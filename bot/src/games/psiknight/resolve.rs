//! One way to name a knight, for every command that names one (`/joust`, `/knight`, `/honor`,
//! `/odds`, `/ledger`, `/grant`, `/swear`, `/ransom`, `/admin`, ...): the project's ruling R170.
//!
//! - `@nick` (or a Discord mention `<@id>`) always means the player: their active knight.
//! - Otherwise a knight's name comes first, then a player's nick. Names are matched without
//!   regard to case or accents (`eowyn` finds "Éowyn"); an exact match of the letters as written
//!   wins over a folded one. A name written with its style or title, as replies write it ("Sir
//!   Bors", "Baroness Brenna"), names the knight too.
//! - When the word is both a knight's name and another player's nick, the knight is meant, and
//!   the reply says so and how to name the other: "bob is both ann's knight Bob and player bob
//!   (Berit): this means Bob; for Berit write /joust Berit or /joust @bob."
//! - A knight killed or retired is not found as a living one; the miss says what became of them
//!   (R171), and `/knight NAME` shows their sheet marked so.

use crate::app::App;
use crate::store::{Gone, Id, KnightRecord};
use anyhow::Result;
use chrono::{DateTime, Utc};

/// A knight found, with the line that says which was meant when the word named two.
#[derive(Clone, Debug)]
pub struct Found {
    /// The knight.
    pub knight: KnightRecord,
    /// Said before the reply when the word was also another player's nick.
    pub note: Option<String>,
}

/// Why no living knight was found.
#[derive(Clone, Debug)]
pub enum Miss {
    /// No knight or player by that name.
    Nobody(String),
    /// The name of a knight who is no longer in the lists: killed or retired (R171).
    Gone {
        /// The word as typed.
        typed: String,
        /// The knight as the books last held them.
        knight: Box<KnightRecord>,
        /// How they left.
        gone: Gone,
        /// The realm day they left, if known.
        day: Option<String>,
    },
    /// A folded name that matches several knights ("Eowyn" and "Éowyn").
    Several(String, Vec<String>),
}

impl Miss {
    /// One line saying what was not found, and how to say it right.
    pub fn line(&self, usage: &str) -> String {
        match self {
            Miss::Nobody(typed) => {
                format!("No knight or player named '{typed}' here. Usage: {usage}")
            }
            Miss::Gone { knight, .. } => format!(
                "{} is no longer in the lists: {}. /knight {} shows the sheet. Usage: {usage}",
                knight.styled(),
                self.how().unwrap_or_default(),
                knight.sheet.name
            ),
            Miss::Several(typed, names) => format!(
                "'{typed}' matches several knights: {}; write the name with its accents. Usage: {usage}",
                names.join(", ")
            ),
        }
    }

    /// "killed on 2026-12-03 (R33)", "retired on 2026-12-03 (R155)".
    pub fn how(&self) -> Option<String> {
        let Miss::Gone { gone, day, .. } = self else {
            return None;
        };
        let on = day.as_ref().map(|d| format!(" on {d}")).unwrap_or_default();
        Some(match gone {
            Gone::Killed(_) => format!("killed{on} (R33)"),
            Gone::Retired(_) => format!("retired{on} (R155)"),
        })
    }
}

pub use herald_engine::name::fold;

/// The player a word names on its own: `@nick`, `<@id>`, `<@!id>`.
fn player_word(typed: &str) -> Option<&str> {
    if let Some(inner) = typed.strip_prefix("<@").and_then(|t| t.strip_suffix('>')) {
        let inner = inner.trim_start_matches('!');
        return (!inner.is_empty()).then_some(inner);
    }
    typed.strip_prefix('@').filter(|n| !n.is_empty())
}

/// The styles and titles Herald writes before a name: "Sir Bors", "Baroness Brenna" name the
/// knight too, when no knight's name itself begins so.
const TITLES: &[&str] = &[
    "sir",
    "dame",
    "baron",
    "baroness",
    "viscount",
    "viscountess",
    "earl",
    "countess",
    "duke",
    "duchess",
];

/// The knights whose names fold to the word's: the active ones, and the gone ones. A word that
/// names no one as written is tried again without a leading style or title.
async fn by_name(app: &App, realm: Id, typed: &str) -> Result<(Vec<Id>, Vec<Id>)> {
    let found = by_name_as_written(app, realm, typed).await?;
    if !found.0.is_empty() || !found.1.is_empty() {
        return Ok(found);
    }
    match typed.trim().split_once(char::is_whitespace) {
        Some((title, rest)) if TITLES.contains(&fold(title).as_str()) => {
            by_name_as_written(app, realm, rest).await
        }
        _ => Ok(found),
    }
}

async fn by_name_as_written(app: &App, realm: Id, typed: &str) -> Result<(Vec<Id>, Vec<Id>)> {
    let key = fold(typed);
    let exact = typed.to_lowercase();
    let names = app.store.knight_candidates(realm, &key).await?;
    let matching: Vec<&(Id, String, bool)> =
        names.iter().filter(|(_, n, _)| fold(n) == key).collect();
    let pick = |active: bool| -> Vec<Id> {
        let all: Vec<&&(Id, String, bool)> =
            matching.iter().filter(|(_, _, a)| *a == active).collect();
        // The letters as written win over a folded match.
        match all.iter().find(|(_, n, _)| n.to_lowercase() == exact) {
            Some((id, _, _)) => vec![*id],
            None => all.iter().map(|(id, _, _)| *id).collect(),
        }
    };
    Ok((pick(true), pick(false)))
}

/// The living knight that `typed` names, by R170; `command` (`/joust`) is used in the line that
/// says which was meant when the word names two.
pub async fn knight(
    app: &App,
    realm: Id,
    typed: &str,
    command: &str,
) -> Result<Result<Found, Miss>> {
    let typed = typed.trim();
    let store = &app.store;
    if let Some(nick) = player_word(typed) {
        return Ok(match store.knight_of(realm, nick).await? {
            Some(knight) => Ok(Found { knight, note: None }),
            None => Err(Miss::Nobody(typed.to_string())),
        });
    }
    let (active, gone) = by_name(app, realm, typed).await?;
    let by_nick = store.knight_of(realm, typed).await?;
    match active.as_slice() {
        [id] => {
            let Some(knight) = store.knight(*id).await? else {
                return Ok(Err(Miss::Nobody(typed.to_string())));
            };
            let note = by_nick.filter(|other| other.id != knight.id).map(|other| {
                format!(
                    "{typed} is both {}'s knight {} and player {typed} ({}): this means {}; for {} write {command} {} or {command} @{typed}.",
                    knight.owner,
                    knight.sheet.name,
                    other.sheet.name,
                    knight.sheet.name,
                    other.sheet.name,
                    other.sheet.name
                )
            });
            Ok(Ok(Found { knight, note }))
        }
        [] => {
            if let Some(knight) = by_nick {
                return Ok(Ok(Found { knight, note: None }));
            }
            match gone.last() {
                Some(id) => Ok(Err(gone_miss(app, realm, typed, *id).await?)),
                None => Ok(Err(Miss::Nobody(typed.to_string()))),
            }
        }
        several => {
            let mut names = Vec::new();
            for id in several {
                if let Some(k) = store.knight(*id).await? {
                    names.push(k.styled());
                }
            }
            Ok(Err(Miss::Several(typed.to_string(), names)))
        }
    }
}

/// The miss for a knight who is gone, with the realm day they left.
async fn gone_miss(app: &App, realm: Id, typed: &str, id: Id) -> Result<Miss> {
    let Some(knight) = app.store.knight(id).await? else {
        return Ok(Miss::Nobody(typed.to_string()));
    };
    let Some(gone) = app.store.knight_gone(id).await? else {
        return Ok(Miss::Nobody(typed.to_string()));
    };
    let at = match &gone {
        Gone::Killed(at) => Some(at.clone()),
        Gone::Retired(at) => at.clone(),
    };
    let day = at
        .and_then(|at| DateTime::parse_from_rfc3339(&at).ok())
        .map(|t| app.day_in(realm, t.with_timezone(&Utc)));
    Ok(Miss::Gone {
        typed: typed.to_string(),
        knight: Box::new(knight),
        gone,
        day,
    })
}

/// A knight gone from the lists whose name folds to `name`'s, if any: the refusal of a new knight
/// or a rename to that name says what became of them (R171).
pub async fn gone_named(app: &App, realm: Id, name: &str) -> Result<Option<Miss>> {
    let (_, gone) = by_name(app, realm, name).await?;
    match gone.last() {
        Some(id) => Ok(Some(gone_miss(app, realm, name, *id).await?)),
        None => Ok(None),
    }
}

/// A living knight whose name folds to `name`'s (the same letters but for case and accents):
/// names are unique that way (R170), so a new knight or a rename to it is refused.
pub async fn living_named(app: &App, realm: Id, name: &str) -> Result<Option<KnightRecord>> {
    let (active, _) = by_name(app, realm, name).await?;
    match active.first() {
        Some(id) => app.store.knight(*id).await,
        None => Ok(None),
    }
}

/// Why `name` cannot be a new knight's (or a new name), if it cannot: a living knight has it
/// but for case or accents (R170), or a knight killed or retired keeps it (R171).
pub async fn name_refusal(app: &App, realm: Id, name: &str, what: &str) -> Result<Option<String>> {
    if let Some(gone) = gone_named(app, realm, name).await? {
        if let Miss::Gone { knight, .. } = &gone {
            return Ok(Some(format!(
                "{what}: {} is the name of {}, {}; a knight's name stays with them in the books and is not free again (R171). Choose another name.",
                name,
                knight.styled(),
                gone.how().unwrap_or_default()
            )));
        }
    }
    // The same letters as written are the store's own refusal; only a folded match is said here.
    if let Some(k) = living_named(app, realm, name)
        .await?
        .filter(|k| k.sheet.name.to_lowercase() != name.to_lowercase())
    {
        return Ok(Some(format!(
            "{what}: there is already a knight named {} in this realm; names are the same without regard to case or accents (R170).",
            k.sheet.name
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    // R170: names are compared without case or accents.
    #[test]
    fn r170_names_fold_case_and_accents() {
        assert_eq!(fold("Éowyn"), "eowyn");
        assert_eq!(fold("  Sir   Bors "), "sir bors");
        assert_eq!(fold("Þórr"), "thorr");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(player_word("@bob"), Some("bob"));
        assert_eq!(player_word("<@!42>"), Some("42"));
        assert_eq!(player_word("bob"), None);
    }
}
