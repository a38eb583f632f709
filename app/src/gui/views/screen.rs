//! The screen pane: the screenshot (or a wireframe drawn from the tree) with node bounds over it.

use std::sync::Arc;

use egui::emath::RectTransform;
use egui::{Color32, ColorImage, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2, vec2};
use tapscope_core::inspect::Inspection;
use tapscope_core::{Node, NodeId};

use super::colors;
use crate::gui::document::Document;
use crate::gui::selection::Selection;

const MIN_ZOOM: f32 = 0.25;
const MAX_ZOOM: f32 = 16.0;
/// Room between the picture and the pane's edges at zoom 1 ("fit").
const MARGIN: f32 = 4.0;
/// Labels longer than this are cut before layout; the box clips them anyway.
const MAX_LABEL_CHARS: usize = 160;

const WIREFRAME_BACKGROUND: Color32 = Color32::from_gray(8);
const WIREFRAME_OUTLINE: Color32 = Color32::from_gray(70);
const TEXT_COLOR: Color32 = Color32::from_gray(215);
const DESC_COLOR: Color32 = Color32::from_rgb(160, 185, 220);
const CLASS_COLOR: Color32 = Color32::from_gray(125);
const PRINTED_OUTLINE: Color32 = Color32::from_rgba_premultiplied(70, 160, 85, 170);

/// Zoom and pan of the screen pane, where it last drew the display, and the screenshot texture.
pub struct ScreenState {
    /// 1.0 fits the whole display into the pane.
    pub zoom: f32,
    /// Offset of the picture's centre from the pane's centre, in points.
    pub pan: Vec2,
    /// Where the whole display was drawn last frame, in screen points.
    pub last_image_rect: Option<Rect>,
    /// The uploaded screenshot, with the image it was made from.
    texture: Option<(TextureKey, egui::TextureHandle)>,
    /// A person drives a live phone: a click taps and a drag swipes instead of panning.
    pub touch: bool,
    /// The gesture made this frame in touch mode, in display pixels, for the caller to take.
    pub gesture: Option<Gesture>,
}

/// A click or a drag on the picture, in display pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    Tap(Pos2),
    Swipe { from: Pos2, to: Pos2 },
}

impl Default for ScreenState {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            pan: Vec2::ZERO,
            last_image_rect: None,
            texture: None,
            touch: false,
            gesture: None,
        }
    }
}

impl std::fmt::Debug for ScreenState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScreenState")
            .field("zoom", &self.zoom)
            .field("pan", &self.pan)
            .field("last_image_rect", &self.last_image_rect)
            .field("texture_of", &self.texture.as_ref().map(|(k, _)| &k.0))
            .finish()
    }
}

impl ScreenState {
    /// Back to "fit"; the texture stays, it still belongs to the document.
    pub fn reset_view(&mut self) {
        self.zoom = 1.0;
        self.pan = Vec2::ZERO;
    }

    /// Where a point in display pixels was drawn last frame.
    pub fn display_to_screen(&self, document: &Document, p: Pos2) -> Option<Pos2> {
        let image = self.last_image_rect?;
        Some(display_transform(document, image).transform_pos(p))
    }

    /// Whether the texture last drawn is `document`'s screenshot.
    pub fn shows_screenshot_of(&self, document: &Document) -> bool {
        let key = texture_key(document);
        key.is_some() && self.texture.as_ref().map(|(k, _)| k) == key.as_ref()
    }

    /// The screenshot's texture, uploaded once per screenshot (steps of a recording that
    /// show the same screen share it).
    fn texture_of(&mut self, ctx: &egui::Context, document: &Document) -> Option<egui::TextureId> {
        let (Some(screenshot), Some(key)) = (&document.screenshot, texture_key(document)) else {
            self.texture = None;
            return None;
        };
        if self.texture.as_ref().is_none_or(|(k, _)| *k != key) {
            let handle = upload_screenshot(ctx, &screenshot.image, &document.name);
            self.texture = Some((key, handle));
        }
        self.texture.as_ref().map(|(_, t)| t.id())
    }
}

/// Uploads a document's screenshot as a texture, halved until the GPU takes it.
pub fn upload_screenshot(
    ctx: &egui::Context,
    image: &Arc<ColorImage>,
    name: &str,
) -> egui::TextureHandle {
    let image = fit_texture(image, ctx.input(|i| i.max_texture_side));
    let options = egui::TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
    ctx.load_texture(format!("screenshot of {name}"), image, options)
}

