//! The referee: a channel's challenge and fight of any game, written once. A game keeps the
//! contract of [`Ruleset`] (who fights, what a start and an end write in its books, the words
//! it adds); the games of characters keep it through [`Characters`], PsiKnight with its knights
//! itself. The referee never reads a clock (`now` comes with every call) and never rolls a die
//! of its own (a fight's dice are its seeded stream behind the `@dice` queue); every step is
//! stored before it is narrated, and a failed write puts the fight back as it was.

use crate::app::{App, Rights};
use crate::command::Command;
use crate::config::Config;
use crate::games::Sides;
use crate::live::{self, Live, Retry};
use crate::narration::Narration;
use crate::store::{Id, OpenLogged, Step};
use anyhow::Result;
use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use herald_engine::dice::SeededDice;
use herald_engine::game::{Fight, Prompt, Side};
use std::future::Future;
use std::sync::Arc;

mod characters;
pub use crate::reply::Lines;
pub use characters::{replay, verify, Characters};

/// A channel's fights of one game, as the session drives them. Object-safe, so a session holds
/// whichever game its channel plays; every game's is a [`Referee`].
pub trait Table: Send + Sync {
    /// The game's id.
    fn game(&self) -> &'static str;
    /// Whether a fight is in progress here.
    fn has_fight(&self) -> bool;
    /// When [`Table::on_deadline`] is next due.
    fn next_deadline(&self) -> Option<DateTime<Utc>>;
    /// Handles a command of the channel's game, said by `user` with the platform's `rights`
    /// (a moderator by Discord's roles); `None` when it is not one this table answers.
    fn handle<'a>(
        &'a mut self,
        user: &'a str,
        rights: Rights,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> BoxFuture<'a, Result<Option<Lines>>>;
    /// A deadline passed: a challenge lapses, or the awaited fighter gets the default.
    fn on_deadline(&mut self, now: DateTime<Utc>) -> BoxFuture<'_, Lines>;
    /// Restores a fight open in the books, as a restart read it, by replaying its steps.
    fn restore(&mut self, fight: OpenLogged, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>>;
    /// The lines the last command left for its speaker alone (a secret, R21), taken once.
    fn take_private(&mut self) -> Lines;
    /// Whether `user` is a party to a challenge open here.
    fn engaged(&self, user: &str) -> bool;
    /// Whether the channel must keep its game for now (a fight, or what the game holds here).
    fn busy(&self) -> bool;
    /// How the channel tells fights, from now on (`/narration`).
    fn set_narration(&mut self, narration: Narration);
    /// Loads what the game holds in the channel beyond its fights (a tournament) from the
    /// books: after a schedule (saying so when `announce`), and at start-up.
    fn load(&mut self, announce: bool, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>>;
}

/// One who fights: a game's character or knight, as the referee needs it.
pub trait Fighter: Clone + Send + Sync + 'static {
    /// Its id in its game's books (claimed while it fights).
    fn id(&self) -> Id;
    /// "Ector", for events.
    fn name(&self) -> &str;
    /// The player who speaks for it; an NPC's is its name.
    fn user(&self) -> String;
    /// Whether Herald decides for it.
    fn is_npc(&self) -> bool {
        false
    }
}

/// A decision of `R`'s fights.
pub type Decision<R> = <<R as Ruleset>::Fight as Fight>::Decision;
/// An event of `R`'s fights.
pub type Event<R> = <<R as Ruleset>::Fight as Fight>::Event;

/// What a challenge found: its two fighters, challenger first, what to say before and after the
/// challenge's own line, and the terms its fight starts on.
pub struct Proposal<R: Ruleset> {
    /// The challenger's and the challenged.
    pub fighters: [R::Fighter; 2],
    /// Said before the challenge (which knight a name found, R170).
    pub before: Lines,
    /// Said after it (not recorded, R26; for ransom, R33).
    pub after: Lines,
    /// What the fight starts on.
    pub terms: R::Terms,
}

/// A fight's start as its game's books took it.
pub struct Begun<R: Ruleset> {
    /// The fight's number.
    pub id: Id,
    /// What the fight is, for its first line: "a practice joust".
    pub what: String,
    /// Said after the first line.
    pub notes: Lines,
    /// What the fight keeps beyond its fighters.
    pub booked: R::Booked,
}

/// A fight in progress read back from the books ([`Ruleset::restore`]).
pub struct Restored<R: Ruleset> {
    /// The fight's number.
    pub id: Id,
    /// The fight as its steps replay.
    pub fight: R::Fight,
    /// Its dice stream where the replay left it.
    pub rng: SeededDice,
    /// Its seed.
    pub seed: [u8; 32],
    /// How many steps the books hold.
    pub steps: usize,
    /// Its fighters, in listing order.
    pub fighters: Vec<R::Fighter>,
    /// How many of them are the challenger's side.
    pub challengers: usize,
    /// What the fight keeps beyond its fighters.
    pub booked: R::Booked,
}

/// Why a decision was taken for its fighter.
#[derive(Clone, Debug)]
pub enum Note {
    /// Its time ran out: "Sir Ector (ann)" took the default.
    TimedOut(String),
    /// Said before the step (an NPC's move).
    Said(String),
}

/// A step taken, to be told ([`Ruleset::told`]).
pub struct Told<R: Ruleset> {
    /// The member who took it.
    pub member: usize,
    /// The decision.
    pub decision: Decision<R>,
    /// What it did.
    pub events: Vec<Event<R>>,
    /// Why it was taken, if not by its player.
    pub note: Option<Note>,
    /// The end's lines (awards, the seed), if the fight ended.
    pub end: Lines,
    /// Whether to go on to what comes next (NPCs' moves, prompts).
    pub follow: bool,
}

/// An open challenge, waiting for `/accept`.
pub struct Challenge<R: Ruleset> {
    /// In listing order: the challenger, its allies, the foes (two in a duel).
    pub fighters: Vec<R::Fighter>,
    /// Their names.
    pub sides: Sides,
    /// When it lapses.
    pub deadline: DateTime<Utc>,
    /// Which members have accepted: the challenger and NPCs at once.
    pub accepted: Vec<bool>,
    /// What its fight starts on.
    pub terms: R::Terms,
}

/// What the referee keeps of a fight in progress beyond [`Live`]'s: its fighters.
pub struct Cast<R: Ruleset> {
    /// In listing order.
    pub fighters: Vec<R::Fighter>,
    /// Their names.
    pub sides: Sides,
    /// A moderator's decision for an NPC (`/as`), taken at its next decision instead of the
    /// default; one a member.
    pub orders: Vec<Option<Decision<R>>>,
    /// What the game keeps of the fight.
    pub booked: R::Booked,
}

impl<R: Ruleset> Cast<R> {
    /// The fighters' ids, in listing order.
    pub fn ids(&self) -> Vec<Id> {
        self.fighters.iter().map(Fighter::id).collect()
    }
}

/// What the referee asks of a game around its fights: who fights and where they are claimed,
/// what a challenge, a start and an end write in the game's books, and the words the game adds
/// to the referee's. The hooks that take the referee (`r`) may drive it further; their defaults
/// are the referee's own behaviour.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The engine's fight.
    type Fight: Fight;
    /// One who fights.
    type Fighter: Fighter;
    /// What a challenge carries to its fight beyond its fighters (psi armed, R21).
    type Terms: Send + Sync;
    /// What a fight in progress keeps beyond its fighters (recorded, R26).
    type Booked: Send + Sync;
    /// What the game holds in a channel beyond its challenge and fight (tournaments).
    type Held: Default + Send + Sync;

