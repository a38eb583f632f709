//! [`Reprune`] as one JSON object, what `tapscope reprune --json` prints: the totals, each
//! step with its tokens, what it lost and its target (kept, lost, or unchecked and why),
//! each distinct screen, the unreadable files and the skipped lines.

use std::path::Path;

use serde::{Serialize, Serializer};

use super::{
    LostSemantic, Reprune, ScreenNow, ScreenProblem, StepTokens, TargetCheck, Totals, Unchecked,
};
use crate::prune::PruneRules;

#[derive(Serialize)]
struct RepruneJson<'a> {
    recording: &'a Path,
    encoding: &'static str,
    rules: &'a PruneRules,
    totals: TotalsJson,
    steps: Vec<StepJson<'a>>,
    screens: Vec<ScreenJson<'a>>,
    unreadable_files: Vec<&'a ScreenProblem>,
    skipped_lines: Vec<SkippedJson>,
}

#[derive(Serialize)]
struct TotalsJson {
    steps: usize,
    screens: usize,
    unreadable_screens: usize,
    counted_steps: usize,
    tokens_then: usize,
    tokens_now: usize,
    tokens_now_estimated: bool,
    lost_nodes: usize,
    steps_with_lost_nodes: usize,
    lost_targets: usize,
    unchecked_targets: usize,
    loses_anything: bool,
}

impl From<Totals> for TotalsJson {
    fn from(t: Totals) -> Self {
        Self {
            steps: t.steps,
            screens: t.screens,
            unreadable_screens: t.unreadable_screens,
            counted_steps: t.counted_steps,
            tokens_then: t.tokens.then,
            tokens_now: t.tokens.now.tokens(),
            tokens_now_estimated: !t.tokens.now.is_exact(),
            lost_nodes: t.lost_nodes,
            steps_with_lost_nodes: t.steps_with_lost_nodes,
            lost_targets: t.lost_targets,
            unchecked_targets: t.unchecked_targets,
            loses_anything: t.loses_anything(),
        }
    }
}

#[derive(Serialize)]
struct StepJson<'a> {
    step: u64,
    tool: &'a str,
    changed: bool,
    /// Indices into `screens`.
    before: Option<usize>,
    after: Option<usize>,
    /// The screen after's pruned tokens; `null` when there is none or it is unreadable.
    tokens_then: Option<usize>,
    tokens_now: Option<usize>,
    /// Lost semantic nodes on its screens (listed under `screens`).
    lost_nodes: usize,
    target: Option<&'a TargetCheck>,
}

#[derive(Serialize)]
struct ScreenJson<'a> {
    version: &'a str,
    dump: &'a str,
    pruned: &'a str,
    tokens_then: u32,
    /// `null` when the screen could not be re-pruned (`problem` says why).
    tokens_now: Option<usize>,
    lost: &'a [LostSemantic],
    problem: Option<&'a ScreenProblem>,
}

#[derive(Serialize)]
struct SkippedJson {
    line: usize,
    problem: String,
}

impl Serialize for ScreenProblem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            file: &'a str,
            problem: &'static str,
            message: String,
        }
        let problem = match self {
            ScreenProblem::Missing { .. } => "missing",
            ScreenProblem::Unreadable { .. } => "unreadable",
            ScreenProblem::NotADump { .. } => "not-a-dump",
        };
        Shown {
            file: self.file(),
            problem,
            message: self.to_string(),
        }
        .serialize(serializer)
    }
}

/// `{"reason": "screen-unreadable", "why": "…", "file": "screens/….xml"}`, under the
/// target's `"check": "unchecked"`.
impl Serialize for Unchecked {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown<'a> {
            reason: &'static str,
            why: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            file: Option<&'a str>,
        }
        let (reason, file) = match self {
            Unchecked::MalformedHandle { .. } => ("malformed-handle", None),
            Unchecked::ScreenNotRecorded { .. } => ("screen-not-recorded", None),
            Unchecked::ScreenUnreadable(problem) => ("screen-unreadable", Some(problem.file())),
            Unchecked::OtherRules { pruned } => ("other-rules", Some(pruned.as_str())),
            Unchecked::NoSuchNode { .. } => ("no-such-node", None),
        };
        Shown {
            reason,
            why: self.to_string(),
            file,
        }
        .serialize(serializer)
    }
}

impl Serialize for Reprune {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let steps = self
            .steps
            .iter()
            .map(|step| {
                let (tokens_then, tokens_now) = match self.tokens(step) {
                    StepTokens::Counted(change) => (Some(change.then), Some(change.now.tokens())),
                    StepTokens::NoScreen | StepTokens::Unreadable => (None, None),
                };
                StepJson {
                    step: step.step,
                    tool: &step.tool,
                    changed: self.changed(step),
                    before: step.before,
                    after: step.after,
                    tokens_then,
                    tokens_now,
                    lost_nodes: self.lost_nodes(step).iter().map(|l| l.lost.len()).sum(),
                    target: step.target.as_ref(),
                }
            })
            .collect();
        let screens = self
            .screens
            .iter()
            .map(|screen| {
                let (tokens_now, problem) = match &screen.now {
                    ScreenNow::Repruned { pruned_tokens, .. } => {
                        (Some(pruned_tokens.tokens()), None)
                    }
                    ScreenNow::Unreadable(problem) => (None, Some(problem)),
                };
                ScreenJson {
                    version: &screen.recorded.version,
                    dump: &screen.recorded.dump,
                    pruned: &screen.recorded.pruned,
                    tokens_then: screen.recorded.pruned_tokens,
                    tokens_now,
                    lost: screen.now.lost(),
                    problem,
                }
            })
            .collect();
        RepruneJson {
            recording: &self.recording,
            encoding: self.encoding.name(),
            rules: &self.rules,
            totals: self.totals().into(),
            steps,
            screens,
            unreadable_files: self.unreadable_files(),
            skipped_lines: self
                .skipped_lines
                .iter()
                .map(|p| SkippedJson {
                    line: p.line,
                    problem: p.to_string(),
                })
                .collect(),
        }
        .serialize(serializer)
    }
}
