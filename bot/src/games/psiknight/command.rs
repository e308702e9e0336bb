//! PsiKnight's own commands, as its table's builders read them ([`super::commands`]): the
//! knights and their books, the joust's decisions, tournaments and the Melee, and the admins'
//! corrections. The core carries one as a [`Command::Own`] and names none of them.

use crate::command::{Command, GameOrder, HalfPoints, OwnCommand, When, YearMonth};
use herald_engine::psiknight::books::AnySkill;
use herald_engine::psiknight::{Decision, Monarch, NewKnight, PsiSkill, Skill, Style};
use serde::{Deserialize, Serialize};

/// The choices of `/knight create`, ready for the engine's [`NewKnight::create`], which checks
/// the creation rules (R3); the grammar has checked only that each word names something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateKnight {
    /// The name as typed (quotes removed).
    pub name: String,
    /// The fighting skills that start at 40, in the order given.
    pub top: Vec<Skill>,
    /// The psi skills with their percentiles, in the order given.
    pub psi: Vec<(PsiSkill, u32)>,
    /// The monarch, named by name or kingdom.
    pub monarch: Monarch,
    /// Dame with `--dame`, else Sir.
    pub style: Style,
}

impl CreateKnight {
    /// The engine's form of these choices.
    pub fn to_new_knight(&self) -> NewKnight {
        self.clone().into()
    }
}

impl From<CreateKnight> for NewKnight {
    fn from(k: CreateKnight) -> Self {
        NewKnight {
            name: k.name,
            top: k.top,
            psi: k.psi,
            monarch: k.monarch,
            style: k.style,
        }
    }
}

/// A command of PsiKnight's own table. Plain data: the channel's referee decides what it means now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PsiCommand {
    /// `/knight create`: create your knight (R3).
    CreateKnight(CreateKnight),
    /// `/knight [NAME]`: show a sheet; `None` is your own.
    Knight {
        /// The knight to show.
        name: Option<String>,
    },
    /// `/honor [NAME]`: Honor and Prestige; `None` is your own.
    Honor {
        /// The knight to show.
        name: Option<String>,
    },
    /// `/ledger [NAME] [--month YYYY-MM] [--page N]`: the entries of the books, newest first.
    Ledger {
        /// The knight; `None` is your own.
        name: Option<String>,
        /// Only this month's entries.
        month: Option<YearMonth>,
        /// Which page of 30 entries, newest first; `None` is the first.
        page: Option<u32>,
    },
    /// `/standings [hp|pp]`: the realm's knights ranked.
    Standings {
        /// What to rank by.
        by: Standing,
    },
    /// `/spend SKILL`: raise a skill by one step (R30).
    Spend {
        /// The skill to raise.
        skill: AnySkill,
    },
    /// `/land`: buy a grant of lands from your monarch (R31).
    Land,
    /// `/grant KNIGHT`: as a noble, grant lands to a knight who becomes your vassal (R31).
    Grant {
        /// The knight to receive lands.
        knight: String,
    },
    /// `/advance`: ask for the next noble title (R32).
    Advance,
    /// `/swear KNIGHT`: swear allegiance to a lord, or accept a knight's oath.
    Swear {
        /// The other party.
        knight: String,
    },
    /// `/release KNIGHT`: release a vassal by mutual consent.
    Release {
        /// The vassal or lord.
        knight: String,
    },
    /// `/renounce KNIGHT`: break allegiance (R33).
    Renounce {
        /// The lord or vassal.
        knight: String,
    },
    /// `/hostility declare|end KNIGHT` (R33).
    Hostility {
        /// Declare or end.
        action: HostilityAction,
        /// The other party.
        knight: String,
    },
    /// `/ransom demand KNIGHT [PP]`: name a captive's ransom; `None` is the customary one.
    RansomDemand {
        /// The captive.
        knight: String,
        /// The ransom asked.
        pp: Option<HalfPoints>,
    },
    /// `/ransom free KNIGHT`: free a captive without ransom.
    RansomFree {
        /// The captive.
        knight: String,
    },
    /// `/ransom kill KNIGHT`: kill a captive of a fight under hostility.
    RansomKill {
        /// The captive.
        knight: String,
    },
    /// `/ransom pay KNIGHT PP`: pay all or part of a captive's ransom.
    RansomPay {
        /// The captive.
        knight: String,
        /// The Prestige paid.
        pp: HalfPoints,
    },
    /// `/admin award KNIGHT HP REASON...`: a ledger entry by hand.
    AdminAward {
        /// The knight.
        knight: String,
        /// Honor awarded; negative to take away.
        hp: HalfPoints,
        /// Why, for the ledger.
        reason: String,
    },
    /// `/admin revoke ENTRY_ID`: reverse a ledger entry.
    AdminRevoke {
        /// The entry's number.
        entry: u64,
    },
    /// `/admin rename KNIGHT NEW_NAME`.
    AdminRename {
        /// The knight.
        knight: String,
        /// The new name.
        new_name: String,
    },
    /// `/admin retire KNIGHT`: retire a knight from the realm.
    AdminRetire {
        /// The knight.
        knight: String,
    },
    /// `/joust TARGET`: challenge a knight to a practice fight.
    Joust {
        /// A nick, `@nick`, a Discord mention `<@123>` or a knight name, as typed; the session
        /// resolves it.
        target: String,
    },
    /// `/confirm`: go ahead with the act that cannot be undone the speaker was just asked to
    /// confirm (oathbreaking, `/ransom kill`), within 60 s of the asking (R180).
    Confirm,
    /// A fighter's decision: the checklist moves, `/bonus` and `/psi`.
    Decide(Decision),
    /// `/tournament`: show this month's tournament.
    Tournament,
    /// `/tournament schedule ...`.
    TournamentSchedule(Schedule),
    /// `/tournament start [TOURNAMENT]`.
    TournamentStart {
        /// Which tournament, by number or name; the one scheduled here when left out.
        which: Option<String>,
    },
    /// `/tournament cancel [TOURNAMENT]`.
    TournamentCancel {
        /// Which tournament, by number or name; the only one scheduled when left out.
        which: Option<String>,
    },
    /// `/melee prize KNIGHT`: name the Melee's first prize (R37).
    MeleePrize {
        /// The knight.
        knight: String,
    },
    /// `/enter [TOURNAMENT]`: enter a tournament.
    Enter {
        /// Which tournament, by number or name; the next one scheduled when left out.
        which: Option<String>,
    },
    /// `/withdraw [TOURNAMENT]`: withdraw from a tournament.
    Withdraw {
        /// Which tournament, by number or name; the one entered when left out.
        which: Option<String>,
    },
    /// `/bracket`: the Lists so far.
    Bracket,
    /// `/melee join SIDE` (R37).
    MeleeJoin {
        /// The side's name, as the moderator gave it.
        side: String,
    },
    /// `/pass KNIGHT`: offer a melee pass to a knight of the other side (R37).
    Pass {
        /// The knight offered the pass.
        knight: String,
    },
    /// `/melee open SIDE SIDE`: a moderator opens the Melee with its two sides (R37, R133).
    MeleeOpen {
        /// The first side's name.
        first: String,
        /// The second side's name.
        second: String,
    },
    /// `/melee start`: the muster is over and passes may be offered (R133).
    MeleeStart,
    /// `/melee time`: a moderator calls time before the limit (R135).
    MeleeTime,
}

