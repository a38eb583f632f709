//! The workbench on a recording, headless with egui_kittest: step through the demo with
//! keys, buttons and the step list; damaged copies open with what they still hold; a
//! snapshot image of the refused step.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tapscope::demo::source_tree_demo;
use tapscope::gui::Workbench;
use tapscope_core::recording::{self, SCREENS_DIR, SESSION_FILE, StepOutcome};

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);

fn harness(builder: egui_kittest::HarnessBuilder<Workbench>) -> Harness<'static, Workbench> {
    // Scrolling the step list animates over a few frames.
    builder.with_size(SIZE).with_max_steps(16).build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        Workbench::new(),
    )
}

/// Opens `path` the way Ctrl+O, the folder dialog and drag-and-drop do, on the background
/// thread, and waits for it.
fn open(harness: &mut Harness<'static, Workbench>, path: &Path) {
    let ctx = harness.ctx.clone();
    harness.state_mut().open(path.to_path_buf(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
}

/// The demo opened in a fresh workbench.
fn demo_harness(builder: egui_kittest::HarnessBuilder<Workbench>) -> Harness<'static, Workbench> {
    let mut harness = harness(builder);
    open(&mut harness, &source_tree_demo());
    harness
}

/// The 0-based index of the demo's first step that `wanted` accepts.
fn demo_step(wanted: impl Fn(&recording::Step) -> bool) -> (usize, recording::Step) {
    let demo = recording::read(&source_tree_demo()).expect("the demo reads");
    let index = demo.steps.iter().position(wanted).expect("the demo has it");
    (index, demo.steps[index].clone())
}

/// Scrolls the step list until the step's row shows, and clicks it.
fn click_step(harness: &mut Harness<'static, Workbench>, target: &recording::Step) {
    let steps = recording::read(&source_tree_demo())
        .expect("the demo reads")
        .steps;
    let label = |step: &recording::Step| format!("{:>3} {}", step.step, step.tool);
    for _ in 0..steps.len() {
        if let Some(row) = harness.query_by_label(&label(target)) {
            row.scroll_to_me();
            harness.run();
            harness.get_by_label(&label(target)).click();
            harness.run();
            return;
        }
        let shown = steps
            .iter()
            .find(|step| harness.query_by_label(&label(step)).is_some())
            .expect("the list shows a row");
        let shown_label = label(shown);
        let row = harness.get_by_label(&shown_label);
        if shown.step < target.step {
            row.scroll_down();
        } else {
            row.scroll_up();
        }
        harness.run();
    }
    panic!("the step list never showed step {}", target.step);
}

/// A copy of the demo in a scratch folder, for damaging.
fn demo_copy(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(SCREENS_DIR)).expect("scratch dir");
    let demo = source_tree_demo();
    std::fs::copy(demo.join(SESSION_FILE), dir.join(SESSION_FILE)).expect("copy the log");
    for file in std::fs::read_dir(demo.join(SCREENS_DIR)).expect("screens") {
        let file = file.expect("a screen");
        std::fs::copy(file.path(), dir.join(SCREENS_DIR).join(file.file_name()))
            .expect("copy a screen");
    }
    dir
}

fn banner_texts(workbench: &Workbench) -> String {
    let texts: Vec<&str> = workbench
        .banner
        .messages
        .iter()
        .map(|m| m.text.as_str())
        .collect();
    texts.join("\n")
}

#[test]
fn steps_through_the_demo_by_key_button_and_list() {
    let mut harness = demo_harness(Harness::builder());
    let workbench = harness.state();
    assert_eq!(
        workbench.recording().expect("a recording").steps().len(),
        25
    );
    assert!(workbench.banner.is_empty(), "{}", banner_texts(workbench));
    // It opens on the first step with a screen: step 1 (load_skill) read none.
    assert_eq!(
        workbench.title(),
        "tapscope — demo — step 2/25 · screen_operation_accessibility"
    );
    harness.get_by_label("step 2/25");
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    harness.get_by_label("step 1/25");
    // load_skill reads no screen: its metadata shows, the panes say there is none.
    harness.get_by_label("No screen");

    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    harness.get_by_label("step 2/25");
    harness.get_by_label("Next step >").click();
    harness.run();
    harness.get_by_label("step 3/25");
    assert_eq!(harness.state().title(), "tapscope — demo — step 3/25 · tap");
    harness.get_by_label("\"TapTube\" (i 1)");
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    harness.get_by_label("step 2/25");

    // The refused step: amber "refused", and why it was refused.
    let (refused, step) = demo_step(|s| s.outcome == StepOutcome::Refused);
    click_step(&mut harness, &step);
    assert_eq!(harness.state().step().expect("a step").index, refused);
    harness.get_by_label("refused");
    let (used, before) = (
        step.version_used.expect("used"),
        step.version_before.expect("before"),
    );
    assert_ne!(used, before);
    harness.get_by_label(&format!(
        "stale: the handle is from version {used}, the screen was at {before}"
    ));
    // It left no screen, so the one it acted on is shown.
    harness.get_by_label_contains(&format!("before, version {before}"));
    let document = harness.state().document().expect("open");
    assert_eq!(document.version, before);
}

