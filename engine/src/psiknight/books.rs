//! The books: Honor and Prestige, spending, land, titles, allegiance, hostility and ransom, from
//! "The Rewards of Honor" to "The Art of War", as decided by R28–R33.
//!
//! Everything here is a pure function of plain values. The bot loads the state an operation needs
//! (a balance and a skill value, or a [`Realm`] view of the knights), calls the operation inside
//! one database transaction, and writes what comes back: either a typed refusal whose Display is
//! the one line to show the player, or a [`Changes`]: ledger [`Entry`] rows (HP and PP deltas,
//! each with a [`Reason`] naming its rule) and structural [`Fact`]s (landed, lord, rank, skill,
//! hostility, offers, captivity). [`Realm::apply`] performs the same changes on the in-memory
//! view, so a caller (or a test) can chain operations exactly as the database would see them.
//!
//! Points are counted in half points ([`Points`]) so the landed split of R29 and the halvings of
//! R33 never round anything away.
//!
//! # Rulings made here
//!
//! Where the rules and R28–R33 leave a question open, this module decides it as follows.
//!
//! - **R100 Halving.** A knight who forfeits half their PP keeps half rounded down to the half
//!   point, `floor(halves / 2)` half points, and loses the rest: 5.5 PP keeps 2.5 and forfeits 3;
//!   0.5 PP keeps 0 and forfeits 0.5. A balance of 0 or less forfeits nothing. See
//!   [`Points::half`] and [`Points::forfeit_half`].
//! - **R101 Odd split.** A landed award of an odd number of half points gives the odd half to
//!   HP (PP gets the half rounded down). Every award of the rules is a whole HP, so this only
//!   matters for awards an admin makes by hand.
//! - **R102 Titles climb.** When a knight asks, the monarch grants the highest rank the knight is
//!   eligible for, climbing one rank at a time with every check of R32 applied at each step: a
//!   landed knight counting 100 PP goes straight to Viscount. Asking twice never gives more than
//!   asking once.
//! - **R103 The lord's rank.** A vassal of a player noble reaches any rank at or above the lord's
//!   only with personal PP at least the lord's personal PP (reaching a higher rank passes through
//!   the lord's).
//! - **R104 Grants to one's own vassal.** A noble may grant lands to an unlanded knight already
//!   sworn to them (the number of vassals does not change); a knight sworn to another lord cannot
//!   receive lands from a player noble. The 5 PP per vassal floor counts direct vassals.
//! - **R105 No oath between hostiles.** Allegiance cannot be sworn between two knights who are
//!   hostile; they end the hostility first.
//! - **R106 Unapproved hostility.** A vassal who declares hostility without the lord's approval is
//!   not refused: it is a refused duty, which the lord may answer with [`dismiss`]. Declaring
//!   hostility against one's own lord or vassal is always the oathbreaking break of allegiance.
//! - **R107 Ransom terms.** The victor may ask the customary ransom or less, never more, and never
//!   less than what has already been paid; asking exactly what has been paid (or 0) releases the
//!   captive. A payment may not exceed what is still owed. Payments made before the victor frees
//!   the captive are kept.
//! - **R108 The vassal's duty to ransom the lord** is met by a vassal who pays toward it and sees
//!   the ransom paid in full, or by a non-noble vassal who pays at least 4 PP toward it. Meeting it
//!   uses up the once of "ransom the lord once"; a vassal who paid nothing did not use it.
//! - **R109 Death** ends the dead knight's allegiances (theirs and their vassals'), hostilities and
//!   pending offers.
//! - **R110 The practice limit** counts practice awards: each is 1 HP before the landed split, so a
//!   landed knight's 0.5 HP + 0.5 PP counts as one of the four.

use super::knight::{PsiSkill, Rank, Skill, Style};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;
use thiserror::Error;

// ---------------------------------------------------------------------------------------------
// Points
// ---------------------------------------------------------------------------------------------

/// An amount of Honor or Prestige, counted in half points so that the landed split (R29) and the
/// halvings of R33 lose nothing.
///
/// Displays as `2`, `1.5` or `-0.5`, and serializes as a JSON number (`2`, `1.5`). Arithmetic
/// saturates at the ends of `i64` rather than overflowing, so no input can make it panic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Points(i64);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);

    /// `n` whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n.saturating_mul(2))
    }

    /// `n` half points: `from_halves(3)` is 1.5.
    pub const fn from_halves(n: i64) -> Points {
        Points(n)
    }

    /// The amount in half points: 1.5 is 3.
    pub const fn halves(self) -> i64 {
        self.0
    }

    /// Half of this amount, rounded down to the half point (R100): 5.5 halves to 2.5, 5 to 2.5,
    /// 0.5 to 0, and -0.5 to -0.5 (down, not toward zero).
    pub const fn half(self) -> Points {
        Points(self.0.div_euclid(2))
    }

    /// What a knight with this balance loses by forfeiting half their PP (R100): the balance less
    /// the half kept, so 5.5 forfeits 3 and 5 forfeits 2.5; nothing when the balance is 0 or less.
    pub const fn forfeit_half(self) -> Points {
        if self.0 <= 0 {
            Points::ZERO
        } else {
            Points(self.0 - self.0.div_euclid(2))
        }
    }

    /// True above zero.
    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }

    /// True below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0.saturating_sub(rhs.0))
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(self.0.saturating_neg())
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        *self = *self + rhs;
    }
}

impl SubAssign for Points {
    fn sub_assign(&mut self, rhs: Points) {
        *self = *self - rhs;
    }
}

impl Mul<i64> for Points {
    type Output = Points;
    fn mul(self, rhs: i64) -> Points {
        Points(self.0.saturating_mul(rhs))
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // unsigned_abs so that even i64::MIN half points prints without overflow.
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs % 2 == 1 {
            write!(f, "{sign}{}.5", abs / 2)
        } else {
            write!(f, "{sign}{}", abs / 2)
        }
    }
}

/// Text that is not a number of whole or half points.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a number of points; use whole or half points, like 3 or 1.5")]
pub struct PointsParseError(pub String);

impl FromStr for Points {
    type Err = PointsParseError;
    /// `3`, `1.5`, `-0.5`, `+2`, `2.0`, `2.50`; anything finer than a half point is refused.
    fn from_str(s: &str) -> Result<Points, PointsParseError> {
        let bad = || PointsParseError(s.to_string());
        let t = s.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (whole, frac) = match digits.split_once('.') {
            Some((w, f)) => (w, f),
            None => (digits, ""),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let odd = match frac.trim_end_matches('0') {
            "" => 0,
            "5" => 1,
            _ => return Err(bad()),
        };
        let n: i64 = whole.parse().map_err(|_| bad())?;
        let halves = n
            .checked_mul(2)
            .and_then(|h| h.checked_add(odd))
            .ok_or_else(bad)?;
        Ok(Points(if negative { -halves } else { halves }))
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Whole amounts as integers (`2`, not `2.0`); half points as `1.5`.
        if self.0 % 2 == 0 {
            serializer.serialize_i64(self.0 / 2)
        } else {
            serializer.serialize_f64(self.0 as f64 / 2.0)
        }
    }
}

struct PointsVisitor;

impl Visitor<'_> for PointsVisitor {
    type Value = Points;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number of whole or half points, like 3 or 1.5")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Points, E> {
        v.checked_mul(2)
            .map(Points)
            .ok_or_else(|| E::custom("points out of range"))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Points, E> {
        i64::try_from(v)
            .ok()
            .and_then(|v| v.checked_mul(2))
            .map(Points)
            .ok_or_else(|| E::custom("points out of range"))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Points, E> {
        let h = v * 2.0;
        // The bounds keep the cast exact; 2^62 half points is far beyond any realm's books.
        if !h.is_finite() || h.fract() != 0.0 || h.abs() > 4.611_686_018_427_388e18 {
            return Err(E::custom(format!(
                "{v} is not a number of whole or half points"
            )));
        }
        Ok(Points(h as i64))
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        deserializer.deserialize_any(PointsVisitor)
    }
}

// ---------------------------------------------------------------------------------------------
// Knights, realms, changes
// ---------------------------------------------------------------------------------------------

/// The id of a knight, as the bot's database knows it.
pub type KnightId = i64;

/// What the books know of one knight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    /// The knight's name, for the messages of refusals.
    pub name: String,
    /// Sir or Dame, for the titles in messages.
    pub style: Style,
    /// Honor Points.
    pub hp: Points,
    /// Prestige Points (personal).
    pub pp: Points,
    /// Holds a grant of lands (R31).
    pub landed: bool,
    /// Noble rank (R32).
    pub rank: Rank,
    /// The player noble this knight owes allegiance to; `None` means only the monarch.
    pub lord: Option<KnightId>,
    /// This vassal has already raised a ransom for their present lord, and cannot be required to
    /// a second time (R33, R108). Cleared whenever the lord changes.
    pub ransomed_lord: bool,
}

impl Holding {
    /// A new knight: 0 HP, 0 PP, unlanded, untitled, sworn only to the monarch (R3).
    pub fn new(name: impl Into<String>, style: Style) -> Holding {
        Holding {
            name: name.into(),
            style,
            hp: Points::ZERO,
            pp: Points::ZERO,
            landed: false,
            rank: Rank::Knight,
            lord: None,
            ransomed_lord: false,
        }
    }

    /// "Sir Alan", "Baroness Brenna", "Earl Cai".
    pub fn styled(&self) -> String {
        format!("{} {}", self.rank.title(self.style), self.name)
    }

    /// A Baron or higher: may grant lands and take vassals.
    pub fn is_noble(&self) -> bool {
        self.rank >= Rank::Baron
    }

    /// Landed or noble: may declare hostility (R33).
    pub fn may_declare_hostility(&self) -> bool {
        self.landed || self.is_noble()
    }
}

/// A knight id that is not in the realm the operation was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("there is no knight {0} in this realm")]
pub struct UnknownKnight(pub KnightId);

/// An act that needs the assent of two knights: the first offers, the other answers with the
/// same act, and the act is done (see [`propose`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// An unlanded knight becomes the vassal of a noble (R33).
    Allegiance,
    /// Lord and vassal part by mutual consent, without penalty (R33).
    Release,
    /// Two hostile knights end their hostility (R33).
    Peace,
}

impl fmt::Display for Act {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Act::Allegiance => "allegiance",
            Act::Release => "release from allegiance",
            Act::Peace => "an end to hostility",
        })
    }
}

/// A pending offer of an [`Act`] from one knight to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Proposal {
    /// Who offered.
    pub from: KnightId,
    /// To whom.
    pub to: KnightId,
    /// What.
    pub act: Act,
}

impl Proposal {
    /// The same act offered the other way: the answer that completes this one.
    pub fn answer(self) -> Proposal {
        Proposal {
            from: self.to,
            to: self.from,
            act: self.act,
        }
    }
}

/// A knight held for ransom after losing a fight for ransom (R33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captivity {
    /// The loser, who may not fight again until released.
    pub captive: KnightId,
    /// The winner, who holds the captive.
    pub victor: KnightId,
    /// The fight was fought under hostility: only then may the victor kill the captive.
    pub under_hostility: bool,
    /// The customary ransom for the captive's rank at capture ([`customary_ransom`]).
    pub customary: Points,
    /// The ransom the victor asks; `None` while the victor refuses ransom.
    pub demanded: Option<Points>,
    /// What each payer has paid so far.
    pub payments: BTreeMap<KnightId, Points>,
}

impl Captivity {
    /// The total paid so far.
    pub fn paid(&self) -> Points {
        self.payments.values().copied().sum()
    }

    /// What one knight has paid so far.
    pub fn paid_by(&self, knight: KnightId) -> Points {
        self.payments.get(&knight).copied().unwrap_or_default()
    }

    /// What is still owed; `None` while the victor refuses ransom.
    pub fn outstanding(&self) -> Option<Points> {
        self.demanded.map(|d| {
            let left = d - self.paid();
            if left.is_negative() {
                Points::ZERO
            } else {
                left
            }
        })
    }

    /// The asked ransom has been paid in full.
    pub fn fully_paid(&self) -> bool {
        self.demanded.is_some_and(|d| self.paid() >= d)
    }
}

/// The knights of a realm as the books see them: balances, land, ranks, allegiances, hostilities,
/// pending offers and captives. The bot loads it from the database; operations read it and return
/// [`Changes`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Realm {
    /// Every knight, by id.
    pub knights: BTreeMap<KnightId, Holding>,
    /// Hostile pairs, each stored once as (lower id, higher id); see [`pair`].
    pub hostilities: BTreeSet<(KnightId, KnightId)>,
    /// Offers awaiting an answer.
    pub proposals: BTreeSet<Proposal>,
    /// Captives, by the captive's id.
    pub captivities: BTreeMap<KnightId, Captivity>,
}

