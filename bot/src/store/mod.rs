//! Storage: the books in SQLite through sqlx. Every function here is typed (rows become domain
//! values), binds its parameters, and every change that belongs together is one transaction.
//! The schema lives in `migrations/`, applied at start-up.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use db::{Conn, Db, Row, Tx};
use herald_engine::psiknight::books::{self as rules, Points};
use herald_engine::psiknight::{
    Decision, KnightSheet, MatchKind, MatchSetup, Monarch, Outcome, PsiSkill, Rank, Side, Skill,
    Style,
};
use serde::{Deserialize, Serialize};
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;
use thiserror::Error;
pub mod books;
pub mod db;
pub mod engaged;
pub mod games;
pub mod history;
pub mod links;
pub mod narration;
pub mod places;
pub use places::OpenLogged;
pub mod sums;
pub mod tournaments;
pub mod web;

/// A database id.
pub type Id = i64;

/// Why a change to the books was refused by the database itself.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A knight of that name already exists in the realm (R3).
    #[error("there is already a knight named {0} in this realm")]
    NameTaken(String),
    /// The player already has a knight.
    #[error("you already have a knight, {0}; a player has one knight at a time")]
    HasKnight(String),
    /// Anything else: logged in full, shown to players as a short apology.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A knight as the books hold it.
#[derive(Clone, Debug, PartialEq)]
pub struct KnightRecord {
    /// Database id.
    pub id: Id,
    /// The player who owns it.
    pub owner: String,
    /// Name, style, monarch and skills.
    pub sheet: KnightSheet,
    /// Whether the knight holds a grant of land.
    pub landed: bool,
    /// Title.
    pub rank: Rank,
}

impl KnightRecord {
    /// "Sir Alan", "Baroness Brenna".
    pub fn styled(&self) -> String {
        format!("{} {}", self.rank.title(self.sheet.style), self.sheet.name)
    }
}

/// How a knight left the lists (R33's death of a captive, R155's retirement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gone {
    /// Put to death; when (RFC 3339).
    Killed(String),
    /// Retired by an admin; when (RFC 3339), if the books say.
    Retired(Option<String>),
}

/// Honor and Prestige, in half points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Balance {
    /// Honor Points ×2.
    pub hp_halves: i64,
    /// Prestige Points ×2.
    pub pp_halves: i64,
}

/// A fight still in progress, as needed to restore it.
#[derive(Clone, Debug)]
pub struct OpenFight {
    /// Database id.
    pub id: Id,
    /// Where it is fought.
    pub channel: String,
    /// The knights' ids, challenger first.
    pub knights: [Id; 2],
    /// The players, challenger first.
    pub users: [String; 2],
    /// What it started from.
    pub setup: MatchSetup,
    /// The seed of its dice.
    pub seed: [u8; 32],
    /// Whether it counts as the pair's practice fight of the day.
    pub recorded: bool,
    /// Whether it is fought for ransom (R33, R39).
    pub ransom: bool,
    /// Every step so far.
    pub steps: Vec<Step>,
    /// The tournament it is a match of, if any.
    pub tournament: Option<Id>,
}

/// One input of a fight and the dice it consumed. `D` is the game's decision; the log holds it as
/// JSON text ([`Step::encoded`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step<D = Decision> {
    /// Who decided; `None` for the start.
    pub side: Option<Side>,
    /// What; `None` for the start.
    pub decision: Option<D>,
    /// Each die consumed: its value, and whether it came from a script (`@dice`) rather than the seed.
    pub rolls: Vec<(u32, bool)>,
    /// When.
    pub at: DateTime<Utc>,
}

impl<D: Serialize> Step<D> {
    /// The step as the log holds it: the decision as JSON text.
    pub fn encoded(&self) -> Result<Step<String>> {
        Ok(Step {
            side: self.side,
            decision: self
                .decision
                .as_ref()
                .map(serde_json::to_string)
                .transpose()?,
            rolls: self.rolls.clone(),
            at: self.at,
        })
    }
}

impl Step<String> {
    /// The step with its decision read back as the game's type.
    pub fn decoded<D: serde::de::DeserializeOwned>(&self) -> Result<Step<D>> {
        Ok(Step {
            side: self.side,
            decision: self
                .decision
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .context("a fight step's decision does not parse")?,
            rolls: self.rolls.clone(),
            at: self.at,
        })
    }
}

/// A new fight to record.
pub struct NewFight<'a> {
    /// Which realm.
    pub realm: Id,
    /// Which channel.
    pub channel: &'a str,
    /// The knights' ids, challenger first.
    pub knights: [Id; 2],
    /// The players, challenger first.
    pub users: [&'a str; 2],
    /// The setup.
    pub setup: &'a MatchSetup,
    /// The seed.
    pub seed: [u8; 32],
    /// The realm day (YYYY-MM-DD) it starts on, for the practice record (R25, R26).
    pub day: &'a str,
    /// When.
    pub at: DateTime<Utc>,
    /// The tournament it is a match of, if any.
    pub tournament: Option<Id>,
    /// Whether it is fought for ransom (R33, R39, R156): recorded with the fight, in its start's
    /// transaction.
    pub ransom: bool,
}

/// The storage handle: a pool of SQLite or PostgreSQL connections, and the writer that commits
/// fight steps from every channel in shared transactions.
#[derive(Clone, Debug)]
pub struct Store {
    pool: Db,
    writes: tokio::sync::mpsc::Sender<Write>,
    /// Where the channels opened here live.
    places: places::Places,
    /// The accounts speakers were lately read to play as.
    links: links::LinkCache,
    /// PostgreSQL's listener for other processes' links, kept while any clone of the store is.
    listening: Option<std::sync::Arc<links::Listening>>,
}

/// A fight step waiting for the book writer.
#[derive(Debug)]
struct StepWrite {
    fight: Id,
    seq: i64,
    step: Step<String>,
    done: tokio::sync::oneshot::Sender<Result<(), String>>,
}

/// What the book writer commits.
#[derive(Debug)]
enum Write {
    Step(StepWrite),
    /// Fight ends, in one transaction ([`Store::finish_fights`]).
    Ends(
        Vec<FightEnd>,
        tokio::sync::oneshot::Sender<Result<Vec<FightAward>, String>>,
    ),
    /// The knights' sums brought up to date ([`Store::fold_sums`]): readers that ask at once
    /// share one fold, made by the one writer, so none waits on another's lock.
    Fold(tokio::sync::oneshot::Sender<Result<(), String>>),
}

impl Write {
    /// The fight ends this write carries, in order.
    fn ends(&self) -> &[FightEnd] {
        match self {
            Write::Step(_) | Write::Fold(_) => &[],
            Write::Ends(ends, _) => ends,
        }
    }
}

