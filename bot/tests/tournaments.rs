//! Tournaments in chat from end to end, against real SQLite files: whole Lists of 2, 3, 5, 8 and
//! 13 knights with every draw and every match scripted (R34–R36, R130–R132), the Melee with a
//! remount, its time limit and its first prize (R37, R133–R138), the one-a-month rule and its
//! override (R38, R139), restarts in the middle of a tournament, reminders (R166), the
//! moderators' commands (R164, R165) and entries (R161).
//!
//! Knights: the entrants in even places (Ailsa, Cara, Eilidh, ...) are built like Dara of
//! EXAMPLES.md (Observe, Dodge, Sword 40; Lance, Ride, Shield 30); those in odd places (Bran,
//! Dughall, Fergus, ...) like Eoin (Lance, Shield, Ride 40; Observe, Dodge, Sword 30). Each is
//! played by their name in lower case (`ailsa`, `bran`, ...).
//!
//! How matches are ended, deterministically (R40: the challenger, listed first, rolls first):
//! - the challenger yields: `@dice 90 90 90 20` — both fail Observe (no Bonus), the challenger
//!   fails Ride (90), the challenged rides (20): the challenger's Ride roll is higher, so the
//!   challenger announces first (R8) and yields at that decision (R19);
//! - the challenged yields: `@dice 90 90 20 90` — the mirror image: the challenged announces
//!   first and yields;
//! - the challenged unhorses the challenger: `@dice 90 90 90 20 30 50` as `beaten_by_eoin` in
//!   fights.rs — the challenged holds the +15 Bonus and strikes first (6B), Lance 30 hits, the
//!   challenger's Shield 30 − 15 = 15 against 50 fails: unhorsed, no injury, and in the Lists
//!   the match ends at once (R35), with no question of Swordplay.

mod common;
use common::*;
use herald_bot::store::Store;
use sqlx::Row;

const CONFIG: &str = "\
[permissions]
moderators = [\"mod\"]
admins = [\"alice\"]
[realm]
decision_timeout_secs = 60
[tournaments]
reminder_secs = [86400, 3600]
moderator_timeout_secs = 600
match_retry_secs = 60
";

// ----- knights -----

/// The knights, in the order they enter; even places are built like Dara, odd like Eoin.
const KNIGHTS: [&str; 13] = [
    "Ailsa", "Bran", "Cara", "Dughall", "Eilidh", "Fergus", "Gormla", "Hamish", "Isla", "Jock",
    "Kenna", "Lachlan", "Morag",
];

fn place(name: &str) -> usize {
    KNIGHTS
        .iter()
        .position(|k| *k == name)
        .unwrap_or_else(|| panic!("no knight {name}"))
}

fn owner(name: &str) -> String {
    name.to_lowercase()
}

/// The chat line that creates a knight.
fn create(name: &str) -> String {
    let build = if place(name).is_multiple_of(2) {
        "--top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame"
    } else {
        "--top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn"
    };
    format!("{}: /knight create {name} {build}\n", owner(name))
}

/// The first `n` knights, created at 10:00 on 2026-12-01.
fn knights(n: usize) -> String {
    let mut t = String::from("@clock 2026-12-01T10:00:00Z\n");
    for k in &KNIGHTS[..n] {
        t.push_str(&create(k));
    }
    t
}

/// Each of `names` enters, in order.
fn enter(names: &[&str]) -> String {
    names
        .iter()
        .map(|k| format!("{}: /enter\n", owner(k)))
        .collect()
}

fn dice(values: &[u32]) -> String {
    let words: Vec<String> = values.iter().map(u32::to_string).collect();
    format!("@dice {}\n", words.join(" "))
}

// ----- matches -----

/// How a scripted match ends.
#[derive(Clone, Copy, Debug)]
enum End {
    /// The challenger (listed first) yields at the first decision.
    ChallengerYields,
    /// The challenged yields at the first decision.
    ChallengedYields,
    /// The challenged unhorses the challenger in the first pass (R35: the match ends at once).
    ChallengedUnhorses,
}

impl End {
    /// The dice the match rolls: queued before it starts.
    fn dice(self) -> &'static [u32] {
        match self {
            End::ChallengerYields => &[90, 90, 90, 20],
            End::ChallengedYields => &[90, 90, 20, 90],
            End::ChallengedUnhorses => &[90, 90, 90, 20, 30, 50],
        }
    }

    /// The chat lines that end it.
    fn lines(self, challenger: &str, challenged: &str) -> Vec<String> {
        let (a, b) = (owner(challenger), owner(challenged));
        match self {
            End::ChallengerYields => vec![format!("{a}: /yield")],
            End::ChallengedYields => vec![format!("{b}: /yield")],
            End::ChallengedUnhorses => vec![
                format!("{a}: /nosweep"),
                format!("{b}: /nosweep"),
                format!("{b}: /high"),
            ],
        }
    }
}

/// One Lists match as the test expects it to be drawn, and how it is ended.
struct Match {
    challenger: &'static str,
    challenged: &'static str,
    end: End,
    /// When this match completes its round: the next round's draw dice (R130), else empty.
    draw: &'static [u32],
}

const fn m(challenger: &'static str, challenged: &'static str, end: End) -> Match {
    Match {
        challenger,
        challenged,
        end,
        draw: &[],
    }
}

const fn last(
    challenger: &'static str,
    challenged: &'static str,
    end: End,
    draw: &'static [u32],
) -> Match {
    Match {
        challenger,
        challenged,
        end,
        draw,
    }
}

/// The Lists of the first `n` knights, scheduled at 10:00 for 11:00 ("in 1h"), every knight
/// entered in order, round 1 drawn with `first_draw`, then `matches` fought in order, each ended
/// as it says; before the line that ends a match, the dice of what follows are queued: the next
/// round's draw (when the match completes its round) and the next match's own dice. Then
/// `/bracket`.
fn lists(n: usize, setup: &str, first_draw: &[u32], matches: &[Match]) -> String {
    let names = &KNIGHTS[..n];
    let mut t = knights(n);
    t.push_str(setup);
    t.push_str("mod: /tournament schedule \"Yule Lists\" in 1h\n");
    t.push_str(&enter(names));
    let mut opening = first_draw.to_vec();
    opening.extend(matches[0].end.dice());
    t.push_str(&dice(&opening));
    t.push_str("@clock 2026-12-01T11:00:00Z\n");
    for (i, one) in matches.iter().enumerate() {
        let mut next: Vec<u32> = one.draw.to_vec();
        if let Some(following) = matches.get(i + 1) {
            next.extend(following.end.dice());
        }
        let lines = one.end.lines(one.challenger, one.challenged);
        let (end, before) = lines.split_last().expect("a match ends with a line");
        for l in before {
            t.push_str(l);
            t.push('\n');
        }
        if !next.is_empty() {
            t.push_str(&dice(&next));
        }
        t.push_str(end);
        t.push('\n');
    }
    t.push_str("ailsa: /bracket\n");
    t
}

// ----- reading what was said -----

/// The index of the first reply line containing `needle`.
fn at(run: &Run, needle: &str) -> usize {
    run.lines()
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line containing {needle:?} in:\n{}", run.out))
}

/// How many times a line containing `needle` was said.
fn times(run: &Run, needle: &str) -> usize {
    run.lines().iter().filter(|l| l.contains(needle)).count()
}

/// The text of the reply lines from the last one containing `marker` (excluded) to the end,
/// without their channel prefix.
fn after_last(run: &Run, marker: &str) -> String {
    let lines = run.lines();
    let start = lines
        .iter()
        .rposition(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no line containing {marker:?} in:\n{}", run.out));
    lines[start + 1..]
        .iter()
        .map(|l| l.split_once("] ").map_or(*l, |(_, text)| text))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Asserts that `expected` lines were said in this order (others may come between).
fn in_order(run: &Run, expected: &[&str]) {
    let lines = run.lines();
    let mut from = 0;
    for want in expected {
        match lines[from..].iter().position(|l| l.contains(want)) {
            Some(i) => from += i + 1,
            None => panic!(
                "expected {want:?} after line {from} (in this order: {expected:#?}) in:\n{}",
                run.out
            ),
        }
    }
}

// ----- reading the books -----

async fn count(store: &Store, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// One tournament award row: knight, HP and PP in halves, reason.
type Row4 = (String, i64, i64, String);

/// The tournament rows of the ledger, in the order written, after checking what every one of
/// them must hold: kind `tournament`, the tournament's id, and a reason naming it.
async fn awards(store: &Store, tournament: i64) -> Vec<Row4> {
    let rows = sqlx::query(
        "SELECT k.name, l.hp_halves, l.pp_halves, l.reason, l.kind, l.tournament_id, l.fight_id \
         FROM ledger l JOIN knights k ON k.id = l.knight_id \
         WHERE l.kind = 'tournament' OR l.tournament_id IS NOT NULL ORDER BY l.id",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let name: String = sqlx::query_scalar("SELECT name FROM tournaments WHERE id = ?")
        .bind(tournament)
        .fetch_one(store.pool())
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            let row: Row4 = (r.get(0), r.get(1), r.get(2), r.get(3));
            assert_eq!(r.get::<String, _>(4), "tournament", "{row:?}");
            assert_eq!(r.get::<Option<i64>, _>(5), Some(tournament), "{row:?}");
            assert_eq!(r.get::<Option<i64>, _>(6), None, "{row:?}");
            assert!(row.3.starts_with(&format!("{name}: ")), "{row:?}");
            row
        })
        .collect()
}

/// Each knight's total of tournament awards, in halves: (name, HP, PP), by name.
fn totals(rows: &[Row4]) -> Vec<(String, i64, i64)> {
    let mut out: Vec<(String, i64, i64)> = Vec::new();
    for (name, hp, pp, _) in rows {
        match out.iter_mut().find(|(n, _, _)| n == name) {
            Some(t) => {
                t.1 += hp;
                t.2 += pp;
            }
            None => out.push((name.clone(), *hp, *pp)),
        }
    }
    out.sort();
    out
}

/// Whole HP totals, unlanded, as (name, HP).
fn whole(expected: &[(&str, i64)]) -> Vec<(String, i64, i64)> {
    let mut out: Vec<(String, i64, i64)> = expected
        .iter()
        .map(|(n, hp)| (n.to_string(), hp * 2, 0))
        .collect();
    out.sort();
    out
}

/// Rows as the ledger should hold them: (name, HP halves, PP halves, reason).
/// The ledger rows of `two_knight_lists_then`'s Lists, and of the two-knight Lists won by an
/// unhorsing (R36): Ailsa 1 match + finalist; Bran 1 match + 1 unhorsing + champion + first prize.
const TWO_KNIGHT_LISTS: [(&str, i64, i64, &str); 6] = [
    (
        "Ailsa",
        2,
        0,
        "Yule Lists: matches fought in the lists (1 HP)",
    ),
    (
        "Ailsa",
        2,
        0,
        "Yule Lists: top three in the lists: finalist (1 HP)",
    ),
    (
        "Bran",
        2,
        0,
        "Yule Lists: matches fought in the lists (1 HP)",
    ),
    (
        "Bran",
        2,
        0,
        "Yule Lists: opponents unhorsed in the lists (1 HP)",
    ),
    (
        "Bran",
        2,
        0,
        "Yule Lists: top three in the lists: champion (1 HP)",
    ),
    ("Bran", 2, 0, "Yule Lists: first prize of the lists (1 HP)"),
];

fn rows(expected: &[(&str, i64, i64, &str)]) -> Vec<Row4> {
    expected
        .iter()
        .map(|(n, hp, pp, r)| (n.to_string(), *hp, *pp, r.to_string()))
        .collect()
}

async fn tournament_status(store: &Store, id: i64) -> String {
    sqlx::query_scalar("SELECT status FROM tournaments WHERE id = ?")
        .bind(id)
        .fetch_one(store.pool())
        .await
        .unwrap()
}

/// The saved state of a tournament, as JSON.
async fn state(store: &Store, id: i64) -> serde_json::Value {
    let text: Option<String> = sqlx::query_scalar("SELECT state FROM tournaments WHERE id = ?")
        .bind(id)
        .fetch_one(store.pool())
        .await
        .unwrap();
    serde_json::from_str(text.as_deref().unwrap_or("null")).unwrap()
}

/// The Lists fights of a tournament: (challenger, challenged, winner, reason), in order.
async fn lists_fights(store: &Store, tournament: i64) -> Vec<(String, String, String, String)> {
    sqlx::query(
        "SELECT a.name, b.name, w.name, f.reason FROM fights f \
         JOIN knights a ON a.id = f.challenger_id JOIN knights b ON b.id = f.challenged_id \
         JOIN knights w ON w.id = f.winner_id \
         WHERE f.tournament_id = ? AND f.kind = 'lists' AND f.ended_at IS NOT NULL ORDER BY f.id",
    )
    .bind(tournament)
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
    .collect()
}

fn fights(expected: &[(&str, &str, &str, &str)]) -> Vec<(String, String, String, String)> {
    expected
        .iter()
        .map(|(a, b, w, r)| (a.to_string(), b.to_string(), w.to_string(), r.to_string()))
        .collect()
}

// =============================================================================================
// 1. Whole Lists
// =============================================================================================

// R34, R35, R36, R130, R132: two knights, one match, the final; Bran unhorses Ailsa (R35: it
// ends the match at once, no Swordplay question).
//
// R36 by hand:
// - Ailsa: 1 match + finalist 1 = 2 HP.
// - Bran: 1 match + 1 unhorsing + champion 1 + first prize 1 = 4 HP.
#[tokio::test]
async fn lists_of_two_won_by_an_unhorsing() {
    let books = Books::new();
    let t = lists(2, "", &[2], &[m("Ailsa", "Bran", End::ChallengedUnhorses)]);
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Yule Lists begins! 2 knights ride in the Lists: Dame Ailsa, Sir Bran.",
            "Round 1: Dame Ailsa vs Sir Bran.",
            "Fight #1: Dame Ailsa vs Sir Bran, a Lists match of Yule Lists (round 1; an unhorsing ends it, R35).",
            "Dame Ailsa is unhorsed!",
            "Sir Bran wins (by unhorsing).",
            "Fight #1 is over.",
            "Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.",
            "Yule Lists is over. The Lists: Champion: Sir Bran; finalist: Dame Ailsa.",
            "The awards (R36, R37), as written to the books:",
            "Dame Ailsa: 2 HP (matches fought in the lists; top three in the lists: finalist)",
            "Sir Bran: 4 HP (matches fought in the lists; opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists)",
        ],
    );
    // R35: an unhorsing in the Lists ends the match; no one is asked about Swordplay.
    run.expect_not("go on to Swordplay?")
        .expect_not("— Swordplay —")
        .expect_not("earns 1 HP");
    assert_eq!(
        after_last(&run, "Yule Lists: the Lists"),
        "\
Round 1: final
  Dame Ailsa   vs Sir Bran   *  (Sir Bran unhorsed Dame Ailsa)
Champion: Sir Bran
Finalist: Dame Ailsa
"
    );

    let store = books.store().await;
    assert_eq!(tournament_status(&store, 1).await, "finished");
    assert_eq!(
        lists_fights(&store, 1).await,
        fights(&[("Ailsa", "Bran", "Bran", "unhorsed")])
    );
    assert_eq!(awards(&store, 1).await, rows(&TWO_KNIGHT_LISTS));
}

// R130: round 1 of three knights drawn with `1 2`: d3 = 1 swaps places 3 and 1 (Cara, Bran,
// Ailsa), d2 = 2 leaves it; R34: the odd man out is the last in that order who has not sat out:
// Ailsa. Round 2 of Ailsa and Bran drawn with `1`: swapped, so Bran is listed first (R40: the
// challenger). R132: Cara went out in the round before the final: the one semi-finalist.
//
// R36 by hand:
// - Ailsa: 1 match (round 2; the bye is not a match) + champion 1 + first prize 1 = 3 HP.
// - Bran: 2 matches + 1 unhorsing (Cara) + finalist 1 = 4 HP.
// - Cara: 1 match + semi-finalist 1 = 2 HP.
#[tokio::test]
async fn lists_of_three_with_a_bye_and_shuffled_draws() {
    let books = Books::new();
    let t = lists(
        3,
        "",
        &[1, 2],
        &[
            last("Cara", "Bran", End::ChallengedUnhorses, &[1]),
            m("Bran", "Ailsa", End::ChallengerYields),
        ],
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Yule Lists begins! 3 knights ride in the Lists: Dame Ailsa, Sir Bran, Dame Cara.",
            "Round 1: Dame Cara vs Sir Bran; Dame Ailsa sits out this round (R34).",
            "Fight #1: Dame Cara vs Sir Bran, a Lists match of Yule Lists (round 1;",
            "Dame Cara is unhorsed!",
            "Sir Bran wins the match and rides on; Dame Cara is out of the Lists.",
            "Round 2: Sir Bran vs Dame Ailsa.",
            "Fight #2: Sir Bran vs Dame Ailsa, a Lists match of Yule Lists (round 2;",
            "Sir Bran yields.",
            "Dame Ailsa wins the match and rides on; Sir Bran is out of the Lists.",
            "The Lists are over. Champion: Dame Ailsa; finalist: Sir Bran; semi-finalist: Dame Cara.",
            "Dame Ailsa: 3 HP (matches fought in the lists; top three in the lists: champion; first prize of the lists)",
            "Sir Bran: 4 HP (matches fought in the lists (2); opponents unhorsed in the lists; top three in the lists: finalist)",
            "Dame Cara: 2 HP (matches fought in the lists; top three in the lists: semi-finalist)",
        ],
    );
    assert_eq!(
        after_last(&run, "Yule Lists: the Lists"),
        "\
Round 1
  Dame Cara    vs Sir Bran   *  (Sir Bran unhorsed Dame Cara)
  Dame Ailsa   bye
Round 2: final
  Sir Bran     vs Dame Ailsa *
Champion: Dame Ailsa
Finalist: Sir Bran
Semi-finalist: Dame Cara
"
    );

    let store = books.store().await;
    assert_eq!(
        lists_fights(&store, 1).await,
        fights(&[
            ("Cara", "Bran", "Bran", "unhorsed"),
            ("Bran", "Ailsa", "Ailsa", "yield"),
        ])
    );
    let ledger = awards(&store, 1).await;
    assert_eq!(
        ledger,
        rows(&[
            (
                "Ailsa",
                2,
                0,
                "Yule Lists: matches fought in the lists (1 HP)"
            ),
            (
                "Ailsa",
                2,
                0,
                "Yule Lists: top three in the lists: champion (1 HP)"
            ),
            ("Ailsa", 2, 0, "Yule Lists: first prize of the lists (1 HP)"),
            (
                "Bran",
                4,
                0,
                "Yule Lists: matches fought in the lists (2 HP)"
            ),
            (
                "Bran",
                2,
                0,
                "Yule Lists: opponents unhorsed in the lists (1 HP)"
            ),
            (
                "Bran",
                2,
                0,
                "Yule Lists: top three in the lists: finalist (1 HP)"
            ),
            (
                "Cara",
                2,
                0,
                "Yule Lists: matches fought in the lists (1 HP)"
            ),
            (
                "Cara",
                2,
                0,
                "Yule Lists: top three in the lists: semi-finalist (1 HP)"
            ),
        ])
    );
    assert_eq!(
        totals(&ledger),
        whole(&[("Ailsa", 3), ("Bran", 4), ("Cara", 2)])
    );
}

