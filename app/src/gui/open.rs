//! Opening things in the workbench off the UI thread (poll-promise): a recording as a
//! recording, or a dump, a dump with its screenshot, a folder of dumps; the open dialogs
//! and drag and drop.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::document::{self, Document};
use super::error::OpenError;
use super::recording::{self, Recording};

/// What a path opened.
#[derive(Debug)]
pub enum Opening {
    /// Dumps, and the errors of those of a folder that did not open.
    Dumps(Vec<Document>, Vec<OpenError>),
    /// A recording, its first screen already loaded into its cache.
    Recording(Arc<Recording>),
}

/// What a path opened, or why nothing did.
pub type Loaded = Result<Opening, OpenError>;

/// Opens a recording, or a dump, a dump with its screenshot, or a folder of dumps.
pub fn load(path: &Path) -> Loaded {
    if recording::is_recording(path) {
        let recording = Recording::read(path, None)?;
        // The first screen loads here, off the UI thread.
        if let Some(first) = recording.first_with_screen() {
            recording.step_screen(first);
        }
        return Ok(Opening::Recording(Arc::new(recording)));
    }
    let (documents, errors) = document::open(path)?;
    Ok(Opening::Dumps(documents, errors))
}

/// A dump or a recording's log, picked in a dialog.
pub fn pick_file() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("dumps and recordings", &["xml", "json", "jsonl"])
        .set_title("Open a dump, or a recording's session.jsonl")
        .pick_file()
}

/// A recording or a folder of dumps, picked in a dialog.
pub fn pick_folder() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Open a recording, or a folder of dumps")
        .pick_folder()
}

/// The files dropped on the window this frame.
pub fn dropped(ctx: &egui::Context) -> Vec<PathBuf> {
    ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .collect()
    })
}
