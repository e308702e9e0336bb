//! PsiKnight on the referee: its knights, the rules around its fights (R12, R21, R26–R29, R33,
//! R41) and the tournaments a channel holds, as the referee's [`Ruleset`].
//!
//! It never reads a clock: `now` comes with every call, from the transport's clock (the wall
//! clock live, the transcript's `@clock` in scripts). It never rolls a die of its own: a
//! fight's dice are its seeded stream behind the `@dice` queue. Every change to the books is one
//! transaction in [`crate::store`]; if it fails, the fight in memory is put back as it was.

use crate::app::App;
use crate::command::Command;
use crate::games::Sides;
use crate::narration::Narration;
use crate::referee::{
    Begun, Cast, Challenge, Fighter, Note, Proposal, Referee, Restored, Ruleset, Told,
};
use crate::store::{FightAward, FightEnd, Id, KnightRecord, NewFight, OpenLogged, Step};
use anyhow::Result;
use chrono::{DateTime, Utc};
use command::PsiCommand;
use herald_engine::psiknight::books;
use herald_engine::psiknight::{
    Decision, Event, Match, MatchKind, MatchSetup, Opening, PromptKind, PsiSkill, RuleError, Side,
};
use render::{narrate, prompt_line};
use std::future::Future;

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

/// PsiKnight on the referee: its fighters are the knights of its own books, its fights start
/// and end in them (R26–R29, R12, R33), and a channel holds its tournaments.
pub struct PsiKnight;

/// What a joust starts on beyond its knights.
#[derive(Clone, Debug)]
pub struct Terms {
    /// Psi armed during the challenge or for a tournament's match (R21).
    armed: [Option<PsiSkill>; 2],
    kind: MatchKind,
    /// The tournament it belongs to, and how to name it ("a Lists match of the Yule Lists").
    tournament: Option<(Id, String)>,
    /// A Melee pass for ransom (R39); a practice joust decides this itself at the start (R33).
    for_ransom: bool,
    /// Whether the challenge said the fight will not be recorded (R26).
    told_unrecorded: bool,
}

impl Default for Terms {
    fn default() -> Self {
        Terms {
            armed: [None, None],
            kind: MatchKind::Practice,
            tournament: None,
            for_ransom: false,
            told_unrecorded: false,
        }
    }
}

/// What a joust in progress keeps beyond its knights.
pub struct Booked {
    /// The tournament it is a match of.
    tournament: Option<Id>,
    recorded: bool,
    /// Fought for ransom (R33, R39): the loser is captured at the end.
    for_ransom: bool,
}

/// The tournaments a channel holds, scheduled or under way.
#[derive(Default)]
pub struct Tournaments {
    list: Vec<Held>,
    /// After a failure to write a tournament's books: no tournament deadline before this.
    pause: Option<DateTime<Utc>>,
}

/// A channel's PsiKnight: its challenge, its fight and the tournaments it holds.
pub type Tiltyard = Referee<PsiKnight>;

pub use crate::reply::Lines;

/// Said as a practice fight starts unrecorded (R26).
const NOT_RECORDED_START: &str =
    "This fight is not recorded: the pair already had its recorded practice fight today (R26).";

/// Said as an unrecorded practice fight ends (R26).
const NOT_RECORDED_END: &str = "Not recorded: no Honor is awarded (R26).";

impl Fighter for KnightRecord {
    fn id(&self) -> Id {
        self.id
    }
    fn name(&self) -> &str {
        &self.sheet.name
    }
    fn user(&self) -> String {
        self.owner.clone()
    }
}

impl Cast<PsiKnight> {
    /// The two knights' ids.
    fn knights(&self) -> [Id; 2] {
        [self.fighters[0].id, self.fighters[1].id]
    }
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

impl Ruleset for PsiKnight {
    type Fight = Match;
    type Fighter = KnightRecord;
    type Terms = Terms;
    type Booked = Booked;
    type Held = Tournaments;

    const ID: &'static str = "psiknight";
    const NAME: &'static str = "PsiKnight";
    const BOUT: &'static str = "a practice joust";
    const VERB: &'static str = "joust";
    const NOTHING_TO_DECLINE: &'static str = "There is no challenge or question to decline here.";
    const ANYONE: &'static str = "A knight";