/// An unordered pair as stored in [`Realm::hostilities`]: lower id first.
pub fn pair(a: KnightId, b: KnightId) -> (KnightId, KnightId) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl Realm {
    /// An empty realm.
    pub fn new() -> Realm {
        Realm::default()
    }

    /// Adds or replaces a knight.
    pub fn insert(&mut self, id: KnightId, holding: Holding) {
        self.knights.insert(id, holding);
    }

    /// A knight's holding.
    pub fn get(&self, id: KnightId) -> Result<&Holding, UnknownKnight> {
        self.knights.get(&id).ok_or(UnknownKnight(id))
    }

    /// The styled name of a knight, or "knight 7" for an id not in the realm.
    pub fn styled(&self, id: KnightId) -> String {
        self.knights
            .get(&id)
            .map_or_else(|| format!("knight {id}"), Holding::styled)
    }

    /// The direct vassals of a knight, in id order.
    pub fn vassals(&self, lord: KnightId) -> impl Iterator<Item = KnightId> + '_ {
        self.knights
            .iter()
            .filter(move |(_, h)| h.lord == Some(lord))
            .map(|(&id, _)| id)
    }

    /// The lords above a knight, nearest first. Stops at a knight not in the realm, and at a
    /// circle of allegiance should the stored data ever hold one.
    pub fn lords_above(&self, knight: KnightId) -> Vec<KnightId> {
        let mut seen = BTreeSet::from([knight]);
        let mut chain = Vec::new();
        let mut at = knight;
        while let Some(lord) = self.knights.get(&at).and_then(|h| h.lord) {
            if !seen.insert(lord) {
                break;
            }
            chain.push(lord);
            at = lord;
        }
        chain
    }

    /// Every knight below this one: vassals, their vassals, and so on, in breadth-first order.
    /// Safe against a circle in the stored data.
    pub fn below(&self, knight: KnightId) -> Vec<KnightId> {
        let mut children: BTreeMap<KnightId, Vec<KnightId>> = BTreeMap::new();
        for (&id, h) in &self.knights {
            if let Some(lord) = h.lord {
                children.entry(lord).or_default().push(id);
            }
        }
        let mut seen = BTreeSet::from([knight]);
        let mut queue = VecDeque::from([knight]);
        let mut out = Vec::new();
        while let Some(at) = queue.pop_front() {
            for &v in children.get(&at).into_iter().flatten() {
                if seen.insert(v) {
                    out.push(v);
                    queue.push_back(v);
                }
            }
        }
        out
    }

    /// True if `knight` is `top` or anywhere below `top`.
    pub fn is_at_or_below(&self, knight: KnightId, top: KnightId) -> bool {
        knight == top || self.lords_above(knight).contains(&top)
    }

    /// True if the two are in a declared state of hostility with each other.
    pub fn is_hostile(&self, a: KnightId, b: KnightId) -> bool {
        self.hostilities.contains(&pair(a, b))
    }

    /// True if one of the two is the other's direct lord.
    pub fn tied(&self, a: KnightId, b: KnightId) -> bool {
        self.knights.get(&a).is_some_and(|h| h.lord == Some(b))
            || self.knights.get(&b).is_some_and(|h| h.lord == Some(a))
    }

    /// Performs `changes` on this view as the database will: entries move balances, facts change
    /// the structure. Ids not in the realm are skipped.
    pub fn apply(&mut self, changes: &Changes) {
        for e in &changes.entries {
            if let Some(h) = self.knights.get_mut(&e.knight) {
                h.hp += e.hp;
                h.pp += e.pp;
            }
        }
        for fact in &changes.facts {
            match fact {
                Fact::Landed { knight } => {
                    if let Some(h) = self.knights.get_mut(knight) {
                        h.landed = true;
                    }
                }
                Fact::Lord { vassal, lord, .. } => {
                    if let Some(h) = self.knights.get_mut(vassal) {
                        h.lord = *lord;
                        h.ransomed_lord = false;
                    }
                }
                Fact::Rank { knight, rank } => {
                    if let Some(h) = self.knights.get_mut(knight) {
                        h.rank = *rank;
                    }
                }
                // Skill values live on the knight's sheet, not in the books' view.
                Fact::Skill { .. } => {}
                Fact::HostilityBegun { a, b, .. } => {
                    self.hostilities.insert(pair(*a, *b));
                }
                Fact::HostilityEnded { a, b, .. } => {
                    self.hostilities.remove(&pair(*a, *b));
                }
                Fact::Proposed(p) => {
                    self.proposals.insert(*p);
                }
                Fact::ProposalCleared(p) => {
                    self.proposals.remove(p);
                }
                Fact::Held(c) => {
                    self.captivities.insert(c.captive, c.clone());
                }
                Fact::Released { captive } => {
                    self.captivities.remove(captive);
                }
                Fact::Killed { knight } => {
                    self.captivities.remove(knight);
                    self.knights.remove(knight);
                }
                Fact::LordRansomed { vassal } => {
                    if let Some(h) = self.knights.get_mut(vassal) {
                        h.ransomed_lord = true;
                    }
                }
            }
        }
    }
}

/// A fighting skill or a psi skill: what Honor can raise (R30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnySkill {
    /// One of the six fighting skills.
    Fighting(Skill),
    /// One of the seven psi skills.
    Psi(PsiSkill),
}

impl From<Skill> for AnySkill {
    fn from(s: Skill) -> AnySkill {
        AnySkill::Fighting(s)
    }
}

impl From<PsiSkill> for AnySkill {
    fn from(s: PsiSkill) -> AnySkill {
        AnySkill::Psi(s)
    }
}

impl fmt::Display for AnySkill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnySkill::Fighting(s) => s.fmt(f),
            AnySkill::Psi(s) => s.fmt(f),
        }
    }
}

/// The Honor awards of "The Rewards of Honor", 1 HP each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HonorAward {
    /// A match fought in a tournament lists (R36).
    ListsMatch,
    /// Taking part in a tournament melee (R37).
    Melee,
    /// Unhorsing an opponent in a tournament (R36, R37).
    Unhorsing,
    /// A top three finish in a lists, ties included (R36).
    TopThree,
    /// Being on the winning side of a melee (R37).
    WinningSide,
    /// Winning the first prize in a lists or melee (R36, R37).
    FirstPrize,
    /// Winning a recorded practice fight, at most 4 a month (R28).
    Practice,
}

impl HonorAward {
    /// The award before any landed split: 1 HP for each.
    pub fn amount(self) -> Points {
        Points::whole(1)
    }

    /// The ruling that governs it.
    pub fn rule(self) -> &'static str {
        match self {
            HonorAward::ListsMatch | HonorAward::TopThree => "R36",
            HonorAward::Melee | HonorAward::WinningSide => "R37",
            HonorAward::Unhorsing | HonorAward::FirstPrize => "R36, R37",
            HonorAward::Practice => "R28",
        }
    }
}

impl fmt::Display for HonorAward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            HonorAward::ListsMatch => "fought a match in the lists",
            HonorAward::Melee => "took part in a tournament melee",
            HonorAward::Unhorsing => "unhorsed an opponent in a tournament",
            HonorAward::TopThree => "finished in the top three of the lists",
            HonorAward::WinningSide => "on the winning side of a melee",
            HonorAward::FirstPrize => "won the first prize",
            HonorAward::Practice => "won a practice fight",
        };
        write!(f, "{what} ({})", self.rule())
    }
}

/// Why a grievance lets a vassal break allegiance without penalty (R33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grievance {
    /// The lord broke allegiance with a higher lord.
    LordBrokeWithHigherLord,
    /// The lord failed in the duty to ransom the vassal.
    LordFailedToRansom,
}

impl fmt::Display for Grievance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Grievance::LordBrokeWithHigherLord => "the lord broke allegiance with a higher lord",
            Grievance::LordFailedToRansom => "the lord failed in the duty to ransom",
        })
    }
}

/// Why the books changed: on every ledger [`Entry`], and on the allegiance and hostility
/// [`Fact`]s. [`Reason::rule`] names the ruling; Display is a line for the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// An Honor award, split when landed (R29).
    Award {
        /// Which.
        award: HonorAward,
    },
    /// Honor spent on a 10-point step (R30).
    Spend {
        /// The skill raised.
        skill: AnySkill,
        /// Its value before.
        from: u8,
        /// Its value after.
        to: u8,
    },
    /// 12 HP exchanged for a grant of lands from the monarch: +5 PP (R31).
    LandFromMonarch,
    /// A noble's 5 PP given with a grant of lands (R31).
    LandGranted {
        /// The recipient, now the noble's vassal.
        vassal: KnightId,
    },
    /// 5 PP and lands received from a player noble, who becomes the lord (R31).
    LandReceived {
        /// The granting noble.
        lord: KnightId,
    },
    /// Allegiance sworn by an unlanded knight and accepted by a noble (R33).
    Sworn {
        /// The new lord.
        lord: KnightId,
    },
    /// Allegiance ended by mutual consent, without penalty (R33).
    Consent,
    /// Hostility declared against the other party of an allegiance: half PP forfeit (R33, R100).
    Oathbreaking {
        /// The other party, lord or vassal.
        against: KnightId,
    },
    /// Dismissed by the lord for refusing the duties of allegiance: half PP forfeit (R33, R100).
    RefusedDuty {
        /// The lord who broke the allegiance.
        lord: KnightId,
    },
    /// Allegiance broken by the vassal for the lord's failure, without penalty (R33).
    Renounced {
        /// The lord's failure.
        grievance: Grievance,
    },
    /// Hostility declared (R33).
    HostilityDeclared,
    /// Hostility ended by the assent of both (R33).
    Peace,
    /// Ransom paid toward a captive's release (R33).
    RansomPaid {
        /// The captive.
        captive: KnightId,
    },
    /// Ransom received by the victor (R33); never an award, so never split (R29).
    RansomReceived {
        /// The captive.
        captive: KnightId,
    },
    /// A knight died in captivity (R33, R109).
    Death {
        /// The dead knight.
        knight: KnightId,
    },
}

impl Reason {
    /// The ruling that governs this change.
    pub fn rule(&self) -> &'static str {
        match self {
            Reason::Award { award } => award.rule(),
            Reason::Spend { .. } => "R30",
            Reason::LandFromMonarch | Reason::LandGranted { .. } | Reason::LandReceived { .. } => {
                "R31"
            }
            Reason::Oathbreaking { .. } | Reason::RefusedDuty { .. } => "R33, R100",
            Reason::Death { .. } => "R33, R109",
            _ => "R33",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Award { award } => return write!(f, "{award}"),
            Reason::Spend { skill, from, to } => write!(f, "raised {skill} from {from} to {to}"),
            Reason::LandFromMonarch => f.write_str("a grant of lands from the monarch"),
            Reason::LandGranted { vassal } => write!(f, "granted lands to knight {vassal}"),
            Reason::LandReceived { lord } => write!(f, "lands granted by knight {lord}"),
            Reason::Sworn { lord } => write!(f, "swore allegiance to knight {lord}"),
            Reason::Consent => f.write_str("allegiance ended by mutual consent"),
            Reason::Oathbreaking { against } => {
                write!(
                    f,
                    "oathbreaking: declared hostility against knight {against}"
                )
            }
            Reason::RefusedDuty { lord } => write!(
                f,
                "dismissed by knight {lord} for refusing the duties of allegiance"
            ),
            Reason::Renounced { grievance } => write!(f, "allegiance renounced: {grievance}"),
            Reason::HostilityDeclared => f.write_str("hostility declared"),
            Reason::Peace => f.write_str("hostility ended by both"),
            Reason::RansomPaid { captive } => write!(f, "ransom paid for knight {captive}"),
            Reason::RansomReceived { captive } => {
                write!(f, "ransom received for knight {captive}")
            }
            Reason::Death { knight } => write!(f, "knight {knight} died in captivity"),
        }?;
        write!(f, " ({})", self.rule())
    }
}

/// One ledger row: a knight's HP and PP change, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Whose books.
    pub knight: KnightId,
    /// Honor change.
    pub hp: Points,
    /// Prestige change.
    pub pp: Points,
    /// Why.
    pub reason: Reason,
}

/// A structural change the bot writes alongside the ledger entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Fact {
    /// The knight now holds lands (R31).
    Landed {
        /// Who.
        knight: KnightId,
    },
    /// The vassal's lord is set (`Some`) or cleared (`None`). Either way the vassal's
    /// [`Holding::ransomed_lord`] resets, since the once of R33 is owed to a particular lord.
    Lord {
        /// The vassal.
        vassal: KnightId,
        /// The new lord, or `None` for the monarch alone.
        lord: Option<KnightId>,
        /// Why.
        reason: Reason,
    },
    /// The knight's rank is now this (R32).
    Rank {
        /// Who.
        knight: KnightId,
        /// The new rank.
        rank: Rank,
    },
    /// A skill's new value after spending Honor (R30).
    Skill {
        /// Whose.
        knight: KnightId,
        /// Which skill.
        skill: AnySkill,
        /// The new value.
        value: u8,
    },
    /// Hostility begins between the two (R33).
    HostilityBegun {
        /// One party.
        a: KnightId,
        /// The other.
        b: KnightId,
        /// Why.
        reason: Reason,
    },
    /// Hostility between the two ends (R33).
    HostilityEnded {
        /// One party.
        a: KnightId,
        /// The other.
        b: KnightId,
        /// Why.
        reason: Reason,
    },
    /// An offer now awaits an answer.
    Proposed(Proposal),
    /// An offer is answered, withdrawn or moot; remove it.
    ProposalCleared(Proposal),
    /// A captivity begins or changes: the whole new state, to store by captive.
    Held(Captivity),
    /// The captive is released (ransom paid in full, or freed by the victor).
    Released {
        /// Who.
        captive: KnightId,
    },
    /// The captive was killed by the victor: their captivity ends with their life.
    Killed {
        /// Who.
        knight: KnightId,
    },
    /// The vassal has raised a ransom for their present lord: the once of R33 is used (R108).
    LordRansomed {
        /// Who.
        vassal: KnightId,
    },
}

/// What one operation changes, to be written in one transaction: ledger entries, then facts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    /// Ledger rows, in order.
    pub entries: Vec<Entry>,
    /// Structural changes, in order.
    pub facts: Vec<Fact>,
}

impl Changes {
    /// Nothing to change.
    pub fn new() -> Changes {
        Changes::default()
    }

    /// True if there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.facts.is_empty()
    }

    /// Adds a ledger row, unless both amounts are zero (a row that moves nothing is noise).
    pub fn points(&mut self, knight: KnightId, hp: Points, pp: Points, reason: Reason) {
        if hp != Points::ZERO || pp != Points::ZERO {
            self.entries.push(Entry {
                knight,
                hp,
                pp,
                reason,
            });
        }
    }

    /// Adds a fact.
    pub fn fact(&mut self, fact: Fact) {
        self.facts.push(fact);
    }

    /// Appends another operation's changes after these.
    pub fn extend(&mut self, other: Changes) {
        self.entries.extend(other.entries);
        self.facts.extend(other.facts);
    }

    /// A knight's net HP and PP change over all entries.
    pub fn net(&self, knight: KnightId) -> (Points, Points) {
        self.entries
            .iter()
            .filter(|e| e.knight == knight)
            .fold((Points::ZERO, Points::ZERO), |(hp, pp), e| {
                (hp + e.hp, pp + e.pp)
            })
    }
}