#[test]
fn the_fallback_screenshot_is_drawn_at_its_downsampled_size() {
    let mut harness = demo_harness(Harness::builder());
    let (_, step) = demo_step(|s| s.tool == "launch_app");
    click_step(&mut harness, &step);
    let workbench = harness.state();
    let document = workbench.document().expect("open");
    let screenshot = document.screenshot.as_ref().expect("a screenshot");
    assert_eq!(screenshot.image.size, [461, 1024]);
    assert!(workbench.screen.shows_screenshot_of(document));
    // A screenshot scaled down keeping the display's shape is expected, not a warning.
    assert!(
        document.screen_notes.is_empty(),
        "{:?}",
        document.screen_notes
    );
    assert!(workbench.banner.is_empty(), "{}", banner_texts(workbench));
    harness.get_by_label("screenshot 461x1024 of the 1080x2400 display");
    // The whole display maps onto the whole picture.
    let image = workbench.screen.last_image_rect.expect("drawn");
    let corner = workbench
        .screen
        .display_to_screen(document, egui::pos2(1080.0, 2400.0))
        .expect("drawn");
    assert!(
        (corner - image.max).length() < 0.01,
        "{corner:?} vs {image:?}"
    );
}

#[test]
fn a_cut_short_last_line_keeps_every_step_before_it() {
    let dir = demo_copy("recording_cut");
    let log = dir.join(SESSION_FILE);
    let text = std::fs::read_to_string(&log).expect("log");
    let last = text.trim_end().rfind('\n').expect("lines") + 1;
    let cut = last + (text.len() - last) / 2;
    std::fs::write(&log, &text[..cut]).expect("cut");

    let mut harness = harness(Harness::builder());
    open(&mut harness, &dir);
    let workbench = harness.state();
    assert_eq!(
        workbench.recording().expect("a recording").steps().len(),
        24
    );
    assert_eq!(
        workbench.title(),
        "tapscope — recording_cut — step 2/24 · screen_operation_accessibility"
    );
    harness.get_by_label_contains("line 26 is cut short");
}

#[test]
fn missing_screen_files_are_named_and_the_steps_still_show() {
    let dir = demo_copy("recording_missing");
    let demo = recording::read(&dir).expect("reads");
    let (_, launch) = demo_step(|s| s.tool == "launch_app");
    let screenshot = launch
        .after
        .clone()
        .expect("after")
        .screenshot
        .expect("png");
    let (tap, tap_step) = demo_step(|s| s.tool == "tap");
    let dump = tap_step.after.expect("after").dump;
    for file in [&screenshot, &dump] {
        std::fs::remove_file(dir.join(file)).expect("delete");
    }

    let mut harness = harness(Harness::builder());
    open(&mut harness, &dir);
    assert_eq!(
        harness
            .state()
            .recording()
            .expect("a recording")
            .steps()
            .len(),
        demo.steps.len()
    );
    let banner = banner_texts(harness.state());
    assert!(
        banner.contains(&screenshot) && banner.contains(&dump),
        "{banner}"
    );

    // The launch step falls back to a wireframe and says why.
    click_step(&mut harness, &launch);
    harness.get_by_label_contains(&format!("{screenshot} is missing from"));
    harness.get_by_label_contains("the file was deleted");
    harness.get_by_label("wireframe (no screenshot)");
    // The tap whose dump is gone keeps its metadata and names the file.
    harness.state_mut().go_to_step(tap);
    harness.run();
    harness.get_by_label("No screen");
    harness.get_by_label_contains(&format!("{dump} is missing from"));
    harness.get_by_label(&format!("step {}/25", tap_step.step));
}

