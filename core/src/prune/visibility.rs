//! What part of each node is on screen: clipped to the display and to scrolling ancestors, minus what higher windows cover.

use super::cover::Containers;
use crate::model::{Flags, Rect, Tree, WindowKind};

/// Why a node has no visible part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// The dump marked it (or an ancestor) invisible to the user.
    Reported,
    /// Zero area once clipped to the display and its scrolling ancestors.
    Offscreen,
    /// Entirely under a window drawn above its own (keyboard, system bar, overlay).
    Covered,
}

/// The visible rectangle of every node, indexed by [`crate::NodeId`].
#[derive(Clone, Debug)]
pub struct Visibility {
    visible: Vec<Result<Rect, Hidden>>,
}

impl Visibility {
    /// Computes visibility in one pass over the arena (parents come before children).
    pub fn of(tree: &Tree) -> Self {
        let display = tree.display_rect();
        let above = WindowsAbove::of(tree);
        // The clip a node's children inherit: the display, narrowed by each scrolling ancestor.
        let mut child_clip: Vec<Rect> = Vec::with_capacity(tree.nodes.len());
        let mut reported_hidden: Vec<bool> = Vec::with_capacity(tree.nodes.len());
        let mut visible = Vec::with_capacity(tree.nodes.len());
        for node in &tree.nodes {
            let (clip, parent_hidden) = node
                .parent
                .map_or((display, false), |p| (child_clip[p], reported_hidden[p]));
            let hidden = parent_hidden || node.has(Flags::HIDDEN);
            let on_screen = node.bounds.clamped(&display).intersect(&clip);
            let own_clip = if node.has(Flags::SCROLLABLE) {
                clip.intersect(&node.bounds.clamped(&display))
            } else {
                clip
            };
            child_clip.push(own_clip);
            reported_hidden.push(hidden);
            visible.push(if hidden {
                Err(Hidden::Reported)
            } else if on_screen.is_empty() || node.bounds.is_empty() {
                Err(Hidden::Offscreen)
            } else if above.cover(tree.windows[node.window].kind, &on_screen) {
                Err(Hidden::Covered)
            } else {
                Ok(on_screen)
            });
        }
        Self { visible }
    }

    /// The on-screen part of a node, or why there is none.
    pub fn get(&self, id: crate::NodeId) -> Result<Rect, Hidden> {
        self.visible[id]
    }

    pub fn is_visible(&self, id: crate::NodeId) -> bool {
        self.visible[id].is_ok()
    }
}

/// For each layer, the windows drawn above it, indexed by their bounds.
struct WindowsAbove {
    by_layer: Vec<Containers>,
}

impl WindowsAbove {
    fn of(tree: &Tree) -> Self {
        let top = tree
            .windows
            .iter()
            .map(|w| w.kind.layer())
            .max()
            .unwrap_or(0);
        let by_layer = (0..=top)
            .map(|layer| {
                Containers::new(
                    tree.windows
                        .iter()
                        .filter(|w| w.kind.layer() > layer)
                        .map(|w| w.bounds),
                )
            })
            .collect();
        Self { by_layer }
    }

    /// Whether a window drawn above windows of `kind` covers all of `rect`.
    fn cover(&self, kind: WindowKind, rect: &Rect) -> bool {
        self.by_layer
            .get(usize::from(kind.layer()))
            .is_some_and(|above| above.contain(rect))
    }
}
