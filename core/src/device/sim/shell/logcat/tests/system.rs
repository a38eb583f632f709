//! What the system and the app write to the sim's log as the sim is driven (taps, keys,
//! launches, `app_process`, `sim-next`'s crash and the new pid after it), read back with
//! `logcat` on literal lines, and a streaming `logcat` that ends when its caller hangs up,
//! `pkill` ends it or `-m` is reached. Time is the virtual clock's.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{Shared, advance, quiet_shell, run, write};
use crate::device::adbd::Backend;
use crate::device::sim::Build;
use crate::device::sim::costs::Profile;
use crate::device::sim::log::{Buffer, Priority};
use crate::device::sim::shell::SimShell;
use crate::stability::VirtualClock;

#[test]
fn the_system_writes_what_a_phone_does_as_the_sim_is_driven() {
    let shell = quiet_shell();
    // TapTube's launcher icon, then back.
    assert_eq!(run(&shell, "input tap 160 430").0, 0);
    assert_eq!(
        run(&shell, "logcat -d").1,
        "--------- beginning of main\n\
         12-01 00:00:00.000   587   905 D InputDispatcher: Injected tap (160, 430) to 7c1a2f0 \
         com.google.android.apps.nexuslauncher/.NexusLauncherActivity\n\
         --------- beginning of system\n\
         12-01 00:00:00.000   587  1604 I ActivityTaskManager: START u0 \
         {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 \
         cmp=tv.tapscope.demo/.MainActivity} with LAUNCH_MULTIPLE from uid 10192 \
         (BAL_ALLOW_ALLOWLISTED_COMPONENT) result code=0\n\
         12-01 00:00:00.000   587   641 I ActivityManager: Start proc 11733:tv.tapscope.demo/u0a210 \
         for top-activity {tv.tapscope.demo/.MainActivity}\n\
         12-01 00:00:00.000 11733 11733 D TapTube : feed loaded: 12 videos\n"
    );
    // The launch time is written once the first frame is drawn: the animation's end.
    advance(&shell, Duration::from_millis(1200));
    assert_eq!(
        run(&shell, "logcat -d -s ActivityTaskManager:I -v brief").1,
        "--------- beginning of main\n--------- beginning of system\n\
         I/ActivityTaskManager(  587): START u0 {act=android.intent.action.MAIN \
         cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=tv.tapscope.demo/.MainActivity} \
         with LAUNCH_MULTIPLE from uid 10192 (BAL_ALLOW_ALLOWLISTED_COMPONENT) result code=0\n\
         I/ActivityTaskManager(  587): Displayed tv.tapscope.demo/.MainActivity for user 0: +1s200ms\n"
    );
    assert_eq!(
        run(
            &shell,
            "logcat -b all -c; input keyevent KEYCODE_BACK; input text hi"
        )
        .0,
        0
    );
    assert_eq!(
        run(&shell, "logcat -d -b all -v tag").1,
        "--------- beginning of main\n\
         D/InputDispatcher: Injected key KEYCODE_BACK to 7c1a2f0 tv.tapscope.demo/.MainActivity\n\
         --------- beginning of events\n\
         I/wm_finish_activity: [0,166971044,12,tv.tapscope.demo/.MainActivity,app-request]\n\
         I/input_focus: [Focus leaving 7c1a2f0 tv.tapscope.demo/.MainActivity,reason=setFocusedWindow]\n\
         I/input_focus: [Focus entering 7c1a2f0 com.google.android.apps.nexuslauncher/.NexusLauncherActivity,reason=setFocusedWindow]\n\
         I/wm_set_resumed_activity: [0,com.google.android.apps.nexuslauncher/.NexusLauncherActivity,resumeTopActivity - onActivityStateChanged]\n\
         D/InputDispatcher: Injected text (2 characters) to 7c1a2f0 \
         com.google.android.apps.nexuslauncher/.NexusLauncherActivity\n"
    );
}

#[test]
fn app_process_logs_its_runtime_and_why_it_aborted() {
    let shell = quiet_shell();
    let (status, _, err) = run(
        &shell,
        "CLASSPATH=/data/local/tmp/none.jar app_process / com.nope.Main",
    );
    assert_eq!((status, err.as_str()), (134, "Aborted\n"));
    assert_eq!(
        run(&shell, "logcat -d -b main,crash").1,
        "--------- beginning of main\n\
         12-01 00:00:00.000 24001 24001 D AndroidRuntime: >>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<\n\
         12-01 00:00:00.000 24001 24001 I AndroidRuntime: Using default boot image\n\
         12-01 00:00:00.000 24001 24001 I AndroidRuntime: Leaving lock profiling enabled\n\
         12-01 00:00:00.000 24001 24001 E appproc : ERROR: could not find class 'com.nope.Main'\n\
         --------- beginning of crash\n\
         12-01 00:00:00.000 24001 24001 F libc    : Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 24001 (main), pid 24001 (main)\n"
    );
    // uiautomator2's server: its runtime calls its main, in a process of its own.
    shell
        .write_file("/data/local/tmp/u2.jar", b"PK\x03\x04", false)
        .expect("the jar is written");
    let hung_up = Shared::default();
    hung_up.closed.store(true, Ordering::SeqCst);
    let mut output = hung_up.clone();
    let line = "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008";
    assert_eq!(shell.run(line, &mut output), 129);
    let out = run(&shell, "logcat -d -s AndroidRuntime -v process").1;
    assert!(
        out.ends_with("D(24002) Calling main entry com.wetest.uia2.Main  (AndroidRuntime)\n"),
        "{out}"
    );
}

