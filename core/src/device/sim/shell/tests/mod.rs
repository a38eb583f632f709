//! The sim's shell answering what agent frameworks send, checked with the parsers
//! tapscope reads real phones' output with.

mod limits;
mod toybox;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::*;
use crate::device::adb::text::{DumpOutput, clean_dump, parse_orientation};
use crate::device::adb_output::{parse_event, parse_packages, parse_wm_size};
use crate::device::adbd::SocketName;
use crate::device::sim::phone::UiClient;
use crate::stability::{RealClock, VirtualClock};

/// What a command printed, and whether its caller has gone.
#[derive(Default)]
pub(super) struct Collected {
    pub(super) out: Vec<u8>,
    pub(super) err: Vec<u8>,
    pub(super) closed: AtomicBool,
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
pub(super) fn run<C: Clock + Clone + Send + Sync + 'static>(
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

pub(super) fn shell() -> SimShell<VirtualClock> {
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
    // The active window alone, as a phone's stock dump: no status bar.
    assert_eq!(xml, shell.phone().sim().stock_xml().trim_end());
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

/// Taps the first node showing `label` on the sim's screen.
fn tap_label(shell: &SimShell<VirtualClock>, label: &str) {
    let tree = crate::parse::parse_str(&shell.phone().sim().xml()).unwrap();
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == label || n.desc == label);
    let (x, y) = node.unwrap_or_else(|| panic!("no {label}")).bounds.center();
    assert_eq!(run(shell, &format!("input tap {x} {y}")).0, 0);
}

#[test]
fn input_text_types_its_first_argument_as_android_does() {
    let mut clock = VirtualClock::new();
    let shell = SimShell::new(clock.clone(), 3, Profile::Instant);
    tap_label(&shell, "TapTube");
    clock.sleep(Duration::from_secs(3));
    tap_label(&shell, "Search videos");
    clock.sleep(Duration::from_secs(3));
    assert_eq!(shell.phone().sim().screen_name(), "search");
    // Unquoted, the shell splits the text into words and `input` types the first.
    assert_eq!(run(&shell, "input text hello world").0, 0);
    assert_eq!(run(&shell, "input text '%sthere'").0, 0);
    let dump = shell.phone().sim().xml();
    assert!(dump.contains("text=\"hello there\""), "{dump}");
    assert!(!dump.contains("world"), "{dump}");
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
        "sh -c 'reboot'",
    ] {
        let (status, _, err) = run(&shell, line);
        if line.starts_with("rm") {
            // `rm` exists on a phone; here it only touches the sim's own files.
            assert_eq!(status, 0, "{line}");
            continue;
        }
        let name = line.split(' ').next().unwrap();
        let name = if name == "sh" { "reboot" } else { name };
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
        self.out.lock().extend_from_slice(bytes);
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
        while !String::from_utf8_lossy(&stream.out.lock()).contains('\n') {
            std::thread::yield_now();
        }
        stream.closed.store(true, Ordering::SeqCst);
        assert_eq!(events.join().unwrap(), 130);
    });
    let printed = String::from_utf8_lossy(&stream.out.lock()).into_owned();
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
        while shell.jobs.lock().is_empty() {
            std::thread::yield_now();
        }
        assert_eq!(run(&shell, "pkill -f 'uiautomator.Launcher dump'").0, 0);
        let (status, out, _) = dump.join().unwrap();
        assert_eq!((status, out.as_str()), (143, ""));
    });
    assert_eq!(run(&shell, "pkill -f nothing-runs").0, 1);
}

/// Pushes `bytes` to `path` as the sync protocol does, in 4 KiB chunks.
fn push(shell: &SimShell<impl Clock + Clone + Send + Sync + 'static>, path: &str, bytes: &[u8]) {
    let mut file = shell.push(path, 0o777).expect("the push starts");
    for chunk in bytes.chunks(4096) {
        file.write(chunk).expect("the chunk is taken");
    }
    file.finish(0x6600_0000).expect("the push is kept");
}

const JAR: &str = "/data/local/tmp/u2.jar";
const LAUNCH: &str = "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008";

