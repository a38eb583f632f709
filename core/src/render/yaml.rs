//! The pseudo-YAML: a header, then one node per line, nested by indentation (the grammar is
//! in docs/tree-format.md).

use std::fmt::Write;

use super::parts::{LineClass, Part, Parted, Writer};
use super::{all_flags, flag_words, printed_flags};
use crate::model::Flags;
use crate::prune::{LineKind, MoreGroup, Pruned, PrunedNode, quote};

/// Renders the whole snapshot.
pub fn yaml(pruned: &Pruned) -> String {
    with_version(pruned, &body(pruned))
}

/// The whole snapshot as [`yaml`] renders it, cut into its parts and lines.
pub fn parted(pruned: &Pruned) -> Parted {
    let mut out = Writer::marking(capacity(pruned));
    if pruned.rules.version_header {
        version_line(&mut out, &pruned.version);
    }
    write_body(&mut out, pruned);
    out.into_parted()
}

/// `body` under the snapshot's version line, when the rules print one.
pub(super) fn with_version(pruned: &Pruned, body: &str) -> String {
    if pruned.rules.version_header {
        let mut out = Writer::plain(body.len() + 24);
        version_line(&mut out, &pruned.version);
        out.push_str(body);
        out.into_text()
    } else {
        body.to_owned()
    }
}

/// Everything below the version line: what the agent reads of the screen itself.
pub(super) fn body(pruned: &Pruned) -> String {
    let mut out = Writer::plain(capacity(pruned));
    write_body(&mut out, pruned);
    out.into_text()
}

fn capacity(pruned: &Pruned) -> usize {
    64 + pruned.lines.len() * 48
}

fn version_line(out: &mut Writer, version: &str) {
    let _ = writeln!(out, "version: \"{version}\"");
    header_line(out);
}

fn header_line(out: &mut Writer) {
    out.end(Part::Header);
    out.end_line(LineClass::Header);
}

fn write_body(out: &mut Writer, pruned: &Pruned) {
    if !pruned.app.is_empty() {
        let _ = writeln!(out, "app: {}", pruned.app);
        header_line(out);
    }
    let _ = writeln!(
        out,
        "display: {}x{}",
        pruned.display.width, pruned.display.height
    );
    header_line(out);
    if pruned.rotation != 0 {
        let _ = writeln!(out, "rotation: {}", pruned.rotation);
        header_line(out);
    }
    if pruned.keyboard {
        out.push_str("keyboard: open\n");
        header_line(out);
    }
    if pruned.fallback {
        out.push_str("fallback: screenshot\n");
        header_line(out);
    }
    let anchored = anchored(pruned);
    for line in &pruned.lines {
        for _ in 0..line.depth {
            out.push_str("  ");
        }
        let class = match &line.kind {
            LineKind::Node { at } => {
                let node = &pruned.nodes[*at];
                write_node(out, node, pruned, anchored[*at]);
                if node.i.is_some() {
                    LineClass::Actionable
                } else {
                    LineClass::Text
                }
            }
            LineKind::Window { window, package } => {
                out.end(Part::Layout);
                let _ = write!(out, "window: {}", window.name());
                if *window == crate::WindowKind::Overlay && !package.is_empty() {
                    let _ = write!(out, " {package}");
                }
                out.end(Part::Window);
                LineClass::Window
            }
            LineKind::More { groups, .. } => {
                out.end(Part::Layout);
                write_more(out, groups);
                out.end(Part::More);
                LineClass::More
            }
        };
        out.push('\n');
        out.end(Part::Layout);
        out.end_line(class);
    }
}

/// One node's line, without indentation or newline (its anchor as the rule `anchors` says).
pub fn node_line(node: &PrunedNode, pruned: &Pruned) -> String {
    let mut out = Writer::plain(48);
    write_node(&mut out, node, pruned, pruned.rules.anchors);
    out.into_text()
}

/// The handle index a line of pruned text begins with: `[12] …`, or `- i: 12 …` as trees
/// were printed before (recordings keep the text the agent read).
pub fn line_handle(line: &str) -> Option<usize> {
    let line = line.trim_start();
    let digits = match line.strip_prefix('[') {
        Some(rest) => rest.split_once(']')?.0,
        None => {
            let rest = line.strip_prefix("- i: ")?;
            rest.split_once(' ').map_or(rest, |(i, _)| i)
        }
    };
    digits.parse().ok()
}

