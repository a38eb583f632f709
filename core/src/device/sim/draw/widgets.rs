//! One app node drawn by its kind: text, a button, a toggle, a switch row, a text field
//! (its hint in grey), an icon, a picture, a video frame, an app or tab tile, a card, a
//! dialog panel. Text sizes fit the node's bounds; the ink is dark on light, light on dark.

use image::Rgb;

use crate::model::{Flags, Rect};

use super::Shown;
use super::canvas::Canvas;
use super::icons::{self, Icon};
use super::text::{self, Style};
use super::{
    BORDER, DIVIDER, INK, INK_SOFT, ON_DARK, PRIMARY, PRIMARY_SOFT, SURFACE, TRACK_OFF, ink_on,
    is_mid,
};

/// What a node looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Field,
    Switch,
    Toggle,
    Button,
    Icon(Icon),
    Media,
    Picture,
    /// An icon over a label: an app on the launcher, a tab of a bottom bar.
    Tile,
    /// A clickable line of text: a list row, or a chip when narrower than the screen.
    Row,
    Text,
    Card,
    Panel,
    Plain,
}

fn kind(n: &Shown, has_children: bool, display_width: i32) -> Kind {
    let class = n.class.rsplit('.').next().unwrap_or_default();
    let (w, h) = (n.bounds.width(), n.bounds.height());
    let f = |flag| n.flags.contains(flag);
    if f(Flags::EDITABLE) || class == "EditText" {
        Kind::Field
    } else if matches!(
        class,
        "Switch" | "CheckBox" | "RadioButton" | "SwitchCompat"
    ) {
        Kind::Switch
    } else if f(Flags::CHECKABLE) || class == "ToggleButton" {
        Kind::Toggle
    } else if class.ends_with("Button") && class != "ImageButton" {
        Kind::Button
    } else if matches!(class, "ImageButton" | "ImageView") {
        match (n.desc.is_empty(), w <= 200 && h <= 200) {
            (true, _) => Kind::Picture,
            (false, true) => Kind::Icon(Icon::named(&n.desc)),
            (false, false) => Kind::Media,
        }
    } else if n.text.is_empty() && !n.desc.is_empty() && w > 200 && h > 200 {
        Kind::Media
    } else if class == "TextView" || !n.text.is_empty() {
        match (f(Flags::CLICKABLE), h >= 200) {
            (true, true) => Kind::Tile,
            (true, false) => Kind::Row,
            (false, _) => Kind::Text,
        }
    } else if has_children && f(Flags::CLICKABLE) {
        Kind::Card
    } else if has_children
        && n.depth > 0
        && n.bounds.left >= 40
        && n.bounds.right <= display_width - 40
    {
        Kind::Panel
    } else {
        Kind::Plain
    }
}

