//! What prepares a screenshot for Tesseract, part by part, against the crates that could
//! do that part; the screenshots are the fallback's 461×1024 (the self-drawn game's title,
//! the demo app's feed) and the feed at its full 1080×2400, in grey.
//!
//! - `regions`: the dark and light regions `polarity` inverts. `hand` is tapscope's one
//!   raster pass (`src/ocr/regions.rs`, which `polarity` uses); `imageproc` is
//!   `connected_components` called once for each connectivity (8 for dark, 4 for light)
//!   and the labels numbered and measured as `hand` numbers and measures them. Both give
//!   the same regions (checked before timing).
//! - `closing`: the paper under the ink, as `level` takes it. `imageproc_lines` is what
//!   `level` uses (`src/ocr/level.rs`: grayscale dilation and erosion along a line across
//!   and a line down); `imageproc_square` is the same with the square mask; `running` is a
//!   running max/min filter of three comparisons a pixel (van Herk/Gil-Werman) over rows
//!   and transposed columns. All three give the same picture (checked before timing).
//!
//! Run with `cargo bench -p tapscope-core --features measure --bench ocr_prepare`.

use std::time::Duration;

use image::{GrayImage, Luma};
use imageproc::morphology::{Mask, grayscale_close};
use imageproc::region_labelling::{Connectivity, connected_components};
use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::specimen;
use tapscope_core::device::{Capture, Device};
use tapscope_core::stability::{Clock, VirtualClock};

#[path = "../src/ocr/regions.rs"]
mod regions;

#[allow(dead_code, reason = "only the closing is timed here")]
#[path = "../src/ocr/level.rs"]
mod level;

use regions::{Region, Regions};

fn main() {
    divan::main();
}

/// The screens prepared, by name.
const SCREENS: [&str; 3] = ["game title 1024", "feed 1024", "feed 2400"];

fn screen(name: &str) -> GrayImage {
    match name {
        "game title 1024" => {
            let png = specimen::game_title(1024).expect("the sim draws").png;
            image::load_from_memory(&png).expect("a PNG").into_luma8()
        }
        "feed 1024" => capture("tv.tapscope.demo", 1024),
        "feed 2400" => capture("tv.tapscope.demo", 2400),
        _ => unreachable!("{name} is not a screen"),
    }
}

/// `package`'s entry screen, settled, as the sim's screenshot no longer than `side`, in grey.
fn capture(package: &str, side: u32) -> GrayImage {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch(package).expect("the package is installed");
    clock.sleep(Duration::from_secs(5));
    match sim.capture(side).expect("the sim draws") {
        Capture::Pixels { pixels, .. } => image::DynamicImage::ImageRgb8(pixels).into_luma8(),
        Capture::Png(bytes) => image::load_from_memory(&bytes).expect("a PNG").into_luma8(),
    }
}

/// The window's half-width `level` uses for `grey`.
fn radius(grey: &GrayImage) -> usize {
    level::radius_for(grey.width().max(grey.height()))
}

#[divan::bench_group(sample_count = 20)]
mod regions_of {
    use super::*;

    #[divan::bench(args = SCREENS)]
    fn hand(bencher: divan::Bencher, name: &str) {
        let grey = screen(name);
        let (w, h) = (grey.width() as usize, grey.height() as usize);
        assert_eq!(
            described(&Regions::of(grey.as_raw(), w, h)),
            described(&by_imageproc(&grey)),
            "the same regions"
        );
        bencher.bench_local(|| Regions::of(grey.as_raw(), w, h));
    }

    #[divan::bench(args = SCREENS)]
    fn imageproc(bencher: divan::Bencher, name: &str) {
        let grey = screen(name);
        bencher.bench_local(|| by_imageproc(&grey));
    }
}

#[divan::bench_group(sample_count = 20)]
mod closing {
    use super::*;

    #[divan::bench(args = SCREENS)]
    fn imageproc_lines(bencher: divan::Bencher, name: &str) {
        let grey = screen(name);
        let r = radius(&grey);
        let closed = level::closing(&grey, r);
        assert!(closed == super::running(&grey, r), "the same paper");
        bencher.bench_local(|| level::closing(&grey, r));
    }

    #[divan::bench(args = SCREENS, sample_count = 5)]
    fn imageproc_square(bencher: divan::Bencher, name: &str) {
        let grey = screen(name);
        let r = radius(&grey);
        let mask = Mask::square(u8::try_from(r).expect("a radius under 256"));
        assert!(
            grayscale_close(&grey, &mask) == super::running(&grey, r),
            "the same paper"
        );
        bencher.bench_local(|| grayscale_close(&grey, &mask));
    }

    #[divan::bench(args = SCREENS)]
    fn running(bencher: divan::Bencher, name: &str) {
        let grey = screen(name);
        let r = radius(&grey);
        bencher.bench_local(|| super::running(&grey, r));
    }
}

