//! `tapscope reprune`: a whole recording re-pruned under a rules file; one line per step
//! the rules change (tokens then → now, semantic nodes lost, a target lost), then the
//! totals, or one JSON object. Exits 1 when the rules lose a node or a target; screens that
//! could not be read and targets that could not be checked are named, in both modes, and
//! leave the exit code to what could be checked.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording;
use tapscope_core::reprune::{self, Reprune, ScreenLoss, StepReprune, StepTokens, TargetCheck};

use super::Outcome;
use super::output::{Stdout, progress};

#[derive(Debug, Args)]
#[command(after_help = EXIT_CODES)]
pub struct RepruneArgs {
    /// The recording: its folder, or its session.jsonl.
    recording: PathBuf,
    /// The new rules (TOML, as assets/rules/default.toml).
    #[arg(long, value_name = "FILE")]
    rules: PathBuf,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    json: bool,
}

/// The exit codes, as `--help` says them.
const EXIT_CODES: &str = "\
Exit codes: 1 when the rules lose a semantic node or a target; 0 when they lose nothing, \
also when some screen files could not be read or some targets could not be checked: those \
are named (\"could not re-prune:\" lines and \"N targets could not be checked\"; with \
--json, totals.unreadable_screens, totals.unchecked_targets and unreadable_files), the same \
with and without --json; 2 for bad input (no recording there, a session.jsonl that is a \
link, a FIFO or too large, rules that are not a TOML rules file).";

pub fn run(args: &RepruneArgs) -> anyhow::Result<Outcome> {
    let rules = PruneRules::load(&args.rules)?;
    let recording = recording::read(&args.recording)?;
    let bar = progress(0, format!("re-pruning {}", args.recording.display()));
    let result = reprune::reprune_with_progress(&recording, &rules, &mut |done, screens| {
        bar.set_length(screens as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let result = result?;
    let mut stdout = Stdout::lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&result)?)?;
    } else {
        write!(stdout, "{}", report(&result))?;
    }
    stdout.flush()?;
    Ok(if result.totals().loses_anything() {
        Outcome::CheckFailed
    } else {
        Outcome::Ok
    })
}

/// The lines a person reads: the steps that changed, then the totals and what could not
/// be read.
fn report(result: &Reprune) -> String {
    let mut out = String::new();
    let mut named_on: Vec<Option<u64>> = vec![None; result.screens.len()];
    for step in &result.steps {
        let unchecked = matches!(step.target, Some(TargetCheck::Unchecked(_)));
        if result.changed(step) || unchecked {
            let line = step_line(result, step, &mut named_on);
            let _ = writeln!(out, "{line}");
        }
    }
    let totals = result.totals();
    let _ = writeln!(
        out,
        "{} steps, {} distinct screens re-pruned; the {} steps that left a screen: {}",
        totals.steps,
        totals.screens - totals.unreadable_screens,
        totals.counted_steps,
        totals.tokens,
    );
    let _ = writeln!(
        out,
        "lost: {} semantic nodes on {} steps, {} targets{}",
        totals.lost_nodes,
        totals.steps_with_lost_nodes,
        totals.lost_targets,
        match totals.unchecked_targets {
            0 => String::new(),
            n => format!(" ({n} targets could not be checked)"),
        }
    );
    for problem in result.unreadable_files() {
        let _ = writeln!(out, "could not re-prune: {problem}");
    }
    for problem in &result.skipped_lines {
        let _ = writeln!(out, "skipped: {problem}");
    }
    out
}

/// `step 4 tap: 326 → 120 tokens (−206, −63.2%); after (a4c68f0687bb) loses 29 semantic nodes: …`.
/// A screen's nodes are listed on the first line that shows it; later lines point there.
fn step_line(result: &Reprune, step: &StepReprune, named_on: &mut [Option<u64>]) -> String {
    let mut parts = vec![match result.tokens(step) {
        StepTokens::Counted(change) => change.to_string(),
        StepTokens::NoScreen => "no screen after".to_owned(),
        StepTokens::Unreadable => "its screen after could not be read".to_owned(),
    }];
    for loss in result.lost_nodes(step) {
        parts.push(loss_part(result, &loss, step.step, named_on));
    }
    match &step.target {
        Some(TargetCheck::Lost {
            target,
            i_then,
            why,
        }) => parts.push(format!("target {target} (i {i_then}) lost: {why}")),
        Some(TargetCheck::Unchecked(why)) => parts.push(format!("target not checked: {why}")),
        Some(TargetCheck::Kept { .. }) | None => {}
    }
    format!("step {} {}: {}", step.step, step.tool, parts.join("; "))
}

fn loss_part(
    result: &Reprune,
    loss: &ScreenLoss<'_>,
    step: u64,
    named_on: &mut [Option<u64>],
) -> String {
    let version = &result.screens[loss.screen].recorded.version;
    let head = format!(
        "{} ({version}) loses {} semantic nodes",
        loss.side.name(),
        loss.lost.len()
    );
    match named_on[loss.screen] {
        Some(first) => format!("{head}, as on step {first}"),
        None => {
            named_on[loss.screen] = Some(step);
            let names: Vec<&str> = loss.lost.iter().map(|l| l.name.as_str()).collect();
            format!("{head}: {}", names.join(", "))
        }
    }
}
