//! Acts that cannot be undone wait for `/confirm` (issue 15, item 12; R180): oathbreaking and
//! `/ransom kill` say what they cost and write nothing until the player who asked confirms
//! within 60 seconds of the transcript's clock. Through the real pipeline, on a real SQLite file.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::Hub;
use herald_bot::store::{Id, Store};
use herald_bot::transport::{script, LOCAL_REALM};
use std::sync::Arc;

/// One Herald over one database for the whole test: questions are kept between transcripts.
struct Herald {
    hub: Hub,
    app: Arc<App>,
}

impl Herald {
    async fn open(books: &Books) -> Herald {
        let config: Config = toml::from_str("[permissions]\nadmins = [\"alice\"]\n").unwrap();
        let store = Store::open(&books.path()).await.unwrap();
        let app = Arc::new(App::new(store, config, Some(0)).unwrap());
        let clock = Arc::new(Clock::manual(chrono::Utc::now()));
        let hub = Hub::manual(app.clone(), clock, vec!['/']);
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

    async fn id(&self, name: &str) -> Id {
        let realm = self.app.realm(LOCAL_REALM).await.unwrap();
        self.app
            .store
            .knight_named(realm, name)
            .await
            .unwrap()
            .unwrap()
            .id
    }

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
    let h = Herald::open(&books).await;
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
    let h = Herald::open(&books).await;
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
    let h = Herald::open(&books).await;
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
