//! A bounded view of log lines, for an agent or a step of a recording: the crashes among
//! all of them on top, then the newest lines within [`Bounds`], then a sentence saying what
//! was left out and how to see it.

use std::fmt::Write as _;

use super::{Crash, LogLine, Priority, crashes};

/// How much of the log a report keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lines: usize,
    pub bytes: usize,
}

impl Default for Bounds {
    /// 200 lines and 16 KiB: a screenful of log for about 4,000 tokens.
    fn default() -> Self {
        Bounds {
            lines: 200,
            bytes: 16 * 1024,
        }
    }
}

/// Log lines, bounded, with the crashes among them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Every crash among the lines read, kept or not.
    pub crashes: Vec<Crash>,
    /// The newest lines within the bounds, oldest first.
    pub lines: Vec<LogLine>,
    /// Lines read but left out by the bounds (the oldest).
    pub left_out: usize,
    /// Output that did not read as log lines.
    pub unreadable: usize,
    /// What else the reader should know: a filter the device could not apply, a buffer
    /// cleared while read.
    pub notes: Vec<String>,
}

impl Report {
    /// `lines` kept within `bounds` (the newest), their crashes found first.
    pub fn bounded(lines: Vec<LogLine>, bounds: Bounds) -> Report {
        let found = crashes(&lines);
        let mut kept = Vec::new();
        let mut bytes = 0;
        for line in lines.iter().rev() {
            let size = line.to_string().len() + 1;
            if kept.len() >= bounds.lines || bytes + size > bounds.bytes {
                break;
            }
            bytes += size;
            kept.push(line.clone());
        }
        kept.reverse();
        Report {
            crashes: found,
            left_out: lines.len() - kept.len(),
            lines: kept,
            unreadable: 0,
            notes: Vec::new(),
        }
    }

    /// Lines of priority `E` or `F` kept.
    pub fn errors(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| l.priority >= Priority::Error)
            .count()
    }

    /// The report as text: crashes, the lines, then what was left out.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if !self.crashes.is_empty() {
            let _ = writeln!(out, "crashes: {}", self.crashes.len());
            for crash in &self.crashes {
                let _ = writeln!(out, "  {crash}");
            }
        }
        for line in &self.lines {
            let _ = writeln!(out, "{line}");
        }
        if self.lines.is_empty() {
            out.push_str("(no log lines)\n");
        }
        if self.left_out > 0 {
            let _ = writeln!(
                out,
                "# {} earlier lines left out by the bounds: ask for a later time, a higher \
                 priority or one tag to see them",
                self.left_out
            );
        }
        if self.unreadable > 0 {
            let _ = writeln!(
                out,
                "# {} lines of output were not log lines and are not shown",
                self.unreadable
            );
        }
        for note in &self.notes {
            let _ = writeln!(out, "# {note}");
        }
        out
    }
}
