//! PsiKnight on the game seam: a channel's tiltyard (its open challenge, its fight and the
//! tournaments it holds), driven by commands and deadlines as every game's [`Table`] is.
//!
//! It never reads a clock: `now` comes with every call, from the transport's clock (the wall
//! clock live, the transcript's `@clock` in scripts). It never rolls a die of its own: a
//! fight's dice are its seeded stream behind the `@dice` queue. Every change to the books is one
//! transaction in [`crate::store`]; if it fails, the fight in memory is put back as it was.

use crate::app::App;
use crate::command::Command;
use crate::live::Retry;
use crate::narration::Narration;
use crate::referee::{claimed_elsewhere, fighting_elsewhere, Table};
use crate::store::{FightAward, FightEnd, Id, KnightRecord, NewFight, OpenFight, Step};
use anyhow::Result;
use chrono::{DateTime, Utc};
use command::PsiCommand;
use futures::future::BoxFuture;
use herald_engine::psiknight::books;
use herald_engine::psiknight::{
    Decision, Match, MatchKind, MatchSetup, Opening, PromptKind, PsiSkill, RuleError, Side,
};
use render::{narrate, prompt_line, Names};
use std::sync::Arc;

pub mod command;
pub mod commands;
mod compact;
pub mod desk;
pub mod export;
#[cfg(test)]
mod grammar_tests;
mod held;
pub mod office;
pub mod picture;
pub mod render;
pub mod replay;
pub mod resolve;
pub mod rules;
pub mod simulate;
pub mod tournament;
pub mod verify;
use held::Held;

/// [`crate::games::GameInfo::sheet_lines`]: a knight lives in PsiKnight's own books, not among
/// the characters; a row of that game there is shown as it is stored.
pub fn sheet_lines(
    _config: &crate::config::Config,
    character: &crate::store::games::Character,
) -> Result<Vec<String>> {
    Ok(vec![
        character.sheet.to_string(),
        character.state.to_string(),
    ])
}

/// An open challenge, waiting for `/accept`.
#[derive(Clone, Debug)]
struct Challenge {
    knights: [KnightRecord; 2],
    users: [String; 2],
    armed: [Option<PsiSkill>; 2],
    deadline: DateTime<Utc>,
    /// Whether the challenge said the fight will not be recorded (R26).
    told_unrecorded: bool,
}

/// A fight about to start: a practice joust whose challenge was accepted, a Lists match, or a
/// Melee pass.
struct Bout {
    knights: [KnightRecord; 2],
    users: [String; 2],
    armed: [Option<PsiSkill>; 2],
    kind: MatchKind,
    /// The tournament it belongs to, and how to name it ("a Lists match of the Yule Lists").
    tournament: Option<(Id, String)>,
    /// A Melee pass for ransom (R39); a practice joust decides this itself at the start (R33).
    for_ransom: bool,
}

/// What the tiltyard keeps of a fight in progress beyond [`Live`]'s: its knights.
struct Jousters {
    /// The tournament it is a match of.
    tournament: Option<Id>,
    knights: [Id; 2],
    users: [String; 2],
    /// "Dame Dara", for narration.
    styled: Names,
    /// "Dara", for events.
    plain: Names,
    recorded: bool,
    /// Fought for ransom (R33, R39): the loser is captured at the end.
    for_ransom: bool,
}

/// A joust in progress.
type Live = crate::live::Live<Match, Jousters>;

/// A channel's PsiKnight: its challenge, its fight and the tournaments it holds.
pub struct Tiltyard {
    app: Arc<App>,
    realm: Id,
    channel: String,
    challenge: Option<Challenge>,
    fight: Option<Live>,
    /// Tournaments held in this channel, scheduled or under way.
    held: Vec<Held>,
    /// After a failure to write a tournament's books: no tournament deadline before this.
    tournament_pause: Option<DateTime<Utc>>,
    /// Lines for the current command's speaker alone, taken by [`Table::take_private`].
    private: Lines,
    /// How the channel tells fights, as its session last said ([`Table::set_narration`]).
    narration: Narration,
    /// The fight about to start was said not to be recorded when it was challenged.
    told_unrecorded: bool,
    /// A fight deadline's write that failed, retried.
    retry: Retry,
}

pub use crate::reply::Lines;

/// Said as a practice fight starts unrecorded (R26).
const NOT_RECORDED_START: &str =
    "This fight is not recorded: the pair already had its recorded practice fight today (R26).";

