//! Throughput of the `/roll` dice notation: parse and roll, one core.
//!
//! `cargo bench -p herald-engine --bench notation`. The target is at least 5,000,000 parses and
//! rolls of `1d100` per second.

use herald_engine::dice::SeededDice;
use herald_engine::notation::{self, Expr};
use std::hint::black_box;
use std::time::Instant;

const ITERATIONS: u32 = 5_000_000;

/// Runs `f` a tenth of `ITERATIONS` times to warm up, then `ITERATIONS` times under the clock,
/// and prints operations per second.
fn bench(name: &str, mut f: impl FnMut() -> i64) {
    for _ in 0..ITERATIONS / 10 {
        black_box(f());
    }
    let start = Instant::now();
    let mut sink: i64 = 0;
    for _ in 0..ITERATIONS {
        sink = sink.wrapping_add(black_box(f()));
    }
    let seconds = start.elapsed().as_secs_f64();
    black_box(sink);
    let per_second = f64::from(ITERATIONS) / seconds;
    let nanos = seconds * 1e9 / f64::from(ITERATIONS);
    println!("{name:<32} {per_second:>14.0} ops/s {nanos:>8.1} ns/op");
}

fn main() {
    let mut dice = SeededDice::from_u64(42);
    for input in ["1d100", "2d10!", "4d6kh3"] {
        bench(&format!("parse+roll {input}"), || {
            match notation::roll(black_box(input), &mut dice) {
                Ok(rolled) => rolled.total,
                Err(_) => -1,
            }
        });
    }
    bench("parse 1d100", || {
        match notation::parse(black_box("1d100")) {
            Ok(expr) => i64::from(expr.dice_count()),
            Err(_) => -1,
        }
    });
    let expr: Expr = match "1d100".parse() {
        Ok(expr) => expr,
        Err(e) => {
            eprintln!("1d100 did not parse: {e}");
            return;
        }
    };
    bench("roll 1d100 (pre-parsed)", || {
        black_box(&expr).roll(&mut dice).total
    });
    let mut length = 0u64;
    bench("parse+roll+display 4d6kh3", || {
        match notation::roll(black_box("4d6kh3"), &mut dice) {
            Ok(rolled) => {
                let text = rolled.to_string();
                length = length.wrapping_add(text.len() as u64);
                rolled.total
            }
            Err(_) => -1,
        }
    });
    black_box(length);
}
