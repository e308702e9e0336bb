//! The default decision policy: what a timeout decides, and how simulations fight.
//!
//! No sweep, High, Attack, the counter with the best effective chance (R42), no psi, and no
//! Swordplay after a practice Joust unless asked for ([`Policy::fight_on`]).

use super::decision::{Decision, Side};
use super::event::EventSink;
use super::fight::{Match, PromptKind};
use crate::dice::RollSource;

/// How an automatic fighter decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Whether to agree to Swordplay after a practice Joust (the timeout default is no, R41).
    pub fight_on: bool,
}

impl Policy {
    /// The policy's decision for `side`, if the match awaits one from it.
    #[inline]
    pub fn decide(&self, m: &Match, side: Side) -> Option<Decision> {
        let kind = m.awaiting()[side.index()]?;
        Some(match kind {
            PromptKind::FightOn if self.fight_on => Decision::Swordplay,
            _ => m.default_decision(side)?,
        })
    }

    /// Plays the match to its end with this policy for both fighters, appending every event.
    ///
    /// `max_decisions` bounds the work: a Swordplay can in principle go on for ever, so callers
    /// that need a guarantee (property tests, simulations) set a cap. Returns whether it ended.
    pub fn play_out(
        &self,
        m: &mut Match,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
        max_decisions: usize,
    ) -> bool {
        for _ in 0..max_decisions {
            let awaiting = m.awaiting();
            let Some(side) = Side::BOTH
                .into_iter()
                .find(|s| awaiting[s.index()].is_some())
            else {
                return m.is_over();
            };
            let Some(decision) = self.decide(m, side) else {
                return m.is_over();
            };
            if m.decide_into(side, decision, dice, events).is_err() {
                // The policy only ever picks a listed option; an error would be an engine bug.
                debug_assert!(false, "policy chose an illegal {decision:?}");
                return false;
            }
        }
        m.is_over()
    }
}