/// A stable number for a node, whatever its scroll: its item and its words.
fn hash(n: &Shown) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let item = n.item.unwrap_or(usize::MAX) as u64;
    for b in item
        .to_le_bytes()
        .iter()
        .chain(n.text.as_bytes())
        .chain(n.desc.as_bytes())
    {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
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

/// `n` drawn, clipped to its visible part.
pub(super) fn node(canvas: &mut Canvas, n: &Shown, has_children: bool, display_width: i32) {
    let r = n.bounds;
    let label = if n.text.is_empty() { &n.desc } else { &n.text };
    let paper = paper_under(canvas, r);
    match kind(n, has_children, display_width) {
        Kind::Plain => {}
        Kind::Card => {
            canvas.round(r, 24.0, BORDER);
            canvas.round(inset(r, 2), 22.0, SURFACE);
        }
        Kind::Panel => {
            canvas.round(r, 32.0, Rgb([196, 199, 206]));
            canvas.round(inset(r, 3), 29.0, SURFACE);
        }
        Kind::Text => {
            let (ink, _) = readable(canvas, r, paper);
            let px = (r.height() as f32 * 0.72).min(42.0);
            text::draw_in(canvas, label, r, 0, &Style::new(px, ink).lines(3));
        }
        Kind::Row => row(canvas, n, label, paper, display_width),
        Kind::Tile => tile(canvas, n, label, paper),
        Kind::Button => {
            canvas.round(inset(r, 4), r.height() as f32 / 2.0, PRIMARY);
            let px = (r.height() as f32 * 0.42).min(44.0);
            text::draw_in(
                canvas,
                label,
                r,
                24,
                &Style::new(px, ON_DARK).centered().bold(),
            );
        }
        Kind::Toggle => {
            let on = n.flags.contains(Flags::CHECKED);
            let body = inset(r, 4);
            canvas.round(
                body,
                body.height() as f32 / 2.0,
                if on { PRIMARY } else { BORDER },
            );
            if !on {
                canvas.round(inset(body, 3), body.height() as f32 / 2.0 - 3.0, SURFACE);
            }
            let ink = if on { ON_DARK } else { INK };
            let px = (r.height() as f32 * 0.42).min(42.0);
            text::draw_in(canvas, label, r, 24, &Style::new(px, ink).centered().bold());
        }
        Kind::Switch => switch(canvas, n, label),
        Kind::Field => field(canvas, n, label),
        Kind::Icon(icon) => {
            let (ink, paper) = readable(canvas, r, paper);
            icons::draw(canvas, icon, r, 0.5, ink, paper);
        }
        Kind::Media => {
            canvas.fill(r, Rgb([18, 18, 22]));
            let side = r.width().min(r.height()) as f32 * 0.28;
            let (cx, cy) = (
                (r.left + r.right) as f32 / 2.0,
                (r.top + r.bottom) as f32 / 2.0,
            );
            canvas.disc(cx, cy, side / 2.0, Rgb([70, 70, 78]));
            icons::draw(
                canvas,
                Icon::Play,
                inset_square(cx, cy, side * 0.5),
                1.0,
                ON_DARK,
                Rgb([70, 70, 78]),
            );
            let caption = Rect::new(r.left + 36, r.bottom - 84, r.right - 36, r.bottom - 24);
            text::draw_in(canvas, label, caption, 0, &Style::new(36.0, ON_DARK));
        }
        Kind::Picture => picture(canvas, n),
    }
}

/// The colour already drawn under `r`'s top-left corner.
fn paper_under(canvas: &Canvas, r: Rect) -> Rgb<u8> {
    canvas
        .colour_at(r.left + 2, r.top + 2)
        .unwrap_or(super::PAGE)
}

/// Ink that reads on what is under `r`; on a picture's middle tones, a dark chip first.
fn readable(canvas: &mut Canvas, r: Rect, paper: Rgb<u8>) -> (Rgb<u8>, Rgb<u8>) {
    if is_mid(paper) {
        let chip = Rgb([24, 24, 28]);
        canvas.round(r, 8.0, chip);
        (ON_DARK, chip)
    } else {
        (ink_on(paper), paper)
    }
}

fn inset(r: Rect, by: i32) -> Rect {
    Rect::new(r.left + by, r.top + by, r.right - by, r.bottom - by)
}

fn inset_square(cx: f32, cy: f32, half: f32) -> Rect {
    Rect::new(
        (cx - half) as i32,
        (cy - half) as i32,
        (cx + half) as i32,
        (cy + half) as i32,
    )
}

fn row(canvas: &mut Canvas, n: &Shown, label: &str, paper: Rgb<u8>, display_width: i32) {
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
fn tile(canvas: &mut Canvas, n: &Shown, label: &str, paper: Rgb<u8>) {
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

fn switch(canvas: &mut Canvas, n: &Shown, label: &str) {
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

fn field(canvas: &mut Canvas, n: &Shown, label: &str) {
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
fn picture(canvas: &mut Canvas, n: &Shown) {
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
