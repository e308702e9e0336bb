//! A moderator's choice of a channel's narration (`/narration`), kept in `channel_narration`.

use super::{db, Id, Store};
use crate::narration::Narration;
use anyhow::Result;
use chrono::{DateTime, Utc};

impl Store {
    /// The narration a moderator chose for a channel, if one did.
    pub async fn channel_narration(&self, realm: Id, channel: &str) -> Result<Option<Narration>> {
        let word: Option<String> = db::query_scalar(
            "SELECT narration FROM channel_narration WHERE realm_id = ? AND channel = ?",
        )
        .bind(realm)
        .bind(channel)
        .fetch_optional(self.db())
        .await?;
        Ok(word.as_deref().and_then(Narration::from_word))
    }

    /// Remembers a moderator's choice of a channel's narration.
    pub async fn set_channel_narration(
        &self,
        realm: Id,
        channel: &str,
        narration: Narration,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        db::query(
            "INSERT INTO channel_narration (realm_id, channel, narration, set_by, at) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (realm_id, channel) DO UPDATE SET \
             narration = excluded.narration, set_by = excluded.set_by, at = excluded.at",
        )
        .bind(realm)
        .bind(channel)
        .bind(narration.word())
        .bind(by)
        .bind(at.to_rfc3339())
        .execute(self.db())
        .await?;
        Ok(())
    }
}
