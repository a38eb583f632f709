//! `RecordingError`: every way writing or reading a recording can fail, with the path and
//! what to do about it.

use std::io;
use std::path::PathBuf;

use crate::error::InputSize;

/// Why a recording could not be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordingError {
    /// The recording folder could not be created.
    #[error("cannot create the recording folder {path}: {source}; {}", advice(.source))]
    CreateDir {
        path: PathBuf,
        #[source]
        source: io::Error,
    },

    /// The folder already holds a recording; recordings are never appended to or overwritten.
    #[error(
        "{path} already holds a recording (session.jsonl); choose an empty or new folder to \
         record into"
    )]
    AlreadyExists { path: PathBuf },

    /// Writing the log or a screen file failed.
    #[error("cannot write {path}: {source}; {}", advice(.source))]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },

    /// A step could not be turned into JSON.
    #[error("cannot encode step {step} as JSON: {source}")]
    Encode {
        step: u64,
        #[source]
        source: serde_json::Error,
    },

    /// The path names nothing.
    #[error("no recording at {path}: nothing is there; check the path")]
    NotFound { path: PathBuf },

    /// The folder has no `session.jsonl`.
    #[error(
        "{path} is not a tapscope recording: it has no session.jsonl; pass the folder a \
         recording was written to"
    )]
    NoSession { path: PathBuf },

    /// Reading a file of the recording failed.
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },

    /// A file of the recording is a link, a FIFO, a device or a folder where the format has
    /// a regular file (or a folder where it has one, `screens/`, is not a real folder).
    #[error(
        "{path} is {found}, where a recording holds {wanted} of its own: tapscope reads a \
         recording only from the files inside its folder, never through a link, from a FIFO \
         or a device; put the real one there in its place (`cp -rL` copies a recording with \
         what its links point to)"
    )]
    NotInside {
        path: PathBuf,
        found: &'static str,
        wanted: &'static str,
    },

    /// A file of the recording is larger than the format allows.
    #[error(
        "{path} is {size}, over the {limit}-byte limit for {what}: tapscope does not read it; \
         check that this is the file tapscope wrote there"
    )]
    TooLarge {
        path: PathBuf,
        size: InputSize,
        limit: u64,
        what: &'static str,
    },

    /// `session.jsonl` holds nothing, not even its header.
    #[error(
        "{path} is empty: the recording was interrupted before its header was written, so it \
         holds no steps"
    )]
    Empty { path: PathBuf },

    /// The first line is not a recording header.
    #[error(
        "the first line of {path} is not a tapscope recording header ({reason}); pass a \
         session.jsonl that tapscope wrote"
    )]
    NotAHeader { path: PathBuf, reason: String },

    /// The header names another format.
    #[error(
        "{path} is a \"{found}\" file, not a tapscope recording (format \"{expected}\"); pass \
         a session.jsonl that tapscope wrote",
        expected = super::FORMAT
    )]
    WrongFormat { path: PathBuf, found: String },

    /// The header names a format version this tapscope does not read.
    #[error(
        "{path} is recording format version {found}, but this tapscope reads version \
         {supported}; {}",
        version_advice(*.found, *.supported)
    )]
    UnsupportedVersion {
        path: PathBuf,
        found: u64,
        supported: u32,
    },

    /// A screen path is not of the form `screens/<hash>.<xml|yaml|png|json>`, with the 16
    /// hex digits of a hash.
    #[error(
        "\"{path}\" is not a screen of a recording: screen paths have the form \
         screens/<hex digits>.xml, .yaml, .png or .json, named by the first 16 lower-case hex \
         digits of the SHA-256 of the file's content"
    )]
    BadScreenPath { path: String },

    /// A screen file the log refers to is not there.
    #[error("{path} is missing from {recording}: {}", if *.folder_missing {
        "the recording was copied without its screens/ folder"
    } else {
        "the file was deleted or the recording was copied only in part"
    })]
    ScreenMissing {
        path: String,
        recording: PathBuf,
        folder_missing: bool,
    },

    /// A screen file's content does not match the hash in its name.
    #[error(
        "{path} in {recording} does not match the hash in its name: the file was changed or \
         damaged after it was recorded"
    )]
    ScreenCorrupt { path: String, recording: PathBuf },

    /// A screen's text read in pixels is not the JSON tapscope writes.
    #[error(
        "{path} in {recording} is not text read in pixels ({reason}); the screen reads \
         without it if the file is removed from its step"
    )]
    PixelTextUnreadable {
        path: String,
        recording: PathBuf,
        reason: String,
    },

    /// A screen asked for as text is not UTF-8.
    #[error("{path} in {recording} is not UTF-8 text; load it as bytes")]
    ScreenNotText { path: String, recording: PathBuf },
}

/// What to do after a failed write or folder creation, by the kind of failure.
fn advice(source: &io::Error) -> &'static str {
    match source.kind() {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            "no space is left on the disk: free some space or record to another disk"
        }
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
            "choose a folder you can write to"
        }
        io::ErrorKind::NotADirectory | io::ErrorKind::AlreadyExists => {
            "a file is in the way: choose a new folder"
        }
        _ => "check the disk and the folder, or record to another folder",
    }
}

/// What to do about a version this tapscope does not read.
fn version_advice(found: u64, supported: u32) -> &'static str {
    if found > u64::from(supported) {
        "a newer tapscope wrote it: upgrade tapscope to read it"
    } else {
        "an older tapscope wrote it: read it with that tapscope"
    }
}
