//! Dice expressions for `/roll`: parsing and rolling, bounded so no expression can run away.
//!
//! The chat command `/roll EXPR` (also `/rol EXPR`) is open to anyone at any time. Its grammar:
//!
//! ```text
//! expr     = number                     a bare number N alone is 1dN: `/roll 100` is 1d100
//!          | term (("+" | "-") term)*
//! term     = dice | number
//! dice     = [number] ("d" | "D") (number | "%") modifier*
//! modifier = "!"                        exploding: a die showing its maximum rolls again, added
//!          | ("k" | "kh" | "kl") number keep the highest (k, kh) or lowest (kl) that many dice
//! ```
//!
//! Letters are case-insensitive; spaces and tabs may stand around the `+` and `-` between terms
//! (and at either end), but not inside a term. `d%` is `d100`; a missing count is 1.
//!
//! Every expression is bounded before a die is rolled, so no input can ask for unbounded work:
//! at most [`MAX_CHARS`] characters, [`MAX_TERMS`] terms and [`MAX_DICE`] dice (the sum of the
//! counts), dice of [`MIN_SIDES`] to [`MAX_SIDES`] sides, numbers that fit a `u32`, and at most
//! [`MAX_EXPLOSIONS`] extra dice from explosions in one roll (the roll then stops exploding and
//! [`Rolled`] says so). A d1 is refused, so `1d1!` can never loop. With these bounds no total can
//! come near the range of an `i64`.
//!
//! Rolling takes every die from a [`RollSource`], left to right, an exploding die's extra rolls
//! right after it, so scripted dice give exact results. The hot path does not allocate for small
//! expressions: terms and the shown faces live in small inline buffers, and only the first dice
//! of each group are kept for the breakdown (see [`Rolled`]).

use crate::dice::RollSource;
use serde::{Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The most characters an expression may have.
pub const MAX_CHARS: usize = 200;
/// The most terms (dice groups and numbers) an expression may have.
pub const MAX_TERMS: usize = 20;
/// The most dice an expression may roll, summed over its dice groups (explosions not counted).
pub const MAX_DICE: u32 = 1000;
/// The fewest sides a die may have. A d1 is refused: it says nothing, and could never stop
/// exploding.
pub const MIN_SIDES: u32 = 2;
/// The most sides a die may have.
pub const MAX_SIDES: u32 = 1_000_000;
/// The most extra dice explosions may add to one roll of a whole expression. Past it, dice that
/// show their maximum no longer explode.
pub const MAX_EXPLOSIONS: u32 = 100;

/// How many dice of one group the breakdown lists before summarising the rest.
const SHOW_PER_GROUP: u16 = 20;
/// How many dice of the whole expression the breakdown lists, so a reply stays one short line.
const SHOW_TOTAL: u16 = 40;

// ---------------------------------------------------------------------------------------------
// Errors

/// Why an expression was refused. Each carries the column (1-based, in characters) where the
/// trouble starts; its `Display` is one line a player can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Something other than what the grammar allows at this point.
    #[error("at column {column}: expected {}, found {found} (try {})", .expected.what(), .expected.example())]
    Unexpected {
        /// Where, 1-based.
        column: usize,
        /// What would have been understood here.
        expected: Expectation,
        /// What was there instead.
        found: Found,
    },
    /// A number does not fit in 32 bits.
    #[error("at column {column}: that number is far too large")]
    NumberTooLarge {
        /// Where the number starts, 1-based.
        column: usize,
    },
    /// A dice group of zero dice (`0d6`).
    #[error("at column {column}: roll at least one die (try 1d6)")]
    NoDice {
        /// Where the count starts, 1-based.
        column: usize,
    },
    /// More than [`MAX_DICE`] dice in the whole expression.
    #[error("at column {column}: that makes {count} dice; at most 1000 can be rolled at once")]
    TooManyDice {
        /// Where the dice group that goes over the limit starts, 1-based.
        column: usize,
        /// How many dice the expression would have rolled up to and including that group.
        count: u64,
    },
    /// A die with fewer than [`MIN_SIDES`] or more than [`MAX_SIDES`] sides.
    #[error("at column {column}: a die has 2 to 1,000,000 sides, not {sides}")]
    Sides {
        /// Where the number of sides starts, 1-based.
        column: usize,
        /// The number of sides asked for.
        sides: u32,
    },
    /// A keep count of zero or more than the dice in the group (`4d6kh5`).
    #[error("at column {column}: can keep 1 to {count} of {count} dice, not {keep}")]
    Keep {
        /// Where the keep count starts, 1-based.
        column: usize,
        /// The keep count asked for.
        keep: u32,
        /// The dice in the group.
        count: u32,
    },
    /// The same modifier twice on one dice group (`2d6!!`, `4d6kh3kl1`).
    #[error("at column {column}: '{modifier}' is given twice for the same dice")]
    Repeated {
        /// Where the second one starts, 1-based.
        column: usize,
        /// `!` or `k`.
        modifier: char,
    },
    /// More than [`MAX_TERMS`] terms.
    #[error("at column {column}: too many terms; at most 20 dice groups and numbers")]
    TooManyTerms {
        /// Where the first term past the limit starts, 1-based.
        column: usize,
    },
    /// More than [`MAX_CHARS`] characters.
    #[error("at column {column}: too long; a roll has at most 200 characters")]
    TooLong {
        /// The first column past the limit (201).
        column: usize,
    },
}

impl NotationError {
    /// The column (1-based, counted in characters) where the trouble starts.
    pub fn column(&self) -> usize {
        match *self {
            NotationError::Unexpected { column, .. }
            | NotationError::NumberTooLarge { column }
            | NotationError::NoDice { column }
            | NotationError::TooManyDice { column, .. }
            | NotationError::Sides { column, .. }
            | NotationError::Keep { column, .. }
            | NotationError::Repeated { column, .. }
            | NotationError::TooManyTerms { column }
            | NotationError::TooLong { column } => column,
        }
    }
}

/// What the parser would have understood where it stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// A term: a number or dice (at the start, or after `+` or `-`).
    Term,
    /// The number of sides after `d`.
    Sides,
    /// The number of dice to keep after `k`, `kh` or `kl`.
    KeepCount,
    /// What may follow a number: `d`, `+` or `-`.
    AfterNumber,
    /// What may follow dice: `+`, `-`, `!` or `k`.
    AfterDice,
}

