//! The app's own log lines and `sim-next`'s crash on a virtual clock: the feed's line by
//! the app's pid, the Account button's crash written as Android 14 writes one and read
//! back by tapscope's crash finder, the launcher after it, a new pid for the app opened
//! again, and the current build's Account button opening Settings as before.

use super::*;
use crate::device::sim::log::{Buffer, Priority};
use crate::logcat::{CrashKind, LogRequest, crashes, parse};

const TAPTUBE: &str = "tv.tapscope.demo";

/// A phone of `build` on TapTube's feed, opened from the launcher and settled.
fn on_the_feed(build: Build) -> (Sim<VirtualClock>, VirtualClock) {
    let mut clock = VirtualClock::new();
    let mut sim = Sim::with_build(clock.clone(), 7, build);
    let icon = if build == Build::Next {
        "TapTube Video"
    } else {
        "TapTube"
    };
    tap_label(&mut sim, icon);
    clock.sleep(Duration::from_secs(5));
    assert_eq!(sim.screen_name(), "feed");
    (sim, clock)
}

/// What was written after `mark` to the buffers logcat reads by default, as
/// `(buffer, pid, tid, priority letter, tag, message)`.
fn written_after(
    sim: &Sim<VirtualClock>,
    mark: log::Mark,
) -> Vec<(Buffer, u32, u32, char, String, String)> {
    let (records, _) = sim.read_log(&Buffer::DEFAULT, mark, None);
    records
        .into_iter()
        .map(|r| {
            let e = r.entry;
            (
                r.buffer,
                e.pid,
                e.tid,
                e.priority.letter(),
                e.tag,
                e.message,
            )
        })
        .collect()
}

#[test]
fn the_feed_says_what_it_loaded_by_the_apps_own_pid() {
    let (sim, _) = on_the_feed(Build::Current);
    let pid = sim.running_pid(TAPTUBE).expect("the app runs");
    assert_eq!(pid, app_ids(TAPTUBE).0, "a first start keeps the fixed pid");
    let request = LogRequest {
        pid: Some(pid),
        ..LogRequest::default()
    };
    let lines = parse(&sim.logcat_text(&request).unwrap()).lines;
    let own: Vec<String> = lines.iter().map(ToString::to_string).collect();
    assert_eq!(
        own,
        [format!(
            "12-01 00:00:00.000 {pid:>5} {pid:>5} D TapTube : feed loaded: 12 videos"
        )]
    );
}

#[test]
fn next_builds_account_button_crashes_the_app_as_android_14_logs_it() {
    let (mut sim, clock) = on_the_feed(Build::Next);
    let pid = sim.running_pid(TAPTUBE).expect("the app runs");
    let mark = sim.log_end();
    let at = clock.now();
    tap_label(&mut sim, "Account");
    let exception = "java.lang.NullPointerException: Attempt to invoke virtual method \
                     'java.lang.String tv.tapscope.demo.Account.name()' on a null object reference";
    let crashed = |message: &str| {
        (
            Buffer::Crash,
            pid,
            pid,
            'E',
            "AndroidRuntime".to_owned(),
            message.to_owned(),
        )
    };
    let system = |tid: u32, letter: char, tag: &str, message: String| {
        (
            Buffer::System,
            SYSTEM_SERVER,
            tid,
            letter,
            tag.to_owned(),
            message,
        )
    };
    assert_eq!(
        written_after(&sim, mark),
        [
            (
                Buffer::Main,
                SYSTEM_SERVER,
                905,
                'D',
                "InputDispatcher".to_owned(),
                "Injected tap (192, 168) to 7c1a2f0 tv.tapscope.demo/.MainActivity".to_owned()
            ),
            system(
                1604,
                'I',
                "ActivityTaskManager",
                "START u0 {cmp=tv.tapscope.demo/.AccountActivity} with LAUNCH_MULTIPLE from uid \
                 10210 (BAL_ALLOW_VISIBLE_WINDOW) result code=0"
                    .to_owned()
            ),
            crashed("FATAL EXCEPTION: main"),
            crashed(&format!("Process: tv.tapscope.demo, PID: {pid}")),
            crashed(exception),
            crashed("\tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)"),
            crashed("\tat android.app.Activity.performCreate(Activity.java:8595)"),
            crashed("\tat android.app.Activity.performCreate(Activity.java:8573)"),
            crashed(
                "\tat android.app.Instrumentation.callActivityOnCreate(Instrumentation.java:1456)"
            ),
            crashed(
                "\tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3764)"
            ),
            system(
                1604,
                'W',
                "ActivityTaskManager",
                "  Force finishing activity tv.tapscope.demo/.AccountActivity".to_owned()
            ),
            system(
                641,
                'I',
                "ActivityManager",
                format!("Process tv.tapscope.demo (pid {pid}) has died: fg  TOP")
            ),
        ]
    );
    // Read back as an agent reads a phone's log: one crash, named.
    let since = LogRequest {
        since: crate::logcat::Stamp::parse(&log::wall_time(at)),
        ..LogRequest::default()
    };
    let found = crashes(&parse(&sim.logcat_text(&since).unwrap()).lines);
    assert_eq!(found.len(), 1, "{found:?}");
    let crash = &found[0];
    assert_eq!(crash.kind, CrashKind::Exception);
    assert_eq!((crash.process.as_str(), crash.pid), (TAPTUBE, Some(pid)));
    assert_eq!(
        crash.what,
        format!(
            "{exception} at tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)"
        )
    );
    let priorities: Vec<Priority> = parse(&sim.logcat_text(&since).unwrap())
        .lines
        .iter()
        .filter(|l| l.tag == "AndroidRuntime")
        .map(|l| l.priority)
        .collect();
    assert!(
        priorities.iter().all(|&p| p == Priority::Error),
        "{priorities:?}"
    );
}

