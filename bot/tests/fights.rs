//! Practice fights from chat line to database: whole fights with every die scripted (`@dice`),
//! refusals, malformed commands, timeouts, and the practice books (R26, R28) in UTC and in a
//! realm with its own time zone (R25).
//!
//! Knights, as in EXAMPLES.md: Dara (dana, challenger unless said otherwise) has Observe 40,
//! Dodge 40, Sword 40, Lance 30, Ride 30, Shield 30; Eoin (evan) has Lance 40, Shield 40, Ride 40,
//! Observe 30, Dodge 30, Sword 30.

mod common;
use common::*;
use herald_bot::fairness::seed_hash;
use herald_bot::store::Store;
use sqlx::Row;

// ----- helpers -----

/// The index of the first reply line containing `needle`.
fn at(run: &Run, needle: &str) -> usize {
    run.lines()
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line containing {needle:?} in:\n{}", run.out))
}

/// The index of the first reply line containing `needle` at or after `from`.
fn at_from(run: &Run, from: usize, needle: &str) -> usize {
    run.lines()
        .iter()
        .skip(from)
        .position(|l| l.contains(needle))
        .map(|i| i + from)
        .unwrap_or_else(|| {
            panic!(
                "no line containing {needle:?} after line {from} in:\n{}",
                run.out
            )
        })
}

/// The reply lines strictly between the first line containing `after` and the next line
/// containing `before`.
fn between<'a>(run: &'a Run, after: &str, before: &str) -> Vec<&'a str> {
    let start = at(run, after);
    let end = at_from(run, start + 1, before);
    run.lines()[start + 1..end].to_vec()
}

/// How many times a line containing `needle` was said.
fn times(run: &Run, needle: &str) -> usize {
    run.lines().iter().filter(|l| l.contains(needle)).count()
}

async fn count(store: &Store, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn knight_id(store: &Store, name: &str) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT id FROM knights WHERE name = ?")
        .bind(name)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|e| panic!("knight {name}: {e}"))
}

/// A time as the books keep it, as an instant.
fn instant(text: &str) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339(text)
        .unwrap_or_else(|e| panic!("{text:?} is not an RFC 3339 time: {e}"))
        .with_timezone(&chrono::Utc)
}

/// The first word after `marker` on the line that holds it, without trailing punctuation.
fn word_after(line: &str, marker: &str) -> String {
    let rest = &line[line.find(marker).expect("the marker") + marker.len()..];
    rest.split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches(|c: char| !c.is_ascii_hexdigit())
        .to_string()
}

/// One practice joust of `user`'s knight (built like Dara) against Eoin at `clock`, which Eoin
/// wins by unhorsing:
/// - pass 1, step 1: both fail Observe (90 > 40, 90 > 30): no Bonus (1A);
/// - step 2: the challenger fails Ride (90 > 30), Eoin rides (20 ≤ 40): +15 to Eoin (2A);
/// - step 4: the challenger's Ride roll 90 was higher: the challenger announces first;
/// - neither sweeps: Eoin holds the only Bonus and strikes first (6B);
/// - Eoin High: Lance 30 ≤ 40 hits; Shield 30 − 15 (Eoin's weaken Bonus, R5) = 15, below the
///   cap of 30 (R10); 50 > 15: unhorsed (7C), no injury (50 is not 96–100, R12);
/// - Eoin declines Swordplay (R41): Eoin wins by the unhorsing (R27).
fn beaten_by_eoin(user: &str, clock: &str) -> String {
    format!(
        "@clock {clock}
{user}: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
{user}: /nosweep
evan: /nosweep
evan: /high
evan: /decline
"
    )
}

/// The fight of [`beaten_by_eoin`] without its last line: the R41 question is open.
const JOUST_TO_THE_QUESTION: &str = "\
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
";

/// A knight built like Dara, for `owner`.
fn like_dara(owner: &str, name: &str) -> String {
    format!(
        "{owner}: /knight create {name} --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame\n"
    )
}

// ----- 1. a joust won by unhorsing, Swordplay declined -----

// R41: after a practice Joust both are asked at once and either may refuse; R27: with no
// Swordplay the unhorsing decides; R28: 1 HP to the winner of a recorded practice fight.
#[tokio::test]
async fn a_practice_joust_won_by_unhorsing_with_swordplay_declined_by_either_fighter() {
    for answers in [
        "dana: /decline\n",
        "evan: /decline\n",
        "dana: /swordplay\nevan: /decline\n",
    ] {
        let books = Books::new();
        let transcript =
            format!("{DARA_AND_EOIN}{JOUST_TO_THE_QUESTION}@clock 2026-12-01T10:01:30Z\n{answers}");
        let run = run(&books.path(), &transcript).await;
        assert_eq!(run.result, Ok(()), "{answers}");
        run.expect("Dame Dara rolls Observe 90 vs 40: failure.")
            .expect("Sir Eoin rolls Observe 90 vs 30: failure.")
            .expect("Dame Dara rolls Ride 90 vs 30: failure.")
            .expect("Sir Eoin rolls Ride 20 vs 40: success.")
            .expect("Sir Eoin earns a +15 Bonus.")
            .expect("Sir Eoin strikes first (6B: holds the Bonus).")
            .expect("Sir Eoin rolls Lance 30 vs 40: hit.")
            .expect("Dame Dara rolls Shield 50 vs 15 (30 − 15 opponent's Bonus): failure.")
            .expect("Dame Dara is unhorsed!")
            .expect("declines Swordplay.")
            .expect("Sir Eoin wins (by unhorsing).")
            .expect("Sir Eoin earns 1 HP.")
            .expect_not("— Swordplay —")
            .expect_not("Dame Dara earns");
        // Both are asked at once (R41).
        run.expect("Dame Dara (dana), go on to Swordplay?")
            .expect("Sir Eoin (evan), go on to Swordplay?");

        // The seed: its hash is posted when the fight starts, the seed itself when it ends.
        let start = at(&run, "Dice seed hash ");
        let end = at(&run, "Fight #1 is over. Dice seed: ");
        assert!(start < end);
        let lines = run.lines();
        let posted_hash = word_after(lines[start], "Dice seed hash ");
        let told_seed = word_after(lines[end], "Dice seed: ");
        assert_eq!(posted_hash.len(), 64, "{}", lines[start]);
        assert_eq!(told_seed.len(), 64, "{}", lines[end]);
        let mut seed = [0u8; 32];
        hex::decode_to_slice(&told_seed, &mut seed).expect("the seed is hex");
        assert_eq!(seed_hash(&seed), posted_hash, "SHA-256 of the told seed");
        // Nothing is said after the seed.
        assert_eq!(end, lines.len() - 1, "{}", run.out);

        let store = books.store().await;
        let (dara, eoin) = (
            knight_id(&store, "Dara").await,
            knight_id(&store, "Eoin").await,
        );
        let fight = sqlx::query(
            "SELECT ended_at, winner_id, reason, recorded, kind, seed, seed_hash FROM fights WHERE id = 1",
        )
        .fetch_one(store.pool())
        .await
        .unwrap();
        let ended: Option<String> = fight.get("ended_at");
        assert_eq!(
            ended.as_deref().map(instant),
            Some(instant("2026-12-01T10:01:30Z"))
        );
        assert_eq!(fight.get::<Option<i64>, _>("winner_id"), Some(eoin));
        assert_eq!(
            fight.get::<Option<String>, _>("reason").as_deref(),
            Some("unhorsed")
        );
        assert!(fight.get::<bool, _>("recorded"));
        assert_eq!(fight.get::<String, _>("kind"), "practice");
        assert_eq!(fight.get::<String, _>("seed"), told_seed);
        assert_eq!(fight.get::<String, _>("seed_hash"), posted_hash);

        let ledger = sqlx::query(
            "SELECT knight_id, hp_halves, pp_halves, kind, fight_id, month FROM ledger",
        )
        .fetch_all(store.pool())
        .await
        .unwrap();
        assert_eq!(ledger.len(), 1, "{answers}");
        let row = &ledger[0];
        assert_eq!(row.get::<i64, _>("knight_id"), eoin);
        assert_eq!(row.get::<i64, _>("hp_halves"), 2, "1 HP is 2 half points");
        assert_eq!(row.get::<i64, _>("pp_halves"), 0);
        assert_eq!(row.get::<String, _>("kind"), "practice");
        assert_eq!(row.get::<Option<i64>, _>("fight_id"), Some(1));
        assert_eq!(row.get::<String, _>("month"), "2026-12");

        let days = sqlx::query("SELECT knight_lo, knight_hi, day, fight_id FROM practice_days")
            .fetch_all(store.pool())
            .await
            .unwrap();
        assert_eq!(days.len(), 1);
        assert_eq!(days[0].get::<i64, _>("knight_lo"), dara.min(eoin));
        assert_eq!(days[0].get::<i64, _>("knight_hi"), dara.max(eoin));
        assert_eq!(days[0].get::<String, _>("day"), "2026-12-01");
        assert_eq!(days[0].get::<i64, _>("fight_id"), 1);
        assert_eq!(
            count(&store, "SELECT COUNT(*) FROM major_injuries").await,
            0
        );

        // The events: the refusal and the end, as data.
        let refused = run
            .events
            .iter()
            .find(|e| e["type"] == "fight_on" && e["agreed"] == false)
            .expect("a fight_on event refusing");
        assert!(refused["knight"] == "Dara" || refused["knight"] == "Eoin");
        let ended = run
            .events
            .iter()
            .find(|e| e["type"] == "match_ended")
            .expect("a match_ended event");
        assert_eq!(ended["winner"], "Eoin");
        assert_eq!(ended["reason"], "unhorsed");
    }
}

