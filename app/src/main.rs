//! `tapscope`: the command line over tapscope-core. Parses arguments, runs one command,
//! reports any error once, and exits 0 (ok), 1 (a check failed) or 2 (bad usage or input).

use std::process::ExitCode;

use clap::Parser;
use tapscope::cli;

fn main() -> ExitCode {
    let args = match cli::Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::run(args) {
        Ok(outcome) => outcome.into(),
        Err(error) => {
            eprintln!("tapscope: {error:#}");
            ExitCode::from(2)
        }
    }
}
