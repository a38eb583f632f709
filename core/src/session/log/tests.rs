//! The log through a session on the sim: the app in front's lines, each read since the
//! last giving only what is new, a step's log, and a crash summarised whoever wrote it.

use std::time::Duration;

use super::*;
use crate::device::sim::log::Buffer;
use crate::device::sim::{Sim, Writer, app_ids};
use crate::session::{Action, Session, SessionConfig};
use crate::stability::{Clock, VirtualClock};

fn session(step_logs: bool) -> (Session<Sim<VirtualClock>, VirtualClock>, VirtualClock) {
    let clock = VirtualClock::default();
    let sim = Sim::new(clock.clone(), 7);
    let config = SessionConfig {
        step_logs,
        ..SessionConfig::default()
    };
    (Session::new(sim, clock.clone(), config), clock)
}

fn open_taptube(session: &Session<Sim<VirtualClock>, VirtualClock>) -> crate::session::Outcome {
    let home = session.observe().unwrap();
    let handle = home
        .handle_where(|n| n.label.contains("TapTube"))
        .expect("TapTube on the launcher");
    session.act(&Action::Tap(handle)).unwrap()
}

/// What `package`'s main thread writes, now.
fn app_writes(
    session: &Session<Sim<VirtualClock>, VirtualClock>,
    package: &str,
    buffer: Buffer,
    priority: Priority,
    tag: &str,
    lines: &[&str],
) {
    let (pid, _) = app_ids(package);
    session.with_device(|sim| {
        for line in lines {
            sim.write_log(buffer, Writer::main(pid), priority, tag, line);
        }
    });
}

#[test]
fn the_front_apps_lines_come_once_each_read_since_the_last() {
    let (session, mut clock) = session(false);
    open_taptube(&session);
    app_writes(
        &session,
        "tv.tapscope.demo",
        Buffer::Main,
        Priority::Debug,
        "TapTube",
        &["feed loaded"],
    );
    app_writes(
        &session,
        "com.android.settings",
        Buffer::Main,
        Priority::Info,
        "Settings",
        &["not the app in front"],
    );
    let first = session.logcat(&LogQuery::default()).unwrap();
    assert_eq!(first.package.as_deref(), Some("tv.tapscope.demo"));
    let messages: Vec<&str> = first
        .report
        .lines
        .iter()
        .map(|l| l.message.as_str())
        .collect();
    assert!(messages.contains(&"feed loaded"), "{messages:?}");
    assert!(!messages.contains(&"not the app in front"), "{messages:?}");
    // Nothing new: nothing again.
    let again = session.logcat(&LogQuery::default()).unwrap();
    assert!(again.report.lines.is_empty(), "{:?}", again.report.lines);
    clock.sleep(Duration::from_millis(5));
    app_writes(
        &session,
        "tv.tapscope.demo",
        Buffer::Main,
        Priority::Warn,
        "TapTube",
        &["slow frame"],
    );
    let third = session.logcat(&LogQuery::default()).unwrap();
    let messages: Vec<&str> = third
        .report
        .lines
        .iter()
        .map(|l| l.message.as_str())
        .collect();
    assert_eq!(messages, ["slow frame"]);
    // From the start, at warnings and up, every process: what `*:W` gives.
    let all = session
        .logcat(&LogQuery {
            scope: LogScope::All,
            since: Since::Start,
            least: Priority::Warn,
            ..LogQuery::default()
        })
        .unwrap();
    assert!(
        all.report
            .lines
            .iter()
            .all(|l| l.priority >= Priority::Warn)
    );
    assert!(all.report.lines.iter().any(|l| l.message == "slow frame"));
}