/// Said as an unrecorded practice fight ends (R26).
const NOT_RECORDED_END: &str = "Not recorded: no Honor is awarded (R26).";

/// PsiKnight's table for a channel.
pub fn table(app: Arc<App>, realm: Id, channel: &str) -> Result<Box<dyn Table>> {
    Ok(Box::new(Tiltyard {
        app,
        realm,
        channel: channel.to_string(),
        challenge: None,
        fight: None,
        held: Vec::new(),
        tournament_pause: None,
        private: Vec::new(),
        narration: Narration::Full,
        told_unrecorded: false,
        retry: Retry::default(),
    }))
}

/// PsiKnight's books beyond the one fight log: its fights of knights, its tournaments, and its
/// knights fighting or enlisted ([`crate::games::GameInfo::own_books`]).
pub static OWN_BOOKS: crate::games::OwnBooks = crate::games::OwnBooks {
    holding: |store, realm| {
        Box::pin(async move {
            let held = store.active_tournaments(realm).await?;
            Ok(held.into_iter().map(|t| (t.id, t.channel)).collect())
        })
    },
    engaged: |app, realm, user| {
        Box::pin(async move {
            let mut channels = Vec::new();
            if let Some(k) = app.store.knight_of(realm, user).await? {
                channels.extend(app.fighting_in(k.id));
                channels.extend(app.enlisted_in(k.id));
            }
            Ok(channels)
        })
    },
    export: export::sections,
};

impl Table for Tiltyard {
    fn game(&self) -> &'static str {
        crate::games::PSIKNIGHT.id
    }

    fn has_fight(&self) -> bool {
        self.fight.is_some()
    }

    fn busy(&self) -> bool {
        self.fight.is_some() || self.challenge.is_some() || !self.held.is_empty()
    }

    fn next_deadline(&self) -> Option<DateTime<Utc>> {
        match (self.fight_deadline(), self.tournament_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn handle<'a>(
        &'a mut self,
        user: &'a str,
        _rights: crate::app::Rights,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> BoxFuture<'a, Result<Option<Lines>>> {
        Box::pin(async move {
            match command {
                // Every game's, answered by the session.
                Command::Roll { .. } | Command::Help { .. } => Ok(None),
                c => {
                    let answered = self.dispatch(user, c, now).await;
                    self.retry.answered(answered.is_ok());
                    answered.map(Some)
                }
            }
        })
    }

    /// A deadline passed: a challenge lapses, the awaited fighters get the engine's defaults, or
    /// a tournament here moves on (a reminder, its start, the Melee's time limit).
    fn on_deadline(&mut self, now: DateTime<Utc>) -> BoxFuture<'_, Lines> {
        Box::pin(async move {
            let mut lines = Vec::new();
            if self.fight_deadline().is_some_and(|d| d <= now) {
                lines.extend(self.on_fight_deadline(now).await);
            }
            if self.tournament_deadline().is_some_and(|d| d <= now) {
                lines.extend(self.on_tournament_deadline(now).await);
            }
            lines
        })
    }

    fn restore(
        &mut self,
        open: crate::store::OpenLogged,
        now: DateTime<Utc>,
    ) -> BoxFuture<'_, Result<Lines>> {
        Box::pin(async move {
            let fight = self.app.store.fight_with(open.id, &open.steps).await?;
            self.restore_fight(fight, now).await
        })
    }

    /// The lines the last command left for its speaker alone (a psi skill armed is the
    /// knight's secret until it fires, R21), taken once.
    fn take_private(&mut self) -> Lines {
        std::mem::take(&mut self.private)
    }

    /// Whether `user` is a party to the challenge open here.
    fn engaged(&self, user: &str) -> bool {
        self.challenge
            .as_ref()
            .is_some_and(|c| c.users.iter().any(|u| u.eq_ignore_ascii_case(user)))
    }

    fn set_narration(&mut self, narration: Narration) {
        self.narration = narration;
    }

    fn load(&mut self, announce: bool, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>> {
        Box::pin(self.reload_tournaments(announce, now))
    }
}

impl Tiltyard {
    /// The deadline of the fight or the challenge here.
    fn fight_deadline(&self) -> Option<DateTime<Utc>> {
        match (&self.fight, &self.challenge) {
            (Some(f), _) => Some(f.deadline),
            (None, Some(c)) => Some(c.deadline),
            (None, None) => None,
        }
    }

