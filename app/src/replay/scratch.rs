//! Folders a new recording is written into before it is kept: beside the recording it will
//! replace (`replay --update`, `record-demo`), or in the system's temporary folder when it
//! is only read (a replay that is not kept).
//!
//! Each holds a `lock` file its process keeps locked while it runs, with the process's id
//! written once locked. A run that is killed (SIGKILL, a power cut) cannot remove its
//! folder, but the system releases its lock: the next run that makes a folder of the same
//! kind in the same place removes every one whose lock it can take. A recording that such
//! a run had moved aside to replace is put back first when nothing took its place, so
//! nothing is lost.
//!
//! A replacement is two renames in one parent folder: the old recording into the scratch
//! folder, the new one into its place. When the second fails, the first is undone; when
//! that fails too, both errors are said and the old recording is kept where it waits.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The lock file in each scratch folder.
const LOCK: &str = "lock";
/// The new recording, in the scratch folder.
const RUN: &str = "run";
/// Where the recording being replaced waits while the new one takes its place.
const REPLACED: &str = "replaced";

/// A scratch folder in use: removed, with all it holds, when dropped.
#[derive(Debug)]
pub struct Scratch {
    dir: tempfile::TempDir,
    /// Held locked for as long as the folder is in use.
    _lock: File,
}

/// A recording that could not take another's place.
#[derive(Debug, thiserror::Error)]
pub enum ReplaceError {
    /// The path names no folder by name (`.`, `..`, `/`).
    #[error("{} names no folder to replace: give the recording's folder by its name", target.display())]
    NoName { target: PathBuf },
    /// The old recording could not be moved aside: nothing changed.
    #[error(
        "could not move {} aside to replace it: {source}; it is as it was",
        target.display()
    )]
    MoveAside {
        target: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The new recording could not be moved in; the old one is back in its place.
    #[error(
        "could not move the new recording into {}: {source}; it is as it was",
        target.display()
    )]
    MoveIn {
        target: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The new recording could not be moved in, nor the old one back.
    #[error(
        "could not move the new recording into {} ({swap}), nor the recording that was there \
         back from {} ({restore}): move {} to {} by hand",
        target.display(),
        aside.display(),
        aside.display(),
        target.display()
    )]
    RestoreFailed {
        target: PathBuf,
        /// Where the old recording is now.
        aside: PathBuf,
        swap: io::Error,
        restore: io::Error,
    },
}

impl Scratch {
    /// A new scratch folder in `parent` whose name starts with `prefix`, after removing
    /// the ones of that name that earlier runs left behind.
    pub fn new_in(parent: &Path, prefix: &str) -> io::Result<Self> {
        sweep(parent, prefix);
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        let mut lock = File::create_new(dir.path().join(LOCK))?;
        lock.lock()?;
        // Written once locked: a lock file still empty is one being made, not one left.
        writeln!(lock, "{}", std::process::id())?;
        Ok(Self { dir, _lock: lock })
    }

    /// Where the new recording is written (not made yet: the journal makes it).
    pub fn run(&self) -> PathBuf {
        self.dir.path().join(RUN)
    }

    /// Puts the new recording in the place of `target`, a folder in the scratch folder's
    /// parent (or nothing yet); what was there is removed once the new one is in place.
    pub fn replace(self, target: &Path) -> Result<(), ReplaceError> {
        self.replace_with(target, &|from, to| fs::rename(from, to))
    }

    /// [`Scratch::replace`], moving with `rename`.
    fn replace_with(
        self,
        target: &Path,
        rename: &dyn Fn(&Path, &Path) -> io::Result<()>,
    ) -> Result<(), ReplaceError> {
        let run = self.run();
        let there = match fs::symlink_metadata(target) {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(source) => {
                let target = target.to_path_buf();
                return Err(ReplaceError::MoveAside { target, source });
            }
        };
        if !there {
            return rename(&run, target).map_err(|source| ReplaceError::MoveIn {
                target: target.to_path_buf(),
                source,
            });
        }
        let Some(name) = target.file_name() else {
            let target = target.to_path_buf();
            return Err(ReplaceError::NoName { target });
        };
        let aside = self.dir.path().join(REPLACED);
        fs::create_dir(&aside)
            .and_then(|()| rename(target, &aside.join(name)))
            .map_err(|source| ReplaceError::MoveAside {
                target: target.to_path_buf(),
                source,
            })?;
        let Err(swap) = rename(&run, target) else {
            // Dropped: the scratch folder goes, and the old recording with it.
            return Ok(());
        };
        match rename(&aside.join(name), target) {
            Ok(()) => Err(ReplaceError::MoveIn {
                target: target.to_path_buf(),
                source: swap,
            }),
            Err(restore) => {
                // The old recording's only copy is in the scratch folder: it stays.
                let kept = self.dir.keep();
                Err(ReplaceError::RestoreFailed {
                    target: target.to_path_buf(),
                    aside: kept.join(REPLACED).join(name),
                    swap,
                    restore,
                })
            }
        }
    }
}

