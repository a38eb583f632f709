//! A recording opened in the workbench: one document per step, showing the screen the step
//! left (or the one it acted on when it left none), with the step's metadata beside it.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tapscope_core::recording::{
    self, Header, Recording, SESSION_FILE, ScreenRef, Step, StepOutcome,
};

use super::document::{Document, decode_png};

/// What every step of one recording shares: where it is, its header and a list of steps.
#[derive(Debug)]
pub struct RecordingInfo {
    pub dir: PathBuf,
    /// The folder's name, for the title bar.
    pub name: String,
    pub header: Header,
    /// Every step's number, tool and outcome, in file order, for the step list.
    pub steps: Vec<StepSummary>,
}

/// One line of the step list.
#[derive(Clone, Debug)]
pub struct StepSummary {
    pub number: u64,
    pub tool: String,
    pub outcome: StepOutcome,
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
    /// `step N/M`: the step's number and the recording's last.
    pub fn position(&self) -> String {
        let last = self.recording.steps.iter().map(|s| s.number).max();
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

/// Reads the recording in `path` into one document per step. Lines that could not be read
/// and screen files that are missing become warnings on the first document; a recording
/// that cannot be read at all (another format or version, no steps) is an error.
pub fn open(path: &Path) -> Result<(Vec<Document>, Vec<String>), String> {
    let recording = recording::read(path).map_err(|e| e.to_string())?;
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
    let info = Arc::new(RecordingInfo {
        dir: recording.dir.clone(),
        name: name.clone(),
        header: recording.header.clone(),
        steps: recording
            .steps
            .iter()
            .map(|step| StepSummary {
                number: step.step,
                tool: step.tool.clone(),
                outcome: step.outcome,
            })
            .collect(),
    });
    let mut screens = Screens::new(&recording);
    let mut documents: Vec<Document> = recording
        .steps
        .iter()
        .enumerate()
        .map(|(index, step)| step_document(&mut screens, &info, index, step))
        .collect();
    if !screens.failed.is_empty() {
        let files: Vec<&str> = screens.failed.iter().map(String::as_str).collect();
        let count = match files.len() {
            1 => "a screen file is".to_owned(),
            n => format!("{n} screen files are"),
        };
        warnings.push(format!(
            "{name}: {count} missing or damaged ({}); the steps that show them say why",
            files.join(", ")
        ));
    }
    documents[0].warnings.extend(warnings);
    Ok((documents, Vec::new()))
}

fn folder_name(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn step_document(
    screens: &mut Screens,
    info: &Arc<RecordingInfo>,
    index: usize,
    step: &Step,
) -> Document {
    let name = format!("step {} · {}", step.step, step.tool);
    let screen = match (&step.after, &step.before) {
        (Some(after), _) => Some((Side::After, after)),
        (None, Some(before)) => Some((Side::Before, before)),
        (None, None) => None,
    };
    let (mut document, shown) = match screen {
        None => {
            let mut document = Document::without_screen(name.clone());
            document.screen_notes.push(format!(
                "{name} recorded no screen: the call neither read nor changed it"
            ));
            (document, None)
        }
        Some((side, screen)) => match screens.document(screen) {
            Ok(document) => (document, Some(side)),
            Err(why) => {
                let mut document = Document::without_screen(name.clone());
                document.screen_notes.push(why);
                (document, None)
            }
        },
    };
    document.name = name;
    document.step = Some(Box::new(StepInfo {
        recording: Arc::clone(info),
        index,
        step: step.clone(),
        shown,
    }));
    document
}

/// The screens of one recording, each dump parsed and each screenshot decoded once however
/// many steps show it.
struct Screens<'a> {
    recording: &'a Recording,
    images: HashMap<String, Result<Arc<egui::ColorImage>, String>>,
    documents: HashMap<(String, Option<String>), Result<Document, String>>,
    /// Screen files that could not be read, by path.
    failed: BTreeSet<String>,
}

impl<'a> Screens<'a> {
    fn new(recording: &'a Recording) -> Self {
        Self {
            recording,
            images: HashMap::new(),
            documents: HashMap::new(),
            failed: BTreeSet::new(),
        }
    }

    /// The screen as a document under its recorded version (so its handles are the ones
    /// the agent read), with a note when its screenshot cannot be shown.
    fn document(&mut self, screen: &ScreenRef) -> Result<Document, String> {
        let key = (screen.dump.clone(), screen.screenshot.clone());
        let loaded = match self.documents.get(&key) {
            Some(loaded) => loaded.clone(),
            None => {
                let loaded = self.load(screen);
                self.documents.insert(key, loaded.clone());
                loaded
            }
        };
        // The same files can come back under a later version (a screen that did not change).
        loaded.map(|mut document| {
            document.version = screen.version.clone();
            document
        })
    }

    fn load(&mut self, screen: &ScreenRef) -> Result<Document, String> {
        let dump = self.recording.load_bytes(&screen.dump).map_err(|e| {
            self.failed.insert(screen.dump.clone());
            format!("{e}; the step has no screen to show")
        })?;
        let image = screen.screenshot.as_ref().map(|png| self.image(png));
        let mut note = None;
        let screenshot = match image {
            Some(Err(why)) => {
                note = Some(format!("{why}; showing a wireframe"));
                None
            }
            other => other,
        };
        let path = self.recording.dir.join(&screen.dump);
        let mut document =
            Document::with_screenshot(screen.dump.clone(), Some(path), &dump, screenshot).map_err(
                |e| {
                    self.failed.insert(screen.dump.clone());
                    format!("{e}; the step has no screen to show")
                },
            )?;
        let warnings = std::mem::take(&mut document.warnings);
        document
            .screen_notes
            .extend(note.into_iter().chain(warnings));
        Ok(document)
    }

    fn image(&mut self, path: &str) -> Result<Arc<egui::ColorImage>, String> {
        if let Some(image) = self.images.get(path) {
            return image.clone();
        }
        let image = self
            .recording
            .load_bytes(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                decode_png(&bytes).map_err(|e| format!("{path} is not a readable PNG ({e})"))
            })
            .map(Arc::new);
        if image.is_err() {
            self.failed.insert(path.to_owned());
        }
        self.images.insert(path.to_owned(), image.clone());
        image
    }
}
