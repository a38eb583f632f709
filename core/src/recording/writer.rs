//! `RecordingWriter`: the header, then steps appended and flushed one line at a time, and
//! screens stored once each under their content hash; with [`Durability::Step`] every
//! screen file, then the step line that names it, is synced to disk before `append`
//! returns.

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Durability, Header, RecordingError, SCREENS_DIR, SESSION_FILE, ScreenRef, Step};

/// One screen's contents, handed to [`RecordingWriter::store_screen`].
#[derive(Clone, Copy)]
pub struct ScreenFiles<'a> {
    /// The snapshot version of the screen.
    pub version: &'a str,
    /// The raw dump, stored as `screens/<hash>.xml`.
    pub dump: &'a str,
    /// The pruned text, stored as `screens/<hash>.yaml`.
    pub pruned: &'a str,
    /// The screenshot PNG, stored as `screens/<hash>.png`.
    pub screenshot: Option<&'a [u8]>,
    /// The text read in the screenshot's pixels, as JSON lines of [`PixelText`], stored as
    /// `screens/<hash>.json`.
    ///
    /// [`PixelText`]: crate::model::PixelText
    pub pixel_text: Option<&'a [u8]>,
    /// Tokens of the raw dump, counted by the caller.
    pub raw_tokens: u32,
    /// Tokens of the pruned text, counted by the caller.
    pub pruned_tokens: u32,
}

/// The content hashes ([`content_hash`]) a screen's dump, pruned text and pixel text are
/// named by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Hashes {
    pub(super) dump: String,
    pub(super) pruned: String,
    pub(super) pixel_text: Option<String>,
}

/// Sizes rather than contents: a dump is megabytes.
impl fmt::Debug for ScreenFiles<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScreenFiles")
            .field("version", &self.version)
            .field("dump_bytes", &self.dump.len())
            .field("pruned_bytes", &self.pruned.len())
            .field("screenshot_bytes", &self.screenshot.map(<[u8]>::len))
            .field("pixel_text_bytes", &self.pixel_text.map(<[u8]>::len))
            .field("raw_tokens", &self.raw_tokens)
            .field("pruned_tokens", &self.pruned_tokens)
            .finish()
    }
}

/// Writes one recording: created with its header, then steps appended one by one.
pub struct RecordingWriter {
    dir: PathBuf,
    log_name: PathBuf,
    log: Log,
    durability: Durability,
    /// Screen file names (`<hash>.<ext>`) known to be in `screens/`.
    stored: HashSet<String>,
    last_step: u64,
    /// The last write to the log failed, perhaps halfway through a line.
    broken_line: bool,
    temp_counter: u64,
}

impl fmt::Debug for RecordingWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordingWriter")
            .field("dir", &self.dir)
            .field("log_name", &self.log_name)
            .field("stored_files", &self.stored.len())
            .field("last_step", &self.last_step)
            .field("broken_line", &self.broken_line)
            .field("durability", &self.durability)
            .finish_non_exhaustive()
    }
}

