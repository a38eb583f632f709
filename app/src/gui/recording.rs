//! A recording opened in the workbench: one document per step, showing the screen the step
//! left (or the one it acted on when it left none), with the step's metadata beside it.
//!
//! Opening reads the step log only. A step's screen is loaded when the step is shown, from
//! a bounded cache ([`screens`]); the document list holds the screen of the step on show
//! and only metadata for the others.

mod screens;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use tapscope_core::recording::{self, SESSION_FILE, ScreenRef, Step};

pub use self::screens::CACHE_SCREENS;
use self::screens::Screens;
use super::document::Document;
use super::workbench::Workbench;

/// What every step of one recording shares: the recording as read when it was opened (the
/// replay views read it, never again from disk) and its screens.
#[derive(Debug)]
pub struct RecordingInfo {
    /// The folder's name, for the title bar.
    pub name: String,
    pub recording: Arc<recording::Recording>,
    /// Each step's screen, loaded when asked for.
    screens: Arc<Screens>,
}

impl RecordingInfo {
    /// How many of the recording's screens are loaded and held in its cache (at most
    /// [`CACHE_SCREENS`]).
    pub fn screens_in_memory(&self) -> usize {
        self.screens.in_memory()
    }

    /// Whether `other` is this recording, perhaps read again after it grew: its earlier
    /// steps, and what was worked out from them, are the same.
    pub fn same_recording(&self, other: &RecordingInfo) -> bool {
        self.screens.same_recording(&other.screens)
    }
}

/// Which of a step's screens a document shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The screen the step left.
    After,
    /// The screen the step acted on, shown when it left none (a refusal, a query).
    Before,
}

/// The recorded step a document shows.
#[derive(Clone, Debug)]
pub struct StepInfo {
    pub recording: Arc<RecordingInfo>,
    /// The step's place in [`RecordingInfo::steps`] (0-based).
    pub index: usize,
    pub step: Step,
    /// The screen shown; `None` when the step has none or its dump could not be read.
    pub shown: Option<Side>,
}

impl StepInfo {
    /// Every step of the recording, in file order.
    pub fn steps(&self) -> &[Step] {
        &self.recording.recording.steps
    }

    /// `step N/M`: the step's number and the recording's last.
    pub fn position(&self) -> String {
        let last = self.steps().iter().map(|s| s.step).max();
        format!("step {}/{}", self.step.step, last.unwrap_or(self.step.step))
    }

    /// The screen shown, as recorded.
    pub fn shown_screen(&self) -> Option<&ScreenRef> {
        match self.shown? {
            Side::After => self.step.after.as_ref(),
            Side::Before => self.step.before.as_ref(),
        }
    }
}

/// Whether `path` is a recording: a folder holding `session.jsonl`, or a `.jsonl` file.
pub fn is_recording(path: &Path) -> bool {
    if path.is_dir() {
        path.join(SESSION_FILE).is_file()
    } else {
        path.extension().is_some_and(|ext| ext == "jsonl")
    }
}

/// Reads the recording in `path`: its step log, into one document per step. Only the first
/// step with a screen is loaded (here, off the UI thread); the others load when shown.
/// Lines that could not be read and screen files that are missing become warnings on the
/// first document (files that are there but damaged are found when their step is shown);
/// a recording that cannot be read at all (another format or version, no steps) is an
/// error.
pub fn open(path: &Path) -> Result<(Vec<Document>, Vec<String>), String> {
    let mut documents = reread(path, None)?;
    if let Some(first) = documents.iter().position(Document::has_screen) {
        show(&mut documents, first);
    }
    Ok((documents, Vec::new()))
}

