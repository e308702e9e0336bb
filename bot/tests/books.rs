//! The books between fights, from chat lines to SQLite: spending, land, titles, allegiance,
//! hostility, ransom, the ledger, the standings and the admins (R29–R33, R100–R110, R150–R158),
//! with transcripts against real SQLite files, and the race of two spends at once; acts that
//! cannot be undone wait for `/confirm` (R180).

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::games::psiknight::command::PsiCommand;
use herald_bot::hub::Hub;
use herald_bot::store::{Id, Store};
use herald_bot::transport::{script, LOCAL_REALM};
use herald_bot::{desk, office};
use herald_engine::psiknight::books::AnySkill;
use herald_engine::psiknight::PsiSkill;
use sqlx::Row;
use std::path::Path;
use std::sync::Arc;

const ADMINS: &str = "[permissions]\nadmins = [\"alice\"]\n";

/// A running Herald over one database: transcripts through the hub, and the same `App` for the
/// hooks the session calls around fights.
struct Herald {
    hub: Hub,
    app: Arc<App>,
}

impl Herald {
    async fn open(db: &Path) -> Herald {
        let config: Config = toml::from_str(ADMINS).expect("test config parses");
        let store = Store::open(db).await.expect("the database opens");
        let app = Arc::new(App::new(store, config, Some(0)).unwrap());
        let hub = Hub::manual(
            app.clone(),
            Arc::new(Clock::manual(chrono::Utc::now())),
            vec!['/', '!'],
        );
        Herald { hub, app }
    }

    async fn say(&self, transcript: &str) -> Run {
        let mut out = Vec::new();
        let result = script::run(&self.hub, transcript, &mut out)
            .await
            .map_err(|e| format!("{e:#}"));
        let run = Run {
            out: String::from_utf8(out).unwrap(),
            events: Vec::new(),
            result,
        };
        assert_eq!(run.result, Ok(()), "{}", run.out);
        run
    }

    async fn realm(&self) -> Id {
        self.app.realm(LOCAL_REALM).await.unwrap()
    }

    async fn id(&self, name: &str) -> Id {
        let realm = self.realm().await;
        self.app
            .store
            .knight_named(realm, name)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no knight {name}"))
            .id
    }

    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.hub.clock().now()
    }
}

/// Runs a transcript file of `tests/transcripts` with alice as admin.
async fn transcript(name: &str) -> Run {
    let books = Books::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/transcripts")
        .join(name);
    let text = std::fs::read_to_string(path).expect("the transcript reads");
    let run = run_with(&books.path(), ADMINS, &text).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run
}

#[tokio::test]
async fn spending_land_and_titles() {
    let run = transcript("books_spend.txt").await;
    // R30: no knight, no Honor, each step's cost, the cap, an unlearned psi skill.
    run.expect("nobody, you have no knight yet.")
        .expect("Sir Alan cannot raise Lance: raising Lance from 40 costs 2 HP; you have 0 (R30).")
        .expect("Sir Alan raises Lance from 40 to 50 for 2 HP (R30); 31.5 HP left.")
        .expect("Sir Alan raises Lance from 50 to 60 for 5 HP (R30); 26.5 HP left.")
        .expect("Sir Alan raises Lance from 60 to 70 for 10 HP (R30); 16.5 HP left.")
        .expect("Sir Alan raises Lance from 70 to 80 for 15 HP (R30); 1.5 HP left.")
        .expect("Sir Alan cannot raise Lance: Lance is 80: skills at 80 or above cannot be raised (R30).")
        .expect("Sir Alan cannot raise Apportation: raising Apportation from 0 costs 2 HP; you have 1.5 (R30).")
        .expect("Sir Alan raises Apportation from 0 to 10 for 2 HP (R30); 0 HP left.");
    // R31: 12 HP for land.
    run.expect("Sir Cai cannot buy lands: a grant of lands from the monarch costs 12 HP; Sir Cai has 0 (R31).")
        .expect("Sir Cai cannot buy lands: a grant of lands from the monarch costs 12 HP; Sir Cai has 11.5 (R31).")
        .expect("Sir Cai exchanges 12 HP for a grant of lands from King Ragnar of Vegland (R31): +5 PP, and landed. From now on his awards are split half HP, half PP (R29). Now 0 HP, 5 PP.")
        .expect("Sir Cai cannot buy lands: Sir Cai already holds lands (R31).");
    // R32: Baron at 20, not at 19.5; lands first; R102 climbs to Viscountess at once.
    run.expect("Sir Alan cannot advance: Sir Alan holds no lands: a title needs a grant of lands first (R32).")
        .expect("Sir Cai cannot advance: Baron needs 20 PP for advancement; Sir Cai counts 19.5 (R32).")
        .expect("King Ragnar of Vegland names Sir Cai Baron Cai (R32): Cai counts 20 PP for advancement.")
        .expect("Queen Seonaid of Beanntan names Dame Dara Viscountess Dara (R32): Dara counts 80 PP for advancement.")
        .expect("Queen Seonaid of Beanntan names Viscountess Dara Countess Dara (R32): Dara counts 320 PP for advancement.")
        .expect("Queen Seonaid of Beanntan names Countess Dara Duchess Dara (R32): Dara counts 1440 PP for advancement.")
        .expect("Duchess Dara cannot advance: Duchess Dara already holds the highest rank (R32).");
    // R29, R101: a landed award split in half points, shown as such.
    run.expect("alice awards Sir Cai 29 HP, split for a landed knight as 14.5 HP and 14.5 PP (R29, R101): lists");
    // R31: a noble's grant and its refusals; R104; the floor of 5 PP per vassal.
    run.expect("Sir Alan cannot grant lands to Sir Eoin: Sir Alan is not a noble: only a Baron or higher may grant lands (R31).")
        .expect("Duchess Dara cannot grant lands to Duchess Dara: a noble cannot grant lands to themselves (R31).")
        .expect("Duchess Dara cannot grant lands to Baron Cai: Baron Cai already holds lands (R31).")
        .expect("Duchess Dara grants lands to Sir Eoin (R31): 5 PP pass from Dara to Eoin, who is now landed and becomes her vassal. Dara keeps 1435 PP for 1 vassal.")
        .expect("Baron Cai cannot grant lands to Sir Alan: Sir Alan is the vassal of Duchess Dara; only their own lord may grant them lands (R31, R104).")
        .expect("Duchess Dara grants lands to Sir Alan (R31): 5 PP pass from Dara to Alan, who is now landed and remains (R104) her vassal. Dara keeps 1430 PP for 2 vassals.")
        .expect("Baron Cai grants lands to Dame Brenna (R31): 5 PP pass from Cai to Brenna, who is now landed and becomes his vassal. Cai keeps 10 PP for 2 vassals.")
        .expect("Baron Cai cannot grant lands to Dame Gwen: Baron Cai would keep 5 PP for 3 vassals; a grant must leave at least 15 PP, 5 per vassal (R31).");
    // R32: 10 own + 5 + 5 of landed vassals = 20; an unlanded vassal adds 2.
    run.expect("Baron Cai cannot advance: Viscount needs 80 PP for advancement; Baron Cai counts 20 (R32).")
        .expect("Baron Cai cannot advance: Viscount needs 80 PP for advancement; Baron Cai counts 22 (R32).");
    // R103: the lord's rank with the lord's personal PP only.
    run.expect("Sir Hugh cannot advance: Sir Hugh may rise to Baron, the rank of their lord Baron Cai, only with at least the lord's 30 personal PP; they have 20 (R32, R103).")
        .expect("King Ragnar of Vegland names Sir Hugh Baron Hugh (R32): Hugh counts 30 PP for advancement.");
}

