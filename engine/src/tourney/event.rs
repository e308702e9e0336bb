//! Events: what happened in a bout, as data, with the page's field names. The bot renders them
//! as narration, adds `"game": "tourney"` and writes them with `herald script --events`.
//!
//! Events name knights by [`Side`]; [`Event::named`] swaps in display names for output. No event
//! holds a heap value, so a simulation that discards them allocates nothing.

use super::sheet::{Weapon, WeaponState};
use crate::game::Side;
use serde::{Deserialize, Serialize};

/// Which rule chose the first to act (T9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstActorRule {
    /// The higher roll-off die.
    RollOff,
    /// 100 tied pairs: the challenger (as R121).
    Ties,
}

/// An action as the `action` event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// The opposed combat test (T3).
    Attack,
    /// The Strength test to stand up (T8).
    Stand,
    /// Giving up the bout (T14).
    Yield,
}

/// Which test was rolled (T1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// The attacker's combat test.
    Attack,
    /// The defender's combat test.
    Defend,
    /// The Strength test to stand up (T8).
    Stand,
}

/// The natural die's meaning under the Rule of 1 and 6 (T2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Natural {
    /// A 6: succeeds no matter what.
    Critical,
    /// A 1: fails no matter what.
    Fumble,
}

impl Natural {
    /// The natural meaning of a d6, if any.
    #[inline]
    pub fn of(die: u8) -> Option<Natural> {
        match die {
            6 => Some(Natural::Critical),
            1 => Some(Natural::Fumble),
            _ => None,
        }
    }
}

/// Why a test's total differs from die + base (T17: these are all there are).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ModReason {
    /// Effective Health 1: −1 on every test (T13).
    #[serde(rename = "health_1")]
    Health1,
    /// Down: −1 on combat tests (T8).
    #[serde(rename = "down")]
    Down,
    /// Defending with a two-handed sword: −2 (T10).
    #[serde(rename = "two_handed_defence")]
    TwoHandedDefence,
}

impl ModReason {
    /// The word the events use.
    pub fn name(self) -> &'static str {
        match self {
            ModReason::Health1 => "health_1",
            ModReason::Down => "down",
            ModReason::TwoHandedDefence => "two_handed_defence",
        }
    }
}

/// One modifier on a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// Why.
    pub reason: ModReason,
    /// How much, signed.
    pub value: i32,
}

/// The most modifiers one test can have: one of each reason.
pub const MAX_MODIFIERS: usize = 3;

/// A test's modifiers, in the order Health 1, down, two-handed defence; kept inline (no
/// allocation per test). Serialized as a list.
#[derive(Clone, Copy, Default)]
pub struct Modifiers {
    len: u8,
    items: [Option<Modifier>; MAX_MODIFIERS],
}

impl Modifiers {
    /// No modifiers.
    pub const fn new() -> Self {
        Modifiers {
            len: 0,
            items: [None; MAX_MODIFIERS],
        }
    }

    /// Adds a modifier; one past [`MAX_MODIFIERS`] would be an engine bug and is dropped.
    #[inline]
    pub fn push(&mut self, reason: ModReason, value: i32) {
        debug_assert!((self.len as usize) < MAX_MODIFIERS, "too many modifiers");
        if let Some(slot) = self.items.get_mut(self.len as usize) {
            *slot = Some(Modifier { reason, value });
            self.len += 1;
        }
    }

    /// The sum of their values.
    #[inline]
    pub fn total(&self) -> i32 {
        self.iter().map(|m| m.value).sum()
    }

    /// The modifiers in order.
    pub fn iter(&self) -> impl Iterator<Item = Modifier> + '_ {
        self.items[..self.len as usize].iter().flatten().copied()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl PartialEq for Modifiers {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Modifiers {}

impl std::fmt::Debug for Modifiers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Modifier> for Modifiers {
    fn from_iter<I: IntoIterator<Item = Modifier>>(iter: I) -> Self {
        let mut m = Modifiers::new();
        for x in iter.into_iter().take(MAX_MODIFIERS) {
            m.push(x.reason, x.value);
        }
        m
    }
}

impl Serialize for Modifiers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Modifiers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Modifier>::deserialize(d)?;
        if v.len() > MAX_MODIFIERS {
            return Err(serde::de::Error::invalid_length(
                v.len(),
                &"at most 3 modifiers",
            ));
        }
        Ok(v.into_iter().collect())
    }
}

/// What an attack came to (T3, T4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeResult {
    /// The blow landed.
    Hit,
    /// The defender parried (or dodged).
    Parried,
    /// Both criticals or both fumbles: nothing at all (T4).
    Nothing,
}

