//! The referee of the games on the seam: a channel's challenge and fight of any game that keeps
//! the contract of [`crate::games::Game`], written once. Like PsiKnight's session it never reads
//! a clock (`now` comes with every call) and never rolls a die of its own (a fight's dice are its
//! seeded stream behind the `@dice` queue); every step is stored before it is narrated, and a
//! failed write puts the fight back as it was. Herald decides at once for a non-player
//! character, with the game's default policy, unless a moderator gives its decision (`/as`).

use crate::app::{App, Rights};
use crate::command::{parse_in, Command, GameCommand};
use crate::dice::FightDice;
use crate::games::{AsOf, Game, Meaning, Sides};
use crate::live::{self, Live, Retry};
use crate::reply::and_list;
use crate::store::games::{
    BoutEnd, BoutMember, Character, CharacterError, MemberEnd, NewBout, OpenBout, Record,
};
use crate::store::{Id, OpenLogged, Step, Store};
use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use herald_engine::dice::RollSource;
use herald_engine::dice::SeededDice;
use herald_engine::game::{Fight, Side};
use std::sync::Arc;

pub use crate::reply::Lines;

/// A channel's fights of one game on the seam, as the session drives them. Object-safe, so a
/// session holds whichever game its channel plays.
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
    fn take_private(&mut self) -> Lines {
        Vec::new()
    }
    /// Whether `user` is a party to a challenge open here.
    fn engaged(&self, user: &str) -> bool {
        let _ = user;
        false
    }
    /// Whether the channel must keep its game for now (a fight, a challenge or a tournament
    /// open here).
    fn busy(&self) -> bool {
        self.has_fight()
    }
    /// How the channel tells fights, from now on (`/narration`).
    fn set_narration(&mut self, narration: crate::narration::Narration) {
        let _ = narration;
    }
    /// Loads what the game holds in the channel beyond its fights (a tournament) from the
    /// books: after a schedule (saying so when `announce`), and at start-up.
    fn load(&mut self, announce: bool, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>> {
        let _ = (announce, now);
        Box::pin(async { Ok(Vec::new()) })
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

/// A table for `G` in a channel.
pub fn table<G: Game>(app: Arc<App>, realm: Id, channel: &str) -> Result<Box<dyn Table>> {
    let game = G::new(&app.config_of(realm))?;
    Ok(Box::new(Referee::<G> {
        app,
        realm,
        channel: channel.to_string(),
        game,
        challenge: None,
        fight: None,
        lapses: Vec::new(),
        retry: Retry::default(),
        rights: Rights::default(),
    }))
}

struct Challenge {
    /// In listing order: the challenger, its allies, the foes (two in a duel).
    fighters: Vec<Character>,
    sides: Sides,
    deadline: DateTime<Utc>,
    /// Which members have accepted: the challenger and NPCs at once.
    accepted: Vec<bool>,
}

/// What the referee keeps of a fight in progress beyond [`Live`]'s: its creatures.
struct Cast<D> {
    /// In listing order.
    fighters: Vec<Character>,
    sides: Sides,
    /// A moderator's decision for an NPC (`/as`), taken at its next decision instead of the
    /// default; one a member.
    orders: Vec<Option<D>>,
}

struct Referee<G: Game> {
    app: Arc<App>,
    realm: Id,
    channel: String,
    game: G,
    challenge: Option<Challenge>,
    fight: Option<Live<G::Fight, Cast<Decision<G>>>>,
    /// Offers out of a fight that lapse ([`Game::lapse`]), by character: when.
    lapses: Vec<(Id, DateTime<Utc>)>,
    /// A deadline's write that failed, retried.
    retry: Retry,
    /// The platform's rights of the speaker of the command being answered.
    rights: Rights,
}

type Decision<G> = <<G as Game>::Fight as Fight>::Decision;

impl<G: Game> Table for Referee<G> {
    fn game(&self) -> &'static str {
        G::ID
    }

    fn has_fight(&self) -> bool {
        self.fight.is_some()
    }

    fn next_deadline(&self) -> Option<DateTime<Utc>> {
        let lapse = self.lapses.iter().map(|(_, at)| *at).min();
        match (self.own_deadline(), lapse) {
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
        Box::pin(async move {
            let (lines, result) = match self.deadline(now).await {
                Ok(lines) => (lines, Ok(())),
                Err(err) => (Vec::new(), Err(err)),
            };
            let deadline = self.fight.as_mut().map(|f| &mut f.deadline);
            self.retry
                .after(lines, result, deadline, now, &self.channel)
        })
    }

    fn restore(&mut self, fight: OpenLogged, now: DateTime<Utc>) -> BoxFuture<'_, Result<Lines>> {
        Box::pin(async move {
            let bout = self.store().bout_with(fight.id, fight.steps).await?;
            self.restore_bout(bout, now).await
        })
    }
}

impl<G: Game> Referee<G> {
    /// When the challenge lapses or the awaited fighter's time is up.
    fn own_deadline(&self) -> Option<DateTime<Utc>> {
        match (&self.fight, &self.challenge) {
            (Some(f), _) => Some(f.deadline),
            (None, Some(c)) => Some(c.deadline),
            (None, None) => None,
        }
    }

    /// Takes the command a lapsed offer out of a fight takes ([`Game::lapse`]) for character
    /// `id`, if its state still holds one: at its deadline, or at once when the character is
    /// about to fight.
    async fn settle(&mut self, id: Id, now: DateTime<Utc>) -> Result<Lines> {
        self.lapses.retain(|(c, _)| *c != id);
        let Some(c) = self.store().character(id).await? else {
            return Ok(Vec::new());
        };
        let c = self.today(c, now)?;
        let Some((_, command)) = self.game.lapse(&c) else {
            return Ok(Vec::new());
        };
        let Some(Ok(Command::Game(g))) = parse_in(command, &['/'], G::commands()) else {
            return Ok(Vec::new());
        };
        let mut lines = vec![format!(
            "Time is up for {}: {command} is taken.",
            self.game.styled(&c)
        )];
        lines.extend(self.roll(c, &g, now).await?);
        Ok(lines)
    }

    fn store(&self) -> &Store {
        &self.app.store
    }

    async fn dispatch(
        &mut self,
        user: &str,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let lines = match command {
            Command::Challenge { target } => self.challenge(user, target, now).await?,
            Command::Accept => self.accept(user, now).await?,
            Command::Decline => self.decline(user),
            Command::Status => self.status(now),
            Command::Sheet { name } => self.show(user, name.as_deref(), now).await?,
            Command::Record { name } => self.record(user, name.as_deref(), now).await?,
            Command::NpcCreate { rest } => self.npc_create(user, rest, now).await?,
            Command::NpcRetire { name } => self.npc_retire(name).await?,
            Command::As { name, command } => self.act_as(name, command, now).await?,
            Command::Game(g) => self.game_command(user, g, now).await?,
            Command::Rules { topic } => self.game.rules(topic.as_deref()),
            Command::Odds { knight, other } => {
                self.odds(user, knight, other.as_deref(), now).await?
            }
            _ => return Ok(None),
        };
        Ok(Some(lines))
    }

    /// A character as of today, with its state recovered as the game says.
    fn today(&self, mut c: Character, now: DateTime<Utc>) -> Result<Character> {
        let AsOf { sheet, state } = self.game.as_of(&c, &self.app.day_in(self.realm, now))?;
        c.sheet = sheet;
        c.state = state;
        Ok(c)
    }

    /// The speaker's character in this game, as of today.
    async fn mine(&self, user: &str, now: DateTime<Utc>) -> Result<Option<Character>> {
        match self.store().character_of(self.realm, G::ID, user).await? {
            Some(c) => Ok(Some(self.today(self.recover(c, now).await?, now)?)),
            None => Ok(None),
        }
    }

    /// A character touched on a later day than its last recovery, recovered and saved at once,
    /// with the game's event (PM28's kind); a character in a fight is left as it is.
    async fn recover(&self, mut c: Character, now: DateTime<Utc>) -> Result<Character> {
        if self.app.character_fighting_in(c.id).is_some() {
            return Ok(c);
        }
        if let Some((after, event)) = self.game.recovery(&c, &self.app.day_in(self.realm, now))? {
            self.store()
                .save_character(c.id, &after.sheet, &after.state)
                .await?;
            self.app.log_game_events(G::ID, std::iter::once(event));
            (c.sheet, c.state) = (after.sheet, after.state);
        }
        Ok(c)
    }

    /// A character by its name, else by a player's nick, as of today; `@bo` is always the
    /// player (the order of R170).
    async fn find(&self, target: &str, now: DateTime<Utc>) -> Result<Option<Character>> {
        let target = target.trim();
        let store = self.store();
        let found = match target.strip_prefix('@') {
            Some(nick) => store.character_of(self.realm, G::ID, nick).await?,
            None => match store.character_named(self.realm, G::ID, target).await? {
                Some(c) => Some(c),
                None => store.character_of(self.realm, G::ID, target).await?,
            },
        };
        match found {
            Some(c) => Ok(Some(self.today(self.recover(c, now).await?, now)?)),
            None => Ok(None),
        }
    }

    fn no_character(&self, user: &str) -> String {
        format!(
            "{user}, you have no {} in {} yet. Create one: /{} create NAME (see /help {} create)",
            G::CHARACTER,
            G::NAME,
            G::CHARACTER,
            G::CHARACTER
        )
    }

    async fn challenge(&mut self, user: &str, target: &str, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(busy) = self.busy() {
            return Ok(vec![busy]);
        }
        let Some(mine) = self.mine(user, now).await? else {
            return Ok(vec![self.no_character(user)]);
        };
        if let Some(why) = self.game.cannot_challenge(&mine)? {
            return Ok(vec![why]);
        }
        let Some(theirs) = self.find(target, now).await? else {
            return Ok(vec![format!(
                "No {} or player named '{}' plays {} here. Usage: /challenge TARGET (a player's nick or a {}'s name)",
                G::CHARACTER,
                target.trim(),
                G::NAME,
                G::CHARACTER
            )]);
        };
        if theirs.id == mine.id {
            return Ok(vec![format!(
                "A {} cannot fight themself. Usage: /challenge TARGET",
                G::CHARACTER
            )]);
        }
        if let Some(why) = self.unable(&[&mine, &theirs])? {
            return Ok(vec![why]);
        }
        let sides = crate::games::sides_of(&self.game, &[&mine, &theirs], 1)?;
        let npc = theirs.is_npc();
        let secs = self.app.settings(self.realm).challenge_timeout_secs;
        let line = if npc {
            format!(
                "{} challenges {} to {}! {} accepts at once.",
                sides.styled[0],
                sides.styled[1],
                G::BOUT,
                sides.styled[1]
            )
        } else {
            crate::challenge::issued(
                &sides.styled[0],
                &sides.styled[1],
                G::BOUT,
                &sides.users[1],
                secs,
            )
        };
        self.challenge_event("challenge", &sides, Side::Challenger);
        if npc {
            self.challenge_event("accepted", &sides, Side::Challenged);
        }
        self.challenge = Some(Challenge {
            fighters: vec![mine, theirs],
            sides,
            deadline: now + self.app.challenge_timeout(self.realm),
            accepted: vec![true, npc],
        });
        let mut lines = vec![line];
        if npc {
            lines.extend(self.start(now).await?);
        }
        Ok(lines)
    }

    /// Logs a challenge's step, if the game has an event for it.
    fn challenge_event(&self, kind: &'static str, sides: &Sides, by: Side) {
        if let Some(event) = self.game.challenge_event(kind, sides, by) {
            self.app.log_game_events(G::ID, std::iter::once(event));
        }
    }

    async fn accept(&mut self, user: &str, now: DateTime<Utc>) -> Result<Lines> {
        let Some(c) = &self.challenge else {
            return Ok(vec![crate::challenge::nothing_to_accept("challenge")]);
        };
        if c.fighters.len() > 2 {
            return self.accept_group(user, now).await;
        }
        if c.sides.npc[1] || !c.sides.users[1].eq_ignore_ascii_case(user) {
            return Ok(vec![format!(
                "Only {} can accept this challenge.",
                c.sides.who(Side::Challenged)
            )]);
        }
        self.challenge_event("accepted", &c.sides, Side::Challenged);
        self.start(now).await
    }

    fn decline(&mut self, user: &str) -> Lines {
        if let Some(f) = &self.fight {
            return vec![format!(
                "A fight is on: {} vs {}. To give it up, /yield.",
                f.own.sides.styled[0], f.own.sides.styled[1]
            )];
        }
        let Some(c) = &self.challenge else {
            return vec!["There is no challenge to decline here.".into()];
        };
        if c.fighters.len() > 2 {
            return self.decline_group(user);
        }
        let line = if c.sides.users[1].eq_ignore_ascii_case(user) && !c.sides.npc[1] {
            self.challenge_event("declined", &c.sides, Side::Challenged);
            crate::challenge::declined(&c.sides.styled[1], &c.sides.styled[0])
        } else if c.sides.users[0].eq_ignore_ascii_case(user) {
            self.challenge_event("declined", &c.sides, Side::Challenger);
            crate::challenge::withdrawn(&c.sides.styled[0])
        } else {
            return vec![format!(
                "Only {} can decline this challenge, or {} withdraw it.",
                c.sides.users[1], c.sides.users[0]
            )];
        };
        self.challenge = None;
        vec![line]
    }

    /// `/CHALLENGE FOE,FOE --with ALLY,ALLY` (`usage`): a challenge of groups, at most
    /// [`Game::MAX_SIDE`] a side (PC33), every creature named once, free and able to fight; an
    /// NPC ally only by a moderator. Every named player must accept; NPCs accept at once.
    async fn group_challenge(
        &mut self,
        user: &str,
        foes: &[String],
        allies: &[String],
        usage: &str,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let max = G::MAX_SIDE;
        if let Some(busy) = self.busy() {
            return Ok(vec![busy]);
        }
        if foes.is_empty() {
            return Ok(vec![format!("Name at least one foe. Usage: {usage}")]);
        }
        if foes.len() > max || allies.len() + 1 > max {
            return Ok(vec![format!(
                "At most {max} a side (PC33): you and {} allies against {max} foes; you named {} allies and {} foes. Usage: {usage}",
                max - 1,
                allies.len(),
                foes.len()
            )]);
        }
        let Some(mine) = self.mine(user, now).await? else {
            return Ok(vec![self.no_character(user)]);
        };
        if let Some(why) = self.game.cannot_challenge(&mine)? {
            return Ok(vec![why]);
        }
        let moderator =
            self.rights.moderator || self.app.permissions(self.realm).is_moderator(user);
        let mut fighters = vec![mine];
        for (i, name) in allies.iter().chain(foes).enumerate() {
            let Some(c) = self.find(name, now).await? else {
                return Ok(vec![format!(
                    "No {} or player named '{}' plays {} here. Usage: {usage}",
                    G::CHARACTER,
                    name.trim(),
                    G::NAME
                )]);
            };
            if c.id == fighters[0].id {
                return Ok(vec![format!(
                    "{} is yours: a {} cannot fight beside or against themself. Usage: {usage}",
                    c.name,
                    G::CHARACTER
                )]);
            }
            if fighters.iter().any(|f| f.id == c.id) {
                return Ok(vec![format!(
                    "{} is named twice; each {} fights once, on one side. Usage: {usage}",
                    c.name,
                    G::CHARACTER
                )]);
            }
            if i < allies.len() && c.is_npc() && !moderator {
                return Ok(vec![format!(
                    "{} is a non-player character: only a moderator names one as an ally. Usage: {usage}",
                    c.name
                )]);
            }
            fighters.push(c);
        }
        let refs: Vec<&Character> = fighters.iter().collect();
        if let Some(why) = self.unable(&refs)? {
            return Ok(vec![why]);
        }
        let sides = crate::games::sides_of(&self.game, &refs, 1 + allies.len())?;
        let accepted: Vec<bool> = sides
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| i == 0 || m.npc)
            .collect();
        self.member_event("challenge", &sides, 0);
        let npcs: Vec<&str> = sides.members[1..]
            .iter()
            .filter(|m| m.npc)
            .map(|m| m.styled.as_str())
            .collect();
        for (i, m) in sides.members.iter().enumerate().skip(1) {
            if m.npc {
                self.member_event("accepted", &sides, i);
            }
        }
        let secs = self.app.settings(self.realm).challenge_timeout_secs;
        let mut line = format!(
            "{} {} {} to {}!",
            sides.styled[0],
            if allies.is_empty() {
                "challenges"
            } else {
                "challenge"
            },
            sides.styled[1],
            G::BOUT
        );
        if !npcs.is_empty() {
            let verb = if npcs.len() == 1 { "accepts" } else { "accept" };
            line.push_str(&format!(" {} {verb} at once.", npcs.join(", ")));
        }
        let waiting = accepted.iter().any(|a| !a);
        self.challenge = Some(Challenge {
            fighters,
            sides,
            deadline: now + self.app.challenge_timeout(self.realm),
            accepted,
        });
        if waiting {
            line.push_str(&format!(
                " {}: /accept or /decline ({secs}s).",
                self.unanswered().join(", ")
            ));
            return Ok(vec![line]);
        }
        let mut lines = vec![line];
        lines.extend(self.start(now).await?);
        Ok(lines)
    }

    /// Why one of `fighters` cannot fight now (fighting elsewhere, or as the game says).
    fn unable(&self, fighters: &[&Character]) -> Result<Option<String>> {
        for c in fighters {
            if let Some(channel) = self.app.character_fighting_in(c.id) {
                return Ok(Some(fighting_elsewhere(&self.game.styled(c), &channel)));
            }
            if let Some(why) = self.game.cannot_fight(c)? {
                return Ok(Some(why));
            }
        }
        Ok(None)
    }

    /// Why no challenge can be issued here now: a fight or a challenge stands.
    fn busy(&self) -> Option<String> {
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

    /// The players of a group challenge who have not yet accepted.
    fn unanswered(&self) -> Vec<String> {
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

    /// Logs a challenge's step taken by a member, if the game has an event for it.
    fn member_event(&self, kind: &'static str, sides: &Sides, member: usize) {
        if let Some(event) = self.game.member_challenge_event(kind, sides, member) {
            self.app.log_game_events(G::ID, std::iter::once(event));
        }
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
        self.member_event("accepted", &sides, m);
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
        self.member_event("declined", &sides, m);
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

    /// Starts the fight of the challenge standing here.
    async fn start(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let Some(c) = &self.challenge else {
            return Ok(Vec::new());
        };
        // An offer out of a fight still open (a GM's check's redo) is settled before the fight.
        let mut lines = Vec::new();
        let ids: Vec<Id> = c.fighters.iter().map(|f| f.id).collect();
        for id in ids {
            lines.extend(self.settle(id, now).await?);
        }
        lines.extend(self.start_fight(now).await?);
        Ok(lines)
    }

    /// Claims the challenge's fighters and starts its fight.
    async fn start_fight(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let Some(c) = self.challenge.take() else {
            return Ok(Vec::new());
        };
        let ids: Vec<Id> = c.fighters.iter().map(|f| f.id).collect();
        if let Err((id, other)) = self.app.claim_characters(&ids, &self.channel) {
            let who = match ids.iter().position(|&i| i == id) {
                Some(i) if ids.len() > 2 => &c.sides.members[i].styled,
                Some(0) => &c.sides.styled[0],
                _ => &c.sides.styled[1],
            };
            return Ok(vec![fighting_elsewhere(who, &other)]);
        }
        let names: Vec<String> = c.fighters.iter().map(|f| self.game.styled(f)).collect();
        match self.start_claimed(c, now).await {
            Ok(lines) => Ok(lines),
            Err(e) => {
                self.app.release_characters(&ids);
                // Claimed in the books by a fight another process started.
                if let Some(line) = claimed_elsewhere(&e, &ids, &names, "A fighter") {
                    return Ok(vec![line]);
                }
                Err(e)
            }
        }
    }

    async fn start_claimed(&mut self, mut c: Challenge, now: DateTime<Utc>) -> Result<Lines> {
        // The sheets as they are now, not as they were at the challenge: a fight elsewhere, a
        // smith or a new day may have changed them since.
        for fighter in &mut c.fighters {
            let now_c = self
                .store()
                .character(fighter.id)
                .await?
                .with_context(|| format!("{} is no longer in the books", fighter.name))?;
            *fighter = self.today(now_c, now)?;
            if let Some(why) = self.game.cannot_fight(fighter)? {
                let ids: Vec<Id> = c.fighters.iter().map(|f| f.id).collect();
                self.app.release_characters(&ids);
                return Ok(vec![why]);
            }
        }
        let challengers = c
            .sides
            .members
            .iter()
            .filter(|m| m.side == Side::Challenger)
            .count();
        let refs: Vec<&Character> = c.fighters.iter().collect();
        let setup = crate::games::setup_of(&self.game, &refs, challengers)?;
        let seed = self.app.next_seed();
        let mut opened = live::open::<G::Fight>(setup.clone(), seed, &self.app.queue, now);
        let setup_json = serde_json::to_value(&setup)?;
        let users = [c.sides.users[0].as_str(), c.sides.users[1].as_str()];
        let members = members_of(&c.fighters, &c.sides);
        let id = self
            .store()
            .start_bout(
                NewBout {
                    realm: self.realm,
                    channel: &self.channel,
                    game: G::ID,
                    characters: [c.fighters[0].id, c.fighters[challengers].id],
                    users,
                    setup: &setup_json,
                    seed,
                    at: now,
                    members: &members,
                },
                &opened.step.encoded()?,
            )
            .await?;
        let what = format!("{} of {}", G::BOUT, G::NAME);
        let mut lines = vec![live::opening_line(id, &c.sides.styled, &what, &seed)];
        let events = std::mem::take(&mut opened.events);
        self.log(&events, &c.sides);
        lines.extend(self.game.narrate(&events, &c.sides));
        let orders = vec![None; c.fighters.len()];
        let cast = Cast {
            fighters: c.fighters,
            sides: c.sides,
            orders,
        };
        self.fight = Some(Live::new(
            id,
            opened,
            now + self.app.decision_timeout(self.realm),
            cast,
        ));
        lines.extend(self.after_step(now).await?);
        Ok(lines)
    }

    fn log(&self, events: &[<G::Fight as Fight>::Event], sides: &Sides) {
        let names = sides.names();
        self.app.log_game_events(
            G::ID,
            events
                .iter()
                .map(|e| self.game.member_event_json(e, &names)),
        );
    }

    fn side_of(&self, user: &str) -> Option<Side> {
        let f = self.fight.as_ref()?;
        Some(f.own.sides.members[self.member_of(user)?].side)
    }

    /// The member of the fight here that the player speaks for.
    fn member_of(&self, user: &str) -> Option<usize> {
        self.fight.as_ref()?.own.sides.member_of(user)
    }

    async fn decide(
        &mut self,
        user: &str,
        decision: Decision<G>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(vec![crate::challenge::no_fight(&self.channel, "challenge")]);
        };
        let Some(member) = self.member_of(user) else {
            let who: Vec<String> = (0..f.own.sides.members.len())
                .map(|m| f.own.sides.who_member(m))
                .collect();
            return Ok(vec![crate::live::not_fighting_line(&who, &self.waiting())]);
        };
        self.apply(member, decision, now, None, true).await
    }

    fn waiting(&self) -> String {
        let Some(f) = &self.fight else {
            return String::new();
        };
        let who: Vec<String> = f
            .fight
            .pending()
            .iter()
            .map(|p| {
                format!(
                    "{} {}: {}",
                    f.own
                        .sides
                        .who_member(self.game.member_awaited(&f.fight, p)),
                    p.what,
                    p.options
                        .iter()
                        .map(|d| format!("/{}", self.game.decision_text(&f.fight, d)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        format!("waiting for {}", who.join("; "))
    }

    /// Applies the decision of `member` (in a duel, its side's index), stores it, and
    /// narrates, after `note` (a default taken on a timeout, an NPC's move); with `follow`,
    /// goes on to what comes next (NPCs' moves, prompts).
    async fn apply(
        &mut self,
        member: usize,
        decision: Decision<G>,
        now: DateTime<Utc>,
        note: Option<String>,
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
                return Ok(vec![self.game.member_refusal(
                    &f.fight,
                    &err,
                    &f.own.sides,
                    member,
                )])
            }
        };
        let written = if f.fight.is_over() {
            self.write_end(&mv.step, now).await
        } else {
            f.write_step(&self.app.store, &mv.step).await.map(|()| None)
        };
        let Some(f) = &mut self.fight else {
            return Ok(Vec::new());
        };
        let (events, end) = f.settle(mv, written, now, timeout)?;
        let declaration = G::Fight::is_declaration(&decision);
        let mut lines: Lines = note.into_iter().collect();
        let sides = f.own.sides.clone();
        self.log(&events, &sides);
        lines.extend(self.game.narrate(&events, &sides));
        lines.extend(end.into_iter().flatten());
        if follow && !declaration {
            lines.extend(self.after_step(now).await?);
        }
        Ok(lines)
    }

    /// Writes a finished fight with what outlasts it, in one transaction.
    async fn write_end(
        &self,
        last: &Step<Decision<G>>,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let Some(f) = &self.fight else {
            return Ok(None);
        };
        let result = f.fight.result().context("the fight has not ended")?;
        let day = self.app.day_in(self.realm, now);
        let refs: Vec<&Character> = f.own.fighters.iter().collect();
        let mut after = if refs.len() > 2 {
            self.game.group_after(&f.fight, &refs, &day)?
        } else {
            Vec::from(
                self.game
                    .after(&f.fight, [&f.own.fighters[0], &f.own.fighters[1]], &day)?,
            )
        };
        // T19 and its kind: between fights the default policy looks after an NPC, in the same
        // transaction as the fight's end.
        for (i, c) in f
            .own
            .fighters
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_npc())
        {
            let mut then = c.clone();
            (then.sheet, then.state) = (after[i].sheet.clone(), after[i].state.clone());
            if let Some(change) = self.game.npc_between_fights(&then, &day) {
                after[i] = change;
            }
        }
        // Records: each creature its side's result, one that yielded a loss (PC31, PC32).
        let members = if refs.len() > 2 {
            let record = |m: usize, side: Side| match result.winner {
                _ if self.game.lost_alone(&f.fight, m) => (0, 1, 0),
                None => (0, 0, 1),
                Some(w) if w == side => (1, 0, 0),
                Some(_) => (0, 1, 0),
            };
            f.own
                .fighters
                .iter()
                .zip(&f.own.sides.members)
                .zip(&after)
                .enumerate()
                .map(|(m, ((c, member), a))| {
                    let (wins, losses, draws) = record(m, member.side);
                    MemberEnd {
                        character: c.id,
                        record: Record {
                            wins,
                            losses,
                            draws,
                        },
                        after: (a.sheet.clone(), a.state.clone()),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let lead = f
            .own
            .sides
            .members
            .iter()
            .position(|m| m.side == Side::Challenged)
            .unwrap_or(1);
        let pair = |i: usize| {
            after
                .get(i)
                .map(|a| (a.sheet.clone(), a.state.clone()))
                .unwrap_or_default()
        };
        self.store()
            .finish_bout(&BoutEnd {
                fight: f.id,
                seq: f.seq,
                last: last.encoded()?,
                characters: [f.own.fighters[0].id, f.own.fighters[lead].id],
                winner: result.winner.map(Side::index),
                reason: result.reason.to_string(),
                outcome: self.game.outcome(&f.fight),
                after: [pair(0), pair(lead)],
                members,
            })
            .await?;
        Ok(Some(vec![f.over_line(&self.app, self.realm)]))
    }

    /// After a step: the end of the fight, Herald's decisions for NPCs, or the prompts.
    async fn after_step(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
        // An NPC decides at once; the bound guards against a fight that would not move on.
        for _ in 0..10_000 {
            let Some(f) = &self.fight else {
                return Ok(lines);
            };
            if f.fight.is_over() {
                let ids: Vec<Id> = f.own.fighters.iter().map(|c| c.id).collect();
                self.app.release_characters(&ids);
                self.fight = None;
                return Ok(lines);
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
            let decision = ordered.unwrap_or(p.default);
            let text = self.game.decision_text(&f.fight, &decision);
            let note = match ordered {
                Some(_) => format!(
                    "{} takes /{text}, as a moderator ordered.",
                    f.own.sides.members[i].styled
                ),
                None => format!("{} takes /{text}.", f.own.sides.members[i].styled),
            };
            if let Some(f) = &mut self.fight {
                f.own.orders[i] = None;
            }
            lines.extend(Box::pin(self.apply(i, decision, now, Some(note), false)).await?);
        }
        lines.extend(self.prompts(now));
        Ok(lines)
    }

    fn prompts(&self, now: DateTime<Utc>) -> Lines {
        let Some(f) = &self.fight else {
            return Vec::new();
        };
        let left = f.left(now);
        f.fight
            .pending()
            .iter()
            .map(|p| self.game.prompt(&f.fight, p, &f.own.sides, left))
            .collect()
    }

    fn status(&self, now: DateTime<Utc>) -> Lines {
        if let Some(f) = &self.fight {
            let mut lines = vec![format!(
                "Fight #{}: {} vs {}, {} of {}. {}",
                f.id,
                f.own.sides.styled[0],
                f.own.sides.styled[1],
                G::BOUT,
                G::NAME,
                self.game.stage(&f.fight, &f.own.sides)
            )];
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
            return vec![format!(
                "{} {} {}; waiting for {waiting} to /accept or /decline ({left}s).",
                c.sides.styled[0],
                if c.sides
                    .members
                    .iter()
                    .filter(|m| m.side == Side::Challenger)
                    .count()
                    > 1
                {
                    "have challenged"
                } else {
                    "has challenged"
                },
                c.sides.styled[1]
            )];
        }
        vec![format!(
            "No fight in {} ({}). Challenge someone: /challenge TARGET",
            self.channel,
            G::NAME
        )]
    }

    async fn show(&self, user: &str, name: Option<&str>, now: DateTime<Utc>) -> Result<Lines> {
        let found = match name {
            None => self.mine(user, now).await?,
            Some(n) => self.find(n, now).await?,
        };
        match found {
            Some(c) => self.game.sheet_lines(&c),
            None => Ok(vec![match name {
                None => self.no_character(user),
                Some(n) => format!(
                    "No {} or player named '{}' plays {} here.",
                    G::CHARACTER,
                    n.trim(),
                    G::NAME
                ),
            }]),
        }
    }

    async fn record(&self, user: &str, name: Option<&str>, now: DateTime<Utc>) -> Result<Lines> {
        let found = match name {
            None => self.mine(user, now).await?,
            Some(n) => self.find(n, now).await?,
        };
        let Some(c) = found else {
            return Ok(vec![match name {
                None => self.no_character(user),
                Some(n) => format!("No {} named '{}' in {}.", G::CHARACTER, n.trim(), G::NAME),
            }]);
        };
        let r = c.record;
        Ok(vec![format!(
            "{} in {}: {} {}, {} {}, {} {}.",
            self.game.styled(&c),
            G::NAME,
            r.wins,
            if r.wins == 1 { "win" } else { "wins" },
            r.losses,
            if r.losses == 1 { "loss" } else { "losses" },
            r.draws,
            if r.draws == 1 { "draw" } else { "draws" },
        )])
    }

    async fn create(
        &self,
        owner: Option<&str>,
        by: &str,
        name: &str,
        sheet: AsOf,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let created = self
            .store()
            .create_character(
                self.realm,
                G::ID,
                owner,
                by,
                name,
                &sheet.sheet,
                &sheet.state,
                now,
            )
            .await;
        match created {
            Ok(c) => {
                let mut lines = vec![format!(
                    "{} is ready for {}{}.",
                    self.game.styled(&c),
                    G::NAME,
                    if owner.is_none() {
                        " (a non-player character: Herald decides for it)"
                    } else {
                        ""
                    }
                )];
                lines.extend(self.game.sheet_lines(&c)?);
                Ok(lines)
            }
            Err(CharacterError::Db(e)) => Err(e.into()),
            Err(refusal) => Ok(vec![format!("Cannot create {name}: {refusal}.")]),
        }
    }

    /// `/odds KNIGHT [KNIGHT]`: a simulation of the two as they stand today, both by the
    /// default policy.
    async fn odds(
        &self,
        user: &str,
        first: &str,
        second: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let usage = if G::MAX_SIDE > 1 {
            "Usage: /odds NAME[,NAME] [NAME[,NAME]]"
        } else {
            "Usage: /odds NAME [NAME]"
        };
        let missing = |name: &str| {
            format!(
                "No {} or player named '{}' plays {} here. {usage}",
                G::CHARACTER,
                name.trim(),
                G::NAME
            )
        };
        // A side may name several, `Ash,Cai`, in a game of groups (Game::MAX_SIDE); the other
        // side is the speaker's own character when not named.
        let mut sides: [Vec<Character>; 2] = Default::default();
        for (side, names) in [Some(first), second].into_iter().enumerate() {
            let Some(names) = names else {
                match self.mine(user, now).await? {
                    Some(c) => sides[side].push(c),
                    None => return Ok(vec![self.no_character(user)]),
                }
                continue;
            };
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                match self.find(name, now).await? {
                    Some(c) => sides[side].push(c),
                    None => return Ok(vec![missing(name)]),
                }
            }
            if sides[side].is_empty() {
                return Ok(vec![missing(names)]);
            }
        }
        if let Some(side) = sides.iter().find(|s| s.len() > G::MAX_SIDE) {
            return Ok(vec![if G::MAX_SIDE == 1 {
                format!(
                    "{} is fought one against one: name one {} a side. {usage}",
                    G::NAME,
                    G::CHARACTER
                )
            } else {
                format!(
                    "At most {} a side; {} were named. {usage}",
                    G::MAX_SIDE,
                    side.len()
                )
            }]);
        }
        let all: Vec<&Character> = sides.iter().flatten().collect();
        if all
            .iter()
            .enumerate()
            .any(|(i, c)| all[..i].iter().any(|d| d.id == c.id))
        {
            return Ok(vec![if all.len() == 2 {
                format!("Name two different {}s. {usage}", G::CHARACTER)
            } else {
                format!("Name each {} once. {usage}", G::CHARACTER)
            }]);
        }
        let setup = crate::games::setup_of(&self.game, &all, sides[0].len())?;
        let seed = u64::from_le_bytes(self.app.next_seed()[..8].try_into().unwrap_or([0; 8]));
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let odds = tokio::task::spawn_blocking(move || {
            crate::simulate::bout_odds::<G::Fight>(
                &setup,
                crate::simulate::CHAT_FIGHTS,
                seed,
                threads,
                &|_| {},
            )
        })
        .await?;
        let styled = |side: &[Character]| {
            and_list(&side.iter().map(|c| self.game.styled(c)).collect::<Vec<_>>())
        };
        Ok(vec![odds.summary_of(
            G::NAME,
            [&styled(&sides[0]), &styled(&sides[1])],
            sides.each_ref().map(|s| s.len() > 1),
        )])
    }

    async fn npc_create(&self, user: &str, rest: &str, now: DateTime<Utc>) -> Result<Lines> {
        let line = format!("/{} create {rest}", G::CHARACTER);
        let command = match parse_in(&line, &['/'], G::commands()) {
            Some(Ok(Command::Game(g))) => g,
            Some(Err(e)) => return Ok(vec![e.to_string()]),
            _ => {
                return Ok(vec![format!(
                    "Usage: /npc create NAME [OPTIONS], with the options of /{} create.",
                    G::CHARACTER
                )])
            }
        };
        match self
            .game
            .meaning(&command, None, true, &self.app.day_in(self.realm, now))
        {
            Meaning::Create(name, sheet) => self.create(None, user, &name, sheet, now).await,
            Meaning::Refused(line) => Ok(vec![line]),
            _ => Ok(vec![format!(
                "Usage: /npc create NAME [OPTIONS], with the options of /{} create.",
                G::CHARACTER
            )]),
        }
    }

    async fn npc_retire(&self, name: &str) -> Result<Lines> {
        let Some(c) = self
            .store()
            .character_named(self.realm, G::ID, name)
            .await?
            .filter(Character::is_npc)
        else {
            return Ok(vec![format!(
                "No non-player character named '{}' in {}.",
                name.trim(),
                G::NAME
            )]);
        };
        self.retire_one(&c, "").await
    }

    /// Retires a character not fighting, with `more` after the line that says so.
    async fn retire_one(&self, c: &Character, more: &str) -> Result<Lines> {
        if let Some(channel) = self.app.character_fighting_in(c.id) {
            return Ok(vec![format!(
                "{} is fighting in {channel}; retire it once the fight is over.",
                self.game.styled(c)
            )]);
        }
        self.store().retire_character(c.id).await?;
        Ok(vec![format!(
            "{} is retired; its fights stay in the books.{more}",
            self.game.styled(c)
        )])
    }

    async fn act_as(&mut self, name: &str, text: &str, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(lines) = self.act_as_out_of_fight(name, text, now).await? {
            return Ok(lines);
        }
        let Some(f) = &self.fight else {
            return Ok(vec![format!(
                "There is no fight in {} for {} to act in.",
                self.channel,
                name.trim()
            )]);
        };
        let Some(member) = f
            .own
            .sides
            .members
            .iter()
            .position(|m| m.npc && m.plain.eq_ignore_ascii_case(name.trim()))
        else {
            return Ok(vec![format!(
                "'{}' is not a non-player character of this fight; /as speaks for an NPC that is fighting here.",
                name.trim()
            )]);
        };
        let decision = match parse_in(text, &['/', '!'], G::commands()) {
            Some(Ok(Command::Game(g))) => {
                let side = f.own.sides.members[member].side;
                let meaning = self
                    .game
                    .meaning_of_member(&f.fight, side, member, &g)
                    .unwrap_or_else(|| {
                        self.game
                            .meaning(&g, None, false, &self.app.day_in(self.realm, now))
                    });
                match meaning {
                    Meaning::Decide(d) | Meaning::DecideOn(d, _) | Meaning::Roll(Some(d)) => {
                        Some(d)
                    }
                    Meaning::Refused(line) => return Ok(vec![line]),
                    _ => None,
                }
            }
            Some(Err(e)) => return Ok(vec![e.to_string()]),
            _ => None,
        };
        let Some(decision) = decision else {
            return Ok(vec![format!(
                "Usage: /as {} /DECISION, a decision of this fight: {}.",
                name.trim(),
                self.waiting()
            )]);
        };
        // The NPC's decisions are taken at once when its turn comes: the order waits for it.
        let styled = f.own.sides.members[member].styled.clone();
        let text = self.game.decision_text(&f.fight, &decision);
        if let Some(f) = &mut self.fight {
            f.own.orders[member] = Some(decision);
        }
        Ok(vec![format!(
            "{styled} will take /{text} at its next decision, if it is a choice then."
        )])
    }

    /// `/as NPC /COMMAND` for an NPC out of a fight here: a roll out of a fight (`/as Drone-7
    /// /check ...`, its `/redo` and `/keep`), or a change between fights (`/as Brim /rest`),
    /// saved; `None` when the line is neither.
    async fn act_as_out_of_fight(
        &mut self,
        name: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let Some(Ok(Command::Game(g))) = parse_in(text, &['/', '!'], G::commands()) else {
            return Ok(None);
        };
        let Some(npc) = self
            .store()
            .character_named(self.realm, G::ID, name.trim())
            .await?
            .filter(Character::is_npc)
        else {
            return Ok(None);
        };
        let npc = self.today(self.recover(npc, now).await?, now)?;
        let fighting_here = self
            .fight
            .as_ref()
            .is_some_and(|f| f.own.fighters.iter().any(|c| c.id == npc.id));
        match self
            .game
            .meaning(&g, Some(&npc), false, &self.app.day_in(self.realm, now))
        {
            Meaning::Roll(_) if !fighting_here => Ok(Some(self.roll(npc, &g, now).await?)),
            Meaning::Change(change, line) => {
                if let Some(channel) = self.app.character_fighting_in(npc.id) {
                    return Ok(Some(vec![format!(
                        "{} is fighting in {channel}; /{} waits until the fight is over.",
                        self.game.styled(&npc),
                        g.name
                    )]));
                }
                self.store()
                    .save_character(npc.id, &change.sheet, &change.state)
                    .await?;
                Ok(Some(vec![line]))
            }
            _ => Ok(None),
        }
    }

    /// A command that rolls out of a fight, for `c` (as of today): stored in one write, its
    /// events logged.
    async fn roll(&mut self, c: Character, g: &GameCommand, now: DateTime<Utc>) -> Result<Lines> {
        if let Some(channel) = self.app.character_fighting_in(c.id) {
            return Ok(vec![format!(
                "{} is fighting in {channel}; /{} waits until the fight is over.",
                self.game.styled(&c),
                g.name
            )]);
        }
        let mut rng = SeededDice::new(self.app.next_seed());
        let mut dice = FightDice::new(&mut rng, &self.app.queue);
        let rolled = self.game.roll(g, &c, now, &mut dice as &mut dyn RollSource);
        let mut after = c;
        if let Some(state) = rolled.state {
            self.store()
                .save_character(after.id, &after.sheet, &state)
                .await?;
            after.state = state;
        }
        self.app.log_game_events(G::ID, rolled.events.into_iter());
        self.lapses.retain(|(id, _)| *id != after.id);
        if let Some((at, _)) = self.game.lapse(&after) {
            self.lapses.push((after.id, at));
        }
        Ok(rolled.lines)
    }

    /// `/help [COMMAND]` in this game's channel.
    fn help(&self, topic: Option<&str>) -> Lines {
        let table = G::commands();
        let Some(topic) = topic else {
            let own: Vec<&str> = table
                .iter()
                .filter(|s| s.path != ["help"])
                .map(|s| s.usage)
                .collect();
            return vec![format!(
                "{} in {}: {}. Also: /challenge TARGET, /accept, /decline, /status, /sheet [NAME], /record [NAME], /roll EXPR, /game; moderators: /npc create NAME [OPTIONS], /npc retire NAME, /as NAME COMMAND. /help COMMAND explains one.",
                G::NAME,
                self.channel,
                own.join(", ")
            )];
        };
        let words: Vec<String> = topic
            .split_whitespace()
            .map(|w| w.trim_start_matches(['/', '!']).to_lowercase())
            .collect();
        let phrase = words.join(" ");
        let spec = table
            .iter()
            .find(|s| s.name() == phrase)
            .or_else(|| crate::command::find_spec(&phrase));
        match spec {
            Some(spec) => vec![format!(
                "{} — {} Example: {}",
                spec.usage, spec.summary, spec.example
            )],
            None => vec![format!(
                "No command '{phrase}' in {}; /help lists them.",
                G::NAME
            )],
        }
    }

    async fn game_command(
        &mut self,
        user: &str,
        g: &GameCommand,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        if g.name == "help" {
            return Ok(self.help(g.arg("command")));
        }
        if let (Some(f), Some(member)) = (&self.fight, self.member_of(user)) {
            let side = f.own.sides.members[member].side;
            match self.game.meaning_of_member(&f.fight, side, member, g) {
                Some(Meaning::Decide(d)) => return self.decide(user, d, now).await,
                Some(Meaning::Refused(line)) => return Ok(vec![line]),
                _ => {}
            }
        }
        let mine = self.mine(user, now).await?;
        let day = self.app.day_in(self.realm, now);
        match self.game.meaning(g, mine.as_ref(), false, &day) {
            Meaning::Create(name, sheet) => {
                // A character that no longer counts as its player's (dead) gives way to the new.
                if let Some(old) = mine.as_ref().filter(|c| self.game.gone(c)) {
                    if self
                        .store()
                        .character_named(self.realm, G::ID, &name)
                        .await?
                        .is_none_or(|c| c.id == old.id)
                    {
                        self.store().retire_character(old.id).await?;
                    }
                }
                self.create(Some(user), user, &name, sheet, now).await
            }
            Meaning::Decide(d) => self.decide(user, d, now).await,
            Meaning::DecideOn(d, target) => match self.not_opponent(user, &target) {
                Some(line) => Ok(vec![line]),
                None => self.decide(user, d, now).await,
            },
            // A game's verb may be history's too (`/fight 12`): a fight's number asks for the
            // fight, as in every other channel, unless a character bears that name.
            Meaning::Challenge(target) => match fight_number(&target) {
                Some(id)
                    if self
                        .store()
                        .character_named(self.realm, G::ID, target.trim())
                        .await?
                        .is_none() =>
                {
                    crate::history::handle(
                        &self.app,
                        self.realm,
                        G::ID,
                        user,
                        Command::Fight { id },
                    )
                    .await
                }
                _ => self.challenge(user, &target, now).await,
            },
            Meaning::Group(foes, allies) => {
                let usage = G::commands()
                    .iter()
                    .find(|s| s.name() == g.name)
                    .map_or("", |s| s.usage);
                self.group_challenge(user, &foes, &allies, usage, now).await
            }
            Meaning::Retire => self.retire(user, mine).await,
            Meaning::Roll(decision) => match (decision, self.side_of(user)) {
                (Some(d), Some(_)) => self.decide(user, d, now).await,
                _ => match mine {
                    Some(c) => self.roll(c, g, now).await,
                    None => Ok(vec![self.no_character(user)]),
                },
            },
            Meaning::Show(name) => self.show(user, name.as_deref(), now).await,
            Meaning::Refused(line) => Ok(vec![line]),
            Meaning::Change(change, line) => {
                let Some(c) = mine else {
                    return Ok(vec![self.no_character(user)]);
                };
                if let Some(channel) = self.app.character_fighting_in(c.id) {
                    return Ok(vec![format!(
                        "{} is fighting in {channel}; /{} waits until the fight is over.",
                        self.game.styled(&c),
                        g.name
                    )]);
                }
                self.store()
                    .save_character(c.id, &change.sheet, &change.state)
                    .await?;
                Ok(vec![line])
            }
        }
    }

    /// Why `target` is not the speaker's opponent in the fight here, if it is not.
    fn not_opponent(&self, user: &str, target: &str) -> Option<String> {
        let f = self.fight.as_ref()?;
        let side = self.side_of(user)?;
        let o = side.other().index();
        let t = target.trim().trim_start_matches('@');
        if f.own.sides.plain[o].eq_ignore_ascii_case(t)
            || f.own.sides.users[o].eq_ignore_ascii_case(t)
        {
            return None;
        }
        Some(format!(
            "'{}' is not your opponent; you fight {}. Usage: /attack [TARGET] [--isp N]",
            target.trim(),
            f.own.sides.who(side.other())
        ))
    }

    /// `/morph retire`: the speaker's character leaves the books; its fights stay.
    async fn retire(&self, user: &str, mine: Option<Character>) -> Result<Lines> {
        let Some(c) = mine else {
            return Ok(vec![self.no_character(user)]);
        };
        let more = format!(" /{} create NAME makes a new one.", G::CHARACTER);
        self.retire_one(&c, &more).await
    }

    async fn deadline(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        let mut lines = Vec::new();
        let due: Vec<Id> = self
            .lapses
            .iter()
            .filter(|(_, at)| *at <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in due {
            lines.extend(self.settle(id, now).await?);
        }
        lines.extend(self.own_deadline_passed(now).await?);
        Ok(lines)
    }

    /// The challenge lapses, or the awaited fighter's time is up.
    async fn own_deadline_passed(&mut self, now: DateTime<Utc>) -> Result<Lines> {
        if self.own_deadline().is_none_or(|d| d > now) {
            return Ok(Vec::new());
        }
        let Some(f) = &self.fight else {
            let unanswered = self.unanswered();
            return Ok(match self.challenge.take() {
                // Each player who did not answer takes the default, /decline (PC37).
                Some(c) if c.fighters.len() > 2 => {
                    for (m, _) in c.accepted.iter().enumerate().filter(|(_, a)| !**a) {
                        self.member_event("declined", &c.sides, m);
                    }
                    vec![format!(
                        "The challenge of {} to {} lapses: {} did not answer, so it is declined (PC37).",
                        c.sides.styled[0],
                        c.sides.styled[1],
                        and_list(&unanswered)
                    )]
                }
                Some(c) => vec![{
                    self.challenge_event("declined", &c.sides, Side::Challenged);
                    crate::challenge::lapsed(&c.sides.styled[0], &c.sides.styled[1])
                }],
                None => Vec::new(),
            });
        };
        let pending = f.fight.pending();
        // Every member awaited takes its default at once (a defense asks several, PC37); the
        // last goes on to what comes next.
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
            let note = live::timed_out_line(
                &f.own.sides.who_member(member),
                &self.game.decision_text(&f.fight, &p.default),
            );
            let last = n + 1 == count;
            lines.extend(self.apply(member, p.default, now, Some(note), last).await?);
            if !last && self.fight.as_ref().is_some_and(|f| f.fight.is_over()) {
                lines.extend(self.after_step(now).await?);
            }
        }
        Ok(lines)
    }

    async fn restore_bout(&mut self, bout: OpenBout, now: DateTime<Utc>) -> Result<Lines> {
        let (fight, rng, _) = replay::<G::Fight>(&bout)?;
        let steps = bout.steps.len();
        let (ids, challengers) = bout.creatures();
        let mut fighters = Vec::with_capacity(ids.len());
        for &id in &ids {
            fighters.push(self.store().character(id).await?.with_context(|| {
                format!("fight #{} names a character not in the books", bout.id)
            })?);
        }
        if let Err((_, other)) = self.app.claim_characters(&ids, &self.channel) {
            anyhow::bail!(
                "a character of fight #{} is also fighting in {other}",
                bout.id
            );
        }
        let refs: Vec<&Character> = fighters.iter().collect();
        let sides = crate::games::sides_of(&self.game, &refs, challengers)?;
        let orders = vec![None; fighters.len()];
        let cast = Cast {
            fighters,
            sides,
            orders,
        };
        let deadline = now + self.app.decision_timeout(self.realm);
        self.fight = Some(Live::restored(
            bout.id,
            (fight, rng),
            bout.seed,
            steps,
            deadline,
            cast,
        ));
        let mut lines = vec![live::resumed_line(bout.id)];
        lines.extend(self.status(now));
        Ok(lines)
    }
}

/// Replays a stored fight of a game on the seam ([`live::replay`]).
pub fn replay<F: Fight>(bout: &OpenBout) -> Result<(F, SeededDice, Vec<usize>)> {
    let setup: F::Setup =
        serde_json::from_value(bout.setup.clone()).context("the fight's setup does not parse")?;
    live::replay(
        bout.id,
        setup,
        bout.seed,
        bout.steps.iter().map(Step::decoded::<F::Decision>),
    )
}

/// `herald verify` for a fight of `G`: replays it from its seed and decisions and compares its
/// end with the books.
pub fn verify<G: Game>(store: &Store, id: Id) -> BoxFuture<'_, Result<crate::verify::Report>> {
    Box::pin(async move {
        let bout = store.bout(id).await?;
        let report = |ok, message: String| Ok(crate::verify::Report { ok, message });
        let Some((reason, logged)) = &bout.ended else {
            return report(
                false,
                format!(
                    "Fight #{id} of {} is still open ({} steps so far); only a finished fight can be verified.",
                    G::NAME,
                    bout.steps.len().saturating_sub(1)
                ),
            );
        };
        let (fight, _, mismatches) = match replay::<G::Fight>(&bout) {
            Ok(r) => r,
            Err(e) => return Ok(crate::verify::unplayable(id, &e)),
        };
        if let Some(differ) = crate::verify::rolls_differ(id, &mismatches) {
            return Ok(differ);
        }
        let game = G::new(&crate::config::Config::default())?;
        let replayed = game.outcome(&fight);
        if &replayed != logged {
            return report(
                false,
                format!("Fight #{id} differs: the replay ends {replayed}, the books say {logged}."),
            );
        }
        let winner = match fight.result().and_then(|r| r.winner) {
            Some(w) => format!("{} won", bout_name(store, &bout, w).await?),
            None => "a draw".to_string(),
        };
        report(
            true,
            format!(
                "Fight #{id} of {} verifies: {} decisions replayed from seed {}; {winner} ({reason}){}.",
                G::NAME,
                bout.steps.len().saturating_sub(1),
                hex::encode(bout.seed),
                crate::verify::scripted(&bout.steps)
            ),
        )
    })
}

/// A group fight's creatures for the books (`fight_members`); none for a duel.
fn members_of(fighters: &[Character], sides: &Sides) -> Vec<BoutMember> {
    if fighters.len() <= 2 {
        return Vec::new();
    }
    fighters
        .iter()
        .zip(&sides.members)
        .enumerate()
        .map(|(i, (c, m))| BoutMember {
            side: m.side.index() as i64,
            seat: i as i64,
            character: c.id,
            user: m.user.clone(),
        })
        .collect()
}

/// `12` or `#12`: a fight's number.
fn fight_number(word: &str) -> Option<u32> {
    word.trim().trim_start_matches('#').parse().ok()
}

/// The name of the character a side fought as, else who spoke for it.
async fn bout_name(store: &Store, bout: &OpenBout, side: Side) -> Result<String> {
    // A group fight's side is every member of it, read back from the books.
    let members: Vec<&BoutMember> = bout
        .members
        .iter()
        .filter(|m| m.side == side.index() as i64)
        .collect();
    if !members.is_empty() {
        let mut names = Vec::with_capacity(members.len());
        for m in members {
            names.push(
                store
                    .character(m.character)
                    .await?
                    .map_or_else(|| m.user.clone(), |c| c.name),
            );
        }
        return Ok(and_list(&names));
    }
    Ok(store
        .character(bout.characters[side.index()])
        .await?
        .map_or_else(|| bout.users[side.index()].clone(), |c| c.name))
}
