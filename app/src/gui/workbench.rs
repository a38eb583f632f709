//! The workbench: open documents, the settings a person chose, and the layout of the panes.

use std::sync::Arc;

use poll_promise::Promise;
use tapscope_core::inspect::Inspection;
use tapscope_core::prune::PruneRules;
use tapscope_core::tokens::Encoding;

use super::document::Document;
use super::live::LiveState;
use super::open::Loaded;
use super::recording::StepInfo;
use super::selection::Selection;
use super::views::{banner, details, pruned, raw, rules, screen, stats, step};
use super::views::{compare, replay, timeline};

/// What a person chose, kept across documents (and what a saved session would keep).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub rules: PruneRules,
    /// The rules the diff compares against.
    pub baseline: PruneRules,
    pub encoding: Encoding,
    pub heat_map: bool,
    pub show_rules: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            rules: PruneRules::default(),
            baseline: PruneRules::default(),
            encoding: Encoding::O200k,
            heat_map: false,
            show_rules: true,
        }
    }
}

/// The current document pruned under the current and the baseline rules.
#[derive(Debug)]
pub struct Analysis {
    pub current: Inspection,
    pub baseline: Inspection,
    /// What these were computed from, to know when to recompute.
    key: (usize, PruneRules, PruneRules, Encoding),
}

/// The whole workbench; [`Workbench::ui`] draws it into any `Ui` (the window, or a test).
pub struct Workbench {
    pub settings: Settings,
    pub documents: Vec<Document>,
    pub current: usize,
    pub analysis: Option<Analysis>,
    pub selection: Selection,
    pub screen: screen::ScreenState,
    pub raw: raw::RawState,
    pub rules_panel: rules::RulesState,
    pub banner: banner::Banner,
    pub step_panel: step::StepState,
    /// The timeline, forensics and compare views of a recording.
    pub replay: replay::Replay,
    pub(super) loading: Option<(String, Promise<Loaded>)>,
    /// Live mode: a phone on show, taken over, served to agents.
    pub live: LiveState,
}

