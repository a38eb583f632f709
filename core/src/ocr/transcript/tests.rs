//! The transcript on pictures made here: lines grouped as drawn, a read of the filed
//! picture alone, the oldest forgotten past [`KEPT`], bad bytes refused.

use image::Rgb;

use super::*;

fn png(img: &RgbImage) -> Vec<u8> {
    crate::png::encode_fast(img).expect("an image encodes in memory")
}

fn word(text: &str, left: i32, top: i32, right: i32, bottom: i32) -> (String, Rect) {
    (text.to_owned(), Rect::new(left, top, right, bottom))
}

/// A settings screen's words as a sim draws them: x-height and cap-height boxes on one
/// row, a label far right on the same row, a wrapped second line, a rule's dash, and the
/// status bar's clock drawn last.
fn settings() -> Vec<(String, Rect)> {
    vec![
        word("Wi-Fi", 20, 108, 57, 120),
        word("Connected", 69, 108, 153, 120),
        word("to", 159, 110, 174, 120),
        word("Home", 181, 108, 227, 120),
        word("Off", 361, 108, 385, 120),
        word("Battery", 21, 210, 72, 223),
        word("saver", 78, 210, 115, 223),
        word("turns", 21, 232, 58, 245),
        word("on", 64, 235, 80, 245),
        word("—", 100, 300, 140, 302),
        word("82%", 21, 320, 60, 333),
        // The status bar, drawn last, at the top.
        word("12:45", 30, 10, 80, 24),
    ]
}

fn texts(lines: &[TextLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

#[test]
fn words_drawn_along_a_row_are_a_line_and_a_gap_or_a_new_row_starts_another() {
    let lines = lines_of(&settings());
    assert_eq!(
        texts(&lines),
        [
            "12:45",
            "Wi-Fi Connected to Home",
            "Off",
            "Battery saver",
            "turns on",
            "82%"
        ]
    );
    assert_eq!(lines[1].bounds, Rect::new(20, 108, 227, 120));
    assert_eq!(lines[1].words.len(), 4);
    assert!(
        lines
            .iter()
            .flat_map(|l| &l.words)
            .all(|w| w.confidence == KNOWN)
    );
    assert!(lines_of(&[]).is_empty());
}

#[test]
fn a_filed_picture_reads_back_its_lines_and_another_is_untranscribed() {
    let transcript = Transcript::new();
    let drawn = RgbImage::from_pixel(461, 1024, Rgb([250, 250, 250]));
    transcript.file(&drawn, &settings());
    let lines = transcript.read(&png(&drawn), 60.0).unwrap();
    assert_eq!(lines, lines_of(&settings()));
    // A clone shares what was filed: the reader a session holds sees the sim's filings.
    assert_eq!(transcript.clone().read(&png(&drawn), 0.0).unwrap(), lines);
    // A floor over 100 keeps nothing, as with Tesseract.
    assert!(transcript.read(&png(&drawn), 100.5).unwrap().is_empty());

    let mut other = drawn.clone();
    other.put_pixel(5, 5, Rgb([0, 0, 0]));
    match transcript.read(&png(&other), 0.0) {
        Err(e @ OcrError::Untranscribed { .. }) => {
            assert!(e.to_string().contains("461×1024"), "{e}");
        }
        got => panic!("{got:?}"),
    }
    assert!(matches!(
        transcript.read(b"not a picture", 0.0),
        Err(OcrError::NotPng { .. })
    ));
}

#[test]
fn the_last_pictures_filed_are_kept_and_the_oldest_forgotten() {
    let transcript = Transcript::new();
    let picture = |n: u8| RgbImage::from_pixel(8, 8, Rgb([n, n, n]));
    for n in 0..=KEPT as u8 {
        let label = format!("Picture {n}");
        transcript.file(&picture(n), &[word(&label, 0, 0, 6, 6)]);
    }
    assert!(matches!(
        transcript.read(&png(&picture(0)), 0.0),
        Err(OcrError::Untranscribed { .. })
    ));
    let last = transcript.read(&png(&picture(KEPT as u8)), 0.0).unwrap();
    assert_eq!(texts(&last), [format!("Picture {KEPT}")]);
    let second = transcript.read(&png(&picture(1)), 0.0).unwrap();
    assert_eq!(texts(&second), ["Picture 1"]);
    // The same picture filed again is filed once, with its latest words.
    transcript.file(&picture(1), &[word("Again", 0, 0, 6, 6)]);
    let again = transcript.read(&png(&picture(1)), 0.0).unwrap();
    assert_eq!(texts(&again), ["Again"]);
    assert_eq!(transcript.filed.lock().len(), KEPT);
}
