//! The recording format: a folder with `session.jsonl` (a header line, then one JSON line
//! per tool call) and `screens/` (each raw dump, pruned text and screenshot once, and each
//! step's log, named by content hash). `docs/recording-format.md` describes it for users.
//!
//! Only regular files inside the folder are read, never through a link, from a FIFO or a
//! device, and none larger than the format allows ([`MAX_LOG_BYTES`], [`MAX_SCREEN_BYTES`]).
//!
//! Steps are appended and flushed one line at a time, so a crash loses at most the step in
//! flight; [`read`] keeps every step before a cut-short last line and says what it skipped.
//! A session's screens are written through a [`ScreenStore`], which stores, counts and
//! shows each once; [`RecordingWriter::store_screen`] writes one screen's files as given.
//!
//! ```
//! use tapscope_core::recording::{self, Actor, Header, RecordingWriter, ScreenFiles, Step};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let folder = dir.path().join("rec");
//! let mut writer =
//!     RecordingWriter::create(&folder, &Header::new("sim", "0.1.0", "o200k", 1_700_000_000_000))
//!         .unwrap();
//! let before = writer
//!     .store_screen(&ScreenFiles {
//!         version: "a1",
//!         dump: "<hierarchy/>",
//!         pruned: "[1] \"Send\"\n",
//!         screenshot: None,
//!         pixel_text: None,
//!         raw_tokens: 120,
//!         pruned_tokens: 9,
//!     })
//!     .unwrap();
//! let step = Step {
//!     actor: Actor::Agent,
//!     tool: "tap".into(),
//!     arguments: serde_json::json!({ "handle": "a1_1" }),
//!     handle: Some("a1_1".into()),
//!     path: vec![[930, 2290]],
//!     before: Some(before),
//!     ..Step::default()
//! };
//! assert_eq!(writer.append(&step).unwrap(), 1);
//!
//! let recording = recording::read(&folder).unwrap();
//! assert_eq!(recording.header.device, "sim");
//! assert_eq!(recording.steps[0].tool, "tap");
//! assert!(recording.problems.is_empty());
//! let pruned = recording.steps[0].before.as_ref().unwrap().pruned.as_str();
//! assert!(recording.load_text(pruned).unwrap().contains("Send"));
//! ```

mod error;
mod file;
mod reader;
mod store;
mod types;
mod writer;

pub use error::RecordingError;
// The replay report is read as the recording's own files are.
#[cfg(feature = "replay")]
pub(crate) use file::read as read_regular_file;
pub use file::{MAX_LOG_BYTES, MAX_SCREEN_BYTES};
pub use reader::{Problem, ProblemKind, Recording, read};
pub use store::{ScreenKey, ScreenStore, SeenScreen};
pub use types::{
    Actor, AdbCommand, Check, CommandKind, Durability, Header, Landed, LoggedCrash, ProxyHeader,
    ScreenRef, Step, StepLog, StepOutcome,
};
pub use writer::{RecordingWriter, ScreenFiles};

/// The `format` every recording header names.
pub const FORMAT: &str = "tapscope-recording";
/// The format version this tapscope writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The log's name inside a recording folder.
pub const SESSION_FILE: &str = "session.jsonl";
/// The screens folder's name inside a recording folder.
pub const SCREENS_DIR: &str = "screens";
