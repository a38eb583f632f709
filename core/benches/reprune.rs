//! A whole recording re-pruned: the generated 1,000-step recording read and every distinct
//! screen re-pruned, under the defaults and with the keyboard collapsed (which also finds
//! the lost keys and the taps on them). The goal is under 2 s on one core.
//!
//! Run with `cargo bench -p tapscope-core --features synthetic --bench reprune`. The
//! recording is generated once into a temporary folder before anything is timed (the sim
//! on a virtual clock) and removed at the end.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use tapscope_core::prune::{KeyboardMode, PruneRules};
use tapscope_core::recording;
use tapscope_core::reprune::reprune;
use tapscope_core::session::synthetic;
use tapscope_core::tokens::Encoding;

const STEPS: usize = 1000;

fn main() {
    let dir = long_recording();
    divan::main();
    let _ = std::fs::remove_dir_all(dir);
}

/// The generated recording, written on first use.
fn long_recording() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tapscope-reprune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let started = Instant::now();
        let made = synthetic::write(&dir, STEPS, 11).expect("the recording is written");
        println!(
            "generated {} steps in {:.1} s: {} distinct dumps of {}–{} bytes",
            made.steps,
            started.elapsed().as_secs_f64(),
            made.screens,
            made.dump_bytes.0,
            made.dump_bytes.1,
        );
        Encoding::O200k.count("load the tokenizer tables first");
        let collapsed = read_and_reprune(&dir, &collapse());
        let totals = collapsed.totals();
        println!(
            "with the keyboard collapsed: {} screens, {}, {} nodes lost on {} steps, {} \
             targets lost",
            totals.screens,
            totals.tokens,
            totals.lost_nodes,
            totals.steps_with_lost_nodes,
            totals.lost_targets
        );
        dir
    })
}

fn collapse() -> PruneRules {
    PruneRules {
        keyboard: KeyboardMode::Collapse,
        ..PruneRules::default()
    }
}

fn read_and_reprune(dir: &Path, rules: &PruneRules) -> tapscope_core::reprune::Reprune {
    let recording = recording::read(dir).expect("the recording reads");
    reprune(&recording, rules).expect("the recording re-prunes")
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn default_rules(bencher: divan::Bencher) {
    let dir = long_recording();
    let rules = PruneRules::default();
    bencher.bench(|| read_and_reprune(dir, &rules));
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn keyboard_collapsed(bencher: divan::Bencher) {
    let dir = long_recording();
    let rules = collapse();
    bencher.bench(|| read_and_reprune(dir, &rules));
}
