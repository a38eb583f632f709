//! The semantic recall check: every visible node with text, a description or an action must be reachable in the pruned tree.

use serde::Serialize;

use crate::model::{NodeId, Rect, Tree};
use crate::prune::{Fate, NodeName, Pruned, Visibility, one_line, truncate};
use crate::render::{escape, node_line};

/// A semantic node the pruned tree does not make reachable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostNode {
    pub node: NodeId,
    pub class: String,
    pub text: String,
    pub desc: String,
    pub bounds: Rect,
    /// Why it counts as lost.
    pub reason: String,
}

impl LostNode {
    /// Its name from its text, description and class ([`NodeName::raw`]).
    pub fn name(&self) -> NodeName {
        NodeName::raw(&self.class, &self.text, &self.desc)
    }
}

/// The outcome of a recall check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Recall {
    /// Visible nodes with text, a description or an action.
    pub semantic: Vec<NodeId>,
    pub lost: Vec<LostNode>,
}

/// The visible semantic nodes of the raw tree, in document order.
pub fn semantic_nodes(tree: &Tree) -> Vec<NodeId> {
    let visibility = Visibility::of(tree);
    (0..tree.nodes.len())
        .filter(|&id| {
            visibility.is_visible(id)
                && (tree.nodes[id].has_label() || tree.nodes[id].is_actionable())
        })
        .collect()
}

/// Checks each semantic node against the rendered lines of `pruned`: its text (or the
/// printed prefix of a long text) must appear on its line, and an actionable node must
/// own an `i` that resolves back to it.
pub fn check(tree: &Tree, pruned: &Pruned) -> Recall {
    let semantic = semantic_nodes(tree);
    let lost = semantic
        .iter()
        .filter_map(|&id| why_lost(tree, pruned, id).map(|reason| lost_node(tree, id, reason)))
        .collect();
    Recall { semantic, lost }
}

fn why_lost(tree: &Tree, pruned: &Pruned, id: NodeId) -> Option<String> {
    let node = &tree.nodes[id];
    let at = match pruned.fates.get(id) {
        Some(Fate::Printed { at }) => *at,
        Some(Fate::Merged { into }) if !node.is_actionable() => *into,
        Some(other) => return Some(other.reason(pruned)),
        None => return Some("no fate recorded".into()),
    };
    let Some(line_node) = pruned.nodes.get(at) else {
        return Some(format!("line {at} does not exist"));
    };
    if node.is_actionable() {
        let own = line_node
            .i
            .and_then(|i| pruned.resolve(i))
            .is_some_and(|n| n.raw == id);
        if !own {
            return Some("actionable, but no i of its own resolves to it".into());
        }
    }
    let line = node_line(line_node, pruned);
    let text = one_line(&node.text);
    let desc = one_line(&node.desc);
    for (what, value) in [("text", &text), ("description", &desc)] {
        if value.is_empty() || (what == "description" && text.contains(value.as_str())) {
            continue;
        }
        let shown = truncate(value, pruned.rules.max_text_chars);
        if !line.contains(&escape(shown.trim_end_matches('…'))) {
            return Some(format!(
                "its {what} is not printed on the line of {}",
                line_node.name().reference()
            ));
        }
    }
    None
}

fn lost_node(tree: &Tree, id: NodeId, reason: String) -> LostNode {
    let node = &tree.nodes[id];
    LostNode {
        node: id,
        class: node.class.clone(),
        text: node.text.clone(),
        desc: node.desc.clone(),
        bounds: node.bounds,
        reason,
    }
}
