//! Tournaments in the books: the schedule with its one-a-month rule (R38), entries, reminders,
//! a tournament in progress (the engine's Lists and Melee as JSON) and, at the end, every award in
//! one transaction (R36, R37, with the landed split of R29).
//!
//! A tournament's state is saved whole after each change, and a Lists match's result is saved in
//! the same transaction as the end of the fight that decided it ([`super::FightEnd::tournament`]),
//! so a restart finds the tournament exactly where its last committed fight left it.

use super::db::{self, Row, Tx};
use super::{Id, Store};
use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use herald_engine::psiknight::books::{self, Points};
use herald_engine::psiknight::tournament::{self, Month, ScheduleError, Scheduled};

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Announced; taking entries.
    Scheduled,
    /// Under way: the Lists or the Melee.
    Running,
    /// Over, awards written.
    Finished,
    /// Called off.
    Cancelled,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Scheduled => "scheduled",
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Status {
        match s {
            "scheduled" => Status::Scheduled,
            "running" => Status::Running,
            "finished" => Status::Finished,
            _ => Status::Cancelled,
        }
    }
}

/// A tournament as the books hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    /// Database id.
    pub id: Id,
    /// The realm.
    pub realm: Id,
    /// Its name, as scheduled.
    pub name: String,
    /// The channel it is held in.
    pub channel: String,
    /// The host, as the moderator typed it.
    pub host: Option<String>,
    /// When the Lists begin.
    pub starts_at: DateTime<Utc>,
    /// The realm month of the start (R38).
    pub month: String,
    /// Whether a Melee follows the Lists.
    pub melee: bool,
    /// One remount per knight in the Melee (R37).
    pub remount: bool,
    /// The Melee's time limit.
    pub melee_minutes: u32,
    /// The seed of the Lists draws.
    pub seed: [u8; 32],
    /// Who scheduled it.
    pub scheduled_by: String,
    /// When it was scheduled.
    pub scheduled_at: DateTime<Utc>,
    /// How many tournaments its month already had when a moderator overrode R38.
    pub overrode: Option<i64>,
    /// Where it stands.
    pub status: Status,
    /// The state of a tournament in progress, as the session saved it.
    pub state: Option<String>,
}

/// A tournament to schedule.
#[derive(Clone, Debug)]
pub struct NewTournament<'a> {
    /// The realm.
    pub realm: Id,
    /// Its name.
    pub name: &'a str,
    /// Where it is held.
    pub channel: &'a str,
    /// The host.
    pub host: Option<&'a str>,
    /// When the Lists begin.
    pub starts_at: DateTime<Utc>,
    /// The realm month of the start (R38).
    pub month: Month,
    /// A Melee follows.
    pub melee: bool,
    /// One remount each in the Melee.
    pub remount: bool,
    /// The Melee's time limit.
    pub melee_minutes: u32,
    /// The Lists' dice.
    pub seed: [u8; 32],
    /// The moderator.
    pub by: &'a str,
    /// Now.
    pub at: DateTime<Utc>,
    /// The moderator overrides the one-a-month rule (R38).
    pub force: bool,
}

/// What `/enter` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Entered.
    Entered,
    /// Already entered.
    Already,
    /// The tournament no longer takes entries (it has begun, or is over).
    Closed,
}

/// One award of a tournament to write: whole HP before the landed split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentAward {
    /// The knight.
    pub knight: Id,
    /// Honor Points before the split.
    pub hp: u32,
    /// Why, for the ledger ("Yule Lists: champion").
    pub reason: String,
}

/// A tournament's end, to write in one transaction.
#[derive(Clone, Debug)]
pub struct TournamentFinish {
    /// The realm.
    pub realm: Id,
    /// The tournament.
    pub tournament: Id,
    /// Its final state.
    pub state: String,
    /// Every award.
    pub awards: Vec<TournamentAward>,
    /// The realm month the awards fall in (R25).
    pub month: String,
    /// Now.
    pub at: DateTime<Utc>,
}

