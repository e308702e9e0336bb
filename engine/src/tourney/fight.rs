//! A bout on foot: the roll-off, then rounds of one action each until a knight is out, yields or
//! is disarmed (T9, T18).
//!
//! A [`Bout`] is a value. It is started from a [`BoutSetup`] (both sheets, their state and the
//! house tables as they are at the start, T21) and then driven only by [`Bout::decide_into`] (or
//! [`Fight::decide`]). It rolls every die in the order of T22 and stops at the next action a
//! knight must choose, which [`Bout::awaited`] names. Nothing else changes it, so a bout is its
//! setup, its dice and its decision log. Deciding allocates nothing: a simulation with
//! [`crate::game::Discard`] runs on the stack alone.

use super::event::{
    ActionKind, EndReason, Event, ExchangeResult, ExchangeRule, FirstActorRule, FumbleEffect,
    KnightStart, ModReason, Modifiers, Natural, Outcome, TestKind,
};
use super::sheet::{TourneySheet, Weapon, WeaponState};
use super::state::TourneyState;
use super::tables::Tables;
use crate::dice::RollSource;
use crate::game::{Fight, FightResult, Prompt, Side, Sink};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// After this many tied roll-off pairs the challenger starts (T9, as R121).
pub const MAX_ROLL_OFF_PAIRS: u32 = 100;

/// What the prompt asks for, for messages.
pub const WHAT: &str = "your action";

/// One knight as a bout starts: his sheet and his state as of the start (T21).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The sheet.
    pub sheet: TourneySheet,
    /// Hits taken and weapon states, already read as of the day (see [`TourneyState::as_of`]).
    pub state: TourneyState,
}

/// Everything a bout starts from. Stored with the fight, it and the decision log replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoutSetup {
    /// The challenger and the challenged.
    pub knights: [Entrant; 2],
    /// The house tables as they were at the start (T10, T11, T8).
    #[serde(default)]
    pub tables: Tables,
}

/// A knight's decision: his action (T9), or giving up (T14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The opposed combat test (T3); only when standing.
    Attack,
    /// The Strength test to stand up (T8); only when down.
    Stand,
    /// Give up the bout (T14); at any of his own decisions.
    Yield,
}

impl Decision {
    /// The command word: `attack`, `stand`, `yield`.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Attack => "attack",
            Decision::Stand => "stand",
            Decision::Yield => "yield",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Why a decision was refused. A refused decision leaves the bout unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The bout has ended.
    #[error("the bout is over")]
    FightOver,
    /// The other knight's action is awaited.
    #[error("it is not your turn: the bout awaits the {} knight's action", side_word(*.awaited))]
    NotYourTurn {
        /// Who is awaited.
        awaited: Side,
    },
    /// `/attack` while down, or `/stand` while standing (T8).
    #[error("{}", if *.down { "you are down: /stand or /yield (T8)" } else { "you are standing: /attack or /yield (T8)" })]
    NotAnOption {
        /// What was tried.
        decision: Decision,
        /// Whether the knight is down.
        down: bool,
    },
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Challenger => "challenging",
        Side::Challenged => "challenged",
    }
}

/// One knight inside a bout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Knight {
    hits: u8,
    health: u8,
    main: WeaponState,
    dagger: WeaponState,
    wields: Weapon,
    /// The skill of the weapon in hand, kept so a test reads no sheet.
    skill: u8,
    strength: u8,
    bonus: u8,
    down: bool,
    yield_offered: bool,
}

impl Knight {
    fn new(e: &Entrant, tables: &Tables) -> Knight {
        let sheet = &e.sheet;
        // A lost main weapon (or one traded at the smith) leaves the dagger in hand (T7, T16).
        let wields = if e.state.main == WeaponState::Lost {
            Weapon::Dagger
        } else {
            sheet.main
        };
        Knight {
            hits: e.state.hits.min(sheet.health),
            health: sheet.health,
            main: e.state.main,
            dagger: e.state.dagger,
            wields,
            skill: sheet.skills.get(wields),
            strength: sheet.strength,
            bonus: tables.strength_bonus(sheet.strength),
            down: false,
            yield_offered: false,
        }
    }

    #[inline]
    fn effective(&self) -> u8 {
        self.health.saturating_sub(self.hits)
    }

    #[inline]
    fn armed(&self) -> bool {
        self.main != WeaponState::Lost || self.dagger != WeaponState::Lost
    }
}

/// Where the bout stands: named for what it awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A knight's action (T9).
    AwaitAction(Side),
    /// The bout has ended.
    Over,
}

