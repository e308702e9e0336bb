//! Psi: arming, moments, limits and reactions (R20–R24).
//!
//! A fighter arms one psi skill ahead of time ([`super::Decision::Psi`]). The checklist modules
//! call [`Match::psi_moment`] at each moment a psi skill may fire; if the armed skill fits that
//! moment and the fighter has an attempt left, it fires and is used up, succeed or fail (R21). A
//! success gives the opponent's armed Catapsi or Negapsi its chance to answer (R23, R24).

use super::decision::Side;
use super::event::{Event, EventSink};
use super::fight::Match;
use super::knight::PsiSkill;
use crate::dice::RollSource;

/// A moment at which a psi skill may fire (R22).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Moment {
    /// Before your own Observe roll (Joust step 1, the Swordplay Observe action): Hypercognition.
    Observe,
    /// Before your own Dodge roll: Hypercognition.
    Dodge,
    /// Before your own Ride roll in a Joust (step 2, defense against Low): Telepathy.
    Ride,
    /// Before your own Lance, Sword or Shield roll: Apportation.
    Weapon,
    /// At your sweep announcement, or before your Swordplay action roll, while the opponent
    /// holds a Bonus: Mesmerism.
    Suggestion,
    /// Just after you suffer an injury: CPK.
    Injury,
}

/// What a psi moment came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PsiEffect {
    /// Nothing fired, or it failed, or Catapsi cancelled it.
    None,
    /// The effect works as written.
    Works,
    /// Negapsi reversed it (R23).
    Reversed,
}

impl PsiEffect {
    /// The ±25 of Apportation, Hypercognition (Dodge) and Telepathy.
    pub fn modifier(self) -> i32 {
        match self {
            PsiEffect::None => 0,
            PsiEffect::Works => 25,
            PsiEffect::Reversed => -25,
        }
    }
}

impl Moment {
    #[inline]
    fn fits(self, skill: PsiSkill) -> bool {
        matches!(
            (skill, self),
            (PsiSkill::Hypercognition, Moment::Observe | Moment::Dodge)
                | (PsiSkill::Telepathy, Moment::Ride)
                | (PsiSkill::Apportation, Moment::Weapon)
                | (PsiSkill::Mesmerism, Moment::Suggestion)
                | (PsiSkill::Cpk, Moment::Injury)
        )
    }
}

impl Match {
    /// A psi moment for `side`: fires the armed skill if it fits and an attempt is left.
    #[inline]
    pub(super) fn psi_moment(
        &mut self,
        side: Side,
        moment: Moment,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> PsiEffect {
        // Most moments pass with nothing armed that fits: decide that without a call.
        match self.f[side.index()].armed {
            Some(skill) if moment.fits(skill) => self.fire_psi(side, skill, moment, dice, events),
            _ => PsiEffect::None,
        }
    }

    fn fire_psi(
        &mut self,
        side: Side,
        skill: PsiSkill,
        moment: Moment,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> PsiEffect {
        // Mesmerism only while the opponent holds a Bonus (R22).
        if moment == Moment::Suggestion && self.f[side.other().index()].bonus == 0 {
            return PsiEffect::None;
        }
        // CPK against a Joust injury never counts against a limit (R12).
        let exempt = moment == Moment::Injury && !self.in_swordplay;
        if !exempt && !self.has_psi_attempt(side) {
            // It stays armed for a later moment (R21).
            return PsiEffect::None;
        }
        self.f[side.index()].armed = None;
        if !exempt {
            self.use_psi_attempt(side);
        }
        let (roll, success) = self.psi_roll(side, skill, None, dice, events);
        if !success {
            return PsiEffect::None;
        }
        self.psi_reaction(side, skill, roll, dice, events)
    }

    /// The opponent's armed Catapsi or Negapsi, fired just after `side`'s successful psi roll.
    fn psi_reaction(
        &mut self,
        side: Side,
        skill: PsiSkill,
        roll: u32,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> PsiEffect {
        let opp = side.other();
        let Some(reaction) = self.f[opp.index()].armed.filter(|s| s.is_reaction()) else {
            return PsiEffect::Works;
        };
        if !self.has_psi_attempt(opp) {
            return PsiEffect::Works;
        }
        self.f[opp.index()].armed = None;
        self.use_psi_attempt(opp);
        // Negapsi must also roll lower than the roll it reverses (R23). No chains (R24).
        let below = (reaction == PsiSkill::Negapsi).then_some(roll);
        let (_, success) = self.psi_roll(opp, reaction, below, dice, events);
        if !success {
            return PsiEffect::Works;
        }
        if reaction == PsiSkill::Catapsi {
            events.push(Event::PsiCancelled {
                knight: side,
                skill,
                by: opp,
            });
            PsiEffect::None
        } else {
            events.push(Event::PsiReversed {
                knight: side,
                skill,
                by: opp,
            });
            PsiEffect::Reversed
        }
    }

    /// Rolls d100 against a psi skill (R1); with `below`, the roll must also be lower (R23).
    fn psi_roll(
        &mut self,
        side: Side,
        skill: PsiSkill,
        below: Option<u32>,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> (u32, bool) {
        let target = i32::from(self.knight(side).psi(skill));
        let roll = dice.d100();
        let success = roll as i32 <= target && below.is_none_or(|b| roll < b);
        events.push(Event::Psi {
            knight: side,
            skill,
            roll,
            target,
            success,
        });
        (roll, success)
    }

    fn has_psi_attempt(&self, side: Side) -> bool {
        let f = &self.f[side.index()];
        if self.in_swordplay {
            f.sword_psi_used < 2
        } else {
            !f.pass_psi_used
        }
    }

    fn use_psi_attempt(&mut self, side: Side) {
        let f = &mut self.f[side.index()];
        if self.in_swordplay {
            f.sword_psi_used += 1;
        } else {
            f.pass_psi_used = true;
        }
    }
}
