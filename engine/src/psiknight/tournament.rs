//! Tournaments: Lists pairing and progression, the Melee, the monthly schedule and awards (R34–R39).
//!
//! Everything here is a plain value. Knights are [`KnightId`]s, times are plain inputs (a
//! [`Month`] the caller computes in the realm's time zone, R25), the Lists draw takes its dice
//! through [`RollSource`], and every fight comes back as data: this module never rolls a Joust or
//! Swordplay die. The fights are run by the engine's `Match`; this module says who fights whom
//! next, takes each result, and computes the bracket, the eliminations and the awards.
//!
//! - [`Lists`]: the one-on-one elimination (R34–R36). Built from the entrants and the dice of the
//!   first draw; [`Lists::next_match`] says who fights; [`Lists::record`] takes a [`ListsResult`]
//!   and the dice for the next draw; [`Lists::awards`] and [`Lists::bracket`] report.
//! - [`Melee`]: two named sides and ad hoc passes (R37, R39): [`Melee::join`], [`Melee::start`],
//!   [`Melee::offer`] / [`Melee::accept`], [`Melee::resolve`] with a [`PassResult`],
//!   [`Melee::time_up`], [`Melee::awards`].
//! - [`schedule`]: the one-tournament-a-month rule and its logged override (R38).
//! - [`Award`]: whole Honor Points per knight with an [`AwardReason`], for the ledger. The landed
//!   split (R29) is the books' business, not this module's.
//!
//! **Persistence.** [`Lists`] and [`Melee`] derive `Serialize` and `Deserialize` and hold no dice,
//! clock or handle: to persist a tournament in progress, serialize it; to restore it after a
//! restart, deserialize it, and carry on with the same calls. The dice for the next Lists draw are
//! passed to the call that needs them. A restored value that was tampered with cannot make any
//! method panic; at worst a call returns an error.
//!
//! # Rulings made here (R130–R139)
//!
//! - **R130 Lists draw.** At the start of each round the remaining knights, in entry order, are
//!   shuffled by Fisher–Yates driven by the dice: for `i` from `n − 1` down to `1`, roll a
//!   `d(i + 1)` and swap position `i` with position `roll − 1`. A round of `n` knights therefore
//!   takes exactly `n − 1` rolls, `d n, d(n−1), …, d2` in that order, and the script
//!   `n, n−1, …, 2` leaves the entry order unchanged. With an odd count the odd man out is the
//!   last knight in the shuffled order who has not yet sat out (uniform among those eligible, and
//!   no extra roll). The others pair off in shuffled order; the earlier of a pair is listed first
//!   and is the challenger of the match (R40).
//! - **R131 Those who sat out meet first.** If two remaining knights have already sat out, they
//!   are paired with each other that round. Without this, R34 can fail: with 17 entrants the
//!   rounds hold 17, 9, 5 and 3 knights, and if the odd men out of rounds 1 and 2 both win in
//!   round 3, the three left have all sat out and none can be the odd man of round 4. With it, at
//!   most two remaining knights have ever sat out: the pair that meets leaves at most one
//!   survivor, a lone one leaves at most one, and the round's own odd man adds one. A round with
//!   an odd count `n ≥ 3` thus always has at least `n − 2 ≥ 1` knight who may sit out, so no
//!   knight ever sits out twice (`n = 1` means the lists are over). Tested for every count from
//!   2 to 256.
//! - **R132 Placings.** The final is the last round fought. The finalist is the knight who went
//!   out in it; the semi-finalists are the knights who went out in the round before it. Without
//!   double eliminations the final holds two knights and the round before it three or four, so
//!   there are one or two semi-finalists (one when that round had an odd man out, who then
//!   reached the final). These are exactly the knights who lost to the champion or the finalist
//!   in the round before the final, except that a match with no winner puts both its knights
//!   out in its round, so both share that round's placing ("including ties", Honor Point
//!   Awards), though neither lost to a finalist; a final with no winner leaves no champion and
//!   two finalists. Placing is by the round in which a knight went out, never by a bye. Each
//!   placed knight earns 1 HP (R36), the champion 1 more.
//! - **R133 Melee muster.** Knights join while the melee musters; the moderator then starts it,
//!   which needs at least one knight on each side; no one joins after the start.
//! - **R134 Offers.** A knight has at most one open offer of their own, may receive several,
//!   may withdraw their own, and may decline one made to them. When a knight enters a pass, every
//!   other open offer made by or to either knight of that pass lapses.
//! - **R135 Time.** When the moderator calls time, open offers lapse and no pass may start;
//!   passes already under way are fought out, and the melee ends with the last of them (at once
//!   if none is under way). Time cannot be called before the start.
//! - **R136 Major injury in a melee.** A knight unhorsed with a major injury (R12) is out of the
//!   melee even if a remount is allowed and unused: it keeps them out of every fight that day.
//! - **R137 Ransom in a melee.** In a pass for ransom (R39), a knight unhorsed while the other
//!   stays mounted has lost a joust for ransom and "may not fight again until released": they are
//!   out of the melee whatever their remount, and the pass record names the captive and the
//!   victor. When both fall, neither won, no one is captured, and remounts apply as usual.
//! - **R138 Melee first prize.** The moderator names it once, after the melee has ended, to a
//!   knight who took part, on either side.
//! - **R139 Schedule override.** An override is needed, and reported, only when the realm already
//!   has a tournament in the requested month; asking for one when the month is free is a plain
//!   allowance.

use crate::dice::RollSource;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use thiserror::Error;

/// A knight's id in the realm's books.
pub type KnightId = i64;

/// The most knights one Lists takes. Far above any realm's roster; it keeps every die of the draw
/// within a `u32` and the bracket text within reason.
pub const MAX_ENTRANTS: usize = 4096;

/// The most characters in a melee side's name, so it fits a chat line.
pub const MAX_SIDE_NAME_CHARS: usize = 60;

// ---------------------------------------------------------------------------------------------
// Awards
// ---------------------------------------------------------------------------------------------

/// The placings that earn a Lists Honor Point (R36, R132).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placing {
    /// The last knight unbeaten.
    Champion,
    /// Went out in the final.
    Finalist,
    /// Went out in the round before the final.
    SemiFinalist,
}

impl Placing {
    /// The lower-case name for messages and logs.
    pub fn name(self) -> &'static str {
        match self {
            Placing::Champion => "champion",
            Placing::Finalist => "finalist",
            Placing::SemiFinalist => "semi-finalist",
        }
    }
}

impl fmt::Display for Placing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a knight earns Honor Points in a tournament (Honor Point Awards, R36, R37).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AwardReason {
    /// 1 HP per match fought in the lists.
    ListsMatches,
    /// 1 HP per unhorsing of an opponent in the lists.
    ListsUnhorsings,
    /// 1 HP for a top-three finish in the lists.
    ListsTopThree(Placing),
    /// 1 HP more for the champion of the lists (the first prize).
    ListsFirstPrize,
    /// 1 HP for taking part in the melee.
    MeleeParticipant,
    /// 1 HP per unhorsing of an opponent in the melee.
    MeleeUnhorsings,
    /// 1 HP for being on the winning side of the melee.
    MeleeWinningSide,
    /// 1 HP for the melee's first prize, named by the moderator.
    MeleeFirstPrize,
}

impl AwardReason {
    /// A short phrase for a ledger line or a chat message ("matches fought in the lists").
    pub fn describe(self) -> &'static str {
        match self {
            AwardReason::ListsMatches => "matches fought in the lists",
            AwardReason::ListsUnhorsings => "opponents unhorsed in the lists",
            AwardReason::ListsTopThree(Placing::Champion) => "top three in the lists: champion",
            AwardReason::ListsTopThree(Placing::Finalist) => "top three in the lists: finalist",
            AwardReason::ListsTopThree(Placing::SemiFinalist) => {
                "top three in the lists: semi-finalist"
            }
            AwardReason::ListsFirstPrize => "first prize of the lists",
            AwardReason::MeleeParticipant => "took part in the melee",
            AwardReason::MeleeUnhorsings => "opponents unhorsed in the melee",
            AwardReason::MeleeWinningSide => "on the winning side of the melee",
            AwardReason::MeleeFirstPrize => "first prize of the melee",
        }
    }
}

impl fmt::Display for AwardReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Honor Points earned by one knight for one reason, in whole HP. The bot writes one ledger entry
/// per award, naming the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Award {
    /// Who earns it.
    pub knight: KnightId,
    /// How many whole Honor Points.
    pub hp: u32,
    /// What for.
    pub reason: AwardReason,
}

/// Each knight's total HP over a list of awards, by knight id.
pub fn award_totals(awards: &[Award]) -> BTreeMap<KnightId, u32> {
    let mut totals = BTreeMap::new();
    for a in awards {
        let t: &mut u32 = totals.entry(a.knight).or_default();
        *t = t.saturating_add(a.hp);
    }
    totals
}

fn push_award(awards: &mut Vec<Award>, knight: KnightId, hp: u32, reason: AwardReason) {
    if hp > 0 {
        awards.push(Award { knight, hp, reason });
    }
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/// How a Lists match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListsOutcome {
    /// One knight won; the other is out of the lists.
    Won {
        /// The winner, who goes on.
        winner: KnightId,
        /// The loser, who is out.
        loser: KnightId,
    },
    /// No winner (both out by major injury, a rare case): both are out of the lists.
    BothOut {
        /// One of the two.
        first: KnightId,
        /// The other.
        second: KnightId,
    },
}

impl ListsOutcome {
    /// The two knights of the match.
    pub fn knights(&self) -> [KnightId; 2] {
        match *self {
            ListsOutcome::Won { winner, loser } => [winner, loser],
            ListsOutcome::BothOut { first, second } => [first, second],
        }
    }

    /// The winner, if there was one.
    pub fn winner(&self) -> Option<KnightId> {
        match *self {
            ListsOutcome::Won { winner, .. } => Some(winner),
            ListsOutcome::BothOut { .. } => None,
        }
    }
}

/// The result of one Lists match, as the `Match` that fought it reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ListsResult {
    /// Who won, or that neither did.
    pub outcome: ListsOutcome,
    /// The knights of this match who unhorsed their opponent in it. Each can do so at most once,
    /// since an unhorsed knight loses at once (R35); both appear when they fell together (R13).
    pub unhorsed_opponent: Vec<KnightId>,
}

impl ListsResult {
    /// `winner` beat `loser`, with no unhorsing (add them with [`ListsResult::with_unhorsing`]).
    pub fn won(winner: KnightId, loser: KnightId) -> Self {
        ListsResult {
            outcome: ListsOutcome::Won { winner, loser },
            unhorsed_opponent: Vec::new(),
        }
    }

    /// Neither knight won: both are out.
    pub fn both_out(first: KnightId, second: KnightId) -> Self {
        ListsResult {
            outcome: ListsOutcome::BothOut { first, second },
            unhorsed_opponent: Vec::new(),
        }
    }

    /// Notes that `knight` unhorsed their opponent in this match.
    pub fn with_unhorsing(mut self, knight: KnightId) -> Self {
        self.unhorsed_opponent.push(knight);
        self
    }

    /// The two knights of the match.
    pub fn knights(&self) -> [KnightId; 2] {
        self.outcome.knights()
    }

    /// The winner, if there was one.
    pub fn winner(&self) -> Option<KnightId> {
        self.outcome.winner()
    }

    /// Whether `knight` unhorsed their opponent in this match.
    pub fn did_unhorse(&self, knight: KnightId) -> bool {
        self.unhorsed_opponent.contains(&knight)
    }

    fn validate(&self) -> Result<(), ListsError> {
        let [a, b] = self.knights();
        if a == b {
            return Err(ListsError::SameKnight(a));
        }
        let mut seen = BTreeSet::new();
        for &k in &self.unhorsed_opponent {
            if k != a && k != b {
                return Err(ListsError::UnhorsingNotInMatch(k));
            }
            if !seen.insert(k) {
                return Err(ListsError::UnhorsedTwice(k));
            }
        }
        if let ListsOutcome::Won { winner, loser } = self.outcome {
            if self.did_unhorse(loser) && !self.did_unhorse(winner) {
                return Err(ListsError::LoserUnhorsedWinner { loser, winner });
            }
        }
        Ok(())
    }
}

/// Two knights drawn to meet in a round, and the result once it is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Listed first: the challenger of the match (R40).
    pub first: KnightId,
    /// Listed second.
    pub second: KnightId,
    /// The result, once recorded.
    pub result: Option<ListsResult>,
}

impl Pairing {
    fn new(first: KnightId, second: KnightId) -> Self {
        Pairing {
            first,
            second,
            result: None,
        }
    }

    /// Whether `knight` is one of the pair.
    pub fn involves(&self, knight: KnightId) -> bool {
        self.first == knight || self.second == knight
    }

    /// The winner, once recorded (none for a match with no winner).
    pub fn winner(&self) -> Option<KnightId> {
        self.result.as_ref().and_then(ListsResult::winner)
    }

    /// The knights this match put out of the lists (none until it is recorded).
    pub fn eliminated(&self) -> Vec<KnightId> {
        match self.result.as_ref().map(|r| r.outcome) {
            None => Vec::new(),
            Some(ListsOutcome::Won { loser, .. }) => vec![loser],
            Some(ListsOutcome::BothOut { .. }) => vec![self.first, self.second],
        }
    }
}

/// One round of the Lists: its pairings in listing order, and the odd man out if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pairings: Vec<Pairing>,
    bye: Option<KnightId>,
}

impl Round {
    /// The pairings, in listing order.
    pub fn pairings(&self) -> &[Pairing] {
        &self.pairings
    }

    /// The odd man out, who sits out this round (a bye is not a match, R34).
    pub fn bye(&self) -> Option<KnightId> {
        self.bye
    }

    /// Whether every match of the round has its result.
    pub fn is_complete(&self) -> bool {
        self.pairings.iter().all(|p| p.result.is_some())
    }

    /// The knights this round put out of the lists so far.
    pub fn eliminated(&self) -> Vec<KnightId> {
        self.pairings.iter().flat_map(Pairing::eliminated).collect()
    }
}

/// What [`Lists::record`] did besides storing the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recorded {
    /// The round goes on: [`Lists::next_match`] says who fights next.
    RoundContinues,
    /// The round is over and the next one has been drawn; this is its number.
    NewRound(u32),
    /// The lists are over.
    Finished,
}

