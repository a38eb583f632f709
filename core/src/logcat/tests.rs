//! The parser and the crash finder on logcat output as Android 14 prints it (threadtime,
//! the crash buffer's Java crash, an ANR, a native crash's tombstone), and bad output.

use super::*;

/// `logcat -d -v threadtime -b main,system,crash` on a phone whose app crashed on a tap.
const JAVA_CRASH: &str = "\
--------- beginning of main
12-06 10:15:30.001   587   905 I InputDispatcher: Delivering touch to (1234): action: 0x0
12-06 10:15:30.412  1234  1234 D TapTube : onClick account
--------- beginning of crash
12-06 10:15:30.415  1234  1234 E AndroidRuntime: FATAL EXCEPTION: main
12-06 10:15:30.415  1234  1234 E AndroidRuntime: Process: tv.tapscope.demo, PID: 1234
12-06 10:15:30.415  1234  1234 E AndroidRuntime: java.lang.NullPointerException: Attempt to invoke virtual method 'java.lang.String tv.tapscope.demo.Account.name()' on a null object reference
12-06 10:15:30.415  1234  1234 E AndroidRuntime: \tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)
12-06 10:15:30.415  1234  1234 E AndroidRuntime: \tat android.app.Activity.performCreate(Activity.java:8595)
--------- beginning of system
12-06 10:15:30.420   587  1604 W ActivityTaskManager:   Force finishing activity tv.tapscope.demo/.AccountActivity
12-06 10:15:30.511   587   641 I ActivityManager: Process tv.tapscope.demo (pid 1234) has died: fg  TOP
";

const ANR: &str = "\
12-06 10:20:01.456   587   612 E ActivityManager: ANR in com.example.slow (com.example.slow/.MainActivity)
12-06 10:20:01.456   587   612 E ActivityManager: PID: 4321
12-06 10:20:01.456   587   612 E ActivityManager: Reason: Input dispatching timed out (b1e2f3 com.example.slow/com.example.slow.MainActivity is not responding. Waited 5001ms for MotionEvent)
12-06 10:20:01.456   587   612 E ActivityManager: Parent: com.example.slow/.MainActivity
";

const NATIVE: &str = "\
12-06 10:25:00.001  1234  1250 F libc    : Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0 in tid 1250 (RenderThread), pid 1234 (com.example.game)
12-06 10:25:00.101  5678  5678 F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
12-06 10:25:00.101  5678  5678 F DEBUG   : Build fingerprint: 'google/sdk_gphone64_x86_64/emu64xa:14/UE1A.230829.036/10747206:userdebug/dev-keys'
12-06 10:25:00.101  5678  5678 F DEBUG   : pid: 1234, tid: 1250, name: RenderThread  >>> com.example.game <<<
12-06 10:25:00.101  5678  5678 F DEBUG   : signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000
";

#[test]
fn threadtime_lines_read_with_their_fields_and_dividers_skipped() {
    let parsed = parse(JAVA_CRASH);
    assert_eq!((parsed.lines.len(), parsed.unreadable), (9, 0));
    let first = &parsed.lines[0];
    assert_eq!(first.stamp.to_string(), "12-06 10:15:30.001");
    assert_eq!(
        (first.pid, first.tid, first.priority),
        (587, 905, Priority::Info)
    );
    assert_eq!(first.tag, "InputDispatcher");
    assert_eq!(first.message, "Delivering touch to (1234): action: 0x0");
    // A tag padded to eight, and a message with ": " of its own.
    assert_eq!(parsed.lines[1].tag, "TapTube");
    let frame = &parsed.lines[5];
    assert_eq!(
        frame.message,
        "\tat tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)"
    );
    // Printed back as logcat printed it.
    assert_eq!(
        parsed.lines[3].to_string(),
        "12-06 10:15:30.415  1234  1234 E AndroidRuntime: Process: tv.tapscope.demo, PID: 1234"
    );
}

