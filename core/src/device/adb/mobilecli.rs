//! mobilecli's dump server on the phone, asked through the ADB server: each of the socket
//! names it has listened on (`device::helper_wire::MOBILECLI_SERVICES`), one JSON-RPC
//! `device.dump.ui` over HTTP, the answer read whole before a deadline.

use std::net::SocketAddrV4;
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
    let stream = socket::open(address, serial, service, deadline)?;
    let mut answer = Vec::new();
    socket::exchange(stream, &mobilecli_request(1), deadline, |bytes| {
        answer.extend_from_slice(bytes);
        if answer.len() > MAX_ANSWER {
            return Err(HelperFault::Garbage);
        }
        Ok(match mobilecli_reply(&answer)? {
            MobilecliReply::Complete { dump, .. } => Some(dump),
            MobilecliReply::Incomplete => None,
        })
    })
}
