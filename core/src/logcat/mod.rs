//! The phone's log as `logcat -v threadtime` prints it: what to ask a device for
//! ([`LogRequest`], the command line it becomes), its lines read back ([`parse`]), the
//! crashes among them summarised ([`crash`]), and a bounded report of them for an agent
//! or a recording ([`report`]).
//!
//! A line is `MM-DD hh:mm:ss.mmm  PID  TID P TAG     : message`. Dividers
//! (`--------- beginning of crash`) are not lines; anything else that does not read as
//! one is counted ([`Parsed::unreadable`]) and never stops the read: a tag of binary
//! garbage still leaves the lines around it.

pub mod crash;
pub mod filters;
pub mod report;

pub use crash::{Crash, CrashKind, crashes};
pub use filters::{BadFilter, Filters};
pub use report::{Bounds, Report};

use std::fmt;

/// A line's priority, `V` to `F`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    Verbose,
    Debug,
    Info,
    Warn,
    Error,
    Fatal,
}

impl Priority {
    pub const ALL: [Priority; 6] = [
        Priority::Verbose,
        Priority::Debug,
        Priority::Info,
        Priority::Warn,
        Priority::Error,
        Priority::Fatal,
    ];

    /// The letter logcat prints: `V D I W E F`.
    pub fn letter(self) -> char {
        match self {
            Priority::Verbose => 'V',
            Priority::Debug => 'D',
            Priority::Info => 'I',
            Priority::Warn => 'W',
            Priority::Error => 'E',
            Priority::Fatal => 'F',
        }
    }

    /// The priority of a letter (upper or lower case); `None` for any other.
    pub fn from_letter(letter: char) -> Option<Priority> {
        Priority::ALL
            .into_iter()
            .find(|p| p.letter() == letter.to_ascii_uppercase())
    }
}

/// When a line was written, as logcat prints it: month, day and the time of day to the
/// millisecond (no year: logcat prints none). Ordered in time within a year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp {
    month: u8,
    day: u8,
    /// Milliseconds since midnight.
    millis: u32,
}

impl Stamp {
    /// `MM-DD hh:mm:ss.mmm`; `None` when `text` is not one.
    pub fn parse(text: &str) -> Option<Stamp> {
        let (date, clock) = text.trim().split_once(' ')?;
        let (month, day) = date.split_once('-')?;
        let number = |s: &str, digits: usize| -> Option<u32> {
            (s.len() == digits && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let (month, day) = (number(month, 2)?, number(day, 2)?);
        let (hms, ms) = clock.split_once('.')?;
        let mut parts = hms.split(':');
        let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let (h, m, s, ms) = (number(h, 2)?, number(m, 2)?, number(s, 2)?, number(ms, 3)?);
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
            return None;
        }
        Some(Stamp {
            month: month as u8,
            day: day as u8,
            millis: ((h * 60 + m) * 60 + s) * 1000 + ms,
        })
    }
}

impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.millis;
        write!(
            f,
            "{:02}-{:02} {:02}:{:02}:{:02}.{:03}",
            self.month,
            self.day,
            ms / 3_600_000,
            ms / 60_000 % 60,
            ms / 1000 % 60,
            ms % 1000
        )
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LogLine {
    pub stamp: Stamp,
    pub pid: u32,
    pub tid: u32,
    pub priority: Priority,
    pub tag: String,
    pub message: String,
}

impl fmt::Display for LogLine {
    /// As `logcat -v threadtime` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:>5} {:>5} {} {:<8}: {}",
            self.stamp,
            self.pid,
            self.tid,
            self.priority.letter(),
            self.tag,
            self.message
        )
    }
}

/// What a logcat output read as.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub lines: Vec<LogLine>,
    /// Lines that were neither a log line, a divider nor blank.
    pub unreadable: usize,
}

/// The lines of `text`, `logcat -v threadtime`'s output.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    for raw in text.lines() {
        if raw.trim().is_empty() || raw.starts_with("--------- ") {
            continue;
        }
        match parse_line(raw) {
            Some(line) => parsed.lines.push(line),
            None => parsed.unreadable += 1,
        }
    }
    parsed
}

/// One threadtime line: the stamp (two words), pid, tid, priority letter, then the tag up
/// to the first `": "` and the message after it.
fn parse_line(raw: &str) -> Option<LogLine> {
    let mut words = raw.split_whitespace();
    let (date, time) = (words.next()?, words.next()?);
    let stamp = Stamp::parse(&format!("{date} {time}"))?;
    let pid = words.next()?.parse().ok()?;
    let tid = words.next()?.parse().ok()?;
    let letter = words.next()?;
    let mut letters = letter.chars();
    let priority = Priority::from_letter(letters.next()?)?;
    if letters.next().is_some() {
        return None;
    }
    // The rest after the priority letter, as written: `TAG     : message`.
    let at = raw.find(&format!(" {letter} "))? + letter.len() + 2;
    let rest = &raw[at..];
    let (tag, message) = rest
        .split_once(": ")
        .unwrap_or((rest.trim_end_matches(':'), ""));
    Some(LogLine {
        stamp,
        pid,
        tid,
        priority,
        tag: tag.trim_end().to_owned(),
        message: message.to_owned(),
    })
}

/// The log buffers tapscope reads: the apps', the system's and the crash buffer.
pub const BUFFERS: [&str; 3] = ["main", "system", "crash"];

/// What to ask a device's logcat for: a dump (`-d`) in threadtime, of [`BUFFERS`], since
/// a stamp, of one process, through filterspecs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogRequest {
    /// Lines stamped at or after this (`-T`); the whole buffers without it.
    pub since: Option<Stamp>,
    /// Only the lines of this process (`--pid`, Android 7 and later).
    pub pid: Option<u32>,
    /// Only the last this many lines (`-t N`), for finding where the log ends now.
    pub tail: Option<usize>,
    /// Filterspecs, `TAG:P` or `*:P` (logcat's default is `*:V`).
    pub filters: Vec<String>,
}

impl LogRequest {
    /// The command line, its arguments quoted for the device's shell.
    pub fn command(&self) -> String {
        let mut command = format!("logcat -d -v threadtime -b {}", BUFFERS.join(","));
        if let Some(since) = self.since {
            command.push_str(&format!(" -T '{since}'"));
        }
        if let Some(tail) = self.tail {
            command.push_str(&format!(" -t {tail}"));
        }
        if let Some(pid) = self.pid {
            command.push_str(&format!(" --pid={pid}"));
        }
        for filter in &self.filters {
            command.push_str(&format!(" '{}'", filter.replace('\'', "")));
        }
        command
    }

    /// The filterspecs as logcat applies them.
    pub fn rules(&self) -> Result<Filters, BadFilter> {
        Filters::of(&self.filters)
    }
}

#[cfg(test)]
mod tests;
