//! `PpOcr`: text found before it is read. PP-OCRv4's DB detector marks where text is on
//! the whole screenshot, and its recognizer reads each box it found; both are ONNX models
//! run in Rust by `rten`, from files the user installed ([`models`]). A photo, an icon or
//! game art is not text to the detector, so it gives no line, where Tesseract reading the
//! whole page reads texture as words; and the recognizer reads Chinese and Latin script,
//! light on dark and dark on light, with no preparation of the image.
//!
//! How a read goes ([`PpOcr::read`]): the screenshot is scaled so its longer side is at
//! most [`PpOcr::with_detect_side`] (multiples of 32, as the detector needs), the
//! detector's probability map becomes boxes ([`detect::Boxes`]), and each box is cropped
//! from the full-size image, scaled to the recognizer's 48-px height and read
//! ([`recognize::decode`]). Words under the caller's floor, words without a letter or a
//! digit, and texture-shaped words are dropped, as for Tesseract (`plausible`); lines come
//! in reading order, boxes in the image's pixels.
//!
//! Bounded work: the detector's input is at most `detect_side` long whatever the image,
//! boxes are capped ([`detect::Boxes::max_boxes`]) and so is a crop's width; the ceiling
//! ([`PpOcr::with_timeout`]) is checked before each box is read.

pub mod detect;
mod ink;
pub mod models;
pub mod recognize;

use std::sync::Arc;
use std::time::{Duration, Instant};

use image::RgbImage;
use image::imageops::{self, FilterType};
use rayon::prelude::*;
use rten::{Model, ModelOptions, RunOptions};
use rten_tensor::NdTensor;
use rten_tensor::prelude::*;

use self::detect::Boxes;
use self::models::{INSTALL, ModelFiles};
use self::recognize::{Decoded, decode};
use super::picture::decode as decode_png;
use super::{DEFAULT_TIMEOUT, OcrError, TextLine, Word, order, plausible};
use crate::model::Rect;

/// The detector's input is at most this wide (its shorter side) by default: text of a
/// given size on screen is then about the same size in pixels on any phone's density.
/// Measured on the real pairs (docs/ocr.md, "Real screenshots").
pub const DETECT_SIDE: u32 = 640;
/// And at most this long, whatever its shape: the detector's work is bounded.
const MAX_DETECT_SIDE: u32 = 2400;
/// The recognizer reads crops this tall.
const LINE_HEIGHT: usize = 48;
/// A crop is at most this wide once scaled (a line 50 times as long as it is tall).
const MAX_LINE_WIDTH: usize = 48 * 50;

/// PP-OCR's detector and recognizer, loaded.
#[derive(Clone)]
pub struct PpOcr {
    detector: Arc<Model>,
    recognizer: Arc<Model>,
    /// The recognizer's characters, class 1 onwards.
    dictionary: Arc<[String]>,
    files: ModelFiles,
    detect_side: u32,
    boxes: Boxes,
    timeout: Duration,
    threads: Option<Arc<rten::ThreadPool>>,
}

