//! What Tesseract is given: the image in grey, its ink made dark on white paper
//! ([`super::polarity`], then [`super::level`]), scaled down first when it is far larger
//! than a phone's screen, refused when even decoding it would be a hazard.
//!
//! Tesseract's time grows with the pixels it lays out, and no phone screen is longer than
//! 4K (3840 px): an image longer than [`MAX_SIDE`] would mostly run into the ceiling, and
//! its text is large enough to survive being shrunk. So it is scaled down (area average)
//! to fit, and the words' boxes are mapped back to its own pixels. Over [`MAX_PIXELS`] it
//! is refused before any decoding ([`OcrError::TooLarge`]): the header alone can claim a
//! size whose pixels would not fit in memory.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};

use super::OcrError;
use super::level::{level, radius_for};
use super::polarity::light_paper;
use crate::model::Rect;

/// The longest side read as given; a longer image is scaled down to it.
pub const MAX_SIDE: u32 = 4096;
/// Images with more pixels are refused (256 MiB as RGBA).
pub const MAX_PIXELS: u64 = 64 << 20;

/// The bytes to give Tesseract and how its pixels map back to the image's.
#[derive(Debug)]
pub(super) struct Prepared {
    pub png: Vec<u8>,
    /// The image's width and height.
    pub size: (u32, u32),
    /// The bytes' width and height: `size` unless scaled down.
    pub sent: (u32, u32),
}

impl Prepared {
    /// `r`, in the pixels of what was sent, in the image's own: edges scaled outwards.
    pub fn map_back(&self, r: Rect) -> Rect {
        if self.size == self.sent {
            return r;
        }
        let fx = f64::from(self.size.0) / f64::from(self.sent.0);
        let fy = f64::from(self.size.1) / f64::from(self.sent.1);
        let at = |v: i32, f: f64, up: bool| {
            let v = f64::from(v) * f;
            (if up { v.ceil() } else { v.floor() }) as i32
        };
        Rect::new(
            at(r.left, fx, false),
            at(r.top, fy, false),
            at(r.right, fx, true),
            at(r.bottom, fy, true),
        )
    }
}

/// `png` checked, decoded to grey, scaled down when longer than [`MAX_SIDE`] (doubled
/// when shorter than `upscale_below`), its ink made dark on white ([`light_paper`],
/// [`level`]) and encoded again.
pub(super) fn prepare(png: &[u8], upscale_below: u32) -> Result<Prepared, OcrError> {
    let mut grey = decode(png)?.into_luma8();
    let (width, height) = grey.dimensions();
    let (mut w, mut h) = (width, height);
    if width.max(height) > MAX_SIDE {
        let scale = f64::from(MAX_SIDE) / f64::from(width.max(height));
        let side = |v: u32| ((f64::from(v) * scale).round() as u32).clamp(1, MAX_SIDE);
        (w, h) = (side(width), side(height));
        grey = image::imageops::thumbnail(&grey, w, h);
    } else if width.max(height) < upscale_below {
        (w, h) = (width * 2, height * 2);
        grey = image::imageops::resize(&grey, w, h, image::imageops::FilterType::CatmullRom);
    }
    let grey = level(&light_paper(&grey), radius_for(w.max(h)));
    let bytes = crate::png::encode_fast(&grey).map_err(not_png)?;
    Ok(Prepared {
        png: bytes,
        size: (width, height),
        sent: (w, h),
    })
}

/// `png` decoded, once its header has shown a size under [`MAX_PIXELS`].
pub(super) fn decode(png: &[u8]) -> Result<image::DynamicImage, OcrError> {
    let (width, height) = png_size(png)?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(OcrError::TooLarge {
            width,
            height,
            limit: MAX_PIXELS,
        });
    }
    let mut reader = ImageReader::with_format(Cursor::new(png), ImageFormat::Png);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_PIXELS * 4 + (16 << 20));
    reader.limits(limits);
    reader.decode().map_err(not_png)
}

fn not_png(e: image::ImageError) -> OcrError {
    OcrError::NotPng {
        reason: e.to_string(),
    }
}

