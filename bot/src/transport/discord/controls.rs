//! Buttons and menus: who a line of narration waits for, the controls that answer it, and what a
//! press means.
//!
//! The session writes a prompt as one line, `NAME (USER), WHAT: /a, /b, /yield (120s, then /a).`
//! (see PsiKnight's `render::prompt_line`), and a challenge as `... USER: /accept or /decline (300s).`
//! [`awaited`] reads those two shapes back; every other line is plain narration. A control's
//! `custom_id` names the user it is for and the command word it stands for, so a press becomes
//! the same line (`/sweep`, `/psi cpk`) the player could have typed, and a press by anyone else
//! is refused before it reaches the session.

use crate::command::Group;
use crate::games::Menu;
use serenity::all::{
    ActionRow, ActionRowComponent, ButtonKind, ButtonStyle, CreateActionRow, CreateButton,
    CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

/// What every Herald `custom_id` starts with.
const ID_PREFIX: &str = "herald";

/// Discord's most action rows on one message.
const MAX_ROWS: usize = 5;

/// Discord's most buttons in one row.
const MAX_BUTTONS: usize = 5;

/// The words a button may stand for, with their labels and colours.
const BUTTONS: &[(&str, &str, ButtonStyle)] = &[
    ("sweep", "Sweep", ButtonStyle::Primary),
    ("nosweep", "No sweep", ButtonStyle::Secondary),
    ("high", "High", ButtonStyle::Primary),
    ("low", "Low", ButtonStyle::Primary),
    ("attack", "Attack", ButtonStyle::Primary),
    ("observe", "Observe", ButtonStyle::Primary),
    ("press", "Press", ButtonStyle::Primary),
    ("block", "Block", ButtonStyle::Primary),
    ("dodge", "Dodge", ButtonStyle::Primary),
    ("parry", "Parry", ButtonStyle::Primary),
    ("swordplay", "Swordplay", ButtonStyle::Success),
    ("accept", "Accept", ButtonStyle::Success),
    ("decline", "Decline", ButtonStyle::Secondary),
    ("yield", "Yield", ButtonStyle::Danger),
];

/// The longest command a button stands for: its `custom_id` (`herald:USER:COMMAND`) must stay
/// within Discord's 100 characters.
const MAX_COMMAND: usize = 64;

/// A word's button: its label and colour from [`BUTTONS`], else, for a decision of any game's
/// table, the word itself as the label.
fn button_word(word: &str) -> Option<(&'static str, String, ButtonStyle)> {
    if let Some((w, label, style)) = BUTTONS.iter().find(|(w, _, _)| *w == word) {
        return Some((w, label.to_string(), *style));
    }
    if let Some((first, args)) = word.split_once(' ') {
        return button_command(first, args);
    }
    let w = decision_word(word)?;
    let mut c = w.chars();
    let label = c
        .next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default();
    Some((w, label, ButtonStyle::Primary))
}

/// A decision with its arguments (`keep 5 5 maneuver`, `dice 2`): the command word's button,
/// its label followed by the arguments ("Keep 5 5 maneuver"). The arguments are plain words
/// and numbers, and the whole stays short enough for a `custom_id`.
fn button_command(first: &str, args: &str) -> Option<(&'static str, String, ButtonStyle)> {
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == ' ';
    if args.trim().is_empty()
        || !args.chars().all(plain)
        || args.contains("  ")
        || first.len() + 1 + args.len() > MAX_COMMAND
    {
        return None;
    }
    let (w, label, style) = button_word(first)?;
    Some((w, format!("{label} {args}"), style))
}

/// `word` as a decision command of some game's table.
fn decision_word(word: &str) -> Option<&'static str> {
    crate::games::GAMES.iter().find_map(|g| {
        (g.commands)()
            .iter()
            .filter(|s| s.group == Group::Decisions && s.path.len() == 1)
            .find_map(|s| s.path.first().copied().filter(|w| *w == word))
    })
}

