//! What the system draws around the app: the status bar (clock, Wi-Fi, battery and its
//! percentage, light on dark), the keyboard's keys with their letters, and the gesture
//! navigation bar's handle at the bottom.

use image::Rgb;

use crate::model::Rect;

use super::Shown;
use super::canvas::Canvas;
use super::icons::{self, Icon};
use super::text::{self, Style};
use super::{INK, ON_DARK, PRIMARY, SURFACE, ink_on};

/// The status bar's background.
pub(super) const BAR: Rgb<u8> = Rgb([30, 30, 36]);
const KEYBOARD: Rgb<u8> = Rgb([232, 234, 237]);
const KEY_DARK: Rgb<u8> = Rgb([200, 204, 212]);

/// One node of the status bar: its background, the clock, an icon.
pub(super) fn status(canvas: &mut Canvas, n: &Shown) {
    let r = n.bounds;
    if n.depth == 0 {
        canvas.fill(r, BAR);
    } else if !n.text.is_empty() {
        text::draw_in(canvas, &n.text, r, 0, &Style::new(44.0, ON_DARK));
    } else {
        let icon = Icon::named(&n.desc);
        if let Icon::Battery(level) = icon {
            // The percentage beside the battery, as phones show it.
            let split = r.right - 40;
            let figure = Rect::new(r.left, r.top, split - 4, r.bottom);
            let style = Style::new(34.0, ON_DARK);
            let style = Style {
                align: text::Align::Right,
                ..style
            };
            text::draw_in(canvas, &format!("{level}%"), figure, 0, &style);
            icons::draw(
                canvas,
                icon,
                Rect::new(split, r.top, r.right, r.bottom),
                0.9,
                ON_DARK,
                BAR,
            );
        } else {
            icons::draw(canvas, icon, r, 0.75, ON_DARK, BAR);
        }
    }
}

/// One node of the keyboard: its panel, a letter key, delete, space or search.
pub(super) fn key(canvas: &mut Canvas, n: &Shown) {
    let r = n.bounds;
    if n.depth == 0 {
        canvas.fill(r, KEYBOARD);
        return;
    }
    let cap = Rect::new(r.left + 8, r.top + 14, r.right - 8, r.bottom - 14);
    match n.desc.as_str() {
        "Delete" => {
            canvas.round(cap, 18.0, KEY_DARK);
            icons::draw(canvas, Icon::Delete, cap, 0.45, INK, KEY_DARK);
        }
        "Search" => {
            canvas.round(cap, cap.height() as f32 / 2.0, PRIMARY);
            icons::draw(canvas, Icon::Search, cap, 0.45, ON_DARK, PRIMARY);
        }
        "Space" => canvas.round(cap, 18.0, SURFACE),
        letter => {
            canvas.round(cap, 18.0, SURFACE);
            text::draw_in(canvas, letter, cap, 0, &Style::new(60.0, INK).centered());
        }
    }
}

/// The gesture navigation handle, centred at the bottom of a `width`×`height` display:
/// dark on light screens, light on dark ones.
pub(super) fn navigation_handle(canvas: &mut Canvas, width: i32, height: i32) {
    let handle = Rect::new(width / 2 - 140, height - 34, width / 2 + 140, height - 22);
    let under = canvas.colour_at(width / 2, height - 60).unwrap_or(SURFACE);
    let ink = if ink_on(under) == INK {
        Rgb([60, 60, 66])
    } else {
        Rgb([220, 220, 226])
    };
    canvas.round(handle, 6.0, ink);
}