// R34, R130: five knights, every draw in entry order (`5 4 3 2`, `3 2`, `2`). Round 1: Eilidh,
// last, sits out. Round 2 of Bran, Cara, Eilidh: Eilidh is last but has sat out, so Cara, the
// last who has not, sits out (no knight sits out twice). R132: the final is round 3; Eilidh went
// out in round 2: the one semi-finalist. R29: Cara is landed (an admin's 12 HP, then /land), so
// each of her awards is split half HP, half PP.
//
// R36 by hand (before the landed split):
// - Ailsa: 1 match = 1 HP.
// - Bran: 3 matches (Ailsa, Eilidh, Cara) + 1 unhorsing (Ailsa) + finalist 1 = 5 HP.
// - Cara: 2 matches (Dughall, Bran; the bye is not one) + champion 1 + first prize 1 = 4 HP,
//   landed: 2 HP + 2 PP (matches 1 + 1, champion 0.5 + 0.5, first prize 0.5 + 0.5).
// - Dughall: 1 match = 1 HP.
// - Eilidh: 1 match + semi-finalist 1 = 2 HP.
#[tokio::test]
async fn lists_of_five_with_a_landed_champion() {
    let books = Books::new();
    let landed = "alice: /admin award Cara 12 seed\ncara: /land\n";
    let t = lists(
        5,
        landed,
        &[5, 4, 3, 2],
        &[
            m("Ailsa", "Bran", End::ChallengedUnhorses),
            last("Cara", "Dughall", End::ChallengedYields, &[3, 2]),
            last("Bran", "Eilidh", End::ChallengedYields, &[2]),
            m("Bran", "Cara", End::ChallengerYields),
        ],
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("and landed");
    in_order(
        &run,
        &[
            "Yule Lists begins! 5 knights ride in the Lists: Dame Ailsa, Sir Bran, Dame Cara, Sir Dughall, Dame Eilidh.",
            "Round 1: Dame Ailsa vs Sir Bran; Dame Cara vs Sir Dughall; Dame Eilidh sits out this round (R34).",
            "Fight #1: Dame Ailsa vs Sir Bran, a Lists match of Yule Lists (round 1;",
            "Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "Fight #2: Dame Cara vs Sir Dughall, a Lists match of Yule Lists (round 1;",
            "Dame Cara wins the match and rides on; Sir Dughall is out of the Lists.",
            "Round 2: Sir Bran vs Dame Eilidh; Dame Cara sits out this round (R34).",
            "Fight #3: Sir Bran vs Dame Eilidh, a Lists match of Yule Lists (round 2;",
            "Sir Bran wins the match and rides on; Dame Eilidh is out of the Lists.",
            "Round 3: Sir Bran vs Dame Cara.",
            "Fight #4: Sir Bran vs Dame Cara, a Lists match of Yule Lists (round 3;",
            "Dame Cara wins the match and rides on; Sir Bran is out of the Lists.",
            "The Lists are over. Champion: Dame Cara; finalist: Sir Bran; semi-finalist: Dame Eilidh.",
            "Dame Ailsa: 1 HP (matches fought in the lists)",
            "Sir Bran: 5 HP (matches fought in the lists (3); opponents unhorsed in the lists; top three in the lists: finalist)",
            "Dame Cara: 2 HP + 2 PP (landed, R29) (matches fought in the lists (2); top three in the lists: champion; first prize of the lists)",
            "Sir Dughall: 1 HP (matches fought in the lists)",
            "Dame Eilidh: 2 HP (matches fought in the lists; top three in the lists: semi-finalist)",
        ],
    );
    assert_eq!(
        after_last(&run, "Yule Lists: the Lists"),
        "\
Round 1
  Dame Ailsa    vs Sir Bran    *  (Sir Bran unhorsed Dame Ailsa)
  Dame Cara   * vs Sir Dughall
  Dame Eilidh   bye
Round 2
  Sir Bran    * vs Dame Eilidh
  Dame Cara     bye
Round 3: final
  Sir Bran      vs Dame Cara   *
Champion: Dame Cara
Finalist: Sir Bran
Semi-finalist: Dame Eilidh
"
    );

    let store = books.store().await;
    assert_eq!(
        lists_fights(&store, 1).await,
        fights(&[
            ("Ailsa", "Bran", "Bran", "unhorsed"),
            ("Cara", "Dughall", "Cara", "yield"),
            ("Bran", "Eilidh", "Bran", "yield"),
            ("Bran", "Cara", "Cara", "yield"),
        ])
    );
    let ledger = awards(&store, 1).await;
    assert_eq!(
        ledger,
        rows(&[
            (
                "Ailsa",
                2,
                0,
                "Yule Lists: matches fought in the lists (1 HP)"
            ),
            (
                "Bran",
                6,
                0,
                "Yule Lists: matches fought in the lists (3 HP)"
            ),
            (
                "Bran",
                2,
                0,
                "Yule Lists: opponents unhorsed in the lists (1 HP)"
            ),
            (
                "Bran",
                2,
                0,
                "Yule Lists: top three in the lists: finalist (1 HP)"
            ),
            (
                "Cara",
                2,
                2,
                "Yule Lists: matches fought in the lists (2 HP)"
            ),
            (
                "Cara",
                1,
                1,
                "Yule Lists: top three in the lists: champion (1 HP)"
            ),
            ("Cara", 1, 1, "Yule Lists: first prize of the lists (1 HP)"),
            (
                "Dughall",
                2,
                0,
                "Yule Lists: matches fought in the lists (1 HP)"
            ),
            (
                "Eilidh",
                2,
                0,
                "Yule Lists: matches fought in the lists (1 HP)"
            ),
            (
                "Eilidh",
                2,
                0,
                "Yule Lists: top three in the lists: semi-finalist (1 HP)"
            ),
        ])
    );
    let mut expected = whole(&[("Ailsa", 1), ("Bran", 5), ("Dughall", 1), ("Eilidh", 2)]);
    expected.push(("Cara".into(), 4, 4));
    expected.sort();
    assert_eq!(totals(&ledger), expected);
}

// R34, R130, R132: eight knights, every draw in entry order; no byes. Fergus unhorses Eilidh in
// round 1. The final is round 3 (Dughall vs Fergus); Ailsa and Gormla went out in round 2: two
// semi-finalists.
//
// R36 by hand:
// - Ailsa: 2 matches (Bran, Dughall) + semi-finalist 1 = 3 HP.
// - Bran: 1 match = 1 HP.        - Cara: 1 match = 1 HP.
// - Dughall: 3 matches (Cara, Ailsa, Fergus) + finalist 1 = 4 HP.
// - Eilidh: 1 match = 1 HP.
// - Fergus: 3 matches (Eilidh, Gormla, Dughall) + 1 unhorsing + champion 1 + first prize 1 = 6.
// - Gormla: 2 matches (Hamish, Fergus) + semi-finalist 1 = 3 HP.
// - Hamish: 1 match = 1 HP.
// Total 20 = 7 matches × 2 + 1 unhorsing + champion 2 + finalist 1 + 2 semi-finalists.
#[tokio::test]
async fn lists_of_eight() {
    let books = Books::new();
    let t = lists(
        8,
        "",
        &[8, 7, 6, 5, 4, 3, 2],
        &[
            m("Ailsa", "Bran", End::ChallengedYields),
            m("Cara", "Dughall", End::ChallengerYields),
            m("Eilidh", "Fergus", End::ChallengedUnhorses),
            last("Gormla", "Hamish", End::ChallengedYields, &[4, 3, 2]),
            m("Ailsa", "Dughall", End::ChallengerYields),
            last("Fergus", "Gormla", End::ChallengedYields, &[2]),
            m("Dughall", "Fergus", End::ChallengerYields),
        ],
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Yule Lists begins! 8 knights ride in the Lists: Dame Ailsa, Sir Bran, Dame Cara, Sir Dughall, Dame Eilidh, Sir Fergus, Dame Gormla, Sir Hamish.",
            "Round 1: Dame Ailsa vs Sir Bran; Dame Cara vs Sir Dughall; Dame Eilidh vs Sir Fergus; Dame Gormla vs Sir Hamish.",
            "Dame Ailsa wins the match and rides on; Sir Bran is out of the Lists.",
            "Sir Dughall wins the match and rides on; Dame Cara is out of the Lists.",
            "Dame Eilidh is unhorsed!",
            "Sir Fergus wins the match and rides on; Dame Eilidh is out of the Lists.",
            "Dame Gormla wins the match and rides on; Sir Hamish is out of the Lists.",
            "Round 2: Dame Ailsa vs Sir Dughall; Sir Fergus vs Dame Gormla.",
            "Sir Dughall wins the match and rides on; Dame Ailsa is out of the Lists.",
            "Sir Fergus wins the match and rides on; Dame Gormla is out of the Lists.",
            "Round 3: Sir Dughall vs Sir Fergus.",
            "Fight #7: Sir Dughall vs Sir Fergus, a Lists match of Yule Lists (round 3;",
            "Sir Fergus wins the match and rides on; Sir Dughall is out of the Lists.",
            "The Lists are over. Champion: Sir Fergus; finalist: Sir Dughall; semi-finalists: Dame Ailsa, Dame Gormla.",
            "Dame Ailsa: 3 HP (matches fought in the lists (2); top three in the lists: semi-finalist)",
            "Sir Bran: 1 HP (matches fought in the lists)",
            "Dame Cara: 1 HP (matches fought in the lists)",
            "Sir Dughall: 4 HP (matches fought in the lists (3); top three in the lists: finalist)",
            "Dame Eilidh: 1 HP (matches fought in the lists)",
            "Sir Fergus: 6 HP (matches fought in the lists (3); opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists)",
            "Dame Gormla: 3 HP (matches fought in the lists (2); top three in the lists: semi-finalist)",
            "Sir Hamish: 1 HP (matches fought in the lists)",
        ],
    );
    assert_eq!(
        after_last(&run, "Yule Lists: the Lists"),
        "\
Round 1
  Dame Ailsa  * vs Sir Bran
  Dame Cara     vs Sir Dughall *
  Dame Eilidh   vs Sir Fergus  *  (Sir Fergus unhorsed Dame Eilidh)
  Dame Gormla * vs Sir Hamish
Round 2
  Dame Ailsa    vs Sir Dughall *
  Sir Fergus  * vs Dame Gormla
Round 3: final
  Sir Dughall   vs Sir Fergus  *
Champion: Sir Fergus
Finalist: Sir Dughall
Semi-finalists: Dame Ailsa, Dame Gormla
"
    );

    let store = books.store().await;
    assert_eq!(
        lists_fights(&store, 1).await.len(),
        7,
        "a bye is not a match"
    );
    let ledger = awards(&store, 1).await;
    // One row per knight and reason: 8 for matches, 1 unhorsing, 4 placings, 1 first prize.
    assert_eq!(ledger.len(), 14, "{ledger:#?}");
    assert_eq!(
        totals(&ledger),
        whole(&[
            ("Ailsa", 3),
            ("Bran", 1),
            ("Cara", 1),
            ("Dughall", 4),
            ("Eilidh", 1),
            ("Fergus", 6),
            ("Gormla", 3),
            ("Hamish", 1),
        ])
    );
}

