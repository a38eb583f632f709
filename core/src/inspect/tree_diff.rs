//! `tree_diff`: what appeared, disappeared or changed between two pruned snapshots of a
//! screen, matched by what each node is rather than by its `i` or the snapshot version.
//!
//! A node's identity is its role, then its readable id (`#feed`) when it has one, else its
//! label (and the shell class of unflattened shells). Among nodes of one identity, pairs
//! under the same parent line and closest on screen are matched first, so a list item that
//! scrolled up is one moved node, not one gone and one new. What is left is paired once
//! more when two nodes of one role sit at the same bounds (new text in the same place) or
//! one label is the other cut short (a card half scrolled off shows less of its text).
//! Last, nodes under parents that were paired although they differ are paired by identity
//! (a card whose text changed keeps its buttons).
//!
//! ```
//! use tapscope_core::inspect::tree_diff::tree_diff;
//! use tapscope_core::{parse::parse_str, prune::{PruneRules, prune_with_version}};
//!
//! let screen = |second: &str| {
//!     let xml = format!(
//!         r#"<hierarchy><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
//!         <node text="Inbox" class="android.widget.TextView" package="app" bounds="[0,0][400,100]"/>
//!         <node text="{second}" class="android.widget.Button" clickable="true" package="app"
//!               bounds="[800,2200][1060,2380]"/></node></hierarchy>"#
//!     );
//!     let tree = parse_str(&xml).unwrap();
//!     prune_with_version(&tree, &PruneRules::default(), "0123456789ab".into())
//! };
//! let diff = tree_diff(&screen("Send"), &screen("Delete"));
//! assert_eq!(diff.changed[0].before.label, r#""Send""#);
//! assert_eq!(diff.changed[0].after.label, r#""Delete""#);
//! assert_eq!(diff.changed[0].what, ["text"]);
//! assert_eq!(diff.unchanged, 1);
//! ```

use std::collections::HashMap;

use crate::model::Rect;
use crate::prune::{LineKind, Pruned, PrunedNode};

/// Above this many candidate pairs in one identity group, nodes pair in order instead.
const MAX_PAIRS: usize = 4096;
/// The shortest label that may pair with a longer one it begins or ends.
const MIN_CUT_CHARS: usize = 8;

/// What changed between two snapshots. Every list is in line order of its snapshot
/// (`changed` in the order of `after`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeDiff {
    /// Nodes of `after` with no counterpart in `before`.
    pub appeared: Vec<DiffNode>,
    /// Nodes of `before` with no counterpart in `after`.
    pub disappeared: Vec<DiffNode>,
    /// Nodes in both whose text, place or state differs.
    pub changed: Vec<Changed>,
    /// Nodes in both, identical but for `i`.
    pub unchanged: usize,
}

impl TreeDiff {
    /// Nothing appeared, disappeared or changed.
    pub fn is_empty(&self) -> bool {
        self.appeared.is_empty() && self.disappeared.is_empty() && self.changed.is_empty()
    }
}

/// One node, described for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffNode {
    /// Role and quoted label (cut to 40 characters), or `#id`: `list #feed`, `"Send"`.
    pub label: String,
    /// Its `i` in its own snapshot (never compared: each snapshot numbers anew).
    pub i: Option<usize>,
    pub bounds: Rect,
}

/// One node in both snapshots that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    pub before: DiffNode,
    pub after: DiffNode,
    /// What differs, in this order: `"text"` (label, description or hint), `"moved"`
    /// (bounds), `"state"` (flags: checked, selected, focused, enabled…).
    pub what: Vec<&'static str>,
}

/// Compares two pruned snapshots of a screen node by node (see the module docs).
pub fn tree_diff(before: &Pruned, after: &Pruned) -> TreeDiff {
    let old = entries(before);
    let new = entries(after);
    let m = matching(&old, &new);
    let mut diff = TreeDiff::default();
    for (n, o) in m.old_of_new.iter().enumerate() {
        let Some(o) = *o else { continue };
        let what = differences(old[o].node, new[n].node);
        if what.is_empty() {
            diff.unchanged += 1;
        } else {
            diff.changed.push(Changed {
                before: describe(old[o].node),
                after: describe(new[n].node),
                what,
            });
        }
    }
    diff.disappeared = (0..old.len())
        .filter(|&o| m.new_of_old[o].is_none())
        .map(|k| describe(old[k].node))
        .collect();
    diff.appeared = (0..new.len())
        .filter(|&n| m.old_of_new[n].is_none())
        .map(|k| describe(new[k].node))
        .collect();
    diff
}

