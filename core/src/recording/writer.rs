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
    /// Tokens of the raw dump, counted by the caller.
    pub raw_tokens: u32,
    /// Tokens of the pruned text, counted by the caller.
    pub pruned_tokens: u32,
}

/// Sizes rather than contents: a dump is megabytes.
impl fmt::Debug for ScreenFiles<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScreenFiles")
            .field("version", &self.version)
            .field("dump_bytes", &self.dump.len())
            .field("pruned_bytes", &self.pruned.len())
            .field("screenshot_bytes", &self.screenshot.map(<[u8]>::len))
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
    /// A screen file was renamed into `screens/` since the folder was last synced.
    unsynced_names: bool,
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
            unsynced_names: false,
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
    /// half-written file under a hash name.
    pub fn store_screen(&mut self, screen: &ScreenFiles<'_>) -> Result<ScreenRef, RecordingError> {
        let dump = self.store_file(screen.dump.as_bytes(), "xml")?;
        let pruned = self.store_file(screen.pruned.as_bytes(), "yaml")?;
        let screenshot = match screen.screenshot {
            Some(png) => Some(self.store_file(png, "png")?),
            None => None,
        };
        Ok(ScreenRef {
            version: screen.version.to_owned(),
            dump,
            pruned,
            screenshot,
            raw_tokens: screen.raw_tokens,
            pruned_tokens: screen.pruned_tokens,
        })
    }

    /// Appends `step` as one JSON line, numbered 1, 2, 3… whatever its `step` field says,
    /// written with one `write_all` and flushed (and synced, with the screen folder's new
    /// names first, under [`Durability::Step`]). Returns the number given. A step whose
    /// write failed does not use up a number.
    pub fn append(&mut self, step: &Step) -> Result<u64, RecordingError> {
        self.append_all(std::slice::from_ref(step))
    }

    /// Appends `steps` in order as [`append`](Self::append) does one, with one write and
    /// one sync for them all (what several callers waiting at once share); returns the
    /// number the first was given. When the write fails none of them is numbered.
    pub fn append_all(&mut self, steps: &[Step]) -> Result<u64, RecordingError> {
        if self.unsynced_names && self.durability == Durability::Step {
            let screens = self.dir.join(SCREENS_DIR);
            sync_dir(&screens).map_err(|source| RecordingError::Write {
                path: screens,
                source,
            })?;
            self.unsynced_names = false;
        }
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

    /// Writes `bytes` as `screens/<hash>.<ext>` unless it is there; returns that path.
    fn store_file(&mut self, bytes: &[u8], ext: &str) -> Result<String, RecordingError> {
        let name = format!("{}.{ext}", content_hash(bytes));
        let relative = format!("{SCREENS_DIR}/{name}");
        if self.stored.contains(&name) {
            return Ok(relative);
        }
        let screens = self.dir.join(SCREENS_DIR);
        let target = screens.join(&name);
        if !target.exists() {
            self.temp_counter += 1;
            let temp = screens.join(format!(
                ".{name}.{}-{}.tmp",
                std::process::id(),
                self.temp_counter
            ));
            let sync = self.durability == Durability::Step;
            let written = write_new(&temp, bytes, sync).and_then(|()| fs::rename(&temp, &target));
            if let Err(source) = written {
                // Best effort: a leftover temporary file is harmless but untidy.
                let _ = fs::remove_file(&temp);
                return Err(RecordingError::Write {
                    path: target,
                    source,
                });
            }
        }
        self.stored.insert(name);
        self.unsynced_names = true;
        Ok(relative)
    }
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

/// Makes the names in `dir` durable (a rename is only on disk once its folder is).
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

fn create_dir(dir: &Path) -> Result<(), RecordingError> {
    fs::create_dir_all(dir).map_err(|source| RecordingError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })
}

fn write_new(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    if sync { file.sync_all() } else { file.flush() }
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