#[tokio::test]
async fn spending_is_written_to_the_books() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(
        "@clock 2026-12-01T10:00:00Z\n\
         alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n\
         alice: /admin award Alan 7 for the tests\n\
         alan: /spend lance\n\
         alan: /spend lance\n\
         alan: /spend negapsi\n",
    )
    .await
    .expect("Sir Alan raises Lance from 50 to 60 for 5 HP (R30); 0 HP left.");
    let alan = h.id("Alan").await;
    let k = h.app.store.knight(alan).await.unwrap().unwrap();
    // R30: 40 → 50 → 60 on the sheet; negapsi refused, still unlearned.
    assert_eq!(k.sheet.skill(herald_engine::psiknight::Skill::Lance), 60);
    assert_eq!(k.sheet.psi(PsiSkill::Negapsi), 0);
    let b = h.app.store.balance(alan).await.unwrap();
    assert_eq!((b.hp_halves, b.pp_halves), (0, 0));
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM ledger ORDER BY id")
        .fetch_all(h.app.store.pool())
        .await
        .unwrap();
    assert_eq!(kinds, ["admin", "spend", "spend"]);
}

#[tokio::test]
async fn allegiance_and_hostility() {
    let run = transcript("books_allegiance.txt").await;
    run.expect("Sir Alan offers allegiance to Baroness Brenna (R33). brenna: /accept or /swear Alan to agree, /decline to refuse.")
        .expect("Sir Alan cannot offer allegiance to Baroness Brenna: Sir Alan has already offered allegiance to Baroness Brenna; it awaits their answer.")
        .expect("Sir Alan swears allegiance to Baroness Brenna and is now her vassal (R33).")
        .expect("Sir Alan cannot offer allegiance to Baron Hugh: Sir Alan already owes allegiance to Baroness Brenna (R33).")
        .expect("Sir Cai cannot offer allegiance to Dame Gwen: Dame Gwen is not a noble: only a Baron or higher may take vassals (R33).");
    // R106: unapproved hostility by a vassal is not refused, but it is a refused duty.
    run.expect("Sir Eoin declares hostility against Sir Cai (R33): practice jousts between them, their vassals and subvassals are fought for ransom until both end it with /hostility end.")
        .expect("Eoin is the vassal of Baroness Brenna: without Baroness Brenna's approval this is a refused duty, for which Baroness Brenna may dismiss him with /renounce Eoin (R33, R106).")
        .expect("Sir Eoin cannot declare hostility against Sir Cai: Sir Eoin and Sir Cai are already hostile (R33).");
    // R150: no dismissal without cause; with one, the ex-vassal forfeits half their PP (R100).
    run.expect("Baroness Brenna cannot dismiss Dame Gwen without cause: the books record no refused duty by Gwen (no hostility declared without approval, no unpaid share of her ransom) (R33, R150). To part without penalty: /release Gwen.")
        .expect("Baroness Brenna dismisses Sir Eoin for refusing the duties of allegiance (R33): Sir Eoin declared hostility against Sir Cai without the lord's approval (R33, R106). Eoin forfeits 2.5 of 5 PP (R100); they are now hostile.");
    // Oathbreaking: half the declarer's PP, the tie broken, hostility.
    run.expect("Dame Gwen declares hostility against her lord Baroness Brenna: oathbreaking (R33). Gwen forfeits 2.5 of 5 PP (R100); the allegiance is broken and they are hostile.")
        .expect("Baroness Brenna declares hostility against her lord Baron Hugh: oathbreaking (R33). Brenna forfeits 10 of 20 PP (R100); the allegiance is broken and they are hostile.");
    // R150, R151: a renunciation needs the lord's failure on the books.
    run.expect("Sir Alan cannot renounce Baroness Brenna without penalty: the books record no failure by Brenna (no break with a higher lord, no ransom left unpaid) (R33, R150). To part: /release Brenna by mutual consent, or /hostility declare Brenna (oathbreaking: half your PP, R100).")
        .expect("Sir Alan renounces his allegiance to Baroness Brenna without penalty (R33): Baroness Brenna broke allegiance with Baron Hugh (R33, R151). They are now hostile.");
    // R105, and peace by the assent of both.
    run.expect("Sir Alan cannot offer allegiance to Baroness Brenna: Sir Alan and Baroness Brenna are hostile; they must end the hostility before swearing allegiance (R33, R105).")
        .expect("Sir Alan offers Baroness Brenna an end to their hostility (R33). brenna: /accept or /hostility end Alan to agree, /decline to refuse.")
        .expect("Sir Alan cannot offer an end to hostility to Baroness Brenna: Sir Alan has already offered an end to hostility to Baroness Brenna; it awaits their answer.")
        .expect("The hostility between Baroness Brenna and Sir Alan ends by the assent of both (R33).");
    // Mutual consent.
    run.expect("Baroness Brenna offers to end the allegiance between Brenna and Alan by mutual consent, without penalty (R33). alan: /accept or /release Brenna to agree, /decline to refuse.")
        .expect("Sir Alan and Baroness Brenna part by mutual consent, without penalty or hostility (R33).");
    run.expect("Sir Alan cannot declare hostility against Sir Cai: Sir Alan holds no lands: hostility is declared only between nobles and landed knights (R33).")
        .expect("Sir Alan cannot declare hostility against Sir Alan: a knight cannot be hostile to themselves (R33).")
        .expect("Sir Alan cannot offer an end to hostility to Sir Cai: Sir Alan and Sir Cai are not hostile (R33).")
        .expect("Sir Alan cannot offer release from allegiance to Sir Cai: Sir Alan and Sir Cai are not lord and vassal (R33).")
        .expect("Sir Alan and Sir Cai are not lord and vassal (R33).")
        .expect("No knight or player named 'Nobody' here.");
}

#[tokio::test]
async fn allegiance_history_is_kept() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    let transcript = include_str!("transcripts/books_allegiance.txt");
    h.say(transcript).await;
    let pool = h.app.store.pool();
    let (alan, brenna) = (h.id("Alan").await, h.id("Brenna").await);
    // Alan swore twice to Brenna: renounced the first time, released the second (R33).
    let ends: Vec<String> = sqlx::query_scalar(
        "SELECT ended_reason FROM allegiances WHERE vassal_id = ? AND lord_id = ? ORDER BY id",
    )
    .bind(alan)
    .bind(brenna)
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(ends.len(), 2);
    assert!(
        ends[0].contains("renounced") && ends[1].contains("consent"),
        "{ends:?}"
    );
    // The oathbreaking forfeits are ledger entries: Brenna's 10 PP (R100).
    let row = sqlx::query(
        "SELECT pp_halves, kind FROM ledger WHERE knight_id = ? AND kind = 'oathbreaking'",
    )
    .bind(brenna)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(row.get::<i64, _>("pp_halves"), -20);
    // Peace ended the Alan–Brenna hostility; the others stand.
    let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM hostilities WHERE ended_at IS NULL")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(open, 4, "Eoin–Cai, Eoin–Brenna, Gwen–Brenna, Brenna–Hugh");
}

