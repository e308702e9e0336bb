//! Events: what happened in a fight, as data, with the page's field names. The bot names the
//! sides, adds `"game": "pfpduel"` and writes them with `herald script --events`.
//!
//! Events name fighters by [`Side`] (serialized `challenger`/`challenged`, which the bot
//! replaces with names). No event holds a heap value, so a simulation that discards them
//! allocates nothing.

use crate::game::Side;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// The most dice a pool can hold: 3 + 3 AP (PF2, PF3).
pub const MAX_DICE: usize = 6;

/// Some d6 faces, inline; serialized as a list.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Faces {
    len: u8,
    f: [u8; MAX_DICE],
}

impl Faces {
    /// No dice.
    pub const fn new() -> Faces {
        Faces {
            len: 0,
            f: [0; MAX_DICE],
        }
    }

    /// From a slice (at most [`MAX_DICE`] are kept).
    pub fn of(faces: &[u8]) -> Faces {
        let mut out = Faces::new();
        faces.iter().for_each(|&x| out.push(x));
        out
    }

    /// Adds a face; past [`MAX_DICE`] it is dropped (no pool is larger).
    #[inline]
    pub fn push(&mut self, face: u8) {
        if let Some(slot) = self.f.get_mut(self.len as usize) {
            *slot = face;
            self.len += 1;
        }
    }

    /// The faces.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.f[..self.len as usize]
    }

    /// The faces, mutable.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.f[..self.len as usize]
    }

    /// How many.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sum.
    #[inline]
    pub fn sum(&self) -> u8 {
        self.as_slice().iter().sum()
    }

    /// Removes one die showing `face`; whether there was one.
    pub fn remove(&mut self, face: u8) -> bool {
        let n = self.len as usize;
        match self.f[..n].iter().position(|&x| x == face) {
            Some(i) => {
                self.f.copy_within(i + 1..n, i);
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    /// The same faces, highest first.
    pub fn sorted_desc(&self) -> Faces {
        let mut s = *self;
        s.as_mut_slice().sort_unstable_by(|a, b| b.cmp(a));
        s
    }
}

impl std::fmt::Debug for Faces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Faces {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

/// A double's effect (PF10): the attacker's or the defender's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleEffect {
    /// Loss of control (attacker, PF9).
    Control,
    /// Psionic maneuver (both, PF10).
    Maneuver,
    /// Flaw (attacker): 1 more PFP lost by a losing defender.
    Flaw,
    /// Tactical advantage (attacker, PF11).
    Tactical,
    /// Psychic Unleash (attacker's 6-6, PF16).
    Unleash,
    /// Iron Will (defender, PF12).
    Iron,
    /// Mental Disappearance (defender, PF13).
    Vanish,
    /// Weakening of will (defender, PF14).
    Weaken,
    /// Unbalance (defender's 6-6).
    Unbalance,
}

impl DoubleEffect {
    /// The word of commands and events.
    pub fn word(self) -> &'static str {
        match self {
            DoubleEffect::Control => "control",
            DoubleEffect::Maneuver => "maneuver",
            DoubleEffect::Flaw => "flaw",
            DoubleEffect::Tactical => "tactical",
            DoubleEffect::Unleash => "unleash",
            DoubleEffect::Iron => "iron",
            DoubleEffect::Vanish => "vanish",
            DoubleEffect::Weaken => "weaken",
            DoubleEffect::Unbalance => "unbalance",
        }
    }

    /// All, in the order of the page.
    pub const ALL: [DoubleEffect; 9] = [
        DoubleEffect::Control,
        DoubleEffect::Maneuver,
        DoubleEffect::Flaw,
        DoubleEffect::Tactical,
        DoubleEffect::Unleash,
        DoubleEffect::Iron,
        DoubleEffect::Vanish,
        DoubleEffect::Weaken,
        DoubleEffect::Unbalance,
    ];

    /// The effects a double of `value` offers to an attacker or a defender (PF10, PF13, PF16).
    pub fn offered(attacker: bool, value: u8) -> &'static [DoubleEffect] {
        use DoubleEffect::*;
        match (attacker, value == 6) {
            (true, false) => &[Control, Maneuver, Flaw, Tactical],
            (true, true) => &[Unleash],
            (false, false) => &[Maneuver, Iron, Vanish, Weaken],
            (false, true) => &[Unbalance, Vanish],
        }
    }
}

