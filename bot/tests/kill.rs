//! A fight of every game on the seam survives Herald being killed (SIGKILL) in the middle: the
//! real binary's console room is killed after a step, and a second run on the same database file
//! resumes the fight where it stood and plays it to its end by the timeouts' defaults (each
//! game's default policy: T19, PM15, PC37, PF37), which `herald verify` then replays.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn herald() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
    cmd.env_remove("HERALD_LOG").env_remove("RUST_LOG");
    cmd
}

/// One game's fight to kill and resume.
struct Case {
    /// The game's id.
    game: &'static str,
    /// The console lines up to the kill; the last is `ann: /status`.
    lines: &'static str,
    /// What `/status` says once the steps before it are in the books.
    status: &'static str,
    /// A line of the first run that shows how far the fight got.
    before: &'static str,
    /// What the timeout after the restart takes.
    timeout: &'static str,
    /// The `/record` line after the end: any of these.
    record: &'static [&'static str],
    /// `herald verify`'s report.
    verifies: &'static str,
}

fn killed_mid_way_resumes_exactly(case: Case) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("herald.db");
    let config = dir.path().join("herald.toml");
    std::fs::write(&config, format!("[games]\ndefault = \"{}\"\n", case.game)).unwrap();

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
    writeln!(input, "{}", case.lines).unwrap();
    input.flush().unwrap();
    // Read until the status answer: by then every step before it is in the books.
    let mut said = Vec::new();
    for line in BufReader::new(console.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.contains(case.status);
        said.push(line);
        if done {
            break;
        }
    }
    assert!(said.iter().any(|l| l.contains(case.before)), "{said:#?}");
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
    assert!(text.contains(case.timeout), "{text}");
    assert!(text.contains("Fight #1 is over. Dice seed: "), "{text}");
    assert!(case.record.iter().any(|r| text.contains(r)), "{text}");

    let verify = herald()
        .args(["verify", "1", "--db"])
        .arg(&db)
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let report = String::from_utf8(verify.stdout).unwrap();
    assert!(verify.status.success(), "{report}");
    assert!(report.contains(case.verifies), "{report}");
}

// T9 before the kill; T19's default (/attack) after it.
#[test]
fn a_tourney_fight_killed_mid_way_resumes_exactly() {
    killed_mid_way_resumes_exactly(Case {
        game: "tourney",
        lines: "ann: /knight create Ector\n\
                bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5\n\
                ann: /challenge bo\n\
                bo: /accept\n\
                ann: /status",
        status: "Fight #1: Sir Ector vs Sir Gimby, a bout on foot of The Tourney. Round 1",
        before: "acts first (T9)",
        timeout: "did not answer in time: /attack is taken for them.",
        record: &[
            "Sir Ector in The Tourney: 1 win",
            "Sir Ector in The Tourney: 0 wins, 1 loss",
        ],
        verifies: "Fight #1 of The Tourney verifies",
    });
}

// Killed with Bo's defence awaited (PM26); PM15's default (/defend physical) after it.
#[test]
fn a_psi_morphs_fight_killed_mid_way_resumes_exactly() {
    killed_mid_way_resumes_exactly(Case {
        game: "psimorphs",
        lines: "ann: /morph create Ann --str 5 --dex 4 --agi 3 --int 3 --will 3 --res 3 --ranks combat:3,physical:1,energy:3,atom:1 --master combat:1\n\
                bo: /morph create Bo --str 3 --dex 4 --agi 4 --int 4 --will 3 --res 3 --ranks combat:2,physical:3,mental:1,energy:2 --isp energy:2,general:3\n\
                ann: /fight bo\n\
                bo: /accept\n\
                ann: /attack\n\
                ann: /status",
        status: "Fight #1: Ann vs Bo, a fight of Psi Morphs. Round 1",
        before: "Ann attacks Bo.",
        timeout: "Bo (bo) did not answer in time: /defend physical is taken for them.",
        record: &["Ann in Psi Morphs: "],
        verifies: "Fight #1 of Psi Morphs verifies",
    });
}

// PC7's turn order before the kill; PC37's default attack after it.
#[test]
fn a_psionic_combat_killed_mid_way_resumes_exactly() {
    killed_mid_way_resumes_exactly(Case {
        game: "powerpool",
        lines: "ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra\n\
                bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank\n\
                ann: /psicombat bo\n\
                bo: /accept\n\
                ann: /status",
        status: "Fight #1: Ash vs Brim, a psionic combat of Power Pools. Round 1",
        before: "Turn order: ",
        timeout: "did not answer in time: /attack ",
        record: &["Ash in Power Pools: "],
        verifies: "Fight #1 of Power Pools verifies",
    });
}

// PC33: a group fight, two against one, killed after PC7's turn order; its members are read
// back from the books, and PC37's defaults (every member's) play it out.
#[test]
fn a_psionic_combat_of_groups_killed_mid_way_resumes_exactly() {
    killed_mid_way_resumes_exactly(Case {
        game: "powerpool",
        lines: "ann: /creature create Ash --kind psionicist --hd 8 --attack stab,overload --defense mantra\n\
                cai: /creature create Cai --kind psionicist --hd 4 --attack stab --defense swarm\n\
                bo: /creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank\n\
                ann: /psicombat bo --with cai\n\
                bo: /accept\n\
                cai: /accept\n\
                ann: /status",
        status: "Fight #1: Ash and Cai vs Brim, a psionic combat of Power Pools. Round 1",
        before: "Turn order: ",
        timeout: "did not answer in time: /attack ",
        record: &["Ash in Power Pools: "],
        verifies: "Fight #1 of Power Pools verifies",
    });
}

// PF28's focus before the kill; PF37's defaults after it.
#[test]
fn a_pfp_duel_killed_mid_way_resumes_exactly() {
    killed_mid_way_resumes_exactly(Case {
        game: "pfpduel",
        lines: "ann: /psionist create Ann\n\
                bo: /psionist create Bo\n\
                ann: /challenge bo\n\
                bo: /accept\n\
                ann: /status",
        status: "Fight #1: Ann vs Bo, a psionic duel of the PFP duel. Round 1",
        before: "(PF28)",
        timeout: "did not answer in time: /",
        record: &["Ann in the PFP duel: "],
        verifies: "Fight #1 of the PFP duel verifies",
    });
}
