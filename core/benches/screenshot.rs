//! Speed of the simulated phone's screenshots: every self-drawn screen's fallback and every
//! `screenshot` call draws one, so drawing stays well under 20 ms at the full 1080×2400.
//!
//! Run with `cargo bench -p tapscope-core --bench screenshot`. `draw` is the pixels alone
//! (`Device::capture`), `png` adds the encoding `screencap -p` pays.

use std::time::Duration;

use tapscope_core::device::sim::Sim;
use tapscope_core::device::{Capture, Device};
use tapscope_core::stability::{Clock, VirtualClock};

fn main() {
    divan::main();
}

/// The sim on `package`'s entry screen, settled; `search` taps through to the keyboard.
fn phone(package: &str, search: bool) -> Sim<VirtualClock> {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch(package).expect("the package is installed");
    clock.sleep(Duration::from_secs(5));
    if search {
        sim.tap(tapscope_core::geometry::Point::new(480, 168))
            .expect("the search box is on the display");
        clock.sleep(Duration::from_secs(5));
    }
    sim
}

const SCREENS: [(&str, bool); 4] = [
    ("com.google.android.apps.nexuslauncher", false),
    ("tv.tapscope.demo", false),
    ("tv.tapscope.demo", true),
    ("tv.tapscope.blocks", false),
];

#[divan::bench(args = [0, 1, 2, 3], sample_count = 50)]
fn draw_full_size(bencher: divan::Bencher, screen: usize) {
    let (package, search) = SCREENS[screen];
    let mut sim = phone(package, search);
    bencher.bench_local(|| match sim.capture(2400).expect("the sim draws") {
        Capture::Pixels { pixels, .. } => pixels,
        Capture::Png(_) => unreachable!("the sim hands over pixels"),
    });
}

#[divan::bench(args = [1], sample_count = 50)]
fn draw_fallback_size(bencher: divan::Bencher, screen: usize) {
    let (package, search) = SCREENS[screen];
    let mut sim = phone(package, search);
    bencher.bench_local(|| sim.capture(1024).expect("the sim draws"));
}

#[divan::bench(args = [1], sample_count = 20)]
fn png_full_size(bencher: divan::Bencher, screen: usize) {
    let (package, search) = SCREENS[screen];
    let mut sim = phone(package, search);
    bencher.bench_local(|| sim.screenshot_png().expect("the sim draws"));
}
