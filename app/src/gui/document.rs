//! A dump opened in the workbench: its text, parsed tree, raw lines, raw token sizes and screenshot.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use tapscope_core::geometry::downsampled;
use tapscope_core::inspect::{Inspection, RawView};
use tapscope_core::model::PixelText;
use tapscope_core::prune::{PruneRules, Visibility, new_version};
use tapscope_core::report::RawSize;
use tapscope_core::tokens::{Encoding, TokenCount};
use tapscope_core::{Size, Tree, parse};

use super::error::{OpenError, ScreenshotError};

/// A screenshot that belongs to a dump (same stem, `.png`).
#[derive(Clone, Debug)]
pub struct Screenshot {
    pub image: Arc<egui::ColorImage>,
}

/// Everything loaded for one dump; immutable once loaded.
#[derive(Clone, Debug)]
pub struct Document {
    pub path: Option<PathBuf>,
    /// What the title bar and the document list call it.
    pub name: String,
    pub text: String,
    pub tree: Tree,
    pub visibility: Visibility,
    pub raw_view: RawView,
    /// Raw size per encoding, in the order of [`Encoding::ALL`], measured when first asked
    /// for: each tokenizer's tables cost tens of megabytes, so cl100k loads only if chosen.
    raw_sizes: [OnceLock<RawSize>; 2],
    pub screenshot: Option<Screenshot>,
    /// Fixed per document, so re-pruning under other rules diffs line by line.
    pub version: String,
    /// Problems that did not stop the load (a screenshot that does not fit, …).
    pub warnings: Vec<String>,
    /// What the screen pane says about a screen it cannot show in full: a recorded
    /// screenshot that is missing or unreadable, or one that does not fit the display.
    pub screen_notes: Vec<String>,
    /// Text read in the screenshot's pixels (nodes of `tree` too), with its confidence.
    pub pixel_text: Vec<PixelText>,
}

impl Document {
    pub fn raw_size(&self, encoding: Encoding) -> RawSize {
        *self.raw_sizes[slot(encoding)].get_or_init(|| RawSize::measure(&self.text, encoding))
    }

    /// The document pruned with `rules` under its own version, raw tokens in `encoding`.
    /// The document with `lines` read in its screenshot's pixels: nodes of its tree, as the
    /// agent's tree had them.
    pub fn with_pixel_text(mut self, lines: Vec<PixelText>) -> Self {
        if lines.is_empty() {
            return self;
        }
        self.tree = self.tree.with_pixel_text(&lines);
        self.visibility = Visibility::of(&self.tree);
        self.raw_view = RawView::of(&self.tree, &self.text);
        self.pixel_text = lines;
        self
    }

    /// The confidence of the text read in pixels that node `id` stands for.
    pub fn pixel_confidence(&self, id: usize) -> Option<f32> {
        let node = self.tree.nodes.get(id).filter(|n| n.is_pixel_text())?;
        self.pixel_text
            .iter()
            .find(|line| line.bounds == node.bounds && line.text == node.text)
            .map(|line| line.confidence)
    }

    pub fn inspect(&self, rules: &PruneRules, encoding: Encoding) -> Inspection {
        Inspection::new(&self.tree, rules, &self.version, self.raw_size(encoding))
    }

    /// Builds a document from a dump's bytes and, optionally, its screenshot's bytes; the
    /// default encoding's raw size is measured here, off the UI thread when loading.
    pub fn from_bytes(
        name: String,
        path: Option<PathBuf>,
        dump: &[u8],
        png: Option<&[u8]>,
    ) -> Result<Self, OpenError> {
        let screenshot = png.map(|png| decode_png("the screenshot", png).map(Arc::new));
        Self::with_screenshot(name, path, dump, screenshot)
    }

    /// Like [`Document::from_bytes`], with the screenshot already decoded (or the reason it
    /// could not be), so screens shared by many documents are decoded once.
    pub fn with_screenshot(
        name: String,
        path: Option<PathBuf>,
        dump: &[u8],
        screenshot: Option<Result<Arc<egui::ColorImage>, ScreenshotError>>,
    ) -> Result<Self, OpenError> {
        Self::with_raw_tokens(name, path, dump, screenshot, None)
    }

