//! The workbench's replay views on the demo recording, headless with egui_kittest: the
//! timeline scrubbed by click and keys and filtered to problems, the stale tap's forensics,
//! the compare view's structural diff, and a snapshot of the refused step.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable, by};
use tapscope::demo::source_tree_demo;
use tapscope::gui::Workbench;
use tapscope_core::forensics;
use tapscope_core::inspect::tree_diff::{TreeDiff, tree_diff};
use tapscope_core::parse::parse_str;
use tapscope_core::prune::{PruneRules, prune_with_version};
use tapscope_core::recording::{self, Recording, ScreenRef, StepOutcome};

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);

/// The demo opened in a fresh workbench.
fn demo_harness(builder: egui_kittest::HarnessBuilder<Workbench>) -> Harness<'static, Workbench> {
    opened(builder, source_tree_demo())
}

/// The recording in `path` opened in a fresh workbench, the way Ctrl+O opens it.
fn opened(
    builder: egui_kittest::HarnessBuilder<Workbench>,
    path: std::path::PathBuf,
) -> Harness<'static, Workbench> {
    let mut harness = builder.with_size(SIZE).with_max_steps(16).build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        Workbench::new(),
    );
    let ctx = harness.ctx.clone();
    harness.state_mut().open(path, &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    harness
}

fn demo() -> Recording {
    recording::read(&source_tree_demo()).expect("the demo reads")
}

fn refused_index(demo: &Recording) -> usize {
    let refused = demo
        .steps
        .iter()
        .position(|s| s.outcome == StepOutcome::Refused);
    refused.expect("the demo has a refused step")
}

/// The demo's second scroll (step 10): cards leave at the top and come in at the bottom.
fn second_scroll(demo: &Recording) -> usize {
    let first = demo.steps.iter().position(|s| s.tool == "scroll");
    first.expect("the demo scrolls") + 1
}

fn key(harness: &mut Harness<'static, Workbench>, key: egui::Key) {
    harness.key_press(key);
    harness.run();
}

/// The 0-based index of the step on show.
fn shown(harness: &Harness<'static, Workbench>) -> usize {
    harness.state().step().expect("a step on show").index
}

fn cells(harness: &Harness<'static, Workbench>) -> Vec<String> {
    harness
        .query_all(by().label_contains("timeline step "))
        .filter_map(|node| node.accesskit_node().label())
        .collect()
}

#[test]
fn the_timeline_has_a_cell_per_step_and_scrubs_by_click_and_keys() {
    let mut harness = demo_harness(Harness::builder());
    // One cell per step, laid out only while in view: the strip starts at step 1.
    let laid_out = cells(&harness);
    assert!((15..=25).contains(&laid_out.len()), "{laid_out:?}");
    assert!(laid_out[0].starts_with("timeline step 1:"), "{laid_out:?}");
    key(&mut harness, egui::Key::End);
    harness.get_by_label("step 25/25");
    key(&mut harness, egui::Key::Home);
    harness.get_by_label("step 1/25");
    harness.get_by_label_contains("timeline step 13:").click();
    harness.run();
    harness.get_by_label("step 13/25");
    assert_eq!(shown(&harness), 12);
    // Dragging across the strip scrubs through the steps under the pointer.
    let from = harness
        .get_by_label_contains("timeline step 3:")
        .rect()
        .center();
    let to = harness
        .get_by_label_contains("timeline step 8:")
        .rect()
        .center();
    harness.drag_at(from);
    harness.run();
    harness.hover_at(egui::pos2((from.x + to.x) / 2.0, from.y));
    harness.run();
    let midway = shown(&harness);
    assert!((3..7).contains(&midway), "midway at index {midway}");
    harness.hover_at(to);
    harness.run();
    harness.drop_at(to);
    harness.run();
    harness.get_by_label("step 8/25");
}