/// The most effects one side's list in a test holds; a longer chain offers no more (a bound
/// that keeps a fight finite).
pub const MAX_EFFECTS: usize = 16;

/// Effects chosen in one test, in order; serialized as a list of words.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Effects {
    len: u8,
    e: [Option<DoubleEffect>; MAX_EFFECTS],
}

impl Effects {
    /// Adds one; whether there was room.
    pub fn push(&mut self, e: DoubleEffect) -> bool {
        match self.e.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = Some(e);
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Whether another fits.
    pub fn has_room(&self) -> bool {
        (self.len as usize) < MAX_EFFECTS
    }

    /// The effects in order.
    pub fn iter(&self) -> impl Iterator<Item = DoubleEffect> + '_ {
        self.e[..self.len as usize].iter().flatten().copied()
    }

    /// How many times `e` was chosen.
    pub fn count(&self, e: DoubleEffect) -> u8 {
        self.iter().filter(|&x| x == e).count() as u8
    }
}

impl std::fmt::Debug for Effects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Effects {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len as usize))?;
        for e in self.iter() {
            seq.serialize_element(e.word())?;
        }
        seq.end()
    }
}

/// Which test (PF2, PF24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// A psionic duel.
    Duel,
    /// A contact on an open mind.
    Contact,
    /// An ejection of the intruder.
    Eject,
}

/// A tester's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The duel's attacker.
    Attacker,
    /// The duel's defender.
    Defender,
    /// The psionist of a contact or ejection.
    Psionist,
    /// The open mind of a contact or ejection.
    OpenMind,
}

/// Why a pool lost dice (PF5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyWhy {
    /// On the ground (PF21).
    Ground,
    /// An open mind resisting (PF22).
    OpenMind,
    /// A psionist is in his mind (PF23).
    Invaded,
    /// Mental blocks on an ejection (PF18).
    MentalBlock,
    /// The attacker's Loss of control before the throw (PF9).
    LossOfControl,
}

/// One penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Penalty {
    /// Why.
    pub why: PenaltyWhy,
    /// Dice fewer.
    pub dice: u8,
}

/// A pool's penalties, inline; serialized as a list.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Penalties {
    len: u8,
    p: [Option<Penalty>; 5],
}

impl Penalties {
    /// Adds one, if it is more than 0 dice.
    pub fn push(&mut self, why: PenaltyWhy, dice: u8) {
        if dice == 0 {
            return;
        }
        if let Some(slot) = self.p.get_mut(self.len as usize) {
            *slot = Some(Penalty { why, dice });
            self.len += 1;
        }
    }

    /// The dice they take away.
    pub fn total(&self) -> u8 {
        self.iter().map(|p| p.dice).fold(0u8, u8::saturating_add)
    }

    /// The penalties in order.
    pub fn iter(&self) -> impl Iterator<Item = Penalty> + '_ {
        self.p[..self.len as usize].iter().flatten().copied()
    }
}

impl std::fmt::Debug for Penalties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Penalties {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// An initiative pair: `{name: face}`, challenger first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitiativeDice(pub [u8; 2]);

impl Serialize for InitiativeDice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry(&Side::Challenger, &self.0[0])?;
        m.serialize_entry(&Side::Challenged, &self.0[1])?;
        m.end()
    }
}

/// An action of an activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// `/duel`.
    Duel,
    /// `/contact`.
    Contact,
    /// `/effect`.
    Effect,
    /// `/recover`.
    Recover,
    /// `/eject`.
    Eject,
    /// `/move`.
    Move,
}

/// How a test was won (PF6, PF11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WonBy {
    /// The higher result.
    Result,
    /// Equal results: the unkept dice.
    Dice,
    /// Equal results: the attacker's Tactical advantage.
    Tactical,
    /// A full tie: no winner.
    Tie,
}

/// One side of a test event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TestSide {
    /// Who.
    pub name: Side,
    /// The role.
    pub role: Role,
    /// The dice as they finally lay.
    pub faces: Faces,
    /// The dice kept.
    pub kept: Faces,
    /// The score added (power score, aptitude).
    pub score: u8,
    /// Kept sum + score.
    pub result: u8,
    /// The effects chosen, in order.
    pub effects: Effects,
}

