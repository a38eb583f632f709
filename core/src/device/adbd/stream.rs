//! One connection's socket shared by its threads ([`Link`]), and its streams with ADB's
//! flow control ([`Stream`]): one WRTE in flight until the host's OKAY, output queued
//! meanwhile, and host input held to a bound by keeping back our OKAY.
//!
//! Locks are always taken socket first, then a stream's state: that keeps a stream's
//! CLSE after its last WRTE, whichever thread closes it.

use std::io::{self, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{Condvar, Mutex, MutexGuard};

use super::command::Command;
use super::error::ProtocolError;
use super::message::encode;

/// The socket of one connection, written whole messages at a time by any of its threads.
#[derive(Debug)]
pub(super) struct Link {
    socket: TcpStream,
    writing: Mutex<()>,
    alive: AtomicBool,
    /// Why writing failed, when it did: the connection ends for that reason.
    failure: Mutex<Option<String>>,
}

impl Link {
    pub(super) fn new(socket: TcpStream) -> Self {
        Self {
            socket,
            writing: Mutex::new(()),
            alive: AtomicBool::new(true),
            failure: Mutex::new(None),
        }
    }

    pub(super) fn socket(&self) -> &TcpStream {
        &self.socket
    }

    /// Holds the socket for writing, so several messages go out with nothing between.
    pub(super) fn hold(&self) -> Held<'_> {
        Held {
            link: self,
            _writing: self.writing.lock(),
        }
    }

    pub(super) fn send(
        &self,
        command: Command,
        arg0: u32,
        arg1: u32,
        data: &[u8],
    ) -> io::Result<()> {
        self.hold().send(command, arg0, arg1, data)
    }

    pub(super) fn is_alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    /// Ends the connection: the reading thread sees the socket close and closes every
    /// stream.
    pub(super) fn kill(&self) {
        self.alive.store(false, Ordering::SeqCst);
        let _ = self.socket.shutdown(Shutdown::Both);
    }

    pub(super) fn failure(&self) -> Option<String> {
        self.failure.lock().clone()
    }
}

/// The socket held for writing.
pub(super) struct Held<'a> {
    link: &'a Link,
    _writing: MutexGuard<'a, ()>,
}

impl Held<'_> {
    /// Writes one message whole; a failure (the peer gone, or not reading within the
    /// write timeout) ends the connection.
    pub(super) fn send(
        &mut self,
        command: Command,
        arg0: u32,
        arg1: u32,
        data: &[u8],
    ) -> io::Result<()> {
        if !self.link.is_alive() {
            return Err(io::ErrorKind::NotConnected.into());
        }
        let bytes = encode(command, arg0, arg1, data);
        if let Err(e) = (&self.link.socket).write_all(&bytes) {
            self.link
                .failure
                .lock()
                .get_or_insert_with(|| format!("writing {command}: {e}"));
            self.link.kill();
            return Err(e);
        }
        Ok(())
    }
}

/// One open stream between a host socket (`remote_id`) and a service here (`local_id`).
#[derive(Debug)]
pub(super) struct Stream {
    pub(super) local_id: u32,
    pub(super) remote_id: u32,
    link: Arc<Link>,
    /// The negotiated max payload: the most one WRTE carries, and the output queue's size.
    chunk: usize,
    /// Host input held past this many bytes keeps back our OKAY.
    input_limit: usize,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    closed: bool,
    /// A WRTE of ours is out and the host's OKAY has not come back.
    awaiting_okay: bool,
    outbox: Vec<u8>,
    inbox: Vec<u8>,
    /// The host's last WRTE is not yet acknowledged: the inbox was over its limit.
    okay_owed: bool,
}

impl Stream {
    pub(super) fn new(
        local_id: u32,
        remote_id: u32,
        link: Arc<Link>,
        chunk: usize,
        input_limit: usize,
    ) -> Arc<Self> {
        Arc::new(Self {
            local_id,
            remote_id,
            link,
            chunk,
            input_limit,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        })
    }

