//! The real data tests read beside the checkout (`../shared/corpus`, `../shared/pairs`),
//! never copied into it: found, or said to be missing where whoever runs the tests sees it.

use std::io::Write;
use std::path::PathBuf;

/// `../shared/NAME` beside the checkout when it is a folder; otherwise `None`, after a note
/// on standard error that the tests of `what` checked nothing without it.
pub fn shared_dir(name: &str, what: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    // Straight to standard error, past the test harness's capture (which hides what
    // `eprintln!` says in a passing test).
    let _ = writeln!(
        std::io::stderr(),
        "note: {what} checked nothing: {} does not exist (put it there to run them)",
        dir.display()
    );
    None
}

#[cfg(test)]
mod tests {
    use super::shared_dir;

    #[test]
    fn a_missing_folder_is_none_and_an_existing_one_is_found_beside_the_checkout() {
        assert_eq!(shared_dir("no such folder here", "this test"), None);
        let found = shared_dir("", "this test");
        let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
        assert_eq!(found.is_some(), beside.is_dir());
    }
}