#[test]
fn a_crash_is_summarised_on_top_even_when_its_lines_are_filtered_out() {
    let (session, _) = session(false);
    open_taptube(&session);
    app_writes(
        &session,
        "tv.tapscope.demo",
        Buffer::Crash,
        Priority::Error,
        "AndroidRuntime",
        &[
            "FATAL EXCEPTION: main",
            "Process: tv.tapscope.demo, PID: 4242",
            "java.lang.IllegalStateException: no account",
            "\tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)",
        ],
    );
    let read = session
        .logcat(&LogQuery {
            tag: Some("TapTube".into()),
            ..LogQuery::default()
        })
        .unwrap();
    assert_eq!(read.report.crashes.len(), 1, "{}", read.report.render());
    assert_eq!(
        read.report.crashes[0].what,
        "java.lang.IllegalStateException: no account at \
         tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)"
    );
    assert!(read.report.render().starts_with("crashes: 1\n"));
    // Another app's crash is not this app's when that app is named.
    let other = session
        .logcat(&LogQuery {
            scope: LogScope::Package("com.android.settings".into()),
            since: Since::Start,
            ..LogQuery::default()
        })
        .unwrap();
    assert!(other.report.crashes.is_empty());
    assert!(
        other
            .report
            .notes
            .iter()
            .any(|n| n.contains("is not running"))
    );
}

#[test]
fn with_step_logs_each_action_carries_what_was_logged_during_it() {
    let (session, _) = session(true);
    let outcome = open_taptube(&session);
    let report = outcome.log.expect("step logs are on");
    let tags: Vec<&str> = report.lines.iter().map(|l| l.tag.as_str()).collect();
    // The touch, and the activity it started.
    assert!(tags.contains(&"InputDispatcher"), "{tags:?}");
    assert!(tags.contains(&"ActivityTaskManager"), "{tags:?}");
    // Off by default: no log, no command spent.
    let (quiet, _) = self::session(false);
    assert!(open_taptube(&quiet).log.is_none());
}

/// A phone before Android 7: its logcat refuses `--pid`; it prints `text` otherwise.
struct OldPhone {
    text: String,
}

impl crate::device::Device for OldPhone {
    fn name(&self) -> String {
        "old".into()
    }
    fn dump(&mut self) -> Result<String, DeviceError> {
        Err(DeviceError::Disconnected("not in this test".into()))
    }
    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        Err(DeviceError::Disconnected("not in this test".into()))
    }
    fn display(&mut self) -> Result<crate::device::Display, DeviceError> {
        Err(DeviceError::Disconnected("not in this test".into()))
    }
    fn tap(&mut self, _: crate::geometry::Point) -> Result<(), DeviceError> {
        Ok(())
    }
    fn long_press(&mut self, _: crate::geometry::Point, _: Duration) -> Result<(), DeviceError> {
        Ok(())
    }
    fn swipe(
        &mut self,
        _: crate::geometry::Point,
        _: crate::geometry::Point,
        _: Duration,
    ) -> Result<(), DeviceError> {
        Ok(())
    }
    fn input_text(&mut self, _: &str) -> Result<(), DeviceError> {
        Ok(())
    }
    fn key(&mut self, _: crate::device::Key) -> Result<(), DeviceError> {
        Ok(())
    }
    fn last_event_at(&mut self) -> Option<Duration> {
        None
    }
    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        Ok(Vec::new())
    }
    fn launch(&mut self, _: &str) -> Result<(), DeviceError> {
        Ok(())
    }
    fn logcat(&mut self, request: &LogRequest) -> Result<String, DeviceError> {
        match request.pid {
            Some(_) => Err(DeviceError::NoLog {
                device: "old".into(),
                why: "logcat: unrecognized option '--pid=42'".into(),
            }),
            None => Ok(self.text.clone()),
        }
    }
    fn pid_of(&mut self, _: &str) -> Result<Option<u32>, DeviceError> {
        Ok(Some(42))
    }
}

#[test]
fn a_phone_without_pid_filters_has_the_apps_lines_picked_from_every_process() {
    let mut phone = OldPhone {
        text: "12-06 10:00:00.000    42    42 I Shop    : cart opened\n\
               12-06 10:00:00.001   587   600 I ActivityManager: someone else\n"
            .into(),
    };
    let (report, package) = read(
        &mut phone,
        &LogQuery::default(),
        "com.example.shop",
        &mut Cursor::default(),
    )
    .unwrap();
    assert_eq!(package.as_deref(), Some("com.example.shop"));
    let messages: Vec<&str> = report.lines.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(messages, ["cart opened"]);
    assert!(report.notes.iter().any(|n| n.contains("has no --pid")));
}
