//! A comparison on one of its rows: the original and the run each on that step, with its
//! screen once loaded. The step on show (the step panel, the inspecting panes, the title)
//! is the run's, or the original's where the run did not get that far.

use std::sync::Arc;

use super::comparison::{Comparison, Row};
use super::on_step::OnStep;

/// A run and its original, on row `at`.
#[derive(Debug)]
pub struct Compared {
    pub comparison: Arc<Comparison>,
    /// The row on show (0-based).
    pub at: usize,
    original: OnStep,
    run: OnStep,
}

impl Compared {
    /// `comparison` on row `at`, its screens loaded now.
    pub(super) fn new(comparison: Arc<Comparison>, at: usize) -> Self {
        let original = OnStep::new(Arc::clone(&comparison.original), at);
        let run = OnStep::new(Arc::clone(&comparison.run), at);
        let mut compared = Self {
            comparison,
            at,
            original,
            run,
        };
        compared.show_again();
        compared
    }

    /// The row on show.
    pub fn row(&self) -> Option<Row<'_>> {
        self.comparison.row(self.at)
    }

    /// The side whose step is on show: the run, else the original.
    pub fn on_show(&self) -> &OnStep {
        if self.at < self.run.recording.steps().len() {
            &self.run
        } else {
            &self.original
        }
    }

    /// Shows row `at`, its screens loaded now and their neighbours' in the background, its
    /// verdict judged next; `false` when there is no such row.
    pub(super) fn go_to(&mut self, at: usize) -> bool {
        if at >= self.comparison.rows() {
            return false;
        }
        self.at = at;
        self.comparison.hurry(at);
        self.original.go_to(at);
        self.run.go_to(at);
        true
    }

    /// Loads the screens of the row on show, when they are not loaded yet.
    pub(super) fn show_again(&mut self) {
        for side in [&mut self.original, &mut self.run] {
            if self.at < side.recording.steps().len() {
                side.show(self.at);
            }
        }
    }
}
