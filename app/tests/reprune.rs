//! `tapscope reprune` as a user runs it on the demo recording: the keyboard's keys named
//! when the rules collapse it, nothing changed under the defaults, JSON that parses, a
//! damaged copy re-pruned as far as it can be, and bad input refused with exit code 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .output()
        .expect("tapscope runs")
}

fn demo() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../recordings/demo")
        .display()
        .to_string()
}

/// A scratch path under the target directory, unique per test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reprune");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn rules(name: &str, toml: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, toml).expect("rules file");
    path.display().to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

#[test]
fn collapsing_the_keyboard_names_the_lost_keys_and_fails() {
    let collapse = rules("collapse.toml", "keyboard = \"collapse\"\n");
    let output = tapscope(&["reprune", &demo(), "--rules", &collapse]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    // Step 4 tapped the search field and opened the keyboard.
    let step4 = text
        .lines()
        .find(|l| l.starts_with("step 4 tap: "))
        .expect("step 4 changed");
    assert!(step4.contains("617 → 178 tokens"), "{step4}");
    for key in [
        "q (FrameLayout)",
        "m (FrameLayout)",
        "Space (FrameLayout)",
        "Search (FrameLayout)",
    ] {
        assert!(step4.contains(key), "{key} in {step4}");
    }
    assert!(text.contains("step 5 input_text: "), "{text}");
    assert!(
        !text.contains("step 3 "),
        "the launcher has no keyboard: {text}"
    );
    assert!(
        text.contains("lost: 58 semantic nodes on 5 steps, 0 targets"),
        "{text}"
    );
    assert!(stderr(&output).is_empty());
}

#[test]
fn the_default_rules_change_no_step_and_pass() {
    let defaults = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/rules/default.toml");
    let output = tapscope(&[
        "reprune",
        &demo(),
        "--rules",
        &defaults.display().to_string(),
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    let steps = json["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 25);
    let counted: Vec<_> = steps
        .iter()
        .filter(|s| !s["tokens_then"].is_null())
        .collect();
    assert_eq!(counted.len(), 21);
    for step in counted {
        assert_eq!(step["tokens_then"], step["tokens_now"], "{step}");
        assert_eq!(step["changed"], false, "{step}");
    }
    assert_eq!(json["totals"]["lost_nodes"], 0);
    assert_eq!(json["totals"]["loses_anything"], false);
    let kept = steps
        .iter()
        .filter(|s| s["target"]["check"] == "kept")
        .count();
    assert_eq!(
        kept, 9,
        "every tap and scroll by handle, the refused one too"
    );
}

#[test]
fn json_names_the_lost_keys_per_screen() {
    let collapse = rules("collapse-json.toml", "keyboard = \"collapse\"\n");
    let output = tapscope(&["reprune", &demo(), "--rules", &collapse, "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    assert_eq!(json["totals"]["lost_nodes"], 58);
    assert_eq!(json["totals"]["tokens_then"], 7972);
    assert_eq!(json["rules"]["keyboard"], "collapse");
    let step4 = &json["steps"][3];
    assert_eq!(step4["lost_nodes"], 29);
    let screen = &json["screens"][step4["after"].as_u64().expect("a screen after") as usize];
    assert_eq!(screen["version"], "9c75c359f24a");
    assert_eq!(screen["lost"][0]["name"], "q (FrameLayout)");
    assert!(
        screen["lost"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("collapse"))
    );
}

#[test]
fn a_damaged_copy_is_repruned_as_far_as_it_can_be() {
    let copy = scratch("damaged");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("screens")).expect("copy folder");
    let source = Path::new(&demo()).to_path_buf();
    for entry in std::fs::read_dir(source.join("screens")).expect("demo screens") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), copy.join("screens").join(entry.file_name())).expect("copy");
    }
    let log = std::fs::read_to_string(source.join("session.jsonl")).expect("log");
    let cut = &log[..log.len() - 40];
    std::fs::write(copy.join("session.jsonl"), cut).expect("cut log");
    // Step 2 observed the launcher, the first screen.
    let step2: serde_json::Value =
        serde_json::from_str(log.lines().nth(2).expect("step 2")).expect("step 2 is JSON");
    let launcher_dump = step2["after"]["dump"].as_str().expect("a dump").to_owned();
    std::fs::remove_file(copy.join(&launcher_dump)).expect("remove a dump");

    let defaults = rules("defaults.toml", "");
    let output = tapscope(&["reprune", &copy.display().to_string(), "--rules", &defaults]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    assert!(
        text.contains(&format!("could not re-prune: {launcher_dump} is missing")),
        "{text}"
    );
    assert!(text.contains("skipped: line 26 is cut short"), "{text}");
    assert!(
        text.contains("24 steps, 10 distinct screens re-pruned"),
        "{text}"
    );
}

#[test]
fn bad_input_is_exit_code_2_with_one_message() {
    let collapse = rules("collapse-bad.toml", "keyboard = \"collapse\"\n");
    let missing = scratch("no-such-recording").display().to_string();
    let typo = rules("typo.toml", "keybord = \"collapse\"\n");
    let huge = rules("huge.toml", &format!("# {}\n", "x".repeat(70_000)));
    let cases: [(&[&str], &str); 5] = [
        (
            &["reprune", &missing, "--rules", &collapse],
            "no recording at",
        ),
        (
            &["reprune", &demo(), "--rules", &typo],
            "unknown field `keybord`",
        ),
        (
            &["reprune", &demo(), "--rules", &huge],
            "over the 65536-byte limit",
        ),
        (&["reprune", &demo(), "--rules", &demo()], "is a folder"),
        (&["reprune", &demo()], "--rules <FILE>"),
    ];
    for (args, message) in cases {
        let output = tapscope(args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
}

#[test]
fn taps_on_collapsed_keys_are_lost_targets() {
    let dir = scratch("generated");
    let _ = std::fs::remove_dir_all(&dir);
    tapscope_core::session::synthetic::write(&dir, 300, 11).expect("the recording is written");
    let collapse = rules("collapse-generated.toml", "keyboard = \"collapse\"\n");
    let output = tapscope(&["reprune", &dir.display().to_string(), "--rules", &collapse]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    let lost: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(") lost: not printed (keyboard = collapse: keys are not listed)"))
        .collect();
    assert!(!lost.is_empty(), "{text}");
    assert!(
        lost.iter()
            .all(|l| l.starts_with("step ") && l.contains(" tap: ")),
        "{lost:?}"
    );
    let totals = text
        .lines()
        .find(|l| l.starts_with("lost: "))
        .expect("the totals");
    assert!(
        totals.contains(&format!(", {} targets", lost.len())),
        "{totals}"
    );
}
