//! The sim's screen as uiautomator2's server sees it through UiAutomation: each window's
//! nodes with their place among their siblings and the bounds Android reports for them.
//!
//! The server's dumper and its queries skip a child that is not visible to the user. Here
//! they keep every node, a list's items scrolled out of it too (pruning sums them up as
//! `more:`), as tapscope's own view of the sim ([`Sim::xml`]) does; the shell's stock
//! `uiautomator dump` is the one that skips them (`sim::stock_dump`).

use crate::model::{Flags, Rect};
use crate::stability::Clock;

use super::super::{DISPLAY, Sim};
use crate::device::sim::view::{Shown, Win};

/// One node visible to the user, in document order.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Node {
    pub window: Win,
    /// 0 for a window's root.
    pub depth: usize,
    pub parent: Option<usize>,
    /// Its place among all its parent's children, shown or not (`getChild(i)`).
    pub index: usize,
    /// All its children, shown or not (`getChildCount()`).
    pub child_count: usize,
    /// Its place in its parent's drawing order: the sim's layouts draw children in order,
    /// counted from 1 as uiautomator2 dumps of stock layouts show; a window's root has 0.
    pub drawing_order: usize,
    pub class: String,
    pub text: String,
    pub desc: String,
    pub hint: String,
    pub resource_id: String,
    pub package: String,
    pub flags: Flags,
    /// `getBoundsInScreen`: where the view is, on the display or not.
    pub raw: Rect,
    /// What the dump writes: `raw` clipped to the display and to its window.
    pub bounds: Rect,
    /// `UiObject2.getVisibleBounds`: clipped by scrolling ancestors too, where a touch lands.
    pub visible: Rect,
}

/// The screen at one moment.
#[derive(Clone, Debug, Default)]
pub(super) struct Screen {
    pub nodes: Vec<Node>,
}

impl Screen {
    /// What is on the sim's screen now, mid-animation frames included.
    pub(super) fn of<C: Clock + Clone + Send>(sim: &Sim<C>) -> Self {
        let (shown, _) = sim.frame(false);
        let hints: Vec<String> = shown
            .iter()
            .map(|node| {
                node.item
                    .and_then(|i| sim.screen().and_then(|s| s.items.get(i)))
                    .map(|item| item.hint.clone())
                    .unwrap_or_default()
            })
            .collect();
        Self {
            nodes: build(&shown, &hints),
        }
    }

    /// The nodes of the active window (the app's), where `UiSelector` queries look.
    pub(super) fn in_active_window(&self, at: usize) -> bool {
        self.nodes.get(at).is_some_and(|n| n.window == Win::App)
    }

    /// The nodes under `at`, in document order.
    pub(super) fn descendants(&self, at: usize) -> impl Iterator<Item = usize> + '_ {
        let depth = self.nodes.get(at).map_or(usize::MAX, |n| n.depth);
        (at + 1..self.nodes.len()).take_while(move |&k| self.nodes[k].depth > depth)
    }
}

/// Android's `Rect.intersect`: the overlap, or `rect` unchanged when they do not overlap.
fn clip(rect: Rect, by: Rect) -> Rect {
    let overlaps = rect.left < by.right
        && by.left < rect.right
        && rect.top < by.bottom
        && by.top < rect.bottom;
    if overlaps { rect.intersect(&by) } else { rect }
}

/// The shown nodes as the server sees them; `hints[k]` is node `k`'s hint.
fn build(shown: &[Shown], hints: &[String]) -> Vec<Node> {
    let display = Rect::new(0, 0, DISPLAY.width, DISPLAY.height);
    let mut out: Vec<Node> = Vec::with_capacity(shown.len());
    // The open ancestors of the node being placed.
    let mut open: Vec<usize> = Vec::new();
    let mut window = display;
    for (k, node) in shown.iter().enumerate() {
        open.truncate(node.depth);
        let parent = open.last().copied();
        let index = match parent {
            Some(up) => {
                out[up].child_count += 1;
                out[up].child_count - 1
            }
            None => {
                window = node.bounds;
                0
            }
        };
        open.push(out.len());
        out.push(Node {
            window: node.window,
            depth: node.depth,
            parent,
            index,
            child_count: 0,
            drawing_order: if parent.is_some() { index + 1 } else { 0 },
            class: node.class.clone(),
            text: node.text.clone(),
            desc: node.desc.clone(),
            hint: hints.get(k).cloned().unwrap_or_default(),
            resource_id: node.resource_id.clone(),
            package: node.package.clone(),
            flags: node.flags,
            raw: node.bounds,
            bounds: clip(clip(node.bounds, display), window),
            visible: clip(node.visible, display),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn android_keeps_a_rectangle_that_does_not_overlap() {
        let display = Rect::new(0, 0, 1080, 2400);
        assert_eq!(
            clip(Rect::new(-100, 10, 100, 20), display),
            Rect::new(0, 10, 100, 20)
        );
        let away = Rect::new(1200, 10, 1300, 20);
        assert_eq!(clip(away, display), away);
        let flat = Rect::new(10, 10, 10, 20);
        assert_eq!(clip(flat, display), flat);
    }
}
