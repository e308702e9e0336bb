//! A fight in progress, of any game, as the referee ([`crate::referee`]) runs it.
//!
//! The referee and the game's ruleset say who fights and what their books say; this module
//! rolls the start, plays each decision on the fight's seeded stream, writes it to the one
//! fight log (or has the game end the fight in one transaction), puts the fight back as it was
//! when that write fails, moves the deadline, retries a deadline whose write failed, and
//! restores a fight from its log after a restart. `verify` replays a fight the same way.

use crate::dice::{DiceQueue, FightDice, ReplayDice};
use crate::fairness::seed_hash;
use crate::store::{Id, Step, Store};
use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use herald_engine::dice::SeededDice;
use herald_engine::game::{Fight, Side};

pub use crate::reply::Lines;

/// How long a fight's deadline waits before it is tried again when the write it made failed:
/// long enough that a database that refuses writes is not asked again at once, in a loop.
pub const DEADLINE_RETRY: Duration = Duration::seconds(30);

/// Said when a write to the books failed; the fight stands as it was.
pub use crate::reply::UNWRITTEN as SORRY;

/// A fight in progress: the engine's fight, where its seeded stream stands, its place in the
/// log and its deadline; `own` is what the table keeps of it beyond that (its fighters, their
/// names and players).
pub struct Live<F: Fight, K> {
    /// The fight's number in the books.
    pub id: Id,
    /// The engine's fight.
    pub fight: F,
    /// The seed of its dice.
    pub seed: [u8; 32],
    /// How far into the seed's stream the fight has rolled ([`SeededDice::at`]).
    pub word_pos: u128,
    /// The number of its next step in the log.
    pub seq: i64,
    /// When the awaited fighters' time is up.
    pub deadline: DateTime<Utc>,
    /// The table's own of the fight.
    pub own: K,
}

/// A fight's start as rolled, before the books have it: the fight, what happened, the start
/// step for the log (every die it rolled) and where the stream then stands.
pub struct Opened<F: Fight> {
    /// The engine's fight.
    pub fight: F,
    /// What happened at the start.
    pub events: Vec<F::Event>,
    /// The start step.
    pub step: Step<F::Decision>,
    /// The seed of its dice.
    pub seed: [u8; 32],
    /// Where the stream stands after the start.
    pub word_pos: u128,
}

/// Rolls the start of a fight from `setup` on `seed`'s stream behind the `@dice` queue.
pub fn open<F: Fight>(
    setup: F::Setup,
    seed: [u8; 32],
    queue: &DiceQueue,
    now: DateTime<Utc>,
) -> Opened<F> {
    let mut rng = SeededDice::new(seed);
    let mut dice = FightDice::new(&mut rng, queue);
    let (fight, events) = F::start(setup, &mut dice);
    let step = Step {
        side: None,
        decision: None,
        rolls: std::mem::take(&mut dice.log),
        at: now,
    };
    Opened {
        fight,
        events,
        step,
        seed,
        word_pos: rng.word_pos(),
    }
}

/// A decision played on a live fight and not yet in the books: its events, the step to store
/// (with every die it rolled), where the stream then stands, and the fight as it was before,
/// to put back if the write fails ([`Live::settle`]).
pub struct Move<F: Fight> {
    /// What happened.
    pub events: Vec<F::Event>,
    /// The step, for the fight log.
    pub step: Step<F::Decision>,
    word_pos: u128,
    before: F,
}

/// "Fight #12: Sir Ash vs Dame Bea, a practice joust. Dice seed hash … (the seed is shown when
/// the fight ends)."
pub fn opening_line(id: Id, styled: &[String; 2], what: &str, seed: &[u8; 32]) -> String {
    format!(
        "Fight #{id}: {} vs {}, {what}. Dice seed hash {} (the seed is shown when the fight ends).",
        styled[0],
        styled[1],
        seed_hash(seed)
    )
}

/// "Herald is back. Fight #12 resumes where it stood."
pub fn resumed_line(id: Id) -> String {
    format!("Herald is back. Fight #{id} resumes where it stood.")
}

/// "Sir Ash (ann) did not answer in time: /charge is taken for them."
pub fn timed_out_line(who: &str, decision: &str) -> String {
    format!("{who} did not answer in time: /{decision} is taken for them.")
}