// ----- 2. on to Swordplay, ending in a Kill -----

// R41: both agree, Swordplay follows; Swordplay 1A: the one just unhorsed goes first;
// 2D: damage 01–22 is a KILL (22, the top of the range); R27: the Swordplay decides.
#[tokio::test]
async fn swordplay_after_the_joust_ends_in_a_kill_and_the_swordplay_winner_is_paid() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{JOUST_TO_THE_QUESTION}\
# Dara attacks: Sword 10 <= 40; Eoin blocks: Shield 90 > 40 fails; damage 22: KILL.
@dice 10 90 22
@clock 2026-12-01T10:01:50Z
evan: /swordplay
dana: /swordplay
dana: /attack
evan: /block
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Dara is unhorsed!")
        .expect("Sir Eoin will fight on with swords.")
        .expect("Dame Dara will fight on with swords.")
        .expect("— Swordplay — Dame Dara goes first (1A: just unhorsed).")
        .expect("Dame Dara rolls Sword 10 vs 40: success.")
        .expect("Sir Eoin rolls Shield 90 vs 40: failure.")
        .expect("Damage 22: KILL, Sir Eoin is beaten.")
        .expect("Dame Dara wins (by a kill).")
        .expect("Dame Dara earns 1 HP.")
        .expect_not("Sir Eoin earns 1 HP")
        .expect_not("Sir Eoin wins");
    // No Joust Bonus is left for Swordplay (R6): Dara's Sword is her plain 40.
    assert!(at(&run, "— Swordplay —") < at(&run, "Dame Dara rolls Sword 10 vs 40"));
    assert!(at(&run, "Dame Dara wins") < at(&run, "Fight #1 is over. Dice seed: "));

    let store = books.store().await;
    let dara = knight_id(&store, "Dara").await;
    let row = sqlx::query("SELECT ended_at, winner_id, reason FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<Option<i64>, _>("winner_id"), Some(dara));
    assert_eq!(
        row.get::<Option<String>, _>("reason").as_deref(),
        Some("kill")
    );
    assert_eq!(
        row.get::<Option<String>, _>("ended_at")
            .as_deref()
            .map(instant),
        Some(instant("2026-12-01T10:01:50Z"))
    );
    let ledger = sqlx::query("SELECT knight_id, hp_halves, pp_halves, kind FROM ledger")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(ledger[0].get::<i64, _>("knight_id"), dara);
    assert_eq!(ledger[0].get::<i64, _>("hp_halves"), 2);
    assert_eq!(ledger[0].get::<i64, _>("pp_halves"), 0);
    assert_eq!(ledger[0].get::<String, _>("kind"), "practice");

    let damage = run
        .events
        .iter()
        .find(|e| e["type"] == "damage")
        .expect("a damage event");
    assert_eq!(damage["knight"], "Eoin");
    assert_eq!(damage["attacker"], "Dara");
    assert_eq!(damage["roll"], 22);
    assert_eq!(damage["result"], "kill");
    let ended = run
        .events
        .iter()
        .find(|e| e["type"] == "match_ended")
        .expect("a match_ended event");
    assert_eq!(ended["winner"], "Dara");
    assert_eq!(ended["reason"], "kill");
}

// ----- 3. a psi declaration firing at its moment -----

// R21: Telepathy armed during the challenge, before /accept; R22: it fires just before the
// knight's own Ride roll (step 2), after both Observe rolls (R40); +25 makes 50 a success
// against 30 + 25 = 55.
#[tokio::test]
async fn telepathy_armed_in_the_challenge_fires_before_the_ride_roll() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
tess: /knight create Tara --top observe,dodge,sword --psi telepathy:30,cpk:10 --monarch ragnar --dame
tess: /joust evan
tess: /psi telepathy
# Tara Observe 90 > 40 fails, Eoin Observe 90 > 30 fails; Telepathy 10 <= 30;
# Tara Ride 50 <= 55 (30 + 25); Eoin Ride 80 > 40 fails: Tara +15 (2A).
@dice 90 90 10 50 80
evan: /accept
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Tara arms Telepathy.")
        .expect("Dame Tara calls on Telepathy: 10 vs 30, success.")
        .expect("Dame Tara rolls Ride 50 vs 55 (30 + 25 Telepathy): success.")
        .expect("Sir Eoin rolls Ride 80 vs 40: failure.")
        .expect("Dame Tara earns a +15 Bonus.");
    // Armed before the fight starts; fired after both Observe rolls, just before her Ride.
    assert!(at(&run, "Dame Tara arms Telepathy.") < at(&run, "Fight #1:"));
    assert!(at(&run, "Sir Eoin rolls Observe 90") < at(&run, "calls on Telepathy"));
    assert!(at(&run, "calls on Telepathy") < at(&run, "Dame Tara rolls Ride 50"));
    // Eoin's Ride roll 80 is higher than Tara's 50: he announces first (step 4).
    run.expect("Sir Eoin (evan), announce a sweep or not");

    let psi = run
        .events
        .iter()
        .position(|e| e["type"] == "psi")
        .expect("a psi event");
    let e = &run.events[psi];
    assert_eq!(e["knight"], "Tara");
    assert_eq!(e["skill"], "telepathy");
    assert_eq!(e["roll"], 10);
    assert_eq!(e["target"], 30);
    assert_eq!(e["success"], true);
    // The psi event sits between Eoin's Observe roll and Tara's Ride roll (R40, R22).
    let before = &run.events[psi - 1];
    assert_eq!(before["type"], "roll");
    assert_eq!(before["skill"], "observe");
    assert_eq!(before["knight"], "Eoin");
    let ride = &run.events[psi + 1];
    assert_eq!(ride["type"], "roll");
    assert_eq!(ride["knight"], "Tara");
    assert_eq!(ride["skill"], "ride");
    assert_eq!(ride["roll"], 50);
    assert_eq!(ride["target"], 55);
    assert_eq!(ride["modifiers"][0]["kind"], "telepathy");
    assert_eq!(ride["modifiers"][0]["value"], 25);
    // One attempt: a single psi event (R20, R21).
    assert_eq!(run.events.iter().filter(|e| e["type"] == "psi").count(), 1);
}

// ----- 4. out-of-turn and wrong-owner refusals -----

