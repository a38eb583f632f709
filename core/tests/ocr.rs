//! The real Tesseract (CI installs it; these tests fail, not skip, without it): bad input
//! read without an error or a panic, and the goals on the sim's generated specimens.

use std::time::Duration;

use image::{Rgb, RgbImage};
use tapscope_core::device::sim::specimen::{self, Contrast, Specimen};
use tapscope_core::ocr::score::meets_goals;
use tapscope_core::ocr::{MAX_PIXELS, OcrError, Tesseract, TextLine};
use tapscope_tests::picture::png;

/// The engine, or a failure that says how to install it.
fn engine() -> Tesseract {
    Tesseract::find().unwrap_or_else(|e| panic!("these tests read pixels with Tesseract: {e}"))
}

#[test]
fn blank_and_black_screens_are_no_lines() {
    let engine = engine();
    for colour in [[255, 255, 255], [0, 0, 0], [250, 250, 250], [30, 30, 36]] {
        let screen = png(&RgbImage::from_pixel(461, 1024, Rgb(colour)));
        let lines = engine.read(&screen, 0.0).unwrap();
        assert!(lines.is_empty(), "{colour:?}: {lines:?}");
    }
}

#[test]
fn noise_is_texture_read_in_time_and_the_floor_keeps_little_of_it() {
    let mut rng = fastrand::Rng::with_seed(15);
    let noise = RgbImage::from_fn(461, 1024, |_, _| {
        let v = rng.u8(..);
        Rgb([v, v, v])
    });
    let lines = engine().read(&png(&noise), 90.0).unwrap();
    let words: usize = lines.iter().map(|l| l.words.len()).sum();
    assert!(words < 10, "{lines:?}");
    for line in &lines {
        assert!(
            line.words
                .iter()
                .all(|w| w.confidence >= 90.0 && !w.text.trim().is_empty())
        );
    }
}

#[test]
fn full_size_noise_read_at_a_sessions_floor_is_no_line() {
    let mut rng = fastrand::Rng::with_seed(7);
    let noise = RgbImage::from_fn(1080, 2400, |_, _| {
        let v = rng.u8(..);
        Rgb([v, v, v])
    });
    let floor = f32::from(tapscope_core::prune::PruneRules::default().ocr_min_confidence);
    let lines = engine().read(&png(&noise), floor).unwrap();
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn a_cut_png_and_junk_are_refused_before_tesseract_runs() {
    let engine = engine();
    let screen = png(&RgbImage::from_pixel(461, 1024, Rgb([200, 100, 50])));
    match engine.read(&screen[..screen.len() / 2], 0.0) {
        Err(e @ OcrError::NotPng { .. }) => assert!(e.to_string().contains("end of file"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        engine.read(b"", 0.0),
        Err(OcrError::NotPng { .. })
    ));
    assert!(matches!(
        engine.read(b"not an image at all, but long enough", 0.0),
        Err(OcrError::NotPng { .. })
    ));
}

#[test]
fn a_huge_image_is_refused_and_a_long_one_scaled_down() {
    let engine = engine();
    // A header claiming 20,000 × 20,000 (its checksum made to match): refused before
    // anything is decoded.
    let mut claim = png(&RgbImage::new(4, 4));
    claim[16..24].copy_from_slice(&[0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20]);
    let crc = crc32fast::hash(&claim[12..29]);
    claim[29..33].copy_from_slice(&crc.to_be_bytes());
    match engine.read(&claim, 0.0) {
        Err(e @ OcrError::TooLarge { .. }) => {
            assert!(e.to_string().contains(&MAX_PIXELS.to_string()), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // 2,000 × 9,000 (longer than any phone): scaled to 910 × 4,096, read in the ceiling.
    let long = png(&RgbImage::from_pixel(2000, 9000, Rgb([250, 250, 250])));
    assert!(engine.read(&long, 0.0).unwrap().is_empty());
}

/// The floor the goals are measured at (the numbers in docs/ocr.md).
const FLOOR: f32 = 50.0;

/// Recall and precision of 95 % or more and a median box error of 4 px or less.
fn assert_goals(what: &str, s: &Specimen, lines: &[TextLine]) {
    if let Err(failed) = meets_goals(what, &s.words, lines) {
        panic!("{failed}");
    }
}

#[test]
fn specimens_of_24_px_and_up_are_read_to_the_goals_at_every_contrast() {
    // Dense pages (hundreds of words): a ceiling for a loaded machine, not a goal.
    let engine = engine().with_timeout(Duration::from_secs(60));
    for px in [24, 32, 48] {
        for contrast in Contrast::ALL {
            let s = specimen::render(11, px, contrast).unwrap();
            let lines = engine.read(&s.png, FLOOR).unwrap();
            assert_goals(&format!("{px} px, {contrast:?} contrast"), &s, &lines);
        }
    }
}

#[test]
fn the_games_title_screen_is_read_whole_at_full_size_and_its_buttons_at_the_fallbacks() {
    let engine = engine();
    let mut full = specimen::game_title(2400).unwrap();
    // The goals are for text of 24 px and up: the status bar's battery figure is smaller.
    full.words.retain(|(_, r)| r.bottom - r.top >= 24);
    assert_goals(
        "the game's title at 1080×2400",
        &full,
        &engine.read(&full.png, FLOOR).unwrap(),
    );
    // At the fallback's 461×1024 the title, score and buttons, in reading order.
    let small = specimen::game_title(1024).unwrap();
    let lines = engine.read(&small.png, FLOOR).unwrap();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let wanted = ["Blocks", "Score 0", "Play", "Settings"];
    let found: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| wanted.contains(t))
        .collect();
    assert_eq!(found, wanted, "read {texts:?}");
}
