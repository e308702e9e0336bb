//! PFP duels per second on one core: Ann against Bo (power 2, health 6) with the default
//! policy (PF37) and seeded dice. Run with `cargo bench -p herald-engine --bench pfpduel [N]`.

use herald_engine::dice::SeededDice;
use herald_engine::game::Discard;
use herald_engine::pfpduel::{Duel, DuelSetup, Entrant, House, NewPsionist};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let make = |name: &str| {
        let sheet = NewPsionist {
            name: name.into(),
            ..Default::default()
        }
        .create(false, House::default())
        .expect("a player's psionist");
        Entrant {
            health: sheet.health,
            sheet,
        }
    };
    let setup = DuelSetup {
        minds: [make("Ann"), make("Bo")],
    };
    let n: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut dice = SeededDice::from_u64(1);
    let mut rounds = 0u64;
    let mut ended = 0u32;
    let t = Instant::now();
    for _ in 0..n {
        let mut d = Duel::start_into(setup.clone(), &mut dice, &mut Discard);
        ended += u32::from(d.play_out(&mut dice, &mut Discard, 100_000));
        rounds += u64::from(d.round());
        black_box(&d);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "pfpduel, outcomes only: {:.0} fights/s ({n} in {secs:.2}s, {:.1} rounds a fight, {ended} ended)",
        f64::from(n) / secs,
        rounds as f64 / f64::from(n)
    );
}
