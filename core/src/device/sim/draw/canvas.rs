//! `Canvas`: an RGB image drawn in display coordinates at a scale of the display, clipped
//! to one rectangle at a time; rows filled as slices, edges and shapes anti-aliased.

use ab_glyph::{Point, point};
use ab_glyph_rasterizer::Rasterizer;
use image::{Rgb, RgbImage};

use crate::model::Rect;

/// An image drawn in display coordinates.
pub(super) struct Canvas {
    img: RgbImage,
    scale: f32,
    /// Where drawing lands, in image pixels: `[left, top, right, bottom)`.
    clip: [i32; 4],
    /// Each word drawn and its ink box (image pixels), when asked for.
    words: Option<Vec<(String, Rect)>>,
}

impl Canvas {
    /// A `width`×`height` image (pixels) of `colour`, drawn at `scale` of the display.
    pub(super) fn new(width: u32, height: u32, scale: f32, colour: Rgb<u8>) -> Self {
        let mut raw = Vec::with_capacity(width as usize * height as usize * 3);
        for _ in 0..width as usize * height as usize {
            raw.extend_from_slice(&colour.0);
        }
        let img = RgbImage::from_raw(width, height, raw).unwrap_or_else(|| RgbImage::new(1, 1));
        let clip = [0, 0, img.width() as i32, img.height() as i32];
        Self {
            img,
            scale,
            clip,
            words: None,
        }
    }

    /// From now on, every word drawn is kept with its ink box.
    pub(super) fn keep_words(&mut self) {
        self.words.get_or_insert_with(Vec::new);
    }

    /// The image, and the words drawn on it when they were kept.
    pub(super) fn finish(self) -> (RgbImage, Vec<(String, Rect)>) {
        (self.img, self.words.unwrap_or_default())
    }

    /// A word drawn, with the box of the image pixels it inked (`None`: none visible).
    pub(super) fn word(&mut self, word: String, ink: Option<[i32; 4]>) {
        if let (Some(words), Some([l, t, r, b])) = (&mut self.words, ink)
            && !word.is_empty()
        {
            words.push((word, Rect::new(l, t, r, b)));
        }
    }

    pub(super) fn scale(&self) -> f32 {
        self.scale
    }

    /// Drawing lands inside `r` (display coordinates) only, until the next call; `None`
    /// clips to the whole image.
    pub(super) fn clip_to(&mut self, r: Option<Rect>) {
        let (w, h) = (self.img.width() as i32, self.img.height() as i32);
        self.clip = match r {
            None => [0, 0, w, h],
            Some(r) => {
                let at = |v: i32| (v as f32 * self.scale).round() as i32;
                [
                    at(r.left).clamp(0, w),
                    at(r.top).clamp(0, h),
                    at(r.right).clamp(0, w),
                    at(r.bottom).clamp(0, h),
                ]
            }
        };
    }

    /// The colour at a display point (the clip aside), or `None` off the image.
    pub(super) fn colour_at(&self, x: i32, y: i32) -> Option<Rgb<u8>> {
        let (x, y) = (x as f32 * self.scale, y as f32 * self.scale);
        (x >= 0.0 && y >= 0.0)
            .then(|| self.img.get_pixel_checked(x as u32, y as u32).copied())
            .flatten()
    }

    /// `r` filled with `colour`, row by row.
    pub(super) fn fill(&mut self, r: Rect, colour: Rgb<u8>) {
        let at = |v: i32| (v as f32 * self.scale).round() as i32;
        let [cl, ct, cr, cb] = self.clip;
        let (l, t) = (at(r.left).max(cl), at(r.top).max(ct));
        let (right, b) = (at(r.right).min(cr), at(r.bottom).min(cb));
        if l >= right || t >= b {
            return;
        }
        let stride = self.img.width() as usize * 3;
        let (x0, x1) = (l as usize * 3, right as usize * 3);
        let raw: &mut [u8] = &mut self.img;
        let first = t as usize * stride;
        for px in raw[first + x0..first + x1].chunks_exact_mut(3) {
            px.copy_from_slice(&colour.0);
        }
        for y in t as usize + 1..b as usize {
            raw.copy_within(first + x0..first + x1, y * stride + x0);
        }
    }

    /// A border `width` display pixels wide (at least one image pixel) inside `r`.
    pub(super) fn outline(&mut self, r: Rect, width: i32, colour: Rgb<u8>) {
        let width = width.max((1.0 / self.scale).ceil() as i32);
        for line in [
            Rect::new(r.left, r.top, r.right, r.top + width),
            Rect::new(r.left, r.bottom - width, r.right, r.bottom),
            Rect::new(r.left, r.top, r.left + width, r.bottom),
            Rect::new(r.right - width, r.top, r.right, r.bottom),
        ] {
            self.fill(line.intersect(&r), colour);
        }
    }

