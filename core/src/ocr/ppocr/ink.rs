//! Boxes fitted to the ink. The detector's boxes are grown around the text (the
//! recognizer reads better with a margin), and a word's place along its line is known only
//! to the recognizer's step, 8 px of its input; an agent taps the middle and a person
//! sees the outline, so both are fitted to the pixels that differ from the box's paper.
//!
//! The paper is the median grey of the box's edge; ink is what differs from it by at least
//! half the strongest difference inside. On a photo or game art there may be no paper, and
//! the fit then keeps most of the box: it never grows one.

use image::RgbImage;

use crate::model::Rect;

/// Ink differs from the paper by at least this (of 255), however faint the strongest is.
const MIN_DIFFERENCE: u8 = 16;

/// `within` (in `image`'s pixels) shrunk to the ink inside it; `within` itself when it
/// holds no ink or is empty.
pub fn fit(image: &RgbImage, within: Rect) -> Rect {
    let (width, height) = image.dimensions();
    let clipped = within.intersect(&Rect::new(0, 0, width as i32, height as i32));
    if clipped.width() < 3 || clipped.height() < 3 {
        return within;
    }
    // Grey as Rec. 601 weighs it, in integers.
    let at = |x: i32, y: i32| {
        let [r, g, b] = image.get_pixel(x as u32, y as u32).0;
        ((u32::from(r) * 299 + u32::from(g) * 587 + u32::from(b) * 114) / 1000) as u8
    };
    let mut edge: Vec<u8> = Vec::new();
    for x in clipped.left..clipped.right {
        edge.push(at(x, clipped.top));
        edge.push(at(x, clipped.bottom - 1));
    }
    for y in clipped.top..clipped.bottom {
        edge.push(at(clipped.left, y));
        edge.push(at(clipped.right - 1, y));
    }
    edge.sort_unstable();
    let paper = edge[edge.len() / 2];
    let difference = |x: i32, y: i32| at(x, y).abs_diff(paper);
    let mut strongest = 0;
    for y in clipped.top..clipped.bottom {
        for x in clipped.left..clipped.right {
            strongest = strongest.max(difference(x, y));
        }
    }
    let threshold = (strongest / 2).max(MIN_DIFFERENCE);
    if strongest < threshold {
        return within;
    }
    let mut ink: Option<Rect> = None;
    for y in clipped.top..clipped.bottom {
        for x in clipped.left..clipped.right {
            if difference(x, y) >= threshold {
                let pixel = Rect::new(x, y, x + 1, y + 1);
                ink = Some(ink.map_or(pixel, |r| r.union(&pixel)));
            }
        }
    }
    ink.unwrap_or(within)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w` × `h` grey image of `paper` with `ink` filled in each box.
    fn image(w: u32, h: u32, paper: u8, ink: u8, boxes: &[Rect]) -> RgbImage {
        RgbImage::from_fn(w, h, |x, y| {
            let inside = boxes.iter().any(|r| {
                (x as i32) >= r.left
                    && (x as i32) < r.right
                    && (y as i32) >= r.top
                    && (y as i32) < r.bottom
            });
            image::Rgb([if inside { ink } else { paper }; 3])
        })
    }

    #[test]
    fn a_grown_box_shrinks_to_its_text_dark_on_light_or_light_on_dark() {
        let text = Rect::new(30, 20, 90, 40);
        for (paper, ink) in [(250, 20), (20, 230), (200, 120)] {
            let grey = image(200, 100, paper, ink, &[text]);
            assert_eq!(fit(&grey, Rect::new(10, 5, 120, 60)), text, "{paper} {ink}");
        }
    }

    #[test]
    fn a_box_without_ink_or_outside_the_image_is_kept() {
        let blank = image(100, 50, 128, 128, &[]);
        let r = Rect::new(10, 10, 60, 40);
        assert_eq!(fit(&blank, r), r);
        let off = Rect::new(200, 200, 260, 240);
        assert_eq!(fit(&blank, off), off);
        // Faint texture under the minimum difference is not ink.
        let faint = image(100, 50, 128, 136, &[Rect::new(20, 20, 30, 30)]);
        assert_eq!(fit(&faint, r), r);
    }
}
