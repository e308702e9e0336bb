//! The realm on the web (issue 19), route by route in process (`tower::ServiceExt::oneshot`)
//! against real books built by transcripts through the whole pipeline: every page and JSON
//! route, the 404 page, escaping of names, paging, the security headers, and a live fight
//! page's events while a move is played. The route tests run on a SQLite file and, when
//! `HERALD_TEST_PG` names a server, on a PostgreSQL database of their own: one suite, two
//! backends.

mod common;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::realm::*;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Hub, Incoming, Rights};
use http_body_util::BodyExt;
use std::sync::Arc;
use tower::ServiceExt;

async fn app_on(backend: &Backend) -> Arc<App> {
    let config: Config = toml::from_str(CONFIG).unwrap();
    Arc::new(App::new(backend.store().await, config, Some(0)).unwrap())
}

/// A statement through the store's query layer, on either backend.
async fn sql(store: &herald_bot::store::Store, text: &str, binds: &[&str]) {
    let mut q = herald_bot::store::db::query(text);
    for b in binds {
        q = q.bind(*b);
    }
    q.execute(store.db()).await.unwrap();
}

struct Got {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

async fn get(app: &Arc<App>, uri: &str) -> Got {
    let response = herald_bot::web::router(app.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Got {
        status,
        headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

impl Got {
    fn ok(self, uri: &str) -> Got {
        assert_eq!(self.status, StatusCode::OK, "{uri}:\n{}", self.body);
        self
    }
    fn has(&self, needle: &str) -> &Got {
        assert!(
            self.body.contains(needle),
            "expected {needle:?} in:\n{}",
            self.body
        );
        self
    }
    fn lacks(&self, needle: &str) -> &Got {
        assert!(
            !self.body.contains(needle),
            "did not expect {needle:?} in:\n{}",
            self.body
        );
        self
    }
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// A path segment percent-encoded as the pages link it.
fn enc(text: &str) -> String {
    herald_bot::web::segment(text)
}

// Every page and JSON route answers 200 from books built through the pipeline, with what the
// books hold: standings, a knight's sheet and ledger with its chart, the tournaments, a
// replay of every game, the odds, and the characters of the other games.
#[tokio::test]
async fn every_page_and_api_route_reads_the_books() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        get(&app, "/").await.ok("/").has("href=\"/r/local\"");
        get(&app, "/r/local")
            .await
            .ok("/r/local")
            .has("Standings of local")
            .has("href=\"/r/local/knights/Eoin\"")
            .has("href=\"/r/local/characters/tourney/Gimby\"");
        get(&app, "/r/local/knights/Eoin")
            .await
            .ok("knight")
            .has("Sir Eoin")
            .has("<svg")
            .has("href=\"/r/local/fights/1\"")
            .has("id=\"ledger\"");
        // Any case finds the knight (R170's way of naming).
        get(&app, "/r/local/knights/eoin")
            .await
            .ok("knight, lower case");
        get(&app, "/r/local/characters/tourney/Gimby")
            .await
            .ok("character")
            .has("The Tourney")
            .has("id=\"sheet\"");
        get(&app, "/r/local/tournaments")
            .await
            .ok("tournaments")
            .has("href=\"/r/local/tournaments/1\"");
        get(&app, "/r/local/tournaments/1")
            .await
            .ok("tournament")
            .has("Round 1")
            .has("href=\"/r/local/fights/2\"");
        let fight = get(&app, "/r/local/fights/1").await.ok("fight 1");
        fight
            .has("id=\"seed\"")
            .has("class=\"ok\"")
            .has("dice 90 (scripted), 90 (scripted)")
            .has("data-stepper");
        get(&app, "/r/local/fights/3")
            .await
            .ok("a Tourney bout")
            .has("The Tourney")
            // Each side's sheet as it started: Gimby's strength 5.
            .has("<dt>knights.sheet.strength</dt><dd>5</dd>")
            .has("id=\"verify\"");
        get(&app, "/r/local/fights/4")
            .await
            .ok("an open fight")
            .has("published when the fight ends")
            .has("data-live=\"/r/local/fights/4/live?from=1\"")
            .lacks("id=\"seed\"");
        get(&app, "/r/local/odds?a=Dara&b=Eoin")
            .await
            .ok("odds")
            .has("id=\"odds\"")
            .has("<svg");
        get(&app, "/r/local/odds?a=Dara&b=Nobody")
            .await
            .ok("odds of nobody")
            .has(
                "There is no knight named &apos;Nobody&apos;"
                    .replace("&apos;", "'")
                    .as_str(),
            );
        get(&app, "/assets/site.css").await.ok("css");
        get(&app, "/assets/site.js").await.ok("js");

        let realms = get(&app, "/api/realms").await.ok("api realms").json();
        assert_eq!(realms[0]["name"], "local");
        let standings = get(&app, "/api/r/local/standings")
            .await
            .ok("api standings")
            .json();
        let eoin = standings["knights"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == "Eoin")
            .unwrap()
            .clone();
        assert_eq!(eoin["owner"], "evan");
        assert_eq!(eoin["title"], "knight");
        assert!(eoin["hp"].is_number(), "{eoin}");
        let knight = get(&app, "/api/r/local/knights/Eoin")
            .await
            .ok("api knight")
            .json();
        assert_eq!(knight["status"], "active");
        assert!(
            knight["ledger"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["fight"] == 1),
            "{knight}"
        );
        let fight = get(&app, "/api/r/local/fights/1")
            .await
            .ok("api fight")
            .json();
        assert_eq!(fight["winner"], "Eoin");
        assert_eq!(fight["verify"]["ok"], true);
        assert!(fight["seed"].is_string());
        assert_eq!(fight["steps"][0]["head"], "Start");
        let open = get(&app, "/api/r/local/fights/4")
            .await
            .ok("api open fight")
            .json();
        assert!(open["seed"].is_null(), "the seed is told only at the end");
        let bout = get(&app, "/api/r/local/fights/3")
            .await
            .ok("api bout")
            .json();
        assert_eq!(bout["game"], "tourney");
        assert!(bout["steps"][1]["events"].is_array(), "{bout}");
        let tournament = get(&app, "/api/r/local/tournaments/1")
            .await
            .ok("api tournament")
            .json();
        assert_eq!(tournament["entrants"], serde_json::json!(["Dara", "Eoin"]));
        get(&app, "/api/r/local/tournaments")
            .await
            .ok("api tournaments");
        let characters = get(&app, "/api/r/local/characters")
            .await
            .ok("api characters")
            .json();
        assert_eq!(characters.as_array().unwrap().len(), 2);
    }
}

/// The narration lines of a replay page's steps, unescaped: each step's `<div>` lines but its
/// head (`<strong>`) and its dice.
fn narration_of(page: &str) -> Vec<String> {
    let steps = &page[page.find("id=\"steps\"").expect("the steps")..];
    steps
        .split("<div>")
        .skip(1)
        .filter(|d| !d.starts_with("<strong>"))
        .map(|d| {
            d[..d.find("</div>").unwrap()]
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

// Every game's replay is told as its channel told it: each step's lines are the game's own
// narration over the replayed events (the channel's lines, word for word), not its events'
// JSON; PsiKnight's as before.
#[tokio::test]
async fn every_games_replay_is_told_as_the_channel_told_it() {
    let games = [
        ("pfpduel", "#minds", "pfpduel_example.txt"),
        ("powerpool", "#minds", "powerpool_example.txt"),
        ("psimorphs", "#morphs", "psimorphs_example.txt"),
    ];
    for (game, channel, file) in games {
        for backend in backends().await {
            let config = format!(
                "[games.channels]\n\"{channel}\" = \"{game}\"\n[permissions]\nmoderators = [\"mod\"]\n"
            );
            let transcript = std::fs::read_to_string(format!(
                "{}/tests/transcripts/{file}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let run = run_on(backend.store().await, &config, &transcript).await;
            assert_eq!(run.result, Ok(()), "{}", run.out);
            let app = app_on(&backend).await;
            let page = get(&app, "/r/local/fights/1").await.ok(game);
            let told = narration_of(&page.body);
            assert!(told.len() >= 5, "{game}: too few lines told: {told:?}");
            for line in &told {
                assert!(
                    run.out.contains(line.as_str()),
                    "{game}: the page tells {line:?}, which the channel did not say:\n{}",
                    run.out
                );
            }
            // Not the events' JSON in words ("attack: attacker Brim, ...").
            assert!(
                !told.iter().any(|l| l.contains("fight started:")),
                "{game}: {told:?}"
            );
        }
    }
    // The Tourney's bout of the realm's books, and PsiKnight's joust.
    let run = run_with(&Books::new().path(), CONFIG, &realm_transcript()).await;
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        for (fight, what) in [(3, "a Tourney bout"), (1, "a joust")] {
            let page = get(&app, &format!("/r/local/fights/{fight}"))
                .await
                .ok(what);
            let told = narration_of(&page.body);
            assert!(told.len() >= 2, "{what}: {told:?}");
            for line in &told {
                assert!(
                    run.out.contains(line.as_str()),
                    "{what}: {line:?} in\n{}",
                    run.out
                );
            }
        }
    }
}

// Odds for every game: `game=ID` simulates two characters of that game through its matchup
// (bounded, then kept), PsiKnight without it; an unknown game is the 404 page, an unknown name
// one line saying so.
#[tokio::test]
async fn the_odds_page_serves_every_game() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        let uri = "/r/local/odds?a=Ector&b=Gimby&game=tourney";
        let first = get(&app, uri).await.ok("tourney odds");
        first
            .has("id=\"odds\"")
            .has("<svg")
            .has("5000 fights of The Tourney")
            .has("<option value=\"tourney\" selected>")
            .lacks("id=\"problem\"");
        // Kept: the same figures again.
        assert_eq!(get(&app, uri).await.ok("again").body, first.body);
        // A knight is no character of The Tourney; an unknown name is one line.
        for (uri, line) in [
            (
                "/r/local/odds?a=Ector&b=Nobody&game=tourney",
                "There is no character of The Tourney named 'Nobody' in this realm.",
            ),
            (
                "/r/local/odds?a=Dara&b=Gimby&game=tourney",
                "There is no character of The Tourney named 'Dara' in this realm.",
            ),
            (
                "/r/local/odds?a=Ector&game=tourney",
                "Name two characters of The Tourney: a and b.",
            ),
        ] {
            let page = get(&app, uri).await.ok(uri);
            page.has("id=\"problem\"").has(line).lacks("id=\"odds\"");
        }
        // PsiKnight by default, and by name.
        get(&app, "/r/local/odds?a=Dara&b=Eoin&game=psiknight")
            .await
            .ok("psiknight odds")
            .has("id=\"odds\"")
            .has("practice fights of PsiKnight");
        let unknown = get(&app, "/r/local/odds?a=Dara&b=Eoin&game=chess").await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        unknown.has("There is no such game in the books.");
    }
}

// The replay steps through by plain links: ?step=N shows the steps up to N, with the next and
// the previous; past the end it shows the last.
#[tokio::test]
async fn a_replay_steps_through_by_links() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        let page = get(&app, "/r/local/fights/1?step=1").await.ok("step 1");
        page.has("id=\"step-0\"")
            .has("id=\"step-1\"")
            .lacks("id=\"step-2\"")
            .has("href=\"/r/local/fights/1?step=0\"")
            .has("href=\"/r/local/fights/1?step=2\"");
        let steps = get(&app, "/api/r/local/fights/1").await.json()["steps"]
            .as_array()
            .unwrap()
            .len();
        let last = get(&app, "/r/local/fights/1?step=999")
            .await
            .ok("past the end");
        last.has(&format!("id=\"step-{}\"", steps - 1))
            .lacks("rel=\"next\"");
    }
}

// Unknown realm, knight, character, game, fight, tournament, file or path: the 404 page in the
// site's style, never a 500; the JSON routes too.
#[tokio::test]
async fn every_unknown_thing_is_the_404_page() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        for uri in [
            "/r/nowhere",
            "/r/nowhere/knights/Eoin",
            "/r/local/knights/Nobody",
            "/r/local/characters/tourney/Nobody",
            "/r/local/characters/chess/Gimby",
            "/r/local/fights/99",
            "/r/local/fights/abc",
            "/r/local/fights/-1",
            "/r/local/fights/99/live",
            "/r/local/tournaments/7",
            "/r/local/tournaments/x",
            "/r/local/tournaments/7/live",
            "/assets/evil.js",
            "/nothing/here",
            "/api/r/nowhere/standings",
            "/api/r/local/knights/Nobody",
            "/api/r/local/fights/99",
            "/api/r/local/tournaments/99",
        ] {
            let got = get(&app, uri).await;
            assert_eq!(got.status, StatusCode::NOT_FOUND, "{uri}: {}", got.body);
            got.has("Not found").has("/assets/site.css");
        }
    }
}

// A name the books hold shows as text: no script, no tag, on the standings, the knight's own
// page (reached by its link) and the JSON; a tournament's name likewise.
#[tokio::test]
async fn names_are_escaped_everywhere() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        let standings = get(&app, "/r/local?sort=name").await.ok("standings");
        standings
            .has("&lt;script&gt;alert(1)&lt;/script&gt;")
            .has("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
            .lacks("<script>alert")
            .lacks("<img src=x");
        for name in XSS {
            let uri = format!("/r/local/knights/{}", enc(name));
            standings.has(&format!("href=\"{uri}\""));
            get(&app, &uri)
                .await
                .ok(&uri)
                .lacks("<script>alert")
                .lacks("<img src=x");
            let json = get(&app, &format!("/api/r/local/knights/{}", enc(name)))
                .await
                .ok("api")
                .json();
            assert_eq!(json["name"], name);
        }
        for uri in ["/r/local/tournaments", "/r/local/tournaments/1"] {
            get(&app, uri)
                .await
                .ok(uri)
                .has("Yule &lt;script&gt;alert(1)&lt;/script&gt;")
                .lacks("<script>alert");
        }
        get(&app, &format!("/r/local/odds?a={}&b=Eoin", enc(XSS[1])))
            .await
            .ok("odds")
            .lacks("<img src=x");
    }
}

