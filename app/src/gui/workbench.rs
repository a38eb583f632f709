//! The workbench: open documents, the settings a person chose, and the layout of the panes.

use std::path::PathBuf;

use poll_promise::Promise;
use tapscope_core::inspect::Inspection;
use tapscope_core::prune::PruneRules;
use tapscope_core::tokens::Encoding;

use super::document::{self, Document};
use super::selection::Selection;
use super::views::{banner, details, pruned, raw, rules, screen, stats};

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

type Loaded = Result<(Vec<Document>, Vec<String>), String>;

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
    loading: Option<(String, Promise<Loaded>)>,
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
            loading: None,
        }
    }

    /// Starts loading `path` on a background thread; the UI keeps running meanwhile.
    pub fn open(&mut self, path: PathBuf, ctx: &egui::Context) {
        let ctx = ctx.clone();
        let name = path.display().to_string();
        let promise = Promise::spawn_thread("open dump", move || {
            let loaded = document::open(&path);
            ctx.request_repaint();
            loaded
        });
        self.loading = Some((name, promise));
    }

    /// Opens documents loaded elsewhere (a test, a sample compiled in) at once.
    pub fn add_documents(&mut self, documents: Vec<Document>) {
        for document in &documents {
            self.banner.warn_all(&document.warnings);
        }
        if !documents.is_empty() {
            self.current = self.documents.len();
            self.documents.extend(documents);
            self.selection = Selection::default();
            self.raw.clear_search();
            self.screen.reset_view();
        }
    }

    /// Whether a file is still being opened in the background.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    pub fn document(&self) -> Option<&Document> {
        self.documents.get(self.current)
    }

    /// The window title: what is open.
    pub fn title(&self) -> String {
        match self.document() {
            Some(document) => match &document.path {
                Some(path) => format!("tapscope — {}", path.display()),
                None => format!("tapscope — {}", document.name),
            },
            None => "tapscope".to_owned(),
        }
    }

    fn poll_loading(&mut self) {
        let Some((name, promise)) = self.loading.take() else {
            return;
        };
        match promise.try_take() {
            Err(promise) => self.loading = Some((name, promise)),
            Ok(Ok((documents, errors))) => {
                self.banner.error_all(&errors);
                self.add_documents(documents);
            }
            Ok(Err(message)) => self.banner.error(message),
        }
    }

    /// Re-prunes when the document, the rules or the encoding changed.
    fn refresh_analysis(&mut self) {
        let Some(document) = self.documents.get(self.current) else {
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
        let (open, escape, slash, arrows) = ui.input(|i| {
            let arrows: Vec<egui::Key> = [
                egui::Key::ArrowUp,
                egui::Key::ArrowDown,
                egui::Key::ArrowLeft,
                egui::Key::ArrowRight,
            ]
            .into_iter()
            .filter(|k| i.key_pressed(*k))
            .collect();
            (
                i.modifiers.command && i.key_pressed(egui::Key::O),
                i.key_pressed(egui::Key::Escape),
                i.key_pressed(egui::Key::Slash),
                arrows,
            )
        });
        if open {
            self.open_dialog(ui.ctx());
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
        if let Some(document) = self.documents.get(self.current) {
            for key in arrows {
                self.selection.step(&document.tree, key);
            }
        }
    }

    fn open_dialog(&mut self, ctx: &egui::Context) {
        let picked = rfd::FileDialog::new()
            .add_filter("dumps", &["xml", "json"])
            .set_title("Open a dump")
            .pick_file();
        if let Some(path) = picked {
            self.open(path, ctx);
        }
    }

    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for path in dropped {
            self.open(path, ctx);
        }
    }

    /// Draws the whole workbench.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.poll_loading();
        self.handle_dropped_files(ui.ctx());
        self.handle_keys(ui);
        self.refresh_analysis();
        self.selection.new_frame();

        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        if let (Some(document), Some(analysis)) = (self.documents.get(self.current), &self.analysis)
        {
            egui::Panel::top("stats").show(ui, |ui| {
                stats::stats_ui(ui, document, &analysis.current, &mut self.selection);
            });
        }
        if !self.banner.is_empty() {
            egui::Panel::top("banner").show(ui, |ui| banner::banner_ui(ui, &mut self.banner));
        }
        let (Some(document), Some(analysis)) = (self.documents.get(self.current), &self.analysis)
        else {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.centered_and_justified(|ui| {
                    ui.label(match &self.loading {
                        Some((name, _)) => format!("Opening {name}…"),
                        None => "Open a dump with Ctrl+O, or drop one here.".to_owned(),
                    });
                });
            });
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

    fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui
                .button("Open…")
                .on_hover_text("Ctrl+O, or drop a file")
                .clicked()
            {
                self.open_dialog(ui.ctx());
            }
            if self.documents.len() > 1 {
                let names: Vec<&str> = self.documents.iter().map(|d| d.name.as_str()).collect();
                let mut current = self.current;
                egui::ComboBox::from_label("dump")
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
            if self.loading.is_some() {
                ui.spinner();
            }
        });
    }
}

impl Default for Workbench {
    fn default() -> Self {
        Self::new()
    }
}