    /// Whether this channel's fights are told compact.
    async fn compact(&mut self) -> Result<bool> {
        Ok(self.narration == Narration::Compact)
    }

    async fn dispatch(
        &mut self,
        user: &str,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        // Answered from the reference: a decision, the most said, is copied, not the command.
        match command {
            Command::Challenge { target } => self.joust(user, target, now).await,
            Command::Sheet { name } => {
                let knight = PsiCommand::Knight { name: name.clone() };
                desk::handle(&self.app, self.realm, user, knight.into(), now).await
            }
            Command::Record { .. } => Ok(vec![
                "PsiKnight keeps Honor and Prestige, not a record of wins: /honor NAME, /ledger NAME."
                    .into(),
            ]),
            Command::NpcCreate { .. } | Command::NpcRetire { .. } | Command::As { .. } => {
                Ok(vec![format!(
                    "PsiKnight has no non-player characters; {} plays PsiKnight.",
                    self.channel
                )])
            }
            Command::Accept => match self.melee_answer(user, true, now).await? {
                Some(lines) => Ok(lines),
                None => self.accept(user, now).await,
            },
            Command::Decline => match self.melee_answer(user, false, now).await? {
                Some(lines) => Ok(lines),
                None => self.decline(user, now).await,
            },
            Command::Status => {
                self.own_psi(user);
                Ok(self.status(now))
            }
            Command::Own(own) => match own.get::<PsiCommand>() {
                Some(PsiCommand::Joust { target }) => self.joust(user, target, now).await,
                Some(PsiCommand::Decide(decision)) => self.decide(user, *decision, now).await,
                Some(c) if held::handles(c) => self.tournament_command(user, c.clone(), now).await,
                _ => desk::handle(&self.app, self.realm, user, command.clone(), now).await,
            },
            other => desk::handle(&self.app, self.realm, user, other.clone(), now).await,
        }
    }

    async fn joust(&mut self, user: &str, target: &str, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(f) = &self.fight {
            return Ok(vec![crate::challenge::fight_on(
                &self.channel,
                &f.own.styled[0],
                &f.own.styled[1],
            )]);
        }
        if let Some(c) = &self.challenge {
            return Ok(vec![crate::challenge::pending(
                &c.knights[0].styled(),
                &c.knights[1].styled(),
            )]);
        }
        if let Some(t) = self.running() {
            return Ok(vec![format!(
                "{} is under way in {}; practice jousts wait until it is over, or go to another channel.",
                t.record.name, self.channel
            )]);
        }
        let store = &self.app.store;
        let Some(mine) = store.knight_of(self.realm, user).await? else {
            return Ok(vec![format!(
                "{user}, you have no knight yet. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH"
            )]);
        };
        // R170: one resolver for every command that names a knight.
        let (theirs, note) = match resolve::knight(&self.app, self.realm, target, "/joust").await? {
            Ok(found) => (found.knight, found.note),
            Err(miss) => {
                return Ok(vec![miss.line(
                    "/joust TARGET (a knight's name, a player's nick, or @nick for the player)",
                )])
            }
        };
        if theirs.id == mine.id {
            return Ok(vec![
                "A knight cannot joust against themself. Usage: /joust TARGET".into(),
            ]);
        }
        for k in [&mine, &theirs] {
            if let Some(c) = self.app.fighting_in(k.id) {
                return Ok(vec![fighting_elsewhere(&k.styled(), &c)]);
            }
            if let Some(c) = self.app.enlisted_in(k.id) {
                return Ok(vec![format!(
                    "{} is in the tournament under way in {c}, and fights only there until out of it.",
                    k.styled()
                )]);
            }
        }
        for k in [&mine, &theirs] {
            if let Some(refusal) = office::fight_refusal(&self.app, k).await? {
                return Ok(vec![refusal]);
            }
        }
        let day = self.app.day_in(self.realm, now);
        for k in [&mine, &theirs] {
            if store.injured_on(k.id, &day).await? {
                return Ok(vec![format!(
                    "{} is out with a major injury for the rest of the day (R12).",
                    k.styled()
                )]);
            }
        }
        let secs = self.app.settings(self.realm).challenge_timeout_secs;
        let mut lines: Lines = note.into_iter().collect();
        lines.push(crate::challenge::issued(
            &mine.styled(),
            &theirs.styled(),
            "a practice joust",
            &theirs.owner,
            secs,
        ));
        let told_unrecorded = store
            .practice_recorded(self.realm, mine.id, theirs.id, &day)
            .await?;
        if told_unrecorded {
            lines.push(format!(
                "Note: this fight will not be recorded: {} and {} have already had their recorded practice fight today (R26).",
                mine.styled(),
                theirs.styled()
            ));
        }
        // R33: between hostile parties a practice joust is fought for ransom; said before it starts.
        if let Some(notice) =
            office::ransom_notice(&self.app, self.realm, mine.id, theirs.id).await?
        {
            lines.push(notice);
        }
        let users = [user.to_string(), theirs.owner.clone()];
        self.challenge = Some(Challenge {
            knights: [mine, theirs],
            users,
            armed: [None, None],
            deadline: now + self.app.challenge_timeout(self.realm),
            told_unrecorded,
        });
        if self.compact().await? {
            return Ok(vec![lines.join(crate::narration::CLAUSE)]);
        }
        Ok(lines)
    }

