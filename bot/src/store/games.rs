//! The books every game shares: which game a channel plays, the characters of the games other
//! than PsiKnight (sheet, state and record, the sheet and state as the game's JSON), and their
//! fights, in the same fights table and fight log as PsiKnight's, marked with the game's id.

use super::db::{self, Row};
use super::{in_order, step_from_row, Id, Step, Store};
use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde_json::Value;
use thiserror::Error;

/// Why a character could not be created.
#[derive(Debug, Error)]
pub enum CharacterError {
    /// The name is taken in this game and realm (any case).
    #[error("there is already a character named {0} in this game here")]
    NameTaken(String),
    /// The player already has a character in this game.
    #[error("you already have {0} in this game; a player has one character per game")]
    HasOne(String),
    /// Anything else.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A fighter's record in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Fights won.
    pub wins: i64,
    /// Fights lost.
    pub losses: i64,
    /// Fights drawn.
    pub draws: i64,
}

impl std::fmt::Display for Record {
    /// "3 wins, 1 loss, 0 draws".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural =
            |n: i64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        write!(
            f,
            "{} {}, {} {}, {} {}",
            self.wins,
            plural(self.wins, "win", "wins"),
            self.losses,
            plural(self.losses, "loss", "losses"),
            self.draws,
            plural(self.draws, "draw", "draws")
        )
    }
}

/// A character of a game other than PsiKnight, as the books hold it.
#[derive(Clone, Debug, PartialEq)]
pub struct Character {
    /// Database id.
    pub id: Id,
    /// The game's id.
    pub game: String,
    /// Its name, as created.
    pub name: String,
    /// The player; `None` for a non-player character.
    pub owner: Option<String>,
    /// Who created it: the player, or the moderator who made the NPC.
    pub created_by: String,
    /// The game's sheet.
    pub sheet: Value,
    /// What outlasts a fight.
    pub state: Value,
    /// Wins, losses, draws.
    pub record: Record,
}

impl Character {
    /// Whether Herald decides for it (a non-player character).
    pub fn is_npc(&self) -> bool {
        self.owner.is_none()
    }
}

/// A new fight of a game on the seam.
pub struct NewBout<'a> {
    /// Which realm.
    pub realm: Id,
    /// Which channel.
    pub channel: &'a str,
    /// The game's id.
    pub game: &'a str,
    /// The characters, challenger first.
    pub characters: [Id; 2],
    /// Who speaks for each side: the player, or the NPC's name.
    pub users: [&'a str; 2],
    /// The game's setup as JSON.
    pub setup: &'a Value,
    /// The seed.
    pub seed: [u8; 32],
    /// When.
    pub at: DateTime<Utc>,
    /// A group fight's every creature (`fight_members`); empty for a duel.
    pub members: &'a [BoutMember],
}

/// One creature of a group fight as the books keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoutMember {
    /// 0 for the challenger's side, 1 for the foes'.
    pub side: i64,
    /// Its place in the listing order.
    pub seat: i64,
    /// The character.
    pub character: Id,
    /// Who spoke for it: the player, or the NPC's name.
    pub user: String,
}

/// What a group fight's end writes for one of its creatures.
pub struct MemberEnd {
    /// The character.
    pub character: Id,
    /// What its record gains: one win, loss or draw.
    pub record: Record,
    /// Its sheet and state after the fight.
    pub after: (Value, Value),
}

/// The end of a fight of a game on the seam: written in one transaction with what outlasts it.
pub struct BoutEnd {
    /// Which fight.
    pub fight: Id,
    /// The number of the last step.
    pub seq: i64,
    /// The last step.
    pub last: Step<String>,
    /// The characters, challenger first.
    pub characters: [Id; 2],
    /// The winner's side index; `None` for a draw.
    pub winner: Option<usize>,
    /// Why it ended.
    pub reason: String,
    /// The game's outcome as JSON.
    pub outcome: Value,
    /// Each character's sheet and state after the fight.
    pub after: [(Value, Value); 2],
    /// In a group fight, every creature's record and what outlasts the fight, in place of
    /// `after`; empty for a duel.
    pub members: Vec<MemberEnd>,
}

