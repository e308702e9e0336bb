//! The books between fights: the realm as the engine's books see it ([`View`]), and one
//! transaction per change ([`Store::change`]) that loads that view, lets the engine decide, and
//! writes what it decided.
//!
//! Every change begins with `BEGIN IMMEDIATE`: the write lock is taken before the balances are
//! read, so two commands on the same points (two `/spend` from two channels, or two processes on
//! one file) are serialised by SQLite, and the second reads the balance the first left. A plain
//! `BEGIN` would let both read, then fail one of them on the upgrade to a write lock.
//!
//! Points move only through new ledger rows. Admin changes (`/admin award`, `revoke`, `rename`,
//! `retire`) are ledger rows too, each naming the admin; nothing is deleted from the ledger, and a
//! revocation is a new row pointing at the one it reverses (R153).

use super::db::{self, Row, Tx};
use super::{Balance, Id, KnightRecord, Store};
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::books::{
    self, Act, Captivity, Changes, Duty, Fact, Grievance, Holding, Points, Proposal, Realm, Reason,
};
use herald_engine::psiknight::{PsiSkill, Skill};
use std::collections::BTreeMap;
use thiserror::Error;

/// The realm as the books see it: the engine's [`Realm`] (balances, land, ranks, allegiances,
/// hostilities, offers, captives) and each knight's record (sheet and owner). Retired and dead
/// knights are not in it.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The engine's view.
    pub realm: Realm,
    /// Each active knight's record, by id.
    pub knights: BTreeMap<Id, KnightRecord>,
    /// Each open captivity's row id and the fight it came from, by captive.
    captivity_rows: BTreeMap<Id, (Id, Option<Id>)>,
    /// What the books hold against each present allegiance, by vassal: (kind, detail), oldest
    /// first (R150, R151, R152).
    pub marks: BTreeMap<Id, Vec<(String, String)>>,
}

impl View {
    /// "Sir Alan", "Baroness Brenna"; "knight 7" for an id not in the realm.
    pub fn styled(&self, id: Id) -> String {
        self.realm.styled(id)
    }

    /// The knight's holding, if active in the realm.
    pub fn holding(&self, id: Id) -> Option<&Holding> {
        self.realm.knights.get(&id)
    }

    /// The refused duties on record against a vassal's present allegiance (R106, R152).
    pub fn refused_duties(&self, vassal: Id) -> Vec<&str> {
        self.marks_of(vassal, &["unapproved_hostility", "unpaid_ransom"])
    }

    /// The lord's failures on record against a vassal's present allegiance, with the grievance
    /// each gives (R151, R152).
    pub fn grievances(&self, vassal: Id) -> Vec<(Grievance, &str)> {
        self.marks
            .get(&vassal)
            .into_iter()
            .flatten()
            .filter_map(|(kind, detail)| match kind.as_str() {
                "lord_broke" => Some((Grievance::LordBrokeWithHigherLord, detail.as_str())),
                "lord_failed_ransom" => Some((Grievance::LordFailedToRansom, detail.as_str())),
                _ => None,
            })
            .collect()
    }

    fn marks_of(&self, vassal: Id, kinds: &[&str]) -> Vec<&str> {
        self.marks
            .get(&vassal)
            .into_iter()
            .flatten()
            .filter(|(kind, _)| kinds.contains(&kind.as_str()))
            .map(|(_, detail)| detail.as_str())
            .collect()
    }

    /// The fight a captive was taken in, if any.
    pub fn capture_fight(&self, captive: Id) -> Option<Id> {
        self.captivity_rows.get(&captive).and_then(|(_, f)| *f)
    }
}

/// Who makes a change, where and when.
#[derive(Clone, Copy, Debug)]
pub struct Doer<'a> {
    /// The realm.
    pub realm: Id,
    /// The player (or admin) who asked, written on every ledger row.
    pub user: &'a str,
    /// The knight who acts, if any: the declarer of a hostility.
    pub actor: Option<Id>,
    /// The fight the change comes from (a capture), if any.
    pub fight: Option<Id>,
    /// When.
    pub at: DateTime<Utc>,
    /// The realm month of `at` (R25).
    pub month: &'a str,
}

/// What an operation decided: the engine's changes, and what the caller wants back.
#[derive(Clone, Debug)]
pub struct Plan<T> {
    /// What to write.
    pub changes: Changes,
    /// The ransom the victor accepted when a demand releases the captive (R107): the duties are
    /// judged against it rather than against the ransom asked before.
    pub accepted: Option<Points>,
    /// The caller's value (the reply, usually).
    pub value: T,
}

impl<T> Plan<T> {
    /// A plan that writes `changes` and returns `value`.
    pub fn new(changes: Changes, value: T) -> Plan<T> {
        Plan {
            changes,
            accepted: None,
            value,
        }
    }
}

/// One row of a knight's ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerRow {
    /// The entry's number.
    pub id: Id,
    /// Whose books.
    pub knight: Id,
    /// Honor ×2.
    pub hp_halves: i64,
    /// Prestige ×2.
    pub pp_halves: i64,
    /// What kind of change: `practice`, `spend`, `admin`, `revoke`, ...
    pub kind: String,
    /// Why, in words.
    pub reason: String,
    /// The fight it came from.
    pub fight: Option<Id>,
    /// The player or admin who made it.
    pub by_user: Option<String>,
    /// The entry this one reverses.
    pub revokes: Option<Id>,
    /// The entry that reversed this one.
    pub revoked_by: Option<Id>,
    /// The realm month (YYYY-MM).
    pub month: String,
    /// When (RFC 3339).
    pub at: String,
}

/// A knight's place in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The knight.
    pub knight: KnightRecord,
    /// Their balances.
    pub balance: Balance,
}

/// A grant of lands offered by a player noble, awaiting the knight's answer (R172).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrantOffer {
    /// The noble who offers.
    pub lord: Id,
    /// The knight offered the lands.
    pub vassal: Id,
    /// When it was offered.
    pub at: DateTime<Utc>,
}

