use super::*;

fn frame(tag: &[u8; 4], value: u32, data: &[u8]) -> Vec<u8> {
    let mut bytes = tag.to_vec();
    bytes.extend_from_slice(&value.to_le_bytes());
    bytes.extend_from_slice(data);
    bytes
}

fn request(tag: &[u8; 4], path: &str) -> Vec<u8> {
    frame(tag, path.len() as u32, path.as_bytes())
}

/// Feeds both sides in pieces of `piece` bytes, host first (a device answers only what
/// it was asked).
fn decode(host: &[u8], device: &[u8], piece: usize, capture: usize) -> (Vec<Transfer>, bool) {
    let mut decoder = SyncDecoder::new(capture);
    for chunk in host.chunks(piece) {
        decoder.from_host(chunk);
    }
    for chunk in device.chunks(piece) {
        decoder.from_device(chunk);
    }
    (decoder.take(), decoder.lost())
}

/// `adb pull /sdcard/window_dump.xml` as adb 1.0.41 asks it: STA2 (v2 stat), then RECV,
/// then QUIT; the device answers the stat, then DATA chunks and DONE.
#[test]
fn a_pull_gives_the_path_the_size_and_the_first_bytes() {
    let path = "/sdcard/window_dump.xml";
    let file = b"<?xml version='1.0'?><hierarchy rotation=\"0\"></hierarchy>";
    let mut host = request(b"STA2", path);
    host.extend(request(b"RECV", path));
    host.extend(frame(b"QUIT", 0, b""));
    let mut stat = b"STA2".to_vec();
    stat.resize(STAT_V2_LEN, 0);
    let mut device = stat;
    device.extend(frame(b"DATA", 20, &file[..20]));
    device.extend(frame(b"DATA", (file.len() - 20) as u32, &file[20..]));
    device.extend(frame(b"DONE", 0, b""));
    for piece in [1, 3, 7, 64, 4096] {
        let (transfers, lost) = decode(&host, &device, piece, 1 << 20);
        assert!(!lost, "{piece}");
        assert_eq!(
            transfers,
            [Transfer::Pulled {
                path: path.into(),
                size: file.len() as u64,
                head: file.to_vec(),
                failed: None,
            }],
            "{piece}"
        );
    }
    // Only the first bytes are kept past the capture limit; the size is the whole.
    let (transfers, _) = decode(&host, &device, 5, 10);
    assert!(
        matches!(&transfers[..], [Transfer::Pulled { size, head, .. }]
        if *size == file.len() as u64 && head.as_slice() == &file[..10])
    );
}

#[test]
fn a_listing_and_a_v1_stat_are_followed_to_the_next_pull() {
    let mut host = request(b"LIST", "/sdcard");
    host.extend(request(b"STAT", "/sdcard/a.xml"));
    host.extend(request(b"RCV2", "/sdcard/a.xml"));
    host.extend(frame(b"RCV2", 0, b""));
    // Two entries, then DONE: each `DENT mode size time namelen` and the name.
    let mut device = Vec::new();
    for name in ["a.xml", "b.png"] {
        device.extend(b"DENT");
        device.extend([0; 12]);
        device.extend((name.len() as u32).to_le_bytes());
        device.extend(name.as_bytes());
    }
    device.extend(b"DONE");
    device.extend([0; 16]);
    device.extend(b"STAT");
    device.extend([0; 12]);
    device.extend(frame(b"DATA", 3, b"abc"));
    device.extend(frame(b"DONE", 0, b""));
    let (transfers, lost) = decode(&host, &device, 2, 100);
    assert!(!lost);
    assert_eq!(
        transfers,
        [Transfer::Pulled {
            path: "/sdcard/a.xml".into(),
            size: 3,
            head: b"abc".to_vec(),
            failed: None
        }]
    );
}

#[test]
fn a_push_is_counted_not_kept_and_a_refusal_is_said() {
    let data = vec![7u8; 200_000];
    let mut host = request(b"SEND", "/data/local/tmp/u2.jar,33188");
    for chunk in data.chunks(64 * 1024) {
        host.extend(frame(b"DATA", chunk.len() as u32, chunk));
    }
    host.extend(frame(b"DONE", 1_700_000_000, b""));
    let okay = frame(b"OKAY", 0, b"");
    let (transfers, lost) = decode(&host, &okay, 1000, 16);
    assert!(!lost);
    assert_eq!(
        transfers,
        [Transfer::Pushed {
            path: "/data/local/tmp/u2.jar".into(),
            size: 200_000,
            failed: None
        }]
    );
    let refused = frame(b"FAIL", 21, b"Read-only file system");
    let (transfers, _) = decode(&host, &refused, 1000, 16);
    assert!(
        matches!(&transfers[..], [Transfer::Pushed { failed: Some(why), .. }]
        if why == "Read-only file system")
    );
}

#[test]
fn a_failed_pull_says_why() {
    let host = request(b"RECV", "/nope");
    let device = frame(b"FAIL", 25, b"No such file or directory");
    let (transfers, _) = decode(&host, &device, 4, 100);
    assert!(
        matches!(&transfers[..], [Transfer::Pulled { failed: Some(why), size: 0, .. }]
        if why.contains("No such file"))
    );
}

#[test]
fn a_stream_it_cannot_follow_is_given_up_on() {
    let (transfers, lost) = decode(b"JUNKJUNKJUNK", b"", 3, 100);
    assert!(lost && transfers.is_empty());
    // A device reply with nothing asked.
    let (_, lost) = decode(b"", &frame(b"DATA", 3, b"abc"), 3, 100);
    assert!(lost);
}
