//! The realm on the web: read-only pages and JSON served by `herald run` from the same books
//! (standings, knights and characters, tournaments, fight replays, odds), with live updates by
//! server-sent events. Nothing here writes to the books.
//!
//! `page.rs` holds the layout and what every page shares; one module per family of pages:
//! `realm.rs` (the realms and the standings), `knight.rs` (a knight's or a character's page),
//! `tournament.rs`, `fight.rs` (the replay), `odds.rs`, `api.rs` (the JSON), `live.rs` (the
//! events). `assets/` is embedded in the binary.

mod api;
mod fight;
mod knight;
mod live;
mod odds;
mod page;
mod realm;
mod tournament;

pub use page::segment;

use crate::app::App;
use crate::store::web::{Sort, StandingRow};
use crate::store::Id;
use anyhow::{Context, Result};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// The policy every response carries: scripts, styles and images only from this site, no
/// inline script, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
     connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// What the handlers share: the books and the odds already simulated.
pub struct Web {
    app: Arc<App>,
    odds: Mutex<HashMap<String, Arc<odds::Figures>>>,
    /// The pages of each realm's standings already read, in each order, with [`App::spoken`]
    /// when they were read: good until a channel speaks again (every change to the books comes
    /// with a line of chat). A page read anew costs one indexed read of the sums the books keep.
    standings: Mutex<HashMap<StandingsPage, Kept>>,
    /// The realms found by name.
    realms: Mutex<HashMap<String, Id>>,
    /// Each realm's names its players go by, with [`App::spoken`] when they were read.
    names: Mutex<HashMap<Id, (u64, Arc<Names>)>>,
}

/// A page of standings: the realm, the order, the first row and how many rows.
type StandingsPage = (Id, Sort, i64, i64);

/// A page of standings as read, with [`App::spoken`] at the time and the count of knights.
type Kept = (u64, Arc<Vec<StandingRow>>, i64);

/// A page Herald names in chat ([`link`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linked<'a> {
    /// A fight's replay.
    Fight(Id),
    /// A tournament's page.
    Tournament(Id),
    /// The realm's standings.
    Standings,
    /// A knight's page (sheet and ledger).
    Knight(&'a str),
}

/// The full address of a page of `realm` as players reach it, when `[web] base_url` is set;
/// `None` otherwise (chat then says no link). The one place chat gets its links from.
pub fn link(app: &App, realm: Id, page: Linked<'_>) -> Option<String> {
    let base = app.config.web.base_url.trim().trim_end_matches('/');
    if base.is_empty() || !app.config.web.enabled {
        return None;
    }
    let realm = app.realm_name(realm)?;
    let path = match page {
        Linked::Fight(id) => page::fight_path(&realm, id),
        Linked::Tournament(id) => page::tournament_path(&realm, id),
        Linked::Standings => page::realm_path(&realm),
        Linked::Knight(name) => page::knight_path(&realm, name),
    };
    Some(format!("{base}{path}"))
}

/// `line` with the page's link after it when `[web] base_url` is set; `line` as it was
/// otherwise, so chat without a web address reads exactly as before.
pub fn with_link(app: &App, realm: Id, page: Linked<'_>, line: String) -> String {
    match link(app, realm, page) {
        Some(url) => format!("{line} {url}"),
        None => line,
    }
}

/// A line saying where the full page is, when `[web] base_url` is set.
pub fn full_page(app: &App, realm: Id, page: Linked<'_>) -> Option<String> {
    link(app, realm, page).map(|url| format!("The full page: {url}"))
}

