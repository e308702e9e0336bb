//! `herald simulate` and the chat's `/odds` for any game: Monte-Carlo odds between two
//! characters (or two groups), both sides by the game's default policy.
//!
//! Fights are dealt out in blocks of [`BLOCK`], each block with its own dice derived from the
//! master seed, and the blocks' counts are summed ([`in_blocks`]). The result therefore depends
//! only on the setup, the number of fights and the seed, never on how many threads ran them: a
//! printed seed repeats a run exactly, on any machine. A game on the seam is simulated through
//! the contract ([`bout_odds`]); a game may count more of its own (PsiKnight's unhorsings and
//! damage rolls) through its [`crate::games::GameInfo::matchup`], in the same blocks.

use crate::config::Config;
use crate::games::Game;
use crate::store::{Id, Store};
use anyhow::{bail, Context, Result};
use futures::future::BoxFuture;
use herald_engine::dice::{seed_from_u64, Seed, SeededDice};
use herald_engine::game::{Discard, Fight};
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
pub const MAX_DECISIONS: usize = 10_000;

/// A fraction as a percentage with one decimal: "42.5%".
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// As [`pct`], without the sign.
pub fn pct_bare(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// A fraction as a percentage with two decimals: "42.50%".
pub fn pct2(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// 1234567 as "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
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

/// The dice of block `block` of a run with master seed `seed`: the master key with the block's
/// number folded into its last eight bytes, so blocks draw from unrelated ChaCha streams.
pub fn block_seed(seed: u64, block: u32) -> Seed {
    let mut key = seed_from_u64(seed);
    let mut tail = [0u8; 8];
    tail.copy_from_slice(&key[24..]);
    let folded = u64::from_le_bytes(tail) ^ (u64::from(block) + 1);
    key[24..].copy_from_slice(&folded.to_le_bytes());
    key
}

/// Adds `more` into `total`, place by place.
pub fn add<const N: usize>(total: &mut [u32; N], more: &[u32; N]) {
    for (t, m) in total.iter_mut().zip(more) {
        *t += m;
    }
}

/// Deals `fights` out in blocks of [`BLOCK`] to at most `threads` threads, each tallying its
/// blocks into its own `T`, and merges the tallies. Which thread runs a block does not change
/// its dice, so the total is the same on any number of threads.
pub fn in_blocks<T: Send>(
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
        self.summary_of(game, [a_name, b_name], [false, false])
    }

    /// [`BoutOdds::summary`] of two sides, either of several creatures (`many`): "Ash and Cai
    /// win".
    pub fn summary_of(&self, game: &str, [a_name, b_name]: [&str; 2], many: [bool; 2]) -> String {
        let [a_wins, b_wins] = many.map(|m| if m { "win" } else { "wins" });
        format!(
            "{a_name} v {b_name}, {} fights of {game}: {a_name} {a_wins} {} ({}), {b_name} {b_wins} {} ({}), draws {} (seed {}).",
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

/// What a simulation printed as its report, and how many fights it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Fights run.
    pub fights: u32,
    /// Fights each side won, challenger first.
    pub wins: [u32; 2],
    /// Fights neither won.
    pub draws: u32,
    /// Fights cut off before an end.
    pub unfinished: u32,
    /// The report, each line ended.
    pub text: String,
}

/// Two characters (or groups) of a game, as they stand today, ready to be simulated.
pub struct Matchup {
    /// "Ector", "Ash,Cai": as the command line names each side.
    pub plain: [String; 2],
    /// "Sir Ector", "Ash and Cai": each side as narration names it.
    pub styled: [String; 2],
    /// The options of the `repeat:` line between the names and `--realm`: `--game tourney
    /// --fights 5000`.
    pub repeat: String,
    run: Box<RunOdds>,
}

/// A matchup's simulation: fights, seed, threads, progress.
type RunOdds = dyn Fn(u32, u64, usize, &(dyn Fn(u32) + Sync)) -> Report + Send + Sync;

impl Matchup {
    /// A matchup whose simulation is `run` (fights, seed, threads, progress).
    pub fn new(
        plain: [String; 2],
        styled: [String; 2],
        repeat: String,
        run: impl Fn(u32, u64, usize, &(dyn Fn(u32) + Sync)) -> Report + Send + Sync + 'static,
    ) -> Matchup {
        Matchup {
            plain,
            styled,
            repeat,
            run: Box::new(run),
        }
    }

    /// Runs `fights` fights from master seed `seed` on at most `threads` threads.
    pub fn run(
        &self,
        fights: u32,
        seed: u64,
        threads: usize,
        progress: &(dyn Fn(u32) + Sync),
    ) -> Report {
        (self.run)(fights, seed, threads, progress)
    }
}

/// Two characters of a game looked up for `herald simulate`.
pub enum Lookup {
    /// Both found.
    Found(Matchup),
    /// Not both characters of the game; why, when the game says (the one missing).
    Missing(Option<anyhow::Error>),
}

/// The matchup of two characters of `G` named `names` in `realm`, as they read on `day`, for
/// `args`; missing when either is no character of that game.
pub fn matchup<'a, G: Game>(
    store: &'a Store,
    config: &'a Config,
    realm: Id,
    names: [&'a str; 2],
    day: &'a str,
    args: &'a Args,
) -> BoxFuture<'a, Result<Lookup>> {
    Box::pin(async move {
        use crate::store::games::Character;
        let game = G::new(config)?;
        // A side may name several, `Ash,Cai`, in a game of groups (Game::MAX_SIDE).
        let mut sides: [Vec<Character>; 2] = Default::default();
        for (side, names) in names.into_iter().enumerate() {
            for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let Some(mut c) = store.character_named(realm, G::ID, name).await? else {
                    return Ok(Lookup::Missing(None));
                };
                let now = game.as_of(&c, day)?;
                (c.sheet, c.state) = (now.sheet, now.state);
                sides[side].push(c);
            }
        }
        let challengers = sides[0].len();
        let found: Vec<&Character> = sides.iter().flatten().collect();
        // Two are a duel; more need a creature on each side.
        if found.len() != 2 && (challengers == 0 || found.len() <= challengers) {
            return Ok(Lookup::Missing(None));
        }
        let setup = crate::games::setup_of(&game, &found, challengers)?;
        // "Ash and Cai" to read; `Ash,Cai` as the command line names them.
        let styled = |side: &[Character]| {
            crate::reply::and_list(&side.iter().map(|c| game.styled(c)).collect::<Vec<_>>())
        };
        let plain = |side: &[Character]| {
            let names: Vec<&str> = side.iter().map(|c| c.name.as_str()).collect();
            names.join(",")
        };
        let styled = [styled(&sides[0]), styled(&sides[1])];
        let many = sides.each_ref().map(|s| s.len() > 1);
        Ok(Lookup::Found(Matchup::new(
            [plain(&sides[0]), plain(&sides[1])],
            styled.clone(),
            format!("--game {} --fights {}", G::ID, args.fights),
            move |fights, seed, threads, progress| {
                let odds = bout_odds::<G::Fight>(&setup, fights, seed, threads, progress);
                Report {
                    fights: odds.fights,
                    wins: odds.wins,
                    draws: odds.draws,
                    unfinished: odds.unfinished,
                    text: bout_report(&odds, G::NAME, &styled, many),
                }
            },
        )))
    })
}

/// A game on the seam's report: wins, draws and each way of winning, with 95% intervals.
/// The report of `herald simulate` for a game on the seam; a side of several (`many`) wins in
/// the plural.
fn bout_report(odds: &BoutOdds, game: &str, [a, b]: &[String; 2], many: [bool; 2]) -> String {
    let [a_wins, b_wins] = many.map(|m| if m { "win" } else { "wins" });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} fights of {game}, {a} v {b}, default policy, seed {}",
        grouped(u64::from(odds.fights)),
        odds.seed
    );
    let width = a.chars().count().max(b.chars().count()).max(6) + 6;
    let _ = writeln!(out, "{:width$}  {:>7}  95% interval", "", "rate");
    for (label, count) in [
        (format!("{a} {a_wins}"), odds.wins[0]),
        ("draws".to_string(), odds.draws),
        (format!("{b} {b_wins}"), odds.wins[1]),
    ] {
        let (low, high) = wilson(count, odds.fights);
        let _ = writeln!(
            out,
            "{label:width$}  {:>7}  {} – {}",
            pct2(odds.rate(count)),
            pct2(low),
            pct2(high)
        );
    }
    for (reason, counts) in &odds.reasons {
        let _ = writeln!(
            out,
            "{:width$}  {} {} / {} {}",
            format!("won {reason}"),
            a,
            pct2(odds.rate(counts[0])),
            b,
            pct2(odds.rate(counts[1]))
        );
    }
    if odds.unfinished > 0 {
        let _ = writeln!(out, "{:width$}  {}", "unfinished", odds.unfinished);
    }
    out
}

