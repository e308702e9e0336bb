//! The Swordplay checklist, steps 1–3, with the damage table.

use super::decision::{BonusMode, Decision, Side};
use super::event::{
    Action, Counter, DamageResult, EndReason, Event, EventSink, FirstPlayerRule, Injury, ModKind,
    Modifier, Modifiers, RollSkill,
};
use super::fight::{Match, Phase};
use super::joust::psi_modifier;
use super::knight::Skill;
use super::psi::{Moment, PsiEffect};
use crate::dice::RollSource;

/// Luck is 10% (Swordplay 2B).
pub const LUCK: i32 = 10;

/// A roll-off that keeps tying this often is settled for the challenger, so that no source of
/// dice can keep a match from going on (R121).
const MAX_ROLL_OFF_TIES: u32 = 100;

impl Match {
    /// Swordplay 1C: d100 each, challenger first, low goes first, ties roll again (R14).
    pub(super) fn swordplay_by_roll_off(
        &mut self,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        let mut first = Side::Challenger;
        for _ in 0..MAX_ROLL_OFF_TIES {
            let r0 = dice.d100();
            events.push(Event::RollOff {
                knight: Side::Challenger,
                roll: r0,
            });
            let r1 = dice.d100();
            events.push(Event::RollOff {
                knight: Side::Challenged,
                roll: r1,
            });
            if r0 != r1 {
                first = if r0 < r1 {
                    Side::Challenger
                } else {
                    Side::Challenged
                };
                break;
            }
        }
        self.start_swordplay(first, FirstPlayerRule::RollOff, events);
    }

    /// Swordplay begins: fresh psi attempts (R20), no Bonus carried from the Joust (R6).
    pub(super) fn start_swordplay(
        &mut self,
        first: Side,
        rule: FirstPlayerRule,
        events: &mut impl EventSink,
    ) {
        self.in_swordplay = true;
        self.swordplay_fought = true;
        for side in Side::BOTH {
            self.clear_bonus(side);
            let f = &mut self.f[side.index()];
            f.sword_psi_used = 0;
            f.last_action = None;
        }
        events.push(Event::SwordplayStarted { first, rule });
        self.phase = Phase::AwaitAction(first);
    }

    /// Sword as it stands: halved by a weapon-arm injury first (R2), as a modifier so the
    /// narration shows it.
    #[inline]
    fn sword(&self, side: Side, mods: &mut Modifiers) -> i32 {
        let base = self.base(side, Skill::Sword);
        if self.f[side.index()].injuries.weapon_arm {
            mods.push(Modifier {
                kind: ModKind::WeaponArm,
                value: base / 2 - base,
            });
        }
        base
    }

    /// Step 2A: the action and its roll.
    pub(super) fn act(
        &mut self,
        side: Side,
        action: Action,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        events.push(Event::Action {
            knight: side,
            action,
        });
        self.f[side.index()].last_action = Some(action);
        let defender = side.other();

        // Mesmerism: just before the action roll, while the opponent holds a Bonus (R22).
        let effect = self.psi_moment(side, Moment::Suggestion, dice, events);
        self.mesmerize(side, effect, events);

        let (roll, success) = match action {
            Action::Observe => {
                let automatic = match self.psi_moment(side, Moment::Observe, dice, events) {
                    PsiEffect::None => None,
                    PsiEffect::Works => Some(true),
                    PsiEffect::Reversed => Some(false),
                };
                let base = self.base(side, Skill::Observe);
                // An Observe action is not an attack: no Bonus applies (R5).
                self.roll_skill(
                    side,
                    RollSkill::Observe,
                    base,
                    Modifiers::new(),
                    None,
                    automatic,
                    dice,
                    events,
                )
            }
            Action::Attack | Action::Press => {
                let effect = self.psi_moment(side, Moment::Weapon, dice, events);
                let mut mods = Modifiers::new();
                let base = self.sword(side, &mut mods);
                if action == Action::Press {
                    mods.push(Modifier {
                        kind: ModKind::Press,
                        value: 25,
                    });
                }
                psi_modifier(effect, ModKind::Apportation, &mut mods);
                self.bonus_modifier(side, BonusMode::Attack, &mut mods, events);
                self.roll_skill(side, RollSkill::Sword, base, mods, None, None, dice, events)
            }
        };
        if !success {
            // The turn is over; skip to step 3.
            self.phase = Phase::AwaitAction(defender);
            return;
        }
        if self.f[defender.index()].last_action == Some(Action::Press) {
            // R15: after your own Press, Luck in place of a counter; no psi moment precedes it (R22).
            self.counter(defender, Counter::Luck, action, roll, dice, events);
        } else {
            self.phase = Phase::AwaitCounter {
                defender,
                action,
                action_roll: roll,
            };
        }
    }

