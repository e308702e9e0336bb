//! The tournaments held in a PsiKnight channel (R34–R39): reminders before the start, the start
//! on time, the Lists one match at a time, the Melee from its muster to its first prize, and the
//! awards, all in the channel with the usual prompts and timeouts.
//!
//! The state of a tournament under way is the engine's [`Lists`] and [`Melee`] in a
//! [`RunState`], saved whole after every change; a match's result is saved with the end of the
//! fight that decided it (one transaction), so a restart carries on from the last committed fight.

use super::command::PsiCommand;
use super::tournament::{
    self as chat, award_reason, name_of, span, when, MeleeRun, RunState, Stage,
};
use super::{Lines, Terms, Tiltyard};
use crate::dice::FightDice;
use crate::live::SORRY;
use crate::store::tournaments::{Status, TournamentAward, TournamentFinish, TournamentRecord};
use crate::store::{FightEnd, Id, KnightRecord};
use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::tournament::{
    EndReason, Lists, ListsResult, Melee, MeleePhase, MeleeSide, PassResult, Recorded, Unhorsed,
};
use herald_engine::psiknight::{MatchKind, Outcome, Side};
use std::collections::HashMap;

/// A tournament held in this channel.
pub(super) struct Held {
    pub(super) record: TournamentRecord,
    /// Reminders already said, as seconds before the start.
    reminded: Vec<u64>,
    /// The state once it is under way.
    run: Option<RunState>,
    /// Display names of the knights taking part.
    names: HashMap<Id, String>,
    /// Their players.
    owners: HashMap<Id, String>,
    /// When to try again to start a match whose knight is still fighting elsewhere.
    retry_at: Option<DateTime<Utc>>,
}

/// A match's result, computed before the fight's end is written and taken once it is.
pub(super) struct Next {
    tournament: Id,
    run: RunState,
    lines: Lines,
    /// Knights out of the tournament with this result.
    out: Vec<Id>,
}

/// Whether a command is a tournament's.
pub(super) fn handles(c: &PsiCommand) -> bool {
    matches!(
        c,
        PsiCommand::Tournament
            | PsiCommand::TournamentSchedule(_)
            | PsiCommand::TournamentStart { .. }
            | PsiCommand::TournamentCancel { .. }
            | PsiCommand::Enter { .. }
            | PsiCommand::Withdraw { .. }
            | PsiCommand::Bracket
            | PsiCommand::MeleeOpen { .. }
            | PsiCommand::MeleeJoin { .. }
            | PsiCommand::MeleeStart
            | PsiCommand::MeleeTime
            | PsiCommand::Pass { .. }
            | PsiCommand::MeleePrize { .. }
    )
}

/// Engine messages name knights as "knight #7"; players read names.
fn named(message: String, names: &HashMap<Id, String>) -> String {
    let mut out = message;
    for (id, name) in names {
        out = out.replace(&format!("knight #{id}"), name);
    }
    out
}

/// A Lists match's result from the engine's outcome: the winner goes on; each knight whose
/// opponent fell unhorsed them (R35, R36).
fn lists_result(knights: [Id; 2], outcome: &Outcome) -> ListsResult {
    let mut result = match outcome.winner {
        Some(w) => ListsResult::won(knights[w.index()], knights[w.other().index()]),
        None => ListsResult::both_out(knights[0], knights[1]),
    };
    for side in Side::BOTH {
        if outcome.unhorsed[side.other().index()] {
            result = result.with_unhorsing(knights[side.index()]);
        }
    }
    result
}

/// A Melee pass's result from the engine's outcome (R37, R136).
fn pass_result(knights: [Id; 2], outcome: &Outcome) -> PassResult {
    let mut result = match outcome.unhorsed {
        [false, false] => PassResult::neither(),
        [true, false] => PassResult::unhorsed(knights[0]),
        [false, true] => PassResult::unhorsed(knights[1]),
        [true, true] => PassResult::both(),
    };
    for side in Side::BOTH {
        if outcome.unhorsed[side.index()] && outcome.major_injury[side.index()] {
            result = result.with_major_injury(knights[side.index()]);
        }
    }
    result
}

