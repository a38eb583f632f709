//! A whole recording re-pruned under new rules: what every step's screens would cost the
//! agent now, which semantic nodes the new rules lose on them, and which steps' targets an
//! agent could no longer address.
//!
//! Each distinct screen (by its stored dump and text read in pixels) is parsed and pruned once, however many steps
//! show it. Its tokens now are those of the text an agent would read under the new rules
//! ([`render::versioned`]), against the tokens recorded; its lost nodes are the recall
//! verdict of [`Stats`], as `tapscope prune --stats` gives it. A step's target is the node
//! its handle named: found by pruning the screen of the handle's version again with the
//! rules recordings are made with (the defaults), checked against the stored pruned text,
//! and looked up by its raw node in the new tree. A screen file that is missing or damaged
//! leaves that screen (and the targets on it) unchecked and named; the rest is re-pruned.
//!
//! ```
//! use tapscope_core::prune::{KeyboardMode, PruneRules};
//! use tapscope_core::{recording, reprune};
//!
//! let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings/demo");
//! let recording = recording::read(demo.as_ref())?;
//! let same = reprune::reprune(&recording, &PruneRules::default())?;
//! assert!(!same.totals().loses_anything());
//! assert!(!same.totals().tokens.changed());
//!
//! let collapse = PruneRules { keyboard: KeyboardMode::Collapse, ..PruneRules::default() };
//! let collapsed = reprune::reprune(&recording, &collapse)?;
//! let lost = collapsed.totals().lost_nodes;
//! assert!(lost > 0 && collapsed.totals().loses_anything());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod change;
mod json;
mod screen;
mod target;
// The tests generate recordings on the sim.
#[cfg(test)]
#[cfg(feature = "sim")]
mod tests;

use std::collections::HashMap;
use std::path::PathBuf;

pub use change::TokenChange;
pub use screen::{LostSemantic, ScreenNow, ScreenProblem};
pub use target::{TargetCheck, TargetLoss, Unchecked};

use crate::handle::Handle;
use crate::prune::PruneRules;
use crate::recording::{Problem, Recording, ScreenRef, Step};
use crate::tokens::{Encoding, TokenCount};

#[cfg(doc)]
use crate::{render, report::Stats};

/// Why a recording could not be re-pruned at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RepruneError {
    /// The header names a token encoding this tapscope cannot count with.
    #[error(
        "{recording} counted its tokens with {found:?}, an encoding this tapscope does not \
         know, so the counts cannot be compared: re-prune it with the tapscope that recorded it"
    )]
    UnknownEncoding { recording: PathBuf, found: String },
}

/// Which of a step's screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The screen the step acted on.
    Before,
    /// The screen the step left.
    After,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Before => "before",
            Side::After => "after",
        }
    }
}

/// A recording re-pruned: each distinct screen once, each step pointing at its screens.
#[derive(Clone, Debug, PartialEq)]
pub struct Reprune {
    /// The recording folder.
    pub recording: PathBuf,
    /// The new rules.
    pub rules: PruneRules,
    /// The encoding the recording counted with, and the new counts are made with.
    pub encoding: Encoding,
    /// Every distinct screen the steps show, in order of first appearance.
    pub screens: Vec<ScreenReprune>,
    /// Every step read, in order.
    pub steps: Vec<StepReprune>,
    /// Lines of `session.jsonl` that could not be read (a cut-short last line, malformed
    /// lines): their steps are not in `steps`.
    pub skipped_lines: Vec<Problem>,
}

/// One distinct recorded screen, then and now.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenReprune {
    /// The screen as recorded: version, files, tokens then.
    pub recorded: ScreenRef,
    pub now: ScreenNow,
}

/// One step: its screens (indices into [`Reprune::screens`]) and its target.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReprune {
    /// Its index in the recording's steps.
    pub index: usize,
    /// Its number in the recording (1-based).
    pub step: u64,
    pub tool: String,
    pub before: Option<usize>,
    pub after: Option<usize>,
    /// `None` when the step named no handle.
    pub target: Option<TargetCheck>,
}

/// The pruned tokens of the screen a step left, then and now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepTokens {
    /// The step left no screen (a refusal, an answer without a screen).
    NoScreen,
    /// Its screen could not be re-pruned.
    Unreadable,
    Counted(TokenChange),
}

/// The semantic nodes the new rules lose on one of a step's screens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenLoss<'a> {
    pub side: Side,
    /// Its index in [`Reprune::screens`].
    pub screen: usize,
    pub lost: &'a [LostSemantic],
}

/// The whole recording, then and now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub steps: usize,
    /// Distinct screens, each re-pruned once.
    pub screens: usize,
    /// Screens that could not be re-pruned.
    pub unreadable_screens: usize,
    /// Steps whose screen after was re-pruned: the ones the token totals sum over.
    pub counted_steps: usize,
    /// The pruned tokens of those steps' screens after, as recorded and now.
    pub tokens: TokenChange,
    /// Semantic nodes lost, summed over the distinct screens steps show.
    pub lost_nodes: usize,
    pub steps_with_lost_nodes: usize,
    pub lost_targets: usize,
    pub unchecked_targets: usize,
}