impl std::fmt::Debug for PpOcr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PpOcr")
            .field("files", &self.files)
            .field("characters", &self.dictionary.len())
            .field("detect_side", &self.detect_side)
            .field("boxes", &self.boxes)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl PpOcr {
    /// The models where [`ModelFiles::find`] finds them, loaded.
    pub fn find() -> Result<Self, OcrError> {
        Self::load(ModelFiles::find()?)
    }

    /// Loads and checks both models: each must load, and the recognizer must carry its
    /// dictionary (metadata `character`, one character a line).
    pub fn load(files: ModelFiles) -> Result<Self, OcrError> {
        let detector = load_model(&files.detector)?;
        let recognizer = load_model(&files.recognizer)?;
        let bad = |path: &std::path::Path, reason: &str| OcrError::BadModel {
            path: path.into(),
            reason: reason.into(),
            install: INSTALL,
        };
        for (model, path) in [
            (&detector, &files.detector),
            (&recognizer, &files.recognizer),
        ] {
            if model.input_ids().len() != 1 || model.output_ids().is_empty() {
                return Err(bad(path, "not one image in and a map out"));
            }
        }
        let dictionary: Arc<[String]> = recognizer
            .metadata()
            .get("character")
            .map(|c| c.lines().map(String::from).collect())
            .filter(|d: &Vec<String>| !d.is_empty())
            .ok_or_else(|| {
                bad(
                    &files.recognizer,
                    "no `character` dictionary in its metadata",
                )
            })?
            .into();
        Ok(Self {
            detector: Arc::new(detector),
            recognizer: Arc::new(recognizer),
            dictionary,
            files,
            detect_side: DETECT_SIDE,
            boxes: Boxes::default(),
            timeout: DEFAULT_TIMEOUT,
            threads: None,
        })
    }

    /// The detector's input at most `side` pixels long (at least 32).
    pub fn with_detect_side(mut self, side: u32) -> Self {
        self.detect_side = side.max(32);
        self
    }

    /// How the detector's map becomes boxes.
    pub fn with_boxes(mut self, boxes: Boxes) -> Self {
        self.boxes = boxes;
        self
    }

    /// The ceiling on one [`PpOcr::read`], checked before each box is read.
    pub fn with_timeout(mut self, ceiling: Duration) -> Self {
        self.timeout = ceiling;
        self
    }

    /// Runs on `threads` threads of its own instead of rten's pool of one a core.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = Some(Arc::new(rten::ThreadPool::with_num_threads(threads.max(1))));
        self
    }

    pub fn files(&self) -> &ModelFiles {
        &self.files
    }

    /// Whether the recognizer's dictionary holds every character of `sample`.
    pub fn can_write(&self, sample: &str) -> bool {
        sample.chars().all(|c| {
            self.dictionary
                .iter()
                .any(|d| d.chars().eq(std::iter::once(c)))
        })
    }

    /// The lines of `png`: words under `min_confidence` (0 to 100), words with no letter or
    /// digit and texture-shaped words dropped; in reading order, boxes in `png`'s pixels.
    pub fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        let started = Instant::now();
        let image = decode_png(png)?.into_rgb8();
        let (width, height) = image.dimensions();
        // The ceiling, checked before each step of the work.
        let in_time = || {
            if started.elapsed() > self.timeout {
                Err(OcrError::TimedOut {
                    after: self.timeout,
                })
            } else {
                Ok(())
            }
        };
        let (map, map_width, map_height) = self.detect(&image)?;
        in_time()?;
        let sx = f64::from(width) / map_width as f64;
        let sy = f64::from(height) / map_height as f64;
        let at = |v: i32, f: f64, limit: u32| {
            ((f64::from(v) * f).round() as i64).clamp(0, i64::from(limit)) as i32
        };
        let boxes: Vec<Rect> = self
            .boxes
            .find(&map, map_width, map_height)
            .into_iter()
            .map(|found| {
                let b = found.bounds;
                Rect::new(
                    at(b.left, sx, width),
                    at(b.top, sy, height),
                    at(b.right, sx, width),
                    at(b.bottom, sy, height),
                )
            })
            .filter(|b| b.width() >= 2 && b.height() >= 2)
            .collect();
        // Boxes are read side by side, one a thread of the pool.
        let read = |&bounds: &Rect| -> Result<Option<TextLine>, OcrError> {
            in_time()?;
            let (decoded, steps) = self.recognize(&image, bounds)?;
            Ok(line_of(&decoded, steps, bounds, min_confidence).map(|line| fitted(line, &image)))
        };
        let pool = self
            .threads
            .as_deref()
            .unwrap_or_else(|| rten::thread_pool());
        let lines: Vec<Option<TextLine>> =
            pool.run(|| boxes.par_iter().map(read).collect::<Result<_, _>>())?;
        Ok(order::reading_order(
            lines.into_iter().flatten().collect(),
            |l| l.bounds,
        ))
    }

    fn run_options(&self) -> Option<RunOptions> {
        self.threads
            .as_ref()
            .map(|pool| RunOptions::default().with_thread_pool(Some(Arc::clone(pool))))
    }

    /// The detector's probability map of `image`, and its width and height.
    fn detect(&self, image: &RgbImage) -> Result<(Vec<f32>, usize, usize), OcrError> {
        let (width, height) = image.dimensions();
        let scale = (f64::from(self.detect_side) / f64::from(width.min(height)))
            .min(f64::from(MAX_DETECT_SIDE) / f64::from(width.max(height)))
            .min(1.0);
        let side = |v: u32| ((f64::from(v) * scale / 32.0).round() as u32).max(1) * 32;
        let (w, h) = (side(width), side(height));
        // Averaging areas when shrinking far (a 4000-px image) costs less than a filter.
        let scaled = if w * 2 < width {
            imageops::thumbnail(image, w, h)
        } else {
            imageops::resize(image, w, h, FilterType::Triangle)
        };
        let input = normalized(&scaled);
        let output = self
            .detector
            .run_one(input.view().into(), self.run_options())
            .map_err(failed)?;
        let map: NdTensor<f32, 4> = output.try_into().map_err(failed)?;
        let [_, _, mh, mw] = map.shape();
        Ok((map.into_data(), mw, mh))
    }

    /// What the crop of `image` at `bounds` reads as, and the recognizer's step count.
    fn recognize(&self, image: &RgbImage, bounds: Rect) -> Result<(Decoded, usize), OcrError> {
        let (cw, ch) = (bounds.width() as u32, bounds.height() as u32);
        let crop = imageops::crop_imm(image, bounds.left as u32, bounds.top as u32, cw, ch);
        let scaled_width = ((LINE_HEIGHT as f64 * f64::from(cw) / f64::from(ch)).ceil() as usize)
            .clamp(8, MAX_LINE_WIDTH);
        let line = imageops::resize(
            &crop.to_image(),
            scaled_width as u32,
            LINE_HEIGHT as u32,
            FilterType::Triangle,
        );
        let output = self
            .recognizer
            .run_one(normalized(&line).view().into(), self.run_options())
            .map_err(failed)?;
        let probabilities: NdTensor<f32, 3> = output.try_into().map_err(failed)?;
        let [_, steps, classes] = probabilities.shape();
        if classes != self.dictionary.len() + 2 {
            return Err(OcrError::BadModel {
                path: self.files.recognizer.clone(),
                reason: format!(
                    "it gives {classes} classes for a dictionary of {} characters",
                    self.dictionary.len()
                ),
                install: INSTALL,
            });
        }
        let decoded = decode(&probabilities.into_data(), steps, classes, &self.dictionary);
        Ok((decoded, steps))
    }
}