/// "Only Sir Ash (ann) and Dame Brim (bo) act in this fight; waiting for …": a decision said
/// by someone not fighting. `fighters` as the channel names them with their players.
pub fn not_fighting_line(fighters: &[String], waiting: &str) -> String {
    format!(
        "Only {} act in this fight; {waiting}.",
        crate::reply::and_list(fighters)
    )
}

impl<F: Fight, K> Live<F, K> {
    /// A fight the books have just started as fight `id`.
    pub fn new(id: Id, opened: Opened<F>, deadline: DateTime<Utc>, own: K) -> Self {
        Live {
            id,
            fight: opened.fight,
            seed: opened.seed,
            word_pos: opened.word_pos,
            seq: 1,
            deadline,
            own,
        }
    }

    /// A fight read back from its log ([`replay`]): `steps` steps so far, the start included.
    pub fn restored(
        id: Id,
        (fight, rng): (F, SeededDice),
        seed: [u8; 32],
        steps: usize,
        deadline: DateTime<Utc>,
        own: K,
    ) -> Self {
        Live {
            id,
            fight,
            seed,
            word_pos: rng.word_pos(),
            seq: steps as i64,
            deadline,
            own,
        }
    }

    /// Plays `decision` of `side`, its dice the `@dice` queue then the fight's stream. A refused
    /// decision leaves the fight as it was and gives the game's error. The move is not yet in
    /// the books: write it ([`Live::write_step`], or the table's end of the fight when
    /// [`Fight::is_over`]), then [`Live::settle`] it.
    pub fn try_move(
        &mut self,
        queue: &DiceQueue,
        side: Side,
        decision: F::Decision,
        now: DateTime<Utc>,
    ) -> std::result::Result<Move<F>, F::Error> {
        let before = self.fight.clone();
        let mut rng = SeededDice::at(self.seed, self.word_pos);
        let mut dice = FightDice::new(&mut rng, queue);
        let events = self.fight.decide(side, decision, &mut dice)?;
        let step = Step {
            side: Some(side),
            decision: Some(decision),
            rolls: std::mem::take(&mut dice.log),
            at: now,
        };
        Ok(Move {
            events,
            step,
            word_pos: rng.word_pos(),
            before,
        })
    }

    /// Writes a move that did not end the fight as the log's next step.
    pub async fn write_step(&self, store: &Store, step: &Step<F::Decision>) -> Result<()> {
        store.add_step(self.id, self.seq, step).await
    }

    /// After the move's write: when it failed, the fight is put back as it was (its stream
    /// unmoved) and the error returned; else the fight moves on a step, and its deadline to
    /// `timeout` from now unless the decision was a declaration, which changes no one's turn.
    pub fn settle<T>(
        &mut self,
        mv: Move<F>,
        written: Result<T>,
        now: DateTime<Utc>,
        timeout: Duration,
    ) -> Result<(Vec<F::Event>, T)> {
        match written {
            Err(e) => {
                self.fight = mv.before;
                Err(e)
            }
            Ok(t) => {
                self.word_pos = mv.word_pos;
                self.seq += 1;
                if !mv.step.decision.as_ref().is_some_and(F::is_declaration) {
                    self.deadline = now + timeout;
                }
                Ok((mv.events, t))
            }
        }
    }

    /// Seconds left before the deadline.
    pub fn left(&self, now: DateTime<Utc>) -> u64 {
        (self.deadline - now).num_seconds().max(0) as u64
    }

    /// "Fight #12 is over. Dice seed: …", with the link to its page when the web is on.
    pub fn over_line(&self, app: &crate::app::App, realm: Id) -> String {
        let over = format!(
            "Fight #{} is over. Dice seed: {}",
            self.id,
            hex::encode(self.seed)
        );
        crate::web::with_link(app, realm, crate::web::Linked::Fight(self.id), over)
    }
}

/// Replays fight `id` from its setup, seed and logged steps: the fight as it now stands, its
/// stream positioned after the last roll, and the rolls that disagree with the seed (counted
/// over the whole fight). The one replay of every game: a restore, `herald verify`, the web's
/// replay ([`replay_with`]).
pub fn replay<F: Fight>(
    id: Id,
    setup: F::Setup,
    seed: [u8; 32],
    steps: impl IntoIterator<Item = Result<Step<F::Decision>>>,
) -> Result<(F, SeededDice, Vec<usize>)> {
    replay_with(id, setup, seed, steps, |_, _| Ok(()))
}

