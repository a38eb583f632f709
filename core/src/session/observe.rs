//! One observation: a dump pruned under the version its content gives, and, for
//! self-drawn screens, a downsampled screenshot taken at the same moment as the dump.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use serde::Serialize;

use super::unread::Unread;
use super::{SessionConfig, SessionError};
use crate::device::{Capture, Device};

use crate::geometry::{ImageScale, downsampled};
use crate::handle::Handle;
use crate::model::{PixelText, Size, Tree};
use crate::parse::parse_str;
use crate::prune::{Pruned, PrunedNode};
use crate::render;
use crate::stability::look::LookUsed;
use crate::stability::{Clock, Dumps};

/// A downsampled screenshot with the exact mapping of its pixels to the display's: the
/// stand-in for an empty tree, and what the `screenshot` tool returns.
#[derive(Clone, Debug, Serialize)]
pub struct Screenshot {
    /// PNG bytes, `image` sized.
    #[serde(skip)]
    pub png: Vec<u8>,
    pub display: Size,
    pub image: Size,
    /// How image coordinates map to display coordinates, in words.
    pub rule: String,
}

impl Screenshot {
    /// How this image's pixels map to the display's.
    pub fn scale(&self) -> ImageScale {
        ImageScale {
            display: self.display,
            image: self.image,
        }
    }
}

/// What the screen showed at one moment.
#[derive(Clone, Debug, Serialize)]
pub struct Observation {
    pub version: String,
    /// The pruned tree as the agent reads it.
    pub text: String,
    pub fallback: Option<Screenshot>,
    /// When the dump was taken, on the session's clock.
    #[serde(rename = "dumped_at_ms", serialize_with = "millis")]
    pub dumped_at: Duration,
    #[serde(rename = "screenshot_at_ms", serialize_with = "opt_millis")]
    pub screenshot_at: Option<Duration>,
    #[serde(skip)]
    pub raw: String,
    #[serde(skip)]
    pub tree: Tree,
    #[serde(skip)]
    pub pruned: Pruned,
    /// The text read in the fallback screenshot's pixels, in display pixels: nodes of
    /// `tree` (and `ocr` lines of `text`) too, kept apart for recordings and viewers.
    #[serde(skip)]
    pub pixel_text: Vec<PixelText>,
    /// Why a self-drawn screen's text was not read in its screenshot, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pixel_note: Option<Unread>,
    /// How the screen was read and what that look cost; `None` when it was read elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub look: Option<LookUsed>,
}

#[cfg(feature = "recording")]
impl Observation {
    /// This screen as a recording's store knows it: a self-drawn one is told apart by its
    /// screenshot.
    pub fn seen_screen(
        &self,
    ) -> Result<crate::recording::SeenScreen<'_>, crate::recording::RecordingError> {
        let pixels = self.fallback.as_ref().map(|shot| shot.png.as_slice());
        crate::recording::SeenScreen::new(
            &self.version,
            &self.raw,
            &self.text,
            &self.pixel_text,
            pixels,
        )
    }
}

impl Observation {
    /// A dump read elsewhere (an agent's own look, as `tapscope proxy` sees it pass)
    /// observed as a session observes one: pruned under `rules` and the version its content
    /// gives, dumped at `dumped_at`; without a screenshot, whatever the tree.
    pub fn of_dump(
        raw: String,
        rules: &crate::prune::PruneRules,
        dumped_at: Duration,
    ) -> crate::error::Result<Self> {
        let tree = parse_str(&raw)?;
        let (pruned, text) = render::versioned(&tree, rules);
        Ok(Self {
            version: pruned.version.clone(),
            text,
            fallback: None,
            dumped_at,
            screenshot_at: None,
            raw,
            tree,
            pruned,
            pixel_text: Vec::new(),
            pixel_note: None,
            look: None,
        })
    }

    /// The text read in the fallback screenshot's pixels added to the tree as nodes, and
    /// the observation versioned again with them (a ticking score is a new version).
    #[cfg(feature = "ocr")]
    fn add_pixel_text(&mut self, read: Vec<PixelText>, rules: &crate::prune::PruneRules) {
        let tree = self.tree.with_pixel_text(&read);
        let (pruned, text) = render::versioned(&tree, rules);
        self.version.clone_from(&pruned.version);
        self.text = text;
        self.pruned = pruned;
        self.tree = tree;
        self.pixel_text = read;
    }

    /// The handle of the first node with an `i` that `wanted` accepts, in line order.
    pub fn handle_where(&self, wanted: impl Fn(&PrunedNode) -> bool) -> Option<Handle> {
        let node = self
            .pruned
            .nodes
            .iter()
            .find(|n| n.i.is_some() && wanted(n))?;
        Some(Handle {
            version: self.version.clone(),
            i: node.i?,
        })
    }
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u128(d.as_millis())
}

fn opt_millis<S: serde::Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_u128(d.as_millis()),
        None => s.serialize_none(),
    }
}

/// A hash of everything an agent could see or act on: classes, text, bounds, flags.
pub fn structure_hash(tree: &Tree) -> u64 {
    let mut hasher = DefaultHasher::new();
    for node in &tree.nodes {
        (&node.class, &node.text, &node.desc, &node.resource_id).hash(&mut hasher);
        (node.bounds, node.flags.bits(), node.depth).hash(&mut hasher);
    }
    hasher.finish()
}

/// How many times a fallback dump and screenshot are retaken to catch one moment.
const SAME_MOMENT_TRIES: usize = 3;

