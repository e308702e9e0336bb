//! Dice: the one trait through which every roll of the engine goes.
//!
//! Production uses [`SeededDice`], a ChaCha12 stream with a fixed, portable mapping from words to
//! die faces, so a fight is fully determined by its seed and its decisions across versions and
//! machines. Tests use [`ScriptedDice`], which hands out exactly the rolls it was given.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha12Rng;
use std::collections::VecDeque;

/// A source of die rolls. `roll(sides)` returns a number from 1 to `sides` inclusive.
///
/// `sides` is at least 1. Implementations must not panic for any `sides >= 1`, except
/// [`ScriptedDice`], whose purpose is to fail loudly when a test script is wrong.
pub trait RollSource {
    /// Rolls one die with `sides` faces: a number in `1..=sides`.
    fn roll(&mut self, sides: u32) -> u32;

    /// Rolls percentile dice: 1 to 100.
    fn d100(&mut self) -> u32 {
        self.roll(100)
    }
}

impl<R: RollSource + ?Sized> RollSource for &mut R {
    fn roll(&mut self, sides: u32) -> u32 {
        (**self).roll(sides)
    }
}

/// A 256-bit seed for [`SeededDice`].
pub type Seed = [u8; 32];

/// Expands a 64-bit number into a [`Seed`], for command lines and tests (`--seed 42`).
pub fn seed_from_u64(n: u64) -> Seed {
    let mut seed = [0u8; 32];
    // The same expansion rand_core uses (PCG32), written out so it can never change under us.
    let mut state = n;
    const MUL: u64 = 6364136223846793005;
    const INC: u64 = 11634580027462260723;
    for chunk in seed.chunks_mut(4) {
        state = state.wrapping_mul(MUL).wrapping_add(INC);
        let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
        let rot = (state >> 59) as u32;
        chunk.copy_from_slice(&xorshifted.rotate_right(rot).to_le_bytes());
    }
    seed
}

/// The production dice: a seeded ChaCha12 stream.
///
/// The mapping from the stream to faces is this crate's own (not `rand`'s `gen_range`, whose
/// algorithm may change between versions): Lemire's multiply-and-reject on 32-bit words, which
/// is unbiased and needs a second word only rarely.
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: ChaCha12Rng,
}

impl SeededDice {
    /// Dice determined entirely by `seed`.
    pub fn new(seed: Seed) -> Self {
        SeededDice {
            rng: ChaCha12Rng::from_seed(seed),
        }
    }

    /// Dice determined by a 64-bit number (see [`seed_from_u64`]).
    pub fn from_u64(n: u64) -> Self {
        Self::new(seed_from_u64(n))
    }

    /// Dice for `seed`, positioned `word_pos` 32-bit words into the stream (see
    /// [`SeededDice::word_pos`]): a fight can keep 48 bytes instead of the generator's 320.
    pub fn at(seed: Seed, word_pos: u128) -> Self {
        let mut rng = ChaCha12Rng::from_seed(seed);
        rng.set_word_pos(word_pos);
        SeededDice { rng }
    }

    /// How many 32-bit words of the stream have been used.
    pub fn word_pos(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// Draws a fresh [`Seed`] from this stream, e.g. one per fight from a realm's master dice.
    pub fn next_seed(&mut self) -> Seed {
        let mut seed = [0u8; 32];
        self.rng.fill_bytes(&mut seed);
        seed
    }
}

impl RollSource for SeededDice {
    #[inline]
    fn roll(&mut self, sides: u32) -> u32 {
        debug_assert!(sides >= 1);
        let sides = sides.max(1);
        // Lemire, "Fast Random Integer Generation in an Interval" (2019).
        let mut m = u64::from(self.rng.next_u32()) * u64::from(sides);
        let mut low = m as u32;
        if low < sides {
            let threshold = sides.wrapping_neg() % sides;
            while low < threshold {
                m = u64::from(self.rng.next_u32()) * u64::from(sides);
                low = m as u32;
            }
        }
        (m >> 32) as u32 + 1
    }
}

/// Dice that hand out a fixed script of rolls, in order. For tests.
///
/// # Panics
/// `roll` panics when the script is exhausted or a scripted number does not fit the die: a test
/// whose script is wrong should fail at the roll that went astray, not somewhere later.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    rolls: VecDeque<u32>,
    taken: usize,
}

