//! A fake phone behind the adbd transport, for the `adbd_*.rs` tests:
//! a few commands whose output the tests know exactly, two files, and a channel that
//! tells the tests what the commands saw.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

pub mod adb_server;
pub mod client;

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tapscope_core::device::adbd::{self, Backend, CommandOutput, Identity, Limits, Server};

pub const MODEL: &str = "Fake Phone 7";
pub const DEVICE: &str = "fakephone";
pub const DUMP_PATH: &str = "/sdcard/window_dump.xml";
pub const DUMP: &[u8] =
    b"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\" />";
pub const BIG_PATH: &str = "/sdcard/big.bin";
pub const BIG_LEN: usize = 300_000;
/// How long a test waits for a signal before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// What a command saw, sent as it happens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A command line reached the backend.
    Ran(String),
    /// A long-running command saw `closed()` or a failed write, and returned.
    Stopped(String),
}

/// The fake phone. Commands:
/// `echo WORDS`, `true`, `false`, `exit-with N`, `warn TEXT` (to stderr),
/// `blob LEN SEED` (pseudo-random bytes), `lines N` (one write per line),
/// `endless` (output until the stream closes), `wait` (until the stream closes),
/// `deaf` (blocks, reading nothing, until [`FakePhone::release`]), `panic`; anything else
/// is "not found" with status 127.
pub struct FakePhone {
    files: HashMap<String, Vec<u8>>,
    seen: Mutex<Sender<Seen>>,
    released: (Mutex<bool>, Condvar),
}

impl FakePhone {
    pub fn new() -> (Arc<Self>, Receiver<Seen>) {
        let (sender, receiver) = channel();
        let files = HashMap::from([
            (DUMP_PATH.to_owned(), DUMP.to_vec()),
            (BIG_PATH.to_owned(), blob(BIG_LEN, 5)),
        ]);
        let phone = Self {
            files,
            seen: Mutex::new(sender),
            released: (Mutex::new(false), Condvar::new()),
        };
        (Arc::new(phone), receiver)
    }

    /// Lets every `deaf` command return.
    pub fn release(&self) {
        *self.released.0.lock().expect("the release flag") = true;
        self.released.1.notify_all();
    }

    fn tell(&self, seen: Seen) {
        let _ = self.seen.lock().expect("the seen channel").send(seen);
    }
}

/// `len` pseudo-random bytes, the same for the same seed.
pub fn blob(len: usize, seed: u64) -> Vec<u8> {
    let mut bytes = vec![0; len];
    fastrand::Rng::with_seed(seed).fill(&mut bytes);
    bytes
}

impl Backend for FakePhone {
    fn identity(&self) -> Identity {
        Identity {
            product: "tapscope_fake".into(),
            model: MODEL.into(),
            device: DEVICE.into(),
        }
    }

    fn run(&self, command: &str, out: &mut dyn CommandOutput) -> u8 {
        self.tell(Seen::Ran(command.to_owned()));
        let (name, rest) = command.split_once(' ').unwrap_or((command, ""));
        let arg = |i: usize| rest.split(' ').nth(i).and_then(|a| a.parse().ok());
        let result: io::Result<u8> = match name {
            "echo" => out.stdout(format!("{rest}\n").as_bytes()).map(|()| 0),
            "true" => Ok(0),
            "false" => Ok(1),
            "exit-with" => Ok(arg(0).unwrap_or(255) as u8),
            "warn" => out.stderr(format!("{rest}\n").as_bytes()).map(|()| 0),
            "blob" => {
                let bytes = blob(arg(0).unwrap_or(0), arg(1).unwrap_or(0) as u64);
                bytes
                    .chunks(8192)
                    .try_for_each(|c| out.stdout(c))
                    .map(|()| 0)
            }
            "lines" => (0..arg(0).unwrap_or(0))
                .try_for_each(|i| out.stdout(format!("line {i}\n").as_bytes()))
                .map(|()| 0),
            "endless" => {
                while !out.closed() && out.stdout(&[b'y'; 65536]).is_ok() {}
                self.tell(Seen::Stopped(command.to_owned()));
                Ok(0)
            }
            "wait" => {
                // A real command would block on its work; this one samples `closed()`.
                while !out.closed() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                self.tell(Seen::Stopped(command.to_owned()));
                Ok(0)
            }
            "deaf" => {
                let (released, signal) = &self.released;
                let guard = released.lock().expect("the release flag");
                let waited = signal.wait_timeout_while(guard, PATIENCE, |released| !*released);
                drop(waited.expect("the release flag"));
                Ok(0)
            }
            "panic" => panic!("the fake phone was told to panic"),
            _ => out
                .stderr(format!("/system/bin/sh: {name}: inaccessible or not found\n").as_bytes())
                .map(|()| 127),
        };
        result.unwrap_or(0)
    }

    fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.files.get(path).cloned()
    }
}

/// Waits for `wanted` on the phone's channel, skipping anything else; fails the test if
/// it does not come.
pub fn expect_seen(seen: &Receiver<Seen>, wanted: &Seen) {
    loop {
        match seen.recv_timeout(PATIENCE) {
            Ok(got) if &got == wanted => return,
            Ok(_) => {}
            Err(e) => panic!("waited for {wanted:?}: {e}"),
        }
    }
}

/// The fake phone served on 127.0.0.1 at a free port.
pub struct Served {
    pub server: Server,
    pub phone: Arc<FakePhone>,
    pub seen: Receiver<Seen>,
}

pub fn start(limits: Limits) -> Served {
    let (phone, seen) = FakePhone::new();
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    let listener = adbd::bind(loopback).expect("a free port on loopback");
    let server = adbd::serve_with(listener, Arc::clone(&phone), limits).expect("adbd starts");
    Served {
        server,
        phone,
        seen,
    }
}