    /// The game's id.
    const ID: &'static str;
    /// Its name in replies.
    const NAME: &'static str;
    /// What its challenge is to: "a bout on foot", "a practice joust".
    const BOUT: &'static str;
    /// The verb of its challenge, for "/joust TARGET": `challenge`.
    const VERB: &'static str;
    /// Said to a `/decline` with nothing to decline.
    const NOTHING_TO_DECLINE: &'static str;
    /// Who a refused start names when the books name another fighter: "A knight".
    const ANYONE: &'static str;

    /// The game with the realm's data from the configuration.
    fn new(config: &Config) -> Result<Self>;

    /// "Sir Ector".
    fn styled(&self, fighter: &Self::Fighter) -> String;
    /// What a fight of `fighters` (the first `challengers` the challenger's) starts from.
    fn setup(
        &self,
        fighters: &[&Self::Fighter],
        challengers: usize,
        terms: &Self::Terms,
    ) -> Result<<Self::Fight as Fight>::Setup>;
    /// Narration of events, for the channel.
    fn narrate(&self, events: &[Event<Self>], sides: &Sides) -> Lines;
    /// The prompts standing, each as one line: who, what, the options, the seconds left and
    /// the default.
    fn prompts(&self, fight: &Self::Fight, sides: &Sides, left_secs: u64) -> Lines;
    /// Where fight `id` stands, for `/status`, before its prompts.
    fn standing(&self, id: Id, fight: &Self::Fight, sides: &Sides) -> Lines;
    /// A refused decision of `member`, as one line.
    fn refusal(
        &self,
        fight: &Self::Fight,
        error: &<Self::Fight as Fight>::Error,
        sides: &Sides,
        member: usize,
    ) -> String;
    /// A decision as its command line, for "... takes /attack Brim stab".
    fn decision_text(&self, _fight: &Self::Fight, decision: &Decision<Self>) -> String {
        decision.to_string()
    }
    /// Which member a prompt awaits: by default its side's one creature.
    fn member_awaited(&self, _fight: &Self::Fight, prompt: &Prompt<Decision<Self>>) -> usize {
        prompt.side.index()
    }
    /// The event of a challenge's step (`challenge`, `accepted`, `declined`) taken by
    /// `member`, if the game logs one.
    fn challenge_event(
        &self,
        _kind: &'static str,
        _sides: &Sides,
        _member: usize,
    ) -> Option<serde_json::Value> {
        None
    }
    /// Writes a step's events to the events' sink.
    fn log(r: &Referee<Self>, events: &[Event<Self>], sides: &Sides);

    /// Claims fighters for a fight in `channel`: refused with the first already fighting and
    /// where.
    fn claim(app: &App, ids: &[Id], channel: &str) -> Result<(), (Id, String)>;
    /// Frees them.
    fn release(app: &App, ids: &[Id]);
    /// Where the fighter fights now, if it does.
    fn fighting_in(app: &App, id: Id) -> Option<String>;

