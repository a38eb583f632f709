//! `settle_bar_ui`: how a step's screen settled, as a small stacked bar: the floor, polling
//! up to the last change, idle to the end (purple when it never settled), on a scale up to
//! the 5 s ceiling, which is ticked. The timeline paints it in every cell.

use egui::{Color32, Rect, Sense, Stroke, pos2, vec2};
use tapscope_core::recording::Step;
use tapscope_core::stability::{SettleConfig, SettleReport};

use super::colors;

/// A screen that had not settled when the ceiling was reached.
pub const UNSETTLED: Color32 = Color32::from_rgb(180, 125, 240);
const FLOOR: Color32 = Color32::from_gray(150);
const POLLING: Color32 = colors::HOVERED;
const IDLE: Color32 = Color32::from_rgb(70, 160, 90);

/// The step's settle report, when it waited for one.
pub fn settle_of(step: &Step) -> Option<SettleReport> {
    serde_json::from_value(step.settle.clone()?).ok()
}

/// The bar of `settle`, `width` wide, named for assistive technology by its total.
pub fn settle_bar_ui(ui: &mut egui::Ui, settle: &SettleReport, width: f32) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(vec2(width, 12.0), Sense::hover());
    let name = format!("settle bar {} ms", settle.total.as_millis());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
    let bar = rect.shrink2(vec2(0.0, 3.0));
    let tick = ui.visuals().weak_text_color();
    paint_settle(ui.painter(), bar, settle, tick);
    response
}

/// Paints the bar of `settle` into `bar`, the ceiling ticked in `tick`.
pub fn paint_settle(painter: &egui::Painter, bar: Rect, settle: &SettleReport, tick: Color32) {
    let ceiling = SettleConfig::default().ceiling.as_secs_f32();
    let scale = ceiling.max(settle.total.as_secs_f32());
    let x = |seconds: f32| bar.left() + bar.width() * (seconds / scale).clamp(0.0, 1.0);
    let total = settle.total.as_secs_f32();
    let floor = settle.floor.as_secs_f32().min(total);
    let change = settle
        .last_change
        .map_or(floor, |d| d.as_secs_f32())
        .clamp(floor, total);
    painter.rect_filled(bar, 0.0, Color32::from_black_alpha(90));
    let idle = if settle.settled { IDLE } else { UNSETTLED };
    for (from, to, color) in [
        (0.0, floor, FLOOR),
        (floor, change, POLLING),
        (change, total, idle),
    ] {
        let segment = Rect::from_x_y_ranges(x(from)..=x(to), bar.y_range());
        painter.rect_filled(segment, 0.0, color);
    }
    let ceiling_x = x(ceiling);
    painter.line_segment(
        [
            pos2(ceiling_x, bar.top() - 3.0),
            pos2(ceiling_x, bar.bottom() + 2.0),
        ],
        Stroke::new(1.0, tick),
    );
}
