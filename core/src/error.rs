//! Typed errors of tapscope-core: what went wrong, where, and what to do about it.

use std::path::PathBuf;

/// Every way reading or pruning a dump can fail.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input is larger than [`crate::parse::MAX_INPUT_BYTES`].
    #[error(
        "{input} is {size}, over the {limit}-byte limit; a real accessibility dump is under \
         4 MiB: check that this is a dump and not a log or a recording"
    )]
    TooLarge {
        /// The file's path, `standard input`, or `the input` for bytes in memory.
        input: String,
        size: InputSize,
        limit: u64,
    },

    /// A path names something other than the file wanted: a folder, a device, a FIFO.
    #[error("{path} is {found}: give {wanted}")]
    NotAFile {
        path: PathBuf,
        found: &'static str,
        wanted: &'static str,
    },

    /// The input is empty or only whitespace.
    #[error("the input is empty: pass a uiautomator XML dump or a JSON dump")]
    Empty,

    /// The bytes are not text in any encoding a dump uses.
    #[error(
        "the input is not valid {encoding} text (at byte {offset}); dumps are UTF-8 or UTF-16 with a byte-order mark"
    )]
    Encoding {
        encoding: &'static str,
        offset: usize,
    },

    /// Neither XML nor a JSON form we know.
    #[error(
        "unrecognised dump format: {found}; expected uiautomator/Appium XML, or droidbot, Rico, \
         droidrun or flat element-list JSON"
    )]
    UnknownFormat { found: String },

    /// The XML is malformed.
    #[error("malformed XML at line {line}, column {column}: {message}")]
    Xml {
        line: usize,
        column: usize,
        message: String,
    },

    /// The JSON is malformed.
    #[error("malformed JSON at line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },

    /// The JSON is well-formed but not shaped like the dump it claims to be.
    #[error("{format} JSON has an unexpected shape: {message}")]
    JsonShape {
        format: &'static str,
        message: String,
    },

    /// Nesting deeper than any real screen; refused instead of risking the stack.
    #[error(
        "the dump nests deeper than {limit} levels (at {at}); no real screen does, so the file \
         is likely corrupt or generated"
    )]
    TooDeep { limit: usize, at: String },

    /// The dump holds no node at all.
    #[error("the dump contains no UI nodes; capture it again while the screen is on and unlocked")]
    NoNodes,

    /// A rules file could not be read or understood.
    #[error("rules file {path}: {message}")]
    Rules { path: PathBuf, message: String },

    /// Reading or writing a file failed. The operating system's reason is part of the
    /// message, not a separate cause, so a report of the whole chain says it once.
    #[error("{path}: {reason}")]
    Io {
        path: PathBuf,
        reason: std::io::Error,
    },
}

/// How large an input that is too large is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSize {
    /// Its size is known: a file's, or bytes in memory.
    Exactly(u64),
    /// A stream that was read up to just past the limit.
    MoreThan(u64),
}

impl std::fmt::Display for InputSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputSize::Exactly(bytes) => write!(f, "{bytes} bytes"),
            InputSize::MoreThan(bytes) => write!(f, "more than {bytes} bytes"),
        }
    }
}

/// Result with tapscope-core's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Line and column (1-based) of a byte offset in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::line_column;

    #[test]
    fn line_column_counts_from_one_and_in_chars() {
        assert_eq!(line_column("abc", 0), (1, 1));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é\nxyz", 5), (2, 3));
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}
