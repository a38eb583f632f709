//! Painting the screen pane: the screenshot or a wireframe of the tree, and over it the
//! printed nodes, the token heat map, the hovered and the selected node; screenshots
//! halved to fit the GPU's textures.

use egui::emath::RectTransform;
use egui::{Color32, FontId, Pos2, Rect, Stroke, StrokeKind, pos2, vec2};
use tapscope_core::inspect::Inspection;
use tapscope_core::{Node, NodeId};

use super::hit::{is_printed, own_line};
use super::to_egui_rect;
use crate::gui::document::Document;
use crate::gui::selection::Selection;
use crate::gui::views::colors;

const WIREFRAME_BACKGROUND: Color32 = Color32::from_gray(8);
const WIREFRAME_OUTLINE: Color32 = Color32::from_gray(70);
pub(super) const TEXT_COLOR: Color32 = Color32::from_gray(215);
pub(super) const DESC_COLOR: Color32 = Color32::from_rgb(160, 185, 220);
pub(super) const CLASS_COLOR: Color32 = Color32::from_gray(125);
const PRINTED_OUTLINE: Color32 = Color32::from_rgba_premultiplied(70, 160, 85, 170);
/// Labels longer than this are cut before layout; the box clips them anyway.
const MAX_LABEL_CHARS: usize = 160;

/// The on-screen part of a node, in screen points, when it has one.
fn visible_on_screen(document: &Document, to_screen: &RectTransform, id: NodeId) -> Option<Rect> {
    let visible = document.visibility.get(id).ok()?;
    Some(to_screen.transform_rect(to_egui_rect(visible)))
}

pub(super) fn paint_screenshot(painter: &egui::Painter, texture: egui::TextureId, image: Rect) {
    let uv = Rect::from_min_max(Pos2::ZERO, pos2(1.0, 1.0));
    painter.image(texture, image, uv, Color32::WHITE);
    painter.rect_stroke(
        image,
        0.0,
        Stroke::new(1.0, WIREFRAME_OUTLINE),
        StrokeKind::Outside,
    );
}

/// A dark display with every visible node's box and its label.
pub(super) fn paint_wireframe(
    painter: &egui::Painter,
    document: &Document,
    to_screen: &RectTransform,
) {
    let image = *to_screen.to();
    painter.rect_filled(image, 0.0, WIREFRAME_BACKGROUND);
    painter.rect_stroke(
        image,
        0.0,
        Stroke::new(1.0, WIREFRAME_OUTLINE),
        StrokeKind::Outside,
    );
    // Roughly 14sp on a phone, so labels grow with the zoom like real text.
    let font = FontId::proportional((36.0 * to_screen.scale().y).clamp(7.0, 18.0));
    let labelled_inside = labelled_inside(document);
    for (id, node) in document.tree.nodes.iter().enumerate() {
        let Some(rect) = visible_on_screen(document, to_screen, id) else {
            continue;
        };
        if !painter.clip_rect().intersects(rect) {
            continue;
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, WIREFRAME_OUTLINE),
            StrokeKind::Inside,
        );
        if let Some((label, color)) = wireframe_label(node, labelled_inside[id]) {
            paint_label(painter, rect, label, font.clone(), color);
        }
    }
}

/// Whether each node has a visible labelled descendant (whose label the wireframe shows).
pub(super) fn labelled_inside(document: &Document) -> Vec<bool> {
    let nodes = &document.tree.nodes;
    let mut inside = vec![false; nodes.len()];
    // Children come after their parent in document order, so one backward pass suffices.
    for (id, node) in nodes.iter().enumerate().rev() {
        let shown = node.has_label() && document.visibility.is_visible(id);
        if let Some(parent) = node.parent.filter(|_| shown || inside[id]) {
            inside[parent] = true;
        }
    }
    inside
}

/// Text, else content description, else hint; the class only for an actionable node
/// with nothing labelled inside (an icon button), so it does not cover its content.
pub(super) fn wireframe_label(node: &Node, labelled_inside: bool) -> Option<(&str, Color32)> {
    [
        (node.text.trim(), TEXT_COLOR),
        (node.desc.trim(), DESC_COLOR),
        (node.hint.trim(), CLASS_COLOR),
    ]
    .into_iter()
    .find(|(label, _)| !label.is_empty())
    .or_else(|| {
        (node.is_actionable() && !labelled_inside).then(|| (node.short_class(), CLASS_COLOR))
    })
}

/// A label wrapped to the box and clipped to it.
fn paint_label(painter: &egui::Painter, rect: Rect, label: &str, font: FontId, color: Color32) {
    if rect.width() < 8.0 || rect.height() < 6.0 {
        return;
    }
    let text: String = label.chars().take(MAX_LABEL_CHARS).collect();
    let galley = painter.layout(text, font, color, rect.width() - 4.0);
    painter
        .with_clip_rect(rect.shrink(1.0))
        .galley(rect.min + vec2(2.0, 1.0), galley, color);
}

