//! Pruning: turns a [`Tree`] into the compact, versioned list of lines an agent reads.
//!
//! Each raw node meets one [`Fate`]: printed with its own `i`, merged into a clickable
//! line, flattened away as an empty shell, summarised in a `more:` line, or not shown
//! because it is not on screen. The workbench shows the fate; the recall check audits it.

mod cover;
mod label;
mod name;
mod rules;
mod visibility;

pub use label::{Anchor, escape, id_name, one_line, quote, role, truncate};
pub use name::{NAME_CHARS, NodeName, Shows};
#[cfg(feature = "recording")]
pub(crate) use rules::file_kind;
pub use rules::{KeyboardMode, MAX_RULES_BYTES, OcrEngine, OcrLanguages, PruneRules};
pub use visibility::{Hidden, Visibility};

use serde::Serialize;

use crate::model::{Flags, NodeId, Rect, Size, Tree, WindowKind};

/// One printed node: everything its line says, plus what the line does not (exact bounds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrunedNode {
    /// The handle index: 1-based and dense over the nodes an agent can act on
    /// (every printed node with the rule `index_all`); `None` for text-only lines.
    pub i: Option<usize>,
    /// The raw node this line stands for.
    pub raw: NodeId,
    /// Raw text nodes merged into this line, in reading order.
    pub merged: Vec<NodeId>,
    pub role: Option<&'static str>,
    /// Text (or description when there is no text), one line, maybe cut; merged texts joined by ` · `.
    pub label: String,
    /// Content description when it adds to the text.
    pub desc: String,
    /// Input placeholder when it differs from the text.
    pub hint: String,
    /// Resource id name, for nodes with nothing else to read.
    pub id: String,
    /// Short class name of an empty shell, printed as `(FrameLayout)` when
    /// `flatten_shells` is off so the line says what it is.
    pub shell_class: String,
    /// Flags worth printing (actions and states).
    pub flags: Flags,
    pub pos: Anchor,
    /// Exact bounds as the dump reported them.
    pub bounds: Rect,
    /// The on-screen part of the bounds: where a tap should land.
    pub visible: Rect,
}

/// Off-viewport items of one scrollable in one direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoreGroup {
    pub direction: &'static str,
    pub count: usize,
    /// First words of the first items.
    pub samples: Vec<String>,
}

/// One line of the pruned tree, nested by `depth`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    pub depth: usize,
    pub kind: LineKind,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LineKind {
    /// A node: `Pruned::nodes[at]`.
    Node { at: usize },
    /// The start of a window other than the app's.
    Window { window: WindowKind, package: String },
    /// A `more:` summary for the scrollable `Pruned::nodes[of]`.
    More { of: usize, groups: Vec<MoreGroup> },
}

/// What pruning did with one raw node; `at`, `into` and `of` index [`Pruned::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "fate", rename_all = "kebab-case")]
pub enum Fate {
    Printed {
        at: usize,
    },
    /// Text merged into the clickable node's line.
    Merged {
        into: usize,
    },
    /// An empty shell: nothing to read or do, children moved up.
    Flattened,
    /// Outside the viewport of a scrollable, counted in its `more:` line.
    Summarised {
        of: usize,
    },
    /// Not on screen.
    NotVisible {
        why: HiddenWhy,
    },
    /// Part of a keyboard shown only as `keyboard: open`.
    Collapsed,
    /// Text read in pixels, left out by the rule `ocr = false`.
    PixelTextOff,
}

/// Serialisable mirror of [`Hidden`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HiddenWhy {
    Reported,
    Offscreen,
    Covered,
}

impl From<Hidden> for HiddenWhy {
    fn from(h: Hidden) -> Self {
        match h {
            Hidden::Reported => HiddenWhy::Reported,
            Hidden::Offscreen => HiddenWhy::Offscreen,
            Hidden::Covered => HiddenWhy::Covered,
        }
    }
}

