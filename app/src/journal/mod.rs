//! Writes each call on a session, an agent's or a person's, to a recording as one step:
//! the tool and its arguments, the versions, the outcome, the settle report, and the
//! screens before and after it (each stored once).
//!
//! The work — counting tokens, hashing, writing and syncing files — is done off the
//! device's lock by a thread of the journal's own: callers queue their steps in the order
//! the calls reached the device ([`Journal::submit`]) and wait on a [`Ticket`] until
//! theirs is on disk before answering, while the next call already uses the device. A
//! screen is counted, stored and shown once, through a [`ScreenStore`]: known by its
//! content, shown the first time a screenshot comes with it.
//!
//! A recording that stops is said to stop once: the first step it could not write is
//! [`Written::Failed`], whatever stopped it (a failed write, or the writer's thread
//! itself giving out), and only the steps after that one are [`Written::Stopped`].

use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;
use tapscope_core::device::Capture;
use tapscope_core::recording::{
    Actor, AdbCommand, Durability, Header, ProxyHeader, RecordingError, RecordingWriter, ScreenKey,
    ScreenRef, ScreenStore, Step, StepOutcome,
};
use tapscope_core::session::{Observation, Outcome, Screenshot};
use tapscope_core::stability::SettleReport;
use tapscope_core::tokens::Encoding;

/// Recorded screenshots are at most this long on their long side.
const SCREENSHOT_SIDE: u32 = 1024;

/// One call as it came in.
#[derive(Clone, Debug)]
pub struct Call {
    pub actor: Actor,
    pub tool: String,
    pub arguments: serde_json::Value,
    /// The `{version}_{i}` the call named.
    pub handle: Option<String>,
    /// The version the call's target refers to: its handle's, or the screenshot's.
    pub version_used: Option<String>,
    /// When the call came in, on the session's clock (before it waited for anything).
    pub at: Duration,
    /// From the call coming in to its result being ready.
    pub duration: Duration,
}

/// How a call ended.
#[derive(Clone, Copy, Debug)]
pub enum Done<'a> {
    Observed(&'a Observation),
    Acted(&'a Outcome),
    /// A call that reads no screen: packages, the screenshot, the manual.
    Answered,
    /// Refused without touching the device.
    Refused,
    Failed,
    /// Acted, then the screen after could not be read.
    FailedAfter {
        acted_on: &'a str,
        settle: &'a SettleReport,
    },
}

impl Done<'_> {
    /// The screen the call left, if it read one.
    pub fn observation(&self) -> Option<&Observation> {
        match self {
            Done::Observed(observation) => Some(observation),
            Done::Acted(outcome) => Some(&outcome.observation),
            _ => None,
        }
    }
}

/// A call's step as queued: everything the writer needs, owned.
#[derive(Debug)]
pub struct Pending {
    call: Call,
    before: Option<Arc<Observation>>,
    after: Option<Arc<Observation>>,
    /// The screenshot of the screen after, when the journal had none of it yet.
    screenshot: Option<Shot>,
    outcome: StepOutcome,
    message: String,
    acted_on: Option<String>,
    path: Vec<[i32; 2]>,
    settle: Option<serde_json::Value>,
    bottomed_out: bool,
    adb: Option<AdbCommand>,
    /// What the log gained during the call, when the session reads it.
    log: Option<Box<tapscope_core::logcat::Report>>,
}

impl Pending {
    /// The step of `call` that ended as `done`, between the screens `before` and `after`
    /// (`after` is the observation `done` carries, shared rather than copied).
    pub fn new(
        call: Call,
        before: Option<Arc<Observation>>,
        done: Done<'_>,
        after: Option<Arc<Observation>>,
        message: String,
        screenshot: Option<Shot>,
    ) -> Self {
        let acted = match done {
            Done::Acted(outcome) => Some(outcome),
            _ => None,
        };
        let (acted_on, settle) = match done {
            Done::Acted(outcome) => (Some(outcome.acted_on.as_str()), Some(&outcome.settle)),
            Done::FailedAfter { acted_on, settle } => (Some(acted_on), Some(settle)),
            _ => (None, None),
        };
        Self {
            call,
            before,
            after,
            screenshot,
            outcome: match done {
                Done::Refused => StepOutcome::Refused,
                Done::Failed | Done::FailedAfter { .. } => StepOutcome::Error,
                _ => StepOutcome::Ok,
            },
            message,
            acted_on: acted_on.map(str::to_owned),
            path: acted.map_or_else(Vec::new, |o| o.path.iter().map(|p| [p.x, p.y]).collect()),
            settle: settle.and_then(|s| serde_json::to_value(s).ok()),
            bottomed_out: acted.is_some_and(|o| o.bottomed_out),
            adb: None,
            log: acted.and_then(|o| o.log.clone()),
        }
    }

