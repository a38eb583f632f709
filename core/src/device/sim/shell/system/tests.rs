//! The system services' commands on literal output: `pm`/`cmd package`, `am`, `dumpsys`,
//! `settings`, `content` of the settings, `getprop`, each as the tools that parse them
//! read it (adbutils' regexes, mobile-mcp's line filters, tapscope's own parsers).

use super::super::*;
use crate::device::adb::text::parse_orientation;
use crate::device::adb_output::{parse_packages, parse_wm_size};
use crate::device::sim::costs::Profile;
use crate::device::sim::shell::tests::run;
use crate::stability::VirtualClock;

/// Its stdout alone, the command having worked.
fn out(shell: &SimShell<VirtualClock>, line: &str) -> String {
    let (status, out, err) = run(shell, line);
    assert_eq!((status, err.as_str()), (0, ""), "{line}");
    out
}

fn shell() -> SimShell<VirtualClock> {
    SimShell::new(VirtualClock::new(), 5, Profile::Instant)
}

const IMAGE_PACKAGES: &str = "package:android\npackage:com.android.settings\n\
    package:com.android.shell\npackage:com.android.systemui\n\
    package:com.google.android.apps.nexuslauncher\npackage:com.google.android.inputmethod.latin\n\
    package:com.google.android.permissioncontroller\npackage:tv.tapscope.blocks\n\
    package:tv.tapscope.demo\n";

#[test]
fn pm_and_cmd_package_list_the_image_and_portal() {
    let shell = shell();
    assert_eq!(out(&shell, "pm list packages"), IMAGE_PACKAGES);
    assert_eq!(out(&shell, "cmd package list packages"), IMAGE_PACKAGES);
    assert_eq!(
        parse_packages(IMAGE_PACKAGES),
        parse_packages(&out(&shell, "pm list packages -f"))
    );
    assert_eq!(
        out(&shell, "pm list packages -f tapscope.demo"),
        "package:/product/app/TapTube/TapTube.apk=tv.tapscope.demo\n"
    );
    assert_eq!(
        out(&shell, "pm list packages -U -s blocks"),
        "package:tv.tapscope.blocks uid:10211\n"
    );
    assert_eq!(out(&shell, "pm list packages -3"), "");
    assert_eq!(
        run(&shell, "pm list packages -x"),
        (255, "Error: Unknown option: -x\n".into(), String::new())
    );
    shell.install_portal();
    assert_eq!(
        out(&shell, "pm list packages -3 --show-versioncode"),
        "package:com.mobilerun.portal versionCode:72\n"
    );
    assert_eq!(
        out(&shell, "pm path com.mobilerun.portal"),
        "package:/data/app/com.mobilerun.portal-1/base.apk\n"
    );
    assert_eq!(
        out(&shell, "pm path tv.tapscope.demo"),
        "package:/product/app/TapTube/TapTube.apk\n"
    );
    assert_eq!(
        run(&shell, "pm path com.example.none"),
        (1, "".into(), "".into())
    );
}

#[test]
fn features_are_a_phones_sorted_with_the_gl_version_first() {
    let shell = shell();
    let listed = out(&shell, "pm list features");
    let names: Vec<&str> = listed
        .lines()
        .map(|l| l.strip_prefix("feature:").expect("feature:"))
        .collect();
    assert_eq!(names[0], "reqGlEsVersion=0x30002");
    assert!(names[1..].is_sorted(), "{names:?}");
    assert!(names.contains(&"android.hardware.touchscreen"));
    // mobile-mcp tells a TV by these: the sim is a phone.
    assert!(!listed.contains("leanback") && !listed.contains("television"));
    assert_eq!(run(&shell, "pm has-feature android.hardware.wifi").0, 0);
    assert_eq!(run(&shell, "pm has-feature android.software.leanback").0, 1);
}