#[tokio::test]
async fn admins_the_ledger_and_the_standings() {
    let run = transcript("books_admin.txt").await;
    for cmd in ["award", "revoke", "rename", "retire"] {
        run.expect(&format!(
            "Only an admin may use /admin {cmd}; admins are named under [permissions] in the configuration."
        ));
    }
    run.expect("alice awards Sir Alan 3 HP: won the November melee (entry #1).")
        .expect("An award of 0 HP changes nothing.")
        .expect("No knight or player named 'Nobody' here.")
        // R29, R101: 1.5 HP landed is 1 HP and 0.5 PP; R154: a correction is not split.
        .expect("alice awards Dame Brenna 1.5 HP, split for a landed knight as 1 HP and 0.5 PP (R29, R101): for courtesy (entry #4).")
        .expect("alice takes 1 HP from Dame Brenna (a correction is not split, R154): a correction (entry #5).");
    // R153.
    run.expect("alice revokes entry #1 (+3 HP to Sir Alan: won the November melee): entry #7 reverses it (−3 HP).")
        .expect("Cannot revoke: entry #1 was already revoked by entry #7; nothing is revoked twice (R153).")
        .expect("Cannot revoke: entry #7 is itself a record of an admin's act, not an award; it cannot be revoked (R153).")
        .expect("alice revokes entry #4 (+1 HP, +0.5 PP to Dame Brenna: for courtesy): entry #8 reverses it (−1 HP, −0.5 PP).")
        .expect("Cannot revoke: there is no ledger entry #99 in this realm.");
    // The ledger: date, amount, reason, author, revocation; by month.
    run.expect("Ledger of Sir Alan: 3 entries; now −2 HP, 0 PP.")
        .expect("#1 2026-11-30 +3 HP: won the November melee, by alice [revoked by #7]")
        .expect("#6 2026-12-01 −2 HP: raised Lance from 40 to 50 (R30), by alan")
        .expect("#7 2026-12-01 −3 HP: revokes entry #1: won the November melee, by alice")
        .expect("#3 2026-12-01 −12 HP, +5 PP: a grant of lands from the monarch (R31), by brenna")
        .expect("Ledger of Sir Alan for 2026-11: 1 entry (+3 HP that month); now −2 HP, 0 PP.")
        .expect("Ledger of Dame Brenna for 2026-12: 5 entries (−1 HP, +5 PP that month); now −1 HP, 5 PP.")
        .expect("nobody, you have no knight yet.");
    run.expect("Standings by Honor (2 knights):")
        .expect("1. Dame Brenna (brenna): −1 HP, 5 PP, landed")
        .expect("2. Sir Alan (alan): −2 HP, 0 PP, unlanded")
        .expect("Standings by Prestige (2 knights):");
    // R122, uniqueness, and retirement (R155).
    run.expect("Cannot rename: there is already a knight named Brenna in this realm.")
        .expect("Cannot rename: a knight's name may use letters, digits, spaces, ' - and . only; '@' is not allowed (R122).")
        .expect("alice renames Sir Alan to Sir Alan the Bold (entry #9).")
        .expect("Sir Alan the Bold (alan), sworn to King Llewellyn of Gorllewin")
        .expect("alice retires Sir Alan the Bold (entry #10): his allegiances, hostilities, offers and captivities end (R155); alan may create a new knight.")
        .expect("alan, you have no knight yet.")
        .expect("Standings by Honor (1 knight):");
}

#[tokio::test]
async fn admin_changes_are_ledger_entries_naming_the_admin() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(include_str!("transcripts/books_admin.txt")).await;
    let rows = sqlx::query("SELECT id, kind, by_user, revokes FROM ledger ORDER BY id")
        .fetch_all(h.app.store.pool())
        .await
        .unwrap();
    let by_kind = |kind: &str| -> Vec<(i64, Option<String>, Option<i64>)> {
        rows.iter()
            .filter(|r| r.get::<String, _>("kind") == kind)
            .map(|r| (r.get("id"), r.get("by_user"), r.get("revokes")))
            .collect()
    };
    let alice = Some("alice".to_string());
    assert_eq!(
        by_kind("revoke"),
        [(7, alice.clone(), Some(1)), (8, alice.clone(), Some(4))]
    );
    assert_eq!(by_kind("rename"), [(9, alice.clone(), None)]);
    assert_eq!(by_kind("retire"), [(10, alice.clone(), None)]);
    // Nothing was deleted: ten entries, numbered 1 to 10.
    let ids: Vec<i64> = rows.iter().map(|r| r.get("id")).collect();
    assert_eq!(ids, (1..=10).collect::<Vec<_>>());
}

/// A practice joust on day `day` of December that `challenger` loses to `challenged` by an
/// unhorsing in the first pass, Swordplay declined (the dice of `declined.txt`). A new day each
/// time, so that an injury of one fight never keeps a knight from the next (R12).
fn lost_joust(day: u32, challenger: &str, challenged: &str, target: &str) -> String {
    format!(
        "@clock 2026-12-{day:02}T10:00:00Z\n\
         {challenger}: /joust {target}\n\
         @dice 90 90 90 20 30 50\n\
         {challenged}: /accept\n\
         {challenger}: /nosweep\n\
         {challenged}: /nosweep\n\
         {challenged}: /high\n\
         {challenged}: /decline\n"
    )
}

async fn winner_of(h: &Herald, fight: Id) -> Option<Id> {
    sqlx::query_scalar("SELECT winner_id FROM fights WHERE id = ?")
        .bind(fight)
        .fetch_one(h.app.store.pool())
        .await
        .unwrap()
}

/// What the session said around fight `fight` (its ransom notice, its start, the capture), after
/// checking that `winner` won it.
async fn fight_for_ransom(h: &Herald, run: &Run, fight: Id, winner: &str) -> Vec<String> {
    let w = h.id(winner).await;
    assert_eq!(winner_of(h, fight).await, Some(w), "fight #{fight}");
    run.lines().iter().map(|l| l.to_string()).collect()
}

fn has(lines: &[String], needle: &str) {
    assert!(
        lines.iter().any(|l| l.contains(needle)),
        "expected {needle:?} in {lines:#?}"
    );
}