/// One dump read off the device: the raw text and its tree.
#[derive(Debug)]
pub(super) struct Look {
    pub raw: String,
    pub tree: Tree,
}

impl Look {
    /// Dumps within `limit`, or within the device's own limits when `None`.
    pub(super) fn take<D: Device>(
        device: &mut D,
        limit: Option<Duration>,
    ) -> Result<Self, SessionError> {
        let raw = match limit {
            Some(limit) => device.dump_within(limit)?,
            None => device.dump()?,
        };
        let tree = parse_str(&raw)?;
        Ok(Self { raw, tree })
    }
}

/// What reads a self-drawn screen's text: the reader a session was given
/// (`Session::with_text_reader`), or Tesseract found once when none was. Empty without
/// the `ocr` feature.
#[derive(Clone, Debug, Default)]
pub(super) struct PixelReader {
    #[cfg(feature = "ocr")]
    pub given: Option<std::sync::Arc<dyn crate::ocr::TextReader>>,
}

/// The observation of `look`, dumped at `dumped_at`, under the version its content gives;
/// for a self-drawn screen with a screenshot of the same moment, its text read by `reader`.
#[cfg_attr(not(feature = "ocr"), allow(unused_variables))]
pub(super) fn observe<D: Device, C: Clock>(
    device: &mut D,
    clock: &C,
    config: &SessionConfig,
    reader: &PixelReader,
    mut look: Look,
    mut dumped_at: Duration,
) -> Result<Observation, SessionError> {
    let mut attempt = 0;
    loop {
        let (pruned, text) = render::versioned(&look.tree, &config.rules);
        let mut observation = Observation {
            version: pruned.version.clone(),
            text,
            fallback: None,
            dumped_at,
            screenshot_at: None,
            raw: look.raw,
            tree: look.tree,
            pruned,
            pixel_text: Vec::new(),
            pixel_note: None,
            look: None,
        };
        if !observation.pruned.fallback {
            return Ok(observation);
        }
        // Text is read at the display's own size (a phone's 1024-px fallback loses its
        // body text); the agent is given the fallback's size.
        let display = observation.tree.display;
        let reads_pixels = cfg!(feature = "ocr") && config.rules.ocr;
        let captured_side = if reads_pixels {
            display.width.max(display.height).max(1) as u32
        } else {
            config.fallback_longest_side
        };
        let capture = device.capture(captured_side)?;
        observation.screenshot_at = Some(clock.now());
        attempt += 1;
        // The screenshot must show the moment the dump did: retake both if the tree moved.
        // A dump that waited for idle already proved the screen still; another (seconds
        // on a phone) is not spent.
        let moved = match device.dumps() {
            Dumps::AfterIdle { .. } => None,
            Dumps::Snapshot => {
                let again_at = clock.now();
                let again = Look::take(device, None)?;
                (structure_hash(&again.tree) != structure_hash(&observation.tree))
                    .then_some((again, again_at))
            }
        };
        match moved {
            Some((again, again_at)) if attempt < SAME_MOMENT_TRIES => {
                look = again;
                dumped_at = again_at;
            }
            _ => {
                let shot = Screenshot::of(
                    &capture,
                    Some(observation.tree.display),
                    config.fallback_longest_side,
                )?;
                #[cfg(feature = "ocr")]
                if reads_pixels {
                    let full = Screenshot::of(&capture, Some(display), captured_side)?;
                    let given = reader.given.as_deref();
                    let tree = &observation.tree;
                    match super::pixels::read(given, &full.png, full.scale(), tree, &config.rules) {
                        Ok(read) => observation.add_pixel_text(read, &config.rules),
                        Err(unread) => observation.pixel_note = Some(unread),
                    }
                }
                observation.fallback = Some(shot);
                return Ok(observation);
            }
        }
    }
}

impl Screenshot {
    /// `capture` at most `longest_side` pixels long, for a display of `display` (the
    /// capture's own size when `None`).
    pub fn of(
        capture: &Capture,
        display: Option<Size>,
        longest_side: u32,
    ) -> Result<Self, SessionError> {
        let decoded;
        let (pixels, captured) = match capture {
            Capture::Pixels { pixels, display } => (pixels, *display),
            Capture::Png(_) => {
                decoded = capture.image().map_err(SessionError::Image)?.into_rgb8();
                let size = Size {
                    width: i32::try_from(decoded.width()).unwrap_or(i32::MAX),
                    height: i32::try_from(decoded.height()).unwrap_or(i32::MAX),
                };
                (&decoded, size)
            }
        };
        let display = display.unwrap_or(captured);
        let size = downsampled(display, longest_side);
        let (w, h) = (size.width.max(1) as u32, size.height.max(1) as u32);
        // An area average (image's thumbnail): a fifth of a triangle filter's time on a
        // phone-sized frame, and as sharp at these ratios; nothing when drawn to size.
        let resized = if (pixels.width(), pixels.height()) == (w, h) {
            std::borrow::Cow::Borrowed(pixels)
        } else {
            std::borrow::Cow::Owned(image::imageops::thumbnail(pixels, w, h))
        };
        let png =
            crate::png::encode_fast(&*resized).map_err(|e| SessionError::Image(e.to_string()))?;
        let rule = ImageScale {
            display,
            image: size,
        }
        .rule();
        Ok(Screenshot {
            png,
            display,
            image: size,
            rule,
        })
    }
}
