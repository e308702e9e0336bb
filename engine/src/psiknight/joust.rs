//! The Joust checklist, steps 1–10.

use super::decision::{BonusMode, Side};
use super::event::{
    EndReason, Event, EventSink, FirstPlayerRule, FirstStrikeRule, Height, Injury, ModKind,
    Modifier, Modifiers, RollSkill,
};
use super::fight::{Match, MatchKind, PassState, Phase, StrikeOrder};
use super::knight::Skill;
use super::psi::{Moment, PsiEffect};
use crate::dice::RollSource;

/// The injury of a fallen fighter, by the defense roll (Joust step 9, R12).
pub fn fall_injury(defense_roll: u32) -> Option<Injury> {
    match defense_roll {
        96 | 97 => Some(Injury::WeaponArm),
        98 | 99 => Some(Injury::ShieldArm),
        100.. => Some(Injury::Major),
        _ => None,
    }
}

/// A psi effect as a roll modifier, if anything fired.
pub(super) fn psi_modifier(effect: PsiEffect, kind: ModKind, mods: &mut Modifiers) {
    if effect != PsiEffect::None {
        mods.push(Modifier {
            kind,
            value: effect.modifier(),
        });
    }
}

impl Match {
    /// A new pass: steps 1–3, then the first sweep announcement is awaited.
    pub(super) fn start_pass(&mut self, dice: &mut impl RollSource, events: &mut impl EventSink) {
        let pass = self.joust.pass + 1;
        self.joust = PassState {
            pass,
            ..PassState::default()
        };
        for f in &mut self.f {
            f.pass_psi_used = false;
        }
        events.push(Event::PassStarted { pass });

        // Step 1: both roll Observe, challenger first (R40).
        let mut observe = [(0u32, false); 2];
        for side in Side::BOTH {
            let automatic = match self.psi_moment(side, Moment::Observe, dice, events) {
                PsiEffect::None => None,
                PsiEffect::Works => Some(true),
                PsiEffect::Reversed => Some(false),
            };
            let base = self.base(side, Skill::Observe);
            observe[side.index()] = self.roll_skill(
                side,
                RollSkill::Observe,
                base,
                Modifiers::new(),
                None,
                automatic,
                dice,
                events,
            );
        }
        match (observe[0], observe[1]) {
            // 1B: the low roller earns +10; the rolled number counts even when automatic (R18).
            ((r0, true), (r1, true)) if r0 < r1 => self.earn_bonus(Side::Challenger, 10, events),
            ((r0, true), (r1, true)) if r1 < r0 => self.earn_bonus(Side::Challenged, 10, events),
            // 1C
            ((_, true), (_, false)) => self.earn_bonus(Side::Challenger, 30, events),
            ((_, false), (_, true)) => self.earn_bonus(Side::Challenged, 30, events),
            // 1A, or a tie of 1B
            _ => {}
        }

        // Step 2: both roll Ride as they charge.
        let mut ride = [(0u32, false); 2];
        for side in Side::BOTH {
            let effect = self.psi_moment(side, Moment::Ride, dice, events);
            let mut mods = Modifiers::new();
            psi_modifier(effect, ModKind::Telepathy, &mut mods);
            let base = self.base(side, Skill::Ride);
            ride[side.index()] =
                self.roll_skill(side, RollSkill::Ride, base, mods, None, None, dice, events);
        }
        self.joust.ride_roll = [ride[0].0, ride[1].0];
        match (ride[0].1, ride[1].1) {
            (true, false) => self.earn_bonus(Side::Challenger, 15, events),
            (false, true) => self.earn_bonus(Side::Challenged, 15, events),
            _ => {}
        }

        // Step 3: netting (R7).
        let (b0, b1) = (self.f[0].bonus, self.f[1].bonus);
        if b0 > 0 && b1 > 0 {
            let cancelled = b0.min(b1);
            self.f[0].bonus -= cancelled;
            self.f[1].bonus -= cancelled;
            let keeper = Side::BOTH.into_iter().find(|s| self.f[s.index()].bonus > 0);
            for side in Side::BOTH {
                if self.f[side.index()].bonus == 0 {
                    self.f[side.index()].mode = BonusMode::Weaken;
                }
            }
            events.push(Event::BonusNetted {
                knight: keeper,
                remaining: keeper.map_or(0, |s| self.f[s.index()].bonus),
                cancelled,
            });
        }

        // Step 4: the higher Ride roll announces first; ties by Ride skill, then the challenger (R8).
        let [r0, r1] = self.joust.ride_roll;
        let first = if r0 != r1 {
            if r0 > r1 {
                Side::Challenger
            } else {
                Side::Challenged
            }
        } else if self.base(Side::Challenged, Skill::Ride)
            > self.base(Side::Challenger, Skill::Ride)
        {
            Side::Challenged
        } else {
            Side::Challenger
        };
        self.phase = Phase::AwaitSweep(first);
    }