/// Why the Lists refuse a request. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ListsError {
    /// Fewer than two entrants.
    #[error("a lists needs at least two knights; {0} entered")]
    TooFewEntrants(usize),
    /// More than [`MAX_ENTRANTS`].
    #[error("a lists takes at most {MAX_ENTRANTS} knights; {0} entered")]
    TooManyEntrants(usize),
    /// A knight entered twice.
    #[error("knight #{0} is entered twice")]
    DuplicateEntrant(KnightId),
    /// A result came in after the lists ended.
    #[error("the lists are over; there are no more matches to record")]
    Finished,
    /// A result names the same knight twice.
    #[error("knight #{0} cannot fight themself")]
    SameKnight(KnightId),
    /// The two knights of a result are not paired in the current round.
    #[error("knight #{a} and knight #{b} are not paired in round {round}")]
    NotPaired {
        /// One knight of the result.
        a: KnightId,
        /// The other.
        b: KnightId,
        /// The current round.
        round: u32,
    },
    /// The match already has a result.
    #[error("the match of knight #{a} and knight #{b} already has a result")]
    AlreadyRecorded {
        /// One knight of the match.
        a: KnightId,
        /// The other.
        b: KnightId,
    },
    /// An unhorsing is credited to a knight who was not in the match.
    #[error("knight #{0} did not fight in this match, so cannot have unhorsed anyone in it")]
    UnhorsingNotInMatch(KnightId),
    /// An unhorsing is credited twice to one knight.
    #[error("knight #{0} is listed twice as unhorsing the opponent; a knight unhorses at most once a match")]
    UnhorsedTwice(KnightId),
    /// The loser alone unhorsed the winner, which R35 makes impossible.
    #[error("knight #{loser} unhorsed knight #{winner}, who would then have lost at once (R35); check who won")]
    LoserUnhorsedWinner {
        /// The knight named as loser.
        loser: KnightId,
        /// The knight named as winner.
        winner: KnightId,
    },
    /// Every knight left has sat out already. Unreachable through this API (R131); only a
    /// tampered saved state can get here.
    #[error(
        "every knight left has already sat out a round, so no one can be the odd man out (R34)"
    )]
    NoOddManOut,
}

/// A Lists: a one-on-one elimination contest (rules "Lists", R34–R36, R130–R132).
///
/// Lifecycle: [`Lists::new`] draws round 1. While [`Lists::next_match`] names a pair, the caller
/// runs that match and hands its result to [`Lists::record`] with the tournament's dice; when a
/// round's last result comes in, the next round is drawn with those dice (R130). When
/// [`Lists::is_finished`], [`Lists::champion`] and [`Lists::awards`] give the outcome. Matches of
/// a round may be recorded in any order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lists {
    entrants: Vec<KnightId>,
    rounds: Vec<Round>,
}

impl Lists {
    /// Opens the lists with `entrants` in entry order and draws round 1 (R34, R130), which takes
    /// `entrants.len() − 1` rolls from `dice`.
    pub fn new(entrants: Vec<KnightId>, dice: &mut impl RollSource) -> Result<Self, ListsError> {
        if entrants.len() < 2 {
            return Err(ListsError::TooFewEntrants(entrants.len()));
        }
        if entrants.len() > MAX_ENTRANTS {
            return Err(ListsError::TooManyEntrants(entrants.len()));
        }
        let mut seen = BTreeSet::new();
        if let Some(&dup) = entrants.iter().find(|&&k| !seen.insert(k)) {
            return Err(ListsError::DuplicateEntrant(dup));
        }
        let first = draw(&entrants, &BTreeSet::new(), dice)?;
        Ok(Lists {
            entrants,
            rounds: vec![first],
        })
    }

    /// The entrants, in entry order.
    pub fn entrants(&self) -> &[KnightId] {
        &self.entrants
    }

    /// Every round drawn so far, round 1 first.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The number of the round in progress (1-based), or of the last round once finished.
    pub fn current_round(&self) -> u32 {
        count_u32(self.rounds.len())
    }

    /// The pairings of the current round, as (first listed, second listed).
    pub fn pairings(&self) -> Vec<(KnightId, KnightId)> {
        self.rounds
            .last()
            .map(|r| r.pairings.iter().map(|p| (p.first, p.second)).collect())
            .unwrap_or_default()
    }

    /// The odd man out of the current round, if any.
    pub fn bye(&self) -> Option<KnightId> {
        self.rounds.last().and_then(|r| r.bye)
    }

    /// The next match to fight: the first pairing of the current round without a result, as
    /// (first listed, second listed). `None` once the lists are over.
    pub fn next_match(&self) -> Option<(KnightId, KnightId)> {
        self.rounds
            .last()?
            .pairings
            .iter()
            .find(|p| p.result.is_none())
            .map(|p| (p.first, p.second))
    }

    /// The knights not yet out of the lists, in entry order.
    pub fn remaining(&self) -> Vec<KnightId> {
        let out: BTreeSet<KnightId> = self.rounds.iter().flat_map(Round::eliminated).collect();
        self.entrants
            .iter()
            .copied()
            .filter(|k| !out.contains(k))
            .collect()
    }

    /// The knights who have sat out a round as the odd man out.
    pub fn sat_out(&self) -> BTreeSet<KnightId> {
        self.rounds.iter().filter_map(|r| r.bye).collect()
    }

    /// Records the result of a match of the current round. When it is the round's last result
    /// and two or more knights remain, the next round is drawn with `dice` (R130); otherwise
    /// `dice` is not touched. On an error nothing changes.
    pub fn record(
        &mut self,
        result: ListsResult,
        dice: &mut impl RollSource,
    ) -> Result<Recorded, ListsError> {
        if self.is_finished() {
            return Err(ListsError::Finished);
        }
        result.validate()?;
        let [a, b] = result.knights();
        let round_number = self.current_round();
        let round = self.rounds.last_mut().ok_or(ListsError::Finished)?;
        let pairing = round
            .pairings
            .iter_mut()
            .find(|p| p.involves(a) && p.involves(b))
            .ok_or(ListsError::NotPaired {
                a,
                b,
                round: round_number,
            })?;
        if pairing.result.is_some() {
            return Err(ListsError::AlreadyRecorded { a, b });
        }
        pairing.result = Some(result);
        if !round.is_complete() {
            return Ok(Recorded::RoundContinues);
        }
        let remaining = self.remaining();
        if remaining.len() < 2 {
            return Ok(Recorded::Finished);
        }
        match draw(&remaining, &self.sat_out(), dice) {
            Ok(next) => {
                self.rounds.push(next);
                Ok(Recorded::NewRound(self.current_round()))
            }
            Err(e) => {
                // Undo the result so that the refusal leaves the state as it was.
                if let Some(p) = self.rounds.last_mut().and_then(|r| {
                    r.pairings
                        .iter_mut()
                        .find(|p| p.involves(a) && p.involves(b))
                }) {
                    p.result = None;
                }
                Err(e)
            }
        }
    }

    /// Whether the lists are over: the last round is complete and at most one knight remains.
    pub fn is_finished(&self) -> bool {
        self.rounds.last().is_none_or(Round::is_complete) && self.remaining().len() <= 1
    }

    /// The champion: the last knight unbeaten, once the lists are over. `None` before, and when
    /// the final had no winner (R132).
    pub fn champion(&self) -> Option<KnightId> {
        if !self.is_finished() {
            return None;
        }
        match self.remaining().as_slice() {
            [champion] => Some(*champion),
            _ => None,
        }
    }

    /// The finalist, once the lists are over, when there is exactly one (the usual case; see
    /// [`Lists::finalists`] for a final with no winner).
    pub fn finalist(&self) -> Option<KnightId> {
        match self.finalists().as_slice() {
            [finalist] => Some(*finalist),
            _ => None,
        }
    }

    /// The knights who went out in the final, in entry order (R132). Empty until the lists end.
    pub fn finalists(&self) -> Vec<KnightId> {
        match self.rounds.len().checked_sub(1) {
            Some(last) if self.is_finished() => self.out_in_round(last),
            _ => Vec::new(),
        }
    }

    /// The knights who went out in the round before the final, in entry order (R132): two, or
    /// one when that round had an odd man out, or none when the final was the first round.
    /// Empty until the lists end.
    pub fn semi_finalists(&self) -> Vec<KnightId> {
        match self.rounds.len().checked_sub(2) {
            Some(before_last) if self.is_finished() => self.out_in_round(before_last),
            _ => Vec::new(),
        }
    }

    /// A knight's top-three placing, once the lists are over (R36, R132).
    pub fn placing(&self, knight: KnightId) -> Option<Placing> {
        self.placings().get(&knight).copied()
    }

    /// Every top-three placing, once the lists are over (R36, R132).
    pub fn placings(&self) -> BTreeMap<KnightId, Placing> {
        let mut placings = BTreeMap::new();
        for k in self.semi_finalists() {
            placings.insert(k, Placing::SemiFinalist);
        }
        for k in self.finalists() {
            placings.insert(k, Placing::Finalist);
        }
        if let Some(k) = self.champion() {
            placings.insert(k, Placing::Champion);
        }
        placings
    }

    fn out_in_round(&self, index: usize) -> Vec<KnightId> {
        let out = self
            .rounds
            .get(index)
            .map(Round::eliminated)
            .unwrap_or_default();
        self.entrants
            .iter()
            .copied()
            .filter(|k| out.contains(k))
            .collect()
    }

    /// The Honor Points earned in the lists (R36), per knight in entry order, then by reason:
    /// 1 per match fought, 1 per unhorsing of an opponent, 1 for a top-three placing, 1 more for
    /// the champion. Placings count only once the lists are over; before that this is the
    /// running total of matches and unhorsings (what an abandoned lists would pay).
    pub fn awards(&self) -> Vec<Award> {
        let mut matches: BTreeMap<KnightId, u32> = BTreeMap::new();
        let mut unhorsings: BTreeMap<KnightId, u32> = BTreeMap::new();
        for result in self
            .rounds
            .iter()
            .flat_map(|r| r.pairings.iter())
            .filter_map(|p| p.result.as_ref())
        {
            for k in result.knights() {
                let c = matches.entry(k).or_default();
                *c = c.saturating_add(1);
            }
            for &k in &result.unhorsed_opponent {
                let c = unhorsings.entry(k).or_default();
                *c = c.saturating_add(1);
            }
        }
        let placings = self.placings();
        let mut awards = Vec::new();
        for &k in &self.entrants {
            let count = |m: &BTreeMap<KnightId, u32>| m.get(&k).copied().unwrap_or(0);
            push_award(&mut awards, k, count(&matches), AwardReason::ListsMatches);
            push_award(
                &mut awards,
                k,
                count(&unhorsings),
                AwardReason::ListsUnhorsings,
            );
            if let Some(&placing) = placings.get(&k) {
                push_award(&mut awards, k, 1, AwardReason::ListsTopThree(placing));
                if placing == Placing::Champion {
                    push_award(&mut awards, k, 1, AwardReason::ListsFirstPrize);
                }
            }
        }
        awards
    }

    /// The bracket as text for a monospace block, knights shown as `#id`. See
    /// [`Lists::bracket_with`].
    pub fn bracket(&self) -> String {
        self.bracket_with(|k| format!("#{k}"))
    }

    /// The bracket as text for a monospace block, with `name` giving each knight's name.
    ///
    /// One block per round: each pairing on a line, first listed on the left, the winner marked
    /// `*`, both marked `x` when neither won, unhorsings noted on the right, `(to fight)` while
    /// the result is awaited, and the odd man out on a `bye` line. The placings close it.
    pub fn bracket_with(&self, name: impl Fn(KnightId) -> String) -> String {
        let names: BTreeMap<KnightId, String> =
            self.entrants.iter().map(|&k| (k, name(k))).collect();
        let label = |k: KnightId| names.get(&k).cloned().unwrap_or_else(|| format!("#{k}"));
        let width = names.values().map(|n| n.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        let finished = self.is_finished();
        let count = self.rounds.len();
        for (i, round) in self.rounds.iter().enumerate() {
            let is_final = round.pairings.len() == 1 && round.bye.is_none();
            let title = if is_final && (i + 1 == count) {
                format!("Round {}: final", i + 1)
            } else {
                format!("Round {}", i + 1)
            };
            out.push_str(&title);
            out.push('\n');
            for p in &round.pairings {
                let mark = |k: KnightId| match p.result.as_ref().map(|r| r.outcome) {
                    Some(ListsOutcome::Won { winner, .. }) if winner == k => '*',
                    Some(ListsOutcome::BothOut { .. }) => 'x',
                    _ => ' ',
                };
                let note = match &p.result {
                    None => "(to fight)".to_string(),
                    Some(r) => match r.unhorsed_opponent.as_slice() {
                        [] => String::new(),
                        [_, _] => "(both unhorsed)".to_string(),
                        [k, ..] => {
                            let other = if *k == p.first { p.second } else { p.first };
                            format!("({} unhorsed {})", label(*k), label(other))
                        }
                    },
                };
                let line = format!(
                    "  {:<width$} {} vs {:<width$} {}  {}",
                    label(p.first),
                    mark(p.first),
                    label(p.second),
                    mark(p.second),
                    note,
                );
                out.push_str(line.trim_end());
                out.push('\n');
            }
            if let Some(b) = round.bye {
                let line = format!("  {:<width$}   bye", label(b));
                out.push_str(&line);
                out.push('\n');
            }
        }
        if finished {
            match self.champion() {
                Some(c) => out.push_str(&format!("Champion: {}\n", label(c))),
                None => out.push_str("Champion: none (the final had no winner)\n"),
            }
            let list = |ks: Vec<KnightId>| ks.into_iter().map(label).collect::<Vec<_>>().join(", ");
            let finalists = self.finalists();
            if !finalists.is_empty() {
                let word = if finalists.len() == 1 {
                    "Finalist"
                } else {
                    "Finalists"
                };
                out.push_str(&format!("{word}: {}\n", list(finalists)));
            }
            let semis = self.semi_finalists();
            if !semis.is_empty() {
                let word = if semis.len() == 1 {
                    "Semi-finalist"
                } else {
                    "Semi-finalists"
                };
                out.push_str(&format!("{word}: {}\n", list(semis)));
            }
        } else if let Some((a, b)) = self.next_match() {
            out.push_str(&format!("Next: {} vs {}\n", label(a), label(b)));
        }
        out
    }
}

/// Rearranges `items` by Fisher–Yates driven by the dice (R130): for `i` from `len − 1` down to
/// `1`, a `d(i + 1)` picks the position `roll − 1` to swap with `i`. A roll off the die (which no
/// honest [`RollSource`] gives) is clamped onto it rather than trusted.
fn shuffle<T>(items: &mut [T], dice: &mut impl RollSource) {
    for i in (1..items.len()).rev() {
        let sides = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let roll = dice.roll(sides).clamp(1, sides);
        let j = usize::try_from(roll - 1).unwrap_or(0).min(i);
        items.swap(i, j);
    }
}

/// Draws a round from the `remaining` knights in entry order (R34, R130, R131).
fn draw(
    remaining: &[KnightId],
    sat_out: &BTreeSet<KnightId>,
    dice: &mut impl RollSource,
) -> Result<Round, ListsError> {
    let mut order = remaining.to_vec();
    shuffle(&mut order, dice);
    let bye = if order.len() % 2 == 1 {
        let at = order
            .iter()
            .rposition(|k| !sat_out.contains(k))
            .ok_or(ListsError::NoOddManOut)?;
        Some(order.remove(at))
    } else {
        None
    };
    // R131: those who have sat out meet each other first. With the invariant there are at most
    // two; a lone one (or a third, from a tampered state) takes the ordinary draw.
    let rested: Vec<KnightId> = order
        .iter()
        .copied()
        .filter(|k| sat_out.contains(k))
        .collect();
    let mut pairings: Vec<Pairing> = rested.chunks_exact(2).filter_map(pair_up).collect();
    let paired: BTreeSet<KnightId> = pairings.iter().flat_map(|p| [p.first, p.second]).collect();
    let rest: Vec<KnightId> = order.into_iter().filter(|k| !paired.contains(k)).collect();
    pairings.extend(rest.chunks_exact(2).filter_map(pair_up));
    Ok(Round { pairings, bye })
}

/// A pairing from a slice of two (what `chunks_exact(2)` yields), listed in slice order.
fn pair_up(pair: &[KnightId]) -> Option<Pairing> {
    match pair {
        [a, b] => Some(Pairing::new(*a, *b)),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Melee
// ---------------------------------------------------------------------------------------------

/// The two sides of a melee; their names are the moderator's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeSide {
    /// The side named first when the melee was opened.
    First,
    /// The side named second.
    Second,
}

impl MeleeSide {
    /// Both sides, first first.
    pub const BOTH: [MeleeSide; 2] = [MeleeSide::First, MeleeSide::Second];

    /// The opposing side.
    pub fn other(self) -> MeleeSide {
        match self {
            MeleeSide::First => MeleeSide::Second,
            MeleeSide::Second => MeleeSide::First,
        }
    }
}

/// A pass's number within its melee, from 0 in the order offered.
pub type PassId = usize;

/// Why a knight is out of the melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutReason {
    /// Unhorsed with no remount left (R37).
    Unhorsed,
    /// Unhorsed with a major injury, whatever the remount (R136).
    MajorInjury,
    /// Unhorsed alone in a pass for ransom: captured, whatever the remount (R137).
    Captured,
}

/// A knight in the melee and how they stand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeKnight {
    /// The knight.
    pub knight: KnightId,
    /// The side joined.
    pub side: MeleeSide,
    /// Whether the one remount has been used (R37).
    pub remount_used: bool,
    /// Why the knight is out, or `None` while mounted.
    pub out: Option<OutReason>,
    /// How many opponents this knight has unhorsed.
    pub unhorsings: u32,
}

