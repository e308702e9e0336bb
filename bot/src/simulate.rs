//! `herald simulate` and the chat's `/odds`: Monte-Carlo odds between two knights.
//!
//! Both knights fight with the engine's default decision policy ([`Policy`]: no sweep, High,
//! Attack, the best counter, no psi). In a practice fight the policy also agrees to Swordplay
//! after the Joust (`Policy { fight_on: true }`): a timeout would decline it (R41), but the odds
//! players ask for are those of a whole fight, and a Joust-only practice is decided by a single
//! unhorsing. A Lists match goes on to Swordplay by its own rule when nobody was unhorsed, or
//! both were (R35).
//!
//! Fights are dealt out in blocks of [`BLOCK`], each block with its own dice derived from the
//! master seed, and the blocks' counts are summed. The result therefore depends only on the two
//! sheets, the kind, the number of fights and the seed, never on how many threads ran them: a
//! printed seed repeats a run exactly, on any machine.

use crate::config::Config;
use crate::games::Game;
use crate::store::{Id, KnightRecord, Store};
use anyhow::{bail, Context, Result};
use futures::future::BoxFuture;
use herald_engine::dice::{seed_from_u64, Seed, SeededDice};
use herald_engine::game::{Discard, Fight};
use herald_engine::psiknight::event::{DamageResult, EndReason};
use herald_engine::psiknight::policy::Policy;
use herald_engine::psiknight::{
    Event, EventSink, KnightSheet, Match, MatchKind, MatchSetup, Opening, Side,
};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Fights per block: the unit of work a thread takes, and of the per-block dice.
pub const BLOCK: u32 = 4_096;

/// The size of a chat `/odds`: a 95% interval of about ±0.7 points, computed in well under a
/// second on one core of a small machine (see README, "herald simulate").
pub const CHAT_FIGHTS: u32 = 20_000;

/// From this many fights on, the command line shows a progress bar (on a terminal only).
pub const PROGRESS_FROM: u32 = 500_000;

/// A Swordplay can in principle go on for ever; a fight still running after this many
/// decisions is counted as unfinished rather than looping.
const MAX_DECISIONS: usize = 10_000;

/// The damage table's results in the order [`Odds::damage`] counts them.
pub const DAMAGE_RESULTS: [DamageResult; 5] = [
    DamageResult::Kill,
    DamageResult::WeaponArm,
    DamageResult::ShieldArm,
    DamageResult::Legs,
    DamageResult::Armor,
];

fn damage_index(result: DamageResult) -> usize {
    match result {
        DamageResult::Kill => 0,
        DamageResult::WeaponArm => 1,
        DamageResult::ShieldArm => 2,
        DamageResult::Legs => 3,
        DamageResult::Armor => 4,
    }
}

/// What a run of simulated fights came to. Arrays are indexed by side: knight A (the
/// challenger) first, knight B (the challenged) second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Practice or Lists.
    pub kind: MatchKind,
    /// The master seed; the same seed, sheets, kind and count give the same odds.
    pub seed: u64,
    /// Fights run.
    pub fights: u32,
    /// Fights each side won.
    pub wins: [u32; 2],
    /// Fights with no winner (R27: no unhorsing in three passes, or both fell, without Swordplay).
    pub draws: u32,
    /// Fights still running after the decision cap (a Swordplay of blocks and misses); in
    /// neither wins nor draws.
    pub unfinished: u32,
    /// Fights in which each side was unhorsed in the Joust.
    pub unhorsed: [u32; 2],
    /// Joust passes ridden, summed over all fights.
    pub passes: u64,
    /// Fights in which Swordplay was fought.
    pub swordplay: u32,
    /// Fights each side won by the damage table's KILL (01–22, Swordplay 2D).
    pub kills: [u32; 2],
    /// Fights each side won by a second arm hit, which counts as a Kill (R17).
    pub second_arm_kills: [u32; 2],
    /// Damage rolls each side made as the attacker, by result in [`DAMAGE_RESULTS`] order.
    pub damage: [[u32; 5]; 2],
}

impl Odds {
    fn empty(kind: MatchKind, seed: u64) -> Odds {
        Odds {
            kind,
            seed,
            fights: 0,
            wins: [0; 2],
            draws: 0,
            unfinished: 0,
            unhorsed: [0; 2],
            passes: 0,
            swordplay: 0,
            kills: [0; 2],
            second_arm_kills: [0; 2],
            damage: [[0; 5]; 2],
        }
    }

    fn merge(&mut self, other: &Odds) {
        self.fights += other.fights;
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        self.passes += other.passes;
        self.swordplay += other.swordplay;
        add(&mut self.wins, &other.wins);
        add(&mut self.unhorsed, &other.unhorsed);
        add(&mut self.kills, &other.kills);
        add(&mut self.second_arm_kills, &other.second_arm_kills);
        for (mine, theirs) in self.damage.iter_mut().zip(&other.damage) {
            add(mine, theirs);
        }
    }

    /// `count` as a fraction of the fights run (0 when none were).
    pub fn rate(&self, count: u32) -> f64 {
        if self.fights == 0 {
            0.0
        } else {
            f64::from(count) / f64::from(self.fights)
        }
    }

