//! The simulated phone's screenshots, drawn as a phone shows its screens: self-drawn paint
//! first, then every app node by its kind (`widgets`) with its text in a real font
//! (`text`) and its icons as shapes (`icons`), then the status bar, the keyboard and the
//! navigation handle (`system`), on a `Canvas` at any scale of the display.

mod canvas;
mod controls;
mod icons;
mod system;
mod text;
mod widgets;

use image::{Rgb, RgbImage};

use crate::model::{Rect, Size};

use super::screen::Paint;
use super::view::{Shown, Win};

use canvas::Canvas;
use text::Style;

/// The app window's background.
const PAGE: Rgb<u8> = Rgb([250, 250, 250]);
/// Cards, panels, keys, switch knobs.
const SURFACE: Rgb<u8> = Rgb([255, 255, 255]);
const BORDER: Rgb<u8> = Rgb([218, 220, 224]);
const DIVIDER: Rgb<u8> = Rgb([232, 233, 236]);
/// Text on light surfaces: about 15:1 on `PAGE`.
const INK: Rgb<u8> = Rgb([32, 33, 36]);
/// Hints and secondary text: about 6:1 on a field's grey.
const INK_SOFT: Rgb<u8> = Rgb([84, 88, 94]);
/// Text on dark surfaces.
const ON_DARK: Rgb<u8> = Rgb([250, 250, 252]);
/// Buttons, switches that are on, focus: white text on it is about 7:1.
const PRIMARY: Rgb<u8> = Rgb([11, 87, 208]);
const PRIMARY_SOFT: Rgb<u8> = Rgb([211, 227, 253]);
const TRACK_OFF: Rgb<u8> = Rgb([189, 193, 198]);

/// What one screenshot shows.
#[derive(Debug)]
pub(super) struct Scene<'a> {
    pub nodes: &'a [Shown],
    /// The screen's self-drawn paint, slid by `shift_x` with the app window.
    pub paint: &'a [Paint],
    pub shift_x: i32,
    /// The screen's ticker count: `{}` in painted text.
    pub tick: Option<u64>,
}

/// `scene` drawn at `scale` of a `size` display (1 for full size: a smaller picture
/// costs its callers less to encode), with each word drawn and its ink box (image
/// pixels) when `keep_words`.
pub(super) fn pixels(
    scene: &Scene,
    size: Size,
    scale: f64,
    keep_words: bool,
) -> Result<(RgbImage, Vec<(String, Rect)>), String> {
    let scale = scale.clamp(0.01, 1.0);
    let side = |v: i32| {
        u32::try_from((f64::from(v) * scale).round() as i64)
            .map(|n| n.max(1))
            .map_err(|e| e.to_string())
    };
    let mut canvas = Canvas::new(side(size.width)?, side(size.height)?, scale as f32, PAGE);
    if keep_words {
        canvas.keep_words();
    }
    for p in scene.paint {
        paint(&mut canvas, p, scene.shift_x, scene.tick);
    }
    for (k, n) in scene.nodes.iter().enumerate() {
        let has_children = scene
            .nodes
            .get(k + 1)
            .is_some_and(|next| next.depth > n.depth);
        canvas.clip_to(Some(n.visible));
        match n.window {
            Win::App => widgets::node(&mut canvas, n, has_children, size.width),
            Win::StatusBar => system::status(&mut canvas, n),
            Win::Keyboard => system::key(&mut canvas, n),
        }
    }
    canvas.clip_to(None);
    system::navigation_handle(&mut canvas, size.width, size.height);
    Ok(canvas.finish())
}

/// One piece of self-drawn paint: a filled (perhaps rounded) rectangle, or a line of
/// text centred in it.
fn paint(canvas: &mut Canvas, p: &Paint, shift_x: i32, tick: Option<u64>) {
    let [l, t, r, b] = p.rect;
    let rect = Rect::new(l + shift_x, t, r + shift_x, b);
    canvas.clip_to(Some(rect));
    match &p.text {
        None => canvas.round(rect, p.radius, Rgb(p.color)),
        Some(words) => {
            let words = words.replace("{}", &tick.unwrap_or(0).to_string());
            let size = p.size as f32;
            let style = Style::new(size, Rgb(p.color)).centered().bold();
            let style = Style {
                min_px: size / 2.0,
                ..style
            };
            text::draw_in(canvas, &words, rect, 0, &style);
        }
    }
}

