//! The `/roll` notation against any bytes: never panics; what parses stays inside the bounds,
//! prints in a canonical form that parses back to the same expression, and rolls a total inside
//! its own `min..=max` with a one-line breakdown.
#![no_main]

use herald_engine::dice::SeededDice;
use herald_engine::notation::{parse, MAX_CHARS, MAX_DICE, MAX_TERMS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let expr = match parse(&input) {
        Ok(expr) => expr,
        Err(e) => {
            let reply = e.to_string();
            assert!(!reply.is_empty() && !reply.contains(['\n', '\r']), "{reply:?}");
            assert!(e.column() >= 1 && e.column() <= input.chars().count() + 1);
            return;
        }
    };
    assert!(input.chars().count() <= MAX_CHARS);
    assert!(expr.terms().len() <= MAX_TERMS);
    assert!(expr.dice_count() <= MAX_DICE);
    assert_eq!(parse(&expr.to_string()), Ok(expr.clone()), "{input:?}");
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    let rolled = expr.roll(&mut SeededDice::from_u64(seed));
    assert!(
        (expr.min()..=expr.max()).contains(&rolled.total),
        "{expr} rolled {} outside {}..={}",
        rolled.total,
        expr.min(),
        expr.max()
    );
    assert_eq!(rolled.term_totals().sum::<i64>(), rolled.total);
    assert!(!rolled.to_string().contains('\n'));
});
