//! Files pushed into the sim's memory (`adb push`, uiautomator2's `u2.jar`), bounded a
//! file and in all (as what commands write is, and pipes: [`FileLimits`]): each chunk is counted as it arrives, against the file's limit and
//! against everything kept and being pushed, so no push holds more than the limits
//! allow, however many run at once. A push that stops midway keeps nothing.

use super::{SimFile, SimShell, normalize};
use crate::device::adbd::PushedFile;

/// How much the sim keeps from pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileLimits {
    /// The most one pushed file may hold.
    pub(super) file: usize,
    /// The most all files together may hold, pushes under way included.
    pub(super) total: usize,
    /// The most one pipe holds: the sim runs a pipeline's commands one after the other,
    /// so what one writes waits whole for the next.
    pub(super) pipe: usize,
}

impl Default for FileLimits {
    fn default() -> Self {
        Self {
            file: 64 << 20,
            total: 256 << 20,
            pipe: 16 << 20,
        }
    }
}

/// `bytes` as a limit is said: in MiB, or KiB when smaller (as in tests).
pub(super) fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// A push under way: its bytes so far, held against the total until it is kept or dropped.
#[derive(Debug)]
pub(super) struct Pending<'a, C> {
    shell: &'a SimShell<C>,
    path: String,
    mode: u32,
    bytes: Vec<u8>,
}

/// Starts a push to `path`. As adbd, a file already there goes first: a push that fails
/// leaves none.
pub(super) fn start<'a, C>(
    shell: &'a SimShell<C>,
    path: &str,
    mode: u32,
) -> Result<Pending<'a, C>, String> {
    let path = normalize(path);
    if !path.starts_with('/') || path.ends_with('/') {
        return Err(format!(
            "couldn't create file: Is a directory: push to a file's absolute path, not {path:?}"
        ));
    }
    shell.files.lock().by_path.remove(&path);
    Ok(Pending {
        shell,
        path,
        mode,
        bytes: Vec::new(),
    })
}

impl<C> PushedFile for Pending<'_, C> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let limits = self.shell.file_limits;
        if self.bytes.len() + bytes.len() > limits.file {
            return Err(format!(
                "write failed: File too large: the sim keeps pushed files of up to {}; push a \
                 smaller file",
                size(limits.file)
            ));
        }
        let mut files = self.shell.files.lock();
        if files.held() + bytes.len() > limits.total {
            return Err(format!(
                "write failed: No space left on device: the sim keeps at most {} of files in \
                 memory; remove some (`adb shell rm FILE`) or restart the sim, then push again",
                size(limits.total)
            ));
        }
        files.pushing += bytes.len();
        drop(files);
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn finish(mut self: Box<Self>, mtime: u64) -> Result<(), String> {
        let bytes = std::mem::take(&mut self.bytes);
        let mut files = self.shell.files.lock();
        files.pushing -= bytes.len();
        let file = SimFile {
            bytes,
            mode: self.mode,
            mtime: Some(mtime),
        };
        files.by_path.insert(self.path.clone(), file);
        Ok(())
    }
}

impl<C> Drop for Pending<'_, C> {
    /// What an unfinished push held is given back.
    fn drop(&mut self) {
        if !self.bytes.is_empty() {
            self.shell.files.lock().pushing -= self.bytes.len();
        }
    }
}
