//! Paper levelled to white and faint ink strengthened, after [`super::polarity`] made all
//! ink dark: what lets one threshold keep 2:1 grey text beside black text, and an
//! inverted bar's paper (a little darker than the page's) read as paper.
//!
//! The paper under each pixel is the closing of the picture (a max then a min filter
//! over a square window), which erases dark strokes narrower than the window and keeps
//! wider shapes; a pixel is then drawn by how much darker than its paper it is, three
//! times over (a difference of 85 greys or more is black). The window's half-width is a
//! hundredth of the longest side (24 px on a 2400-px screen): strokes up to twice that
//! wide, a headline's, are ink.
//! Where more than 55 % of a neighbourhood (twice the window) comes out dark, it is
//! texture (a photo, noise), not text, and is left white.
//! The max and min filters are `imageproc`'s grayscale dilation and erosion, the square
//! window taken as a line across and then a line down: the same result as the square
//! mask, and faster than it or a running filter of three comparisons a pixel on the
//! screenshots OCR reads (`benches/ocr_prepare.rs`, docs/ocr.md).

use image::GrayImage;
use imageproc::morphology::{Mask, grayscale_dilate, grayscale_erode};

/// How much a difference from the paper is strengthened.
const GAIN: u32 = 3;
/// Over this share of dark pixels around it, a pixel is texture, not text.
const TEXTURE: f32 = 0.55;

/// The window's half-width for an image whose longest side is `longest`.
pub(super) fn radius_for(longest: u32) -> usize {
    (longest as usize / 100).max(1)
}

/// `grey` (dark ink) with its paper white and its ink strengthened.
pub(super) fn level(grey: &GrayImage, radius: usize) -> GrayImage {
    let (w, h) = (grey.width() as usize, grey.height() as usize);
    let src = grey.as_raw();
    let paper = closing(grey, radius);
    let mut out: Vec<u8> = src
        .iter()
        .zip(paper.as_raw())
        .map(|(&g, &p)| {
            let ink = u32::from(p.saturating_sub(g)) * GAIN;
            255 - ink.min(255) as u8
        })
        .collect();
    // Texture (a photo, noise) comes out as dark as strokes but far denser: blanked.
    let dark: Vec<u8> = out.iter().map(|&v| u8::from(v < 128)).collect();
    let share = dark_share(&dark, w, h, 2 * radius);
    for (v, &s) in out.iter_mut().zip(&share) {
        if s > TEXTURE {
            *v = 255;
        }
    }
    GrayImage::from_raw(grey.width(), grey.height(), out).unwrap_or_else(|| grey.clone())
}

/// The share of dark pixels (in `dark`, 1 or 0) in each pixel's `(2r + 1)²`
/// neighbourhood, clipped at the edges, from a summed-area table.
fn dark_share(dark: &[u8], w: usize, h: usize, r: usize) -> Vec<f32> {
    let stride = w + 1;
    let mut sums = vec![0u32; stride * (h + 1)];
    for y in 0..h {
        let mut row = 0u32;
        for x in 0..w {
            row += u32::from(dark[y * w + x]);
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
    let mut out = vec![0f32; w * h];
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
        for x in 0..w {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w));
            let n = sums[y1 * stride + x1] + sums[y0 * stride + x0]
                - sums[y0 * stride + x1]
                - sums[y1 * stride + x0];
            out[y * w + x] = n as f32 / ((y1 - y0) * (x1 - x0)) as f32;
        }
    }
    out
}

/// The closing of `grey` over a square window of half-width `radius` (at most 255): a
/// max then a min filter, each across then down.
pub(super) fn closing(grey: &GrayImage, radius: usize) -> GrayImage {
    let r = u8::try_from(radius).unwrap_or(u8::MAX);
    let (across, down) = (line(r, Along::Across), line(r, Along::Down));
    let max = grayscale_dilate(&grayscale_dilate(grey, &across), &down);
    grayscale_erode(&grayscale_erode(&max, &across), &down)
}

/// Which way a line runs.
#[derive(Clone, Copy, Debug)]
enum Along {
    Across,
    Down,
}