/// Every refusal of the books, for callers that handle them alike (`?` converts each kind).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// Practice Honor (R28).
    #[error(transparent)]
    Practice(#[from] PracticeRefusal),
    /// Spending Honor (R30).
    #[error(transparent)]
    Spend(#[from] SpendRefusal),
    /// Grants of land (R31).
    #[error(transparent)]
    Land(#[from] LandRefusal),
    /// Titles (R32).
    #[error(transparent)]
    Title(#[from] TitleRefusal),
    /// Allegiance (R33).
    #[error(transparent)]
    Allegiance(#[from] AllegianceRefusal),
    /// Hostility (R33).
    #[error(transparent)]
    Hostility(#[from] HostilityRefusal),
    /// Offers and answers.
    #[error(transparent)]
    Proposal(#[from] ProposalRefusal),
    /// Capture and ransom (R33).
    #[error(transparent)]
    Ransom(#[from] RansomRefusal),
}

// ---------------------------------------------------------------------------------------------
// Honor awards (R28, R29)
// ---------------------------------------------------------------------------------------------

/// An award as it lands in a knight's books.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    /// Honor gained.
    pub hp: Points,
    /// Prestige gained.
    pub pp: Points,
}

/// Splits an award (R29): all HP for an unlanded knight; half HP and half PP for a landed one,
/// in half points, with an odd half point going to HP (R101). 1 HP landed is 0.5 HP + 0.5 PP.
pub fn award(amount: Points, landed: bool) -> Award {
    if landed {
        let pp = amount.half();
        Award {
            hp: amount - pp,
            pp,
        }
    } else {
        Award {
            hp: amount,
            pp: Points::ZERO,
        }
    }
}

/// The ledger row for one Honor award to a knight, split when landed (R29).
pub fn honor(knight: KnightId, what: HonorAward, landed: bool) -> Entry {
    let Award { hp, pp } = award(what.amount(), landed);
    Entry {
        knight,
        hp,
        pp,
        reason: Reason::Award { award: what },
    }
}

/// At most this many practice HP a calendar month (R28).
pub const PRACTICE_HP_PER_MONTH: u32 = 4;

/// Why a practice win earns nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PracticeRefusal {
    /// The winner has had the month's four practice HP already.
    #[error("already earned {PRACTICE_HP_PER_MONTH} practice HP this month; no more until next month (R28)")]
    MonthlyLimit,
}

/// The award for winning a recorded practice fight (R28): 1 HP, split when landed (R29), unless
/// the winner has already had [`PRACTICE_HP_PER_MONTH`] practice awards this calendar month
/// (`awarded_this_month` counts awards, R110). A draw earns nothing and never reaches here.
pub fn practice_award(awarded_this_month: u32, landed: bool) -> Result<Award, PracticeRefusal> {
    if awarded_this_month >= PRACTICE_HP_PER_MONTH {
        return Err(PracticeRefusal::MonthlyLimit);
    }
    Ok(award(HonorAward::Practice.amount(), landed))
}

/// [`practice_award`] as a ledger row for the winner.
pub fn practice_honor(
    winner: KnightId,
    landed: bool,
    awarded_this_month: u32,
) -> Result<Entry, PracticeRefusal> {
    practice_award(awarded_this_month, landed)?;
    Ok(honor(winner, HonorAward::Practice, landed))
}

// ---------------------------------------------------------------------------------------------
// Spending Honor (R30)
// ---------------------------------------------------------------------------------------------

/// Skills at this value or above cannot be raised (R30).
pub const SKILL_CAP: u8 = 80;

/// How much one spend raises a skill.
pub const SKILL_STEP: u8 = 10;

/// Why Honor cannot be spent as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SpendRefusal {
    /// The skill is at 80 or above.
    #[error("{skill} is {current}: skills at 80 or above cannot be raised (R30)")]
    Capped {
        /// Which skill.
        skill: AnySkill,
        /// Its value.
        current: u8,
    },
    /// Not enough HP for the whole cost.
    #[error("raising {skill} from {current} costs {cost} HP; you have {balance} (R30)")]
    ShortOfHonor {
        /// Which skill.
        skill: AnySkill,
        /// Its value.
        current: u8,
        /// The step's cost.
        cost: Points,
        /// The knight's HP.
        balance: Points,
    },
}

/// A spend the books allow: pay `cost` HP, and the skill goes `from` → `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendChange {
    /// The skill raised.
    pub skill: AnySkill,
    /// The HP paid.
    pub cost: Points,
    /// The value before.
    pub from: u8,
    /// The value after: `from` + 10.
    pub to: u8,
}

impl SpendChange {
    /// The ledger row and the new skill value, for `knight`.
    pub fn changes(&self, knight: KnightId) -> Changes {
        let mut c = Changes::new();
        c.points(
            knight,
            -self.cost,
            Points::ZERO,
            Reason::Spend {
                skill: self.skill,
                from: self.from,
                to: self.to,
            },
        );
        c.fact(Fact::Skill {
            knight,
            skill: self.skill,
            value: self.to,
        });
        c
    }
}

/// The cost of one 10-point step from the skill's current value (R30): below 50, 2 HP; 50–59,
/// 5 HP; 60–69, 10 HP; 70–79, 15 HP; 80 and above cannot be raised. An unlearned psi skill is at
/// 0 and opens to 10 for 2 HP.
pub fn step_cost(skill: impl Into<AnySkill>, current: u8) -> Result<Points, SpendRefusal> {
    let whole = match current {
        0..=49 => 2,
        50..=59 => 5,
        60..=69 => 10,
        70..=79 => 15,
        _ => {
            return Err(SpendRefusal::Capped {
                skill: skill.into(),
                current,
            })
        }
    };
    Ok(Points::whole(whole))
}

/// One 10-point step of a fighting or psi skill, paid from `hp_balance` (R30). The whole cost
/// must be there.
pub fn spend(
    hp_balance: Points,
    skill: impl Into<AnySkill>,
    current: u8,
) -> Result<SpendChange, SpendRefusal> {
    let skill = skill.into();
    let cost = step_cost(skill, current)?;
    if hp_balance < cost {
        return Err(SpendRefusal::ShortOfHonor {
            skill,
            current,
            cost,
            balance: hp_balance,
        });
    }
    Ok(SpendChange {
        skill,
        cost,
        from: current,
        // current < 80 here, so this never overflows.
        to: current.saturating_add(SKILL_STEP),
    })
}

// ---------------------------------------------------------------------------------------------
// Land (R31)
// ---------------------------------------------------------------------------------------------

/// The HP a grant of lands from the monarch costs (R31).
pub const LAND_COST_HP: Points = Points::whole(12);

/// The PP a grant of lands gives, from the monarch or from a noble's own total (R31).
pub const LAND_GRANT_PP: Points = Points::whole(5);

/// Why a grant of lands is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LandRefusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// The recipient holds lands already.
    #[error("{0} already holds lands (R31)")]
    AlreadyLanded(String),
    /// Not 12 HP for the monarch's grant.
    #[error("a grant of lands from the monarch costs 12 HP; {knight} has {balance} (R31)")]
    ShortOfHonor {
        /// The styled knight.
        knight: String,
        /// Their HP.
        balance: Points,
    },
    /// The granter is not a Baron or higher.
    #[error("{0} is not a noble: only a Baron or higher may grant lands (R31)")]
    NotNoble(String),
    /// Granting to oneself.
    #[error("a noble cannot grant lands to themselves (R31)")]
    SelfGrant,
    /// The recipient is sworn to another lord.
    #[error(
        "{knight} is the vassal of {lord}; only their own lord may grant them lands (R31, R104)"
    )]
    OtherLord {
        /// The styled recipient.
        knight: String,
        /// Their styled lord.
        lord: String,
    },
    /// The noble's PP would fall below 5 per vassal.
    #[error("{noble} would keep {after} PP for {vassals} vassals; a grant must leave at least {floor} PP, 5 per vassal (R31)")]
    Floor {
        /// The styled noble.
        noble: String,
        /// The noble's PP after the grant.
        after: Points,
        /// The noble's vassals after the grant.
        vassals: u32,
        /// 5 × vassals.
        floor: Points,
    },
    /// The noble stands below the recipient.
    #[error("{noble} owes allegiance to {knight} already, above them; the grant would make a circle of allegiance (R33)")]
    Circle {
        /// The styled noble.
        noble: String,
        /// The styled recipient.
        knight: String,
    },
}

/// A grant of lands from the knight's monarch for 12 HP: −12 HP, +5 PP, landed (R31).
pub fn land_from_monarch(realm: &Realm, knight: KnightId) -> Result<Changes, LandRefusal> {
    let h = realm.get(knight)?;
    if h.landed {
        return Err(LandRefusal::AlreadyLanded(h.styled()));
    }
    if h.hp < LAND_COST_HP {
        return Err(LandRefusal::ShortOfHonor {
            knight: h.styled(),
            balance: h.hp,
        });
    }
    let mut c = Changes::new();
    c.points(
        knight,
        -LAND_COST_HP,
        LAND_GRANT_PP,
        Reason::LandFromMonarch,
    );
    c.fact(Fact::Landed { knight });
    Ok(c)
}

/// A grant of lands from a player noble (R31): the noble loses 5 PP, the knight gains them,
/// becomes landed and the noble's vassal. Refused if the noble is not a Baron or higher, if the
/// knight holds lands or is another lord's vassal (R104), or if the noble would keep less than
/// 5 PP per direct vassal afterwards.
pub fn land_from_noble(
    realm: &Realm,
    noble: KnightId,
    knight: KnightId,
) -> Result<Changes, LandRefusal> {
    let n = realm.get(noble)?;
    let k = realm.get(knight)?;
    if noble == knight {
        return Err(LandRefusal::SelfGrant);
    }
    if !n.is_noble() {
        return Err(LandRefusal::NotNoble(n.styled()));
    }
    if k.landed {
        return Err(LandRefusal::AlreadyLanded(k.styled()));
    }
    let own_vassal = k.lord == Some(noble);
    if let Some(lord) = k.lord.filter(|&l| l != noble) {
        return Err(LandRefusal::OtherLord {
            knight: k.styled(),
            lord: realm.styled(lord),
        });
    }
    if realm.is_at_or_below(noble, knight) {
        return Err(LandRefusal::Circle {
            noble: n.styled(),
            knight: k.styled(),
        });
    }
    let now = u32::try_from(realm.vassals(noble).count()).unwrap_or(u32::MAX);
    let vassals = if own_vassal {
        now
    } else {
        now.saturating_add(1)
    };
    let after = n.pp - LAND_GRANT_PP;
    let floor = LAND_GRANT_PP * i64::from(vassals);
    if after < floor {
        return Err(LandRefusal::Floor {
            noble: n.styled(),
            after,
            vassals,
            floor,
        });
    }
    let mut c = Changes::new();
    c.points(
        noble,
        Points::ZERO,
        -LAND_GRANT_PP,
        Reason::LandGranted { vassal: knight },
    );
    c.points(
        knight,
        Points::ZERO,
        LAND_GRANT_PP,
        Reason::LandReceived { lord: noble },
    );
    c.fact(Fact::Landed { knight });
    if !own_vassal {
        c.fact(Fact::Lord {
            vassal: knight,
            lord: Some(noble),
            reason: Reason::LandReceived { lord: noble },
        });
        clear_offers_of(realm, knight, Act::Allegiance, &mut c);
    }
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// Titles (R32)
// ---------------------------------------------------------------------------------------------

/// The PP needed for a rank (R32): Baron 20, Viscount 80, Earl 320, Duke 1,440; 0 for a knight.
pub fn title_threshold(rank: Rank) -> Points {
    Points::whole(match rank {
        Rank::Knight => 0,
        Rank::Baron => 20,
        Rank::Viscount => 80,
        Rank::Earl => 320,
        Rank::Duke => 1440,
    })
}

/// The rank above, if any.
pub fn next_rank(rank: Rank) -> Option<Rank> {
    match rank {
        Rank::Knight => Some(Rank::Baron),
        Rank::Baron => Some(Rank::Viscount),
        Rank::Viscount => Some(Rank::Earl),
        Rank::Earl => Some(Rank::Duke),
        Rank::Duke => None,
    }
}

/// The PP a knight counts for advancement only (R32): personal PP, plus the PP of every knight
/// below them (vassals, their vassals, and so on), plus 2 for each unlanded knight below them.
pub fn advancement_pp(realm: &Realm, knight: KnightId) -> Result<Points, UnknownKnight> {
    let mut total = realm.get(knight)?.pp;
    for v in realm.below(knight) {
        if let Some(h) = realm.knights.get(&v) {
            total += h.pp;
            if !h.landed {
                total += Points::whole(2);
            }
        }
    }
    Ok(total)
}

/// Why no title is granted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TitleRefusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// No lands.
    #[error("{0} holds no lands: a title needs a grant of lands first (R32)")]
    NotLanded(String),
    /// A Duke already.
    #[error("{0} already holds the highest rank (R32)")]
    AtTop(String),
    /// Not enough PP for the next rank.
    #[error("{title} needs {needed} PP for advancement; {knight} counts {counted} (R32)")]
    ShortOfPrestige {
        /// The styled knight.
        knight: String,
        /// The next title, in the knight's style.
        title: &'static str,
        /// Its threshold.
        needed: Points,
        /// The knight's advancement PP.
        counted: Points,
    },
    /// The lord's rank needs personal PP at least the lord's.
    #[error("{knight} may rise to {title}, the rank of their lord {lord}, only with at least the lord's {lord_pp} personal PP; they have {own} (R32, R103)")]
    BelowLord {
        /// The styled knight.
        knight: String,
        /// The title refused, in the knight's style.
        title: &'static str,
        /// The styled lord.
        lord: String,
        /// The lord's personal PP.
        lord_pp: Points,
        /// The knight's personal PP.
        own: Points,
    },
}

/// The rank the monarch grants a knight who asks (R32): the highest the knight is eligible for,
/// one rank at a time (R102). Each step needs lands, the advancement PP of the rank
/// ([`advancement_pp`]), and, for a vassal of a player noble, personal PP at least the lord's for
/// any rank at or above the lord's (R103). Refused when not even the next rank is open.
pub fn advance(realm: &Realm, knight: KnightId) -> Result<Rank, TitleRefusal> {
    let h = realm.get(knight)?;
    if !h.landed {
        return Err(TitleRefusal::NotLanded(h.styled()));
    }
    let counted = advancement_pp(realm, knight)?;
    // A lord missing from the view is refused as unknown rather than skipped, so an incomplete
    // view can never grant a title that the lord's PP would have barred.
    let lord = match h.lord {
        Some(l) => Some(realm.get(l)?).filter(|l| l.is_noble()),
        None => None,
    };
    let mut rank = h.rank;
    let mut blocked = None;
    while let Some(next) = next_rank(rank) {
        let needed = title_threshold(next);
        if counted < needed {
            blocked = Some(TitleRefusal::ShortOfPrestige {
                knight: h.styled(),
                title: next.title(h.style),
                needed,
                counted,
            });
            break;
        }
        if let Some(l) = lord.filter(|l| next >= l.rank && h.pp < l.pp) {
            blocked = Some(TitleRefusal::BelowLord {
                knight: h.styled(),
                title: next.title(h.style),
                lord: l.styled(),
                lord_pp: l.pp,
                own: h.pp,
            });
            break;
        }
        rank = next;
    }
    if rank > h.rank {
        return Ok(rank);
    }
    Err(blocked.unwrap_or_else(|| TitleRefusal::AtTop(h.styled())))
}

/// [`advance`] as the change to write.
pub fn grant_title(realm: &Realm, knight: KnightId) -> Result<Changes, TitleRefusal> {
    let rank = advance(realm, knight)?;
    let mut c = Changes::new();
    c.fact(Fact::Rank { knight, rank });
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// Offers: allegiance, release, peace (R33)
// ---------------------------------------------------------------------------------------------

/// Why an allegiance cannot be made or broken as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AllegianceRefusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// Both parties are the same knight.
    #[error("a knight cannot owe allegiance to themselves (R33)")]
    SelfTie,
    /// Neither party is an unlanded knight who could swear.
    #[error("{0} holds lands: a landed knight becomes a vassal only by a grant of lands (R33)")]
    Landed(String),
    /// The would-be lord is not a Baron or higher.
    #[error("{0} is not a noble: only a Baron or higher may take vassals (R33)")]
    NotNoble(String),
    /// The would-be vassal has a lord already.
    #[error("{knight} already owes allegiance to {lord} (R33)")]
    AlreadyVassal {
        /// The styled knight.
        knight: String,
        /// Their styled lord.
        lord: String,
    },
    /// The would-be lord stands below the would-be vassal.
    #[error("{lord} owes allegiance to {knight} already, above them; that would make a circle of allegiance (R33)")]
    Circle {
        /// The styled would-be lord.
        lord: String,
        /// The styled would-be vassal.
        knight: String,
    },
    /// The two are hostile (R105).
    #[error("{0} and {1} are hostile; they must end the hostility before swearing allegiance (R33, R105)")]
    Hostile(String, String),
    /// The two are not lord and vassal.
    #[error("{vassal} is not the vassal of {lord} (R33)")]
    NotTied {
        /// The styled knight named as vassal.
        vassal: String,
        /// The styled knight named as lord.
        lord: String,
    },
    /// Neither is the other's lord.
    #[error("{0} and {1} are not lord and vassal (R33)")]
    NoTie(String, String),
    /// The knight owes allegiance to no player noble.
    #[error("{0} owes allegiance to no player noble (R33)")]
    NoLord(String),
}