#[tokio::test]
async fn ransom_from_capture_to_release_or_death() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(
        "@clock 2026-12-01T10:00:00Z\n\
         alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n\
         brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame\n\
         cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar\n\
         dana: /knight create Dara --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame\n\
         evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:40 --monarch llewellyn\n\
         gwen: /knight create Gwen --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame\n\
         alice: /admin award Brenna 12 seed\n\
         brenna: /land\n\
         alice: /admin award Brenna 80 lists\n\
         brenna: /advance\n\
         alan: /swear Brenna\n\
         brenna: /swear Alan\n\
         brenna: /grant Eoin\n\
         evan: /accept\n\
         alice: /admin award Cai 12 seed\n\
         cai: /land\n\
         alice: /admin award Dara 12 seed\n\
         dana: /land\n\
         cai: /hostility declare Brenna\n",
    )
    .await
    .expect("Baroness Brenna grants lands to Sir Eoin");

    // Fight 1: Alan, Brenna's unlanded vassal, loses to Cai, who is hostile to Brenna: a fight
    // for ransom decided at its start, and the loser captured (R33, R156, R157).
    let run = h.say(&lost_joust(2, "alan", "cai", "cai")).await;
    let lines = fight_for_ransom(&h, &run, 1, "Cai").await;
    has(&lines, "This joust is fought for ransom: Sir Alan and Sir Cai are hostile parties, as Baroness Brenna and Sir Cai are hostile (R33).");
    has(&lines, "Sir Alan is captured by Sir Cai and may not fight until released (R33). The customary ransom is 2 PP; anyone with PP may pay: /ransom pay Alan PP. cai: /ransom demand, /ransom free or /ransom kill Alan.");
    has(
        &lines,
        "Baroness Brenna, lord of the unlanded Sir Alan, must ransom him (R33).",
    );
    let alan = h
        .app
        .store
        .knight(h.id("Alan").await)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        office::fight_refusal(&h.app, &alan)
            .await
            .unwrap()
            .as_deref(),
        Some("Sir Alan is held for ransom by Sir Cai and may not fight until released (R33).")
    );
    // A second capture from the same fight is refused, and writes nothing.
    let realm = h.realm().await;
    let again =
        office::capture_after_fight(&h.app, realm, 1, h.id("Cai").await, alan.id, "cai", h.now())
            .await
            .unwrap();
    has(
        &again,
        "Sir Alan is not captured: Sir Alan is already held by Sir Cai (R33).",
    );

    let run = h
        .say(
            "cai: /ransom demand Alan 3\n\
             brenna: /ransom demand Alan\n\
             cai: /ransom demand Alan 1.5\n\
             alan: /ransom pay Alan 1\n\
             brenna: /ransom pay Alan 2\n\
             gwen: /ransom pay Alan 1\n\
             dana: /ransom pay Alan 1\n\
             cai: /ransom demand Alan 0.5\n\
             cai: /ransom free Alan\n\
             cai: /ransom free Alan\n\
             alan: /renounce Brenna\n\
             cai: /ledger\n",
        )
        .await;
    // R107: the customary or less; only the victor; no more than owed; from one's own PP.
    run.expect("Sir Cai cannot ask that ransom for Sir Alan: the customary ransom for Sir Alan is 2 PP; the victor may ask that or less, not 3 (R33, R107).")
        .expect("Baroness Brenna cannot ask that ransom for Sir Alan: only Sir Cai, who holds Sir Alan, may do that (R33).")
        .expect("Sir Cai asks 1.5 PP for the release of Sir Alan (less than the customary 2 PP, R33, R107); 1.5 PP still owed. Anyone with PP may pay: /ransom pay Alan PP.")
        .expect("Baroness Brenna, lord of the unlanded Sir Alan, must ransom him (R33).")
        .expect("Sir Alan cannot pay for Sir Alan: Sir Alan has 0 PP and cannot pay 1 (R33).")
        .expect("Baroness Brenna cannot pay for Sir Alan: Sir Alan owes 1.5 PP more in ransom; 2 is too much (R33, R107).")
        .expect("Dame Gwen cannot pay for Sir Alan: Dame Gwen has 0 PP and cannot pay 1 (R33).")
        .expect("Dame Dara pays 1 PP toward the ransom of Sir Alan to Sir Cai (R33); 0.5 PP still owed.")
        .expect("Sir Cai cannot ask that ransom for Sir Alan: 1 PP has already been paid for Sir Alan; ask at least that, or free them (R33, R107).")
        .expect("Sir Cai frees Sir Alan without ransom (R33); the 1 PP paid are kept (R107). Alan may fight again.")
        .expect("Sir Cai cannot free Sir Alan: Sir Alan is not held for ransom (R33).")
        // R152: the lord did not ransom the unlanded vassal: a grievance on the books.
        .expect("Sir Alan renounces his allegiance to Baroness Brenna without penalty (R33): Baroness Brenna did not ransom their unlanded vassal Sir Alan (R33, R152). They are now hostile.")
        .expect("+1 PP: ransom received for Sir Alan (R33), fight #1, by dana")
        .expect("+0.5 HP, +0.5 PP: practice win, fight #1")
        .expect_not("fight #1, fight #1");
    assert_eq!(office::fight_refusal(&h.app, &alan).await.unwrap(), None);

    // Fight 2: Brenna loses to Cai. Eoin, her landed vassal, meets his duty with 4 PP (R33).
    let run = h.say(&lost_joust(3, "brenna", "cai", "cai")).await;
    let lines = fight_for_ransom(&h, &run, 2, "Cai").await;
    has(
        &lines,
        "This joust is fought for ransom: Baroness Brenna and Sir Cai are hostile (R33).",
    );
    has(&lines, "The customary ransom is 10 PP");
    has(&lines, "Sir Eoin, landed vassal of Baroness Brenna, must help ransom his lord once: 4 PP meets the duty (R33, R108).");
    h.say(
        "evan: /ransom pay Brenna 4\n\
         cai: /ransom pay Brenna 1\n\
         brenna: /ransom pay Brenna 6\n",
    )
    .await
    .expect("Sir Eoin pays 4 PP toward the ransom of Baroness Brenna to Sir Cai (R33); 6 PP still owed.")
    .expect("This meets Eoin's duty to ransom his lord, once (R33, R108).")
    .expect("Sir Cai cannot pay for Baroness Brenna: Sir Cai holds the captive and cannot pay the ransom to themselves (R33).")
    .expect("Baroness Brenna pays 6 PP toward the ransom of Baroness Brenna to Sir Cai (R33): the ransom is paid in full and Brenna is released.");

    // Fight 3: Brenna again. Eoin's once is used (R108): no duty for him now. The victor accepts
    // what was paid (R107); no duty was failed, so Brenna has no cause to dismiss Eoin.
    let run = h.say(&lost_joust(4, "brenna", "cai", "cai")).await;
    let lines = fight_for_ransom(&h, &run, 3, "Cai").await;
    assert!(!lines.iter().any(|l| l.contains("Sir Eoin")), "{lines:#?}");
    h.say(
        "brenna: /ransom pay Brenna 1\n\
         cai: /ransom demand Brenna 1\n\
         brenna: /renounce Eoin\n",
    )
    .await
    .expect("Sir Cai accepts the 1 PP paid and releases Baroness Brenna (R33, R107).")
    .expect("Baroness Brenna cannot dismiss Sir Eoin without cause");

    // Fight 4: with a new landed vassal who pays nothing while Brenna pays her own ransom in
    // full, the duty is failed (R152) and the lord may dismiss (R33, R100).
    h.say("brenna: /grant Gwen\ngwen: /accept\n").await;
    let run = h.say(&lost_joust(5, "brenna", "cai", "cai")).await;
    let lines = fight_for_ransom(&h, &run, 4, "Cai").await;
    has(&lines, "Dame Gwen, landed vassal of Baroness Brenna, must help ransom her lord once: 4 PP meets the duty (R33, R108).");
    h.say(
        "brenna: /ransom pay Brenna 10\n\
         brenna: /renounce Gwen\n",
    )
    .await
    .expect("Baroness Brenna dismisses Dame Gwen for refusing the duties of allegiance (R33): Dame Gwen did not help ransom their lord Baroness Brenna (R33, R108, R152). Gwen forfeits 2.5 of 5 PP (R100); they are now hostile.");

    // Fight 5: Alan, hostile to Brenna since he renounced, loses to her and is killed (R33, R109).
    let run = h.say(&lost_joust(6, "alan", "brenna", "brenna")).await;
    let lines = fight_for_ransom(&h, &run, 5, "Brenna").await;
    has(&lines, "Sir Alan is captured by Baroness Brenna");
    h.say("gwen: /ransom kill Alan\nbrenna: /ransom kill Alan\nbrenna: /confirm\nalan: /knight\n")
        .await
        .expect("Dame Gwen cannot kill Sir Alan: only Baroness Brenna, who holds Sir Alan, may do that (R33).")
        .expect("Baroness Brenna puts Sir Alan to death, a captive of a fight under hostility (R33). His allegiances, hostilities and offers end with him (R109); alan may create a new knight.")
        .expect("alan, you have no knight yet.");
    assert!(h.app.store.is_dead(alan.id).await.unwrap());
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM hostilities WHERE (knight_lo = ? OR knight_hi = ?) AND ended_at IS NULL",
    )
    .bind(alan.id)
    .bind(alan.id)
    .fetch_one(h.app.store.pool())
    .await
    .unwrap();
    assert_eq!(open, 0);

    // Fight 6: Dara and Cai are not hostile parties: no ransom, no capture (R156).
    h.say(&lost_joust(7, "dana", "cai", "cai")).await;
    let realm = h.realm().await;
    let (dara, cai) = (h.id("Dara").await, h.id("Cai").await);
    assert_eq!(
        office::ransom_notice(&h.app, realm, dara, cai)
            .await
            .unwrap(),
        None
    );
    assert!(!h.app.store.is_ransom_fight(6).await.unwrap());
    assert!(
        office::capture_after_fight(&h.app, realm, 6, cai, dara, "cai", h.now())
            .await
            .unwrap()
            .is_empty()
    );
    assert!(!h.app.store.is_captive(dara).await.unwrap());

    // R157: a knight who dies frees the captives they hold. Gwen, hostile to Brenna since her
    // dismissal, is taken by Brenna; Brenna is then taken by Cai and killed.
    let run = h.say(&lost_joust(8, "gwen", "brenna", "brenna")).await;
    has(
        &fight_for_ransom(&h, &run, 7, "Brenna").await,
        "Dame Gwen is captured by Baroness Brenna",
    );
    let run = h.say(&lost_joust(9, "brenna", "cai", "cai")).await;
    has(
        &fight_for_ransom(&h, &run, 8, "Cai").await,
        "Baroness Brenna is captured by Sir Cai",
    );
    let gwen = h.id("Gwen").await;
    assert!(h.app.store.is_captive(gwen).await.unwrap());
    h.say("cai: /ransom kill Brenna\ncai: /confirm\n")
        .await
        .expect("Sir Cai puts Baroness Brenna to death");
    assert!(!h.app.store.is_captive(gwen).await.unwrap());
}

