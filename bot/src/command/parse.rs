//! The parser: a line becomes a [`Command`] through the table, its arguments read by kind and
//! collected by name for the entry's builder.

use super::*;
use std::collections::{HashMap, HashSet};

/// Reads a line. `None`: not a command (ordinary chat). `Some(Ok)`: a command.
/// `Some(Err)`: a command that is wrong, with a one-line reply that gives the usage.
///
/// A line is a command when, after leading spaces, it starts with one of `prefixes` followed by
/// a letter ([`DEFAULT_PREFIXES`] are `/` and `!`). Never panics, whatever the input.
pub fn parse(line: &str, prefixes: &[char]) -> Option<Result<Command, ParseError>> {
    let line = line.trim();
    let mut chars = line.chars();
    let prefix = chars.next()?;
    if !prefixes.contains(&prefix) || !chars.next().is_some_and(char::is_alphabetic) {
        return None;
    }
    let body = line.get(prefix.len_utf8()..)?;
    Some(parse_body(line, body, prefix, &[COMMANDS]))
}

/// Reads a line in a channel by its game's table: an entry of `table` first, else one of the
/// commands every game shares ([`SHARED`]); a word of neither is unknown here (the hub then
/// names the game it belongs to), and a mistyped one is suggested from both. A game whose
/// table is [`COMMANDS`] itself (the shared commands among its own) is read once, by
/// [`parse`].
pub fn parse_in(
    line: &str,
    prefixes: &[char],
    table: &'static [CommandSpec],
) -> Option<Result<Command, ParseError>> {
    if std::ptr::eq(table, COMMANDS) {
        return parse(line, prefixes);
    }
    let trimmed = line.trim();
    let mut chars = trimmed.chars();
    let prefix = chars.next()?;
    if !prefixes.contains(&prefix) || !chars.next().is_some_and(char::is_alphabetic) {
        return None;
    }
    let body = trimmed.get(prefix.len_utf8()..)?;
    if trimmed.chars().nth(MAX_LINE_CHARS).is_none() {
        let mut lexer = Lexer::new(body);
        if let Some(spec) = lookup_in(&mut lexer, table) {
            return Some(
                read_args(spec, &mut lexer)
                    .map_err(|kind| ParseError::new(kind, Context::Spec(spec), prefix, true)),
            );
        }
    }
    Some(parse_body(trimmed, body, prefix, &[table, &SHARED]))
}

/// The entry of `table` named by the line's first one or two words, consuming them.
pub(crate) fn lookup_in(
    lexer: &mut Lexer<'_>,
    table: &'static [CommandSpec],
) -> Option<&'static CommandSpec> {
    let mut ahead = *lexer;
    let w1 = ahead.next_token().ok()??.text.to_lowercase();
    let w2 = ahead
        .peek()
        .filter(|t| !t.quoted)
        .map(|t| t.text.to_lowercase());
    if let Some(w2) = w2 {
        let phrase = format!("{w1} {w2}");
        if let Some(spec) = named(&[table], 2, &phrase) {
            let _ = lexer.next_token();
            let _ = lexer.next_token();
            return Some(spec);
        }
    }
    let spec = named(&[table], 1, &w1)?;
    let _ = lexer.next_token();
    Some(spec)
}

/// A table's entries by their words, made once for each table a channel reads: every line
/// looks its first words up in its tables, which compared them with every entry in turn.
struct Index {
    table: &'static [CommandSpec],
    /// The first one-word entry each word or alias names.
    one: HashMap<&'static str, &'static CommandSpec>,
    /// The first two-word entry each phrase (`knight create`) or alias names.
    two: HashMap<String, &'static CommandSpec>,
    /// The first words of the two-word entries (`knight`).
    groups: HashSet<&'static str>,
}

impl Index {
    fn of(table: &'static [CommandSpec]) -> Index {
        let mut index = Index {
            table,
            one: HashMap::new(),
            two: HashMap::new(),
            groups: HashSet::new(),
        };
        // The first entry a word names, as a search in table order finds it.
        for spec in table {
            match spec.path.len() {
                1 => {
                    for word in spec.path.iter().chain(spec.aliases) {
                        index.one.entry(word).or_insert(spec);
                    }
                }
                2 => {
                    index.two.entry(spec.name()).or_insert(spec);
                    for alias in spec.aliases {
                        index.two.entry((*alias).to_string()).or_insert(spec);
                    }
                    index.groups.insert(spec.first_word());
                }
                _ => {}
            }
        }
        index
    }
}

