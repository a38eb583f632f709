//! The workbench driven as a person would, headless with egui_kittest: open dumps, click the
//! screen, toggle a rule, read the panes, and render the main view to a snapshot image.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tapscope::gui::document::Document;
use tapscope::gui::views::rules;
use tapscope::gui::{Workbench, sample};
use tapscope_core::prune::PruneRules;
use tapscope_tests::dumps::{RunAt, dump_with_run};

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);

/// A workbench on `document`, with a fixed version so every run renders the same.
fn harness_with(mut document: Document) -> Harness<'static, Workbench> {
    document.version = "0123456789ab".into();
    let mut workbench = Workbench::new();
    workbench.add_documents(vec![document]);
    let mut harness = Harness::builder()
        .with_size(SIZE)
        .build_ui_state(|ui, workbench: &mut Workbench| workbench.ui(ui), workbench);
    harness.run();
    harness
}

fn sample_dump() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../assets/samples/video_feed.xml"
    ))
    .expect("sample")
}

/// A PNG of the given size, one colour.
fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_pixel(width, height, image::Rgba([40, 44, 52, 255]));
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("png encodes");
    bytes
}

fn node_with_text(document: &Document, text: &str) -> usize {
    document
        .tree
        .nodes
        .iter()
        .position(|n| n.text == text || n.desc == text)
        .unwrap_or_else(|| panic!("no node {text:?}"))
}

#[test]
fn opens_a_dump_and_shows_its_three_panes() {
    let harness = harness_with(sample());
    let workbench = harness.state();
    assert_eq!(workbench.title(), "tapscope — video_feed.xml (sample)");
    harness.get_by_label("Pruned tree");
    harness.get_by_label("Raw dump");
    harness.get_by_label("screen");
    // The stats bar and the pruned pane show what the agent would read.
    let stats = &workbench.analysis.as_ref().expect("analysed").current.stats;
    assert!(stats.raw_tokens.tokens() > 10 * stats.pruned_tokens.tokens());
    harness.get_by_label_contains(&format!("-> {}", stats.pruned_tokens));
    harness.get_by_label_contains("[2] edit \"Search videos\" long");
    assert!(workbench.banner.is_empty());
}

#[test]
fn opens_a_dump_with_its_screenshot_and_warns_when_sizes_disagree() {
    let dump = sample_dump();
    let fitting =
        Document::from_bytes("feed".into(), None, &dump, Some(&png(1080, 2400))).expect("opens");
    assert!(fitting.screenshot.is_some());
    assert!(fitting.warnings.is_empty());
    let harness = harness_with(fitting);
    assert!(harness.state().banner.is_empty());

    let wrong =
        Document::from_bytes("feed".into(), None, &dump, Some(&png(720, 1280))).expect("opens");
    let harness = harness_with(wrong);
    harness.get_by_label_contains("the screenshot is 720x1280 but the dump's display is 1080x2400");
}

#[test]
fn clicking_the_screen_selects_the_same_node_in_every_pane() {
    let mut harness = harness_with(sample());
    let (target, point) = {
        let workbench = harness.state();
        let document = workbench.document().expect("open");
        let target = node_with_text(document, "Voice search");
        let (x, y) = document.tree.nodes[target].bounds.center();
        let point = workbench
            .screen
            .display_to_screen(document, egui::pos2(x as f32, y as f32))
            .expect("the screen pane was drawn");
        (target, point)
    };
    harness.hover_at(point);
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: point,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: point,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();

    let workbench = harness.state();
    assert_eq!(workbench.selection.selected, Some(target));
    let document = workbench.document().expect("open");
    let analysis = &workbench.analysis.as_ref().expect("analysed").current;
    // The pruned pane's selected row is the target's line, and so is the raw pane's.
    let pruned_line = &analysis.lines[analysis.line_of_node[target].expect("printed")].text;
    let raw_line = &document.raw_view.lines[document.raw_view.line_of_node[target]].text;
    assert!(
        pruned_line.contains("[3] \"Voice search\""),
        "{pruned_line}"
    );
    assert!(
        raw_line.contains("content-desc=\"Voice search\""),
        "{raw_line}"
    );
    for row in [pruned_line.as_str(), raw_line.as_str()] {
        let selected = harness
            .query_all_by_label_contains(row.trim())
            .any(|node| node.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True));
        assert!(selected, "no selected row shows {row}");
    }
    // The details panel names the handle.
    harness.get_by_label("0123456789ab_3");
}

#[test]
fn arrow_keys_walk_the_tree_and_escape_clears() {
    let mut harness = harness_with(sample());
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    assert_eq!(harness.state().selection.selected, Some(0));
    harness.key_press(egui::Key::ArrowDown);
    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    assert_eq!(harness.state().selection.selected, Some(2));
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    assert_eq!(harness.state().selection.selected, Some(1));
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert_eq!(harness.state().selection.selected, None);
}

#[test]
fn toggling_a_rule_changes_the_counts_and_the_diff() {
    let mut harness = harness_with(sample());
    let before = harness
        .state()
        .analysis
        .as_ref()
        .expect("analysed")
        .current
        .stats
        .pruned_tokens;
    // Anchors are off by default: the click turns them on, on every node with a handle.
    assert!(!harness.state().settings.rules.anchors);
    harness.get_by_label("anchors").click();
    harness.run();
    let workbench = harness.state();
    assert!(workbench.settings.rules.anchors);
    assert_eq!(workbench.settings.baseline, PruneRules::default());
    let analysis = workbench.analysis.as_ref().expect("analysed");
    assert!(
        analysis.current.stats.pruned_tokens.tokens() > before.tokens(),
        "printing pos: costs tokens"
    );
    assert_eq!(analysis.baseline.stats.pruned_tokens, before);
    let (added, removed) = rules::diff_summary(&analysis.baseline, &analysis.current);
    assert!(added > 10 && removed == added, "+{added} -{removed}");
    harness.get_by_label_contains("- [2] edit \"Search videos\" long");
    harness.get_by_label_contains("+ [2] edit \"Search videos\" long pos: top-center");
}