#[test]
fn launcher_activities_are_queried_and_resolved_as_android_prints_them() {
    let shell = shell();
    let brief = out(
        &shell,
        "cmd package query-activities --brief -a android.intent.action.MAIN -c \
         android.intent.category.LAUNCHER",
    );
    let line = "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n";
    assert_eq!(
        brief,
        format!(
            "3 activities found:\n  Activity #0:\n{line}    com.android.settings/.Settings\n  \
             Activity #1:\n{line}    tv.tapscope.blocks/.MainActivity\n  Activity #2:\n{line}    \
             tv.tapscope.demo/.MainActivity\n"
        )
    );
    // mobile-mcp's listApps: the `packageName=` lines of the full dump, once each.
    let full = out(
        &shell,
        "cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER",
    );
    let mut apps: Vec<&str> = full
        .lines()
        .filter_map(|l| l.trim().strip_prefix("packageName="))
        .collect();
    apps.dedup();
    assert_eq!(
        apps,
        [
            "com.android.settings",
            "tv.tapscope.blocks",
            "tv.tapscope.demo"
        ]
    );
    assert!(
        full.contains("      name=tv.tapscope.demo.MainActivity\n"),
        "{full}"
    );
    assert_eq!(
        out(
            &shell,
            "pm query-activities --components -c android.intent.category.LAUNCHER tv.tapscope.demo"
        ),
        "tv.tapscope.demo/.MainActivity\n"
    );
    assert_eq!(
        out(
            &shell,
            "cmd package resolve-activity --brief tv.tapscope.demo"
        ),
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n\
         tv.tapscope.demo/.MainActivity\n"
    );
    assert_eq!(
        out(
            &shell,
            "pm resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.HOME"
        ),
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n\
         com.google.android.apps.nexuslauncher/.NexusLauncherActivity\n"
    );
    assert_eq!(
        out(&shell, "pm resolve-activity --brief com.example.none"),
        "No activity found\n"
    );
    assert_eq!(
        out(
            &shell,
            "pm query-activities -a android.intent.action.VIEW -d https://example.com"
        ),
        "No activities found\n"
    );
}

#[test]
fn clear_resets_an_app_and_stops_it_uninstall_removes_portal_only() {
    let shell = shell();
    out(&shell, "am start -n com.android.settings/.Settings");
    let screen = shell.phone().sim().current;
    shell.phone().sim().states[screen][0].checked ^= true;
    assert_eq!(out(&shell, "pm clear com.android.settings"), "Success\n");
    let sim = shell.phone().sim();
    assert_eq!(sim.screen_name(), "launcher", "stopped, home shows");
    let initial = crate::device::sim::view::ItemState::initial(&sim.screens[screen].items[0]);
    assert_eq!(sim.states[screen][0].checked, initial.checked);
    drop(sim);
    assert_eq!(
        run(&shell, "pm clear com.example.none"),
        (1, "".into(), "Failed\n".into())
    );

    let refused = (
        1,
        "Failure [DELETE_FAILED_INTERNAL_ERROR]\n".to_owned(),
        String::new(),
    );
    assert_eq!(run(&shell, "pm uninstall com.example.none"), refused);
    assert_eq!(run(&shell, "pm uninstall tv.tapscope.demo"), refused);
    assert_eq!(
        run(
            &shell,
            "cmd package uninstall -k --user 0 com.android.settings"
        ),
        refused
    );
    shell.install_portal();
    assert_eq!(
        out(&shell, "pm uninstall com.mobilerun.portal"),
        "Success\n"
    );
    assert_eq!(out(&shell, "pm list packages portal"), "");
    assert_eq!(run(&shell, "pm uninstall com.mobilerun.portal"), refused);
}

#[test]
fn install_parses_the_file_first_and_the_sim_runs_no_apk() {
    let shell = shell();
    shell.write_own_file("/data/local/tmp/not.apk", b"hello\n");
    // A push install, as adb 1.0.41 runs it on a device without `cmd`.
    let (status, stdout, stderr) = run(&shell, "pm 'install' '-r' '/data/local/tmp/not.apk'");
    assert_eq!((status, stdout.as_str()), (255, ""));
    assert!(
        stderr.starts_with(
            "\nException occurred while executing 'install':\njava.lang.IllegalArgumentException: \
             Error: Failed to parse APK file: /data/local/tmp/not.apk: Failed to parse \
             /data/local/tmp/not.apk\n\tat com.android.server.pm.PackageManagerShellCommand.setParamsSize("
        ),
        "{stderr}"
    );
    assert!(stderr.contains(
        "Caused by: java.io.IOException: Failed to load asset path /data/local/tmp/not.apk\n"
    ));
    // Streamed from stdin, the session's commit parses it.
    let (status, stdout, _) = run(&shell, "cat /data/local/tmp/not.apk | pm install -S 6");
    assert_eq!(status, 1);
    let staged = stdout
        .strip_prefix("Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ")
        .and_then(|rest| rest.split_once(": Failed to load asset path "))
        .map(|(a, b)| (a.to_owned(), b.trim_end_matches("]\n").to_owned()));
    let (a, b) = staged.unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        a.starts_with("/data/app/vmdl") && a.ends_with(".tmp/base.apk") && a == b,
        "{a}"
    );
    // A zip with a manifest would install on a phone: the sim says why it does not.
    shell.write_own_file(
        "/data/local/tmp/app.apk",
        b"PK\x03\x04....AndroidManifest.xml....",
    );
    let (status, stdout, _) = run(&shell, "pm install -r -t -g /data/local/tmp/app.apk");
    assert_eq!(status, 1);
    assert!(
        stdout.starts_with("Failure [INSTALL_FAILED_USER_RESTRICTED: tapscope's simulated phone"),
        "{stdout}"
    );
    let (status, _, stderr) = run(&shell, "pm install /sdcard/none.apk");
    assert_eq!(status, 255);
    assert!(stderr.starts_with(
        "Error: Unable to open file: /sdcard/none.apk\nConsider using a file under \
         /data/local/tmp/\nError: Can't open file: /sdcard/none.apk\n"
    ));
    assert_eq!(
        run(&shell, "pm install"),
        (
            1,
            "Error: must either specify a package size or an APK file\n".into(),
            "".into()
        )
    );
}

