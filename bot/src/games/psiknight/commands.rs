//! PsiKnight's commands: its knights and books in chat, the joust's decisions, tournaments and
//! the admins' corrections; and the table a PsiKnight channel reads, its own entries with the
//! commands every game shares ([`crate::command::SHARED`]) placed where PsiKnight's `/help`
//! has always listed them.

use super::command::{CreateKnight, HostilityAction, PsiCommand, Schedule, Standing};
use crate::command::*;
use crate::games::{Menu, Privacy};
use herald_engine::psiknight::books::AnySkill;
use herald_engine::psiknight::{BonusMode, Decision, Monarch, PsiSkill, Skill, Style};

pub(crate) const KNIGHT: ArgSpec = ArgSpec::pos(
    "knight",
    "KNIGHT",
    ArgKind::Knight,
    "the knight",
    "\"Sir Alan\"",
)
.greedy();
/// A tournament, by number (`2`, `#2`) or name, when more than one is scheduled.
pub(crate) const WHICH: ArgSpec = ArgSpec::pos(
    "which",
    "TOURNAMENT",
    ArgKind::Text,
    "the tournament, by number or name",
    "\"Yule Lists\"",
)
.optional()
.greedy();

/// The fighting skills' command words, in the engine's order.
pub const SKILL_WORDS: &[&str] = &SKILLS_ARRAY;
/// The psi skills' command words, in the engine's order.
pub const PSI_WORDS: &[&str] = &PSI_ARRAY;
/// Fighting then psi skills: what `/spend` accepts.
pub const ANY_SKILL_WORDS: &[&str] = &joined::<6, 7, 13>(SKILLS_ARRAY, PSI_ARRAY);
/// The psi skills and `off`: what `/psi` accepts.
pub const PSI_OR_OFF_WORDS: &[&str] = &joined::<7, 1, 8>(PSI_ARRAY, ["off"]);

const SKILLS_ARRAY: [&str; 6] = ["lance", "ride", "observe", "shield", "dodge", "sword"];
const PSI_ARRAY: [&str; 7] = [
    "apportation",
    "cpk",
    "hypercognition",
    "mesmerism",
    "telepathy",
    "catapsi",
    "negapsi",
];

/// `a` then `b`, at compile time.
const fn joined<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    assert!(
        A + B == N,
        "the joined list's length is the sum of its parts"
    );
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < A { a[i] } else { b[i - A] };
        i += 1;
    }
    out
}

/// The monarchs by name (their kingdoms are accepted too).
pub const MONARCH_WORDS: &[&str] = &["llewellyn", "ragnar", "seonaid"];
/// The Bonus modes (R5).
pub const BONUS_WORDS: &[&str] = &["attack", "defend", "weaken"];

pub(crate) const ANY_SKILL_EXPECTED: &str =
    "lance, ride, observe, shield, dodge, sword, apportation, cpk, \
     hypercognition, mesmerism, telepathy, catapsi, negapsi";
pub(crate) const PSI_OR_OFF_EXPECTED: &str =
    "apportation, cpk, hypercognition, mesmerism, telepathy, catapsi, negapsi, off";

/// Comma-separated fighting skills: `lance,ride,shield`.
pub(crate) static SKILLS: GameKind = GameKind {
    choices: &[],
    list: true,
    read: |text| {
        list_items(text)
            .map(|s| s.parse::<Skill>().map_err(unknown_name))
            .collect::<Result<Vec<_>, _>>()
            .map(GameValue::new)
    },
};

/// Comma-separated psi skills with points: `cpk:20,negapsi:20`.
pub(crate) static PSI_POINTS: GameKind = GameKind {
    choices: &[],
    list: true,
    read: |text| {
        let bad = |item: &str| ParseErrorKind::BadItem {
            word: shown(item),
            how: "write each psi skill with its points, such as cpk:20",
        };
        let mut psi = Vec::new();
        for item in list_items(text) {
            let Some((name, points)) = item.split_once([':', '=']) else {
                return Err(bad(item));
            };
            let skill = name.parse::<PsiSkill>().map_err(unknown_name)?;
            let points = parse_digits(points.trim(), 9)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(item))?;
            psi.push((skill, points));
        }
        Ok(GameValue::new(psi))
    },
};

