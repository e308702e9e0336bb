//! A character's name, as every game checks it (R122): 1 to 32 characters, letters, digits,
//! spaces, `'`, `-` and `.`, inner runs of spaces one (R170), so "Sir  Alan" and "Sir Alan"
//! are one name; and a name [`fold`]ed for finding it whatever its case and accents (R170).

use thiserror::Error;

/// The longest name accepted, in characters (R122).
pub const MAX_NAME_CHARS: usize = 32;

/// Why a name cannot be a character's (R122).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NameError {
    /// The name is empty or only spaces.
    #[error("a knight needs a name")]
    Empty,
    /// The name is too long.
    #[error("a knight's name may have at most {MAX_NAME_CHARS} characters; this one has {0}")]
    TooLong(usize),
    /// The name holds a character that is not a letter, digit, space, `'`, `-` or `.`.
    #[error(
        "a knight's name may use letters, digits, spaces, ' - and . only; '{0}' is not allowed"
    )]
    Character(char),
}

/// A word that names nothing of its kind (a skill, a monarch); carries the word and what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown {kind} '{word}'; expected one of: {expected}")]
pub struct UnknownName {
    /// What kind of name was expected ("skill", "psi skill", "monarch").
    pub kind: &'static str,
    /// The word as given.
    pub word: String,
    /// The accepted words, comma-separated.
    pub expected: &'static str,
}

/// Checks a name by R122 and returns it with its spaces trimmed and inner runs made one.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameError::TooLong(chars));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, ' ' | '\'' | '-' | '.')))
    {
        return Err(NameError::Character(c));
    }
    Ok(name)
}

/// A name folded for comparison: lower case, accents taken off Latin letters, runs of spaces one.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
    {
        for l in c.to_lowercase() {
            match base(l) {
                Some(b) => out.push_str(b),
                None => out.push(l),
            }
        }
    }
    out
}

/// The plain letters of an accented lower-case Latin letter.
fn base(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // R122: 1 to 32 characters of letters, digits, spaces, ' - and .; R170: spaces fold.
    #[test]
    fn r122_a_name_is_checked_and_its_spaces_folded() {
        assert_eq!(check_name("  Sir   Alan "), Ok("Sir Alan".to_string()));
        assert_eq!(
            check_name("Éowyn O'Neil-Ap. 2"),
            Ok("Éowyn O'Neil-Ap. 2".to_string())
        );
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"a".repeat(32)).map(|n| n.len()), Ok(32));
        assert_eq!(check_name(&"a".repeat(33)), Err(NameError::TooLong(33)));
        assert_eq!(check_name("Al@n"), Err(NameError::Character('@')));
    }
}
