//! A Psi Morphs fight: rounds of one turn each, the challenger first (PM5), attacks and forces
//! with opposed 2d10 checks, redos for ISPs, until a morph is unconscious, dead or yields, or
//! the round limit (PM8, PM9, PM11, PM12).
//!
//! A [`MorphFight`] is a value, started from a [`FightSetup`] and driven only by
//! [`MorphFight::decide_into`] (or [`Fight::decide`]). Each state is named for the decision it
//! awaits ([`Phase`]); every die is rolled in the order of the page's dice contract. Deciding
//! allocates nothing unless a force is maintained: a simulation runs on the stack.

use super::check::{roll, CheckSpec, Rolled};
use super::event::{
    CheckEvent, EndReason, EndedReason, Event, IspPurpose, Modifier, Purpose, SideStart,
    SkipReason, TieRule,
};
use super::sheet::{Attribute, Group, Isp, MorphSheet};
use super::state::MorphState;
use super::tables::{Effect, Force, ForceId, ForceType, Tables, Target};
use crate::dice::RollSource;
use crate::game::{Fight, FightResult, Prompt, Side, Sink};
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// One morph as a fight starts: who it is, its sheet, and its state as of the day (PM28).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The morph's name.
    pub name: String,
    /// The player; `None` for an NPC.
    pub owner: Option<String>,
    /// The sheet.
    pub sheet: MorphSheet,
    /// The state, already read as of the day ([`MorphState::as_of`]).
    pub state: MorphState,
}

/// Everything a fight starts from. Stored with it, it and the decision log replay it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FightSetup {
    /// The challenger and the challenged.
    pub morphs: [Entrant; 2],
    /// The house tables as they were at the start.
    #[serde(default)]
    pub tables: Tables,
}

/// A morph's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A normal attack on the opponent, with bonus ISPs (PM25, PM13).
    Attack {
        /// Bonus ISPs.
        isp: u16,
    },
    /// Use a force (PM18).
    Force {
        /// Which.
        force: ForceId,
        /// Bonus ISPs.
        isp: u16,
    },
    /// Do nothing this turn.
    Pass,
    /// Free, on one's turn: end a force one maintains (PM22).
    Drop {
        /// Which.
        force: ForceId,
    },
    /// Free, on one's turn: break free of a force maintained on one 10+ rounds (PM22).
    #[serde(rename = "breakfree")]
    BreakFree {
        /// Which.
        force: ForceId,
    },
    /// Defend against an attack (PM26).
    Defend {
        /// Combat or Misc Physical.
        group: Group,
        /// Bonus ISPs.
        isp: u16,
    },
    /// Resist a force (PM21).
    Resist {
        /// The force's group or Misc Mental.
        group: Group,
        /// Bonus ISPs.
        isp: u16,
    },
    /// Redo one's check for 3 ISPs (PM14).
    Redo,
    /// Keep the outcome (PM14).
    Keep,
    /// Give up the fight (PM11).
    Yield,
}

impl Decision {
    /// The command word: `attack`, `force`, `defend` ...
    pub fn word(&self) -> &'static str {
        match self {
            Decision::Attack { .. } => "attack",
            Decision::Force { .. } => "force",
            Decision::Pass => "pass",
            Decision::Drop { .. } => "drop",
            Decision::BreakFree { .. } => "breakfree",
            Decision::Defend { .. } => "defend",
            Decision::Resist { .. } => "resist",
            Decision::Redo => "redo",
            Decision::Keep => "keep",
            Decision::Yield => "yield",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())?;
        let isp = match *self {
            Decision::Force { force, isp } => {
                write!(f, " {force}")?;
                isp
            }
            Decision::Drop { force } | Decision::BreakFree { force } => {
                return write!(f, " {force}")
            }
            Decision::Defend { group, isp } | Decision::Resist { group, isp } => {
                write!(f, " {group}")?;
                isp
            }
            Decision::Attack { isp } => isp,
            _ => 0,
        };
        if isp > 0 {
            write!(f, " --isp {isp}")?;
        }
        Ok(())
    }
}

/// Why a decision was refused. A refused decision leaves the fight unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The fight has ended.
    #[error("the fight is over")]
    FightOver,
    /// Another decision is awaited from the other side.
    #[error("it is not your decision: the fight awaits the other morph's {what}")]
    NotYourTurn {
        /// Who is awaited.
        awaited: Side,
        /// What for.
        what: &'static str,
    },
    /// The decision does not answer what is awaited.
    #[error("/{word} is not an answer now: the fight awaits your {what}")]
    NotNow {
        /// The command tried.
        word: &'static str,
        /// What is awaited.
        what: &'static str,
    },
    /// More bonus ISPs than the morph holds of the type and General (PM13).
    #[error("PM13: you have {have} ISPs for a {} check ({} and General); --isp {asked} is more", .group.label(), .group.label())]
    NotEnoughIsp {
        /// The check's group.
        group: Group,
        /// What it holds.
        have: u16,
        /// What was asked.
        asked: u16,
    },
    /// No force of that id in the catalogue.
    #[error("no force '{0}' in the realm's catalogue (/forces lists them)")]
    UnknownForce(ForceId),
    /// Not enough FP (PM18).
    #[error("PM18: {name} costs {need} {kind} FP and you have {have}")]
    NoFp {
        /// The force's name.
        name: String,
        /// Its cost.
        need: u8,
        /// PA or PE.
        kind: &'static str,
        /// What is left.
        have: u8,
    },
    /// The force waits for quiet rounds (PM20).
    #[error("PM20: you used {name} in round {round} and have had {quiet} of {needed} rounds in a row without a force")]
    Cooldown {
        /// The force's name.
        name: String,
        /// When it was last used.
        round: u32,
        /// Quiet rounds so far.
        quiet: u8,
        /// Quiet rounds needed.
        needed: u8,
    },
    /// Past the maintenance limit (PM22).
    #[error("PM22: you maintain {count} {kind} forces, your limit; /drop one first")]
    MaintainLimit {
        /// PA or PE.
        kind: &'static str,
        /// How many.
        count: u8,
    },
    /// The force is already on the target (PM23).
    #[error("PM23: {name} is already maintained on its target")]
    AlreadyOn {
        /// The force's name.
        name: String,
    },
    /// `/drop` of a force one does not maintain.
    #[error("PM22: you maintain no {0}")]
    NotMaintaining(ForceId),
    /// `/breakfree` too early or of nothing (PM22).
    #[error("PM22: {0}")]
    CannotBreakFree(String),
    /// An NPC defends with Combat only (PM26) and resists with the force's group (PM21).
    #[error("{rule}: an NPC uses {allowed} here")]
    NpcGroup {
        /// The ruling.
        rule: &'static str,
        /// The group it may use.
        allowed: &'static str,
    },
    /// A group that does not answer this check.
    #[error("{rule}: {group} is not a choice here; choose {choices}")]
    WrongGroup {
        /// The ruling.
        rule: &'static str,
        /// The group given.
        group: &'static str,
        /// The choices.
        choices: String,
    },
}