// R34, R130, R131, R132: thirteen knights.
// - Round 1 (`13 12 … 2`, entry order): six pairs, Morag (last) sits out.
// - Round 2 of Bran, Cara, Fergus, Gormla, Jock, Kenna, Morag drawn with `1 1 1 1 1 1`: each die
//   swaps place i with place 1 (R130): [M C F G J K B] → [K C F G J M B] → [J C F G K M B] →
//   [G C F J K M B] → [F C G J K M B] → [C F G J K M B]. Bran, last and not yet out, sits out.
// - Round 3 of Bran, Cara, Jock, Morag (`4 3 2`): Bran and Morag have both sat out, so they meet
//   first (R131), then Cara and Jock.
// - Round 4, the final: Bran vs Cara.
//
// R36 by hand:
// - Ailsa 1 (1 match).             - Bran 5 (3 matches, 1 unhorsing, finalist).
// - Cara 6 (4 matches, champion, first prize).
// - Dughall 1. - Eilidh 1. - Fergus 2 (2 matches). - Gormla 2 (2 matches). - Hamish 1. - Isla 1.
// - Jock 4 (3 matches, semi-finalist). - Kenna 2 (2 matches). - Lachlan 1.
// - Morag 3 (2 matches: the bye is none, semi-finalist).
// Total 30 = 12 matches × 2 + 1 unhorsing + champion 2 + finalist 1 + 2 semi-finalists.
#[tokio::test]
async fn lists_of_thirteen_where_those_who_sat_out_meet() {
    let books = Books::new();
    let t = lists(
        13,
        "",
        &[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
        &[
            m("Ailsa", "Bran", End::ChallengedUnhorses),
            m("Cara", "Dughall", End::ChallengedYields),
            m("Eilidh", "Fergus", End::ChallengerYields),
            m("Gormla", "Hamish", End::ChallengedYields),
            m("Isla", "Jock", End::ChallengerYields),
            last(
                "Kenna",
                "Lachlan",
                End::ChallengedYields,
                &[1, 1, 1, 1, 1, 1],
            ),
            m("Cara", "Fergus", End::ChallengedYields),
            m("Gormla", "Jock", End::ChallengerYields),
            last("Kenna", "Morag", End::ChallengerYields, &[4, 3, 2]),
            m("Bran", "Morag", End::ChallengedYields),
            last("Cara", "Jock", End::ChallengedYields, &[2]),
            m("Bran", "Cara", End::ChallengerYields),
        ],
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Yule Lists begins! 13 knights ride in the Lists: Dame Ailsa, Sir Bran, Dame Cara, Sir Dughall, Dame Eilidh, Sir Fergus, Dame Gormla, Sir Hamish, Dame Isla, Sir Jock, Dame Kenna, Sir Lachlan, Dame Morag.",
            "Round 1: Dame Ailsa vs Sir Bran; Dame Cara vs Sir Dughall; Dame Eilidh vs Sir Fergus; Dame Gormla vs Sir Hamish; Dame Isla vs Sir Jock; Dame Kenna vs Sir Lachlan; Dame Morag sits out this round (R34).",
            "Dame Ailsa is unhorsed!",
            "Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "Dame Kenna wins the match and rides on; Sir Lachlan is out of the Lists.",
            "Round 2: Dame Cara vs Sir Fergus; Dame Gormla vs Sir Jock; Dame Kenna vs Dame Morag; Sir Bran sits out this round (R34).",
            "Dame Morag wins the match and rides on; Dame Kenna is out of the Lists.",
            "Round 3: Sir Bran vs Dame Morag; Dame Cara vs Sir Jock.",
            "Dame Cara wins the match and rides on; Sir Jock is out of the Lists.",
            "Round 4: Sir Bran vs Dame Cara.",
            "Fight #12: Sir Bran vs Dame Cara, a Lists match of Yule Lists (round 4;",
            "Dame Cara wins the match and rides on; Sir Bran is out of the Lists.",
            "The Lists are over. Champion: Dame Cara; finalist: Sir Bran; semi-finalists: Sir Jock, Dame Morag.",
            "Dame Ailsa: 1 HP (matches fought in the lists)",
            "Sir Bran: 5 HP (matches fought in the lists (3); opponents unhorsed in the lists; top three in the lists: finalist)",
            "Dame Cara: 6 HP (matches fought in the lists (4); top three in the lists: champion; first prize of the lists)",
            "Sir Dughall: 1 HP (matches fought in the lists)",
            "Dame Eilidh: 1 HP (matches fought in the lists)",
            "Sir Fergus: 2 HP (matches fought in the lists (2))",
            "Dame Gormla: 2 HP (matches fought in the lists (2))",
            "Sir Hamish: 1 HP (matches fought in the lists)",
            "Dame Isla: 1 HP (matches fought in the lists)",
            "Sir Jock: 4 HP (matches fought in the lists (3); top three in the lists: semi-finalist)",
            "Dame Kenna: 2 HP (matches fought in the lists (2))",
            "Sir Lachlan: 1 HP (matches fought in the lists)",
            "Dame Morag: 3 HP (matches fought in the lists (2); top three in the lists: semi-finalist)",
        ],
    );
    assert_eq!(
        after_last(&run, "Yule Lists: the Lists"),
        "\
Round 1
  Dame Ailsa    vs Sir Bran    *  (Sir Bran unhorsed Dame Ailsa)
  Dame Cara   * vs Sir Dughall
  Dame Eilidh   vs Sir Fergus  *
  Dame Gormla * vs Sir Hamish
  Dame Isla     vs Sir Jock    *
  Dame Kenna  * vs Sir Lachlan
  Dame Morag    bye
Round 2
  Dame Cara   * vs Sir Fergus
  Dame Gormla   vs Sir Jock    *
  Dame Kenna    vs Dame Morag  *
  Sir Bran      bye
Round 3
  Sir Bran    * vs Dame Morag
  Dame Cara   * vs Sir Jock
Round 4: final
  Sir Bran      vs Dame Cara   *
Champion: Dame Cara
Finalist: Sir Bran
Semi-finalists: Sir Jock, Dame Morag
"
    );

    let store = books.store().await;
    assert_eq!(
        lists_fights(&store, 1).await.len(),
        12,
        "a bye is not a match"
    );
    let ledger = awards(&store, 1).await;
    // One row per knight and reason: 13 for matches, 1 unhorsing, 4 placings, 1 first prize.
    assert_eq!(ledger.len(), 19, "{ledger:#?}");
    assert_eq!(
        totals(&ledger),
        whole(&[
            ("Ailsa", 1),
            ("Bran", 5),
            ("Cara", 6),
            ("Dughall", 1),
            ("Eilidh", 1),
            ("Fergus", 2),
            ("Gormla", 2),
            ("Hamish", 1),
            ("Isla", 1),
            ("Jock", 4),
            ("Kenna", 2),
            ("Lachlan", 1),
            ("Morag", 3),
        ])
    );
}

