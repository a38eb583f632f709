//! What the phone's system writes to the sim's [`Log`] as the sim changes, in the shapes
//! an Android 14 phone writes them: system_server's `ActivityTaskManager` starts and
//! launch times (`Displayed … +600ms`, stamped when the launch animation ends),
//! `ActivityManager`'s process starts, the events log's window-manager records, and an
//! `InputDispatcher` line for each injected touch, key or text. Processes keep their pids:
//! system_server one, each app its own while it runs (its first the fixed one of
//! [`apps::pid_of`], one started after it died a new one, as Linux never hands a pid
//! straight back), each spawned program ([`Sim::spawn_pid`]) a new one. What the apps
//! write themselves, and a crash, is [`super::app_log`]'s.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::apps;
use super::log::{Buffer, Entry, Log, Mark, Priority, Record};
use super::{AnimKind, Sim};
use crate::device::Key;
use crate::geometry::Point;
use crate::stability::Clock;

/// system_server's pid.
pub const SYSTEM_SERVER: u32 = 587;
/// system_server's threads: a binder thread (activity starts), `android.display`
/// (launch times), `ActivityManager` (process starts) and `InputDispatcher`.
pub(super) const BINDER_TID: u32 = 1604;
const DISPLAY_TID: u32 = 612;
pub(super) const AM_TID: u32 = 641;
const INPUT_TID: u32 = 905;
/// The app window and its activity record as `dumpsys window` names them.
const WINDOW: &str = "7c1a2f0";
const RECORD: u32 = 0x09f3_c6a4;
const TASK: u32 = 12;
/// The keyboard's window.
const IME_WINDOW: &str = "3e8d6b2 InputMethod";
/// The first pid a spawned program gets.
const FIRST_SPAWNED: u32 = 24_000;
/// The processes besides the launcher's that a booted phone runs and the sim never stops:
/// System UI (the status bar) and the keyboard.
const RUNNING_FROM_BOOT: [&str; 2] = [
    "com.android.systemui",
    "com.google.android.inputmethod.latin",
];

/// Who wrote an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writer {
    pub pid: u32,
    pub tid: u32,
}

impl Writer {
    /// A process's main thread, whose tid is its pid.
    pub fn main(pid: u32) -> Writer {
        Writer { pid, tid: pid }
    }

    pub(super) fn system(tid: u32) -> Writer {
        Writer {
            pid: SYSTEM_SERVER,
            tid,
        }
    }
}

/// `package`'s first pid and its uid: the same every run. A process started after the
/// first died has a new pid ([`Sim::running_pid`]).
pub fn app_ids(package: &str) -> (u32, u32) {
    (apps::pid_of(package), apps::image_uid(package))
}

/// The processes running besides system_server, and the next spawned pid.
#[derive(Debug, Default)]
pub(super) struct Procs {
    /// Each running app's pid, by package.
    running: BTreeMap<String, u32>,
    /// Every package that has had a process: its next one takes a new pid.
    started: BTreeSet<String>,
    spawned: u32,
}

/// How a screen came to be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arrival {
    /// Started from the shell (`monkey`, `am start`, [`crate::device::Device::launch`]).
    Launched,
    /// Started by the app on screen (the launcher's icon, a button).
    Opened,
    Back,
    Home,
    /// The app in front died: its task is gone and the home screen shows again.
    Died,
}

impl Arrival {
    pub(super) fn forward(self) -> bool {
        matches!(self, Arrival::Launched | Arrival::Opened)
    }
}

/// An input injected into the sim.
#[derive(Clone, Copy, Debug)]
pub(super) enum Input {
    Tap(Point),
    LongPress(Point, Duration),
    Swipe(Point, Point, Duration),
    Key(Key),
    /// How many characters: what was typed is not logged.
    Text(usize),
}

impl<C: Clock + Clone + Send> Sim<C> {
    /// The phone's log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The entries of `buffers` after `after` written by now (only `pid`'s when given),
    /// and the mark to read after next time: the log's end at the same moment.
    pub fn read_log(
        &self,
        buffers: &[Buffer],
        after: Mark,
        pid: Option<u32>,
    ) -> (Vec<Record>, Mark) {
        let now = self.clock.now();
        (self.log.read(buffers, after, now, pid), self.log.end(now))
    }