#[test]
fn dumpsys_package_reads_as_adbutils_app_info_parses_it() {
    let shell = shell();
    let dump = out(&shell, "dumpsys package tv.tapscope.demo");
    for wanted in [
        "  Package [tv.tapscope.demo] (",
        "    codePath=/product/app/TapTube\n",
        "    versionCode=30201 minSdk=26 targetSdk=34\n",
        "    versionName=3.2.1\n",
        "    pkgFlags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n",
        "    lastUpdateTime=2008-12-31 16:00:00\n",
        "      firstInstallTime=2025-03-03 09:14:27\n",
        " version:3, signatures:[",
        " tv.tapscope.demo/.MainActivity filter ",
    ] {
        assert!(dump.contains(wanted), "{wanted:?} in\n{dump}");
    }
    // The first `versionName=`/`versionCode=` is the package's, as adbutils takes it.
    assert!(dump.find("versionName=") > dump.find("Package ["));
    assert_eq!(out(&shell, "pm dump tv.tapscope.demo"), dump);
    assert_eq!(
        out(&shell, "dumpsys package com.example.none"),
        "Unable to find package: com.example.none\n"
    );
}

#[test]
fn am_start_resolves_like_a_phone() {
    let shell = shell();
    let (status, stdout, stderr) = run(
        &shell,
        "am start -a android.intent.action.VIEW -d 'https://example.com/a?b=c'",
    );
    assert_eq!(status, 0, "Android 14's am exits 0 here");
    assert_eq!(
        stdout,
        "Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n"
    );
    assert_eq!(
        stderr,
        "Error: Activity not started, unable to resolve Intent { \
         act=android.intent.action.VIEW dat=https://example.com/... flg=0x10000000 }\n"
    );
    assert_eq!(
        run(&shell, "am start -n tv.tapscope.demo/.Foo"),
        (
            1,
            "Starting: Intent { cmp=tv.tapscope.demo/.Foo }\n".into(),
            "Error type 3\nError: Activity class {tv.tapscope.demo/.Foo} does not exist.\n".into()
        )
    );
    let (status, _, stderr) = run(&shell, "am start -n tv.tapscope.demo/.DetailActivity");
    assert_eq!(status, 255);
    assert!(
        stderr.contains(
            "java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 \
             cmp=tv.tapscope.demo/.DetailActivity } from null (pid="
        ) && stderr.contains(", uid=2000) not exported from uid 10210\n"),
        "{stderr}"
    );
    assert_eq!(shell.phone().sim().screen_name(), "launcher");
    // uiautomator2's app_start with an activity.
    let started = out(
        &shell,
        "am start -W -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -n \
         tv.tapscope.demo/.MainActivity",
    );
    assert_eq!(
        started,
        "Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] \
         cmp=tv.tapscope.demo/.MainActivity }\nStatus: ok\nLaunchState: COLD\nActivity: \
         tv.tapscope.demo/.MainActivity\nTotalTime: 600\nWaitTime: 612\nComplete\n"
    );
    assert_eq!(shell.phone().sim().screen_name(), "feed");
    assert_eq!(
        run(&shell, "am start -n tv.tapscope.demo/.MainActivity").2,
        "Warning: Activity not started, its current task has been brought to the front\n"
    );
    assert_eq!(out(&shell, "am force-stop tv.tapscope.blocks"), "");
    assert_eq!(
        shell.phone().sim().screen_name(),
        "feed",
        "not in front: nothing shows"
    );
    assert_eq!(out(&shell, "cmd activity force-stop tv.tapscope.demo"), "");
    assert_eq!(shell.phone().sim().screen_name(), "launcher");
    assert_eq!(
        run(&shell, "am bogus"),
        (255, "Unknown command: bogus\n".into(), "".into())
    );
}

