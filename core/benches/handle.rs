//! Speed of one tap on a handle: parse it, resolve it against the snapshot, find the tap point.
//!
//! Run with `cargo bench -p tapscope-core --bench handle`. The goal is under 50 µs a call
//! on a ~300-node dump, so the check never shows next to the device's own latency.

use std::hint::black_box;

use tapscope_core::handle::{Handle, resolve, tap_point};
use tapscope_core::parse;
use tapscope_core::prune::{PruneRules, prune_with_version};

#[path = "common/mod.rs"]
mod common;

use common::generated_feed;

fn main() {
    divan::main();
}

/// A floating button over the first card's centre, so the tap point has to move.
const FLOATING_BUTTON: &str = r#"<node content-desc="Compose" class="android.widget.ImageButton" clickable="true" package="app" bounds="[440,250][640,450]"/>"#;

#[divan::bench(sample_count = 1000)]
fn parse_resolve_tap_point(bencher: divan::Bencher) {
    let tree =
        parse::parse_str(&generated_feed(100, FLOATING_BUTTON)).expect("generated feed parses");
    let pruned = prune_with_version(&tree, &PruneRules::default(), "0123456789ab".into());
    // i 1 is the list, i 2 the first card, under the floating button.
    let handle = "0123456789ab_2";
    let card = resolve(&pruned, &handle.parse().expect("handle parses")).expect("resolves");
    let moved = tap_point(&tree, &pruned, card);
    assert_ne!(
        (moved.x, moved.y),
        card.visible.center(),
        "the button moves the tap"
    );
    bencher.bench(|| {
        let handle: Handle = black_box(handle).parse().expect("handle parses");
        let target = resolve(&pruned, &handle).expect("handle resolves");
        tap_point(&tree, &pruned, target)
    });
}