/// Knights, a joust to Dara's sweep prompt, refusals, then the correct moves with the dice
/// queued before the refusals.
fn refusals_transcript(at_sweep: &str, at_strike: &str) -> String {
    format!(
        "{DARA_AND_EOIN}\
carl: /knight create Cato --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch ragnar
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
{at_sweep}dana: /nosweep
evan: /nosweep
{at_strike}evan: /high
"
    )
}

/// Runs the refusals and checks that nothing changed: the correct moves that follow consume the
/// dice queued before the refusals, as in a fight without them, and the decision log holds only
/// the accepted moves.
async fn refusals_change_nothing(at_sweep: &str, at_strike: &str) -> Run {
    let books = Books::new();
    let run = run(&books.path(), &refusals_transcript(at_sweep, at_strike)).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Dara does not sweep.")
        .expect("Sir Eoin does not sweep.")
        .expect("Sir Eoin rolls Lance 30 vs 40: hit.")
        .expect("Dame Dara rolls Shield 50 vs 15 (30 − 15 opponent's Bonus): failure.")
        .expect("Dame Dara is unhorsed!");
    let store = books.store().await;
    // The start and the three accepted moves; no refused one.
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM fight_steps WHERE fight_id = 1"
        )
        .await,
        4
    );
    let sides: Vec<(Option<String>, Option<String>)> =
        sqlx::query("SELECT side, decision FROM fight_steps WHERE fight_id = 1 ORDER BY seq")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("side"), r.get("decision")))
            .collect();
    assert_eq!(
        sides,
        vec![
            (None, None),
            (Some("challenger".into()), Some("\"no_sweep\"".into())),
            (Some("challenged".into()), Some("\"no_sweep\"".into())),
            (Some("challenged".into()), Some("\"high\"".into())),
        ]
    );
    run
}

// A fighter moving out of turn gets one line naming who is awaited, for what, and the options;
// the match is unchanged (a refused decision changes nothing).
#[tokio::test]
async fn the_wrong_fighter_is_told_who_is_awaited_and_nothing_changes() {
    let run = refusals_change_nothing("evan: /sweep\n", "dana: /low\n").await;
    let sweep = between(
        &run,
        "Dame Dara (dana), announce a sweep or not",
        "Dame Dara does not sweep.",
    );
    assert_eq!(sweep.len(), 1, "one line for one refusal: {sweep:#?}");
    let line = sweep[0];
    assert!(line.contains("Dame Dara (dana)"), "{line}");
    assert!(
        line.contains("/sweep") && line.contains("/nosweep"),
        "{line}"
    );
    assert!(
        !line.contains("Sir Eoin (evan)"),
        "Eoin is not awaited: {line}"
    );

    let strike = between(&run, "Sir Eoin (evan), strike", "Sir Eoin aims High");
    assert_eq!(strike.len(), 1, "{strike:#?}");
    let line = strike[0];
    assert!(line.contains("Sir Eoin (evan)"), "{line}");
    assert!(line.contains("/high") && line.contains("/low"), "{line}");
    // The strike's dice were not touched by the refusal: Lance 30 and Shield 50 came next.
    assert_eq!(times(&run, "rolls Lance"), 1);
}

// A third user who is not in the fight gets one line naming who is awaited and the options; the
// match is unchanged.
#[tokio::test]
async fn a_third_user_is_told_who_is_awaited_and_nothing_changes() {
    let run = refusals_change_nothing("carl: /sweep\n", "carl: /high\n").await;
    for (after, before, awaited, options) in [
        (
            "Dame Dara (dana), announce a sweep or not",
            "Dame Dara does not sweep.",
            "Dame Dara (dana)",
            ["/sweep", "/nosweep"],
        ),
        (
            "Sir Eoin (evan), strike",
            "Sir Eoin aims High",
            "Sir Eoin (evan)",
            ["/high", "/low"],
        ),
    ] {
        let lines = between(&run, after, before);
        assert_eq!(lines.len(), 1, "one line for one refusal: {lines:#?}");
        let line = lines[0];
        assert!(!line.trim().is_empty());
        assert!(line.contains(awaited), "names who is awaited: {line}");
        for o in options {
            assert!(line.contains(o), "names the option {o}: {line}");
        }
    }
}

// ----- 5. malformed commands and dice expressions -----