/// The index of `table`, if it is one of the tables channels read (every game's, the shared
/// commands, [`COMMANDS`]); another is searched entry by entry.
fn index_of(table: &'static [CommandSpec]) -> Option<&'static Index> {
    static INDEXES: std::sync::OnceLock<Vec<Index>> = std::sync::OnceLock::new();
    INDEXES
        .get_or_init(|| {
            let mut tables: Vec<&'static [CommandSpec]> = vec![COMMANDS, &SHARED];
            tables.extend(crate::games::GAMES.iter().map(|g| (g.commands)()));
            let mut indexes: Vec<Index> = Vec::with_capacity(tables.len());
            for table in tables {
                if !indexes.iter().any(|i| std::ptr::eq(i.table, table)) {
                    indexes.push(Index::of(table));
                }
            }
            indexes
        })
        .iter()
        .find(|i| std::ptr::eq(i.table, table))
}

/// The first entry of `tables` of `words` words that `phrase` names ([`CommandSpec::is`]).
pub(crate) fn named(
    tables: Tables<'_>,
    words: usize,
    phrase: &str,
) -> Option<&'static CommandSpec> {
    tables
        .iter()
        .find_map(|&table| match (index_of(table), words) {
            (Some(index), 1) => index.one.get(phrase).copied(),
            (Some(index), 2) => index.two.get(phrase).copied(),
            _ => table.iter().find(|s| s.path.len() == words && s.is(phrase)),
        })
}

/// The first table of `tables` with two-word entries whose first word is `word`, and that word.
pub(crate) fn group_of(
    tables: Tables<'_>,
    word: &str,
) -> Option<(&'static str, &'static [CommandSpec])> {
    tables.iter().find_map(|&table| {
        let first = match index_of(table) {
            Some(index) => index.groups.get(word).copied(),
            None => table
                .iter()
                .find(|s| s.path.len() == 2 && s.first_word() == word)
                .map(|s| s.first_word()),
        };
        first.map(|first| (first, table))
    })
}

/// The tables a line is read by, in order: a word is looked up in each.
pub(crate) type Tables<'t> = &'t [&'static [CommandSpec]];

pub(crate) fn parse_body(
    line: &str,
    body: &str,
    prefix: char,
    tables: Tables<'_>,
) -> Result<Command, ParseError> {
    if line.chars().nth(MAX_LINE_CHARS).is_some() {
        // Name the command if its first words are recognisable, without reading the whole line.
        let head: String = body.chars().take(80).collect();
        let (context, labelled) = match lookup(&mut Lexer::new(&head), tables) {
            Ok(spec) => (Context::Spec(spec), true),
            Err((kind, context)) => (context, !is_unknown_command(&kind)),
        };
        let kind = ParseErrorKind::TooLong {
            max: MAX_LINE_CHARS,
        };
        return Err(ParseError::new(kind, context, prefix, labelled));
    }
    let mut lexer = Lexer::new(body);
    let spec = lookup(&mut lexer, tables).map_err(|(kind, context)| {
        let labelled = !is_unknown_command(&kind);
        ParseError::new(kind, context, prefix, labelled)
    })?;
    read_args(spec, &mut lexer)
        .map_err(|kind| ParseError::new(kind, Context::Spec(spec), prefix, true))
}

pub(crate) fn is_unknown_command(kind: &ParseErrorKind) -> bool {
    matches!(kind, ParseErrorKind::UnknownCommand { .. })
}

/// Finds the table entry for the first one or two words, consuming them.
pub(crate) fn lookup(
    lexer: &mut Lexer<'_>,
    tables: Tables<'_>,
) -> Result<&'static CommandSpec, (ParseErrorKind, Context)> {
    let first = match lexer.next_token() {
        Ok(Some(t)) => t,
        Ok(None) => {
            let kind = ParseErrorKind::UnknownCommand {
                word: String::new(),
                suggestion: None,
            };
            return Err((kind, Context::Help));
        }
        Err(kind) => return Err((kind, Context::Help)),
    };
    let w1 = first.text.to_lowercase();
    let w2 = lexer
        .peek()
        .filter(|t| !t.quoted)
        .map(|t| t.text.to_lowercase());
    if let Some(w2) = &w2 {
        let phrase = format!("{w1} {w2}");
        if let Some(spec) = named(tables, 2, &phrase) {
            // Consume the second word, which peek has read successfully.
            let _ = lexer.next_token();
            return Ok(spec);
        }
    }
    let base = named(tables, 1, &w1);
    let group = group_of(tables, &w1);
    match (base, group) {
        (Some(spec), Some((group, table)))
            if w2.is_some() && spec.positionals().next().is_none() =>
        {
            Err((
                unknown_action(group, w2.as_deref(), table),
                Context::Group(group, table),
            ))
        }
        (Some(spec), _) => Ok(spec),
        (None, Some((group, table))) => Err((
            unknown_action(group, w2.as_deref(), table),
            Context::Group(group, table),
        )),
        (None, None) => {
            let suggestion = suggest(&w1, tables);
            let context = match suggestion {
                Some((_, context)) => context,
                None => Context::Help,
            };
            let kind = ParseErrorKind::UnknownCommand {
                word: shown(&first.text),
                suggestion: suggestion.map(|(s, _)| s),
            };
            Err((kind, context))
        }
    }
}

