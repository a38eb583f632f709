//! `read`: a recording back from its folder, lenient about a cut-short last line and bad
//! lines in the middle, strict about the header (a leading byte-order mark aside); and its
//! screen files, checked: each path, the file on disk, and its content against its name.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::file::{self, MAX_LOG_BYTES, MAX_SCREEN_BYTES};
use super::writer::{HASH_DIGITS, content_hash};
use super::{
    FORMAT, FORMAT_VERSION, Header, RecordingError, SCREENS_DIR, SESSION_FILE, ScreenRef, Step,
};

/// A recording read back: its header, the steps that could be read, and what could not.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// The recording folder; screen paths are relative to it.
    pub dir: PathBuf,
    pub header: Header,
    /// The steps in file order.
    pub steps: Vec<Step>,
    /// Lines that could not be read, in file order.
    pub problems: Vec<Problem>,
}

/// A line of `session.jsonl` that could not be read as a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The 1-based line number in `session.jsonl`.
    pub line: usize,
    pub kind: ProblemKind,
}

/// What was wrong with a line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The last line stops short, without its newline: the recording was interrupted while
    /// a step was being written.
    TruncatedLastLine,
    /// A line that is not a step, with the reason; it was skipped.
    Malformed(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ProblemKind::TruncatedLastLine => write!(
                f,
                "line {} is cut short (the recording was interrupted mid-step); the steps \
                 before it are intact",
                self.line
            ),
            ProblemKind::Malformed(reason) => write!(
                f,
                "line {} is not a readable step ({reason}); it was skipped and the other \
                 steps kept",
                self.line
            ),
        }
    }
}

/// Reads the recording in `path`: a recording folder, or its `session.jsonl`.
///
/// The header must be of this format and version. A last line cut short (no newline, not
/// JSON) and lines in the middle that are not steps are skipped and reported in
/// [`Recording::problems`]; every other step is kept.
pub fn read(path: &Path) -> Result<Recording, RecordingError> {
    let metadata = fs::metadata(path).map_err(|source| match source.kind() {
        io::ErrorKind::NotFound => RecordingError::NotFound {
            path: path.to_path_buf(),
        },
        _ => RecordingError::Read {
            path: path.to_path_buf(),
            source,
        },
    })?;
    // The path named may be a link to the folder; what is inside it is read as it is.
    let (dir, log) = if metadata.is_dir() {
        (path.to_path_buf(), path.join(SESSION_FILE))
    } else {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (parent, path.to_path_buf())
    };
    let bytes = file::read(&log, MAX_LOG_BYTES, "a recording's session.jsonl")?
        .ok_or_else(|| RecordingError::NoSession { path: dir.clone() })?;
    // A byte-order mark some editors put at the start of UTF-8 text is not the header's.
    let text = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    let first = lines
        .next()
        .filter(|line| !line.trim_ascii().is_empty())
        .ok_or_else(|| RecordingError::Empty { path: log.clone() })?;
    let header = read_header(first, &log)?;

    let mut steps = Vec::new();
    let mut problems = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let ended = line.ends_with(b"\n");
        if line.trim_ascii().is_empty() {
            continue;
        }
        match serde_json::from_slice::<Step>(line) {
            Ok(step) => steps.push(step),
            Err(_) if !ended => problems.push(Problem {
                line: number,
                kind: ProblemKind::TruncatedLastLine,
            }),
            Err(error) => problems.push(Problem {
                line: number,
                kind: ProblemKind::Malformed(error.to_string()),
            }),
        }
    }
    Ok(Recording {
        dir,
        header,
        steps,
        problems,
    })
}