    /// Like [`Document::with_screenshot`], with the raw dump's token count already known
    /// in one encoding (a recording stores it), so the dump is not tokenized again.
    pub fn with_raw_tokens(
        name: String,
        path: Option<PathBuf>,
        dump: &[u8],
        screenshot: Option<Result<Arc<egui::ColorImage>, ScreenshotError>>,
        raw_tokens: Option<(Encoding, usize)>,
    ) -> Result<Self, OpenError> {
        let failed = |source| OpenError::Dump {
            name: name.clone(),
            source,
        };
        let text = parse::decode(dump).map_err(failed)?.into_owned();
        let tree = parse::parse_str(&text).map_err(failed)?;
        let mut warnings = Vec::new();
        let screenshot = screenshot.and_then(|decoded| match decoded {
            Ok(image) => {
                if let Some(warning) = size_warning(&name, image.size, tree.display) {
                    warnings.push(warning);
                }
                Some(Screenshot { image })
            }
            Err(e) => {
                warnings.push(format!("{name}: {e}; showing a wireframe"));
                None
            }
        });
        let document = Self {
            path,
            name,
            visibility: Visibility::of(&tree),
            raw_view: RawView::of(&tree, &text),
            raw_sizes: [OnceLock::new(), OnceLock::new()],
            tree,
            text,
            screenshot,
            version: new_version(),
            warnings,
            screen_notes: Vec::new(),
            pixel_text: Vec::new(),
        };
        match raw_tokens {
            Some((encoding, tokens)) => {
                let bytes = document.text.len();
                // A recording stores the number alone.
                let known = RawSize {
                    bytes,
                    tokens: TokenCount::Exact(tokens),
                    encoding,
                };
                let _ = document.raw_sizes[slot(encoding)].set(known);
            }
            None => {
                document.raw_size(Encoding::O200k);
            }
        }
        Ok(document)
    }
}

/// Where an encoding's raw size is kept in [`Document::raw_sizes`].
fn slot(encoding: Encoding) -> usize {
    usize::from(encoding == Encoding::Cl100k)
}

/// A warning when a screenshot is not of the whole display at full size or scaled down
/// keeping its aspect ratio (as recordings store them); either way bounds are drawn
/// scaled to the image.
fn size_warning(name: &str, [w, h]: [usize; 2], display: Size) -> Option<String> {
    let longest = u32::try_from(w.max(h)).unwrap_or(u32::MAX);
    let scaled = downsampled(display, longest);
    let fits = usize::try_from(scaled.width) == Ok(w) && usize::try_from(scaled.height) == Ok(h);
    (!fits).then(|| {
        format!(
            "{name}: the screenshot is {w}x{h} but the dump's display is {}x{}; bounds are \
             drawn scaled to the image",
            display.width, display.height
        )
    })
}

/// Decodes the PNG `file` holds into an image egui can upload.
pub fn decode_png(file: &str, bytes: &[u8]) -> Result<egui::ColorImage, ScreenshotError> {
    let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map_err(|source| ScreenshotError::Decode {
            file: file.to_owned(),
            source,
        })?
        .to_rgba8();
    let size = [image.width() as usize, image.height() as usize];
    Ok(egui::ColorImage::from_rgba_unmultiplied(
        size,
        image.as_raw(),
    ))
}

/// Dumps opened, and those of a folder that failed.
pub type Opened = (Vec<Document>, Vec<OpenError>);

/// Opens a dump, a dump with its screenshot beside it, or every dump of a folder.
/// Dumps that fail in a folder are reported, the others still open.
pub fn open(path: &Path) -> Result<Opened, OpenError> {
    if path.is_dir() {
        let files = parse::dumps_in(path).map_err(|source| OpenError::Dump {
            name: path.display().to_string(),
            source,
        })?;
        let mut documents = Vec::new();
        let mut errors = Vec::new();
        for file in &files {
            match open_file(file) {
                Ok(document) => documents.push(document),
                Err(e) => errors.push(e),
            }
        }
        if documents.is_empty() {
            return Err(OpenError::NoDumps {
                dir: path.to_path_buf(),
                failed: errors,
            });
        }
        return Ok((documents, errors));
    }
    open_file(path).map(|d| (vec![d], Vec::new()))
}

/// A dump and the screenshot beside it; a screenshot that is there but cannot be read is
/// a warning naming it and why, and the screen is drawn as a wireframe.
fn open_file(path: &Path) -> Result<Document, OpenError> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let dump = parse::read_file(path).map_err(|source| OpenError::Dump {
        name: name.clone(),
        source,
    })?;
    let png_path = path.with_extension("png");
    let file = png_path.display().to_string();
    let screenshot = match std::fs::read(&png_path) {
        Ok(png) => Some(decode_png(&file, &png).map(Arc::new)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => Some(Err(ScreenshotError::Read { file, source })),
    };
    Document::with_screenshot(name, Some(path.to_path_buf()), &dump, screenshot)
}