/// A monarch by name or kingdom.
pub(crate) static MONARCH: GameKind = GameKind {
    choices: MONARCH_WORDS,
    list: false,
    read: |word| {
        word.parse::<Monarch>()
            .map(GameValue::new)
            .map_err(unknown_name)
    },
};

/// A fighting or a psi skill: what `/spend` raises (R30 prices both alike).
pub(crate) static ANY_SKILL: GameKind = GameKind {
    choices: ANY_SKILL_WORDS,
    list: false,
    read: |word| {
        if let Ok(skill) = word.parse::<Skill>() {
            Ok(GameValue::new(AnySkill::Fighting(skill)))
        } else if let Ok(skill) = word.parse::<PsiSkill>() {
            Ok(GameValue::new(AnySkill::Psi(skill)))
        } else {
            Err(unknown_name(UnknownName {
                kind: "skill",
                word: word.to_string(),
                expected: ANY_SKILL_EXPECTED,
            }))
        }
    },
};

/// A psi skill, or `off`.
pub(crate) static PSI_OR_OFF: GameKind = GameKind {
    choices: PSI_OR_OFF_WORDS,
    list: false,
    read: |word| {
        if word.eq_ignore_ascii_case("off") {
            return Ok(GameValue::new(None::<PsiSkill>));
        }
        word.parse::<PsiSkill>()
            .map(|s| GameValue::new(Some(s)))
            .map_err(|e| {
                unknown_name(UnknownName {
                    expected: PSI_OR_OFF_EXPECTED,
                    ..e
                })
            })
    },
};

/// A Bonus mode (R5).
pub(crate) static BONUS_MODE: GameKind = GameKind {
    choices: BONUS_WORDS,
    list: false,
    read: |word| {
        [BonusMode::Attack, BonusMode::Defend, BonusMode::Weaken]
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(word))
            .map(GameValue::new)
            .ok_or_else(|| bad_choice(word, BONUS_WORDS))
    },
};

/// A decision command without arguments.
macro_rules! decision {
    ($word:literal, $decision:expr, $summary:literal) => {
        CommandSpec {
            path: &[$word],
            aliases: &[],
            usage: concat!("/", $word),
            summary: $summary,
            example: concat!("/", $word),
            args: &[],
            access: Access::Fighter,
            group: Group::Decisions,
            build: |_| Ok(PsiCommand::Decide($decision).into()),
        }
    };
}

/// A knight: created and shown, its Honor.
const KNIGHTS: &[CommandSpec] = &[
    // Knights and books
    CommandSpec {
        path: &["knight", "create"],
        aliases: &[],
        usage: "/knight create NAME --top SKILL,SKILL,SKILL --psi SKILL:N[,SKILL:N...] --monarch MONARCH [--dame]",
        summary: "Create your knight: three skills at 40, 40 psi points, a monarch.",
        example: "/knight create \"Alan the Bold\" --top lance,ride,shield --psi cpk:20,negapsi:20 --monarch ragnar",
        args: &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "your knight's name", "\"Alan the Bold\"")
                .greedy(),
            ArgSpec::flag("--top", "top", ArgKind::Game(&SKILLS), "the three fighting skills that start at 40", "--top lance,ride,shield")
                .required(),
            ArgSpec::flag("--psi", "psi", ArgKind::Game(&PSI_POINTS), "psi skills with points adding up to 40", "--psi cpk:20,negapsi:20")
                .required(),
            ArgSpec::flag("--monarch", "monarch", ArgKind::Game(&MONARCH), "your monarch, by name or kingdom", "--monarch ragnar")
                .required(),
            ArgSpec::flag("--dame", "dame", ArgKind::Switch, "styled Dame rather than Sir", "--dame"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::CreateKnight(CreateKnight {
                name: v.req("name")?,
                top: v.game("top")?,
                psi: v.game("psi")?,
                monarch: v.game("monarch")?,
                style: if v.has("dame") { Style::Dame } else { Style::Sir },
            }).into())
        },
    },
    CommandSpec {
        path: &["knight"],
        aliases: &[],
        usage: "/knight [NAME]",
        summary: "Show a knight's sheet, yours when no name is given.",
        example: "/knight Alan",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(PsiCommand::Knight { name: v.opt("name")? }.into()),
    },
    CommandSpec {
        path: &["honor"],
        aliases: &["honour"],
        usage: "/honor [NAME]",
        summary: "Show a knight's Honor and Prestige, yours when no name is given.",
        example: "/honor Alan",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(PsiCommand::Honor { name: v.opt("name")? }.into()),
    },
];

