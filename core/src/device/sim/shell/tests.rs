//! The sim's shell answering what agent frameworks send, checked with the parsers
//! tapscope reads real phones' output with.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::*;
use crate::device::adb::shell::{DumpOutput, clean_dump, parse_orientation};
use crate::device::adb_output::{parse_event, parse_packages, parse_wm_size};
use crate::device::sim::phone::UiClient;
use crate::stability::{RealClock, VirtualClock};

/// What a command printed, and whether its caller has gone.
#[derive(Default)]
struct Collected {
    out: Vec<u8>,
    err: Vec<u8>,
    closed: AtomicBool,
}

impl CommandOutput for Collected {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.extend_from_slice(bytes);
        Ok(())
    }
    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.err.extend_from_slice(bytes);
        Ok(())
    }
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

/// Runs `line`: its status, stdout and stderr.
fn run<C: Clock + Clone + Send + Sync + 'static>(
    shell: &SimShell<C>,
    line: &str,
) -> (u8, String, String) {
    let mut out = Collected::default();
    let status = shell.run(line, &mut out);
    (
        status,
        String::from_utf8_lossy(&out.out).into_owned(),
        String::from_utf8_lossy(&out.err).into_owned(),
    )
}

fn shell() -> SimShell<VirtualClock> {
    SimShell::new(VirtualClock::new(), 3, Profile::Instant)
}

#[test]
fn a_dump_to_the_terminal_reads_as_a_phones_does() {
    let shell = shell();
    let (status, out, _) = run(&shell, "uiautomator dump /dev/tty");
    assert_eq!(status, 0);
    assert!(
        out.ends_with("</hierarchy>UI hierchary dumped to: /dev/tty\n"),
        "{out}"
    );
    let DumpOutput::Xml(xml) = clean_dump(&out) else {
        panic!("not a dump: {out}")
    };
    assert_eq!(xml, shell.phone().sim().xml().trim_end());
}

#[test]
fn a_dump_to_a_file_is_read_back_by_cat_and_by_sync() {
    let shell = shell();
    let line = "rm -f /sdcard/window_dump.xml; uiautomator dump /sdcard/window_dump.xml; cat /sdcard/window_dump.xml";
    let (status, out, err) = run(&shell, line);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(
        out.starts_with("UI hierchary dumped to: /sdcard/window_dump.xml\n<?xml"),
        "{out}"
    );
    assert!(matches!(clean_dump(&out), DumpOutput::Xml(_)));
    // The default file, under its other names too, for `adb pull`.
    run(&shell, "uiautomator dump");
    let pulled = shell
        .file("/storage/emulated/0/window_dump.xml")
        .expect("the file");
    assert!(pulled.starts_with(b"<?xml"));
    assert_eq!(run(&shell, "ls /sdcard").1, "window_dump.xml\n");
    let (status, _, err) = run(
        &shell,
        "rm /sdcard/window_dump.xml; cat /sdcard/window_dump.xml",
    );
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "cat: /sdcard/window_dump.xml: No such file or directory\n"
    );
}

#[test]
fn input_commands_drive_the_simulated_app() {
    let shell = shell();
    // TapTube's launcher icon, then typing into search, then back.
    let tree = crate::parse::parse_str(&shell.phone().sim().xml()).unwrap();
    let icon = tree.nodes.iter().find(|n| n.text == "TapTube").unwrap();
    let (x, y) = icon.bounds.center();
    assert_eq!(run(&shell, &format!("input tap {x} {y}")).0, 0);
    assert_eq!(shell.phone().sim().screen_name(), "feed");
    assert_eq!(run(&shell, "input keyevent KEYCODE_BACK").0, 0);
    assert_eq!(shell.phone().sim().screen_name(), "launcher");
    assert_eq!(
        run(&shell, "input touchscreen swipe 540 1800 540 600 300").0,
        0
    );
    assert_eq!(run(&shell, "input keyevent 3 KEYCODE_VOLUME_UP 82").0, 0);
}