impl Expectation {
    /// What was expected, in a player's words.
    pub fn what(self) -> &'static str {
        match self {
            Expectation::Term => "a number or dice",
            Expectation::Sides => "a number of sides after 'd'",
            Expectation::KeepCount => "how many dice to keep after 'k'",
            Expectation::AfterNumber => "'d', '+' or '-' after a number",
            Expectation::AfterDice => "'+', '-', '!' or 'k' after dice",
        }
    }

    /// An expression that shows the expected form.
    pub fn example(self) -> &'static str {
        match self {
            Expectation::Term | Expectation::Sides => "1d100",
            Expectation::KeepCount => "4d6kh3",
            Expectation::AfterNumber => "2d6+3",
            Expectation::AfterDice => "2d10!+1",
        }
    }
}

/// What stood where the parser stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    /// The end of the expression.
    End,
    /// This character.
    Char(char),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("nothing"),
            // Debug quotes the character and escapes control characters, so junk stays visible.
            Found::Char(c) => write!(f, "{c:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions

/// Whether a term is added or subtracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sign {
    /// Added to the total.
    Plus,
    /// Subtracted from the total.
    Minus,
}

/// Which dice of a group count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// Keep this many of the highest dice (`kh3`, or `k3`).
    Highest(u16),
    /// Keep this many of the lowest dice (`kl1`).
    Lowest(u16),
}

impl Keep {
    /// How many dice are kept.
    pub fn count(self) -> u16 {
        match self {
            Keep::Highest(n) | Keep::Lowest(n) => n,
        }
    }
}

/// A group of like dice: `NdM` with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Dice {
    /// How many dice: 1 to [`MAX_DICE`].
    pub count: u16,
    /// Sides of each die: [`MIN_SIDES`] to [`MAX_SIDES`].
    pub sides: u32,
    /// Whether a die showing its maximum is rolled again and added (`!`).
    pub explode: bool,
    /// Which dice count, if not all of them.
    pub keep: Option<Keep>,
}

impl Dice {
    /// How many dice add to the group's total.
    fn kept(self) -> u16 {
        self.keep.map_or(self.count, Keep::count)
    }
}

/// What a term is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TermKind {
    /// A group of dice.
    Dice(Dice),
    /// A fixed number.
    Constant(u32),
}

/// One signed term of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Term {
    /// Added or subtracted.
    pub sign: Sign,
    /// Dice or a number.
    pub kind: TermKind,
}

impl Default for Term {
    /// `+0`, the neutral term.
    fn default() -> Self {
        Term {
            sign: Sign::Plus,
            kind: TermKind::Constant(0),
        }
    }
}

/// A parsed dice expression, within every bound of this module. Build one with [`parse`] or
/// [`str::parse`]; its `Display` is the canonical form (`1d100`, `4d6kh3+2`, `2d10!`), which
/// parses back to the same expression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expr {
    terms: SmallList<Term, 4>,
}

impl Expr {
    /// The terms, left to right.
    pub fn terms(&self) -> &[Term] {
        self.terms.as_slice()
    }

    /// How many dice a roll starts with (explosions not counted).
    pub fn dice_count(&self) -> u32 {
        self.terms()
            .iter()
            .map(|t| match t.kind {
                TermKind::Dice(d) => u32::from(d.count),
                TermKind::Constant(_) => 0,
            })
            .sum()
    }

    /// The lowest total a roll can give, counting the most the explosion cap lets a subtracted
    /// exploding group take away.
    pub fn min(&self) -> i64 {
        self.bound(Sign::Minus)
    }

    /// The highest total a roll can give, counting the most the explosion cap lets an added
    /// exploding group bring.
    pub fn max(&self) -> i64 {
        self.bound(Sign::Plus)
    }

    /// The extreme total in the direction of `toward`: every term at its extreme that way, plus
    /// all [`MAX_EXPLOSIONS`] extra dice showing their maximum on the widest exploding group
    /// whose sign pushes that way. (The cap is shared by the whole expression, so only one group
    /// can take them all.)
    fn bound(&self, toward: Sign) -> i64 {
        let mut total: i64 = 0;
        let mut widest_explosion: i64 = 0;
        for term in self.terms() {
            let (low, high) = match term.kind {
                TermKind::Constant(c) => (i64::from(c), i64::from(c)),
                TermKind::Dice(d) => {
                    let kept = i64::from(d.kept());
                    if d.explode && term.sign == toward {
                        widest_explosion = widest_explosion.max(i64::from(d.sides));
                    }
                    (kept, kept * i64::from(d.sides))
                }
            };
            total += match (term.sign, toward) {
                (Sign::Plus, Sign::Plus) => high,
                (Sign::Plus, Sign::Minus) => low,
                (Sign::Minus, Sign::Plus) => -low,
                (Sign::Minus, Sign::Minus) => -high,
            };
        }
        let explosions = i64::from(MAX_EXPLOSIONS) * widest_explosion;
        match toward {
            Sign::Plus => total + explosions,
            Sign::Minus => total - explosions,
        }
    }

    /// Rolls the expression: every die from `dice`, left to right, an exploding die's extra
    /// rolls right after it and before the next die.
    ///
    /// Never panics on its own account (a [`crate::dice::ScriptedDice`] that runs out does, by
    /// design). Takes `&mut dyn RollSource` as well as a concrete source.
    pub fn roll<R: RollSource + ?Sized>(&self, dice: &mut R) -> Rolled {
        let mut roller = Roller {
            dice,
            faces: SmallList::new(),
            explosions_left: MAX_EXPLOSIONS,
            explode_stop: None,
            show_left: SHOW_TOTAL,
        };
        let mut outcomes = SmallList::new();
        let mut total: i64 = 0;
        for term in self.terms() {
            let (magnitude, shown, cut) = match term.kind {
                TermKind::Constant(c) => (i64::from(c), 0, None),
                TermKind::Dice(d) => roller.group(d),
            };
            let value = match term.sign {
                Sign::Plus => magnitude,
                Sign::Minus => -magnitude,
            };
            total += value;
            outcomes.push(TermOutcome { value, shown, cut });
        }
        Rolled {
            total,
            expr: self.clone(),
            terms: outcomes,
            faces: roller.faces,
            explode_stop: roller.explode_stop,
        }
    }
}