impl RecordingWriter {
    /// Creates `dir` and `dir/screens` if missing and writes and flushes the header line
    /// to `dir/session.jsonl`. A folder that already holds a `session.jsonl` is refused.
    pub fn create(dir: &Path, header: &Header) -> Result<Self, RecordingError> {
        let log_name = dir.join(SESSION_FILE);
        if log_name.exists() {
            return Err(RecordingError::AlreadyExists {
                path: dir.to_path_buf(),
            });
        }
        // The folders first, so a failure leaves no empty log behind.
        create_dir(dir)?;
        create_dir(&dir.join(SCREENS_DIR))?;
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&log_name)
            .map_err(|source| {
                if source.kind() == io::ErrorKind::AlreadyExists {
                    RecordingError::AlreadyExists {
                        path: dir.to_path_buf(),
                    }
                } else {
                    RecordingError::Write {
                        path: log_name.clone(),
                        source,
                    }
                }
            })?;
        Self::start(dir, &log_name, Log::File(file), header)
    }

    /// Like [`create`](Self::create), but the log goes to `sink` instead of
    /// `dir/session.jsonl`; screens still go to `dir/screens`. `log_name` is the name
    /// errors give the log. For tests (a full disk is `/dev/full`) and for logs kept
    /// elsewhere.
    /// A sink cannot be synced: it is flushed.
    pub fn with_sink(
        dir: &Path,
        log_name: &Path,
        sink: Box<dyn Write + Send>,
        header: &Header,
    ) -> Result<Self, RecordingError> {
        Self::start(dir, log_name, Log::Sink(sink), header)
    }

    fn start(
        dir: &Path,
        log_name: &Path,
        log: Log,
        header: &Header,
    ) -> Result<Self, RecordingError> {
        create_dir(&dir.join(SCREENS_DIR))?;
        let mut writer = Self {
            dir: dir.to_path_buf(),
            log_name: log_name.to_path_buf(),
            log,
            durability: header.durability(),
            stored: HashSet::new(),
            last_step: 0,
            broken_line: false,
            temp_counter: 0,
        };
        let mut line = serde_json::to_vec(header)
            .map_err(|source| RecordingError::Encode { step: 0, source })?;
        line.push(b'\n');
        writer.write_line(&line)?;
        Ok(writer)
    }

    /// The recording folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stores one screen's files under `screens/`, named by the first 16 hex digits of the
    /// SHA-256 of their bytes; a file already stored is not written again. Each file is
    /// written under a temporary name and then renamed, so a crash never leaves a
    /// half-written file under a hash name. Under [`Durability::Step`] the new files and
    /// the folder's new names are synced together (one wait for the disk rather than one a
    /// file) before this returns, and so before any step line can name them.
    ///
    /// [`ScreenStore`](super::ScreenStore) stores a session's screens through this, each
    /// once, and counts their tokens.
    pub fn store_screen(&mut self, screen: &ScreenFiles<'_>) -> Result<ScreenRef, RecordingError> {
        let hashes = Hashes {
            dump: content_hash(screen.dump.as_bytes()),
            pruned: content_hash(screen.pruned.as_bytes()),
            pixel_text: screen.pixel_text.map(content_hash),
        };
        self.store_hashed(screen, &hashes)
    }

    /// [`store_screen`](Self::store_screen) with the hashes of the dump, pruned text and
    /// pixel text already taken (the screenshot's is taken here).
    pub(super) fn store_hashed(
        &mut self,
        screen: &ScreenFiles<'_>,
        hashes: &Hashes,
    ) -> Result<ScreenRef, RecordingError> {
        let mut written = Vec::new();
        let dump = self.store_file(screen.dump.as_bytes(), &hashes.dump, "xml", &mut written)?;
        let pruned = self.store_file(
            screen.pruned.as_bytes(),
            &hashes.pruned,
            "yaml",
            &mut written,
        )?;
        let screenshot = match screen.screenshot {
            Some(png) => Some(self.store_file(png, &content_hash(png), "png", &mut written)?),
            None => None,
        };
        let pixel_text = match screen.pixel_text {
            Some(json) => {
                let hash = hashes
                    .pixel_text
                    .clone()
                    .unwrap_or_else(|| content_hash(json));
                Some(self.store_file(json, &hash, "json", &mut written)?)
            }
            None => None,
        };
        self.sync_new(written)?;
        Ok(ScreenRef {
            version: screen.version.to_owned(),
            dump,
            pruned,
            screenshot,
            pixel_text,
            raw_tokens: screen.raw_tokens,
            pruned_tokens: screen.pruned_tokens,
        })
    }

    /// Stores a step's log: `report`'s lines as `logcat -v threadtime` prints them in
    /// `screens/<hash>.log` (none when it has no line), synced as a screen is; the summary
    /// the step line keeps.
    pub fn store_log(
        &mut self,
        report: &crate::logcat::Report,
    ) -> Result<super::StepLog, RecordingError> {
        let mut text = String::new();
        for line in &report.lines {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        let file = if text.is_empty() {
            None
        } else {
            let mut written = Vec::new();
            let hash = content_hash(text.as_bytes());
            let path = self.store_file(text.as_bytes(), &hash, "log", &mut written)?;
            self.sync_new(written)?;
            Some(path)
        };
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(super::StepLog {
            file,
            lines: count(report.lines.len()),
            left_out: count(report.left_out),
            errors: count(report.errors()),
            crashes: report
                .crashes
                .iter()
                .map(super::LoggedCrash::from)
                .collect(),
            notes: report.notes.clone(),
        })
    }

    /// Under [`Durability::Step`], the files just `written` and the folder's new names
    /// synced together (one wait for the disk rather than one a file).
    fn sync_new(&self, mut written: Vec<(File, PathBuf)>) -> Result<(), RecordingError> {
        if self.durability != Durability::Step || written.is_empty() {
            return Ok(());
        }
        // The folder with the files: a rename is only on disk once its folder is. No step
        // line names these files before all of them are synced.
        let screens = self.dir.join(SCREENS_DIR);
        let folder = File::open(&screens).map_err(|source| RecordingError::Write {
            path: screens.clone(),
            source,
        })?;
        written.push((folder, screens));
        sync_all_at_once(written)
    }

    /// Appends `step` as one JSON line, numbered 1, 2, 3… whatever its `step` field says,
    /// written with one `write_all` and flushed (and synced under [`Durability::Step`]; the
    /// screens it names were synced when stored). Returns the number given. A step whose
    /// write failed does not use up a number.
    pub fn append(&mut self, step: &Step) -> Result<u64, RecordingError> {
        self.append_all(std::slice::from_ref(step))
    }

    /// Appends `steps` in order as [`append`](Self::append) does one, with one write and
    /// one sync for them all (what several callers waiting at once share); returns the
    /// number the first was given. When the write fails none of them is numbered.
    pub fn append_all(&mut self, steps: &[Step]) -> Result<u64, RecordingError> {
        let first = self.last_step + 1;
        // After a failed write the log may end in half a line: end it first, so the reader
        // sees one bad line there rather than this step glued onto it.
        let mut lines = if self.broken_line {
            vec![b'\n']
        } else {
            Vec::new()
        };
        for (number, step) in (first..).zip(steps) {
            let mut numbered = step.clone();
            numbered.step = number;
            serde_json::to_writer(&mut lines, &numbered).map_err(|source| {
                RecordingError::Encode {
                    step: number,
                    source,
                }
            })?;
            lines.push(b'\n');
        }
        self.write_line(&lines)?;
        self.last_step += steps.len() as u64;
        Ok(first)
    }

    fn write_line(&mut self, line: &[u8]) -> Result<(), RecordingError> {
        let sync = self.durability == Durability::Step;
        let result = self.log.write_line(line, sync);
        self.broken_line = result.is_err();
        result.map_err(|source| RecordingError::Write {
            path: self.log_name.clone(),
            source,
        })
    }

    /// Writes `bytes`, whose [`content_hash`] is `hash`, as `screens/<hash>.<ext>` unless it
    /// is stored already; returns that path, and adds the file written, not yet synced, to
    /// `written`.
    fn store_file(
        &mut self,
        bytes: &[u8],
        hash: &str,
        ext: &str,
        written: &mut Vec<(File, PathBuf)>,
    ) -> Result<String, RecordingError> {
        let name = format!("{hash}.{ext}");
        let relative = format!("{SCREENS_DIR}/{name}");
        if self.stored.contains(&name) {
            return Ok(relative);
        }
        let screens = self.dir.join(SCREENS_DIR);
        let target = screens.join(&name);
        // Another writer sharing the folder stored it: the name promises the content.
        if target.exists() {
            self.stored.insert(name);
            return Ok(relative);
        }
        self.temp_counter += 1;
        let temp = screens.join(format!(
            ".{name}.{}-{}.tmp",
            std::process::id(),
            self.temp_counter
        ));
        let file = write_new(&temp, bytes).and_then(|file| {
            fs::rename(&temp, &target)?;
            Ok(file)
        });
        match file {
            Ok(file) => written.push((file, target)),
            Err(source) => {
                // Best effort: a leftover temporary file is harmless but untidy.
                let _ = fs::remove_file(&temp);
                return Err(RecordingError::Write {
                    path: target,
                    source,
                });
            }
        }
        self.stored.insert(name);
        Ok(relative)
    }
}

