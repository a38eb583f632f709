//! A recording read again whenever its log grows (the live session's, a proxy's, a server's
//! still recording), so its new steps reach the timeline as they are written: [`Follow`]
//! reads, [`Following`] runs it on a thread of its own for a recording opened from disk (or
//! one opened before its first step, until it has one).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use tapscope_core::recording::SESSION_FILE;

use super::Recording;
use crate::gui::error::OpenError;

/// How often [`Following`] looks at the log's length: new steps show within this.
pub const FOLLOW_EVERY: Duration = Duration::from_millis(250);

/// A reading of the recording after it grew, or why it could not be read.
pub type Grown = Result<Arc<Recording>, OpenError>;

/// A recording being written, and how much of its log was read.
#[derive(Debug)]
pub struct Follow {
    /// The recording as opened: its folder, or its log.
    path: PathBuf,
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
            path: dir,
            read,
            earlier: None,
        }
    }

    /// Follows the recording at `path` (a folder or its log) from its start: the first
    /// look reads it, whatever its length.
    pub fn from_start(path: PathBuf) -> Self {
        Self {
            path,
            read: 0,
            earlier: None,
        }
    }

    /// Follows `recording` from where it was read.
    pub fn after(recording: Arc<Recording>) -> Self {
        Self {
            path: recording.path.clone(),
            read: recording.read_len,
            earlier: Some(recording),
        }
    }

    /// The recording read again when steps were written since the last call; the reason
    /// when it could not be read.
    pub fn grown(&mut self) -> Option<Grown> {
        // A folder that went away: nothing to read until it is back.
        let len = log_len(&self.path)?;
        if len == self.read {
            return None;
        }
        self.read = len;
        let read = Recording::read(&self.path, self.earlier.as_deref()).map(Arc::new);
        if let Ok(recording) = &read {
            self.earlier = Some(Arc::clone(recording));
        }
        Some(read)
    }
}

/// The length of the log of the recording at `path` (a folder or its log); `None` when
/// there is none.
pub(super) fn log_len(path: &Path) -> Option<u64> {
    let metadata = std::fs::metadata(path).ok()?;
    if metadata.is_file() {
        return Some(metadata.len());
    }
    Some(std::fs::metadata(path.join(SESSION_FILE)).ok()?.len())
}

/// A [`Follow`] on a thread, started the first time news is asked for: the log's length
/// looked at every [`FOLLOW_EVERY`], the recording read there when it grew and handed over,
/// the window woken to draw it. The thread ends once this is dropped.
#[derive(Debug)]
pub struct Following {
    /// What the thread takes, until it starts.
    unstarted: Option<(Follow, Sender<Grown>, Receiver<()>)>,
    news: Receiver<Grown>,
    /// Dropped with this, which ends the thread's wait.
    _stop: Sender<()>,
}

impl Following {
    pub fn new(follow: Follow) -> Self {
        let (stop, stopped) = channel();
        let (send, news) = channel();
        Self {
            unstarted: Some((follow, send, stopped)),
            news,
            _stop: stop,
        }
    }

    /// The latest reading since the last call, when the recording grew; the thread starts
    /// on the first call, and wakes `ctx` with each reading.
    pub fn news(&mut self, ctx: &egui::Context) -> Option<Grown> {
        if let Some((follow, send, stopped)) = self.unstarted.take() {
            start(follow, send, stopped, ctx.clone());
        }
        self.news.try_iter().last()
    }
}

fn start(mut follow: Follow, send: Sender<Grown>, stopped: Receiver<()>, ctx: egui::Context) {
    let spawned = std::thread::Builder::new()
        .name("tapscope follow".into())
        .spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(FOLLOW_EVERY) {
                if let Some(grown) = follow.grown() {
                    if send.send(grown).is_err() {
                        return;
                    }
                    ctx.request_repaint();
                }
            }
        });
    if let Err(e) = spawned {
        eprintln!("tapscope: the recording will not be followed as it grows: {e}");
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use tapscope_core::session::synthetic;

    use super::*;

    #[test]
    fn a_recording_is_followed_from_where_it_was_read() {
        let dir = tempfile::tempdir().expect("a folder");
        synthetic::write(dir.path(), 3, 3).expect("written");
        let log = dir.path().join(SESSION_FILE);
        let text = std::fs::read_to_string(&log).expect("the log");
        let last = text.lines().last().expect("a step").to_owned();
        let read = Arc::new(Recording::read(dir.path(), None).expect("read"));
        let mut follow = Follow::after(Arc::clone(&read));
        assert!(follow.grown().is_none(), "nothing written since");

        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&log)
            .expect("the log opens");
        writeln!(file, "{}", last.replace("\"step\":3", "\"step\":4")).expect("appended");
        let grown = follow.grown().expect("grown").expect("read");
        assert_eq!(grown.steps().len(), 4);
        assert!(grown.same_recording(&read), "what was loaded is kept");
        assert!(follow.grown().is_none());
    }

    #[test]
    fn a_log_opened_as_a_file_is_followed_too() {
        let dir = tempfile::tempdir().expect("a folder");
        synthetic::write(dir.path(), 2, 3).expect("written");
        let log = dir.path().join(SESSION_FILE);
        let read = Recording::read(&log, None).expect("read");
        assert_eq!(read.path, log);
        assert_eq!(log_len(&log), Some(read.read_len));
        assert_eq!(log_len(dir.path()), Some(read.read_len));
        assert_eq!(log_len(&dir.path().join("gone")), None);
    }
}