    fn new(_config: &crate::config::Config) -> Result<Self> {
        Ok(PsiKnight)
    }

    fn styled(&self, knight: &KnightRecord) -> String {
        knight.styled()
    }

    fn setup(
        &self,
        knights: &[&KnightRecord],
        _challengers: usize,
        terms: &Terms,
    ) -> Result<MatchSetup> {
        let [a, b] = knights else {
            anyhow::bail!("a joust is fought by two knights");
        };
        Ok(MatchSetup {
            kind: terms.kind,
            opening: Opening::Joust,
            knights: [a.sheet.clone(), b.sheet.clone()],
            armed: terms.armed,
        })
    }

    fn narrate(&self, events: &[Event], sides: &Sides) -> Lines {
        narrate(events, &sides.styled)
    }

    fn prompts(&self, fight: &Match, sides: &Sides, left_secs: u64) -> Lines {
        fight
            .pending()
            .iter()
            .map(|p| prompt_line(fight, p, &sides.styled, &sides.users, left_secs))
            .collect()
    }

    fn standing(&self, id: Id, fight: &Match, sides: &Sides) -> Lines {
        let stage = if fight.in_swordplay() {
            "Swordplay".to_string()
        } else {
            format!("Joust, pass {}", fight.pass())
        };
        vec![
            format!(
                "Fight #{id}: {} vs {}, {stage}.",
                sides.styled[0], sides.styled[1]
            ),
            picture::fight_standing(fight, &sides.styled),
        ]
    }

    fn refusal(&self, fight: &Match, error: &RuleError, sides: &Sides, member: usize) -> String {
        let me = &sides.styled[member.min(1)];
        match error {
            RuleError::NotYourTurn { .. } | RuleError::AlreadyAnswered => format!(
                "Not your move, {me}. {}.",
                capitalized(&crate::referee::waiting(self, fight, sides))
            ),
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

    /// Joust events name no game, as they did before there were others.
    fn log(r: &Tiltyard, events: &[Event], sides: &Sides) {
        r.app.write_events(
            events
                .iter()
                .filter_map(|e| serde_json::to_string(&e.named(&sides.plain)).ok()),
        );
    }

    fn claim(app: &App, ids: &[Id], channel: &str) -> Result<(), (Id, String)> {
        app.claim(ids, channel)
    }

    fn release(app: &App, ids: &[Id]) {
        app.release(ids);
    }

    fn fighting_in(app: &App, id: Id) -> Option<String> {
        app.fighting_in(id)
    }

    fn command<'a>(
        r: &'a mut Tiltyard,
        user: &'a str,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        r.psi_command(user, command, now)
    }

    fn propose<'a>(
        r: &'a mut Tiltyard,
        user: &'a str,
        target: &'a str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<std::result::Result<Proposal<Self>, Lines>>> + Send + 'a {
        r.propose(user, target, now)
    }

    fn said(r: &Tiltyard, lines: Lines) -> Lines {
        if r.narration == Narration::Compact {
            return vec![lines.join(crate::narration::CLAUSE)];
        }
        lines
    }

    fn answer<'a>(
        r: &'a mut Tiltyard,
        user: &'a str,
        accept: bool,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        r.answer(user, accept, now)
    }

    async fn recheck(r: &Tiltyard, knights: &[KnightRecord]) -> Result<Option<String>> {
        for k in knights {
            if let Some(refusal) = office::fight_refusal(&r.app, k).await? {
                return Ok(Some(refusal));
            }
        }
        Ok(None)
    }

    fn decline_in_fight(&self) -> Option<Decision> {
        Some(Decision::Decline)
    }

    fn declare<'a>(
        r: &'a mut Tiltyard,
        user: &'a str,
        decision: Decision,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        r.declare(user, decision)
    }

    fn begin<'a>(
        r: &'a Tiltyard,
        knights: &'a [KnightRecord],
        sides: &'a Sides,
        terms: &'a Terms,
        setup: &'a MatchSetup,
        seed: [u8; 32],
        first: &'a Step,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Begun<Self>>> + Send + 'a {
        r.write_start(knights, sides, terms, setup, seed, first, now)
    }

    async fn opened(
        r: &mut Tiltyard,
        lines: Lines,
        events: Vec<Event>,
        terms: Terms,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        if r.narration == Narration::Compact {
            return Ok(r.compact_start(lines, terms.told_unrecorded, &events, now));
        }
        r.tell_opening(lines, events, now).await
    }

