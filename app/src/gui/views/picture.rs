//! `picture_ui`: a recorded screen drawn small (screenshot, else wireframe) with marks over
//! it: an element's bounds, a tap as a ring, a swipe as an arrow.

use egui::emath::RectTransform;
use egui::{Color32, Pos2, Sense, Stroke, StrokeKind, Vec2, pos2};

use super::screen::{paint_picture, to_egui_rect};
use crate::gui::recording::Screen;

/// Something drawn over a screen, in display pixels.
#[derive(Clone, Debug)]
pub enum Mark {
    /// An element's bounds, outlined.
    Bounds(tapscope_core::Rect, Color32),
    /// Where a gesture touched: one point is a tap (a ring), more are a swipe (an arrow).
    Gesture(Vec<[i32; 2]>, Color32),
}

/// Draws `screen` into a box of `size` named `name` for assistive technology and tests.
pub fn picture_ui(
    ui: &mut egui::Ui,
    screen: &Screen,
    size: Vec2,
    name: &str,
    marks: &[Mark],
) -> egui::Response {
    let (response, painter) = ui.allocate_painter(size, Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, name));
    let painter = painter.with_clip_rect(response.rect);
    let texture = screen.texture(ui.ctx());
    let to_screen = paint_picture(&painter, &screen.document, texture, response.rect);
    for mark in marks {
        paint_mark(&painter, &to_screen, mark);
    }
    response
}

fn paint_mark(painter: &egui::Painter, to_screen: &RectTransform, mark: &Mark) {
    let at = |[x, y]: [i32; 2]| to_screen.transform_pos(pos2(x as f32, y as f32));
    match mark {
        Mark::Bounds(bounds, color) => {
            let rect = to_screen.transform_rect(to_egui_rect(*bounds));
            // A list or a screen-wide shell tinted whole would hide the picture.
            if rect.area() < to_screen.to().area() / 3.0 {
                painter.rect_filled(rect, 0.0, color.gamma_multiply(0.2));
            }
            painter.rect_stroke(rect, 0.0, Stroke::new(2.0, *color), StrokeKind::Outside);
        }
        Mark::Gesture(path, color) => match path.as_slice() {
            [] => {}
            [point] => paint_ring(painter, at(*point), *color),
            points => {
                let points: Vec<Pos2> = points.iter().map(|p| at(*p)).collect();
                paint_arrow(painter, &points, *color);
            }
        },
    }
}

/// A ring with a dark halo, readable on light and dark screens alike.
fn paint_ring(painter: &egui::Painter, center: Pos2, color: Color32) {
    painter.circle_stroke(
        center,
        7.0,
        Stroke::new(4.0, Color32::from_black_alpha(160)),
    );
    painter.circle_stroke(center, 7.0, Stroke::new(2.0, color));
    painter.circle_filled(center, 1.5, color);
}

/// A polyline from the first point with an arrow head at the last.
fn paint_arrow(painter: &egui::Painter, points: &[Pos2], color: Color32) {
    let stroke = Stroke::new(2.5, color);
    painter.add(egui::Shape::line(
        points.to_vec(),
        Stroke::new(5.0, Color32::from_black_alpha(140)),
    ));
    painter.add(egui::Shape::line(points.to_vec(), stroke));
    paint_ring(painter, points[0], color);
    let (Some(&tip), Some(&from)) = (points.last(), points.iter().rev().nth(1)) else {
        return;
    };
    let direction = (tip - from).normalized();
    if direction == Vec2::ZERO || !direction.is_finite() {
        return;
    }
    let back = -direction * 10.0;
    let side = direction.rot90() * 6.0;
    painter.add(egui::Shape::convex_polygon(
        vec![tip, tip + back + side, tip + back - side],
        color,
        Stroke::NONE,
    ));
}
