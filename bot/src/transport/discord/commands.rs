//! Slash commands generated from the one command table, and interactions turned back into the
//! text line a player could have typed.
//!
//! Every entry of [`COMMANDS`] becomes a slash command, or a subcommand when entries share their
//! first word (`/ransom pay`, `/knight create`). Discord does not let a command with
//! subcommands be run bare, so the bare entry of such a group (`/knight [NAME]`,
//! `/tournament`) becomes its `show` subcommand. Options are typed from the [`ArgSpec`]s: a
//! user picker for the opponent, choices for skills, psi skills, monarchs and Bonus modes,
//! integers and numbers with their ranges, autocomplete for knight names and help topics.
//!
//! An interaction is answered by writing its line (`/ransom pay Alan 2.5`) with the entry's
//! own words and [`quote`]d values and handing it to the hub like any chat line, so
//! [`crate::command::parse`] stays the only reader of commands.

use crate::app::App;
use crate::command::{parse, quote, ArgKind, ArgSpec, Command, CommandSpec, COMMANDS};
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption, InteractionContext,
};
use std::sync::OnceLock;
use thiserror::Error;

/// The subcommand name of a group's bare entry (`/knight show` for `/knight [NAME]`).
pub const SHOW: &str = "show";

/// Discord's most suggestions in one autocomplete answer.
pub const MAX_SUGGESTIONS: usize = 25;

/// Discord's longest description.
const MAX_DESCRIPTION: usize = 100;

/// One slash command: a first word of the table and the entries under it.
#[derive(Clone, Debug)]
pub struct Slash {
    /// The command's name: the entries' first word.
    pub name: &'static str,
    /// Each entry with its subcommand name; a single bare entry has none.
    pub entries: Vec<(Option<&'static str>, &'static CommandSpec)>,
}

impl Slash {
    fn entry(&self, sub: Option<&str>) -> Option<&'static CommandSpec> {
        self.entries
            .iter()
            .find(|(name, _)| *name == sub)
            .map(|(_, spec)| *spec)
    }
}

/// The slash commands, in the table's order of first words.
pub fn slash_table() -> Vec<Slash> {
    let mut table: Vec<Slash> = Vec::new();
    for spec in COMMANDS {
        let Some(first) = spec.path.first().copied() else {
            continue;
        };
        match table.iter_mut().find(|s| s.name == first) {
            Some(slash) => slash.entries.push((None, spec)),
            None => table.push(Slash {
                name: first,
                entries: vec![(None, spec)],
            }),
        }
    }
    group(&mut table);
    table
}

/// Names the subcommands of every slash command with more than one entry, or a two-word one.
fn group(table: &mut [Slash]) {
    for slash in table {
        let grouped =
            slash.entries.len() > 1 || slash.entries.iter().any(|(_, s)| s.path.len() > 1);
        if grouped {
            for (sub, spec) in &mut slash.entries {
                *sub = Some(spec.path.get(1).copied().unwrap_or(SHOW));
            }
        }
    }
}

/// The slash commands Discord registers: the core table's ([`slash_table`]) and every game's
/// own entries. An entry two tables share (`/knight create`) is registered once with the
/// options of both, each required only where both require it: the line it becomes is read by
/// the grammar of the channel's game, which says what is missing.
pub fn registered_table() -> &'static [Slash] {
    static TABLE: OnceLock<Vec<Slash>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = slash_table();
        for game in crate::games::GAMES {
            for spec in (game.commands)().iter().filter(|s| !in_fallback(s)) {
                let Some(first) = spec.path.first().copied() else {
                    continue;
                };
                let slash = match table.iter_mut().position(|s| s.name == first) {
                    Some(i) => &mut table[i],
                    None => {
                        table.push(Slash {
                            name: first,
                            entries: Vec::new(),
                        });
                        let last = table.len() - 1;
                        &mut table[last]
                    }
                };
                match slash.entries.iter_mut().find(|(_, s)| s.path == spec.path) {
                    Some((_, known)) => *known = merged(known, spec),
                    None => slash.entries.push((None, spec)),
                }
            }
        }
        group(&mut table);
        table
    })
}