impl MeleeKnight {
    /// Whether the knight is still mounted, hence still in the melee.
    pub fn is_mounted(&self) -> bool {
        self.out.is_none()
    }
}

/// Who fell in a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unhorsed {
    /// Both stayed mounted.
    Neither,
    /// This knight fell; the other stayed mounted.
    Knight(KnightId),
    /// Both fell together (Joust 6D; in a melee both are unhorsed, R13).
    Both,
}

/// The result of one melee pass, as the Joust pass that was fought reports it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PassResult {
    /// Who fell.
    pub unhorsed: Unhorsed,
    /// Those who fell with a major injury (R12); each must be among those who fell.
    pub major_injury: Vec<KnightId>,
}

impl PassResult {
    /// Both stayed mounted.
    pub fn neither() -> Self {
        PassResult {
            unhorsed: Unhorsed::Neither,
            major_injury: Vec::new(),
        }
    }

    /// `knight` fell; the other stayed mounted.
    pub fn unhorsed(knight: KnightId) -> Self {
        PassResult {
            unhorsed: Unhorsed::Knight(knight),
            major_injury: Vec::new(),
        }
    }

    /// Both fell.
    pub fn both() -> Self {
        PassResult {
            unhorsed: Unhorsed::Both,
            major_injury: Vec::new(),
        }
    }

    /// Notes that `knight` took a major injury in the fall.
    pub fn with_major_injury(mut self, knight: KnightId) -> Self {
        self.major_injury.push(knight);
        self
    }
}

/// A knight captured in a pass for ransom (R39, R137): the bot opens the ransom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Capture {
    /// The knight unhorsed, now a captive.
    pub captive: KnightId,
    /// The knight who stayed mounted and holds the captive.
    pub captor: KnightId,
}

/// What a fought pass did to the melee.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRecord {
    /// The result as given.
    pub result: PassResult,
    /// Those who fell and used their remount to stay in.
    pub remounted: Vec<KnightId>,
    /// Those who fell and are out of the melee.
    pub eliminated: Vec<KnightId>,
    /// The capture, in a pass for ransom with one knight unhorsed.
    pub capture: Option<Capture>,
}

/// Where a pass stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassState {
    /// Offered, awaiting the answer.
    Offered,
    /// Withdrawn by the knight who offered it.
    Withdrawn,
    /// Declined by the knight it was offered to.
    Declined,
    /// Lapsed: a knight entered another pass, went out, or time was called (R134, R135).
    Lapsed,
    /// Accepted: the Joust pass is being fought.
    Underway,
    /// Fought, with its record.
    Fought(PassRecord),
}

/// A pass offered in the melee, from offer to result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pass {
    /// Its number in this melee.
    pub id: PassId,
    /// The knight who offered it: the challenger of the Joust pass (R40).
    pub challenger: KnightId,
    /// The knight it was offered to.
    pub challenged: KnightId,
    /// Whether it is fought for ransom (R39), as the caller said when it was offered.
    pub for_ransom: bool,
    /// Where it stands.
    pub state: PassState,
}

impl Pass {
    /// Whether `knight` is one of the two.
    pub fn involves(&self, knight: KnightId) -> bool {
        self.challenger == knight || self.challenged == knight
    }

    /// The other knight of the pass, if `knight` is one of them.
    pub fn opponent_of(&self, knight: KnightId) -> Option<KnightId> {
        if knight == self.challenger {
            Some(self.challenged)
        } else if knight == self.challenged {
            Some(self.challenger)
        } else {
            None
        }
    }
}

/// Why a melee ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The moderator's time limit (R37, R135).
    TimeLimit,
    /// Only one side has mounted knights (R37).
    OneSideMounted,
    /// The last mounted knights of both sides fell together: no one is mounted.
    NoneMounted,
}

/// How a melee ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MeleeEnd {
    /// Why it ended.
    pub reason: EndReason,
    /// The winning side; `None` for a tie (R37).
    pub winner: Option<MeleeSide>,
    /// Mounted knights of the first and second side at the end.
    pub mounted: [usize; 2],
}

/// Where a melee stands; each state names what it awaits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleePhase {
    /// Knights join; the moderator starts it (R133).
    Mustering,
    /// Passes are offered, accepted and fought.
    Fighting,
    /// Time is called: the passes under way are fought out, nothing new starts (R135).
    TimeCalled,
    /// Over.
    Ended(MeleeEnd),
}

/// Why the melee refuses a request. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MeleeError {
    /// A side's name is empty.
    #[error("a melee side needs a name")]
    EmptySideName,
    /// A side's name is too long.
    #[error("a side's name may have at most {MAX_SIDE_NAME_CHARS} characters; this one has {0}")]
    SideNameTooLong(usize),
    /// Both sides have the same name.
    #[error("the two sides need different names; both are called '{0}'")]
    SameSideNames(String),
    /// Joining after the start.
    #[error("the melee has started; no one joins now (R133)")]
    AlreadyStarted,
    /// Fighting or calling time before the start.
    #[error("the melee has not started yet")]
    NotStarted,
    /// A new pass after time was called.
    #[error("time has been called; no new pass may start (R135)")]
    TimeCalled,
    /// Anything but the first prize after the end.
    #[error("the melee is over")]
    Ended,
    /// Naming the first prize before the end.
    #[error("the first prize is named once the melee is over (R138)")]
    NotEnded,
    /// A knight joins twice (on either side).
    #[error("knight #{knight} has already joined {side}; a knight joins one side, once")]
    AlreadyJoined {
        /// The knight.
        knight: KnightId,
        /// The name of the side already joined.
        side: String,
    },
    /// Starting with a side that has no knights.
    #[error("{0} has no knights yet; each side needs at least one to start (R133)")]
    EmptySide(String),
    /// The knight has not joined.
    #[error("knight #{0} has not joined the melee")]
    NotJoined(KnightId),
    /// A knight offers a pass to themself.
    #[error("a knight cannot offer a pass to themself")]
    OfferToSelf(KnightId),
    /// Both knights are of one side.
    #[error("knight #{from} and knight #{to} are both of {side}; offer a pass to a knight of the other side")]
    SameSide {
        /// The knight offering.
        from: KnightId,
        /// The knight offered to.
        to: KnightId,
        /// Their side's name.
        side: String,
    },
    /// The knight is out of the melee.
    #[error("knight #{0} is unhorsed and out of the melee")]
    Out(KnightId),
    /// The knight is already fighting a pass (R37: one pass at a time).
    #[error("knight #{knight} is already in pass #{pass}; a knight is in one pass at a time")]
    InPass {
        /// The knight.
        knight: KnightId,
        /// The pass under way.
        pass: PassId,
    },
    /// The knight already has an open offer (R134).
    #[error("knight #{knight} already has an open offer (pass #{pass}); withdraw it first (R134)")]
    OfferOpen {
        /// The knight.
        knight: KnightId,
        /// The open offer.
        pass: PassId,
    },
    /// The other knight has already offered this pair a pass.
    #[error("knight #{from} has already offered you a pass (#{pass}); accept it instead")]
    AlreadyOfferedToYou {
        /// The knight who offered it.
        from: KnightId,
        /// That offer.
        pass: PassId,
    },
    /// No pass by that number.
    #[error("there is no pass #{0}")]
    UnknownPass(PassId),
    /// Accepting or declining a pass offered to someone else.
    #[error("pass #{pass} was not offered to knight #{knight}")]
    NotOfferedToYou {
        /// The knight answering.
        knight: KnightId,
        /// The pass.
        pass: PassId,
    },
    /// Withdrawing a pass someone else offered.
    #[error("pass #{pass} was not offered by knight #{knight}")]
    NotYourOffer {
        /// The knight withdrawing.
        knight: KnightId,
        /// The pass.
        pass: PassId,
    },
    /// The pass is no longer an open offer.
    #[error("pass #{0} is not an open offer")]
    PassNotOpen(PassId),
    /// A result for a pass that is not being fought.
    #[error("pass #{0} is not under way")]
    PassNotUnderway(PassId),
    /// A result names a knight who is not in the pass.
    #[error("knight #{knight} is not in pass #{pass}")]
    NotInPass {
        /// The knight named.
        knight: KnightId,
        /// The pass.
        pass: PassId,
    },
    /// A major injury for a knight who did not fall.
    #[error("knight #{0} was not unhorsed, so cannot have taken a major injury (R12)")]
    InjuryWithoutFall(KnightId),
    /// The first prize was already named.
    #[error("the first prize has already been named: knight #{0} (R138)")]
    PrizeAlreadyNamed(KnightId),
    /// Time was already called.
    #[error("time has already been called")]
    TimeAlreadyCalled,
}

/// A tournament melee (rules "Melee", R37, R39, R133–R138): two named sides, passes made ad hoc
/// between willing knights, one Joust pass each.
///
/// Lifecycle: [`Melee::open`] with two side names, [`Melee::join`] while mustering,
/// [`Melee::start`]. Then a knight [`Melee::offer`]s a pass to a knight of the other side, who
/// [`Melee::accept`]s (or [`Melee::decline`]s; the offerer may [`Melee::withdraw`]); the caller
/// fights that one Joust pass (with its own psi limit) and hands the result to
/// [`Melee::resolve`]. The melee ends by itself when only one side has mounted knights, or after
/// [`Melee::time_up`]. Then the moderator may [`Melee::name_first_prize`], and
/// [`Melee::awards`] gives the Honor Points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Melee {
    side_names: [String; 2],
    remount_allowed: bool,
    phase: MeleePhase,
    knights: Vec<MeleeKnight>,
    passes: Vec<Pass>,
    first_prize: Option<KnightId>,
}

fn clean_side_name(name: &str) -> Result<String, MeleeError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(MeleeError::EmptySideName);
    }
    let chars = name.chars().count();
    if chars > MAX_SIDE_NAME_CHARS {
        return Err(MeleeError::SideNameTooLong(chars));
    }
    Ok(name.to_string())
}

impl Melee {
    /// Opens a melee with two named sides; `remount_allowed` gives each knight one remount (R37).
    pub fn open(first: &str, second: &str, remount_allowed: bool) -> Result<Self, MeleeError> {
        let first = clean_side_name(first)?;
        let second = clean_side_name(second)?;
        if first.to_lowercase() == second.to_lowercase() {
            return Err(MeleeError::SameSideNames(second));
        }
        Ok(Melee {
            side_names: [first, second],
            remount_allowed,
            phase: MeleePhase::Mustering,
            knights: Vec::new(),
            passes: Vec::new(),
            first_prize: None,
        })
    }

    /// A side's name.
    pub fn side_name(&self, side: MeleeSide) -> &str {
        let [first, second] = &self.side_names;
        match side {
            MeleeSide::First => first,
            MeleeSide::Second => second,
        }
    }

    /// The side with this name, ignoring case and surrounding spaces.
    pub fn side_named(&self, name: &str) -> Option<MeleeSide> {
        let name = name.trim().to_lowercase();
        MeleeSide::BOTH
            .into_iter()
            .find(|&s| self.side_name(s).to_lowercase() == name)
    }

    /// Whether each knight has one remount (R37).
    pub fn remount_allowed(&self) -> bool {
        self.remount_allowed
    }

    /// Where the melee stands.
    pub fn phase(&self) -> &MeleePhase {
        &self.phase
    }

    /// The knights who joined, in joining order.
    pub fn knights(&self) -> &[MeleeKnight] {
        &self.knights
    }

    /// One knight's standing, if they joined.
    pub fn knight(&self, knight: KnightId) -> Option<&MeleeKnight> {
        self.knights.iter().find(|k| k.knight == knight)
    }

    /// The side a knight joined.
    pub fn side_of(&self, knight: KnightId) -> Option<MeleeSide> {
        self.knight(knight).map(|k| k.side)
    }

    /// How many knights of `side` are still mounted.
    pub fn mounted(&self, side: MeleeSide) -> usize {
        self.knights
            .iter()
            .filter(|k| k.side == side && k.is_mounted())
            .count()
    }