    /// Answers a command beyond the challenge's and the fight's own: the game's commands and
    /// the shared ones it keeps (`/sheet`, `/record`...); `None` when not one it answers.
    fn command<'a>(
        r: &'a mut Referee<Self>,
        user: &'a str,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a;
    /// A challenge of `target` by `user`'s fighter: who fights on what terms, or why not.
    fn propose<'a>(
        r: &'a mut Referee<Self>,
        user: &'a str,
        target: &'a str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<std::result::Result<Proposal<Self>, Lines>>> + Send + 'a;
    /// A challenge's lines as the channel hears them (compact narration joins them).
    fn said(_r: &Referee<Self>, lines: Lines) -> Lines {
        lines
    }
    /// `/accept` or `/decline` answered before the channel's challenge (an offer elsewhere in
    /// the game); `None` leaves it to the challenge.
    fn answer<'a>(
        _r: &'a mut Referee<Self>,
        _user: &'a str,
        _accept: bool,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        async { Ok(None) }
    }
    /// Why the challenge's fighters cannot fight after all, checked at `/accept`.
    fn recheck<'a>(
        _r: &'a Referee<Self>,
        _fighters: &'a [Self::Fighter],
    ) -> impl Future<Output = Result<Option<String>>> + Send + 'a {
        async { Ok(None) }
    }
    /// The decision a `/decline` is during a fight, if it is one.
    fn decline_in_fight(&self) -> Option<Decision<Self>> {
        None
    }
    /// A declaration ([`Fight::is_declaration`]) said where it is no move of a fight here
    /// (during the challenge, R21); `None` leaves it to the fight.
    fn declare<'a>(
        _r: &'a mut Referee<Self>,
        _user: &'a str,
        _decision: Decision<Self>,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        async { Ok(None) }
    }
    /// Before a challenge's fighters are claimed: what settles first (an offer out of a fight).
    fn before_start<'a>(
        _r: &'a mut Referee<Self>,
        _fighters: Vec<Id>,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        async { Ok(Vec::new()) }
    }
    /// The claimed fighters as they are now, not as they were at the challenge; a line when
    /// one can no longer fight.
    fn fresh<'a>(
        _r: &'a Referee<Self>,
        _fighters: &'a mut [Self::Fighter],
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<String>>> + Send + 'a {
        async { Ok(None) }
    }
    /// Writes the fight's start in the game's books, with its first step.
    #[allow(clippy::too_many_arguments)]
    fn begin<'a>(
        r: &'a Referee<Self>,
        fighters: &'a [Self::Fighter],
        sides: &'a Sides,
        terms: &'a Self::Terms,
        setup: &'a <Self::Fight as Fight>::Setup,
        seed: [u8; 32],
        first: &'a Step<Decision<Self>>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Begun<Self>>> + Send + 'a;
    /// A fight's first lines: `lines` (its number, notes) and its opening `events`, and what
    /// comes next ([`Referee::tell_opening`]).
    fn opened<'a>(
        r: &'a mut Referee<Self>,
        lines: Lines,
        events: Vec<Event<Self>>,
        _terms: Self::Terms,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        r.tell_opening(lines, events, now)
    }
    /// A refused decision's `line`, as the channel (or its speaker alone) hears it.
    fn refused(_r: &mut Referee<Self>, _decision: &Decision<Self>, line: String) -> Lines {
        vec![line]
    }
    /// Writes the fight's end in the game's books, with its last step, in one transaction:
    /// what is said of it.
    fn end<'a>(
        r: &'a mut Referee<Self>,
        last: &'a Step<Decision<Self>>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a;
    /// Tells a step ([`Referee::tell`]).
    fn told<'a>(
        r: &'a mut Referee<Self>,
        told: Told<Self>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        r.tell(told, now)
    }
    /// After a fight ended and its fighters were freed: what the channel goes on with.
    fn after_fight(
        _r: &mut Referee<Self>,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        async { Ok(Vec::new()) }
    }
    /// The awaited fighters' time is up: their defaults ([`Referee::take_defaults`]).
    fn defaults(
        r: &mut Referee<Self>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        r.take_defaults(now)
    }
    /// When what the game holds here is next due.
    fn held_deadline(_r: &Referee<Self>) -> Option<DateTime<Utc>> {
        None
    }
    /// A deadline passed: the challenge's or the fight's ([`Referee::fight_deadline`]) and
    /// what the game holds here.
    fn on_deadline(
        r: &mut Referee<Self>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Lines> + Send + '_ {
        r.fight_deadline(now)
    }
    /// Reads an open fight back from the books.
    fn restore(
        r: &Referee<Self>,
        open: OpenLogged,
    ) -> impl Future<Output = Result<Restored<Self>>> + Send + '_;
    /// `/status` with no challenge or fight here.
    fn idle(r: &Referee<Self>, now: DateTime<Utc>) -> Lines;
    /// `/status` said by `user`: what only they may hear of it.
    fn on_status(_r: &mut Referee<Self>, _user: &str) {}
    /// Whether `user` is a party to the challenge here, where a declaration said in private
    /// is meant for (R21); never in a game without one.
    fn engaged(_r: &Referee<Self>, _user: &str) -> bool {
        false
    }
    /// Whether the channel must keep its game beyond a fight (a challenge, a tournament).
    fn busy(_r: &Referee<Self>) -> bool {
        false
    }
    /// Loads what the game holds in the channel from the books.
    fn load(
        _r: &mut Referee<Self>,
        _announce: bool,
        _now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + '_ {
        async { Ok(Vec::new()) }
    }
}

/// What a challenge or a start is told when `who` is in a fight already (in `channel`): one
/// fight at a time, whichever game and whichever process holds them.
pub fn fighting_elsewhere(who: &str, channel: &str) -> String {
    format!("{who} is already fighting in {channel}; one fight at a time.")
}