// =============================================================================================
// 2. The Melee
// =============================================================================================

/// Ailsa and Bran ride the Lists (scheduled at 10:00 "in 1h" with `flags`); Bran wins: Ailsa's
/// decisions and then Bran's all time out (R11: the default strike is High), so the unhorsing of
/// `beaten_by_eoin` comes from the defaults alone: Ailsa is unhorsed at 11:03 (R35).
/// Then Cara and Dughall are created, to join the Melee.
fn two_knight_lists_then(flags: &str) -> String {
    format!(
        "{knights}\
mod: /tournament schedule \"Yule Lists\" in 1h {flags}
ailsa: /enter
bran: /enter
@dice 2 90 90 90 20 30 50
@clock 2026-12-01T11:00:00Z
@wait 180
{cara}{dughall}",
        knights = knights(2),
        cara = create("Cara"),
        dughall = create("Dughall"),
    )
}

// R37: a Melee with one remount each. Ravens: Ailsa, Cara; Wolves: Bran, Dughall.
// - Pass 1, Ailsa offers Bran: Bran unhorses her; she remounts (R37).
// - Pass 2, Ailsa offers Bran again: unhorsed again, her remount used: out of the Melee.
// - Pass 3, Cara offers Dughall (`90 90 20 90 30 50`: Cara rides, holds the Bonus and strikes
//   first; Dughall's Shield 40 − 15 = 25 against 50 fails): Dughall remounts.
// - At the time limit (20 minutes, `@wait`) the Wolves have 2 mounted, the Ravens 1: the Wolves
//   win (R37). The moderator names Cara first prize (R138).
// R35, R42: the Lists match before it is decided by timeouts alone.
//
// By hand, Lists (R36): Ailsa 1 match + finalist = 2; Bran 1 match + 1 unhorsing + champion +
// first prize = 4. Melee (R37): Ailsa 1 (took part); Bran 1 + 2 unhorsings + winning side 1 = 4;
// Cara 1 + 1 unhorsing + first prize 1 = 3; Dughall 1 + winning side 1 = 2.
// Totals: Ailsa 3, Bran 8, Cara 3, Dughall 2.
#[tokio::test]
async fn a_melee_with_a_remount_ends_at_its_time_limit() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
cara: /melee join Ravens
bran: /melee join Wolves
dughall: /melee join Wolves
mod: /melee start
ailsa: /pass Bran
@dice 90 90 90 20 30 50
bran: /accept
ailsa: /nosweep
bran: /nosweep
bran: /high
ailsa: /pass Bran
@dice 90 90 90 20 30 50
bran: /accept
ailsa: /nosweep
bran: /nosweep
bran: /high
cara: /pass Dughall
@dice 90 90 20 90 30 50
dughall: /accept
dughall: /nosweep
cara: /nosweep
cara: /high
ailsa: /tournament
@wait 1200
mod: /melee prize Cara
",
        two_knight_lists_then("--melee --remount --melee-minutes 20")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Tournament #1, Yule Lists, is scheduled for Tue 1 Dec 2026 11:00 UTC in #lists: the Lists, then a Melee (one remount each, 20 minutes).",
            "Dame Ailsa (ailsa) did not answer in time: /nosweep is taken for them.",
            "Sir Bran (bran) did not answer in time: /nosweep is taken for them.",
            "Sir Bran (bran) did not answer in time: /high is taken for them.",
            "Dame Ailsa is unhorsed!",
            "Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.",
            "The Melee follows. A moderator opens it with its two sides: /melee open SIDE SIDE (within 10 minutes).",
            "The Melee of Yule Lists opens: the Ravens against the Wolves.",
            "Dame Ailsa joins the Ravens (1 knight).",
            "Dame Cara joins the Ravens (2 knights).",
            "Sir Bran joins the Wolves (1 knight).",
            "Sir Dughall joins the Wolves (2 knights).",
            "The Melee begins! Time is called in 20 minutes.",
            "Dame Ailsa offers Sir Bran a pass (#1). bran: /accept or /decline.",
            "Sir Bran accepts the pass (#1) of Dame Ailsa.",
            "Fight #2: Dame Ailsa vs Sir Bran, a Melee pass of Yule Lists (one Joust pass, R37).",
            "Dame Ailsa is unhorsed!",
            "Dame Ailsa remounts and rides on (R37).",
            "Fight #3: Dame Ailsa vs Sir Bran, a Melee pass of Yule Lists",
            "Dame Ailsa is unhorsed!",
            "Dame Ailsa is out of the Melee.",
            "Fight #4: Dame Cara vs Sir Dughall, a Melee pass of Yule Lists",
            "Sir Dughall is unhorsed!",
            "Sir Dughall remounts and rides on (R37).",
            "Yule Lists (#1) is under way in #lists: the Melee: /pass KNIGHT to offer a pass.",
            "Time is called on the Melee of Yule Lists (R37)",
            "The Melee is over at its time limit: the Wolves win, 2 mounted to 1.",
            "A moderator names its first prize: /melee prize KNIGHT (within 10 minutes).",
            "Dame Cara wins the first prize of the Melee (R37).",
            "Yule Lists is over. The Lists: Champion: Sir Bran; finalist: Dame Ailsa.",
            "The Melee: the Wolves won; first prize: Dame Cara.",
            "The awards (R36, R37), as written to the books:",
            "Dame Ailsa: 3 HP (matches fought in the lists; top three in the lists: finalist; took part in the melee)",
            "Sir Bran: 8 HP (matches fought in the lists; opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists; took part in the melee; opponents unhorsed in the melee (2); on the winning side of the melee)",
            "Dame Cara: 3 HP (took part in the melee; opponents unhorsed in the melee; first prize of the melee)",
            "Sir Dughall: 2 HP (took part in the melee; on the winning side of the melee)",
        ],
    );
    // One Joust pass each (R37): no Swordplay, no question of it, no practice HP.
    run.expect_not("Swordplay").expect_not("earns 1 HP");
    assert_eq!(times(&run, "The Melee is over"), 1, "{}", run.out);

    let store = books.store().await;
    // The time limit: 11:23, 20 minutes after the Melee began at 11:03.
    let ends_at = state(&store, 1).await["melee"]["ends_at"].clone();
    assert_eq!(
        ends_at
            .as_str()
            .map(|s| chrono::DateTime::parse_from_rfc3339(s).unwrap()),
        Some(chrono::DateTime::parse_from_rfc3339("2026-12-01T11:23:00Z").unwrap()),
        "{ends_at}"
    );
    assert_eq!(tournament_status(&store, 1).await, "finished");
    let melee_fights = count(
        &store,
        "SELECT COUNT(*) FROM fights WHERE kind = 'melee' AND tournament_id = 1 AND ended_at IS NOT NULL",
    )
    .await;
    assert_eq!(melee_fights, 3);
    let ledger = awards(&store, 1).await;
    assert_eq!(
        ledger,
        rows(
            &[
                &TWO_KNIGHT_LISTS[..],
                &[
                    ("Ailsa", 2, 0, "Yule Lists: took part in the melee (1 HP)"),
                    ("Cara", 2, 0, "Yule Lists: took part in the melee (1 HP)"),
                    (
                        "Cara",
                        2,
                        0,
                        "Yule Lists: opponents unhorsed in the melee (1 HP)"
                    ),
                    ("Cara", 2, 0, "Yule Lists: first prize of the melee (1 HP)"),
                    ("Bran", 2, 0, "Yule Lists: took part in the melee (1 HP)"),
                    (
                        "Bran",
                        4,
                        0,
                        "Yule Lists: opponents unhorsed in the melee (2 HP)"
                    ),
                    (
                        "Bran",
                        2,
                        0,
                        "Yule Lists: on the winning side of the melee (1 HP)"
                    ),
                    ("Dughall", 2, 0, "Yule Lists: took part in the melee (1 HP)"),
                    (
                        "Dughall",
                        2,
                        0,
                        "Yule Lists: on the winning side of the melee (1 HP)"
                    ),
                ],
            ]
            .concat()
        )
    );
    assert_eq!(
        totals(&ledger),
        whole(&[("Ailsa", 3), ("Bran", 8), ("Cara", 3), ("Dughall", 2)])
    );
}

// R37 without remounts: Ailsa (Ravens) alone against Bran (Wolves); Bran unhorses her and she is
// out, so only one side is mounted and the Melee ends at once. R138: the first prize is named
// only after the end, once, to a knight who took part; R164: no one names it within
// moderator_timeout_secs, so the tournament ends without one. R135: time cannot be called before
// the start.
//
// By hand: Lists as above (Ailsa 2, Bran 4). Melee: Ailsa 1 (took part); Bran 1 + 1 unhorsing +
// winning side 1 = 3; no first prize. Totals: Ailsa 3, Bran 7.
#[tokio::test]
async fn a_melee_without_remounts_ends_when_one_side_is_unhorsed_and_no_prize_is_named() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
mod: /melee time
mod: /melee start
bran: /melee join Wolves
mod: /melee prize Bran
mod: /melee start
ailsa: /pass Bran
@dice 90 90 90 20 30 50
bran: /accept
ailsa: /nosweep
bran: /nosweep
bran: /high
@wait 599
ailsa: /tournament
@wait 1
",
        two_knight_lists_then("--melee")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "The Melee of Yule Lists opens: the Ravens against the Wolves.",
            "Dame Ailsa joins the Ravens (1 knight).",
            // R135: no time before the start; R133: a side with no knight cannot start.
            "Not now:",
            "Not now: Wolves has no knights yet; each side needs at least one to start (R133).",
            "Sir Bran joins the Wolves (1 knight).",
            // R138: not before the end.
            "The first prize is named once the Melee is over (R138).",
            "The Melee begins! Time is called in 30 minutes.",
            "Dame Ailsa is unhorsed!",
            "Dame Ailsa is out of the Melee.",
            "The Melee is over with only one side mounted: the Wolves win, 1 mounted to 0.",
            "A moderator names its first prize: /melee prize KNIGHT (within 10 minutes).",
            "Yule Lists (#1) is under way in #lists: the Melee is over; the awards are coming.",
            "No first prize of the Melee was named in time.",
            "Yule Lists is over. The Lists: Champion: Sir Bran; finalist: Dame Ailsa.",
            "The Melee: the Wolves won; no first prize named.",
            "Dame Ailsa: 3 HP (matches fought in the lists; top three in the lists: finalist; took part in the melee)",
            "Sir Bran: 7 HP (matches fought in the lists; opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists; took part in the melee; opponents unhorsed in the melee; on the winning side of the melee)",
        ],
    );
    run.expect_not("remounts and rides on")
        .expect_not("wins the first prize");
    // The awards come when the wait is over, not before (599 s after the end).
    assert!(
        at(&run, "Yule Lists (#1) is under way") < at(&run, "No first prize"),
        "{}",
        run.out
    );

    let store = books.store().await;
    let ledger = awards(&store, 1).await;
    assert!(
        !ledger
            .iter()
            .any(|r| r.3.contains("first prize of the melee")),
        "{ledger:#?}"
    );
    assert_eq!(totals(&ledger), whole(&[("Ailsa", 3), ("Bran", 7)]));
}

