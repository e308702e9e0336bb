//! The shape of the code, checked: the core's modules import one another without a cycle, and
//! only the list of games names a game (ARCHITECTURE.md, "Architecture invariant"): no module
//! outside `games/` imports a game's folder (`games::psiknight`, `games::tourney`...), and a
//! game's folder imports no other game's. The imports are read from the source, as
//! `crate::MODULE` and `games::GAME` paths outside comments and test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `games` is the one module on both sides of the seam: its trait is the contract the core
/// drives, and its list (`GAMES`) names every game, so it is where the program is put together.
const REGISTRY: &str = "games";

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without its test module and comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers that follow `prefix` in `code`, and the names of a `prefix{a, b::c}` group.
fn paths_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            found.extend(group.split(',').map(|g| ident(g.trim())));
        } else {
            found.insert(ident(rest));
        }
    }
    found.retain(|s| !s.is_empty());
    found
}

/// Each top-level module of `bot/src` and the top-level modules it imports.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = top.trim_end_matches(".rs").to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let deps = paths_after(&code(file), "crate::");
        graph
            .entry(top.clone())
            .or_default()
            .extend(deps.into_iter().filter(|d| *d != top));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

/// A cycle through `from`, if one exists, as the modules on it.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![(from.to_string(), vec![from.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == from {
                return Some(path);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn the_core_modules_import_one_another_without_a_cycle() {
    let mut graph = graph();
    graph.remove(REGISTRY);
    for deps in graph.values_mut() {
        deps.remove(REGISTRY);
    }
    // The modules once in a circle with desk, office and tournament (now PsiKnight's, in its
    // folder) are all still here.
    for m in ["session", "hub", "referee", "store", "verify"] {
        assert!(graph.contains_key(m), "no module {m}");
    }
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn only_the_list_of_games_names_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let games: Vec<String> = std::fs::read_dir(root.join(REGISTRY))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    for game in ["psiknight", "tourney"] {
        assert!(
            games.iter().any(|g| g == game),
            "no games/{game}: {games:?}"
        );
    }
    let mut files = Vec::new();
    sources(&root, &mut files);
    for file in files {
        let rel = file.strip_prefix(&root).unwrap();
        let mut code = code(&file);
        if rel == Path::new("lib.rs") {
            // The crate's root keeps old public paths as re-exports for tests outside; it
            // imports nothing else of a game.
            code = code
                .lines()
                .filter(|l| !l.trim_start().starts_with("pub use games::"))
                .collect::<Vec<_>>()
                .join("\n");
        }
        let named = paths_after(&code, "games::");
        let own = rel
            .strip_prefix(REGISTRY)
            .ok()
            .and_then(|r| r.components().next())
            .map(|c| c.as_os_str().to_string_lossy().to_string());
        let registry = rel == Path::new(REGISTRY).join("mod.rs");
        for game in &games {
            if registry || own.as_deref() == Some(game.as_str()) {
                continue;
            }
            assert!(
                !named.contains(game),
                "{} names the game {game}: only {REGISTRY}/mod.rs may",
                rel.display()
            );
        }
    }
}

/// The hub and the session drive every game alike: they read no game's own books (PsiKnight's
/// knights, fights of knights and tournaments) but through `GameInfo::own_books`, and name no
/// game of the list. A cheap check by the names of those store functions.
#[test]
fn the_hub_and_the_session_read_no_games_own_books() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let own = [
        "open_fights(",
        "active_tournaments(",
        "knight_of(",
        "knight_named(",
        "fighting_in(",
        "enlisted_in(",
        "PSIKNIGHT",
    ];
    let mut files = vec![root.join("hub.rs")];
    sources(&root.join("session"), &mut files);
    for file in files {
        let code = code(&file);
        for name in own {
            assert!(
                !code.contains(name),
                "{} reads a game's own books: {name}",
                file.strip_prefix(&root).unwrap().display()
            );
        }
    }
}

/// What a game supplies is a field of its entry in the list (`GameInfo`), never a dispatch on
/// its id: no `match` arm in the registry, the web's replay or Discord's moves picks a game by
/// its `ID`, and `/fights` and `herald verify` do not name PsiKnight.
#[test]
fn nothing_dispatches_on_a_games_id() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for rel in [
        "games/mod.rs",
        "games/replay.rs",
        "web/fight.rs",
        "transport/discord/commands.rs",
    ] {
        let code = code(&root.join(rel));
        for (n, line) in code.lines().enumerate() {
            assert!(
                !(line.contains("::ID =>") || line.contains("::ID |")),
                "{rel}:{} picks a game by its id: {}",
                n + 1,
                line.trim()
            );
        }
    }
    // `/fights` and `herald verify` ask the fight's game through its entry, never PsiKnight
    // first.
    for rel in ["history.rs", "verify.rs", "games/replay.rs"] {
        let code = code(&root.join(rel));
        assert!(
            !code.contains("PSIKNIGHT") && !code.contains("knight_of("),
            "{rel} names PsiKnight beside the list of games"
        );
    }
    let replay = code(&root.join("web/fight.rs"));
    assert!(
        !replay.contains("herald_engine::psiknight") && !replay.contains("Match::start"),
        "the web's replay tells a joust itself, beside GameInfo::replay"
    );
}

/// One table for every game: the referee is the only `Table`, and every game's entry in the
/// list makes its channels' table with `referee::table`, PsiKnight's included; what a game adds
/// around its fights is its `Ruleset`.
#[test]
fn every_game_is_played_by_the_one_referee() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let tables: Vec<String> = files
        .iter()
        .filter(|f| {
            let code = code(f);
            code.contains("Table for ")
        })
        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    assert_eq!(tables, ["referee/mod.rs"], "a table beside the referee's");
    let registry = code(&root.join("games/mod.rs"));
    let entries =
        registry.matches("\n    table: ").count() + registry.matches("\n        table: ").count();
    let referees = registry.matches("table: crate::referee::table::<").count();
    assert!(entries >= 5, "the list has {entries} tables");
    assert_eq!(referees, entries, "a game's table is not the referee's");
}