/// The site: every page, the JSON under `/api`, the assets, and a 404 page for anything else;
/// every response with the security headers.
pub fn router(app: Arc<App>) -> Router {
    let web = Arc::new(Web {
        app,
        odds: Mutex::new(HashMap::new()),
        standings: Mutex::new(HashMap::new()),
        realms: Mutex::new(HashMap::new()),
        names: Mutex::new(HashMap::new()),
    });
    Router::new()
        .route("/", get(realm::index))
        .route("/r/{realm}", get(realm::standings))
        .route("/r/{realm}/knights/{name}", get(knight::knight))
        .route(
            "/r/{realm}/characters/{game}/{name}",
            get(knight::character),
        )
        .route("/r/{realm}/tournaments", get(tournament::list))
        .route("/r/{realm}/tournaments/{id}", get(tournament::one))
        .route("/r/{realm}/tournaments/{id}/live", get(live::tournament))
        .route("/r/{realm}/fights/{id}", get(fight::replay))
        .route("/r/{realm}/fights/{id}/live", get(live::fight))
        .route("/r/{realm}/odds", get(odds::page))
        .route("/api/realms", get(api::realms))
        .route("/api/r/{realm}/standings", get(api::standings))
        .route("/api/r/{realm}/knights/{name}", get(api::knight))
        .route("/api/r/{realm}/characters", get(api::characters))
        .route("/api/r/{realm}/tournaments", get(api::tournaments))
        .route("/api/r/{realm}/tournaments/{id}", get(api::tournament))
        .route("/api/r/{realm}/fights/{id}", get(api::fight))
        .route("/assets/{file}", get(page::asset))
        .fallback(|| async { Oops::NotFound("page".into()) })
        .layer(axum::middleware::from_fn_with_state(
            web.clone(),
            joined_place,
        ))
        .layer(axum::middleware::map_response(secure))
        .with_state(web)
}

/// A place joined to a named realm (`[realms.NAME]`: an IRC network, a Discord guild's id) has
/// no books of its own: its pages are its realm's, so its URLs move there for good.
async fn joined_place(
    axum::extract::State(web): axum::extract::State<Arc<Web>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match realm_url(&web.app.config, request.uri()) {
        Some(to) => axum::response::Redirect::permanent(&to).into_response(),
        None => next.run(request).await,
    }
}

/// The URL of the same page under the realm's name, when `uri` names a joined place.
fn realm_url(config: &crate::config::Config, uri: &axum::http::Uri) -> Option<String> {
    let path = uri.path();
    let (prefix, rest) = ["/api/r/", "/r/"]
        .iter()
        .find_map(|p| path.strip_prefix(p).map(|rest| (*p, rest)))?;
    let (place, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let realm = config.realm_of(place);
    if place.is_empty() || realm == place {
        return None;
    }
    let mut to = format!("{prefix}{realm}");
    if !tail.is_empty() {
        to.push('/');
        to.push_str(tail);
    }
    if let Some(query) = uri.query() {
        to.push('?');
        to.push_str(query);
    }
    Some(to)
}

async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// Listens on `[web] bind` and serves the site until the process ends; returns the address
/// it listens on. Refuses (with the reason) when the address cannot be had.
pub async fn serve(app: Arc<App>) -> Result<SocketAddr> {
    let bind = app.config.web.bind.clone();
    let listener = tokio::net::TcpListener::bind(&bind)
        .await
        .with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    let site = router(app);
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, site).await {
            tracing::error!("the web server stopped: {e}");
        }
    });
    Ok(addr)
}

/// Why a page is not shown.
#[derive(Debug)]
pub enum Oops {
    /// Nothing of that name: the 404 page, saying what was not found.
    NotFound(String),
    /// The books could not be read.
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for Oops {
    fn from(e: anyhow::Error) -> Oops {
        Oops::Failed(e)
    }
}

impl IntoResponse for Oops {
    fn into_response(self) -> Response {
        match self {
            Oops::NotFound(what) => (
                StatusCode::NOT_FOUND,
                page::layout(
                    "Not found",
                    None,
                    maud::html! {
                        h1 { "Not found" }
                        p { "There is no such " (what) " in the books. " a href="/" { "The realms" } " list what there is." }
                    },
                ),
            )
                .into_response(),
            Oops::Failed(e) => {
                tracing::error!("a web page failed: {e:#}");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    page::layout(
                        "The books are busy",
                        None,
                        maud::html! {
                            h1 { "The books could not be read" }
                            p { "Herald could not read the books just now. Please try again." }
                        },
                    ),
                )
                    .into_response()
            }
        }
    }
}

/// A handler's answer.
pub type Answer = std::result::Result<Response, Oops>;