/// What an award came to in the ledger, after the landed split (R29).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awarded {
    /// The knight.
    pub knight: Id,
    /// Honor.
    pub hp: Points,
    /// Prestige.
    pub pp: Points,
}

const COLUMNS: &str = "id, realm_id, name, channel, host, starts_at, month, melee, remount, \
    melee_minutes, seed, scheduled_by, scheduled_at, overrode, status, state";

fn record(row: &Row) -> Result<TournamentRecord> {
    let seed_hex: String = row.try_get("seed")?;
    let mut seed = [0u8; 32];
    hex::decode_to_slice(&seed_hex, &mut seed)
        .context("a tournament's seed is not 64 hex digits")?;
    let time = |col: &str| -> Result<DateTime<Utc>> {
        Ok(DateTime::parse_from_rfc3339(&row.try_get::<String, _>(col)?)?.with_timezone(&Utc))
    };
    Ok(TournamentRecord {
        id: row.try_get("id")?,
        realm: row.try_get("realm_id")?,
        name: row.try_get("name")?,
        channel: row.try_get("channel")?,
        host: row.try_get("host")?,
        starts_at: time("starts_at")?,
        month: row.try_get("month")?,
        melee: row.try_get("melee")?,
        remount: row.try_get("remount")?,
        melee_minutes: row.try_get::<i64, _>("melee_minutes")?.clamp(1, 1440) as u32,
        seed,
        scheduled_by: row.try_get("scheduled_by")?,
        scheduled_at: time("scheduled_at")?,
        overrode: row.try_get("overrode")?,
        status: Status::parse(&row.try_get::<String, _>("status")?),
        state: row.try_get("state")?,
    })
}

/// "2026-12" as the engine's [`Month`].
fn parse_month(s: &str) -> Option<Month> {
    let (y, m) = s.split_once('-')?;
    Month::new(y.parse().ok()?, m.parse().ok()?).ok()
}