/// The header line, checked field by field so a wrong file says what it is.
fn read_header(line: &[u8], log: &Path) -> Result<Header, RecordingError> {
    let not_a_header = |reason: String| RecordingError::NotAHeader {
        path: log.to_path_buf(),
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_slice(line).map_err(|error| not_a_header(error.to_string()))?;
    let Some(object) = value.as_object() else {
        return Err(not_a_header("it is not a JSON object".to_owned()));
    };
    let Some(format) = object.get("format").and_then(|f| f.as_str()) else {
        return Err(not_a_header("it has no \"format\" field".to_owned()));
    };
    if format != FORMAT {
        return Err(RecordingError::WrongFormat {
            path: log.to_path_buf(),
            found: format.to_owned(),
        });
    }
    let Some(version) = object.get("version").and_then(|v| v.as_u64()) else {
        return Err(not_a_header(
            "it has no numeric \"version\" field".to_owned(),
        ));
    };
    if version != u64::from(FORMAT_VERSION) {
        return Err(RecordingError::UnsupportedVersion {
            path: log.to_path_buf(),
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    serde_json::from_value(value).map_err(|error| not_a_header(error.to_string()))
}

impl Recording {
    /// The text of a screen file, e.g. a step's `before.pruned`.
    pub fn load_text(&self, path: &str) -> Result<String, RecordingError> {
        let bytes = self.load_bytes(path)?;
        String::from_utf8(bytes).map_err(|_| RecordingError::ScreenNotText {
            path: path.to_owned(),
            recording: self.dir.clone(),
        })
    }

    /// The lines of a step's log; none when it kept none. Lines of the file that are not
    /// log lines are left out.
    pub fn load_log(
        &self,
        log: &super::StepLog,
    ) -> Result<Vec<crate::logcat::LogLine>, RecordingError> {
        match &log.file {
            Some(path) => Ok(crate::logcat::parse(&self.load_text(path)?).lines),
            None => Ok(Vec::new()),
        }
    }

    /// The text `screen` read in its screenshot's pixels; none when it read none.
    pub fn load_pixel_text(
        &self,
        screen: &ScreenRef,
    ) -> Result<Vec<crate::model::PixelText>, RecordingError> {
        let Some(path) = &screen.pixel_text else {
            return Ok(Vec::new());
        };
        serde_json::from_str(&self.load_text(path)?).map_err(|e| {
            RecordingError::PixelTextUnreadable {
                path: path.clone(),
                recording: self.dir.clone(),
                reason: e.to_string(),
            }
        })
    }

    /// The bytes of a screen file, e.g. a step's `after.screenshot`. Only paths of the
    /// form `screens/<hash>.<xml|yaml|png|json>` are read, only from a regular file inside
    /// the recording (checked as [`screen_file`](Self::screen_file) checks it, and again once
    /// open, which never waits on a FIFO), and the content must match the hash.
    pub fn load_bytes(&self, path: &str) -> Result<Vec<u8>, RecordingError> {
        let (file, hash) = self.checked_screen(path)?;
        let bytes = file::read(&file, MAX_SCREEN_BYTES, SCREEN_FILE)?
            .ok_or_else(|| self.screen_missing(path, false))?;
        if content_hash(&bytes) != hash {
            return Err(RecordingError::ScreenCorrupt {
                path: path.to_owned(),
                recording: self.dir.clone(),
            });
        }
        Ok(bytes)
    }

    /// The file a screen path names, checked without reading it: the path is of the form
    /// `screens/<hash>.<xml|yaml|png|json>` with the 16 hex digits of a hash, and the file
    /// is a regular file inside the recording's `screens/` folder (no link, FIFO or device)
    /// of at most [`MAX_SCREEN_BYTES`]. [`load_bytes`](Self::load_bytes) reads it after the
    /// same check and checks its content against the hash too.
    pub fn screen_file(&self, path: &str) -> Result<PathBuf, RecordingError> {
        self.checked_screen(path).map(|(file, _)| file)
    }

    fn checked_screen<'p>(&self, path: &'p str) -> Result<(PathBuf, &'p str), RecordingError> {
        let hash = screen_hash(path)
            .filter(|hash| hash.len() == HASH_DIGITS)
            .ok_or_else(|| RecordingError::BadScreenPath {
                path: path.to_owned(),
            })?;
        if !file::check_folder(&self.dir.join(SCREENS_DIR))? {
            return Err(self.screen_missing(path, true));
        }
        let file = self.dir.join(path);
        if !file::check(&file, MAX_SCREEN_BYTES, SCREEN_FILE)? {
            return Err(self.screen_missing(path, false));
        }
        Ok((file, hash))
    }

    fn screen_missing(&self, path: &str, folder_missing: bool) -> RecordingError {
        RecordingError::ScreenMissing {
            path: path.to_owned(),
            recording: self.dir.clone(),
            folder_missing,
        }
    }
}

/// A UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A screen file, as errors name it.
const SCREEN_FILE: &str = "a screen file";

/// The hash part of `screens/<hex>.<xml|yaml|png|json>`, or `None` for any other path.
pub(crate) fn screen_hash(path: &str) -> Option<&str> {
    let name = path.strip_prefix(SCREENS_DIR)?.strip_prefix('/')?;
    let (hash, ext) = name.split_once('.')?;
    let hex = !hash.is_empty()
        && hash.len() <= 64
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    (hex && matches!(ext, "xml" | "yaml" | "png" | "json" | "log")).then_some(hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_paths_are_checked() {
        assert_eq!(screen_hash("screens/0a1b.png"), Some("0a1b"));
        assert_eq!(
            screen_hash("screens/0123456789abcdef.yaml"),
            Some("0123456789abcdef")
        );
        for bad in [
            "screens/../session.jsonl",
            "../screens/ab.xml",
            "/etc/passwd",
            "screens/ab.xml/..",
            "screens/AB.xml",
            "screens/ab.txt",
            "screens/.ab.xml",
            "screens/ab.png.tmp",
            "screens//ab.xml",
            "screens\\ab.xml",
            "screens/ab",
            "",
        ] {
            assert_eq!(screen_hash(bad), None, "{bad}");
        }
    }

    #[test]
    fn problems_read_as_sentences() {
        let cut = Problem {
            line: 14,
            kind: ProblemKind::TruncatedLastLine,
        };
        assert!(cut.to_string().starts_with("line 14 is cut short"));
        let bad = Problem {
            line: 3,
            kind: ProblemKind::Malformed("expected value".to_owned()),
        };
        assert!(bad.to_string().contains("line 3") && bad.to_string().contains("expected value"));
    }
}