/// One bout of The Tourney. See the module docs.
#[derive(Clone, Debug)]
pub struct Bout {
    setup: BoutSetup,
    k: [Knight; 2],
    phase: Phase,
    first: Side,
    round: u32,
    outcome: Option<Outcome>,
}

impl Bout {
    /// Starts a bout: `fight_started`, the roll-off (T9), `first_actor` and round 1. A setup the
    /// challenge should have refused (a knight at Health 0 or with no weapon) ends at once, before
    /// the roll-off: the first such knight, challenger first, loses (`out`, else `disarmed`).
    pub fn start_into(
        setup: BoutSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Bout {
        let k = [
            Knight::new(&setup.knights[0], &setup.tables),
            Knight::new(&setup.knights[1], &setup.tables),
        ];
        let mut b = Bout {
            setup,
            k,
            phase: Phase::Over,
            first: Side::Challenger,
            round: 0,
            outcome: None,
        };
        sink.push(Event::FightStarted {
            challenger: Side::Challenger,
            challenged: Side::Challenged,
            knights: [
                b.start_entry(Side::Challenger),
                b.start_entry(Side::Challenged),
            ],
        });
        if let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| b.k[s.index()].effective() == 0)
        {
            b.finish(side.other(), EndReason::Out, sink);
            return b;
        }
        if let Some(side) = Side::BOTH.into_iter().find(|s| !b.k[s.index()].armed()) {
            sink.push(Event::Disarmed { knight: side });
            b.finish(side.other(), EndReason::Disarmed, sink);
            return b;
        }
        let mut first = None;
        for _ in 0..MAX_ROLL_OFF_PAIRS {
            let a = roll_d6(dice);
            let c = roll_d6(dice);
            sink.push(Event::RollOff {
                knight: Side::Challenger,
                die: a,
            });
            sink.push(Event::RollOff {
                knight: Side::Challenged,
                die: c,
            });
            if a != c {
                first = Some(if a > c {
                    Side::Challenger
                } else {
                    Side::Challenged
                });
                break;
            }
        }
        let (first, rule) = match first {
            Some(side) => (side, FirstActorRule::RollOff),
            None => (Side::Challenger, FirstActorRule::Ties),
        };
        sink.push(Event::FirstActor {
            knight: first,
            rule,
        });
        b.first = first;
        b.round = 1;
        sink.push(Event::RoundStarted { round: 1 });
        b.phase = Phase::AwaitAction(first);
        b
    }

    fn start_entry(&self, side: Side) -> KnightStart {
        let k = &self.k[side.index()];
        let sheet = &self.setup.knights[side.index()].sheet;
        KnightStart {
            knight: side,
            main: sheet.main,
            main_state: k.main,
            dagger_state: k.dagger,
            wields: k.wields,
            skill: k.skill,
            dagger_skill: sheet.skills.get(Weapon::Dagger),
            strength: k.strength,
            damage_bonus: k.bonus,
            health: k.health,
            hits: k.hits,
        }
    }

    // ----- getters -----

    /// The setup this bout started from.
    pub fn setup(&self) -> &BoutSetup {
        &self.setup
    }

    /// A knight's sheet as it was at the start.
    pub fn sheet(&self, side: Side) -> &TourneySheet {
        &self.setup.knights[side.index()].sheet
    }

    /// Who must act now; `None` once the bout is over.
    #[inline]
    pub fn awaited(&self) -> Option<Side> {
        match self.phase {
            Phase::AwaitAction(side) => Some(side),
            Phase::Over => None,
        }
    }

    /// What a timeout, an NPC and a simulation decide now (T19): `/stand` when down, else
    /// `/attack`; never `/yield`.
    #[inline]
    pub fn default_decision(&self) -> Option<(Side, Decision)> {
        let side = self.awaited()?;
        Some((side, self.default_for(side)))
    }

    #[inline]
    fn default_for(&self, side: Side) -> Decision {
        if self.k[side.index()].down {
            Decision::Stand
        } else {
            Decision::Attack
        }
    }

    /// The legal decisions for `side` now: standing `[Attack, Yield]`, down `[Stand, Yield]`.
    pub fn options(&self, side: Side) -> [Decision; 2] {
        [self.default_for(side), Decision::Yield]
    }

    /// The outcome, once the bout has ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the bout has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The round under way (1, 2, ...); 0 if the bout ended before the roll-off.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Who acts first in every round (T9).
    pub fn first_actor(&self) -> Side {
        self.first
    }

