//! The games of characters on the referee: every game on [`Game`] keeps the referee's
//! [`Ruleset`] through [`Characters`], with its characters in the one table of characters, its
//! non-player characters decided by the default policy, and its commands read by
//! [`Game::meaning`].

use super::{
    Begun, Challenge, Decision, Event, Fighter, Lines, Proposal, Referee, Restored, Ruleset,
};
use crate::app::App;
use crate::command::{parse_in, Command, GameCommand};
use crate::config::Config;
use crate::dice::FightDice;
use crate::games::{AsOf, Game, Meaning, Sides};
use crate::live;
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
use herald_engine::game::{Fight, Prompt, Side};
use std::future::Future;

/// A game of characters as the referee drives it: the game, with its realm's data.
pub struct Characters<G>(pub G);

/// Offers out of a fight that lapse ([`Game::lapse`]), by character: when.
type Lapses = Vec<(Id, DateTime<Utc>)>;

impl Fighter for Character {
    fn id(&self) -> Id {
        self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn user(&self) -> String {
        self.owner.clone().unwrap_or_else(|| self.name.clone())
    }
    fn is_npc(&self) -> bool {
        Character::is_npc(self)
    }
}

impl<G: Game> Ruleset for Characters<G> {
    type Fight = G::Fight;
    type Fighter = Character;
    type Terms = ();
    type Booked = ();
    type Held = Lapses;

    const ID: &'static str = G::ID;
    const NAME: &'static str = G::NAME;
    const BOUT: &'static str = G::BOUT;
    const VERB: &'static str = "challenge";
    const NOTHING_TO_DECLINE: &'static str = "There is no challenge to decline here.";
    const ANYONE: &'static str = "A fighter";

    fn new(config: &Config) -> Result<Self> {
        G::new(config).map(Characters)
    }

    fn styled(&self, fighter: &Character) -> String {
        self.0.styled(fighter)
    }

    fn setup(
        &self,
        fighters: &[&Character],
        challengers: usize,
        _terms: &(),
    ) -> Result<<G::Fight as Fight>::Setup> {
        crate::games::setup_of(&self.0, fighters, challengers)
    }

    fn narrate(&self, events: &[Event<Self>], sides: &Sides) -> Lines {
        self.0.narrate(events, sides)
    }

    fn prompts(&self, fight: &G::Fight, sides: &Sides, left_secs: u64) -> Lines {
        fight
            .pending()
            .iter()
            .map(|p| self.0.prompt(fight, p, sides, left_secs))
            .collect()
    }

    fn standing(&self, id: Id, fight: &G::Fight, sides: &Sides) -> Lines {
        vec![format!(
            "Fight #{id}: {} vs {}, {} of {}. {}",
            sides.styled[0],
            sides.styled[1],
            G::BOUT,
            G::NAME,
            self.0.stage(fight, sides)
        )]
    }

    fn refusal(
        &self,
        fight: &G::Fight,
        error: &<G::Fight as Fight>::Error,
        sides: &Sides,
        member: usize,
    ) -> String {
        self.0.member_refusal(fight, error, sides, member)
    }

    fn decision_text(&self, fight: &G::Fight, decision: &Decision<Self>) -> String {
        self.0.decision_text(fight, decision)
    }

    fn member_awaited(&self, fight: &G::Fight, prompt: &Prompt<Decision<Self>>) -> usize {
        self.0.member_awaited(fight, prompt)
    }

    fn challenge_event(
        &self,
        kind: &'static str,
        sides: &Sides,
        member: usize,
    ) -> Option<serde_json::Value> {
        self.0.member_challenge_event(kind, sides, member)
    }

    fn log(r: &Referee<Self>, events: &[Event<Self>], sides: &Sides) {
        let names = sides.names();
        r.app.log_game_events(
            G::ID,
            events.iter().map(|e| r.game.0.member_event_json(e, &names)),
        );
    }

    fn claim(app: &App, ids: &[Id], channel: &str) -> Result<(), (Id, String)> {
        app.claim_characters(ids, channel)
    }

    fn release(app: &App, ids: &[Id]) {
        app.release_characters(ids);
    }

    fn fighting_in(app: &App, id: Id) -> Option<String> {
        app.character_fighting_in(id)
    }

    fn command<'a>(
        r: &'a mut Referee<Self>,
        user: &'a str,
        command: &'a Command,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Option<Lines>>> + Send + 'a {
        r.character_command(user, command, now)
    }