    /// The same step, with what the log gained during it.
    pub fn with_log(mut self, log: Option<Box<tapscope_core::logcat::Report>>) -> Self {
        self.log = log;
        self
    }

    /// The same step, of a command `tapscope proxy` saw pass, through the display pixels
    /// `path`.
    pub fn proxied(mut self, adb: AdbCommand, path: Vec<[i32; 2]>) -> Self {
        self.adb = Some(adb);
        self.path = path;
        self
    }

    /// The same step, having acted on `element` (as the screen it aimed from names it).
    pub fn acting_on(mut self, element: Option<String>) -> Self {
        self.acted_on = element;
        self
    }
}

/// A screenshot for a step's screen.
#[derive(Debug)]
pub enum Shot {
    /// Already downsampled (the one a self-drawn screen's observation carried).
    Png(Vec<u8>),
    /// As the device captured it: the writer downsamples it.
    Captured(Arc<Capture>),
}

/// How a queued step ended.
#[derive(Debug)]
pub enum Written {
    /// On disk, as this step number.
    Step(u64),
    /// Writing it failed: the recording stops here. Given for one step only.
    Failed { dir: PathBuf, error: JournalError },
    /// The recording had stopped already (an earlier step was [`Written::Failed`]);
    /// nothing was written.
    Stopped,
}

/// Why a recording stopped.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// A step or a screen could not be written.
    #[error(transparent)]
    Recording(#[from] RecordingError),
    /// The writer's thread gave out without writing the step (a bug in tapscope).
    #[error(
        "the recording's writer stopped without writing this step ({why}); the steps before \
         it are kept: start a new recording to record what follows"
    )]
    WriterStopped { why: String },
}

/// What a journal, its writer and its tickets share.
#[derive(Debug)]
struct Shared {
    dir: PathBuf,
    /// A step was [`Written::Failed`]: every later one is [`Written::Stopped`].
    failed: AtomicBool,
}

impl Shared {
    /// `error` as the answer for the first step to fail, [`Written::Stopped`] after that.
    fn failure(&self, error: JournalError) -> Written {
        if self.failed.swap(true, Ordering::AcqRel) {
            Written::Stopped
        } else {
            Written::Failed {
                dir: self.dir.clone(),
                error,
            }
        }
    }
}

/// A queued step's outcome, once the writer has it.
#[derive(Debug)]
pub struct Ticket {
    answer: Receiver<Written>,
    shared: Arc<Shared>,
}

impl Ticket {
    /// Waits until the step is written (or could not be). A writer that went away without
    /// answering stopped the recording: the first step it left unanswered, with no failure
    /// said before, is [`Written::Failed`].
    pub fn wait(self) -> Written {
        self.answer.recv().unwrap_or_else(|_| {
            self.shared.failure(JournalError::WriterStopped {
                why: "it ended without answering".to_owned(),
            })
        })
    }
}

/// A recording being written.
#[derive(Debug)]
pub struct Journal {
    shared: Arc<Shared>,
    queue: Option<Sender<(Pending, Sender<Written>)>>,
    writer: Option<JoinHandle<()>>,
    /// The screens stored with a screenshot.
    shown: Arc<Mutex<HashSet<ScreenKey>>>,
}

impl Journal {
    /// Starts a recording in `dir` of the device `device`; `now` is the session clock.
    pub fn create(dir: &Path, device: &str, now: Duration) -> Result<Self, RecordingError> {
        Self::create_with(dir, device, now, Durability::Step)
    }

    /// Like [`Journal::create`], syncing each step to disk or not.
    pub fn create_with(
        dir: &Path,
        device: &str,
        now: Duration,
        durability: Durability,
    ) -> Result<Self, RecordingError> {
        Self::start(dir, header(device, now_unix_ms(), durability), now, None)
    }

