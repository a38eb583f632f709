//! The step pane of a recording: what the call asked, how it ended, how the screen settled
//! and was read, the versions it met and its result text, what the phone logged during it,
//! its forensics review, and for a command sent through `tapscope proxy` its adb facts;
//! previous / next and a list of every step.

use egui::{Color32, RichText};
use serde_json::Value;
use tapscope_core::recording::{Actor, Landed, ScreenRef, Step, StepOutcome};

use super::adb::adb_ui;
use super::forensics::forensics_ui;
use super::log::{LogState, log_ui};
use super::look::{look_of, look_ui};
use super::{colors, line_rows_ui};
use crate::gui::recording::{Side, StepRef};

/// Which step the list last scrolled into view, and the log's search.
#[derive(Debug, Default)]
pub struct StepState {
    revealed: Option<usize>,
    log: LogState,
}

/// Draws the step; returns the index of the step to go to, when one was asked for.
pub fn step_ui(ui: &mut egui::Ui, info: StepRef<'_>, state: &mut StepState) -> Option<usize> {
    let mut go = header_ui(ui, info);
    ui.separator();
    egui::Panel::left("step list")
        .resizable(true)
        .default_size(250.0)
        .show(ui, |ui| {
            if let Some(k) = list_ui(ui, info, state) {
                go = Some(k);
            }
        });
    egui::Panel::right("step message")
        .resizable(true)
        .default_size(560.0)
        .show(ui, |ui| {
            message_ui(ui, info.step);
            ui.separator();
            log_ui(ui, &info.recording.recording, info.step, &mut state.log);
        });
    egui::CentralPanel::default().show(ui, |ui| facts_ui(ui, info));
    go
}

/// The colour of an outcome: ok green, refused amber, error red.
pub fn outcome_color(outcome: StepOutcome) -> Color32 {
    match outcome {
        StepOutcome::Ok => colors::ADDED,
        StepOutcome::Refused => colors::AMBER,
        StepOutcome::Error => colors::LOST,
        // An outcome of a newer recording format than this build knows.
        _ => colors::LOST,
    }
}

/// `ok`, `refused` or `error`.
pub fn outcome_word(outcome: StepOutcome) -> &'static str {
    match outcome {
        StepOutcome::Ok => "ok",
        StepOutcome::Refused => "refused",
        StepOutcome::Error => "error",
        _ => "other",
    }
}

/// Previous / next, and the step in one line.
fn header_ui(ui: &mut egui::Ui, info: StepRef<'_>) -> Option<usize> {
    let mut go = None;
    let step = info.step;
    let last = info.steps().len() - 1;
    ui.horizontal_wrapped(|ui| {
        let previous = ui.add_enabled(info.index > 0, egui::Button::new("< Previous step"));
        if previous.on_hover_text("Left arrow").clicked() {
            go = Some(info.index - 1);
        }
        let next = ui.add_enabled(info.index < last, egui::Button::new("Next step >"));
        if next.on_hover_text("Right arrow").clicked() {
            go = Some(info.index + 1);
        }
        ui.separator();
        ui.strong(info.position());
        ui.label(match step.actor {
            Actor::Agent => "agent",
            Actor::Person => "person",
        });
        ui.label(RichText::new(&step.tool).monospace().strong());
        ui.colored_label(outcome_color(step.outcome), outcome_word(step.outcome));
        ui.separator();
        ui.label(format!(
            "at {:.2} s · took {} ms",
            step.at_ms as f64 / 1000.0,
            step.duration_ms
        ));
        ui.separator();
        let header = &info.recording.recording.header;
        let mut made = format!(
            "{} · {} · tapscope {}",
            info.recording.name, header.device, header.tapscope
        );
        if let Some(proxy) = &header.proxy {
            let check = proxy.check.name();
            made.push_str(&format!(" · proxy to {} · check {check}", proxy.upstream));
        }
        ui.weak(made);
    });
    go
}

/// Every step as its number and tool, with a dot of its outcome's colour; only the rows in
/// view are laid out, and the current one is scrolled into view when it changes.
fn list_ui(ui: &mut egui::Ui, info: StepRef<'_>, state: &mut StepState) -> Option<usize> {
    let mut go = None;
    let reveal = (state.revealed != Some(info.index)).then_some(info.index);
    state.revealed = Some(info.index);
    let steps = info.steps();
    line_rows_ui(ui, "step list", steps.len(), reveal, |ui, k| {
        let step = &steps[k];
        ui.horizontal(|ui| {
            let (dot, _) = ui.allocate_exact_size(egui::vec2(8.0, 8.0), egui::Sense::hover());
            ui.painter()
                .circle_filled(dot.center(), 4.0, outcome_color(step.outcome));
            let text = RichText::new(format!("{:>3} {}", step.step, step.tool));
            if ui
                .selectable_label(k == info.index, text.monospace())
                .clicked()
            {
                go = Some(k);
            }
        });
    });
    go
}

/// The command a proxied step's client sent, and the result text the tool returned
/// besides the tree.
fn message_ui(ui: &mut egui::Ui, step: &Step) {
    if let Some(adb) = &step.adb {
        adb_ui(ui, step, adb);
        ui.separator();
    }
    ui.strong("Result text");
    egui::ScrollArea::vertical()
        .id_salt("step message")
        .max_height(160.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if step.message.is_empty() {
                ui.weak("(none besides the tree)");
            } else {
                ui.add(egui::Label::new(RichText::new(&step.message).monospace()).wrap());
            }
        });
}