impl std::fmt::Debug for Workbench {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workbench")
            .field("documents", &self.documents.len())
            .field("current", &self.current)
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl Workbench {
    pub fn new() -> Self {
        Self {
            settings: Settings::default(),
            documents: Vec::new(),
            current: 0,
            analysis: None,
            selection: Selection::default(),
            screen: screen::ScreenState::default(),
            raw: raw::RawState::default(),
            rules_panel: rules::RulesState::default(),
            banner: banner::Banner::default(),
            step_panel: step::StepState::default(),
            replay: replay::Replay::default(),
            loading: None,
            live: LiveState::default(),
        }
    }

    /// Opens documents loaded elsewhere (a test, a sample compiled in) at once.
    pub fn add_documents(&mut self, documents: Vec<Document>) {
        for document in &documents {
            self.banner.warn_all(&document.warnings);
        }
        if !documents.is_empty() {
            // A recording opens on its first screen, not on a call that showed none.
            let first_screen = documents.iter().position(Document::has_screen);
            self.current = self.documents.len() + first_screen.unwrap_or(0);
            self.documents.extend(documents);
            self.selection = Selection::default();
            self.raw.clear_search();
            self.screen.reset_view();
        }
    }

    pub fn document(&self) -> Option<&Document> {
        self.documents.get(self.current)
    }

    /// The recorded step on show, when the current document is one.
    pub fn step(&self) -> Option<&StepInfo> {
        self.document()?.step.as_deref()
    }

    /// The window title: what is open, and for a recording which step.
    pub fn title(&self) -> String {
        match self.document() {
            Some(Document {
                step: Some(info), ..
            }) => format!(
                "tapscope — {} — {} · {}",
                info.recording.name,
                info.position(),
                info.step.tool
            ),
            Some(document) => match &document.path {
                Some(path) => format!("tapscope — {}", path.display()),
                None => format!("tapscope — {}", document.name),
            },
            None => "tapscope".to_owned(),
        }
    }

    /// The step the timeline is drawn around: the one on show, or on the live screen the
    /// latest step of its recording.
    pub fn timeline_step(&self) -> Option<&StepInfo> {
        timeline_step(&self.documents, self.current, &self.live)
    }

    /// Where step `index` of `info`'s recording sits among the documents.
    pub(super) fn step_position(&self, info: &StepInfo, index: usize) -> Option<usize> {
        let of_recording = |d: &Document| {
            d.step
                .as_deref()
                .is_some_and(|s| Arc::ptr_eq(&s.recording, &info.recording))
        };
        // A recording's documents are added together, one per step, in order.
        let target = self.documents.iter().position(of_recording)? + index;
        let step = self.documents.get(target)?.step.as_deref()?;
        (Arc::ptr_eq(&step.recording, &info.recording) && step.index == index).then_some(target)
    }

    /// Shows the step at `index` (0-based) of the timeline's recording.
    pub fn go_to_step(&mut self, index: usize) {
        let target = self
            .timeline_step()
            .and_then(|info| self.step_position(info, index));
        if let Some(target) = target {
            self.current = target;
            self.selection = Selection::default();
            // Its screen loads now, so the rest of this frame draws it whole.
            self.load_current_screen();
            self.refresh_analysis();
        }
    }

    fn step_by(&mut self, forward: bool) {
        let Some(index) = self.step().map(|info| info.index) else {
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

    /// Re-prunes when the document, the rules or the encoding changed.
    fn refresh_analysis(&mut self) {
        let Some(document) = self.documents.get(self.current).filter(|d| d.has_screen()) else {
            self.analysis = None;
            return;
        };
        let key = (
            self.current,
            self.settings.rules.clone(),
            self.settings.baseline.clone(),
            self.settings.encoding,
        );
        if self.analysis.as_ref().is_some_and(|a| a.key == key) {
            return;
        }
        let raw = document.raw_size(self.settings.encoding);
        let inspect =
            |rules: &PruneRules| Inspection::new(&document.tree, rules, &document.version, raw);
        let baseline = match self.analysis.take() {
            Some(old) if old.key.0 == key.0 && old.key.2 == key.2 && old.key.3 == key.3 => {
                old.baseline
            }
            _ => inspect(&self.settings.baseline),
        };
        self.analysis = Some(Analysis {
            current: inspect(&self.settings.rules),
            baseline,
            key,
        });
    }

    fn handle_keys(&mut self, ui: &egui::Ui) {
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
                    if let Some(document) = self.documents.get(self.current) {
                        self.selection.step(&document.tree, key);
                    }
                }
            }
        }
    }

