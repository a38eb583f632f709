//! The simulated phone's log, as logd keeps it: a ring per buffer (main, system, crash,
//! events), bounded by bytes and by entries, each entry stamped on the sim's clock with
//! the pid and tid that wrote it, its priority and its tag. Readers ask for what came
//! after a [`Mark`] they hold; an entry stamped later than now (an activity's launch
//! time, written when it starts) stays unseen until the clock reaches it. [`Format`]
//! prints an entry as `logcat -v` does.

use std::collections::VecDeque;
use std::time::Duration;

/// logd's default size of each buffer (`ro.logd.size` unset): 256 KiB.
pub const BUFFER_BYTES: usize = 256 * 1024;
/// The most entries a buffer keeps, however small they are.
pub const BUFFER_ENTRIES: usize = 4096;
/// What an entry costs beyond its tag and message: logd's header, the priority byte and
/// the two NULs.
const ENTRY_OVERHEAD: usize = 32;

/// An entry's priority, `V` to `F` (`S`ilent is a filter's, never an entry's): the one
/// tapscope reads logs with.
pub use crate::logcat::Priority;

/// A ring buffer of logd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Buffer {
    Main,
    Events,
    System,
    Crash,
}

impl Buffer {
    /// In logd's order (its log ids), which is the order `logcat -b all` opens them in.
    pub const ALL: [Buffer; 4] = [Buffer::Main, Buffer::Events, Buffer::System, Buffer::Crash];
    /// What logcat reads without `-b`.
    pub const DEFAULT: [Buffer; 3] = [Buffer::Main, Buffer::System, Buffer::Crash];

    pub fn name(self) -> &'static str {
        match self {
            Buffer::Main => "main",
            Buffer::Events => "events",
            Buffer::System => "system",
            Buffer::Crash => "crash",
        }
    }

    pub fn from_name(name: &str) -> Option<Buffer> {
        Buffer::ALL.into_iter().find(|b| b.name() == name)
    }

    fn index(self) -> usize {
        match self {
            Buffer::Main => 0,
            Buffer::Events => 1,
            Buffer::System => 2,
            Buffer::Crash => 3,
        }
    }
}

/// One line a process wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// On the sim's clock: time since boot.
    pub at: Duration,
    pub pid: u32,
    pub tid: u32,
    pub priority: Priority,
    pub tag: String,
    pub message: String,
}

impl Entry {
    fn bytes(&self) -> usize {
        ENTRY_OVERHEAD + self.tag.len() + self.message.len()
    }
}

/// A place in the log: entries are ordered by time, then by when they were written.
/// A reader keeps the mark of the last entry it read and asks for what came after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    at: Duration,
    seq: u64,
}

impl Mark {
    /// Before every entry.
    pub const START: Mark = Mark {
        at: Duration::ZERO,
        seq: 0,
    };

    /// Before every entry stamped `at` or later.
    pub fn since(at: Duration) -> Mark {
        Mark { at, seq: 0 }
    }

    /// When the entry at this mark was stamped.
    pub fn at(self) -> Duration {
        self.at
    }
}

/// An entry as read: where it sits and which buffer holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub buffer: Buffer,
    pub mark: Mark,
    pub entry: Entry,
}

/// How much a buffer keeps: the oldest entries go once either bound is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub bytes: usize,
    pub entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bytes: BUFFER_BYTES,
            entries: BUFFER_ENTRIES,
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Ring {
    /// Sorted by mark.
    entries: VecDeque<(Mark, Entry)>,
    bytes: usize,
}

/// The phone's log: every buffer's ring.
#[derive(Clone, Debug, Default)]
pub struct Log {
    rings: [Ring; 4],
    limits: Limits,
    /// The last entry's sequence number.
    seq: u64,
}