    fn refused(r: &mut Tiltyard, decision: &Decision, line: String) -> Lines {
        // A refused declaration names the skill: for its knight alone.
        if matches!(decision, Decision::Psi(_)) {
            r.private.push(line);
            return Vec::new();
        }
        vec![line]
    }

    fn end<'a>(
        r: &'a mut Tiltyard,
        last: &'a Step,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        r.write_end(last, now)
    }

    fn told<'a>(
        r: &'a mut Tiltyard,
        told: Told<Self>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        r.told(told, now)
    }

    fn after_fight(
        r: &mut Tiltyard,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        // The tournament here goes on with its next match, stage or start.
        r.after_fight(now)
    }

    fn defaults(
        r: &mut Tiltyard,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        r.defaults(now)
    }

    fn held_deadline(r: &Tiltyard) -> Option<DateTime<Utc>> {
        r.tournament_deadline()
    }

    /// The fight's or the challenge's deadline, then a tournament's here (a reminder, its
    /// start, the Melee's time limit).
    async fn on_deadline(r: &mut Tiltyard, now: DateTime<Utc>) -> Lines {
        let mut lines = r.fight_deadline(now).await;
        if r.tournament_deadline().is_some_and(|d| d <= now) {
            lines.extend(r.on_tournament_deadline(now).await);
        }
        lines
    }

    fn restore(
        r: &Tiltyard,
        open: OpenLogged,
    ) -> impl Future<Output = Result<Restored<Self>>> + Send + '_ {
        r.restore_fight(open)
    }

    fn idle(r: &Tiltyard, now: DateTime<Utc>) -> Lines {
        if let Some(line) = r.tournament_status(now) {
            return vec![line];
        }
        vec![format!(
            "No fight in {}. Challenge someone: /joust TARGET",
            r.channel
        )]
    }

    fn on_status(r: &mut Tiltyard, user: &str) {
        r.own_psi(user);
    }

    fn engaged(r: &Tiltyard, user: &str) -> bool {
        r.challenge
            .as_ref()
            .is_some_and(|c| c.sides.member_of(user).is_some())
    }

    fn busy(r: &Tiltyard) -> bool {
        r.challenge.is_some() || !r.held.list.is_empty()
    }

    fn load(
        r: &mut Tiltyard,
        announce: bool,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        r.reload_tournaments(announce, now)
    }
}

impl Tiltyard {
    async fn psi_command(
        &mut self,
        user: &str,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let lines = match command {
            // Every game's, answered by the session.
            Command::Roll { .. } | Command::Help { .. } => return Ok(None),
            Command::Sheet { name } => {
                let knight = PsiCommand::Knight { name: name.clone() };
                Box::pin(desk::handle(&self.app, self.realm, user, knight.into(), now)).await?
            }
            Command::Record { .. } => vec![
                "PsiKnight keeps Honor and Prestige, not a record of wins: /honor NAME, /ledger NAME."
                    .into(),
            ],
            Command::NpcCreate { .. } | Command::NpcRetire { .. } | Command::As { .. } => {
                vec![format!(
                    "PsiKnight has no non-player characters; {} plays PsiKnight.",
                    self.channel
                )]
            }
            Command::Own(own) => match own.get::<PsiCommand>() {
                Some(PsiCommand::Joust { target }) => {
                    Box::pin(self.challenge(user, target, now)).await?
                }
                Some(PsiCommand::Decide(decision)) => self.decide(user, *decision, now).await?,
                Some(c) if held::handles(c) => {
                    Box::pin(self.tournament_command(user, c.clone(), now)).await?
                }
                _ => Box::pin(desk::handle(&self.app, self.realm, user, command.clone(), now)).await?,
            },
            other => Box::pin(desk::handle(&self.app, self.realm, user, other.clone(), now)).await?,
        };
        Ok(Some(lines))
    }