    /// Draws the whole workbench.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.poll_loading();
        self.handle_dropped_files(ui.ctx());
        let info = timeline_step(&self.documents, self.current, &self.live);
        if let Some(index) = info.and_then(|i| timeline::timeline_keys(ui, i, &mut self.replay)) {
            self.go_to_step(index);
        }
        self.handle_keys(ui);
        // Live news can replace the document on show: it loads in this same frame.
        self.live_frame();
        self.load_current_screen();
        self.refresh_analysis();
        self.selection.new_frame();

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        self.live_ui(ui);
        if let (Some(document), Some(analysis)) = (self.documents.get(self.current), &self.analysis)
        {
            egui::Panel::top("stats").show(ui, |ui| {
                stats::stats_ui(ui, document, &analysis.current, &mut self.selection);
            });
        }
        if !self.banner.is_empty() {
            egui::Panel::top("banner").show(ui, |ui| banner::banner_ui(ui, &mut self.banner));
        }
        let on_step = self
            .documents
            .get(self.current)
            .and_then(|d| d.step.as_deref());
        let go = on_step.and_then(|info| {
            egui::Panel::bottom("step")
                .resizable(true)
                .default_size(250.0)
                .show(ui, |ui| {
                    step::step_ui(ui, info, &mut self.step_panel, &mut self.replay)
                })
                .inner
        });
        let on_timeline = timeline_step(&self.documents, self.current, &self.live);
        let scrub = on_timeline.and_then(|info| {
            egui::Panel::bottom("timeline")
                .show(ui, |ui| timeline::timeline_ui(ui, info, &mut self.replay))
                .inner
        });
        if let Some(index) = go.or(scrub) {
            self.go_to_step(index);
        }
        if self.replay.compare
            && let Some(info) = self
                .documents
                .get(self.current)
                .and_then(|d| d.step.as_deref())
        {
            egui::CentralPanel::default()
                .show(ui, |ui| compare::compare_ui(ui, info, &mut self.replay));
            return;
        }
        let (Some(document), Some(analysis)) = (self.documents.get(self.current), &self.analysis)
        else {
            egui::CentralPanel::default().show(ui, |ui| self.empty_ui(ui));
            return;
        };
        if self.settings.show_rules {
            egui::Panel::left("rules")
                .resizable(true)
                .default_size(270.0)
                .show(ui, |ui| {
                    rules::rules_ui(
                        ui,
                        &mut self.settings,
                        analysis,
                        &mut self.rules_panel,
                        &mut self.banner,
                        &mut self.selection,
                    );
                });
        }
        egui::Panel::left("screen")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| {
                screen::screen_ui(
                    ui,
                    document,
                    &analysis.current,
                    &mut self.selection,
                    &mut self.screen,
                    self.settings.heat_map,
                );
            });
        egui::Panel::bottom("details")
            .resizable(true)
            .default_size(230.0)
            .show(ui, |ui| {
                details::details_ui(ui, document, &analysis.current, &self.selection)
            });
        egui::Panel::right("pruned")
            .resizable(true)
            .default_size(460.0)
            .show(ui, |ui| {
                pruned::pruned_ui(
                    ui,
                    &analysis.current,
                    &mut self.selection,
                    self.settings.heat_map,
                )
            });
        egui::CentralPanel::default().show(ui, |ui| {
            raw::raw_ui(ui, document, &mut self.selection, &mut self.raw);
        });
        self.selection.reveal = false;
    }

    /// The central area when there is nothing to analyse: a step without a screen, a file
    /// being opened, or nothing open yet.
    fn empty_ui(&self, ui: &mut egui::Ui) {
        if let Some(document) = self.document() {
            ui.heading("No screen");
            for note in &document.screen_notes {
                ui.label(note);
            }
            return;
        }
        ui.centered_and_justified(|ui| {
            ui.label(match &self.loading {
                Some((name, _)) => format!("Opening {name}…"),
                None => "Open a dump or a recording with Ctrl+O (a folder with Ctrl+Shift+O), \
                         or drop one here."
                    .to_owned(),
            });
        });
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
            if self.documents.len() > 1 {
                let names: Vec<&str> = self.documents.iter().map(|d| d.name.as_str()).collect();
                let mut current = self.current;
                egui::ComboBox::from_label("document")
                    .selected_text(names[current])
                    .show_ui(ui, |ui| {
                        for (k, name) in names.iter().enumerate() {
                            ui.selectable_value(&mut current, k, *name);
                        }
                    });
                if current != self.current {
                    self.current = current;
                    self.selection = Selection::default();
                    self.screen.reset_view();
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
        });
    }
}

/// [`Workbench::timeline_step`] off the fields it reads, for frames that borrow others.
fn timeline_step<'a>(
    documents: &'a [Document],
    current: usize,
    live: &LiveState,
) -> Option<&'a StepInfo> {
    let on_step = documents.get(current).and_then(|d| d.step.as_deref());
    on_step.or_else(|| live.latest_step(documents, current))
}

impl Default for Workbench {
    fn default() -> Self {
        Self::new()
    }
}
