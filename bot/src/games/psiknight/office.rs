//! The herald's office: the books between fights, in chat. Spending Honor, land, titles,
//! allegiance, hostility and ransom (R29–R33), the ledger and the standings, and the admins'
//! corrections.
//!
//! Each change is one call of [`Store::change`](crate::store::Store::change): one `BEGIN
//! IMMEDIATE` transaction that loads the realm's books, lets the engine's
//! [`books`](herald_engine::psiknight::books) decide, and writes what it decided. A refusal is
//! one line saying why, naming the rule. Every reply names knights with their titles (Sir, Dame,
//! Baron, Baroness, ...) and shows points in half points ("1.5 HP").
//!
//! The session calls [`accept`] and [`decline`] when `/accept` or `/decline` answers no
//! challenge (R158), and the ransom hooks around a practice fight: [`fight_refusal`] before a
//! knight fights (R157), [`ransom_notice`] when a challenge is made and again when it starts
//! (the fight is for ransom if it says so then), and [`capture_after_fight`] when it ends (R156).
//!
//! Where the rules leave a question open, the project decided (`docs/rulings.md`): `/renounce`
//! names its rule and needs its cause on the books (R150–R152), revocations (R153), admin awards
//! (R154), retirement (R155), fights for ransom (R156), captives (R157), answering offers (R158),
//! and acts that cannot be undone waiting for `/confirm` (R180).

use super::command::{HostilityAction, PsiCommand, Standing as By};
use crate::app::App;
use crate::command::{Command, YearMonth};
use crate::confirm::{Asked, CONFIRM_SECS};
use crate::reply::Lines;
use crate::store::books::{self as stored, Doer, GrantOffer, LedgerRow, Plan, View};
use crate::store::{Id, KnightRecord};
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::books::{
    self, Act, Changes, Duty, Fact, Holding, Points, Proposal, Reason,
};
use herald_engine::psiknight::{NewKnight, PsiSkill, Skill, Style};

/// The most ledger entries one reply lists: a page, newest first; `--page N` reaches the rest.
pub const LEDGER_LINES: usize = 30;

/// The most knights one standings reply lists.
pub const STANDINGS_LINES: usize = 20;

/// Whether this module answers `command`.
pub fn handles(command: &PsiCommand) -> bool {
    matches!(
        command,
        PsiCommand::Ledger { .. }
            | PsiCommand::Standings { .. }
            | PsiCommand::Spend { .. }
            | PsiCommand::Land
            | PsiCommand::Grant { .. }
            | PsiCommand::Advance
            | PsiCommand::Swear { .. }
            | PsiCommand::Release { .. }
            | PsiCommand::Renounce { .. }
            | PsiCommand::Hostility { .. }
            | PsiCommand::RansomDemand { .. }
            | PsiCommand::RansomFree { .. }
            | PsiCommand::RansomKill { .. }
            | PsiCommand::RansomPay { .. }
            | PsiCommand::AdminAward { .. }
            | PsiCommand::AdminRevoke { .. }
            | PsiCommand::AdminRename { .. }
            | PsiCommand::AdminRetire { .. }
            | PsiCommand::Confirm
    )
}

/// Answers a command of the books; `None` for a command this module does not handle.
pub async fn handle(
    app: &App,
    realm: Id,
    user: &str,
    command: PsiCommand,
    now: DateTime<Utc>,
) -> Result<Option<Lines>> {
    // `/confirm` is the act it confirms, asked again against the books as they stand (R180).
    let (command, confirmed) = match command {
        PsiCommand::Confirm => match app.confirmations.take(realm, user, now) {
            Ok(asked) => match PsiCommand::of(&asked.command) {
                Some(asked_for) => (asked_for.clone(), Some(asked.question)),
                None => return Ok(None),
            },
            Err(line) => return Ok(Some(vec![line])),
        },
        other => (other, None),
    };
    let ctx = Ctx {
        app,
        realm,
        user,
        now,
        month: app.month_in(realm, now),
        command: command_word(&command),
        notes: std::sync::Mutex::new(Vec::new()),
        asking: command.clone().into(),
        confirmed,
    };
    let lines = match command {
        PsiCommand::Ledger { name, month, page } => {
            ledger(&ctx, name.as_deref(), month, page.unwrap_or(1)).await?
        }
        PsiCommand::Standings { by } => standings(&ctx, by).await?,
        PsiCommand::Spend { skill } => spend(&ctx, skill).await?,
        PsiCommand::Land => land(&ctx).await?,
        PsiCommand::Grant { knight } => grant(&ctx, &knight).await?,
        PsiCommand::Advance => advance(&ctx).await?,
        PsiCommand::Swear { knight } => offer(&ctx, Act::Allegiance, &knight).await?,
        PsiCommand::Release { knight } => offer(&ctx, Act::Release, &knight).await?,
        PsiCommand::Renounce { knight } => renounce(&ctx, &knight).await?,
        PsiCommand::Hostility {
            action: HostilityAction::Declare,
            knight,
        } => declare(&ctx, &knight).await?,
        PsiCommand::Hostility {
            action: HostilityAction::End,
            knight,
        } => offer(&ctx, Act::Peace, &knight).await?,
        PsiCommand::RansomDemand { knight, pp } => {
            demand(&ctx, &knight, pp.map(|h| Points::from_halves(h.0))).await?
        }
        PsiCommand::RansomFree { knight } => free(&ctx, &knight).await?,
        PsiCommand::RansomKill { knight } => kill(&ctx, &knight).await?,
        PsiCommand::RansomPay { knight, pp } => {
            pay(&ctx, &knight, Points::from_halves(pp.0)).await?
        }
        PsiCommand::AdminAward { knight, hp, reason } => {
            admin_award(&ctx, &knight, Points::from_halves(hp.0), &reason).await?
        }
        PsiCommand::AdminRevoke { entry } => admin_revoke(&ctx, entry).await?,
        PsiCommand::AdminRename { knight, new_name } => {
            admin_rename(&ctx, &knight, &new_name).await?
        }
        PsiCommand::AdminRetire { knight } => admin_retire(&ctx, &knight).await?,
        _ => return Ok(None),
    };
    let mut notes = ctx
        .notes
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    notes.extend(lines);
    Ok(Some(notes))
}

/// The command word as typed, for the line that says which knight a name meant.
fn command_word(command: &PsiCommand) -> &'static str {
    match command {
        PsiCommand::Ledger { .. } => "/ledger",
        PsiCommand::Grant { .. } => "/grant",
        PsiCommand::Swear { .. } => "/swear",
        PsiCommand::Release { .. } => "/release",
        PsiCommand::Renounce { .. } => "/renounce",
        PsiCommand::Hostility {
            action: HostilityAction::Declare,
            ..
        } => "/hostility declare",
        PsiCommand::Hostility { .. } => "/hostility end",
        PsiCommand::RansomDemand { .. } => "/ransom demand",
        PsiCommand::RansomFree { .. } => "/ransom free",
        PsiCommand::RansomKill { .. } => "/ransom kill",
        PsiCommand::RansomPay { .. } => "/ransom pay",
        PsiCommand::AdminAward { .. } => "/admin award",
        PsiCommand::AdminRename { .. } => "/admin rename",
        PsiCommand::AdminRetire { .. } => "/admin retire",
        _ => "/knight",
    }
}

