//! One host connection, read on its own thread: the CNXN handshake, then each message
//! routed to its stream. Anything out of protocol ends this connection only.

use std::collections::HashMap;
use std::io::{self, BufReader};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Backend;
use super::banner::device_banner;
use super::command::Command;
use super::error::ProtocolError;
use super::limits::Limits;
use super::message::{self, MIN_PEER_PAYLOAD, Message, VERSION, VERSION_MIN};
use super::reverse::Reverses;
use super::service;
use super::stream::{Link, Stream};

/// What was agreed in the handshake.
#[derive(Clone, Copy, Debug)]
struct Peer {
    version: u32,
    max_payload: usize,
}

struct Connection {
    link: Arc<Link>,
    backend: Arc<dyn Backend>,
    limits: Limits,
    /// Streams that may still be open, by our id; closed ones are pruned as we go.
    streams: HashMap<u32, Arc<Stream>>,
    /// Our next stream id: ids below it were opened once, ids from it never were.
    next_id: u32,
    peer: Option<Peer>,
    /// What `adb reverse` set up on this connection; gone with it, as on a phone.
    reverses: Arc<Reverses>,
    /// Set once the host's CNXN is answered: the server makes room for new connections
    /// by closing the oldest that has not got this far.
    connected: Arc<AtomicBool>,
}

/// Serves one connection until the host leaves, the server stops, or the host breaks the
/// protocol; `Err` says why it was dropped and is reported before the socket closes.
pub(super) fn serve(
    socket: TcpStream,
    backend: Arc<dyn Backend>,
    limits: Limits,
    connected: Arc<AtomicBool>,
    report: impl FnOnce(String),
) {
    let setup = (|| {
        socket.set_nodelay(true)?;
        socket.set_write_timeout(Some(limits.write_timeout))?;
        socket.set_read_timeout(Some(limits.handshake_timeout))?;
        socket.try_clone()
    })();
    let writer = match setup {
        Ok(writer) => writer,
        Err(e) => return report(ProtocolError::Io(e).to_string()),
    };
    let mut connection = Connection {
        link: Arc::new(Link::new(writer)),
        backend,
        limits,
        streams: HashMap::new(),
        next_id: 1,
        peer: None,
        reverses: Arc::default(),
        connected,
    };
    let outcome = connection.run(BufReader::new(socket));
    // A failed write ends the reading too; the write says why.
    let reason = connection
        .link
        .failure()
        .or_else(|| outcome.err().map(|e| e.to_string()));
    if let Some(reason) = reason {
        report(reason);
    }
    connection.abandon_streams();
    connection.link.kill();
}

impl Connection {
    fn run(&mut self, mut reader: BufReader<TcpStream>) -> Result<(), ProtocolError> {
        loop {
            let verify = self.peer.is_some_and(|peer| peer.version < VERSION);
            let message = match message::read(&mut reader, self.limits.max_payload, verify) {
                Ok(Some(message)) => message,
                Ok(None) => return Ok(()),
                Err(ProtocolError::Io(e)) if self.peer.is_none() && is_timeout(&e) => {
                    return Err(ProtocolError::HandshakeTimeout(
                        self.limits.handshake_timeout,
                    ));
                }
                Err(e) => return Err(e),
            };
            self.handle(message)?;
        }
    }

    fn handle(&mut self, message: Message) -> Result<(), ProtocolError> {
        match (message.command, self.peer) {
            (Command::Connect, _) => self.connect(&message),
            (command, None) => Err(ProtocolError::NotConnected(command)),
            (Command::Open, Some(peer)) => self.open(&message, peer),
            (Command::Okay, _) => {
                if let Some(stream) = self.stream(&message)? {
                    stream.acknowledged();
                }
                Ok(())
            }
            (Command::Write, _) => match self.stream(&message)? {
                Some(stream) => stream.received(message.data),
                None => Ok(()),
            },
            (Command::Close, _) => {
                if let Some(stream) = self.stream(&message)? {
                    stream.closed_by_host();
                    self.streams.remove(&stream.local_id);
                }
                Ok(())
            }
            (command @ (Command::Auth | Command::StartTls | Command::Sync), _) => {
                Err(ProtocolError::Unexpected(command))
            }
        }
    }

