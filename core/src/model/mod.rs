//! The one tree model every dump format parses into: nodes in an arena, in document order.

mod pixel_text;

pub use pixel_text::{PIXEL_TEXT_CLASS, PixelText};

use serde::{Deserialize, Serialize};

/// Index of a node in [`Tree::nodes`]; also "which raw node" a pruned line came from.
pub type NodeId = usize;

/// A rectangle in display pixels: left, top, right, bottom (right and bottom exclusive).
///
/// Kept exactly as the dump reported it, even when inverted or off the display;
/// [`Rect::clamped`] and [`Rect::intersect`] give the usable part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

impl Rect {
    pub const fn new(left: i32, top: i32, right: i32, bottom: i32) -> Self {
        Self {
            left,
            top,
            right,
            bottom,
        }
    }

    pub fn width(&self) -> i32 {
        self.right.saturating_sub(self.left).max(0)
    }

    pub fn height(&self) -> i32 {
        self.bottom.saturating_sub(self.top).max(0)
    }

    /// Area in pixels; zero for empty or inverted rectangles.
    pub fn area(&self) -> i64 {
        i64::from(self.width()) * i64::from(self.height())
    }

    pub fn is_empty(&self) -> bool {
        self.width() == 0 || self.height() == 0
    }

    /// The overlap of two rectangles (empty when they do not overlap).
    pub fn intersect(&self, other: &Rect) -> Rect {
        Rect {
            left: self.left.max(other.left),
            top: self.top.max(other.top),
            right: self.right.min(other.right),
            bottom: self.bottom.min(other.bottom),
        }
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        if self.is_empty() {
            return *other;
        }
        if other.is_empty() {
            return *self;
        }
        Rect {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }

    /// Whether `other` lies entirely inside `self`.
    pub fn contains_rect(&self, other: &Rect) -> bool {
        other.left >= self.left
            && other.top >= self.top
            && other.right <= self.right
            && other.bottom <= self.bottom
    }

    /// Centre point, rounded down.
    pub fn center(&self) -> (i32, i32) {
        (
            midpoint(self.left, self.right),
            midpoint(self.top, self.bottom),
        )
    }

    /// Normalised (left ≤ right, top ≤ bottom) and clamped into `area`.
    pub fn clamped(&self, area: &Rect) -> Rect {
        let (l, r) = (self.left.min(self.right), self.left.max(self.right));
        let (t, b) = (self.top.min(self.bottom), self.top.max(self.bottom));
        Rect {
            left: l.clamp(area.left, area.right),
            top: t.clamp(area.top, area.bottom),
            right: r.clamp(area.left, area.right),
            bottom: b.clamp(area.top, area.bottom),
        }
    }
}

fn midpoint(a: i32, b: i32) -> i32 {
    ((i64::from(a) + i64::from(b)).div_euclid(2)) as i32
}

impl std::fmt::Display for Rect {
    /// The uiautomator form, `[l,t][r,b]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{},{}][{},{}]",
            self.left, self.top, self.right, self.bottom
        )
    }
}

bitflags::bitflags! {
    /// Boolean properties of a node, as the dump reported them.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub struct Flags: u16 {
        const CLICKABLE = 1 << 0;
        const LONG_CLICKABLE = 1 << 1;
        const CHECKABLE = 1 << 2;
        const CHECKED = 1 << 3;
        const SCROLLABLE = 1 << 4;
        const EDITABLE = 1 << 5;
        const FOCUSABLE = 1 << 6;
        const FOCUSED = 1 << 7;
        const SELECTED = 1 << 8;
        const PASSWORD = 1 << 9;
        const ENABLED = 1 << 10;
        /// The dump said `visible-to-user="false"` (or `visibility` not visible).
        const HIDDEN = 1 << 11;
    }
}

impl Flags {
    /// The flags that make a node something an agent can act on.
    pub const ACTIONS: Flags = Flags::CLICKABLE
        .union(Flags::LONG_CLICKABLE)
        .union(Flags::CHECKABLE)
        .union(Flags::SCROLLABLE)
        .union(Flags::EDITABLE);
}

/// One accessibility node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// Widget class (`android.widget.TextView`), or the tag for Appium dumps.
    pub class: String,
    pub text: String,
    /// Content description.
    pub desc: String,
    /// Placeholder of an input field (uiautomator2's `hint`).
    pub hint: String,
    pub resource_id: String,
    pub package: String,
    pub bounds: Rect,
    pub flags: Flags,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// Depth below its window's root (0 for the root).
    pub depth: u32,
    /// Index into [`Tree::windows`].
    pub window: usize,
    /// Byte offset of the node's element in the decoded text, where the format has one.
    pub source_offset: Option<usize>,
}

impl Node {
    pub fn has(&self, flags: Flags) -> bool {
        self.flags.intersects(flags)
    }