impl GameOrder for PsiCommand {
    fn name(&self) -> &'static str {
        match self {
            PsiCommand::CreateKnight(_) => "knight create",
            PsiCommand::Knight { .. } => "knight",
            PsiCommand::Honor { .. } => "honor",
            PsiCommand::Ledger { .. } => "ledger",
            PsiCommand::Standings { .. } => "standings",
            PsiCommand::Spend { .. } => "spend",
            PsiCommand::Land => "land",
            PsiCommand::Grant { .. } => "grant",
            PsiCommand::Advance => "advance",
            PsiCommand::Swear { .. } => "swear",
            PsiCommand::Release { .. } => "release",
            PsiCommand::Renounce { .. } => "renounce",
            PsiCommand::Hostility { .. } => "hostility",
            PsiCommand::RansomDemand { .. } => "ransom demand",
            PsiCommand::RansomFree { .. } => "ransom free",
            PsiCommand::RansomKill { .. } => "ransom kill",
            PsiCommand::RansomPay { .. } => "ransom pay",
            PsiCommand::AdminAward { .. } => "admin award",
            PsiCommand::AdminRevoke { .. } => "admin revoke",
            PsiCommand::AdminRename { .. } => "admin rename",
            PsiCommand::AdminRetire { .. } => "admin retire",
            PsiCommand::Joust { .. } => "joust",
            PsiCommand::Confirm => "confirm",
            PsiCommand::Decide(d) => d.word(),
            PsiCommand::Tournament => "tournament",
            PsiCommand::TournamentSchedule(_) => "tournament schedule",
            PsiCommand::TournamentStart { .. } => "tournament start",
            PsiCommand::TournamentCancel { .. } => "tournament cancel",
            PsiCommand::MeleePrize { .. } => "melee prize",
            PsiCommand::Enter { .. } => "enter",
            PsiCommand::Withdraw { .. } => "withdraw",
            PsiCommand::Bracket => "bracket",
            PsiCommand::MeleeJoin { .. } => "melee join",
            PsiCommand::Pass { .. } => "pass",
            PsiCommand::MeleeOpen { .. } => "melee open",
            PsiCommand::MeleeStart => "melee start",
            PsiCommand::MeleeTime => "melee time",
        }
    }

    fn held_in_mut(&mut self) -> Option<&mut String> {
        match self {
            PsiCommand::TournamentSchedule(s) => s.channel.as_mut(),
            _ => None,
        }
    }

    fn schedules(&self) -> bool {
        matches!(self, PsiCommand::TournamentSchedule(_))
    }
}

impl From<PsiCommand> for Command {
    fn from(command: PsiCommand) -> Command {
        Command::Own(OwnCommand::new(command))
    }
}

impl PsiCommand {
    /// PsiKnight's command that `command` carries, if it is one.
    pub fn of(command: &Command) -> Option<&PsiCommand> {
        match command {
            Command::Own(own) => own.get(),
            _ => None,
        }
    }
}

/// Which points `/standings` ranks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Honor Points (the default).
    #[default]
    Hp,
    /// Prestige Points.
    Pp,
}

/// `/hostility declare` or `/hostility end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostilityAction {
    /// Begin a state of hostility (R33).
    Declare,
    /// Assent to ending it; it ends when both have (R33).
    End,
}

/// The settings of `/tournament schedule`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// The tournament's name.
    pub name: String,
    /// When the Lists begin.
    pub when: When,
    /// The host: a monarch or a noble sponsor, as typed.
    pub host: Option<String>,
    /// The channel it is held in, as typed (`#lists` or a Discord `<#id>`); `None` for this one.
    pub channel: Option<String>,
    /// A Melee follows the Lists (R37).
    pub melee: bool,
    /// Each knight may remount once in the Melee (R37).
    pub remount: bool,
    /// The Melee's time limit in minutes.
    pub melee_minutes: Option<u32>,
    /// Schedule even if the month already has a tournament (R38); the override is logged.
    pub force: bool,
}