/// For each node of `before` (by its place in `before.nodes`), the node of `after` that is
/// the same element, matched as [`tree_diff`] matches them: what a replay acts on when a
/// recorded handle named that node.
pub fn counterparts(before: &Pruned, after: &Pruned) -> Vec<Option<usize>> {
    let old = entries(before);
    let new = entries(after);
    let m = matching(&old, &new);
    let mut of_node = vec![None; before.nodes.len()];
    for (o, n) in m.new_of_old.iter().enumerate() {
        if let Some(slot) = of_node.get_mut(old[o].at) {
            *slot = n.map(|n| new[n].at);
        }
    }
    of_node
}

/// Pairs the entries of two snapshots (see the module docs).
fn matching(old: &[Entry], new: &[Entry]) -> Matching {
    let mut m = Matching {
        new_of_old: vec![None; old.len()],
        old_of_new: vec![None; new.len()],
    };

    // Same identity under a parent of the same identity: nearest first.
    let mut groups: HashMap<(&str, &str), Group> = HashMap::new();
    for (k, e) in old.iter().enumerate() {
        groups.entry((&e.key, &e.parent_key)).or_default().0.push(k);
    }
    for (k, e) in new.iter().enumerate() {
        groups.entry((&e.key, &e.parent_key)).or_default().1.push(k);
    }
    for (olds, news) in groups.values() {
        if olds.len().saturating_mul(news.len()) > MAX_PAIRS {
            for (&o, &n) in olds.iter().zip(news) {
                m.pair(o, n);
            }
        } else {
            m.nearest(old, olds, new, news, |_, _| true);
        }
    }

    // Leftovers of one role: at the same place, then one label cut short of the other.
    let same_place = |o: &Entry, n: &Entry| o.node.bounds == n.node.bounds;
    let cut_short = |o: &Entry, n: &Entry| cut_short(&o.node.label, &n.node.label);
    for fits in [&same_place as &dyn Fn(&Entry, &Entry) -> bool, &cut_short] {
        let olds: Vec<usize> = (0..old.len())
            .filter(|&o| m.new_of_old[o].is_none())
            .collect();
        let news: Vec<usize> = (0..new.len())
            .filter(|&n| m.old_of_new[n].is_none())
            .collect();
        m.nearest(old, &olds, new, &news, |o, n| {
            o.node.role == n.node.role && fits(o, n)
        });
    }

    // Same identity under parents that were paired although they differ (a card whose
    // text changed keeps its buttons). Parents come first in line order.
    for n in 0..new.len() {
        let Some(old_parent) = new[n].parent.and_then(|p| m.old_of_new[p]) else {
            continue;
        };
        let olds: Vec<usize> = (0..old.len())
            .filter(|&o| m.new_of_old[o].is_none() && old[o].parent == Some(old_parent))
            .collect();
        m.nearest(old, &olds, new, &[n], |o, n| o.key == n.key);
    }
    m
}

/// A person's name for a node: role, then quoted label, `#id` or `(Class)`.
pub fn describe(node: &PrunedNode) -> DiffNode {
    DiffNode {
        label: node.name().to_string(),
        i: node.i,
        bounds: node.bounds,
    }
}

/// The entries of one identity under one parent identity: of `before`, of `after`.
type Group = (Vec<usize>, Vec<usize>);

/// A printed node with its identity, its parent line's identity and its parent node.
struct Entry<'a> {
    node: &'a PrunedNode,
    /// Its place in the snapshot's `nodes`.
    at: usize,
    key: String,
    parent_key: String,
    /// The entry of the node line it is nested under (none under a window line or at the top).
    parent: Option<usize>,
}

/// The printed nodes of a snapshot in line order, each with its identity and parent's.
fn entries(pruned: &Pruned) -> Vec<Entry<'_>> {
    let mut out: Vec<Entry> = Vec::with_capacity(pruned.nodes.len());
    // Open lines: depth, identity, and the entry when the line is a node's.
    let mut stack: Vec<(usize, String, Option<usize>)> = Vec::new();
    for line in &pruned.lines {
        let (key, node) = match &line.kind {
            LineKind::Node { at } => (
                identity(&pruned.nodes[*at]),
                Some((*at, &pruned.nodes[*at])),
            ),
            LineKind::Window { window, package } => {
                (format!("window {} {package}", window.name()), None)
            }
            LineKind::More { .. } => continue,
        };
        while stack.last().is_some_and(|(depth, ..)| *depth >= line.depth) {
            stack.pop();
        }
        let entry = node.map(|(at, node)| {
            out.push(Entry {
                node,
                at,
                key: key.clone(),
                parent_key: stack.last().map(|(_, k, _)| k.clone()).unwrap_or_default(),
                parent: stack.last().and_then(|(_, _, e)| *e),
            });
            out.len() - 1
        });
        stack.push((line.depth, key, entry));
    }
    out
}