    /// The 95% Wilson interval of `count` out of the fights run.
    pub fn interval(&self, count: u32) -> (f64, f64) {
        wilson(count, self.fights)
    }

    /// Joust passes per fight.
    pub fn average_passes(&self) -> f64 {
        if self.fights == 0 {
            0.0
        } else {
            self.passes as f64 / f64::from(self.fights)
        }
    }

    /// One line for chat (`/odds`): wins, draws and losses with their intervals, unhorsings,
    /// passes, Swordplay and kills.
    pub fn summary(&self, a_name: &str, b_name: &str) -> String {
        let [a, b] = [self.wins[0], self.wins[1]];
        let kills = [
            self.kills[0] + self.second_arm_kills[0],
            self.kills[1] + self.second_arm_kills[1],
        ];
        format!(
            "{a_name} v {b_name}, {} {} fights: {a_name} wins {}, draw {}, {b_name} wins {}; \
             unhorsed {}/{}; {:.2} passes; Swordplay {}; kills {}/{} (seed {}).",
            grouped(u64::from(self.fights)),
            kind_word(self.kind),
            self.with_interval(a),
            pct(self.rate(self.draws)),
            self.with_interval(b),
            pct(self.rate(self.unhorsed[0])),
            pct(self.rate(self.unhorsed[1])),
            self.average_passes(),
            pct(self.rate(self.swordplay)),
            pct(self.rate(kills[0])),
            pct(self.rate(kills[1])),
            self.seed,
        )
    }

    /// The command line's report: one figure a line, names aligned.
    pub fn report(&self, a_name: &str, b_name: &str) -> String {
        let width = a_name.chars().count().max(b_name.chars().count()).max(6) + 6;
        let mut out = String::new();
        let how = match self.kind {
            MatchKind::Practice => "practice fights, both fighters agreeing to Swordplay",
            MatchKind::Lists => "Lists matches",
            MatchKind::Melee => "melee passes",
        };
        let _ = writeln!(
            out,
            "{} {how}, {a_name} v {b_name}, default policy, seed {}",
            grouped(u64::from(self.fights)),
            self.seed
        );
        let _ = writeln!(out, "{:width$}  {:>7}  95% interval", "", "rate");
        for (label, count) in [
            (format!("{a_name} wins"), self.wins[0]),
            ("draws".to_string(), self.draws),
            (format!("{b_name} wins"), self.wins[1]),
        ] {
            let (low, high) = self.interval(count);
            let _ = writeln!(
                out,
                "{label:width$}  {:>7}  {} – {}",
                pct2(self.rate(count)),
                pct2(low),
                pct2(high)
            );
        }
        if self.unfinished > 0 {
            let _ = writeln!(
                out,
                "{:width$}  {:>7}  (still fighting after {MAX_DECISIONS} decisions)",
                "unfinished",
                pct2(self.rate(self.unfinished)),
            );
        }
        let _ = writeln!(
            out,
            "unhorsed in the Joust: {a_name} {}, {b_name} {}",
            pct(self.rate(self.unhorsed[0])),
            pct(self.rate(self.unhorsed[1]))
        );
        let _ = writeln!(
            out,
            "Joust passes: {:.2} a fight on average",
            self.average_passes()
        );
        let _ = writeln!(
            out,
            "Swordplay followed: {}",
            pct(self.rate(self.swordplay))
        );
        let _ = writeln!(
            out,
            "won by the damage table: {a_name} {} by Kill + {} by a second arm hit; \
             {b_name} {} + {}",
            pct(self.rate(self.kills[0])),
            pct(self.rate(self.second_arm_kills[0])),
            pct(self.rate(self.kills[1])),
            pct(self.rate(self.second_arm_kills[1])),
        );
        for (side, name) in [a_name, b_name].into_iter().enumerate() {
            let rolls = self.damage[side];
            let total: u32 = rolls.iter().sum();
            let _ = writeln!(
                out,
                "{name}'s damage rolls: {} (Kill {}, weapon arm {}, shield arm {}, legs {}, armor {})",
                grouped(u64::from(total)),
                grouped(u64::from(rolls[0])),
                grouped(u64::from(rolls[1])),
                grouped(u64::from(rolls[2])),
                grouped(u64::from(rolls[3])),
                grouped(u64::from(rolls[4])),
            );
        }
        out
    }

    fn with_interval(&self, count: u32) -> String {
        let (low, high) = self.interval(count);
        format!(
            "{} ({}–{})",
            pct(self.rate(count)),
            pct_bare(low),
            pct_bare(high)
        )
    }
}

