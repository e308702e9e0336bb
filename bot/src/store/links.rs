//! Accounts joined across platforms (`migrations/0014_links.sql`): the one-time codes `/link`
//! gives, and the links they make. Each change is one transaction that checks and writes.

use super::{db, Id, Store};
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an account read for a speaker is kept before the books are asked again: the bound
/// on how late another process's `/link` or `/unlink` reaches this one on SQLite. A change made
/// through this store is seen at once; on PostgreSQL, so is another process's, which says so
/// (`NOTIFY` on [`LINKS_CHANNEL`] in its transaction) and every store listening forgets what it
/// kept.
pub const LINK_KEPT: Duration = Duration::from_secs(10);

/// PostgreSQL's notification channel on which a link's transaction tells every process.
pub const LINKS_CHANNEL: &str = "herald_links";

/// Each realm's links as lately read, so that a command does not ask the books each time (every
/// command of every player needs the answer; links are rare, so a realm's are read whole: one
/// read a realm per [`LINK_KEPT`], however many players speak).
#[derive(Clone, Debug, Default)]
pub(crate) struct LinkCache(Arc<Mutex<Links>>, Arc<Heard>);

/// What the cache keeps, and how many times it has been forgotten: a read of the books that
/// began before a forgetting (a link committed meanwhile) does not store its older answer.
#[derive(Debug, Default)]
struct Links {
    kept: Kept,
    forgotten: u64,
}

/// How many times another process's link change was heard, for whoever waits on it.
#[derive(Debug)]
struct Heard(tokio::sync::watch::Sender<u64>);

impl Default for Heard {
    fn default() -> Heard {
        Heard(tokio::sync::watch::channel(0).0)
    }
}

/// Stops the listener of [`listen`] when the last clone of the store holding it is dropped.
#[derive(Debug)]
pub(crate) struct Listening(#[allow(dead_code)] tokio::sync::oneshot::Sender<()>);

/// Listens on [`LINKS_CHANNEL`] for the links other processes make or undo, forgetting what
/// `cache` kept at each; a lost connection (notifications perhaps missed) forgets too, then
/// listens again. Ends when the returned guard is dropped.
pub(crate) async fn listen(pool: sqlx::PgPool, cache: LinkCache) -> Result<Listening> {
    let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await?;
    listener.listen(LINKS_CHANNEL).await?;
    let (guard, mut stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = &mut stopped => return,
                heard = listener.try_recv() => {
                    cache.forget();
                    cache.1 .0.send_modify(|n| *n += 1);
                    match heard {
                        Ok(Some(_)) => {}
                        // The connection was lost and is made again at the next receive.
                        Ok(None) => tracing::warn!("the links' notifications were cut off; listening again"),
                        Err(e) => {
                            tracing::error!("cannot listen for the links' notifications: {e}");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                }
            }
        }
    });
    Ok(Listening(guard))
}

/// Each realm's links, member to account, and when they were read.
type Kept = HashMap<Id, (HashMap<String, String>, Instant)>;

impl LinkCache {
    /// The account `user` is linked to in `realm` (`None`: none, it plays as itself) when the
    /// realm's links are kept; else the count of forgettings to give [`LinkCache::put`] with
    /// what the books say.
    fn get(&self, realm: Id, user: &str) -> Result<Option<String>, u64> {
        let links = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match links.kept.get(&realm) {
            Some((members, at)) if at.elapsed() < LINK_KEPT => Ok(members.get(user).cloned()),
            _ => Err(links.forgotten),
        }
    }

    /// Keeps `realm`'s links as the books gave them, unless the cache was forgotten since the
    /// read began (`forgotten` is what [`LinkCache::get`] gave then).
    fn put(&self, realm: Id, members: HashMap<String, String>, forgotten: u64) {
        let mut links = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if links.forgotten == forgotten {
            links.kept.insert(realm, (members, Instant::now()));
        }
    }

    fn forget(&self) {
        let mut links = self.0.lock().unwrap_or_else(|e| e.into_inner());
        links.kept.clear();
        links.forgotten += 1;
    }
}

