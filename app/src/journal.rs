//! Writes each call on a session, an agent's or a person's, to a recording as one step:
//! the tool and its arguments, the versions, the outcome, the settle report, and the
//! screens before and after it (each stored once).

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tapscope_core::recording::{
    Actor, Header, RecordingError, RecordingWriter, ScreenFiles, ScreenRef, Step, StepOutcome,
};
use tapscope_core::session::{Observation, Outcome};
use tapscope_core::stability::SettleReport;
use tapscope_core::tokens::Encoding;

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
    /// When the call came in, on the session's clock.
    pub at: Duration,
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
    fn observation(&self) -> Option<&Observation> {
        match self {
            Done::Observed(observation) => Some(observation),
            Done::Acted(outcome) => Some(&outcome.observation),
            _ => None,
        }
    }
}

/// A recording being written.
#[derive(Debug)]
pub struct Journal {
    writer: RecordingWriter,
    encoding: Encoding,
    /// The session clock's reading when the recording started.
    started: Duration,
    /// The screen stored last: the next call's screen before, when nothing moved.
    last: Option<ScreenRef>,
}

impl Journal {
    /// Starts a recording in `dir` of the device `device`; `now` is the session clock.
    pub fn create(dir: &Path, device: &str, now: Duration) -> Result<Self, RecordingError> {
        let unix_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Self::create_at(dir, device, now, unix_ms)
    }

    /// Like [`Journal::create`] with a chosen start time (reproducible recordings).
    pub fn create_at(
        dir: &Path,
        device: &str,
        now: Duration,
        unix_ms: u64,
    ) -> Result<Self, RecordingError> {
        let encoding = Encoding::O200k;
        let header = Header::new(device, env!("CARGO_PKG_VERSION"), encoding.name(), unix_ms);
        Ok(Self {
            writer: RecordingWriter::create(dir, &header)?,
            encoding,
            started: now,
            last: None,
        })
    }

    pub fn dir(&self) -> &Path {
        self.writer.dir()
    }

    /// Appends the step of `call`; `message` is the result text besides the tree and
    /// `screenshot` the full-size screenshot taken after it.
    pub fn record(
        &mut self,
        call: &Call,
        before: Option<&Observation>,
        done: Done<'_>,
        message: &str,
        screenshot: Option<&[u8]>,
    ) -> Result<u64, RecordingError> {
        let before = match before {
            Some(seen) => Some(self.screen(seen, None)?),
            None => None,
        };
        let after = match done.observation() {
            Some(seen) => Some(self.screen(seen, screenshot)?),
            None => None,
        };
        let acted = match done {
            Done::Acted(outcome) => Some(outcome),
            _ => None,
        };
        let (acted_on, settle) = match done {
            Done::Acted(outcome) => (Some(outcome.acted_on.as_str()), Some(&outcome.settle)),
            Done::FailedAfter { acted_on, settle } => (Some(acted_on), Some(settle)),
            _ => (None, None),
        };
        let step = Step {
            step: 0,
            at_ms: millis(call.at.saturating_sub(self.started)),
            duration_ms: millis(call.duration),
            actor: call.actor,
            tool: call.tool.clone(),
            arguments: call.arguments.clone(),
            handle: call.handle.clone(),
            version_used: call.version_used.clone(),
            version_before: before.as_ref().map(|s| s.version.clone()),
            version_after: after.as_ref().map(|s| s.version.clone()),
            outcome: match done {
                Done::Refused => StepOutcome::Refused,
                Done::Failed | Done::FailedAfter { .. } => StepOutcome::Error,
                _ => StepOutcome::Ok,
            },
            message: message.to_owned(),
            acted_on: acted_on.map(str::to_owned),
            path: acted.map_or_else(Vec::new, |o| o.path.iter().map(|p| [p.x, p.y]).collect()),
            settle: settle.and_then(|s| serde_json::to_value(s).ok()),
            bottomed_out: acted.is_some_and(|o| o.bottomed_out),
            before,
            after,
        };
        self.writer.append(&step)
    }

    /// Stores a screen once; the one stored last is reused with its screenshot.
    fn screen(
        &mut self,
        seen: &Observation,
        screenshot: Option<&[u8]>,
    ) -> Result<ScreenRef, RecordingError> {
        if let Some(last) = &self.last
            && last.version == seen.version
            && (screenshot.is_none() || last.screenshot.is_some())
        {
            return Ok(last.clone());
        }
        let stored = self.writer.store_screen(&ScreenFiles {
            version: &seen.version,
            dump: &seen.raw,
            pruned: &seen.text,
            screenshot,
            raw_tokens: count(self.encoding, &seen.raw),
            pruned_tokens: count(self.encoding, &seen.text),
        })?;
        self.last = Some(stored.clone());
        Ok(stored)
    }
}

fn count(encoding: Encoding, text: &str) -> u32 {
    u32::try_from(encoding.count(text)).unwrap_or(u32::MAX)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
