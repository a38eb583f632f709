//! `timeline_ui`: a recording as a strip of cells, one per step ([`cell`]): tool, outcome
//! colour, a stale marker, the settle timing as a small stacked bar and the token cost; a
//! run compared with its original as two rows of cells, step N over step N, each step with
//! its verdict ([`aligned`]). Click or drag across it to scrub, Home/End for the ends;
//! "Problems only" (in a comparison "Differences only") hides the steps that went well, and
//! ←/→ then jump between the rest. Only the cells in view are laid out ([`strip`]).

mod aligned;
mod cell;
mod strip;

use egui::{FontId, Rect};
use tapscope_core::recording::Step;

pub use self::aligned::verdict_color;
use self::cell::{Cell, PERSON, Steps};
use self::strip::strip_ui;
use super::colors;
use super::settle::UNSETTLED;
use crate::gui::comparison::Row;
use crate::gui::recording::StepRef;

/// The timeline's filter and where it last scrolled to.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// Show only refused, failed, stale and unsettled steps; in a comparison, only the
    /// steps not judged the same.
    pub problems_only: bool,
    revealed: Option<usize>,
    viewport: Option<Rect>,
}

/// What the timeline shows.
#[derive(Clone, Copy, Debug)]
pub enum Strip<'a> {
    /// A recording's steps, around the one on show.
    Steps(StepRef<'a>),
    /// A run and its original step by step, around the row on show.
    Rows(Row<'a>),
}

impl Strip<'_> {
    /// The step (or row) on show.
    fn current(&self) -> usize {
        match self {
            Self::Steps(info) => info.index,
            Self::Rows(row) => row.index,
        }
    }

    /// The steps the strip shows: all, or only the problems (the differences).
    fn shown(&self, problems_only: bool) -> Vec<usize> {
        match self {
            Self::Steps(info) => shown(info.steps(), problems_only),
            Self::Rows(row) if problems_only => row.comparison.differing(),
            Self::Rows(row) => (0..row.comparison.rows()).collect(),
        }
    }
}

/// The indices of a recording's steps the strip shows.
fn shown(steps: &[Step], problems_only: bool) -> Vec<usize> {
    (0..steps.len())
        .filter(|&k| !problems_only || Cell { step: &steps[k] }.problem())
        .collect()
}

/// Home and End, and ←/→ when only problems show (taken before the workbench steps by one);
/// returns the step to go to.
pub fn timeline_keys(ui: &egui::Ui, strip: Strip<'_>, timeline: &Timeline) -> Option<usize> {
    if ui.ctx().egui_wants_keyboard_input() {
        return None;
    }
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
    let shown = strip.shown(problems_only);
    let current = strip.current();
    match () {
        () if home => shown.first().copied(),
        () if end => shown.last().copied(),
        () if left => shown.iter().rev().find(|&&k| k < current).copied(),
        () => shown.iter().find(|&&k| k > current).copied(),
    }
}

/// The strip and its header; returns the step clicked or dragged to.
pub fn timeline_ui(
    ui: &mut egui::Ui,
    strip: Strip<'_>,
    timeline: &mut Timeline,
    compare: &mut bool,
) -> Option<usize> {
    let rows = matches!(strip, Strip::Rows(_));
    ui.horizontal(|ui| {
        ui.strong("Timeline");
        ui.selectable_value(compare, false, "Inspect")
            .on_hover_text("the screen, raw and pruned panes of the step's screen");
        let compared = if rows {
            "the original's and the run's screens after the step, and what changed"
        } else {
            "the screens before and after the step, and what changed"
        };
        ui.selectable_value(compare, true, "Compare")
            .on_hover_text(compared);
        ui.separator();
        let (filter, hides) = if rows {
            ("Differences only", "hide the steps judged the same")
        } else {
            ("Problems only", "hide the steps that went well")
        };
        ui.checkbox(&mut timeline.problems_only, filter)
            .on_hover_text(format!("{hides}; Left and Right jump between the rest"));
        ui.separator();
        if rows {
            aligned::legend_ui(ui);
        } else {
            legend_ui(ui);
        }
    });
    let shown = strip.shown(timeline.problems_only);
    match strip {
        _ if shown.is_empty() && rows => {
            ui.weak("No differences: every step is judged the same.");
            None
        }
        _ if shown.is_empty() => {
            ui.weak("No problems: every step went well.");
            None
        }
        Strip::Steps(info) => {
            let steps = Steps {
                steps: info.steps(),
            };
            strip_ui(ui, info.index, &shown, timeline, &steps)
        }
        Strip::Rows(row) => aligned::aligned_ui(ui, row, &shown, timeline),
    }
}

/// Words in colours, as one label.
fn colored_words_ui(ui: &mut egui::Ui, words: &[(&str, egui::Color32)]) {
    let mut job = egui::text::LayoutJob::default();
    let small = FontId::proportional(11.0);
    for (word, color) in words {
        let format = egui::TextFormat::simple(small.clone(), *color);
        job.append(word, 0.0, format);
    }
    ui.label(job);
}

/// The colours and the bar explained.
fn legend_ui(ui: &mut egui::Ui) {
    let weak = ui.visuals().weak_text_color();
    colored_words_ui(
        ui,
        &[
            ("ok ", colors::ADDED),
            ("refused ", colors::AMBER),
            ("error ", colors::LOST),
            ("not settled ", UNSETTLED),
            ("stale (corner) ", colors::AMBER),
            ("crashed (lower corner) ", colors::LOST),
            ("person (left edge) ", PERSON),
            ("| bar: floor, polling, idle; tick at 5 s", weak),
        ],
    );
}
