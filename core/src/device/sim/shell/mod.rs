//! `SimShell`: the simulated phone's shell as ADB reaches it (`tapscope sim --adb`). It
//! answers the commands agent frameworks send — `uiautomator dump` and `events`, `input`,
//! `screencap`, `wm`, `dumpsys`, `pm`, `monkey`, `am`, `getprop`, `cat`, `md5sum`,
//! uiautomator2's server under `app_process`, and a few shell builtins ([`line`]: variables,
//! `export`, `exec`, `sh -c`; [`commands`]: `echo`, `grep`, …) — as a stock phone
//! prints them, each paying its cost under the phone's profile. Anything else is
//! `inaccessible or not found` (exit 127), as on a phone. Nothing runs on the host: files
//! live in memory (pushes too, bounded: [`push`]), commands act on the sim, and a socket
//! opened to the device reaches only a server a command started ([`server`]).

mod commands;
mod content;
mod line;
mod push;
mod server;
mod system;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::costs::Profile;
use super::phone::SimPhone;
use crate::device::adbd::{
    Backend, CommandOutput, DeviceSocket, FileStat, Identity, PushedFile, SocketName,
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

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

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
        Self {
            phone: SimPhone::new(clock, seed, profile),
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
        lock(&self.files)
            .by_path
            .get(&normalize(path))
            .map(|file| file.bytes.clone())
    }

    /// `f(bytes)` of a file, without copying it; `None` when there is no such file.
    fn with_file<R>(&self, path: &str, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        lock(&self.files)
            .by_path
            .get(&normalize(path))
            .map(|file| f(&file.bytes))
    }

    fn stat_file(&self, path: &str) -> Option<FileStat> {
        lock(&self.files)
            .by_path
            .get(&normalize(path))
            .map(|file| FileStat {
                mode: file.mode,
                size: file.bytes.len() as u64,
                mtime: file.mtime,
            })
    }

    fn write_file(&self, path: &str, bytes: &[u8], append: bool) {
        let mut files = lock(&self.files);
        let file = files
            .by_path
            .entry(normalize(path))
            .or_insert_with(|| SimFile {
                bytes: Vec::new(),
                mode: 0o644,
                mtime: None,
            });
        if !append {
            file.bytes.clear();
        }
        file.bytes.extend_from_slice(bytes);
    }

    fn remove_file(&self, path: &str) -> bool {
        lock(&self.files).by_path.remove(&normalize(path)).is_some()
    }

    /// The files under `dir`, by name.
    fn list(&self, dir: &str) -> Vec<String> {
        let dir = normalize(dir);
        let prefix = format!("{}/", dir.trim_end_matches('/'));
        lock(&self.files)
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
        lock(&self.jobs).push(Job {
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
        let jobs = lock(&self.jobs);
        jobs.iter()
            .filter(|job| job.cmdline.contains(pattern))
            .inspect(|job| job.killed.store(true, Ordering::SeqCst))
            .count()
    }

    fn flush(&self, io: &mut Io<'_>) {
        for (path, append, bytes) in io.files.drain(..) {
            self.write_file(&path, &bytes, append);
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
        lock(&self.shell.jobs).retain(|job| job.id != self.id);
    }
}

/// How a command ended: its status, or `exit`, which ends the whole line.
enum Ran {
    Status(u8),
    Exit(u8),
}

/// Where one command of a pipeline reads and writes.
struct Io<'a> {
    caller: &'a mut dyn CommandOutput,
    stdin: Vec<u8>,
    /// Its stdout feeds the next command of the pipe.
    piped: bool,
    stdout: Target,
    stderr: Target,
    /// What the next command of the pipe reads.
    pipe: Vec<u8>,
    /// Redirected output, written to the files when the command ends.
    files: Vec<(String, bool, Vec<u8>)>,
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
        match target {
            Target::Discard => Ok(()),
            Target::Stdout => {
                let target = self.stdout.clone();
                self.write(&target, bytes, false)
            }
            Target::File { path, append } => {
                match self.files.iter_mut().find(|(p, _, _)| p == path) {
                    Some((_, _, file)) => file.extend_from_slice(bytes),
                    None => self.files.push((path.clone(), *append, bytes.to_vec())),
                }
                Ok(())
            }
            Target::Inherit if is_err => self.caller.stderr(bytes),
            Target::Inherit if self.piped => {
                self.pipe.extend_from_slice(bytes);
                Ok(())
            }
            Target::Inherit => self.caller.stdout(bytes),
        }
    }

    fn say(&mut self, text: &str) {
        let _ = self.out(text.as_bytes());
    }

    fn complain(&mut self, text: &str) {
        let _ = self.err(text.as_bytes());
    }

    fn closed(&self) -> bool {
        self.caller.closed()
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

    fn push(&self, path: &str, mode: u32) -> Result<Box<dyn PushedFile + '_>, String> {
        let pending = push::start(self, path, mode)?;
        Ok(Box::new(pending))
    }

    fn open_socket(&self, destination: &SocketName) -> Option<Box<dyn DeviceSocket + '_>> {
        server::open_socket(self, destination)
    }
}
