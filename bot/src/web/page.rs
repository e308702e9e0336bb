//! What every page shares: the layout, the addresses of pages, paging, points and times, the
//! embedded assets, and the small SVG charts drawn on the server.

use super::Oops;
use crate::store::Id;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::{html, Markup, DOCTYPE};

const CSS: &str = include_str!("assets/site.css");
const JS: &str = include_str!("assets/site.js");

/// Rows of a table page (standings, ledger).
pub const PAGE_ROWS: i64 = 50;

/// `/assets/FILE`: the style sheet and the script, embedded in the binary.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "site.css" => (CSS, "text/css; charset=utf-8"),
        "site.js" => (JS, "text/javascript; charset=utf-8"),
        _ => return Oops::NotFound("file".into()).into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// A whole page: `title`, the realm's links when in one, and `body`.
pub fn layout(title: &str, realm: Option<&str>, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Herald" }
                link rel="stylesheet" href="/assets/site.css";
                script src="/assets/site.js" defer {}
            }
            body {
                header {
                    a.site href="/" { "Herald" }
                    @if let Some(realm) = realm {
                        a href=(realm_path(realm)) { "Standings of " (realm) }
                        a href=(format!("{}/tournaments", realm_path(realm))) { "Tournaments" }
                        a href=(format!("{}/odds", realm_path(realm))) { "Odds" }
                    }
                }
                main { (body) }
                footer { "Herald keeps the books; these pages only read them." }
            }
        }
    }
}

/// A path segment with everything but the unreserved characters percent-encoded.
pub fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `/r/REALM`.
pub fn realm_path(realm: &str) -> String {
    format!("/r/{}", segment(realm))
}

/// `/r/REALM/knights/NAME`.
pub fn knight_path(realm: &str, name: &str) -> String {
    format!("{}/knights/{}", realm_path(realm), segment(name))
}

/// `/r/REALM/characters/GAME/NAME`.
pub fn character_path(realm: &str, game: &str, name: &str) -> String {
    format!(
        "{}/characters/{}/{}",
        realm_path(realm),
        segment(game),
        segment(name)
    )
}

/// `/r/REALM/fights/ID`.
pub fn fight_path(realm: &str, id: Id) -> String {
    format!("{}/fights/{id}", realm_path(realm))
}

/// `/r/REALM/tournaments/ID`.
pub fn tournament_path(realm: &str, id: Id) -> String {
    format!("{}/tournaments/{id}", realm_path(realm))
}

/// The page number of a `?page=N` (1 when absent or not a number).
pub fn page_number(param: Option<&String>) -> i64 {
    param
        .and_then(|p| p.parse::<i64>().ok())
        .filter(|p| *p >= 1)
        .unwrap_or(1)
}

/// "Page 2 of 7" with links to the pages before and after; `href` makes a page's address.
pub fn pager(page: i64, total: i64, href: impl Fn(i64) -> String) -> Markup {
    let pages = ((total + PAGE_ROWS - 1) / PAGE_ROWS).max(1);
    html! {
        @if pages > 1 {
            nav.pager aria-label="pages" {
                @if page > 1 { a rel="prev" href=(href(page - 1)) { "← Newer / earlier page" } }
                span { "Page " (page) " of " (pages) }
                @if page < pages { a rel="next" href=(href(page + 1)) { "Next page →" } }
            }
        }
    }
}

/// Points with their sign, as the ledger shows them: "+1", "−0.5".
pub fn signed(halves: i64) -> String {
    let p = crate::reply::points(halves);
    if halves >= 0 {
        format!("+{p}")
    } else {
        p
    }
}

/// An RFC 3339 time of the books to the minute, in UTC: "2026-12-01 10:00".
pub fn when(at: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(at) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M UTC")
            .to_string(),
        Err(_) => at.to_string(),
    }
}

/// A line chart of a series (oldest first) as an SVG drawn here: no script needed to see it.
pub fn line_chart(label: &str, points: &[(String, i64)]) -> Markup {
    let (w, h, pad) = (600.0_f64, 200.0_f64, 30.0_f64);
    if points.is_empty() {
        return html! { p.muted { "No " (label) " yet." } };
    }
    let lo = points.iter().map(|p| p.1).min().unwrap_or(0).min(0) as f64;
    let hi = points.iter().map(|p| p.1).max().unwrap_or(0).max(1) as f64;
    let x = |i: usize| {
        if points.len() == 1 {
            w / 2.0
        } else {
            pad + (w - 2.0 * pad) * i as f64 / (points.len() - 1) as f64
        }
    };
    let y = |v: i64| h - pad - (h - 2.0 * pad) * (v as f64 - lo) / (hi - lo);
    let path: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.1)))
        .collect();
    let first = &points[0].0;
    let last = &points[points.len() - 1].0;
    html! {
        svg viewBox=(format!("0 0 {w} {h}")) role="img" aria-label=(label) {
            title { (label) }
            line.axis x1=(pad) y1=(y(0)) x2=(w - pad) y2=(y(0)) stroke-width="1" {}
            polyline points=(path.join(" ")) fill="none" stroke="#b5562f" stroke-width="2" {}
            @for (i, p) in points.iter().enumerate() {
                circle cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(p.1))) r="3" fill="#b5562f" {
                    title { (p.0) ": " (crate::reply::points(p.1)) }
                }
            }
            text x=(pad) y=(h - 8.0) { (first) }
            text x=(w - pad) y=(h - 8.0) text-anchor="end" { (last) }
            text x="2" y=(y(hi as i64) + 4.0) { (crate::reply::points(hi as i64)) }
            text x="2" y=(y(lo as i64) + 4.0) { (crate::reply::points(lo as i64)) }
        }
    }
}

/// A horizontal bar chart of shares (each in 0..=1) as an SVG drawn here.
pub fn bar_chart(label: &str, bars: &[(String, f64)]) -> Markup {
    let (w, row) = (600.0_f64, 34.0_f64);
    let h = row * bars.len() as f64 + 10.0;
    let left = 200.0;
    html! {
        svg viewBox=(format!("0 0 {w} {h}")) role="img" aria-label=(label) {
            title { (label) }
            @for (i, (name, share)) in bars.iter().enumerate() {
                @let top = 5.0 + row * i as f64;
                text x="0" y=(top + 20.0) { (name) }
                rect x=(left) y=(top + 4.0) width=(format!("{:.1}", (w - left - 70.0) * share.clamp(0.0, 1.0))) height="22"
                    fill=(if i % 2 == 0 { "#b5562f" } else { "#2f6cb5" }) {}
                text x=(w - 65.0) y=(top + 20.0) { (format!("{:.1}%", share * 100.0)) }
            }
        }
    }
}