/// The declaration menu of the game a prompt offering `words` is one of: some word of it is a
/// decision only games with that menu have (a Tourney `/attack, /yield` has none, a PsiKnight
/// `/sweep, /nosweep` the psi menu).
fn menu_of(words: &[String]) -> Option<&'static Menu> {
    let has = |g: &crate::games::GameInfo, word: &str| {
        (g.commands)().iter().any(|s| s.path.first() == Some(&word))
    };
    words.iter().find_map(|w| {
        let w = w.as_str();
        let mut games = crate::games::GAMES.iter().filter(|g| has(g, w)).peekable();
        let menu = games.peek()?.menu?;
        games
            .all(|g| g.menu.is_some_and(|m| m.word == menu.word))
            .then_some(menu)
    })
}

/// Someone a line waits for: a fighter's prompt or a challenged player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Awaited {
    /// The player (a Discord user id on Discord).
    pub user: String,
    /// Who they answer as: "Dame Dara", or for a challenge the knight challenged.
    pub name: String,
    /// What they are asked, as the line says it: "announce a sweep or not".
    pub what: String,
    /// The commands they may answer with, in the line's order: a word (`sweep`), or a word
    /// with its arguments (`keep 5 5 maneuver`).
    pub words: Vec<String>,
    /// The declaration its game's menu makes, if it may be made now (a fight's prompt of a
    /// game with a menu, not a challenge): its command word.
    pub menu: Option<&'static str>,
}

/// The user written in a line, bare or as a Discord mention: `123`, `<@123>`, `<@!123>`.
fn user_of(text: &str) -> Option<String> {
    let text = text.trim();
    let bare = text
        .strip_prefix("<@")
        .and_then(|t| t.strip_suffix('>'))
        .map(|t| t.trim_start_matches('!'))
        .unwrap_or(text);
    (!bare.is_empty() && !bare.contains(char::is_whitespace)).then(|| bare.to_string())
}

/// The `/a, /b 2, /c` list of a prompt, as known button commands; `None` if it is not such a
/// list. An option may carry arguments (`/keep 5 5 maneuver`): it is kept whole.
fn words_of(list: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    for item in list.split(", ") {
        // A note on an option ("/redo (3 ISPs)") is not part of what the button sends.
        let item = item.split(" (").next().unwrap_or(item);
        let item = item.strip_prefix('/')?;
        let word = item.split(' ').next().unwrap_or("");
        if word.is_empty() || !word.chars().all(|c| c.is_ascii_lowercase()) {
            return None;
        }
        if word == item {
            if let Some((w, _, _)) = button_word(word) {
                words.push(w.to_string());
            }
        } else if button_word(item).is_some() {
            words.push(item.to_string());
        }
    }
    Some(words)
}

/// Reads a prompt line: `NAME (USER), WHAT: /a, /b (120s, then /a).`
fn prompt(line: &str) -> Option<Awaited> {
    let body = line.strip_suffix(").")?;
    let (head, tail) = body.rsplit_once(" (")?;
    let (secs, default) = tail.split_once("s, then /")?;
    if !secs.chars().all(|c| c.is_ascii_digit()) || default.is_empty() {
        return None;
    }
    // Names cannot hold a parenthesis (R3), so the first " (" ends the name.
    let (name, rest) = head.split_once(" (")?;
    let (user, rest) = rest.split_once("), ")?;
    let (what, list) = rest.split_once(": /")?;
    let words = words_of(&format!("/{list}"))?;
    let what = what.split(" [Bonus").next().unwrap_or(what);
    Some(Awaited {
        user: user_of(user)?,
        name: name.to_string(),
        what: what.to_string(),
        menu: menu_of(&words).map(|m| m.word),
        words,
    })
}

/// Reads a challenge line: `A challenges B to a practice joust! USER: /accept or /decline (300s).`
fn challenge(line: &str) -> Option<Awaited> {
    let (head, tail) = line.rsplit_once(": /accept or /decline (")?;
    let secs = tail.strip_suffix("s).")?;
    if !secs.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (intro, user) = head.rsplit_once("! ")?;
    let (_, rest) = intro.split_once(" challenges ")?;
    let (name, _) = rest.rsplit_once(" to a ")?;
    Some(Awaited {
        user: user_of(user)?,
        name: name.to_string(),
        what: "answer the challenge".into(),
        words: vec!["accept".into(), "decline".into()],
        menu: None,
    })
}

