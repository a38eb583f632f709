//! The screens of one recording, loaded when a step shows them: the dump read, checked and
//! parsed, the screenshot decoded, in a bounded cache (least recently used out) that a
//! background thread fills ahead with the neighbouring steps.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use tapscope_core::recording::{Recording, ScreenRef};
use tapscope_core::tokens::Encoding;

use crate::gui::document::{Document, decode_png};

/// How many loaded screens a recording keeps: enough to step back and forth without
/// reloading, a few tens of megabytes with their screenshots.
pub const CACHE_SCREENS: usize = 32;

/// A screen's dump and screenshot paths: the same files load the same document.
type Key = (String, Option<String>);
/// A screen being loaded or loaded; whoever asks while it loads waits for it.
type Slot = Arc<OnceLock<Result<Document, String>>>;

/// The loader and cache of one recording's screens.
pub(super) struct Screens {
    /// The recording, to read and check screen files.
    recording: Arc<Recording>,
    /// Per step, the screen it shows; `None` when it shows none.
    shown: Vec<Option<ScreenRef>>,
    /// The encoding the recorded token counts were made with, when tapscope knows it.
    encoding: Option<Encoding>,
    /// Most recently used first, at most [`CACHE_SCREENS`]; shared with the loaders of the
    /// same recording read again after it grew (a written screen never changes).
    slots: Arc<Mutex<VecDeque<(Key, Slot)>>>,
}

impl std::fmt::Debug for Screens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screens")
            .field("dir", &self.recording.dir)
            .field("steps", &self.shown.len())
            .field("in_memory", &self.in_memory())
            .finish_non_exhaustive()
    }
}

impl Screens {
    /// `shown` has one entry per step of `recording`; `earlier`, the loader of the same
    /// recording read before it grew, lends its loaded screens.
    pub(super) fn new(
        recording: Arc<Recording>,
        shown: Vec<Option<ScreenRef>>,
        earlier: Option<&Screens>,
    ) -> Self {
        let encoding = recording.header.encoding.parse().ok();
        let slots = earlier.map_or_else(
            || Arc::new(Mutex::new(VecDeque::with_capacity(CACHE_SCREENS + 1))),
            |earlier| Arc::clone(&earlier.slots),
        );
        Self {
            recording,
            shown,
            encoding,
            slots,
        }
    }

    /// Whether `other` loads the same recording (perhaps read again after it grew).
    pub(super) fn same_recording(&self, other: &Screens) -> bool {
        Arc::ptr_eq(&self.slots, &other.slots)
    }

    /// The screen step `index` shows, as a document under the step's version (so its
    /// handles are the ones the agent read); loaded now unless it is cached. `None` when
    /// the step shows no screen.
    pub(super) fn document(&self, index: usize) -> Option<Result<Document, String>> {
        let screen = self.shown.get(index)?.as_ref()?;
        let (slot, _) = self.slot(screen);
        let loaded = slot.get_or_init(|| self.load(screen)).clone();
        Some(loaded.map(|mut document| {
            // The same files can come back under a later version (a screen that did not change).
            document.version.clone_from(&screen.version);
            document
        }))
    }

    /// Loads the screens of steps `indices` on a background thread, those not cached yet.
    pub(super) fn prefetch(self: &Arc<Self>, indices: &[usize]) {
        let wanted: Vec<(ScreenRef, Slot)> = indices
            .iter()
            .filter_map(|&index| self.shown.get(index)?.as_ref())
            .filter_map(|screen| match self.slot(screen) {
                (slot, true) => Some((screen.clone(), slot)),
                (_, false) => None,
            })
            .collect();
        if wanted.is_empty() {
            return;
        }
        let screens = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("tapscope screen prefetch".into())
            .spawn(move || {
                for (screen, slot) in wanted {
                    slot.get_or_init(|| screens.load(&screen));
                }
            });
        // Without a thread the screens still load, when shown.
        drop(spawned);
    }

    /// How many screens are loaded and held.
    pub(super) fn in_memory(&self) -> usize {
        self.lock()
            .iter()
            .filter(|(_, s)| s.get().is_some())
            .count()
    }

    /// The slot of `screen`, made the most recently used; `true` when it is new. The least
    /// recently used slot beyond [`CACHE_SCREENS`] is dropped with its document.
    fn slot(&self, screen: &ScreenRef) -> (Slot, bool) {
        let key = (screen.dump.clone(), screen.screenshot.clone());
        let mut slots = self.lock();
        if let Some(at) = slots.iter().position(|(k, _)| *k == key) {
            let found = slots
                .remove(at)
                .unwrap_or_else(|| unreachable!("found above"));
            let slot = Arc::clone(&found.1);
            slots.push_front(found);
            return (slot, false);
        }
        let slot = Slot::default();
        slots.push_front((key, Arc::clone(&slot)));
        slots.truncate(CACHE_SCREENS);
        (slot, true)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(Key, Slot)>> {
        // A load that panicked leaves no slot half-written: each is a `OnceLock`.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads and checks the screen's files, parses the dump and decodes the screenshot;
    /// a screenshot that cannot be shown leaves a note and a wireframe.
    fn load(&self, screen: &ScreenRef) -> Result<Document, String> {
        let no_screen = |e: String| format!("{e}; the step has no screen to show");
        let dump = self
            .recording
            .load_bytes(&screen.dump)
            .map_err(|e| no_screen(e.to_string()))?;
        let (screenshot, note) = match screen.screenshot.as_deref().map(|png| self.image(png)) {
            None => (None, None),
            Some(Ok(image)) => (Some(Ok(Arc::new(image))), None),
            Some(Err(why)) => (None, Some(format!("{why}; showing a wireframe"))),
        };
        let path = self.recording.dir.join(&screen.dump);
        let tokens = self
            .encoding
            .map(|encoding| (encoding, screen.raw_tokens as usize));
        let mut document =
            Document::with_raw_tokens(screen.dump.clone(), Some(path), &dump, screenshot, tokens)
                .map_err(no_screen)?;
        let warnings = std::mem::take(&mut document.warnings);
        document
            .screen_notes
            .extend(note.into_iter().chain(warnings));
        Ok(document)
    }

    fn image(&self, path: &str) -> Result<egui::ColorImage, String> {
        let bytes = self.recording.load_bytes(path).map_err(|e| e.to_string())?;
        decode_png(&bytes).map_err(|e| format!("{path} is not a readable PNG ({e})"))
    }
}
