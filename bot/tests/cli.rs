//! The command line as a contract (DESIGN.md, "Contract for the command line"): the real
//! `herald` binary, run as a user would run it.

use herald_bot::store::Store;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn herald() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    // Only what the binary prints on purpose; no log lines from the environment.
    cmd.env_remove("HERALD_LOG").env_remove("RUST_LOG");
    cmd
}

fn transcript(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/transcripts")
        .join(name)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

fn show(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        stdout(out),
        stderr(out)
    )
}

/// `herald script FILE --db DB [extra...]`.
fn script(file: &Path, db: &Path, extra: &[&str]) -> Output {
    herald()
        .arg("script")
        .arg(file)
        .arg("--db")
        .arg(db)
        .args(extra)
        .output()
        .expect("herald runs")
}

/// Writes `text` as a transcript file in `dir`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the transcript is written");
    path
}

fn is_snake_case(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('_')
        && !s.ends_with('_')
        && !s.contains("__")
        && s.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

const KNIGHTS: &str = "\
@clock 2026-12-01T10:00:00Z
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
";

// ----- herald script -----

#[test]
fn script_prints_channel_prefixed_replies_and_one_json_event_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let events = dir.path().join("events.jsonl");
    let out = script(
        &transcript("example.txt"),
        &db,
        &["--events", events.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert!(text.lines().count() > 20, "{text}");
    for line in text.lines() {
        // A psi skill armed is told to its knight alone: `[to dana]`.
        let prefix = ["[#lists] ", "[to dana] "]
            .into_iter()
            .find(|p| line.starts_with(p));
        let Some(prefix) = prefix else {
            panic!("unprefixed line: {line:?}");
        };
        assert!(line.len() > prefix.len(), "empty reply: {line:?}");
    }
    assert!(
        text.contains("[to dana] Dame Dara arms Hypercognition."),
        "{text}"
    );
    assert!(text.contains("[#lists] Dame Dara is unhorsed!"), "{text}");

    let events = std::fs::read_to_string(&events).expect("the events file");
    let mut types = Vec::new();
    for line in events.lines() {
        let value: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not one JSON value per line: {line:?}: {e}"));
        let kind = value
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {line}"))
            .get("type")
            .and_then(|t| t.as_str())
            .unwrap_or_else(|| panic!("no string \"type\": {line}"));
        assert!(is_snake_case(kind), "{kind:?} is not snake_case");
        types.push(kind.to_string());
    }
    // The events of EXAMPLES.md are there, first the psi roll of Hypercognition.
    for kind in [
        "psi",
        "roll",
        "bonus",
        "unhorsed",
        "injury",
        "swordplay_started",
    ] {
        assert!(
            types.iter().any(|t| t == kind),
            "no {kind} event in {types:?}"
        );
    }
    let first_roll = types.iter().position(|t| t == "roll").unwrap();
    let psi = types.iter().position(|t| t == "psi").unwrap();
    assert!(
        psi < first_roll,
        "Hypercognition fires before Dara's Observe (R22)"
    );
}

#[test]
fn script_names_the_channel_of_each_line_and_reads_standard_input() {
    let text = format!("{KNIGHTS}@dice 42\n[#yard] dana: /roll 100\n");
    let mut child = herald()
        .args(["script", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("herald runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{}", show(&out));
    assert!(
        lines[0].starts_with("[#lists] Dame Dara is dubbed"),
        "{}",
        lines[0]
    );
    assert!(lines[2].starts_with("[#yard] dana rolls"), "{}", lines[2]);
    assert!(lines[2].ends_with("42"), "{}", lines[2]);
}

#[test]
fn a_malformed_directive_exits_non_zero_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (n, (bad, word)) in [
        ("@dice 0", "@dice"),
        ("@bogus", "@bogus"),
        ("@wait soon", "@wait"),
    ]
    .into_iter()
    .enumerate()
    {
        let file = write(
            dir.path(),
            "bad.txt",
            &format!("{KNIGHTS}# a comment\n{bad}\ndana: /roll 100\n"),
        );
        let out = script(&file, &dir.path().join(format!("bad{n}.db")), &[]);
        assert!(!out.status.success(), "{bad}: {}", show(&out));
        let err = stderr(&out);
        assert!(
            err.contains("line 5"),
            "{bad}: the message names the line: {err}"
        );
        assert!(err.contains(word), "{bad}: {err}");
        // The lines before the bad one were played; the one after was not.
        assert!(
            stdout(&out).contains("Sir Eoin is dubbed"),
            "{}",
            show(&out)
        );
        assert!(!stdout(&out).contains("dana rolls"), "{}", show(&out));
    }
}

#[test]
fn a_scripted_die_that_does_not_fit_its_die_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    // A d100 for /roll 100.
    let file = write(
        dir.path(),
        "roll.txt",
        &format!("{KNIGHTS}@dice 150\ndana: /roll 100\n"),
    );
    let out = script(&file, &dir.path().join("roll.db"), &[]);
    assert!(!out.status.success(), "{}", show(&out));
    let err = stderr(&out);
    assert!(err.contains("150") && err.contains("d100"), "{err}");
    assert!(err.contains("line 5"), "{err}");

    // A d100 of a fight: the first Observe roll when the challenge is accepted (R40).
    let file = write(
        dir.path(),
        "fight.txt",
        &format!("{KNIGHTS}dana: /joust evan\n@dice 150\nevan: /accept\n"),
    );
    let out = script(&file, &dir.path().join("fight.db"), &[]);
    assert!(!out.status.success(), "{}", show(&out));
    let err = stderr(&out);
    assert!(err.contains("150") && err.contains("d100"), "{err}");
    assert!(err.contains("line 6"), "{err}");
}

#[test]
fn a_bad_chat_command_is_a_reply_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "chat.txt",
        &format!("{KNIGHTS}dana: /jousst evan\ndana: /roll 1d\ndana: /joust nobody\n"),
    );
    let out = script(&file, &dir.path().join("chat.db"), &[]);
    assert!(out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 5, "one reply per chat line: {text}");
    assert!(text.contains("did you mean 'joust'"), "{text}");
}

