//! The phone's log for an agent and for each step: what `logcat` holds since the last read
//! (or a time), of the app in front or one package, bounded, crashes summarised on top.
//!
//! An app's own lines are asked for by its pid (`--pid`), and crashes across pids (an app
//! that crashed is no longer running, and the launcher is then in front; an ANR is
//! system_server's line) by a second read of the crash tags alone: every app's for the app
//! in front, the package's own when one is named. A read of every process's lines down to
//! errors holds the crashes already and needs no second. Each is a `logcat -d` dump, so a
//! log that floods still ends. Reads keep a cursor, the stamp of the newest line read and
//! the lines at it, so the next read since the last one gives each line once.

use std::collections::HashSet;

use crate::device::{Device, DeviceError};
use crate::logcat::{self, Bounds, LogLine, LogRequest, Priority, Report, Stamp};

/// Whose lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LogScope {
    /// The app in front when the call came (the latest observation's).
    #[default]
    Front,
    /// One package's.
    Package(String),
    /// Every process's.
    All,
}

/// From when.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Since {
    /// The newest line the previous read of this kind saw (the whole buffers the first
    /// time).
    #[default]
    LastRead,
    /// Everything the buffers hold.
    Start,
    /// Lines stamped at or after this.
    At(Stamp),
}

/// What an agent asks of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogQuery {
    pub scope: LogScope,
    pub since: Since,
    /// Lines under this priority are left out (`*:W` is `Warn`).
    pub least: Priority,
    /// Only this tag's lines (crashes are still summarised).
    pub tag: Option<String>,
    pub bounds: Bounds,
}

impl Default for LogQuery {
    fn default() -> Self {
        Self {
            scope: LogScope::Front,
            since: Since::LastRead,
            least: Priority::Verbose,
            tag: None,
            bounds: Bounds::default(),
        }
    }
}

/// The newest stamp a read saw, and the lines at it (read again by `-T`, given once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    at: Option<Stamp>,
    seen: HashSet<LogLine>,
}

impl Cursor {
    pub fn at(&self) -> Option<Stamp> {
        self.at
    }

    /// `lines` (less those this cursor saw, when they were read from it); then the cursor
    /// moves past all of `read`.
    fn advance(&mut self, lines: Vec<LogLine>, read: &[LogLine], from_here: bool) -> Vec<LogLine> {
        let fresh: Vec<LogLine> = lines
            .into_iter()
            .filter(|l| !from_here || Some(l.stamp) != self.at || !self.seen.contains(l))
            .collect();
        if let Some(newest) = read.iter().map(|l| l.stamp).max()
            && Some(newest) >= self.at
        {
            if Some(newest) != self.at {
                self.seen.clear();
            }
            self.at = Some(newest);
            self.seen
                .extend(read.iter().filter(|l| l.stamp == newest).cloned());
        }
        fresh
    }
}

/// The tags of crash reports: Java crashes, ANRs, native crashes.
const CRASH_FILTERS: [&str; 5] = [
    "AndroidRuntime:E",
    "ActivityManager:E",
    "DEBUG:F",
    "libc:F",
    "*:S",
];

