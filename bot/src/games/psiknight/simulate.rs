//! PsiKnight's `herald simulate` and `/odds`: Monte-Carlo odds between two knights.
//!
//! Both knights fight with the engine's default decision policy ([`Policy`]: no sweep, High,
//! Attack, the best counter, no psi). In a practice fight the policy also agrees to Swordplay
//! after the Joust (`Policy { fight_on: true }`): a timeout would decline it (R41), but the odds
//! players ask for are those of a whole fight, and a Joust-only practice is decided by a single
//! unhorsing. A Lists match goes on to Swordplay by its own rule when nobody was unhorsed, or
//! both were (R35).
//!
//! Fights are dealt out in the blocks of [`crate::simulate::in_blocks`], so the result depends
//! only on the two sheets, the kind, the number of fights and the seed, never on how many
//! threads ran them; besides wins, it counts unhorsings, passes, Swordplay and damage rolls.

use crate::config::Config;
use crate::simulate::{
    add, block_seed, grouped, in_blocks, pct, pct2, pct_bare, wilson, Args, Kind, Lookup, Matchup,
    Report, MAX_DECISIONS,
};
use crate::store::{Id, KnightRecord, Store};
use anyhow::{Context, Result};
use futures::future::BoxFuture;
use herald_engine::dice::SeededDice;
use herald_engine::psiknight::event::{DamageResult, EndReason};
use herald_engine::psiknight::policy::Policy;
use herald_engine::psiknight::{
    Event, EventSink, KnightSheet, Match, MatchKind, MatchSetup, Opening, Side,
};
use std::fmt::Write as _;
use std::num::NonZeroUsize;

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

impl From<Kind> for MatchKind {
    fn from(kind: Kind) -> MatchKind {
        match kind {
            Kind::Practice => MatchKind::Practice,
            Kind::Lists => MatchKind::Lists,
        }
    }
}

/// PsiKnight's `herald simulate` ([`crate::games::GameInfo::matchup`]): two knights of the
/// books by name, in a match of `--kind`; missing, with the knight not found.
pub fn matchup<'a>(
    store: &'a Store,
    config: &'a Config,
    _realm: Id,
    names: [&'a str; 2],
    _day: &'a str,
    args: &'a Args,
) -> BoxFuture<'a, Result<Lookup>> {
    Box::pin(async move {
        let [a, b] = match knights(store, config.realm_of(&args.realm), names).await {
            Ok(found) => found,
            Err(e) => return Ok(Lookup::Missing(Some(e))),
        };
        let kind = MatchKind::from(args.kind);
        let plain = [a.sheet.name.clone(), b.sheet.name.clone()];
        let word = match args.kind {
            Kind::Practice => "practice",
            Kind::Lists => "lists",
        };
        let repeat = format!("--fights {} --kind {word}", args.fights);
        Ok(Lookup::Found(Matchup::new(
            plain,
            [a.styled(), b.styled()],
            repeat,
            move |fights, seed, threads, progress| {
                let odds = odds_with(&a.sheet, &b.sheet, fights, seed, kind, threads, progress);
                Report {
                    fights: odds.fights,
                    wins: odds.wins,
                    draws: odds.draws,
                    unfinished: odds.unfinished,
                    text: odds.report(&a.sheet.name, &b.sheet.name),
                }
            },
        )))
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::BLOCK;
    use herald_engine::psiknight::{Monarch, Style};
    use std::sync::atomic::{AtomicU32, Ordering};

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
}