    async fn accept(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        let answerable = self
            .challenge
            .as_ref()
            .is_some_and(|c| c.users[1].eq_ignore_ascii_case(user));
        if !answerable {
            // Not this channel's challenge to answer: perhaps an offer of allegiance or peace.
            if let Some(lines) = office::accept(&self.app, self.realm, user, now).await? {
                return Ok(lines);
            }
        }
        let Some(c) = self.challenge.clone() else {
            return Ok(vec![crate::challenge::nothing_to_accept("joust")]);
        };
        for k in &c.knights {
            if let Some(refusal) = office::fight_refusal(&self.app, k).await? {
                return Ok(vec![refusal]);
            }
        }
        if !c.users[1].eq_ignore_ascii_case(user) {
            return Ok(vec![format!(
                "Only {} ({}) can accept this challenge.",
                c.knights[1].styled(),
                c.users[1]
            )]);
        }
        let ids = [c.knights[0].id, c.knights[1].id];
        let names = [c.knights[0].styled(), c.knights[1].styled()];
        if let Err((k, other)) = self.app.claim(&ids, &self.channel) {
            let who = if k == ids[0] {
                c.knights[0].styled()
            } else {
                c.knights[1].styled()
            };
            return Ok(vec![fighting_elsewhere(&who, &other)]);
        }
        let bout = Bout {
            knights: c.knights,
            users: c.users,
            armed: c.armed,
            kind: MatchKind::Practice,
            tournament: None,
            for_ransom: false,
        };
        self.told_unrecorded = c.told_unrecorded;
        match self.start_fight(bout, now).await {
            Ok(lines) => {
                self.challenge = None;
                Ok(lines)
            }
            Err(e) => {
                self.app.release(&ids);
                // Claimed in the books by a fight another process started.
                if let Some(line) = claimed_elsewhere(&e, &ids, &names, "A knight") {
                    return Ok(vec![line]);
                }
                Err(e)
            }
        }
    }

