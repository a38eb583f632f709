//! A self-drawn screen's text, read in the fallback screenshot's pixels (rule `ocr`): each
//! line becomes a node of the tree, an `ocr` line with a handle, and the observation is
//! versioned again with them, so a ticking score gives a new version as any change does.
//!
//! The reader is the one the session was given (`Session::with_text_reader`: the sim's
//! transcript, a test's stand-in) or else Tesseract, found once per process; when it is
//! missing, or a read fails or finds nothing, the observation says so in
//! `Observation::pixel_note` (the session passes on how to install it only once) and the
//! screenshot stays the agent's way in.
//!
//! Only a line's text and box enter the tree, and so the version: its confidence is kept
//! beside it (`Observation::pixel_text`) for viewers, so two engines that read the same
//! words give the same version however sure each was.

use std::sync::OnceLock;

use super::unread::Unread;
use crate::geometry::ImageScale;
use crate::model::PixelText;
use crate::ocr::{OcrError, Tesseract, TextReader};
use crate::prune::PruneRules;

/// Tesseract, looked for once.
fn tesseract() -> &'static Result<Tesseract, OcrError> {
    static ENGINE: OnceLock<Result<Tesseract, OcrError>> = OnceLock::new();
    ENGINE.get_or_init(Tesseract::find)
}

/// The text in a screenshot's pixels (`png`, mapped to the display by `scale`) read under
/// `rules` by `given` (Tesseract when `None`), in display pixels; why none was read is the
/// error.
pub(super) fn read(
    given: Option<&dyn TextReader>,
    png: &[u8],
    scale: ImageScale,
    rules: &PruneRules,
) -> Result<Vec<PixelText>, Unread> {
    let engine: &dyn TextReader = match given {
        Some(reader) => reader,
        None => tesseract()
            .as_ref()
            .map_err(|e| Unread::NoEngine(e.to_string()))?,
    };
    let lines = engine
        .read(png, f32::from(rules.ocr_min_confidence))
        .map_err(|e| Unread::Failed(e.to_string()))?;
    let read: Vec<PixelText> = lines
        .into_iter()
        .map(|line| PixelText {
            text: line.text,
            confidence: line.confidence,
            bounds: scale.rect_to_display(line.bounds),
        })
        .collect();
    if read.is_empty() {
        return Err(Unread::Nothing);
    }
    Ok(read)
}

#[cfg(all(test, feature = "sim"))]
mod tests;
