//! The pseudo-YAML: a header, then one node per line, nested by indentation (the grammar is
//! in docs/tree-format.md).

use std::fmt::Write;

use super::{all_flags, flag_words};
use crate::prune::{LineKind, MoreGroup, Pruned, PrunedNode, quote};

/// Renders the whole snapshot.
pub fn yaml(pruned: &Pruned) -> String {
    with_version(pruned, &body(pruned))
}

/// `body` under the snapshot's version line, when the rules print one.
pub(super) fn with_version(pruned: &Pruned, body: &str) -> String {
    if pruned.rules.version_header {
        format!("version: \"{}\"\n{body}", pruned.version)
    } else {
        body.to_owned()
    }
}

/// Everything below the version line: what the agent reads of the screen itself.
pub(super) fn body(pruned: &Pruned) -> String {
    let mut out = String::with_capacity(64 + pruned.lines.len() * 48);
    if !pruned.app.is_empty() {
        let _ = writeln!(out, "app: {}", pruned.app);
    }
    let _ = writeln!(
        out,
        "display: {}x{}",
        pruned.display.width, pruned.display.height
    );
    if pruned.rotation != 0 {
        let _ = writeln!(out, "rotation: {}", pruned.rotation);
    }
    if pruned.keyboard {
        out.push_str("keyboard: open\n");
    }
    if pruned.fallback {
        out.push_str("fallback: screenshot\n");
    }
    for line in &pruned.lines {
        for _ in 0..line.depth {
            out.push_str("  ");
        }
        match &line.kind {
            LineKind::Node { at } => write_node(&mut out, &pruned.nodes[*at], pruned),
            LineKind::Window { window, package } => {
                let _ = write!(out, "- window: {}", window.name());
                if *window == crate::WindowKind::Overlay && !package.is_empty() {
                    let _ = write!(out, " {package}");
                }
            }
            LineKind::More { groups, .. } => write_more(&mut out, groups),
        }
        out.push('\n');
    }
    out
}

/// One node's line, without indentation or newline.
pub fn node_line(node: &PrunedNode, pruned: &Pruned) -> String {
    let mut out = String::with_capacity(48);
    write_node(&mut out, node, pruned);
    out
}

fn write_node(out: &mut String, node: &PrunedNode, pruned: &Pruned) {
    let rules = &pruned.rules;
    out.push('-');
    if let Some(i) = node.i {
        let _ = write!(out, " i: {i}");
    }
    if let Some(role) = node.role {
        let _ = write!(out, " {role}");
    }
    if !node.label.is_empty() {
        out.push(' ');
        out.push_str(&quote(&node.label));
    }
    if !node.desc.is_empty() {
        let _ = write!(out, " desc: {}", quote(&node.desc));
    }
    if !node.hint.is_empty() {
        let _ = write!(out, " hint: {}", quote(&node.hint));
    }
    if !node.shell_class.is_empty() {
        let _ = write!(out, " ({})", node.shell_class);
    }
    if !node.id.is_empty() {
        let _ = write!(out, " #{}", node.id);
    }
    if rules.omit_false_flags {
        for word in flag_words(node.flags) {
            out.push(' ');
            out.push_str(word);
        }
    } else {
        for word in all_flags(node.flags) {
            out.push(' ');
            out.push_str(&word);
        }
    }
    if rules.anchors && node.i.is_some() {
        let _ = write!(out, " pos: {}", node.pos.name());
    }
}

fn write_more(out: &mut String, groups: &[MoreGroup]) {
    out.push_str("more: [");
    for (n, group) in groups.iter().enumerate() {
        if n > 0 {
            out.push_str("; ");
        }
        let _ = write!(out, "{} {}", group.count, group.direction);
        for (k, sample) in group.samples.iter().enumerate() {
            out.push_str(if k == 0 { ": " } else { ", " });
            out.push_str(&quote(sample));
        }
        if group.count > group.samples.len() && !group.samples.is_empty() {
            out.push_str(", …");
        }
    }
    out.push(']');
}