/// Why an admin's change to the books is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AdminRefusal {
    /// No such entry in this realm.
    #[error("there is no ledger entry #{0} in this realm")]
    NoEntry(Id),
    /// Revoked before.
    #[error("entry #{entry} was already revoked by entry #{by}; nothing is revoked twice (R153)")]
    AlreadyRevoked {
        /// The entry.
        entry: Id,
        /// The revocation.
        by: Id,
    },
    /// A revocation, or a row that moved no points.
    #[error("entry #{0} is itself a record of an admin's act, not an award; it cannot be revoked (R153)")]
    NotAnAward(Id),
    /// An entry that paid for a change in the realm.
    #[error("entry #{entry} paid for a change in the realm ({kind}) that a revocation would not undo; correct it with /admin award instead (R153)")]
    PaidForChange {
        /// The entry.
        entry: Id,
        /// Its kind.
        kind: String,
    },
    /// The new name is taken.
    #[error("there is already a knight named {0} in this realm")]
    NameTaken(String),
}

/// The ledger kind of an engine reason: the reason's own tag, `award` for awards (the practice
/// award is written by the fight, with its own kind).
pub fn reason_kind(r: &Reason) -> &'static str {
    match r {
        Reason::Award {
            award: books::HonorAward::Practice,
        } => "practice",
        Reason::Award { .. } => "award",
        Reason::Spend { .. } => "spend",
        Reason::LandFromMonarch => "land_from_monarch",
        Reason::LandGranted { .. } => "land_granted",
        Reason::LandReceived { .. } => "land_received",
        Reason::Sworn { .. } => "sworn",
        Reason::Consent => "consent",
        Reason::Oathbreaking { .. } => "oathbreaking",
        Reason::RefusedDuty { .. } => "refused_duty",
        Reason::Renounced { .. } => "renounced",
        Reason::HostilityDeclared => "hostility_declared",
        Reason::Peace => "peace",
        Reason::RansomPaid { .. } => "ransom_paid",
        Reason::RansomReceived { .. } => "ransom_received",
        Reason::Death { .. } => "death",
    }
}

/// Ledger kinds that paid for a change in the realm (a skill, lands, an allegiance, a release)
/// or are the record of an act: a revocation would leave the change and undo only its price, so
/// they are never revoked (R153).
const UNREVOKABLE: &[&str] = &[
    "spend",
    "land_from_monarch",
    "land_granted",
    "land_received",
    "oathbreaking",
    "refused_duty",
    "ransom_paid",
    "ransom_received",
];

/// Ledger kinds that record an admin's act rather than points (R153).
const RECORDS: &[&str] = &["revoke", "rename", "retire"];

/// A ledger line's reason in words, with knights by their styled names and the ruling at the end:
/// "granted lands to Sir Alan (R31)".
pub fn reason_text(realm: &Realm, r: &Reason) -> String {
    let n = |id: Id| realm.styled(id);
    let what = match r {
        Reason::Award { award } => return award.to_string(),
        Reason::Spend { skill, from, to } => format!("raised {skill} from {from} to {to}"),
        Reason::LandFromMonarch => "a grant of lands from the monarch".to_string(),
        Reason::LandGranted { vassal } => format!("granted lands to {}", n(*vassal)),
        Reason::LandReceived { lord } => format!("lands granted by {}", n(*lord)),
        Reason::Sworn { lord } => format!("swore allegiance to {}", n(*lord)),
        Reason::Consent => "allegiance ended by mutual consent".to_string(),
        Reason::Oathbreaking { against } => {
            format!("oathbreaking: declared hostility against {}", n(*against))
        }
        Reason::RefusedDuty { lord } => format!(
            "dismissed by {} for refusing the duties of allegiance",
            n(*lord)
        ),
        Reason::Renounced { grievance } => format!("allegiance renounced: {grievance}"),
        Reason::HostilityDeclared => "hostility declared".to_string(),
        Reason::Peace => "hostility ended by both".to_string(),
        Reason::RansomPaid { captive } => format!("ransom paid for {}", n(*captive)),
        Reason::RansomReceived { captive } => format!("ransom received for {}", n(*captive)),
        Reason::Death { knight } => format!("{} died in captivity", n(*knight)),
    };
    format!("{what} ({})", r.rule())
}

fn act_name(act: Act) -> &'static str {
    match act {
        Act::Allegiance => "allegiance",
        Act::Release => "release",
        Act::Peace => "peace",
    }
}

fn act_from(name: &str) -> Option<Act> {
    match name {
        "allegiance" => Some(Act::Allegiance),
        "release" => Some(Act::Release),
        "peace" => Some(Act::Peace),
        _ => None,
    }
}

/// The column of a skill; names come from the engine's enums, never from input.
fn skill_column(skill: books::AnySkill) -> &'static str {
    match skill {
        books::AnySkill::Fighting(s) => s.name(),
        books::AnySkill::Psi(s) => s.name(),
    }
}

/// A skill's present value on a knight's sheet.
pub fn skill_value(k: &KnightRecord, skill: books::AnySkill) -> u8 {
    match skill {
        books::AnySkill::Fighting(s) => k.sheet.skill(s),
        books::AnySkill::Psi(s) => k.sheet.psi(s),
    }
}

/// A ledger row to insert; the realm, the user, the month and the time come from the [`Doer`].
struct NewRow<'a> {
    knight: Id,
    hp: i64,
    pp: i64,
    kind: &'a str,
    reason: &'a str,
    fight: Option<Id>,
    revokes: Option<Id>,
}

impl<'a> NewRow<'a> {
    /// A row that moves no points: the record of an admin's act.
    fn record(knight: Id, kind: &'a str, reason: &'a str) -> NewRow<'a> {
        NewRow {
            knight,
            hp: 0,
            pp: 0,
            kind,
            reason,
            fight: None,
            revokes: None,
        }
    }
}

fn json(r: &Reason) -> String {
    serde_json::to_string(r).unwrap_or_else(|_| format!("{{\"kind\":\"{}\"}}", reason_kind(r)))
}

