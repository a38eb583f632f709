//! `sim-next` against `sim`, on the demo's path and a virtual clock: the renamed launcher
//! label, the moved account button, the slower launch and the removed search screen, each
//! shown as the structural diff or the settle report a replay of the demo would meet.

use std::time::Duration;

use tapscope_core::device::Device;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::device::sim::{Build, Sim};
use tapscope_core::geometry::Point;
use tapscope_core::inspect::tree_diff::{DiffNode, TreeDiff, tree_diff};
use tapscope_core::prune::PrunedNode;
use tapscope_core::session::{Action, Observation, Outcome, Session, SessionConfig};
use tapscope_core::stability::VirtualClock;

/// The demo's seed, so `sim` shows what `recordings/demo` recorded.
const SEED: u64 = 1;

type SimSession = Session<Sim<VirtualClock>, VirtualClock>;

fn session(build: Build) -> SimSession {
    let clock = VirtualClock::default();
    Session::new(
        Sim::with_build(clock.clone(), SEED, build),
        clock,
        SessionConfig::default(),
    )
}

fn by_label<'a>(observation: &'a Observation, label: &str) -> Option<&'a PrunedNode> {
    observation.pruned.nodes.iter().find(|n| n.label == label)
}

/// The demo's step 3: the launcher's TapTube icon tapped, found by its resource id as a
/// replay finds it (its label differs between the builds).
fn launch(session: &SimSession) -> (Observation, Outcome) {
    let launcher = session.observe().expect("the launcher is observed");
    let icon = launcher
        .handle_where(|n| {
            launcher.tree.nodes[n.raw]
                .resource_id
                .ends_with(":id/icon_taptube")
        })
        .unwrap_or_else(|| panic!("no TapTube icon in\n{}", launcher.text));
    let outcome = session.act(&Action::Tap(icon)).expect("the launch settles");
    (launcher, outcome)
}

/// The labels of what appeared, and of what disappeared.
fn labels(diff: &TreeDiff) -> (Vec<&str>, Vec<&str>) {
    (names(&diff.appeared), names(&diff.disappeared))
}

fn names(nodes: &[DiffNode]) -> Vec<&str> {
    nodes.iter().map(|n| n.label.as_str()).collect()
}

#[test]
fn the_launcher_label_is_renamed_in_place() {
    let current = session(Build::Current).observe().unwrap();
    let next = session(Build::Next).observe().unwrap();
    let diff = tree_diff(&current.pruned, &next.pruned);
    assert_eq!(labels(&diff), (vec![], vec![]), "{diff:?}");
    let [renamed] = &diff.changed[..] else {
        panic!("one node changed: {diff:?}");
    };
    assert_eq!(renamed.what, ["text"]);
    assert_eq!(renamed.before.label, "\"TapTube\"");
    assert_eq!(renamed.after.label, "\"TapTube Video\"");
    assert_eq!(renamed.before.bounds, renamed.after.bounds);
    let id = |o: &Observation, label: &str| {
        let node = by_label(o, label).expect("the icon");
        o.tree.nodes[node.raw].resource_id.clone()
    };
    assert_eq!(id(&current, "TapTube"), id(&next, "TapTube Video"));
}

#[test]
fn the_feed_has_the_account_button_moved_and_no_search_box() {
    let (_, current) = launch(&session(Build::Current));
    let (_, next) = launch(&session(Build::Next));
    let diff = tree_diff(&current.observation.pruned, &next.observation.pruned);
    assert_eq!(
        labels(&diff),
        (vec![], vec!["\"Search videos\""]),
        "{diff:?}"
    );
    let [moved] = &diff.changed[..] else {
        panic!("one node changed: {diff:?}");
    };
    assert_eq!(moved.what, ["moved"]);
    assert_eq!(moved.before.label, "\"Account\"");
    let (before, after) = (moved.before.bounds, moved.after.bounds);
    assert_eq!((before.left - after.left, before.top), (828, after.top));
    // Everything else on the feed, cards and their drawn view counts included, is as it was.
    assert!(diff.unchanged > 15, "{diff:?}");
}

#[test]
fn the_launch_settles_three_times_later() {
    let (_, current) = launch(&session(Build::Current));
    let (_, next) = launch(&session(Build::Next));
    assert!(current.settle.settled && next.settle.settled);
    assert_eq!(current.settle.total, Duration::from_millis(1500));
    // The animation runs 3.6 s instead of 1.2 s; the 300 ms of quiet after it are the same.
    assert_eq!(
        next.settle.total - current.settle.total,
        Duration::from_millis(2400)
    );
    assert!(next.settle.total < SessionConfig::default().settle.ceiling);
}

#[test]
fn the_search_box_no_longer_opens_search() {
    let current = session(Build::Current);
    let (_, feed) = launch(&current);
    let search_box = by_label(&feed.observation, "Search videos").expect("sim has search");
    let at = Point::center_of(&search_box.bounds);
    current.with_device(|sim| sim.tap(at)).unwrap();
    assert_eq!(
        current.with_device(|sim| sim.screen_name().to_owned()),
        "search"
    );

    let next = session(Build::Next);
    let (_, feed) = launch(&next);
    assert!(by_label(&feed.observation, "Search videos").is_none());
    assert!(!feed.observation.raw.contains("search_box"));
    // The same point, where the demo tapped, now lands on nothing.
    next.with_device(|sim| sim.tap(at)).unwrap();
    assert_eq!(next.with_device(|sim| sim.screen_name().to_owned()), "feed");
}

#[test]
fn each_build_names_itself_and_sim_is_the_current_one() {
    let clock = VirtualClock::default();
    assert_eq!(Sim::new(clock.clone(), SEED).build(), Build::Current);
    for build in Build::ALL {
        let sim = Sim::with_build(clock.clone(), SEED, build);
        assert_eq!(sim.name(), build.name());
        assert_eq!(build.name().parse(), Ok(build));
    }
    let phone = SimPhone::with_build(clock, SEED, Profile::Phone, Build::Next);
    assert_eq!(phone.name(), "sim-next:phone");
    let err = "sim-nxt".parse::<Build>().unwrap_err();
    assert!(err.contains("sim-next"), "{err}");
}
