//! The real dumps of ../shared/corpus: every file parses, prunes without losing a semantic
//! node, and the token reductions docs/numbers.md reports hold. Without the corpus each test
//! says, where the person running the tests sees it, that it checked nothing.

use std::path::PathBuf;

use tapscope_core::parse;
use tapscope_core::prune::{PruneRules, prune};
use tapscope_core::report::Stats;
use tapscope_core::tokens::Encoding;
use tapscope_core::{DumpFormat, Flags};
use tapscope_tests::shared::shared_dir;

fn corpus_dir() -> Option<PathBuf> {
    // The real dumps tapscope is measured on.
    shared_dir("corpus", "the corpus tests")
}

struct Measured {
    name: String,
    format: DumpFormat,
    fallback: bool,
    /// Token counts are slow in debug builds: only the test that needs them asks.
    stats: Option<Stats>,
}

fn measure_all(dir: &PathBuf, count_tokens: bool) -> Vec<Measured> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("corpus is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".xml") || n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 40,
        "expected the 48 corpus dumps, found {}",
        names.len()
    );
    let rules = PruneRules::default();
    names
        .into_iter()
        .map(|name| {
            let bytes = parse::read_file(&dir.join(&name)).expect("corpus file readable");
            let text = parse::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let tree = parse::parse_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let pruned = prune(&tree, &rules);
            for p in &pruned.nodes {
                let actionable = tree.nodes[p.raw].is_actionable();
                assert_eq!(p.i.is_some(), actionable, "{name}: handle of {:?}", p.label);
                if let Some(i) = p.i {
                    let resolved = pruned.resolve(i).expect("handle resolves");
                    assert_eq!(
                        (resolved.raw, resolved.bounds),
                        (p.raw, tree.nodes[p.raw].bounds)
                    );
                }
            }
            let stats =
                count_tokens.then(|| Stats::measure(&text, &tree, &pruned, Encoding::O200k));
            Measured {
                name,
                format: tree.format,
                fallback: pruned.fallback,
                stats,
            }
        })
        .collect()
}

#[test]
fn corpus_prunes_losslessly_and_at_least_twentyfold() {
    let Some(dir) = corpus_dir() else { return };
    let measured: Vec<(String, Stats)> = measure_all(&dir, true)
        .into_iter()
        .filter_map(|m| Some((m.name, m.stats?)))
        .collect();
    assert!(measured.len() >= 40);
    for (name, stats) in &measured {
        assert!(
            stats.lost_semantic_nodes.is_empty(),
            "{name}: lost {:#?}",
            stats.lost_semantic_nodes
        );
        assert!(
            stats.pruned_tokens.tokens() < stats.raw_tokens.tokens(),
            "{name}"
        );
        // Every real dump is counted exactly.
        assert!(
            stats.raw_tokens.is_exact() && stats.pruned_tokens.is_exact(),
            "{name}"
        );
    }
    let mut xml: Vec<f64> = measured
        .iter()
        .filter(|(name, _)| name.ends_with(".xml"))
        .map(|(_, stats)| stats.reduction())
        .collect();
    xml.sort_by(f64::total_cmp);
    let median = xml[xml.len() / 2];
    assert!(
        median >= 30.0,
        "median XML reduction {median:.1}× is under 30×"
    );
    assert!(xml[0] > 10.0, "an XML dump is reduced only {:.1}×", xml[0]);
    for feed in [
        "douyin_profile_grid.xml",
        "avito_listing_feed.xml",
        "youtube_shorts.xml",
        "justdial_home_grid.xml",
    ] {
        let (_, stats) = measured
            .iter()
            .find(|(name, _)| name == feed)
            .expect("feed screen in corpus");
        assert!(
            stats.reduction() >= 30.0,
            "{feed}: only {:.1}×",
            stats.reduction()
        );
    }
}

#[test]
fn corpus_formats_are_detected_from_content() {
    let Some(dir) = corpus_dir() else { return };
    for m in measure_all(&dir, false) {
        let expected = match m.name.split('_').next() {
            Some("droidbot") => DumpFormat::Droidbot,
            Some("rico") => DumpFormat::Rico,
            Some("droidrun") => DumpFormat::Droidrun,
            _ if m.name.ends_with("_flat.json") => DumpFormat::FlatList,
            _ if m.name.ends_with("_vh.json") => DumpFormat::Droidbot,
            _ => DumpFormat::Uiautomator,
        };
        assert_eq!(m.format, expected, "{}", m.name);
    }
}

#[test]
fn self_drawn_screens_ask_for_the_screenshot() {
    let Some(dir) = corpus_dir() else { return };
    let opaque = [
        "clashofclans_game_opaque.xml",
        "rico_unity_opaque.json",
        "rico_air_opaque_canvas.json",
    ];
    for m in measure_all(&dir, false) {
        assert_eq!(m.fallback, opaque.contains(&m.name.as_str()), "{}", m.name);
    }
}

#[test]
fn keyboard_and_system_bars_are_windows_of_their_own() {
    let Some(dir) = corpus_dir() else { return };
    let bytes = parse::read_file(&dir.join("avito_search_keyboard.xml")).expect("readable");
    let tree = parse::parse_bytes(&bytes).expect("parses");
    let kinds: Vec<_> = tree.windows.iter().map(|w| w.kind).collect();
    use tapscope_core::WindowKind::*;
    assert_eq!(kinds, [App, SystemBar, Keyboard]);
    let pruned = prune(&tree, &PruneRules::default());
    let text = tapscope_core::render::yaml(&pruned);
    assert!(text.contains("keyboard: open\n"));
    assert!(text.contains("\nwindow: keyboard\n"), "{text}");
    // Nothing under the keyboard is shown as if it were tappable.
    let keyboard = tree.windows[2].bounds;
    for p in &pruned.nodes {
        let node = &tree.nodes[p.raw];
        if tree.windows[node.window].kind == App {
            assert!(
                !keyboard.contains_rect(&p.visible),
                "{:?} is under the keyboard",
                p.label
            );
        }
    }
    assert!(tree.nodes.iter().any(|n| n.has(Flags::EDITABLE)));
}