impl Fate {
    /// The rule (or fact) that kept this node off its own line, in words.
    pub fn reason(&self, pruned: &Pruned) -> String {
        let name = |at: &usize| {
            pruned
                .nodes
                .get(*at)
                .map_or_else(String::new, |node| node.name().reference())
        };
        match self {
            Fate::Printed { at } => format!("printed as {}", name(at)),
            Fate::Merged { into } => format!(
                "merge_clickable_text: its text is merged into {}",
                name(into)
            ),
            Fate::Flattened => "flatten_shells: no text, description, action or kept id".into(),
            Fate::Summarised { of } => format!("more_summaries: off the viewport of {}", name(of)),
            Fate::NotVisible {
                why: HiddenWhy::Reported,
            } => "not visible: the dump marks it invisible".into(),
            Fate::NotVisible {
                why: HiddenWhy::Offscreen,
            } => "not visible: no part of it is on the display".into(),
            Fate::NotVisible {
                why: HiddenWhy::Covered,
            } => "not visible: covered by a window above it".into(),
            Fate::Collapsed => "keyboard = collapse: keys are not listed".into(),
            Fate::PixelTextOff => "ocr = false: text read in pixels is not listed".into(),
        }
    }
}

/// A pruned snapshot: header, lines and the nodes they print.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pruned {
    /// 12 lowercase hex digits, fresh for every snapshot.
    pub version: String,
    pub app: String,
    pub display: Size,
    pub rotation: u8,
    /// The app shows nothing readable: the agent needs the screenshot.
    pub fallback: bool,
    /// A keyboard window is on screen.
    pub keyboard: bool,
    pub lines: Vec<Line>,
    /// Printed nodes, in line order.
    pub nodes: Vec<PrunedNode>,
    /// `handles[i - 1]` is the position in `nodes` of the node with index `i`.
    pub handles: Vec<usize>,
    /// What happened to each raw node, indexed by [`NodeId`].
    pub fates: Vec<Fate>,
    /// The rules this snapshot was pruned with (the renderer follows them too).
    pub rules: PruneRules,
}

impl Pruned {
    /// The node with handle index `i`.
    pub fn resolve(&self, i: usize) -> Option<&PrunedNode> {
        let at = *self.handles.get(i.checked_sub(1)?)?;
        self.nodes.get(at)
    }

    /// The printed node that shows raw node `id`, on its own line or merged.
    pub fn printed_as(&self, id: NodeId) -> Option<&PrunedNode> {
        match self.fates.get(id)? {
            Fate::Printed { at } | Fate::Merged { into: at } => self.nodes.get(*at),
            _ => None,
        }
    }
}

/// A fresh random version: 12 lowercase hex digits.
pub fn new_version() -> String {
    version_from(&mut fastrand::Rng::new())
}

/// The next version `rng` draws: 12 lowercase hex digits.
pub fn version_from(rng: &mut fastrand::Rng) -> String {
    format!("{:012x}", rng.u64(..) & 0xffff_ffff_ffff)
}

/// Prunes `tree` with `rules` under a fresh random version.
pub fn prune(tree: &Tree, rules: &PruneRules) -> Pruned {
    prune_with_version(tree, rules, new_version())
}