#[test]
fn a_java_crash_an_anr_and_a_native_crash_are_each_one_sentence() {
    let java = crashes(&parse(JAVA_CRASH).lines);
    assert_eq!(java.len(), 1);
    assert_eq!(java[0].kind, CrashKind::Exception);
    assert_eq!(
        java[0].to_string(),
        "12-06 10:15:30.415 crash in tv.tapscope.demo (pid 1234): \
         java.lang.NullPointerException: Attempt to invoke virtual method \
         'java.lang.String tv.tapscope.demo.Account.name()' on a null object reference at \
         tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)"
    );
    let anr = crashes(&parse(ANR).lines);
    assert_eq!(anr.len(), 1);
    assert_eq!(
        (anr[0].kind, anr[0].process.as_str(), anr[0].pid),
        (CrashKind::Anr, "com.example.slow", Some(4321))
    );
    assert!(anr[0].what.starts_with("Input dispatching timed out"));
    // libc's line and the tombstone's say one crash.
    let native = crashes(&parse(NATIVE).lines);
    assert_eq!(native.len(), 1, "{native:?}");
    assert_eq!(
        native[0].to_string(),
        "12-06 10:25:00.101 native crash in com.example.game (pid 1234): signal 11 (SIGSEGV), \
         code 1 (SEGV_MAPERR), fault addr 0x0000000000000000"
    );
}

/// An exception in `onCreate`, as Android wraps it.
const WRAPPED: &str = "\
12-06 11:00:00.100  2222  2222 E AndroidRuntime: FATAL EXCEPTION: main
12-06 11:00:00.100  2222  2222 E AndroidRuntime: Process: com.example.shop, PID: 2222
12-06 11:00:00.100  2222  2222 E AndroidRuntime: java.lang.RuntimeException: Unable to start activity ComponentInfo{com.example.shop/com.example.shop.CartActivity}: java.lang.IllegalStateException: empty cart
12-06 11:00:00.100  2222  2222 E AndroidRuntime: \tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3782)
12-06 11:00:00.100  2222  2222 E AndroidRuntime: \tat android.os.Looper.loop(Looper.java:317)
12-06 11:00:00.100  2222  2222 E AndroidRuntime: Caused by: java.lang.IllegalStateException: empty cart
12-06 11:00:00.100  2222  2222 E AndroidRuntime: \tat com.example.shop.CartActivity.onCreate(CartActivity.kt:31)
12-06 11:00:00.100  2222  2222 E AndroidRuntime: \tat android.app.Activity.performCreate(Activity.java:8595)
12-06 11:00:00.100  2222  2222 E AndroidRuntime: \t... 12 more
";

#[test]
fn a_wrapped_exception_is_said_by_its_deepest_cause_and_its_first_frame() {
    let found = crashes(&parse(WRAPPED).lines);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].what,
        "java.lang.IllegalStateException: empty cart at \
         com.example.shop.CartActivity.onCreate(CartActivity.kt:31)"
    );
}

#[test]
fn garbage_is_counted_not_read_and_never_stops_the_read() {
    let text = format!(
        "12-06 10:00:00.000   10   10 I Good    : before\n\
         \u{1}\u{2}binary \u{fffd}\u{fffd} tag\n\
         12-06 99:00:00.000   10   10 I Bad     : an hour past 23\n\
         12-06 10:00:00.000   x   10 I Bad     : a pid that is no number\n\
         12-06 10:00:00.000   10   10 Q Bad     : no such priority\n\
         12-06 10:00:01.000   10   10 W \u{fffd}\u{1b}[0m: a tag of garbage\n\
         {}\n",
        "12-06 10:00:02.000   10   10 I Good    : after"
    );
    let parsed = parse(&text);
    assert_eq!(parsed.unreadable, 4);
    let messages: Vec<&str> = parsed.lines.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(messages, ["before", "a tag of garbage", "after"]);
}

