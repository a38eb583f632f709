//! Prunes one dump and prints the tree an agent would read, then what the recall check
//! found. Needs no optional feature:
//!
//! ```sh
//! cargo run -p tapscope-core --no-default-features --example prune -- assets/samples/video_feed.xml
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use tapscope_core::prune::PruneRules;
use tapscope_core::{parse, recall, render};

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: prune DUMP (uiautomator or Appium XML, or a JSON dump)");
        return ExitCode::from(2);
    };
    let tree = match parse::read_file(&path).and_then(|bytes| parse::parse_bytes(&bytes)) {
        Ok(tree) => tree,
        Err(error) => {
            eprintln!("{}: {error}", path.display());
            return ExitCode::from(2);
        }
    };
    // The version is the one a session gives the same screen: derived from the text.
    let (pruned, text) = render::versioned(&tree, &PruneRules::default());
    print!("{text}");
    let lost = recall::check(&tree, &pruned).lost;
    eprintln!(
        "{} raw nodes, {} printed; {} lost",
        tree.nodes.len(),
        pruned.nodes.len(),
        lost.len()
    );
    for node in &lost {
        eprintln!("lost: {}: {}", node.name(), node.reason);
    }
    ExitCode::SUCCESS
}
