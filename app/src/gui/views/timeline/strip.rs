//! The timeline's strip: one column per step shown, in a horizontal scroll area that lays
//! out only the columns in view and brings the current one into view when it changes;
//! click or drag across it to scrub. What a column holds is its [`Columns`]' to draw.

use egui::{Rect, Sense, Vec2, vec2};

use super::Timeline;

/// One column's size: a step's cell.
pub(super) const CELL: Vec2 = vec2(78.0, 54.0);

/// What the strip draws in each column (by step index).
pub(super) trait Columns {
    fn height(&self) -> f32;
    /// The column's accessible name, unique per step.
    fn name(&self, k: usize) -> String;
    fn paint(&self, ui: &egui::Ui, rect: Rect, k: usize, current: bool);
    fn hover(&self, k: usize) -> String;
}

/// The strip of the steps `shown`, `current` on show; returns the step clicked or dragged
/// to.
pub(super) fn strip_ui(
    ui: &mut egui::Ui,
    current: usize,
    shown: &[usize],
    timeline: &mut Timeline,
    columns: &impl Columns,
) -> Option<usize> {
    let mut go = None;
    let mut area = egui::ScrollArea::horizontal()
        .id_salt("timeline")
        .auto_shrink([false, true]);
    if timeline.revealed != Some(current) {
        timeline.revealed = Some(current);
        let x = shown
            .iter()
            .position(|&k| k == current)
            .map(|p| p as f32 * CELL.x);
        let hidden = |x: f32| {
            timeline
                .viewport
                .is_none_or(|view| x < view.min.x || x + CELL.x > view.max.x)
        };
        if let Some(x) = x.filter(|&x| hidden(x)) {
            area = area.horizontal_scroll_offset((x - ui.available_width() / 2.0).max(0.0));
        }
    }
    let height = columns.height();
    area.show_viewport(ui, |ui, viewport| {
        timeline.viewport = Some(viewport);
        let size = vec2(shown.len() as f32 * CELL.x, height);
        let (strip, _) = ui.allocate_exact_size(size, Sense::hover());
        let first = (viewport.min.x / CELL.x).floor().max(0.0) as usize;
        let last = ((viewport.max.x / CELL.x).ceil().max(0.0) as usize).min(shown.len());
        for (pos, &k) in shown.iter().enumerate().take(last).skip(first) {
            let at = strip.min + vec2(pos as f32 * CELL.x, 0.0);
            let rect = Rect::from_min_size(at, vec2(CELL.x, height)).shrink2(vec2(2.0, 1.0));
            let id = ui.scope_id().with(("timeline cell", k));
            let response = ui.interact(rect, id, Sense::click_and_drag());
            response.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, k == current, columns.name(k))
            });
            columns.paint(ui, rect, k, k == current);
            if response.clicked() {
                go = Some(k);
            }
            if response.dragged()
                && let Some(pointer) = ui.ctx().pointer_interact_pos()
            {
                let at = ((pointer.x - strip.min.x) / CELL.x).floor().max(0.0) as usize;
                go = Some(shown[at.clamp(first, last.saturating_sub(1).max(first))]);
            }
            response.on_hover_ui(|ui| {
                ui.label(columns.hover(k));
            });
        }
    });
    go
}
