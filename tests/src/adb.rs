//! A private adb server: Debian's real `adb` on a port of its own, with a home of its own
//! for its key and log, killed when dropped (also when the test fails). Tests that need
//! it fail, saying what to install, when `adb` is missing.

use std::net::{SocketAddrV4, TcpListener};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::child::Running;

/// How long an adb server is given to see a device come online.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running private adb server.
#[derive(Debug)]
pub struct PrivateAdb {
    port: u16,
    home: TempDir,
}

impl PrivateAdb {
    /// Starts one on a free loopback port.
    pub fn start() -> PrivateAdb {
        require("adb", "version", "apt-get install adb");
        let mut adb = PrivateAdb {
            port: 0,
            home: tempfile::tempdir().expect("a temporary home for adb"),
        };
        // A free port, released for adb to take; another test may take it first.
        let started = (0..5).any(|_| {
            adb.port = free_port();
            adb.run(&["start-server"]).status.success()
        });
        assert!(started, "no private adb server would start");
        adb
    }

    /// Where the server listens: what tapscope's ADB device is told.
    pub fn server_address(&self) -> SocketAddrV4 {
        SocketAddrV4::new([127, 0, 0, 1].into(), self.port)
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The private server's environment, for adb or for a program that uses it.
    pub fn environment<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        command
            .env("ANDROID_ADB_SERVER_PORT", self.port.to_string())
            // adb keeps its key and log here, not in the real home.
            .env("HOME", self.home.path())
            .env("ANDROID_ADB_LOG_PATH", self.home.path().join("adb.log"))
            .env_remove("ADB_SERVER_SOCKET")
            .env_remove("ANDROID_SERIAL")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("adb");
        self.environment(&mut command)
            .args(args)
            .stdin(Stdio::null());
        command
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("running adb")
    }

    /// `adb -s SERIAL ARGS…`.
    pub fn on(&self, serial: &str, args: &[&str]) -> Output {
        self.run(&[&["-s", serial], args].concat())
    }

    /// Starts `sim` (a `tapscope sim --adb 127.0.0.1:0 …` command) and connects this
    /// server to it once it says where it listens: the running sim and its serial.
    pub fn connect_sim(&self, sim: Command) -> (Running, String) {
        let mut sim = Running::spawn(sim);
        let serial = sim
            .address_after(" is an ADB device at ", Duration::from_secs(60))
            .to_string();
        self.connect(&serial);
        (sim, serial)
    }

    /// `adb connect SERIAL`, then waits until `adb devices` lists it as a device.
    pub fn connect(&self, serial: &str) {
        let connect = self.run(&["connect", serial]);
        let said = text(&connect.stdout);
        assert!(said.contains("connected to"), "{said} {connect:?}");
        let line = format!("{serial}\tdevice");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let listed = text(&self.run(&["devices"]).stdout);
            if listed.lines().any(|l| l.trim() == line) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{serial} never online:\n{listed}"
            );
            // adb itself offers no event for this: its list is polled.
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for PrivateAdb {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Fails, saying what to install, when `program` is missing.
pub fn require(program: &str, arg: &str, install: &str) {
    if Command::new(program).arg(arg).output().is_err() {
        panic!("this test needs the real `{program}`: {install}");
    }
}

fn free_port() -> u16 {
    let probe = TcpListener::bind("127.0.0.1:0").expect("a free port on loopback");
    probe.local_addr().expect("its address").port()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
