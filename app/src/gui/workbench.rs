//! The workbench: what is open (dumps, recordings, comparisons, the live phone's screen),
//! the settings a person chose, and each frame: first what changed (loading, keys, live
//! news, the screen on show and its analysis), then the layout of the panes.

use std::path::PathBuf;
use std::sync::Arc;

use poll_promise::Promise;
use tapscope_core::tokens::Encoding;

use super::compared::Compared;
use super::comparison::Comparison;
use super::context::{Analysis, Settings, ShownId, ViewContext};
use super::document::Document;
use super::error::OpenError;
use super::live::{LiveNews, LiveState, panel};
use super::on_step::OnStep;
use super::open::{self, Loaded, Opening};
use super::opened::{self, Opened, step_on_show};
use super::recording::{Follow, Following, Recording, StepRef};
use super::selection::Selection;
use super::views::timeline::{self, Strip};
use super::views::{banner, compare, details, open_list, pruned, raw, rules, runs, screen};
use super::views::{stats, step};

/// The whole workbench; [`Workbench::ui`] draws it into any `Ui` (the window, or a test).
pub struct Workbench {
    /// What a person chose, kept across what is open.
    pub settings: Settings,
    pub opened: Vec<Opened>,
    pub current: usize,
    /// The screen on show pruned, worked out again when it or the settings change.
    pub analysis: Option<Analysis>,
    pub selection: Selection,
    pub banner: banner::Banner,
    // Each pane's own state.
    pub screen: screen::ScreenState,
    pub raw: raw::RawState,
    pub rules_panel: rules::RulesState,
    pub step_panel: step::StepState,
    pub timeline: timeline::Timeline,
    loading: Option<(PathBuf, Promise<Loaded>)>,
    /// A recording opened before its first step was written: followed until it has one.
    waiting: Option<Waiting>,
    /// Live mode: a phone on show, taken over, served to agents.
    pub live: LiveState,
}

impl std::fmt::Debug for Workbench {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workbench")
            .field("opened", &self.opened.len())
            .field("current", &self.current)
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl Default for Workbench {
    fn default() -> Self {
        Self::new()
    }
}

/// The step the timeline is drawn around: the one on show, or on the live screen the
/// latest step of its recording.
fn timeline_step<'a>(
    opened: &'a [Opened],
    current: usize,
    live: &LiveState,
) -> Option<StepRef<'a>> {
    step_on_show(opened, current).or_else(|| {
        let steps = live
            .steps_at()
            .filter(|_| live.screen_at() == Some(current))?;
        match opened.get(steps)? {
            Opened::Recording(on) => {
                let recording = &on.recording;
                recording.step(recording.steps().len().checked_sub(1)?)
            }
            Opened::Dump(_) | Opened::Live(_) | Opened::Comparison(_) => None,
        }
    })
}

/// What the timeline draws: a comparison's rows, or the steps around [`timeline_step`].
fn strip<'a>(opened: &'a [Opened], current: usize, live: &LiveState) -> Option<Strip<'a>> {
    match opened.get(current) {
        Some(Opened::Comparison(compared)) => compared.row().map(Strip::Rows),
        _ => timeline_step(opened, current, live).map(Strip::Steps),
    }
}

impl Workbench {
    pub fn new() -> Self {
        Self {
            settings: Settings::default(),
            opened: Vec::new(),
            current: 0,
            analysis: None,
            selection: Selection::default(),
            banner: banner::Banner::default(),
            screen: screen::ScreenState::default(),
            raw: raw::RawState::default(),
            rules_panel: rules::RulesState::default(),
            step_panel: step::StepState::default(),
            timeline: timeline::Timeline::default(),
            loading: None,
            waiting: None,
            live: LiveState::default(),
        }
    }

    // ---- what is open ----

    /// Opens dumps loaded elsewhere (a test, a sample compiled in) at once.
    pub fn add_documents(&mut self, documents: Vec<Document>) {
        for document in &documents {
            self.banner.warn_all(&document.warnings);
        }
        if !documents.is_empty() {
            self.current = self.opened.len();
            self.opened.extend(documents.into_iter().map(Opened::Dump));
            self.on_new_item();
        }
    }

