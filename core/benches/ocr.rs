//! Speed of `Tesseract::read` on one core (`OMP_THREAD_LIMIT=1`, as every read runs):
//! the fallback's 1024-px screenshots an agent is sent (the self-drawn game's title, the
//! demo app's feed, a specimen of 32-px text), and the feed at its full 1080×2400; the
//! 1024-px ones also read at twice their size. Then `PpOcr::read` on the full-size
//! screens a session reads, on one thread and on rten's pool (a thread a core).
//!
//! Run with `cargo bench -p tapscope-core --features measure --bench ocr` (Tesseract and
//! PP-OCR's models installed). A read is the whole call: for Tesseract the PNG decoded,
//! its ink made dark on white, Tesseract started, the TSV parsed; for PP-OCR the PNG
//! decoded, the detector run, each box read.

use std::time::Duration;

use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::specimen::{self, Contrast};
use tapscope_core::device::{Capture, Device};
use tapscope_core::ocr::Tesseract;
use tapscope_core::ocr::ppocr::PpOcr;
use tapscope_core::stability::{Clock, VirtualClock};
use tapscope_tests::picture::png;

fn main() {
    divan::main();
}

/// The screens read, by name.
const SCREENS: [&str; 4] = [
    "game title 1024",
    "feed 1024",
    "specimen 32 px 1024",
    "feed 2400",
];

/// The full-size screens a session reads.
const FULL_SIZE: [&str; 2] = ["game title 2400", "feed 2400"];

fn screen(name: &str) -> Vec<u8> {
    match name {
        "game title 1024" => specimen::game_title(1024).expect("the sim draws").png,
        "game title 2400" => specimen::game_title(2400).expect("the sim draws").png,
        "feed 1024" => capture("tv.tapscope.demo", 1024),
        "feed 2400" => capture("tv.tapscope.demo", 2400),
        "specimen 32 px 1024" => {
            let s = specimen::render(0, 32, Contrast::High).expect("the sim draws");
            let img = image::load_from_memory(&s.png).expect("a PNG").into_rgb8();
            png(&image::imageops::thumbnail(&img, 461, 1024))
        }
        _ => unreachable!("{name} is not a screen"),
    }
}

/// `package`'s entry screen, settled, as the sim's screenshot no longer than `side`.
fn capture(package: &str, side: u32) -> Vec<u8> {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch(package).expect("the package is installed");
    clock.sleep(Duration::from_secs(5));
    match sim.capture(side).expect("the sim draws") {
        Capture::Pixels { pixels, .. } => png(&pixels),
        Capture::Png(bytes) => bytes,
    }
}

#[divan::bench(args = SCREENS, sample_count = 10, sample_size = 1)]
fn read(bencher: divan::Bencher, name: &str) {
    let engine = Tesseract::find().unwrap_or_else(|e| panic!("{e}"));
    let png = screen(name);
    bencher.bench_local(|| engine.read(&png, 50.0).expect("Tesseract reads it"));
}

/// The same 1024-px screenshots read at twice their size (`with_upscale_below(1600)`).
#[divan::bench(args = ["game title 1024", "feed 1024"], sample_count = 10, sample_size = 1)]
fn read_doubled(bencher: divan::Bencher, name: &str) {
    let engine = Tesseract::find()
        .unwrap_or_else(|e| panic!("{e}"))
        .with_upscale_below(1600);
    let png = screen(name);
    bencher.bench_local(|| engine.read(&png, 50.0).expect("Tesseract reads it"));
}

/// PP-OCR on one thread of its own.
#[divan::bench(args = FULL_SIZE, sample_count = 10, sample_size = 1)]
fn ppocr_one_core(bencher: divan::Bencher, name: &str) {
    let reader = PpOcr::find()
        .unwrap_or_else(|e| panic!("{e}"))
        .with_threads(1);
    let png = screen(name);
    bencher.bench_local(|| reader.read(&png, 60.0).expect("PP-OCR reads it"));
}

/// PP-OCR on rten's pool, a thread a core, as a session runs it.
#[divan::bench(args = FULL_SIZE, sample_count = 10, sample_size = 1)]
fn ppocr_all_cores(bencher: divan::Bencher, name: &str) {
    let reader = PpOcr::find().unwrap_or_else(|e| panic!("{e}"));
    let png = screen(name);
    bencher.bench_local(|| reader.read(&png, 60.0).expect("PP-OCR reads it"));
}
