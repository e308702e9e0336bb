//! History in chat: `/fight N` sums up a fight of the books in a few lines, `/fights [NAME]`
//! lists a knight's (or, in a channel of another game, a character's) fights, newest first,
//! paged like `/ledger`. Every game's fights share the one fights table, so both read any game.

use crate::app::App;
use crate::command::Command;
use crate::reply::and_list;
use crate::reply::Lines;
use crate::store::history::FightSummary;
use crate::store::Id;
use anyhow::Result;
use chrono::{DateTime, Utc};

/// The most fights one `/fights` reply lists; `--page N` reaches the rest.
pub const FIGHTS_LINES: usize = 10;

/// Whether this module answers `command`.
pub fn handles(command: &Command) -> bool {
    matches!(command, Command::Fight { .. } | Command::Fights { .. })
}

/// Answers `/fight N` and `/fights [NAME]` in a channel that plays `game` (a game's id): a name
/// is a PsiKnight knight in a PsiKnight channel, else a character of the channel's game.
pub async fn handle(
    app: &App,
    realm: Id,
    game: &str,
    user: &str,
    command: Command,
) -> Result<Lines> {
    match command {
        Command::Fight { id } => fight(app, realm, Id::from(id)).await,
        Command::Fights { name, page } => {
            fights(app, realm, game, user, name.as_deref(), page.unwrap_or(1)).await
        }
        _ => Ok(Vec::new()),
    }
}

/// A time of the books in realm `realm`'s time zone, to the minute.
fn when(app: &App, realm: Id, at: &str) -> String {
    match DateTime::parse_from_rfc3339(at) {
        Ok(t) => t
            .with_timezone(&Utc)
            .with_timezone(&app.tz_of(realm))
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        Err(_) => at.to_string(),
    }
}

/// "PsiKnight practice", "PsiKnight Lists match of tournament #2 (Yule Lists)", "The Tourney bout".
fn kind(f: &FightSummary) -> String {
    let game = crate::games::find(&f.game).map_or(f.game.as_str(), |g| g.name);
    let what = match f.kind.as_str() {
        "lists" => "Lists match",
        "melee" => "Melee pass",
        other => other,
    };
    match &f.tournament {
        Some((id, name)) => format!("{game} {what} of tournament #{id} ({name})"),
        None => format!("{game} {what}"),
    }
}

/// How the fight came out, in a few words, with `winner` named as its winner (a side of
/// several, or the books' one).
fn result(f: &FightSummary, winner: Option<&str>) -> String {
    let how = f
        .reason
        .as_deref()
        .map(|r| format!(" ({})", r.replace('_', " ")))
        .unwrap_or_default();
    match (&f.ended_at, winner) {
        (None, _) => "still being fought".to_string(),
        (Some(_), Some(w)) => format!("{w} won{how}"),
        (Some(_), None) => format!("a draw{how}"),
    }
}

