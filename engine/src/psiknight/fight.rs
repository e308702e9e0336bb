//! A match: the Joust, then Swordplay where it follows, as one state machine.
//!
//! A [`Match`] is a value. It is started from a [`MatchSetup`] (both knights' sheets, the kind of
//! match, any psi armed before the first die) and then driven only by [`Match::decide`]. Between
//! decisions it rolls every die the checklists call for, in checklist order (R40), and stops at the
//! next decision a fighter must make, which [`Match::pending`] describes. Nothing else changes it,
//! so a match is fully determined by its setup, its dice and its decision log.
//!
//! The steps live beside this file: `joust.rs` (Joust checklist), `swordplay.rs` (Swordplay
//! checklist), `psi.rs` (arming, moments, limits, reactions).

use super::decision::{BonusMode, Decision, Side};
use super::event::{Action, Counter, EndReason, Event, EventSink, Height, Injury, Outcome};
use super::knight::{KnightSheet, PsiSkill, Skill};
use crate::dice::RollSource;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What kind of fight a match is; it decides what follows the Joust (Joust step 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// A practice fight: up to three passes, then Swordplay if both agree (R41).
    Practice,
    /// A Lists match: up to three passes; an unhorsing ends it; otherwise Swordplay (R35).
    Lists,
    /// One pass of a tournament melee (R37).
    Melee,
}

impl MatchKind {
    /// The most Joust passes this kind of match rides.
    pub fn passes(self) -> u8 {
        match self {
            MatchKind::Practice | MatchKind::Lists => 3,
            MatchKind::Melee => 1,
        }
    }
}

/// How a match opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opening {
    /// With the Joust (the usual).
    #[default]
    Joust,
    /// Straight to Swordplay: the challenged fighter goes first (Swordplay 1B).
    Swordplay,
}

/// Everything a match starts from. Stored with the fight, it and the decision log replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSetup {
    /// Practice, Lists or Melee.
    pub kind: MatchKind,
    /// Joust first, or Swordplay only.
    #[serde(default)]
    pub opening: Opening,
    /// The challenger's (or first-listed) and the challenged's sheets, as they were at the start.
    pub knights: [KnightSheet; 2],
    /// Psi skills armed before the first die (R21).
    #[serde(default)]
    pub armed: [Option<PsiSkill>; 2],
}

/// The kind of decision a prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptKind {
    /// Joust steps 4–5: sweep or not.
    Sweep,
    /// Joust step 7: High or Low.
    Strike,
    /// After a practice Joust: Swordplay or decline (R41).
    FightOn,
    /// Swordplay 2A: Attack, Observe or Press.
    Action,
    /// Swordplay 2B: Block, Dodge or Parry.
    Counter,
}

impl PromptKind {
    /// What the awaited fighter is doing, for messages: "to announce a sweep".
    pub fn describe(self) -> &'static str {
        match self {
            PromptKind::Sweep => "to announce a sweep or not",
            PromptKind::Strike => "to strike High or Low",
            PromptKind::FightOn => "to say whether to go on to Swordplay",
            PromptKind::Action => "to choose an action",
            PromptKind::Counter => "to choose a counter",
        }
    }
}

/// A decision the match is waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Who must decide.
    pub side: Side,
    /// What kind of decision.
    pub kind: PromptKind,
    /// The legal choices, [`Decision::Yield`] last.
    pub options: Vec<Decision>,
    /// What a timeout decides (R11, R41, R42, and the default policy).
    pub default: Decision,
}

