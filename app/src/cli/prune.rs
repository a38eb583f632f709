//! `tapscope prune`: a dump in, the pruned tree (YAML or JSON) or its statistics out.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use tapscope_core::parse;
use tapscope_core::prune::PruneRules;
use tapscope_core::render;
use tapscope_core::report::Stats;
use tapscope_core::tokens::Encoding;

use super::Outcome;
use super::output::Stdout;

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// The dump to prune (uiautomator/Appium XML or a JSON dump); `-` reads standard input.
    file: PathBuf,
    /// A rules file (TOML, as assets/rules/default.toml); defaults apply without one.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Output format of the pruned tree.
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    format: Format,
    /// Print one JSON object of sizes, token counts and recall instead of the tree;
    /// exits 1 if a semantic node was lost.
    #[arg(long)]
    stats: bool,
    /// Tokenizer for --stats.
    #[arg(long, value_enum, default_value_t = EncodingArg::O200k)]
    encoding: EncodingArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Yaml,
    Json,
}

/// Tokenizer choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum EncodingArg {
    O200k,
    Cl100k,
}

impl From<EncodingArg> for Encoding {
    fn from(arg: EncodingArg) -> Self {
        match arg {
            EncodingArg::O200k => Encoding::O200k,
            EncodingArg::Cl100k => Encoding::Cl100k,
        }
    }
}

pub fn run(args: &PruneArgs) -> anyhow::Result<Outcome> {
    let rules = match &args.rules {
        Some(path) => PruneRules::load(path)?,
        None => PruneRules::default(),
    };
    let (name, bytes) = if args.file.as_os_str() == "-" {
        (
            "<stdin>".to_owned(),
            parse::read_limited(std::io::stdin().lock())?,
        )
    } else {
        (
            args.file.display().to_string(),
            parse::read_file(&args.file)?,
        )
    };
    let text = parse::decode(&bytes).with_context(|| format!("cannot read {name}"))?;
    let tree = parse::parse_str(&text).with_context(|| format!("cannot read {name}"))?;
    // The version an agent would be given for this screen: the content's own.
    let (pruned, yaml) = render::versioned(&tree, &rules);
    let mut stdout = Stdout::lock();
    if args.stats {
        let stats = Stats::measure(&text, &tree, &pruned, args.encoding.into());
        writeln!(stdout, "{}", serde_json::to_string_pretty(&stats)?)?;
        stdout.flush()?;
        return Ok(if stats.lost_semantic_nodes.is_empty() {
            Outcome::Ok
        } else {
            Outcome::CheckFailed
        });
    }
    match args.format {
        Format::Yaml => write!(stdout, "{yaml}")?,
        Format::Json => writeln!(stdout, "{}", render::json(&pruned))?,
    }
    stdout.flush()?;
    Ok(Outcome::Ok)
}