// R138: the first prize goes to a knight who took part. Cara has a knight but did not join the
// Melee; the refusal should name her, as every other reply does.
#[tokio::test]
async fn the_first_prize_refused_to_a_knight_who_did_not_take_part_names_her() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
bran: /melee join Wolves
mod: /melee start
mod: /melee time
mod: /melee prize Cara
",
        two_knight_lists_then("--melee")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(
        "The Melee is over at its time limit: a tie, 1 mounted each, so no side wins (R37).",
    )
    .expect("Not named: Dame Cara has not joined the melee.")
    .expect_not("knight #");
    // Nothing was named: the tournament still waits for the prize.
    let store = books.store().await;
    assert_eq!(tournament_status(&store, 1).await, "running");
    let melee = state(&store, 1).await["melee"]["melee"].clone();
    assert!(
        melee.get("first_prize").is_some_and(|p| p.is_null()),
        "{melee:#}"
    );
}

// R135: when the moderator calls time, open offers lapse and no pass may start, but a pass under
// way is fought out and the Melee ends with it. R134: when a knight enters a pass, the other
// offers made to them lapse. Ravens: Ailsa, Cara; Wolves: Bran. Cara and then Ailsa offer Bran a
// pass; Bran's /accept takes the first offer made, Cara's, and Ailsa's lapses. Time is called
// while that pass is under way; Ailsa's new offer is refused; Bran unhorses Cara (no remounts):
// 1 mounted each when the pass ends, a tie at the time limit, so no side wins (R37).
//
// By hand: Lists: Ailsa 2, Bran 4. Melee: Ailsa 1 (took part); Cara 1 (took part); Bran 1 +
// 1 unhorsing + first prize 1 = 3; no winning side. Totals: Ailsa 3, Bran 7, Cara 1.
#[tokio::test]
async fn time_called_while_a_pass_is_under_way_lets_it_be_fought_out() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
cara: /melee join Ravens
bran: /melee join Wolves
mod: /melee start
cara: /pass Bran
ailsa: /pass Bran
@dice 90 90 90 20 30 50
bran: /accept
mod: /melee time
ailsa: /pass Bran
cara: /nosweep
bran: /nosweep
bran: /high
mod: /melee prize Bran
",
        two_knight_lists_then("--melee")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Dame Cara offers Sir Bran a pass (#1). bran: /accept or /decline.",
            "Dame Ailsa offers Sir Bran a pass (#2). bran: /accept or /decline.",
            "Sir Bran accepts the pass (#1) of Dame Cara.",
            "Fight #2: Dame Cara vs Sir Bran, a Melee pass of Yule Lists",
            "Time is called on the Melee (R135): open offers lapse and no new pass starts; passes accepted are fought out.",
            "No pass:",
            "Dame Cara is unhorsed!",
            "Dame Cara is out of the Melee.",
            "The Melee is over at its time limit: a tie, 1 mounted each, so no side wins (R37).",
            "Sir Bran wins the first prize of the Melee (R37).",
            "The Melee: no side won; first prize: Sir Bran.",
            "Dame Ailsa: 3 HP (matches fought in the lists; top three in the lists: finalist; took part in the melee)",
            "Sir Bran: 7 HP (matches fought in the lists; opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists; took part in the melee; opponents unhorsed in the melee; first prize of the melee)",
            "Dame Cara: 1 HP (took part in the melee)",
        ],
    );
    // The Melee did not end when time was called: the pass under way was fought out first.
    assert!(
        at(&run, "Time is called on the Melee") < at(&run, "Dame Cara is unhorsed!"),
        "{}",
        run.out
    );
    assert_eq!(times(&run, "The Melee is over"), 1, "{}", run.out);
    run.expect_not("on the winning side");

    let store = books.store().await;
    // Ailsa's first offer lapsed when Bran entered Cara's pass (R134); her second was refused.
    let passes = state(&store, 1).await["melee"]["melee"]["passes"].clone();
    assert_eq!(passes.as_array().map(Vec::len), Some(2), "{passes:#}");
    assert_eq!(passes[1]["state"], "lapsed", "{passes:#}");
    let ledger = awards(&store, 1).await;
    assert_eq!(
        totals(&ledger),
        whole(&[("Ailsa", 3), ("Bran", 7), ("Cara", 1)])
    );
}

// R164: after the Lists a moderator has moderator_timeout_secs (600 s here) to open the Melee;
// sides never named mean no Melee, and the tournament ends with the Lists' awards alone. R163:
// meanwhile no practice joust starts in its channel, though one may elsewhere.
#[tokio::test]
async fn a_melee_never_opened_is_not_held() {
    let books = Books::new();
    let t = format!(
        "{}\
cara: /joust dughall
[#yard] cara: /joust dughall
[#yard] dughall: /decline
@wait 599
ailsa: /tournament
@wait 1
",
        two_knight_lists_then("--melee")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "The Melee follows. A moderator opens it with its two sides: /melee open SIDE SIDE (within 10 minutes).",
            "[#lists] Yule Lists is under way in #lists; practice jousts wait until it is over, or go to another channel.",
            "[#yard] Dame Cara challenges Sir Dughall to a practice joust!",
            "Yule Lists (#1) is under way in #lists: the Melee musters: /melee join SIDE.",
            "The Melee of Yule Lists is not held: no moderator named its sides in time (R133).",
            "Yule Lists is over. The Lists: Champion: Sir Bran; finalist: Dame Ailsa.",
            "Dame Ailsa: 2 HP (matches fought in the lists; top three in the lists: finalist)",
            "Sir Bran: 4 HP (matches fought in the lists; opponents unhorsed in the lists; top three in the lists: champion; first prize of the lists)",
        ],
    );
    run.expect_not("The Melee:");
    let store = books.store().await;
    assert_eq!(tournament_status(&store, 1).await, "finished");
    assert_eq!(
        totals(&awards(&store, 1).await),
        whole(&[("Ailsa", 2), ("Bran", 4)])
    );
}

// R164: sides named and a knight on each, but no moderator starts it in time: Herald starts it,
// with its full time limit from then. A side left empty means no Melee.
#[tokio::test]
async fn a_mustered_melee_is_started_by_herald_and_an_empty_side_is_not_held() {
    // A knight on each side: started by Herald at 11:13 (the Lists ended at 11:03).
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
bran: /melee join Wolves
@wait 600
ailsa: /tournament
",
        two_knight_lists_then("--melee --melee-minutes 15")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("No moderator started the Melee in time, so Herald starts it: 15 minutes until time is called.")
        .expect("Yule Lists (#1) is under way in #lists: the Melee: /pass KNIGHT to offer a pass.");
    let store = books.store().await;
    let melee = state(&store, 1).await["melee"].clone();
    assert_eq!(melee["melee"]["phase"], "fighting", "{melee:#}");
    assert_eq!(
        melee["ends_at"]
            .as_str()
            .map(|s| chrono::DateTime::parse_from_rfc3339(s).unwrap()),
        Some(chrono::DateTime::parse_from_rfc3339("2026-12-01T11:28:00Z").unwrap()),
        "{melee:#}"
    );

    // One side empty: not held.
    let books = Books::new();
    let t = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
@wait 600
",
        two_knight_lists_then("--melee")
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "The Melee of Yule Lists is not held: each side needs a knight in time (R133).",
            "Yule Lists is over.",
            "Dame Ailsa: 2 HP (matches fought in the lists; top three in the lists: finalist)",
        ],
    );
    run.expect_not("took part in the melee");
}

// =============================================================================================
// 3. One tournament a month
// =============================================================================================

// R38, R139: a second tournament in a month that has one is refused; with --force it is
// scheduled and the override is logged (the reply, and `tournaments.overrode` = how many the
// month had). A month that is free needs no override even with --force; a cancelled tournament
// does not count (R165); the month is the realm's (R25).
#[tokio::test]
async fn one_tournament_a_month_unless_a_moderator_overrides() {
    let books = Books::new();
    let t = "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00Z
mod: /tournament schedule \"Midwinter Lists\" 2026-12-20T18:00Z
mod: /tournament schedule \"Midwinter Lists\" 2026-12-20T18:00Z --force
mod: /tournament schedule \"Hogmanay Lists\" 2026-12-31T18:00Z --force
mod: /tournament schedule \"Candlemas Lists\" 2027-01-05T18:00Z --force
mod: /tournament schedule \"Imbolc Lists\" 2027-02-01T18:00Z
";
    let run = run_with(&books.path(), CONFIG, t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Tournament #1, Yule Lists, is scheduled for Sat 5 Dec 2026 18:00 UTC in #lists: the Lists.",
            "Not scheduled: the realm already has a tournament in 2026-12; one a month (R38), unless a moderator overrides. Add --force to hold a second one (the override is logged).",
            "Tournament #2, Midwinter Lists, is scheduled for Sun 20 Dec 2026 18:00 UTC in #lists",
            "Override logged: 2026-12 already has 1 tournament in this realm; mod scheduled another (R38).",
            "Tournament #3, Hogmanay Lists, is scheduled",
            "Override logged: 2026-12 already has 2 tournaments in this realm; mod scheduled another (R38).",
            "Tournament #4, Candlemas Lists, is scheduled for Tue 5 Jan 2027 18:00 UTC",
            "Tournament #5, Imbolc Lists, is scheduled",
        ],
    );
    // R139: a free month is a plain allowance, --force or not: two overrides logged, no more.
    assert_eq!(times(&run, "Override logged"), 2, "{}", run.out);

    let store = books.store().await;
    let rows: Vec<(i64, String, Option<i64>, String)> =
        sqlx::query("SELECT id, name, overrode, status FROM tournaments ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect();
    assert_eq!(
        rows,
        vec![
            (1, "Yule Lists".into(), None, "scheduled".into()),
            (2, "Midwinter Lists".into(), Some(1), "scheduled".into()),
            (3, "Hogmanay Lists".into(), Some(2), "scheduled".into()),
            (4, "Candlemas Lists".into(), None, "scheduled".into()),
            (5, "Imbolc Lists".into(), None, "scheduled".into()),
        ]
    );

    // A cancelled tournament leaves its month free.
    let books = Books::new();
    let t = "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00Z
mod: /tournament cancel
mod: /tournament schedule \"Advent Lists\" 2026-12-12T18:00Z
";
    let run = run_with(&books.path(), CONFIG, t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Yule Lists (#1), due Sat 5 Dec 2026 18:00 UTC in #lists, is cancelled by mod.",
            "Tournament #2, Advent Lists, is scheduled for Sat 12 Dec 2026 18:00 UTC in #lists",
        ],
    );
    run.expect_not("Not scheduled").expect_not("Override");
    let store = books.store().await;
    let overrode: Option<i64> = sqlx::query_scalar("SELECT overrode FROM tournaments WHERE id = 2")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(overrode, None);
    let (status, by): (String, Option<String>) =
        sqlx::query_as("SELECT status, ended_by FROM tournaments WHERE id = 1")
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!((status.as_str(), by.as_deref()), ("cancelled", Some("mod")));

    // R25, R38: the month is the realm's. In Berlin, 23:30 UTC on 31 December is already
    // January, and an hour earlier is still December.
    let books = Books::new();
    let berlin = CONFIG.replace("[realm]\n", "[realm]\ntimezone = \"Europe/Berlin\"\n");
    let t = "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00
mod: /tournament schedule \"Hogmanay Lists\" 2026-12-31T23:30Z
mod: /tournament schedule \"Late Lists\" 2026-12-31T22:30Z
mod: /tournament schedule \"Candlemas Lists\" 2027-01-31T23:30
";
    let run = run_with(&books.path(), &berlin, t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Tournament #1, Yule Lists, is scheduled for Sat 5 Dec 2026 18:00 CET",
            "Tournament #2, Hogmanay Lists, is scheduled for Fri 1 Jan 2027 00:30 CET",
            "Not scheduled: the realm already has a tournament in 2026-12;",
            "Not scheduled: the realm already has a tournament in 2027-01;",
        ],
    );
    let store = books.store().await;
    let months: Vec<(String, String)> =
        sqlx::query_as("SELECT starts_at, month FROM tournaments ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap();
    let utc = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap();
    assert_eq!(months.len(), 2, "{months:?}");
    assert_eq!(utc(&months[0].0), utc("2026-12-05T17:00:00Z"));
    assert_eq!(months[0].1, "2026-12");
    assert_eq!(utc(&months[1].0), utc("2026-12-31T23:30:00Z"));
    assert_eq!(months[1].1, "2027-01");
}

