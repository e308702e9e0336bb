//! Tournaments in chat (R34–R39): what anyone may ask anywhere (`/tournament`, `/enter`,
//! `/withdraw`, `/bracket`), what moderators schedule and cancel, and the state of a tournament in
//! progress that its channel's session keeps and saves.
//!
//! The rules are the engine's ([`herald_engine::psiknight::tournament`]); this module holds the
//! chat around them. A tournament is run by the session of the channel it is held in
//! (`crate::session`), one match at a time, with the usual prompts and timeouts.

use super::command::Schedule;
use crate::app::App;
use crate::reply::points;
use crate::reply::Lines;
use crate::store::tournaments::{Awarded, Entry, NewTournament, Status, TournamentRecord};
use crate::store::{Id, KnightRecord};
use anyhow::Result;
use chrono::{DateTime, Datelike, Utc};
use herald_engine::psiknight::tournament::{
    AwardReason, Lists, Melee, MeleePhase, Month, PassId, Scheduled,
};
use herald_engine::psiknight::PsiSkill;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// A tournament in progress, saved whole after every change.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunState {
    /// The Lists (R34–R36).
    pub lists: Lists,
    /// How far the tournament's draw dice have rolled (`SeededDice::at`).
    pub word_pos: u128,
    /// The Melee, once the Lists are over and one was scheduled.
    pub melee: Option<MeleeRun>,
    /// The psi power each knight has armed for their next match or pass (R21).
    #[serde(default)]
    pub armed: BTreeMap<Id, PsiSkill>,
}

/// The Melee of a tournament, from its muster to the first prize.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct MeleeRun {
    /// The Melee, once a moderator has named its sides (R37).
    pub melee: Option<Melee>,
    /// When time is called, once it has started.
    pub ends_at: Option<DateTime<Utc>>,
    /// Accepted passes, in the order accepted, fought here one at a time.
    pub queue: VecDeque<PassId>,
    /// Until when Herald waits for the moderators: to open and start the Melee while it
    /// musters, to name the first prize once it is over.
    pub wait_until: Option<DateTime<Utc>>,
}

impl RunState {
    /// The Melee, if it has been opened.
    pub fn melee(&self) -> Option<&Melee> {
        self.melee.as_ref().and_then(|m| m.melee.as_ref())
    }

    /// Whether every match and pass is fought and the first prize named or no longer awaited.
    pub fn stage(&self) -> Stage {
        if !self.lists.is_finished() {
            return Stage::Lists;
        }
        match &self.melee {
            None => Stage::Over,
            Some(run) => match &run.melee {
                None => Stage::Muster,
                Some(m) => match m.phase() {
                    MeleePhase::Mustering => Stage::Muster,
                    MeleePhase::Fighting | MeleePhase::TimeCalled => Stage::Melee,
                    MeleePhase::Ended(_)
                        if m.first_prize().is_none() && run.wait_until.is_some() =>
                    {
                        Stage::Prize
                    }
                    MeleePhase::Ended(_) => Stage::Over,
                },
            },
        }
    }
}

/// Where a tournament in progress stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Lists matches are being fought.
    Lists,
    /// The Lists are over; the Melee musters (sides named or not yet).
    Muster,
    /// Melee passes are being offered and fought.
    Melee,
    /// The Melee is over; the moderators may name its first prize.
    Prize,
    /// Everything is done: the awards are due.
    Over,
}

/// A time in the realm's zone, as players read it: "Sat 5 Dec 2026 18:00 UTC".
pub fn when(app: &App, realm: Id, at: DateTime<Utc>) -> String {
    at.with_timezone(&app.tz_of(realm))
        .format("%a %-d %b %Y %H:%M %Z")
        .to_string()
}

/// A span as players read it: "1 day", "1 hour 30 minutes", "45 seconds".
pub fn span(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3_600, secs % 3_600 / 60);
    let unit = |n: i64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(unit(d, "day"));
    }
    if h > 0 {
        parts.push(unit(h, "hour"));
    }
    if m > 0 && d == 0 {
        parts.push(unit(m, "minute"));
    }
    if parts.is_empty() {
        parts.push(unit(secs, "second"));
    }
    parts.join(" ")
}