// ----- herald verify -----

#[test]
fn verify_confirms_a_finished_fight_and_refuses_an_unfinished_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    assert!(
        stdout(&out).contains("Sir Eoin earns 1 HP."),
        "{}",
        show(&out)
    );

    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    assert!(stdout(&out).contains("verifies"), "{}", show(&out));

    // The worked example stops mid-Swordplay: its fight has not ended.
    let open = dir.path().join("open.db");
    let out = script(&transcript("example.txt"), &open, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&open)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", show(&out));
    assert!(stdout(&out).contains("has not ended"), "{}", show(&out));
}

async fn rolls_of(db: &Path, seq: i64) -> Vec<(u32, bool)> {
    let store = Store::open(db).await.unwrap();
    let text: String =
        sqlx::query_scalar("SELECT rolls FROM fight_steps WHERE fight_id = 1 AND seq = ?")
            .bind(seq)
            .fetch_one(store.pool())
            .await
            .unwrap();
    serde_json::from_str(&text).unwrap()
}

async fn set_rolls(db: &Path, seq: i64, rolls: &[(u32, bool)]) {
    let store = Store::open(db).await.unwrap();
    let done = sqlx::query("UPDATE fight_steps SET rolls = ? WHERE fight_id = 1 AND seq = ?")
        .bind(serde_json::to_string(rolls).unwrap())
        .bind(seq)
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(done.rows_affected(), 1);
}