    /// Whether the node carries an action: click, long-click, check, scroll or edit.
    pub fn is_actionable(&self) -> bool {
        self.has(Flags::ACTIONS)
    }

    /// Whether the node carries text or a content description worth reading.
    pub fn has_label(&self) -> bool {
        !self.text.trim().is_empty() || !self.desc.trim().is_empty()
    }

    /// The last segment of the class name (`TextView` for `android.widget.TextView`).
    pub fn short_class(&self) -> &str {
        self.class.rsplit(['.', '$']).next().unwrap_or(&self.class)
    }
}

/// What a top-level window is, which decides how it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum WindowKind {
    /// The foreground application: its nodes are the body of the pruned tree.
    App,
    /// Another application's window drawn over the app (edge panel, bubble, dialog).
    Overlay,
    /// An input method (on-screen keyboard).
    Keyboard,
    /// The status bar or navigation bar.
    SystemBar,
}

impl WindowKind {
    /// Stacking order: higher layers are drawn over, and cover, lower ones.
    pub fn layer(self) -> u8 {
        match self {
            WindowKind::App => 0,
            WindowKind::Overlay => 1,
            WindowKind::Keyboard => 2,
            WindowKind::SystemBar => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            WindowKind::App => "app",
            WindowKind::Overlay => "overlay",
            WindowKind::Keyboard => "keyboard",
            WindowKind::SystemBar => "system-bar",
        }
    }
}

/// A top-level window: one root node in uiautomator dumps, or a list of roots in flat JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub roots: Vec<NodeId>,
    pub package: String,
    pub kind: WindowKind,
    /// Union of the roots' bounds.
    pub bounds: Rect,
}

/// The dump format a tree was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DumpFormat {
    /// `uiautomator dump` and uiautomator2 output (`<hierarchy><node …>`).
    Uiautomator,
    /// Appium `page_source`: tags are class names.
    Appium,
    /// droidbot state JSON (`views[]` with parent/children indexes), also `.vh` lists.
    Droidbot,
    /// Rico view hierarchy (`activity.root`, nested `children`).
    Rico,
    /// droidrun-portal style nested element JSON.
    Droidrun,
    /// A flat JSON list of elements with bounds and no hierarchy.
    FlatList,
}

impl DumpFormat {
    pub fn name(self) -> &'static str {
        match self {
            DumpFormat::Uiautomator => "uiautomator",
            DumpFormat::Appium => "appium",
            DumpFormat::Droidbot => "droidbot",
            DumpFormat::Rico => "rico",
            DumpFormat::Droidrun => "droidrun",
            DumpFormat::FlatList => "flat-list",
        }
    }
}

/// Display size in pixels, as the dump lays it out (already rotated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Size {
    pub width: i32,
    pub height: i32,
}

/// A parsed dump: nodes in document order (every parent before its children).
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub windows: Vec<Window>,
    pub display: Size,
    /// 0–3, quarter turns as uiautomator reports them.
    pub rotation: u8,
    pub format: DumpFormat,
    /// Foreground activity when the dump names it (droidbot, Rico), else the app's package.
    pub app: String,
}

impl Tree {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// The display as a rectangle at the origin.
    pub fn display_rect(&self) -> Rect {
        Rect::new(0, 0, self.display.width, self.display.height)
    }

    /// Ancestors of `id`, nearest first.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes[id].parent, |&p| self.nodes[p].parent)
    }

    /// The node's subtree in document order, itself first (iterative: no recursion).
    pub fn descendants(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut stack = vec![id];
        std::iter::from_fn(move || {
            let next = stack.pop()?;
            stack.extend(self.nodes[next].children.iter().rev());
            Some(next)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverted_rect_is_empty_and_clamps_into_display() {
        let display = Rect::new(0, 0, 1080, 2400);
        let inverted = Rect::new(900, 500, 100, 300);
        assert!(inverted.is_empty());
        assert_eq!(inverted.area(), 0);
        assert_eq!(inverted.clamped(&display), Rect::new(100, 300, 900, 500));
        let outside = Rect::new(-50, 2300, 2000, 9000);
        assert_eq!(outside.clamped(&display), Rect::new(0, 2300, 1080, 2400));
    }

    #[test]
    fn center_of_extreme_rect_does_not_overflow() {
        let huge = Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX);
        assert_eq!(huge.center(), (-1, -1));
        assert_eq!(huge.width(), i32::MAX);
    }

    #[test]
    fn short_class_strips_package_and_outer_class() {
        let node = Node {
            class: "android.widget.Switch".into(),
            ..Node::default()
        };
        assert_eq!(node.short_class(), "Switch");
        let inner = Node {
            class: "com.x.Outer$Inner".into(),
            ..Node::default()
        };
        assert_eq!(inner.short_class(), "Inner");
    }
}
