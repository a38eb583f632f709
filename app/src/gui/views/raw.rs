//! The raw dump, one node per line (virtualized: only visible rows are laid out), with search.

use super::{colors, line_rows_ui};
use crate::gui::context::ViewContext;
use crate::gui::document::Document;

/// Search state of the raw pane.
#[derive(Clone, Debug, Default)]
pub struct RawState {
    pub query: String,
    /// Lines matching `query`, and which of them was last jumped to.
    matches: Vec<usize>,
    matched_query: String,
    cursor: usize,
    /// Set by `/`: the search box takes the keyboard next frame.
    pub focus_search: bool,
}

impl RawState {
    pub fn clear_search(&mut self) {
        self.query.clear();
        self.matches.clear();
        self.matched_query.clear();
        self.cursor = 0;
    }

    fn update_matches(&mut self, document: &Document) {
        if self.matched_query == self.query {
            return;
        }
        let needle = self.query.to_lowercase();
        self.matches = if needle.is_empty() {
            Vec::new()
        } else {
            (0..document.raw_view.lines.len())
                .filter(|&k| {
                    document.raw_view.lines[k]
                        .text
                        .to_lowercase()
                        .contains(&needle)
                })
                .collect()
        };
        self.matched_query = self.query.clone();
        self.cursor = 0;
    }
}

pub fn raw_ui(ui: &mut egui::Ui, ctx: &mut ViewContext<'_>, state: &mut RawState) {
    let (document, selection) = (ctx.document, &mut *ctx.selection);
    ui.heading("Raw dump");
    ui.horizontal(|ui| {
        let label = ui.label("Search:");
        let edit = egui::TextEdit::singleline(&mut state.query)
            .id_salt("raw search")
            .hint_text("text, id, class… ( / )")
            .desired_width(220.0);
        let response = ui.add(edit).labelled_by(label.id);
        if std::mem::take(&mut state.focus_search) {
            response.request_focus();
        }
        state.update_matches(document);
        let next = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if !state.matches.is_empty() {
            if next || ui.small_button("Next").clicked() {
                state.cursor = (state.cursor + 1) % state.matches.len();
                selection.select(document.raw_view.lines[state.matches[state.cursor]].node);
            }
            ui.label(format!("{} of {}", state.cursor + 1, state.matches.len()));
        } else if !state.query.is_empty() {
            ui.label("no match");
        }
    });
    let lines = &document.raw_view.lines;
    let selected_line = selection
        .selected
        .map(|id| document.raw_view.line_of_node[id]);
    let reveal = selected_line.filter(|_| selection.reveal);
    line_rows_ui(ui, "raw rows", lines.len(), reveal, |ui, row| {
        let line = &lines[row];
        // One space per level: real dumps nest 30 deep, and the tags are what matters.
        let text = format!("{:indent$}{}", "", line.text, indent = line.depth);
        let mut rich = egui::RichText::new(text).monospace();
        if state.matches.binary_search(&row).is_ok() {
            rich = rich.underline();
        }
        if line.node.is_some() && line.node == selection.shown_hover() {
            rich = rich.background_color(colors::HOVERED.gamma_multiply(0.35));
        }
        let response = ui.selectable_label(selected_line == Some(row), rich);
        if response.hovered() {
            selection.hovered = line.node;
        }
        if response.clicked() {
            selection.select(line.node);
        }
    });
}