/// Who a line waits for, if it is a prompt or a challenge.
pub fn awaited(line: &str) -> Option<Awaited> {
    prompt(line).or_else(|| challenge(line))
}

/// Everyone a line waits for: a full line is one prompt or challenge at most, a compact line
/// (see [`crate::narration`]) ends with the prompts its step leads to, each after its mark.
pub fn awaited_all(line: &str) -> Vec<Awaited> {
    line.split(crate::narration::PROMPT)
        .flat_map(|part| part.split(crate::narration::CLAUSE))
        .filter_map(awaited)
        .collect()
}

/// What one row of controls holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// Buttons: command words with their labels.
    Buttons(Vec<(String, String)>),
    /// A declaration's select menu: its command word and its placeholder.
    Menu(&'static str, String),
}

/// One action row, for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The only user whose press counts.
    pub user: String,
    /// Its buttons or its menu.
    pub kind: RowKind,
    /// Greyed out: used, superseded or timed out.
    pub disabled: bool,
}

/// The controls of one message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    /// At most five rows.
    pub rows: Vec<Row>,
}

impl Controls {
    /// The controls for the players `waiting` names: their buttons, five a row (several rows
    /// for a prompt with many options, as far as Discord's five rows allow; one row each when
    /// two players wait), then each fighter's declaration menu while rows are left. With two players
    /// waiting, each label names whose it is. When a prompt's options do not all fit, `/yield`
    /// keeps the last place.
    pub fn for_awaited(waiting: &[Awaited]) -> Controls {
        let mut rows = Vec::new();
        let several = waiting.len() > 1;
        for a in waiting {
            let room = if several {
                MAX_BUTTONS
            } else {
                MAX_BUTTONS * MAX_ROWS
            };
            let mut buttons: Vec<(String, String)> = a
                .words
                .iter()
                .filter_map(|w| {
                    let (word, label, _) = button_word(w)?;
                    let command = if w.contains(' ') {
                        w.clone()
                    } else {
                        word.to_string()
                    };
                    Some((command, label))
                })
                .map(|(w, label)| {
                    let label = if several {
                        format!("{}: {label}", a.name)
                    } else {
                        label
                    };
                    (w, truncate(&label, 80))
                })
                .collect();
            if buttons.len() > room {
                let last = buttons.pop().filter(|(w, _)| w == "yield");
                buttons.truncate(room - usize::from(last.is_some()));
                buttons.extend(last);
            }
            for chunk in buttons.chunks(MAX_BUTTONS) {
                if rows.len() >= MAX_ROWS {
                    break;
                }
                rows.push(Row {
                    user: a.user.clone(),
                    kind: RowKind::Buttons(chunk.to_vec()),
                    disabled: false,
                });
            }
        }
        for (a, menu) in waiting
            .iter()
            .filter_map(|a| Some((a, crate::games::menu(a.menu?)?)))
        {
            if rows.len() >= MAX_ROWS {
                break;
            }
            rows.push(Row {
                user: a.user.clone(),
                kind: RowKind::Menu(
                    menu.word,
                    truncate(&format!("{}: {}", a.name, menu.asks), 150),
                ),
                disabled: false,
            });
        }
        rows.truncate(MAX_ROWS);
        Controls { rows }
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether some row can still be pressed.
    pub fn is_live(&self) -> bool {
        self.rows.iter().any(|r| !r.disabled)
    }

    /// The same controls with every row of `user` greyed out (after their choice).
    pub fn used_by(&self, user: &str) -> Controls {
        let mut c = self.clone();
        for r in c.rows.iter_mut().filter(|r| r.user == user) {
            r.disabled = true;
        }
        c
    }

    /// The same controls, all greyed out (superseded or timed out).
    pub fn all_disabled(&self) -> Controls {
        let mut c = self.clone();
        for r in &mut c.rows {
            r.disabled = true;
        }
        c
    }

    /// The controls of a message Herald sent, read back from its components; rows that are not
    /// Herald's are left out.
    pub fn from_components(rows: &[ActionRow]) -> Controls {
        let mut out = Vec::new();
        for row in rows {
            let mut buttons = Vec::new();
            let mut user = None;
            let mut disabled = true;
            for c in &row.components {
                match c {
                    ActionRowComponent::Button(b) => {
                        let ButtonKind::NonLink { custom_id, .. } = &b.data else {
                            continue;
                        };
                        let Some((u, word)) = parse_custom_id(custom_id) else {
                            continue;
                        };
                        user = Some(u.to_string());
                        disabled &= b.disabled;
                        buttons.push((word.to_string(), b.label.clone().unwrap_or_default()));
                    }
                    ActionRowComponent::SelectMenu(m) => {
                        let Some((u, menu)) = m
                            .custom_id
                            .as_deref()
                            .and_then(parse_custom_id)
                            .and_then(|(u, word)| Some((u, crate::games::menu(word)?)))
                        else {
                            continue;
                        };
                        out.push(Row {
                            user: u.to_string(),
                            kind: RowKind::Menu(
                                menu.word,
                                m.placeholder.clone().unwrap_or_default(),
                            ),
                            disabled: m.disabled,
                        });
                    }
                    _ => {}
                }
            }
            if let (Some(user), false) = (user, buttons.is_empty()) {
                out.push(Row {
                    user,
                    kind: RowKind::Buttons(buttons),
                    disabled,
                });
            }
        }
        Controls { rows: out }
    }

    /// The rows as Discord components.
    pub fn to_components(&self) -> Vec<CreateActionRow> {
        self.rows
            .iter()
            .map(|row| match &row.kind {
                RowKind::Buttons(buttons) => CreateActionRow::Buttons(
                    buttons
                        .iter()
                        .map(|(word, label)| {
                            let style =
                                button_word(word).map_or(ButtonStyle::Secondary, |(_, _, s)| s);
                            CreateButton::new(custom_id(&row.user, word))
                                .label(label.clone())
                                .style(style)
                                .disabled(row.disabled)
                        })
                        .collect(),
                ),
                RowKind::Menu(word, placeholder) => CreateActionRow::SelectMenu(
                    CreateSelectMenu::new(
                        custom_id(&row.user, word),
                        CreateSelectMenuKind::String {
                            options: menu_options(word),
                        },
                    )
                    .placeholder(placeholder.clone())
                    .disabled(row.disabled),
                ),
            })
            .collect()
    }
}

/// The options of the menu whose command word is `word`, each with its game's label.
fn menu_options(word: &str) -> Vec<CreateSelectMenuOption> {
    crate::games::menu(word).map_or_else(Vec::new, |menu| {
        menu.choices
            .iter()
            .map(|w| CreateSelectMenuOption::new((menu.label)(w), *w))
            .collect()
    })
}

/// Cuts `text` to at most `max` characters, ending with "…" when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// `herald:USER:WORD`.
pub fn custom_id(user: &str, word: &str) -> String {
    format!("{ID_PREFIX}:{user}:{word}")
}

/// The user and the word of a Herald `custom_id`.
pub fn parse_custom_id(id: &str) -> Option<(&str, &str)> {
    let rest = id.strip_prefix(ID_PREFIX)?.strip_prefix(':')?;
    let (user, word) = rest.rsplit_once(':')?;
    (!user.is_empty() && !word.is_empty()).then_some((user, word))
}

/// What a press of a Herald control means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Press {
    /// The awaited player chose: this line goes to the hub as if typed.
    Line {
        /// `/sweep`, `/psi cpk`.
        line: String,
        /// A declaration from a menu (a psi skill armed) changes no one's turn, so the
        /// message's buttons stay.
        declaration: bool,
    },
    /// Someone else pressed: refuse, naming who is awaited.
    NotYours {
        /// The user the control is for.
        awaited: String,
    },
    /// Not a control Herald knows (an old version's, or forged).
    Unknown,
}