#[tokio::test]
async fn accept_and_decline_answer_offers() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(
        "@clock 2026-12-01T10:00:00Z\n\
         alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n\
         brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame\n\
         gwen: /knight create Gwen --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame\n\
         alice: /admin award Brenna 12 seed\n\
         brenna: /land\n\
         alice: /admin award Brenna 30 lists\n\
         brenna: /advance\n\
         alan: /swear Brenna\n",
    )
    .await;
    let realm = h.realm().await;
    let app = &h.app;
    let now = h.now();
    // Nothing awaits Alan: the session keeps its own answer.
    assert_eq!(office::accept(app, realm, "alan", now).await.unwrap(), None);
    assert_eq!(
        office::accept(app, realm, "nobody", now).await.unwrap(),
        None
    );
    // R158: /accept answers the one offer made to you.
    let lines = office::accept(app, realm, "brenna", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        lines,
        ["Sir Alan swears allegiance to Baroness Brenna and is now her vassal (R33)."]
    );
    assert_eq!(
        office::accept(app, realm, "brenna", now).await.unwrap(),
        None
    );
    // /decline refuses the one offer made to you, or withdraws your own.
    h.say("gwen: /swear Brenna\n").await;
    let lines = office::decline(app, realm, "brenna", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        lines,
        ["Baroness Brenna declines the offer of allegiance from Dame Gwen."]
    );
    h.say("gwen: /swear Brenna\n").await;
    let lines = office::decline(app, realm, "gwen", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        lines,
        ["Dame Gwen withdraws the offer of allegiance to Baroness Brenna."]
    );
    assert_eq!(
        office::decline(app, realm, "gwen", now).await.unwrap(),
        None
    );
    // With several offers awaiting, the answer must name one.
    h.say("gwen: /swear Brenna\nbrenna: /release Alan\n").await;
    h.say("alan: /hostility end Brenna\n").await;
    let lines = office::accept(app, realm, "alan", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        lines,
        ["Sir Alan and Baroness Brenna part by mutual consent, without penalty or hostility (R33)."]
    );
    h.say("alan: /swear Brenna\n").await;
    let lines = office::accept(app, realm, "brenna", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("Several offers await Baroness Brenna's answer: allegiance from Sir Alan (/swear Alan); allegiance from Dame Gwen (/swear Gwen)."),
        "{lines:?}"
    );
}

/// Two tasks spend the knight's last 2 HP at once, each on a different skill: exactly one
/// succeeds, every round, and the books agree (R30, one transaction per change).
async fn race(apps: [Arc<App>; 2], rounds: usize) {
    let realm = apps[0].realm(LOCAL_REALM).await.unwrap();
    let alan = apps[0]
        .store
        .knight_named(realm, "Alan")
        .await
        .unwrap()
        .unwrap()
        .id;
    let psi = [
        PsiSkill::Apportation,
        PsiSkill::Hypercognition,
        PsiSkill::Mesmerism,
        PsiSkill::Telepathy,
        PsiSkill::Catapsi,
        PsiSkill::Negapsi,
    ];
    let now = chrono::Utc::now();
    for round in 0..rounds {
        let award = PsiCommand::AdminAward {
            knight: "Alan".into(),
            hp: herald_bot::command::HalfPoints(4),
            reason: "for the race".into(),
        };
        desk::handle(&apps[0], realm, "alice", award.into(), now)
            .await
            .unwrap();
        let mut tasks = Vec::new();
        for (i, app) in apps.iter().enumerate() {
            let app = app.clone();
            let skill = AnySkill::Psi(psi[(round + i) % psi.len()]);
            tasks.push(tokio::spawn(async move {
                desk::handle(&app, realm, "alan", PsiCommand::Spend { skill }.into(), now).await
            }));
        }
        let mut raised = 0;
        let mut refused = 0;
        for t in tasks {
            let lines = t.await.unwrap().unwrap();
            assert_eq!(lines.len(), 1, "{lines:?}");
            if lines[0].contains(" raises ") {
                raised += 1;
            } else if lines[0].contains("cannot raise") && lines[0].contains("you have 0 (R30)") {
                refused += 1;
            }
        }
        assert_eq!((raised, refused), (1, 1), "round {round}");
    }
    let b = apps[0].store.balance(alan).await.unwrap();
    assert_eq!(b.hp_halves, 0);
    let spends: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger WHERE kind = 'spend'")
        .fetch_one(apps[0].store.pool())
        .await
        .unwrap();
    assert_eq!(spends, rounds as i64);
    let k = apps[0].store.knight(alan).await.unwrap().unwrap();
    let total: u32 = psi.iter().map(|&s| u32::from(k.sheet.psi(s))).sum();
    assert_eq!(total, 10 * rounds as u32);
}

