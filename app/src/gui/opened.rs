//! What is open in the workbench: a dump, a recording on one of its steps (with that
//! step's screen once loaded), or the live phone's latest screen.

use std::sync::Arc;

use super::document::Document;
use super::recording::{NoScreen, Recording, StepRef, StepScreen};

/// One thing open in the workbench.
#[derive(Debug)]
pub enum Opened {
    /// A dump (with its screenshot, when it has one).
    Dump(Document),
    /// A recording, on one of its steps.
    Recording(OnStep),
    /// The live phone's latest screen.
    Live(Document),
}

/// A recording and the step of it on show, with that step's screen.
#[derive(Debug)]
pub struct OnStep {
    pub recording: Arc<Recording>,
    /// The step on show (0-based).
    pub at: usize,
    /// The screen of step `at`, once loaded.
    screen: Option<StepScreen>,
}

impl OnStep {
    pub(super) fn new(recording: Arc<Recording>, at: usize) -> Self {
        Self {
            recording,
            at,
            screen: None,
        }
    }

    /// The same recording grown to `recording`, on `step`: a step stays the same once
    /// written, so the one on show keeps its screen.
    pub(super) fn grown(&mut self, recording: Arc<Recording>, step: usize) -> Self {
        let screen = if step == self.at {
            self.screen.take()
        } else {
            None
        };
        Self {
            recording,
            at: step,
            screen,
        }
    }

    /// The step on show.
    pub fn step(&self) -> Option<StepRef<'_>> {
        let mut step = self.recording.step(self.at)?;
        if matches!(self.screen, Some(StepScreen::None(_))) {
            step.shown = None;
        }
        Some(step)
    }

    /// Shows step `at`, loading its screen (from the cache when it is there); whether it
    /// loaded one now.
    pub(super) fn show(&mut self, at: usize) -> bool {
        if self.at == at && self.screen.is_some() {
            return false;
        }
        self.at = at;
        self.screen = Some(self.recording.step_screen(at));
        true
    }
}

impl Opened {
    /// The screen on show, when there is one.
    pub fn document(&self) -> Option<&Document> {
        match self {
            Self::Dump(document) | Self::Live(document) => Some(document),
            Self::Recording(on) => Some(&on.screen.as_ref()?.screen()?.document),
        }
    }

    /// Why a recording's step on show has no screen, when it has none.
    pub fn why_no_screen(&self) -> Option<&NoScreen> {
        match self {
            Self::Recording(OnStep {
                screen: Some(StepScreen::None(why)),
                ..
            }) => Some(why),
            _ => None,
        }
    }
}

/// The step on show in `opened[current]`, when it is a recording.
pub(super) fn step_on_show(opened: &[Opened], current: usize) -> Option<StepRef<'_>> {
    match opened.get(current)? {
        Opened::Recording(on) => on.step(),
        Opened::Dump(_) | Opened::Live(_) => None,
    }
}