    /// Whether a knight is down (T8).
    pub fn is_down(&self, side: Side) -> bool {
        self.k[side.index()].down
    }

    /// Hits a knight has taken, capped at his Health (T13).
    pub fn hits(&self, side: Side) -> u8 {
        self.k[side.index()].hits
    }

    /// A knight's effective Health: Health less hits taken (T13).
    pub fn effective_health(&self, side: Side) -> u8 {
        self.k[side.index()].effective()
    }

    /// The weapon in a knight's hand (T7). A disarmed knight's is the dagger, lost.
    pub fn wielding(&self, side: Side) -> Weapon {
        self.k[side.index()].wields
    }

    /// The states of a knight's main weapon and dagger now.
    pub fn weapons(&self, side: Side) -> (WeaponState, WeaponState) {
        let k = &self.k[side.index()];
        (k.main, k.dagger)
    }

    /// Whether the last blow left this knight at Health 1 and his prompt should offer to yield
    /// (T14); cleared once he decides.
    pub fn yield_offered(&self, side: Side) -> bool {
        self.k[side.index()].yield_offered
    }

    /// What outlasts the bout (T21): hits taken and both weapons' states, with the order at the
    /// smith kept and `day` as the day of the change. Being down and the dagger in hand end here.
    pub fn carry(&self, day: &str) -> [TourneyState; 2] {
        Side::BOTH.map(|side| {
            let k = &self.k[side.index()];
            TourneyState {
                hits: k.hits,
                main: k.main,
                dagger: k.dagger,
                ordered: self.setup.knights[side.index()].state.ordered,
                day: day.to_string(),
            }
        })
    }

    // ----- the one input -----

    /// Takes `side`'s decision and runs the rules to the next decision, appending the events to
    /// `sink`. A refused decision returns a [`RuleError`], appends nothing and changes nothing.
    pub fn decide_into(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Result<(), RuleError> {
        let awaited = match self.phase {
            Phase::Over => return Err(RuleError::FightOver),
            Phase::AwaitAction(awaited) => awaited,
        };
        if side != awaited {
            return Err(RuleError::NotYourTurn { awaited });
        }
        let down = self.k[side.index()].down;
        match (decision, down) {
            (Decision::Attack, true) | (Decision::Stand, false) => {
                return Err(RuleError::NotAnOption { decision, down })
            }
            _ => {}
        }
        self.apply(side, decision, dice, sink);
        Ok(())
    }

    /// Plays the bout to its end with the default policy for both knights (T19), appending
    /// every event. `max_decisions` bounds the work; returns whether it ended.
    pub fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        for _ in 0..max_decisions {
            // The default is legal by construction, so it skips decide_into's checks.
            let Some((side, decision)) = self.default_decision() else {
                return true;
            };
            self.apply(side, decision, dice, sink);
        }
        self.is_over()
    }

    /// Runs a decision already known to be legal for `side`, the awaited knight.
    fn apply(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        self.k[side.index()].yield_offered = false;
        let action = match decision {
            Decision::Attack => ActionKind::Attack,
            Decision::Stand => ActionKind::Stand,
            Decision::Yield => ActionKind::Yield,
        };
        sink.push(Event::Action {
            knight: side,
            action,
            round: self.round,
        });
        match decision {
            Decision::Yield => {
                sink.push(Event::Yielded { knight: side });
                self.finish(side.other(), EndReason::Yielded, sink);
            }
            Decision::Stand => {
                self.stand(side, dice, sink);
                self.next_turn(side, sink);
            }
            Decision::Attack => {
                if !self.attack(side, dice, sink) {
                    self.next_turn(side, sink);
                }
            }
        }
    }

    /// After `actor`'s action: the other acts; when both have, a round ends (T9).
    fn next_turn(&mut self, actor: Side, sink: &mut impl Sink<Event>) {
        if actor != self.first {
            self.round += 1;
            sink.push(Event::RoundStarted { round: self.round });
        }
        self.phase = Phase::AwaitAction(actor.other());
    }

    /// The modifiers on a test (T17): Health 1 on every test (T13), down on combat tests (T8),
    /// the two-handed sword defending (T10).
    #[inline]
    fn modifiers(&self, side: Side, test: TestKind) -> Modifiers {
        let k = &self.k[side.index()];
        let mut mods = Modifiers::new();
        if k.effective() == 1 {
            mods.push(ModReason::Health1, -1);
        }
        if k.down && test != TestKind::Stand {
            mods.push(ModReason::Down, -1);
        }
        let two_handed = i32::from(self.setup.tables.greatsword_defence);
        if test == TestKind::Defend && k.wields == Weapon::Greatsword && two_handed != 0 {
            mods.push(ModReason::TwoHandedDefence, two_handed);
        }
        mods
    }

