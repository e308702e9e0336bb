//! Where each channel lives: the place (IRC network, Discord guild id, `local`) a fight or a
//! tournament was made in, recorded beside its channel (`migrations/0011_places.sql`), so a
//! process serving some places of a realm restores only theirs.

use super::{db, Id, Store};
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

    /// Every open fight of `realm` held in `place`, whatever its game, in the order they began:
    /// its number, its game's id and its channel as the books name it, for a restart.
    pub async fn open_fights_in(
        &self,
        realm: Id,
        place: &str,
    ) -> Result<Vec<(Id, String, String)>> {
        let rows = db::query(
            "SELECT id, game, channel FROM fights WHERE realm_id = ? AND ended_at IS NULL \
             AND place = ? ORDER BY id",
        )
        .bind(realm)
        .bind(place)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("game")?, r.try_get("channel")?)))
            .collect()
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