// A seeded roll changed in the books no longer matches the seed: verify names the roll.
#[tokio::test]
async fn verify_finds_a_tampered_seeded_roll_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("defaults.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    assert!(stdout(&out).contains("Fight #1 is over"), "{}", show(&out));
    let ok = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(ok.status.success(), "{}", show(&ok));

    // The start step's rolls: Dara's Observe (40), Eoin's Observe (30), then the Ride rolls.
    // Change Dara's Observe to another number that keeps the fight on the same path (the same
    // success, the same side of Eoin's roll for step 1B), so the replay runs through and the
    // difference is the seed's alone.
    let mut rolls = rolls_of(&db, 0).await;
    assert!(rolls.len() >= 4 && rolls.iter().all(|r| !r.1), "{rolls:?}");
    let (r0, r1) = (rolls[0].0, rolls[1].0);
    let other = (1..=100u32)
        .find(|&v| v != r0 && (v <= 40) == (r0 <= 40) && v.cmp(&r1) == r0.cmp(&r1))
        .expect("another roll on the same path");
    rolls[0].0 = other;
    set_rolls(&db, 0, &rolls).await;

    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert!(text.contains("differs"), "{}", show(&out));
    assert!(
        text.contains("roll #1 "),
        "names the first roll: {}",
        show(&out)
    );
}

// A fight of a game this Herald does not know is named as such, not replayed as a joust.
#[tokio::test]
async fn verify_names_a_game_it_does_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("defaults.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let store = Store::open(&db).await.unwrap();
    // As a newer Herald's game would have written it: its own checks are not this schema's.
    let mut conn = store.pool().acquire().await.unwrap();
    sqlx::query("PRAGMA ignore_check_constraints = ON")
        .execute(&mut *conn)
        .await
        .unwrap();
    let done = sqlx::query("UPDATE fights SET game = 'chess' WHERE id = 1")
        .execute(&mut *conn)
        .await
        .unwrap();
    assert_eq!(done.rows_affected(), 1);
    drop(conn);
    drop(store);
    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", show(&out));
    let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(
        all.contains("fight #1 is of the game 'chess', which this Herald does not know"),
        "{}",
        show(&out)
    );
    assert!(!all.contains("differs"), "{}", show(&out));
}

// A scripted roll changed in the books changes the fight: the logged decisions no longer fit,
// and verify names the step where the replay breaks.
#[tokio::test]
async fn verify_finds_a_tampered_scripted_roll_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    // Step 3 is Eoin's High: Lance 30, then Dara's Shield 50 against 15. A 10 would hold her in
    // the saddle, so Eoin's logged /decline (step 4) comes when no such question is asked.
    let mut rolls = rolls_of(&db, 3).await;
    assert_eq!(rolls, vec![(30, true), (50, true)]);
    rolls[1].0 = 10;
    set_rolls(&db, 3, &rolls).await;

    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert!(text.contains("Fight #1"), "{}", show(&out));
    assert!(!text.contains("verifies"), "{}", show(&out));
    assert!(text.contains("step 4"), "names the step: {}", show(&out));
}

// ----- herald export -----

