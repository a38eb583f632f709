//! JSON of the pruned tree: the same nodes as the YAML, with exact bounds and raw node ids.

use serde::Serialize;

use super::flag_words;
use crate::model::{NodeId, Rect, Size};
use crate::prune::{LineKind, MoreGroup, Pruned};

#[derive(Serialize)]
struct Snapshot<'a> {
    version: &'a str,
    app: &'a str,
    display: Size,
    rotation: u8,
    keyboard: bool,
    fallback: bool,
    nodes: Vec<JsonNode<'a>>,
    more: Vec<JsonMore<'a>>,
}

#[derive(Serialize)]
struct JsonNode<'a> {
    /// Handle index; absent for text-only nodes.
    i: Option<usize>,
    /// Position in `nodes` of the enclosing printed node, if any.
    parent: Option<usize>,
    /// The window this node belongs to, when it is not the app's.
    window: Option<&'static str>,
    role: Option<&'static str>,
    text: &'a str,
    desc: &'a str,
    hint: &'a str,
    id: &'a str,
    flags: Vec<&'static str>,
    pos: &'static str,
    bounds: Rect,
    visible: Rect,
    /// The raw node this line stands for, and the text nodes merged into it.
    raw: NodeId,
    merged: &'a [NodeId],
}

#[derive(Serialize)]
struct JsonMore<'a> {
    of: usize,
    groups: &'a [MoreGroup],
}

/// Renders the snapshot as pretty JSON.
pub fn json(pruned: &Pruned) -> String {
    let mut nodes = Vec::with_capacity(pruned.nodes.len());
    let mut more = Vec::new();
    // Printed ancestors by depth, to name each node's parent.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut window = None;
    for line in &pruned.lines {
        open.truncate(line.depth);
        match &line.kind {
            LineKind::Window { window: kind, .. } => {
                window = Some(kind.name());
                open.push(None);
            }
            LineKind::More { of, groups } => more.push(JsonMore { of: *of, groups }),
            LineKind::Node { at } => {
                let node = &pruned.nodes[*at];
                if line.depth == 0 {
                    window = None;
                }
                nodes.push(JsonNode {
                    i: node.i,
                    parent: open.iter().rev().flatten().next().copied(),
                    window,
                    role: node.role,
                    text: &node.label,
                    desc: &node.desc,
                    hint: &node.hint,
                    id: &node.id,
                    flags: flag_words(node.flags).collect(),
                    pos: node.pos.name(),
                    bounds: node.bounds,
                    visible: node.visible,
                    raw: node.raw,
                    merged: &node.merged,
                });
                open.push(Some(*at));
            }
        }
    }
    let snapshot = Snapshot {
        version: &pruned.version,
        app: &pruned.app,
        display: pruned.display,
        rotation: pruned.rotation,
        keyboard: pruned.keyboard,
        fallback: pruned.fallback,
        nodes,
        more,
    };
    serde_json::to_string_pretty(&snapshot)
        .unwrap_or_else(|e| unreachable!("snapshot always serialises: {e}"))
}
