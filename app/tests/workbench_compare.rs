//! A replayed run beside the recording it replays, headless with egui_kittest. The original
//! is a copy of the demo; the run is written here with `RecordingWriter` as a replay would
//! write it: the demo's steps, step 4 leaving another screen (changed) and settling much
//! slower, step 10 refused (diverged), and nothing after it (not run).

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable, by};
use tapscope::demo::source_tree_demo;
use tapscope::gui::Workbench;
use tapscope::gui::opened::Opened;
use tapscope_core::inspect::tree_diff::{TreeDiff, tree_diff};
use tapscope_core::recording::{
    self, Header, Recording, RecordingWriter, SCREENS_DIR, SESSION_FILE, ScreenFiles, ScreenRef,
    Step, StepOutcome,
};
use tapscope_core::replay::{self, Ignore};

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);
/// The run's step 4 (0-based 3) left the screen of the demo's step 9.
const CHANGED: usize = 3;
const OTHER_SCREEN: usize = 8;
/// The run's step 10, a scroll, was refused; the run stopped there.
const DIVERGED: usize = 9;
const REFUSAL: &str = "Token version mismatch, viewport updated. Call \
                       screen_operation_accessibility to fetch the latest tree.";

/// A scratch folder `name` holding `original` (a copy of the demo) and `run`.
struct Runs {
    original: PathBuf,
    run: PathBuf,
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn copy_demo(to: &Path) {
    let demo = source_tree_demo();
    std::fs::create_dir_all(to.join(SCREENS_DIR)).expect("a folder");
    std::fs::copy(demo.join(SESSION_FILE), to.join(SESSION_FILE)).expect("the log");
    for file in std::fs::read_dir(demo.join(SCREENS_DIR)).expect("screens") {
        let file = file.expect("a screen");
        let to = to.join(SCREENS_DIR).join(file.file_name());
        std::fs::copy(file.path(), to).expect("a screen copied");
    }
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

/// Writes `steps` (their screens taken from `from`) as a recording in `dir`.
fn write(dir: &Path, header: &Header, from: &Recording, steps: impl Iterator<Item = Step>) {
    let mut writer = RecordingWriter::create(dir, header).expect("created");
    for mut step in steps {
        step.before = step.before.map(|s| store(&mut writer, from, &s));
        step.after = step.after.map(|s| store(&mut writer, from, &s));
        writer.append(&step).expect("appended");
    }
}

/// The demo's step `k` as the run made it.
fn replayed(demo: &Recording, k: usize) -> Step {
    let mut step = demo.steps[k].clone();
    if k == CHANGED {
        step.after.clone_from(&demo.steps[OTHER_SCREEN].after);
        if let Some(settle) = step.settle.as_mut() {
            settle["total_ms"] = serde_json::json!(1800);
        }
    }
    if k == DIVERGED {
        step.outcome = StepOutcome::Refused;
        step.message = REFUSAL.to_owned();
        step.after = None;
        step.settle = None;
    }
    step
}

/// The original and the run in scratch folder `name`, the run's header naming `replay_of`.
fn runs(name: &str, replay_of: Option<&str>) -> Runs {
    let dir = scratch(name);
    let original = dir.join("original");
    copy_demo(&original);
    let demo = recording::read(&original).expect("the demo reads");
    let mut header = Header::new("sim", "0.1.0", demo.header.encoding.clone(), 0);
    if let Some(named) = replay_of {
        header = header.replaying(named);
    }
    let run = dir.join("run");
    write(
        &run,
        &header,
        &demo,
        (0..=DIVERGED).map(|k| replayed(&demo, k)),
    );
    Runs { original, run }
}

/// `run` opened in a fresh workbench (compared with `against` when given), every step
/// judged.
fn opened(
    builder: egui_kittest::HarnessBuilder<Workbench>,
    run: &Path,
    against: Option<&Path>,
) -> Harness<'static, Workbench> {
    let mut harness = builder.with_size(SIZE).with_max_steps(16).build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        Workbench::new(),
    );
    let ctx = harness.ctx.clone();
    let against = against.map(Path::to_path_buf);
    harness
        .state_mut()
        .open_against(run.to_path_buf(), against, &ctx);
    harness.state_mut().finish_loading();
    judged(&harness);
    harness.run();
    harness
}