#[test]
fn stamps_order_in_time_and_refuse_what_is_not_one() {
    let a = Stamp::parse("12-06 10:15:30.001").unwrap();
    let b = Stamp::parse("12-06 10:15:30.010").unwrap();
    let c = Stamp::parse("12-07 00:00:00.000").unwrap();
    assert!(a < b && b < c);
    for bad in [
        "",
        "12-06",
        "13-01 00:00:00.000",
        "12-06 24:00:00.000",
        "12-06 10:15:30",
        "1-6 10:15:30.001",
    ] {
        assert_eq!(Stamp::parse(bad), None, "{bad}");
    }
}

#[test]
fn a_request_is_the_command_a_phone_runs_and_filters_as_logcat_does() {
    let request = LogRequest {
        since: Stamp::parse("12-06 10:15:30.001"),
        pid: Some(1234),
        tail: None,
        filters: vec!["ActivityManager:I".into(), "*:W".into()],
    };
    assert_eq!(
        request.command(),
        "logcat -d -v threadtime -b main,system,crash -T '12-06 10:15:30.001' --pid=1234 \
         'ActivityManager:I' '*:W'"
    );
    let lines = parse(JAVA_CRASH).lines;
    let rules = request.rules().unwrap();
    let passed: Vec<&str> = lines
        .iter()
        .filter(|l| rules.passes(&l.tag, l.priority))
        .map(|l| l.tag.as_str())
        .collect();
    // Info from ActivityManager, warnings and up from the rest.
    assert_eq!(passed.first(), Some(&"AndroidRuntime"));
    assert_eq!(passed.last(), Some(&"ActivityManager"));
    assert!(!passed.contains(&"InputDispatcher") && !passed.contains(&"TapTube"));
    let silent = LogRequest {
        filters: vec!["AndroidRuntime:E".into(), "*:S".into()],
        ..LogRequest::default()
    };
    assert!(
        lines
            .iter()
            .filter(|l| silent.rules().unwrap().passes(&l.tag, l.priority))
            .all(|l| l.tag == "AndroidRuntime")
    );
}

#[test]
fn a_report_keeps_the_newest_lines_and_every_crash_and_says_what_it_left_out() {
    let lines = parse(JAVA_CRASH).lines;
    let report = Report::bounded(
        lines.clone(),
        Bounds {
            lines: 3,
            bytes: 1 << 20,
        },
    );
    assert_eq!(report.lines, lines[6..]);
    assert_eq!(report.left_out, 6);
    assert_eq!(report.crashes.len(), 1);
    let text = report.render();
    assert!(text.starts_with("crashes: 1\n  12-06 10:15:30.415 crash in tv.tapscope.demo"));
    assert!(text.contains("# 6 earlier lines left out"), "{text}");
    // Bytes bound too: nothing fits in 10.
    let tiny = Report::bounded(
        lines,
        Bounds {
            lines: 100,
            bytes: 10,
        },
    );
    assert_eq!((tiny.lines.len(), tiny.left_out), (0, 9));
    assert!(tiny.render().contains("(no log lines)"));
}

#[test]
fn filterspecs_read_as_liblog_reads_them_and_a_bad_one_is_named() {
    let rules = Filters::of(&["activitymanager:I", "*"]).unwrap();
    // A tag's rule matches whatever its case; `*` unsaid is `D`.
    assert!(rules.passes("ActivityManager", Priority::Info));
    assert!(!rules.passes("ActivityManager", Priority::Debug));
    assert!(rules.passes("TapTube", Priority::Debug));
    assert!(!rules.passes("TapTube", Priority::Verbose));
    assert!(Filters::default().passes("Any", Priority::Verbose));
    let bad = Filters::of(&["Tag:Q"]).unwrap_err();
    assert_eq!(
        bad.to_string(),
        "\"Tag:Q\" is not a filter `TAG:P` (P one of V, D, I, W, E, F, S)"
    );
}