    /// `/joust TARGET`: both knights found (R170), free, and able to fight today; what the
    /// challenge must say (R26, R33).
    async fn propose(
        &mut self,
        user: &str,
        target: &str,
        now: DateTime<Utc>,
    ) -> Result<std::result::Result<Proposal<PsiKnight>, Lines>> {
        if let Some(t) = self.running() {
            return Ok(Err(vec![format!(
                "{} is under way in {}; practice jousts wait until it is over, or go to another channel.",
                t.record.name, self.channel
            )]));
        }
        let store = &self.app.store;
        let Some(mine) = store.knight_of(self.realm, user).await? else {
            return Ok(Err(vec![format!(
                "{user}, you have no knight yet. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH"
            )]));
        };
        // R170: one resolver for every command that names a knight.
        let (theirs, note) = match resolve::knight(&self.app, self.realm, target, "/joust").await? {
            Ok(found) => (found.knight, found.note),
            Err(miss) => {
                return Ok(Err(vec![miss.line(
                    "/joust TARGET (a knight's name, a player's nick, or @nick for the player)",
                )]))
            }
        };
        if theirs.id == mine.id {
            return Ok(Err(vec![
                "A knight cannot joust against themself. Usage: /joust TARGET".into(),
            ]));
        }
        for k in [&mine, &theirs] {
            if let Some(line) = self.fighting(&[k]) {
                return Ok(Err(vec![line]));
            }
            if let Some(c) = self.app.enlisted_in(k.id) {
                return Ok(Err(vec![format!(
                    "{} is in the tournament under way in {c}, and fights only there until out of it.",
                    k.styled()
                )]));
            }
        }
        for k in [&mine, &theirs] {
            if let Some(refusal) = office::fight_refusal(&self.app, k).await? {
                return Ok(Err(vec![refusal]));
            }
        }
        let day = self.app.day_in(self.realm, now);
        for k in [&mine, &theirs] {
            if store.injured_on(k.id, &day).await? {
                return Ok(Err(vec![format!(
                    "{} is out with a major injury for the rest of the day (R12).",
                    k.styled()
                )]));
            }
        }
        let mut after = Vec::new();
        let told_unrecorded = store
            .practice_recorded(self.realm, mine.id, theirs.id, &day)
            .await?;
        if told_unrecorded {
            after.push(format!(
                "Note: this fight will not be recorded: {} and {} have already had their recorded practice fight today (R26).",
                mine.styled(),
                theirs.styled()
            ));
        }
        // R33: between hostile parties a practice joust is fought for ransom; said before it starts.
        if let Some(notice) =
            office::ransom_notice(&self.app, self.realm, mine.id, theirs.id).await?
        {
            after.push(notice);
        }
        Ok(Ok(Proposal {
            fighters: [mine, theirs],
            before: note.into_iter().collect(),
            after,
            terms: Terms {
                told_unrecorded,
                ..Terms::default()
            },
        }))
    }

    /// `/accept` and `/decline` of a Melee's question, else of an offer of the office (R158)
    /// when the speaker has no challenge here to answer.
    async fn answer(
        &mut self,
        user: &str,
        accept: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        // Boxed where it is rare, so that a fight's /decline (R41) stays a small future.
        if self.running().is_some() {
            if let Some(lines) = Box::pin(self.melee_answer(user, accept, now)).await? {
                return Ok(Some(lines));
            }
        }
        if self.fight.is_some() {
            return Ok(None);
        }
        let answerable = self.challenge.as_ref().is_some_and(|c| match accept {
            true => c.sides.users[1].eq_ignore_ascii_case(user),
            false => c.sides.member_of(user).is_some(),
        });
        if answerable {
            return Ok(None);
        }
        if accept {
            Box::pin(office::accept(&self.app, self.realm, user, now)).await
        } else {
            Box::pin(office::decline(&self.app, self.realm, user, now)).await
        }
    }

    /// Starts a tournament's match (a Lists match or a Melee pass, on `terms`), its knights
    /// already claimed for this channel.
    async fn start_fight(
        &mut self,
        [a, b]: [KnightRecord; 2],
        terms: Terms,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let sides = crate::referee::sides_of(&self.game, &[&a, &b], 1)?;
        let challenge = Challenge {
            fighters: vec![a, b],
            sides,
            deadline: now,
            accepted: vec![true, true],
            terms,
        };
        self.start_claimed(challenge, now).await
    }