#[test]
fn the_app_in_front_is_where_adbutils_app_current_looks() {
    let shell = shell();
    out(
        &shell,
        "monkey -p tv.tapscope.demo -c android.intent.category.LAUNCHER 1",
    );
    // Android 13+: no focus among the windows; the display dump has it.
    assert!(!out(&shell, "dumpsys window windows").contains("mCurrentFocus"));
    let displays = out(&shell, "dumpsys window displays");
    let focus = "  mCurrentFocus=Window{";
    let line = displays
        .lines()
        .find(|l| l.starts_with(focus))
        .unwrap_or_default();
    assert!(
        line.ends_with(" u0 tv.tapscope.demo/tv.tapscope.demo.MainActivity}"),
        "{line}"
    );
    assert_eq!(out(&shell, "dumpsys window | grep -c mCurrentFocus"), "1\n");
    let activities = out(&shell, "dumpsys activity activities");
    let resumed = activities
        .lines()
        .find_map(|l| l.trim().strip_prefix("mResumedActivity: ActivityRecord{"))
        .unwrap_or_default();
    assert!(
        resumed.contains(" u0 tv.tapscope.demo/.MainActivity t"),
        "{activities}"
    );
    let top = out(&shell, "dumpsys activity top");
    let activity = top.lines().nth(1).unwrap_or_default();
    assert!(
        activity.starts_with("  ACTIVITY tv.tapscope.demo/.MainActivity "),
        "{top}"
    );
    assert!(activity.contains(" pid="), "{activity}");
    assert!(top.starts_with("TASK 10210:tv.tapscope.demo id="), "{top}");
    assert!(
        out(&shell, "dumpsys activity recents").contains("A=10210:tv.tapscope.demo"),
        "the app's task is a recent one"
    );
    assert_eq!(
        out(&shell, "dumpsys activity nonsense"),
        "Bad activity command, or no activities match: nonsense\nUse -h for help.\n"
    );
}

#[test]
fn the_rotation_is_one_setting_every_dump_agrees_on() {
    let shell = shell();
    assert_eq!(out(&shell, "settings get system user_rotation"), "0\n");
    assert_eq!(out(&shell, "settings put system user_rotation 1"), "");
    assert_eq!(out(&shell, "settings get system user_rotation"), "1\n");
    let check = |turns: u8, size: &str| {
        // adbutils' rotation(): the first `orientation=N` of `dumpsys display`.
        let display = out(&shell, "dumpsys display");
        let first = display
            .lines()
            .find_map(|l| l.split_once("orientation=").map(|(_, r)| r[..1].to_owned()));
        assert_eq!(first, Some(turns.to_string()), "{display}");
        let windows = out(&shell, "dumpsys window displays");
        let name =
            ["ROTATION_0", "ROTATION_90", "ROTATION_180", "ROTATION_270"][usize::from(turns)];
        assert!(
            windows.contains(&format!("      mCurrentRotation={name}\n")),
            "{windows}"
        );
        assert!(windows.contains(&format!(" cur={size} ")), "{windows}");
        let input = out(
            &shell,
            "dumpsys input | grep -E 'SurfaceOrientation|InputDeviceOrientation'",
        );
        assert_eq!(parse_orientation(&input), turns, "{input}");
        // `wm size` stays the physical size, as a phone's does.
        let wm = parse_wm_size(&out(&shell, "wm size")).unwrap();
        assert_eq!((wm.width, wm.height), (1080, 2400));
    };
    check(1, "2400x1080");
    // mobile-mcp turns the screen through the settings provider.
    assert_eq!(
        out(
            &shell,
            "content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:2"
        ),
        ""
    );
    check(2, "1080x2400");
    assert_eq!(
        out(
            &shell,
            "content query --uri content://settings/system --where \"name='user_rotation'\""
        ),
        format!(
            "Row: 0 _id={}, name=user_rotation, value=2\n",
            1 + super::apps::hash("user_rotation") % 900
        )
    );
    // Auto-rotate on: the sim's phone stands upright.
    out(&shell, "settings put system accelerometer_rotation 1");
    check(0, "1080x2400");
    let (status, _, stderr) = run(&shell, "settings put system user_rotation 4");
    assert_eq!(status, 255);
    assert!(stderr.contains(
        "java.lang.IllegalArgumentException: Invalid value: 4 for setting: user_rotation"
    ));
}