/// The end of a fight, to write.
#[derive(Clone, Debug)]
pub struct FightEnd {
    /// Which realm.
    pub realm: Id,
    /// Which fight.
    pub fight: Id,
    /// The number of the last step.
    pub seq: i64,
    /// The last step.
    pub last: Step,
    /// The engine's outcome.
    pub outcome: Outcome,
    /// The winner's knight id.
    pub winner: Option<Id>,
    /// Whether it is a practice fight (the only kind that earns practice Honor).
    pub practice: bool,
    /// Whether it is the pair's recorded practice fight of the day (R26).
    pub recorded: bool,
    /// Knights out for the rest of the day with a major injury (R12).
    pub injured: Vec<Id>,
    /// The realm day it ends on (R25).
    pub day: String,
    /// The realm month it ends in (R25, R125).
    pub month: String,
    /// For a tournament's fight: the tournament and its state with this fight's result, saved
    /// in the same transaction so a restart never refights a decided match.
    pub tournament: Option<(Id, String)>,
}

/// The Honor a finished fight brought.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FightAward {
    /// The winner earned this (split when landed, R29).
    Awarded {
        /// The winner.
        knight: Id,
        /// Honor.
        hp: Points,
        /// Prestige.
        pp: Points,
    },
    /// The winner already had the month's four practice awards (R28).
    MonthlyLimit {
        /// The winner.
        knight: Id,
    },
    /// The pair's practice fight of the day was already recorded (R26).
    NotRecorded,
    /// A draw earns nothing (R28).
    Draw,
    /// Not a practice fight: its Honor is the tournament's business.
    None,
}

/// The most writes committed in one transaction. Under load, batches this small commit one after
/// another while the sessions whose writes wait for the next one go on with their work, instead
/// of every session waiting on one large commit.
const STEP_BATCH: usize = 64;

/// The most parameters SQLite binds in one statement (`SQLITE_MAX_VARIABLE_NUMBER`).
const MAX_BINDS: usize = 32_766;