#[test]
fn md5sum_prints_as_toybox_does_and_fails_on_a_missing_file() {
    let shell = shell();
    assert_eq!(
        run(&shell, &format!("toybox md5sum {JAR}")),
        (
            1,
            String::new(),
            format!("md5sum: {JAR}: No such file or directory\n")
        )
    );
    push(&shell, JAR, b"hello\n");
    // `md5sum` of "hello\n", as any md5sum prints it.
    let line = format!("b1946ac92492d2347c6235b4d2611184  {JAR}\n");
    for command in ["toybox md5sum", "md5sum", "md5"] {
        assert_eq!(
            run(&shell, &format!("{command} {JAR}")),
            (0, line.clone(), String::new()),
            "{command}"
        );
    }
    assert_eq!(
        run(&shell, "echo hello | md5sum").1,
        "b1946ac92492d2347c6235b4d2611184  -\n"
    );
    assert_eq!(
        run(&shell, "md5 /nope").2,
        "could not open /nope, No such file or directory\n"
    );
    assert_eq!(run(&shell, "toybox nope").0, 127);
    // The file as pushed: its mode and size.
    let stat = shell.stat(JAR).unwrap();
    assert_eq!(
        (stat.mode, stat.size, stat.mtime),
        (0o777, 6, Some(0x6600_0000))
    );
}

#[test]
fn the_status_expands_where_adbutils_reads_it() {
    let shell = shell();
    // adbutils' shell2: the command, then `; echo X4EXIT:$?`.
    for (line, said) in [
        ("toybox md5sum /nope; echo X4EXIT:$?", "X4EXIT:1\n"),
        ("true; echo X4EXIT:$?", "X4EXIT:0\n"),
        ("nope; echo X4EXIT:$?", "X4EXIT:127\n"),
        ("input tap ten 5; echo X4EXIT:$?", "X4EXIT:255\n"),
        ("echo X4EXIT:$?", "X4EXIT:0\n"),
        ("false; echo \"[$?]\" '$?'; echo $?", "[1] $?\n0\n"),
        // A pipe's commands all see the status before it.
        ("false; true | echo $?", "1\n"),
        ("A=1; echo $?", "0\n"),
    ] {
        let (_, out, _) = run(&shell, line);
        assert!(out.ends_with(said), "{line}: {out:?}");
    }
}