impl FromStr for Expr {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms().iter().enumerate() {
            match (term.sign, i) {
                (Sign::Plus, 0) => {}
                (Sign::Plus, _) => f.write_str("+")?,
                (Sign::Minus, _) => f.write_str("-")?,
            }
            match term.kind {
                TermKind::Constant(c) => write!(f, "{c}")?,
                TermKind::Dice(d) => {
                    write!(f, "{}d{}", d.count, d.sides)?;
                    if d.explode {
                        f.write_str("!")?;
                    }
                    match d.keep {
                        Some(Keep::Highest(n)) => write!(f, "kh{n}")?,
                        Some(Keep::Lowest(n)) => write!(f, "kl{n}")?,
                        None => {}
                    }
                }
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// Parses a dice expression (see the [module docs](self) for the grammar and the bounds).
///
/// ```
/// use herald_engine::notation::parse;
/// assert_eq!(parse("100").unwrap().to_string(), "1d100");
/// assert_eq!(parse("4D6 k3 + 2").unwrap_err().column(), 5);
/// assert_eq!(parse("4d6k3 + 2").unwrap().to_string(), "4d6kh3+2");
/// ```
pub fn parse(input: &str) -> Result<Expr, NotationError> {
    // Bytes bound characters from above, so counting characters is needed only for long input.
    if input.len() > MAX_CHARS && input.chars().nth(MAX_CHARS).is_some() {
        return Err(NotationError::TooLong {
            column: MAX_CHARS + 1,
        });
    }
    let mut p = Parser {
        input,
        bytes: input.as_bytes(),
        pos: 0,
        dice: 0,
    };
    let mut terms = SmallList::new();
    let mut sign = Sign::Plus;
    p.skip_space();
    let first = p.pos;
    loop {
        if terms.len() >= MAX_TERMS {
            return Err(NotationError::TooManyTerms {
                column: p.column(p.pos),
            });
        }
        let kind = p.term()?;
        terms.push(Term { sign, kind });
        p.skip_space();
        sign = match p.peek() {
            None => break,
            Some(b'+') => Sign::Plus,
            Some(b'-') => Sign::Minus,
            Some(_) => {
                return Err(p.unexpected(match kind {
                    TermKind::Constant(_) => Expectation::AfterNumber,
                    TermKind::Dice(_) => Expectation::AfterDice,
                }))
            }
        };
        p.pos += 1;
        p.skip_space();
    }
    // `/roll 100` is the game's own way to roll percentile dice: a lone number is its sides.
    if let [Term {
        sign: Sign::Plus,
        kind: TermKind::Constant(sides),
    }] = *terms.as_slice()
    {
        p.check_sides(sides, first)?;
        let mut one = SmallList::new();
        one.push(Term {
            sign: Sign::Plus,
            kind: TermKind::Dice(Dice {
                count: 1,
                sides,
                explode: false,
                keep: None,
            }),
        });
        return Ok(Expr { terms: one });
    }
    Ok(Expr { terms })
}

/// Parses and rolls in one step: [`parse`], then [`Expr::roll`].
pub fn roll<R: RollSource + ?Sized>(input: &str, dice: &mut R) -> Result<Rolled, NotationError> {
    Ok(parse(input)?.roll(dice))
}

/// A cursor over the input. It only ever steps over ASCII bytes, so `pos` always sits on a
/// character boundary.
struct Parser<'a> {
    input: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Dice so far, to enforce [`MAX_DICE`] over the whole expression.
    dice: u32,
}

impl Parser<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    /// The 1-based character column of a byte offset. Only errors need it, so it may be slow.
    fn column(&self, byte: usize) -> usize {
        self.input
            .char_indices()
            .take_while(|&(i, _)| i < byte)
            .count()
            + 1
    }

    fn unexpected(&self, expected: Expectation) -> NotationError {
        let found = self
            .input
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
            .map_or(Found::End, Found::Char);
        NotationError::Unexpected {
            column: self.column(self.pos),
            expected,
            found,
        }
    }

    /// A run of ASCII digits, if there is one here.
    #[inline]
    fn number(&mut self) -> Result<Option<u32>, NotationError> {
        let start = self.pos;
        let mut value: Option<u32> = Some(0);
        while let Some(b @ b'0'..=b'9') = self.peek() {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u32::from(b - b'0')));
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        match value {
            Some(v) => Ok(Some(v)),
            None => Err(NotationError::NumberTooLarge {
                column: self.column(start),
            }),
        }
    }

    fn check_sides(&self, sides: u32, start: usize) -> Result<(), NotationError> {
        if (MIN_SIDES..=MAX_SIDES).contains(&sides) {
            Ok(())
        } else {
            Err(NotationError::Sides {
                column: self.column(start),
                sides,
            })
        }
    }

    fn term(&mut self) -> Result<TermKind, NotationError> {
        let start = self.pos;
        let count = self.number()?;
        if !matches!(self.peek(), Some(b'd' | b'D')) {
            return match count {
                Some(n) => Ok(TermKind::Constant(n)),
                None => Err(self.unexpected(Expectation::Term)),
            };
        }
        let count = count.unwrap_or(1);
        if count == 0 {
            return Err(NotationError::NoDice {
                column: self.column(start),
            });
        }
        let dice = u64::from(self.dice) + u64::from(count);
        if dice > u64::from(MAX_DICE) {
            return Err(NotationError::TooManyDice {
                column: self.column(start),
                count: dice,
            });
        }
        self.dice += count;
        self.pos += 1; // the 'd'

        let sides_start = self.pos;
        let sides = if self.peek() == Some(b'%') {
            self.pos += 1;
            100
        } else {
            match self.number()? {
                Some(s) => s,
                None => return Err(self.unexpected(Expectation::Sides)),
            }
        };
        self.check_sides(sides, sides_start)?;

        let mut group = Dice {
            // Within MAX_DICE, so it fits.
            count: u16::try_from(count).unwrap_or(u16::MAX),
            sides,
            explode: false,
            keep: None,
        };
        loop {
            match self.peek() {
                Some(b'!') => {
                    if group.explode {
                        return Err(NotationError::Repeated {
                            column: self.column(self.pos),
                            modifier: '!',
                        });
                    }
                    group.explode = true;
                    self.pos += 1;
                }
                Some(b'k' | b'K') => {
                    if group.keep.is_some() {
                        return Err(NotationError::Repeated {
                            column: self.column(self.pos),
                            modifier: 'k',
                        });
                    }
                    self.pos += 1;
                    let lowest = match self.peek() {
                        Some(b'h' | b'H') => {
                            self.pos += 1;
                            false
                        }
                        Some(b'l' | b'L') => {
                            self.pos += 1;
                            true
                        }
                        _ => false,
                    };
                    let keep_start = self.pos;
                    let Some(keep) = self.number()? else {
                        return Err(self.unexpected(Expectation::KeepCount));
                    };
                    if keep == 0 || keep > count {
                        return Err(NotationError::Keep {
                            column: self.column(keep_start),
                            keep,
                            count,
                        });
                    }
                    let keep = u16::try_from(keep).unwrap_or(group.count);
                    group.keep = Some(if lowest {
                        Keep::Lowest(keep)
                    } else {
                        Keep::Highest(keep)
                    });
                }
                _ => break,
            }
        }
        Ok(TermKind::Dice(group))
    }
}