/// For a start the books refused because one of `ids` (named `names`, in order) is claimed by
/// a fight another process started: its line ([`fighting_elsewhere`]); `None` for any other
/// error. `anyone` names the fighter when the books name another id.
pub fn claimed_elsewhere(
    e: &anyhow::Error,
    ids: &[Id],
    names: &[String],
    anyone: &str,
) -> Option<String> {
    let (who, channel) = claimed_by(e, ids, names)?;
    Some(fighting_elsewhere(who.unwrap_or(anyone), channel))
}

/// For a start the books refused because a fighter is claimed by a fight another process
/// started: that fighter's name among `names` (in the order of `ids`; `None` when the books name
/// another id) and the channel of the fight that holds them; `None` for any other error.
pub fn claimed_by<'a>(
    e: &'a anyhow::Error,
    ids: &[Id],
    names: &'a [String],
) -> Option<(Option<&'a str>, &'a str)> {
    let busy = e.downcast_ref::<crate::store::engaged::Engaged>()?;
    let who = ids
        .iter()
        .position(|&i| i == busy.fighter)
        .and_then(|i| names.get(i))
        .map(String::as_str);
    Some((who, busy.channel.as_str()))
}

/// A channel's table for the game `R`.
pub fn table<R: Ruleset>(app: Arc<App>, realm: Id, channel: &str) -> Result<Box<dyn Table>> {
    let game = R::new(&app.config_of(realm))?;
    Ok(Box::new(Referee::<R> {
        app,
        realm,
        channel: channel.to_string(),
        game,
        challenge: None,
        fight: None,
        held: R::Held::default(),
        retry: Retry::default(),
        rights: Rights::default(),
        private: Vec::new(),
        narration: Narration::Full,
    }))
}

/// A channel's challenge and fight of the game `R`, and what the game holds there.
pub struct Referee<R: Ruleset> {
    /// The application.
    pub app: Arc<App>,
    /// The channel's realm.
    pub realm: Id,
    /// The channel.
    pub channel: String,
    /// The game, with its realm's data.
    pub game: R,
    /// The challenge open here.
    pub challenge: Option<Challenge<R>>,
    /// The fight in progress here.
    pub fight: Option<Live<R::Fight, Cast<R>>>,
    /// What the game holds here beyond them.
    pub held: R::Held,
    /// A deadline's write that failed, retried.
    pub retry: Retry,
    /// The platform's rights of the speaker of the command being answered.
    pub rights: Rights,
    /// Lines for the current command's speaker alone, taken by [`Table::take_private`].
    pub private: Lines,
    /// How the channel tells fights, as its session last said.
    pub narration: Narration,
}

