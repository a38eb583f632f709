//! `tapscope stats`: one line per dump of a folder (or list of files): tokens raw vs pruned, ratio,
//! recall; then where the pruned tokens go, by part and by kind of line, over them all.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use tapscope_core::parse;
use tapscope_core::prune::PruneRules;
use tapscope_core::render;
use tapscope_core::report::{Breakdown, RawSize, Stats, Tally};
use tapscope_core::tokens::Encoding;

use super::Outcome;
use super::output::{Stdout, progress};
use super::prune::EncodingArg;

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Dumps, or folders of dumps (files ending in .xml or .json).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// A rules file (TOML); defaults apply without one.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = EncodingArg::O200k)]
    encoding: EncodingArg,
}

/// Prints a table, the median reduction per format and the tokens' breakdown; exits 1 if any
/// semantic node was lost.
pub fn run(args: &StatsArgs) -> anyhow::Result<Outcome> {
    let rules = match &args.rules {
        Some(path) => PruneRules::load(path)?,
        None => PruneRules::default(),
    };
    let files = dump_files(&args.paths)?;
    let encoding = Encoding::from(args.encoding);
    let mut stdout = Stdout::lock();
    writeln!(
        stdout,
        "{:<44} {:>11} {:>9} {:>10} {:>7} {:>6} {:>9} {:>5}",
        "file", "format", "raw tok", "pruned tok", "ratio", "nodes", "semantic", "lost"
    )?;
    let mut rows: Vec<(String, Stats)> = Vec::new();
    let mut breakdown = Breakdown::default();
    let bar = progress(files.len(), "measuring".to_owned());
    for file in &files {
        let bytes = parse::read_file(file)?;
        let text =
            parse::decode(&bytes).with_context(|| format!("cannot read {}", file.display()))?;
        let tree =
            parse::parse_str(&text).with_context(|| format!("cannot read {}", file.display()))?;
        // Under the version its content gives, as an agent reads it: the same count every run.
        let (pruned, _) = render::versioned(&tree, &rules);
        let parted = render::parted(&pruned);
        let raw = RawSize::measure(&text, encoding);
        let stats = Stats::of_rendered(raw, &tree, &pruned, &parted.text);
        breakdown.add(&Breakdown::of(&parted, encoding));
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        // The row goes out with the bar out of the way, to one terminal or two.
        bar.suspend(|| {
            writeln!(
                stdout,
                "{:<44} {:>11} {:>9} {:>10} {:>6.1}× {:>6} {:>9} {:>5}",
                name,
                stats.format.name(),
                stats.raw_tokens,
                stats.pruned_tokens,
                stats.reduction(),
                stats.raw_nodes,
                stats.semantic_nodes,
                stats.lost_semantic_nodes.len()
            )
        })?;
        bar.inc(1);
        rows.push((name, stats));
    }
    bar.finish_and_clear();
    for (label, xml) in [("XML", true), ("JSON", false)] {
        let mut ratios: Vec<f64> = rows
            .iter()
            .filter(|(name, _)| name.ends_with(".xml") == xml)
            .map(|(_, s)| s.reduction())
            .collect();
        if let Some(median) = median(&mut ratios) {
            writeln!(
                stdout,
                "median reduction over {} {label} files: {median:.1}×",
                ratios.len()
            )?;
        }
    }
    write_breakdown(&mut stdout, &breakdown, rows.len())?;
    let lost: usize = rows.iter().map(|(_, s)| s.lost_semantic_nodes.len()).sum();
    writeln!(stdout, "lost semantic nodes: {lost}")?;
    if rows
        .iter()
        .any(|(_, s)| !(s.raw_tokens.is_exact() && s.pruned_tokens.is_exact()))
    {
        writeln!(
            stdout,
            "≈ marks an estimated count (a text over 4 MiB, or a very long whitespace run)"
        )?;
    }
    stdout.flush()?;
    Ok(if lost == 0 {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}

/// Where the pruned tokens of `files` dumps go: by part, then by kind of line.
fn write_breakdown(out: &mut Stdout, breakdown: &Breakdown, files: usize) -> anyhow::Result<()> {
    writeln!(
        out,
        "where the pruned tokens go over {files} files ({} tokens, each piece counted on its own):",
        breakdown.total()
    )?;
    let row = |out: &mut Stdout, name: &str, tally: Tally, unit: &str| {
        writeln!(
            out,
            "  {name:<16} {:>8} {:>6.1} % {:>8} {unit}",
            tally.tokens,
            breakdown.percent(tally),
            tally.count
        )
    };
    for (part, tally) in breakdown.parts() {
        row(out, part.name(), tally, "pieces")?;
    }
    writeln!(out, "  by kind of line:")?;
    for (class, tally) in breakdown.lines() {
        row(out, class.name(), tally, "lines")?;
    }
    Ok(())
}

fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2.0),
    }
}

/// The dump files named, with folders expanded to their `.xml` and `.json` files, sorted.
fn dump_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let found = parse::dumps_in(path)?;
            if found.is_empty() {
                bail!("{} holds no .xml or .json dump", path.display());
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
    }
}