/// A fight of a game on the seam, with its steps, as needed to restore or verify it.
#[derive(Clone, Debug)]
pub struct OpenBout {
    /// Database id.
    pub id: Id,
    /// The game's id.
    pub game: String,
    /// Where it is fought.
    pub channel: String,
    /// The characters, challenger first.
    pub characters: [Id; 2],
    /// Who speaks for each side.
    pub users: [String; 2],
    /// What it started from, as the game's JSON.
    pub setup: Value,
    /// The seed of its dice.
    pub seed: [u8; 32],
    /// Every step so far (decisions as JSON text).
    pub steps: Vec<Step<String>>,
    /// How it ended, once it has: the reason and the game's outcome.
    pub ended: Option<(String, Value)>,
    /// A group fight's every creature in listing order; empty for a duel.
    pub members: Vec<BoutMember>,
}

impl OpenBout {
    /// Every creature of the fight in listing order (a group fight's members, else the two),
    /// and how many of them are the challenger's side.
    pub fn creatures(&self) -> (Vec<Id>, usize) {
        if self.members.is_empty() {
            (self.characters.to_vec(), 1)
        } else {
            (
                self.members.iter().map(|m| m.character).collect(),
                self.members.iter().filter(|m| m.side == 0).count(),
            )
        }
    }
}

const CHARACTER_COLUMNS: &str =
    "c.id, c.game, c.name, u.name AS owner, c.created_by, c.sheet, c.state, c.wins, c.losses, c.draws";

