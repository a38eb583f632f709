//! What the game's and the feed's 1024-px screenshots cost in tokens, as images and as
//! the text of their lines (feature `tokens`).

use std::time::Duration;

use image::ImageEncoder;
use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::specimen;
use tapscope_core::device::{Capture, Device};
use tapscope_core::ocr::TextReader;
use tapscope_core::stability::{Clock, VirtualClock};
use tapscope_core::tokens::{Encoding, image_cost};

/// What the game's and the feed's 1024-px screenshots cost in tokens against their lines.
pub fn print(engine: &dyn TextReader, floor: f32) -> Result<(), Box<dyn std::error::Error>> {
    println!();
    println!(
        "| screenshot | image tokens, OpenAI high / Anthropic | its lines' text, o200k tokens | lines |"
    );
    println!("|---|---|---|---|");
    let feed = feed(1024)?;
    for (name, png) in [
        ("game title", specimen::game_title(1024)?.png),
        ("feed", feed),
    ] {
        let (w, h) = tapscope_core::ocr::png_size(&png)?;
        let lines = engine.read(&png, floor)?;
        let text: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        let text = text.join("\n");
        println!(
            "| {name} {w}×{h} | {} / {} | {} | {} |",
            image_cost::openai_tiles(w, h, image_cost::Detail::High),
            image_cost::anthropic_pixels(w, h),
            Encoding::O200k.count(&text).tokens(),
            lines.len(),
        );
    }
    Ok(())
}

/// The demo app's feed, settled, as the sim's screenshot no longer than `side`.
fn feed(side: u32) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch("tv.tapscope.demo")?;
    clock.sleep(Duration::from_secs(5));
    Ok(match sim.capture(side)? {
        Capture::Pixels { pixels, .. } => {
            let mut png = Vec::new();
            image::codecs::png::PngEncoder::new(&mut png).write_image(
                pixels.as_raw(),
                pixels.width(),
                pixels.height(),
                image::ExtendedColorType::Rgb8,
            )?;
            png
        }
        Capture::Png(png) => png,
    })
}
