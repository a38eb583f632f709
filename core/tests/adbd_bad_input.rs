//! adbd against bad and greedy peers: each case closes that one connection (and says
//! why in `Server::dropped`) while a connection opened before it, and a fresh one after,
//! still work. Also the limits, a panicking backend, stopping, and loopback-only binds.

mod adbd_support;

use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use adbd_support::client::{Host, encode, packet};
use adbd_support::{PATIENCE, Seen, Served, expect_seen, start};
use tapscope_core::device::adbd::{self, AdbdError, Limits};

/// Proves a connection works: a command's output and exit status.
#[track_caller]
fn assert_works(host: &mut Host) {
    assert_eq!(
        host.shell_v2("echo alive"),
        [(1, b"alive\n".to_vec()), (3, vec![0])]
    );
}

/// Runs `misbehave` on a fresh connection; asserts it was closed for `reason`, and that
/// an older and a newer connection still work.
#[track_caller]
fn only_that_one_is_dropped(served: &Served, reason: &str, misbehave: impl FnOnce(&mut Host)) {
    let addr = served.server.local_addr();
    let (mut older, _) = Host::connect(addr, 1 << 20);
    let before = served.server.dropped().len();
    let mut bad = Host::tcp(addr);
    misbehave(&mut bad);
    bad.expect_closed();
    let dropped = served.server.wait_dropped(before + 1, PATIENCE);
    let last = dropped
        .last()
        .expect("the connection was recorded as dropped");
    assert!(
        last.reason.contains(reason),
        "{:?} should say {reason:?}",
        last.reason
    );
    assert_eq!(Some(last.peer), bad.socket.local_addr().ok());
    assert_works(&mut older);
    assert_works(&mut Host::connect(addr, 1 << 20).0);
}

fn connect(host: &mut Host) {
    host.send(b"CNXN", 0x0100_0001, 1 << 20, b"host::\0");
    assert_eq!(&host.recv().command, b"CNXN");
}

#[test]
fn wrong_magic_is_dropped() {
    let served = start(Limits::default());
    only_that_one_is_dropped(&served, "bad magic", |host| {
        let mut bytes = encode(b"CNXN", 0x0100_0001, 1 << 20, b"host::\0");
        bytes[20] ^= 0xff;
        host.send_bytes(&bytes);
    });
}

#[test]
fn a_payload_over_max_is_dropped_before_it_is_read() {
    let served = start(Limits::default());
    only_that_one_is_dropped(&served, "300000-byte payload is over the 262144", |host| {
        connect(host);
        let mut header = encode(b"WRTE", 1, 1, &[]);
        header[12..16].copy_from_slice(&300_000u32.to_le_bytes());
        host.send_bytes(&header);
    });
}

#[test]
fn a_bad_checksum_from_a_host_that_checks_them_is_dropped() {
    let served = start(Limits::default());
    only_that_one_is_dropped(&served, "checksum", |host| {
        // Version 0x01000000: checksums are still checked both ways.
        host.send(b"CNXN", 0x0100_0000, 4096, b"host::\0");
        assert_eq!(&host.recv().command, b"CNXN");
        let mut open = encode(b"OPEN", 1, 0, b"shell:echo x\0");
        open[16] ^= 1;
        host.send_bytes(&open);
    });
}

#[test]
fn anything_before_cnxn_is_dropped() {
    let served = start(Limits::default());
    only_that_one_is_dropped(&served, "OPEN before CNXN", |host| {
        host.send(b"OPEN", 1, 0, b"shell,v2,raw:echo x\0");
    });
    only_that_one_is_dropped(&served, "never asks for authentication", |host| {
        connect(host);
        host.send(b"AUTH", 2, 0, &[0; 20]);
    });
}

#[test]
fn messages_for_streams_never_opened_are_dropped() {
    let served = start(Limits::default());
    for command in [b"WRTE", b"OKAY", b"CLSE"] {
        let said = format!(
            "{} for stream 7, which was never opened",
            String::from_utf8_lossy(command)
        );
        only_that_one_is_dropped(&served, &said, |host| {
            connect(host);
            host.send(command, 1, 7, b"x");
        });
    }
    only_that_one_is_dropped(&served, "from host stream 99, not 100", |host| {
        connect(host);
        let stream = host.open("shell,v2,raw:wait");
        host.send(b"WRTE", 99, stream.remote, &packet(0, b"x"));
    });
    expect_seen(&served.seen, &Seen::Stopped("wait".into()));
}

#[test]
fn random_bytes_are_dropped() {
    let served = start(Limits::default());
    let mut noise = vec![0u8; 4096];
    fastrand::Rng::with_seed(3).fill(&mut noise);
    only_that_one_is_dropped(&served, "bad magic", |host| host.send_bytes(&noise));
}

