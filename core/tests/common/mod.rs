//! Shared helpers of the integration tests: loading the hand-written fixtures, pruning
//! them reproducibly, and looking up nodes and lines.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::PathBuf;

use tapscope_core::prune::{PruneRules, Pruned, prune_with_version};
use tapscope_core::{Node, NodeId, Tree, parse, recall, render};

/// The fixed version every compared output is pruned under.
pub const VERSION: &str = "0123456789ab";

pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The fixture's text, exactly as committed.
pub fn fixture_text(name: &str) -> String {
    let path = fixture_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

/// Reads and parses a fixture through the same path the CLI uses (size limit, decoding).
pub fn parse_fixture(name: &str) -> Tree {
    let bytes =
        parse::read_file(&fixture_path(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"));
    parse::parse_bytes(&bytes).unwrap_or_else(|e| panic!("parsing {name}: {e}"))
}

/// Prunes under [`VERSION`], so the output is the same on every run.
pub fn prune_fixed(tree: &Tree, rules: &PruneRules) -> Pruned {
    prune_with_version(tree, rules, VERSION.into())
}

/// The fixture's pseudo-YAML under `rules`, with the fixed version.
pub fn yaml_of(name: &str, rules: &PruneRules) -> String {
    render::yaml(&prune_fixed(&parse_fixture(name), rules))
}

/// Whether `yaml` has a line equal to `line` (indentation included).
pub fn has_line(yaml: &str, line: &str) -> bool {
    yaml.lines().any(|l| l == line)
}

/// Asserts that `yaml` has exactly the line `line`, printing the whole output if not.
#[track_caller]
pub fn assert_line(yaml: &str, line: &str) {
    assert!(
        has_line(yaml, line),
        "expected the line\n{line}\nin\n{yaml}"
    );
}

/// Asserts that no line of `yaml` contains `part`.
#[track_caller]
pub fn assert_no_line_with(yaml: &str, part: &str) {
    let hits: Vec<&str> = yaml.lines().filter(|l| l.contains(part)).collect();
    assert!(
        hits.is_empty(),
        "expected no line with {part:?}, found {hits:?} in\n{yaml}"
    );
}

/// The one node whose text is exactly `text`.
#[track_caller]
pub fn node_with_text<'t>(tree: &'t Tree, text: &str) -> &'t Node {
    &tree.nodes[id_with_text(tree, text)]
}

/// The id of the one node whose text is exactly `text`.
#[track_caller]
pub fn id_with_text(tree: &Tree, text: &str) -> NodeId {
    id_where(tree, |n| n.text == text, &format!("text {text:?}"))
}

/// The id of the one node whose content description is exactly `desc`.
#[track_caller]
pub fn id_with_desc(tree: &Tree, desc: &str) -> NodeId {
    id_where(tree, |n| n.desc == desc, &format!("description {desc:?}"))
}

#[track_caller]
fn id_where(tree: &Tree, wanted: impl Fn(&Node) -> bool, what: &str) -> NodeId {
    let ids: Vec<NodeId> = (0..tree.nodes.len())
        .filter(|&id| wanted(&tree.nodes[id]))
        .collect();
    match ids.as_slice() {
        [id] => *id,
        other => panic!("expected one node with {what}, found {}", other.len()),
    }
}

/// Asserts that the recall check finds nothing lost, naming what was lost if it does.
#[track_caller]
pub fn assert_lossless(tree: &Tree, pruned: &Pruned) {
    let recall = recall::check(tree, pruned);
    assert!(
        recall.lost.is_empty(),
        "lost semantic nodes: {:#?}\nin\n{}",
        recall.lost,
        render::yaml(pruned)
    );
}

/// `text` as UTF-16 with a byte-order mark, little- or big-endian.
pub fn utf16_with_bom(text: &str, little_endian: bool) -> Vec<u8> {
    std::iter::once(0xFEFF_u16)
        .chain(text.encode_utf16())
        .flat_map(|unit| {
            if little_endian {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            }
        })
        .collect()
}

/// Every committed fixture, by file name.
pub const ALL_FIXTURES: [&str; 19] = [
    "uiautomator_single_line.xml",
    "uiautomator2_pretty.xml",
    "wrapped_attributes.xml",
    "multi_window.xml",
    "rotation_1.xml",
    "rotation_3.xml",
    "entities.xml",
    "appium_page_source.xml",
    "droidbot_state.json",
    "droidbot_2016.json",
    "rico.json",
    "droidrun_nested.json",
    "droidrun_portal_early.json",
    "flat_list.json",
    "feed.xml",
    "self_drawn.xml",
    "settings_switches.xml",
    "login_form.xml",
    "chat_keyboard.xml",
];

/// Parses `text`, expecting an error.
#[track_caller]
pub fn parse_err(text: &str) -> tapscope_core::Error {
    match parse::parse_str(text) {
        Ok(tree) => panic!(
            "expected an error, got a tree of {} nodes",
            tree.nodes.len()
        ),
        Err(e) => e,
    }
}
