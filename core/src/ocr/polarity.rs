//! Every part of a screen turned dark ink on light paper, so that Tesseract's one
//! threshold suits them all: light text on a dark bar, on a coloured button, on a game's
//! night sky, inverted in place.
//!
//! The picture is split at mid-grey into dark and light regions ([`super::regions`]:
//! 8-connected dark, 4-connected light, so that regions nest as a tree). A region is
//! **paper** when it is large: wider than a sixth or taller than a twelfth of the
//! image's longest side, or a nearly filled shape (three quarters of its box) whose
//! shorter side is over a sixtieth of it (a chip, a button, a block); the rest is
//! **ink** (letters, icons, rules). A region lies on the paper that encloses it: ink's
//! paper is its enclosing region; a hole in ink (the inside of an `o`) lies on the same
//! paper as that ink. Every pixel whose paper is dark is inverted.

use image::GrayImage;

use super::regions::{Region, Regions};

/// `grey` with each pixel inverted whose paper is dark.
pub(super) fn light_paper(grey: &GrayImage) -> GrayImage {
    let (w, h) = (grey.width() as usize, grey.height() as usize);
    let src = grey.as_raw();
    let regions = Regions::of(src, w, h);
    let invert = regions.dark_paper(w.max(h));
    let out = src
        .iter()
        .zip(&regions.label)
        .map(|(&g, &l)| if invert[l as usize] { 255 - g } else { g })
        .collect();
    GrayImage::from_raw(grey.width(), grey.height(), out).unwrap_or_else(|| grey.clone())
}

impl Regions {
    /// For each region, whether the paper it lies on is dark.
    fn dark_paper(&self, longest: usize) -> Vec<bool> {
        let longest = longest as u64;
        let paper = |r: &Region| {
            let (w, h) = (
                u64::from(r.right - r.left + 1),
                u64::from(r.bottom - r.top + 1),
            );
            w * 6 > longest
                || h * 12 > longest
                || (r.area * 4 > w * h * 3 && w.min(h) * 60 > longest)
        };
        let is_paper: Vec<bool> = self.regions.iter().map(paper).collect();
        let mut dark = vec![false; self.regions.len()];
        // A parent's first pixel comes before its children's: parents are settled first.
        for (n, r) in self.regions.iter().enumerate() {
            dark[n] = if is_paper[n] {
                r.dark
            } else {
                match r.parent {
                    // Ink on paper: that paper's colour.
                    Some(p) if is_paper[p as usize] => self.regions[p as usize].dark,
                    // A hole in ink: the ink's paper.
                    Some(p) => dark[p as usize],
                    // Small and on the top edge: ink, on paper of the other colour.
                    None => !r.dark,
                }
            };
        }
        dark
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    fn fill(img: &mut GrayImage, x0: u32, y0: u32, x1: u32, y1: u32, v: u8) {
        for y in y0..y1 {
            for x in x0..x1 {
                img.put_pixel(x, y, Luma([v]));
            }
        }
    }

    /// An `o`: a ring of `v` with its hole left as it was.
    fn ring(img: &mut GrayImage, x: u32, y: u32, v: u8) {
        let hole = img.get_pixel(x + 3, y + 3).0[0];
        fill(img, x, y, x + 10, y + 12, v);
        fill(img, x + 3, y + 3, x + 7, y + 9, hole);
    }

    #[test]
    fn text_on_dark_bars_and_buttons_becomes_dark_on_light() {
        // 480 × 960: a light page; a dark bar across with a light `o`; a dark `o` on the
        // page; a dark filled button (60 × 40) with a light `o`; a light `o` in a dark
        // top bar.
        let mut img = GrayImage::from_pixel(480, 960, Luma([250]));
        fill(&mut img, 0, 100, 480, 130, 30);
        ring(&mut img, 50, 109, 220);
        ring(&mut img, 50, 200, 20);
        fill(&mut img, 100, 300, 160, 340, 60);
        ring(&mut img, 120, 314, 240);
        fill(&mut img, 0, 0, 480, 24, 10);
        ring(&mut img, 10, 6, 230);
        let out = light_paper(&img);
        let at = |x: u32, y: u32| out.get_pixel(x, y).0[0];
        // The page and the dark `o` on it as they were, its hole light.
        assert_eq!((at(5, 60), at(51, 201), at(54, 205)), (250, 20, 250));
        // The bar inverted to light, its light `o` to dark, the hole to light.
        assert_eq!((at(5, 115), at(51, 110), at(54, 114)), (225, 35, 225));
        // The button likewise, and the top bar.
        assert_eq!((at(102, 302), at(121, 315), at(124, 319)), (195, 15, 195));
        assert_eq!((at(400, 3), at(11, 7), at(14, 11)), (245, 25, 245));
    }

    #[test]
    fn regions_nest_under_the_region_above_their_first_pixel() {
        let mut img = GrayImage::from_pixel(20, 20, Luma([250]));
        ring(&mut img, 5, 5, 0);
        let regions = Regions::of(img.as_raw(), 20, 20);
        // The page, the ring, its hole.
        assert_eq!(regions.regions.len(), 3);
        assert_eq!(regions.regions[0].parent, None);
        assert_eq!(regions.regions[1].parent, Some(0));
        assert_eq!(regions.regions[2].parent, Some(1));
        assert_eq!(regions.regions[1].area, 10 * 12 - 4 * 6);
    }
}