/// A multi-row statement over `rows`, split so that no statement binds more than SQLite allows:
/// each chunk of rows with its SQL, made by `sql` from the chunk's VALUES list
/// ("(?, ?), (?, ?)"), for rows of `per_row` parameters each.
fn values_chunks<'a, T>(
    rows: &'a [T],
    per_row: usize,
    sql: impl Fn(&str) -> String + 'a,
) -> impl Iterator<Item = (String, &'a [T])> + 'a {
    let per_row = per_row.max(1);
    let row = format!("({})", vec!["?"; per_row].join(", "));
    rows.chunks((MAX_BINDS / per_row).max(1)).map(move |chunk| {
        let mut values = String::with_capacity(chunk.len() * (row.len() + 2));
        for i in 0..chunk.len() {
            if i > 0 {
                values.push_str(", ");
            }
            values.push_str(&row);
        }
        (sql(&values), chunk)
    })
}

/// Executes a multi-row statement over `rows` (see [`values_chunks`]), each row's parameters
/// bound by `bind`. Returns the first column of the last row a `RETURNING` clause returns.
async fn execute_values<T>(
    tx: &mut Tx<'_>,
    rows: &[T],
    per_row: usize,
    sql: impl Fn(&str) -> String,
    bind: impl for<'q> Fn(db::Query<'q>, &'q T) -> Result<db::Query<'q>>,
) -> Result<Id> {
    let mut last = 0;
    for (sql, chunk) in values_chunks(rows, per_row, sql) {
        let mut query = db::query(&sql);
        for row in chunk {
            query = bind(query, row)?;
        }
        if let Some(row) = query.fetch_all(&mut *tx).await?.last() {
            last = row.try_get(0)?;
        }
    }
    Ok(last)
}

/// Writes a batch in one transaction: every step with one statement, then every fight's end
/// with a few statements for the whole batch. Returns the fight ends' awards, in order.
async fn write_batch(conn: &mut Conn, batch: &[Write], fold: bool) -> Result<Vec<FightAward>> {
    let mut tx = conn.begin().await?;
    if batch.iter().any(|w| !w.ends().is_empty()) {
        // The awards read the month's count and write the ledger: one writer of the books.
        tx.lock_books().await?;
    }
    // Every step of the batch, a fight's last one included, goes in with one statement.
    let lasts = batch
        .iter()
        .flat_map(Write::ends)
        .map(|end| end.last.encoded())
        .collect::<Result<Vec<_>>>()?;
    let mut lasts = lasts.iter();
    let mut steps: Vec<(Id, i64, &Step<String>)> = Vec::with_capacity(batch.len());
    let mut ends: Vec<&FightEnd> = Vec::new();
    for w in batch {
        if let Write::Step(s) = w {
            steps.push((s.fight, s.seq, &s.step));
        }
        for (end, last) in w.ends().iter().zip(lasts.by_ref()) {
            steps.push((end.fight, end.seq, last));
            ends.push(end);
        }
    }
    if !steps.is_empty() {
        append_steps(&mut tx, &steps).await?;
    }
    let awards = finish_all(&mut tx, &ends).await?;
    for end in &ends {
        if let Some((id, state)) = &end.tournament {
            Store::save_tournament_in(&mut tx, *id, state).await?;
        }
    }
    if fold {
        sums::fold(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(awards)
}

/// Appends steps to the log with one statement (more only past SQLite's limit on parameters):
/// one round trip to SQLite. Returns the log id of the last step appended.
async fn insert_steps(tx: &mut Tx<'_>, batch: &[(Id, i64, &Step<String>)]) -> Result<Id> {
    execute_values(
        tx,
        batch,
        6,
        |values| {
            format!(
                "INSERT INTO fight_steps (fight_id, seq, side, decision, rolls, at) VALUES {values} \
                 RETURNING id"
            )
        },
        bind_step,
    )
    .await
}

/// As [`insert_steps`], for the book writer's batches, which need no id back: a `RETURNING`
/// clause would hand every appended row back across to the writer, one by one.
async fn append_steps(tx: &mut Tx<'_>, batch: &[(Id, i64, &Step<String>)]) -> Result<()> {
    execute_values(
        tx,
        batch,
        6,
        |values| {
            format!(
                "INSERT INTO fight_steps (fight_id, seq, side, decision, rolls, at) VALUES {values}"
            )
        },
        bind_step,
    )
    .await
    .map(|_| ())
}

/// A step's parameters, as [`insert_steps`] and [`append_steps`] write them.
fn bind_step<'q>(
    query: db::Query<'q>,
    &(fight, seq, step): &'q (Id, i64, &Step<String>),
) -> Result<db::Query<'q>> {
    Ok(query
        .bind(fight)
        .bind(seq)
        .bind(step.side.map(side_name))
        .bind(step.decision.as_deref())
        .bind(serde_json::to_string(&step.rolls)?)
        .bind(step.at.to_rfc3339()))
}

/// A winner's practice standing in a month: whether landed, and the practice awards already
/// paid (R28, R29).
struct Standing {
    landed: bool,
    had: i64,
}

/// The ends of a batch of fights inside the writer's transaction (their last steps are inserted
/// with the batch's other steps): outcomes, major injuries (R12) and practice Honor (R26–R29),
/// each kind with one statement for the whole batch. The awards are counted in batch order, so
/// two wins of one knight in one batch count each other, exactly as if ended one by one.
async fn finish_all(tx: &mut Tx<'_>, ends: &[&FightEnd]) -> Result<Vec<FightAward>> {
    if ends.is_empty() {
        return Ok(Vec::new());
    }
    // The outcomes. A fight already ended keeps its first end, as one by one.
    let mut ended = std::collections::HashSet::with_capacity(ends.len());
    let mut outcomes = Vec::with_capacity(ends.len());
    for end in ends {
        if !ended.insert(end.fight) {
            continue;
        }
        let reason = serde_json::to_value(end.outcome.reason)?;
        outcomes.push((
            end.fight,
            end.last.at.to_rfc3339(),
            end.winner,
            reason.as_str().unwrap_or_default().to_string(),
            serde_json::to_string(&end.outcome)?,
            end.seq + 1,
        ));
    }
    execute_values(
        tx,
        &outcomes,
        6,
        |values| {
            format!(
                "UPDATE fights SET ended_at = v.column2, winner_id = v.column3, reason = v.column4, \
                 outcome = v.column5, steps = v.column6 FROM (VALUES {values}) AS v \
                 WHERE fights.id = v.column1 AND fights.ended_at IS NULL"
            )
        },
        |query, (fight, at, winner, reason, outcome, steps)| {
            Ok(query
                .bind(fight)
                .bind(at)
                .bind(winner)
                .bind(reason)
                .bind(outcome)
                .bind(steps))
        },
    )
    .await?;

    // Major injuries (R12): the first fight to injure a knight on a day is the one recorded.
    let injuries: Vec<(Id, &str, Id)> = ends
        .iter()
        .flat_map(|end| {
            end.injured
                .iter()
                .map(|&k| (k, end.day.as_str(), end.fight))
        })
        .collect();
    execute_values(
        tx,
        &injuries,
        3,
        |values| {
            format!(
                "INSERT INTO major_injuries (knight_id, day, fight_id) VALUES {values} \
                 ON CONFLICT DO NOTHING"
            )
        },
        |query, &(knight, day, fight)| Ok(query.bind(knight).bind(day).bind(fight)),
    )
    .await?;

    // The practice standing of every winner who may earn Honor, per month (R28, R29).
    let mut keys: Vec<(Id, &str)> = Vec::new();
    for end in ends {
        if let (true, Some(winner), true) = (end.practice, end.winner, end.recorded) {
            let key = (winner, end.month.as_str());
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let mut standings: std::collections::HashMap<(Id, String), Standing> =
        std::collections::HashMap::with_capacity(keys.len());
    let statements = values_chunks(&keys, 2, |values| {
        format!(
            "SELECT v.column1 AS knight, v.column2 AS month, k.landed AS landed, \
             (SELECT COUNT(*) FROM ledger l WHERE l.knight_id = v.column1 AND l.month = v.column2 \
             AND l.kind = 'practice' AND l.revokes IS NULL) AS had \
             FROM (VALUES {values}) AS v JOIN knights k ON k.id = v.column1"
        )
    });
    for (sql, chunk) in statements {
        let mut query = db::query(&sql);
        for &(knight, month) in chunk {
            query = query.bind(knight).bind(month);
        }
        for row in query.fetch_all(&mut *tx).await? {
            standings.insert(
                (row.try_get("knight")?, row.try_get("month")?),
                Standing {
                    landed: row.try_get("landed")?,
                    had: row.try_get("had")?,
                },
            );
        }
    }

    // The awards, in batch order; each award paid counts against the next (R28).
    let mut awards = Vec::with_capacity(ends.len());
    let mut ledger = Vec::new();
    for end in ends {
        if !end.practice {
            awards.push(FightAward::None);
            continue;
        }
        let (Some(winner), true) = (end.winner, end.recorded) else {
            awards.push(if end.winner.is_none() {
                FightAward::Draw
            } else {
                FightAward::NotRecorded
            });
            continue;
        };
        let standing = standings
            .get_mut(&(winner, end.month.clone()))
            .with_context(|| format!("there is no knight #{winner}"))?;
        let had = u32::try_from(standing.had).unwrap_or(u32::MAX);
        match rules::practice_award(had, standing.landed) {
            Ok(award) => {
                standing.had += 1;
                ledger.push((end, winner, award.hp.halves(), award.pp.halves()));
                awards.push(FightAward::Awarded {
                    knight: winner,
                    hp: award.hp,
                    pp: award.pp,
                });
            }
            Err(rules::PracticeRefusal::MonthlyLimit) => {
                awards.push(FightAward::MonthlyLimit { knight: winner });
            }
        }
    }
    execute_values(
        tx,
        &ledger,
        9,
        |values| {
            format!(
                "INSERT INTO ledger (realm_id, knight_id, hp_halves, pp_halves, kind, reason, \
                 fight_id, month, at) VALUES {values}"
            )
        },
        |query, &(end, winner, hp, pp)| {
            Ok(query
                .bind(end.realm)
                .bind(winner)
                .bind(hp)
                .bind(pp)
                .bind("practice")
                .bind(format!("practice win, fight #{}", end.fight))
                .bind(end.fight)
                .bind(&end.month)
                .bind(end.last.at.to_rfc3339()))
        },
    )
    .await?;
    Ok(awards)
}

/// Commits fight steps and fight ends in batches: every write that arrives while a transaction is
/// being written joins the next one. Each sender is answered only after its write is committed,
/// so a reply never runs ahead of the books, while many channels share one commit (group commit).
///
/// A file database or PostgreSQL (`kept`): the writer keeps one connection between batches,
/// sparing the pool's round trips for every commit, and takes another only after an error. A
/// SQLite file's (`checkpoints` given) commits do not copy the WAL back into the database themselves (that copy and its fsync would
/// hold up every channel's commit); every [`CHECKPOINT_COMMITS`] commits it asks the
/// [`checkpointer`] to, and waits only when two requests are already outstanding, so the WAL
/// stays bounded whatever the pace. In memory, the one connection is everyone's: it is taken
/// for each batch and given back.
async fn book_writer(
    pool: Db,
    mut rx: tokio::sync::mpsc::Receiver<Write>,
    kept: bool,
    checkpoints: Option<tokio::sync::mpsc::Sender<()>>,
) {
    let mut held: Option<Conn> = None;
    let mut commits = 0;
    // Fights ended since the sums were last folded in ([`sums::FOLD_ENDS`]).
    let mut unfolded = 0;
    let mut closing = pool.close_event();
    loop {
        let first = tokio::select! {
            w = rx.recv() => match w {
                Some(w) => w,
                None => break,
            },
            // The pool is closing: the connection kept goes back, so that the close can end.
            () = &mut closing, if held.is_some() => {
                held = None;
                continue;
            }
        };
        let mut batch = vec![first];
        while batch.len() < STEP_BATCH {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let result = match held.take() {
            Some(conn) => Ok(conn),
            None => writer_connection(&pool, checkpoints.is_some()).await,
        };
        let result = match result {
            Ok(mut conn) => {
                let ends: usize = batch.iter().map(|w| w.ends().len()).sum();
                let fold = unfolded + ends >= sums::FOLD_ENDS
                    || batch.iter().any(|w| matches!(w, Write::Fold(_)));
                let written = write_batch(&mut conn, &batch, fold).await;
                if written.is_ok() {
                    unfolded = if fold { 0 } else { unfolded + ends };
                }
                if written.is_err() {
                    // Not back to the pool as it is: its commits would not checkpoint.
                    conn.close_on_drop();
                } else if kept {
                    held = Some(conn);
                }
                written
            }
            Err(e) => Err(e),
        }
        .map_err(|e| format!("{e:#}"));
        let mut awards = match &result {
            Ok(awards) => awards.clone().into_iter(),
            Err(_) => Vec::new().into_iter(),
        };
        let mut next = |n: usize| -> Result<Vec<FightAward>, String> {
            match &result {
                Ok(_) => {
                    let taken: Vec<FightAward> = awards.by_ref().take(n).collect();
                    if taken.len() == n {
                        Ok(taken)
                    } else {
                        Err("a fight end went missing".to_string())
                    }
                }
                Err(e) => Err(e.clone()),
            }
        };
        for w in batch {
            match w {
                Write::Step(s) => {
                    let _ = s.done.send(next(0).map(|_| ()));
                }
                Write::Ends(ends, done) => {
                    let _ = done.send(next(ends.len()));
                }
                Write::Fold(done) => {
                    let _ = done.send(next(0).map(|_| ()));
                }
            }
        }
        if let (Some(ask), Ok(_)) = (&checkpoints, &result) {
            commits += 1;
            if commits >= CHECKPOINT_COMMITS {
                commits = 0;
                if ask.send(()).await.is_err() {
                    tracing::warn!("the checkpointer has stopped");
                }
            }
        }
    }
}

/// Commits of the book writer between two checkpoints it asks for.
const CHECKPOINT_COMMITS: u32 = 128;

/// WAL frames (pages) past which the checkpointer starts the WAL over (about 16 MB).
const WAL_RESTART_FRAMES: i64 = 4096;

/// A connection for the book writer; one it keeps for a SQLite file (`kept`) leaves the WAL's
/// checkpoints to the [`checkpointer`].
async fn writer_connection(pool: &Db, kept: bool) -> Result<Conn> {
    let mut conn = pool.acquire().await?;
    if kept {
        // Its page cache stays SQLite's default (about 2 MB): a larger one reads back fewer
        // pages, but every commit then walks its page table and allocates pages anew, which
        // cost the writer's thread more than the reads saved (the pipeline bench).
        db::query("PRAGMA wal_autocheckpoint = 0")
            .execute(&mut conn)
            .await?;
    }
    Ok(conn)
}

/// Copies the WAL into the database file whenever the book writer asks, on a connection of its
/// own, while the writer goes on committing. The copy is passive: it takes no lock and leaves
/// what it cannot copy for the next time. A WAL is only started over once all of it is copied,
/// which a writer that never pauses does not wait for: once the WAL is past
/// [`WAL_RESTART_FRAMES`], the checkpointer copies the little left with writers held off for that
/// moment, so the next commit starts the WAL over.
async fn checkpointer(pool: SqlitePool, mut asked: tokio::sync::mpsc::Receiver<()>) {
    while asked.recv().await.is_some() {
        let copied: Result<(i64, i64, i64), sqlx::Error> =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&pool)
                .await;
        let restarted = match copied {
            Ok((_, frames, _)) if frames >= WAL_RESTART_FRAMES => {
                sqlx::query("PRAGMA wal_checkpoint(RESTART)")
                    .execute(&pool)
                    .await
                    .map(|_| ())
            }
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = restarted {
            tracing::warn!("cannot checkpoint the database: {e:#}");
        }
    }
}

/// A step of the log, with its number, from a row of `seq, side, decision, rolls, at`.
pub(crate) fn step_from_row<D: serde::de::DeserializeOwned>(row: &Row) -> Result<(i64, Step<D>)> {
    let side = row
        .try_get::<Option<String>, _>("side")?
        .map(|s| match s.as_str() {
            "challenger" => Ok(Side::Challenger),
            "challenged" => Ok(Side::Challenged),
            other => Err(anyhow::anyhow!("a fight step names no side: {other}")),
        })
        .transpose()?;
    let decision = row
        .try_get::<Option<String>, _>("decision")?
        .map(|d| serde_json::from_str(&d))
        .transpose()?;
    let rolls = serde_json::from_str(&row.try_get::<String, _>("rolls")?)?;
    let at = DateTime::parse_from_rfc3339(&row.try_get::<String, _>("at")?)?.with_timezone(&Utc);
    Ok((
        row.try_get("seq")?,
        Step {
            side,
            decision,
            rolls,
            at,
        },
    ))
}

/// A fight's steps as read from the log, checked to be numbered 0, 1, 2, … with none missing
/// or twice: the log has no key to refuse a step written twice, so replay does.
pub(crate) fn in_order<D>(fight: Id, steps: Vec<(i64, Step<D>)>) -> Result<Vec<Step<D>>> {
    steps
        .into_iter()
        .enumerate()
        .map(|(i, (seq, step))| {
            if usize::try_from(seq).ok() == Some(i) {
                Ok(step)
            } else {
                Err(anyhow::anyhow!(
                    "fight #{fight}'s log has step {seq} where step {i} belongs"
                ))
            }
        })
        .collect()
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Challenger => "challenger",
        Side::Challenged => "challenged",
    }
}

fn kind_name(kind: MatchKind) -> &'static str {
    match kind {
        MatchKind::Practice => "practice",
        MatchKind::Lists => "lists",
        MatchKind::Melee => "melee",
    }
}

fn style_name(style: Style) -> &'static str {
    match style {
        Style::Sir => "sir",
        Style::Dame => "dame",
    }
}

/// Whether `url` names a PostgreSQL database.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// A database URL with its password hidden, for messages (a file's path as it is).
pub fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &url[scheme + 3..at];
            let user = user.split(':').next().unwrap_or_default();
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

fn psi_column(skill: PsiSkill) -> &'static str {
    skill.name()
}