pub(crate) fn unknown_action(
    group: &'static str,
    word: Option<&str>,
    table: &'static [CommandSpec],
) -> ParseErrorKind {
    let subs: Vec<&str> = table
        .iter()
        .filter(|s| s.path.len() == 2 && s.first_word() == group)
        .filter_map(|s| s.path.get(1).copied())
        .collect();
    ParseErrorKind::UnknownAction {
        word: word.map(shown),
        expected: join_or(&subs),
    }
}

/// The nearest command to a mistyped word: by edit distance (at most 2), or a word it begins
/// (`tourn`). Second words count too, so `/award` suggests `admin award`.
pub(crate) fn suggest(word: &str, tables: Tables<'_>) -> Option<(String, Context)> {
    let word_chars = word.chars().count();
    if word_chars == 0 || word_chars > 32 {
        return None;
    }
    // The best so far: distance, entry, its table, and whether its second word matched.
    let mut best: Option<(usize, &'static CommandSpec, &'static [CommandSpec], bool)> = None;
    for (table, spec) in tables.iter().flat_map(|t| t.iter().map(move |s| (*t, s))) {
        let words = std::iter::once((spec.first_word(), false))
            .chain(spec.aliases.iter().map(|a| (*a, false)))
            .chain(spec.path.get(1).map(|s| (*s, true)));
        for (candidate, second) in words {
            let d = if word.len() >= 3 && candidate.starts_with(word) {
                1
            } else if candidate.chars().count().abs_diff(word_chars) > 2 {
                // The distance is at least the difference in length.
                continue;
            } else {
                edit_distance(word, candidate)
            };
            if d <= 2 && best.is_none_or(|(b, _, _, _)| d < b) {
                best = Some((d, spec, table, second));
            }
        }
    }
    let (_, spec, table, second) = best?;
    if second {
        return Some((spec.name(), Context::Spec(spec)));
    }
    let first = spec.first_word();
    let has_group = table
        .iter()
        .any(|s| s.path.len() == 2 && s.first_word() == first);
    let context = if has_group {
        Context::Group(first, table)
    } else {
        Context::Spec(spec)
    };
    Some((first.to_string(), context))
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbours (`jousr`, `josut`) each cost one.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        d[at(i, 0)] = i;
    }
    for j in 0..=b.len() {
        d[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[at(i - 1, j)] + 1)
                .min(d[at(i, j - 1)] + 1)
                .min(d[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[at(i - 2, j - 2)] + 1);
            }
            d[at(i, j)] = v;
        }
    }
    d[at(a.len(), b.len())]
}

