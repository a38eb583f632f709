//! `tapscope replay`: re-run recorded sessions on a device, one after another, and say per
//! step whether it still does what it did; exit 1 on a divergence, JUnit XML and JSON for
//! CI, shards for spreading a suite over machines, `--update` to accept a run as the new
//! baseline.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, bail};
use clap::Args;
use tapscope_core::recording::{self, Recording};
use tapscope_core::replay::{Ignore, Report, SLOWER_FACTOR, Totals, junit};
use tapscope_core::session::Session;

use super::Outcome;
use super::output::{Stdout, note, progress};
use crate::mcp::{ServedClock, ServedDevice};
use crate::phone::{DeviceArgs, WithSession};
use crate::replay::scratch::Scratch;
use crate::replay::{self, Options};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The recordings to replay (folders, or their session.jsonl), in turn.
    #[arg(required = true, value_name = "RECORDING")]
    recordings: Vec<PathBuf>,
    #[command(flatten)]
    device: DeviceArgs,
    /// Record each replay, with its report (replay.json): into DIR for one recording, into
    /// DIR/NAME for several.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Write JUnit XML here: a test case per step, the divergence as its failure.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print one JSON object instead of the lines for people.
    #[arg(long)]
    json: bool,
    /// Text matching this regular expression is not compared (after the default clock,
    /// percentage and counter patterns); repeatable.
    #[arg(long = "ignore", value_name = "REGEX")]
    ignore: Vec<String>,
    /// Compare every text exactly: no default patterns (only --ignore ones).
    #[arg(long)]
    exact: bool,
    /// A crash, ANR or native crash the log says during a step (which diverges it when the
    /// recording's log did not say it) is let pass when its sentence matches this regular
    /// expression; repeatable.
    #[arg(long = "ignore-log", value_name = "REGEX")]
    ignore_log: Vec<String>,
    /// Replay only every N-th recording, starting with the K-th (1-based): `--shard 2/4`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Fresh looks at a step that did not read the same before it counts.
    #[arg(long, default_value_t = 1, value_name = "N")]
    retries: u32,
    /// Flag a step that settles this many times slower than it did (and 100 ms more).
    #[arg(long, default_value_t = SLOWER_FACTOR, value_name = "FACTOR")]
    slower: f64,
    /// A changed screen fails too, not only a divergence.
    #[arg(long)]
    strict: bool,
    /// Accept today's run as the new baseline: each recording that replays to its end is
    /// replaced by the new run.
    #[arg(long)]
    update: bool,
}

/// `K/N`: the K-th of N shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("shard {s:?}: write K/N with 1 <= K <= N, like 1/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Self { k, n })
    }
}

