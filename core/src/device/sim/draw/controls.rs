//! The app nodes with parts of their own: a list row or chip, an app or tab tile (an icon
//! over its label), a switch row, a text field with its hint or text and cursor, a picture.

use image::Rgb;

use crate::model::{Flags, Rect};

use super::canvas::Canvas;
use super::icons::{self, Icon};
use super::text::{self, Style};
use super::{
    BORDER, DIVIDER, INK, INK_SOFT, PRIMARY, PRIMARY_SOFT, SURFACE, Shown, TRACK_OFF, ink_on,
    inset, inset_square,
};

/// A stable number for a node, whatever its scroll, its words or the build: its
/// authored place.
fn hash(n: &Shown) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let a = n.authored;
    let place = [a.left, a.top, a.right, a.bottom].map(i32::to_le_bytes);
    for b in place.iter().flatten() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    // Mixed, so that nearby places take far-apart colours.
    h ^= h >> 31;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 29)
}

/// Saturated colours for tiles and pictures.
const HUES: [Rgb<u8>; 8] = [
    Rgb([219, 68, 55]),
    Rgb([66, 133, 244]),
    Rgb([15, 157, 88]),
    Rgb([244, 160, 0]),
    Rgb([171, 71, 188]),
    Rgb([0, 150, 170]),
    Rgb([240, 98, 146]),
    Rgb([92, 107, 192]),
];

pub(super) fn row(canvas: &mut Canvas, n: &Shown, label: &str, paper: Rgb<u8>, display_width: i32) {
    let r = n.bounds;
    if r.width() < display_width * 9 / 10 {
        // A chip: the feed's search box, a filter.
        canvas.round(
            inset(r, 6),
            (r.height() - 12) as f32 / 2.0,
            Rgb([236, 237, 240]),
        );
        let px = (r.height() as f32 * 0.42).min(40.0);
        text::draw_in(canvas, label, r, 40, &Style::new(px, INK_SOFT));
        return;
    }
    let ink = ink_on(paper);
    canvas.fill(
        Rect::new(r.left + 48, r.bottom - 2, r.right, r.bottom),
        DIVIDER,
    );
    let px = (r.height() as f32 * 0.4).min(44.0);
    text::draw_in(canvas, label, r, 48, &Style::new(px, ink).lines(2));
}

/// An icon over a label; a tab (wider than tall) gets a plain icon, pilled when selected.
pub(super) fn tile(canvas: &mut Canvas, n: &Shown, label: &str, paper: Rgb<u8>) {
    let r = n.bounds;
    let (w, h) = (r.width() as f32, r.height() as f32);
    let ink = ink_on(paper);
    let (cx, mid) = ((r.left + r.right) as f32 / 2.0, r.top as f32 + h * 0.4);
    if w > h {
        let half = h * 0.13;
        if n.flags.contains(Flags::SELECTED) {
            let pill = Rect::new(
                (cx - half * 2.2) as i32,
                (mid - half * 1.3) as i32,
                (cx + half * 2.2) as i32,
                (mid + half * 1.3) as i32,
            );
            canvas.round(pill, half * 1.3, PRIMARY_SOFT);
        }
        icons::draw(
            canvas,
            Icon::Other,
            inset_square(cx, mid, half),
            1.0,
            ink,
            if n.flags.contains(Flags::SELECTED) {
                PRIMARY_SOFT
            } else {
                paper
            },
        );
        let label_box = Rect::new(
            r.left,
            (mid + half * 1.5) as i32,
            r.right,
            (mid + half * 1.5 + 56.0) as i32,
        );
        text::draw_in(
            canvas,
            label,
            label_box,
            8,
            &Style::new(34.0, ink).centered(),
        );
        return;
    }
    let side = (w * 0.62).min(h - 100.0).max(24.0);
    let top = r.top as f32 + (h - side - 72.0) / 2.0;
    let icon = Rect::new(
        (cx - side / 2.0) as i32,
        top as i32,
        (cx + side / 2.0) as i32,
        (top + side) as i32,
    );
    let k = hash(n);
    canvas.round(icon, side * 0.28, HUES[(k % HUES.len() as u64) as usize]);
    let (ix, iy, q) = (cx, top + side / 2.0, side * 0.22);
    match (k >> 8) % 4 {
        0 => canvas.disc(ix, iy, q, SURFACE),
        1 => canvas.polygon(
            &[
                (ix - q, iy - q * 1.1),
                (ix + q * 1.2, iy),
                (ix - q, iy + q * 1.1),
            ],
            SURFACE,
        ),
        2 => canvas.round(inset_square(ix, iy, q), q * 0.3, SURFACE),
        _ => canvas.polygon(
            &[
                (ix, iy - q * 1.3),
                (ix + q * 1.3, iy),
                (ix, iy + q * 1.3),
                (ix - q * 1.3, iy),
            ],
            SURFACE,
        ),
    }
    let label_box = Rect::new(
        r.left,
        (top + side + 8.0) as i32,
        r.right,
        (top + side + 72.0) as i32,
    );
    text::draw_in(
        canvas,
        label,
        label_box,
        6,
        &Style::new(36.0, ink).centered(),
    );
}