/// The kind of fight `herald simulate --kind` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// A practice fight: three passes, then Swordplay (both agree, by the simulation's policy).
    Practice,
    /// A Lists match: an unhorsing ends it; otherwise Swordplay (R35).
    Lists,
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
    /// The realm of both knights: `local` for the console and scripts, a `[realms.NAME]`'s
    /// name, else the IRC network or Discord guild (one joined to a named realm means that
    /// realm).
    #[arg(long, default_value = crate::app::LOCAL_REALM, value_name = "NAME")]
    pub realm: String,
    /// The game whose characters these are (`psiknight`, `tourney`); by default PsiKnight's
    /// knights, else the first game that has both.
    #[arg(long, value_name = "ID")]
    pub game: Option<String>,
}

/// Runs `herald simulate` against the books at `db`, with the configuration's realm data (a
/// game's house tables): prints the seed, the report and the throughput to standard output.
/// The two are looked up in each game in turn (only `--game`'s when given), the first game
/// first.
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
    let names = [args.knight_a.as_str(), args.knight_b.as_str()];
    // A network or guild joined to a named realm has no books of its own: its realm's are meant.
    let realm_name = config.realm_of(&args.realm);
    let realm = store.realm(realm_name).await?;
    // Recovery goes by the realm's day (R25), in its time zone.
    let tz = crate::config::parse_timezone(
        &format!("[realms.{realm_name}]"),
        &config.realm_settings(realm_name).timezone,
    )?;
    let day = chrono::Utc::now()
        .with_timezone(&tz)
        .format("%Y-%m-%d")
        .to_string();
    // Why the first game that says so did not find the two.
    let mut why: Option<anyhow::Error> = None;
    for game in crate::games::GAMES {
        if wanted.is_some_and(|w| w.id != game.id) {
            continue;
        }
        match (game.matchup)(&store, config, realm, names, &day, args).await? {
            Lookup::Found(m) => return simulate_matchup(args, &m),
            Lookup::Missing(said) => {
                if why.is_none() {
                    why = said;
                }
            }
        }
    }
    match why {
        Some(e) if wanted.is_none() => Err(e.context(format!(
            "nor are {} and {} characters of another game in realm {}",
            args.knight_a, args.knight_b, realm_name
        ))),
        Some(e) => Err(e),
        None => bail!(
            "{} and {} are not both characters of {} in realm {}",
            args.knight_a,
            args.knight_b,
            wanted.map_or("any game", |g| g.name),
            realm_name
        ),
    }
}

/// Runs and prints a matchup: the seed, the game's report, the throughput, and how to repeat
/// the run. From [`PROGRESS_FROM`] fights on, a progress bar on a terminal's standard error.
fn simulate_matchup(args: &Args, m: &Matchup) -> Result<()> {
    let seed = args.seed.unwrap_or_else(rand::random);
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
    let report = m.run(args.fights, seed, threads, &|n| {
        if let Some(bar) = &bar {
            bar.inc(u64::from(n));
        }
    });
    let secs = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    print!("{}", report.text);
    println!(
        "{} fights in {secs:.3} s on {threads} thread{}: {} fights/s",
        grouped(u64::from(report.fights)),
        if threads == 1 { "" } else { "s" },
        grouped((f64::from(report.fights) / secs.max(1e-9)) as u64),
    );
    println!(
        "repeat: herald simulate {} {} {} --realm {} --seed {seed}",
        shell_word(&m.plain[0]),
        shell_word(&m.plain[1]),
        m.repeat,
        shell_word(&args.realm),
    );
    Ok(())
}

/// A word as a shell would need it: quoted when it holds anything but letters, digits and `-_.`.
pub fn shell_word(word: &str) -> String {
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
