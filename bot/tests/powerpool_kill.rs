//! A psionic combat survives Herald being killed (SIGKILL) in the middle: the real binary's
//! console room is killed after a step, and a second run on the same database file resumes the
//! fight where it stood and plays it to its end, which `herald verify` then replays.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn herald() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    cmd.env_remove("HERALD_LOG").env_remove("RUST_LOG");
    cmd
}

#[test]
fn a_fight_killed_mid_way_resumes_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let config = dir.path().join("herald.toml");
    std::fs::write(&config, "[games]\ndefault = \"powerpool\"\n").unwrap();

    let mut console = herald()
        .args(["console", "--seed", "3", "--db"])
        .arg(&db)
        .arg("--config")
        .arg(&config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = console.stdin.take().unwrap();
    writeln!(
        input,
        "ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra\n\
         bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank\n\
         ann: /psicombat bo\n\
         bo: /accept\n\
         ann: /status"
    )
    .unwrap();
    input.flush().unwrap();
    // Read until the status answer: by then the start and the first prompt are in the books.
    let mut said = Vec::new();
    for line in BufReader::new(console.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.contains("Fight #1: Ash vs Brim, a psionic combat of Power Pools. Round 1");
        said.push(line);
        if done {
            break;
        }
    }
    assert!(said.iter().any(|l| l.contains("Turn order: ")), "{said:#?}");
    console.kill().unwrap();
    console.wait().unwrap();

    // Herald comes back: the fight is restored, and timeouts take the default until it ends.
    let mut script = herald()
        .args(["script", "-", "--db"])
        .arg(&db)
        .arg("--config")
        .arg(&config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    script
        .stdin
        .take()
        .unwrap()
        .write_all(b"@wait 100000\nann: /record\n")
        .unwrap();
    let out = script.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Herald is back. Fight #1 resumes where it stood."),
        "{text}"
    );
    assert!(text.contains("did not answer in time: /attack "), "{text}");
    assert!(text.contains("Fight #1 is over. Dice seed: "), "{text}");
    assert!(text.contains("Ash in Power Pools: "), "{text}");

    let verify = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let report = String::from_utf8(verify.stdout).unwrap();
    assert!(verify.status.success(), "{report}");
    assert!(
        report.contains("Fight #1 of Power Pools verifies"),
        "{report}"
    );
}
