//! Tourney bouts per second on one core: Sir Ector against Sir Gimby with the default policy
//! (T19) and seeded dice. Run with `cargo bench -p herald-engine --bench tourney [N]`.

use herald_engine::dice::SeededDice;
use herald_engine::game::Discard;
use herald_engine::tourney::{
    Bout, BoutSetup, Entrant, NewTourneyKnight, Tables, TourneyState, Weapon,
};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let ector = NewTourneyKnight {
        name: "Ector".into(),
        ..Default::default()
    }
    .create(false)
    .expect("the default knight");
    let gimby = NewTourneyKnight {
        name: "Gimby".into(),
        skills: Some(vec![(Weapon::Broadsword, 4), (Weapon::Dagger, 1)]),
        strength: Some(5),
        ..Default::default()
    }
    .create(false)
    .expect("Gimby");
    let setup = BoutSetup {
        knights: [
            Entrant {
                sheet: ector,
                state: TourneyState::default(),
            },
            Entrant {
                sheet: gimby,
                state: TourneyState::default(),
            },
        ],
        tables: Tables::default(),
    };
    let n: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2_000_000);

    let mut dice = SeededDice::from_u64(1);
    let mut rounds = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        // The setup's clone (two names, one table) is the only allocation of a bout.
        let mut b = Bout::start_into(setup.clone(), &mut dice, &mut Discard);
        b.play_out(&mut dice, &mut Discard, 10_000);
        rounds += u64::from(b.round());
        black_box(&b);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "tourney, outcomes only (as simulations run): {:.0} fights/s ({n} in {secs:.2}s, {:.1} rounds a bout)",
        f64::from(n) / secs,
        rounds as f64 / f64::from(n)
    );

    let mut events = Vec::with_capacity(256);
    let t = Instant::now();
    for _ in 0..n {
        events.clear();
        let mut b = Bout::start_into(setup.clone(), &mut dice, &mut events);
        b.play_out(&mut dice, &mut events, 10_000);
        black_box(&b);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "tourney, every event kept: {:.0} fights/s ({n} in {secs:.2}s)",
        f64::from(n) / secs
    );
}
