//! The sync protocol on literal bytes: requests in, every answer's exact layout out.

use std::collections::HashMap;
use std::sync::Mutex;

use super::*;
use crate::device::adbd::{CommandOutput, Identity, PushedFile};

/// One file, `/sdcard/a.txt`, holding `hello`, and a 150 KiB one.
struct Files;

impl Backend for Files {
    fn identity(&self) -> Identity {
        Identity {
            product: "p".into(),
            model: "m".into(),
            device: "d".into(),
        }
    }

    fn run(&self, _: &str, _: &mut dyn CommandOutput) -> u8 {
        127
    }

    fn file(&self, path: &str) -> Option<Vec<u8>> {
        match path {
            "/sdcard/a.txt" => Some(b"hello".to_vec()),
            "/sdcard/big" => Some((0..150 * 1024).map(|i| (i % 251) as u8).collect()),
            _ => None,
        }
    }
}

const MTIME: u64 = 0x6500_0000;

fn request(tag: &[u8; 4], path: &str) -> Vec<u8> {
    let mut bytes = tag.to_vec();
    bytes.extend_from_slice(&(path.len() as u32).to_le_bytes());
    bytes.extend_from_slice(path.as_bytes());
    bytes
}

/// Runs a whole session on `requests`; returns everything sent back.
fn answers(requests: &[u8]) -> Vec<u8> {
    answers_from(&mut &requests[..], &Files)
}

fn answers_from(input: &mut impl Read, backend: &dyn Backend) -> Vec<u8> {
    let mut out = Vec::new();
    session(
        input,
        &mut |bytes| {
            out.extend_from_slice(bytes);
            Ok(())
        },
        backend,
        MTIME,
    );
    out
}

/// A device that takes pushes of up to [`PUSH_CAP`] bytes a file into memory.
#[derive(Default)]
struct Writable {
    files: Mutex<HashMap<String, Kept>>,
}

/// A pushed file as kept.
struct Kept {
    bytes: Vec<u8>,
    mode: u32,
    mtime: u64,
}

const PUSH_CAP: usize = 100 * 1024;

impl Backend for Writable {
    fn identity(&self) -> Identity {
        Files.identity()
    }

    fn run(&self, _: &str, _: &mut dyn CommandOutput) -> u8 {
        127
    }

    fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.files
            .lock()
            .unwrap()
            .get(path)
            .map(|f| f.bytes.clone())
    }

    fn stat(&self, path: &str) -> Option<FileStat> {
        let files = self.files.lock().unwrap();
        files.get(path).map(|kept| FileStat {
            kind: FileKind::Regular,
            mode: kept.mode,
            size: kept.bytes.len() as u64,
            mtime: Some(kept.mtime),
        })
    }

    fn list(&self, dir: &str) -> Vec<DirEntry> {
        let prefix = format!("{dir}/");
        let files = self.files.lock().unwrap();
        let mut entries: Vec<DirEntry> = files
            .iter()
            .filter_map(|(path, kept)| {
                let name = path.strip_prefix(&prefix)?;
                let stat = FileStat {
                    kind: FileKind::Regular,
                    mode: kept.mode,
                    size: kept.bytes.len() as u64,
                    mtime: Some(kept.mtime),
                };
                Some(DirEntry {
                    name: name.to_owned(),
                    stat,
                })
            })
            .collect();
        entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        entries
    }

    fn push(&self, path: &str, mode: u32) -> Result<Box<dyn PushedFile + '_>, String> {
        Ok(Box::new(Incoming {
            device: self,
            path: path.to_owned(),
            mode,
            bytes: Vec::new(),
        }))
    }
}

struct Incoming<'a> {
    device: &'a Writable,
    path: String,
    mode: u32,
    bytes: Vec<u8>,
}

impl PushedFile for Incoming<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        assert!(bytes.len() <= DATA_MAX, "one DATA chunk at a time");
        if self.bytes.len() + bytes.len() > PUSH_CAP {
            return Err("write failed: File too large: up to 100 KiB here".into());
        }
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn finish(self: Box<Self>, mtime: u64) -> Result<(), String> {
        let mut files = self.device.files.lock().unwrap();
        let kept = Kept {
            bytes: self.bytes,
            mode: self.mode,
            mtime,
        };
        files.insert(self.path, kept);
        Ok(())
    }
}

