//! The contract every game's fight keeps, so that one referee drives them all.
//!
//! A fight is a value: [`Fight::start`] builds it from its setup (the sheets as they were, the
//! options) and the dice, [`Fight::pending`] says who must decide what (the legal options and the
//! default a timeout takes), and [`Fight::decide`] takes a decision, rolls what the rules roll and
//! returns what happened as events. A refused decision is a typed error and leaves the fight
//! unchanged. A fight is therefore its setup, its seed and its decision log: replaying the log on
//! the same dice gives the same fight.
//!
//! The default policy is the prompts' defaults: a timeout, a non-player character and a
//! simulation all take [`Prompt::default`].

use crate::dice::RollSource;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::{Debug, Display};

/// The two sides of a fight. The challenger (in a tournament, the first-listed of the pair)
/// rolls first whenever both roll in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The fighter who issued the challenge, or the first-listed of a tournament pair.
    Challenger,
    /// The fighter who was challenged, or the second-listed of a tournament pair.
    Challenged,
}

impl Side {
    /// Both sides, challenger first.
    pub const BOTH: [Side; 2] = [Side::Challenger, Side::Challenged];

    /// The opponent.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Challenger => Side::Challenged,
            Side::Challenged => Side::Challenger,
        }
    }

    /// 0 for the challenger, 1 for the challenged: an index into per-fighter arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A decision a fight is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt<D> {
    /// Who must decide.
    pub side: Side,
    /// What the awaited fighter is doing, for messages: "to choose an action".
    pub what: &'static str,
    /// The legal choices.
    pub options: Vec<D>,
    /// What a timeout, a non-player character and a simulation decide.
    pub default: D,
}

/// How a finished fight ended, in the terms every game shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended, as the game's events name it (`out`, `yielded`, `unhorsed`, ...).
    pub reason: &'static str,
}

/// Where a fight puts its events: a `Vec` keeps them; [`Discard`] drops them, for simulations
/// that need only results (the compiler then skips building them).
pub trait Sink<E> {
    /// Takes one event.
    fn push(&mut self, event: E);

    /// Whether it keeps what it is given: a fight may skip building events for a sink that
    /// does not.
    #[inline]
    fn keeps(&self) -> bool {
        true
    }
}

impl<E> Sink<E> for Vec<E> {
    #[inline]
    fn push(&mut self, event: E) {
        Vec::push(self, event);
    }
}

/// A [`Sink`] that keeps nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl<E> Sink<E> for Discard {
    #[inline]
    fn push(&mut self, _event: E) {}

    #[inline]
    fn keeps(&self) -> bool {
        false
    }
}

/// A game's fight: the state machine every game supplies and the referee drives.
pub trait Fight: Clone + Debug + Send + Sync + 'static {
    /// Everything the fight starts from; stored with it, it and the decision log replay it.
    type Setup: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// A fighter's decision. `Display` gives its command word (`attack`, `bonus weaken`).
    type Decision: Copy
        + Debug
        + Display
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// Something that happened, with fighters named by [`Side`].
    type Event: Clone + Debug + Serialize + Send + 'static;
    /// Why a decision was refused.
    type Error: std::error::Error + Clone + Send + Sync + 'static;

    /// Starts the fight: the opening rolls (a roll-off, a first pass) and their events.
    fn start(setup: Self::Setup, dice: &mut impl RollSource) -> (Self, Vec<Self::Event>);

    /// The setup the fight started from.
    fn setup(&self) -> &Self::Setup;

    /// The decisions awaited now; empty once the fight is over.
    fn pending(&self) -> Vec<Prompt<Self::Decision>>;

    /// Takes `side`'s decision and runs the rules on to the next decision. A refused decision
    /// returns the error and changes nothing.
    fn decide(
        &mut self,
        side: Side,
        decision: Self::Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Self::Event>, Self::Error>;

    /// As [`Fight::start`], its events into `sink`; a simulation discards them, and a game may
    /// then build none.
    fn start_into(
        setup: Self::Setup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Self::Event>,
    ) -> Self {
        let (fight, events) = Self::start(setup, dice);
        events.into_iter().for_each(|e| sink.push(e));
        fight
    }

    /// Plays on with the default policy (every prompt's default) for both sides, at most
    /// `max_decisions` decisions, its events into `sink`; returns whether the fight ended. A
    /// game may do it without building prompts or events, as simulations want.
    fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Self::Event>,
        max_decisions: usize,
    ) -> bool {
        for _ in 0..max_decisions {
            let Some(p) = self.pending().into_iter().next() else {
                break;
            };
            match self.decide(p.side, p.default, dice) {
                Ok(events) => events.into_iter().for_each(|e| sink.push(e)),
                // A default the fight itself refuses would repeat for ever.
                Err(_) => break,
            }
        }
        self.is_over()
    }

    /// How it ended, once it has.
    fn result(&self) -> Option<FightResult>;

    /// Whether the fight has ended.
    fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Whether `decision` changes no one's turn (a declaration such as PsiKnight's `/bonus`):
    /// the prompts standing before it still hold, and its deadline is not renewed.
    fn is_declaration(_decision: &Self::Decision) -> bool {
        false
    }
}
