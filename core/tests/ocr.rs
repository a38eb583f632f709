//! The real Tesseract (CI installs it; these tests fail, not skip, without it): bad input
//! read without an error or a panic, and the goals on the sim's generated specimens.

use image::{ImageEncoder, Rgb, RgbImage};
use tapscope_core::ocr::{MAX_PIXELS, OcrError, Tesseract};

/// The engine, or a failure that says how to install it.
fn engine() -> Tesseract {
    Tesseract::find().unwrap_or_else(|e| panic!("these tests read pixels with Tesseract: {e}"))
}

fn png(img: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("an image encodes in memory");
    bytes
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
    // A header claiming 20,000 × 20,000: refused before anything is decoded.
    let mut claim = png(&RgbImage::new(4, 4));
    claim[16..24].copy_from_slice(&[0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20]);
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
