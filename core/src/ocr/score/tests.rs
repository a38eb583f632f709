use super::*;
use crate::ocr::Word;

fn line(words: &[(&str, Rect)]) -> TextLine {
    let words: Vec<Word> = words
        .iter()
        .map(|(t, b)| Word {
            text: (*t).into(),
            confidence: 90.0,
            bounds: *b,
        })
        .collect();
    TextLine {
        text: String::new(),
        confidence: 90.0,
        bounds: Rect::default(),
        words,
    }
}

#[test]
fn a_word_counts_with_its_text_and_an_overlapping_box() {
    let known = vec![
        ("Play".to_string(), Rect::new(10, 10, 50, 30)),
        ("Scores".to_string(), Rect::new(10, 40, 70, 60)),
        ("Quit".to_string(), Rect::new(10, 70, 50, 90)),
    ];
    let lines = [
        line(&[("Play!", Rect::new(12, 11, 51, 30))]), // punctuation trimmed
        line(&[("scores", Rect::new(10, 40, 70, 60))]), // wrong case
        line(&[("Quit", Rect::new(200, 70, 240, 90))]), // far from its box
        line(&[("Quit", Rect::new(11, 70, 49, 91))]),
    ];
    let s = score(&known, &lines);
    assert_eq!((s.known, s.read, s.matched), (3, 4, 2));
    assert_eq!(s.recall(), 2.0 / 3.0);
    assert_eq!(s.precision(), 0.5);
    assert_eq!(s.box_errors, [1.0, 0.75]);
    assert_eq!(s.median_box_error(), Some(0.875));
}

#[test]
fn a_known_word_is_matched_once_to_its_closest_read() {
    let known = vec![("Go".to_string(), Rect::new(0, 0, 20, 10))];
    let lines = [line(&[
        ("Go", Rect::new(5, 0, 25, 10)),
        ("Go", Rect::new(0, 0, 21, 10)),
    ])];
    let s = score(&known, &lines);
    assert_eq!((s.matched, s.read), (1, 2));
    assert_eq!(s.box_errors, [0.25]);
}

#[test]
fn nothing_drawn_or_read_is_perfect_and_has_no_box_error() {
    let s = score(&[], &[]);
    assert_eq!(
        (s.recall(), s.precision(), s.median_box_error()),
        (1.0, 1.0, None)
    );
    let mut total = Score::default();
    total.add(&score(&[("A".into(), Rect::new(0, 0, 9, 9))], &[]));
    assert_eq!(total.recall(), 0.0);
    assert_eq!(trim_punctuation(" «Off» "), "Off");
    assert_eq!(trim_punctuation("10:42"), "10:42");
}
