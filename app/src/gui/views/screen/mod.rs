//! The screen pane: the screenshot (or a wireframe drawn from the tree) with node bounds
//! over it; zoom and pan, and in live mode the person's clicks and drags as gestures.

#[cfg(test)]
mod fixture;
mod hit;
mod paint;

use std::sync::Arc;

use egui::emath::RectTransform;
use egui::{Pos2, Rect, Sense, Vec2, pos2, vec2};
use tapscope_core::inspect::Inspection;

use self::hit::hover_and_click;
pub use self::hit::node_at;
use self::paint::{heat_color, paint_overlay, paint_screenshot, paint_wireframe};
use super::colors;
use crate::gui::context::ViewContext;
use crate::gui::document::Document;
use crate::gui::gesture::Gesture;
use crate::gui::selection::Selection;
use crate::gui::texture::upload_screenshot;

const MIN_ZOOM: f32 = 0.25;
const MAX_ZOOM: f32 = 16.0;
/// Room between the picture and the pane's edges at zoom 1 ("fit").
const MARGIN: f32 = 4.0;

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
    fn texture_of(
        &mut self,
        ctx: &egui::Context,
        document: &Document,
        name: &str,
    ) -> Option<egui::TextureId> {
        let (Some(screenshot), Some(key)) = (&document.screenshot, texture_key(document)) else {
            self.texture = None;
            return None;
        };
        if self.texture.as_ref().is_none_or(|(k, _)| *k != key) {
            let handle = upload_screenshot(ctx, &screenshot.image, name);
            self.texture = Some((key, handle));
        }
        self.texture.as_ref().map(|(_, t)| t.id())
    }
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

pub fn screen_ui(ui: &mut egui::Ui, ctx: &mut ViewContext<'_>, state: &mut ScreenState) {
    let shown = Shown {
        document: ctx.document,
        name: ctx.name,
        inspection: &ctx.analysis.current,
    };
    pane_ui(ui, &shown, ctx.selection, state, ctx.settings.heat_map);
}

/// A screen as the pane draws it.
struct Shown<'a> {
    document: &'a Document,
    name: &'a str,
    inspection: &'a Inspection,
}

fn pane_ui(
    ui: &mut egui::Ui,
    shown: &Shown<'_>,
    selection: &mut Selection,
    state: &mut ScreenState,
    heat_map: bool,
) {
    let (document, inspection) = (shown.document, shown.inspection);
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
    match state.texture_of(ui.ctx(), document, shown.name) {
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

#[cfg(test)]
mod tests {
    use super::fixture::*;
    use super::*;

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
                    let shown = Shown {
                        document: &b.document,
                        name: &b.document.name,
                        inspection: &b.inspection,
                    };
                    pane_ui(ui, &shown, &mut b.selection, &mut b.screen, true);
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
