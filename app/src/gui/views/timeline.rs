//! `timeline_ui`: a recording as a strip of cells, one per step: tool, outcome colour, a
//! stale marker, the settle timing as a small stacked bar and the token cost. Click or drag
//! across it to scrub, Home/End for the ends; "Problems only" hides the steps that went well
//! (and ←/→ then jump between problems). Only the cells in view are laid out.

use egui::{Color32, FontId, Rect, Sense, Stroke, StrokeKind, Vec2, pos2, vec2};
use tapscope_core::recording::{Actor, Step, StepOutcome};
use tapscope_core::stability::{SettleConfig, SettleReport};

use super::colors;
use super::step::{is_stale, outcome_color, outcome_word};
use crate::gui::recording::StepRef;

const CELL: Vec2 = vec2(78.0, 54.0);
/// A screen that had not settled when the ceiling was reached.
pub const UNSETTLED: Color32 = Color32::from_rgb(180, 125, 240);
const FLOOR: Color32 = Color32::from_gray(150);
const POLLING: Color32 = colors::HOVERED;
const IDLE: Color32 = Color32::from_rgb(70, 160, 90);
/// A step a person took in live mode, not an agent.
const PERSON: Color32 = Color32::from_rgb(230, 120, 200);

/// The timeline's filter and where it last scrolled to.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// Show only refused, failed, stale and unsettled steps.
    pub problems_only: bool,
    revealed: Option<usize>,
    viewport: Option<Rect>,
}

/// One step as the timeline draws it.
struct Cell<'a> {
    step: &'a Step,
}

impl Cell<'_> {
    fn settle(&self) -> Option<SettleReport> {
        serde_json::from_value(self.step.settle.clone()?).ok()
    }

    fn stale(&self) -> bool {
        is_stale(self.step)
    }

    /// Read off the JSON directly: the strip asks this of every step each frame.
    fn unsettled(&self) -> bool {
        let settle = self.step.settle.as_ref();
        settle
            .and_then(|s| s.get("settled"))
            .and_then(serde_json::Value::as_bool)
            == Some(false)
    }

    fn problem(&self) -> bool {
        self.step.outcome != StepOutcome::Ok || self.stale() || self.unsettled()
    }

    /// Error and refusal colours first, then not settled, then ok.
    fn color(&self) -> Color32 {
        match self.step.outcome {
            StepOutcome::Ok if self.unsettled() => UNSETTLED,
            outcome => outcome_color(outcome),
        }
    }

    /// The accessible name, unique per step: `timeline step 13: tap, refused, stale`.
    fn name(&self) -> String {
        let outcome = outcome_word(self.step.outcome);
        let mut name = format!(
            "timeline step {}: {}, {outcome}",
            self.step.step, self.step.tool
        );
        if self.stale() {
            name.push_str(", stale");
        }
        if self.unsettled() {
            name.push_str(", not settled");
        }
        if self.step.actor == Actor::Person {
            name.push_str(", by the person");
        }
        name
    }

    fn tokens(&self) -> Option<u32> {
        Some(self.step.after.as_ref()?.pruned_tokens)
    }
}

/// The indices of the steps the strip shows.
fn shown(steps: &[Step], problems_only: bool) -> Vec<usize> {
    (0..steps.len())
        .filter(|&k| !problems_only || Cell { step: &steps[k] }.problem())
        .collect()
}

/// Home and End, and ←/→ when only problems show (taken before the workbench steps by one);
/// returns the step to go to.
pub fn timeline_keys(ui: &egui::Ui, info: StepRef<'_>, timeline: &Timeline) -> Option<usize> {
    if ui.ctx().egui_wants_keyboard_input() {
        return None;
    }
    let steps = info.steps();
    let problems_only = timeline.problems_only;
    let none = egui::Modifiers::NONE;
    let (home, end, left, right) = ui.input_mut(|i| {
        let arrows = |i: &mut egui::InputState, key| problems_only && i.consume_key(none, key);
        (
            i.consume_key(none, egui::Key::Home),
            i.consume_key(none, egui::Key::End),
            arrows(i, egui::Key::ArrowLeft),
            arrows(i, egui::Key::ArrowRight),
        )
    });
    if !(home || end || left || right) {
        return None;
    }
    let shown = shown(steps, problems_only);
    match () {
        () if home => shown.first().copied(),
        () if end => shown.last().copied(),
        () if left => shown.iter().rev().find(|&&k| k < info.index).copied(),
        () => shown.iter().find(|&&k| k > info.index).copied(),
    }
}