    /// `r` with corners rounded by `radius` (display pixels), edges anti-aliased.
    pub(super) fn round(&mut self, r: Rect, radius: f32, colour: Rgb<u8>) {
        let s = self.scale;
        let (l, t) = (r.left as f32 * s, r.top as f32 * s);
        let (right, b) = (r.right as f32 * s, r.bottom as f32 * s);
        let radius = (radius * s)
            .min((right - l) / 2.0)
            .min((b - t) / 2.0)
            .max(0.0);
        if radius < 0.5 {
            self.fill(r, colour);
            return;
        }
        let [cl, ct, cr, cb] = self.clip;
        let (y0, y1) = ((t.floor() as i32).max(ct), (b.ceil() as i32).min(cb));
        for y in y0..y1 {
            let mid = y as f32 + 0.5;
            // How far the row's edges come in from the rectangle's sides.
            let dy = (t + radius - mid).max(mid - (b - radius)).max(0.0);
            let inset = radius - (radius * radius - dy * dy).max(0.0).sqrt();
            // The part of the row inside the top and bottom edges.
            let cover = (mid + 0.5 - t).min(b - mid + 0.5).clamp(0.0, 1.0);
            if dy >= radius || cover <= 0.0 {
                continue;
            }
            self.span(y, l + inset, right - inset, cover, colour, [cl, cr]);
        }
    }

    /// A disc of `radius` display pixels around (`x`, `y`).
    pub(super) fn disc(&mut self, x: f32, y: f32, radius: f32, colour: Rgb<u8>) {
        let r = Rect::new(
            (x - radius).round() as i32,
            (y - radius).round() as i32,
            (x + radius).round() as i32,
            (y + radius).round() as i32,
        );
        self.round(r, radius, colour);
    }

    /// Row `y` from `x0` to `x1` (image pixels, fractional), `cover` of `colour`; the end
    /// pixels by how much of them the span covers.
    fn span(&mut self, y: i32, x0: f32, x1: f32, cover: f32, colour: Rgb<u8>, clip: [i32; 2]) {
        if x1 <= x0 {
            return;
        }
        let (first, last) = (x0.floor() as i32, x1.ceil() as i32 - 1);
        for x in [first, last] {
            let part = ((x + 1) as f32).min(x1) - (x as f32).max(x0);
            self.blend_px(x, y, part.clamp(0.0, 1.0) * cover, colour);
            if first == last {
                return;
            }
        }
        let (l, right) = ((first + 1).max(clip[0]), last.min(clip[1]));
        if l >= right {
            return;
        }
        if cover >= 1.0 {
            let stride = self.img.width() as usize * 3;
            let row = y as usize * stride;
            let raw: &mut [u8] = &mut self.img;
            for px in raw[row + l as usize * 3..row + right as usize * 3].chunks_exact_mut(3) {
                px.copy_from_slice(&colour.0);
            }
        } else {
            for x in l..right {
                self.blend_px(x, y, cover, colour);
            }
        }
    }

    /// A filled polygon (display coordinates, closed for you), anti-aliased.
    pub(super) fn polygon(&mut self, points: &[(f32, f32)], colour: Rgb<u8>) {
        let s = self.scale;
        let pts: Vec<Point> = points.iter().map(|&(x, y)| point(x * s, y * s)).collect();
        let (Some(min_x), Some(min_y)) = (
            pts.iter().map(|p| p.x).reduce(f32::min),
            pts.iter().map(|p| p.y).reduce(f32::min),
        ) else {
            return;
        };
        let max_x = pts.iter().map(|p| p.x).fold(min_x, f32::max);
        let max_y = pts.iter().map(|p| p.y).fold(min_y, f32::max);
        let (ox, oy) = (min_x.floor(), min_y.floor());
        let (w, h) = (
            (max_x - ox).ceil() as usize + 1,
            (max_y - oy).ceil() as usize + 1,
        );
        if w > 4096 || h > 4096 {
            return;
        }
        let mut raster = Rasterizer::new(w, h);
        for (k, p) in pts.iter().enumerate() {
            let q = pts[(k + 1) % pts.len()];
            raster.draw_line(point(p.x - ox, p.y - oy), point(q.x - ox, q.y - oy));
        }
        raster.for_each_pixel_2d(|x, y, a| {
            self.blend_px(ox as i32 + x as i32, oy as i32 + y as i32, a, colour);
        });
    }

    /// A line `width` display pixels thick from `a` to `b`.
    pub(super) fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, colour: Rgb<u8>) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
        let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
        self.polygon(
            &[
                (a.0 + nx, a.1 + ny),
                (b.0 + nx, b.1 + ny),
                (b.0 - nx, b.1 - ny),
                (a.0 - nx, a.1 - ny),
            ],
            colour,
        );
    }

    /// One image pixel, `alpha` of the way to `colour`, inside the clip.
    pub(super) fn blend_px(&mut self, x: i32, y: i32, alpha: f32, colour: Rgb<u8>) {
        let [cl, ct, cr, cb] = self.clip;
        if x < cl || x >= cr || y < ct || y >= cb || alpha <= 0.0 {
            return;
        }
        let px = self.img.get_pixel_mut(x as u32, y as u32);
        if alpha >= 1.0 {
            *px = colour;
            return;
        }
        for (old, new) in px.0.iter_mut().zip(colour.0) {
            let mixed = f32::from(*old) + (f32::from(new) - f32::from(*old)) * alpha;
            *old = mixed.round() as u8;
        }
    }

    /// Whether image pixel (`x`, `y`) is inside the clip.
    pub(super) fn in_clip(&self, x: i32, y: i32) -> bool {
        let [cl, ct, cr, cb] = self.clip;
        x >= cl && x < cr && y >= ct && y < cb
    }
}