/// Which rule of T4's order of precedence decided an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeRule {
    /// The attacker's total beat the defender's.
    Beat,
    /// Equal totals: parried (T3).
    Tie,
    /// The attacker's total was lower.
    Lower,
    /// The attacker's 6 hits.
    AttackerCritical,
    /// The defender's 6 parries.
    DefenderCritical,
    /// The attacker's 1 misses.
    AttackerFumble,
    /// The defender's 1 is hit.
    DefenderFumble,
    /// Both rolled 6: nothing happens.
    BothCritical,
    /// Both rolled 1: nothing happens.
    BothFumble,
}

/// A fumble's effect (T6): the d6's 1–3 or 4–6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FumbleEffect {
    /// 1–3: the weapon in hand is damaged (T7).
    WeaponDamaged,
    /// 4–6: he falls (T8).
    Fell,
}

impl FumbleEffect {
    /// The effect of a fumble-effect die (T6).
    #[inline]
    pub fn of(die: u8) -> FumbleEffect {
        if die <= 3 {
            FumbleEffect::WeaponDamaged
        } else {
            FumbleEffect::Fell
        }
    }
}

/// Why a bout ended (T18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The loser reached Health 0 (T15).
    Out,
    /// The loser yielded (T14).
    Yielded,
    /// The loser lost his last weapon (T7).
    Disarmed,
}

impl EndReason {
    /// The word the events give this reason.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Out => "out",
            EndReason::Yielded => "yielded",
            EndReason::Disarmed => "disarmed",
        }
    }
}

/// How a finished bout ended. There is no draw (T18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner.
    pub winner: Side,
    /// The loser.
    pub loser: Side,
    /// Why.
    pub reason: EndReason,
    /// The round it ended in.
    pub rounds: u32,
}

/// One knight as a bout starts (the `knights` of `fight_started`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KnightStart<K = Side> {
    /// Who.
    pub knight: K,
    /// The main weapon's kind.
    pub main: Weapon,
    /// Its state.
    pub main_state: WeaponState,
    /// The dagger's state.
    pub dagger_state: WeaponState,
    /// The weapon in hand: the main one, or the dagger if it is lost (T7, T16).
    pub wields: Weapon,
    /// The skill of the weapon in hand.
    pub skill: u8,
    /// The Dagger skill.
    pub dagger_skill: u8,
    /// Strength.
    pub strength: u8,
    /// Strength's damage bonus a blow (T11).
    pub damage_bonus: u8,
    /// The sheet's Health.
    pub health: u8,
    /// Hits taken at the start (T21).
    pub hits: u8,
}

/// Something that happened in a bout. `K` names a knight: [`Side`] inside the engine, a
/// display name after [`Event::named`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event<K = Side> {
    /// The bout begins: both knights as they start (T21).
    FightStarted {
        /// The challenger.
        challenger: K,
        /// The challenged.
        challenged: K,
        /// Both, challenger first.
        knights: [KnightStart<K>; 2],
    },
    /// One die of the roll-off (T9).
    RollOff {
        /// Who rolled.
        knight: K,
        /// The d6.
        die: u8,
    },
    /// Who acts first, and why (T9).
    FirstActor {
        /// The first to act in every round.
        knight: K,
        /// The roll-off, or 100 ties.
        rule: FirstActorRule,
    },
    /// A round begins (T9).
    RoundStarted {
        /// 1, 2, ...
        round: u32,
    },
    /// A knight acts.
    Action {
        /// Who.
        knight: K,
        /// What.
        action: ActionKind,
        /// In which round.
        round: u32,
    },
    /// A test: d6 + base + modifiers (T1, T2, T17).
    Test {
        /// Who rolled.
        knight: K,
        /// Attack, defend or stand.
        test: TestKind,
        /// The weapon in hand (`None` for stand).
        weapon: Option<Weapon>,
        /// The d6.
        die: u8,
        /// The skill of the weapon, or Strength.
        base: i32,
        /// What applied (T17).
        modifiers: Modifiers,
        /// die + base + modifiers.
        total: i32,
        /// Combat: the opponent's total.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        against: Option<i32>,
        /// Stand: the target (3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<i32>,
        /// A critical or a fumble (T2).
        natural: Option<Natural>,
        /// Attack: the blow landed; defend: it did not; stand: he is up.
        success: bool,
    },
    /// What an attack came to (T3, T4).
    Exchange {
        /// Who attacked.
        attacker: K,
        /// Who defended.
        defender: K,
        /// Hit, parried or nothing.
        result: ExchangeResult,
        /// The rule that decided.
        rule: ExchangeRule,
    },
    /// A blow's damage (T10, T11, T13).
    Damage {
        /// Who was hit.
        knight: K,
        /// Who struck.
        by: K,
        /// With what.
        weapon: Weapon,
        /// The weapon's damage (T10).
        weapon_damage: u8,
        /// The striker's Strength bonus (T11).
        strength_bonus: u8,
        /// This blow's hits.
        hits: u8,
        /// Hits taken now, capped at Health (T13).
        hits_taken: u8,
        /// Effective Health now.
        health: u8,
    },
    /// A fumbler's effect die (T6).
    FumbleEffect {
        /// The fumbler.
        knight: K,
        /// The d6.
        die: u8,
        /// Weapon damaged (1–3) or fell (4–6).
        effect: FumbleEffect,
    },
    /// A weapon was damaged or lost (T7).
    WeaponState {
        /// Whose.
        knight: K,
        /// Which.
        weapon: Weapon,
        /// Now damaged, or lost.
        state: WeaponState,
    },
    /// A knight drew his dagger, without an action (T7).
    WeaponDrawn {
        /// Who.
        knight: K,
        /// The dagger.
        weapon: Weapon,
    },
    /// A knight fell (`down: true`) or stood up (`false`) (T8).
    Down {
        /// Who.
        knight: K,
        /// Whether he is down now.
        down: bool,
    },
    /// A blow left a knight at Health 1: his next prompt offers to yield (T14).
    YieldOffered {
        /// Who.
        knight: K,
        /// His effective Health: 1.
        health: u8,
    },
    /// A knight lost his last weapon (T7).
    Disarmed {
        /// Who.
        knight: K,
    },
    /// A knight yielded (T14).
    Yielded {
        /// Who.
        knight: K,
    },
    /// The bout is over (T18).
    FightEnded {
        /// The winner.
        winner: K,
        /// The loser.
        loser: K,
        /// Out, yielded or disarmed.
        reason: EndReason,
        /// The round it ended in.
        rounds: u32,
    },
}

