//! Opening files in the workbench: on a background thread (poll-promise) so the window keeps
//! running, from the open dialogs, drag and drop, or a path; a recording or dumps.

use std::path::{Path, PathBuf};

use poll_promise::Promise;

use super::document::{self, Document};
use super::recording;
use super::workbench::Workbench;

/// The documents a path opened and the errors of those that did not, or why nothing did.
pub type Loaded = Result<(Vec<Document>, Vec<String>), String>;

impl Workbench {
    /// Starts loading `path` on a background thread; the UI keeps running meanwhile.
    /// A recording (a folder with `session.jsonl`, or the file) opens one document per step.
    pub fn open(&mut self, path: PathBuf, ctx: &egui::Context) {
        let ctx = ctx.clone();
        let name = path.display().to_string();
        let promise = Promise::spawn_thread("open dump", move || {
            let loaded = load(&path);
            ctx.request_repaint();
            loaded
        });
        self.loading = Some((name, promise));
    }

    /// Waits for what [`Workbench::open`] is loading and opens it (tests, scripted use).
    pub fn finish_loading(&mut self) {
        if let Some((_, promise)) = self.loading.take() {
            self.opened(promise.block_and_take());
        }
    }

    /// Whether a file is still being opened in the background.
    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    pub(super) fn poll_loading(&mut self) {
        let Some((name, promise)) = self.loading.take() else {
            return;
        };
        match promise.try_take() {
            Err(promise) => self.loading = Some((name, promise)),
            Ok(loaded) => self.opened(loaded),
        }
    }

    fn opened(&mut self, loaded: Loaded) {
        match loaded {
            Ok((documents, errors)) => {
                self.banner.error_all(&errors);
                self.add_documents(documents);
            }
            Err(message) => self.banner.error(message),
        }
    }

    pub(super) fn open_dialog(&mut self, ctx: &egui::Context) {
        let picked = rfd::FileDialog::new()
            .add_filter("dumps and recordings", &["xml", "json", "jsonl"])
            .set_title("Open a dump, or a recording's session.jsonl")
            .pick_file();
        if let Some(path) = picked {
            self.open(path, ctx);
        }
    }

    pub(super) fn open_folder_dialog(&mut self, ctx: &egui::Context) {
        let picked = rfd::FileDialog::new()
            .set_title("Open a recording, or a folder of dumps")
            .pick_folder();
        if let Some(path) = picked {
            self.open(path, ctx);
        }
    }

    pub(super) fn handle_dropped_files(&mut self, ctx: &egui::Context) {
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
}

/// Opens a recording, or a dump, a dump with its screenshot, or a folder of dumps.
fn load(path: &Path) -> Loaded {
    if recording::is_recording(path) {
        recording::open(path)
    } else {
        document::open(path)
    }
}
