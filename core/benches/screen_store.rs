//! What storing a session's screens costs the journal's writer thread, per step: a screen
//! seen again (hashed, found, nothing written) and a new one (hashed, counted by a counter
//! that costs nothing here, written), on a 300-card feed of some 120 KB; and the key the
//! journal looks up before asking the device for a screenshot.
//!
//! Run with `cargo bench -p tapscope-core --features recording --bench screen_store`. A
//! screen seen again should cost well under a millisecond, next to a dump's hundreds (some
//! 70 µs here: the SHA-256 of its dump).

use std::hint::black_box;

use tapscope_core::recording::{Durability, Header, RecordingWriter, ScreenStore, SeenScreen};

#[path = "common/mod.rs"]
mod common;

fn main() {
    divan::main();
}

fn store(dir: &std::path::Path) -> ScreenStore {
    let header = Header::new("sim", "0.1.0", "o200k_base", 1_700_000_000_000)
        .with_durability(Durability::None);
    let writer = RecordingWriter::create(&dir.join("rec"), &header).expect("a recording");
    ScreenStore::new(writer, |text| text.len() as u32)
}

#[divan::bench(sample_count = 200)]
fn key_of_a_screen(bencher: divan::Bencher) {
    let dump = common::generated_feed(300, "");
    let pruned = "- i: 1 list scroll\n".repeat(300);
    bencher.bench(|| {
        let seen = SeenScreen::new("0123456789ab", black_box(&dump), &pruned, &[], None);
        seen.expect("hashed").key().clone()
    });
}

#[divan::bench(sample_count = 200)]
fn a_screen_seen_again(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("a folder");
    let mut store = store(dir.path());
    let dump = common::generated_feed(300, "");
    let pruned = "- i: 1 list scroll\n".repeat(300);
    let seen = || SeenScreen::new("0123456789ab", &dump, &pruned, &[], None).expect("hashed");
    store.store(&seen()).expect("stored");
    bencher.bench_local(|| store.store(&seen()).expect("stored"));
}

#[divan::bench(sample_count = 50)]
fn a_new_screen(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("a folder");
    let mut store = store(dir.path());
    let dump = common::generated_feed(300, "");
    let pruned = "- i: 1 list scroll\n".repeat(300);
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        // Another dump each time: a screen the store has not seen, its files written.
        let version = format!("{n:012x}");
        let dump = format!("{dump}<!-- {n} -->");
        let seen = SeenScreen::new(&version, &dump, &pruned, &[], None).expect("hashed");
        store.store(&seen).expect("stored")
    });
}
