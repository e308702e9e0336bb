//! The default decision policy: what a timeout decides, and how simulations fight.
//!
//! No sweep, High, Attack, the counter with the best effective chance (R42), no psi, and no
//! Swordplay after a practice Joust unless asked for ([`Policy::fight_on`]).

use super::decision::{Decision, Side};
use super::event::EventSink;
use super::fight::{Match, Phase, PromptKind};
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
            // The policy reads the state directly and only ever picks a legal move, so the moves
            // skip `decide`'s checks; `policy_matches_decide` pins that both give the same match.
            let (side, decision) = match m.phase {
                Phase::AwaitSweep(s) => (s, Decision::NoSweep),
                Phase::AwaitStrike(s) => (s, Decision::High),
                Phase::AwaitAction(s) => (s, Decision::Attack),
                Phase::AwaitCounter { defender, .. } => (defender, m.best_counter(defender)),
                Phase::AwaitFightOn => {
                    let Some(side) = Side::BOTH
                        .into_iter()
                        .find(|s| m.f[s.index()].fight_on.is_none())
                    else {
                        return m.is_over();
                    };
                    let answer = if self.fight_on {
                        Decision::Swordplay
                    } else {
                        Decision::Decline
                    };
                    (side, answer)
                }
                Phase::Over => return true,
            };
            m.apply(side, decision, dice, events);
        }
        m.is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::SeededDice;
    use crate::psiknight::{KnightSheet, MatchKind, MatchSetup, Monarch, Opening, Style};

    /// The fast path of `play_out` and the checked path of `decide` make the same match.
    #[test]
    fn policy_matches_decide() {
        let a = KnightSheet::new(
            "A",
            Style::Sir,
            Monarch::Ragnar,
            [40, 40, 40, 30, 30, 30],
            [20, 20, 0, 0, 0, 0, 0],
        );
        let b = KnightSheet::new(
            "B",
            Style::Dame,
            Monarch::Seonaid,
            [30, 30, 30, 40, 40, 40],
            [0, 0, 40, 0, 0, 0, 0],
        );
        for kind in [MatchKind::Practice, MatchKind::Lists, MatchKind::Melee] {
            for fight_on in [false, true] {
                for seed in 0..200 {
                    let setup = MatchSetup {
                        kind,
                        opening: Opening::Joust,
                        knights: [a.clone(), b.clone()],
                        armed: [None, None],
                    };
                    let policy = Policy { fight_on };
                    let mut dice = SeededDice::from_u64(seed);
                    let (mut fast, mut fast_events) = Match::start(setup.clone(), &mut dice);
                    policy.play_out(&mut fast, &mut dice, &mut fast_events, 100_000);

                    let mut dice = SeededDice::from_u64(seed);
                    let (mut slow, mut slow_events) = Match::start(setup, &mut dice);
                    for _ in 0..100_000 {
                        let Some((side, d)) = Side::BOTH
                            .into_iter()
                            .find_map(|s| policy.decide(&slow, s).map(|d| (s, d)))
                        else {
                            break;
                        };
                        slow_events.extend(slow.decide(side, d, &mut dice).expect("legal"));
                    }
                    assert_eq!(fast.outcome(), slow.outcome());
                    assert_eq!(fast_events, slow_events);
                }
            }
        }
    }
}
