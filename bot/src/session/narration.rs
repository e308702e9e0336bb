//! A channel's narration (see [`crate::narration`]): which one it is and `/narration`; the
//! channel's game is told it before each command, and tells its fights so.

use super::{Lines, Session};
use crate::app::Rights;
use crate::narration::Narration;
use anyhow::Result;
use chrono::{DateTime, Utc};

impl Session {
    /// The session with `default` as its narration when neither a moderator nor the
    /// configuration chose one (the transport's).
    pub fn with_narration(mut self, default: Narration) -> Session {
        self.narration_default = default;
        self
    }

    /// How this channel's fights are told: a moderator's choice, the configuration's, else the
    /// transport's.
    pub(super) async fn narration(&mut self) -> Result<Narration> {
        if let Some(n) = self.narration {
            return Ok(n);
        }
        let chosen = self
            .app
            .store
            .channel_narration(self.realm, &self.channel)
            .await?;
        let n = chosen
            .or_else(|| self.app.config.narration.of(&self.channel))
            .unwrap_or(self.narration_default);
        self.narration = Some(n);
        Ok(n)
    }

    /// `/narration [compact|full]`: how the channel's fights are told, or a moderator's change
    /// of it, remembered in the books and in force from the next line said, a fight under way
    /// included.
    pub(super) async fn set_narration(
        &mut self,
        user: &str,
        rights: Rights,
        wanted: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Lines> {
        let current = self.narration().await?;
        let Some(wanted) = wanted else {
            return Ok(vec![format!(
                "{} tells fights {}: {}. A moderator switches it with /narration compact or /narration full.",
                self.channel,
                current.word(),
                describe(current)
            )]);
        };
        if !(rights.moderator || self.app.permissions(self.realm).is_moderator(user)) {
            return Ok(vec![format!(
                "Only a moderator may change how {} tells fights; it tells them {}.",
                self.channel,
                current.word()
            )]);
        }
        let Some(n) = Narration::from_word(wanted) else {
            return Ok(vec![format!(
                "'{}' is not a narration; say /narration compact (a step a line) or /narration full (an event a line).",
                wanted.trim()
            )]);
        };
        self.app
            .store
            .set_channel_narration(self.realm, &self.channel, n, user, now)
            .await?;
        self.narration = Some(n);
        if let Some(t) = &mut self.table {
            t.set_narration(n);
        }
        Ok(vec![format!(
            "{} now tells fights {}: {}.",
            self.channel,
            n.word(),
            describe(n)
        )])
    }
}

fn describe(n: Narration) -> &'static str {
    match n {
        Narration::Compact => "a step in one line, with the prompt it leads to",
        Narration::Full => "a line for each event and each prompt",
    }
}
