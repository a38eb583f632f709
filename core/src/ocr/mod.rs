//! Text read from pixels, for the screens whose tree is empty (Flutter without
//! semantics, games, canvases): lines of words with their boxes and confidences, read by
//! Tesseract from the screenshot the fallback takes.
//!
//! ```no_run
//! use tapscope_core::ocr::Tesseract;
//! # fn main() -> Result<(), tapscope_core::ocr::OcrError> {
//! let png = std::fs::read("screen.png").expect("a screenshot");
//! let engine = Tesseract::find()?; // once: `tesseract --version`, `--list-langs`
//! for line in engine.read(&png, 60.0)? {
//!     println!("{:>5.1} {} {}", line.confidence, line.bounds, line.text);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Why the `tesseract` command, not libtesseract
//!
//! Linking libtesseract (through `tesseract-sys` or `leptess`) would put a C++ build and
//! its `-dev` packages (libtesseract-dev, libleptonica-dev, clang for bindgen) in every
//! build of tapscope, and make the binary fail to start where the library is missing.
//! Running the command needs no binding crate and no build step: tapscope builds, and every
//! command that does not read pixels works, on a machine without Tesseract; the one that
//! does says how to install it ([`OcrError::NotInstalled`]). The price is a process per
//! image, whose start (loading the English model) is about 50 ms of the measured time.
//!
//! # How it is run
//!
//! The image is first made what Tesseract reads best, dark ink on white paper
//! everywhere: Tesseract binarizes a page with one threshold, which loses light text on
//! dark bars, text on filled buttons and faint grey text beside black. Regions whose
//! paper is dark are inverted (`polarity`, on the regions of `regions`), the paper is
//! levelled to white and faint ink strengthened (`level`, by `imageproc`'s grayscale
//! closing). Then `tesseract stdin stdout -l eng --oem 1 --psm 11 tsv`
//! runs with `OMP_THREAD_LIMIT=1` ([`Tesseract::arguments`]): the PNG on stdin, TSV on
//! stdout, the LSTM engine, sparse text (a screen is labels scattered over a canvas),
//! one core. Pipes are read on their own threads and the run has a ceiling
//! ([`Tesseract::with_timeout`], [`DEFAULT_TIMEOUT`]) at which the process is killed
//! (`wait-timeout`). The TSV is split by the `csv` crate, and its words are grouped into lines by Tesseract's block, paragraph and line numbers; words
//! under the caller's floor, and words without a letter or a digit, are dropped.
//! `score` (feature `measure`) measures a read against known words; docs/ocr.md has the
//! numbers.
//!
//! # Engines
//!
//! A reader is a [`TextReader`]: [`Tesseract`], or a [`Transcript`], the stand-in that
//! reads back the words a device filed with the pictures it drew (the sim's
//! `Sim::transcript`), exact and the same on every machine, Tesseract or not. A session
//! finds Tesseract once unless it is given a reader (`Session::with_text_reader`).
//!
//! # Bad input
//!
//! A blank or black image is no lines. An image longer than [`MAX_SIDE`] is scaled down
//! first (no phone screen is that long, and Tesseract's time grows with the pixels); one
//! over [`MAX_PIXELS`] is refused ([`OcrError::TooLarge`]). Characters no installed
//! language covers come back as whatever Tesseract reads them as, usually at a low
//! confidence the floor removes.

mod choose;
mod engine;
mod error;
pub mod languages;
mod level;
#[cfg(any(feature = "ppocr", feature = "measure"))]
mod order;
mod picture;
mod plausible;
mod polarity;
#[cfg(feature = "ppocr")]
pub mod ppocr;
mod process;
mod reader;
mod regions;
#[cfg(feature = "measure")]
pub mod score;
mod transcript;
mod tsv;

pub use choose::Engines;
pub use engine::{DEFAULT_TIMEOUT, PAGE_SEGMENTATION, Tesseract};
pub use error::OcrError;
pub use picture::{MAX_PIXELS, MAX_SIDE, png_size};
pub use reader::TextReader;
pub use transcript::{KEPT, KNOWN, Transcript};

use serde::Serialize;

use crate::model::Rect;

/// One line of text: its words left to right as Tesseract filed them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextLine {
    /// The kept words joined by single spaces.
    pub text: String,
    /// 0 to 100: the line's lowest kept word.
    pub confidence: f32,
    /// In image pixels: the union of its kept words.
    pub bounds: Rect,
    pub words: Vec<Word>,
}

/// One word: its text (never blank), confidence (0 to 100) and box in image pixels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Word {
    pub text: String,
    pub confidence: f32,
    pub bounds: Rect,
}