/// [`replay`], telling each step as it is replayed: `each` gets the step as logged (the start
/// first) and the events it made.
pub fn replay_with<F: Fight>(
    id: Id,
    setup: F::Setup,
    seed: [u8; 32],
    steps: impl IntoIterator<Item = Result<Step<F::Decision>>>,
    mut each: impl FnMut(&Step<F::Decision>, Vec<F::Event>) -> Result<()>,
) -> Result<(F, SeededDice, Vec<usize>)> {
    let mut rng = SeededDice::new(seed);
    let mut steps = steps.into_iter();
    let first = steps
        .next()
        .ok_or_else(|| anyhow::anyhow!("fight #{id} has no start step"))??;
    let mut mismatches = Vec::new();
    let mut dice = ReplayDice::new(&mut rng, first.rolls.clone());
    let (mut fight, events) = F::start(setup, &mut dice);
    mismatches.extend(dice.mismatches.iter().copied());
    let mut offset = first.rolls.len();
    each(&first, events)?;
    for (n, step) in steps.enumerate() {
        let step = step?;
        let (Some(side), Some(decision)) = (step.side, step.decision) else {
            anyhow::bail!("fight #{id} step {} has no decision", n + 1);
        };
        let mut dice = ReplayDice::new(&mut rng, step.rolls.clone());
        let events = fight
            .decide(side, decision, &mut dice)
            .map_err(|e| anyhow::anyhow!("fight #{id} step {} no longer replays: {e}", n + 1))?;
        mismatches.extend(dice.mismatches.iter().map(|i| i + offset));
        offset += step.rolls.len();
        each(&step, events)?;
    }
    Ok((fight, rng, mismatches))
}

/// A table's deadline whose write failed: the fight stands as it was, and the deadline is tried
/// again every [`DEADLINE_RETRY`], said to the channel and logged once, not at every retry.
#[derive(Debug, Default)]
pub struct Retry {
    failing: bool,
}

impl Retry {
    /// After a deadline's work: its lines so far and how it ended. On a failure the deadline,
    /// still past, moves [`DEADLINE_RETRY`] on (without a new one it would fire again at once,
    /// and again) and [`SORRY`] is added the first time.
    pub fn after(
        &mut self,
        mut lines: Lines,
        result: Result<()>,
        deadline: Option<&mut DateTime<Utc>>,
        now: DateTime<Utc>,
        channel: &str,
    ) -> Lines {
        let Err(err) = result else {
            self.failing = false;
            return lines;
        };
        if let Some(d) = deadline.filter(|d| **d <= now) {
            *d = now + DEADLINE_RETRY;
        }
        if std::mem::replace(&mut self.failing, true) {
            tracing::debug!(channel = %channel, "a deadline failed again: {err:#}");
        } else {
            tracing::error!(
                channel = %channel,
                "{err:#}; the deadline is tried again every {} s",
                DEADLINE_RETRY.num_seconds()
            );
            lines.push(SORRY.to_string());
        }
        lines
    }