/// Why a decision was refused. A refused decision leaves the match unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The match has ended.
    #[error("the match is over")]
    MatchOver,
    /// Another fighter's decision is awaited.
    #[error("it is not your turn: the match awaits the {awaited:?} {}", .kind.describe())]
    NotYourTurn {
        /// Who is awaited.
        awaited: Side,
        /// For what.
        kind: PromptKind,
    },
    /// This fighter already answered the current question.
    #[error("you have already answered; waiting for your opponent")]
    AlreadyAnswered,
    /// Not one of the options of the current prompt.
    #[error("'{decision}' is not a choice now: {} ({})", .kind.describe(), options_list(.options))]
    NotAnOption {
        /// What was tried.
        decision: Decision,
        /// What is asked.
        kind: PromptKind,
        /// The legal choices.
        options: Vec<Decision>,
    },
    /// A counter barred by an injury (R16).
    #[error("you cannot {} with a {} injury (R16)", .counter.word(), injury_name(*.injury))]
    CounterBarred {
        /// The barred counter.
        counter: Decision,
        /// The injury that bars it.
        injury: Injury,
    },
    /// A Bonus mode was chosen with no Bonus pending (R5).
    #[error("you hold no Bonus to use (R5)")]
    NoBonus,
    /// A psi skill the knight does not have (R21).
    #[error("your knight has no {0} (R21)")]
    PsiNotLearned(PsiSkill),
    /// Both Swordplay psi attempts are spent: an armed skill could never fire (R20, R21).
    #[error("both your Swordplay psi attempts are spent, so {0} could not fire again in this match (R20); /psi none disarms")]
    PsiSpent(PsiSkill),
}

fn options_list(options: &[Decision]) -> String {
    options
        .iter()
        .map(|d| d.word())
        .collect::<Vec<_>>()
        .join(", ")
}

fn injury_name(injury: Injury) -> &'static str {
    match injury {
        Injury::WeaponArm => "weapon-arm",
        Injury::ShieldArm => "shield-arm",
        Injury::Legs => "legs",
        Injury::Major => "major",
    }
}

/// The lasting injuries of one fighter in this match (healed when it ends, R12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Injuries {
    pub weapon_arm: bool,
    pub shield_arm: bool,
    pub legs: bool,
    pub major: bool,
}

impl Injuries {
    pub fn has(&self, injury: Injury) -> bool {
        match injury {
            Injury::WeaponArm => self.weapon_arm,
            Injury::ShieldArm => self.shield_arm,
            Injury::Legs => self.legs,
            Injury::Major => self.major,
        }
    }

    pub fn set(&mut self, injury: Injury, value: bool) {
        match injury {
            Injury::WeaponArm => self.weapon_arm = value,
            Injury::ShieldArm => self.shield_arm = value,
            Injury::Legs => self.legs = value,
            Injury::Major => self.major = value,
        }
    }

    pub fn arm(&self) -> bool {
        self.weapon_arm || self.shield_arm
    }
}

/// Per-fighter state.
#[derive(Clone, Debug, Default)]
pub(super) struct Fighter {
    pub armed: Option<PsiSkill>,
    pub bonus: u32,
    pub mode: BonusMode,
    pub injuries: Injuries,
    pub unhorsed: bool,
    /// Joust: whether this pass's one psi attempt is spent (R20).
    pub pass_psi_used: bool,
    /// Swordplay: psi attempts spent this match (R20).
    pub sword_psi_used: u8,
    /// Swordplay: the action of this fighter's own last turn (R15).
    pub last_action: Option<Action>,
    /// After a practice Joust: the answer to "go on?" (R41).
    pub fight_on: Option<bool>,
}

/// Which of the fighters strike in this pass, and in what order (Joust step 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StrikeOrder {
    /// The first strikes; the second strikes only if still mounted.
    One { first: Side },
    /// 6D: both strike, challenger first, both unhorsings stand.
    Both,
}

/// Where the match stands: named for what it awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Joust steps 4–5.
    AwaitSweep(Side),
    /// Joust step 7 (or 8): the striker's High or Low.
    AwaitStrike(Side),
    /// After a practice Joust (R41).
    AwaitFightOn,
    /// Swordplay 2A: the player's action.
    AwaitAction(Side),
    /// Swordplay 2B: the defender's counter to a successful action.
    AwaitCounter {
        defender: Side,
        action: Action,
        action_roll: u32,
    },
    /// The match has ended.
    Over,
}

