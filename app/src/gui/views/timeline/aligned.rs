//! A run and its original on the timeline: a column per step, the original's cell over the
//! run's, between them the step's verdict in its colour and word (same, changed, diverged;
//! not run where the run stopped before it), the first divergence outlined in red. Verdicts
//! still being judged read "judging" and the strip is drawn again until all are in.

use std::time::Duration;

use egui::{Align2, Color32, FontId, Rect, Stroke, StrokeKind, pos2, vec2};
use tapscope_core::replay::Verdict;

use super::super::{colors, printable};
use super::Timeline;
use super::cell::Cell;
use super::colored_words_ui;
use super::strip::{CELL, Columns, strip_ui};
use crate::gui::comparison::{Comparison, Judgement, Row};

/// The verdict's band between the two cells.
const BAND: f32 = 16.0;
/// The room of the row names left of the strip.
const NAMES: f32 = 52.0;
/// A step not run, not in the original, or still being judged.
const NONE: Color32 = Color32::from_gray(130);
/// How often the strip looks again while verdicts are still coming.
const POLL: Duration = Duration::from_millis(100);

/// The colour of a row's verdict: same green, changed blue (as the tree diff's changed
/// lines), diverged red, anything else grey.
pub fn verdict_color(judgement: &Judgement) -> Color32 {
    match judgement.verdict() {
        Some(Verdict::Same) => colors::ADDED,
        Some(Verdict::Changed(_)) => colors::HOVERED,
        Some(Verdict::Diverged(_)) => colors::LOST,
        None => NONE,
    }
}

/// The counts so far, the row names and the strip of `shown` rows; returns the row
/// clicked or dragged to.
pub(super) fn aligned_ui(
    ui: &mut egui::Ui,
    row: Row<'_>,
    shown: &[usize],
    timeline: &mut Timeline,
) -> Option<usize> {
    let comparison = row.comparison;
    ui.label(summary(comparison));
    if !comparison.is_judged() {
        ui.ctx().request_repaint_after(POLL);
    }
    let columns = Aligned {
        comparison,
        first: comparison.first_divergence(),
    };
    ui.horizontal(|ui| {
        let (names, _) =
            ui.allocate_exact_size(vec2(NAMES, columns.height()), egui::Sense::hover());
        let (font, color) = (FontId::proportional(11.0), ui.visuals().text_color());
        let painter = ui.painter();
        painter.text(
            names.left_top() + vec2(0.0, 4.0),
            Align2::LEFT_TOP,
            "original",
            font.clone(),
            color,
        );
        let run = pos2(names.left(), names.top() + CELL.y + BAND + 4.0);
        painter.text(run, Align2::LEFT_TOP, "run", font, color);
        strip_ui(ui, row.index, shown, timeline, &columns)
    })
    .inner
}

/// `run replays demo: 9 same, 1 changed, 1 diverged, 14 not run (judging)`.
fn summary(comparison: &Comparison) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for k in 0..comparison.rows() {
        let word = comparison.judgement(k).word();
        match counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => counts.push((word, 1)),
        }
    }
    let order = [
        "same",
        "changed",
        "diverged",
        "not run",
        "not in the original",
        "judging",
    ];
    counts.sort_by_key(|(w, _)| order.iter().position(|o| o == w));
    let counts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
    let problem = comparison
        .report_problem
        .as_ref()
        .map_or_else(String::new, |p| format!(" ({p})"));
    format!(
        "{} replays {}: {}{problem}",
        comparison.run.name,
        comparison.original.name,
        counts.join(", ")
    )
}

/// The colours explained.
pub(super) fn legend_ui(ui: &mut egui::Ui) {
    colored_words_ui(
        ui,
        &[
            ("same ", colors::ADDED),
            ("changed ", colors::HOVERED),
            ("diverged ", colors::LOST),
            ("not run ", NONE),
            (
                "| first divergence outlined in red; cells: ok, refused, error",
                colors::LOST,
            ),
        ],
    );
}

/// The rows of a comparison, one column each.
struct Aligned<'a> {
    comparison: &'a Comparison,
    first: Option<usize>,
}

impl Columns for Aligned<'_> {
    fn height(&self) -> f32 {
        CELL.y * 2.0 + BAND
    }

    /// `timeline step 10: scroll, diverged, the first divergence`.
    fn name(&self, k: usize) -> String {
        let judgement = self.comparison.judgement(k);
        let step = self.comparison.row(k).and_then(|row| row.step());
        let (number, tool) = step.map_or((k as u64 + 1, ""), |s| (s.step.step, &s.step.tool));
        let first = if self.first == Some(k) {
            ", the first divergence"
        } else {
            ""
        };
        format!(
            "timeline step {number}: {tool}, {}{first}",
            judgement.word()
        )
    }

    fn paint(&self, ui: &egui::Ui, rect: Rect, k: usize, current: bool) {
        let Some(row) = self.comparison.row(k) else {
            return;
        };
        let judgement = row.judgement();
        let top = Rect::from_min_size(rect.min, vec2(rect.width(), CELL.y - 2.0));
        let band =
            Rect::from_min_size(rect.min + vec2(0.0, CELL.y), vec2(rect.width(), BAND - 2.0));
        let bottom = Rect::from_min_max(pos2(rect.left(), band.bottom() + 2.0), rect.max);
        let painter = ui.painter().with_clip_rect(rect.intersect(ui.clip_rect()));
        let color = verdict_color(&judgement);
        for (cell, half, missing) in [
            (row.original, top, "not in the original"),
            (row.run, bottom, "not run"),
        ] {
            match cell {
                Some(step) => Cell { step: step.step }.paint(ui, half, false),
                None => {
                    painter.rect_stroke(half, 3.0, Stroke::new(1.0, NONE), StrokeKind::Inside);
                    let font = FontId::proportional(10.0);
                    painter.text(half.center(), Align2::CENTER_CENTER, missing, font, NONE);
                }
            }
        }
        painter.rect_filled(band, 2.0, color.gamma_multiply(0.35));
        let font = FontId::proportional(10.0);
        let word = judgement.word();
        let text = ui.visuals().strong_text_color();
        painter.text(band.center(), Align2::CENTER_CENTER, word, font, text);
        if self.first == Some(k) {
            painter.rect_stroke(
                rect,
                3.0,
                Stroke::new(2.5, colors::LOST),
                StrokeKind::Inside,
            );
        }
        if current {
            let inner = rect.shrink(3.0);
            let stroke = Stroke::new(2.0, ui.visuals().strong_text_color());
            painter.rect_stroke(inner, 3.0, stroke, StrokeKind::Inside);
        }
    }

    fn hover(&self, k: usize) -> String {
        let Some(row) = self.comparison.row(k) else {
            return String::new();
        };
        let judgement = row.judgement();
        let mut lines = vec![self.name(k).replacen("timeline ", "", 1)];
        if let Judgement::Judged(judged) = &judgement {
            lines.push(printable(&judged.sentence()));
        }
        for (whose, step) in [("original", row.original), ("run", row.run)] {
            let what = step.map_or_else(|| "none".to_owned(), |s| Cell { step: s.step }.what());
            lines.push(format!("{whose}: {what}"));
        }
        lines.join("\n")
    }
}
