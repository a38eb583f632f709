//! A step's target under new rules: the node its handle named on the screen as recorded,
//! and whether the new tree still prints it with an `i` an agent could name.

use serde::{Serialize, Serializer};

use super::ScreenProblem;
use crate::model::NodeId;
use crate::prune::{Fate, Pruned};

/// What became of the node a step's handle named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "check", rename_all = "kebab-case")]
pub enum TargetCheck {
    /// Still printed with an `i` of its own.
    Kept {
        /// As its recorded line names it: `"Send"`, `list #feed`.
        target: String,
        i_then: usize,
        i_now: usize,
    },
    /// An agent could no longer address it.
    Lost {
        target: String,
        i_then: usize,
        #[serde(serialize_with = "as_message")]
        why: TargetLoss,
    },
    /// The node could not be found on the screen as recorded: in JSON, with `reason` (its
    /// kind), `why` (in words) and `file` (the file at fault, when one is).
    Unchecked(Unchecked),
}

impl TargetCheck {
    pub fn is_lost(&self) -> bool {
        matches!(self, TargetCheck::Lost { .. })
    }
}

/// Why a target is no longer addressable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetLoss {
    /// Not on a line of its own: merged, collapsed, flattened, hidden.
    #[error("not printed ({reason})")]
    NotPrinted { reason: String },
    /// On a line, but without an `i`: it can be read, not acted on.
    #[error("printed without an i, so no handle names it")]
    NoIndex,
}

/// Why the node a handle named could not be found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unchecked {
    #[error("its handle {handle:?} is malformed: {reason}")]
    MalformedHandle { handle: String, reason: String },
    #[error("the recording holds no screen of version {version}, the one its handle names")]
    ScreenNotRecorded { version: String },
    #[error("its screen could not be read: {0}")]
    ScreenUnreadable(ScreenProblem),
    #[error(
        "{pruned} is not what the default rules make of its dump: the recording was made \
         with other rules or another tapscope, so its i cannot be traced to a node"
    )]
    OtherRules { pruned: String },
    #[error("its screen has no i {i}: the handle named no node")]
    NoSuchNode { i: usize },
}

/// The target with index `i` on `then` (the screen as recorded), looked up in `now` (the
/// same tree under the new rules).
pub(super) fn check(then: &Pruned, now: &Pruned, i: usize) -> TargetCheck {
    let Some(node) = then.resolve(i) else {
        return TargetCheck::Unchecked(Unchecked::NoSuchNode { i });
    };
    let target = node.name().to_string();
    match addressable(now, node.raw) {
        Ok(i_now) => TargetCheck::Kept {
            target,
            i_then: i,
            i_now,
        },
        Err(why) => TargetCheck::Lost {
            target,
            i_then: i,
            why,
        },
    }
}

/// The `i` raw node `raw` has in `now`, or why it has none.
pub(super) fn addressable(now: &Pruned, raw: NodeId) -> Result<usize, TargetLoss> {
    let fate = now.fates.get(raw).ok_or_else(|| TargetLoss::NotPrinted {
        reason: "the node is not in this tree".to_owned(),
    })?;
    match fate {
        Fate::Printed { at } => now
            .nodes
            .get(*at)
            .and_then(|line| line.i)
            .ok_or(TargetLoss::NoIndex),
        other => Err(TargetLoss::NotPrinted {
            reason: other.reason(now),
        }),
    }
}

fn as_message<T: std::fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{KeyboardMode, PruneRules, prune_with_version};

    const XML: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
    <node text="Note" class="android.widget.TextView" package="app" bounds="[0,0][500,100]"/>
    <node text="Send" class="android.widget.Button" package="app" clickable="true" bounds="[0,200][500,300]"/>
  </node>
  <node class="android.widget.FrameLayout" package="com.android.inputmethod.latin" bounds="[0,1600][1080,2400]">
    <node text="q" class="android.widget.Button" package="com.android.inputmethod.latin" clickable="true" bounds="[0,1600][100,1700]"/>
  </node>
</hierarchy>"#;

    fn pruned(rules: &PruneRules) -> Pruned {
        prune_with_version(&parse_str(XML).unwrap(), rules, "0123456789ab".into())
    }

    #[test]
    fn a_kept_node_gives_its_new_i_and_a_collapsed_key_is_lost() {
        let then = pruned(&PruneRules::default());
        let collapse = PruneRules {
            keyboard: KeyboardMode::Collapse,
            ..PruneRules::default()
        };
        let now = pruned(&collapse);
        assert_eq!(
            check(&then, &now, 1),
            TargetCheck::Kept {
                target: "\"Send\"".into(),
                i_then: 1,
                i_now: 1
            }
        );
        let TargetCheck::Lost { target, why, .. } = check(&then, &now, 2) else {
            panic!("the key is lost");
        };
        assert_eq!(target, "\"q\"");
        assert!(why.to_string().contains("keyboard = collapse"), "{why}");
        assert_eq!(
            check(&then, &now, 9),
            TargetCheck::Unchecked(Unchecked::NoSuchNode { i: 9 })
        );
    }

    #[test]
    fn a_line_without_i_is_not_addressable() {
        let now = pruned(&PruneRules::default());
        let note = 1; // the TextView, printed as text to read
        assert_eq!(addressable(&now, note), Err(TargetLoss::NoIndex));
        assert!(matches!(
            addressable(&now, 0),
            Err(TargetLoss::NotPrinted { reason }) if reason.starts_with("flatten_shells")
        ));
        assert_eq!(
            addressable(&now, 99).unwrap_err().to_string(),
            "not printed (the node is not in this tree)"
        );
    }
}