#[test]
fn settings_get_put_delete_list_as_settings_service_answers() {
    let shell = shell();
    assert_eq!(
        out(&shell, "settings get system screen_off_timeout"),
        "30000\n"
    );
    assert_eq!(out(&shell, "settings get secure no_such_key"), "null\n");
    assert_eq!(out(&shell, "cmd settings get global adb_enabled"), "1\n");
    assert_eq!(
        out(
            &shell,
            "settings --user 0 put global window_animation_scale 0"
        ),
        ""
    );
    assert_eq!(
        out(&shell, "settings get global window_animation_scale"),
        "0\n"
    );
    assert_eq!(
        out(&shell, "settings delete global window_animation_scale"),
        "Deleted 1 rows\n"
    );
    assert_eq!(
        out(&shell, "settings get global window_animation_scale"),
        "null\n"
    );
    assert_eq!(
        out(&shell, "settings delete global window_animation_scale"),
        "Deleted 0 rows\n"
    );
    let listed = out(&shell, "settings list system");
    assert!(
        listed.lines().is_sorted() && listed.contains("user_rotation=0\n"),
        "{listed}"
    );
    assert_eq!(
        run(&shell, "settings get nowhere x"),
        (255, "".into(), "Invalid namespace 'nowhere'\n".into())
    );
    assert_eq!(
        run(&shell, "settings fetch system x"),
        (255, "".into(), "Invalid command: fetch\n".into())
    );
    assert_eq!(
        run(&shell, "settings get system"),
        (255, "".into(), "Bad arguments\n".into())
    );
}

#[test]
fn power_battery_and_the_service_list() {
    let shell = shell();
    let power = out(&shell, "dumpsys power");
    assert!(power.contains("\n  mWakefulness=Awake\n"));
    assert!(
        power.contains("\n  mHoldingDisplaySuspendBlocker=true\n"),
        "adbutils' is_screen_on"
    );
    assert!(power.ends_with("\nDisplay Power: state=ON\n"));
    let battery = out(&shell, "dumpsys battery");
    let level = shell.phone().sim().battery;
    assert!(
        battery.starts_with(
            "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
        )
    );
    assert!(
        battery.contains(&format!("\n  level: {level}\n  scale: 100\n")),
        "{battery}"
    );
    assert!(battery.contains("\n  temperature: 285\n  technology: Li-ion\n"));
    let listed = out(&shell, "dumpsys -l");
    assert!(listed.starts_with("Currently running services:\n  SurfaceFlinger\n  activity\n"));
    assert_eq!(
        run(&shell, "dumpsys nosuch"),
        (0, "".into(), "Can't find service: nosuch\n".into())
    );
    assert_eq!(
        out(&shell, "dumpsys SurfaceFlinger --display-id")
            .lines()
            .filter(|l| l.starts_with("Display "))
            .count(),
        1
    );
    assert!(
        out(&shell, "dumpsys")
            .contains("DUMP OF SERVICE battery:\nCurrent Battery Service state:\n")
    );
}

#[test]
fn getprop_has_a_phones_properties_and_no_emulators() {
    let shell = shell();
    for (name, value) in [
        ("ro.build.version.release", "14"),
        ("ro.build.version.sdk", "34"),
        ("ro.build.version.security_patch", "2024-02-05"),
        ("ro.product.manufacturer", "tapscope"),
        ("ro.product.model", "tapscope sim"),
        ("ro.product.cpu.abilist", "arm64-v8a"),
        ("ro.serialno", "TS5A3C9E01"),
        ("ro.sf.lcd_density", "420"),
        ("sys.boot_completed", "1"),
        ("persist.sys.timezone", "America/Los_Angeles"),
        ("ro.kernel.qemu", ""),
        ("ro.boot.qemu.avd_name", ""),
    ] {
        assert_eq!(
            out(&shell, &format!("getprop {name}")),
            format!("{value}\n"),
            "{name}"
        );
    }
    assert_eq!(out(&shell, "getprop ro.nothing fallback"), "fallback\n");
    let all = out(&shell, "getprop");
    assert!(
        all.lines()
            .all(|l| l.starts_with('[') && l.contains("]: [") && l.ends_with(']'))
    );
    assert!(all.contains("[ro.build.fingerprint]: [tapscope/tapscope_sim/tapscope:14/UQ1A.240205.004/11269751:user/release-keys]\n"));
}
