//! The sync protocol (`sync:`) over the backend's files, answered as adbd answers:
//! STAT, STA2, LST2, LIST, LIS2, RECV and QUIT. SEND is refused: this device is
//! read-only. Requests are `[id: 4 ASCII bytes][length u32 LE][path]`; a FAIL ends the
//! session, as on a phone.

use std::io::{self, Read};
use std::time::{SystemTime, UNIX_EPOCH};

use super::Backend;
use super::stream::Stream;
use crate::device::sync_stream::{
    DATA, DENT_V1_LEN, DENT_V2_LEN, DONE, FAIL, LIST, LIST_V2, LSTAT_V2, QUIT, RECV, SEND, STAT,
    STAT_V2,
};

/// The most file data in one DATA message.
pub(super) const DATA_MAX: usize = 64 * 1024;
/// Longer paths are refused, as adbd refuses them.
const MAX_PATH: usize = 1024;
/// A regular file, `rw-r--r--`.
const REGULAR_FILE: u32 = 0o100_644;
const ENOENT: u32 = 2;

/// Serves a `sync:` stream until QUIT, a FAIL, or the host closes it.
pub(super) fn serve(stream: &Stream, backend: &dyn Backend) {
    let mut input = StreamReader {
        stream,
        buffer: Vec::new(),
        at: 0,
    };
    let mtime = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_secs());
    session(&mut input, &mut |bytes| stream.write(bytes), backend, mtime);
}

/// The request loop, over any input and output.
fn session(
    input: &mut impl Read,
    send: &mut impl FnMut(&[u8]) -> io::Result<()>,
    backend: &dyn Backend,
    mtime: u64,
) {
    loop {
        let mut header = [0u8; 8];
        if input.read_exact(&mut header).is_err() {
            return;
        }
        let (request, length) = split(header);
        if length as usize > MAX_PATH {
            let _ = send(&fail("path too long"));
            return;
        }
        let mut path = vec![0; length as usize];
        if input.read_exact(&mut path).is_err() {
            return;
        }
        let path = String::from_utf8_lossy(&path);
        let size = || backend.file(&path).map(|bytes| bytes.len() as u64);
        let sent = match request {
            STAT => send(&stat_v1(size(), mtime)),
            STAT_V2 | LSTAT_V2 => send(&stat_v2(request, size(), mtime)),
            // The backend has files, not directories: every listing is empty.
            LIST => send(&list_done(DENT_V1_LEN)),
            LIST_V2 => send(&list_done(DENT_V2_LEN)),
            RECV => match backend.file(&path) {
                Some(bytes) => send_file(&bytes, send),
                None => {
                    let _ = send(&fail("open failed: No such file or directory"));
                    return;
                }
            },
            SEND => {
                let _ = send(&fail("couldn't create file: Read-only file system"));
                // Old hosts write the whole file before reading: take it, then close.
                skip_file(input);
                return;
            }
            QUIT => return,
            other => {
                let _ = send(&fail(&format!("unknown command {other:08x}")));
                return;
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

fn split(header: [u8; 8]) -> (u32, u32) {
    let [a, b, c, d, e, f, g, h] = header;
    (
        u32::from_le_bytes([a, b, c, d]),
        u32::from_le_bytes([e, f, g, h]),
    )
}

fn send_file(bytes: &[u8], send: &mut impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
    for chunk in bytes.chunks(DATA_MAX) {
        let mut message = frame(DATA, chunk.len() as u32);
        message.extend_from_slice(chunk);
        send(&message)?;
    }
    send(&frame(DONE, 0))
}

/// Reads a refused SEND's DATA messages up to its DONE (or anything unexpected).
fn skip_file(input: &mut impl Read) {
    let mut header = [0u8; 8];
    while input.read_exact(&mut header).is_ok() {
        let (kind, length) = split(header);
        if kind != DATA || length as usize > DATA_MAX {
            return;
        }
        if io::copy(&mut input.take(u64::from(length)), &mut io::sink()).is_err() {
            return;
        }
    }
}

/// `[id][u32]`: the start of DATA, DONE and FAIL.
fn frame(kind: u32, value: u32) -> Vec<u8> {
    let mut bytes = kind.to_le_bytes().to_vec();
    bytes.extend_from_slice(&value.to_le_bytes());
    bytes
}

fn fail(reason: &str) -> Vec<u8> {
    let mut bytes = frame(FAIL, reason.len() as u32);
    bytes.extend_from_slice(reason.as_bytes());
    bytes
}

/// STAT's answer: mode, size and mtime, all zero for no such file.
fn stat_v1(size: Option<u64>, mtime: u64) -> Vec<u8> {
    let fields = match size {
        Some(size) => [
            REGULAR_FILE,
            u32::try_from(size).unwrap_or(u32::MAX),
            u32::try_from(mtime).unwrap_or(u32::MAX),
        ],
        None => [0; 3],
    };
    let mut bytes = STAT.to_le_bytes().to_vec();
    for field in fields {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes
}

/// STA2's and LST2's answer: error, dev, ino, mode, nlink, uid, gid, size, atime, mtime,
/// ctime; only the error (ENOENT) for no such file.
fn stat_v2(request: u32, size: Option<u64>, mtime: u64) -> Vec<u8> {
    let mut bytes = request.to_le_bytes().to_vec();
    let Some(size) = size else {
        bytes.extend_from_slice(&ENOENT.to_le_bytes());
        bytes.resize(72, 0);
        return bytes;
    };
    bytes.extend_from_slice(&[0; 4 + 8 + 8]); // no error, dev, ino
    for field in [REGULAR_FILE, 1, 0, 0] {
        // mode, nlink, uid (root), gid (root)
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    for field in [size, mtime, mtime, mtime] {
        // size, atime, mtime, ctime
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes
}

/// The DONE that ends a listing: a directory entry of `length` bytes, all zero but its id.
fn list_done(length: usize) -> Vec<u8> {
    let mut bytes = DONE.to_le_bytes().to_vec();
    bytes.resize(length, 0);
    bytes
}

/// The stream's input as [`Read`]: end of file once the host closed it.
struct StreamReader<'a> {
    stream: &'a Stream,
    buffer: Vec<u8>,
    at: usize,
}

impl Read for StreamReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buffer.len() {
            match self.stream.take_input(true) {
                Some(bytes) => (self.buffer, self.at) = (bytes, 0),
                None => return Ok(0),
            }
        }
        let n = out.len().min(self.buffer.len() - self.at);
        out[..n].copy_from_slice(&self.buffer[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
#[path = "sync_tests.rs"]
mod tests;
