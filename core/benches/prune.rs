//! Speed of parse + prune + render on the largest corpus dumps and on screens of tens of
//! thousands of windows, and of token counting on its own, down to 20 MB texts and a
//! million spaces.
//!
//! Run with `cargo bench -p tapscope-core --bench prune`. Reads ../shared/corpus when it
//! exists; the generated inputs always run.

use std::hint::black_box;
use std::path::PathBuf;

use tapscope_core::parse;
use tapscope_core::prune::{PruneRules, prune};
use tapscope_core::render;
use tapscope_core::tokens::Encoding;
use tapscope_tests::dumps::{droidbot_root_views, many_windows_xml};

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

fn parse_prune_render_once(text: &str) -> String {
    let tree = parse::parse_str(text).expect("dump parses");
    render::yaml(&prune(&tree, &PruneRules::default()))
}

#[divan::bench(args = inputs(), sample_count = 200)]
fn parse_prune_render(bencher: divan::Bencher, input: &Dump) {
    bencher.bench(|| parse_prune_render_once(black_box(&input.text)));
}

/// Every top-level node of uiautomator (and every root view of droidbot) is a window, and
/// every node is asked whether a window above covers it.
fn many_windows() -> Vec<Dump> {
    vec![
        Dump {
            name: "generated_70000_top_level_nodes.xml",
            text: many_windows_xml(70_000),
        },
        Dump {
            name: "generated_droidbot_80000_root_views.json",
            text: droidbot_root_views(80_000),
        },
    ]
}

#[divan::bench(args = many_windows(), sample_count = 10)]
fn parse_prune_render_many_windows(bencher: divan::Bencher, input: &Dump) {
    bencher.bench(|| parse_prune_render_once(black_box(&input.text)));
}

#[divan::bench(args = inputs(), sample_count = 50)]
fn count_raw_tokens_o200k(bencher: divan::Bencher, input: &Dump) {
    Encoding::O200k.count("warm up");
    bencher.bench(|| Encoding::O200k.count(black_box(&input.text)));
}

/// The text as long as `bytes`, repeated (ASCII only, so any cut is a char boundary).
fn repeated_to(unit: &str, bytes: usize) -> String {
    let mut text = unit.repeat(bytes / unit.len() + 1);
    text.truncate(bytes);
    text
}

/// Texts the tokenizer alone was slow on or broke on.
fn huge_texts() -> Vec<Dump> {
    vec![
        Dump {
            name: "a_million_spaces_after_a_node",
            text: format!("<node/>{}", " ".repeat(999_999)),
        },
        Dump {
            name: "20_mb_of_feed_dumps",
            text: repeated_to(&generated_feed(100, ""), 20_000_000),
        },
        Dump {
            name: "20_mb_of_lines_indented_100_spaces",
            text: repeated_to(&format!("\n{}<node/>", " ".repeat(100)), 20_000_000),
        },
    ]
}

#[divan::bench(args = huge_texts(), sample_count = 10)]
fn count_tokens_o200k_huge(bencher: divan::Bencher, input: &Dump) {
    Encoding::O200k.count(" ".repeat(100).as_str());
    bencher.bench(|| Encoding::O200k.count(black_box(&input.text)));
}