impl Store {
    /// Schedules a tournament, applying the one-a-month rule inside the transaction (R38): a
    /// month that already has a tournament (not cancelled) is refused unless `force`, and a
    /// forced one records how many it overrode.
    pub async fn schedule_tournament(
        &self,
        t: NewTournament<'_>,
    ) -> Result<Result<(Id, Scheduled), ScheduleError>> {
        let mut tx = self.pool.begin_write().await?;
        let months: Vec<String> = db::query_scalar(
            "SELECT month FROM tournaments WHERE realm_id = ? AND status != 'cancelled'",
        )
        .bind(t.realm)
        .fetch_all(&mut *tx)
        .await?;
        let existing: Vec<Month> = months.iter().filter_map(|m| parse_month(m)).collect();
        let scheduled = match tournament::schedule(&existing, t.month, t.force) {
            Ok(s) => s,
            Err(e) => {
                tx.rollback().await?;
                return Ok(Err(e));
            }
        };
        let overrode = match scheduled {
            Scheduled::Allowed => None,
            Scheduled::Overridden { existing, .. } => Some(existing as i64),
        };
        let id: Id = db::query_scalar(
            "INSERT INTO tournaments (realm_id, name, channel, host, starts_at, month, melee, remount, \
             melee_minutes, seed, scheduled_by, scheduled_at, overrode, status, place) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', \
             COALESCE(?, (SELECT name FROM realms WHERE id = ?))) RETURNING id",
        )
        .bind(t.realm)
        .bind(t.name)
        .bind(t.channel)
        .bind(t.host)
        .bind(t.starts_at.to_rfc3339())
        .bind(t.month.to_string())
        .bind(t.melee)
        .bind(t.remount)
        .bind(i64::from(t.melee_minutes))
        .bind(hex::encode(t.seed))
        .bind(t.by)
        .bind(t.at.to_rfc3339())
        .bind(overrode)
        .bind(self.place_of(t.realm, t.channel))
        .bind(t.realm)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok((id, scheduled)))
    }

    /// The realm's scheduled and running tournaments, soonest first.
    pub async fn active_tournaments(&self, realm: Id) -> Result<Vec<TournamentRecord>> {
        let rows = db::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE realm_id = ? AND status IN ('scheduled', 'running') \
             ORDER BY starts_at, id"
        ))
        .bind(realm)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(record).collect()
    }

    /// One tournament.
    pub async fn tournament(&self, id: Id) -> Result<Option<TournamentRecord>> {
        db::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(record)
            .transpose()
    }

    /// The realm's tournament that began most recently (running or finished), for `/bracket`.
    pub async fn latest_tournament(&self, realm: Id) -> Result<Option<TournamentRecord>> {
        db::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE realm_id = ? AND status IN ('running', 'finished') \
             ORDER BY starts_at DESC, id DESC LIMIT 1"
        ))
        .bind(realm)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(record)
        .transpose()
    }

    /// Calls off a tournament that has not begun; `false` if it had begun or ended meanwhile.
    pub async fn cancel_tournament(&self, id: Id, by: &str, at: DateTime<Utc>) -> Result<bool> {
        let done = db::query(
            "UPDATE tournaments SET status = 'cancelled', ended_at = ?, ended_by = ? \
             WHERE id = ? AND status = 'scheduled'",
        )
        .bind(at.to_rfc3339())
        .bind(by)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Enters a knight, if the tournament still takes entries (checked inside the transaction).
    pub async fn enter_tournament(
        &self,
        id: Id,
        knight: Id,
        user: &str,
        at: DateTime<Utc>,
    ) -> Result<Entry> {
        let mut tx = self.pool.begin_write().await?;
        let status: Option<String> =
            db::query_scalar("SELECT status FROM tournaments WHERE id = ?")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if status.as_deref() != Some(Status::Scheduled.name()) {
            tx.rollback().await?;
            return Ok(Entry::Closed);
        }
        let done = db::query(
            "INSERT INTO tournament_entries (tournament_id, knight_id, user_name, at) VALUES (?, ?, ?, ?) \
             ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(knight)
        .bind(user)
        .bind(at.to_rfc3339())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(if done.rows_affected() == 1 {
            Entry::Entered
        } else {
            Entry::Already
        })
    }

    /// Withdraws a knight before the start; `false` if they were not entered or it has begun.
    pub async fn withdraw_from_tournament(&self, id: Id, knight: Id) -> Result<bool> {
        let done = db::query(
            "DELETE FROM tournament_entries WHERE tournament_id = ?1 AND knight_id = ?2 \
             AND (SELECT status FROM tournaments WHERE id = ?1) = 'scheduled'",
        )
        .bind(id)
        .bind(knight)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The knights entered, in the order they entered.
    pub async fn tournament_entries(&self, id: Id) -> Result<Vec<Id>> {
        Ok(db::query_scalar(
            "SELECT knight_id FROM tournament_entries WHERE tournament_id = ? ORDER BY at, rowid",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The reminders already said, as seconds before the start.
    pub async fn reminders_sent(&self, id: Id) -> Result<Vec<u64>> {
        let leads: Vec<i64> =
            db::query_scalar("SELECT lead_secs FROM tournament_reminders WHERE tournament_id = ?")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        Ok(leads.into_iter().map(|l| l.max(0) as u64).collect())
    }

    /// Claims reminders before they are said; returns those this call claimed (a reminder
    /// claimed before, by this process or an earlier one, is not claimed again).
    pub async fn claim_reminders(
        &self,
        id: Id,
        leads: &[u64],
        at: DateTime<Utc>,
    ) -> Result<Vec<u64>> {
        let mut tx = self.pool.begin_write().await?;
        let mut claimed = Vec::new();
        for &lead in leads {
            let done = db::query(
                "INSERT INTO tournament_reminders (tournament_id, lead_secs, sent_at) VALUES (?, ?, ?) \
                 ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(i64::try_from(lead).unwrap_or(i64::MAX))
            .bind(at.to_rfc3339())
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                claimed.push(lead);
            }
        }
        tx.commit().await?;
        Ok(claimed)
    }

    /// Begins a scheduled tournament with its first state; `false` if it was no longer scheduled.
    pub async fn begin_tournament(&self, id: Id, state: &str) -> Result<bool> {
        let done = db::query(
            "UPDATE tournaments SET status = 'running', state = ? WHERE id = ? AND status = 'scheduled'",
        )
        .bind(state)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Calls off a scheduled tournament that cannot be held (too few entrants), saying why.
    pub async fn call_off_tournament(&self, id: Id, why: &str, at: DateTime<Utc>) -> Result<()> {
        db::query(
            "UPDATE tournaments SET status = 'cancelled', ended_at = ?, ended_by = ? WHERE id = ?",
        )
        .bind(at.to_rfc3339())
        .bind(why)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Saves the state of a tournament in progress.
    pub async fn save_tournament(&self, id: Id, state: &str) -> Result<()> {
        db::query("UPDATE tournaments SET state = ? WHERE id = ? AND status = 'running'")
            .bind(state)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a tournament: its final state and every award, one transaction. Each award is one
    /// ledger entry of kind `tournament` naming the tournament, split when the knight is landed
    /// (R29). Returns the awards as written, in order.
    pub async fn finish_tournament(&self, fin: &TournamentFinish) -> Result<Vec<Awarded>> {
        let mut tx = self.pool.begin_write().await?;
        let awarded = Self::finish_tournament_in(&mut tx, fin).await?;
        tx.commit().await?;
        Ok(awarded)
    }

    /// [`Store::finish_tournament`] inside a transaction already open (a fight's end).
    pub(super) async fn finish_tournament_in(
        tx: &mut Tx<'_>,
        fin: &TournamentFinish,
    ) -> Result<Vec<Awarded>> {
        let at = fin.at.to_rfc3339();
        let done = db::query(
            "UPDATE tournaments SET status = 'finished', state = ?, ended_at = ? WHERE id = ? AND status = 'running'",
        )
        .bind(&fin.state)
        .bind(&at)
        .bind(fin.tournament)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            anyhow::bail!("tournament #{} is not running", fin.tournament);
        }
        let mut awarded = Vec::with_capacity(fin.awards.len());
        for a in &fin.awards {
            let landed: bool = db::query_scalar("SELECT landed FROM knights WHERE id = ?")
                .bind(a.knight)
                .fetch_one(&mut *tx)
                .await?;
            let split = books::award(Points::whole(a.hp.into()), landed);
            db::query(
                "INSERT INTO ledger (realm_id, knight_id, hp_halves, pp_halves, kind, reason, tournament_id, month, at) \
                 VALUES (?, ?, ?, ?, 'tournament', ?, ?, ?, ?)",
            )
            .bind(fin.realm)
            .bind(a.knight)
            .bind(split.hp.halves())
            .bind(split.pp.halves())
            .bind(&a.reason)
            .bind(fin.tournament)
            .bind(&fin.month)
            .bind(&at)
            .execute(&mut *tx)
            .await?;
            awarded.push(Awarded {
                knight: a.knight,
                hp: split.hp,
                pp: split.pp,
            });
        }
        Ok(awarded)
    }

    /// Saves a tournament's state inside a transaction already open (a fight's end).
    pub(super) async fn save_tournament_in(tx: &mut Tx<'_>, id: Id, state: &str) -> Result<()> {
        db::query("UPDATE tournaments SET state = ? WHERE id = ? AND status = 'running'")
            .bind(state)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        Ok(())
    }
}