/// Who asks, where and when.
struct Ctx<'a> {
    app: &'a App,
    realm: Id,
    user: &'a str,
    now: DateTime<Utc>,
    month: String,
    /// The command as typed, `/grant`, for the lines that name it.
    command: &'static str,
    /// Lines said before the reply: which knight a name meant (R170). Locked only briefly,
    /// never across an `.await`.
    notes: std::sync::Mutex<Vec<String>>,
    /// The command being answered, kept for `/confirm` when it asks (R180).
    asking: Command,
    /// The question this player confirmed, when the command comes from `/confirm`.
    confirmed: Option<String>,
}

impl Ctx<'_> {
    /// Whether `question` is the one this player confirmed; if not, it is left in `asked` for
    /// [`Ctx::ask`], and the change writes nothing (R180).
    fn unconfirmed(&self, question: String, asked: &mut Option<String>) -> bool {
        if self.confirmed.as_deref() == Some(question.as_str()) {
            return false;
        }
        *asked = Some(question);
        true
    }

    /// Puts `question` to the player: the act waits for their `/confirm` (R180). Says so when it
    /// takes the place of another question still open, or when the books changed between the
    /// question confirmed and the `/confirm`.
    fn ask(&self, knight: &str, question: String) -> Lines {
        let mut lines = Vec::new();
        if self.confirmed.is_some() {
            lines.push(format!(
                "{}, the books changed since you were asked; nothing was done.",
                self.user
            ));
        }
        let asked = Asked {
            command: self.asking.clone(),
            typed: format!("{} {knight}", self.command),
            question: question.clone(),
            at: self.now,
        };
        let typed = asked.typed.clone();
        if let Some(earlier) = self
            .app
            .confirmations
            .put(self.realm, self.user, asked, self.now)
            .filter(|earlier| earlier.typed != typed)
        {
            lines.push(format!(
                "{}, this takes the place of your earlier question ({}), which is dropped.",
                self.user, earlier.typed
            ));
        }
        lines.push(question);
        lines
    }

    fn doer(&self, actor: Option<Id>) -> Doer<'_> {
        Doer {
            realm: self.realm,
            user: self.user,
            actor,
            fight: None,
            at: self.now,
            month: &self.month,
        }
    }

    /// The asking player's knight, or the line that says they have none.
    async fn me(&self) -> Result<Result<KnightRecord, String>> {
        Ok(match self.app.store.knight_of(self.realm, self.user).await? {
            Some(k) => Ok(k),
            None => Err(format!(
                "{}, you have no knight yet. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH",
                self.user
            )),
        })
    }

    /// A knight by name, or by their player's nick (`@nick` always the player): R170's one
    /// resolver. A name that is also another player's nick means the knight, and the reply
    /// begins with the line that says so.
    async fn find(&self, name: &str) -> Result<Result<KnightRecord, String>> {
        Ok(
            match super::resolve::knight(self.app, self.realm, name, self.command).await? {
                Ok(found) => {
                    if let Some(note) = found.note {
                        self.notes
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push(note);
                    }
                    Ok(found.knight)
                }
                Err(miss) => Err(match miss {
                    super::resolve::Miss::Nobody(typed) => {
                        format!("No knight or player named '{typed}' here.")
                    }
                    miss => miss.line(&format!("{} KNIGHT", self.command)),
                }),
            },
        )
    }

    /// The asking player's knight and the named one.
    async fn me_and(&self, name: &str) -> Result<Result<(KnightRecord, KnightRecord), String>> {
        let me = match self.me().await? {
            Ok(k) => k,
            Err(line) => return Ok(Err(line)),
        };
        let them = match self.find(name).await? {
            Ok(k) => k,
            Err(line) => return Ok(Err(line)),
        };
        Ok(Ok((me, them)))
    }
}

/// One line either way.
fn one(result: Result<(String, Vec<Id>), String>) -> Lines {
    match result {
        Ok((line, _)) => vec![line],
        Err(line) => vec![line],
    }
}

/// Lines either way.
fn many(result: Result<(Lines, Vec<Id>), String>) -> Lines {
    match result {
        Ok((lines, _)) => lines,
        Err(line) => vec![line],
    }
}

/// "his" or "her".
fn their(style: Style) -> &'static str {
    match style {
        Style::Sir => "his",
        Style::Dame => "her",
    }
}

/// "he" or "she".
fn they(style: Style) -> &'static str {
    match style {
        Style::Sir => "he",
        Style::Dame => "she",
    }
}

/// "him" or "her".
fn them(style: Style) -> &'static str {
    match style {
        Style::Sir => "him",
        Style::Dame => "her",
    }
}

/// The knight's holding in the view, or the line that says they are gone (retired or dead since
/// the name was looked up).
fn holding(view: &View, id: Id) -> Result<&Holding, String> {
    view.holding(id).ok_or_else(|| {
        format!(
            "That knight is no longer in this realm ({}).",
            view.styled(id)
        )
    })
}

/// The monarch's styled name for a knight's grant or title.
fn monarch_of(view: &View, id: Id) -> String {
    view.knights.get(&id).map_or_else(
        || "the monarch".to_string(),
        |k| k.sheet.monarch.full_name().to_string(),
    )
}

/// The player who must answer, for prompts.
fn owner(view: &View, id: Id) -> String {
    view.knights
        .get(&id)
        .map_or_else(String::new, |k| k.owner.clone())
}

// ---------------------------------------------------------------------------------------------
// Spending, land, titles (R30–R32)
// ---------------------------------------------------------------------------------------------

async fn spend(ctx: &Ctx<'_>, skill: books::AnySkill) -> Result<Lines> {
    let me = match ctx.me().await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let h = holding(v, me.id)?;
            let current = v
                .knights
                .get(&me.id)
                .map_or(0, |k| stored::skill_value(k, skill));
            let s = books::spend(h.hp, skill, current)
                .map_err(|e| format!("{} cannot raise {skill}: {e}.", h.styled()))?;
            let line = format!(
                "{} raises {skill} from {} to {} for {} HP (R30); {} HP left.",
                h.styled(),
                s.from,
                s.to,
                s.cost,
                h.hp - s.cost
            );
            Ok(Plan::new(s.changes(me.id), line))
        })
        .await?;
    Ok(one(result))
}

async fn land(ctx: &Ctx<'_>) -> Result<Lines> {
    let me = match ctx.me().await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let h = holding(v, me.id)?;
            let changes = books::land_from_monarch(&v.realm, me.id)
                .map_err(|e| format!("{} cannot buy lands: {e}.", h.styled()))?;
            let (hp, pp) = changes.net(me.id);
            let line = format!(
                "{} exchanges 12 HP for a grant of lands from {} (R31): +5 PP, and landed. From now on {} awards are split half HP, half PP (R29). Now {} HP, {} PP.",
                h.styled(),
                monarch_of(v, me.id),
                their(h.style),
                h.hp + hp,
                h.pp + pp
            );
            Ok(Plan::new(changes, line))
        })
        .await?;
    Ok(one(result))
}