/// The replies to `command` after `setup`: runs both on fresh books and keeps what `command`
/// added.
async fn replies(setup: &str, command: &str) -> Vec<String> {
    let before = Books::new();
    let base = run(&before.path(), setup).await;
    assert_eq!(base.result, Ok(()));
    let books = Books::new();
    let full = run(&books.path(), &format!("{setup}{command}")).await;
    assert_eq!(full.result, Ok(()), "{command}");
    let lines = full.lines();
    assert_eq!(
        lines[..base.lines().len()],
        base.lines()[..],
        "the setup answers the same"
    );
    lines[base.lines().len()..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// The one reply to `command`; panics unless there is exactly one, and it is not empty.
async fn one_reply(setup: &str, command: &str) -> String {
    let lines = replies(setup, command).await;
    assert_eq!(lines.len(), 1, "{command:?} answers one line: {lines:#?}");
    assert!(
        !lines[0].trim().is_empty(),
        "{command:?} answers an empty line"
    );
    lines[0].clone()
}

#[tokio::test]
async fn a_misspelt_command_gets_one_line_with_a_suggestion() {
    let line = one_reply(DARA_AND_EOIN, "dana: /jousst evan\n").await;
    assert!(line.contains("jousst"), "{line}");
    assert!(line.contains("joust"), "{line}");
    assert!(line.contains("did you mean"), "{line}");
}

#[tokio::test]
async fn malformed_dice_expressions_get_one_line_each() {
    let line = one_reply(DARA_AND_EOIN, "dana: /roll 1d\n").await;
    assert!(line.contains("1d"), "{line}");
    assert!(line.contains("Usage"), "{line}");
    let line = one_reply(DARA_AND_EOIN, "dana: /roll 99999999999999999999d6\n").await;
    assert!(line.contains("99999999999999999999d6"), "{line}");
    assert!(line.contains("Usage"), "{line}");
}

// R1: "Roll X" is one d100; a scripted die is the roll.
#[tokio::test]
async fn a_scripted_d100_roll_says_its_number() {
    let line = one_reply(DARA_AND_EOIN, "@dice 42\ndana: /roll 100\n").await;
    assert!(line.contains("dana"), "{line}");
    assert!(line.ends_with("42"), "{line}");
    assert!(!line.contains("Cannot"), "{line}");
}

// R3: psi points add up to exactly 40.
#[tokio::test]
async fn a_knight_whose_psi_adds_to_30_is_refused_with_the_sum() {
    let line = one_reply(
        DARA_AND_EOIN,
        "carl: /knight create Cato --top lance,shield,ride --psi mesmerism:20,negapsi:10 --monarch ragnar\n",
    )
    .await;
    assert!(
        line.contains("psi points must add up to 40; these add up to 30"),
        "{line}"
    );
    let books = Books::new();
    let run = run(
        &books.path(),
        &format!("{DARA_AND_EOIN}carl: /knight create Cato --top lance,shield,ride --psi mesmerism:20,negapsi:10 --monarch ragnar\n"),
    )
    .await;
    assert_eq!(run.result, Ok(()));
    let store = books.store().await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM knights").await, 2);
}

// R3: names are unique in a realm, case-insensitively.
#[tokio::test]
async fn a_duplicate_knight_name_in_another_case_is_refused() {
    for name in ["Dara", "dARA", "DARA"] {
        let line = one_reply(
            DARA_AND_EOIN,
            &format!("carl: /knight create {name} --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch ragnar\n"),
        )
        .await;
        assert!(
            line.contains("already a knight named Dara"),
            "{name}: {line}"
        );
    }
    let books = Books::new();
    let run = run(
        &books.path(),
        &format!("{DARA_AND_EOIN}carl: /knight create dARA --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch ragnar\n"),
    )
    .await;
    assert_eq!(run.result, Ok(()));
    let store = books.store().await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM knights").await, 2);
}

#[tokio::test]
async fn a_joust_against_nobody_gets_one_line() {
    let line = one_reply(DARA_AND_EOIN, "dana: /joust nobody\n").await;
    assert!(line.contains("nobody"), "{line}");
    assert!(line.contains("/joust"), "{line}");
    let books = Books::new();
    let run = run(
        &books.path(),
        &format!("{DARA_AND_EOIN}dana: /joust nobody\n"),
    )
    .await;
    assert_eq!(run.result, Ok(()));
    let store = books.store().await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM fights").await, 0);
}

// ----- 6. timeouts -----

// A decision that times out gets the engine's default: no sweep (steps 4–5); not a second early.
#[tokio::test]
async fn a_sweep_prompt_times_out_after_120_seconds_as_no_sweep() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20
evan: /accept
@wait 119
# nothing yet
@wait 1
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    let prompt = at(&run, "Dame Dara (dana), announce a sweep or not");
    let timeout = at(
        &run,
        "Dame Dara (dana) did not answer in time: /nosweep is taken for them.",
    );
    assert_eq!(timeout, prompt + 1, "nothing between: {}", run.out);
    assert!(
        run.lines()[timeout + 1].ends_with("Dame Dara does not sweep."),
        "{}",
        run.out
    );
    run.expect("Sir Eoin (evan), announce a sweep or not");
    assert_eq!(times(&run, "did not answer in time"), 1);

    let store = books.store().await;
    let step =
        sqlx::query("SELECT side, decision, at FROM fight_steps WHERE fight_id = 1 AND seq = 1")
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(
        step.get::<Option<String>, _>("side").as_deref(),
        Some("challenger")
    );
    assert_eq!(
        step.get::<Option<String>, _>("decision").as_deref(),
        Some("\"no_sweep\"")
    );
    assert_eq!(
        instant(&step.get::<String, _>("at")),
        instant("2026-12-01T10:02:00Z")
    );
}

// One long wait fires every timeout that falls due in it, in order, including those the firings
// create: no sweep, no sweep, High (R11), and the fight-on question as a refusal (R41).
#[tokio::test]
async fn chained_timeouts_in_one_long_wait_play_the_fight_to_its_end() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
@dice 90 90 90 20 30 50
evan: /accept
@wait 1000
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    let order = [
        "Dame Dara (dana) did not answer in time: /nosweep is taken for them.",
        "Dame Dara does not sweep.",
        "Sir Eoin (evan) did not answer in time: /nosweep is taken for them.",
        "Sir Eoin does not sweep.",
        "Sir Eoin strikes first (6B: holds the Bonus).",
        "Sir Eoin (evan) did not answer in time: /high is taken for them.",
        "Sir Eoin aims High (Shield defends).",
        "Sir Eoin rolls Lance 30 vs 40: hit.",
        "Dame Dara is unhorsed!",
        "did not answer in time: /decline is taken for them.",
        "declines Swordplay.",
        "Sir Eoin wins (by unhorsing).",
        "Sir Eoin earns 1 HP.",
        "Fight #1 is over. Dice seed: ",
    ];
    let mut from = 0;
    for needle in order {
        from = at_from(&run, from, needle) + 1;
    }
    assert_eq!(times(&run, "did not answer in time"), 4, "{}", run.out);
    run.expect_not("— Swordplay —");

    let store = books.store().await;
    let steps: Vec<(i64, Option<String>, Option<String>, String)> = sqlx::query(
        "SELECT seq, side, decision, at FROM fight_steps WHERE fight_id = 1 ORDER BY seq",
    )
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get("seq"), r.get("side"), r.get("decision"), r.get("at")))
    .collect();
    let expected = [
        (0, None, None, "2026-12-01T10:00:00Z"),
        (
            1,
            Some("challenger"),
            Some("\"no_sweep\""),
            "2026-12-01T10:02:00Z",
        ),
        (
            2,
            Some("challenged"),
            Some("\"no_sweep\""),
            "2026-12-01T10:04:00Z",
        ),
        (
            3,
            Some("challenged"),
            Some("\"high\""),
            "2026-12-01T10:06:00Z",
        ),
        (
            4,
            Some("challenger"),
            Some("\"decline\""),
            "2026-12-01T10:08:00Z",
        ),
    ];
    assert_eq!(steps.len(), expected.len(), "{steps:#?}");
    for (got, want) in steps.iter().zip(expected) {
        assert_eq!(got.0, want.0);
        assert_eq!(got.1.as_deref(), want.1, "seq {}", want.0);
        assert_eq!(got.2.as_deref(), want.2, "seq {}", want.0);
        assert_eq!(instant(&got.3), instant(want.3), "seq {}", want.0);
    }
    let eoin = knight_id(&store, "Eoin").await;
    let row = sqlx::query("SELECT ended_at, winner_id, reason FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(
        row.get::<Option<String>, _>("ended_at")
            .as_deref()
            .map(instant),
        Some(instant("2026-12-01T10:08:00Z"))
    );
    assert_eq!(row.get::<Option<i64>, _>("winner_id"), Some(eoin));
    assert_eq!(
        row.get::<Option<String>, _>("reason").as_deref(),
        Some("unhorsed")
    );
    assert_eq!(
        count(&store, "SELECT COALESCE(SUM(hp_halves), 0) FROM ledger").await,
        2
    );
}

// ----- 7. once a day (R26) -----

// R26: the pair's second practice fight of the day is announced before it starts as not
// recorded, is fought, and earns nothing; the next day (R25, UTC) counts again. The pair is
// unordered: the second fight has Eoin as the challenger.
#[tokio::test]
async fn the_second_practice_of_a_pair_in_a_day_is_not_recorded_and_the_next_day_is() {
    // R26, R124: the record is claimed when the fight starts, on the realm day it starts.
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{first}\
@clock 2026-12-01T23:00:00Z
evan: /joust dana
# Eoin challenges: Eoin Observe 90 fails, Dara Observe 90 fails; Eoin Ride 20 <= 40, Dara Ride 90
# fails: +15 to Eoin; Dara's Ride roll is higher: she announces first; Eoin strikes first (6B).
@dice 90 90 20 90 30 50
dana: /accept
dana: /nosweep
evan: /nosweep
evan: /high
evan: /decline
{third}",
        first = beaten_by_eoin("dana", "2026-12-01T10:00:00Z"),
        third = beaten_by_eoin("dana", "2026-12-02T00:00:00Z"),
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    // Announced at the challenge, before the fight starts.
    let note = at(&run, "will not be recorded");
    assert!(note < at(&run, "Fight #2:"), "{}", run.out);
    assert!(at(&run, "Fight #1 is over") < note);
    assert_eq!(times(&run, "will not be recorded"), 1, "{}", run.out);
    run.expect("Not recorded: no Honor is awarded (R26).");
    // Fought all the same.
    let second = at(&run, "Fight #2:");
    at_from(&run, second, "Dame Dara is unhorsed!");
    at_from(&run, second, "Fight #2 is over");
    assert_eq!(times(&run, "Sir Eoin earns 1 HP."), 2, "{}", run.out);

    let store = books.store().await;
    let recorded: Vec<(i64, bool)> = sqlx::query("SELECT id, recorded FROM fights ORDER BY id")
        .fetch_all(store.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get("id"), r.get("recorded")))
        .collect();
    assert_eq!(recorded, vec![(1, true), (2, false), (3, true)]);
    let paid: Vec<Option<i64>> = sqlx::query_scalar("SELECT fight_id FROM ledger ORDER BY id")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(paid, vec![Some(1), Some(3)]);
    let days: Vec<(String, i64)> =
        sqlx::query("SELECT day, fight_id FROM practice_days ORDER BY day")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("day"), r.get("fight_id")))
            .collect();
    assert_eq!(
        days,
        vec![("2026-12-01".into(), 1), ("2026-12-02".into(), 3)]
    );
    // The second fight still has its winner in the books.
    let eoin = knight_id(&store, "Eoin").await;
    assert_eq!(
        count(&store, "SELECT winner_id FROM fights WHERE id = 2").await,
        eoin
    );
}

