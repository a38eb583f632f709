//! Regression replay, what is compared: a recorded session re-run on today's build or
//! phone gives one [`StepResult`] per recorded step — its [`Verdict`] (same, changed,
//! diverged), settle time and pruned tokens then and now, and for a pixel action what its
//! point shows then and now — gathered in a [`Report`] that prints one line a step, explains
//! the first divergence, and writes JSON or JUnit XML.
//!
//! Running the calls is the caller's (the `tapscope replay` command drives a device over
//! its MCP tools); this module decides what a recorded target is today ([`find_again`]),
//! what is ignored ([`Ignore`]) and how a step compares ([`compare`]).

mod find;
mod ignore;
mod judge;
mod junit;
mod verdict;

use serde::{Deserialize, Serialize};

pub use find::{Found, Screen, comparable, find_again, with_handle};
pub use ignore::{BadPattern, DEFAULT_PATTERNS, Ignore};
pub use judge::{Side, at_point, judge, pictures, recorded_screen, screen_of, settle_ms};
pub use junit::junit;
pub use verdict::{Changes, Divergence, Pixels, Verdict, compare, outcome_name, screen_changes};

/// The file in a replay's recording that holds the replay's [`Report`]: the verdicts,
/// including those of steps that diverged before a call was made (so the recording has no
/// step for them).
pub const REPORT_FILE: &str = "replay.json";

/// A step settles "much slower" when it takes this many times as long as it did, and at
/// least [`SLOWER_BY_MS`] more.
pub const SLOWER_FACTOR: f64 = 2.0;
/// Below this difference a slower settle is noise, whatever the ratio.
pub const SLOWER_BY_MS: u64 = 100;

/// A step's line shows this many characters of its call (the tool and its target), then `…`.
const CALL_CHARS: usize = 47;

/// A value when recorded and today.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThenNow<T> {
    pub then: Option<T>,
    pub now: Option<T>,
}

/// A pixel action's display point, and what it meets on the screen then and now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtPoint {
    pub point: [i32; 2],
    pub then: Option<String>,
    pub now: Option<String>,
}

/// One recorded step, replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepResult {
    /// The recorded step's number.
    pub step: u64,
    pub tool: String,
    /// The node the recorded call named, as it read then: `"Search videos"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// How many times the step was looked at again before the verdict.
    pub retries: u32,
    /// It read otherwise at first and the same on a retry.
    pub flaky: bool,
    pub settle_ms: ThenNow<u64>,
    pub pruned_tokens: ThenNow<u32>,
    /// It settled much slower than it did (see [`Report::slower_factor`]).
    pub slower: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_point: Option<AtPoint>,
}

impl StepResult {
    /// `step 7 tap "Search videos"`.
    pub fn title(&self) -> String {
        match &self.target {
            Some(target) => format!("step {} {} {target}", self.step, self.tool),
            None => format!("step {} {}", self.step, self.tool),
        }
    }

    /// Whether settling took much longer than it did: `factor` times and [`SLOWER_BY_MS`].
    pub fn is_slower(settle: ThenNow<u64>, factor: f64) -> bool {
        match (settle.then, settle.now) {
            (Some(then), Some(now)) => {
                now >= then + SLOWER_BY_MS && now as f64 >= then as f64 * factor
            }
            _ => false,
        }
    }

