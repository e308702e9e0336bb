//! The GM's check outside fights (PM27): `/check GROUP ATTRIBUTE DIFFICULTY [--isp N]` for
//! one's own morph, with the ISP bonus (PM13) and the redo (PM14). No hp or FP change.

use super::check::{roll, CheckSpec, Rolled};
use super::event::{CheckEvent, Event, IspPurpose, Purpose};
use super::sheet::{Attribute, Group, MorphSheet};
use super::state::MorphState;
use super::tables::Tables;
use crate::dice::RollSource;
use crate::game::{Side, Sink};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The least and most difficulty a GM may name (PM27).
pub const DIFFICULTY: (i32, i32) = (1, 200);

/// A failed check awaiting `/redo` or `/keep` (PM14, PM27), kept in the morph's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingCheck {
    /// What the check adds and rerolls by.
    pub spec: CheckSpec,
    /// The difficulty.
    pub difficulty: i32,
    /// The total that stands.
    pub total: i32,
    /// Its attempt.
    pub attempt: u8,
    /// When the offer lapses (the caller's clock, RFC 3339): then it is kept.
    pub until: String,
}

/// Why a GM's check is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GmError {
    /// Unconscious or dead (PM8, PM9, PM27).
    #[error("PM27: {0}")]
    CannotAct(&'static str),
    /// A difficulty outside 1–200.
    #[error("PM27: the difficulty must be {lo}-{hi}, not {given}", lo = DIFFICULTY.0, hi = DIFFICULTY.1, given = .0)]
    Difficulty(i64),
    /// Too many bonus ISPs (PM13).
    #[error("PM13: you have {have} ISPs for a {group} check (its type and General); --isp {asked} is more")]
    NotEnoughIsp {
        /// The group's label.
        group: &'static str,
        /// Usable ISPs.
        have: u16,
        /// Asked.
        asked: u16,
    },
    /// `/redo` or `/keep` with no check offered.
    #[error("PM27: you have no failed check to redo or keep")]
    NothingPending,
    /// `/redo` without 3 ISPs (PM14).
    #[error("PM14: a redo costs {need} ISPs of the check's type or General; you have {have}")]
    CannotPay {
        /// The cost.
        need: u16,
        /// Usable.
        have: u16,
    },
}

/// What a GM's check did: the new state (ISPs spent, a redo offered or not) and its events,
/// the morph named [`Side::Challenger`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GmOutcome {
    /// The state after.
    pub state: MorphState,
    /// The check as rolled.
    pub rolled: Rolled,
    /// Success against the difficulty.
    pub success: bool,
    /// Whether a redo is offered (a failure, with 3 ISPs to pay).
    pub offered: bool,
}

fn event(r: &Rolled, difficulty: i32) -> Event {
    Event::Check(CheckEvent {
        name: Side::Challenger,
        purpose: Purpose::Gm,
        group: r.spec.group,
        attribute: r.spec.attribute,
        attribute_value: r.spec.attribute_value,
        half: r.spec.half(),
        level: r.spec.level,
        ranks: r.spec.ranks,
        master: r.spec.master,
        isp: r.spec.isp,
        threshold: r.threshold,
        dice: r.dice,
        dice_total: r.dice_total,
        modifier: r.spec.modifier(),
        total: r.total,
        difficulty: Some(difficulty),
        opposing: None,
        opposing_total: None,
        success: r.total >= difficulty,
        attempt: r.attempt,
    })
}

fn offer(
    mut state: MorphState,
    rolled: Rolled,
    difficulty: i32,
    tables: &Tables,
    until: &str,
) -> GmOutcome {
    let success = rolled.total >= difficulty;
    let offered = !success && state.isp.usable(rolled.spec.group) >= tables.redo_cost;
    state.check = offered.then(|| PendingCheck {
        spec: rolled.spec,
        difficulty,
        total: rolled.total,
        attempt: rolled.attempt,
        until: until.to_string(),
    });
    GmOutcome {
        state,
        rolled,
        success,
        offered,
    }
}

/// `/check GROUP ATTRIBUTE DIFFICULTY [--isp N]` (PM27) for a morph whose `state` is as of
/// today. A failure with ISPs to pay leaves a [`PendingCheck`] lapsing at `until`.
#[allow(clippy::too_many_arguments)]
pub fn gm_check(
    sheet: &MorphSheet,
    state: &MorphState,
    group: Group,
    attribute: Attribute,
    difficulty: i64,
    isp: u16,
    tables: &Tables,
    until: &str,
    dice: &mut impl RollSource,
    sink: &mut impl Sink<Event>,
) -> Result<GmOutcome, GmError> {
    if state.dead {
        return Err(GmError::CannotAct("a dead morph makes no checks"));
    }
    if state.unconscious() {
        return Err(GmError::CannotAct(
            "an unconscious morph makes no checks until its hp are back at the realm's next day",
        ));
    }
    if !(i64::from(DIFFICULTY.0)..=i64::from(DIFFICULTY.1)).contains(&difficulty) {
        return Err(GmError::Difficulty(difficulty));
    }
    let have = state.isp.usable(group);
    if isp > have {
        return Err(GmError::NotEnoughIsp {
            group: group.label(),
            have,
            asked: isp,
        });
    }
    let mut state = state.clone();
    state.check = None;
    if isp > 0 {
        let taken = state.isp.take(group, isp);
        sink.push(Event::IspSpent {
            name: Side::Challenger,
            purpose: IspPurpose::Bonus,
            amount: isp,
            taken,
            left: state.isp,
        });
    }
    let spec = CheckSpec {
        group,
        attribute,
        attribute_value: sheet.attributes.get(attribute),
        level: sheet.level,
        ranks: sheet.ranks.get(group),
        master: sheet.master.get(group),
        isp,
    };
    let difficulty = difficulty as i32;
    let rolled = roll(spec, tables, 1, dice);
    sink.push(event(&rolled, difficulty));
    Ok(offer(state, rolled, difficulty, tables, until))
}

/// `/redo` of the pending check (PM14): 3 ISPs, the same check again; a new failure is
/// offered again while ISPs last.
pub fn gm_redo(
    state: &MorphState,
    tables: &Tables,
    until: &str,
    dice: &mut impl RollSource,
    sink: &mut impl Sink<Event>,
) -> Result<GmOutcome, GmError> {
    let Some(p) = &state.check else {
        return Err(GmError::NothingPending);
    };
    let have = state.isp.usable(p.spec.group);
    if have < tables.redo_cost {
        return Err(GmError::CannotPay {
            need: tables.redo_cost,
            have,
        });
    }
    let mut next = state.clone();
    next.check = None;
    let taken = next.isp.take(p.spec.group, tables.redo_cost);
    sink.push(Event::IspSpent {
        name: Side::Challenger,
        purpose: IspPurpose::Redo,
        amount: tables.redo_cost,
        taken,
        left: next.isp,
    });
    let rolled = roll(p.spec, tables, p.attempt.saturating_add(1), dice);
    sink.push(event(&rolled, p.difficulty));
    Ok(offer(next, rolled, p.difficulty, tables, until))
}

/// `/keep`: the pending check stands; returns the state without it and the kept total.
pub fn gm_keep(
    state: &MorphState,
    sink: &mut impl Sink<Event>,
) -> Result<(MorphState, i32), GmError> {
    let Some(p) = &state.check else {
        return Err(GmError::NothingPending);
    };
    let total = p.total;
    sink.push(Event::Kept {
        name: Side::Challenger,
        total,
    });
    let mut next = state.clone();
    next.check = None;
    Ok((next, total))
}
