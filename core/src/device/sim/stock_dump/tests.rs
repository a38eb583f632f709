//! The sim's stock dump: the app's window alone, only what the user can see, bounds on the
//! display, indices with gaps, and a serialization paid for the nodes written; the
//! all-windows views (the sim's own, uiautomator2's) unchanged.

use std::time::Duration;

use super::*;
use crate::device::Device;
use crate::device::sim::costs::{Costs, DUMP_QUIET, Profile};
use crate::device::sim::phone::SimPhone;
use crate::geometry::Point;
use crate::model::{Flags, Tree};
use crate::parse::parse_str;
use crate::stability::VirtualClock;

const ON_DISPLAY: Rect = Rect::new(0, 0, 1080, 2400);
const SEED: u64 = 1;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn settle(clock: &VirtualClock) {
    clock.clone().sleep(Duration::from_secs(3));
}

/// The feed scrolled down by a long swipe, settled; nothing paid on the phone yet.
fn scrolled_feed(profile: Profile) -> (SimPhone<VirtualClock>, VirtualClock) {
    let clock = VirtualClock::new();
    let phone = SimPhone::new(clock.clone(), SEED, profile);
    phone.sim().launch("tv.tapscope.demo").unwrap();
    settle(&clock);
    phone
        .sim()
        .swipe(Point::new(540, 1800), Point::new(540, 500), ms(300))
        .unwrap();
    settle(&clock);
    (phone, clock)
}

fn stock_dump(phone: &SimPhone<VirtualClock>) -> String {
    phone
        .uiautomator_dump(Duration::from_secs(20), &|| false)
        .unwrap()
}