/// A grant of lands from `lord` to `vassal` as the books stand (R31, R104): the changes, and the
/// line that tells it once done.
fn grant_plan(v: &View, lord: Id, vassal: Id) -> Result<Plan<String>, String> {
    let n = holding(v, lord)?;
    let k = holding(v, vassal)?;
    let changes = books::land_from_noble(&v.realm, lord, vassal)
        .map_err(|e| format!("{} cannot grant lands to {}: {e}.", n.styled(), k.styled()))?;
    let sworn_now = changes
        .facts
        .iter()
        .any(|f| matches!(f, Fact::Lord { lord: Some(_), .. }));
    let vassals = v.realm.vassals(lord).count() + usize::from(sworn_now);
    let line = format!(
        "{} grants lands to {} (R31): 5 PP pass from {} to {}, who is now landed and {} {} vassal. {} keeps {} PP for {} vassal{}.",
        n.styled(),
        k.styled(),
        n.name,
        k.name,
        if sworn_now { "becomes" } else { "remains (R104)" },
        their(n.style),
        n.name,
        n.pp - books::LAND_GRANT_PP,
        vassals,
        if vassals == 1 { "" } else { "s" }
    );
    Ok(Plan::new(changes, line))
}

/// `/grant KNIGHT`: a noble offers lands; the knight answers with `/accept` or `/decline` within
/// the realm's challenge timeout (R172). The grant must be one that could be made now (R31).
async fn grant(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let secs = ctx.app.settings(ctx.realm).challenge_timeout_secs;
    let result = ctx
        .app
        .store
        .offer_grant(&ctx.doer(Some(me.id)), me.id, other.id, |v| {
            grant_plan(v, me.id, other.id)?;
            let n = holding(v, me.id)?;
            let k = holding(v, other.id)?;
            let sworn = k.lord == Some(me.id);
            Ok(format!(
                "{} offers {} a grant of lands (R31, R172): 5 PP would pass from {} to {}, who would be landed and {} {} vassal. {}: /accept or /decline ({secs}s).",
                n.styled(),
                k.styled(),
                n.name,
                k.name,
                if sworn { "remain" } else { "become" },
                their(n.style),
                owner(v, other.id)
            ))
        })
        .await?;
    Ok(vec![result.unwrap_or_else(|line| line)])
}

/// The grants of lands offered to `me` and still open, and those `me` offered; lapsed ones are
/// dropped from the books on the way (R172).
async fn live_grants(
    app: &App,
    realm: Id,
    me: Id,
    now: DateTime<Utc>,
) -> Result<(Vec<GrantOffer>, Vec<GrantOffer>, Vec<GrantOffer>)> {
    let since = grant_cutoff(app, realm, now);
    let (mut to, mut from, mut lapsed) = (Vec::new(), Vec::new(), Vec::new());
    for g in app.store.grant_offers(me).await? {
        if g.at < since {
            app.store.drop_grant_offer(g.lord, g.vassal).await?;
            lapsed.push(g);
        } else if g.vassal == me {
            to.push(g);
        } else {
            from.push(g);
        }
    }
    Ok((to, from, lapsed))
}

/// Offers of a grant made before this moment have lapsed unanswered (R172).
fn grant_cutoff(app: &App, realm: Id, now: DateTime<Utc>) -> DateTime<Utc> {
    now - app.challenge_timeout(realm)
}

/// "a grant of lands from Baron Hugh (/accept)".
fn list_grants(v: &View, grants: &[GrantOffer], incoming: bool) -> String {
    grants
        .iter()
        .map(|g| {
            if incoming {
                format!("a grant of lands from {}", v.styled(g.lord))
            } else {
                format!("a grant of lands to {}", v.styled(g.vassal))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `/accept` of the one grant of lands offered to `me` (R172).
async fn accept_grant(ctx: &Ctx<'_>, g: GrantOffer) -> Result<Lines> {
    let since = grant_cutoff(ctx.app, ctx.realm, ctx.now);
    let result = ctx
        .app
        .store
        .accept_grant(&ctx.doer(Some(g.lord)), g.lord, g.vassal, since, |v| {
            grant_plan(v, g.lord, g.vassal)
        })
        .await?;
    Ok(match result {
        Ok((line, _)) => vec![line],
        Err(refusal) => vec![format!(
            "{refusal} The offer is withdrawn; {} may make it again with /grant.",
            ctx.app
                .store
                .knight(g.lord)
                .await?
                .map_or_else(|| "the noble".to_string(), |k| k.styled())
        )],
    })
}

async fn advance(ctx: &Ctx<'_>) -> Result<Lines> {
    let me = match ctx.me().await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let h = holding(v, me.id)?;
            let changes = books::grant_title(&v.realm, me.id)
                .map_err(|e| format!("{} cannot advance: {e}.", h.styled()))?;
            let rank = changes
                .facts
                .iter()
                .find_map(|f| match f {
                    Fact::Rank { rank, .. } => Some(*rank),
                    _ => None,
                })
                .unwrap_or(h.rank);
            let counted = books::advancement_pp(&v.realm, me.id).unwrap_or(h.pp);
            let line = format!(
                "{} names {} {} {} (R32): {} counts {} PP for advancement.",
                monarch_of(v, me.id),
                h.styled(),
                rank.title(h.style),
                h.name,
                h.name,
                counted
            );
            Ok(Plan::new(changes, line))
        })
        .await?;
    Ok(one(result))
}

// ---------------------------------------------------------------------------------------------
// Offers: allegiance, release, peace (R33)
// ---------------------------------------------------------------------------------------------

/// The command that offers or answers `act` to a knight named `name`.
fn act_command(act: Act, name: &str) -> String {
    match act {
        Act::Allegiance => format!("/swear {name}"),
        Act::Release => format!("/release {name}"),
        Act::Peace => format!("/hostility end {name}"),
    }
}

/// The reply to an offer made or answered: what the offer is, or what its completion did.
fn offer_lines(v: &View, from: Id, to: Id, act: Act, changes: &Changes) -> Lines {
    let f = v.styled(from);
    let t = v.styled(to);
    let (fname, tname) = (
        v.holding(from).map_or(String::new(), |h| h.name.clone()),
        v.holding(to).map_or(String::new(), |h| h.name.clone()),
    );
    let answer = act_command(act, &fname);
    if changes.facts.iter().any(|x| matches!(x, Fact::Proposed(_))) {
        let what = match act {
            Act::Allegiance => {
                let from_swears = v.holding(from).is_some_and(|h| !h.landed && !h.is_noble());
                if from_swears {
                    format!("{f} offers allegiance to {t} (R33).")
                } else {
                    let style = v.holding(from).map_or(Style::Sir, |h| h.style);
                    format!("{f} offers to take {t} as {} vassal (R33).", their(style))
                }
            }
            Act::Release => {
                format!("{f} offers to end the allegiance between {fname} and {tname} by mutual consent, without penalty (R33).")
            }
            Act::Peace => format!("{f} offers {t} an end to their hostility (R33)."),
        };
        return vec![format!(
            "{what} {}: /accept or {answer} to agree, /decline to refuse.",
            owner(v, to)
        )];
    }
    let done = changes.facts.iter().find_map(|x| match x {
        Fact::Lord {
            vassal,
            lord: Some(lord),
            ..
        } => Some(format!(
            "{} swears allegiance to {} and is now {} vassal (R33).",
            v.styled(*vassal),
            v.styled(*lord),
            their(v.holding(*lord).map_or(Style::Sir, |h| h.style))
        )),
        Fact::Lord {
            vassal, lord: None, ..
        } => Some(format!(
            "{f} and {t} part by mutual consent, without penalty or hostility (R33).{}",
            // R173: lands once accepted are the vassal's; mutual consent takes nothing back.
            match v.holding(*vassal).filter(|h| h.landed) {
                Some(h) => format!(
                    " {} keeps the lands granted, and with them the landed split of awards (R29, R173).",
                    h.name
                ),
                None => String::new(),
            }
        )),
        Fact::HostilityEnded { .. } => Some(format!(
            "The hostility between {f} and {t} ends by the assent of both (R33)."
        )),
        _ => None,
    });
    vec![done.unwrap_or_else(|| format!("{f} and {t}: {act} is done."))]
}

async fn offer(ctx: &Ctx<'_>, act: Act, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    offer_to(ctx, act, me.id, other.id).await
}

async fn offer_to(ctx: &Ctx<'_>, act: Act, me: Id, other: Id) -> Result<Lines> {
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me)), |v| {
            let changes = books::propose(&v.realm, me, other, act).map_err(|e| {
                format!(
                    "{} cannot offer {act} to {}: {e}.",
                    v.styled(me),
                    v.styled(other)
                )
            })?;
            let lines = offer_lines(v, me, other, act, &changes);
            Ok(Plan::new(changes, lines))
        })
        .await?;
    Ok(many(result))
}