impl Web {
    /// A page of the realm's standings in `sort` order, from what is kept while the books have
    /// not moved; and how many knights there are.
    async fn standings(
        &self,
        realm: Id,
        sort: Sort,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<StandingRow>, i64)> {
        let now = self.app.spoken();
        let key = (realm, sort, offset, limit);
        let kept = self
            .standings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .filter(|(at, _, _)| *at == now)
            .map(|(_, rows, total)| (rows.clone(), *total));
        if let Some((rows, total)) = kept {
            return Ok((rows.to_vec(), total));
        }
        let (rows, total) = self
            .app
            .store
            .web_standings(realm, sort, offset, limit)
            .await?;
        let mut standings = self.standings.lock().unwrap_or_else(|e| e.into_inner());
        // Pages read before the books last moved are of no more use.
        standings.retain(|_, (at, _, _)| *at == now);
        standings.insert(key, (now, Arc::new(rows.clone()), total));
        Ok((rows, total))
    }

    /// The names the realm's players go by, for a page's owners.
    /// Kept, like the standings, until a channel next speaks.
    async fn names(&self, realm: Id) -> Result<Arc<Names>> {
        let now = self.app.spoken();
        let kept = self
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&realm)
            .filter(|(at, _)| *at == now)
            .map(|(_, names)| names.clone());
        if let Some(names) = kept {
            return Ok(names);
        }
        let names = Arc::new(Names(self.app.store.web_shown_names(realm).await?));
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(realm, (now, names.clone()));
        Ok(names)
    }

    /// The realm's id by name, or the 404. A realm found is kept: the books never remove nor
    /// rename one.
    async fn realm(&self, name: &str) -> std::result::Result<Id, Oops> {
        if let Some(id) = self
            .realms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(*id);
        }
        let id = self
            .app
            .store
            .web_realm(name)
            .await?
            .ok_or_else(|| Oops::NotFound("realm".into()))?;
        self.realms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), id);
        Ok(id)
    }

    /// The realm's id and its tournament, both as the URL names them, or the 404: one check
    /// for the page, its JSON and its live stream.
    async fn tournament(
        &self,
        realm: &str,
        id: &str,
    ) -> std::result::Result<(Id, crate::store::tournaments::TournamentRecord), Oops> {
        let realm = self.realm(realm).await?;
        let id = number(id, "tournament")?;
        let t = self
            .app
            .store
            .tournament(id)
            .await?
            .filter(|t| t.realm == realm)
            .ok_or_else(|| Oops::NotFound("tournament".into()))?;
        Ok((realm, t))
    }
}

/// A tournament's status as the books write it.
fn status_word(status: crate::store::tournaments::Status) -> &'static str {
    use crate::store::tournaments::Status;
    match status {
        Status::Scheduled => "scheduled",
        Status::Running => "running",
        Status::Finished => "finished",
        Status::Cancelled => "cancelled",
    }
}

/// A fight's or tournament's number from its path; anything else is not found.
fn number(text: &str, what: &str) -> std::result::Result<Id, Oops> {
    text.trim_start_matches('#')
        .parse::<Id>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| Oops::NotFound(what.into()))
}

/// The names a realm's players go by where the books key them by an id (Discord's numeric
/// ids, with the nick the transport last saw), read once for a page.
#[derive(Debug, Default)]
pub struct Names(HashMap<String, String>);

impl Names {
    /// The name a page shows for player `user`: the name they go by if the books keep one,
    /// else their nick; never an id nor a hostmask ([`shown_owner`]).
    pub fn of<'a>(&'a self, user: &'a str) -> Option<&'a str> {
        match self.0.get(user) {
            Some(name) => shown_owner(name),
            None => shown_owner(user),
        }
    }
}

/// A player's name as a page may show it: the nick, but never a Discord user id (a number),
/// nor an IRC hostmask's user and host.
pub fn shown_owner(user: &str) -> Option<&str> {
    let nick = user.split('!').next().unwrap_or(user);
    if nick.is_empty() || nick.chars().all(|c| c.is_ascii_digit()) {
        None
    } else {
        Some(nick)
    }
}
