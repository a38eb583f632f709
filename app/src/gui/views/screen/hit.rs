//! Which node is drawn at a point of the display, and the pointer's hover and click on the
//! screen pane.

use egui::Pos2;
use egui::emath::RectTransform;
use tapscope_core::NodeId;
use tapscope_core::inspect::Inspection;

use crate::gui::document::Document;
use crate::gui::selection::Selection;

/// The node under the pointer becomes hovered; a click selects it (or clears the selection).
pub(super) fn hover_and_click(
    response: &egui::Response,
    document: &Document,
    inspection: &Inspection,
    selection: &mut Selection,
    to_screen: &RectTransform,
) {
    let Some(pointer) = response.hover_pos() else {
        return;
    };
    let hit = node_at(
        document,
        inspection,
        to_screen.inverse().transform_pos(pointer),
    );
    if hit.is_some() {
        selection.hovered = hit;
    }
    if response.clicked() {
        selection.select(hit);
    }
}

/// The node drawn at `display_point` (display pixels): among visible nodes whose visible
/// part holds the point, printed ones before unprinted shells, then the topmost window,
/// then the last in document order (the deepest, or the later sibling drawn above).
pub fn node_at(
    document: &Document,
    inspection: &Inspection,
    display_point: Pos2,
) -> Option<NodeId> {
    let tree = &document.tree;
    (0..tree.nodes.len())
        .filter(|&id| {
            document
                .visibility
                .get(id)
                .is_ok_and(|visible| holds(&visible, display_point))
        })
        .max_by_key(|&id| {
            let layer = tree
                .windows
                .get(tree.nodes[id].window)
                .map(|w| w.kind.layer());
            (is_printed(inspection, id), layer, id)
        })
}

/// Whether `p` is inside `rect`, whose right and bottom edges are exclusive.
fn holds(rect: &tapscope_core::Rect, p: Pos2) -> bool {
    p.x >= rect.left as f32
        && p.x < rect.right as f32
        && p.y >= rect.top as f32
        && p.y < rect.bottom as f32
}

pub(super) fn is_printed(inspection: &Inspection, id: NodeId) -> bool {
    inspection.line_of_node.get(id).copied().flatten().is_some()
}

/// The line a node prints itself (not one it merged into, nor a `more:` line).
pub(super) fn own_line(inspection: &Inspection, id: NodeId) -> Option<usize> {
    let line = inspection.line_of_node.get(id).copied().flatten()?;
    (inspection.lines.get(line)?.node == Some(id)).then_some(line)
}

#[cfg(test)]
mod tests {
    use egui::pos2;

    use super::*;
    use crate::gui::views::screen::fixture::*;

    fn hit(x: f32, y: f32) -> Option<NodeId> {
        let document = document();
        node_at(&document, &inspect(&document), pos2(x, y))
    }

    #[test]
    fn the_test_dump_has_the_nodes_the_tests_name() {
        let document = document();
        let nodes = &document.tree.nodes;
        assert_eq!(nodes.len(), 10);
        assert_eq!(nodes[FIRST_TEXT].text, "First item");
        assert_eq!(nodes[MORE].desc, "More");
        assert_eq!(nodes[FAB].desc, "Compose");
        let inspection = inspect(&document);
        assert!(document.visibility.is_visible(SHELL));
        assert!(!is_printed(&inspection, SHELL));
        assert!(is_printed(&inspection, FIRST_TEXT));
        assert_eq!(own_line(&inspection, FIRST_TEXT), None);
        assert!(own_line(&inspection, FIRST).is_some());
    }

    #[test]
    fn the_deepest_node_is_hit() {
        assert_eq!(hit(100.0, 280.0), Some(FIRST_TEXT));
        assert_eq!(hit(1000.0, 280.0), Some(MORE));
        assert_eq!(hit(500.0, 450.0), Some(FIRST));
        assert_eq!(hit(500.0, 800.0), Some(SECOND));
    }

    #[test]
    fn a_floating_button_is_hit_over_the_list_items_under_it() {
        assert_eq!(hit(960.0, 560.0), Some(FAB));
        assert_eq!(hit(960.0, 640.0), Some(FAB));
        assert_eq!(hit(860.0, 640.0), Some(SECOND));
    }

    #[test]
    fn printed_nodes_win_over_an_unprinted_shell_above_them() {
        assert_eq!(hit(500.0, 2200.0), Some(LIST));
    }

    #[test]
    fn hidden_nodes_are_never_hit() {
        assert_eq!(hit(500.0, 850.0), Some(SECOND));
    }

    #[test]
    fn a_shell_is_hit_when_nothing_printed_is_there() {
        assert_eq!(hit(500.0, 100.0), Some(ROOT));
    }

    #[test]
    fn points_outside_everything_hit_nothing() {
        assert_eq!(hit(2000.0, 100.0), None);
        assert_eq!(hit(-1.0, 100.0), None);
        assert_eq!(hit(100.0, 2400.0), None);
    }
}
