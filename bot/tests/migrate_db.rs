//! `herald migrate-db`: SQLite books moved to PostgreSQL by the real binary, then read and
//! played on there. Skipped, with a message, without `HERALD_TEST_PG` (CI sets it).

mod common;
use common::*;
use herald_bot::export::export;
use std::process::Command;

const ADMINS: &str = "[permissions]\nadmins = [\"alice\"]\n";

fn herald(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .output()
        .expect("herald runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test]
async fn sqlite_books_move_to_postgres_whole() {
    let Some(target) = postgres().await else {
        return;
    };
    // Books with fights, allegiances, hostilities, marks, admin entries and a revoked one.
    let books = Books::new();
    for transcript in [
        include_str!("transcripts/books_allegiance.txt"),
        include_str!("transcripts/books_admin.txt"),
    ] {
        let run = run_with(&books.path(), ADMINS, transcript).await;
        assert_eq!(run.result, Ok(()));
    }
    let path = books.path().display().to_string();
    let url = target.url();

    let (ok, said) = herald(&["migrate-db", "--from", &path, "--to", &url]);
    assert!(ok, "{said}");
    assert!(
        said.contains("every table's count and the two exports agree"),
        "{said}"
    );

    // The same books on both sides, as `herald export` tells them.
    let sqlite = books.store().await;
    let pg = target.store().await;
    let (a, b) = (export(&sqlite).await.unwrap(), export(&pg).await.unwrap());
    assert_eq!(a, b);
    assert!(!a["tables"]["allegiance_marks"]
        .as_array()
        .unwrap()
        .is_empty());

    // Play goes on there: a new knight takes the next id, and the standings are the old ones.
    let run = run_on(
        target.store().await,
        ADMINS,
        "@clock 2026-12-03T10:00:00Z\nzed: /knight create Zed --top lance,shield,ride --psi cpk:40 --monarch llewellyn\nzed: /standings\n",
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("Sir Zed is dubbed");
    let before = run_on(books.store().await, ADMINS, "zed: /standings\n").await;
    let standings = |out: &str| {
        out.lines()
            .filter(|l| !l.contains("Zed"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(standings(&run.out)[1..], standings(&before.out)[1..]);
    assert!(run.said("(6 knights)") && before.said("(5 knights)"));

    // A second move into books already there is refused, and writes nothing.
    let (ok, said) = herald(&["migrate-db", "--from", &path, "--to", &url]);
    assert!(!ok);
    assert!(said.contains("already holds books"), "{said}");
}