// =============================================================================================
// 4. Restarts
// =============================================================================================

/// A tournament in seven pieces; each piece after the first is where Herald might restart. The
/// clock moves less than a decision's timeout between pieces, so the whole, run at once, takes
/// exactly the same decisions; each piece queues only the dice it rolls (a restart drops the
/// rest of the queue).
/// 1. Ailsa, Bran and Cara enter; round 1 (`3 2`): Ailsa vs Bran, Cara sits out; Ailsa does not
///    sweep. Restart mid-match.
/// 2. Bran unhorses Ailsa (R35); round 2 (`2`): Bran vs Cara starts. Restart at the start of a
///    match.
/// 3. Bran yields: the Lists are over, the Melee musters. Restart between stages.
/// 4. The Melee opens; Ailsa and Cara for the Ravens, Bran and Dughall for the Wolves; it
///    starts at 11:02 (20 minutes); Ailsa's pass with Bran starts and Cara's with Dughall waits
///    its turn (R163). Ailsa does not sweep. Restart mid-pass, with a pass queued.
/// 5. Bran unhorses Ailsa, who remounts (R37); Cara's pass with Dughall starts. Restart.
/// 6. Cara unhorses Dughall, who remounts; Bran offers Ailsa a pass and unhorses her: she is
///    out. The time limit at 11:22: the Wolves win, 2 mounted to 1. Restart while the first
///    prize is awaited (R164).
/// 7. The moderator names Cara first prize; the awards.
const PIECES: [&str; 7] = [
    "\
@clock 2026-12-01T10:00:00Z
ailsa: /knight create Ailsa --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
bran: /knight create Bran --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
cara: /knight create Cara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
dughall: /knight create Dughall --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
mod: /tournament schedule \"Yule Lists\" in 1h --melee --remount --melee-minutes 20
ailsa: /enter
bran: /enter
cara: /enter
@dice 3 2 90 90 90 20
@clock 2026-12-01T11:00:00Z
ailsa: /nosweep
",
    "\
@clock 2026-12-01T11:00:30Z
@dice 30 50 2 90 90 90 20
bran: /nosweep
bran: /high
",
    "\
@clock 2026-12-01T11:01:00Z
bran: /yield
",
    "\
@clock 2026-12-01T11:02:00Z
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
cara: /melee join Ravens
bran: /melee join Wolves
dughall: /melee join Wolves
mod: /melee start
ailsa: /pass Bran
@dice 90 90 90 20
bran: /accept
cara: /pass Dughall
dughall: /accept
ailsa: /nosweep
",
    "\
@clock 2026-12-01T11:02:30Z
@dice 30 50 90 90 20 90
bran: /nosweep
bran: /high
",
    "\
@clock 2026-12-01T11:03:00Z
@dice 30 50
dughall: /nosweep
cara: /nosweep
cara: /high
bran: /pass Ailsa
@dice 90 90 20 90 30 50
ailsa: /accept
ailsa: /nosweep
bran: /nosweep
bran: /high
@wait 1200
",
    "\
@clock 2026-12-01T11:25:00Z
mod: /melee prize Cara
",
];

/// Every ledger row, as (knight, HP halves, PP halves, kind, reason, tournament).
async fn ledger(store: &Store) -> Vec<(String, i64, i64, String, String, Option<i64>)> {
    sqlx::query(
        "SELECT k.name, l.hp_halves, l.pp_halves, l.kind, l.reason, l.tournament_id \
         FROM ledger l JOIN knights k ON k.id = l.knight_id ORDER BY l.id",
    )
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))
    .collect()
}

// R35, R37, R164: a restart mid-match, at the start of a match, between the Lists and the
// Melee, mid-pass with another pass waiting, and while the first prize is awaited: the
// tournament carries on where it stood, nothing is said or drawn twice, and the awards are
// exactly those of the same tournament run without a restart.
//
// By hand: Lists (R36): Ailsa 1 match + semi-finalist = 2; Bran 2 matches + 1 unhorsing +
// finalist = 4; Cara 1 match + champion + first prize = 3. Melee (R37): Ailsa 1 (took part;
// unhorsed twice, remounted once); Bran 1 + 2 unhorsings + winning side = 4; Cara 1 + 1
// unhorsing + first prize = 3; Dughall 1 + winning side = 2.
// Totals: Ailsa 3, Bran 8, Cara 6, Dughall 2.
#[tokio::test]
async fn a_tournament_restarted_at_every_stage_ends_as_one_run_without_restarts() {
    // Without a restart.
    let whole_books = Books::new();
    let at_once = run_with(&whole_books.path(), CONFIG, &PIECES.concat()).await;
    assert_eq!(at_once.result, Ok(()), "{}", at_once.out);
    at_once
        .expect_not("Herald is back")
        .expect_not("carries on");

    // With a restart before each piece after the first.
    let books = Books::new();
    let mut runs = Vec::new();
    for piece in PIECES {
        let run = run_with(&books.path(), CONFIG, piece).await;
        assert_eq!(run.result, Ok(()), "{}", run.out);
        runs.push(run);
    }
    // Where each restart found it.
    for (i, run) in runs.iter().enumerate().skip(1) {
        run.expect("Yule Lists carries on where it stood.");
        assert_eq!(
            times(run, "carries on where it stood"),
            1,
            "piece {i}:\n{}",
            run.out
        );
        // Nothing is started or drawn again.
        run.expect_not("Yule Lists begins!").expect_not("Round 1:");
    }
    runs[1].expect("Herald is back. Fight #1 resumes where it stood.");
    assert!(
        runs[1].lines()[0].contains("Herald is back. Fight #1 resumes"),
        "{}",
        runs[1].out
    );
    in_order(
        &runs[1],
        &[
            "Fight #1: Dame Ailsa vs Sir Bran, Joust, pass 1.",
            "Sir Bran (bran), announce a sweep or not [Bonus +15, weaken]",
            "Sir Bran does not sweep.",
            "Dame Ailsa is unhorsed!",
            "Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "Round 2: Sir Bran vs Dame Cara.",
            "Fight #2: Sir Bran vs Dame Cara, a Lists match of Yule Lists (round 2;",
        ],
    );
    runs[2].expect("Herald is back. Fight #2 resumes where it stood.");
    in_order(
        &runs[2],
        &[
            "Sir Bran yields.",
            "Dame Cara wins the match and rides on; Sir Bran is out of the Lists.",
            "The Lists are over. Champion: Dame Cara; finalist: Sir Bran; semi-finalist: Dame Ailsa.",
            "The Melee follows.",
        ],
    );
    runs[3].expect_not("Herald is back");
    in_order(
        &runs[3],
        &[
            "The Melee of Yule Lists opens: the Ravens against the Wolves.",
            "The Melee begins! Time is called in 20 minutes.",
            "Fight #3: Dame Ailsa vs Sir Bran, a Melee pass of Yule Lists",
            "Sir Dughall accepts the pass (#2) of Dame Cara.",
        ],
    );
    runs[3].expect_not("Fight #4");
    in_order(
        &runs[4],
        &[
            "Herald is back. Fight #3 resumes where it stood.",
            "Dame Ailsa is unhorsed!",
            "Dame Ailsa remounts and rides on (R37).",
            "Fight #4: Dame Cara vs Sir Dughall, a Melee pass of Yule Lists",
        ],
    );
    in_order(
        &runs[5],
        &[
            "Herald is back. Fight #4 resumes where it stood.",
            "Sir Dughall is unhorsed!",
            "Sir Dughall remounts and rides on (R37).",
            "Fight #5: Sir Bran vs Dame Ailsa, a Melee pass of Yule Lists",
            "Dame Ailsa is unhorsed!",
            "Dame Ailsa is out of the Melee.",
            "The Melee is over at its time limit: the Wolves win, 2 mounted to 1.",
        ],
    );
    runs[6].expect_not("Herald is back");
    in_order(
        &runs[6],
        &[
            "Dame Cara wins the first prize of the Melee (R37).",
            "Yule Lists is over.",
        ],
    );
    // The time limit fell at 11:22, 20 minutes after the start, restart or not.
    for db in [books.path(), whole_books.path()] {
        let store = Store::open(&db).await.unwrap();
        let ended: String = sqlx::query_scalar(
            "SELECT ended_at FROM tournaments WHERE id = 1 AND status = 'finished'",
        )
        .fetch_one(store.pool())
        .await
        .unwrap();
        assert_eq!(
            chrono::DateTime::parse_from_rfc3339(&ended).unwrap(),
            chrono::DateTime::parse_from_rfc3339("2026-12-01T11:25:00Z").unwrap()
        );
    }

    // The same awards, said and written.
    let awards_said =
        |run: &Run| after_last(run, "The awards (R36, R37), as written to the books:");
    assert_eq!(awards_said(&runs[6]), awards_said(&at_once));
    assert_eq!(
        awards_said(&at_once),
        "\
Dame Ailsa: 3 HP (matches fought in the lists; top three in the lists: semi-finalist; took part in the melee)
Sir Bran: 8 HP (matches fought in the lists (2); opponents unhorsed in the lists; top three in the lists: finalist; took part in the melee; opponents unhorsed in the melee (2); on the winning side of the melee)
Dame Cara: 6 HP (matches fought in the lists; top three in the lists: champion; first prize of the lists; took part in the melee; opponents unhorsed in the melee; first prize of the melee)
Sir Dughall: 2 HP (took part in the melee; on the winning side of the melee)
"
    );
    let restarted = books.store().await;
    let straight = whole_books.store().await;
    assert_eq!(ledger(&restarted).await, ledger(&straight).await);
    assert_eq!(
        totals(&awards(&restarted, 1).await),
        whole(&[("Ailsa", 3), ("Bran", 8), ("Cara", 6), ("Dughall", 2)])
    );
    // The same fights, with the same results, and none left open.
    let fights_of = |store: Store| async move {
        sqlx::query("SELECT id, kind, winner_id, reason, tournament_id FROM fights ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r.get::<i64, _>(0),
                    r.get::<String, _>(1),
                    r.get::<Option<i64>, _>(2),
                    r.get::<Option<String>, _>(3),
                    r.get::<Option<i64>, _>(4),
                )
            })
            .collect::<Vec<_>>()
    };
    let a = fights_of(restarted).await;
    let b = fights_of(straight).await;
    assert_eq!(a.len(), 5);
    assert_eq!(a, b);
}