fn kind_word(kind: MatchKind) -> &'static str {
    match kind {
        MatchKind::Practice => "practice",
        MatchKind::Lists => "Lists",
        MatchKind::Melee => "melee",
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn pct_bare(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn pct2(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// 1234567 as "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The 95% Wilson score interval for `successes` out of `n` trials, as fractions; `(0, 1)` when
/// there were no trials. Unlike the normal approximation it stays inside 0..1 and is honest
/// near 0% and 100%, where kill rates live.
pub fn wilson(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n_trials = n;
    let p = f64::from(successes.min(n)) / f64::from(n);
    let n = f64::from(n);
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and n the bounds are exactly 0 and 1; rounding would leave 1e-16 of daylight.
    let low = if successes == 0 { 0.0 } else { centre - half };
    let high = if successes >= n_trials {
        1.0
    } else {
        centre + half
    };
    (low.max(0.0), high.min(1.0))
}

/// Counts damage rolls and drops every other event, so fights run at nearly the speed of
/// [`herald_engine::psiknight::Discard`].
struct DamageCount([[u32; 5]; 2]);

impl EventSink for DamageCount {
    #[inline]
    fn push(&mut self, event: Event) {
        if let Event::Damage {
            attacker, result, ..
        } = event
        {
            self.0[attacker.index()][damage_index(result)] += 1;
        }
    }
}

/// The dice of block `block` of a run with master seed `seed`: the master key with the block's
/// number folded into its last eight bytes, so blocks draw from unrelated ChaCha streams.
fn block_seed(seed: u64, block: u32) -> Seed {
    let mut key = seed_from_u64(seed);
    let mut tail = [0u8; 8];
    tail.copy_from_slice(&key[24..]);
    let folded = u64::from_le_bytes(tail) ^ (u64::from(block) + 1);
    key[24..].copy_from_slice(&folded.to_le_bytes());
    key
}

/// The policy a simulation fights with: the default one, agreeing to Swordplay after a practice
/// Joust (see the module docs).
pub fn policy() -> Policy {
    Policy { fight_on: true }
}

fn run_block(setup: &MatchSetup, seed: u64, block: u32, fights: u32, into: &mut Odds) {
    let policy = policy();
    let mut dice = SeededDice::new(block_seed(seed, block));
    let mut sink = DamageCount([[0; 5]; 2]);
    for _ in 0..fights {
        let mut m = Match::start_into(setup.clone(), &mut dice, &mut sink);
        policy.play_out(&mut m, &mut dice, &mut sink, MAX_DECISIONS);
        into.fights += 1;
        let Some(outcome) = m.outcome() else {
            into.unfinished += 1;
            continue;
        };
        match outcome.winner {
            Some(side) => {
                let i = side.index();
                into.wins[i] += 1;
                match outcome.reason {
                    EndReason::Kill => into.kills[i] += 1,
                    EndReason::SecondArmHit => into.second_arm_kills[i] += 1,
                    _ => {}
                }
            }
            None => into.draws += 1,
        }
        for side in Side::BOTH {
            into.unhorsed[side.index()] += u32::from(outcome.unhorsed[side.index()]);
        }
        into.passes += u64::from(outcome.passes);
        into.swordplay += u32::from(outcome.swordplay);
    }
    for (total, counted) in into.damage.iter_mut().zip(&sink.0) {
        add(total, counted);
    }
}

fn add<const N: usize>(total: &mut [u32; N], more: &[u32; N]) {
    for (t, m) in total.iter_mut().zip(more) {
        *t += m;
    }
}

/// The match both knights fight, from sheets without their names: the engine never reads a
/// name, and an empty `String` clones without allocating, once per fight.
fn setup(a: &KnightSheet, b: &KnightSheet, kind: MatchKind) -> MatchSetup {
    let unnamed = |sheet: &KnightSheet| {
        let mut sheet = sheet.clone();
        sheet.name = String::new();
        sheet
    };
    MatchSetup {
        kind,
        opening: Opening::Joust,
        knights: [unnamed(a), unnamed(b)],
        armed: [None, None],
    }
}

/// Runs `fights` fights of `kind` between `a` (the challenger) and `b` with the default policy
/// on every core, from master seed `seed`. Takes about a microsecond a fight per core: a chat
/// command should ask for [`CHAT_FIGHTS`] and run it off the async threads
/// (`tokio::task::spawn_blocking`).
pub fn odds(a: &KnightSheet, b: &KnightSheet, fights: u32, seed: u64, kind: MatchKind) -> Odds {
    let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    odds_with(a, b, fights, seed, kind, threads, &|_| {})
}

/// As [`odds`], on at most `threads` threads, calling `progress` with the number of fights of
/// each block as it is done (from the worker threads).
pub fn odds_with(
    a: &KnightSheet,
    b: &KnightSheet,
    fights: u32,
    seed: u64,
    kind: MatchKind,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
) -> Odds {
    let setup = setup(a, b, kind);
    in_blocks(
        fights,
        threads,
        || Odds::empty(kind, seed),
        |block, size, tally| run_block(&setup, seed, block, size, tally),
        Odds::merge,
        progress,
    )
}

/// Deals `fights` out in blocks of [`BLOCK`] to at most `threads` threads, each tallying its
/// blocks into its own `T`, and merges the tallies. Which thread runs a block does not change
/// its dice, so the total is the same on any number of threads.
fn in_blocks<T: Send>(
    fights: u32,
    threads: usize,
    empty: impl Fn() -> T + Sync,
    run: impl Fn(u32, u32, &mut T) + Sync,
    merge: impl Fn(&mut T, &T),
    progress: &(dyn Fn(u32) + Sync),
) -> T {
    let blocks = fights.div_ceil(BLOCK);
    let threads = threads.clamp(1, blocks.max(1) as usize);
    let next = AtomicU32::new(0);
    let work = || {
        let mut tally = empty();
        loop {
            let block = next.fetch_add(1, Ordering::Relaxed);
            if block >= blocks {
                break;
            }
            let size = BLOCK.min(fights - block * BLOCK);
            run(block, size, &mut tally);
            progress(size);
        }
        tally
    };
    let mut total = empty();
    if threads == 1 {
        merge(&mut total, &work());
        return total;
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        for worker in workers {
            // A worker panics only on an engine bug; carry it to the caller unchanged.
            let tally = worker
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            merge(&mut total, &tally);
        }
    });
    total
}

/// What a run of simulated fights of a game on the seam came to, by side (the challenger
/// first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoutOdds {
    /// The master seed.
    pub seed: u64,
    /// Fights run.
    pub fights: u32,
    /// Fights each side won.
    pub wins: [u32; 2],
    /// Fights with no winner.
    pub draws: u32,
    /// Fights still running after the decision cap.
    pub unfinished: u32,
    /// Wins by the reason the game gives (`out`, `yielded`, ...), for each side.
    pub reasons: Vec<(&'static str, [u32; 2])>,
}

impl BoutOdds {
    fn empty(seed: u64) -> BoutOdds {
        BoutOdds {
            seed,
            fights: 0,
            wins: [0; 2],
            draws: 0,
            unfinished: 0,
            reasons: Vec::new(),
        }
    }

    fn count_reason(&mut self, reason: &'static str, side: usize, n: u32) {
        match self.reasons.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, counts)) => counts[side] += n,
            None => {
                let mut counts = [0; 2];
                counts[side] = n;
                self.reasons.push((reason, counts));
            }
        }
    }

    fn merge(&mut self, other: &BoutOdds) {
        self.fights += other.fights;
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        add(&mut self.wins, &other.wins);
        for (reason, counts) in &other.reasons {
            for (side, &n) in counts.iter().enumerate() {
                self.count_reason(reason, side, n);
            }
        }
        self.reasons.sort_by_key(|(r, _)| *r);
    }

    fn rate(&self, count: u32) -> f64 {
        if self.fights == 0 {
            0.0
        } else {
            f64::from(count) / f64::from(self.fights)
        }
    }

    fn with_interval(&self, count: u32) -> String {
        let (low, high) = wilson(count, self.fights);
        format!(
            "{} ({}–{})",
            pct(self.rate(count)),
            pct_bare(low),
            pct(high)
        )
    }

    fn reasons_of(&self, side: usize) -> String {
        let parts: Vec<String> = self
            .reasons
            .iter()
            .filter(|(_, c)| c[side] > 0)
            .map(|(r, c)| format!("{r} {}", pct(self.rate(c[side]))))
            .collect();
        parts.join(", ")
    }

    /// One line for chat: wins with their intervals, draws, and how the wins came.
    pub fn summary(&self, game: &str, a_name: &str, b_name: &str) -> String {
        format!(
            "{a_name} v {b_name}, {} fights of {game}: {a_name} wins {} ({}), {b_name} wins {} ({}), draws {} (seed {}).",
            grouped(u64::from(self.fights)),
            self.with_interval(self.wins[0]),
            self.reasons_of(0),
            self.with_interval(self.wins[1]),
            self.reasons_of(1),
            pct(self.rate(self.draws)),
            self.seed,
        )
    }
}

