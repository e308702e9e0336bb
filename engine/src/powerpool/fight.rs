//! The fight: psionic combat between two sides of one to three creatures (PC33), a state
//! machine on the [`crate::game::Fight`] contract.
//!
//! Each creature is a seat: its place in the listing order (the challenger, its allies as
//! named, the foes as named). A decision names its seat ([`Decision::seat`]), or [`ANY`] for
//! the one awaited creature of its side. The fight waits in one [`Phase`]: a creature's turn, a
//! possessor's order for its puppet, the defense of an exchange (every target and every ally
//! that may join, at once), or the drawn allies' dice.

use super::decision::{Act, Decision, RuleError, ANY};
use super::event::*;
use super::modes::{step_up, AttackMode, Attacks, DefenseMode, Defenses, Kind, Levels};
use super::sheet::{Rules, Sheet, State};
use crate::dice::RollSource;
use crate::game::{Discard, Fight, FightResult, Prompt, Side, Sink};
use serde::{Deserialize, Serialize};
use std::ops::Deref;
use std::sync::Arc;

/// A creature as it enters a fight: its sheet and its state on the day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The sheet.
    pub sheet: Sheet,
    /// HP, dice lost, spells spent.
    pub state: State,
}

/// The creatures of a setup in listing order, shared: a simulation clones its setup for
/// every fight, and this makes that clone a count, not a copy. Serialized as a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Creatures(Arc<Vec<Entrant>>);

impl Deref for Creatures {
    type Target = Vec<Entrant>;
    fn deref(&self) -> &Vec<Entrant> {
        &self.0
    }
}

impl From<Vec<Entrant>> for Creatures {
    fn from(v: Vec<Entrant>) -> Creatures {
        Creatures(Arc::new(v))
    }
}

impl Serialize for Creatures {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Creatures {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Entrant>::deserialize(d).map(Creatures::from)
    }
}

/// What a fight starts from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Every creature in listing order: the challenger, its allies, the foes.
    pub creatures: Creatures,
    /// How many of them are on the challenger's side (1 to 3).
    pub challengers: u8,
    /// The realm's data (the round limit).
    pub rules: Rules,
}

impl Setup {
    /// A one-against-one fight.
    pub fn duel(a: Entrant, b: Entrant, rules: Rules) -> Setup {
        Setup {
            creatures: vec![a, b].into(),
            challengers: 1,
            rules,
        }
    }

    /// The seat's side.
    pub fn side_of(&self, seat: Seat) -> Side {
        if seat < self.challengers {
            Side::Challenger
        } else {
            Side::Challenged
        }
    }

    /// The creature's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.creatures
            .get(seat as usize)
            .map_or("?", |e| e.sheet.name.as_str())
    }
}

/// A creature in the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mind {
    side: u8,
    kind: Kind,
    die: u8,
    size: u8,
    lost: u8,
    dedicated: u8,
    hp: i32,
    save: u8,
    attacks: Attacks,
    defenses: Defenses,
    spells: Levels,
    spent: Levels,
    yielded: bool,
    stunned: bool,
    swarm_dazed: bool,
    dazed: bool,
    controlled: Option<u16>,
    fears: u8,
}

impl Mind {
    #[inline]
    fn pool(&self) -> u8 {
        if self.controlled.is_some() {
            0
        } else {
            self.size.saturating_sub(self.lost + self.dedicated)
        }
    }
    /// Free: not yielded, not controlled, HP above 0 (PC31).
    #[inline]
    fn free(&self) -> bool {
        !self.yielded && self.controlled.is_none() && self.hp > 0
    }
    /// Stunned, dazed or unconscious: defends with Labyrinth only (PC12).
    #[inline]
    fn unable(&self) -> bool {
        self.stunned || self.swarm_dazed || self.dazed || self.hp <= 0
    }
    #[inline]
    fn fears(&self, seat: Seat) -> bool {
        self.fears & (1 << seat) != 0
    }
}

/// A control: a controller over one creature, or a Wave's group (PC22, PC26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Control {
    id: u16,
    controller: Seat,
    members: Seats,
    mode: AttackMode,
    /// Dice dedicated to it; 0 while it is kept by actions.
    dice: u8,
    /// Due on this turn of its controller (PC22).
    due: bool,
    /// Kept on this turn.
    kept: bool,
}

/// A defender in an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Member {
    seat: Seat,
    role: Role,
    /// Not stunned, dazed or unconscious (else Labyrinth only).
    able: bool,
    /// Its answer is in (or it is defenceless).
    decided: bool,
    /// An ally that stayed out, or a creature that yielded.
    out: bool,
    /// Defenceless: no dice, total 0 (PC12).
    defenceless: bool,
    mode: Option<DefenseMode>,
    dice: u8,
    spells: Levels,
}

/// An attack awaiting its defense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Exchange {
    attacker: Seat,
    mode: AttackMode,
    dice: u8,
    die: u8,
    fear: bool,
    members: [Option<Member>; 6],
}

impl Exchange {
    fn members(&self) -> impl Iterator<Item = &Member> {
        self.members.iter().flatten().filter(|m| !m.out)
    }
    fn member_mut(&mut self, seat: Seat) -> Option<&mut Member> {
        self.members
            .iter_mut()
            .flatten()
            .find(|m| m.seat == seat && !m.out)
    }
    fn has(&self, seat: Seat) -> bool {
        self.members().any(|m| m.seat == seat)
    }
    fn push(&mut self, m: Member) {
        if let Some(slot) = self.members.iter_mut().find(|s| s.is_none()) {
            *slot = Some(m);
        }
    }
}

/// What the fight waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A creature's turn (PC8).
    Turn(Seat),
    /// A possessor's order on its puppet's turn (PC25).
    Puppet {
        /// The possessed.
        puppet: Seat,
        /// The possessor.
        by: Seat,
    },
    /// The targets' and allies' defense (PC11, PC28).
    Defense,
    /// The drawn allies' dice (PC28).
    Drawn,
    /// Over.
    Over,
}

/// How a fight ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Win or draw.
    pub result: FightOutcome,
    /// The winning side; `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
    /// Rounds fought.
    pub rounds: u8,
}

/// A creature's record from the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Its side won.
    Win,
    /// Its side lost, or it yielded.
    Loss,
    /// A draw.
    Draw,
}

/// A psionic combat.
#[derive(Clone, Debug)]
pub struct Combat {
    setup: Setup,
    minds: Vec<Mind>,
    controls: Vec<Control>,
    next_control: u16,
    order: Seats,
    /// Index into `order` of the turn under way.
    turn: usize,
    round: u8,
    could_attack: bool,
    attacked: bool,
    phase: Phase,
    exchange: Option<Exchange>,
    outcome: Option<Outcome>,
}

/// The most rounds whatever the realm says, so a fight always ends.
const MAX_ROUNDS: u8 = 99;

