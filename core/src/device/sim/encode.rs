//! The simulated phone's output encoded: uiautomator XML of what is shown, and its pictures
//! (drawn by `sim::draw`) as PNG.

use std::fmt::Write as _;

use image::RgbImage;

use crate::model::Flags;
use crate::render::xml_escape;

use super::view::Shown;

/// The nodes as a uiautomator dump; each window is a run starting at depth 0.
pub(super) fn xml(nodes: &[Shown], rotation: u8) -> String {
    xml_indexed(nodes, None, rotation)
}

/// [`xml`] with each node's `index` given (`indices[k]` for node `k`): the stock dumper
/// writes a child's place among all its parent's children, so a skipped child leaves a
/// gap. Without them, or past their end, a node's place among the siblings written.
pub(super) fn xml_indexed(nodes: &[Shown], indices: Option<&[usize]>, rotation: u8) -> String {
    let mut out = String::with_capacity(nodes.len() * 400 + 128);
    out.push_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n");
    let _ = writeln!(out, "<hierarchy rotation=\"{rotation}\">");
    let mut open: Vec<usize> = Vec::new();
    let mut index: Vec<usize> = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&d| d >= node.depth) {
            open.pop();
            let _ = writeln!(out, "{}</node>", indent(open.len()));
        }
        index.truncate(node.depth + 1);
        if index.len() <= node.depth {
            index.resize(node.depth + 1, 0);
        }
        let written = index[node.depth];
        index[node.depth] += 1;
        let i = indices
            .and_then(|given| given.get(k))
            .copied()
            .unwrap_or(written);
        let has_children = nodes.get(k + 1).is_some_and(|n| n.depth > node.depth);
        let f = |flag| node.flags.contains(flag);
        let _ = write!(
            out,
            "{}<node index=\"{i}\" text=\"{}\" resource-id=\"{}\" class=\"{}\" package=\"{}\" \
             content-desc=\"{}\" checkable=\"{}\" checked=\"{}\" clickable=\"{}\" enabled=\"{}\" \
             focusable=\"{}\" focused=\"{}\" scrollable=\"{}\" long-clickable=\"{}\" \
             password=\"false\" selected=\"{}\" bounds=\"{}\"",
            indent(open.len()),
            xml_escape(&node.text),
            xml_escape(&node.resource_id),
            xml_escape(&node.class),
            xml_escape(&node.package),
            xml_escape(&node.desc),
            f(Flags::CHECKABLE),
            f(Flags::CHECKED),
            f(Flags::CLICKABLE),
            f(Flags::ENABLED),
            f(Flags::FOCUSABLE),
            f(Flags::FOCUSED),
            f(Flags::SCROLLABLE),
            f(Flags::LONG_CLICKABLE),
            f(Flags::SELECTED),
            node.bounds,
        );
        if has_children {
            out.push_str(">\n");
            open.push(node.depth);
        } else {
            out.push_str(" />\n");
        }
    }
    while open.pop().is_some() {
        let _ = writeln!(out, "{}</node>", indent(open.len()));
    }
    out.push_str("</hierarchy>\n");
    out
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth + 1)
}

/// `img` as a PNG, encoded fast.
pub(super) fn png(img: &RgbImage) -> Result<Vec<u8>, String> {
    crate::png::encode_fast(img).map_err(|e| e.to_string())
}