    /// What `logcat` prints of `request`, as a phone's logcat does (threadtime); a
    /// filterspec logcat would refuse is the error.
    pub fn logcat_text(
        &self,
        request: &crate::logcat::LogRequest,
    ) -> Result<String, crate::logcat::BadFilter> {
        let rules = request.rules()?;
        let buffers = [Buffer::Main, Buffer::System, Buffer::Crash];
        let after = request
            .since
            .and_then(|stamp| super::log::parse_wall_time(&stamp.to_string()))
            .map_or(Mark::START, Mark::since);
        let (records, _) = self.read_log(&buffers, after, request.pid);
        let printed: Vec<String> = records
            .iter()
            .filter(|r| rules.passes(&r.entry.tag, r.entry.priority))
            .map(|r| super::log::Format::ThreadTime.print(&r.entry))
            .collect();
        let from = request
            .tail
            .map_or(0, |tail| printed.len().saturating_sub(tail));
        Ok(printed[from..].concat())
    }

    /// The pid of `package`'s process while it runs.
    pub fn running_pid(&self, package: &str) -> Option<u32> {
        self.procs.running.get(package).copied()
    }

    /// The pid `dumpsys` prints for `package`: its process's while it runs, else the one
    /// its first process gets.
    pub(super) fn shown_pid(&self, package: &str) -> u32 {
        self.running_pid(package)
            .unwrap_or_else(|| apps::pid_of(package))
    }

    /// The pids of the running processes named one of `names` (an app's package,
    /// `system_server`), ascending, as `pidof` finds them in `/proc`.
    pub(super) fn pids_named(&self, names: &[&str]) -> Vec<u32> {
        let system = ("system_server", SYSTEM_SERVER);
        let apps = self.procs.running.iter().map(|(p, &pid)| (p.as_str(), pid));
        let mut pids: Vec<u32> = std::iter::once(system)
            .chain(apps)
            .filter(|(name, _)| names.contains(name))
            .map(|(_, pid)| pid)
            .collect();
        pids.sort_unstable();
        pids
    }

    /// Starts `package`'s process: its pid, or `None` when one runs already.
    pub(super) fn start_process(&mut self, package: &str) -> Option<u32> {
        if self.procs.running.contains_key(package) {
            return None;
        }
        Some(self.process(package))
    }

    /// `package`'s pid, its process started when none runs: the first one's fixed pid,
    /// a later one's new.
    pub(super) fn process(&mut self, package: &str) -> u32 {
        if let Some(pid) = self.running_pid(package) {
            return pid;
        }
        let pid = if self.procs.started.insert(package.to_owned()) {
            apps::pid_of(package)
        } else {
            self.spawn_pid()
        };
        self.procs.running.insert(package.to_owned(), pid);
        pid
    }

    /// Ends `package`'s process, if one runs.
    pub(super) fn end_process(&mut self, package: &str) {
        self.procs.running.remove(package);
    }

    /// Where the log ends now: reading after it gives only what is written from now on.
    pub fn log_end(&self) -> Mark {
        self.log.end(self.clock.now())
    }

    /// Empties `buffer` (`logcat -c`).
    pub fn clear_log(&mut self, buffer: Buffer) {
        self.log.clear(buffer, self.clock.now());
    }

    /// Writes a line to `buffer`, stamped now.
    pub fn write_log(
        &mut self,
        buffer: Buffer,
        writer: Writer,
        priority: Priority,
        tag: &str,
        message: &str,
    ) {
        let at = self.clock.now();
        self.write_log_at(at, buffer, writer, priority, tag, message);
    }

    /// A pid for a program that starts now (`app_process`, an app started again), new
    /// each time.
    pub fn spawn_pid(&mut self) -> u32 {
        self.procs.spawned += 1;
        FIRST_SPAWNED + self.procs.spawned
    }

    fn write_log_at(
        &mut self,
        at: Duration,
        buffer: Buffer,
        writer: Writer,
        priority: Priority,
        tag: &str,
        message: &str,
    ) {
        self.log.append(
            buffer,
            Entry {
                at,
                pid: writer.pid,
                tid: writer.tid,
                priority,
                tag: tag.to_owned(),
                message: message.to_owned(),
            },
        );
    }

