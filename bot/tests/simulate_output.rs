//! `herald simulate` and `/odds` pinned to a file for fixed seeds: PsiKnight's practice and
//! Lists reports, a Tourney bout's, the errors for knights that are not there (with and without
//! `--game`), and the chat's `/odds` in a PsiKnight and a Tourney channel. Only the line with
//! the time taken is left out. The real binary on a real SQLite file.
//!
//! `HERALD_BLESS=1 cargo test -p herald-bot --test simulate_output` rewrites the file after a
//! change meant to alter the figures.

mod common;
use common::*;
use std::process::Command;

const CONFIG: &str = r##"
[games.channels]
"#tourney" = "tourney"
"##;

const SNAPSHOT: &str = "tests/snapshots/simulate.txt";

const BOOKS: &str = "\
@clock 2026-12-01T10:00:00Z
dana: /knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5
dana: /odds Eoin
dana: /odds Dara Eoin
[#tourney] ann: /odds Gimby
";

fn simulate(db: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .env_remove("HERALD_LOG")
        .env_remove("RUST_LOG")
        .arg("simulate")
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .expect("herald runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let kept: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.contains(" fights/s"))
        .collect();
    format!(
        "$ herald simulate {}\nstatus {:?}\n{}\nstderr: {}\n",
        args.join(" "),
        out.status.code(),
        kept.join("\n"),
        String::from_utf8_lossy(&out.stderr).trim()
    )
}

#[tokio::test]
async fn herald_simulate_and_odds_say_what_they_said_for_the_same_seed() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, BOOKS).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let db = books.path();
    let mut got = format!("--- /odds in chat\n{}", run.out);
    for args in [
        &["Dara", "Eoin", "--fights", "5000", "--seed", "7"][..],
        &[
            "Dara", "Eoin", "--fights", "5000", "--seed", "7", "--kind", "lists",
        ],
        &[
            "Eoin",
            "Dara",
            "--fights",
            "3000",
            "--seed",
            "11",
            "--game",
            "psiknight",
        ],
        &["Ector", "Gimby", "--fights", "5000", "--seed", "7"],
        &[
            "Ector", "Gimby", "--fights", "5000", "--seed", "7", "--game", "tourney",
        ],
        &["Dara", "Nobody", "--fights", "10", "--seed", "7"],
        &[
            "Dara",
            "Nobody",
            "--fights",
            "10",
            "--seed",
            "7",
            "--game",
            "psiknight",
        ],
        &[
            "Dara", "Eoin", "--fights", "10", "--seed", "7", "--game", "tourney",
        ],
        &[
            "Dara",
            "Eoin",
            "--fights",
            "10",
            "--seed",
            "7",
            "--realm",
            "elsewhere",
        ],
    ] {
        got.push_str(&simulate(&db, args));
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    if std::env::var_os("HERALD_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).expect("the snapshot exists (HERALD_BLESS=1)");
    assert_eq!(got, want);
}
