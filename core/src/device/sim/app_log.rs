//! What the sim's apps write to the log themselves, by their own pid and main thread:
//! TapTube's line as its feed is created (`D TapTube : feed loaded: 12 videos`), and
//! a crash, as Android 14 writes an uncaught exception: an activity whose `onCreate`
//! throws, the app's main thread's `AndroidRuntime` report in the crash buffer, then
//! system_server's `Force finishing activity` and `Process … has died`. After it the
//! process is gone and the home screen shows, as on Android 10 and later after a first
//! crash (no dialog); the app opens again in a new process, with a new pid.

use std::time::Duration;

use super::Sim;
use super::apps;
use super::log::{Buffer, Priority};
use super::screen::AppCrash;
use super::syslog::{AM_TID, Arrival, BINDER_TID, Writer};
use super::view::ItemState;
use crate::stability::Clock;

/// The sim's video app, the one that logs.
const TAPTUBE: &str = "tv.tapscope.demo";
/// The tag its code logs under.
const TAPTUBE_TAG: &str = "TapTube";

impl<C: Clock + Clone + Send> Sim<C> {
    /// What an app's own code logs as screen `index` is created: TapTube's feed says how
    /// many videos it loaded.
    pub(super) fn log_created(&mut self, index: usize) {
        let Some(feed) = self
            .screens
            .get(index)
            .filter(|s| s.package == TAPTUBE && s.name == "feed")
        else {
            return;
        };
        let videos = feed.items.iter().filter(|i| i.id == "video_card").count();
        let line = format!("feed loaded: {videos} videos");
        let pid = self.process(TAPTUBE);
        let writer = Writer::main(pid);
        self.write_log(Buffer::Main, writer, Priority::Debug, TAPTUBE_TAG, &line);
    }

    /// The app in front starts `crash`'s activity, which throws: the crash as Android 14
    /// logs it, the app's process ended, and the home screen sliding in over `length`.
    pub(super) fn crash(&mut self, crash: &AppCrash, length: Duration) {
        let now = self.clock.now();
        let package = self.package_of(self.current);
        let activity = format!("{package}/{}", crash.activity);
        let uid = apps::image_uid(&package);
        let start = format!(
            "START u0 {{cmp={activity}}} with LAUNCH_MULTIPLE from uid {uid} \
             (BAL_ALLOW_VISIBLE_WINDOW) result code=0"
        );
        self.atm(now, BINDER_TID, &start);
        let pid = self.process(&package);
        let report = [
            "FATAL EXCEPTION: main".to_owned(),
            format!("Process: {package}, PID: {pid}"),
            crash.exception.to_owned(),
        ]
        .into_iter()
        .chain(crash.frames.iter().map(|frame| format!("\tat {frame}")));
        for line in report {
            let main = Writer::main(pid);
            self.write_log(
                Buffer::Crash,
                main,
                Priority::Error,
                "AndroidRuntime",
                &line,
            );
        }
        let finishing = format!("  Force finishing activity {activity}");
        let binder = Writer::system(BINDER_TID);
        let tag = "ActivityTaskManager";
        self.write_log(Buffer::System, binder, Priority::Warn, tag, &finishing);
        self.end_process(&package);
        let died = format!("Process {package} (pid {pid}) has died: fg  TOP");
        // Stamped as it is written: on a wall clock time has moved since the crash began,
        // and an earlier stamp would read before the crash it follows.
        let at = self.clock.now();
        self.system(at, Buffer::System, AM_TID, "ActivityManager", &died);
        // What the process held died with it: the app opens again as installed.
        for (screen, states) in self.screens.iter().zip(self.states.iter_mut()) {
            if screen.package == package {
                *states = screen.items.iter().map(ItemState::initial).collect();
            }
        }
        self.history.clear();
        self.go(0, Arrival::Died, length);
    }
}
