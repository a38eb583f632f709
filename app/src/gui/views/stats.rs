//! The stats bar: raw vs pruned bytes, nodes and tokens, the reduction, where the pruned
//! tokens go, and lost semantic nodes.

use tapscope_core::report::{Breakdown, Tally};

use super::colors;
use crate::gui::context::ViewContext;

/// How many of the costliest parts the bar names; the rest are in its hover.
const PARTS_SHOWN: usize = 3;

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
        breakdown_ui(ui, &inspection.breakdown);
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

/// The costliest parts of the pruned tree, with every part and kind of line on hover.
fn breakdown_ui(ui: &mut egui::Ui, breakdown: &Breakdown) {
    let parts = breakdown.parts();
    let named: Vec<String> = parts
        .iter()
        .take(PARTS_SHOWN)
        .map(|(part, tally)| format!("{} {:.0} %", part.name(), breakdown.percent(*tally)))
        .collect();
    ui.label(format!("tokens go to {}", named.join(", ")))
        .on_hover_ui(|ui| {
            ui.label("Where the pruned tokens go (each piece counted on its own):");
            egui::Grid::new("token breakdown")
                .striped(true)
                .show(ui, |ui| {
                    let row = |ui: &mut egui::Ui, name: &str, tally: Tally, unit: &str| {
                        ui.label(name);
                        ui.label(tally.tokens.to_string());
                        ui.label(format!("{:.1} %", breakdown.percent(tally)));
                        ui.label(format!("{} {unit}", tally.count));
                        ui.end_row();
                    };
                    for (part, tally) in &parts {
                        row(ui, part.name(), *tally, "pieces");
                    }
                    ui.separator();
                    ui.end_row();
                    for (class, tally) in breakdown.lines() {
                        row(ui, class.name(), tally, "lines");
                    }
                });
        });
}