#[test]
fn export_prints_the_books_as_one_json_document() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let out = herald().args(["export", "--db"]).arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&stdout(&out)).expect("stdout is one JSON document");

    let knights = doc["knights"].as_array().expect("knights");
    assert_eq!(knights.len(), 2);
    let eoin = knights
        .iter()
        .find(|k| k["name"] == "Eoin")
        .expect("Eoin is exported");
    let dara = knights
        .iter()
        .find(|k| k["name"] == "Dara")
        .expect("Dara is exported");
    assert_eq!(eoin["owner"], "evan");
    assert_eq!(eoin["style"], "sir");
    assert_eq!(dara["style"], "dame");
    assert_eq!(eoin["monarch"], "llewellyn");
    assert_eq!(dara["monarch"], "seonaid");
    assert_eq!(eoin["skills"]["lance"], 40);
    assert_eq!(dara["skills"]["lance"], 30);
    assert!(eoin["skills"]["lance"].is_number());
    assert_eq!(eoin["psi"]["mesmerism"], 20);
    assert_eq!(dara["psi"]["hypercognition"], 20);
    // Points as numbers: Eoin has his 1 HP.
    assert!(eoin["hp"].is_number() && eoin["pp"].is_number(), "{eoin}");
    assert_eq!(eoin["hp"].as_f64(), Some(1.0));
    assert_eq!(eoin["pp"].as_f64(), Some(0.0));
    assert_eq!(dara["hp"].as_f64(), Some(0.0));
    assert_eq!(eoin["landed"], false);
    assert!(eoin["title"].is_string(), "{eoin}");

    let ledger = doc["ledger"].as_array().expect("ledger");
    assert_eq!(ledger.len(), 1);
    let entry = &ledger[0];
    for key in ["id", "knight", "hp", "pp", "reason", "at"] {
        assert!(
            entry.get(key).is_some(),
            "ledger entry lacks {key}: {entry}"
        );
    }
    assert_eq!(entry["knight"], "Eoin");
    assert!(
        entry["hp"].is_number() && entry["pp"].is_number(),
        "{entry}"
    );
    assert_eq!(entry["hp"].as_f64(), Some(1.0));
    assert_eq!(entry["pp"].as_f64(), Some(0.0));
    assert!(
        entry["reason"].is_string() && entry["at"].is_string(),
        "{entry}"
    );

    let fights = doc["fights"].as_array().expect("fights");
    assert_eq!(fights.len(), 1);
    let fight = &fights[0];
    for key in [
        "id",
        "kind",
        "knights",
        "winner",
        "recorded",
        "started_at",
        "ended_at",
    ] {
        assert!(fight.get(key).is_some(), "fight lacks {key}: {fight}");
    }
    assert_eq!(fight["id"], 1);
    assert_eq!(fight["kind"], "practice");
    assert_eq!(fight["knights"], serde_json::json!(["Dara", "Eoin"]));
    assert_eq!(fight["winner"], "Eoin");
    assert_eq!(fight["recorded"], true);
    assert!(fight["started_at"].is_string() && fight["ended_at"].is_string());
}

// ----- help and version -----

#[test]
fn help_and_version_exit_zero() {
    let out = herald().arg("--help").output().unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    for sub in ["script", "verify", "export", "console", "run"] {
        assert!(text.contains(sub), "--help lists {sub}: {text}");
    }
    let out = herald().arg("--version").output().unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert!(text.contains("herald"), "{text}");
    assert!(text.contains(env!("CARGO_PKG_VERSION")), "{text}");
}

// ----- a database that is not there (issue 15, bug 4) -----

/// Every subcommand but `run`, `console` and `script` refuses a database file that does not
/// exist: it names the path, exits with status 2 and creates nothing (no `-wal`, no `-shm`).
#[test]
fn a_missing_database_is_refused_with_status_2_and_nothing_is_created() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("typo.db");
    let runs: [&[&str]; 3] = [
        &["export"],
        &["verify", "1"],
        &["simulate", "Dara", "Eoin", "--fights", "10"],
    ];
    for args in runs {
        let out = herald().args(args).arg("--db").arg(&db).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", show(&out));
        assert!(
            stderr(&out).contains(&db.display().to_string()),
            "{args:?} names the path: {}",
            show(&out)
        );
        assert!(stdout(&out).is_empty(), "{args:?}: {}", show(&out));
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{args:?} created {left:?}");
    }
}

// ----- herald verify, in English (issue 15, bug 5) -----

/// An open fight is open, not a fight that "does not verify"; it has a status of its own (3).
#[test]
fn verify_says_an_open_fight_is_open_with_status_3() {
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open.db");
    let out = script(&transcript("example.txt"), &open, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&open)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", show(&out));
    let all = format!("{}{}", stdout(&out), stderr(&out));
    assert!(all.contains("is still open"), "{}", show(&out));
    assert!(!all.contains("does not verify"), "{}", show(&out));
}

/// A verified fight is told in English: who won and how, no Rust debug text.
#[test]
fn verify_tells_the_outcome_in_english() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let text = stdout(&out);
    assert!(text.contains("Eoin won by unhorsing"), "{text}");
    for debug in ["Some(", "None", "outcome ", " by Unhorse"] {
        assert!(!text.contains(debug), "{debug:?} in {text}");
    }
}