// ---------------------------------------------------------------------------------------------
// Rolling

/// Where the kept dice of a group end: those beyond `threshold` (above it for keep-highest,
/// below for keep-lowest) are kept, and of the dice equal to it, the first `ties_kept` in roll
/// order. Two numbers describe the choice for any pool, so the breakdown can mark dropped dice
/// without holding every die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
struct Cut {
    threshold: u32,
    ties_kept: u16,
}

/// What one term came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
struct TermOutcome {
    /// The term's signed contribution to the total.
    value: i64,
    /// How many of its dice, from the first, have their faces recorded for the breakdown.
    shown: u16,
    /// For a keep group, which dice counted.
    cut: Option<Cut>,
}

/// The result of rolling an [`Expr`].
///
/// Its `Display` is the breakdown a player can check, the expression first:
/// `4d6kh3: [6, 5, 3, (1)] = 14` (dropped dice in parentheses), `2d10!: [10+4, 7] = 21` (an
/// exploded die as its chain of faces), `1d20-1d4+2: [17] - [3] + 2 = 16`. Only the first 20 dice
/// of a group (40 in all) are listed; after them comes a count of the rest and the group's total
/// (`30d6: [4, 1, 6, ...twenty in all..., ... 10 more: 101] = 101`), and a group with none listed
/// shows only its count and total (`[5 dice: 17]`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rolled {
    /// The total of the roll.
    pub total: i64,
    expr: Expr,
    terms: SmallList<TermOutcome, 4>,
    /// Faces of the listed dice in roll order, an exploded die's chain in a row.
    faces: SmallList<u32, 12>,
    /// When the explosion cap was reached: the index in `faces` from which no face exploded.
    explode_stop: Option<usize>,
}

impl Rolled {
    /// The expression that was rolled.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Whether explosions stopped at [`MAX_EXPLOSIONS`] extra dice.
    pub fn explosions_capped(&self) -> bool {
        self.explode_stop.is_some()
    }

    /// Each term's signed contribution to the total, left to right.
    pub fn term_totals(&self) -> impl Iterator<Item = i64> + '_ {
        self.terms.as_slice().iter().map(|t| t.value)
    }

    fn fmt_group(
        &self,
        f: &mut fmt::Formatter<'_>,
        group: Dice,
        outcome: TermOutcome,
        cursor: &mut usize,
    ) -> fmt::Result {
        let magnitude = outcome.value.unsigned_abs();
        if outcome.shown == 0 {
            return write!(f, "[{} dice: {magnitude}]", group.count);
        }
        let faces = self.faces.as_slice();
        let mut ties_seen: u16 = 0;
        f.write_str("[")?;
        for i in 0..outcome.shown {
            if i > 0 {
                f.write_str(", ")?;
            }
            let chain_start = *cursor;
            let mut die: u32 = 0;
            while let Some(&face) = faces.get(*cursor) {
                let exploded = group.explode
                    && face == group.sides
                    && self.explode_stop.is_none_or(|stop| *cursor < stop);
                *cursor += 1;
                die = die.saturating_add(face);
                if !exploded {
                    break;
                }
            }
            let kept = match (group.keep, outcome.cut) {
                (Some(Keep::Highest(_)), Some(cut)) => {
                    cut.keeps(die, die > cut.threshold, &mut ties_seen)
                }
                (Some(Keep::Lowest(_)), Some(cut)) => {
                    cut.keeps(die, die < cut.threshold, &mut ties_seen)
                }
                _ => true,
            };
            if !kept {
                f.write_str("(")?;
            }
            for (j, face) in faces
                .get(chain_start..*cursor)
                .unwrap_or(&[])
                .iter()
                .enumerate()
            {
                if j > 0 {
                    f.write_str("+")?;
                }
                write!(f, "{face}")?;
            }
            if !kept {
                f.write_str(")")?;
            }
        }
        let hidden = group.count.saturating_sub(outcome.shown);
        if hidden > 0 {
            write!(f, ", ... {hidden} more: {magnitude}")?;
        }
        f.write_str("]")
    }
}

impl Cut {
    /// Whether the next listed die (total `die`) was kept; `beyond` says it lies past the
    /// threshold on the kept side.
    fn keeps(self, die: u32, beyond: bool, ties_seen: &mut u16) -> bool {
        if beyond {
            return true;
        }
        if die != self.threshold {
            return false;
        }
        *ties_seen += 1;
        *ties_seen <= self.ties_kept
    }
}

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.expr)?;
        let mut cursor = 0;
        for (i, (term, outcome)) in self
            .expr
            .terms()
            .iter()
            .zip(self.terms.as_slice())
            .enumerate()
        {
            match (term.sign, i) {
                (Sign::Plus, 0) => {}
                (Sign::Minus, 0) => f.write_str("-")?,
                (Sign::Plus, _) => f.write_str(" + ")?,
                (Sign::Minus, _) => f.write_str(" - ")?,
            }
            match term.kind {
                TermKind::Constant(c) => write!(f, "{c}")?,
                TermKind::Dice(d) => self.fmt_group(f, d, *outcome, &mut cursor)?,
            }
        }
        write!(f, " = {}", self.total)?;
        if self.explosions_capped() {
            write!(f, " (explosions stopped after {MAX_EXPLOSIONS} extra dice)")?;
        }
        Ok(())
    }
}

/// The state of one roll of an expression.
struct Roller<'d, R: RollSource + ?Sized> {
    dice: &'d mut R,
    faces: SmallList<u32, 12>,
    explosions_left: u32,
    explode_stop: Option<usize>,
    show_left: u16,
}

impl<R: RollSource + ?Sized> Roller<'_, R> {
    /// Rolls a group: its magnitude, how many of its dice are listed, and its keep cut.
    #[inline]
    fn group(&mut self, group: Dice) -> (i64, u16, Option<Cut>) {
        let shown = group.count.min(SHOW_PER_GROUP).min(self.show_left);
        self.show_left -= shown;
        match group.keep {
            None => {
                let mut sum: i64 = 0;
                for i in 0..group.count {
                    sum += i64::from(self.die(group, i < shown));
                }
                (sum, shown, None)
            }
            Some(keep) => {
                let mut dice: SmallList<u32, 16> = SmallList::new();
                for i in 0..group.count {
                    let die = self.die(group, i < shown);
                    dice.push(die);
                }
                let (sum, cut) = keep_sum(dice.as_mut_slice(), keep);
                (sum, shown, Some(cut))
            }
        }
    }

    /// Rolls one die with its explosions; returns its total.
    #[inline]
    fn die(&mut self, group: Dice, record: bool) -> u32 {
        let mut face = self.dice.roll(group.sides);
        let mut total = face;
        if record {
            self.faces.push(face);
        }
        while group.explode && face == group.sides {
            if self.explosions_left == 0 {
                if self.explode_stop.is_none() {
                    let len = self.faces.len();
                    // The face that did not explode, if it is listed; else the next listed one.
                    self.explode_stop = Some(if record { len.saturating_sub(1) } else { len });
                }
                break;
            }
            self.explosions_left -= 1;
            face = self.dice.roll(group.sides);
            total = total.saturating_add(face);
            if record {
                self.faces.push(face);
            }
        }
        total
    }
}