/// Runs `fights` fights of a game on the seam from `setup`, both sides by the default policy,
/// on at most `threads` threads, from master seed `seed`, in blocks as [`odds_with`].
pub fn bout_odds<F: Fight>(
    setup: &F::Setup,
    fights: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
) -> BoutOdds {
    in_blocks(
        fights,
        threads,
        || BoutOdds::empty(seed),
        |block, size, tally| {
            let mut dice = SeededDice::new(block_seed(seed, block));
            for _ in 0..size {
                let mut fight = F::start_into(setup.clone(), &mut dice, &mut Discard);
                fight.play_out(&mut dice, &mut Discard, MAX_DECISIONS);
                tally.fights += 1;
                match fight.result() {
                    None => tally.unfinished += 1,
                    Some(r) => match r.winner {
                        None => tally.draws += 1,
                        Some(w) => {
                            tally.wins[w.index()] += 1;
                            tally.count_reason(r.reason, w.index(), 1);
                        }
                    },
                }
            }
        },
        BoutOdds::merge,
        progress,
    )
}

/// Two characters of a game on the seam, as they stand today, ready to be simulated.
pub struct Matchup {
    /// The game's name.
    pub game: &'static str,
    /// "Sir Ector", challenger first.
    pub styled: [String; 2],
    /// "Ector".
    pub plain: [String; 2],
    run: Box<RunOdds>,
}

/// A matchup's simulation: fights, seed, threads, progress.
type RunOdds = dyn Fn(u32, u64, usize, &(dyn Fn(u32) + Sync)) -> BoutOdds + Send + Sync;

impl Matchup {
    /// Runs `fights` fights from master seed `seed` on at most `threads` threads.
    pub fn run(
        &self,
        fights: u32,
        seed: u64,
        threads: usize,
        progress: &(dyn Fn(u32) + Sync),
    ) -> BoutOdds {
        (self.run)(fights, seed, threads, progress)
    }
}

