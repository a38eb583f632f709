//! The live session's recording, read again whenever it grows, so that the person's and
//! agents' steps show on the timeline as they happen; the live screen's timeline is that
//! recording's.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tapscope_core::recording::SESSION_FILE;

use crate::gui::error::OpenError;
use crate::gui::recording::Recording;

/// Where a live session is recorded: the folder the person named, else a new one under the
/// system's temporary folder (the timeline needs a recording).
pub fn record_dir(chosen: &str, device: &str) -> PathBuf {
    let chosen = chosen.trim();
    if !chosen.is_empty() {
        return PathBuf::from(chosen);
    }
    let device: String = device
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    std::env::temp_dir()
        .join("tapscope-live")
        .join(format!("{device}-{unix_ms}"))
}

/// A recording being written by the live session, and how much of its log was read.
#[derive(Debug)]
pub struct Follow {
    dir: PathBuf,
    /// The log's length when last read: it only grows, a step at a time.
    read: u64,
    /// The recording as last read, whose loaded screens the next reading keeps.
    earlier: Option<Arc<Recording>>,
}

impl Follow {
    /// Follows the recording just started in `dir` (its header written, no steps yet).
    pub fn new(dir: PathBuf) -> Self {
        let read = log_len(&dir).unwrap_or(0);
        Self {
            dir,
            read,
            earlier: None,
        }
    }

    /// The recording read again when steps were written since the last call; the reason
    /// when it could not be read.
    pub fn grown(&mut self) -> Option<Result<Arc<Recording>, OpenError>> {
        // A folder that went away: the journal says so when it next writes.
        let len = log_len(&self.dir)?;
        if len == self.read {
            return None;
        }
        self.read = len;
        let read = Recording::read(&self.dir, self.earlier.as_deref()).map(Arc::new);
        if let Ok(recording) = &read {
            self.earlier = Some(Arc::clone(recording));
        }
        Some(read)
    }
}

fn log_len(dir: &Path) -> Option<u64> {
    Some(std::fs::metadata(dir.join(SESSION_FILE)).ok()?.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_folder_is_kept_and_an_empty_one_is_a_new_temporary_folder() {
        assert_eq!(record_dir(" runs/a ", "sim"), PathBuf::from("runs/a"));
        let made = record_dir("", "10.0.0.5:5555");
        assert!(made.starts_with(std::env::temp_dir().join("tapscope-live")));
        let name = made.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(name.starts_with("10-0-0-5-5555-"), "{name}");
    }
}
