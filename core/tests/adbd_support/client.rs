//! A raw ADB host for the protocol tests: messages written and read by hand, apart from
//! the code under test, with every message from the device checked (magic, checksum,
//! size, one WRTE at a time where the test holds its OKAYs back).

use std::collections::{HashMap, HashSet};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};

use super::PATIENCE;

pub const VERSION: u32 = 0x0100_0001;
pub const HOST_BANNER: &[u8] = b"host::features=shell_v2,cmd,stat_v2,ls_v2";

/// A message as it came from the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    pub command: [u8; 4],
    pub arg0: u32,
    pub arg1: u32,
    pub data: Vec<u8>,
}

pub fn encode(command: &[u8; 4], arg0: u32, arg1: u32, data: &[u8]) -> Vec<u8> {
    let code = u32::from_le_bytes(*command);
    let sum = data.iter().map(|b| u32::from(*b)).sum::<u32>();
    let header = [code, arg0, arg1, data.len() as u32, sum, !code];
    let mut bytes: Vec<u8> = header.iter().flat_map(|f| f.to_le_bytes()).collect();
    bytes.extend_from_slice(data);
    bytes
}

/// A stream this host opened: its id here and the device's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opened {
    pub local: u32,
    pub remote: u32,
}

#[derive(Debug, Default)]
struct StreamState {
    output: Vec<u8>,
    okays: usize,
    closed: bool,
    /// WRTEs taken and not acknowledged yet (streams under [`Host::hold_acks`]).
    unacknowledged: usize,
    largest_write: usize,
}

pub struct Host {
    pub socket: TcpStream,
    /// The max payload the device answered with, once connected.
    pub max_data: usize,
    next_local: u32,
    streams: HashMap<u32, StreamState>,
    held: HashSet<u32>,
}

impl Host {
    /// A TCP connection, nothing sent yet.
    pub fn tcp(addr: SocketAddr) -> Host {
        let socket = TcpStream::connect(addr).expect("connecting to adbd");
        socket
            .set_read_timeout(Some(PATIENCE))
            .and_then(|()| socket.set_write_timeout(Some(PATIENCE)))
            .expect("socket timeouts");
        Host {
            socket,
            max_data: 0,
            next_local: 100,
            streams: HashMap::new(),
            held: HashSet::new(),
        }
    }

    /// Connected: CNXN sent with `max_data`, the device's CNXN read and returned.
    pub fn connect(addr: SocketAddr, max_data: u32) -> (Host, Packet) {
        let mut host = Host::tcp(addr);
        host.send(b"CNXN", VERSION, max_data, HOST_BANNER);
        let answer = host.recv();
        assert_eq!(&answer.command, b"CNXN", "{answer:?}");
        host.max_data = answer.arg1 as usize;
        (host, answer)
    }

    pub fn send(&mut self, command: &[u8; 4], arg0: u32, arg1: u32, data: &[u8]) {
        self.send_bytes(&encode(command, arg0, arg1, data));
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.socket.write_all(bytes).expect("writing to adbd");
    }

    /// The next message; fails the test on a bad one, the end, or a timeout.
    pub fn recv(&mut self) -> Packet {
        self.recv_or_end()
            .expect("the device closed the connection")
    }

    /// The next message, or `None` when the device closed the connection.
    pub fn recv_or_end(&mut self) -> Option<Packet> {
        let mut header = [0u8; 24];
        match self.socket.read_exact(&mut header) {
            Ok(()) => {}
            Err(e) if is_closed(e.kind()) => return None,
            Err(e) => panic!("no message from the device: {e}"),
        }
        let field = |i: usize| le32(&header[i * 4..]);
        assert_eq!(field(5), !field(0), "magic of {header:?}");
        let mut data = vec![0; field(3) as usize];
        self.socket.read_exact(&mut data).expect("a message's data");
        assert_eq!(
            field(4),
            data.iter().map(|b| u32::from(*b)).sum::<u32>(),
            "checksum"
        );
        if self.max_data > 0 {
            assert!(
                data.len() <= self.max_data,
                "{} bytes over {}",
                data.len(),
                self.max_data
            );
        }
        Some(Packet {
            command: [header[0], header[1], header[2], header[3]],
            arg0: field(1),
            arg1: field(2),
            data,
        })
    }