/// One entry with the options of two that share its words; made once, at registration.
fn merged(a: &'static CommandSpec, b: &'static CommandSpec) -> &'static CommandSpec {
    let mut args: Vec<ArgSpec> = a
        .args
        .iter()
        .map(|x| {
            let mut x = *x;
            x.required &= b.args.iter().any(|y| y.name == x.name && y.required);
            x
        })
        .collect();
    for y in b.args {
        if !args.iter().any(|x| x.name == y.name) {
            args.push(ArgSpec {
                required: false,
                ..*y
            });
        }
    }
    Box::leak(Box::new(a.with_args(Box::leak(args.into_boxed_slice()))))
}

/// Cuts a description to Discord's 100 characters.
fn description(text: &str) -> String {
    super::controls::truncate(text.trim(), MAX_DESCRIPTION)
}

/// The label of a fixed choice: the game's own where it has one, else the word capitalized.
fn choice_label(word: &str) -> String {
    crate::games::choice_label(word).unwrap_or_else(|| {
        let mut c = word.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    })
}

/// The Discord option for one argument.
pub fn option_for(arg: &ArgSpec) -> CreateCommandOption {
    let kind = match arg.kind {
        ArgKind::Target => CommandOptionType::User,
        ArgKind::Number { .. } | ArgKind::EntryId => CommandOptionType::Integer,
        ArgKind::Points | ArgKind::SignedPoints => CommandOptionType::Number,
        ArgKind::Switch => CommandOptionType::Boolean,
        _ => CommandOptionType::String,
    };
    let mut option =
        CreateCommandOption::new(kind, arg.name, description(arg.about)).required(arg.required);
    match arg.kind {
        ArgKind::Number { min, max } => {
            option = option
                .min_int_value(u64::from(min))
                .max_int_value(u64::from(max));
        }
        ArgKind::EntryId => option = option.min_int_value(1),
        ArgKind::Points => option = option.min_number_value(0.5),
        ArgKind::Knight | ArgKind::Topic => option = option.set_autocomplete(true),
        _ => {}
    }
    for word in arg.kind.choices() {
        option = option.add_string_choice(choice_label(word), *word);
    }
    option
}

/// Options in Discord's order: required ones first (Discord refuses an optional option before
/// a required one), else as in the table.
fn options_for(spec: &CommandSpec) -> Vec<CreateCommandOption> {
    let required = spec.args.iter().filter(|a| a.required);
    let optional = spec.args.iter().filter(|a| !a.required);
    required.chain(optional).map(option_for).collect()
}

/// Every slash command, ready to register; usable in server channels only, since a realm is a
/// server.
pub fn create_commands() -> Vec<CreateCommand> {
    registered_table()
        .iter()
        .map(|slash| {
            let command = CreateCommand::new(slash.name).contexts(vec![InteractionContext::Guild]);
            match slash.entries.as_slice() {
                [(None, spec)] => command
                    .description(description(spec.summary))
                    .set_options(options_for(spec)),
                entries => {
                    let subs = entries
                        .iter()
                        .map(|(sub, spec)| {
                            CreateCommandOption::new(
                                CommandOptionType::SubCommand,
                                sub.unwrap_or(SHOW),
                                description(spec.summary),
                            )
                            .set_sub_options(options_for(spec))
                        })
                        .collect();
                    command
                        .description(description(&format!("/{} commands", slash.name)))
                        .set_options(subs)
                }
            }
        })
        .collect()
}

/// Why an interaction could not be read as a command: the registered commands and this build
/// disagree (old registrations linger for up to an hour).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// No such command in this version.
    #[error("Herald does not know /{0} any more; its commands are being updated, try again in a few minutes.")]
    UnknownCommand(String),
    /// An option this version does not take.
    #[error("/{command} has no option '{option}' in this version of Herald; try again in a few minutes.")]
    UnknownOption {
        /// The command's words.
        command: String,
        /// The option's name.
        option: String,
    },
}

/// The table entry an interaction names, with its own options.
pub fn entry<'a>(
    name: &str,
    options: &'a [CommandDataOption],
) -> Result<(&'static CommandSpec, &'a [CommandDataOption]), LineError> {
    let unknown = || LineError::UnknownCommand(name.to_string());
    let slash = registered_table()
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(unknown)?;
    if let Some(spec) = slash.entry(None) {
        return Ok((spec, options));
    }
    for option in options {
        if let CommandDataOptionValue::SubCommand(inner) = &option.value {
            let spec = slash
                .entry(Some(option.name.as_str()))
                .ok_or_else(|| LineError::UnknownCommand(format!("{name} {}", option.name)))?;
            return Ok((spec, inner.as_slice()));
        }
    }
    Err(unknown())
}

