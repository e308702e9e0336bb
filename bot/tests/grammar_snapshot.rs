//! The grammar as players meet it, pinned to a file: every game channel's answer to `/help`,
//! to `/help` on every command word of every game, to each word alone, mistyped (a letter
//! dropped, two swapped) and said in a channel of another game; and the slash commands Discord
//! registers. A change to the tables or the parser that changes any answer fails here.
//!
//! `HERALD_BLESS=1 cargo test -p herald-bot --test grammar_snapshot` rewrites the file after a
//! change meant to alter the answers.

mod common;
use common::*;
use std::collections::BTreeSet;

const CONFIG: &str = r##"
[games.channels]
"#tourney" = "tourney"
"#pfp" = "pfpduel"
"#morphs" = "psimorphs"
"#pools" = "powerpool"
"##;

const CHANNELS: [&str; 5] = ["#lists", "#tourney", "#pfp", "#morphs", "#pools"];

const SNAPSHOT: &str = "tests/snapshots/grammar.txt";

/// Every command word of every game, and every command's full name, sorted.
fn words() -> (BTreeSet<String>, BTreeSet<String>) {
    let mut first = BTreeSet::new();
    let mut names = BTreeSet::new();
    for game in herald_bot::games::GAMES {
        for spec in (game.commands)() {
            first.insert(spec.path[0].to_string());
            first.extend(spec.aliases.iter().map(|a| a.to_string()));
            names.insert(spec.path.join(" "));
        }
    }
    (first, names)
}

fn mistyped(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    if chars.len() > 2 {
        out.push(chars[..chars.len() - 1].iter().collect());
    }
    if chars.len() > 3 {
        let mut swapped = chars.clone();
        swapped.swap(1, 2);
        out.push(swapped.into_iter().collect());
    }
    out
}

fn transcript() -> String {
    let (first, names) = words();
    let mut lines = vec!["@clock 2026-12-01T10:00:00Z".to_string()];
    for channel in CHANNELS {
        lines.push(format!("[{channel}] ann: /help"));
        for name in &names {
            lines.push(format!("[{channel}] ann: /help {name}"));
        }
        for word in &first {
            lines.push(format!("[{channel}] ann: /{word}"));
            lines.push(format!("[{channel}] ann: /{word} --bogus"));
            for typo in mistyped(word) {
                lines.push(format!("[{channel}] ann: /{typo}"));
            }
        }
        lines.push(format!("[{channel}] ann: /help nothing"));
        lines.push(format!("[{channel}] ann: /"));
    }
    lines.join("\n") + "\n"
}

#[tokio::test]
async fn every_answer_of_the_grammar_and_discords_commands_are_as_pinned() {
    let books = Books::new();
    let run = run_with(&books.path(), CONFIG, &transcript()).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let discord: Vec<serde_json::Value> =
        herald_bot::transport::discord::commands::create_commands()
            .into_iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect();
    let got = format!(
        "{}\n--- Discord's registered commands\n{}\n",
        run.out,
        serde_json::to_string_pretty(&discord).unwrap()
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    if std::env::var_os("HERALD_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).expect("the snapshot exists (HERALD_BLESS=1)");
    if got != want {
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "the grammar's answers changed at line {}:\n got: {:?}\nwant: {:?}",
            first + 1,
            got.lines().nth(first),
            want.lines().nth(first)
        );
    }
}