impl<R: Ruleset> Table for Referee<R> {
    fn game(&self) -> &'static str {
        R::ID
    }

    fn has_fight(&self) -> bool {
        self.fight.is_some()
    }

    fn next_deadline(&self) -> Option<DateTime<Utc>> {
        match (self.own_deadline(), R::held_deadline(self)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn handle<'a>(
        &'a mut self,
        user: &'a str,
        rights: Rights,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> BoxFuture<'a, Result<Option<Lines>>> {
        Box::pin(async move {
            self.rights = rights;
            let answered = self.dispatch(user, command, now).await;
            self.retry.answered(answered.is_ok());
            answered
        })
    }

    fn on_deadline(&mut self, now: DateTime<Utc>) -> BoxFuture<'_, Lines> {
        Box::pin(R::on_deadline(self, now))
    }

    fn restore(&mut self, open: OpenLogged, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>> {
        Box::pin(async move {
            let r = R::restore(self, open).await?;
            let ids: Vec<Id> = r.fighters.iter().map(Fighter::id).collect();
            if let Err((_, other)) = R::claim(&self.app, &ids, &self.channel) {
                anyhow::bail!("a fighter of fight #{} is also fighting in {other}", r.id);
            }
            let refs: Vec<&R::Fighter> = r.fighters.iter().collect();
            let sides = sides_of(&self.game, &refs, r.challengers)?;
            let cast = Cast {
                orders: vec![None; r.fighters.len()],
                fighters: r.fighters,
                sides,
                booked: r.booked,
            };
            let deadline = now + self.app.decision_timeout(self.realm);
            self.fight = Some(Live::restored(
                r.id,
                (r.fight, r.rng),
                r.seed,
                r.steps,
                deadline,
                cast,
            ));
            let mut lines = vec![live::resumed_line(r.id)];
            lines.extend(self.status(now));
            Ok(lines)
        })
    }

    fn take_private(&mut self) -> Lines {
        std::mem::take(&mut self.private)
    }

    fn engaged(&self, user: &str) -> bool {
        R::engaged(self, user)
    }

    fn busy(&self) -> bool {
        self.fight.is_some() || R::busy(self)
    }

    fn set_narration(&mut self, narration: Narration) {
        self.narration = narration;
    }

    fn load(&mut self, announce: bool, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>> {
        Box::pin(R::load(self, announce, now))
    }
}

/// "waiting for Dame Dara (dana) to announce a sweep or not: /sweep, /nosweep, /yield".
pub fn waiting<R: Ruleset>(game: &R, fight: &R::Fight, sides: &Sides) -> String {
    let who: Vec<String> = fight
        .pending()
        .iter()
        .map(|p| {
            format!(
                "{} {}: {}",
                sides.who_member(game.member_awaited(fight, p)),
                p.what,
                p.options
                    .iter()
                    .map(|d| format!("/{}", game.decision_text(fight, d)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    format!("waiting for {}", who.join("; "))
}

/// The sides of `fighters` in listing order, the first `challengers` the challenger's, as the
/// channel names them: each styled by its game, a side of several read "Ash and Cai", the
/// leads the challenger and the first foe.
pub fn sides_of<R: Ruleset>(
    game: &R,
    fighters: &[&R::Fighter],
    challengers: usize,
) -> Result<Sides> {
    let members: Vec<crate::games::Member> = fighters
        .iter()
        .enumerate()
        .map(|(i, c)| crate::games::Member {
            side: if i < challengers {
                Side::Challenger
            } else {
                Side::Challenged
            },
            styled: game.styled(c),
            plain: c.name().to_string(),
            user: c.user(),
            npc: c.is_npc(),
        })
        .collect();
    let (Some(a), Some(b)) = (
        members.first(),
        members.get(challengers.min(members.len().saturating_sub(1))),
    ) else {
        anyhow::bail!("a fight needs two fighters");
    };
    let styled = |side: Side, lead: &crate::games::Member| {
        let names: Vec<&str> = members
            .iter()
            .filter(|m| m.side == side)
            .map(|m| m.styled.as_str())
            .collect();
        match names.as_slice() {
            [_] | [] => lead.styled.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    };
    Ok(Sides {
        styled: [styled(Side::Challenger, a), styled(Side::Challenged, b)],
        plain: [a.plain.clone(), b.plain.clone()],
        users: [a.user.clone(), b.user.clone()],
        npc: [a.npc, b.npc],
        members: members.clone(),
    })
}

impl<R: Ruleset> Referee<R> {
    /// When the challenge lapses or the awaited fighter's time is up.
    pub fn own_deadline(&self) -> Option<DateTime<Utc>> {
        match (&self.fight, &self.challenge) {
            (Some(f), _) => Some(f.deadline),
            (None, Some(c)) => Some(c.deadline),
            (None, None) => None,
        }
    }

    async fn dispatch(
        &mut self,
        user: &str,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        // Each command's future is boxed by the session, so what is said once a fight (a
        // challenge, its answer) is boxed on its own and the moves of a fight stay small.
        let lines = match command {
            Command::Challenge { target } => Box::pin(self.challenge(user, target, now)).await?,
            Command::Accept => Box::pin(self.accept(user, now)).await?,
            Command::Decline => Box::pin(self.decline(user, now)).await?,
            Command::Status => {
                R::on_status(self, user);
                self.status(now)
            }
            other => return R::command(self, user, other, now).await,
        };
        Ok(Some(lines))
    }

    /// Why no challenge can be issued here now: a fight or a challenge stands.
    pub fn busy_line(&self) -> Option<String> {
        if let Some(f) = &self.fight {
            return Some(crate::challenge::fight_on(
                &self.channel,
                &f.own.sides.styled[0],
                &f.own.sides.styled[1],
            ));
        }
        self.challenge
            .as_ref()
            .map(|c| crate::challenge::pending(&c.sides.styled[0], &c.sides.styled[1]))
    }

    /// Why one of `fighters` cannot fight now: it fights elsewhere.
    pub fn fighting(&self, fighters: &[&R::Fighter]) -> Option<String> {
        fighters.iter().find_map(|c| {
            R::fighting_in(&self.app, c.id())
                .map(|channel| fighting_elsewhere(&self.game.styled(c), &channel))
        })
    }

    /// `/challenge TARGET` (or the game's own verb): a challenge of one fighter by another.
    pub async fn challenge(
        &mut self,
        user: &str,
        target: &str,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        if let Some(busy) = self.busy_line() {
            return Ok(vec![busy]);
        }
        let p = match R::propose(self, user, target, now).await? {
            Ok(p) => p,
            Err(lines) => return Ok(lines),
        };
        let [mine, theirs] = p.fighters;
        let sides = sides_of(&self.game, &[&mine, &theirs], 1)?;
        let npc = theirs.is_npc();
        let secs = self.app.settings(self.realm).challenge_timeout_secs;
        let line = if npc {
            format!(
                "{} challenges {} to {}! {} accepts at once.",
                sides.styled[0],
                sides.styled[1],
                R::BOUT,
                sides.styled[1]
            )
        } else {
            crate::challenge::issued(
                &sides.styled[0],
                &sides.styled[1],
                R::BOUT,
                &sides.users[1],
                secs,
            )
        };
        self.challenge_event("challenge", &sides, 0);
        if npc {
            self.challenge_event("accepted", &sides, 1);
        }
        self.challenge = Some(Challenge {
            fighters: vec![mine, theirs],
            sides,
            deadline: now + self.app.challenge_timeout(self.realm),
            accepted: vec![true, npc],
            terms: p.terms,
        });
        let mut lines = p.before;
        lines.push(line);
        lines.extend(p.after);
        if npc {
            lines.extend(self.start(now).await?);
            return Ok(lines);
        }
        Ok(R::said(self, lines))
    }

    /// Logs a challenge's step taken by `member`, if the game has an event for it.
    pub fn challenge_event(&self, kind: &'static str, sides: &Sides, member: usize) {
        if let Some(event) = self.game.challenge_event(kind, sides, member) {
            self.app.log_game_events(R::ID, std::iter::once(event));
        }
    }

    async fn accept(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(lines) = R::answer(self, user, true, now).await? {
            return Ok(lines);
        }
        let Some(c) = &self.challenge else {
            return Ok(vec![crate::challenge::nothing_to_accept(R::VERB)]);
        };
        if c.fighters.len() > 2 {
            return self.accept_group(user, now).await;
        }
        if let Some(refusal) = R::recheck(self, &c.fighters).await? {
            return Ok(vec![refusal]);
        }
        if c.sides.npc[1] || !c.sides.users[1].eq_ignore_ascii_case(user) {
            return Ok(vec![format!(
                "Only {} can accept this challenge.",
                c.sides.who(Side::Challenged)
            )]);
        }
        self.challenge_event("accepted", &c.sides, 1);
        self.start(now).await
    }

    async fn decline(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(lines) = R::answer(self, user, false, now).await? {
            return Ok(lines);
        }
        if let Some(f) = &self.fight {
            if let Some(d) = self.game.decline_in_fight() {
                return self.decide(user, d, now).await;
            }
            return Ok(vec![format!(
                "A fight is on: {} vs {}. To give it up, /yield.",
                f.own.sides.styled[0], f.own.sides.styled[1]
            )]);
        }
        let Some(c) = &self.challenge else {
            return Ok(vec![R::NOTHING_TO_DECLINE.into()]);
        };
        if c.fighters.len() > 2 {
            return Ok(self.decline_group(user));
        }
        let line = if c.sides.users[1].eq_ignore_ascii_case(user) && !c.sides.npc[1] {
            self.challenge_event("declined", &c.sides, 1);
            crate::challenge::declined(&c.sides.styled[1], &c.sides.styled[0])
        } else if c.sides.users[0].eq_ignore_ascii_case(user) {
            self.challenge_event("declined", &c.sides, 0);
            crate::challenge::withdrawn(&c.sides.styled[0])
        } else {
            return Ok(vec![format!(
                "Only {} can decline this challenge.",
                c.sides.users[1]
            )]);
        };
        self.challenge = None;
        Ok(vec![line])
    }

    /// The players of a group challenge who have not yet accepted.
    pub fn unanswered(&self) -> Vec<String> {
        let Some(c) = &self.challenge else {
            return Vec::new();
        };
        c.sides
            .members
            .iter()
            .zip(&c.accepted)
            .filter(|(_, a)| !**a)
            .map(|(m, _)| m.user.clone())
            .collect()
    }

    /// `/accept` of a group challenge: the speaker's creature is in; the fight starts when the
    /// last named player accepts.
    async fn accept_group(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        let unanswered = self.unanswered();
        let Some(c) = &mut self.challenge else {
            return Ok(Vec::new());
        };
        let Some(m) = c.sides.member_of(user).filter(|&m| m > 0) else {
            return Ok(vec![format!(
                "Only the players named in this challenge can accept it; waiting for {}.",
                unanswered.join(", ")
            )]);
        };
        if c.accepted[m] {
            return Ok(vec![format!(
                "{} has accepted already; waiting for {}.",
                c.sides.members[m].styled,
                unanswered.join(", ")
            )]);
        }
        c.accepted[m] = true;
        let styled = c.sides.members[m].styled.clone();
        let sides = c.sides.clone();
        self.challenge_event("accepted", &sides, m);
        let unanswered = self.unanswered();
        if unanswered.is_empty() {
            return self.start(now).await;
        }
        Ok(vec![format!(
            "{styled} accepts; waiting for {}: /accept or /decline.",
            unanswered.join(", ")
        )])
    }

    /// `/decline` of a group challenge: one named player's decline (or the challenger's
    /// withdrawal) calls it off for all.
    fn decline_group(&mut self, user: &str) -> Lines {
        let Some(c) = &self.challenge else {
            return Vec::new();
        };
        let Some(m) = c.sides.member_of(user) else {
            return vec![format!(
                "Only a player named in this challenge can decline it, or {} withdraw it.",
                c.sides.users[0]
            )];
        };
        let sides = c.sides.clone();
        self.challenge_event("declined", &sides, m);
        self.challenge = None;
        vec![if m == 0 {
            crate::challenge::withdrawn(&sides.members[0].styled)
        } else {
            format!(
                "{} declines: the challenge of {} to {} is called off.",
                sides.members[m].styled, sides.styled[0], sides.styled[1]
            )
        }]
    }

    /// Starts the fight of the challenge standing here: what settles first, then its
    /// fighters claimed. A refused claim leaves the challenge standing.
    pub async fn start(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let Some(c) = &self.challenge else {
            return Ok(Vec::new());
        };
        let ids: Vec<Id> = c.fighters.iter().map(Fighter::id).collect();
        let mut lines = R::before_start(self, ids.clone(), now).await?;
        let Some(c) = &self.challenge else {
            return Ok(lines);
        };
        if let Err((id, other)) = R::claim(&self.app, &ids, &self.channel) {
            let who = match ids.iter().position(|&i| i == id) {
                Some(i) if ids.len() > 2 => &c.sides.members[i].styled,
                Some(0) => &c.sides.styled[0],
                _ => &c.sides.styled[1],
            };
            lines.push(fighting_elsewhere(who, &other));
            return Ok(lines);
        }
        let names: Vec<String> = c.fighters.iter().map(|f| self.game.styled(f)).collect();
        let Some(c) = self.challenge.take() else {
            return Ok(lines);
        };
        match self.start_claimed(c, now).await {
            Ok(more) => lines.extend(more),
            Err(e) => {
                R::release(&self.app, &ids);
                // Claimed in the books by a fight another process started.
                let Some(line) = claimed_elsewhere(&e, &ids, &names, R::ANYONE) else {
                    return Err(e);
                };
                lines.push(line);
            }
        }
        Ok(lines)
    }

    /// Starts a fight whose fighters are claimed for this channel: a challenge accepted, or a
    /// fight the game starts itself (a tournament's match). Its fighters are freed when it
    /// cannot start.
    pub async fn start_claimed(
        &mut self,
        mut c: Challenge<R>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let ids: Vec<Id> = c.fighters.iter().map(Fighter::id).collect();
        if let Some(why) = R::fresh(self, &mut c.fighters, now).await? {
            R::release(&self.app, &ids);
            return Ok(vec![why]);
        }
        let challengers = c
            .sides
            .members
            .iter()
            .filter(|m| m.side == Side::Challenger)
            .count();
        let refs: Vec<&R::Fighter> = c.fighters.iter().collect();
        let setup = self.game.setup(&refs, challengers, &c.terms)?;
        let seed = self.app.next_seed();
        let mut opened = live::open::<R::Fight>(setup, seed, &self.app.queue, now);
        let setup = opened.fight.setup().clone();
        let begun = R::begin(
            self,
            &c.fighters,
            &c.sides,
            &c.terms,
            &setup,
            seed,
            &opened.step,
            now,
        )
        .await?;
        let mut lines = vec![live::opening_line(
            begun.id,
            &c.sides.styled,
            &begun.what,
            &seed,
        )];
        lines.extend(begun.notes);
        let events = std::mem::take(&mut opened.events);
        R::log(self, &events, &c.sides);
        let cast = Cast {
            orders: vec![None; c.fighters.len()],
            fighters: c.fighters,
            sides: c.sides,
            booked: begun.booked,
        };
        self.fight = Some(Live::new(
            begun.id,
            opened,
            now + self.app.decision_timeout(self.realm),
            cast,
        ));
        R::opened(self, lines, events, c.terms, now).await
    }

    /// A fight's first lines told in full: `lines`, its opening events, and what comes next.
    pub async fn tell_opening(
        &mut self,
        mut lines: Lines,
        events: Vec<Event<R>>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        if let Some(f) = &self.fight {
            lines.extend(self.game.narrate(&events, &f.own.sides));
        }
        lines.extend(self.after_step(now).await?);
        Ok(lines)
    }

    /// The member of the fight here that the player speaks for.
    pub fn member_of(&self, user: &str) -> Option<usize> {
        self.fight.as_ref()?.own.sides.member_of(user)
    }

    /// The side of the fight here that the player speaks for.
    pub fn side_of(&self, user: &str) -> Option<Side> {
        let f = self.fight.as_ref()?;
        Some(f.own.sides.members[self.member_of(user)?].side)
    }

    /// A decision said by `user`.
    pub async fn decide(
        &mut self,
        user: &str,
        decision: Decision<R>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        if R::Fight::is_declaration(&decision) {
            if let Some(lines) = Box::pin(R::declare(self, user, decision, now)).await? {
                return Ok(lines);
            }
        }
        let Some(f) = &self.fight else {
            return Ok(vec![crate::challenge::no_fight(&self.channel, R::VERB)]);
        };
        let Some(member) = self.member_of(user) else {
            let who: Vec<String> = (0..f.own.sides.members.len())
                .map(|m| f.own.sides.who_member(m))
                .collect();
            return Ok(vec![live::not_fighting_line(&who, &self.waiting())]);
        };
        self.apply(member, decision, now, None, true).await
    }

    /// Who the fight here waits for, and for what ([`waiting`]).
    pub fn waiting(&self) -> String {
        self.fight
            .as_ref()
            .map(|f| waiting(&self.game, &f.fight, &f.own.sides))
            .unwrap_or_default()
    }

    /// Applies the decision of `member` (in a duel, its side's index), stores it, and tells
    /// it ([`Ruleset::told`]), after `note`; with `follow`, goes on to what comes next.
    pub async fn apply(
        &mut self,
        member: usize,
        decision: Decision<R>,
        now: DateTime<Utc>,
        note: Option<Note>,
        follow: bool,
    ) -> Result<Lines> {
        let timeout = self.app.decision_timeout(self.realm);
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let side = f.own.sides.members[member].side;
        let mv = match f.try_move(&self.app.queue, side, decision, now) {
            Ok(mv) => mv,
            Err(err) => {
                let line = self.game.refusal(&f.fight, &err, &f.own.sides, member);
                return Ok(R::refused(self, &decision, line));
            }
        };
        let written = if f.fight.is_over() {
            Box::pin(R::end(self, &mv.step, now)).await
        } else {
            Box::pin(f.write_step(&self.app.store, &mv.step))
                .await
                .map(|()| Vec::new())
        };
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let (events, end) = f.settle(mv, written, now, timeout)?;
        if let Some(f) = &self.fight {
            R::log(self, &events, &f.own.sides);
        }
        let told = Told {
            member,
            decision,
            events,
            note,
            end,
            follow,
        };
        // Boxed, as the step's write and the end are: a move's future stays small enough for
        // the allocator's fast path.
        Box::pin(R::told(self, told, now)).await
    }

    /// A step told in full: its note, its events, the end's lines, and (unless it was a
    /// declaration, which changes no one's turn) what comes next.
    pub async fn tell(&mut self, told: Told<R>, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let mut lines: Lines = told
            .note
            .map(|note| match note {
                Note::TimedOut(who) => {
                    live::timed_out_line(&who, &self.game.decision_text(&f.fight, &told.decision))
                }
                Note::Said(line) => line,
            })
            .into_iter()
            .collect();
        lines.extend(self.game.narrate(&told.events, &f.own.sides));
        lines.extend(told.end);
        if told.follow && !R::Fight::is_declaration(&told.decision) {
            lines.extend(self.after_step(now).await?);
        }
        Ok(lines)
    }

    /// After a step: the end of the fight, Herald's decisions for NPCs, or the prompts.
    pub async fn after_step(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
        // An NPC decides at once; the bound guards against a fight that would not move on.
        for _ in 0..10_000 {
            let Some(f) = &self.fight else {
                return Ok(lines);
            };
            if f.fight.is_over() {
                R::release(&self.app, &f.own.ids());
                self.fight = None;
                // Boxed: what the channel goes on with may start a fight, whose end comes back
                // here.
                lines.extend(Box::pin(R::after_fight(self, now)).await?);
                return Ok(lines);
            }
            // Most fights have no NPC: their prompts are not read twice.
            if !f.own.sides.members.iter().any(|m| m.npc) {
                break;
            }
            let Some((i, p)) = f
                .fight
                .pending()
                .into_iter()
                .map(|p| (self.game.member_awaited(&f.fight, &p), p))
                .find(|(i, _)| f.own.sides.members.get(*i).is_some_and(|m| m.npc))
            else {
                break;
            };
            let ordered = f.own.orders[i].filter(|d| p.options.contains(d));
            let text = self
                .game
                .decision_text(&f.fight, ordered.as_ref().unwrap_or(&p.default));
            let note = match ordered {
                Some(_) => format!(
                    "{} takes /{text}, as a moderator ordered.",
                    f.own.sides.members[i].styled
                ),
                None => format!("{} takes /{text}.", f.own.sides.members[i].styled),
            };
            let decision = ordered.unwrap_or(p.default);
            if let Some(f) = &mut self.fight {
                f.own.orders[i] = None;
            }
            lines.extend(
                Box::pin(self.apply(i, decision, now, Some(Note::Said(note)), false)).await?,
            );
        }
        lines.extend(self.prompts(now));
        Ok(lines)
    }

    /// The prompts standing, each as a line.
    pub fn prompts(&self, now: DateTime<Utc>) -> Lines {
        let Some(f) = &self.fight else {
            return Vec::new();
        };
        self.game.prompts(&f.fight, &f.own.sides, f.left(now))
    }

    /// `/status`: the fight, the challenge, or what the game says of the channel.
    pub fn status(&self, now: DateTime<Utc>) -> Lines {
        if let Some(f) = &self.fight {
            let mut lines = self.game.standing(f.id, &f.fight, &f.own.sides);
            lines.extend(self.prompts(now));
            return lines;
        }
        if let Some(c) = &self.challenge {
            let left = (c.deadline - now).num_seconds().max(0);
            let waiting = if c.fighters.len() > 2 {
                self.unanswered().join(", ")
            } else {
                c.sides.users[1].clone()
            };
            let challengers = c
                .sides
                .members
                .iter()
                .filter(|m| m.side == Side::Challenger)
                .count();
            return vec![format!(
                "{} {} {}; waiting for {waiting} to /accept or /decline ({left}s).",
                c.sides.styled[0],
                if challengers > 1 {
                    "have challenged"
                } else {
                    "has challenged"
                },
                c.sides.styled[1]
            )];
        }
        R::idle(self, now)
    }

    /// The challenge lapses, or the awaited fighters' time is up; a failed write is retried
    /// ([`Retry`]).
    pub async fn fight_deadline(&mut self, now: DateTime<Utc>) -> Lines {
        if self.own_deadline().is_none_or(|d| d > now) {
            return Vec::new();
        }
        if self.fight.is_none() {
            return self.lapse();
        }
        let (lines, result) = match R::defaults(self, now).await {
            Ok(lines) => (lines, Ok(())),
            Err(err) => (Vec::new(), Err(err)),
        };
        let deadline = self.fight.as_mut().map(|f| &mut f.deadline);
        self.retry
            .after(lines, result, deadline, now, &self.channel)
    }

    /// The challenge here lapses: each player who did not answer takes the default, /decline
    /// (PC37).
    fn lapse(&mut self) -> Lines {
        let unanswered = self.unanswered();
        match self.challenge.take() {
            Some(c) if c.fighters.len() > 2 => {
                for (m, _) in c.accepted.iter().enumerate().filter(|(_, a)| !**a) {
                    self.challenge_event("declined", &c.sides, m);
                }
                vec![format!(
                    "The challenge of {} to {} lapses: {} did not answer, so it is declined (PC37).",
                    c.sides.styled[0],
                    c.sides.styled[1],
                    crate::reply::and_list(&unanswered)
                )]
            }
            Some(c) => {
                self.challenge_event("declined", &c.sides, 1);
                vec![crate::challenge::lapsed(
                    &c.sides.styled[0],
                    &c.sides.styled[1],
                )]
            }
            None => Vec::new(),
        }
    }

    /// Every member awaited takes its default at once (a defense asks several, PC37); the
    /// last goes on to what comes next.
    pub async fn take_defaults(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let pending = f.fight.pending();
        let mut lines = Vec::new();
        let count = pending.len();
        for (n, p) in pending.into_iter().enumerate() {
            let Some(f) = &self.fight else {
                break;
            };
            if !f.fight.pending().iter().any(|q| q.default == p.default) {
                continue;
            }
            let member = self.game.member_awaited(&f.fight, &p);
            let note = Note::TimedOut(f.own.sides.who_member(member));
            let last = n + 1 == count;
            lines.extend(self.apply(member, p.default, now, Some(note), last).await?);
            if !last && self.fight.as_ref().is_some_and(|f| f.fight.is_over()) {
                lines.extend(self.after_step(now).await?);
            }
        }
        Ok(lines)
    }
}
