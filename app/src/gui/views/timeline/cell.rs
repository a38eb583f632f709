//! One step as the timeline draws it: the outcome's colour, number and tool, tokens, a
//! stale corner, a crash's bottom-left corner (errors in the log, a smaller one), a
//! person's left edge and the settle bar; its accessible name and hover text. A recording's strip is a row of these; a comparison's, two.

use egui::{Color32, FontId, Rect, Stroke, StrokeKind, pos2, vec2};
use tapscope_core::recording::{Actor, Step, StepOutcome};
use tapscope_core::stability::SettleReport;

use super::super::colors;
use super::super::settle::{UNSETTLED, paint_settle, settle_of};
use super::super::step::{is_stale, outcome_color, outcome_word};
use super::strip::{CELL, Columns};

/// A step a person took in live mode, not an agent.
pub(super) const PERSON: Color32 = Color32::from_rgb(230, 120, 200);

/// One step as the timeline draws it.
pub(super) struct Cell<'a> {
    pub step: &'a Step,
}

impl Cell<'_> {
    fn settle(&self) -> Option<SettleReport> {
        settle_of(self.step)
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

    /// The crashes the step's log says, and its error lines.
    fn logged(&self) -> (usize, u32) {
        self.step
            .log
            .as_ref()
            .map_or((0, 0), |l| (l.crashes.len(), l.errors))
    }

    pub fn problem(&self) -> bool {
        self.step.outcome != StepOutcome::Ok
            || self.stale()
            || self.unsettled()
            || self.logged().0 > 0
    }

    /// Error and refusal colours first, then not settled, then ok.
    fn color(&self) -> Color32 {
        match self.step.outcome {
            StepOutcome::Ok if self.unsettled() => UNSETTLED,
            outcome => outcome_color(outcome),
        }
    }

    /// What the step was and how it went: `tap, refused, stale`.
    pub fn what(&self) -> String {
        let outcome = outcome_word(self.step.outcome);
        let mut name = format!("{}, {outcome}", self.step.tool);
        if self.stale() {
            name.push_str(", stale");
        }
        if self.unsettled() {
            name.push_str(", not settled");
        }
        match self.logged() {
            (0, 0) => {}
            (0, errors) => name.push_str(&format!(", {errors} errors logged")),
            (crashes, _) => name.push_str(&format!(", {crashes} crash logged")),
        }
        if self.step.actor == Actor::Person {
            name.push_str(", by the person");
        }
        name
    }

    /// The accessible name, unique per step: `timeline step 13: tap, refused, stale`.
    fn name(&self) -> String {
        format!("timeline step {}: {}", self.step.step, self.what())
    }

    fn tokens(&self) -> Option<u32> {
        Some(self.step.after.as_ref()?.pruned_tokens)
    }

    /// The step, its settle timing (and the way the screen was read) and its tokens, a line
    /// each.
    pub fn hover_text(&self) -> String {
        let mut lines = vec![format!("step {}: {}", self.step.step, self.what())];
        if let Some(s) = self.settle() {
            let ms = |d: Option<std::time::Duration>| {
                d.map_or_else(|| "none".to_owned(), |d| format!("{} ms", d.as_millis()))
            };
            let mut line = format!(
                "settle: {} total · floor {} · last change {} · idle {}",
                ms(Some(s.total)),
                ms(Some(s.floor)),
                ms(s.last_change),
                ms(s.idle)
            );
            if let Some(look) = s.look {
                line.push_str(&format!(" · looked through {}", look.backend));
                if let Some(fallback) = look.fell_back {
                    line.push_str(&format!(" ({} failed)", fallback.from));
                }
            }
            lines.push(line);
        }
        if let Some(tokens) = self.tokens() {
            lines.push(format!("{tokens} tokens in the pruned screen after"));
        }
        if let Some(log) = &self.step.log {
            lines.extend(log.crashes.iter().map(|c| c.said.clone()));
        }
        lines.join("\n")
    }

    /// Fill and border of the outcome's colour, number and tool, tokens, stale marker, bar.
    pub fn paint(&self, ui: &egui::Ui, rect: Rect, current: bool) {
        let painter = ui.painter().with_clip_rect(rect.intersect(ui.clip_rect()));
        let visuals = ui.visuals();
        let color = self.color();
        painter.rect_filled(rect, 3.0, color.gamma_multiply(0.22));
        let border = if current {
            Stroke::new(2.5, visuals.strong_text_color())
        } else {
            Stroke::new(1.0, color)
        };
        painter.rect_stroke(rect, 3.0, border, StrokeKind::Inside);
        let text = format!("{} {}", self.step.step, short_tool(&self.step.tool));
        let font = FontId::proportional(11.0);
        painter.text(
            rect.min + vec2(4.0, 3.0),
            egui::Align2::LEFT_TOP,
            text,
            font,
            visuals.strong_text_color(),
        );
        let tokens = self
            .tokens()
            .map_or_else(|| "-".to_owned(), |t| format!("{t} tok"));
        painter.text(
            rect.min + vec2(4.0, 18.0),
            egui::Align2::LEFT_TOP,
            tokens,
            FontId::proportional(10.0),
            visuals.weak_text_color(),
        );
        if self.step.actor == Actor::Person {
            let edge = Rect::from_min_size(rect.min, vec2(4.0, rect.height()));
            painter.rect_filled(edge, 2.0, PERSON);
        }
        if self.stale() {
            let corner = rect.right_top() + vec2(-3.0, 3.0);
            let triangle = vec![corner, corner + vec2(-12.0, 0.0), corner + vec2(0.0, 12.0)];
            painter.add(egui::Shape::convex_polygon(
                triangle,
                colors::AMBER,
                Stroke::NONE,
            ));
        }
        let (crashes, errors) = self.logged();
        if crashes > 0 || errors > 0 {
            // Bottom left, where the stale corner is not: a crash large, errors small.
            let size = if crashes > 0 { 14.0 } else { 7.0 };
            let corner = rect.left_bottom() + vec2(3.0, -3.0);
            let triangle = vec![corner, corner + vec2(size, 0.0), corner + vec2(0.0, -size)];
            painter.add(egui::Shape::convex_polygon(
                triangle,
                colors::LOST,
                Stroke::NONE,
            ));
        }
        if let Some(settle) = self.settle() {
            let bar = Rect::from_min_max(
                pos2(rect.left() + 4.0, rect.bottom() - 12.0),
                pos2(rect.right() - 6.0, rect.bottom() - 6.0),
            );
            paint_settle(&painter, bar, &settle, visuals.weak_text_color());
        }
    }
}

