//! The listener: loopback-only binding, one thread per connection up to a limit, the
//! record of dropped connections, and stopping it all.

use std::collections::{HashMap, VecDeque};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::{Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::error::{AdbdError, ProtocolError};
use super::limits::Limits;
use super::message::MIN_PEER_PAYLOAD;
use super::{Backend, connection};

/// A connection the server closed because of what the peer did (or failed to do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub peer: SocketAddr,
    pub reason: String,
}

/// The largest max payload any host accepts.
const MAX_PAYLOAD: usize = 1024 * 1024;
/// How many dropped connections are remembered.
const DROPPED_KEPT: usize = 64;

/// A running device server; [`Server::stop`] or dropping it ends every connection.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct Shared {
    stopping: AtomicBool,
    next_connection: AtomicU64,
    connections: Mutex<HashMap<u64, Live>>,
    dropped: Mutex<DroppedLog>,
    dropped_signal: Condvar,
}

/// A connection being served: a handle on its socket, to close it, its thread, and
/// whether its host has connected (sent its CNXN and had it answered).
#[derive(Debug)]
struct Live {
    socket: TcpStream,
    thread: JoinHandle<()>,
    connected: Arc<AtomicBool>,
}

#[derive(Debug, Default)]
struct DroppedLog {
    latest: VecDeque<Dropped>,
    /// All ever dropped, including those no longer kept.
    total: usize,
}

/// A listener bound to a loopback address only; anything else is refused with an error
/// saying why, before anything is bound.
pub fn bind(addr: SocketAddr) -> Result<TcpListener, AdbdError> {
    if !addr.ip().is_loopback() {
        return Err(AdbdError::NotLoopback { addr });
    }
    TcpListener::bind(addr).map_err(|source| AdbdError::Bind { addr, source })
}

/// Serves connections with [`Limits::default`] until stopped; returns at once.
pub fn serve<B: Backend>(listener: TcpListener, backend: Arc<B>) -> Result<Server, AdbdError> {
    serve_with(listener, backend, Limits::default())
}

/// Serves connections, each on threads of its own, until stopped; returns at once. The
/// listener must be on loopback, as [`bind`] makes it.
pub fn serve_with<B: Backend>(
    listener: TcpListener,
    backend: Arc<B>,
    limits: Limits,
) -> Result<Server, AdbdError> {
    let addr = listener.local_addr().map_err(AdbdError::Start)?;
    if !addr.ip().is_loopback() {
        return Err(AdbdError::NotLoopback { addr });
    }
    let limits = Limits {
        max_payload: limits
            .max_payload
            .clamp(MIN_PEER_PAYLOAD as usize, MAX_PAYLOAD),
        ..limits
    };
    let shared = Arc::new(Shared::default());
    let backend: Arc<dyn Backend> = backend;
    let accepting = Arc::clone(&shared);
    let acceptor = std::thread::Builder::new()
        .name(format!("adbd accept {addr}"))
        .spawn(move || accept(&listener, &accepting, &backend, limits))
        .map_err(AdbdError::Start)?;
    Ok(Server {
        addr,
        shared,
        acceptor: Some(acceptor),
    })
}

impl Server {
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The connections dropped so far for what their peer did, the latest last (at most
    /// the last 64).
    pub fn dropped(&self) -> Vec<Dropped> {
        self.shared.dropped.lock().latest.iter().cloned().collect()
    }

    /// Waits until `count` connections in all have been dropped, or `timeout` passes;
    /// then as [`Server::dropped`].
    pub fn wait_dropped(&self, count: usize, timeout: Duration) -> Vec<Dropped> {
        let deadline = Instant::now() + timeout;
        let mut dropped = self.shared.dropped.lock();
        while dropped.total < count {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            self.shared.dropped_signal.wait_for(&mut dropped, left);
        }
        dropped.latest.iter().cloned().collect()
    }

    /// Closes the listener and every connection, and waits for their threads.
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let Some(acceptor) = self.acceptor.take() else {
            return;
        };
        self.shared.stopping.store(true, Ordering::SeqCst);
        // `accept` blocks until someone connects: be that someone.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(2));
        let _ = acceptor.join();
        let connections: Vec<_> = self.shared.connections.lock().drain().collect();
        for (_, live) in connections {
            let _ = live.socket.shutdown(std::net::Shutdown::Both);
            let _ = live.thread.join();
        }
    }
}

fn accept(
    listener: &TcpListener,
    shared: &Arc<Shared>,
    backend: &Arc<dyn Backend>,
    limits: Limits,
) {
    for incoming in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(socket) = incoming else {
            // Out of file descriptors, or a connection reset before it was accepted.
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let peer = socket
            .peer_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)));
        if !shared.room_for_one(limits.max_connections) {
            shared.record(
                peer,
                ProtocolError::TooManyConnections(limits.max_connections).to_string(),
            );
            continue;
        }
        if let Err(e) = start_connection(socket, peer, shared, backend, limits) {
            shared.record(peer, ProtocolError::Io(e).to_string());
        }
    }
}

fn start_connection(
    socket: TcpStream,
    peer: SocketAddr,
    shared: &Arc<Shared>,
    backend: &Arc<dyn Backend>,
    limits: Limits,
) -> std::io::Result<()> {
    let id = shared.next_connection.fetch_add(1, Ordering::SeqCst);
    let handle = socket.try_clone()?;
    let (owner, backend) = (Arc::clone(shared), Arc::clone(backend));
    let connected = Arc::new(AtomicBool::new(false));
    let connected_here = Arc::clone(&connected);
    // Registered before the thread runs, so its removal at the end cannot come first.
    let mut connections = shared.connections.lock();
    let thread = std::thread::Builder::new()
        .name(format!("adbd {peer}"))
        .spawn(move || {
            let report = |reason| owner.record(peer, reason);
            connection::serve(socket, backend, limits, connected_here, report);
            owner.connections.lock().remove(&id);
        })?;
    connections.insert(
        id,
        Live {
            socket: handle,
            thread,
            connected,
        },
    );
    Ok(())
}

impl Shared {
    /// Whether one more connection fits under `max`: at the limit, the oldest connection
    /// whose host has not connected yet is closed to make room, so half-open sockets
    /// cannot lock hosts out (a real host sends its CNXN at once).
    fn room_for_one(&self, max: usize) -> bool {
        let mut connections = self.connections.lock();
        if connections.len() < max {
            return true;
        }
        let oldest_unconnected = connections
            .iter()
            .filter(|(_, live)| !live.connected.load(Ordering::SeqCst))
            .map(|(&id, _)| id)
            .min();
        let Some(live) = oldest_unconnected.and_then(|id| connections.remove(&id)) else {
            return false;
        };
        drop(connections);
        let peer = live
            .socket
            .peer_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)));
        let _ = live.socket.shutdown(std::net::Shutdown::Both);
        self.record(peer, ProtocolError::MadeRoom(max).to_string());
        true
    }

    fn record(&self, peer: SocketAddr, reason: String) {
        let mut dropped = self.dropped.lock();
        if dropped.latest.len() == DROPPED_KEPT {
            dropped.latest.pop_front();
        }
        dropped.latest.push_back(Dropped { peer, reason });
        dropped.total += 1;
        self.dropped_signal.notify_all();
    }
}