/// Pushes the event `make` builds, built only when the sink keeps events: a simulation's
/// [`crate::game::Discard`] builds none (no names copied, no checks moved).
#[inline(always)]
fn emit(sink: &mut impl Sink<Event>, make: impl FnOnce() -> Event) {
    if sink.keeps() {
        sink.push(make());
    }
}

/// What the prompt asks for, by phase.
pub const WHAT_TURN: &str = "turn";
/// When attacked.
pub const WHAT_DEFENSE: &str = "defence";
/// When a force succeeds on one.
pub const WHAT_RESIST: &str = "resistance";
/// When an outcome goes against one.
pub const WHAT_REDO: &str = "redo or keep";

/// One morph inside a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Morph {
    hp: i32,
    max_hp: i32,
    pa: u8,
    pe: u8,
    isp: Isp,
    npc: bool,
    dead: bool,
    /// Forces used and not yet back (PM20), a bit per catalogue entry.
    used: u32,
    /// The last round each force was used.
    used_round: [u32; 32],
    /// Rounds in a row without a force (PM20).
    quiet: u8,
    /// Whether it declared a force this round.
    declared: bool,
}

/// A force maintained on a morph (PM22).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Active {
    force: u8,
    by: Side,
    on: Side,
    since: u32,
}

/// An outcome that may be redone (PM14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contest {
    /// An attack: the attacker's check and the defender's.
    Attack {
        attacker: Side,
        a: Rolled,
        d: Rolled,
    },
    /// A force's check alone, under its difficulty.
    ForceCheck { user: Side, force: u8, c: Rolled },
    /// A force's check and the target's resistance.
    Resist {
        user: Side,
        force: u8,
        u: Rolled,
        r: Rolled,
    },
}

/// Where the fight stands: named for what it awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A morph's turn (step 3).
    Turn(Side),
    /// The defender's choice (step 4).
    Defend { attacker: Side, isp: u16 },
    /// The target's resistance (step 5).
    Resist {
        user: Side,
        force: u8,
        check: Rolled,
    },
    /// The redo or keep of the side an outcome goes against (step 6).
    Redo { side: Side, contest: Contest },
    /// Over.
    Over,
}

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winner; `None` on a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReasonName,
    /// Rounds fought.
    pub rounds: u32,
}

/// [`EndReason`] as the books store it.
pub type EndReasonName = &'static str;

/// One Psi Morphs fight. See the module docs.
#[derive(Clone, Debug)]
pub struct MorphFight {
    setup: FightSetup,
    m: [Morph; 2],
    active: Vec<Active>,
    phase: Phase,
    order: [Side; 2],
    round: u32,
    pvp: bool,
    outcome: Option<(Option<Side>, EndReason)>,
}

impl MorphFight {
    /// Starts a fight: `recovered` for a morph full again today, `fight_started`, round 1 and
    /// the first turn (or its loss to Lightning Quickness, PM10). A morph the challenge should
    /// have refused (unconscious or dead) loses at once.
    pub fn start_into(
        setup: FightSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> MorphFight {
        let _ = dice;
        let morph = |e: &Entrant| Morph {
            hp: e.state.hp.min(i32::from(e.sheet.max_hp)),
            max_hp: i32::from(e.sheet.max_hp),
            pa: e.state.pa_fp,
            pe: e.state.pe_fp,
            isp: e.state.isp,
            npc: e.owner.is_none(),
            dead: e.state.dead,
            used: 0,
            used_round: [0; 32],
            quiet: 0,
            declared: false,
        };
        let m = [morph(&setup.morphs[0]), morph(&setup.morphs[1])];
        // PM5: the player first against an NPC, else the challenger.
        let order = if m[0].npc && !m[1].npc {
            [Side::Challenged, Side::Challenger]
        } else {
            [Side::Challenger, Side::Challenged]
        };
        let mut f = MorphFight {
            pvp: !m[0].npc && !m[1].npc,
            setup,
            m,
            active: Vec::new(),
            phase: Phase::Over,
            order,
            round: 0,
            outcome: None,
        };
        for side in Side::BOTH {
            let e = &f.setup.morphs[side.index()];
            if e.state.recovered {
                emit(sink, || Event::Recovered {
                    name: side,
                    hp: e.state.hp,
                    pa_fp: e.state.pa_fp,
                    pe_fp: e.state.pe_fp,
                    isp: e.state.isp,
                });
            }
        }
        emit(sink, || Event::FightStarted {
            challenger: Side::Challenger,
            challenged: Side::Challenged,
            pvp: f.pvp,
            order,
            quickness: Side::BOTH
                .into_iter()
                .filter(|s| f.m[s.index()].npc && f.sheet(*s).quickness)
                .collect(),
            sides: Side::BOTH.map(|s| {
                let k = &f.m[s.index()];
                SideStart {
                    name: s,
                    owner: f.setup.morphs[s.index()].owner.clone(),
                    npc: k.npc,
                    hp: k.hp,
                    max_hp: k.max_hp,
                    pa_fp: k.pa,
                    pe_fp: k.pe,
                    isp: k.isp,
                }
            }),
        });
        if let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| f.m[s.index()].dead || f.m[s.index()].hp <= 0)
        {
            f.finish(Some(side.other()), EndReason::Unconscious, sink);
            return f;
        }
        f.round = 1;
        emit(sink, || Event::RoundStarted { round: 1 });
        f.begin_turn(f.order[0], sink);
        f
    }

    // ----- getters -----

    /// The setup this fight started from.
    pub fn setup(&self) -> &FightSetup {
        &self.setup
    }

    /// A morph's sheet as it was at the start.
    pub fn sheet(&self, side: Side) -> &MorphSheet {
        &self.setup.morphs[side.index()].sheet
    }