#[test]
fn an_unknown_format_version_is_an_error_in_the_window() {
    let dir = demo_copy("recording_v99");
    let log = dir.join(SESSION_FILE);
    let text = std::fs::read_to_string(&log).expect("log");
    std::fs::write(&log, text.replacen("\"version\":1", "\"version\":99", 1)).expect("write");

    let mut harness = harness(Harness::builder());
    open(&mut harness, &dir);
    let workbench = harness.state();
    assert!(workbench.opened.is_empty());
    harness
        .get_by_label_contains("is recording format version 99, but this tapscope reads version 1");
    harness.get_by_label_contains("upgrade tapscope");
    // Still running: the demo opens after it.
    open(&mut harness, &source_tree_demo());
    harness.get_by_label("step 2/25");
}

#[test]
fn without_arguments_tapscope_opens_the_demo() {
    let path = tapscope::gui::default_recording().expect("the source tree's demo is there");
    assert!(path.join(SESSION_FILE).is_file(), "{}", path.display());
}

#[test]
fn renders_the_refused_step_to_a_snapshot() {
    let mut harness = demo_harness(Harness::builder().wgpu());
    let (refused, _) = demo_step(|s| s.outcome == StepOutcome::Refused);
    harness.state_mut().go_to_step(refused);
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_recording_refused", &options);
}

/// A recording of one tap after which the phone's log said a crash, in a scratch folder.
fn crashed_recording(name: &str) -> PathBuf {
    use tapscope_core::logcat::{Bounds, Report, parse};
    use tapscope_core::recording::{Header, RecordingWriter, ScreenFiles, Step};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let mut writer = RecordingWriter::create(&dir, &Header::new("sim-next", "0.1.0", "o200k", 0))
        .expect("a new recording");
    let dump = r#"<hierarchy rotation="0"><node text="Account" clickable="true" package="tv.tapscope.demo" bounds="[144,120][240,216]"/></hierarchy>"#;
    let screen = writer
        .store_screen(&ScreenFiles {
            version: "aaaaaaaaaaaa",
            dump,
            pruned: "[1] \"Account\"\n",
            screenshot: None,
            pixel_text: None,
            raw_tokens: 40,
            pruned_tokens: 4,
        })
        .expect("the screen is stored");
    let lines = parse(
        "12-01 00:00:07.786 11733 11733 E AndroidRuntime: FATAL EXCEPTION: main\n\
         12-01 00:00:07.786 11733 11733 E AndroidRuntime: Process: tv.tapscope.demo, PID: 11733\n\
         12-01 00:00:07.786 11733 11733 E AndroidRuntime: java.lang.NullPointerException: no account\n\
         12-01 00:00:07.786 11733 11733 E AndroidRuntime: \tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)\n\
         12-01 00:00:07.800   587   641 I ActivityManager: Process tv.tapscope.demo (pid 11733) has died: fg  TOP\n",
    )
    .lines;
    let log = writer
        .store_log(&Report::bounded(lines, Bounds::default()))
        .expect("the log is stored");
    let step = Step {
        tool: "tap".into(),
        handle: Some("aaaaaaaaaaaa_1".into()),
        version_used: Some("aaaaaaaaaaaa".into()),
        version_before: Some("aaaaaaaaaaaa".into()),
        acted_on: Some("\"Account\" (i 1)".into()),
        before: Some(screen),
        log: Some(log),
        ..Step::default()
    };
    writer.append(&step).expect("the step is written");
    dir
}

#[test]
fn a_step_after_which_the_app_crashed_says_so_and_shows_its_log() {
    let dir = crashed_recording("workbench-crashed");
    let mut harness = harness(Harness::builder());
    open(&mut harness, &dir);
    // Forensics says what happened after the tap landed; the timeline names the crash.
    harness.get_by_label(
        "the tap landed; tv.tapscope.demo then crashed: java.lang.NullPointerException: no \
         account at tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)",
    );
    harness.get_by_label("timeline step 1: tap, ok, 1 crash logged");
    // The lines, narrowed by the search to the system's.
    harness.get_by_label("12-01 00:00:07.786 11733 11733 E AndroidRuntime: FATAL EXCEPTION: main");
    let search = harness.get_by_label("Filter:");
    search.click();
    harness.run();
    harness.get_by_label("Filter:").type_text("has died");
    harness.run();
    assert!(
        harness
            .query_by_label(
                "12-01 00:00:07.786 11733 11733 E AndroidRuntime: FATAL EXCEPTION: main"
            )
            .is_none()
    );
    harness.get_by_label("1 of 5 lines");
    let _ = std::fs::remove_dir_all(&dir);
}