    /// Reads until the device closes the connection; fails if it stays open.
    pub fn expect_closed(&mut self) {
        let mut buffer = [0u8; 65536];
        loop {
            match self.socket.read(&mut buffer) {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) if is_closed(e.kind()) => return,
                Err(e) => panic!("the device kept the connection open: {e}"),
            }
        }
    }

    /// Opens `service`; fails unless the device says OKAY.
    pub fn open(&mut self, service: &str) -> Opened {
        self.try_open(service)
            .unwrap_or_else(|| panic!("{service:?} was refused"))
    }

    /// Opens `service`: `None` when the device refuses it with CLSE(0, id).
    pub fn try_open(&mut self, service: &str) -> Option<Opened> {
        let local = self.next_local;
        self.next_local += 1;
        self.send(b"OPEN", local, 0, format!("{service}\0").as_bytes());
        loop {
            let packet = self.recv();
            if packet.arg1 != local {
                self.apply(packet);
                continue;
            }
            match &packet.command {
                b"OKAY" => {
                    self.streams.insert(local, StreamState::default());
                    return Some(Opened {
                        local,
                        remote: packet.arg0,
                    });
                }
                b"CLSE" if packet.arg0 == 0 => return None,
                _ => panic!("{packet:?} in answer to OPEN {service:?}"),
            }
        }
    }

    /// From now on this stream's WRTEs wait for [`Host::acknowledge`], and a second one
    /// before it fails the test.
    pub fn hold_acks(&mut self, stream: Opened) {
        self.held.insert(stream.local);
    }

    pub fn acknowledge(&mut self, stream: Opened) {
        let state = self.state(stream);
        assert!(state.unacknowledged > 0, "nothing to acknowledge");
        state.unacknowledged -= 1;
        self.send(b"OKAY", stream.local, stream.remote, &[]);
    }

    /// Output up to the stream's CLSE.
    pub fn read_to_close(&mut self, stream: Opened) -> Vec<u8> {
        while !self.state(stream).closed {
            self.pump();
        }
        std::mem::take(&mut self.state(stream).output)
    }

    /// The next `n` bytes of output.
    pub fn read_exact(&mut self, stream: Opened, n: usize) -> Vec<u8> {
        while self.state(stream).output.len() < n {
            assert!(!self.state(stream).closed, "closed before {n} bytes");
            self.pump();
        }
        self.state(stream).output.drain(..n).collect()
    }

    /// The data of the next WRTE, on a stream whose OKAYs are held back.
    pub fn next_write(&mut self, stream: Opened) -> Vec<u8> {
        assert!(self.held.contains(&stream.local), "OKAYs not held back");
        while self.state(stream).output.is_empty() {
            assert!(!self.state(stream).closed, "closed before a WRTE");
            self.pump();
        }
        std::mem::take(&mut self.state(stream).output)
    }

    /// Output until it ends with `wanted`, read as text.
    pub fn read_until(&mut self, stream: Opened, wanted: &str) -> String {
        loop {
            let output = String::from_utf8_lossy(&self.state(stream).output).into_owned();
            if output.ends_with(wanted) {
                self.state(stream).output.clear();
                return output;
            }
            assert!(
                !self.state(stream).closed,
                "closed before {wanted:?}: {output:?}"
            );
            self.pump();
        }
    }

    /// Sends data and waits for the device's OKAY, taking output meanwhile.
    pub fn write(&mut self, stream: Opened, data: &[u8]) {
        let before = self.state(stream).okays;
        self.send(b"WRTE", stream.local, stream.remote, data);
        while self.state(stream).okays == before {
            assert!(!self.state(stream).closed, "closed before OKAY");
            self.pump();
        }
    }

    /// Sends CLSE and waits for the device's.
    pub fn close(&mut self, stream: Opened) {
        self.send(b"CLSE", stream.local, stream.remote, &[]);
        while !self.state(stream).closed {
            self.pump();
        }
    }

    /// The largest WRTE the device sent on this stream.
    pub fn largest_write(&mut self, stream: Opened) -> usize {
        self.state(stream).largest_write
    }

    /// Reads one message and applies it to its stream.
    pub fn pump(&mut self) {
        let packet = self.recv();
        self.apply(packet);
    }

    fn apply(&mut self, packet: Packet) {
        let local = packet.arg1;
        let held = self.held.contains(&local);
        let Some(state) = self.streams.get_mut(&local) else {
            panic!("{packet:?} for a stream never opened");
        };
        assert!(!state.closed, "{packet:?} after the stream's CLSE");
        match &packet.command {
            b"WRTE" => {
                assert_eq!(state.unacknowledged, 0, "a second WRTE before our OKAY");
                state.largest_write = state.largest_write.max(packet.data.len());
                state.output.extend_from_slice(&packet.data);
                if held {
                    state.unacknowledged += 1;
                } else {
                    self.send(b"OKAY", local, packet.arg0, &[]);
                }
            }
            b"OKAY" => state.okays += 1,
            b"CLSE" => state.closed = true,
            _ => panic!("unexpected {packet:?}"),
        }
    }

    fn state(&mut self, stream: Opened) -> &mut StreamState {
        self.streams
            .get_mut(&stream.local)
            .expect("a stream this host opened")
    }

    /// `shell,v2,raw:COMMAND` run to its end: its packets `(id, data)`, runs of one kind
    /// joined.
    pub fn shell_v2(&mut self, command: &str) -> Vec<(u8, Vec<u8>)> {
        let stream = self.open(&format!("shell,v2,raw:{command}"));
        packets(&self.read_to_close(stream))
    }
}

fn is_closed(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted
    )
}

/// The little-endian `u32` that `bytes` start with.
pub fn le32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// Shell protocol v2 bytes as `(id, data)` packets, consecutive ones of one kind joined.
pub fn packets(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out: Vec<(u8, Vec<u8>)> = Vec::new();
    while !bytes.is_empty() {
        let id = bytes[0];
        let length = le32(&bytes[1..]) as usize;
        let data = &bytes[5..5 + length];
        match out.last_mut() {
            Some((last, joined)) if *last == id => joined.extend_from_slice(data),
            _ => out.push((id, data.to_vec())),
        }
        bytes = &bytes[5 + length..];
    }
    out
}

/// A shell protocol v2 packet from the host.
pub fn packet(id: u8, data: &[u8]) -> Vec<u8> {
    let mut bytes = vec![id];
    bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
    bytes.extend_from_slice(data);
    bytes
}

/// A sync request: `[id][length][path]`.
pub fn sync_request(id: &[u8; 4], path: &str) -> Vec<u8> {
    let mut bytes = id.to_vec();
    bytes.extend_from_slice(&(path.len() as u32).to_le_bytes());
    bytes.extend_from_slice(path.as_bytes());
    bytes
}