#[test]
fn bad_input_commands_print_what_android_prints() {
    let shell = shell();
    let (status, _, err) = run(&shell, "input tap ten 5");
    assert_eq!(status, 255);
    assert!(
        err.contains("Error: Invalid arguments for command: tap"),
        "{err}"
    );
    let (status, _, err) = run(&shell, "input tap -5 10");
    assert_eq!(status, 255);
    assert!(
        err.contains("Exception occurred while executing 'tap'"),
        "{err}"
    );
    let (status, _, err) = run(&shell, "input wiggle");
    assert_eq!(status, 1);
    assert!(
        err.starts_with("Error: Unknown command: wiggle\nUsage: input"),
        "{err}"
    );
    assert_eq!(run(&shell, "input keyevent KEYCODE_NOPE").0, 255);
}

#[test]
fn system_commands_parse_with_the_parsers_of_real_phones() {
    let shell = shell();
    let size = parse_wm_size(&run(&shell, "wm size").1).unwrap();
    assert_eq!((size.width, size.height), (1080, 2400));
    let (status, rotation, _) = run(&shell, "dumpsys input | grep SurfaceOrientation");
    assert_eq!((status, parse_orientation(&rotation)), (0, 0));
    let packages = parse_packages(&run(&shell, "pm list packages").1);
    assert!(
        packages.contains(&"tv.tapscope.demo".to_owned()),
        "{packages:?}"
    );
    assert_eq!(run(&shell, "getprop ro.product.model").1, "tapscope sim\n");
    assert!(
        run(&shell, "getprop")
            .1
            .contains("[ro.build.version.sdk]: [34]")
    );
    let window = run(&shell, "dumpsys window").1;
    assert!(
        window.contains("mCurrentFocus=Window{7c1a2f0 u0 com.tapscope.launcher/.LauncherActivity}")
            || window.contains("mCurrentFocus=Window{"),
        "{window}"
    );
    assert_eq!(
        run(&shell, "dumpsys window | grep -c mCurrentFocus").1,
        "1\n"
    );
}

#[test]
fn apps_start_by_monkey_and_am_and_unknown_ones_are_refused() {
    let shell = shell();
    let (status, out, _) = run(
        &shell,
        "monkey -p tv.tapscope.demo -c android.intent.category.LAUNCHER 1",
    );
    assert_eq!(status, 0);
    assert!(out.contains("Events injected: 1"), "{out}");
    assert_eq!(shell.phone().sim().screen_name(), "feed");
    let (status, out, _) = run(
        &shell,
        "monkey -p com.example.none -c android.intent.category.LAUNCHER 1",
    );
    assert_eq!(status, 252);
    assert!(
        out.contains("** No activities found to run, monkey aborted."),
        "{out}"
    );

    let (status, out, _) = run(&shell, "am start -W -n tv.tapscope.blocks/.MainActivity");
    assert_eq!(status, 0);
    assert!(
        out.starts_with("Starting: Intent { cmp=tv.tapscope.blocks/.MainActivity }"),
        "{out}"
    );
    assert!(out.contains("Status: ok"), "{out}");
    assert_eq!(shell.phone().sim().screen_name(), "game");
    let (status, _, err) = run(&shell, "am start -n com.foo/.Activiqy");
    assert_eq!(status, 1);
    assert!(
        err.contains("Error: Activity class {com.foo/.Activiqy} does not exist."),
        "{err}"
    );
}

#[test]
fn anything_else_is_not_found_and_nothing_runs_on_the_host() {
    let shell = shell();
    for line in [
        "rm -rf /",
        "reboot",
        "su -c id",
        "curl http://example.com",
        "sh -c ls",
    ] {
        let (status, _, err) = run(&shell, line);
        if line.starts_with("rm") {
            // `rm` exists on a phone; here it only touches the sim's own files.
            assert_eq!(status, 0, "{line}");
            continue;
        }
        let name = line.split(' ').next().unwrap();
        assert_eq!(status, 127, "{line}");
        assert_eq!(
            err,
            format!("/system/bin/sh: {name}: inaccessible or not found\n")
        );
    }
    let (status, _, err) = run(&shell, "echo 'unterminated");
    assert_eq!(status, 1);
    assert!(err.contains("unterminated"), "{err}");
    assert_eq!(
        run(&shell, "false || echo fell back && echo then").1,
        "fell back\nthen\n"
    );
    assert_eq!(
        run(&shell, "exit 3; echo never"),
        (3, String::new(), String::new())
    );
    assert_eq!(run(&shell, "echo hi > /sdcard/a; cat /sdcard/a").1, "hi\n");
    assert_eq!(
        run(&shell, "uiautomator dump /dev/tty | head -c 5").1,
        "<?xml"
    );
    assert_eq!(
        run(&shell, "getprop | head -n 2 | grep -c ro.build").1,
        "2\n"
    );
}

