//! The grammar's tests through PsiKnight's table, the table every channel falls back to:
//! every command's usage, errors and edge cases.

#[test]
fn commands_named_in_a_line_take_the_prefix() {
    use crate::command::with_prefix;
    assert_eq!(
        with_prefix(
            "Dame Dara (dana), strike: /high, /low, /yield (120s, then /high).",
            '!'
        ),
        "Dame Dara (dana), strike: !high, !low, !yield (120s, then !high)."
    );
    assert_eq!(
        with_prefix("Usage: /roll EXPR, e.g. /roll 100", '!'),
        "Usage: !roll EXPR, e.g. !roll 100"
    );
    assert_eq!(
        with_prefix("and/or see http://x/joust /frobnicate", '!'),
        "and/or see http://x/joust /frobnicate"
    );
    assert_eq!(with_prefix("/accept", '/'), "/accept");
}

use crate::command::*;
use crate::games::psiknight::command::*;
use crate::games::psiknight::commands::{
    ANY_SKILL_EXPECTED, ANY_SKILL_WORDS, BONUS_WORDS, MONARCH_WORDS, PSI_OR_OFF_EXPECTED,
    PSI_OR_OFF_WORDS, PSI_WORDS, SKILL_WORDS,
};
use chrono::{DateTime, NaiveDateTime, Utc};
use herald_engine::psiknight::books::AnySkill;
use herald_engine::psiknight::{BonusMode, Decision, Monarch, PsiSkill, Skill, Style};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn ok(line: &str) -> Command {
    match parse(line, DEFAULT_PREFIXES) {
        Some(Ok(c)) => c,
        other => panic!("{line:?} gave {other:?}"),
    }
}

/// A line read into PsiKnight's own command.
fn psi(line: &str) -> PsiCommand {
    match PsiCommand::of(&ok(line)) {
        Some(c) => c.clone(),
        None => panic!("{line:?} is not PsiKnight's"),
    }
}