// ----- 8. four practice HP a month (R28) -----

// R28: the fifth practice win of a month earns nothing, and Herald says why. Four wins on four
// days against the same opponent, then the fifth.
#[tokio::test]
async fn the_fifth_practice_win_of_a_month_against_one_opponent_earns_nothing() {
    let books = Books::new();
    let mut transcript = DARA_AND_EOIN.to_string();
    for day in 1..=5 {
        transcript.push_str(&beaten_by_eoin(
            "dana",
            &format!("2026-12-0{day}T10:00:00Z"),
        ));
    }
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    assert_eq!(times(&run, "Sir Eoin wins (by unhorsing)."), 5);
    assert_eq!(times(&run, "Sir Eoin earns 1 HP."), 4, "{}", run.out);
    let refusal = at(
        &run,
        "Sir Eoin has already earned 4 practice HP in 2026-12: no HP for this win (R28).",
    );
    assert!(at(&run, "Fight #5:") < refusal && refusal < at(&run, "Fight #5 is over"));
    run.expect_not("will not be recorded");

    let store = books.store().await;
    let eoin = knight_id(&store, "Eoin").await;
    let rows: Vec<(i64, i64, String, String)> = sqlx::query(
        "SELECT fight_id, hp_halves, kind, month FROM ledger WHERE knight_id = ? ORDER BY id",
    )
    .bind(eoin)
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| {
        (
            r.get("fight_id"),
            r.get("hp_halves"),
            r.get("kind"),
            r.get("month"),
        )
    })
    .collect();
    assert_eq!(
        rows,
        (1..=4)
            .map(|f| (f, 2, "practice".to_string(), "2026-12".to_string()))
            .collect::<Vec<_>>()
    );
    // The fifth fight is recorded (it is the pair's fight of that day); only the HP is withheld.
    assert_eq!(
        count(&store, "SELECT recorded FROM fights WHERE id = 5").await,
        1
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM ledger").await, 4);
}

// R28: the limit counts wins against every opponent in the month.
#[tokio::test]
async fn the_fifth_practice_win_of_a_month_against_four_opponents_earns_nothing() {
    let books = Books::new();
    let mut transcript = DARA_AND_EOIN.to_string();
    for (owner, name) in [("mona", "Mira"), ("nina", "Nora"), ("olga", "Orla")] {
        transcript.push_str(&like_dara(owner, name));
    }
    for (owner, clock) in [
        ("dana", "2026-12-01T11:00:00Z"),
        ("mona", "2026-12-01T12:00:00Z"),
        ("nina", "2026-12-01T13:00:00Z"),
        ("olga", "2026-12-01T14:00:00Z"),
        ("dana", "2026-12-02T11:00:00Z"),
    ] {
        transcript.push_str(&beaten_by_eoin(owner, clock));
    }
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    assert_eq!(times(&run, "Sir Eoin wins (by unhorsing)."), 5);
    assert_eq!(times(&run, "Sir Eoin earns 1 HP."), 4, "{}", run.out);
    run.expect("Sir Eoin has already earned 4 practice HP in 2026-12: no HP for this win (R28).")
        .expect_not("will not be recorded");
    let store = books.store().await;
    let eoin = knight_id(&store, "Eoin").await;
    let practice: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM ledger WHERE knight_id = ? AND kind = 'practice'")
            .bind(eoin)
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(practice, 4);
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM fights WHERE recorded = 1").await,
        5
    );
}

// ----- 9. days and months in the realm's time zone (R25) -----

const NEW_YORK: &str = "[realm]\ntimezone = \"America/New_York\"\n";

// R25 with R26: 2026-12-02T03:00Z and 04:30Z are both Dec 1 in New York (22:00 and 23:30 EST):
// the second is not recorded; 05:30Z is 00:30 on Dec 2 there: recorded again.
#[tokio::test]
async fn practice_days_follow_the_realm_time_zone() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}{}{}{}",
        beaten_by_eoin("dana", "2026-12-02T03:00:00Z"),
        beaten_by_eoin("dana", "2026-12-02T04:30:00Z"),
        beaten_by_eoin("dana", "2026-12-02T05:30:00Z"),
    );
    let run = run_with(&books.path(), NEW_YORK, &transcript).await;
    assert_eq!(run.result, Ok(()));
    let note = at(&run, "will not be recorded");
    assert!(at(&run, "Fight #1 is over") < note && note < at(&run, "Fight #2:"));
    assert_eq!(times(&run, "will not be recorded"), 1, "{}", run.out);
    assert_eq!(times(&run, "Sir Eoin earns 1 HP."), 2, "{}", run.out);

    let store = books.store().await;
    let recorded: Vec<bool> = sqlx::query_scalar("SELECT recorded FROM fights ORDER BY id")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(recorded, vec![true, false, true]);
    let days: Vec<(String, i64)> =
        sqlx::query("SELECT day, fight_id FROM practice_days ORDER BY fight_id")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("day"), r.get("fight_id")))
            .collect();
    assert_eq!(
        days,
        vec![("2026-12-01".into(), 1), ("2026-12-02".into(), 3)]
    );
    let paid: Vec<(Option<i64>, String)> =
        sqlx::query("SELECT fight_id, month FROM ledger ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("fight_id"), r.get("month")))
            .collect();
    assert_eq!(
        paid,
        vec![(Some(1), "2026-12".into()), (Some(3), "2026-12".into())]
    );
}

// R25 with R28: 2026-12-01T04:00Z is 23:00 on Nov 30 in New York: a fifth win in November earns
// nothing; 05:30Z is 00:30 on Dec 1 there: a new month, and a new day, pays again.
#[tokio::test]
async fn the_practice_month_follows_the_realm_time_zone() {
    // R25, R28, R125: the award counts in the realm month in which the fight ends.
    let books = Books::new();
    let mut transcript = "\
@clock 2026-11-26T12:00:00Z
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
"
    .to_string();
    for clock in [
        "2026-11-26T15:00:00Z",
        "2026-11-27T15:00:00Z",
        "2026-11-28T15:00:00Z",
        "2026-11-29T15:00:00Z",
        "2026-12-01T04:00:00Z",
        "2026-12-01T05:30:00Z",
    ] {
        transcript.push_str(&beaten_by_eoin("dana", clock));
    }
    let run = run_with(&books.path(), NEW_YORK, &transcript).await;
    assert_eq!(run.result, Ok(()));
    let refusal = at(
        &run,
        "Sir Eoin has already earned 4 practice HP in 2026-11: no HP for this win (R28).",
    );
    assert!(at(&run, "Fight #5:") < refusal && refusal < at(&run, "Fight #5 is over"));
    assert_eq!(times(&run, "no HP for this win"), 1, "{}", run.out);
    assert_eq!(times(&run, "Sir Eoin earns 1 HP."), 5, "{}", run.out);
    run.expect_not("will not be recorded");

    let store = books.store().await;
    let paid: Vec<(Option<i64>, String)> =
        sqlx::query("SELECT fight_id, month FROM ledger WHERE kind = 'practice' ORDER BY id")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("fight_id"), r.get("month")))
            .collect();
    assert_eq!(
        paid,
        vec![
            (Some(1), "2026-11".into()),
            (Some(2), "2026-11".into()),
            (Some(3), "2026-11".into()),
            (Some(4), "2026-11".into()),
            (Some(6), "2026-12".into()),
        ]
    );
    let days: Vec<String> = sqlx::query_scalar("SELECT day FROM practice_days ORDER BY fight_id")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(
        days,
        vec![
            "2026-11-26",
            "2026-11-27",
            "2026-11-28",
            "2026-11-29",
            "2026-11-30",
            "2026-12-01"
        ]
    );
}

// ----- the other ends of a practice fight -----

