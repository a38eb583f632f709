//! The committed demo recording is exactly what `tapscope record-demo` produces today, and
//! it shows what it is meant to: a stale-handle refusal, a fallback screenshot, the end of a
//! list.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tapscope_core::recording::{self, StepOutcome};

const REGENERATE: &str = "regenerate it with `cargo run -p tapscope -- record-demo` and commit \
recordings/demo";

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("a readable file");
                found.insert(path.strip_prefix(dir).expect("inside").to_path_buf(), bytes);
            }
        }
    }
    found
}

#[test]
fn the_committed_demo_is_what_record_demo_writes() {
    let committed = tapscope::demo::source_tree_demo();
    let fresh = std::env::temp_dir().join(format!("tapscope-demo-{}", std::process::id()));
    let summary = tapscope::demo::record(&fresh).expect("the demo records");
    assert!(
        summary.refusals >= 1 && summary.fallbacks >= 1,
        "{summary:?}"
    );

    let (want, got) = (files(&committed), files(&fresh));
    let _ = std::fs::remove_dir_all(&fresh);
    assert!(
        !want.is_empty(),
        "no demo at {}: {REGENERATE}",
        committed.display()
    );
    let names = |m: &BTreeMap<PathBuf, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&want),
        names(&got),
        "the demo's files differ: {REGENERATE}"
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{} differs: {REGENERATE}",
            name.display()
        );
    }
}

#[test]
fn the_demo_reads_back_with_the_moments_it_is_there_to_show() {
    let demo = recording::read(&tapscope::demo::source_tree_demo()).expect("the demo reads");
    assert!(demo.problems.is_empty(), "{:?}", demo.problems);
    let steps = &demo.steps;
    assert!(steps.len() >= 15, "{} steps", steps.len());

    let stale = steps
        .iter()
        .find(|s| s.outcome == StepOutcome::Refused)
        .expect("a refused step");
    assert!(
        stale.message.contains("Token version mismatch"),
        "{}",
        stale.message
    );
    assert_ne!(
        stale.version_used, stale.version_before,
        "stale means another version"
    );

    assert!(
        steps.iter().any(|s| s.bottomed_out),
        "a scroll reached the end of the list"
    );
    let shell = steps
        .iter()
        .find(|s| s.tool == "screen_operation_shell")
        .expect("a pixel tap");
    assert_eq!(shell.outcome, StepOutcome::Ok);
    let [[x, y]] = shell.path[..] else {
        panic!("one point: {:?}", shell.path)
    };
    assert!(
        (x - 540).abs() <= 3 && (y - 1750).abs() <= 3,
        "scaled to the display, on the game's drawn Play: {x},{y}"
    );

    for step in steps.iter().filter(|s| s.after.is_some()) {
        let after = step.after.as_ref().expect("checked");
        let tree = demo
            .load_text(&after.pruned)
            .expect("the pruned tree is there");
        assert!(tree.contains(&after.version), "step {}", step.step);
        assert!(after.raw_tokens > after.pruned_tokens, "step {}", step.step);
        let png = demo
            .load_bytes(after.screenshot.as_deref().expect("a screenshot"))
            .expect("the screenshot is there");
        assert!(png.starts_with(b"\x89PNG"), "step {}", step.step);
    }
}