    /// Every pass offered, in the order offered.
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    /// One pass.
    pub fn pass(&self, id: PassId) -> Option<&Pass> {
        self.passes.get(id)
    }

    /// The open offers made to `knight`, oldest first.
    pub fn offers_to(&self, knight: KnightId) -> Vec<&Pass> {
        self.passes
            .iter()
            .filter(|p| p.challenged == knight && p.state == PassState::Offered)
            .collect()
    }

    /// The pass `knight` is fighting, if any.
    pub fn pass_of(&self, knight: KnightId) -> Option<&Pass> {
        self.passes
            .iter()
            .find(|p| p.involves(knight) && p.state == PassState::Underway)
    }

    /// The passes being fought.
    pub fn underway(&self) -> Vec<&Pass> {
        self.passes
            .iter()
            .filter(|p| p.state == PassState::Underway)
            .collect()
    }

    /// A knight joins a side, once, while the melee musters (R37, R133).
    pub fn join(&mut self, knight: KnightId, side: MeleeSide) -> Result<(), MeleeError> {
        match self.phase {
            MeleePhase::Mustering => {}
            MeleePhase::Ended(_) => return Err(MeleeError::Ended),
            _ => return Err(MeleeError::AlreadyStarted),
        }
        if let Some(k) = self.knight(knight) {
            return Err(MeleeError::AlreadyJoined {
                knight,
                side: self.side_name(k.side).to_string(),
            });
        }
        self.knights.push(MeleeKnight {
            knight,
            side,
            remount_used: false,
            out: None,
            unhorsings: 0,
        });
        Ok(())
    }

    /// The moderator starts the fighting; each side needs a knight (R133).
    pub fn start(&mut self) -> Result<(), MeleeError> {
        match self.phase {
            MeleePhase::Mustering => {}
            MeleePhase::Ended(_) => return Err(MeleeError::Ended),
            _ => return Err(MeleeError::AlreadyStarted),
        }
        if let Some(side) = MeleeSide::BOTH
            .into_iter()
            .find(|&s| !self.knights.iter().any(|k| k.side == s))
        {
            return Err(MeleeError::EmptySide(self.side_name(side).to_string()));
        }
        self.phase = MeleePhase::Fighting;
        Ok(())
    }

    fn check_fighting(&self) -> Result<(), MeleeError> {
        match self.phase {
            MeleePhase::Mustering => Err(MeleeError::NotStarted),
            MeleePhase::Fighting => Ok(()),
            MeleePhase::TimeCalled => Err(MeleeError::TimeCalled),
            MeleePhase::Ended(_) => Err(MeleeError::Ended),
        }
    }

    /// Refuses a knight who has not joined, is out, or is fighting a pass.
    fn check_free(&self, knight: KnightId) -> Result<&MeleeKnight, MeleeError> {
        let k = self.knight(knight).ok_or(MeleeError::NotJoined(knight))?;
        if !k.is_mounted() {
            return Err(MeleeError::Out(knight));
        }
        if let Some(p) = self.pass_of(knight) {
            return Err(MeleeError::InPass { knight, pass: p.id });
        }
        Ok(k)
    }

    fn open_offer_by(&self, knight: KnightId) -> Option<&Pass> {
        self.passes
            .iter()
            .find(|p| p.challenger == knight && p.state == PassState::Offered)
    }

    /// `from` offers a pass to `to`, a knight of the other side (R37). `for_ransom` is the
    /// caller's answer to R39: whether a practice joust between these two would be for ransom.
    /// Returns the new pass's number.
    pub fn offer(
        &mut self,
        from: KnightId,
        to: KnightId,
        for_ransom: bool,
    ) -> Result<PassId, MeleeError> {
        self.check_fighting()?;
        let from_side = self.knight(from).ok_or(MeleeError::NotJoined(from))?.side;
        let to_side = self.knight(to).ok_or(MeleeError::NotJoined(to))?.side;
        if from == to {
            return Err(MeleeError::OfferToSelf(from));
        }
        if from_side == to_side {
            return Err(MeleeError::SameSide {
                from,
                to,
                side: self.side_name(from_side).to_string(),
            });
        }
        self.check_free(from)?;
        self.check_free(to)?;
        if let Some(p) = self.open_offer_by(from) {
            return Err(MeleeError::OfferOpen {
                knight: from,
                pass: p.id,
            });
        }
        if let Some(p) = self.open_offer_by(to).filter(|p| p.challenged == from) {
            return Err(MeleeError::AlreadyOfferedToYou {
                from: to,
                pass: p.id,
            });
        }
        let id = self.passes.len();
        self.passes.push(Pass {
            id,
            challenger: from,
            challenged: to,
            for_ransom,
            state: PassState::Offered,
        });
        Ok(id)
    }

    fn open_pass(&self, id: PassId) -> Result<&Pass, MeleeError> {
        if matches!(self.phase, MeleePhase::Ended(_)) {
            return Err(MeleeError::Ended);
        }
        let pass = self.passes.get(id).ok_or(MeleeError::UnknownPass(id))?;
        if pass.state != PassState::Offered {
            return Err(MeleeError::PassNotOpen(id));
        }
        Ok(pass)
    }

    fn set_state(&mut self, id: PassId, state: PassState) {
        if let Some(p) = self.passes.get_mut(id) {
            p.state = state;
        }
    }

    /// The knight who offered a pass withdraws it (R134).
    pub fn withdraw(&mut self, knight: KnightId, pass: PassId) -> Result<(), MeleeError> {
        if self.open_pass(pass)?.challenger != knight {
            return Err(MeleeError::NotYourOffer { knight, pass });
        }
        self.set_state(pass, PassState::Withdrawn);
        Ok(())
    }

    /// The knight offered a pass declines it (R134).
    pub fn decline(&mut self, knight: KnightId, pass: PassId) -> Result<(), MeleeError> {
        if self.open_pass(pass)?.challenged != knight {
            return Err(MeleeError::NotOfferedToYou { knight, pass });
        }
        self.set_state(pass, PassState::Declined);
        Ok(())
    }

    /// The knight offered a pass accepts it: the pass is under way and the caller fights one Joust
    /// pass, the challenger being the knight who offered (R37, R40). Every other open offer made
    /// by or to either knight lapses (R134). Returns the pass.
    pub fn accept(&mut self, knight: KnightId, pass: PassId) -> Result<Pass, MeleeError> {
        self.check_fighting()?;
        let p = self.open_pass(pass)?;
        if p.challenged != knight {
            return Err(MeleeError::NotOfferedToYou { knight, pass });
        }
        let challenger = p.challenger;
        self.check_free(challenger)?;
        self.check_free(knight)?;
        for other in &mut self.passes {
            if other.id != pass
                && other.state == PassState::Offered
                && (other.involves(knight) || other.involves(challenger))
            {
                other.state = PassState::Lapsed;
            }
        }
        self.set_state(pass, PassState::Underway);
        self.passes
            .get(pass)
            .cloned()
            .ok_or(MeleeError::UnknownPass(pass))
    }

    /// Takes the result of a pass under way (R37): each knight who fell is out, unless a remount
    /// is allowed and unused (then it is used and the knight stays in); a major injury (R136)
    /// or a capture in a pass for ransom (R137) puts the knight out regardless. Each fall is an
    /// unhorsing for the other knight. The melee then ends if only one side (or no side) has
    /// mounted knights, or if time was called and this was the last pass under way.
    pub fn resolve(&mut self, pass: PassId, result: PassResult) -> Result<PassRecord, MeleeError> {
        if matches!(self.phase, MeleePhase::Ended(_)) {
            return Err(MeleeError::Ended);
        }
        let p = self.passes.get(pass).ok_or(MeleeError::UnknownPass(pass))?;
        if p.state != PassState::Underway {
            return Err(MeleeError::PassNotUnderway(pass));
        }
        let (challenger, challenged, for_ransom) = (p.challenger, p.challenged, p.for_ransom);
        let fell: Vec<KnightId> = match result.unhorsed {
            Unhorsed::Neither => Vec::new(),
            Unhorsed::Knight(k) if k == challenger || k == challenged => vec![k],
            Unhorsed::Knight(k) => return Err(MeleeError::NotInPass { knight: k, pass }),
            Unhorsed::Both => vec![challenger, challenged],
        };
        for &k in &result.major_injury {
            if k != challenger && k != challenged {
                return Err(MeleeError::NotInPass { knight: k, pass });
            }
            if !fell.contains(&k) {
                return Err(MeleeError::InjuryWithoutFall(k));
            }
        }
        let capture = match fell.as_slice() {
            [captive] if for_ransom => Some(Capture {
                captive: *captive,
                captor: if *captive == challenger {
                    challenged
                } else {
                    challenger
                },
            }),
            _ => None,
        };
        let mut record = PassRecord {
            result: result.clone(),
            remounted: Vec::new(),
            eliminated: Vec::new(),
            capture,
        };
        let remount_allowed = self.remount_allowed;
        for &k in &fell {
            let unhorser = if k == challenger {
                challenged
            } else {
                challenger
            };
            if let Some(u) = self.knights.iter_mut().find(|m| m.knight == unhorser) {
                u.unhorsings = u.unhorsings.saturating_add(1);
            }
            let Some(m) = self.knights.iter_mut().find(|m| m.knight == k) else {
                continue;
            };
            let reason = if result.major_injury.contains(&k) {
                Some(OutReason::MajorInjury)
            } else if capture.is_some() {
                Some(OutReason::Captured)
            } else if remount_allowed && !m.remount_used {
                None
            } else {
                Some(OutReason::Unhorsed)
            };
            match reason {
                None => {
                    m.remount_used = true;
                    record.remounted.push(k);
                }
                Some(r) => {
                    m.out = Some(r);
                    record.eliminated.push(k);
                }
            }
        }
        for p in &mut self.passes {
            if p.state == PassState::Offered && record.eliminated.iter().any(|&k| p.involves(k)) {
                p.state = PassState::Lapsed;
            }
        }
        self.set_state(pass, PassState::Fought(record.clone()));
        self.settle();
        Ok(record)
    }

    /// The moderator's time limit is reached (R37, R135).
    pub fn time_up(&mut self) -> Result<(), MeleeError> {
        match self.phase {
            MeleePhase::Mustering => return Err(MeleeError::NotStarted),
            MeleePhase::Fighting => {}
            MeleePhase::TimeCalled => return Err(MeleeError::TimeAlreadyCalled),
            MeleePhase::Ended(_) => return Err(MeleeError::Ended),
        }
        self.phase = MeleePhase::TimeCalled;
        for p in &mut self.passes {
            if p.state == PassState::Offered {
                p.state = PassState::Lapsed;
            }
        }
        self.settle();
        Ok(())
    }

    /// Ends the melee if its end has come.
    fn settle(&mut self) {
        let mounted = [
            self.mounted(MeleeSide::First),
            self.mounted(MeleeSide::Second),
        ];
        let end = match mounted {
            [0, 0] => Some((EndReason::NoneMounted, None)),
            [_, 0] => Some((EndReason::OneSideMounted, Some(MeleeSide::First))),
            [0, _] => Some((EndReason::OneSideMounted, Some(MeleeSide::Second))),
            [a, b] if self.phase == MeleePhase::TimeCalled && self.underway().is_empty() => {
                let winner = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(MeleeSide::First),
                    std::cmp::Ordering::Less => Some(MeleeSide::Second),
                    std::cmp::Ordering::Equal => None,
                };
                Some((EndReason::TimeLimit, winner))
            }
            _ => None,
        };
        if let Some((reason, winner)) = end {
            for p in &mut self.passes {
                if p.state == PassState::Offered {
                    p.state = PassState::Lapsed;
                }
            }
            self.phase = MeleePhase::Ended(MeleeEnd {
                reason,
                winner,
                mounted,
            });
        }
    }

    /// Whether the melee is over.
    pub fn is_finished(&self) -> bool {
        matches!(self.phase, MeleePhase::Ended(_))
    }

    /// How the melee ended, once it has.
    pub fn ending(&self) -> Option<&MeleeEnd> {
        match &self.phase {
            MeleePhase::Ended(end) => Some(end),
            _ => None,
        }
    }

    /// The winning side, once the melee is over; `None` before and for a tie.
    pub fn winner(&self) -> Option<MeleeSide> {
        self.ending().and_then(|e| e.winner)
    }

    /// The moderator names the knight who wins the first prize: once, after the end, a knight who
    /// took part (R138).
    pub fn name_first_prize(&mut self, knight: KnightId) -> Result<(), MeleeError> {
        if !self.is_finished() {
            return Err(MeleeError::NotEnded);
        }
        if let Some(k) = self.first_prize {
            return Err(MeleeError::PrizeAlreadyNamed(k));
        }
        if self.knight(knight).is_none() {
            return Err(MeleeError::NotJoined(knight));
        }
        self.first_prize = Some(knight);
        Ok(())
    }

    /// The first prize's winner, once named.
    pub fn first_prize(&self) -> Option<KnightId> {
        self.first_prize
    }

    /// The Honor Points earned in the melee (R37), per knight in joining order, then by reason:
    /// 1 for taking part, 1 per unhorsing, 1 for the winning side, 1 for the first prize. Before
    /// the end this is the running total (no winning side yet).
    pub fn awards(&self) -> Vec<Award> {
        let winner = self.winner();
        let mut awards = Vec::new();
        for k in &self.knights {
            push_award(&mut awards, k.knight, 1, AwardReason::MeleeParticipant);
            push_award(
                &mut awards,
                k.knight,
                k.unhorsings,
                AwardReason::MeleeUnhorsings,
            );
            if winner == Some(k.side) {
                push_award(&mut awards, k.knight, 1, AwardReason::MeleeWinningSide);
            }
            if self.first_prize == Some(k.knight) {
                push_award(&mut awards, k.knight, 1, AwardReason::MeleeFirstPrize);
            }
        }
        awards
    }
}

// ---------------------------------------------------------------------------------------------
// Schedule
// ---------------------------------------------------------------------------------------------

/// A calendar month in the realm's time zone (R25), the unit of the tournament schedule (R38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "MonthParts", into = "MonthParts")]
pub struct Month {
    year: i32,
    month: u8,
}

/// The serialized form of a [`Month`], checked on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct MonthParts {
    year: i32,
    month: u8,
}

impl TryFrom<MonthParts> for Month {
    type Error = ScheduleError;
    fn try_from(p: MonthParts) -> Result<Self, Self::Error> {
        Month::new(p.year, p.month)
    }
}

impl From<Month> for MonthParts {
    fn from(m: Month) -> Self {
        MonthParts {
            year: m.year,
            month: m.month,
        }
    }
}

