//! One recorded screen re-pruned: its dump read and parsed once, pruned under the new
//! rules (tokens and lost nodes), and, when steps named nodes on it, pruned again under the
//! rules it was recorded with to find those nodes.

use serde::Serialize;

use super::target::{self, TargetCheck, Unchecked};
use crate::model::Tree;
use crate::parse::parse_str;
use crate::prune::{PruneRules, prune_with_version};
use crate::recall::LostNode;
use crate::recording::{Recording, RecordingError, ScreenRef};
use crate::render;
use crate::report::{RawSize, Stats};
use crate::tokens::{Encoding, TokenCount};

/// A screen under the new rules.
#[derive(Clone, Debug, PartialEq)]
pub enum ScreenNow {
    Repruned {
        /// The tokens of the text an agent would read now.
        pruned_tokens: TokenCount,
        /// Semantic nodes the new rules leave unreachable, in document order.
        lost: Vec<LostSemantic>,
    },
    /// Its dump could not be read; nothing about it is known now.
    Unreadable(ScreenProblem),
}

impl ScreenNow {
    pub fn lost(&self) -> &[LostSemantic] {
        match self {
            ScreenNow::Repruned { lost, .. } => lost,
            ScreenNow::Unreadable(_) => &[],
        }
    }

    pub fn is_unreadable(&self) -> bool {
        matches!(self, ScreenNow::Unreadable(_))
    }
}

/// A lost semantic node with the name a person reads it by: `Send (Button)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostSemantic {
    pub name: String,
    #[serde(flatten)]
    pub node: LostNode,
}

impl From<LostNode> for LostSemantic {
    fn from(node: LostNode) -> Self {
        Self {
            name: node.name().plain(),
            node,
        }
    }
}

/// A screen file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScreenProblem {
    #[error(
        "{file} is missing ({}): copy it back into the recording to re-prune it",
        if *.folder_missing { "the recording was copied without its screens/ folder" }
        else { "it was deleted, or the recording was copied only in part" }
    )]
    Missing { file: String, folder_missing: bool },
    /// Damaged, not text, or not readable: the reader's reason.
    #[error("{reason}")]
    Unreadable { file: String, reason: String },
    #[error("{file} is not a dump tapscope can read: {reason}")]
    NotADump { file: String, reason: String },
}

impl ScreenProblem {
    /// The file, relative to the recording folder: `screens/<hash>.xml`.
    pub fn file(&self) -> &str {
        match self {
            ScreenProblem::Missing { file, .. }
            | ScreenProblem::Unreadable { file, .. }
            | ScreenProblem::NotADump { file, .. } => file,
        }
    }

    fn of(file: &str, error: RecordingError) -> Self {
        match error {
            RecordingError::ScreenMissing { folder_missing, .. } => ScreenProblem::Missing {
                file: file.to_owned(),
                folder_missing,
            },
            other => ScreenProblem::Unreadable {
                file: file.to_owned(),
                reason: other.to_string(),
            },
        }
    }
}

/// Re-prunes `screen` under `rules` and checks the handle indices `asked` on it (pairs of
/// step index and `i`), giving one check per pair in their order.
pub(super) fn reprune(
    recording: &Recording,
    screen: &ScreenRef,
    rules: &PruneRules,
    encoding: Encoding,
    asked: &[(usize, usize)],
) -> (ScreenNow, Vec<TargetCheck>) {
    let unchecked = |problem: &ScreenProblem| {
        let check = TargetCheck::Unchecked(Unchecked::ScreenUnreadable(problem.clone()));
        vec![check; asked.len()]
    };
    let (dump, tree) = match load(recording, screen) {
        Ok(loaded) => loaded,
        Err(problem) => {
            let checks = unchecked(&problem);
            return (ScreenNow::Unreadable(problem), checks);
        }
    };
    let (now, yaml) = render::versioned(&tree, rules);
    let raw = RawSize {
        bytes: dump.len(),
        tokens: TokenCount::Exact(screen.raw_tokens as usize),
        encoding,
    };
    let stats = Stats::of_rendered(raw, &tree, &now, &yaml);
    let repruned = ScreenNow::Repruned {
        pruned_tokens: stats.pruned_tokens,
        lost: stats
            .lost_semantic_nodes
            .into_iter()
            .map(Into::into)
            .collect(),
    };
    if asked.is_empty() {
        return (repruned, Vec::new());
    }
    let stored = match recording.load_text(&screen.pruned) {
        Ok(text) => text,
        Err(error) => {
            return (
                repruned,
                unchecked(&ScreenProblem::of(&screen.pruned, error)),
            );
        }
    };
    let then = prune_with_version(&tree, &PruneRules::default(), screen.version.clone());
    if render::yaml(&then) != stored {
        let check = TargetCheck::Unchecked(Unchecked::OtherRules {
            pruned: screen.pruned.clone(),
        });
        return (repruned, vec![check; asked.len()]);
    }
    let checks = asked
        .iter()
        .map(|&(_, i)| target::check(&then, &now, i))
        .collect();
    (repruned, checks)
}

/// The screen's dump as text, and parsed, with the text it read in pixels.
fn load(recording: &Recording, screen: &ScreenRef) -> Result<(String, Tree), ScreenProblem> {
    let file = &screen.dump;
    let dump = recording
        .load_text(file)
        .map_err(|error| ScreenProblem::of(file, error))?;
    let tree = parse_str(&dump).map_err(|error| ScreenProblem::NotADump {
        file: file.clone(),
        reason: error.to_string(),
    })?;
    let read = recording
        .load_pixel_text(screen)
        .map_err(|error| ScreenProblem::of(screen.pixel_text.as_deref().unwrap_or(file), error))?;
    let tree = if read.is_empty() {
        tree
    } else {
        tree.with_pixel_text(&read)
    };
    Ok((dump, tree))
}