// R12: a fallen fighter whose defense roll was 100 takes a major injury: the match ends at once
// with the Joust's result (no Swordplay question), and the knight is out of every fight for the
// rest of the day, kept in major_injuries; the next day the knight may fight again.
#[tokio::test]
async fn a_major_injury_ends_the_fight_and_keeps_the_knight_out_for_the_day() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
# As before, but Dara's Shield roll is 100: unhorsed with a major injury (Joust step 9).
@dice 90 90 90 20 30 100
evan: /accept
dana: /nosweep
evan: /nosweep
evan: /high
@clock 2026-12-01T20:00:00Z
dana: /joust evan
evan: /joust dana
@clock 2026-12-02T09:00:00Z
dana: /joust evan
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    run.expect("Dame Dara rolls Shield 100 vs 15 (30 − 15 opponent's Bonus): failure.")
        .expect("Dame Dara is unhorsed!")
        .expect("Dame Dara suffers a major injury")
        .expect("Sir Eoin wins (a major injury ends it).")
        .expect("Sir Eoin earns 1 HP.")
        .expect_not("go on to Swordplay?");
    // Both challenges of the same day are refused, whoever issues them.
    assert_eq!(
        times(
            &run,
            "Dame Dara is out with a major injury for the rest of the day (R12)."
        ),
        2,
        "{}",
        run.out
    );
    // The next day she may challenge again.
    let over = at(&run, "Fight #1 is over");
    let next_day = at_from(&run, over, "Dame Dara challenges Sir Eoin");
    assert_eq!(next_day, run.lines().len() - 1, "{}", run.out);

    let store = books.store().await;
    let (dara, eoin) = (
        knight_id(&store, "Dara").await,
        knight_id(&store, "Eoin").await,
    );
    let injuries: Vec<(i64, String, i64)> =
        sqlx::query("SELECT knight_id, day, fight_id FROM major_injuries")
            .fetch_all(store.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get("knight_id"), r.get("day"), r.get("fight_id")))
            .collect();
    assert_eq!(injuries, vec![(dara, "2026-12-01".to_string(), 1)]);
    let row = sqlx::query("SELECT winner_id, reason FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(row.get::<Option<i64>, _>("winner_id"), Some(eoin));
    assert_eq!(
        row.get::<Option<String>, _>("reason").as_deref(),
        Some("major_injury")
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM fights").await, 1);
    assert_eq!(
        count(&store, "SELECT COALESCE(SUM(hp_halves), 0) FROM ledger").await,
        2
    );
}

// R27: no unhorsing in three passes and no Swordplay is a draw; R28: a draw earns nothing. Each
// pass: both fail Observe and Ride (90s): no Bonus; the Ride rolls tie, so Eoin, with the higher
// Ride skill, announces first (R8); neither sweeps and neither holds a Bonus, so the higher of
// Lance and Ride strikes first (6C, R9: Eoin 40 over Dara 30); both Lances miss (90).
#[tokio::test]
async fn three_passes_without_an_unhorsing_are_a_draw_that_earns_nothing() {
    let books = Books::new();
    let pass = "evan: /nosweep\ndana: /nosweep\nevan: /high\ndana: /low\n";
    let transcript = format!(
        "{DARA_AND_EOIN}dana: /joust evan\n@dice {}\nevan: /accept\n{pass}{pass}{pass}dana: /decline\n",
        ["90"; 18].join(" ")
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()));
    for n in 1..=3 {
        run.expect(&format!("— Joust, pass {n} —"));
    }
    run.expect_not("— Joust, pass 4 —");
    assert_eq!(
        times(&run, "Sir Eoin strikes first (6C: higher Lance or Ride)."),
        3
    );
    assert_eq!(times(&run, "Sir Eoin rolls Lance 90 vs 40: miss."), 3);
    assert_eq!(times(&run, "Dame Dara rolls Lance 90 vs 30: miss."), 3);
    run.expect("A draw (no one fell in three passes).")
        .expect("A draw earns no Honor (R28).")
        .expect_not("earns 1 HP");

    let store = books.store().await;
    let row = sqlx::query("SELECT ended_at, winner_id, reason, recorded FROM fights WHERE id = 1")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(row.get::<Option<String>, _>("ended_at").is_some());
    assert_eq!(row.get::<Option<i64>, _>("winner_id"), None);
    assert_eq!(
        row.get::<Option<String>, _>("reason").as_deref(),
        Some("no_unhorsing")
    );
    assert!(row.get::<bool, _>("recorded"));
    assert_eq!(count(&store, "SELECT COUNT(*) FROM ledger").await, 0);
    assert_eq!(count(&store, "SELECT COUNT(*) FROM practice_days").await, 1);
    // The start, four moves a pass, and the refusal.
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM fight_steps WHERE fight_id = 1"
        )
        .await,
        14
    );
}

// ----- many fights ending in one transaction -----

/// Knights for the fights below; Lan holds lands, so his practice awards are split (R29).
const BATCH_KNIGHTS: &str = "\
@clock 2026-12-01T09:00:00Z
alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn
brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:40 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:40 --monarch llewellyn
gwen: /knight create Gwen --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame
hugh: /knight create Hugh --top lance,shield,ride --psi cpk:40 --monarch ragnar
lan: /knight create Lan --top lance,shield,ride --psi cpk:40 --monarch ragnar
alice: /admin award Lan 12 seed
lan: /land
";