async fn fight(app: &App, realm: Id, id: Id) -> Result<Lines> {
    let Some(f) = app.store.fight_summary(realm, id).await? else {
        return Ok(vec![format!(
            "There is no fight #{id} in the books. /fights NAME lists a knight's fights with their numbers."
        )]);
    };
    let [a, b] = &f.fighters;
    let [pa, pb] = &f.players;
    // A group fight names every creature of each side, and its winning side whole.
    let sides = app.store.fight_sides(f.id).await?;
    let (who, winner) = if sides[0].is_empty() {
        (format!("{a} ({pa}) vs {b} ({pb})"), f.winner.clone())
    } else {
        let named = |side: &[(String, String)]| {
            and_list(
                &side
                    .iter()
                    .map(|(name, player)| format!("{name} ({player})"))
                    .collect::<Vec<_>>(),
            )
        };
        let winners = f
            .winner
            .as_ref()
            .and_then(|w| {
                sides
                    .iter()
                    .find(|s| s.first().is_some_and(|(n, _)| n == w))
            })
            .map(|s| and_list(&s.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
        let who = format!("{} vs {}", named(&sides[0]), named(&sides[1]));
        (who, winners.or_else(|| f.winner.clone()))
    };
    let won = result(&f, winner.as_deref());
    let span = match &f.ended_at {
        Some(end) => format!(
            "{} to {}",
            when(app, realm, &f.started_at),
            when(app, realm, end)
        ),
        None => format!("since {}", when(app, realm, &f.started_at)),
    };
    let recorded = match (f.kind.as_str(), f.recorded) {
        ("practice", false) => ", not recorded (R26)",
        _ => "",
    };
    let mut lines = vec![
        format!(
            "Fight #{} ({}{recorded}, {}): {who}, {span}.",
            f.id,
            kind(&f),
            f.channel
        ),
        format!("Result: {won}."),
    ];
    if f.ended_at.is_some() {
        let awards = app.store.fight_awards(f.id).await?;
        lines.push(if awards.is_empty() {
            "Awards: none.".to_string()
        } else {
            let each: Vec<String> = awards
                .iter()
                .map(|w| {
                    let mut s = format!("{} {} HP", w.knight, signed(w.hp_halves));
                    if w.pp_halves != 0 {
                        s.push_str(&format!(", {} PP", signed(w.pp_halves)));
                    }
                    s
                })
                .collect();
            format!("Awards: {}.", each.join("; "))
        });
    }
    lines.push(match &f.seed {
        Some(seed) => format!(
            "Seed {seed} (SHA-256 {}); replay it with herald verify {}.",
            f.seed_hash, f.id
        ),
        None => format!(
            "Seed hash {} (the seed is published when the fight ends).",
            f.seed_hash
        ),
    });
    lines.extend(crate::web::full_page(
        app,
        realm,
        crate::web::Linked::Fight(f.id),
    ));
    Ok(lines)
}

/// Points with their sign, as the ledger shows them: "+1", "−0.5".
fn signed(halves: i64) -> String {
    let p = crate::reply::points(halves);
    if halves >= 0 {
        format!("+{p}")
    } else {
        p
    }
}

/// One page of a fighter's fights for `/fights`: the rows, how many there are in all, and the
/// fighter's name as shown; or the one line that says why there is none to list.
pub type FightsPage = std::result::Result<(Vec<FightSummary>, i64, String), String>;

/// [`crate::games::GameInfo::fights_of`]: the fights of the speaker's (or the named) fighter of
/// a game in a realm, `limit` of them from `offset`, newest first.
pub type FightsOf = for<'a> fn(
    &'a App,
    Id,
    &'a str,
    &'a str,
    Option<&'a str>,
    i64,
    i64,
) -> futures::future::BoxFuture<'a, Result<FightsPage>>;

/// [`FightsOf`] of a game whose fighters are characters (the games on the seam): the speaker's
/// or the named character of game `game`.
pub fn of_character<'a>(
    app: &'a App,
    realm: Id,
    game: &'a str,
    user: &'a str,
    name: Option<&'a str>,
    offset: i64,
    limit: i64,
) -> futures::future::BoxFuture<'a, Result<FightsPage>> {
    Box::pin(async move {
        let found = match name {
            None => app.store.character_of(realm, game, user).await?,
            Some(n) => app.store.character_named(realm, game, n).await?,
        };
        let c = match (found, name) {
            (Some(c), _) => c,
            (None, None) => {
                return Ok(Err(format!(
                    "{user}, you have no character in this game yet: /fights NAME lists another's fights."
                )))
            }
            (None, Some(n)) => {
                return Ok(Err(format!(
                    "No character named '{n}' in this game here. Usage: /fights [NAME] [--page N]"
                )))
            }
        };
        let (rows, total) = app.store.fights_of_character(c.id, offset, limit).await?;
        Ok(Ok((rows, total, c.name)))
    })
}

async fn fights(
    app: &App,
    realm: Id,
    game: &str,
    user: &str,
    name: Option<&str>,
    page: u32,
) -> Result<Lines> {
    let page = usize::try_from(page).unwrap_or(usize::MAX).max(1);
    let offset = i64::try_from((page - 1).saturating_mul(FIGHTS_LINES)).unwrap_or(i64::MAX);
    let limit = FIGHTS_LINES as i64;
    let fights_of = crate::games::find(game).map_or(of_character as FightsOf, |g| g.fights_of);
    let (rows, total, shown) = match fights_of(app, realm, game, user, name, offset, limit).await? {
        Ok(found) => found,
        Err(line) => return Ok(vec![line]),
    };
    let total = usize::try_from(total).unwrap_or(0);
    let count = |n: usize| format!("{n} fight{}", if n == 1 { "" } else { "s" });
    if total == 0 {
        return Ok(vec![format!("{shown} has fought no fight yet.")]);
    }
    let pages = total.div_ceil(FIGHTS_LINES);
    // The command that shows another page, as the player would type it.
    let command = |p: usize| match name {
        Some(n) => format!("/fights {n} --page {p}"),
        None => format!("/fights --page {p}"),
    };
    if page > pages {
        return Ok(vec![format!(
            "{shown} has {} ({pages} page{} of {FIGHTS_LINES}); there is no page {page}. The last: {}",
            count(total),
            if pages == 1 { "" } else { "s" },
            command(pages)
        )]);
    }
    let of_pages = if pages > 1 {
        format!(" Page {page} of {pages}, newest first.")
    } else {
        String::new()
    };
    let mut lines = vec![format!("Fights of {shown}: {}.{of_pages}", count(total))];
    for f in &rows {
        let [a, b] = &f.fighters;
        lines.push(format!(
            "#{} {} {}: {a} vs {b}, {}.",
            f.id,
            when(app, realm, &f.started_at),
            kind(f),
            result(f, f.winner.as_deref())
        ));
    }
    let earlier = total.saturating_sub(offset as usize + rows.len());
    if earlier > 0 {
        lines.push(format!(
            "({} earlier: {})",
            count(earlier),
            command(page + 1)
        ));
    }
    lines.push("/fight N sums up one.".to_string());
    Ok(lines)
}