    /// One line for a person: number, call, verdict, and what is worth seeing.
    pub fn line(&self) -> String {
        let call = match &self.target {
            Some(target) => format!("{} {target}", self.tool),
            None => self.tool.clone(),
        };
        let mut notes = Vec::new();
        match &self.verdict {
            Verdict::Same => {}
            Verdict::Changed(changes) => notes.push(changes.sentence()),
            Verdict::Diverged(why) => notes.push(why.sentence()),
        }
        if self.flaky {
            notes.push(format!("flaky: the same on retry {}", self.retries.max(1)));
        }
        if let (Some(then), Some(now)) = (self.settle_ms.then, self.settle_ms.now)
            && then != now
        {
            let slower = if self.slower { " (much slower)" } else { "" };
            notes.push(format!("settle {then} → {now} ms{slower}"));
        }
        if let (Some(then), Some(now)) = (self.pruned_tokens.then, self.pruned_tokens.now)
            && then != now
        {
            notes.push(format!("tokens {then} → {now}"));
        }
        if let Some(at) = &self.at_point {
            let read = |t: &Option<String>| t.clone().unwrap_or_else(|| "nothing".into());
            if at.then != at.now {
                notes.push(format!(
                    "at ({}, {}): then {}, now {}",
                    at.point[0],
                    at.point[1],
                    read(&at.then),
                    read(&at.now)
                ));
            }
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  {}", notes.join("; "))
        };
        format!(
            "{:>4} {:<8} {}{notes}",
            self.step,
            self.verdict.name(),
            crate::prune::truncate(&call, CALL_CHARS)
        )
    }
}

/// One recording replayed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The recording replayed, as named.
    pub recording: String,
    /// The device it was replayed on.
    pub device: String,
    /// The replayed steps in order, up to and with the first divergence.
    pub steps: Vec<StepResult>,
    /// Recorded steps left after the divergence.
    pub not_run: usize,
    /// What could not be compared, and recorded lines that could not be read.
    pub notes: Vec<String>,
    /// The factor a settle must exceed to be flagged as much slower.
    #[serde(default)]
    pub slower_factor: f64,
}

/// Counts over a report's steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub same: usize,
    pub changed: usize,
    pub diverged: usize,
    pub flaky: usize,
    pub slower: usize,
    pub not_run: usize,
    /// Summed over the steps that have both figures.
    pub settle_ms: ThenNow<u64>,
    pub pruned_tokens: ThenNow<u64>,
}

/// A replay's report could not be read back.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {reason}; replay the recording again with --record to write it anew")]
pub struct BadReport {
    pub path: std::path::PathBuf,
    pub reason: String,
}

impl Report {
    /// The report a replay left in its recording `dir`, if it left one.
    pub fn read(dir: &std::path::Path) -> Result<Option<Report>, BadReport> {
        let path = dir.join(REPORT_FILE);
        let bad = |reason: String| BadReport {
            path: path.clone(),
            reason,
        };
        // Read as the recording's other files are: a regular file inside it, and bounded.
        let limit = crate::recording::MAX_LOG_BYTES;
        let bytes = match crate::recording::read_regular_file(&path, limit, "a replay's report") {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Ok(None),
            Err(e) => return Err(bad(e.to_string())),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| bad(format!("not a replay report ({e})")))
    }

    /// Writes the report into the replay's recording `dir`.
    pub fn write(&self, dir: &std::path::Path) -> std::io::Result<()> {
        let json = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(dir.join(REPORT_FILE), json)
    }

    /// The first step that diverged.
    pub fn divergence(&self) -> Option<&StepResult> {
        self.steps
            .iter()
            .find(|s| matches!(s.verdict, Verdict::Diverged(_)))
    }

    /// No step diverged; with `strict`, no step's screen changed either.
    pub fn passed(&self, strict: bool) -> bool {
        self.steps.iter().all(|s| match s.verdict {
            Verdict::Same => true,
            Verdict::Changed(_) => !strict,
            Verdict::Diverged(_) => false,
        })
    }

    /// The first divergence in a sentence, naming what was left unplayed.
    pub fn explanation(&self) -> Option<String> {
        let step = self.divergence()?;
        let Verdict::Diverged(why) = &step.verdict else {
            return None;
        };
        let left = match self.not_run {
            0 => String::new(),
            1 => " The replay stopped there; 1 step was not run.".to_owned(),
            n => format!(" The replay stopped there; {n} steps were not run."),
        };
        Some(format!(
            "{} diverged: {}.{left}",
            step.title(),
            why.sentence()
        ))
    }

