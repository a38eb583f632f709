//! Pictures the OCR tests draw, as the PNG bytes a reader is given.

use image::{ImageEncoder, RgbImage};

/// `img` encoded as a PNG.
pub fn png(img: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("an image encodes in memory");
    bytes
}