/// Which node of `before` is which of `after`.
struct Matching {
    new_of_old: Vec<Option<usize>>,
    old_of_new: Vec<Option<usize>>,
}

impl Matching {
    fn pair(&mut self, o: usize, n: usize) {
        if self.new_of_old[o].is_none() && self.old_of_new[n].is_none() {
            self.new_of_old[o] = Some(n);
            self.old_of_new[n] = Some(o);
        }
    }

    /// Pairs the free nodes of `olds` and `news` that `fits` accepts, nearest first.
    fn nearest(
        &mut self,
        old: &[Entry],
        olds: &[usize],
        new: &[Entry],
        news: &[usize],
        fits: impl Fn(&Entry, &Entry) -> bool,
    ) {
        let mut candidates: Vec<(i64, usize, usize)> = Vec::new();
        for &o in olds.iter().filter(|&&o| self.new_of_old[o].is_none()) {
            for &n in news.iter().filter(|&&n| self.old_of_new[n].is_none()) {
                if fits(&old[o], &new[n]) {
                    candidates.push((distance(&old[o], &new[n]), o, n));
                }
            }
        }
        candidates.sort_unstable();
        for (_, o, n) in candidates {
            self.pair(o, n);
        }
    }
}

/// What a node is, independent of snapshot: role, then id, else label and shell class.
fn identity(node: &PrunedNode) -> String {
    let role = node.role.unwrap_or("");
    if node.id.is_empty() {
        format!("{role}\u{1f}{}\u{1f}{}", node.label, node.shell_class)
    } else {
        format!("{role}\u{1f}#{}", node.id)
    }
}

/// Squared distance between the centres of two nodes' bounds.
fn distance(a: &Entry, b: &Entry) -> i64 {
    let (ax, ay) = a.node.bounds.center();
    let (bx, by) = b.node.bounds.center();
    let (dx, dy) = (i64::from(ax) - i64::from(bx), i64::from(ay) - i64::from(by));
    dx * dx + dy * dy
}

/// Whether one label, without a trailing `…`, begins or ends the other and is long enough
/// to tell: a card half off the top shows the end of its text, half off the bottom the start.
fn cut_short(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_end_matches('…'), b.trim_end_matches('…'));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.chars().count() >= MIN_CUT_CHARS && (long.starts_with(short) || long.ends_with(short))
}

