//! The simulated phone's output: uiautomator XML and a wireframe PNG of what is shown.

use std::fmt::Write as _;

use image::{ImageEncoder, Rgb, RgbImage};

use crate::model::{Flags, Rect, Size};
use crate::render::xml_escape;

use super::screen::Paint;
use super::view::Shown;

/// The nodes as a uiautomator dump; each window is a run starting at depth 0.
pub(super) fn xml(nodes: &[Shown], rotation: u8) -> String {
    let mut out = String::with_capacity(nodes.len() * 400 + 128);
    out.push_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n");
    let _ = writeln!(out, "<hierarchy rotation=\"{rotation}\">");
    let mut open: Vec<usize> = Vec::new();
    let mut index: Vec<usize> = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&d| d >= node.depth) {
            open.pop();
            let _ = writeln!(out, "{}</node>", indent(open.len()));
        }
        index.truncate(node.depth + 1);
        if index.len() <= node.depth {
            index.resize(node.depth + 1, 0);
        }
        let i = index[node.depth];
        index[node.depth] += 1;
        let has_children = nodes.get(k + 1).is_some_and(|n| n.depth > node.depth);
        let f = |flag| node.flags.contains(flag);
        let _ = write!(
            out,
            "{}<node index=\"{i}\" text=\"{}\" resource-id=\"{}\" class=\"{}\" package=\"{}\" \
             content-desc=\"{}\" checkable=\"{}\" checked=\"{}\" clickable=\"{}\" enabled=\"{}\" \
             focusable=\"{}\" focused=\"{}\" scrollable=\"{}\" long-clickable=\"{}\" \
             password=\"false\" selected=\"{}\" bounds=\"{}\"",
            indent(open.len()),
            xml_escape(&node.text),
            xml_escape(&node.resource_id),
            xml_escape(&node.class),
            xml_escape(&node.package),
            xml_escape(&node.desc),
            f(Flags::CHECKABLE),
            f(Flags::CHECKED),
            f(Flags::CLICKABLE),
            f(Flags::ENABLED),
            f(Flags::FOCUSABLE),
            f(Flags::FOCUSED),
            f(Flags::SCROLLABLE),
            f(Flags::LONG_CLICKABLE),
            f(Flags::SELECTED),
            node.bounds,
        );
        if has_children {
            out.push_str(">\n");
            open.push(node.depth);
        } else {
            out.push_str(" />\n");
        }
    }
    while open.pop().is_some() {
        let _ = writeln!(out, "{}</node>", indent(open.len()));
    }
    out.push_str("</hierarchy>\n");
    out
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth + 1)
}

const BACKGROUND: Rgb<u8> = Rgb([250, 250, 250]);
const OUTLINE: Rgb<u8> = Rgb([150, 150, 160]);
const ACTION: Rgb<u8> = Rgb([40, 110, 220]);
const INK: Rgb<u8> = Rgb([60, 60, 70]);
const ON: Rgb<u8> = Rgb([40, 170, 90]);
const BAR: Rgb<u8> = Rgb([30, 30, 36]);

/// A wireframe: self-drawn paint first, then a box per node, a filled block where text
/// is (no fonts), and a filled knob for checked switches. `shift_x` slides the paint
/// with the app window. Drawn at `scale` of the display (1 for full size): a smaller
/// picture costs its callers less to encode.
pub(super) fn pixels(
    nodes: &[Shown],
    paint: &[Paint],
    shift_x: i32,
    size: Size,
    scale: f64,
) -> Result<RgbImage, String> {
    let scale = scale.clamp(0.01, 1.0);
    let side = |v: i32| {
        u32::try_from((f64::from(v) * scale).round() as i64)
            .map(|n| n.max(1))
            .map_err(|e| e.to_string())
    };
    let mut canvas = Canvas {
        img: RgbImage::from_pixel(side(size.width)?, side(size.height)?, BACKGROUND),
        scale,
    };
    for p in paint {
        let [l, t, r, b] = p.rect;
        canvas.fill(Rect::new(l + shift_x, t, r + shift_x, b), Rgb(p.color));
    }
    for node in nodes {
        let r = node.visible;
        if node.window == super::view::Win::StatusBar && node.depth == 0 {
            canvas.fill(r, BAR);
        } else if node.flags.contains(Flags::CLICKABLE) {
            // Clickable surfaces (cards, the mini-player, bars) hide what lies under them.
            canvas.fill(r, BACKGROUND);
        }
        let colour = if node.flags.intersects(Flags::ACTIONS) {
            ACTION
        } else {
            OUTLINE
        };
        canvas.outline(r, colour);
        let label = if node.text.is_empty() {
            &node.desc
        } else {
            &node.text
        };
        if !label.is_empty() && r.height() > 16 {
            // A block as wide as the text would be, 0.5 em per character.
            let em = (r.height() / 2).clamp(12, 40);
            let len = i32::try_from(label.chars().count()).unwrap_or(i32::MAX);
            let width = len.saturating_mul(em / 2).min(r.width() - 16);
            let top = r.top + (r.height() - em) / 2;
            let block = Rect::new(r.left + 8, top, r.left + 8 + width, top + em);
            canvas.fill(block.intersect(&r), INK);
        }
        if node.flags.contains(Flags::CHECKED) {
            let knob = Rect::new(r.right - 120, r.top + 16, r.right - 24, r.bottom - 16);
            canvas.fill(knob.intersect(&r), ON);
        }
    }
    Ok(canvas.img)
}

/// `img` as a PNG, encoded fast.
pub(super) fn png(img: &RgbImage) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new_with_quality(
        &mut bytes,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Sub,
    )
    .write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// An image drawn in display coordinates, at a scale of the display.
struct Canvas {
    img: RgbImage,
    scale: f64,
}

impl Canvas {
    /// The pixels of `r` (display coordinates) on the image, as ranges.
    fn on_image(&self, r: Rect) -> Option<(u32, u32, u32, u32)> {
        let at = |v: i32| (f64::from(v) * self.scale).round() as i64;
        let clamp = |v: i64, max: u32| u32::try_from(v.clamp(0, i64::from(max))).ok();
        let (w, h) = (self.img.width(), self.img.height());
        let (l, t) = (clamp(at(r.left), w)?, clamp(at(r.top), h)?);
        let (right, b) = (clamp(at(r.right), w)?, clamp(at(r.bottom), h)?);
        (l < right && t < b).then_some((l, t, right, b))
    }

    fn fill(&mut self, r: Rect, colour: Rgb<u8>) {
        if let Some((l, t, right, b)) = self.on_image(r) {
            for y in t..b {
                for x in l..right {
                    self.img.put_pixel(x, y, colour);
                }
            }
        }
    }

    /// A border 2 display pixels wide, and at least one image pixel.
    fn outline(&mut self, r: Rect, colour: Rgb<u8>) {
        let width = (1.0 / self.scale).ceil().max(2.0) as i32;
        let lines = [
            Rect::new(r.left, r.top, r.right, r.top + width),
            Rect::new(r.left, r.bottom - width, r.right, r.bottom),
            Rect::new(r.left, r.top, r.left + width, r.bottom),
            Rect::new(r.right - width, r.top, r.right, r.bottom),
        ];
        for line in lines {
            self.fill(line.intersect(&r), colour);
        }
    }
}