/// Why hostility cannot be declared or ended as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HostilityRefusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// Both parties are the same knight.
    #[error("a knight cannot be hostile to themselves (R33)")]
    SelfHostility,
    /// A party is neither landed nor a noble.
    #[error(
        "{0} holds no lands: hostility is declared only between nobles and landed knights (R33)"
    )]
    NotLanded(String),
    /// Already hostile.
    #[error("{0} and {1} are already hostile (R33)")]
    AlreadyHostile(String, String),
    /// Not hostile.
    #[error("{0} and {1} are not hostile (R33)")]
    NotHostile(String, String),
}

/// Why an offer cannot be made or withdrawn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProposalRefusal {
    /// The same offer is pending.
    #[error("{from} has already offered {act} to {to}; it awaits their answer")]
    AlreadyOffered {
        /// The styled offerer.
        from: String,
        /// The styled addressee.
        to: String,
        /// What.
        act: Act,
    },
    /// No such offer is pending.
    #[error("{from} has made no offer of {act} to {to}")]
    NoOffer {
        /// The styled offerer.
        from: String,
        /// The styled addressee.
        to: String,
        /// What.
        act: Act,
    },
}

/// Who would be vassal and who lord if `a` and `b` swore allegiance: the unlanded knight swears
/// to the noble, whichever of them offered (R33).
fn allegiance_roles(
    realm: &Realm,
    a: KnightId,
    b: KnightId,
) -> Result<(KnightId, KnightId), AllegianceRefusal> {
    let ha = realm.get(a)?;
    let hb = realm.get(b)?;
    if a == b {
        return Err(AllegianceRefusal::SelfTie);
    }
    let unlanded = |h: &Holding| !h.landed && !h.is_noble();
    let (vassal, lord) = if unlanded(ha) {
        (a, b)
    } else if unlanded(hb) {
        (b, a)
    } else {
        return Err(AllegianceRefusal::Landed(ha.styled()));
    };
    let hv = realm.get(vassal)?;
    let hl = realm.get(lord)?;
    if !hl.is_noble() {
        return Err(AllegianceRefusal::NotNoble(hl.styled()));
    }
    if let Some(l) = hv.lord {
        return Err(AllegianceRefusal::AlreadyVassal {
            knight: hv.styled(),
            lord: realm.styled(l),
        });
    }
    if realm.is_at_or_below(lord, vassal) {
        return Err(AllegianceRefusal::Circle {
            lord: hl.styled(),
            knight: hv.styled(),
        });
    }
    if realm.is_hostile(vassal, lord) {
        return Err(AllegianceRefusal::Hostile(hv.styled(), hl.styled()));
    }
    Ok((vassal, lord))
}

/// The (vassal, lord) of a direct tie between `a` and `b`, in either direction.
fn tie(realm: &Realm, a: KnightId, b: KnightId) -> Result<(KnightId, KnightId), AllegianceRefusal> {
    let ha = realm.get(a)?;
    let hb = realm.get(b)?;
    if ha.lord == Some(b) {
        Ok((a, b))
    } else if hb.lord == Some(a) {
        Ok((b, a))
    } else {
        Err(AllegianceRefusal::NoTie(ha.styled(), hb.styled()))
    }
}

/// Clears every pending offer of `act` made by or to `knight`: the act is done or moot.
fn clear_offers_of(realm: &Realm, knight: KnightId, act: Act, c: &mut Changes) {
    for p in &realm.proposals {
        if p.act == act && (p.from == knight || p.to == knight) {
            c.fact(Fact::ProposalCleared(*p));
        }
    }
}

/// Clears pending offers of `act` between `a` and `b`, either way.
fn clear_offers_between(realm: &Realm, a: KnightId, b: KnightId, act: Act, c: &mut Changes) {
    for p in [
        Proposal {
            from: a,
            to: b,
            act,
        },
        Proposal {
            from: b,
            to: a,
            act,
        },
    ] {
        if realm.proposals.contains(&p) {
            c.fact(Fact::ProposalCleared(p));
        }
    }
}

/// `from` offers `act` to `to`, or answers `to`'s pending offer of the same act, which completes
/// it. Both offer and answer are checked against the realm as it is then.
///
/// - [`Act::Allegiance`]: an unlanded knight without a lord swears to a Baron or higher; refused
///   if it would make a circle or the two are hostile (R33, R105). Either may offer; the other
///   accepts.
/// - [`Act::Release`]: lord and vassal part by mutual consent: no penalty, no hostility (R33).
/// - [`Act::Peace`]: hostility ends only when both assent (R33).
pub fn propose(realm: &Realm, from: KnightId, to: KnightId, act: Act) -> Result<Changes, Refusal> {
    let offer = Proposal { from, to, act };
    let mut c = Changes::new();
    match act {
        Act::Allegiance => {
            allegiance_roles(realm, from, to)?;
        }
        Act::Release => {
            tie(realm, from, to)?;
        }
        Act::Peace => {
            let hf = realm.get(from)?;
            let ht = realm.get(to)?;
            if !realm.is_hostile(from, to) {
                return Err(HostilityRefusal::NotHostile(hf.styled(), ht.styled()).into());
            }
        }
    }
    if realm.proposals.contains(&offer) {
        return Err(ProposalRefusal::AlreadyOffered {
            from: realm.styled(from),
            to: realm.styled(to),
            act,
        }
        .into());
    }
    if !realm.proposals.contains(&offer.answer()) {
        c.fact(Fact::Proposed(offer));
        return Ok(c);
    }
    c.fact(Fact::ProposalCleared(offer.answer()));
    match act {
        Act::Allegiance => {
            let (vassal, lord) = allegiance_roles(realm, from, to)?;
            c.fact(Fact::Lord {
                vassal,
                lord: Some(lord),
                reason: Reason::Sworn { lord },
            });
            // Other offers of allegiance by or to the new vassal are moot now.
            for p in &realm.proposals {
                if p.act == Act::Allegiance
                    && (p.from == vassal || p.to == vassal)
                    && *p != offer.answer()
                {
                    c.fact(Fact::ProposalCleared(*p));
                }
            }
        }
        Act::Release => {
            let (vassal, _) = tie(realm, from, to)?;
            c.fact(Fact::Lord {
                vassal,
                lord: None,
                reason: Reason::Consent,
            });
        }
        Act::Peace => {
            let (a, b) = pair(from, to);
            c.fact(Fact::HostilityEnded {
                a,
                b,
                reason: Reason::Peace,
            });
        }
    }
    Ok(c)
}

/// `from` withdraws a pending offer.
pub fn withdraw(
    realm: &Realm,
    from: KnightId,
    to: KnightId,
    act: Act,
) -> Result<Changes, ProposalRefusal> {
    let offer = Proposal { from, to, act };
    if !realm.proposals.contains(&offer) {
        return Err(ProposalRefusal::NoOffer {
            from: realm.styled(from),
            to: realm.styled(to),
            act,
        });
    }
    let mut c = Changes::new();
    c.fact(Fact::ProposalCleared(offer));
    Ok(c)
}

// ---------------------------------------------------------------------------------------------
// Breaking allegiance, and hostility (R33)
// ---------------------------------------------------------------------------------------------

/// Ends the tie between `vassal` and `lord` and begins hostility between them, as every break but
/// mutual consent does (R33).
fn break_with_hostility(
    realm: &Realm,
    vassal: KnightId,
    lord: KnightId,
    reason: Reason,
    c: &mut Changes,
) {
    c.fact(Fact::Lord {
        vassal,
        lord: None,
        reason,
    });
    if !realm.is_hostile(vassal, lord) {
        let (a, b) = pair(vassal, lord);
        c.fact(Fact::HostilityBegun { a, b, reason });
    }
    clear_offers_between(realm, vassal, lord, Act::Release, c);
}

/// `declarer` declares hostility against `other` (R33).
///
/// Against one's own direct lord or vassal, this is the oathbreaking break of allegiance: the
/// declarer forfeits half their PP (R100), the tie ends and hostility begins, landed or not.
/// Otherwise both must be nobles or landed knights. A vassal is not refused for lacking the lord's
/// approval (R106).
pub fn declare_hostility(
    realm: &Realm,
    declarer: KnightId,
    other: KnightId,
) -> Result<Changes, HostilityRefusal> {
    let hd = realm.get(declarer)?;
    let ho = realm.get(other)?;
    if declarer == other {
        return Err(HostilityRefusal::SelfHostility);
    }
    if realm.is_hostile(declarer, other) {
        return Err(HostilityRefusal::AlreadyHostile(hd.styled(), ho.styled()));
    }
    let mut c = Changes::new();
    if let Ok((vassal, lord)) = tie(realm, declarer, other) {
        let reason = Reason::Oathbreaking { against: other };
        c.points(declarer, Points::ZERO, -hd.pp.forfeit_half(), reason);
        break_with_hostility(realm, vassal, lord, reason, &mut c);
        return Ok(c);
    }
    for h in [hd, ho] {
        if !h.may_declare_hostility() {
            return Err(HostilityRefusal::NotLanded(h.styled()));
        }
    }
    let (a, b) = pair(declarer, other);
    c.fact(Fact::HostilityBegun {
        a,
        b,
        reason: Reason::HostilityDeclared,
    });
    Ok(c)
}

/// The lord breaks allegiance because the vassal refused the duties it commands (R33): the
/// ex-vassal forfeits half their PP (R100), and hostility begins. Whether a duty was refused is
/// the lord's charge to make (the bot may ask a moderator to confirm); the books check the tie.
pub fn dismiss(
    realm: &Realm,
    lord: KnightId,
    vassal: KnightId,
) -> Result<Changes, AllegianceRefusal> {
    let hl = realm.get(lord)?;
    let hv = realm.get(vassal)?;
    if hv.lord != Some(lord) {
        return Err(AllegianceRefusal::NotTied {
            vassal: hv.styled(),
            lord: hl.styled(),
        });
    }
    let reason = Reason::RefusedDuty { lord };
    let mut c = Changes::new();
    c.points(vassal, Points::ZERO, -hv.pp.forfeit_half(), reason);
    break_with_hostility(realm, vassal, lord, reason, &mut c);
    Ok(c)
}

/// The vassal breaks allegiance because the lord broke with a higher lord or failed to ransom
/// (R33): no penalty, and hostility begins.
pub fn renounce(
    realm: &Realm,
    vassal: KnightId,
    grievance: Grievance,
) -> Result<Changes, AllegianceRefusal> {
    let hv = realm.get(vassal)?;
    let Some(lord) = hv.lord else {
        return Err(AllegianceRefusal::NoLord(hv.styled()));
    };
    let mut c = Changes::new();
    break_with_hostility(realm, vassal, lord, Reason::Renounced { grievance }, &mut c);
    Ok(c)
}

/// True if a fight between `a` and `b` is between hostile parties (R33, R39): `a` is some `x` or
/// anywhere below `x`, `b` is some `y` or anywhere below `y`, and `x` and `y` are hostile. Vassals
/// and subvassals are drawn in; lords above are not. A practice joust between hostile parties is
/// fought for ransom, and so is their pass in a melee.
pub fn hostile_parties(realm: &Realm, a: KnightId, b: KnightId) -> bool {
    if a == b {
        return false;
    }
    let mut up_a = realm.lords_above(a);
    up_a.insert(0, a);
    let mut up_b = realm.lords_above(b);
    up_b.insert(0, b);
    up_a.iter()
        .any(|&x| up_b.iter().any(|&y| x != y && realm.is_hostile(x, y)))
}

// ---------------------------------------------------------------------------------------------
// Capture and ransom (R33)
// ---------------------------------------------------------------------------------------------

/// The customary ransom for a knight (R33): unlanded 2 PP, landed 3, Baron 10, Viscount 20,
/// Earl (Count) 40, Duke 80.
pub fn customary_ransom(h: &Holding) -> Points {
    Points::whole(match h.rank {
        Rank::Knight if h.landed => 3,
        Rank::Knight => 2,
        Rank::Baron => 10,
        Rank::Viscount => 20,
        Rank::Earl => 40,
        Rank::Duke => 80,
    })
}

/// What a non-noble vassal must offer toward the lord's ransom to meet the duty (R33).
pub const VASSAL_RANSOM_SHARE: Points = Points::whole(4);

/// Why a capture, a demand, a payment, a release or a killing is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RansomRefusal {
    /// An id not in the realm.
    #[error(transparent)]
    Unknown(#[from] UnknownKnight),
    /// The knight is not a captive.
    #[error("{0} is not held for ransom (R33)")]
    NotCaptive(String),
    /// Captured already.
    #[error("{captive} is already held by {victor} (R33)")]
    AlreadyCaptive {
        /// The styled captive.
        captive: String,
        /// The styled victor.
        victor: String,
    },
    /// Victor and captive are the same knight.
    #[error("a knight cannot hold themselves for ransom (R33)")]
    SelfCapture,
    /// The victor is a captive.
    #[error("{0} is a captive and cannot hold another (R33)")]
    VictorCaptive(String),
    /// Only the victor may do this.
    #[error("only {victor}, who holds {captive}, may do that (R33)")]
    NotVictor {
        /// The styled victor.
        victor: String,
        /// The styled captive.
        captive: String,
    },
    /// A demand above the customary ransom (R107).
    #[error("the customary ransom for {captive} is {customary} PP; the victor may ask that or less, not {asked} (R33, R107)")]
    AboveCustomary {
        /// The styled captive.
        captive: String,
        /// The customary ransom.
        customary: Points,
        /// What was asked.
        asked: Points,
    },
    /// A demand below what is already paid (R107).
    #[error("{paid} PP has already been paid for {captive}; ask at least that, or free them (R33, R107)")]
    BelowPaid {
        /// The styled captive.
        captive: String,
        /// Paid so far.
        paid: Points,
    },
    /// A negative demand.
    #[error("a ransom is 0 PP or more, not {0} (R33)")]
    NegativeDemand(Points),
    /// The victor refuses ransom.
    #[error("{victor} refuses ransom for {captive} (R33)")]
    Refused {
        /// The styled victor.
        victor: String,
        /// The styled captive.
        captive: String,
    },
    /// A payment of 0 or less.
    #[error("a payment must be more than 0 PP, not {0} (R33)")]
    NothingPaid(Points),
    /// The payer lacks the PP.
    #[error("{payer} has {have} PP and cannot pay {amount} (R33)")]
    ShortOfPrestige {
        /// The styled payer.
        payer: String,
        /// The payer's PP.
        have: Points,
        /// The payment offered.
        amount: Points,
    },
    /// More than is owed (R107).
    #[error("{captive} owes {outstanding} PP more in ransom; {amount} is too much (R33, R107)")]
    Overpaid {
        /// The styled captive.
        captive: String,
        /// Still owed.
        outstanding: Points,
        /// The payment offered.
        amount: Points,
    },
    /// The victor paying the victor.
    #[error("{0} holds the captive and cannot pay the ransom to themselves (R33)")]
    VictorPays(String),
    /// Killing outside hostility.
    #[error("{0} was not captured in a fight under hostility: death comes only to a captive under hostility (R33)")]
    NotUnderHostility(String),
}