/// A recording's steps, one cell a column.
pub(super) struct Steps<'a> {
    pub steps: &'a [Step],
}

impl Columns for Steps<'_> {
    fn height(&self) -> f32 {
        CELL.y
    }

    fn name(&self, k: usize) -> String {
        Cell {
            step: &self.steps[k],
        }
        .name()
    }

    fn paint(&self, ui: &egui::Ui, rect: Rect, k: usize, current: bool) {
        Cell {
            step: &self.steps[k],
        }
        .paint(ui, rect, current);
    }

    fn hover(&self, k: usize) -> String {
        Cell {
            step: &self.steps[k],
        }
        .hover_text()
    }
}

/// A tool's name short enough for a cell.
fn short_tool(tool: &str) -> &str {
    match tool {
        "screen_operation_accessibility" => "observe",
        "screen_operation_shell" => "shell",
        "load_skill" => "skill",
        "list_packages" => "packages",
        "launch_app" => "launch",
        // An MCP call's, and a command's through `tapscope proxy`.
        "input_text" | "text" => "type",
        "press_key" => "key",
        "long_press" => "hold",
        other => other.strip_prefix("screen_operation_").unwrap_or(other),
    }
}

#[cfg(test)]
mod tests {
    use tapscope_core::recording::{AdbCommand, CommandKind, Landed};

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
        assert!(!ok.hover_text().contains("looked"), "{}", ok.hover_text());
    }

    #[test]
    fn the_hover_says_the_way_the_screen_was_read_and_a_helper_that_failed() {
        let look = r#","look":{"backend":"stock","look_ms":2100,"fell_back":{"from":"u2","why":"hung","to":"stock"}}}"#;
        let fell_back =
            step(&SETTLED.replace(r#""total_ms":900}"#, &format!(r#""total_ms":900{look}"#)));
        let hover = Cell { step: &fell_back }.hover_text();
        assert!(
            hover.contains("idle 300 ms · looked through stock (u2 failed)"),
            "{hover}"
        );
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
    fn a_step_whose_log_says_a_crash_is_a_problem_named_with_it() {
        use tapscope_core::recording::{LoggedCrash, StepLog};
        let crashed = Step {
            log: Some(StepLog {
                lines: 6,
                errors: 4,
                crashes: vec![LoggedCrash {
                    kind: "crash".into(),
                    process: "tv.tapscope.demo".into(),
                    what: "java.lang.NullPointerException".into(),
                    said: "12-01 00:00:05.000 crash in tv.tapscope.demo (pid 3101): \
                           java.lang.NullPointerException"
                        .into(),
                }],
                ..StepLog::default()
            }),
            ..step(SETTLED)
        };
        let cell = Cell { step: &crashed };
        assert!(cell.problem());
        assert!(cell.name().ends_with(", 1 crash logged"), "{}", cell.name());
        assert!(cell.hover_text().contains("crash in tv.tapscope.demo"));
        // Errors alone are named, not a problem.
        let errors = Step {
            log: Some(StepLog {
                lines: 3,
                errors: 2,
                ..StepLog::default()
            }),
            ..step(SETTLED)
        };
        let cell = Cell { step: &errors };
        assert!(!cell.problem() && cell.name().ends_with(", 2 errors logged"));
    }

    /// A tap through `tapscope proxy` that aimed at one version and landed on another.
    fn proxied_tap(landed: Option<Landed>) -> Step {
        let adb = AdbCommand {
            serial: "emulator-5554".into(),
            connection: 2,
            service: "shell,v2,raw:input tap 540 1210".into(),
            kind: CommandKind::Action,
            exit: Some(0),
            sent: 0,
            received: 0,
            landed,
        };
        Step {
            version_used: Some("aaaaaaaaaaaa".into()),
            version_before: Some("bbbbbbbbbbbb".into()),
            adb: Some(adb),
            ..step(SETTLED)
        }
    }

    #[test]
    fn a_proxied_tap_is_stale_only_when_it_landed_elsewhere() {
        let elsewhere = proxied_tap(Some(Landed::Elsewhere));
        let same = proxied_tap(Some(Landed::Same));
        let unchecked = proxied_tap(None);
        let cell = Cell { step: &elsewhere };
        assert!(cell.stale() && cell.problem());
        assert!(cell.name().ends_with(", stale"), "{}", cell.name());
        // Its versions differ too, but the point hit the same element: a clock ticked.
        for step in [&same, &unchecked] {
            let cell = Cell { step };
            assert!(!cell.stale() && !cell.problem(), "{}", cell.name());
        }
    }

    #[test]
    fn tool_names_fit_a_cell() {
        assert_eq!(short_tool("screen_operation_accessibility"), "observe");
        assert_eq!(short_tool("screen_operation_zoom"), "zoom");
        assert_eq!(short_tool("swipe"), "swipe");
        // A proxy's: its text input reads as the MCP tool's, the rest as they are.
        assert_eq!(short_tool("text"), "type");
        for tool in [
            "look",
            "screenshot",
            "tap",
            "drag",
            "touch",
            "key",
            "launch",
        ] {
            assert_eq!(short_tool(tool), tool);
        }
        for tool in ["shell", "push", "pull", "install"] {
            assert_eq!(short_tool(tool), tool);
        }
    }
}