/// The canonical form of a `/help` topic: `rol` is `roll`, `/knight  Create` is `knight create`,
/// `ransom` is the ransom group.
pub(crate) fn help_topic(text: &str) -> Result<String, ParseErrorKind> {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            if i == 0 {
                w.trim_start_matches(['/', '!'])
            } else {
                w
            }
        })
        .filter(|w| !w.is_empty())
        .collect();
    let phrase = words.join(" ");
    if let Some(spec) = COMMANDS.iter().find(|s| s.is(&phrase)) {
        return Ok(spec.name());
    }
    if let [word] = words.as_slice() {
        if let Some(spec) = COMMANDS.iter().find(|s| s.first_word() == *word) {
            return Ok(spec.first_word().to_string());
        }
    }
    Err(ParseErrorKind::UnknownCommand {
        word: shown(&phrase),
        suggestion: words
            .first()
            .and_then(|w| suggest(w, &[COMMANDS]))
            .map(|(s, _)| s),
    })
}

/// Reads an entry's arguments from the rest of the line, then builds its command.
pub(crate) fn read_args(
    spec: &'static CommandSpec,
    lexer: &mut Lexer<'_>,
) -> Result<Command, ParseErrorKind> {
    let mut values = Values::default();
    let mut positionals = spec.positionals();
    let mut next_positional = positionals.next();
    // The greedy argument being extended with more words, until an option interrupts it.
    let mut open: Option<&'static ArgSpec> = None;
    loop {
        if let Some(arg) = next_positional.filter(|a| a.kind.is_rest_of_line()) {
            let rest = unquote_whole(lexer.take_rest());
            if !rest.is_empty() {
                values.push(arg.name, Value::Text(rest));
            }
            break;
        }
        let Some(token) = lexer.next_token()? else {
            break;
        };
        if let Some((name, inline)) = token.as_option() {
            open = None;
            let arg = spec
                .args
                .iter()
                .find(|a| a.flag == Some(name.as_str()))
                .ok_or_else(|| unknown_option(spec, &token.text))?;
            if values.has(arg.name) {
                return Err(ParseErrorKind::Repeated { label: arg.label });
            }
            if arg.kind == ArgKind::Switch {
                if inline.is_some() {
                    return Err(ParseErrorKind::SwitchValue { label: arg.label });
                }
                values.push(arg.name, Value::Switch);
                continue;
            }
            let value_token = match inline {
                Some(text) if !text.is_empty() => Token {
                    text,
                    quoted: false,
                },
                Some(_) => return Err(no_value(arg)),
                None => match lexer.next_token()? {
                    Some(t) if t.as_option().is_none() => t,
                    _ => return Err(no_value(arg)),
                },
            };
            let value = read_value(arg, value_token, lexer)?;
            values.push(arg.name, value);
            continue;
        }
        if let Some(arg) = open {
            values.extend_text(arg.name, &token.text);
            continue;
        }
        let Some(arg) = next_positional else {
            let word = if token.quoted {
                quote(&token.text)
            } else {
                token.text
            };
            return Err(ParseErrorKind::Unexpected { word: shown(&word) });
        };
        let value = read_value(arg, token, lexer)?;
        values.push(arg.name, value);
        if arg.greedy {
            open = Some(arg);
        }
        next_positional = positionals.next();
    }
    if let Some(arg) = spec.args.iter().find(|a| a.required && !values.has(a.name)) {
        return Err(missing(arg));
    }
    let mut command = (spec.build)(&values)?;
    if let Command::Game(g) = &mut command {
        g.name = spec.name();
    }
    Ok(command)
}

pub(crate) fn missing(arg: &ArgSpec) -> ParseErrorKind {
    ParseErrorKind::Missing {
        label: arg.label,
        about: arg.about,
        example: arg.example,
    }
}

pub(crate) fn no_value(arg: &ArgSpec) -> ParseErrorKind {
    ParseErrorKind::NoValue {
        label: arg.label,
        example: arg.example,
    }
}

pub(crate) fn unknown_option(spec: &CommandSpec, word: &str) -> ParseErrorKind {
    let flags: Vec<&str> = spec.args.iter().filter_map(|a| a.flag).collect();
    let known = if flags.is_empty() {
        "this command takes no options".to_string()
    } else {
        format!("this command takes {}", join_or(&flags))
    };
    ParseErrorKind::UnknownOption {
        word: shown(word),
        known,
    }
}

/// A rest-of-line text wholly in quotes loses them: `"won the melee"` is `won the melee`.
pub(crate) fn unquote_whole(rest: &str) -> String {
    let mut lexer = Lexer::new(rest);
    if let Ok(Some(token)) = lexer.next_token() {
        if token.quoted && lexer.remaining().trim().is_empty() {
            return token.text.trim().to_string();
        }
    }
    rest.to_string()
}

