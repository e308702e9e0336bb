//! The herald's desk: PsiKnight's commands that are not a move in a fight. Knights, Honor,
//! odds; the books between fights go to the [`office`](super::office).

use super::command::PsiCommand;
use super::resolve::{Found, Miss};
use crate::app::App;
use crate::command::Command;
pub use crate::reply::{points, Lines, MINUS};
use crate::store::{Balance, Id, KnightRecord, StoreError};
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::{MatchKind, NewKnight, Style};

/// Handles a command that needs no fight.
pub async fn handle(
    app: &App,
    realm: Id,
    user: &str,
    command: Command,
    now: DateTime<Utc>,
) -> Result<Lines> {
    match command {
        Command::Rules { topic } => Ok(super::rules::answer(topic.as_deref())),
        Command::Odds { knight, other } => odds(app, realm, user, &knight, other.as_deref()).await,
        c if crate::history::handles(&c) => {
            crate::history::handle(app, realm, crate::games::PSIKNIGHT.id, user, c).await
        }
        other => match PsiCommand::of(&other) {
            Some(own) => knights(app, realm, user, own.clone(), now).await,
            None => Ok(not_yet(&other)),
        },
    }
}

/// "Not available": a command this version does not answer here.
fn not_yet(command: &Command) -> Lines {
    vec![format!(
        "/{} is not available yet in this version of Herald. See /help for what is.",
        command.name()
    )]
}

/// PsiKnight's own commands of the desk: knights and their Honor; the books go to the office.
async fn knights(
    app: &App,
    realm: Id,
    user: &str,
    command: PsiCommand,
    now: DateTime<Utc>,
) -> Result<Lines> {
    match command {
        PsiCommand::CreateKnight(choices) => create(app, realm, user, choices.into(), now).await,
        PsiCommand::Knight { name } => {
            let found = match find(app, realm, user, name.as_deref(), "/knight").await? {
                Ok(found) => found,
                // A knight killed or retired: the sheet as it stood, marked so (R171).
                Err(miss @ super::resolve::Miss::Gone { .. }) => {
                    let super::resolve::Miss::Gone { knight, .. } = &miss else {
                        unreachable!("matched above")
                    };
                    let balance = app.store.balance(knight.id).await?;
                    return Ok(vec![format!(
                        "{} [{}; the name stays with {} in the books, R171]",
                        sheet(knight, balance),
                        miss.how().unwrap_or_default(),
                        them(knight.sheet.style)
                    )]);
                }
                Err(miss) => return Ok(vec![not_found(user, &miss, "/knight [NAME]")]),
            };
            let balance = app.store.balance(found.knight.id).await?;
            let mut lines = noted(found.note, sheet(&found.knight, balance));
            lines.push(super::picture::knight_standing(app, realm, &found.knight, now).await?);
            Ok(lines)
        }
        PsiCommand::Honor { name } => {
            let found = match find(app, realm, user, name.as_deref(), "/honor").await? {
                Ok(found) => found,
                Err(miss) => return Ok(vec![not_found(user, &miss, "/honor [NAME]")]),
            };
            let balance = app.store.balance(found.knight.id).await?;
            Ok(noted(found.note, honor(&found.knight, balance)))
        }
        c if super::office::handles(&c) => Ok(super::office::handle(app, realm, user, c, now)
            .await?
            .unwrap_or_default()),
        other => Ok(not_yet(&other.into())),
    }
}