/// The regions as `hand` gives them, from two `connected_components` labellings.
fn by_imageproc(grey: &GrayImage) -> Regions {
    let (w, h) = (grey.width(), grey.height());
    let binary: Vec<u8> = grey
        .as_raw()
        .iter()
        .map(|&g| if g < 128 { 0 } else { 255 })
        .collect();
    let binary = GrayImage::from_raw(w, h, binary).expect("its own size");
    let dark = connected_components(&binary, Connectivity::Eight, Luma([255u8]));
    let light = connected_components(&binary, Connectivity::Four, Luma([0u8]));
    let darks = dark.iter().copied().max().unwrap_or(0);
    let lights = light.iter().copied().max().unwrap_or(0);
    let mut number = vec![u32::MAX; (darks + lights + 1) as usize];
    let mut label = vec![0u32; dark.len()];
    let mut found: Vec<Region> = Vec::new();
    let width = w as usize;
    for (i, (&d, &l)) in dark.iter().zip(light.iter()).enumerate() {
        let (x, y) = ((i % width) as u32, (i / width) as u32);
        let raw = if d > 0 { d } else { darks + l } as usize;
        if number[raw] == u32::MAX {
            number[raw] = found.len() as u32;
            found.push(Region {
                dark: d > 0,
                left: x,
                top: y,
                right: x,
                bottom: y,
                area: 0,
                parent: (y > 0).then(|| label[i - width]),
            });
        }
        let n = number[raw];
        label[i] = n;
        let r = &mut found[n as usize];
        r.left = r.left.min(x);
        r.right = r.right.max(x);
        r.bottom = y;
        r.area += 1;
    }
    Regions {
        label,
        regions: found,
    }
}

/// Every pixel's region and every region's colour, box, size and parent, to compare.
type Described = (Vec<u32>, Vec<(bool, [u32; 4], u64, Option<u32>)>);

fn described(regions: &Regions) -> Described {
    let each = regions
        .regions
        .iter()
        .map(|r| {
            let bounds = [r.left, r.top, r.right, r.bottom];
            (r.dark, bounds, r.area, r.parent)
        })
        .collect();
    (regions.label.clone(), each)
}

/// The closing by running max/min filters: rows, then columns by transposing.
fn running(grey: &GrayImage, r: usize) -> GrayImage {
    let (w, h) = (grey.width() as usize, grey.height() as usize);
    let mut paper = grey.as_raw().clone();
    rows(&mut paper, w, r, u8::max);
    let mut t = transpose(&paper, w, h);
    rows(&mut t, h, r, u8::max);
    rows(&mut t, h, r, u8::min);
    let mut paper = transpose(&t, h, w);
    rows(&mut paper, w, r, u8::min);
    GrayImage::from_raw(grey.width(), grey.height(), paper).expect("its own size")
}

/// Each row of `data` replaced by `pick` over a window of `2r + 1`, clipped at the ends:
/// per block of `2r + 1`, the pick from its start and from its end, two of which give any
/// window.
fn rows(data: &mut [u8], width: usize, r: usize, pick: impl Fn(u8, u8) -> u8 + Copy) {
    let window = 2 * r + 1;
    let padded_len = (width + 2 * r).div_ceil(window) * window;
    let (mut padded, mut ahead, mut behind) = (
        vec![0u8; padded_len],
        vec![0u8; padded_len],
        vec![0u8; padded_len],
    );
    for row in data.chunks_exact_mut(width) {
        padded[..r].fill(row[0]);
        padded[r..r + width].copy_from_slice(row);
        padded[r + width..].fill(row[width - 1]);
        for start in (0..padded_len).step_by(window) {
            ahead[start] = padded[start];
            for i in start + 1..start + window {
                ahead[i] = pick(ahead[i - 1], padded[i]);
            }
            let end = start + window - 1;
            behind[end] = padded[end];
            for i in (start..end).rev() {
                behind[i] = pick(behind[i + 1], padded[i]);
            }
        }
        for (x, out) in row.iter_mut().enumerate() {
            *out = pick(behind[x], ahead[x + 2 * r]);
        }
    }
}

/// `data` (`height` rows of `width`) with rows and columns swapped, in cache-sized tiles.
fn transpose(data: &[u8], width: usize, height: usize) -> Vec<u8> {
    const TILE: usize = 32;
    let mut out = vec![0u8; data.len()];
    for y0 in (0..height).step_by(TILE) {
        for x0 in (0..width).step_by(TILE) {
            for y in y0..(y0 + TILE).min(height) {
                for x in x0..(x0 + TILE).min(width) {
                    out[x * height + y] = data[y * width + x];
                }
            }
        }
    }
    out
}