    /// A command was answered (`ok`) or failed: an answered one tells anew of a later
    /// deadline's failed write.
    pub fn answered(&mut self, ok: bool) {
        self.failing &= !ok;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_engine::tourney::{Bout, BoutSetup, Decision, Entrant, NewTourneyKnight};

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_796_000_000 + secs, 0).unwrap_or_default()
    }

    /// Two Tourney knights' bout, opened on seed 7 at time 0, as fight #1.
    fn bout(queue: &DiceQueue) -> Live<Bout, ()> {
        let knight = |name: &str| Entrant {
            sheet: NewTourneyKnight {
                name: name.into(),
                ..Default::default()
            }
            .create(false)
            .unwrap(),
            state: Default::default(),
        };
        let setup = BoutSetup {
            knights: [knight("Ector"), knight("Gimby")],
            tables: Default::default(),
        };
        let opened = open::<Bout>(setup, [7; 32], queue, at(0));
        Live::new(1, opened, at(120), ())
    }

    // A move whose write failed leaves the fight as it was: the same fight, stream and step
    // number, so that the same decision plays the same dice again; one written moves it on.
    #[test]
    fn a_move_not_written_is_put_back_and_one_written_moves_on() {
        let queue = DiceQueue::default();
        let mut live = bout(&queue);
        let (before, word_pos) = (format!("{:?}", live.fight), live.word_pos);
        let side = live.fight.awaited().unwrap();
        let mv = live
            .try_move(&queue, side, Decision::Attack, at(5))
            .unwrap();
        let rolls = mv.step.rolls.clone();
        let failed = live.settle(
            mv,
            Err::<(), _>(anyhow::anyhow!("disk full")),
            at(5),
            Duration::seconds(120),
        );
        assert!(failed.is_err());
        assert_eq!(format!("{:?}", live.fight), before);
        assert_eq!(
            (live.word_pos, live.seq, live.deadline),
            (word_pos, 1, at(120))
        );
        let mv = live
            .try_move(&queue, side, Decision::Attack, at(6))
            .unwrap();
        assert_eq!(mv.step.rolls, rolls, "the same dice again");
        let (events, ()) = live
            .settle(mv, Ok(()), at(6), Duration::seconds(120))
            .unwrap();
        assert!(!events.is_empty());
        assert_ne!(format!("{:?}", live.fight), before);
        assert_eq!((live.seq, live.deadline), (2, at(126)));
        assert!(live.word_pos > word_pos);
    }

    // A refused decision changes nothing.
    #[test]
    fn a_refused_move_changes_nothing() {
        let queue = DiceQueue::default();
        let mut live = bout(&queue);
        let (before, word_pos) = (format!("{:?}", live.fight), live.word_pos);
        let waiting = live.fight.awaited().unwrap().other();
        assert!(live
            .try_move(&queue, waiting, Decision::Attack, at(5))
            .is_err());
        assert_eq!(format!("{:?}", live.fight), before);
        assert_eq!(live.word_pos, word_pos);
    }

    // The log read back is the fight as it was played, its stream where the live one's is.
    #[test]
    fn a_replay_of_the_steps_is_the_fight_as_played() {
        let queue = DiceQueue::default();
        let mut live = bout(&queue);
        let setup = live.fight.setup().clone();
        let start = open::<Bout>(setup.clone(), [7; 32], &queue, at(0)).step;
        let mut steps = vec![start];
        while let Some((side, d)) = live.fight.default_decision() {
            let mv = live.try_move(&queue, side, d, at(1)).unwrap();
            steps.push(mv.step.clone());
            live.settle(mv, Ok(()), at(1), Duration::seconds(1))
                .unwrap();
        }
        let (fight, rng, mismatches) =
            replay::<Bout>(1, setup, [7; 32], steps.into_iter().map(Ok)).unwrap();
        assert_eq!(format!("{fight:?}"), format!("{:?}", live.fight));
        assert_eq!(rng.word_pos(), live.word_pos);
        assert!(mismatches.is_empty());
    }

    // A deadline whose write fails: said once, tried again 30 s on; a success or an answered
    // command tells the next failure anew.
    #[test]
    fn a_failed_deadline_is_said_once_and_retried() {
        let mut retry = Retry::default();
        let mut deadline = at(0);
        let failed = || Err(anyhow::anyhow!("disk full"));
        let said = retry.after(vec!["x".into()], failed(), Some(&mut deadline), at(0), "#c");
        assert_eq!(said, ["x".to_string(), SORRY.to_string()]);
        assert_eq!(deadline, at(0) + DEADLINE_RETRY);
        let again = retry.after(Vec::new(), failed(), Some(&mut deadline), at(30), "#c");
        assert!(again.is_empty());
        assert_eq!(deadline, at(30) + DEADLINE_RETRY);
        assert!(retry
            .after(Vec::new(), Ok(()), None, at(60), "#c")
            .is_empty());
        assert_eq!(
            retry.after(Vec::new(), failed(), None, at(90), "#c"),
            [SORRY]
        );
        retry.answered(true);
        assert_eq!(
            retry.after(Vec::new(), failed(), None, at(99), "#c"),
            [SORRY]
        );
        // A deadline not yet due is left where it is.
        let mut later = at(500);
        retry.after(Vec::new(), failed(), Some(&mut later), at(100), "#c");
        assert_eq!(later, at(500));
    }
}