#[test]
fn a_peer_that_vanishes_mid_message_or_mid_output_hurts_no_one() {
    let served = start(Limits::default());
    only_that_one_is_dropped(&served, "in the middle of a message", |host| {
        connect(host);
        host.send_bytes(&encode(b"OPEN", 1, 0, b"shell:echo x\0")[..30]);
        host.socket.shutdown(std::net::Shutdown::Write).unwrap();
    });
    // Gone while output streams: the command sees it and ends.
    let (mut gone, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let stream = gone.open("exec:endless");
    gone.read_exact(stream, 1);
    drop(gone);
    expect_seen(&served.seen, &Seen::Stopped("endless".into()));
    assert_works(&mut Host::connect(served.server.local_addr(), 1 << 20).0);
}

#[test]
fn a_peer_that_never_reads_is_dropped_at_the_write_timeout() {
    let limits = Limits {
        write_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let served = start(limits);
    only_that_one_is_dropped(&served, "writing WRTE", |host| {
        connect(host);
        let stream = host.open("exec:endless");
        // OKAYs for output never read: the device's writes back up until they time out.
        let okay = encode(b"OKAY", stream.local, stream.remote, &[]).repeat(64);
        while std::io::Write::write_all(&mut host.socket, &okay).is_ok() {}
    });
    expect_seen(&served.seen, &Seen::Stopped("endless".into()));
}

#[test]
fn a_silent_connection_is_dropped_at_the_handshake_timeout() {
    let limits = Limits {
        handshake_timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let served = start(limits);
    only_that_one_is_dropped(&served, "no CNXN within 200ms", |_| {});
}

#[test]
fn input_sent_before_our_okay_is_dropped() {
    let limits = Limits {
        max_input_buffered: 1000,
        ..Limits::default()
    };
    let served = start(limits);
    only_that_one_is_dropped(&served, "WRTE on stream", |host| {
        connect(host);
        // `deaf` reads nothing: the first WRTE is over the limit and gets no OKAY.
        let stream = host.open("shell,v2,raw:deaf");
        let flood = packet(0, &[b'x'; 2000]);
        host.send(b"WRTE", stream.local, stream.remote, &flood);
        host.send(b"WRTE", stream.local, stream.remote, &flood);
    });
    served.phone.release();
}

#[test]
fn connections_and_streams_are_bounded() {
    let limits = Limits {
        max_connections: 2,
        max_streams: 2,
        ..Limits::default()
    };
    let served = start(limits);
    let addr = served.server.local_addr();
    let (mut first, _) = Host::connect(addr, 1 << 20);
    let (_second, _) = Host::connect(addr, 1 << 20);
    let mut third = Host::tcp(addr);
    third.expect_closed();
    let dropped = served.server.wait_dropped(1, PATIENCE);
    assert!(
        dropped[0].reason.contains("too many connections (limit 2)"),
        "{dropped:?}"
    );

    let waiting = [
        first.open("shell,v2,raw:wait"),
        first.open("shell,v2,raw:wait"),
    ];
    assert_eq!(first.try_open("shell,v2,raw:echo x"), None);
    first.close(waiting[0]);
    assert_works(&mut first);
}

#[test]
fn half_open_connections_make_room_for_a_host_that_connects() {
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let served = start(limits);
    let addr = served.server.local_addr();
    // Two sockets that never send their CNXN hold every place.
    let mut silent = [Host::tcp(addr), Host::tcp(addr)];
    let (mut host, _) = Host::connect(addr, 1 << 20);
    assert_works(&mut host);
    let dropped = served.server.wait_dropped(1, PATIENCE);
    assert!(
        dropped[0].reason.contains("no CNXN yet") && dropped[0].reason.contains("make room"),
        "{dropped:?}"
    );
    // The oldest silent one was closed; the other still holds its place until a host
    // needs it.
    silent[0].expect_closed();
    let (mut another, _) = Host::connect(addr, 1 << 20);
    assert_works(&mut another);
    silent[1].expect_closed();
    // Every place is held by a connected host now: the next is refused.
    let mut third = Host::tcp(addr);
    third.expect_closed();
    let dropped = served.server.wait_dropped(3, PATIENCE);
    assert!(
        dropped[2].reason.contains("too many connections (limit 2)"),
        "{dropped:?}"
    );
    assert_works(&mut host);
}

#[test]
fn a_panicking_backend_closes_its_stream_only() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    assert_eq!(host.shell_v2("panic"), []);
    assert_works(&mut host);
}

#[test]
fn a_second_cnxn_starts_over() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    host.open("shell,v2,raw:wait");
    expect_seen(&served.seen, &Seen::Ran("wait".into()));
    connect(&mut host);
    expect_seen(&served.seen, &Seen::Stopped("wait".into()));
    assert_works(&mut host);
}

#[test]
fn stop_closes_the_listener_and_every_connection() {
    let served = start(Limits::default());
    let addr = served.server.local_addr();
    let (mut host, _) = Host::connect(addr, 1 << 20);
    host.open("shell,v2,raw:wait");
    expect_seen(&served.seen, &Seen::Ran("wait".into()));
    served.server.stop();
    host.expect_closed();
    expect_seen(&served.seen, &Seen::Stopped("wait".into()));
    let refused = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
}

#[test]
fn only_loopback_addresses_are_bound() {
    for addr in ["0.0.0.0:0", "[::]:0", "192.0.2.1:5555"] {
        let addr: SocketAddr = addr.parse().unwrap();
        let err = adbd::bind(addr).unwrap_err();
        assert!(matches!(err, AdbdError::NotLoopback { .. }), "{err}");
        assert!(
            err.to_string().contains("listen on 127.0.0.1 or [::1]"),
            "{err}"
        );
    }
    let taken = adbd::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let err = adbd::bind(taken.local_addr().unwrap()).unwrap_err();
    assert!(matches!(err, AdbdError::Bind { .. }), "{err}");
    assert!(err.to_string().contains("pick another port"), "{err}");
}