/// Tells every process listening on PostgreSQL, at the commit of `tx`, that the links changed.
async fn tell_others(tx: &mut db::Tx<'_>, postgres: bool) -> Result<()> {
    if postgres {
        // Its value is `void`, which no row reads: the statement is run, its row left.
        db::query("SELECT pg_notify(?, '')")
            .bind(LINKS_CHANNEL)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Why `/link CODE` was refused; nothing was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkRefused {
    /// No such code in the realm.
    Unknown,
    /// Its 10 minutes are over.
    Expired,
    /// It has joined an account already.
    Used,
    /// It is the speaker's own code.
    Own,
    /// The speaker is linked to an account already (named).
    Linked(String),
    /// Other accounts are linked to the speaker (named): it is an account, not a member.
    HasMembers(Vec<String>),
    /// The code's account has since been linked to another (named): it is a member now.
    Chained(String),
}

/// What `/unlink` undid: each (member, account) link removed.
pub type Unlinked = Vec<(String, String)>;

impl Store {
    /// The account `user` plays as: the one it is linked to, else itself.
    /// Read through [`LinkCache`]: a link made or undone in another process counts here as soon
    /// as its notification is heard on PostgreSQL, within [`LINK_KEPT`] on SQLite.
    pub async fn account_of(&self, realm: Id, user: &str) -> Result<String> {
        let account = match self.links.get(realm, user) {
            Ok(kept) => kept,
            Err(forgotten) => {
                let members = self.realm_links(realm).await?;
                let account = members.get(user).cloned();
                self.links.put(realm, members, forgotten);
                account
            }
        };
        Ok(account.unwrap_or_else(|| user.to_string()))
    }

    /// Every link of `realm`: member to account.
    async fn realm_links(&self, realm: Id) -> Result<HashMap<String, String>> {
        let rows = db::query("SELECT member, account FROM account_links WHERE realm_id = ?")
            .bind(realm)
            .fetch_all(self.db())
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("member")?, r.try_get("account")?)))
            .collect()
    }

    /// The account `user` is linked to, if it is a member of one.
    pub async fn linked_to(&self, realm: Id, user: &str) -> Result<Option<String>> {
        Ok(
            db::query_scalar("SELECT account FROM account_links WHERE realm_id = ? AND member = ?")
                .bind(realm)
                .bind(user)
                .fetch_optional(self.db())
                .await?,
        )
    }

    /// Records `code` for `account`, valid until `expires`; `false` when the realm has that
    /// code already (the caller draws another).
    pub async fn new_link_code(
        &self,
        realm: Id,
        account: &str,
        code: &str,
        expires: DateTime<Utc>,
    ) -> Result<bool> {
        let done = db::query(
            "INSERT INTO link_codes (realm_id, code, account, expires_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (realm_id, code) DO NOTHING",
        )
        .bind(realm)
        .bind(code)
        .bind(account)
        .bind(expires.to_rfc3339())
        .execute(self.db())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `member` types `code`: checks it (known, unexpired, unused, another's) and that neither
    /// side is linked the wrong way, then links `member` to the code's account and spends the
    /// code, in one transaction. Returns the account.
    pub async fn use_link_code(
        &self,
        realm: Id,
        member: &str,
        code: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<String, LinkRefused>> {
        let mut tx = self.db().begin_write().await?;
        let row = db::query(
            "SELECT id, account, expires_at, used_at FROM link_codes WHERE realm_id = ? AND code = ?",
        )
        .bind(realm)
        .bind(code)
        .fetch_optional(&mut tx)
        .await?;
        let Some(row) = row else {
            return Ok(Err(LinkRefused::Unknown));
        };
        let id: Id = row.try_get("id")?;
        let account: String = row.try_get("account")?;
        let expires: String = row.try_get("expires_at")?;
        let used: Option<String> = row.try_get("used_at")?;
        if used.is_some() {
            return Ok(Err(LinkRefused::Used));
        }
        if DateTime::parse_from_rfc3339(&expires)? <= now {
            return Ok(Err(LinkRefused::Expired));
        }
        if account == member {
            return Ok(Err(LinkRefused::Own));
        }
        let linked: Option<String> =
            db::query_scalar("SELECT account FROM account_links WHERE realm_id = ? AND member = ?")
                .bind(realm)
                .bind(member)
                .fetch_optional(&mut tx)
                .await?;
        if let Some(to) = linked {
            return Ok(Err(LinkRefused::Linked(to)));
        }
        let members: Vec<String> = db::query_scalar(
            "SELECT member FROM account_links WHERE realm_id = ? AND account = ? ORDER BY id",
        )
        .bind(realm)
        .bind(member)
        .fetch_all(&mut tx)
        .await?;
        if !members.is_empty() {
            return Ok(Err(LinkRefused::HasMembers(members)));
        }
        let chained: Option<String> =
            db::query_scalar("SELECT account FROM account_links WHERE realm_id = ? AND member = ?")
                .bind(realm)
                .bind(&account)
                .fetch_optional(&mut tx)
                .await?;
        if let Some(to) = chained {
            return Ok(Err(LinkRefused::Chained(to)));
        }
        db::query("INSERT INTO account_links (realm_id, member, account, at) VALUES (?, ?, ?, ?)")
            .bind(realm)
            .bind(member)
            .bind(&account)
            .bind(now.to_rfc3339())
            .execute(&mut tx)
            .await?;
        db::query("UPDATE link_codes SET used_by = ?, used_at = ? WHERE id = ?")
            .bind(member)
            .bind(now.to_rfc3339())
            .bind(id)
            .execute(&mut tx)
            .await?;
        tell_others(&mut tx, self.db().is_postgres()).await?;
        tx.commit().await?;
        self.links.forget();
        Ok(Ok(account))
    }

    /// Undoes `user`'s links: its own to an account, or every member's to it. Returns them.
    pub async fn unlink(&self, realm: Id, user: &str) -> Result<Unlinked> {
        let mut tx = self.db().begin_write().await?;
        let rows = db::query(
            "SELECT member, account FROM account_links WHERE realm_id = ? \
             AND (member = ?2 OR account = ?2) ORDER BY id",
        )
        .bind(realm)
        .bind(user)
        .fetch_all(&mut tx)
        .await?;
        let links = rows
            .iter()
            .map(|r| Ok((r.try_get("member")?, r.try_get("account")?)))
            .collect::<Result<Unlinked>>()?;
        db::query("DELETE FROM account_links WHERE realm_id = ? AND (member = ?2 OR account = ?2)")
            .bind(realm)
            .bind(user)
            .execute(&mut tx)
            .await?;
        if !links.is_empty() {
            tell_others(&mut tx, self.db().is_postgres()).await?;
        }
        tx.commit().await?;
        self.links.forget();
        Ok(links)
    }

    /// How many link changes of other processes this store has heard (PostgreSQL), as they
    /// come: for a test to wait on the one it made elsewhere.
    pub fn links_heard(&self) -> tokio::sync::watch::Receiver<u64> {
        self.links.1 .0.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::LinkCache;
    use std::collections::HashMap;

    #[test]
    fn a_read_that_began_before_a_link_keeps_nothing() {
        let cache = LinkCache::default();
        let Err(before) = cache.get(1, "ann") else {
            panic!("nothing is kept yet")
        };
        // A link commits (here or, heard by notification, elsewhere) while the read is out.
        cache.forget();
        cache.put(1, HashMap::new(), before);
        assert!(cache.get(1, "ann").is_err(), "the older answer was kept");
        // A read that began after it is kept, for every speaker of the realm.
        let Err(after) = cache.get(1, "ann") else {
            panic!("nothing is kept yet")
        };
        cache.put(1, HashMap::from([("ann".into(), "bo".into())]), after);
        assert_eq!(cache.get(1, "ann"), Ok(Some("bo".into())));
        assert_eq!(cache.get(1, "cy"), Ok(None), "cy plays as itself");
        assert!(
            cache.get(2, "ann").is_err(),
            "another realm's links are its own"
        );
    }
}