/// What a tournament holds, in one phrase: "the Lists, then a Melee (one remount each, 30
/// minutes)".
pub fn format_of(melee: bool, remount: bool, minutes: u32) -> String {
    if melee {
        format!(
            "the Lists, then a Melee ({}, {minutes} minutes)",
            if remount {
                "one remount each"
            } else {
                "no remounts"
            },
        )
    } else {
        "the Lists".into()
    }
}

/// The month of `at` in the realm's time zone, for the one-a-month rule (R38).
fn month_of(app: &App, realm: Id, at: DateTime<Utc>) -> Option<Month> {
    let local = at.with_timezone(&app.tz_of(realm));
    Month::new(local.year(), u8::try_from(local.month()).ok()?).ok()
}

/// `/tournament schedule`: a moderator schedules a tournament (R38), held in `here` unless the
/// command names a channel.
pub async fn schedule(
    app: &App,
    realm: Id,
    user: &str,
    s: &Schedule,
    here: &str,
    now: DateTime<Utc>,
) -> Result<Lines> {
    let usage = "Usage: /tournament schedule NAME WHEN [--host HOST] [--channel #CHANNEL] [--melee] [--remount] [--melee-minutes N] [--force]";
    let tz = app.tz_of(realm);
    let Some(starts_at) = s.when.resolve(now, &tz) else {
        return Ok(vec![format!(
            "That time does not exist in the realm's time zone ({tz}): a daylight-saving change skips it. {usage}"
        )]);
    };
    if starts_at <= now {
        return Ok(vec![format!(
            "{} is already past; a tournament is scheduled for a time to come. {usage}",
            when(app, realm, starts_at)
        )]);
    }
    let name = s.name.trim();
    if name.is_empty() || name.chars().count() > 80 {
        return Ok(vec![format!(
            "A tournament's name has 1 to 80 characters. {usage}"
        )]);
    }
    if (s.remount || s.melee_minutes.is_some()) && !s.melee {
        return Ok(vec![format!(
            "--remount and --melee-minutes are settings of the Melee: add --melee. {usage}"
        )]);
    }
    let channel = s.channel.as_deref().map(str::trim).unwrap_or(here);
    if channel.is_empty() || channel.contains(char::is_whitespace) {
        return Ok(vec![format!("'{channel}' is not a channel. {usage}")]);
    }
    let Some(month) = month_of(app, realm, starts_at) else {
        return Ok(vec![format!("That date is out of range. {usage}")]);
    };
    let melee_minutes = s
        .melee_minutes
        .unwrap_or(app.config.tournaments.melee_minutes)
        .clamp(1, 1440);
    let seed = app.next_seed();
    let new = NewTournament {
        realm,
        name,
        channel,
        host: s.host.as_deref(),
        starts_at,
        month,
        melee: s.melee,
        remount: s.remount,
        melee_minutes,
        seed,
        by: user,
        at: now,
        force: s.force,
    };
    let (id, scheduled) = match app.store.schedule_tournament(new).await? {
        Ok(done) => done,
        Err(e) => {
            return Ok(vec![format!(
                "Not scheduled: {e}. Add --force to hold a second one (the override is logged)."
            )])
        }
    };
    let mut lines = vec![format!(
        "Tournament #{id}, {name}, is scheduled for {} in {channel}{}: {}. Knights, /enter to take part.",
        when(app, realm, starts_at),
        s.host
            .as_deref()
            .map(|h| format!(", hosted by {h}"))
            .unwrap_or_default(),
        format_of(s.melee, s.remount, melee_minutes)
    )];
    if let Scheduled::Overridden { month, existing } = scheduled {
        tracing::warn!(
            tournament = id,
            moderator = user,
            "one tournament a month overridden: {month} already had {existing}"
        );
        lines.push(format!(
            "Override logged: {month} already has {existing} tournament{} in this realm; {user} scheduled another (R38).",
            if existing == 1 { "" } else { "s" }
        ));
    }
    Ok(lines)
}

/// Display names of knights by id ("Dame Dara"), "knight #7" for one the books no longer hold.
pub async fn names(app: &App, ids: impl IntoIterator<Item = Id>) -> Result<HashMap<Id, String>> {
    let mut out = HashMap::new();
    for id in ids {
        if out.contains_key(&id) {
            continue;
        }
        let name = match app.store.knight(id).await? {
            Some(k) => k.styled(),
            None => format!("knight #{id}"),
        };
        out.insert(id, name);
    }
    Ok(out)
}

