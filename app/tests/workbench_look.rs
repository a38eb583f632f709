//! How each step's screen was read, in the workbench's step pane, headless with
//! egui_kittest: a copy of the demo written here with `RecordingWriter`, its first tap's
//! settle report saying uiautomator2's server gave no answer and stock dumps were used
//! instead, its second tap's saying uiautomator2's server answered; the steps show the way,
//! the cost of a look and the fallback; a step that never waited shows no look at all, and
//! the demo's own steps the sim read directly.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::json;
use tapscope::demo::source_tree_demo;
use tapscope::gui::Workbench;
use tapscope_core::recording::{self, Recording, RecordingWriter, ScreenFiles, ScreenRef, Step};
use tapscope_core::stability::SettleReport;

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);
/// The demo's step 3, its first tap: the helper hung and stock dumps read the screen.
const FELL_BACK: usize = 2;
/// The demo's step 4, its second tap: read through the helper.
const THROUGH_U2: usize = 3;

const STOCK_LOOK: &str = "looked through stock `uiautomator dump` (stock): 2100 ms a look";
const FALLBACK: &str =
    "uiautomator2's server gave no answer in time: looked with stock `uiautomator dump` instead";
const U2_LOOK: &str = "looked through uiautomator2's server (u2): 62 ms a look";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Stores `screen` of `from` in the recording `writer` writes.
fn store(writer: &mut RecordingWriter, from: &Recording, screen: &ScreenRef) -> ScreenRef {
    let dump = from.load_text(&screen.dump).expect("the dump");
    let pruned = from.load_text(&screen.pruned).expect("the pruned text");
    let png = screen
        .screenshot
        .as_ref()
        .map(|png| from.load_bytes(png).expect("the screenshot"));
    let files = ScreenFiles {
        pixel_text: None,
        version: &screen.version,
        dump: &dump,
        pruned: &pruned,
        screenshot: png.as_deref(),
        raw_tokens: screen.raw_tokens,
        pruned_tokens: screen.pruned_tokens,
    };
    writer.store_screen(&files).expect("stored")
}

/// The demo's step `k`, its settle report saying how the screen was read.
fn with_look(demo: &Recording, k: usize) -> Step {
    let mut step = demo.steps[k].clone();
    let look = match k {
        FELL_BACK => json!({
            "backend": "stock",
            "look_ms": 2100,
            "fell_back": {"from": "u2", "why": "hung", "to": "stock"},
        }),
        THROUGH_U2 => json!({"backend": "u2", "look_ms": 62}),
        _ => return step,
    };
    let settle = step.settle.as_mut().expect("the demo's taps waited");
    settle["look"] = look;
    // The result text says the report as the tool returned it.
    let report: SettleReport = serde_json::from_value(settle.clone()).expect("a report");
    let said = serde_json::to_string(&report).expect("serialized");
    let lines: Vec<String> = step
        .message
        .lines()
        .map(|line| match line.strip_prefix("settle: ") {
            Some(_) => format!("settle: {said}"),
            None => line.to_owned(),
        })
        .collect();
    step.message = lines.join("\n");
    step
}

/// The demo rewritten in folder `name`, two of its taps saying how they looked.
fn looked_recording(name: &str) -> PathBuf {
    let dir = scratch(name);
    let demo = recording::read(&source_tree_demo()).expect("the demo reads");
    let mut writer = RecordingWriter::create(&dir, &demo.header).expect("created");
    for k in 0..demo.steps.len() {
        let mut step = with_look(&demo, k);
        step.before = step.before.map(|s| store(&mut writer, &demo, &s));
        step.after = step.after.map(|s| store(&mut writer, &demo, &s));
        writer.append(&step).expect("appended");
    }
    dir
}

fn opened(dir: &Path) -> Harness<'static, Workbench> {
    let mut harness = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(16)
        .build_ui_state(
            |ui, workbench: &mut Workbench| workbench.ui(ui),
            Workbench::new(),
        );
    let ctx = harness.ctx.clone();
    harness.state_mut().open(dir.to_path_buf(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    let messages = &harness.state().banner.messages;
    assert!(messages.is_empty(), "{messages:?}");
    harness
}

fn next(harness: &mut Harness<'static, Workbench>, position: &str) {
    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    harness.get_by_label(position);
}

#[test]
fn each_step_says_how_its_screen_was_read_and_a_helper_that_failed() {
    let dir = looked_recording("look_fallback");
    let mut harness = opened(&dir);
    // It opens on step 2, an observation, which waited for nothing: no look is said.
    harness.get_by_label("step 2/25");
    assert!(harness.query_by_label("look").is_none(), "no look row");
    assert!(harness.query_by_label_contains("a look").is_none());

    next(&mut harness, "step 3/25");
    harness.get_by_label("look");
    harness.get_by_label(STOCK_LOOK);
    harness.get_by_label(FALLBACK);

    // The helper answered the next tap: its way and cost, and no fallback.
    next(&mut harness, "step 4/25");
    harness.get_by_label(U2_LOOK);
    assert!(
        harness.query_by_label(FALLBACK).is_none(),
        "said once, on step 3"
    );
    assert!(harness.query_by_label(STOCK_LOOK).is_none());

    // Step 5 is as the demo recorded it: the sim read directly, and no fallback.
    next(&mut harness, "step 5/25");
    harness.get_by_label("settled (structure-and-events)");
    harness.get_by_label("looked through the simulated phone read directly (sim): 0 ms a look");
    assert!(harness.query_by_label(FALLBACK).is_none());
}