#[test]
fn variables_last_for_the_line_and_reach_commands_only_when_exported() {
    let shell = shell();
    // The line of the brief, as `adb shell '…'` sends it.
    assert_eq!(
        run(&shell, r#"false; echo $?; X=5; echo $X; sh -c "echo hi""#),
        (0, "1\n5\nhi\n".into(), String::new())
    );
    for (line, said) in [
        ("echo $HOME:$USER:$NOPE.", "/:shell:.\n"),
        (
            "echo $PATH",
            "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin\n",
        ),
        ("echo [$ANDROID_LOG_TAGS]", "[]\n"),
        // Quoting: single quotes and a backslash keep `$X` as written.
        (
            r#"X='a  b'; echo $X "$X" '$X' \$X ${X}"#,
            "a b a  b $X $X a b\n",
        ),
        // Each line is its own shell: nothing is left of the last one.
        ("echo [$X]", "[]\n"),
        // `NAME=value cmd`: for `cmd`'s environment alone, expanded before it is set.
        ("X=1; X=2 echo $X; echo $X", "1\n1\n"),
        ("X=2 sh -c 'echo $X'; echo [$X]", "2\n[]\n"),
        // A new shell sees exported variables only, and starts with `$?` at 0.
        ("X=1; sh -c 'echo [$X]'", "[]\n"),
        ("export X=1; sh -c 'echo [$X]'", "[1]\n"),
        ("Y=3; export Y; sh -c 'echo $Y; echo $?'", "3\n0\n"),
        ("false; sh -c 'echo $?'", "0\n"),
        (
            r#"export ANDROID_LOG_TAGS="''"; echo $ANDROID_LOG_TAGS"#,
            "''\n",
        ),
        // What a pipe's command sets stays in its subshell.
        ("X=1 | true; echo [$X]", "[]\n"),
    ] {
        assert_eq!(run(&shell, line), (0, said.into(), String::new()), "{line}");
    }
    let (status, _, err) = run(&shell, "export 1x=2");
    assert_eq!(
        (status, err.as_str()),
        (1, "/system/bin/sh: export: 1x: is not an identifier\n")
    );
}

#[test]
fn exec_ends_the_line_with_its_command_and_sh_c_returns_its_lines_status() {
    let shell = shell();
    for (line, status, said) in [
        ("exec false; echo never", 1, ""),
        ("exec true; exit 3", 0, ""),
        ("exec echo hi; echo never", 0, "hi\n"),
        ("exec sh -c 'exit 4'; echo never", 4, ""),
        ("exec; echo still", 0, "still\n"),
        ("sh -c false; echo $?", 0, "1\n"),
        ("sh -c 'exit 3; echo never'; echo $?", 0, "3\n"),
        ("/system/bin/sh -c 'nope'", 127, ""),
        (
            "sh -c 'exec false; echo never'; echo after $?",
            0,
            "after 1\n",
        ),
        ("sh -c 'echo a | grep a' | grep -c a", 0, "1\n"),
        ("echo 'echo piped' | sh", 0, "piped\n"),
    ] {
        let (got, out, _) = run(&shell, line);
        assert_eq!((got, out.as_str()), (status, said), "{line}");
    }
    // What `adb logcat` sends reaches `logcat`, with the sim's own log.
    let (status, out, err) = run(&shell, r#"export ANDROID_LOG_TAGS="''"; exec logcat '-d'"#);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(
        out.contains("SystemServer: Entered the Android system server!"),
        "{out}"
    );
    let (status, _, err) = run(&shell, "sh -c");
    assert_eq!(
        (status, err.as_str()),
        (1, "/system/bin/sh: -c: option requires an argument\n")
    );
    let (status, _, err) = run(&shell, "sh -c 'echo \"open'");
    assert_eq!(status, 1);
    assert!(err.contains("unterminated"), "{err}");
}

#[test]
fn app_process_aborts_on_a_class_it_cannot_load() {
    let shell = shell();
    // No jar yet, then another class, then no CLASSPATH: Android 14 aborts each.
    push(&shell, "/data/local/tmp/other.jar", b"PK");
    for line in [
        LAUNCH,
        "CLASSPATH=/data/local/tmp/other.jar app_process / com.genymobile.scrcpy.Server 2.4",
        "app_process / com.wetest.uia2.Main",
    ] {
        assert_eq!(
            run(&shell, line),
            (134, String::new(), "Aborted\n".into()),
            "{line}"
        );
    }
    assert_eq!(shell.phone().ui_client(), None);
    // What is set before a command is for it alone.
    push(&shell, JAR, b"PK");
    assert_eq!(
        run(
            &shell,
            "CLASSPATH=/data/local/tmp/u2.jar true; app_process / com.wetest.uia2.Main"
        )
        .0,
        134
    );
}

/// Starts uiautomator2's server on a thread, as uiautomator2 does; returns once it
/// listens.
fn start_u2<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    shell: &'s SimShell<RealClock>,
    stream: &Shared,
) -> std::thread::ScopedJoinHandle<'s, u8> {
    let mut output = stream.clone();
    let server = scope.spawn(move || shell.run(LAUNCH, &mut output));
    while !String::from_utf8_lossy(&stream.out.lock()).contains("listening on *:9008") {
        std::thread::yield_now();
    }
    server
}

#[test]
fn the_u2_server_holds_ui_automation_and_its_port_until_its_stream_closes() {
    let shell = SimShell::new(RealClock::new(), 3, Profile::Instant);
    push(&shell, JAR, b"PK\x03\x04");
    assert!(shell.open_socket(&SocketName::Tcp(9008)).is_none());
    let stream = Shared::default();
    let shell = &shell;
    std::thread::scope(|scope| {
        let server = start_u2(scope, shell, &stream);
        assert_eq!(shell.phone().ui_client(), Some(UiClient::Helper));
        assert_eq!(
            String::from_utf8_lossy(&stream.out.lock()),
            "[server] INFO: [UiAutomator2Server] Starting Server\n\
             [server] INFO: http server listening on *:9008\n"
        );
        assert!(shell.open_socket(&SocketName::Tcp(9008)).is_some());
        assert!(shell.open_socket(&SocketName::Tcp(9009)).is_none());
        assert!(
            shell
                .open_socket(&SocketName::LocalAbstract("9008".into()))
                .is_none()
        );
        // The stock dump and a second server find UiAutomation taken.
        let (status, _, refused) = run(shell, "uiautomator dump /dev/tty");
        assert_eq!(status, 1);
        assert!(
            refused.contains("already registered! (held by the uiautomator2 server)"),
            "{refused}"
        );
        assert_eq!(
            run(shell, LAUNCH),
            (
                1,
                "[server] INFO: [UiAutomator2Server] Starting Server\n".into(),
                "java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5already registered!\n".into()
            )
        );
        // uiautomator2 stops it by closing the stream.
        stream.closed.store(true, Ordering::SeqCst);
        assert_eq!(server.join().unwrap(), 129);
    });
    assert_eq!(shell.phone().ui_client(), None);
    assert!(shell.open_socket(&SocketName::Tcp(9008)).is_none());
    assert_eq!(run(shell, "uiautomator dump /dev/tty").0, 0, "free again");
}

