//! The whole picture (issue 15, item 10): `/status` in a fight and `/knight NAME` in the books.

mod common;
use common::*;

const ADMIN: &str = "[permissions]\nadmins = [\"alice\"]\n";

// Issue 15, item 10: in a fight /status says the pass or Swordplay, each fighter's Bonus (R4,
// R5), psi attempts left (R20) and injuries, and who must do what; the psi a fighter armed is
// not told to the channel.
#[tokio::test]
async fn status_in_a_fight_shows_bonuses_psi_attempts_and_injuries() {
    let books = Books::new();
    let transcript = format!("{}evan: /status\n", include_str!("transcripts/example.txt"));
    let run = run(&books.path(), &transcript).await;
    let lines = run.lines();
    let at = lines
        .iter()
        .rposition(|l| l.contains("Fight #1: Dame Dara vs Sir Eoin, Swordplay."))
        .unwrap_or_else(|| panic!("no status in:\n{}", run.out));
    assert_eq!(
        lines[at + 1],
        "[#lists] Dame Dara: Bonus +10 to weaken, 2 psi attempts left in Swordplay (R20), injured: weapon arm · Sir Eoin: no Bonus, 2 psi attempts left in Swordplay (R20), unhurt."
    );
    assert!(
        lines[at + 2].contains("Dame Dara (dana), your turn [Bonus +10, weaken]: /attack"),
        "{}",
        run.out
    );
    // Dara armed Apportation in the channel before this branch's status; the status adds no
    // word of it.
    assert!(
        !lines[at..].iter().any(|l| l.contains("Apportation")),
        "{}",
        run.out
    );
}

// Issue 15, item 10: a knight's sheet shows lord and vassals, hostilities, captivity, the
// title and what the next one needs (R31, R32, R33).
#[tokio::test]
async fn knight_shows_allegiance_hostility_captivity_and_the_next_title() {
    let books = Books::new();
    let run = run_with(
        &books.path(),
        ADMIN,
        "\
@clock 2026-12-01T10:00:00Z
alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn
brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:40 --monarch llewellyn
hugh: /knight create Hugh --top lance,shield,ride --psi negapsi:40 --monarch ragnar
alice: /admin award Hugh 12 seed
hugh: /land
alice: /admin award Hugh 60 lists
hugh: /advance
hugh: /grant Brenna
brenna: /accept
alice: /admin award Eoin 12 seed
evan: /land
evan: /hostility declare Hugh
alan: /knight
alan: /knight Hugh
alan: /knight Brenna
hugh: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
hugh: /nosweep
evan: /nosweep
evan: /high
evan: /decline
alan: /knight Hugh
alan: /knight Eoin
",
    )
    .await;
    // R31: lands first, from the monarch for 12 HP.
    run.expect("Sir Alan: sworn to the monarch alone; no vassals; no hostilities; untitled; next, Baron needs lands first: a grant of lands from the monarch costs 12 HP; Sir Alan has 0 (R31), then 20 PP for advancement (R32).");
    // R32: the next title's PP against what the knight counts, vassals included.
    run.expect("Baron Hugh: sworn to the monarch alone; vassals: Dame Brenna; hostile to Sir Eoin; titled Baron; next, Viscount needs 80 PP for advancement; Baron Hugh counts 35 (R32).");
    run.expect("Dame Brenna: vassal of Baron Hugh; no vassals; no hostilities; untitled; next, Baroness needs 20 PP for advancement; Dame Brenna counts 5 (R32).");
    // R33: the loser of a joust under hostility is captured.
    run.expect("Baron Hugh: sworn to the monarch alone; vassals: Dame Brenna; hostile to Sir Eoin; captive of Sir Eoin (ransom 10 PP still to pay; R33);");
    run.expect("Sir Eoin: sworn to the monarch alone; no vassals; hostile to Baron Hugh; holds captive Baron Hugh; untitled;");
}

// Issue 15, item 10: a major injury keeps a knight out for the rest of the day (R12), and their
// sheet says so that day, not the next.
#[tokio::test]
async fn knight_shows_the_days_major_injury() {
    let books = Books::new();
    let run = run(
        &books.path(),
        &format!(
            "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20 30 100
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
evan: /knight Dara
@clock 2026-12-02T10:00:00Z
evan: /knight Dara
"
        ),
    )
    .await;
    let said: Vec<&str> = run
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("[#lists] Dame Dara: "))
        .collect();
    assert_eq!(said.len(), 2, "{}", run.out);
    assert!(
        said[0].contains("; out for the rest of the day with a major injury (R12);"),
        "{}",
        said[0]
    );
    assert!(!said[1].contains("major injury"), "{}", said[1]);
}