/// A comma-separated list may be written with spaces after the commas (`lance, ride, shield`):
/// words are joined while one ends or the next begins with a comma.
pub(crate) fn continue_list(first: String, lexer: &mut Lexer<'_>) -> String {
    let mut text = first;
    while let Some(next) = lexer.peek() {
        if next.as_option().is_some() || !(text.ends_with(',') || next.text.starts_with(',')) {
            break;
        }
        let _ = lexer.next_token();
        text.push_str(&next.text);
    }
    text
}

pub(crate) fn list_items(text: &str) -> impl Iterator<Item = &str> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Reads one argument's value from its first word (and, for lists and times, the words that
/// belong with it).
pub(crate) fn read_value(
    arg: &ArgSpec,
    token: Token,
    lexer: &mut Lexer<'_>,
) -> Result<Value, ParseErrorKind> {
    let word = token.text.trim();
    if word.is_empty() {
        return Err(missing(arg));
    }
    match arg.kind {
        ArgKind::Text | ArgKind::Knight | ArgKind::Target | ArgKind::Topic => {
            Ok(Value::Text(word.to_string()))
        }
        ArgKind::Game(kind) if kind.list => {
            let text = continue_list(token.text, lexer);
            if list_items(&text).next().is_none() {
                return Err(missing(arg));
            }
            (kind.read)(&text).map(Value::Game)
        }
        ArgKind::Game(kind) => (kind.read)(word).map(Value::Game),
        ArgKind::Choice(words) => words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(word))
            .copied()
            .map(Value::Choice)
            .ok_or_else(|| bad_choice(word, words)),
        ArgKind::Number { min, max } => parse_digits(word, 10)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (min..=max).contains(n))
            .map(Value::Number)
            .ok_or_else(|| ParseErrorKind::BadNumber {
                label: arg.label,
                word: shown(word),
                min,
                max,
            }),
        ArgKind::Points | ArgKind::SignedPoints if too_many_points(word) => {
            Err(ParseErrorKind::TooManyPoints {
                label: arg.label,
                word: shown(word),
                max: MAX_POINTS,
            })
        }
        ArgKind::Points => parse_half_points(word)
            .filter(|h| *h > 0)
            .map(|h| Value::Points(HalfPoints(h)))
            .ok_or_else(|| ParseErrorKind::BadPoints {
                label: arg.label,
                word: shown(word),
                what: "a number of points above 0, whole or half",
            }),
        ArgKind::SignedPoints => parse_half_points(word)
            .map(|h| Value::Points(HalfPoints(h)))
            .ok_or_else(|| ParseErrorKind::BadPoints {
                label: arg.label,
                word: shown(word),
                what: "a number of whole or half points, negative to take away",
            }),
        ArgKind::EntryId => parse_digits(word.strip_prefix('#').unwrap_or(word), 18)
            .filter(|n| *n > 0)
            .map(Value::Entry)
            .ok_or_else(|| ParseErrorKind::BadEntry { word: shown(word) }),
        ArgKind::Month => parse_month(word)
            .map(Value::Month)
            .ok_or_else(|| ParseErrorKind::BadMonth { word: shown(word) }),
        ArgKind::When => read_when(word, lexer).map(Value::When),
        ArgKind::Dice | ArgKind::Reason | ArgKind::Switch => {
            Err(ParseErrorKind::Internal(arg.name))
        }
    }
}

pub(crate) fn bad_choice(word: &str, words: &[&str]) -> ParseErrorKind {
    ParseErrorKind::BadChoice {
        word: shown(word),
        expected: join_or(words),
    }
}

