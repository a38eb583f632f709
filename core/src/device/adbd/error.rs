//! Why the device server could not start, and why it dropped one host's connection.

use std::net::SocketAddr;
use std::time::Duration;

use super::command::Command;

/// Why the device server could not listen or start; each says what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AdbdError {
    #[error(
        "refusing to serve ADB on {addr}: it is not a loopback address, and this device \
         asks no one for authentication; listen on 127.0.0.1 or [::1]"
    )]
    NotLoopback { addr: SocketAddr },
    #[error("could not listen on {addr}: {source}; pick another port, or port 0 for any free one")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("could not start the ADB device server: {0}; free some threads or sockets and retry")]
    Start(#[source] std::io::Error),
}

/// Why one connection was closed: what the peer sent or failed to do. The peer is most
/// likely not an ADB host, or a buggy one; the message names the rule it broke.
#[derive(Debug, thiserror::Error)]
pub(super) enum ProtocolError {
    #[error("bad magic {magic:#010x} for command {command:#010x}: not an ADB host, or out of step")]
    BadMagic { command: u32, magic: u32 },
    #[error("unknown command {0:#010x}")]
    UnknownCommand(u32),
    #[error("a {length}-byte payload is over the {max}-byte limit")]
    TooLarge { length: u32, max: usize },
    #[error("data checksum {got:#x} does not match {expected:#x}")]
    Checksum { got: u32, expected: u32 },
    #[error("the connection ended in the middle of a message")]
    Truncated,
    #[error("no CNXN within {0:?} of connecting")]
    HandshakeTimeout(Duration),
    #[error("{0} before CNXN: a host connects first")]
    NotConnected(Command),
    #[error("{0}: this device never asks for authentication or TLS")]
    Unexpected(Command),
    #[error("CNXN version {0:#010x} is older than any ADB host speaks")]
    Version(u32),
    #[error("CNXN max payload {0} is too small to carry a banner")]
    PayloadTooSmall(u32),
    #[error("OPEN({remote}, {arg1}): a host opens with its own nonzero id and 0")]
    BadOpen { remote: u32, arg1: u32 },
    #[error("stream ids are used up; reconnect")]
    IdsExhausted,
    #[error("{command} for stream {local}, which was never opened")]
    UnknownStream { command: Command, local: u32 },
    #[error("{command} for stream {local} from host stream {remote}, not {expected}")]
    WrongPeer {
        command: Command,
        local: u32,
        remote: u32,
        expected: u32,
    },
    #[error("WRTE on stream {0} before this device's OKAY for the previous one")]
    FlowControl(u32),
    #[error("too many connections (limit {0})")]
    TooManyConnections(usize),
    #[error("no CNXN yet when the connections reached their limit ({0}): closed to make room")]
    MadeRoom(usize),
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
}