/// SEND `path,mode`, `file` in DATA chunks of `chunk` bytes, DONE with `mtime`.
fn push_request(spec: &str, file: &[u8], chunk: usize, mtime: u32) -> Vec<u8> {
    let mut bytes = request(b"SEND", spec);
    for part in file.chunks(chunk) {
        bytes.extend_from_slice(&frame(DATA, part.len() as u32));
        bytes.extend_from_slice(part);
    }
    bytes.extend_from_slice(&frame(DONE, mtime));
    bytes
}

/// Input that comes a few bytes at a time, as a push split over many WRTE messages does.
struct Trickle<'a> {
    bytes: &'a [u8],
    reads: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.reads += 1;
        // 1 to 7 bytes, so chunk headers and data are cut everywhere.
        let n = (self.reads % 7 + 1).min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn stat_v1_gives_mode_size_and_mtime_or_zeros() {
    let mut expected = b"STAT".to_vec();
    expected.extend_from_slice(&[0xa4, 0x81, 0, 0]); // 0o100644
    expected.extend_from_slice(&[5, 0, 0, 0]);
    expected.extend_from_slice(&[0, 0, 0, 0x65]);
    expected.extend_from_slice(b"STAT");
    expected.extend_from_slice(&[0; 12]);
    let requests = [request(b"STAT", "/sdcard/a.txt"), request(b"STAT", "/nope")].concat();
    assert_eq!(answers(&requests), expected);
}

#[test]
fn stat_v2_is_72_bytes_with_enoent_for_a_missing_file() {
    let out = answers(&request(b"STA2", "/sdcard/a.txt"));
    assert_eq!(out.len(), 72);
    assert_eq!(&out[..8], b"STA2\0\0\0\0");
    assert_eq!(&out[24..28], &0o100_644u32.to_le_bytes());
    assert_eq!(&out[28..32], &1u32.to_le_bytes(), "nlink");
    assert_eq!(&out[40..48], &5u64.to_le_bytes(), "size");
    assert_eq!(&out[56..64], &MTIME.to_le_bytes(), "mtime");

    let missing = answers(&request(b"LST2", "/nope"));
    let mut expected = b"LST2".to_vec();
    expected.extend_from_slice(&2u32.to_le_bytes());
    expected.resize(72, 0);
    assert_eq!(missing, expected);
}

#[test]
fn recv_sends_data_chunks_of_at_most_64_kib_then_done() {
    let out = answers(&[request(b"RECV", "/sdcard/big"), request(b"QUIT", "")].concat());
    let mut at = 0;
    let mut file = Vec::new();
    loop {
        let (kind, length) = split(out[at..at + 8].try_into().unwrap());
        at += 8;
        if kind == DONE {
            assert_eq!(length, 0);
            break;
        }
        assert_eq!(kind, DATA);
        assert!(length as usize <= DATA_MAX);
        file.extend_from_slice(&out[at..at + length as usize]);
        at += length as usize;
    }
    assert_eq!(at, out.len());
    assert_eq!(Some(file), Files.file("/sdcard/big"));
    assert_eq!(
        &answers(&request(b"RECV", "/sdcard/a.txt"))[..],
        b"DATA\x05\0\0\0helloDONE\0\0\0\0"
    );
}

#[test]
fn a_missing_file_fails_and_ends_the_session() {
    let requests = [request(b"RECV", "/nope"), request(b"STAT", "/sdcard/a.txt")].concat();
    let reason = "open failed: No such file or directory";
    let mut expected = b"FAIL".to_vec();
    expected.extend_from_slice(&(reason.len() as u32).to_le_bytes());
    expected.extend_from_slice(reason.as_bytes());
    assert_eq!(answers(&requests), expected);
}

#[test]
fn listings_are_an_empty_done() {
    let out = answers(&[request(b"LIST", "/sdcard"), request(b"LIS2", "/sdcard")].concat());
    assert_eq!(out.len(), 20 + 76);
    assert_eq!(&out[..4], b"DONE");
    assert!(out[4..20].iter().all(|b| *b == 0));
    assert_eq!(&out[20..24], b"DONE");
}

