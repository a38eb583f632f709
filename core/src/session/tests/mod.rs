//! The session on the simulated phone and a virtual clock: act-and-observe, staleness,
//! settling, scrolling to the end, and the screenshot fallback.

mod phone;

use std::time::Duration;

use super::*;
use crate::device::sim::Sim;
use crate::model::Size;
use crate::stability::VirtualClock;

fn session() -> (Session<Sim<VirtualClock>, VirtualClock>, VirtualClock) {
    let clock = VirtualClock::default();
    let sim = Sim::new(clock.clone(), 7);
    (
        Session::new(sim, clock.clone(), SessionConfig::default()),
        clock,
    )
}

/// The handle of the actionable node whose label contains `text`.
fn handle_of(observation: &Observation, text: &str) -> Handle {
    observation
        .handle_where(|n| n.label.contains(text))
        .unwrap_or_else(|| panic!("no actionable {text:?} in\n{}", observation.text))
}

fn scrollable(observation: &Observation) -> Handle {
    observation
        .handle_where(|n| observation.tree.nodes[n.raw].has(Flags::SCROLLABLE))
        .expect("a scrollable list")
}

#[test]
fn a_tap_returns_the_settled_tree_of_the_next_screen_in_the_same_call() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let outcome = session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap();
    assert!(
        outcome.acted_on.contains("\"TapTube\""),
        "{}",
        outcome.acted_on
    );
    assert_eq!(outcome.path.len(), 1);
    assert!(outcome.settle.settled);
    // The 1.2 s launch: settled after it, not before.
    assert!(
        outcome.settle.total >= Duration::from_millis(1200),
        "{:?}",
        outcome.settle
    );
    assert_ne!(outcome.observation.version, home.version);
    assert!(
        outcome.observation.text.contains("more: ["),
        "{}",
        outcome.observation.text
    );
    // Observing again shows the same settled screen.
    let again = session.observe().unwrap();
    assert_eq!(
        structure_hash(&again.tree),
        structure_hash(&outcome.observation.tree)
    );
}

#[test]
fn a_stale_handle_is_refused_without_touching_the_device() {
    let (session, clock) = session();
    let home = session.observe().unwrap();
    let stale = handle_of(&home, "Settings");
    // The launcher is gone once the feed is open: its handles name a screen no longer there.
    session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap();
    let before = clock.now();
    let err = session.act(&Action::Tap(stale)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Token version mismatch, viewport updated. Call screen_operation_accessibility to fetch the latest tree."
    );
    assert_eq!(
        clock.now(),
        before,
        "nothing was sent, nothing was waited for"
    );
    // Still usable.
    let fresh = session.observe().unwrap();
    assert!(
        session
            .act(&Action::Tap(handle_of(&fresh, "Search videos")))
            .is_ok()
    );
}

#[test]
fn acting_before_observing_says_what_to_do() {
    let (session, _) = session();
    let handle: Handle = "0123456789ab_1".parse().unwrap();
    let err = session.act(&Action::Tap(handle)).unwrap_err();
    assert!(
        err.to_string()
            .contains("call screen_operation_accessibility first"),
        "{err}"
    );
    assert!(
        session.act(&Action::Key(Key::Home)).is_ok(),
        "keys need no snapshot"
    );
}

#[test]
fn scrolling_starts_at_seventy_percent_and_recognises_the_end_of_the_list() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let mut feed = session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap()
        .observation;
    let list = scrollable(&feed);
    let node = crate::handle::resolve(&feed.pruned, &list).unwrap();
    let area = node.visible;
    let mut bottomed = false;
    for _ in 0..12 {
        let target = scrollable(&feed);
        let outcome = session
            .act(&Action::Scroll {
                target,
                direction: Direction::Down,
            })
            .unwrap();
        let [from, to] = outcome.path[..] else {
            panic!("a scroll is one swipe")
        };
        assert_eq!(
            from.y,
            area.top + (f64::from(area.height()) * 0.7).round() as i32
        );
        assert!(to.y < from.y);
        feed = outcome.observation;
        if outcome.bottomed_out {
            bottomed = true;
            break;
        }
    }
    assert!(bottomed, "the list never reported its end");
}

#[test]
fn a_screen_that_never_settles_returns_at_the_ceiling() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let outcome = session
        .act(&Action::Tap(handle_of(&home, "Live TV")))
        .unwrap();
    assert!(!outcome.settle.settled);
    assert_eq!(outcome.settle.total, SettleConfig::default().ceiling);
}

