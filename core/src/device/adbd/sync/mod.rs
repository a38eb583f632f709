//! The sync protocol (`sync:`) over the backend's files, answered as adbd answers:
//! STAT, STA2, LST2, LIST, LIS2, RECV, SEND and QUIT. Requests are `[id: 4 ASCII
//! bytes][length u32 LE][path]`; a FAIL ends the session, as on a phone.
//!
//! A push (SEND `path,mode`, DATA chunks of at most 64 KiB, DONE with the mtime, then our
//! OKAY) hands each chunk to the backend as it comes ([`Backend::push`]), so only one
//! chunk is ever held here; the backend bounds the rest. A push refused at its start or
//! midway is FAILed at once and the rest of its data read and dropped, as adbd does for
//! old hosts that write the whole file before reading.

use std::io::{self, Read};
use std::time::{SystemTime, UNIX_EPOCH};

use super::stream::Stream;
use super::{Backend, DirEntry, FileKind, FileStat};
use crate::device::sync_stream::{
    DATA, DENT_V1_LEN, DENT_V2_LEN, DONE, FAIL, LIST, LIST_V2, LSTAT_V2, QUIT, RECV, SEND, STAT,
    STAT_V2,
};

/// The most file data in one DATA message.
pub(super) const DATA_MAX: usize = 64 * 1024;
/// Longer paths are refused, as adbd refuses them.
const MAX_PATH: usize = 1024;
/// `S_IFREG` and `S_IFDIR`, the file types here.
const REGULAR_FILE: u32 = 0o100_000;
const DIRECTORY: u32 = 0o040_000;
/// `S_IFLNK`, which a push of a symlink's target carries in its mode.
const SYMLINK: u32 = 0o120_000;
const FILE_TYPE: u32 = 0o170_000;
const ENOENT: u32 = 2;
/// What SEND answers once the file is kept.
const OKAY: &[u8; 8] = b"OKAY\0\0\0\0";

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
        let stat = || backend.stat(&path);
        let sent = match request {
            STAT => send(&stat_v1(stat(), mtime)),
            STAT_V2 | LSTAT_V2 => send(&stat_v2(request, stat(), mtime)),
            LIST => send(&listing(&backend.list(&path), mtime, false)),
            LIST_V2 => send(&listing(&backend.list(&path), mtime, true)),
            RECV => match backend.file(&path) {
                Some(bytes) => send_file(&bytes, send),
                None => {
                    let _ = send(&fail("open failed: No such file or directory"));
                    return;
                }
            },
            SEND => match push(&path, input, backend) {
                Ok(()) => send(OKAY),
                Err(reason) => {
                    let _ = send(&fail(&reason));
                    // Old hosts write the whole file before reading: take it, then close.
                    skip_file(input);
                    return;
                }
            },
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

/// A SEND's file (`spec` is `path,mode`), chunk by chunk into the backend up to its DONE;
/// the reason to FAIL it otherwise. The host gone midway keeps nothing.
fn push(spec: &str, input: &mut impl Read, backend: &dyn Backend) -> Result<(), String> {
    let (path, mode) = spec.rsplit_once(',').ok_or("missing , in ID_SEND_V1")?;
    let mode = parse_mode(mode).ok_or("bad mode")?;
    if mode & FILE_TYPE == SYMLINK {
        return Err("couldn't create symlink: this device keeps regular files only".into());
    }
    let mut file = backend.push(path, shared_mode(mode))?;
    let mut chunk = vec![0; DATA_MAX];
    loop {
        let mut header = [0u8; 8];
        input
            .read_exact(&mut header)
            .map_err(|_| "the host left mid-push")?;
        let (kind, length) = split(header);
        match kind {
            DONE => return file.finish(u64::from(length)),
            DATA if length as usize <= DATA_MAX => {
                let data = &mut chunk[..length as usize];
                input
                    .read_exact(data)
                    .map_err(|_| "the host left mid-push")?;
                file.write(data)?;
            }
            DATA => return Err("oversize data message".into()),
            _ => return Err("invalid data message".into()),
        }
    }
}

/// A SEND's mode as adbd reads it (`strtoul(…, 0)`): decimal, `0`-led octal or `0x` hex.
fn parse_mode(text: &str) -> Option<u32> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        u32::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        u32::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse().ok()
    }
}

/// The permission bits a pushed file gets: as adbd, the owner's copied to group and other
/// (`0644` is kept as `0666`, `0755` as `0777`).
fn shared_mode(mode: u32) -> u32 {
    let mut mode = mode & 0o777;
    mode |= (mode >> 3) & 0o070;
    mode |= (mode >> 3) & 0o007;
    mode
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
fn stat_v1(stat: Option<FileStat>, session_start: u64) -> Vec<u8> {
    let fields = match stat {
        Some(stat) => [
            mode(&stat),
            u32::try_from(stat.size).unwrap_or(u32::MAX),
            u32::try_from(stat.mtime.unwrap_or(session_start)).unwrap_or(u32::MAX),
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
fn stat_v2(request: u32, stat: Option<FileStat>, session_start: u64) -> Vec<u8> {
    let mut bytes = request.to_le_bytes().to_vec();
    let Some(stat) = stat else {
        bytes.extend_from_slice(&ENOENT.to_le_bytes());
        bytes.resize(72, 0);
        return bytes;
    };
    bytes.extend_from_slice(&[0; 4]); // no error
    stat_v2_fields(&stat, session_start, &mut bytes);
    bytes
}

/// What STA2 and a LIS2 entry share: dev, ino, mode, nlink, uid, gid, size, atime, mtime,
/// ctime.
fn stat_v2_fields(stat: &FileStat, session_start: u64, bytes: &mut Vec<u8>) {
    let mtime = stat.mtime.unwrap_or(session_start);
    bytes.extend_from_slice(&[0; 8 + 8]); // dev, ino
    for field in [mode(stat), 1, 0, 0] {
        // mode, nlink, uid (root), gid (root)
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    for field in [stat.size, mtime, mtime, mtime] {
        // size, atime, mtime, ctime
        bytes.extend_from_slice(&field.to_le_bytes());
    }
}

/// `st_mode`: the file type's bits and the permissions.
fn mode(stat: &FileStat) -> u32 {
    let kind = match stat.kind {
        FileKind::Regular => REGULAR_FILE,
        FileKind::Directory => DIRECTORY,
    };
    kind | stat.mode
}

/// A directory's listing as LIST (`DENT` entries: mode, size, mtime, name length, name)
/// or LIS2 (`DNT2`: no error, then STA2's fields, name length, name) sends it, then DONE.
fn listing(entries: &[DirEntry], session_start: u64, v2: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in entries {
        let name = entry.name.as_bytes();
        if v2 {
            bytes.extend_from_slice(b"DNT2");
            bytes.extend_from_slice(&[0; 4]);
            stat_v2_fields(&entry.stat, session_start, &mut bytes);
        } else {
            let mtime = entry.stat.mtime.unwrap_or(session_start);
            bytes.extend_from_slice(b"DENT");
            for field in [
                mode(&entry.stat),
                u32::try_from(entry.stat.size).unwrap_or(u32::MAX),
                u32::try_from(mtime).unwrap_or(u32::MAX),
            ] {
                bytes.extend_from_slice(&field.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&(name.len() as u32).to_le_bytes());
        bytes.extend_from_slice(name);
    }
    bytes.extend_from_slice(&list_done(if v2 { DENT_V2_LEN } else { DENT_V1_LEN }));
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
mod tests;