/// Paints the document's screenshot (its uploaded `texture`) or else its wireframe, fitted
/// into `area`; returns the mapping from display pixels, to draw over it.
pub fn paint_picture(
    painter: &egui::Painter,
    document: &Document,
    texture: Option<egui::TextureId>,
    area: Rect,
) -> RectTransform {
    let image = image_rect(area, picture_size(document), &ScreenState::default());
    let to_screen = display_transform(document, image);
    match texture {
        Some(texture) => paint_screenshot(painter, texture, image),
        None => paint_wireframe(painter, document, &to_screen),
    }
    to_screen
}

/// The document's version and its screenshot's address: one texture per loaded image.
type TextureKey = (String, usize);

fn texture_key(document: &Document) -> Option<TextureKey> {
    let screenshot = document.screenshot.as_ref()?;
    Some((
        document.version.clone(),
        Arc::as_ptr(&screenshot.image) as usize,
    ))
}

pub fn screen_ui(
    ui: &mut egui::Ui,
    document: &Document,
    inspection: &Inspection,
    selection: &mut Selection,
    state: &mut ScreenState,
    heat_map: bool,
) {
    ui.heading("Screen");
    caption_ui(ui, document, state, heat_map);
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "screen"));
    if zoom_and_pan(ui, &response, state) {
        ui.ctx().request_repaint(); // the caption above already shows the old zoom
    }
    let image = image_rect(response.rect, picture_size(document), state);
    state.last_image_rect = Some(image);
    let to_screen = display_transform(document, image);
    match state.texture_of(ui.ctx(), document) {
        Some(texture) => paint_screenshot(&painter, texture, image),
        None => paint_wireframe(&painter, document, &to_screen),
    }
    hover_and_click(&response, document, inspection, selection, &to_screen);
    if state.touch {
        state.gesture = gesture(&response, &to_screen).or(state.gesture);
    }
    paint_overlay(
        &painter, document, inspection, selection, &to_screen, heat_map,
    );
}

/// What is shown, the zoom, and how to use it.
fn caption_ui(ui: &mut egui::Ui, document: &Document, state: &ScreenState, heat_map: bool) {
    for note in &document.screen_notes {
        ui.colored_label(colors::LOST, note);
    }
    ui.horizontal_wrapped(|ui| {
        ui.small(source_caption(document));
        ui.small(format!("· zoom {:.0}%", state.zoom * 100.0));
        if heat_map {
            heat_legend_ui(ui);
        }
    });
    let moved = state.zoom != 1.0 || state.pan != Vec2::ZERO;
    let hint = if moved {
        "hover a box to see it in the raw and pruned panes · double-click to fit"
    } else {
        "hover a box to see it in the raw and pruned panes"
    };
    ui.label(egui::RichText::new(hint).small().weak());
}

fn source_caption(document: &Document) -> String {
    let display = document.tree.display;
    match &document.screenshot {
        Some(s) => match s.image.size {
            [w, h] if [w, h] == [display.width as usize, display.height as usize] => {
                format!("screenshot {w}x{h}")
            }
            [w, h] => format!(
                "screenshot {w}x{h} of the {}x{} display",
                display.width, display.height
            ),
        },
        None => "wireframe (no screenshot)".to_owned(),
    }
}

fn heat_legend_ui(ui: &mut egui::Ui) {
    ui.small("· token cost: low");
    let (rect, _) = ui.allocate_exact_size(vec2(48.0, 8.0), Sense::hover());
    const STEPS: usize = 12;
    let step = rect.width() / STEPS as f32;
    for k in 0..STEPS {
        let min = rect.min + vec2(k as f32 * step, 0.0);
        let color = heat_color(k as f32 / (STEPS - 1) as f32);
        ui.painter().rect_filled(
            Rect::from_min_size(min, vec2(step, rect.height())),
            0.0,
            color,
        );
    }
    ui.small("high");
}

