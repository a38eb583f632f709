//! A tap through the real `adb` server, end to end, on the sim with a stock phone's costs
//! served as an ADB device (`tapscope sim --adb --profile phone`, here in this process):
//! tapscope's act-and-observe (the tap, the settle, the tree) against what a naive agent
//! runs through the adb command line, `adb shell input tap X Y`, `sleep 1`,
//! `adb shell uiautomator dump /dev/tty`; and one dump alone. Real time: each sample takes
//! seconds. Needs Debian's `adb`.
//!
//! Run with `cargo bench -p tapscope --bench adb`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::adbd::{self, Server};
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::shell::SimShell;
use tapscope_core::device::{Device, Key};
use tapscope_core::geometry::Point;
use tapscope_core::session::{Action, Session, SessionConfig};
use tapscope_core::stability::RealClock;
use tapscope_tests::adb::PrivateAdb;

/// The private adb server with the sim connected, for every bench.
struct Rig {
    adb: PrivateAdb,
    serial: String,
    _sim: Server,
}

fn rig() -> &'static Rig {
    static RIG: OnceLock<Rig> = OnceLock::new();
    RIG.get_or_init(|| {
        let adb = PrivateAdb::start();
        let listener = adbd::bind("127.0.0.1:0".parse().expect("an address")).expect("a port");
        let shell = SimShell::new(RealClock::new(), 1, Profile::Phone);
        let sim = adbd::serve(listener, Arc::new(shell)).expect("the sim serves");
        let serial = sim.local_addr().to_string();
        adb.connect(&serial);
        Rig {
            adb,
            serial,
            _sim: sim,
        }
    })
}

fn main() {
    divan::main();
}

/// tapscope's tap on TapTube, settled, with the tree in hand; then back, the same way.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn tapscope_act_and_observe(bencher: divan::Bencher) {
    let rig = rig();
    let device = AdbDevice::connect_at(rig.adb.server_address(), Some(&rig.serial))
        .expect("the sim over adb");
    let clock = device.clock();
    let session = Session::new(device, clock, SessionConfig::default());
    let mut forward = true;
    let mut latest = session.observe().expect("observe");
    bencher.bench_local(|| {
        let action = if forward {
            let handle = latest
                .handle_where(|n| n.label.contains("TapTube"))
                .expect("the launcher");
            Action::Tap(handle)
        } else {
            Action::Key(Key::Back)
        };
        forward = !forward;
        let outcome = session.act(&action).expect("act");
        assert_eq!(outcome.settle.dumps, 1);
        latest = outcome.observation;
    });
}

/// What a naive agent runs through the adb command line: tap, sleep 1 s, dump; then back.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn adb_tap_sleep_1s_dump(bencher: divan::Bencher) {
    let rig = rig();
    let icon = {
        let mut device = AdbDevice::connect_at(rig.adb.server_address(), Some(&rig.serial))
            .expect("the sim over adb");
        device.key(Key::Home).expect("home");
        launcher_icon(&device.dump().expect("dump"))
    };
    let mut forward = true;
    bencher.bench_local(|| {
        let act = if forward {
            format!("input tap {} {}", icon.x, icon.y)
        } else {
            "input keyevent 4".to_owned()
        };
        forward = !forward;
        let acted = rig.adb.on(&rig.serial, &["shell", &act]);
        assert!(acted.status.success());
        std::thread::sleep(Duration::from_secs(1));
        let dumped = rig
            .adb
            .on(&rig.serial, &["shell", "uiautomator", "dump", "/dev/tty"]);
        assert!(dumped.stdout.ends_with(b"/dev/tty\n"));
    });
}

/// One stock dump through the adb command line: the unit the goal is stated in.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn adb_one_dump(bencher: divan::Bencher) {
    let rig = rig();
    bencher.bench_local(|| {
        let dumped = rig
            .adb
            .on(&rig.serial, &["shell", "uiautomator", "dump", "/dev/tty"]);
        assert!(dumped.stdout.ends_with(b"/dev/tty\n"));
    });
}

/// The middle of TapTube's launcher icon in a dump.
fn launcher_icon(xml: &str) -> Point {
    let tree = tapscope_core::parse::parse_str(xml).expect("a dump");
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == "TapTube")
        .expect("TapTube on the launcher");
    let (x, y) = node.bounds.center();
    Point::new(x, y)
}