/// What the log says for `query`, `front` being the app in front; `cursor` is this kind
/// of read's own (the agent's reads, a step's).
pub fn read<D: Device + ?Sized>(
    device: &mut D,
    query: &LogQuery,
    front: &str,
    cursor: &mut Cursor,
) -> Result<(Report, Option<String>), DeviceError> {
    let since = match query.since {
        Since::LastRead => cursor.at,
        Since::Start => None,
        Since::At(at) => Some(at),
    };
    let package = match &query.scope {
        LogScope::Front => Some(front.to_owned()).filter(|p| !p.is_empty()),
        LogScope::Package(p) => Some(p.clone()),
        LogScope::All => None,
    };
    let mut notes = Vec::new();
    let pid = match &package {
        Some(p) => device.pid_of(p)?,
        None => None,
    };
    let mut filters: Vec<String> = Vec::new();
    if let Some(tag) = &query.tag {
        filters.push(format!("{tag}:{}", query.least.letter()));
        filters.push("*:S".into());
    } else {
        filters.push(format!("*:{}", query.least.letter()));
    }
    let own = match (&package, pid) {
        (Some(p), None) => {
            notes.push(format!("{p} is not running: only its crashes are shown"));
            Vec::new()
        }
        _ => {
            let request = LogRequest {
                since,
                pid,
                tail: None,
                filters,
            };
            match (lines_of(device, &request, &mut notes), pid) {
                // A phone before Android 7 has no `--pid`: its lines are picked here.
                (Err(DeviceError::NoLog { .. }), Some(pid)) => {
                    let every = LogRequest {
                        pid: None,
                        ..request
                    };
                    notes.push("this phone's logcat has no --pid: the app's lines were picked from every process's".into());
                    let lines = lines_of(device, &every, &mut notes)?;
                    lines.into_iter().filter(|l| l.pid == pid).collect()
                }
                (read, _) => read?,
            }
        }
    };
    let crash_request = LogRequest {
        since,
        pid: None,
        tail: None,
        filters: CRASH_FILTERS.map(String::from).to_vec(),
    };
    // Every process's lines down to errors hold every crash line already: no second read.
    let covered = package.is_none() && query.tag.is_none() && query.least <= Priority::Error;
    let crash_lines = if covered {
        let rules = crash_request
            .rules()
            .map_err(|e| DeviceError::InvalidInput(e.to_string()))?;
        own.iter()
            .filter(|l| rules.passes(&l.tag, l.priority))
            .cloned()
            .collect()
    } else {
        lines_of(device, &crash_request, &mut notes)?
    };
    // The app in front after a crash is the launcher: every crash is said then.
    let named = match &query.scope {
        LogScope::Package(p) => Some(p.as_str()),
        LogScope::Front | LogScope::All => None,
    };
    let theirs = |process: &str| named.is_none_or(|p| p == process);
    let found = logcat::crashes(&crash_lines);
    let mut lines = own.clone();
    for crash in found.iter().filter(|c| theirs(&c.process)) {
        // The crash report's own lines: those its first line's thread wrote then.
        lines.extend(
            crash_lines
                .iter()
                .filter(|l| l.stamp == crash.stamp && !own.contains(l))
                .cloned(),
        );
    }
    lines.sort_by_key(|l| l.stamp);
    let seen: Vec<LogLine> = own.iter().chain(&crash_lines).cloned().collect();
    let fresh = cursor.advance(lines, &seen, query.since == Since::LastRead);
    let mut report = Report::bounded(fresh, query.bounds);
    report.crashes.retain(|c| theirs(&c.process));
    report.notes.extend(notes);
    Ok((report, package))
}

/// What every process logged since `cursor`, for a step (a session's action, one the
/// proxy saw pass): where the log ends is found first while the cursor has no place yet,
/// and a log that cannot be read is a note in the report, never a lost step.
pub fn step_report<D: Device + ?Sized>(device: &mut D, cursor: &mut Cursor) -> Report {
    let query = LogQuery {
        scope: LogScope::All,
        ..LogQuery::default()
    };
    let mut since_mark = || {
        if cursor.at.is_none() {
            mark_end(device, cursor)?;
        }
        read(device, &query, "", cursor)
    };
    match since_mark() {
        Ok((report, _)) => report,
        Err(error) => Report {
            notes: vec![format!("the log could not be read: {error}")],
            ..Report::default()
        },
    }
}

/// Where the log ends now, for reads that want only what comes after (a step's).
pub fn mark_end<D: Device + ?Sized>(
    device: &mut D,
    cursor: &mut Cursor,
) -> Result<(), DeviceError> {
    let request = LogRequest {
        tail: Some(1),
        ..LogRequest::default()
    };
    let text = device.logcat(&request)?;
    let last = logcat::parse(&text).lines;
    cursor.advance(Vec::new(), &last, false);
    Ok(())
}

/// The lines of `request`; output that is not log lines is counted in `notes`.
fn lines_of<D: Device + ?Sized>(
    device: &mut D,
    request: &LogRequest,
    notes: &mut Vec<String>,
) -> Result<Vec<LogLine>, DeviceError> {
    let text = device.logcat(request)?;
    let parsed = logcat::parse(&text);
    if parsed.unreadable > 0 {
        notes.push(format!(
            "{} lines of `{}` were not log lines and are left out",
            parsed.unreadable,
            request.command()
        ));
    }
    Ok(parsed.lines)
}

#[cfg(test)]
#[cfg(feature = "sim")]
mod tests;
