//! A recording opened in the workbench as a recording: its step log, which screen each step
//! shows (the one it left, or the one it acted on when it left none), its screens behind
//! one bounded cache ([`screens`]), and each step's forensics review and tree diff, worked
//! out once. Opening reads the step log only; a screen loads when a view asks for it; a
//! recording still being written is read again as it grows ([`follow`]).

mod follow;
mod screens;

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::Mutex;
use tapscope_core::forensics::{self, Review};
use tapscope_core::inspect::tree_diff::{TreeDiff, tree_diff};
use tapscope_core::recording::{self as log, RecordingError, SESSION_FILE, ScreenRef, Step};

pub use self::follow::{Follow, Following};
use self::screens::Screens;
pub use self::screens::{CACHE_SCREENS, Loaded, Screen};
use super::error::{OpenError, ScreenError};

/// Which of a step's screens it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The screen the step left.
    After,
    /// The screen the step acted on, shown when it left none (a refusal, a query).
    Before,
}

/// Why a step shows no screen.
#[derive(Clone, Debug)]
pub enum NoScreen {
    /// The call neither read nor changed the screen.
    NotRecorded { step: u64, tool: String },
    /// The step's dump is not in the recording's folder.
    Missing(Arc<RecordingError>),
    /// The step's dump is there but could not be read.
    Unreadable { dump: String },
    /// The step's dump was read but could not be loaded.
    Failed(Arc<ScreenError>),
}

impl fmt::Display for NoScreen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotRecorded { step, tool } => write!(
                f,
                "step {step} · {tool} recorded no screen: the call neither read nor changed it"
            ),
            Self::Missing(e) => write!(f, "{e}; the step has no screen to show"),
            Self::Unreadable { dump } => write!(f, "{dump} could not be read"),
            Self::Failed(e) => write!(f, "{e}; the step has no screen to show"),
        }
    }
}

/// The screen a step shows, as known from its log line and the folder.
#[derive(Clone, Debug)]
enum Shown {
    Screen { side: Side, screen: ScreenRef },
    None(NoScreen),
}

/// The screen of a step, loaded: the screen, or why there is none.
#[derive(Clone, Debug)]
pub enum StepScreen {
    Shown(Arc<Screen>),
    None(NoScreen),
}

impl StepScreen {
    pub fn screen(&self) -> Option<&Arc<Screen>> {
        match self {
            Self::Shown(screen) => Some(screen),
            Self::None(_) => None,
        }
    }
}

/// A step's forensics review, or why the recording could not be reviewed.
type Reviewed = Result<Review, Arc<RecordingError>>;

/// One recording, as read when it was opened (the views read it, never again from disk).
#[derive(Debug)]
pub struct Recording {
    /// The folder's name, for the title bar.
    pub name: String,
    pub recording: Arc<log::Recording>,
    /// Where it was read from: its folder, or its log.
    pub path: PathBuf,
    /// The log's length just before it was read: a longer log has grown since.
    pub read_len: u64,
    /// Per step, the screen it shows.
    shown: Vec<Shown>,
    screens: Arc<Screens>,
    /// Each step's forensics review and its screens before and after compared, by step
    /// index; kept when the recording is read again after it grew (a step's review and
    /// diff depend on it and earlier steps only). What a view that panicked left is an
    /// entry or none: both are fine to keep.
    reviews: Arc<Mutex<HashMap<usize, Reviewed>>>,
    diffs: Arc<Mutex<HashMap<usize, Arc<TreeDiff>>>>,
    /// Lines that could not be read and screen files that are missing or refused (files
    /// that are there but damaged are found when their step is shown).
    pub warnings: Vec<String>,
}

/// One step of a recording, as the step views show it.
#[derive(Clone, Copy, Debug)]
pub struct StepRef<'a> {
    pub recording: &'a Recording,
    /// The step's place in [`Recording::steps`] (0-based).
    pub index: usize,
    pub step: &'a Step,
    /// The screen shown; `None` when the step has none or its dump could not be read.
    pub shown: Option<Side>,
}