/// Waits until the comparison on show has judged every step.
fn judged(harness: &Harness<'static, Workbench>) {
    let workbench = harness.state();
    if let Some(Opened::Comparison(compared)) = workbench.opened.get(workbench.current) {
        compared.comparison.wait();
    }
}

fn cells(harness: &Harness<'static, Workbench>) -> Vec<String> {
    harness
        .query_all(by().label_contains("timeline step "))
        .filter_map(|node| node.accesskit_node().label())
        .collect()
}

fn banner_texts(workbench: &Workbench) -> Vec<String> {
    let messages = workbench.banner.messages.iter();
    messages.map(|m| m.text.clone()).collect()
}

#[test]
fn a_run_opens_beside_its_original_aligned_step_by_step() {
    let runs = runs("compare_aligned", Some("original"));
    let harness = opened(Harness::builder(), &runs.run, None);
    assert!(
        harness.state().banner.is_empty(),
        "{:?}",
        banner_texts(harness.state())
    );
    harness.get_by_label("run replays original: 8 same, 1 changed, 1 diverged, 15 not run");
    let cells = cells(&harness);
    for expected in [
        "timeline step 1: load_skill, same",
        "timeline step 4: tap, changed",
        "timeline step 9: scroll, same",
        "timeline step 10: scroll, diverged, the first divergence",
        "timeline step 11: scroll, not run",
        "timeline step 14: screen_operation_accessibility, not run",
    ] {
        assert!(cells.iter().any(|c| c == expected), "{expected}: {cells:?}");
    }
    assert_eq!(
        cells
            .iter()
            .filter(|c| c.contains("first divergence"))
            .count(),
        1
    );
    // The run opens on its first step with a screen, compared with the original's.
    harness.get_by_label("Step 2 replayed");
    harness.get_by_label("screen original after");
    harness.get_by_label("screen run after");
}

#[test]
fn the_diverged_step_says_why_with_the_original_screen_and_both_settles() {
    let runs = runs("compare_diverged", Some("original"));
    let mut harness = opened(Harness::builder(), &runs.run, None);
    harness.get_by_label_contains("timeline step 10:").click();
    harness.run();
    assert_eq!(harness.state().step().expect("a step").index, DIVERGED);
    harness.get_by_label("Step 10 replayed");
    harness.get_by_label("the first divergence");
    let why = format!("it was ok when recorded and is refused now: {REFUSAL}");
    harness.get_by_label(&why);
    // The original's screen after the scroll; the refused run left none.
    harness.get_by_label("screen original after");
    harness.get_by_label("No screen run after");
    harness.get_by_label("nothing to compare: a run left no screen after this step");
    harness.get_by_label("settle bar 900 ms");
    harness.get_by_label("no wait");
    // The step panel shows the run's step: its refusal.
    harness.get_by_label("step 10/10");
}

/// The screens after the changed step, compared as the verdict compares them.
fn changed_diff(runs: &Runs) -> TreeDiff {
    let comparable = |dir: &Path| {
        let recording = recording::read(dir).expect("reads");
        let after = recording.steps[CHANGED]
            .after
            .clone()
            .expect("a screen after");
        let (tree, pruned) = replay::recorded_screen(&recording, &after)
            .expect("read")
            .expect("as the agent read it");
        replay::comparable(
            replay::Screen {
                tree: &tree,
                pruned: &pruned,
            },
            &Ignore::default(),
        )
    };
    tree_diff(&comparable(&runs.original), &comparable(&runs.run))
}

#[test]
fn a_changed_step_shows_both_screens_the_tree_diff_and_the_slower_settle() {
    let runs = runs("compare_changed", Some("original"));
    let diff = changed_diff(&runs);
    assert!(!diff.appeared.is_empty() && !diff.disappeared.is_empty());
    let mut harness = opened(Harness::builder(), &runs.run, None);
    harness.get_by_label_contains("timeline step 4:").click();
    harness.run();
    harness.get_by_label("Step 4 replayed");
    harness.get_by_label_contains("the screen after it changed: ");
    harness.get_by_label("screen original after");
    harness.get_by_label("screen run after");
    let listed = |line: String| harness.query_all(by().label(&line)).count() > 0;
    for node in &diff.appeared {
        assert!(
            listed(format!("+ {}", node.label)),
            "appeared: {}",
            node.label
        );
    }
    for node in &diff.disappeared {
        assert!(listed(format!("- {}", node.label)), "gone: {}", node.label);
    }
    harness.get_by_label(&format!(
        "{} appeared · {} disappeared · {} changed · {} unchanged",
        diff.appeared.len(),
        diff.disappeared.len(),
        diff.changed.len(),
        diff.unchanged
    ));
    harness.get_by_label("settle bar 550 ms");
    harness.get_by_label("settle bar 1800 ms");
    harness.get_by_label("much slower");
}