/// Plain ASCII digits, at most `max_len` of them (so the value cannot overflow a u64).
pub(crate) fn parse_digits(word: &str, max_len: usize) -> Option<u64> {
    if word.is_empty() || word.len() > max_len || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// A number of points written right but beyond [`MAX_POINTS`]: `999999999999`, `-2000000.5`.
pub(crate) fn too_many_points(word: &str) -> bool {
    let body = word.strip_prefix(['-', '+', '\u{2212}']).unwrap_or(word);
    let whole = body.split_once('.').map_or(body, |(w, _)| w);
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let digits = whole.trim_start_matches('0');
    digits.len() > 7 || digits.parse::<i64>().is_ok_and(|n| n > MAX_POINTS)
}

/// `2` → 4 halves, `2.5` → 5, `-1.5` → -3, `.5` → 1; anything finer than a half is refused.
pub(crate) fn parse_half_points(word: &str) -> Option<i64> {
    let (negative, body) = match word.strip_prefix(['-', '\u{2212}']) {
        Some(b) => (true, b),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let whole = if whole.is_empty() {
        0
    } else {
        i64::try_from(parse_digits(whole, 7)?).ok()?
    };
    let half = match fraction {
        "" | "0" | "00" => 0,
        "5" | "50" => 1,
        _ => return None,
    };
    if whole > MAX_POINTS {
        return None;
    }
    let halves = whole * 2 + half;
    Some(if negative { -halves } else { halves })
}

pub(crate) fn parse_month(word: &str) -> Option<YearMonth> {
    let (year, month) = word.split_once('-')?;
    if year.len() != 4 || month.is_empty() || month.len() > 2 {
        return None;
    }
    let year = i32::try_from(parse_digits(year, 4)?).ok()?;
    let month = u32::try_from(parse_digits(month, 2)?).ok()?;
    (1..=12)
        .contains(&month)
        .then_some(YearMonth { year, month })
}

pub(crate) const WHEN_FORMS: &str = "write 2026-12-05T18:00 (realm time), 2026-12-05T18:00Z (UTC) or a delay such as in 2h, in 1h30m or in 1d";

/// A moment or a delay, from one word (`2026-12-05T18:00Z`, `2h`) or more (`in 1h 30m`,
/// `2026-12-05 18:00`).
pub(crate) fn read_when(word: &str, lexer: &mut Lexer<'_>) -> Result<When, ParseErrorKind> {
    let bad = |word: &str, why| ParseErrorKind::BadWhen {
        word: shown(word),
        why,
    };
    let starts_with_digit =
        |t: &Token| !t.quoted && t.text.starts_with(|c: char| c.is_ascii_digit());
    // A delay quoted as one word: "in 2h", "in 1h 30m".
    if let Some(rest) = word
        .get(..3)
        .filter(|head| head.eq_ignore_ascii_case("in "))
        .map(|_| &word[3..])
    {
        let delay: String = rest.split_whitespace().collect();
        if delay.is_empty() {
            return Err(bad("in", "say how long, such as in 2h or in 1h30m"));
        }
        return parse_delay(&delay)
            .map(When::In)
            .map_err(|why| bad(&delay, why));
    }
    if word.eq_ignore_ascii_case("in") {
        let mut delay = String::new();
        while let Some(next) = lexer.peek().filter(starts_with_digit) {
            let _ = lexer.next_token();
            delay.push_str(&next.text);
        }
        if delay.is_empty() {
            return Err(bad("in", "say how long, such as in 2h or in 1h30m"));
        }
        return parse_delay(&delay)
            .map(When::In)
            .map_err(|why| bad(&delay, why));
    }
    if !word.contains(['-', ':']) && word.starts_with(|c: char| c.is_ascii_digit()) {
        return parse_delay(word)
            .map(When::In)
            .map_err(|why| bad(word, why));
    }
    let mut text = word.to_string();
    // A date and a time as two words.
    if word.len() == 10 && !word.contains(['T', 't']) {
        if let Some(time) = lexer
            .peek()
            .filter(|t| starts_with_digit(t) && t.text.contains(':'))
        {
            let _ = lexer.next_token();
            text = format!("{word}T{}", time.text);
        }
    }
    parse_moment(&text).ok_or_else(|| bad(&text, WHEN_FORMS))
}

pub(crate) fn parse_moment(text: &str) -> Option<When> {
    let upper = text.to_ascii_uppercase();
    let naive = |s: &str| {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f")
            .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M"))
            .ok()
    };
    if let Some(utc) = upper.strip_suffix('Z') {
        return naive(utc).map(|n| When::At(Utc.from_utc_datetime(&n)));
    }
    let zoned = [
        "%Y-%m-%dT%H:%M:%S%.f%:z",
        "%Y-%m-%dT%H:%M%:z",
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
    ]
    .iter()
    .find_map(|f| DateTime::parse_from_str(&upper, f).ok());
    if let Some(at) = zoned {
        return Some(When::At(at.with_timezone(&Utc)));
    }
    naive(&upper).map(When::Local)
}

/// `2h`, `30m`, `1d`, `1h30m`: numbers each followed by d, h or m.
pub(crate) fn parse_delay(text: &str) -> Result<Duration, &'static str> {
    const UNITS: &str = "give each number a unit, d, h or m, such as in 2h or in 1h30m";
    let mut total: u64 = 0;
    let mut number: Option<u64> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = number
                .unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(u64::from(d));
            number = Some(n.min(MAX_DELAY_SECS + 1));
            continue;
        }
        let unit = match c.to_ascii_lowercase() {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            _ => return Err(UNITS),
        };
        let n = number.take().ok_or(UNITS)?;
        total = total.saturating_add(n.saturating_mul(unit));
    }
    if number.is_some() {
        return Err(UNITS);
    }
    if total == 0 {
        return Err("the delay must be more than nothing");
    }
    if total > MAX_DELAY_SECS {
        return Err("a tournament may be scheduled at most a year ahead");
    }
    Ok(Duration::from_secs(total))
}