impl<'a> StepRef<'a> {
    /// Every step of the recording, in file order.
    pub fn steps(&self) -> &'a [Step] {
        self.recording.steps()
    }

    /// `step N/M`: the step's number and the recording's last.
    pub fn position(&self) -> String {
        let last = self.steps().iter().map(|s| s.step).max();
        format!("step {}/{}", self.step.step, last.unwrap_or(self.step.step))
    }

    /// The screen shown, as recorded.
    pub fn shown_screen(&self) -> Option<&'a ScreenRef> {
        match self.shown? {
            Side::After => self.step.after.as_ref(),
            Side::Before => self.step.before.as_ref(),
        }
    }

    /// What the step is called: `step N · tool`.
    pub fn name(&self) -> String {
        format!("step {} · {}", self.step.step, self.step.tool)
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

impl Recording {
    /// Reads the recording in `path`: its step log, and which screen files are there. A
    /// recording that cannot be read at all (another format or version, no steps) is an
    /// error. `earlier`, the same recording as read before it grew, lends what it loaded
    /// and worked out, so steps already shown are not read again.
    pub fn read(path: &Path, earlier: Option<&Recording>) -> Result<Self, OpenError> {
        let read_len = follow::log_len(path).unwrap_or(0);
        let recording = Arc::new(log::read(path)?);
        let name = folder_name(&recording.dir);
        let mut warnings: Vec<String> = recording
            .problems
            .iter()
            .map(|problem| format!("{name}: {problem}"))
            .collect();
        if recording.steps.is_empty() {
            return Err(OpenError::NoSteps {
                name,
                problems: warnings,
            });
        }
        let mut files = Files::default();
        let shown = recording
            .steps
            .iter()
            .map(|step| files.shown(&recording, step))
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
        warnings.extend(files.refused.iter().map(|why| format!("{name}: {why}")));
        let screens = Screens::new(Arc::clone(&recording), earlier.map(|e| &*e.screens));
        let (reviews, diffs) = match earlier {
            Some(e) => (Arc::clone(&e.reviews), Arc::clone(&e.diffs)),
            None => Default::default(),
        };
        Ok(Self {
            name,
            recording,
            path: path.to_path_buf(),
            read_len,
            shown,
            screens: Arc::new(screens),
            reviews,
            diffs,
            warnings,
        })
    }

    /// Every step, in file order.
    pub fn steps(&self) -> &[Step] {
        &self.recording.steps
    }

    /// Step `index`, when there is one.
    pub fn step(&self, index: usize) -> Option<StepRef<'_>> {
        let step = self.recording.steps.get(index)?;
        let shown = match self.shown.get(index)? {
            Shown::Screen { side, .. } => Some(*side),
            Shown::None(_) => None,
        };
        Some(StepRef {
            recording: self,
            index,
            step,
            shown,
        })
    }

    /// The first step that shows a screen: where a recording opens.
    pub fn first_with_screen(&self) -> Option<usize> {
        self.shown
            .iter()
            .position(|s| matches!(s, Shown::Screen { .. }))
    }

    /// The screen step `index` shows, loaded now unless it is cached.
    pub fn step_screen(&self, index: usize) -> StepScreen {
        match self.shown.get(index) {
            Some(Shown::Screen { screen, .. }) => match self.screens.get(screen) {
                Ok(loaded) => StepScreen::Shown(loaded),
                Err(e) => StepScreen::None(NoScreen::Failed(e)),
            },
            Some(Shown::None(why)) => StepScreen::None(why.clone()),
            None => StepScreen::None(NoScreen::NotRecorded {
                step: index as u64 + 1,
                tool: String::new(),
            }),
        }
    }

    /// Loads the screens of steps `indices` in the background, those not cached yet.
    pub fn prefetch(&self, indices: &[usize]) {
        let wanted = indices
            .iter()
            .filter_map(|&k| match self.shown.get(k)? {
                Shown::Screen { screen, .. } => Some(screen),
                Shown::None(_) => None,
            })
            .collect();
        self.screens.prefetch(wanted);
    }

    /// A screen of the recording, loaded once while it stays in the cache.
    pub fn screen(&self, screen: &ScreenRef) -> Loaded {
        self.screens.get(screen)
    }

    /// How many of the recording's screens are loaded and held in its cache (at most
    /// [`CACHE_SCREENS`]).
    pub fn screens_in_memory(&self) -> usize {
        self.screens.in_memory()
    }

    /// Whether `other` is this recording, perhaps read again after it grew: its earlier
    /// steps, and what was worked out from them, are the same.
    pub fn same_recording(&self, other: &Recording) -> bool {
        self.screens.same_recording(&other.screens)
    }

    /// The forensics review of step `index`, made once per step.
    pub fn review(&self, index: usize) -> Reviewed {
        self.reviews
            .lock()
            .entry(index)
            .or_insert_with(|| forensics::review(&self.recording, index).map_err(Arc::new))
            .clone()
    }

    /// Step `index`'s screens `before` and `after` compared, once per step.
    pub fn diff(&self, index: usize, before: &Screen, after: &Screen) -> Arc<TreeDiff> {
        let mut diffs = self.diffs.lock();
        let diff = diffs.entry(index).or_insert_with(|| {
            Arc::new(tree_diff(
                &before.inspection().pruned,
                &after.inspection().pruned,
            ))
        });
        Arc::clone(diff)
    }

    /// The latest screen of `version` recorded before step `index` (its own before-screen
    /// included), the screen after a step before the screen it acted on.
    pub fn find_screen(&self, index: usize, version: &str) -> Option<ScreenRef> {
        let steps = self.steps();
        let own = steps.get(index)?.before.iter();
        let earlier = steps[..index]
            .iter()
            .rev()
            .flat_map(|s| s.after.iter().chain(s.before.iter()));
        own.chain(earlier).find(|s| s.version == version).cloned()
    }
}