    /// Step 5: the Strength test against the stand target (T8).
    fn stand(&mut self, side: Side, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let die = roll_d6(dice);
        let base = i32::from(self.k[side.index()].strength);
        let modifiers = self.modifiers(side, TestKind::Stand);
        let total = i32::from(die) + base + modifiers.total();
        let target = i32::from(self.setup.tables.stand_target);
        let natural = Natural::of(die);
        // T1 and T2: beat the target, unless the die itself decides.
        let success = match natural {
            Some(Natural::Critical) => true,
            Some(Natural::Fumble) => false,
            None => total > target,
        };
        sink.push(Event::Test {
            knight: side,
            test: TestKind::Stand,
            weapon: None,
            die,
            base,
            modifiers,
            total,
            against: None,
            target: Some(target),
            natural,
            success,
        });
        if success {
            self.k[side.index()].down = false;
            sink.push(Event::Down {
                knight: side,
                down: false,
            });
        }
    }

    /// Step 4: the opposed combat test, its damage, the fumble effect and the end checks.
    /// Returns whether the bout ended.
    fn attack(
        &mut self,
        attacker: Side,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> bool {
        let defender = attacker.other();
        let (ai, di) = (attacker.index(), defender.index());
        let a_die = roll_d6(dice);
        let d_die = roll_d6(dice);
        let a_mods = self.modifiers(attacker, TestKind::Attack);
        let d_mods = self.modifiers(defender, TestKind::Defend);
        let a_base = i32::from(self.k[ai].skill);
        let d_base = i32::from(self.k[di].skill);
        let a_total = i32::from(a_die) + a_base + a_mods.total();
        let d_total = i32::from(d_die) + d_base + d_mods.total();
        let (a_nat, d_nat) = (Natural::of(a_die), Natural::of(d_die));
        let (result, rule) = exchange(a_nat, d_nat, a_total, d_total);
        let hit = result == ExchangeResult::Hit;
        sink.push(Event::Test {
            knight: attacker,
            test: TestKind::Attack,
            weapon: Some(self.k[ai].wields),
            die: a_die,
            base: a_base,
            modifiers: a_mods,
            total: a_total,
            against: Some(d_total),
            target: None,
            natural: a_nat,
            success: hit,
        });
        sink.push(Event::Test {
            knight: defender,
            test: TestKind::Defend,
            weapon: Some(self.k[di].wields),
            die: d_die,
            base: d_base,
            modifiers: d_mods,
            total: d_total,
            against: Some(a_total),
            target: None,
            natural: d_nat,
            success: !hit,
        });
        sink.push(Event::Exchange {
            attacker,
            defender,
            result,
            rule,
        });
        if hit {
            let weapon = self.k[ai].wields;
            let weapon_damage = self.setup.tables.damage(weapon);
            let strength_bonus = self.k[ai].bonus;
            let hits = weapon_damage.saturating_add(strength_bonus);
            let d = &mut self.k[di];
            d.hits = d.hits.saturating_add(hits).min(d.health);
            sink.push(Event::Damage {
                knight: defender,
                by: attacker,
                weapon,
                weapon_damage,
                strength_bonus,
                hits,
                hits_taken: d.hits,
                health: d.effective(),
            });
        }
        // T4: with both fumbling nothing happens at all; otherwise a lone fumbler suffers his
        // effect (T6), rolled even if the blow ended the bout, since it outlasts it (T21).
        let fumbler = match (a_nat, d_nat) {
            _ if result == ExchangeResult::Nothing => None,
            (Some(Natural::Fumble), _) => Some(attacker),
            (_, Some(Natural::Fumble)) => Some(defender),
            _ => None,
        };
        if let Some(f) = fumbler {
            self.fumble(f, dice, sink);
        }
        // Step 4(f): out first, then disarmed, then the offer to yield.
        if self.k[di].effective() == 0 {
            self.finish(attacker, EndReason::Out, sink);
            return true;
        }
        if let Some(f) = fumbler.filter(|f| !self.k[f.index()].armed()) {
            self.finish(f.other(), EndReason::Disarmed, sink);
            return true;
        }
        if hit && self.k[di].effective() == 1 {
            self.k[di].yield_offered = true;
            sink.push(Event::YieldOffered {
                knight: defender,
                health: 1,
            });
        }
        false
    }

    /// The fumble-effect die and its consequence (T6, T7, T8).
    fn fumble(&mut self, side: Side, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let die = roll_d6(dice);
        let effect = FumbleEffect::of(die);
        sink.push(Event::FumbleEffect {
            knight: side,
            die,
            effect,
        });
        let k = &mut self.k[side.index()];
        match effect {
            FumbleEffect::Fell => {
                // Falling while down changes nothing (T8).
                if !k.down {
                    k.down = true;
                    sink.push(Event::Down {
                        knight: side,
                        down: true,
                    });
                }
            }
            FumbleEffect::WeaponDamaged => {
                let weapon = k.wields;
                let state = if weapon == Weapon::Dagger {
                    &mut k.dagger
                } else {
                    &mut k.main
                };
                // Damaged again, it breaks and is lost at once (T7).
                *state = match *state {
                    WeaponState::Sound => WeaponState::Damaged,
                    _ => WeaponState::Lost,
                };
                let now = *state;
                sink.push(Event::WeaponState {
                    knight: side,
                    weapon,
                    state: now,
                });
                if now == WeaponState::Lost {
                    if weapon != Weapon::Dagger && k.dagger != WeaponState::Lost {
                        k.wields = Weapon::Dagger;
                        k.skill = self.setup.knights[side.index()]
                            .sheet
                            .skills
                            .get(Weapon::Dagger);
                        sink.push(Event::WeaponDrawn {
                            knight: side,
                            weapon: Weapon::Dagger,
                        });
                    } else {
                        sink.push(Event::Disarmed { knight: side });
                    }
                }
            }
        }
    }

    fn finish(&mut self, winner: Side, reason: EndReason, sink: &mut impl Sink<Event>) {
        let outcome = Outcome {
            winner,
            loser: winner.other(),
            reason,
            rounds: self.round,
        };
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        sink.push(Event::FightEnded {
            winner,
            loser: winner.other(),
            reason,
            rounds: self.round,
        });
    }
}

/// T3 and T4: the exchange, in T4's order of precedence.
#[inline]
pub fn exchange(
    attacker: Option<Natural>,
    defender: Option<Natural>,
    attacker_total: i32,
    defender_total: i32,
) -> (ExchangeResult, ExchangeRule) {
    use ExchangeResult::*;
    use ExchangeRule::*;
    use Natural::*;
    match (attacker, defender) {
        (Some(Critical), Some(Critical)) => (Nothing, BothCritical),
        (Some(Fumble), Some(Fumble)) => (Nothing, BothFumble),
        (Some(Critical), _) => (Hit, AttackerCritical),
        (_, Some(Critical)) => (Parried, DefenderCritical),
        (Some(Fumble), _) => (Parried, AttackerFumble),
        (_, Some(Fumble)) => (Hit, DefenderFumble),
        _ if attacker_total > defender_total => (Hit, Beat),
        _ if attacker_total == defender_total => (Parried, Tie),
        _ => (Parried, Lower),
    }
}

#[inline]
fn roll_d6(dice: &mut impl RollSource) -> u8 {
    // A d6 always fits a u8; the clamp only keeps a misbehaving source on the die.
    dice.roll(6).clamp(1, 6) as u8
}

impl Fight for Bout {
    type Setup = BoutSetup;
    type Decision = Decision;
    type Event = Event;
    type Error = RuleError;

    fn start(setup: BoutSetup, dice: &mut impl RollSource) -> (Bout, Vec<Event>) {
        let mut events = Vec::new();
        let bout = Bout::start_into(setup, dice, &mut events);
        (bout, events)
    }

    fn setup(&self) -> &BoutSetup {
        Bout::setup(self)
    }

    fn start_into(
        setup: BoutSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Bout {
        Bout::start_into(setup, dice, sink)
    }

    fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        Bout::play_out(self, dice, sink, max_decisions)
    }

    fn pending(&self) -> Vec<Prompt<Decision>> {
        self.default_decision()
            .map(|(side, default)| Prompt {
                side,
                what: WHAT,
                options: self.options(side).to_vec(),
                default,
            })
            .into_iter()
            .collect()
    }

    fn decide(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.decide_into(side, decision, dice, &mut events)?;
        Ok(events)
    }

    fn result(&self) -> Option<FightResult> {
        self.outcome.map(|o| FightResult {
            winner: Some(o.winner),
            reason: o.reason.name(),
        })
    }
}
