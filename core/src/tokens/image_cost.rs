//! What a screenshot costs an agent in tokens, to set against the text of the lines read
//! from it: the providers' published formulas, from the image's size alone.
//!
//! - OpenAI (GPT-4o's figures; "Images and vision", *Calculating costs*,
//!   <https://platform.openai.com/docs/guides/images-vision#calculating-costs>): `low`
//!   detail is 85 tokens. `high` detail scales the image to fit a 2048×2048 square, then
//!   so that its shortest side is 768 px, and costs 85 + 170 per 512-px tile covering it.
//!   The documentation's own examples are 1024×1024 → 765 and 2048×4096 → 1105. An image
//!   whose shortest side is already under 768 px is not scaled up: a 128×64 image is
//!   billed one tile, as users measured it
//!   (<https://community.openai.com/t/vision-more-than-one-way-to-send-a-request-undocumented-and-different-pricing-realized/1262691>).
//!   Some models put other figures in the same formula (GPT-4o mini: 2833 + 5667 a
//!   tile) and GPT-4.1 mini and nano count 32-px patches instead: this is GPT-4o's.
//! - Anthropic (Claude; "Vision", *Evaluate image size*,
//!   <https://docs.anthropic.com/en/docs/build-with-claude/vision>): about
//!   width × height / 750 tokens, after an image whose long edge is over 1568 px, or that
//!   would be over about 1600 tokens, is scaled down until it is neither (1092×1092 is
//!   its table's square).
//!
//! Scaled sides are rounded down, as the providers' examples are.

/// OpenAI's `detail` setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// 512×512 at most, a fixed 85 tokens.
    Low,
    /// Tiles of 512 px: what `auto` picks for a phone screenshot.
    High,
}

const BASE: u64 = 85;
const PER_TILE: u64 = 170;
const TILE: u64 = 512;

/// The tokens OpenAI's tile formula charges for a `width`×`height` image.
pub fn openai_tiles(width: u32, height: u32, detail: Detail) -> u64 {
    if detail == Detail::Low {
        return BASE;
    }
    let (long, short) = sides(width, height);
    // Fit a 2048×2048 square, then the shortest side down to 768.
    let (long, short) = if long > 2048 {
        (2048, short * 2048 / long)
    } else {
        (long, short)
    };
    let (long, short) = if short > 768 {
        (long * 768 / short, 768)
    } else {
        (long, short)
    };
    let tiles = |side: u64| side.max(1).div_ceil(TILE);
    BASE + PER_TILE * tiles(long) * tiles(short)
}

/// The tokens Anthropic's formula gives a `width`×`height` image (its estimate, rounded
/// up).
pub fn anthropic_pixels(width: u32, height: u32) -> u64 {
    let (long, short) = sides(width, height);
    let (long, short) = if long > 1568 {
        (1568, (short * 1568 / long).max(1))
    } else {
        (long, short)
    };
    let (long, short) = if long * short > MAX_PIXELS {
        let ratio = (MAX_PIXELS as f64 / (long * short) as f64).sqrt();
        let scaled = |side: u64| ((side as f64 * ratio).floor() as u64).max(1);
        (scaled(long), scaled(short))
    } else {
        (long, short)
    };
    (long * short).div_ceil(750)
}

/// About 1600 tokens' worth of pixels: the most Anthropic keeps.
const MAX_PIXELS: u64 = 1600 * 750;

/// The long and the short side, at least 1 px each.
fn sides(width: u32, height: u32) -> (u64, u64) {
    let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
    (w.max(h), w.min(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_matches_its_documented_examples() {
        assert_eq!(openai_tiles(1024, 1024, Detail::High), 765);
        assert_eq!(openai_tiles(2048, 4096, Detail::High), 1105);
        assert_eq!(openai_tiles(4096, 8192, Detail::Low), 85);
        // Not scaled up: one tile.
        assert_eq!(openai_tiles(128, 64, Detail::High), 255);
    }

    #[test]
    fn phone_screenshots() {
        // The fallback's 1024-px-long screenshot of a 1080×2400 phone: 1×2 tiles.
        assert_eq!(openai_tiles(461, 1024, Detail::High), 425);
        // 1024 wide (1080×2400 scaled to 1024×2276): 921×2048, then 768×1707: 2×4 tiles.
        assert_eq!(openai_tiles(1024, 2276, Detail::High), 1445);
        // The full 1080×2400: 921×2048 again.
        assert_eq!(openai_tiles(1080, 2400, Detail::High), 1445);
        assert_eq!(anthropic_pixels(461, 1024), 630);
        // 1024×2276 to 705×1568.
        assert_eq!(anthropic_pixels(1024, 2276), 1474);
        assert_eq!(anthropic_pixels(0, 0), 1);
        // Square: 1568×1568 would be 3279 tokens; scaled to 1095×1095, at most 1600.
        assert_eq!(anthropic_pixels(2000, 2000), 1599);
    }
}
