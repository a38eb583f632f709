//! `runs_ui`: one step of a run beside the same step of the recording it replays: the
//! verdict in a sentence; the two screens after it side by side (original | run), what
//! disappeared outlined on the original and what appeared on the run; the tree diff
//! between them as the verdict read it; how each call ended, settled (the settle bar, and
//! the way its screen was read) and what it cost in tokens.

use std::time::Duration;

use egui::{Color32, RichText};
use tapscope_core::inspect::tree_diff::{DiffNode, TreeDiff};

use super::compare::{Loaded, diff_ui, screen_ui};
use super::picture::Mark;
use super::settle::{settle_bar_ui, settle_of};
use super::step::{outcome_color, outcome_word};
use super::timeline::verdict_color;
use super::{colors, printable};
use crate::gui::comparison::{Judged, Judgement, Row};
use crate::gui::recording::StepRef;

/// How often the view looks again while the step's verdict is being judged.
const POLL: Duration = Duration::from_millis(100);
const BAR_WIDTH: f32 = 120.0;

/// The row's verdict, screens, diff and facts.
pub fn runs_ui(ui: &mut egui::Ui, row: Row<'_>) {
    let judgement = row.judgement();
    if matches!(judgement, Judgement::Pending) {
        row.comparison.hurry(row.index);
        ui.ctx().request_repaint_after(POLL);
    }
    header_ui(ui, row, &judgement);
    let (then, now) = (after(row.original), after(row.run));
    let diff = match (&then, &now) {
        (Some((_, Ok(t))), Some((_, Ok(n)))) => Some(row.comparison.diff(row.index, t, n)),
        _ => None,
    };
    egui::Panel::right("runs text")
        .resizable(true)
        .default_size(ui.available_width() * 0.42)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("runs text")
                .auto_shrink([false, false])
                .show(ui, |ui| text_ui(ui, row, &judgement, diff.as_deref()));
        });
    let marks = |nodes: fn(&TreeDiff) -> Vec<&DiffNode>, color: Color32| -> Vec<Mark> {
        let nodes = diff.as_deref().map(nodes).unwrap_or_default();
        nodes
            .iter()
            .map(|n| Mark::Bounds(n.bounds, color))
            .collect()
    };
    let mut gone = marks(|d| d.disappeared.iter().collect(), colors::REMOVED);
    gone.extend(marks(
        |d| d.changed.iter().map(|c| &c.before).collect(),
        colors::HOVERED,
    ));
    let mut came = marks(|d| d.appeared.iter().collect(), colors::ADDED);
    came.extend(marks(
        |d| d.changed.iter().map(|c| &c.after).collect(),
        colors::HOVERED,
    ));
    egui::CentralPanel::default().show(ui, |ui| {
        ui.columns(2, |columns| {
            let original = (row.original, then.as_ref(), "not in the original");
            side_ui(&mut columns[0], "original after", original, gone);
            let run = (row.run, now.as_ref(), "the replay stopped before this step");
            side_ui(&mut columns[1], "run after", run, came);
        });
    });
}

/// The screen the step left, loaded.
fn after(step: Option<StepRef<'_>>) -> Option<Loaded<'_>> {
    let step = step?;
    let screen = step.step.after.as_ref()?;
    Some((screen, step.recording.screen(screen)))
}

/// The step, its verdict in a word and a sentence.
fn header_ui(ui: &mut egui::Ui, row: Row<'_>, judgement: &Judgement) {
    let number = row.step().map_or(row.index as u64 + 1, |s| s.step.step);
    let color = verdict_color(judgement);
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("Step {number} replayed"));
        if let Some(step) = row.step() {
            ui.label(RichText::new(&step.step.tool).monospace().strong());
        }
        ui.label(RichText::new(judgement.word()).strong().color(color));
        if row.is_first_divergence() {
            ui.colored_label(colors::LOST, "the first divergence");
        }
        ui.weak(format!(
            "{} against {}",
            row.comparison.run.name, row.comparison.original.name
        ));
    });
    let sentence = match judgement {
        Judgement::Judged(judged) => printable(&judged.sentence()),
        Judgement::Pending => "judging this step…".to_owned(),
        Judgement::NotRun => "not run: the replay stopped before this step".to_owned(),
        Judgement::NotInOriginal => "the original has no such step".to_owned(),
    };
    let sentence = RichText::new(sentence).size(15.0).color(color);
    ui.add(egui::Label::new(sentence).wrap());
}

