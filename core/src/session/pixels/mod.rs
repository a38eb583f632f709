//! A self-drawn screen's text, read in the fallback screenshot's pixels (rule `ocr`): each
//! line becomes a node of the tree, an `ocr` line with a handle, and the observation is
//! versioned again with them, so a ticking score gives a new version as any change does.
//!
//! The reader is the one the session was given (`Session::with_text_reader`: the sim's
//! transcript, a test's stand-in) or else the one the rule `ocr_engine` chooses among those
//! found once per process (`ocr::Engines`: PP-OCR's models, Tesseract); when none is
//! there, or a read fails or finds nothing, the observation says so in
//! `Observation::pixel_note` (the session passes on how to install it only once) and the
//! screenshot stays the agent's way in.
//!
//! Only a line's text and box enter the tree, and so the version: its confidence is kept
//! beside it (`Observation::pixel_text`) for viewers, so two engines that read the same
//! words give the same version however sure each was.

use std::sync::OnceLock;

use super::unread::Unread;
use crate::geometry::ImageScale;
use crate::model::{PixelText, Tree};
use crate::ocr::{Engines, TextReader};
use crate::prune::PruneRules;

static ENGINES: OnceLock<Engines> = OnceLock::new();

/// The readers on this machine, looked for once.
fn engines() -> &'static Engines {
    ENGINES.get_or_init(Engines::find)
}

/// Looks for the readers on a thread of its own, unless they were looked for already: a
/// read that comes before it is done waits for it.
pub(super) fn warm_up() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        // Without a thread the first read looks for them itself.
        let _ = std::thread::Builder::new()
            .name("ocr-warm-up".into())
            .spawn(|| {
                engines();
            });
    });
}

/// The text in a screenshot's pixels (`png`, mapped to the display by `scale`) read under
/// `rules` by `given` (else the reader the rules choose, in the languages they or `tree`'s
/// texts name), in display pixels; why none was read is the error.
pub(super) fn read(
    given: Option<&dyn TextReader>,
    png: &[u8],
    scale: ImageScale,
    tree: &Tree,
    rules: &PruneRules,
) -> Result<Vec<PixelText>, Unread> {
    let chosen;
    let engine: &dyn TextReader = match given {
        Some(reader) => reader,
        None => {
            chosen = engines()
                .reader_for(rules.ocr_engine, &rules.ocr_languages, tree)
                .map_err(|e| Unread::NoEngine(e.to_string()))?;
            chosen.as_ref()
        }
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