/// Reads the recording in `path` like [`open`], loading no screen: for a recording being
/// written, read again whenever it grew. `earlier`, the same recording as read before,
/// lends the screens it loaded, so steps already shown are not read again.
pub fn reread(path: &Path, earlier: Option<&RecordingInfo>) -> Result<Vec<Document>, String> {
    let recording = Arc::new(recording::read(path).map_err(|e| e.to_string())?);
    let name = folder_name(&recording.dir);
    let mut warnings: Vec<String> = recording
        .problems
        .iter()
        .map(|problem| format!("{name}: {problem}"))
        .collect();
    if recording.steps.is_empty() {
        warnings.insert(0, format!("{name} holds no readable step"));
        return Err(warnings.join("\n"));
    }
    let mut files = Files::default();
    let shown: Vec<Shown> = recording
        .steps
        .iter()
        .map(|step| files.shown(&recording, step))
        .collect();
    let info = Arc::new(RecordingInfo {
        name: name.clone(),
        screens: Arc::new(Screens::new(
            Arc::clone(&recording),
            shown.iter().map(|s| s.screen.clone()).collect(),
            earlier.map(|e| &*e.screens),
        )),
        recording,
    });
    let mut documents: Vec<Document> = info
        .recording
        .steps
        .iter()
        .cloned()
        .zip(shown)
        .enumerate()
        .map(|(index, (step, shown))| step_document(&info, index, step, shown))
        .collect();
    if !files.missing.is_empty() {
        let missing: Vec<&str> = files.missing.iter().map(String::as_str).collect();
        let count = match missing.len() {
            1 => "a screen file is".to_owned(),
            n => format!("{n} screen files are"),
        };
        warnings.push(format!(
            "{name}: {count} missing ({}); the steps that show them say why",
            missing.join(", ")
        ));
    }
    documents[0].warnings.extend(warnings);
    Ok(documents)
}

