//! How well a read matches what was drawn: word recall, precision and box error against
//! known words at known boxes (the sim's specimens draw them).
//!
//! A read word counts when its text equals a known word's, case-sensitive, once both are
//! trimmed of punctuation at either end, and its box overlaps the known box; each known
//! word is matched at most once, to the overlapping read word of that text whose box is
//! closest. A box's error is the mean absolute difference of its four edges, in pixels.
//!
//! A real screenshot has no list of drawn words: [`score_against_dump`] scores a read of
//! it against the text nodes of the dump taken with it ([`visible_texts`]; the rule is on
//! that function).

pub mod evaluate;
mod pairs;
pub mod words;

pub use pairs::{
    Pair, PairScore, SIMILAR, normalize, pairs_in, score_against_dump, similarity,
    visible_descriptions, visible_texts,
};

use super::TextLine;
use crate::model::Rect;

/// Counts over one or more images.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// Words drawn.
    pub known: usize,
    /// Words read (every word of every line given).
    pub read: usize,
    /// Read words that matched a drawn one.
    pub matched: usize,
    /// The box error of each match, in pixels.
    pub box_errors: Vec<f64>,
}

impl Score {
    /// Matched over drawn; 1 when nothing was drawn.
    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.known)
    }

    /// Matched over read; 1 when nothing was read.
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.read)
    }

    /// The median box error of the matches; `None` without one.
    pub fn median_box_error(&self) -> Option<f64> {
        let mut errors = self.box_errors.clone();
        if errors.is_empty() {
            return None;
        }
        errors.sort_by(f64::total_cmp);
        let mid = errors.len() / 2;
        Some(if errors.len() % 2 == 1 {
            errors[mid]
        } else {
            (errors[mid - 1] + errors[mid]) / 2.0
        })
    }

    /// Both scores' counts together.
    pub fn add(&mut self, other: &Score) {
        self.known += other.known;
        self.read += other.read;
        self.matched += other.matched;
        self.box_errors.extend_from_slice(&other.box_errors);
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// `lines` read from an image on which `known` words were drawn at their boxes.
pub fn score(known: &[(String, Rect)], lines: &[TextLine]) -> Score {
    let read: Vec<(&str, Rect)> = lines
        .iter()
        .flat_map(|l| &l.words)
        .map(|w| (trim_punctuation(&w.text), w.bounds))
        .collect();
    let mut taken = vec![false; read.len()];
    let mut out = Score {
        known: known.len(),
        read: read.len(),
        ..Score::default()
    };
    for (text, bounds) in known {
        let text = trim_punctuation(text);
        let best = read
            .iter()
            .enumerate()
            .filter(|&(i, (t, b))| !taken[i] && *t == text && !b.intersect(bounds).is_empty())
            .map(|(i, (_, b))| (i, box_error(*b, *bounds)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, error)) = best {
            taken[i] = true;
            out.matched += 1;
            out.box_errors.push(error);
        }
    }
    out
}

/// The goals for text of 24 px and up: recall and precision of 95 % or more and a median
/// box error of 4 px or less. What was missed, when they are not met, is the error.
pub fn meets_goals(what: &str, known: &[(String, Rect)], lines: &[TextLine]) -> Result<(), String> {
    let got = score(known, lines);
    let error = got.median_box_error().unwrap_or(f64::INFINITY);
    if got.recall() >= 0.95 && got.precision() >= 0.95 && error <= 4.0 {
        return Ok(());
    }
    let missed: Vec<String> = known
        .iter()
        .filter(|(t, r)| {
            !lines.iter().flat_map(|l| &l.words).any(|w| {
                trim_punctuation(&w.text) == trim_punctuation(t)
                    && !w.bounds.intersect(r).is_empty()
            })
        })
        .map(|(t, r)| format!("{t} {r}"))
        .collect();
    Err(format!(
        "{what}: recall {:.1} %, precision {:.1} %, median box error {error:.1} px \
         ({} drawn, {} read); missed: {missed:?}",
        got.recall() * 100.0,
        got.precision() * 100.0,
        got.known,
        got.read,
    ))
}

/// The mean absolute difference of the four edges of `a` and `b`, in pixels.
pub fn box_error(a: Rect, b: Rect) -> f64 {
    let d = |x: i32, y: i32| (f64::from(x) - f64::from(y)).abs();
    (d(a.left, b.left) + d(a.top, b.top) + d(a.right, b.right) + d(a.bottom, b.bottom)) / 4.0
}

/// `text` without punctuation at either end (`"Play!"` → `Play`, `«Off»` → `Off`).
pub fn trim_punctuation(text: &str) -> &str {
    text.trim()
        .trim_matches(|c: char| c.is_ascii_punctuation() || is_unicode_punctuation(c))
}

fn is_unicode_punctuation(c: char) -> bool {
    matches!(
        c,
        '‘' | '’'
            | '“'
            | '”'
            | '«'
            | '»'
            | '‹'
            | '›'
            | '…'
            | '–'
            | '—'
            | '¡'
            | '¿'
            | '·'
    )
}

#[cfg(test)]
mod tests;