impl Month {
    /// The month `month` (1 to 12) of `year`.
    pub fn new(year: i32, month: u8) -> Result<Month, ScheduleError> {
        if !(1..=12).contains(&month) {
            return Err(ScheduleError::BadMonth(month));
        }
        Ok(Month { year, month })
    }

    /// The month in which an instant falls, given as unix seconds and the realm's offset from
    /// UTC at that instant in seconds (the caller looks the offset up in its time-zone data).
    pub fn from_unix(secs: i64, utc_offset_secs: i32) -> Result<Month, ScheduleError> {
        let local = secs
            .checked_add(i64::from(utc_offset_secs))
            .ok_or(ScheduleError::OutOfRange)?;
        let (year, month) = civil_year_month(local.div_euclid(86_400));
        let year = i32::try_from(year).map_err(|_| ScheduleError::OutOfRange)?;
        Month::new(year, month)
    }

    /// The year.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The month of the year, 1 to 12.
    pub fn month(self) -> u8 {
        self.month
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// The civil (proleptic Gregorian) year and month of a day counted from 1970-01-01, after
/// Howard Hinnant's `civil_from_days`. No overflow for any day an `i64` of seconds can reach.
fn civil_year_month(days: i64) -> (i64, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, u8::try_from(month).unwrap_or(1))
}

/// The schedule's answer when a tournament may go ahead (R38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheduled {
    /// The month is free.
    Allowed,
    /// The month already has a tournament; a moderator overrode the rule. The bot logs this.
    Overridden {
        /// The month.
        month: Month,
        /// How many tournaments the realm already has in it.
        existing: usize,
    },
}

/// Why a month cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum ScheduleError {
    /// The realm already has a tournament that month (R38).
    #[error("the realm already has a tournament in {0}; one a month (R38), unless a moderator overrides")]
    MonthTaken(Month),
    /// Not a month of the year.
    #[error("there is no month {0}; months go from 1 to 12")]
    BadMonth(u8),
    /// A date beyond any calendar this realm will see.
    #[error("that date is out of range")]
    OutOfRange,
}