/// How a fight of the batch ends.
struct Ending {
    kind: herald_engine::psiknight::MatchKind,
    pair: [&'static str; 2],
    /// The winning side, if any.
    winner: Option<herald_engine::psiknight::Side>,
    /// The sides left with a major injury (R12).
    injured: &'static [herald_engine::psiknight::Side],
    /// The realm day, at 12:00 UTC.
    day: &'static str,
}

/// Starts a fight as the session does, and returns its end as the session would write it.
async fn started(store: &Store, realm: i64, e: &Ending) -> herald_bot::store::FightEnd {
    use herald_bot::store::{FightEnd, NewFight, Step};
    use herald_engine::psiknight::{
        event::EndReason, Decision, MatchKind, MatchSetup, Opening, Outcome, Side,
    };
    let at = instant(&format!("{}T12:00:00Z", e.day));
    let mut knights = Vec::new();
    for name in e.pair {
        knights.push(store.knight_named(realm, name).await.unwrap().unwrap());
    }
    let setup = MatchSetup {
        kind: e.kind,
        opening: Opening::Joust,
        knights: [knights[0].sheet.clone(), knights[1].sheet.clone()],
        armed: [None, None],
    };
    let ids = [knights[0].id, knights[1].id];
    let users = [knights[0].owner.as_str(), knights[1].owner.as_str()];
    let start = Step {
        side: None,
        decision: None,
        rolls: vec![(90, true), (90, true)],
        at,
    };
    let (fight, recorded) = store
        .start_fight(
            NewFight {
                realm,
                channel: "#lists",
                knights: ids,
                users,
                setup: &setup,
                seed: [7; 32],
                day: e.day,
                at,
                tournament: None,
                ransom: false,
            },
            &start,
        )
        .await
        .unwrap();
    // The batch ends fights sharing a knight, which the books no longer let be open at once
    // (migration 0017): the claims are let go so that the writer's batching is still put to it.
    sqlx::query("DELETE FROM engaged_fighters WHERE fight_id = ?")
        .bind(fight)
        .execute(store.pool())
        .await
        .unwrap();
    let mut major_injury = [false; 2];
    for s in e.injured {
        major_injury[s.index()] = true;
    }
    let outcome = Outcome {
        winner: e.winner,
        reason: match e.winner {
            Some(_) => EndReason::Unhorsed,
            None => EndReason::NoUnhorsing,
        },
        unhorsed: [
            e.winner == Some(Side::Challenged),
            e.winner == Some(Side::Challenger),
        ],
        major_injury,
        passes: 1,
        swordplay: false,
    };
    FightEnd {
        realm,
        fight,
        seq: 1,
        last: Step {
            side: Some(Side::Challenged),
            decision: Some(Decision::High),
            rolls: vec![(30, true), (50, true)],
            at: at + chrono::Duration::minutes(1),
        },
        winner: e.winner.map(|w| ids[w.index()]),
        injured: e.injured.iter().map(|s| ids[s.index()]).collect(),
        outcome,
        practice: e.kind == MatchKind::Practice,
        recorded,
        day: e.day.to_string(),
        month: e.day[..7].to_string(),
        tournament: None,
    }
}

/// What the books say of every fight, award and injury, in order.
type Rows = (
    Vec<(
        i64,
        Option<String>,
        Option<i64>,
        Option<String>,
        Option<String>,
        bool,
        Option<i64>,
    )>,
    Vec<(
        i64,
        i64,
        i64,
        i64,
        String,
        String,
        Option<i64>,
        String,
        String,
    )>,
    Vec<(i64, String, i64)>,
    Vec<(i64, i64, Option<String>, Option<String>, String, String)>,
);

async fn rows(store: &Store) -> Rows {
    let pool = store.pool();
    (
        sqlx::query_as(
            "SELECT id, ended_at, winner_id, reason, outcome, recorded, steps FROM fights ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
        sqlx::query_as(
            "SELECT realm_id, knight_id, hp_halves, pp_halves, kind, reason, fight_id, month, at \
             FROM ledger ORDER BY id",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
        sqlx::query_as(
            "SELECT knight_id, day, fight_id FROM major_injuries ORDER BY knight_id, day",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
        sqlx::query_as(
            "SELECT fight_id, seq, side, decision, rolls, at FROM fight_steps ORDER BY fight_id, seq",
        )
        .fetch_all(pool)
        .await
        .unwrap(),
    )
}

/// Plays the same practice month on a fresh file, ending the last fights in one transaction
/// (`batched`) or one by one; returns the awards of those last fights, the books, and the ids
/// of Alan and Lan.
async fn practice_month(batched: bool) -> (Vec<herald_bot::store::FightAward>, Rows, [i64; 2]) {
    use herald_engine::psiknight::MatchKind::{Lists, Practice};
    use herald_engine::psiknight::Side::{Challenged, Challenger};
    let books = Books::new();
    let run = run_with(
        &books.path(),
        "[permissions]\nadmins = [\"alice\"]\n",
        BATCH_KNIGHTS,
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Lan exchanges 12 HP for a grant of lands");
    let store = books.store().await;
    let realm = store.realm("local").await.unwrap();
    // Alan's first three practice wins of December, each ended alone.
    for rival in ["Brenna", "Cai", "Dara"] {
        let end = started(
            &store,
            realm,
            &Ending {
                kind: Practice,
                pair: ["Alan", rival],
                winner: Some(Challenger),
                injured: &[],
                day: "2026-12-02",
            },
        )
        .await;
        let award = store.finish_fight(end).await.unwrap();
        assert!(matches!(
            award,
            herald_bot::store::FightAward::Awarded { .. }
        ));
    }
    // The fights that end together on the 3rd.
    let endings = [
        // Alan's fourth practice win of the month: paid.
        Ending {
            kind: Practice,
            pair: ["Alan", "Eoin"],
            winner: Some(Challenger),
            injured: &[],
            day: "2026-12-03",
        },
        // His fifth, in the same batch: nothing (R28).
        Ending {
            kind: Practice,
            pair: ["Brenna", "Alan"],
            winner: Some(Challenged),
            injured: &[],
            day: "2026-12-03",
        },
        // A landed winner: the award split (R29); the loser out for the day (R12).
        Ending {
            kind: Practice,
            pair: ["Lan", "Cai"],
            winner: Some(Challenger),
            injured: &[Challenged],
            day: "2026-12-03",
        },
        // A draw earns nothing (R28).
        Ending {
            kind: Practice,
            pair: ["Dara", "Gwen"],
            winner: None,
            injured: &[],
            day: "2026-12-03",
        },
        // Alan and Eoin's second practice of the day: not recorded (R26).
        Ending {
            kind: Practice,
            pair: ["Eoin", "Alan"],
            winner: Some(Challenger),
            injured: &[],
            day: "2026-12-03",
        },
        // Not a practice fight: no practice Honor, but its injuries count.
        Ending {
            kind: Lists,
            pair: ["Hugh", "Gwen"],
            winner: Some(Challenger),
            injured: &[Challenger, Challenged],
            day: "2026-12-03",
        },
    ];
    let mut ends = Vec::new();
    for e in &endings {
        ends.push(started(&store, realm, e).await);
    }
    let awards = if batched {
        store.finish_fights(ends).await.unwrap()
    } else {
        let mut awards = Vec::new();
        for end in ends {
            awards.push(store.finish_fight(end).await.unwrap());
        }
        awards
    };
    let ids = [
        knight_id(&store, "Alan").await,
        knight_id(&store, "Lan").await,
    ];
    (awards, rows(&store).await, ids)
}

// The book writer ends the fights of one batch with a few statements for them all; the awards
// and the books must be those of ending them one by one, including a fifth practice win of the
// month that comes in the same batch as the fourth (R26, R28, R29, R12).
#[tokio::test]
async fn fights_ended_in_one_batch_are_booked_as_if_ended_one_by_one() {
    use herald_bot::store::FightAward;
    use herald_engine::psiknight::books::Points;
    let (alone, alone_rows, [alan, lan]) = practice_month(false).await;
    let (batched, batched_rows, ids) = practice_month(true).await;
    assert_eq!(ids, [alan, lan]);
    let half = Points::from_halves(1);
    assert_eq!(
        alone,
        vec![
            FightAward::Awarded {
                knight: alan,
                hp: Points::from_halves(2),
                pp: Points::ZERO
            },
            FightAward::MonthlyLimit { knight: alan },
            FightAward::Awarded {
                knight: lan,
                hp: half,
                pp: half
            },
            FightAward::Draw,
            FightAward::NotRecorded,
            FightAward::None,
        ]
    );
    assert_eq!(batched, alone);
    assert_eq!(batched_rows.0, alone_rows.0, "the fights");
    assert_eq!(batched_rows.1, alone_rows.1, "the ledger");
    assert_eq!(batched_rows.2, alone_rows.2, "the major injuries");
    assert_eq!(batched_rows.3, alone_rows.3, "the fight steps");
    // Three wins before, the fourth and Lan's: five practice rows, and the admin's seed for Lan.
    let practice: Vec<_> = alone_rows.1.iter().filter(|r| r.4 == "practice").collect();
    assert_eq!(practice.len(), 5);
    assert_eq!(practice[3].1, alan);
    assert_eq!(practice[4].1, lan);
    assert_eq!((practice[4].2, practice[4].3), (1, 1));
    // Every fight ended, with its two steps counted; Cai, Hugh and Gwen out for the 3rd.
    assert!(alone_rows.0.iter().all(|f| f.1.is_some() && f.6 == Some(2)));
    assert_eq!(alone_rows.2.len(), 3);
    assert!(alone_rows.2.iter().all(|i| i.1 == "2026-12-03"));
}

/// A fight's steps as the log holds them, by fight and number, whatever their place in the log.
async fn logged_steps(store: &Store, fight: i64) -> Vec<herald_bot::store::Step> {
    sqlx::query("SELECT side, decision, rolls, at FROM fight_steps WHERE fight_id = ? ORDER BY seq")
        .bind(fight)
        .fetch_all(store.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| herald_bot::store::Step {
            side: r
                .get::<Option<String>, _>("side")
                .map(|s| serde_json::from_value(serde_json::Value::String(s)).unwrap()),
            decision: r
                .get::<Option<String>, _>("decision")
                .map(|d| serde_json::from_str(&d).unwrap()),
            rolls: serde_json::from_str(&r.get::<String, _>("rolls")).unwrap(),
            at: instant(&r.get::<String, _>("at")),
        })
        .collect()
}

/// The knights of [`BATCH_KNIGHTS`] on a fresh file: its books, the store and the realm.
async fn batch_knights() -> (Books, Store, i64) {
    let books = Books::new();
    let run = run_with(&books.path(), "", BATCH_KNIGHTS).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let store = books.store().await;
    let realm = store.realm("local").await.unwrap();
    (books, store, realm)
}

/// Three practice fights started in three channels, their steps committed interleaved, the first
/// ended: returns the fights' ids and the first one's end.
async fn interleaved_fights(store: &Store, realm: i64) -> ([i64; 3], herald_bot::store::FightEnd) {
    use herald_engine::psiknight::Decision;
    use herald_engine::psiknight::MatchKind::Practice;
    use herald_engine::psiknight::Side::{Challenged, Challenger};
    let mut fights = Vec::new();
    for pair in [["Alan", "Brenna"], ["Cai", "Dara"], ["Eoin", "Gwen"]] {
        let e = Ending {
            kind: Practice,
            pair,
            winner: Some(Challenger),
            injured: &[],
            day: "2026-12-02",
        };
        fights.push(started(store, realm, &e).await);
    }
    let step = |side, decision, roll: u32, minute: i64| herald_bot::store::Step {
        side: Some(side),
        decision: Some(decision),
        rolls: vec![(roll, false)],
        at: instant("2026-12-02T12:00:00Z") + chrono::Duration::minutes(minute),
    };
    let [a, b, c] = [fights[0].fight, fights[1].fight, fights[2].fight];
    let steps = [
        (b, 1, step(Challenger, Decision::Sweep, 11, 1)),
        (c, 1, step(Challenger, Decision::NoSweep, 12, 2)),
        (c, 2, step(Challenged, Decision::Sweep, 13, 3)),
    ];
    for (fight, seq, step) in &steps {
        store.add_step(*fight, *seq, step).await.unwrap();
    }
    let end = fights.swap_remove(0);
    store.finish_fight(end.clone()).await.unwrap();
    store
        .add_step(b, 2, &step(Challenged, Decision::High, 14, 4))
        .await
        .unwrap();
    ([a, b, c], end)
}

// Steps go into one log in the order they are committed, those of fights in several channels
// interleaved. Each fight reads back its own, in order, ended or still open, and a restart's
// read of every open fight finds the same; a step written twice is refused, not replayed.
#[tokio::test]
async fn steps_of_fights_in_several_channels_read_back_from_one_log() {
    let (_books, store, realm) = batch_knights().await;
    let ([a, b, c], end) = interleaved_fights(&store, realm).await;

    let ended = store.fight(a).await.unwrap();
    assert_eq!(ended.steps.len(), 2);
    assert_eq!(ended.steps[1], end.last);
    for (id, count) in [(a, 2), (b, 3), (c, 3)] {
        let fight = store.fight(id).await.unwrap();
        assert_eq!(fight.steps.len(), count, "fight #{id}");
        assert_eq!(fight.steps, logged_steps(&store, id).await, "fight #{id}");
    }
    let open = store.open_fights(realm).await.unwrap();
    assert_eq!(open.iter().map(|f| f.id).collect::<Vec<_>>(), vec![b, c]);
    for fight in &open {
        assert_eq!(fight.steps, logged_steps(&store, fight.id).await);
    }

    sqlx::query(
        "INSERT INTO fight_steps (fight_id, seq, side, decision, rolls, at) \
         SELECT fight_id, seq, side, decision, rolls, at FROM fight_steps WHERE fight_id = ? AND seq = 1",
    )
    .bind(c)
    .execute(store.pool())
    .await
    .unwrap();
    let refused = store.open_fights(realm).await.unwrap_err().to_string();
    assert_eq!(
        refused,
        format!("fight #{c}'s log has step 1 where step 3 belongs")
    );
}

// A database written before the log (migrations 0001 to 0003: steps keyed by fight and number)
// keeps every fight's steps: once migrated, the ended fight and the open ones read back as they
// were, and a restart finds the open ones.
#[tokio::test]
async fn a_database_from_before_the_log_keeps_every_fights_steps() {
    let (now, store, realm) = batch_knights().await;
    let (ids, _) = interleaved_fights(&store, realm).await;
    let mut fights = Vec::new();
    for id in ids {
        fights.push(store.fight(id).await.unwrap());
    }
    store.pool().close().await;

    // The same rows in a database of the three earlier migrations, its steps in an order of
    // their own.
    let before = Books::new();
    let migrations = tempfile::tempdir().unwrap();
    for name in ["0001_books.sql", "0002_books.sql", "0003_tournaments.sql"] {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../migrations")
            .join(name);
        std::fs::copy(from, migrations.path().join(name)).unwrap();
    }
    let pool = sqlx::SqlitePool::connect_with(
        sqlx::sqlite::SqliteConnectOptions::new()
            .filename(before.path())
            .create_if_missing(true),
    )
    .await
    .unwrap();
    sqlx::migrate::Migrator::new(migrations.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    for sql in [
        format!("ATTACH DATABASE '{}' AS now", now.path().display()),
        "INSERT INTO realms SELECT * FROM now.realms".to_string(),
        "INSERT INTO users SELECT * FROM now.users".to_string(),
        "INSERT INTO knights SELECT * FROM now.knights".to_string(),
        "INSERT INTO fights SELECT id, realm_id, channel, kind, challenger_id, challenged_id, \
         challenger_user, challenged_user, setup, seed, seed_hash, recorded, started_at, ended_at, \
         winner_id, reason, outcome, tournament_id FROM now.fights"
            .to_string(),
        "INSERT INTO fight_steps SELECT fight_id, seq, side, decision, rolls, at \
         FROM now.fight_steps ORDER BY seq DESC, fight_id DESC"
            .to_string(),
    ] {
        sqlx::query(&sql).execute(&mut *conn).await.unwrap();
    }
    drop(conn);
    pool.close().await;

    let store = before.store().await;
    for fight in &fights {
        assert_eq!(
            store.fight(fight.id).await.unwrap().steps,
            fight.steps,
            "fight #{}",
            fight.id
        );
    }
    let open = store.open_fights(realm).await.unwrap();
    assert_eq!(
        open.iter().map(|f| f.id).collect::<Vec<_>>(),
        ids[1..].to_vec()
    );
    for (restored, fight) in open.iter().zip(&fights[1..]) {
        assert_eq!(restored.steps, fight.steps);
    }
    let counted: Vec<Option<i64>> = sqlx::query_scalar("SELECT steps FROM fights ORDER BY id")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(counted, vec![Some(2), None, None]);
}

// The book writer leaves the WAL to a checkpointer, asking every 128 commits and waiting only
// when two requests are outstanding; past 4,096 frames the checkpointer starts the WAL over.
// Five thousand commits of four pages or so without a pause would leave about 20,000 frames
// (81 MB) in a WAL nobody copies back; here the file stays within 4,096 + 3 × 128 × 4 frames
// (23 MB; 17.6 MB measured), and no step is lost.
#[tokio::test]
async fn the_wal_stays_bounded_while_the_book_writer_never_pauses() {
    use herald_engine::psiknight::MatchKind::Practice;
    use herald_engine::psiknight::Side::Challenger;
    let (books, store, realm) = batch_knights().await;
    let end = started(
        &store,
        realm,
        &Ending {
            kind: Practice,
            pair: ["Alan", "Brenna"],
            winner: Some(Challenger),
            injured: &[],
            day: "2026-12-02",
        },
    )
    .await;
    // About 7 KB of rolls: overflow pages and a leaf each.
    let step = herald_bot::store::Step {
        rolls: vec![(100, false); 700],
        ..end.last.clone()
    };
    for seq in 1..=5_000 {
        store.add_step(end.fight, seq, &step).await.unwrap();
    }
    let wal = std::fs::metadata(books.dir.path().join("herald.db-wal"))
        .unwrap()
        .len();
    assert!(
        wal < 32 << 20,
        "the WAL has grown to {:.1} MB",
        wal as f64 / f64::from(1 << 20)
    );
    let fight = store.fight(end.fight).await.unwrap();
    assert_eq!(fight.steps.len(), 5_001);
    assert_eq!(fight.steps[5_000], step);
}