fn err(line: &str) -> ParseError {
    match parse(line, DEFAULT_PREFIXES) {
        Some(Err(e)) => e,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn s(text: &str) -> String {
    text.to_string()
}

fn utc(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn schedule(name: &str, when: When) -> Schedule {
    Schedule {
        name: s(name),
        when,
        host: None,
        channel: None,
        melee: false,
        remount: false,
        melee_minutes: None,
        force: false,
    }
}

// Every form of the brief, each with what it must become.
#[test]
fn every_form_parses() {
    let alan = || s("Alan");
    let cases: Vec<(&str, Command)> = vec![
        (
            "/knight create Alan --top lance,ride,shield --psi cpk:20,negapsi:20 --monarch ragnar",
            Command::from(PsiCommand::CreateKnight(CreateKnight {
                name: alan(),
                top: vec![Skill::Lance, Skill::Ride, Skill::Shield],
                psi: vec![(PsiSkill::Cpk, 20), (PsiSkill::Negapsi, 20)],
                monarch: Monarch::Ragnar,
                style: Style::Sir,
            })),
        ),
        // R3 choices by name or kingdom, flags in any order, any case.
        (
            "/KNIGHT Create \"Sir Alan the Bold\" --monarch Vegland --dame --psi Mesmerism:40 --TOP SWORD,dodge,Observe",
            Command::from(PsiCommand::CreateKnight(CreateKnight {
                name: s("Sir Alan the Bold"),
                top: vec![Skill::Sword, Skill::Dodge, Skill::Observe],
                psi: vec![(PsiSkill::Mesmerism, 40)],
                monarch: Monarch::Ragnar,
                style: Style::Dame,
            })),
        ),
        // The worked example's knight, with spaces after the commas and an em-dash.
        (
            "/knight create Dara --top observe, dodge, sword --psi hypercognition:20, apportation=20 --monarch seonaid —dame",
            Command::from(PsiCommand::CreateKnight(CreateKnight {
                name: s("Dara"),
                top: vec![Skill::Observe, Skill::Dodge, Skill::Sword],
                psi: vec![(PsiSkill::Hypercognition, 20), (PsiSkill::Apportation, 20)],
                monarch: Monarch::Seonaid,
                style: Style::Dame,
            })),
        ),
        // The grammar does not check R3: two top skills and 30 psi points pass through.
        (
            "/knight create Eoin --top lance,shield --psi mesmerism:30 --monarch gorllewin",
            Command::from(PsiCommand::CreateKnight(CreateKnight {
                name: s("Eoin"),
                top: vec![Skill::Lance, Skill::Shield],
                psi: vec![(PsiSkill::Mesmerism, 30)],
                monarch: Monarch::Llewellyn,
                style: Style::Sir,
            })),
        ),
        ("/knight", Command::from(PsiCommand::Knight { name: None })),
        ("/knight Alan", Command::from(PsiCommand::Knight { name: Some(alan()) })),
        ("/knight \"Alan the Bold\"", Command::from(PsiCommand::Knight { name: Some(s("Alan the Bold")) })),
        ("/knight Alan   the Bold", Command::from(PsiCommand::Knight { name: Some(s("Alan the Bold")) })),
        ("/knight \"create\"", Command::from(PsiCommand::Knight { name: Some(s("create")) })),
        ("/honor", Command::from(PsiCommand::Honor { name: None })),
        ("/honour Alan", Command::from(PsiCommand::Honor { name: Some(alan()) })),
        ("/roll 100", Command::Roll { expr: s("100") }),
        ("/rol 1d100", Command::Roll { expr: s("1d100") }),
        ("!roll 100", Command::Roll { expr: s("100") }),
        ("/ROLL  4d6kh3 + 2 ", Command::Roll { expr: s("4d6kh3 + 2") }),
        ("/roll --x \"odd", Command::Roll { expr: s("--x \"odd") }),
        ("/ledger", Command::from(PsiCommand::Ledger { name: None, month: None, page: None })),
        (
            "/ledger Alan --month 2026-11",
            Command::from(PsiCommand::Ledger {
                name: Some(alan()),
                month: Some(YearMonth { year: 2026, month: 11 }),
                page: None,
            }),
        ),
        (
            "/ledger --month=2026-1 Alan the Bold",
            Command::from(PsiCommand::Ledger {
                name: Some(s("Alan the Bold")),
                month: Some(YearMonth { year: 2026, month: 1 }),
                page: None,
            }),
        ),
        (
            "/ledger Alan --page 2",
            Command::from(PsiCommand::Ledger {
                name: Some(alan()),
                month: None,
                page: Some(2),
            }),
        ),
        ("/standings", Command::from(PsiCommand::Standings { by: Standing::Hp })),
        ("/standings HP", Command::from(PsiCommand::Standings { by: Standing::Hp })),
        ("/standings pp", Command::from(PsiCommand::Standings { by: Standing::Pp })),
        // R30: fighting and psi skills are both spendable.
        ("/spend lance", Command::from(PsiCommand::Spend { skill: AnySkill::Fighting(Skill::Lance) })),
        ("/spend Observe", Command::from(PsiCommand::Spend { skill: AnySkill::Fighting(Skill::Observe) })),
        ("/spend CPK", Command::from(PsiCommand::Spend { skill: AnySkill::Psi(PsiSkill::Cpk) })),
        ("/land", Command::from(PsiCommand::Land)),
        ("/grant Alan", Command::from(PsiCommand::Grant { knight: alan() })),
        ("/advance", Command::from(PsiCommand::Advance)),
        ("/swear Alan", Command::from(PsiCommand::Swear { knight: alan() })),
        ("/release Alan", Command::from(PsiCommand::Release { knight: alan() })),
        ("/renounce \"Alan the Bold\"", Command::from(PsiCommand::Renounce { knight: s("Alan the Bold") })),
        (
            "/hostility declare Alan",
            Command::from(PsiCommand::Hostility { action: HostilityAction::Declare, knight: alan() }),
        ),
        (
            "/hostility END \"Alan the Bold\"",
            Command::from(PsiCommand::Hostility { action: HostilityAction::End, knight: s("Alan the Bold") }),
        ),
        ("/ransom demand Alan", Command::from(PsiCommand::RansomDemand { knight: alan(), pp: None })),
        (
            "/ransom demand \"Alan the Bold\" 2.5",
            Command::from(PsiCommand::RansomDemand { knight: s("Alan the Bold"), pp: Some(HalfPoints(5)) }),
        ),
        ("/ransom free Alan", Command::from(PsiCommand::RansomFree { knight: alan() })),
        ("/ransom kill Alan", Command::from(PsiCommand::RansomKill { knight: alan() })),
        ("/ransom pay Alan 3", Command::from(PsiCommand::RansomPay { knight: alan(), pp: HalfPoints(6) })),
        ("/ransom PAY Alan .5", Command::from(PsiCommand::RansomPay { knight: alan(), pp: HalfPoints(1) })),
        (
            "/admin award Alan -1.5 late to the lists",
            Command::from(PsiCommand::AdminAward { knight: alan(), hp: HalfPoints(-3), reason: s("late to the lists") }),
        ),
        (
            "/admin award \"Alan the Bold\" 2 \"won the melee\"",
            Command::from(PsiCommand::AdminAward { knight: s("Alan the Bold"), hp: HalfPoints(4), reason: s("won the melee") }),
        ),
        (
            "/admin award Alan +0.5 --not-an-option \"quoted\" part",
            Command::from(PsiCommand::AdminAward { knight: alan(), hp: HalfPoints(1), reason: s("--not-an-option \"quoted\" part") }),
        ),
        ("/admin revoke 42", Command::from(PsiCommand::AdminRevoke { entry: 42 })),
        ("/admin revoke #42", Command::from(PsiCommand::AdminRevoke { entry: 42 })),
        (
            "/admin rename Alan \"Alan the Bold\"",
            Command::from(PsiCommand::AdminRename { knight: alan(), new_name: s("Alan the Bold") }),
        ),
        (
            "/admin rename \"Alan the Bold\" Alan the Brave",
            Command::from(PsiCommand::AdminRename { knight: s("Alan the Bold"), new_name: s("Alan the Brave") }),
        ),
        ("/admin retire Alan", Command::from(PsiCommand::AdminRetire { knight: alan() })),
        ("/joust evan", Command::from(PsiCommand::Joust { target: s("evan") })),
        ("/joust @evan", Command::from(PsiCommand::Joust { target: s("@evan") })),
        ("/joust <@123456789012345678>", Command::from(PsiCommand::Joust { target: s("<@123456789012345678>") })),
        ("/joust <@!42>", Command::from(PsiCommand::Joust { target: s("<@!42>") })),
        ("/joust Sir Alan", Command::from(PsiCommand::Joust { target: s("Sir Alan") })),
        ("/accept", Command::Accept),
        ("/decline", Command::Decline),
        ("/status", Command::Status),
        ("/help", Command::Help { topic: None }),
        ("/help roll", Command::Help { topic: Some(s("roll")) }),
        ("/help !ROL", Command::Help { topic: Some(s("roll")) }),
        ("/help knight  create", Command::Help { topic: Some(s("knight create")) }),
        ("/help ransom", Command::Help { topic: Some(s("ransom")) }),
        ("/odds Alan", Command::Odds { knight: alan(), other: None }),
        (
            "/odds Alan \"Brenna Dubh\"",
            Command::Odds { knight: alan(), other: Some(s("Brenna Dubh")) },
        ),
        ("/sweep", Command::from(PsiCommand::Decide(Decision::Sweep))),
        ("/nosweep", Command::from(PsiCommand::Decide(Decision::NoSweep))),
        ("/high", Command::from(PsiCommand::Decide(Decision::High))),
        ("/low", Command::from(PsiCommand::Decide(Decision::Low))),
        // R41: /swordplay agrees; /decline is one command whatever it declines.
        ("/swordplay", Command::from(PsiCommand::Decide(Decision::Swordplay))),
        ("/attack", Command::from(PsiCommand::Decide(Decision::Attack))),
        ("/observe", Command::from(PsiCommand::Decide(Decision::Observe))),
        ("/press", Command::from(PsiCommand::Decide(Decision::Press))),
        ("/block", Command::from(PsiCommand::Decide(Decision::Block))),
        ("/dodge", Command::from(PsiCommand::Decide(Decision::Dodge))),
        ("/parry", Command::from(PsiCommand::Decide(Decision::Parry))),
        ("/yield", Command::from(PsiCommand::Decide(Decision::Yield))),
        // R5: the three Bonus modes.
        ("/bonus attack", Command::from(PsiCommand::Decide(Decision::Bonus(BonusMode::Attack)))),
        ("/bonus Defend", Command::from(PsiCommand::Decide(Decision::Bonus(BonusMode::Defend)))),
        ("/bonus weaken", Command::from(PsiCommand::Decide(Decision::Bonus(BonusMode::Weaken)))),
        // R21: arming and disarming.
        ("/psi hypercognition", Command::from(PsiCommand::Decide(Decision::Psi(Some(PsiSkill::Hypercognition))))),
        ("/psi Negapsi", Command::from(PsiCommand::Decide(Decision::Psi(Some(PsiSkill::Negapsi))))),
        ("/psi off", Command::from(PsiCommand::Decide(Decision::Psi(None)))),
        ("/psi OFF", Command::from(PsiCommand::Decide(Decision::Psi(None)))),
        ("/tournament", Command::from(PsiCommand::Tournament)),
        (
            "/tournament schedule \"Yule Lists\" 2026-12-05T18:00:00Z",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule Lists", When::At(utc("2026-12-05T18:00:00Z"))))),
        ),
        (
            "/tournament schedule Yule 2026-12-05T18:00",
            Command::from(PsiCommand::TournamentSchedule(schedule(
                "Yule",
                When::Local(NaiveDateTime::parse_from_str("2026-12-05T18:00", "%Y-%m-%dT%H:%M").unwrap()),
            ))),
        ),
        (
            "/tournament schedule Yule 2026-12-05t18:00z",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T18:00:00Z"))))),
        ),
        (
            "/tournament schedule Yule 2026-12-05T18:00+01:00",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T17:00:00Z"))))),
        ),
        (
            "/tournament schedule Yule 2026-12-05 18:00:30Z",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::At(utc("2026-12-05T18:00:30Z"))))),
        ),
        (
            "/tournament schedule Yule in 2h",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(7200))))),
        ),
        (
            "/tournament schedule Yule in 30m",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(1800))))),
        ),
        (
            "/tournament schedule Yule IN 1d",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(86_400))))),
        ),
        (
            "/tournament schedule Yule in 1h30m",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(5400))))),
        ),
        (
            "/tournament schedule Yule in 1h 30m",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(5400))))),
        ),
        (
            "/tournament schedule Yule 45m",
            Command::from(PsiCommand::TournamentSchedule(schedule("Yule", When::In(Duration::from_secs(2700))))),
        ),
        // R37, R38: every option, in any order.
        (
            "/tournament schedule \"Yule Lists\" in 2h --force --melee-minutes 45 --remount --channel #lists --melee --host \"Queen Seonaid\"",
            Command::from(PsiCommand::TournamentSchedule(Schedule {
                name: s("Yule Lists"),
                when: When::In(Duration::from_secs(7200)),
                host: Some(s("Queen Seonaid")),
                channel: Some(s("#lists")),
                melee: true,
                remount: true,
                melee_minutes: Some(45),
                force: true,
            })),
        ),
        ("/tournament start", Command::from(PsiCommand::TournamentStart { which: None })),
        ("/tournament Cancel", Command::from(PsiCommand::TournamentCancel { which: None })),
        (
            "/tournament cancel Yule Lists",
            Command::from(PsiCommand::TournamentCancel {
                which: Some("Yule Lists".into()),
            }),
        ),
        ("/melee prize Alan", Command::from(PsiCommand::MeleePrize { knight: alan() })),
        ("/enter", Command::from(PsiCommand::Enter { which: None })),
        ("/enter #2", Command::from(PsiCommand::Enter { which: Some("#2".into()) })),
        ("/withdraw", Command::from(PsiCommand::Withdraw { which: None })),
        ("/bracket", Command::from(PsiCommand::Bracket)),
        ("/melee join Ravens", Command::from(PsiCommand::MeleeJoin { side: s("Ravens") })),
        ("/melee join The Ravens", Command::from(PsiCommand::MeleeJoin { side: s("The Ravens") })),
        ("/pass Alan", Command::from(PsiCommand::Pass { knight: alan() })),
        (
            "/melee open Ravens \"Grey Wolves\"",
            Command::from(PsiCommand::MeleeOpen {
                first: "Ravens".into(),
                second: "Grey Wolves".into(),
            }),
        ),
        ("/melee start", Command::from(PsiCommand::MeleeStart)),
        ("/melee time", Command::from(PsiCommand::MeleeTime)),
        ("   /land   ", Command::from(PsiCommand::Land)),
        ("/joust “Sir Alan”", Command::from(PsiCommand::Joust { target: s("Sir Alan") })),
        ("/joust \"Alan \\\"the\\\" Bold\"", Command::from(PsiCommand::Joust { target: s("Alan \"the\" Bold") })),
        ("/joust \"back\\slash\"", Command::from(PsiCommand::Joust { target: s("back\\slash") })),
    ];
    for (line, expected) in cases {
        assert_eq!(ok(line), expected, "{line}");
        // Both prefixes, always.
        if let Some(rest) = line.trim_start().strip_prefix('/') {
            assert_eq!(ok(&format!("!{rest}")), expected, "!{rest}");
        }
    }
}