async fn alan_in(db: &Path) -> Arc<App> {
    let h = Herald::open(db).await;
    h.say("alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n")
        .await;
    h.app
}

// R30, issue 4: two `/spend` at once from two channels cannot both spend the same points.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_spends_at_once_in_one_process_spend_the_last_points_once() {
    let books = Books::new();
    let app = alan_in(&books.path()).await;
    race([app.clone(), app], 12).await;
}

// The same race between two processes on one file: two pools, two sets of connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_spends_at_once_in_two_processes_spend_the_last_points_once() {
    let books = Books::new();
    let a = alan_in(&books.path()).await;
    let b = Herald::open(&books.path()).await.app;
    race([a, b], 12).await;
}

// R155: retirement ends the knight's ties, hostilities and offers, and is a ledger entry naming
// the admin; the vassal left behind owes allegiance to the monarch alone.
#[tokio::test]
async fn retirement_ends_ties_hostilities_and_offers() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(
        "@clock 2026-12-01T10:00:00Z\n\
         alan: /knight create Alan --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n\
         brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame\n\
         cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar\n\
         gwen: /knight create Gwen --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame\n\
         alice: /admin award Brenna 12 seed\n\
         brenna: /land\n\
         alice: /admin award Brenna 30 lists\n\
         brenna: /advance\n\
         alan: /swear Brenna\n\
         brenna: /swear Alan\n\
         alice: /admin award Cai 12 seed\n\
         cai: /land\n\
         cai: /hostility declare Brenna\n\
         gwen: /swear Brenna\n",
    )
    .await;
    let (alan, brenna) = (h.id("Alan").await, h.id("Brenna").await);
    h.say("alice: /admin retire Brenna\n")
        .await
        .expect("alice retires Baroness Brenna");
    let pool = h.app.store.pool();
    let count = |sql: &'static str| async move {
        sqlx::query_scalar::<_, i64>(sql)
            .bind(brenna)
            .bind(brenna)
            .fetch_one(pool)
            .await
            .unwrap()
    };
    assert_eq!(
        count("SELECT COUNT(*) FROM allegiances WHERE (vassal_id = ? OR lord_id = ?) AND ended_at IS NULL").await,
        0
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM hostilities WHERE (knight_lo = ? OR knight_hi = ?) AND ended_at IS NULL").await,
        0
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM offers WHERE from_id = ? OR to_id = ?").await,
        0
    );
    let lord: Option<Id> = sqlx::query_scalar("SELECT lord_id FROM knights WHERE id = ?")
        .bind(alan)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(lord, None);
    let by: Option<String> =
        sqlx::query_scalar("SELECT by_user FROM ledger WHERE kind = 'retire' AND knight_id = ?")
            .bind(brenna)
            .fetch_one(pool)
            .await
            .unwrap();
    assert_eq!(by.as_deref(), Some("alice"));
    // Alan may now swear to another lord, or to no one; Cai has no one to make peace with.
    h.say("cai: /hostility end Brenna\n")
        .await
        // R171: a retired knight is named as such, not as no one.
        .expect("Baroness Brenna is no longer in the lists: retired on 2026-12-01 (R155).");
}

// R33, R156: whether a fight is for ransom is fixed at its start; a fight for ransom resumed after
// a restart still ends with the loser captured.
#[tokio::test]
async fn a_fight_for_ransom_resumed_after_a_restart_still_captures_the_loser() {
    let books = Books::new();
    let first = Herald::open(&books.path()).await;
    first
        .say(
            "@clock 2026-12-01T10:00:00Z\n\
             brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame\n\
             cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar\n\
             alice: /admin award Brenna 12 seed\n\
             brenna: /land\n\
             alice: /admin award Cai 12 seed\n\
             cai: /land\n\
             cai: /hostility declare Brenna\n",
        )
        .await;
    // The joust of `lost_joust` up to Cai's answer to the R41 question: Brenna is unhorsed.
    let joust = lost_joust(2, "brenna", "cai", "cai");
    let (before, last) = joust
        .trim_end()
        .rsplit_once('\n')
        .expect("a joust of several lines");
    let run = first.say(before).await;
    has(
        &run.lines()
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>(),
        "This joust is fought for ransom: Dame Brenna and Sir Cai are hostile (R33).",
    );
    let (brenna, cai) = (first.id("Brenna").await, first.id("Cai").await);
    assert_eq!(winner_of(&first, 1).await, None);
    drop(first);

    // Herald restarts on the same books: the fight is restored, and Cai's answer ends it.
    let second = Herald::open(&books.path()).await;
    let run = second
        .say(&format!("@clock 2026-12-02T10:05:00Z\n{last}\n"))
        .await;
    let lines = fight_for_ransom(&second, &run, 1, "Cai").await;
    has(&lines, "Herald is back. Fight #1 resumes where it stood.");
    has(
        &lines,
        "Dame Brenna is captured by Sir Cai and may not fight until released (R33).",
    );
    assert!(second.app.store.is_captive(brenna).await.unwrap());
    assert_eq!(second.app.store.captor_of(brenna).await.unwrap(), Some(cai));
}