/// Syncs `files` to disk, each on a thread of its own so that the disk takes them in one
/// go; the first failure is the error.
fn sync_all_at_once(files: Vec<(File, PathBuf)>) -> Result<(), RecordingError> {
    let failed = |(error, path): (io::Error, PathBuf)| RecordingError::Write {
        path,
        source: error,
    };
    let sync = |(file, path): (File, PathBuf)| file.sync_all().map_err(|error| (error, path));
    let mut files = files.into_iter();
    let Some(first) = files.next() else {
        return Ok(());
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = files.map(|file| scope.spawn(move || sync(file))).collect();
        sync(first)?;
        for other in others {
            // A sync that panicked is as good as one that failed.
            other
                .join()
                .unwrap_or_else(|_| Err((io::Error::other("the sync panicked"), PathBuf::new())))?;
        }
        Ok(())
    })
    .map_err(failed)
}

/// Where the step lines go: the recording's own file, or a sink (tests, logs kept
/// elsewhere) that can only be flushed.
enum Log {
    File(File),
    Sink(Box<dyn Write + Send>),
}

impl Log {
    fn write_line(&mut self, line: &[u8], sync: bool) -> io::Result<()> {
        match self {
            Log::File(file) => {
                file.write_all(line)?;
                if sync { file.sync_data() } else { Ok(()) }
            }
            Log::Sink(sink) => sink.write_all(line).and_then(|()| sink.flush()),
        }
    }
}

fn create_dir(dir: &Path) -> Result<(), RecordingError> {
    fs::create_dir_all(dir).map_err(|source| RecordingError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })
}

/// Creates `path` with `bytes`; the file is returned unsynced.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<File> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    Ok(file)
}

/// The first 16 hex digits of the SHA-256 of `bytes`.
pub(crate) fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(HASH_DIGITS);
    for byte in &digest[..HASH_DIGITS / 2] {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    hex
}

/// Hex digits of a screen file's name.
pub(crate) const HASH_DIGITS: usize = 16;
const HEX: &[u8; 16] = b"0123456789abcdef";