impl Totals {
    /// The new rules lose a semantic node or a step's target.
    pub fn loses_anything(&self) -> bool {
        self.lost_nodes > 0 || self.lost_targets > 0
    }
}

/// Re-prunes every distinct screen of `recording` under `rules` and checks every step's
/// target. Screen files that cannot be read are named in the result, never an error; the
/// error is a recording whose token counts cannot be compared.
pub fn reprune(recording: &Recording, rules: &PruneRules) -> Result<Reprune, RepruneError> {
    reprune_with_progress(recording, rules, &mut |_, _| {})
}

/// [`reprune`], telling `progress` of each distinct screen re-pruned out of all.
pub fn reprune_with_progress(
    recording: &Recording,
    rules: &PruneRules,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Reprune, RepruneError> {
    let encoding: Encoding =
        recording
            .header
            .encoding
            .parse()
            .map_err(|_| RepruneError::UnknownEncoding {
                recording: recording.dir.clone(),
                found: recording.header.encoding.clone(),
            })?;
    let plan = Plan::of(&recording.steps);
    let mut targets: Vec<Option<TargetCheck>> = plan.aims.iter().map(Aim::settled).collect();
    let mut screens = Vec::with_capacity(plan.screens.len());
    for (k, recorded) in plan.screens.iter().enumerate() {
        let asked = &plan.asked[k];
        let (now, checks) = screen::reprune(recording, recorded, rules, encoding, asked);
        for (&(step, _), check) in asked.iter().zip(checks) {
            targets[step] = Some(check);
        }
        screens.push(ScreenReprune {
            recorded: (*recorded).clone(),
            now,
        });
        progress(k + 1, plan.screens.len());
    }
    let steps = recording
        .steps
        .iter()
        .enumerate()
        .zip(plan.sides)
        .zip(targets)
        .map(|(((index, step), (before, after)), target)| StepReprune {
            index,
            step: step.step,
            tool: step.tool.clone(),
            before,
            after,
            target,
        })
        .collect();
    Ok(Reprune {
        recording: recording.dir.clone(),
        rules: rules.clone(),
        encoding,
        screens,
        steps,
        skipped_lines: recording.problems.clone(),
    })
}

impl Reprune {
    /// The tokens of the screen `step` left, then and now.
    pub fn tokens(&self, step: &StepReprune) -> StepTokens {
        let Some(screen) = step.after.and_then(|k| self.screens.get(k)) else {
            return StepTokens::NoScreen;
        };
        match &screen.now {
            ScreenNow::Repruned { pruned_tokens, .. } => StepTokens::Counted(TokenChange {
                then: screen.recorded.pruned_tokens as usize,
                now: *pruned_tokens,
            }),
            ScreenNow::Unreadable(_) => StepTokens::Unreadable,
        }
    }

    /// The step's screens (before, then after; one when both are the same screen).
    pub fn screens_of(&self, step: &StepReprune) -> impl Iterator<Item = (Side, usize)> {
        let before = step.before.map(|k| (Side::Before, k));
        let after = step
            .after
            .filter(|&k| step.before != Some(k))
            .map(|k| (Side::After, k));
        before.into_iter().chain(after)
    }

    /// The semantic nodes the new rules lose on the step's screens, per screen.
    pub fn lost_nodes(&self, step: &StepReprune) -> Vec<ScreenLoss<'_>> {
        self.screens_of(step)
            .filter_map(|(side, k)| {
                let lost = self.screens.get(k)?.now.lost();
                (!lost.is_empty()).then_some(ScreenLoss {
                    side,
                    screen: k,
                    lost,
                })
            })
            .collect()
    }

    /// The new rules change what the step's agent read (its tokens), lose a node on its
    /// screens, or lose its target.
    pub fn changed(&self, step: &StepReprune) -> bool {
        let tokens = matches!(self.tokens(step), StepTokens::Counted(change) if change.changed());
        tokens
            || !self.lost_nodes(step).is_empty()
            || step.target.as_ref().is_some_and(TargetCheck::is_lost)
    }

    /// The files that could not be read, each once: screens' dumps, and the stored pruned
    /// texts the target checks needed.
    pub fn unreadable_files(&self) -> Vec<&ScreenProblem> {
        let screens = self.screens.iter().filter_map(|s| match &s.now {
            ScreenNow::Unreadable(problem) => Some(problem),
            ScreenNow::Repruned { .. } => None,
        });
        let texts = self.steps.iter().filter_map(|s| match &s.target {
            Some(TargetCheck::Unchecked(Unchecked::ScreenUnreadable(problem))) => Some(problem),
            _ => None,
        });
        let mut files: Vec<&ScreenProblem> = Vec::new();
        for problem in screens.chain(texts) {
            if !files.iter().any(|known| known.file() == problem.file()) {
                files.push(problem);
            }
        }
        files
    }

    pub fn totals(&self) -> Totals {
        let mut totals = Totals {
            steps: self.steps.len(),
            screens: self.screens.len(),
            unreadable_screens: self
                .screens
                .iter()
                .filter(|s| s.now.is_unreadable())
                .count(),
            counted_steps: 0,
            tokens: TokenChange {
                then: 0,
                now: TokenCount::Exact(0),
            },
            lost_nodes: 0,
            steps_with_lost_nodes: 0,
            lost_targets: 0,
            unchecked_targets: 0,
        };
        let mut shown = vec![false; self.screens.len()];
        for step in &self.steps {
            if let StepTokens::Counted(change) = self.tokens(step) {
                totals.counted_steps += 1;
                totals.tokens = totals.tokens + change;
            }
            let losses = self.lost_nodes(step);
            totals.steps_with_lost_nodes += usize::from(!losses.is_empty());
            for loss in losses {
                if !std::mem::replace(&mut shown[loss.screen], true) {
                    totals.lost_nodes += loss.lost.len();
                }
            }
            match &step.target {
                Some(TargetCheck::Lost { .. }) => totals.lost_targets += 1,
                Some(TargetCheck::Unchecked(_)) => totals.unchecked_targets += 1,
                Some(TargetCheck::Kept { .. }) | None => {}
            }
        }
        totals
    }
}

