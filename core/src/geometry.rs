//! Points on the display, the free part of a rectangle under obstacles, and the exact
//! mapping between a downsampled screenshot's pixels and the display's.

use serde::{Deserialize, Serialize};

use crate::model::{Rect, Size};

/// A pixel position: on the display unless a function says it is in the image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The centre of a rectangle, rounded down (inside it whenever it is not empty).
    pub fn center_of(rect: &Rect) -> Self {
        let (x, y) = rect.center();
        Self { x, y }
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The largest part of `area` left free by `obstacles`, found greedily: each obstacle
/// that overlaps what is left keeps only the largest of the four full-length bands
/// beside it (above, below, left, right; ties in that order). `None` when an obstacle
/// leaves nothing.
pub fn largest_free_part(area: Rect, obstacles: impl IntoIterator<Item = Rect>) -> Option<Rect> {
    let mut free = area;
    for obstacle in obstacles {
        let overlap = free.intersect(&obstacle);
        if overlap.is_empty() {
            continue;
        }
        let bands = [
            Rect::new(free.left, free.top, free.right, overlap.top),
            Rect::new(free.left, overlap.bottom, free.right, free.bottom),
            Rect::new(free.left, free.top, overlap.left, free.bottom),
            Rect::new(overlap.right, free.top, free.right, free.bottom),
        ];
        // max_by_key keeps the last of equals; reversing keeps the first.
        free = bands
            .into_iter()
            .rev()
            .filter(|band| !band.is_empty())
            .max_by_key(Rect::area)?;
    }
    Some(free)
}

/// Why a point could not be mapped between a screenshot and the display.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScaleError {
    #[error(
        "{point} is outside the {width}x{height} {space}: x runs from 0 to {max_x} and y from 0 to {max_y}",
        max_x = width - 1,
        max_y = height - 1
    )]
    Outside {
        point: Point,
        space: &'static str,
        width: i32,
        height: i32,
    },
    #[error("the {space} size {width}x{height} is empty: both sides must be at least 1 pixel")]
    EmptySize {
        space: &'static str,
        width: i32,
        height: i32,
    },
}

/// A screenshot of `image` pixels taken of a display of `display` pixels, both in the
/// rotated frame the dump reports (a landscape display is wider than it is tall).
///
/// The mapping, in words: an image pixel stands for the display pixel under its centre.
/// Image pixel `x` becomes display `x' = floor((x + 0.5) × display_width / image_width)`,
/// which is `round((x + 0.5) × display_width / image_width − 0.5)` with halves rounded
/// up, kept within `0..display_width`; the same for `y` with heights. The reverse
/// mapping is the same rule with image and display swapped. Points outside the space
/// they come from are refused, never clamped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageScale {
    pub display: Size,
    pub image: Size,
}

impl ImageScale {
    /// The display pixel an image pixel stands for.
    pub fn image_to_display(&self, p: Point) -> Result<Point, ScaleError> {
        map(p, self.image, "image", self.display, "display")
    }

    /// The image pixel that shows a display pixel.
    pub fn display_to_image(&self, p: Point) -> Result<Point, ScaleError> {
        map(p, self.display, "display", self.image, "image")
    }

    /// The display area an image rectangle shows: its edges scaled, outward.
    pub fn rect_to_display(&self, r: Rect) -> Rect {
        let scale = |v: i32, to: i32, from: i32, up: bool| {
            let (v, to, from) = (i64::from(v), i64::from(to), i64::from(from.max(1)));
            let scaled = if up {
                (v * to + from - 1) / from
            } else {
                v * to / from
            };
            i32::try_from(scaled).unwrap_or(i32::MAX)
        };
        let (d, i) = (self.display, self.image);
        Rect::new(
            scale(r.left, d.width, i.width, false),
            scale(r.top, d.height, i.height, false),
            scale(r.right, d.width, i.width, true),
            scale(r.bottom, d.height, i.height, true),
        )
    }

    /// The mapping in one sentence, with this screenshot's numbers, for the model.
    pub fn rule(&self) -> String {
        let (dw, dh, iw, ih) = (
            self.display.width,
            self.display.height,
            self.image.width,
            self.image.height,
        );
        format!(
            "The screenshot is {iw}x{ih} pixels of a {dw}x{dh} display. Give taps in screenshot \
             pixels: the image pixel (x, y) is tapped at display \
             (floor((x + 0.5) * {dw} / {iw}), floor((y + 0.5) * {dh} / {ih}))."
        )
    }
}