/// A number of points as the grammar reads it: `2`, `2.5`, `-1.5`.
fn points(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Whether a moment or delay can go into the line as its own words: only the characters of
/// dates, times and delays, and no word that would read as an option.
fn is_plain_when(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | ':' | '-' | '+' | '.'))
        && !text.split_whitespace().any(|w| w.starts_with('-'))
}

/// One option's value as the word(s) of a line.
fn word(arg: &ArgSpec, value: &CommandDataOptionValue) -> Option<String> {
    let text = match value {
        CommandDataOptionValue::String(s)
        | CommandDataOptionValue::Autocomplete { value: s, .. } => {
            if arg.kind.is_rest_of_line() {
                s.trim().to_string()
            } else if arg.kind == ArgKind::When && is_plain_when(s) {
                // `in 2h` and `2026-12-05 18:00` are read from several words.
                s.split_whitespace().collect::<Vec<_>>().join(" ")
            } else {
                quote(s.trim())
            }
        }
        CommandDataOptionValue::Integer(n) => n.to_string(),
        CommandDataOptionValue::Number(n) => points(*n),
        CommandDataOptionValue::User(id) => id.to_string(),
        CommandDataOptionValue::Boolean(_) => return None,
        _ => return None,
    };
    Some(text)
}

/// The line an interaction stands for: `/ransom pay Alan 2.5`. Positional values in the
/// table's order, then options as `--flag VALUE` (a switch only when true).
pub fn line_for(spec: &CommandSpec, options: &[CommandDataOption]) -> Result<String, LineError> {
    for option in options {
        if !spec.args.iter().any(|a| a.name == option.name) {
            return Err(LineError::UnknownOption {
                command: spec.name(),
                option: option.name.clone(),
            });
        }
    }
    let value = |arg: &ArgSpec| {
        options
            .iter()
            .find(|o| o.name == arg.name)
            .map(|o| &o.value)
    };
    let mut line = format!("/{}", spec.path.join(" "));
    for arg in spec.args.iter().filter(|a| a.flag.is_none()) {
        // Optional positionals come last in the table, so a missing one ends them.
        let Some(text) = value(arg).and_then(|v| word(arg, v)) else {
            break;
        };
        line.push(' ');
        line.push_str(&text);
    }
    for arg in spec.args.iter() {
        let Some(flag) = arg.flag else { continue };
        match (arg.kind, value(arg)) {
            (ArgKind::Switch, Some(CommandDataOptionValue::Boolean(true))) => {
                line.push(' ');
                line.push_str(flag);
            }
            (ArgKind::Switch, _) | (_, None) => {}
            (_, Some(v)) => {
                if let Some(text) = word(arg, v) {
                    line.push(' ');
                    line.push_str(flag);
                    line.push(' ');
                    line.push_str(&text);
                }
            }
        }
    }
    Ok(line)
}

/// The line for a slash command's name and options.
pub fn line(name: &str, options: &[CommandDataOption]) -> Result<String, LineError> {
    let (spec, options) = entry(name, options)?;
    line_for(spec, options)
}

/// Whether the answer to `line` is for its asker's eyes only: a knight's sheet, Honor, ledger,
/// history and help, a psi declaration (R21: the channel's line is posted apart), `/link` and
/// `/unlink`, and any mistake in the command.
pub fn is_private(line: &str) -> bool {
    match parse(line, &['/']) {
        Some(Ok(command)) => crate::games::privacy(&command).answered_privately,
        // A game's own command (`/psicombat`, `/defend blank`) is answered in the open, as
        // the core's are: a fight is played in the open.
        Some(Err(_)) | None => game_spec(line).is_none(),
    }
}