    pub fn totals(&self) -> Totals {
        let mut totals = Totals {
            not_run: self.not_run,
            ..Totals::default()
        };
        // Only steps with both figures: the totals compare like with like.
        let add = |sum: &mut ThenNow<u64>, then: Option<u64>, now: Option<u64>| {
            if let (Some(then), Some(now)) = (then, now) {
                sum.then = Some(sum.then.unwrap_or(0) + then);
                sum.now = Some(sum.now.unwrap_or(0) + now);
            }
        };
        for step in &self.steps {
            match step.verdict {
                Verdict::Same => totals.same += 1,
                Verdict::Changed(_) => totals.changed += 1,
                Verdict::Diverged(_) => totals.diverged += 1,
            }
            totals.flaky += usize::from(step.flaky);
            totals.slower += usize::from(step.slower);
            add(
                &mut totals.settle_ms,
                step.settle_ms.then,
                step.settle_ms.now,
            );
            let tokens = step.pruned_tokens;
            let wide = |t: Option<u32>| t.map(u64::from);
            add(
                &mut totals.pruned_tokens,
                wide(tokens.then),
                wide(tokens.now),
            );
        }
        totals
    }

    /// The totals in one line.
    pub fn summary(&self) -> String {
        let t = self.totals();
        let mut parts = vec![format!("{} same", t.same)];
        for (n, what) in [
            (t.changed, "changed"),
            (t.diverged, "diverged"),
            (t.flaky, "flaky"),
            (t.slower, "much slower"),
            (t.not_run, "not run"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let pair = |v: ThenNow<u64>, unit: &str| match (v.then, v.now) {
            (Some(a), Some(b)) => format!("{a} → {b}{unit}"),
            _ => "-".to_owned(),
        };
        format!(
            "{}: {} of {} steps; settle {}; pruned tokens {}",
            self.recording,
            parts.join(", "),
            self.steps.len() + self.not_run,
            pair(t.settle_ms, " ms"),
            pair(t.pruned_tokens, "")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::StepOutcome;

    fn step(n: u64, verdict: Verdict) -> StepResult {
        StepResult {
            step: n,
            tool: "tap".into(),
            target: Some("\"Send\"".into()),
            verdict,
            retries: 1,
            flaky: n == 1,
            settle_ms: ThenNow {
                then: Some(300),
                now: Some(900),
            },
            pruned_tokens: ThenNow {
                then: Some(40),
                now: None,
            },
            slower: true,
            at_point: Some(AtPoint {
                point: [1, 2],
                then: Some("\"a\"".into()),
                now: None,
            }),
        }
    }

    #[test]
    fn a_report_is_written_and_read_back_whole() {
        let changes = Changes {
            appeared: vec!["\"New\"".into()],
            disappeared: vec![],
            changed: vec!["\"Send\" → \"Send now\" (text)".into()],
            app: Some("a → b".into()),
        };
        let report = Report {
            recording: "recordings/demo".into(),
            device: "sim-next".into(),
            steps: vec![
                step(1, Verdict::Same),
                step(2, Verdict::Changed(changes)),
                step(
                    3,
                    Verdict::Diverged(Divergence::Outcome {
                        then: StepOutcome::Ok,
                        now: StepOutcome::Refused,
                        said: "no".into(),
                    }),
                ),
                step(
                    4,
                    Verdict::Diverged(Divergence::TargetGone {
                        meant: "\"Send\"".into(),
                    }),
                ),
            ],
            not_run: 7,
            notes: vec!["a note".into()],
            slower_factor: 2.0,
        };
        let dir = tempfile::tempdir().unwrap();
        report.write(dir.path()).unwrap();
        assert_eq!(Report::read(dir.path()).unwrap(), Some(report));
    }

    #[test]
    fn no_report_is_none_and_a_damaged_one_says_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Report::read(dir.path()).unwrap(), None);
        std::fs::write(dir.path().join(REPORT_FILE), "{ nope").unwrap();
        let said = Report::read(dir.path()).unwrap_err().to_string();
        assert!(
            said.contains("not a replay report") && said.contains("--record"),
            "{said}"
        );
    }
}