fn parsed(xml: &str) -> Tree {
    parse_str(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"))
}

/// What a stock dump is on any screen: one root, every node on the display and holding
/// something, inside its parent, and no other window's node.
fn assert_stock_shaped(xml: &str) {
    let tree = parsed(xml);
    assert_eq!(tree.windows.len(), 1, "{xml}");
    let roots = tree.nodes.iter().filter(|n| n.parent.is_none()).count();
    assert_eq!(roots, 1, "{xml}");
    for node in &tree.nodes {
        let b = node.bounds;
        assert_eq!(b.intersect(&ON_DISPLAY), b, "off the display: {b}\n{xml}");
        assert!(b.area() > 0, "nothing to see: {b}\n{xml}");
        if let Some(up) = node.parent {
            let parent = tree.nodes[up].bounds;
            assert_eq!(b.intersect(&parent), b, "outside its parent {parent}: {b}");
        }
    }
    assert!(!xml.contains("com.android.systemui"), "{xml}");
    assert!(!xml.contains("inputmethod"), "{xml}");
}

#[test]
fn after_a_scroll_the_stock_dump_is_the_apps_window_on_the_display() {
    let (phone, _clock) = scrolled_feed(Profile::Instant);
    let all = phone.sim().xml();
    let off = parsed(&all)
        .nodes
        .iter()
        .filter(|n| n.bounds.top < 0)
        .count();
    assert!(off > 0, "the scroll moved cards above the display\n{all}");

    let stock = stock_dump(&phone);
    assert_stock_shaped(&stock);
    assert!(stock.starts_with(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n  <node index=\"0\" "
    ));
    assert_eq!(stock, phone.sim().stock_xml());
    let stock_nodes = stock.matches("<node ").count();
    let app_nodes = all.matches("package=\"tv.tapscope.demo\"").count();
    assert!(stock_nodes < app_nodes, "{stock_nodes} of {app_nodes}");

    // uiautomator2's server and the sim's own view still see every window.
    let u2 = phone.u2_dump();
    assert!(u2.contains("com.android.systemui:id/status_bar"), "{u2}");
    assert!(all.contains("com.android.systemui:id/status_bar"));
}

#[test]
fn a_list_scrolled_past_its_first_items_numbers_its_children_from_where_they_were() {
    let (phone, _clock) = scrolled_feed(Profile::Instant);
    let stock = stock_dump(&phone);
    let lines: Vec<&str> = stock.lines().collect();
    let list = lines
        .iter()
        .position(|l| l.contains("resource-id=\"tv.tapscope.demo:id/feed\""))
        .unwrap_or_else(|| panic!("no feed in\n{stock}"));
    let first = lines.get(list + 1).copied().unwrap_or_default();
    let index: usize = first
        .trim_start()
        .strip_prefix("<node index=\"")
        .and_then(|rest| rest.split('"').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no child node after the feed: {first}"));
    assert!(index > 0, "the cards scrolled away leave a gap: {first}");
}

#[test]
fn with_the_keyboard_up_the_app_keeps_the_active_window() {
    let (phone, clock) = scrolled_feed(Profile::Instant);
    let tree = parsed(&phone.sim().xml());
    let search = tree
        .nodes
        .iter()
        .find(|n| n.text == "Search videos" && n.has(Flags::CLICKABLE))
        .unwrap_or_else(|| panic!("no search box on {}", phone.sim().screen_name()));
    phone.sim().tap(Point::center_of(&search.bounds)).unwrap();
    settle(&clock);
    assert_eq!(phone.sim().screen_name(), "search");

    let stock = stock_dump(&phone);
    assert_stock_shaped(&stock);
    let field = parsed(&stock)
        .nodes
        .into_iter()
        .find(|n| n.class.ends_with("EditText"))
        .unwrap_or_else(|| panic!("no query field\n{stock}"));
    assert!(field.has(Flags::FOCUSED), "{stock}");
    assert!(phone.u2_dump().contains("inputmethod"));
    assert!(phone.sim().xml().contains("inputmethod"));
}

#[test]
fn a_screen_sliding_in_shows_only_its_part_on_the_display() {
    let clock = VirtualClock::new();
    let mut sim = Sim::new(clock.clone(), SEED);
    sim.launch("tv.tapscope.demo").unwrap();
    clock.clone().sleep(ms(300));
    assert!(sim.animation_end().is_some_and(|end| end > clock.now()));
    let sliding = sim.stock_xml();
    assert_stock_shaped(&sliding);
    let shown = sliding.matches("<node ").count();
    let settled = sim.settled_stock_xml();
    assert_stock_shaped(&settled);
    assert!(
        shown < settled.matches("<node ").count(),
        "the part still off to the right is not written\n{sliding}"
    );
    settle(&clock);
    assert_eq!(sim.stock_xml(), settled);
}

#[test]
fn the_dump_pays_for_the_nodes_it_writes() {
    let (phone, clock) = scrolled_feed(Profile::Phone);
    let started = clock.now();
    let stock = stock_dump(&phone);
    let took = clock.now() - started;
    let written = stock.matches("<node ").count();
    let all = phone.sim().xml().matches("<node ").count();
    assert!(written < all);
    // The same draws as the phone's: its start, then its write of `written` nodes.
    let mut costs = Costs::new(Profile::Phone, SEED);
    let start = costs.dump_start();
    let write = costs.serialize(written);
    assert_eq!(took, start + DUMP_QUIET + write, "{took:?}");
}

fn shown(depth: usize, bounds: Rect) -> Shown {
    Shown {
        window: Win::App,
        depth,
        item: None,
        class: "android.widget.FrameLayout".into(),
        text: String::new(),
        desc: String::new(),
        resource_id: String::new(),
        package: "app".into(),
        bounds,
        visible: bounds,
        flags: Flags::ENABLED,
        showing_hint: false,
        authored: bounds,
    }
}

#[test]
fn children_are_clipped_to_their_parent_and_skipped_when_nothing_is_left() {
    let mut status = shown(0, Rect::new(0, 0, 1080, 96));
    status.window = Win::StatusBar;
    let nodes = [
        shown(0, Rect::new(0, 0, 1080, 2400)),
        shown(1, Rect::new(0, 200, 1080, 600)),
        // Above its parent: skipped, with its child, though the child is on the display.
        shown(2, Rect::new(0, 0, 1080, 150)),
        shown(3, Rect::new(0, 100, 500, 150)),
        // Half out of its parent: clipped to it.
        shown(2, Rect::new(0, 500, 1080, 700)),
        // A zero-height strip inside: nothing to see.
        shown(2, Rect::new(0, 550, 1080, 550)),
        shown(1, Rect::new(-200, 2300, 200, 2600)),
        // A second root of the same window, then another window: not the active root.
        shown(0, Rect::new(0, 0, 1080, 2400)),
        shown(1, Rect::new(0, 0, 10, 10)),
        status,
    ];
    let (out, indices) = active_window(&nodes);
    let got: Vec<(usize, usize, Rect)> = out
        .iter()
        .zip(&indices)
        .map(|(n, &i)| (n.depth, i, n.bounds))
        .collect();
    assert_eq!(
        got,
        [
            (0, 0, Rect::new(0, 0, 1080, 2400)),
            (1, 0, Rect::new(0, 200, 1080, 600)),
            (2, 1, Rect::new(0, 500, 1080, 600)),
            (1, 1, Rect::new(0, 2300, 200, 2400)),
        ]
    );
    let xml = encode::xml_indexed(&out, Some(&indices), 0);
    assert!(xml.contains("<node index=\"1\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"app\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" bounds=\"[0,500][1080,600]\" />"), "{xml}");
}

#[test]
fn a_root_off_the_display_is_still_written_as_the_dumper_writes_it() {
    let away = Rect::new(1080, 0, 2160, 2400);
    let (out, indices) = active_window(&[shown(0, away), shown(1, away)]);
    assert_eq!(indices, [0]);
    assert_eq!(out[0].bounds, away);
    assert!(active_window(&[]).0.is_empty());
}