    /// Steps 4–5: one announcement; after the second, step 6 decides first strike.
    pub(super) fn announce_sweep(
        &mut self,
        side: Side,
        sweep: bool,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        // Mesmerism fires as part of the announcement, before it takes effect (R22).
        let effect = self.psi_moment(side, Moment::Suggestion, dice, events);
        self.mesmerize(side, effect, events);
        self.joust.sweep[side.index()] = Some(sweep);
        events.push(Event::Sweep {
            knight: side,
            sweep,
        });
        if self.joust.sweep[side.other().index()].is_none() {
            self.phase = Phase::AwaitSweep(side.other());
            return;
        }
        let (order, rule) = self.first_strike();
        self.joust.order = Some(order);
        let first = match order {
            StrikeOrder::One { first } => first,
            StrikeOrder::Both => Side::Challenger,
        };
        events.push(Event::FirstStrike {
            knight: matches!(order, StrikeOrder::One { .. }).then_some(first),
            rule,
        });
        self.phase = Phase::AwaitStrike(first);
    }

    /// Step 6 (R9).
    fn first_strike(&self) -> (StrikeOrder, FirstStrikeRule) {
        let sweeps = self.joust.sweep.map(|s| s == Some(true));
        if sweeps[0] != sweeps[1] {
            // 6A: the other gets first strike.
            let first = if sweeps[0] {
                Side::Challenged
            } else {
                Side::Challenger
            };
            return (StrikeOrder::One { first }, FirstStrikeRule::Sweep);
        }
        let bonus = [self.f[0].bonus > 0, self.f[1].bonus > 0];
        if bonus[0] != bonus[1] {
            let first = if bonus[0] {
                Side::Challenger
            } else {
                Side::Challenged
            };
            return (StrikeOrder::One { first }, FirstStrikeRule::Bonus);
        }
        let best = |side| {
            self.base(side, Skill::Lance)
                .max(self.base(side, Skill::Ride))
        };
        let (c0, c1) = (best(Side::Challenger), best(Side::Challenged));
        if c0 > c1 {
            (
                StrikeOrder::One {
                    first: Side::Challenger,
                },
                FirstStrikeRule::Skill,
            )
        } else if c1 > c0 {
            (
                StrikeOrder::One {
                    first: Side::Challenged,
                },
                FirstStrikeRule::Skill,
            )
        } else {
            (StrikeOrder::Both, FirstStrikeRule::Both)
        }
    }

    /// Steps 7–8: one strike, its defense, the fall and its injury.
    pub(super) fn strike(
        &mut self,
        side: Side,
        height: Height,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        events.push(Event::Strike {
            knight: side,
            height,
        });
        let defender = side.other();

        // 7A: Lance, +25 if sweeping.
        let effect = self.psi_moment(side, Moment::Weapon, dice, events);
        let mut mods = Modifiers::new();
        if self.joust.sweep[side.index()] == Some(true) {
            mods.push(Modifier {
                kind: ModKind::Sweep,
                value: 25,
            });
        }
        psi_modifier(effect, ModKind::Apportation, &mut mods);
        self.bonus_modifier(side, BonusMode::Attack, &mut mods, events);
        let base = self.base(side, Skill::Lance);
        let (lance, hit) =
            self.roll_skill(side, RollSkill::Lance, base, mods, None, None, dice, events);

        if hit {
            // 7B: Shield against High, Ride against Low, limited by the Lance roll (7B3, R10).
            let (skill, roll_skill, moment, psi) = match height {
                Height::High => (
                    Skill::Shield,
                    RollSkill::Shield,
                    Moment::Weapon,
                    ModKind::Apportation,
                ),
                Height::Low => (
                    Skill::Ride,
                    RollSkill::Ride,
                    Moment::Ride,
                    ModKind::Telepathy,
                ),
            };
            let effect = self.psi_moment(defender, moment, dice, events);
            let mut mods = Modifiers::new();
            psi_modifier(effect, psi, &mut mods);
            // Weaken and defend apply before the cap (R5).
            self.bonus_modifier(defender, BonusMode::Defend, &mut mods, events);
            self.bonus_modifier(side, BonusMode::Weaken, &mut mods, events);
            let base = self.base(defender, skill);
            let (roll, held) = self.roll_skill(
                defender,
                roll_skill,
                base,
                mods,
                Some(lance),
                None,
                dice,
                events,
            );
            if !held {
                // 7C: unhorsed; step 9: the fall's injury.
                self.f[defender.index()].unhorsed = true;
                events.push(Event::Unhorsed { knight: defender });
                if let Some(injury) = fall_injury(roll) {
                    self.suffer(defender, injury, dice, events);
                }
            }
        }

        match self.joust.order {
            Some(StrikeOrder::One { first })
                if first == side && !self.f[defender.index()].unhorsed =>
            {
                self.phase = Phase::AwaitStrike(defender);
            }
            // 6D: both strike, whatever the first strike did.
            Some(StrikeOrder::Both) if side == Side::Challenger => {
                self.phase = Phase::AwaitStrike(Side::Challenged);
            }
            _ => self.end_pass(dice, events),
        }
    }

