//! The live session's recording: where it is written; the worker reads it again whenever
//! it grows ([`crate::gui::recording::Follow`]), so that the person's and agents' steps
//! show on the timeline as they happen; the live screen's timeline is that recording's.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

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
