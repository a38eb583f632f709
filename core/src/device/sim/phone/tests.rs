//! The sim with a phone's costs on a virtual clock: what a dump, an `input` and a
//! screencap cost, the dump's wait for idle, and the one UiAutomation connection.

use std::time::Duration;

use super::*;
use crate::stability::VirtualClock;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn phone(profile: Profile) -> (SimPhone<VirtualClock>, VirtualClock) {
    let clock = VirtualClock::new();
    (SimPhone::new(clock.clone(), 5, profile), clock)
}

/// How long `f` took on the clock.
fn timed<R>(clock: &VirtualClock, f: impl FnOnce() -> R) -> (R, Duration) {
    let start = clock.now();
    let result = f();
    (result, clock.now() - start)
}

/// Taps the node whose text or description is `label` on the sim itself, at no cost.
fn tap(phone: &SimPhone<VirtualClock>, label: &str) {
    let tree = crate::parse::parse_str(&phone.sim().xml()).unwrap();
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == label || n.desc == label)
        .unwrap_or_else(|| panic!("no node {label:?}"));
    phone.sim().tap(Point::center_of(&node.bounds)).unwrap();
}

#[test]
fn a_dump_of_a_still_screen_costs_what_a_stock_phones_does() {
    let (phone, clock) = phone(Profile::Phone);
    let (xml, took) = timed(&clock, || {
        phone.uiautomator_dump(ms(20_000), &|| false).unwrap()
    });
    // What a stock phone writes: the app's window alone, no status bar.
    assert_eq!(xml, phone.sim().stock_xml());
    // Its start (700–900 ms), a full second without events, the write (200–300 ms).
    assert!(took >= ms(1900) && took <= ms(2300), "{took:?}");
}

#[test]
fn a_dump_waits_out_an_animation_and_shows_the_settled_screen() {
    let (phone, clock) = phone(Profile::Phone);
    tap(&phone, "TapTube"); // a 1.2 s launch
    let (xml, took) = timed(&clock, || {
        phone.uiautomator_dump(ms(20_000), &|| false).unwrap()
    });
    let end = phone.sim().animation_end().unwrap();
    assert!(took >= end + DUMP_QUIET, "{took:?}");
    clock.clone().sleep(Duration::from_secs(5));
    assert_eq!(
        xml,
        phone.sim().stock_xml(),
        "the dump showed the settled feed"
    );
}

#[test]
fn a_dump_of_a_screen_that_never_settles_fails_after_the_idle_timeout_or_the_limit() {
    let (phone, clock) = phone(Profile::Phone);
    tap(&phone, "Live TV");
    let (err, took) = timed(&clock, || {
        phone.uiautomator_dump(ms(60_000), &|| false).unwrap_err()
    });
    assert!(matches!(err, UiAutomationError::NotIdle { waited } if waited == DUMP_IDLE_TIMEOUT));
    assert!(took > DUMP_IDLE_TIMEOUT, "{took:?}");

    let (err, took) = timed(&clock, || {
        phone.uiautomator_dump(ms(5000), &|| false).unwrap_err()
    });
    assert!(matches!(err, UiAutomationError::NotIdle { .. }), "{err:?}");
    assert_eq!(took, ms(5000));
    let device_error = DeviceError::from(err).to_string();
    assert!(device_error.contains("never went idle"), "{device_error}");
}

#[test]
fn the_events_stream_and_a_dump_exclude_each_other() {
    let (phone, _clock) = phone(Profile::Phone);
    let mut events = phone.events().unwrap();
    assert_eq!(
        phone.uiautomator_dump(ms(20_000), &|| false),
        Err(UiAutomationError::Busy(UiClient::Events))
    );
    tap(&phone, "TapTube");
    let first = events.next(ms(500)).expect("the launch raises an event");
    assert_eq!(first.kind.name(), "TYPE_WINDOW_STATE_CHANGED");
    let second = events.next(ms(500)).expect("and more while it slides");
    assert!(second.at > first.at);
    drop(events);
    assert!(phone.uiautomator_dump(ms(20_000), &|| false).is_ok());
    // A second client while a dump holds it is refused too.
    let _dump = phone.claim(UiClient::Dump).unwrap();
    assert!(matches!(
        phone.events(),
        Err(UiAutomationError::Busy(UiClient::Dump))
    ));
}

#[test]
fn input_and_screencap_pay_their_own_starts() {
    let (mut phone, clock) = phone(Profile::Phone);
    let (result, took) = timed(&clock, || phone.key(Key::Home));
    result.unwrap();
    assert!(took >= ms(40) && took <= ms(80), "input: {took:?}");
    let (png, took) = timed(&clock, || phone.screenshot_png().unwrap());
    assert!(png.starts_with(b"\x89PNG"));
    assert!(took >= ms(650) && took <= ms(950), "screencap: {took:?}");
}

#[test]
fn the_same_seed_costs_the_same_and_instant_costs_nothing() {
    let run = |profile| {
        let (mut phone, clock) = phone(profile);
        let mut times = Vec::new();
        for _ in 0..3 {
            let (_, took) = timed(&clock, || phone.dump().unwrap());
            times.push(took);
            let (_, took) = timed(&clock, || phone.key(Key::Back).unwrap());
            times.push(took);
        }
        times
    };
    assert_eq!(run(Profile::Phone), run(Profile::Phone));
    assert_ne!(
        run(Profile::Phone)[0],
        run(Profile::Phone)[2],
        "costs vary per call"
    );
    // Instant: no process costs, but a dump still waits its second of quiet, as stock does.
    let instant = run(Profile::Instant);
    assert_eq!(instant[0], DUMP_QUIET);
    assert_eq!(instant[1], Duration::ZERO);
}

#[test]
fn it_tells_the_settle_wait_what_its_dump_promises() {
    let (phone, _) = phone(Profile::Phone);
    assert_eq!(
        phone.dumps(),
        Dumps::AfterIdle {
            quiet: DUMP_QUIET,
            watches_after: ms(700),
        }
    );
    assert_eq!(phone.name(), "sim:phone");
}
