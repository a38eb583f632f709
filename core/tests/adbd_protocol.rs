//! adbd spoken to by a raw host, message by message, with the fake phone behind it: the
//! handshake, shell v2 and legacy shells, flow control, concurrent streams, refused
//! services, sessions, and the sync protocol. Bad input and limits are in
//! `adbd_bad_input.rs`.

mod adbd_support;

use adbd_support::client::{Host, Opened, VERSION, le32, packet, packets, sync_request};
use adbd_support::{BIG_LEN, BIG_PATH, DEVICE, DUMP, DUMP_PATH, Seen, blob, expect_seen, start};
use tapscope_core::device::adbd::Limits;

const BANNER: &str = "device::ro.product.name=tapscope_fake;ro.product.model=Fake Phone 7;\
                      ro.product.device=fakephone;features=shell_v2,cmd,stat_v2,ls_v2";

#[test]
fn the_handshake_answers_with_version_the_smaller_max_payload_and_the_banner() {
    let served = start(Limits::default());
    let addr = served.server.local_addr();
    let (_, answer) = Host::connect(addr, 1024 * 1024);
    assert_eq!((answer.arg0, answer.arg1), (VERSION, 256 * 1024));
    assert_eq!(String::from_utf8_lossy(&answer.data), BANNER);
    let (_, answer) = Host::connect(addr, 4096);
    assert_eq!(answer.arg1, 4096);
    // The oldest hosts (version 0x01000000, checksums checked) are answered too.
    let mut old = Host::tcp(addr);
    old.send(b"CNXN", 0x0100_0000, 4096, b"host::\0");
    assert_eq!(old.recv().arg0, VERSION);
    assert_eq!(old.shell_v2("echo old")[0], (1, b"old\n".to_vec()));
}

#[test]
fn shell_v2_gives_stdout_stderr_and_the_exit_status() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    assert_eq!(
        host.shell_v2("echo hi"),
        [(1, b"hi\n".to_vec()), (3, vec![0])]
    );
    assert_eq!(
        host.shell_v2("warn oops"),
        [(2, b"oops\n".to_vec()), (3, vec![0])]
    );
    assert_eq!(host.shell_v2("exit-with 3"), [(3, vec![3])]);
    assert_eq!(
        host.shell_v2("nope"),
        [
            (
                2,
                b"/system/bin/sh: nope: inaccessible or not found\n".to_vec()
            ),
            (3, vec![127])
        ]
    );
    expect_seen(&served.seen, &Seen::Ran("nope".into()));
    // A pty command: stderr joins stdout, and `\n` is written `\r\n`.
    let stream = host.open("shell,v2,TERM=xterm,pty:warn a\nb");
    let got = packets(&host.read_to_close(stream));
    assert_eq!(got, [(1, b"a\r\nb\r\n".to_vec()), (3, vec![0])]);
}

#[test]
fn legacy_shell_and_exec_are_raw_bytes_then_close() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let stream = host.open("shell:echo hi");
    assert_eq!(host.read_to_close(stream), b"hi\n");
    let stream = host.open("shell:warn to stderr");
    assert_eq!(host.read_to_close(stream), b"to stderr\n");
    let stream = host.open("exec:blob 5000 3");
    assert_eq!(host.read_to_close(stream), blob(5000, 3));
}

#[test]
fn messages_crossing_our_close_are_ignored_and_not_answered() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let stream = host.open("shell:echo done");
    assert_eq!(host.read_to_close(stream), b"done\n");
    // A host's last OKAY, a WRTE, and its own CLSE may cross ours: no answer (the host
    // fails the test on anything more for that stream), and the connection stays.
    host.send(b"OKAY", stream.local, stream.remote, &[]);
    host.send(b"WRTE", stream.local, stream.remote, b"late");
    host.send(b"CLSE", stream.local, stream.remote, &[]);
    assert_eq!(
        host.shell_v2("echo next"),
        [(1, b"next\n".to_vec()), (3, vec![0])]
    );
}

#[test]
fn output_over_max_payload_arrives_whole_in_order_one_wrte_per_okay() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 4096);
    let big = host.open("exec:blob 100000 11");
    host.hold_acks(big);
    let mut got = host.next_write(big);
    // While that WRTE is not acknowledged, a whole other stream runs and nothing more
    // comes for this one (the host fails the test if it does).
    let other = host.open("shell:echo meanwhile");
    assert_eq!(host.read_to_close(other), b"meanwhile\n");
    let mut writes = 1;
    while got.len() < 100_000 {
        host.acknowledge(big);
        got.extend(host.next_write(big));
        writes += 1;
    }
    host.acknowledge(big);
    assert_eq!(host.read_to_close(big), b"");
    assert!(host.largest_write(big) <= 4096);
    assert!(writes >= 100_000 / 4096, "{writes} WRTEs");
    assert!(got == blob(100_000, 11), "bytes out of order or lost");
}

#[test]
fn two_streams_run_at_once_and_a_host_close_reaches_the_command() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let waiting = host.open("shell,v2,raw:wait");
    expect_seen(&served.seen, &Seen::Ran("wait".into()));
    assert_eq!(
        host.shell_v2("echo b"),
        [(1, b"b\n".to_vec()), (3, vec![0])]
    );
    host.close(waiting);
    expect_seen(&served.seen, &Seen::Stopped("wait".into()));
    assert_eq!(
        host.shell_v2("echo after"),
        [(1, b"after\n".to_vec()), (3, vec![0])]
    );
}

