//! Text in the font the workbench ships (Ubuntu Light, from `epaint_default_fonts`):
//! fitted into a box (the largest size up to the wanted one at which it fits, wrapped at
//! spaces, the last line cut with "…" when even the smallest does not fit), drawn
//! anti-aliased, each drawn word's ink box kept when the canvas is asked to.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};
use image::Rgb;

use crate::model::Rect;

use super::canvas::Canvas;

/// Line height, in font sizes.
const LEADING: f32 = 1.18;
/// A pixel counts as ink when a glyph covers at least this much of it.
const INK: f32 = 1.0 / 64.0;

/// The font every screen is drawn in.
fn font() -> Option<&'static FontRef<'static>> {
    static FONT: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).ok())
        .as_ref()
}

/// How a text sits in its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Center,
    Right,
}

/// How to draw a text: the size wanted and the least accepted (display pixels: the
/// font's ascent to descent), its colour, alignment, lines and weight.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    pub px: f32,
    pub min_px: f32,
    pub colour: Rgb<u8>,
    pub align: Align,
    pub max_lines: usize,
    /// Drawn twice, a little apart: the light font made heavier for buttons and titles.
    pub bold: bool,
}

impl Style {
    pub(super) fn new(px: f32, colour: Rgb<u8>) -> Self {
        Self {
            px,
            min_px: (px * 0.6).min(22.0),
            colour,
            align: Align::Left,
            max_lines: 1,
            bold: false,
        }
    }

    pub(super) fn centered(self) -> Self {
        Self {
            align: Align::Center,
            ..self
        }
    }

    pub(super) fn lines(self, max_lines: usize) -> Self {
        Self { max_lines, ..self }
    }

    pub(super) fn bold(self) -> Self {
        Self { bold: true, ..self }
    }
}

/// A text fitted into a box: its size and lines (with their widths), display pixels.
#[derive(Clone, Debug)]
pub(super) struct Fitted {
    pub px: f32,
    pub lines: Vec<(String, f32)>,
}

impl Fitted {
    pub(super) fn height(&self) -> f32 {
        line_height(self.px) * self.lines.len() as f32
    }
}

/// The height of one line of text at `px`.
pub(super) fn line_height(px: f32) -> f32 {
    px * LEADING
}

/// The width of `text` at `px`, kerned.
pub(super) fn width(text: &str, px: f32) -> f32 {
    let Some(font) = font() else {
        return 0.0;
    };
    let scaled = font.as_scaled(PxScale::from(px));
    let mut last: Option<GlyphId> = None;
    let mut w = 0.0;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(prev) = last {
            w += scaled.kern(prev, id);
        }
        w += scaled.h_advance(id);
        last = Some(id);
    }
    w
}

/// `text` at the largest size from `style.px` down to `style.min_px` at which it fits
/// `w`×`h` in at most `style.max_lines` lines; at the smallest, cut with "…".
pub(super) fn fit(text: &str, w: f32, h: f32, style: &Style) -> Fitted {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let min = style.min_px.min(style.px);
    let mut px = style.px.min(h / LEADING).max(min);
    loop {
        let room = ((h / (px * LEADING)).floor() as usize).clamp(1, style.max_lines.max(1));
        let lines = wrap(&text, px, w);
        if lines.len() <= room || px <= min {
            return cut(lines, room, px, w);
        }
        px = (px * 0.92).max(min);
    }
}

/// Greedy wrapping at spaces; a word wider than a line is broken where it must be.
fn wrap(text: &str, px: f32, w: f32) -> Vec<(String, f32)> {
    let space = width(" ", px);
    let mut lines: Vec<(String, f32)> = Vec::new();
    let mut line = String::new();
    let mut line_w = 0.0;
    for word in text.split(' ').filter(|s| !s.is_empty()) {
        let word_w = width(word, px);
        if !line.is_empty() && line_w + space + word_w <= w {
            line.push(' ');
            line.push_str(word);
            line_w += space + word_w;
            continue;
        }
        if !line.is_empty() {
            lines.push((std::mem::take(&mut line), line_w));
        }
        if word_w <= w {
            line = word.to_owned();
            line_w = word_w;
        } else {
            for c in word.chars() {
                let c_w = width(&c.to_string(), px);
                if !line.is_empty() && line_w + c_w > w {
                    lines.push((std::mem::take(&mut line), line_w));
                    line_w = 0.0;
                }
                line.push(c);
                line_w += c_w;
            }
        }
    }
    if !line.is_empty() {
        lines.push((line, line_w));
    }
    lines
}