/// The strip and its header; returns the step clicked or dragged to.
pub fn timeline_ui(
    ui: &mut egui::Ui,
    info: StepRef<'_>,
    timeline: &mut Timeline,
    compare: &mut bool,
) -> Option<usize> {
    ui.horizontal(|ui| {
        ui.strong("Timeline");
        ui.selectable_value(compare, false, "Inspect")
            .on_hover_text("the screen, raw and pruned panes of the step's screen");
        ui.selectable_value(compare, true, "Compare")
            .on_hover_text("the screens before and after the step, and what changed");
        ui.separator();
        ui.checkbox(&mut timeline.problems_only, "Problems only")
            .on_hover_text("hide the steps that went well; Left and Right jump between problems");
        ui.separator();
        legend_ui(ui);
    });
    let steps = info.steps();
    let shown = shown(steps, timeline.problems_only);
    if shown.is_empty() {
        ui.weak("No problems: every step went well.");
        return None;
    }
    strip_ui(ui, info, steps, timeline, &shown)
}

/// The colours and the bar explained, as one label.
fn legend_ui(ui: &mut egui::Ui) {
    let mut job = egui::text::LayoutJob::default();
    let small = FontId::proportional(11.0);
    let weak = ui.visuals().weak_text_color();
    for (word, color) in [
        ("ok ", colors::ADDED),
        ("refused ", colors::AMBER),
        ("error ", colors::LOST),
        ("not settled ", UNSETTLED),
        ("stale (corner) ", colors::AMBER),
        ("person (left edge) ", PERSON),
        ("| bar: floor, polling, idle; tick at 5 s", weak),
    ] {
        let format = egui::TextFormat::simple(small.clone(), color);
        job.append(word, 0.0, format);
    }
    ui.label(job);
}

fn strip_ui(
    ui: &mut egui::Ui,
    info: StepRef<'_>,
    steps: &[Step],
    timeline: &mut Timeline,
    shown: &[usize],
) -> Option<usize> {
    let mut go = None;
    let mut area = egui::ScrollArea::horizontal()
        .id_salt("timeline")
        .auto_shrink([false, true]);
    if timeline.revealed != Some(info.index) {
        timeline.revealed = Some(info.index);
        let x = shown
            .iter()
            .position(|&k| k == info.index)
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
    area.show_viewport(ui, |ui, viewport| {
        timeline.viewport = Some(viewport);
        let size = vec2(shown.len() as f32 * CELL.x, CELL.y);
        let (strip, _) = ui.allocate_exact_size(size, Sense::hover());
        let first = (viewport.min.x / CELL.x).floor().max(0.0) as usize;
        let last = ((viewport.max.x / CELL.x).ceil().max(0.0) as usize).min(shown.len());
        for (pos, &k) in shown.iter().enumerate().take(last).skip(first) {
            let rect = Rect::from_min_size(strip.min + vec2(pos as f32 * CELL.x, 0.0), CELL);
            let rect = rect.shrink2(vec2(2.0, 1.0));
            let cell = Cell { step: &steps[k] };
            let id = ui.scope_id().with(("timeline cell", k));
            let response = ui.interact(rect, id, Sense::click_and_drag());
            response.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, k == info.index, cell.name())
            });
            paint_cell(ui, rect, &cell, k == info.index);
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
                ui.label(hover_text(&cell));
            });
        }
    });
    go
}

fn hover_text(cell: &Cell) -> String {
    let mut lines = vec![cell.name().replacen("timeline ", "", 1)];
    if let Some(s) = cell.settle() {
        let ms = |d: Option<std::time::Duration>| {
            d.map_or_else(|| "none".to_owned(), |d| format!("{} ms", d.as_millis()))
        };
        lines.push(format!(
            "settle: {} total · floor {} · last change {} · idle {}",
            ms(Some(s.total)),
            ms(Some(s.floor)),
            ms(s.last_change),
            ms(s.idle)
        ));
    }
    if let Some(tokens) = cell.tokens() {
        lines.push(format!("{tokens} tokens in the pruned screen after"));
    }
    lines.join("\n")
}

