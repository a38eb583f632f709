//! The one way a recording's files are read: only a regular file inside the recording,
//! never what a link points to, a FIFO or a device, and never more than the format allows.
//! Each file is looked at before it is opened, opened without following a link or waiting
//! for a FIFO's writer, and looked at again once open, so a file swapped in between is
//! refused too.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use super::RecordingError;
use crate::error::InputSize;

/// The largest screen file read: the largest dump tapscope reads at all.
pub const MAX_SCREEN_BYTES: u64 = crate::parse::MAX_INPUT_BYTES;

/// The largest `session.jsonl` (or replay report) read: 1 GiB, some 800,000 steps.
pub const MAX_LOG_BYTES: u64 = 1024 * 1024 * 1024;

/// Checks, without opening it, that `path` is a regular file of at most `limit` bytes.
/// `Ok(false)` when nothing is there.
pub(crate) fn check(path: &Path, limit: u64, what: &'static str) -> Result<bool, RecordingError> {
    match fs::symlink_metadata(path) {
        Ok(metadata) => regular(path, &metadata, limit, what).map(|()| true),
        Err(source) if source.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(read_error(path, source)),
    }
}

/// Checks that `path` is a real folder (not a link to one). `Ok(false)` when nothing is
/// there.
pub(crate) fn check_folder(path: &Path) -> Result<bool, RecordingError> {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => Ok(true),
        Ok(metadata) => Err(RecordingError::NotInside {
            path: path.to_path_buf(),
            found: crate::prune::file_kind(metadata.file_type()),
            wanted: "a folder",
        }),
        Err(source) if source.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(read_error(path, source)),
    }
}

/// The bytes of the regular file `path`, at most `limit` of them; `Ok(None)` when nothing
/// is there. `what` names the file in the error for one too large.
pub(crate) fn read(
    path: &Path,
    limit: u64,
    what: &'static str,
) -> Result<Option<Vec<u8>>, RecordingError> {
    if !check(path, limit, what)? {
        return Ok(None);
    }
    let file = match open(path) {
        Ok(file) => file,
        Err(source) if source.kind() == io::ErrorKind::NotFound => return Ok(None),
        // A link put in its place since it was looked at (O_NOFOLLOW refuses it).
        Err(source) => {
            return Err(match check(path, limit, what) {
                Err(refused) => refused,
                Ok(_) => read_error(path, source),
            });
        }
    };
    let metadata = file.metadata().map_err(|source| read_error(path, source))?;
    regular(path, &metadata, limit, what)?;
    let mut bytes = Vec::new();
    // One byte past the limit, in case the file grew since it was measured.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| read_error(path, source))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, InputSize::MoreThan(limit), limit, what));
    }
    Ok(Some(bytes))
}

/// Opens `path` for reading; on Unix without following a link and without waiting for a
/// FIFO's writer (neither affects a regular file).
fn open(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

fn regular(
    path: &Path,
    metadata: &Metadata,
    limit: u64,
    what: &'static str,
) -> Result<(), RecordingError> {
    if !metadata.file_type().is_file() {
        return Err(RecordingError::NotInside {
            path: path.to_path_buf(),
            found: crate::prune::file_kind(metadata.file_type()),
            wanted: "a regular file",
        });
    }
    if metadata.len() > limit {
        return Err(too_large(
            path,
            InputSize::Exactly(metadata.len()),
            limit,
            what,
        ));
    }
    Ok(())
}

fn too_large(path: &Path, size: InputSize, limit: u64, what: &'static str) -> RecordingError {
    RecordingError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit,
        what,
    }
}

fn read_error(path: &Path, source: io::Error) -> RecordingError {
    RecordingError::Read {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// What was looked at may be swapped before it is opened: the open itself neither
    /// follows a link nor waits for a FIFO's writer.
    #[test]
    fn the_open_follows_no_link_and_waits_on_no_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.xml");
        fs::write(&real, "<hierarchy/>").unwrap();
        let link = dir.path().join("link.xml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(open(&link).is_err(), "a link is not followed");
        assert!(open(&real).is_ok());

        let fifo = dir.path().join("fifo.xml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let (done, opened) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = done.send(open(&path).map(|file| file.metadata().map(|m| m.is_file())));
        });
        let opened = opened
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the open does not wait for a writer");
        assert!(matches!(opened, Ok(Ok(false))), "{opened:?}");
        // And once open, what it is decides: refused, naming it.
        let error = regular(&fifo, &fs::metadata(&fifo).unwrap(), 10, "a file").unwrap_err();
        assert!(error.to_string().contains("is a FIFO"), "{error}");
    }
}