/// One run's screen after the step, or why there is none.
fn side_ui(
    ui: &mut egui::Ui,
    side: &str,
    (step, screen, missing): (Option<StepRef<'_>>, Option<&Loaded<'_>>, &str),
    marks: Vec<Mark>,
) {
    match step {
        Some(step) => screen_ui(ui, side, step.step, screen, marks),
        None => {
            ui.strong(format!("No screen {side}"));
            ui.weak(missing);
        }
    }
}

/// The two calls' facts side by side and what could not be compared, then the tree diff.
fn text_ui(ui: &mut egui::Ui, row: Row<'_>, judgement: &Judgement, diff: Option<&TreeDiff>) {
    let judged = match judgement {
        Judgement::Judged(judged) => Some(&**judged),
        _ => None,
    };
    facts_ui(ui, row, judged);
    for note in judged.map(|j| j.notes.as_slice()).unwrap_or_default() {
        ui.colored_label(colors::AMBER, note);
    }
    ui.separator();
    ui.strong("What changed in the tree, original to run");
    match diff {
        Some(diff) => diff_ui(
            ui,
            diff,
            "the two trees read the same (volatile text ignored)",
        ),
        None => {
            ui.weak("nothing to compare: a run left no screen after this step");
        }
    }
}

/// How each call ended, settled and what its screen after cost; what a pixel action's
/// point met on each screen it acted on.
fn facts_ui(ui: &mut egui::Ui, row: Row<'_>, judged: Option<&Judged>) {
    let sides = [row.original, row.run];
    egui::Grid::new("runs facts")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            ui.strong("original");
            ui.strong("run");
            ui.end_row();
            ui.label("outcome");
            for step in sides {
                match step {
                    Some(s) => ui
                        .colored_label(outcome_color(s.step.outcome), outcome_word(s.step.outcome)),
                    None => ui.weak("not run"),
                };
            }
            ui.end_row();
            ui.label("settle");
            let slower = judged.is_some_and(|j| j.result.slower);
            for (step, late) in sides.into_iter().zip([false, slower]) {
                settle_cell_ui(ui, step, late);
            }
            ui.end_row();
            ui.label("pruned tokens after");
            for step in sides {
                let tokens = step.and_then(|s| Some(s.step.after.as_ref()?.pruned_tokens));
                ui.label(tokens.map_or_else(|| "-".to_owned(), |t| t.to_string()));
            }
            ui.end_row();
            let at = judged.and_then(|j| j.result.at_point.as_ref());
            if let Some(at) = at.filter(|at| at.then.is_some() || at.now.is_some()) {
                ui.label(format!("at ({}, {})", at.point[0], at.point[1]));
                for met in [&at.then, &at.now] {
                    ui.label(met.as_deref().unwrap_or("nothing"));
                }
                ui.end_row();
            }
        });
}

/// A step's settle bar and total, the way its screen was read (`u2`, `stock`, …), flagged
/// when much slower than the original's.
fn settle_cell_ui(ui: &mut egui::Ui, step: Option<StepRef<'_>>, slower: bool) {
    let Some(settle) = step.and_then(|s| settle_of(s.step)) else {
        ui.weak("no wait");
        return;
    };
    ui.horizontal(|ui| {
        settle_bar_ui(ui, &settle, BAR_WIDTH);
        ui.label(format!("{} ms", settle.total.as_millis()));
        if let Some(look) = &settle.look {
            ui.weak(look.backend.name()).on_hover_text(look.sentence());
        }
        if slower {
            ui.colored_label(colors::AMBER, "much slower");
        }
    });
}
