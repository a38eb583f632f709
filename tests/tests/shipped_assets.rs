//! The assets tapscope ships work together: the default rules file, read from disk, prunes
//! the shipped sample losslessly and exactly as the built-in defaults do.

use std::path::PathBuf;

use tapscope_core::prune::{PruneRules, prune_with_version};
use tapscope_core::{parse, recall, render};

fn asset(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../assets")
        .join(path)
}

#[test]
fn default_rules_file_prunes_the_sample_like_the_builtin_defaults() {
    let from_file = PruneRules::load(&asset("rules/default.toml")).expect("shipped rules load");
    assert_eq!(from_file, PruneRules::default());

    let bytes = parse::read_file(&asset("samples/video_feed.xml")).expect("sample readable");
    let tree = parse::parse_bytes(&bytes).expect("sample parses");
    let version = "0123456789ab".to_owned();
    let pruned = prune_with_version(&tree, &from_file, version.clone());
    let builtin = prune_with_version(&tree, &PruneRules::default(), version);
    assert_eq!(render::yaml(&pruned), render::yaml(&builtin));
    assert!(recall::check(&tree, &pruned).lost.is_empty());
}

#[test]
fn every_switch_of_the_rules_file_round_trips_through_disk() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("all_off.toml");
    PruneRules::all_off().save(&path).expect("rules save");
    assert_eq!(
        PruneRules::load(&path).expect("rules load"),
        PruneRules::all_off()
    );
}