    /// Starts a fight whose knights are already claimed for this channel.
    async fn start_fight(&mut self, c: Bout, now: DateTime<Utc>) -> Result<Lines> {
        let compact = self.compact().await?;
        let told_unrecorded = std::mem::take(&mut self.told_unrecorded);
        let setup = MatchSetup {
            kind: c.kind,
            opening: Opening::Joust,
            knights: [c.knights[0].sheet.clone(), c.knights[1].sheet.clone()],
            armed: c.armed,
        };
        let seed = self.app.next_seed();
        let mut opened = crate::live::open::<Match>(setup.clone(), seed, &self.app.queue, now);
        let day = self.app.day_in(self.realm, now);
        // Whether the fight is for ransom is fixed at its start, and stored with it; a peace
        // made during the fight does not change it (R33, R156).
        let ransom = match c.kind {
            MatchKind::Practice => {
                office::ransom_notice(&self.app, self.realm, c.knights[0].id, c.knights[1].id)
                    .await?
            }
            // R39: a melee pass between hostile parties is for ransom, as decided at the offer.
            MatchKind::Melee if c.for_ransom => Some("This pass is fought for ransom (R39): a knight unhorsed while the other stays mounted is captured (R137).".to_string()),
            _ => None,
        };
        let for_ransom = ransom.is_some();
        let (id, recorded) = self
            .app
            .store
            .start_fight(
                NewFight {
                    realm: self.realm,
                    channel: &self.channel,
                    knights: [c.knights[0].id, c.knights[1].id],
                    users: [&c.users[0], &c.users[1]],
                    setup: &setup,
                    seed,
                    day: &day,
                    at: now,
                    tournament: c.tournament.as_ref().map(|(t, _)| *t),
                    ransom: for_ransom,
                },
                &opened.step,
            )
            .await?;
        let styled = [c.knights[0].styled(), c.knights[1].styled()];
        let plain = [
            c.knights[0].sheet.name.clone(),
            c.knights[1].sheet.name.clone(),
        ];
        let what = c
            .tournament
            .as_ref()
            .map_or("a practice joust", |(_, label)| label.as_str());
        let mut lines = vec![crate::live::opening_line(id, &styled, what, &seed)];
        if !recorded && c.kind == MatchKind::Practice {
            lines.push(NOT_RECORDED_START.into());
        }
        lines.extend(ransom);
        let events = std::mem::take(&mut opened.events);
        log_events(&self.app, &events, &plain);
        if !compact {
            lines.extend(narrate(&events, &styled));
        }
        let jousters = Jousters {
            tournament: c.tournament.map(|(t, _)| t),
            knights: [c.knights[0].id, c.knights[1].id],
            users: c.users,
            styled,
            plain,
            recorded,
            for_ransom,
        };
        self.fight = Some(Live::new(
            id,
            opened,
            now + self.app.decision_timeout(self.realm),
            jousters,
        ));
        if compact {
            return Ok(self.compact_start(lines, told_unrecorded, &events, now));
        }
        lines.extend(self.after_step(now).await?);
        Ok(lines)
    }

    async fn decline(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        if self.fight.is_some() {
            return self.decide(user, Decision::Decline, now).await;
        }
        let party = self
            .challenge
            .as_ref()
            .is_some_and(|c| c.users.iter().any(|u| u.eq_ignore_ascii_case(user)));
        if !party {
            if let Some(lines) = office::decline(&self.app, self.realm, user, now).await? {
                return Ok(lines);
            }
        }
        let Some(c) = &self.challenge else {
            return Ok(vec![
                "There is no challenge or question to decline here.".into()
            ]);
        };
        if c.users[1].eq_ignore_ascii_case(user) {
            let line = crate::challenge::declined(&c.knights[1].styled(), &c.knights[0].styled());
            self.challenge = None;
            Ok(vec![line])
        } else if c.users[0].eq_ignore_ascii_case(user) {
            let line = crate::challenge::withdrawn(&c.knights[0].styled());
            self.challenge = None;
            Ok(vec![line])
        } else {
            Ok(vec![format!(
                "Only {} can decline this challenge.",
                c.users[1]
            )])
        }
    }

