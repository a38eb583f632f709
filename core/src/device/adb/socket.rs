//! A socket on the phone (`tcp:9008`, `localabstract:NAME`) opened through the ADB server,
//! as helpers on the phone are reached: nothing listening there is
//! [`HelperFault::Absent`], no answer before the deadline [`HelperFault::Hung`].

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddrV4, TcpStream};
use std::time::Instant;

use super::server;
use crate::stability::look::HelperFault;

/// The stream to `service` on `serial`, its reads bounded by `deadline`.
pub(super) fn open(
    address: SocketAddrV4,
    serial: &str,
    service: &str,
    deadline: Instant,
) -> Result<TcpStream, HelperFault> {
    let mut stream = server::open(address).map_err(|_| HelperFault::Absent)?;
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(HelperFault::Hung);
    }
    stream
        .set_read_timeout(Some(left))
        .map_err(|_| HelperFault::Died)?;
    let failed = |e: std::io::Error| {
        if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) {
            HelperFault::Hung
        } else {
            HelperFault::Absent
        }
    };
    server::request(&mut stream, &format!("host:transport:{serial}")).map_err(failed)?;
    // A phone where nothing listens closes the stream: the server says FAIL.
    server::request(&mut stream, service).map_err(failed)?;
    Ok(stream)
}

/// Sends `request` on `stream`, then feeds each chunk read to `answered` until it has the
/// whole answer (`Some`) or fails; the connection ending first is `Died`, the deadline
/// `Hung`.
pub(super) fn exchange<T>(
    mut stream: TcpStream,
    request: &[u8],
    deadline: Instant,
    mut answered: impl FnMut(&[u8]) -> Result<Option<T>, HelperFault>,
) -> Result<T, HelperFault> {
    stream.write_all(request).map_err(|_| HelperFault::Died)?;
    let mut buffer = vec![0u8; 64 * 1024];
    let ended = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break Err(HelperFault::Hung);
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|_| HelperFault::Died)?;
        let n = match stream.read(&mut buffer) {
            Ok(0) => break Err(HelperFault::Died),
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
            Err(_) => break Err(HelperFault::Died),
        };
        match answered(&buffer[..n]) {
            Ok(None) => {}
            Ok(Some(answer)) => break Ok(answer),
            Err(fault) => break Err(fault),
        }
    };
    let _ = stream.shutdown(Shutdown::Both);
    ended
}
