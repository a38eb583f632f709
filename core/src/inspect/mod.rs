//! What the workbench shows about one dump, computed without any UI: the raw dump one node
//! per line, the pruned tree line by line with token costs, both mapped to raw nodes, and
//! the statistics — re-derived quickly when the rules change.
//!
//! ```
//! use tapscope_core::{inspect::{Inspection, RawView}, parse, prune::PruneRules, tokens::Encoding};
//! use tapscope_core::report::RawSize;
//! let xml = r#"<hierarchy><node text="Send" clickable="true" class="android.widget.Button"
//!   package="com.chat" bounds="[0,0][200,100]"/></hierarchy>"#;
//! let tree = parse::parse_str(xml).unwrap();
//! let raw = RawView::of(&tree, xml);
//! assert!(raw.lines[raw.line_of_node[0]].text.starts_with("<node text=\"Send\""));
//! let size = RawSize::measure(xml, Encoding::O200k);
//! let view = Inspection::new(&tree, &PruneRules::default(), "0123456789ab", size);
//! let line = view.line_of_node[0].unwrap();
//! assert_eq!(view.lines[line].text, "[1] \"Send\"");
//! ```

pub mod tree_diff;

use crate::model::{DumpFormat, NodeId, Tree};
use crate::parse::start_tag_end;
use crate::prune::{LineKind, PruneRules, Pruned, prune_with_version};
use crate::render;
use crate::report::{Breakdown, RawSize, Stats};
use crate::tokens::TokenCount;

/// One line of the raw pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    pub depth: usize,
    pub text: String,
    pub node: Option<NodeId>,
}

/// The raw dump, one node per line in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawView {
    pub lines: Vec<RawLine>,
    /// `line_of_node[id]` is the line of raw node `id`.
    pub line_of_node: Vec<usize>,
}

impl RawView {
    /// XML dumps show each node's own start tag as written (whitespace folded); other
    /// formats show each node's fields as one JSON object.
    pub fn of(tree: &Tree, text: &str) -> Self {
        let xml = matches!(tree.format, DumpFormat::Uiautomator | DumpFormat::Appium);
        let mut lines = Vec::with_capacity(tree.nodes.len());
        let mut line_of_node = vec![0; tree.nodes.len()];
        for (id, node) in tree.nodes.iter().enumerate() {
            let source = node
                .source_offset
                .filter(|_| xml)
                .and_then(|start| Some(&text[start..start_tag_end(text, start)?]));
            let text = match source {
                Some(tag) => tag.split_whitespace().collect::<Vec<_>>().join(" "),
                None => json_line(tree, id),
            };
            line_of_node[id] = lines.len();
            lines.push(RawLine {
                depth: node.depth as usize,
                text,
                node: Some(id),
            });
        }
        Self {
            lines,
            line_of_node,
        }
    }
}

fn json_line(tree: &Tree, id: NodeId) -> String {
    let node = &tree.nodes[id];
    let mut fields = serde_json::Map::new();
    let mut put = |key: &str, value: &str| {
        if !value.is_empty() {
            fields.insert(key.into(), value.into());
        }
    };
    put("class", &node.class);
    put("text", &node.text);
    put("content-desc", &node.desc);
    put("hint", &node.hint);
    put("resource-id", &node.resource_id);
    put("package", &node.package);
    put("bounds", &node.bounds.to_string());
    let flags: Vec<String> = node
        .flags
        .iter_names()
        .map(|(name, _)| name.to_lowercase())
        .collect();
    fields.insert("flags".into(), flags.into());
    serde_json::Value::Object(fields).to_string()
}

/// One line of the pruned tree as printed, with the raw node it shows and its token cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrunedLine {
    pub text: String,
    /// The node printed on this line (for a `more:` line, its scrollable).
    pub node: Option<NodeId>,
    pub tokens: TokenCount,
}

/// A dump pruned under one set of rules, laid out for display.
#[derive(Clone, Debug)]
pub struct Inspection {
    pub pruned: Pruned,
    pub yaml: String,
    /// Every line of `yaml`, header lines included (they have no node).
    pub lines: Vec<PrunedLine>,
    /// `line_of_node[id]`: the line that shows raw node `id` (its own, or the one it merged into).
    pub line_of_node: Vec<Option<usize>>,
    pub stats: Stats,
    /// Where the pruned tokens go, by part and kind of line.
    pub breakdown: Breakdown,
}