#[test]
fn a_self_drawn_screen_carries_a_downsampled_screenshot_and_pixel_taps_scale() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let game = session
        .act(&Action::Tap(handle_of(&home, "Blocks")))
        .unwrap()
        .observation;
    let fallback = game.fallback.as_ref().expect("fallback screenshot");
    assert_eq!(
        fallback.display,
        crate::Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(fallback.image.height, 1024);
    assert_eq!(fallback.image.width, 461);
    assert!(fallback.rule.contains("1080"), "{}", fallback.rule);
    let image = image::load_from_memory(&fallback.png).unwrap();
    assert_eq!((image.width(), image.height()), (461, 1024));
    assert!(game.screenshot_at.is_some());
    let outcome = session
        .act(&Action::TapImage(Point::new(460, 1023)))
        .unwrap();
    // The last image pixel stands for the display pixel under its centre.
    assert_eq!(outcome.path, [Point::new(1078, 2398)]);
    let err = session
        .act(&Action::TapImage(Point::new(461, 0)))
        .unwrap_err();
    assert!(matches!(err, SessionError::Scale(_)), "{err}");
}

#[test]
fn scrolling_something_that_does_not_scroll_is_refused() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let target = handle_of(&home, "TapTube");
    let err = session
        .act(&Action::Scroll {
            target,
            direction: Direction::Down,
        })
        .unwrap_err();
    assert!(err.to_string().contains("cannot scroll"), "{err}");
}

#[test]
fn two_callers_never_act_on_a_screen_they_did_not_see() {
    let (session, _) = session();
    let session = std::sync::Arc::new(session);
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let session = session.clone();
            std::thread::spawn(move || {
                let mut acted = 0;
                for _ in 0..6 {
                    let seen = session.observe().expect("observe");
                    let node = seen
                        .pruned
                        .nodes
                        .iter()
                        .find(|n| n.i.is_some() && !n.label.is_empty())
                        .expect("something to tap");
                    let label = crate::prune::truncate(&node.label, 40);
                    let handle = seen.handle_where(|n| n.raw == node.raw).expect("a handle");
                    // The other caller may have moved the screen on: then the handle is
                    // refused as stale; otherwise it acts on exactly what this caller saw.
                    match session.act(&Action::Tap(handle)) {
                        Ok(outcome) => {
                            assert!(outcome.acted_on.contains(&label), "{}", outcome.acted_on);
                            acted += 1;
                        }
                        Err(SessionError::Handle(HandleError::Stale { .. })) => {}
                        Err(e) => panic!("{e}"),
                    }
                    session.act(&Action::Key(Key::Back)).expect("back");
                }
                acted
            })
        })
        .collect();
    let acted: usize = workers
        .into_iter()
        .map(|w| w.join().expect("no panic"))
        .sum();
    assert!(acted > 0, "some taps went through");
}

/// The simulated phone, unplugged for a while: every call fails until it is plugged back.
/// It counts its screenshots.
struct Unpluggable {
    sim: Sim<VirtualClock>,
    unplugged: bool,
    screencaps: usize,
}

impl crate::device::Device for Unpluggable {
    fn name(&self) -> String {
        "unpluggable".into()
    }
    fn dump(&mut self) -> Result<String, DeviceError> {
        if self.unplugged {
            return Err(DeviceError::Disconnected("the cable was pulled".into()));
        }
        self.sim.dump()
    }
    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        self.screencaps += 1;
        self.sim.screenshot_png()
    }
    fn display(&mut self) -> Result<crate::device::Display, DeviceError> {
        self.sim.display()
    }
    fn tap(&mut self, at: Point) -> Result<(), DeviceError> {
        self.sim.tap(at)
    }
    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError> {
        self.sim.long_press(at, duration)
    }
    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError> {
        self.sim.swipe(from, to, duration)
    }
    fn input_text(&mut self, text: &str) -> Result<(), DeviceError> {
        self.sim.input_text(text)
    }
    fn key(&mut self, key: Key) -> Result<(), DeviceError> {
        self.sim.key(key)
    }
    fn last_event_at(&mut self) -> Option<Duration> {
        self.sim.last_event_at()
    }
    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        self.sim.packages()
    }
    fn launch(&mut self, package: &str) -> Result<(), DeviceError> {
        self.sim.launch(package)
    }
}

fn unpluggable() -> Session<Unpluggable, VirtualClock> {
    let clock = VirtualClock::default();
    let device = Unpluggable {
        sim: Sim::new(clock.clone(), 7),
        unplugged: false,
        screencaps: 0,
    };
    Session::new(device, clock, SessionConfig::default())
}

