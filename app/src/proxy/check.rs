//! The proxy's own look at a phone, on a connection of its own to the real adb server
//! (so it is never mistaken for an agent's): a stock dump (`--check tree`) or a
//! screenshot (`--check pixels`); and the pixels under a point on two screenshots
//! compared.

use std::net::SocketAddrV4;
use std::sync::Arc;
use std::time::Duration;

use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::{Capture, Device};
use tapscope_core::model::Rect;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::{Check, Landed};
use tapscope_core::session::Observation;
use tapscope_core::stability::look::{LookBackend, LookChoice};

/// What the proxy's look saw.
#[derive(Debug)]
pub enum Checked {
    Tree(Arc<Observation>),
    Pixels(Arc<Capture>),
    /// The look failed: why (the action still goes on).
    Failed(String),
}

/// Looks at `serial` as `check` says; `Check::None` looks at nothing.
pub fn look(upstream: SocketAddrV4, serial: &str, check: Check) -> Checked {
    let device = AdbDevice::connect_at(upstream, Some(serial));
    let looked = device
        .map_err(|e| e.to_string())
        .and_then(|mut device| match check {
            Check::Tree => {
                let raw = device.dump().map_err(|e| e.to_string())?;
                let seen = Observation::of_dump(raw, &PruneRules::default(), Duration::ZERO)
                    .map_err(|e| format!("the dump does not parse: {e}"))?;
                Ok(Checked::Tree(Arc::new(seen)))
            }
            Check::Pixels => device
                .capture(u32::MAX)
                .map(|capture| Checked::Pixels(Arc::new(capture)))
                .map_err(|e| e.to_string()),
            Check::None => Err("no check was asked for".to_owned()),
        });
    looked.unwrap_or_else(Checked::Failed)
}

/// As [`look`], on a phone whose uiautomator2 server holds UiAutomation (Android lets
/// one client have it, so a stock dump fails there): the tree through the server's own
/// `dumpWindowHierarchy`, on a `tcp:9008` connection of the proxy's own.
pub fn look_through_u2(upstream: SocketAddrV4, serial: &str, check: Check) -> Checked {
    if check != Check::Tree {
        return look(upstream, serial, check);
    }
    let seen =
        AdbDevice::connect_looking(upstream, Some(serial), LookChoice::Only(LookBackend::U2))
            .and_then(|mut device| device.dump())
            .map_err(|e| e.to_string())
            .and_then(|raw| {
                Observation::of_dump(raw, &PruneRules::default(), Duration::ZERO)
                    .map_err(|e| format!("uiautomator2's dump does not parse: {e}"))
            });
    match seen {
        Ok(seen) => Checked::Tree(Arc::new(seen)),
        Err(why) => Checked::Failed(why),
    }
}

/// How different a pixel must be, in any channel, to count as changed.
const CHANGED_LEVEL: u8 = 40;
/// The share of an element's pixels that must change for it to be another.
const CHANGED_SHARE: f64 = 0.15;

/// Whether the pixels of `area` (display pixels, the element the point hit on the screen
/// read) are the same on both screenshots; `None` when either cannot be decoded or they
/// differ in size (the display turned).
pub fn pixels_landed(read: &Capture, now: &Capture, area: Rect) -> Option<Landed> {
    let (read, now) = (read.image().ok()?.to_rgb8(), now.image().ok()?.to_rgb8());
    if read.dimensions() != now.dimensions() {
        return None;
    }
    let (width, height) = read.dimensions();
    let clamp = |v: i32, max: u32| v.clamp(0, max as i32) as u32;
    let (left, right) = (clamp(area.left, width), clamp(area.right, width));
    let (top, bottom) = (clamp(area.top, height), clamp(area.bottom, height));
    // About 4,000 samples of the box, evenly spread.
    let area_px = u64::from(right - left) * u64::from(bottom - top);
    if area_px == 0 {
        return Some(Landed::Same);
    }
    let stride = ((area_px as f64 / 4000.0).sqrt().floor() as u32).max(1);
    let (mut changed, mut total) = (0u64, 0u64);
    for y in (top..bottom).step_by(stride as usize) {
        for x in (left..right).step_by(stride as usize) {
            let (a, b) = (read.get_pixel(x, y).0, now.get_pixel(x, y).0);
            total += 1;
            if a.iter().zip(b).any(|(a, b)| a.abs_diff(b) > CHANGED_LEVEL) {
                changed += 1;
            }
        }
    }
    Some(if changed as f64 > CHANGED_SHARE * total as f64 {
        Landed::Elsewhere
    } else {
        Landed::Same
    })
}

#[cfg(test)]
mod tests {
    use image::{ImageEncoder, Rgb, RgbImage};

    use super::*;

    fn png(image: &RgbImage) -> Capture {
        let mut bytes = Vec::new();
        image::codecs::png::PngEncoder::new(&mut bytes)
            .write_image(
                image.as_raw(),
                image.width(),
                image.height(),
                image::ExtendedColorType::Rgb8,
            )
            .unwrap();
        Capture::Png(bytes)
    }

    #[test]
    fn an_element_repainted_under_the_point_is_elsewhere_and_noise_is_not() {
        let white = RgbImage::from_pixel(100, 200, Rgb([255, 255, 255]));
        let mut repainted = white.clone();
        for y in 50..100 {
            for x in 0..100 {
                repainted.put_pixel(x, y, Rgb([20, 20, 160]));
            }
        }
        let mut noisy = white.clone();
        noisy.put_pixel(10, 60, Rgb([0, 0, 0]));
        let row = Rect {
            left: 0,
            top: 50,
            right: 100,
            bottom: 100,
        };
        let (white, repainted, noisy) = (png(&white), png(&repainted), png(&noisy));
        assert_eq!(
            pixels_landed(&white, &repainted, row),
            Some(Landed::Elsewhere)
        );
        assert_eq!(pixels_landed(&white, &noisy, row), Some(Landed::Same));
        // Elsewhere on the screen changed, the row did not.
        let above = Rect {
            top: 0,
            bottom: 50,
            ..row
        };
        assert_eq!(pixels_landed(&white, &repainted, above), Some(Landed::Same));
        let turned = png(&RgbImage::new(200, 100));
        assert_eq!(pixels_landed(&white, &turned, row), None);
    }
}
