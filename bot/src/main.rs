//! The `herald` binary: maps the command line to [`herald_bot::cli::run`] and its result to an
//! exit code.

fn main() -> std::process::ExitCode {
    match herald_bot::cli::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("herald: {err:#}");
            match err.downcast_ref::<herald_bot::cli::Exit>() {
                Some(exit) => std::process::ExitCode::from(exit.code),
                None => std::process::ExitCode::FAILURE,
            }
        }
    }
}
