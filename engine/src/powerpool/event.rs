//! Events: what happened in a psionic combat, as data, with the page's field names. Creatures
//! are named by their seat (their place in the listing order); the bot swaps in their names
//! ([`NAME_FIELDS`]) and adds `"game": "powerpool"`. No event holds a heap value, so a
//! simulation that discards them allocates nothing.

use super::modes::{AttackMode, DefenseMode, Levels};
use serde::{Deserialize, Serialize};

/// A creature's place in the listing order: the challenger, its allies as named, the foes as
/// named.
pub type Seat = u8;

/// The fields of an event that hold seats (one, or a list, or `sides`' two lists), for the
/// renderer that names them.
pub const NAME_FIELDS: &[&str] = &[
    "creature",
    "attacker",
    "defenders",
    "controller",
    "creatures",
    "puppet",
    "winners",
    "losers",
    "order",
    "of",
    "by",
    "sides",
];

/// A few seats (at most six): a list in the events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats {
    n: u8,
    s: [Seat; 6],
}

impl Seats {
    /// No seat.
    pub const EMPTY: Seats = Seats { n: 0, s: [0; 6] };

    /// One seat.
    pub fn one(seat: Seat) -> Seats {
        let mut s = Seats::EMPTY;
        s.push(seat);
        s
    }

    /// Adds a seat (beyond six it is dropped: no list here is longer).
    #[inline]
    pub fn push(&mut self, seat: Seat) {
        if (self.n as usize) < self.s.len() {
            self.s[self.n as usize] = seat;
            self.n += 1;
        }
    }

    /// The seats, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Seat] {
        &self.s[..self.n as usize]
    }

    /// How many.
    #[inline]
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether it is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Whether `seat` is in it.
    #[inline]
    pub fn contains(&self, seat: Seat) -> bool {
        self.as_slice().contains(&seat)
    }

    /// Removes `seat`, keeping the order of the others.
    pub fn remove(&mut self, seat: Seat) {
        let kept: Seats = self
            .as_slice()
            .iter()
            .copied()
            .filter(|&s| s != seat)
            .collect();
        *self = kept;
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut s = Seats::EMPTY;
        iter.into_iter().for_each(|x| s.push(x));
        s
    }
}

impl Serialize for Seats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Seats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<Seat>::deserialize(d)?.into_iter().collect())
    }
}

/// The faces of one pool roll (at most 20 dice): a list in the events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Faces {
    n: u8,
    f: [u8; 20],
}

impl Faces {
    /// Adds a face.
    #[inline]
    pub fn push(&mut self, face: u8) {
        if (self.n as usize) < self.f.len() {
            self.f[self.n as usize] = face;
            self.n += 1;
        }
    }

    /// The faces, in the order rolled.
    pub fn as_slice(&self) -> &[u8] {
        &self.f[..self.n as usize]
    }
}

impl Serialize for Faces {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

/// Why a turn was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skipped {
    /// Under control and not possessed, or possessed by one who cannot act (PC21, PC25).
    Controlled,
    /// At 0 HP or below (PC30).
    Unconscious,
    /// Stunned (PC13).
    Stunned,
    /// Dazed by Imagination Swarm (PC28, PC13).
    Dazed,
}

/// A defender's part in an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Named by the attack (after PC23).
    Target,
    /// An ally joining with Imagination Swarm (PC28).
    Joined,
    /// A non-psionic ally drawn in by Imagination Swarm (PC28).
    Drawn,
}

/// Which side of an exchange rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RollSide {
    /// The attacker.
    Attack,
    /// A defender.
    Defense,
}

/// A roll's or an exchange's outcome for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Versus {
    /// Its side's total is higher.
    Won,
    /// Lower.
    Lost,
    /// Equal (PC14).
    Tie,
}

/// Who won an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeResult {
    /// The attacker (PC16).
    Attacker,
    /// The defenders (PC17).
    Defender,
    /// Equal totals (PC14).
    Tie,
    /// A failed Blank Mind save (PC18).
    BlankMind,
}

/// What a save was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveWhy {
    /// The attacker against Blank Mind (PC18).
    BlankMind,
    /// A puppet ordered to yield (PC25).
    Possession,
}