/// The books of a knight, entry by entry.
const LEDGER: &[CommandSpec] = &[
    CommandSpec {
        path: &["ledger"],
        aliases: &[],
        usage: "/ledger [NAME] [--month YYYY-MM] [--page N]",
        summary: "Show the entries of a knight's books, yours when no name is given, newest first, 30 a page.",
        example: "/ledger Alan --month 2026-12 --page 2",
        args: &[
            OPT_NAME,
            ArgSpec::flag("--month", "month", ArgKind::Month, "only this month", "--month 2026-12"),
            ArgSpec::flag("--page", "page", ArgKind::Number { min: 1, max: 1_000_000 }, "which page of 30 entries, newest first", "--page 2"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Ledger {
                name: v.opt("name")?,
                month: v.opt("month")?,
                page: v.opt("page")?,
            }.into())
        },
    },
];

/// The realm's books in chat (R28–R33: spending, land, allegiance, hostility, ransom), and the joust's challenge.
const BOOKS: &[CommandSpec] = &[
    CommandSpec {
        path: &["standings"],
        aliases: &[],
        usage: "/standings [hp|pp]",
        summary: "Rank the realm's knights by Honor or by Prestige.",
        example: "/standings pp",
        args: &[ArgSpec::pos(
            "by",
            "hp|pp",
            ArgKind::Choice(&["hp", "pp"]),
            "rank by Honor or Prestige",
            "pp",
        )
        .optional()],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            let by = match v.opt::<&'static str>("by")? {
                Some("pp") => Standing::Pp,
                _ => Standing::Hp,
            };
            Ok(PsiCommand::Standings { by }.into())
        },
    },
    CommandSpec {
        path: &["spend"],
        aliases: &[],
        usage: "/spend SKILL",
        summary: "Spend Honor to raise a fighting or psi skill by 10.",
        example: "/spend lance",
        args: &[ArgSpec::pos(
            "skill",
            "SKILL",
            ArgKind::Game(&ANY_SKILL),
            "the skill to raise",
            "lance",
        )],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Spend {
                skill: v.game("skill")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["land"],
        aliases: &[],
        usage: "/land",
        summary: "Buy a grant of lands from your monarch for 12 Honor.",
        example: "/land",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(PsiCommand::Land.into()),
    },
    CommandSpec {
        path: &["grant"],
        aliases: &[],
        usage: "/grant KNIGHT",
        summary: "As a noble, offer lands to a knight, who becomes your vassal on accepting.",
        example: "/grant Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Grant {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["advance"],
        aliases: &[],
        usage: "/advance",
        summary: "Ask your monarch for the next noble title.",
        example: "/advance",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(PsiCommand::Advance.into()),
    },
    CommandSpec {
        path: &["swear"],
        aliases: &[],
        usage: "/swear KNIGHT",
        summary: "Swear allegiance to a lord, or accept a knight's oath.",
        example: "/swear Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Swear {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["release"],
        aliases: &[],
        usage: "/release KNIGHT",
        summary: "End an allegiance by mutual consent.",
        example: "/release Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Release {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["renounce"],
        aliases: &[],
        usage: "/renounce KNIGHT",
        summary: "Break an allegiance, with the penalties the rules name.",
        example: "/renounce Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::Renounce {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["hostility"],
        aliases: &[],
        usage: "/hostility declare|end KNIGHT",
        summary: "Declare hostility, or agree to end it.",
        example: "/hostility declare Alan",
        args: &[
            ArgSpec::pos(
                "action",
                "declare|end",
                ArgKind::Choice(&["declare", "end"]),
                "declare or end",
                "declare",
            ),
            KNIGHT,
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            let action = match v.req::<&'static str>("action")? {
                "end" => HostilityAction::End,
                _ => HostilityAction::Declare,
            };
            Ok(PsiCommand::Hostility {
                action,
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["ransom", "demand"],
        aliases: &[],
        usage: "/ransom demand KNIGHT [PP]",
        summary: "Name your captive's ransom, the customary one when no amount is given.",
        example: "/ransom demand Alan 2.5",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the captive", "Alan"),
            ArgSpec::pos("pp", "PP", ArgKind::Points, "the Prestige asked", "2.5").optional(),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::RansomDemand {
                knight: v.req("knight")?,
                pp: v.opt("pp")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["ransom", "free"],
        aliases: &[],
        usage: "/ransom free KNIGHT",
        summary: "Free your captive without ransom.",
        example: "/ransom free Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::RansomFree {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["ransom", "kill"],
        aliases: &[],
        usage: "/ransom kill KNIGHT",
        summary: "Kill your captive, if taken in a fight under hostility.",
        example: "/ransom kill Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::RansomKill {
                knight: v.req("knight")?,
            }
            .into())
        },
    },
    CommandSpec {
        path: &["confirm"],
        aliases: &[],
        usage: "/confirm",
        summary: "Go ahead, within 60s of the question, with oathbreaking or killing a captive.",
        example: "/confirm",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(PsiCommand::Confirm.into()),
    },
    CommandSpec {
        path: &["ransom", "pay"],
        aliases: &[],
        usage: "/ransom pay KNIGHT PP",
        summary: "Pay all or part of a captive's ransom from your Prestige.",
        example: "/ransom pay Alan 2.5",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the captive", "Alan"),
            ArgSpec::pos("pp", "PP", ArgKind::Points, "the Prestige paid", "2.5"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(PsiCommand::RansomPay {
                knight: v.req("knight")?,
                pp: v.req("pp")?,
            }
            .into())
        },
    },
    // Fights
    CommandSpec {
        path: &["joust"],
        aliases: &[],
        usage: "/joust TARGET",
        summary: "Challenge a knight to a practice fight.",
        example: "/joust @evan",
        args: &[ArgSpec::pos(
            "target",
            "TARGET",
            ArgKind::Target,
            "a player or a knight",
            "@evan",
        )
        .greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(PsiCommand::Joust {
                target: v.req("target")?,
            }
            .into())
        },
    },
];