// ----- logs (issue 15, bug 7) -----

/// Logs on a standard error that is not a terminal carry no ANSI colours.
#[test]
fn logs_to_a_pipe_have_no_colours() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = herald()
        .env("HERALD_LOG", "debug")
        .arg("script")
        .arg(transcript("declined.txt"))
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    let err = stderr(&out);
    assert!(!err.is_empty(), "debug logs something: {}", show(&out));
    assert!(!err.contains('\u{1b}'), "ANSI escapes in: {err}");
}

// ----- herald import (issue 15, item 13) -----

/// `herald export` then `herald import FILE --db NEW`: a new database with the same books, which
/// exports the same document.
#[test]
fn import_restores_an_export_into_a_new_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let first = herald().args(["export", "--db"]).arg(&db).output().unwrap();
    assert!(first.status.success(), "{}", show(&first));
    let file = dir.path().join("backup.json");
    std::fs::write(&file, &first.stdout).unwrap();
    let new = dir.path().join("restored.db");
    let out = herald()
        .arg("import")
        .arg(&file)
        .arg("--db")
        .arg(&new)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
    assert!(stdout(&out).contains("2 knights"), "{}", show(&out));
    let second = herald()
        .args(["export", "--db"])
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(stdout(&first), stdout(&second));
    // The fight of declined.txt still verifies in the restored books.
    let out = herald()
        .args(["verify", "1", "--db"])
        .arg(&new)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", show(&out));
}

/// An existing file is never written over, and an export that is not whole (not JSON, cut
/// short, a row that does not fit) is refused: one line naming what was wrong, status 2, and no
/// file left behind.
#[test]
fn import_refuses_an_existing_file_or_a_broken_export_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let out = script(&transcript("declined.txt"), &db, &[]);
    assert!(out.status.success(), "{}", show(&out));
    let export = herald().args(["export", "--db"]).arg(&db).output().unwrap();
    let good = stdout(&export);
    let doc: serde_json::Value = serde_json::from_str(&good).unwrap();

    let import = |text: &str, new: &Path| {
        let mut child = herald()
            .args(["import", "-", "--db"])
            .arg(new)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };

    // An existing file: refused, and left as it was.
    let before = std::fs::read(&db).unwrap();
    let out = import(&good, &db);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        stderr(&out).contains("there is already a file at"),
        "{}",
        show(&out)
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);

    let mut dangling = doc.clone();
    dangling["tables"]["knights"][0]["owner_id"] = serde_json::json!(99);
    let mut twice = doc.clone();
    let knight = twice["tables"]["knights"][0].clone();
    twice["tables"]["knights"]
        .as_array_mut()
        .unwrap()
        .push(knight);
    let mut unknown = doc.clone();
    unknown["tables"]["knights"][0]["charm"] = serde_json::json!(3);
    let mut older = doc.clone();
    older["schema"] = serde_json::json!(1);
    let cases = [
        (
            good[..good.len() / 2].to_string(),
            "not an export of Herald's books",
        ),
        ("{}".to_string(), "not an export of Herald's books"),
        (older.to_string(), "migration 1"),
        (
            dangling.to_string(),
            "names a row of 'users' the export does not hold",
        ),
        (twice.to_string(), "UNIQUE constraint failed"),
        (
            unknown.to_string(),
            "a column 'charm' the table does not have",
        ),
    ];
    for (i, (text, said)) in cases.iter().enumerate() {
        let new = dir.path().join(format!("new{i}.db"));
        let out = import(text, &new);
        assert_eq!(out.status.code(), Some(2), "case {i}: {}", show(&out));
        let err = stderr(&out);
        assert!(err.contains(said), "case {i}: {}", show(&out));
        assert_eq!(
            err.trim().lines().count(),
            1,
            "case {i}: one line: {}",
            show(&out)
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with("herald.db"))
            .collect();
        assert!(left.is_empty(), "case {i} left {left:?}");
    }
}