/// One argument's value, as read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Text(String),
    Game(GameValue),
    Choice(&'static str),
    Number(u32),
    Points(HalfPoints),
    Entry(u64),
    Month(YearMonth),
    When(When),
    Switch,
}

/// The arguments read for one command, by their [`ArgSpec::name`].
#[derive(Debug, Default)]
pub(crate) struct Values {
    pub(crate) items: Vec<(&'static str, Value)>,
}

impl Values {
    /// The arguments as a game's command reads them: each as text. Its name is set by
    /// [`read_args`], which knows the entry.
    pub(crate) fn game_command(&self) -> GameCommand {
        let args = self
            .items
            .iter()
            .map(|(n, v)| {
                let text = match v {
                    Value::Text(t) => t.clone(),
                    Value::Choice(c) => c.to_string(),
                    Value::Number(n) => n.to_string(),
                    Value::Switch => String::new(),
                    other => format!("{other:?}"),
                };
                (n.to_string(), text)
            })
            .collect();
        GameCommand {
            name: String::new(),
            args,
        }
    }

    pub(crate) fn push(&mut self, name: &'static str, value: Value) {
        self.items.push((name, value));
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.items.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub(crate) fn extend_text(&mut self, name: &str, word: &str) {
        if let Some((_, Value::Text(text))) = self.items.iter_mut().find(|(n, _)| *n == name) {
            text.push(' ');
            text.push_str(word);
        }
    }

    /// A required argument; its absence was reported before the build, so here it is a fault
    /// of the table.
    pub(crate) fn req<T: FromValue>(&self, name: &'static str) -> Result<T, ParseErrorKind> {
        self.get(name)
            .and_then(T::from_value)
            .ok_or(ParseErrorKind::Internal(name))
    }

    /// A required argument of a kind a game defines ([`ArgKind::Game`]), in the type its
    /// reader made.
    pub(crate) fn game<T: Any + Clone>(&self, name: &'static str) -> Result<T, ParseErrorKind> {
        match self.get(name) {
            Some(Value::Game(v)) => v.get::<T>().cloned().ok_or(ParseErrorKind::Internal(name)),
            _ => Err(ParseErrorKind::Internal(name)),
        }
    }

    /// An optional argument.
    pub(crate) fn opt<T: FromValue>(
        &self,
        name: &'static str,
    ) -> Result<Option<T>, ParseErrorKind> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => T::from_value(v)
                .map(Some)
                .ok_or(ParseErrorKind::Internal(name)),
        }
    }
}

/// A Rust value an argument can be read as.
pub(crate) trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

macro_rules! from_value {
    ($t:ty, $variant:ident) => {
        impl FromValue for $t {
            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::$variant(v) => Some(v.clone()),
                    _ => None,
                }
            }
        }
    };
}

from_value!(String, Text);
from_value!(&'static str, Choice);
from_value!(u32, Number);
from_value!(HalfPoints, Points);
from_value!(u64, Entry);
from_value!(YearMonth, Month);
from_value!(When, When);