/// Removes the scratch folders named `prefix`… in `parent` that no running process holds.
/// Best effort: one that cannot be looked into or removed is left for another time.
fn sweep(parent: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let named = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(prefix));
        let folder = entry.file_type().is_ok_and(|t| t.is_dir());
        if named && folder && abandoned(&entry.path()) {
            // One that cannot be cleared now is tried again on the next run.
            let _ = clear(parent, &entry.path());
        }
    }
}

/// Whether `dir` is a scratch folder whose process has let go of it: its lock file was
/// locked and written once, and can be locked now.
fn abandoned(dir: &Path) -> bool {
    let Ok(mut lock) = File::open(dir.join(LOCK)) else {
        return false;
    };
    if lock.try_lock().is_err() {
        return false;
    }
    let mut pid = String::new();
    lock.read_to_string(&mut pid).is_ok() && !pid.trim().is_empty()
}

/// Puts back each recording an abandoned scratch folder had moved aside when nothing took
/// its place, then removes the folder. One that cannot be put back stays, and so does the
/// folder.
fn clear(parent: &Path, dir: &Path) -> io::Result<()> {
    match fs::read_dir(dir.join(REPLACED)) {
        Ok(aside) => {
            for entry in aside {
                let entry = entry?;
                put_back(parent, &entry.path(), &entry.file_name())?;
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    fs::remove_dir_all(dir)
}

/// Moves `aside` back to `parent/name` unless something is there now (the new recording).
fn put_back(parent: &Path, aside: &Path, name: &OsStr) -> io::Result<()> {
    let home = parent.join(name);
    match fs::symlink_metadata(&home) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => fs::rename(aside, &home),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// A recording-like folder with one file.
    fn folder(path: &Path, content: &str) {
        fs::create_dir_all(path).unwrap();
        fs::write(path.join("session.jsonl"), content).unwrap();
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A scratch folder as a killed run leaves it: its lock written, and let go of.
    fn abandon(scratch: Scratch) -> PathBuf {
        scratch.dir.keep()
    }

    #[test]
    fn a_replacement_puts_the_new_recording_in_place_and_leaves_nothing_else() {
        let parent = tempfile::tempdir().unwrap();
        let target = parent.path().join("baseline");
        folder(&target, "old");
        let scratch = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        folder(&scratch.run(), "new");
        scratch.replace(&target).unwrap();
        assert_eq!(
            fs::read_to_string(target.join("session.jsonl")).unwrap(),
            "new"
        );
        assert_eq!(names(parent.path()), ["baseline"]);
    }

    #[test]
    fn a_replacement_of_nothing_moves_the_new_recording_there() {
        let parent = tempfile::tempdir().unwrap();
        let target = parent.path().join("fresh");
        let scratch = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        folder(&scratch.run(), "new");
        scratch.replace(&target).unwrap();
        assert_eq!(names(parent.path()), ["fresh"]);
    }

    #[test]
    fn when_the_new_recording_cannot_move_in_the_old_one_is_put_back() {
        let parent = tempfile::tempdir().unwrap();
        let target = parent.path().join("baseline");
        folder(&target, "old");
        let scratch = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        folder(&scratch.run(), "new");
        // The second rename (the new recording into place) fails.
        let calls = Cell::new(0);
        let rename = |from: &Path, to: &Path| {
            calls.set(calls.get() + 1);
            if calls.get() == 2 {
                return Err(io::Error::other("the disk said no"));
            }
            fs::rename(from, to)
        };
        let error = scratch.replace_with(&target, &rename).unwrap_err();
        assert!(
            matches!(&error, ReplaceError::MoveIn { source, .. } if source.to_string() == "the disk said no"),
            "{error:?}"
        );
        assert!(error.to_string().contains("it is as it was"), "{error}");
        assert_eq!(calls.get(), 3, "moved aside, failed to move in, moved back");
        assert_eq!(
            fs::read_to_string(target.join("session.jsonl")).unwrap(),
            "old"
        );
        assert_eq!(names(parent.path()), ["baseline"], "the scratch is gone");
    }

    #[test]
    fn when_the_old_recording_cannot_be_put_back_both_errors_are_said_and_it_is_kept() {
        let parent = tempfile::tempdir().unwrap();
        let target = parent.path().join("baseline");
        folder(&target, "old");
        let scratch = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        folder(&scratch.run(), "new");
        let calls = Cell::new(0);
        let rename = |from: &Path, to: &Path| {
            calls.set(calls.get() + 1);
            match calls.get() {
                2 => Err(io::Error::other("the swap failed")),
                3 => Err(io::Error::other("the restore failed")),
                _ => fs::rename(from, to),
            }
        };
        let error = scratch.replace_with(&target, &rename).unwrap_err();
        let ReplaceError::RestoreFailed { aside, .. } = &error else {
            panic!("{error:?}");
        };
        let said = error.to_string();
        assert!(
            said.contains("the swap failed") && said.contains("the restore failed"),
            "{said}"
        );
        assert!(said.contains("by hand"), "{said}");
        assert_eq!(
            fs::read_to_string(aside.join("session.jsonl")).unwrap(),
            "old",
            "the old recording is kept where it waits"
        );
        assert!(!target.exists());

        // The next run that makes a scratch folder there puts it back.
        let next = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        assert_eq!(
            fs::read_to_string(target.join("session.jsonl")).unwrap(),
            "old"
        );
        drop(next);
        assert_eq!(names(parent.path()), ["baseline"]);
    }

    #[test]
    fn a_folder_left_by_a_killed_run_is_removed_by_the_next_one_and_a_live_one_is_not() {
        let parent = tempfile::tempdir().unwrap();
        let left = abandon(Scratch::new_in(parent.path(), ".scratch-").unwrap());
        folder(&left.join(RUN), "half a recording");
        let live = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        assert!(!left.exists(), "the abandoned folder is removed");

        let other = Scratch::new_in(parent.path(), ".scratch-").unwrap();
        assert!(live.dir.path().exists(), "a folder still locked is kept");
        // Not a scratch folder: no lock file, another prefix, or a lock still being made.
        let bare = parent.path().join(".scratch-bare");
        fs::create_dir(&bare).unwrap();
        let making = parent.path().join(".scratch-making");
        fs::create_dir(&making).unwrap();
        File::create(making.join(LOCK)).unwrap();
        let mine = parent.path().join("user-data");
        fs::create_dir(&mine).unwrap();
        fs::write(mine.join(LOCK), "1").unwrap();
        drop(Scratch::new_in(parent.path(), ".scratch-").unwrap());
        assert!(bare.exists() && making.exists() && mine.exists());
        drop((live, other));
        assert_eq!(
            names(parent.path()),
            [".scratch-bare", ".scratch-making", "user-data"]
        );
    }

    #[test]
    fn a_recording_moved_aside_by_a_killed_run_is_put_back_unless_replaced() {
        let parent = tempfile::tempdir().unwrap();
        // Killed between the two renames: the baseline waits in the scratch folder.
        let left = abandon(Scratch::new_in(parent.path(), ".scratch-").unwrap());
        folder(&left.join(REPLACED).join("baseline"), "old");
        // Killed after both: the new one is in place, the old one waits to be removed.
        let done = abandon(Scratch::new_in(parent.path(), ".scratch-").unwrap());
        folder(&done.join(REPLACED).join("other"), "old other");
        folder(&parent.path().join("other"), "new other");

        drop(Scratch::new_in(parent.path(), ".scratch-").unwrap());
        assert_eq!(names(parent.path()), ["baseline", "other"]);
        let read = |name: &str| fs::read_to_string(parent.path().join(name).join("session.jsonl"));
        assert_eq!(read("baseline").unwrap(), "old");
        assert_eq!(read("other").unwrap(), "new other");
    }
}