/// The matchup of two characters of `G` named `names` in `realm`, as they read on `day`;
/// `None` when either is no character of that game.
pub fn matchup<'a, G: Game>(
    store: &'a Store,
    config: &'a Config,
    realm: Id,
    names: [&'a str; 2],
    day: &'a str,
) -> BoxFuture<'a, Result<Option<Matchup>>> {
    Box::pin(async move {
        use crate::store::games::Character;
        let game = G::new(config)?;
        // A side may name several, `Ash,Cai`, in a game of groups (Game::MAX_SIDE).
        let mut sides: [Vec<Character>; 2] = Default::default();
        for (side, names) in names.into_iter().enumerate() {
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let Some(mut c) = store.character_named(realm, G::ID, name).await? else {
                    return Ok(None);
                };
                let now = game.as_of(&c, day)?;
                (c.sheet, c.state) = (now.sheet, now.state);
                sides[side].push(c);
            }
        }
        let challengers = sides[0].len();
        let found: Vec<&Character> = sides.iter().flatten().collect();
        let setup = match found.as_slice() {
            [a, b] => game.setup([a, b])?,
            _ if challengers > 0 && found.len() > challengers => {
                game.group_setup(&found, challengers)?
            }
            _ => return Ok(None),
        };
        // "Ash and Cai" to read; `Ash,Cai` as the command line names them.
        let styled = |side: &[Character]| {
            let names: Vec<String> = side.iter().map(|c| game.styled(c)).collect();
            match names.split_last() {
                Some((last, init)) if !init.is_empty() => {
                    format!("{} and {last}", init.join(", "))
                }
                _ => names.concat(),
            }
        };
        let plain = |side: &[Character]| {
            let names: Vec<&str> = side.iter().map(|c| c.name.as_str()).collect();
            names.join(",")
        };
        Ok(Some(Matchup {
            game: G::NAME,
            styled: [styled(&sides[0]), styled(&sides[1])],
            plain: [plain(&sides[0]), plain(&sides[1])],
            run: Box::new(move |fights, seed, threads, progress| {
                bout_odds::<G::Fight>(&setup, fights, seed, threads, progress)
            }),
        }))
    })
}

/// The kind of fight `herald simulate --kind` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// A practice fight: three passes, then Swordplay (both agree, by the simulation's policy).
    Practice,
    /// A Lists match: an unhorsing ends it; otherwise Swordplay (R35).
    Lists,
}

impl From<Kind> for MatchKind {
    fn from(kind: Kind) -> MatchKind {
        match kind {
            Kind::Practice => MatchKind::Practice,
            Kind::Lists => MatchKind::Lists,
        }
    }
}

/// The arguments of `herald simulate`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The first knight, who issues the challenge.
    pub knight_a: String,
    /// The second knight, who is challenged.
    pub knight_b: String,
    /// How many fights.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    pub fights: u32,
    /// What kind of fight.
    #[arg(long, value_enum, default_value_t = Kind::Practice)]
    pub kind: Kind,
    /// The master seed, to repeat a run; a fresh one is drawn and printed when not given.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The realm of both knights: `local` for the console and scripts, else the IRC network or
    /// Discord guild.
    #[arg(long, default_value = crate::app::LOCAL_REALM, value_name = "NAME")]
    pub realm: String,
    /// The game whose characters these are (`psiknight`, `tourney`); by default PsiKnight's
    /// knights, else the first game that has both.
    #[arg(long, value_name = "ID")]
    pub game: Option<String>,
}