/// The offers awaiting an answer from `me`, and those `me` made.
fn offers_of(v: &View, me: Id) -> (Vec<Proposal>, Vec<Proposal>) {
    let to: Vec<Proposal> = v
        .realm
        .proposals
        .iter()
        .filter(|p| p.to == me)
        .copied()
        .collect();
    let from: Vec<Proposal> = v
        .realm
        .proposals
        .iter()
        .filter(|p| p.from == me)
        .copied()
        .collect();
    (to, from)
}

fn list_offers(v: &View, offers: &[Proposal], incoming: bool) -> String {
    offers
        .iter()
        .map(|p| {
            let other = if incoming { p.from } else { p.to };
            let name = v.holding(other).map_or(String::new(), |h| h.name.clone());
            format!(
                "{} {} {} ({})",
                p.act,
                if incoming { "from" } else { "to" },
                v.styled(other),
                act_command(p.act, &name)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `/accept` when no challenge awaits this player: answers the one offer made to their knight
/// (R158). `None` when no offer awaits them, so the session can say there is nothing to accept.
pub async fn accept(app: &App, realm: Id, user: &str, now: DateTime<Utc>) -> Result<Option<Lines>> {
    let ctx = Ctx {
        app,
        realm,
        user,
        now,
        month: app.month_in(realm, now),
        command: "/accept",
        notes: std::sync::Mutex::new(Vec::new()),
        asking: Command::Accept,
        confirmed: None,
    };
    let Some(me) = app.store.knight_of(realm, user).await? else {
        return Ok(None);
    };
    let (grants, _, lapsed) = live_grants(app, realm, me.id, now).await?;
    let view = app.store.books_view(realm).await?;
    let (to, _) = offers_of(&view, me.id);
    match (to.as_slice(), grants.as_slice()) {
        ([], []) => match lapsed.first() {
            // R172: an offer of lands left unanswered lapses.
            Some(g) => Ok(Some(vec![format!(
                "The grant of lands that {} offered {} lapsed unanswered after {}s (R172); {} may offer it again with /grant.",
                view.styled(g.lord),
                view.styled(g.vassal),
                app.settings(realm).challenge_timeout_secs,
                view.holding(g.lord).map_or(String::new(), |h| h.name.clone())
            )])),
            None => Ok(None),
        },
        ([p], []) => Ok(Some(offer_to(&ctx, p.act, me.id, p.from).await?)),
        ([], [g]) => Ok(Some(accept_grant(&ctx, *g).await?)),
        (several, grants) => Ok(Some(vec![format!(
            "Several offers await {}'s answer: {}. Answer one by name (R158); a grant of lands is answered with /accept or /decline once it is the only offer left (R172).",
            view.styled(me.id),
            [list_offers(&view, several, true), list_grants(&view, grants, true)]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ")
        )])),
    }
}

/// `/decline` when no challenge or fight question awaits this player: refuses the one offer made
/// to their knight, or withdraws the one they made (R158). `None` when there is no offer either
/// way.
pub async fn decline(
    app: &App,
    realm: Id,
    user: &str,
    now: DateTime<Utc>,
) -> Result<Option<Lines>> {
    let Some(me) = app.store.knight_of(realm, user).await? else {
        return Ok(None);
    };
    let month = app.month_in(realm, now);
    let doer = Doer {
        realm,
        user,
        actor: Some(me.id),
        fight: None,
        at: now,
        month: &month,
    };
    let (grants_to, grants_from, _) = live_grants(app, realm, me.id, now).await?;
    let view = app.store.books_view(realm).await?;
    let (to, from) = offers_of(&view, me.id);
    // R172: a grant of lands is declined, or withdrawn, like the offers of R158.
    let grant = match (
        to.len(),
        grants_to.as_slice(),
        from.len(),
        grants_from.as_slice(),
    ) {
        (0, [g], _, _) => Some((*g, true)),
        (0, [], 0, [g]) => Some((*g, false)),
        _ => None,
    };
    if let Some((g, refusing)) = grant {
        let line = if !app.store.drop_grant_offer(g.lord, g.vassal).await? {
            "That grant of lands is no longer open.".to_string()
        } else if refusing {
            format!(
                "{} declines the grant of lands offered by {} (R172).",
                view.styled(g.vassal),
                view.styled(g.lord)
            )
        } else {
            format!(
                "{} withdraws the offer of a grant of lands to {} (R172).",
                view.styled(g.lord),
                view.styled(g.vassal)
            )
        };
        return Ok(Some(vec![line]));
    }
    if !grants_to.is_empty() || (to.is_empty() && !grants_from.is_empty()) {
        let mut all = list_offers(&view, &to, true);
        let grants = list_grants(&view, &grants_to, true);
        if !grants.is_empty() {
            all = [all, grants]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
        }
        if all.is_empty() {
            all = [
                list_offers(&view, &from, false),
                list_grants(&view, &grants_from, false),
            ]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        }
        return Ok(Some(vec![format!(
            "Several offers are open for {}: {}. /decline answers only when one offer is open (R158, R172).",
            view.styled(me.id),
            all
        )]));
    }
    let (offer, refusing) = match (to.as_slice(), from.as_slice()) {
        ([], []) => return Ok(None),
        ([p], _) => (*p, true),
        ([], [p]) => (*p, false),
        ([], several) => {
            return Ok(Some(vec![format!(
                "{} has several offers open: {}. /decline withdraws an offer only when it is the only one; these stand until answered (R158).",
                view.styled(me.id),
                list_offers(&view, several, false)
            )]))
        }
        (several, _) => {
            return Ok(Some(vec![format!(
                "Several offers await {}'s answer: {}. /decline refuses only when one offer awaits you (R158).",
                view.styled(me.id),
                list_offers(&view, several, true)
            )]))
        }
    };
    let result = app
        .store
        .change(&doer, |v| {
            if !v.realm.proposals.contains(&offer) {
                return Err(format!(
                    "The offer of {} between {} and {} is no longer open.",
                    offer.act,
                    v.styled(offer.from),
                    v.styled(offer.to)
                ));
            }
            let mut changes = Changes::new();
            changes.fact(Fact::ProposalCleared(offer));
            let line = if refusing {
                format!(
                    "{} declines the offer of {} from {}.",
                    v.styled(offer.to),
                    offer.act,
                    v.styled(offer.from)
                )
            } else {
                format!(
                    "{} withdraws the offer of {} to {}.",
                    v.styled(offer.from),
                    offer.act,
                    v.styled(offer.to)
                )
            };
            Ok(Plan::new(changes, line))
        })
        .await?;
    Ok(Some(one(result)))
}

// ---------------------------------------------------------------------------------------------
// Breaking allegiance and hostility (R33)
// ---------------------------------------------------------------------------------------------

/// The PP forfeit in these changes by `who` for a break of allegiance, as a phrase.
fn forfeit_phrase(changes: &Changes, h: &Holding, who: Id) -> String {
    let (_, pp) = changes.net(who);
    if pp.is_negative() {
        format!("{} forfeits {} of {} PP (R100)", h.name, -pp, h.pp)
    } else {
        format!("{} has no PP to forfeit (R100)", h.name)
    }
}

async fn renounce(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            if o.lord == Some(me.id) {
                // The lord breaks: dismissal for a refused duty on the books (R33, R150).
                let Some(duty) = v.refused_duties(other.id).first().map(|d| d.to_string()) else {
                    return Err(format!(
                        "{} cannot dismiss {} without cause: the books record no refused duty by {} (no hostility declared without approval, no unpaid share of {} ransom) (R33, R150). To part without penalty: /release {}.",
                        m.styled(),
                        o.styled(),
                        o.name,
                        their(m.style),
                        o.name
                    ));
                };
                let changes = books::dismiss(&v.realm, me.id, other.id).map_err(|e| {
                    format!("{} cannot dismiss {}: {e}.", m.styled(), o.styled())
                })?;
                let line = format!(
                    "{} dismisses {} for refusing the duties of allegiance (R33): {duty}. {}; they are now hostile.",
                    m.styled(),
                    o.styled(),
                    forfeit_phrase(&changes, o, other.id)
                );
                return Ok(Plan::new(changes, line));
            }
            if m.lord == Some(other.id) {
                // The vassal breaks: renunciation for the lord's failure on the books (R33, R150).
                let Some((grievance, detail)) = v
                    .grievances(me.id)
                    .first()
                    .map(|(g, d)| (*g, d.to_string()))
                else {
                    return Err(format!(
                        "{} cannot renounce {} without penalty: the books record no failure by {} (no break with a higher lord, no ransom left unpaid) (R33, R150). To part: /release {} by mutual consent, or /hostility declare {} (oathbreaking: half your PP, R100).",
                        m.styled(),
                        o.styled(),
                        o.name,
                        o.name,
                        o.name
                    ));
                };
                let changes = books::renounce(&v.realm, me.id, grievance).map_err(|e| {
                    format!("{} cannot renounce {}: {e}.", m.styled(), o.styled())
                })?;
                let line = format!(
                    "{} renounces {} allegiance to {} without penalty (R33): {detail}. They are now hostile.",
                    m.styled(),
                    their(m.style),
                    o.styled()
                );
                return Ok(Plan::new(changes, line));
            }
            Err(format!(
                "{} and {} are not lord and vassal (R33).",
                m.styled(),
                o.styled()
            ))
        })
        .await?;
    Ok(one(result))
}

async fn declare(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let mut asked = None;
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            let changes = books::declare_hostility(&v.realm, me.id, other.id).map_err(|e| {
                format!(
                    "{} cannot declare hostility against {}: {e}.",
                    m.styled(),
                    o.styled()
                )
            })?;
            let oathbreaking = changes.facts.iter().any(|f| {
                matches!(
                    f,
                    Fact::Lord {
                        reason: Reason::Oathbreaking { .. },
                        ..
                    }
                )
            });
            let mut lines = Vec::new();
            if oathbreaking {
                let role = if m.lord == Some(other.id) { "lord" } else { "vassal" };
                let (_, pp) = changes.net(me.id);
                let question = format!(
                    "Declaring hostility on your {role} {} is oathbreaking: it costs you half your Prestige ({} of {} PP). /confirm within {CONFIRM_SECS}s to go ahead.",
                    o.styled(),
                    -pp,
                    m.pp
                );
                if ctx.unconfirmed(question, &mut asked) {
                    return Err(String::new());
                }
                lines.push(format!(
                    "{} declares hostility against {} {role} {}: oathbreaking (R33). {}; the allegiance is broken and they are hostile.",
                    m.styled(),
                    their(m.style),
                    o.styled(),
                    forfeit_phrase(&changes, m, me.id)
                ));
            } else {
                lines.push(format!(
                    "{} declares hostility against {} (R33): practice jousts between them, their vassals and subvassals are fought for ransom until both end it with /hostility end.",
                    m.styled(),
                    o.styled()
                ));
                if let Some(lord) = m.lord {
                    let l = v.styled(lord);
                    lines.push(format!(
                        "{} is the vassal of {l}: without {l}'s approval this is a refused duty, for which {l} may dismiss {} with /renounce {} (R33, R106).",
                        m.name,
                        them(m.style),
                        m.name
                    ));
                }
            }
            Ok(Plan::new(changes, lines))
        })
        .await?;
    if let Some(question) = asked {
        return Ok(ctx.ask(&other.sheet.name, question));
    }
    Ok(many(result))
}