fn differences(before: &PrunedNode, after: &PrunedNode) -> Vec<&'static str> {
    let mut what = Vec::new();
    if before.label != after.label || before.desc != after.desc || before.hint != after.hint {
        what.push("text");
    }
    if before.bounds != after.bounds {
        what.push("moved");
    }
    if before.flags != after.flags {
        what.push("state");
    }
    what
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune_with_version};

    /// A screen of `body` nodes inside a full-display frame, pruned under `version`.
    fn screen(body: &str, version: &str) -> Pruned {
        let xml = format!(
            r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">{body}</node></hierarchy>"#
        );
        let tree = parse_str(&xml).unwrap();
        prune_with_version(&tree, &PruneRules::default(), version.into())
    }

    fn text(text: &str, bounds: &str) -> String {
        format!(
            r#"<node text="{text}" class="android.widget.TextView" package="app" bounds="{bounds}"/>"#
        )
    }

    fn button(text: &str, bounds: &str) -> String {
        format!(
            r#"<node text="{text}" class="android.widget.Button" clickable="true" package="app" bounds="{bounds}"/>"#
        )
    }

    /// A list whose cards (a title and a "Like" button each) start at `top`, 500 px apart.
    fn feed(titles: &[&str], top: i32) -> String {
        let mut cards = String::new();
        for (k, title) in titles.iter().enumerate() {
            let y = top + 500 * k as i32;
            let (y2, y3) = (y + 400, y + 200);
            cards.push_str(&format!(
                r#"<node class="android.view.ViewGroup" clickable="true" package="app" bounds="[0,{y}][1080,{y2}]">{}{}</node>"#,
                text(title, &format!("[0,{y}][800,{y3}]")),
                button("Like", &format!("[800,{y}][1080,{y3}]")),
            ));
        }
        format!(
            r#"<node class="androidx.recyclerview.widget.RecyclerView" resource-id="app:id/feed" scrollable="true" package="app" bounds="[0,0][1080,2000]">{cards}</node>"#
        )
    }

    fn labels(nodes: &[DiffNode]) -> Vec<&str> {
        nodes.iter().map(|n| n.label.as_str()).collect()
    }

    #[test]
    fn the_same_screen_under_two_versions_has_no_differences() {
        let body = feed(&["Apples", "Pears"], 0) + &button("Send", "[800,2200][1060,2380]");
        let diff = tree_diff(
            &screen(&body, "aaaaaaaaaaaa"),
            &screen(&body, "bbbbbbbbbbbb"),
        );
        assert!(diff.is_empty(), "{diff:?}");
        assert_eq!(diff.unchanged, 6); // list, 2 cards, 2 likes, Send
    }

    #[test]
    fn new_text_in_the_same_place_is_a_text_change() {
        let before = screen(&button("Send", "[800,2200][1060,2380]"), "aaaaaaaaaaaa");
        let after = screen(&button("Delete", "[800,2200][1060,2380]"), "bbbbbbbbbbbb");
        let diff = tree_diff(&before, &after);
        assert_eq!(diff.changed.len(), 1, "{diff:?}");
        let change = &diff.changed[0];
        assert_eq!(
            (change.before.label.as_str(), change.after.label.as_str()),
            ("\"Send\"", "\"Delete\"")
        );
        assert_eq!(change.what, ["text"]);
        assert_eq!(change.after.bounds, Rect::new(800, 2200, 1060, 2380));
        assert!(diff.appeared.is_empty() && diff.disappeared.is_empty());
    }

    #[test]
    fn a_scrolled_list_moves_cards_and_shows_new_ones() {
        let before = screen(
            &feed(&["Apples", "Pears", "Plums", "Figs"], 0),
            "aaaaaaaaaaaa",
        );
        let after = screen(
            &feed(&["Pears", "Plums", "Figs", "Dates"], 0),
            "bbbbbbbbbbbb",
        );
        let diff = tree_diff(&before, &after);
        assert_eq!(labels(&diff.disappeared), ["\"Apples\"", "\"Like\""]);
        assert_eq!(labels(&diff.appeared), ["\"Dates\"", "\"Like\""]);
        // Each card and its own Like button moved up 500 px; the list stayed.
        let moved: Vec<&str> = diff
            .changed
            .iter()
            .map(|c| c.after.label.as_str())
            .collect();
        assert_eq!(
            moved,
            [
                "\"Pears\"",
                "\"Like\"",
                "\"Plums\"",
                "\"Like\"",
                "\"Figs\"",
                "\"Like\""
            ]
        );
        assert!(diff.changed.iter().all(|c| c.what == ["moved"]));
        assert!(
            diff.changed
                .iter()
                .all(|c| c.before.bounds.top - c.after.bounds.top == 500)
        );
        assert_eq!(diff.unchanged, 1);
        // The disappeared Like is Apples's (top card), the new one Dates's (bottom card).
        assert_eq!(diff.disappeared[1].bounds.top, 0);
        assert_eq!(diff.appeared[1].bounds.top, 1500);
    }

    #[test]
    fn buttons_stay_with_their_card_when_it_moves_and_shows_less() {
        // The card slides up 300 px and its second line goes under the edge.
        let card = |top: i32, views: bool| {
            let (bottom, mid) = (top + 400, top + 200);
            let views = if views {
                text("703K views", &format!("[0,{mid}][800,{bottom}]"))
            } else {
                String::new()
            };
            format!(
                r#"<node class="android.view.ViewGroup" clickable="true" package="app" bounds="[0,{top}][1080,{bottom}]">{}{views}{}</node>"#,
                text("Knitting a sweater", &format!("[0,{top}][800,{mid}]")),
                button("Like", &format!("[800,{top}][1080,{mid}]")),
            )
        };
        let before = screen(&card(600, true), "aaaaaaaaaaaa");
        let after = screen(&card(300, false), "bbbbbbbbbbbb");
        let diff = tree_diff(&before, &after);
        assert!(
            diff.appeared.is_empty() && diff.disappeared.is_empty(),
            "{diff:?}"
        );
        let what: Vec<(&str, &[&str])> = diff
            .changed
            .iter()
            .map(|c| (c.after.label.as_str(), c.what.as_slice()))
            .collect();
        let (both, moved): (&[&str], &[&str]) = (&["text", "moved"], &["moved"]);
        assert_eq!(
            what,
            [("\"Knitting a sweater\"", both), ("\"Like\"", moved)]
        );
    }

    #[test]
    fn a_card_cut_short_by_the_edge_is_the_same_card() {
        let long = "Knitting a sweater in one weekend";
        let cut = "Knitting a sweater in…";
        let before = screen(&button(long, "[0,1500][1080,1900]"), "aaaaaaaaaaaa");
        let after = screen(&button(cut, "[0,1800][1080,2000]"), "bbbbbbbbbbbb");
        let diff = tree_diff(&before, &after);
        assert_eq!(diff.changed.len(), 1, "{diff:?}");
        assert_eq!(diff.changed[0].what, ["text", "moved"]);
        // Too short a prefix to tell: "Send" is not "Sender settings".
        let before = screen(&button("Send", "[0,0][100,100]"), "aaaaaaaaaaaa");
        let after = screen(
            &button("Sender settings", "[0,500][100,600]"),
            "bbbbbbbbbbbb",
        );
        let diff = tree_diff(&before, &after);
        assert_eq!((diff.appeared.len(), diff.disappeared.len()), (1, 1));
    }

    #[test]
    fn a_checked_switch_is_a_state_change() {
        let switch = |checked: bool| {
            format!(
                r#"<node text="Wi-Fi" class="android.widget.Switch" checkable="true" checked="{checked}" clickable="true" package="app" bounds="[0,300][1080,400]"/>"#
            )
        };
        let diff = tree_diff(
            &screen(&switch(false), "aaaaaaaaaaaa"),
            &screen(&switch(true), "bbbbbbbbbbbb"),
        );
        assert_eq!(diff.changed.len(), 1, "{diff:?}");
        assert_eq!(diff.changed[0].what, ["state"]);
        assert_eq!(diff.changed[0].after.label, "switch \"Wi-Fi\"");
    }

    #[test]
    fn nodes_without_a_label_are_named_by_id_or_role() {
        let body = r#"<node class="android.widget.ImageView" resource-id="app:id/avatar" clickable="true" package="app" bounds="[0,0][100,100]"/>"#;
        let pruned = screen(body, "aaaaaaaaaaaa");
        assert_eq!(pruned.nodes[0].name().to_string(), "image #avatar");
        let list = screen(&feed(&[], 0), "aaaaaaaaaaaa");
        assert_eq!(list.nodes[0].name().to_string(), "list #feed");
    }

    #[test]
    fn two_screens_of_the_demo_recording() {
        // Read straight from the folder: recordings are a layer below this one.
        let screens = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings/demo/screens/");
        let load = |file: &str, version: &str| {
            let xml = std::fs::read_to_string(format!("{screens}{file}")).unwrap();
            prune_with_version(
                &parse_str(&xml).unwrap(),
                &PruneRules::default(),
                version.into(),
            )
        };
        // Three scrolls of the feed apart.
        let diff = tree_diff(
            &load("3956edaf3aebd9bf.xml", "ef6461dfa32a"),
            &load("fd76845af8ebac5f.xml", "64fb4fa6048b"),
        );
        // The two top cards scrolled away, two new ones came in at the bottom.
        let starts = |nodes: Vec<&DiffNode>, prefixes: &[&str]| {
            assert_eq!(nodes.len(), prefixes.len(), "{nodes:?}");
            for (node, prefix) in nodes.iter().zip(prefixes) {
                assert!(node.label.starts_with(prefix), "{node:?} is not {prefix}…");
            }
        };
        starts(diff.disappeared.iter().collect(), &["\"45:10", "\"3:59"]);
        starts(diff.appeared.iter().collect(), &["\"2:48", "\"18:00"]);
        // Every other card moved up; the two half off the top show only their views.
        let after: Vec<&DiffNode> = diff.changed.iter().map(|c| &c.after).collect();
        starts(
            after,
            &[
                "\"134K views",
                "\"299K views",
                "\"9:45",
                "\"14:20",
                "\"6:06",
                "\"33:33",
            ],
        );
        let what: Vec<&[&str]> = diff.changed.iter().map(|c| c.what.as_slice()).collect();
        let (moved, both): (&[&str], &[&str]) = (&["moved"], &["text", "moved"]);
        assert_eq!(what, [both, both, moved, moved, both, both]);
        assert!(diff.changed[0].before.label.starts_with("\"21:17"));
        assert!(
            diff.changed
                .iter()
                .all(|c| c.after.bounds.top < c.before.bounds.top)
        );
        // The bars, the list itself, the player and the tabs stayed as they were.
        assert_eq!(diff.unchanged, 13);
    }
}