#[test]
fn listings_give_each_entry_as_dent_and_dnt2_then_done() {
    let device = Writable::default();
    let pushes = [
        push_request("/sdcard/a.txt,420", b"hello", 64, 1_700_000_000),
        push_request("/sdcard/b,493", b"", 64, 1_700_000_001),
    ]
    .concat();
    let requests = [
        pushes,
        request(b"LIST", "/sdcard"),
        request(b"LIS2", "/sdcard"),
    ]
    .concat();
    let out = answers_from(&mut &requests[..], &device);
    let list = &out[16..];
    let dent = |mode: u32, size: u32, mtime: u32, name: &str| {
        let mut bytes = b"DENT".to_vec();
        for field in [mode, size, mtime, name.len() as u32] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        bytes.extend_from_slice(name.as_bytes());
        bytes
    };
    let v1 = [
        dent(0o100_666, 5, 1_700_000_000, "a.txt"),
        dent(0o100_777, 0, 1_700_000_001, "b"),
    ]
    .concat();
    assert_eq!(&list[..v1.len()], &v1[..]);
    assert_eq!(&list[v1.len()..v1.len() + 4], b"DONE");
    let v2 = &list[v1.len() + 20..];
    // DNT2, no error, dev, ino, then mode at 24 and size at 40, mtime at 56, name at 76.
    assert_eq!(&v2[..4], b"DNT2");
    assert_eq!(&v2[24..28], &0o100_666u32.to_le_bytes());
    assert_eq!(&v2[40..48], &5u64.to_le_bytes());
    assert_eq!(&v2[56..64], &1_700_000_000u64.to_le_bytes());
    assert_eq!(&v2[72..76], &5u32.to_le_bytes());
    assert_eq!(&v2[76..81], b"a.txt");
    assert_eq!(&v2[81..85], b"DNT2");
    assert_eq!(&v2[v2.len() - 76..v2.len() - 72], b"DONE");
    assert_eq!(v2.len(), 2 * 76 + 5 + 1 + 76);
}

#[test]
fn a_push_is_kept_then_stat_and_recv_give_it_back() {
    let device = Writable::default();
    let file: Vec<u8> = (0..90_000u32).map(|i| (i % 253) as u8).collect();
    // adbutils' mode: S_IFREG | 0o755, in decimal; its 4 KiB chunks.
    let mut requests = push_request("/data/local/tmp/u2.jar,33261", &file, 4096, 0x6600_0000);
    requests.extend_from_slice(&request(b"STAT", "/data/local/tmp/u2.jar"));
    requests.extend_from_slice(&request(b"STA2", "/data/local/tmp/u2.jar"));
    requests.extend_from_slice(&request(b"RECV", "/data/local/tmp/u2.jar"));
    let out = answers_from(&mut &requests[..], &device);
    assert_eq!(&out[..8], b"OKAY\0\0\0\0");
    // STAT: adbd copies the owner's bits to group and other.
    let mut stat = b"STAT".to_vec();
    stat.extend_from_slice(&0o100_777u32.to_le_bytes());
    stat.extend_from_slice(&90_000u32.to_le_bytes());
    stat.extend_from_slice(&0x6600_0000u32.to_le_bytes());
    assert_eq!(&out[8..24], &stat[..]);
    let stat_v2 = &out[24..96];
    assert_eq!(&stat_v2[24..28], &0o100_777u32.to_le_bytes());
    assert_eq!(&stat_v2[40..48], &90_000u64.to_le_bytes(), "size");
    // RECV: the same bytes, in chunks of at most 64 KiB.
    let mut at = 96;
    let mut back = Vec::new();
    loop {
        let (kind, length) = split(out[at..at + 8].try_into().unwrap());
        at += 8;
        if kind == DONE {
            break;
        }
        back.extend_from_slice(&out[at..at + length as usize]);
        at += length as usize;
    }
    assert!(back == file, "the pushed bytes came back different");
    // The adb CLI's octal spelling, 0644 kept as 0666.
    let out = answers_from(
        &mut &push_request("/sdcard/a,0644", b"x", 1, 5)[..],
        &device,
    );
    assert_eq!(out, b"OKAY\0\0\0\0");
    assert_eq!(device.stat("/sdcard/a").unwrap().mode, 0o666);
}