#[test]
fn problems_only_leaves_the_refused_and_unsettled_steps_and_arrows_jump_between_them() {
    let demo = demo();
    let problems: Vec<usize> = (0..demo.steps.len())
        .filter(|&k| {
            let review = forensics::review(&demo, k).expect("reviews");
            demo.steps[k].outcome != StepOutcome::Ok || review.stale.is_some() || {
                let settle = demo.steps[k].settle.as_ref();
                settle
                    .and_then(|s| s.get("settled"))
                    .and_then(|s| s.as_bool())
                    == Some(false)
            }
        })
        .collect();
    assert!(problems.contains(&refused_index(&demo)));

    let mut harness = demo_harness(Harness::builder());
    harness.get_by_label("Problems only").click();
    harness.run();
    let shown_cells = cells(&harness);
    assert_eq!(shown_cells.len(), problems.len(), "{shown_cells:?}");
    for &k in &problems {
        let number = demo.steps[k].step;
        assert!(
            shown_cells
                .iter()
                .any(|c| c.starts_with(&format!("timeline step {number}:"))),
            "{shown_cells:?}"
        );
    }
    // From step 2, Right jumps to the first problem, Left back to none before it.
    key(&mut harness, egui::Key::ArrowRight);
    assert_eq!(shown(&harness), problems[0]);
    for &k in &problems[1..] {
        key(&mut harness, egui::Key::ArrowRight);
        assert_eq!(shown(&harness), k);
    }
    key(&mut harness, egui::Key::ArrowRight);
    assert_eq!(shown(&harness), *problems.last().expect("a problem"));
    if problems.len() > 1 {
        key(&mut harness, egui::Key::ArrowLeft);
        assert_eq!(shown(&harness), problems[problems.len() - 2]);
    }
    // Off again, the arrows step one by one.
    harness.get_by_label("Problems only").click();
    harness.run();
    let at = shown(&harness);
    key(&mut harness, egui::Key::ArrowLeft);
    assert_eq!(shown(&harness), at - 1);
}

#[test]
fn the_stale_tap_is_explained_in_one_sentence_with_both_screens() {
    let demo = demo();
    let refused = refused_index(&demo);
    let review = forensics::review(&demo, refused).expect("reviews");
    let stale = review.stale.expect("the refused tap is stale");
    let mut harness = demo_harness(Harness::builder());
    harness.state_mut().go_to_step(refused);
    harness.run();
    harness.get_by_label(&stale.sentence);
    harness.get_by_label("meant on the old screen");
    harness.get_by_label("now at that point");
    let meant = stale.meant.expect("the old screen names it");
    harness.get_by_label(&meant.label);
    // A step that acted on the latest screen has nothing to explain.
    harness.state_mut().go_to_step(refused + 1);
    harness.run();
    assert!(harness.query_by_label("meant on the old screen").is_none());
}

#[test]
fn renders_the_refused_step_with_timeline_and_forensics_to_a_snapshot() {
    let mut harness = demo_harness(Harness::builder().wgpu());
    harness.state_mut().go_to_step(refused_index(&demo()));
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_replay_refused", &options);
}

/// A recorded screen pruned with the default rules, the way the agent read it.
fn pruned(demo: &Recording, screen: &ScreenRef) -> tapscope_core::prune::Pruned {
    let tree = parse_str(&demo.load_text(&screen.dump).expect("dump")).expect("parses");
    prune_with_version(&tree, &PruneRules::default(), screen.version.clone())
}

#[test]
fn the_compare_view_lists_what_a_scroll_moved_in_and_out() {
    let demo = demo();
    let scroll = second_scroll(&demo);
    let step = &demo.steps[scroll];
    assert_eq!(step.tool, "scroll");
    let diff: TreeDiff = tree_diff(
        &pruned(&demo, step.before.as_ref().expect("before")),
        &pruned(&demo, step.after.as_ref().expect("after")),
    );
    assert!(!diff.appeared.is_empty() && !diff.disappeared.is_empty());

    let mut harness = demo_harness(Harness::builder());
    harness.state_mut().go_to_step(scroll);
    harness.run();
    harness.get_by_label("Compare").click();
    harness.run();
    harness.get_by_label(&format!("Compare step {}/25", step.step));
    harness.get_by_label("screen before");
    harness.get_by_label("screen after");
    let listed = |sign: &str, label: &str| {
        let line = format!("{sign} {label}");
        harness.query_all(by().label(&line)).count() > 0
    };
    for node in &diff.appeared {
        assert!(listed("+", &node.label), "appeared: {}", node.label);
    }
    for node in &diff.disappeared {
        assert!(listed("-", &node.label), "disappeared: {}", node.label);
    }
    harness.get_by_label(&format!(
        "{} appeared · {} disappeared · {} changed · {} unchanged",
        diff.appeared.len(),
        diff.disappeared.len(),
        diff.changed.len(),
        diff.unchanged
    ));
    // Back to inspecting: the screen pane returns.
    harness.get_by_label("Inspect").click();
    harness.run();
    harness.get_by_label("screen");
}