impl super::TextReader for PpOcr {
    fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        PpOcr::read(self, png, min_confidence)
    }
}

fn load_model(path: &std::path::Path) -> Result<Model, OcrError> {
    ModelOptions::with_all_ops()
        .load_file(path)
        .map_err(|e| OcrError::BadModel {
            path: path.into(),
            reason: e.to_string(),
            install: INSTALL,
        })
}

fn failed(e: impl std::fmt::Display) -> OcrError {
    OcrError::ModelFailed {
        reason: e.to_string(),
    }
}

/// `image` as the models take it: 1 × 3 × height × width, each channel from [0, 255] to
/// [-1, 1].
fn normalized(image: &RgbImage) -> NdTensor<f32, 4> {
    let (w, h) = image.dimensions();
    let (w, h) = (w as usize, h as usize);
    let mut data = vec![0.0f32; 3 * w * h];
    for (x, y, pixel) in image.enumerate_pixels() {
        for (c, &v) in pixel.0.iter().enumerate() {
            data[c * w * h + y as usize * w + x as usize] = f32::from(v) / 127.5 - 1.0;
        }
    }
    NdTensor::from_data([1, 3, h, w], data)
}

/// The line `decoded` from the crop at `bounds` gives: its words at or over `floor`, with
/// a letter or a digit and not texture, each boxed by the steps it was read at; none when
/// no word is kept or the line is not [`plausible::is_plausible`].
fn line_of(decoded: &Decoded, steps: usize, bounds: Rect, floor: f32) -> Option<TextLine> {
    let step_width = f64::from(bounds.width()) / steps.max(1) as f64;
    // Half a step either side: a glyph may begin before the step it was read at.
    let x = |step: f64| bounds.left + (step * step_width).round() as i32;
    let words: Vec<Word> = decoded
        .words
        .iter()
        .filter(|w| w.confidence * 100.0 >= floor)
        .filter(|w| w.text.chars().any(char::is_alphanumeric))
        .filter(|w| !plausible::is_texture(&w.text))
        .map(|w| Word {
            text: w.text.clone(),
            confidence: w.confidence * 100.0,
            bounds: Rect::new(
                x(w.first_step as f64 - 0.5).max(bounds.left),
                bounds.top,
                x(w.last_step as f64 + 1.5).min(bounds.right),
                bounds.bottom,
            ),
        })
        .collect();
    let mut text = String::new();
    for word in &words {
        if !text.is_empty() && plausible::spaced(&text, &word.text) {
            text.push(' ');
        }
        text.push_str(&word.text);
    }
    let confidence = words
        .iter()
        .map(|w| w.confidence)
        .fold(f32::INFINITY, f32::min);
    let line = TextLine {
        text,
        confidence,
        bounds,
        words,
    };
    (!line.words.is_empty() && plausible::is_plausible(&line)).then_some(line)
}

/// `line` with its words' boxes fitted to their ink ([`ink::fit`]) in `image`. The line's
/// own box stays the detector's, the text with a margin: the region a tap on it aims at.
fn fitted(mut line: TextLine, image: &RgbImage) -> TextLine {
    for word in &mut line.words {
        word.bounds = ink::fit(image, word.bounds);
    }
    line
}

#[cfg(test)]
mod tests;
