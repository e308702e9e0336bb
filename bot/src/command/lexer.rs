//! The words of a line: quoted names, options, and the quoting of a name for a reply.

use super::*;

/// One word of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) text: String,
    pub(crate) quoted: bool,
}

impl Token {
    /// The option's name if this is one (`--top`, `--top=x`, `—top`): the part before any `=`,
    /// lower-case with `--`, and the inline value.
    pub(crate) fn as_option(&self) -> Option<(String, Option<String>)> {
        if self.quoted {
            return None;
        }
        let body = self
            .text
            .strip_prefix("--")
            .or_else(|| self.text.strip_prefix('—'))
            .or_else(|| self.text.strip_prefix('–'))?;
        if !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        Some((format!("--{}", name.to_lowercase()), value))
    }
}

pub(crate) fn opens_quote(c: char) -> bool {
    matches!(c, '"' | '“')
}

pub(crate) fn closes_quote(c: char) -> bool {
    matches!(c, '"' | '”')
}

/// Reads a line one word at a time, so that a rest-of-line argument can take the text as it
/// stands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lexer<'a> {
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }

    pub(crate) fn remaining(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    pub(crate) fn skip_spaces(&mut self) {
        let rest = self.remaining();
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
    }

    /// The rest of the line, trimmed, consuming it.
    pub(crate) fn take_rest(&mut self) -> &'a str {
        let rest = self.remaining().trim();
        self.pos = self.src.len();
        rest
    }

    pub(crate) fn next_token(&mut self) -> Result<Option<Token>, ParseErrorKind> {
        self.skip_spaces();
        let rest = self.remaining();
        let mut chars = rest.char_indices();
        let Some((_, first)) = chars.next() else {
            return Ok(None);
        };
        if opens_quote(first) {
            let mut text = String::new();
            let mut escaped = false;
            for (i, c) in chars {
                if escaped {
                    if !(opens_quote(c) || closes_quote(c) || c == '\\') {
                        text.push('\\');
                    }
                    text.push(c);
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if closes_quote(c) {
                    self.pos += i + c.len_utf8();
                    if self.remaining().starts_with(|n: char| !n.is_whitespace()) {
                        return Err(ParseErrorKind::QuoteJoined);
                    }
                    return Ok(Some(Token { text, quoted: true }));
                } else {
                    text.push(c);
                }
            }
            self.pos = self.src.len();
            return Err(ParseErrorKind::UnterminatedQuote);
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.pos += end;
        Ok(Some(Token {
            text: rest.get(..end).unwrap_or("").to_string(),
            quoted: false,
        }))
    }

    /// The next word without consuming it; errors read as no word.
    pub(crate) fn peek(&self) -> Option<Token> {
        let mut probe = *self;
        probe.next_token().ok().flatten()
    }
}

/// Writes a value so that it reads back as one argument: bare when it is one plain word, else
/// in double quotes with `"` and `\` escaped. For adapters that build a line from structured
/// input (a Discord option).
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && !value.chars().any(|c| {
            c.is_whitespace()
                || opens_quote(c)
                || closes_quote(c)
                || c == '\\'
                || c == '—'
                || c == '–'
        })
        && !value.starts_with('-');
    if plain {
        return value.to_string();
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        if opens_quote(c) || closes_quote(c) || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}