    /// The house tables.
    pub fn tables(&self) -> &Tables {
        &self.setup.tables
    }

    /// The round under way.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The order of turns (PM5).
    pub fn order(&self) -> [Side; 2] {
        self.order
    }

    /// Hit points now.
    pub fn hp(&self, side: Side) -> i32 {
        self.m[side.index()].hp
    }

    /// PA FP and PE FP now.
    pub fn fp(&self, side: Side) -> (u8, u8) {
        let k = &self.m[side.index()];
        (k.pa, k.pe)
    }

    /// ISPs now.
    pub fn isp(&self, side: Side) -> Isp {
        self.m[side.index()].isp
    }

    /// Whether a morph is an NPC.
    pub fn is_npc(&self, side: Side) -> bool {
        self.m[side.index()].npc
    }

    /// The forces maintained: (force id, by, on, since round).
    pub fn maintained(&self) -> impl Iterator<Item = (&Force, Side, Side, u32)> + '_ {
        self.active.iter().map(|a| {
            (
                self.tables().force(usize::from(a.force)),
                a.by,
                a.on,
                a.since,
            )
        })
    }

    /// An attribute as it is now: the sheet's, with the best bonus and the worst penalty of the
    /// forces maintained on the morph, never below 0 (PM23).
    pub fn effective(&self, side: Side, attribute: Attribute) -> u8 {
        let base = i32::from(self.sheet(side).attributes.get(attribute));
        let (mut best, mut worst) = (0i32, 0i32);
        for a in self.active.iter().filter(|a| a.on == side) {
            if let Effect::Modifier {
                attribute: at,
                amount,
            } = self.tables().force(usize::from(a.force)).effect
            {
                if at == attribute {
                    best = best.max(i32::from(amount));
                    worst = worst.min(i32::from(amount));
                }
            }
        }
        (base + best + worst).clamp(0, 255) as u8
    }

    /// The forces of a type a morph may maintain: ⌈(int + will + ranks) / 5⌉ (PM22).
    pub fn limit(&self, side: Side, kind: ForceType) -> u8 {
        let sum = u32::from(self.effective(side, Attribute::Intelligence))
            + u32::from(self.effective(side, Attribute::Willpower))
            + u32::from(self.sheet(side).ranks.get(kind.group()));
        sum.div_ceil(5).min(255) as u8
    }

    fn count_by(&self, side: Side, kind: ForceType) -> u8 {
        self.active
            .iter()
            .filter(|a| a.by == side && self.tables().force(usize::from(a.force)).kind == kind)
            .count() as u8
    }

    /// Who must decide now and what for; `None` once over.
    pub fn awaited(&self) -> Option<(Side, &'static str)> {
        match self.phase {
            Phase::Turn(s) => Some((s, WHAT_TURN)),
            Phase::Defend { attacker, .. } => Some((attacker.other(), WHAT_DEFENSE)),
            Phase::Resist { user, .. } => Some((user.other(), WHAT_RESIST)),
            Phase::Redo { side, .. } => Some((side, WHAT_REDO)),
            Phase::Over => None,
        }
    }

    /// The force a resistance or a redo is about, if any.
    pub fn force_at_stake(&self) -> Option<&Force> {
        let i = match self.phase {
            Phase::Resist { force, .. } => force,
            Phase::Redo {
                contest: Contest::ForceCheck { force, .. } | Contest::Resist { force, .. },
                ..
            } => force,
            _ => return None,
        };
        Some(self.tables().force(usize::from(i)))
    }

    /// The user's total against the difficulty, while a resistance is awaited.
    pub fn resist_against(&self) -> Option<(i32, i32)> {
        match self.phase {
            Phase::Resist { force, check, .. } => Some((
                check.total,
                i32::from(self.tables().force(usize::from(force)).difficulty),
            )),
            _ => None,
        }
    }

    /// While a redo is offered: the offered side's total, and what it is against (the other
    /// side and its total, or the difficulty).
    pub fn redo_offer(&self) -> Option<(i32, Option<Side>, i32)> {
        let Phase::Redo { side, contest } = self.phase else {
            return None;
        };
        Some(match contest {
            Contest::Attack { attacker, a, d } => {
                if side == attacker {
                    (a.total, Some(attacker.other()), d.total)
                } else {
                    (d.total, Some(attacker), a.total)
                }
            }
            Contest::ForceCheck { force, c, .. } => (
                c.total,
                None,
                i32::from(self.tables().force(usize::from(force)).difficulty),
            ),
            Contest::Resist { user, u, r, .. } => {
                if side == user {
                    (u.total, Some(user.other()), r.total)
                } else {
                    (r.total, Some(user), u.total)
                }
            }
        })
    }

    /// What a timeout, an NPC and a simulation decide now (PM15).
    pub fn default_decision(&self) -> Option<(Side, Decision)> {
        Some(match self.phase {
            Phase::Turn(s) => (s, Decision::Attack { isp: 0 }),
            Phase::Defend { attacker, .. } => {
                let d = attacker.other();
                let ranks = &self.sheet(d).ranks;
                let group = if !self.m[d.index()].npc && ranks.physical > ranks.combat {
                    Group::Physical
                } else {
                    Group::Combat
                };
                (d, Decision::Defend { group, isp: 0 })
            }
            Phase::Resist { user, force, .. } => {
                let r = user.other();
                let own = self.tables().force(usize::from(force)).kind.group();
                let group = if !self.m[r.index()].npc
                    && self.resist_spec(r, Group::Mental, 0).score()
                        > self.resist_spec(r, own, 0).score()
                {
                    Group::Mental
                } else {
                    own
                };
                (r, Decision::Resist { group, isp: 0 })
            }
            Phase::Redo { side, .. } => (side, Decision::Keep),
            Phase::Over => return None,
        })
    }

    /// The legal decisions now, with no bonus ISPs (a decision may add them).
    pub fn options(&self) -> Vec<Decision> {
        let Some((side, _)) = self.awaited() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match self.phase {
            Phase::Turn(_) => {
                out.push(Decision::Attack { isp: 0 });
                for (i, f) in self.tables().forces.iter().enumerate() {
                    if self.force_refusal(side, i, 0).is_none() {
                        if let Some(id) = ForceId::new(&f.id) {
                            out.push(Decision::Force { force: id, isp: 0 });
                        }
                    }
                }
                out.push(Decision::Pass);
                for a in &self.active {
                    let id = ForceId::new(&self.tables().force(usize::from(a.force)).id);
                    if let Some(force) = id {
                        if a.by == side {
                            out.push(Decision::Drop { force });
                        } else if a.on == side
                            && self.round >= a.since + self.tables().breakfree_rounds
                        {
                            out.push(Decision::BreakFree { force });
                        }
                    }
                }
            }
            Phase::Defend { .. } => {
                out.push(Decision::Defend {
                    group: Group::Combat,
                    isp: 0,
                });
                if !self.m[side.index()].npc {
                    out.push(Decision::Defend {
                        group: Group::Physical,
                        isp: 0,
                    });
                }
            }
            Phase::Resist { force, .. } => {
                let own = self.tables().force(usize::from(force)).kind.group();
                out.push(Decision::Resist { group: own, isp: 0 });
                if !self.m[side.index()].npc {
                    out.push(Decision::Resist {
                        group: Group::Mental,
                        isp: 0,
                    });
                }
            }
            Phase::Redo { .. } => {
                out.push(Decision::Redo);
                out.push(Decision::Keep);
            }
            Phase::Over => {}
        }
        out.push(Decision::Yield);
        out
    }

    /// Whether the fight has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// How it ended: the winner (`None` on a draw) and why.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome.map(|(winner, reason)| Outcome {
            winner,
            reason: reason.name(),
            rounds: self.round,
        })
    }

    /// What outlasts the fight (PM28): hp, FP, ISPs and death. `day` stays the day of the last
    /// recovery, so what the fight wrote recovers at the next touch on a later day.
    pub fn carry(&self) -> [MorphState; 2] {
        Side::BOTH.map(|s| {
            let k = &self.m[s.index()];
            MorphState {
                hp: k.hp,
                pa_fp: k.pa,
                pe_fp: k.pe,
                isp: k.isp,
                dead: k.dead,
                day: self.setup.morphs[s.index()].state.day.clone(),
                recovered: false,
                check: None,
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
        self.check(side, decision)?;
        self.apply(side, decision, dice, sink);
        Ok(())
    }

    /// Plays on with the default policy for both sides (PM15), at most `max_decisions`
    /// decisions; returns whether the fight ended.
    pub fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        for _ in 0..max_decisions {
            // The default is legal by construction, so it skips the checks.
            let Some((side, decision)) = self.default_decision() else {
                return true;
            };
            self.apply(side, decision, dice, sink);
        }
        self.is_over()
    }

    fn check(&self, side: Side, decision: Decision) -> Result<(), RuleError> {
        let Some((awaited, what)) = self.awaited() else {
            return Err(RuleError::FightOver);
        };
        if side != awaited {
            return Err(RuleError::NotYourTurn { awaited, what });
        }
        let not_now = Err(RuleError::NotNow {
            word: decision.word(),
            what,
        });
        let k = &self.m[side.index()];
        let isp_for = |group: Group, asked: u16| {
            let have = k.isp.usable(group);
            if asked > have {
                Err(RuleError::NotEnoughIsp { group, have, asked })
            } else {
                Ok(())
            }
        };
        match (self.phase, decision) {
            (_, Decision::Yield) => Ok(()),
            (Phase::Turn(_), Decision::Attack { isp }) => isp_for(Group::Combat, isp),
            (Phase::Turn(_), Decision::Pass) => Ok(()),
            (Phase::Turn(_), Decision::Force { force, isp }) => {
                let i = self
                    .tables()
                    .index_of(force)
                    .ok_or(RuleError::UnknownForce(force))?;
                match self.force_refusal(side, i, isp) {
                    Some(e) => Err(e),
                    None => Ok(()),
                }
            }
            (Phase::Turn(_), Decision::Drop { force }) => self
                .find_active(|a, id| a.by == side && id == force)
                .map(drop)
                .ok_or(RuleError::NotMaintaining(force)),
            (Phase::Turn(_), Decision::BreakFree { force }) => {
                let Some(n) = self.find_active(|a, id| a.on == side && a.by != side && id == force)
                else {
                    return Err(RuleError::CannotBreakFree(format!(
                        "no {force} of your opponent is maintained on you"
                    )));
                };
                let from = self.active[n].since + self.tables().breakfree_rounds;
                if self.round < from {
                    return Err(RuleError::CannotBreakFree(format!(
                        "{force} was started on you in round {}; you may break free from round {from}",
                        self.active[n].since
                    )));
                }
                Ok(())
            }
            (Phase::Defend { .. }, Decision::Defend { group, isp }) => {
                if k.npc && group != Group::Combat {
                    return Err(RuleError::NpcGroup {
                        rule: "PM26",
                        allowed: "combat",
                    });
                }
                if !matches!(group, Group::Combat | Group::Physical) {
                    return Err(RuleError::WrongGroup {
                        rule: "PM26",
                        group: group.token(),
                        choices: "combat or physical".into(),
                    });
                }
                isp_for(group, isp)
            }
            (Phase::Resist { force, .. }, Decision::Resist { group, isp }) => {
                let own = self.tables().force(usize::from(force)).kind.group();
                if k.npc && group != own {
                    return Err(RuleError::NpcGroup {
                        rule: "PM21",
                        allowed: own.token(),
                    });
                }
                if group != own && group != Group::Mental {
                    return Err(RuleError::WrongGroup {
                        rule: "PM21",
                        group: group.token(),
                        choices: format!("{own} or mental"),
                    });
                }
                isp_for(group, isp)
            }
            (Phase::Redo { .. }, Decision::Redo | Decision::Keep) => Ok(()),
            _ => not_now,
        }
    }

    fn find_active(&self, f: impl Fn(&Active, ForceId) -> bool) -> Option<usize> {
        self.active.iter().position(|a| {
            ForceId::new(&self.tables().force(usize::from(a.force)).id).is_some_and(|id| f(a, id))
        })
    }

    /// Why `side` may not use force `i` with `isp` bonus ISPs now (PM18, PM20, PM22, PM23).
    fn force_refusal(&self, side: Side, i: usize, isp: u16) -> Option<RuleError> {
        let f = self.tables().force(i);
        let k = &self.m[side.index()];
        let have = match f.kind {
            ForceType::Pa => k.pa,
            ForceType::Pe => k.pe,
        };
        if have < f.fp {
            return Some(RuleError::NoFp {
                name: f.name.to_string(),
                need: f.fp,
                kind: f.kind.label(),
                have,
            });
        }
        if k.used & (1 << i) != 0 {
            return Some(RuleError::Cooldown {
                name: f.name.to_string(),
                round: k.used_round[i],
                quiet: k.quiet,
                needed: self.tables().quiet_rounds,
            });
        }
        if f.maintained() {
            let count = self.count_by(side, f.kind);
            if count >= self.limit(side, f.kind) {
                return Some(RuleError::MaintainLimit {
                    kind: f.kind.label(),
                    count,
                });
            }
            let target = self.target_of(side, f);
            if self
                .active
                .iter()
                .any(|a| usize::from(a.force) == i && a.on == target)
            {
                return Some(RuleError::AlreadyOn {
                    name: f.name.to_string(),
                });
            }
        }
        let group = f.kind.group();
        let usable = k.isp.usable(group);
        if isp > usable {
            return Some(RuleError::NotEnoughIsp {
                group,
                have: usable,
                asked: isp,
            });
        }
        None
    }

    #[inline]
    fn target_of(&self, side: Side, f: &Force) -> Side {
        match f.target {
            Target::User => side,
            Target::Enemy => side.other(),
        }
    }

    // ----- the rules -----

    fn apply(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        match decision {
            Decision::Yield => {
                emit(sink, || Event::Yielded { name: side });
                self.finish(Some(side.other()), EndReason::Yield, sink);
            }
            Decision::Pass => {
                emit(sink, || Event::Passed { name: side });
                self.end_action(side, sink);
            }
            Decision::Attack { isp } => {
                emit(sink, || Event::AttackDeclared {
                    attacker: side,
                    defender: side.other(),
                    isp,
                });
                self.phase = Phase::Defend {
                    attacker: side,
                    isp,
                };
            }
            Decision::Defend { group, isp } => self.defend(side, group, isp, dice, sink),
            Decision::Force { force, isp } => {
                if let Some(i) = self.tables().index_of(force) {
                    self.force(side, i, isp, dice, sink);
                }
            }
            Decision::Resist { group, isp } => self.resist(side, group, isp, dice, sink),
            Decision::Drop { force } => {
                if let Some(n) = self.find_active(|a, id| a.by == side && id == force) {
                    self.end_force(n, EndedReason::Dropped, sink);
                }
            }
            Decision::BreakFree { force } => {
                if let Some(n) =
                    self.find_active(|a, id| a.on == side && a.by != side && id == force)
                {
                    self.end_force(n, EndedReason::BrokeFree, sink);
                }
            }
            Decision::Redo => self.redo(side, dice, sink),
            Decision::Keep => {
                if let Phase::Redo { contest, .. } = self.phase {
                    let total = self.redo_offer().map_or(0, |o| o.0);
                    emit(sink, || Event::Kept { name: side, total });
                    self.resolve(contest, sink);
                }
            }
        }
    }

    fn spec(&self, side: Side, group: Group, attribute: Attribute, isp: u16) -> CheckSpec {
        let sheet = self.sheet(side);
        CheckSpec {
            group,
            attribute,
            attribute_value: self.effective(side, attribute),
            level: sheet.level,
            ranks: sheet.ranks.get(group),
            master: sheet.master.get(group),
            isp,
        }
    }

    /// The higher of the attributes, the first on a tie.
    fn best_of(&self, side: Side, of: &[Attribute]) -> Attribute {
        let mut best = of[0];
        for &a in &of[1..] {
            if self.effective(side, a) > self.effective(side, best) {
                best = a;
            }
        }
        best
    }

    fn force_spec(&self, side: Side, kind: ForceType, isp: u16) -> CheckSpec {
        let attr = self.best_of(side, &[Attribute::Intelligence, Attribute::Willpower]);
        self.spec(side, kind.group(), attr, isp)
    }

    fn resist_spec(&self, side: Side, group: Group, isp: u16) -> CheckSpec {
        let attr = if group == Group::Mental {
            self.best_of(side, &[Attribute::Intelligence, Attribute::Willpower])
        } else {
            self.best_of(
                side,
                &[
                    Attribute::Resilience,
                    Attribute::Intelligence,
                    Attribute::Willpower,
                ],
            )
        };
        self.spec(side, group, attr, isp)
    }

    fn spend_bonus(&mut self, side: Side, group: Group, n: u16, sink: &mut impl Sink<Event>) {
        if n == 0 {
            return;
        }
        self.spend(side, group, n, IspPurpose::Bonus, sink);
    }

    fn spend(
        &mut self,
        side: Side,
        group: Group,
        n: u16,
        purpose: IspPurpose,
        sink: &mut impl Sink<Event>,
    ) {
        let k = &mut self.m[side.index()];
        let taken = k.isp.take(group, n);
        emit(sink, || Event::IspSpent {
            name: side,
            purpose,
            amount: n,
            taken,
            left: k.isp,
        });
    }

    fn check_event(
        &self,
        side: Side,
        purpose: Purpose,
        r: &Rolled,
        difficulty: Option<i32>,
        opposing: Option<(Side, i32)>,
        success: bool,
    ) -> Event {
        Event::Check(CheckEvent {
            name: side,
            purpose,
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
            difficulty,
            opposing: opposing.map(|o| o.0),
            opposing_total: opposing.map(|o| o.1),
            success,
            attempt: r.attempt,
        })
    }

    /// The winner of an opposed check, whether it tied and the ruling (PM6, PM7).
    fn opposed(&self, a: Side, at: i32, b: Side, bt: i32) -> (Option<Side>, bool, Option<TieRule>) {
        use std::cmp::Ordering::*;
        match at.cmp(&bt) {
            Greater => (Some(a), false, None),
            Less => (Some(b), false, None),
            Equal => {
                let (an, bn) = (self.m[a.index()].npc, self.m[b.index()].npc);
                match (an, bn) {
                    (false, true) => (Some(a), true, Some(TieRule::PlayerVsNpc)),
                    (true, false) => (Some(b), true, Some(TieRule::PlayerVsNpc)),
                    (false, false) => (None, true, Some(TieRule::Players)),
                    (true, true) => (None, true, None),
                }
            }
        }
    }

    fn defend(
        &mut self,
        defender: Side,
        group: Group,
        isp: u16,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let Phase::Defend {
            attacker,
            isp: a_isp,
        } = self.phase
        else {
            return;
        };
        emit(sink, || Event::DefenseChosen {
            name: defender,
            group,
            isp,
        });
        let a_spec = self.spec(attacker, Group::Combat, Attribute::Dexterity, a_isp);
        let d_spec = self.spec(defender, group, Attribute::Agility, isp);
        self.spend_bonus(attacker, Group::Combat, a_isp, sink);
        self.spend_bonus(defender, group, isp, sink);
        let a = roll(a_spec, self.tables(), 1, dice);
        let d = roll(d_spec, self.tables(), 1, dice);
        let (winner, ..) = self.opposed(attacker, a.total, defender, d.total);
        emit(sink, || {
            self.check_event(
                attacker,
                Purpose::Attack,
                &a,
                None,
                Some((defender, d.total)),
                winner == Some(attacker),
            )
        });
        emit(sink, || {
            self.check_event(
                defender,
                Purpose::Defense,
                &d,
                None,
                Some((attacker, a.total)),
                winner == Some(defender),
            )
        });
        self.settle(Contest::Attack { attacker, a, d }, sink);
    }

    fn force(
        &mut self,
        user: Side,
        i: usize,
        isp: u16,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let f = self.tables().force(i).clone();
        let target = self.target_of(user, &f);
        let round = self.round;
        let k = &mut self.m[user.index()];
        let fp = match f.kind {
            ForceType::Pa => &mut k.pa,
            ForceType::Pe => &mut k.pe,
        };
        // PM18: the FP go at the declaration, success or not.
        *fp -= f.fp;
        let fp_left = *fp;
        k.used |= 1 << i;
        k.used_round[i] = round;
        k.declared = true;
        emit(sink, || Event::ForceDeclared {
            name: user,
            force: ForceId::new(&f.id).unwrap_or_default(),
            force_name: f.name.to_string(),
            force_type: f.kind,
            target,
            difficulty: i32::from(f.difficulty),
            fp_cost: f.fp,
            fp_left,
            isp,
        });
        let spec = self.force_spec(user, f.kind, isp);
        self.spend_bonus(user, spec.group, isp, sink);
        let c = roll(spec, self.tables(), 1, dice);
        let difficulty = i32::from(f.difficulty);
        emit(sink, || {
            self.check_event(
                user,
                Purpose::Force,
                &c,
                Some(difficulty),
                None,
                c.total >= difficulty,
            )
        });
        self.settle(
            Contest::ForceCheck {
                user,
                force: i as u8,
                c,
            },
            sink,
        );
    }

    fn resist(
        &mut self,
        resister: Side,
        group: Group,
        isp: u16,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let Phase::Resist { user, force, check } = self.phase else {
            return;
        };
        emit(sink, || Event::ResistChosen {
            name: resister,
            group,
            isp,
        });
        let spec = self.resist_spec(resister, group, isp);
        self.spend_bonus(resister, group, isp, sink);
        let r = roll(spec, self.tables(), 1, dice);
        let (winner, ..) = self.opposed(user, check.total, resister, r.total);
        emit(sink, || {
            self.check_event(
                resister,
                Purpose::Resist,
                &r,
                None,
                Some((user, check.total)),
                winner == Some(resister),
            )
        });
        self.settle(
            Contest::Resist {
                user,
                force,
                u: check,
                r,
            },
            sink,
        );
    }

    fn difficulty(&self, force: u8) -> i32 {
        i32::from(self.tables().force(usize::from(force)).difficulty)
    }

    /// After a check: the opposed outcome, then the redo offer to the side it goes against
    /// if it can pay (PM14), else the outcome stands.
    #[inline(always)]
    fn settle(&mut self, contest: Contest, sink: &mut impl Sink<Event>) {
        let against = match contest {
            Contest::Attack { attacker, a, d } => {
                let defender = attacker.other();
                let (winner, tie, tie_rule) = self.opposed(attacker, a.total, defender, d.total);
                let against = if winner == Some(attacker) {
                    defender
                } else {
                    attacker
                };
                emit(sink, || Event::Opposed {
                    purpose: Purpose::Attack,
                    a: attacker,
                    a_total: a.total,
                    b: defender,
                    b_total: d.total,
                    winner,
                    tie,
                    tie_rule,
                    against,
                    difficulty: None,
                });
                against
            }
            Contest::ForceCheck { user, force, c } => {
                if c.total >= self.difficulty(force) {
                    self.resolve(contest, sink);
                    return;
                }
                user
            }
            Contest::Resist { user, force, u, r } => {
                let resister = user.other();
                let difficulty = self.difficulty(force);
                let (winner, tie, tie_rule) = self.opposed(user, u.total, resister, r.total);
                // PM21: it works when the user meets the difficulty and the resister does not win.
                let works = u.total >= difficulty && winner != Some(resister);
                let against = if works { resister } else { user };
                emit(sink, || Event::Opposed {
                    purpose: Purpose::Resist,
                    a: user,
                    a_total: u.total,
                    b: resister,
                    b_total: r.total,
                    winner,
                    tie,
                    tie_rule,
                    against,
                    difficulty: Some(difficulty),
                });
                against
            }
        };
        let group = match contest {
            Contest::Attack { attacker, a, d } => {
                if against == attacker {
                    a.spec.group
                } else {
                    d.spec.group
                }
            }
            Contest::ForceCheck { c, .. } => c.spec.group,
            Contest::Resist { user, u, r, .. } => {
                if against == user {
                    u.spec.group
                } else {
                    r.spec.group
                }
            }
        };
        if self.m[against.index()].isp.usable(group) >= self.tables().redo_cost {
            self.phase = Phase::Redo {
                side: against,
                contest,
            };
        } else {
            self.resolve(contest, sink);
        }
    }

    fn redo(&mut self, side: Side, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let Phase::Redo { contest, .. } = self.phase else {
            return;
        };
        let old = match contest {
            Contest::Attack { attacker, a, d } => {
                if side == attacker {
                    a
                } else {
                    d
                }
            }
            Contest::ForceCheck { c, .. } => c,
            Contest::Resist { user, u, r, .. } => {
                if side == user {
                    u
                } else {
                    r
                }
            }
        };
        let cost = self.tables().redo_cost;
        self.spend(side, old.spec.group, cost, IspPurpose::Redo, sink);
        // PM14: the same check again, same modifiers and T; bonus ISPs are not paid again.
        let new = roll(old.spec, self.tables(), old.attempt.saturating_add(1), dice);
        let contest = match contest {
            Contest::Attack { attacker, a, d } => {
                let (a, d) = if side == attacker { (new, d) } else { (a, new) };
                let (winner, ..) = self.opposed(attacker, a.total, attacker.other(), d.total);
                let (purpose, other) = if side == attacker {
                    (Purpose::Attack, d.total)
                } else {
                    (Purpose::Defense, a.total)
                };
                emit(sink, || {
                    self.check_event(
                        side,
                        purpose,
                        &new,
                        None,
                        Some((side.other(), other)),
                        winner == Some(side),
                    )
                });
                Contest::Attack { attacker, a, d }
            }
            Contest::ForceCheck { user, force, .. } => {
                let difficulty = self.difficulty(force);
                emit(sink, || {
                    self.check_event(
                        user,
                        Purpose::Force,
                        &new,
                        Some(difficulty),
                        None,
                        new.total >= difficulty,
                    )
                });
                Contest::ForceCheck {
                    user,
                    force,
                    c: new,
                }
            }
            Contest::Resist { user, force, u, r } => {
                let (u, r) = if side == user { (new, r) } else { (u, new) };
                let difficulty = self.difficulty(force);
                let (winner, ..) = self.opposed(user, u.total, user.other(), r.total);
                let works = u.total >= difficulty && winner != Some(user.other());
                if side == user {
                    emit(sink, || {
                        self.check_event(
                            user,
                            Purpose::Force,
                            &new,
                            Some(difficulty),
                            Some((user.other(), r.total)),
                            works,
                        )
                    });
                } else {
                    emit(sink, || {
                        self.check_event(
                            side,
                            Purpose::Resist,
                            &new,
                            None,
                            Some((user, u.total)),
                            winner == Some(side),
                        )
                    });
                }
                Contest::Resist { user, force, u, r }
            }
        };
        self.settle(contest, sink);
    }

    /// The outcome stands: damage, a force's effect, or nothing; then the turn ends.
    #[inline(always)]
    fn resolve(&mut self, contest: Contest, sink: &mut impl Sink<Event>) {
        match contest {
            Contest::Attack { attacker, a, d } => {
                let defender = attacker.other();
                let (winner, ..) = self.opposed(attacker, a.total, defender, d.total);
                if winner == Some(attacker) {
                    // PM25: effective strength + 5, doubled at twice the defender's total.
                    let strength = self.effective(attacker, Attribute::Strength);
                    let critical = a.total >= 2 * d.total;
                    let damage = (i32::from(strength) + 5) * if critical { 2 } else { 1 };
                    let (hp_before, hp_after) = self.damage(defender, damage);
                    emit(sink, || Event::Hit {
                        attacker,
                        defender,
                        attacker_total: a.total,
                        defender_total: d.total,
                        strength,
                        critical,
                        damage,
                        hp_before,
                        hp_after,
                        max_hp: self.m[defender.index()].max_hp,
                    });
                    if self.knocked_out(defender, sink) {
                        return;
                    }
                } else {
                    emit(sink, || Event::Miss {
                        attacker,
                        defender,
                        attacker_total: a.total,
                        defender_total: d.total,
                    });
                }
                self.end_action(attacker, sink);
            }
            Contest::ForceCheck { user, force, c } => {
                let f = self.tables().force(usize::from(force)).clone();
                let difficulty = i32::from(f.difficulty);
                if c.total < difficulty {
                    emit(sink, || Event::ForceFailed {
                        name: user,
                        force: ForceId::new(&f.id).unwrap_or_default(),
                        force_name: f.name.to_string(),
                        total: c.total,
                        difficulty,
                    });
                    self.end_action(user, sink);
                } else if f.target == Target::Enemy {
                    self.phase = Phase::Resist {
                        user,
                        force,
                        check: c,
                    };
                } else if !self.effect(user, force, sink) {
                    self.end_action(user, sink);
                }
            }
            Contest::Resist { user, force, u, r } => {
                let f = self.tables().force(usize::from(force)).clone();
                let difficulty = i32::from(f.difficulty);
                let (winner, ..) = self.opposed(user, u.total, user.other(), r.total);
                let id = ForceId::new(&f.id).unwrap_or_default();
                if u.total < difficulty {
                    emit(sink, || Event::ForceFailed {
                        name: user,
                        force: id,
                        force_name: f.name.to_string(),
                        total: u.total,
                        difficulty,
                    });
                } else if winner == Some(user.other()) {
                    emit(sink, || Event::ForceResisted {
                        name: user,
                        force: id,
                        force_name: f.name.to_string(),
                        target: user.other(),
                    });
                } else if self.effect(user, force, sink) {
                    return;
                }
                self.end_action(user, sink);
            }
        }
    }

    /// Applies hp damage: between players hp stops at −max (PM9).
    fn damage(&mut self, side: Side, damage: i32) -> (i32, i32) {
        let pvp = self.pvp;
        let k = &mut self.m[side.index()];
        let before = k.hp;
        k.hp -= damage;
        if pvp {
            k.hp = k.hp.max(-k.max_hp);
        }
        (before, k.hp)
    }

    /// A force's effect on its target; returns whether the fight ended.
    fn effect(&mut self, user: Side, force: u8, sink: &mut impl Sink<Event>) -> bool {
        let f = self.tables().force(usize::from(force)).clone();
        let target = self.target_of(user, &f);
        let id = ForceId::new(&f.id).unwrap_or_default();
        match f.effect {
            Effect::Damage(n) => {
                let (hp_before, hp_after) = self.damage(target, i32::from(n));
                emit(sink, || Event::ForceDamage {
                    name: user,
                    force: id,
                    force_name: f.name.to_string(),
                    target,
                    damage: i32::from(n),
                    max_hp: self.m[target.index()].max_hp,
                    hp_before,
                    hp_after,
                });
                self.knocked_out(target, sink)
            }
            Effect::Heal(n) => {
                let k = &mut self.m[target.index()];
                let hp_before = k.hp;
                k.hp = (k.hp + i32::from(n)).min(k.max_hp).max(k.hp);
                emit(sink, || Event::Healed {
                    name: user,
                    force: id,
                    force_name: f.name.to_string(),
                    target,
                    amount: k.hp - hp_before,
                    hp_before,
                    hp_after: k.hp,
                });
                false
            }
            Effect::Modifier { attribute, amount } => {
                let same_type = self
                    .active
                    .iter()
                    .filter(|a| a.on == target)
                    .filter_map(|a| {
                        let g = self.tables().force(usize::from(a.force));
                        match g.effect {
                            Effect::Modifier {
                                attribute: at,
                                amount: am,
                            } if at == attribute && (am > 0) == (amount > 0) => ForceId::new(&g.id),
                            _ => None,
                        }
                    })
                    .collect();
                self.active.push(Active {
                    force,
                    by: user,
                    on: target,
                    since: self.round,
                });
                emit(sink, || Event::Maintained {
                    name: user,
                    force: id,
                    force_name: f.name.to_string(),
                    target,
                    modifier: Modifier { attribute, amount },
                    since_round: self.round,
                    maintained: self.count_by(user, f.kind),
                    limit: self.limit(user, f.kind),
                    same_type,
                    attribute,
                    effective: self.effective(target, attribute),
                });
                false
            }
        }
    }

    /// A morph at 0 hp or less: unconscious, or dead below −max against an NPC (PM8, PM9);
    /// its forces end first (PM24), then the fight. Returns whether it ended.
    fn knocked_out(&mut self, side: Side, sink: &mut impl Sink<Event>) -> bool {
        let k = self.m[side.index()];
        if k.hp > 0 {
            return false;
        }
        let died = !self.pvp && k.hp < -k.max_hp;
        // PM24: its maintained forces end first (`force_ended`, then `unconscious`).
        while let Some(n) = self.active.iter().position(|a| a.by == side) {
            self.end_force(n, EndedReason::Unconscious, sink);
        }
        if died {
            self.m[side.index()].dead = true;
            emit(sink, || Event::Died {
                name: side,
                hp: k.hp,
                max_hp: k.max_hp,
            });
        } else {
            emit(sink, || Event::Unconscious {
                name: side,
                hp: k.hp,
                max_hp: k.max_hp,
            });
        }
        let reason = if died {
            EndReason::Died
        } else {
            EndReason::Unconscious
        };
        self.finish(Some(side.other()), reason, sink);
        true
    }

    fn end_force(&mut self, n: usize, reason: EndedReason, sink: &mut impl Sink<Event>) {
        let a = self.active.remove(n);
        let f = self.tables().force(usize::from(a.force));
        let attribute = match f.effect {
            Effect::Modifier { attribute, .. } => attribute,
            _ => Attribute::Strength,
        };
        emit(sink, || Event::ForceEnded {
            force: ForceId::new(&f.id).unwrap_or_default(),
            force_name: f.name.to_string(),
            by: a.by,
            on: a.on,
            reason,
            attribute,
            effective: self.effective(a.on, attribute),
        });
    }

    fn begin_turn(&mut self, side: Side, sink: &mut impl Sink<Event>) {
        let other = side.other();
        let (me, them) = (&self.m[side.index()], &self.m[other.index()]);
        // PM10: an enemy's Lightning Quickness takes a player's first round, except with Reflexes.
        if self.round == 1
            && !me.npc
            && !self.sheet(side).reflexes
            && them.npc
            && self.sheet(other).quickness
        {
            emit(sink, || Event::TurnSkipped {
                name: side,
                round: 1,
                reason: SkipReason::LightningQuickness,
            });
            self.end_action(side, sink);
            return;
        }
        emit(sink, || Event::Turn {
            name: side,
            round: self.round,
        });
        self.phase = Phase::Turn(side);
    }

    /// After `actor`'s action: the other's turn, or the end of the round (step 7).
    fn end_action(&mut self, actor: Side, sink: &mut impl Sink<Event>) {
        if actor == self.order[0] {
            self.begin_turn(self.order[1], sink);
            return;
        }
        // PM20: a round without a declared force counts; the third in a row brings all back.
        let needed = self.tables().quiet_rounds;
        for side in self.order {
            let k = &mut self.m[side.index()];
            if k.declared {
                k.quiet = 0;
            } else {
                k.quiet = k.quiet.saturating_add(1);
            }
            k.declared = false;
            if k.quiet >= needed && k.used != 0 {
                let used = k.used;
                k.used = 0;
                let forces = self
                    .tables()
                    .forces
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| used & (1 << i) != 0)
                    .filter_map(|(_, f)| ForceId::new(&f.id))
                    .collect();
                emit(sink, || Event::ForcesAvailable {
                    name: side,
                    round: self.round,
                    forces,
                });
            }
        }
        // PM12: after the last round, a draw.
        if self.round >= self.tables().round_limit {
            self.finish(None, EndReason::RoundLimit, sink);
            return;
        }
        self.round += 1;
        emit(sink, || Event::RoundStarted { round: self.round });
        self.begin_turn(self.order[0], sink);
    }

    fn finish(&mut self, winner: Option<Side>, reason: EndReason, sink: &mut impl Sink<Event>) {
        while !self.active.is_empty() {
            self.end_force(0, EndedReason::FightOver, sink);
        }
        self.outcome = Some((winner, reason));
        self.phase = Phase::Over;
        emit(sink, || Event::FightEnded {
            winner,
            loser: winner.map(Side::other),
            reason,
            draw: winner.is_none(),
            rounds: self.round,
        });
    }
}

