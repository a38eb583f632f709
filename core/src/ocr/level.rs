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
//! The filters are van Herk/Gil-Werman's: three comparisons a pixel whatever the window.

use image::GrayImage;

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
    // The closing, rows then (transposed) columns: max, max, min, min.
    let mut paper = src.clone();
    rows(&mut paper, w, radius, u8::max);
    let mut t = transpose(&paper, w, h);
    rows(&mut t, h, radius, u8::max);
    rows(&mut t, h, radius, u8::min);
    let mut paper = transpose(&t, h, w);
    rows(&mut paper, w, radius, u8::min);
    let mut out: Vec<u8> = src
        .iter()
        .zip(&paper)
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

/// Each row of `data` (rows of `width`) replaced by `pick` over a window of `2r + 1`,
/// clipped at the ends.
fn rows(data: &mut [u8], width: usize, r: usize, pick: impl Fn(u8, u8) -> u8 + Copy) {
    if width == 0 || r == 0 {
        return;
    }
    let window = 2 * r + 1;
    // The row padded by r on either side with its own end values, then to whole blocks.
    let padded_len = (width + 2 * r).div_ceil(window) * window;
    let mut padded = vec![0u8; padded_len];
    let mut ahead = vec![0u8; padded_len];
    let mut behind = vec![0u8; padded_len];
    for row in data.chunks_exact_mut(width) {
        let (first, last) = (row[0], row[width - 1]);
        padded[..r].fill(first);
        padded[r..r + width].copy_from_slice(row);
        padded[r + width..].fill(last);
        // `ahead`: from each block's start to here; `behind`: from here to its end.
        for start in (0..padded_len).step_by(window) {
            ahead[start] = padded[start];
            for i in start + 1..start + window {
                ahead[i] = pick(ahead[i - 1], padded[i]);
            }
            let end = start + window - 1;
            behind[end] = padded[end];
            for i in (start..end).rev() {
                behind[i] = pick(behind[i + 1], padded[i]);
            }
        }
        // row[x]'s window is padded[x ..= x + 2r]: the tail of one block, the head of
        // the next.
        for (x, out) in row.iter_mut().enumerate() {
            *out = pick(behind[x], ahead[x + 2 * r]);
        }
    }
}

/// `data` (`height` rows of `width`) with rows and columns swapped, in cache-sized tiles.
fn transpose(data: &[u8], width: usize, height: usize) -> Vec<u8> {
    const TILE: usize = 32;
    let mut out = vec![0u8; data.len()];
    for y0 in (0..height).step_by(TILE) {
        for x0 in (0..width).step_by(TILE) {
            for y in y0..(y0 + TILE).min(height) {
                for x in x0..(x0 + TILE).min(width) {
                    out[x * height + y] = data[y * width + x];
                }
            }
        }
    }
    out
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

    #[test]
    fn the_running_filter_equals_brute_force() {
        let mut rng = fastrand::Rng::with_seed(9);
        for width in [1, 2, 5, 17, 64, 101] {
            for r in [1, 2, 3, 8, 40] {
                let row: Vec<u8> = (0..width).map(|_| rng.u8(..)).collect();
                let mut fast = row.clone();
                rows(&mut fast, width, r, u8::max);
                assert_eq!(fast, naive(&row, r, u8::max), "max, width {width} r {r}");
                let mut fast = row.clone();
                rows(&mut fast, width, r, u8::min);
                assert_eq!(fast, naive(&row, r, u8::min), "min, width {width} r {r}");
            }
        }
        let data: Vec<u8> = (0..=254).collect();
        assert_eq!(transpose(&transpose(&data, 15, 17), 17, 15), data);
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
