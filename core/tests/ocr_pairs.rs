//! Tesseract on real phone screenshots: the pairs of ../shared/pairs (a dump and the
//! screenshot taken with it, `MANIFEST.tsv` says where each is from), read at full
//! resolution in English and scored against the dump's visible texts, must not do worse
//! than they did when this test was written. The evaluation is
//! `tapscope_core::ocr::score::evaluate`'s (`--example ocr -- --pairs DIR` prints it).
//!
//! Without the pairs it checks nothing and says so on standard error; without Tesseract
//! it fails.

use std::path::PathBuf;
use std::time::Duration;

use tapscope_core::ocr::Tesseract;
use tapscope_core::prune::{OcrLanguages, PruneRules};
use tapscope_tests::shared::shared_dir;

use tapscope_core::ocr::score::evaluate;

/// The floor a session reads at (the default rules' `ocr_min_confidence`).
fn floor() -> f32 {
    f32::from(PruneRules::default().ocr_min_confidence)
}

/// Measured (Tesseract 5.3.0, languages `auto` as a session picks them, `--psm 11`, floor
/// 60 as a session reads, the 7 pairs): 67 of 89 texts recalled (75.3 %), 37 of 132 lines
/// junk (28.0 %). Before languages were chosen from the dump and texture was filtered out,
/// English alone at floor 50 read 52.8 % with 54.4 % junk. The figures by pair are in
/// docs/ocr.md ("Real screenshots").
const RECALL: f64 = 67.0 / 89.0;
const JUNK_SHARE: f64 = 37.0 / 132.0;
/// What a Tesseract version or a loaded machine may move the figures by.
const MARGIN: f64 = 0.05;

fn pairs_dir() -> Option<PathBuf> {
    // Real screenshots with the dumps taken with them.
    shared_dir("pairs", "the OCR pairs test")
}

#[test]
fn real_screenshots_are_read_no_worse_than_when_measured() {
    // Tesseract first: without it this fails, pairs or not.
    let engine = Tesseract::find()
        .unwrap_or_else(|e| panic!("this test reads pixels with Tesseract: {e}"))
        // Full-resolution screenshots (1440×3200 the largest) on a loaded machine: a
        // ceiling, not a goal.
        .with_timeout(Duration::from_secs(60));
    let Some(dir) = pairs_dir() else { return };
    assert!(
        engine.installed().iter().any(|l| l == "chi_sim"),
        "the pairs hold Chinese screens, read in `chi_sim`: apt-get install \
         tesseract-ocr-chi-sim (.ci/run does)"
    );
    let measured = evaluate::measure_all(
        &dir,
        &evaluate::tesseract_for(&engine, &OcrLanguages::Auto),
        floor(),
    )
    .unwrap();
    let (total, _) = evaluate::total(&measured);
    let report = format!(
        "recall {:.1} % (at least {:.1} %), junk {:.1} % (at most {:.1} %)\n{}\n{}",
        total.recall() * 100.0,
        (RECALL - MARGIN) * 100.0,
        total.junk_share() * 100.0,
        (JUNK_SHARE + MARGIN) * 100.0,
        evaluate::table(&measured),
        evaluate::misses(&measured),
    );
    assert!(
        measured.len() >= 7,
        "{} pairs in {}",
        measured.len(),
        dir.display()
    );
    assert!(total.texts >= 50, "{report}");
    assert!(total.recall() >= RECALL - MARGIN, "{report}");
    assert!(total.junk_share() <= JUNK_SHARE + MARGIN, "{report}");
}