    /// An info line system_server's thread `tid` writes, stamped `at`.
    pub(super) fn system(
        &mut self,
        at: Duration,
        buffer: Buffer,
        tid: u32,
        tag: &str,
        message: &str,
    ) {
        let writer = Writer::system(tid);
        self.write_log_at(at, buffer, writer, Priority::Info, tag, message);
    }

    /// A record of the events log, stamped now.
    fn event(&mut self, tid: u32, tag: &str, message: &str) {
        let now = self.clock.now();
        self.system(now, Buffer::Events, tid, tag, message);
    }

    pub(super) fn atm(&mut self, at: Duration, tid: u32, message: &str) {
        self.system(at, Buffer::System, tid, "ActivityTaskManager", message);
    }

    /// The activity screen `index` stands for, as `dumpsys` names it (`PKG/.MainActivity`).
    pub(super) fn component(&self, index: usize) -> String {
        let Some(screen) = self.screens.get(index) else {
            return String::new();
        };
        let class = apps::screen_class(screen);
        match class.strip_prefix(&screen.package) {
            Some(rest) if rest.starts_with('.') => format!("{}/{rest}", screen.package),
            _ => format!("{}/{class}", screen.package),
        }
    }

    pub(super) fn package_of(&self, index: usize) -> String {
        self.screens
            .get(index)
            .map_or_else(String::new, |s| s.package.clone())
    }

    /// What a booted phone has written by the time the sim starts: system_server up and
    /// the launcher started and drawn.
    pub(super) fn log_boot(&mut self) {
        let now = self.clock.now();
        let message = "Entered the Android system server!";
        self.system(now, Buffer::System, SYSTEM_SERVER, "SystemServer", message);
        let home = self.component(0);
        for package in RUNNING_FROM_BOOT {
            self.start_process(package);
        }
        self.start_process(&self.package_of(0));
        self.atm(now, BINDER_TID, &home_start(&home));
        self.event(DISPLAY_TID, "wm_set_resumed_activity", &resumed(&home));
    }

    /// What the system writes as screen `from` gives way to the current one, the
    /// animation that shows it started.
    pub(super) fn log_arrival(&mut self, from: usize, how: Arrival) {
        let now = self.clock.now();
        let (left, shown) = (self.component(from), self.component(self.current));
        let package = self.package_of(self.current);
        let start = match how {
            Arrival::Launched => Some(format!(
                "START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] \
                 flg=0x10200000 cmp={shown}}} with LAUNCH_MULTIPLE from uid 2000 \
                 (BAL_ALLOW_PERMISSION) result code=0"
            )),
            Arrival::Opened if self.package_of(from) == self.package_of(0) => {
                let uid = app_ids(&self.package_of(from)).1;
                Some(format!(
                    "START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] \
                     flg=0x10200000 cmp={shown}}} with LAUNCH_MULTIPLE from uid {uid} \
                     (BAL_ALLOW_ALLOWLISTED_COMPONENT) result code=0"
                ))
            }
            Arrival::Opened => {
                let uid = app_ids(&self.package_of(from)).1;
                Some(format!(
                    "START u0 {{cmp={shown}}} with LAUNCH_MULTIPLE from uid {uid} \
                     (BAL_ALLOW_VISIBLE_WINDOW) result code=0"
                ))
            }
            Arrival::Home => Some(home_start(&shown)),
            Arrival::Back | Arrival::Died => None,
        };
        if how == Arrival::Back {
            let finished = format!("[0,{RECORD},{TASK},{left},app-request]");
            self.event(BINDER_TID, "wm_finish_activity", &finished);
        }
        if let Some(start) = start {
            self.atm(now, BINDER_TID, &start);
        }
        if how.forward()
            && let Some(pid) = self.start_process(&package)
        {
            let uid = apps::image_uid(&package);
            let message = format!(
                "Start proc {pid}:{package}/{} for top-activity {{{shown}}}",
                apps::format_uid(uid)
            );
            self.system(now, Buffer::System, AM_TID, "ActivityManager", &message);
        }
        if how.forward() {
            self.log_created(self.current);
        }
        for (verb, window) in [("leaving", &left), ("entering", &shown)] {
            let message = format!("[Focus {verb} {WINDOW} {window},reason=setFocusedWindow]");
            self.event(INPUT_TID, "input_focus", &message);
        }
        self.event(BINDER_TID, "wm_set_resumed_activity", &resumed(&shown));
        // A new activity reports when its first frame is drawn: the end of the animation.
        if how.forward()
            && let Some(anim) = self
                .anim
                .filter(|a| matches!(a.kind, AnimKind::Slide { .. }))
        {
            let took = anim.end.saturating_sub(anim.start);
            let ms = took.as_millis();
            let message = format!("Displayed {shown} for user 0: {}", format_duration(took));
            self.atm(anim.end, DISPLAY_TID, &message);
            let launch = format!("[0,{RECORD},{shown},{ms}]");
            let tag = "wm_activity_launch_time";
            self.system(anim.end, Buffer::Events, DISPLAY_TID, tag, &launch);
        }
    }