#[test]
fn a_dump_with_a_million_spaces_or_mixed_whitespace_opens_with_its_count() {
    for (unit, exact) in [(" ", true), (" \t", false)] {
        let dump = dump_with_run(unit, 1_000_000, RunAt::BetweenNodes);
        let document = Document::from_bytes("long.xml".into(), None, dump.as_bytes(), None)
            .expect("the dump opens");
        let harness = harness_with(document);
        let stats = &harness
            .state()
            .analysis
            .as_ref()
            .expect("analysed")
            .current
            .stats;
        assert_eq!(stats.raw_tokens.is_exact(), exact, "{unit:?}");
        assert!(
            stats.raw_tokens.tokens() > 7000,
            "{unit:?}: {}",
            stats.raw_tokens
        );
        // An estimate reads as one in the stats bar.
        harness.get_by_label_contains(&format!("tokens (o200k_base) {} ->", stats.raw_tokens));
        assert_eq!(stats.raw_tokens.to_string().starts_with('≈'), !exact);
    }
}

#[test]
fn renders_the_main_view_to_a_snapshot() {
    let mut harness = Harness::builder().with_size(SIZE).wgpu().build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        {
            let mut document = sample();
            document.version = "0123456789ab".into();
            let mut workbench = Workbench::new();
            workbench.add_documents(vec![document]);
            workbench
        },
    );
    harness.run();
    let target = node_with_text(harness.state().document().expect("open"), "Voice search");
    harness.state_mut().selection.select(Some(target));
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench", &options);
}

/// Opens `path` the way Ctrl+O and drag-and-drop do, and waits for the background load.
fn open_and_wait(harness: &mut Harness<'static, Workbench>, path: &std::path::Path) {
    let ctx = harness.ctx.clone();
    harness.state_mut().open(path.to_path_buf(), &ctx);
    for _ in 0..500 {
        harness.step();
        if !harness.state().is_loading() {
            harness.run();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("{} did not finish loading", path.display());
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn bad_files_raise_a_banner_and_keep_what_is_open() {
    let mut harness = harness_with(sample());
    let dir = scratch_dir("bad_input");
    let not_a_dump = dir.join("notes.xml");
    std::fs::write(&not_a_dump, "hello, this is not a dump").expect("write");
    let truncated = dir.join("truncated.xml");
    let dump = sample_dump();
    std::fs::write(&truncated, &dump[..dump.len() / 2]).expect("write");
    let huge = dir.join("huge.json");
    let file = std::fs::File::create(&huge).expect("create");
    file.set_len(tapscope_core::parse::MAX_INPUT_BYTES + 1)
        .expect("sparse file");
    let empty_folder = scratch_dir("nothing_readable");
    std::fs::write(empty_folder.join("readme.txt"), "no dumps here").expect("write");

    for (path, words) in [
        (&not_a_dump, "unrecognised dump format"),
        (&truncated, "truncated"),
        (&huge, "over the 67108864-byte limit"),
        (&empty_folder, "holds no .xml or .json dump"),
    ] {
        open_and_wait(&mut harness, path);
        harness.get_by_label_contains(words);
        let workbench = harness.state();
        assert_eq!(workbench.opened.len(), 1, "{}", path.display());
        assert_eq!(workbench.title(), "tapscope — video_feed.xml (sample)");
    }
    // Dismissing clears the banner; the sample is still there.
    while !harness.state().banner.is_empty() {
        harness
            .get_all_by_label("Dismiss")
            .next()
            .expect("dismiss button")
            .click();
        harness.run();
    }
    harness.get_by_label_contains("[2] edit \"Search videos\" long");
}

#[test]
fn opens_a_folder_of_dumps_with_their_screenshots() {
    let dir = scratch_dir("folder");
    let dump = sample_dump();
    std::fs::write(dir.join("a_feed.xml"), &dump).expect("write");
    std::fs::write(dir.join("a_feed.png"), png(1080, 2400)).expect("write");
    std::fs::write(dir.join("b_feed.xml"), &dump).expect("write");
    std::fs::write(dir.join("c_broken.json"), "{").expect("write");
    let mut harness = Harness::builder().with_size(SIZE).build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        Workbench::new(),
    );
    open_and_wait(&mut harness, &dir);
    let workbench = harness.state();
    let names: Vec<&str> = workbench
        .opened
        .iter()
        .filter_map(|o| Some(o.document()?.name.as_str()))
        .collect();
    assert_eq!(names, ["a_feed.xml", "b_feed.xml"]);
    assert!(
        workbench.opened[0]
            .document()
            .expect("a dump")
            .screenshot
            .is_some()
    );
    assert!(
        workbench.opened[1]
            .document()
            .expect("a dump")
            .screenshot
            .is_none()
    );
    assert!(
        workbench.title().ends_with("a_feed.xml"),
        "{}",
        workbench.title()
    );
    harness.get_by_label_contains("c_broken.json");
    harness.get_by_label("screenshot 1080x2400");
}