    /// Opens a recording read elsewhere, on its first step with a screen; it is read again
    /// whenever its log grows.
    pub fn add_recording(&mut self, recording: Arc<Recording>) {
        self.banner.warn_all(&recording.warnings);
        let first = recording.first_with_screen().unwrap_or(0);
        let mut on = OnStep::opened(recording, first);
        on.show(first);
        self.current = self.opened.len();
        self.opened.push(Opened::Recording(on));
        self.on_new_item();
    }

    /// Opens a run beside its original, on the run's first step with a screen, the two
    /// compared in the central area.
    pub fn add_comparison(&mut self, comparison: Arc<Comparison>) {
        self.banner.warn_all(&comparison.original.warnings);
        self.banner.warn_all(&comparison.run.warnings);
        let first = comparison.run.first_with_screen().unwrap_or(0);
        self.current = self.opened.len();
        self.opened
            .push(Opened::Comparison(Compared::new(comparison, first)));
        self.settings.compare = true;
        self.on_new_item();
    }

    fn on_new_item(&mut self) {
        self.selection = Selection::default();
        self.raw.clear_search();
        self.screen.reset_view();
    }

    /// The screen on show, when there is one.
    pub fn document(&self) -> Option<&Document> {
        self.opened.get(self.current)?.document()
    }

    /// The recording on show (of a comparison, the run), when one is.
    pub fn recording(&self) -> Option<&Recording> {
        match self.opened.get(self.current)? {
            Opened::Recording(on) => Some(&on.recording),
            Opened::Comparison(compared) => Some(&compared.comparison.run),
            Opened::Dump(_) | Opened::Live(_) => None,
        }
    }