#[test]
fn differences_only_keeps_the_steps_not_judged_the_same() {
    let runs = runs("compare_differences", Some("original"));
    let mut harness = opened(Harness::builder(), &runs.run, None);
    harness.get_by_label("Differences only").click();
    harness.run();
    let cells = cells(&harness);
    assert!(cells[0].starts_with("timeline step 4:"), "{cells:?}");
    assert!(cells[1].starts_with("timeline step 10:"), "{cells:?}");
    assert!(cells.iter().all(|c| !c.ends_with(", same")), "{cells:?}");
    // End goes to the last step of the original, which the run did not reach.
    harness.key_press(egui::Key::End);
    harness.run();
    harness.get_by_label("Step 25 replayed");
    harness.get_by_label("No screen run after");
    harness.get_by_label("not run: the replay stopped before this step");
}

#[test]
fn an_original_named_on_the_command_line_is_compared_with() {
    let runs = runs("compare_against", None);
    let harness = opened(Harness::builder(), &runs.run, Some(&runs.original));
    harness.get_by_label("run replays original: 8 same, 1 changed, 1 diverged, 15 not run");
}

#[test]
fn a_run_whose_original_is_gone_opens_alone_and_says_so_once() {
    let runs = runs("compare_gone", Some("gone"));
    let harness = opened(Harness::builder(), &runs.run, None);
    let texts = banner_texts(harness.state());
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].starts_with("run replays gone, which is not a recording at gone or "),
        "{texts:?}"
    );
    assert!(texts[0].ends_with("; the run opens alone"), "{texts:?}");
    // The run alone: its own timeline, no verdicts.
    assert_eq!(
        harness.state().recording().expect("the run").steps().len(),
        10
    );
    harness.get_by_label_contains("timeline step 10: scroll, refused");
    assert!(
        harness
            .query_by_label_contains("replays original")
            .is_none()
    );
}

#[test]
fn renders_the_changed_step_of_a_comparison_to_a_snapshot() {
    let runs = runs("compare_snapshot", Some("original"));
    let mut harness = opened(Harness::builder().wgpu(), &runs.run, None);
    harness.state_mut().go_to_step(CHANGED);
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_compare_changed", &options);
}

#[test]
fn a_thousand_step_comparison_lays_out_only_the_cells_in_view() {
    let dir = scratch("compare_long");
    let demo = recording::read(&source_tree_demo()).expect("the demo reads");
    // The demo's steps over and over; the run's last one refused.
    let cycled = |replay: bool| {
        let demo = &demo;
        (0..1000).map(move |k| match replay && k == 999 {
            true => replayed(demo, DIVERGED),
            false => demo.steps[k % demo.steps.len()].clone(),
        })
    };
    let header = Header::new("sim", "0.1.0", demo.header.encoding.clone(), 0);
    write(&dir.join("original"), &header, &demo, cycled(false));
    let replaying = header.replaying("original");
    write(&dir.join("run"), &replaying, &demo, cycled(true));

    let mut harness = opened(Harness::builder(), &dir.join("run"), None);
    let in_view = cells(&harness).len();
    assert!((10..40).contains(&in_view), "{in_view} cells laid out");
    harness.get_by_label("run replays original: 999 same, 1 diverged");
    harness.key_press(egui::Key::End);
    harness.run();
    let cells = cells(&harness);
    let last = "timeline step 1000: press_key, diverged, the first divergence";
    assert!(cells.iter().any(|c| c == last), "{cells:?}");
    assert!(
        (10..40).contains(&cells.len()),
        "still only the cells in view"
    );
}