/// A name from a map made by [`names`].
pub fn name_of(names: &HashMap<Id, String>, id: Id) -> String {
    names
        .get(&id)
        .cloned()
        .unwrap_or_else(|| format!("knight #{id}"))
}

/// `/tournament`: what is scheduled or under way, when, where, and who has entered.
pub async fn show(app: &App, realm: Id, now: DateTime<Utc>) -> Result<Lines> {
    let active = app.store.active_tournaments(realm).await?;
    if active.is_empty() {
        return Ok(vec![
            "No tournament is scheduled. A moderator schedules one: /tournament schedule NAME WHEN"
                .into(),
        ]);
    }
    let mut lines = Vec::new();
    for t in active {
        let host = t
            .host
            .as_deref()
            .map(|h| format!(", hosted by {h}"))
            .unwrap_or_default();
        match t.status {
            Status::Running => {
                let state: Option<RunState> = t
                    .state
                    .as_deref()
                    .and_then(|s| serde_json::from_str(s).ok());
                let stage = match state.as_ref().map(RunState::stage) {
                    Some(Stage::Lists) => {
                        let round = state.as_ref().map_or(0, |s| s.lists.current_round());
                        format!("the Lists, round {round}; /bracket shows them")
                    }
                    Some(Stage::Muster) => "the Melee musters: /melee join SIDE".into(),
                    Some(Stage::Melee) => "the Melee: /pass KNIGHT to offer a pass".into(),
                    Some(Stage::Prize) | Some(Stage::Over) => {
                        "the Melee is over; the awards are coming".into()
                    }
                    None => "starting".into(),
                };
                lines.push(format!(
                    "{} (#{}) is under way in {}{host}: {stage}.",
                    t.name, t.id, t.channel
                ));
            }
            _ => {
                let entries = app.store.tournament_entries(t.id).await?;
                let names = names(app, entries.iter().copied()).await?;
                let entered = if entries.is_empty() {
                    "no one has entered yet".to_string()
                } else {
                    format!(
                        "entered ({}): {}",
                        entries.len(),
                        entries
                            .iter()
                            .map(|&k| name_of(&names, k))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                let due = (t.starts_at - now).num_seconds();
                // Past due and not begun: its channel is still busy with a fight or another
                // tournament, and it begins as soon as that ends.
                let starts = if due > 0 {
                    format!(
                        "begins {} (in {}) in {}",
                        when(app, realm, t.starts_at),
                        span(due),
                        t.channel
                    )
                } else {
                    format!(
                        "was due {} in {} and begins once the channel is free",
                        when(app, realm, t.starts_at),
                        t.channel
                    )
                };
                lines.push(format!(
                    "{} (#{}) {starts}{host}: {}; {entered}. /enter to take part.",
                    t.name,
                    t.id,
                    format_of(t.melee, t.remount, t.melee_minutes)
                ));
            }
        }
    }
    Ok(lines)
}

/// Whether `which` (`2`, `#2`, or a name in any case) names `t`.
pub(crate) fn names_tournament(t: &TournamentRecord, which: &str) -> bool {
    let which = which.trim();
    which.trim_start_matches('#').parse::<Id>().ok() == Some(t.id)
        || which.trim_matches('"').eq_ignore_ascii_case(&t.name)
}

/// "Yule Lists (#1, Sat 5 Dec 2026 18:00 UTC in #lists)", to tell scheduled tournaments apart.
fn describe(app: &App, t: &TournamentRecord) -> String {
    format!(
        "{} (#{}, {} in {})",
        t.name,
        t.id,
        when(app, t.realm, t.starts_at),
        t.channel
    )
}

/// Which scheduled tournament a command means.
enum Pick<'a> {
    /// This one.
    Found(&'a TournamentRecord),
    /// None is scheduled.
    NoneScheduled,
    /// Not one: the reply says why and how to name it.
    Refused(String),
}

/// The scheduled tournament among `active` that a command means: the one `which` names or, when
/// left out, the one `prefer` keeps if it keeps exactly one, else the only one scheduled.
fn pick<'a>(
    app: &App,
    active: &'a [TournamentRecord],
    which: Option<&str>,
    usage: &str,
    prefer: impl Fn(&TournamentRecord) -> bool,
) -> Pick<'a> {
    let scheduled: Vec<&TournamentRecord> = active
        .iter()
        .filter(|t| t.status == Status::Scheduled)
        .collect();
    let listed = || {
        scheduled
            .iter()
            .map(|t| describe(app, t))
            .collect::<Vec<_>>()
            .join("; ")
    };
    if let Some(which) = which {
        return match scheduled.iter().find(|t| names_tournament(t, which)) {
            Some(t) => Pick::Found(t),
            None if scheduled.is_empty() => Pick::Refused(format!(
                "No tournament named '{which}' is scheduled; none is. /tournament shows what is under way."
            )),
            None => Pick::Refused(format!(
                "No tournament named '{which}' is scheduled. Scheduled: {}. Usage: {usage}",
                listed()
            )),
        };
    }
    let preferred: Vec<&TournamentRecord> =
        scheduled.iter().copied().filter(|t| prefer(t)).collect();
    match (preferred.as_slice(), scheduled.as_slice()) {
        ([one], _) | ([], [one]) => Pick::Found(one),
        (_, []) => Pick::NoneScheduled,
        _ => Pick::Refused(format!(
            "{} tournaments are scheduled: {}. Say which, by number or name: {usage}",
            scheduled.len(),
            listed()
        )),
    }
}