#[test]
fn pkill_ends_the_u2_server_and_what_it_held() {
    let shell = SimShell::new(RealClock::new(), 3, Profile::Instant);
    push(&shell, JAR, b"PK\x03\x04");
    let stream = Shared::default();
    let shell = &shell;
    std::thread::scope(|scope| {
        let server = start_u2(scope, shell, &stream);
        let mut socket = shell.open_socket(&SocketName::Tcp(9008)).unwrap();
        let (pong, close) = socket.received(b"GET /ping HTTP/1.1\r\n\r\n");
        assert!(pong.ends_with(b"\r\n\r\npong") && !close, "{pong:?}");
        assert_eq!(run(shell, "pkill -f com.wetest.uia2").0, 0);
        assert_eq!(server.join().unwrap(), 143);
        // A connection made before: reset at its next use.
        assert_eq!(
            socket.received(b"GET /ping HTTP/1.1\r\n\r\n"),
            (Vec::new(), true)
        );
    });
    assert_eq!(shell.phone().ui_client(), None);
    assert!(shell.open_socket(&SocketName::Tcp(9008)).is_none());
    assert_eq!(run(shell, "pkill -f com.wetest.uia2").0, 1);
    // Nor can it start while `uiautomator events` holds UiAutomation.
    let events = Shared::default();
    std::thread::scope(|scope| {
        let mut output = events.clone();
        let running = scope.spawn(move || shell.run("uiautomator events", &mut output));
        while shell.phone().ui_client() != Some(UiClient::Events) {
            std::thread::yield_now();
        }
        let (status, _, err) = run(shell, LAUNCH);
        assert_eq!(status, 1);
        assert!(err.ends_with("already registered!\n"), "{err}");
        events.closed.store(true, Ordering::SeqCst);
        running.join().unwrap();
    });
}

#[test]
fn pushes_are_bounded_a_file_and_in_all() {
    let mut shell = shell();
    shell.file_limits = push::FileLimits {
        file: 10_000,
        total: 25_000,
        ..push::FileLimits::default()
    };
    let refused = |shell: &SimShell<VirtualClock>, path: &str, len: usize| {
        let mut file = shell.push(path, 0o644).unwrap();
        let why = (0..len)
            .step_by(4096)
            .find_map(|at| file.write(&vec![1; 4096.min(len - at)]).err());
        match why {
            Some(why) => why,
            None => {
                file.finish(1).unwrap();
                String::new()
            }
        }
    };
    let too_big = refused(&shell, "/sdcard/big", 10_001);
    assert!(
        too_big.contains("File too large") && too_big.contains("push a smaller file"),
        "{too_big}"
    );
    assert_eq!(shell.file("/sdcard/big"), None);
    assert_eq!(refused(&shell, "/sdcard/a", 10_000), "");
    assert_eq!(refused(&shell, "/sdcard/b", 10_000), "");
    // Two pushes under way count together, and a dropped one gives its bytes back.
    let mut first = shell.push("/sdcard/c", 0o644).unwrap();
    first.write(&[0; 3000]).unwrap();
    let full = refused(&shell, "/sdcard/d", 3000);
    assert!(
        full.contains("No space left on device") && full.contains("adb shell rm"),
        "{full}"
    );
    drop(first);
    assert_eq!(refused(&shell, "/sdcard/d", 5000), "");
    // Pushing over a file replaces it, rm frees its room.
    assert_eq!(refused(&shell, "/sdcard/a", 5000), "");
    assert_eq!(shell.stat("/sdcard/a").unwrap().size, 5000);
    run(&shell, "rm /sdcard/b");
    assert_eq!(refused(&shell, "/sdcard/e", 10_000), "");
    assert!(shell.push("/sdcard/", 0o644).is_err());
}