    /// Mesmerism's effect on the opponent's Bonus: cancelled, or doubled if reversed (R23).
    pub(super) fn mesmerize(&mut self, side: Side, effect: PsiEffect, events: &mut impl EventSink) {
        let opp = side.other();
        match effect {
            PsiEffect::None => {}
            PsiEffect::Works => {
                let amount = self.clear_bonus(opp);
                events.push(Event::BonusCancelled {
                    knight: opp,
                    amount,
                    by: side,
                });
            }
            PsiEffect::Reversed => {
                let f = &mut self.f[opp.index()];
                f.bonus *= 2;
                events.push(Event::BonusDoubled {
                    knight: opp,
                    total: f.bonus,
                });
            }
        }
    }

    /// Step 9: the pass ends; its Bonus with it (R6).
    fn end_pass(&mut self, dice: &mut impl RollSource, events: &mut impl EventSink) {
        for side in Side::BOTH {
            let amount = self.clear_bonus(side);
            if amount > 0 {
                events.push(Event::BonusExpired {
                    knight: side,
                    amount,
                });
            }
        }
        let anyone_down = self.f.iter().any(|f| f.unhorsed);
        if anyone_down || self.joust.pass >= self.kind().passes() {
            self.end_joust(dice, events);
        } else {
            self.start_pass(dice, events);
        }
    }

    /// The winner by the Joust alone: the one still mounted when the other fell (R27).
    fn joust_result(&self) -> (Option<Side>, EndReason) {
        match [self.f[0].unhorsed, self.f[1].unhorsed] {
            [true, false] => (Some(Side::Challenged), EndReason::Unhorsed),
            [false, true] => (Some(Side::Challenger), EndReason::Unhorsed),
            [true, true] => (None, EndReason::BothUnhorsed),
            [false, false] => (None, EndReason::NoUnhorsing),
        }
    }

    /// Step 10: what follows the Joust, by kind of match.
    fn end_joust(&mut self, dice: &mut impl RollSource, events: &mut impl EventSink) {
        let unhorsed = [self.f[0].unhorsed, self.f[1].unhorsed];
        let major = [self.f[0].injuries.major, self.f[1].injuries.major];
        match self.kind() {
            MatchKind::Melee => {
                let (winner, _) = self.joust_result();
                self.finish(winner, EndReason::PassOver, events);
            }
            MatchKind::Lists => match unhorsed {
                [true, true] => match major {
                    // R120: whoever can go on wins; if neither can, no one does.
                    [true, true] => self.finish(None, EndReason::MajorInjury, events),
                    [true, false] => {
                        self.finish(Some(Side::Challenged), EndReason::MajorInjury, events)
                    }
                    [false, true] => {
                        self.finish(Some(Side::Challenger), EndReason::MajorInjury, events)
                    }
                    // R13, R35: Swordplay follows a double fall.
                    [false, false] => self.swordplay_by_roll_off(dice, events),
                },
                [false, false] => self.swordplay_by_roll_off(dice, events),
                _ => {
                    let (winner, reason) = self.joust_result();
                    self.finish(winner, reason, events);
                }
            },
            MatchKind::Practice => {
                if major[0] || major[1] {
                    // R12: an uncancelled major injury ends the match with the Joust's result.
                    let (winner, _) = self.joust_result();
                    self.finish(winner, EndReason::MajorInjury, events);
                } else {
                    // R41: both are asked at once.
                    self.phase = Phase::AwaitFightOn;
                }
            }
        }
    }

    /// R41: one answer to "go on to Swordplay?".
    pub(super) fn answer_fight_on(
        &mut self,
        side: Side,
        agreed: bool,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        self.f[side.index()].fight_on = Some(agreed);
        events.push(Event::FightOn {
            knight: side,
            agreed,
        });
        if !agreed {
            let (winner, reason) = self.joust_result();
            self.finish(winner, reason, events);
            return;
        }
        if self.f.iter().all(|f| f.fight_on == Some(true)) {
            match [self.f[0].unhorsed, self.f[1].unhorsed] {
                // Swordplay 1A: the one just unhorsed goes first.
                [true, false] => {
                    self.start_swordplay(Side::Challenger, FirstPlayerRule::Unhorsed, events)
                }
                [false, true] => {
                    self.start_swordplay(Side::Challenged, FirstPlayerRule::Unhorsed, events)
                }
                // 1C, and R13 for a double fall.
                _ => self.swordplay_by_roll_off(dice, events),
            }
        }
    }
}
