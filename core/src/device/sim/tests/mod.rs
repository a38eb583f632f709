//! The simulated phone on a virtual clock: every screen, transitions, events, screenshots, bad input.

mod crash;
mod game;

use std::time::Duration;

use super::*;
use crate::model::{Rect, Tree, WindowKind};
use crate::parse::parse_str;
use crate::prune::{PruneRules, Pruned, prune};
use crate::recall;
use crate::stability::VirtualClock;

fn sim(seed: u64) -> (Sim<VirtualClock>, VirtualClock) {
    let clock = VirtualClock::new();
    (Sim::new(clock.clone(), seed), clock)
}

fn settle(clock: &mut VirtualClock) {
    clock.sleep(Duration::from_secs(3));
}

fn tree(sim: &mut Sim<VirtualClock>) -> Tree {
    parse_str(&sim.dump().unwrap()).unwrap()
}

fn pruned(sim: &mut Sim<VirtualClock>) -> (Tree, Pruned) {
    let tree = tree(sim);
    let pruned = prune(&tree, &PruneRules::default());
    (tree, pruned)
}

/// Taps the middle of the first node whose text or description is `label`.
fn tap_label(sim: &mut Sim<VirtualClock>, label: &str) {
    let tree = tree(sim);
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == label || n.desc == label)
        .unwrap_or_else(|| panic!("no node {label:?} on {}", sim.screen_name()));
    sim.tap(Point::center_of(&node.bounds)).unwrap();
}

fn go_to(sim: &mut Sim<VirtualClock>, clock: &mut VirtualClock, screen: &str) {
    sim.current = sim.screens.iter().position(|s| s.name == screen).unwrap();
    sim.anim = None;
    settle(clock);
}

#[test]
fn every_screen_loads_parses_and_prunes_losslessly() {
    let (mut sim, mut clock) = sim(7);
    assert_eq!(
        sim.screens.len(),
        10,
        "a broken asset gives one error screen"
    );
    for name in [
        "launcher",
        "feed",
        "search",
        "detail",
        "settings",
        "permission",
        "game",
        "game_play",
        "game_settings",
        "live",
    ] {
        go_to(&mut sim, &mut clock, name);
        let (tree, pruned) = pruned(&mut sim);
        let lost = recall::check(&tree, &pruned).lost;
        assert!(lost.is_empty(), "{name}: {lost:?}");
        assert_eq!(pruned.fallback, name.starts_with("game"), "{name}");
        assert!(
            tree.windows
                .iter()
                .any(|w| w.package == "com.android.systemui"),
            "{name} has a status bar"
        );
        let keyboard = tree.windows.iter().any(|w| w.kind == WindowKind::Keyboard);
        assert_eq!(keyboard, name == "search", "{name}");
    }
}

#[test]
fn the_feed_has_items_below_the_fold() {
    let (mut sim, mut clock) = sim(1);
    sim.launch("tv.tapscope.demo").unwrap();
    settle(&mut clock);
    let (_, pruned) = pruned(&mut sim);
    let yaml = crate::render::yaml(&pruned);
    assert!(yaml.contains("more:"), "{yaml}");
    assert!(yaml.contains("Now playing"), "the mini-player is shown");
}

#[test]
fn tapping_a_card_opens_the_detail_page_after_its_animation_and_back_returns() {
    let (mut sim, mut clock) = sim(1);
    tap_label(&mut sim, "TapTube");
    // The launch takes 1.2 s: at 1.1 s the feed is still sliding in.
    clock.sleep(Duration::from_millis(1100));
    let sliding = sim.dump().unwrap();
    settle(&mut clock);
    assert_ne!(sliding, sim.dump().unwrap());
    assert_eq!(sim.screen_name(), "feed");

    let feed = sim.dump().unwrap();
    tap_label(&mut sim, "Sourdough at 80% hydration, start to finish");
    assert_eq!(sim.screen_name(), "detail");
    clock.sleep(Duration::from_millis(150));
    let mid = sim.dump().unwrap();
    settle(&mut clock);
    let settled = sim.dump().unwrap();
    assert_ne!(mid, settled, "a premature observer sees the slide");
    assert!(parse_str(&mid).is_ok());
    assert!(settled.contains("Subscribe"));

    sim.key(Key::Back).unwrap();
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "feed");
    assert_eq!(sim.dump().unwrap(), feed);
    sim.key(Key::Home).unwrap();
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "launcher");
}

#[test]
fn typed_text_appears_in_the_search_field() {
    let (mut sim, mut clock) = sim(1);
    go_to(&mut sim, &mut clock, "feed");
    tap_label(&mut sim, "Search videos");
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "search");
    sim.input_text("cello").unwrap();
    tap_label(&mut sim, "s"); // a key of the keyboard window
    let tree = tree(&mut sim);
    assert!(
        tree.nodes
            .iter()
            .any(|n| n.text == "cellos" && n.has(Flags::FOCUSED))
    );
    sim.key(Key::Delete).unwrap();
    assert!(sim.dump().unwrap().contains("text=\"cello\""));
    sim.key(Key::Enter).unwrap();
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "detail");
}