/// The Joust's per-pass state.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PassState {
    pub pass: u8,
    pub ride_roll: [u32; 2],
    pub sweep: [Option<bool>; 2],
    pub order: Option<StrikeOrder>,
}

/// One PsiKnight match between two knights. See the module docs.
#[derive(Clone, Debug)]
pub struct Match {
    pub(super) setup: MatchSetup,
    pub(super) f: [Fighter; 2],
    pub(super) phase: Phase,
    pub(super) joust: PassState,
    pub(super) in_swordplay: bool,
    pub(super) swordplay_fought: bool,
    pub(super) outcome: Option<Outcome>,
}

impl Match {
    /// Starts a match: rolls everything up to the first decision and returns the match with the
    /// events so far.
    pub fn start(setup: MatchSetup, dice: &mut impl RollSource) -> (Match, Vec<Event>) {
        let mut events = Vec::new();
        let m = Self::start_into(setup, dice, &mut events);
        (m, events)
    }

    /// As [`Match::start`], appending the events to `events`.
    pub fn start_into(
        setup: MatchSetup,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> Match {
        let mut f: [Fighter; 2] = Default::default();
        for side in Side::BOTH {
            // Only a learned skill can be armed (R21); a setup that says otherwise arms nothing.
            f[side.index()].armed =
                setup.armed[side.index()].filter(|&s| setup.knights[side.index()].psi(s) > 0);
        }
        let mut m = Match {
            setup,
            f,
            phase: Phase::Over,
            joust: PassState::default(),
            in_swordplay: false,
            swordplay_fought: false,
            outcome: None,
        };
        match m.setup.opening {
            Opening::Joust => m.start_pass(dice, events),
            Opening::Swordplay => m.start_swordplay(
                Side::Challenged,
                super::event::FirstPlayerRule::Challenged,
                events,
            ),
        }
        m
    }

    // ----- getters -----

    /// The setup this match started from.
    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    /// The kind of match.
    pub fn kind(&self) -> MatchKind {
        self.setup.kind
    }

    /// A fighter's sheet as it was when the match started.
    pub fn knight(&self, side: Side) -> &KnightSheet {
        &self.setup.knights[side.index()]
    }

    /// The outcome, once the match has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the match has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The current Joust pass (1–3), or 0 before the first.
    pub fn pass(&self) -> u8 {
        self.joust.pass
    }

    /// Whether the match has moved on to Swordplay.
    pub fn in_swordplay(&self) -> bool {
        self.in_swordplay
    }

    /// A fighter's pending Bonus and its mode (R4, R5).
    pub fn bonus(&self, side: Side) -> (u32, BonusMode) {
        let f = &self.f[side.index()];
        (f.bonus, f.mode)
    }

    /// A fighter's armed psi skill (R21).
    pub fn armed(&self, side: Side) -> Option<PsiSkill> {
        self.f[side.index()].armed
    }

    /// Psi attempts a fighter has left now: in this Joust pass (0 or 1), or in Swordplay (0–2).
    pub fn psi_attempts_left(&self, side: Side) -> u8 {
        let f = &self.f[side.index()];
        if self.in_swordplay {
            2u8.saturating_sub(f.sword_psi_used)
        } else {
            u8::from(!f.pass_psi_used)
        }
    }

    /// A fighter's lasting injuries in this match.
    pub fn injuries(&self, side: Side) -> Vec<Injury> {
        let i = &self.f[side.index()].injuries;
        [
            Injury::WeaponArm,
            Injury::ShieldArm,
            Injury::Legs,
            Injury::Major,
        ]
        .into_iter()
        .filter(|&k| i.has(k))
        .collect()
    }

    /// What kind of decision each fighter owes now (challenger first), without allocating.
    #[inline]
    pub fn awaiting(&self) -> [Option<PromptKind>; 2] {
        let mut out = [None, None];
        match self.phase {
            Phase::AwaitSweep(s) => out[s.index()] = Some(PromptKind::Sweep),
            Phase::AwaitStrike(s) => out[s.index()] = Some(PromptKind::Strike),
            Phase::AwaitAction(s) => out[s.index()] = Some(PromptKind::Action),
            Phase::AwaitCounter { defender, .. } => {
                out[defender.index()] = Some(PromptKind::Counter)
            }
            Phase::AwaitFightOn => {
                for side in Side::BOTH {
                    if self.f[side.index()].fight_on.is_none() {
                        out[side.index()] = Some(PromptKind::FightOn);
                    }
                }
            }
            Phase::Over => {}
        }
        out
    }

    /// The decisions the match awaits now, with their options and timeout defaults. Empty once
    /// the match is over; two prompts when both fighters are asked at once (R41).
    pub fn pending(&self) -> Vec<Prompt> {
        let awaiting = self.awaiting();
        Side::BOTH
            .into_iter()
            .filter_map(|side| {
                awaiting[side.index()].map(|kind| Prompt {
                    side,
                    kind,
                    options: self.options(side, kind),
                    default: self.default_for(side, kind),
                })
            })
            .collect()
    }

    /// The decision a timeout (or the default policy) takes for `side` now, if it is awaited.
    #[inline]
    pub fn default_decision(&self, side: Side) -> Option<Decision> {
        self.awaiting()[side.index()].map(|kind| self.default_for(side, kind))
    }

    fn options(&self, side: Side, kind: PromptKind) -> Vec<Decision> {
        let mut options = match kind {
            PromptKind::Sweep => vec![Decision::Sweep, Decision::NoSweep],
            PromptKind::Strike => vec![Decision::High, Decision::Low],
            PromptKind::FightOn => vec![Decision::Swordplay, Decision::Decline],
            PromptKind::Action => vec![Decision::Attack, Decision::Observe, Decision::Press],
            PromptKind::Counter => [Decision::Block, Decision::Dodge, Decision::Parry]
                .into_iter()
                .filter(|&d| self.counter_barred(side, d).is_none())
                .collect(),
        };
        options.push(Decision::Yield);
        options
    }

    /// Whether `decision` answers a prompt of `kind` (without building the option list).
    #[inline]
    fn is_option(&self, side: Side, kind: PromptKind, decision: Decision) -> bool {
        use Decision::*;
        match kind {
            PromptKind::Sweep => matches!(decision, Sweep | NoSweep),
            PromptKind::Strike => matches!(decision, High | Low),
            PromptKind::FightOn => matches!(decision, Swordplay | Decline),
            PromptKind::Action => matches!(decision, Attack | Observe | Press),
            PromptKind::Counter => {
                matches!(decision, Block | Dodge | Parry)
                    && self.counter_barred(side, decision).is_none()
            }
        }
    }

    #[inline]
    fn default_for(&self, side: Side, kind: PromptKind) -> Decision {
        match kind {
            PromptKind::Sweep => Decision::NoSweep,
            PromptKind::Strike => Decision::High,
            PromptKind::FightOn => Decision::Decline,
            PromptKind::Action => Decision::Attack,
            PromptKind::Counter => self.best_counter(side),
        }
    }

    // ----- the one input -----

    /// Takes a fighter's decision and runs the checklist on to the next decision, returning what
    /// happened. A refused decision returns a [`RuleError`] and changes nothing.
    pub fn decide(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.decide_into(side, decision, dice, &mut events)?;
        Ok(events)
    }

    /// As [`Match::decide`], appending the events to `events` (nothing is appended on error).
    pub fn decide_into(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::MatchOver);
        }
        let me = side.index();
        match decision {
            Decision::Bonus(mode) => {
                if self.f[me].bonus == 0 {
                    return Err(RuleError::NoBonus);
                }
                self.f[me].mode = mode;
                events.push(Event::BonusMode { knight: side, mode });
                return Ok(());
            }
            Decision::Psi(skill) => {
                if let Some(s) = skill {
                    if self.knight(side).psi(s) == 0 {
                        return Err(RuleError::PsiNotLearned(s));
                    }
                    // No later moment comes once Swordplay's two are used (R21 keeps a skill
                    // armed only for a later moment).
                    if self.in_swordplay && self.psi_attempts_left(side) == 0 {
                        return Err(RuleError::PsiSpent(s));
                    }
                }
                self.f[me].armed = skill;
                events.push(Event::PsiArmed {
                    knight: side,
                    skill,
                });
                return Ok(());
            }
            _ => {}
        }
        let Some(kind) = self.awaiting()[me] else {
            if self.phase == Phase::AwaitFightOn {
                return Err(RuleError::AlreadyAnswered);
            }
            let awaited = Side::BOTH
                .into_iter()
                .find_map(|s| self.awaiting()[s.index()].map(|k| (s, k)));
            return Err(match awaited {
                Some((awaited, kind)) => RuleError::NotYourTurn { awaited, kind },
                None => RuleError::MatchOver,
            });
        };
        if decision == Decision::Yield {
            events.push(Event::Yielded { knight: side });
            self.finish(Some(side.other()), EndReason::Yield, events);
            return Ok(());
        }
        if let Some(injury) = self
            .counter_barred(side, decision)
            .filter(|_| kind == PromptKind::Counter)
        {
            return Err(RuleError::CounterBarred {
                counter: decision,
                injury,
            });
        }
        if !self.is_option(side, kind, decision) {
            return Err(RuleError::NotAnOption {
                decision,
                kind,
                options: self.options(side, kind),
            });
        }
        self.apply(side, decision, dice, events);
        Ok(())
    }

    /// Runs a move already known to be legal for `side` now (checked by [`Match::decide_into`],
    /// or chosen by [`super::policy::Policy`] from the state itself).
    pub(super) fn apply(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        match (self.phase, decision) {
            (Phase::AwaitSweep(_), d) => {
                self.announce_sweep(side, d == Decision::Sweep, dice, events)
            }
            (Phase::AwaitStrike(_), d) => {
                let height = if d == Decision::Low {
                    Height::Low
                } else {
                    Height::High
                };
                self.strike(side, height, dice, events)
            }
            (Phase::AwaitFightOn, d) => {
                self.answer_fight_on(side, d == Decision::Swordplay, dice, events)
            }
            (Phase::AwaitAction(_), d) => {
                let action = match d {
                    Decision::Observe => Action::Observe,
                    Decision::Press => Action::Press,
                    _ => Action::Attack,
                };
                self.act(side, action, dice, events)
            }
            (
                Phase::AwaitCounter {
                    action,
                    action_roll,
                    ..
                },
                d,
            ) => {
                let counter = match d {
                    Decision::Block => Counter::Block,
                    Decision::Dodge => Counter::Dodge,
                    _ => Counter::Parry,
                };
                self.counter(side, counter, action, action_roll, dice, events)
            }
            (Phase::Over, _) => {}
        }
    }

    // ----- shared helpers for the checklist modules -----

    /// A fighting skill's unmodified value.
    #[inline]
    pub(super) fn base(&self, side: Side, skill: Skill) -> i32 {
        i32::from(self.setup.knights[side.index()].skill(skill))
    }

    /// Adds to a fighter's pending Bonus (R4).
    #[inline]
    pub(super) fn earn_bonus(&mut self, side: Side, amount: u32, events: &mut impl EventSink) {
        let f = &mut self.f[side.index()];
        f.bonus += amount;
        events.push(Event::Bonus {
            knight: side,
            amount,
            total: f.bonus,
        });
    }

    /// Uses up a fighter's Bonus if its mode is `mode`, returning the amount (R5).
    #[inline]
    pub(super) fn spend_bonus(
        &mut self,
        side: Side,
        mode: BonusMode,
        events: &mut impl EventSink,
    ) -> Option<u32> {
        let f = &mut self.f[side.index()];
        if f.bonus == 0 || f.mode != mode {
            return None;
        }
        let amount = f.bonus;
        f.bonus = 0;
        f.mode = BonusMode::Weaken;
        events.push(Event::BonusSpent {
            knight: side,
            amount,
            mode,
        });
        Some(amount)
    }

    /// Spends `side`'s Bonus if its mode is `mode`, as a roll modifier: added to the holder's own
    /// roll in `attack` and `defend` mode, subtracted from the opponent's in `weaken` mode (R5).
    pub(super) fn bonus_modifier(
        &mut self,
        side: Side,
        mode: BonusMode,
        mods: &mut super::event::Modifiers,
        events: &mut impl EventSink,
    ) {
        use super::event::{ModKind, Modifier};
        if let Some(b) = self.spend_bonus(side, mode, events) {
            let b = b as i32;
            mods.push(match mode {
                BonusMode::Attack => Modifier {
                    kind: ModKind::BonusAttack,
                    value: b,
                },
                BonusMode::Defend => Modifier {
                    kind: ModKind::BonusDefend,
                    value: b,
                },
                BonusMode::Weaken => Modifier {
                    kind: ModKind::Weakened,
                    value: -b,
                },
            });
        }
    }

    /// Clears a fighter's Bonus without event; the mode returns to `weaken` (R5).
    #[inline]
    pub(super) fn clear_bonus(&mut self, side: Side) -> u32 {
        let f = &mut self.f[side.index()];
        f.mode = BonusMode::Weaken;
        std::mem::take(&mut f.bonus)
    }

    /// Ends the match.
    pub(super) fn finish(
        &mut self,
        winner: Option<Side>,
        reason: EndReason,
        events: &mut impl EventSink,
    ) {
        self.phase = Phase::Over;
        let unhorsed = [self.f[0].unhorsed, self.f[1].unhorsed];
        let major_injury = [self.f[0].injuries.major, self.f[1].injuries.major];
        self.outcome = Some(Outcome {
            winner,
            reason,
            unhorsed,
            major_injury,
            passes: self.joust.pass,
            swordplay: self.swordplay_fought,
        });
        events.push(Event::MatchEnded { winner, reason });
    }
}