// Every response carries the strict policy (no inline script: the one script is a file) and
// nosniff, pages and 404s and JSON alike; no page shows a Discord user id as an owner.
#[tokio::test]
async fn every_response_carries_the_security_headers() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let store = backend.store().await;
        // A knight whose player is a Discord user id.
        sql(
            &store,
            "UPDATE users SET name = '123456789012345678' WHERE name = 'evan'",
            &[],
        )
        .await;
        let app = app_on(&backend).await;
        for uri in [
            "/",
            "/r/local",
            "/r/local/knights/Eoin",
            "/r/local/fights/1",
            "/api/r/local/standings",
            "/nothing",
            "/assets/site.js",
        ] {
            let got = get(&app, uri).await;
            let csp = got.headers["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("script-src 'self'"), "{uri}: {csp}");
            assert!(!csp.contains("unsafe-inline"), "{uri}: {csp}");
            assert_eq!(got.headers["x-content-type-options"], "nosniff", "{uri}");
            got.lacks("123456789012345678");
            if got.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
            {
                assert!(!got.body.contains("<script>"), "{uri} has an inline script");
            }
        }
        let knight = get(&app, "/api/r/local/knights/Eoin").await.json();
        assert!(knight["owner"].is_null(), "{knight}");
    }
}

// Heavy pages are paged: the standings 50 knights a page, the ledger 50 entries a page, newest
// first, with the links between pages; a page past the end is empty, not an error.
#[tokio::test]
async fn standings_and_ledger_are_paged() {
    let mut transcript = String::from("@clock 2026-12-01T10:00:00Z\n");
    for i in 0..60 {
        transcript.push_str(&format!(
            "p{i}: /knight create Knight {i} --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn\n"
        ));
    }
    for backend in backends().await {
        let run = run_on(backend.store().await, CONFIG, &transcript).await;
        assert_eq!(run.result, Ok(()), "{}", run.out);
        let store = backend.store().await;
        let row = herald_bot::store::db::query(
            "SELECT realm_id, id FROM knights WHERE name = 'Knight 7'",
        )
        .fetch_one(store.db())
        .await
        .unwrap();
        let (realm, knight): (i64, i64) = (row.try_get(0).unwrap(), row.try_get(1).unwrap());
        for n in 0..120i64 {
            herald_bot::store::db::query(
                "INSERT INTO ledger (realm_id, knight_id, hp_halves, pp_halves, kind, reason, month, at) \
                 VALUES (?, ?, 2, 0, 'admin', ?, '2026-12', ?)",
            )
            .bind(realm)
            .bind(knight)
            .bind(format!("entry number {n}"))
            .bind(format!("2026-12-{:02}T10:00:00Z", 1 + n % 28))
            .execute(store.db())
            .await
            .unwrap();
        }
        let app = app_on(&backend).await;
        let first = get(&app, "/r/local").await.ok("standings page 1");
        // Knight 7 leads by Honor.
        first
            .has("Page 1 of 2")
            .has("href=\"/r/local?sort=hp&amp;page=2\"");
        assert!(first.body.find("Knight 7").unwrap() < first.body.find("Knight 0").unwrap());
        assert_eq!(first.body.matches("/knights/Knight%20").count(), 50);
        let second = get(&app, "/r/local?sort=hp&page=2")
            .await
            .ok("standings page 2");
        assert_eq!(second.body.matches("/knights/Knight%20").count(), 10);
        get(&app, "/r/local?page=9").await.ok("past the end");
        let by_name = get(&app, "/api/r/local/standings?sort=name").await.json();
        assert_eq!(by_name["knights"][0]["name"], "Knight 0");
        assert_eq!(by_name["pages"], 2);

        let ledger = get(&app, "/r/local/knights/Knight%207").await.ok("ledger");
        ledger
            .has("entry number 119")
            .lacks("entry number 69")
            .has("Page 1 of 3")
            .has("120 HP");
        let third = get(&app, "/r/local/knights/Knight%207?page=3")
            .await
            .ok("ledger page 3");
        third.has("entry number 0").lacks("entry number 20<");
        let json = get(&app, "/api/r/local/knights/Knight%207?page=2")
            .await
            .json();
        assert_eq!(json["ledger"].as_array().unwrap().len(), 50);
        assert_eq!(json["ledger_total"], 120);
    }
}

