//! A long generated recording in the workbench, headless with egui_kittest: it opens on the
//! step log alone, far jumps show the right screens, and stepping through every step keeps
//! no more screens (and no more textures) in memory than the cache holds.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tapscope::gui::Workbench;
use tapscope::gui::recording::CACHE_SCREENS;
use tapscope_core::recording;
use tapscope_core::session::synthetic;

const STEPS: usize = 300;

/// A 300-step recording, generated once per test run.
fn long_recording() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("long_300");
        let _ = std::fs::remove_dir_all(&dir);
        let made = synthetic::write(&dir, STEPS, 7).expect("the recording is written");
        assert_eq!(made.steps, STEPS as u64);
        assert!(made.screens > 60, "{made:?}");
        assert!(made.refused > 0 && made.errors > 0, "{made:?}");
        dir
    })
    .clone()
}

fn opened() -> Harness<'static, Workbench> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1600.0, 960.0))
        .with_max_steps(16)
        .build_ui_state(
            |ui, workbench: &mut Workbench| workbench.ui(ui),
            Workbench::new(),
        );
    let ctx = harness.ctx.clone();
    harness.state_mut().open(long_recording(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    harness
}

/// Goes to step `index` and checks the title, the step label and the screen shown.
fn check_step(harness: &mut Harness<'static, Workbench>, index: usize) {
    harness.state_mut().go_to_step(index);
    harness.run();
    let steps = recording::read(&long_recording()).expect("reads").steps;
    let step = &steps[index];
    let position = format!("step {}/{}", step.step, STEPS);
    let workbench = harness.state();
    assert_eq!(
        workbench.title(),
        format!("tapscope — long_300 — {position} · {}", step.tool)
    );
    harness.get_by_label(&position);
    // The step list scrolled to it (only the rows in view are laid out).
    harness.get_by_label(&format!("{:>3} {}", step.step, step.tool));
    let Some(screen) = step.after.as_ref().or(step.before.as_ref()) else {
        assert!(
            workbench.document().is_none(),
            "a step without a screen shows none"
        );
        return;
    };
    // A step's document exists only while its screen is in memory.
    let document = workbench.document().expect("the step's screen is loaded");
    assert_eq!(document.version, screen.version);
    let dump = std::fs::read_to_string(long_recording().join(&screen.dump)).expect("dump");
    assert_eq!(document.text, dump, "step {}", step.step);
    assert_eq!(
        document.screenshot.is_some(),
        screen.screenshot.is_some(),
        "step {}",
        step.step
    );
}

#[test]
fn far_jumps_show_the_right_screens() {
    let mut harness = opened();
    let workbench = harness.state();
    let recording = workbench.recording().expect("a recording");
    assert_eq!(recording.steps().len(), STEPS);
    assert!(workbench.banner.is_empty());
    // Only the screen on show was loaded to open it.
    assert_eq!(recording.screens_in_memory(), 1);
    for index in [STEPS - 1, 0, STEPS / 2] {
        check_step(&mut harness, index);
    }
}

#[test]
fn stepping_through_every_step_keeps_the_cache_bound() {
    let mut harness = opened();
    let at_open = textures(&harness);
    for index in 0..STEPS {
        harness.state_mut().go_to_step(index);
        harness.step();
        let workbench = harness.state();
        assert_eq!(workbench.step().expect("a step").index, index);
        let info = &workbench.step().expect("a step").recording;
        assert!(info.screens_in_memory() <= CACHE_SCREENS);
        // The workbench holds the screen on show only, the rest is the cache's.
        let held = workbench.opened.iter().filter(|o| o.document().is_some());
        assert!(held.count() <= 1, "step {index}");
    }
    // One screenshot texture at a time: those of steps left behind are freed.
    let now = textures(&harness);
    assert!(
        at_open <= 1 && now <= 1,
        "{now} textures, {at_open} at open"
    );
    // Back and forth between neighbours comes from the cache, in order.
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    harness.get_by_label(&format!("step {}/{STEPS}", STEPS - 1));
}

/// Screenshot textures of step documents (the screen pane's).
fn textures(harness: &Harness<'static, Workbench>) -> usize {
    let manager = harness.ctx.tex_manager();
    let manager = manager.read();
    let steps = manager
        .allocated()
        .filter(|(_, meta)| meta.name.starts_with("screenshot of step "));
    steps.count()
}