#[test]
fn screencap_writes_a_png_or_the_raw_frame() {
    let shell = shell();
    let mut out = Collected::default();
    assert_eq!(shell.run("screencap -p", &mut out), 0);
    assert!(out.out.starts_with(b"\x89PNG\r\n\x1a\n"));
    let mut raw = Collected::default();
    shell.run("screencap", &mut raw);
    let word = |k: usize| u32::from_le_bytes(raw.out[k * 4..k * 4 + 4].try_into().unwrap());
    assert_eq!((word(0), word(1), word(2)), (1080, 2400, 1));
    assert_eq!(raw.out.len(), 16 + 1080 * 2400 * 4);
    run(&shell, "screencap -p /sdcard/shot.png");
    assert!(
        shell
            .file("/sdcard/shot.png")
            .unwrap()
            .starts_with(b"\x89PNG")
    );
}

/// Output shared with the test while the command runs, and a switch that hangs up.
#[derive(Clone, Default)]
struct Shared {
    out: std::sync::Arc<Mutex<Vec<u8>>>,
    closed: std::sync::Arc<AtomicBool>,
}

impl CommandOutput for Shared {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        lock(&self.out).extend_from_slice(bytes);
        Ok(())
    }
    fn stderr(&mut self, _: &[u8]) -> std::io::Result<()> {
        Ok(())
    }
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

#[test]
fn the_events_stream_holds_uiautomation_until_the_host_hangs_up() {
    let shell = SimShell::new(RealClock::new(), 3, Profile::Instant);
    let stream = Shared::default();
    let shell = &shell;
    std::thread::scope(|scope| {
        let mut output = stream.clone();
        let events = scope.spawn(move || shell.run("uiautomator events", &mut output));
        // Once the stream holds the connection, a dump is refused.
        while shell.phone().ui_client() != Some(UiClient::Events) {
            std::thread::yield_now();
        }
        let (status, _, refused) = run(shell, "uiautomator dump /dev/tty");
        assert_eq!(status, 1);
        assert!(refused.contains("already registered!"), "{refused}");
        run(shell, "monkey -p tv.tapscope.demo 1");
        while !String::from_utf8_lossy(&lock(&stream.out)).contains('\n') {
            std::thread::yield_now();
        }
        stream.closed.store(true, Ordering::SeqCst);
        assert_eq!(events.join().unwrap(), 130);
    });
    let printed = String::from_utf8_lossy(&lock(&stream.out)).into_owned();
    let first = printed.lines().next().expect("an event line");
    let event = parse_event(first).expect("parses as a real phone's line");
    assert_eq!(event.kind, "TYPE_WINDOW_STATE_CHANGED");
    assert_eq!(event.package.as_deref(), Some("tv.tapscope.demo"));
    assert_eq!(run(shell, "uiautomator dump /dev/tty").0, 0, "free again");
}

#[test]
fn pkill_ends_a_dump_waiting_on_a_screen_that_never_settles() {
    let shell = SimShell::new(RealClock::new(), 3, Profile::Instant);
    shell
        .phone()
        .sim()
        .set_animation_length(Some(Duration::ZERO));
    let tree = crate::parse::parse_str(&shell.phone().sim().xml()).unwrap();
    let live = tree.nodes.iter().find(|n| n.text == "Live TV").unwrap();
    let (x, y) = live.bounds.center();
    run(&shell, &format!("input tap {x} {y}"));
    assert_eq!(shell.phone().sim().screen_name(), "live");
    std::thread::scope(|scope| {
        let dump = scope.spawn(|| run(&shell, "uiautomator dump /dev/tty"));
        while lock(&shell.jobs).is_empty() {
            std::thread::yield_now();
        }
        assert_eq!(run(&shell, "pkill -f 'uiautomator.Launcher dump'").0, 0);
        let (status, out, _) = dump.join().unwrap();
        assert_eq!((status, out.as_str()), (143, ""));
    });
    assert_eq!(run(&shell, "pkill -f nothing-runs").0, 1);
}