/// Transparent-ish orange for the cheapest line, strong red for the most expensive.
fn heat_color(heat: f32) -> Color32 {
    let h = heat.clamp(0.0, 1.0);
    let channel = |low: f32, high: f32| (low + (high - low) * h).round() as u8;
    Color32::from_rgba_unmultiplied(
        channel(255.0, 230.0),
        channel(175.0, 40.0),
        channel(40.0, 30.0),
        channel(25.0, 190.0),
    )
}

/// Applies drags, scrolls, pinches and double-clicks; returns whether the view changed.
fn zoom_and_pan(ui: &egui::Ui, response: &egui::Response, state: &mut ScreenState) -> bool {
    let before = (state.zoom, state.pan);
    if response.double_clicked() {
        state.reset_view();
    } else if response.dragged() && !state.touch {
        state.pan += response.drag_delta();
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
    }
    if let Some(pointer) = response.hover_pos() {
        // Ctrl+wheel and pinches arrive as zoom; a plain wheel scrolls the picture.
        let (zoom, scroll) = ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta()));
        if zoom != 1.0 {
            zoom_around(state, response.rect, pointer, zoom);
        }
        state.pan += scroll;
    }
    before != (state.zoom, state.pan)
}

/// A click or a finished drag on the picture, in display pixels.
fn gesture(response: &egui::Response, to_screen: &RectTransform) -> Option<Gesture> {
    let to_display = |p: Pos2| to_screen.inverse().transform_pos(p);
    if response.clicked() {
        return response
            .interact_pointer_pos()
            .map(|p| Gesture::Tap(to_display(p)));
    }
    if !response.drag_stopped() {
        return None;
    }
    let (from, to) = response
        .ctx
        .input(|i| (i.pointer.press_origin(), i.pointer.interact_pos()));
    Some(Gesture::Swipe {
        from: to_display(from?),
        to: to_display(to?),
    })
}

