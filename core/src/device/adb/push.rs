//! `adb push` spoken directly: the sync service's SEND, DATA chunks and DONE (AOSP's
//! `SYNC.TXT`), the device's OKAY or FAIL read back.

use std::io::{Read, Write};
use std::net::SocketAddrV4;
use std::time::Duration;

use super::server;

/// The largest DATA chunk the protocol allows.
const CHUNK: usize = 64 * 1024;
/// The longest a device may take to store a file after its last chunk.
const STORE_LIMIT: Duration = Duration::from_secs(60);

/// Writes `bytes` to `path` on `serial` with permissions `mode` (e.g. `0o644`).
pub(super) fn push(
    address: SocketAddrV4,
    serial: &str,
    path: &str,
    mode: u32,
    bytes: &[u8],
) -> std::io::Result<()> {
    let mut stream = server::open(address)?;
    stream.set_read_timeout(Some(STORE_LIMIT))?;
    server::request(&mut stream, &format!("host:transport:{serial}"))?;
    server::request(&mut stream, "sync:")?;
    let mut message = request(b"SEND", format!("{path},{mode}").as_bytes());
    for chunk in bytes.chunks(CHUNK) {
        message.extend_from_slice(&request(b"DATA", chunk));
    }
    let mtime = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX));
    message.extend_from_slice(b"DONE");
    message.extend_from_slice(&mtime.to_le_bytes());
    stream.write_all(&message)?;
    let mut status = [0u8; 8];
    stream.read_exact(&mut status)?;
    let len = u32::from_le_bytes([status[4], status[5], status[6], status[7]]) as usize;
    match &status[..4] {
        b"OKAY" => {
            let _ = stream.write_all(&request(b"QUIT", b""));
            Ok(())
        }
        b"FAIL" => {
            let mut reason = vec![0; len.min(64 * 1024)];
            stream.read_exact(&mut reason)?;
            Err(std::io::Error::other(format!(
                "the device refused the file: {}",
                String::from_utf8_lossy(&reason)
            )))
        }
        other => Err(std::io::Error::other(format!(
            "the device answered the push with {:?}",
            String::from_utf8_lossy(other)
        ))),
    }
}

/// A sync request: its id, the payload's length (little-endian) and the payload.
fn request(id: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 + payload.len());
    bytes.extend_from_slice(id);
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    bytes.extend_from_slice(&len.to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

#[cfg(test)]
mod tests {
    use super::request;

    #[test]
    fn a_request_is_its_id_length_and_payload() {
        assert_eq!(
            request(b"SEND", b"/data/local/tmp/u2.jar,420"),
            b"SEND\x1a\x00\x00\x00/data/local/tmp/u2.jar,420"
        );
        assert_eq!(request(b"QUIT", b""), b"QUIT\0\0\0\0");
    }
}
