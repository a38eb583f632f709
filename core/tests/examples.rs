//! The library as a third party starts with it: the `prune` example built with no optional
//! feature (no tokenizer, device, image or recording dependency) and run on a sample dump.
//! It builds in a target folder of its own, so the workspace's build is not disturbed.

use std::path::Path;
use std::process::Command;

#[test]
fn the_prune_example_runs_without_optional_features() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = manifest.join("../assets/samples/video_feed.xml");
    let output = Command::new(env!("CARGO"))
        .args([
            "run",
            "--quiet",
            "--offline",
            "--no-default-features",
            "--example",
            "prune",
        ])
        .arg("--manifest-path")
        .arg(manifest.join("Cargo.toml"))
        .arg("--")
        .arg(&sample)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-default-features"),
        )
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let tree = String::from_utf8(output.stdout).expect("UTF-8");
    let version = tree
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("version: \""))
        .expect("the version line first");
    let body = tree.split_once('\n').map_or("", |(_, body)| body);
    assert_eq!(
        version.trim_end_matches('"'),
        tapscope_core::render::content_version(body)
    );
    // The search field has a handle, which says it can be tapped; long-pressed too.
    assert!(
        body.contains("\n[2] edit \"Search videos\" long\n"),
        "{tree}"
    );
    assert!(stderr.contains("; 0 lost"), "{stderr}");
}
