//! Opening things in the workbench off the UI thread (poll-promise): a recording as a
//! recording, a run compared with the recording it replays, or a dump, a dump with its
//! screenshot, a folder of dumps; the open dialogs and drag and drop.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::comparison::{self, Comparison};
use super::document::{self, Document};
use super::error::{CompareError, OpenError};
use super::recording::{self, Recording};

/// What a path opened.
#[derive(Debug)]
pub enum Opening {
    /// Dumps, and the errors of those of a folder that did not open.
    Dumps(Vec<Document>, Vec<OpenError>),
    /// A recording, its first screen already loaded into its cache.
    Recording(Arc<Recording>),
    /// A run and the recording it replays, its verdicts being judged.
    Comparison(Arc<Comparison>),
    /// A run whose original could not be opened: the run alone, and why.
    RunAlone(Arc<Recording>, CompareError),
}

/// What a path opened, or why nothing did.
pub type Loaded = Result<Opening, OpenError>;

/// Opens a recording, or a dump, a dump with its screenshot, or a folder of dumps.
pub fn load(path: &Path) -> Loaded {
    load_against(path, None)
}

/// Opens `path` as [`load`] does; a recording is compared with `against`, else with the
/// recording its header says it replays, when it names one.
pub fn load_against(path: &Path, against: Option<&Path>) -> Loaded {
    if recording::is_recording(path) {
        let run = read(path)?;
        let original = match comparison::original_path(&run, against) {
            None => return Ok(Opening::Recording(run)),
            Some(found) => found.and_then(|original| {
                read(&original).map_err(|e| CompareError::Unreadable {
                    run: run.name.clone(),
                    source: Box::new(e),
                })
            }),
        };
        return Ok(match original {
            Ok(original) => Opening::Comparison(Arc::new(Comparison::new(original, run))),
            Err(why) => Opening::RunAlone(run, why),
        });
    }
    let (documents, errors) = document::open(path)?;
    Ok(Opening::Dumps(documents, errors))
}

/// Reads a recording, its first screen loaded here, off the UI thread.
fn read(path: &Path) -> Result<Arc<Recording>, OpenError> {
    let recording = Recording::read(path, None)?;
    if let Some(first) = recording.first_with_screen() {
        recording.step_screen(first);
    }
    Ok(Arc::new(recording))
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
