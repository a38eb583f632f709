//! Screens of thousands of top-level windows (every uiautomator top-level node and every
//! droidbot root view is one): what is covered is what a scan of every window says.

use tapscope_core::prune::{Hidden, Visibility};
use tapscope_core::{Tree, parse};
use tapscope_tests::dumps::{droidbot_root_views, many_windows_xml};

/// Each generated window is one node: covered when a window of a higher layer holds the
/// node's part of the display.
fn covered_by_a_scan(tree: &Tree, id: usize) -> bool {
    let node = &tree.nodes[id];
    let display = tree.display_rect();
    let on_screen = node.bounds.clamped(&display);
    let layer = tree.windows[node.window].kind.layer();
    tree.windows
        .iter()
        .any(|w| w.kind.layer() > layer && w.bounds.contains_rect(&on_screen))
}

fn assert_covered_as_a_scan_says(dump: &str) {
    let tree = parse::parse_str(dump).expect("the generated dump parses");
    assert_eq!(tree.windows.len(), tree.nodes.len());
    let visibility = Visibility::of(&tree);
    let mut covered = 0;
    for id in 0..tree.nodes.len() {
        let scan = covered_by_a_scan(&tree, id);
        assert_eq!(
            visibility.get(id) == Err(Hidden::Covered),
            scan,
            "node {id}"
        );
        assert!(scan || visibility.is_visible(id), "node {id}");
        covered += usize::from(scan);
    }
    assert!(
        covered > 0 && covered < tree.nodes.len(),
        "{covered} covered"
    );
}

#[test]
fn thousands_of_top_level_nodes() {
    assert_covered_as_a_scan_says(&many_windows_xml(3000));
}

#[test]
fn thousands_of_droidbot_root_views() {
    assert_covered_as_a_scan_says(&droidbot_root_views(3000));
}
