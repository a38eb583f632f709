//! The sync protocol on literal bytes: requests in, every answer's exact layout out.

use super::*;
use crate::device::adbd::{CommandOutput, Identity};

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
    let mut out = Vec::new();
    session(
        &mut &requests[..],
        &mut |bytes| {
            out.extend_from_slice(bytes);
            Ok(())
        },
        &Files,
        MTIME,
    );
    out
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
