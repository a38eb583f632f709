//! Whether any of many rectangles contains a given one, in about logarithmic time: the
//! rectangles as points (left, top, −right, −bottom) of a static k-d tree, where containing
//! a rectangle is lying at or below its point on every axis.
//!
//! A real dump has a few windows; a generated one can have tens of thousands of top-level
//! nodes, each a window, and every node is asked whether a window above covers it.

use crate::model::Rect;

/// Ranges this short are scanned instead of split further.
const LEAF: usize = 16;

/// Rectangles, arranged to answer "does one of them contain this rectangle?".
#[derive(Clone, Debug, Default)]
pub(crate) struct Containers {
    /// One point per rectangle, in k-d order: the median of each range (split on the axis
    /// of its depth) at the range's middle, lower points before it, higher after.
    points: Vec<Point>,
    /// For each range longer than [`LEAF`], at its middle index: the least of every axis
    /// over the range.
    least: Vec<Point>,
}

type Point = [i64; 4];

fn point(rect: &Rect) -> Point {
    [
        i64::from(rect.left),
        i64::from(rect.top),
        -i64::from(rect.right),
        -i64::from(rect.bottom),
    ]
}

/// Whether `a` is at or below `b` on every axis: as rectangles, `a` contains `b`.
fn at_or_below(a: &Point, b: &Point) -> bool {
    a.iter().zip(b).all(|(a, b)| a <= b)
}

impl Containers {
    pub(crate) fn new(rects: impl IntoIterator<Item = Rect>) -> Self {
        let mut points: Vec<Point> = rects.into_iter().map(|r| point(&r)).collect();
        let mut least = vec![[i64::MAX; 4]; points.len()];
        let mut ranges = vec![(0, points.len(), 0)];
        while let Some((start, end, depth)) = ranges.pop() {
            if end - start <= LEAF {
                continue;
            }
            let axis = depth % 4;
            let middle = (start + end) / 2;
            points[start..end].select_nth_unstable_by_key(middle - start, |p| p[axis]);
            least[middle] = points[start..end].iter().fold([i64::MAX; 4], |low, p| {
                std::array::from_fn(|k| low[k].min(p[k]))
            });
            ranges.push((start, middle, depth + 1));
            ranges.push((middle + 1, end, depth + 1));
        }
        Self { points, least }
    }

    /// Whether one of the rectangles contains `rect` (edges may coincide).
    pub(crate) fn contain(&self, rect: &Rect) -> bool {
        let target = point(rect);
        let mut ranges = vec![(0, self.points.len(), 0)];
        while let Some((start, end, depth)) = ranges.pop() {
            if end - start <= LEAF {
                if self.points[start..end]
                    .iter()
                    .any(|p| at_or_below(p, &target))
                {
                    return true;
                }
                continue;
            }
            let middle = (start + end) / 2;
            if !at_or_below(&self.least[middle], &target) {
                continue; // some axis is above the target everywhere in this range
            }
            let median = &self.points[middle];
            if at_or_below(median, &target) {
                return true;
            }
            ranges.push((start, middle, depth + 1));
            // Points after the median are at or above it on the split axis.
            let axis = depth % 4;
            if median[axis] <= target[axis] {
                ranges.push((middle + 1, end, depth + 1));
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rectangle of a small grid of coordinates, checked against a plain scan.
    #[test]
    fn agrees_with_a_scan_of_every_rectangle() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut random_rect = || {
            let (l, t) = (rng.i32(-5..20), rng.i32(-5..20));
            Rect::new(l, t, l + rng.i32(0..15), t + rng.i32(0..15))
        };
        for count in [0, 1, 5, LEAF, LEAF + 1, 200, 3000] {
            let rects: Vec<Rect> = (0..count).map(|_| random_rect()).collect();
            let containers = Containers::new(rects.iter().copied());
            for _ in 0..500 {
                let target = random_rect();
                let scan = rects.iter().any(|r| r.contains_rect(&target));
                assert_eq!(containers.contain(&target), scan, "{count}: {target:?}");
            }
        }
    }

    #[test]
    fn extreme_coordinates_do_not_overflow() {
        let all = Rect::new(i32::MIN, i32::MIN, i32::MAX, i32::MAX);
        let containers = Containers::new([all]);
        assert!(containers.contain(&Rect::new(0, 0, 1, 1)));
        assert!(containers.contain(&all));
        assert!(!Containers::new([Rect::new(0, 0, 1, 1)]).contain(&all));
    }
}