/// The entry of a seam game's own table that `line` starts with, other than `/help` (the core
/// table's mistakes stay private).
fn game_spec(line: &str) -> Option<&'static CommandSpec> {
    let word = line
        .trim_start_matches(['/', '!'])
        .split_whitespace()
        .next()?
        .to_lowercase();
    crate::games::GAMES.iter().find_map(|g| {
        (g.commands)().iter().find(|s| {
            s.path.first() == Some(&word.as_str()) && s.path != ["help"] && !in_fallback(s)
        })
    })
}

/// Whether `spec` is an entry of the table every channel reads ([`COMMANDS`]) rather than a
/// game's own: the same words and usage.
fn in_fallback(spec: &CommandSpec) -> bool {
    COMMANDS
        .iter()
        .any(|f| f.path == spec.path && f.usage == spec.usage)
}

/// Whether `line` is a move in a fight or an answer to a challenge, after which earlier buttons
/// in the channel no longer stand: `/accept` or `/decline`, or what a game's channel reads as
/// one of that game's moves ([`crate::games::GameInfo::is_move`]).
pub fn is_fight_move(line: &str) -> bool {
    let prefixes = &['/', '!'];
    if matches!(
        parse(line, prefixes),
        Some(Ok(Command::Accept | Command::Decline))
    ) {
        return true;
    }
    crate::games::GAMES.iter().any(|g| {
        let Some(Ok(command)) = g.parse(line, prefixes) else {
            return false;
        };
        let words = command.words();
        (g.commands)()
            .iter()
            .find(|s| s.is(words))
            .is_some_and(g.is_move)
    })
}

/// The argument an autocomplete interaction is typing into, with what has been typed.
pub fn focused<'a>(
    name: &str,
    options: &'a [CommandDataOption],
) -> Option<(&'static ArgSpec, &'a str)> {
    let (spec, options) = entry(name, options).ok()?;
    options.iter().find_map(|o| match &o.value {
        CommandDataOptionValue::Autocomplete { value, .. } => spec
            .args
            .iter()
            .find(|a| a.name == o.name)
            .map(|a| (a, value.as_str())),
        _ => None,
    })
}

/// Help topics that start with what was typed.
pub fn topics(typed: &str) -> Vec<String> {
    let typed = typed.trim().trim_start_matches('/').to_lowercase();
    COMMANDS
        .iter()
        .map(|s| s.name())
        .filter(|n| n.starts_with(&typed))
        .take(MAX_SUGGESTIONS)
        .collect()
}

