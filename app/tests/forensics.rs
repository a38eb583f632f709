//! `tapscope forensics` as a user runs it: the demo's refused stale tap and old-screenshot
//! tap named (exit 1) in lines and JSON; a damaged copy reviewed as far as it can be, its
//! problems said once; a recording `tapscope proxy` would write, where only the tap whose
//! row was replaced is stale and a tap after a clock tick is not; bad input (exit 2).

#[path = "common/screens.rs"]
mod screens;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use screens::store_screen;
use serde_json::{Value, json};
use tapscope_core::recording::{
    AdbCommand, Check, CommandKind, Header, Landed, ProxyHeader, RecordingWriter, ScreenRef, Step,
};
use tapscope_tests::feed::feed_xml;

fn tapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .output()
        .expect("tapscope runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// `tapscope forensics ARGS…` on `recording`: exit code, stdout, stderr.
fn forensics(recording: &Path, more: &[&str]) -> (Option<i32>, String, String) {
    let path = recording.display().to_string();
    let args: Vec<&str> = ["forensics", path.as_str()]
        .into_iter()
        .chain(more.iter().copied())
        .collect();
    let output = tapscope(&args);
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

/// A fresh scratch folder under the target directory, unique per test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("forensics")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A copy of `recordings/demo` in its own scratch folder.
fn demo_copy(name: &str) -> PathBuf {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/demo");
    let copy = scratch(name);
    fs::create_dir_all(copy.join("screens")).expect("screens folder");
    fs::copy(demo.join("session.jsonl"), copy.join("session.jsonl")).expect("copy the log");
    for entry in fs::read_dir(demo.join("screens")).expect("demo screens") {
        let entry = entry.expect("entry");
        fs::copy(entry.path(), copy.join("screens").join(entry.file_name())).expect("copy");
    }
    copy
}

#[test]
fn the_demo_names_its_refused_stale_tap_and_fails() {
    let (code, out, err) = forensics(&demo_copy("demo"), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines[0],
        "step 13: tap refused: the handle named \"45:10 · Every Apollo landing site from o…\" \
         from 2 screens ago; that point now shows \"9:45 · Restoring a rusted hand plane · \
         8…\"; nothing was touched"
    );
    // Step 24's pixel tap measured a screenshot from before the last scroll.
    assert!(lines[1].starts_with("step 24: tapped where "), "{out}");
    assert_eq!(
        lines[2],
        "25 steps reviewed: 2 acted on a screen that was gone"
    );
    assert!(err.is_empty(), "{err}");
}

#[test]
fn the_demo_as_json_holds_step_13_with_what_was_meant_and_is_there() {
    let (code, out, err) = forensics(&demo_copy("demo-json"), &["--json"]);
    assert_eq!(code, Some(1), "{err}");
    let found: Value = serde_json::from_str(&out).expect("valid JSON");
    let found = found.as_array().expect("an array");
    let steps: Vec<&Value> = found.iter().map(|f| &f["step"]).collect();
    assert_eq!(steps, [13, 24]);
    let step13 = &found[0];
    assert_eq!(step13["tool"], "tap");
    assert_eq!(step13["refused"], true);
    assert_eq!(step13["screens_ago"], 2);
    assert_eq!(
        step13["meant"]["label"],
        "\"45:10 · Every Apollo landing site from o…\""
    );
    assert_eq!(
        step13["now_there"]["label"],
        "\"9:45 · Restoring a rusted hand plane · 8…\""
    );
    let point = step13["point"].as_array().expect("a point");
    assert_eq!(point.len(), 2);
    assert!(
        step13["sentence"]
            .as_str()
            .is_some_and(|s| s.starts_with("tap refused: "))
    );
    assert_eq!(found[1]["refused"], false, "the pixel tap happened");
}

#[test]
fn a_damaged_copy_is_reviewed_as_far_as_it_can_be_and_says_why_once() {
    let copy = demo_copy("damaged");
    let log = fs::read_to_string(copy.join("session.jsonl")).expect("log");
    fs::write(copy.join("session.jsonl"), &log[..log.len() - 40]).expect("cut the last line");
    // The feed at the end of the list: step 13's screen of the moment, step 24's old one.
    let missing = "screens/fd76845af8ebac5f.xml";
    fs::remove_file(copy.join(missing)).expect("remove a dump");

    let (code, out, err) = forensics(&copy, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "22 of 24 steps reviewed: none acted on a screen that was gone\n"
    );
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 2, "{err}");
    assert!(notes[0].starts_with("note: line 26 is cut short"), "{err}");
    assert!(
        notes[1].starts_with(&format!(
            "note: steps 13, 24 not reviewed: {missing} is missing from"
        )),
        "{err}"
    );
}

const READ: &str = "aaaaaaaaaaaa";
const REPLACED: &str = "bbbbbbbbbbbb";
const TICKED: &str = "cccccccccccc";

/// The feed with its fourth row, under the point (540, 1210), saying `fourth`.
fn feed(clock: &str, fourth: &str) -> String {
    feed_xml(
        clock,
        &[
            "Home",
            "Trending",
            "Subscriptions",
            fourth,
            "Video: Lo-fi beats",
        ],
    )
}

/// A command through the proxy at `at_ms`, 200 ms long, on connection `connection`.
fn passed(tool: &str, kind: CommandKind, service: &str, at_ms: u64, connection: u64) -> Step {
    let adb = AdbCommand {
        serial: "emulator-5554".into(),
        connection,
        service: service.into(),
        kind,
        exit: Some(0),
        sent: 64,
        received: 2_048,
        landed: None,
    };
    Step {
        at_ms,
        duration_ms: 200,
        tool: tool.into(),
        adb: Some(adb),
        ..Step::default()
    }
}

/// The agent's look at `seen`.
fn look(seen: &ScreenRef, at_ms: u64, connection: u64) -> Step {
    Step {
        version_after: Some(seen.version.clone()),
        after: Some(seen.clone()),
        ..passed(
            "look",
            CommandKind::Look,
            "exec:uiautomator dump /dev/tty",
            at_ms,
            connection,
        )
    }
}

/// A tap at (540, 1210) aimed from `read` that landed on `now`, the proxy's own look.
fn tap(read: &ScreenRef, now: &ScreenRef, at_ms: u64, connection: u64) -> Step {
    let mut step = passed(
        "tap",
        CommandKind::Action,
        "shell,v2,raw:input tap 540 1210",
        at_ms,
        connection,
    );
    let same = read.version == now.version;
    if let Some(adb) = &mut step.adb {
        adb.landed = Some(if same {
            Landed::Same
        } else {
            Landed::Elsewhere
        });
    }
    Step {
        path: vec![[540, 1210]],
        version_used: Some(read.version.clone()),
        version_before: Some(now.version.clone()),
        before: Some(now.clone()),
        ..step
    }
}

/// A recording as `tapscope proxy --check tree` writes one: a look, a tap on the screen
/// read; with `stale`, a tap 1.8 s after the look that landed when an ad had replaced
/// its row; a look at the screen then, and a tap after the clock ticked.
fn proxied(name: &str, stale: bool) -> PathBuf {
    let dir = scratch(name).join("rec");
    let mut header = Header::new("emulator-5554", "0.1.0", "o200k_base", 1_700_000_000_000);
    header.proxy = Some(ProxyHeader {
        upstream: "127.0.0.1:5037".into(),
        check: Check::Tree,
    });
    let mut writer = RecordingWriter::create(&dir, &header).expect("the recording is created");
    let read = store_screen(&mut writer, READ, &feed("9:41", "Video: Rust in 100 s"));
    let replaced = store_screen(&mut writer, REPLACED, &feed("9:41", "Sponsored: Buy now"));
    let ticked = store_screen(&mut writer, TICKED, &feed("9:42", "Sponsored: Buy now"));
    let mut steps = vec![look(&read, 1_000, 1), tap(&read, &read, 1_300, 2)];
    if stale {
        steps.push(tap(&read, &replaced, 3_000, 3));
    }
    steps.extend([
        passed(
            "shell",
            CommandKind::Command,
            "shell,v2,raw:getprop ro.product.model",
            3_500,
            4,
        ),
        look(&replaced, 4_000, 5),
        tap(&replaced, &ticked, 5_000, 6),
    ]);
    for step in &steps {
        writer.append(step).expect("the step is written");
    }
    dir
}

#[test]
fn a_proxied_tap_whose_row_was_replaced_is_the_one_stale_step() {
    let (code, out, err) = forensics(&proxied("proxied", true), &[]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(
        out,
        "step 3: tapped (540, 1210) 1.8 s after reading a screen where that point was \
         \"Video: Rust in 100 s\"; when the tap landed it was on \"Sponsored: Buy now\"\n\
         6 steps reviewed: 1 acted on a screen that was gone\n"
    );
    assert!(err.is_empty(), "{err}");

    let (code, out, _) = forensics(
        &proxied("proxied-json", true).join("session.jsonl"),
        &["--json"],
    );
    assert_eq!(code, Some(1));
    let found: Value = serde_json::from_str(&out).expect("valid JSON");
    let [stale] = found.as_array().expect("an array").as_slice() else {
        panic!("one stale step: {out}");
    };
    let expected = json!({
        "step": 3,
        "tool": "tap",
        "point": [540, 1210],
        "meant": { "label": "\"Video: Rust in 100 s\"" },
        "now_there": { "label": "\"Sponsored: Buy now\"" },
        "refused": false,
        "screens_ago": 1,
        "version_used": READ,
        "version_at_action": REPLACED,
    });
    for (key, value) in expected.as_object().expect("an object") {
        match value.get("label") {
            Some(label) => assert_eq!(&stale[key]["label"], label, "{key}"),
            None => assert_eq!(&stale[key], value, "{key}"),
        }
    }
    let row = json!({ "left": 0, "top": 1100, "right": 1080, "bottom": 1400 });
    assert_eq!(
        (&stale["meant"]["bounds"], &stale["now_there"]["bounds"]),
        (&row, &row)
    );
    assert!(
        stale["sentence"]
            .as_str()
            .is_some_and(|s| s.starts_with("tapped (540, 1210) 1.8 s after reading")),
        "{stale}"
    );
}

#[test]
fn taps_on_the_screen_read_or_after_a_clock_tick_pass() {
    let (code, out, err) = forensics(&proxied("fresh", false), &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(
        out,
        "5 steps reviewed: none acted on a screen that was gone\n"
    );
    let (code, out, _) = forensics(&proxied("fresh-json", false), &["--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        serde_json::from_str::<Value>(&out).expect("valid JSON"),
        json!([])
    );
}

#[test]
fn bad_input_is_exit_code_2_with_what_to_do() {
    let dir = scratch("bad");
    let not_a_recording = dir.join("notes.txt");
    fs::write(&not_a_recording, "groceries: eggs, milk\n").expect("a text file");
    let cases = [
        (dir.join("no-such-recording"), "no recording at"),
        (not_a_recording, "is not a tapscope recording header"),
        (
            dir.clone(),
            "has no session.jsonl; pass the folder a recording was written to",
        ),
    ];
    for (path, message) in cases {
        let (code, out, err) = forensics(&path, &[]);
        assert_eq!(code, Some(2), "{}: {err}", path.display());
        assert!(
            err.starts_with("tapscope: ") && err.contains(message),
            "{}: {err}",
            path.display()
        );
        assert!(out.is_empty(), "{out}");
    }
    let output = tapscope(&["forensics"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("<RECORDING>"));
}