// R163: "a knight still in a tournament fights only there". Once the Lists are over, their
// champion is in nothing until they join the Melee: `still_in` (what a restart enlists) says so.
// Herald should answer the same with or without a restart; without one, the champion is kept
// from jousting elsewhere until the whole tournament ends, while the finalist may.
#[tokio::test]
async fn after_the_lists_the_champion_is_free_the_same_with_or_without_a_restart() {
    let lists = format!(
        "{}{}@dice 2 90 90 90 20\nmod: /tournament start\nailsa: /yield\n",
        knights(3),
        "mod: /tournament schedule \"Yule Lists\" in 1h --melee\nailsa: /enter\nbran: /enter\n",
    );
    let joust = "[#yard] bran: /joust cara\n[#yard] cara: /decline\n[#yard] ailsa: /joust cara\n";

    // Restarted between the Lists and the Melee.
    let books = Books::new();
    let first = run_with(&books.path(), CONFIG, &lists).await;
    assert_eq!(first.result, Ok(()), "{}", first.out);
    first.expect("The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.");
    let after_restart = run_with(
        &books.path(),
        CONFIG,
        &format!("@clock 2026-12-01T10:00:30Z\n{joust}"),
    )
    .await;
    assert_eq!(after_restart.result, Ok(()), "{}", after_restart.out);
    after_restart
        .expect("Sir Bran challenges Dame Cara to a practice joust!")
        .expect("Dame Ailsa challenges Dame Cara to a practice joust!");

    // The same, without a restart.
    let books = Books::new();
    let straight = run_with(&books.path(), CONFIG, &format!("{lists}{joust}")).await;
    assert_eq!(straight.result, Ok(()), "{}", straight.out);
    straight
        .expect("Dame Ailsa challenges Dame Cara to a practice joust!")
        .expect_not("Sir Bran is in the tournament under way in #lists")
        .expect("Sir Bran challenges Dame Cara to a practice joust!");
}

// =============================================================================================
// 5. Reminders
// =============================================================================================

// R166: reminders 1 day and 1 hour before the start, each said once, even across restarts (the
// claim in `tournament_reminders` comes first); none that fell due before the tournament was
// scheduled.
#[tokio::test]
async fn reminders_are_said_once_each_across_restarts() {
    let books = Books::new();
    let day_before = "\
@clock 2026-12-01T10:00:00Z
ailsa: /knight create Ailsa --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
bran: /knight create Bran --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00Z
ailsa: /enter
@clock 2026-12-04T17:59:59Z
ailsa: /tournament
@clock 2026-12-04T18:30:00Z
";
    let one = run_with(&books.path(), CONFIG, day_before).await;
    assert_eq!(one.result, Ok(()), "{}", one.out);
    // Said on time, exactly a day before, with who has entered.
    assert!(
        at(&one, "(in 1 day)") < at(&one, "Reminder:"),
        "{}",
        one.out
    );
    one.expect("Reminder: Yule Lists begins here in 1 day (Sat 5 Dec 2026 18:00 UTC); entered (1): Dame Ailsa. /enter to take part.");
    assert_eq!(times(&one, "Reminder:"), 1, "{}", one.out);

    // A restart after the day's reminder: it is not said again; the hour's comes on time.
    let two = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-04T19:00:00Z
bran: /enter
@clock 2026-12-05T16:59:59Z
bran: /tournament
@clock 2026-12-05T17:10:00Z
",
    )
    .await;
    assert_eq!(two.result, Ok(()), "{}", two.out);
    assert_eq!(times(&two, "Reminder:"), 1, "{}", two.out);
    two.expect("Reminder: Yule Lists begins here in 1 hour (Sat 5 Dec 2026 18:00 UTC); entered (2): Dame Ailsa, Sir Bran.");
    assert!(
        at(&two, "(in 1 hour)") < at(&two, "Reminder:"),
        "{}",
        two.out
    );

    // A restart after both: neither is said again, and the tournament starts on time.
    let three = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-05T17:30:00Z
ailsa: /tournament
@dice 2 90 90 90 20
@clock 2026-12-05T18:00:00Z
ailsa: /yield
",
    )
    .await;
    assert_eq!(three.result, Ok(()), "{}", three.out);
    three
        .expect_not("Reminder:")
        .expect("Yule Lists begins! 2 knights ride in the Lists: Dame Ailsa, Sir Bran.")
        .expect("The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.");

    let store = books.store().await;
    let claimed: Vec<(i64, String)> = sqlx::query(
        "SELECT lead_secs, sent_at FROM tournament_reminders WHERE tournament_id = 1 ORDER BY lead_secs",
    )
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect();
    let utc = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap();
    assert_eq!(claimed.len(), 2, "{claimed:?}");
    assert_eq!(claimed[0].0, 3600);
    assert_eq!(utc(&claimed[0].1), utc("2026-12-05T17:00:00Z"));
    assert_eq!(claimed[1].0, 86400);
    assert_eq!(utc(&claimed[1].1), utc("2026-12-04T18:00:00Z"));
}

// R166: after an outage only the latest reminder due is said, with the time actually left (and
// both are claimed); a reminder due before the tournament was scheduled is never said.
#[tokio::test]
async fn after_an_outage_only_the_latest_reminder_is_said_and_none_before_the_schedule() {
    let books = Books::new();
    let first = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00Z
",
    )
    .await;
    assert_eq!(first.result, Ok(()), "{}", first.out);
    // Herald is away until half an hour before the start.
    let back = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-05T17:30:00Z
mod: /tournament
@wait 1
",
    )
    .await;
    assert_eq!(back.result, Ok(()), "{}", back.out);
    assert_eq!(times(&back, "Reminder:"), 1, "{}", back.out);
    back.expect("Reminder: Yule Lists begins here in 30 minutes (Sat 5 Dec 2026 18:00 UTC); no one has entered yet.");
    back.expect_not("in 1 day");
    let store = books.store().await;
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM tournament_reminders").await,
        2
    );

    // Scheduled 30 minutes ahead: both reminders fell due before it was scheduled.
    let books = Books::new();
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" in 30m
@clock 2026-12-01T10:29:59Z
mod: /tournament
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Tournament #1, Yule Lists, is scheduled")
        .expect_not("Reminder:");
    let store = books.store().await;
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM tournament_reminders").await,
        0
    );
}

// =============================================================================================
// 6. Moderators only
// =============================================================================================

/// The refusal of a moderator's command to anyone else.
fn moderators_only(command: &str) -> String {
    format!("Only a moderator may use /{command}; moderators are named under [permissions]")
}

// The grammar's access table: /tournament schedule, start and cancel, /melee open, start, time
// and prize are the moderators' (R38, R164, R165). Each refused to a player changes nothing in
// the books; the same command from the moderator then works.
#[tokio::test]
async fn only_moderators_schedule_start_cancel_and_run_the_melee() {
    let books = Books::new();
    let store = books.store().await;

    // Schedule: refused, nothing written.
    let setup = format!(
        "{}bran: /tournament schedule \"Yule Lists\" in 1h --melee --force\n",
        knights(2)
    );
    let run = run_with(&books.path(), CONFIG, &setup).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(&moderators_only("tournament schedule"))
        .expect_not("is scheduled");
    assert_eq!(count(&store, "SELECT COUNT(*) FROM tournaments").await, 0);

    // Cancel and start: refused, still scheduled, nothing drawn.
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:10Z
mod: /tournament schedule \"Yule Lists\" in 1h --melee
ailsa: /enter
bran: /enter
bran: /tournament cancel
bran: /tournament start
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Tournament #1, Yule Lists, is scheduled")
        .expect(&moderators_only("tournament cancel"))
        .expect(&moderators_only("tournament start"))
        .expect_not("is cancelled")
        .expect_not("begins!");
    assert_eq!(tournament_status(&store, 1).await, "scheduled");
    assert!(state(&store, 1).await.is_null());
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM tournament_entries").await,
        2
    );

    // The moderator starts it; the Lists; then /melee open: refused, the Melee still unopened.
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:20Z
@dice 2 90 90 90 20
mod: /tournament start
ailsa: /yield
bran: /melee open Ravens Wolves
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Yule Lists begins!")
        .expect("The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.")
        .expect(&moderators_only("melee open"))
        .expect_not("The Melee of Yule Lists opens");
    let melee = state(&store, 1).await["melee"].clone();
    assert!(melee.get("melee").is_some_and(|m| m.is_null()), "{melee:#}");

    // /melee start and time: refused; the moderator's work.
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:30Z
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
bran: /melee join Wolves
ailsa: /melee start
mod: /melee start
bran: /melee time
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(&moderators_only("melee start"))
        .expect(&moderators_only("melee time"))
        .expect("The Melee begins!")
        .expect_not("Time is called on the Melee");
    assert_eq!(
        state(&store, 1).await["melee"]["melee"]["phase"],
        "fighting"
    );

    // /melee prize: refused; nothing named, nothing awarded.
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:40Z
mod: /melee time
bran: /melee prize Bran
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(
        "The Melee is over at its time limit: a tie, 1 mounted each, so no side wins (R37).",
    )
    .expect(&moderators_only("melee prize"))
    .expect_not("wins the first prize");
    let melee = state(&store, 1).await["melee"]["melee"].clone();
    assert!(
        melee.get("first_prize").is_some_and(|p| p.is_null()),
        "{melee:#}"
    );
    assert_eq!(tournament_status(&store, 1).await, "running");
    assert_eq!(count(&store, "SELECT COUNT(*) FROM ledger").await, 0);

    // The moderator names it: the tournament ends.
    let run = run_with(
        &books.path(),
        CONFIG,
        "@clock 2026-12-01T10:00:50Z\nmod: /melee prize Bran\n",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Bran wins the first prize of the Melee (R37).")
        .expect("Yule Lists is over.");
    assert_eq!(tournament_status(&store, 1).await, "finished");
}

// =============================================================================================
// 7. Entries
// =============================================================================================

