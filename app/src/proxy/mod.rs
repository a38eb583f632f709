//! `tapscope proxy`: an adb server on its host face, in front of the real one. Every request
//! goes on to the real server unchanged and every answer comes back unchanged, so every adb
//! client (the adb CLI with `-P`, adbutils, mobile-mcp, droidrun) works through it as it is;
//! the device services opened through it are read as they pass and recorded: looks,
//! screenshots, actions on raw coordinates, transfers and other commands.
//!
//! - `connection`: one client connection: its host requests, a transport switch, then the
//!   device service spliced byte for byte.
//! - `splice`: the two directions copied, each byte handed to a watcher as it passes.
//! - `watch`: what a service's bytes say (a shell's output and exit status, a sync
//!   stream's pulls and pushes).
//! - `rpc`: uiautomator2's JSON-RPC on `tcp:9008`, each call paired with its answer.
//! - `check`: the proxy's own look just before an action goes on (`--check tree|pixels`).
//! - `served`: what passed on one service, as the connection hands it to the recorder.
//! - `recorder`: what passed, as steps of a tapscope recording, and the stale-action
//!   verdicts said as they happen.

mod check;
mod connection;
mod recorder;
mod rpc;
mod served;
mod splice;
mod watch;

use std::net::{IpAddr, Shutdown, SocketAddr, SocketAddrV4, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Context;
use parking_lot::{Condvar, Mutex};
use tapscope_core::recording::Check;

use self::recorder::Recorder;
pub use self::recorder::Said;

/// Where the proxy listens, what it stands in front of, and what it records.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    pub upstream: SocketAddrV4,
    /// The recording folder; `None` forwards and decodes without recording.
    pub record: Option<PathBuf>,
    pub check: Check,
    /// Whether a recording keeps what each phone logged after each action sent it.
    pub logs: bool,
}

/// The most client connections served at once; more are refused with adb's wording.
const MAX_CONNECTIONS: u64 = 256;
/// How long stopping waits for connections to end before the recording is closed.
const STOP_PATIENCE: Duration = Duration::from_secs(30);

/// A running proxy; dropping it stops accepting, ends every connection and closes the
/// recording (every step so far kept).
#[derive(Debug)]
pub struct Proxy {
    address: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

/// What every connection thread shares.
#[derive(Debug)]
struct Shared {
    config: Config,
    started: Instant,
    stopping: AtomicBool,
    next_connection: AtomicU64,
    /// How many connections are being served; told when it falls.
    open: Mutex<u64>,
    closed: Condvar,
    /// Every open client socket, so that stopping ends them.
    clients: Mutex<Vec<(u64, TcpStream)>>,
    /// Taken and closed, every step written, when the proxy stops.
    recorder: Mutex<Option<Recorder>>,
}

impl Proxy {
    /// Binds `config.listen` (loopback only: adb's protocol has no authentication) and
    /// starts serving; `said` hears each stale action as it is found.
    pub fn start(config: Config, said: Option<Said>) -> anyhow::Result<Proxy> {
        refuse_non_loopback(config.listen.ip())?;
        let listener = TcpListener::bind(config.listen)
            .with_context(|| format!("cannot listen at {}", config.listen))?;
        let address = listener.local_addr()?;
        let started = Instant::now();
        let recorder = match &config.record {
            Some(dir) => Some(Recorder::start(dir, &config, started, said)?),
            None => None,
        };
        let shared = Arc::new(Shared {
            config,
            started,
            stopping: AtomicBool::new(false),
            next_connection: AtomicU64::new(1),
            open: Mutex::new(0),
            closed: Condvar::new(),
            clients: Mutex::new(Vec::new()),
            recorder: Mutex::new(recorder),
        });
        let accepting = Arc::clone(&shared);
        let accept = std::thread::Builder::new()
            .name("tapscope proxy".into())
            .spawn(move || accept_loop(&listener, &accepting))?;
        Ok(Proxy {
            address,
            shared,
            accept: Some(accept),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// Stops: no new connections, every open one ended, the recording closed.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wakes the accept loop.
        let _ = TcpStream::connect(self.address);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
        let clients = std::mem::take(&mut *self.shared.clients.lock());
        for (_, client) in clients {
            let _ = client.shutdown(Shutdown::Both);
        }
        // Each connection ends once its sockets are shut (its own look, at most a dump's
        // limit, aside); then the recording is closed with every step it was handed.
        let mut open = self.shared.open.lock();
        self.shared
            .closed
            .wait_while_for(&mut open, |open| *open > 0, STOP_PATIENCE);
        drop(open);
        drop(self.shared.recorder.lock().take());
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Refuses to listen anywhere but loopback, saying why and what to do instead.
pub fn refuse_non_loopback(ip: IpAddr) -> anyhow::Result<()> {
    if ip.is_loopback() {
        return Ok(());
    }
    anyhow::bail!(
        "tapscope proxy listens on loopback only ({ip} was asked): adb's protocol has no \
         authentication, so anyone who reaches the port drives the phone; listen at \
         127.0.0.1 and forward the port over SSH to reach it from elsewhere"
    )
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for client in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(client) = client else { continue };
        let number = shared.next_connection.fetch_add(1, Ordering::SeqCst);
        {
            let mut open = shared.open.lock();
            if *open >= MAX_CONNECTIONS {
                drop(open);
                // Answered on a thread of its own: a silent client must not stall accepting.
                let _ = std::thread::Builder::new().spawn(move || {
                    connection::refuse(client, "too many connections to tapscope proxy")
                });
                continue;
            }
            *open += 1;
        }
        if let Ok(copy) = client.try_clone() {
            shared.clients.lock().push((number, copy));
        }
        let serving = Arc::clone(shared);
        let spawned = std::thread::Builder::new()
            .name(format!("tapscope proxy {number}"))
            .spawn(move || {
                connection::serve(client, number, &serving);
                serving.ended(number);
            });
        if spawned.is_err() {
            shared.ended(number);
        }
    }
}

impl Shared {
    /// Connection `number` is over.
    fn ended(&self, number: u64) {
        self.clients.lock().retain(|(n, _)| *n != number);
        *self.open.lock() -= 1;
        self.closed.notify_all();
    }

    /// Hands what passed on a service to the recording, while there is one.
    fn record(&self, served: served::Served) {
        if let Some(recorder) = &*self.recorder.lock() {
            recorder.served(served);
        }
    }
}