#[test]
fn switches_toggle_and_the_feed_scrolls_until_it_bottoms_out() {
    let (mut sim, mut clock) = sim(1);
    sim.launch("com.android.settings").unwrap();
    settle(&mut clock);
    tap_label(&mut sim, "Bluetooth");
    settle(&mut clock);
    let tree = tree(&mut sim);
    assert!(
        tree.nodes
            .iter()
            .any(|n| n.text == "Bluetooth" && n.has(Flags::CHECKED))
    );

    go_to(&mut sim, &mut clock, "feed");
    let mut previous = sim.dump().unwrap();
    let mut moved = 0;
    for _ in 0..10 {
        sim.swipe(
            Point::new(540, 1500),
            Point::new(540, 700),
            Duration::from_millis(200),
        )
        .unwrap();
        clock.sleep(Duration::from_millis(100));
        let mid = sim.dump().unwrap();
        settle(&mut clock);
        let now = sim.dump().unwrap();
        if now == previous {
            break;
        }
        assert_ne!(mid, now, "mid-scroll differs from the settled list");
        moved += 1;
        previous = now;
    }
    assert!(
        (2..10).contains(&moved),
        "scrolled {moved} times before the bottom"
    );
    assert!(previous.contains("Knitting a sweater in one weekend"));
}

#[test]
fn events_follow_the_animation() {
    let (mut sim, mut clock) = sim(1);
    assert_eq!(sim.last_event_at(), None);
    clock.sleep(Duration::from_secs(1));
    tap_label(&mut sim, "Settings"); // 500 ms
    let start = Duration::from_secs(1);
    assert_eq!(sim.last_event_at(), Some(start));
    clock.sleep(Duration::from_millis(250));
    assert_eq!(
        sim.last_event_at(),
        Some(start + Duration::from_millis(200))
    );
    settle(&mut clock);
    assert_eq!(
        sim.last_event_at(),
        Some(start + Duration::from_millis(500))
    );
    // A tap on nothing does nothing.
    let before = sim.dump().unwrap();
    sim.tap(Point::new(540, 2390)).unwrap();
    assert_eq!(
        sim.last_event_at(),
        Some(start + Duration::from_millis(500))
    );
    assert_eq!(sim.dump().unwrap(), before);
}

#[test]
fn the_ticker_never_stops_emitting_events() {
    let (mut sim, mut clock) = sim(1);
    tap_label(&mut sim, "Live TV");
    let mut dumps = Vec::new();
    for _ in 0..20 {
        clock.sleep(Duration::from_millis(530));
        let now = clock.now();
        let last = sim.last_event_at().unwrap();
        assert!(
            now - last < Duration::from_millis(40),
            "{now:?} vs {last:?}"
        );
        dumps.push(sim.dump().unwrap());
    }
    dumps.dedup();
    assert_eq!(dumps.len(), 20, "the viewer count changes between dumps");
}

#[test]
fn the_self_drawn_screen_falls_back_to_a_real_screenshot() {
    let (mut sim, mut clock) = sim(1);
    sim.launch("tv.tapscope.blocks").unwrap();
    settle(&mut clock);
    let (tree, pruned) = pruned(&mut sim);
    assert!(pruned.fallback);
    let app = tree
        .windows
        .iter()
        .find(|w| w.kind == WindowKind::App)
        .unwrap();
    assert_eq!(app.roots.len(), 1);
    assert!(tree.nodes[app.roots[0]].children.is_empty());

    let png = sim.screenshot_png().unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!((img.width(), img.height()), (1080, 2400));
    let red = img.get_pixel(260, 820);
    assert_eq!(red.0, [220, 60, 60], "a block");
    assert_eq!(img.get_pixel(540, 1200).0, [24, 26, 48], "the background");
    // The menu's words are drawn on the board: ink of the Play colour inside its box.
    let play_ink = (240..840)
        .flat_map(|x| (1640..1860).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0 == [120, 230, 140])
        .count();
    assert!(play_ink > 1000, "the word Play: {play_ink} pixels");
}

