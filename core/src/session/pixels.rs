//! A self-drawn screen's text, read in the fallback screenshot's pixels (rule `ocr`): each
//! line becomes a node of the tree, an `ocr` line with a handle, and the observation is
//! versioned again with them, so a ticking score gives a new version as any change does.
//!
//! The engine is found once per process; when it is missing, or a read fails or finds
//! nothing, the observation says so in [`Observation::pixel_note`] (the session passes on
//! how to install it only once) and the screenshot stays the agent's way in.

use std::sync::OnceLock;

use super::observe::Screenshot;
use super::{Observation, Unread};
use crate::model::PixelText;
use crate::ocr::{OcrError, Tesseract};
use crate::prune::PruneRules;
use crate::render;

/// The engine, looked for once.
fn engine() -> &'static Result<Tesseract, OcrError> {
    static ENGINE: OnceLock<Result<Tesseract, OcrError>> = OnceLock::new();
    ENGINE.get_or_init(Tesseract::find)
}

/// Reads `shot` (the observation's fallback) under `rules` and adds what it read to the
/// observation's tree; what it did not read is the error.
pub(super) fn read_into(
    observation: &mut Observation,
    shot: &Screenshot,
    rules: &PruneRules,
) -> Result<(), Unread> {
    let engine = engine()
        .as_ref()
        .map_err(|e| Unread::NoEngine(e.to_string()))?;
    let lines = engine
        .read(&shot.png, f32::from(rules.ocr_min_confidence))
        .map_err(|e| Unread::Failed(e.to_string()))?;
    let scale = shot.scale();
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
    let tree = observation.tree.with_pixel_text(&read);
    let (pruned, text) = render::versioned(&tree, rules);
    observation.version.clone_from(&pruned.version);
    observation.text = text;
    observation.pruned = pruned;
    observation.tree = tree;
    observation.pixel_text = read;
    Ok(())
}