// R161: entries close at the start; a knight who withdrew before it does not ride; /enter and
// /withdraw after it are refused; psi is armed only once it is under way (R21). R165: a
// tournament under way cannot be cancelled. A tournament is started in the channel that holds it.
#[tokio::test]
async fn entries_close_at_the_start_and_a_withdrawal_before_it_counts() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /tournament schedule \"Yule Lists\" in 1h --channel #yard
ailsa: /enter
ailsa: /enter
bran: /enter
cara: /enter
cara: /withdraw
cara: /withdraw
nobody: /enter
ailsa: /bracket
[#yard] ailsa: /psi apportation
mod: /tournament start
@dice 2 90 90 90 20
[#yard] mod: /tournament start
[#yard] cara: /enter
[#yard] bran: /withdraw
[#yard] mod: /tournament cancel
[#yard] ailsa: /tournament
[#yard] ailsa: /yield
",
        knights(3)
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Tournament #1, Yule Lists, is scheduled for Tue 1 Dec 2026 11:00 UTC in #yard: the Lists.",
            "Dame Ailsa enters Yule Lists, which begins Tue 1 Dec 2026 11:00 UTC in #yard.",
            "Dame Ailsa has already entered Yule Lists.",
            "Sir Bran enters Yule Lists",
            "Dame Cara enters Yule Lists",
            "Dame Cara withdraws from Yule Lists.",
            "Dame Cara is not entered in Yule Lists. /enter to take part.",
            "nobody, you have no knight to enter.",
            "No Lists have been drawn yet.",
            "[#yard] Yule Lists has not begun: arm psi for your match once it has (/psi SKILL).",
            "[#lists] Yule Lists is held in #yard: say /tournament start there.",
            "[#yard] Yule Lists begins! 2 knights ride in the Lists: Dame Ailsa, Sir Bran.",
            "[#yard] Round 1: Dame Ailsa vs Sir Bran.",
            "[#yard] No tournament is taking entries.",
            "[#yard] No tournament is taking entries, so there is nothing to withdraw from.",
            "[#yard] Yule Lists is already under way in #yard; a tournament that has begun runs to its end.",
            "[#yard] Yule Lists (#1) is under way in #yard: the Lists, round 1; /bracket shows them.",
            "[#yard] The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.",
        ],
    );

    let store = books.store().await;
    let entered: Vec<String> = sqlx::query_scalar(
        "SELECT k.name FROM tournament_entries e JOIN knights k ON k.id = e.knight_id \
         WHERE e.tournament_id = 1 ORDER BY e.rowid",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    assert_eq!(entered, vec!["Ailsa".to_string(), "Bran".to_string()]);
    assert_eq!(tournament_status(&store, 1).await, "finished");
    let channel: String = sqlx::query_scalar("SELECT channel FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(channel, "#yard");
    assert!(!awards(&store, 1).await.iter().any(|r| r.0 == "Cara"));
}

// R161: fewer than two knights able to ride at the start calls the tournament off; nothing is
// drawn or fought, and nothing awarded.
#[tokio::test]
async fn fewer_than_two_entrants_call_the_tournament_off() {
    for (entrants, said) in [(1, "and 1 is."), (0, "and 0 are.")] {
        let books = Books::new();
        let t = format!(
            "{}mod: /tournament schedule \"Yule Lists\" in 1h\n{}@clock 2026-12-01T11:00:00Z\nailsa: /tournament\nailsa: /bracket\n",
            knights(2),
            enter(&KNIGHTS[..entrants]),
        );
        let run = run_with(&books.path(), CONFIG, &t).await;
        assert_eq!(run.result, Ok(()), "{}", run.out);
        run.expect(&format!(
            "Yule Lists is called off: it needs at least two knights able to ride, {said}"
        ))
        .expect("No tournament is scheduled.")
        .expect("No Lists have been drawn yet.")
        .expect_not("begins!");

        let store = books.store().await;
        let (status, why): (String, Option<String>) =
            sqlx::query_as("SELECT status, ended_by FROM tournaments WHERE id = 1")
                .fetch_one(store.pool())
                .await
                .unwrap();
        assert_eq!(status, "cancelled");
        assert_eq!(why.as_deref(), Some("fewer than two knights able to ride"));
        assert_eq!(count(&store, "SELECT COUNT(*) FROM fights").await, 0);
        assert_eq!(count(&store, "SELECT COUNT(*) FROM ledger").await, 0);
        assert!(state(&store, 1).await.is_null());
    }
}

// R161: a knight who cannot ride at the start (a major injury that morning, R12: unhorsed with a
// Shield roll of 100) is left out and told why. R163: a tournament due while a practice fight is
// on in its channel starts when that fight ends; a match whose knight is still fighting
// elsewhere waits for them (tried again after match_retry_secs).
#[tokio::test]
async fn a_knight_who_cannot_ride_is_left_out_and_the_lists_wait_for_fights_on() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /tournament schedule \"Yule Lists\" in 1h
ailsa: /enter
bran: /enter
cara: /enter
cara: /joust dughall
@dice 90 90 90 20 30 100
dughall: /accept
cara: /nosweep
dughall: /nosweep
dughall: /high
@clock 2026-12-01T10:59:30Z
[#yard] bran: /joust dughall
@dice 90 90 90 20
[#yard] dughall: /accept
@dice 2 90 90 90 20
@clock 2026-12-01T11:00:15Z
[#yard] bran: /yield
ailsa: /tournament
@wait 45
cara: /joust dughall
ailsa: /yield
",
        knights(4)
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "[#lists] Dame Cara suffers a major injury (out of every fight for the rest of the day).",
            "[#yard] Fight #2: Sir Bran vs Sir Dughall, a practice joust.",
            "[#lists] Dame Cara is out with a major injury for the rest of the day (R12). Dame Cara does not ride in Yule Lists.",
            "[#lists] Yule Lists begins! 2 knights ride in the Lists: Dame Ailsa, Sir Bran.",
            "[#lists] Round 1: Dame Ailsa vs Sir Bran.",
            "[#lists] The next match waits for Sir Bran, who is still fighting in #yard.",
            "[#yard] Sir Bran yields.",
            "[#yard] Fight #2 is over.",
            "[#lists] Yule Lists (#1) is under way in #lists: the Lists, round 1; /bracket shows them.",
            "[#lists] Fight #3: Dame Ailsa vs Sir Bran, a Lists match of Yule Lists (round 1;",
            "[#lists] A fight is on in #lists: Dame Ailsa vs Sir Bran.",
            "[#lists] Sir Bran wins the match and rides on; Dame Ailsa is out of the Lists.",
            "[#lists] Dame Ailsa: 2 HP (matches fought in the lists; top three in the lists: finalist)",
        ],
    );
    // The match waited for the retry, a minute after the start.
    let store = books.store().await;
    let started: String = sqlx::query_scalar("SELECT started_at FROM fights WHERE id = 3")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(&started).unwrap(),
        chrono::DateTime::parse_from_rfc3339("2026-12-01T11:01:00Z").unwrap()
    );
    // Cara, entered but left out, earns nothing; the entry stays on the books.
    assert!(!awards(&store, 1).await.iter().any(|r| r.0 == "Cara"));
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = 1"
        )
        .await,
        3
    );

    // A practice fight on in the channel when the tournament falls due: it starts when that
    // fight ends.
    let books = Books::new();
    let t = format!(
        "{}\
mod: /tournament schedule \"Yule Lists\" in 1h
ailsa: /enter
bran: /enter
@clock 2026-12-01T10:59:30Z
cara: /joust dughall
@dice 90 90 90 20
dughall: /accept
@clock 2026-12-01T11:00:15Z
@dice 2 90 90 90 20
cara: /yield
ailsa: /yield
",
        knights(4)
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "Fight #1: Dame Cara vs Sir Dughall, a practice joust.",
            "Dame Cara yields.",
            "Fight #1 is over.",
            "Yule Lists begins! 2 knights ride in the Lists: Dame Ailsa, Sir Bran.",
            "Fight #2: Dame Ailsa vs Sir Bran, a Lists match of Yule Lists (round 1;",
            "The Lists are over. Champion: Sir Bran; finalist: Dame Ailsa.",
        ],
    );
    assert!(at(&run, "Fight #1 is over") < at(&run, "Yule Lists begins!"));
}

// R166: "only reminders due after the tournament was scheduled are said". Scheduled at 10:00
// "in 1h", the hour's reminder falls due at 10:00, the very moment of scheduling, not after it:
// right after the announcement of an 11:00 start it would only repeat it.
#[tokio::test]
async fn a_reminder_due_the_moment_the_tournament_is_scheduled_is_not_said() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        CONFIG,
        "\
@clock 2026-12-01T10:00:00Z
mod: /tournament schedule \"Yule Lists\" in 1h
@clock 2026-12-01T10:30:00Z
mod: /tournament
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Tournament #1, Yule Lists, is scheduled for Tue 1 Dec 2026 11:00 UTC")
        .expect_not("Reminder:");
    let store = books.store().await;
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM tournament_reminders").await,
        0
    );
}

// R37, R135: the Melee's time limit fell due while Herald was down. Back up, it is called before
// anything else, and before the first command, which then meets the Melee as it now stands: an
// offer after the limit is refused, not taken.
#[tokio::test]
async fn a_time_limit_passed_while_herald_was_down_is_called_before_the_first_command() {
    let books = Books::new();
    let first = format!(
        "{}\
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
bran: /melee join Wolves
mod: /melee start
",
        two_knight_lists_then("--melee --melee-minutes 20")
    );
    let run = run_with(&books.path(), CONFIG, &first).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("The Melee begins")
        .expect_not("The Melee is over");

    let again = run_with(
        &books.path(),
        CONFIG,
        "@clock 2026-12-01T12:00:00Z\nailsa: /pass Bran\n",
    )
    .await;
    assert_eq!(again.result, Ok(()), "{}", again.out);
    in_order(
        &again,
        &[
            "Yule Lists carries on where it stood.",
            "The Melee is over at its time limit: a tie, 1 mounted each, so no side wins (R37).",
        ],
    );
    again.expect_not("offers Sir Bran a pass");
    assert_eq!(times(&again, "The Melee is over"), 1, "{}", again.out);
}

// With two tournaments scheduled, /enter, /withdraw, /tournament start and /tournament cancel take
// the one named, by number or name. Left out: /enter takes the one held in the channel spoken
// in, /withdraw the one entered; when that leaves more than one, Herald asks which rather than
// guess, and a cancellation is never a guess (R165). A tournament past its start, waiting for a
// fight in its channel to end, is shown as due, not as beginning "in 0 seconds".
#[tokio::test]
async fn with_two_tournaments_scheduled_commands_take_the_one_named() {
    let books = Books::new();
    let t = format!(
        "{}\
mod: /tournament schedule \"Yule Lists\" 2026-12-05T18:00Z
mod: /tournament schedule \"Midwinter Lists\" 2026-12-20T18:00Z --channel #hall --force
[#yard] ailsa: /enter
[#hall] ailsa: /enter
[#yard] bran: /enter #1
[#yard] bran: /enter Candlemas
ailsa: /withdraw
bran: /enter midwinter lists
bran: /withdraw
bran: /withdraw 2
mod: /tournament cancel
mod: /tournament start 2
mod: /tournament cancel \"Midwinter Lists\"
mod: /tournament
",
        knights(2)
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    in_order(
        &run,
        &[
            "2 tournaments are scheduled: Yule Lists (#1, Sat 5 Dec 2026 18:00 UTC in #lists); Midwinter Lists (#2, Sun 20 Dec 2026 18:00 UTC in #hall). Say which, by number or name: /enter TOURNAMENT",
            "Dame Ailsa enters Midwinter Lists, which begins Sun 20 Dec 2026 18:00 UTC in #hall.",
            "Sir Bran enters Yule Lists, which begins Sat 5 Dec 2026 18:00 UTC in #lists.",
            "No tournament named 'Candlemas' is scheduled. Scheduled: Yule Lists (#1,",
            "Dame Ailsa withdraws from Midwinter Lists.",
            "Sir Bran enters Midwinter Lists",
            "2 tournaments are scheduled: Yule Lists (#1,",
            "Sir Bran withdraws from Midwinter Lists.",
            "Say which, by number or name: /tournament cancel TOURNAMENT",
            "Midwinter Lists is held in #hall: say /tournament start there.",
            "Midwinter Lists (#2), due Sun 20 Dec 2026 18:00 UTC in #hall, is cancelled by mod.",
            "Yule Lists (#1) begins Sat 5 Dec 2026 18:00 UTC (in 4 days",
        ],
    );
    run.expect_not("Midwinter Lists (#2) begins");
    let store = books.store().await;
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = 1"
        )
        .await,
        1
    );
    assert_eq!(tournament_status(&store, 1).await, "scheduled");
    assert_eq!(tournament_status(&store, 2).await, "cancelled");

    // Due while a practice joust holds its channel: shown as due, not as "in 0 seconds".
    let books = Books::new();
    let t = format!(
        "{}\
mod: /tournament schedule \"Yule Lists\" in 1h
@clock 2026-12-01T10:59:50Z
ailsa: /joust bran
bran: /accept
@clock 2026-12-01T11:00:10Z
mod: /tournament
",
        knights(2)
    );
    let run = run_with(&books.path(), CONFIG, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Yule Lists (#1) was due Tue 1 Dec 2026 11:00 UTC in #lists and begins once the channel is free")
        .expect_not("in 0 seconds");
}
