//! The reader's own logic without models (a line from what was decoded), and models that
//! are not models refused with what to do.

use super::models::{DETECTOR, ModelFiles, RECOGNIZER};
use super::recognize::{Decoded, Spoken};
use super::*;

fn spoken(text: &str, confidence: f32, first_step: usize, last_step: usize) -> Spoken {
    Spoken {
        text: text.into(),
        confidence,
        first_step,
        last_step,
    }
}

fn decoded(words: Vec<Spoken>) -> Decoded {
    Decoded {
        text: words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        confidence: 0.9,
        words,
    }
}

#[test]
fn words_are_boxed_by_their_steps_and_the_unsure_and_texture_dropped() {
    // A 400-px crop read in 40 steps: 10 px a step.
    let bounds = Rect::new(100, 50, 500, 100);
    let read = decoded(vec![
        spoken("Network", 0.99, 0, 13),
        spoken("&", 0.99, 15, 15),
        spoken("internet", 0.97, 17, 30),
        spoken("eee", 0.99, 32, 34),
        spoken("xq", 0.40, 36, 38),
    ]);
    let line = line_of(&read, 40, bounds, 60.0).unwrap();
    assert_eq!(line.text, "Network internet");
    assert_eq!(line.bounds, bounds);
    // Steps 0..=13 and 17..=30, half a step more on each side, within the line.
    assert_eq!(line.words[0].bounds, Rect::new(100, 50, 245, 100));
    assert_eq!(line.words[1].bounds, Rect::new(265, 50, 415, 100));
    assert!((line.confidence - 97.0).abs() < 1e-3);
}

#[test]
fn chinese_words_join_without_spaces_and_a_lone_unsure_character_is_no_line() {
    let bounds = Rect::new(0, 0, 200, 48);
    let read = decoded(vec![
        spoken("新建", 0.98, 0, 5),
        spoken("闹钟", 0.96, 7, 11),
    ]);
    assert_eq!(line_of(&read, 25, bounds, 60.0).unwrap().text, "新建闹钟");
    assert!(line_of(&decoded(vec![spoken("Y", 0.90, 3, 3)]), 25, bounds, 60.0).is_none());
    assert!(line_of(&decoded(vec![spoken("4", 0.97, 3, 3)]), 25, bounds, 60.0).is_some());
    assert!(line_of(&decoded(Vec::new()), 25, bounds, 60.0).is_none());
}

#[test]
fn files_that_are_not_models_are_refused_saying_how_to_reinstall() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(DETECTOR), b"not a model").unwrap();
    let mut truncated = b"\x08\x07\x12\x04".to_vec();
    truncated.extend(std::iter::repeat_n(0xFFu8, 300));
    std::fs::write(dir.path().join(RECOGNIZER), &truncated).unwrap();
    let files = ModelFiles::in_dir(dir.path()).unwrap();
    let err = PpOcr::load(files).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, OcrError::BadModel { .. }), "{message}");
    assert!(
        message.contains(DETECTOR) && message.contains("--force-reinstall"),
        "{message}"
    );
}
