//! Speed of parse + prune + render on the largest corpus dumps, and of token counting on its own.
//!
//! Run with `cargo bench -p tapscope-core --bench prune`. Reads ../shared/corpus when it
//! exists; otherwise benchmarks a generated 300-node feed so the bench always runs.

use std::hint::black_box;
use std::path::PathBuf;

use tapscope_core::parse;
use tapscope_core::prune::{PruneRules, prune};
use tapscope_core::render;
use tapscope_core::tokens::Encoding;

#[path = "common/mod.rs"]
mod common;

use common::generated_feed;

fn main() {
    divan::main();
}

fn corpus(name: &str) -> Option<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let bytes = std::fs::read(dir.join(name)).ok()?;
    Some(parse::decode(&bytes).ok()?.into_owned())
}

/// A named dump; divan labels each run with the name.
struct Dump {
    name: &'static str,
    text: String,
}

impl std::fmt::Display for Dump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn inputs() -> Vec<Dump> {
    let mut inputs = vec![Dump {
        name: "generated_feed_100_cards.xml",
        text: generated_feed(100, ""),
    }];
    for name in [
        "avito_search_keyboard.xml",
        "avito_listing_feed.xml",
        "droidbot_chrome_webview_huge.json",
        "rico_nbcsports_huge_list.json",
    ] {
        if let Some(text) = corpus(name) {
            inputs.push(Dump { name, text });
        }
    }
    inputs
}

#[divan::bench(args = inputs(), sample_count = 200)]
fn parse_prune_render(bencher: divan::Bencher, input: &Dump) {
    let rules = PruneRules::default();
    bencher.bench(|| {
        let tree = parse::parse_str(black_box(&input.text)).expect("dump parses");
        render::yaml(&prune(&tree, &rules))
    });
}

#[divan::bench(args = inputs(), sample_count = 50)]
fn count_raw_tokens_o200k(bencher: divan::Bencher, input: &Dump) {
    Encoding::O200k.count("warm up");
    bencher.bench(|| Encoding::O200k.count(black_box(&input.text)));
}