/// One number the books answer `text` with, on either backend.
async fn count(store: &herald_bot::store::Store, text: &str, bind: &str) -> i64 {
    herald_bot::store::db::query_scalar(text)
        .bind(bind)
        .fetch_one(store.db())
        .await
        .unwrap()
}

// The standings read each knight's sums as the books keep them, logged in the transaction of
// every ledger entry and fight's end and folded in before any read: after a fight, a tournament's awards, a spend and a
// grant of land they equal a fresh aggregation of the ledger and the fights, and the page
// shows them. On both backends (the triggers are each backend's own).
#[tokio::test]
async fn the_kept_sums_equal_a_fresh_aggregation() {
    for backend in backends().await {
        let on = backend.name();
        // A fight won (Eoin over Dara), the Lists match and the tournament's awards, a Tourney
        // bout and a fight still open.
        realm_books_on(&backend).await;
        let store = backend.store().await;
        let (kept, fresh) = kept_and_fresh_sums(&store).await;
        assert_eq!(kept, fresh, "on {on}");
        let awards = count(
            &store,
            "SELECT COUNT(*) FROM ledger WHERE tournament_id IS NOT NULL OR kind = ?",
            "-",
        )
        .await;
        assert!(awards > 0, "the tournament awarded points, on {on}");
        assert!(
            kept.iter().any(|k| k[3] > 0) && kept.iter().any(|k| k[4] > 0),
            "a win and a loss are counted on {on}: {kept:?}"
        );
        let app = app_on(&backend).await;
        let standings = get(&app, "/api/r/local/standings").await.json();
        let row = standings["knights"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == "Eoin")
            .cloned()
            .unwrap();
        let id = count(&store, "SELECT id FROM knights WHERE name = ?", "Eoin").await;
        let sums = kept.iter().find(|k| k[0] == id).unwrap();
        assert!(sums[1] > 0 && sums[3] > 0, "Eoin won Honor: {sums:?}");
        assert_eq!(row["hp"].as_f64().unwrap(), sums[1] as f64 / 2.0, "{row}");
        assert_eq!(row["record"]["wins"].as_i64().unwrap(), sums[3], "{row}");
    }

    // Spends, land and titles (R30–R32), step by step; then grants of land and allegiance.
    // And an admin's renames, retirement and revocations (R153–R155).
    for name in ["books_spend.txt", "books_allegiance.txt", "books_admin.txt"] {
        for backend in backends().await {
            let on = backend.name();
            let transcript = std::fs::read_to_string(format!(
                "{}/tests/transcripts/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            let admins = "[permissions]\nadmins = [\"alice\"]\n";
            let mut lines = String::new();
            for (n, line) in transcript.lines().enumerate() {
                lines.push_str(line);
                lines.push('\n');
                // Every few lines, the books so far: the sums kept must equal the aggregation.
                if n % 12 == 11 || n + 1 == transcript.lines().count() {
                    let run = run_on(backend.store().await, admins, &lines).await;
                    assert_eq!(run.result, Ok(()), "{}", run.out);
                    lines = lines
                        .lines()
                        .rfind(|l| l.starts_with("@clock"))
                        .map(|l| format!("{l}\n"))
                        .unwrap_or_default();
                    let store = backend.store().await;
                    let (kept, fresh) = kept_and_fresh_sums(&store).await;
                    assert_eq!(kept, fresh, "{name} on {on}, up to line {}", n + 1);
                }
            }
            let store = backend.store().await;
            let kind = match name {
                "books_spend.txt" => "spend",
                "books_allegiance.txt" => "land_granted",
                _ => "admin",
            };
            let moved = count(&store, "SELECT COUNT(*) FROM ledger WHERE kind = ?", kind).await;
            assert!(moved > 0, "{name} writes {kind} on {on}");
        }
    }
}

/// Reads server-sent events from `body` until one of type `kind` arrives; its data. Bounded:
/// the events must come within a few seconds of the move.
async fn next_event(body: &mut Body, kind: &str) -> String {
    let mut text = String::new();
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(10), body.frame())
            .await
            .unwrap_or_else(|_| panic!("no {kind} event within 10 s in:\n{text}"))
            .expect("the stream is open")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        for block in text.split("\n\n") {
            if block.lines().any(|l| l == format!("event: {kind}")) {
                return block
                    .lines()
                    .filter_map(|l| l.strip_prefix("data: "))
                    .collect();
            }
        }
    }
}

// Live: an open fight's event stream sends the step a move makes, read from the books when
// the hub says the channel spoke, and `changed` when the fight ends; the standings the site
// keeps are read again once the books moved.
#[tokio::test]
async fn a_live_fight_page_receives_the_step_a_move_makes() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        let hub = Hub::manual(
            app.clone(),
            Arc::new(Clock::manual("2026-12-02T10:00:00Z".parse().unwrap())),
            vec!['/'],
        );
        hub.restore("local").await.unwrap();
        let site = herald_bot::web::router(app.clone());
        let honor_of_eoin = || async {
            let response = site
                .clone()
                .oneshot(
                    Request::get("/api/r/local/standings")
                        .body(Body::empty())
                        .unwrap(),
                )
                .await
                .unwrap();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            json["knights"]
                .as_array()
                .unwrap()
                .iter()
                .find(|k| k["name"] == "Eoin")
                .unwrap()["hp"]
                .as_f64()
                .unwrap()
        };
        let before = honor_of_eoin().await;
        let response = site
            .clone()
            .oneshot(
                Request::get("/r/local/fights/4/live?from=1")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let mut body = response.into_body();
        let say = |user: &str, text: &str| Incoming {
            realm: "local".into(),
            channel: "#open".into(),
            user: user.into(),
            text: text.into(),
        };
        let answer = hub
            .answer(&say("dana", "/nosweep"), Rights::default())
            .await;
        assert!(!answer.lines.is_empty(), "{answer:?}");
        let step: serde_json::Value =
            serde_json::from_str(&next_event(&mut body, "step").await).unwrap();
        assert_eq!(step["n"], 1);
        assert!(step["head"].as_str().unwrap().contains("Dara"), "{step}");
        // The rest of the fight as in fights.rs: Eoin unhorses Dara and declines Swordplay (the
        // transcript's queued dice were that run's; this run queues the last two again).
        app.queue.push([30, 50]);
        for (user, text) in [
            ("evan", "/nosweep"),
            ("evan", "/high"),
            ("evan", "/decline"),
        ] {
            hub.answer(&say(user, text), Rights::default()).await;
        }
        assert_eq!(next_event(&mut body, "changed").await, "ended");
        // The standings kept by the site moved with the books: Eoin's practice win of the day.
        assert_eq!(honor_of_eoin().await, before + 1.0);
        drop(body);
        // A closed connection is gone: the channel has no listener left once the stream is dropped.
        assert_eq!(app.said.receiver_count(), 0);
    }
}

