//! Psi Morphs fights per second on one core: the worked example's Ann against Bo, both by the
//! default policy (PM15), seeded dice, events discarded, through the contract's
//! `start_into`/`play_out` as `herald simulate` runs them. Run with
//! `cargo bench -p herald-engine --bench psimorphs [N]`.

use herald_engine::dice::SeededDice;
use herald_engine::game::{Discard, Fight};
use herald_engine::psimorphs::{
    parse_pairs, Entrant, FightSetup, MorphFight, MorphSheet, MorphState, NewMorph, Tables,
};
use std::hint::black_box;
use std::time::Instant;

fn morph(name: &str, attrs: [u32; 6], ranks: &str, master: &str, isp: Option<&str>) -> Entrant {
    let sheet: MorphSheet = NewMorph {
        attributes: attrs.map(Some),
        ranks: Some(parse_pairs(ranks).expect("ranks")),
        master: (!master.is_empty()).then(|| parse_pairs(master).expect("master")),
        isp: isp.map(|i| parse_pairs(i).expect("isp")),
        ..NewMorph::default()
    }
    .create(false, &Tables::default().budget)
    .expect("a legal sheet");
    Entrant {
        name: name.into(),
        owner: Some(name.to_lowercase()),
        state: MorphState::fresh(&sheet, "2026-12-01"),
        sheet,
    }
}

fn main() {
    let setup = FightSetup {
        morphs: [
            morph(
                "Ann",
                [5, 4, 3, 3, 3, 3],
                "combat:3,physical:1,energy:3,atom:1",
                "combat:1",
                None,
            ),
            morph(
                "Bo",
                [3, 4, 4, 4, 3, 3],
                "combat:2,physical:3,mental:1,energy:2",
                "",
                Some("energy:2,general:3"),
            ),
        ],
        tables: Tables::default(),
    };
    let n: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let mut dice = SeededDice::from_u64(1);
    let (mut rounds, mut wins) = (0u64, 0u64);
    let t = Instant::now();
    for _ in 0..n {
        let mut f = MorphFight::start_into(setup.clone(), &mut dice, &mut Discard);
        f.play_out(&mut dice, &mut Discard, 10_000);
        rounds += u64::from(f.round());
        wins += u64::from(
            f.result()
                .and_then(|r| r.winner)
                .is_some_and(|w| w.index() == 0),
        );
        black_box(&f);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "psimorphs, outcomes only: {:.0} fights/s on one core ({n} in {secs:.2}s, {:.1} rounds a fight, Ann wins {:.1}%)",
        f64::from(n) / secs,
        rounds as f64 / f64::from(n),
        100.0 * wins as f64 / f64::from(n)
    );
}