/// A style typed as the name's first word ("Sir Lancelot"): taken off, since Herald adds the
/// style itself, when it is the knight's own; refused when it contradicts it ("Dame" without
/// `--dame`). `Ok(Some(word))` names the style taken off.
fn without_style(choices: &mut NewKnight) -> Result<Option<&'static str>, String> {
    let name = choices.name.trim();
    let Some((first, rest)) = name.split_once(char::is_whitespace) else {
        return Ok(None);
    };
    let (word, style) = if first.eq_ignore_ascii_case("sir") {
        ("Sir", Style::Sir)
    } else if first.eq_ignore_ascii_case("dame") {
        ("Dame", Style::Dame)
    } else {
        return Ok(None);
    };
    if style != choices.style {
        return Err(format!(
            "Cannot create that knight: '{word}' is a style, not part of the name; a Dame is made with --dame, a Sir without it. Write /knight create \"{}\" ...{}",
            rest.trim(),
            if style == Style::Dame { " --dame" } else { "" }
        ));
    }
    choices.name = rest.trim().to_string();
    Ok(Some(word))
}

async fn create(
    app: &App,
    realm: Id,
    user: &str,
    mut choices: NewKnight,
    now: DateTime<Utc>,
) -> Result<Lines> {
    let style_taken_off = match without_style(&mut choices) {
        Ok(word) => word,
        Err(line) => return Ok(vec![line]),
    };
    let sheet = match choices.create() {
        Ok(sheet) => sheet,
        Err(e) => {
            return Ok(vec![format!(
                "Cannot create that knight: {e} (R3). Usage: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N[,SKILL:N...] --monarch MONARCH [--dame]"
            )])
        }
    };
    // R170, R171: a name is unique without case or accents, and stays with a knight who is
    // gone.
    if let Some(line) =
        super::resolve::name_refusal(app, realm, &sheet.name, "Cannot create that knight").await?
    {
        return Ok(vec![line]);
    }
    match app.store.create_knight(realm, user, &sheet, now).await {
        Ok(k) => Ok(vec![format!(
            "{} is dubbed, sworn to {}. {}{}",
            k.styled(),
            k.sheet.monarch.full_name(),
            skills_line(&k),
            match style_taken_off {
                Some(word) => format!(
                    " ('{word}' is a style, not part of the name: Herald adds it; the name is {}.)",
                    k.sheet.name
                ),
                None => String::new(),
            }
        )]),
        Err(e @ (StoreError::NameTaken(_) | StoreError::HasKnight(_))) => {
            Ok(vec![format!("Cannot create that knight: {e}.")])
        }
        Err(StoreError::Db(e)) => Err(e.into()),
    }
}

/// The knight a command names (R170), or the speaker's own when it names none.
async fn find(
    app: &App,
    realm: Id,
    user: &str,
    name: Option<&str>,
    command: &str,
) -> Result<Result<Found, Miss>> {
    match name {
        None => Ok(match app.store.knight_of(realm, user).await? {
            Some(knight) => Ok(Found { knight, note: None }),
            None => Err(Miss::Nobody(String::new())),
        }),
        Some(n) => super::resolve::knight(app, realm, n, command).await,
    }
}

/// The reply, after the line that says which knight a name meant, if it named two.
fn noted(note: Option<String>, line: String) -> Lines {
    note.into_iter().chain(std::iter::once(line)).collect()
}

fn not_found(user: &str, miss: &Miss, usage: &str) -> String {
    match miss {
        Miss::Nobody(typed) if typed.is_empty() => format!("{user}, you have no knight yet. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH"),
        miss => miss.line(usage),
    }
}

fn them(style: Style) -> &'static str {
    match style {
        Style::Sir => "him",
        Style::Dame => "her",
    }
}

fn skills_line(k: &KnightRecord) -> String {
    let fighting: Vec<String> = k
        .sheet
        .skills()
        .map(|(s, v)| format!("{} {v}", s.title()))
        .collect();
    let psi: Vec<String> = k
        .sheet
        .psi_skills()
        .map(|(s, v)| format!("{} {v}", s.title()))
        .collect();
    format!("{}; psi: {}.", fighting.join(", "), psi.join(", "))
}

fn sheet(k: &KnightRecord, b: Balance) -> String {
    format!(
        "{} ({}), sworn to {}: {} {}",
        k.styled(),
        k.owner,
        k.sheet.monarch.full_name(),
        skills_line(k),
        standing(k, b)
    )
}

