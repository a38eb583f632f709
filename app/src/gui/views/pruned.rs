//! The pruned tree as the agent reads it: one row per line, the selection highlighted, click to select.

use super::{colors, line_rows_ui};
use crate::gui::context::ViewContext;

pub fn pruned_ui(ui: &mut egui::Ui, ctx: &mut ViewContext<'_>) {
    let (inspection, selection) = (&ctx.analysis.current, &mut *ctx.selection);
    let heat_map = ctx.settings.heat_map;
    ui.heading("Pruned tree");
    let max_tokens = inspection
        .lines
        .iter()
        .map(|l| l.tokens.tokens())
        .max()
        .unwrap_or(1)
        .max(1);
    let reveal = selection
        .selected
        .filter(|_| selection.reveal)
        .and_then(|id| inspection.line_of_node[id]);
    let selected_line = selection
        .selected
        .and_then(|id| inspection.line_of_node[id]);
    line_rows_ui(
        ui,
        "pruned rows",
        inspection.lines.len(),
        reveal,
        |ui, row| {
            let line = &inspection.lines[row];
            let mut text = egui::RichText::new(&line.text).monospace();
            if heat_map && line.node.is_some() {
                let heat = line.tokens.tokens() as f32 / max_tokens as f32;
                text = text.background_color(colors::LOST.gamma_multiply(0.05 + 0.45 * heat));
            }
            if line.node.is_some() && line.node == selection.shown_hover() {
                text = text.background_color(colors::HOVERED.gamma_multiply(0.35));
            }
            let response = ui.selectable_label(selected_line == Some(row), text);
            let response = response.on_hover_text(format!("{} tokens", line.tokens));
            if response.hovered() {
                selection.hovered = line.node;
            }
            if response.clicked() && line.node.is_some() {
                selection.select(line.node);
            }
        },
    );
}