// Issue 15, bug 3: every ledger entry is reachable in chat. 65 entries: page 1 holds the 30
// newest, newest first, and its hint is the next page's real command; page 3 holds the 5 oldest
// and no hint; a page past the end names the last.
#[tokio::test]
async fn every_ledger_entry_is_reachable_by_page() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    let mut t = String::from(
        "@clock 2026-12-01T10:00:00Z\n\
         alan: /knight create Ansel --top lance,shield,ride --psi cpk:40 --monarch llewellyn\n",
    );
    for i in 1..=65 {
        t.push_str(&format!("alice: /admin award Ansel 1 award {i}\n"));
    }
    h.say(&t).await;
    let page = |cmd: &str| {
        let cmd = cmd.to_string();
        let h = &h;
        async move {
            let run = h.say(&format!("bob: {cmd}\n")).await;
            run.out
                .lines()
                .map(|l| l.trim_start_matches("[#lists] ").to_string())
                .collect::<Vec<_>>()
        }
    };
    let first = page("/ledger Ansel --month 2026-12").await;
    assert_eq!(first.len(), 32, "{first:#?}");
    assert!(
        first[0].contains("65 entries") && first[0].contains("Page 1 of 3, newest first."),
        "{first:#?}"
    );
    assert!(
        first[1].starts_with("#65 ") && first[30].starts_with("#36 "),
        "{first:#?}"
    );
    assert_eq!(
        first[31],
        "(35 entries earlier: /ledger Ansel --month 2026-12 --page 2)"
    );
    let second = page("/ledger Ansel --month 2026-12 --page 2").await;
    assert!(
        second[1].starts_with("#35 ") && second[30].starts_with("#6 "),
        "{second:#?}"
    );
    assert_eq!(
        second[31],
        "(5 entries earlier: /ledger Ansel --month 2026-12 --page 3)"
    );
    let third = page("/ledger Ansel --month 2026-12 --page 3").await;
    assert_eq!(third.len(), 6, "{third:#?}");
    assert!(
        third[1].starts_with("#5 ") && third[5].starts_with("#1 "),
        "{third:#?}"
    );
    let seen: std::collections::BTreeSet<String> = [&first, &second, &third]
        .iter()
        .flat_map(|p| p.iter().skip(1))
        .filter_map(|l| l.strip_prefix('#')?.split(' ').next().map(String::from))
        .collect();
    assert_eq!(seen.len(), 65, "every entry once: {seen:?}");
    let past = page("/ledger Ansel --page 9").await;
    assert!(
        past[0].contains("there is no page 9. The last: /ledger Ansel --page 3"),
        "{past:#?}"
    );
}

// Issue 15, bug 1. R172: a knight becomes landed "by accepting a grant of land": /grant is an
// offer the knight answers with /accept or /decline, the noble may withdraw it, and it lapses
// unanswered after the challenge timeout. R173: /release by mutual consent ends the vassalage
// and the knight keeps the lands (the rules take nothing back by mutual consent).
#[tokio::test]
async fn r172_a_grant_is_an_offer_the_knight_answers() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    let run = h
        .say(
            "@clock 2026-12-01T10:00:00Z
ann: /knight create Anna --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame
eve: /knight create \"Éowyn of Rohan\" --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
alice: /admin award Anna 12 seed
ann: /land
alice: /admin award Anna 40 lists
ann: /advance
ann: /grant \"Éowyn of Rohan\"
eve: /honor
eve: /decline
ann: /grant eowyn of rohan
ann: /decline
ann: /grant @eve
@wait 301
eve: /accept
eve: /honor
ann: /grant @eve
eve: /accept
eve: /honor
ann: /release @eve
eve: /accept
eve: /honor
",
        )
        .await;
    run.expect("Baroness Anna offers Dame Éowyn of Rohan a grant of lands (R31, R172): 5 PP would pass from Anna to Éowyn of Rohan, who would be landed and become her vassal. eve: /accept or /decline (300s).")
        .expect("Dame Éowyn of Rohan declines the grant of lands offered by Baroness Anna (R172).")
        .expect("Baroness Anna withdraws the offer of a grant of lands to Dame Éowyn of Rohan (R172).")
        .expect("The grant of lands that Baroness Anna offered Dame Éowyn of Rohan lapsed unanswered after 300s (R172); Anna may offer it again with /grant.")
        .expect("Baroness Anna grants lands to Dame Éowyn of Rohan (R31): 5 PP pass from Anna to Éowyn of Rohan, who is now landed and becomes her vassal.")
        .expect("Dame Éowyn of Rohan and Baroness Anna part by mutual consent, without penalty or hostility (R33). Éowyn of Rohan keeps the lands granted, and with them the landed split of awards (R29, R173).")
        .expect_not("There is no challenge or question to decline here");
    let honors: Vec<&str> = run
        .lines()
        .into_iter()
        .filter(|l| l.contains("Dame Éowyn of Rohan: "))
        .collect();
    assert_eq!(
        honors,
        [
            "[#lists] Dame Éowyn of Rohan: 0 HP, 0 PP, unlanded.",
            "[#lists] Dame Éowyn of Rohan: 0 HP, 0 PP, unlanded.",
            "[#lists] Dame Éowyn of Rohan: 0 HP, 5 PP, landed.",
            "[#lists] Dame Éowyn of Rohan: 0 HP, 5 PP, landed.",
        ],
        "{}",
        run.out
    );
    // Offers leave no points on the books; the accepted grant is the only land entry for her.
    let eve = h.id("Éowyn of Rohan").await;
    let kinds: Vec<String> =
        sqlx::query_scalar("SELECT kind FROM ledger WHERE knight_id = ? ORDER BY id")
            .bind(eve)
            .fetch_all(h.app.store.pool())
            .await
            .unwrap();
    assert_eq!(kinds, ["land_received"]);
}

// R172: a grant is judged when it is accepted, against the books as they stand then: offers made
// while the noble could afford them all are refused once the earlier acceptances leave too little
// (R31's 5 PP per vassal), and the offer is withdrawn; a retired noble's offers end (R155).
#[tokio::test]
async fn r172_a_grant_is_judged_when_it_is_accepted() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    let run = h
        .say(
            "@clock 2026-12-01T10:00:00Z
ann: /knight create Anna --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame
eve: /knight create Eve --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
gwen: /knight create Gwen --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
hal: /knight create Hal --top lance,shield,ride --psi cpk:40 --monarch ragnar
ida: /knight create Ida --top lance,shield,ride --psi cpk:40 --monarch ragnar --dame
alice: /admin award Anna 12 seed
ann: /land
alice: /admin award Anna 30 lists
ann: /advance
ann: /grant Eve
ann: /grant Gwen
ann: /grant Hal
ann: /grant Ida
eve: /accept
gwen: /accept
hal: /accept
hal: /accept
alice: /admin retire Anna
ida: /accept
",
        )
        .await;
    run.expect("Baroness Anna offers Sir Hal a grant of lands (R31, R172)")
        .expect("Baroness Anna grants lands to Dame Eve (R31)")
        .expect("Baroness Anna grants lands to Dame Gwen (R31)")
        .expect("Baroness Anna cannot grant lands to Sir Hal: Baroness Anna would keep 5 PP for 3 vassals; a grant must leave at least 15 PP, 5 per vassal (R31). The offer is withdrawn; Baroness Anna may make it again with /grant.")
        .expect("Baroness Anna offers Dame Ida a grant of lands")
        .expect_not("grants lands to Sir Hal")
        .expect_not("grants lands to Dame Ida");
    let lines = run.lines();
    // Hal's second /accept and Ida's find no offer: nothing to accept here.
    let last = lines.last().unwrap();
    assert!(!last.contains("grants lands"), "{}", run.out);
    let pending: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM grant_offers")
        .fetch_one(h.app.store.pool())
        .await
        .unwrap();
    assert_eq!(pending, 0, "{}", run.out);
}

// ----- acts that cannot be undone wait for /confirm (issue 15, item 12; R180) -----

impl Herald {
    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql)
            .fetch_one(self.app.store.pool())
            .await
            .unwrap()
    }

    /// Gwen's lord, as the books hold it.
    async fn lord_of_gwen(&self) -> Option<Id> {
        sqlx::query_scalar("SELECT lord_id FROM knights WHERE name = 'Gwen'")
            .fetch_one(self.app.store.pool())
            .await
            .unwrap()
    }
}

