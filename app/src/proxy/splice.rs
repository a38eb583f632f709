//! A device service spliced between a client and the adb server: both directions copied
//! as they come, each piece handed to its watcher before it is written on, so watching
//! costs one look at bytes already in hand and no extra copy of the stream.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};

/// How much one read takes: adb's own socket buffers hold about this much.
const PIECE: usize = 256 * 1024;

/// What passed, and how the splice ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spliced {
    /// Bytes from the client to the device.
    pub sent: u64,
    /// Bytes from the device to the client.
    pub received: u64,
    /// A side vanished mid-stream (reset, or a write that failed) rather than closing.
    pub broken: bool,
}

/// Copies `client` ⇄ `upstream` until both directions have ended; a side that closes its
/// writing half has it closed on the other side too, so half-closes pass as they are.
pub fn splice(
    client: &TcpStream,
    upstream: &TcpStream,
    to_device: &mut (dyn FnMut(&[u8]) + Send),
    to_client: &mut (dyn FnMut(&[u8]) + Send),
) -> Spliced {
    std::thread::scope(|scope| {
        let down = scope.spawn(|| copy(upstream, client, to_client));
        let (sent, up_broken) = copy(client, upstream, to_device);
        if up_broken {
            // The client is gone: the device side has nothing left to answer.
            let _ = upstream.shutdown(Shutdown::Both);
            let _ = client.shutdown(Shutdown::Both);
        }
        let (received, down_broken) = down.join().unwrap_or((0, true));
        Spliced {
            sent,
            received,
            broken: up_broken || down_broken,
        }
    })
}

/// One direction: bytes read from `from`, watched, written to `to`, until `from` ends;
/// then `to`'s writing half is closed. Returns the bytes copied and whether it broke.
fn copy(
    mut from: &TcpStream,
    mut to: &TcpStream,
    watch: &mut (dyn FnMut(&[u8]) + Send),
) -> (u64, bool) {
    let mut buffer = vec![0u8; PIECE];
    let mut total = 0u64;
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => {
                let _ = to.shutdown(Shutdown::Both);
                return (total, true);
            }
        };
        watch(&buffer[..n]);
        if to.write_all(&buffer[..n]).is_err() {
            let _ = from.shutdown(Shutdown::Both);
            return (total, true);
        }
        total += n as u64;
    }
    let _ = to.shutdown(Shutdown::Write);
    (total, false)
}

#[cfg(test)]
mod tests {
    use std::net::TcpListener;

    use super::*;

    /// A connected pair of loopback sockets.
    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let a = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (b, _) = listener.accept().unwrap();
        (a, b)
    }

    #[test]
    fn both_directions_pass_whole_and_are_watched() {
        let (mut client, client_side) = pair();
        let (upstream_side, mut device) = pair();
        let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        let expected = big.clone();
        let device_thread = std::thread::spawn(move || {
            let mut asked = Vec::new();
            device.read_to_end(&mut asked).unwrap();
            device.write_all(&big).unwrap();
            asked
        });
        let client_thread = std::thread::spawn(move || {
            client.write_all(b"shell:echo hi").unwrap();
            client.shutdown(Shutdown::Write).unwrap();
            let mut got = Vec::new();
            client.read_to_end(&mut got).unwrap();
            got
        });
        let (mut up, mut down) = (Vec::new(), 0usize);
        let spliced = splice(
            &client_side,
            &upstream_side,
            &mut |b| up.extend_from_slice(b),
            &mut |b| down += b.len(),
        );
        assert_eq!(device_thread.join().unwrap(), b"shell:echo hi");
        assert_eq!(client_thread.join().unwrap(), expected);
        assert_eq!(up, b"shell:echo hi");
        assert_eq!(down, expected.len());
        assert_eq!(
            spliced,
            Spliced {
                sent: 13,
                received: expected.len() as u64,
                broken: false
            }
        );
    }

    #[test]
    fn a_client_that_leaves_ends_the_splice() {
        let (client, client_side) = pair();
        let (upstream_side, mut device) = pair();
        // The device reads until its stream is closed for it, then goes.
        let device_thread = std::thread::spawn(move || {
            let mut rest = Vec::new();
            let _ = device.read_to_end(&mut rest);
            rest
        });
        drop(client);
        let spliced = splice(&client_side, &upstream_side, &mut |_| {}, &mut |_| {});
        assert_eq!((spliced.sent, spliced.received), (0, 0));
        assert!(device_thread.join().unwrap().is_empty());
    }
}