/// Whether the vassal's lord broke allegiance with `higher` by their own act (R151): the lord
/// declared hostility against `higher`, or renounced them. A dismissal is `higher`'s act, mutual
/// consent is no break of faith, and a death is no act at all.
fn lord_broke(reason: &Reason, higher: Id) -> bool {
    match reason {
        Reason::Oathbreaking { against } => *against == higher,
        Reason::Renounced { .. } => true,
        _ => false,
    }
}

impl Store {
    /// Loads the realm's books inside a transaction.
    async fn load_view(tx: &mut Tx<'_>, realm: Id) -> Result<View> {
        let sql = format!(
            "SELECT {}, k.lord_id, k.ransomed_lord, \
             COALESCE((SELECT CAST(SUM(l.hp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0) AS hp, \
             COALESCE((SELECT CAST(SUM(l.pp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0) AS pp \
             FROM knights k JOIN users u ON u.id = k.owner_id \
             WHERE k.realm_id = ? AND k.retired = 0 ORDER BY k.id",
            Self::KNIGHT_COLUMNS
        );
        let rows = db::query(&sql).bind(realm).fetch_all(&mut *tx).await?;
        let mut view = View::default();
        for row in &rows {
            let k = Self::knight_from_row(row)?;
            let holding = Holding {
                name: k.sheet.name.clone(),
                style: k.sheet.style,
                hp: Points::from_halves(row.try_get("hp")?),
                pp: Points::from_halves(row.try_get("pp")?),
                landed: k.landed,
                rank: k.rank,
                lord: row.try_get("lord_id")?,
                ransomed_lord: row.try_get::<bool, _>("ransomed_lord")?,
            };
            view.realm.insert(k.id, holding);
            view.knights.insert(k.id, k);
        }
        for row in db::query(
            "SELECT knight_lo, knight_hi FROM hostilities WHERE realm_id = ? AND ended_at IS NULL",
        )
        .bind(realm)
        .fetch_all(&mut *tx)
        .await?
        {
            view.realm.hostilities.insert(books::pair(
                row.try_get("knight_lo")?,
                row.try_get("knight_hi")?,
            ));
        }
        for row in db::query("SELECT from_id, to_id, act FROM offers WHERE realm_id = ?")
            .bind(realm)
            .fetch_all(&mut *tx)
            .await?
        {
            if let Some(act) = act_from(&row.try_get::<String, _>("act")?) {
                view.realm.proposals.insert(Proposal {
                    from: row.try_get("from_id")?,
                    to: row.try_get("to_id")?,
                    act,
                });
            }
        }
        for row in db::query(
            "SELECT id, captive_id, victor_id, fight_id, under_hostility, customary_halves, \
             demanded_halves FROM captivities WHERE realm_id = ? AND ended_at IS NULL",
        )
        .bind(realm)
        .fetch_all(&mut *tx)
        .await?
        {
            let id: Id = row.try_get("id")?;
            let captive: Id = row.try_get("captive_id")?;
            let mut payments = BTreeMap::new();
            for p in db::query(
                "SELECT payer_id, CAST(SUM(halves) AS BIGINT) AS paid FROM ransom_payments \
                 WHERE captivity_id = ? GROUP BY payer_id",
            )
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            {
                payments.insert(
                    p.try_get::<Id, _>("payer_id")?,
                    Points::from_halves(p.try_get("paid")?),
                );
            }
            view.realm.captivities.insert(
                captive,
                Captivity {
                    captive,
                    victor: row.try_get("victor_id")?,
                    under_hostility: row.try_get::<bool, _>("under_hostility")?,
                    customary: Points::from_halves(row.try_get("customary_halves")?),
                    demanded: row
                        .try_get::<Option<i64>, _>("demanded_halves")?
                        .map(Points::from_halves),
                    payments,
                },
            );
            view.captivity_rows
                .insert(captive, (id, row.try_get("fight_id")?));
        }
        for row in db::query(
            "SELECT a.vassal_id, m.kind, m.detail FROM allegiance_marks m \
             JOIN allegiances a ON a.id = m.allegiance_id \
             WHERE a.realm_id = ? AND a.ended_at IS NULL ORDER BY m.id",
        )
        .bind(realm)
        .fetch_all(&mut *tx)
        .await?
        {
            view.marks
                .entry(row.try_get("vassal_id")?)
                .or_default()
                .push((row.try_get("kind")?, row.try_get("detail")?));
        }
        Ok(view)
    }