impl ScriptedDice {
    /// Dice that will return `rolls` in order.
    pub fn new(rolls: impl IntoIterator<Item = u32>) -> Self {
        ScriptedDice {
            rolls: rolls.into_iter().collect(),
            taken: 0,
        }
    }

    /// Queues more rolls after the ones already scripted.
    pub fn push(&mut self, rolls: impl IntoIterator<Item = u32>) {
        self.rolls.extend(rolls);
    }

    /// How many scripted rolls have not been used yet.
    pub fn remaining(&self) -> usize {
        self.rolls.len()
    }

    /// How many rolls have been taken so far.
    pub fn taken(&self) -> usize {
        self.taken
    }
}

impl RollSource for ScriptedDice {
    fn roll(&mut self, sides: u32) -> u32 {
        let n = self.taken + 1;
        let value = self
            .rolls
            .pop_front()
            .unwrap_or_else(|| panic!("scripted dice exhausted at roll #{n} (a d{sides})"));
        assert!(
            (1..=sides).contains(&value),
            "scripted roll #{n} is {value}, which does not fit a d{sides}"
        );
        self.taken += 1;
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_stream_is_pinned() {
        // These numbers are the contract that a seed reproduces a fight forever. If this test
        // fails, every recorded fight would replay differently: do not update the numbers.
        let mut dice = SeededDice::from_u64(42);
        let rolls: Vec<u32> = (0..12).map(|_| dice.d100()).collect();
        assert_eq!(rolls, PINNED_42);
        let mut dice = SeededDice::new([0; 32]);
        let rolls: Vec<u32> = (0..6).map(|_| dice.roll(6)).collect();
        assert_eq!(rolls, PINNED_ZERO_D6);
    }

    const PINNED_42: [u32; 12] = [14, 53, 25, 55, 87, 64, 100, 41, 97, 4, 62, 42];
    const PINNED_ZERO_D6: [u32; 6] = [3, 2, 1, 6, 5, 1];

    #[test]
    fn a_stream_resumes_from_its_position() {
        let seed = seed_from_u64(9);
        let mut dice = SeededDice::new(seed);
        let _ = (dice.d100(), dice.roll(6), dice.roll(1_000_000));
        let mut resumed = SeededDice::at(seed, dice.word_pos());
        for _ in 0..50 {
            assert_eq!(dice.d100(), resumed.d100());
        }
    }

    #[test]
    fn seeded_rolls_stay_on_the_die() {
        let mut dice = SeededDice::from_u64(7);
        for sides in [1, 2, 3, 6, 10, 20, 100, 1_000_000, u32::MAX] {
            for _ in 0..1000 {
                let r = dice.roll(sides);
                assert!((1..=sides).contains(&r), "d{sides} gave {r}");
            }
        }
    }

    #[test]
    fn seeded_d6_is_roughly_uniform() {
        let mut dice = SeededDice::from_u64(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[dice.roll(6) as usize - 1] += 1;
        }
        // A fixed seed: this is deterministic, not a matter of luck.
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn scripted_dice_hand_out_the_script() {
        let mut dice = ScriptedDice::new([5, 100, 1]);
        assert_eq!(dice.d100(), 5);
        assert_eq!(dice.d100(), 100);
        assert_eq!(dice.roll(6), 1);
        assert_eq!(dice.remaining(), 0);
        assert_eq!(dice.taken(), 3);
    }

    #[test]
    #[should_panic(expected = "does not fit a d6")]
    fn scripted_dice_refuse_a_roll_off_the_die() {
        ScriptedDice::new([7]).roll(6);
    }

    #[test]
    fn different_seeds_give_different_streams() {
        let a: Vec<u32> = {
            let mut d = SeededDice::from_u64(1);
            (0..8).map(|_| d.d100()).collect()
        };
        let b: Vec<u32> = {
            let mut d = SeededDice::from_u64(2);
            (0..8).map(|_| d.d100()).collect()
        };
        assert_ne!(a, b);
    }
}
