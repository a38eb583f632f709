//! `tapscope helper start|stop u2`: uiautomator2's server on a phone, started from the
//! `u2.jar` of a local uiautomator2 install (found through `python3`, or named by path)
//! and kept running until Ctrl-C, or stopped so stock tools can dump again. Nothing is
//! downloaded.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use tapscope_core::device::adb::helper::{U2_JAR_ON_DEVICE, U2Start};
use tapscope_core::device::adb::{self, AdbDevice};

use super::Outcome;
use super::output::{Stdout, note};

#[derive(Debug, Args)]
pub struct HelperArgs {
    #[command(subcommand)]
    action: HelperAction,
}

#[derive(Debug, Subcommand)]
enum HelperAction {
    /// Push the helper to the phone and run it until Ctrl-C (then it is stopped). A helper
    /// already running is left as it is.
    Start(StartArgs),
    /// Stop the helper on the phone, so stock `uiautomator dump` works again.
    Stop(StopArgs),
}

/// The helpers tapscope can start.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Helper {
    /// uiautomator2's server (`com.wetest.uia2.Main` on device port 9008).
    U2,
}

#[derive(Debug, Args)]
struct StartArgs {
    helper: Helper,
    /// The phone's serial (see `tapscope devices`); the only phone when omitted.
    #[arg(long)]
    device: Option<String>,
    /// uiautomator2's `u2.jar` (default: the one in the `uiautomator2` Python package that
    /// `python3` imports).
    #[arg(long, value_name = "PATH")]
    jar: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct StopArgs {
    helper: Helper,
    #[arg(long)]
    device: Option<String>,
}

pub fn run(args: &HelperArgs) -> anyhow::Result<Outcome> {
    match &args.action {
        HelperAction::Start(start) => run_start(start),
        HelperAction::Stop(stop) => {
            let Helper::U2 = stop.helper;
            let device = AdbDevice::connect_at(adb::server_address()?, stop.device.as_deref())?;
            let was = device.stop_u2()?;
            let mut out = Stdout::lock();
            match was {
                true => writeln!(
                    out,
                    "uiautomator2's server on {} stopped",
                    device_name(&device)
                )?,
                false => writeln!(
                    out,
                    "no uiautomator2 server was running on {}",
                    device_name(&device)
                )?,
            }
            Ok(Outcome::Ok)
        }
    }
}

fn run_start(args: &StartArgs) -> anyhow::Result<Outcome> {
    let Helper::U2 = args.helper;
    let jar_path = match &args.jar {
        Some(path) => path.clone(),
        None => installed_u2_jar()?,
    };
    let jar = read_jar(&jar_path)?;
    let device = AdbDevice::connect_at(adb::server_address()?, args.device.as_deref())?;
    let name = device_name(&device);
    match device.start_u2(&jar)? {
        U2Start::AlreadyRunning => {
            note!("tapscope: uiautomator2's server already answers on {name}: left as it is");
        }
        U2Start::Started(running) => {
            note!(
                "tapscope: uiautomator2's server runs on {name} ({} pushed to \
                 {U2_JAR_ON_DEVICE}); tapscope looks through it; Ctrl-C stops it",
                jar_path.display()
            );
            super::until_interrupted()?;
            drop(running);
            note!("tapscope: uiautomator2's server on {name} stopped");
        }
    }
    Ok(Outcome::Ok)
}

fn device_name(device: &AdbDevice) -> String {
    use tapscope_core::device::Device;
    device.name()
}

/// The jar's bytes, or what is wrong with the file.
fn read_jar(path: &Path) -> anyhow::Result<Vec<u8>> {
    let jar = std::fs::read(path).with_context(|| format!("{}: cannot read it", path.display()))?;
    // A jar is a zip archive.
    if !jar.starts_with(b"PK\x03\x04") {
        bail!(
            "{}: not a jar (no zip header): name uiautomator2's `assets/u2.jar`",
            path.display()
        );
    }
    Ok(jar)
}

/// `assets/u2.jar` of the `uiautomator2` package `python3` imports.
fn installed_u2_jar() -> anyhow::Result<PathBuf> {
    let asked = Process::new("python3")
        .args([
            "-c",
            "import os, uiautomator2; print(os.path.dirname(uiautomator2.__file__))",
        ])
        .output();
    let not_found = "no uiautomator2 install found: `pip install uiautomator2`, or name its \
                     u2.jar with --jar PATH";
    let output = asked.context(not_found)?;
    if !output.status.success() {
        bail!("{not_found}");
    }
    let dir = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    let jar = Path::new(&dir).join("assets").join("u2.jar");
    if !jar.is_file() {
        bail!(
            "uiautomator2 at {dir} has no assets/u2.jar (a version before 3.x?): upgrade it, \
             or name a u2.jar with --jar PATH"
        );
    }
    Ok(jar)
}