// ---------------------------------------------------------------------------------------------
// Ransom (R33)
// ---------------------------------------------------------------------------------------------

/// Lines naming the duties of allegiance a captivity raises (R33, R108).
fn duty_lines(realm: &books::Realm, captive: Id) -> Lines {
    let Ok(duties) = books::ransom_duties(realm, captive) else {
        return Vec::new();
    };
    let c = realm.styled(captive);
    duties
        .into_iter()
        .map(|d| match d {
            Duty::LordRansomsVassal { lord } => format!(
                "{}, lord of the unlanded {c}, must ransom {} (R33).",
                realm.styled(lord),
                realm
                    .knights
                    .get(&captive)
                    .map_or("them", |h| them(h.style))
            ),
            Duty::VassalRansomsLord { vassal, noble } => format!(
                "{}, landed vassal of {c}, must help ransom {} lord once{} (R33, R108).",
                realm.styled(vassal),
                realm
                    .knights
                    .get(&vassal)
                    .map_or("their", |h| their(h.style)),
                if noble { "" } else { ": 4 PP meets the duty" }
            ),
        })
        .collect()
}

async fn demand(ctx: &Ctx<'_>, name: &str, asked: Option<Points>) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            let held = v.realm.captivities.get(&other.id);
            let customary = held.map_or(books::customary_ransom(o), |c| c.customary);
            let amount = asked.unwrap_or(customary);
            let changes = books::demand(&v.realm, me.id, other.id, amount).map_err(|e| {
                format!("{} cannot ask that ransom for {}: {e}.", m.styled(), o.styled())
            })?;
            let paid = held.map_or(Points::ZERO, books::Captivity::paid);
            let released = changes
                .facts
                .iter()
                .any(|f| matches!(f, Fact::Released { .. }));
            let mut plan;
            if released {
                plan = Plan::new(
                    changes,
                    vec![format!(
                        "{} accepts the {paid} PP paid and releases {} (R33, R107).",
                        m.styled(),
                        o.styled()
                    )],
                );
                plan.accepted = Some(amount);
            } else {
                let terms = if amount == customary {
                    format!("the customary ransom for {} rank, R33", their(o.style))
                } else {
                    format!("less than the customary {customary} PP, R33, R107")
                };
                let mut lines = vec![format!(
                    "{} asks {amount} PP for the release of {} ({terms}); {} PP still owed. Anyone with PP may pay: /ransom pay {} PP.",
                    m.styled(),
                    o.styled(),
                    amount - paid,
                    o.name
                )];
                let mut after = v.realm.clone();
                after.apply(&changes);
                lines.extend(duty_lines(&after, other.id));
                plan = Plan::new(changes, lines);
            }
            Ok(plan)
        })
        .await?;
    Ok(many(result))
}