/// Knights of the realm whose names start with what was typed, for autocomplete.
///
/// Read-only and bound; it belongs with the other queries in [`crate::store`] once the store
/// offers a name search.
pub async fn knight_names(app: &App, realm: &str, typed: &str) -> anyhow::Result<Vec<String>> {
    let realm = app.realm(realm).await?;
    let mut pattern = String::new();
    for c in typed.trim().to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    let names = crate::store::db::query_scalar::<String>(
        "SELECT name FROM knights WHERE realm_id = ? AND retired = 0 AND name_key LIKE ? ESCAPE '\\' \
         ORDER BY name_key LIMIT ?",
    )
    .bind(realm)
    .bind(pattern)
    .bind(MAX_SUGGESTIONS as i64)
    .fetch_all(app.store.db())
    .await?;
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::HalfPoints;
    use crate::games::psiknight::command::{CreateKnight, PsiCommand};
    use herald_engine::psiknight::books::AnySkill;
    use herald_engine::psiknight::{Decision, Monarch, PsiSkill, Skill, Style};
    use serde_json::{json, Value};

    /// Options as Discord sends them in an interaction.
    fn options(value: Value) -> Vec<CommandDataOption> {
        serde_json::from_value(value).expect("options deserialize")
    }

    fn command_of(name: &str, opts: Value) -> (String, Command) {
        let line = line(name, &options(opts)).expect("a line");
        let command = parse(&line, &['/'])
            .expect("a command")
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        (line, command)
    }

    fn registered() -> Vec<Value> {
        create_commands()
            .into_iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .collect()
    }

    fn find<'a>(commands: &'a [Value], name: &str) -> &'a Value {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no /{name}"))
    }

    #[test]
    fn every_table_entry_is_a_slash_command_or_subcommand() {
        let table = slash_table();
        let count: usize = table.iter().map(|s| s.entries.len()).sum();
        assert_eq!(count, COMMANDS.len());
        let knight = table.iter().find(|s| s.name == "knight").unwrap();
        let subs: Vec<_> = knight.entries.iter().map(|(s, _)| *s).collect();
        assert_eq!(subs, vec![Some("create"), Some(SHOW)]);
        let roll = table.iter().find(|s| s.name == "roll").unwrap();
        assert_eq!(roll.entries[0].0, None);
        // Discord takes at most 100 commands.
        assert!(table.len() <= 100);
    }

    #[test]
    fn registrations_keep_discords_limits() {
        fn check(option: &Value, path: &str) {
            let name = option["name"].as_str().unwrap();
            assert!(
                (1..=32).contains(&name.len())
                    && name.chars().all(|c| c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || c == '_'
                        || c == '-'),
                "{path} {name}"
            );
            let d = option["description"].as_str().unwrap();
            assert!((1..=100).contains(&d.chars().count()), "{path} {name}: {d}");
            if let Some(options) = option["options"].as_array() {
                assert!(options.len() <= 25, "{path} {name}");
                let mut seen_optional = false;
                for o in options {
                    let required = o["required"].as_bool().unwrap_or(false);
                    assert!(
                        !(required && seen_optional),
                        "{path} {name}: required after optional"
                    );
                    seen_optional |= !required && o["type"] != 1;
                    if let Some(choices) = o["choices"].as_array() {
                        assert!(choices.len() <= 25);
                    }
                    check(o, &format!("{path} {name}"));
                }
            }
        }
        for c in registered() {
            check(&c, "");
            assert_eq!(c["contexts"], json!([0]), "guilds only");
        }
    }

    // The games' own commands are registered too; one the core table shares (`/knight create`)
    // takes both games' options, none required that only one game requires, and becomes a line
    // the channel's game reads.
    #[test]
    fn every_games_commands_are_registered_once_with_all_their_options() {
        let commands = registered();
        for name in ["stand", "smith", "attack", "yield", "joust"] {
            let _ = find(&commands, name);
        }
        let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "each name once: {names:?}");
        let knight = find(&commands, "knight");
        let create = knight["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "create")
            .unwrap();
        let option = |name: &str| {
            create["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["name"] == name)
                .unwrap_or_else(|| panic!("no {name}"))
                .clone()
        };
        assert_eq!(option("name")["required"], true);
        assert_eq!(option("top")["required"], false, "PsiKnight's alone");
        assert_eq!(option("weapon")["required"], false);
        let line = line(
            "knight",
            &options(json!([{"name": "create", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Gimby"},
                {"name": "skill", "type": 3, "value": "broadsword:4,dagger:1"},
                {"name": "strength", "type": 4, "value": 5}
            ]}])),
        )
        .unwrap();
        assert_eq!(
            line,
            "/knight create Gimby --skill broadsword:4,dagger:1 --strength 5"
        );
        assert_eq!(super::line("stand", &[]).unwrap(), "/stand");
    }

    #[test]
    fn options_are_typed() {
        let commands = registered();
        let joust = find(&commands, "joust");
        assert_eq!(joust["options"][0]["name"], "target");
        assert_eq!(joust["options"][0]["type"], 6, "a user picker");
        assert_eq!(joust["options"][0]["required"], true);

        let spend = find(&commands, "spend");
        let choices = spend["options"][0]["choices"].as_array().unwrap();
        assert_eq!(choices.len(), 13);
        assert_eq!(choices[0], json!({"name": "Lance", "value": "lance"}));
        assert_eq!(choices[7], json!({"name": "CPK", "value": "cpk"}));

        let psi = find(&commands, "psi");
        assert_eq!(psi["options"][0]["choices"].as_array().unwrap().len(), 8);
        let bonus = find(&commands, "bonus");
        assert_eq!(bonus["options"][0]["choices"].as_array().unwrap().len(), 3);

        let knight = find(&commands, "knight");
        let create = knight["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "create")
            .unwrap();
        assert_eq!(create["type"], 1, "a subcommand");
        let monarch = create["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "monarch")
            .unwrap();
        assert_eq!(monarch["choices"][1]["name"], "King Ragnar of Vegland");
        let dame = create["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "dame")
            .unwrap();
        assert_eq!(dame["type"], 5, "a switch is a boolean");

        let show = knight["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == SHOW)
            .unwrap();
        assert_eq!(show["options"][0]["autocomplete"], true, "knight names");

        let pay = find(&commands, "ransom");
        let pay = pay["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "pay")
            .unwrap();
        assert_eq!(pay["options"][1]["type"], 10, "points are numbers");
        assert_eq!(pay["options"][1]["min_value"], 0.5);

        let schedule = find(&commands, "tournament")["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "schedule")
            .unwrap()
            .clone();
        let minutes = schedule["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "melee_minutes")
            .unwrap()
            .clone();
        assert_eq!(minutes["type"], 4);
        assert_eq!(minutes["min_value"], 1);
        assert_eq!(minutes["max_value"], 1440);
    }

    #[test]
    fn roll_becomes_the_line_a_player_types() {
        let (line, command) =
            command_of("roll", json!([{"name": "expr", "type": 3, "value": "100"}]));
        assert_eq!(line, "/roll 100");
        assert_eq!(command, Command::Roll { expr: "100".into() });
        let (line, _) = command_of(
            "roll",
            json!([{"name": "expr", "type": 3, "value": " 4d6kh3 + 2 "}]),
        );
        assert_eq!(line, "/roll 4d6kh3 + 2");
    }

    #[test]
    fn the_opponent_is_named_by_user_id() {
        let (line, command) = command_of(
            "joust",
            json!([{"name": "target", "type": 6, "value": "222222222222222222"}]),
        );
        assert_eq!(line, "/joust 222222222222222222");
        assert_eq!(
            command,
            Command::from(PsiCommand::Joust {
                target: "222222222222222222".into()
            })
        );
    }

    #[test]
    fn knight_create_quotes_names_and_adds_flags() {
        let (line, command) = command_of(
            "knight",
            json!([{"name": "create", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Alan the \"Bold\""},
                {"name": "top", "type": 3, "value": "lance, ride, shield"},
                {"name": "psi", "type": 3, "value": "cpk:20,negapsi:20"},
                {"name": "monarch", "type": 3, "value": "ragnar"},
                {"name": "dame", "type": 5, "value": true}
            ]}]),
        );
        assert_eq!(
            line,
            r#"/knight create "Alan the \"Bold\"" --top "lance, ride, shield" --psi cpk:20,negapsi:20 --monarch ragnar --dame"#
        );
        assert_eq!(
            command,
            Command::from(PsiCommand::CreateKnight(CreateKnight {
                name: "Alan the \"Bold\"".into(),
                top: vec![Skill::Lance, Skill::Ride, Skill::Shield],
                psi: vec![(PsiSkill::Cpk, 20), (PsiSkill::Negapsi, 20)],
                monarch: Monarch::Ragnar,
                style: Style::Dame,
            }))
        );
        let (line, command) = command_of(
            "knight",
            json!([{"name": "create", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Eoin"},
                {"name": "top", "type": 3, "value": "lance,ride,shield"},
                {"name": "psi", "type": 3, "value": "cpk:40"},
                {"name": "monarch", "type": 3, "value": "llewellyn"},
                {"name": "dame", "type": 5, "value": false}
            ]}]),
        );
        assert!(!line.contains("--dame"), "{line}");
        assert!(
            matches!(PsiCommand::of(&command), Some(PsiCommand::CreateKnight(k)) if k.style == Style::Sir)
        );
    }

    #[test]
    fn a_bare_entry_is_its_groups_show_subcommand() {
        let (line, command) = command_of(
            "knight",
            json!([{"name": "show", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Sir Alan"}
            ]}]),
        );
        assert_eq!(line, "/knight \"Sir Alan\"");
        assert_eq!(
            command,
            Command::from(PsiCommand::Knight {
                name: Some("Sir Alan".into())
            })
        );
        let (line, command) = command_of(
            "knight",
            json!([{"name": "show", "type": 1, "options": []}]),
        );
        assert_eq!(line, "/knight");
        assert_eq!(command, Command::from(PsiCommand::Knight { name: None }));
        let (line, command) = command_of(
            "tournament",
            json!([{"name": "show", "type": 1, "options": []}]),
        );
        assert_eq!(line, "/tournament");
        assert_eq!(command, Command::from(PsiCommand::Tournament));
    }

    #[test]
    fn numbers_and_choices_read_back() {
        let (_, command) = command_of(
            "ransom",
            json!([{"name": "pay", "type": 1, "options": [
                {"name": "knight", "type": 3, "value": "Alan"},
                {"name": "pp", "type": 10, "value": 2.5}
            ]}]),
        );
        assert_eq!(
            command,
            Command::from(PsiCommand::RansomPay {
                knight: "Alan".into(),
                pp: HalfPoints(5)
            })
        );
        let (line, command) = command_of(
            "admin",
            json!([{"name": "award", "type": 1, "options": [
                {"name": "knight", "type": 3, "value": "Alan"},
                {"name": "hp", "type": 10, "value": -1.5},
                {"name": "reason", "type": 3, "value": "won the \"Yule\" melee --top"}
            ]}]),
        );
        assert_eq!(line, "/admin award Alan -1.5 won the \"Yule\" melee --top");
        assert_eq!(
            command,
            Command::from(PsiCommand::AdminAward {
                knight: "Alan".into(),
                hp: HalfPoints(-3),
                reason: "won the \"Yule\" melee --top".into()
            })
        );
        let (_, command) = command_of(
            "spend",
            json!([{"name": "skill", "type": 3, "value": "cpk"}]),
        );
        assert_eq!(
            command,
            Command::from(PsiCommand::Spend {
                skill: AnySkill::Psi(PsiSkill::Cpk)
            })
        );
        let (_, command) = command_of("psi", json!([{"name": "skill", "type": 3, "value": "off"}]));
        assert_eq!(
            command,
            Command::from(PsiCommand::Decide(Decision::Psi(None)))
        );
        let (line, _) = command_of(
            "admin",
            json!([{"name": "revoke", "type": 1, "options": [
                {"name": "entry", "type": 4, "value": 42}
            ]}]),
        );
        assert_eq!(line, "/admin revoke 42");
    }

    #[test]
    fn flags_with_values_follow_the_positionals() {
        let (line, command) = command_of(
            "tournament",
            json!([{"name": "schedule", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Yule Lists"},
                {"name": "when", "type": 3, "value": "in 2h"},
                {"name": "melee", "type": 5, "value": true},
                {"name": "melee_minutes", "type": 4, "value": 30}
            ]}]),
        );
        assert_eq!(
            line,
            "/tournament schedule \"Yule Lists\" in 2h --melee --melee-minutes 30"
        );
        let Some(PsiCommand::TournamentSchedule(s)) = PsiCommand::of(&command) else {
            panic!("{command:?}")
        };
        assert!(s.melee && s.melee_minutes == Some(30));
        // A moment that would smuggle in an option is quoted, and the grammar refuses it.
        let sneaky = super::line(
            "tournament",
            &options(json!([{"name": "schedule", "type": 1, "options": [
                {"name": "name", "type": 3, "value": "Yule"},
                {"name": "when", "type": 3, "value": "in 2h --force"}
            ]}])),
        )
        .unwrap();
        assert_eq!(sneaky, "/tournament schedule Yule \"in 2h --force\"");
        assert!(matches!(parse(&sneaky, &['/']), Some(Err(_))));
        let (line, _) = command_of(
            "ledger",
            json!([{"name": "month", "type": 3, "value": "2026-12"}]),
        );
        assert_eq!(line, "/ledger --month 2026-12");
    }

    #[test]
    fn every_decision_is_a_bare_slash_command() {
        for word in [
            "sweep",
            "nosweep",
            "high",
            "low",
            "swordplay",
            "attack",
            "observe",
            "press",
            "block",
            "dodge",
            "parry",
            "yield",
        ] {
            let (line, command) = command_of(word, json!([]));
            assert_eq!(line, format!("/{word}"));
            assert!(
                matches!(PsiCommand::of(&command), Some(PsiCommand::Decide(_))),
                "{word}"
            );
        }
    }

    #[test]
    fn a_value_that_the_grammar_refuses_is_its_error() {
        // The line is built; the one grammar says what is wrong.
        let line = line(
            "ransom",
            &options(json!([{"name": "pay", "type": 1, "options": [
                {"name": "knight", "type": 3, "value": "Alan"},
                {"name": "pp", "type": 10, "value": 2.25}
            ]}])),
        )
        .unwrap();
        assert_eq!(line, "/ransom pay Alan 2.25");
        assert!(matches!(parse(&line, &['/']), Some(Err(_))));
    }

    #[test]
    fn stale_registrations_are_refused_with_a_reason() {
        assert_eq!(
            line("frobnicate", &[]),
            Err(LineError::UnknownCommand("frobnicate".into()))
        );
        assert_eq!(
            line(
                "roll",
                &options(json!([{"name": "sides", "type": 4, "value": 6}]))
            ),
            Err(LineError::UnknownOption {
                command: "roll".into(),
                option: "sides".into()
            })
        );
        assert!(matches!(
            line(
                "ransom",
                &options(json!([{"name": "steal", "type": 1, "options": []}]))
            ),
            Err(LineError::UnknownCommand(_))
        ));
        assert!(line("ransom", &[]).is_err());
    }

    #[test]
    fn private_answers_and_fight_moves_are_told_apart() {
        assert!(is_private("/honor"));
        assert!(is_private("/knight Alan"));
        assert!(is_private("/help roll"));
        assert!(is_private("/ransom pay Alan 2.25"), "mistakes are private");
        assert!(!is_private("/roll 100"));
        assert!(!is_private(
            "/knight create A --top lance,ride,shield --psi cpk:40 --monarch ragnar"
        ));
        assert!(is_fight_move("/sweep"));
        assert!(is_fight_move("/accept"));
        assert!(is_fight_move("/yield"));
        assert!(!is_fight_move("/psi cpk"));
        assert!(!is_fight_move("/bonus attack"));
        assert!(!is_fight_move("/roll 100"));
        // A seam game's own commands are answered in the open, and its decisions are moves.
        assert!(!is_private("/psicombat bo"));
        assert!(!is_private("/defend blank spells 3,2"));
        assert!(is_fight_move("/defend blank spells 3,2"));
        assert!(!is_fight_move("/creature create Ash --kind wild --hd 2"));
    }

    #[tokio::test]
    async fn knight_names_are_suggested_from_the_realms_books() {
        use crate::config::Config;
        use crate::store::Store;
        use herald_engine::psiknight::NewKnight;
        let store = Store::open_memory().await.unwrap();
        let app = App::new(store, Config::default(), Some(0)).unwrap();
        let realm = app.realm("1").await.unwrap();
        let other = app.realm("2").await.unwrap();
        for (realm, owner, name) in [
            (realm, "10", "Alan"),
            (realm, "11", "alba"),
            (realm, "12", "Brenna"),
            (other, "13", "Alaric"),
        ] {
            let sheet = NewKnight {
                name: name.into(),
                top: vec![Skill::Lance, Skill::Ride, Skill::Shield],
                psi: vec![(PsiSkill::Cpk, 40)],
                monarch: Monarch::Ragnar,
                style: Style::Sir,
            }
            .create()
            .unwrap();
            app.store
                .create_knight(realm, owner, &sheet, chrono::Utc::now())
                .await
                .unwrap();
        }
        let names = |typed: &'static str| {
            let app = &app;
            async move { knight_names(app, "1", typed).await.unwrap() }
        };
        assert_eq!(
            names("al").await,
            vec!["Alan", "alba"],
            "this realm's, by name"
        );
        assert_eq!(
            names("AL").await,
            vec!["Alan", "alba"],
            "case-insensitively"
        );
        assert_eq!(names("").await, vec!["Alan", "alba", "Brenna"]);
        assert_eq!(
            names("%").await,
            Vec::<String>::new(),
            "wildcards are literal"
        );
        assert_eq!(names("_lan").await, Vec::<String>::new());
    }

    #[test]
    fn autocomplete_knows_what_is_being_typed() {
        let opts = options(json!([{"name": "show", "type": 1, "options": [
            {"name": "name", "type": 3, "value": "Al", "focused": true}
        ]}]));
        let (arg, typed) = focused("knight", &opts).expect("focused");
        assert_eq!(arg.kind, ArgKind::Knight);
        assert_eq!(typed, "Al");
        assert_eq!(topics("ro"), vec!["roll".to_string()]);
        assert!(topics("/ransom").len() == 4);
        assert_eq!(topics("").len(), MAX_SUGGESTIONS);
    }
}
