//! The screens of one recording, in ONE bounded cache (least recently used out) that every
//! view reads: the step on show, the forensics thumbnails and the compare view. A screen is
//! loaded when first asked for (the dump read, checked and parsed, the screenshot decoded,
//! the pruned text the agent read), and a background thread fills the cache ahead with the
//! neighbouring steps.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use tapscope_core::inspect::Inspection;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::{Recording, RecordingError, ScreenRef};
use tapscope_core::tokens::Encoding;

use crate::gui::document::{Document, decode_png};
use crate::gui::error::{ScreenError, ScreenshotError};
use crate::gui::texture::upload_screenshot;

/// How many loaded screens a recording keeps: enough to step back and forth without
/// reloading, a few tens of megabytes with their screenshots.
pub const CACHE_SCREENS: usize = 32;

/// A screen as loaded, or why it could not be; shared by every view that shows it.
pub type Loaded = Result<Arc<Screen>, Arc<ScreenError>>;

/// A screen's dump, screenshot and version: the same files under the same version load
/// the same screen.
type Key = (String, Option<String>, String);
/// A screen being loaded or loaded; whoever asks while it loads waits for it.
type Slot = Arc<OnceLock<Loaded>>;

/// One recorded screen: the document under the version the agent read, its notes, and
/// what the replay views work out from it, each once.
pub struct Screen {
    pub document: Document,
    /// The pruned text the agent read, as stored, or why it cannot be read.
    pub pruned_text: Result<String, Arc<RecordingError>>,
    /// Pruned under the default rules, as the agent read it.
    inspection: OnceLock<Inspection>,
    texture: OnceLock<Option<egui::TextureHandle>>,
}

impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screen")
            .field("document", &self.document.name)
            .field("version", &self.document.version)
            .finish_non_exhaustive()
    }
}

impl Screen {
    /// The screen pruned the way the agent read it (the default rules).
    pub fn inspection(&self) -> &Inspection {
        self.inspection.get_or_init(|| {
            self.document
                .inspect(&PruneRules::default(), Encoding::O200k)
        })
    }

    /// The screenshot's texture, uploaded the first time it is drawn small.
    pub fn texture(&self, ctx: &egui::Context) -> Option<egui::TextureId> {
        let texture = self.texture.get_or_init(|| {
            let image = &self.document.screenshot.as_ref()?.image;
            Some(upload_screenshot(ctx, image, &self.document.name))
        });
        texture.as_ref().map(egui::TextureHandle::id)
    }
}

/// The loader and cache of one recording's screens.
pub(super) struct Screens {
    /// The recording, to read and check screen files.
    recording: Arc<Recording>,
    /// The encoding the recorded token counts were made with, when tapscope knows it.
    encoding: Option<Encoding>,
    /// Most recently used first, at most [`CACHE_SCREENS`]; shared with the loaders of the
    /// same recording read again after it grew (a written screen never changes). A load
    /// that panicked leaves no slot half-written: each is a `OnceLock`.
    slots: Arc<Mutex<VecDeque<(Key, Slot)>>>,
}

impl std::fmt::Debug for Screens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screens")
            .field("dir", &self.recording.dir)
            .field("in_memory", &self.in_memory())
            .finish_non_exhaustive()
    }
}

impl Screens {
    /// The loader of `recording`'s screens; `earlier`, the loader of the same recording
    /// read before it grew, lends its loaded screens.
    pub(super) fn new(recording: Arc<Recording>, earlier: Option<&Screens>) -> Self {
        let encoding = recording.header.encoding.parse().ok();
        let slots = earlier.map_or_else(
            || Arc::new(Mutex::new(VecDeque::with_capacity(CACHE_SCREENS + 1))),
            |earlier| Arc::clone(&earlier.slots),
        );
        Self {
            recording,
            encoding,
            slots,
        }
    }

    /// Whether `other` loads the same recording (perhaps read again after it grew).
    pub(super) fn same_recording(&self, other: &Screens) -> bool {
        Arc::ptr_eq(&self.slots, &other.slots)
    }

    /// `screen`, loaded now unless it is cached.
    pub(super) fn get(&self, screen: &ScreenRef) -> Loaded {
        let (slot, _) = self.slot(screen);
        slot.get_or_init(|| self.load(screen)).clone()
    }

    /// Loads `screens` on a background thread, those not cached yet.
    pub(super) fn prefetch(self: &Arc<Self>, screens: Vec<&ScreenRef>) {
        let wanted: Vec<(ScreenRef, Slot)> = screens
            .into_iter()
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
        self.slots
            .lock()
            .iter()
            .filter(|(_, s)| s.get().is_some())
            .count()
    }

    /// The slot of `screen`, made the most recently used; `true` when it is new. The least
    /// recently used slot beyond [`CACHE_SCREENS`] is dropped with its screen.
    fn slot(&self, screen: &ScreenRef) -> (Slot, bool) {
        let key = (
            screen.dump.clone(),
            screen.screenshot.clone(),
            screen.version.clone(),
        );
        let mut slots = self.slots.lock();
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

    /// Reads and checks the screen's files, parses the dump and decodes the screenshot;
    /// a screenshot that cannot be shown leaves a note and a wireframe.
    fn load(&self, screen: &ScreenRef) -> Loaded {
        let dump = self
            .recording
            .load_bytes(&screen.dump)
            .map_err(|e| Arc::new(ScreenError::Dump(e)))?;
        let image = screen.screenshot.as_deref().map(|png| self.image(png));
        let (screenshot, note) = match image {
            None => (None, None),
            Some(Ok(image)) => (Some(Ok(Arc::new(image))), None),
            Some(Err(why)) => (None, Some(format!("{why}; showing a wireframe"))),
        };
        let path = self.recording.dir.join(&screen.dump);
        let tokens = self
            .encoding
            .map(|encoding| (encoding, screen.raw_tokens as usize));
        let read = self
            .recording
            .load_pixel_text(screen)
            .map_err(|e| Arc::new(ScreenError::Dump(e)))?;
        let mut document =
            Document::with_raw_tokens(screen.dump.clone(), Some(path), &dump, screenshot, tokens)
                .map_err(|e| Arc::new(ScreenError::Parse(e)))?
                .with_pixel_text(read);
        // The handles shown are the ones the agent read.
        document.version.clone_from(&screen.version);
        let warnings = std::mem::take(&mut document.warnings);
        document
            .screen_notes
            .extend(note.into_iter().chain(warnings));
        Ok(Arc::new(Screen {
            pruned_text: self.recording.load_text(&screen.pruned).map_err(Arc::new),
            document,
            inspection: OnceLock::new(),
            texture: OnceLock::new(),
        }))
    }

    fn image(&self, path: &str) -> Result<egui::ColorImage, ScreenshotError> {
        let bytes = self
            .recording
            .load_bytes(path)
            .map_err(ScreenshotError::Recorded)?;
        decode_png(path, &bytes)
    }
}