/// `/enter [TOURNAMENT]`: enters the speaker's knight in a scheduled tournament: the one named,
/// else the one held in `channel`, else the only one.
pub async fn enter(
    app: &App,
    realm: Id,
    user: &str,
    which: Option<&str>,
    channel: &str,
    now: DateTime<Utc>,
) -> Result<Lines> {
    let Some(k) = app.store.knight_of(realm, user).await? else {
        return Ok(vec![format!(
            "{user}, you have no knight to enter. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH"
        )]);
    };
    let active = app.store.active_tournaments(realm).await?;
    let t = match pick(app, &active, which, "/enter TOURNAMENT", |t| {
        t.channel == channel
    }) {
        Pick::Found(t) => t,
        Pick::NoneScheduled => {
            return Ok(vec![
                "No tournament is taking entries. /tournament shows what is scheduled.".into(),
            ])
        }
        Pick::Refused(e) => return Ok(vec![e]),
    };
    if let Some(refusal) = super::office::fight_refusal(app, &k).await? {
        return Ok(vec![refusal]);
    }
    Ok(vec![
        match app.store.enter_tournament(t.id, k.id, user, now).await? {
            Entry::Entered => format!(
                "{} enters {}, which begins {} in {}.",
                k.styled(),
                t.name,
                when(app, realm, t.starts_at),
                t.channel
            ),
            Entry::Already => format!("{} has already entered {}.", k.styled(), t.name),
            Entry::Closed => format!("{} no longer takes entries: it has begun.", t.name),
        },
    ])
}

/// `/withdraw [TOURNAMENT]`: takes the speaker's knight out of a scheduled tournament: the one
/// named, else the one it has entered.
pub async fn withdraw(app: &App, realm: Id, user: &str, which: Option<&str>) -> Result<Lines> {
    let Some(k) = app.store.knight_of(realm, user).await? else {
        return Ok(vec![format!("{user}, you have no knight entered.")]);
    };
    let active = app.store.active_tournaments(realm).await?;
    let mut entered = Vec::new();
    for t in &active {
        if t.status == Status::Scheduled
            && app.store.tournament_entries(t.id).await?.contains(&k.id)
        {
            entered.push(t.id);
        }
    }
    let t = match pick(app, &active, which, "/withdraw TOURNAMENT", |t| {
        entered.contains(&t.id)
    }) {
        Pick::Found(t) => t,
        Pick::NoneScheduled => {
            return Ok(vec![
                "No tournament is taking entries, so there is nothing to withdraw from.".into(),
            ])
        }
        Pick::Refused(e) => return Ok(vec![e]),
    };
    Ok(vec![
        if app.store.withdraw_from_tournament(t.id, k.id).await? {
            format!("{} withdraws from {}.", k.styled(), t.name)
        } else {
            format!(
                "{} is not entered in {}. /enter to take part.",
                k.styled(),
                t.name
            )
        },
    ])
}