    /// InputDispatcher's line for an injected input, which the keyboard's window takes
    /// when `to_keyboard`, else the app's.
    pub(super) fn log_input(&mut self, input: Input, to_keyboard: bool) {
        let what = match input {
            Input::Tap(at) => format!("tap ({}, {})", at.x, at.y),
            Input::LongPress(at, held) => {
                format!("long press ({}, {}) {}ms", at.x, at.y, held.as_millis())
            }
            Input::Swipe(from, to, took) => format!(
                "swipe ({}, {}) -> ({}, {}) {}ms",
                from.x,
                from.y,
                to.x,
                to.y,
                took.as_millis()
            ),
            Input::Key(key) => format!("key {}", keycode_name(key)),
            Input::Text(1) => "text (1 character)".to_owned(),
            Input::Text(chars) => format!("text ({chars} characters)"),
        };
        let window = if to_keyboard {
            IME_WINDOW.to_owned()
        } else {
            format!("{WINDOW} {}", self.component(self.current))
        };
        let message = format!("Injected {what} to {window}");
        let writer = Writer::system(INPUT_TID);
        self.write_log(
            Buffer::Main,
            writer,
            Priority::Debug,
            "InputDispatcher",
            &message,
        );
    }
}

/// The start the system makes of the home activity `home`.
fn home_start(home: &str) -> String {
    format!(
        "START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.HOME] \
         flg=0x10000100 cmp={home}}} with LAUNCH_SINGLE_TASK from uid 0 \
         (BAL_ALLOW_ALLOWLISTED_UID) result code=0"
    )
}

fn resumed(component: &str) -> String {
    format!("[0,{component},resumeTopActivity - onActivityStateChanged]")
}

/// A duration as Android's `TimeUtils.formatDuration` prints it: `+612ms`, `+1s84ms`, `0`.
pub fn format_duration(took: Duration) -> String {
    let ms = took.as_millis();
    if ms == 0 {
        return "0".to_owned();
    }
    let (days, hours, minutes, seconds, millis) = (
        ms / 86_400_000,
        (ms / 3_600_000) % 24,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000,
    );
    let mut text = "+".to_owned();
    for (value, unit) in [(days, "d"), (hours, "h"), (minutes, "m"), (seconds, "s")] {
        if value > 0 {
            text.push_str(&format!("{value}{unit}"));
        }
    }
    text.push_str(&format!("{millis}ms"));
    text
}

/// The `KEYCODE_` name Android gives `key`.
fn keycode_name(key: Key) -> &'static str {
    match key {
        Key::Back => "KEYCODE_BACK",
        Key::Home => "KEYCODE_HOME",
        Key::Recents => "KEYCODE_APP_SWITCH",
        Key::Enter => "KEYCODE_ENTER",
        Key::Delete => "KEYCODE_DEL",
        Key::Tab => "KEYCODE_TAB",
        Key::Search => "KEYCODE_SEARCH",
        Key::VolumeUp => "KEYCODE_VOLUME_UP",
        Key::VolumeDown => "KEYCODE_VOLUME_DOWN",
        Key::Power => "KEYCODE_POWER",
    }
}
