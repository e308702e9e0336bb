//! What a Psi Morphs fight reports, with the page's types and field names. Fighters are named
//! by [`Side`]; the bot writes their names in the same fields (every field that names a
//! fighter is listed in [`NAME_FIELDS`]).

use super::check::Chain;
use super::sheet::{Attribute, Group, Isp};
use super::tables::{ForceId, ForceType};
use crate::game::Side;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// The fields whose values are fighters ([`Side`]s, or lists of them), for the bot to name.
pub const NAME_FIELDS: &[&str] = &[
    "name",
    "challenger",
    "challenged",
    "order",
    "quickness",
    "attacker",
    "defender",
    "a",
    "b",
    "winner",
    "loser",
    "against",
    "target",
    "by",
    "on",
    "opposing",
];

/// A fighter as `fight_started` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideStart {
    /// Who.
    pub name: Side,
    /// The player; `None` for an NPC.
    pub owner: Option<String>,
    /// Whether Herald decides for it.
    pub npc: bool,
    /// Hit points now.
    pub hp: i32,
    /// The maximum.
    pub max_hp: i32,
    /// PA FP now.
    pub pa_fp: u8,
    /// PE FP now.
    pub pe_fp: u8,
    /// ISPs now.
    pub isp: Isp,
}

/// Why a turn was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// An enemy's Lightning Quickness in round 1 (PM10).
    LightningQuickness,
}

/// What ISPs were spent for (PM13, PM14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IspPurpose {
    /// Added to a check.
    Bonus,
    /// A redo.
    Redo,
}

/// What a check is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// The attacker's check.
    Attack,
    /// The defender's check.
    Defense,
    /// A force's check.
    Force,
    /// The resistance to a force.
    Resist,
    /// A GM's check outside fights (PM27).
    Gm,
}

/// Which ruling decided a tie (PM6, PM7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// The player wins a tie against an NPC (PM6).
    PlayerVsNpc,
    /// A tie between players has no winner (PM7).
    Players,
}

/// Why a maintained force ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndedReason {
    /// `/drop` (PM22).
    Dropped,
    /// `/breakfree` (PM22).
    BrokeFree,
    /// Its user fell unconscious or died (PM24).
    Unconscious,
    /// The fight ended (PM22).
    FightOver,
}

/// Why a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A morph at 0 hp or less (PM8).
    Unconscious,
    /// A morph below −max hp against an NPC (PM9).
    Died,
    /// `/yield` (PM11).
    Yield,
    /// After the last round (PM12).
    RoundLimit,
}

impl EndReason {
    /// The word of events and the books.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Unconscious => "unconscious",
            EndReason::Died => "died",
            EndReason::Yield => "yield",
            EndReason::RoundLimit => "round_limit",
        }
    }
}

/// An attribute's change, serialized as `{attribute: n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modifier {
    /// The attribute.
    pub attribute: Attribute,
    /// The change.
    pub amount: i8,
}

impl Serialize for Modifier {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.attribute.token(), &self.amount)?;
        m.end()
    }
}

/// A check as rolled, with what it was against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckEvent {
    /// Who rolled.
    pub name: Side,
    /// What for.
    pub purpose: Purpose,
    /// The skill group.
    pub group: Group,
    /// The attribute.
    pub attribute: Attribute,
    /// Its effective value (PM23).
    pub attribute_value: u8,
    /// Half of it, rounded up.
    pub half: i32,
    /// Level.
    pub level: u8,
    /// Ranks in the group.
    pub ranks: u8,
    /// Master ranks in the group.
    pub master: u8,
    /// Bonus ISPs.
    pub isp: u16,
    /// The reroll number T (PM3).
    pub threshold: u8,
    /// Die 1's faces, die 2's faces.
    pub dice: [Chain; 2],
    /// Their sum.
    pub dice_total: u32,
    /// Level + ranks + half + ISPs.
    pub modifier: i32,
    /// The total.
    pub total: i32,
    /// The difficulty, for a force's check or a GM's.
    pub difficulty: Option<i32>,
    /// The other side of an opposed check.
    pub opposing: Option<Side>,
    /// Its total.
    pub opposing_total: Option<i32>,
    /// Against the difficulty, else whether it wins the opposed check.
    pub success: bool,
    /// 1, then 2+ after redos.
    pub attempt: u8,
}