#[test]
fn a_device_that_disconnects_mid_action_is_an_error_and_the_session_recovers() {
    let session = unpluggable();
    let home = session.observe().unwrap();
    session.with_device(|d| d.unplugged = true);
    let err = session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap_err();
    assert!(err.to_string().contains("the device disconnected"), "{err}");
    assert!(session.observe().is_err());
    session.with_device(|d| d.unplugged = false);
    let back = session.observe().expect("usable again");
    assert_ne!(back.version, home.version);
}

#[test]
fn a_screen_is_peeked_once_per_version() {
    let session = unpluggable();
    let screencaps =
        |session: &Session<Unpluggable, VirtualClock>| session.with_device(|d| d.screencaps);
    let home = session.observe().unwrap();
    let first = session.peek_screenshot().expect("a screenshot");
    let again = session.peek_screenshot().expect("the same screenshot");
    assert_eq!(first.png, again.png);
    assert_eq!(
        screencaps(&session),
        1,
        "the recording and a viewer share it"
    );
    session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap();
    session.peek_screenshot().expect("the new screen's");
    assert_eq!(screencaps(&session), 2, "a new version is a new screenshot");
    // Pixel actions still need the agent's own screenshot.
    assert!(session.screenshot_version().is_none());
}

#[test]
fn bad_text_and_off_display_swipes_are_refused_with_reasons() {
    let (session, _) = session();
    session.observe().unwrap();
    let err = session.act(&Action::InputText(String::new())).unwrap_err();
    assert!(
        matches!(err, SessionError::Device(DeviceError::InvalidInput(_))),
        "{err}"
    );
    let err = session
        .act(&Action::InputText("x".repeat(1_000_000)))
        .unwrap_err();
    assert!(matches!(err, SessionError::TextTooLong(1_000_000)), "{err}");
    assert!(err.is_refusal());
    let swipe = Action::Swipe {
        from: Point::new(10, 10),
        to: Point::new(5000, 10),
        duration: Duration::from_millis(300),
    };
    assert!(matches!(
        session.act(&swipe).unwrap_err(),
        SessionError::Device(DeviceError::InvalidInput(_))
    ));
    assert!(session.observe().is_ok(), "still usable");
}

#[test]
fn screenshot_pixels_scale_to_the_display_and_need_a_screenshot_first() {
    let (session, _) = session();
    session.observe().unwrap();
    let tap = Action::TapImage(Point::new(100, 100));
    assert!(matches!(
        session.act(&tap).unwrap_err(),
        SessionError::NoScreenshot
    ));
    let shot = session.screenshot().unwrap();
    assert_eq!(
        shot.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(shot.image.height, 1024);
    assert_eq!(
        session.screenshot_version(),
        session.latest().map(|o| o.version.clone())
    );
    let outcome = session.act(&tap).unwrap();
    let expected = shot.scale().image_to_display(Point::new(100, 100)).unwrap();
    assert_eq!(outcome.path, vec![expected]);
    assert!(expected.y > 200, "scaled up from the image: {expected}");
}

#[test]
fn swiping_across_a_node_moves_the_finger_that_way() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let target = handle_of(&home, "TapTube");
    let outcome = session
        .act(&Action::SwipeAcross {
            target,
            direction: Direction::Left,
        })
        .unwrap();
    let [from, to] = outcome.path[..] else {
        panic!("a two-point path: {:?}", outcome.path)
    };
    assert!(from.x > to.x, "the finger moves left: {from} -> {to}");
    assert_eq!(from.y, to.y);
}

#[test]
fn the_same_screen_keeps_its_version_and_its_handles() {
    let (session, _) = session();
    let home = session.observe().unwrap();
    let again = session.observe().unwrap();
    assert_eq!(
        again.version, home.version,
        "nothing changed: the same version"
    );
    // A handle from the first look still acts: its screen is still there.
    let feed = session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap()
        .observation;
    assert_ne!(
        feed.version, home.version,
        "another screen, another version"
    );
    // Back on the launcher, its version and handles are the launcher's again.
    let back = session.act(&Action::Key(Key::Back)).unwrap().observation;
    assert_eq!(back.version, home.version);
    assert!(
        session
            .act(&Action::Tap(handle_of(&home, "Settings")))
            .is_ok()
    );
    // The version is the hash of what the agent reads below the version line.
    let body = back.text.split_once('\n').unwrap().1;
    assert_eq!(back.version, crate::render::content_version(body));
    // Once the screen is gone, its handles are stale.
    let launcher = handle_of(&back, "Settings");
    let settings = session.observe().unwrap();
    assert_ne!(
        settings.version, back.version,
        "the Settings screen is another"
    );
    assert!(matches!(
        session.act(&Action::Tap(launcher)),
        Err(SessionError::Handle(_))
    ));
}
