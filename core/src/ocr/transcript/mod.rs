//! `Transcript`: a [`TextReader`] that reads a picture's words from a record of what was
//! drawn on it, not from its pixels: whoever draws the picture (the sim, through
//! `Sim::transcript`) files its words with it, and a read of that picture's PNG gives them
//! back. What it reads is exactly what was drawn, whatever Tesseract is installed, or none:
//! the stand-in for a test, or a recording such as the demo, that must read the same on
//! every machine.
//!
//! A read decodes the PNG and looks for the picture filed with the same pixels (the last
//! [`KEPT`] filed are kept); one not filed is [`OcrError::Untranscribed`]. Its words become
//! lines as Tesseract would file them: a word continues the line of the word drawn before
//! it when it starts to its right, within one and a half line heights, on the same row;
//! words without a letter or a digit are dropped, as the engine's are; the lines come top
//! to bottom, then left to right. Every word is read at confidence 100 ([`KNOWN`]): it is
//! known, not recognised.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use parking_lot::Mutex;

use image::RgbImage;

use super::picture::decode;
use super::{OcrError, TextLine, TextReader, Word};
use crate::model::Rect;

/// How many pictures a transcript keeps; filing another forgets the oldest.
pub const KEPT: usize = 16;

/// The confidence of a word read from a transcript.
pub const KNOWN: f32 = 100.0;

/// The words drawn on the last [`KEPT`] pictures filed, shared by its clones.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    filed: Arc<Mutex<VecDeque<Filed>>>,
}

/// One picture's pixels (as a hash) and its lines.
#[derive(Debug)]
struct Filed {
    pixels: u64,
    lines: Vec<TextLine>,
}

impl Transcript {
    pub fn new() -> Self {
        Self::default()
    }

    /// Files `words`, drawn on `pixels` in drawing order (line by line, left to right),
    /// each with its ink box in `pixels`' own coordinates.
    pub fn file(&self, pixels: &RgbImage, words: &[(String, Rect)]) {
        let filed = Filed {
            pixels: pixels_hash(pixels),
            lines: lines_of(words),
        };
        let mut kept = self.filed.lock();
        kept.retain(|f| f.pixels != filed.pixels);
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back(filed);
    }
}

impl TextReader for Transcript {
    fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        let pixels = decode(png)?.into_rgb8();
        let key = pixels_hash(&pixels);
        let kept = self.filed.lock();
        let filed = kept
            .iter()
            .find(|f| f.pixels == key)
            .ok_or(OcrError::Untranscribed {
                width: pixels.width(),
                height: pixels.height(),
            })?;
        let read = if KNOWN >= min_confidence {
            filed.lines.clone()
        } else {
            Vec::new()
        };
        Ok(read)
    }
}

/// A hash of a picture's size and pixels.
fn pixels_hash(pixels: &RgbImage) -> u64 {
    let mut hasher = DefaultHasher::new();
    (pixels.width(), pixels.height()).hash(&mut hasher);
    pixels.as_raw().hash(&mut hasher);
    hasher.finish()
}

/// `words` in drawing order grouped into lines, those without a letter or a digit left
/// out; the lines in reading order, by their tops, then their left edges.
pub(super) fn lines_of(words: &[(String, Rect)]) -> Vec<TextLine> {
    let mut lines: Vec<TextLine> = Vec::new();
    for (text, bounds) in words {
        if !text.chars().any(char::is_alphanumeric) {
            continue;
        }
        let word = Word {
            text: text.clone(),
            confidence: KNOWN,
            bounds: *bounds,
        };
        match lines.last_mut() {
            Some(line) if continues(line, &word.bounds) => {
                line.text.push(' ');
                line.text.push_str(&word.text);
                line.bounds = line.bounds.union(&word.bounds);
                line.words.push(word);
            }
            _ => lines.push(TextLine {
                text: word.text.clone(),
                confidence: KNOWN,
                bounds: word.bounds,
                words: vec![word],
            }),
        }
    }
    lines.sort_by_key(|l| (l.bounds.top, l.bounds.left));
    lines
}

/// Whether a word at `next` goes on `line`: it starts right of the line's last word (a
/// quarter of a height of overlap allowed, for kerning), no further than one and a half
/// heights from it, and shares half the height of the shorter of the two.
fn continues(line: &TextLine, next: &Rect) -> bool {
    let Some(last) = line.words.last().map(|w| w.bounds) else {
        return false;
    };
    let height = line.bounds.height().max(next.height()).max(1);
    let gap = next.left - last.right;
    let shared = last.bottom.min(next.bottom) - last.top.max(next.top);
    let shorter = last.height().min(next.height());
    gap * 4 >= -height && gap * 2 <= height * 3 && shared * 2 >= shorter
}

#[cfg(test)]
mod tests;
