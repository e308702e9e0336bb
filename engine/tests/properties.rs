//! Properties of a whole match, for any knights, any dice and any legal play:
//! (a) it never panics, refuses every illegal decision without change, and ends within the cap
//! this test sets; (b) the same setup, dice and decision log replay to the same events and
//! outcome; (c) every event serializes to a JSON object with a snake_case "type".
//!
//! The proptest runner is seeded, so every run tries the same cases (no luck in tests).

use herald_engine::dice::{RollSource, SeededDice};
use herald_engine::psiknight::{
    BonusMode, Decision, Event, KnightSheet, Match, MatchKind, MatchSetup, Monarch, Opening,
    Outcome, PsiSkill, Side, Style,
};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// A Swordplay can in principle go on for ever (both keep missing); this test stops a match
/// after this many decisions and requires it to have ended by then. Nothing in the engine has
/// such a cap.
const MAX_DECISIONS: usize = 10_000;

/// Scripted rolls first (any numbers 1..=100, folded onto the die), then a seeded stream.
#[derive(Clone, Debug)]
struct ScriptThenSeeded {
    script: Vec<u32>,
    next: usize,
    seeded: SeededDice,
    taken: usize,
}

impl ScriptThenSeeded {
    fn new(script: &[u32], seed: u64) -> Self {
        ScriptThenSeeded {
            script: script.to_vec(),
            next: 0,
            seeded: SeededDice::from_u64(seed),
            taken: 0,
        }
    }
}

impl RollSource for ScriptThenSeeded {
    fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        self.taken += 1;
        match self.script.get(self.next) {
            Some(&v) => {
                self.next += 1;
                v.saturating_sub(1) % sides + 1
            }
            None => self.seeded.roll(sides),
        }
    }
}

/// One generated case: the setup, the dice and the choices that drive the play.
#[derive(Clone, Debug)]
struct Case {
    setup: MatchSetup,
    script: Vec<u32>,
    seed: u64,
    choices: Vec<u32>,
}

/// What one play produced.
#[derive(Debug)]
struct Run {
    events: Vec<Event>,
    log: Vec<(Side, Decision)>,
    outcome: Option<Outcome>,
    rolls: usize,
}

fn sheet(name: &'static str) -> impl Strategy<Value = KnightSheet> {
    let skill = prop::sample::select(vec![30u8, 40, 50, 60, 70, 80]);
    let psi = prop::sample::select(vec![0u8, 0, 0, 10, 20, 30, 40, 60, 80]);
    (
        proptest::array::uniform6(skill),
        proptest::array::uniform7(psi),
        any::<bool>(),
    )
        .prop_map(move |(skills, psi, dame)| {
            let style = if dame { Style::Dame } else { Style::Sir };
            KnightSheet::new(name, style, Monarch::Ragnar, skills, psi)
        })
}