impl Shard {
    fn takes(self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<Outcome> {
    let ignore = Ignore::new(!args.exact, &args.ignore)?.with_log(&args.ignore_log)?;
    if !(args.slower.is_finite() && args.slower >= 1.0) {
        bail!(
            "--slower {}: give a factor of 1 or more, like 2",
            args.slower
        );
    }
    if args.update && args.record.is_some() {
        bail!("--update replaces each recording with its replay: give it without --record");
    }
    let chosen: Vec<&PathBuf> = args
        .recordings
        .iter()
        .enumerate()
        .filter(|(k, _)| args.shard.is_none_or(|s| s.takes(*k)))
        .map(|(_, p)| p)
        .collect();
    // Every recording is read before any runs: bad input stops the suite before it starts.
    let recordings = chosen
        .iter()
        .map(|path| recording::read(path).map(|r| (path.as_path(), r)))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some((path, _)) = recordings.iter().find(|(_, r)| r.header.proxy.is_some()) {
        bail!(
            "{}: tapscope proxy recorded it: its steps are adb commands, not calls of \
             tapscope's tools, and replay sends a recording's calls again; open it with \
             `tapscope open`, list its stale taps with `tapscope forensics`",
            path.display()
        );
    }
    if let Some(path) = chosen
        .iter()
        .find(|path| args.update && original_folder(path).file_name().is_none())
    {
        bail!(
            "{}: --update replaces the recording's folder, so give the folder by its name \
             (like ../demo)",
            path.display()
        );
    }
    let several = recordings.len() > 1;
    let mut reports = Vec::new();
    let mut updated = Vec::new();
    for (path, original) in &recordings {
        let name = path.display().to_string();
        let kept = kept_dir(args, path, several)?;
        let options = Options {
            ignore: ignore.clone(),
            retries: args.retries,
            slower_factor: args.slower,
            name_original: !args.update,
            ..Options::recording_to(kept.path())
        };
        let report = args.device.open_replayable(Replay {
            original,
            name: &name,
            device: args.device.device.to_string(),
            options: &options,
        })??;
        if let Kept::Asked(dir) = &kept {
            report.write(dir).with_context(|| {
                format!("could not write the replay's report into {}", dir.display())
            })?;
        }
        if args.update {
            updated.push(update(path, &report, kept)?);
        }
        reports.push(report);
    }
    if let Some(file) = &args.junit {
        std::fs::write(file, junit(&reports, args.strict))
            .with_context(|| format!("could not write the JUnit report to {}", file.display()))?;
    }
    print(args, &reports, &updated)?;
    let passed = reports.iter().all(|r| r.passed(args.strict));
    let baselines_taken = !args.update || updated.iter().all(Option::is_some);
    Ok(if passed && baselines_taken {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}

/// Where a replay is recorded: the folder asked for, else a scratch folder (removed after,
/// or by the next replay when this one is killed) in the system's temporary folder, or
/// beside the original when it will replace it.
enum Kept {
    Asked(PathBuf),
    Scratch(Scratch),
}

impl Kept {
    fn path(&self) -> PathBuf {
        match self {
            Kept::Asked(dir) => dir.clone(),
            Kept::Scratch(scratch) => scratch.run(),
        }
    }
}

fn kept_dir(args: &ReplayArgs, original: &Path, several: bool) -> anyhow::Result<Kept> {
    let folder = original_folder(original);
    Ok(match &args.record {
        Some(dir) if several => {
            let name = folder
                .file_name()
                .map_or_else(|| "replay".into(), |n| n.to_owned());
            Kept::Asked(dir.join(name))
        }
        Some(dir) => Kept::Asked(dir.clone()),
        None if args.update => {
            // Beside the original: the new run takes its place by a rename.
            let parent = match folder.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let scratch = Scratch::new_in(parent, ".tapscope-update-").with_context(|| {
                format!(
                    "could not make a folder in {} to record the replay in",
                    parent.display()
                )
            })?;
            Kept::Scratch(scratch)
        }
        None => {
            let scratch = Scratch::new_in(&std::env::temp_dir(), "tapscope-replay-")
                .context("could not make a temporary folder to record the replay in")?;
            Kept::Scratch(scratch)
        }
    })
}

/// The recording's folder, whether it was named by its folder or its session.jsonl.
fn original_folder(path: &Path) -> &Path {
    if path.is_file() {
        path.parent().unwrap_or(path)
    } else {
        path
    }
}

/// Replaces `original` with the run, when it replayed to its end; the sentence that says
/// what was done.
fn update(original: &Path, report: &Report, kept: Kept) -> anyhow::Result<Option<String>> {
    let folder = original_folder(original);
    if let Some(step) = report.divergence() {
        note!(
            "tapscope: {} not updated: it diverged at step {}; a baseline must replay every step",
            folder.display(),
            step.step
        );
        return Ok(None);
    }
    let Kept::Scratch(scratch) = kept else {
        return Ok(None);
    };
    // Moved aside, the new run moved in, the old one removed; put back if the run cannot
    // move in.
    scratch.replace(folder)?;
    let t = report.totals();
    Ok(Some(format!(
        "updated {}: {} steps, {} changed, {} much slower",
        folder.display(),
        report.steps.len(),
        t.changed,
        t.slower
    )))
}

/// Runs one replay on whichever device was opened.
struct Replay<'a> {
    original: &'a Recording,
    name: &'a str,
    device: String,
    options: &'a Options,
}

impl WithSession for Replay<'_> {
    type Output = anyhow::Result<Report>;

    fn run<D: ServedDevice, C: ServedClock>(self, session: Session<D, C>) -> Self::Output {
        let bar = progress(
            self.original.steps.len(),
            format!("replaying {}", self.name),
        );
        let report = replay::replay(
            session,
            self.original,
            self.name,
            &self.device,
            self.options,
            &mut |done, _| bar.set_position(done as u64),
        );
        bar.finish_and_clear();
        report
    }
}

/// The lines for people, or the JSON object.
fn print(args: &ReplayArgs, reports: &[Report], updated: &[Option<String>]) -> anyhow::Result<()> {
    let mut stdout = Stdout::lock();
    if args.json {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            #[serde(flatten)]
            report: &'a Report,
            totals: Totals,
            passed: bool,
            explanation: Option<String>,
        }
        let shown: Vec<Shown> = reports
            .iter()
            .map(|report| Shown {
                report,
                totals: report.totals(),
                passed: report.passed(args.strict),
                explanation: report.explanation(),
            })
            .collect();
        let passed = reports.iter().all(|r| r.passed(args.strict));
        let all = serde_json::json!({ "passed": passed, "recordings": shown });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&all)?)?;
        stdout.flush()?;
        return Ok(());
    }
    for (k, report) in reports.iter().enumerate() {
        if k > 0 {
            writeln!(stdout)?;
        }
        writeln!(
            stdout,
            "replay of {} on {}",
            report.recording, report.device
        )?;
        for note in &report.notes {
            writeln!(stdout, "  note: {note}")?;
        }
        for step in &report.steps {
            writeln!(stdout, "{}", step.line())?;
        }
        writeln!(stdout, "{}", report.summary())?;
        if let Some(explained) = report.explanation() {
            writeln!(stdout, "{explained}")?;
        }
    }
    for line in updated.iter().flatten() {
        writeln!(stdout, "{line}")?;
    }
    stdout.flush()?;
    Ok(())
}