/// `r` shrunk by `by` on every side.
pub(super) fn inset(r: Rect, by: i32) -> Rect {
    Rect::new(r.left + by, r.top + by, r.right - by, r.bottom - by)
}

/// The square of half-side `half` around (`cx`, `cy`).
pub(super) fn inset_square(cx: f32, cy: f32, half: f32) -> Rect {
    Rect::new(
        (cx - half) as i32,
        (cy - half) as i32,
        (cx + half) as i32,
        (cy + half) as i32,
    )
}

/// Relative luminance, 0 (black) to 1 (white), of an sRGB colour.
fn luminance(c: Rgb<u8>) -> f32 {
    let lin = |v: u8| {
        let v = f32::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0[0]) + 0.7152 * lin(c.0[1]) + 0.0722 * lin(c.0[2])
}

/// The WCAG contrast ratio of two colours, 1 to 21.
fn contrast(a: Rgb<u8>, b: Rgb<u8>) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Dark ink on light paper, light ink on dark.
fn ink_on(paper: Rgb<u8>) -> Rgb<u8> {
    if contrast(INK, paper) >= contrast(ON_DARK, paper) {
        INK
    } else {
        ON_DARK
    }
}

/// Paper that is a picture's rather than the app's: coloured, or greys on which neither
/// ink reaches 7:1.
fn is_mid(paper: Rgb<u8>) -> bool {
    let [r, g, b] = paper.0;
    let colourful = r.max(g).max(b) - r.min(g).min(b) > 48;
    colourful || contrast(ink_on(paper), paper) < 7.0
}

/// A text placed by its caller: its line's top-left corner (image pixels), its size and ink.
#[cfg(feature = "measure")]
#[derive(Clone, Debug)]
pub(super) struct Placed {
    pub text: String,
    pub at: (i32, i32),
    pub px: f32,
    pub ink: Rgb<u8>,
}

/// A `width`×`height` image of `paper`, with `bands` filled and `texts` drawn where they
/// are placed, at full scale; every word drawn and its ink box.
#[cfg(feature = "measure")]
pub(super) fn placed(
    width: u32,
    height: u32,
    paper: Rgb<u8>,
    bands: &[(Rect, Rgb<u8>)],
    texts: &[Placed],
) -> (RgbImage, Vec<(String, Rect)>) {
    let mut canvas = Canvas::new(width, height, 1.0, paper);
    canvas.keep_words();
    for &(band, colour) in bands {
        canvas.fill(band, colour);
    }
    for t in texts {
        let w = text::width(&t.text, t.px);
        let fitted = text::Fitted {
            px: t.px,
            lines: vec![(t.text.clone(), w)],
        };
        let inner = Rect::new(
            t.at.0,
            t.at.1,
            t.at.0 + w.ceil() as i32,
            t.at.1 + text::line_height(t.px).ceil() as i32,
        );
        text::draw_fitted(
            &mut canvas,
            &fitted,
            inner,
            t.at.1 as f32,
            &Style::new(t.px, t.ink),
        );
    }
    canvas.finish()
}

/// How wide `text` is at `px`, and how tall its line.
#[cfg(feature = "measure")]
pub(super) fn measure(text: &str, px: f32) -> (f32, f32) {
    (text::width(text, px), text::line_height(px))
}

/// The ink colour at `ratio`:1 of contrast against `paper`, darker or lighter as `paper`
/// is light or dark (a grey, as near the ratio as 8 bits allow).
#[cfg(feature = "measure")]
pub(super) fn ink_at_contrast(paper: Rgb<u8>, ratio: f32) -> Rgb<u8> {
    let dark_ink = luminance(paper) > 0.18;
    let grey = |v: u8| Rgb([v, v, v]);
    // From the far end towards the paper: the first grey no further than `ratio`.
    let levels: Vec<u8> = if dark_ink {
        (0..=255).collect()
    } else {
        (0..=255).rev().collect()
    };
    levels
        .into_iter()
        .map(grey)
        .find(|&c| contrast(c, paper) <= ratio)
        .unwrap_or(paper)
}

#[cfg(test)]
mod tests;