/// What `presser` pressing the control `custom_id` (with the menu's `values`) means.
pub fn press(custom_id: &str, values: &[String], presser: &str) -> Press {
    let Some((user, word)) = parse_custom_id(custom_id) else {
        return Press::Unknown;
    };
    let menu = crate::games::menu(word);
    let line = if let Some(menu) = menu {
        match values.first() {
            Some(v) if menu.choices.contains(&v.as_str()) => format!("/{} {v}", menu.word),
            _ => return Press::Unknown,
        }
    } else if word.len() <= MAX_COMMAND && button_word(word).is_some() {
        format!("/{word}")
    } else {
        return Press::Unknown;
    };
    if user != presser {
        return Press::NotYours {
            awaited: user.to_string(),
        };
    }
    Press::Line {
        line,
        declaration: menu.is_some(),
    }
}

/// The refusal a bystander sees (only they see it): who the control is for, and, when the
/// message says, what they may choose.
pub fn refusal(awaited_user: &str, message: &str) -> String {
    let mention = format!("<@{awaited_user}>");
    let found = message
        .lines()
        .flat_map(awaited_all)
        .find(|a| a.user == awaited_user && !a.words.is_empty());
    match found {
        Some(a) => format!(
            "Not your move: Herald is waiting for {} ({mention}) to choose {}.",
            a.name,
            join_or(&a.words)
        ),
        None => format!("Not your move: this choice belongs to {mention}."),
    }
}

