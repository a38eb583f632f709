//! `TextReader`: what reads the text in a screenshot's pixels. [`Tesseract`] is the
//! engine a session finds on its own; [`super::Transcript`] is a stand-in that reads back
//! the words a device said it drew, the same on every machine. A session is given one with
//! `Session::with_text_reader`.

use super::{OcrError, Tesseract, TextLine};

/// Reads lines of text from a PNG.
pub trait TextReader: Send + Sync + std::fmt::Debug {
    /// The lines of `png`, made of its words at or over `min_confidence` (0 to 100) that
    /// hold a letter or a digit, in reading order; bounds in `png`'s pixels. A blank image
    /// is no lines; bytes that are not a PNG are [`OcrError::NotPng`].
    fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError>;
}

impl TextReader for Tesseract {
    fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        Tesseract::read(self, png, min_confidence)
    }
}
