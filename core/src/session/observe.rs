//! One observation: a dump pruned under the version its content gives, and, for
//! self-drawn screens, a downsampled screenshot taken at the same moment as the dump.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use serde::Serialize;

use super::{SessionConfig, SessionError};
use crate::device::Device;
use crate::geometry::{ImageScale, downsampled};
use crate::handle::Handle;
use crate::model::{Size, Tree};
use crate::parse::parse_str;
use crate::prune::{Pruned, PrunedNode};
use crate::render;
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
}

impl Observation {
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

/// The observation of `look`, dumped at `dumped_at`, under the version its content gives;
/// for a self-drawn screen with a screenshot of the same moment.
pub(super) fn observe<D: Device, C: Clock>(
    device: &mut D,
    clock: &C,
    config: &SessionConfig,
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
        };
        if !observation.pruned.fallback {
            return Ok(observation);
        }
        let png = device.screenshot_png()?;
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
                observation.fallback = Some(downsample(
                    &png,
                    Some(observation.tree.display),
                    config.fallback_longest_side,
                )?);
                return Ok(observation);
            }
        }
    }
}

/// The screenshot `png` at most `longest_side` pixels long, for a display of `display`
/// (the PNG's own size when `None`).
pub(super) fn downsample(
    png: &[u8],
    display: Option<Size>,
    longest_side: u32,
) -> Result<Screenshot, SessionError> {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .map_err(|e| SessionError::Image(e.to_string()))?;
    let display = display.unwrap_or(Size {
        width: i32::try_from(image.width()).unwrap_or(i32::MAX),
        height: i32::try_from(image.height()).unwrap_or(i32::MAX),
    });
    let size = downsampled(display, longest_side);
    let resized = image.resize_exact(
        size.width.max(1) as u32,
        size.height.max(1) as u32,
        image::imageops::FilterType::Triangle,
    );
    let mut bytes = Vec::new();
    resized
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(|e| SessionError::Image(e.to_string()))?;
    let rule = ImageScale {
        display,
        image: size,
    }
    .rule();
    Ok(Screenshot {
        png: bytes,
        display,
        image: size,
        rule,
    })
}