/// Whether a realm may hold a tournament in `requested`, given the months of its existing
/// tournaments (R38): allowed when the month is free; otherwise refused, unless
/// `moderator_override`, which is allowed and reported as [`Scheduled::Overridden`] for the log
/// (R139).
pub fn schedule(
    existing: &[Month],
    requested: Month,
    moderator_override: bool,
) -> Result<Scheduled, ScheduleError> {
    let clashes = existing.iter().filter(|&&m| m == requested).count();
    match (clashes, moderator_override) {
        (0, _) => Ok(Scheduled::Allowed),
        (n, true) => Ok(Scheduled::Overridden {
            month: requested,
            existing: n,
        }),
        (_, false) => Err(ScheduleError::MonthTaken(requested)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{ScriptedDice, SeededDice};
    use proptest::prelude::*;

    /// The script that leaves `n` knights in entry order (R130): d n rolls n, …, d2 rolls 2.
    fn keep_order(n: u32) -> Vec<u32> {
        (2..=n).rev().collect()
    }

    fn award(knight: KnightId, hp: u32, reason: AwardReason) -> Award {
        Award { knight, hp, reason }
    }

    fn totals(awards: &[Award]) -> Vec<(KnightId, u32)> {
        award_totals(awards).into_iter().collect()
    }

    // ---- Lists: the draw ----

    // R130: Fisher–Yates, i from n−1 down to 1, swap i with roll−1. [1,2,3,4,5] with d5=2 (swap
    // 4↔1: 1 5 3 4 2), d4=4 (stay), d3=1 (swap 2↔0: 3 5 1 4 2), d2=2 (stay).
    #[test]
    fn r130_the_shuffle_is_fisher_yates_on_the_dice() {
        let mut items = [1, 2, 3, 4, 5];
        let mut dice = ScriptedDice::new([2, 4, 1, 2]);
        shuffle(&mut items, &mut dice);
        assert_eq!(items, [3, 5, 1, 4, 2]);
        assert_eq!(dice.taken(), 4);
        let mut items = [1, 2, 3, 4, 5];
        shuffle(&mut items, &mut ScriptedDice::new(keep_order(5)));
        assert_eq!(items, [1, 2, 3, 4, 5]);
        // A die that lies (0 or over the top) is clamped onto the die, never trusted.
        struct Liar(u32);
        impl RollSource for Liar {
            fn roll(&mut self, _sides: u32) -> u32 {
                self.0
            }
        }
        let mut items = [1, 2, 3];
        shuffle(&mut items, &mut Liar(0));
        assert_eq!(items, [2, 3, 1]);
        let mut items = [1, 2, 3];
        shuffle(&mut items, &mut Liar(99));
        assert_eq!(items, [1, 2, 3]);
    }

    // R34, R130: two entrants; d2=1 swaps them, so 2 is listed first. The final is round 1.
    #[test]
    fn r36_two_entrants() {
        let mut dice = ScriptedDice::new([1]);
        let mut lists = Lists::new(vec![1, 2], &mut dice).unwrap();
        assert_eq!(lists.current_round(), 1);
        assert_eq!(lists.pairings(), vec![(2, 1)]);
        assert_eq!(lists.bye(), None);
        assert_eq!(lists.next_match(), Some((2, 1)));
        let done = lists
            .record(ListsResult::won(2, 1).with_unhorsing(2), &mut dice)
            .unwrap();
        assert_eq!(done, Recorded::Finished);
        assert!(lists.is_finished());
        assert_eq!(lists.next_match(), None);
        assert_eq!(lists.champion(), Some(2));
        assert_eq!(lists.finalist(), Some(1));
        assert_eq!(lists.semi_finalists(), Vec::<KnightId>::new());
        // R36: 2 fought 1 match, unhorsed once, champion (top three + first prize) = 4;
        // 1 fought 1 match, finalist = 2.
        assert_eq!(
            lists.awards(),
            vec![
                award(1, 1, AwardReason::ListsMatches),
                award(1, 1, AwardReason::ListsTopThree(Placing::Finalist)),
                award(2, 1, AwardReason::ListsMatches),
                award(2, 1, AwardReason::ListsUnhorsings),
                award(2, 1, AwardReason::ListsTopThree(Placing::Champion)),
                award(2, 1, AwardReason::ListsFirstPrize),
            ]
        );
        assert_eq!(totals(&lists.awards()), vec![(1, 2), (2, 4)]);
        assert_eq!(dice.remaining(), 0);
    }

    // R34, R130, R132: three entrants. Round 1: [10,20,30], d3=1 (swap 2↔0: 30 20 10), d2=1
    // (swap 1↔0: 20 30 10); odd man out is the last who has not sat out: 10. Round 2: [10,30],
    // d2=2 keeps the order. The semi-finalist is 20, who went out in round 1.
    #[test]
    fn r36_three_entrants() {
        let mut dice = ScriptedDice::new([1, 1, 2]);
        let mut lists = Lists::new(vec![10, 20, 30], &mut dice).unwrap();
        assert_eq!(lists.pairings(), vec![(20, 30)]);
        assert_eq!(lists.bye(), Some(10));
        let r = lists
            .record(ListsResult::won(30, 20).with_unhorsing(30), &mut dice)
            .unwrap();
        assert_eq!(r, Recorded::NewRound(2));
        assert_eq!(lists.current_round(), 2);
        assert_eq!(lists.pairings(), vec![(10, 30)]);
        assert_eq!(lists.bye(), None);
        // Swordplay decided the final: no unhorsing.
        let r = lists.record(ListsResult::won(10, 30), &mut dice).unwrap();
        assert_eq!(r, Recorded::Finished);
        assert_eq!(lists.champion(), Some(10));
        assert_eq!(lists.finalist(), Some(30));
        assert_eq!(lists.semi_finalists(), vec![20]);
        // R36: 10: 1 match + champion 2 = 3; 20: 1 match + semi 1 = 2;
        // 30: 2 matches + 1 unhorsing + finalist 1 = 4.
        assert_eq!(
            lists.awards(),
            vec![
                award(10, 1, AwardReason::ListsMatches),
                award(10, 1, AwardReason::ListsTopThree(Placing::Champion)),
                award(10, 1, AwardReason::ListsFirstPrize),
                award(20, 1, AwardReason::ListsMatches),
                award(20, 1, AwardReason::ListsTopThree(Placing::SemiFinalist)),
                award(30, 2, AwardReason::ListsMatches),
                award(30, 1, AwardReason::ListsUnhorsings),
                award(30, 1, AwardReason::ListsTopThree(Placing::Finalist)),
            ]
        );
        assert_eq!(dice.remaining(), 0);
    }

    fn five_entrants() -> (Lists, ScriptedDice) {
        // Round 1: d5=2 d4=4 d3=1 d2=2 gives 3 5 1 4 2 (see the shuffle test); 2 sits out.
        // Round 2: [1,2,5], d3=3 (stay), d2=1 (swap 1↔0): 2 1 5; 5 has not sat out: 5 sits out.
        // Round 3: [2,5], d2=1: 5 2.
        let dice = ScriptedDice::new([2, 4, 1, 2, 3, 1, 1]);
        let mut dice = dice;
        let lists = Lists::new(vec![1, 2, 3, 4, 5], &mut dice).unwrap();
        (lists, dice)
    }

    // R34, R36, R130, R132: five entrants, hand-computed.
    #[test]
    fn r36_five_entrants() {
        let (mut lists, mut dice) = five_entrants();
        assert_eq!(lists.pairings(), vec![(3, 5), (1, 4)]);
        assert_eq!(lists.bye(), Some(2));
        assert_eq!(
            lists
                .record(ListsResult::won(5, 3).with_unhorsing(5), &mut dice)
                .unwrap(),
            Recorded::RoundContinues
        );
        assert_eq!(lists.next_match(), Some((1, 4)));
        // R13: both fell together in the lists; Swordplay followed and 1 won.
        let both = ListsResult::won(1, 4).with_unhorsing(1).with_unhorsing(4);
        assert_eq!(
            lists.record(both, &mut dice).unwrap(),
            Recorded::NewRound(2)
        );
        assert_eq!(lists.pairings(), vec![(2, 1)]);
        assert_eq!(lists.bye(), Some(5));
        lists.record(ListsResult::won(2, 1), &mut dice).unwrap();
        assert_eq!(lists.pairings(), vec![(5, 2)]);
        let r = lists
            .record(ListsResult::won(5, 2).with_unhorsing(5), &mut dice)
            .unwrap();
        assert_eq!(r, Recorded::Finished);
        assert_eq!(lists.champion(), Some(5));
        assert_eq!(lists.finalist(), Some(2));
        // R132: round 2 had an odd man out (5), so it has one semi-finalist.
        assert_eq!(lists.semi_finalists(), vec![1]);
        // R36 by hand. 1: matches R1 R2, unhorsed 4 in R1, semi = 2+1+1 = 4. 2: bye, R2, R3,
        // finalist = 2+0+1 = 3. 3: 1 match = 1. 4: 1 match, unhorsed 1 = 2. 5: R1 R3, two
        // unhorsings, champion 2 = 2+2+2 = 6.
        assert_eq!(
            totals(&lists.awards()),
            vec![(1, 4), (2, 3), (3, 1), (4, 2), (5, 6)]
        );
        assert_eq!(dice.remaining(), 0);
    }

    // The bracket reads in a monospace block: winners marked *, byes, unhorsings, placings.
    #[test]
    fn bracket_text_of_five_entrants() {
        let (mut lists, mut dice) = five_entrants();
        lists
            .record(ListsResult::won(5, 3).with_unhorsing(5), &mut dice)
            .unwrap();
        let names = |k: KnightId| {
            match k {
                1 => "Sir Anwen",
                2 => "Dame Bryn",
                3 => "Sir Cai",
                4 => "Dame Dilys",
                _ => "Sir Emrys",
            }
            .to_string()
        };
        assert_eq!(
            lists.bracket_with(names),
            "\
Round 1
  Sir Cai      vs Sir Emrys  *  (Sir Emrys unhorsed Sir Cai)
  Sir Anwen    vs Dame Dilys    (to fight)
  Dame Bryn    bye
Next: Sir Anwen vs Dame Dilys
"
        );
        lists
            .record(
                ListsResult::won(1, 4).with_unhorsing(1).with_unhorsing(4),
                &mut dice,
            )
            .unwrap();
        lists.record(ListsResult::won(2, 1), &mut dice).unwrap();
        lists
            .record(ListsResult::won(5, 2).with_unhorsing(5), &mut dice)
            .unwrap();
        assert_eq!(
            lists.bracket(),
            "\
Round 1
  #3   vs #5 *  (#5 unhorsed #3)
  #1 * vs #4    (both unhorsed)
  #2   bye
Round 2
  #2 * vs #1
  #5   bye
Round 3: final
  #5 * vs #2    (#5 unhorsed #2)
Champion: #5
Finalist: #2
Semi-finalist: #1
"
        );
    }

    // R34, R36, R130, R132: eight entrants. Round 1 keeps entry order. Round 2: [1,4,5,8], d4=1
    // (swap 3↔0: 8 4 5 1), d3=3 (stay), d2=1 (swap 1↔0: 4 8 5 1). Round 3: [1,8], d2=2.
    #[test]
    fn r36_eight_entrants() {
        let mut script = keep_order(8);
        script.extend([1, 3, 1, 2]);
        let mut dice = ScriptedDice::new(script);
        let mut lists = Lists::new((1..=8).collect(), &mut dice).unwrap();
        assert_eq!(lists.pairings(), vec![(1, 2), (3, 4), (5, 6), (7, 8)]);
        assert_eq!(lists.bye(), None);
        for r in [
            ListsResult::won(1, 2).with_unhorsing(1),
            ListsResult::won(4, 3),
            ListsResult::won(5, 6).with_unhorsing(5),
            ListsResult::won(8, 7).with_unhorsing(8).with_unhorsing(7),
        ] {
            lists.record(r, &mut dice).unwrap();
        }
        assert_eq!(lists.current_round(), 2);
        assert_eq!(lists.pairings(), vec![(4, 8), (5, 1)]);
        // Matches of a round may be recorded in any order.
        lists.record(ListsResult::won(1, 5), &mut dice).unwrap();
        lists
            .record(ListsResult::won(8, 4).with_unhorsing(8), &mut dice)
            .unwrap();
        assert_eq!(lists.pairings(), vec![(1, 8)]);
        lists
            .record(ListsResult::won(1, 8).with_unhorsing(1), &mut dice)
            .unwrap();
        assert_eq!(lists.champion(), Some(1));
        assert_eq!(lists.finalist(), Some(8));
        assert_eq!(lists.semi_finalists(), vec![4, 5]);
        // R36 by hand. 1: 3 matches, 2 unhorsings, champion 2 = 7. 2: 1. 3: 1. 4: 2 matches,
        // semi = 3. 5: 2 matches, 1 unhorsing, semi = 4. 6: 1. 7: 1 match, 1 unhorsing = 2.
        // 8: 3 matches, 2 unhorsings, finalist = 6. Sum 25.
        let t = totals(&lists.awards());
        assert_eq!(
            t,
            vec![
                (1, 7),
                (2, 1),
                (3, 1),
                (4, 3),
                (5, 4),
                (6, 1),
                (7, 2),
                (8, 6)
            ]
        );
        assert_eq!(t.iter().map(|(_, hp)| hp).sum::<u32>(), 25);
        assert_eq!(dice.remaining(), 0);
    }

    // R34, R36, R130, R131, R132: thirteen entrants, every round in entry order but the last.
    // Round 1: 13 sits out. Round 2: [1,3,5,7,9,11,13]; 13 is last but has sat out, so 11 does.
    // Round 3: [1,7,11,13]; 11 and 13 have both sat out, so they meet first (R131).
    // Round 4: [1,13], d2=1 lists 13 first.
    #[test]
    fn r36_thirteen_entrants() {
        let mut script = keep_order(13);
        script.extend(keep_order(7));
        script.extend(keep_order(4));
        script.push(1);
        let mut dice = ScriptedDice::new(script);
        let mut lists = Lists::new((1..=13).collect(), &mut dice).unwrap();
        assert_eq!(
            lists.pairings(),
            vec![(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)]
        );
        assert_eq!(lists.bye(), Some(13));
        for r in [
            ListsResult::won(1, 2).with_unhorsing(1),
            ListsResult::won(3, 4),
            ListsResult::won(5, 6).with_unhorsing(5),
            ListsResult::won(7, 8).with_unhorsing(7),
            ListsResult::won(9, 10).with_unhorsing(9).with_unhorsing(10),
            ListsResult::won(11, 12).with_unhorsing(11),
        ] {
            lists.record(r, &mut dice).unwrap();
        }
        assert_eq!(lists.pairings(), vec![(1, 3), (5, 7), (9, 13)]);
        assert_eq!(lists.bye(), Some(11));
        for r in [
            ListsResult::won(1, 3).with_unhorsing(1),
            ListsResult::won(7, 5),
            ListsResult::won(13, 9).with_unhorsing(13),
        ] {
            lists.record(r, &mut dice).unwrap();
        }
        assert_eq!(lists.pairings(), vec![(11, 13), (1, 7)]);
        assert_eq!(lists.bye(), None);
        for r in [
            ListsResult::won(13, 11).with_unhorsing(13),
            ListsResult::won(1, 7).with_unhorsing(1).with_unhorsing(7),
        ] {
            lists.record(r, &mut dice).unwrap();
        }
        assert_eq!(lists.pairings(), vec![(13, 1)]);
        lists
            .record(ListsResult::won(1, 13).with_unhorsing(1), &mut dice)
            .unwrap();
        assert_eq!(lists.champion(), Some(1));
        assert_eq!(lists.finalist(), Some(13));
        assert_eq!(lists.semi_finalists(), vec![7, 11]);
        // R36 by hand: 1: 4 matches, 4 unhorsings, champion 2 = 10. 3: 2 matches = 2.
        // 5: 2 + 1 = 3. 7: 3 matches, 2 unhorsings, semi = 6. 9: 2 + 1 = 3. 10: 1 + 1 = 2.
        // 11: 2 + 1 + semi = 4. 13: 3 + 2 + finalist = 6. 2, 4, 6, 8, 12: 1 each. Sum 41.
        let t = totals(&lists.awards());
        assert_eq!(
            t,
            vec![
                (1, 10),
                (2, 1),
                (3, 2),
                (4, 1),
                (5, 3),
                (6, 1),
                (7, 6),
                (8, 1),
                (9, 3),
                (10, 2),
                (11, 4),
                (12, 1),
                (13, 6)
            ]
        );
        assert_eq!(t.iter().map(|(_, hp)| hp).sum::<u32>(), 41);
        assert_eq!(dice.remaining(), 0);
    }

    // R131: the corner R34 alone cannot escape. 17 entrants: 17 sits out round 1, 15 round 2.
    // Round 3 holds [1,5,9,15,17]; d5=1 (swap 4↔0: 17 5 9 15 1), then d4=4 d3=3 d2=2 keep it;
    // 1 sits out. Paired in shuffled order 17–5 and 9–15, both byes could win and leave
    // {1,15,17}, all of whom have sat out. R131 pairs 17 with 15 instead.
    #[test]
    fn r131_those_who_sat_out_meet_first() {
        let mut script = keep_order(17);
        script.extend(keep_order(9));
        script.extend([1, 4, 3, 2]);
        script.extend(keep_order(3));
        script.push(2);
        let mut dice = ScriptedDice::new(script);
        let mut lists = Lists::new((1..=17).collect(), &mut dice).unwrap();
        assert_eq!(lists.bye(), Some(17));
        for k in (1..=15).step_by(2) {
            lists.record(ListsResult::won(k, k + 1), &mut dice).unwrap();
        }
        assert_eq!(lists.bye(), Some(15));
        assert_eq!(lists.pairings(), vec![(1, 3), (5, 7), (9, 11), (13, 17)]);
        for (w, l) in [(1, 3), (5, 7), (9, 11), (17, 13)] {
            lists.record(ListsResult::won(w, l), &mut dice).unwrap();
        }
        assert_eq!(lists.bye(), Some(1));
        assert_eq!(lists.pairings(), vec![(17, 15), (5, 9)]);
        lists.record(ListsResult::won(17, 15), &mut dice).unwrap();
        lists.record(ListsResult::won(5, 9), &mut dice).unwrap();
        // Round 4: [1,5,17]; 1 and 17 have sat out, so 5 sits out and they meet.
        assert_eq!(lists.bye(), Some(5));
        assert_eq!(lists.pairings(), vec![(1, 17)]);
        lists.record(ListsResult::won(1, 17), &mut dice).unwrap();
        assert_eq!(lists.pairings(), vec![(1, 5)]);
        lists.record(ListsResult::won(5, 1), &mut dice).unwrap();
        assert_eq!(lists.champion(), Some(5));
        assert_eq!(lists.semi_finalists(), vec![17]);
        let byes: Vec<KnightId> = lists.rounds().iter().filter_map(Round::bye).collect();
        assert_eq!(byes, vec![17, 15, 1, 5]);
        assert_eq!(dice.remaining(), 0);
    }

    // R132: a final with no winner leaves no champion and two finalists.
    #[test]
    fn r132_a_final_with_no_winner() {
        let mut dice = ScriptedDice::new([2]);
        let mut lists = Lists::new(vec![1, 2], &mut dice).unwrap();
        let r = lists
            .record(
                ListsResult::both_out(1, 2)
                    .with_unhorsing(1)
                    .with_unhorsing(2),
                &mut dice,
            )
            .unwrap();
        assert_eq!(r, Recorded::Finished);
        assert!(lists.is_finished());
        assert_eq!(lists.champion(), None);
        assert_eq!(lists.finalist(), None);
        assert_eq!(lists.finalists(), vec![1, 2]);
        // R36: a match fought and an unhorsing each, and a top-three finish; no first prize.
        assert_eq!(totals(&lists.awards()), vec![(1, 3), (2, 3)]);
        assert!(lists.bracket().contains("#1 x vs #2 x  (both unhorsed)"));
        assert!(lists.bracket().contains("Champion: none"));
    }

    // R132: three entrants, the pair both out in round 1: the odd man out is champion without a
    // match, and the two who went out in the last round fought share the finalist's place.
    #[test]
    fn r132_the_odd_man_out_can_be_champion() {
        let mut dice = ScriptedDice::new(keep_order(3));
        let mut lists = Lists::new(vec![1, 2, 3], &mut dice).unwrap();
        assert_eq!(lists.bye(), Some(3));
        lists
            .record(ListsResult::both_out(2, 1), &mut dice)
            .unwrap();
        assert_eq!(lists.champion(), Some(3));
        assert_eq!(lists.finalists(), vec![1, 2]);
        assert_eq!(lists.semi_finalists(), Vec::<KnightId>::new());
        assert_eq!(
            lists.awards(),
            vec![
                award(1, 1, AwardReason::ListsMatches),
                award(1, 1, AwardReason::ListsTopThree(Placing::Finalist)),
                award(2, 1, AwardReason::ListsMatches),
                award(2, 1, AwardReason::ListsTopThree(Placing::Finalist)),
                award(3, 1, AwardReason::ListsTopThree(Placing::Champion)),
                award(3, 1, AwardReason::ListsFirstPrize),
            ]
        );
    }

    // R132: a double elimination in the round before the final makes both knights
    // semi-finalists, with the loser of the other match ("including ties").
    #[test]
    fn r132_semi_finalists_with_a_double_elimination() {
        let mut script = keep_order(10);
        script.extend(keep_order(5));
        script.push(2);
        let mut dice = ScriptedDice::new(script);
        let mut lists = Lists::new((1..=10).collect(), &mut dice).unwrap();
        for k in (1..=9).step_by(2) {
            lists.record(ListsResult::won(k, k + 1), &mut dice).unwrap();
        }
        assert_eq!(lists.pairings(), vec![(1, 3), (5, 7)]);
        assert_eq!(lists.bye(), Some(9));
        lists
            .record(ListsResult::both_out(1, 3), &mut dice)
            .unwrap();
        lists.record(ListsResult::won(5, 7), &mut dice).unwrap();
        assert_eq!(lists.pairings(), vec![(5, 9)]);
        lists.record(ListsResult::won(9, 5), &mut dice).unwrap();
        assert_eq!(lists.champion(), Some(9));
        assert_eq!(lists.finalist(), Some(5));
        assert_eq!(lists.semi_finalists(), vec![1, 3, 7]);
        assert_eq!(lists.placing(3), Some(Placing::SemiFinalist));
        assert_eq!(lists.placing(2), None);
        // R36: 9: 2 matches + champion 2 = 4; 5: 3 matches + 1 = 4; 1, 3, 7: 2 + 1 = 3.
        assert_eq!(
            totals(&lists.awards()),
            vec![
                (1, 3),
                (2, 1),
                (3, 3),
                (4, 1),
                (5, 4),
                (6, 1),
                (7, 3),
                (8, 1),
                (9, 4),
                (10, 1)
            ]
        );
    }

    // Typed refusals leave the lists unchanged.
    #[test]
    fn lists_refusals() {
        let mut dice = ScriptedDice::new([1]);
        assert_eq!(
            Lists::new(vec![7], &mut dice),
            Err(ListsError::TooFewEntrants(1))
        );
        assert_eq!(
            Lists::new(vec![], &mut dice),
            Err(ListsError::TooFewEntrants(0))
        );
        assert_eq!(
            Lists::new(vec![1, 2, 1], &mut dice),
            Err(ListsError::DuplicateEntrant(1))
        );
        assert_eq!(
            Lists::new((0..=MAX_ENTRANTS as i64).collect(), &mut dice),
            Err(ListsError::TooManyEntrants(MAX_ENTRANTS + 1))
        );
        assert_eq!(dice.taken(), 0);

        let mut dice = ScriptedDice::new(keep_order(4));
        let mut lists = Lists::new(vec![1, 2, 3, 4], &mut dice).unwrap();
        let before = lists.clone();
        let cases = [
            (
                ListsResult::won(1, 3),
                ListsError::NotPaired {
                    a: 1,
                    b: 3,
                    round: 1,
                },
            ),
            (
                ListsResult::won(1, 9),
                ListsError::NotPaired {
                    a: 1,
                    b: 9,
                    round: 1,
                },
            ),
            (ListsResult::won(2, 2), ListsError::SameKnight(2)),
            (
                ListsResult::won(1, 2).with_unhorsing(3),
                ListsError::UnhorsingNotInMatch(3),
            ),
            (
                ListsResult::won(1, 2).with_unhorsing(1).with_unhorsing(1),
                ListsError::UnhorsedTwice(1),
            ),
            // R35: had 2 unhorsed 1 alone, 1 would have lost at once.
            (
                ListsResult::won(1, 2).with_unhorsing(2),
                ListsError::LoserUnhorsedWinner {
                    loser: 2,
                    winner: 1,
                },
            ),
        ];
        for (result, error) in cases {
            assert_eq!(lists.record(result, &mut dice), Err(error));
            assert_eq!(lists, before);
        }
        // The pair may be named in either order.
        lists.record(ListsResult::won(2, 1), &mut dice).unwrap();
        assert_eq!(
            lists.record(ListsResult::won(1, 2), &mut dice),
            Err(ListsError::AlreadyRecorded { a: 1, b: 2 })
        );
        lists
            .record(ListsResult::won(3, 4), &mut ScriptedDice::new([2]))
            .unwrap();
        lists.record(ListsResult::won(2, 3), &mut dice).unwrap();
        assert_eq!(
            lists.record(ListsResult::won(2, 3), &mut dice),
            Err(ListsError::Finished)
        );
        assert_eq!(
            ListsError::LoserUnhorsedWinner {
                loser: 2,
                winner: 1
            }
            .to_string(),
            "knight #2 unhorsed knight #1, who would then have lost at once (R35); check who won"
        );
    }

    // R131: a tampered save in which every knight left has sat out cannot be drawn; the refusal
    // leaves it as it was. (Through the API this cannot happen; see R131.)
    #[test]
    fn r131_an_impossible_saved_state_is_refused_not_panicked() {
        let saved = |byes: &str| {
            format!(
                r#"{{"entrants":[1,2,3,4],"rounds":[{byes}
                    {{"pairings":[{{"first":3,"second":4,"result":null}}],"bye":null}}]}}"#
            )
        };
        // 1 and 2 have sat out; after 3 beats 4, 3 may still sit out.
        let mut lists: Lists = serde_json::from_str(&saved(
            r#"{"pairings":[],"bye":1},{"pairings":[],"bye":2},"#,
        ))
        .unwrap();
        assert_eq!(lists.next_match(), Some((3, 4)));
        lists
            .record(ListsResult::won(3, 4), &mut ScriptedDice::new([3, 2]))
            .unwrap();
        assert_eq!(lists.bye(), Some(3));
        // Now 3 has sat out too: no one can be the odd man out.
        let mut lists: Lists = serde_json::from_str(&saved(
            r#"{"pairings":[],"bye":1},{"pairings":[],"bye":2},{"pairings":[],"bye":3},"#,
        ))
        .unwrap();
        let before = lists.clone();
        assert_eq!(
            lists.record(ListsResult::won(3, 4), &mut ScriptedDice::new([3, 2])),
            Err(ListsError::NoOddManOut)
        );
        assert_eq!(lists, before);
        assert!(lists.bracket().contains("Next: #3 vs #4"));
    }

    // Persistence: a lists saved mid-round and restored (deserialized) carries on identically.
    #[test]
    fn lists_restore_is_deserialize() {
        let (mut lists, mut dice) = five_entrants();
        lists
            .record(ListsResult::won(5, 3).with_unhorsing(5), &mut dice)
            .unwrap();
        let saved = serde_json::to_string(&lists).unwrap();
        let mut restored: Lists = serde_json::from_str(&saved).unwrap();
        assert_eq!(restored, lists);
        assert_eq!(restored.next_match(), Some((1, 4)));
        let mut dice2 = dice.clone();
        lists.record(ListsResult::won(1, 4), &mut dice).unwrap();
        restored.record(ListsResult::won(1, 4), &mut dice2).unwrap();
        assert_eq!(restored, lists);
    }

    // ---- Lists: properties over every size ----

    /// Runs a lists of `n` with random winners (and, with `doubles`, occasional matches with no
    /// winner), saving and restoring now and then, and checks R34, R36, R130–R132.
    fn run_and_check(n: usize, seed: u64, doubles: bool) {
        let entrants: Vec<KnightId> = (0..n as i64).map(|i| 1_000 + 7 * i).collect();
        let mut draw_dice = SeededDice::from_u64(seed);
        let mut fate = SeededDice::from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let mut lists = Lists::new(entrants.clone(), &mut draw_dice).unwrap();
        let mut matches = 0usize;
        // Save and restore once, after a random match: restoring is deserializing.
        let save_at = fate.roll(n as u32) as usize;
        while let Some((a, b)) = lists.next_match() {
            matches += 1;
            assert!(matches < n, "n={n} seed={seed}: too many matches");
            let (w, l) = if fate.roll(2) == 1 { (a, b) } else { (b, a) };
            let mut result = if doubles && fate.roll(12) == 1 {
                ListsResult::both_out(a, b)
            } else {
                ListsResult::won(w, l)
            };
            match fate.roll(4) {
                1 => result = result.with_unhorsing(w),
                2 => result = result.with_unhorsing(w).with_unhorsing(l),
                _ => {}
            }
            lists.record(result, &mut draw_dice).unwrap();
            if matches == save_at {
                let saved = serde_json::to_string(&lists).unwrap();
                let restored: Lists = serde_json::from_str(&saved).unwrap();
                assert_eq!(restored, lists);
                lists = restored;
            }
        }
        assert!(lists.is_finished(), "n={n} seed={seed}");

        // Replay the rounds: each round holds exactly the knights left, each once; a bye only
        // with an odd count, and only for one who has not sat out; at most two who have sat
        // out are left at the start of any round (R131's invariant).
        let mut left: BTreeSet<KnightId> = entrants.iter().copied().collect();
        let mut sat_out: BTreeSet<KnightId> = BTreeSet::new();
        let mut losses: BTreeMap<KnightId, usize> = BTreeMap::new();
        for (i, round) in lists.rounds().iter().enumerate() {
            let mut seen: Vec<KnightId> = round
                .pairings()
                .iter()
                .flat_map(|p| [p.first, p.second])
                .chain(round.bye())
                .collect();
            seen.sort_unstable();
            let expected: Vec<KnightId> = left.iter().copied().collect();
            assert_eq!(seen, expected, "n={n} seed={seed} round {}", i + 1);
            assert_eq!(round.bye().is_some(), left.len() % 2 == 1);
            assert!(left.intersection(&sat_out).count() <= 2, "R131 invariant");
            if let Some(b) = round.bye() {
                // R34: no knight sits out twice.
                assert!(sat_out.insert(b), "n={n} seed={seed}: {b} sat out twice");
            }
            assert!(round.is_complete());
            for k in round.eliminated() {
                assert!(left.remove(&k), "{k} went out twice");
                *losses.entry(k).or_default() += 1;
            }
        }
        assert_eq!(left.iter().copied().collect::<Vec<_>>(), lists.remaining());

        let awards = lists.awards();
        let sum = |pred: &dyn Fn(AwardReason) -> bool| -> u32 {
            awards.iter().filter(|a| pred(a.reason)).map(|a| a.hp).sum()
        };
        let fought: Vec<&ListsResult> = lists
            .rounds()
            .iter()
            .flat_map(|r| r.pairings())
            .filter_map(|p| p.result.as_ref())
            .collect();
        assert_eq!(fought.len(), matches);
        // R36: every match pays both knights; every unhorsing pays its knight.
        assert_eq!(
            sum(&|r| r == AwardReason::ListsMatches) as usize,
            2 * matches
        );
        let unhorsings: usize = fought.iter().map(|r| r.unhorsed_opponent.len()).sum();
        assert_eq!(
            sum(&|r| r == AwardReason::ListsUnhorsings) as usize,
            unhorsings
        );
        let placed = awards
            .iter()
            .filter(|a| matches!(a.reason, AwardReason::ListsTopThree(_)))
            .count();
        let champion = lists.champion();
        assert_eq!(
            placed,
            usize::from(champion.is_some())
                + lists.finalists().len()
                + lists.semi_finalists().len()
        );
        assert_eq!(
            sum(&|r| r == AwardReason::ListsFirstPrize),
            u32::from(champion.is_some())
        );

        if !doubles {
            // Exactly one champion; every other knight lost exactly once; n − 1 matches.
            let champion = champion.expect("a champion");
            assert_eq!(lists.remaining(), vec![champion]);
            assert_eq!(matches, n - 1);
            for &k in &entrants {
                let lost = losses.get(&k).copied().unwrap_or(0);
                assert_eq!(
                    lost,
                    usize::from(k != champion),
                    "n={n} seed={seed} knight {k}"
                );
            }
            // R132: one finalist; one or two semi-finalists (none when the final is round 1).
            assert!(lists.finalist().is_some());
            let semis = lists.semi_finalists().len();
            if n == 2 {
                assert_eq!(semis, 0);
            } else {
                assert!((1..=2).contains(&semis), "n={n} seed={seed}: {semis} semis");
            }
        } else {
            assert!(matches < n);
            assert!(lists.remaining().len() <= 1);
            assert_eq!(champion.is_some(), lists.remaining().len() == 1);
        }
    }

    // R34, R36, R130, R131, R132: every entrant count from 2 to 256, several seeds each, with
    // and without matches that have no winner.
    #[test]
    fn r34_every_count_from_2_to_256() {
        for n in 2..=256 {
            for seed in 0..3 {
                run_and_check(n, seed, false);
                run_and_check(n, seed + 1_000, true);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        // R34, R36, R131: random sizes and seeds, random winners.
        #[test]
        fn r34_random_lists_hold_the_rules(n in 2usize..=256, seed in any::<u64>()) {
            run_and_check(n, seed, false);
        }

        // R132: with matches that have no winner.
        #[test]
        fn r132_random_lists_with_double_eliminations(n in 2usize..=256, seed in any::<u64>()) {
            run_and_check(n, seed, true);
        }
    }

    // ---- Melee ----

    const A1: KnightId = 1;
    const A2: KnightId = 2;
    const A3: KnightId = 3;
    const B1: KnightId = 11;
    const B2: KnightId = 12;
    const B3: KnightId = 13;

    fn melee(remount: bool, first: &[KnightId], second: &[KnightId]) -> Melee {
        let mut m = Melee::open("Gorllewin", "Vegland", remount).unwrap();
        for &k in first {
            m.join(k, MeleeSide::First).unwrap();
        }
        for &k in second {
            m.join(k, MeleeSide::Second).unwrap();
        }
        m.start().unwrap();
        m
    }

    fn fight(m: &mut Melee, from: KnightId, to: KnightId, result: PassResult) -> PassRecord {
        let id = m.offer(from, to, false).unwrap();
        let pass = m.accept(to, id).unwrap();
        assert_eq!((pass.challenger, pass.challenged), (from, to));
        assert_eq!(pass.state, PassState::Underway);
        m.resolve(id, result).unwrap()
    }

    // R37, R133: sides are named; a knight joins one side, once; the start needs both sides.
    #[test]
    fn r133_open_join_and_start() {
        assert_eq!(
            Melee::open(" ", "Vegland", false),
            Err(MeleeError::EmptySideName)
        );
        assert_eq!(
            Melee::open("Vegland", "vegland ", false),
            Err(MeleeError::SameSideNames("vegland".into()))
        );
        assert_eq!(
            Melee::open(&"x".repeat(61), "Vegland", false),
            Err(MeleeError::SideNameTooLong(61))
        );
        let mut m = Melee::open("Gorllewin", "Vegland", true).unwrap();
        assert_eq!(m.side_named(" vegland"), Some(MeleeSide::Second));
        assert_eq!(m.side_named("Beanntan"), None);
        assert_eq!(m.offer(A1, B1, false), Err(MeleeError::NotStarted));
        assert_eq!(m.time_up(), Err(MeleeError::NotStarted));
        m.join(A1, MeleeSide::First).unwrap();
        assert_eq!(m.start(), Err(MeleeError::EmptySide("Vegland".into())));
        for side in MeleeSide::BOTH {
            assert_eq!(
                m.join(A1, side),
                Err(MeleeError::AlreadyJoined {
                    knight: A1,
                    side: "Gorllewin".into()
                })
            );
        }
        m.join(B1, MeleeSide::Second).unwrap();
        m.start().unwrap();
        assert_eq!(m.phase(), &MeleePhase::Fighting);
        assert_eq!(
            m.join(B2, MeleeSide::Second),
            Err(MeleeError::AlreadyStarted)
        );
        assert_eq!(m.start(), Err(MeleeError::AlreadyStarted));
        assert_eq!(m.side_of(B1), Some(MeleeSide::Second));
        assert_eq!(m.mounted(MeleeSide::First), 1);
    }

    // R37: with one remount allowed, a first fall uses it; the second puts the knight out.
    #[test]
    fn r37_a_remount_then_out() {
        let mut m = melee(true, &[A1, A2], &[B1, B2]);
        let rec = fight(&mut m, A1, B1, PassResult::unhorsed(B1));
        assert_eq!(rec.remounted, vec![B1]);
        assert!(rec.eliminated.is_empty());
        let b1 = m.knight(B1).unwrap();
        assert!(b1.remount_used && b1.is_mounted());
        assert_eq!(m.mounted(MeleeSide::Second), 2);
        // Both kept their seats: nothing changes.
        let rec = fight(&mut m, B1, A2, PassResult::neither());
        assert!(rec.remounted.is_empty() && rec.eliminated.is_empty());
        let rec = fight(&mut m, A2, B1, PassResult::unhorsed(B1));
        assert_eq!(rec.eliminated, vec![B1]);
        assert_eq!(m.knight(B1).unwrap().out, Some(OutReason::Unhorsed));
        assert_eq!(m.mounted(MeleeSide::Second), 1);
        assert!(!m.is_finished());
        assert_eq!(m.knight(A1).unwrap().unhorsings, 1);
        assert_eq!(m.knight(A2).unwrap().unhorsings, 1);
    }

    // R37: without a remount an unhorsed knight is out, and no pass can be offered to or by them.
    #[test]
    fn r37_elimination_without_remount() {
        let mut m = melee(false, &[A1, A2], &[B1, B2]);
        let rec = fight(&mut m, A1, B1, PassResult::unhorsed(A1));
        assert_eq!(rec.eliminated, vec![A1]);
        assert!(!m.knight(A1).unwrap().remount_used);
        assert_eq!(m.offer(B2, A1, false), Err(MeleeError::Out(A1)));
        assert_eq!(m.offer(A1, B2, false), Err(MeleeError::Out(A1)));
        assert_eq!(m.knight(B1).unwrap().unhorsings, 1);
    }

    // R37: the melee ends when only one side has mounted knights; that side wins.
    #[test]
    fn r37_one_side_left_mounted() {
        let mut m = melee(false, &[A1, A2], &[B1]);
        fight(&mut m, B1, A1, PassResult::unhorsed(A1));
        assert!(!m.is_finished());
        fight(&mut m, A2, B1, PassResult::unhorsed(B1));
        assert_eq!(
            m.ending(),
            Some(&MeleeEnd {
                reason: EndReason::OneSideMounted,
                winner: Some(MeleeSide::First),
                mounted: [1, 0],
            })
        );
        assert_eq!(m.winner(), Some(MeleeSide::First));
        assert_eq!(m.offer(A2, B1, false), Err(MeleeError::Ended));
        assert_eq!(m.time_up(), Err(MeleeError::Ended));
    }

    // R13, R37: both unhorsed in a melee pass; the last two falling together leave no one
    // mounted, which is a tie with no winner.
    #[test]
    fn r13_both_unhorsed_in_a_melee() {
        let mut m = melee(true, &[A1], &[B1]);
        let rec = fight(&mut m, A1, B1, PassResult::both());
        assert_eq!(rec.remounted, vec![A1, B1]);
        assert_eq!(m.knight(A1).unwrap().unhorsings, 1);
        assert_eq!(m.knight(B1).unwrap().unhorsings, 1);
        let rec = fight(&mut m, B1, A1, PassResult::both());
        assert_eq!(rec.eliminated, vec![B1, A1]);
        let end = m.ending().copied().unwrap();
        assert_eq!(end.reason, EndReason::NoneMounted);
        assert_eq!(end.winner, None);
        assert_eq!(end.mounted, [0, 0]);
    }

    // R37: at the time limit the side with more mounted knights wins.
    #[test]
    fn r37_time_limit_more_mounted_wins() {
        let mut m = melee(false, &[A1, A2, A3], &[B1, B2, B3]);
        fight(&mut m, A1, B1, PassResult::unhorsed(B1));
        m.time_up().unwrap();
        assert_eq!(
            m.ending(),
            Some(&MeleeEnd {
                reason: EndReason::TimeLimit,
                winner: Some(MeleeSide::First),
                mounted: [3, 2],
            })
        );
    }

    // R37: at the time limit equal numbers mounted is a tie: no winner, no winning-side HP.
    #[test]
    fn r37_time_limit_tie_has_no_winner() {
        let mut m = melee(false, &[A1, A2], &[B1, B2]);
        fight(&mut m, A1, B1, PassResult::unhorsed(B1));
        fight(&mut m, B2, A2, PassResult::unhorsed(A2));
        m.time_up().unwrap();
        let end = m.ending().copied().unwrap();
        assert_eq!(
            (end.reason, end.winner, end.mounted),
            (EndReason::TimeLimit, None, [1, 1])
        );
        assert!(m
            .awards()
            .iter()
            .all(|a| a.reason != AwardReason::MeleeWinningSide));
        assert_eq!(m.time_up(), Err(MeleeError::Ended));
    }

    // R135: time called with a pass under way; it is fought out, nothing new starts, and the
    // melee ends with it.
    #[test]
    fn r135_time_called_during_a_pass() {
        let mut m = melee(false, &[A1, A2], &[B1, B2]);
        let fighting = m.offer(A1, B1, false).unwrap();
        let waiting = m.offer(A2, B2, false).unwrap();
        m.accept(B1, fighting).unwrap();
        m.time_up().unwrap();
        assert_eq!(m.phase(), &MeleePhase::TimeCalled);
        assert_eq!(m.time_up(), Err(MeleeError::TimeAlreadyCalled));
        assert_eq!(m.pass(waiting).unwrap().state, PassState::Lapsed);
        assert_eq!(m.accept(B2, waiting), Err(MeleeError::TimeCalled));
        assert_eq!(m.offer(A2, B2, false), Err(MeleeError::TimeCalled));
        m.resolve(fighting, PassResult::unhorsed(A1)).unwrap();
        assert_eq!(
            m.ending(),
            Some(&MeleeEnd {
                reason: EndReason::TimeLimit,
                winner: Some(MeleeSide::Second),
                mounted: [1, 2],
            })
        );
    }

    // R134: one open offer per knight; entering a pass lapses the others; withdraw, decline.
    #[test]
    fn r134_offers() {
        let mut m = melee(false, &[A1, A2], &[B1, B2]);
        let p0 = m.offer(A1, B1, false).unwrap();
        assert_eq!(
            m.offer(A1, B2, false),
            Err(MeleeError::OfferOpen {
                knight: A1,
                pass: p0
            })
        );
        assert_eq!(
            m.offer(B1, A1, false),
            Err(MeleeError::AlreadyOfferedToYou { from: A1, pass: p0 })
        );
        let p1 = m.offer(A2, B1, false).unwrap();
        let p2 = m.offer(B2, A1, false).unwrap();
        assert_eq!(
            m.offers_to(B1).iter().map(|p| p.id).collect::<Vec<_>>(),
            vec![p0, p1]
        );
        assert_eq!(
            m.withdraw(B1, p0),
            Err(MeleeError::NotYourOffer {
                knight: B1,
                pass: p0
            })
        );
        assert_eq!(
            m.decline(A1, p0),
            Err(MeleeError::NotOfferedToYou {
                knight: A1,
                pass: p0
            })
        );
        // B1 takes A2's offer: A1's offer to B1 lapses; B2's offer to A1 stands.
        m.accept(B1, p1).unwrap();
        assert_eq!(m.pass(p0).unwrap().state, PassState::Lapsed);
        assert_eq!(m.pass(p2).unwrap().state, PassState::Offered);
        assert_eq!(m.accept(B1, p0), Err(MeleeError::PassNotOpen(p0)));
        m.decline(A1, p2).unwrap();
        assert_eq!(m.pass(p2).unwrap().state, PassState::Declined);
        let p3 = m.offer(A1, B2, false).unwrap();
        m.withdraw(A1, p3).unwrap();
        assert_eq!(m.pass(p3).unwrap().state, PassState::Withdrawn);
        assert_eq!(m.withdraw(A1, p3), Err(MeleeError::PassNotOpen(p3)));
        assert_eq!(m.withdraw(A1, 99), Err(MeleeError::UnknownPass(99)));
    }

    // R37: the typed refusals of offers, acceptances and results.
    #[test]
    fn r37_refusals() {
        let mut m = melee(false, &[A1, A2], &[B1, B2]);
        assert_eq!(m.offer(A1, 99, false), Err(MeleeError::NotJoined(99)));
        assert_eq!(m.offer(99, A1, false), Err(MeleeError::NotJoined(99)));
        assert_eq!(m.offer(A1, A1, false), Err(MeleeError::OfferToSelf(A1)));
        assert_eq!(
            m.offer(A1, A2, false),
            Err(MeleeError::SameSide {
                from: A1,
                to: A2,
                side: "Gorllewin".into()
            })
        );
        let p = m.offer(A1, B1, false).unwrap();
        assert_eq!(
            m.accept(B2, p),
            Err(MeleeError::NotOfferedToYou {
                knight: B2,
                pass: p
            })
        );
        assert_eq!(
            m.resolve(p, PassResult::neither()),
            Err(MeleeError::PassNotUnderway(p))
        );
        m.accept(B1, p).unwrap();
        // One pass at a time (R37), for the offerer and for the one offered to.
        assert_eq!(
            m.offer(A2, B1, false),
            Err(MeleeError::InPass {
                knight: B1,
                pass: p
            })
        );
        assert_eq!(
            m.offer(A1, B2, false),
            Err(MeleeError::InPass {
                knight: A1,
                pass: p
            })
        );
        let before = m.clone();
        assert_eq!(
            m.resolve(p, PassResult::unhorsed(B2)),
            Err(MeleeError::NotInPass {
                knight: B2,
                pass: p
            })
        );
        assert_eq!(
            m.resolve(p, PassResult::unhorsed(A1).with_major_injury(B1)),
            Err(MeleeError::InjuryWithoutFall(B1))
        );
        assert_eq!(
            m.resolve(p, PassResult::both().with_major_injury(A2)),
            Err(MeleeError::NotInPass {
                knight: A2,
                pass: p
            })
        );
        assert_eq!(
            m.resolve(7, PassResult::neither()),
            Err(MeleeError::UnknownPass(7))
        );
        assert_eq!(m, before);
        m.resolve(p, PassResult::neither()).unwrap();
        assert_eq!(
            m.resolve(p, PassResult::neither()),
            Err(MeleeError::PassNotUnderway(p))
        );
        assert_eq!(
            MeleeError::SameSide {
                from: A1,
                to: A2,
                side: "Gorllewin".into()
            }
            .to_string(),
            "knight #1 and knight #2 are both of Gorllewin; offer a pass to a knight of the other side"
        );
    }

    // R136: a major injury puts the knight out even with an unused remount.
    #[test]
    fn r136_major_injury_is_out_whatever_the_remount() {
        let mut m = melee(true, &[A1, A2], &[B1, B2]);
        let rec = fight(&mut m, A1, B1, PassResult::both().with_major_injury(B1));
        assert_eq!(rec.remounted, vec![A1]);
        assert_eq!(rec.eliminated, vec![B1]);
        assert_eq!(m.knight(B1).unwrap().out, Some(OutReason::MajorInjury));
        assert!(!m.knight(B1).unwrap().remount_used);
    }

    // R39, R137: the ransom flag rides on the pass; a lone fall in a pass for ransom is a
    // capture and out, remount or not; a double fall captures no one.
    #[test]
    fn r137_passes_for_ransom() {
        let mut m = melee(true, &[A1, A2], &[B1, B2]);
        let p = m.offer(A1, B1, true).unwrap();
        assert!(m.pass(p).unwrap().for_ransom);
        assert!(m.accept(B1, p).unwrap().for_ransom);
        let rec = m.resolve(p, PassResult::unhorsed(B1)).unwrap();
        assert_eq!(
            rec.capture,
            Some(Capture {
                captive: B1,
                captor: A1
            })
        );
        assert_eq!(rec.eliminated, vec![B1]);
        assert_eq!(m.knight(B1).unwrap().out, Some(OutReason::Captured));
        let p = m.offer(B2, A2, true).unwrap();
        m.accept(A2, p).unwrap();
        let rec = m.resolve(p, PassResult::both()).unwrap();
        assert_eq!(rec.capture, None);
        assert_eq!(rec.remounted, vec![B2, A2]);
        // Not for ransom: a lone fall with a remount left is no capture.
        let rec = fight(&mut m, A1, B2, PassResult::unhorsed(A1));
        assert_eq!(rec.capture, None);
        assert_eq!(rec.remounted, vec![A1]);
        match &m.pass(0).unwrap().state {
            PassState::Fought(r) => assert_eq!(r.capture.map(|c| c.captive), Some(B1)),
            other => panic!("pass 0 is {other:?}"),
        }
    }

    // R37, R138: the full melee awards, by hand. Remount allowed. A1 unhorses B1 (remount),
    // B1 and A2 both fall (A2 remounts, B1 out), A1 unhorses B2 (remount), time is called:
    // mounted 2 against 1, Gorllewin wins. The moderator names B2 first prize.
    #[test]
    fn r37_melee_awards() {
        let mut m = melee(true, &[A1, A2], &[B1, B2]);
        fight(&mut m, A1, B1, PassResult::unhorsed(B1));
        fight(&mut m, B1, A2, PassResult::both());
        fight(&mut m, A1, B2, PassResult::unhorsed(B2));
        assert_eq!(m.name_first_prize(B2), Err(MeleeError::NotEnded));
        m.time_up().unwrap();
        assert_eq!(m.winner(), Some(MeleeSide::First));
        assert_eq!(m.ending().unwrap().mounted, [2, 1]);
        assert_eq!(m.name_first_prize(99), Err(MeleeError::NotJoined(99)));
        m.name_first_prize(B2).unwrap();
        assert_eq!(
            m.name_first_prize(A1),
            Err(MeleeError::PrizeAlreadyNamed(B2))
        );
        assert_eq!(m.first_prize(), Some(B2));
        // A1: 1 + 2 unhorsings + winning side = 4. A2: 1 + 1 + 1 = 3. B1: 1 + 1 = 2.
        // B2: 1 + first prize = 2.
        assert_eq!(
            m.awards(),
            vec![
                award(A1, 1, AwardReason::MeleeParticipant),
                award(A1, 2, AwardReason::MeleeUnhorsings),
                award(A1, 1, AwardReason::MeleeWinningSide),
                award(A2, 1, AwardReason::MeleeParticipant),
                award(A2, 1, AwardReason::MeleeUnhorsings),
                award(A2, 1, AwardReason::MeleeWinningSide),
                award(B1, 1, AwardReason::MeleeParticipant),
                award(B1, 1, AwardReason::MeleeUnhorsings),
                award(B2, 1, AwardReason::MeleeParticipant),
                award(B2, 1, AwardReason::MeleeFirstPrize),
            ]
        );
        assert_eq!(
            totals(&m.awards()),
            vec![(A1, 4), (A2, 3), (B1, 2), (B2, 2)]
        );
    }

    // Persistence: a melee saved with a pass under way and restored (deserialized) carries on.
    #[test]
    fn melee_restore_is_deserialize() {
        let mut m = melee(true, &[A1], &[B1]);
        let p = m.offer(A1, B1, true).unwrap();
        m.accept(B1, p).unwrap();
        let saved = serde_json::to_string(&m).unwrap();
        let mut restored: Melee = serde_json::from_str(&saved).unwrap();
        assert_eq!(restored, m);
        let rec = restored.resolve(p, PassResult::unhorsed(A1)).unwrap();
        assert_eq!(rec.capture.map(|c| c.captor), Some(B1));
        assert_eq!(restored.winner(), Some(MeleeSide::Second));
    }

    // ---- Schedule ----

    fn month(y: i32, m: u8) -> Month {
        Month::new(y, m).unwrap()
    }

    // R38: one tournament per realm per calendar month.
    #[test]
    fn r38_one_tournament_a_month() {
        let existing = [month(2026, 10), month(2026, 11)];
        assert_eq!(
            schedule(&existing, month(2026, 12), false),
            Ok(Scheduled::Allowed)
        );
        // The same month of another year is another month.
        assert_eq!(
            schedule(&existing, month(2025, 11), false),
            Ok(Scheduled::Allowed)
        );
        assert_eq!(
            schedule(&existing, month(2026, 11), false),
            Err(ScheduleError::MonthTaken(month(2026, 11)))
        );
        assert_eq!(
            ScheduleError::MonthTaken(month(2026, 11)).to_string(),
            "the realm already has a tournament in 2026-11; one a month (R38), unless a moderator overrides"
        );
    }

    // R38, R139: a moderator's override is allowed and reported for the log; on a free month it
    // is not an override at all.
    #[test]
    fn r139_the_override_is_reported() {
        let existing = [month(2026, 11), month(2026, 11)];
        assert_eq!(
            schedule(&existing, month(2026, 11), true),
            Ok(Scheduled::Overridden {
                month: month(2026, 11),
                existing: 2
            })
        );
        assert_eq!(
            schedule(&existing, month(2026, 12), true),
            Ok(Scheduled::Allowed)
        );
    }

    // R25: months are calendar months in the realm's time zone; the caller gives the offset.
    #[test]
    fn r25_months_from_unix_seconds() {
        assert_eq!(Month::from_unix(0, 0), Ok(month(1970, 1)));
        assert_eq!(Month::from_unix(-1, 0), Ok(month(1969, 12)));
        // 2025-12-01T00:00:00Z is 1764547200.
        assert_eq!(Month::from_unix(1_764_547_200, 0), Ok(month(2025, 12)));
        assert_eq!(Month::from_unix(1_764_547_199, 0), Ok(month(2025, 11)));
        // Half an hour before midnight UTC is already December an hour east.
        assert_eq!(
            Month::from_unix(1_764_547_200 - 1_800, 3_600),
            Ok(month(2025, 12))
        );
        assert_eq!(Month::from_unix(1_764_547_200, -3_600), Ok(month(2025, 11)));
        // 2024-02-29T12:00:00Z, a leap day; 2026-12-31T23:59:59Z; 1900-03-01T00:00:00Z.
        assert_eq!(Month::from_unix(1_709_208_000, 0), Ok(month(2024, 2)));
        assert_eq!(Month::from_unix(1_798_761_599, 0), Ok(month(2026, 12)));
        assert_eq!(Month::from_unix(-2_203_891_200, 0), Ok(month(1900, 3)));
        assert_eq!(Month::from_unix(-2_203_891_201, 0), Ok(month(1900, 2)));
        assert_eq!(
            Month::from_unix(i64::MAX, 1),
            Err(ScheduleError::OutOfRange)
        );
        assert_eq!(
            Month::from_unix(i64::MAX, 0),
            Err(ScheduleError::OutOfRange)
        );
        assert_eq!(
            Month::from_unix(i64::MIN, 0),
            Err(ScheduleError::OutOfRange)
        );
        assert_eq!(Month::new(2026, 13), Err(ScheduleError::BadMonth(13)));
        assert_eq!(Month::new(2026, 0), Err(ScheduleError::BadMonth(0)));
        assert_eq!(month(2026, 3).to_string(), "2026-03");
    }

    // A saved month is checked when it is read back.
    #[test]
    fn months_deserialize_checked() {
        let json = serde_json::to_string(&month(2026, 12)).unwrap();
        assert_eq!(json, r#"{"year":2026,"month":12}"#);
        assert_eq!(
            serde_json::from_str::<Month>(&json).unwrap(),
            month(2026, 12)
        );
        assert!(serde_json::from_str::<Month>(r#"{"year":2026,"month":13}"#).is_err());
    }
}
