//! Text boxes from a DB detector's probability map (Differentiable Binarization, the
//! detector of PP-OCR): pixels over [`Boxes::threshold`] are text, dilated by one pixel
//! to join the strokes of a line, labelled as 8-connected regions; a region whose mean
//! probability is under [`Boxes::box_threshold`] is dropped, and the others are grown back
//! to the text's size ("unclipped": the model is trained on boxes shrunk by the same rule).
//!
//! Boxes are axis-aligned: a phone screen's text is horizontal, and the model's slanted
//! boxes would be cropped to their bounding rectangle anyway.

use crate::model::Rect;

/// How the map becomes boxes: PP-OCR's own defaults but for `box_threshold`, raised from
/// 0.5 so that icons read as faint text regions are not boxes (measured in docs/ocr.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boxes {
    /// A pixel is text above this probability.
    pub threshold: f32,
    /// A region is kept when its pixels' mean probability is at least this.
    pub box_threshold: f32,
    /// A region's box grows on every side by its area × `unclip` over its perimeter.
    pub unclip: f32,
    /// Regions whose shorter side is under this many map pixels are dropped.
    pub min_side: u32,
    /// At most this many boxes, the most probable first: a page of noise is bounded.
    pub max_boxes: usize,
}

impl Default for Boxes {
    fn default() -> Self {
        Self {
            threshold: 0.3,
            box_threshold: 0.6,
            unclip: 1.6,
            min_side: 3,
            max_boxes: 1000,
        }
    }
}

/// One text region: its box in map pixels (grown, within the map) and mean probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    pub bounds: Rect,
    pub score: f32,
}