    /// Writes a joust's start: whether it is recorded (R26) and fought for ransom (R33, R39).
    #[allow(clippy::too_many_arguments)]
    async fn write_start(
        &self,
        knights: &[KnightRecord],
        sides: &Sides,
        terms: &Terms,
        setup: &MatchSetup,
        seed: [u8; 32],
        first: &Step,
        now: DateTime<Utc>,
    ) -> Result<Begun<PsiKnight>> {
        let day = self.app.day_in(self.realm, now);
        let ids = [knights[0].id, knights[1].id];
        // Whether the fight is for ransom is fixed at its start, and stored with it; a peace
        // made during the fight does not change it (R33, R156).
        let ransom = match terms.kind {
            MatchKind::Practice => {
                office::ransom_notice(&self.app, self.realm, ids[0], ids[1]).await?
            }
            // R39: a melee pass between hostile parties is for ransom, as decided at the offer.
            MatchKind::Melee if terms.for_ransom => Some("This pass is fought for ransom (R39): a knight unhorsed while the other stays mounted is captured (R137).".to_string()),
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
                    knights: ids,
                    users: [&sides.users[0], &sides.users[1]],
                    setup,
                    seed,
                    day: &day,
                    at: now,
                    tournament: terms.tournament.as_ref().map(|(t, _)| *t),
                    ransom: for_ransom,
                },
                first,
            )
            .await?;
        let mut notes = Vec::new();
        if !recorded && terms.kind == MatchKind::Practice {
            notes.push(NOT_RECORDED_START.into());
        }
        notes.extend(ransom);
        Ok(Begun {
            id,
            what: terms
                .tournament
                .as_ref()
                .map_or(PsiKnight::BOUT, |(_, label)| label.as_str())
                .to_string(),
            notes,
            booked: Booked {
                tournament: terms.tournament.as_ref().map(|(t, _)| *t),
                recorded,
                for_ransom,
            },
        })
    }

    /// A psi skill declared where it is no move of a fight here: for the speaker's tournament
    /// match, or during the challenge (R21).
    async fn declare(&mut self, user: &str, decision: Decision) -> Result<Option<Lines>> {
        let Decision::Psi(skill) = decision else {
            return Ok(None);
        };
        // A knight of the tournament here arms psi for their next match, whenever they say so.
        if self.member_of(user).is_none() {
            if let Some(lines) = self.arm_for_tournament(user, skill).await? {
                return Ok(Some(lines));
            }
        }
        // Psi declarations are taken from the challenge on (R21).
        if self.fight.is_some() {
            return Ok(None);
        }
        let Some(c) = &mut self.challenge else {
            return Ok(None);
        };
        let Some(i) = c.sides.member_of(user) else {
            return Ok(Some(vec![
                "Only the two knights of this challenge may declare psi.".into(),
            ]));
        };
        let knight = &c.fighters[i];
        // R21: the skill is the knight's secret until it fires; the channel hears only that
        // one is readied.
        if let Some(s) = skill {
            if knight.sheet.psi(s) == 0 {
                self.private
                    .push(format!("{} has no {s} (R21).", knight.styled()));
                return Ok(Some(Vec::new()));
            }
        }
        c.terms.armed[i] = skill;
        let styled = knight.styled();
        self.private.push(match skill {
            Some(s) => format!("{styled} arms {s}."),
            None => format!("{styled} disarms psi."),
        });
        Ok(Some(skill.map(|_| readied(&styled)).into_iter().collect()))
    }

    /// A step told: a psi skill armed to its knight alone (R21), compact narration, else in
    /// full.
    async fn told(&mut self, told: Told<PsiKnight>, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        // R21: the skill armed is told to its knight alone, however the channel's fights are
        // narrated; the channel hears that one is readied, and nothing of a disarming. A
        // declaration ends nothing and changes no one's turn, so nothing more is said.
        if let Decision::Psi(skill) = told.decision {
            let readied = skill.map(|_| readied(&f.own.sides.styled[told.member]));
            let lines = narrate(&told.events, &f.own.sides.styled);
            self.private.extend(lines);
            return Ok(readied.into_iter().collect());
        }
        if self.narration == Narration::Compact {
            let timed_out = match &told.note {
                Some(Note::TimedOut(who)) => Some(who.as_str()),
                _ => None,
            };
            return self
                .compact_step(&told.events, told.decision, timed_out, told.end, now)
                .await;
        }
        self.tell(told, now).await
    }

    /// Writes a finished fight: outcome, award, injuries, one transaction (R26–R29).
    async fn write_end(&mut self, last: &Step, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let Some(outcome) = f.fight.outcome().cloned() else {
            return Ok(Vec::new());
        };
        let knights = f.own.knights();
        let month = self.app.month_in(self.realm, now);
        let winner_side = outcome.winner;
        let end = FightEnd {
            realm: self.realm,
            fight: f.id,
            seq: f.seq,
            last: last.clone(),
            winner: outcome.winner.map(|w| knights[w.index()]),
            injured: Side::BOTH
                .into_iter()
                .filter(|s| outcome.major_injury[s.index()])
                .map(|s| knights[s.index()])
                .collect(),
            outcome,
            practice: f.fight.kind() == MatchKind::Practice,
            recorded: f.own.booked.recorded,
            day: self.app.day_in(self.realm, now),
            month: month.clone(),
            tournament: None,
        };
        let (end, next) = self.with_tournament_result(end, now);
        let name = |id: Id| {
            let side = if knights[0] == id { 0 } else { 1 };
            f.own.sides.styled[side].clone()
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
        // R33: the loser of a fight for ransom is captured (boxed: it is rare, and every end's
        // future would otherwise be its size).
        if let (Some(w), true) = (winner_side, f.own.booked.for_ransom) {
            lines.extend(
                Box::pin(office::capture_after_fight(
                    &self.app,
                    self.realm,
                    f.id,
                    knights[w.index()],
                    knights[w.other().index()],
                    &f.own.sides.users[w.index()],
                    now,
                ))
                .await?,
            );
        }
        lines.push(f.over_line(&self.app, self.realm));
        if let Some(next) = next {
            lines.extend(self.take_tournament_result(next));
        }
        Ok(lines)
    }

    /// For `/status`, the speaker's own armed psi skill, told to them alone (R21): the
    /// channel's lines never name it.
    fn own_psi(&mut self, user: &str) {
        let (armed, styled) = if let Some(f) = &self.fight {
            let Some(i) = f.own.sides.member_of(user) else {
                return;
            };
            (f.fight.armed(Side::BOTH[i]), f.own.sides.styled[i].clone())
        } else if let Some(c) = &self.challenge {
            let Some(i) = c.sides.member_of(user) else {
                return;
            };
            (c.terms.armed[i], c.sides.styled[i].clone())
        } else {
            return;
        };
        self.private.push(match armed {
            Some(s) => format!("{styled} has {s} armed; it fires at its next moment (R21)."),
            None => format!("{styled} has no psi skill armed; /psi SKILL arms one (R21)."),
        });
    }

    /// Every fighter awaited gets the default (both, for R41's question), each going on to
    /// what comes next.
    async fn defaults(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
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
            let who = f.own.sides.who(side);
            let note = Some(Note::TimedOut(who));
            lines.extend(self.apply(side.index(), default, now, note, true).await?);
            // A default taken is a deadline that worked: a later failure is told anew.
            self.retry.answered(true);
            if kind != PromptKind::FightOn {
                break;
            }
        }
        Ok(lines)
    }

    /// Reads a fight in progress back from the books, its knights named as they are now.
    async fn restore_fight(&self, open: OpenLogged) -> Result<Restored<PsiKnight>> {
        let fight = self.app.store.fight_with(open.id, &open.steps).await?;
        let (m, rng, _) = verify::replay(&fight)?;
        let mut knights = Vec::with_capacity(2);
        for (i, id) in fight.knights.iter().enumerate() {
            let mut k = match self.app.store.knight(*id).await? {
                Some(k) => k,
                None => KnightRecord {
                    id: *id,
                    owner: String::new(),
                    sheet: fight.setup.knights[i].clone(),
                    landed: false,
                    rank: herald_engine::psiknight::Rank::Knight,
                },
            };
            // Named in events as the fight began, spoken for by its players then.
            k.owner = fight.users[i].clone();
            k.sheet.name = fight.setup.knights[i].name.clone();
            knights.push(k);
        }
        Ok(Restored {
            id: fight.id,
            fight: m,
            rng,
            seed: fight.seed,
            steps: fight.steps.len(),
            fighters: knights,
            challengers: 1,
            booked: Booked {
                tournament: fight.tournament,
                recorded: fight.recorded,
                for_ransom: fight.ransom,
            },
        })
    }
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
