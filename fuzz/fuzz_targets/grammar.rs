//! The chat grammar against any bytes: never panics, and a refusal is one non-empty line that
//! a chat network will carry as a single message.
#![no_main]

use herald_bot::command::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let Some(result) = parse(&line, &['/', '!']) else {
        return;
    };
    match result {
        Err(e) => {
            let reply = e.to_string();
            assert!(!reply.is_empty());
            assert!(
                !reply
                    .chars()
                    .any(|c| c.is_control() || (c.is_whitespace() && c != ' ')),
                "a refusal breaks the line: {reply:?}"
            );
            assert_eq!(reply, e.message());
        }
        Ok(command) => {
            // Every command the grammar accepts is in the table that drives `/help`.
            assert!(command.spec().is_some(), "{} has no table entry", command.name());
        }
    }
});
