//! The `herald` binary: maps the command line to [`herald_bot::cli::run`] and its result to an
//! exit code.

fn main() -> std::process::ExitCode {
    match herald_bot::cli::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("herald: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
