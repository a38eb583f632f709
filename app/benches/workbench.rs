//! Workbench speed: opening the largest corpus XML to its first frame, and re-pruning plus
//! repainting after a rule change on a ~300-node dump.
//!
//! Run with `cargo bench -p tapscope --bench workbench`. Reads ../shared/corpus when it
//! exists, else the shipped sample. Frames are laid out and tessellated by egui_kittest,
//! without a GPU, which is what the UI thread spends per frame.

use std::hint::black_box;

use egui_kittest::Harness;
use tapscope::gui::Workbench;
use tapscope::gui::document::Document;

fn main() {
    divan::main();
}

/// The largest XML dump of the corpus (323 nodes), or the shipped sample without the corpus.
fn largest_xml() -> (String, Vec<u8>) {
    let corpus = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/avito_search_keyboard.xml"
    );
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/samples/video_feed.xml"
    );
    let path = if std::path::Path::new(corpus).exists() {
        corpus
    } else {
        sample
    };
    (path.to_owned(), std::fs::read(path).expect("dump readable"))
}

fn harness(workbench: Workbench) -> Harness<'static, Workbench> {
    Harness::builder()
        .with_size(egui::vec2(1600.0, 960.0))
        .build_ui_state(|ui, workbench: &mut Workbench| workbench.ui(ui), workbench)
}

/// Reading, parsing, measuring and pruning the dump, then laying out the first frame.
#[divan::bench(sample_count = 20)]
fn open_largest_xml_to_first_frame(bencher: divan::Bencher) {
    let (path, bytes) = largest_xml();
    tapscope_core::tokens::Encoding::O200k.count("load the tokenizer tables first");
    tapscope_core::tokens::Encoding::Cl100k.count("load the tokenizer tables first");
    bencher.bench(|| {
        let document =
            Document::from_bytes(path.clone(), None, black_box(&bytes), None).expect("opens");
        let mut workbench = Workbench::new();
        workbench.add_documents(vec![document]);
        let mut harness = harness(workbench);
        harness.step();
        harness
    });
}

/// Switching one rule: re-prune, re-measure, re-diff, and lay out the next frame.
#[divan::bench(sample_count = 100)]
fn rule_change_to_next_frame(bencher: divan::Bencher) {
    let (path, bytes) = largest_xml();
    let document = Document::from_bytes(path, None, &bytes, None).expect("opens");
    let mut workbench = Workbench::new();
    workbench.add_documents(vec![document]);
    let mut harness = harness(workbench);
    harness.run_steps(3);
    bencher.bench_local(|| {
        let rules = &mut harness.state_mut().settings.rules;
        rules.anchors = !rules.anchors;
        harness.step();
    });
}