impl Match {
    /// Rolls d100 against `base` plus `modifiers`, limited to `cap` (R1, R2, R10), and reports it.
    /// With `automatic`, the outcome is fixed whatever the roll (Hypercognition, R18, R23).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn roll_skill(
        &mut self,
        side: Side,
        skill: super::event::RollSkill,
        base: i32,
        modifiers: super::event::Modifiers,
        cap: Option<u32>,
        automatic: Option<bool>,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) -> (u32, bool) {
        let uncapped = base + modifiers.total();
        let (target, cap) = match cap {
            Some(c) if (c as i32) < uncapped => (c as i32, Some(c)),
            _ => (uncapped, None),
        };
        let roll = dice.d100();
        let success = automatic.unwrap_or(roll as i32 <= target);
        events.push(Event::Roll {
            knight: side,
            skill,
            roll,
            target,
            success,
            base,
            modifiers,
            cap,
            automatic,
        });
        (roll, success)
    }

    /// A lasting injury, and CPK's chance to cancel it (R12, R22).
    pub(super) fn suffer(
        &mut self,
        side: Side,
        injury: Injury,
        dice: &mut impl RollSource,
        events: &mut impl EventSink,
    ) {
        self.f[side.index()].injuries.set(injury, true);
        events.push(Event::Injury {
            knight: side,
            kind: injury,
        });
        // A Negapsi reversal re-opens the wound: the injury stands (R23).
        if self.psi_moment(side, super::psi::Moment::Injury, dice, events)
            == super::psi::PsiEffect::Works
        {
            self.f[side.index()].injuries.set(injury, false);
            events.push(Event::InjuryHealed {
                knight: side,
                kind: injury,
            });
        }
    }
}
