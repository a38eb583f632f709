//! One app node drawn by its kind, told from its class and flags: text, a button, a
//! toggle, an icon, a video frame, a card, a dialog panel here; a switch row, a text field,
//! a picture, an app or tab tile, a list row in `controls`. Text sizes fit the node's
//! bounds; the ink is dark on light, light on dark.

use image::Rgb;

use crate::model::{Flags, Rect};

use super::canvas::Canvas;
use super::controls;
use super::icons::{self, Icon};
use super::text::{self, Style};
use super::{BORDER, INK, ON_DARK, PRIMARY, SURFACE, Shown, ink_on, inset, inset_square, is_mid};

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

/// `n` drawn, clipped to its visible part.
pub(super) fn node(canvas: &mut Canvas, n: &Shown, has_children: bool, display_width: i32) {
    let r = n.bounds;
    let label = if n.text.is_empty() { &n.desc } else { &n.text };
    let paper = paper_under(canvas, n.visible);
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
            let (ink, chip) = readable(canvas, r, paper);
            let px = (r.height() as f32 * 0.72).min(42.0);
            let style = Style::new(px, ink).lines(3);
            if chip == paper {
                text::draw_in(canvas, label, r, 0, &style);
            } else {
                text::draw_in(canvas, label, r, 8, &style.centered());
            }
        }
        Kind::Row => controls::row(canvas, n, label, paper, display_width),
        Kind::Tile => controls::tile(canvas, n, label, paper),
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
        Kind::Switch => controls::switch(canvas, n, label),
        Kind::Field => controls::field(canvas, n, label),
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
        Kind::Picture => controls::picture(canvas, n),
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
