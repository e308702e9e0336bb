//! The bot's dice: each fight's own seeded stream, the `@dice` queue of script transcripts in
//! front of it, and a record of every roll so a fight can be replayed exactly after a restart.

use herald_engine::dice::{RollSource, SeededDice};
use std::collections::VecDeque;
use std::sync::Mutex;

/// Rolls queued by `@dice`, taken before any generator, whichever fight or `/roll` asks next.
#[derive(Debug, Default)]
pub struct DiceQueue {
    inner: Mutex<QueueState>,
}

#[derive(Debug, Default)]
struct QueueState {
    rolls: VecDeque<u32>,
    /// The first queued value that did not fit its die, with the die.
    misfit: Option<(u32, u32)>,
}

impl DiceQueue {
    /// Queues values (each at least 1; whether it fits is checked when it is rolled).
    pub fn push(&self, values: impl IntoIterator<Item = u32>) {
        self.lock().rolls.extend(values);
    }

    /// How many queued values are left.
    pub fn len(&self) -> usize {
        self.lock().rolls.len()
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first queued value that did not fit the die it was rolled for, `(value, sides)`, and
    /// clears it.
    pub fn take_misfit(&self) -> Option<(u32, u32)> {
        self.lock().misfit.take()
    }

    fn pop_for(&self, sides: u32) -> Option<u32> {
        let mut state = self.lock();
        let value = state.rolls.pop_front()?;
        if (1..=sides).contains(&value) {
            Some(value)
        } else {
            state.misfit.get_or_insert((value, sides));
            None
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        // A poisoned queue only means another thread panicked mid-push; the data is still whole.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A fight's dice for one step: the queue first, then the fight's own stream; every roll logged
/// as `(value, injected)`.
pub struct FightDice<'a> {
    rng: &'a mut SeededDice,
    queue: &'a DiceQueue,
    /// The rolls of this step.
    pub log: Vec<(u32, bool)>,
}

impl<'a> FightDice<'a> {
    /// Dice over a fight's stream and the shared queue.
    pub fn new(rng: &'a mut SeededDice, queue: &'a DiceQueue) -> Self {
        FightDice {
            rng,
            queue,
            log: Vec::new(),
        }
    }
}

impl RollSource for FightDice<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        if let Some(v) = self.queue.pop_for(sides) {
            self.log.push((v, true));
            return v;
        }
        let v = self.rng.roll(sides);
        self.log.push((v, false));
        v
    }
}

/// Replays a fight's recorded rolls, advancing its stream past every roll that came from it, and
/// noting where the stream disagrees with the record (for `herald verify`).
pub struct ReplayDice<'a> {
    rng: &'a mut SeededDice,
    rolls: std::vec::IntoIter<(u32, bool)>,
    /// The roll numbers (0-based) where the seed gives another value than the record.
    pub mismatches: Vec<usize>,
    /// How many rolls were asked for beyond the record.
    pub beyond: usize,
    count: usize,
}

impl<'a> ReplayDice<'a> {
    /// Replays `rolls` over `rng`.
    pub fn new(rng: &'a mut SeededDice, rolls: Vec<(u32, bool)>) -> Self {
        ReplayDice {
            rng,
            rolls: rolls.into_iter(),
            mismatches: Vec::new(),
            beyond: 0,
            count: 0,
        }
    }

    /// Whether any recorded roll is left unused.
    pub fn leftover(&self) -> usize {
        self.rolls.len()
    }
}

impl RollSource for ReplayDice<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        let n = self.count;
        self.count += 1;
        match self.rolls.next() {
            Some((v, true)) => v.clamp(1, sides.max(1)),
            Some((v, false)) => {
                let fresh = self.rng.roll(sides);
                if fresh != v {
                    self.mismatches.push(n);
                }
                v.clamp(1, sides.max(1))
            }
            None => {
                self.beyond += 1;
                self.rng.roll(sides)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_rolls_come_first_then_the_stream() {
        let queue = DiceQueue::default();
        queue.push([5, 6]);
        let mut rng = SeededDice::from_u64(1);
        let mut expected = SeededDice::from_u64(1);
        let mut dice = FightDice::new(&mut rng, &queue);
        assert_eq!(dice.d100(), 5);
        assert_eq!(dice.d100(), 6);
        let third = dice.d100();
        assert_eq!(third, expected.d100());
        assert_eq!(dice.log, vec![(5, true), (6, true), (third, false)]);
    }

    #[test]
    fn a_queued_value_off_the_die_is_reported_not_used() {
        let queue = DiceQueue::default();
        queue.push([7]);
        let mut rng = SeededDice::from_u64(1);
        let mut dice = FightDice::new(&mut rng, &queue);
        let r = dice.roll(6);
        assert!((1..=6).contains(&r));
        assert_eq!(queue.take_misfit(), Some((7, 6)));
    }

    #[test]
    fn replay_advances_the_stream_and_finds_tampering() {
        let queue = DiceQueue::default();
        queue.push([99]);
        let mut rng = SeededDice::from_u64(3);
        let mut dice = FightDice::new(&mut rng, &queue);
        let _ = (dice.d100(), dice.d100(), dice.d100());
        let log = dice.log.clone();
        let next_live = rng.d100();

        let mut replay_rng = SeededDice::from_u64(3);
        let mut replay = ReplayDice::new(&mut replay_rng, log.clone());
        let replayed: Vec<u32> = (0..3).map(|_| replay.d100()).collect();
        assert_eq!(replayed, log.iter().map(|r| r.0).collect::<Vec<_>>());
        assert!(replay.mismatches.is_empty());
        assert_eq!(
            replay_rng.d100(),
            next_live,
            "the stream resumes where it was"
        );

        let mut tampered = log;
        tampered[1].0 = if tampered[1].0 == 1 { 2 } else { 1 };
        let mut rng = SeededDice::from_u64(3);
        let mut replay = ReplayDice::new(&mut rng, tampered);
        let _ = (replay.d100(), replay.d100(), replay.d100());
        assert_eq!(replay.mismatches, vec![1]);
    }
}
