//! What the web pages read that no chat command does: the realms, a page of the standings in
//! any order, a page of a ledger, the points of an Honor chart, a realm's tournaments and a
//! tournament's fights, the names players go by. Reads only, in plain SQL with `?`
//! parameters.

use super::books::LedgerRow;
use super::db;
use super::history::FightSummary;
use super::{Id, KnightRecord, Store};
use anyhow::Result;
use std::collections::HashMap;

/// A realm as the front page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealmRow {
    /// Its name (the IRC network, the Discord guild, `local`).
    pub name: String,
    /// Its knights still in the lists.
    pub knights: i64,
    /// Its characters of the other games still in play.
    pub characters: i64,
    /// Its fights, of every game.
    pub fights: i64,
}

/// The order of the standings (`?sort=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// Most Honor first (the default).
    Honor,
    /// Most Prestige first.
    Prestige,
    /// By name.
    Name,
    /// Highest title first.
    Title,
    /// Most wins first.
    Wins,
}

impl Sort {
    /// Every order, as the query parameter says it.
    pub const ALL: [(Sort, &'static str); 5] = [
        (Sort::Honor, "hp"),
        (Sort::Prestige, "pp"),
        (Sort::Name, "name"),
        (Sort::Title, "title"),
        (Sort::Wins, "wins"),
    ];

    /// The order a query parameter names; Honor for anything else.
    pub fn from_param(word: Option<&str>) -> Sort {
        Sort::ALL
            .iter()
            .find(|(_, w)| Some(*w) == word)
            .map_or(Sort::Honor, |(s, _)| *s)
    }

    /// The query parameter's word.
    pub fn param(self) -> &'static str {
        Sort::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map_or("hp", |(_, w)| w)
    }

    /// The ids of a page of the realm's active knights in this order: Honor, Prestige and
    /// wins read in order from `knight_sums`' indexes (stopping at the page's last row), names
    /// from the knights' own; titles sort the realm's rows.
    fn page_sql(self) -> &'static str {
        match self {
            Sort::Honor => {
                "SELECT knight_id FROM knight_sums WHERE realm_id = ? AND retired = 0 \
                 ORDER BY hp_halves DESC, name_key LIMIT ? OFFSET ?"
            }
            Sort::Prestige => {
                "SELECT knight_id FROM knight_sums WHERE realm_id = ? AND retired = 0 \
                 ORDER BY pp_halves DESC, name_key LIMIT ? OFFSET ?"
            }
            Sort::Wins => {
                "SELECT knight_id FROM knight_sums WHERE realm_id = ? AND retired = 0 \
                 ORDER BY wins DESC, hp_halves DESC, name_key LIMIT ? OFFSET ?"
            }
            Sort::Name => {
                "SELECT id AS knight_id FROM knights WHERE realm_id = ? AND retired = 0 \
                 ORDER BY name_key LIMIT ? OFFSET ?"
            }
            Sort::Title => {
                "SELECT k.id AS knight_id FROM knights k JOIN knight_sums s ON s.knight_id = k.id \
                 WHERE k.realm_id = ? AND k.retired = 0 ORDER BY CASE k.rank WHEN 'duke' THEN 0 \
                 WHEN 'earl' THEN 1 WHEN 'viscount' THEN 2 WHEN 'baron' THEN 3 ELSE 4 END, \
                 s.hp_halves DESC, k.name_key LIMIT ? OFFSET ?"
            }
        }
    }
}

/// A knight's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    /// The knight.
    pub knight: KnightRecord,
    /// Honor ×2.
    pub hp_halves: i64,
    /// Prestige ×2.
    pub pp_halves: i64,
    /// Fights won, lost and drawn.
    pub record: [i64; 3],
}

/// A knight found by name for its page: active, retired or dead.
#[derive(Clone, Debug, PartialEq)]
pub struct KnightPage {
    /// The knight.
    pub knight: KnightRecord,
    /// Whether retired (a dead knight is retired too).
    pub retired: bool,
    /// When the knight died, if dead (R33).
    pub died_at: Option<String>,
    /// The lord's name, if a vassal.
    pub lord: Option<String>,
    /// The vassals' names.
    pub vassals: Vec<String>,
    /// The captor's name and the ransom demanded or customary (halves), if a captive.
    pub captor: Option<(String, i64)>,
    /// Honor ×2.
    pub hp_halves: i64,
    /// Prestige ×2.
    pub pp_halves: i64,
    /// Fights won, lost and drawn.
    pub record: [i64; 3],
}

