//! Long recordings in the workbench: a generated 1,000-step recording opened to its first
//! frame, random far jumps (from `go_to_step` to the next frame laid out), and the resident
//! memory after stepping through every step.
//!
//! Run with `cargo bench -p tapscope --bench recording`. The recording is generated once
//! into a temporary folder (the sim on a virtual clock, ~300 distinct screens with
//! screenshots) and removed at the end. Frames are laid out and tessellated by
//! egui_kittest, without a GPU, which is what the UI thread spends per frame.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use egui_kittest::Harness;
use tapscope::gui::Workbench;
use tapscope::gui::open::{self, Opening};
use tapscope::gui::recording::CACHE_SCREENS;
use tapscope_core::session::synthetic;

const STEPS: usize = 1000;

fn main() {
    let dir = long_recording();
    memory_after_every_step(dir);
    divan::main();
    let _ = std::fs::remove_dir_all(dir);
}

/// The generated recording, written on first use.
fn long_recording() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tapscope-long-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let started = Instant::now();
        let made = synthetic::write(&dir, STEPS, 11).expect("the recording is written");
        println!(
            "generated {} steps in {:.1} s: {} distinct dumps of {}–{} bytes, {} refused, {} \
             errors",
            made.steps,
            started.elapsed().as_secs_f64(),
            made.screens,
            made.dump_bytes.0,
            made.dump_bytes.1,
            made.refused,
            made.errors
        );
        tapscope_core::tokens::Encoding::O200k.count("load the tokenizer tables first");
        dir
    })
}

fn opened(dir: &Path) -> Harness<'static, Workbench> {
    let Ok(Opening::Recording(recording)) = open::load(dir) else {
        panic!("{} opens as a recording", dir.display());
    };
    let mut workbench = Workbench::new();
    workbench.add_recording(recording);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1600.0, 960.0))
        .build_ui_state(|ui, workbench: &mut Workbench| workbench.ui(ui), workbench);
    harness.step();
    harness
}

/// Steps through all 1,000 steps, one frame each, and prints the resident memory.
fn memory_after_every_step(dir: &Path) {
    let before = resident_mb();
    let mut harness = opened(dir);
    let started = Instant::now();
    for index in 0..STEPS {
        harness.state_mut().go_to_step(index);
        harness.step();
    }
    let per_step = started.elapsed().as_secs_f64() * 1000.0 / STEPS as f64;
    let info = &harness.state().step().expect("a step").recording;
    println!(
        "stepped through {STEPS} steps at {per_step:.1} ms a step; resident memory {:.0} MB \
         ({before:.0} MB before opening), {} of at most {CACHE_SCREENS} screens held",
        resident_mb(),
        info.screens_in_memory()
    );
}

/// VmRSS of this process, in megabytes.
fn resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok());
    kb.unwrap_or(0.0) / 1024.0
}

/// Reading the step log, loading the first screen, and laying out the first frame.
#[divan::bench(sample_count = 10)]
fn open_to_first_frame(bencher: divan::Bencher) {
    let dir = long_recording();
    bencher.bench(|| opened(dir));
}

/// A jump far across the recording (its screen rarely cached), then the next frame.
#[divan::bench(sample_count = 200)]
fn jump_to_a_far_step(bencher: divan::Bencher) {
    let mut harness = opened(long_recording());
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    bencher.bench_local(|| {
        // xorshift: a far, unpredictable step each time.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let index = (seed % STEPS as u64) as usize;
        harness.state_mut().go_to_step(index);
        harness.step();
    });
}

/// The next step, its screen loaded ahead by the prefetch thread.
#[divan::bench(sample_count = 200)]
fn next_step(bencher: divan::Bencher) {
    let mut harness = opened(long_recording());
    let mut index = 0;
    bencher.bench_local(|| {
        index = (index + 1) % STEPS;
        harness.state_mut().go_to_step(index);
        harness.step();
    });
}