    /// A recording of what `tapscope proxy` saw pass to the adb server `proxy` names;
    /// `now` is the proxy's clock.
    pub fn proxying(dir: &Path, proxy: ProxyHeader, now: Duration) -> Result<Self, RecordingError> {
        let mut header = header("proxy", now_unix_ms(), Durability::Step);
        header.proxy = Some(proxy);
        Self::start(dir, header, now, None)
    }

    /// A recording of a replay of `original` (named in its header when given), and each
    /// step as it is written, numbered, for the replay to compare.
    pub fn replaying(
        dir: &Path,
        device: &str,
        now: Duration,
        durability: Durability,
        original: Option<&str>,
    ) -> Result<(Self, Receiver<Step>), RecordingError> {
        let mut header = header(device, now_unix_ms(), durability);
        header.replay_of = original.map(str::to_owned);
        let (watch, written) = mpsc::channel();
        Ok((Self::start(dir, header, now, Some(watch))?, written))
    }

    /// Like [`Journal::create`] with a chosen start time (reproducible recordings).
    pub fn create_at(
        dir: &Path,
        device: &str,
        now: Duration,
        unix_ms: u64,
    ) -> Result<Self, RecordingError> {
        Self::start(dir, header(device, unix_ms, Durability::Step), now, None)
    }