fn write_node(out: &mut Writer, node: &PrunedNode, pruned: &Pruned, anchor: bool) {
    let rules = &pruned.rules;
    out.end(Part::Layout);
    if let Some(i) = node.i {
        let _ = write!(out, "[{i}]");
        out.end(Part::Handle);
    }
    // Pieces are one space apart: the first of the line has none before it.
    let mut started = node.i.is_some();
    let mut piece = |out: &mut Writer, pieces: &[&str], part: Part| {
        if started {
            out.push(' ');
        }
        for text in pieces {
            out.push_str(text);
        }
        out.end(part);
        started = true;
    };
    if let Some(role) = node.role {
        piece(out, &[role], Part::Role);
    }
    if !node.label.is_empty() {
        piece(out, &[&quote(&node.label)], Part::Label);
    }
    if !node.desc.is_empty() {
        piece(out, &["desc: ", &quote(&node.desc)], Part::Desc);
    }
    if !node.hint.is_empty() {
        piece(out, &["hint: ", &quote(&node.hint)], Part::Hint);
    }
    if !node.shell_class.is_empty() {
        piece(out, &["(", &node.shell_class, ")"], Part::Shell);
    }
    if !node.id.is_empty() {
        piece(out, &["#", &node.id], Part::Id);
    }
    if rules.omit_false_flags {
        for word in flag_words(shown_flags(node, pruned)) {
            piece(out, &[word], Part::Flags);
        }
    } else {
        for word in all_flags(node.flags) {
            piece(out, &[&word], Part::Flags);
        }
    }
    if anchor && node.i.is_some() {
        piece(out, &["pos: ", node.pos.name()], Part::Anchor);
    }
}

/// The flags a node's line prints words for: `click` is left out where a handle says it
/// (every handle, unless every printed node has one).
fn shown_flags(node: &PrunedNode, pruned: &Pruned) -> Flags {
    let shown = node.flags & printed_flags();
    if node.i.is_some() && !pruned.rules.index_all && pruned.rules.omit_false_flags {
        shown - Flags::CLICKABLE
    } else {
        shown
    }
}

/// Which nodes print their anchor: every one with a handle under the rule `anchors`, else
/// only those whose line would read the same as a sibling's (two "Delete" buttons side by
/// side), which nesting and order alone do not tell apart.
fn anchored(pruned: &Pruned) -> Vec<bool> {
    let handled = |at: usize| pruned.nodes[at].i.is_some();
    if pruned.rules.anchors {
        return (0..pruned.nodes.len()).map(handled).collect();
    }
    let mut shown = vec![false; pruned.nodes.len()];
    // The line each line hangs under, found by depth; then siblings sorted by what they say,
    // so look-alikes lie side by side (cheaper than hashing every label).
    let mut parents: Vec<(usize, usize)> = Vec::new();
    let mut siblings: Vec<(Option<usize>, Said<'_>, usize)> = Vec::new();
    for (n, line) in pruned.lines.iter().enumerate() {
        while parents
            .last()
            .is_some_and(|&(depth, _)| depth >= line.depth)
        {
            parents.pop();
        }
        let parent = parents.last().map(|&(_, at)| at);
        parents.push((line.depth, n));
        let LineKind::Node { at } = line.kind else {
            continue;
        };
        if !handled(at) {
            continue;
        }
        siblings.push((parent, Said::of(&pruned.nodes[at], pruned), at));
    }
    siblings.sort_unstable_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    for pair in siblings.windows(2) {
        if (pair[0].0, &pair[0].1) == (pair[1].0, &pair[1].1) {
            shown[pair[0].2] = true;
            shown[pair[1].2] = true;
        }
    }
    shown
}

/// What a node's line says apart from its handle and anchor: the flags as printed, so two
/// lines that read the same are the same here.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Said<'a> {
    label: &'a str,
    role: Option<&'static str>,
    desc: &'a str,
    hint: &'a str,
    shell: &'a str,
    id: &'a str,
    /// The printed flags' bits.
    flags: u16,
}

impl<'a> Said<'a> {
    fn of(node: &'a PrunedNode, pruned: &Pruned) -> Self {
        Self {
            role: node.role,
            label: &node.label,
            desc: &node.desc,
            hint: &node.hint,
            shell: &node.shell_class,
            id: &node.id,
            flags: shown_flags(node, pruned).bits(),
        }
    }
}

fn write_more(out: &mut Writer, groups: &[MoreGroup]) {
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

#[cfg(test)]
mod tests {
    use super::line_handle;

    #[test]
    fn a_line_handle_is_read_in_both_notations_and_only_at_the_start() {
        assert_eq!(line_handle(r#"[12] "Send" long"#), Some(12));
        assert_eq!(line_handle(r#"    [3] edit hint: "Search""#), Some(3));
        assert_eq!(
            line_handle(r#"  - i: 7 "Send" click pos: top-left"#),
            Some(7)
        );
        assert_eq!(line_handle("- i: 7"), Some(7));
        assert_eq!(line_handle(r#""[12] is a label""#), None);
        assert_eq!(line_handle("more: [2 below]"), None);
        assert_eq!(line_handle("[x] checkbox"), None);
    }
}