#[test]
fn after_the_crash_the_launcher_shows_and_the_app_opens_again_with_a_new_pid() {
    let (mut sim, mut clock) = on_the_feed(Build::Next);
    let first = sim.running_pid(TAPTUBE).expect("the app runs");
    // Scrolled, so a state that survived the process would show.
    sim.swipe(
        Point::new(540, 1800),
        Point::new(540, 900),
        Duration::from_millis(200),
    )
    .unwrap();
    settle(&mut clock);
    tap_label(&mut sim, "Account");
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "launcher");
    assert_eq!(sim.package(), "com.google.android.apps.nexuslauncher");
    assert_eq!(sim.running_pid(TAPTUBE), None);
    assert!(sim.history.is_empty(), "the app's task is gone");
    // Back has nowhere to go: the home screen stays.
    sim.key(Key::Back).unwrap();
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "launcher");

    let mark = sim.log_end();
    tap_label(&mut sim, "TapTube Video");
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "feed");
    let second = sim.running_pid(TAPTUBE).expect("the app runs again");
    assert_ne!(second, first, "Android never hands a pid straight back");
    let written = written_after(&sim, mark);
    let started = format!(
        "Start proc {second}:tv.tapscope.demo/u0a210 for top-activity \
         {{tv.tapscope.demo/.MainActivity}}"
    );
    assert!(written.iter().any(|w| w.5 == started), "{written:?}");
    assert!(
        written
            .iter()
            .any(|w| w.1 == second && w.5 == "feed loaded: 12 videos"),
        "{written:?}"
    );
    // The feed as installed: the scroll died with the first process.
    let feed = sim.screens.iter().position(|s| s.name == "feed").unwrap();
    assert!(sim.states[feed].iter().all(|s| s.scroll == 0));
    // Home and back again: the same process, the same pid.
    sim.key(Key::Home).unwrap();
    settle(&mut clock);
    tap_label(&mut sim, "TapTube Video");
    settle(&mut clock);
    assert_eq!(sim.running_pid(TAPTUBE), Some(second));
}

#[test]
fn the_current_builds_account_button_opens_settings_and_crashes_nothing() {
    let (mut sim, mut clock) = on_the_feed(Build::Current);
    let pid = sim.running_pid(TAPTUBE);
    let mark = sim.log_end();
    tap_label(&mut sim, "Account");
    settle(&mut clock);
    assert_eq!(sim.screen_name(), "settings");
    assert_eq!(sim.running_pid(TAPTUBE), pid, "the app still runs");
    let written = written_after(&sim, mark);
    assert!(
        written
            .iter()
            .all(|w| w.0 != Buffer::Crash && !w.5.contains("has died")),
        "{written:?}"
    );
    let all = sim.logcat_text(&LogRequest::default()).unwrap();
    assert!(crashes(&parse(&all).lines).is_empty(), "{all}");
}