/// Heat map, printed boxes, then the hovered and the selected node on top.
pub(super) fn paint_overlay(
    painter: &egui::Painter,
    document: &Document,
    inspection: &Inspection,
    selection: &Selection,
    to_screen: &RectTransform,
    heat_map: bool,
) {
    if heat_map {
        paint_heat(painter, document, inspection, to_screen);
    }
    paint_printed(painter, document, inspection, to_screen);
    if let Some(rect) = selection
        .shown_hover()
        .and_then(|id| visible_on_screen(document, to_screen, id))
    {
        paint_hovered(painter, rect, to_screen.to().area());
    }
    if let Some(id) = selection.selected {
        paint_selected(painter, document, to_screen, id);
    }
}

/// A translucent fill, left out for boxes covering most of the picture (a full-screen
/// shell would tint everything), and an outline.
fn paint_hovered(painter: &egui::Painter, rect: Rect, image_area: f32) {
    if rect.area() < image_area / 3.0 {
        painter.rect_filled(rect, 0.0, colors::HOVERED.gamma_multiply(0.3));
    }
    painter.rect_stroke(
        rect,
        0.0,
        Stroke::new(1.5, colors::HOVERED),
        StrokeKind::Inside,
    );
}

/// Thin outlines of every visible node the pruned tree prints (or merges into a line).
fn paint_printed(
    painter: &egui::Painter,
    document: &Document,
    inspection: &Inspection,
    to_screen: &RectTransform,
) {
    let stroke = Stroke::new(1.0, PRINTED_OUTLINE);
    // Text read in pixels stands apart from what the dump gave: its own colour, thicker.
    let read = Stroke::new(2.0, colors::PIXEL_TEXT);
    for id in (0..document.tree.nodes.len()).filter(|&id| is_printed(inspection, id)) {
        if let Some(rect) = visible_on_screen(document, to_screen, id) {
            let stroke = if document.tree.nodes[id].is_pixel_text() {
                read
            } else {
                stroke
            };
            painter.rect_stroke(rect, 0.0, stroke, StrokeKind::Inside);
        }
    }
}

/// Each node's own line tinted by its token cost, relative to the costliest node line.
fn paint_heat(
    painter: &egui::Painter,
    document: &Document,
    inspection: &Inspection,
    to_screen: &RectTransform,
) {
    let costs: Vec<(NodeId, usize)> = (0..document.tree.nodes.len())
        .filter_map(|id| {
            own_line(inspection, id).map(|line| (id, inspection.lines[line].tokens.tokens()))
        })
        .collect();
    let max = costs.iter().map(|&(_, t)| t).max().unwrap_or(1).max(1) as f32;
    for (id, tokens) in costs {
        if let Some(rect) = visible_on_screen(document, to_screen, id) {
            painter.rect_filled(rect, 0.0, heat_color(tokens as f32 / max));
        }
    }
}

/// A thick outline; a node with nothing on screen gets a dashed outline of its raw bounds.
fn paint_selected(
    painter: &egui::Painter,
    document: &Document,
    to_screen: &RectTransform,
    id: NodeId,
) {
    if let Some(rect) = visible_on_screen(document, to_screen, id) {
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(3.0, colors::SELECTED),
            StrokeKind::Outside,
        );
        return;
    }
    let Some(node) = document.tree.nodes.get(id) else {
        return;
    };
    let rect = to_screen.transform_rect(to_egui_rect(node.bounds));
    let corners = [
        rect.left_top(),
        rect.right_top(),
        rect.right_bottom(),
        rect.left_bottom(),
        rect.left_top(),
    ];
    let stroke = Stroke::new(1.5, colors::SELECTED);
    painter.extend(egui::Shape::dashed_line(&corners, stroke, 6.0, 4.0));
}

/// Transparent-ish orange for the cheapest line, strong red for the most expensive.
pub(super) fn heat_color(heat: f32) -> Color32 {
    let h = heat.clamp(0.0, 1.0);
    let channel = |low: f32, high: f32| (low + (high - low) * h).round() as u8;
    Color32::from_rgba_unmultiplied(
        channel(255.0, 230.0),
        channel(175.0, 40.0),
        channel(40.0, 30.0),
        channel(25.0, 190.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::views::screen::fixture::*;

    #[test]
    fn the_wireframe_names_only_unlabelled_actionable_nodes_by_class() {
        let document = document();
        let inside = labelled_inside(&document);
        let label = |id: NodeId| wireframe_label(&document.tree.nodes[id], inside[id]);
        assert_eq!(label(FIRST_TEXT), Some(("First item", TEXT_COLOR)));
        assert_eq!(label(FAB), Some(("Compose", DESC_COLOR)));
        assert_eq!(label(FIRST), None, "its text child is drawn instead");
        assert_eq!(label(ROOT), None);
        let mut icon = document.tree.nodes[FAB].clone();
        icon.desc.clear();
        assert_eq!(
            wireframe_label(&icon, false),
            Some(("ImageButton", CLASS_COLOR))
        );
    }

    #[test]
    fn heat_grows_from_faint_to_strong() {
        assert!(heat_color(0.0).a() < heat_color(0.5).a());
        assert!(heat_color(0.5).a() < heat_color(1.0).a());
    }
}