pub(super) fn switch(canvas: &mut Canvas, n: &Shown, label: &str) {
    let r = n.bounds;
    let on = n.flags.contains(Flags::CHECKED);
    canvas.fill(
        Rect::new(r.left + 48, r.bottom - 2, r.right, r.bottom),
        DIVIDER,
    );
    let cy = (r.top + r.bottom) as f32 / 2.0;
    let (right, w, h) = (r.right as f32 - 48.0, 112.0, 60.0);
    let track = Rect::new(
        (right - w) as i32,
        (cy - h / 2.0) as i32,
        right as i32,
        (cy + h / 2.0) as i32,
    );
    canvas.round(track, h / 2.0, if on { PRIMARY } else { TRACK_OFF });
    let knob_x = if on {
        right - h / 2.0
    } else {
        right - w + h / 2.0
    };
    canvas.disc(knob_x, cy, h / 2.0 - 6.0, SURFACE);
    let text_box = Rect::new(r.left, r.top, track.left - 24, r.bottom);
    let px = (r.height() as f32 * 0.4).min(44.0);
    text::draw_in(canvas, label, text_box, 48, &Style::new(px, INK));
}

pub(super) fn field(canvas: &mut Canvas, n: &Shown, label: &str) {
    let r = n.bounds;
    let focused = n.flags.contains(Flags::FOCUSED);
    let body = inset(r, 10);
    let radius = body.height() as f32 / 2.0;
    canvas.round(body, radius, if focused { PRIMARY } else { BORDER });
    canvas.round(inset(body, 4), radius - 4.0, Rgb([241, 243, 244]));
    let ink = if n.showing_hint { INK_SOFT } else { INK };
    let px = (r.height() as f32 * 0.38).min(44.0);
    let area = Rect::new(r.left, r.top, r.right - 24, r.bottom);
    text::draw_in(canvas, label, area, 44, &Style::new(px, ink));
    if focused {
        let shown = if n.showing_hint {
            0.0
        } else {
            text::width(label, px).min((area.width() - 88) as f32)
        };
        let x = r.left + 44 + shown as i32 + 4;
        let cy = (r.top + r.bottom) / 2;
        let half = (px * 0.55) as i32;
        canvas.fill(Rect::new(x, cy - half, x + 3, cy + half), PRIMARY);
    }
}

/// A picture: a sky, a sun and two hills, coloured by the node.
pub(super) fn picture(canvas: &mut Canvas, n: &Shown) {
    let r = n.bounds;
    let k = hash(n);
    let sky = HUES[(k % HUES.len() as u64) as usize];
    let hill = HUES[((k >> 5) % HUES.len() as u64) as usize];
    let pale = Rgb(sky.0.map(|v| v + ((255 - u16::from(v)) * 3 / 5) as u8));
    canvas.fill(r, pale);
    let (l, t, w, h) = (
        r.left as f32,
        r.top as f32,
        r.width() as f32,
        r.height() as f32,
    );
    canvas.disc(l + w * 0.75, t + h * 0.3, h * 0.12, Rgb([255, 236, 160]));
    let dark = |c: Rgb<u8>| Rgb(c.0.map(|v| v / 2 + 20));
    canvas.polygon(
        &[
            (l, t + h),
            (l + w * 0.35, t + h * 0.42),
            (l + w * 0.7, t + h),
        ],
        dark(hill),
    );
    canvas.polygon(
        &[
            (l + w * 0.4, t + h),
            (l + w * 0.72, t + h * 0.58),
            (l + w, t + h * 0.8),
            (l + w, t + h),
        ],
        hill,
    );
}