impl<K> KnightStart<K> {
    /// The same entry with the knight renamed by `f`.
    pub fn map_knight<L>(self, f: impl FnOnce(K) -> L) -> KnightStart<L> {
        KnightStart {
            knight: f(self.knight),
            main: self.main,
            main_state: self.main_state,
            dagger_state: self.dagger_state,
            wields: self.wields,
            skill: self.skill,
            dagger_skill: self.dagger_skill,
            strength: self.strength,
            damage_bonus: self.damage_bonus,
            health: self.health,
            hits: self.hits,
        }
    }
}

impl<K> Event<K> {
    /// The same event with every knight renamed by `f`.
    pub fn map_knights<L>(self, mut f: impl FnMut(K) -> L) -> Event<L> {
        use Event::*;
        match self {
            FightStarted {
                challenger,
                challenged,
                knights: [a, b],
            } => FightStarted {
                challenger: f(challenger),
                challenged: f(challenged),
                knights: [a.map_knight(&mut f), b.map_knight(&mut f)],
            },
            RollOff { knight, die } => RollOff {
                knight: f(knight),
                die,
            },
            FirstActor { knight, rule } => FirstActor {
                knight: f(knight),
                rule,
            },
            RoundStarted { round } => RoundStarted { round },
            Action {
                knight,
                action,
                round,
            } => Action {
                knight: f(knight),
                action,
                round,
            },
            Test {
                knight,
                test,
                weapon,
                die,
                base,
                modifiers,
                total,
                against,
                target,
                natural,
                success,
            } => Test {
                knight: f(knight),
                test,
                weapon,
                die,
                base,
                modifiers,
                total,
                against,
                target,
                natural,
                success,
            },
            Exchange {
                attacker,
                defender,
                result,
                rule,
            } => Exchange {
                attacker: f(attacker),
                defender: f(defender),
                result,
                rule,
            },
            Damage {
                knight,
                by,
                weapon,
                weapon_damage,
                strength_bonus,
                hits,
                hits_taken,
                health,
            } => Damage {
                knight: f(knight),
                by: f(by),
                weapon,
                weapon_damage,
                strength_bonus,
                hits,
                hits_taken,
                health,
            },
            FumbleEffect {
                knight,
                die,
                effect,
            } => FumbleEffect {
                knight: f(knight),
                die,
                effect,
            },
            WeaponState {
                knight,
                weapon,
                state,
            } => WeaponState {
                knight: f(knight),
                weapon,
                state,
            },
            WeaponDrawn { knight, weapon } => WeaponDrawn {
                knight: f(knight),
                weapon,
            },
            Down { knight, down } => Down {
                knight: f(knight),
                down,
            },
            YieldOffered { knight, health } => YieldOffered {
                knight: f(knight),
                health,
            },
            Disarmed { knight } => Disarmed { knight: f(knight) },
            Yielded { knight } => Yielded { knight: f(knight) },
            FightEnded {
                winner,
                loser,
                reason,
                rounds,
            } => FightEnded {
                winner: f(winner),
                loser: f(loser),
                reason,
                rounds,
            },
        }
    }
}

impl Event<Side> {
    /// The same event with knights named by display name (`names[0]` the challenger's).
    pub fn named<'a>(&self, names: &'a [String; 2]) -> Event<&'a str> {
        self.clone()
            .map_knights(|side| names[side.index()].as_str())
    }
}