/// The `2r + 1` pixels of a row (or a column) centred on a pixel, as a mask; clipped at the
/// image's edges, so a window off its end holds what is left of it.
fn line(r: u8, along: Along) -> Mask {
    let side = 2 * u32::from(r) + 1;
    let white = image::Luma([u8::MAX]);
    match along {
        Along::Across => Mask::from_image(&GrayImage::from_pixel(side, 1, white), r, 0),
        Along::Down => Mask::from_image(&GrayImage::from_pixel(1, side, white), 0, r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// The window's pick by brute force.
    fn naive(row: &[u8], r: usize, pick: fn(u8, u8) -> u8) -> Vec<u8> {
        (0..row.len())
            .map(|x| {
                let lo = x.saturating_sub(r);
                let hi = (x + r).min(row.len() - 1);
                row[lo..=hi].iter().copied().fold(row[x], pick)
            })
            .collect()
    }

    /// `data` filtered by the max (or min) over a line of `r`, as one row or one column.
    fn filtered(data: &[u8], r: u8, along: Along, max: bool) -> Vec<u8> {
        let n = data.len() as u32;
        let (w, h) = match along {
            Along::Across => (n, 1),
            Along::Down => (1, n),
        };
        let img = GrayImage::from_raw(w, h, data.to_vec()).unwrap();
        let mask = line(r, along);
        let out = if max {
            grayscale_dilate(&img, &mask)
        } else {
            grayscale_erode(&img, &mask)
        };
        out.into_raw()
    }

    /// The pick over the `(2r + 1)²` window around each pixel of `img`, clipped at its
    /// edges, by brute force.
    fn naive_square(img: &GrayImage, r: u32, pick: fn(u8, u8) -> u8) -> GrayImage {
        GrayImage::from_fn(img.width(), img.height(), |x, y| {
            let xs = x.saturating_sub(r)..=(x + r).min(img.width() - 1);
            let ys = y.saturating_sub(r)..=(y + r).min(img.height() - 1);
            let v = ys
                .flat_map(|yy| xs.clone().map(move |xx| (xx, yy)))
                .map(|(xx, yy)| img.get_pixel(xx, yy).0[0])
                .fold(img.get_pixel(x, y).0[0], pick);
            Luma([v])
        })
    }

    #[test]
    fn the_running_filter_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(9);
        for width in [1, 2, 5, 17, 64, 101] {
            for r in [1u8, 2, 3, 8, 40] {
                let row: Vec<u8> = (0..width).map(|_| rng.u8(..)).collect();
                let wide = usize::from(r);
                let (max, min) = (naive(&row, wide, u8::max), naive(&row, wide, u8::min));
                // A column is filtered as the same pixels in a row are.
                for along in [Along::Across, Along::Down] {
                    let fast = filtered(&row, r, along, true);
                    assert_eq!(fast, max, "max, width {width} r {r} {along:?}");
                    let fast = filtered(&row, r, along, false);
                    assert_eq!(fast, min, "min, width {width} r {r} {along:?}");
                }
            }
        }
        // The closing is the square window's max, then its min.
        let img = GrayImage::from_fn(31, 23, |_, _| Luma([rng.u8(..)]));
        let closed = naive_square(&naive_square(&img, 3, u8::max), 3, u8::min);
        assert_eq!(closing(&img, 3), closed);
    }

    #[test]
    fn paper_goes_white_and_faint_ink_dark() {
        // A page at 250 with a 3-px stroke at 180 (2:1); a bar at 225 (an inverted dark
        // bar) 40 px wide with a stroke at 35.
        let mut img = GrayImage::from_pixel(120, 20, Luma([250]));
        for y in 0..20 {
            for x in 10..13 {
                img.put_pixel(x, y, Luma([180]));
            }
            for x in 40..80 {
                img.put_pixel(x, y, Luma([225]));
            }
            for x in 58..61 {
                img.put_pixel(x, y, Luma([35]));
            }
        }
        let out = level(&img, 4);
        let at = |x: u32| out.get_pixel(x, 10).0[0];
        assert_eq!((at(5), at(45), at(79), at(100)), (255, 255, 255, 255));
        // 70 darker than its paper, three times over: 45.
        assert_eq!(at(11), 45);
        assert_eq!(at(59), 0);
        assert_eq!(radius_for(2400), 24);
        // Noise is texture: blanked, not handed to Tesseract as a page of specks.
        let mut rng = fastrand::Rng::with_seed(4);
        let noise = GrayImage::from_fn(200, 200, |_, _| Luma([rng.u8(..)]));
        let out = level(&noise, 4);
        let dark = out.as_raw().iter().filter(|&&v| v < 128).count();
        assert!(dark < 200 * 200 / 20, "{dark} dark pixels");
        assert_eq!(radius_for(50), 1);
    }
}