#[test]
fn services_a_phone_would_offer_but_this_does_not_are_refused_with_close() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    for service in [
        "reboot:",
        "tcpip:5555",
        "remount:",
        "jdwp",
        "framebuffer:",
        "reverse:frobnicate",
        "shellx:ls",
        "",
    ] {
        assert_eq!(host.try_open(service), None, "{service:?}");
    }
    assert_eq!(
        host.shell_v2("echo open"),
        [(1, b"open\n".to_vec()), (3, vec![0])]
    );
}

#[test]
fn an_interactive_pty_session_prompts_echoes_edits_and_exits_with_a_status() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let prompt = format!("{DEVICE}:/ $ ");
    let session = host.open("shell,v2,TERM=xterm-256color,pty:");
    let typed = |bytes: &[u8]| packet(0, bytes);
    assert_eq!(read_stdout_until(&mut host, session, &prompt), prompt);
    host.write(session, &packet(5, b"24x80,0x0"));
    host.write(session, &typed(b"echo hx\x7fi\r"));
    let shown = read_stdout_until(&mut host, session, &prompt);
    assert_eq!(shown, format!("echo hx\x08 \x08i\r\nhi\r\n{prompt}"));
    host.write(session, &typed(b"false\r"));
    read_stdout_until(&mut host, session, &format!("1|{prompt}"));
    // Ctrl-C stops a running command.
    host.write(session, &typed(b"wait\r"));
    expect_seen(&served.seen, &Seen::Ran("wait".into()));
    host.write(session, &typed(b"\x03"));
    expect_seen(&served.seen, &Seen::Stopped("wait".into()));
    read_stdout_until(&mut host, session, &format!("^C\r\n130|{prompt}"));
    host.write(session, &typed(b"exit 4\r"));
    assert_eq!(
        packets(&host.read_to_close(session)),
        [(1, b"exit 4\r\n".to_vec()), (3, vec![4])]
    );
}

/// Stdout packets of a v2 stream, as text, up to and including `wanted`.
fn read_stdout_until(host: &mut Host, stream: Opened, wanted: &str) -> String {
    let mut text = String::new();
    while !text.ends_with(wanted) {
        let header = host.read_exact(stream, 5);
        assert_eq!(header[0], 1, "stdout packet");
        let length = le32(&header[1..]) as usize;
        text.push_str(&String::from_utf8_lossy(&host.read_exact(stream, length)));
    }
    text
}

#[test]
fn a_legacy_interactive_shell_prompts_and_echoes_raw_bytes() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let prompt = format!("{DEVICE}:/ $ ");
    let session = host.open("shell:");
    host.read_until(session, &prompt);
    host.write(session, b"echo x\r");
    assert_eq!(
        host.read_until(session, &prompt),
        format!("echo x\r\nx\r\n{prompt}")
    );
    host.write(session, b"\x04");
    assert_eq!(host.read_to_close(session), b"");
}

#[test]
fn a_piped_session_runs_each_line_until_stdin_closes() {
    let limits = Limits {
        // Much less than the input: our OKAYs are held back until the session reads.
        max_input_buffered: 256,
        ..Limits::default()
    };
    let served = start(limits);
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let session = host.open("shell,v2,raw:");
    let script: String = (0..300).map(|i| format!("echo {i}\n")).collect();
    for piece in script.as_bytes().chunks(1000) {
        host.write(session, &packet(0, piece));
    }
    host.write(session, &packet(0, b"false\necho no newline"));
    host.write(session, &packet(4, b""));
    let got = packets(&host.read_to_close(session));
    let expected: String = (0..300).map(|i| format!("{i}\n")).collect();
    assert_eq!(got[0], (1, format!("{expected}no newline\n").into_bytes()));
    // The status of the last line run.
    assert_eq!(got[1], (3, vec![0]));
}

#[test]
fn sync_stats_and_receives_files_and_fails_on_missing_ones() {
    let served = start(Limits::default());
    let (mut host, _) = Host::connect(served.server.local_addr(), 1 << 20);
    let sync = host.open("sync:");
    host.write(sync, &sync_request(b"STAT", DUMP_PATH));
    let stat = host.read_exact(sync, 16);
    assert_eq!(&stat[..8], &[b'S', b'T', b'A', b'T', 0xa4, 0x81, 0, 0]);
    assert_eq!(&stat[8..12], &(DUMP.len() as u32).to_le_bytes());
    host.write(sync, &sync_request(b"STA2", "/sdcard/missing"));
    let stat = host.read_exact(sync, 72);
    assert_eq!(&stat[..8], b"STA2\x02\0\0\0");

    host.write(sync, &sync_request(b"RECV", BIG_PATH));
    let mut file = Vec::new();
    loop {
        let header = host.read_exact(sync, 8);
        let length = le32(&header[4..]) as usize;
        if &header[..4] == b"DONE" {
            break;
        }
        assert_eq!(&header[..4], b"DATA");
        assert!(length <= 64 * 1024);
        file.extend(host.read_exact(sync, length));
    }
    assert_eq!(file.len(), BIG_LEN);
    assert!(file == blob(BIG_LEN, 5), "received bytes differ");

    host.write(sync, &sync_request(b"RECV", "/sdcard/missing"));
    let reply = host.read_to_close(sync);
    assert!(reply.starts_with(b"FAIL"));
    assert!(String::from_utf8_lossy(&reply).contains("No such file or directory"));

    let sync = host.open("sync:");
    host.write(sync, &sync_request(b"QUIT", ""));
    assert_eq!(host.read_to_close(sync), b"");
}