/// `/tournament cancel [TOURNAMENT]`: a moderator calls off a tournament that has not begun:
/// the one named, or the only one scheduled. Calling one off is never a guess.
pub async fn cancel(
    app: &App,
    realm: Id,
    user: &str,
    which: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Lines> {
    let active = app.store.active_tournaments(realm).await?;
    let running = active
        .iter()
        .find(|t| t.status == Status::Running && which.is_none_or(|w| names_tournament(t, w)));
    let under_way = |t: &TournamentRecord| {
        format!(
            "{} is already under way in {}; a tournament that has begun runs to its end.",
            t.name, t.channel
        )
    };
    let t = match pick(app, &active, which, "/tournament cancel TOURNAMENT", |_| {
        false
    }) {
        Pick::Found(t) => t,
        Pick::NoneScheduled => {
            return Ok(vec![match running {
                Some(t) => under_way(t),
                None => "No tournament is scheduled; there is nothing to cancel.".into(),
            }])
        }
        Pick::Refused(e) => {
            return Ok(vec![match (running, which) {
                (Some(t), Some(_)) => under_way(t),
                _ => e,
            }])
        }
    };
    if !app.store.cancel_tournament(t.id, user, now).await? {
        return Ok(vec![format!(
            "{} has just begun; a tournament that has begun runs to its end.",
            t.name
        )]);
    }
    tracing::info!(tournament = t.id, moderator = user, "tournament cancelled");
    Ok(vec![format!(
        "{} (#{}), due {} in {}, is cancelled by {user}.",
        t.name,
        t.id,
        when(app, t.realm, t.starts_at),
        t.channel
    )])
}

/// `/bracket`: the Lists of the tournament under way, or of the last one held.
pub async fn bracket(app: &App, realm: Id) -> Result<Lines> {
    let Some(t) = app.store.latest_tournament(realm).await? else {
        return Ok(vec![
            "No Lists have been drawn yet. /tournament shows what is scheduled.".into(),
        ]);
    };
    let Some(state) = t
        .state
        .as_deref()
        .and_then(|s| serde_json::from_str::<RunState>(s).ok())
    else {
        return Ok(vec![format!("The Lists of {} are not drawn yet.", t.name)]);
    };
    let names = names(app, state.lists.entrants().iter().copied()).await?;
    let mut lines = vec![format!("{}: the Lists", t.name)];
    lines.extend(
        state
            .lists
            .bracket_with(|k| name_of(&names, k))
            .lines()
            .map(str::to_string),
    );
    let page = crate::web::Linked::Tournament(t.id);
    lines.extend(crate::web::full_page(app, realm, page));
    Ok(lines)
}

/// The ledger reason of one award: "Yule Lists: champion (top three in the lists)".
pub fn award_reason(tournament: &str, reason: AwardReason, hp: u32) -> String {
    format!("{tournament}: {} ({hp} HP)", reason.describe())
}

/// Each knight's awards as written, one line each: "Dame Dara: 5 HP (2 matches …)".
pub fn award_lines(
    names: &HashMap<Id, String>,
    written: &[Awarded],
    reasons: &[(Id, u32, AwardReason)],
) -> Lines {
    let mut totals: BTreeMap<Id, (i64, i64)> = BTreeMap::new();
    let mut order = Vec::new();
    for a in written {
        let t = totals.entry(a.knight).or_insert_with(|| {
            order.push(a.knight);
            (0, 0)
        });
        t.0 += a.hp.halves();
        t.1 += a.pp.halves();
    }
    order
        .into_iter()
        .map(|k| {
            let (hp, pp) = totals.get(&k).copied().unwrap_or_default();
            let why: Vec<String> = reasons
                .iter()
                .filter(|(id, _, _)| *id == k)
                .map(|(_, n, r)| {
                    if *n == 1 {
                        r.describe().to_string()
                    } else {
                        format!("{} ({n})", r.describe())
                    }
                })
                .collect();
            let pp = if pp > 0 {
                format!(" + {} PP (landed, R29)", points(pp))
            } else {
                String::new()
            };
            format!(
                "{}: {} HP{pp} ({})",
                name_of(names, k),
                points(hp),
                why.join("; ")
            )
        })
        .collect()
}

/// Whether a knight can ride now; the reason if not (retired, R155; a major injury today, R12;
/// captivity, R33).
pub async fn unable(
    app: &App,
    realm: Id,
    k: &KnightRecord,
    now: DateTime<Utc>,
) -> Result<Option<String>> {
    if app.store.is_retired(k.id).await? {
        return Ok(Some(format!("{} has retired.", k.styled())));
    }
    if app.store.injured_on(k.id, &app.day_in(realm, now)).await? {
        return Ok(Some(format!(
            "{} is out with a major injury for the rest of the day (R12).",
            k.styled()
        )));
    }
    super::office::fight_refusal(app, k).await
}