async fn free(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            let changes = books::free(&v.realm, me.id, other.id)
                .map_err(|e| format!("{} cannot free {}: {e}.", m.styled(), o.styled()))?;
            let paid = v
                .realm
                .captivities
                .get(&other.id)
                .map_or(Points::ZERO, books::Captivity::paid);
            let kept = if paid.is_positive() {
                format!("; the {paid} PP paid are kept (R107)")
            } else {
                String::new()
            };
            let line = format!(
                "{} frees {} without ransom (R33){kept}. {} may fight again.",
                m.styled(),
                o.styled(),
                o.name
            );
            Ok(Plan::new(changes, line))
        })
        .await?;
    Ok(one(result))
}

async fn kill(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let mut asked = None;
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            let changes = books::kill(&v.realm, me.id, other.id)
                .map_err(|e| format!("{} cannot kill {}: {e}.", m.styled(), o.styled()))?;
            let owed = v.realm.captivities.get(&other.id).map_or(Points::ZERO, |c| {
                c.demanded.unwrap_or(c.customary) - c.paid()
            });
            let question = format!(
                "Putting {} to death cannot be undone: {} leaves the lists for good with {} HP and {} PP, {} allegiances, hostilities and offers end (R109), and you give up the {owed} PP of ransom still owed. /confirm within {CONFIRM_SECS}s to go ahead.",
                o.styled(),
                they(o.style),
                o.hp,
                o.pp,
                their(o.style)
            );
            if ctx.unconfirmed(question, &mut asked) {
                return Err(String::new());
            }
            let line = format!(
                "{} puts {} to death, a captive of a fight under hostility (R33). {} allegiances, hostilities and offers end with {} (R109); {} may create a new knight.",
                m.styled(),
                o.styled(),
                capitalised(their(o.style)),
                them(o.style),
                owner(v, other.id)
            );
            Ok(Plan::new(changes, line))
        })
        .await?;
    if let Some(question) = asked {
        return Ok(ctx.ask(&other.sheet.name, question));
    }
    Ok(one(result))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

async fn pay(ctx: &Ctx<'_>, name: &str, amount: Points) -> Result<Lines> {
    let (me, other) = match ctx.me_and(name).await? {
        Ok(pair) => pair,
        Err(line) => return Ok(vec![line]),
    };
    let result = ctx
        .app
        .store
        .change(&ctx.doer(Some(me.id)), |v| {
            let m = holding(v, me.id)?;
            let o = holding(v, other.id)?;
            let changes = books::pay(&v.realm, me.id, other.id, amount).map_err(|e| {
                format!("{} cannot pay for {}: {e}.", m.styled(), o.styled())
            })?;
            let victor = v
                .realm
                .captivities
                .get(&other.id)
                .map_or_else(String::new, |c| v.styled(c.victor));
            let mut after = v.realm.clone();
            after.apply(&changes);
            let mut lines = vec![match after.captivities.get(&other.id).and_then(|c| c.outstanding()) {
                Some(left) => format!(
                    "{} pays {amount} PP toward the ransom of {} to {victor} (R33); {left} PP still owed.",
                    m.styled(),
                    o.styled()
                ),
                None => format!(
                    "{} pays {amount} PP toward the ransom of {} to {victor} (R33): the ransom is paid in full and {} is released.",
                    m.styled(),
                    o.styled(),
                    o.name
                ),
            }];
            if changes
                .facts
                .iter()
                .any(|f| matches!(f, Fact::LordRansomed { vassal } if *vassal == me.id))
            {
                lines.push(format!(
                    "This meets {}'s duty to ransom {} lord, once (R33, R108).",
                    m.name,
                    their(m.style)
                ));
            }
            Ok(Plan::new(changes, lines))
        })
        .await?;
    Ok(many(result))
}

// ---------------------------------------------------------------------------------------------
// Fights for ransom: the session's hooks (R33, R156, R157)
// ---------------------------------------------------------------------------------------------

/// Why a knight may not fight now, if they are held for ransom: "Sir Alan is held for ransom by
/// Baron Cai and may not fight until released (R33)." The session refuses the challenge with it.
pub async fn fight_refusal(app: &App, knight: &KnightRecord) -> Result<Option<String>> {
    let Some(victor) = app.store.captor_of(knight.id).await? else {
        return Ok(None);
    };
    let by = match app.store.knight(victor).await? {
        Some(k) => k.styled(),
        None => format!("knight {victor}"),
    };
    Ok(Some(format!(
        "{} is held for ransom by {by} and may not fight until released (R33).",
        knight.styled()
    )))
}

/// The hostile pair that makes a fight between `a` and `b` one for ransom, if any (R33).
fn hostile_pair(realm: &books::Realm, a: Id, b: Id) -> Option<(Id, Id)> {
    if !books::hostile_parties(realm, a, b) {
        return None;
    }
    let mut up_a = vec![a];
    up_a.extend(realm.lords_above(a));
    let mut up_b = vec![b];
    up_b.extend(realm.lords_above(b));
    up_a.iter().find_map(|&x| {
        up_b.iter()
            .find(|&&y| x != y && realm.is_hostile(x, y))
            .map(|&y| (x, y))
    })
}

fn ransom_line(realm: &books::Realm, a: Id, b: Id, x: Id, y: Id) -> String {
    let why = if (x, y) == (a, b) || (x, y) == (b, a) {
        format!("{} and {} are hostile", realm.styled(a), realm.styled(b))
    } else {
        format!(
            "{} and {} are hostile parties, as {} and {} are hostile",
            realm.styled(a),
            realm.styled(b),
            realm.styled(x),
            realm.styled(y)
        )
    };
    format!("This joust is fought for ransom: {why} (R33). The loser is held by the victor and may not fight until released.")
}

/// When a practice joust is challenged: the line announcing that it will be fought for ransom,
/// if `a` and `b` are hostile parties (R33), else `None`.
pub async fn ransom_notice(app: &App, realm: Id, a: Id, b: Id) -> Result<Option<String>> {
    if !app.store.any_hostility(realm).await? {
        return Ok(None);
    }
    let view = app.store.books_view(realm).await?;
    Ok(hostile_pair(&view.realm, a, b).map(|(x, y)| ransom_line(&view.realm, a, b, x, y)))
}