    /// The recorded step on show, when a recording is.
    pub fn step(&self) -> Option<StepRef<'_>> {
        step_on_show(&self.opened, self.current)
    }

    /// The step the timeline is drawn around: the one on show, or on the live screen the
    /// latest step of its recording.
    pub fn timeline_step(&self) -> Option<StepRef<'_>> {
        timeline_step(&self.opened, self.current, &self.live)
    }

    /// The window title: what is open, and for a recording which step.
    pub fn title(&self) -> String {
        if let Some(step) = self.step() {
            return format!(
                "tapscope — {} — {} · {}",
                step.recording.name,
                step.position(),
                step.step.tool
            );
        }
        match self.document() {
            Some(document) => match &document.path {
                Some(path) => format!("tapscope — {}", path.display()),
                None => format!("tapscope — {}", document.name),
            },
            None => "tapscope".to_owned(),
        }
    }

    /// Shows the step at `index` (0-based) of the timeline's recording or comparison.
    pub fn go_to_step(&mut self, index: usize) {
        let target = match self.opened.get(self.current) {
            Some(Opened::Recording(_) | Opened::Comparison(_)) => Some(self.current),
            _ => self
                .live
                .steps_at()
                .filter(|_| self.live.screen_at() == Some(self.current)),
        };
        // Its screen loads now, so the rest of this frame draws it whole.
        let shown = target
            .and_then(|t| self.opened.get_mut(t))
            .map(|o| o.go_to(index));
        if shown != Some(true) {
            return;
        }
        self.current = target.unwrap_or(self.current);
        self.selection = Selection::default();
        self.refresh_analysis();
    }

    fn step_by(&mut self, forward: bool) {
        let Some(index) = self.step().map(|step| step.index) else {
            return;
        };
        let target = if forward {
            index.checked_add(1)
        } else {
            index.checked_sub(1)
        };
        if let Some(target) = target {
            self.go_to_step(target);
        }
    }

    /// Which screen is on show, for the analysis to know when to start over.
    fn shown_id(&self) -> ShownId {
        (self.current, self.step().map(|step| step.index))
    }

    /// Re-prunes when the screen on show, the rules or the encoding changed.
    fn refresh_analysis(&mut self) {
        let shown = self.shown_id();
        match self.opened.get(self.current).and_then(Opened::document) {
            Some(document) => {
                Analysis::refresh(&mut self.analysis, shown, document, &self.settings)
            }
            None => self.analysis = None,
        }
    }

    // ---- opening ----

    /// Starts loading `path` on a background thread; the UI keeps running meanwhile.
    /// A recording (a folder with `session.jsonl`, or the file) opens as a recording, or
    /// beside the recording it replays when its header names one.
    pub fn open(&mut self, path: PathBuf, ctx: &egui::Context) {
        self.open_against(path, None, ctx);
    }

    /// Opens `path` as [`Workbench::open`] does, a recording compared with `against`.
    pub fn open_against(&mut self, path: PathBuf, against: Option<PathBuf>, ctx: &egui::Context) {
        let ctx = ctx.clone();
        let opening = path.clone();
        let promise = Promise::spawn_thread("open dump", move || {
            let loaded = open::load_against(&opening, against.as_deref());
            ctx.request_repaint();
            loaded
        });
        self.loading = Some((path, promise));
    }

    /// Waits for what [`Workbench::open`] is loading and opens it (tests, scripted use).
    pub fn finish_loading(&mut self) {
        if let Some((path, promise)) = self.loading.take() {
            self.opened_now(path, promise.block_and_take());
        }
    }

    /// The recording opened before its first step was written, which opens with it.
    pub fn waiting_for(&self) -> Option<&str> {
        Some(&self.waiting.as_ref()?.name)
    }

    /// Whether a file is still being opened in the background.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    fn poll_loading(&mut self) {
        let Some((path, promise)) = self.loading.take() else {
            return;
        };
        match promise.try_take() {
            Err(promise) => self.loading = Some((path, promise)),
            Ok(loaded) => self.opened_now(path, loaded),
        }
    }

    fn opened_now(&mut self, path: PathBuf, loaded: Loaded) {
        match loaded {
            Ok(Opening::Dumps(documents, errors)) => {
                for error in errors {
                    self.banner.error(error.to_string());
                }
                self.add_documents(documents);
            }
            Ok(Opening::Recording(recording)) => self.add_recording(recording),
            Ok(Opening::Comparison(comparison)) => self.add_comparison(comparison),
            Ok(Opening::RunAlone(run, why)) => {
                self.banner.error(why.to_string());
                self.add_recording(run);
            }
            // Only its header yet (a proxy just started): it opens with its first step.
            Err(OpenError::NoSteps { name, problems }) if problems.is_empty() => {
                let following = Following::new(Follow::from_start(path.clone()));
                self.waiting = Some(Waiting {
                    path,
                    name,
                    following,
                });
            }
            Err(error) => self.banner.error(error.to_string()),
        }
    }

    /// Opens the recording waited for once its first step is written.
    fn poll_waiting(&mut self, ctx: &egui::Context) {
        let Some(waiting) = &mut self.waiting else {
            return;
        };
        match waiting.following.news(ctx) {
            None | Some(Err(OpenError::NoSteps { .. })) => {}
            // Opened again as any recording is: it may be a replay, beside its original.
            Some(Ok(_)) => {
                let path = waiting.path.clone();
                self.waiting = None;
                self.open(path, ctx);
            }
            Some(Err(why)) => {
                self.waiting = None;
                self.banner.error(why.to_string());
            }
        }
    }

    fn open_dialog(&mut self, ctx: &egui::Context) {
        if let Some(path) = open::pick_file() {
            self.open(path, ctx);
        }
    }

    fn open_folder_dialog(&mut self, ctx: &egui::Context) {
        if let Some(path) = open::pick_folder() {
            self.open(path, ctx);
        }
    }

    // ---- live mode ----

    /// Live mode's news: the phone's updates, and the person's gesture on its screen.
    /// Called each frame before the screen on show is analysed.
    pub fn live_frame(&mut self) {
        for news in self.live.poll() {
            match news {
                LiveNews::Screen(document) => self.show_live(*document),
                LiveNews::Steps(recording) => self.show_live_steps(recording),
            }
        }
        let on_live = self.live.screen_at() == Some(self.current);
        self.screen.touch = on_live && self.live.can_act();
        if let Some(gesture) = self.screen.gesture.take().filter(|_| self.screen.touch) {
            self.live.touch(gesture);
        }
    }

    /// Puts the live screen in place of the last one, and on show.
    fn show_live(&mut self, document: Document) {
        let slot = self.live.screen_at().filter(
            |&i| matches!(self.opened.get(i), Some(Opened::Live(d)) if d.name == document.name),
        );
        let index = match slot {
            Some(i) => {
                self.opened[i] = Opened::Live(document);
                i
            }
            None => {
                self.opened.push(Opened::Live(document));
                self.screen.reset_view();
                self.opened.len() - 1
            }
        };
        self.live.shown_at(Some(index), self.live.steps_at());
        // A person looking at something else stays there.
        if slot.is_none() || self.current == index {
            self.current = index;
            // Node ids and the pruned lines belong to the old screen.
            self.analysis = None;
            self.selection = Selection::default();
        }
    }

    /// Shows the live recording, read again, in place of the one shown before. A person on
    /// its last step follows the new last one; one on an earlier step, or on something
    /// else, stays where they are.
    fn show_live_steps(&mut self, recording: Arc<Recording>) {
        if recording.steps().is_empty() {
            return;
        }
        let last = recording.steps().len() - 1;
        let at = self.live.steps_at();
        let Some(Opened::Recording(on)) = at.and_then(|at| self.opened.get_mut(at)) else {
            // The first steps: shown after what is open, the live screen staying on show.
            self.opened
                .push(Opened::Recording(OnStep::new(recording, last)));
            self.live
                .shown_at(self.live.screen_at(), Some(self.opened.len() - 1));
            return;
        };
        let on_it = at == Some(self.current);
        let following = on_it && on.at + 1 == on.recording.steps().len();
        let step = if following { last } else { on.at.min(last) };
        let mut grown = on.grown(recording, step);
        if on_it {
            grown.show(step);
        }
        *on = grown;
        // Only a move to the new last step makes the selection another screen's.
        if following {
            self.selection = Selection::default();
        }
    }

    /// Recordings opened from disk, read again when they grew: each stays on its step.
    fn follow_recordings(&mut self, ctx: &egui::Context) {
        for item in &mut self.opened {
            if let Err(why) = item.follow(ctx) {
                self.banner.error(why.to_string());
            }
        }
    }

    // ---- each frame ----

    /// Draws the whole workbench: what changed first, then the panes.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.update(ui);
        self.layout(ui);
    }

    /// What changed since the last frame: files opened, keys, live news, and the screen
    /// on show loaded and analysed, so the layout draws it whole.
    fn update(&mut self, ui: &egui::Ui) {
        self.poll_loading();
        for path in open::dropped(ui.ctx()) {
            self.open(path, ui.ctx());
        }
        self.handle_keys(ui);
        // Live news and grown recordings can replace the screen on show: it loads in this
        // same frame.
        self.live_frame();
        self.follow_recordings(ui.ctx());
        self.poll_waiting(ui.ctx());
        if let Some(item) = self.opened.get_mut(self.current) {
            item.show_again();
        }
        self.refresh_analysis();
        self.selection.new_frame();
    }

    fn handle_keys(&mut self, ui: &egui::Ui) {
        let on = strip(&self.opened, self.current, &self.live);
        if let Some(index) = on.and_then(|s| timeline::timeline_keys(ui, s, &self.timeline)) {
            self.go_to_step(index);
        }
        let typing = ui.ctx().egui_wants_keyboard_input();
        let (open, folder, escape, slash, arrows) = ui.input(|i| {
            let arrows: Vec<egui::Key> = [
                egui::Key::ArrowUp,
                egui::Key::ArrowDown,
                egui::Key::ArrowLeft,
                egui::Key::ArrowRight,
            ]
            .into_iter()
            .filter(|k| i.key_pressed(*k))
            .collect();
            let open = i.modifiers.command && i.key_pressed(egui::Key::O);
            (
                open && !i.modifiers.shift,
                open && i.modifiers.shift,
                i.key_pressed(egui::Key::Escape),
                i.key_pressed(egui::Key::Slash),
                arrows,
            )
        });
        if open {
            self.open_dialog(ui.ctx());
        }
        if folder {
            self.open_folder_dialog(ui.ctx());
        }
        if escape {
            self.selection.select(None);
            self.raw.clear_search();
        }
        if typing {
            return;
        }
        if slash {
            self.raw.focus_search = true;
        }
        for key in arrows {
            // In a recording, ← and → step through it; ↑ and ↓ still walk the tree.
            match key {
                egui::Key::ArrowLeft | egui::Key::ArrowRight if self.step().is_some() => {
                    self.step_by(key == egui::Key::ArrowRight);
                }
                _ => {
                    if let Some(document) = self.document() {
                        let tree = document.tree.clone();
                        self.selection.step(&tree, key);
                    }
                }
            }
        }
    }

    /// The panes, around the screen on show.
    fn layout(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        if self.live.shown {
            egui::Panel::right("live")
                .resizable(true)
                .default_size(280.0)
                .show(ui, |ui| panel::panel_ui(ui, &mut self.live));
        }
        if let Some(go) = self.recording_panels_ui(ui) {
            self.go_to_step(go);
        }
        if let Some(go) = self.screen_panes_ui(ui) {
            self.go_to_step(go);
        }
        self.selection.reveal = false;
    }

    /// The stats bar and the banner above, the step panel and the timeline below; returns
    /// the step a person asked for.
    fn recording_panels_ui(&mut self, ui: &mut egui::Ui) -> Option<usize> {
        let Self {
            opened,
            current,
            analysis,
            selection,
            settings,
            banner,
            step_panel,
            timeline,
            live,
            ..
        } = self;
        let document = opened.get(*current).and_then(Opened::document);
        let on_step = step_on_show(opened, *current);
        if let (Some(document), Some(analysis)) = (document, analysis.as_ref()) {
            let name = on_step.map_or_else(|| document.name.clone(), |s| s.name());
            let mut ctx = ViewContext {
                settings,
                document,
                name: &name,
                analysis,
                selection,
            };
            egui::Panel::top("stats").show(ui, |ui| stats::stats_ui(ui, &mut ctx));
        }
        if !banner.is_empty() {
            egui::Panel::top("banner").show(ui, |ui| banner::banner_ui(ui, banner));
        }
        let go = on_step.and_then(|info| {
            egui::Panel::bottom("step")
                .resizable(true)
                .default_size(250.0)
                .show(ui, |ui| step::step_ui(ui, info, step_panel))
                .inner
        });
        let scrub = strip(opened, *current, live).and_then(|on| {
            egui::Panel::bottom("timeline")
                .show(ui, |ui| {
                    timeline::timeline_ui(ui, on, timeline, &mut settings.compare)
                })
                .inner
        });
        go.or(scrub)
    }

    /// The central area: the step's screens compared, or the screen on show in every
    /// pane, or what there is instead; returns the step a person asked for.
    fn screen_panes_ui(&mut self, ui: &mut egui::Ui) -> Option<usize> {
        let Self {
            opened,
            current,
            analysis,
            selection,
            settings,
            banner,
            screen,
            raw,
            rules_panel,
            loading,
            waiting,
            live,
            ..
        } = self;
        let on_step = step_on_show(opened, *current);
        let item = opened.get(*current);
        if settings.compare {
            let central = egui::CentralPanel::default();
            if let Some(Opened::Comparison(compared)) = item {
                central.show(ui, |ui| compared.row().map(|row| runs::runs_ui(ui, row)));
                return None;
            }
            if let Some(info) = on_step {
                central.show(ui, |ui| compare::compare_ui(ui, info));
                return None;
            }
        }
        let (Some(document), Some(analysis)) = (item.and_then(Opened::document), analysis.as_ref())
        else {
            egui::CentralPanel::default().show(ui, |ui| {
                empty_ui(ui, item, loading.as_ref(), waiting.as_ref())
            });
            return None;
        };
        // The recording the timeline shows: the one on show, or the live one.
        let recording = on_step
            .or_else(|| timeline_step(opened, *current, live))
            .map(|info| &info.recording.recording);
        let go = settings.show_rules.then(|| {
            egui::Panel::left("rules")
                .resizable(true)
                .default_size(270.0)
                .show(ui, |ui| {
                    rules::rules_ui(
                        ui,
                        settings,
                        analysis,
                        rules_panel,
                        banner,
                        selection,
                        recording,
                    )
                })
                .inner
        });
        let name = on_step.map_or_else(|| document.name.clone(), |s| s.name());
        let mut ctx = ViewContext {
            settings,
            document,
            name: &name,
            analysis,
            selection,
        };
        egui::Panel::left("screen")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| screen::screen_ui(ui, &mut ctx, screen));
        egui::Panel::bottom("details")
            .resizable(true)
            .default_size(230.0)
            .show(ui, |ui| details::details_ui(ui, &ctx));
        egui::Panel::right("pruned")
            .resizable(true)
            .default_size(460.0)
            .show(ui, |ui| pruned::pruned_ui(ui, &mut ctx));
        egui::CentralPanel::default().show(ui, |ui| raw::raw_ui(ui, &mut ctx, raw));
        go.flatten()
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui
                .button("Open…")
                .on_hover_text("Ctrl+O: a dump, or a recording's session.jsonl; or drop a file")
                .clicked()
            {
                self.open_dialog(ui.ctx());
            }
            if ui
                .button("Open folder…")
                .on_hover_text("Ctrl+Shift+O: a recording, or a folder of dumps")
                .clicked()
            {
                self.open_folder_dialog(ui.ctx());
            }
            let on_show = (self.current, self.step().map(|s| s.index));
            if let Some((item, step)) =
                open_list::open_list_ui(ui, &opened::entries(&self.opened), on_show)
            {
                self.current = item;
                self.selection = Selection::default();
                self.screen.reset_view();
                if let Some(step) = step {
                    self.go_to_step(step);
                }
            }
            ui.separator();
            ui.label("Tokens:");
            for encoding in Encoding::ALL {
                ui.selectable_value(&mut self.settings.encoding, encoding, encoding.name());
            }
            ui.separator();
            ui.toggle_value(&mut self.settings.heat_map, "Token heat map");
            ui.toggle_value(&mut self.settings.show_rules, "Rules");
            ui.toggle_value(&mut self.live.shown, "Live");
            if self.loading.is_some() {
                ui.spinner();
            }
            // No spinner: it would draw every frame for as long as the wait lasts.
            if let Some(waiting) = &self.waiting {
                ui.weak(waiting.note());
            }
        });
    }
}

