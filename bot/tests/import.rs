//! The books, whole (issue 15, item 13): `herald export` holds everything the books keep, and
//! `herald import` restores it into a new database. Each database here is built by transcripts
//! through the real pipeline (those of books.rs, tournaments.rs and tourney.rs, and a ransom
//! played to a death), exported, imported into a fresh file and exported again: the two exports
//! are the same document, and every ended fight of the imported books still verifies.

mod common;
use common::*;
use herald_bot::export::export;
use herald_bot::import::import;
use herald_bot::store::Store;
use herald_bot::verify::verify;
use serde_json::Value;
use std::path::Path;

const CONFIG: &str = r##"
[permissions]
admins = ["alice"]
moderators = ["mod"]
[realm]
decision_timeout_secs = 60
[tournaments]
reminder_secs = [86400, 3600]
moderator_timeout_secs = 600
match_retry_secs = 60
[games.channels]
"#tourney" = "tourney"
"##;

fn file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/transcripts")
        .join(name);
    std::fs::read_to_string(path).expect("the transcript reads")
}

/// Runs each transcript in turn against the database at `db`.
async fn build(db: &Path, transcripts: &[String]) {
    for t in transcripts {
        let run = run_with(db, CONFIG, t).await;
        assert_eq!(run.result, Ok(()), "{}", run.out);
    }
}

/// The export of the database at `db`.
async fn exported(db: &Path) -> Value {
    let store = Store::open(db).await.expect("the database opens");
    export(&store).await.expect("the books export")
}

/// Exports `db`, imports that into a new file beside it, exports the new file: both exports
/// must be the same document. Returns the export and the store over the imported books.
async fn round_trip(db: &Path) -> (Value, Store) {
    let first = exported(db).await;
    let text = serde_json::to_string_pretty(&first).unwrap();
    let new = db.with_file_name("imported.db");
    let imported = import(&text, &new).await.unwrap();
    assert!(imported.is_ok(), "{imported:?}");
    let store = Store::open(&new)
        .await
        .expect("the imported database opens");
    let second = export(&store).await.unwrap();
    assert_eq!(
        text,
        serde_json::to_string_pretty(&second).unwrap(),
        "export → import → export changed the books"
    );
    (first, store)
}

/// Every ended fight of the books verifies.
async fn all_verify(store: &Store, doc: &Value) -> usize {
    let mut verified = 0;
    for fight in doc["fights"].as_array().unwrap() {
        if fight["ended_at"].is_null() {
            continue;
        }
        let id = fight["id"].as_i64().unwrap();
        let report = verify(store, id).await.unwrap();
        assert!(report.ok, "fight #{id}: {}", report.message);
        verified += 1;
    }
    verified
}

fn rows<'a>(doc: &'a Value, table: &str) -> &'a Vec<Value> {
    doc["tables"][table]
        .as_array()
        .unwrap_or_else(|| panic!("the export has the table {table}"))
}