fn list(names: &HashMap<Id, String>, ids: &[Id]) -> String {
    ids.iter()
        .map(|&k| name_of(names, k))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Round 2: Dame Dara vs Sir Eoin; Sir Finn sits out (R34)."
fn round_line(lists: &Lists, names: &HashMap<Id, String>) -> String {
    let pairs: Vec<String> = lists
        .pairings()
        .iter()
        .map(|&(a, b)| format!("{} vs {}", name_of(names, a), name_of(names, b)))
        .collect();
    let mut line = format!("Round {}: {}", lists.current_round(), pairs.join("; "));
    if let Some(b) = lists.bye() {
        line.push_str(&format!(
            "; {} sits out this round (R34)",
            name_of(names, b)
        ));
    }
    line.push('.');
    line
}

/// The Lists' placings in one line: "Champion: Dame Cara; finalist: ...".
fn placings(lists: &Lists, names: &HashMap<Id, String>) -> String {
    let mut parts = Vec::new();
    match lists.champion() {
        Some(c) => parts.push(format!("Champion: {}", name_of(names, c))),
        None => parts.push("No champion: the final had no winner".into()),
    }
    for (one, many, ids) in [
        ("finalist", "finalists", lists.finalists()),
        ("semi-finalist", "semi-finalists", lists.semi_finalists()),
    ] {
        if !ids.is_empty() {
            let word = if ids.len() == 1 { one } else { many };
            parts.push(format!("{word}: {}", list(names, &ids)));
        }
    }
    parts.join("; ")
}

impl Held {
    fn new(record: TournamentRecord, reminded: Vec<u64>) -> Held {
        Held {
            record,
            reminded,
            run: None,
            names: HashMap::new(),
            owners: HashMap::new(),
            retry_at: None,
        }
    }

    fn remember(&mut self, k: &KnightRecord) {
        self.names.insert(k.id, k.styled());
        self.owners.insert(k.id, k.owner.clone());
    }

    /// Reminders due by `now` and not yet said.
    fn due_reminders(&self, leads: &[u64], now: DateTime<Utc>) -> Vec<u64> {
        leads
            .iter()
            .copied()
            .filter(|&lead| self.reminder_pending(lead).is_some_and(|at| at <= now))
            .collect()
    }

    /// When the reminder `lead` seconds before the start falls due, if it is still to be said:
    /// not said yet, and due after the tournament was scheduled (R166; one due the moment it
    /// was scheduled would only repeat the announcement).
    fn reminder_pending(&self, lead: u64) -> Option<DateTime<Utc>> {
        let at = self.reminder_at(lead);
        (!self.reminded.contains(&lead) && at > self.record.scheduled_at).then_some(at)
    }

    fn reminder_at(&self, lead: u64) -> DateTime<Utc> {
        self.record.starts_at
            - Duration::seconds(
                i64::try_from(lead)
                    .unwrap_or(i64::MAX / 2)
                    .min(10 * 366 * 86_400),
            )
    }
}

impl Tiltyard {
    /// The tournament under way here, if any.
    pub(super) fn running(&self) -> Option<&Held> {
        self.held.list.iter().find(|h| h.run.is_some())
    }

    fn running_index(&self) -> Option<usize> {
        self.held.list.iter().position(|h| h.run.is_some())
    }

    /// When a tournament here next needs [`Tiltyard::on_tournament_deadline`].
    pub(super) fn tournament_deadline(&self) -> Option<DateTime<Utc>> {
        let leads = &self.app.config.tournaments.reminder_secs;
        let busy = self.fight.is_some();
        let running = self.running().is_some();
        let mut due: Option<DateTime<Utc>> = None;
        let mut consider = |at: Option<DateTime<Utc>>| {
            if let Some(at) = at {
                due = Some(due.map_or(at, |d| d.min(at)));
            }
        };
        for h in &self.held.list {
            let mut consider = |at: Option<DateTime<Utc>>| {
                consider(at.map(|a| self.held.pause.map_or(a, |p| a.max(p))));
            };
            match &h.run {
                None => {
                    for &lead in leads {
                        consider(h.reminder_pending(lead));
                    }
                    // The start waits for a fight here, or another tournament here, to end.
                    if !busy && !running {
                        consider(Some(h.record.starts_at));
                    }
                }
                Some(run) => {
                    if !busy {
                        consider(h.retry_at);
                    }
                    if let Some(m) = &run.melee {
                        let fighting = m
                            .melee
                            .as_ref()
                            .is_some_and(|m| *m.phase() == MeleePhase::Fighting);
                        if fighting {
                            consider(m.ends_at);
                        }
                        if matches!(run.stage(), Stage::Muster | Stage::Prize) {
                            consider(m.wait_until);
                        }
                    }
                }
            }
        }
        due
    }

    /// A line for `/status` when no fight is on here.
    pub(super) fn tournament_status(&self, now: DateTime<Utc>) -> Option<String> {
        if let Some(h) = self.running() {
            let run = h.run.as_ref()?;
            return Some(match run.stage() {
                Stage::Lists => format!(
                    "{} is under way here: Lists round {}, the next match starts shortly. /bracket shows the Lists.",
                    h.record.name,
                    run.lists.current_round()
                ),
                Stage::Muster => match run.melee() {
                    None => format!(
                        "{}: the Lists are over; waiting for a moderator to open the Melee: /melee open SIDE SIDE.",
                        h.record.name
                    ),
                    Some(m) => format!(
                        "{}: the Melee musters ({} {}, {} {}): /melee join SIDE; a moderator starts it with /melee start.",
                        h.record.name,
                        m.side_name(MeleeSide::First),
                        m.knights().iter().filter(|k| k.side == MeleeSide::First).count(),
                        m.side_name(MeleeSide::Second),
                        m.knights().iter().filter(|k| k.side == MeleeSide::Second).count(),
                    ),
                },
                Stage::Melee => {
                    let m = run.melee()?;
                    let left = run
                        .melee
                        .as_ref()
                        .and_then(|r| r.ends_at)
                        .map(|e| span((e - now).num_seconds()))
                        .unwrap_or_default();
                    format!(
                        "{}: the Melee is on, {} mounted for the {}, {} for the {}; time is called in {left}. /pass KNIGHT to offer a pass.",
                        h.record.name,
                        m.mounted(MeleeSide::First),
                        m.side_name(MeleeSide::First),
                        m.mounted(MeleeSide::Second),
                        m.side_name(MeleeSide::Second),
                    )
                }
                Stage::Prize | Stage::Over => format!(
                    "{}: the Melee is over; waiting for a moderator to name its first prize: /melee prize KNIGHT.",
                    h.record.name
                ),
            });
        }
        let h = self.held.list.first()?;
        Some(format!(
            "No fight here now. {} begins here {} (in {}); /enter to take part.",
            h.record.name,
            when(&self.app, self.realm, h.record.starts_at),
            span((h.record.starts_at - now).num_seconds())
        ))
    }

    /// Loads the tournaments held in this channel from the books: after a schedule (saying so
    /// when `announce`), and at start-up, when a tournament under way carries on where it stood.
    pub async fn reload_tournaments(
        &mut self,
        announce: bool,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let mine: Vec<TournamentRecord> = self
            .app
            .store
            .active_tournaments(self.realm)
            .await?
            .into_iter()
            .filter(|t| t.channel == self.channel)
            .collect();
        let mut lines = Vec::new();
        self.held
            .list
            .retain(|h| mine.iter().any(|t| t.id == h.record.id));
        for t in mine {
            if self.held.list.iter().any(|h| h.record.id == t.id) {
                continue;
            }
            let reminded = self.app.store.reminders_sent(t.id).await?;
            let mut held = Held::new(t, reminded);
            if held.record.status == Status::Running {
                let run: RunState = serde_json::from_str(
                    held.record.state.as_deref().unwrap_or(""),
                )
                .map_err(|e| {
                    anyhow::anyhow!("tournament #{} cannot be restored: {e}", held.record.id)
                })?;
                let mut ids: Vec<Id> = run.lists.entrants().to_vec();
                if let Some(m) = run.melee() {
                    ids.extend(m.knights().iter().map(|k| k.knight));
                }
                for id in ids {
                    if let Some(k) = self.app.store.knight(id).await? {
                        held.remember(&k);
                    }
                }
                let still_in = still_in(&run);
                self.app.enlist(&still_in, &self.channel);
                lines.push(format!("{} carries on where it stood.", held.record.name));
                held.run = Some(run);
            } else if announce {
                lines.push(format!(
                    "{} will be held here {}: {}. /enter to take part.",
                    held.record.name,
                    when(&self.app, self.realm, held.record.starts_at),
                    chat::format_of(
                        held.record.melee,
                        held.record.remount,
                        held.record.melee_minutes
                    )
                ));
            }
            self.held.list.push(held);
        }
        self.held
            .list
            .sort_by_key(|h| (h.record.starts_at, h.record.id));
        if !announce {
            lines.extend(self.continue_tournaments(now).await?);
        }
        Ok(lines)
    }

    /// A tournament deadline passed: reminders, a start, a retry, the Melee's time limit, or the
    /// moderators' time to act.
    pub(super) async fn on_tournament_deadline(&mut self, now: DateTime<Utc>) -> Lines {
        match self.tournament_tick(now).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::error!(channel = %self.channel, "{e:#}");
                self.tournament_retry(now);
                vec![SORRY.to_string()]
            }
        }
    }

    /// After a failure (the books could not be written): try again a little later rather than
    /// at once, and never leave a tournament with nothing to wake it.
    fn tournament_retry(&mut self, now: DateTime<Utc>) {
        let secs = self
            .app
            .config
            .tournaments
            .match_retry_secs
            .clamp(1, 86_400) as i64;
        let later = now + Duration::seconds(secs);
        self.held.pause = Some(later);
        if let Some(r) = self.running_index() {
            self.held.list[r].retry_at = Some(later);
        }
    }

    async fn tournament_tick(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
        let leads = self.app.config.tournaments.reminder_secs.clone();
        // Reminders, most recent due only: a reminder missed while Herald was away is not
        // followed by an older one.
        let mut i = 0;
        while i < self.held.list.len() {
            if self.held.list[i].run.is_some() {
                i += 1;
                continue;
            }
            let due = self.held.list[i].due_reminders(&leads, now);
            if due.is_empty() {
                i += 1;
                continue;
            }
            let id = self.held.list[i].record.id;
            // Cancelled meanwhile (from another channel): drop it quietly.
            let current = self.app.store.tournament(id).await?;
            if current.as_ref().map(|t| t.status) != Some(Status::Scheduled) {
                self.held.list.remove(i);
                continue;
            }
            let claimed = self.app.store.claim_reminders(id, &due, now).await?;
            self.held.list[i].reminded.extend(&due);
            if !claimed.is_empty() {
                lines.push(self.reminder(i, now).await?);
            }
            i += 1;
        }
        if let Some(r) = self.running_index() {
            lines.extend(self.melee_clock(r, now).await?);
            if self
                .held
                .list
                .get(r)
                .is_some_and(|h| h.retry_at.is_some_and(|t| t <= now))
            {
                self.held.list[r].retry_at = None;
            }
        }
        lines.extend(self.continue_tournaments(now).await?);
        Ok(lines)
    }

    async fn reminder(&self, i: usize, now: DateTime<Utc>) -> Result<String> {
        let t = &self.held.list[i].record;
        let entries = self.app.store.tournament_entries(t.id).await?;
        let names = chat::names(&self.app, entries.iter().copied()).await?;
        let entered = if entries.is_empty() {
            "no one has entered yet".to_string()
        } else {
            format!("entered ({}): {}", entries.len(), list(&names, &entries))
        };
        Ok(format!(
            "Reminder: {} begins here in {} ({}); {entered}. /enter to take part.",
            t.name,
            span((t.starts_at - now).num_seconds()),
            when(&self.app, self.realm, t.starts_at)
        ))
    }

    /// The Melee's time limit and the moderators' waits.
    async fn melee_clock(&mut self, r: usize, now: DateTime<Utc>) -> Result<Lines> {
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(Vec::new());
        };
        let Some(m) = &run.melee else {
            return Ok(Vec::new());
        };
        let mut next = run.clone();
        let mut lines = Vec::new();
        let name = self.held.list[r].record.name.clone();
        match run.stage() {
            Stage::Melee if m.ends_at.is_some_and(|e| e <= now) => {
                let Some(mr) = next.melee.as_mut() else {
                    return Ok(lines);
                };
                let Some(melee) = mr.melee.as_mut() else {
                    return Ok(lines);
                };
                if *melee.phase() == MeleePhase::Fighting && melee.time_up().is_ok() {
                    lines.push(format!(
                        "Time is called on the Melee of {name} (R37): open offers lapse and no new pass starts; passes accepted are fought out (R135)."
                    ));
                    lines.extend(self.melee_over_lines(mr, now));
                }
            }
            Stage::Muster if m.wait_until.is_some_and(|w| w <= now) => {
                let Some(mr) = next.melee.as_mut() else {
                    return Ok(lines);
                };
                let started = match mr.melee.as_mut() {
                    Some(melee) => melee.start().is_ok(),
                    None => false,
                };
                if started {
                    let minutes = self.held.list[r].record.melee_minutes;
                    mr.ends_at = Some(now + Duration::minutes(i64::from(minutes)));
                    mr.wait_until = None;
                    lines.push(format!(
                        "No moderator started the Melee in time, so Herald starts it: {minutes} minutes until time is called. /pass KNIGHT to offer a pass to a knight of the other side."
                    ));
                } else {
                    lines.push(format!(
                        "The Melee of {name} is not held: {} in time (R133).",
                        if mr.melee.is_none() {
                            "no moderator named its sides"
                        } else {
                            "each side needs a knight"
                        }
                    ));
                    next.melee = None;
                }
            }
            Stage::Prize if m.wait_until.is_some_and(|w| w <= now) => {
                if let Some(mr) = next.melee.as_mut() {
                    mr.wait_until = None;
                }
                lines.push("No first prize of the Melee was named in time.".into());
            }
            _ => return Ok(lines),
        }
        self.save(r, next).await?;
        Ok(lines)
    }

    /// Lines for the end of the Melee, and the wait for its first prize.
    fn melee_over_lines(&self, mr: &mut MeleeRun, now: DateTime<Utc>) -> Lines {
        let Some(melee) = &mr.melee else {
            return Vec::new();
        };
        let Some(end) = melee.ending() else {
            return Vec::new();
        };
        let why = match end.reason {
            EndReason::TimeLimit => "at its time limit",
            EndReason::OneSideMounted => "with only one side mounted",
            EndReason::NoneMounted => "with no knight left mounted",
        };
        let result = match end.winner {
            Some(side) => format!(
                "the {} win, {} mounted to {}",
                melee.side_name(side),
                end.mounted[side_index(side)],
                end.mounted[side_index(side.other())]
            ),
            None => format!(
                "a tie, {} mounted each, so no side wins (R37)",
                end.mounted[0]
            ),
        };
        let secs = self.app.config.tournaments.moderator_timeout_secs;
        mr.wait_until = Some(
            now + Duration::seconds(
                i64::try_from(secs)
                    .unwrap_or(i64::MAX / 4)
                    .min(86_400 * 366),
            ),
        );
        vec![
            format!("The Melee is over {why}: {result}."),
            format!(
                "A moderator names its first prize: /melee prize KNIGHT (within {}).",
                span(secs as i64)
            ),
        ]
    }

    /// Saves a tournament's new state; the state in memory changes only once it is written.
    async fn save(&mut self, r: usize, run: RunState) -> Result<()> {
        let id = self.held.list[r].record.id;
        self.app
            .store
            .save_tournament(id, &serde_json::to_string(&run)?)
            .await?;
        self.held.list[r].run = Some(run);
        Ok(())
    }

    /// After a fight: the tournament here goes on. A channel holding none has nothing to move,
    /// and its ends are most fights', which then allocate no tournament's future.
    pub(super) async fn after_fight(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        if self.held.list.is_empty() {
            return Ok(Vec::new());
        }
        Box::pin(self.continue_tournaments(now)).await
    }

    /// Moves the tournaments here on as far as they can go without a player: starts one that is
    /// due, starts the next match, or ends one that is over.
    pub(super) async fn continue_tournaments(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let moved = self.move_tournaments(now).await;
        if moved.is_err() {
            self.tournament_retry(now);
        }
        moved
    }

    async fn move_tournaments(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
        // Each turn of the loop settles a match without a fight, starts one, or ends a stage;
        // the bound guards against a state that would not move.
        for _ in 0..10_000 {
            if self.fight.is_some() {
                break;
            }
            let Some(r) = self.running_index() else {
                let due = self
                    .held
                    .list
                    .iter()
                    .position(|h| h.record.starts_at <= now && h.run.is_none());
                match due {
                    Some(i) => {
                        lines.extend(self.begin(i, now).await?);
                        continue;
                    }
                    None => break,
                }
            };
            let Some(run) = self.held.list[r].run.clone() else {
                break;
            };
            match run.stage() {
                Stage::Lists => {
                    let Some((a, b)) = run.lists.next_match() else {
                        break;
                    };
                    match self.ride(r, [a, b], None, now).await? {
                        Ride::Started(more) => {
                            lines.extend(more);
                            break;
                        }
                        Ride::Settled(more) => lines.extend(more),
                        Ride::Waiting(more) => {
                            lines.extend(more);
                            break;
                        }
                    }
                }
                Stage::Melee => {
                    let Some(pass) = run
                        .melee
                        .as_ref()
                        .and_then(|m| m.queue.front().copied())
                        .and_then(|p| run.melee().and_then(|m| m.pass(p)).cloned())
                    else {
                        break;
                    };
                    match self
                        .ride(
                            r,
                            [pass.challenger, pass.challenged],
                            Some(pass.for_ransom),
                            now,
                        )
                        .await?
                    {
                        Ride::Started(more) | Ride::Waiting(more) => {
                            lines.extend(more);
                            break;
                        }
                        Ride::Settled(more) => lines.extend(more),
                    }
                }
                Stage::Muster | Stage::Prize => break,
                Stage::Over => lines.extend(self.finish(r, now).await?),
            }
        }
        Ok(lines)
    }

    /// Starts a tournament that is due: its entrants who can ride, the first draw (R34), the
    /// first match.
    async fn begin(&mut self, i: usize, now: DateTime<Utc>) -> Result<Lines> {
        let t = self.held.list[i].record.clone();
        let mut lines = Vec::new();
        if let Some(c) = self.challenge.take() {
            lines.push(format!(
                "The challenge of {} to {} lapses: {} begins here.",
                c.sides.styled[0], c.sides.styled[1], t.name
            ));
        }
        let current = self.app.store.tournament(t.id).await?;
        if current.map(|c| c.status) != Some(Status::Scheduled) {
            self.held.list.remove(i);
            return Ok(lines);
        }
        let mut able = Vec::new();
        for id in self.app.store.tournament_entries(t.id).await? {
            let Some(k) = self.app.store.knight(id).await? else {
                continue;
            };
            if let Some(why) = chat::unable(&self.app, self.realm, &k, now).await? {
                lines.push(format!("{why} {} does not ride in {}.", k.styled(), t.name));
                continue;
            }
            self.held.list[i].remember(&k);
            able.push(k.id);
        }
        if able.len() < 2 {
            self.app
                .store
                .call_off_tournament(t.id, "fewer than two knights able to ride", now)
                .await?;
            self.held.list.remove(i);
            lines.push(format!(
                "{} is called off: it needs at least two knights able to ride, and {} {}.",
                t.name,
                able.len(),
                if able.len() == 1 { "is" } else { "are" }
            ));
            return Ok(lines);
        }
        let mut rng = SeededDice::at(t.seed, 0);
        let lists = {
            let mut dice = FightDice::new(&mut rng, &self.app.queue);
            Lists::new(able.clone(), &mut dice)
        };
        let lists = match lists {
            Ok(l) => l,
            Err(e) => {
                self.app
                    .store
                    .call_off_tournament(t.id, &e.to_string(), now)
                    .await?;
                self.held.list.remove(i);
                lines.push(format!("{} is called off: {e}.", t.name));
                return Ok(lines);
            }
        };
        let run = RunState {
            lists,
            word_pos: rng.word_pos(),
            melee: None,
            armed: Default::default(),
        };
        if !self
            .app
            .store
            .begin_tournament(t.id, &serde_json::to_string(&run)?)
            .await?
        {
            self.held.list.remove(i);
            return Ok(lines);
        }
        self.app.enlist(&able, &self.channel);
        let names = &self.held.list[i].names;
        let begins = format!(
            "{} begins{}! {} knights ride in the Lists: {}.",
            t.name,
            t.host
                .as_deref()
                .map(|h| format!(", hosted by {h}"))
                .unwrap_or_default(),
            able.len(),
            list(names, &able)
        );
        let page = crate::web::Linked::Tournament(t.id);
        lines.push(crate::web::with_link(&self.app, self.realm, page, begins));
        lines.push(round_line(&run.lists, names));
        lines.push("Knights, arm a psi power for your matches whenever you like before they start: /psi SKILL, or /psi off (R21).".into());
        self.held.list[i].run = Some(run);
        Ok(lines)
    }

    /// Brings two knights to their match or pass: settles it without a fight when one cannot
    /// ride (R160), waits when one is still fighting elsewhere, else starts the fight here.
    async fn ride(
        &mut self,
        r: usize,
        pair: [Id; 2],
        melee_ransom: Option<bool>,
        now: DateTime<Utc>,
    ) -> Result<Ride> {
        let mut knights = Vec::with_capacity(2);
        for id in pair {
            match self.app.store.knight(id).await? {
                Some(k) => knights.push(k),
                None => anyhow::bail!(
                    "knight #{id} of tournament #{} is gone",
                    self.held.list[r].record.id
                ),
            }
        }
        let mut unable = Vec::new();
        let mut why = Vec::new();
        for k in &knights {
            if let Some(reason) = chat::unable(&self.app, self.realm, k, now).await? {
                unable.push(k.id);
                why.push(reason);
            }
        }
        if !unable.is_empty() {
            return self
                .settle_unridden(r, pair, &unable, why, now)
                .await
                .map(Ride::Settled);
        }
        for k in &knights {
            if let Some(c) = self.app.fighting_in(k.id).filter(|c| *c != self.channel) {
                return Ok(self.wait_for(r, &k.styled(), &c, now));
            }
        }
        let names = [knights[0].styled(), knights[1].styled()];
        if let Err((k, other)) = self.app.claim(&pair, &self.channel) {
            let who = if k == pair[0] { &names[0] } else { &names[1] };
            return Ok(self.wait_for(r, who, &other, now));
        }
        self.held.list[r].retry_at = None;
        let held = &self.held.list[r];
        let run = held.run.as_ref();
        let label = match melee_ransom {
            None => format!(
                "a Lists match of {} (round {}; an unhorsing ends it, R35)",
                held.record.name,
                run.map_or(0, |r| r.lists.current_round())
            ),
            Some(_) => format!("a Melee pass of {} (one Joust pass, R37)", held.record.name),
        };
        let armed = run.map_or([None, None], |r| {
            [
                r.armed.get(&pair[0]).copied(),
                r.armed.get(&pair[1]).copied(),
            ]
        });
        let [a, b]: [KnightRecord; 2] = match knights.try_into() {
            Ok(pair) => pair,
            Err(_) => anyhow::bail!("a match needs two knights"),
        };
        let terms = Terms {
            armed,
            kind: if melee_ransom.is_some() {
                MatchKind::Melee
            } else {
                MatchKind::Lists
            },
            tournament: Some((held.record.id, label)),
            for_ransom: melee_ransom.unwrap_or(false),
            told_unrecorded: false,
        };
        match self.start_fight([a, b], terms, now).await {
            Ok(lines) => Ok(Ride::Started(lines)),
            Err(e) => {
                self.app.release(&pair);
                // A knight the books hold in a fight another process started: the match
                // waits for it, as for a fight of this process.
                let Some((who, channel)) = crate::referee::claimed_by(&e, &pair, &names) else {
                    return Err(e);
                };
                let (who, channel) = (who.unwrap_or("a knight").to_string(), channel.to_string());
                Ok(self.wait_for(r, &who, &channel, now))
            }
        }
    }

    /// The next match of tournament `r` waits for knight `who`, still fighting in `channel`:
    /// said once, tried again [`crate::config::TournamentConfig::match_retry_secs`] later.
    fn wait_for(&mut self, r: usize, who: &str, channel: &str, now: DateTime<Utc>) -> Ride {
        let first = self.held.list[r].retry_at.is_none();
        self.retry_later(r, now);
        Ride::Waiting(if first {
            vec![format!(
                "The next match waits for {who}, who is still fighting in {channel}."
            )]
        } else {
            Vec::new()
        })
    }

    /// Tries tournament `r`'s next match again after the configured wait.
    fn retry_later(&mut self, r: usize, now: DateTime<Utc>) {
        let secs = self.app.config.tournaments.match_retry_secs.max(1);
        self.held.list[r].retry_at = Some(now + Duration::seconds(secs.min(86_400) as i64));
    }

    /// A match or pass that cannot be ridden: the knight who cannot ride loses it without a die
    /// rolled, and both lose when neither can (R160).
    async fn settle_unridden(
        &mut self,
        r: usize,
        pair: [Id; 2],
        unable: &[Id],
        why: Vec<String>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(Vec::new());
        };
        let mut next = run.clone();
        let mut lines = why;
        let names = self.held.list[r].names.clone();
        let mut out = Vec::new();
        match run.stage() {
            Stage::Lists => {
                let result = if unable.len() == 2 {
                    ListsResult::both_out(pair[0], pair[1])
                } else {
                    let loser = unable[0];
                    let winner = if pair[0] == loser { pair[1] } else { pair[0] };
                    ListsResult::won(winner, loser)
                };
                out.extend(unable.iter().copied());
                lines.push(format!(
                    "{} cannot ride and {} out of the Lists without a die rolled (R160).",
                    list(&names, unable),
                    if unable.len() == 1 { "is" } else { "are" }
                ));
                match self.record_lists(r, &mut next, result, &mut out, now) {
                    Ok(more) => lines.extend(more),
                    Err(e) => anyhow::bail!("the Lists refuse a settled match: {e}"),
                }
            }
            Stage::Melee => {
                // A pass that cannot be ridden is withdrawn; its knights stay as they stood,
                // except that the one who cannot ride leaves the Melee.
                if let Some(mr) = next.melee.as_mut() {
                    mr.queue.pop_front();
                    if let Some(m) = mr.melee.as_mut() {
                        if let Some(&p) = run.melee.as_ref().and_then(|m| m.queue.front()) {
                            let result = match unable {
                                [one] => PassResult::unhorsed(*one),
                                _ => PassResult::both(),
                            };
                            let _ = m.resolve(p, result);
                        }
                    }
                    out.extend(unable.iter().copied());
                    lines.push(format!(
                        "{} cannot ride and {} out of the Melee (R160).",
                        list(&names, unable),
                        if unable.len() == 1 { "is" } else { "are" }
                    ));
                    if mr.melee.as_ref().is_some_and(Melee::is_finished) {
                        lines.extend(self.melee_over_lines(mr, now));
                    }
                }
            }
            _ => return Ok(lines),
        }
        self.save(r, next).await?;
        self.app.discharge(&out);
        Ok(lines)
    }

    /// Records a Lists result in `next`, drawing the next round with the tournament's dice when
    /// it completes one (R130), and says what follows. When the Lists end, every entrant joins
    /// `out`: the champion too is free until they join the Melee, as after a restart.
    fn record_lists(
        &self,
        r: usize,
        next: &mut RunState,
        result: ListsResult,
        out: &mut Vec<Id>,
        now: DateTime<Utc>,
    ) -> Result<Lines, herald_engine::psiknight::tournament::ListsError> {
        let mut rng = SeededDice::at(self.held.list[r].record.seed, next.word_pos);
        let recorded = {
            let mut dice = FightDice::new(&mut rng, &self.app.queue);
            next.lists.record(result, &mut dice)?
        };
        next.word_pos = rng.word_pos();
        if next.lists.is_finished() {
            out.extend(next.lists.entrants().iter().copied());
        }
        Ok(self.after_lists_record(r, next, recorded, now))
    }

    /// After a Lists result: the next round's draw, or the end of the Lists and the Melee's
    /// muster.
    fn after_lists_record(
        &self,
        r: usize,
        next: &mut RunState,
        recorded: Recorded,
        now: DateTime<Utc>,
    ) -> Lines {
        let names = &self.held.list[r].names;
        match recorded {
            Recorded::RoundContinues => Vec::new(),
            Recorded::NewRound(_) => vec![round_line(&next.lists, names)],
            Recorded::Finished => {
                let mut lines = vec![format!(
                    "The Lists are over. {}.",
                    placings(&next.lists, names)
                )];
                if self.held.list[r].record.melee {
                    let secs = self.app.config.tournaments.moderator_timeout_secs;
                    next.melee = Some(MeleeRun {
                        wait_until: Some(now + Duration::seconds(secs.min(86_400 * 366) as i64)),
                        ..MeleeRun::default()
                    });
                    lines.push(format!(
                        "The Melee follows. A moderator opens it with its two sides: /melee open SIDE SIDE (within {}).",
                        span(secs as i64)
                    ));
                }
                lines
            }
        }
    }

    /// Before a tournament fight's end is written: the tournament's state with its result, to
    /// be saved in the same transaction.
    pub(super) fn with_tournament_result(
        &self,
        mut end: FightEnd,
        now: DateTime<Utc>,
    ) -> (FightEnd, Option<Next>) {
        let Some(f) = &self.fight else {
            return (end, None);
        };
        let Some(tid) = f.own.booked.tournament else {
            return (end, None);
        };
        let Some(r) = self.held.list.iter().position(|h| h.record.id == tid) else {
            tracing::error!(
                tournament = tid,
                "a tournament fight ended with no tournament here"
            );
            return (end, None);
        };
        let Some(run) = self.held.list[r].run.clone() else {
            return (end, None);
        };
        let names = &self.held.list[r].names;
        let mut next = run.clone();
        let mut lines = Vec::new();
        let mut out = Vec::new();
        match f.fight.kind() {
            MatchKind::Lists => {
                let result = lists_result(f.own.knights(), &end.outcome);
                match result.outcome.winner() {
                    Some(w) => {
                        let loser = if w == f.own.knights()[0] {
                            f.own.knights()[1]
                        } else {
                            f.own.knights()[0]
                        };
                        out.push(loser);
                        lines.push(format!(
                            "{} wins the match and rides on; {} is out of the Lists.",
                            name_of(names, w),
                            name_of(names, loser)
                        ));
                    }
                    None => {
                        out.extend(f.own.knights());
                        lines.push(format!(
                            "Neither knight wins: {} and {} are both out of the Lists.",
                            name_of(names, f.own.knights()[0]),
                            name_of(names, f.own.knights()[1])
                        ));
                    }
                }
                match self.record_lists(r, &mut next, result, &mut out, now) {
                    Ok(more) => lines.extend(more),
                    Err(e) => {
                        tracing::error!(tournament = tid, "the Lists refuse a result: {e}");
                        return (end, None);
                    }
                }
            }
            MatchKind::Melee => {
                let Some(mr) = next.melee.as_mut() else {
                    return (end, None);
                };
                let Some(pass) = mr.queue.pop_front() else {
                    return (end, None);
                };
                let Some(m) = mr.melee.as_mut() else {
                    return (end, None);
                };
                let record = match m.resolve(pass, pass_result(f.own.knights(), &end.outcome)) {
                    Ok(record) => record,
                    Err(e) => {
                        tracing::error!(tournament = tid, "the Melee refuses a result: {e}");
                        return (end, None);
                    }
                };
                if record.result.unhorsed == Unhorsed::Neither {
                    lines.push("Both stay mounted.".into());
                }
                for k in &record.remounted {
                    lines.push(format!(
                        "{} remounts and rides on (R37).",
                        name_of(names, *k)
                    ));
                }
                for k in &record.eliminated {
                    lines.push(format!("{} is out of the Melee.", name_of(names, *k)));
                }
                out.extend(record.eliminated.iter().copied());
                if m.is_finished() {
                    lines.extend(self.melee_over_lines(mr, now));
                }
            }
            MatchKind::Practice => return (end, None),
        }
        match serde_json::to_string(&next) {
            Ok(json) => end.tournament = Some((tid, json)),
            Err(e) => {
                tracing::error!(tournament = tid, "cannot save a tournament: {e}");
                return (end, None);
            }
        }
        (
            end,
            Some(Next {
                tournament: tid,
                run: next,
                lines,
                out,
            }),
        )
    }

    /// Once a tournament fight's end is written: the tournament takes its new state.
    pub(super) fn take_tournament_result(&mut self, next: Next) -> Lines {
        if let Some(h) = self
            .held
            .list
            .iter_mut()
            .find(|h| h.record.id == next.tournament)
        {
            h.run = Some(next.run);
        }
        self.app.discharge(&next.out);
        next.lines
    }

    /// Writes every award in one transaction and says the results (R36, R37, R29).
    async fn finish(&mut self, r: usize, now: DateTime<Utc>) -> Result<Lines> {
        let held = &self.held.list[r];
        let Some(run) = held.run.clone() else {
            return Ok(Vec::new());
        };
        let t = held.record.clone();
        let mut awards = run.lists.awards();
        if let Some(m) = run.melee() {
            awards.extend(m.awards());
        }
        let reasons: Vec<(Id, u32, _)> =
            awards.iter().map(|a| (a.knight, a.hp, a.reason)).collect();
        let fin = TournamentFinish {
            realm: self.realm,
            tournament: t.id,
            state: serde_json::to_string(&run)?,
            awards: awards
                .iter()
                .map(|a| TournamentAward {
                    knight: a.knight,
                    hp: a.hp,
                    reason: award_reason(&t.name, a.reason, a.hp),
                })
                .collect(),
            month: self.app.month_in(self.realm, now),
            at: now,
        };
        let written = self.app.store.finish_tournament(&fin).await?;
        let mut names = held.names.clone();
        for a in &awards {
            if !names.contains_key(&a.knight) {
                names.extend(chat::names(&self.app, [a.knight]).await?);
            }
        }
        let over = format!(
            "{} is over. The Lists: {}.",
            t.name,
            placings(&run.lists, &names)
        );
        let page = crate::web::Linked::Tournament(t.id);
        let mut lines = vec![crate::web::with_link(&self.app, self.realm, page, over)];
        let mut everyone: Vec<Id> = run.lists.entrants().to_vec();
        if let Some(m) = run.melee() {
            let winner = match m.winner() {
                Some(side) => format!("the {} won", m.side_name(side)),
                None => "no side won".into(),
            };
            let prize = match m.first_prize() {
                Some(p) => format!("first prize: {}", name_of(&names, p)),
                None => "no first prize named".into(),
            };
            lines.push(format!("The Melee: {winner}; {prize}."));
            everyone.extend(m.knights().iter().map(|k| k.knight));
        }
        lines.push("The awards (R36, R37), as written to the books:".into());
        lines.extend(chat::award_lines(&names, &written, &reasons));
        self.app.discharge(&everyone);
        self.held.list.remove(r);
        Ok(lines)
    }

    /// `/accept` or `/decline` of a Melee pass offered to the speaker's knight; `None` when the
    /// speaker has no offer to answer here (then the word means what it means elsewhere).
    pub(super) async fn melee_answer(
        &mut self,
        user: &str,
        accept: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let Some(r) = self.running_index() else {
            return Ok(None);
        };
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(None);
        };
        let Some(melee) = run.melee() else {
            return Ok(None);
        };
        let Some(&me) = self.held.list[r]
            .owners
            .iter()
            .find(|(id, owner)| owner.eq_ignore_ascii_case(user) && melee.knight(**id).is_some())
            .map(|(id, _)| id)
        else {
            return Ok(None);
        };
        let names = self.held.list[r].names.clone();
        let offered = melee.offers_to(me).first().map(|p| (*p).clone());
        let own = melee
            .passes()
            .iter()
            .find(|p| {
                p.challenger == me
                    && p.state == herald_engine::psiknight::tournament::PassState::Offered
            })
            .cloned();
        let mut next = run.clone();
        let Some(m) = next.melee.as_mut().and_then(|m| m.melee.as_mut()) else {
            return Ok(None);
        };
        let line = match (accept, offered, own) {
            (true, Some(p), _) => match m.accept(me, p.id) {
                Ok(pass) => {
                    if let Some(mr) = next.melee.as_mut() {
                        mr.queue.push_back(pass.id);
                    }
                    format!(
                        "{} accepts the pass (#{}) of {}{}.",
                        name_of(&names, me),
                        pass.id + 1,
                        name_of(&names, pass.challenger),
                        if pass.for_ransom {
                            ", for ransom (R39)"
                        } else {
                            ""
                        }
                    )
                }
                Err(e) => return Ok(Some(vec![named(format!("Cannot accept: {e}."), &names)])),
            },
            (false, Some(p), _) => match m.decline(me, p.id) {
                Ok(()) => format!(
                    "{} declines the pass offered by {}.",
                    name_of(&names, me),
                    name_of(&names, p.challenger)
                ),
                Err(e) => return Ok(Some(vec![named(format!("Cannot decline: {e}."), &names)])),
            },
            (false, None, Some(p)) => match m.withdraw(me, p.id) {
                Ok(()) => format!(
                    "{} withdraws the offer of a pass to {}.",
                    name_of(&names, me),
                    name_of(&names, p.challenged)
                ),
                Err(e) => return Ok(Some(vec![named(format!("Cannot withdraw: {e}."), &names)])),
            },
            (true, None, _) => {
                // No pass to accept: perhaps a question of the books (allegiance, peace).
                return Ok(None);
            }
            (false, None, None) => return Ok(None),
        };
        self.save(r, next).await?;
        let mut lines = vec![line];
        if accept {
            lines.extend(self.continue_tournaments(now).await?);
        }
        Ok(Some(lines))
    }

    /// `/psi SKILL` from a knight of the tournament here who is not fighting now: armed for their
    /// next match or pass (R21). `None` when the speaker has no knight in it.
    pub(super) async fn arm_for_tournament(
        &mut self,
        user: &str,
        skill: Option<herald_engine::psiknight::PsiSkill>,
    ) -> Result<Option<Lines>> {
        if self.held.list.is_empty() {
            return Ok(None);
        }
        let Some(k) = self.app.store.knight_of(self.realm, user).await? else {
            return Ok(None);
        };
        let Some(r) = self.running_index() else {
            // Entered in one not begun: the Lists are not drawn, so there is no match to arm for.
            for h in &self.held.list {
                if self
                    .app
                    .store
                    .tournament_entries(h.record.id)
                    .await?
                    .contains(&k.id)
                {
                    return Ok(Some(vec![format!(
                        "{} has not begun: arm psi for your match once it has (/psi SKILL).",
                        h.record.name
                    )]));
                }
            }
            return Ok(None);
        };
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(None);
        };
        if !still_in(&run).contains(&k.id) {
            return Ok(None);
        }
        // R21: the skill is the knight's secret until it fires.
        if let Some(s) = skill {
            if k.sheet.psi(s) == 0 {
                self.private
                    .push(format!("{} has no {s} (R21).", k.styled()));
                return Ok(Some(Vec::new()));
            }
        }
        let mut next = run;
        match skill {
            Some(s) => next.armed.insert(k.id, s),
            None => next.armed.remove(&k.id),
        };
        self.save(r, next).await?;
        self.private.push(match skill {
            Some(s) => format!("{} arms {s} for their next match.", k.styled()),
            None => format!("{} disarms psi.", k.styled()),
        });
        Ok(Some(
            skill
                .map(|_| super::readied(&k.styled()))
                .into_iter()
                .collect(),
        ))
    }

    /// The tournament commands.
    pub(super) async fn tournament_command(
        &mut self,
        user: &str,
        command: PsiCommand,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let app = self.app.clone();
        match command {
            PsiCommand::Tournament => chat::show(&app, self.realm, now).await,
            PsiCommand::TournamentSchedule(s) => {
                let lines = chat::schedule(&app, self.realm, user, &s, &self.channel, now).await?;
                // Held here: know it now, for its reminders and its start.
                self.reload_tournaments(true, now).await?;
                Ok(lines)
            }
            PsiCommand::TournamentCancel { which } => {
                let lines = chat::cancel(&app, self.realm, user, which.as_deref(), now).await?;
                self.reload_tournaments(true, now).await?;
                Ok(lines)
            }
            PsiCommand::Enter { which } => {
                chat::enter(&app, self.realm, user, which.as_deref(), &self.channel, now).await
            }
            PsiCommand::Withdraw { which } => {
                chat::withdraw(&app, self.realm, user, which.as_deref()).await
            }
            PsiCommand::Bracket => chat::bracket(&app, self.realm).await,
            PsiCommand::TournamentStart { which } => self.start_now(which.as_deref(), now).await,
            PsiCommand::MeleePrize { knight } => self.melee_prize(&knight, now).await,
            other => self.melee_command(user, other, now).await,
        }
    }

    /// `/tournament start [TOURNAMENT]`: the one named, or the next one held here, starts now.
    async fn start_now(&mut self, which: Option<&str>, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(h) = self.running() {
            return Ok(vec![format!(
                "{} is already under way here.",
                h.record.name
            )]);
        }
        let meant = |t: &TournamentRecord| which.is_none_or(|w| chat::names_tournament(t, w));
        let Some(i) = self
            .held
            .list
            .iter()
            .position(|h| h.run.is_none() && meant(&h.record))
        else {
            let elsewhere = self
                .app
                .store
                .active_tournaments(self.realm)
                .await?
                .into_iter()
                .find(|t| t.status == Status::Scheduled && meant(t));
            return Ok(vec![match (elsewhere, which) {
                (Some(t), _) => format!(
                    "{} is held in {}: say /tournament start there.",
                    t.name, t.channel
                ),
                (None, Some(w)) => {
                    format!("No tournament named '{w}' is scheduled. /tournament shows what is.")
                }
                (None, None) => "No tournament is scheduled. /tournament schedule NAME WHEN".into(),
            }]);
        };
        if let Some(f) = &self.fight {
            return Ok(vec![format!(
                "A fight is on here ({} vs {}); {} starts when it ends.",
                f.own.sides.styled[0], f.own.sides.styled[1], self.held.list[i].record.name
            )]);
        }
        self.held.list[i].record.starts_at = now;
        let mut lines = self.begin(i, now).await?;
        lines.extend(self.continue_tournaments(now).await?);
        Ok(lines)
    }

    async fn melee_prize(&mut self, knight: &str, now: DateTime<Utc>) -> Result<Lines> {
        let Some(r) = self.running_index() else {
            return Ok(vec![self.no_melee_here().await?]);
        };
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(Vec::new());
        };
        if run.stage() != Stage::Prize {
            return Ok(vec![
                "The first prize is named once the Melee is over (R138).".into(),
            ]);
        }
        let Some(k) = self.find_knight(knight).await? else {
            return Ok(vec![format!(
                "No knight or player named '{knight}' here. Usage: /melee prize KNIGHT"
            )]);
        };
        let mut next = run.clone();
        // The knight may not have taken part, so the refusal names them from the record.
        let mut names = self.held.list[r].names.clone();
        names.insert(k.id, k.styled());
        if let Some(mr) = next.melee.as_mut() {
            if let Some(m) = mr.melee.as_mut() {
                if let Err(e) = m.name_first_prize(k.id) {
                    return Ok(vec![named(format!("Not named: {e}."), &names)]);
                }
            }
            mr.wait_until = None;
        }
        self.save(r, next).await?;
        let mut lines = vec![format!(
            "{} wins the first prize of the Melee (R37).",
            k.styled()
        )];
        lines.extend(self.continue_tournaments(now).await?);
        Ok(lines)
    }

    async fn find_knight(&self, who: &str) -> Result<Option<KnightRecord>> {
        let who = who.trim().trim_start_matches('@');
        Ok(match self.app.store.knight_named(self.realm, who).await? {
            Some(k) => Some(k),
            None => self.app.store.knight_of(self.realm, who).await?,
        })
    }

    async fn no_melee_here(&self) -> Result<String> {
        let elsewhere = self
            .app
            .store
            .active_tournaments(self.realm)
            .await?
            .into_iter()
            .find(|t| t.status == Status::Running && t.channel != self.channel);
        Ok(match elsewhere {
            Some(t) => format!(
                "{} is held in {}: the Melee is fought there.",
                t.name, t.channel
            ),
            None => "No Melee is under way here. /tournament shows what is scheduled.".into(),
        })
    }

    /// `/melee open|join|start|time` and `/pass`, in the channel holding the tournament.
    async fn melee_command(
        &mut self,
        user: &str,
        command: PsiCommand,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let Some(r) = self.running_index() else {
            return Ok(vec![self.no_melee_here().await?]);
        };
        let Some(run) = self.held.list[r].run.clone() else {
            return Ok(Vec::new());
        };
        let t = self.held.list[r].record.clone();
        if run.melee.is_none() {
            return Ok(vec![if t.melee && !run.lists.is_finished() {
                format!(
                    "The Melee of {} follows the Lists; they are still being fought.",
                    t.name
                )
            } else {
                format!("{} has no Melee.", t.name)
            }]);
        }
        let mut next = run.clone();
        let names = self.held.list[r].names.clone();
        let Some(mr) = next.melee.as_mut() else {
            return Ok(Vec::new());
        };
        let lines = match command {
            PsiCommand::MeleeOpen { first, second } => {
                if mr.melee.is_some() {
                    return Ok(vec![
                        "The Melee is already open; its sides are named.".into()
                    ]);
                }
                match Melee::open(&first, &second, t.remount) {
                    Ok(m) => {
                        let text = format!(
                            "The Melee of {} opens: the {} against the {}. Knights, /melee join SIDE; a moderator starts it with /melee start.",
                            t.name,
                            m.side_name(MeleeSide::First),
                            m.side_name(MeleeSide::Second)
                        );
                        mr.melee = Some(m);
                        vec![text]
                    }
                    Err(e) => {
                        return Ok(vec![format!(
                            "Cannot open the Melee: {e}. Usage: /melee open SIDE SIDE"
                        )])
                    }
                }
            }
            PsiCommand::MeleeJoin { side } => {
                let Some(m) = mr.melee.as_mut() else {
                    return Ok(vec!["The Melee's sides are not named yet: a moderator opens it with /melee open SIDE SIDE.".into()]);
                };
                let Some(k) = self.app.store.knight_of(self.realm, user).await? else {
                    return Ok(vec![format!(
                        "{user}, you have no knight to join the Melee with."
                    )]);
                };
                let Some(s) = m.side_named(&side) else {
                    return Ok(vec![format!(
                        "There is no side '{side}'; the sides are the {} and the {}. Usage: /melee join SIDE",
                        m.side_name(MeleeSide::First),
                        m.side_name(MeleeSide::Second)
                    )]);
                };
                // R136: a major injury keeps a knight out of every fight that day.
                if let Some(why) = chat::unable(&self.app, self.realm, &k, now).await? {
                    return Ok(vec![why]);
                }
                if let Some(c) = self.app.fighting_in(k.id).filter(|c| *c != self.channel) {
                    return Ok(vec![format!(
                        "{} is fighting in {c}; join when that fight is over.",
                        k.styled()
                    )]);
                }
                if let Err(e) = m.join(k.id, s) {
                    let mut names = names.clone();
                    names.insert(k.id, k.styled());
                    return Ok(vec![named(format!("Cannot join: {e}."), &names)]);
                }
                let count = m.knights().iter().filter(|x| x.side == s).count();
                let text = format!(
                    "{} joins the {} ({} knight{}).",
                    k.styled(),
                    m.side_name(s),
                    count,
                    if count == 1 { "" } else { "s" }
                );
                self.held.list[r].remember(&k);
                self.app.enlist(&[k.id], &self.channel);
                vec![text]
            }
            PsiCommand::MeleeStart | PsiCommand::MeleeTime => {
                let Some(m) = mr.melee.as_mut() else {
                    return Ok(vec![
                        "The Melee's sides are not named yet: /melee open SIDE SIDE.".into(),
                    ]);
                };
                let starting = matches!(command, PsiCommand::MeleeStart);
                let done = if starting { m.start() } else { m.time_up() };
                if let Err(e) = done {
                    return Ok(vec![named(format!("Not now: {e}."), &names)]);
                }
                if starting {
                    let ends = now + Duration::minutes(i64::from(t.melee_minutes));
                    mr.ends_at = Some(ends);
                    mr.wait_until = None;
                    vec![format!(
                        "The Melee begins! Time is called in {} minutes. Knights, /pass KNIGHT to offer a pass to a knight of the other side; /accept or /decline an offer.",
                        t.melee_minutes
                    )]
                } else {
                    let mut lines = vec![
                        "Time is called on the Melee (R135): open offers lapse and no new pass starts; passes accepted are fought out.".to_string(),
                    ];
                    lines.extend(self.melee_over_lines(mr, now));
                    lines
                }
            }
            PsiCommand::Pass { knight } => {
                let Some(m) = mr.melee.as_mut() else {
                    return Ok(vec!["The Melee has not begun.".into()]);
                };
                let Some(me) = self.app.store.knight_of(self.realm, user).await? else {
                    return Ok(vec![format!("{user}, you have no knight in the Melee.")]);
                };
                let Some(them) = self.find_knight(&knight).await? else {
                    return Ok(vec![format!(
                        "No knight or player named '{knight}' here. Usage: /pass KNIGHT"
                    )]);
                };
                let for_ransom =
                    super::office::ransom_notice(&self.app, self.realm, me.id, them.id)
                        .await?
                        .is_some();
                let mut names = names.clone();
                names.insert(me.id, me.styled());
                names.insert(them.id, them.styled());
                match m.offer(me.id, them.id, for_ransom) {
                    // Passes are numbered from 1 for people; the engine counts from 0.
                    Ok(pass) => vec![format!(
                        "{} offers {} a pass (#{}){}. {}: /accept or /decline.",
                        me.styled(),
                        them.styled(),
                        pass + 1,
                        if for_ransom {
                            ", for ransom as they are hostile parties (R39)"
                        } else {
                            ""
                        },
                        them.owner
                    )],
                    Err(e) => return Ok(vec![named(format!("No pass: {e}."), &names)]),
                }
            }
            _ => return Ok(Vec::new()),
        };
        self.save(r, next).await?;
        let mut lines = lines;
        lines.extend(self.continue_tournaments(now).await?);
        Ok(lines)
    }
}

/// The knights still in a tournament under way: in the Lists, or mounted in the Melee.
fn still_in(run: &RunState) -> Vec<Id> {
    let mut ids = if run.lists.is_finished() {
        Vec::new()
    } else {
        run.lists.remaining()
    };
    if let Some(m) = run.melee() {
        if !m.is_finished() {
            ids.extend(
                m.knights()
                    .iter()
                    .filter(|k| k.out.is_none())
                    .map(|k| k.knight),
            );
        }
    }
    ids
}

fn side_index(side: MeleeSide) -> usize {
    match side {
        MeleeSide::First => 0,
        MeleeSide::Second => 1,
    }
}

/// What bringing knights to their match did.
enum Ride {
    /// The fight started.
    Started(Lines),
    /// It was settled without a fight.
    Settled(Lines),
    /// A knight is still fighting elsewhere; Herald tries again later.
    Waiting(Lines),
}