    /// Queues output, blocking while the queue is full; fails once the stream is closed.
    pub(super) fn write(&self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            {
                let mut state = self.state.lock();
                loop {
                    if state.closed || !self.link.is_alive() {
                        return Err(io::Error::new(
                            io::ErrorKind::BrokenPipe,
                            "the host closed the stream",
                        ));
                    }
                    if state.outbox.len() < self.chunk {
                        break;
                    }
                    self.changed.wait(&mut state);
                }
                let take = (self.chunk - state.outbox.len()).min(bytes.len());
                state.outbox.extend_from_slice(&bytes[..take]);
                bytes = &bytes[take..];
            }
            self.pump();
        }
        Ok(())
    }

    /// Takes all input that has arrived. Blocks for some when `block`, else may give
    /// nothing; `None` once the stream is closed and nothing is left.
    pub(super) fn take_input(&self, block: bool) -> Option<Vec<u8>> {
        let mut state = self.state.lock();
        loop {
            if !state.inbox.is_empty() {
                let bytes = std::mem::take(&mut state.inbox);
                let owed = std::mem::replace(&mut state.okay_owed, false) && !state.closed;
                drop(state);
                if owed {
                    let _ = self
                        .link
                        .send(Command::Okay, self.local_id, self.remote_id, &[]);
                }
                return Some(bytes);
            }
            if state.closed || !self.link.is_alive() {
                return None;
            }
            if !block {
                return Some(Vec::new());
            }
            self.changed.wait(&mut state);
        }
    }

    pub(super) fn is_closed(&self) -> bool {
        self.state.lock().closed || !self.link.is_alive()
    }

    /// Sends what is queued, waits for its OKAY, then closes with CLSE. Nothing is sent
    /// if the stream is closed already.
    pub(super) fn finish(&self) {
        {
            let mut state = self.state.lock();
            while !state.closed
                && self.link.is_alive()
                && (state.awaiting_okay || !state.outbox.is_empty())
            {
                self.changed.wait(&mut state);
            }
        }
        self.close_with(|_| {});
    }

    /// OKAY to the host's OPEN, for a service that answers it itself (a socket).
    pub(super) fn accept(&self) -> io::Result<()> {
        self.link
            .send(Command::Okay, self.local_id, self.remote_id, &[])
    }

    /// CLSE(0, host id) to the host's OPEN, as adbd refuses a socket nothing listens on;
    /// the stream is closed without a CLSE of its own.
    pub(super) fn refuse(&self) {
        let mut socket = self.link.hold();
        {
            let mut state = self.state.lock();
            if state.closed {
                return;
            }
            state.closed = true;
            self.changed.notify_all();
        }
        let _ = socket.send(Command::Close, 0, self.remote_id, &[]);
    }

    /// The host's OKAY for our last WRTE: the next one may go.
    pub(super) fn acknowledged(&self) {
        {
            let mut state = self.state.lock();
            state.awaiting_okay = false;
            self.changed.notify_all();
        }
        self.pump();
    }

    /// The host's WRTE: kept for the service, acknowledged at once while the input held
    /// is under its limit, else when the service takes it. The socket is held from the
    /// start, so the OKAY goes out before anything the service does with the data.
    pub(super) fn received(&self, data: Vec<u8>) -> Result<(), ProtocolError> {
        let mut socket = self.link.hold();
        let mut state = self.state.lock();
        if state.closed {
            return Ok(());
        }
        if state.okay_owed {
            return Err(ProtocolError::FlowControl(self.local_id));
        }
        state.inbox.extend_from_slice(&data);
        state.okay_owed = state.inbox.len() > self.input_limit;
        let owed = state.okay_owed;
        self.changed.notify_all();
        drop(state);
        if !owed {
            socket.send(Command::Okay, self.local_id, self.remote_id, &[])?;
        }
        Ok(())
    }

    /// The host's CLSE: answered with ours, as adbd does, unless we closed first.
    pub(super) fn closed_by_host(&self) {
        self.close_with(|state| state.outbox.clear());
    }

    /// The connection is gone: wakes the service, which sees the stream closed.
    pub(super) fn abandon(&self) {
        self.state.lock().closed = true;
        self.changed.notify_all();
    }

    /// Marks the stream closed and sends CLSE, once, with the socket held throughout.
    fn close_with(&self, also: impl FnOnce(&mut State)) {
        let mut socket = self.link.hold();
        {
            let mut state = self.state.lock();
            if state.closed {
                return;
            }
            state.closed = true;
            also(&mut state);
            self.changed.notify_all();
        }
        let _ = socket.send(Command::Close, self.local_id, self.remote_id, &[]);
    }

    /// Sends the next WRTE when none is in flight and output is queued.
    fn pump(&self) {
        let mut socket = self.link.hold();
        let data = {
            let mut state = self.state.lock();
            if state.closed || state.awaiting_okay || state.outbox.is_empty() {
                return;
            }
            let take = self.chunk.min(state.outbox.len());
            state.awaiting_okay = true;
            self.changed.notify_all();
            state.outbox.drain(..take).collect::<Vec<u8>>()
        };
        let _ = socket.send(Command::Write, self.local_id, self.remote_id, &data);
    }
}