    fn propose<'a>(
        r: &'a mut Referee<Self>,
        user: &'a str,
        target: &'a str,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<std::result::Result<Proposal<Self>, Lines>>> + Send + 'a {
        r.propose(user, target, now)
    }

    async fn before_start(
        r: &mut Referee<Self>,
        fighters: Vec<Id>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        // An offer out of a fight still open (a GM's check's redo) is settled before the fight.
        let mut lines = Vec::new();
        for id in fighters {
            lines.extend(r.settle(id, now).await?);
        }
        Ok(lines)
    }

    async fn fresh(
        r: &Referee<Self>,
        fighters: &mut [Character],
        now: DateTime<Utc>,
    ) -> Result<Option<String>> {
        // The sheets as they are now, not as they were at the challenge: a fight elsewhere, a
        // smith or a new day may have changed them since.
        for fighter in fighters.iter_mut() {
            let now_c = r
                .store()
                .character(fighter.id)
                .await?
                .with_context(|| format!("{} is no longer in the books", fighter.name))?;
            *fighter = r.today(now_c, now)?;
            if let Some(why) = r.game.0.cannot_fight(fighter)? {
                return Ok(Some(why));
            }
        }
        Ok(None)
    }

    async fn begin(
        r: &Referee<Self>,
        fighters: &[Character],
        sides: &Sides,
        _terms: &(),
        setup: &<G::Fight as Fight>::Setup,
        seed: [u8; 32],
        first: &Step<Decision<Self>>,
        now: DateTime<Utc>,
    ) -> Result<Begun<Self>> {
        let challengers = sides
            .members
            .iter()
            .filter(|m| m.side == Side::Challenger)
            .count();
        let id = r
            .store()
            .start_bout(
                NewBout {
                    realm: r.realm,
                    channel: &r.channel,
                    game: G::ID,
                    characters: [fighters[0].id, fighters[challengers].id],
                    users: [sides.users[0].as_str(), sides.users[1].as_str()],
                    setup: &serde_json::to_value(setup)?,
                    seed,
                    at: now,
                    members: &members_of(fighters, sides),
                },
                &first.encoded()?,
            )
            .await?;
        Ok(Begun {
            id,
            what: format!("{} of {}", G::BOUT, G::NAME),
            notes: Vec::new(),
            booked: (),
        })
    }

    fn end<'a>(
        r: &'a mut Referee<Self>,
        last: &'a Step<Decision<Self>>,
        now: DateTime<Utc>,
    ) -> impl Future<Output = Result<Lines>> + Send + 'a {
        r.write_end(last, now)
    }

    fn held_deadline(r: &Referee<Self>) -> Option<DateTime<Utc>> {
        r.held.iter().map(|(_, at)| *at).min()
    }

    async fn on_deadline(r: &mut Referee<Self>, now: DateTime<Utc>) -> Lines {
        let due: Vec<Id> = r
            .held
            .iter()
            .filter(|(_, at)| *at <= now)
            .map(|(id, _)| *id)
            .collect();
        let mut lines = Vec::new();
        for id in due {
            match r.settle(id, now).await {
                Ok(more) => lines.extend(more),
                Err(e) => {
                    lines = r.retry.after(lines, Err(e), None, now, &r.channel);
                }
            }
        }
        lines.extend(r.fight_deadline(now).await);
        lines
    }

    async fn restore(r: &Referee<Self>, open: OpenLogged) -> Result<Restored<Self>> {
        let bout = r.store().bout_with(open.id, open.steps).await?;
        let (fight, rng, _) = replay::<G::Fight>(&bout)?;
        let (ids, challengers) = bout.creatures();
        let mut fighters = Vec::with_capacity(ids.len());
        for &id in &ids {
            fighters.push(r.store().character(id).await?.with_context(|| {
                format!("fight #{} names a character not in the books", bout.id)
            })?);
        }
        Ok(Restored {
            id: bout.id,
            fight,
            rng,
            seed: bout.seed,
            steps: bout.steps.len(),
            fighters,
            challengers,
            booked: (),
        })
    }

    fn idle(r: &Referee<Self>, _now: DateTime<Utc>) -> Lines {
        vec![format!(
            "No fight in {} ({}). Challenge someone: /challenge TARGET",
            r.channel,
            G::NAME
        )]
    }
}