/// Where a step's target is to be checked, before any screen is re-pruned.
enum Aim {
    /// The step named no handle.
    Nothing,
    /// Known without re-pruning anything: the handle is malformed, or its screen was
    /// never recorded.
    Settled(TargetCheck),
    /// To be checked on its screen, as [`Plan::asked`] lists it.
    OnScreen,
}

impl Aim {
    fn settled(&self) -> Option<TargetCheck> {
        match self {
            Aim::Nothing | Aim::OnScreen => None,
            Aim::Settled(check) => Some(check.clone()),
        }
    }
}

/// The recording's distinct screens, each step's screens among them, and the handle
/// indices to check on each screen.
struct Plan<'a> {
    screens: Vec<&'a ScreenRef>,
    sides: Vec<(Option<usize>, Option<usize>)>,
    aims: Vec<Aim>,
    /// `asked[screen]`: (step index, handle index) of the targets on that screen.
    asked: Vec<Vec<(usize, usize)>>,
}

impl<'a> Plan<'a> {
    fn of(steps: &'a [Step]) -> Self {
        let mut screens: Vec<&ScreenRef> = Vec::new();
        // A dump with other text read in its pixels is another screen.
        let mut by_dump: HashMap<(&str, Option<&str>), usize> = HashMap::new();
        let mut slot = |screen: &'a ScreenRef| {
            let files = (screen.dump.as_str(), screen.pixel_text.as_deref());
            *by_dump.entry(files).or_insert_with(|| {
                screens.push(screen);
                screens.len() - 1
            })
        };
        let sides: Vec<(Option<usize>, Option<usize>)> = steps
            .iter()
            .map(|step| {
                (
                    step.before.as_ref().map(&mut slot),
                    step.after.as_ref().map(&mut slot),
                )
            })
            .collect();
        // The latest screen of each version seen up to a step, and the first of each overall
        // (a handle may name a screen recorded only later, e.g. after a cut).
        let mut first_of: HashMap<&str, usize> = HashMap::new();
        for (k, screen) in screens.iter().enumerate() {
            first_of.entry(screen.version.as_str()).or_insert(k);
        }
        let mut latest_of: HashMap<&str, usize> = HashMap::new();
        let mut asked = vec![Vec::new(); screens.len()];
        let mut aims = Vec::with_capacity(steps.len());
        for (index, (step, &(before, after))) in steps.iter().zip(&sides).enumerate() {
            let own = |version: &str| {
                [before, after]
                    .into_iter()
                    .flatten()
                    .find(|&k| screens[k].version == version)
            };
            let aim = match step.handle.as_deref().map(|h| (h, h.parse::<Handle>())) {
                None => Aim::Nothing,
                Some((handle, Err(error))) => {
                    Aim::Settled(TargetCheck::Unchecked(Unchecked::MalformedHandle {
                        handle: handle.to_owned(),
                        reason: error.to_string(),
                    }))
                }
                Some((_, Ok(handle))) => {
                    let version = handle.version.as_str();
                    let found = own(version)
                        .or_else(|| latest_of.get(version).copied())
                        .or_else(|| first_of.get(version).copied());
                    match found {
                        Some(screen) => {
                            asked[screen].push((index, handle.i));
                            Aim::OnScreen
                        }
                        None => {
                            Aim::Settled(TargetCheck::Unchecked(Unchecked::ScreenNotRecorded {
                                version: handle.version.clone(),
                            }))
                        }
                    }
                }
            };
            aims.push(aim);
            for k in [before, after].into_iter().flatten() {
                latest_of.insert(screens[k].version.as_str(), k);
            }
        }
        Self {
            screens,
            sides,
            aims,
            asked,
        }
    }
}