#[test]
fn the_compare_view_shows_the_tree_acted_on_with_the_target_line_selected() {
    let demo = demo();
    let tap = demo
        .steps
        .iter()
        .position(|s| {
            s.tool == "tap"
                && s.acted_on
                    .as_deref()
                    .is_some_and(|a| a.contains("Knitting"))
        })
        .expect("the demo taps the knitting video");
    let mut harness = demo_harness(Harness::builder());
    harness.state_mut().go_to_step(tap);
    harness.state_mut().settings.compare = true;
    harness.run();
    harness.get_by_label("Tree acted on, the target highlighted");
    let selected: Vec<String> = harness
        .query_all(by().label_contains("Knitting a sweater"))
        .filter(|node| node.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True))
        .filter_map(|node| node.accesskit_node().label())
        .collect();
    assert_eq!(selected.len(), 1, "{selected:?}");
    assert_eq!(
        tapscope_core::render::line_handle(&selected[0]),
        Some(11),
        "{selected:?}"
    );

    // The refused stale tap's handle names another screen: said, and no line is selected.
    harness.state_mut().go_to_step(refused_index(&demo));
    harness.run();
    let handle = demo.steps[refused_index(&demo)]
        .handle
        .clone()
        .expect("a handle");
    harness.get_by_label_contains(&format!("{handle} names a screen other than this one"));
}

#[test]
fn renders_the_compare_view_of_a_scroll_to_a_snapshot() {
    let mut harness = demo_harness(Harness::builder().wgpu());
    let scroll = second_scroll(&demo());
    harness.state_mut().go_to_step(scroll);
    harness.state_mut().settings.compare = true;
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_replay_compare", &options);
}

/// In a scratch folder `name`, the demo's steps over and over, renumbered, up to `count`;
/// the screens are shared.
fn long_recording(name: &str, count: usize) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(recording::SCREENS_DIR)).expect("scratch dir");
    let demo = source_tree_demo();
    for file in std::fs::read_dir(demo.join(recording::SCREENS_DIR)).expect("screens") {
        let file = file.expect("a screen");
        let to = dir.join(recording::SCREENS_DIR).join(file.file_name());
        std::fs::copy(file.path(), to).expect("copy a screen");
    }
    let log = std::fs::read_to_string(demo.join(recording::SESSION_FILE)).expect("log");
    let mut lines = log.lines();
    let mut out = format!("{}\n", lines.next().expect("header"));
    let steps: Vec<serde_json::Value> = lines
        .map(|l| serde_json::from_str(l).expect("a step"))
        .collect();
    for k in 0..count {
        let mut step = steps[k % steps.len()].clone();
        step["step"] = serde_json::json!(k + 1);
        out.push_str(&format!("{step}\n"));
    }
    std::fs::write(dir.join(recording::SESSION_FILE), out).expect("write the log");
    dir
}

#[test]
fn a_thousand_steps_lay_out_only_the_cells_in_view() {
    let dir = long_recording("replay_long", 1000);
    let mut harness = opened(Harness::builder(), dir);
    let in_view = cells(&harness).len();
    assert!((10..40).contains(&in_view), "{in_view} cells laid out");
    key(&mut harness, egui::Key::End);
    harness.get_by_label("step 1000/1000");
    assert!(
        cells(&harness)
            .iter()
            .any(|c| c.starts_with("timeline step 1000:"))
    );
    // How fast each step is laid out is the recording benchmark's to say
    // (`cargo bench -p tapscope --bench recording`), not a test's.
    for _ in 0..20 {
        key(&mut harness, egui::Key::ArrowLeft);
    }
    harness.get_by_label("step 980/1000");
    assert!(
        (10..40).contains(&cells(&harness).len()),
        "still only the cells in view"
    );
    harness.get_by_label("Problems only").click();
    harness.run();
    key(&mut harness, egui::Key::Home);
    harness.get_by_label("step 13/1000");
}

#[test]
fn missing_screens_are_named_in_the_compare_view_and_the_forensics() {
    let dir = long_recording("replay_missing", 20);
    let demo = recording::read(&dir).expect("reads");
    let scroll = second_scroll(&demo);
    let after = demo.steps[scroll].after.clone().expect("after").dump;
    let refused = refused_index(&demo);
    let stale = forensics::review(&demo, refused)
        .expect("reviews")
        .stale
        .expect("stale");
    let old = demo.steps[..refused]
        .iter()
        .rev()
        .find_map(|s| s.after.as_ref().filter(|a| a.version == stale.version_used))
        .expect("the old screen")
        .dump
        .clone();
    for file in [&after, &old] {
        std::fs::remove_file(dir.join(file)).expect("delete");
    }
    let mut harness = opened(Harness::builder(), dir);
    harness.state_mut().go_to_step(scroll);
    harness.state_mut().settings.compare = true;
    harness.run();
    // The old screen of the stale tap is the one this scroll acted on.
    for file in [&old, &after] {
        let missing = format!("{file} is missing");
        assert!(harness.query_all(by().label_contains(&missing)).count() > 0);
    }
    harness.state_mut().go_to_step(refused);
    harness.run();
    harness.get_by_label_contains(&format!("forensics: {old} is missing"));
}