/// When a fight ends with a winner: if it was fought for ransom, the loser is captured by the
/// winner, who asks the customary ransom until they say otherwise (R33, R156). Returns the lines
/// to say (none for a fight not for ransom). `user` is the winner's player, for the books. A
/// draw captures no one and never reaches here.
pub async fn capture_after_fight(
    app: &App,
    realm: Id,
    fight: Id,
    winner: Id,
    loser: Id,
    user: &str,
    now: DateTime<Utc>,
) -> Result<Lines> {
    if !app.store.is_ransom_fight(fight).await? {
        return Ok(Vec::new());
    }
    let month = app.month_in(realm, now);
    let doer = Doer {
        realm,
        user,
        actor: Some(winner),
        fight: Some(fight),
        at: now,
        month: &month,
    };
    let result = app
        .store
        .change(&doer, |v| {
            // Only hostile parties fight for ransom, so every such capture is under hostility.
            let changes = books::capture(&v.realm, loser, winner, true).map_err(|e| {
                format!(
                    "{} is not captured: {e}.",
                    v.styled(loser)
                )
            })?;
            let mut after = v.realm.clone();
            after.apply(&changes);
            let customary = after
                .captivities
                .get(&loser)
                .map_or(Points::ZERO, |c| c.customary);
            let name = v.holding(loser).map_or(String::new(), |h| h.name.clone());
            let mut lines = vec![format!(
                "{} is captured by {} and may not fight until released (R33). The customary ransom is {customary} PP; anyone with PP may pay: /ransom pay {name} PP. {}: /ransom demand, /ransom free or /ransom kill {name}.",
                v.styled(loser),
                v.styled(winner),
                owner(v, winner)
            )];
            lines.extend(duty_lines(&after, loser));
            Ok(Plan::new(changes, lines))
        })
        .await?;
    Ok(many(result))
}

// ---------------------------------------------------------------------------------------------
// The ledger and the standings
// ---------------------------------------------------------------------------------------------

/// "+1 HP", "−12 HP, +5 PP", "no points".
fn amounts(hp: i64, pp: i64) -> String {
    let signed = |h: i64| {
        if h < 0 {
            crate::reply::points(h)
        } else {
            format!("+{}", crate::reply::points(h))
        }
    };
    let mut parts = Vec::new();
    if hp != 0 {
        parts.push(format!("{} HP", signed(hp)));
    }
    if pp != 0 {
        parts.push(format!("{} PP", signed(pp)));
    }
    if parts.is_empty() {
        "no points".to_string()
    } else {
        parts.join(", ")
    }
}

fn ledger_line(app: &App, realm: Id, row: &LedgerRow) -> String {
    let day = DateTime::parse_from_rfc3339(&row.at)
        .map(|t| app.day_in(realm, t.with_timezone(&Utc)))
        .unwrap_or_else(|_| row.month.clone());
    let mut line = format!(
        "#{} {day} {}: {}",
        row.id,
        amounts(row.hp_halves, row.pp_halves),
        row.reason
    );
    // The fight's own award rows already name it in their reason.
    if let Some(f) = row
        .fight
        .filter(|f| !row.reason.contains(&format!("fight #{f}")))
    {
        line.push_str(&format!(", fight #{f}"));
    }
    // An entry whose reason already names its author ("retired by adm") is signed once.
    if let Some(by) = row
        .by_user
        .as_ref()
        .filter(|by| !row.reason.ends_with(&format!("by {by}")))
    {
        line.push_str(&format!(", by {by}"));
    }
    if let Some(r) = row.revoked_by {
        line.push_str(&format!(" [revoked by #{r}]"));
    }
    line
}

