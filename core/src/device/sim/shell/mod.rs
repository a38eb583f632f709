//! `SimShell`: the simulated phone's shell as ADB reaches it (`tapscope sim --adb`). It
//! answers the commands agent frameworks send — `uiautomator dump` and `events`, `input`,
//! `screencap`, `wm`, `dumpsys`, `pm`, `monkey`, `am`, `getprop`, `logcat` (the sim's
//! log: [`logcat`]), `pidof`, `cat`, `md5sum`, uiautomator2's server under `app_process`,
//! and a few shell builtins ([`line`]: variables, `export`, `exec`, `sh -c`; [`commands`]:
//! `echo`, `grep`, …) — as a stock phone prints them, each paying its cost under the
//! phone's profile. Anything else is `inaccessible or not found` (exit 127), as on a phone.
//! Nothing runs on the host: files live in memory (pushes too, bounded: [`push`]), commands
//! act on the sim, and a socket opened to the device reaches only a server a command
//! started ([`server`]).

mod commands;
mod content;
mod line;
mod logcat;
mod portal_app;
mod push;
mod server;
mod system;
#[cfg(test)]
mod tests;
mod toybox;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;

use super::Build;
use super::costs::Profile;
use super::phone::SimPhone;
use crate::device::adbd::{
    Backend, CommandOutput, DeviceSocket, DirEntry, FileKind, FileStat, Identity, PushedFile,
    SocketName,
};
use crate::device::shell_line::Target;
use crate::stability::Clock;

/// The sim behind ADB: its phone, its files and the commands running on it.
#[derive(Debug)]
pub struct SimShell<C> {
    phone: SimPhone<C>,
    files: Mutex<Files>,
    /// How much a push may bring: [`push::FileLimits::default`], smaller in tests.
    file_limits: push::FileLimits,
    jobs: Mutex<Vec<Job>>,
    next_job: AtomicU64,
    /// The ports servers listen on, each with the job listening.
    listening: Mutex<BTreeMap<u16, u64>>,
}

/// The sim's files by path, and what pushes under way hold.
#[derive(Debug, Default)]
struct Files {
    by_path: BTreeMap<String, SimFile>,
    /// Bytes held by pushes not yet done, counted against the total as they arrive.
    pushing: usize,
}

impl Files {
    /// Bytes kept and being pushed.
    fn held(&self) -> usize {
        self.pushing + self.by_path.values().map(|f| f.bytes.len()).sum::<usize>()
    }
}

#[derive(Debug)]
struct SimFile {
    bytes: Vec<u8>,
    /// Permission bits: `0o644` for what commands write, a push's own.
    mode: u32,
    /// A push's (its DONE's), in seconds since the epoch; `None` for what commands write.
    mtime: Option<u64>,
}

/// A running command that `pkill -f` can end: its command line as `ps` shows it.
#[derive(Debug)]
struct Job {
    id: u64,
    cmdline: String,
    killed: Arc<AtomicBool>,
}

/// The directories a phone has for the shell user to read and write, which exist before
/// any file is put in them (shared storage under its one name: [`normalize`]).
const DIRECTORIES: [&str; 5] = [
    "/sdcard",
    "/data",
    "/data/local",
    "/data/local/tmp",
    "/storage",
];

/// The same file under each of the names Android gives shared storage.
fn normalize(path: &str) -> String {
    let mut path = path.trim().to_owned();
    for alias in [
        "/storage/emulated/0",
        "/storage/self/primary",
        "/mnt/sdcard",
    ] {
        if let Some(rest) = path.strip_prefix(alias)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            path = format!("/sdcard{rest}");
        }
    }
    while path.contains("//") {
        path = path.replace("//", "/");
    }
    path
}

impl<C: Clock + Clone + Send> SimShell<C> {
    pub fn new(clock: C, seed: u64, profile: Profile) -> Self {
        Self::with_build(clock, seed, profile, Build::Current)
    }

    /// [`SimShell::new`] running `build` of the app (`sim-next`'s crash among its changes).
    pub fn with_build(clock: C, seed: u64, profile: Profile, build: Build) -> Self {
        Self {
            phone: SimPhone::with_build(clock, seed, profile, build),
            files: Mutex::new(Files::default()),
            file_limits: push::FileLimits::default(),
            jobs: Mutex::new(Vec::new()),
            next_job: AtomicU64::new(1),
            listening: Mutex::new(BTreeMap::new()),
        }
    }

