//! Pictures of known words, for measuring how well OCR reads the sim's screens: each a
//! PNG drawn by the sim's own painter and font with every word's box.
//!
//! [`render`] draws a phone-sized screen (1080×2400) of the words real screens show
//! ("Settings", "Wi-Fi", "Search videos", "12:45", …), several to a line at seeded
//! places, at one text size and one [`Contrast`]; about one line in four is reversed
//! (light ink on a dark band) at the same contrast. [`game_title`] is the self-drawn
//! game's title screen as the sim's screenshots show it. The same arguments give the
//! same picture, byte for byte.
//!
//! A word is a run of characters without spaces, as drawn. Its box is its **ink box**:
//! the tight box of the image pixels its glyphs cover by at least 1/64 (right and
//! bottom exclusive), in the image's pixels.

use image::Rgb;

use crate::device::{Device, DeviceError};
use crate::model::Rect;
use crate::stability::{Clock, VirtualClock};

use super::draw::{self, Placed};
use super::{DISPLAY, Sim, encode};

/// A picture and the words drawn on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Specimen {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Every word drawn, in drawing order (line by line, left to right), with its ink
    /// box in image pixels.
    pub words: Vec<(String, Rect)>,
}

/// How far the ink stands from its paper, as a WCAG contrast ratio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contrast {
    /// 15:1, the sim's own text on its page.
    High,
    /// 4.5:1, the least WCAG asks of body text.
    Medium,
    /// 2:1, faint secondary text.
    Low,
}

impl Contrast {
    pub const ALL: [Contrast; 3] = [Contrast::High, Contrast::Medium, Contrast::Low];

    /// The contrast ratio, `ratio`:1.
    pub fn ratio(self) -> f32 {
        match self {
            Contrast::High => 15.0,
            Contrast::Medium => 4.5,
            Contrast::Low => 2.0,
        }
    }
}

/// Words and phrases of real screens: settings, media, dialogs, figures.
const VOCABULARY: [&str; 64] = [
    "Settings",
    "Wi-Fi",
    "Bluetooth",
    "Battery",
    "Search videos",
    "12:45",
    "Airplane mode",
    "Dark theme",
    "Location",
    "Do not disturb",
    "About phone",
    "Notifications",
    "Display",
    "Storage",
    "Subscribe",
    "Share",
    "Save",
    "Comments 214",
    "Now playing",
    "Home",
    "Library",
    "Downloads",
    "Open",
    "Cancel",
    "Allow",
    "Don't allow",
    "OK",
    "Next",
    "Back",
    "Sign in",
    "Password",
    "Reply",
    "Account",
    "Privacy",
    "Sound",
    "Vibration",
    "Brightness",
    "Apps",
    "Update",
    "Install",
    "Camera",
    "Photos",
    "Messages",
    "Contacts",
    "Calendar",
    "Alarm",
    "Maps",
    "Music",
    "Play",
    "Pause",
    "Live",
    "Create",
    "714K views",
    "3:59",
    "1:02:33",
    "98%",
    "5G",
    "09:30",
    "23:59",
    "Sat 12 Dec",
    "2.4 GHz",
    "Only this time",
    "Battery saver",
    "Auto-rotate screen",
];

const WIDTH: u32 = DISPLAY.width as u32;
const HEIGHT: u32 = DISPLAY.height as u32;

/// A phone-sized picture of seeded words, `text_px` pixels high (the font's ascent to
/// descent; a capital is about 0.62 of it), at `contrast`.
pub fn render(seed: u64, text_px: u32, contrast: Contrast) -> Result<Specimen, DeviceError> {
    let px = text_px.clamp(6, 400) as f32;
    let mut rng = fastrand::Rng::with_seed(seed);
    let (light, dark) = (Rgb([250, 250, 250]), Rgb([30, 30, 36]));
    let (line_w, line_h) = (WIDTH as i32, draw::measure("Ag", px).1.ceil() as i32);
    let (margin, pitch) = ((px * 1.2) as i32 + 24, line_h + (px * 0.6) as i32 + 8);
    let mut bands = Vec::new();
    let mut texts = Vec::new();
    let mut top = margin;
    while top + line_h + margin <= HEIGHT as i32 {
        let reversed = rng.u8(0..4) == 0;
        let paper = if reversed { dark } else { light };
        if reversed {
            let pad = (px * 0.3) as i32 + 4;
            bands.push((Rect::new(0, top - pad, line_w, top + line_h + pad), dark));
        }
        let ink = draw::ink_at_contrast(paper, contrast.ratio());
        let mut x = margin + rng.i32(0..=(px as i32 * 2));
        loop {
            let text = VOCABULARY[rng.usize(0..VOCABULARY.len())];
            let w = draw::measure(text, px).0.ceil() as i32;
            if x + w > line_w - margin {
                break;
            }
            texts.push(Placed {
                text: text.to_owned(),
                at: (x, top),
                px,
                ink,
            });
            x += w + (px * (1.0 + rng.f32() * 1.5)) as i32;
        }
        top += pitch;
    }
    let (img, words) = draw::placed(WIDTH, HEIGHT, light, &bands, &texts);
    packed(&img, words)
}

/// The self-drawn game's title screen ("Blocks", "Score 0", "Play", "Settings", and the
/// status bar's clock and battery) as a screenshot no larger than `longest_side` on its
/// longest side (2400 for the display's size; the fallback screenshot tapscope sends an
/// agent is 1024).
pub fn game_title(longest_side: u32) -> Result<Specimen, DeviceError> {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch("tv.tapscope.blocks")?;
    clock.sleep(std::time::Duration::from_secs(5));
    let longest = DISPLAY.width.max(DISPLAY.height);
    let scale = (f64::from(longest_side.max(1)) / f64::from(longest)).min(1.0);
    let (img, words) = sim.draw_words(scale, true)?;
    packed(&img, words)
}

#[cfg(test)]
mod tests;

/// `img` as a PNG, with the boxes of the words drawn on it.
fn packed(img: &image::RgbImage, words: Vec<(String, Rect)>) -> Result<Specimen, DeviceError> {
    let png = encode::png(img).map_err(super::screenshot_failed)?;
    Ok(Specimen {
        png,
        width: img.width(),
        height: img.height(),
        words,
    })
}