#[test]
fn a_push_split_across_many_messages_arrives_whole() {
    let device = Writable::default();
    let file: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 256) as u8).collect();
    // The adb CLI's chunks are the most a DATA holds.
    let mut requests = push_request("/sdcard/b.bin,33188", &file, DATA_MAX, 7);
    requests.extend_from_slice(&request(b"QUIT", ""));
    let mut input = Trickle {
        bytes: &requests,
        reads: 0,
    };
    assert_eq!(answers_from(&mut input, &device), b"OKAY\0\0\0\0");
    assert!(input.reads > 10_000, "{} reads", input.reads);
    assert!(device.file("/sdcard/b.bin").unwrap() == file);
}

#[test]
fn a_push_over_the_cap_fails_and_keeps_nothing() {
    let device = Writable::default();
    let file = vec![7u8; PUSH_CAP + 1];
    let mut requests = push_request("/sdcard/big,33188", &file, 4096, 7);
    requests.extend_from_slice(&request(b"STAT", "/sdcard/big"));
    let out = answers_from(&mut &requests[..], &device);
    let reason = "write failed: File too large: up to 100 KiB here";
    let mut expected = b"FAIL".to_vec();
    expected.extend_from_slice(&(reason.len() as u32).to_le_bytes());
    expected.extend_from_slice(reason.as_bytes());
    // The FAIL, then nothing: the session ended after the rest of the data was read.
    assert_eq!(out, expected);
    assert_eq!(device.file("/sdcard/big"), None);
}

#[test]
fn a_push_cut_short_or_malformed_keeps_nothing() {
    let device = Writable::default();
    let whole = push_request("/sdcard/cut,33188", &[1; 10_000], 4096, 7);
    // The host gone before DONE.
    let cut = &whole[..whole.len() - 8];
    answers_from(&mut &cut[..], &device);
    assert_eq!(device.file("/sdcard/cut"), None);
    let fails = |requests: &[u8]| {
        let out = answers_from(&mut &requests[..], &device);
        assert!(out.starts_with(b"FAIL"), "{out:?}");
        String::from_utf8_lossy(&out[8..]).into_owned()
    };
    assert_eq!(
        fails(&request(b"SEND", "/sdcard/x")),
        "missing , in ID_SEND_V1"
    );
    assert_eq!(fails(&request(b"SEND", "/sdcard/x,rw")), "bad mode");
    let mut oversize = request(b"SEND", "/sdcard/x,420");
    oversize.extend_from_slice(&frame(DATA, DATA_MAX as u32 + 1));
    assert_eq!(fails(&oversize), "oversize data message");
    let mut stray = request(b"SEND", "/sdcard/x,420");
    stray.extend_from_slice(&request(b"STAT", "/sdcard/x"));
    assert_eq!(fails(&stray), "invalid data message");
    assert_eq!(device.file("/sdcard/x"), None);
}

#[test]
fn send_is_refused_after_its_data_is_read() {
    let mut requests = request(b"SEND", "/sdcard/new.txt,33188");
    requests.extend_from_slice(b"DATA\x03\0\0\0abcDONE\x00\x00\x00\x65");
    let out = answers(&requests);
    assert!(out.starts_with(b"FAIL"), "{out:?}");
    assert!(String::from_utf8_lossy(&out).contains("Read-only file system"));
}

#[test]
fn long_paths_and_unknown_requests_fail() {
    let long = answers(&request(b"STAT", &"x".repeat(1025)));
    assert_eq!(&long[..], b"FAIL\x0d\0\0\0path too long");
    let unknown = answers(&request(b"HUH?", "/"));
    assert!(String::from_utf8_lossy(&unknown).contains("unknown command 3f485548"));
    // QUIT, or the host going away, ends it without a word.
    assert!(answers(&[request(b"QUIT", ""), request(b"STAT", "/")].concat()).is_empty());
    assert!(answers(b"STA").is_empty());
}
