//! The rules panel on an open recording, headless with egui_kittest: the demo re-pruned
//! whole (unchanged under the defaults; with the keyboard collapsed, the steps that lose
//! its keys listed, a click going to one), and a long generated recording re-pruned off
//! the UI thread.

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tapscope::demo::source_tree_demo;
use tapscope::gui::Workbench;
use tapscope_core::session::synthetic;

/// Tall enough for the rules panel to show its whole-recording section without scrolling
/// (a button in the step list scrolls that list into view, not the panel).
const SIZE: egui::Vec2 = egui::vec2(1600.0, 1400.0);

fn opened(path: &Path) -> Harness<'static, Workbench> {
    let mut harness = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(16)
        .build_ui_state(
            |ui, workbench: &mut Workbench| workbench.ui(ui),
            Workbench::new(),
        );
    let ctx = harness.ctx.clone();
    harness.state_mut().open(path.to_path_buf(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    harness
}

/// Scrolls the rules panel to the button labelled `label`, and clicks it.
fn click(harness: &mut Harness<'static, Workbench>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
}

#[test]
fn the_demo_under_the_default_rules_is_unchanged() {
    let harness = opened(&source_tree_demo());
    harness.get_by_label("Whole recording");
    harness.get_by_label("5407 tokens, unchanged");
    harness.get_by_label("over 21 steps' screens (11 distinct)");
    harness.get_by_label("no semantic node or target lost on any step");
}

#[test]
fn collapsing_the_keyboard_lists_the_steps_that_lose_its_keys_and_goes_to_one() {
    let mut harness = opened(&source_tree_demo());
    harness.get_by_label("collapse").click();
    harness.run();
    harness.get_by_label("5407 -> 4793 tokens (−614, −11.4%)");
    harness.get_by_label("58 semantic nodes lost on 5 steps, 0 targets lost:");
    for label in [
        "step 4 · tap: 29 nodes lost",
        "step 6 · press_key: 29 nodes lost",
        "step 7 · press_key: 29 nodes lost",
        "step 8 · press_key: 29 nodes lost",
    ] {
        harness.get_by_label(label);
    }
    harness
        .get_by_label("step 5 · input_text: 58 nodes lost")
        .click();
    harness.run();
    assert_eq!(harness.state().step().expect("a step on show").index, 4);
    harness.get_by_label("keys").click();
    harness.run();
    harness.get_by_label("5407 tokens, unchanged");
    assert!(
        harness
            .query_by_label("step 4 · tap: 29 nodes lost")
            .is_none()
    );
}

#[test]
fn a_long_recording_is_repruned_off_the_ui_thread_and_lists_lost_targets() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reprune_300");
    let _ = std::fs::remove_dir_all(&dir);
    synthetic::write(&dir, 300, 11).expect("the recording is written");
    let mut harness = opened(&dir);
    harness.state_mut().rules_panel.reprune.finish();
    harness.run();
    harness.get_by_label_contains("tokens, unchanged");
    harness.get_by_label("collapse").click();
    harness.run();
    harness.state_mut().rules_panel.reprune.finish();
    harness.run();
    harness.get_by_label_contains("semantic nodes lost on 55 steps, 15 targets lost:");
    let label = harness
        .get_all_by_label_contains(", target lost")
        .find_map(|node| node.accesskit_node().label())
        .expect("a step whose target is lost");
    let step: u64 = (label.strip_prefix("step "))
        .and_then(|rest| rest.split(' ').next()?.parse().ok())
        .expect("a step number");
    click(&mut harness, &label);
    let on_show = harness.state().step().expect("a step on show").step.step;
    assert_eq!(on_show, step);
}

#[test]
fn renders_the_rules_panel_on_the_demo_with_the_keyboard_collapsed_to_a_snapshot() {
    let mut harness = Harness::builder()
        .with_size(SIZE)
        .with_max_steps(16)
        .wgpu()
        .build_ui_state(
            |ui, workbench: &mut Workbench| workbench.ui(ui),
            Workbench::new(),
        );
    let ctx = harness.ctx.clone();
    harness.state_mut().open(source_tree_demo(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    harness.get_by_label("collapse").click();
    harness.run();
    click(&mut harness, "step 5 · input_text: 58 nodes lost");
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_reprune_collapse", &options);
}