fn armed() -> impl Strategy<Value = Option<PsiSkill>> {
    prop_oneof![
        2 => Just(None),
        1 => prop::sample::select(PsiSkill::ALL.to_vec()).prop_map(Some),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let kind = prop::sample::select(vec![
        MatchKind::Practice,
        MatchKind::Lists,
        MatchKind::Melee,
    ]);
    let opening = prop::sample::select(vec![Opening::Joust, Opening::Swordplay]);
    (
        kind,
        opening,
        sheet("Ash"),
        sheet("Bryn"),
        armed(),
        armed(),
        prop::collection::vec(1u32..=100, 0..64),
        any::<u64>(),
        prop::collection::vec(any::<u32>(), 0..400),
    )
        .prop_map(
            |(kind, opening, a, b, armed_a, armed_b, script, seed, choices)| Case {
                setup: MatchSetup {
                    kind,
                    opening,
                    knights: [a, b],
                    armed: [armed_a, armed_b],
                },
                script,
                seed,
                choices,
            },
        )
}

/// Every decision there is, legal now or not.
fn every_decision() -> Vec<Decision> {
    let mut all = vec![
        Decision::Sweep,
        Decision::NoSweep,
        Decision::High,
        Decision::Low,
        Decision::Swordplay,
        Decision::Decline,
        Decision::Attack,
        Decision::Observe,
        Decision::Press,
        Decision::Block,
        Decision::Dodge,
        Decision::Parry,
        Decision::Yield,
        Decision::Bonus(BonusMode::Weaken),
        Decision::Bonus(BonusMode::Attack),
        Decision::Bonus(BonusMode::Defend),
        Decision::Psi(None),
    ];
    all.extend(PsiSkill::ALL.into_iter().map(|s| Decision::Psi(Some(s))));
    all
}

fn side_of(bit: u32) -> Side {
    if bit & 1 == 0 {
        Side::Challenger
    } else {
        Side::Challenged
    }
}

/// The next move the choice `c` makes: a declaration, an arbitrary (maybe illegal) decision, or
/// one of the options of a pending prompt. `None` once the match awaits nothing.
fn pick(m: &Match, c: u32) -> Option<(Side, Decision, bool)> {
    let pending = m.pending();
    if pending.is_empty() {
        return None;
    }
    match c % 16 {
        // A Bonus mode, by a fighter who holds a Bonus (R5).
        0 => {
            let side = side_of(c >> 4);
            if m.bonus(side).0 > 0 {
                let mode = [BonusMode::Weaken, BonusMode::Attack, BonusMode::Defend]
                    [(c >> 5) as usize % 3];
                return Some((side, Decision::Bonus(mode), true));
            }
        }
        // A psi declaration of a learned skill that can still fire, or disarming (R20, R21).
        1 | 2 => {
            let side = side_of(c >> 4);
            let spent = m.in_swordplay() && m.psi_attempts_left(side) == 0;
            let mut choices: Vec<Option<PsiSkill>> = m
                .knight(side)
                .psi_skills()
                .filter(|_| !spent)
                .map(|(s, _)| Some(s))
                .collect();
            choices.push(None);
            let skill = choices[(c >> 5) as usize % choices.len()];
            return Some((side, Decision::Psi(skill), true));
        }
        // Anything at all, from either side: it may be refused.
        3 => {
            let all = every_decision();
            let d = all[(c >> 5) as usize % all.len()];
            return Some((side_of(c >> 4), d, false));
        }
        _ => {}
    }
    let p = &pending[(c >> 4) as usize % pending.len()];
    // Yield rarely, so that most matches are fought out.
    let options: Vec<Decision> = if (c >> 24).is_multiple_of(32) {
        p.options.clone()
    } else {
        p.options
            .iter()
            .copied()
            .filter(|&d| d != Decision::Yield)
            .collect()
    };
    let d = options[(c >> 8) as usize % options.len()];
    Some((p.side, d, true))
}

/// Plays a case to its end (or the cap), checking every decision on the way.
fn play(case: &Case) -> Result<Run, TestCaseError> {
    let mut dice = ScriptThenSeeded::new(&case.script, case.seed);
    let (mut m, mut events) = Match::start(case.setup.clone(), &mut dice);
    let mut log = Vec::new();
    let mut choices = case.choices.iter().copied();
    for _ in 0..MAX_DECISIONS {
        let next = match choices.next() {
            Some(c) => pick(&m, c),
            // Choices spent: the default policy (never yields, declines to fight on).
            None => m.pending().first().map(|p| (p.side, p.default, true)),
        };
        let Some((side, decision, legal)) = next else {
            break;
        };
        let before = format!("{m:?}");
        let taken = dice.taken;
        match m.decide(side, decision, &mut dice) {
            Ok(ev) => {
                events.extend(ev);
                log.push((side, decision));
            }
            Err(e) => {
                prop_assert!(!legal, "{side:?} {decision:?} refused: {e}");
                prop_assert_eq!(&before, &format!("{m:?}"), "a refusal changed the match");
                prop_assert_eq!(taken, dice.taken, "a refusal rolled dice");
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }
    prop_assert!(
        m.is_over(),
        "not over after {MAX_DECISIONS} decisions: {:?}",
        m.pending()
    );
    prop_assert!(m.pending().is_empty());
    // The last event names the end.
    let outcome = m.outcome().cloned();
    if let (Some(o), Some(Event::MatchEnded { winner, reason })) = (&outcome, events.last()) {
        prop_assert_eq!((o.winner, o.reason), (*winner, *reason));
    } else {
        prop_assert!(false, "the match did not end with match_ended");
    }
    Ok(Run {
        events,
        log,
        outcome,
        rolls: dice.taken,
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        rng_seed: RngSeed::Fixed(0x5eed_4e41),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn is_snake_case(s: &str) -> bool {
    !s.is_empty()
        && s.split('_')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
}

proptest! {
    #![proptest_config(config())]

    /// (a) Any legal play with any dice never panics, and ends within the cap.
    #[test]
    fn any_legal_play_never_panics_and_ends(case in case()) {
        let run = play(&case)?;
        prop_assert!(run.outcome.is_some());
        // Psi skills are rolled only by knights who have them.
        for e in &run.events {
            if let Event::Psi { knight, skill, target, .. } = *e {
                let value = case.setup.knights[knight.index()].psi(skill);
                prop_assert!(value > 0, "{skill:?} is not learned");
                prop_assert_eq!(target, i32::from(value));
            }
            if let Event::Roll { roll, .. } | Event::Psi { roll, .. } = *e {
                prop_assert!((1..=100).contains(&roll));
            }
        }
    }

    /// (b) The same setup, dice and decision log replay to the same events and outcome.
    #[test]
    fn replay_gives_the_same_events_and_outcome(case in case()) {
        let run = play(&case)?;
        let mut dice = ScriptThenSeeded::new(&case.script, case.seed);
        let (mut m, mut events) = Match::start(case.setup.clone(), &mut dice);
        for &(side, decision) in &run.log {
            let ev = m.decide(side, decision, &mut dice);
            prop_assert!(ev.is_ok(), "replay refused {:?} {:?}", side, decision);
            events.extend(ev.unwrap_or_default());
        }
        prop_assert_eq!(&events, &run.events);
        prop_assert_eq!(m.outcome(), run.outcome.as_ref());
        prop_assert_eq!(dice.taken, run.rolls);
    }

    /// (c) Every event is a JSON object with a snake_case "type", also with names swapped in,
    /// and reads back as the same event.
    #[test]
    fn events_serialize_with_a_snake_case_type(case in case()) {
        let run = play(&case)?;
        let names = [
            case.setup.knights[0].name.clone(),
            case.setup.knights[1].name.clone(),
        ];
        for e in &run.events {
            let v = serde_json::to_value(e).map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert!(v.is_object(), "{v}");
            let ty = v["type"].as_str().unwrap_or_default().to_string();
            prop_assert!(is_snake_case(&ty), "type {ty:?} in {v}");
            let back: Event = serde_json::from_value(v.clone())
                .map_err(|err| TestCaseError::fail(format!("{err}: {v}")))?;
            prop_assert_eq!(&back, e);
            let named = serde_json::to_value(e.named(&names))
                .map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert!(named.is_object());
            prop_assert_eq!(named["type"].as_str(), Some(ty.as_str()));
        }
    }
}

#[test]
fn snake_case_check_is_strict() {
    assert!(is_snake_case("match_ended"));
    assert!(is_snake_case("roll"));
    assert!(!is_snake_case("MatchEnded"));
    assert!(!is_snake_case("match__ended"));
    assert!(!is_snake_case("_roll"));
    assert!(!is_snake_case(""));
}

#[test]
fn script_then_seeded_hands_out_the_script_first() {
    let mut d = ScriptThenSeeded::new(&[7, 100], 42);
    assert_eq!(d.d100(), 7);
    assert_eq!(d.d100(), 100);
    // Then the seeded stream (SeededDice::from_u64(42) begins 14, 53).
    assert_eq!(d.d100(), 14);
    assert_eq!(d.d100(), 53);
    assert_eq!(d.taken, 4);
}
