//! `herald import` and `herald simulate` on PostgreSQL, by the real binary: an export restored
//! into an empty PostgreSQL database (refused when it holds books), and odds read from there
//! equal to those read from the SQLite books. Skipped, with a message, without `HERALD_TEST_PG`.

mod common;
use common::*;
use herald_bot::export::export;
use std::process::Command;

fn herald(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .output()
        .expect("herald runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn an_export_imports_into_postgres_and_simulate_reads_the_knights_there() {
    let Some(target) = postgres().await else {
        return;
    };
    let books = Books::new();
    let run = run(&books.path(), DARA_AND_EOIN).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let run = run_with(
        &books.path(),
        "[permissions]\nadmins = [\"alice\"]\n",
        include_str!("transcripts/books_allegiance.txt"),
    )
    .await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let path = books.path().display().to_string();
    let url = target.url();

    let (code, json, err) = herald(&["export", "--db", &path]);
    assert_eq!(code, Some(0), "{err}");
    let file = books.dir.path().join("books.json");
    std::fs::write(&file, &json).unwrap();
    let file = file.display().to_string();
    let (code, said, err) = herald(&["import", &file, "--db", &url]);
    assert_eq!(code, Some(0), "{said}{err}");
    assert!(said.starts_with("imported "), "{said}");
    let (a, b) = (
        export(&books.store().await).await.unwrap(),
        export(&target.store().await).await.unwrap(),
    );
    assert_eq!(a, b, "the books on PostgreSQL are the export's");

    // Books there already: refused in one line, nothing written.
    let (code, _, err) = herald(&["import", &file, "--db", &url]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("already holds books"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(export(&target.store().await).await.unwrap(), a);

    // The same seed gives the same odds from either backend's knights.
    let odds = |db: &str| {
        let (code, out, err) = herald(&[
            "simulate", "Dara", "Eoin", "--fights", "200", "--seed", "5", "--db", db,
        ]);
        assert_eq!(code, Some(0), "{db}: {err}");
        out.lines()
            .filter(|l| !l.contains("fights/s") && !l.contains("threads"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (on_sqlite, on_postgres) = (odds(&path), odds(&url));
    assert!(
        on_sqlite.iter().any(|l| l.contains("Dara")),
        "{on_sqlite:?}"
    );
    assert_eq!(on_sqlite, on_postgres);
}

/// `herald import` into PostgreSQL builds the books in a SQLite file of its own in the temporary
/// directory first: the file goes after, and so do its journal and its start-up lock's file
/// (left behind by every run once). The import's temporary directory is the test's own here.
#[tokio::test]
async fn an_import_into_postgres_leaves_nothing_in_the_temporary_directory() {
    let Some(target) = postgres().await else {
        return;
    };
    let books = Books::new();
    let run = run(&books.path(), DARA_AND_EOIN).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let (code, json, err) = herald(&["export", "--db", &books.path().display().to_string()]);
    assert_eq!(code, Some(0), "{err}");
    let file = books.dir.path().join("books.json");
    std::fs::write(&file, &json).unwrap();
    let tmp = books.dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["import", &file.display().to_string(), "--db", &target.url()])
        .env("TMPDIR", &tmp)
        .output()
        .expect("herald runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.starts_with("imported "), "{said}");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left in the temporary directory: {left:?}");
}
