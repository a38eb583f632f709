//! The node a person is looking at, shared by every pane.

use tapscope_core::{NodeId, Tree};

/// Selected and hovered raw nodes; panes scroll to a selection another pane made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub selected: Option<NodeId>,
    /// Under the pointer this frame, in whichever pane.
    pub hovered: Option<NodeId>,
    /// Under the pointer last frame: panes drawn before the hovered one show it from this.
    pub last_hovered: Option<NodeId>,
    /// Set when the selection changed; panes scroll it into view and clear it.
    pub reveal: bool,
}

impl Selection {
    /// Starts a frame: this frame's hover is found anew, last frame's is kept for display.
    pub fn new_frame(&mut self) {
        self.last_hovered = self.hovered.take();
    }

    /// The node to show as hovered: this frame's if found yet, else last frame's.
    pub fn shown_hover(&self) -> Option<NodeId> {
        self.hovered.or(self.last_hovered)
    }

    pub fn select(&mut self, node: Option<NodeId>) {
        if self.selected != node {
            self.selected = node;
            self.reveal = true;
        }
    }

    /// Moves the selection with the arrow keys: ↑/↓ through document order,
    /// ← to the parent, → to the first child.
    pub fn step(&mut self, tree: &Tree, key: egui::Key) {
        if tree.nodes.is_empty() {
            return;
        }
        let last = tree.nodes.len().saturating_sub(1);
        let next = match (self.selected, key) {
            (None, _) => Some(0),
            (Some(id), egui::Key::ArrowDown) => Some((id + 1).min(last)),
            (Some(id), egui::Key::ArrowUp) => Some(id.saturating_sub(1)),
            (Some(id), egui::Key::ArrowLeft) => tree.nodes[id].parent.or(Some(id)),
            (Some(id), egui::Key::ArrowRight) => {
                tree.nodes[id].children.first().copied().or(Some(id))
            }
            (current, _) => current,
        };
        self.select(next);
    }
}
