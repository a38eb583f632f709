//! The stats bar: raw vs pruned bytes, nodes and tokens, the reduction, and lost semantic nodes.

use super::colors;
use crate::gui::context::ViewContext;

/// What `≈` before a token count means.
const ESTIMATE_NOTE: &str = "≈ marks an estimate: the text is over 4 MiB, or holds a whitespace \
                             run too long to count exactly";

pub fn stats_ui(ui: &mut egui::Ui, ctx: &mut ViewContext<'_>) {
    let (inspection, selection) = (&ctx.analysis.current, &mut *ctx.selection);
    let stats = &inspection.stats;
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{} · {}", ctx.name, stats.format.name()));
        ui.separator();
        ui.label(format!(
            "bytes {} -> {}",
            stats.raw_bytes, stats.pruned_bytes
        ));
        ui.separator();
        ui.label(format!("nodes {} -> {}", stats.raw_nodes, stats.kept_nodes));
        ui.separator();
        let tokens = ui.strong(format!(
            "tokens ({}) {} -> {}  ({:.1}× fewer)",
            stats.encoding,
            stats.raw_tokens,
            stats.pruned_tokens,
            stats.reduction()
        ));
        if !(stats.raw_tokens.is_exact() && stats.pruned_tokens.is_exact()) {
            tokens.on_hover_text(ESTIMATE_NOTE);
        }
        ui.separator();
        ui.label(format!("semantic nodes {}", stats.semantic_nodes));
        ui.separator();
        if stats.lost_semantic_nodes.is_empty() {
            ui.label("lost 0");
        } else {
            ui.colored_label(
                colors::LOST,
                format!("lost {}:", stats.lost_semantic_nodes.len()),
            );
            for lost in &stats.lost_semantic_nodes {
                let label = if lost.text.is_empty() {
                    &lost.desc
                } else {
                    &lost.text
                };
                let label = if label.is_empty() { &lost.class } else { label };
                let button =
                    egui::Button::new(egui::RichText::new(label).color(colors::LOST)).small();
                if ui.add(button).on_hover_text(&lost.reason).clicked() {
                    selection.select(Some(lost.node));
                }
            }
        }
        if inspection.pruned.fallback {
            ui.separator();
            ui.colored_label(colors::SELECTED, "fallback: screenshot");
        }
    });
}
