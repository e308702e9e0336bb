//! Where each channel lives: the place (IRC network, Discord guild id, `local`) a fight or a
//! tournament was made in, recorded beside its channel (`migrations/0011_places.sql`), so a
//! process serving some places of a realm restores only theirs.

use super::{db, Id, Step, Store};
use anyhow::Result;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The places of the channels this process has opened, by realm and channel as the books name
/// it; the hub tells it as it opens a channel's session, so the store's writes record the place
/// without every caller carrying it.
#[derive(Clone, Debug, Default)]
pub struct Places(Arc<Mutex<HashMap<(Id, String), String>>>);

impl Places {
    fn get(&self, realm: Id, channel: &str) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(realm, channel.to_string()))
            .cloned()
    }
}

/// An open fight as a restart reads it: its number, its game's id, its channel as the books
/// name it, and its steps (decisions as JSON text, for its game's type to decode).
#[derive(Clone, Debug)]
pub struct OpenLogged {
    /// The fight's number.
    pub id: Id,
    /// Its game's id.
    pub game: String,
    /// Its channel, as the books name it.
    pub channel: String,
    /// Every step so far, in order.
    pub steps: Vec<Step<String>>,
}

impl Store {
    /// Records that `channel` of `realm` lives in `place`, for the fights and tournaments made
    /// there from now on.
    pub fn locate(&self, realm: Id, channel: &str, place: &str) {
        self.places
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((realm, channel.to_string()), place.to_string());
    }

    /// The place of `channel` of `realm`, as told by [`Store::locate`]; `None` for a channel
    /// not opened here, which the books then record as the realm's own place (its name).
    pub fn place_of(&self, realm: Id, channel: &str) -> Option<String> {
        self.places.get(realm, channel)
    }

    /// Every open fight of `realm` held in `place`, whatever its game, in the order they began,
    /// with its steps, for a restart: one read of the fights and one of the log from the
    /// earliest open fight's start (the log has no index by fight: read fight by fight, each
    /// would read on to the log's end).
    pub async fn open_fights_in(&self, realm: Id, place: &str) -> Result<Vec<OpenLogged>> {
        let rows = db::query(
            "SELECT id, game, channel, first_step FROM fights WHERE realm_id = ? \
             AND ended_at IS NULL AND place = ? ORDER BY id",
        )
        .bind(realm)
        .bind(place)
        .fetch_all(self.db())
        .await?;
        let mut fights = Vec::with_capacity(rows.len());
        let mut from: Option<Id> = None;
        for r in &rows {
            let first: Option<Id> = r.try_get("first_step")?;
            from = match (from, first) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            fights.push(OpenLogged {
                id: r.try_get("id")?,
                game: r.try_get("game")?,
                channel: r.try_get("channel")?,
                steps: Vec::new(),
            });
        }
        let Some(from) = from else {
            return Ok(fights);
        };
        let mut logged: HashMap<Id, Vec<(i64, Step<String>)>> =
            fights.iter().map(|f| (f.id, Vec::new())).collect();
        // The log from there on also holds the steps of fights since ended, left out.
        let rows = db::query(
            "SELECT fight_id, seq, side, decision, rolls, at FROM fight_steps WHERE id >= ? \
             ORDER BY id",
        )
        .bind(from)
        .fetch_all(self.db())
        .await?;
        for row in &rows {
            if let Some(steps) = logged.get_mut(&row.try_get("fight_id")?) {
                steps.push(super::games::raw_step(row)?);
            }
        }
        for f in &mut fights {
            f.steps = super::in_order(f.id, logged.remove(&f.id).unwrap_or_default())?;
        }
        Ok(fights)
    }

    /// The channel of every open fight of `realm` held in `place`, whatever its game, in the
    /// books' names of the channels, each once.
    pub async fn open_fight_channels(&self, realm: Id, place: &str) -> Result<Vec<String>> {
        Ok(db::query_scalar(
            "SELECT DISTINCT channel FROM fights WHERE realm_id = ? AND ended_at IS NULL \
             AND place = ? ORDER BY channel",
        )
        .bind(realm)
        .bind(place)
        .fetch_all(self.db())
        .await?)
    }

    /// The place of every scheduled or running tournament of `realm`, by tournament id.
    pub async fn tournament_places(&self, realm: Id) -> Result<HashMap<Id, String>> {
        let rows = db::query(
            "SELECT id, place FROM tournaments WHERE realm_id = ? \
             AND status IN ('scheduled', 'running')",
        )
        .bind(realm)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("place")?)))
            .collect()
    }
}