#[tokio::test]
async fn the_books_transcripts_survive_export_import_export() {
    for name in ["books_spend.txt", "books_allegiance.txt", "books_admin.txt"] {
        let books = Books::new();
        build(&books.path(), &[file(name)]).await;
        let (doc, _) = round_trip(&books.path()).await;
        assert!(
            !rows(&doc, "ledger").is_empty(),
            "{name} wrote to the ledger"
        );
    }
    // The allegiances and hostilities of books_allegiance.txt, readable and as stored.
    let books = Books::new();
    build(&books.path(), &[file("books_allegiance.txt")]).await;
    let (doc, _) = round_trip(&books.path()).await;
    assert!(!rows(&doc, "allegiances").is_empty());
    assert!(!rows(&doc, "hostilities").is_empty());
    assert!(!rows(&doc, "allegiance_marks").is_empty());
    let oath = doc["allegiances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["vassal"] == "Gwen" && a["lord"] == "Brenna")
        .expect("Gwen's oath to Brenna is exported");
    assert_eq!(oath["ended_reason"]["kind"], "oathbreaking", "{oath}");
    assert!(doc["hostilities"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["knights"] == serde_json::json!(["Cai", "Eoin"]) && h["declared_by"] == "Eoin"));
}

/// A knight captured, part of a ransom paid, another killed in captivity (R33, R109), offers and
/// a grant left unanswered: all of it in the export, the dead told from the retired.
const RANSOM: &str = "\
@clock 2026-12-01T10:00:00Z
alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn
brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar
dana: /knight create Dara --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:40 --monarch llewellyn
alice: /admin award Brenna 12 seed
brenna: /land
alice: /admin award Brenna 80 lists
brenna: /advance
alice: /admin award Cai 12 seed
cai: /land
alice: /admin award Alan 12 seed
alan: /land
cai: /hostility declare Brenna
alan: /hostility declare Cai
brenna: /grant Eoin
evan: /swear Brenna
@clock 2026-12-02T10:00:00Z
brenna: /joust Cai
@dice 90 90 90 20 30 50
cai: /accept
brenna: /nosweep
cai: /nosweep
cai: /high
cai: /decline
cai: /ransom demand Brenna
alan: /ransom pay Brenna 1
@clock 2026-12-03T10:00:00Z
alan: /joust Cai
@dice 90 90 90 20 30 50
cai: /accept
alan: /nosweep
cai: /nosweep
cai: /high
cai: /decline
cai: /ransom kill Alan
cai: /confirm
alice: /admin retire Dara
";

#[tokio::test]
async fn captivities_ransoms_deaths_and_offers_survive_export_import_export() {
    let books = Books::new();
    build(&books.path(), &[RANSOM.to_string()]).await;
    let (doc, store) = round_trip(&books.path()).await;
    let knights = doc["knights"].as_array().unwrap();
    let status = |name: &str| {
        knights
            .iter()
            .find(|k| k["name"] == name)
            .map(|k| k["status"].clone())
            .unwrap()
    };
    // R109, R155: killed and retired are both out of the lists, and told apart.
    assert_eq!(status("Alan"), "killed");
    assert_eq!(status("Dara"), "retired");
    assert_eq!(status("Cai"), "active");
    let captivities = doc["captivities"].as_array().unwrap();
    let brenna = captivities
        .iter()
        .find(|c| c["captive"] == "Brenna")
        .expect("Brenna's captivity");
    assert_eq!(brenna["victor"], "Cai");
    assert!(brenna["ended_at"].is_null(), "still held: {brenna}");
    assert_eq!(brenna["payments"][0]["payer"], "Alan");
    assert_eq!(brenna["payments"][0]["halves"], 2);
    let alan = captivities.iter().find(|c| c["captive"] == "Alan").unwrap();
    assert_eq!(alan["ended_how"], "killed");
    assert_eq!(doc["grants"][0]["vassal"], "Eoin");
    assert_eq!(doc["offers"][0]["act"], "allegiance");
    assert!(!rows(&doc, "ransom_fights").is_empty());
    assert!(!rows(&doc, "practice_days").is_empty());
    assert_eq!(all_verify(&store, &doc).await, 2);
}

/// The knights and the Melee of tournaments.rs: Lists of two, then a Melee with a remount to
/// its time limit and its first prize (R36, R37).
fn lists_and_melee() -> String {
    let mut t = String::from("@clock 2026-12-01T10:00:00Z\n");
    for (who, name, build) in [
        ("ailsa", "Ailsa", "--top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame"),
        ("bran", "Bran", "--top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn"),
    ] {
        t.push_str(&format!("{who}: /knight create {name} {build}\n"));
    }
    t.push_str(
        "mod: /tournament schedule \"Yule Lists\" in 1h --melee --remount --melee-minutes 20
ailsa: /enter
bran: /enter
@dice 2 90 90 90 20 30 50
@clock 2026-12-01T11:00:00Z
@wait 180
cara: /knight create Cara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame
dughall: /knight create Dughall --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn
mod: /melee open Ravens Wolves
ailsa: /melee join Ravens
cara: /melee join Ravens
bran: /melee join Wolves
dughall: /melee join Wolves
mod: /melee start
ailsa: /pass Bran
@dice 90 90 90 20 30 50
bran: /accept
ailsa: /nosweep
bran: /nosweep
bran: /high
cara: /pass Dughall
@dice 90 90 20 90 30 50
dughall: /accept
dughall: /nosweep
cara: /nosweep
cara: /high
",
    );
    t
}

#[tokio::test]
async fn tournaments_survive_export_import_export_running_and_ended() {
    // Under way: the Melee running, its state as the engine left it.
    let books = Books::new();
    build(&books.path(), &[lists_and_melee()]).await;
    let (doc, store) = round_trip(&books.path()).await;
    let t = &doc["tournaments"][0];
    assert_eq!(t["status"], "running");
    assert!(t["state"].is_object(), "{t}");
    assert_eq!(t["entries"].as_array().unwrap().len(), 2);
    assert!(all_verify(&store, &doc).await >= 3);
    // The imported books carry on: time is called and the prize named, as in the original.
    drop(store);
    let imported = books.path().with_file_name("imported.db");
    let ending = "@clock 2026-12-01T11:30:00Z\nailsa: /tournament\nmod: /melee prize Cara\n";
    let run = run_with(&imported, CONFIG, ending).await;
    run.expect("The Melee is over at its time limit")
        .expect("Dame Cara wins the first prize of the Melee (R37).");
    // Ended: the awards as results, and the ended books round-trip too.
    let (doc, _) = round_trip_again(&imported).await;
    let t = &doc["tournaments"][0];
    assert_eq!(t["status"], "finished");
    assert!(!t["awards"].as_array().unwrap().is_empty(), "{t}");
}

/// [`round_trip`] for a database that is itself an import (its copy takes another name).
async fn round_trip_again(db: &Path) -> (Value, Store) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("herald.db");
    let text = serde_json::to_string(&exported(db).await).unwrap();
    import(&text, &copy).await.unwrap().unwrap();
    round_trip(&copy).await
}