// Chat links: with `[web] base_url`, the end of a fight, a tournament's start and end, and
// /standings, /ledger, /bracket and /fight N say where the page is; without it, the same
// transcript says none of it (every other transcript test runs without it).
#[tokio::test]
async fn chat_carries_the_pages_links_when_base_url_is_set() {
    let transcript = format!(
        "{}dana: /standings\ndana: /ledger\ndana: /bracket\ndana: /fight 1\n",
        realm_transcript()
    );
    let books = Books::new();
    let config = format!("{CONFIG}[web]\nbase_url = \"https://herald.example/\"\n");
    let run = run_with(&books.path(), &config, &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.assert_seed_matches_its_hash();
    let seed_line = run
        .lines()
        .into_iter()
        .find(|l| l.starts_with("[#lists] Fight #1 is over. Dice seed: "))
        .unwrap()
        .to_string();
    assert!(
        seed_line.ends_with(" https://herald.example/r/local/fights/1"),
        "{seed_line}"
    );
    run.expect("begins! 2 knights ride in the Lists: Dame Dara, Sir Eoin. https://herald.example/r/local/tournaments/1")
        .expect("is over. The Lists: ")
        .expect("[#tourney] Fight #3 is over. Dice seed: ")
        .expect("https://herald.example/r/local/fights/3")
        .expect("The full page: https://herald.example/r/local")
        .expect("The full page: https://herald.example/r/local/knights/Dara")
        .expect("The full page: https://herald.example/r/local/tournaments/1")
        .expect("The full page: https://herald.example/r/local/fights/1");
    assert!(
        run.lines()
            .iter()
            .any(|l| l.contains(" is over. The Lists: ") && l.ends_with("/tournaments/1")),
        "{}",
        run.out
    );

    let plain = run_with(&Books::new().path(), CONFIG, &transcript).await;
    plain
        .expect("Fight #1 is over. Dice seed: ")
        .expect_not("https://")
        .expect_not("The full page");
}

// `[web]`: on by default at 127.0.0.1:8080 with no base_url; a bind that is no address is
// refused with the key named.
#[test]
fn the_web_configuration_and_its_defaults() {
    let config = Config::default();
    assert!(config.web.enabled);
    assert_eq!(config.web.bind, "127.0.0.1:8080");
    assert_eq!(config.web.base_url, "");
    let bad: Config = toml::from_str("[web]\nbind = \"everywhere\"\n").unwrap();
    let err = bad.check().unwrap_err().to_string();
    assert!(err.contains("[web] bind = \"everywhere\""), "{err}");
}

// `herald run` serves the pages on its runtime and prints where; the page answers from the
// books it keeps (a knight made in its console room), until the room is left.
#[tokio::test]
async fn herald_run_serves_the_pages_and_says_where() {
    use std::io::{BufRead, BufReader, Write};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let books = Books::new();
    let config = books.dir.path().join("herald.toml");
    std::fs::write(&config, "[web]\nbind = \"127.0.0.1:0\"\n").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("run")
        .arg("--config")
        .arg(&config)
        .arg("--db")
        .arg(books.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("herald runs");
    let mut input = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let addr = first
        .strip_prefix("Herald serves the realm on the web at http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    writeln!(
        input,
        "dana: {}",
        &DARA_AND_EOIN.lines().nth(1).unwrap()["dana: ".len()..]
    )
    .unwrap();
    input.flush().unwrap();
    let dubbed = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|l| l.contains("is dubbed"));
    assert!(dubbed.is_some());
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    stream
        .write_all(b"GET /r/local HTTP/1.0\r\nHost: herald\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).await.unwrap();
    assert!(page.starts_with("HTTP/1.0 200"), "{page}");
    assert!(page.contains("href=\"/r/local/knights/Dara\""), "{page}");
    drop(input);
    child.wait().unwrap();
}

// A tournament's page follows it live: its stream says `changed` when a knight enters.
#[tokio::test]
async fn a_tournament_page_hears_an_entry() {
    for backend in backends().await {
        realm_books_on(&backend).await;
        let app = app_on(&backend).await;
        let hub = Hub::manual(
            app.clone(),
            Arc::new(Clock::manual("2026-12-02T10:00:00Z".parse().unwrap())),
            vec!['/'],
        );
        let say = |channel: &str, user: &str, text: &str| Incoming {
            realm: "local".into(),
            channel: channel.into(),
            user: user.into(),
            text: text.into(),
        };
        let scheduled = hub
            .answer(
                &say("#yard", "mod", "/tournament schedule \"Spring Lists\" 2026-12-20T11:00:00Z --channel #lists --force"),
                Rights::default(),
            )
            .await;
        assert!(
            scheduled.lines.iter().any(|l| l.contains("Spring Lists")),
            "{scheduled:?}"
        );
        get(&app, "/r/local/tournaments/2")
            .await
            .ok("tournament 2")
            .has("data-live=\"/r/local/tournaments/2/live\"");
        let response = herald_bot::web::router(app.clone())
            .oneshot(
                Request::get("/r/local/tournaments/2/live")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let mut body = response.into_body();
        let entered = hub
            .answer(&say("#lists", "dana", "/enter"), Rights::default())
            .await;
        assert!(
            entered.lines.iter().any(|l| l.contains("enters")),
            "{entered:?}"
        );
        assert_eq!(next_event(&mut body, "changed").await, "moved");
    }
}
