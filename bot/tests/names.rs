//! One name means one knight everywhere (issue 15, bugs 2 and 6): R170's resolver for every
//! command that names a knight, and R171's knights who are gone.

mod common;
use common::*;

const ADMINS: &str = "[permissions]\nadmins = [\"alice\"]\n";

/// ann's knight is Bob; player bob's knight is Berit; carl's is Cato.
const BOB_AND_BOB: &str = "\
@clock 2026-12-01T10:00:00Z
ann: /knight create Bob --top lance,shield,ride --psi cpk:40 --monarch llewellyn
bob: /knight create Berit --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
carl: /knight create Cato --top lance,shield,ride --psi negapsi:40 --monarch ragnar
";

const BOTH: &str = "bob is both ann's knight Bob and player bob (Berit): this means Bob";

// R170: a knight's name first, then a player's nick, the same for every command; when the word
// is both, the reply says which was meant and how to name the other; `@bob` is the player.
#[tokio::test]
async fn r170_a_name_means_the_same_knight_in_every_command() {
    let books = Books::new();
    let t = format!(
        "{BOB_AND_BOB}\
carl: /knight bob
carl: /honor bob
carl: /ledger bob
carl: /joust bob
carl: /decline
carl: /joust @bob
carl: /decline
carl: /knight @bob
carl: /honor @bob
"
    );
    let run = run_with(&books.path(), ADMINS, &t).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let lines = run.lines();
    run.expect(&format!(
        "{BOTH}; for Berit write /knight Berit or /knight @bob."
    ))
    .expect(&format!(
        "{BOTH}; for Berit write /honor Berit or /honor @bob."
    ))
    .expect(&format!(
        "{BOTH}; for Berit write /ledger Berit or /ledger @bob."
    ))
    .expect(&format!(
        "{BOTH}; for Berit write /joust Berit or /joust @bob."
    ))
    .expect("Sir Bob (ann), sworn to King Llewellyn")
    .expect("Sir Bob: 0 HP, 0 PP, unlanded.")
    .expect("Ledger of Sir Bob")
    .expect("Sir Cato challenges Sir Bob to a practice joust! ann: /accept")
    .expect("Sir Cato challenges Dame Berit to a practice joust! bob: /accept")
    .expect("Dame Berit (bob), sworn to Queen Seonaid")
    .expect("Dame Berit: 0 HP, 0 PP, unlanded.");
    // The note comes right before the reply it explains, and only when the word names two.
    let note = lines
        .iter()
        .position(|l| l.contains(BOTH) && l.contains("/knight"))
        .unwrap();
    assert!(lines[note + 1].contains("Sir Bob (ann)"), "{}", run.out);
    assert_eq!(
        lines.iter().filter(|l| l.contains("is both")).count(),
        4,
        "{}",
        run.out
    );
}

// R170: /odds names knights the same way.
#[tokio::test]
async fn r170_odds_resolves_like_the_rest() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        ADMINS,
        &format!("{BOB_AND_BOB}carl: /odds bob\ncarl: /odds @bob\n"),
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect(&format!(
        "{BOTH}; for Berit write /odds Berit or /odds @bob."
    ));
    let lines = run.lines();
    let odds: Vec<&&str> = lines.iter().filter(|l| l.contains("wins")).collect();
    assert!(odds.len() >= 2, "{}", run.out);
    assert!(
        odds[0].contains("Sir Bob") && odds[1].contains("Dame Berit"),
        "{}",
        run.out
    );
}

// R170: names are matched without case or accents, and are unique that way.
#[tokio::test]
async fn r170_a_name_is_found_without_its_accents() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        ADMINS,
        "@clock 2026-12-01T10:00:00Z
eve: /knight create Éowyn --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
carl: /knight create Cato --top lance,shield,ride --psi negapsi:40 --monarch ragnar
carl: /knight eowyn
carl: /honor EOWYN
carl: /joust Eowyn
carl: /decline
dan: /knight create Eowyn --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Dame Éowyn (eve), sworn to Queen Seonaid")
        .expect("Dame Éowyn: 0 HP, 0 PP, unlanded.")
        .expect("Sir Cato challenges Dame Éowyn to a practice joust!")
        .expect("Cannot create that knight: there is already a knight named Éowyn in this realm; names are the same without regard to case or accents (R170).")
        .expect_not("No knight or player named");
}

// R171: a retired knight's sheet is shown marked so, with the day; their name is not free
// again, and the refusal says why; a challenge to them says they are gone.
#[tokio::test]
async fn r171_a_retired_knight_is_shown_as_such_and_keeps_the_name() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        ADMINS,
        "@clock 2026-12-01T10:00:00Z
bob: /knight create Bors --top lance,shield,ride --psi cpk:40 --monarch llewellyn
carl: /knight create Cato --top lance,shield,ride --psi negapsi:40 --monarch ragnar
@clock 2026-12-03T10:00:00Z
alice: /admin retire Bors
carl: /knight Bors
carl: /joust Bors
bob: /knight create Bors --top lance,shield,ride --psi cpk:40 --monarch llewellyn
bob: /knight create bórs --top lance,shield,ride --psi cpk:40 --monarch llewellyn
alice: /admin rename Cato Bors
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Bors (bob), sworn to King Llewellyn of Gorllewin")
        .expect("[retired on 2026-12-03 (R155); the name stays with him in the books, R171]")
        .expect("Sir Bors is no longer in the lists: retired on 2026-12-03 (R155). /knight Bors shows the sheet.")
        .expect("Cannot create that knight: Bors is the name of Sir Bors, retired on 2026-12-03 (R155); a knight's name stays with them in the books and is not free again (R171). Choose another name.")
        .expect("Cannot create that knight: bórs is the name of Sir Bors, retired on 2026-12-03 (R155)")
        .expect("Cannot rename: Bors is the name of Sir Bors, retired on 2026-12-03 (R155)")
        .expect_not("No knight or player named 'Bors'");
}

// R171: a knight put to death is shown killed, with the day.
#[tokio::test]
async fn r171_a_killed_knight_is_shown_killed() {
    let books = Books::new();
    let db = books.path();
    let run = run_with(
        &db,
        ADMINS,
        "@clock 2026-12-01T10:00:00Z
bob: /knight create Bors --top lance,shield,ride --psi cpk:40 --monarch llewellyn
",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    // The books as /ransom kill leaves them (R33, R109): retired, with the day of death.
    let store = books.store().await;
    sqlx::query(
        "UPDATE knights SET retired = 1, died_at = '2026-12-04T09:00:00+00:00' WHERE name = 'Bors'",
    )
    .execute(store.pool())
    .await
    .unwrap();
    drop(store);
    let run = run_with(&db, ADMINS, "carl: /knight bors\ncarl: /honor Bors\n").await;
    run.expect("[killed on 2026-12-04 (R33); the name stays with him in the books, R171]")
        .expect("Sir Bors is no longer in the lists: killed on 2026-12-04 (R33).");
}

// R170: a name written as replies write it, with its style or title, names the knight too.
#[tokio::test]
async fn r170_a_name_with_its_style_names_the_knight() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        ADMINS,
        &format!("{BOB_AND_BOB}carl: /knight \"Dame Berit\"\ncarl: /joust Sir Bob\n"),
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Dame Berit (bob), sworn to Queen Seonaid")
        .expect("Sir Cato challenges Sir Bob to a practice joust!")
        .expect_not("No knight or player named");
}
