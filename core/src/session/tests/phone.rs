//! The session on the sim with a phone's costs (`sim:phone`): an action spends one dump,
//! whose tree is the one returned, and a screen that never settles is an error within the
//! ceiling that leaves no handle usable.

use std::time::Duration;

use crate::device::sim::costs::Profile;
use crate::device::sim::phone::SimPhone;
use crate::session::*;
use crate::stability::{DecidedBy, VirtualClock};

fn phone_session() -> (Session<SimPhone<VirtualClock>, VirtualClock>, VirtualClock) {
    let clock = VirtualClock::default();
    let phone = SimPhone::new(clock.clone(), 7, Profile::Phone);
    (
        Session::new(phone, clock.clone(), SessionConfig::default()),
        clock,
    )
}

fn handle_of(observation: &Observation, text: &str) -> Handle {
    observation
        .handle_where(|n| n.label.contains(text))
        .unwrap_or_else(|| panic!("no actionable {text:?} in\n{}", observation.text))
}

#[test]
fn an_action_spends_one_dump_and_returns_the_tree_that_dump_read() {
    let (session, clock) = phone_session();
    let home = session.observe().unwrap();
    let started = clock.now();
    let outcome = session
        .act(&Action::Tap(handle_of(&home, "TapTube")))
        .unwrap();
    let took = clock.now() - started;
    let settle = outcome.settle;
    assert!(settle.settled, "{settle:?}");
    assert_eq!((settle.dumps, settle.polls), (1, 1));
    assert_eq!(settle.decided_by, Some(DecidedBy::IdleDump));
    // Nothing after the wait: the call ends when its one dump does.
    assert_eq!(took, settle.total);
    // The 1.2 s launch, then a second without events, then the dump's write.
    assert!(took >= Duration::from_millis(2200), "{took:?}");
    assert!(took <= Duration::from_millis(2900), "{took:?}");
    // What came back is the settled feed.
    let settled = session.with_device(|phone| phone.sim().xml());
    assert_eq!(outcome.observation.raw, settled);
    assert!(outcome.observation.text.contains("more: ["));
}

#[test]
fn a_self_drawn_screen_costs_one_screencap_and_no_second_dump() {
    let (session, clock) = phone_session();
    let home = session.observe().unwrap();
    let started = clock.now();
    let outcome = session
        .act(&Action::Tap(handle_of(&home, "Blocks")))
        .unwrap();
    let took = clock.now() - started;
    assert!(outcome.observation.fallback.is_some());
    assert_eq!(outcome.settle.dumps, 1);
    // The dump, then one screencap (650–950 ms); a second dump would add 2 s.
    let screencap = took - outcome.settle.total;
    assert!(
        screencap >= Duration::from_millis(650) && screencap <= Duration::from_millis(950),
        "{screencap:?}"
    );
}

#[test]
fn a_screen_that_never_settles_is_an_error_at_the_ceiling_and_old_handles_are_refused() {
    let (session, clock) = phone_session();
    let home = session.observe().unwrap();
    let live = handle_of(&home, "Live TV");
    let started = clock.now();
    let err = session.act(&Action::Tap(live)).unwrap_err();
    let took = clock.now() - started;
    assert_eq!(
        took,
        SettleConfig::default().ceiling,
        "never past the ceiling"
    );
    let SessionError::AfterAction {
        acted_on, settle, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert!(acted_on.contains("Live TV"), "{acted_on}");
    assert_eq!((settle.settled, settle.dumps), (false, 1));
    let message = err.to_string();
    assert!(message.contains("never went idle"), "{message}");
    assert!(
        message.contains("screen_operation_accessibility"),
        "{message}"
    );
    assert!(!err.is_refusal());

    // The screen moved on: a handle from the launcher must not act on it.
    let again = session.act(&Action::Tap(handle_of(&home, "TapTube")));
    assert!(matches!(again, Err(SessionError::NotObserved)), "{again:?}");
}