/// A realm's tournament as its list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its number.
    pub id: Id,
    /// Its name.
    pub name: String,
    /// Where it is held.
    pub channel: String,
    /// RFC 3339.
    pub starts_at: String,
    /// `scheduled`, `running`, `finished`, `cancelled`.
    pub status: String,
    /// How many knights entered.
    pub entries: i64,
}

/// An award of a tournament, as the ledger has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentAwardRow {
    /// The knight.
    pub knight: String,
    /// Honor ×2.
    pub hp_halves: i64,
    /// Prestige ×2.
    pub pp_halves: i64,
    /// Why, in words.
    pub reason: String,
}

/// A knight's balances and record, as `knight_sums` keeps them (migration `0012`), for a query
/// that joins `knight_sums s`.
const SUMS: &str = "COALESCE(s.hp_halves, 0) AS hp, COALESCE(s.pp_halves, 0) AS pp, \
    COALESCE(s.wins, 0) AS wins, COALESCE(s.losses, 0) AS losses, COALESCE(s.draws, 0) AS draws";

fn record_of(row: &db::Row) -> Result<[i64; 3]> {
    Ok([
        row.try_get("wins")?,
        row.try_get("losses")?,
        row.try_get("draws")?,
    ])
}

impl Store {
    /// Every realm with its counts, by name.
    pub async fn web_realms(&self) -> Result<Vec<RealmRow>> {
        let rows = db::query(
            "SELECT r.name, \
             (SELECT COUNT(*) FROM knights k WHERE k.realm_id = r.id AND k.retired = 0) AS knights, \
             (SELECT COUNT(*) FROM characters c WHERE c.realm_id = r.id AND c.retired = 0) AS characters, \
             (SELECT COUNT(*) FROM fights f WHERE f.realm_id = r.id) AS fights \
             FROM realms r ORDER BY r.name",
        )
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RealmRow {
                    name: r.try_get("name")?,
                    knights: r.try_get("knights")?,
                    characters: r.try_get("characters")?,
                    fights: r.try_get("fights")?,
                })
            })
            .collect()
    }

    /// A realm's id by its name, without creating it.
    pub async fn web_realm(&self, name: &str) -> Result<Option<Id>> {
        Ok(db::query_scalar("SELECT id FROM realms WHERE name = ?")
            .bind(name)
            .fetch_optional(self.db())
            .await?)
    }

    /// A page of the realm's standings (active knights) in `sort` order: `limit` rows from
    /// `offset`, and how many knights there are in all.
    pub async fn web_standings(
        &self,
        realm: Id,
        sort: Sort,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<StandingRow>, i64)> {
        self.fold_sums().await?;
        let total: i64 =
            db::query_scalar("SELECT COUNT(*) FROM knight_sums WHERE realm_id = ? AND retired = 0")
                .bind(realm)
                .fetch_one(self.db())
                .await?;
        // The page's knights in order, from the sums the books' triggers keep (one indexed
        // read that stops at the page's last row), then their rows.
        let ids: Vec<Id> = db::query_scalar(sort.page_sql())
            .bind(realm)
            .bind(limit)
            .bind(offset)
            .fetch_all(self.db())
            .await?;
        if ids.is_empty() {
            return Ok((Vec::new(), total));
        }
        let sql = format!(
            "SELECT {}, {SUMS} FROM knights k JOIN users u ON u.id = k.owner_id \
             LEFT JOIN knight_sums s ON s.knight_id = k.id WHERE k.id IN ({})",
            Self::KNIGHT_COLUMNS,
            vec!["?"; ids.len()].join(", "),
        );
        let mut query = db::query(&sql);
        for id in &ids {
            query = query.bind(*id);
        }
        let mut rows = query
            .fetch_all(self.db())
            .await?
            .iter()
            .map(|row| {
                Ok(StandingRow {
                    knight: Self::knight_from_row(row)?,
                    hp_halves: row.try_get("hp")?,
                    pp_halves: row.try_get("pp")?,
                    record: record_of(row)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        // Back in the page's order.
        rows.sort_by_key(|r| ids.iter().position(|id| *id == r.knight.id));
        let page = rows;
        Ok((page, total))
    }

    /// A knight of the realm by name (any case), active, retired or dead; the active one first.
    pub async fn web_knight(&self, realm: Id, name: &str) -> Result<Option<KnightPage>> {
        self.fold_sums().await?;
        let sql = format!(
            "SELECT {}, k.retired, k.died_at, k.lord_id, \
             (SELECT name FROM knights l WHERE l.id = k.lord_id) AS lord_name, \
             {SUMS} FROM knights k JOIN users u ON u.id = k.owner_id \
             LEFT JOIN knight_sums s ON s.knight_id = k.id \
             WHERE k.realm_id = ? AND k.name_key = ? ORDER BY k.retired, k.id DESC LIMIT 1",
            Self::KNIGHT_COLUMNS
        );
        let Some(row) = db::query(&sql)
            .bind(realm)
            .bind(name.trim().to_lowercase())
            .fetch_optional(self.db())
            .await?
        else {
            return Ok(None);
        };
        let knight = Self::knight_from_row(&row)?;
        let vassals = db::query_scalar(
            "SELECT name FROM knights WHERE lord_id = ? AND retired = 0 ORDER BY name_key",
        )
        .bind(knight.id)
        .fetch_all(self.db())
        .await?;
        let captor = db::query(
            "SELECT v.name, COALESCE(c.demanded_halves, c.customary_halves) AS ransom \
             FROM captivities c JOIN knights v ON v.id = c.victor_id \
             WHERE c.captive_id = ? AND c.ended_at IS NULL",
        )
        .bind(knight.id)
        .fetch_optional(self.db())
        .await?
        .map(|r| -> Result<(String, i64)> { Ok((r.try_get("name")?, r.try_get("ransom")?)) })
        .transpose()?;
        Ok(Some(KnightPage {
            retired: row.try_get("retired")?,
            died_at: row.try_get("died_at")?,
            lord: row.try_get("lord_name")?,
            vassals,
            captor,
            hp_halves: row.try_get("hp")?,
            pp_halves: row.try_get("pp")?,
            record: record_of(&row)?,
            knight,
        }))
    }

    /// A page of a knight's ledger, newest first, and how many entries there are in all.
    pub async fn web_ledger(
        &self,
        knight: Id,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<LedgerRow>, i64)> {
        let total: i64 = db::query_scalar("SELECT COUNT(*) FROM ledger WHERE knight_id = ?")
            .bind(knight)
            .fetch_one(self.db())
            .await?;
        let rows = db::query(
            "SELECT l.id, l.knight_id, l.hp_halves, l.pp_halves, l.kind, l.reason, l.fight_id, \
             l.by_user, l.revokes, l.month, l.at, \
             (SELECT r.id FROM ledger r WHERE r.revokes = l.id) AS revoked_by \
             FROM ledger l WHERE l.knight_id = ? ORDER BY l.id DESC LIMIT ? OFFSET ?",
        )
        .bind(knight)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.db())
        .await?;
        let rows = rows
            .iter()
            .map(|row| {
                Ok(LedgerRow {
                    id: row.try_get("id")?,
                    knight: row.try_get("knight_id")?,
                    hp_halves: row.try_get("hp_halves")?,
                    pp_halves: row.try_get("pp_halves")?,
                    kind: row.try_get("kind")?,
                    reason: row.try_get("reason")?,
                    fight: row.try_get("fight_id")?,
                    by_user: row.try_get("by_user")?,
                    revokes: row.try_get("revokes")?,
                    revoked_by: row.try_get("revoked_by")?,
                    month: row.try_get("month")?,
                    at: row.try_get("at")?,
                })
            })
            .collect::<Result<_>>()?;
        Ok((rows, total))
    }

    /// A knight's Honor over time: the balance (halves) after each realm day with an entry,
    /// oldest first, at most the last `days` days that had one.
    pub async fn web_honor_series(&self, knight: Id, days: i64) -> Result<Vec<(String, i64)>> {
        let rows = db::query(
            "SELECT day, CAST(SUM(hp) OVER (ORDER BY day) AS BIGINT) AS balance FROM \
             (SELECT substr(at, 1, 10) AS day, CAST(SUM(hp_halves) AS BIGINT) AS hp FROM ledger \
              WHERE knight_id = ? GROUP BY day) AS days ORDER BY day",
        )
        .bind(knight)
        .fetch_all(self.db())
        .await?;
        let all = rows
            .iter()
            .map(|r| Ok((r.try_get("day")?, r.try_get("balance")?)))
            .collect::<Result<Vec<(String, i64)>>>()?;
        let skip = all.len().saturating_sub(usize::try_from(days).unwrap_or(0));
        Ok(all.into_iter().skip(skip).collect())
    }

    /// The realm's tournaments, newest first.
    pub async fn web_tournaments(&self, realm: Id) -> Result<Vec<TournamentRow>> {
        let rows = db::query(
            "SELECT t.id, t.name, t.channel, t.starts_at, t.status, \
             (SELECT COUNT(*) FROM tournament_entries e WHERE e.tournament_id = t.id) AS entries \
             FROM tournaments t WHERE t.realm_id = ? ORDER BY t.starts_at DESC, t.id DESC",
        )
        .bind(realm)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentRow {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    channel: r.try_get("channel")?,
                    starts_at: r.try_get("starts_at")?,
                    status: r.try_get("status")?,
                    entries: r.try_get("entries")?,
                })
            })
            .collect()
    }

    /// A tournament's entrants by name, in the order they entered.
    pub async fn web_entrants(&self, tournament: Id) -> Result<Vec<(Id, String)>> {
        let rows = db::query(
            "SELECT k.id, k.name FROM tournament_entries e JOIN knights k ON k.id = e.knight_id \
             WHERE e.tournament_id = ? ORDER BY e.at, k.id",
        )
        .bind(tournament)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
            .collect()
    }

    /// A tournament's fights (Lists matches and Melee passes), in order.
    pub async fn web_tournament_fights(
        &self,
        realm: Id,
        tournament: Id,
    ) -> Result<Vec<FightSummary>> {
        let ids: Vec<Id> =
            db::query_scalar("SELECT id FROM fights WHERE tournament_id = ? ORDER BY id")
                .bind(tournament)
                .fetch_all(self.db())
                .await?;
        let mut fights = Vec::with_capacity(ids.len());
        for id in ids {
            fights.extend(self.fight_summary(realm, id).await?);
        }
        Ok(fights)
    }

    /// A tournament's awards, as the ledger has them, in order.
    pub async fn web_tournament_awards(&self, tournament: Id) -> Result<Vec<TournamentAwardRow>> {
        let rows = db::query(
            "SELECT k.name, l.hp_halves, l.pp_halves, l.reason FROM ledger l \
             JOIN knights k ON k.id = l.knight_id WHERE l.tournament_id = ? ORDER BY l.id",
        )
        .bind(tournament)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentAwardRow {
                    knight: r.try_get("name")?,
                    hp_halves: r.try_get("hp_halves")?,
                    pp_halves: r.try_get("pp_halves")?,
                    reason: r.try_get("reason")?,
                })
            })
            .collect()
    }

    /// The names the realm's players go by where the books key them by an id (a Discord
    /// player's nick, kept by [`Store::keep_shown_name`]), by the key.
    pub async fn web_shown_names(&self, realm: Id) -> Result<HashMap<String, String>> {
        let rows =
            db::query("SELECT u.name, n.shown FROM user_names n JOIN users u ON u.id = n.user_id WHERE u.realm_id = ?")
                .bind(realm)
                .fetch_all(self.db())
                .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("name")?, r.try_get("shown")?)))
            .collect()
    }

    /// The fight ids of a realm's fights still open in `channel`, newest first.
    pub async fn web_open_fights_in(&self, realm: Id, channel: &str) -> Result<Vec<Id>> {
        Ok(db::query_scalar(
            "SELECT id FROM fights WHERE realm_id = ? AND channel = ? AND ended_at IS NULL \
             ORDER BY id DESC",
        )
        .bind(realm)
        .bind(channel)
        .fetch_all(self.db())
        .await?)
    }
}