    /// Steps 2B–2D: the counter and its results.
    pub(super) fn counter(
        &mut self,
        side: Side,
        counter: Counter,
        action: Action,
        action_roll: u32,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        events.push(Event::Counter {
            knight: side,
            counter,
        });
        let attacker = side.other();
        let mut mods = Modifiers::new();
        let (skill, base) = match counter {
            Counter::Block => {
                let effect = self.psi_moment(side, Moment::Weapon, dice, events);
                psi_modifier(effect, ModKind::Apportation, &mut mods);
                (RollSkill::Shield, self.base(side, Skill::Shield))
            }
            Counter::Dodge => {
                let effect = self.psi_moment(side, Moment::Dodge, dice, events);
                psi_modifier(effect, ModKind::Hypercognition, &mut mods);
                (RollSkill::Dodge, self.base(side, Skill::Dodge))
            }
            Counter::Parry => {
                let effect = self.psi_moment(side, Moment::Weapon, dice, events);
                let base = self.sword(side, &mut mods);
                mods.push(Modifier {
                    kind: ModKind::Parry,
                    value: -20,
                });
                psi_modifier(effect, ModKind::Apportation, &mut mods);
                (RollSkill::Sword, base)
            }
            Counter::Luck => (RollSkill::Luck, LUCK),
        };
        if action != Action::Observe {
            // R5: the defender's defend Bonus, then the attacker's weaken Bonus.
            self.bonus_modifier(side, BonusMode::Defend, &mut mods, events);
            self.bonus_modifier(attacker, BonusMode::Weaken, &mut mods, events);
        }
        let (roll, success) = self.roll_skill(side, skill, base, mods, None, None, dice, events);
        match action {
            // 2C (R18).
            Action::Observe => {
                if !success {
                    self.earn_bonus(attacker, 30, events);
                } else if roll > action_roll {
                    self.earn_bonus(attacker, 10, events);
                }
            }
            // 2D.
            Action::Attack | Action::Press => {
                if !success {
                    self.damage(attacker, side, dice, events);
                }
            }
        }
        if !self.is_over() {
            // Step 3: the other player's turn.
            self.phase = Phase::AwaitAction(side);
        }
    }

    /// 2D: the damage table, and R17.
    fn damage(
        &mut self,
        attacker: Side,
        defender: Side,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        let roll = dice.d100();
        let result = DamageResult::from_roll(roll);
        events.push(Event::Damage {
            knight: defender,
            attacker,
            roll,
            result,
        });
        let injuries = self.f[defender.index()].injuries;
        let injury = match result {
            DamageResult::Kill => {
                return self.finish(Some(attacker), EndReason::Kill, events);
            }
            DamageResult::WeaponArm | DamageResult::ShieldArm if injuries.arm() => {
                // A second arm hit of any kind counts as a Kill; CPK cannot cancel it (R17).
                return self.finish(Some(attacker), EndReason::SecondArmHit, events);
            }
            DamageResult::WeaponArm => Injury::WeaponArm,
            DamageResult::ShieldArm => Injury::ShieldArm,
            // A second LEGS has no further effect (R17).
            DamageResult::Legs if injuries.legs => return,
            DamageResult::Legs => Injury::Legs,
            DamageResult::Armor => return,
        };
        self.suffer(defender, injury, dice, events);
    }

    /// The injury that bars a counter, if any (R16).
    #[inline]
    pub(super) fn counter_barred(&self, side: Side, counter: Decision) -> Option<Injury> {
        let i = &self.f[side.index()].injuries;
        match counter {
            Decision::Block if i.weapon_arm => Some(Injury::WeaponArm),
            Decision::Block if i.shield_arm => Some(Injury::ShieldArm),
            Decision::Dodge if i.legs => Some(Injury::Legs),
            _ => None,
        }
    }

    /// R42: the legal counter with the highest effective target; ties go Block, Dodge, Parry.
    #[inline]
    pub(super) fn best_counter(&self, side: Side) -> Decision {
        let sword = {
            let base = self.base(side, Skill::Sword);
            if self.f[side.index()].injuries.weapon_arm {
                base / 2
            } else {
                base
            }
        };
        let candidates = [
            (Decision::Block, self.base(side, Skill::Shield)),
            (Decision::Dodge, self.base(side, Skill::Dodge)),
            (Decision::Parry, sword - 20),
        ];
        let mut best: Option<(Decision, i32)> = None;
        for (d, target) in candidates {
            if self.counter_barred(side, d).is_some() {
                continue;
            }
            if best.is_none_or(|(_, t)| target > t) {
                best = Some((d, target));
            }
        }
        best.map_or(Decision::Parry, |(d, _)| d)
    }
}