/// A condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Loses its next turn, defends with Labyrinth only (PC13).
    Stunned,
    /// Dazed: an attacker to the round's end (PC10), a drawn ally for a turn (PC28).
    Dazed,
    /// Flees what it fears (PC29).
    Frightened,
    /// At 0 HP or below (PC30).
    Unconscious,
}

/// Why a condition arose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConditionWhy {
    /// Barrier Mantra turned a control into a stun (PC16).
    BarrierMantra,
    /// The attacker lost (PC17).
    LostAttack,
    /// The attacker failed its Blank Mind save (PC18).
    BlankMind,
    /// It attacked (PC10).
    Attacked,
    /// Drawn by Imagination Swarm (PC28).
    ImaginationSwarm,
    /// Subconscious Subversion (PC29).
    Subversion,
    /// Synaptic Overload's damage (PC30).
    SynapticOverload,
}

/// How long a condition lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// The round's end (PC10).
    EndOfRound,
    /// The end of its next turn, which it loses (PC13).
    EndOfNextTurn,
    /// The fight's end (PC29).
    EndOfFight,
}

/// Why a die was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossWhy {
    /// A lost attack (PC17).
    LostAttack,
    /// A failed Blank Mind save (PC18).
    BlankMind,
}

/// Why a control ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndWhy {
    /// Its controller released it (PC22).
    Released,
    /// Not kept on a due turn (PC22).
    Lapsed,
    /// Its controller lost an attack (PC17, PC18).
    ControllerLost,
    /// Its controller fell under control (PC21).
    ControllerControlled,
    /// Its controller or its creature yielded (PC32).
    Yielded,
    /// The fight ended (PC36).
    FightEnded,
}

/// A puppet's order (PC25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuppetOrder {
    /// Do nothing.
    Pass,
    /// Yield, endangering the puppet: it saves.
    Yield,
}

/// The result of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightOutcome {
    /// A side won.
    Win,
    /// A draw.
    Draw,
}

/// Why a fight ended (PC31, PC32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The losing side's last free creature fell under control.
    Control,
    /// ... went unconscious.
    Unconscious,
    /// ... yielded.
    Yield,
    /// A round in which someone could have attacked and nobody did.
    NoAttack,
    /// The round limit.
    RoundLimit,
}

impl EndReason {
    /// The word, as the events write it.
    pub fn word(self) -> &'static str {
        match self {
            EndReason::Control => "control",
            EndReason::Unconscious => "unconscious",
            EndReason::Yield => "yield",
            EndReason::NoAttack => "no_attack",
            EndReason::RoundLimit => "round_limit",
        }
    }
}

