//! Crashes in the log, each in one sentence: a Java exception that killed a process
//! (`AndroidRuntime: FATAL EXCEPTION`), an app not responding (`ActivityManager: ANR in`),
//! and a native crash (the `DEBUG` tombstone's `*** *** ***` header, or libc's
//! `Fatal signal`), as Android writes them.

use std::fmt;

use super::{LogLine, Stamp};

/// What kind of crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrashKind {
    /// An uncaught Java or Kotlin exception.
    Exception,
    /// Application Not Responding.
    Anr,
    /// A signal in native code.
    Native,
}

impl CrashKind {
    pub fn name(self) -> &'static str {
        match self {
            CrashKind::Exception => "crash",
            CrashKind::Anr => "ANR",
            CrashKind::Native => "native crash",
        }
    }
}

/// One crash: which process, and what happened where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Crash {
    pub kind: CrashKind,
    pub stamp: Stamp,
    /// The process's name, usually its package (`com.example.app`); empty when the log did
    /// not say.
    pub process: String,
    pub pid: Option<u32>,
    /// The exception and its first frame (`java.lang.NullPointerException: … at
    /// com.example.Main.onClick(Main.java:42)`), the ANR's reason, or the signal.
    pub what: String,
}

impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let process = if self.process.is_empty() {
            "a process"
        } else {
            &self.process
        };
        write!(f, "{} {} in {process}", self.stamp, self.kind.name())?;
        if let Some(pid) = self.pid {
            write!(f, " (pid {pid})")?;
        }
        if !self.what.is_empty() {
            write!(f, ": {}", self.what)?;
        }
        Ok(())
    }
}

/// The crashes among `lines`, in order.
pub fn crashes(lines: &[LogLine]) -> Vec<Crash> {
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let after = || following(lines, at);
        let message = line.message.trim();
        if line.tag == "AndroidRuntime" && message.starts_with("FATAL EXCEPTION") {
            found.push(exception(line, after()));
        } else if line.tag == "ActivityManager" && message.starts_with("ANR in ") {
            found.push(anr(line, after()));
        } else if line.tag == "DEBUG" && message.starts_with("*** *** ***") {
            found.push(tombstone(line, after()));
        } else if line.tag == "libc" && message.starts_with("Fatal signal") {
            // The tombstone says it again, in more words: counted once.
            let told = lines[at + 1..]
                .iter()
                .take(50)
                .any(|l| l.tag == "DEBUG" && l.message.starts_with("*** *** ***"));
            if !told {
                found.push(fatal_signal(line));
            }
        }
    }
    found
}

/// The lines after `lines[at]` written by the same thread, as a crash report continues.
fn following(lines: &[LogLine], at: usize) -> impl Iterator<Item = &LogLine> {
    let head = &lines[at];
    lines[at + 1..]
        .iter()
        .filter(move |l| l.pid == head.pid && l.tid == head.tid && l.tag == head.tag)
        .take(64)
}

/// `FATAL EXCEPTION: main` / `Process: pkg, PID: n` / `java.lang.X: message` / `\tat …`,
/// and `Caused by: …` / `\tat …` for a wrapped one (an exception in `onCreate` is
/// `RuntimeException: Unable to start activity …`): the deepest cause and its first frame
/// say what went wrong.
fn exception<'a>(head: &LogLine, after: impl Iterator<Item = &'a LogLine>) -> Crash {
    let mut crash = Crash {
        kind: CrashKind::Exception,
        stamp: head.stamp,
        process: String::new(),
        pid: Some(head.pid),
        what: String::new(),
    };
    // The exception being read and whether its first frame was seen.
    let mut thrown: Option<(String, bool)> = None;
    for line in after {
        let m = line.message.trim();
        if let Some(rest) = m.strip_prefix("Process: ") {
            let (process, pid) = rest.split_once(", PID: ").unwrap_or((rest, ""));
            crash.process = process.trim().to_owned();
            crash.pid = pid.trim().parse().ok().or(crash.pid);
        } else if let Some(frame) = m.strip_prefix("at ") {
            if let Some((exception, framed @ false)) = &mut thrown {
                crash.what = format!("{exception} at {frame}");
                *framed = true;
            }
        } else if let Some(cause) = m.strip_prefix("Caused by: ") {
            crash.what = cause.to_owned();
            thrown = Some((cause.to_owned(), false));
        } else if m.starts_with("...") {
            continue;
        } else if thrown.is_none() && !m.is_empty() {
            crash.what = m.to_owned();
            thrown = Some((m.to_owned(), false));
        }
    }
    crash
}

/// `ANR in pkg (pkg/.Activity)` / `PID: n` / `Reason: …`.
fn anr<'a>(head: &LogLine, after: impl Iterator<Item = &'a LogLine>) -> Crash {
    let named = head.message.trim().trim_start_matches("ANR in ").trim();
    let process = named
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    let mut crash = Crash {
        kind: CrashKind::Anr,
        stamp: head.stamp,
        process,
        pid: None,
        what: String::new(),
    };
    for line in after {
        let m = line.message.trim();
        if let Some(pid) = m.strip_prefix("PID: ") {
            crash.pid = pid.trim().parse().ok();
        } else if let Some(reason) = m.strip_prefix("Reason: ") {
            crash.what = reason.trim().to_owned();
            break;
        }
    }
    crash
}

/// `*** *** ***` / `pid: n, tid: m, name: thread  >>> pkg <<<` / `signal 11 (SIGSEGV), …`.
fn tombstone<'a>(head: &LogLine, after: impl Iterator<Item = &'a LogLine>) -> Crash {
    let mut crash = Crash {
        kind: CrashKind::Native,
        stamp: head.stamp,
        process: String::new(),
        pid: None,
        what: String::new(),
    };
    for line in after {
        let m = line.message.trim();
        if let Some(rest) = m.strip_prefix("pid: ") {
            crash.pid = rest.split(',').next().and_then(|p| p.trim().parse().ok());
            if let Some((_, name)) = rest.split_once(">>> ") {
                crash.process = name.trim_end_matches("<<<").trim().to_owned();
            }
        } else if m.starts_with("signal ") {
            crash.what = m.to_owned();
            break;
        }
    }
    crash
}

/// `Fatal signal 11 (SIGSEGV), code 1 (…), fault addr 0x0 in tid 1250 (RenderThread), pid
/// 1234 (com.example.app)`.
fn fatal_signal(line: &LogLine) -> Crash {
    let m = line.message.trim();
    let process = m
        .rsplit_once(" (")
        .map(|(_, name)| name.trim_end_matches(')').to_owned())
        .unwrap_or_default();
    let what = m
        .strip_prefix("Fatal ")
        .and_then(|rest| rest.split(", code").next())
        .unwrap_or(m)
        .to_owned();
    Crash {
        kind: CrashKind::Native,
        stamp: line.stamp,
        process,
        pid: Some(line.pid),
        what,
    }
}
