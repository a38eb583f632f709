//! Icons as a phone draws them, picked by what a node's description says: an arrow for
//! "Navigate up", two bars for "Pause", a magnifier for "Search", an avatar, the app's
//! logo, the status bar's Wi-Fi and battery, the keyboard's delete; a ring otherwise.

use image::Rgb;

use crate::model::Rect;

use super::canvas::Canvas;

/// An icon's drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Icon {
    Back,
    Pause,
    Play,
    Search,
    Account,
    Logo,
    WiFi,
    Battery(u8),
    Delete,
    Other,
}

impl Icon {
    /// The icon a description names.
    pub(super) fn named(desc: &str) -> Icon {
        let d = desc.to_lowercase();
        let has = |w: &str| d.contains(w);
        if has("navigate up") || has("back") {
            Icon::Back
        } else if has("pause") {
            Icon::Pause
        } else if has("play") {
            Icon::Play
        } else if has("search") {
            Icon::Search
        } else if has("account") || has("profile") {
            Icon::Account
        } else if has("home") || has("logo") {
            Icon::Logo
        } else if has("wi-fi") || has("wifi") {
            Icon::WiFi
        } else if has("battery") {
            let digits: String = d.chars().filter(char::is_ascii_digit).collect();
            Icon::Battery(digits.parse::<u8>().unwrap_or(100).min(100))
        } else if has("delete") {
            Icon::Delete
        } else {
            Icon::Other
        }
    }
}

/// `icon` drawn in `ink` in the largest square centred in `r`, `scale` of its side.
pub(super) fn draw(
    canvas: &mut Canvas,
    icon: Icon,
    r: Rect,
    scale: f32,
    ink: Rgb<u8>,
    paper: Rgb<u8>,
) {
    let side = r.width().min(r.height()) as f32 * scale;
    let (cx, cy) = (
        (r.left + r.right) as f32 / 2.0,
        (r.top + r.bottom) as f32 / 2.0,
    );
    let s = side / 2.0;
    // Points on the icon's own grid, -1..1 either way.
    let p = |x: f32, y: f32| (cx + x * s, cy + y * s);
    let stroke = (side * 0.11).max(2.0);
    match icon {
        Icon::Back => {
            canvas.line(p(-0.7, 0.0), p(0.75, 0.0), stroke, ink);
            canvas.line(p(-0.75, 0.04), p(-0.05, -0.66), stroke, ink);
            canvas.line(p(-0.75, -0.04), p(-0.05, 0.66), stroke, ink);
        }
        Icon::Pause => {
            canvas.polygon(
                &[
                    p(-0.5, -0.65),
                    p(-0.15, -0.65),
                    p(-0.15, 0.65),
                    p(-0.5, 0.65),
                ],
                ink,
            );
            canvas.polygon(
                &[p(0.15, -0.65), p(0.5, -0.65), p(0.5, 0.65), p(0.15, 0.65)],
                ink,
            );
        }
        Icon::Play => canvas.polygon(&[p(-0.45, -0.7), p(0.7, 0.0), p(-0.45, 0.7)], ink),
        Icon::Search => {
            let (x, y) = p(-0.15, -0.15);
            canvas.disc(x, y, s * 0.55, ink);
            canvas.disc(x, y, s * 0.55 - stroke, paper);
            canvas.line(p(0.22, 0.22), p(0.75, 0.75), stroke * 1.2, ink);
        }
        Icon::Account => {
            canvas.disc(cx, cy, s, Rgb([124, 77, 196]));
            let (hx, hy) = p(0.0, -0.22);
            canvas.disc(hx, hy, s * 0.3, paper);
            canvas.polygon(
                &[
                    p(-0.55, 0.62),
                    p(-0.35, 0.2),
                    p(0.35, 0.2),
                    p(0.55, 0.62),
                    p(0.0, 0.85),
                ],
                paper,
            );
        }
        Icon::Logo => {
            let box_ = Rect::new(
                (cx - s) as i32,
                (cy - s * 0.72) as i32,
                (cx + s) as i32,
                (cy + s * 0.72) as i32,
            );
            canvas.round(box_, s * 0.35, Rgb([230, 33, 23]));
            canvas.polygon(
                &[p(-0.3, -0.38), p(0.42, 0.0), p(-0.3, 0.38)],
                Rgb([255, 255, 255]),
            );
        }
        Icon::WiFi => canvas.polygon(
            &[
                p(0.0, 0.75),
                p(-0.9, -0.25),
                p(-0.5, -0.55),
                p(0.0, -0.68),
                p(0.5, -0.55),
                p(0.9, -0.25),
            ],
            ink,
        ),
        Icon::Battery(level) => {
            let (w, h) = (s * 0.62, s * 0.95);
            let body = Rect::new(
                (cx - w / 2.0) as i32,
                (cy - h / 2.0 + s * 0.1) as i32,
                (cx + w / 2.0) as i32,
                (cy + h / 2.0 + s * 0.1) as i32,
            );
            let cap = Rect::new(
                (cx - w / 5.0) as i32,
                body.top - (s * 0.12) as i32,
                (cx + w / 5.0) as i32,
                body.top,
            );
            canvas.fill(cap, ink);
            canvas.outline(body, (stroke * 0.6) as i32, ink);
            let inner = body.height() - 2 * (stroke * 0.6) as i32;
            let full = inner * i32::from(level) / 100;
            canvas.fill(
                Rect::new(
                    body.left,
                    body.bottom - full - (stroke * 0.6) as i32,
                    body.right,
                    body.bottom,
                ),
                ink,
            );
        }
        Icon::Delete => {
            canvas.polygon(
                &[
                    p(-0.85, 0.0),
                    p(-0.35, -0.55),
                    p(0.8, -0.55),
                    p(0.8, 0.55),
                    p(-0.35, 0.55),
                ],
                ink,
            );
            canvas.line(p(-0.05, -0.25), p(0.45, 0.25), stroke * 0.8, paper);
            canvas.line(p(-0.05, 0.25), p(0.45, -0.25), stroke * 0.8, paper);
        }
        Icon::Other => {
            canvas.disc(cx, cy, s * 0.7, ink);
            canvas.disc(cx, cy, s * 0.7 - stroke, paper);
            canvas.disc(cx, cy, s * 0.18, ink);
        }
    }
}