/// Something that happened, with the page's field names.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The sides, in listing order.
    FightStarted {
        /// The two lists.
        sides: [Seats; 2],
    },
    /// A creature named in a challenge declined (the bot's; no fight event).
    ChallengeDeclined {
        /// Who.
        creature: Seat,
    },
    /// An initiative roll (PC7).
    Initiative {
        /// Who.
        creature: Seat,
        /// The d20.
        roll: u8,
        /// 1, or 2 and more for a re-roll after a tie.
        #[serde(rename = "try")]
        attempt: u8,
    },
    /// The fixed turn order (PC7).
    TurnOrder {
        /// Highest first.
        order: Seats,
    },
    /// A round begins.
    RoundStarted {
        /// Its number.
        round: u8,
    },
    /// A creature's turn.
    Turn {
        /// The round.
        round: u8,
        /// Whose turn.
        creature: Seat,
        /// Why it is lost, if it is.
        skipped: Option<Skipped>,
        /// The possessor, on a puppet's turn.
        by: Option<Seat>,
    },
    /// A pass.
    Pass {
        /// Who.
        creature: Seat,
        /// Herald passed for it (PC8).
        auto: bool,
    },
    /// An attack (PC9).
    Attack {
        /// Who.
        attacker: Seat,
        /// The mode.
        mode: AttackMode,
        /// As named.
        named: Seats,
        /// After PC23.
        defenders: Seats,
        /// Dice rolled.
        dice: u8,
        /// Their sides, after Stab.
        die: u8,
        /// Subversion frightens (PC29).
        frighten: bool,
    },
    /// A defender's choice (PC11, PC12).
    Defense {
        /// Who.
        creature: Seat,
        /// Its part.
        role: Role,
        /// `None` for none.
        mode: Option<DefenseMode>,
        /// `false`: defenceless (PC12).
        able: bool,
        /// Dice rolled.
        dice: u8,
        /// Their sides, after Pinnacle.
        die: u8,
        /// Spells sacrificed.
        spells: Levels,
        /// Their total level (PC15).
        bonus: u32,
    },
    /// A saving throw.
    Save {
        /// Who saves.
        creature: Seat,
        /// What for.
        why: SaveWhy,
        /// The d20.
        roll: u8,
        /// Its save.
        target: u8,
        /// Roll ≥ target.
        success: bool,
    },
    /// One creature's pool roll.
    PoolRoll {
        /// Who.
        creature: Seat,
        /// Attack or defense.
        side: RollSide,
        /// The die's sides.
        die: u8,
        /// The faces, in order.
        faces: Faces,
        /// Their sum.
        sum: u32,
        /// Spells' bonus.
        bonus: u32,
        /// Sum + bonus.
        total: u32,
        /// Its side's total.
        side_total: u32,
        /// The other side's.
        versus: u32,
        /// Its side's result.
        result: Versus,
    },
    /// An exchange's result.
    Exchange {
        /// Who attacked.
        attacker: Seat,
        /// Every member.
        defenders: Seats,
        /// The attack total (0 after a failed Blank Mind save).
        attack_total: u32,
        /// The defense total, `None` after a failed Blank Mind save.
        defense_total: Option<u32>,
        /// Who won.
        result: ExchangeResult,
    },
    /// A creature falls under control (PC16, PC21).
    Controlled {
        /// Who.
        creature: Seat,
        /// By whom.
        controller: Seat,
        /// The mode.
        mode: AttackMode,
        /// The control's id.
        group: u16,
    },
    /// A condition arises.
    Condition {
        /// Who.
        creature: Seat,
        /// Which.
        condition: Condition,
        /// Why.
        why: ConditionWhy,
        /// How long.
        until: Option<Until>,
        /// Whom it fears.
        of: Option<Seat>,
    },
    /// Damage (PC30).
    Damage {
        /// Who.
        creature: Seat,
        /// How much.
        amount: u32,
        /// HP after.
        hp: i32,
        /// Why: always Synaptic Overload.
        why: &'static str,
    },
    /// A die lost until rest (PC17, PC18).
    DieLost {
        /// Who.
        creature: Seat,
        /// Why.
        why: LossWhy,
        /// The current pool after.
        pool: u8,
        /// Dice lost until rest.
        lost: u8,
    },
    /// Dice dedicated to a control (PC22).
    Dedicated {
        /// Who.
        controller: Seat,
        /// The control's creatures.
        creatures: Seats,
        /// Dice dedicated.
        dice: u8,
        /// The pool after.
        pool: u8,
    },
    /// A control kept with the turn's action (PC22).
    Maintained {
        /// Who.
        controller: Seat,
        /// The control's creatures.
        creatures: Seats,
    },
    /// A control ends.
    ControlEnded {
        /// Whose.
        controller: Seat,
        /// Its creatures.
        creatures: Seats,
        /// Why.
        why: EndWhy,
        /// Dedicated dice back in the pool.
        returned: u8,
        /// Dedicated dice lost until rest (PC21).
        expended: u8,
        /// The controller's pool after.
        pool: u8,
    },
    /// A possessor's order (PC25).
    PuppetOrder {
        /// The possessor.
        controller: Seat,
        /// The puppet.
        puppet: Seat,
        /// The order.
        order: PuppetOrder,
    },
    /// A creature leaves the fight (PC32, PC25).
    Yielded {
        /// Who.
        creature: Seat,
        /// A puppet that failed its save.
        forced: bool,
    },
    /// The end.
    FightEnded {
        /// Win or draw.
        result: FightOutcome,
        /// The winning side's creatures.
        winners: Seats,
        /// The losing side's (and the yielded).
        losers: Seats,
        /// Why.
        reason: EndReason,
        /// Rounds fought.
        rounds: u8,
    },
}
