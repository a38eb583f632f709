//! PNG encoding of the pictures tapscope makes itself (the sim's frames, scaled
//! screenshots, what Tesseract is given): fast compression and the Sub filter, a small
//! fraction of the default's time at a little more size, since these are read once.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageBuffer, ImageResult, PixelWithColorType};

/// `picture` as a PNG, encoded fast.
pub(crate) fn encode_fast<P>(picture: &ImageBuffer<P, Vec<u8>>) -> ImageResult<Vec<u8>>
where
    P: PixelWithColorType<Subpixel = u8>,
{
    let mut bytes = Vec::new();
    picture.write_with_encoder(PngEncoder::new_with_quality(
        &mut bytes,
        CompressionType::Fast,
        FilterType::Sub,
    ))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use image::{GrayImage, Luma, Rgb, RgbImage};

    use super::encode_fast;

    #[test]
    fn colour_and_grey_pictures_decode_to_what_was_encoded() {
        let colour = RgbImage::from_fn(7, 3, |x, y| Rgb([x as u8 * 30, y as u8 * 80, 200]));
        let decoded = image::load_from_memory(&encode_fast(&colour).unwrap()).unwrap();
        assert_eq!(decoded.to_rgb8(), colour);

        let grey = GrayImage::from_fn(5, 4, |x, y| Luma([(x * 40 + y) as u8]));
        let decoded = image::load_from_memory(&encode_fast(&grey).unwrap()).unwrap();
        assert_eq!(decoded.color(), image::ColorType::L8);
        assert_eq!(decoded.to_luma8(), grey);
    }
}
