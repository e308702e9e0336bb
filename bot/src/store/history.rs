//! A fight's history as the books keep it, for `/fight N` and `/fights [NAME]`: every game's
//! fights share the one `fights` table (PsiKnight's knights, the other games' characters).

use super::db::{self, Row};
use super::{Id, Store};
use anyhow::Result;

/// A fight as the history shows it.
#[derive(Clone, Debug)]
pub struct FightSummary {
    /// The fight's number.
    pub id: Id,
    /// The game's id (`psiknight`, `tourney`, ...).
    pub game: String,
    /// `practice`, `lists`, `melee` or `bout`.
    pub kind: String,
    /// Where it was fought.
    pub channel: String,
    /// The challenger's and the challenged's names.
    pub fighters: [String; 2],
    /// Their players, as the books hold them.
    pub players: [String; 2],
    /// The winner's name; `None` for a draw or a fight still open.
    pub winner: Option<String>,
    /// How it ended (`unhorsed`, `kill`, `yield`, ...), once ended.
    pub reason: Option<String>,
    /// Whether it counted as the pair's practice fight of the day (R26).
    pub recorded: bool,
    /// The tournament it was part of: its number and name.
    pub tournament: Option<(Id, String)>,
    /// Published when the fight starts.
    pub seed_hash: String,
    /// Published when it ends: `None` while the fight is open, so the history never tells it early.
    pub seed: Option<String>,
    /// RFC 3339.
    pub started_at: String,
    /// RFC 3339, once ended.
    pub ended_at: Option<String>,
}

/// What a fight moved in the ledger, one knight's sum.
#[derive(Clone, Debug)]
pub struct FightAwards {
    /// The knight's name.
    pub knight: String,
    /// Honor, in half points.
    pub hp_halves: i64,
    /// Prestige, in half points.
    pub pp_halves: i64,
}

const SUMMARY: &str = "SELECT f.id, f.game, f.kind, f.channel, f.recorded, f.seed_hash, f.seed, \
     f.started_at, f.ended_at, f.reason, f.challenger_user, f.challenged_user, \
     COALESCE(a.name, ca.name) AS a_name, COALESCE(b.name, cb.name) AS b_name, \
     COALESCE(w.name, cw.name) AS w_name, t.id AS t_id, t.name AS t_name FROM fights f \
     LEFT JOIN knights a ON a.id = f.challenger_id LEFT JOIN knights b ON b.id = f.challenged_id \
     LEFT JOIN knights w ON w.id = f.winner_id \
     LEFT JOIN characters ca ON ca.id = f.challenger_character \
     LEFT JOIN characters cb ON cb.id = f.challenged_character \
     LEFT JOIN characters cw ON cw.id = f.winner_character \
     LEFT JOIN tournaments t ON t.id = f.tournament_id";

fn summary(row: &Row) -> Result<FightSummary> {
    let ended_at: Option<String> = row.try_get("ended_at")?;
    let tournament = match row.try_get::<Option<Id>, _>("t_id")? {
        Some(id) => Some((id, row.try_get::<String, _>("t_name")?)),
        None => None,
    };
    Ok(FightSummary {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        kind: row.try_get("kind")?,
        channel: row.try_get("channel")?,
        fighters: [row.try_get("a_name")?, row.try_get("b_name")?],
        players: [
            row.try_get("challenger_user")?,
            row.try_get("challenged_user")?,
        ],
        winner: row.try_get("w_name")?,
        reason: row.try_get("reason")?,
        recorded: row.try_get("recorded")?,
        tournament,
        seed_hash: row.try_get("seed_hash")?,
        seed: match ended_at {
            Some(_) => Some(row.try_get("seed")?),
            None => None,
        },
        started_at: row.try_get("started_at")?,
        ended_at,
    })
}

impl Store {
    /// A fight of the realm by its number, any game, open or ended.
    pub async fn fight_summary(&self, realm: Id, id: Id) -> Result<Option<FightSummary>> {
        let row = db::query(&format!("{SUMMARY} WHERE f.realm_id = ? AND f.id = ?"))
            .bind(realm)
            .bind(id)
            .fetch_optional(self.db())
            .await?;
        row.as_ref().map(summary).transpose()
    }

    /// A group fight's sides, each its creatures' names and players in listing order; both
    /// empty for a duel, whose two the summary names.
    pub async fn fight_sides(&self, id: Id) -> Result<[Vec<(String, String)>; 2]> {
        let rows = db::query(
            "SELECT m.side, c.name, m.player FROM fight_members m \
             JOIN characters c ON c.id = m.character_id WHERE m.fight_id = ? ORDER BY m.seat",
        )
        .bind(id)
        .fetch_all(self.db())
        .await?;
        let mut sides = [Vec::new(), Vec::new()];
        for r in &rows {
            let side: i64 = r.try_get("side")?;
            sides[usize::from(side != 0)].push((r.try_get("name")?, r.try_get("player")?));
        }
        Ok(sides)
    }

    /// What the ledger holds for a fight, summed by knight, in the order they were first paid.
    pub async fn fight_awards(&self, id: Id) -> Result<Vec<FightAwards>> {
        let rows = db::query(
            "SELECT k.name, CAST(SUM(l.hp_halves) AS BIGINT) AS hp, CAST(SUM(l.pp_halves) AS BIGINT) AS pp FROM ledger l \
             JOIN knights k ON k.id = l.knight_id WHERE l.fight_id = ? \
             GROUP BY l.knight_id ORDER BY MIN(l.id)",
        )
        .bind(id)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(FightAwards {
                    knight: r.try_get("name")?,
                    hp_halves: r.try_get("hp")?,
                    pp_halves: r.try_get("pp")?,
                })
            })
            .collect()
    }

    /// A PsiKnight knight's fights, newest first: `limit` of them from `offset`, and how many
    /// there are in all.
    pub async fn fights_of_knight(
        &self,
        knight: Id,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<FightSummary>, i64)> {
        self.fights_where(
            "f.challenger_id = ?1 OR f.challenged_id = ?1",
            knight,
            offset,
            limit,
        )
        .await
    }

    /// A character's fights (the games other than PsiKnight), newest first, as
    /// [`Store::fights_of_knight`].
    pub async fn fights_of_character(
        &self,
        character: Id,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<FightSummary>, i64)> {
        self.fights_where(
            // A group fight's every member, not its leads alone (`fight_members`).
            "f.challenger_character = ?1 OR f.challenged_character = ?1 \
             OR f.id IN (SELECT fight_id FROM fight_members WHERE character_id = ?1)",
            character,
            offset,
            limit,
        )
        .await
    }

    async fn fights_where(
        &self,
        filter: &str,
        who: Id,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<FightSummary>, i64)> {
        let total: i64 = db::query_scalar(&format!("SELECT COUNT(*) FROM fights f WHERE {filter}"))
            .bind(who)
            .fetch_one(self.db())
            .await?;
        let rows = db::query(&format!(
            "{SUMMARY} WHERE {filter} ORDER BY f.id DESC LIMIT ?2 OFFSET ?3"
        ))
        .bind(who)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.db())
        .await?;
        let fights = rows.iter().map(summary).collect::<Result<Vec<_>>>()?;
        Ok((fights, total))
    }
}
