//! The next build's screens load whole, and a change that misses what it changes is refused.

use super::*;
use crate::device::sim::Sim;
use crate::device::sim::screen::{expand_all, parse_all};
use crate::parse::parse_str;
use crate::prune::{PruneRules, prune};
use crate::recall;
use crate::stability::VirtualClock;

fn applied(change: Change) -> Result<Files, String> {
    let mut files = parse_all()?;
    change.apply(&mut files)?;
    Ok(files)
}

fn at(screen: &'static str, node: &'static str) -> At {
    At { screen, node }
}

#[test]
fn the_next_build_has_every_screen_but_search_and_each_prunes_losslessly() {
    let mut sim = Sim::with_build(VirtualClock::new(), 7, Build::Next);
    let names: Vec<&str> = sim.screens.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "launcher",
            "feed",
            "detail",
            "settings",
            "permission",
            "game",
            "game_play",
            "game_settings",
            "live"
        ],
        "a broken change gives one error screen"
    );
    for k in 0..sim.screens.len() {
        sim.current = k;
        let tree = parse_str(&sim.settled_xml()).unwrap();
        let lost = recall::check(&tree, &prune(&tree, &PruneRules::default())).lost;
        assert!(lost.is_empty(), "{}: {lost:?}", sim.screen_name());
    }
}

#[test]
fn a_change_that_misses_its_target_is_refused_with_a_reason() {
    let rename = Change::Rename {
        node: at("launcher", "icon_nothing"),
        text: "x",
    };
    assert_eq!(
        applied(rename).unwrap_err(),
        "no node icon_nothing in launcher"
    );
    let slower = Change::Slower {
        tap: at("launcher", "workspace"),
        times: 2,
    };
    assert_eq!(
        applied(slower).unwrap_err(),
        "no tap on workspace in launcher"
    );
    let remove = Change::Remove {
        screen: "gallery",
        opened_by: at("feed", "search_box"),
    };
    assert_eq!(applied(remove).unwrap_err(), "no screen gallery to remove");
    let crash = Change::Crash {
        tap: at("feed", "logo"),
        crash: &ACCOUNT_CRASH,
    };
    assert_eq!(applied(crash).unwrap_err(), "no tap on logo in feed");
}

#[test]
fn a_removed_screen_still_reachable_another_way_is_refused() {
    // The mini-player also leads to the detail page.
    let files = applied(Change::Remove {
        screen: "detail",
        opened_by: at("feed", "video_card"),
    })
    .unwrap();
    let err = expand_all(files, &mut fastrand::Rng::with_seed(1)).unwrap_err();
    assert_eq!(err, "screen feed: `go` names unknown screen detail");
}

#[test]
fn a_move_carries_the_node_and_all_it_holds() {
    let files = applied(Change::Move {
        node: at("feed", "mini_player"),
        by: [0, -100],
    })
    .unwrap();
    let (_, feed) = files.iter().find(|(name, _)| *name == "feed").unwrap();
    let tops: Vec<(&str, i32)> = feed
        .node
        .iter()
        .filter(|n| {
            ["mini_player", "mini_title", "play_pause", "bottom_nav"].contains(&n.id.as_str())
        })
        .map(|n| (n.id.as_str(), n.bounds[1]))
        .collect();
    assert_eq!(
        tops,
        [
            ("mini_player", 1880),
            ("mini_title", 1904),
            ("play_pause", 1900),
            ("bottom_nav", 2148)
        ]
    );
}