/// The sum of the kept dice and where the cut falls. `dice` is reordered.
fn keep_sum(dice: &mut [u32], keep: Keep) -> (i64, Cut) {
    let n = dice.len();
    if n == 0 {
        return (
            0,
            Cut {
                threshold: 0,
                ties_kept: 0,
            },
        );
    }
    let k = usize::from(keep.count()).clamp(1, n);
    let highest = matches!(keep, Keep::Highest(_));
    // The k-th die from the kept end, found in linear time.
    let threshold = if highest {
        *dice.select_nth_unstable_by(k - 1, |a, b| b.cmp(a)).1
    } else {
        *dice.select_nth_unstable(k - 1).1
    };
    let mut sum: i64 = 0;
    let mut beyond: usize = 0;
    for &d in dice.iter() {
        if (highest && d > threshold) || (!highest && d < threshold) {
            sum += i64::from(d);
            beyond += 1;
        }
    }
    let ties = k.saturating_sub(beyond);
    sum += i64::try_from(ties).unwrap_or(0) * i64::from(threshold);
    (
        sum,
        Cut {
            threshold,
            ties_kept: u16::try_from(ties).unwrap_or(u16::MAX),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Storage

/// A list that keeps its first `N` items inline and moves to the heap only past them, so the
/// common small expression never allocates.
#[derive(Clone)]
struct SmallList<T: Copy + Default, const N: usize> {
    len: usize,
    inline: [T; N],
    spill: Vec<T>,
}

impl<T: Copy + Default, const N: usize> SmallList<T, N> {
    #[inline]
    fn new() -> Self {
        SmallList {
            len: 0,
            inline: [T::default(); N],
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, value: T) {
        if self.spill.is_empty() {
            if let Some(slot) = self.inline.get_mut(self.len) {
                *slot = value;
                self.len += 1;
                return;
            }
            self.spill.reserve(2 * N + 1);
            self.spill.extend_from_slice(&self.inline);
        }
        self.spill.push(value);
    }

    #[inline]
    fn len(&self) -> usize {
        self.as_slice().len()
    }

    #[inline]
    fn as_slice(&self) -> &[T] {
        if self.spill.is_empty() {
            self.inline.get(..self.len).unwrap_or(&[])
        } else {
            &self.spill
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        if self.spill.is_empty() {
            self.inline.get_mut(..self.len).unwrap_or(&mut [])
        } else {
            &mut self.spill
        }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for SmallList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for SmallList<T, N> {}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for SmallList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + Default + Serialize, const N: usize> Serialize for SmallList<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{ScriptedDice, SeededDice};
    use proptest::prelude::*;

    /// Rolls `input` with exactly `script`, checking every scripted roll was used.
    fn scripted(input: &str, script: &[u32]) -> Rolled {
        let mut dice = ScriptedDice::new(script.iter().copied());
        let rolled = roll(input, &mut dice).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(dice.remaining(), 0, "{input}: unused rolls");
        rolled
    }

    fn err(input: &str) -> NotationError {
        match parse(input) {
            Ok(e) => panic!("{input:?} parsed as {e}"),
            Err(e) => e,
        }
    }

    fn canonical(input: &str) -> String {
        parse(input)
            .unwrap_or_else(|e| panic!("{input}: {e}"))
            .to_string()
    }

    // --- Forms ------------------------------------------------------------------------------

    #[test]
    fn a_bare_number_is_one_die_of_that_many_sides() {
        // Rules, "Roll X": `/roll 100` (CompuServe) and `/rol 1d100` (Genie, Delphi) are both
        // one percentile die.
        assert_eq!(parse("100"), parse("1d100"));
        assert_eq!(canonical(" 100 "), "1d100");
        let r = scripted("100", &[57]);
        assert_eq!(r.total, 57);
        assert_eq!(r.to_string(), "1d100: [57] = 57");
        assert_eq!(canonical("6"), "1d6");
    }

    #[test]
    fn count_defaults_to_one_and_percent_is_a_hundred() {
        let one = parse("1d100");
        assert_eq!(parse("d100"), one);
        assert_eq!(parse("d%"), one);
        assert_eq!(parse("D%"), one);
        assert_eq!(canonical("3d%"), "3d100");
        assert_eq!(scripted("d%", &[100]).total, 100);
    }

    #[test]
    fn dice_plus_a_constant() {
        let r = scripted("2d6+3", &[4, 5]);
        assert_eq!(r.total, 12);
        assert_eq!(r.to_string(), "2d6+3: [4, 5] + 3 = 12");
        assert_eq!(r.term_totals().collect::<Vec<_>>(), [9, 3]);
        assert_eq!(scripted("3+2d6", &[1, 1]).total, 5);
    }

    #[test]
    fn terms_roll_left_to_right_and_subtract() {
        // A d20 then a d4: ScriptedDice refuses 17 on a d4, so the order is checked too.
        let r = scripted("1d20-1d4+2", &[17, 3]);
        assert_eq!(r.total, 16);
        assert_eq!(r.to_string(), "1d20-1d4+2: [17] - [3] + 2 = 16");
        assert_eq!(r.term_totals().collect::<Vec<_>>(), [17, -3, 2]);
        assert_eq!(scripted("1d6-10", &[2]).total, -8);
    }

    #[test]
    fn constants_alone_add_up_without_dice() {
        let r = scripted("3+4", &[]);
        assert_eq!(r.total, 7);
        assert_eq!(r.to_string(), "3+4: 3 + 4 = 7");
        assert_eq!(scripted("10-4-1", &[]).total, 5);
    }

    #[test]
    fn keep_highest() {
        let r = scripted("4d6kh3", &[3, 1, 6, 5]);
        assert_eq!(r.total, 14);
        assert_eq!(r.to_string(), "4d6kh3: [3, (1), 6, 5] = 14");
        assert_eq!(
            scripted("4d6kh3", &[6, 5, 3, 1]).to_string(),
            "4d6kh3: [6, 5, 3, (1)] = 14"
        );
        // `k3` is kh3.
        assert_eq!(parse("4d6k3"), parse("4d6kh3"));
        assert_eq!(scripted("4d6k3+2", &[3, 1, 6, 5]).total, 16);
        // Keeping all of them drops none.
        assert_eq!(
            scripted("2d6kh2", &[2, 3]).to_string(),
            "2d6kh2: [2, 3] = 5"
        );
    }

    #[test]
    fn keep_lowest() {
        let r = scripted("4d6kl1", &[3, 1, 6, 5]);
        assert_eq!(r.total, 1);
        assert_eq!(r.to_string(), "4d6kl1: [(3), 1, (6), (5)] = 1");
        assert_eq!(scripted("3d20kl2", &[20, 7, 9]).total, 16);
    }

    #[test]
    fn ties_at_the_cut_keep_the_earliest_dice() {
        // Highest two of 5, 6, 5, 5: the 6 and the first 5.
        let r = scripted("4d6kh2", &[5, 6, 5, 5]);
        assert_eq!(r.total, 11);
        assert_eq!(r.to_string(), "4d6kh2: [5, 6, (5), (5)] = 11");
        let r = scripted("4d6kl3", &[2, 2, 1, 2]);
        assert_eq!(r.total, 5);
        assert_eq!(r.to_string(), "4d6kl3: [2, 2, 1, (2)] = 5");
    }

    #[test]
    fn exploding_dice_roll_again_on_their_maximum() {
        let r = scripted("2d10!", &[10, 4, 7]);
        assert_eq!(r.total, 21);
        assert_eq!(r.to_string(), "2d10!: [10+4, 7] = 21");
        // A chain: 10, 10, 3 on a d10! is 23.
        let r = scripted("1d10!", &[10, 10, 3]);
        assert_eq!(r.total, 23);
        assert_eq!(r.to_string(), "1d10!: [10+10+3] = 23");
        assert!(!r.explosions_capped());
        // A die that does not show its maximum does not explode.
        assert_eq!(scripted("1d10!", &[9]).total, 9);
    }

    #[test]
    fn exploding_with_keep_compares_whole_chains() {
        let r = scripted("2d10!kh1", &[10, 4, 7]);
        assert_eq!(r.total, 14);
        assert_eq!(r.to_string(), "2d10!kh1: [10+4, (7)] = 14");
        // Modifiers in either order; the canonical form puts `!` first.
        assert_eq!(canonical("2d10kh1!"), "2d10!kh1");
        let r = scripted("2d10kl1!", &[10, 4, 7]);
        assert_eq!(r.to_string(), "2d10!kl1: [(10+4), 7] = 7");
    }

    #[test]
    fn explosions_stop_at_the_cap_and_say_so() {
        // 1d2! with every face a 2: the die and 100 extra dice, then the 101st 2 stays.
        let r = scripted("1d2!", &[2; 101]);
        assert_eq!(r.total, 202);
        assert!(r.explosions_capped());
        assert_eq!(r.total, parse("1d2!").map(|e| e.max()).unwrap_or(0));
        let text = r.to_string();
        assert!(
            text.ends_with("= 202 (explosions stopped after 100 extra dice)"),
            "{text}"
        );
        assert_eq!(text.matches('2').count(), 101 + 3, "{text}");
    }

    #[test]
    fn the_explosion_cap_is_shared_by_the_whole_expression() {
        let mut script = vec![2; 101];
        script.push(2); // the second group's die: a maximum, but no explosions are left
        let r = scripted("1d2!+1d2!", &script);
        assert_eq!(r.total, 204);
        assert!(r.to_string().contains(" + [2] = 204"), "{r}");
    }

    #[test]
    fn the_cap_reached_on_an_unlisted_die_still_shows_right() {
        // 25d2!: the first 20 dice are listed (1s), die 21 explodes 100 times, dice 22-25 show 1;
        // then the next group's 2 cannot explode.
        let mut script = vec![1; 20];
        script.extend([2; 101]);
        script.extend([1; 4]);
        script.push(2);
        let r = scripted("25d2!+1d2!", &script);
        assert_eq!(r.total, 20 + 202 + 4 + 2);
        assert!(r.explosions_capped());
        let ones = vec!["1"; 20].join(", ");
        assert_eq!(
            r.to_string(),
            format!(
                "25d2!+1d2!: [{ones}, ... 5 more: 226] + [2] = 228 \
                 (explosions stopped after 100 extra dice)"
            )
        );
    }

    #[test]
    fn case_and_spaces() {
        assert_eq!(canonical("2D6KH1"), "2d6kh1");
        assert_eq!(canonical("4d6KL1"), "4d6kl1");
        assert_eq!(parse(" 2d6 + 3 "), parse("2d6+3"));
        assert_eq!(parse("\t1d20\t-\t1d4 +2"), parse("1d20-1d4+2"));
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(canonical("1d100"), "1d100");
        assert_eq!(canonical("4d6k3+2"), "4d6kh3+2");
        assert_eq!(canonical("d10!"), "1d10!");
        assert_eq!(canonical("001d06"), "1d6");
        assert_eq!(canonical("1d20 - 1d4 + 2"), "1d20-1d4+2");
    }

    #[test]
    fn expressions_parse_with_from_str() {
        let e: Expr = "2d6+3".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(e.dice_count(), 2);
        assert!("2d6+".parse::<Expr>().is_err());
    }

    #[test]
    fn rolls_take_a_dyn_source() {
        let expr = parse("4d6kh3").unwrap_or_else(|e| panic!("{e}"));
        let mut scripted = ScriptedDice::new([3, 1, 6, 5]);
        let dice: &mut dyn RollSource = &mut scripted;
        assert_eq!(expr.roll(dice).total, 14);
    }

    #[test]
    fn large_pools_are_summarised() {
        let r = scripted("30d6", &[3; 30]);
        let listed = vec!["3"; 20].join(", ");
        assert_eq!(
            r.to_string(),
            format!("30d6: [{listed}, ... 10 more: 90] = 90")
        );
        // At most 40 dice are listed in all; a later group is then only summed.
        let r = scripted("20d6+20d6+5d6", &[1; 45]);
        let listed = vec!["1"; 20].join(", ");
        assert_eq!(
            r.to_string(),
            format!("20d6+20d6+5d6: [{listed}] + [{listed}] + [5 dice: 5] = 45")
        );
    }

    #[test]
    fn a_large_kept_pool_marks_the_listed_dice() {
        // 25d6kh1 with a single 6 among the hidden dice: every listed die is dropped.
        let mut script = vec![2; 24];
        script.push(6);
        let r = scripted("25d6kh1", &script);
        assert_eq!(r.total, 6);
        let listed = vec!["(2)"; 20].join(", ");
        assert_eq!(
            r.to_string(),
            format!("25d6kh1: [{listed}, ... 5 more: 6] = 6")
        );
    }

    #[test]
    fn min_and_max() {
        let range = |s: &str| {
            let e = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            (e.min(), e.max())
        };
        assert_eq!(range("1d100"), (1, 100));
        assert_eq!(range("4d6kh3+2"), (5, 20));
        assert_eq!(range("4d6kl1"), (1, 6));
        assert_eq!(range("1d20-1d4+2"), (-1, 21));
        // An exploding group may take all 100 extra dice.
        assert_eq!(range("2d10!"), (2, 20 + 1000));
        assert_eq!(range("1d6-1d10!"), (1 - 10 - 1000, 6 - 1));
        // The cap is shared: only the widest exploding group counts.
        assert_eq!(range("1d4!+1d6!"), (2, 10 + 600));
        assert_eq!(range("3-4"), (-1, -1));
    }

    #[test]
    fn serialises_for_the_log() {
        let r = scripted("4d6kh3+2", &[3, 1, 6, 5]);
        let json = serde_json::to_value(&r).unwrap_or_default();
        assert_eq!(json["total"], 16);
        assert_eq!(json["expr"]["terms"][0]["kind"]["dice"]["sides"], 6);
        assert_eq!(
            json["expr"]["terms"][0]["kind"]["dice"]["keep"]["highest"],
            3
        );
        assert_eq!(json["expr"]["terms"][1]["kind"]["constant"], 2);
        assert_eq!(json["faces"], serde_json::json!([3, 1, 6, 5]));
    }

    // --- Bounds -----------------------------------------------------------------------------

    #[test]
    fn at_most_a_thousand_dice() {
        let mut dice = SeededDice::from_u64(1);
        assert!(roll("1000d6", &mut dice).is_ok());
        assert!(roll("500d6+500d6kh1", &mut dice).is_ok());
        assert_eq!(
            err("1001d6"),
            NotationError::TooManyDice {
                column: 1,
                count: 1001
            }
        );
        let e = err("500d6+501d6");
        assert_eq!(e.column(), 7);
        assert_eq!(
            e.to_string(),
            "at column 7: that makes 1001 dice; at most 1000 can be rolled at once"
        );
        assert_eq!(err("4000000000d6").column(), 1);
        assert_eq!(err("0d6"), NotationError::NoDice { column: 1 });
    }

    #[test]
    fn two_to_a_million_sides() {
        assert_eq!(scripted("1d2", &[2]).total, 2);
        assert_eq!(scripted("1d1000000", &[1_000_000]).total, 1_000_000);
        assert_eq!(scripted("1000000", &[999_999]).total, 999_999);
        assert_eq!(
            err("1d1"),
            NotationError::Sides {
                column: 3,
                sides: 1
            }
        );
        assert_eq!(
            err("1d1000001"),
            NotationError::Sides {
                column: 3,
                sides: 1_000_001
            }
        );
        assert_eq!(err("1d0").column(), 3);
        // A bare number is a die too, so it has the same bounds.
        assert_eq!(
            err(" 1"),
            NotationError::Sides {
                column: 2,
                sides: 1
            }
        );
        assert_eq!(err("1000001").column(), 1);
        assert_eq!(
            err("1d1").to_string(),
            "at column 3: a die has 2 to 1,000,000 sides, not 1"
        );
    }

    #[test]
    fn a_d1_cannot_explode_because_it_cannot_be_rolled() {
        assert_eq!(
            err("1d1!"),
            NotationError::Sides {
                column: 3,
                sides: 1
            }
        );
    }

    #[test]
    fn at_most_two_hundred_characters() {
        let ok = format!("{}1d6", " ".repeat(197));
        assert_eq!(ok.chars().count(), 200);
        assert_eq!(canonical(&ok), "1d6");
        let long = format!(" {ok}");
        assert_eq!(err(&long), NotationError::TooLong { column: 201 });
        // Characters, not bytes: 200 two-byte letters are junk, not too long; 201 are too long.
        assert_eq!(err(&"é".repeat(200)).column(), 1);
        assert_eq!(
            err(&"é".repeat(201)),
            NotationError::TooLong { column: 201 }
        );
        assert_eq!(
            err(&"1".repeat(10_000)),
            NotationError::TooLong { column: 201 }
        );
    }

    #[test]
    fn at_most_twenty_terms() {
        let twenty = vec!["1d6"; 20].join("+");
        assert_eq!(parse(&twenty).map(|e| e.terms().len()), Ok(20));
        let twenty_one = vec!["1d6"; 21].join("+");
        assert_eq!(err(&twenty_one), NotationError::TooManyTerms { column: 81 });
    }

    #[test]
    fn keep_between_one_and_the_dice() {
        assert_eq!(canonical("4d6kh4"), "4d6kh4");
        assert_eq!(canonical("4d6kl1"), "4d6kl1");
        assert_eq!(
            err("4d6kh5"),
            NotationError::Keep {
                column: 6,
                keep: 5,
                count: 4
            }
        );
        assert_eq!(
            err("4d6kh5").to_string(),
            "at column 6: can keep 1 to 4 of 4 dice, not 5"
        );
        assert_eq!(err("4d6k0").column(), 5);
    }

    #[test]
    fn numbers_must_fit() {
        assert_eq!(
            err("99999999999999999999d6"),
            NotationError::NumberTooLarge { column: 1 }
        );
        assert_eq!(
            err("1d99999999999"),
            NotationError::NumberTooLarge { column: 3 }
        );
        assert_eq!(
            err("1d6+4294967296"),
            NotationError::NumberTooLarge { column: 5 }
        );
        assert_eq!(
            err("4d6kh99999999999"),
            NotationError::NumberTooLarge { column: 6 }
        );
        // The largest constant is fine, and as many as fit in 200 characters cannot overflow.
        assert_eq!(scripted("1d6+4294967295", &[1]).total, 4_294_967_296);
        let many = vec!["4294967295"; 18].join("+");
        assert_eq!(scripted(&many, &[]).total, 18 * 4_294_967_295);
    }

    // --- Errors -----------------------------------------------------------------------------

    fn unexpected(column: usize, expected: Expectation, found: Found) -> NotationError {
        NotationError::Unexpected {
            column,
            expected,
            found,
        }
    }

    #[test]
    fn malformed_input_points_at_the_trouble() {
        use Expectation::*;
        let cases = [
            ("1d", unexpected(3, Sides, Found::End)),
            ("d", unexpected(2, Sides, Found::End)),
            ("2x6", unexpected(2, AfterNumber, Found::Char('x'))),
            ("4d6kh", unexpected(6, KeepCount, Found::End)),
            ("4d6kx3", unexpected(5, KeepCount, Found::Char('x'))),
            ("1d6+", unexpected(5, Term, Found::End)),
            ("1d6 + ", unexpected(7, Term, Found::End)),
            ("++", unexpected(1, Term, Found::Char('+'))),
            ("", unexpected(1, Term, Found::End)),
            ("   ", unexpected(4, Term, Found::End)),
            ("-1d4", unexpected(1, Term, Found::Char('-'))),
            ("1 d6", unexpected(3, AfterNumber, Found::Char('d'))),
            ("1d6 2", unexpected(5, AfterDice, Found::Char('2'))),
            ("1d6x", unexpected(4, AfterDice, Found::Char('x'))),
            ("d%%", unexpected(3, AfterDice, Found::Char('%'))),
            ("🎲", unexpected(1, Term, Found::Char('🎲'))),
            ("1d6🎲", unexpected(4, AfterDice, Found::Char('🎲'))),
            ("1d6 + 2 ½", unexpected(9, AfterNumber, Found::Char('½'))),
            ("１d6", unexpected(1, Term, Found::Char('１'))),
            ("1d6\n", unexpected(4, AfterDice, Found::Char('\n'))),
            (
                "2d6!!",
                NotationError::Repeated {
                    column: 5,
                    modifier: '!',
                },
            ),
            (
                "4d6kh3kl1",
                NotationError::Repeated {
                    column: 7,
                    modifier: 'k',
                },
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(parse(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn messages_a_player_understands() {
        assert_eq!(
            err("1d").to_string(),
            "at column 3: expected a number of sides after 'd', found nothing (try 1d100)"
        );
        assert_eq!(
            err("2x6").to_string(),
            "at column 2: expected 'd', '+' or '-' after a number, found 'x' (try 2d6+3)"
        );
        assert_eq!(
            err("").to_string(),
            "at column 1: expected a number or dice, found nothing (try 1d100)"
        );
        assert_eq!(
            err("4d6kh").to_string(),
            "at column 6: expected how many dice to keep after 'k', found nothing (try 4d6kh3)"
        );
        assert_eq!(
            err("99999999999999999999d6").to_string(),
            "at column 1: that number is far too large"
        );
        assert_eq!(
            err("1d6\u{0}").to_string(),
            "at column 4: expected '+', '-', '!' or 'k' after dice, found '\\0' (try 2d10!+1)"
        );
    }

    // --- Properties -------------------------------------------------------------------------

    /// Everything a parsed expression promises, checked with one seeded roll.
    fn check_parsed(input: &str, seed: u64) -> Result<(), TestCaseError> {
        let Ok(expr) = parse(input) else {
            return Ok(());
        };
        prop_assert!(input.chars().count() <= MAX_CHARS);
        prop_assert!(expr.terms().len() <= MAX_TERMS);
        prop_assert!(expr.dice_count() <= MAX_DICE);
        for term in expr.terms() {
            if let TermKind::Dice(d) = term.kind {
                prop_assert!((MIN_SIDES..=MAX_SIDES).contains(&d.sides));
                prop_assert!((1..=d.count).contains(&d.kept()));
            }
        }
        // The canonical form parses back to the same expression.
        prop_assert_eq!(parse(&expr.to_string()), Ok(expr.clone()));
        let rolled = expr.roll(&mut SeededDice::from_u64(seed));
        prop_assert!(
            (expr.min()..=expr.max()).contains(&rolled.total),
            "{} rolled {} outside {}..={}",
            expr,
            rolled.total,
            expr.min(),
            expr.max()
        );
        prop_assert_eq!(rolled.term_totals().sum::<i64>(), rolled.total);
        let shown = rolled.to_string();
        prop_assert!(shown.ends_with(&rolled.total.to_string()) || rolled.explosions_capped());
        Ok(())
    }

    /// Text that is mostly the grammar's own alphabet, so many samples parse.
    fn notation_like() -> impl Strategy<Value = String> {
        "[0-9dDkKhHlL%!+\\- ]{0,60}"
    }

    /// Well-formed expressions within the bounds, small enough to roll quickly.
    fn well_formed() -> impl Strategy<Value = String> {
        let sides = prop_oneof![
            Just("2".to_string()),
            Just("3".to_string()),
            Just("6".to_string()),
            Just("%".to_string()),
            (2u32..=1_000_000).prop_map(|s| s.to_string()),
        ];
        let dice = (1u16..=40, sides, any::<bool>(), 0u8..3, 1u16..=40).prop_map(
            |(count, sides, explode, keep, n)| {
                let n = n.min(count);
                let keep = match keep {
                    0 => String::new(),
                    1 => format!("kh{n}"),
                    _ => format!("kl{n}"),
                };
                let bang = if explode { "!" } else { "" };
                format!("{count}d{sides}{bang}{keep}")
            },
        );
        // A lone number would be a bare die (`0` is refused), so the first term is dice.
        let term = prop_oneof![3 => dice.clone(), 1 => (0u32..1000).prop_map(|c| c.to_string())];
        (
            dice,
            proptest::collection::vec((any::<bool>(), term), 0..=5),
        )
            .prop_map(|(first, rest)| {
                let mut s = first;
                for (minus, t) in rest {
                    s.push_str(if minus { " - " } else { "+" });
                    s.push_str(&t);
                }
                s
            })
    }

    proptest! {
        #[test]
        fn any_text_never_panics(input in "\\PC{0,300}", seed in any::<u64>()) {
            check_parsed(&input, seed)?;
        }

        #[test]
        fn any_chars_never_panic(input in any::<String>(), seed in any::<u64>()) {
            check_parsed(&input, seed)?;
        }

        #[test]
        fn long_text_never_panics(input in ".{150,400}", seed in any::<u64>()) {
            check_parsed(&input, seed)?;
        }

        #[test]
        fn notation_like_text_never_panics(input in notation_like(), seed in any::<u64>()) {
            check_parsed(&input, seed)?;
        }

        #[test]
        fn well_formed_expressions_parse_and_roll_in_range(
            input in well_formed(),
            seed in any::<u64>(),
        ) {
            prop_assert!(parse(&input).is_ok(), "{} refused: {:?}", input, parse(&input));
            check_parsed(&input, seed)?;
        }
    }
}
