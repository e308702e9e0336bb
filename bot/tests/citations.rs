//! The rules travel with the project (issue 15, item 14): every ruling a reply cites, `(R26)` or
//! `(R29, R101)`, is in `docs/rulings.md`, and where a keyword can tell, the reply citing it is
//! about what the ruling is about.
//!
//! The test reads the string literals of `bot/src` (comments and doc comments are not replies),
//! finds each `R<n>` cited in a parenthesis, and looks the number up in the file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source directory reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a Rust source, with the line each starts on. Comments, char literals
/// and lifetimes are skipped; raw strings (`r"…"`, `r#"…"#`) are read whole.
fn literals(src: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            '\'' => {
                // A char literal ('"', '\'', '\u{2212}') or a lifetime ('a).
                if next == Some('\\') {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            'r' if (next == Some('"') || next == Some('#'))
                && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while chars.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if chars.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                j += 1;
                let start = line;
                let mut text = String::new();
                while j < chars.len() {
                    if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    if chars[j] == '\n' {
                        line += 1;
                    }
                    text.push(chars[j]);
                    j += 1;
                }
                out.push((start, text));
                i = j;
            }
            '"' => {
                let start = line;
                let mut text = String::new();
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '"' {
                    if chars[j] == '\\' {
                        j += 1;
                    }
                    if chars.get(j) == Some(&'\n') {
                        line += 1;
                    }
                    if let Some(&c) = chars.get(j) {
                        text.push(c);
                    }
                    j += 1;
                }
                out.push((start, text));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The rulings a literal cites: each `R<n>` inside a parenthesis, `(R26)`, `(R29, R101)`,
/// `(a correction is not split, R154)`.
fn cited(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            'R' if depth > 0 => {
                let before = if i == 0 { ' ' } else { chars[i - 1] };
                if before.is_alphanumeric() {
                    continue;
                }
                let digits: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let after = chars.get(i + 1 + digits.len()).copied().unwrap_or(' ');
                if !digits.is_empty() && !after.is_alphanumeric() {
                    out.push(digits.parse().expect("digits"));
                }
            }
            _ => {}
        }
    }
    out
}

/// The entries of `docs/rulings.md`: number → the entry's text (its bullet and continuation
/// lines), lower-cased.
fn rulings() -> BTreeMap<u32, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rulings.md");
    let text = std::fs::read_to_string(&path).expect("docs/rulings.md reads");
    let mut out = BTreeMap::new();
    let mut current: Option<u32> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("- **R") {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            current = digits.parse().ok();
            if let Some(n) = current {
                assert!(
                    out.insert(n, line.to_lowercase()).is_none(),
                    "R{n} is in docs/rulings.md twice"
                );
            }
        } else if line.starts_with("  ") {
            if let Some(n) = current {
                if let Some(entry) = out.get_mut(&n) {
                    entry.push(' ');
                    entry.push_str(line.trim().to_lowercase().as_str());
                }
            }
        } else {
            current = None;
        }
    }
    out
}

/// What a reply citing a ruling must speak of, at least one of the words, where a word can
/// tell: the ruling's subject.
const ABOUT: &[(u32, &[&str])] = &[
    (3, &["knight", "skill", "psi", "name", "monarch"]),
    (12, &["injur", "day", "out"]),
    (17, &["kill", "arm"]),
    (21, &["psi", "arm", "has no"]),
    (22, &["psi", "fire", "before"]),
    (26, &["record", "today", "day"]),
    (28, &["hp", "month", "honor", "draw"]),
    (29, &["split", "landed", "pp"]),
    (30, &["raise", "hp", "skill", "spend"]),
    (31, &["land", "grant"]),
    (32, &["title", "advance", "rank", "names", "baron"]),
    (36, &["hp", "award", "lists", "match"]),
    (37, &["melee", "pass", "remount", "side", "award"]),
    (38, &["tournament", "month"]),
    (39, &["ransom", "hostile"]),
    (100, &["forfeit", "pp", "half"]),
    (122, &["name"]),
    (153, &["revoke", "revocation"]),
    (154, &["award", "correction", "split"]),
    (155, &["retire"]),
    (170, &["knight", "name", "player"]),
    (171, &["name", "killed", "retired", "lists"]),
    (172, &["grant", "lands", "offer"]),
    (173, &["lands", "release", "consent"]),
];

#[test]
fn every_ruling_a_reply_cites_is_in_docs_rulings_md() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let rulings = rulings();
    let about: BTreeMap<u32, &[&str]> = ABOUT.iter().copied().collect();
    let mut missing = BTreeSet::new();
    let mut off_topic = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let shown = file
            .strip_prefix(&src)
            .unwrap_or(file)
            .display()
            .to_string();
        for (line, literal) in literals(&text) {
            for n in cited(&literal) {
                seen.insert(n);
                if !rulings.contains_key(&n) {
                    missing.insert(format!("R{n} ({shown}:{line})"));
                    continue;
                }
                if let Some(words) = about.get(&n) {
                    let lower = literal.to_lowercase();
                    if !words.iter().any(|w| lower.contains(w)) {
                        off_topic.push(format!("R{n} at {shown}:{line}: {literal:?}"));
                    }
                }
            }
        }
    }
    assert!(
        seen.len() > 30,
        "the walk finds the replies' citations: {seen:?}"
    );
    assert!(
        missing.is_empty(),
        "cited in replies but not in docs/rulings.md: {missing:?}"
    );
    assert!(
        off_topic.is_empty(),
        "citations that do not speak of their ruling: {off_topic:#?}"
    );
}

// Every ruling of the rules' own list (R1–R42) is in docs/rulings.md, with the step of the rule
// text it rules on.
#[test]
fn docs_rulings_md_holds_r1_to_r42_each_with_its_step() {
    let rulings = rulings();
    for n in 1..=42 {
        let entry = rulings
            .get(&n)
            .unwrap_or_else(|| panic!("R{n} is not in docs/rulings.md"));
        assert!(
            entry.contains("rule text:"),
            "R{n} names the step of the rule text it rules on: {entry}"
        );
    }
}

#[test]
fn the_walk_reads_literals_and_citations() {
    let src = "// (R1) in a comment\nlet a = \"x (R26) y\"; let c = '\"'; let b = r#\"(R29, R101)\"#;\n/* (R2) */ \"R3 (not cited) (see R154)\"";
    let found: Vec<u32> = literals(src).iter().flat_map(|(_, t)| cited(t)).collect();
    assert_eq!(found, [26, 29, 101, 154]);
}