impl<G: Game> Referee<Characters<G>> {
    async fn character_command(
        &mut self,
        user: &str,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Result<Option<Lines>> {
        let lines = match command {
            Command::Sheet { name } => self.show(user, name.as_deref(), now).await?,
            Command::Record { name } => self.record(user, name.as_deref(), now).await?,
            Command::NpcCreate { rest } => self.npc_create(user, rest, now).await?,
            Command::NpcRetire { name } => self.npc_retire(name).await?,
            Command::As { name, command } => self.act_as(name, command, now).await?,
            Command::Game(g) => self.game_command(user, g, now).await?,
            Command::Rules { topic } => self.game.0.rules(topic.as_deref()),
            Command::Odds { knight, other } => {
                self.odds(user, knight, other.as_deref(), now).await?
            }
            _ => return Ok(None),
        };
        Ok(Some(lines))
    }

    /// A challenge of `target` by `user`'s character: both found as of today, and able.
    async fn propose(
        &mut self,
        user: &str,
        target: &str,
        now: DateTime<Utc>,
    ) -> Result<std::result::Result<Proposal<Characters<G>>, Lines>> {
        let Some(mine) = self.mine(user, now).await? else {
            return Ok(Err(vec![self.no_character(user)]));
        };
        if let Some(why) = self.game.0.cannot_challenge(&mine)? {
            return Ok(Err(vec![why]));
        }
        let Some(theirs) = self.find(target, now).await? else {
            return Ok(Err(vec![format!(
                "No {} or player named '{}' plays {} here. Usage: /challenge TARGET (a player's nick or a {}'s name)",
                G::CHARACTER,
                target.trim(),
                G::NAME,
                G::CHARACTER
            )]));
        };
        if theirs.id == mine.id {
            return Ok(Err(vec![format!(
                "A {} cannot fight themself. Usage: /challenge TARGET",
                G::CHARACTER
            )]));
        }
        if let Some(why) = self.unable(&[&mine, &theirs])? {
            return Ok(Err(vec![why]));
        }
        Ok(Ok(Proposal {
            fighters: [mine, theirs],
            before: Vec::new(),
            after: Vec::new(),
            terms: (),
        }))
    }

    /// Takes the command a lapsed offer out of a fight takes ([`Game::lapse`]) for character
    /// `id`, if its state still holds one: at its deadline, or at once when the character is
    /// about to fight.
    async fn settle(&mut self, id: Id, now: DateTime<Utc>) -> Result<Lines> {
        self.held.retain(|(c, _)| *c != id);
        let Some(c) = self.store().character(id).await? else {
            return Ok(Vec::new());
        };
        let c = self.today(c, now)?;
        let Some((_, command)) = self.game.0.lapse(&c) else {
            return Ok(Vec::new());
        };
        let Some(Ok(Command::Game(g))) = parse_in(command, &['/'], G::commands()) else {
            return Ok(Vec::new());
        };
        let mut lines = vec![format!(
            "Time is up for {}: {command} is taken.",
            self.game.0.styled(&c)
        )];
        lines.extend(self.roll(c, &g, now).await?);
        Ok(lines)
    }

    fn store(&self) -> &Store {
        &self.app.store
    }

    /// A character as of today, with its state recovered as the game says.
    fn today(&self, mut c: Character, now: DateTime<Utc>) -> Result<Character> {
        let AsOf { sheet, state } = self.game.0.as_of(&c, &self.app.day_in(self.realm, now))?;
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
        if let Some((after, event)) = self
            .game
            .0
            .recovery(&c, &self.app.day_in(self.realm, now))?
        {
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
        if let Some(busy) = self.busy_line() {
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
        if let Some(why) = self.game.0.cannot_challenge(&mine)? {
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
        let sides = super::sides_of(&self.game, &refs, 1 + allies.len())?;
        let accepted: Vec<bool> = sides
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| i == 0 || m.npc)
            .collect();
        self.challenge_event("challenge", &sides, 0);
        let npcs: Vec<&str> = sides.members[1..]
            .iter()
            .filter(|m| m.npc)
            .map(|m| m.styled.as_str())
            .collect();
        for (i, m) in sides.members.iter().enumerate().skip(1) {
            if m.npc {
                self.challenge_event("accepted", &sides, i);
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
            terms: (),
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
                return Ok(Some(super::fighting_elsewhere(
                    &self.game.0.styled(c),
                    &channel,
                )));
            }
            if let Some(why) = self.game.0.cannot_fight(c)? {
                return Ok(Some(why));
            }
        }
        Ok(None)
    }

    async fn show(&self, user: &str, name: Option<&str>, now: DateTime<Utc>) -> Result<Lines> {
        let found = match name {
            None => self.mine(user, now).await?,
            Some(n) => self.find(n, now).await?,
        };
        match found {
            Some(c) => self.game.0.sheet_lines(&c),
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
        Ok(vec![format!(
            "{} in {}: {}.",
            self.game.0.styled(&c),
            G::NAME,
            c.record
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
                    self.game.0.styled(&c),
                    G::NAME,
                    if owner.is_none() {
                        " (a non-player character: Herald decides for it)"
                    } else {
                        ""
                    }
                )];
                lines.extend(self.game.0.sheet_lines(&c)?);
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
        let setup = crate::games::setup_of(&self.game.0, &all, sides[0].len())?;
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
            and_list(
                &side
                    .iter()
                    .map(|c| self.game.0.styled(c))
                    .collect::<Vec<_>>(),
            )
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
            .0
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
                self.game.0.styled(c)
            )]);
        }
        self.store().retire_character(c.id).await?;
        Ok(vec![format!(
            "{} is retired; its fights stay in the books.{more}",
            self.game.0.styled(c)
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
                    .0
                    .meaning_of_member(&f.fight, side, member, &g)
                    .unwrap_or_else(|| {
                        self.game
                            .0
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
        let text = self.game.0.decision_text(&f.fight, &decision);
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
            .0
            .meaning(&g, Some(&npc), false, &self.app.day_in(self.realm, now))
        {
            Meaning::Roll(_) if !fighting_here => Ok(Some(self.roll(npc, &g, now).await?)),
            Meaning::Change(change, line) => {
                if let Some(channel) = self.app.character_fighting_in(npc.id) {
                    return Ok(Some(vec![format!(
                        "{} is fighting in {channel}; /{} waits until the fight is over.",
                        self.game.0.styled(&npc),
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
                self.game.0.styled(&c),
                g.name
            )]);
        }
        let mut rng = SeededDice::new(self.app.next_seed());
        let mut dice = FightDice::new(&mut rng, &self.app.queue);
        let rolled = self
            .game
            .0
            .roll(g, &c, now, &mut dice as &mut dyn RollSource);
        let mut after = c;
        if let Some(state) = rolled.state {
            self.store()
                .save_character(after.id, &after.sheet, &state)
                .await?;
            after.state = state;
        }
        self.app.log_game_events(G::ID, rolled.events.into_iter());
        self.held.retain(|(id, _)| *id != after.id);
        if let Some((at, _)) = self.game.0.lapse(&after) {
            self.held.push((after.id, at));
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
            match self.game.0.meaning_of_member(&f.fight, side, member, g) {
                Some(Meaning::Decide(d)) => return self.decide(user, d, now).await,
                Some(Meaning::Refused(line)) => return Ok(vec![line]),
                _ => {}
            }
        }
        let mine = self.mine(user, now).await?;
        let day = self.app.day_in(self.realm, now);
        match self.game.0.meaning(g, mine.as_ref(), false, &day) {
            Meaning::Create(name, sheet) => {
                // A character that no longer counts as its player's (dead) gives way to the new.
                if let Some(old) = mine.as_ref().filter(|c| self.game.0.gone(c)) {
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
                        self.game.0.styled(&c),
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

    /// Writes a finished fight with what outlasts it, in one transaction.
    async fn write_end(
        &self,
        last: &Step<Decision<Characters<G>>>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let Some(f) = &self.fight else {
            return Ok(Vec::new());
        };
        let result = f.fight.result().context("the fight has not ended")?;
        let day = self.app.day_in(self.realm, now);
        let refs: Vec<&Character> = f.own.fighters.iter().collect();
        let mut after = if refs.len() > 2 {
            self.game.0.group_after(&f.fight, &refs, &day)?
        } else {
            Vec::from(self.game.0.after(
                &f.fight,
                [&f.own.fighters[0], &f.own.fighters[1]],
                &day,
            )?)
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
            if let Some(change) = self.game.0.npc_between_fights(&then, &day) {
                after[i] = change;
            }
        }
        // Records: each creature its side's result, one that yielded a loss (PC31, PC32).
        let members = if refs.len() > 2 {
            let record = |m: usize, side: Side| match result.winner {
                _ if self.game.0.lost_alone(&f.fight, m) => (0, 1, 0),
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
                outcome: self.game.0.outcome(&f.fight),
                after: [pair(0), pair(lead)],
                members,
            })
            .await?;
        Ok(vec![f.over_line(&self.app, self.realm)])
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