/// `/ledger [NAME] [--month YYYY-MM] [--page N]`: the entries newest first, [`LEDGER_LINES`] a
/// page; a page that leaves older entries ends with the command that shows the next one.
async fn ledger(
    ctx: &Ctx<'_>,
    name: Option<&str>,
    month: Option<YearMonth>,
    page: u32,
) -> Result<Lines> {
    let k = match name {
        None => ctx.me().await?,
        Some(n) => ctx.find(n).await?,
    };
    let k = match k {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    let month = month.map(|m| m.to_string());
    let mut rows = ctx.app.store.ledger(k.id, month.as_deref()).await?;
    rows.reverse();
    let b = ctx.app.store.balance(k.id).await?;
    let now = format!(
        "{} HP, {} PP",
        crate::reply::points(b.hp_halves),
        crate::reply::points(b.pp_halves)
    );
    let count = |n: usize| format!("{n} entr{}", if n == 1 { "y" } else { "ies" });
    let pages = rows.len().div_ceil(LEDGER_LINES).max(1);
    let page = usize::try_from(page).unwrap_or(usize::MAX).max(1);
    // The command that shows another page of the same ledger, as the player would type it.
    let command = |p: usize| {
        let mut c = match name {
            Some(_) => format!("/ledger {}", k.sheet.name),
            None => "/ledger".to_string(),
        };
        if let Some(m) = &month {
            c.push_str(&format!(" --month {m}"));
        }
        c.push_str(&format!(" --page {p}"));
        c
    };
    if page > pages {
        return Ok(vec![format!(
            "The ledger of {} has {} ({} page{} of {LEDGER_LINES}); there is no page {page}. The last: {}",
            k.styled(),
            count(rows.len()),
            pages,
            if pages == 1 { "" } else { "s" },
            command(pages)
        )]);
    }
    let of_pages = if pages > 1 {
        format!(" Page {page} of {pages}, newest first.")
    } else {
        String::new()
    };
    let mut lines = vec![match &month {
        None => format!(
            "Ledger of {}: {}; now {now}.{of_pages}",
            k.styled(),
            count(rows.len())
        ),
        Some(m) => {
            let hp: i64 = rows.iter().map(|r| r.hp_halves).sum();
            let pp: i64 = rows.iter().map(|r| r.pp_halves).sum();
            format!(
                "Ledger of {} for {m}: {} ({} that month); now {now}.{of_pages}",
                k.styled(),
                count(rows.len()),
                amounts(hp, pp)
            )
        }
    }];
    let skip = (page - 1) * LEDGER_LINES;
    lines.extend(
        rows.iter()
            .skip(skip)
            .take(LEDGER_LINES)
            .map(|r| ledger_line(ctx.app, ctx.realm, r)),
    );
    let earlier = rows.len().saturating_sub(skip + LEDGER_LINES);
    if earlier > 0 {
        lines.push(format!(
            "({} earlier: {})",
            count(earlier),
            command(page + 1)
        ));
    }
    let knight = crate::web::Linked::Knight(&k.sheet.name);
    lines.extend(crate::web::full_page(ctx.app, ctx.realm, knight));
    Ok(lines)
}

async fn standings(ctx: &Ctx<'_>, by: By) -> Result<Lines> {
    let mut rows = ctx.app.store.standings(ctx.realm).await?;
    if rows.is_empty() {
        return Ok(vec![
            "No knights in this realm yet. Create one: /knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N --monarch MONARCH".into(),
        ]);
    }
    let key = |s: &stored::Standing| match by {
        By::Hp => s.balance.hp_halves,
        By::Pp => s.balance.pp_halves,
    };
    rows.sort_by(|a, b| {
        key(b)
            .cmp(&key(a))
            .then_with(|| a.knight.sheet.name.cmp(&b.knight.sheet.name))
    });
    let mut lines = vec![format!(
        "Standings by {} ({} knight{}):",
        match by {
            By::Hp => "Honor",
            By::Pp => "Prestige",
        },
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    )];
    for s in rows.iter().take(STANDINGS_LINES) {
        let place = 1 + rows.iter().filter(|o| key(o) > key(s)).count();
        lines.push(format!(
            "{place}. {} ({}): {} HP, {} PP, {}",
            s.knight.styled(),
            s.knight.owner,
            crate::reply::points(s.balance.hp_halves),
            crate::reply::points(s.balance.pp_halves),
            if s.knight.landed {
                "landed"
            } else {
                "unlanded"
            }
        ));
    }
    if rows.len() > STANDINGS_LINES {
        lines.push(format!("... and {} more.", rows.len() - STANDINGS_LINES));
    }
    let page = crate::web::Linked::Standings;
    lines.extend(crate::web::full_page(ctx.app, ctx.realm, page));
    Ok(lines)
}

// ---------------------------------------------------------------------------------------------
// Admins
// ---------------------------------------------------------------------------------------------

async fn admin_award(ctx: &Ctx<'_>, name: &str, amount: Points, reason: &str) -> Result<Lines> {
    let k = match ctx.find(name).await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    if amount == Points::ZERO {
        return Ok(vec![
            "An award of 0 HP changes nothing. Usage: /admin award KNIGHT HP REASON...".into(),
        ]);
    }
    let reason = reason.trim();
    let (id, award) = ctx
        .app
        .store
        .admin_award(&ctx.doer(None), k.id, amount, reason)
        .await?;
    let line = if amount.is_negative() {
        format!(
            "{} takes {} HP from {} (a correction is not split, R154): {reason} (entry #{id}).",
            ctx.user,
            -amount,
            k.styled()
        )
    } else if award.pp.is_positive() {
        format!(
            "{} awards {} {amount} HP, split for a landed knight as {} HP and {} PP (R29, R101): {reason} (entry #{id}).",
            ctx.user,
            k.styled(),
            award.hp,
            award.pp
        )
    } else {
        format!(
            "{} awards {} {amount} HP: {reason} (entry #{id}).",
            ctx.user,
            k.styled()
        )
    };
    Ok(vec![line])
}

async fn admin_revoke(ctx: &Ctx<'_>, entry: u64) -> Result<Lines> {
    let Ok(entry) = Id::try_from(entry) else {
        return Ok(vec![format!(
            "There is no ledger entry #{entry} in this realm."
        )]);
    };
    Ok(vec![
        match ctx.app.store.revoke(&ctx.doer(None), entry).await? {
            Ok((old, id)) => {
                let who = match ctx.app.store.knight(old.knight).await? {
                    Some(k) => k.styled(),
                    None => format!("knight {}", old.knight),
                };
                // A revoke may leave a balance below zero: the books stay true to what was
                // revoked, and the reply says so (README, "Admins").
                let b = ctx.app.store.balance(old.knight).await?;
                let below: Vec<&str> = [(b.hp_halves, "Honor"), (b.pp_halves, "Prestige")]
                    .into_iter()
                    .filter(|(h, _)| *h < 0)
                    .map(|(_, what)| what)
                    .collect();
                let warning = if below.is_empty() {
                    String::new()
                } else {
                    format!(
                        " {who} now has {} HP, {} PP: below zero in {}. A revoke may leave a balance below zero; the knight earns back from there.",
                        crate::reply::points(b.hp_halves),
                        crate::reply::points(b.pp_halves),
                        below.join(" and ")
                    )
                };
                format!(
                    "{} revokes entry #{entry} ({} to {who}: {}): entry #{id} reverses it ({}).{warning}",
                    ctx.user,
                    amounts(old.hp_halves, old.pp_halves),
                    old.reason,
                    amounts(-old.hp_halves, -old.pp_halves)
                )
            }
            Err(refusal) => format!("Cannot revoke: {refusal}."),
        },
    ])
}

/// Checks a new name by the rules of knights' names (R122), and returns it as it will be kept.
fn checked_name(name: &str) -> Result<String, String> {
    let probe = NewKnight {
        name: name.to_string(),
        top: vec![Skill::Lance, Skill::Ride, Skill::Observe],
        psi: vec![(PsiSkill::Cpk, 40)],
        monarch: herald_engine::psiknight::Monarch::Llewellyn,
        style: Style::Sir,
    };
    probe
        .create()
        .map(|sheet| sheet.name)
        .map_err(|e| format!("Cannot rename: {e} (R122)."))
}

async fn admin_rename(ctx: &Ctx<'_>, name: &str, new_name: &str) -> Result<Lines> {
    let k = match ctx.find(name).await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    let new_name = match checked_name(new_name) {
        Ok(n) => n,
        Err(line) => return Ok(vec![line]),
    };
    if k.sheet.name.to_lowercase() != new_name.to_lowercase() {
        if let Some(line) =
            super::resolve::name_refusal(ctx.app, ctx.realm, &new_name, "Cannot rename").await?
        {
            return Ok(vec![line]);
        }
    }
    Ok(vec![
        match ctx.app.store.rename(&ctx.doer(None), &k, &new_name).await? {
            Ok(id) => format!(
                "{} renames {} to {} {new_name} (entry #{id}).",
                ctx.user,
                k.styled(),
                k.rank.title(k.sheet.style)
            ),
            Err(refusal) => format!("Cannot rename: {refusal}."),
        },
    ])
}

async fn admin_retire(ctx: &Ctx<'_>, name: &str) -> Result<Lines> {
    let k = match ctx.find(name).await? {
        Ok(k) => k,
        Err(line) => return Ok(vec![line]),
    };
    if let Some(channel) = ctx.app.fighting_in(k.id) {
        return Ok(vec![format!(
            "{} is fighting in {channel}; retire {} when the fight is over.",
            k.styled(),
            them(k.sheet.style)
        )]);
    }
    let id = ctx.app.store.retire(&ctx.doer(None), &k).await?;
    Ok(vec![format!(
        "{} retires {} (entry #{id}): {} allegiances, hostilities, offers and captivities end (R155); {} may create a new knight.",
        ctx.user,
        k.styled(),
        their(k.sheet.style),
        k.owner
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_engine::psiknight::Rank;

    #[test]
    fn amounts_read_in_half_points() {
        assert_eq!(amounts(2, 0), "+1 HP");
        assert_eq!(amounts(-24, 10), "\u{2212}12 HP, +5 PP");
        assert_eq!(amounts(1, 1), "+0.5 HP, +0.5 PP");
        assert_eq!(amounts(0, 0), "no points");
    }

    // R122: a rename follows the rules of names, and runs of spaces are one space.
    #[test]
    fn r122_renames_follow_the_rules_of_names() {
        assert_eq!(
            checked_name("Alan  the Bold").as_deref(),
            Ok("Alan the Bold")
        );
        assert!(checked_name("@everyone").is_err_and(|e| e.contains("R122")));
        assert!(checked_name("   ").is_err());
    }

    // R33: the hostile pair behind a fight for ransom is found through the lords above.
    #[test]
    fn r33_the_hostile_pair_is_found_through_lords() {
        let mut realm = books::Realm::new();
        let mut lord = Holding::new("Brenna", Style::Dame);
        lord.rank = Rank::Baron;
        lord.landed = true;
        realm.insert(1, lord);
        let mut vassal = Holding::new("Alan", Style::Sir);
        vassal.lord = Some(1);
        realm.insert(2, vassal);
        let mut foe = Holding::new("Cai", Style::Sir);
        foe.landed = true;
        realm.insert(3, foe);
        realm.hostilities.insert(books::pair(1, 3));
        assert_eq!(hostile_pair(&realm, 2, 3), Some((1, 3)));
        assert_eq!(hostile_pair(&realm, 3, 2), Some((3, 1)));
        assert!(ransom_line(&realm, 2, 3, 1, 3).contains(
            "Sir Alan and Sir Cai are hostile parties, as Baroness Brenna and Sir Cai are hostile"
        ));
        realm.hostilities.clear();
        assert_eq!(hostile_pair(&realm, 2, 3), None);
    }
}