/// Prunes `tree` with `rules` under the given version (for reproducible output).
pub fn prune_with_version(tree: &Tree, rules: &PruneRules, version: String) -> Pruned {
    let visibility = Visibility::of(tree);
    let mut pruner = Pruner {
        tree,
        rules,
        visibility: &visibility,
        fates: tree
            .nodes
            .iter()
            .enumerate()
            .map(|(id, _)| match visibility.get(id) {
                Ok(_) => Fate::Flattened,
                Err(why) => Fate::NotVisible { why: why.into() },
            })
            .collect(),
        lines: Vec::new(),
        nodes: Vec::new(),
        handles: Vec::new(),
    };
    let keyboard = tree
        .windows
        .iter()
        .any(|w| w.kind == WindowKind::Keyboard && !w.bounds.is_empty());
    let mut order: Vec<usize> = (0..tree.windows.len()).collect();
    order.sort_by_key(|&w| tree.windows[w].kind.layer());
    // The last line at depth 0, found by scanning each line once (a screen can have tens of
    // thousands of windows).
    let (mut last_top, mut scanned) = (None, 0);
    for w in order {
        last_top = pruner.lines[scanned..]
            .iter()
            .rposition(|l| l.depth == 0)
            .map(|k| scanned + k)
            .or(last_top);
        scanned = pruner.lines.len();
        let window = &tree.windows[w];
        let depth = if window.kind == WindowKind::App { 0 } else { 1 };
        if window.kind == WindowKind::Keyboard && rules.keyboard == KeyboardMode::Collapse {
            for &root in &window.roots {
                for id in tree.descendants(root) {
                    pruner.fates[id] = Fate::Collapsed;
                }
            }
            continue;
        }
        let header = pruner.lines.len();
        let continues_group = matches!(
            last_top.map(|k| &pruner.lines[k]),
            Some(Line { kind: LineKind::Window { window: kind, package }, .. })
                if *kind == window.kind && (kind != &WindowKind::Overlay || *package == window.package)
        );
        let opens_group = depth == 1 && !continues_group;
        if opens_group {
            pruner.lines.push(Line {
                depth: 0,
                kind: LineKind::Window {
                    window: window.kind,
                    package: window.package.clone(),
                },
            });
        }
        for &root in &window.roots {
            pruner.walk(root, depth);
        }
        if opens_group && pruner.lines.len() == header + 1 {
            pruner.lines.pop(); // nothing of that window is on screen
        }
    }
    let fallback = !pruner.has_app_content();
    Pruned {
        version,
        app: tree.app.clone(),
        display: tree.display,
        rotation: tree.rotation,
        fallback,
        keyboard,
        lines: pruner.lines,
        nodes: pruner.nodes,
        handles: pruner.handles,
        fates: pruner.fates,
        rules: rules.clone(),
    }
}

struct Pruner<'a> {
    tree: &'a Tree,
    rules: &'a PruneRules,
    visibility: &'a Visibility,
    fates: Vec<Fate>,
    lines: Vec<Line>,
    nodes: Vec<PrunedNode>,
    handles: Vec<usize>,
}

/// Work left on the walk's stack.
enum Step {
    Visit(NodeId, usize),
    /// After a scrollable's children: its `more:` line.
    More(NodeId, usize, usize),
}

