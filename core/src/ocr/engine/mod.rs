//! `Tesseract`: the `tesseract` command found once, then run once per image with the PNG
//! on stdin and TSV on stdout, on one core, under a ceiling.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::picture::prepare;
use super::process::{self, RunError};
use super::{OcrError, TextLine, tsv};

/// How long one image may take before Tesseract is killed.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The page segmentation mode: 11, sparse text, "as much text as possible in no
/// particular order". A phone screen is labels scattered over a canvas, not a page of
/// paragraphs; compared with 3 (automatic) and 12 (sparse with orientation) in
/// docs/ocr.md, "Page segmentation".
pub const PAGE_SEGMENTATION: u8 = 11;

/// The language always used.
const ENGLISH: &str = "eng";

/// The `tesseract` command, found and checked.
#[derive(Clone, Debug)]
pub struct Tesseract {
    program: PathBuf,
    version: String,
    installed: Vec<String>,
    languages: Vec<String>,
    timeout: Duration,
    page_segmentation: u8,
    upscale_below: u32,
}

impl Tesseract {
    /// Finds the engine once (`tesseract --version`, `--list-langs`) on `PATH`: the
    /// languages used are `eng` plus any other installed ones a caller asks for
    /// ([`Tesseract::with_languages`]).
    pub fn find() -> Result<Self, OcrError> {
        Self::find_at("tesseract")
    }

    /// [`Tesseract::find`] for the program at `program` (a path, or a name on `PATH`).
    pub fn find_at(program: impl Into<PathBuf>) -> Result<Self, OcrError> {
        let program = program.into();
        let version = version_of(&program)?;
        let installed = languages_of(&program)?;
        let mut found = Self {
            program,
            version,
            installed,
            languages: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            page_segmentation: PAGE_SEGMENTATION,
            upscale_below: 0,
        };
        found.add_language(ENGLISH)?;
        Ok(found)
    }

    /// Also reads `languages` (Tesseract's names: `deu`, `chi_sim`), each of which must be
    /// installed; `eng` stays first.
    pub fn with_languages(mut self, languages: &[&str]) -> Result<Self, OcrError> {
        for language in languages {
            self.add_language(language)?;
        }
        Ok(self)
    }

    /// The ceiling on one [`Tesseract::read`]; at it the process is killed.
    pub fn with_timeout(mut self, ceiling: Duration) -> Self {
        self.timeout = ceiling;
        self
    }

    /// Tesseract's page segmentation mode (`--psm`) instead of [`PAGE_SEGMENTATION`]:
    /// 7 for an image that is one line of text, 3 for a page of paragraphs.
    pub fn with_page_segmentation(mut self, mode: u8) -> Self {
        self.page_segmentation = mode;
        self
    }

    /// Images whose longest side is under `longest_side` pixels are read at twice their
    /// size (0, the default: never). Tesseract misses most text under about 20 px, so a
    /// screenshot downsampled to 1024 px loses a phone's body text; doubling it recovers
    /// most of that for about twice the time (docs/ocr.md, "Measured" and "Speed").
    pub fn with_upscale_below(mut self, longest_side: u32) -> Self {
        self.upscale_below = longest_side;
        self
    }

    /// The version `tesseract --version` gave, such as `5.3.0`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The languages read, `eng` first.
    pub fn languages(&self) -> &[String] {
        &self.languages
    }