    /// The phone the commands act on.
    pub fn phone(&self) -> &SimPhone<C> {
        &self.phone
    }

    fn read_file(&self, path: &str) -> Option<Vec<u8>> {
        self.files
            .lock()
            .by_path
            .get(&normalize(path))
            .map(|file| file.bytes.clone())
    }

    /// `f(bytes)` of a file, without copying it; `None` when there is no such file.
    fn with_file<R>(&self, path: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        self.files
            .lock()
            .by_path
            .get(&normalize(path))
            .map(|file| f(&file.bytes))
    }

    /// A file's stat, or a directory's: one of a phone's own or one that holds files.
    fn stat_file(&self, path: &str) -> Option<FileStat> {
        let files = self.files.lock();
        let path = normalize(path);
        if let Some(file) = files.by_path.get(&path) {
            return Some(FileStat {
                kind: FileKind::Regular,
                mode: file.mode,
                size: file.bytes.len() as u64,
                mtime: file.mtime,
            });
        }
        let dir = path.trim_end_matches('/');
        let prefix = format!("{dir}/");
        let is_dir = DIRECTORIES.contains(&dir)
            || dir.is_empty()
            || files.by_path.keys().any(|p| p.starts_with(&prefix));
        is_dir.then_some(FileStat {
            kind: FileKind::Directory,
            mode: 0o771,
            size: 4096,
            mtime: None,
        })
    }

    /// What a directory holds as the sync LIST sends it: `.`, `..`, then its files and
    /// the directories under it, by name.
    fn entries(&self, dir: &str) -> Vec<DirEntry> {
        let Some(own) = self
            .stat_file(dir)
            .filter(|s| s.kind == FileKind::Directory)
        else {
            return Vec::new();
        };
        let mut names = self.list(dir);
        names.dedup();
        let dir = normalize(dir);
        let dir = dir.trim_end_matches('/');
        let mut entries = vec![
            DirEntry {
                name: ".".into(),
                stat: own,
            },
            DirEntry {
                name: "..".into(),
                stat: own,
            },
        ];
        entries.extend(names.into_iter().filter_map(|name| {
            let stat = self.stat_file(&format!("{dir}/{name}"))?;
            Some(DirEntry { name, stat })
        }));
        entries
    }

    /// Writes (or appends to) a file, within the limits pushes keep: a file that would
    /// grow past them is left as it was.
    fn write_file(&self, path: &str, bytes: &[u8], append: bool) -> Result<(), NoSpace> {
        let limits = self.file_limits;
        let path = normalize(path);
        let mut files = self.files.lock();
        let before = files.by_path.get(&path).map_or(0, |f| f.bytes.len());
        let after = if append {
            before + bytes.len()
        } else {
            bytes.len()
        };
        if after > limits.file {
            return Err(NoSpace::FileTooLarge { limit: limits.file });
        }
        if files.held() - before + after > limits.total {
            return Err(NoSpace::Full {
                limit: limits.total,
            });
        }
        let file = files.by_path.entry(path).or_insert_with(|| SimFile {
            bytes: Vec::new(),
            mode: 0o644,
            mtime: None,
        });
        if !append {
            file.bytes.clear();
        }
        file.bytes.extend_from_slice(bytes);
        Ok(())
    }

    /// Writes one of the sim's own few-byte state files (Portal's), which no limit refuses.
    fn write_own_file(&self, path: &str, bytes: &[u8]) {
        let file = SimFile {
            bytes: bytes.to_vec(),
            mode: 0o644,
            mtime: None,
        };
        self.files.lock().by_path.insert(normalize(path), file);
    }

    /// How many more bytes the files may hold in all.
    fn room(&self) -> usize {
        self.file_limits
            .total
            .saturating_sub(self.files.lock().held())
    }

    /// Moves a file to `to`, over any file there; `false` when there is none to move.
    fn rename_file(&self, from: &str, to: &str) -> bool {
        let mut files = self.files.lock();
        match files.by_path.remove(&normalize(from)) {
            Some(file) => {
                files.by_path.insert(normalize(to), file);
                true
            }
            None => false,
        }
    }

