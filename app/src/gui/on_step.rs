//! A recording open on one of its steps: the step on show and its screen once loaded,
//! read again as it grows when it was opened from disk.

use std::sync::Arc;

use super::document::Document;
use super::error::OpenError;
use super::recording::{Follow, Following, NoScreen, Recording, StepRef, StepScreen};

/// A recording and the step of it on show, with that step's screen.
#[derive(Debug)]
pub struct OnStep {
    pub recording: Arc<Recording>,
    /// The step on show (0-based).
    pub at: usize,
    /// The screen of step `at`, once loaded.
    screen: Option<StepScreen>,
    /// A recording opened from disk, read again as it grows; `None` for live mode's, which
    /// it reads itself.
    following: Option<Following>,
}

impl OnStep {
    /// A recording live mode reads again as it grows.
    pub(super) fn new(recording: Arc<Recording>, at: usize) -> Self {
        Self {
            recording,
            at,
            screen: None,
            following: None,
        }
    }

    /// A recording opened from disk, read again whenever its log grows (it may still be
    /// being written: a proxy's, a server's).
    pub(super) fn opened(recording: Arc<Recording>, at: usize) -> Self {
        let follow = Follow::after(Arc::clone(&recording));
        Self {
            following: Some(Following::new(follow)),
            ..Self::new(recording, at)
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
            following: self.following.take(),
        }
    }

    /// A recording opened from disk read again if it grew since the last frame, on the
    /// same step (the window woken to draw each growth); why it could not be read again.
    pub(super) fn follow(&mut self, ctx: &egui::Context) -> Result<(), OpenError> {
        let Some(read) = self.following.as_mut().and_then(|f| f.news(ctx)) else {
            return Ok(());
        };
        let recording = read?;
        // A log only grows; one written again from the start may have fewer steps.
        let step = self.at.min(recording.steps().len().saturating_sub(1));
        *self = self.grown(recording, step);
        Ok(())
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

    /// Shows step `at` as [`OnStep::show`] does, and loads its neighbours' screens in the
    /// background; `false` when the recording has no step `at`.
    pub(super) fn go_to(&mut self, at: usize) -> bool {
        if at >= self.recording.steps().len() {
            return false;
        }
        if self.show(at) {
            self.recording
                .prefetch(&[at.wrapping_sub(1), at.saturating_add(1)]);
        }
        true
    }

    /// The step's screen, once loaded.
    pub fn document(&self) -> Option<&Document> {
        Some(&self.screen.as_ref()?.screen()?.document)
    }

    /// Why the step on show has no screen, when it has none.
    pub fn why_no_screen(&self) -> Option<&NoScreen> {
        match &self.screen {
            Some(StepScreen::None(why)) => Some(why),
            _ => None,
        }
    }
}
