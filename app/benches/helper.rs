//! Looks through uiautomator2's server, through the real `adb` server, on the sim with a
//! stock phone's costs served as an ADB device (here in this process) with its
//! uiautomator2 server started as `tapscope helper start u2` starts it: one look at a
//! still screen, a tap by handle on a screen that does not animate (a switch), settled
//! with the tree in hand, and the same open-and-back as the stock bench (`--bench adb`).
//! Real time. Needs Debian's `adb`.
//!
//! Run with `cargo bench -p tapscope --bench helper`.

use std::sync::{Arc, OnceLock};

use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::adb::helper::{RunningU2, U2Start};
use tapscope_core::device::adbd::{self, Server};
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::shell::SimShell;
use tapscope_core::device::{Device, Key};
use tapscope_core::session::{Action, Observation, Session, SessionConfig};
use tapscope_core::stability::RealClock;
use tapscope_core::stability::look::{LookBackend, LookChoice};
use tapscope_tests::adb::PrivateAdb;

/// The private adb server, the sim connected, its uiautomator2 server running.
struct Rig {
    adb: PrivateAdb,
    serial: String,
    _u2: RunningU2,
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
        let device =
            AdbDevice::connect_at(adb.server_address(), Some(&serial)).expect("the sim over adb");
        // The sim runs no Java: any jar-shaped file is what its `app_process` is pointed at.
        let U2Start::Started(u2) = device
            .start_u2(b"PK\x03\x04 a jar for the simulated phone")
            .expect("uiautomator2's server starts")
        else {
            panic!("a fresh sim runs no server")
        };
        Rig {
            adb,
            serial,
            _u2: u2,
            _sim: sim,
        }
    })
}

fn main() {
    divan::main();
}

fn device() -> AdbDevice {
    let rig = rig();
    let device = AdbDevice::connect_looking(
        rig.adb.server_address(),
        Some(&rig.serial),
        LookChoice::Auto,
    )
    .expect("the sim over adb");
    assert_eq!(device.look_backend(), LookBackend::U2);
    device
}

fn handle(observation: &Observation, text: &str) -> tapscope_core::handle::Handle {
    observation
        .handle_where(|n| n.label.contains(text))
        .unwrap_or_else(|| panic!("no {text:?} in\n{}", observation.text))
}

/// One look at a still screen through the helper: the call, the transfer, the parse.
#[divan::bench(sample_count = 30, sample_size = 1)]
fn u2_one_look(bencher: divan::Bencher) {
    let mut device = device();
    device.key(Key::Home).expect("home");
    bencher.bench_local(|| {
        let xml = device.dump().expect("a look");
        tapscope_core::parse::parse_str(&xml).expect("a tree")
    });
}

/// A switch tapped by its handle in Settings (nothing moves), settled, tree in hand.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn u2_tap_a_switch_settled(bencher: divan::Bencher) {
    let mut device = device();
    device.key(Key::Home).expect("home");
    let clock = device.clock();
    let session = Session::new(device, clock, SessionConfig::default());
    let home = session.observe().expect("observe");
    let mut latest = session
        .act(&Action::Tap(handle(&home, "Settings")))
        .expect("open Settings")
        .observation;
    bencher.bench_local(|| {
        let outcome = session
            .act(&Action::Tap(handle(&latest, "Wi-Fi")))
            .expect("act");
        assert!(outcome.settle.settled);
        assert_eq!(
            outcome.settle.look.map(|l| l.backend),
            Some(LookBackend::U2)
        );
        latest = outcome.observation;
    });
}

/// The stock bench's tap on TapTube (its screen slides in), settled; then back.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn u2_open_and_back_settled(bencher: divan::Bencher) {
    let mut device = device();
    device.key(Key::Home).expect("home");
    let clock = device.clock();
    let session = Session::new(device, clock, SessionConfig::default());
    let mut forward = true;
    let mut latest = session.observe().expect("observe");
    bencher.bench_local(|| {
        let action = if forward {
            Action::Tap(handle(&latest, "TapTube"))
        } else {
            Action::Key(Key::Back)
        };
        forward = !forward;
        let outcome = session.act(&action).expect("act");
        assert!(outcome.settle.settled);
        latest = outcome.observation;
    });
}
