//! `ScreenStore`: the screens of a recording being written, each stored once, counted once
//! and shown once. A screen is known by its content ([`ScreenKey`]): the hashes its dump,
//! pruned text and pixel text are stored under (the 16 hex digits its `screens/` paths
//! name), its version, and on a self-drawn screen the hash of the pixels that showed it (two
//! screens of a game can share one empty tree). A screen seen again costs the hashing of
//! its files and no write; it is given a screenshot the first time one comes with it.

use std::collections::HashMap;
use std::fmt;

use super::writer::{Hashes, content_hash};
use super::{RecordingError, RecordingWriter, ScreenFiles, ScreenRef};
use crate::model::PixelText;

/// What a screen is known by in a [`ScreenStore`]: its version, the content hashes of its
/// files, and those of the pixels that are the screen when there are such (a self-drawn
/// screen's screenshot).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScreenKey {
    version: String,
    files: Hashes,
    pixels: Option<String>,
}

/// A screen as a session saw it, hashed once, to hand to [`ScreenStore::store`].
pub struct SeenScreen<'a> {
    version: &'a str,
    dump: &'a str,
    pruned: &'a str,
    /// The text read in its pixels as the JSON `screens/<hash>.json` holds, when any was.
    pixel_text: Option<Vec<u8>>,
    key: ScreenKey,
}

/// Sizes rather than contents: a dump is megabytes.
impl fmt::Debug for SeenScreen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeenScreen")
            .field("version", &self.version)
            .field("dump_bytes", &self.dump.len())
            .field("pruned_bytes", &self.pruned.len())
            .field("pixel_text_bytes", &self.pixel_text.as_ref().map(Vec::len))
            .field("key", &self.key)
            .finish()
    }
}

impl<'a> SeenScreen<'a> {
    /// The screen of `version` with its raw `dump`, the `pruned` text the agent read, the
    /// text read in its pixels, and `pixels` when they are what tells it from another
    /// screen of the same tree (a self-drawn screen's screenshot).
    pub fn new(
        version: &'a str,
        dump: &'a str,
        pruned: &'a str,
        pixel_text: &[PixelText],
        pixels: Option<&[u8]>,
    ) -> Result<Self, RecordingError> {
        let pixel_text = (!pixel_text.is_empty())
            .then(|| serde_json::to_vec(pixel_text))
            .transpose()
            .map_err(|source| RecordingError::Encode { step: 0, source })?;
        let key = ScreenKey {
            version: version.to_owned(),
            files: Hashes {
                dump: content_hash(dump.as_bytes()),
                pruned: content_hash(pruned.as_bytes()),
                pixel_text: pixel_text.as_deref().map(content_hash),
            },
            pixels: pixels.map(content_hash),
        };
        Ok(Self {
            version,
            dump,
            pruned,
            pixel_text,
            key,
        })
    }

    pub fn key(&self) -> &ScreenKey {
        &self.key
    }
}

/// How a store counts a text's tokens.
type Count = Box<dyn Fn(&str) -> u32 + Send>;

/// The screens of one recording: writes each through the recording's writer the first
/// time it is seen, with its tokens counted, and again only to add a screenshot.
pub struct ScreenStore {
    writer: RecordingWriter,
    count: Count,
    stored: HashMap<ScreenKey, ScreenRef>,
}

impl fmt::Debug for ScreenStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScreenStore")
            .field("writer", &self.writer)
            .field("screens", &self.stored.len())
            .finish_non_exhaustive()
    }
}

impl ScreenStore {
    /// Stores screens into `writer`'s recording, counting their tokens with `count`.
    pub fn new(writer: RecordingWriter, count: impl Fn(&str) -> u32 + Send + 'static) -> Self {
        Self {
            writer,
            count: Box::new(count),
            stored: HashMap::new(),
        }
    }

    /// Stores screens into `writer`'s recording, counting their tokens in `encoding` (the
    /// one its header names).
    #[cfg(feature = "tokens")]
    pub fn counting(writer: RecordingWriter, encoding: crate::tokens::Encoding) -> Self {
        Self::new(writer, move |text| {
            u32::try_from(encoding.count(text).tokens()).unwrap_or(u32::MAX)
        })
    }

    /// The recording's writer, to append the steps that name the screens.
    pub fn writer(&mut self) -> &mut RecordingWriter {
        &mut self.writer
    }

    /// `seen` as stored: written and counted the first time, as it was stored after that.
    pub fn store(&mut self, seen: &SeenScreen<'_>) -> Result<ScreenRef, RecordingError> {
        match self.stored.get(&seen.key) {
            Some(known) => Ok(known.clone()),
            None => self.write(seen, None),
        }
    }

    /// [`store`](Self::store), with a screenshot the first time it has one:
    /// `screenshot` (a PNG, or `None` when there is none to be had) is only taken when the
    /// screen was stored without one yet.
    pub fn store_shown(
        &mut self,
        seen: &SeenScreen<'_>,
        screenshot: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Result<ScreenRef, RecordingError> {
        if let Some(known) = self.stored.get(&seen.key)
            && known.screenshot.is_some()
        {
            return Ok(known.clone());
        }
        match screenshot() {
            Some(png) => self.write(seen, Some(&png)),
            // A recording without this screenshot is still whole: its dump is there.
            None => self.store(seen),
        }
    }

    /// Writes `seen`'s files (those not there yet), counted unless they were before.
    fn write(
        &mut self,
        seen: &SeenScreen<'_>,
        screenshot: Option<&[u8]>,
    ) -> Result<ScreenRef, RecordingError> {
        let (raw_tokens, pruned_tokens) = match self.stored.get(&seen.key) {
            Some(known) => (known.raw_tokens, known.pruned_tokens),
            None => ((self.count)(seen.dump), (self.count)(seen.pruned)),
        };
        let files = ScreenFiles {
            version: seen.version,
            dump: seen.dump,
            pruned: seen.pruned,
            screenshot,
            pixel_text: seen.pixel_text.as_deref(),
            raw_tokens,
            pruned_tokens,
        };
        let stored = self.writer.store_hashed(&files, &seen.key.files)?;
        self.stored.insert(seen.key.clone(), stored.clone());
        Ok(stored)
    }
}

#[cfg(test)]
mod tests;