impl Pruner<'_> {
    /// Emits the lines of one window root's subtree, iteratively (no recursion, any depth).
    fn walk(&mut self, root: NodeId, depth: usize) {
        let mut stack = vec![Step::Visit(root, depth)];
        while let Some(step) = stack.pop() {
            match step {
                Step::More(container, at, depth) => self.more_line(container, at, depth),
                Step::Visit(id, depth) => {
                    let node = &self.tree.nodes[id];
                    if node.is_pixel_text() && !self.rules.ocr {
                        self.fates[id] = Fate::PixelTextOff;
                        continue;
                    }
                    let merged = matches!(self.fates[id], Fate::Merged { .. });
                    let child_depth = if self.is_kept(id) && !merged {
                        let at = self.print(id, depth);
                        if node.has(Flags::SCROLLABLE) && self.rules.more_summaries {
                            stack.push(Step::More(id, at, depth + 1));
                        }
                        depth + 1
                    } else {
                        depth
                    };
                    stack.extend(
                        node.children
                            .iter()
                            .rev()
                            .map(|&c| Step::Visit(c, child_depth)),
                    );
                }
            }
        }
    }

    /// Whether a visible node gets a line of its own.
    fn is_kept(&self, id: NodeId) -> bool {
        if !self.visibility.is_visible(id) {
            return false;
        }
        let node = &self.tree.nodes[id];
        !self.rules.flatten_shells
            || node.has_label()
            || node.is_actionable()
            || (self.rules.keep_id_containers && id_name(&node.resource_id).is_some())
    }

    /// Adds the node's line; returns its position in `nodes`.
    fn print(&mut self, id: NodeId, depth: usize) -> usize {
        let at = self.nodes.len();
        let node = &self.tree.nodes[id];
        let visible = self.visibility.get(id).unwrap_or_default();
        let merged = self.mergeable_texts(id);
        let mut texts: Vec<String> = Vec::new();
        let text = one_line(&node.text);
        let desc = one_line(&node.desc);
        let mut extra_desc = String::new();
        if !text.is_empty() {
            texts.push(text.clone());
            if !desc.is_empty() && !text.contains(&desc) {
                extra_desc = truncate(&desc, self.rules.max_text_chars);
            }
        } else if !desc.is_empty() {
            texts.push(desc);
        }
        for &m in &merged {
            self.fates[m] = Fate::Merged { into: at };
            let m = &self.tree.nodes[m];
            for part in [one_line(&m.text), one_line(&m.desc)] {
                let shown = |t: &String| truncate(t, self.rules.max_text_chars).contains(&part);
                if !part.is_empty() && !texts.iter().any(shown) {
                    texts.push(part);
                }
            }
        }
        let label = texts
            .iter()
            .map(|t| truncate(t, self.rules.max_text_chars))
            .collect::<Vec<_>>()
            .join(" · ");
        let hint = one_line(&node.hint);
        let hint = if hint.is_empty() || hint == text {
            String::new()
        } else {
            truncate(&hint, self.rules.max_text_chars)
        };
        let id_text = match id_name(&node.resource_id) {
            Some(name) if self.rules.ids && label.is_empty() => name.to_owned(),
            _ => String::new(),
        };
        let shell = !(self.rules.flatten_shells || node.has_label() || node.is_actionable());
        let shell_class = if shell && merged.is_empty() {
            node.short_class().to_owned()
        } else {
            String::new()
        };
        let i = (node.is_actionable() || self.rules.index_all).then(|| {
            self.handles.push(at);
            self.handles.len()
        });
        self.fates[id] = Fate::Printed { at };
        self.nodes.push(PrunedNode {
            i,
            raw: id,
            merged,
            role: role(node),
            label,
            desc: extra_desc,
            hint,
            id: id_text,
            shell_class,
            // Text read in pixels is tappable by what it is: `ocr` says so.
            flags: if node.is_pixel_text() {
                node.flags - Flags::CLICKABLE
            } else {
                node.flags
            },
            pos: Anchor::of(&visible, self.tree.display),
            bounds: node.bounds,
            visible,
        });
        self.lines.push(Line {
            depth,
            kind: LineKind::Node { at },
        });
        at
    }

    /// The visible text-only descendants a clickable node absorbs: all of its readable
    /// content except what sits inside an actionable descendant, which keeps its own line.
    /// Nothing merges when there are more texts than `max_merged_texts`.
    fn mergeable_texts(&self, id: NodeId) -> Vec<NodeId> {
        let node = &self.tree.nodes[id];
        let merges = self.rules.merge_clickable_text
            && node.has(Flags::CLICKABLE | Flags::LONG_CLICKABLE)
            && !node.has(Flags::SCROLLABLE | Flags::EDITABLE);
        if !merges {
            return Vec::new();
        }
        let mut texts = Vec::new();
        let mut stack: Vec<NodeId> = node.children.iter().rev().copied().collect();
        while let Some(d) = stack.pop() {
            let child = &self.tree.nodes[d];
            if child.is_actionable() {
                continue; // an action of its own: printed on its own line with its subtree
            }
            if self.is_kept(d) {
                if !child.has_label() || texts.len() == self.rules.max_merged_texts {
                    return Vec::new();
                }
                texts.push(d);
            }
            stack.extend(child.children.iter().rev());
        }
        texts
    }

    /// Counts the scrollable's off-viewport items and emits its `more:` line.
    fn more_line(&mut self, container: NodeId, at: usize, depth: usize) {
        let bounds = self.tree.nodes[container].bounds;
        let mut groups: Vec<MoreGroup> = Vec::new();
        for item in self.offscreen_items(container) {
            let Some(direction) = direction_of(&self.tree.nodes[item].bounds, &bounds) else {
                continue;
            };
            let sample = self.sample_text(item);
            let meaningful = sample.is_some()
                || self
                    .tree
                    .descendants(item)
                    .any(|d| self.tree.nodes[d].is_actionable());
            if !meaningful {
                continue;
            }
            for d in self.tree.descendants(item) {
                // A descendant whose bounds reach back into the viewport is on screen and
                // already has its line: it keeps that fate.
                if !matches!(self.fates[d], Fate::Printed { .. } | Fate::Merged { .. }) {
                    self.fates[d] = Fate::Summarised { of: at };
                }
            }
            let index = groups
                .iter()
                .position(|g| g.direction == direction)
                .unwrap_or_else(|| {
                    groups.push(MoreGroup {
                        direction,
                        count: 0,
                        samples: Vec::new(),
                    });
                    groups.len() - 1
                });
            let group = &mut groups[index];
            group.count += 1;
            if let Some(text) = sample.filter(|_| group.samples.len() < self.rules.more_samples) {
                group.samples.push(text);
            }
        }
        if !groups.is_empty() {
            self.lines.push(Line {
                depth,
                kind: LineKind::More { of: at, groups },
            });
        }
    }

    /// The scrollable's items that lie outside its viewport, looking through the
    /// unprinted layout wrappers between it and its items (stopping at nested scrollables).
    fn offscreen_items(&self, container: NodeId) -> Vec<NodeId> {
        let mut items = Vec::new();
        let mut stack: Vec<NodeId> = self.tree.nodes[container]
            .children
            .iter()
            .rev()
            .copied()
            .collect();
        while let Some(id) = stack.pop() {
            let node = &self.tree.nodes[id];
            match self.visibility.get(id) {
                Err(Hidden::Offscreen) => items.push(id),
                Ok(_) if !self.is_kept(id) && !node.has(Flags::SCROLLABLE) => {
                    stack.extend(node.children.iter().rev());
                }
                _ => {}
            }
        }
        items
    }

    /// The first words of an item's longest text: usually its title, not a badge or a duration.
    fn sample_text(&self, item: NodeId) -> Option<String> {
        let longest = self
            .tree
            .descendants(item)
            .map(|d| {
                let node = &self.tree.nodes[d];
                if node.text.trim().is_empty() {
                    node.desc.as_str()
                } else {
                    node.text.as_str()
                }
            })
            .max_by_key(|text| text.trim().chars().count())?;
        let words: Vec<&str> = longest
            .split_whitespace()
            .take(self.rules.more_words)
            .collect();
        (!words.is_empty()).then(|| truncate(&words.join(" "), self.rules.max_text_chars))
    }

    /// Whether the app shows anything an agent can read or precisely target.
    fn has_app_content(&self) -> bool {
        let display_area = i64::from(self.tree.display.width) * i64::from(self.tree.display.height);
        self.nodes.iter().any(|p| {
            let node = &self.tree.nodes[p.raw];
            let in_app = matches!(
                self.tree.windows[node.window].kind,
                WindowKind::App | WindowKind::Overlay
            );
            // Text read in pixels is the fallback's, not the app's: the screenshot stays.
            in_app
                && !node.is_pixel_text()
                && (!p.label.is_empty()
                    || (node.is_actionable() && p.visible.area() * 2 < display_area))
        })
    }
}

impl PrunedNode {
    /// The node's name in words, in every form tapscope names a node ([`NodeName`]).
    pub fn name(&self) -> NodeName {
        NodeName::of(self)
    }

    /// Where the node is on screen: its visible part, or its bounds when none is known.
    pub fn shown(&self) -> Rect {
        if self.visible.is_empty() {
            self.bounds
        } else {
            self.visible
        }
    }
}

/// Where an off-viewport child lies relative to its scrollable's bounds.
fn direction_of(child: &Rect, container: &Rect) -> Option<&'static str> {
    if child.top >= container.bottom {
        Some("below")
    } else if child.bottom <= container.top {
        Some("above")
    } else if child.left >= container.right {
        Some("right")
    } else if child.right <= container.left {
        Some("left")
    } else {
        None
    }
}
