//! PsiKnight's [`Match`] on the contract every game keeps ([`crate::game::Fight`]).

use super::event::EndReason;
use super::{Decision, Event, Match, MatchSetup, RuleError, Side};
use crate::dice::RollSource;
use crate::game::{Fight, FightResult, Prompt};

impl EndReason {
    /// The snake_case name the events give this reason.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Unhorsed => "unhorsed",
            EndReason::BothUnhorsed => "both_unhorsed",
            EndReason::NoUnhorsing => "no_unhorsing",
            EndReason::MajorInjury => "major_injury",
            EndReason::Kill => "kill",
            EndReason::SecondArmHit => "second_arm_hit",
            EndReason::Yield => "yield",
            EndReason::PassOver => "pass_over",
        }
    }
}

impl Fight for Match {
    type Setup = MatchSetup;
    type Decision = Decision;
    type Event = Event;
    type Error = RuleError;

    fn start(setup: MatchSetup, dice: &mut impl RollSource) -> (Match, Vec<Event>) {
        Match::start(setup, dice)
    }

    fn setup(&self) -> &MatchSetup {
        Match::setup(self)
    }

    fn pending(&self) -> Vec<Prompt<Decision>> {
        Match::pending(self)
            .into_iter()
            .map(|p| Prompt {
                side: p.side,
                what: p.kind.describe(),
                options: p.options,
                default: p.default,
            })
            .collect()
    }

    fn decide(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Event>, RuleError> {
        Match::decide(self, side, decision, dice)
    }

    fn result(&self) -> Option<FightResult> {
        self.outcome().map(|o| FightResult {
            winner: o.winner,
            reason: o.reason.name(),
        })
    }

    fn is_declaration(decision: &Decision) -> bool {
        matches!(decision, Decision::Bonus(_) | Decision::Psi(_))
    }
}