/// Baroness Brenna (35 PP) with two landed vassals, Gwen and Eoin (5 PP each); Cai, landed,
/// hostile to Brenna.
const REALM: &str = "\
@clock 2026-12-01T10:00:00Z
brenna: /knight create Brenna --top observe,dodge,sword --psi telepathy:40 --monarch seonaid --dame
gwen: /knight create Gwen --top lance,shield,ride --psi cpk:40 --monarch llewellyn --dame
evan: /knight create Eoin --top lance,shield,ride --psi mesmerism:40 --monarch llewellyn
cai: /knight create Cai --top lance,shield,ride --psi catapsi:40 --monarch ragnar
alice: /admin award Brenna 12 seed
brenna: /land
alice: /admin award Brenna 80 lists
brenna: /advance
brenna: /grant Gwen
gwen: /accept
brenna: /grant Eoin
evan: /accept
alice: /admin award Cai 12 seed
cai: /land
cai: /hostility declare Brenna
";

const GWEN_ASKS: &str = "Declaring hostility on your lord Baroness Brenna is oathbreaking: it costs you half your Prestige (2.5 of 5 PP). /confirm within 60s to go ahead.";

// R180, R100: oathbreaking is asked with its price; nothing is written until the vassal herself
// confirms within 60 s; another's /confirm, a late one and other commands leave the books alone.
#[tokio::test]
async fn r180_oathbreaking_waits_for_the_declarers_confirm() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(REALM).await;
    let brenna = h.id("Brenna").await;
    let oaths = "SELECT COUNT(*) FROM hostilities WHERE ended_at IS NULL";
    let forfeits = "SELECT COUNT(*) FROM ledger WHERE pp_halves < 0";
    assert_eq!(h.count(oaths).await, 1, "Cai's alone");
    // The grants' 5 PP each are already on the books as Brenna's negative entries.
    let before = h.count(forfeits).await;

    let run = h
        .say("gwen: /hostility declare Brenna\nbrenna: /confirm\ngwen: /honor\n")
        .await;
    run.expect(GWEN_ASKS)
        .expect("brenna, nothing of yours awaits /confirm: gwen's /hostility declare Brenna waits for gwen's own /confirm.")
        .expect_not("declares hostility against her lord");
    // Nothing written: the oath stands, no PP forfeit, no hostility.
    assert_eq!(h.lord_of_gwen().await, Some(brenna));
    assert_eq!(h.count(oaths).await, 1);
    assert_eq!(h.count(forfeits).await, before);

    // 61 s on the transcript's clock: too late, and still nothing written.
    h.say("@wait 61\n").await;
    h.say("gwen: /confirm\n")
        .await
        .expect("gwen, too late: /hostility declare Brenna was asked 61s ago, and a question waits 60s; nothing was done. To go ahead, ask again: /hostility declare Brenna");
    assert_eq!(h.lord_of_gwen().await, Some(brenna));
    assert_eq!(h.count(forfeits).await, before);

    // Asked again; the books change before the /confirm (Gwen is awarded 1 PP): the question
    // is asked anew with the new price, and only its own /confirm goes ahead.
    let run = h
        .say("gwen: /hostility declare Brenna\nalice: /admin award Gwen 2 test\ngwen: /confirm\n")
        .await;
    run.expect("gwen, the books changed since you were asked; nothing was done.")
        .expect("Declaring hostility on your lord Baroness Brenna is oathbreaking: it costs you half your Prestige (3 of 6 PP). /confirm within 60s to go ahead.");
    assert_eq!(h.lord_of_gwen().await, Some(brenna));
    h.say("@wait 60\n").await;
    h.say("gwen: /confirm\n")
        .await
        .expect("Dame Gwen declares hostility against her lord Baroness Brenna: oathbreaking (R33). Gwen forfeits 3 of 6 PP (R100); the allegiance is broken and they are hostile.");
    assert_eq!(h.lord_of_gwen().await, None);
    assert_eq!(h.count(oaths).await, 2);
    assert_eq!(h.count(forfeits).await, before + 1);

    // Once done, nothing awaits.
    h.say("gwen: /confirm\n")
        .await
        .expect("gwen, nothing awaits your /confirm: it goes ahead, within 60s of the question, with hostility on your own lord or vassal, or /ransom kill.");
    assert_eq!(h.count(forfeits).await, before + 1);
}

// R180: a lord's oathbreaking against a vassal is asked too; a second question takes the place
// of the first and says so, and /confirm goes ahead with the second only.
#[tokio::test]
async fn r180_a_second_question_takes_the_place_of_the_first() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(REALM).await;
    let brenna = h.id("Brenna").await;
    let run = h
        .say("brenna: /hostility declare Gwen\nbrenna: /hostility declare Eoin\nbrenna: /confirm\n")
        .await;
    run.expect("Declaring hostility on your vassal Dame Gwen is oathbreaking: it costs you half your Prestige (17.5 of 35 PP). /confirm within 60s to go ahead.")
        .expect("brenna, this takes the place of your earlier question (/hostility declare Gwen), which is dropped.")
        .expect("Baroness Brenna declares hostility against her vassal Sir Eoin: oathbreaking (R33). Brenna forfeits 17.5 of 35 PP (R100)")
        .expect_not("declares hostility against her vassal Dame Gwen");
    assert_eq!(h.lord_of_gwen().await, Some(brenna));
}

// R180, R33, R109: /ransom kill says what the death costs; the captive lives until the
// victor's /confirm.
#[tokio::test]
async fn r180_a_kill_waits_for_the_victors_confirm() {
    let books = Books::new();
    let h = Herald::open(&books.path()).await;
    h.say(REALM).await;
    h.say(
        "@clock 2026-12-02T10:00:00Z\n\
         brenna: /joust Cai\n\
         @dice 90 90 90 20 30 50\n\
         cai: /accept\n\
         brenna: /nosweep\n\
         cai: /nosweep\n\
         cai: /high\n\
         cai: /decline\n",
    )
    .await
    .expect("Baroness Brenna is captured by Sir Cai");
    let brenna = h.id("Brenna").await;
    h.say("cai: /ransom kill Brenna\nbrenna: /confirm\n")
        .await
        .expect("Putting Baroness Brenna to death cannot be undone: she leaves the lists for good with 40 HP and 35 PP, her allegiances, hostilities and offers end (R109), and you give up the 10 PP of ransom still owed. /confirm within 60s to go ahead.")
        .expect("brenna, nothing of yours awaits /confirm: cai's /ransom kill Brenna waits for cai's own /confirm.");
    assert!(!h.app.store.is_dead(brenna).await.unwrap());
    assert!(h.app.store.is_captive(brenna).await.unwrap());
    h.say("@wait 30\n").await;
    h.say("cai: /confirm\n").await.expect(
        "Sir Cai puts Baroness Brenna to death, a captive of a fight under hostility (R33).",
    );
    assert!(h.app.store.is_dead(brenna).await.unwrap());
}

// `/help confirm` says what it does and for how long.
#[tokio::test]
async fn help_confirm_says_what_it_confirms() {
    let books = Books::new();
    run(&books.path(), "ann: /help confirm\n").await.expect(
        "/confirm — Go ahead, within 60s of the question, with oathbreaking or killing a captive.",
    );
}