impl Combat {
    /// Starts the fight: initiative and the first turns (PC7), events into `sink`.
    pub fn begin(setup: Setup, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) -> Combat {
        let minds = setup
            .creatures
            .iter()
            .enumerate()
            .map(|(i, e)| Mind {
                side: setup.side_of(i as Seat) as u8,
                kind: e.sheet.kind,
                die: e.sheet.die,
                size: e.sheet.pool(),
                lost: e.state.dice_lost.min(e.sheet.pool()),
                dedicated: 0,
                hp: e.state.hp,
                save: e.sheet.save,
                attacks: e.sheet.attacks,
                defenses: e.sheet.defenses,
                spells: e.state.spells_left(&e.sheet),
                spent: Levels::default(),
                yielded: false,
                stunned: false,
                swarm_dazed: false,
                dazed: false,
                controlled: None,
                fears: 0,
            })
            .collect::<Vec<_>>();
        let n = minds.len() as Seat;
        let c = setup.challengers.min(n);
        let mut fight = Combat {
            setup,
            minds,
            controls: Vec::new(),
            next_control: 1,
            order: Seats::EMPTY,
            turn: 0,
            round: 1,
            could_attack: false,
            attacked: false,
            phase: Phase::Over,
            exchange: None,
            outcome: None,
        };
        sink.push(Event::FightStarted {
            sides: [(0..c).collect(), (c..n).collect()],
        });
        let all: Seats = (0..n).collect();
        fight.order = initiative(all, 1, dice, sink);
        sink.push(Event::TurnOrder { order: fight.order });
        sink.push(Event::RoundStarted { round: 1 });
        fight.turn = usize::MAX;
        fight.run(dice, sink);
        fight
    }

    /// The setup.
    pub fn started_from(&self) -> &Setup {
        &self.setup
    }

    /// What the fight waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The round.
    pub fn round(&self) -> u8 {
        self.round
    }

    /// How it ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The turn order.
    pub fn order(&self) -> &[Seat] {
        self.order.as_slice()
    }

    /// How many creatures.
    pub fn seats(&self) -> Seat {
        self.minds.len() as Seat
    }

    /// The seat's side.
    pub fn side_of(&self, seat: Seat) -> Side {
        self.setup.side_of(seat)
    }