/// Fill and border of the outcome's colour, number and tool, tokens, stale marker, bar.
fn paint_cell(ui: &egui::Ui, rect: Rect, cell: &Cell, current: bool) {
    let painter = ui.painter().with_clip_rect(rect.intersect(ui.clip_rect()));
    let visuals = ui.visuals();
    let color = cell.color();
    painter.rect_filled(rect, 3.0, color.gamma_multiply(0.22));
    let border = if current {
        Stroke::new(2.5, visuals.strong_text_color())
    } else {
        Stroke::new(1.0, color)
    };
    painter.rect_stroke(rect, 3.0, border, StrokeKind::Inside);
    let text = format!("{} {}", cell.step.step, short_tool(&cell.step.tool));
    let font = FontId::proportional(11.0);
    painter.text(
        rect.min + vec2(4.0, 3.0),
        egui::Align2::LEFT_TOP,
        text,
        font,
        visuals.strong_text_color(),
    );
    let tokens = cell
        .tokens()
        .map_or_else(|| "-".to_owned(), |t| format!("{t} tok"));
    painter.text(
        rect.min + vec2(4.0, 18.0),
        egui::Align2::LEFT_TOP,
        tokens,
        FontId::proportional(10.0),
        visuals.weak_text_color(),
    );
    if cell.step.actor == Actor::Person {
        let edge = Rect::from_min_size(rect.min, vec2(4.0, rect.height()));
        painter.rect_filled(edge, 2.0, PERSON);
    }
    if cell.stale() {
        let corner = rect.right_top() + vec2(-3.0, 3.0);
        let triangle = vec![corner, corner + vec2(-12.0, 0.0), corner + vec2(0.0, 12.0)];
        painter.add(egui::Shape::convex_polygon(
            triangle,
            colors::AMBER,
            Stroke::NONE,
        ));
    }
    if let Some(settle) = cell.settle() {
        let bar = Rect::from_min_max(
            pos2(rect.left() + 4.0, rect.bottom() - 12.0),
            pos2(rect.right() - 6.0, rect.bottom() - 6.0),
        );
        paint_settle(&painter, bar, &settle, visuals.weak_text_color());
    }
}

/// Floor, polling up to the last change, idle to the end, on a scale up to the ceiling
/// (marked by a tick); a screen that never settled fills to the end in purple.
fn paint_settle(painter: &egui::Painter, bar: Rect, settle: &SettleReport, tick: Color32) {
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

/// A tool's name short enough for a cell.
fn short_tool(tool: &str) -> &str {
    match tool {
        "screen_operation_accessibility" => "observe",
        "screen_operation_shell" => "shell",
        "load_skill" => "skill",
        "list_packages" => "packages",
        "launch_app" => "launch",
        "input_text" => "type",
        "press_key" => "key",
        "long_press" => "hold",
        other => other.strip_prefix("screen_operation_").unwrap_or(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(json: &str) -> Step {
        serde_json::from_str(json).expect("a step")
    }

    const SETTLED: &str = r#"{"step":1,"at_ms":0,"duration_ms":900,"actor":"agent","tool":"tap","arguments":{},"outcome":"ok","message":"","settle":{"floor_ms":200,"idle_ms":300,"last_change_ms":600,"polls":9,"settled":true,"total_ms":900}}"#;

    #[test]
    fn a_screen_that_never_settled_is_a_purple_problem() {
        let settled = step(SETTLED);
        let unsettled = step(&SETTLED.replace(r#""settled":true"#, r#""settled":false"#));
        let ok = Cell { step: &settled };
        let not = Cell { step: &unsettled };
        assert!(!ok.problem() && ok.color() == colors::ADDED);
        assert!(not.problem() && not.color() == UNSETTLED);
        assert_eq!(not.name(), "timeline step 1: tap, ok, not settled");
        let report = ok.settle().expect("parsed");
        assert_eq!(report.total.as_millis(), 900);
    }

    #[test]
    fn a_stale_step_is_marked_and_counts_as_a_problem() {
        let json = SETTLED.replace(
            r#""outcome""#,
            r#""version_used":"aaaaaaaaaaaa","version_before":"bbbbbbbbbbbb","outcome""#,
        );
        let stale = step(&json);
        let cell = Cell { step: &stale };
        assert!(cell.stale() && cell.problem());
        assert!(cell.name().ends_with(", stale"));
    }

    #[test]
    fn tool_names_fit_a_cell() {
        assert_eq!(short_tool("screen_operation_accessibility"), "observe");
        assert_eq!(short_tool("screen_operation_zoom"), "zoom");
        assert_eq!(short_tool("swipe"), "swipe");
    }
}