    fn remove_file(&self, path: &str) -> bool {
        self.files.lock().by_path.remove(&normalize(path)).is_some()
    }

    /// The files under `dir`, by name.
    fn list(&self, dir: &str) -> Vec<String> {
        let dir = normalize(dir);
        let prefix = format!("{}/", dir.trim_end_matches('/'));
        self.files
            .lock()
            .by_path
            .keys()
            .filter_map(|path| path.strip_prefix(&prefix))
            .map(|name| name.split('/').next().unwrap_or(name).to_owned())
            .collect()
    }

    /// Registers a running command for `pkill`; it is forgotten when the guard drops.
    fn start_job(&self, cmdline: String) -> JobGuard<'_, C> {
        let id = self.next_job.fetch_add(1, Ordering::Relaxed);
        let killed = Arc::new(AtomicBool::new(false));
        self.jobs.lock().push(Job {
            id,
            cmdline,
            killed: killed.clone(),
        });
        JobGuard {
            shell: self,
            id,
            killed,
        }
    }

    /// Ends the running commands whose command line contains `pattern`; how many.
    fn kill_matching(&self, pattern: &str) -> usize {
        let jobs = self.jobs.lock();
        jobs.iter()
            .filter(|job| job.cmdline.contains(pattern))
            .inspect(|job| job.killed.store(true, Ordering::SeqCst))
            .count()
    }

    /// Writes what a command redirected to files; the first refusal is the command's.
    fn flush(&self, io: &mut Io<'_>) {
        for (path, append, bytes) in std::mem::take(&mut io.files) {
            if let Err(refused) = self.write_file(&path, &bytes, append) {
                io.refused.get_or_insert(Refused::NoSpace(refused));
            }
        }
    }
}

/// A command's registration for `pkill`, removed when dropped.
struct JobGuard<'a, C> {
    shell: &'a SimShell<C>,
    id: u64,
    killed: Arc<AtomicBool>,
}

impl<C> JobGuard<'_, C> {
    fn killed(&self) -> bool {
        self.killed.load(Ordering::SeqCst)
    }
}

impl<C> Drop for JobGuard<'_, C> {
    fn drop(&mut self) {
        self.shell.jobs.lock().retain(|job| job.id != self.id);
    }
}

/// How a command ended: its status, or `exit`, which ends the whole line.
enum Ran {
    Status(u8),
    Exit(u8),
}

/// Why a file could not take a write: a phone's ENOSPC, with the sim's own limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum NoSpace {
    #[error(
        "File too large: the sim keeps files of up to {}; write less",
        push::size(*limit)
    )]
    FileTooLarge { limit: usize },
    #[error(
        "No space left on device: the sim keeps at most {} of files in memory; remove \
         some (`rm FILE`) or restart the sim",
        push::size(*limit)
    )]
    Full { limit: usize },
}

/// Why a command's writes stopped: it is told by an error on its next write, its caller
/// once when it ends (as `write error: …`, exit 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refused {
    NoSpace(NoSpace),
    PipeFull {
        limit: usize,
    },
    /// The caller hung up: nothing more is read, so nothing more is written.
    HungUp,
}

/// Where one command of a pipeline reads and writes.
struct Io<'a> {
    caller: &'a mut dyn CommandOutput,
    /// What the pipe before gave it; the first command of a pipeline reads its caller's.
    stdin: Vec<u8>,
    stdin_from_caller: bool,
    /// Its stdout feeds the next command of the pipe.
    piped: bool,
    stdout: Target,
    stderr: Target,
    /// What the next command of the pipe reads.
    pipe: Vec<u8>,
    /// Redirected output, written to the files when the command ends.
    files: Vec<(String, bool, Vec<u8>)>,
    /// How much the files may still take, redirected output included.
    room: usize,
    /// The limits `room` comes from, and the pipe's.
    limits: push::FileLimits,
    /// The first write refused, if one was.
    refused: Option<Refused>,
}

