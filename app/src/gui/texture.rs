//! Screenshots as textures: uploaded once, halved until the GPU takes them.

use std::sync::Arc;

use egui::{Color32, ColorImage};

/// Uploads a screenshot as a texture named after what it shows, halved until the GPU
/// takes it.
pub fn upload_screenshot(
    ctx: &egui::Context,
    image: &Arc<ColorImage>,
    name: &str,
) -> egui::TextureHandle {
    let image = fit_texture(image, ctx.input(|i| i.max_texture_side));
    let options = egui::TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
    ctx.load_texture(format!("screenshot of {name}"), image, options)
}

/// Halves the screenshot until it fits the largest texture the GPU takes
/// (phone screenshots can be taller than 2048 pixels).
fn fit_texture(image: &Arc<ColorImage>, max_side: usize) -> Arc<ColorImage> {
    let mut image = Arc::clone(image);
    while image.size[0].min(image.size[1]) > 0 && image.size[0].max(image.size[1]) > max_side.max(1)
    {
        image = Arc::new(half_size(&image));
    }
    image
}

/// Each pixel the average of a 2×2 block (colours are premultiplied, so plain means are right).
fn half_size(image: &ColorImage) -> ColorImage {
    let [w, h] = image.size;
    let size = [(w / 2).max(1), (h / 2).max(1)];
    let at = |x: usize, y: usize| image.pixels[y.min(h - 1) * w + x.min(w - 1)];
    let pixels = (0..size[1])
        .flat_map(|y| (0..size[0]).map(move |x| (2 * x, 2 * y)))
        .map(|(x, y)| average([at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)]))
        .collect();
    ColorImage::new(size, pixels)
}

fn average(colors: [Color32; 4]) -> Color32 {
    let mean = |channel: fn(&Color32) -> u8| {
        let sum: u16 = colors.iter().map(|c| u16::from(channel(c))).sum();
        ((sum + 2) / 4) as u8
    };
    Color32::from_rgba_premultiplied(
        mean(|c| c.r()),
        mean(|c| c.g()),
        mean(|c| c.b()),
        mean(|c| c.a()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_halved_until_they_fit() {
        let image = Arc::new(ColorImage::filled([1080, 2400], Color32::RED));
        let fitted = fit_texture(&image, 2048);
        assert_eq!(fitted.size, [540, 1200]);
        assert_eq!(fitted.pixels[0], Color32::RED);
        assert!(Arc::ptr_eq(&fit_texture(&image, 4096), &image));
    }
}
