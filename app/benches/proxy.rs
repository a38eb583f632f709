//! What `tapscope proxy` costs, through Debian's real adb server with the sim served as an
//! ADB device in this process: one shell command (`shell,v2,raw:echo hi`) and a 10 MB
//! `exec:` output, each straight to the adb server and through the proxy (recording); and
//! one tap with `--check tree` against `--check none` on the sim with a stock phone's costs
//! (`sim:phone`), where the check is one stock dump before the tap goes on. Clients speak
//! the host protocol from this process, so no `adb` process start is timed. Needs `adb`.
//!
//! Run with `cargo bench -p tapscope --bench proxy`.

use std::io::Read;
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, OnceLock};

use tapscope::proxy::{Config, Proxy};
use tapscope_core::device::adbd::{self, Server};
use tapscope_core::device::host_service::{Status, read_status, write_request};
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::shell::SimShell;
use tapscope_core::recording::Check;
use tapscope_core::stability::RealClock;
use tapscope_tests::adb::PrivateAdb;

/// Bytes in the large output.
const LARGE: usize = 10_000_000;

/// A private adb server with the sim of `profile` connected, and proxies in front of it.
struct Rig {
    adb: PrivateAdb,
    serial: String,
    _sim: Server,
    recorded: Proxy,
    _folder: tempfile::TempDir,
}

fn rig_of(profile: Profile, check: Check) -> Rig {
    let adb = PrivateAdb::start();
    let listener = adbd::bind("127.0.0.1:0".parse().expect("an address")).expect("a port");
    let shell = SimShell::new(RealClock::new(), 1, profile);
    let sim = adbd::serve(listener, Arc::new(shell)).expect("the sim serves");
    let serial = sim.local_addr().to_string();
    adb.connect(&serial);
    let folder = tempfile::tempdir().expect("a folder");
    let recorded = Proxy::start(
        Config {
            logs: false,
            listen: "127.0.0.1:0".parse().expect("an address"),
            upstream: adb.server_address(),
            record: Some(folder.path().join("rec")),
            check,
        },
        None,
    )
    .expect("the proxy starts");
    Rig {
        adb,
        serial,
        _sim: sim,
        recorded,
        _folder: folder,
    }
}

/// The instant sim, with a 10 MB file made on it.
fn instant() -> &'static Rig {
    static RIG: OnceLock<Rig> = OnceLock::new();
    RIG.get_or_init(|| {
        let rig = rig_of(Profile::Instant, Check::None);
        let mut make = String::from("echo 0123456789abcdefghijklmnopqrstuvwxyz > /sdcard/big");
        for _ in 0..19 {
            make.push_str(
                "; cat /sdcard/big /sdcard/big > /sdcard/twice; cat /sdcard/twice > /sdcard/big",
            );
        }
        let direct: SocketAddr = rig.adb.server_address().into();
        run(direct, &rig.serial, &format!("shell,v2,raw:{make}"));
        rig
    })
}

/// Opens `service` on `serial` through the server at `at` and reads all it sends.
fn run(at: SocketAddr, serial: &str, service: &str) -> usize {
    let mut stream = TcpStream::connect(at).expect("the server accepts");
    stream.set_nodelay(true).expect("no delay");
    for request in [format!("host:transport:{serial}"), service.to_owned()] {
        write_request(&mut stream, &request).expect("the request is sent");
        let (status, _) = read_status(&mut stream).expect("an answer");
        assert_eq!(status, Status::Okay, "{request}");
    }
    let mut buffer = vec![0u8; 256 * 1024];
    let mut total = 0;
    loop {
        match stream.read(&mut buffer).expect("the output") {
            0 => return total,
            n => total += n,
        }
    }
}

fn main() {
    divan::main();
}

mod shell_command {
    use super::*;

    #[divan::bench]
    fn direct(bencher: divan::Bencher) {
        let rig = instant();
        let at = rig.adb.server_address().into();
        bencher.bench(|| run(at, &rig.serial, "shell,v2,raw:echo hi"));
    }

    #[divan::bench]
    fn through_the_proxy(bencher: divan::Bencher) {
        let rig = instant();
        let at = rig.recorded.local_addr();
        bencher.bench(|| run(at, &rig.serial, "shell,v2,raw:echo hi"));
    }
}

mod exec_out_10_mb {
    use super::*;

    const CUT: &str = "exec:cat /sdcard/big | head -c 10000000";

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn direct(bencher: divan::Bencher) {
        let rig = instant();
        let at = rig.adb.server_address().into();
        bencher
            .counter(divan::counter::BytesCount::new(LARGE))
            .bench(|| assert_eq!(run(at, &rig.serial, CUT), LARGE));
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn through_the_proxy(bencher: divan::Bencher) {
        let rig = instant();
        let at = rig.recorded.local_addr();
        bencher
            .counter(divan::counter::BytesCount::new(LARGE))
            .bench(|| assert_eq!(run(at, &rig.serial, CUT), LARGE));
    }
}

/// A tap on an empty part of the launcher (nothing moves) on `sim:phone`: `input` costs
/// 60 ms; `--check tree` adds one stock dump (its start, 1 s of quiet, the tree).
mod tap_on_sim_phone {
    use super::*;

    const TAP: &str = "shell,v2,raw:input tap 540 1500";

    fn phone(check: Check) -> &'static Rig {
        static NONE: OnceLock<Rig> = OnceLock::new();
        static TREE: OnceLock<Rig> = OnceLock::new();
        let cell = if check == Check::Tree { &TREE } else { &NONE };
        cell.get_or_init(|| rig_of(Profile::Phone, check))
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn check_none(bencher: divan::Bencher) {
        let rig = phone(Check::None);
        let at = rig.recorded.local_addr();
        bencher.bench(|| run(at, &rig.serial, TAP));
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn check_tree(bencher: divan::Bencher) {
        let rig = phone(Check::Tree);
        let at = rig.recorded.local_addr();
        bencher.bench(|| run(at, &rig.serial, TAP));
    }
}