fn character_from_row(row: &Row) -> Result<Character> {
    Ok(Character {
        id: row.try_get("id")?,
        game: row.try_get("game")?,
        name: row.try_get("name")?,
        owner: row.try_get("owner")?,
        created_by: row.try_get("created_by")?,
        sheet: serde_json::from_str(&row.try_get::<String, _>("sheet")?)
            .context("a character's sheet does not parse")?,
        state: serde_json::from_str(&row.try_get::<String, _>("state")?)
            .context("a character's state does not parse")?,
        record: Record {
            wins: row.try_get("wins")?,
            losses: row.try_get("losses")?,
            draws: row.try_get("draws")?,
        },
    })
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// A fight of characters (every game's but those with books of their own): 0005's checks
/// give each such fight a character on one side at least.
const OF_CHARACTERS: &str =
    "(challenger_character IS NOT NULL OR challenged_character IS NOT NULL)";

impl Store {
    /// The game a moderator chose for a channel, if one did.
    pub async fn channel_game(&self, realm: Id, channel: &str) -> Result<Option<String>> {
        Ok(
            db::query_scalar("SELECT game FROM channel_games WHERE realm_id = ? AND channel = ?")
                .bind(realm)
                .bind(channel)
                .fetch_optional(self.db())
                .await?,
        )
    }

    /// Remembers the game a channel plays.
    pub async fn set_channel_game(
        &self,
        realm: Id,
        channel: &str,
        game: &str,
        by: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        db::query(
            "INSERT INTO channel_games (realm_id, channel, game, set_by, at) VALUES (?, ?, ?, ?, ?) \
             ON CONFLICT (realm_id, channel) DO UPDATE SET game = excluded.game, \
             set_by = excluded.set_by, at = excluded.at",
        )
        .bind(realm)
        .bind(channel)
        .bind(game)
        .bind(by)
        .bind(at.to_rfc3339())
        .execute(self.db())
        .await?;
        Ok(())
    }

    /// Creates a character: a player's (`owner`) or an NPC (`owner` `None`).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_character(
        &self,
        realm: Id,
        game: &str,
        owner: Option<&str>,
        created_by: &str,
        name: &str,
        sheet: &Value,
        state: &Value,
        at: DateTime<Utc>,
    ) -> Result<Character, CharacterError> {
        let mut tx = self.db().begin().await?;
        let owner_id = match owner {
            Some(o) => Some(Store::user(&mut tx, realm, o).await?),
            None => None,
        };
        if let Some(owner_id) = owner_id {
            let had: Option<String> = db::query_scalar(
                "SELECT name FROM characters WHERE realm_id = ? AND game = ? AND owner_id = ? \
                 AND retired = 0",
            )
            .bind(realm)
            .bind(game)
            .bind(owner_id)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(name) = had {
                return Err(CharacterError::HasOne(name));
            }
        }
        let inserted = db::query_scalar::<Id>(
            "INSERT INTO characters (realm_id, game, owner_id, created_by, name, name_key, sheet, \
             state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(realm)
        .bind(game)
        .bind(owner_id)
        .bind(created_by)
        .bind(name)
        .bind(herald_engine::name::fold(name))
        .bind(sheet.to_string())
        .bind(state.to_string())
        .bind(at.to_rfc3339())
        .fetch_one(&mut *tx)
        .await;
        let id = match inserted {
            Ok(id) => id,
            Err(e) if is_unique_violation(&e) => {
                return Err(CharacterError::NameTaken(name.to_string()))
            }
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        Ok(Character {
            id,
            game: game.to_string(),
            name: name.to_string(),
            owner: owner.map(str::to_string),
            created_by: created_by.to_string(),
            sheet: sheet.clone(),
            state: state.clone(),
            record: Record::default(),
        })
    }

    /// A player's active character in a game.
    pub async fn character_of(
        &self,
        realm: Id,
        game: &str,
        owner: &str,
    ) -> Result<Option<Character>> {
        let sql = format!(
            "SELECT {CHARACTER_COLUMNS} FROM characters c JOIN users u ON u.id = c.owner_id \
             WHERE c.realm_id = ?1 AND c.game = ?2 AND u.name = COALESCE((SELECT l.account \
             FROM account_links l WHERE l.realm_id = ?1 AND l.member = ?3), ?3) AND c.retired = 0"
        );
        let row = db::query(&sql)
            .bind(realm)
            .bind(game)
            .bind(owner)
            .fetch_optional(self.db())
            .await?;
        row.as_ref().map(character_from_row).transpose()
    }

    /// An active character of a game by name, whatever the case and accents ("eowyn" finds
    /// "Éowyn", R170). A key stored lower-cased but not folded (a name with accents, written
    /// before keys were folded) is compared folded here.
    pub async fn character_named(
        &self,
        realm: Id,
        game: &str,
        name: &str,
    ) -> Result<Option<Character>> {
        let key = herald_engine::name::fold(name);
        let sql = format!(
            "SELECT {CHARACTER_COLUMNS} FROM characters c LEFT JOIN users u ON u.id = c.owner_id \
             WHERE c.realm_id = ? AND c.game = ? AND c.retired = 0 \
             AND (c.name_key = ? OR {}) ORDER BY c.name_key = ? DESC",
            self.db().non_ascii("c.name_key")
        );
        let rows = db::query(&sql)
            .bind(realm)
            .bind(game)
            .bind(&key)
            .bind(&key)
            .fetch_all(self.db())
            .await?;
        for row in &rows {
            let character = character_from_row(row)?;
            if herald_engine::name::fold(&character.name) == key {
                return Ok(Some(character));
            }
        }
        Ok(None)
    }

    /// A character by id, retired or not.
    pub async fn character(&self, id: Id) -> Result<Option<Character>> {
        let sql = format!(
            "SELECT {CHARACTER_COLUMNS} FROM characters c LEFT JOIN users u ON u.id = c.owner_id \
             WHERE c.id = ?"
        );
        let row = db::query(&sql).bind(id).fetch_optional(self.db()).await?;
        row.as_ref().map(character_from_row).transpose()
    }

    /// Every character of the books, in order of creation, with its realm's name.
    pub async fn all_characters(&self) -> Result<Vec<(String, Character, bool)>> {
        let sql = format!(
            "SELECT {CHARACTER_COLUMNS}, r.name AS realm_name, c.retired FROM characters c \
             LEFT JOIN users u ON u.id = c.owner_id JOIN realms r ON r.id = c.realm_id ORDER BY c.id"
        );
        let rows = db::query(&sql).fetch_all(self.db()).await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("realm_name")?,
                    character_from_row(row)?,
                    row.try_get("retired")?,
                ))
            })
            .collect()
    }

    /// Writes a character's sheet and state (between fights: a smith's repair, a day's healing).
    pub async fn save_character(&self, id: Id, sheet: &Value, state: &Value) -> Result<()> {
        db::query("UPDATE characters SET sheet = ?, state = ? WHERE id = ?")
            .bind(sheet.to_string())
            .bind(state.to_string())
            .bind(id)
            .execute(self.db())
            .await?;
        Ok(())
    }

    /// Retires a character: its name is free again, its fights stay in the books.
    pub async fn retire_character(&self, id: Id) -> Result<()> {
        db::query("UPDATE characters SET retired = 1 WHERE id = ?")
            .bind(id)
            .execute(self.db())
            .await?;
        Ok(())
    }

    /// Records a new fight of a game on the seam and its start step, in one transaction, its
    /// characters claimed for it ([`super::engaged::Engaged`] if one fights elsewhere).
    pub async fn start_bout(&self, f: NewBout<'_>, start: &Step<String>) -> Result<Id> {
        let mut tx = self.db().begin().await?;
        let id: Id = db::query_scalar(
            "INSERT INTO fights (realm_id, channel, game, kind, challenger_character, \
             challenged_character, challenger_user, challenged_user, setup, seed, seed_hash, \
             recorded, started_at, place) VALUES (?, ?, ?, 'bout', ?, ?, ?, ?, ?, ?, ?, 1, ?, \
             COALESCE(?, (SELECT name FROM realms WHERE id = ?))) RETURNING id",
        )
        .bind(f.realm)
        .bind(f.channel)
        .bind(f.game)
        .bind(f.characters[0])
        .bind(f.characters[1])
        .bind(f.users[0])
        .bind(f.users[1])
        .bind(f.setup.to_string())
        .bind(hex::encode(f.seed))
        .bind(crate::fairness::seed_hash(&f.seed))
        .bind(f.at.to_rfc3339())
        .bind(self.place_of(f.realm, f.channel))
        .bind(f.realm)
        .fetch_one(&mut *tx)
        .await?;
        for m in f.members {
            db::query(
                "INSERT INTO fight_members (fight_id, side, seat, character_id, player) \
                 VALUES (?, ?, ?, ?, ?)",
            )
            .bind(id)
            .bind(m.side)
            .bind(m.seat)
            .bind(m.character)
            .bind(&m.user)
            .execute(&mut *tx)
            .await?;
        }
        let fighters: Vec<Id> = if f.members.is_empty() {
            f.characters.to_vec()
        } else {
            f.members.iter().map(|m| m.character).collect()
        };
        super::engaged::claim(&mut tx, super::engaged::Fighters::Characters, &fighters, id).await?;
        let first = super::insert_steps(&mut tx, &[(id, 0, start)]).await?;
        db::query("UPDATE fights SET first_step = ? WHERE id = ?")
            .bind(first)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Ends a fight of a game on the seam: its last step, its outcome, both characters' sheets,
    /// states and records, in one transaction.
    pub async fn finish_bout(&self, end: &BoutEnd) -> Result<()> {
        let mut tx = self.db().begin().await?;
        super::insert_steps(&mut tx, &[(end.fight, end.seq, &end.last)]).await?;
        let winner = end.winner.map(|w| end.characters[w]);
        let done = db::query(
            "UPDATE fights SET ended_at = ?, winner_character = ?, reason = ?, outcome = ?, \
             steps = ? WHERE id = ? AND ended_at IS NULL",
        )
        .bind(end.last.at.to_rfc3339())
        .bind(winner)
        .bind(&end.reason)
        .bind(end.outcome.to_string())
        .bind(end.seq + 1)
        .bind(end.fight)
        .execute(&mut *tx)
        .await?;
        anyhow::ensure!(
            done.rows_affected() == 1,
            "fight #{} has already ended",
            end.fight
        );
        let mut rows: Vec<(Id, Record, &(Value, Value))> = end
            .members
            .iter()
            .map(|m| (m.character, m.record, &m.after))
            .collect();
        if rows.is_empty() {
            for (i, after) in end.after.iter().enumerate() {
                let (wins, losses, draws) = match end.winner {
                    None => (0, 0, 1),
                    Some(s) if s == i => (1, 0, 0),
                    Some(_) => (0, 1, 0),
                };
                let record = Record {
                    wins,
                    losses,
                    draws,
                };
                rows.push((end.characters[i], record, after));
            }
        }
        for (character, record, (sheet, state)) in rows {
            let (w, l, d) = (record.wins, record.losses, record.draws);
            db::query(
                "UPDATE characters SET sheet = ?, state = ?, wins = wins + ?, losses = losses + ?, \
                 draws = draws + ? WHERE id = ?",
            )
            .bind(sheet.to_string())
            .bind(state.to_string())
            .bind(w)
            .bind(l)
            .bind(d)
            .bind(character)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    const BOUT_COLUMNS: &'static str = "id, game, channel, challenger_character, \
        challenged_character, challenger_user, challenged_user, setup, seed, first_step, steps, \
        ended_at, reason, outcome";

    fn bout_from_row(row: &Row) -> Result<(OpenBout, Id, Option<i64>)> {
        let id: Id = row.try_get("id")?;
        let mut seed = [0u8; 32];
        hex::decode_to_slice(row.try_get::<String, _>("seed")?, &mut seed)
            .context("a fight's seed is not 64 hex digits")?;
        let ended = match row.try_get::<Option<String>, _>("ended_at")? {
            Some(_) => Some((
                row.try_get::<Option<String>, _>("reason")?
                    .unwrap_or_default(),
                serde_json::from_str(
                    &row.try_get::<Option<String>, _>("outcome")?
                        .unwrap_or_default(),
                )
                .context("a fight's outcome does not parse")?,
            )),
            None => None,
        };
        let bout = OpenBout {
            id,
            game: row.try_get("game")?,
            channel: row.try_get("channel")?,
            characters: [
                row.try_get::<Option<Id>, _>("challenger_character")?
                    .with_context(|| format!("fight #{id} names no character"))?,
                row.try_get::<Option<Id>, _>("challenged_character")?
                    .with_context(|| format!("fight #{id} names no character"))?,
            ],
            users: [
                row.try_get("challenger_user")?,
                row.try_get("challenged_user")?,
            ],
            setup: serde_json::from_str(&row.try_get::<String, _>("setup")?)
                .context("a fight's setup does not parse")?,
            seed,
            steps: Vec::new(),
            ended,
            members: Vec::new(),
        };
        let first: Option<Id> = row.try_get("first_step")?;
        Ok((
            bout,
            first.with_context(|| format!("fight #{id} has no steps"))?,
            row.try_get("steps")?,
        ))
    }

    async fn bout_steps(&self, id: Id, first: Id, count: Option<i64>) -> Result<Vec<Step<String>>> {
        let rows = db::query(
            "SELECT seq, side, decision, rolls, at FROM fight_steps \
             WHERE id >= ? AND fight_id = ? ORDER BY id LIMIT ?",
        )
        .bind(first)
        .bind(id)
        .bind(count.unwrap_or(i64::MAX))
        .fetch_all(self.db())
        .await?;
        let steps = rows.iter().map(raw_step).collect::<Result<Vec<_>>>()?;
        in_order(id, steps)
    }

    /// The game a fight belongs to; `None` when there is no such fight.
    pub async fn fight_game(&self, id: Id) -> Result<Option<String>> {
        Ok(db::query_scalar("SELECT game FROM fights WHERE id = ?")
            .bind(id)
            .fetch_optional(self.db())
            .await?)
    }

    /// A fight of a game on the seam with its steps, ended or not.
    pub async fn bout(&self, id: Id) -> Result<OpenBout> {
        let (mut bout, first, count) = self.bout_head(id).await?;
        bout.steps = self.bout_steps(id, first, count).await?;
        Ok(bout)
    }

    /// A fight of a game on the seam with `steps`, its log as a restart read it
    /// ([`Store::open_fights_in`]).
    pub async fn bout_with(&self, id: Id, steps: Vec<Step<String>>) -> Result<OpenBout> {
        let (mut bout, _, _) = self.bout_head(id).await?;
        bout.steps = steps;
        Ok(bout)
    }

    /// A fight of a game on the seam and its members, without its steps: with where its log
    /// starts and, once ended, how many steps it has.
    async fn bout_head(&self, id: Id) -> Result<(OpenBout, Id, Option<i64>)> {
        let sql = format!(
            "SELECT {} FROM fights WHERE id = ? AND {OF_CHARACTERS}",
            Self::BOUT_COLUMNS
        );
        let row = db::query(&sql)
            .bind(id)
            .fetch_optional(self.db())
            .await?
            .with_context(|| format!("there is no fight #{id} of a game on the seam"))?;
        let (mut bout, first, count) = Self::bout_from_row(&row)?;
        bout.members = self.bout_members(id).await?;
        Ok((bout, first, count))
    }

    /// A group fight's creatures in listing order; none for a duel.
    pub async fn bout_members(&self, id: Id) -> Result<Vec<BoutMember>> {
        let rows = db::query(
            "SELECT side, seat, character_id, player FROM fight_members WHERE fight_id = ? \
             ORDER BY seat",
        )
        .bind(id)
        .fetch_all(self.db())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(BoutMember {
                    side: row.try_get("side")?,
                    seat: row.try_get("seat")?,
                    character: row.try_get("character_id")?,
                    user: row.try_get("player")?,
                })
            })
            .collect()
    }
}

/// A step of the log read with its number, its decision kept as JSON text for its game's type
/// to decode.
pub(crate) fn raw_step(row: &Row) -> Result<(i64, Step<String>)> {
    let (seq, s) = step_from_row::<Value>(row)?;
    Ok((
        seq,
        Step {
            side: s.side,
            decision: s.decision.map(|d| d.to_string()),
            rolls: s.rolls,
            at: s.at,
        },
    ))
}