    /// The creature's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.setup.name(seat)
    }

    /// A seat by creature name, any case.
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        let name = name.trim();
        self.setup
            .creatures
            .iter()
            .position(|e| e.sheet.name.eq_ignore_ascii_case(name))
            .map(|i| i as Seat)
    }

    /// The current pool (PC2).
    pub fn pool(&self, seat: Seat) -> u8 {
        self.minds[seat as usize].pool()
    }

    /// Dice lost until rest.
    pub fn lost(&self, seat: Seat) -> u8 {
        self.minds[seat as usize].lost
    }

    /// HP now.
    pub fn hp(&self, seat: Seat) -> i32 {
        self.minds[seat as usize].hp
    }

    /// What afflicts the creature now, as words: `stunned`, `controlled by Ash`...
    pub fn conditions(&self, seat: Seat) -> Vec<String> {
        let m = &self.minds[seat as usize];
        let mut out = Vec::new();
        if m.yielded {
            out.push("yielded".to_string());
        }
        if let Some(c) = m.controlled.and_then(|id| self.control(id)) {
            let what = if c.mode == AttackMode::Invasion {
                "possessed"
            } else {
                "controlled"
            };
            out.push(format!("{what} by {}", self.name(c.controller)));
        }
        if m.hp <= 0 {
            out.push("unconscious".into());
        }
        if m.stunned {
            out.push("stunned".into());
        }
        if m.dazed || m.swarm_dazed {
            out.push("dazed".into());
        }
        for s in 0..self.seats() {
            if m.fears(s) {
                out.push(format!("frightened of {}", self.name(s)));
            }
        }
        out
    }

    /// The creatures `seat` controls, one list a control.
    pub fn controls_of(&self, seat: Seat) -> Vec<Vec<Seat>> {
        self.controls
            .iter()
            .filter(|c| c.controller == seat)
            .map(|c| c.members.as_slice().to_vec())
            .collect()
    }

    /// The state each creature carries out of the finished fight (what persists: HP, dice
    /// lost, spells spent), in listing order.
    pub fn carry(&self) -> Vec<State> {
        self.setup
            .creatures
            .iter()
            .zip(&self.minds)
            .map(|(e, m)| State {
                hp: m.hp,
                dice_lost: m.lost,
                spells_spent: e.state.spells_spent.plus(&m.spent),
                rested_on: e.state.rested_on.clone(),
            })
            .collect()
    }

    /// The creature's standing once the fight is over: a yielded creature lost.
    pub fn standing(&self, seat: Seat) -> Option<Standing> {
        let o = self.outcome?;
        if self.minds[seat as usize].yielded {
            return Some(Standing::Loss);
        }
        Some(match o.winner {
            None => Standing::Draw,
            Some(w) if w == self.side_of(seat) => Standing::Win,
            Some(_) => Standing::Loss,
        })
    }

    fn control(&self, id: u16) -> Option<&Control> {
        self.controls.iter().find(|c| c.id == id)
    }

    /// Whose decisions are awaited now.
    pub fn awaited(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Turn(s) => vec![s],
            Phase::Puppet { by, .. } => vec![by],
            Phase::Defense | Phase::Drawn => self
                .exchange
                .iter()
                .flat_map(|x| x.members())
                .filter(|m| !m.decided && self.asked_now(m))
                .map(|m| m.seat)
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// The first awaited seat, without building the list (the policy's path).
    fn first_awaited(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn(s) => Some(s),
            Phase::Puppet { by, .. } => Some(by),
            Phase::Defense | Phase::Drawn => self
                .exchange
                .as_ref()?
                .members()
                .find(|m| !m.decided && self.asked_now(m))
                .map(|m| m.seat),
            Phase::Over => None,
        }
    }

    fn asked_now(&self, m: &Member) -> bool {
        (self.phase == Phase::Drawn) == (m.role == Role::Drawn)
    }

    // ----- the turn loop -----

    /// Begins the next turns until one needs a decision or the fight ends.
    fn run(&mut self, _dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        loop {
            if self.outcome.is_some() {
                self.phase = Phase::Over;
                return;
            }
            self.turn = self.turn.wrapping_add(1);
            if self.turn >= self.order.len() {
                if self.turn != 0 && self.round_end(sink) {
                    return;
                }
                self.turn = 0;
            }
            let seat = self.order.as_slice()[self.turn];
            if self.begin_turn(seat, sink) {
                return;
            }
        }
    }

    /// The round's end: dazes of attackers lift (PC10); a draw (PC31); else the next round.
    /// Returns whether the fight ended.
    fn round_end(&mut self, sink: &mut impl Sink<Event>) -> bool {
        for m in &mut self.minds {
            m.dazed = false;
        }
        let reason = if self.could_attack && !self.attacked {
            Some(EndReason::NoAttack)
        } else if self.round >= self.setup.rules.round_limit.min(MAX_ROUNDS) {
            Some(EndReason::RoundLimit)
        } else {
            None
        };
        if let Some(reason) = reason {
            self.finish(None, reason, sink);
            return true;
        }
        self.round += 1;
        self.could_attack = false;
        self.attacked = false;
        sink.push(Event::RoundStarted { round: self.round });
        false
    }

    /// A creature's turn begins (step 3). Returns whether it waits for a decision.
    fn begin_turn(&mut self, seat: Seat, sink: &mut impl Sink<Event>) -> bool {
        let i = seat as usize;
        let m = self.minds[i];
        if m.yielded {
            return false;
        }
        for c in self.controls.iter_mut().filter(|c| c.controller == seat) {
            c.due = c.dice == 0;
            c.kept = false;
        }
        let round = self.round;
        let skipped = if let Some(id) = m.controlled {
            let c = self.control(id).copied();
            if let Some(c) = c.filter(|c| c.mode == AttackMode::Invasion) {
                let p = self.minds[c.controller as usize];
                // PC25, PC10: a possessor works the body only if it can act.
                if p.free() && !p.unable() {
                    sink.push(Event::Turn {
                        round,
                        creature: seat,
                        skipped: None,
                        by: Some(c.controller),
                    });
                    self.phase = Phase::Puppet {
                        puppet: seat,
                        by: c.controller,
                    };
                    return true;
                }
            }
            Some(Skipped::Controlled)
        } else if m.hp <= 0 {
            Some(Skipped::Unconscious)
        } else if m.stunned {
            Some(Skipped::Stunned)
        } else if m.swarm_dazed {
            Some(Skipped::Dazed)
        } else {
            None
        };
        if let Some(why) = skipped {
            // PC13: the lost turn ends the stun or daze it was lost to.
            let m = &mut self.minds[i];
            m.stunned = false;
            m.swarm_dazed = false;
            sink.push(Event::Turn {
                round,
                creature: seat,
                skipped: Some(why),
                by: None,
            });
            self.end_turn(seat, sink);
            return false;
        }
        sink.push(Event::Turn {
            round,
            creature: seat,
            skipped: None,
            by: None,
        });
        let can_attack = self.can_attack(seat);
        if can_attack {
            self.could_attack = true;
        }
        let any_control = self.controls.iter().any(|c| c.controller == seat);
        if !can_attack && !any_control {
            // PC8: nothing to decide, the turn passes itself.
            sink.push(Event::Pass {
                creature: seat,
                auto: true,
            });
            self.end_turn(seat, sink);
            return false;
        }
        self.phase = Phase::Turn(seat);
        true
    }

    /// The end of `seat`'s turn: its due controls not kept lapse (PC22).
    fn end_turn(&mut self, seat: Seat, sink: &mut impl Sink<Event>) {
        while let Some(k) = self
            .controls
            .iter()
            .position(|c| c.controller == seat && c.due && !c.kept)
        {
            self.end_control(k, EndWhy::Lapsed, sink);
        }
        for c in self.controls.iter_mut().filter(|c| c.controller == seat) {
            c.due = false;
            c.kept = false;
        }
    }

    /// Ends the control at index `k`: its dice return, or for a controller falling under
    /// control are expended (PC21).
    fn end_control(&mut self, k: usize, why: EndWhy, sink: &mut impl Sink<Event>) {
        let c = self.controls.remove(k);
        let ctl = &mut self.minds[c.controller as usize];
        ctl.dedicated = ctl.dedicated.saturating_sub(c.dice);
        let (returned, expended) = if why == EndWhy::ControllerControlled {
            ctl.lost = (ctl.lost + c.dice).min(ctl.size);
            (0, c.dice)
        } else {
            (c.dice, 0)
        };
        let pool = ctl.pool();
        for &s in c.members.as_slice() {
            self.minds[s as usize].controlled = None;
        }
        sink.push(Event::ControlEnded {
            controller: c.controller,
            creatures: c.members,
            why,
            returned,
            expended,
            pool,
        });
    }

    fn end_controls_of(&mut self, seat: Seat, why: EndWhy, sink: &mut impl Sink<Event>) {
        while let Some(k) = self.controls.iter().position(|c| c.controller == seat) {
            self.end_control(k, why, sink);
        }
    }

    // ----- legality -----

    /// PC23: whom attacking `named` attacks, if it may: the fast check of the turn loop,
    /// [`Combat::defender_for`] with no words.
    #[inline]
    fn target(&self, attacker: Seat, named: Seat) -> Option<Seat> {
        let t = self.minds.get(named as usize)?;
        if t.yielded {
            return None;
        }
        let def = match t.controlled.and_then(|id| self.control(id)) {
            Some(c) => c.controller,
            None => named,
        };
        let a = &self.minds[attacker as usize];
        if def == attacker || self.minds[def as usize].side == a.side || a.fears(def) {
            return None;
        }
        Some(def)
    }

    /// PC23: whom attacking `named` attacks, or why it may not.
    fn defender_for(&self, attacker: Seat, named: Seat) -> Result<Seat, RuleError> {
        if let Some(def) = self.target(attacker, named) {
            return Ok(def);
        }
        let Some(t) = self.minds.get(named as usize) else {
            return Err(RuleError::NoSuchCreature);
        };
        let a = &self.minds[attacker as usize];
        if t.yielded {
            return Err(RuleError::Target(format!(
                "{} has left the fight",
                self.name(named)
            )));
        }
        let def = match t.controlled.and_then(|id| self.control(id)) {
            Some(c) => c.controller,
            None => named,
        };
        if def == attacker || self.minds[def as usize].side == a.side {
            return Err(RuleError::Target(if def == named {
                format!(
                    "targets are opponents; {} is on your side",
                    self.name(named)
                )
            } else {
                format!(
                    "attacking {} would attack its controller {}, on your side",
                    self.name(named),
                    self.name(def)
                )
            }));
        }
        if a.fears(def) {
            return Err(RuleError::Frightened(
                self.name(attacker).to_string(),
                self.name(def).to_string(),
            ));
        }
        Ok(def)
    }

    /// The opponents it may attack, in listing order, as named.
    fn legal_targets(&self, seat: Seat) -> Seats {
        (0..self.seats())
            .filter(|&t| self.target(seat, t).is_some())
            .collect()
    }

    /// PC9: psionic, a die in the pool, a mode, a legal target.
    fn can_attack(&self, seat: Seat) -> bool {
        let m = &self.minds[seat as usize];
        m.kind.psionic()
            && m.pool() > 0
            && !m.attacks.is_empty()
            && (0..self.seats()).any(|t| self.target(seat, t).is_some())
    }

    fn dice_of(&self, seat: Seat, dice: u8) -> Result<u8, RuleError> {
        let pool = self.minds[seat as usize].pool();
        if dice == 0 {
            return Ok(pool);
        }
        if dice > pool {
            return Err(RuleError::Dice { pool, given: dice });
        }
        Ok(dice)
    }

    fn check_spells(&self, seat: Seat, spells: &Levels) -> Result<(), RuleError> {
        let left = self.minds[seat as usize].spells;
        if left.contains(spells) {
            Ok(())
        } else {
            Err(RuleError::Spells(if left.is_empty() {
                "none".into()
            } else {
                left.csv()
            }))
        }
    }

    /// Whether `ally` may be drawn into the exchange by `by` (PC28).
    fn check_draw(&self, by: Seat, draw: &Seats, x: &Exchange) -> Result<(), RuleError> {
        let side = self.minds[by as usize].side;
        for (k, &d) in draw.as_slice().iter().enumerate() {
            let Some(m) = self.minds.get(d as usize) else {
                return Err(RuleError::NoSuchCreature);
            };
            let name = self.name(d).to_string();
            if m.side != side || d == by {
                return Err(RuleError::Draw(format!("{name} is not an ally")));
            }
            if m.kind.psionic() {
                return Err(RuleError::Draw(format!(
                    "only non-psionic allies are drawn; {name} may /join if it knows Imagination Swarm"
                )));
            }
            if m.yielded || m.controlled.is_some() || m.unable() {
                return Err(RuleError::Draw(format!("{name} is not able to defend")));
            }
            if x.has(d) || draw.as_slice()[..k].contains(&d) {
                return Err(RuleError::Draw(format!(
                    "{name} is already in the exchange"
                )));
            }
            if m.fears(x.attacker) {
                return Err(RuleError::Frightened(
                    name,
                    self.name(x.attacker).to_string(),
                ));
            }
        }
        Ok(())
    }

    /// The control of `seat` whose member is `named`.
    fn control_index(&self, seat: Seat, named: Seat) -> Result<usize, RuleError> {
        self.controls
            .iter()
            .position(|c| c.controller == seat && c.members.contains(named))
            .ok_or_else(|| {
                RuleError::Control(format!(
                    "you hold no control over {}",
                    self.setup.name(named)
                ))
            })
    }

    fn due_index(&self, seat: Seat, named: Seat) -> Result<usize, RuleError> {
        let k = self.control_index(seat, named)?;
        let c = &self.controls[k];
        if !c.due || c.kept {
            return Err(RuleError::Control(format!(
                "the control over {} is not due now",
                self.setup.name(named)
            )));
        }
        Ok(k)
    }

    /// Checks a decision without changing anything.
    fn check(&self, seat: Seat, act: &Act) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::FightOver);
        }
        if seat as usize >= self.minds.len() {
            return Err(RuleError::NoSuchCreature);
        }
        if let Act::Yield = act {
            return if self.minds[seat as usize].yielded {
                Err(RuleError::Wrong("that creature has already left the fight"))
            } else {
                Ok(())
            };
        }
        match (self.phase, act) {
            (Phase::Turn(s), _) if s != seat => Err(RuleError::NotYourTurn),
            (
                Phase::Turn(_),
                Act::Attack {
                    targets,
                    mode,
                    dice,
                    ..
                },
            ) => {
                let m = &self.minds[seat as usize];
                if !m.kind.psionic() {
                    return Err(RuleError::CannotAttack(
                        "a creature that is not psionic never attacks",
                    ));
                }
                if m.pool() == 0 {
                    return Err(RuleError::CannotAttack("no die is left in your pool"));
                }
                if !m.attacks.has(*mode) {
                    return Err(RuleError::Mode(mode.title()));
                }
                if targets.is_empty() || targets.len() > 3 {
                    return Err(RuleError::Target(
                        "name 1 target, or 1 to 3 with wave".into(),
                    ));
                }
                if targets.len() > 1 && *mode != AttackMode::Wave {
                    return Err(RuleError::Target(
                        "several targets only with wave (PC26)".into(),
                    ));
                }
                for &t in targets.as_slice() {
                    self.defender_for(seat, t)?;
                }
                self.dice_of(seat, *dice).map(drop)
            }
            (Phase::Turn(_), Act::Maintain(t)) => self.due_index(seat, *t).map(drop),
            (Phase::Turn(_), Act::Dedicate(t)) => {
                let k = self.due_index(seat, *t)?;
                let need = self.controls[k].members.len() as u8;
                let pool = self.minds[seat as usize].pool();
                if pool < need {
                    return Err(RuleError::Control(format!(
                        "dedicating takes {need} dice, a die a creature; your pool has {pool}"
                    )));
                }
                Ok(())
            }
            (Phase::Turn(_), Act::Release(t)) => self.control_index(seat, *t).map(drop),
            (Phase::Turn(_), Act::Pass) => Ok(()),
            (Phase::Turn(_), _) => Err(RuleError::Wrong(
                "on your turn: /attack, /maintain, /dedicate, /release or /pass",
            )),
            (Phase::Puppet { by, .. }, Act::Puppet(_)) if by == seat => Ok(()),
            (Phase::Puppet { .. }, _) => Err(RuleError::NotYourTurn),
            (Phase::Defense | Phase::Drawn, _) => {
                let x = self.exchange.as_ref().ok_or(RuleError::NotYourTurn)?;
                let Some(m) = x.members().find(|m| m.seat == seat) else {
                    return Err(RuleError::NotYourTurn);
                };
                if m.decided || !self.asked_now(m) {
                    return Err(RuleError::NotYourTurn);
                }
                match (m.role, act) {
                    (
                        Role::Target,
                        Act::Defend {
                            mode,
                            dice,
                            spells,
                            draw,
                        },
                    ) => {
                        let me = &self.minds[seat as usize];
                        if let Some(md) = mode {
                            if !me.defenses.has(*md) {
                                return Err(RuleError::Mode(md.title()));
                            }
                            if !m.able && *md != DefenseMode::Labyrinth {
                                return Err(RuleError::OnlyLabyrinth);
                            }
                        }
                        self.dice_of(seat, *dice)?;
                        self.check_spells(seat, spells)?;
                        if !draw.is_empty() && *mode != Some(DefenseMode::Swarm) {
                            return Err(RuleError::Draw(
                                "only Imagination Swarm draws allies".into(),
                            ));
                        }
                        self.check_draw(seat, draw, x)
                    }
                    (Role::Joined, Act::Join { dice, spells, draw }) => {
                        self.dice_of(seat, *dice)?;
                        self.check_spells(seat, spells)?;
                        self.check_draw(seat, draw, x)
                    }
                    (Role::Joined, Act::Stay) => Ok(()),
                    (
                        Role::Drawn,
                        Act::Defend {
                            mode: None,
                            dice,
                            spells,
                            draw,
                        },
                    ) => {
                        if !draw.is_empty() {
                            return Err(RuleError::Draw("a drawn ally draws no one".into()));
                        }
                        self.dice_of(seat, *dice)?;
                        self.check_spells(seat, spells)
                    }
                    (Role::Target, _) => Err(RuleError::Wrong(
                        "you are attacked: /defend MODE|none [DICE] [spells L,L] [draw NAME,NAME]",
                    )),
                    (Role::Joined, _) => Err(RuleError::Wrong(
                        "an ally is attacked: /join [DICE] [spells L,L] [draw NAME,NAME] or /stay",
                    )),
                    (Role::Drawn, _) => Err(RuleError::Wrong(
                        "you are drawn in: /defend none [DICE] [spells L,L]",
                    )),
                }
            }
            (Phase::Over, _) => Err(RuleError::FightOver),
        }
    }

    /// Which seat of `side` an [`ANY`] decision is by: the one awaited creature of the side,
    /// or for `/yield` the side's one creature.
    pub fn seat_for(&self, side: Side, d: &Decision) -> Result<Seat, RuleError> {
        if d.seat != ANY {
            if d.seat as usize >= self.minds.len() {
                return Err(RuleError::NoSuchCreature);
            }
            if self.side_of(d.seat) != side {
                return Err(RuleError::NotYourTurn);
            }
            return Ok(d.seat);
        }
        let mine: Vec<Seat> = if d.act == Act::Yield {
            (0..self.seats())
                .filter(|&s| self.side_of(s) == side && !self.minds[s as usize].yielded)
                .collect()
        } else {
            self.awaited()
                .into_iter()
                .filter(|&s| self.side_of(s) == side)
                .collect()
        };
        match mine.as_slice() {
            [one] => Ok(*one),
            [] => Err(RuleError::NotYourTurn),
            _ => Err(RuleError::Ambiguous),
        }
    }

    /// Takes `seat`'s decision, events into `sink`. A refused one changes nothing.
    pub fn decide_into(
        &mut self,
        seat: Seat,
        act: Act,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) -> Result<(), RuleError> {
        self.check(seat, &act)?;
        self.apply(seat, act, dice, sink);
        Ok(())
    }

    fn apply(
        &mut self,
        seat: Seat,
        act: Act,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        match act {
            Act::Yield => self.yield_creature(seat, false, dice, sink),
            Act::Attack {
                targets,
                mode,
                dice: n,
                fear,
            } => self.attack(seat, targets, mode, n, fear, dice, sink),
            Act::Maintain(t) => {
                if let Ok(k) = self.due_index(seat, t) {
                    self.controls[k].kept = true;
                    sink.push(Event::Maintained {
                        controller: seat,
                        creatures: self.controls[k].members,
                    });
                }
                self.end_turn(seat, sink);
                self.run(dice, sink);
            }
            Act::Dedicate(t) => {
                if let Ok(k) = self.due_index(seat, t) {
                    let need = self.controls[k].members.len() as u8;
                    let c = &mut self.controls[k];
                    c.dice = need;
                    c.kept = true;
                    c.due = false;
                    let members = c.members;
                    let m = &mut self.minds[seat as usize];
                    m.dedicated += need;
                    sink.push(Event::Dedicated {
                        controller: seat,
                        creatures: members,
                        dice: need,
                        pool: m.pool(),
                    });
                }
                self.turn_again(seat, dice, sink);
            }
            Act::Release(t) => {
                if let Ok(k) = self.control_index(seat, t) {
                    self.end_control(k, EndWhy::Released, sink);
                }
                self.turn_again(seat, dice, sink);
            }
            Act::Pass => {
                sink.push(Event::Pass {
                    creature: seat,
                    auto: false,
                });
                self.end_turn(seat, sink);
                self.run(dice, sink);
            }
            Act::Puppet(order) => {
                let Phase::Puppet { puppet, by } = self.phase else {
                    return;
                };
                sink.push(Event::PuppetOrder {
                    controller: by,
                    puppet,
                    order,
                });
                if order == PuppetOrder::Yield {
                    let target = self.minds[puppet as usize].save;
                    let roll = dice.roll(20) as u8;
                    let success = roll >= target;
                    sink.push(Event::Save {
                        creature: puppet,
                        why: SaveWhy::Possession,
                        roll,
                        target,
                        success,
                    });
                    if !success {
                        return self.yield_creature(puppet, true, dice, sink);
                    }
                }
                self.end_turn(puppet, sink);
                self.run(dice, sink);
            }
            Act::Defend {
                dice: n,
                spells,
                draw,
                ..
            }
            | Act::Join {
                dice: n,
                spells,
                draw,
            } => self.answer(seat, act, n, spells, draw, dice, sink),
            Act::Stay => {
                if let Some(x) = &mut self.exchange {
                    if let Some(m) = x.member_mut(seat) {
                        m.out = true;
                    }
                }
                self.after_answer(dice, sink);
            }
        }
    }

    /// After a free decision: the turn goes on; if nothing is left to decide, it passes.
    fn turn_again(&mut self, seat: Seat, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let any_control = self.controls.iter().any(|c| c.controller == seat);
        if !self.can_attack(seat) && !any_control {
            sink.push(Event::Pass {
                creature: seat,
                auto: true,
            });
            self.end_turn(seat, sink);
            self.run(dice, sink);
        }
    }

    // ----- the exchange -----

    #[allow(clippy::too_many_arguments)]
    fn attack(
        &mut self,
        seat: Seat,
        named: Seats,
        mode: AttackMode,
        n: u8,
        fear: bool,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let n = self.dice_of(seat, n).unwrap_or(1);
        let mut defenders = Seats::EMPTY;
        for &t in named.as_slice() {
            if let Some(d) = self.target(seat, t) {
                if !defenders.contains(d) {
                    defenders.push(d);
                }
            }
        }
        let a = self.minds[seat as usize];
        let die = if mode == AttackMode::Stab {
            step_up(a.die, 2)
        } else {
            a.die
        };
        let frighten = mode == AttackMode::Subversion && fear;
        sink.push(Event::Attack {
            attacker: seat,
            mode,
            named,
            defenders,
            dice: n,
            die,
            frighten,
        });
        self.minds[seat as usize].dazed = true;
        self.attacked = true;
        sink.push(Event::Condition {
            creature: seat,
            condition: Condition::Dazed,
            why: ConditionWhy::Attacked,
            until: Some(Until::EndOfRound),
            of: None,
        });
        let mut x = Exchange {
            attacker: seat,
            mode,
            dice: n,
            die,
            fear: frighten,
            members: [None; 6],
        };
        for &d in defenders.as_slice() {
            let m = self.minds[d as usize];
            let able = !m.unable();
            let defenceless = !able && !m.defenses.has(DefenseMode::Labyrinth);
            if defenceless {
                sink.push(Event::Defense {
                    creature: d,
                    role: Role::Target,
                    mode: None,
                    able: false,
                    dice: 0,
                    die: m.die,
                    spells: Levels::default(),
                    bonus: 0,
                });
            }
            x.push(Member {
                seat: d,
                role: Role::Target,
                able,
                decided: defenceless,
                out: false,
                defenceless,
                mode: None,
                dice: 0,
                spells: Levels::default(),
            });
        }
        let side = defenders
            .as_slice()
            .first()
            .map_or(u8::MAX, |&d| self.minds[d as usize].side);
        for s in 0..self.seats() {
            let m = &self.minds[s as usize];
            let may_join = m.side == side
                && !defenders.contains(s)
                && m.kind.psionic()
                && m.defenses.has(DefenseMode::Swarm)
                && !m.yielded
                && m.controlled.is_none()
                && !m.unable()
                && !m.fears(seat);
            if may_join {
                x.push(Member {
                    seat: s,
                    role: Role::Joined,
                    able: true,
                    decided: false,
                    out: false,
                    defenceless: false,
                    mode: None,
                    dice: 0,
                    spells: Levels::default(),
                });
            }
        }
        self.exchange = Some(x);
        self.phase = Phase::Defense;
        self.after_answer(dice, sink);
    }

    #[allow(clippy::too_many_arguments)]
    fn answer(
        &mut self,
        seat: Seat,
        act: Act,
        n: u8,
        spells: Levels,
        draw: Seats,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        let n = self.dice_of(seat, n).unwrap_or(0);
        let mode = match act {
            Act::Join { .. } => Some(DefenseMode::Swarm),
            _ => mode_of(&act),
        };
        let Some(x) = &mut self.exchange else {
            return;
        };
        if let Some(m) = x.member_mut(seat) {
            m.decided = true;
            m.mode = mode;
            m.dice = n;
            m.spells = spells;
        }
        for &d in draw.as_slice() {
            x.push(Member {
                seat: d,
                role: Role::Drawn,
                able: true,
                decided: false,
                out: false,
                defenceless: false,
                mode: None,
                dice: 0,
                spells: Levels::default(),
            });
        }
        self.after_answer(dice, sink);
    }

    /// After an answer (or none needed): the drawn allies' turn to answer, or the resolution.
    fn after_answer(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let Some(x) = &self.exchange else {
            return;
        };
        let open = |role: fn(Role) -> bool| x.members().any(|m| !m.decided && role(m.role));
        if open(|r| r != Role::Drawn) {
            self.phase = Phase::Defense;
            return;
        }
        if open(|r| r == Role::Drawn) {
            self.phase = Phase::Drawn;
            return;
        }
        self.resolve(dice, sink);
    }

    /// Step 7: saves, pool dice, totals, effects member by member, the end check.
    fn resolve(&mut self, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) {
        let Some(x) = self.exchange.take() else {
            return;
        };
        let a = x.attacker;
        // The members in order, at most six, without a heap list.
        let mut list = [None; 6];
        for (slot, m) in list.iter_mut().zip(x.members()) {
            *slot = Some(*m);
        }
        let members = list.iter().flatten();
        let mut defenders = Seats::EMPTY;
        for m in members.clone() {
            defenders.push(m.seat);
            if m.defenceless {
                continue;
            }
            let me = &self.minds[m.seat as usize];
            let die = if m.mode == Some(DefenseMode::Pinnacle) {
                step_up(me.die, 1)
            } else {
                me.die
            };
            sink.push(Event::Defense {
                creature: m.seat,
                role: m.role,
                mode: m.mode,
                able: true,
                dice: m.dice,
                die,
                spells: m.spells,
                bonus: m.spells.total(),
            });
        }
        // PC18: one save per Blank Mind member, the first failure ends the exchange.
        let save = self.minds[a as usize].save;
        let mut blank_failed = false;
        for m in members
            .clone()
            .filter(|m| m.mode == Some(DefenseMode::Blank))
        {
            let _ = m;
            let roll = dice.roll(20) as u8;
            let success = roll >= save;
            sink.push(Event::Save {
                creature: a,
                why: SaveWhy::BlankMind,
                roll,
                target: save,
                success,
            });
            if !success {
                blank_failed = true;
                break;
            }
        }
        let result;
        let mut faces_of: [u32; 6] = [0; 6];
        if blank_failed {
            result = ExchangeResult::BlankMind;
            sink.push(Event::Exchange {
                attacker: a,
                defenders,
                attack_total: 0,
                defense_total: None,
                result,
            });
        } else {
            let mut attack_faces = Faces::default();
            let mut attack = 0u32;
            for _ in 0..x.dice {
                let f = dice.roll(u32::from(x.die));
                attack += f;
                attack_faces.push(f as u8);
            }
            let mut rolls: [(Faces, u32, u8); 6] = [(Faces::default(), 0, 0); 6];
            let mut defense = 0u32;
            for (k, m) in members.clone().enumerate() {
                if m.defenceless {
                    continue;
                }
                let me = &self.minds[m.seat as usize];
                let die = if m.mode == Some(DefenseMode::Pinnacle) {
                    step_up(me.die, 1)
                } else {
                    me.die
                };
                let mut faces = Faces::default();
                let mut sum = 0;
                for _ in 0..m.dice {
                    let f = dice.roll(u32::from(die));
                    sum += f;
                    faces.push(f as u8);
                }
                rolls[k] = (faces, sum, die);
                faces_of[k] = sum;
                defense += sum + m.spells.total();
            }
            let versus = |mine: u32, theirs: u32| match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Versus::Won,
                std::cmp::Ordering::Less => Versus::Lost,
                std::cmp::Ordering::Equal => Versus::Tie,
            };
            sink.push(Event::PoolRoll {
                creature: a,
                side: RollSide::Attack,
                die: x.die,
                faces: attack_faces,
                sum: attack,
                bonus: 0,
                total: attack,
                side_total: attack,
                versus: defense,
                result: versus(attack, defense),
            });
            for (k, m) in members.clone().enumerate() {
                if m.defenceless {
                    continue;
                }
                let (faces, sum, die) = rolls[k];
                let bonus = m.spells.total();
                sink.push(Event::PoolRoll {
                    creature: m.seat,
                    side: RollSide::Defense,
                    die,
                    faces,
                    sum,
                    bonus,
                    total: sum + bonus,
                    side_total: defense,
                    versus: attack,
                    result: versus(defense, attack),
                });
                // PC15: the spells are spent with the roll.
                let me = &mut self.minds[m.seat as usize];
                me.spells = me.spells.minus(&m.spells);
                me.spent = me.spent.plus(&m.spells);
            }
            result = match attack.cmp(&defense) {
                std::cmp::Ordering::Greater => ExchangeResult::Attacker,
                std::cmp::Ordering::Less => ExchangeResult::Defender,
                std::cmp::Ordering::Equal => ExchangeResult::Tie,
            };
            sink.push(Event::Exchange {
                attacker: a,
                defenders,
                attack_total: attack,
                defense_total: Some(defense),
                result,
            });
        }
        let mut reason = None;
        match result {
            ExchangeResult::Attacker => {
                let wave_group = (x.mode == AttackMode::Wave).then(|| self.new_control_id());
                for (k, m) in members.clone().enumerate() {
                    let s = m.seat;
                    if m.mode == Some(DefenseMode::Mantra) {
                        self.minds[s as usize].stunned = true;
                        sink.push(Event::Condition {
                            creature: s,
                            condition: Condition::Stunned,
                            why: ConditionWhy::BarrierMantra,
                            until: Some(Until::EndOfNextTurn),
                            of: None,
                        });
                    } else {
                        let id = wave_group.unwrap_or_else(|| self.new_control_id());
                        self.take_control(a, s, x.mode, id, sink);
                        reason = Some(EndReason::Control);
                    }
                    if x.mode == AttackMode::Overload {
                        let amount = faces_of[k];
                        let me = &mut self.minds[s as usize];
                        let was = me.hp;
                        me.hp -= amount as i32;
                        let hp = me.hp;
                        sink.push(Event::Damage {
                            creature: s,
                            amount,
                            hp,
                            why: "synaptic_overload",
                        });
                        if was > 0 && hp <= 0 {
                            sink.push(Event::Condition {
                                creature: s,
                                condition: Condition::Unconscious,
                                why: ConditionWhy::SynapticOverload,
                                until: None,
                                of: None,
                            });
                            reason.get_or_insert(EndReason::Unconscious);
                        }
                    }
                    if x.mode == AttackMode::Subversion && x.fear {
                        self.minds[s as usize].fears |= 1 << a;
                        sink.push(Event::Condition {
                            creature: s,
                            condition: Condition::Frightened,
                            why: ConditionWhy::Subversion,
                            until: Some(Until::EndOfFight),
                            of: Some(a),
                        });
                    }
                }
            }
            ExchangeResult::Defender | ExchangeResult::BlankMind => {
                let why = if result == ExchangeResult::BlankMind {
                    (LossWhy::BlankMind, ConditionWhy::BlankMind)
                } else {
                    (LossWhy::LostAttack, ConditionWhy::LostAttack)
                };
                self.lose(a, why.0, why.1, sink);
            }
            ExchangeResult::Tie => {}
        }
        // PC28: the drawn are dazed whatever the result.
        for m in members.clone().filter(|m| m.role == Role::Drawn) {
            self.minds[m.seat as usize].swarm_dazed = true;
            sink.push(Event::Condition {
                creature: m.seat,
                condition: Condition::Dazed,
                why: ConditionWhy::ImaginationSwarm,
                until: Some(Until::EndOfNextTurn),
                of: None,
            });
        }
        if let Some(reason) = reason {
            self.end_check(reason, sink);
        }
        if self.outcome.is_none() {
            self.end_turn(a, sink);
        }
        self.run(dice, sink);
    }

    fn new_control_id(&mut self) -> u16 {
        let id = self.next_control;
        self.next_control += 1;
        id
    }

    /// PC16, PC21: `s` falls under `a`'s control; every control it held ends, expended.
    fn take_control(
        &mut self,
        a: Seat,
        s: Seat,
        mode: AttackMode,
        id: u16,
        sink: &mut impl Sink<Event>,
    ) {
        match self.controls.iter_mut().find(|c| c.id == id) {
            Some(c) => c.members.push(s),
            None => self.controls.push(Control {
                id,
                controller: a,
                members: Seats::one(s),
                mode,
                dice: 0,
                due: false,
                kept: false,
            }),
        }
        self.minds[s as usize].controlled = Some(id);
        sink.push(Event::Controlled {
            creature: s,
            controller: a,
            mode,
            group: id,
        });
        self.end_controls_of(s, EndWhy::ControllerControlled, sink);
    }

    /// PC17: the attacker loses a die until rest, is stunned, and its control ends.
    fn lose(&mut self, a: Seat, loss: LossWhy, why: ConditionWhy, sink: &mut impl Sink<Event>) {
        let m = &mut self.minds[a as usize];
        m.lost = (m.lost + 1).min(m.size);
        m.stunned = true;
        sink.push(Event::DieLost {
            creature: a,
            why: loss,
            pool: m.pool(),
            lost: m.lost,
        });
        sink.push(Event::Condition {
            creature: a,
            condition: Condition::Stunned,
            why,
            until: Some(Until::EndOfNextTurn),
            of: None,
        });
        self.end_controls_of(a, EndWhy::ControllerLost, sink);
    }

    /// PC32 (and PC25's forced yield): the creature leaves and loses; its controls end, and
    /// the control over it; an exchange goes on without it, void if it was the attacker or the
    /// only target.
    fn yield_creature(
        &mut self,
        s: Seat,
        forced: bool,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
    ) {
        self.minds[s as usize].yielded = true;
        sink.push(Event::Yielded {
            creature: s,
            forced,
        });
        self.end_controls_of(s, EndWhy::Yielded, sink);
        if let Some(k) = self.controls.iter().position(|c| c.members.contains(s)) {
            let c = &mut self.controls[k];
            if c.members.len() == 1 {
                self.end_control(k, EndWhy::Yielded, sink);
            } else {
                c.members.remove(s);
                let back = c.dice.min(1);
                c.dice -= back;
                let controller = c.controller;
                let ctl = &mut self.minds[controller as usize];
                ctl.dedicated -= back;
                self.minds[s as usize].controlled = None;
                sink.push(Event::ControlEnded {
                    controller,
                    creatures: Seats::one(s),
                    why: EndWhy::Yielded,
                    returned: back,
                    expended: 0,
                    pool: self.minds[controller as usize].pool(),
                });
            }
        }
        self.end_check(EndReason::Yield, sink);
        let over = self.outcome.is_some();
        match self.phase {
            Phase::Turn(t) if t == s => {
                if !over {
                    self.end_turn(s, sink);
                }
                self.run(dice, sink);
            }
            Phase::Puppet { puppet, by } if puppet == s || by == s => {
                if !over {
                    self.end_turn(puppet, sink);
                }
                self.run(dice, sink);
            }
            Phase::Defense | Phase::Drawn => {
                let Some(x) = &mut self.exchange else {
                    return;
                };
                let attacker = x.attacker;
                if let Some(m) = x.member_mut(s) {
                    m.out = true;
                }
                let void = attacker == s || !x.members().any(|m| m.role == Role::Target);
                if void || over {
                    self.exchange = None;
                    if !over {
                        self.end_turn(attacker, sink);
                    }
                    self.run(dice, sink);
                } else {
                    self.after_answer(dice, sink);
                }
            }
            _ => {
                if over {
                    self.phase = Phase::Over;
                }
            }
        }
    }

    /// PC31: a side with no free creature loses at once.
    fn end_check(&mut self, reason: EndReason, sink: &mut impl Sink<Event>) {
        if self.outcome.is_some() {
            return;
        }
        for side in Side::BOTH {
            let any_free = self.minds.iter().any(|m| m.side == side as u8 && m.free());
            if !any_free {
                self.finish(Some(side.other()), reason, sink);
                return;
            }
        }
    }

    /// PC36: every control ends; then the end.
    fn finish(&mut self, winner: Option<Side>, reason: EndReason, sink: &mut impl Sink<Event>) {
        while !self.controls.is_empty() {
            self.end_control(0, EndWhy::FightEnded, sink);
        }
        let mut winners = Seats::EMPTY;
        let mut losers = Seats::EMPTY;
        for (i, m) in self.minds.iter().enumerate() {
            let s = i as Seat;
            match winner {
                Some(w) if m.side == w as u8 && !m.yielded => winners.push(s),
                Some(_) => losers.push(s),
                None if m.yielded => losers.push(s),
                None => {}
            }
        }
        self.outcome = Some(Outcome {
            result: if winner.is_some() {
                FightOutcome::Win
            } else {
                FightOutcome::Draw
            },
            winner,
            reason,
            rounds: self.round,
        });
        self.phase = Phase::Over;
        self.exchange = None;
        sink.push(Event::FightEnded {
            result: self.outcome.map_or(FightOutcome::Draw, |o| o.result),
            winners,
            losers,
            reason,
            rounds: self.round,
        });
    }

    // ----- the default policy (PC37) -----

    /// The default policy's decision for `seat` now, if it is awaited.
    pub fn default_for(&self, seat: Seat) -> Option<Act> {
        match self.phase {
            Phase::Turn(s) if s == seat => Some(self.default_turn(seat)),
            Phase::Puppet { by, .. } if by == seat => Some(Act::Puppet(PuppetOrder::Pass)),
            Phase::Defense | Phase::Drawn => {
                let x = self.exchange.as_ref()?;
                let m = x.members().find(|m| m.seat == seat && !m.decided)?;
                if !self.asked_now(m) {
                    return None;
                }
                Some(match m.role {
                    Role::Target => {
                        let me = &self.minds[seat as usize];
                        let mode = DefenseMode::POLICY.into_iter().find(|&d| {
                            me.defenses.has(d) && (m.able || d == DefenseMode::Labyrinth)
                        });
                        Act::Defend {
                            mode,
                            dice: 0,
                            spells: Levels::default(),
                            draw: Seats::EMPTY,
                        }
                    }
                    Role::Joined => Act::Stay,
                    Role::Drawn => Act::Defend {
                        mode: None,
                        dice: 0,
                        spells: Levels::default(),
                        draw: Seats::EMPTY,
                    },
                })
            }
            _ => None,
        }
    }

    fn default_turn(&self, seat: Seat) -> Act {
        let pool = self.minds[seat as usize].pool();
        if let Some(c) = self
            .controls
            .iter()
            .find(|c| c.controller == seat && c.due && !c.kept)
        {
            let first = c.members.as_slice()[0];
            // "dedicate a die if one stays in the pool": one die left after dedicating.
            return if pool > c.members.len() as u8 {
                Act::Dedicate(first)
            } else {
                Act::Maintain(first)
            };
        }
        if self.can_attack(seat) {
            let me = &self.minds[seat as usize];
            let free = |t: Seat| self.minds[t as usize].free() && self.target(seat, t) == Some(t);
            let targets: Seats = (0..self.seats()).filter(|&t| free(t)).collect();
            if let (Some(&first), Some(mode)) = (
                targets.as_slice().first(),
                AttackMode::POLICY.into_iter().find(|&m| me.attacks.has(m)),
            ) {
                return Act::Attack {
                    targets: if mode == AttackMode::Wave {
                        targets.as_slice().iter().take(3).copied().collect()
                    } else {
                        Seats::one(first)
                    },
                    mode,
                    dice: 0,
                    fear: true,
                };
            }
        }
        Act::Pass
    }

    /// The legal choices of `seat` now, for prompts (dice all, no spells, no draws), `/yield`
    /// last.
    pub fn options_for(&self, seat: Seat) -> Vec<Act> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Turn(s) if s == seat => {
                let me = &self.minds[seat as usize];
                if self.can_attack(seat) {
                    let targets = self.legal_targets(seat);
                    for &t in targets.as_slice() {
                        for mode in me.attacks.iter().filter(|&m| m != AttackMode::Wave) {
                            out.push(Act::Attack {
                                targets: Seats::one(t),
                                mode,
                                dice: 0,
                                fear: true,
                            });
                        }
                    }
                    if me.attacks.has(AttackMode::Wave) {
                        out.push(Act::Attack {
                            targets: targets.as_slice().iter().take(3).copied().collect(),
                            mode: AttackMode::Wave,
                            dice: 0,
                            fear: true,
                        });
                    }
                }
                for c in self.controls.iter().filter(|c| c.controller == seat) {
                    let first = c.members.as_slice()[0];
                    if c.due && !c.kept {
                        out.push(Act::Maintain(first));
                        if me.pool() >= c.members.len() as u8 {
                            out.push(Act::Dedicate(first));
                        }
                    }
                    out.push(Act::Release(first));
                }
                out.push(Act::Pass);
            }
            Phase::Puppet { by, .. } if by == seat => {
                out.push(Act::Puppet(PuppetOrder::Pass));
                out.push(Act::Puppet(PuppetOrder::Yield));
            }
            Phase::Defense | Phase::Drawn => {
                let Some(x) = &self.exchange else {
                    return out;
                };
                let Some(m) = x.members().find(|m| m.seat == seat && !m.decided) else {
                    return out;
                };
                if !self.asked_now(m) {
                    return out;
                }
                let plain = |mode| Act::Defend {
                    mode,
                    dice: 0,
                    spells: Levels::default(),
                    draw: Seats::EMPTY,
                };
                match m.role {
                    Role::Target => {
                        let me = &self.minds[seat as usize];
                        for d in me.defenses.iter() {
                            if m.able || d == DefenseMode::Labyrinth {
                                out.push(plain(Some(d)));
                            }
                        }
                        out.push(plain(None));
                    }
                    Role::Joined => {
                        out.push(Act::Join {
                            dice: 0,
                            spells: Levels::default(),
                            draw: Seats::EMPTY,
                        });
                        out.push(Act::Stay);
                    }
                    Role::Drawn => out.push(plain(None)),
                }
            }
            _ => {}
        }
        // PC32: a creature may yield at any time, so at every prompt.
        if !out.is_empty() {
            out.push(Act::Yield);
        }
        out
    }

    /// Plays on by the default policy, at most `max` decisions; whether it ended.
    pub fn play_out_into(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max: usize,
    ) -> bool {
        for _ in 0..max {
            let (seat, act) = match self.phase {
                Phase::Over => break,
                Phase::Turn(s) => (s, self.default_turn(s)),
                Phase::Puppet { by, .. } => (by, Act::Puppet(PuppetOrder::Pass)),
                Phase::Defense | Phase::Drawn => {
                    let Some(s) = self.first_awaited() else {
                        break;
                    };
                    match self.default_for(s) {
                        Some(a) => (s, a),
                        None => break,
                    }
                }
            };
            if self.decide_into(seat, act, dice, sink).is_err() {
                break;
            }
        }
        self.outcome.is_some()
    }
}

