//! Several real `herald` processes on one PostgreSQL database, as a realm that outgrows one
//! machine runs: concurrent spends of the same points, the once-a-day practice rule across
//! processes, and a process killed mid-fight that another run resumes. Skipped, with a message,
//! without `HERALD_TEST_PG` (CI sets it).

mod common;
use common::*;
use herald_bot::store::books::Doer;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn herald() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    cmd.env_remove("HERALD_LOG").env_remove("RUST_LOG");
    cmd
}

/// Starts `herald script -` on `db` with `transcript` on its standard input.
fn script(db: &str, transcript: &str) -> std::process::Child {
    let mut child = herald()
        .args(["script", "-", "--db", db])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("herald starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(transcript.as_bytes())
        .unwrap();
    child
}

/// What a process said, once it has ended well.
fn said(child: std::process::Child) -> String {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

// R30: two processes spend the same knight's last points at the same moment, 20 rounds: each
// round exactly one raise is bought and paid for once.
#[tokio::test]
async fn two_processes_spending_the_last_points_buy_one_raise() {
    let Some(pg) = postgres().await else {
        return;
    };
    let url = pg.url();
    said(script(&url, DARA_AND_EOIN));
    let store = pg.store().await;
    let realm = store
        .realm(herald_bot::transport::LOCAL_REALM)
        .await
        .unwrap();
    let dara = store.knight_of(realm, "dana").await.unwrap().unwrap();
    let doer = Doer {
        realm,
        user: "root",
        actor: None,
        fight: None,
        at: "2026-12-01T11:00:00Z".parse().unwrap(),
        month: "2026-12",
    };
    // Each round the next skill, raised by one step for exactly its price (R30).
    let skills = herald_engine::psiknight::Skill::ALL;
    for round in 0..20 {
        let skill = skills[round % skills.len()];
        let sheet = store.knight(dara.id).await.unwrap().unwrap().sheet;
        let price = herald_engine::psiknight::books::step_cost(skill, sheet.skill(skill)).unwrap();
        store
            .admin_award(&doer, dara.id, price, "for the test")
            .await
            .unwrap();
        let skill = skill.name();
        let line = format!("@clock 2026-12-01T11:00:00Z\ndana: /spend {skill}\n");
        let (a, b) = (script(&url, &line), script(&url, &line));
        let (a, b) = (said(a), said(b));
        let bought = [&a, &b].iter().filter(|o| o.contains(" raises ")).count();
        assert_eq!(bought, 1, "round {round} ({skill}):\n{a}\n{b}");
        assert_eq!(
            store.balance(dara.id).await.unwrap().hp_halves,
            0,
            "round {round}: paid once"
        );
    }
}

/// A practice joust fought to its end in `channel` (the dice of `transcripts/declined.txt`:
/// Eoin unhorses Dara, Swordplay declined) on `day`.
fn joust(channel: &str, day: &str) -> String {
    format!(
        "@clock {day}T10:00:00Z\n[{channel}] dana: /joust evan\n@dice 90 90 90 20 30 50\n\
         [{channel}] evan: /accept\n[{channel}] dana: /nosweep\n[{channel}] evan: /nosweep\n\
         [{channel}] evan: /high\n[{channel}] evan: /decline\n"
    )
}

// R26: the pair's practice fight is recorded once a day, whichever process referees it: a
// second process's joust the same day earns nothing, and the next day's does.
#[tokio::test]
async fn the_once_a_day_rule_holds_across_processes() {
    let Some(pg) = postgres().await else {
        return;
    };
    let url = pg.url();
    said(script(&url, DARA_AND_EOIN));
    let first = said(script(&url, &joust("#north", "2026-12-01")));
    assert!(first.contains("Sir Eoin earns 1 HP"), "{first}");
    let second = said(script(&url, &joust("#south", "2026-12-01")));
    assert!(second.contains("not recorded"), "{second}");
    assert!(!second.contains("earns 1 HP"), "{second}");
    let next_day = said(script(&url, &joust("#south", "2026-12-02")));
    assert!(next_day.contains("Sir Eoin earns 1 HP"), "{next_day}");
    let honor = said(script(&url, "evan: /honor\n"));
    assert!(honor.contains("Sir Eoin: 2 HP"), "{honor}");
}

// A process killed (SIGKILL) in the middle of a fight: another run on the same database
// resumes the fight where it stood, plays it to its end by the timeouts' defaults, and
// `herald verify` replays it.
#[tokio::test]
async fn a_process_killed_mid_fight_is_resumed_by_another() {
    let Some(pg) = postgres().await else {
        return;
    };
    let url = pg.url();
    let mut console = herald()
        .args(["console", "--seed", "3", "--db", &url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = console.stdin.take().unwrap();
    writeln!(
        input,
        "{}dana: /joust evan\nevan: /accept\nevan: /nosweep\ndana: /status",
        DARA_AND_EOIN
            .lines()
            .filter(|l| !l.starts_with('@'))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    )
    .unwrap();
    input.flush().unwrap();
    let mut heard = Vec::new();
    for line in BufReader::new(console.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        // `/status` answers last, by then every step before it is in the books.
        let done = line.contains("Joust, pass 1.");
        heard.push(line);
        if done {
            break;
        }
    }
    assert!(
        heard.iter().any(|l| l.contains("Sir Eoin does not sweep")),
        "{heard:#?}"
    );
    console.kill().unwrap();
    console.wait().unwrap();

    let resumed = said(script(&url, "@wait 100000\nevan: /honor\n"));
    assert!(
        resumed.contains("Herald is back. Fight #1 resumes where it stood."),
        "{resumed}"
    );
    assert!(
        resumed.contains("Fight #1 is over. Dice seed: "),
        "{resumed}"
    );

    let verify = herald()
        .args(["verify", "1", "--db", &url])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&verify.stdout);
    assert!(verify.status.success(), "{report}");
    assert!(report.contains("Fight #1 verifies"), "{report}");
}
