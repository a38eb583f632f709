//! `tapscope`: the command line over tapscope-core. Parses arguments, runs one command,
//! reports any error once, and exits 0 (ok, or the reader of standard output went away),
//! 1 (a check failed) or 2 (bad usage or input, or output that could not be written).

use std::process::ExitCode;

use clap::Parser;
use tapscope::cli::{self, output};

fn main() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // Help and the version go to standard output, usage errors to standard error.
            return match e.print().map_err(output::OutputError::from) {
                Err(failed @ output::OutputError::Failed(_)) => {
                    output::note_line(format_args!("tapscope: {failed}"));
                    ExitCode::from(2)
                }
                _ if e.use_stderr() => ExitCode::from(2),
                _ => ExitCode::SUCCESS,
            };
        }
    };
    match cli::run(args) {
        Ok(outcome) => outcome.into(),
        Err(error) if output::output_closed(&error) => ExitCode::SUCCESS,
        Err(error) => {
            output::note_line(format_args!("tapscope: {error:#}"));
            ExitCode::from(2)
        }
    }
}