fn mode_of(act: &Act) -> Option<DefenseMode> {
    match act {
        Act::Defend { mode, .. } => *mode,
        _ => None,
    }
}

/// PC7: a d20 each in listing order; tied creatures roll again, the highest tie first.
fn initiative(
    seats: Seats,
    attempt: u8,
    dice: &mut impl RollSource,
    sink: &mut impl Sink<Event>,
) -> Seats {
    // At most six creatures: the rolls in a fixed array, no heap.
    let mut all = [(0 as Seat, 0u8); 6];
    let n = seats.len().min(all.len());
    for (slot, &s) in all.iter_mut().zip(seats.as_slice()) {
        let roll = dice.roll(20) as u8;
        sink.push(Event::Initiative {
            creature: s,
            roll,
            attempt,
        });
        *slot = (s, roll);
    }
    let rolls = &mut all[..n];
    // Stable: listing order within a tie (the seats come in ascending order).
    rolls.sort_by_key(|r| std::cmp::Reverse(r.1));
    let mut order = Seats::EMPTY;
    let mut i = 0;
    while i < rolls.len() {
        let mut j = i + 1;
        while j < rolls.len() && rolls[j].1 == rolls[i].1 {
            j += 1;
        }
        if j - i == 1 || attempt >= 50 {
            rolls[i..j].iter().for_each(|r| order.push(r.0));
        } else {
            let tied: Seats = rolls[i..j].iter().map(|r| r.0).collect();
            let sub = initiative(tied, attempt + 1, dice, sink);
            sub.as_slice().iter().for_each(|&s| order.push(s));
        }
        i = j;
    }
    order
}

