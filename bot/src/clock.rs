//! Time as an input: the sessions never read a clock, they are told `now`.
//!
//! Live, time follows tokio's clock (so tests can pause and advance it); in a transcript it is
//! whatever `@clock` and `@wait` say.

use chrono::{DateTime, Utc};
use std::sync::Mutex;

/// Where `now` comes from.
#[derive(Debug)]
pub enum Clock {
    /// Set by hand: `@clock` and `@wait` in transcripts.
    Manual(Mutex<DateTime<Utc>>),
    /// The wall clock at start-up, advanced by tokio's monotonic clock.
    Tokio {
        /// The wall-clock time at `start`.
        base: DateTime<Utc>,
        /// tokio's instant at start-up.
        start: tokio::time::Instant,
    },
}

impl Clock {
    /// A clock that follows tokio's time from the current wall-clock time.
    pub fn live() -> Clock {
        Clock::Tokio {
            base: Utc::now(),
            start: tokio::time::Instant::now(),
        }
    }

    /// A clock set by hand, starting at `at`.
    pub fn manual(at: DateTime<Utc>) -> Clock {
        Clock::Manual(Mutex::new(at))
    }

    /// The time now.
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::Manual(t) => *t.lock().unwrap_or_else(|e| e.into_inner()),
            Clock::Tokio { base, start } => {
                let elapsed = tokio::time::Instant::now().saturating_duration_since(*start);
                *base + chrono::Duration::from_std(elapsed).unwrap_or(chrono::TimeDelta::MAX)
            }
        }
    }

    /// Sets a manual clock; a live clock cannot be set.
    pub fn set(&self, at: DateTime<Utc>) {
        if let Clock::Manual(t) = self {
            *t.lock().unwrap_or_else(|e| e.into_inner()) = at;
        }
    }

    /// The tokio instant at which a live clock reads `at`; `None` for a manual clock.
    pub fn instant_at(&self, at: DateTime<Utc>) -> Option<tokio::time::Instant> {
        match self {
            Clock::Manual(_) => None,
            Clock::Tokio { base, start } => {
                let offset = (at - *base).to_std().unwrap_or_default();
                Some(*start + offset)
            }
        }
    }
}
