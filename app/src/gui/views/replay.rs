//! What the replay views (timeline, forensics, compare) share about the open recording (as
//! read when it was opened): each step's forensics review and each screen loaded, cached.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use tapscope_core::forensics::{self, Review};
use tapscope_core::inspect::Inspection;
use tapscope_core::inspect::tree_diff::{TreeDiff, tree_diff};
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::{Recording, ScreenRef};
use tapscope_core::tokens::Encoding;

use super::screen::upload_screenshot;
use super::timeline::Timeline;
use crate::gui::document::{Document, decode_png};
use crate::gui::recording::{CACHE_SCREENS, RecordingInfo, StepInfo};

/// The replay views' choices and caches; one per workbench.
#[derive(Default)]
pub struct Replay {
    pub timeline: Timeline,
    /// The central area compares the step's screens instead of inspecting one.
    pub compare: bool,
    loaded: Option<Loaded>,
}

impl std::fmt::Debug for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replay")
            .field("timeline", &self.timeline)
            .field("compare", &self.compare)
            .finish_non_exhaustive()
    }
}

/// The caches of one recording.
struct Loaded {
    of: Arc<RecordingInfo>,
    reviews: HashMap<usize, Result<Review, String>>,
    screens: HashMap<(String, Option<String>), Result<Arc<Screen>, String>>,
    /// Each step's screens before and after compared, by step index.
    diffs: HashMap<usize, Arc<TreeDiff>>,
}

/// One recorded screen, loaded and pruned the way the agent read it.
pub struct Screen {
    pub document: Document,
    pub inspection: Inspection,
    /// The pruned text the agent read, as stored, or why it cannot be read.
    pub pruned_text: Result<String, String>,
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
    /// The screenshot's texture, uploaded the first time it is drawn.
    pub fn texture(&self, ctx: &egui::Context) -> Option<egui::TextureId> {
        let texture = self.texture.get_or_init(|| {
            let image = &self.document.screenshot.as_ref()?.image;
            Some(upload_screenshot(ctx, image, &self.document.name))
        });
        texture.as_ref().map(egui::TextureHandle::id)
    }
}

impl Replay {
    /// The forensics review of `info`'s step, made once per step.
    pub fn review(&mut self, info: &StepInfo) -> Result<Review, String> {
        let recording = &info.recording.recording;
        loaded(&mut self.loaded, info)
            .reviews
            .entry(info.index)
            .or_insert_with(|| forensics::review(recording, info.index).map_err(|e| e.to_string()))
            .clone()
    }

    /// A screen of `info`'s recording, loaded and pruned once; the cache starts over when it
    /// holds [`CACHE_SCREENS`] (each holds a parsed tree and a texture).
    pub fn screen(&mut self, info: &StepInfo, screen: &ScreenRef) -> Result<Arc<Screen>, String> {
        let recording = &info.recording.recording;
        let loaded = loaded(&mut self.loaded, info);
        let key = (screen.dump.clone(), screen.screenshot.clone());
        if loaded.screens.len() >= CACHE_SCREENS && !loaded.screens.contains_key(&key) {
            loaded.screens.clear();
        }
        loaded
            .screens
            .entry(key)
            .or_insert_with(|| load(recording, screen).map(Arc::new))
            .clone()
    }

    /// `info`'s step's screens `before` and `after` compared, once per step.
    pub fn diff(&mut self, info: &StepInfo, before: &Screen, after: &Screen) -> Arc<TreeDiff> {
        let loaded = loaded(&mut self.loaded, info);
        let diff = loaded.diffs.entry(info.index).or_insert_with(|| {
            Arc::new(tree_diff(
                &before.inspection.pruned,
                &after.inspection.pruned,
            ))
        });
        Arc::clone(diff)
    }

    /// The latest screen of `version` recorded before `info`'s step (its own before-screen
    /// included), the screen after a step before the screen it acted on.
    pub fn find_screen(&self, info: &StepInfo, version: &str) -> Option<ScreenRef> {
        let steps = info.steps();
        let own = steps.get(info.index)?.before.iter();
        let earlier = steps[..info.index]
            .iter()
            .rev()
            .flat_map(|s| s.after.iter().chain(s.before.iter()));
        own.chain(earlier).find(|s| s.version == version).cloned()
    }
}

/// The caches of `info`'s recording, started afresh when another recording is shown (not
/// when the same one grew: a step's review, screens and diff depend on it and earlier steps).
fn loaded<'a>(slot: &'a mut Option<Loaded>, info: &StepInfo) -> &'a mut Loaded {
    let loaded = match slot.take() {
        Some(loaded) if loaded.of.same_recording(&info.recording) => loaded,
        _ => Loaded {
            of: Arc::clone(&info.recording),
            reviews: HashMap::new(),
            screens: HashMap::new(),
            diffs: HashMap::new(),
        },
    };
    slot.insert(loaded)
}

/// Reads a screen's dump, screenshot and pruned text; a missing dump is the error, a
/// missing screenshot a warning on the document (drawn as a wireframe).
fn load(recording: &Recording, screen: &ScreenRef) -> Result<Screen, String> {
    let dump = recording
        .load_bytes(&screen.dump)
        .map_err(|e| e.to_string())?;
    let screenshot = screen.screenshot.as_ref().map(|png| {
        recording
            .load_bytes(png)
            .map_err(|e| e.to_string())
            .and_then(|bytes| decode_png(&bytes))
            .map(Arc::new)
    });
    let mut document = Document::with_screenshot(screen.dump.clone(), None, &dump, screenshot)?;
    document.version = screen.version.clone();
    let raw = document.raw_size(Encoding::O200k);
    let inspection = Inspection::new(
        &document.tree,
        &PruneRules::default(),
        &document.version,
        raw,
    );
    Ok(Screen {
        pruned_text: recording
            .load_text(&screen.pruned)
            .map_err(|e| e.to_string()),
        document,
        inspection,
        texture: OnceLock::new(),
    })
}
