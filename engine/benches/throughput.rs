//! Full practice matches per second on one core: Joust, then Swordplay, with the default policy
//! (agreeing to fight on) and seeded dice. Run with `cargo bench -p herald-engine --bench throughput`.

use herald_engine::dice::SeededDice;
use herald_engine::psiknight::policy::Policy;
use herald_engine::psiknight::{
    Discard, KnightSheet, Match, MatchKind, MatchSetup, Monarch, Opening, Style,
};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let a = KnightSheet::new(
        "Alan",
        Style::Sir,
        Monarch::Ragnar,
        [40, 40, 40, 30, 30, 30],
        [20, 20, 0, 0, 0, 0, 0],
    );
    let b = KnightSheet::new(
        "Brenna",
        Style::Dame,
        Monarch::Seonaid,
        [30, 30, 30, 40, 40, 40],
        [0, 0, 40, 0, 0, 0, 0],
    );
    for (label, policy) in [
        ("practice, Joust only (timeout policy)", Policy::default()),
        ("practice, Joust then Swordplay", Policy { fight_on: true }),
    ] {
        let mut dice = SeededDice::from_u64(1);
        let mut events = Vec::with_capacity(256);
        let setup = MatchSetup {
            kind: MatchKind::Practice,
            opening: Opening::Joust,
            knights: [a.clone(), b.clone()],
            armed: [None, None],
        };
        let n: u32 = std::env::args()
            .skip(1)
            .find_map(|a| a.parse().ok())
            .unwrap_or(1_000_000);
        let mut swordplay = 0u32;
        let t = Instant::now();
        for _ in 0..n {
            events.clear();
            let mut m = Match::start_into(setup.clone(), &mut dice, &mut events);
            policy.play_out(&mut m, &mut dice, &mut events, 10_000);
            swordplay += u32::from(m.outcome().is_some_and(|o| o.swordplay));
            black_box(&m);
        }
        let secs_events = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..n {
            let mut m = Match::start_into(setup.clone(), &mut dice, &mut Discard);
            policy.play_out(&mut m, &mut dice, &mut Discard, 10_000);
            black_box(&m);
        }
        let secs_quiet = t.elapsed().as_secs_f64();
        println!(
            "{label}, outcomes only (as simulations run): {:.0} matches/s",
            f64::from(n) / secs_quiet
        );
        let secs = secs_events;
        println!(
            "{label}, every event kept: {:.0} matches/s ({n} in {secs:.2}s; {:.1}% with Swordplay)",
            f64::from(n) / secs,
            100.0 * f64::from(swordplay) / f64::from(n)
        );
    }
}