/// The fight's decisions, tournaments and the Melee, and the admins' corrections of the books.
const PLAY: &[CommandSpec] = &[
    // Decisions
    decision!("sweep", Decision::Sweep, "Announce a sweep attack: +25 Lance, but the other strikes first."),
    decision!("nosweep", Decision::NoSweep, "Announce no sweep."),
    decision!("high", Decision::High, "Strike High: the defender rolls Shield."),
    decision!("low", Decision::Low, "Strike Low: the defender rolls Ride."),
    decision!("swordplay", Decision::Swordplay, "Agree to go on to Swordplay after a practice Joust."),
    decision!("attack", Decision::Attack, "Swordplay: attack with your Sword."),
    decision!("observe", Decision::Observe, "Swordplay: observe your opponent."),
    decision!("press", Decision::Press, "Swordplay: press the attack, Sword +25, but your next counter is Luck."),
    decision!("block", Decision::Block, "Counter with your Shield."),
    decision!("dodge", Decision::Dodge, "Counter with Dodge."),
    decision!("parry", Decision::Parry, "Counter with your Sword, -20."),
    decision!("yield", Decision::Yield, "Give up the match."),
    CommandSpec {
        path: &["bonus"],
        aliases: &[],
        usage: "/bonus attack|defend|weaken",
        summary: "Choose how your pending Bonus will be used.",
        example: "/bonus attack",
        args: &[ArgSpec::pos("mode", "attack|defend|weaken", ArgKind::Game(&BONUS_MODE), "how the Bonus is used", "attack")],
        access: Access::Fighter,
        group: Group::Decisions,
        build: |v| Ok(PsiCommand::Decide(Decision::Bonus(v.game("mode")?)).into()),
    },
    CommandSpec {
        path: &["psi"],
        aliases: &[],
        usage: "/psi SKILL|off",
        summary: "Arm a psi skill to fire at its next moment, or disarm it.",
        example: "/psi hypercognition",
        args: &[ArgSpec::pos("skill", "SKILL|off", ArgKind::Game(&PSI_OR_OFF), "the psi skill to arm, or off", "hypercognition")],
        access: Access::Fighter,
        group: Group::Decisions,
        build: |v| Ok(PsiCommand::Decide(Decision::Psi(v.game("skill")?)).into()),
    },
    // Tournaments
    CommandSpec {
        path: &["tournament"],
        aliases: &[],
        usage: "/tournament",
        summary: "Show this month's tournament.",
        example: "/tournament",
        args: &[],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |_| Ok(PsiCommand::Tournament.into()),
    },
    CommandSpec {
        path: &["tournament", "schedule"],
        aliases: &[],
        usage: "/tournament schedule NAME WHEN [--host HOST] [--channel #CHANNEL] [--melee] [--remount] [--melee-minutes N] [--force]",
        summary: "Schedule a tournament; WHEN is 2026-12-05T18:00 (realm time), 2026-12-05T18:00Z or in 2h.",
        example: "/tournament schedule \"Yule Lists\" 2026-12-05T18:00 --host ragnar --melee",
        args: &[
            ArgSpec::pos("name", "NAME", ArgKind::Text, "the tournament's name", "\"Yule Lists\""),
            ArgSpec::pos("when", "WHEN", ArgKind::When, "when the Lists begin", "2026-12-05T18:00"),
            ArgSpec::flag("--host", "host", ArgKind::Text, "the hosting monarch or noble", "--host ragnar"),
            ArgSpec::flag("--channel", "channel", ArgKind::Text, "the channel it is held in", "--channel #lists"),
            ArgSpec::flag("--melee", "melee", ArgKind::Switch, "a Melee follows the Lists", "--melee"),
            ArgSpec::flag("--remount", "remount", ArgKind::Switch, "one remount per knight in the Melee", "--remount"),
            ArgSpec::flag("--melee-minutes", "melee_minutes", ArgKind::Number { min: 1, max: 1440 }, "the Melee's time limit", "--melee-minutes 30"),
            ArgSpec::flag("--force", "force", ArgKind::Switch, "schedule even if this month has one", "--force"),
        ],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| {
            Ok(PsiCommand::TournamentSchedule(Schedule {
                name: v.req("name")?,
                when: v.req("when")?,
                host: v.opt("host")?,
                channel: v.opt("channel")?,
                melee: v.has("melee"),
                remount: v.has("remount"),
                melee_minutes: v.opt("melee_minutes")?,
                force: v.has("force"),
            }).into())
        },
    },
    CommandSpec {
        path: &["tournament", "start"],
        aliases: &[],
        usage: "/tournament start [TOURNAMENT]",
        summary: "Start a tournament held here now: the next one, or the one named.",
        example: "/tournament start",
        args: &[WHICH],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::TournamentStart { which: v.opt("which")? }.into()),
    },
    CommandSpec {
        path: &["tournament", "cancel"],
        aliases: &[],
        usage: "/tournament cancel [TOURNAMENT]",
        summary: "Cancel a scheduled tournament; name it when more than one is.",
        example: "/tournament cancel \"Yule Lists\"",
        args: &[WHICH],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::TournamentCancel { which: v.opt("which")? }.into()),
    },
    CommandSpec {
        path: &["enter"],
        aliases: &[],
        usage: "/enter [TOURNAMENT]",
        summary: "Enter your knight in the next tournament, or the one named.",
        example: "/enter",
        args: &[WHICH],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::Enter { which: v.opt("which")? }.into()),
    },
    CommandSpec {
        path: &["withdraw"],
        aliases: &[],
        usage: "/withdraw [TOURNAMENT]",
        summary: "Withdraw your knight from the tournament entered, or the one named.",
        example: "/withdraw",
        args: &[WHICH],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::Withdraw { which: v.opt("which")? }.into()),
    },
    CommandSpec {
        path: &["bracket"],
        aliases: &[],
        usage: "/bracket",
        summary: "Show the Lists so far.",
        example: "/bracket",
        args: &[],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |_| Ok(PsiCommand::Bracket.into()),
    },
    CommandSpec {
        path: &["melee", "open"],
        aliases: &[],
        usage: "/melee open SIDE SIDE",
        summary: "Open the Melee with its two sides, once the Lists are over.",
        example: "/melee open Ravens Wolves",
        args: &[
            ArgSpec::pos("first", "SIDE", ArgKind::Text, "the first side's name", "Ravens"),
            ArgSpec::pos("second", "SIDE", ArgKind::Text, "the second side's name", "Wolves"),
        ],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::MeleeOpen { first: v.req("first")?, second: v.req("second")? }.into()),
    },
    CommandSpec {
        path: &["melee", "start"],
        aliases: &[],
        usage: "/melee start",
        summary: "Start the Melee: the muster is over and the time limit runs.",
        example: "/melee start",
        args: &[],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |_| Ok(PsiCommand::MeleeStart.into()),
    },
    CommandSpec {
        path: &["melee", "time"],
        aliases: &[],
        usage: "/melee time",
        summary: "Call time on the Melee before its limit.",
        example: "/melee time",
        args: &[],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |_| Ok(PsiCommand::MeleeTime.into()),
    },
    CommandSpec {
        path: &["melee", "join"],
        aliases: &[],
        usage: "/melee join SIDE",
        summary: "Join a side of the Melee.",
        example: "/melee join Ravens",
        args: &[ArgSpec::pos("side", "SIDE", ArgKind::Text, "the side's name", "Ravens").greedy()],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::MeleeJoin { side: v.req("side")? }.into()),
    },
    CommandSpec {
        path: &["pass"],
        aliases: &[],
        usage: "/pass KNIGHT",
        summary: "Offer a Melee pass to a knight of the other side.",
        example: "/pass Alan",
        args: &[KNIGHT],
        access: Access::Everyone,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::Pass { knight: v.req("knight")? }.into()),
    },
    CommandSpec {
        path: &["melee", "prize"],
        aliases: &[],
        usage: "/melee prize KNIGHT",
        summary: "Name the knight who wins the Melee's first prize.",
        example: "/melee prize Alan",
        args: &[KNIGHT],
        access: Access::Moderator,
        group: Group::Tournaments,
        build: |v| Ok(PsiCommand::MeleePrize { knight: v.req("knight")? }.into()),
    },
    // Admin
    CommandSpec {
        path: &["admin", "award"],
        aliases: &[],
        usage: "/admin award KNIGHT HP REASON...",
        summary: "Award Honor by hand, negative to take it away, with a reason for the ledger.",
        example: "/admin award Alan 1.5 won the Yule Melee",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the knight", "Alan"),
            ArgSpec::pos("hp", "HP", ArgKind::SignedPoints, "Honor, whole or half points", "-1.5"),
            ArgSpec::pos("reason", "REASON", ArgKind::Reason, "why, for the ledger", "won the Yule Melee"),
        ],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| {
            Ok(PsiCommand::AdminAward {
                knight: v.req("knight")?,
                hp: v.req("hp")?,
                reason: v.req("reason")?,
            }.into())
        },
    },
    CommandSpec {
        path: &["admin", "revoke"],
        aliases: &[],
        usage: "/admin revoke ENTRY_ID",
        summary: "Reverse a ledger entry.",
        example: "/admin revoke 42",
        args: &[ArgSpec::pos("entry", "ENTRY_ID", ArgKind::EntryId, "the ledger entry's number", "42")],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| Ok(PsiCommand::AdminRevoke { entry: v.req("entry")? }.into()),
    },
    CommandSpec {
        path: &["admin", "rename"],
        aliases: &[],
        usage: "/admin rename KNIGHT NEW_NAME",
        summary: "Rename a knight.",
        example: "/admin rename Alan \"Alan the Bold\"",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "the knight", "Alan"),
            ArgSpec::pos("new_name", "NEW_NAME", ArgKind::Text, "the new name", "\"Alan the Bold\"").greedy(),
        ],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| {
            Ok(PsiCommand::AdminRename {
                knight: v.req("knight")?,
                new_name: v.req("new_name")?,
            }.into())
        },
    },
    CommandSpec {
        path: &["admin", "retire"],
        aliases: &[],
        usage: "/admin retire KNIGHT",
        summary: "Retire a knight from the realm.",
        example: "/admin retire Alan",
        args: &[KNIGHT],
        access: Access::Admin,
        group: Group::Admin,
        build: |v| Ok(PsiCommand::AdminRetire { knight: v.req("knight")? }.into()),
    },
];

