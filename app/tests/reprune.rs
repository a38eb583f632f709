//! `tapscope reprune` as a user runs it on the demo recording: the keyboard's keys named
//! when the rules collapse it, nothing changed under the defaults, JSON that parses, a
//! damaged copy re-pruned as far as it can be (in JSON too, with the same exit code), bad
//! input refused with exit code 2, and links, FIFOs and oversized files in a recording
//! refused without waiting.

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
    assert!(step4.contains("326 → 120 tokens"), "{step4}");
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
    assert_eq!(json["totals"]["tokens_then"], 5407);
    assert_eq!(json["rules"]["keyboard"], "collapse");
    let step4 = &json["steps"][3];
    assert_eq!(step4["lost_nodes"], 29);
    let screen = &json["screens"][step4["after"].as_u64().expect("a screen after") as usize];
    assert_eq!(screen["version"], "a4c68f0687bb");
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

/// A copy of the demo in the scratch folder `name`.
fn demo_copy(name: &str) -> PathBuf {
    let copy = scratch(name);
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("screens")).expect("copy folder");
    let source = Path::new(&demo()).to_path_buf();
    for entry in std::fs::read_dir(source.join("screens")).expect("demo screens") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), copy.join("screens").join(entry.file_name())).expect("copy");
    }
    std::fs::copy(source.join("session.jsonl"), copy.join("session.jsonl")).expect("copy log");
    copy
}

/// The launcher's dump, which step 2 observed and step 3's handle names.
const LAUNCHER_DUMP: &str = "screens/aba52b51a3b19897.xml";

#[test]
fn a_missing_screen_is_json_too_and_exits_as_the_text_does() {
    let copy = demo_copy("missing-json");
    std::fs::remove_file(copy.join(LAUNCHER_DUMP)).expect("remove a dump");
    let defaults = rules("defaults-missing.toml", "");
    let folder = copy.display().to_string();

    let text = tapscope(&["reprune", &folder, "--rules", &defaults]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    assert!(
        stdout(&text).contains("(1 targets could not be checked)"),
        "{}",
        stdout(&text)
    );

    let output = tapscope(&["reprune", &folder, "--rules", &defaults, "--json"]);
    assert_eq!(
        output.status.code(),
        text.status.code(),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).is_empty(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    let step3 = &json["steps"][2];
    assert_eq!(step3["step"], 3);
    let target = &step3["target"];
    assert_eq!(target["check"], "unchecked", "{target}");
    assert_eq!(target["reason"], "screen-unreadable", "{target}");
    assert_eq!(target["file"], LAUNCHER_DUMP, "{target}");
    assert!(
        target["why"]
            .as_str()
            .is_some_and(|why| why.contains(&format!("{LAUNCHER_DUMP} is missing"))),
        "{target}"
    );
    assert_eq!(json["totals"]["unchecked_targets"], 1);
    assert_eq!(json["totals"]["unreadable_screens"], 1);
    assert_eq!(json["totals"]["loses_anything"], false);
    assert_eq!(json["unreadable_files"][0]["file"], LAUNCHER_DUMP);
    assert_eq!(json["unreadable_files"][0]["problem"], "missing");
}

#[test]
fn a_session_log_over_the_limit_is_refused_before_it_is_read() {
    let copy = demo_copy("huge-log");
    let log = copy.join("session.jsonl");
    std::fs::File::options()
        .append(true)
        .open(&log)
        .and_then(|f| f.set_len(tapscope_core::recording::MAX_LOG_BYTES + 1))
        .expect("a sparse log");
    let defaults = rules("defaults-huge.toml", "");
    let output = tapscope(&["reprune", &copy.display().to_string(), "--rules", &defaults]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains(&format!("{} is 1073741825 bytes, over the", log.display())),
        "{err}"
    );
    assert!(stdout(&output).is_empty());
}

/// Runs `tapscope ARGS`, failing the test, and ending the run, if it has not ended within
/// a minute.
#[cfg(unix)]
fn within_deadline(args: &[&str]) -> Output {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tapscope starts");
    let pid = child.id();
    let (done, output) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match output.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(output) => output.expect("tapscope's output"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("tapscope {args:?} is still running after a minute");
        }
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_session_log_that_is_a_link_or_a_fifo_is_refused_with_exit_code_2() {
    let copy = demo_copy("linked-log");
    let log = copy.join("session.jsonl");
    let outside = scratch("linked-log.jsonl");
    std::fs::copy(&log, &outside).expect("a copy elsewhere");
    let defaults = rules("defaults-linked-log.toml", "");
    let folder = copy.display().to_string();
    let cases: [(&dyn Fn(), &str); 3] = [
        (
            &|| std::os::unix::fs::symlink("/dev/zero", &log).expect("link"),
            "is a symbolic link",
        ),
        (
            &|| std::os::unix::fs::symlink(&outside, &log).expect("link"),
            "is a symbolic link",
        ),
        (&|| mkfifo(&log), "is a FIFO (named pipe)"),
    ];
    for (make, said) in cases {
        std::fs::remove_file(&log).expect("the log goes");
        make();
        for json in [false, true] {
            let mut args = vec!["reprune", folder.as_str(), "--rules", defaults.as_str()];
            args.extend(json.then_some("--json"));
            let output = within_deadline(&args);
            let err = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains(&format!("{} {said}", log.display())),
                "{args:?}: {err}"
            );
            assert!(err.contains("put the real one there"), "{err}");
            assert!(stdout(&output).is_empty(), "{args:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_screen_that_is_a_link_or_a_fifo_is_named_and_never_read() {
    let copy = demo_copy("linked-screen");
    let dump = copy.join(LAUNCHER_DUMP);
    let outside = scratch("linked-screen.xml");
    std::fs::copy(&dump, &outside).expect("a copy elsewhere");
    let defaults = rules("defaults-linked-screen.toml", "");
    let folder = copy.display().to_string();
    let cases: [(&dyn Fn(), &str); 3] = [
        (
            &|| std::os::unix::fs::symlink("/dev/zero", &dump).expect("link"),
            "is a symbolic link",
        ),
        (
            &|| std::os::unix::fs::symlink(&outside, &dump).expect("link"),
            "is a symbolic link",
        ),
        (&|| mkfifo(&dump), "is a FIFO (named pipe)"),
    ];
    for (make, said) in cases {
        std::fs::remove_file(&dump).expect("the dump goes");
        make();
        let said = format!("{} {said}", dump.display());
        let text = within_deadline(&["reprune", &folder, "--rules", &defaults]);
        assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
        let lines = stdout(&text);
        assert!(
            lines.contains(&format!("could not re-prune: {said}")),
            "{lines}"
        );
        let output = within_deadline(&["reprune", &folder, "--rules", &defaults, "--json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
        let file = &json["unreadable_files"][0];
        assert_eq!(file["file"], LAUNCHER_DUMP, "{file}");
        assert_eq!(file["problem"], "unreadable", "{file}");
        assert!(
            file["message"]
                .as_str()
                .is_some_and(|m| m.starts_with(&said)),
            "{file}"
        );
        assert_eq!(json["steps"][2]["target"]["reason"], "screen-unreadable");
    }
}