impl Io<'_> {
    fn out(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let target = self.stdout.clone();
        self.write(&target, bytes, false)
    }

    fn err(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let target = self.stderr.clone();
        self.write(&target, bytes, true)
    }

    fn write(&mut self, target: &Target, bytes: &[u8], is_err: bool) -> std::io::Result<()> {
        if let Some(refused) = self.refused {
            return Err(refused.into());
        }
        match target {
            Target::Discard => Ok(()),
            Target::Stdout => {
                let target = self.stdout.clone();
                self.write(&target, bytes, false)
            }
            Target::File { path, append } => {
                let held: usize = self.files.iter().map(|(_, _, b)| b.len()).sum();
                if held + bytes.len() > self.room {
                    let full = NoSpace::Full {
                        limit: self.limits.total,
                    };
                    return Err(self.refuse(Refused::NoSpace(full)));
                }
                match self.files.iter_mut().find(|(p, _, _)| p == path) {
                    Some((_, _, file)) => file.extend_from_slice(bytes),
                    None => self.files.push((path.clone(), *append, bytes.to_vec())),
                }
                Ok(())
            }
            Target::Inherit if is_err => self.caller.stderr(bytes),
            Target::Inherit if self.piped => {
                if self.pipe.len() + bytes.len() > self.limits.pipe {
                    let limit = self.limits.pipe;
                    return Err(self.refuse(Refused::PipeFull { limit }));
                }
                self.pipe.extend_from_slice(bytes);
                Ok(())
            }
            Target::Inherit if self.caller.closed() => Err(self.refuse(Refused::HungUp)),
            Target::Inherit => self.caller.stdout(bytes),
        }
    }

    /// Up to `size` bytes of stdin, as they come (`cmd package install -S SIZE`).
    fn read_stdin(&mut self, size: usize) -> Vec<u8> {
        if !self.stdin_from_caller {
            let mut piped = std::mem::take(&mut self.stdin);
            piped.truncate(size);
            return piped;
        }
        let mut read = Vec::new();
        while read.len() < size {
            match self.caller.stdin() {
                Some(bytes) => read.extend_from_slice(&bytes),
                None => break,
            }
        }
        read.truncate(size);
        read
    }

    fn refuse(&mut self, why: Refused) -> std::io::Error {
        self.refused = Some(why);
        why.into()
    }

    fn say(&mut self, text: &str) {
        let _ = self.out(text.as_bytes());
    }

    fn complain(&mut self, text: &str) {
        let _ = self.err(text.as_bytes());
    }

    /// Whether the command should stop: its caller hung up or its writes are refused.
    fn closed(&self) -> bool {
        self.refused.is_some() || self.caller.closed()
    }
}

impl From<Refused> for std::io::Error {
    fn from(why: Refused) -> Self {
        use std::io::ErrorKind;
        match why {
            Refused::NoSpace(no_space) => std::io::Error::new(ErrorKind::StorageFull, no_space),
            Refused::PipeFull { limit } => std::io::Error::new(
                ErrorKind::OutOfMemory,
                format!(
                    "Broken pipe: the sim's pipes hold at most {}; write less into a pipe",
                    push::size(limit)
                ),
            ),
            Refused::HungUp => ErrorKind::BrokenPipe.into(),
        }
    }
}

impl<C: Clock + Clone + Send + Sync + 'static> Backend for SimShell<C> {
    fn identity(&self) -> Identity {
        Identity {
            product: system::PRODUCT.into(),
            model: system::MODEL.replace(' ', "_"),
            device: system::DEVICE.into(),
        }
    }

    fn run(&self, command: &str, out: &mut dyn CommandOutput) -> u8 {
        line::run(self, &mut line::Shell::phone(), command, out)
    }

    fn file(&self, path: &str) -> Option<Vec<u8>> {
        self.read_file(path)
    }

    fn stat(&self, path: &str) -> Option<FileStat> {
        self.stat_file(path)
    }

    fn list(&self, dir: &str) -> Vec<DirEntry> {
        self.entries(dir)
    }

    fn push(&self, path: &str, mode: u32) -> Result<Box<dyn PushedFile + '_>, String> {
        let pending = push::start(self, path, mode)?;
        Ok(Box::new(pending))
    }

    fn open_socket(&self, destination: &SocketName) -> Option<Box<dyn DeviceSocket + '_>> {
        server::open_socket(self, destination)
    }
}