/// A duty of allegiance raised by a captivity (R33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Duty {
    /// The lord must ransom this unlanded vassal: met when the ransom is paid in full.
    LordRansomsVassal {
        /// The lord.
        lord: KnightId,
    },
    /// This landed vassal must help ransom the lord, once (R108).
    VassalRansomsLord {
        /// The vassal.
        vassal: KnightId,
        /// A noble vassal; a non-noble one meets the duty with 4 PP.
        noble: bool,
    },
}

impl Duty {
    /// Whether the duty is met in this state of the captivity (R33, R108).
    pub fn met(&self, c: &Captivity) -> bool {
        match *self {
            Duty::LordRansomsVassal { .. } => c.fully_paid(),
            Duty::VassalRansomsLord { vassal, noble } => {
                let own = c.paid_by(vassal);
                (own.is_positive() && c.fully_paid()) || (!noble && own >= VASSAL_RANSOM_SHARE)
            }
        }
    }
}

/// The duties of allegiance a captivity raises (R33): the lord of an unlanded captive must ransom
/// them; each landed vassal of the captive who has not yet ransomed this lord must help, once.
/// None while the victor refuses ransom.
pub fn ransom_duties(realm: &Realm, captive: KnightId) -> Result<Vec<Duty>, RansomRefusal> {
    let c = captivity(realm, captive)?;
    Ok(duties(realm, c))
}

fn duties(realm: &Realm, c: &Captivity) -> Vec<Duty> {
    let mut out = Vec::new();
    if c.demanded.is_none() {
        return out;
    }
    if let Some(h) = realm.knights.get(&c.captive) {
        if let Some(lord) = h.lord.filter(|&l| l != c.victor) {
            if !h.landed && !h.is_noble() {
                out.push(Duty::LordRansomsVassal { lord });
            }
        }
    }
    for v in realm.vassals(c.captive) {
        if let Some(hv) = realm.knights.get(&v) {
            if hv.landed && !hv.ransomed_lord && v != c.victor {
                out.push(Duty::VassalRansomsLord {
                    vassal: v,
                    noble: hv.is_noble(),
                });
            }
        }
    }
    out
}

fn captivity(realm: &Realm, captive: KnightId) -> Result<&Captivity, RansomRefusal> {
    let h = realm.get(captive)?;
    realm
        .captivities
        .get(&captive)
        .ok_or_else(|| RansomRefusal::NotCaptive(h.styled()))
}

fn victor_holding(
    realm: &Realm,
    by: KnightId,
    captive: KnightId,
) -> Result<&Captivity, RansomRefusal> {
    realm.get(by)?;
    let c = captivity(realm, captive)?;
    if c.victor != by {
        return Err(RansomRefusal::NotVictor {
            victor: realm.styled(c.victor),
            captive: realm.styled(captive),
        });
    }
    Ok(c)
}

/// The loser of a fight for ransom is captured by the victor, who asks the customary ransom until
/// they say otherwise (R33). `under_hostility` is whether the fight was fought under hostility
/// (the bot decides it with [`hostile_parties`] when the fight starts); only then may the victor
/// kill.
pub fn capture(
    realm: &Realm,
    captive: KnightId,
    victor: KnightId,
    under_hostility: bool,
) -> Result<Changes, RansomRefusal> {
    let hc = realm.get(captive)?;
    let hv = realm.get(victor)?;
    if captive == victor {
        return Err(RansomRefusal::SelfCapture);
    }
    if let Some(c) = realm.captivities.get(&captive) {
        return Err(RansomRefusal::AlreadyCaptive {
            captive: hc.styled(),
            victor: realm.styled(c.victor),
        });
    }
    if realm.captivities.contains_key(&victor) {
        return Err(RansomRefusal::VictorCaptive(hv.styled()));
    }
    let customary = customary_ransom(hc);
    let mut c = Changes::new();
    c.fact(Fact::Held(Captivity {
        captive,
        victor,
        under_hostility,
        customary,
        demanded: Some(customary),
        payments: BTreeMap::new(),
    }));
    Ok(c)
}

/// The victor asks a ransom: the customary or less, not less than already paid (R107). Asking
/// exactly what has been paid (0 when nothing has) releases the captive.
pub fn demand(
    realm: &Realm,
    victor: KnightId,
    captive: KnightId,
    amount: Points,
) -> Result<Changes, RansomRefusal> {
    let held = victor_holding(realm, victor, captive)?;
    if amount.is_negative() {
        return Err(RansomRefusal::NegativeDemand(amount));
    }
    if amount > held.customary {
        return Err(RansomRefusal::AboveCustomary {
            captive: realm.styled(captive),
            customary: held.customary,
            asked: amount,
        });
    }
    let paid = held.paid();
    if amount < paid {
        return Err(RansomRefusal::BelowPaid {
            captive: realm.styled(captive),
            paid,
        });
    }
    let mut c = Changes::new();
    if amount == paid {
        c.fact(Fact::Released { captive });
    } else {
        let mut next = held.clone();
        next.demanded = Some(amount);
        c.fact(Fact::Held(next));
    }
    Ok(c)
}

/// The victor refuses ransom: payments are refused until the victor names a ransom again with
/// [`demand`] (R33).
pub fn refuse_ransom(
    realm: &Realm,
    victor: KnightId,
    captive: KnightId,
) -> Result<Changes, RansomRefusal> {
    let held = victor_holding(realm, victor, captive)?;
    let mut next = held.clone();
    next.demanded = None;
    let mut c = Changes::new();
    c.fact(Fact::Held(next));
    Ok(c)
}

/// Any knight with PP pays all or part of a captive's ransom (R33): the payer loses the PP, the
/// victor gains them. Ransom PP is not an award: it is never split, and it never makes a knight
/// landed (R29). When the ransom is paid in full the captive is released. A landed vassal of the
/// captive whose duty this payment meets has used their once (R108).
pub fn pay(
    realm: &Realm,
    payer: KnightId,
    captive: KnightId,
    amount: Points,
) -> Result<Changes, RansomRefusal> {
    let hp = realm.get(payer)?;
    let held = captivity(realm, captive)?;
    if payer == held.victor {
        return Err(RansomRefusal::VictorPays(hp.styled()));
    }
    let Some(outstanding) = held.outstanding() else {
        return Err(RansomRefusal::Refused {
            victor: realm.styled(held.victor),
            captive: realm.styled(captive),
        });
    };
    if !amount.is_positive() {
        return Err(RansomRefusal::NothingPaid(amount));
    }
    if amount > outstanding {
        return Err(RansomRefusal::Overpaid {
            captive: realm.styled(captive),
            outstanding,
            amount,
        });
    }
    if hp.pp < amount {
        return Err(RansomRefusal::ShortOfPrestige {
            payer: hp.styled(),
            have: hp.pp,
            amount,
        });
    }
    let mut next = held.clone();
    let own = next.paid_by(payer) + amount;
    next.payments.insert(payer, own);

    let mut c = Changes::new();
    c.points(payer, Points::ZERO, -amount, Reason::RansomPaid { captive });
    c.points(
        held.victor,
        Points::ZERO,
        amount,
        Reason::RansomReceived { captive },
    );
    for duty in duties(realm, held) {
        if let Duty::VassalRansomsLord { vassal, .. } = duty {
            if !duty.met(held) && duty.met(&next) {
                c.fact(Fact::LordRansomed { vassal });
            }
        }
    }
    if next.fully_paid() {
        c.fact(Fact::Released { captive });
    } else {
        c.fact(Fact::Held(next));
    }
    Ok(c)
}

/// The victor frees the captive without (further) ransom (R33); payments made are kept (R107).
pub fn free(realm: &Realm, victor: KnightId, captive: KnightId) -> Result<Changes, RansomRefusal> {
    victor_holding(realm, victor, captive)?;
    let mut c = Changes::new();
    c.fact(Fact::Released { captive });
    Ok(c)
}