    /// Whether any hostility is open in the realm: without one no fight is for ransom, and the
    /// realm's books need not be loaded to say so.
    pub async fn any_hostility(&self, realm: Id) -> Result<bool> {
        let open: bool = db::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM hostilities WHERE realm_id = ? AND ended_at IS NULL)",
        )
        .bind(realm)
        .fetch_one(&self.pool)
        .await?;
        Ok(open)
    }

    /// The realm's books as they stand, outside any change (for replies and queries).
    pub async fn books_view(&self, realm: Id) -> Result<View> {
        let mut tx = self.pool.begin().await?;
        Self::load_view(&mut tx, realm).await
    }

    /// One change to the books, in one transaction: take the write lock, load the realm, let
    /// `op` decide against it (a refusal is one line for the player and writes nothing), write
    /// every ledger row and fact, commit. Returns the op's value and the new ledger entries' ids.
    pub async fn change<T>(
        &self,
        doer: &Doer<'_>,
        op: impl FnOnce(&View) -> Result<Plan<T>, String>,
    ) -> Result<Result<(T, Vec<Id>), String>> {
        let mut tx = self.pool.begin_write().await?;
        let view = Self::load_view(&mut tx, doer.realm).await?;
        let plan = match op(&view) {
            Ok(plan) => plan,
            Err(refusal) => {
                tx.rollback().await?;
                return Ok(Err(refusal));
            }
        };
        let ids = Self::write_changes(&mut tx, &view, doer, &plan.changes, plan.accepted).await?;
        tx.commit().await?;
        Ok(Ok((plan.value, ids)))
    }

    /// Records `lord`'s offer of a grant of lands to `vassal` (R172), in one transaction that
    /// first lets `check` judge it against the books as they stand (the grant must be one that
    /// could be made now). A second offer to the same knight renews the first.
    pub async fn offer_grant<T>(
        &self,
        doer: &Doer<'_>,
        lord: Id,
        vassal: Id,
        check: impl FnOnce(&View) -> Result<T, String>,
    ) -> Result<Result<T, String>> {
        let mut tx = self.pool.begin_write().await?;
        let view = Self::load_view(&mut tx, doer.realm).await?;
        let value = match check(&view) {
            Ok(v) => v,
            Err(refusal) => {
                tx.rollback().await?;
                return Ok(Err(refusal));
            }
        };
        db::query(
            "INSERT INTO grant_offers (realm_id, lord_id, vassal_id, at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (lord_id, vassal_id) DO UPDATE SET at = excluded.at",
        )
        .bind(doer.realm)
        .bind(lord)
        .bind(vassal)
        .bind(doer.at.to_rfc3339())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(value))
    }

    /// The grants of lands offered to or by `knight` and not yet answered: (lord, vassal, when).
    pub async fn grant_offers(&self, knight: Id) -> Result<Vec<GrantOffer>> {
        let rows = db::query(
            "SELECT lord_id, vassal_id, at FROM grant_offers WHERE lord_id = ? OR vassal_id = ? \
             ORDER BY at, lord_id",
        )
        .bind(knight)
        .bind(knight)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let at: String = r.try_get("at")?;
                Ok(GrantOffer {
                    lord: r.try_get("lord_id")?,
                    vassal: r.try_get("vassal_id")?,
                    at: DateTime::parse_from_rfc3339(&at)?.with_timezone(&Utc),
                })
            })
            .collect()
    }

    /// Removes an offer of a grant (declined, withdrawn, or lapsed); whether there was one.
    pub async fn drop_grant_offer(&self, lord: Id, vassal: Id) -> Result<bool> {
        let done = db::query("DELETE FROM grant_offers WHERE lord_id = ? AND vassal_id = ?")
            .bind(lord)
            .bind(vassal)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The knight's acceptance of `lord`'s grant (R172): in one `BEGIN IMMEDIATE` transaction,
    /// the offer is taken (refused if it is gone, or was made before `since`, when it lapsed),
    /// then `op` decides the grant against the books as they stand and its changes are written.
    pub async fn accept_grant<T>(
        &self,
        doer: &Doer<'_>,
        lord: Id,
        vassal: Id,
        since: DateTime<Utc>,
        op: impl FnOnce(&View) -> Result<Plan<T>, String>,
    ) -> Result<Result<(T, Vec<Id>), String>> {
        let mut tx = self.pool.begin_write().await?;
        let at: Option<String> =
            db::query_scalar("SELECT at FROM grant_offers WHERE lord_id = ? AND vassal_id = ?")
                .bind(lord)
                .bind(vassal)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(at) = at else {
            tx.rollback().await?;
            return Ok(Err("That grant of lands is no longer open.".to_string()));
        };
        let lapsed = DateTime::parse_from_rfc3339(&at).map_or(true, |t| t < since);
        db::query("DELETE FROM grant_offers WHERE lord_id = ? AND vassal_id = ?")
            .bind(lord)
            .bind(vassal)
            .execute(&mut *tx)
            .await?;
        if lapsed {
            tx.commit().await?;
            return Ok(Err("That grant of lands lapsed unanswered.".to_string()));
        }
        let view = Self::load_view(&mut tx, doer.realm).await?;
        let plan = match op(&view) {
            Ok(plan) => plan,
            Err(refusal) => {
                // The offer cannot be made good as the books now stand: it is gone.
                tx.commit().await?;
                return Ok(Err(refusal));
            }
        };
        let ids = Self::write_changes(&mut tx, &view, doer, &plan.changes, plan.accepted).await?;
        tx.commit().await?;
        Ok(Ok((plan.value, ids)))
    }

    async fn insert_ledger(tx: &mut Tx<'_>, doer: &Doer<'_>, row: NewRow<'_>) -> Result<Id> {
        let id = db::query_scalar(
            "INSERT INTO ledger (realm_id, knight_id, hp_halves, pp_halves, kind, reason, fight_id, \
             by_user, revokes, month, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(doer.realm)
        .bind(row.knight)
        .bind(row.hp)
        .bind(row.pp)
        .bind(row.kind)
        .bind(row.reason)
        .bind(row.fight)
        .bind(doer.user)
        .bind(row.revokes)
        .bind(doer.month)
        .bind(doer.at.to_rfc3339())
        .fetch_one(&mut *tx)
        .await?;
        // A change by hand is rare: the sums take it at once, so that the next page read of
        // them has nothing to fold (only the fights' ends, many at a time, wait for a reader).
        super::sums::fold(tx).await?;
        Ok(id)
    }

    async fn open_allegiance(tx: &mut Tx<'_>, vassal: Id) -> Result<Option<Id>> {
        Ok(
            db::query_scalar("SELECT id FROM allegiances WHERE vassal_id = ? AND ended_at IS NULL")
                .bind(vassal)
                .fetch_optional(&mut *tx)
                .await?,
        )
    }

    async fn mark(
        tx: &mut Tx<'_>,
        vassal: Id,
        kind: &str,
        detail: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        if let Some(allegiance) = Self::open_allegiance(tx, vassal).await? {
            db::query(
                "INSERT INTO allegiance_marks (allegiance_id, kind, detail, at) VALUES (?, ?, ?, ?)",
            )
            .bind(allegiance)
            .bind(kind)
            .bind(detail)
            .bind(at.to_rfc3339())
            .execute(&mut *tx)
            .await?;
        }
        Ok(())
    }

    /// Writes an operation's changes: ledger rows first, then facts, keeping a working copy of
    /// the realm so each fact is read against the state the ones before it left.
    async fn write_changes(
        tx: &mut Tx<'_>,
        view: &View,
        doer: &Doer<'_>,
        changes: &Changes,
        accepted: Option<Points>,
    ) -> Result<Vec<Id>> {
        let at = doer.at.to_rfc3339();
        let mut work = view.realm.clone();
        let mut rows = view.captivity_rows.clone();
        let mut ids = Vec::new();
        for e in &changes.entries {
            let fight = match e.reason {
                Reason::RansomPaid { captive } | Reason::RansomReceived { captive } => {
                    rows.get(&captive).and_then(|(_, f)| *f)
                }
                _ => doer.fight,
            };
            let text = reason_text(&view.realm, &e.reason);
            let row = NewRow {
                knight: e.knight,
                hp: e.hp.halves(),
                pp: e.pp.halves(),
                kind: reason_kind(&e.reason),
                reason: &text,
                fight,
                revokes: None,
            };
            let id = Self::insert_ledger(tx, doer, row).await?;
            ids.push(id);
            if let Reason::RansomPaid { captive } = e.reason {
                let paid = -e.pp;
                if let Some((captivity, _)) = rows.get(&captive) {
                    db::query(
                        "INSERT INTO ransom_payments (captivity_id, payer_id, halves, ledger_id, at) \
                         VALUES (?, ?, ?, ?, ?)",
                    )
                    .bind(captivity)
                    .bind(e.knight)
                    .bind(paid.halves())
                    .bind(id)
                    .bind(&at)
                    .execute(&mut *tx)
                    .await?;
                }
                if let Some(c) = work.captivities.get_mut(&captive) {
                    let own = c.paid_by(e.knight) + paid;
                    c.payments.insert(e.knight, own);
                }
            }
        }
        // Balances move with the entries; the facts below read names and ties only.
        work.apply(&Changes {
            entries: changes.entries.clone(),
            facts: Vec::new(),
        });
        for fact in &changes.facts {
            match fact {
                Fact::Landed { knight } => {
                    db::query("UPDATE knights SET landed = 1 WHERE id = ?")
                        .bind(knight)
                        .execute(&mut *tx)
                        .await?;
                }
                Fact::Lord {
                    vassal,
                    lord,
                    reason,
                } => {
                    let old = work.knights.get(vassal).and_then(|h| h.lord);
                    if let Some(old) = old.filter(|&o| lord_broke(reason, o)) {
                        // The vassal broke with their own lord: their vassals may renounce (R151).
                        let detail = format!(
                            "{} broke allegiance with {} (R33, R151)",
                            work.styled(*vassal),
                            work.styled(old)
                        );
                        for v in work.vassals(*vassal).collect::<Vec<_>>() {
                            Self::mark(tx, v, "lord_broke", &detail, doer.at).await?;
                        }
                    }
                    db::query(
                        "UPDATE allegiances SET ended_at = ?, ended_reason = ? \
                         WHERE vassal_id = ? AND ended_at IS NULL",
                    )
                    .bind(&at)
                    .bind(json(reason))
                    .bind(vassal)
                    .execute(&mut *tx)
                    .await?;
                    if let Some(l) = lord {
                        db::query(
                            "INSERT INTO allegiances (realm_id, vassal_id, lord_id, began_at, began_reason) \
                             VALUES (?, ?, ?, ?, ?)",
                        )
                        .bind(doer.realm)
                        .bind(vassal)
                        .bind(l)
                        .bind(&at)
                        .bind(json(reason))
                        .execute(&mut *tx)
                        .await?;
                    }
                    db::query("UPDATE knights SET lord_id = ?, ransomed_lord = 0 WHERE id = ?")
                        .bind(lord)
                        .bind(vassal)
                        .execute(&mut *tx)
                        .await?;
                }
                Fact::Rank { knight, rank } => {
                    db::query("UPDATE knights SET rank = ? WHERE id = ?")
                        .bind(rank.name())
                        .bind(knight)
                        .execute(&mut *tx)
                        .await?;
                }
                Fact::Skill {
                    knight,
                    skill,
                    value,
                } => {
                    let sql = format!(
                        "UPDATE knights SET {} = ? WHERE id = ?",
                        skill_column(*skill)
                    );
                    db::query(&sql)
                        .bind(value)
                        .bind(knight)
                        .execute(&mut *tx)
                        .await?;
                }
                Fact::HostilityBegun { a, b, reason } => {
                    let (lo, hi) = books::pair(*a, *b);
                    db::query(
                        "INSERT INTO hostilities (realm_id, knight_lo, knight_hi, declared_by, reason, began_at) \
                         VALUES (?, ?, ?, ?, ?, ?)",
                    )
                    .bind(doer.realm)
                    .bind(lo)
                    .bind(hi)
                    .bind(doer.actor)
                    .bind(json(reason))
                    .bind(&at)
                    .execute(&mut *tx)
                    .await?;
                    if let (Reason::HostilityDeclared, Some(declarer)) = (reason, doer.actor) {
                        // A vassal declares only with the lord's approval, and answers for the acts
                        // of their own vassals: each tie above the declarer is marked (R33, R106).
                        let other = if declarer == *a { *b } else { *a };
                        let detail = format!(
                            "{} declared hostility against {} without the lord's approval (R33, R106)",
                            work.styled(declarer),
                            work.styled(other)
                        );
                        let mut chain = vec![declarer];
                        chain.extend(work.lords_above(declarer));
                        for pair in chain.windows(2) {
                            if let [v, _] = pair {
                                Self::mark(tx, *v, "unapproved_hostility", &detail, doer.at)
                                    .await?;
                            }
                        }
                    }
                }
                Fact::HostilityEnded { a, b, reason } => {
                    let (lo, hi) = books::pair(*a, *b);
                    db::query(
                        "UPDATE hostilities SET ended_at = ?, ended_reason = ? \
                         WHERE knight_lo = ? AND knight_hi = ? AND ended_at IS NULL",
                    )
                    .bind(&at)
                    .bind(json(reason))
                    .bind(lo)
                    .bind(hi)
                    .execute(&mut *tx)
                    .await?;
                }
                Fact::Proposed(p) => {
                    db::query(
                        "INSERT INTO offers (realm_id, from_id, to_id, act, at) VALUES (?, ?, ?, ?, ?) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(doer.realm)
                    .bind(p.from)
                    .bind(p.to)
                    .bind(act_name(p.act))
                    .bind(&at)
                    .execute(&mut *tx)
                    .await?;
                }
                Fact::ProposalCleared(p) => {
                    db::query("DELETE FROM offers WHERE from_id = ? AND to_id = ? AND act = ?")
                        .bind(p.from)
                        .bind(p.to)
                        .bind(act_name(p.act))
                        .execute(&mut *tx)
                        .await?;
                }
                Fact::Held(c) => {
                    // A captivity open already changes its terms; a new one is a capture.
                    if let Some((id, _)) = rows.get(&c.captive).copied() {
                        db::query("UPDATE captivities SET demanded_halves = ? WHERE id = ?")
                            .bind(c.demanded.map(Points::halves))
                            .bind(id)
                            .execute(&mut *tx)
                            .await?;
                    } else {
                        let id: Id = db::query_scalar(
                            "INSERT INTO captivities (realm_id, captive_id, victor_id, fight_id, \
                             under_hostility, customary_halves, demanded_halves, began_at) \
                             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        )
                        .bind(doer.realm)
                        .bind(c.captive)
                        .bind(c.victor)
                        .bind(doer.fight)
                        .bind(c.under_hostility)
                        .bind(c.customary.halves())
                        .bind(c.demanded.map(Points::halves))
                        .bind(&at)
                        .fetch_one(&mut *tx)
                        .await?;
                        rows.insert(c.captive, (id, doer.fight));
                    }
                }
                Fact::Released { captive } => {
                    let mut fin = work.captivities.get(captive).cloned();
                    if let (Some(c), Some(a)) = (fin.as_mut(), accepted) {
                        c.demanded = Some(a);
                        if let Some(w) = work.captivities.get_mut(captive) {
                            w.demanded = Some(a);
                        }
                    }
                    let how = if fin.as_ref().is_some_and(Captivity::fully_paid) {
                        "paid"
                    } else {
                        "freed"
                    };
                    if let Some(c) = fin.filter(|c| c.paid().is_positive()) {
                        Self::judge_duties(tx, &work, &c, doer.at).await?;
                    }
                    db::query(
                        "UPDATE captivities SET ended_at = ?, ended_how = ? \
                         WHERE captive_id = ? AND ended_at IS NULL",
                    )
                    .bind(&at)
                    .bind(how)
                    .bind(captive)
                    .execute(&mut *tx)
                    .await?;
                    rows.remove(captive);
                }
                Fact::Killed { knight } => {
                    db::query(
                        "UPDATE captivities SET ended_at = ?, ended_how = 'killed' \
                         WHERE captive_id = ? AND ended_at IS NULL",
                    )
                    .bind(&at)
                    .bind(knight)
                    .execute(&mut *tx)
                    .await?;
                    // The dead hold no one: their captives go free (R157).
                    db::query(
                        "UPDATE captivities SET ended_at = ?, ended_how = 'freed' \
                         WHERE victor_id = ? AND ended_at IS NULL",
                    )
                    .bind(&at)
                    .bind(knight)
                    .execute(&mut *tx)
                    .await?;
                    db::query("UPDATE knights SET retired = 1, died_at = ? WHERE id = ?")
                        .bind(&at)
                        .bind(knight)
                        .execute(&mut *tx)
                        .await?;
                    // The dead neither give nor receive lands (R109, R172).
                    db::query("DELETE FROM grant_offers WHERE lord_id = ? OR vassal_id = ?")
                        .bind(knight)
                        .bind(knight)
                        .execute(&mut *tx)
                        .await?;
                    rows.remove(knight);
                }
                Fact::LordRansomed { vassal } => {
                    db::query("UPDATE knights SET ransomed_lord = 1 WHERE id = ?")
                        .bind(vassal)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            work.apply(&Changes {
                entries: Vec::new(),
                facts: vec![fact.clone()],
            });
        }
        Ok(ids)
    }

    /// A captivity ends in release after something was paid: each duty of allegiance it raised is
    /// judged on the final state (R152). A duty unmet is written against the allegiance: the
    /// lord's failure to ransom lets the vassal renounce; a vassal's unpaid share lets the lord
    /// dismiss them.
    async fn judge_duties(
        tx: &mut Tx<'_>,
        work: &Realm,
        fin: &Captivity,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let Ok(duties) = books::ransom_duties(work, fin.captive) else {
            return Ok(());
        };
        for duty in duties {
            if duty.met(fin) {
                continue;
            }
            match duty {
                Duty::LordRansomsVassal { lord } => {
                    let detail = format!(
                        "{} did not ransom their unlanded vassal {} (R33, R152)",
                        work.styled(lord),
                        work.styled(fin.captive)
                    );
                    Self::mark(tx, fin.captive, "lord_failed_ransom", &detail, at).await?;
                }
                Duty::VassalRansomsLord { vassal, .. } => {
                    let detail = format!(
                        "{} did not help ransom their lord {} (R33, R108, R152)",
                        work.styled(vassal),
                        work.styled(fin.captive)
                    );
                    Self::mark(tx, vassal, "unpaid_ransom", &detail, at).await?;
                }
            }
        }
        Ok(())
    }

    /// An admin's award by hand: one ledger row naming the admin, split as R29 and R101 say for a
    /// landed knight when positive; a negative award is a correction and takes Honor only (R154).
    pub async fn admin_award(
        &self,
        doer: &Doer<'_>,
        knight: Id,
        amount: Points,
        reason: &str,
    ) -> Result<(Id, books::Award)> {
        let mut tx = self.pool.begin_write().await?;
        let landed: bool = db::query_scalar("SELECT landed FROM knights WHERE id = ?")
            .bind(knight)
            .fetch_one(&mut *tx)
            .await?;
        let award = if amount.is_positive() {
            books::award(amount, landed)
        } else {
            books::Award {
                hp: amount,
                pp: Points::ZERO,
            }
        };
        let text = reason.to_string();
        let row = NewRow {
            hp: award.hp.halves(),
            pp: award.pp.halves(),
            ..NewRow::record(knight, "admin", &text)
        };
        let id = Self::insert_ledger(&mut tx, doer, row).await?;
        tx.commit().await?;
        Ok((id, award))
    }

    /// Reverses a ledger entry with a new one naming the admin (R153). Refused for an entry of
    /// another realm, one revoked before, a record of an admin's act, or an entry that paid for a
    /// change in the realm. Returns the reversed entry and the new one's id.
    pub async fn revoke(
        &self,
        doer: &Doer<'_>,
        entry: Id,
    ) -> Result<Result<(LedgerRow, Id), AdminRefusal>> {
        let mut tx = self.pool.begin_write().await?;
        let row = db::query(
            "SELECT l.id, l.knight_id, l.hp_halves, l.pp_halves, l.kind, l.reason, l.fight_id, \
             l.by_user, l.revokes, l.month, l.at, \
             (SELECT r.id FROM ledger r WHERE r.revokes = l.id) AS revoked_by \
             FROM ledger l WHERE l.id = ? AND l.realm_id = ?",
        )
        .bind(entry)
        .bind(doer.realm)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(Err(AdminRefusal::NoEntry(entry)));
        };
        let old = ledger_row(&row)?;
        let knight = old.knight;
        if let Some(by) = old.revoked_by {
            return Ok(Err(AdminRefusal::AlreadyRevoked { entry, by }));
        }
        if RECORDS.contains(&old.kind.as_str()) || (old.hp_halves == 0 && old.pp_halves == 0) {
            return Ok(Err(AdminRefusal::NotAnAward(entry)));
        }
        if UNREVOKABLE.contains(&old.kind.as_str()) {
            return Ok(Err(AdminRefusal::PaidForChange {
                entry,
                kind: old.kind.clone(),
            }));
        }
        let text = format!("revokes entry #{entry}: {}", old.reason);
        let row = NewRow {
            hp: -old.hp_halves,
            pp: -old.pp_halves,
            fight: old.fight,
            revokes: Some(entry),
            ..NewRow::record(knight, "revoke", &text)
        };
        let id = Self::insert_ledger(&mut tx, doer, row).await?;
        tx.commit().await?;
        Ok(Ok((old, id)))
    }

    /// Renames a knight, with a ledger row naming the admin. `new_name` is already checked (R122).
    pub async fn rename(
        &self,
        doer: &Doer<'_>,
        knight: &KnightRecord,
        new_name: &str,
    ) -> Result<Result<Id, AdminRefusal>> {
        let mut tx = self.pool.begin_write().await?;
        let taken: Option<String> = db::query_scalar(
            "SELECT name FROM knights WHERE realm_id = ? AND name_key = ? AND id <> ?",
        )
        .bind(doer.realm)
        .bind(new_name.to_lowercase())
        .bind(knight.id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(name) = taken {
            return Ok(Err(AdminRefusal::NameTaken(name)));
        }
        db::query("UPDATE knights SET name = ?, name_key = ? WHERE id = ?")
            .bind(new_name)
            .bind(new_name.to_lowercase())
            .bind(knight.id)
            .execute(&mut *tx)
            .await?;
        let text = format!(
            "renamed from {} to {new_name} by {}",
            knight.sheet.name, doer.user
        );
        let row = NewRow::record(knight.id, "rename", &text);
        let id = Self::insert_ledger(&mut tx, doer, row).await?;
        tx.commit().await?;
        Ok(Ok(id))
    }

    /// Retires a knight, with a ledger row naming the admin (R155): their allegiances end without
    /// penalty or hostility, their hostilities end, their offers lapse, the captives they hold are
    /// freed and a captivity they are in ends. Returns the ledger entry's id.
    pub async fn retire(&self, doer: &Doer<'_>, knight: &KnightRecord) -> Result<Id> {
        let at = doer.at.to_rfc3339();
        let retired = r#"{"kind":"retired"}"#;
        let mut tx = self.pool.begin_write().await?;
        db::query(
            "UPDATE allegiances SET ended_at = ?, ended_reason = ? \
             WHERE (vassal_id = ? OR lord_id = ?) AND ended_at IS NULL",
        )
        .bind(&at)
        .bind(retired)
        .bind(knight.id)
        .bind(knight.id)
        .execute(&mut *tx)
        .await?;
        db::query("UPDATE knights SET lord_id = NULL, ransomed_lord = 0 WHERE lord_id = ?")
            .bind(knight.id)
            .execute(&mut *tx)
            .await?;
        db::query(
            "UPDATE hostilities SET ended_at = ?, ended_reason = ? \
             WHERE (knight_lo = ? OR knight_hi = ?) AND ended_at IS NULL",
        )
        .bind(&at)
        .bind(retired)
        .bind(knight.id)
        .bind(knight.id)
        .execute(&mut *tx)
        .await?;
        db::query("DELETE FROM offers WHERE from_id = ? OR to_id = ?")
            .bind(knight.id)
            .bind(knight.id)
            .execute(&mut *tx)
            .await?;
        db::query("DELETE FROM grant_offers WHERE lord_id = ? OR vassal_id = ?")
            .bind(knight.id)
            .bind(knight.id)
            .execute(&mut *tx)
            .await?;
        db::query(
            "UPDATE captivities SET ended_at = ?, ended_how = 'retired' \
             WHERE (captive_id = ? OR victor_id = ?) AND ended_at IS NULL",
        )
        .bind(&at)
        .bind(knight.id)
        .bind(knight.id)
        .execute(&mut *tx)
        .await?;
        db::query("UPDATE knights SET retired = 1, lord_id = NULL WHERE id = ?")
            .bind(knight.id)
            .execute(&mut *tx)
            .await?;
        let text = format!("{} retired by {}", knight.styled(), doer.user);
        let row = NewRow::record(knight.id, "retire", &text);
        let id = Self::insert_ledger(&mut tx, doer, row).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// A knight's ledger, oldest first; only `month` (YYYY-MM) when given.
    pub async fn ledger(&self, knight: Id, month: Option<&str>) -> Result<Vec<LedgerRow>> {
        let rows = db::query(
            "SELECT l.id, l.knight_id, l.hp_halves, l.pp_halves, l.kind, l.reason, l.fight_id, \
             l.by_user, l.revokes, l.month, l.at, \
             (SELECT r.id FROM ledger r WHERE r.revokes = l.id) AS revoked_by \
             FROM ledger l WHERE l.knight_id = ? AND (? IS NULL OR l.month = ?) ORDER BY l.id",
        )
        .bind(knight)
        .bind(month)
        .bind(month)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(ledger_row).collect()
    }

    /// The realm's active knights with their balances, in id order.
    pub async fn standings(&self, realm: Id) -> Result<Vec<Standing>> {
        let sql = format!(
            "SELECT {}, \
             COALESCE((SELECT CAST(SUM(l.hp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0) AS hp, \
             COALESCE((SELECT CAST(SUM(l.pp_halves) AS BIGINT) FROM ledger l WHERE l.knight_id = k.id), 0) AS pp \
             FROM knights k JOIN users u ON u.id = k.owner_id \
             WHERE k.realm_id = ? AND k.retired = 0 ORDER BY k.id",
            Self::KNIGHT_COLUMNS
        );
        let rows = db::query(&sql).bind(realm).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| {
                Ok(Standing {
                    knight: Self::knight_from_row(row)?,
                    balance: Balance {
                        hp_halves: row.try_get("hp")?,
                        pp_halves: row.try_get("pp")?,
                    },
                })
            })
            .collect()
    }

    /// The knight holding `knight` for ransom, if `knight` is a captive (R33).
    pub async fn captor_of(&self, knight: Id) -> Result<Option<Id>> {
        Ok(db::query_scalar(
            "SELECT victor_id FROM captivities WHERE captive_id = ? AND ended_at IS NULL",
        )
        .bind(knight)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Whether `knight` is held for ransom and may not fight (R33).
    pub async fn is_captive(&self, knight: Id) -> Result<bool> {
        Ok(self.captor_of(knight).await?.is_some())
    }

    /// Whether a fight was fought for ransom (R33, R156).
    pub async fn is_ransom_fight(&self, fight: Id) -> Result<bool> {
        let n: i64 = db::query_scalar("SELECT COUNT(*) FROM ransom_fights WHERE fight_id = ?")
            .bind(fight)
            .fetch_one(&self.pool)
            .await?;
        Ok(n > 0)
    }

    /// Whether a knight has died in captivity (R33, R109).
    pub async fn is_dead(&self, knight: Id) -> Result<bool> {
        let died: Option<Option<String>> =
            db::query_scalar("SELECT died_at FROM knights WHERE id = ?")
                .bind(knight)
                .fetch_optional(&self.pool)
                .await?;
        Ok(died.flatten().is_some())
    }

    /// Whether a knight is retired (or dead, R155): no longer in any fight or tournament.
    pub async fn is_retired(&self, knight: Id) -> Result<bool> {
        let retired: Option<bool> = db::query_scalar("SELECT retired FROM knights WHERE id = ?")
            .bind(knight)
            .fetch_optional(&self.pool)
            .await?;
        Ok(retired.unwrap_or(true))
    }
}

fn ledger_row(row: &Row) -> Result<LedgerRow> {
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
}

/// Every skill the books can raise, for tests and help.
pub fn all_skills() -> impl Iterator<Item = books::AnySkill> {
    Skill::ALL
        .into_iter()
        .map(books::AnySkill::Fighting)
        .chain(PsiSkill::ALL.into_iter().map(books::AnySkill::Psi))
}

#[cfg(test)]
mod tests {
    use super::*;

    // R153: the kinds that paid for a change are not revocable; awards are.
    #[test]
    fn r153_only_awards_are_revocable() {
        for kind in ["spend", "land_from_monarch", "land_granted", "ransom_paid"] {
            assert!(UNREVOKABLE.contains(&kind), "{kind}");
        }
        for kind in ["practice", "admin", "award"] {
            assert!(
                !UNREVOKABLE.contains(&kind) && !RECORDS.contains(&kind),
                "{kind}"
            );
        }
    }

    // R151: only the lord's own act against the higher lord is a break of faith.
    #[test]
    fn r151_what_counts_as_the_lords_break() {
        assert!(lord_broke(&Reason::Oathbreaking { against: 9 }, 9));
        assert!(!lord_broke(&Reason::Oathbreaking { against: 3 }, 9));
        assert!(lord_broke(
            &Reason::Renounced {
                grievance: Grievance::LordFailedToRansom
            },
            9
        ));
        assert!(!lord_broke(&Reason::RefusedDuty { lord: 9 }, 9));
        assert!(!lord_broke(&Reason::Consent, 9));
        assert!(!lord_broke(&Reason::Death { knight: 9 }, 9));
    }

    #[test]
    fn reasons_name_knights_and_rules() {
        let mut realm = Realm::new();
        realm.insert(
            1,
            Holding::new("Alan", herald_engine::psiknight::Style::Sir),
        );
        assert_eq!(
            reason_text(&realm, &Reason::LandGranted { vassal: 1 }),
            "granted lands to Sir Alan (R31)"
        );
        assert_eq!(
            reason_text(&realm, &Reason::RansomPaid { captive: 2 }),
            "ransom paid for knight 2 (R33)"
        );
        assert_eq!(reason_kind(&Reason::LandFromMonarch), "land_from_monarch");
    }

    #[test]
    fn every_skill_has_its_column() {
        let columns: Vec<&str> = all_skills().map(skill_column).collect();
        assert_eq!(columns.len(), 13);
        assert!(columns.contains(&"lance") && columns.contains(&"negapsi"));
    }
}