/// Runs `herald simulate` against the books at `db`, with the configuration's realm data (a
/// game's house tables): prints the seed, the report and the throughput to standard output.
pub async fn command(args: &Args, db: &Path, config: &Config) -> Result<()> {
    if !db.exists() && !db.to_str().is_some_and(crate::store::is_postgres_url) {
        bail!(
            "there is no database at {} (give --db PATH, or --config with a [database] path)",
            db.display()
        );
    }
    // The characters are read through the store, on either backend.
    let store = Store::open_at(db).await?;
    let wanted = match &args.game {
        Some(id) => Some(crate::games::find(id).with_context(|| {
            format!(
                "'{id}' is not a game Herald referees; the games are {}",
                crate::games::ids()
            )
        })?),
        None => None,
    };
    let psiknight = wanted.is_none_or(|g| g.id == crate::games::PSIKNIGHT.id);
    let knights = match psiknight {
        true => Some(knights(&store, &args.realm, [&args.knight_a, &args.knight_b]).await),
        false => None,
    };
    let [a, b] = match knights {
        Some(Ok(found)) => found,
        other => {
            let names = [args.knight_a.as_str(), args.knight_b.as_str()];
            let realm = store.realm(&args.realm).await?;
            let day = chrono::Utc::now().format("%Y-%m-%d").to_string();
            for game in crate::games::GAMES {
                if wanted.is_some_and(|w| w.id != game.id) {
                    continue;
                }
                let Some(find) = game.matchup else { continue };
                if let Some(m) = find(&store, config, realm, names, &day).await? {
                    return simulate_matchup(args, &m);
                }
            }
            return match other {
                Some(Err(e)) if wanted.is_none() => Err(e.context(format!(
                    "nor are {} and {} characters of another game in realm {}",
                    args.knight_a, args.knight_b, args.realm
                ))),
                Some(Err(e)) => Err(e),
                _ => bail!(
                    "{} and {} are not both characters of {} in realm {}",
                    args.knight_a,
                    args.knight_b,
                    wanted.map_or("any game", |g| g.name),
                    args.realm
                ),
            };
        }
    };
    let (a, b) = (&a, &b);
    let seed = args.seed.unwrap_or_else(rand::random);
    let kind = MatchKind::from(args.kind);
    println!("seed {seed}");
    let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let bar = (args.fights >= PROGRESS_FROM && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(u64::from(args.fights));
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} fights, {rate} fights/s, {eta} left",
        ) {
            bar.set_style(style.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", grouped(state.per_sec() as u64));
                },
            ));
        }
        bar
    });
    let started = Instant::now();
    let odds = odds_with(&a.sheet, &b.sheet, args.fights, seed, kind, threads, &|n| {
        if let Some(bar) = &bar {
            bar.inc(u64::from(n));
        }
    });
    let secs = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    print!("{}", odds.report(&a.sheet.name, &b.sheet.name));
    println!(
        "{} fights in {secs:.3} s on {threads} thread{}: {} fights/s",
        grouped(u64::from(odds.fights)),
        if threads == 1 { "" } else { "s" },
        grouped((f64::from(odds.fights) / secs.max(1e-9)) as u64),
    );
    println!(
        "repeat: herald simulate {} {} --fights {} --kind {} --realm {} --seed {seed}",
        shell_word(&a.sheet.name),
        shell_word(&b.sheet.name),
        args.fights,
        match args.kind {
            Kind::Practice => "practice",
            Kind::Lists => "lists",
        },
        shell_word(&args.realm),
    );
    Ok(())
}

/// `herald simulate` of two characters of a game on the seam.
fn simulate_matchup(args: &Args, m: &Matchup) -> Result<()> {
    let seed = args.seed.unwrap_or_else(rand::random);
    println!("seed {seed}");
    let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let started = Instant::now();
    let odds = m.run(args.fights, seed, threads, &|_| {});
    let secs = started.elapsed().as_secs_f64();
    let [a, b] = &m.styled;
    println!(
        "{} fights of {}, {a} v {b}, default policy, seed {seed}",
        grouped(u64::from(odds.fights)),
        m.game
    );
    let width = a.chars().count().max(b.chars().count()).max(6) + 6;
    println!("{:width$}  {:>7}  95% interval", "", "rate");
    for (label, count) in [
        (format!("{a} wins"), odds.wins[0]),
        ("draws".to_string(), odds.draws),
        (format!("{b} wins"), odds.wins[1]),
    ] {
        let (low, high) = wilson(count, odds.fights);
        println!(
            "{label:width$}  {:>7}  {} – {}",
            pct2(odds.rate(count)),
            pct2(low),
            pct2(high)
        );
    }
    for (reason, counts) in &odds.reasons {
        println!(
            "{:width$}  {} {} / {} {}",
            format!("won {reason}"),
            a,
            pct2(odds.rate(counts[0])),
            b,
            pct2(odds.rate(counts[1]))
        );
    }
    if odds.unfinished > 0 {
        println!("{:width$}  {}", "unfinished", odds.unfinished);
    }
    println!(
        "{} fights in {secs:.3} s on {threads} thread{}: {} fights/s",
        grouped(u64::from(odds.fights)),
        if threads == 1 { "" } else { "s" },
        grouped((f64::from(odds.fights) / secs.max(1e-9)) as u64),
    );
    println!(
        "repeat: herald simulate {} {} --game {} --fights {} --realm {} --seed {seed}",
        shell_word(&m.plain[0]),
        shell_word(&m.plain[1]),
        crate::games::GAMES
            .iter()
            .find(|g| g.name == m.game)
            .map_or("", |g| g.id),
        args.fights,
        shell_word(&args.realm),
    );
    Ok(())
}

/// Both knights from the books, by name (case-insensitively), or an error naming the one missing.
async fn knights(store: &Store, realm: &str, names: [&str; 2]) -> Result<[KnightRecord; 2]> {
    let realm_id = store.realm(realm).await?;
    let [a, b] = names;
    let find = |name: &str| {
        let name = name.to_string();
        async move {
            store
                .knight_named(realm_id, &name)
                .await?
                .with_context(|| format!("there is no knight named {name} in realm {realm}"))
        }
    };
    Ok([find(a).await?, find(b).await?])
}