/// The parts of [`COMMANDS`], in its order.
const PARTS: &[&[CommandSpec]] = &[KNIGHTS, DICE, LEDGER, HISTORY, BOOKS, FIGHTS, PLAY];

/// A PsiKnight channel's table: PsiKnight's own commands and the shared ones, in the order of
/// its `/help`, its suggestions and Discord's slash commands. The table every channel reads a
/// line by after its own game's ([`crate::games::FALLBACK`]).
pub static COMMANDS: [CommandSpec; count(PARTS)] = concat(PARTS);

/// [`crate::games::GameInfo::is_move`]: a joust's decisions and a challenge to one; arming
/// psi and choosing a Bonus's use change no one's turn.
pub fn is_move(spec: &CommandSpec) -> bool {
    match spec.path {
        ["psi"] | ["bonus"] => false,
        ["joust"] => true,
        _ => spec.group == Group::Decisions,
    }
}

/// [`crate::games::GameInfo::privacy`]: a knight's sheet, Honor and ledger work by private
/// message and reach their asker alone; a new knight, the standings and the tournaments work
/// by private message too; a psi declaration is a secret (R21), answered to its knight alone
/// and, by private message, made in the channel where the knight fights.
pub fn privacy(command: &Command) -> Privacy {
    match PsiCommand::of(command) {
        Some(PsiCommand::Knight { .. } | PsiCommand::Honor { .. } | PsiCommand::Ledger { .. }) => {
            Privacy::ASKER
        }
        Some(
            PsiCommand::CreateKnight(_)
            | PsiCommand::Standings { .. }
            | PsiCommand::Tournament
            | PsiCommand::Bracket,
        ) => Privacy::ANYWHERE,
        Some(PsiCommand::Decide(Decision::Psi(_))) => Privacy {
            by_message: false,
            answered_privately: true,
            secret: true,
        },
        _ => Privacy::OPEN,
    }
}

/// [`crate::games::GameInfo::choice_label`]: the engine's own titles of skills, psi skills
/// and monarchs, and the words of `/psi off` and `/standings hp|pp`.
pub fn choice_label(word: &str) -> Option<String> {
    if let Ok(s) = word.parse::<Skill>() {
        return Some(s.title().to_string());
    }
    if let Ok(s) = word.parse::<PsiSkill>() {
        return Some(s.title().to_string());
    }
    if let Ok(m) = word.parse::<Monarch>() {
        return Some(m.full_name().to_string());
    }
    match word {
        "off" => Some("off (disarm)".to_string()),
        "hp" => Some("Honor".to_string()),
        "pp" => Some("Prestige".to_string()),
        _ => None,
    }
}

/// [`crate::games::GameInfo::menu`]: a psi skill armed, or disarmed, from a menu under the
/// knight's prompt (R21).
pub static PSI_MENU: Menu = Menu {
    word: "psi",
    asks: "arm a psi skill…",
    choices: PSI_OR_OFF_WORDS,
    label: |word| {
        word.parse::<PsiSkill>()
            .map_or_else(|_| "Disarm psi".to_string(), |s| s.title().to_string())
    },
};