/// Width and height from the PNG's header, without decoding its pixels.
pub fn png_size(png: &[u8]) -> Result<(u32, u32), OcrError> {
    let reason = |r: String| OcrError::NotPng { reason: r };
    if png.is_empty() {
        return Err(reason("no bytes".into()));
    }
    let reader = ImageReader::new(Cursor::new(png))
        .with_guessed_format()
        .map_err(|e| reason(e.to_string()))?;
    match reader.format() {
        Some(ImageFormat::Png) => {}
        Some(other) => return Err(reason(format!("a {other:?} image, not a PNG"))),
        None => return Err(reason("no PNG signature".into())),
    }
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| reason(e.to_string()))?;
    if width == 0 || height == 0 {
        return Err(reason("a side of 0 pixels".into()));
    }
    Ok((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        crate::png::encode_fast(&image::GrayImage::from_pixel(
            width,
            height,
            image::Luma([200]),
        ))
        .unwrap()
    }

    /// `png` with its header (IHDR) saying `width` × `height`, its checksum made to match:
    /// a header that claims a size, as a crafted file would.
    fn claiming(mut png: Vec<u8>, width: u32, height: u32) -> Vec<u8> {
        png[16..20].copy_from_slice(&width.to_be_bytes());
        png[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32fast::hash(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        png
    }

    #[test]
    fn the_size_comes_from_the_header_and_junk_is_not_a_png() {
        assert_eq!(png_size(&png(461, 1024)).unwrap(), (461, 1024));
        for junk in [&b""[..], b"GIF89a", &[0u8; 64], &png(3, 3)[..20]] {
            assert!(
                matches!(png_size(junk), Err(OcrError::NotPng { .. })),
                "{junk:?}"
            );
        }
        let zero = claiming(png(3, 3), 0, 3);
        assert!(matches!(png_size(&zero), Err(OcrError::NotPng { .. })));
        // A header whose checksum does not match is damaged, not a size to trust.
        let mut damaged = png(3, 3);
        damaged[16..20].copy_from_slice(&7u32.to_be_bytes());
        assert!(matches!(png_size(&damaged), Err(OcrError::NotPng { .. })));
        assert_eq!(png_size(&claiming(png(3, 3), 7, 9)).unwrap(), (7, 9));
    }

    #[test]
    fn a_phone_sized_image_keeps_its_size_and_its_pixels_their_places() {
        let bytes = png(1440, 3200);
        let prepared = prepare(&bytes, 0).unwrap();
        assert_eq!((prepared.size, prepared.sent), ((1440, 3200), (1440, 3200)));
        assert_eq!(png_size(&prepared.png).unwrap(), (1440, 3200));
        let r = Rect::new(3, 4, 50, 60);
        assert_eq!(prepared.map_back(r), r);
    }

    #[test]
    fn a_longer_image_is_scaled_to_fit_and_boxes_map_back_to_it() {
        let bytes = png(2000, 8192);
        let prepared = prepare(&bytes, 0).unwrap();
        assert_eq!(prepared.sent, (1000, 4096));
        assert_eq!(png_size(&prepared.png).unwrap(), (1000, 4096));
        assert_eq!(
            prepared.map_back(Rect::new(10, 11, 21, 31)),
            Rect::new(20, 22, 42, 62)
        );
    }

    #[test]
    fn a_small_image_is_doubled_when_asked_and_boxes_map_back_to_it() {
        let bytes = png(461, 1024);
        assert_eq!(prepare(&bytes, 1024).unwrap().sent, (461, 1024));
        let prepared = prepare(&bytes, 1600).unwrap();
        assert_eq!(prepared.sent, (922, 2048));
        assert_eq!(png_size(&prepared.png).unwrap(), (922, 2048));
        assert_eq!(
            prepared.map_back(Rect::new(21, 41, 60, 81)),
            Rect::new(10, 20, 30, 41)
        );
    }

    #[test]
    fn a_header_claiming_too_many_pixels_is_refused_before_decoding() {
        let bytes = claiming(png(3, 3), 20_000, 20_000);
        match prepare(&bytes, 0) {
            Err(OcrError::TooLarge { width, height, .. }) => {
                assert_eq!((width, height), (20_000, 20_000));
            }
            other => panic!("{other:?}"),
        }
        // Claiming to be long but holding 3×3 pixels: a decoding error, not a panic.
        let lying = claiming(png(3, 3), 3, 5_000);
        assert!(matches!(prepare(&lying, 0), Err(OcrError::NotPng { .. })));
    }
}