/// Why PFP were lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossWhy {
    /// A lost duel.
    Duel,
    /// The backlash of an Unleash, by choice (PF16).
    Backlash,
}

/// Why PFP were spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpendWhy {
    /// A mental effect (PF17).
    Effect,
    /// Keeping a contact (PF26).
    Maintain,
}

/// How a psionist came into a mind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Via {
    /// A won contact test.
    Contact,
    /// A duel that took the loser to 0 PFP (PF15).
    Duel,
}

/// Why a contact ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactEndWhy {
    /// The victim won an ejection.
    Ejected,
    /// `/release`.
    Released,
    /// No PFP to maintain it (PF26).
    Unpaid,
    /// The invader was hurt (PF25).
    Damage,
}

/// A mental effect (PF17–PF20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MentalKind {
    /// Psychic pain: N damage.
    Pain,
    /// Mental block: N penalty dice on ejections (PF18).
    Mental,
    /// Physical blockage: N held actions (PF19).
    Physical,
    /// Puppet: N forced actions (PF20).
    Puppet,
}

impl MentalKind {
    /// The word of commands and events.
    pub fn word(self) -> &'static str {
        match self {
            MentalKind::Pain => "pain",
            MentalKind::Mental => "mental",
            MentalKind::Physical => "physical",
            MentalKind::Puppet => "puppet",
        }
    }
}

/// A puppet's forced action (PF20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PuppetAction {
    /// A hit on itself: 1 damage.
    Strike,
    /// It throws itself to the ground.
    Ground,
}

/// A puppet's forced actions, inline; serialized as a list.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PuppetActions {
    /// How many.
    pub len: u8,
    /// Bit i set: action i is `ground`, else `strike`.
    pub bits: u8,
}

impl PuppetActions {
    /// The actions in order.
    pub fn iter(&self) -> impl Iterator<Item = PuppetAction> + '_ {
        (0..self.len).map(|i| {
            if self.bits & (1 << i) != 0 {
                PuppetAction::Ground
            } else {
                PuppetAction::Strike
            }
        })
    }
}

impl std::fmt::Debug for PuppetActions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for PuppetActions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Why damage was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageWhy {
    /// Psychic pain.
    Pain,
    /// A puppet's strike.
    Puppet,
    /// A Tactical advantage that won (PF11).
    Tactical,
    /// An Unleash's 1 damage (PF16).
    Unleash,
    /// A backlash chosen as health (PF16).
    Backlash,
}

/// Why a double test was thrown (PF7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleTestWhy {
    /// Unbalance (the defender's 6-6, or an Unleash on the defender).
    Unbalance,
    /// An Unleash's backlash on the attacker.
    Backlash,
}

/// Why a fighter went to the ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroundWhy {
    /// A failed Unbalance test.
    Unbalance,
    /// A puppet's forced action.
    Puppet,
}

/// Why a fight ended (PF32, PF33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Health 0.
    Knockout,
    /// `/yield`.
    Yield,
    /// Round 10 ended between two psionists: a draw.
    Rounds,
    /// Round 10 ended with an open mind standing: it wins.
    Resisted,
}

impl EndReason {
    /// The word of the events.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Knockout => "knockout",
            EndReason::Yield => "yield",
            EndReason::Rounds => "rounds",
            EndReason::Resisted => "resisted",
        }
    }
}

/// One fighter as the fight starts (the `sheets` of `fight_started`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SheetEntry {
    /// Who.
    pub name: Side,
    /// A psionist or an open mind.
    pub psionist: bool,
    /// Power.
    pub power: u8,
    /// Aptitude.
    pub aptitude: u8,
    /// Health now.
    pub health: u8,
}

fn is_none<T>(v: &Option<T>) -> bool {
    v.is_none()
}