/// A recording opened before its first step was written.
struct Waiting {
    path: PathBuf,
    name: String,
    following: Following,
}

impl Waiting {
    fn note(&self) -> String {
        format!(
            "{} has no step yet: it opens when one is written",
            self.name
        )
    }
}

/// The central area when there is nothing to analyse: a step without a screen, a file
/// being opened or waited for, or nothing open yet.
fn empty_ui(
    ui: &mut egui::Ui,
    item: Option<&Opened>,
    loading: Option<&(PathBuf, Promise<Loaded>)>,
    waiting: Option<&Waiting>,
) {
    if let Some(item) = item {
        ui.heading("No screen");
        if let Some(why) = item.why_no_screen() {
            ui.label(why.to_string());
        }
        return;
    }
    ui.centered_and_justified(|ui| {
        ui.label(match (loading, waiting) {
            (Some((path, _)), _) => format!("Opening {}…", path.display()),
            (None, Some(waiting)) => waiting.note(),
            (None, None) => "Open a dump or a recording with Ctrl+O (a folder with Ctrl+Shift+O), \
                     or drop one here."
                .to_owned(),
        });
    });
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use tapscope_core::recording::SESSION_FILE;
    use tapscope_core::session::synthetic;

    use super::*;

    /// A recording of 6 steps, and the same recording as it was at its first `steps`.
    struct Growing {
        whole: tempfile::TempDir,
        dir: tempfile::TempDir,
        earlier: Option<Arc<Recording>>,
    }

    impl Growing {
        fn new() -> Self {
            let whole = tempfile::tempdir().expect("a folder");
            synthetic::write(whole.path(), 6, 3).expect("written");
            let dir = tempfile::tempdir().expect("a folder");
            copy_dir(&whole.path().join("screens"), &dir.path().join("screens"));
            Self {
                whole,
                dir,
                earlier: None,
            }
        }

        /// The recording with its first `steps` steps, read again as live mode does.
        fn steps(&mut self, steps: usize) -> Arc<Recording> {
            let log = std::fs::read_to_string(self.whole.path().join(SESSION_FILE)).expect("log");
            let lines: String = log.split_inclusive('\n').take(steps + 1).collect();
            std::fs::write(self.dir.path().join(SESSION_FILE), lines).expect("written");
            let read = Recording::read(self.dir.path(), self.earlier.as_deref()).expect("read");
            let read = Arc::new(read);
            self.earlier = Some(Arc::clone(&read));
            read
        }
    }

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("a folder");
        for file in std::fs::read_dir(from).expect("a folder") {
            let file = file.expect("a file").path();
            std::fs::copy(&file, to.join(file.file_name().expect("a name"))).expect("copied");
        }
    }

    fn dump(name: &str) -> Document {
        const DUMP: &[u8] = include_bytes!("../../../assets/samples/video_feed.xml");
        let mut document = Document::from_bytes(name.to_owned(), None, DUMP, None).expect("parses");
        document.name = name.to_owned();
        document
    }

    /// A workbench with dumps `names`, the live screen at `live`, on item `current`.
    fn workbench(names: &[&str], live: usize, current: usize) -> Workbench {
        let mut workbench = Workbench::new();
        workbench.opened = names.iter().map(|n| Opened::Dump(dump(n))).collect();
        workbench.opened[live] = Opened::Live(dump(names[live]));
        workbench.current = current;
        workbench.live = LiveState::linked_for_tests(live);
        workbench
    }

    /// The live recording's step on show, and how many steps it has.
    fn live_step(workbench: &Workbench) -> (usize, usize) {
        let at = workbench
            .live
            .steps_at()
            .expect("the live recording is open");
        let Opened::Recording(on) = &workbench.opened[at] else {
            panic!("the live recording is at {at}");
        };
        (on.at, on.recording.steps().len())
    }

    #[test]
    fn the_first_steps_go_after_the_documents_and_the_live_screen_stays_on_show() {
        let mut growing = Growing::new();
        let mut workbench = workbench(&["dump", "live"], 1, 1);
        workbench.show_live_steps(growing.steps(2));
        assert_eq!(workbench.opened.len(), 3);
        assert_eq!(workbench.live.steps_at(), Some(2));
        assert_eq!(workbench.current, 1);
        assert_eq!(workbench.timeline_step().expect("a step").index, 1);
    }

    #[test]
    fn a_person_on_the_last_step_follows_the_new_last_one() {
        let mut growing = Growing::new();
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_live_steps(growing.steps(2));
        workbench.go_to_step(1);
        assert_eq!(workbench.current, 1);
        workbench.show_live_steps(growing.steps(4));
        assert_eq!(live_step(&workbench), (3, 4));
        assert_eq!(workbench.step().expect("a step").index, 3);
        assert!(workbench.document().is_some(), "the new last step is drawn");
    }

    #[test]
    fn a_person_on_an_earlier_step_stays_on_it() {
        let mut growing = Growing::new();
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_live_steps(growing.steps(3));
        workbench.go_to_step(1);
        workbench.show_live_steps(growing.steps(5));
        assert_eq!(live_step(&workbench), (1, 5));
        assert_eq!(workbench.step().expect("a step").index, 1);
    }

    #[test]
    fn what_is_opened_after_the_steps_stays_where_it_is() {
        // The live screen connected, its steps were shown, then a dump was opened.
        let mut growing = Growing::new();
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_live_steps(growing.steps(1));
        workbench.add_documents(vec![dump("later")]);
        assert_eq!(workbench.current, 2);
        workbench.show_live_steps(growing.steps(3));
        assert_eq!(workbench.opened.len(), 3);
        assert_eq!(workbench.document().expect("a dump").name, "later");
        assert_eq!(live_step(&workbench), (0, 3));
    }

    #[test]
    fn no_steps_change_nothing() {
        let mut workbench = workbench(&["live"], 0, 0);
        let empty = tempfile::tempdir().expect("a folder");
        assert!(Recording::read(empty.path(), None).is_err());
        assert_eq!(workbench.opened.len(), 1);
        assert_eq!(workbench.live.steps_at(), None);
        workbench.live_frame();
        assert_eq!(workbench.live.steps_at(), None);
    }
}