/// The Tourney's characters, their fights and steps (tourney.rs's worked example): the
/// imported books verify every fight.
#[tokio::test]
async fn characters_of_the_tourney_and_their_fights_verify_after_import() {
    let books = Books::new();
    let transcript = "\
@clock 2026-12-01T10:00:00Z
[#tourney] ann: /knight create Ector
[#tourney] bo: /knight create Gimby --skill broadsword:4,dagger:1 --strength 5
[#tourney] ann: /challenge bo
@dice 4 2
[#tourney] bo: /accept
@dice 3 2
[#tourney] ann: /attack
@dice 5 3
[#tourney] bo: /attack
@dice 5 6
[#tourney] ann: /attack
@dice 2 1 2
[#tourney] bo: /attack
@dice 1 3 5
[#tourney] ann: /attack
@dice 5 3
[#tourney] bo: /attack
@dice 2
[#tourney] ann: /stand
@dice 4 2
[#tourney] bo: /attack
[#tourney] ann: /smith
@clock 2026-12-02T10:00:00Z
[#tourney] bo: /challenge ann
[#tourney] ann: /accept
[#tourney] ann: /attack
";
    build(&books.path(), &[transcript.to_string()]).await;
    let (doc, store) = round_trip(&books.path()).await;
    assert_eq!(doc["characters"].as_array().unwrap().len(), 2);
    assert_eq!(doc["fights"][0]["game"], "tourney");
    assert!(!rows(&doc, "fight_steps").is_empty());
    assert!(!rows(&doc, "channel_games").is_empty() || doc["fights"][1].is_object());
    assert_eq!(all_verify(&store, &doc).await, 1);
}

/// Every table of the books is in the export, but the folded names and sums the triggers keep
/// and the open fights' claims on their fighters.
#[tokio::test]
async fn every_table_is_exported() {
    let books = Books::new();
    let store = books.store().await;
    let doc = export(&store).await.unwrap();
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name NOT IN ('_sqlx_migrations', 'knight_folds', 'knight_sums', 'engaged_fighters', \
         'knight_sums_pending') ORDER BY name",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let exported: Vec<String> = doc["tables"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(exported, names);
    assert_eq!(doc["format"], "herald-books");
}

/// A fight still open when the books were exported carries on from the imported books as it
/// would from the original ones: the same state, the same next step.
#[tokio::test]
async fn an_open_fight_carries_on_from_the_imported_books() {
    let books = Books::new();
    build(&books.path(), &[file("example.txt")]).await;
    let (doc, store) = round_trip(&books.path()).await;
    assert!(
        doc["fights"][0]["ended_at"].is_null(),
        "example.txt leaves the fight open"
    );
    drop(store);
    let imported = books.path().with_file_name("imported.db");
    let next = "@clock 2026-12-01T10:00:10Z\nevan: /status\ndana: /status\n";
    let original = run_with(&books.path(), CONFIG, next).await;
    let restored = run_with(&imported, CONFIG, next).await;
    assert_eq!(restored.result, Ok(()), "{}", restored.out);
    assert!(original.said("Fight #1"), "{}", original.out);
    assert_eq!(original.out, restored.out);
}
