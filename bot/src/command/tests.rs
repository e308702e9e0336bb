//! The parser's index of a table: every lookup agrees with a search of the table in order.

use super::*;

#[test]
fn a_commands_own_name_finds_the_entry_a_search_finds() {
    // Every command's access is read through `spec_named`: it must agree with `find_spec`.
    for spec in COMMANDS {
        for name in std::iter::once(spec.name()).chain(spec.aliases.iter().map(|a| a.to_string())) {
            let named = super::table::spec_named(&name).map(|s| s.name());
            assert_eq!(named, find_spec(&name).map(|s| s.name()), "{name}");
            assert!(named.is_some(), "{name}");
        }
        // One word too many or too few is no entry's name.
        assert!(!spec.is(&format!("{} x", spec.name())), "{}", spec.name());
        if let [first, _] = spec.path {
            assert!(!spec.is(first), "{}", spec.name());
            assert!(
                !spec.is(&format!("{first}  {}", spec.path[1])),
                "{}",
                spec.name()
            );
        }
    }
    assert!(super::table::spec_named("a game's command").is_none());
    assert!(super::table::spec_named("Roll").is_none());
}

#[test]
fn every_tables_words_find_what_a_search_of_the_table_finds() {
    // Lines are read through each table's index: it must find the entry a search in table
    // order finds, for every word, phrase and alias, and the same groups.
    let mut tables: Vec<&'static [CommandSpec]> = vec![COMMANDS, &SHARED];
    tables.extend(crate::games::GAMES.iter().map(|g| (g.commands)()));
    let name = |s: Option<&'static CommandSpec>| s.map(|s| s.name());
    for table in tables {
        for spec in table {
            let words = spec.path.len();
            let phrases = std::iter::once(spec.name())
                .chain(spec.aliases.iter().map(|a| a.to_string()))
                .chain(spec.path.first().map(|w| w.to_string()));
            for phrase in phrases {
                for n in [1, 2] {
                    let searched = table.iter().find(|s| s.path.len() == n && s.is(&phrase));
                    assert_eq!(
                        name(super::named(&[table], n, &phrase)),
                        name(searched),
                        "{phrase} ({n} words)"
                    );
                }
                let group = table
                    .iter()
                    .find(|s| s.path.len() == 2 && s.first_word() == phrase)
                    .map(|s| s.first_word());
                assert_eq!(super::group_of(&[table], &phrase).map(|g| g.0), group);
            }
            assert!(words != 1 || super::named(&[table], 1, spec.path[0]).is_some());
        }
        assert!(super::named(&[table], 1, "frobnicate").is_none());
    }
}