/// `/a, /b or /c`.
fn join_or(words: &[String]) -> String {
    let words: Vec<String> = words.iter().map(|w| format!("/{w}")).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWEEP: &str =
        "Dame Dara (111), announce a sweep or not: /sweep, /nosweep, /yield (120s, then /nosweep).";

    #[test]
    fn a_prompt_line_names_the_player_and_the_choices() {
        let a = awaited(SWEEP).expect("a prompt");
        assert_eq!(a.user, "111");
        assert_eq!(a.name, "Dame Dara");
        assert_eq!(a.what, "announce a sweep or not");
        assert_eq!(a.words, vec!["sweep", "nosweep", "yield"]);
        assert_eq!(a.menu, Some("psi"));
    }

    #[test]
    fn a_prompt_with_a_bonus_and_a_rendered_mention_still_reads() {
        let line =
            "Sir Eoin (<@222>), strike [Bonus +15, weaken]: /high, /low, /yield (97s, then /high).";
        let a = awaited(line).expect("a prompt");
        assert_eq!(a.user, "222");
        assert_eq!(a.what, "strike");
        assert_eq!(a.words, vec!["high", "low", "yield"]);
    }

    #[test]
    fn a_challenge_line_waits_for_the_challenged_player() {
        let line =
            "Dame Dara challenges Sir Eoin to a practice joust! 222: /accept or /decline (300s).";
        let a = awaited(line).expect("a challenge");
        assert_eq!(a.user, "222");
        assert_eq!(a.name, "Sir Eoin");
        assert_eq!(a.words, vec!["accept", "decline"]);
        assert_eq!(a.menu, None);
    }

    #[test]
    fn narration_and_echoes_wait_for_no_one() {
        for line in [
            "Dame Dara rolls Observe 77 vs 40: success.",
            "No knight or player named '(123), x: /yield (1s, then /yield).' here. Usage: /knight [NAME]",
            "Sir Eoin wins (by unhorsing).",
            "",
            "(",
            "a (b), c: /d (5s, then /e).",
        ] {
            let a = awaited(line);
            assert!(
                a.as_ref().is_none_or(|a| a.words.is_empty()),
                "{line:?} read as {a:?}"
            );
        }
    }

    // A Tourney prompt gets its buttons from its game's table, and no psi menu: The Tourney
    // has no psi; a PsiKnight prompt keeps its menu.
    #[test]
    fn a_tourney_prompt_gets_its_buttons_and_no_psi_menu() {
        let attack =
            awaited("Sir Ector (111), your action: /attack, /yield (120s, then /attack).").unwrap();
        assert_eq!(attack.words, vec!["attack", "yield"]);
        assert_eq!(attack.menu, None);
        let down = awaited(
            "Sir Ector (111), at Health 1 you may yield (T14); your action: /stand, /yield (120s, then /stand).",
        )
        .unwrap();
        assert_eq!(down.words, vec!["stand", "yield"]);
        assert_eq!(down.menu, None);
        let c = Controls::for_awaited(&[down]);
        assert_eq!(c.rows.len(), 1, "{c:?}");
        assert_eq!(
            c.rows[0].kind,
            RowKind::Buttons(vec![
                ("stand".into(), "Stand".into()),
                ("yield".into(), "Yield".into())
            ])
        );
        let sword = awaited(
            "Dame Dara (111), to choose an action: /attack, /observe, /press, /yield (120s, then /attack).",
        )
        .unwrap();
        assert_eq!(sword.menu, Some("psi"));
    }

    // PM14: an option with a note ("/redo (3 ISPs)") is a button of its command alone.
    #[test]
    fn an_options_note_is_not_part_of_its_button() {
        let line = "Bo (222), 19 vs Ann's 24 goes against you: /redo (3 ISPs), /keep, /yield (120s, then /keep).";
        assert_eq!(awaited(line).unwrap().words, vec!["redo", "keep", "yield"]);
    }

    #[test]
    fn unknown_words_in_a_prompt_get_no_button() {
        let line = "Sir Eoin (222), your turn: /attack, /frobnicate, /yield (5s, then /attack).";
        assert_eq!(awaited(line).unwrap().words, vec!["attack", "yield"]);
    }

    #[test]
    fn one_prompt_gives_a_row_of_buttons_and_a_psi_menu() {
        let c = Controls::for_awaited(&[awaited(SWEEP).unwrap()]);
        assert_eq!(c.rows.len(), 2);
        assert_eq!(
            c.rows[0].kind,
            RowKind::Buttons(vec![
                ("sweep".into(), "Sweep".into()),
                ("nosweep".into(), "No sweep".into()),
                ("yield".into(), "Yield".into()),
            ])
        );
        assert!(matches!(c.rows[1].kind, RowKind::Menu("psi", _)));
        let json = serde_json::to_value(c.to_components()).unwrap();
        assert_eq!(json[0]["components"][0]["custom_id"], "herald:111:sweep");
        assert_eq!(json[0]["components"][0]["label"], "Sweep");
        assert_eq!(json[0]["components"][2]["style"], 4, "Yield is red");
        assert_eq!(json[1]["components"][0]["custom_id"], "herald:111:psi");
        let options = json[1]["components"][0]["options"].as_array().unwrap();
        assert_eq!(options.len(), 8, "seven psi skills and off");
        assert_eq!(options[1]["label"], "CPK");
        assert_eq!(options[7]["value"], "off");
    }

    #[test]
    fn two_prompts_label_whose_buttons_are_whose() {
        // R41: after a practice Joust both fighters are asked at once.
        let a = awaited("Dame Dara (111), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline).").unwrap();
        let b = awaited("Sir Eoin (222), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline).").unwrap();
        let c = Controls::for_awaited(&[a, b]);
        assert_eq!(c.rows.len(), 4);
        let RowKind::Buttons(first) = &c.rows[0].kind else {
            panic!("buttons first")
        };
        assert_eq!(first[0].1, "Dame Dara: Swordplay");
        assert_eq!(c.rows[1].user, "222");
    }

    #[test]
    fn a_challenge_gets_accept_and_decline_but_no_psi_menu() {
        let a = awaited(
            "Dame Dara challenges Sir Eoin to a practice joust! 222: /accept or /decline (300s).",
        )
        .unwrap();
        let c = Controls::for_awaited(&[a]);
        assert_eq!(c.rows.len(), 1);
        let json = serde_json::to_value(c.to_components()).unwrap();
        assert_eq!(json[0]["components"][0]["custom_id"], "herald:222:accept");
        assert_eq!(json[0]["components"][0]["style"], 3, "Accept is green");
    }

    #[test]
    fn used_controls_grey_out_only_that_players_rows() {
        let a = awaited("Dame Dara (111), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline).").unwrap();
        let b = awaited("Sir Eoin (222), go on to Swordplay?: /swordplay, /decline, /yield (120s, then /decline).").unwrap();
        let c = Controls::for_awaited(&[a, b]).used_by("111");
        assert!(c
            .rows
            .iter()
            .filter(|r| r.user == "111")
            .all(|r| r.disabled));
        assert!(c
            .rows
            .iter()
            .filter(|r| r.user == "222")
            .all(|r| !r.disabled));
        assert!(c.is_live());
        let all = c.all_disabled();
        assert!(!all.is_live());
        let json = serde_json::to_value(all.to_components()).unwrap();
        assert_eq!(json[0]["components"][0]["disabled"], true);
        assert_eq!(json[2]["components"][0]["disabled"], true);
    }

    #[test]
    fn controls_read_back_from_a_sent_message() {
        let c = Controls::for_awaited(&[awaited(SWEEP).unwrap()]).used_by("111");
        // What Discord sends back is what was sent, with its type numbers.
        let json = serde_json::to_value(c.to_components()).unwrap();
        let rows: Vec<ActionRow> = serde_json::from_value(json).unwrap();
        assert_eq!(Controls::from_components(&rows), c);
    }

    #[test]
    fn custom_ids_round_trip_and_strangers_are_refused() {
        assert_eq!(custom_id("111", "sweep"), "herald:111:sweep");
        assert_eq!(parse_custom_id("herald:111:sweep"), Some(("111", "sweep")));
        assert_eq!(parse_custom_id("other:111:sweep"), None);
        assert_eq!(parse_custom_id("herald::sweep"), None);
        assert_eq!(
            press("herald:111:sweep", &[], "111"),
            Press::Line {
                line: "/sweep".into(),
                declaration: false
            }
        );
        assert_eq!(
            press("herald:111:sweep", &[], "222"),
            Press::NotYours {
                awaited: "111".into()
            }
        );
        assert_eq!(
            press("herald:111:psi", &["cpk".into()], "111"),
            Press::Line {
                line: "/psi cpk".into(),
                declaration: true
            }
        );
        assert_eq!(
            press("herald:111:psi", &["fireball".into()], "111"),
            Press::Unknown
        );
        assert_eq!(press("herald:111:psi", &[], "111"), Press::Unknown);
        assert_eq!(press("herald:111:launch", &[], "111"), Press::Unknown);
        assert_eq!(press("nonsense", &[], "111"), Press::Unknown);
    }

    #[test]
    fn a_bystander_is_told_who_is_awaited_and_for_what() {
        let message = "Sir Eoin does not sweep.\nDame Dara (<@111>), announce a sweep or not: /sweep, /nosweep, /yield (118s, then /nosweep).";
        assert_eq!(
            refusal("111", message),
            "Not your move: Herald is waiting for Dame Dara (<@111>) to choose /sweep, /nosweep or /yield."
        );
        assert_eq!(
            refusal("333", message),
            "Not your move: this choice belongs to <@333>."
        );
    }

    #[test]
    fn truncation_counts_characters() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
        assert_eq!(truncate("ééééé", 4), "ééé…");
    }

    // A PFP duel's options carry their arguments: each is a button that sends the whole line.
    #[test]
    fn options_with_arguments_get_buttons_that_send_the_whole_command() {
        let line = "Ann (111), keep two of your dice 6 2 2 (defender): /keep 6 2, /keep 2 2, /keep 2 2 maneuver, /keep 2 2 iron, /keep 2 2 vanish, /keep 2 2 weaken, /yield (120s, then /keep 6 2).";
        let a = awaited(line).expect("a prompt");
        assert_eq!(a.what, "keep two of your dice 6 2 2 (defender)");
        assert_eq!(
            a.words,
            vec![
                "keep 6 2",
                "keep 2 2",
                "keep 2 2 maneuver",
                "keep 2 2 iron",
                "keep 2 2 vanish",
                "keep 2 2 weaken",
                "yield"
            ]
        );
        assert_eq!(a.menu, None, "the PFP duel arms no psi");
        let c = Controls::for_awaited(&[a]);
        assert_eq!(c.rows.len(), 2, "seven buttons: two rows for one player");
        let RowKind::Buttons(first) = &c.rows[0].kind else {
            panic!("buttons")
        };
        assert_eq!(first.len(), 5);
        assert_eq!(
            first[2],
            ("keep 2 2 maneuver".into(), "Keep 2 2 maneuver".into())
        );
        assert!(c.rows.iter().all(|r| r.user == "111"));
        let json = serde_json::to_value(c.to_components()).unwrap();
        assert_eq!(
            json[0]["components"][2]["custom_id"],
            "herald:111:keep 2 2 maneuver"
        );
        assert_eq!(json[1]["components"][1]["custom_id"], "herald:111:yield");
        assert_eq!(
            press("herald:111:keep 2 2 maneuver", &[], "111"),
            Press::Line {
                line: "/keep 2 2 maneuver".into(),
                declaration: false
            }
        );
        assert_eq!(
            press("herald:111:dice 2", &[], "222"),
            Press::NotYours {
                awaited: "111".into()
            }
        );
        // Only a game's decision, with plain arguments, is a command a press may send.
        assert_eq!(press("herald:111:launch 2", &[], "111"), Press::Unknown);
        assert_eq!(
            press("herald:111:keep 2 2; drop", &[], "111"),
            Press::Unknown
        );
        // Read back from a sent message, they are the same controls.
        let rows: Vec<ActionRow> = serde_json::from_value(json).unwrap();
        assert_eq!(Controls::from_components(&rows), c);
    }

    // Discord's limits: five buttons a row, five rows, 80 characters a label; /yield keeps the
    // last place when the options do not all fit.
    #[test]
    fn many_options_stay_within_discords_limits() {
        let options: Vec<String> = (1..=6)
            .flat_map(|n| {
                ["pain", "mental", "physical"]
                    .into_iter()
                    .map(move |k| format!("/effect {k} {n}"))
            })
            .chain((0..=6).map(|g| format!("/effect puppet {} {g}", 6 - g)))
            .chain([
                "/recover".to_string(),
                "/end".to_string(),
                "/yield".to_string(),
            ])
            .collect();
        let line = format!(
            "Vex (111), your activation: 3 AP, 0/2 psionic actions, 9 PFP: {} (120s, then /effect pain 6).",
            options.join(", ")
        );
        let a = awaited(&line).expect("a prompt");
        assert_eq!(a.words.len(), options.len());
        let c = Controls::for_awaited(&[a]);
        assert_eq!(c.rows.len(), 5);
        let buttons: Vec<&(String, String)> = c
            .rows
            .iter()
            .flat_map(|r| match &r.kind {
                RowKind::Buttons(b) => b.iter(),
                RowKind::Menu(..) => [].iter(),
            })
            .collect();
        assert_eq!(buttons.len(), 25);
        assert!(c.rows.iter().all(|r| match &r.kind {
            RowKind::Buttons(b) => b.len() <= 5,
            RowKind::Menu(..) => false,
        }));
        assert_eq!(buttons[0].0, "effect pain 1");
        assert_eq!(buttons[24].0, "yield");
        let long = "Ann (111), x: /dice 1, /yield (5s, then /dice 1).";
        let c = Controls::for_awaited(&[awaited(long).unwrap()]);
        let name = "N".repeat(90);
        let two = Controls::for_awaited(&[
            Awaited {
                name: name.clone(),
                ..awaited(long).unwrap()
            },
            awaited(long).unwrap(),
        ]);
        let RowKind::Buttons(b) = &two.rows[0].kind else {
            panic!("buttons")
        };
        assert_eq!(b[0].1.chars().count(), 80);
        assert_eq!(c.rows.len(), 1);
    }
}