impl CheckSpec {
    /// Ranks + half the attribute: what the default resistance compares (PM15).
    fn score(&self) -> i32 {
        i32::from(self.ranks) + self.half()
    }
}

impl Fight for MorphFight {
    type Setup = FightSetup;
    type Decision = Decision;
    type Event = Event;
    type Error = RuleError;

    fn start(setup: FightSetup, dice: &mut impl RollSource) -> (MorphFight, Vec<Event>) {
        let mut events = Vec::new();
        let f = MorphFight::start_into(setup, dice, &mut events);
        (f, events)
    }

    fn setup(&self) -> &FightSetup {
        MorphFight::setup(self)
    }

    fn start_into(
        setup: FightSetup,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> MorphFight {
        MorphFight::start_into(setup, dice, sink)
    }

    fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        MorphFight::play_out(self, dice, sink, max_decisions)
    }

    fn pending(&self) -> Vec<Prompt<Decision>> {
        match (self.awaited(), self.default_decision()) {
            (Some((side, what)), Some((_, default))) => vec![Prompt {
                side,
                what,
                options: self.options(),
                default,
            }],
            _ => Vec::new(),
        }
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
        self.outcome.map(|(winner, reason)| FightResult {
            winner,
            reason: reason.name(),
        })
    }

    fn is_declaration(decision: &Decision) -> bool {
        matches!(decision, Decision::Drop { .. } | Decision::BreakFree { .. })
    }
}
