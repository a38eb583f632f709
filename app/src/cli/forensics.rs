//! `tapscope forensics`: every step of a recording reviewed for an action on a screen that
//! was gone (a stale handle refused, a tap whose point landed on something else); one line
//! per such step and a count, or a JSON array. Exits 1 when any step is stale.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use tapscope_core::forensics::{self, Stale};
use tapscope_core::recording::{self, Recording};

use super::Outcome;
use super::output::{Stdout, note};

#[derive(Debug, Args)]
pub struct ForensicsArgs {
    /// The recording: its folder, or its session.jsonl.
    recording: PathBuf,
    /// Print a JSON array of the stale steps instead of lines.
    #[arg(long)]
    json: bool,
}

/// A stale step as `--json` prints it: its number and tool, then what the review found.
#[derive(Debug, Serialize)]
struct Found<'a> {
    step: u64,
    tool: &'a str,
    #[serde(flatten)]
    stale: Stale,
}

/// Steps that could not be reviewed for one reason (a screen file missing or damaged).
struct Unreviewed {
    reason: String,
    steps: Vec<u64>,
}

pub fn run(args: &ForensicsArgs) -> anyhow::Result<Outcome> {
    let recording = recording::read(&args.recording)?;
    for problem in &recording.problems {
        note!("note: {problem}");
    }
    let (found, unreviewed) = review_all(&recording);
    for skipped in &unreviewed {
        note!(
            "note: {} not reviewed: {}",
            step_list(&skipped.steps),
            skipped.reason
        );
    }
    let mut stdout = Stdout::lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&found)?)?;
    } else {
        for step in &found {
            writeln!(stdout, "step {}: {}", step.step, step.stale.sentence)?;
        }
        let skipped = unreviewed.iter().map(|u| u.steps.len()).sum();
        let summary = summary(recording.steps.len(), skipped, found.len());
        writeln!(stdout, "{summary}")?;
    }
    stdout.flush()?;
    Ok(if found.is_empty() {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}

/// Every step reviewed: the stale ones, and the ones that could not be, grouped by why.
fn review_all(recording: &Recording) -> (Vec<Found<'_>>, Vec<Unreviewed>) {
    let mut found = Vec::new();
    let mut unreviewed: Vec<Unreviewed> = Vec::new();
    for (index, step) in recording.steps.iter().enumerate() {
        match forensics::review(recording, index) {
            Ok(review) => found.extend(review.stale.map(|stale| Found {
                step: step.step,
                tool: &step.tool,
                stale,
            })),
            Err(error) => {
                let reason = error.to_string();
                match unreviewed.iter_mut().find(|u| u.reason == reason) {
                    Some(same) => same.steps.push(step.step),
                    None => unreviewed.push(Unreviewed {
                        reason,
                        steps: vec![step.step],
                    }),
                }
            }
        }
    }
    (found, unreviewed)
}

/// `step 4`, `steps 4, 9`.
fn step_list(steps: &[u64]) -> String {
    let numbers: Vec<String> = steps.iter().map(u64::to_string).collect();
    match numbers.as_slice() {
        [one] => format!("step {one}"),
        _ => format!("steps {}", numbers.join(", ")),
    }
}

/// The last line: how many of the `steps` were reviewed (all but `skipped`), and how many
/// of those acted on a screen that was gone.
fn summary(steps: usize, skipped: usize, stale: usize) -> String {
    let reviewed = match (steps, skipped) {
        (1, 0) => "1 step reviewed".to_owned(),
        (n, 0) => format!("{n} steps reviewed"),
        (n, skipped) => format!("{} of {n} steps reviewed", n - skipped),
    };
    match stale {
        0 => format!("{reviewed}: none acted on a screen that was gone"),
        n => format!("{reviewed}: {n} acted on a screen that was gone"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_lists_and_counts_read_as_words() {
        assert_eq!(step_list(&[4]), "step 4");
        assert_eq!(step_list(&[4, 9, 12]), "steps 4, 9, 12");
        assert_eq!(
            summary(1, 0, 0),
            "1 step reviewed: none acted on a screen that was gone"
        );
        assert_eq!(
            summary(25, 0, 2),
            "25 steps reviewed: 2 acted on a screen that was gone"
        );
        assert_eq!(
            summary(24, 2, 1),
            "22 of 24 steps reviewed: 1 acted on a screen that was gone"
        );
    }
}
