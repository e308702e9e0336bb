//! A Psi Morphs fight survives Herald being killed (SIGKILL) in the middle: the real binary's
//! console room is killed after a step, and a second run on the same database file resumes the
//! fight where it stood and plays it to its end by the default policy, which `herald verify`
//! then replays.

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
    std::fs::write(&config, "[games]\ndefault = \"psimorphs\"\n").unwrap();

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
        "ann: /morph create Ann --str 5 --dex 4 --agi 3 --int 3 --will 3 --res 3 --ranks combat:3,physical:1,energy:3,atom:1 --master combat:1\n\
         bo: /morph create Bo --str 3 --dex 4 --agi 4 --int 4 --will 3 --res 3 --ranks combat:2,physical:3,mental:1,energy:2 --isp energy:2,general:3\n\
         ann: /fight bo\n\
         bo: /accept\n\
         ann: /attack\n\
         ann: /status"
    )
    .unwrap();
    input.flush().unwrap();
    // Read until the status answer: by then the attack is in the books, the defence awaited.
    let mut said = Vec::new();
    for line in BufReader::new(console.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.contains("Fight #1: Ann vs Bo, a fight of Psi Morphs. Round 1");
        said.push(line);
        if done {
            break;
        }
    }
    assert!(
        said.iter().any(|l| l.contains("Ann attacks Bo.")),
        "{said:#?}"
    );
    console.kill().unwrap();
    console.wait().unwrap();

    // Herald comes back: the fight is restored where it stood (Bo's defence), and timeouts take
    // the default until it ends.
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
    assert!(
        text.contains("Bo (bo) did not answer in time: /defend physical is taken for them."),
        "{text}"
    );
    assert!(text.contains("Fight #1 is over. Dice seed: "), "{text}");
    assert!(text.contains("Ann in Psi Morphs: "), "{text}");

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
        report.contains("Fight #1 of Psi Morphs verifies"),
        "{report}"
    );
}