impl Log {
    pub fn new(limits: Limits) -> Self {
        Log {
            limits,
            ..Log::default()
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Writes `entry` to `buffer`, dropping the buffer's oldest entries past its bounds.
    pub fn append(&mut self, buffer: Buffer, entry: Entry) {
        self.seq += 1;
        let mark = Mark {
            at: entry.at,
            seq: self.seq,
        };
        let ring = &mut self.rings[buffer.index()];
        ring.bytes += entry.bytes();
        // Nearly always at the end: only an entry stamped ahead of others goes earlier.
        let at = ring.entries.partition_point(|(m, _)| *m < mark);
        ring.entries.insert(at, (mark, entry));
        while ring.bytes > self.limits.bytes || ring.entries.len() > self.limits.entries {
            let Some((_, old)) = ring.entries.pop_front() else {
                break;
            };
            ring.bytes = ring.bytes.saturating_sub(old.bytes());
        }
    }

    /// The entries of `buffers` after `after` and stamped by `now`, interleaved in order;
    /// only those `pid` wrote when given (logd filters by pid before `-t` counts).
    pub fn read(
        &self,
        buffers: &[Buffer],
        after: Mark,
        now: Duration,
        pid: Option<u32>,
    ) -> Vec<Record> {
        let mut read: Vec<Record> = Vec::new();
        for &buffer in buffers {
            let ring = &self.rings[buffer.index()];
            let from = ring.entries.partition_point(|(m, _)| *m <= after);
            read.extend(
                ring.entries
                    .range(from..)
                    .take_while(|(m, _)| m.at <= now)
                    .filter(|(_, e)| pid.is_none_or(|pid| e.pid == pid))
                    .map(|(mark, entry)| Record {
                        buffer,
                        mark: *mark,
                        entry: entry.clone(),
                    }),
            );
        }
        read.sort_by_key(|r| r.mark);
        read
    }

    /// The mark of the latest entry stamped by `now`: reading after it gives only what
    /// comes from now on.
    pub fn end(&self, now: Duration) -> Mark {
        self.rings
            .iter()
            .filter_map(|ring| {
                let seen = ring.entries.partition_point(|(m, _)| m.at <= now);
                seen.checked_sub(1).map(|last| ring.entries[last].0)
            })
            .max()
            .unwrap_or(Mark::START)
    }

    /// Empties `buffer` of what was written by `now` (`logcat -c`); entries stamped
    /// later are not written yet, so they stay.
    pub fn clear(&mut self, buffer: Buffer, now: Duration) {
        let ring = &mut self.rings[buffer.index()];
        while ring.entries.front().is_some_and(|(m, _)| m.at <= now) {
            if let Some((_, old)) = ring.entries.pop_front() {
                ring.bytes = ring.bytes.saturating_sub(old.bytes());
            }
        }
    }

    /// What `buffer` holds, in bytes as bounded (`logcat -g` prints it).
    pub fn used(&self, buffer: Buffer) -> usize {
        self.rings[buffer.index()].bytes
    }
}

/// `logcat -v` verbs: how a line is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Brief,
    Long,
    Process,
    Raw,
    Tag,
    Thread,
    ThreadTime,
    Time,
}

impl Format {
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "brief" => Format::Brief,
            "long" => Format::Long,
            "process" => Format::Process,
            "raw" => Format::Raw,
            "tag" => Format::Tag,
            "thread" => Format::Thread,
            "threadtime" => Format::ThreadTime,
            "time" => Format::Time,
            _ => return None,
        })
    }

    /// `entry` as logcat prints it (liblog's `android_log_formatLogLine`): each line of
    /// the message under its own prefix, except `long`, which heads the whole message.
    pub fn print(self, entry: &Entry) -> String {
        let (p, tag, pid, tid) = (entry.priority.letter(), &entry.tag, entry.pid, entry.tid);
        let time = || wall_time(entry.at);
        let (prefix, suffix) = match self {
            Format::Brief => (format!("{p}/{tag:<8}({pid:>5}): "), "\n".to_owned()),
            Format::Process => (format!("{p}({pid:>5}) "), format!("  ({tag})\n")),
            Format::Tag => (format!("{p}/{tag:<8}: "), "\n".to_owned()),
            Format::Thread => (format!("{p}({pid:>5}:{tid:>5}) "), "\n".to_owned()),
            Format::Raw => (String::new(), "\n".to_owned()),
            Format::Time => (
                format!("{} {p}/{tag:<8}({pid:>5}): ", time()),
                "\n".to_owned(),
            ),
            Format::ThreadTime => (
                format!("{} {pid:>5} {tid:>5} {p} {tag:<8}: ", time()),
                "\n".to_owned(),
            ),
            Format::Long => {
                let head = format!("[ {} {pid:>5}:{tid:>5} {p}/{tag:<8} ]\n", time());
                return format!("{head}{}\n\n", entry.message);
            }
        };
        entry
            .message
            .split('\n')
            .map(|line| format!("{prefix}{line}{suffix}"))
            .collect()
    }
}

/// A time on the sim's clock as the phone prints it, `12-01 hh:mm:ss.mmm`: the sim boots
/// at midnight on the 1st of December (as `uiautomator events` prints it too).
pub fn wall_time(at: Duration) -> String {
    let ms = at.as_millis();
    let (h, m, s, frac) = (
        (ms / 3_600_000) % 24,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000,
    );
    format!("12-01 {h:02}:{m:02}:{s:02}.{frac:03}")
}

/// A time as `logcat -T` takes it, `MM-DD hh:mm:ss.mmm` (a year may lead it), back on
/// the sim's clock: a day before boot is time zero. `None` when it is not one.
pub fn parse_wall_time(text: &str) -> Option<Duration> {
    let text = text.trim();
    // `YYYY-MM-DD …`: the year says nothing on the sim.
    let text = match text.split_once('-') {
        Some((year, rest)) if year.len() == 4 && rest.contains('-') => rest,
        _ => text,
    };
    let (date, clock) = text.split_once(' ')?;
    let (month, day) = date.split_once('-')?;
    let (month, day): (u64, u64) = (month.parse().ok()?, day.parse().ok()?);
    let mut parts = clock.splitn(3, ':');
    let (h, m, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let (s, frac) = rest.split_once('.').unwrap_or((rest, "0"));
    let (h, m, s): (u64, u64, u64) = (h.parse().ok()?, m.parse().ok()?, s.parse().ok()?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // Fractions beyond the millisecond are kept to the nanosecond.
    let digits: String = frac.chars().take(9).collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let nanos: u64 = format!("{digits:0<9}").parse().ok()?;
    if month < 12 {
        return Some(Duration::ZERO);
    }
    let secs = (day - 1) * 86_400 + h * 3600 + m * 60 + s;
    Some(Duration::from_secs(secs) + Duration::from_nanos(nanos))
}