/// The step's facts, one per row.
fn facts_ui(ui: &mut egui::Ui, info: StepRef<'_>) {
    let step = info.step;
    egui::ScrollArea::vertical()
        .id_salt("step facts")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            forensics_ui(ui, info);
            if let Some(stale) = stale(step) {
                ui.colored_label(colors::AMBER, stale);
            }
            egui::Grid::new("step facts grid")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    let row = |ui: &mut egui::Ui, key: &str, value: String| {
                        ui.label(key);
                        ui.add(egui::Label::new(value).wrap());
                        ui.end_row();
                    };
                    row(ui, "arguments", step.arguments.to_string());
                    row(ui, "acted on", or_none(step.acted_on.as_deref()));
                    row(ui, "path", path_text(&step.path));
                    ui.label("settle");
                    settle_ui(ui, step.settle.as_ref());
                    ui.end_row();
                    if let Some(look) = look_of(step.settle.as_ref()) {
                        ui.label("look");
                        match look {
                            Ok(look) => look_ui(ui, &look),
                            Err(_) => {
                                ui.weak("recorded in a form this build does not read");
                            }
                        }
                        ui.end_row();
                    }
                    let bottomed = if step.bottomed_out {
                        "yes: the scroll found the end of its list"
                    } else {
                        "no"
                    };
                    row(ui, "bottomed out", bottomed.to_owned());
                    row(ui, "versions", versions_text(step));
                    row(ui, "screen shown", shown_text(info));
                    row(ui, "tokens raw -> pruned", tokens_text(step));
                });
        });
}

/// "stale: …" when the call acted on a screen older than the latest one.
pub fn stale(step: &Step) -> Option<String> {
    let (used, before) = (step.version_used.as_ref()?, step.version_before.as_ref()?);
    is_stale(step).then(|| match step.adb {
        Some(_) => format!(
            "stale: aimed on the screen of version {used}, landed on version {before} on \
             something else"
        ),
        None => format!("stale: the handle is from version {used}, the screen was at {before}"),
    })
}

/// Whether the call acted on a screen older than the latest one (what forensics reviews):
/// for a command through `tapscope proxy`, that its point landed elsewhere than it aimed
/// (a version that changed elsewhere, a clock, is no stale tap); for a tool call, that
/// the version it used was not the latest.
pub fn is_stale(step: &Step) -> bool {
    match &step.adb {
        Some(adb) => adb.landed == Some(Landed::Elsewhere),
        None => matches!(
            (&step.version_used, &step.version_before),
            (Some(used), Some(before)) if used != before
        ),
    }
}

fn or_none(value: Option<&str>) -> String {
    value.unwrap_or("none").to_owned()
}

fn path_text(path: &[[i32; 2]]) -> String {
    if path.is_empty() {
        return "none".to_owned();
    }
    let points: Vec<String> = path.iter().map(|[x, y]| format!("({x}, {y})")).collect();
    points.join(" -> ")
}

/// Total, floor, polls, dumps and idle in one line, then `settled` (and by what) or a
/// highlighted `not settled`.
fn settle_ui(ui: &mut egui::Ui, settle: Option<&Value>) {
    let Some(settle) = settle.filter(|s| s.is_object()) else {
        ui.label("none");
        return;
    };
    let ms = |key: &str| settle.get(key).and_then(Value::as_u64);
    let parts: Vec<String> = [
        ms("total_ms").map(|t| format!("{t} ms total")),
        ms("floor_ms").map(|t| format!("floor {t} ms")),
        ms("polls").map(|n| counted(n, "poll")),
        // Recordings made before dumps were counted have none (or 0).
        ms("dumps").filter(|&n| n > 0).map(|n| counted(n, "dump")),
        ms("idle_ms").map(|t| format!("idle {t} ms")),
    ]
    .into_iter()
    .flatten()
    .collect();
    ui.horizontal_wrapped(|ui| {
        ui.label(parts.join(" · "));
        match settle.get("settled").and_then(Value::as_bool) {
            Some(true) => match settle.get("decided_by").and_then(Value::as_str) {
                Some(by) => ui.colored_label(colors::ADDED, format!("settled ({by})")),
                None => ui.colored_label(colors::ADDED, "settled"),
            },
            Some(false) => ui.label(
                RichText::new("not settled")
                    .strong()
                    .color(Color32::BLACK)
                    .background_color(colors::AMBER),
            ),
            None => ui.weak("settled: not recorded"),
        };
    });
}

/// `1 poll`, `3 polls`.
fn counted(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn versions_text(step: &Step) -> String {
    let version = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".to_owned());
    format!(
        "used {} · before {} · after {}",
        version(&step.version_used),
        version(&step.version_before),
        version(&step.version_after)
    )
}

fn shown_text(info: StepRef<'_>) -> String {
    match (info.shown, info.shown_screen()) {
        (Some(Side::After), Some(screen)) => format!("after, version {}", screen.version),
        (Some(Side::Before), Some(screen)) => format!(
            "before, version {}: the step left no screen of its own",
            screen.version
        ),
        _ => "none".to_owned(),
    }
}

fn tokens_text(step: &Step) -> String {
    let screen = |name: &str, screen: &Option<ScreenRef>| {
        screen
            .as_ref()
            .map(|s| format!("{name} {} -> {}", s.raw_tokens, s.pruned_tokens))
    };
    let parts: Vec<String> = [screen("before", &step.before), screen("after", &step.after)]
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(" · ")
    }
}