/// The victor kills the captive: only a captive of a fight under hostility may die (R33). The
/// dead knight's allegiances, hostilities and pending offers end (R109).
pub fn kill(realm: &Realm, victor: KnightId, captive: KnightId) -> Result<Changes, RansomRefusal> {
    let held = victor_holding(realm, victor, captive)?;
    if !held.under_hostility {
        return Err(RansomRefusal::NotUnderHostility(realm.styled(captive)));
    }
    let reason = Reason::Death { knight: captive };
    let mut c = Changes::new();
    for v in realm.vassals(captive) {
        c.fact(Fact::Lord {
            vassal: v,
            lord: None,
            reason,
        });
    }
    if realm.knights.get(&captive).and_then(|h| h.lord).is_some() {
        c.fact(Fact::Lord {
            vassal: captive,
            lord: None,
            reason,
        });
    }
    for &(a, b) in &realm.hostilities {
        if a == captive || b == captive {
            c.fact(Fact::HostilityEnded { a, b, reason });
        }
    }
    for p in &realm.proposals {
        if p.from == captive || p.to == captive {
            c.fact(Fact::ProposalCleared(*p));
        }
    }
    c.fact(Fact::Killed { knight: captive });
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Test shorthand: a number of points given as a decimal with halves only.
    fn p(x: f64) -> Points {
        Points::from_halves((x * 2.0) as i64)
    }

    fn knight(name: &str, pp: f64, landed: bool, rank: Rank, lord: Option<KnightId>) -> Holding {
        Holding {
            pp: p(pp),
            landed,
            rank,
            lord,
            ..Holding::new(name, Style::Sir)
        }
    }

    fn realm(knights: Vec<(KnightId, Holding)>) -> Realm {
        let mut r = Realm::new();
        for (id, h) in knights {
            r.insert(id, h);
        }
        r
    }

    fn applied(r: &Realm, c: &Changes) -> Realm {
        let mut next = r.clone();
        next.apply(c);
        next
    }

    // ---- Points ----------------------------------------------------------------------------

    #[test]
    fn points_display_as_whole_and_half_numbers() {
        assert_eq!(Points::from_halves(3).to_string(), "1.5");
        assert_eq!(Points::whole(2).to_string(), "2");
        assert_eq!(Points::from_halves(-1).to_string(), "-0.5");
        assert_eq!(Points::from_halves(-6).to_string(), "-3");
        assert_eq!(Points::ZERO.to_string(), "0");
        assert_eq!(
            Points::from_halves(i64::MIN).to_string(),
            "-4611686018427387904"
        );
    }

    #[test]
    fn points_serialize_as_json_numbers() {
        assert_eq!(serde_json::to_string(&p(1.5)).unwrap(), "1.5");
        assert_eq!(serde_json::to_string(&p(2.0)).unwrap(), "2");
        assert_eq!(serde_json::to_string(&p(-0.5)).unwrap(), "-0.5");
        assert_eq!(serde_json::from_str::<Points>("1.5").unwrap(), p(1.5));
        assert_eq!(serde_json::from_str::<Points>("2").unwrap(), p(2.0));
        assert_eq!(serde_json::from_str::<Points>("-0.5").unwrap(), p(-0.5));
        assert_eq!(serde_json::from_str::<Points>("2.0").unwrap(), p(2.0));
        assert!(serde_json::from_str::<Points>("1.25").is_err());
        assert!(serde_json::from_str::<Points>("1e300").is_err());
        assert!(serde_json::from_str::<Points>("18446744073709551615").is_err());
        assert!(serde_json::from_str::<Points>("\"2\"").is_err());
    }

    #[test]
    fn points_parse_whole_and_half_points() {
        assert_eq!("3".parse::<Points>(), Ok(p(3.0)));
        assert_eq!(" 1.5 ".parse::<Points>(), Ok(p(1.5)));
        assert_eq!("-0.5".parse::<Points>(), Ok(p(-0.5)));
        assert_eq!("+2".parse::<Points>(), Ok(p(2.0)));
        assert_eq!("2.50".parse::<Points>(), Ok(p(2.5)));
        assert_eq!("2.0".parse::<Points>(), Ok(p(2.0)));
        for bad in [
            "1.25",
            "abc",
            "",
            "-",
            ".5",
            "1.x",
            "1.5.5",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<Points>().is_err(), "{bad}");
        }
        assert_eq!(
            "1.25".parse::<Points>().unwrap_err().to_string(),
            "'1.25' is not a number of points; use whole or half points, like 3 or 1.5"
        );
    }

    #[test]
    fn points_arithmetic_saturates() {
        let mut x = p(1.5) + p(2.0) - p(0.5);
        assert_eq!(x, p(3.0));
        x += p(0.5);
        x -= p(1.0);
        assert_eq!(x, p(2.5));
        assert_eq!(-x, p(-2.5));
        assert_eq!(p(1.5) * 3, p(4.5));
        assert_eq!([p(1.5), p(0.5), p(1.0)].into_iter().sum::<Points>(), p(3.0));
        let max = Points::from_halves(i64::MAX);
        assert_eq!(max + p(1.0), max);
        assert_eq!(-Points::from_halves(i64::MIN), max);
        assert_eq!(Points::whole(i64::MAX), max);
    }

    // R100: a knight forfeiting half keeps half rounded down to the half point.
    #[test]
    fn r100_halving_keeps_the_lower_half_point() {
        assert_eq!(p(5.5).half(), p(2.5));
        assert_eq!(p(5.5).forfeit_half(), p(3.0));
        assert_eq!(p(5.0).half(), p(2.5));
        assert_eq!(p(5.0).forfeit_half(), p(2.5));
        assert_eq!(p(0.5).half(), p(0.0));
        assert_eq!(p(0.5).forfeit_half(), p(0.5));
        assert_eq!(p(0.0).forfeit_half(), p(0.0));
        assert_eq!(p(-1.0).forfeit_half(), p(0.0));
        assert_eq!(p(-0.5).half(), p(-0.5));
    }

    // ---- Awards (R28, R29) -------------------------------------------------------------------

    // R29: a landed award is half HP, half PP, in half points.
    #[test]
    fn r29_landed_awards_split_in_half_points() {
        assert_eq!(
            award(p(1.0), true),
            Award {
                hp: p(0.5),
                pp: p(0.5)
            }
        );
        assert_eq!(
            award(p(1.0), false),
            Award {
                hp: p(1.0),
                pp: p(0.0)
            }
        );
        assert_eq!(
            award(p(3.0), true),
            Award {
                hp: p(1.5),
                pp: p(1.5)
            }
        );
        // R101: an odd half point goes to HP.
        assert_eq!(
            award(p(0.5), true),
            Award {
                hp: p(0.5),
                pp: p(0.0)
            }
        );
        assert_eq!(
            award(p(2.5), true),
            Award {
                hp: p(1.5),
                pp: p(1.0)
            }
        );
    }

    // R29, R36: each award of the table is 1 HP, split when landed.
    #[test]
    fn r29_honor_rows_name_their_award() {
        let e = honor(7, HonorAward::ListsMatch, true);
        assert_eq!((e.knight, e.hp, e.pp), (7, p(0.5), p(0.5)));
        assert_eq!(e.reason.to_string(), "fought a match in the lists (R36)");
        let e = honor(7, HonorAward::FirstPrize, false);
        assert_eq!((e.hp, e.pp), (p(1.0), p(0.0)));
        assert_eq!(e.reason.rule(), "R36, R37");
    }

    // R28: 1 HP a practice win, 4 a month; R110: a landed win counts as one of the four.
    #[test]
    fn r28_practice_hp_four_a_month() {
        for had in 0..4 {
            assert_eq!(
                practice_award(had, false),
                Ok(Award {
                    hp: p(1.0),
                    pp: p(0.0)
                })
            );
        }
        assert_eq!(practice_award(4, false), Err(PracticeRefusal::MonthlyLimit));
        assert_eq!(practice_award(9, true), Err(PracticeRefusal::MonthlyLimit));
        assert_eq!(
            PracticeRefusal::MonthlyLimit.to_string(),
            "already earned 4 practice HP this month; no more until next month (R28)"
        );
        let e = practice_honor(3, true, 3).unwrap();
        assert_eq!((e.knight, e.hp, e.pp), (3, p(0.5), p(0.5)));
        assert_eq!(
            e.reason,
            Reason::Award {
                award: HonorAward::Practice
            }
        );
        assert!(practice_honor(3, true, 4).is_err());
    }

    // ---- Spending (R30) ----------------------------------------------------------------------

    // R30: each step's cost at its boundaries.
    #[test]
    fn r30_step_costs_by_current_value() {
        let cases = [
            (0, 2.0),
            (40, 2.0),
            (49, 2.0),
            (50, 5.0),
            (59, 5.0),
            (60, 10.0),
            (69, 10.0),
            (70, 15.0),
            (79, 15.0),
        ];
        for (current, cost) in cases {
            assert_eq!(step_cost(Skill::Sword, current), Ok(p(cost)), "{current}");
        }
        for current in [80, 90, 100, 255] {
            assert_eq!(
                step_cost(Skill::Sword, current),
                Err(SpendRefusal::Capped {
                    skill: AnySkill::Fighting(Skill::Sword),
                    current
                })
            );
        }
        assert_eq!(
            step_cost(Skill::Sword, 80).unwrap_err().to_string(),
            "Sword is 80: skills at 80 or above cannot be raised (R30)"
        );
    }

    // R30: the whole cost must be there; the step is 10.
    #[test]
    fn r30_spend_needs_the_whole_cost() {
        let err = spend(p(3.5), Skill::Lance, 50).unwrap_err();
        assert_eq!(
            err.to_string(),
            "raising Lance from 50 costs 5 HP; you have 3.5 (R30)"
        );
        let ok = spend(p(5.0), Skill::Lance, 50).unwrap();
        assert_eq!((ok.cost, ok.from, ok.to), (p(5.0), 50, 60));
        let c = ok.changes(9);
        assert_eq!(c.net(9), (p(-5.0), p(0.0)));
        assert_eq!(
            c.facts,
            vec![Fact::Skill {
                knight: 9,
                skill: AnySkill::Fighting(Skill::Lance),
                value: 60
            }]
        );
        assert_eq!(
            c.entries[0].reason.to_string(),
            "raised Lance from 50 to 60 (R30)"
        );
        assert!(spend(p(100.0), Skill::Lance, 80).is_err());
        assert!(spend(p(14.5), Skill::Ride, 70).is_err());
        assert_eq!(spend(p(15.0), Skill::Ride, 79).unwrap().to, 89);
    }

    // R30: psi skills cost the same; an unlearned one (0) opens to 10 for 2 HP.
    #[test]
    fn r30_psi_skills_open_from_zero() {
        let s = spend(p(2.0), PsiSkill::Negapsi, 0).unwrap();
        assert_eq!((s.cost, s.from, s.to), (p(2.0), 0, 10));
        assert_eq!(s.skill, AnySkill::Psi(PsiSkill::Negapsi));
        assert!(spend(p(1.5), PsiSkill::Negapsi, 0).is_err());
        assert_eq!(step_cost(PsiSkill::Cpk, 60), Ok(p(10.0)));
        assert_eq!(
            step_cost(PsiSkill::Cpk, 85).unwrap_err().to_string(),
            "CPK is 85: skills at 80 or above cannot be raised (R30)"
        );
    }

    // ---- Land (R31) --------------------------------------------------------------------------

    // R31: 12 HP buys lands from the monarch: +5 PP and landed; 11.5 is not enough.
    #[test]
    fn r31_land_from_the_monarch_costs_12_hp() {
        let mut k = knight("Alan", 0.0, false, Rank::Knight, None);
        k.hp = p(12.0);
        let r = realm(vec![(1, k.clone())]);
        let c = land_from_monarch(&r, 1).unwrap();
        assert_eq!(c.net(1), (p(-12.0), p(5.0)));
        assert_eq!(c.facts, vec![Fact::Landed { knight: 1 }]);
        let after = applied(&r, &c);
        let h = after.get(1).unwrap();
        assert!(h.landed);
        assert_eq!((h.hp, h.pp), (p(0.0), p(5.0)));
        // Already landed.
        assert_eq!(
            land_from_monarch(&after, 1).unwrap_err().to_string(),
            "Sir Alan already holds lands (R31)"
        );
        k.hp = p(11.5);
        let r = realm(vec![(1, k)]);
        assert_eq!(
            land_from_monarch(&r, 1).unwrap_err().to_string(),
            "a grant of lands from the monarch costs 12 HP; Sir Alan has 11.5 (R31)"
        );
        assert_eq!(
            land_from_monarch(&r, 2),
            Err(LandRefusal::Unknown(UnknownKnight(2)))
        );
    }

    fn baron_with_two_vassals(baron_pp: f64) -> Realm {
        realm(vec![
            (1, knight("Brenna", baron_pp, true, Rank::Baron, None)),
            (2, knight("Cai", 5.0, true, Rank::Knight, Some(1))),
            (3, knight("Dara", 5.0, true, Rank::Knight, Some(1))),
            (4, knight("Emlyn", 0.0, false, Rank::Knight, None)),
        ])
    }

    // R31: a noble's grant moves 5 PP, lands the knight and makes them a vassal.
    #[test]
    fn r31_grant_from_a_noble() {
        let r = baron_with_two_vassals(20.0);
        let c = land_from_noble(&r, 1, 4).unwrap();
        assert_eq!(c.net(1), (p(0.0), p(-5.0)));
        assert_eq!(c.net(4), (p(0.0), p(5.0)));
        assert!(c.facts.contains(&Fact::Landed { knight: 4 }));
        let after = applied(&r, &c);
        let e = after.get(4).unwrap();
        assert!(e.landed);
        assert_eq!((e.lord, e.pp), (Some(1), p(5.0)));
        assert_eq!(after.get(1).unwrap().pp, p(15.0));
    }

    // R31: the noble must keep 5 PP per vassal afterwards: exactly at the floor is allowed,
    // one half point below is refused.
    #[test]
    fn r31_five_pp_per_vassal_floor() {
        // 20 - 5 = 15 = 5 x 3 vassals.
        assert!(land_from_noble(&baron_with_two_vassals(20.0), 1, 4).is_ok());
        let err = land_from_noble(&baron_with_two_vassals(19.5), 1, 4).unwrap_err();
        assert_eq!(
            err,
            LandRefusal::Floor {
                noble: "Baron Brenna".into(),
                after: p(14.5),
                vassals: 3,
                floor: p(15.0)
            }
        );
        assert_eq!(
            err.to_string(),
            "Baron Brenna would keep 14.5 PP for 3 vassals; a grant must leave at least 15 PP, 5 per vassal (R31)"
        );
    }

    // R31, R104: who may grant and who may receive.
    #[test]
    fn r31_grant_refusals() {
        let mut r = baron_with_two_vassals(40.0);
        // A landed knight is not a noble.
        assert_eq!(
            land_from_noble(&r, 2, 4).unwrap_err().to_string(),
            "Sir Cai is not a noble: only a Baron or higher may grant lands (R31)"
        );
        assert_eq!(
            land_from_noble(&r, 1, 2),
            Err(LandRefusal::AlreadyLanded("Sir Cai".into()))
        );
        assert_eq!(land_from_noble(&r, 1, 1), Err(LandRefusal::SelfGrant));
        // Emlyn sworn to another noble.
        r.insert(5, knight("Ffion", 40.0, true, Rank::Baron, None));
        r.knights.get_mut(&4).unwrap().lord = Some(5);
        assert_eq!(
            land_from_noble(&r, 1, 4).unwrap_err().to_string(),
            "Sir Emlyn is the vassal of Baron Ffion; only their own lord may grant them lands (R31, R104)"
        );
        // R104: their own lord may: the vassal count stays 1, so 10 - 5 = 5 >= 5 x 1.
        r.knights.get_mut(&5).unwrap().pp = p(10.0);
        let c = land_from_noble(&r, 5, 4).unwrap();
        assert!(!c.facts.iter().any(|f| matches!(f, Fact::Lord { .. })));
        let after = applied(&r, &c);
        assert_eq!(after.get(4).unwrap().lord, Some(5));
        assert!(after.get(4).unwrap().landed);
    }

    // ---- Titles (R32) ------------------------------------------------------------------------

    // R32: Baron 20, Viscount 80, Earl 320, Duke 1,440; one half point below is refused.
    #[test]
    fn r32_title_thresholds() {
        let steps = [
            (Rank::Knight, Rank::Baron, 20.0),
            (Rank::Baron, Rank::Viscount, 80.0),
            (Rank::Viscount, Rank::Earl, 320.0),
            (Rank::Earl, Rank::Duke, 1440.0),
        ];
        for (from, to, pp) in steps {
            let r = realm(vec![(1, knight("Alan", pp, true, from, None))]);
            assert_eq!(advance(&r, 1), Ok(to), "{pp}");
            let r = realm(vec![(1, knight("Alan", pp - 0.5, true, from, None))]);
            assert_eq!(
                advance(&r, 1),
                Err(TitleRefusal::ShortOfPrestige {
                    knight: format!("{} Alan", from.title(Style::Sir)),
                    title: to.title(Style::Sir),
                    needed: p(pp),
                    counted: p(pp - 0.5)
                }),
                "{pp}"
            );
        }
        let r = realm(vec![(1, knight("Alan", 19.5, true, Rank::Knight, None))]);
        assert_eq!(
            advance(&r, 1).unwrap_err().to_string(),
            "Baron needs 20 PP for advancement; Sir Alan counts 19.5 (R32)"
        );
    }

    // R32: the title needs land; a Duke can rise no further; styles follow Sir or Dame.
    #[test]
    fn r32_land_and_the_top() {
        let r = realm(vec![(1, knight("Alan", 25.0, false, Rank::Knight, None))]);
        assert_eq!(
            advance(&r, 1).unwrap_err().to_string(),
            "Sir Alan holds no lands: a title needs a grant of lands first (R32)"
        );
        let mut duchess = knight("Brenna", 5000.0, true, Rank::Duke, None);
        duchess.style = Style::Dame;
        let r = realm(vec![(1, duchess)]);
        assert_eq!(
            advance(&r, 1).unwrap_err().to_string(),
            "Duchess Brenna already holds the highest rank (R32)"
        );
        let mut dame = knight("Cerys", 90.0, true, Rank::Knight, None);
        dame.style = Style::Dame;
        let r = realm(vec![(1, dame)]);
        let c = grant_title(&r, 1).unwrap();
        assert_eq!(
            c.facts,
            vec![Fact::Rank {
                knight: 1,
                rank: Rank::Viscount
            }]
        );
        assert_eq!(applied(&r, &c).styled(1), "Viscountess Cerys");
    }

    // R102: one ask climbs to the highest eligible rank.
    #[test]
    fn r102_one_ask_climbs_every_open_rank() {
        let r = realm(vec![(1, knight("Alan", 100.0, true, Rank::Knight, None))]);
        assert_eq!(advance(&r, 1), Ok(Rank::Viscount));
        let r = realm(vec![(1, knight("Alan", 1440.0, true, Rank::Knight, None))]);
        assert_eq!(advance(&r, 1), Ok(Rank::Duke));
    }

    fn tree(b_pp: f64) -> Realm {
        // 1 Baron Lleu, 60 PP
        // ├── 2 Sir Aled, landed, 10
        // │   ├── 3 Sir Bryn, unlanded, b_pp (ransom PP)
        // │   └── 5 Sir Dai, landed, 2
        // │       └── 6 Sir Elis, unlanded, 1.5
        // └── 4 Sir Caradog, unlanded, 0
        realm(vec![
            (1, knight("Lleu", 60.0, true, Rank::Baron, None)),
            (2, knight("Aled", 10.0, true, Rank::Knight, Some(1))),
            (3, knight("Bryn", b_pp, false, Rank::Knight, Some(2))),
            (4, knight("Caradog", 0.0, false, Rank::Knight, Some(1))),
            (5, knight("Dai", 2.0, true, Rank::Knight, Some(2))),
            (6, knight("Elis", 1.5, false, Rank::Knight, Some(5))),
        ])
    }

    // R32: personal PP + every vassal's PP, recursively, + 2 per unlanded knight below.
    #[test]
    fn r32_advancement_counts_the_whole_tree() {
        // 60 + 10 + (0.5 + 2) + (0 + 2) + 2 + (1.5 + 2) = 80.
        let r = tree(0.5);
        assert_eq!(advancement_pp(&r, 1), Ok(p(80.0)));
        assert_eq!(advance(&r, 1), Ok(Rank::Viscount));
        let r = tree(0.0);
        assert_eq!(advancement_pp(&r, 1), Ok(p(79.5)));
        assert!(matches!(
            advance(&r, 1),
            Err(TitleRefusal::ShortOfPrestige { .. })
        ));
        // A vassal counts only the knights below them: 10 + (Bryn + 2) + 2 + (1.5 + 2).
        assert_eq!(advancement_pp(&tree(0.0), 2), Ok(p(17.5)));
        assert_eq!(advancement_pp(&tree(2.0), 2), Ok(p(19.5)));
        assert_eq!(advancement_pp(&r, 9), Err(UnknownKnight(9)));
    }

    // R32, R103: a vassal reaches the lord's rank only with personal PP at least the lord's.
    #[test]
    fn r32_vassal_needs_the_lords_personal_pp() {
        let lord_and = |pp: f64, lord_rank: Rank, lord_pp: f64| {
            realm(vec![
                (1, knight("Lleu", lord_pp, true, lord_rank, None)),
                (2, knight("Aled", pp, true, Rank::Knight, Some(1))),
            ])
        };
        let r = lord_and(25.0, Rank::Baron, 30.0);
        assert_eq!(
            advance(&r, 2).unwrap_err().to_string(),
            "Sir Aled may rise to Baron, the rank of their lord Baron Lleu, only with at least the lord's 30 personal PP; they have 25 (R32, R103)"
        );
        assert_eq!(
            advance(&lord_and(30.0, Rank::Baron, 30.0), 2),
            Ok(Rank::Baron)
        );
        // Below the lord's rank the lord's PP do not matter.
        assert_eq!(
            advance(&lord_and(25.0, Rank::Viscount, 100.0), 2),
            Ok(Rank::Baron)
        );
        // R102 + R103: the climb stops below the lord's rank.
        assert_eq!(
            advance(&lord_and(90.0, Rank::Viscount, 100.0), 2),
            Ok(Rank::Baron)
        );
        assert_eq!(
            advance(&lord_and(100.0, Rank::Viscount, 100.0), 2),
            Ok(Rank::Viscount)
        );
    }

    // R103: a lord missing from the view is refused, never skipped.
    #[test]
    fn r103_a_lord_missing_from_the_view_is_unknown() {
        let r = realm(vec![(2, knight("Aled", 90.0, true, Rank::Knight, Some(1)))]);
        assert_eq!(advance(&r, 2), Err(TitleRefusal::Unknown(UnknownKnight(1))));
    }

    // ---- Allegiance (R33) --------------------------------------------------------------------

    fn court() -> Realm {
        realm(vec![
            (1, knight("Brenna", 30.0, true, Rank::Baron, None)),
            (2, knight("Emlyn", 1.0, false, Rank::Knight, None)),
            (3, knight("Cai", 5.0, true, Rank::Knight, None)),
            (4, knight("Ffion", 30.0, true, Rank::Baron, None)),
        ])
    }

    // R33: an unlanded knight offers allegiance; the noble accepts.
    #[test]
    fn r33_swearing_allegiance_needs_offer_and_acceptance() {
        let r = court();
        let c = propose(&r, 2, 1, Act::Allegiance).unwrap();
        let offer = Proposal {
            from: 2,
            to: 1,
            act: Act::Allegiance,
        };
        assert_eq!(c.facts, vec![Fact::Proposed(offer)]);
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().lord, None);
        assert!(matches!(
            propose(&r, 2, 1, Act::Allegiance),
            Err(Refusal::Proposal(ProposalRefusal::AlreadyOffered { .. }))
        ));
        let c = propose(&r, 1, 2, Act::Allegiance).unwrap();
        assert!(c.facts.contains(&Fact::Lord {
            vassal: 2,
            lord: Some(1),
            reason: Reason::Sworn { lord: 1 }
        }));
        assert!(c.entries.is_empty());
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().lord, Some(1));
        assert!(r.proposals.is_empty());
        // Already sworn.
        assert_eq!(
            propose(&r, 2, 4, Act::Allegiance).unwrap_err().to_string(),
            "Sir Emlyn already owes allegiance to Baron Brenna (R33)"
        );
    }

    // R33: who may swear to whom.
    #[test]
    fn r33_swearing_refusals() {
        let r = court();
        assert_eq!(
            propose(&r, 3, 1, Act::Allegiance).unwrap_err().to_string(),
            "Sir Cai holds lands: a landed knight becomes a vassal only by a grant of lands (R33)"
        );
        assert_eq!(
            propose(&r, 2, 3, Act::Allegiance).unwrap_err().to_string(),
            "Sir Cai is not a noble: only a Baron or higher may take vassals (R33)"
        );
        assert_eq!(
            propose(&r, 2, 2, Act::Allegiance),
            Err(Refusal::Allegiance(AllegianceRefusal::SelfTie))
        );
        assert_eq!(
            propose(&r, 2, 9, Act::Allegiance),
            Err(Refusal::Allegiance(AllegianceRefusal::Unknown(
                UnknownKnight(9)
            )))
        );
        // A circle: the noble already stands below the knight (data that should never be,
        // but the books refuse rather than loop).
        let mut r2 = court();
        r2.knights.get_mut(&1).unwrap().lord = Some(2);
        assert!(matches!(
            propose(&r2, 2, 1, Act::Allegiance),
            Err(Refusal::Allegiance(AllegianceRefusal::Circle { .. }))
        ));
        // R105: not between hostiles.
        let mut r3 = court();
        r3.hostilities.insert(pair(1, 2));
        assert_eq!(
            propose(&r3, 2, 1, Act::Allegiance).unwrap_err().to_string(),
            "Sir Emlyn and Baron Brenna are hostile; they must end the hostility before swearing allegiance (R33, R105)"
        );
    }

    #[test]
    fn offers_can_be_withdrawn() {
        let r = court();
        let r = applied(&r, &propose(&r, 2, 1, Act::Allegiance).unwrap());
        let c = withdraw(&r, 2, 1, Act::Allegiance).unwrap();
        let r = applied(&r, &c);
        assert!(r.proposals.is_empty());
        assert_eq!(
            withdraw(&r, 2, 1, Act::Allegiance).unwrap_err().to_string(),
            "Sir Emlyn has made no offer of allegiance to Baron Brenna"
        );
    }

    fn sworn(vassal_pp: f64, vassal_landed: bool, lord_pp: f64) -> Realm {
        realm(vec![
            (1, knight("Brenna", lord_pp, true, Rank::Baron, None)),
            (
                2,
                knight("Cai", vassal_pp, vassal_landed, Rank::Knight, Some(1)),
            ),
            (3, knight("Dara", 3.0, true, Rank::Knight, None)),
        ])
    }

    // R33: mutual consent ends allegiance without penalty and without hostility.
    #[test]
    fn r33_break_by_mutual_consent() {
        let r = sworn(5.5, true, 30.0);
        let c = propose(&r, 2, 1, Act::Release).unwrap();
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().lord, Some(1));
        let c = propose(&r, 1, 2, Act::Release).unwrap();
        assert!(c.entries.is_empty());
        assert!(!c
            .facts
            .iter()
            .any(|f| matches!(f, Fact::HostilityBegun { .. })));
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().lord, None);
        assert_eq!(r.get(2).unwrap().pp, p(5.5));
        assert!(!r.is_hostile(1, 2));
        assert!(r.proposals.is_empty());
        assert_eq!(
            propose(&r, 1, 2, Act::Release).unwrap_err().to_string(),
            "Baron Brenna and Sir Cai are not lord and vassal (R33)"
        );
    }

    // R33, R100: a vassal who declares hostility against the lord forfeits half their PP:
    // 5.5 keeps 2.5 and loses 3; hostility begins.
    #[test]
    fn r33_vassal_declaring_hostility_is_oathbreaking() {
        let r = sworn(5.5, true, 30.0);
        let c = declare_hostility(&r, 2, 1).unwrap();
        assert_eq!(c.net(2), (p(0.0), p(-3.0)));
        assert_eq!(c.net(1), (p(0.0), p(0.0)));
        assert_eq!(c.entries[0].reason, Reason::Oathbreaking { against: 1 });
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().pp, p(2.5));
        assert_eq!(r.get(2).unwrap().lord, None);
        assert!(r.is_hostile(1, 2));
        // An unlanded vassal may break this way too.
        let r = sworn(1.0, false, 30.0);
        let after = applied(&r, &declare_hostility(&r, 2, 1).unwrap());
        assert_eq!(after.get(2).unwrap().pp, p(0.5));
        assert!(after.is_hostile(2, 1));
    }

    // R33, R100: a lord who declares hostility against a vassal forfeits half: 21.5 keeps 10.5.
    #[test]
    fn r33_lord_declaring_hostility_is_oathbreaking() {
        let r = sworn(4.0, true, 21.5);
        let c = declare_hostility(&r, 1, 2).unwrap();
        assert_eq!(c.net(1), (p(0.0), p(-11.0)));
        assert_eq!(c.net(2), (p(0.0), p(0.0)));
        let r = applied(&r, &c);
        assert_eq!(r.get(1).unwrap().pp, p(10.5));
        assert!(r.is_hostile(1, 2));
        assert_eq!(r.get(2).unwrap().lord, None);
    }

    // R33, R100: dismissed for refusing duties, the ex-vassal loses half: 7.5 keeps 3.5.
    #[test]
    fn r33_lord_dismisses_a_vassal_who_refused_duties() {
        let r = sworn(7.5, true, 30.0);
        let c = dismiss(&r, 1, 2).unwrap();
        assert_eq!(c.net(2), (p(0.0), p(-4.0)));
        assert_eq!(c.net(1), (p(0.0), p(0.0)));
        assert_eq!(
            c.entries[0].reason.to_string(),
            "dismissed by knight 1 for refusing the duties of allegiance (R33, R100)"
        );
        let r = applied(&r, &c);
        assert_eq!(r.get(2).unwrap().pp, p(3.5));
        assert!(r.is_hostile(1, 2));
        assert_eq!(
            dismiss(&r, 1, 2).unwrap_err().to_string(),
            "Sir Cai is not the vassal of Baron Brenna (R33)"
        );
    }

    // R33: a vassal renounces a lord who failed them: no penalty, hostility.
    #[test]
    fn r33_vassal_renounces_a_failing_lord() {
        for g in [
            Grievance::LordBrokeWithHigherLord,
            Grievance::LordFailedToRansom,
        ] {
            let r = sworn(5.5, true, 30.0);
            let c = renounce(&r, 2, g).unwrap();
            assert!(c.entries.is_empty());
            assert!(c.facts.contains(&Fact::HostilityBegun {
                a: 1,
                b: 2,
                reason: Reason::Renounced { grievance: g }
            }));
            let r = applied(&r, &c);
            assert_eq!(r.get(2).unwrap().pp, p(5.5));
            assert_eq!(r.get(2).unwrap().lord, None);
            assert!(r.is_hostile(1, 2));
        }
        let r = sworn(5.5, true, 30.0);
        assert_eq!(
            renounce(&r, 3, Grievance::LordFailedToRansom)
                .unwrap_err()
                .to_string(),
            "Sir Dara owes allegiance to no player noble (R33)"
        );
    }

    // ---- Hostility (R33, R39) ----------------------------------------------------------------

    // R33: declared between nobles or landed knights only.
    #[test]
    fn r33_hostility_between_landed_knights_and_nobles() {
        let r = court();
        let c = declare_hostility(&r, 3, 4).unwrap();
        assert!(c.entries.is_empty());
        assert_eq!(
            c.facts,
            vec![Fact::HostilityBegun {
                a: 3,
                b: 4,
                reason: Reason::HostilityDeclared
            }]
        );
        let r2 = applied(&r, &c);
        assert!(r2.is_hostile(4, 3));
        assert_eq!(
            declare_hostility(&r2, 4, 3).unwrap_err().to_string(),
            "Baron Ffion and Sir Cai are already hostile (R33)"
        );
        assert_eq!(
            declare_hostility(&r, 1, 2).unwrap_err().to_string(),
            "Sir Emlyn holds no lands: hostility is declared only between nobles and landed knights (R33)"
        );
        assert_eq!(
            declare_hostility(&r, 1, 1),
            Err(HostilityRefusal::SelfHostility)
        );
    }

    // R33: hostility ends only by the assent of both.
    #[test]
    fn r33_peace_needs_both() {
        let mut r = court();
        r.hostilities.insert(pair(3, 4));
        let c = propose(&r, 4, 3, Act::Peace).unwrap();
        let r = applied(&r, &c);
        assert!(r.is_hostile(3, 4), "one assent is not enough");
        let c = propose(&r, 3, 4, Act::Peace).unwrap();
        assert!(c.facts.contains(&Fact::HostilityEnded {
            a: 3,
            b: 4,
            reason: Reason::Peace
        }));
        let r = applied(&r, &c);
        assert!(!r.is_hostile(3, 4));
        assert!(r.proposals.is_empty());
        assert_eq!(
            propose(&r, 3, 4, Act::Peace).unwrap_err().to_string(),
            "Sir Cai and Baron Ffion are not hostile (R33)"
        );
    }

    // R33, R39: hostility reaches vassals and subvassals on both sides, not the lords above.
    #[test]
    fn r33_hostile_parties_reach_down_not_up() {
        // 10 Viscount Xavier (above X)
        // └── 1 Baron X  ── hostile ──  2 Baron Y
        //     └── 3 XV                  └── 5 YV
        //         └── 4 XVV
        let mut r = realm(vec![
            (10, knight("Xavier", 100.0, true, Rank::Viscount, None)),
            (1, knight("X", 30.0, true, Rank::Baron, Some(10))),
            (2, knight("Y", 30.0, true, Rank::Baron, None)),
            (3, knight("XV", 5.0, true, Rank::Knight, Some(1))),
            (4, knight("XVV", 0.0, false, Rank::Knight, Some(3))),
            (5, knight("YV", 5.0, true, Rank::Knight, Some(2))),
            (6, knight("Other", 5.0, true, Rank::Knight, None)),
        ]);
        r.hostilities.insert(pair(1, 2));
        assert!(hostile_parties(&r, 1, 2));
        assert!(hostile_parties(&r, 2, 1));
        assert!(hostile_parties(&r, 3, 5));
        assert!(hostile_parties(&r, 4, 2));
        assert!(hostile_parties(&r, 5, 4));
        assert!(
            !hostile_parties(&r, 10, 2),
            "the lord above is not drawn in"
        );
        assert!(!hostile_parties(&r, 10, 5));
        assert!(!hostile_parties(&r, 3, 4), "same side");
        assert!(!hostile_parties(&r, 6, 2));
        assert!(!hostile_parties(&r, 1, 1));
        assert!(!hostile_parties(&r, 1, 99));
    }

    // A circle of allegiance in stored data must not hang any walk of the tree.
    #[test]
    fn circles_in_stored_data_terminate() {
        let mut r = realm(vec![
            (1, knight("A", 20.0, true, Rank::Baron, Some(2))),
            (2, knight("B", 20.0, true, Rank::Baron, Some(1))),
            (3, knight("C", 20.0, true, Rank::Baron, None)),
        ]);
        r.hostilities.insert(pair(2, 3));
        assert!(hostile_parties(&r, 1, 3));
        assert_eq!(r.lords_above(1), vec![2]);
        assert_eq!(advancement_pp(&r, 1), Ok(p(40.0)));
        assert!(advance(&r, 1).is_err());
    }

    // ---- Ransom (R33) ------------------------------------------------------------------------

    // R33: the customary ransoms (a Count is an Earl).
    #[test]
    fn r33_customary_ransoms() {
        let cases = [
            (false, Rank::Knight, 2.0),
            (true, Rank::Knight, 3.0),
            (true, Rank::Baron, 10.0),
            (true, Rank::Viscount, 20.0),
            (true, Rank::Earl, 40.0),
            (true, Rank::Duke, 80.0),
        ];
        for (landed, rank, pp) in cases {
            let h = knight("K", 0.0, landed, rank, None);
            assert_eq!(customary_ransom(&h), p(pp), "{rank:?}");
            let r = realm(vec![
                (1, h),
                (2, knight("V", 0.0, true, Rank::Knight, None)),
            ]);
            let c = capture(&r, 1, 2, false).unwrap();
            let Some(Fact::Held(held)) = c.facts.first() else {
                panic!("no captivity")
            };
            assert_eq!((held.customary, held.demanded), (p(pp), Some(p(pp))));
        }
    }

    fn captured(captive: Holding, under_hostility: bool) -> Realm {
        let r = realm(vec![
            (1, captive),
            (2, knight("Victor", 0.0, false, Rank::Knight, None)),
            (3, knight("Payer", 1.5, false, Rank::Knight, None)),
            (4, knight("Rich", 100.0, true, Rank::Knight, None)),
        ]);
        applied(&r, &capture(&r, 1, 2, under_hostility).unwrap())
    }

    #[test]
    fn r33_capture_refusals() {
        let r = captured(knight("Cai", 0.0, true, Rank::Knight, None), false);
        assert!(matches!(
            capture(&r, 1, 4, false),
            Err(RansomRefusal::AlreadyCaptive { .. })
        ));
        assert_eq!(
            capture(&r, 4, 1, false).unwrap_err().to_string(),
            "Sir Cai is a captive and cannot hold another (R33)"
        );
        assert_eq!(capture(&r, 4, 4, false), Err(RansomRefusal::SelfCapture));
    }

    // R33, R107: the victor asks the customary ransom or less.
    #[test]
    fn r33_demands() {
        let r = captured(knight("Cai", 0.0, true, Rank::Baron, None), false);
        assert_eq!(
            demand(&r, 2, 1, p(10.5)).unwrap_err().to_string(),
            "the customary ransom for Baron Cai is 10 PP; the victor may ask that or less, not 10.5 (R33, R107)"
        );
        assert_eq!(
            demand(&r, 2, 1, p(-1.0)),
            Err(RansomRefusal::NegativeDemand(p(-1.0)))
        );
        assert_eq!(
            demand(&r, 4, 1, p(5.0)).unwrap_err().to_string(),
            "only Sir Victor, who holds Baron Cai, may do that (R33)"
        );
        let r = applied(&r, &demand(&r, 2, 1, p(6.0)).unwrap());
        assert_eq!(r.captivities[&1].outstanding(), Some(p(6.0)));
        // Part paid, then the victor may not ask less than that, and asking exactly it frees.
        let r = applied(&r, &pay(&r, 4, 1, p(2.5)).unwrap());
        assert!(matches!(
            demand(&r, 2, 1, p(2.0)),
            Err(RansomRefusal::BelowPaid { .. })
        ));
        let c = demand(&r, 2, 1, p(2.5)).unwrap();
        assert_eq!(c.facts, vec![Fact::Released { captive: 1 }]);
        // Asking nothing frees a captive for whom nothing was paid.
        let r = captured(knight("Cai", 0.0, true, Rank::Baron, None), false);
        assert_eq!(
            demand(&r, 2, 1, p(0.0)).unwrap().facts,
            vec![Fact::Released { captive: 1 }]
        );
    }

    // R33, R29: anyone with PP pays; the payer loses, the victor gains; nothing is split and
    // nobody becomes landed; paid in full, the captive is released.
    #[test]
    fn r33_payment_moves_pp_from_payer_to_victor() {
        let r = captured(knight("Cai", 0.0, true, Rank::Knight, None), false);
        let c = pay(&r, 3, 1, p(1.5)).unwrap();
        assert_eq!(c.net(3), (p(0.0), p(-1.5)));
        assert_eq!(c.net(2), (p(0.0), p(1.5)));
        assert_eq!(c.entries[1].reason, Reason::RansomReceived { captive: 1 });
        assert!(!c.facts.iter().any(|f| matches!(f, Fact::Landed { .. })));
        let r = applied(&r, &c);
        assert!(r.captivities.contains_key(&1));
        assert_eq!(r.captivities[&1].outstanding(), Some(p(1.5)));
        let c = pay(&r, 4, 1, p(1.5)).unwrap();
        assert!(c.facts.contains(&Fact::Released { captive: 1 }));
        let r = applied(&r, &c);
        assert!(!r.captivities.contains_key(&1));
        let victor = r.get(2).unwrap();
        assert_eq!(
            (victor.pp, victor.hp, victor.landed),
            (p(3.0), p(0.0), false)
        );
        assert_eq!(
            pay(&r, 4, 1, p(1.0)).unwrap_err().to_string(),
            "Sir Cai is not held for ransom (R33)"
        );
    }

    #[test]
    fn r33_payment_refusals() {
        let r = captured(knight("Cai", 0.0, true, Rank::Baron, None), false);
        assert_eq!(
            pay(&r, 3, 1, p(2.0)).unwrap_err().to_string(),
            "Sir Payer has 1.5 PP and cannot pay 2 (R33)"
        );
        assert_eq!(
            pay(&r, 4, 1, p(10.5)).unwrap_err().to_string(),
            "Baron Cai owes 10 PP more in ransom; 10.5 is too much (R33, R107)"
        );
        assert_eq!(
            pay(&r, 4, 1, p(0.0)),
            Err(RansomRefusal::NothingPaid(p(0.0)))
        );
        assert_eq!(
            pay(&r, 2, 1, p(1.0)),
            Err(RansomRefusal::VictorPays("Sir Victor".into()))
        );
        let r = applied(&r, &refuse_ransom(&r, 2, 1).unwrap());
        assert_eq!(
            pay(&r, 4, 1, p(1.0)).unwrap_err().to_string(),
            "Sir Victor refuses ransom for Baron Cai (R33)"
        );
        // Naming a ransom again reopens payment.
        let r = applied(&r, &demand(&r, 2, 1, p(10.0)).unwrap());
        assert!(pay(&r, 4, 1, p(1.0)).is_ok());
    }

    fn lord_captured(vassal: Holding) -> Realm {
        let r = realm(vec![
            (1, knight("Lleu", 40.0, true, Rank::Baron, None)),
            (2, knight("Victor", 0.0, true, Rank::Knight, None)),
            (3, vassal),
        ]);
        applied(&r, &capture(&r, 1, 2, true).unwrap())
    }

    // R33, R108: a non-noble vassal meets the duty with 4 PP toward the lord's ransom; 3.5 is
    // not enough.
    #[test]
    fn r33_four_pp_rule() {
        let r = lord_captured(knight("Aled", 10.0, true, Rank::Knight, Some(1)));
        assert_eq!(
            ransom_duties(&r, 1),
            Ok(vec![Duty::VassalRansomsLord {
                vassal: 3,
                noble: false
            }])
        );
        let c = pay(&r, 3, 1, p(3.5)).unwrap();
        assert!(!c.facts.contains(&Fact::LordRansomed { vassal: 3 }));
        let r2 = applied(&r, &c);
        assert!(!r2.get(3).unwrap().ransomed_lord);
        let c = pay(&r2, 3, 1, p(0.5)).unwrap();
        assert!(c.facts.contains(&Fact::LordRansomed { vassal: 3 }));
        assert!(applied(&r2, &c).get(3).unwrap().ransomed_lord);
        // 4 at once, even though the lord pays the other 6 out of pocket.
        let c = pay(&r, 3, 1, p(4.0)).unwrap();
        assert!(c.facts.contains(&Fact::LordRansomed { vassal: 3 }));
        let r3 = applied(&r, &c);
        assert!(pay(&r3, 1, 1, p(6.0))
            .unwrap()
            .facts
            .contains(&Fact::Released { captive: 1 }));
    }

    // R33, R108: a noble vassal meets the duty only when the ransom is paid in full.
    #[test]
    fn r33_noble_vassal_raises_the_whole_ransom() {
        let r = lord_captured(knight("Aled", 30.0, true, Rank::Baron, Some(1)));
        let c = pay(&r, 3, 1, p(4.0)).unwrap();
        assert!(!c.facts.contains(&Fact::LordRansomed { vassal: 3 }));
        let r = applied(&r, &c);
        let c = pay(&r, 3, 1, p(6.0)).unwrap();
        assert!(c.facts.contains(&Fact::LordRansomed { vassal: 3 }));
        assert!(c.facts.contains(&Fact::Released { captive: 1 }));
    }

    // R33: a landed vassal ransoms the lord once, not a second time.
    #[test]
    fn r33_vassal_ransoms_the_lord_only_once() {
        let r = lord_captured(knight("Aled", 10.0, true, Rank::Knight, Some(1)));
        let r = applied(&r, &pay(&r, 3, 1, p(4.0)).unwrap());
        let r = applied(&r, &pay(&r, 1, 1, p(6.0)).unwrap());
        assert!(r.get(3).unwrap().ransomed_lord);
        // Captured again: no duty now.
        let r = applied(&r, &capture(&r, 1, 2, true).unwrap());
        assert_eq!(ransom_duties(&r, 1), Ok(vec![]));
        // A new lord means a new once.
        let mut r2 = r.clone();
        r2.apply(&Changes {
            entries: vec![],
            facts: vec![Fact::Lord {
                vassal: 3,
                lord: Some(1),
                reason: Reason::Sworn { lord: 1 },
            }],
        });
        assert!(!r2.get(3).unwrap().ransomed_lord);
        assert_eq!(ransom_duties(&r2, 1).unwrap().len(), 1);
    }

    // R33: the lord must ransom an unlanded vassal; a landed vassal's lands guarantee theirs.
    #[test]
    fn r33_lord_ransoms_an_unlanded_vassal() {
        let build = |landed: bool| {
            let r = realm(vec![
                (1, knight("Lleu", 40.0, true, Rank::Baron, None)),
                (2, knight("Victor", 0.0, true, Rank::Knight, None)),
                (3, knight("Aled", 0.0, landed, Rank::Knight, Some(1))),
            ]);
            applied(&r, &capture(&r, 3, 2, false).unwrap())
        };
        let r = build(false);
        let duties = ransom_duties(&r, 3).unwrap();
        assert_eq!(duties, vec![Duty::LordRansomsVassal { lord: 1 }]);
        assert!(!duties[0].met(&r.captivities[&3]));
        let c = pay(&r, 1, 3, p(2.0)).unwrap();
        assert!(c.facts.contains(&Fact::Released { captive: 3 }));
        assert_eq!(ransom_duties(&build(true), 3), Ok(vec![]));
        // None while the victor refuses ransom.
        let r = applied(&r, &refuse_ransom(&r, 2, 3).unwrap());
        assert_eq!(ransom_duties(&r, 3), Ok(vec![]));
    }

    // R33: the victor may free the captive; what was paid stays paid (R107).
    #[test]
    fn r33_victor_frees_the_captive() {
        let r = captured(knight("Cai", 0.0, true, Rank::Baron, None), false);
        let r = applied(&r, &pay(&r, 4, 1, p(3.0)).unwrap());
        assert!(matches!(
            free(&r, 4, 1),
            Err(RansomRefusal::NotVictor { .. })
        ));
        let c = free(&r, 2, 1).unwrap();
        assert!(c.entries.is_empty());
        let r = applied(&r, &c);
        assert!(!r.captivities.contains_key(&1));
        assert_eq!(r.get(2).unwrap().pp, p(3.0));
        assert_eq!(r.get(4).unwrap().pp, p(97.0));
    }

    // R33: death only for a captive of a fight under hostility; R109: their ties end.
    #[test]
    fn r33_death_only_under_hostility() {
        let r = captured(knight("Cai", 0.0, true, Rank::Baron, None), false);
        assert_eq!(
            kill(&r, 2, 1).unwrap_err().to_string(),
            "Baron Cai was not captured in a fight under hostility: death comes only to a captive under hostility (R33)"
        );
        let mut r = captured(knight("Cai", 0.0, true, Rank::Baron, Some(4)), true);
        r.insert(5, knight("Vassal", 5.0, true, Rank::Knight, Some(1)));
        r.hostilities.insert(pair(1, 2));
        r.proposals.insert(Proposal {
            from: 1,
            to: 2,
            act: Act::Peace,
        });
        assert!(matches!(
            kill(&r, 4, 1),
            Err(RansomRefusal::NotVictor { .. })
        ));
        let c = kill(&r, 2, 1).unwrap();
        assert_eq!(c.facts.last(), Some(&Fact::Killed { knight: 1 }));
        let r = applied(&r, &c);
        assert!(r.get(1).is_err());
        assert!(r.captivities.is_empty());
        assert!(r.hostilities.is_empty());
        assert!(r.proposals.is_empty());
        assert_eq!(r.get(5).unwrap().lord, None);
    }

    // ---- Changes -----------------------------------------------------------------------------

    #[test]
    fn changes_serialize_points_as_numbers() {
        let r = sworn(5.5, true, 30.0);
        let c = declare_hostility(&r, 2, 1).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains(r#""pp":-3"#), "{json}");
        assert!(json.contains(r#""type":"hostility_begun""#), "{json}");
        assert_eq!(serde_json::from_str::<Changes>(&json).unwrap(), c);
        let e = honor(1, HonorAward::Practice, true);
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains(r#""hp":0.5,"pp":0.5"#), "{json}");
        let realm_json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Realm>(&realm_json).unwrap(), r);
    }

    #[test]
    fn refusals_convert_into_one_type() {
        let r = court();
        let err: Refusal = declare_hostility(&r, 1, 2).unwrap_err().into();
        assert!(err.to_string().contains("holds no lands"));
        let err: Refusal = spend(p(0.0), Skill::Ride, 30).unwrap_err().into();
        assert_eq!(
            err.to_string(),
            "raising Ride from 30 costs 2 HP; you have 0 (R30)"
        );
    }

    proptest! {
        #[test]
        fn points_text_and_json_round_trip(h in -1_000_000_000i64..1_000_000_000) {
            let x = Points::from_halves(h);
            prop_assert_eq!(x.to_string().parse::<Points>(), Ok(x));
            let json = serde_json::to_string(&x).unwrap();
            prop_assert_eq!(serde_json::from_str::<Points>(&json).unwrap(), x);
        }

        // R29, R100: splitting and halving never lose or invent a half point.
        #[test]
        fn split_and_halving_conserve_points(h in 0i64..1_000_000) {
            let x = Points::from_halves(h);
            let a = award(x, true);
            prop_assert_eq!(a.hp + a.pp, x);
            prop_assert!(a.hp >= a.pp);
            prop_assert_eq!(x.half() + x.forfeit_half(), x);
        }

        #[test]
        fn any_text_parses_or_refuses(s in ".{0,24}") {
            let _ = s.parse::<Points>();
        }
    }
}