impl Boxes {
    /// The text boxes of `map`, `width` × `height` probabilities row by row, most probable
    /// first. A map of the wrong length is no boxes.
    pub fn find(&self, map: &[f32], width: usize, height: usize) -> Vec<Found> {
        if map.len() != width * height || width == 0 || height == 0 {
            return Vec::new();
        }
        let mask = dilated(map, width, height, self.threshold);
        let mut seen = vec![false; mask.len()];
        let mut found = Vec::new();
        let mut stack = Vec::new();
        for start in 0..mask.len() {
            if !mask[start] || seen[start] {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut region = Region::new(start % width, start / width);
            while let Some(at) = stack.pop() {
                let (x, y) = (at % width, at / width);
                region.add(x, y, map[at]);
                for (nx, ny) in neighbours(x, y, width, height) {
                    let next = ny * width + nx;
                    if mask[next] && !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
            if let Some(f) = region.found(self, width, height) {
                found.push(f);
            }
        }
        found.sort_by(|a, b| b.score.total_cmp(&a.score));
        found.truncate(self.max_boxes);
        found
    }
}

/// The pixels over `threshold`, and their right and lower neighbours (a 2×2 dilation, as
/// PP-OCR dilates): strokes a pixel apart join.
fn dilated(map: &[f32], width: usize, height: usize, threshold: f32) -> Vec<bool> {
    let mut mask = vec![false; map.len()];
    for y in 0..height {
        for x in 0..width {
            if map[y * width + x] > threshold {
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < width && ny < height {
                        mask[ny * width + nx] = true;
                    }
                }
            }
        }
    }
    mask
}

/// The 8 neighbours of (`x`, `y`) inside the map.
fn neighbours(
    x: usize,
    y: usize,
    width: usize,
    height: usize,
) -> impl Iterator<Item = (usize, usize)> {
    (-1i64..=1)
        .flat_map(|dy| (-1i64..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(dx, dy)| {
            let nx = x as i64 + dx;
            let ny = y as i64 + dy;
            (nx >= 0 && ny >= 0 && (nx as usize) < width && (ny as usize) < height)
                .then_some((nx as usize, ny as usize))
        })
}

/// A region being labelled: its extent and probability sum.
struct Region {
    left: usize,
    top: usize,
    right: usize,
    bottom: usize,
    sum: f32,
    pixels: usize,
}

impl Region {
    fn new(x: usize, y: usize) -> Self {
        Self {
            left: x,
            top: y,
            right: x,
            bottom: y,
            sum: 0.0,
            pixels: 0,
        }
    }

    fn add(&mut self, x: usize, y: usize, probability: f32) {
        self.left = self.left.min(x);
        self.right = self.right.max(x);
        self.top = self.top.min(y);
        self.bottom = self.bottom.max(y);
        self.sum += probability;
        self.pixels += 1;
    }

    /// The region as a box, grown and kept within the map, unless `rules` drop it.
    fn found(&self, rules: &Boxes, width: usize, height: usize) -> Option<Found> {
        let w = (self.right - self.left + 1) as f32;
        let h = (self.bottom - self.top + 1) as f32;
        let score = self.sum / self.pixels as f32;
        if w.min(h) < rules.min_side as f32 || score < rules.box_threshold {
            return None;
        }
        let grow = w * h * rules.unclip / (2.0 * (w + h));
        let edge = |v: f32, limit: usize| v.round().clamp(0.0, limit as f32) as i32;
        let bounds = Rect::new(
            edge(self.left as f32 - grow, width),
            edge(self.top as f32 - grow, height),
            edge(self.right as f32 + 1.0 + grow, width),
            edge(self.bottom as f32 + 1.0 + grow, height),
        );
        Some(Found { bounds, score })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `width` × `height` map with `value` inside each of `boxes` (left, top, right,
    /// bottom, exclusive), 0 elsewhere.
    fn map(width: usize, height: usize, boxes: &[([usize; 4], f32)]) -> Vec<f32> {
        let mut map = vec![0.0; width * height];
        for &([l, t, r, b], value) in boxes {
            for y in t..b {
                for x in l..r {
                    map[y * width + x] = value;
                }
            }
        }
        map
    }

    #[test]
    fn each_region_is_a_box_grown_back_to_the_texts_size() {
        // A 40×10 region, 41×11 once dilated: grown by 41·11·1.6 / (2·52) = 6.9 on each
        // side; its score is the mean over the dilated region, 400·0.9 / 451.
        let m = map(100, 50, &[([20, 20, 60, 30], 0.9)]);
        let found = Boxes::default().find(&m, 100, 50);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].bounds, Rect::new(13, 13, 68, 38));
        assert!((found[0].score - 360.0 / 451.0).abs() < 1e-5);
    }

    #[test]
    fn faint_thin_and_empty_regions_are_not_boxes() {
        let m = map(
            100,
            50,
            &[
                ([5, 5, 30, 12], 0.45),   // over the pixel threshold, under the box threshold
                ([40, 20, 90, 21], 0.95), // one pixel tall: two once dilated, under min_side
                ([60, 30, 90, 40], 0.2),  // under the pixel threshold
                ([10, 30, 40, 40], 0.95), // text
            ],
        );
        let found = Boxes::default().find(&m, 100, 50);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].bounds.left, 4);
        assert!(Boxes::default().find(&[], 0, 0).is_empty());
        assert!(Boxes::default().find(&[0.9; 10], 4, 4).is_empty());
    }

    #[test]
    fn strokes_a_pixel_apart_join_and_boxes_come_most_probable_first() {
        let m = map(
            120,
            40,
            &[
                ([10, 10, 20, 20], 0.8),
                ([21, 10, 30, 20], 0.8), // one pixel from the first
                ([60, 10, 100, 20], 0.99),
            ],
        );
        let found = Boxes::default().find(&m, 120, 40);
        assert_eq!(found.len(), 2);
        assert!(found[0].score > found[1].score);
        assert!(found[1].bounds.left < 10 && found[1].bounds.right > 30);
    }

    #[test]
    fn growth_stops_at_the_maps_edges_and_boxes_are_bounded() {
        let m = map(30, 12, &[([0, 0, 30, 12], 0.9)]);
        let found = Boxes::default().find(&m, 30, 12);
        assert_eq!(found[0].bounds, Rect::new(0, 0, 30, 12));
        // A grid of 4×4 islands: many regions, at most max_boxes of them.
        let mut islands = Vec::new();
        for y in (0..196).step_by(6) {
            for x in (0..196).step_by(6) {
                islands.push(([x, y, x + 4, y + 4], 1.0));
            }
        }
        let rules = Boxes {
            max_boxes: 50,
            ..Boxes::default()
        };
        assert_eq!(rules.find(&map(200, 200, &islands), 200, 200).len(), 50);
    }
}