fn map(
    p: Point,
    from: Size,
    from_name: &'static str,
    to: Size,
    to_name: &'static str,
) -> Result<Point, ScaleError> {
    for (size, space) in [(from, from_name), (to, to_name)] {
        if size.width < 1 || size.height < 1 {
            return Err(ScaleError::EmptySize {
                space,
                width: size.width,
                height: size.height,
            });
        }
    }
    if !(0..from.width).contains(&p.x) || !(0..from.height).contains(&p.y) {
        return Err(ScaleError::Outside {
            point: p,
            space: from_name,
            width: from.width,
            height: from.height,
        });
    }
    Ok(Point {
        x: map_axis(p.x, from.width, to.width),
        y: map_axis(p.y, from.height, to.height),
    })
}

/// `floor((v + 0.5) × to / from)` in integers: `(2v + 1) × to / (2 × from)`.
fn map_axis(v: i32, from: i32, to: i32) -> i32 {
    let scaled = (2 * i64::from(v) + 1) * i64::from(to) / (2 * i64::from(from));
    // Already below `to` for any v < from; the clamp only guards the conversion.
    i32::try_from(scaled.clamp(0, i64::from(to) - 1)).unwrap_or(to - 1)
}

/// The size of a screenshot of `display` whose longest side is at most `longest_side`.
///
/// The aspect ratio is kept: the longest side becomes `longest_side` and the other is
/// scaled by the same factor, rounded to the nearest pixel (halves up). A display that
/// already fits is returned unchanged, so the image is never larger than the display.
/// No side is ever 0: `longest_side` 0 counts as 1, and so does a display side below 1.
pub fn downsampled(display: Size, longest_side: u32) -> Size {
    let width = i64::from(display.width.max(1));
    let height = i64::from(display.height.max(1));
    let longest = width.max(height);
    let target = i64::from(longest_side.max(1));
    if longest <= target {
        return Size {
            width: width as i32,
            height: height as i32,
        };
    }
    // round(side × target / longest), halves up; at most `target`, which fits in i32 here.
    let scale = |side: i64| ((2 * side * target + longest) / (2 * longest)).max(1) as i32;
    Size {
        width: scale(width),
        height: scale(height),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn size(width: i32, height: i32) -> Size {
        Size { width, height }
    }

    #[test]
    fn free_part_keeps_the_largest_band_and_gives_up_when_covered() {
        let item = Rect::new(0, 0, 1000, 100);
        let button = Rect::new(400, 0, 500, 100);
        assert_eq!(
            largest_free_part(item, [button]),
            Some(Rect::new(500, 0, 1000, 100))
        );
        assert_eq!(largest_free_part(item, []), Some(item));
        assert_eq!(
            largest_free_part(item, [Rect::new(-5, -5, 2000, 200)]),
            None
        );
        let disjoint = Rect::new(0, 500, 100, 600);
        assert_eq!(largest_free_part(item, [disjoint]), Some(item));
        // Equal bands: above wins over below, left over right.
        let middle = Rect::new(0, 40, 1000, 60);
        assert_eq!(
            largest_free_part(item, [middle]),
            Some(Rect::new(0, 0, 1000, 40))
        );
    }

    /// Rotation 0 and 2 lay the display out in portrait, 1 and 3 in landscape; bounds
    /// and the display size are already in that frame, so only the shape matters.
    const SHAPES: [(u8, Size, Size); 4] = [
        (0, size(1080, 2400), size(461, 1024)),
        (1, size(2400, 1080), size(1024, 461)),
        (2, size(1080, 2400), size(461, 1024)),
        (3, size(2400, 1080), size(1024, 461)),
    ];

    #[test]
    fn every_rotation_maps_edges_and_middle_exactly() {
        for (rotation, display, image) in SHAPES {
            assert_eq!(downsampled(display, 1024), image, "rotation {rotation}");
            let scale = ImageScale { display, image };
            let last = Point::new(image.width - 1, image.height - 1);
            let last_display = Point::new(display.width - 1, display.height - 1);
            // The first pixel's centre lies in display pixel 1 (0.5 × 2.34 = 1.17).
            assert_eq!(
                scale.image_to_display(Point::new(0, 0)),
                Ok(Point::new(1, 1))
            );
            assert_eq!(
                scale.image_to_display(last),
                Ok(Point::new(display.width - 2, display.height - 2)),
                "rotation {rotation}"
            );
            let middle = Point::new(image.width / 2, image.height / 2);
            let expected = |v: i32, d: i32, i: i32| ((v as f64 + 0.5) * d as f64 / i as f64) as i32;
            assert_eq!(
                scale.image_to_display(middle),
                Ok(Point::new(
                    expected(middle.x, display.width, image.width),
                    expected(middle.y, display.height, image.height)
                ))
            );
            assert_eq!(
                scale.display_to_image(Point::new(0, 0)),
                Ok(Point::new(0, 0))
            );
            assert_eq!(scale.display_to_image(last_display), Ok(last));
        }
    }

    #[test]
    fn parsed_rotations_give_the_display_in_the_rotated_frame() {
        for rotation in 0..4 {
            let (w, h) = if rotation % 2 == 0 {
                (1080, 2400)
            } else {
                (2400, 1080)
            };
            let xml = format!(
                r#"<hierarchy rotation="{rotation}"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][{w},{h}]"><node class="android.widget.Button" package="app" text="Play" clickable="true" bounds="[{l},{t}][{r},{b}]"/></node></hierarchy>"#,
                l = w - 200,
                t = h - 100,
                r = w,
                b = h
            );
            let tree = crate::parse::parse_str(&xml).unwrap();
            assert_eq!((tree.rotation, tree.display), (rotation, size(w, h)));
            let scale = ImageScale {
                display: tree.display,
                image: downsampled(tree.display, 1024),
            };
            // The button in the bottom-right corner is found and tapped through the image.
            let button = Point::center_of(&tree.nodes[1].bounds);
            let in_image = scale.display_to_image(button).unwrap();
            let tapped = scale.image_to_display(in_image).unwrap();
            assert!(tree.nodes[1].bounds.left <= tapped.x && tapped.y >= tree.nodes[1].bounds.top);
            assert!((tapped.x - button.x).abs() <= 3 && (tapped.y - button.y).abs() <= 3);
        }
    }

    #[test]
    fn round_trips_are_exact_one_way_and_within_one_image_pixel_the_other() {
        for (_, display, image) in SHAPES {
            let scale = ImageScale { display, image };
            let step_x = (display.width + image.width - 1) / image.width;
            let step_y = (display.height + image.height - 1) / image.height;
            for x in 0..image.width {
                let p = Point::new(x, x % image.height);
                let there = scale.image_to_display(p).unwrap();
                assert_eq!(scale.display_to_image(there), Ok(p));
            }
            for x in 0..display.width {
                let p = Point::new(x, x % display.height);
                let back = scale
                    .image_to_display(scale.display_to_image(p).unwrap())
                    .unwrap();
                assert!((back.x - p.x).abs() <= step_x, "{p} came back as {back}");
                assert!((back.y - p.y).abs() <= step_y, "{p} came back as {back}");
            }
        }
    }

    #[test]
    fn points_outside_and_empty_sizes_are_refused() {
        let scale = ImageScale {
            display: size(1080, 2400),
            image: size(461, 1024),
        };
        let err = scale.image_to_display(Point::new(461, 10)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "(461, 10) is outside the 461x1024 image: x runs from 0 to 460 and y from 0 to 1023"
        );
        assert!(scale.image_to_display(Point::new(-1, 0)).is_err());
        assert!(scale.display_to_image(Point::new(0, 2400)).is_err());
        let empty = ImageScale {
            display: size(1080, 2400),
            image: size(0, 1024),
        };
        assert_eq!(
            empty
                .image_to_display(Point::new(0, 0))
                .unwrap_err()
                .to_string(),
            "the image size 0x1024 is empty: both sides must be at least 1 pixel"
        );
    }

    #[test]
    fn same_size_maps_to_itself_and_upscaling_spreads() {
        let same = ImageScale {
            display: size(720, 1280),
            image: size(720, 1280),
        };
        for p in [
            Point::new(0, 0),
            Point::new(359, 640),
            Point::new(719, 1279),
        ] {
            assert_eq!(same.image_to_display(p), Ok(p));
        }
        let tiny = ImageScale {
            display: size(4, 4),
            image: size(2, 2),
        };
        assert_eq!(
            tiny.image_to_display(Point::new(1, 1)),
            Ok(Point::new(3, 3))
        );
        assert_eq!(
            tiny.display_to_image(Point::new(1, 2)),
            Ok(Point::new(0, 1))
        );
    }

    #[test]
    fn downsampling_keeps_aspect_and_never_grows_or_vanishes() {
        assert_eq!(downsampled(size(1080, 2400), 4000), size(1080, 2400));
        assert_eq!(downsampled(size(1080, 2400), 2400), size(1080, 2400));
        assert_eq!(downsampled(size(1080, 2400), 1200), size(540, 1200));
        assert_eq!(downsampled(size(1000, 1000), 333), size(333, 333));
        // 3 × 2 / 4000 rounds to 0: kept at 1.
        assert_eq!(downsampled(size(4000, 3), 2), size(2, 1));
        assert_eq!(downsampled(size(1080, 2400), 0), size(1, 1));
        assert_eq!(downsampled(size(0, 0), 100), size(1, 1));
    }

    #[test]
    fn rule_states_the_numbers() {
        let scale = ImageScale {
            display: size(1080, 2400),
            image: size(461, 1024),
        };
        assert!(
            scale
                .rule()
                .contains("(floor((x + 0.5) * 1080 / 461), floor((y + 0.5) * 2400 / 1024))")
        );
    }
}