fn folder_name(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Which screen a step shows, found without reading it.
struct Shown {
    side: Option<Side>,
    screen: Option<ScreenRef>,
    /// Why a step with a screen has none to show (its dump is missing).
    note: Option<String>,
}

/// Which screen files are there, each looked up once.
#[derive(Default)]
struct Files {
    there: HashMap<String, bool>,
    missing: BTreeSet<String>,
}

impl Files {
    /// The screen the step left, else the one it acted on; a screen whose dump is missing
    /// is none, with the reason.
    fn shown(&mut self, recording: &recording::Recording, step: &Step) -> Shown {
        let screen = match (&step.after, &step.before) {
            (Some(after), _) => Some((Side::After, after)),
            (None, Some(before)) => Some((Side::Before, before)),
            (None, None) => None,
        };
        let Some((side, screen)) = screen else {
            let note = format!(
                "step {} · {} recorded no screen: the call neither read nor changed it",
                step.step, step.tool
            );
            return Shown {
                side: None,
                screen: None,
                note: Some(note),
            };
        };
        if let Some(png) = &screen.screenshot {
            self.is_there(recording, png);
        }
        if self.is_there(recording, &screen.dump) {
            return Shown {
                side: Some(side),
                screen: Some(screen.clone()),
                note: None,
            };
        }
        let why = match recording.load_bytes(&screen.dump) {
            Err(e) => format!("{e}; the step has no screen to show"),
            Ok(_) => format!("{} could not be read", screen.dump),
        };
        Shown {
            side: None,
            screen: None,
            note: Some(why),
        }
    }

    fn is_there(&mut self, recording: &recording::Recording, path: &str) -> bool {
        if let Some(&there) = self.there.get(path) {
            return there;
        }
        let there = recording.dir.join(path).is_file();
        if !there {
            self.missing.insert(path.to_owned());
        }
        self.there.insert(path.to_owned(), there);
        there
    }
}

/// A step's document with its metadata only: its screen, if any, loads when shown.
fn step_document(info: &Arc<RecordingInfo>, index: usize, step: Step, shown: Shown) -> Document {
    let name = format!("step {} · {}", step.step, step.tool);
    let mut document = Document::without_screen(name);
    document.screen_notes.extend(shown.note);
    document.unloaded = shown.side.is_some();
    document.step = Some(Box::new(StepInfo {
        recording: Arc::clone(info),
        index,
        step,
        shown: shown.side,
    }));
    document
}

/// Loads the screen of `documents[index]` when it is a step whose screen is not in memory,
/// and lets the other steps' screens go (their recording's cache keeps the recent ones).
/// Returns whether it loaded one.
fn show(documents: &mut [Document], index: usize) -> bool {
    for (k, document) in documents.iter_mut().enumerate() {
        if k != index && document.screen_loaded() && document.step.is_some() {
            unload(document);
        }
    }
    let Some(document) = documents.get_mut(index).filter(|d| !d.screen_loaded()) else {
        return false;
    };
    *document = loaded(document);
    true
}

/// The step's document with its screen, or with the reason it has none.
fn loaded(document: &mut Document) -> Document {
    let mut info = document.step.take();
    let name = std::mem::take(&mut document.name);
    let screen = info
        .as_ref()
        .and_then(|i| i.recording.screens.document(i.index));
    let mut loaded = match screen {
        Some(Ok(loaded)) => loaded,
        failed => {
            if let Some(info) = info.as_mut() {
                info.shown = None;
            }
            let mut loaded = Document::without_screen(name.clone());
            loaded.screen_notes.extend(failed.and_then(Result::err));
            loaded
        }
    };
    loaded.name = name;
    loaded.warnings = std::mem::take(&mut document.warnings);
    loaded.step = info;
    loaded
}

/// Back to the step's metadata; the screen stays in the recording's cache a while.
fn unload(document: &mut Document) {
    if document.step.as_ref().is_none_or(|s| s.shown.is_none()) {
        return; // a step without a screen holds only its metadata already
    }
    let mut placeholder = Document::without_screen(std::mem::take(&mut document.name));
    placeholder.unloaded = true;
    placeholder.warnings = std::mem::take(&mut document.warnings);
    placeholder.step = document.step.take();
    *document = placeholder;
}

impl Workbench {
    /// Loads the screen of the step on show if it is not in memory, lets the other steps'
    /// screens go, and loads the neighbouring steps' screens in the background.
    pub(super) fn load_current_screen(&mut self) {
        if !show(&mut self.documents, self.current) {
            return;
        }
        if let Some(info) = self.step() {
            let next = [info.index.wrapping_sub(1), info.index + 1];
            info.recording.screens.prefetch(&next);
        }
    }

    /// The document of step `index` of the current document's recording, with its screen
    /// loaded (from the cache when it is there), without changing what is shown: for
    /// views that show another step beside the current one.
    pub fn step_document(&self, index: usize) -> Option<Document> {
        let target = self.step_position(self.step()?, index)?;
        let mut document = self.documents.get(target)?.clone();
        if !document.screen_loaded() {
            document = loaded(&mut document);
        }
        Some(document)
    }
}

#[cfg(test)]
mod tests {
    use tapscope_core::session::synthetic;

    use super::*;

    /// The recording `info` was read from.
    fn info(documents: &[Document]) -> Arc<RecordingInfo> {
        let step = documents[0].step.as_deref().expect("a step");
        Arc::clone(&step.recording)
    }

    #[test]
    fn a_grown_recording_read_again_keeps_the_screens_loaded_before() {
        let whole = tempfile::tempdir().expect("a folder");
        synthetic::write(whole.path(), 40, 3).expect("written");
        let log = std::fs::read_to_string(whole.path().join(SESSION_FILE)).expect("the log");
        // The same recording while it was being written: its header and first 20 steps.
        let growing = tempfile::tempdir().expect("a folder");
        std::fs::create_dir(growing.path().join("screens")).expect("screens");
        for screen in std::fs::read_dir(whole.path().join("screens")).expect("screens") {
            let screen = screen.expect("a screen").path();
            let to = growing
                .path()
                .join("screens")
                .join(screen.file_name().expect("a name"));
            std::fs::copy(&screen, to).expect("copied");
        }
        let first: String = log.split_inclusive('\n').take(21).collect();
        std::fs::write(growing.path().join(SESSION_FILE), first).expect("written");

        let before = reread(growing.path(), None).expect("read");
        assert_eq!(before.len(), 20);
        assert!(
            before.iter().all(|d| !d.screen_loaded()),
            "no screen loaded"
        );
        let earlier = info(&before);
        assert_eq!(earlier.screens_in_memory(), 0);
        let shown = before
            .iter()
            .position(|d| d.unloaded)
            .expect("a step with a screen");
        let loaded = earlier.screens.document(shown).expect("a screen");
        assert!(loaded.is_ok(), "{loaded:?}");

        std::fs::write(growing.path().join(SESSION_FILE), &log).expect("grown");
        let after = reread(growing.path(), Some(&earlier)).expect("read again");
        assert_eq!(after.len(), 40);
        let later = info(&after);
        assert!(later.same_recording(&earlier));
        assert_eq!(
            later.screens_in_memory(),
            1,
            "the screen shown before is kept"
        );

        let other = info(&reread(whole.path(), None).expect("read"));
        assert!(!other.same_recording(&earlier));
        assert_eq!(other.screens_in_memory(), 0);
    }
}