    /// Every language with trained data installed.
    pub fn installed(&self) -> &[String] {
        &self.installed
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The arguments each read passes, as a shell would show them (with
    /// `OMP_THREAD_LIMIT=1` in the environment).
    pub fn arguments(&self) -> Vec<String> {
        let mut args: Vec<String> = ["stdin", "stdout", "-l"].map(String::from).into();
        args.push(self.languages.join("+"));
        args.extend(["--oem", "1", "--psm"].map(String::from));
        args.push(self.page_segmentation.to_string());
        args.push("tsv".into());
        args
    }

    /// Reads `png`: lines of words, words under `min_confidence` (0 to 100) dropped, and
    /// words without a letter or a digit (the `—`, `|` and `<` Tesseract reads in rules,
    /// borders and pictures); bounds in `png`'s pixels. A blank or black image is no
    /// lines. An image longer than [`super::MAX_SIDE`] is scaled down first; one over
    /// [`super::MAX_PIXELS`] is refused.
    pub fn read(&self, png: &[u8], min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        let mut prepared = prepare(png, self.upscale_below)?;
        let mut command = Command::new(&self.program);
        // Tesseract's OpenMP would take every core for a few percent: one is enough.
        command.env("OMP_THREAD_LIMIT", "1").args(self.arguments());
        let sent = std::mem::take(&mut prepared.png);
        let done = run(&self.program, command, sent, self.timeout)?;
        if !done.status.success() {
            return Err(OcrError::Failed {
                status: done.status.to_string(),
                stderr: tail(&done.stderr),
            });
        }
        let mut lines = tsv::lines(&String::from_utf8_lossy(&done.stdout), min_confidence)?;
        if prepared.size != prepared.sent {
            for line in &mut lines {
                line.bounds = prepared.map_back(line.bounds);
                for word in &mut line.words {
                    word.bounds = prepared.map_back(word.bounds);
                }
            }
        }
        Ok(lines)
    }

    fn add_language(&mut self, language: &str) -> Result<(), OcrError> {
        if self.languages.iter().any(|l| l == language) {
            return Ok(());
        }
        if !self.installed.iter().any(|l| l == language) {
            return Err(OcrError::MissingLanguage {
                language: language.into(),
                package: language.to_lowercase().replace('_', "-"),
                installed: if self.installed.is_empty() {
                    "none".into()
                } else {
                    self.installed.join(", ")
                },
            });
        }
        self.languages.push(language.into());
        Ok(())
    }
}

fn run(
    program: &Path,
    command: Command,
    input: Vec<u8>,
    ceiling: Duration,
) -> Result<process::Finished, OcrError> {
    process::run(command, input, ceiling).map_err(|e| match e {
        RunError::Spawn(e) => OcrError::NotInstalled {
            program: program.into(),
            reason: e.to_string(),
        },
        RunError::TimedOut => OcrError::TimedOut { after: ceiling },
        RunError::Io(e) => OcrError::Failed {
            status: "not finished".into(),
            stderr: e.to_string(),
        },
    })
}

/// `--version`'s number; Tesseract 4 printed it on stderr, 5 on stdout.
fn version_of(program: &Path) -> Result<String, OcrError> {
    let mut command = Command::new(program);
    command.arg("--version");
    let done = run(program, command, Vec::new(), DEFAULT_TIMEOUT)?;
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    let version = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("tesseract "))
        .map(|v| v.trim().trim_start_matches('v').to_string())
        .ok_or_else(|| OcrError::NotInstalled {
            program: program.into(),
            reason: format!("`--version` printed {:?}", tail(text.trim().as_bytes())),
        })?;
    let major: u32 = version
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 4 {
        return Err(OcrError::TooOld { version });
    }
    Ok(version)
}

/// `--list-langs`: a heading line, then one language a line.
fn languages_of(program: &Path) -> Result<Vec<String>, OcrError> {
    let mut command = Command::new(program);
    command.arg("--list-langs");
    let done = run(program, command, Vec::new(), DEFAULT_TIMEOUT)?;
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with("List of available languages")
                && !l.contains(char::is_whitespace)
        })
        .map(String::from)
        .collect())
}

/// The last 500 bytes of a stream, as text, for an error message.
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim();
    let start = text.len().saturating_sub(500);
    let start = (start..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    if text.is_empty() {
        "no message".into()
    } else {
        text[start..].to_string()
    }
}

#[cfg(test)]
mod tests;