    fn side_of(users: &[String; 2], user: &str) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| users[s.index()].eq_ignore_ascii_case(user))
    }

    async fn decide(
        &mut self,
        user: &str,
        decision: Decision,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        // A knight of the tournament here arms psi for their next match, whenever they say so.
        if let Decision::Psi(skill) = decision {
            let fighting_here = self
                .fight
                .as_ref()
                .is_some_and(|f| Self::side_of(&f.own.users, user).is_some());
            if !fighting_here {
                if let Some(lines) = self.arm_for_tournament(user, skill).await? {
                    return Ok(lines);
                }
            }
        }
        // Psi declarations are taken from the challenge on (R21).
        if self.fight.is_none() {
            if let (Some(c), Decision::Psi(skill)) = (&mut self.challenge, decision) {
                let Some(side) = Self::side_of(&c.users, user) else {
                    return Ok(vec![
                        "Only the two knights of this challenge may declare psi.".into(),
                    ]);
                };
                let knight = &c.knights[side.index()];
                // R21: the skill is the knight's secret until it fires; the channel hears only
                // that one is readied.
                if let Some(s) = skill {
                    if knight.sheet.psi(s) == 0 {
                        self.private
                            .push(format!("{} has no {s} (R21).", knight.styled()));
                        return Ok(Vec::new());
                    }
                }
                c.armed[side.index()] = skill;
                self.private.push(match skill {
                    Some(s) => format!("{} arms {s}.", knight.styled()),
                    None => format!("{} disarms psi.", knight.styled()),
                });
                return Ok(skill
                    .map(|_| readied(&knight.styled()))
                    .into_iter()
                    .collect());
            }
            return Ok(vec![crate::challenge::no_fight(&self.channel, "joust")]);
        }
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let Some(side) = Self::side_of(&f.own.users, user) else {
            let who = Side::BOTH.map(|s| {
                let i = s.index();
                format!("{} ({})", f.own.styled[i], f.own.users[i])
            });
            let waiting = waiting(&f.fight, &f.own.styled, &f.own.users);
            return Ok(vec![crate::live::not_fighting_line(&who, &waiting)]);
        };
        self.apply(side, decision, now, None).await
    }

    /// Applies a decision for `side`, stores it, and narrates. `timed_out` names a default taken
    /// on a timeout.
    async fn apply(
        &mut self,
        side: Side,
        decision: Decision,
        now: DateTime<Utc>,
        timed_out: Option<&str>,
    ) -> Result<Lines> {
        let compact = self.compact().await?;
        let timeout = self.app.decision_timeout(self.realm);
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let mv = match f.try_move(&self.app.queue, side, decision, now) {
            Ok(mv) => mv,
            Err(err) => {
                let line = refusal(&f.fight, &err, &f.own.styled, &f.own.users, side);
                // A refused declaration names the skill: for its knight alone.
                if matches!(decision, Decision::Psi(_)) {
                    self.private.push(line);
                    return Ok(Vec::new());
                }
                return Ok(vec![line]);
            }
        };
        let written = if f.fight.is_over() {
            self.write_end(&mv.step, now).await
        } else {
            f.write_step(&self.app.store, &mv.step)
                .await
                .map(|()| Lines::new())
        };
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let (events, end_lines) = f.settle(mv, written, now, timeout)?;
        // R21: the skill armed is told to its knight alone, however the channel's fights are
        // narrated; the channel hears that one is readied, and nothing of a disarming. A
        // declaration ends nothing and changes no one's turn, so nothing more is said.
        if let Decision::Psi(skill) = decision {
            log_events(&self.app, &events, &f.own.plain);
            self.private.extend(narrate(&events, &f.own.styled));
            return Ok(skill
                .map(|_| readied(&f.own.styled[side.index()]))
                .into_iter()
                .collect());
        }
        log_events(&self.app, &events, &f.own.plain);
        if compact {
            return self
                .compact_step(&events, decision, timed_out, end_lines, now)
                .await;
        }
        let mut lines = Vec::new();
        if let Some(who) = timed_out {
            lines.push(crate::live::timed_out_line(who, decision.word()));
        }
        lines.extend(narrate(&events, &f.own.styled));
        lines.extend(end_lines);
        // A declaration changes no one's turn: the prompt already standing still holds.
        if !matches!(decision, Decision::Bonus(_) | Decision::Psi(_)) {
            lines.extend(self.after_step(now).await?);
        }
        Ok(lines)
    }

    /// Writes a finished fight: outcome, award, injuries, one transaction (R26–R29).
    async fn write_end(&mut self, last: &Step, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let Some(outcome) = f.fight.outcome().cloned() else {
            return Ok(Vec::new());
        };
        let month = self.app.month_in(self.realm, now);
        let winner_side = outcome.winner;
        let end = FightEnd {
            realm: self.realm,
            fight: f.id,
            seq: f.seq,
            last: last.clone(),
            winner: outcome.winner.map(|w| f.own.knights[w.index()]),
            injured: Side::BOTH
                .into_iter()
                .filter(|s| outcome.major_injury[s.index()])
                .map(|s| f.own.knights[s.index()])
                .collect(),
            outcome,
            practice: f.fight.kind() == MatchKind::Practice,
            recorded: f.own.recorded,
            day: self.app.day_in(self.realm, now),
            month: month.clone(),
            tournament: None,
        };
        let (end, next) = self.with_tournament_result(end, now);
        let name = |id: Id| {
            let side = if f.own.knights[0] == id { 0 } else { 1 };
            f.own.styled[side].clone()
        };
        let mut lines = vec![match self.app.store.finish_fight(end).await? {
            FightAward::Awarded { knight, hp, pp } if pp.is_positive() => {
                format!("{} earns {hp} HP and {pp} PP (landed, R29).", name(knight))
            }
            FightAward::Awarded { knight, hp, .. } => format!("{} earns {hp} HP.", name(knight)),
            FightAward::MonthlyLimit { knight } => format!(
                "{} has already earned {} practice HP in {month}: no HP for this win (R28).",
                name(knight),
                books::PRACTICE_HP_PER_MONTH
            ),
            FightAward::NotRecorded => NOT_RECORDED_END.into(),
            FightAward::Draw => "A draw earns no Honor (R28).".into(),
            FightAward::None => String::new(),
        }];
        lines.retain(|l| !l.is_empty());
        // R33: the loser of a fight for ransom is captured.
        if let (Some(w), true) = (winner_side, f.own.for_ransom) {
            lines.extend(
                office::capture_after_fight(
                    &self.app,
                    self.realm,
                    f.id,
                    f.own.knights[w.index()],
                    f.own.knights[w.other().index()],
                    &f.own.users[w.index()],
                    now,
                )
                .await?,
            );
        }
        lines.push(f.over_line(&self.app, self.realm));
        if let Some(next) = next {
            lines.extend(self.take_tournament_result(next));
        }
        Ok(lines)
    }

    /// After a step: the prompt for whoever must act, or the end of the fight.
    async fn after_step(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        if f.fight.is_over() {
            self.app.release(&f.own.knights);
            self.fight = None;
            // The tournament here goes on with its next match, stage or start.
            // Boxed: the next match starts a fight, whose end comes back here.
            return Box::pin(self.continue_tournaments(now)).await;
        }
        Ok(self.prompts(now))
    }

    fn prompts(&self, now: DateTime<Utc>) -> Lines {
        let Some(f) = &self.fight else {
            return Vec::new();
        };
        let left = f.left(now);
        f.fight
            .pending()
            .iter()
            .map(|p| prompt_line(&f.fight, p, &f.own.styled, &f.own.users, left))
            .collect()
    }

    /// For `/status`, the speaker's own armed psi skill, told to them alone (R21): the
    /// channel's lines never name it.
    fn own_psi(&mut self, user: &str) {
        let (armed, styled) = if let Some(f) = &self.fight {
            let Some(i) = f
                .own
                .users
                .iter()
                .position(|u| u.eq_ignore_ascii_case(user))
            else {
                return;
            };
            (f.fight.armed(Side::BOTH[i]), f.own.styled[i].clone())
        } else if let Some(c) = &self.challenge {
            let Some(i) = c.users.iter().position(|u| u.eq_ignore_ascii_case(user)) else {
                return;
            };
            (c.armed[i], c.knights[i].styled())
        } else {
            return;
        };
        self.private.push(match armed {
            Some(s) => format!("{styled} has {s} armed; it fires at its next moment (R21)."),
            None => format!("{styled} has no psi skill armed; /psi SKILL arms one (R21)."),
        });
    }

    fn status(&self, now: DateTime<Utc>) -> Lines {
        if let Some(f) = &self.fight {
            let stage = if f.fight.in_swordplay() {
                "Swordplay".to_string()
            } else {
                format!("Joust, pass {}", f.fight.pass())
            };
            let mut lines = vec![format!(
                "Fight #{}: {} vs {}, {stage}.",
                f.id, f.own.styled[0], f.own.styled[1]
            )];
            lines.push(picture::fight_standing(&f.fight, &f.own.styled));
            lines.extend(self.prompts(now));
            return lines;
        }
        if let Some(c) = &self.challenge {
            let left = (c.deadline - now).num_seconds().max(0);
            return vec![format!(
                "{} has challenged {}; waiting for {} to /accept or /decline ({left}s).",
                c.knights[0].styled(),
                c.knights[1].styled(),
                c.users[1]
            )];
        }
        if let Some(line) = self.tournament_status(now) {
            return vec![line];
        }
        vec![format!(
            "No fight in {}. Challenge someone: /joust TARGET",
            self.channel
        )]
    }

    async fn on_fight_deadline(&mut self, now: DateTime<Utc>) -> Lines {
        if self.fight.is_none() {
            if let Some(c) = self.challenge.take() {
                return vec![crate::challenge::lapsed(
                    &c.knights[0].styled(),
                    &c.knights[1].styled(),
                )];
            }
            return Vec::new();
        }
        let mut lines = Vec::new();
        let result = self.take_defaults(now, &mut lines).await;
        let deadline = self.fight.as_mut().map(|f| &mut f.deadline);
        self.retry
            .after(lines, result, deadline, now, &self.channel)
    }

    /// Every fighter awaited gets the default (both, for R41's question), each default's lines
    /// added to `lines` as it is taken.
    async fn take_defaults(&mut self, now: DateTime<Utc>, lines: &mut Lines) -> Result<()> {
        for _ in 0..2 {
            let Some(f) = &self.fight else { break };
            let Some((side, kind)) = Side::BOTH
                .into_iter()
                .find_map(|s| f.fight.awaiting()[s.index()].map(|k| (s, k)))
            else {
                break;
            };
            let Some(default) = f.fight.default_decision(side) else {
                break;
            };
            let who = format!(
                "{} ({})",
                f.own.styled[side.index()],
                f.own.users[side.index()]
            );
            lines.extend(self.apply(side, default, now, Some(&who)).await?);
            // A default taken is a deadline that worked: a later failure is told anew.
            self.retry.answered(true);
            if kind != PromptKind::FightOn {
                break;
            }
        }
        Ok(())
    }

    /// Restores a fight in progress from the books by replaying its steps, and says where it
    /// stands.
    async fn restore_fight(&mut self, fight: OpenFight, now: DateTime<Utc>) -> Result<Lines> {
        let mut styled = [String::new(), String::new()];
        for (i, id) in fight.knights.iter().enumerate() {
            styled[i] = match self.app.store.knight(*id).await? {
                Some(k) => k.styled(),
                None => fight.setup.knights[i].styled(),
            };
        }
        let (m, rng, _) = verify::replay(&fight)?;
        let plain = [
            fight.setup.knights[0].name.clone(),
            fight.setup.knights[1].name.clone(),
        ];
        if let Err((_, other)) = self.app.claim(&fight.knights, &self.channel) {
            anyhow::bail!(
                "a knight of fight #{} is also fighting in {other}",
                fight.id
            );
        }
        let jousters = Jousters {
            tournament: fight.tournament,
            knights: fight.knights,
            users: fight.users,
            styled,
            plain,
            recorded: fight.recorded,
            for_ransom: fight.ransom,
        };
        let deadline = now + self.app.decision_timeout(self.realm);
        self.fight = Some(Live::restored(
            fight.id,
            (m, rng),
            fight.seed,
            fight.steps.len(),
            deadline,
            jousters,
        ));
        let mut lines = vec![crate::live::resumed_line(fight.id)];
        lines.extend(self.status(now));
        Ok(lines)
    }
}

