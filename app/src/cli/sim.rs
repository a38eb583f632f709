//! `tapscope sim --adb ADDR`: the simulated phone served on the device side of ADB's
//! transport, so the real `adb` server connects to it (`adb connect ADDR`) and every
//! adb-based tool drives it with no emulator. Loopback only.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use tapscope_core::device::adbd::{
    self, Backend, CommandOutput, DeviceSocket, DirEntry, FileStat, Identity, PushedFile,
    SocketName,
};
use tapscope_core::device::sim::Build;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::shell::SimShell;
use tapscope_core::stability::RealClock;

use super::Outcome;
use super::output::note;

#[derive(Debug, Args)]
pub struct SimArgs {
    /// Serve the sim as an ADB device at this loopback address (port 0 for any free one);
    /// then `adb connect ADDR`.
    #[arg(long, value_name = "ADDR")]
    adb: SocketAddr,
    /// `instant`, or `phone`: a stock phone's latencies (a dump about 2 s, `input` 60 ms,
    /// `screencap -p` 800 ms). Dumps wait for the screen to go idle either way, as stock
    /// `uiautomator dump` does.
    #[arg(long, default_value = "instant", value_parser = parse_profile)]
    profile: Profile,
    /// Which release of the sim's app it runs: `sim`, or `sim-next` (the next release,
    /// with its regressions and its crash).
    #[arg(long, default_value = "sim", value_parser = parse_build)]
    build: Build,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Install droidrun's Portal on the sim, its accessibility service on: its content
    /// provider then answers `state_full`, and tapscope's `--look auto` reads through it.
    #[arg(long)]
    portal: bool,
    /// Log every command the device runs, its exit status and how long it took.
    #[arg(long, short)]
    verbose: bool,
}

/// A backend that logs each command to stderr before and after it runs.
struct Logged<B>(B);

impl<B: Backend> Backend for Logged<B> {
    fn identity(&self) -> Identity {
        self.0.identity()
    }

    fn run(&self, command: &str, out: &mut dyn CommandOutput) -> u8 {
        note!("tapscope sim: $ {command}");
        let started = Instant::now();
        let status = self.0.run(command, out);
        note!(
            "tapscope sim: exit {status} after {} ms: {command}",
            started.elapsed().as_millis()
        );
        status
    }

    fn file(&self, path: &str) -> Option<Vec<u8>> {
        note!("tapscope sim: pull {path}");
        self.0.file(path)
    }

    fn stat(&self, path: &str) -> Option<FileStat> {
        self.0.stat(path)
    }

    fn list(&self, dir: &str) -> Vec<DirEntry> {
        note!("tapscope sim: list {dir}");
        self.0.list(dir)
    }

    fn push(&self, path: &str, mode: u32) -> Result<Box<dyn PushedFile + '_>, String> {
        note!("tapscope sim: push {path} (mode {mode:o})");
        self.0.push(path, mode)
    }

    fn open_socket(&self, destination: &SocketName) -> Option<Box<dyn DeviceSocket + '_>> {
        let socket = self.0.open_socket(destination);
        let answer = if socket.is_some() {
            "open"
        } else {
            "nothing listens"
        };
        note!("tapscope sim: connect {destination:?}: {answer}");
        socket
    }
}

fn parse_profile(name: &str) -> Result<Profile, String> {
    name.parse()
}

fn parse_build(name: &str) -> Result<Build, String> {
    name.parse()
}

pub fn run(args: &SimArgs) -> anyhow::Result<Outcome> {
    let listener = adbd::bind(args.adb)?;
    let shell = SimShell::with_build(RealClock::new(), args.seed, args.profile, args.build);
    if args.portal {
        shell.install_portal();
    }
    let server = if args.verbose {
        adbd::serve(listener, Arc::new(Logged(shell)))?
    } else {
        adbd::serve(listener, Arc::new(shell))?
    };
    let at = server.local_addr();
    note!(
        "tapscope: the sim (profile {}) is an ADB device at {at}; connect it with \
         `adb connect {at}`, then use serial {at}; Ctrl-C stops",
        args.profile.name()
    );
    super::until_interrupted()?;
    server.stop();
    note!("tapscope: stopped");
    Ok(Outcome::Ok)
}
