//! mobilecli's dump server on the phone, asked through the ADB server: each of the socket
//! names it has listened on (`device::helper_wire::MOBILECLI_SERVICES`), one JSON-RPC
//! `device.dump.ui` over HTTP, the answer read whole before a deadline.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddrV4};
use std::time::Instant;

use super::socket;
use crate::device::helper_wire::{
    MOBILECLI_SERVICES, MobilecliReply, mobilecli_reply, mobilecli_request,
};
use crate::stability::look::HelperFault;

/// The longest answer read.
const MAX_ANSWER: usize = crate::parse::MAX_INPUT_BYTES as usize;

/// The screen as mobilecli's dump server gives it (`{"hierarchy":[…]}`), from the first
/// of its socket names that is listening.
pub(super) fn dump(
    address: SocketAddrV4,
    serial: &str,
    deadline: Instant,
) -> Result<String, HelperFault> {
    let mut fault = HelperFault::Absent;
    for service in MOBILECLI_SERVICES {
        match dump_at(address, serial, service, deadline) {
            Err(HelperFault::Absent) => continue,
            Err(other) => fault = other,
            Ok(dump) => return Ok(dump),
        }
        break;
    }
    Err(fault)
}

fn dump_at(
    address: SocketAddrV4,
    serial: &str,
    service: &str,
    deadline: Instant,
) -> Result<String, HelperFault> {
    let mut stream = socket::open(address, serial, service, deadline)?;
    stream
        .write_all(&mobilecli_request(1))
        .map_err(|_| HelperFault::Died)?;
    let mut answer = Vec::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let _ = stream.shutdown(Shutdown::Both);
            return Err(HelperFault::Hung);
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|_| HelperFault::Died)?;
        match stream.read(&mut buffer) {
            Ok(0) => return Err(HelperFault::Died),
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
            Err(_) => return Err(HelperFault::Died),
        }
        if answer.len() > MAX_ANSWER {
            return Err(HelperFault::Garbage);
        }
        if let MobilecliReply::Complete { dump, .. } = mobilecli_reply(&answer)? {
            let _ = stream.shutdown(Shutdown::Both);
            return Ok(dump);
        }
    }
}