    /// CNXN(version, maxdata, "host::…") → CNXN(ours, the smaller maxdata, our banner).
    /// A second CNXN starts over, as adbd does: the old streams are dropped.
    fn connect(&mut self, message: &Message) -> Result<(), ProtocolError> {
        if message.arg0 < VERSION_MIN {
            return Err(ProtocolError::Version(message.arg0));
        }
        if message.arg1 < MIN_PEER_PAYLOAD {
            return Err(ProtocolError::PayloadTooSmall(message.arg1));
        }
        self.abandon_streams();
        let max_payload = self.limits.max_payload.min(message.arg1 as usize);
        self.peer = Some(Peer {
            version: message.arg0.min(VERSION),
            max_payload,
        });
        // Connected hosts may stay idle for hours.
        self.link.socket().set_read_timeout(None)?;
        let banner = device_banner(&self.backend.identity());
        // Before the answer: a host that has read it is never taken for a half-open one.
        self.connected.store(true, Ordering::SeqCst);
        self.link.send(
            Command::Connect,
            VERSION,
            max_payload as u32,
            banner.as_bytes(),
        )?;
        Ok(())
    }

    /// OPEN(host id, 0, "service\0") → OKAY(our id, host id), or CLSE(0, host id) for a
    /// service not offered or one stream too many. A socket's stream answers for itself,
    /// once the backend says whether anything listens.
    fn open(&mut self, message: &Message, peer: Peer) -> Result<(), ProtocolError> {
        let remote = message.arg0;
        if remote == 0 || message.arg1 != 0 {
            return Err(ProtocolError::BadOpen {
                remote,
                arg1: message.arg1,
            });
        }
        self.streams.retain(|_, stream| !stream.is_closed());
        let service = service::parse(&message.data);
        let Some(service) = service.filter(|_| self.streams.len() < self.limits.max_streams) else {
            self.link.send(Command::Close, 0, remote, &[])?;
            return Ok(());
        };
        let local = self.next_id;
        self.next_id = local.checked_add(1).ok_or(ProtocolError::IdsExhausted)?;
        let stream = Stream::new(
            local,
            remote,
            Arc::clone(&self.link),
            peer.max_payload,
            self.limits.max_input_buffered,
        );
        self.streams.insert(local, Arc::clone(&stream));
        if service.accepted_at_once() {
            self.link.send(Command::Okay, local, remote, &[])?;
        }
        service::start(
            service,
            stream,
            Arc::clone(&self.backend),
            Arc::clone(&self.reverses),
        );
        Ok(())
    }

    /// The stream an OKAY, WRTE or CLSE is for: `None` if it was closed already (the
    /// host's message crossed our CLSE); an error for an id never handed out.
    fn stream(&mut self, message: &Message) -> Result<Option<Arc<Stream>>, ProtocolError> {
        let (remote, local) = (message.arg0, message.arg1);
        if local == 0 || local >= self.next_id {
            return Err(ProtocolError::UnknownStream {
                command: message.command,
                local,
            });
        }
        let Some(stream) = self.streams.get(&local).cloned() else {
            return Ok(None);
        };
        if stream.is_closed() {
            self.streams.remove(&local);
            return Ok(None);
        }
        // Old hosts close with CLSE(0, id).
        let legacy_close = message.command == Command::Close && remote == 0;
        if remote != stream.remote_id && !legacy_close {
            return Err(ProtocolError::WrongPeer {
                command: message.command,
                local,
                remote,
                expected: stream.remote_id,
            });
        }
        Ok(Some(stream))
    }

    fn abandon_streams(&mut self) {
        for stream in self.streams.values() {
            stream.abandon();
        }
        self.streams.clear();
    }
}

fn is_timeout(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}