/// Writes a joust's events to the `--events` sink, if any, with knights by display name; they
/// name no game, as they did before there were others.
fn log_events(app: &App, events: &[herald_engine::psiknight::Event], names: &[String; 2]) {
    app.write_events(
        events
            .iter()
            .filter_map(|e| serde_json::to_string(&e.named(names)).ok()),
    );
}

/// "waiting for Dame Dara (dana) to announce a sweep or not: /sweep, /nosweep, /yield".
fn waiting(m: &Match, styled: &Names, users: &[String; 2]) -> String {
    let who: Vec<String> = m
        .pending()
        .iter()
        .map(|p| {
            format!(
                "{} ({}) {}: {}",
                styled[p.side.index()],
                users[p.side.index()],
                p.kind.describe(),
                p.options
                    .iter()
                    .map(|d| format!("/{}", d.word()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    format!("waiting for {}", who.join("; "))
}

/// What the channel hears of a psi skill armed (R21): that one is, not which.
fn readied(knight: &str) -> String {
    format!("{knight} has readied a psi skill.")
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A refused decision as one line: what was wrong and what to do instead.
fn refusal(m: &Match, err: &RuleError, styled: &Names, users: &[String; 2], side: Side) -> String {
    let me = &styled[side.index()];
    match err {
        RuleError::NotYourTurn { .. } | RuleError::AlreadyAnswered => {
            format!(
                "Not your move, {me}. {}.",
                capitalized(&waiting(m, styled, users))
            )
        }
        RuleError::NotAnOption {
            decision,
            kind,
            options,
        } => format!(
            "/{} is not a choice now, {me}: {} with {}.",
            decision.word(),
            kind.describe(),
            options
                .iter()
                .map(|d| format!("/{}", d.word()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        RuleError::MatchOver => "That fight is over.".into(),
        other => format!("{me}: {other}."),
    }
}