/// The first `room` lines; when some were left out, the last one ends in "…" within `w`.
fn cut(mut lines: Vec<(String, f32)>, room: usize, px: f32, w: f32) -> Fitted {
    if lines.len() > room || lines.last().is_some_and(|l| l.1 > w) {
        lines.truncate(room);
        if let Some((last, last_w)) = lines.last_mut() {
            let mut kept: String = last.clone();
            while !kept.is_empty() && width(&format!("{kept}…"), px) > w {
                kept.pop();
            }
            *last = format!("{}…", kept.trim_end());
            *last_w = width(last, px);
        }
    }
    Fitted { px, lines }
}

/// `text` fitted into `area` (display coordinates, inner padding `pad`) and drawn,
/// centred vertically.
pub(super) fn draw_in(canvas: &mut Canvas, text: &str, area: Rect, pad: i32, style: &Style) {
    let inner = Rect::new(area.left + pad, area.top, area.right - pad, area.bottom);
    if inner.width() <= 0 || inner.height() <= 0 || text.trim().is_empty() {
        return;
    }
    let fitted = fit(text, inner.width() as f32, inner.height() as f32, style);
    let top = inner.top as f32 + (inner.height() as f32 - fitted.height()) / 2.0;
    draw_fitted(canvas, &fitted, inner, top, style);
}

/// Lines already fitted, the first line's top at `top`, aligned in `inner`.
pub(super) fn draw_fitted(
    canvas: &mut Canvas,
    fitted: &Fitted,
    inner: Rect,
    top: f32,
    style: &Style,
) {
    let Some(font) = font() else {
        return;
    };
    let line_h = fitted.px * LEADING;
    let scaled = font.as_scaled(PxScale::from(fitted.px));
    // The ascent and descent shared out over the line's leading.
    let baseline = scaled.ascent() + (line_h - scaled.height()) / 2.0;
    for (k, (line, line_w)) in fitted.lines.iter().enumerate() {
        let x = match style.align {
            Align::Left => inner.left as f32,
            Align::Center => inner.left as f32 + (inner.width() as f32 - line_w) / 2.0,
            Align::Right => inner.right as f32 - line_w,
        };
        let y = top + k as f32 * line_h + baseline;
        draw_line(canvas, font, line, (x, y), fitted.px, style);
    }
}

/// One line with its baseline's left end at `at` (display coordinates).
fn draw_line(
    canvas: &mut Canvas,
    font: &FontRef<'static>,
    line: &str,
    at: (f32, f32),
    px: f32,
    style: &Style,
) {
    let scale = canvas.scale();
    let size = PxScale::from(px * scale);
    let scaled = font.as_scaled(size);
    let (mut x, y) = (at.0 * scale, at.1 * scale);
    let passes: &[f32] = if style.bold {
        &[0.0, (px * scale * 0.045).max(0.6)]
    } else {
        &[0.0]
    };
    let mut word = String::new();
    let mut ink: Option<[i32; 4]> = None;
    let mut last: Option<GlyphId> = None;
    for c in line.chars() {
        let id = scaled.glyph_id(c);
        if let Some(prev) = last {
            x += scaled.kern(prev, id);
        }
        last = Some(id);
        if c.is_whitespace() {
            canvas.word(std::mem::take(&mut word), ink.take());
        } else {
            word.push(c);
            for &dx in passes {
                let glyph = id.with_scale_and_position(size, point(x + dx, y));
                let Some(outlined) = font.outline_glyph(glyph) else {
                    continue;
                };
                let b = outlined.px_bounds();
                let (ox, oy) = (b.min.x as i32, b.min.y as i32);
                outlined.draw(|gx, gy, cover| {
                    let (px_x, px_y) = (ox + gx as i32, oy + gy as i32);
                    let cover = (cover * 1.15).min(1.0);
                    if cover >= INK && canvas.in_clip(px_x, px_y) {
                        let box_ = ink.get_or_insert([px_x, px_y, px_x + 1, px_y + 1]);
                        box_[0] = box_[0].min(px_x);
                        box_[1] = box_[1].min(px_y);
                        box_[2] = box_[2].max(px_x + 1);
                        box_[3] = box_[3].max(px_y + 1);
                    }
                    canvas.blend_px(px_x, px_y, cover, style.colour);
                });
            }
        }
        x += scaled.h_advance(id);
    }
    canvas.word(word, ink);
}
