//! PP-OCR's real models (`.ci/run` installs them from PyPI; these tests fail, not skip,
//! without them, saying how to install them): the goals on the sim's specimens and its
//! game, and bad input read without junk, a panic or a wait past the ceiling.

use std::time::Duration;

use image::{Rgb, RgbImage};
use tapscope_core::device::sim::specimen::{self, Contrast};
use tapscope_core::ocr::ppocr::PpOcr;
use tapscope_core::ocr::score::meets_goals;
use tapscope_core::ocr::{OcrError, TextLine};
use tapscope_tests::picture::png as encode;

/// The models, or a failure that says how to install them.
fn reader() -> PpOcr {
    PpOcr::find()
        .unwrap_or_else(|e| panic!("these tests read pixels with PP-OCR's models: {e}"))
        // Tests share the machine's cores: a ceiling for a loaded machine, not a goal.
        .with_timeout(Duration::from_secs(60))
}

/// A session's floor (the default rules' `ocr_min_confidence`).
fn floor() -> f32 {
    f32::from(tapscope_core::prune::PruneRules::default().ocr_min_confidence)
}

fn texts(lines: &[TextLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

#[test]
fn specimens_of_24_px_and_up_are_read_to_the_goals_at_every_contrast() {
    // Dense pages (hundreds of lines).
    let reader = reader().with_timeout(Duration::from_secs(300));
    for px in [24, 32, 48] {
        for contrast in Contrast::ALL {
            let s = specimen::render(11, px, contrast).unwrap();
            let lines = reader.read(&s.png, 50.0).unwrap();
            let what = format!("{px} px, {contrast:?} contrast");
            meets_goals(&what, &s.words, &lines).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

#[test]
fn the_games_title_screen_is_read_whole_at_full_size_and_at_the_fallbacks() {
    let reader = reader();
    // Every word, the status bar's small battery figure too.
    let full = specimen::game_title(2400).unwrap();
    let lines = reader.read(&full.png, floor()).unwrap();
    meets_goals("the game's title at 1080×2400", &full.words, &lines)
        .unwrap_or_else(|e| panic!("{e}"));
    let small = specimen::game_title(1024).unwrap();
    let lines = reader.read(&small.png, floor()).unwrap();
    let read = texts(&lines);
    for wanted in ["Blocks", "Score 0", "Play", "Settings"] {
        assert!(read.contains(&wanted), "{wanted} not in {read:?}");
    }
}

#[test]
fn blank_screens_and_noise_are_no_lines() {
    let reader = reader();
    for colour in [[255, 255, 255], [0, 0, 0], [30, 30, 36]] {
        let screen = encode(&RgbImage::from_pixel(1080, 2400, Rgb(colour)));
        assert!(reader.read(&screen, 0.0).unwrap().is_empty(), "{colour:?}");
    }
    let mut rng = fastrand::Rng::with_seed(7);
    let grey_noise = RgbImage::from_fn(1080, 2400, |_, _| {
        let v = rng.u8(..);
        Rgb([v, v, v])
    });
    let colour_noise =
        RgbImage::from_fn(1080, 2400, |_, _| Rgb([rng.u8(..), rng.u8(..), rng.u8(..)]));
    for noise in [grey_noise, colour_noise] {
        let lines = reader.read(&encode(&noise), floor()).unwrap();
        assert!(lines.is_empty(), "{:?}", texts(&lines));
    }
}

#[test]
fn a_4000_px_square_of_noise_is_read_within_the_ceiling() {
    let reader = reader();
    let mut rng = fastrand::Rng::with_seed(4000);
    let noise = RgbImage::from_fn(4000, 4000, |_, _| Rgb([rng.u8(..), rng.u8(..), rng.u8(..)]));
    // The detector's input is bounded whatever the image: its read is not cut short.
    let lines = reader.read(&encode(&noise), floor()).unwrap();
    assert!(lines.is_empty(), "{:?}", texts(&lines));
}

#[test]
fn broken_pngs_are_refused_and_odd_shapes_read_without_a_panic() {
    let reader = reader();
    let screen = encode(&RgbImage::from_pixel(461, 1024, Rgb([200, 100, 50])));
    for broken in [
        &screen[..screen.len() / 2],
        b"",
        b"not an image at all, but long enough",
    ] {
        assert!(matches!(
            reader.read(broken, 0.0),
            Err(OcrError::NotPng { .. })
        ));
    }
    // One pixel, a thin line, a long strip: no box the recognizer cannot take.
    for (w, h) in [(1, 1), (3000, 2), (2, 3000), (40, 40)] {
        let img = RgbImage::from_fn(w, h, |x, _| Rgb(if x % 7 < 3 { [0; 3] } else { [255; 3] }));
        reader.read(&encode(&img), 0.0).unwrap();
    }
}

#[test]
fn a_read_past_its_ceiling_stops_with_a_timeout() {
    let reader = reader().with_timeout(Duration::ZERO);
    let s = specimen::render(3, 32, Contrast::High).unwrap();
    match reader.read(&s.png, floor()) {
        Err(e @ OcrError::TimedOut { .. }) => assert!(e.to_string().contains("ceiling"), "{e}"),
        other => panic!("{other:?}"),
    }
}