impl Inspection {
    /// Prunes under `version` (fixed per document, so re-pruning with other rules diffs
    /// cleanly) and measures against the raw size measured once beforehand.
    pub fn new(tree: &Tree, rules: &PruneRules, version: &str, raw: RawSize) -> Self {
        let pruned = prune_with_version(tree, rules, version.to_owned());
        // Rendered once: the text, and the parts its token breakdown counts.
        let parted = render::parted(&pruned);
        let stats = Stats::of_rendered(raw, tree, &pruned, &parted.text);
        let breakdown = Breakdown::of(&parted, raw.encoding);
        let yaml = parted.text;
        let texts: Vec<&str> = yaml.lines().collect();
        let header = texts.len() - pruned.lines.len();
        let lines: Vec<PrunedLine> = texts
            .iter()
            .enumerate()
            .map(|(n, text)| {
                let node = n
                    .checked_sub(header)
                    .and_then(|k| match &pruned.lines[k].kind {
                        LineKind::Node { at } => Some(pruned.nodes[*at].raw),
                        LineKind::More { of, .. } => Some(pruned.nodes[*of].raw),
                        LineKind::Window { .. } => None,
                    });
                PrunedLine {
                    text: (*text).to_owned(),
                    node,
                    tokens: raw.encoding.count(text),
                }
            })
            .collect();
        let mut line_of_at = vec![0; pruned.nodes.len()];
        for (k, line) in pruned.lines.iter().enumerate() {
            if let LineKind::Node { at } = line.kind {
                line_of_at[at] = header + k;
            }
        }
        let line_of_node = (0..tree.nodes.len())
            .map(|id| match pruned.fates[id] {
                crate::prune::Fate::Printed { at } | crate::prune::Fate::Merged { into: at } => {
                    Some(line_of_at[at])
                }
                _ => None,
            })
            .collect();
        Self {
            pruned,
            yaml,
            lines,
            line_of_node,
            stats,
            breakdown,
        }
    }
}

/// How a line of the pruned text changed between two rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Same,
    Added,
    Removed,
}

/// A line diff of two pruned texts (baseline first), in order.
pub fn line_diff(baseline: &str, current: &str) -> Vec<(Change, String)> {
    similar::TextDiff::from_lines(baseline, current)
        .iter_all_changes()
        .map(|change| {
            let kind = match change.tag() {
                similar::ChangeTag::Equal => Change::Same,
                similar::ChangeTag::Insert => Change::Added,
                similar::ChangeTag::Delete => Change::Removed,
            };
            (kind, change.value().trim_end_matches('\n').to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::tokens::Encoding;

    const XML: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
    <node class="android.view.ViewGroup" clickable="true" package="app" bounds="[0,0][1080,300]">
      <node text="Title" class="android.widget.TextView" package="app" bounds="[0,0][500,100]"/>
    </node>
    <node text="Note"
          class="android.widget.TextView" package="app" bounds="[0,400][500,500]"/>
  </node>
</hierarchy>"#;

    #[test]
    fn raw_view_shows_each_start_tag_once_folded() {
        let tree = parse_str(XML).unwrap();
        let raw = RawView::of(&tree, XML);
        assert_eq!(raw.lines.len(), 4);
        assert_eq!(raw.lines[3].depth, 1);
        assert_eq!(
            raw.lines[3].text,
            r#"<node text="Note" class="android.widget.TextView" package="app" bounds="[0,400][500,500]"/>"#
        );
        assert_eq!(raw.line_of_node, [0, 1, 2, 3]);
    }

    #[test]
    fn json_dumps_show_fields_as_objects() {
        let json =
            r#"[{"className": "B", "text": "Go", "clickable": true, "bounds": "0,0,10,10"}]"#;
        let tree = parse_str(json).unwrap();
        let raw = RawView::of(&tree, json);
        let line: serde_json::Value = serde_json::from_str(&raw.lines[0].text).unwrap();
        assert_eq!(line["text"], "Go");
        assert_eq!(line["bounds"], "[0,0][10,10]");
        assert!(
            line["flags"]
                .as_array()
                .unwrap()
                .contains(&"clickable".into())
        );
    }

    #[test]
    fn lines_map_to_nodes_both_ways() {
        let tree = parse_str(XML).unwrap();
        let raw = RawSize::measure(XML, Encoding::O200k);
        let view = Inspection::new(&tree, &PruneRules::default(), "0123456789ab", raw);
        assert_eq!(view.lines[0].text, "version: \"0123456789ab\"");
        assert_eq!(view.lines[0].node, None);
        let card = view.line_of_node[1].unwrap();
        assert_eq!(view.lines[card].node, Some(1));
        assert!(view.lines[card].text.starts_with("[1] \"Title\""));
        // The merged text shows on its card's line; the shell root on none.
        assert_eq!(view.line_of_node[2], Some(card));
        assert_eq!(view.line_of_node[0], None);
        assert!(view.lines.iter().all(|l| l.tokens.tokens() > 0));
        assert_eq!(view.stats.raw_tokens, raw.tokens);
    }

    #[test]
    fn diff_marks_added_and_removed_lines() {
        let diff = line_diff("a\nb\nc\n", "a\nc\nd\n");
        assert_eq!(
            diff,
            [
                (Change::Same, "a".into()),
                (Change::Removed, "b".into()),
                (Change::Same, "c".into()),
                (Change::Added, "d".into()),
            ]
        );
    }
}
