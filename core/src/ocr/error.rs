//! `OcrError`: every way reading text from pixels can fail, each with what to do.

use std::path::PathBuf;
use std::time::Duration;

/// What went wrong finding Tesseract or reading an image with it.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OcrError {
    /// The program could not be started (not on `PATH`, not executable), or its
    /// `--version` did not name Tesseract.
    #[error(
        "`{program}` could not be run as Tesseract ({reason}): install it with \
         `apt-get install tesseract-ocr tesseract-ocr-eng` (or put `tesseract` on PATH)"
    )]
    NotInstalled { program: PathBuf, reason: String },

    /// A Tesseract before 4.0: no LSTM engine and no `--psm` as tapscope passes it.
    #[error(
        "Tesseract {version} is too old: tapscope needs 4.0 or newer; \
         `apt-get install tesseract-ocr` gives 5"
    )]
    TooOld { version: String },

    /// A language asked for (or `eng`, always used) has no trained data installed.
    #[error(
        "Tesseract has no `{language}` data (installed: {installed}): install it with \
         `apt-get install tesseract-ocr-{package}`"
    )]
    MissingLanguage {
        language: String,
        /// The Debian package's suffix (`chi_sim` → `chi-sim`).
        package: String,
        installed: String,
    },

    /// A read ran past its ceiling: Tesseract was killed, or PP-OCR stopped before its
    /// next box.
    #[error(
        "reading the image took longer than {after:?} and was stopped: give a smaller \
         image, or a longer ceiling with `with_timeout`"
    )]
    TimedOut { after: Duration },

    /// Tesseract exited unsuccessfully or could not be fed; its own words are in `stderr`.
    #[error(
        "Tesseract failed ({status}): {stderr}; check that the image is a valid PNG and that \
         `tesseract --list-langs` works"
    )]
    Failed { status: String, stderr: String },

    /// Tesseract's output is not the TSV it writes.
    #[error(
        "Tesseract's TSV output is malformed at line {line}: {message}; check `tesseract \
         --version` (4.0 or newer writes this TSV)"
    )]
    BadOutput { line: usize, message: String },

    /// The bytes given are not a PNG image tapscope can read.
    #[error("the image is not a readable PNG ({reason}): pass the PNG bytes of a screenshot")]
    NotPng { reason: String },

    /// A [`super::Transcript`] was asked for the words of a picture none were filed for.
    #[error(
        "no words were filed for this {width}×{height} picture: a transcript reads back only \
         the screenshots its device drew, at the size it drew them (`Sim::transcript`); read \
         any other picture with `Tesseract::find`"
    )]
    Untranscribed { width: u32, height: u32 },

    /// PP-OCR's detection and recognition models are not installed where tapscope looks.
    #[error(
        "PP-OCR's text models were not found ({looked}): install them with `{install}`, or \
         set TAPSCOPE_OCR_MODELS to a folder holding {detector} and {recognizer}"
    )]
    ModelsNotFound {
        /// Where tapscope looked, and what it found there.
        looked: String,
        install: &'static str,
        detector: &'static str,
        recognizer: &'static str,
    },

    /// A model file that is not a PP-OCR model tapscope can run: truncated, another
    /// model, or a recognizer without its dictionary.
    #[error(
        "`{path}` is not a PP-OCR model tapscope can run ({reason}): install the models \
         again with `{install} --force-reinstall`"
    )]
    BadModel {
        path: PathBuf,
        reason: String,
        install: &'static str,
    },

    /// Neither reader is here.
    #[error(
        "text in pixels is read by PP-OCR's models or by Tesseract, and neither was found: \
         {models}; {tesseract}"
    )]
    NoEngine { models: String, tesseract: String },

    /// A reader asked for that this build of tapscope leaves out.
    #[error(
        "this build of tapscope has no {reader} (its feature `{feature}`): build it with `--features {feature}`, or choose another reader"
    )]
    NotBuilt {
        reader: &'static str,
        feature: &'static str,
    },

    /// A model failed on an image it was given.
    #[error(
        "the text model failed on this image ({reason}): read it with Tesseract instead (`--ocr-engine tesseract`)"
    )]
    ModelFailed { reason: String },

    /// An image too large to decode safely, let alone read.
    #[error(
        "the image is {width}×{height} pixels, over the {limit}-pixel limit (a phone screen is \
         under 10 million): crop or scale it first"
    )]
    TooLarge { width: u32, height: u32, limit: u64 },
}