/// Zooms by `factor`, keeping the point under the pointer where it is.
fn zoom_around(state: &mut ScreenState, area: Rect, pointer: Pos2, factor: f32) {
    let zoom = (state.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
    let applied = zoom / state.zoom;
    let center = area.center() + state.pan;
    let new_center = pointer + (center - pointer) * applied;
    state.pan = new_center - area.center();
    state.zoom = zoom;
}

/// The picture's pixel size: the screenshot's, or the display's for a wireframe.
fn picture_size(document: &Document) -> Vec2 {
    match &document.screenshot {
        Some(s) => vec2(s.image.size[0] as f32, s.image.size[1] as f32).max(Vec2::splat(1.0)),
        None => display_size(document),
    }
}

fn display_size(document: &Document) -> Vec2 {
    let display = document.tree.display;
    vec2(display.width.max(1) as f32, display.height.max(1) as f32)
}

/// The picture fitted into `area` (keeping its aspect ratio), then zoomed and panned.
fn image_rect(area: Rect, picture: Vec2, state: &ScreenState) -> Rect {
    let room = (area.size() - Vec2::splat(2.0 * MARGIN)).max(Vec2::splat(1.0));
    let fit = (room.x / picture.x).min(room.y / picture.y);
    Rect::from_center_size(area.center() + state.pan, picture * fit * state.zoom)
}

/// Display pixels to screen points; the screenshot is assumed to show the whole display,
/// so when its size differs, display coordinates stretch to it.
fn display_transform(document: &Document, image: Rect) -> RectTransform {
    let display = Rect::from_min_size(Pos2::ZERO, display_size(document));
    RectTransform::from_to(display, image)
}

/// A node's bounds in egui's terms (display pixels).
pub fn to_egui_rect(rect: tapscope_core::Rect) -> Rect {
    Rect::from_min_max(
        pos2(rect.left as f32, rect.top as f32),
        pos2(rect.right as f32, rect.bottom as f32),
    )
}

/// The on-screen part of a node, in screen points, when it has one.
fn visible_on_screen(document: &Document, to_screen: &RectTransform, id: NodeId) -> Option<Rect> {
    let visible = document.visibility.get(id).ok()?;
    Some(to_screen.transform_rect(to_egui_rect(visible)))
}

fn paint_screenshot(painter: &egui::Painter, texture: egui::TextureId, image: Rect) {
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
fn paint_wireframe(painter: &egui::Painter, document: &Document, to_screen: &RectTransform) {
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
fn labelled_inside(document: &Document) -> Vec<bool> {
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
fn wireframe_label(node: &Node, labelled_inside: bool) -> Option<(&str, Color32)> {
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

/// The node under the pointer becomes hovered; a click selects it (or clears the selection).
fn hover_and_click(
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

fn is_printed(inspection: &Inspection, id: NodeId) -> bool {
    inspection.line_of_node.get(id).copied().flatten().is_some()
}

/// The line a node prints itself (not one it merged into, nor a `more:` line).
fn own_line(inspection: &Inspection, id: NodeId) -> Option<usize> {
    let line = inspection.line_of_node.get(id).copied().flatten()?;
    (inspection.lines.get(line)?.node == Some(id)).then_some(line)
}

/// Heat map, printed boxes, then the hovered and the selected node on top.
fn paint_overlay(
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
    for id in (0..document.tree.nodes.len()).filter(|&id| is_printed(inspection, id)) {
        if let Some(rect) = visible_on_screen(document, to_screen, id) {
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
        .filter_map(|id| own_line(inspection, id).map(|line| (id, inspection.lines[line].tokens)))
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

/// Halves the screenshot until it fits the largest texture the GPU takes
/// (phone screenshots can be taller than 2048 pixels).
fn fit_texture(image: &Arc<ColorImage>, max_side: usize) -> Arc<ColorImage> {
    let mut image = Arc::clone(image);
    while image.size[0].min(image.size[1]) > 0 && image.size[0].max(image.size[1]) > max_side.max(1)
    {
        image = Arc::new(half_size(&image));
    }
    image
}

/// Each pixel the average of a 2×2 block (colours are premultiplied, so plain means are right).
fn half_size(image: &ColorImage) -> ColorImage {
    let [w, h] = image.size;
    let size = [(w / 2).max(1), (h / 2).max(1)];
    let at = |x: usize, y: usize| image.pixels[y.min(h - 1) * w + x.min(w - 1)];
    let pixels = (0..size[1])
        .flat_map(|y| (0..size[0]).map(move |x| (2 * x, 2 * y)))
        .map(|(x, y)| average([at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)]))
        .collect();
    ColorImage::new(size, pixels)
}

fn average(colors: [Color32; 4]) -> Color32 {
    let mean = |channel: fn(&Color32) -> u8| {
        let sum: u16 = colors.iter().map(|c| u16::from(channel(c))).sum();
        ((sum + 2) / 4) as u8
    };
    Color32::from_rgba_premultiplied(
        mean(|c| c.r()),
        mean(|c| c.g()),
        mean(|c| c.b()),
        mean(|c| c.a()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapscope_core::prune::PruneRules;
    use tapscope_core::tokens::Encoding;

    /// A list of two items under a toolbar, a "More" button in the first item, a
    /// floating button over both items, an empty shell over the bottom of the list,
    /// and a hidden node over the second item.
    const DUMP: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="p" bounds="[0,0][1080,2400]">
    <node class="androidx.recyclerview.widget.RecyclerView" resource-id="p:id/list" package="p" scrollable="true" bounds="[0,200][1080,2400]">
      <node class="android.widget.LinearLayout" package="p" clickable="true" bounds="[0,200][1080,600]">
        <node class="android.widget.TextView" package="p" text="First item" bounds="[40,240][700,320]" />
        <node class="android.widget.ImageButton" package="p" content-desc="More" clickable="true" bounds="[960,240][1040,320]" />
      </node>
      <node class="android.widget.LinearLayout" package="p" clickable="true" bounds="[0,600][1080,1000]">
        <node class="android.widget.TextView" package="p" text="Second item" bounds="[40,640][700,720]" />
      </node>
    </node>
    <node class="android.widget.FrameLayout" package="p" bounds="[0,2000][1080,2400]" />
    <node class="android.widget.Button" package="p" text="Ghost" clickable="true" visible-to-user="false" bounds="[0,800][1080,900]" />
    <node class="android.widget.ImageButton" package="p" content-desc="Compose" clickable="true" bounds="[880,520][1040,680]" />
  </node>
</hierarchy>
"#;
    const ROOT: NodeId = 0;
    const LIST: NodeId = 1;
    const FIRST: NodeId = 2;
    const FIRST_TEXT: NodeId = 3;
    const MORE: NodeId = 4;
    const SECOND: NodeId = 5;
    const SHELL: NodeId = 7;
    const FAB: NodeId = 9;

    fn document() -> Document {
        Document::from_bytes("test.xml".into(), None, DUMP.as_bytes(), None)
            .expect("the test dump parses")
    }

    fn inspect(document: &Document) -> Inspection {
        let raw = document.raw_size(Encoding::O200k);
        Inspection::new(
            &document.tree,
            &PruneRules::default(),
            &document.version,
            raw,
        )
    }

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

    #[test]
    fn the_default_view_fits_and_reset_keeps_nothing_else() {
        let mut state = ScreenState::default();
        assert_eq!((state.zoom, state.pan), (1.0, Vec2::ZERO));
        state.zoom = 3.0;
        state.pan = vec2(10.0, -4.0);
        state.reset_view();
        assert_eq!((state.zoom, state.pan), (1.0, Vec2::ZERO));
    }

    #[test]
    fn the_picture_fits_the_pane_keeping_its_aspect_ratio() {
        let area = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 600.0));
        let image = image_rect(area, vec2(1080.0, 2400.0), &ScreenState::default());
        assert!((image.height() - (600.0 - 2.0 * MARGIN)).abs() < 0.01);
        assert!((image.width() / image.height() - 0.45).abs() < 0.001);
        assert_eq!(image.center(), area.center());
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let area = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 600.0));
        let mut state = ScreenState::default();
        let pointer = pos2(300.0, 100.0);
        let before = image_rect(area, vec2(1080.0, 2400.0), &state);
        let at = |image: Rect| (pointer - image.min) / image.size();
        zoom_around(&mut state, area, pointer, 2.5);
        let after = image_rect(area, vec2(1080.0, 2400.0), &state);
        assert_eq!(state.zoom, 2.5);
        assert!((at(before) - at(after)).length() < 1e-4);
    }

    #[test]
    fn display_points_map_into_the_last_drawn_picture() {
        let document = document();
        let mut state = ScreenState::default();
        assert_eq!(state.display_to_screen(&document, pos2(0.0, 0.0)), None);
        state.last_image_rect = Some(Rect::from_min_size(pos2(10.0, 20.0), vec2(108.0, 240.0)));
        let p = state.display_to_screen(&document, pos2(540.0, 1200.0));
        assert_eq!(p, Some(pos2(64.0, 140.0)));
    }

    #[test]
    fn textures_are_halved_until_they_fit() {
        let image = Arc::new(ColorImage::filled([1080, 2400], Color32::RED));
        let fitted = fit_texture(&image, 2048);
        assert_eq!(fitted.size, [540, 1200]);
        assert_eq!(fitted.pixels[0], Color32::RED);
        assert!(Arc::ptr_eq(&fit_texture(&image, 4096), &image));
    }

    #[test]
    fn heat_grows_from_faint_to_strong() {
        assert!(heat_color(0.0).a() < heat_color(0.5).a());
        assert!(heat_color(0.5).a() < heat_color(1.0).a());
    }

    struct Bench {
        document: Document,
        inspection: Inspection,
        selection: Selection,
        screen: ScreenState,
    }

    #[test]
    fn clicking_the_pane_selects_the_node_drawn_there() {
        use egui_kittest::kittest::Queryable;
        let document = document();
        let bench = Bench {
            inspection: inspect(&document),
            document,
            selection: Selection::default(),
            screen: ScreenState::default(),
        };
        let mut harness = egui_kittest::Harness::builder()
            .with_size(vec2(400.0, 800.0))
            .build_ui_state(
                |ui, b: &mut Bench| {
                    b.selection.hovered = None;
                    let (d, i) = (&b.document, &b.inspection);
                    screen_ui(ui, d, i, &mut b.selection, &mut b.screen, true);
                },
                bench,
            );
        harness.run();
        let screen = harness.get_by_label("screen").rect();
        let state = harness.state();
        let at = state
            .screen
            .display_to_screen(&state.document, pos2(1000.0, 280.0));
        let at = at.expect("the pane drew the display");
        assert!(screen.contains(at));
        harness.hover_at(at);
        harness.run();
        assert_eq!(harness.state().selection.hovered, Some(MORE));
        harness.drag_at(at);
        harness.drop_at(at);
        harness.run();
        assert_eq!(harness.state().selection.selected, Some(MORE));
    }
}