/// Something that happened, with the page's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Event {
    /// The fight began.
    FightStarted {
        challenger: Side,
        challenged: Side,
        sheets: [SheetEntry; 2],
    },
    /// A psionist's starting PFP (PF28).
    PfpRolled { name: Side, die: u8, pfp: u8 },
    /// An initiative pair (PF4); `high` null when equal.
    Initiative {
        round: u32,
        dice: InitiativeDice,
        high: Option<Side>,
    },
    /// A side's activation began.
    Activation { round: u32, name: Side, ap: u8 },
    /// A side's activation ended.
    ActivationEnded { round: u32, name: Side, ap: u8 },
    /// An action taken.
    Action {
        name: Side,
        action: ActionKind,
        ap: u8,
        psionic_actions: u8,
    },
    /// AP added as dice to a test.
    DiceAdded {
        name: Side,
        test: TestKind,
        dice: u8,
        ap: u8,
    },
    /// A pool thrown.
    Pool {
        name: Side,
        test: TestKind,
        role: Role,
        base: u8,
        added: u8,
        penalties: Penalties,
        size: u8,
        faces: Faces,
    },
    /// A duel tester's keep.
    Keep {
        name: Side,
        kept: Faces,
        double: bool,
        effect: Option<DoubleEffect>,
        rekeep: bool,
    },
    /// A Maneuver's reroll.
    Reroll {
        name: Side,
        by: Side,
        old: u8,
        new: u8,
        faces: Faces,
    },
    /// Loss of control after the throw (PF9).
    DieLost {
        name: Side,
        die: u8,
        faces: Faces,
        kept: Faces,
    },
    /// Iron Will's die (PF12).
    IronWill { name: Side, die: u8, shield: u8 },
    /// Weakening of will (PF14).
    Weakened {
        name: Side,
        by: Side,
        until_round: u32,
        power_score: u8,
    },
    /// A test compared.
    Test {
        kind: TestKind,
        round: u32,
        attacker: Side,
        defender: Side,
        first: Side,
        sides: [TestSide; 2],
        winner: Option<Side>,
        by: WonBy,
        difference: u8,
    },
    /// PFP lost.
    PfpLost {
        name: Side,
        why: LossWhy,
        #[serde(skip_serializing_if = "is_none")]
        difference: Option<u8>,
        #[serde(skip_serializing_if = "is_none")]
        flaw: Option<u8>,
        #[serde(skip_serializing_if = "is_none")]
        unleash: Option<Faces>,
        shield: u8,
        lost: u8,
        pfp: u8,
    },
    /// PFP spent.
    PfpSpent {
        name: Side,
        amount: u8,
        why: SpendWhy,
        pfp: u8,
    },
    /// A psionist at 0 PFP: an open mind.
    OpenMind { name: Side },
    /// A psionist entered a mind.
    Contact {
        psionist: Side,
        victim: Side,
        via: Via,
    },
    /// A contact test lost.
    ContactBlocked { psionist: Side, victim: Side },
    /// A contact ended.
    ContactEnded {
        psionist: Side,
        victim: Side,
        why: ContactEndWhy,
    },
    /// A mental effect.
    Effect {
        psionist: Side,
        victim: Side,
        effect: MentalKind,
        strength: u8,
        cost: u8,
        free: bool,
        actions: PuppetActions,
    },
    /// Physical damage.
    Damage {
        name: Side,
        amount: u8,
        why: DamageWhy,
        #[serde(skip_serializing_if = "is_none")]
        die: Option<u8>,
        health: u8,
    },
    /// A test "by rolling a double" (PF7).
    DoubleTest {
        name: Side,
        why: DoubleTestWhy,
        size: u8,
        penalties: Penalties,
        faces: Faces,
        success: bool,
    },
    /// On the ground.
    Grounded { name: Side, why: GroundWhy },
    /// Stood up.
    StoodUp { name: Side },
    /// Mental Disappearance (PF13).
    Vanished {
        name: Side,
        attacker: Side,
        until_round: u32,
    },
    /// Held actions taken (PF19).
    ApBlocked {
        name: Side,
        by: Side,
        amount: u8,
        ap: u8,
        hold_left: u8,
    },
    /// A contact kept.
    Maintained {
        psionist: Side,
        victim: Side,
        pfp: u8,
    },
    /// PFP recovered at the round's end (PF27).
    PfpRecovered {
        name: Side,
        actions: u8,
        gained: u8,
        pfp: u8,
    },
    /// A round ended.
    RoundEnded { round: u32 },
    /// The fight ended; `winner` and `loser` null for a draw.
    FightEnded {
        winner: Option<Side>,
        loser: Option<Side>,
        reason: EndReason,
        health: [u8; 2],
        pfp: [u8; 2],
    },
}