/// Something that happened in a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A morph was full again at the fight's start (PM28).
    Recovered {
        /// Who.
        name: Side,
        /// Hit points.
        hp: i32,
        /// PA FP.
        pa_fp: u8,
        /// PE FP.
        pe_fp: u8,
        /// ISPs.
        isp: Isp,
    },
    /// The fight begins.
    FightStarted {
        /// The challenger.
        challenger: Side,
        /// The challenged.
        challenged: Side,
        /// Between two players.
        pvp: bool,
        /// The order of turns (PM5).
        order: [Side; 2],
        /// The NPCs with Lightning Quickness (PM10).
        quickness: Vec<Side>,
        /// Both, challenger first.
        sides: [SideStart; 2],
    },
    /// A round begins.
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// A morph's turn.
    Turn {
        /// Whose.
        name: Side,
        /// The round.
        round: u32,
    },
    /// A morph's turn is lost (PM10).
    TurnSkipped {
        /// Whose.
        name: Side,
        /// The round.
        round: u32,
        /// Why.
        reason: SkipReason,
    },
    /// `/attack`.
    AttackDeclared {
        /// The attacker.
        attacker: Side,
        /// The defender.
        defender: Side,
        /// Bonus ISPs announced.
        isp: u16,
    },
    /// `/defend`.
    DefenseChosen {
        /// The defender.
        name: Side,
        /// Combat or Misc Physical.
        group: Group,
        /// Bonus ISPs.
        isp: u16,
    },
    /// `/resist`.
    ResistChosen {
        /// The resister.
        name: Side,
        /// The group.
        group: Group,
        /// Bonus ISPs.
        isp: u16,
    },
    /// ISPs spent.
    IspSpent {
        /// Whose.
        name: Side,
        /// Bonus or redo.
        purpose: IspPurpose,
        /// How many.
        amount: u16,
        /// By type.
        taken: Isp,
        /// What is left, by type.
        left: Isp,
    },
    /// A check.
    Check(CheckEvent),
    /// An opposed check's outcome (PM6, PM7).
    Opposed {
        /// An attack or a resistance.
        purpose: Purpose,
        /// The attacker or the force's user.
        a: Side,
        /// Their total.
        a_total: i32,
        /// The defender or the resister.
        b: Side,
        /// Their total.
        b_total: i32,
        /// The winner; `None` on a tie between players.
        winner: Option<Side>,
        /// Equal totals.
        tie: bool,
        /// The ruling a tie was decided by.
        tie_rule: Option<TieRule>,
        /// The side the outcome goes against.
        against: Side,
        /// The force's difficulty, for a resistance.
        difficulty: Option<i32>,
    },
    /// `/keep`.
    Kept {
        /// Who kept.
        name: Side,
        /// The total kept.
        total: i32,
    },
    /// An attack hits.
    Hit {
        /// The attacker.
        attacker: Side,
        /// The defender.
        defender: Side,
        /// The attacker's total.
        attacker_total: i32,
        /// The defender's total.
        defender_total: i32,
        /// The attacker's effective strength.
        strength: u8,
        /// At least twice the defender's total (PM25).
        critical: bool,
        /// Damage dealt.
        damage: i32,
        /// The defender's hp before.
        hp_before: i32,
        /// And after.
        hp_after: i32,
        /// The defender's maximum.
        max_hp: i32,
    },
    /// An attack misses.
    Miss {
        /// The attacker.
        attacker: Side,
        /// The defender.
        defender: Side,
        /// The attacker's total.
        attacker_total: i32,
        /// The defender's total.
        defender_total: i32,
    },
    /// `/pass`.
    Passed {
        /// Who.
        name: Side,
    },
    /// `/yield`.
    Yielded {
        /// Who.
        name: Side,
    },
    /// `/force`: the FP are spent (PM18).
    ForceDeclared {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// PA or PE.
        force_type: ForceType,
        /// On whom.
        target: Side,
        /// Its difficulty.
        difficulty: i32,
        /// FP spent.
        fp_cost: u8,
        /// FP of that kind left.
        fp_left: u8,
        /// Bonus ISPs.
        isp: u16,
    },
    /// A force's check fell short.
    ForceFailed {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// The user's total.
        total: i32,
        /// The difficulty.
        difficulty: i32,
    },
    /// The target resisted (PM21).
    ForceResisted {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// The target.
        target: Side,
    },
    /// A force's damage.
    ForceDamage {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// The target.
        target: Side,
        /// The damage.
        damage: i32,
        /// The target's maximum.
        max_hp: i32,
        /// Before.
        hp_before: i32,
        /// After.
        hp_after: i32,
    },
    /// A force's healing.
    Healed {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// The target.
        target: Side,
        /// Hit points restored.
        amount: i32,
        /// Before.
        hp_before: i32,
        /// After.
        hp_after: i32,
    },
    /// A modifier is now maintained (PM22, PM23).
    Maintained {
        /// The user.
        name: Side,
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// The target.
        target: Side,
        /// The change.
        modifier: Modifier,
        /// The round it began.
        since_round: u32,
        /// Forces of its type the user maintains now.
        maintained: u8,
        /// The user's limit for that type.
        limit: u8,
        /// The target's other forces of that attribute and sign.
        same_type: Vec<ForceId>,
        /// The attribute.
        attribute: Attribute,
        /// The target's effective attribute now.
        effective: u8,
    },
    /// A maintained force ended.
    ForceEnded {
        /// Its id.
        force: ForceId,
        /// Its name.
        force_name: String,
        /// Its user.
        by: Side,
        /// Its target.
        on: Side,
        /// Why.
        reason: EndedReason,
        /// The attribute.
        attribute: Attribute,
        /// The target's effective attribute now.
        effective: u8,
    },
    /// Three quiet rounds: every used force is back (PM20).
    ForcesAvailable {
        /// Whose.
        name: Side,
        /// The round that ended.
        round: u32,
        /// The forces back.
        forces: Vec<ForceId>,
    },
    /// At 0 hp or less (PM8).
    Unconscious {
        /// Who.
        name: Side,
        /// Hit points.
        hp: i32,
        /// The maximum.
        max_hp: i32,
    },
    /// Below −max hp against an NPC (PM9).
    Died {
        /// Who.
        name: Side,
        /// Hit points.
        hp: i32,
        /// The maximum.
        max_hp: i32,
    },
    /// The fight is over.
    FightEnded {
        /// The winner; `None` on a draw.
        winner: Option<Side>,
        /// The loser; `None` on a draw.
        loser: Option<Side>,
        /// Why.
        reason: EndReason,
        /// A draw.
        draw: bool,
        /// Rounds fought.
        rounds: u32,
    },
}