#[test]
fn chat_is_not_a_command() {
    for line in [
        "",
        "   ",
        "hello there",
        "/",
        "!",
        "!!!",
        "! wow",
        "/ shrug",
        "/1d100",
        ":)",
        "http://example.com",
        "/\"roll\"",
        "—roll",
    ] {
        assert_eq!(parse(line, DEFAULT_PREFIXES), None, "{line:?}");
    }
    // A transport with only `!` (IRC) leaves `/` lines to chat, and no prefixes means no commands.
    assert_eq!(parse("/roll 100", &['!']), None);
    assert_eq!(ok("!roll 100"), Command::Roll { expr: s("100") });
    assert_eq!(parse("!roll 100", &[]), None);
    // A long ordinary line is chat, not an error.
    assert_eq!(parse(&"x".repeat(10_000), DEFAULT_PREFIXES), None);
}

fn usage_of(path: &str) -> &'static str {
    find_spec(path).unwrap().usage
}

// Each error: its kind, its one-line message, and the usage it shows.
#[test]
fn every_error_says_what_and_how() {
    use ParseErrorKind as K;
    type Check = fn(&ParseErrorKind) -> bool;
    let cases: Vec<(&str, Check, &str)> = vec![
        ("/jousr evan", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "joust"), "/joust TARGET"),
        ("/josut evan", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "joust"), "/joust TARGET"),
        ("/tourn", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "tournament"), "/tournament schedule NAME WHEN"),
        ("/award Alan 1 x", |k| matches!(k, K::UnknownCommand { suggestion: Some(s), .. } if s == "admin award"), "/admin award KNIGHT HP REASON..."),
        ("/xyzzy", |k| matches!(k, K::UnknownCommand { suggestion: None, .. }), "/help [COMMAND]"),
        ("/help xyzzy", |k| matches!(k, K::UnknownCommand { suggestion: None, .. }), "/help [COMMAND]"),
        ("/roll", |k| matches!(k, K::Missing { label: "EXPR", .. }), "/roll EXPR"),
        ("/rol   ", |k| matches!(k, K::Missing { label: "EXPR", .. }), "/roll EXPR"),
        ("/grant", |k| matches!(k, K::Missing { label: "KNIGHT", .. }), "/grant KNIGHT"),
        ("/joust \"\"", |k| matches!(k, K::Missing { label: "TARGET", .. }), "/joust TARGET"),
        ("/hostility", |k| matches!(k, K::Missing { label: "declare|end", .. }), "/hostility declare|end KNIGHT"),
        ("/hostility declare", |k| matches!(k, K::Missing { label: "KNIGHT", .. }), "/hostility declare|end KNIGHT"),
        ("/hostility maybe Alan", |k| matches!(k, K::BadChoice { .. }), "/hostility declare|end KNIGHT"),
        ("/ransom pay Alan", |k| matches!(k, K::Missing { label: "PP", .. }), "/ransom pay KNIGHT PP"),
        ("/admin award Alan 2", |k| matches!(k, K::Missing { label: "REASON", .. }), "/admin award KNIGHT HP REASON..."),
        ("/knight create Alan --psi cpk:40 --monarch ragnar", |k| matches!(k, K::Missing { label: "--top", .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --monarch ragnar", |k| matches!(k, K::Missing { label: "--psi", .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40", |k| matches!(k, K::Missing { label: "--monarch", .. }), usage_of("knight create")),
        ("/knight create --top lance,ride,shield --psi cpk:40 --monarch ragnar", |k| matches!(k, K::Missing { label: "NAME", .. }), usage_of("knight create")),
        ("/knight create Alan --top --psi cpk:40 --monarch ragnar", |k| matches!(k, K::NoValue { label: "--top", .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,bogus --psi cpk:40 --monarch ragnar", |k| matches!(k, K::UnknownName(n) if n.kind == "skill" && n.word == "bogus"), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi telekinesis:40 --monarch ragnar", |k| matches!(k, K::UnknownName(n) if n.kind == "psi skill"), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch arthur", |k| matches!(k, K::UnknownName(n) if n.kind == "monarch"), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk --monarch ragnar", |k| matches!(k, K::BadItem { .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:lots --monarch ragnar", |k| matches!(k, K::BadItem { .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --dame --dame", |k| matches!(k, K::Repeated { label: "--dame" }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --colour red", |k| matches!(k, K::UnknownOption { .. }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar --dame=yes", |k| matches!(k, K::SwitchValue { label: "--dame" }), usage_of("knight create")),
        ("/knight create Alan --top lance,ride,shield --psi cpk:40 --monarch ragnar dame", |k| matches!(k, K::Unexpected { word } if word == "dame"), usage_of("knight create")),
        ("/spend bogus", |k| matches!(k, K::UnknownName(n) if n.kind == "skill"), "/spend SKILL"),
        ("/psi bogus", |k| matches!(k, K::UnknownName(n) if n.kind == "psi skill" && n.expected.ends_with("off")), "/psi SKILL|off"),
        ("/bonus sideways", |k| matches!(k, K::BadChoice { .. }), "/bonus attack|defend|weaken"),
        ("/standings xp", |k| matches!(k, K::BadChoice { .. }), "/standings [hp|pp]"),
        ("/ransom pay Alan 2.3", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
        ("/ransom pay Alan -2", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
        ("/ransom pay Alan 0", |k| matches!(k, K::BadPoints { label: "PP", .. }), "/ransom pay KNIGHT PP"),
        ("/ransom demand Alan lots", |k| matches!(k, K::BadPoints { .. }), "/ransom demand KNIGHT [PP]"),
        ("/admin award Alan x reason", |k| matches!(k, K::BadPoints { label: "HP", .. }), "/admin award KNIGHT HP REASON..."),
        ("/admin award Alan 99999999 reason", |k| matches!(k, K::TooManyPoints { max: 1_000_000, .. }), "/admin award KNIGHT HP REASON..."),
        ("/admin revoke abc", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
        ("/admin revoke 0", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
        ("/admin revoke 99999999999999999999999", |k| matches!(k, K::BadEntry { .. }), "/admin revoke ENTRY_ID"),
        ("/ledger --month 2026-13", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
        ("/ledger --month 26-12", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
        ("/ledger --month december", |k| matches!(k, K::BadMonth { .. }), "/ledger [NAME] [--month YYYY-MM]"),
        ("/ledger --month", |k| matches!(k, K::NoValue { label: "--month", .. }), "/ledger [NAME] [--month YYYY-MM]"),
        ("/ledger --month=", |k| matches!(k, K::NoValue { label: "--month", .. }), "/ledger [NAME] [--month YYYY-MM]"),
        ("/tournament schedule Yule tomorrow", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 2x", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 90", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 0m", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 400d", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule 2026-02-30T18:00", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule 2026-12-05T25:00Z", |k| matches!(k, K::BadWhen { .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule", |k| matches!(k, K::Missing { label: "WHEN", .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 2h --melee-minutes 0", |k| matches!(k, K::BadNumber { label: "--melee-minutes", .. }), usage_of("tournament schedule")),
        ("/tournament schedule Yule in 2h --melee-minutes -5", |k| matches!(k, K::BadNumber { .. }), usage_of("tournament schedule")),
        ("/tournament foo", |k| matches!(k, K::UnknownAction { word: Some(w), .. } if w == "foo"), "/tournament | /tournament schedule"),
        ("/ransom", |k| matches!(k, K::UnknownAction { word: None, .. }), "/ransom demand KNIGHT [PP] | /ransom free KNIGHT"),
        ("/ransom forgive Alan", |k| matches!(k, K::UnknownAction { .. }), "/ransom pay KNIGHT PP"),
        ("/admin", |k| matches!(k, K::UnknownAction { .. }), "/admin award"),
        ("/joust \"Sir Alan", |k| matches!(k, K::UnterminatedQuote), "/joust TARGET"),
        ("/joust \"Sir\"Alan", |k| matches!(k, K::QuoteJoined), "/joust TARGET"),
        ("/knight create \"Alan --top lance", |k| matches!(k, K::UnterminatedQuote), usage_of("knight create")),
        ("/land now", |k| matches!(k, K::Unexpected { word } if word == "now"), "/land"),
        ("/accept gladly", |k| matches!(k, K::Unexpected { .. }), "/accept"),
        ("/sweep left", |k| matches!(k, K::Unexpected { .. }), "/sweep"),
        ("/standings hp pp", |k| matches!(k, K::Unexpected { .. }), "/standings [hp|pp]"),
        ("/odds Alan Brenna Dubh", |k| matches!(k, K::Unexpected { word } if word == "Dubh"), "/odds KNIGHT [KNIGHT]"),
        ("/ransom pay Alan 2 now", |k| matches!(k, K::Unexpected { .. }), "/ransom pay KNIGHT PP"),
        ("/tournament \"foo\"", |k| matches!(k, K::Unexpected { .. }), "/tournament"),
        ("/land --force", |k| matches!(k, K::UnknownOption { known, .. } if known.contains("no options")), "/land"),
    ];
    for (line, check, usage) in cases {
        let e = err(line);
        assert!(check(e.kind()), "{line}: {:?}", e.kind());
        let message = e.to_string();
        assert!(message.contains("Usage: "), "{line}: {message}");
        assert!(message.contains(usage), "{line}: {message}");
        assert!(
            !message.contains('\n') && !message.contains('\r'),
            "{line}: {message}"
        );
        assert_eq!(message, e.message());
    }
}

#[test]
fn overlong_lines_are_refused_with_their_usage() {
    let line = format!("/roll {}", "1".repeat(MAX_LINE_CHARS));
    let e = err(&line);
    assert_eq!(
        e.kind(),
        &ParseErrorKind::TooLong {
            max: MAX_LINE_CHARS
        }
    );
    assert!(e.to_string().contains("Usage: /roll EXPR"), "{e}");
    assert!(e.to_string().contains("at most 2000 characters"), "{e}");
    // Exactly at the limit is fine.
    let line = format!("/roll {}", "1".repeat(MAX_LINE_CHARS - 6));
    assert_eq!(line.chars().count(), MAX_LINE_CHARS);
    assert!(matches!(
        parse(&line, DEFAULT_PREFIXES),
        Some(Ok(Command::Roll { .. }))
    ));
    // Unknown command, counted in characters not bytes.
    let e = err(&format!("!zzz {}", "é".repeat(MAX_LINE_CHARS)));
    assert_eq!(
        e.kind(),
        &ParseErrorKind::TooLong {
            max: MAX_LINE_CHARS
        }
    );
    assert!(e.to_string().contains("Usage: !help [COMMAND]"), "{e}");
    let e = err(&format!("/joust \"{}", "a".repeat(1_000_000)));
    assert_eq!(
        e.kind(),
        &ParseErrorKind::TooLong {
            max: MAX_LINE_CHARS
        }
    );
}

#[test]
fn messages_read_as_the_brief_shows() {
    let e = err("/knight create Alan --psi cpk:40 --monarch ragnar");
    assert_eq!(
        e.to_string(),
        "/knight create: --top is missing (the three fighting skills that start at 40, e.g. \
         --top lance,ride,shield). Usage: /knight create NAME --top SKILL,SKILL,SKILL --psi \
         SKILL:N[,SKILL:N...] --monarch MONARCH [--dame]"
    );
    // The engine's own message for a bad name.
    let e = err("/knight create Alan --top lance,ride,bogus --psi cpk:40 --monarch ragnar");
    assert!(e.to_string().starts_with(
        "/knight create: unknown skill 'bogus'; expected one of: lance, ride, observe, shield, dodge, sword. Usage:"
    ));
    let e = err("!jousr evan");
    assert_eq!(
        e.to_string(),
        "unknown command 'jousr'; did you mean 'joust'? Usage: !joust TARGET"
    );
    let e = err("/xyzzy");
    assert_eq!(
        e.to_string(),
        "unknown command 'xyzzy'. Usage: /help [COMMAND]"
    );
    let e = err("!ransom");
    assert_eq!(
        e.to_string(),
        "!ransom: say which: demand, free, kill or pay. Usage: !ransom demand KNIGHT [PP] | \
         !ransom free KNIGHT | !ransom kill KNIGHT | !ransom pay KNIGHT PP"
    );
    assert_eq!(e.command(), Some("ransom"));
    let e = err("/ransom forgive Alan");
    assert!(
        e.to_string()
            .starts_with("/ransom: 'forgive' is not demand, free, kill or pay. Usage: "),
        "{e}"
    );
    let e = err("/standings xp");
    assert!(
        e.to_string()
            .starts_with("/standings: 'xp' is not hp or pp. Usage: /standings [hp|pp]"),
        "{e}"
    );
    let e = err("/land \"\"");
    assert!(e.to_string().starts_with("/land: unexpected '\"\"'"), "{e}");
    let e = err("/ransom pay Alan 2.3");
    assert_eq!(
        e.to_string(),
        "/ransom pay: PP must be a number of points above 0, whole or half, such as 2 or 2.5; \
         '2.3' is not. Usage: /ransom pay KNIGHT PP"
    );
    assert_eq!(e.command(), Some("ransom pay"));
    assert_eq!(e.usage(), "/ransom pay KNIGHT PP");
}

#[test]
fn repeated_words_are_shortened_and_kept_on_one_line() {
    let e = err("/joust \"Sir\nAlan\"x");
    assert!(matches!(e.kind(), ParseErrorKind::QuoteJoined));
    let e = err("/spend \"lan\nce\u{202e}\"");
    let message = e.to_string();
    assert!(message.contains("lan\\nce\\u{202e}"), "{message}");
    assert!(!message.contains('\n'));
    let e = err(&format!("/spend {}", "x".repeat(500)));
    assert!(
        e.to_string().contains(&format!("'{}…'", "x".repeat(40))),
        "{e}"
    );
}

#[test]
fn when_resolves_against_the_sessions_clock_and_zone() {
    let now = utc("2026-12-01T10:00:00Z");
    let when = When::In(Duration::from_secs(5400));
    assert_eq!(when.resolve(now, &Utc), Some(utc("2026-12-01T11:30:00Z")));
    let at = When::At(utc("2026-12-05T18:00:00Z"));
    assert_eq!(
        at.resolve(now, &chrono_tz::Europe::London),
        Some(utc("2026-12-05T18:00:00Z"))
    );
    // R25: a time without a zone is the realm's time.
    let PsiCommand::TournamentSchedule(winter) = psi("/tournament schedule Yule 2026-12-05T18:00")
    else {
        panic!()
    };
    assert_eq!(
        winter.when.resolve(now, &Utc),
        Some(utc("2026-12-05T18:00:00Z"))
    );
    assert_eq!(
        winter.when.resolve(now, &chrono_tz::Europe::Berlin),
        Some(utc("2026-12-05T17:00:00Z"))
    );
    let PsiCommand::TournamentSchedule(summer) =
        psi("/tournament schedule Midsummer 2026-07-05T18:00")
    else {
        panic!()
    };
    assert_eq!(
        summer.when.resolve(now, &chrono_tz::Europe::London),
        Some(utc("2026-07-05T17:00:00Z"))
    );
    // An hour skipped by the clocks going forward does not exist.
    let gap =
        When::Local(NaiveDateTime::parse_from_str("2026-03-29T01:30", "%Y-%m-%dT%H:%M").unwrap());
    assert_eq!(gap.resolve(now, &chrono_tz::Europe::London), None);
}

#[test]
fn half_points_read_and_print_alike() {
    // R29: points are kept in halves.
    for (word, halves) in [
        ("2", 4),
        ("2.5", 5),
        ("-1.5", -3),
        ("+3", 6),
        (".5", 1),
        ("0", 0),
        ("1.50", 3),
        ("2.", 4),
    ] {
        assert_eq!(parse_half_points(word), Some(halves), "{word}");
    }
    for word in [
        "", "-", ".", "2.3", "1.25", "abc", "1e3", "--1", "1.5.5", "１",
    ] {
        assert_eq!(parse_half_points(word), None, "{word}");
    }
    assert_eq!(HalfPoints(5).to_string(), "2.5");
    assert_eq!(HalfPoints(-3).to_string(), "-1.5");
    assert_eq!(HalfPoints(4).to_string(), "2");
    assert_eq!(HalfPoints::from_points(3), HalfPoints(6));
    assert_eq!(
        YearMonth {
            year: 2026,
            month: 3
        }
        .to_string(),
        "2026-03"
    );
}

#[test]
fn create_knight_is_what_the_engine_needs() {
    let PsiCommand::CreateKnight(choices) = psi(
        "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame",
    ) else {
        panic!()
    };
    // R3: the engine accepts the worked example's knight as parsed.
    let sheet = choices.to_new_knight().create().unwrap();
    assert_eq!(sheet.skill(Skill::Observe), 40);
    assert_eq!(sheet.skill(Skill::Lance), 30);
    assert_eq!(sheet.psi(PsiSkill::Hypercognition), 20);
    assert_eq!(sheet.styled(), "Dame Dara");
    // R3 is the engine's to check, not the grammar's.
    let PsiCommand::CreateKnight(short) =
        psi("/knight create Eoin --top lance --psi cpk:40 --monarch ragnar")
    else {
        panic!()
    };
    assert!(short.to_new_knight().create().is_err());
}

#[test]
fn the_table_is_consistent() {
    for spec in COMMANDS {
        let name = spec.name();
        // One entry per command, no alias shadowing another command.
        assert_eq!(COMMANDS.iter().filter(|s| s.is(&name)).count(), 1, "{name}");
        for alias in spec.aliases {
            assert_eq!(find_spec(alias).map(|s| s.name()), Some(name.clone()));
        }
        assert!(spec.usage.starts_with(&format!("/{name}")), "{name}");
        assert!(
            !spec.usage[1..].contains('/'),
            "{name}: a second / would take the prefix"
        );
        assert!(!spec.summary.contains('/'), "{name}");
        assert!(spec.summary.ends_with('.'), "{name}");
        let mut names: Vec<&str> = spec.args.iter().map(|a| a.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            spec.args.len(),
            "{name}: argument names must be unique"
        );
        let positionals: Vec<&ArgSpec> = spec.positionals().collect();
        for (i, arg) in spec.args.iter().enumerate() {
            assert!(
                arg.about.len() <= 100 && !arg.about.is_empty(),
                "{name} {}",
                arg.name
            );
            assert!(
                spec.usage.contains(arg.label),
                "{name}: usage lacks {}",
                arg.label
            );
            if let Some(flag) = arg.flag {
                assert!(
                    flag.starts_with("--") && flag == flag.to_lowercase(),
                    "{flag}"
                );
                assert!(
                    !arg.greedy && arg.example.starts_with(flag),
                    "{name} {flag}"
                );
            } else {
                let last = positionals.last().map(|a| a.name) == Some(arg.name);
                assert!(
                    !arg.greedy || last,
                    "{name}: only the last positional may be greedy"
                );
                assert!(!arg.kind.is_rest_of_line() || last, "{name}");
                assert!(
                    spec.args[..i].iter().all(|a| a.flag.is_none()),
                    "{name}: positionals come before options"
                );
            }
            assert!(arg.kind != ArgKind::Switch || arg.flag.is_some(), "{name}");
        }
        // The table's own example parses to this command.
        let example = ok(spec.example);
        assert_eq!(example.name(), name, "{}", spec.example);
        assert_eq!(example.spec().map(|s| s.name()), Some(name.clone()));
        // A line made from the argument examples: all of them, then only the required ones.
        let full = synthesize(spec, |_| true);
        assert_eq!(ok(&full).name(), name, "{full}");
        let minimal = synthesize(spec, |a| a.required);
        assert_eq!(ok(&minimal).name(), name, "{minimal}");
        // Leaving out each required option, or every positional, says what is missing.
        for arg in spec.args.iter().filter(|a| a.required) {
            let line = if arg.flag.is_some() {
                synthesize(spec, |a| a.required && a.name != arg.name)
            } else {
                synthesize(spec, |a| a.required && a.flag.is_some())
            };
            let first_missing = if arg.flag.is_some() {
                arg.label
            } else {
                positionals
                    .iter()
                    .find(|a| a.required)
                    .map(|a| a.label)
                    .unwrap_or("")
            };
            let e = err(&line);
            assert!(
                matches!(e.kind(), ParseErrorKind::Missing { label, .. } if *label == first_missing),
                "{line}: {e}"
            );
        }
    }
}

fn synthesize(spec: &CommandSpec, keep: impl Fn(&ArgSpec) -> bool) -> String {
    let mut line = format!("/{}", spec.name());
    for arg in spec.args.iter().filter(|a| keep(a)) {
        line.push(' ');
        line.push_str(arg.example);
    }
    line
}

#[test]
fn choice_lists_match_the_engine() {
    let skills: Vec<&str> = Skill::ALL.iter().map(|s| s.name()).collect();
    let psi: Vec<&str> = PsiSkill::ALL.iter().map(|s| s.name()).collect();
    let monarchs: Vec<&str> = Monarch::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(SKILL_WORDS, skills.as_slice());
    assert_eq!(PSI_WORDS, psi.as_slice());
    assert_eq!(MONARCH_WORDS, monarchs.as_slice());
    assert_eq!(ANY_SKILL_WORDS, [skills, psi.clone()].concat().as_slice());
    assert_eq!(PSI_OR_OFF_WORDS, [psi, vec!["off"]].concat().as_slice());
    assert_eq!(ANY_SKILL_EXPECTED, ANY_SKILL_WORDS.join(", "));
    assert_eq!(PSI_OR_OFF_EXPECTED, PSI_OR_OFF_WORDS.join(", "));
    for mode in [BonusMode::Attack, BonusMode::Defend, BonusMode::Weaken] {
        assert!(BONUS_WORDS.contains(&mode.name()));
    }
    // Every decision word of the engine (but decline, which is its own command, R41) is a
    // command that yields that decision.
    for d in [
        Decision::Sweep,
        Decision::NoSweep,
        Decision::High,
        Decision::Low,
        Decision::Swordplay,
        Decision::Attack,
        Decision::Observe,
        Decision::Press,
        Decision::Block,
        Decision::Dodge,
        Decision::Parry,
        Decision::Yield,
    ] {
        assert_eq!(
            ok(&format!("/{}", d.word())),
            Command::from(PsiCommand::Decide(d))
        );
        assert_eq!(find_spec(d.word()).unwrap().access, Access::Fighter);
    }
    assert_eq!(ok("/decline"), Command::Decline);
    // Every choice of every argument is accepted by the parser.
    for spec in COMMANDS {
        for arg in spec.args.iter().filter(|a| a.flag.is_none()) {
            for choice in arg.kind.choices() {
                let line = synthesize(spec, |a| a.required && a.name != arg.name);
                let line = line.replacen(
                    &format!("/{}", spec.name()),
                    &format!("/{} {choice}", spec.name()),
                    1,
                );
                assert!(
                    matches!(parse(&line, DEFAULT_PREFIXES), Some(Ok(_))),
                    "{line}"
                );
            }
        }
    }
}

#[test]
fn access_follows_the_design() {
    assert_eq!(
        ok("/knight create A --top lance,ride,shield --psi cpk:40 --monarch ragnar").access(),
        Access::Everyone
    );
    assert_eq!(ok("/psi off").access(), Access::Fighter);
    assert_eq!(ok("/tournament start").access(), Access::Moderator);
    assert_eq!(ok("/melee prize Alan").access(), Access::Moderator);
    assert_eq!(ok("/tournament").access(), Access::Everyone);
    for line in [
        "/admin award A 1 x",
        "/admin revoke 1",
        "/admin rename A B",
        "/admin retire A",
    ] {
        assert_eq!(ok(line).access(), Access::Admin, "{line}");
    }
}

#[test]
fn help_lists_and_explains() {
    let overview = help(None, '!');
    assert_eq!(overview.len(), Group::ALL.len() + 1);
    assert!(overview[0].starts_with("Knights and books: !knight create, !knight, !honor"));
    assert!(overview.iter().any(|l| l.starts_with("Decisions: !sweep")));
    assert!(overview
        .iter()
        .any(|l| l.starts_with("Admin: !admin award")));
    // Every command appears exactly once.
    let all = overview.join(" ");
    for spec in COMMANDS {
        assert!(
            all.contains(&format!("!{}", spec.name())),
            "{}",
            spec.name()
        );
    }
    assert_eq!(
        help(Some("rol"), '/'),
        vec!["/roll EXPR — Roll dice, such as 1d100 or 4d6kh3."]
    );
    let ransom = help(Some("ransom"), '!');
    assert_eq!(ransom.len(), 4);
    assert!(ransom[3].starts_with("!ransom pay KNIGHT PP — "));
    let knight = help(Some("knight"), '/');
    assert_eq!(knight.len(), 2);
    assert_eq!(help(Some("knight create"), '/').len(), 1);
    assert!(help(Some("tournament start"), '/')[0].ends_with("(moderators)"));
    assert!(help(Some("admin award"), '/')[0].ends_with("(admins)"));
    assert_eq!(
        help(Some("xyzzy"), '/'),
        vec!["No such command. /help lists them all."]
    );
    for line in overview.iter().chain(&ransom) {
        assert!(!line.contains('\n'));
    }
}

#[test]
fn commands_serialize() {
    for line in [
        "/knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame",
        "/psi off",
        "/bonus attack",
        "/tournament schedule Yule in 2h --melee",
        "/tournament schedule Yule 2026-12-05T18:00",
        "/tournament schedule Yule 2026-12-05T18:00Z",
        "/admin award Alan -1.5 late",
        "/spend cpk",
        "/land",
    ] {
        let command = psi(line);
        let json = serde_json::to_string(&command).unwrap();
        let back: PsiCommand = serde_json::from_str(&json).unwrap();
        assert_eq!(back, command, "{json}");
    }
    assert_eq!(serde_json::to_string(&psi("/land")).unwrap(), "\"land\"");
    assert_eq!(
        serde_json::to_string(&psi("/ransom pay Alan 2.5")).unwrap(),
        r#"{"ransom_pay":{"knight":"Alan","pp":5}}"#
    );
}

#[test]
fn edit_distance_counts_swaps_as_one() {
    assert_eq!(edit_distance("jousr", "joust"), 1);
    assert_eq!(edit_distance("josut", "joust"), 1);
    assert_eq!(edit_distance("", "roll"), 4);
    assert_eq!(edit_distance("roll", "roll"), 0);
    assert_eq!(edit_distance("sweep", "nosweep"), 2);
}

/// Random lines of every sort, from a fixed seed so a failure reproduces.
fn random_line(rng: &mut ChaCha8Rng) -> String {
    const PIECES: &[&str] = &[
        "/",
        "!",
        " ",
        "  ",
        "\"",
        "“",
        "”",
        "\\",
        "\\\"",
        "--",
        "—",
        "=",
        ",",
        ":",
        "#",
        "@",
        "<@123>",
        "knight",
        "create",
        "roll",
        "rol",
        "ransom",
        "pay",
        "demand",
        "admin",
        "award",
        "tournament",
        "schedule",
        "melee",
        "join",
        "help",
        "psi",
        "bonus",
        "spend",
        "ledger",
        "--top",
        "--psi",
        "--monarch",
        "--dame",
        "--month",
        "--host",
        "--melee-minutes",
        "--force",
        "lance",
        "ride,",
        "shield",
        "cpk:20",
        "negapsi=20",
        "vegland",
        "in",
        "2h",
        "1h30m",
        "0m",
        "2026-12-05",
        "18:00",
        "2026-12-05T18:00Z",
        "2026-13",
        "2.5",
        "-1.5",
        "#42",
        "0",
        "99999999999999999999",
        "Sir Alan",
        "é",
        "🗡",
        "\u{202e}",
        "\u{0}",
        "\n",
        "\t",
        "\u{2028}",
        "\u{feff}",
        "ß",
        "İ",
        "ǅ",
    ];
    let mut line = String::new();
    match rng.next_u32() % 5 {
        0 => {
            // Raw bytes, made text the lossy way a transport would.
            let len = (rng.next_u32() % 64) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
            line.push(if rng.next_u32().is_multiple_of(2) {
                '/'
            } else {
                '!'
            });
            line.push_str(&String::from_utf8_lossy(&bytes));
        }
        1 => {
            // Any Unicode scalar values.
            line.push('/');
            line.push('a');
            for _ in 0..(rng.next_u32() % 40) {
                if let Some(c) = char::from_u32(rng.next_u32() % 0x11_0000) {
                    line.push(c);
                }
            }
        }
        2 => {
            // Nested and unbalanced quotes around a real command.
            let spec = &COMMANDS[(rng.next_u32() as usize) % COMMANDS.len()];
            line.push_str(&format!("/{}", spec.name()));
            for _ in 0..(rng.next_u32() % 8) {
                line.push_str(
                    [" \"", "\"", " “", "” ", "\\\"", " \"a \"b\" c\" ", " x"]
                        [(rng.next_u32() % 7) as usize],
                );
            }
        }
        3 => {
            // Long lines around the limit, and far beyond it.
            let len = [
                MAX_LINE_CHARS - 10,
                MAX_LINE_CHARS,
                MAX_LINE_CHARS + 1,
                20_000,
            ][(rng.next_u32() % 4) as usize];
            line.push_str("/roll ");
            let mut count = line.chars().count();
            while count < len {
                let piece = PIECES[(rng.next_u32() as usize) % PIECES.len()];
                line.push_str(piece);
                count += piece.chars().count();
            }
        }
        _ => {
            // A real command followed by a soup of meaningful pieces.
            let spec = &COMMANDS[(rng.next_u32() as usize) % COMMANDS.len()];
            line.push_str(&format!("/{}", spec.name()));
            for _ in 0..(rng.next_u32() % 12) {
                if rng.next_u32().is_multiple_of(2) {
                    line.push(' ');
                }
                line.push_str(PIECES[(rng.next_u32() as usize) % PIECES.len()]);
            }
        }
    }
    line
}

// Whatever comes in: no panic; a prefixed line is always a command or a one-line error with
// its usage; chat is always None.
#[test]
fn never_panics_and_always_answers() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4845_5241_4c44);
    let (mut commands, mut errors) = (0, 0);
    for _ in 0..20_000 {
        let line = random_line(&mut rng);
        let trimmed = line.trim();
        let mut chars = trimmed.chars();
        let prefixed = chars.next().is_some_and(|c| c == '/' || c == '!')
            && chars.next().is_some_and(char::is_alphabetic);
        match parse(&line, DEFAULT_PREFIXES) {
            None => assert!(!prefixed, "{line:?}"),
            Some(Ok(command)) => {
                assert!(prefixed);
                assert!(!command.name().is_empty());
                commands += 1;
            }
            Some(Err(e)) => {
                assert!(prefixed);
                let message = e.to_string();
                assert!(!message.is_empty());
                assert!(message.lines().count() == 1, "{line:?}: {message:?}");
                assert!(
                    !message.contains(['\n', '\r', '\u{2028}', '\u{2029}', '\u{202e}']),
                    "{message:?}"
                );
                assert!(message.contains("Usage: "), "{message}");
                assert!(message.chars().count() < 800, "{message}");
                errors += 1;
            }
        }
    }
    // The generator reaches both outcomes often.
    assert!(
        commands > 1_000 && errors > 1_000,
        "{commands} commands, {errors} errors"
    );
}

// quote() is how an adapter writes a value; it must read back as exactly that value.
#[test]
fn quoted_values_read_back_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let alphabet: Vec<char> = "aZ é\"“”\\—–-,:=#@<>!/\t🗡".chars().collect();
    for _ in 0..5_000 {
        let len = 1 + (rng.next_u32() % 12) as usize;
        let value: String = (0..len)
            .map(|_| alphabet[(rng.next_u32() as usize) % alphabet.len()])
            .collect();
        if value.trim() != value || value.trim().is_empty() {
            continue;
        }
        let line = format!("/odds {} {}", quote(&value), quote("B"));
        assert_eq!(
            parse(&line, DEFAULT_PREFIXES),
            Some(Ok(Command::Odds {
                knight: value.clone(),
                other: Some(s("B"))
            })),
            "{line}"
        );
    }
    assert_eq!(quote("Alan"), "Alan");
    assert_eq!(quote("Sir Alan"), "\"Sir Alan\"");
    assert_eq!(quote("--top"), "\"--top\"");
    assert_eq!(quote("a\"b"), "\"a\\\"b\"");
}