fn standing(k: &KnightRecord, b: Balance) -> String {
    format!(
        "{} HP, {} PP, {}.",
        points(b.hp_halves),
        points(b.pp_halves),
        if k.landed { "landed" } else { "unlanded" }
    )
}

fn honor(k: &KnightRecord, b: Balance) -> String {
    format!("{}: {}", k.styled(), standing(k, b))
}

const ODDS_USAGE: &str = "/odds KNIGHT [KNIGHT]";

/// `/odds KNIGHT [KNIGHT]`: a quick Monte-Carlo estimate with the default policy (small enough to
/// answer within a second), run off the async threads.
async fn odds(
    app: &App,
    realm: Id,
    user: &str,
    first: &str,
    second: Option<&str>,
) -> Result<Lines> {
    let a = match find(app, realm, user, Some(first), "/odds").await? {
        Ok(found) => found,
        Err(miss) => return Ok(vec![not_found(user, &miss, ODDS_USAGE)]),
    };
    let b = match find(app, realm, user, second, "/odds").await? {
        Ok(found) => found,
        Err(miss) => return Ok(vec![not_found(user, &miss, ODDS_USAGE)]),
    };
    let notes: Vec<String> = [a.note, b.note].into_iter().flatten().collect();
    let (a, b) = (a.knight, b.knight);
    if a.id == b.id {
        return Ok(vec![format!(
            "Name two different knights. Usage: {ODDS_USAGE}"
        )]);
    }
    let seed_bytes = app.next_seed();
    let seed = u64::from_le_bytes(seed_bytes[..8].try_into().unwrap_or([0; 8]));
    let (sa, sb) = (a.sheet.clone(), b.sheet.clone());
    let odds = tokio::task::spawn_blocking(move || {
        super::simulate::odds(
            &sa,
            &sb,
            crate::simulate::CHAT_FIGHTS,
            seed,
            MatchKind::Practice,
        )
    })
    .await?;
    Ok(notes
        .into_iter()
        .chain(std::iter::once(odds.summary(&a.styled(), &b.styled())))
        .collect())
}

/// `/roll`: anyone, any time; the `@dice` queue first, then fresh dice from the realm's stream.
/// [`crate::games::GameInfo::fights_of`]: a knight's fights for `/fights`, the speaker's or the
/// one named (R170's resolver; the dead and the retired keep their history, R171).
pub fn fights_of<'a>(
    app: &'a App,
    realm: Id,
    _game: &'a str,
    user: &'a str,
    name: Option<&'a str>,
    offset: i64,
    limit: i64,
) -> futures::future::BoxFuture<'a, Result<crate::history::FightsPage>> {
    Box::pin(async move {
        let found = match name {
            None => app
                .store
                .knight_of(realm, user)
                .await?
                .ok_or_else(|| Miss::Nobody(String::new())),
            Some(n) => super::resolve::knight(app, realm, n, "/fights")
                .await?
                .map(|f| f.knight),
        };
        let knight = match found {
            Ok(k) => k,
            Err(Miss::Gone { knight, .. }) => *knight,
            Err(Miss::Nobody(typed)) if typed.is_empty() => {
                return Ok(Err(format!(
                    "{user}, you have no knight yet: /fights NAME lists another knight's fights."
                )))
            }
            Err(miss) => return Ok(Err(miss.line("/fights [NAME] [--page N]"))),
        };
        let (rows, total) = app.store.fights_of_knight(knight.id, offset, limit).await?;
        Ok(Ok((rows, total, knight.styled())))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_read_as_numbers() {
        assert_eq!(points(0), "0");
        assert_eq!(points(2), "1");
        assert_eq!(points(3), "1.5");
        assert_eq!(points(-1), "\u{2212}0.5");
        assert_eq!(points(-3), "\u{2212}1.5");
    }
}