impl Fight for Combat {
    type Setup = Setup;
    type Decision = Decision;
    type Event = Event;
    type Error = RuleError;

    fn start(setup: Setup, dice: &mut impl RollSource) -> (Self, Vec<Event>) {
        let mut events = Vec::new();
        let fight = Combat::begin(setup, dice, &mut events);
        (fight, events)
    }

    fn start_into(setup: Setup, dice: &mut impl RollSource, sink: &mut impl Sink<Event>) -> Self {
        Combat::begin(setup, dice, sink)
    }

    fn setup(&self) -> &Setup {
        &self.setup
    }

    fn pending(&self) -> Vec<Prompt<Decision>> {
        let what = match self.phase {
            Phase::Turn(_) => "your turn",
            Phase::Puppet { .. } => "your puppet's turn",
            Phase::Defense => "defend",
            Phase::Drawn => "drawn in, defend",
            Phase::Over => return Vec::new(),
        };
        self.awaited()
            .into_iter()
            .filter_map(|seat| {
                let default = self.default_for(seat)?;
                let what = match (self.phase, default) {
                    (Phase::Defense, Act::Stay) => "an ally is attacked, join or stay",
                    _ => what,
                };
                Some(Prompt {
                    side: self.side_of(seat),
                    what,
                    options: self
                        .options_for(seat)
                        .into_iter()
                        .map(|act| Decision { seat, act })
                        .collect(),
                    default: Decision { seat, act: default },
                })
            })
            .collect()
    }

    fn decide(
        &mut self,
        side: Side,
        decision: Decision,
        dice: &mut impl RollSource,
    ) -> Result<Vec<Event>, RuleError> {
        let seat = self.seat_for(side, &decision)?;
        let mut events = Vec::new();
        self.decide_into(seat, decision.act, dice, &mut events)?;
        Ok(events)
    }

    fn play_out(
        &mut self,
        dice: &mut impl RollSource,
        sink: &mut impl Sink<Event>,
        max_decisions: usize,
    ) -> bool {
        self.play_out_into(dice, sink, max_decisions)
    }

    fn result(&self) -> Option<FightResult> {
        self.outcome.map(|o| FightResult {
            winner: o.winner,
            reason: o.reason.word(),
        })
    }
}

/// A one-against-one fight by the default policy to its end, outcome only (for benches).
pub fn simulate(setup: Setup, dice: &mut impl RollSource) -> Option<Outcome> {
    let mut f = Combat::begin(setup, dice, &mut Discard);
    f.play_out_into(dice, &mut Discard, 10_000);
    f.outcome
}