fn folder_name(dir: &Path) -> String {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Which screen files are there, each looked up once, as the recording reads them: a
/// path of the screen form naming a regular file inside `screens/`.
#[derive(Default)]
struct Files {
    there: HashMap<String, bool>,
    missing: BTreeSet<String>,
    /// Why the paths that are not missing yet cannot be read: not of the screen form, a
    /// link, a FIFO, a device, a file too large.
    refused: Vec<String>,
}

impl Files {
    /// The screen the step left, else the one it acted on; a screen whose dump is missing
    /// is none, with the reason.
    fn shown(&mut self, recording: &log::Recording, step: &Step) -> Shown {
        let screen = match (&step.after, &step.before) {
            (Some(after), _) => Some((Side::After, after)),
            (None, Some(before)) => Some((Side::Before, before)),
            (None, None) => None,
        };
        let Some((side, screen)) = screen else {
            return Shown::None(NoScreen::NotRecorded {
                step: step.step,
                tool: step.tool.clone(),
            });
        };
        if let Some(png) = &screen.screenshot {
            self.is_there(recording, png);
        }
        if self.is_there(recording, &screen.dump) {
            return Shown::Screen {
                side,
                screen: screen.clone(),
            };
        }
        Shown::None(match recording.load_bytes(&screen.dump) {
            Err(e) => NoScreen::Missing(Arc::new(e)),
            Ok(_) => NoScreen::Unreadable {
                dump: screen.dump.clone(),
            },
        })
    }

    fn is_there(&mut self, recording: &log::Recording, path: &str) -> bool {
        if let Some(&there) = self.there.get(path) {
            return there;
        }
        let there = match recording.screen_file(path) {
            Ok(_) => true,
            Err(RecordingError::ScreenMissing { .. }) => {
                self.missing.insert(path.to_owned());
                false
            }
            Err(refused) => {
                self.refused.push(refused.to_string());
                false
            }
        };
        self.there.insert(path.to_owned(), there);
        there
    }
}

#[cfg(test)]
mod tests {
    use tapscope_core::session::synthetic;

    use super::*;

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

        let earlier = Recording::read(growing.path(), None).expect("read");
        assert_eq!(earlier.steps().len(), 20);
        assert_eq!(earlier.screens_in_memory(), 0, "no screen loaded");
        let shown = earlier.first_with_screen().expect("a step with a screen");
        let loaded = earlier.step_screen(shown);
        assert!(matches!(loaded, StepScreen::Shown(_)), "{loaded:?}");

        std::fs::write(growing.path().join(SESSION_FILE), &log).expect("grown");
        let later = Recording::read(growing.path(), Some(&earlier)).expect("read again");
        assert_eq!(later.steps().len(), 40);
        assert!(later.same_recording(&earlier));
        assert_eq!(
            later.screens_in_memory(),
            1,
            "the screen shown before is kept"
        );

        let other = Recording::read(whole.path(), None).expect("read");
        assert!(!other.same_recording(&earlier));
        assert_eq!(other.screens_in_memory(), 0);
    }

    /// Opening probes every step's screen as the recording reads it: a dump that is a link
    /// or a FIFO is refused, said why, and never read (a FIFO would wait, a link to
    /// /dev/zero would never end).
    #[cfg(unix)]
    #[test]
    fn a_screen_that_is_a_link_or_a_fifo_is_refused_and_said_so() {
        let dir = tempfile::tempdir().expect("a folder");
        synthetic::write(dir.path(), 6, 3).expect("written");
        let read = log::read(dir.path()).expect("read");
        let (linked, piped) = {
            let mut dumps = read.steps.iter().filter_map(|s| s.after.as_ref());
            let first = dumps.next().expect("a screen").dump.clone();
            let other = dumps
                .find(|s| s.dump != first)
                .expect("another")
                .dump
                .clone();
            (first, other)
        };
        let (link, fifo) = (dir.path().join(&linked), dir.path().join(&piped));
        std::fs::remove_file(&link).expect("removed");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("linked");
        std::fs::remove_file(&fifo).expect("removed");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());

        let (done, opened) = std::sync::mpsc::channel();
        let path = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let _ = done.send(Recording::read(&path, None).map(|r| {
                let shown: Vec<StepScreen> =
                    (0..r.steps().len()).map(|k| r.step_screen(k)).collect();
                (r.warnings.clone(), shown)
            }));
        });
        let (warnings, shown) = opened
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("opening waits on nothing")
            .expect("the recording opens");
        for (file, found) in [(&link, "a symbolic link"), (&fifo, "a FIFO (named pipe)")] {
            let said = format!("{} is {found}", file.display());
            assert!(warnings.iter().any(|w| w.contains(&said)), "{warnings:?}");
        }
        let refused: Vec<String> = shown
            .iter()
            .filter_map(|s| match s {
                StepScreen::None(why @ NoScreen::Missing(_)) => Some(why.to_string()),
                _ => None,
            })
            .collect();
        assert!(
            refused
                .iter()
                .any(|w| w.contains(&linked) && w.contains("symbolic link")),
            "{refused:?}"
        );
    }
}
