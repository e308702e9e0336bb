//! Live pages: server-sent events for an open fight (`/r/REALM/fights/ID/live?from=N`, each new
//! step as it is played, then `changed` at its end) and a tournament under way
//! (`/r/REALM/tournaments/ID/live`, `changed` whenever its books move). Each stream listens to
//! what the hub says was said ([`crate::app::Said`]) and re-reads the books when the fight's or
//! tournament's channel spoke. A closed connection drops its stream and its subscription.

use super::{fight, Answer, Web};
use axum::extract::{Path, Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use futures::Stream;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Waits until `channel` of `realm` speaks; `false` once no one will speak again.
async fn spoke(rx: &mut crate::app::Listener, realm: &str, channel: &str) -> bool {
    loop {
        match rx.recv().await {
            Ok(said) if said.realm == realm && said.channel == channel => return true,
            Ok(_) => {}
            // Notices were missed: read the books again, in case one was ours.
            Err(RecvError::Lagged(_)) => return true,
            Err(RecvError::Closed) => return false,
        }
    }
}

fn sse(stream: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Answer {
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `/r/REALM/fights/ID/live?from=N`: the steps from N on, as they are played.
pub async fn fight(
    State(web): State<Arc<Web>>,
    Path((realm, id)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let realm_id = web.realm(&realm).await?;
    let f = fight::find(&web, realm_id, &id).await?;
    let from: usize = q.get("from").and_then(|s| s.parse().ok()).unwrap_or(0);
    let rx = web.app.listen();
    let stream = futures::stream::unfold(
        (web, rx, realm, f, from, true, false),
        move |(web, mut rx, realm, f, mut sent, first, done)| async move {
            if done {
                return None;
            }
            // The books are read at once (steps may have come since the page was read), then
            // at each notice.
            if !first && !spoke(&mut rx, &realm, &f.channel).await {
                return None;
            }
            let now = match web.app.store.fight_summary(realm_id, f.id).await {
                Ok(Some(now)) => now,
                _ => return None,
            };
            let mut events = Vec::new();
            if let Ok(told) = fight::tell(&web, &now).await {
                for step in told.steps.iter().skip(sent) {
                    if let Ok(data) = serde_json::to_string(step) {
                        events.push(Ok(Event::default().event("step").data(data)));
                    }
                }
                sent = sent.max(told.steps.len());
            }
            let ended = now.ended_at.is_some();
            if ended {
                events.push(Ok(Event::default().event("changed").data("ended")));
            }
            Some((
                futures::stream::iter(events),
                (web, rx, realm, f, sent, false, ended),
            ))
        },
    );
    sse(futures::StreamExt::flatten(stream))
}

/// `/r/REALM/tournaments/ID/live`: `changed` whenever the tournament's books move.
pub async fn tournament(
    State(web): State<Arc<Web>>,
    Path((realm, id)): Path<(String, String)>,
) -> Answer {
    let (realm_id, t) = web.tournament(&realm, &id).await?;
    let id = t.id;
    let rx = web.app.listen();
    let seen = snapshot(&web, realm_id, id).await;
    let stream = futures::stream::unfold(
        (web, rx, realm, t.channel, seen),
        move |(web, mut rx, realm, channel, seen)| async move {
            loop {
                if !spoke(&mut rx, &realm, &channel).await {
                    return None;
                }
                let now = snapshot(&web, realm_id, id).await;
                if now != seen {
                    let event = Ok(Event::default().event("changed").data("moved"));
                    return Some((event, (web, rx, realm, channel, now)));
                }
            }
        },
    );
    sse(stream)
}

/// What a tournament's page shows that can move: its state and status, its entries, its
/// fights' ends.
async fn snapshot(web: &Web, realm: crate::store::Id, id: crate::store::Id) -> String {
    let t = web.app.store.tournament(id).await.ok().flatten();
    let fights = web
        .app
        .store
        .web_tournament_fights(realm, id)
        .await
        .unwrap_or_default();
    let entrants = web.app.store.web_entrants(id).await.unwrap_or_default();
    format!(
        "{:?}{:?}{:?}{:?}",
        t.map(|t| (t.status, t.state)),
        entrants,
        fights.len(),
        fights.last().map(|f| f.ended_at.clone())
    )
}