    fn start(
        dir: &Path,
        header: Header,
        now: Duration,
        watch: Option<Sender<Step>>,
    ) -> Result<Self, RecordingError> {
        let shown = Arc::new(Mutex::new(HashSet::new()));
        let shared = Arc::new(Shared {
            dir: dir.to_path_buf(),
            failed: AtomicBool::new(false),
        });
        let writer = Writer {
            screens: ScreenStore::counting(RecordingWriter::create(dir, &header)?, ENCODING),
            shared: Arc::clone(&shared),
            watch,
            started: now,
            shown: Arc::clone(&shown),
            last_after: None,
        };
        let (queue, jobs) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("tapscope journal".into())
            .spawn(move || writer.run(&jobs))
            .map_err(|source| RecordingError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(Self {
            shared,
            queue: Some(queue),
            writer: Some(thread),
            shown,
        })
    }

    /// Whether the recording has a screenshot of `seen` already: a screen is shown once,
    /// the first time its dump is seen, so no call pays for a capture of a known screen.
    pub fn has_screenshot(&self, seen: &Observation) -> bool {
        seen.seen_screen()
            .is_ok_and(|screen| self.shown.lock().contains(screen.key()))
    }

    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// Queues `step` after every step queued before it; the ticket tells when it is on disk.
    pub fn submit(&self, step: Pending) -> Ticket {
        let (done, answer) = mpsc::channel();
        if let Some(queue) = &self.queue {
            // A writer that is gone drops `done` unanswered: the ticket says it failed.
            let _ = queue.send((step, done));
        }
        Ticket {
            answer,
            shared: Arc::clone(&self.shared),
        }
    }
}

impl Drop for Journal {
    /// Closes the queue and waits for the steps in it to be written.
    fn drop(&mut self) {
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// The encoding a journal counts tokens with.
const ENCODING: Encoding = Encoding::O200k;

/// This tapscope's header for a recording of `device`.
fn header(device: &str, unix_ms: u64, durability: Durability) -> Header {
    Header::new(device, env!("CARGO_PKG_VERSION"), ENCODING.name(), unix_ms)
        .with_durability(durability)
}

fn now_unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The journal's thread: counts, stores and appends each step in the order queued.
struct Writer {
    /// The recording, and every screen stored in it.
    screens: ScreenStore,
    /// Whether a step failed yet, shared with the tickets.
    shared: Arc<Shared>,
    /// Told each step once it is written.
    watch: Option<Sender<Step>>,
    started: Duration,
    /// The screens stored with a screenshot, shared with the journal.
    shown: Arc<Mutex<HashSet<ScreenKey>>>,
    /// The last step's screen after, as stored: most often the next step's screen before,
    /// which then needs no hashing of its dump again.
    last_after: Option<(Arc<Observation>, ScreenRef)>,
}

impl Writer {
    /// Takes every step queued so far and writes them with one write and one sync, so
    /// callers who queued at once wait for one sync between them. A write that panics
    /// fails its steps as a write that fails does: the recording stops there, said once.
    fn run(mut self, jobs: &Receiver<(Pending, Sender<Written>)>) {
        while let Ok(first) = jobs.recv() {
            let batch: Vec<_> = std::iter::once(first).chain(jobs.try_iter()).collect();
            if self.shared.failed.load(Ordering::Acquire) {
                for (_, done) in batch {
                    // The caller may have gone (its client left): nothing to tell.
                    let _ = done.send(Written::Stopped);
                }
                continue;
            }
            let (steps, waiting): (Vec<Pending>, Vec<Sender<Written>>) = batch.into_iter().unzip();
            let written = panic::catch_unwind(AssertUnwindSafe(|| self.write(steps)))
                .unwrap_or_else(|payload| {
                    Err(JournalError::WriterStopped {
                        why: format!("it panicked: {}", panic_message(payload.as_ref())),
                    })
                });
            match written {
                Ok(first) => {
                    for (number, done) in (first..).zip(waiting) {
                        let _ = done.send(Written::Step(number));
                    }
                }
                Err(error) => {
                    let mut waiting = waiting.into_iter();
                    if let Some(done) = waiting.next() {
                        let _ = done.send(self.shared.failure(error));
                    }
                    for done in waiting {
                        let _ = done.send(Written::Stopped);
                    }
                }
            }
        }
    }

    /// Stores the steps' screens, then appends the steps; the number of the first.
    fn write(&mut self, steps: Vec<Pending>) -> Result<u64, JournalError> {
        let mut lines = Vec::with_capacity(steps.len());
        for step in steps {
            lines.push(self.step(step)?);
        }
        let first = self.screens.writer().append_all(&lines)?;
        if let Some(watch) = &self.watch {
            for (number, mut line) in (first..).zip(lines) {
                line.step = number;
                // A watcher that has gone needs nothing more.
                let _ = watch.send(line);
            }
        }
        Ok(first)
    }

    /// One step as it is written, its screens stored.
    fn step(&mut self, step: Pending) -> Result<Step, RecordingError> {
        #[cfg(test)]
        tests::panic_if_asked(&step.call);
        let before = match (&step.before, &self.last_after) {
            (Some(seen), Some((last, stored))) if Arc::ptr_eq(seen, last) => Some(stored.clone()),
            (Some(seen), _) => Some(self.screen(seen, None)?),
            (None, _) => None,
        };
        let after = match &step.after {
            Some(seen) => Some(self.screen(seen, step.screenshot)?),
            None => None,
        };
        self.last_after = step.after.clone().zip(after.clone());
        let log = match &step.log {
            Some(report) => Some(self.screens.writer().store_log(report)?),
            None => None,
        };
        let call = step.call;
        Ok(Step {
            step: 0,
            at_ms: millis(call.at.saturating_sub(self.started)),
            duration_ms: millis(call.duration),
            actor: call.actor,
            tool: call.tool,
            arguments: call.arguments,
            handle: call.handle,
            version_used: call.version_used,
            version_before: before.as_ref().map(|s| s.version.clone()),
            version_after: after.as_ref().map(|s| s.version.clone()),
            outcome: step.outcome,
            message: step.message,
            acted_on: step.acted_on,
            path: step.path,
            settle: step.settle,
            bottomed_out: step.bottomed_out,
            before,
            after,
            adb: step.adb,
            log,
        })
    }

    /// Stores a screen once: counted, written and shown the first time it is seen (with a
    /// screenshot as soon as one comes, downsampled only then), reused after that.
    fn screen(
        &mut self,
        seen: &Observation,
        shot: Option<Shot>,
    ) -> Result<ScreenRef, RecordingError> {
        let screen = seen.seen_screen()?;
        let stored = match shot {
            Some(shot) => self.screens.store_shown(&screen, || match shot {
                Shot::Png(png) => Some(png),
                Shot::Captured(capture) => Screenshot::of(&capture, None, SCREENSHOT_SIDE)
                    .ok()
                    .map(|s| s.png),
            })?,
            None => self.screens.store(&screen)?,
        };
        if stored.screenshot.is_some() {
            self.shown.lock().insert(screen.key().clone());
        }
        Ok(stored)
    }
}

/// What a panic said, when it said it with text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