#[test]
fn the_same_seed_gives_the_same_phone() {
    let ((mut a, mut ca), (mut b, mut cb), (mut c, mut cc)) = (sim(42), sim(42), sim(43));
    for (s, clock) in [(&mut a, &mut ca), (&mut b, &mut cb), (&mut c, &mut cc)] {
        s.launch("tv.tapscope.demo").unwrap();
        settle(clock);
        tap_label(s, "Every Apollo landing site from orbit");
        clock.sleep(Duration::from_millis(100));
    }
    assert_eq!(a.dump().unwrap(), b.dump().unwrap());
    assert_eq!(a.screenshot_png().unwrap(), b.screenshot_png().unwrap());
    assert_ne!(
        a.dump().unwrap(),
        c.dump().unwrap(),
        "another seed, other numbers"
    );
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let (mut sim, _) = sim(1);
    let invalid = |r: Result<(), DeviceError>| match r {
        Err(DeviceError::InvalidInput(why)) => why,
        other => panic!("expected InvalidInput, got {other:?}"),
    };
    assert!(invalid(sim.input_text("")).contains("empty"));
    assert!(invalid(sim.input_text(&"x".repeat(MAX_INPUT_CHARS + 1))).contains("10000"));
    assert!(invalid(sim.tap(Point::new(1080, 10))).contains("outside the display"));
    assert!(invalid(sim.tap(Point::new(-1, 10))).contains("outside"));
    let far = Point::new(10, 2400);
    assert!(invalid(sim.swipe(Point::new(10, 10), far, Duration::ZERO)).contains("outside"));
    assert!(invalid(sim.long_press(Point::new(5, 5), Duration::from_secs(61))).contains("limit"));
    assert!(invalid(sim.launch("com.example.none")).contains("tv.tapscope.demo"));
    assert_eq!(sim.screen_name(), "launcher", "nothing changed");
    assert!(sim.input_text(&"x".repeat(MAX_INPUT_CHARS)).is_ok());
    let display = sim.display().unwrap();
    assert_eq!(
        Rect::new(0, 0, display.size.width, display.size.height).area(),
        1080 * 2400
    );
    assert!(
        sim.packages()
            .unwrap()
            .contains(&"com.android.settings".to_owned())
    );
}

/// The sim as the settle wait sees it: the dump's hash and the event stream.
struct Watch<'a>(&'a mut Sim<VirtualClock>);

impl crate::stability::Signals for Watch<'_> {
    type Error = DeviceError;
    type Look = String;

    fn dumps(&self) -> crate::stability::Dumps {
        self.0.dumps()
    }

    fn look(&mut self, _limit: Duration) -> Result<(u64, String), DeviceError> {
        use std::hash::{Hash, Hasher};
        let dump = self.0.dump()?;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        dump.hash(&mut hasher);
        Ok((hasher.finish(), dump))
    }

    fn last_event_at(&mut self) -> Option<Duration> {
        self.0.last_event_at()
    }
}

#[test]
fn the_settle_wait_sees_the_end_of_the_slow_launch_and_never_settles_on_the_ticker() {
    use crate::stability::{SettleConfig, wait_for_stable};
    let (mut sim, mut clock) = sim(3);
    let config = SettleConfig::default();
    tap_label(&mut sim, "TapTube"); // 1.2 s
    let waited =
        wait_for_stable(&mut clock, &mut Watch(&mut sim), &config, Duration::ZERO).unwrap();
    let report = waited.report;
    assert!(report.settled, "{report:?}");
    assert!(report.total >= Duration::from_millis(1500), "{report:?}");
    let seen = waited.look;
    settle(&mut clock);
    assert_eq!(
        seen,
        sim.dump().unwrap(),
        "what the wait returned on is the settled screen"
    );

    tap_label(&mut sim, "Live");
    let started = clock.now();
    let report = wait_for_stable(&mut clock, &mut Watch(&mut sim), &config, started)
        .unwrap()
        .report;
    assert!(!report.settled);
    assert_eq!(report.total, config.ceiling);
}

#[test]
fn screen_files_with_mistakes_are_refused_with_a_reason() {
    let bad = |text: &str| {
        let mut rng = fastrand::Rng::with_seed(1);
        screen::load("x", text, &mut rng).unwrap_err()
    };
    let node = "package = \"p\"\n[[node]]\nid = \"a\"\nclass = \"View\"\nbounds = [0, 0, 10, 10]\n";
    assert!(bad(&format!("{node}flags = [\"shiny\"]\n")).contains("unknown flag"));
    assert!(bad(&format!("{node}parent = \"nowhere\"\n")).contains("not defined above"));
    assert!(bad(&format!("{node}colour = 1\n")).contains("colour"));
    let nested = format!(
        "{node}repeat = {{ count = 2, step = [0, 10] }}\n[[node]]\nid = \"b\"\nparent = \"a\"\n\
         class = \"View\"\nbounds = [0, 0, 10, 10]\nrepeat = {{ count = 2, step = [0, 10] }}\n"
    );
    assert!(bad(&nested).contains("may not nest"));
    let two_triggers = format!("{node}[[on]]\ntap = \"a\"\ntap_rect = [0, 0, 5, 5]\nback = true\n");
    assert!(bad(&two_triggers).contains("exactly one of tap, tap_rect, key"));
    let no_effect = format!("{node}[[on]]\ntap_rect = [0, 0, 5, 5]\n");
    assert!(bad(&no_effect).contains("exactly one of go, back"));
    let painted =
        format!("{node}[[paint]]\nrect = [0, 0, 5, 5]\ncolor = [1, 2, 3]\nfont = \"x\"\n");
    assert!(bad(&painted).contains("font"));
}
