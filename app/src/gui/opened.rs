//! What is open in the workbench: a dump, a recording on one of its steps (with that
//! step's screen once loaded, followed as it grows when it was opened from disk), a run
//! compared with its original, or the live phone's latest screen.

use super::compared::Compared;
use super::document::Document;
use super::error::OpenError;
use super::on_step::OnStep;
use super::recording::{NoScreen, StepRef};
use super::views::open_list::Entry;

/// One thing open in the workbench.
#[derive(Debug)]
pub enum Opened {
    /// A dump (with its screenshot, when it has one).
    Dump(Document),
    /// A recording, on one of its steps.
    Recording(OnStep),
    /// A run and the recording it replays, on one of their steps.
    Comparison(Compared),
    /// The live phone's latest screen.
    Live(Document),
}

impl Opened {
    /// The screen on show, when there is one.
    pub fn document(&self) -> Option<&Document> {
        match self {
            Self::Dump(document) | Self::Live(document) => Some(document),
            Self::Recording(on) => on.document(),
            Self::Comparison(compared) => compared.on_show().document(),
        }
    }

    /// Why a recording's step on show has no screen, when it has none.
    pub fn why_no_screen(&self) -> Option<&NoScreen> {
        match self {
            Self::Recording(on) => on.why_no_screen(),
            Self::Comparison(compared) => compared.on_show().why_no_screen(),
            Self::Dump(_) | Self::Live(_) => None,
        }
    }

    /// Shows step `at` of a recording or a comparison, its neighbours loading in the
    /// background; `false` when there is no such step.
    pub(super) fn go_to(&mut self, at: usize) -> bool {
        match self {
            Self::Recording(on) => on.go_to(at),
            Self::Comparison(compared) => compared.go_to(at),
            Self::Dump(_) | Self::Live(_) => false,
        }
    }

    /// A recording opened from disk read again if it grew, on the same step
    /// ([`OnStep::follow`]).
    pub(super) fn follow(&mut self, ctx: &egui::Context) -> Result<(), OpenError> {
        match self {
            Self::Recording(on) => on.follow(ctx),
            Self::Comparison(_) | Self::Dump(_) | Self::Live(_) => Ok(()),
        }
    }

    /// Loads the screen of the step on show, when it is not loaded yet.
    pub(super) fn show_again(&mut self) {
        match self {
            Self::Recording(on) => {
                on.show(on.at);
            }
            Self::Comparison(compared) => compared.show_again(),
            Self::Dump(_) | Self::Live(_) => {}
        }
    }

    /// What it holds, by name: each step of a recording or a comparison, else the screen.
    pub fn entries(&self) -> Vec<(Option<usize>, String)> {
        let steps = |steps: usize, name: &dyn Fn(usize) -> Option<String>| {
            (0..steps)
                .filter_map(|k| Some((Some(k), name(k)?)))
                .collect()
        };
        match self {
            Self::Recording(on) => {
                let recording = &on.recording;
                steps(recording.steps().len(), &|k| {
                    Some(recording.step(k)?.name())
                })
            }
            Self::Comparison(compared) => {
                let comparison = &compared.comparison;
                steps(comparison.rows(), &|k| {
                    Some(comparison.row(k)?.step()?.name())
                })
            }
            Self::Dump(d) | Self::Live(d) => vec![(None, d.name.clone())],
        }
    }
}

/// Every item open and, for a recording or a comparison, each of its steps: the lines of
/// the toolbar's list.
pub(super) fn entries(opened: &[Opened]) -> Vec<Entry> {
    opened
        .iter()
        .enumerate()
        .flat_map(|(item, open)| {
            let entries = open.entries().into_iter();
            entries.map(move |(step, name)| Entry { item, step, name })
        })
        .collect()
}

/// The step on show in `opened[current]`, when it is a recording.
pub(super) fn step_on_show(opened: &[Opened], current: usize) -> Option<StepRef<'_>> {
    match opened.get(current)? {
        Opened::Recording(on) => on.step(),
        Opened::Comparison(compared) => compared.on_show().step(),
        Opened::Dump(_) | Opened::Live(_) => None,
    }
}