/// A word as a shell would need it: quoted when it holds anything but letters, digits and `-_.`.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_engine::psiknight::{Monarch, Style};

    fn alan() -> KnightSheet {
        KnightSheet::new(
            "Alan",
            Style::Sir,
            Monarch::Ragnar,
            [40, 40, 40, 30, 30, 30],
            [20, 20, 0, 0, 0, 0, 0],
        )
    }

    fn brenna() -> KnightSheet {
        KnightSheet::new(
            "Brenna",
            Style::Dame,
            Monarch::Seonaid,
            [30, 30, 30, 40, 40, 40],
            [0, 0, 40, 0, 0, 0, 0],
        )
    }

    /// Ector and Gimby of The Tourney's worked example, fresh.
    fn tourney_setup() -> herald_engine::tourney::BoutSetup {
        use herald_engine::tourney::{BoutSetup, Entrant, NewTourneyKnight, Tables, Weapon};
        let knight = |name: &str, skills: Option<Vec<(Weapon, u8)>>, strength| Entrant {
            sheet: NewTourneyKnight {
                name: name.into(),
                skills,
                strength,
                ..Default::default()
            }
            .create(false)
            .unwrap(),
            state: Default::default(),
        };
        BoutSetup {
            knights: [
                knight("Ector", None, None),
                knight(
                    "Gimby",
                    Some(vec![(Weapon::Broadsword, 4), (Weapon::Dagger, 1)]),
                    Some(5),
                ),
            ],
            tables: Tables::default(),
        }
    }

    // T18, T19: no draw in The Tourney; the same seed gives the same odds on any number of threads.
    #[test]
    fn bout_odds_repeat_on_any_number_of_threads_and_add_up() {
        use herald_engine::tourney::Bout;
        let setup = tourney_setup();
        let one = bout_odds::<Bout>(&setup, 3 * BLOCK + 17, 5, 1, &|_| {});
        let two = bout_odds::<Bout>(&setup, 3 * BLOCK + 17, 5, 2, &|_| {});
        assert_eq!(one, two);
        assert_eq!(one.fights, 3 * BLOCK + 17);
        assert_eq!(
            one.wins[0] + one.wins[1] + one.draws + one.unfinished,
            one.fights
        );
        assert_eq!(one.draws, 0);
        let by_reason: u32 = one.reasons.iter().map(|(_, c)| c[0] + c[1]).sum();
        assert_eq!(by_reason, one.wins[0] + one.wins[1]);
        assert!(one.wins[0] > one.wins[1], "broadsword 6 beats 4: {one:?}");
    }

    #[test]
    fn wilson_interval_has_the_textbook_values() {
        // 50 of 100: 0.4038 to 0.5962 (Wilson 1927; Newcombe 1998, method 3).
        let (low, high) = wilson(50, 100);
        assert!((low - 0.4038).abs() < 1e-4, "{low}");
        assert!((high - 0.5962).abs() < 1e-4, "{high}");
        // 0 of 10: 0 to 0.2775, never below zero.
        let (low, high) = wilson(0, 10);
        assert_eq!(low, 0.0);
        assert!((high - 0.2775).abs() < 1e-4, "{high}");
        // 10 of 10: the mirror image.
        let (low, high) = wilson(10, 10);
        assert!((low - 0.7225).abs() < 1e-4, "{low}");
        assert_eq!(high, 1.0);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn counts_add_up() {
        let odds = odds_with(
            &alan(),
            &brenna(),
            10_000,
            7,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        assert_eq!(odds.fights, 10_000);
        assert_eq!(
            odds.wins[0] + odds.wins[1] + odds.draws + odds.unfinished,
            10_000
        );
        // Every practice Joust rides 1 to 3 passes.
        assert!(odds.passes >= 10_000 && odds.passes <= 30_000, "{odds:?}");
        // A fight won by the damage table ended on a Kill result rolled by the winner.
        for side in [0, 1] {
            assert!(odds.kills[side] <= odds.damage[side][0], "{odds:?}");
            assert!(odds.kills[side] + odds.second_arm_kills[side] <= odds.wins[side]);
        }
    }

    #[test]
    fn practice_fights_go_on_to_swordplay() {
        // R41 with the simulation's policy: both agree, so Swordplay follows every Joust that
        // did not end on a major injury, and it decides nearly every fight (R27).
        let odds = odds_with(
            &alan(),
            &brenna(),
            4_000,
            1,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        assert!(odds.swordplay > 3_900, "{odds:?}");
        assert!(odds.draws < 100, "{odds:?}");
    }

    #[test]
    fn lists_matches_end_on_an_unhorsing() {
        // R35: an unhorsed knight loses at once, so Swordplay is fought only when nobody fell
        // or both did.
        let odds = odds_with(&alan(), &brenna(), 4_000, 3, MatchKind::Lists, 1, &|_| {});
        assert!(odds.unhorsed[0] > 0 && odds.unhorsed[1] > 0, "{odds:?}");
        assert!(odds.swordplay < odds.fights, "{odds:?}");
        // A fight with no Swordplay was ended by a fall.
        assert!(
            odds.swordplay + odds.unhorsed[0] + odds.unhorsed[1] >= odds.fights,
            "{odds:?}"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_odds_on_any_number_of_threads() {
        let one = odds_with(
            &alan(),
            &brenna(),
            3 * BLOCK + 17,
            42,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        let two = odds_with(
            &alan(),
            &brenna(),
            3 * BLOCK + 17,
            42,
            MatchKind::Practice,
            2,
            &|_| {},
        );
        let four = odds_with(
            &alan(),
            &brenna(),
            3 * BLOCK + 17,
            42,
            MatchKind::Practice,
            4,
            &|_| {},
        );
        assert_eq!(one, two);
        assert_eq!(one, four);
        let other = odds_with(
            &alan(),
            &brenna(),
            3 * BLOCK + 17,
            43,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        assert_ne!(one, other);
    }

    #[test]
    fn progress_counts_every_fight_once() {
        let seen = AtomicU32::new(0);
        let odds = odds_with(
            &alan(),
            &brenna(),
            2 * BLOCK + 5,
            9,
            MatchKind::Practice,
            2,
            &|n| {
                seen.fetch_add(n, Ordering::Relaxed);
            },
        );
        assert_eq!(seen.load(Ordering::Relaxed), 2 * BLOCK + 5);
        assert_eq!(odds.fights, 2 * BLOCK + 5);
    }

    #[test]
    fn names_do_not_change_the_odds() {
        let mut renamed = alan();
        renamed.name = "Someone Else".into();
        let a = odds_with(
            &alan(),
            &brenna(),
            1_000,
            5,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        let b = odds_with(
            &renamed,
            &brenna(),
            1_000,
            5,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        assert_eq!(a, b);
    }

    #[test]
    fn a_knight_against_itself_is_an_even_fight() {
        // Same sheet both sides: the only asymmetry is the challenger striking first under 6D,
        // so each wins close to half of what is won.
        let odds = odds_with(
            &alan(),
            &alan(),
            20_000,
            11,
            MatchKind::Practice,
            2,
            &|_| {},
        );
        let won = f64::from(odds.wins[0] + odds.wins[1]);
        let share = f64::from(odds.wins[0]) / won;
        assert!((0.45..0.55).contains(&share), "{odds:?}");
    }

    #[test]
    fn the_chat_summary_is_one_line_with_the_figures() {
        let odds = odds_with(
            &alan(),
            &brenna(),
            2_000,
            3,
            MatchKind::Practice,
            1,
            &|_| {},
        );
        let line = odds.summary("Alan", "Brenna");
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.starts_with("Alan v Brenna, 2,000 practice fights: Alan wins "),
            "{line}"
        );
        assert!(line.contains(&format!("(seed {})", 3)), "{line}");
        let (low, high) = odds.interval(odds.wins[0]);
        assert!(
            line.contains(&format!("({:.1}–{:.1})", 100.0 * low, 100.0 * high)),
            "{line}"
        );
        assert!(line.len() < 400, "{} bytes: {line}", line.len());
    }

    #[test]
    fn the_report_names_both_knights_and_every_figure() {
        let odds = odds_with(&alan(), &brenna(), 1_000, 3, MatchKind::Lists, 1, &|_| {});
        let report = odds.report("Alan", "Brenna");
        for needle in [
            "1,000 Lists matches, Alan v Brenna",
            "Alan wins",
            "draws",
            "Brenna wins",
            "unhorsed in the Joust",
            "Joust passes",
            "Swordplay followed",
            "second arm hit",
            "Brenna's damage rolls",
        ] {
            assert!(report.contains(needle), "{needle:?} missing from\n{report}");
        }
    }

    #[tokio::test]
    async fn knights_are_found_by_name_in_their_realm() {
        let store = Store::open_memory().await.expect("a database");
        let local = store.realm("local").await.expect("a realm");
        let at = chrono::Utc::now();
        store
            .create_knight(local, "ann", &alan(), at)
            .await
            .expect("Alan");
        store
            .create_knight(local, "bob", &brenna(), at)
            .await
            .expect("Brenna");
        let [a, b] = knights(&store, "local", ["alan", "BRENNA"])
            .await
            .expect("both");
        assert_eq!(a.sheet.name, "Alan");
        assert_eq!(b.sheet.name, "Brenna");
        let missing = knights(&store, "local", ["Alan", "Cedric"])
            .await
            .unwrap_err();
        assert_eq!(
            missing.to_string(),
            "there is no knight named Cedric in realm local"
        );
        let elsewhere = knights(&store, "irc.example", ["Alan", "Brenna"])
            .await
            .unwrap_err();
        assert_eq!(
            elsewhere.to_string(),
            "there is no knight named Alan in realm irc.example"
        );
    }

    #[tokio::test]
    async fn a_missing_database_is_not_created() {
        let dir = tempfile::tempdir().expect("a directory");
        let db = dir.path().join("nowhere.db");
        let args = Args {
            knight_a: "Alan".into(),
            knight_b: "Brenna".into(),
            fights: 10,
            kind: Kind::Practice,
            seed: Some(1),
            realm: "local".into(),
            game: None,
        };
        let err = command(&args, &db, &Config::default()).await.unwrap_err();
        assert!(
            err.to_string().starts_with("there is no database at "),
            "{err}"
        );
        assert!(!db.exists());
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("Alan"), "Alan");
        assert_eq!(shell_word("Mary Anne"), "'Mary Anne'");
        assert_eq!(shell_word("O'Neil"), r"'O'\''Neil'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn blocks_draw_from_different_streams() {
        assert_ne!(block_seed(1, 0), block_seed(1, 1));
        assert_ne!(block_seed(1, 0), block_seed(2, 0));
        assert_ne!(block_seed(1, 0), seed_from_u64(1));
    }
}
