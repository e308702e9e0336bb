//! Psionic combats per second on one core: the worked example's Ash against Brim, then three
//! against three (PC33), all by the default policy (PC37), seeded dice, events discarded. Run
//! with `cargo bench -p herald-engine --bench powerpool [N]`.

use herald_engine::dice::SeededDice;
use herald_engine::game::{Discard, Fight};
use herald_engine::powerpool::{
    AttackMode, Combat, DefenseMode, Entrant, Kind, NewCreature, Rules, Setup, State,
};
use std::hint::black_box;
use std::time::Instant;

fn entrant(n: NewCreature) -> Entrant {
    let sheet = n.create(false, &Rules::default()).expect("a legal sheet");
    let state = State::fresh(&sheet);
    Entrant { sheet, state }
}

fn main() {
    let ash = entrant(NewCreature {
        name: "Ash".into(),
        kind: Some(Kind::Psionicist),
        hd: Some(8),
        attacks: vec![
            AttackMode::Stab,
            AttackMode::Overload,
            AttackMode::Subversion,
        ],
        defenses: vec![
            DefenseMode::Mantra,
            DefenseMode::Pinnacle,
            DefenseMode::Labyrinth,
        ],
        ..Default::default()
    });
    let brim = entrant(NewCreature {
        name: "Brim".into(),
        kind: Some(Kind::Wild),
        hd: Some(8),
        die: Some(6),
        attacks: vec![AttackMode::Overload],
        defenses: vec![DefenseMode::Blank],
        spells: vec![3, 2, 1],
        ..Default::default()
    });
    let n: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let duel = Setup::duel(ash.clone(), brim.clone(), Rules::default());
    measure("powerpool, outcomes only", &duel, n);
    let creature = |name: &str, kind, hd, die, attacks: Vec<AttackMode>, defenses| {
        entrant(NewCreature {
            name: name.into(),
            kind: Some(kind),
            hd: Some(hd),
            die,
            attacks,
            defenses,
            ..Default::default()
        })
    };
    let cai = creature(
        "Cai",
        Kind::Psionicist,
        4,
        None,
        vec![AttackMode::Stab, AttackMode::Wave],
        vec![DefenseMode::Swarm],
    );
    let dun = creature("Dun", Kind::None, 4, Some(6), vec![], vec![]);
    let eve = creature(
        "Eve",
        Kind::Psionicist,
        4,
        None,
        vec![AttackMode::Stab, AttackMode::Invasion],
        vec![DefenseMode::Mantra],
    );
    let fen = creature("Fen", Kind::None, 2, Some(8), vec![], vec![]);
    let groups = Setup {
        creatures: vec![ash, cai, dun, brim, eve, fen].into(),
        challengers: 3,
        rules: Rules::default(),
    };
    measure("powerpool three against three, outcomes only", &groups, n);
}

/// Plays `n` fights of `setup` and prints the rate.
fn measure(label: &str, setup: &Setup, n: u32) {
    let mut dice = SeededDice::from_u64(1);
    let mut rounds = 0u64;
    // A digest of every outcome, so that a faster engine can be seen to give the same fights.
    let mut digest = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        let mut f = Combat::start_into(setup.clone(), &mut dice, &mut Discard);
        f.play_out(&mut dice, &mut Discard, 10_000);
        rounds += u64::from(f.round());
        let o = f.outcome();
        digest = digest.rotate_left(5).wrapping_add(
            u64::from(f.round()) * 7
                + o.map_or(0, |o| o.winner.map_or(1, |w| 2 + w.index() as u64)),
        );
        black_box(&f);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{label}: {:.0} fights/s on one core ({n} in {secs:.2}s, {:.1} rounds a fight, digest {digest:016x})",
        f64::from(n) / secs,
        rounds as f64 / f64::from(n)
    );
}