#[test]
fn a_stream_prints_new_lines_until_its_caller_hangs_up_or_pkill() {
    let shell = quiet_shell();
    write(&shell, Buffer::Main, 4321, Priority::Info, "Old", "before");
    let shell = &shell;
    for (end, status) in [("hang up", 129), ("pkill", 143)] {
        let stream = Shared::default();
        std::thread::scope(|scope| {
            let mut output = stream.clone();
            let logcat = scope.spawn(move || shell.run("logcat -v raw Old New *:S", &mut output));
            while !stream.printed().contains("before\n") {
                std::thread::yield_now();
            }
            write(shell, Buffer::Main, 4321, Priority::Info, "New", end);
            while !stream.printed().contains(end) {
                std::thread::yield_now();
            }
            if end == "pkill" {
                assert_eq!(run(shell, "pkill -f 'logcat -v raw'").0, 0);
            } else {
                stream.closed.store(true, Ordering::SeqCst);
            }
            assert_eq!(logcat.join().unwrap(), status, "{end}");
        });
        assert!(
            stream.printed().ends_with(&format!("{end}\n")),
            "{}",
            stream.printed()
        );
    }
    // `-m` ends it too, once it has printed that many.
    let stream = Shared::default();
    std::thread::scope(|scope| {
        let mut output = stream.clone();
        let logcat = scope.spawn(move || shell.run("logcat -T 1 -m 2 -v raw -s New", &mut output));
        while !stream.printed().contains("pkill") {
            std::thread::yield_now();
        }
        write(shell, Buffer::Main, 4321, Priority::Info, "New", "third");
        assert_eq!(logcat.join().unwrap(), 0);
    });
    assert_eq!(
        stream.printed(),
        "--------- beginning of main\npkill\nthird\n"
    );
}

#[test]
fn sim_nexts_account_crash_reads_as_a_phones_and_pidof_follows_the_process() {
    let shell = SimShell::with_build(VirtualClock::new(), 3, Profile::Instant, Build::Next);
    let open = "monkey -p tv.tapscope.demo -c android.intent.category.LAUNCHER 1";
    assert_eq!(run(&shell, open).0, 0);
    advance(&shell, Duration::from_secs(1));
    assert_eq!(run(&shell, "pidof tv.tapscope.demo").1, "11733\n");
    // The feed's Account button, left by the logo on sim-next.
    assert_eq!(run(&shell, "logcat -b all -c; input tap 192 168").0, 0);
    assert_eq!(
        run(&shell, "logcat -d -b crash,system -v brief").1,
        "--------- beginning of system\n\
         I/ActivityTaskManager(  587): START u0 {cmp=tv.tapscope.demo/.AccountActivity} with \
         LAUNCH_MULTIPLE from uid 10210 (BAL_ALLOW_VISIBLE_WINDOW) result code=0\n\
         --------- beginning of crash\n\
         E/AndroidRuntime(11733): FATAL EXCEPTION: main\n\
         E/AndroidRuntime(11733): Process: tv.tapscope.demo, PID: 11733\n\
         E/AndroidRuntime(11733): java.lang.NullPointerException: Attempt to invoke virtual \
         method 'java.lang.String tv.tapscope.demo.Account.name()' on a null object reference\n\
         E/AndroidRuntime(11733): \tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)\n\
         E/AndroidRuntime(11733): \tat android.app.Activity.performCreate(Activity.java:8595)\n\
         E/AndroidRuntime(11733): \tat android.app.Activity.performCreate(Activity.java:8573)\n\
         E/AndroidRuntime(11733): \tat android.app.Instrumentation.callActivityOnCreate(Instrumentation.java:1456)\n\
         E/AndroidRuntime(11733): \tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3764)\n\
         W/ActivityTaskManager(  587):   Force finishing activity tv.tapscope.demo/.AccountActivity\n\
         I/ActivityManager(  587): Process tv.tapscope.demo (pid 11733) has died: fg  TOP\n"
    );
    // Gone: no process, no task, the launcher in front.
    assert_eq!(run(&shell, "pidof tv.tapscope.demo; echo $?").1, "1\n");
    let activities = run(&shell, "dumpsys activity activities").1;
    assert!(!activities.contains("tv.tapscope.demo"), "{activities}");
    assert!(
        activities.contains("mResumedActivity: ActivityRecord{")
            && activities.contains(" com.google.android.apps.nexuslauncher/"),
        "{activities}"
    );
    // Opened again: a new process, its pid the same in the log, `pidof` and `dumpsys`.
    assert_eq!(run(&shell, open).0, 0);
    advance(&shell, Duration::from_secs(1));
    assert_eq!(run(&shell, "pidof tv.tapscope.demo").1, "24001\n");
    let started = run(&shell, "logcat -d -s ActivityManager:I -v tag").1;
    assert!(
        started.ends_with(
            "I/ActivityManager: Start proc 24001:tv.tapscope.demo/u0a210 for top-activity \
             {tv.tapscope.demo/.MainActivity}\n"
        ),
        "{started}"
    );
    assert!(
        run(&shell, "dumpsys activity top")
            .1
            .contains(" pid=24001\n")
    );
}