impl Store {
    /// Opens the database `[database]` names: PostgreSQL for a `postgres://` (or
    /// `postgresql://`) URL, else the SQLite file at `path` (a `sqlite:` URL's path included).
    pub async fn connect(url_or_path: &str) -> Result<Store> {
        if is_postgres_url(url_or_path) {
            return Store::open_postgres(url_or_path).await;
        }
        let path = url_or_path
            .strip_prefix("sqlite://")
            .or_else(|| url_or_path.strip_prefix("sqlite:"))
            .unwrap_or(url_or_path);
        Store::open(Path::new(path)).await
    }

    /// Opens `db`, a SQLite file's path or a database URL (see [`Store::connect`]).
    pub async fn open_at(db: &Path) -> Result<Store> {
        match db.to_str() {
            Some(url) => Store::connect(url).await,
            None => Store::open(db).await,
        }
    }

    /// Opens (creating if needed) the SQLite file at `path` in WAL mode with foreign keys on, and
    /// applies the migrations.
    pub async fn open(path: &Path) -> Result<Store> {
        // Two processes opening one new file at once would both turn it to WAL and apply the
        // first migration, and one would fail: the first to hold this lock does both, the other
        // then finds nothing left to do. An flock of a file beside the database, never of the
        // database itself: closing any descriptor of a file drops every POSIX lock this process
        // holds on it, SQLite's included.
        let mut beside = path.as_os_str().to_owned();
        beside.push(".lock");
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&beside)
            .with_context(|| format!("cannot open {}", Path::new(&beside).display()))?;
        let held = tokio::task::spawn_blocking(move || file.lock().map(|()| file))
            .await
            .context("the start-up lock went missing")?
            .with_context(|| format!("cannot lock {}", Path::new(&beside).display()))?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            // Statement journals in memory, not in temporary files: every multi-row statement
            // of the book writer has one.
            .pragma("temp_store", "memory")
            .busy_timeout(std::time::Duration::from_secs(10));
        // The book writer keeps one connection for itself; the others serve readers. A SQLite
        // connection is a thread in this process, not a socket that goes stale: it is not pinged
        // before each use.
        let pool = SqlitePoolOptions::new()
            .max_connections(5)
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .with_context(|| format!("cannot open the database {}", path.display()))?;
        sqlx::migrate!("../migrations")
            .run(&pool)
            .await
            .context("cannot apply the database migrations")?;
        drop(held);
        Ok(Store::with_pool(Db::Sqlite(pool), true))
    }

    /// Opens the PostgreSQL database at `url` (it must exist) and applies its migrations
    /// (`migrations/postgres/`). Several processes may share it: the books' changes take a lock
    /// of the database's, as SQLite's one writer did.
    pub async fn open_postgres(url: &str) -> Result<Store> {
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect(url)
            .await
            .with_context(|| format!("cannot connect to the database {}", redacted(url)))?;
        sqlx::migrate!("../migrations/postgres")
            .run(&pool)
            .await
            .context("cannot apply the database migrations")?;
        let mut store = Store::with_pool(Db::Postgres(pool.clone()), true);
        // Another process's /link or /unlink counts here at once: it says so to every listener.
        let listening = links::listen(pool, store.links.clone())
            .await
            .context("cannot listen for the links other processes make")?;
        store.listening = Some(std::sync::Arc::new(listening));
        Ok(store)
    }

    /// A fresh database in memory (one connection, so every query sees the same data), for
    /// transcripts run without `--db`.
    pub async fn open_memory() -> Result<Store> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await
            .context("cannot open an in-memory database")?;
        sqlx::migrate!("../migrations")
            .run(&pool)
            .await
            .context("cannot apply the database migrations")?;
        Ok(Store::with_pool(Db::Sqlite(pool), false))
    }

    /// The store over `pool`. Its book writer keeps a connection of its own (`kept`: a file or a
    /// server), and a SQLite file leaves the WAL's checkpoints to a task of their own; in memory
    /// the pool's one connection is shared.
    fn with_pool(pool: Db, kept: bool) -> Store {
        let (writes, rx) = tokio::sync::mpsc::channel(4 * STEP_BATCH);
        let checkpoints = match &pool {
            Db::Sqlite(file) if kept => {
                let (ask, asked) = tokio::sync::mpsc::channel(1);
                tokio::spawn(checkpointer(file.clone(), asked));
                Some(ask)
            }
            _ => None,
        };
        tokio::spawn(book_writer(pool.clone(), rx, kept, checkpoints));
        Store {
            pool,
            writes,
            places: places::Places::default(),
            links: links::LinkCache::default(),
            listening: None,
        }
    }

    /// Either backend's pool, for queries written once for both.
    pub fn db(&self) -> &Db {
        &self.pool
    }

    /// The SQLite pool, for what reads SQLite's own tables (`herald export`, `herald import`,
    /// tests that inspect rows); an error on PostgreSQL.
    pub fn sqlite(&self) -> Result<&SqlitePool> {
        match &self.pool {
            Db::Sqlite(pool) => Ok(pool),
            Db::Postgres(_) => anyhow::bail!("this works on a SQLite database only"),
        }
    }

    /// The SQLite pool, for tests that inspect rows.
    ///
    /// # Panics
    /// On PostgreSQL: such tests are SQLite's.
    pub fn pool(&self) -> &SqlitePool {
        self.sqlite()
            .expect("Store::pool serves tests on SQLite; code for either backend uses Store::db")
    }

    /// The id of a realm, created on first use.
    pub async fn realm(&self, name: &str) -> Result<Id> {
        db::query("INSERT INTO realms (name) VALUES (?) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .execute(&self.pool)
            .await?;
        let id = db::query_scalar("SELECT id FROM realms WHERE name = ?")
            .bind(name)
            .fetch_one(&self.pool)
            .await?;
        Ok(id)
    }

    /// Keeps the name player `user` of realm `realm` goes by (a Discord player's nick, their
    /// key being an id), writing only when it changed. Whether the books know the player: a
    /// transport asks again, later, for one they do not know yet.
    pub async fn keep_shown_name(&self, realm: &str, user: &str, shown: &str) -> Result<bool> {
        let Some(row) = db::query(
            "SELECT u.id, n.shown FROM users u JOIN realms r ON r.id = u.realm_id \
             LEFT JOIN user_names n ON n.user_id = u.id WHERE r.name = ? AND u.name = ?",
        )
        .bind(realm)
        .bind(user)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(false);
        };
        let (id, kept): (Id, Option<String>) = (row.try_get("id")?, row.try_get("shown")?);
        if kept.as_deref() != Some(shown) {
            db::query(
                "INSERT INTO user_names (user_id, shown) VALUES (?, ?) \
                 ON CONFLICT (user_id) DO UPDATE SET shown = excluded.shown",
            )
            .bind(id)
            .bind(shown)
            .execute(&self.pool)
            .await?;
        }
        Ok(true)
    }

    async fn user(tx: &mut Tx<'_>, realm: Id, name: &str) -> Result<Id, sqlx::Error> {
        db::query("INSERT INTO users (realm_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .bind(realm)
            .bind(name)
            .execute(&mut *tx)
            .await?;
        db::query_scalar("SELECT id FROM users WHERE realm_id = ? AND name = ?")
            .bind(realm)
            .bind(name)
            .fetch_one(&mut *tx)
            .await
    }

    /// Creates a knight for `owner` (R3: names unique case-insensitively; one knight per player).
    pub async fn create_knight(
        &self,
        realm: Id,
        owner: &str,
        sheet: &KnightSheet,
        at: DateTime<Utc>,
    ) -> Result<KnightRecord, StoreError> {
        let mut tx = self.pool.begin().await?;
        let owner_id = Self::user(&mut tx, realm, owner).await?;
        if let Some(existing) = db::query_scalar::<String>(
            "SELECT name FROM knights WHERE owner_id = ? AND retired = 0",
        )
        .bind(owner_id)
        .fetch_optional(&mut *tx)
        .await?
        {
            return Err(StoreError::HasKnight(existing));
        }
        let taken: Option<String> =
            db::query_scalar("SELECT name FROM knights WHERE realm_id = ? AND name_key = ?")
                .bind(realm)
                .bind(sheet.name.to_lowercase())
                .fetch_optional(&mut *tx)
                .await?;
        if let Some(name) = taken {
            return Err(StoreError::NameTaken(name));
        }
        let id: Id = db::query_scalar(
            "INSERT INTO knights (realm_id, owner_id, name, name_key, style, monarch, \
             lance, ride, observe, shield, dodge, sword, \
             apportation, cpk, hypercognition, mesmerism, telepathy, catapsi, negapsi, created_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(realm)
        .bind(owner_id)
        .bind(&sheet.name)
        .bind(sheet.name.to_lowercase())
        .bind(style_name(sheet.style))
        .bind(sheet.monarch.name())
        .bind(sheet.skill(Skill::Lance))
        .bind(sheet.skill(Skill::Ride))
        .bind(sheet.skill(Skill::Observe))
        .bind(sheet.skill(Skill::Shield))
        .bind(sheet.skill(Skill::Dodge))
        .bind(sheet.skill(Skill::Sword))
        .bind(sheet.psi(PsiSkill::Apportation))
        .bind(sheet.psi(PsiSkill::Cpk))
        .bind(sheet.psi(PsiSkill::Hypercognition))
        .bind(sheet.psi(PsiSkill::Mesmerism))
        .bind(sheet.psi(PsiSkill::Telepathy))
        .bind(sheet.psi(PsiSkill::Catapsi))
        .bind(sheet.psi(PsiSkill::Negapsi))
        .bind(at.to_rfc3339())
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(KnightRecord {
            id,
            owner: owner.to_string(),
            sheet: sheet.clone(),
            landed: false,
            rank: Rank::Knight,
        })
    }

    const KNIGHT_COLUMNS: &'static str = "k.id, u.name AS owner, k.name, k.style, k.monarch, \
        k.lance, k.ride, k.observe, k.shield, k.dodge, k.sword, k.apportation, k.cpk, \
        k.hypercognition, k.mesmerism, k.telepathy, k.catapsi, k.negapsi, k.landed, k.rank";

    fn knight_from_row(row: &Row) -> Result<KnightRecord> {
        let style = match row.try_get::<String, _>("style")?.as_str() {
            "dame" => Style::Dame,
            _ => Style::Sir,
        };
        let monarch = Monarch::from_str(&row.try_get::<String, _>("monarch")?)?;
        let mut skills = [0u8; 6];
        for (i, s) in Skill::ALL.into_iter().enumerate() {
            skills[i] = row.try_get::<u8, _>(s.name())?;
        }
        let mut psi = [0u8; 7];
        for (i, s) in PsiSkill::ALL.into_iter().enumerate() {
            psi[i] = row.try_get::<u8, _>(psi_column(s))?;
        }
        let rank = match row.try_get::<String, _>("rank")?.as_str() {
            "baron" => Rank::Baron,
            "viscount" => Rank::Viscount,
            "earl" => Rank::Earl,
            "duke" => Rank::Duke,
            _ => Rank::Knight,
        };
        Ok(KnightRecord {
            id: row.try_get("id")?,
            owner: row.try_get("owner")?,
            sheet: KnightSheet::new(
                row.try_get::<String, _>("name")?,
                style,
                monarch,
                skills,
                psi,
            ),
            landed: row.try_get::<bool, _>("landed")?,
            rank,
        })
    }

    /// The active knight of a player (of the account `owner` is linked to, if linked), if any.
    pub async fn knight_of(&self, realm: Id, owner: &str) -> Result<Option<KnightRecord>> {
        let sql = format!(
            "SELECT {} FROM knights k JOIN users u ON u.id = k.owner_id \
             WHERE u.realm_id = ?1 AND u.name = COALESCE((SELECT l.account FROM account_links l \
             WHERE l.realm_id = ?1 AND l.member = ?2), ?2) AND k.retired = 0",
            Self::KNIGHT_COLUMNS
        );
        let row = db::query(&sql)
            .bind(realm)
            .bind(owner)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(Self::knight_from_row).transpose()
    }

    /// An active knight by name, case-insensitively.
    pub async fn knight_named(&self, realm: Id, name: &str) -> Result<Option<KnightRecord>> {
        let sql = format!(
            "SELECT {} FROM knights k JOIN users u ON u.id = k.owner_id \
             WHERE k.realm_id = ? AND k.name_key = ? AND k.retired = 0",
            Self::KNIGHT_COLUMNS
        );
        let row = db::query(&sql)
            .bind(realm)
            .bind(name.trim().to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(Self::knight_from_row).transpose()
    }

    /// The knights of a realm, active or not, whose name may fold to `folded` (R170): those whose
    /// stored fold is it, and those with a name SQLite cannot fold (not ASCII), for the resolver
    /// to fold itself. (id, name, active), in id order.
    pub async fn knight_candidates(
        &self,
        realm: Id,
        folded: &str,
    ) -> Result<Vec<(Id, String, bool)>> {
        let rows = db::query(
            // Two searches of the folds' index, not one `fold = ? OR fold IS NULL`, which reads
            // every knight of the realm.
            "SELECT k.id, k.name, k.retired FROM knight_folds f JOIN knights k ON k.id = f.knight_id \
             WHERE f.realm_id = ?1 AND f.fold = ?2 \
             UNION ALL SELECT k.id, k.name, k.retired FROM knight_folds f \
             JOIN knights k ON k.id = f.knight_id WHERE f.realm_id = ?1 AND f.fold IS NULL \
             ORDER BY 1",
        )
        .bind(realm)
        .bind(folded)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("id")?,
                    r.try_get("name")?,
                    !r.try_get::<bool, _>("retired")?,
                ))
            })
            .collect()
    }

    /// How a knight left the lists, if they did: killed (when) or retired (when, from the
    /// retirement's ledger entry).
    pub async fn knight_gone(&self, id: Id) -> Result<Option<Gone>> {
        let row = db::query(
            "SELECT k.retired, k.died_at, \
             (SELECT l.at FROM ledger l WHERE l.knight_id = k.id AND l.kind = 'retire' \
              ORDER BY l.id DESC LIMIT 1) AS retired_at \
             FROM knights k WHERE k.id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        if !row.try_get::<bool, _>("retired")? {
            return Ok(None);
        }
        Ok(Some(match row.try_get::<Option<String>, _>("died_at")? {
            Some(at) => Gone::Killed(at),
            None => Gone::Retired(row.try_get("retired_at")?),
        }))
    }

    /// A knight by id.
    pub async fn knight(&self, id: Id) -> Result<Option<KnightRecord>> {
        let sql = format!(
            "SELECT {} FROM knights k JOIN users u ON u.id = k.owner_id WHERE k.id = ?",
            Self::KNIGHT_COLUMNS
        );
        let row = db::query(&sql).bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(Self::knight_from_row).transpose()
    }

    /// Honor and Prestige balances, summed from the ledger.
    pub async fn balance(&self, knight: Id) -> Result<Balance> {
        let row = db::query(
            "SELECT COALESCE(CAST(SUM(hp_halves) AS BIGINT), 0) AS hp, COALESCE(CAST(SUM(pp_halves) AS BIGINT), 0) AS pp \
             FROM ledger WHERE knight_id = ?",
        )
        .bind(knight)
        .fetch_one(&self.pool)
        .await?;
        Ok(Balance {
            hp_halves: row.try_get("hp")?,
            pp_halves: row.try_get("pp")?,
        })
    }

    /// Whether the pair already has a recorded practice fight on `day` (R26).
    pub async fn practice_recorded(&self, realm: Id, a: Id, b: Id, day: &str) -> Result<bool> {
        let (lo, hi) = (a.min(b), a.max(b));
        let n: i64 = db::query_scalar(
            "SELECT COUNT(*) FROM practice_days WHERE realm_id = ? AND knight_lo = ? AND knight_hi = ? AND day = ?",
        )
        .bind(realm)
        .bind(lo)
        .bind(hi)
        .bind(day)
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// Whether a knight is out for `day` with a major injury (R12).
    pub async fn injured_on(&self, knight: Id, day: &str) -> Result<bool> {
        let n: i64 =
            db::query_scalar("SELECT COUNT(*) FROM major_injuries WHERE knight_id = ? AND day = ?")
                .bind(knight)
                .bind(day)
                .fetch_one(&self.pool)
                .await?;
        Ok(n > 0)
    }

    /// Practice wins already awarded to a knight in `month` (R28).
    pub async fn practice_awards(&self, knight: Id, month: &str) -> Result<i64> {
        let n: i64 = db::query_scalar(
            "SELECT COUNT(*) FROM ledger WHERE knight_id = ? AND month = ? AND kind = 'practice' AND revokes IS NULL",
        )
        .bind(knight)
        .bind(month)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Records a new fight, its start step and whether it is for ransom in one transaction. For a
    /// practice fight it also claims the pair's practice record of the day if still free; the
    /// UNIQUE constraint settles any race (R26). It claims both knights for the fight, so a knight
    /// fighting elsewhere, in this process or another on the same books, refuses it with
    /// [`engaged::Engaged`] and nothing written. Returns the fight id and whether it is recorded.
    pub async fn start_fight(&self, f: NewFight<'_>, start: &Step) -> Result<(Id, bool)> {
        let mut tx = self.pool.begin().await?;
        let setup = serde_json::to_string(f.setup)?;
        let seed_hash = crate::fairness::seed_hash(&f.seed);
        let id: Id = db::query_scalar(
            "INSERT INTO fights (realm_id, channel, kind, challenger_id, challenged_id, challenger_user, \
             challenged_user, setup, seed, seed_hash, recorded, started_at, tournament_id, place) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, \
             COALESCE(?, (SELECT name FROM realms WHERE id = ?))) RETURNING id",
        )
        .bind(f.realm)
        .bind(f.channel)
        .bind(kind_name(f.setup.kind))
        .bind(f.knights[0])
        .bind(f.knights[1])
        .bind(f.users[0])
        .bind(f.users[1])
        .bind(setup)
        .bind(hex::encode(f.seed))
        .bind(seed_hash)
        .bind(f.at.to_rfc3339())
        .bind(f.tournament)
        .bind(self.place_of(f.realm, f.channel))
        .bind(f.realm)
        .fetch_one(&mut *tx)
        .await?;
        engaged::claim(&mut tx, engaged::Fighters::Knights, &f.knights, id).await?;
        let mut recorded = false;
        if f.setup.kind == MatchKind::Practice {
            let (lo, hi) = (
                f.knights[0].min(f.knights[1]),
                f.knights[0].max(f.knights[1]),
            );
            let claimed = db::query(
                "INSERT INTO practice_days (realm_id, knight_lo, knight_hi, day, fight_id) \
                 VALUES (?, ?, ?, ?, ?) ON CONFLICT (realm_id, knight_lo, knight_hi, day) DO NOTHING",
            )
            .bind(f.realm)
            .bind(lo)
            .bind(hi)
            .bind(f.day)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            recorded = claimed.rows_affected() == 1;
        }
        if f.ransom {
            db::query("INSERT INTO ransom_fights (fight_id, at) VALUES (?, ?)")
                .bind(id)
                .bind(f.at.to_rfc3339())
                .execute(&mut *tx)
                .await?;
        }
        let first_step = insert_steps(&mut tx, &[(id, 0, &start.encoded()?)]).await?;
        db::query("UPDATE fights SET recorded = ?, first_step = ? WHERE id = ?")
            .bind(recorded)
            .bind(first_step)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok((id, recorded))
    }

    /// Hands a write to the book writer and waits until it is committed.
    async fn commit<T>(
        &self,
        write: Write,
        committed: tokio::sync::oneshot::Receiver<Result<T, String>>,
        what: &str,
    ) -> Result<T> {
        let stopped = || anyhow::anyhow!("the book writer has stopped");
        self.writes.send(write).await.map_err(|_| stopped())?;
        committed
            .await
            .map_err(|_| stopped())?
            .map_err(|e| anyhow::anyhow!("cannot write {what}: {e}"))
    }

    /// Appends a decision step to a fight in progress; returns once it is committed.
    pub async fn add_step<D: Serialize>(&self, fight: Id, seq: i64, step: &Step<D>) -> Result<()> {
        let (done, committed) = tokio::sync::oneshot::channel();
        let write = StepWrite {
            fight,
            seq,
            step: step.encoded()?,
            done,
        };
        self.commit(Write::Step(write), committed, "a fight step")
            .await
    }

    /// Ends a fight: its last step, its outcome, its Honor (R26–R29) and any major injuries, in
    /// one transaction shared with whatever else the writer commits at that moment. The monthly
    /// practice limit is counted inside that transaction, so two fights ending at once in two
    /// channels cannot both pay a fifth award.
    pub async fn finish_fight(&self, end: FightEnd) -> Result<FightAward> {
        self.finish_fights(vec![end])
            .await?
            .pop()
            .context("the end of a fight went missing")
    }

    /// Ends several fights in one transaction, as the book writer does with fights that end at
    /// once in many channels: the same books and the same awards, in order, as ending them one by
    /// one with [`Store::finish_fight`] in that order.
    pub async fn finish_fights(&self, ends: Vec<FightEnd>) -> Result<Vec<FightAward>> {
        let (done, committed) = tokio::sync::oneshot::channel();
        self.commit(Write::Ends(ends, done), committed, "the end of a fight")
            .await
    }

    /// Every PsiKnight fight of `realm` not yet ended, with its steps: one read of the fights
    /// and one of the log from the earliest open fight's start (a restart restores fight by
    /// fight, [`Store::open_fights_in`] and [`Store::fight`]).
    pub async fn open_fights(&self, realm: Id) -> Result<Vec<OpenFight>> {
        let sql = format!(
            "SELECT {} FROM fights WHERE realm_id = ? AND ended_at IS NULL AND game = 'psiknight' ORDER BY id",
            Self::FIGHT_COLUMNS
        );
        let rows = db::query(&sql).bind(realm).fetch_all(&self.pool).await?;
        let mut fights = rows
            .iter()
            .map(Self::fight_from_row)
            .collect::<Result<Vec<_>>>()?;
        let Some(from) = fights.iter().map(|(_, first)| *first).min() else {
            return Ok(Vec::new());
        };
        let mut steps: std::collections::HashMap<Id, Vec<(i64, Step)>> =
            fights.iter().map(|(f, _)| (f.id, Vec::new())).collect();
        // The log from there on also holds the steps of fights since ended, left out.
        let rows = db::query(
            "SELECT fight_id, seq, side, decision, rolls, at FROM fight_steps WHERE id >= ? ORDER BY id",
        )
        .bind(from)
        .fetch_all(&self.pool)
        .await?;
        for row in rows {
            if let Some(of) = steps.get_mut(&row.try_get("fight_id")?) {
                of.push(step_from_row(&row)?);
            }
        }
        for (fight, _) in &mut fights {
            fight.steps = in_order(fight.id, steps.remove(&fight.id).unwrap_or_default())?;
        }
        Ok(fights.into_iter().map(|(f, _)| f).collect())
    }

    /// The columns [`Store::fight_from_row`] reads.
    const FIGHT_COLUMNS: &'static str =
        "id, channel, challenger_id, challenged_id, challenger_user, \
         challenged_user, setup, seed, recorded, tournament_id, first_step, \
         EXISTS (SELECT 1 FROM ransom_fights r WHERE r.fight_id = fights.id) AS ransom";

    /// A fight from a row of [`Store::FIGHT_COLUMNS`], its steps still to read, and the log id of
    /// its first step.
    fn fight_from_row(row: &Row) -> Result<(OpenFight, Id)> {
        let id: Id = row.try_get("id")?;
        let seed_hex: String = row.try_get("seed")?;
        let mut seed = [0u8; 32];
        hex::decode_to_slice(&seed_hex, &mut seed)
            .context("a fight's seed is not 64 hex digits")?;
        let setup: MatchSetup = serde_json::from_str(&row.try_get::<String, _>("setup")?)
            .context("a fight's setup does not parse")?;
        let first_step: Option<Id> = row.try_get("first_step")?;
        let fight = OpenFight {
            id,
            channel: row.try_get("channel")?,
            knights: [row.try_get("challenger_id")?, row.try_get("challenged_id")?],
            users: [
                row.try_get("challenger_user")?,
                row.try_get("challenged_user")?,
            ],
            setup,
            seed,
            recorded: row.try_get("recorded")?,
            ransom: row.try_get("ransom")?,
            steps: Vec::new(),
            tournament: row.try_get("tournament_id")?,
        };
        Ok((
            fight,
            first_step.with_context(|| format!("fight #{id} has no steps"))?,
        ))
    }

    /// A fight with its steps, finished or not: its steps are read from its first one on, as
    /// many as it has once ended, to the end of the log while it goes on.
    pub async fn fight(&self, id: Id) -> Result<OpenFight> {
        let sql = format!(
            "SELECT {}, steps FROM fights WHERE id = ?",
            Self::FIGHT_COLUMNS
        );
        let row = db::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .with_context(|| format!("there is no fight #{id}"))?;
        let (mut fight, first) = Self::fight_from_row(&row)?;
        let count: Option<i64> = row.try_get("steps")?;
        let rows = db::query(
            "SELECT seq, side, decision, rolls, at FROM fight_steps \
             WHERE id >= ? AND fight_id = ? ORDER BY id LIMIT ?",
        )
        .bind(first)
        .bind(id)
        .bind(count.unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        fight.steps = in_order(
            id,
            rows.iter().map(step_from_row).collect::<Result<Vec<_>>>()?,
        )?;
        Ok(fight)
    }

    /// A PsiKnight fight with `steps`, its log as a restart read it ([`Store::open_fights_in`]).
    pub async fn fight_with(&self, id: Id, steps: &[Step<String>]) -> Result<OpenFight> {
        let sql = format!("SELECT {} FROM fights WHERE id = ?", Self::FIGHT_COLUMNS);
        let row = db::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .with_context(|| format!("there is no fight #{id}"))?;
        let (mut fight, _) = Self::fight_from_row(&row)?;
        fight.steps = steps.iter().map(Step::decoded).collect::<Result<_>>()?;
        Ok(fight)
    }

    /// The logged outcome of a finished fight.
    pub async fn fight_outcome(&self, id: Id) -> Result<Option<Outcome>> {
        let outcome: Option<Option<String>> =
            db::query_scalar("SELECT outcome FROM fights WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        match outcome.flatten() {
            Some(text) => Ok(Some(
                serde_json::from_str(&text).context("a fight's outcome does not parse")?,
            )),
            None => Ok(None),
        }
    }
}
