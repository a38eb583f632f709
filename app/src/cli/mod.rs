//! Command-line arguments and dispatch to one module per command.

mod devices;
mod forensics;
mod helper;
mod observe;
pub mod output;
mod proxy;
mod prune;
mod replay;
mod reprune;
mod serve;
mod sim;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Toolkit and workbench for LLM agents that drive Android phones.
#[derive(Debug, Parser)]
#[command(name = "tapscope", version, about)]
pub struct Args {
    /// Without a command, the workbench opens on the demo recording (`recordings/demo` here,
    /// else the one in tapscope's source tree), or on the shipped sample when neither exists.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open the workbench on a recording (its folder or session.jsonl), a dump, a dump with
    /// its screenshot (same stem, .png), or a folder of dumps. A replayed run opens beside
    /// the recording it replays.
    Open {
        /// The recording, dump or folder to open.
        path: PathBuf,
        /// Compare the recording PATH with this one, step by step (default: the one PATH's
        /// header says it replays, if any).
        #[arg(long, value_name = "ORIGINAL")]
        against: Option<PathBuf>,
    },
    /// Prune an accessibility dump into the compact tree an agent reads.
    Prune(prune::PruneArgs),
    /// Measure many dumps at once: tokens raw vs pruned, reduction, recall.
    Stats(stats::StatsArgs),
    /// Re-prune a whole recording under new rules: tokens then and now per step, semantic
    /// nodes lost, steps whose target would no longer be addressable; exits 1 when the
    /// rules lose a node or a target.
    Reprune(reprune::RepruneArgs),
    /// Review every step of a recording for an action on a screen that was gone: a stale
    /// handle refused, a tap whose point met something else when it landed; exits 1 when
    /// any step did.
    Forensics(forensics::ForensicsArgs),
    /// List the devices tapscope can drive: the built-in `sim` and phones over ADB.
    Devices(devices::DevicesArgs),
    /// Read a device's screen as an agent does, after optional steps (act, settle, observe).
    Observe(observe::ObserveArgs),
    /// Serve a phone (the sim, or one over ADB) to MCP clients (LLM agents) over streamable
    /// HTTP or stdio, optionally recording every call.
    Serve(serve::ServeArgs),
    /// Re-run recorded sessions on a device and compare each step with its recording:
    /// exit 0 when every step does what it did, 1 on a divergence.
    Replay(replay::ReplayArgs),
    /// Stand between adb clients and the adb server: every request passes unchanged, and
    /// what clients send their phones is recorded, stale actions on raw coordinates said.
    Proxy(proxy::ProxyArgs),
    /// Start or stop an on-device helper tapscope reads the screen through (uiautomator2's
    /// server), from a local install: nothing is downloaded.
    Helper(helper::HelperArgs),
    /// Serve the simulated phone as an ADB device (`adb connect ADDR`), for adb and every
    /// tool built on it.
    Sim(sim::SimArgs),
    /// Record the demo: a scripted agent drives the sim over MCP through a realistic task.
    RecordDemo {
        /// Where to write it: a new or empty folder, or a demo recording record-demo wrote,
        /// which is replaced; anything else is refused and left as it is.
        #[arg(default_value = crate::demo::DEMO_DIR)]
        dir: PathBuf,
    },
}

/// How a command that ran to the end came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The command ran, and a check it makes failed (exit code 1).
    CheckFailed,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Ok => ExitCode::SUCCESS,
            Outcome::CheckFailed => ExitCode::from(1),
        }
    }
}

/// Blocks until Ctrl-C; where no signal handler can be set, until the process ends.
fn until_interrupted() -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    });
    Ok(())
}

/// Runs the parsed command; errors are bad input or usage (exit code 2).
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    match args.command {
        None => crate::gui::run(crate::gui::default_recording(), None).map(|()| Outcome::Ok),
        Some(Command::Open { path, against }) => {
            for path in std::iter::once(&path).chain(&against) {
                if !path.exists() {
                    anyhow::bail!("{}: no such file or folder", path.display());
                }
            }
            let not_a_recording = std::iter::once(&path)
                .chain(&against)
                .find(|p| !crate::gui::recording::is_recording(p));
            if let (Some(_), Some(path)) = (&against, not_a_recording) {
                anyhow::bail!(
                    "{}: --against compares two recordings, and this is not one",
                    path.display()
                );
            }
            crate::gui::run(Some(path), against).map(|()| Outcome::Ok)
        }
        Some(Command::Prune(args)) => prune::run(&args),
        Some(Command::Stats(args)) => stats::run(&args),
        Some(Command::Reprune(args)) => reprune::run(&args),
        Some(Command::Forensics(args)) => forensics::run(&args),
        Some(Command::Devices(args)) => devices::run(&args),
        Some(Command::Observe(args)) => observe::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Helper(args)) => helper::run(&args),
        Some(Command::Proxy(args)) => proxy::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::RecordDemo { dir }) => {
            let summary = crate::demo::record(&dir)?;
            let mut stdout = output::Stdout::lock();
            writeln!(
                stdout,
                "recorded {} steps ({} refused, {} fallback screenshots) to {}",
                summary.steps,
                summary.refusals,
                summary.fallbacks,
                dir.display()
            )?;
            stdout.flush()?;
            Ok(Outcome::Ok)
        }
    }
}
