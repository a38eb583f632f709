//! The sim's log and `logcat`: each format on literal lines, filterspecs and
//! `ANDROID_LOG_TAGS`, `-t`/`-T`, `-c`, the ring's bounds, the adb CLI's own command line
//! and logcat's errors. Time is the virtual clock's.

mod system;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use crate::device::adbd::{Backend, CommandOutput};
use crate::device::sim::costs::Profile;
use crate::device::sim::log::{Buffer, Entry, Format, Limits, Log, Mark, Priority};
use crate::device::sim::shell::SimShell;
use crate::device::sim::{SYSTEM_SERVER, Writer};
use crate::stability::{Clock, VirtualClock};

/// What a command printed, and a switch that hangs up; shared with a thread running it.
#[derive(Clone, Default)]
pub(super) struct Shared {
    out: Arc<Mutex<Vec<u8>>>,
    err: Arc<Mutex<Vec<u8>>>,
    pub(super) closed: Arc<AtomicBool>,
}

impl Shared {
    pub(super) fn printed(&self) -> String {
        String::from_utf8_lossy(&self.out.lock()).into_owned()
    }
}

impl CommandOutput for Shared {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out.lock().extend_from_slice(bytes);
        Ok(())
    }
    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.err.lock().extend_from_slice(bytes);
        Ok(())
    }
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

/// Runs `line` through the shell as adbd does: its status, stdout and stderr.
pub(super) fn run(shell: &SimShell<VirtualClock>, line: &str) -> (u8, String, String) {
    let mut out = Shared::default();
    let status = shell.run(line, &mut out);
    let err = String::from_utf8_lossy(&out.err.lock()).into_owned();
    (status, out.printed(), err)
}

/// A phone whose log holds only what the test writes.
pub(super) fn quiet_shell() -> SimShell<VirtualClock> {
    let shell = SimShell::new(VirtualClock::new(), 3, Profile::Instant);
    assert_eq!(
        run(&shell, "logcat -b all -c"),
        (0, String::new(), String::new())
    );
    shell
}

pub(super) fn advance(shell: &SimShell<VirtualClock>, by: Duration) {
    shell.phone().clock().sleep(by);
}

pub(super) fn write(
    shell: &SimShell<VirtualClock>,
    buffer: Buffer,
    pid: u32,
    p: Priority,
    tag: &str,
    text: &str,
) {
    let writer = Writer { pid, tid: pid + 7 };
    shell.phone().sim().write_log(buffer, writer, p, tag, text);
}

fn entry(at_ms: u64, tag: &str, message: &str) -> Entry {
    Entry {
        at: Duration::from_millis(at_ms),
        pid: 587,
        tid: 1604,
        priority: Priority::Info,
        tag: tag.into(),
        message: message.into(),
    }
}

#[test]
fn every_format_prints_as_logcat_does() {
    let long = entry(11_045_678, "ActivityTaskManager", "START u0 {cmp=a/.B}");
    let short = entry(11_045_678, "Foo", "two\nlines");
    let cases = [
        (
            Format::ThreadTime,
            "12-01 03:04:05.678   587  1604 I ActivityTaskManager: START u0 {cmp=a/.B}\n",
            "12-01 03:04:05.678   587  1604 I Foo     : two\n12-01 03:04:05.678   587  1604 I Foo     : lines\n",
        ),
        (
            Format::Brief,
            "I/ActivityTaskManager(  587): START u0 {cmp=a/.B}\n",
            "I/Foo     (  587): two\nI/Foo     (  587): lines\n",
        ),
        (
            Format::Time,
            "12-01 03:04:05.678 I/ActivityTaskManager(  587): START u0 {cmp=a/.B}\n",
            "12-01 03:04:05.678 I/Foo     (  587): two\n12-01 03:04:05.678 I/Foo     (  587): lines\n",
        ),
        (
            Format::Process,
            "I(  587) START u0 {cmp=a/.B}  (ActivityTaskManager)\n",
            "I(  587) two  (Foo)\nI(  587) lines  (Foo)\n",
        ),
        (
            Format::Tag,
            "I/ActivityTaskManager: START u0 {cmp=a/.B}\n",
            "I/Foo     : two\nI/Foo     : lines\n",
        ),
        (
            Format::Thread,
            "I(  587: 1604) START u0 {cmp=a/.B}\n",
            "I(  587: 1604) two\nI(  587: 1604) lines\n",
        ),
        (Format::Raw, "START u0 {cmp=a/.B}\n", "two\nlines\n"),
        (
            Format::Long,
            "[ 12-01 03:04:05.678   587: 1604 I/ActivityTaskManager ]\nSTART u0 {cmp=a/.B}\n\n",
            "[ 12-01 03:04:05.678   587: 1604 I/Foo      ]\ntwo\nlines\n\n",
        ),
    ];
    for (format, one, two) in cases {
        assert_eq!(format.print(&long), one, "{format:?}");
        assert_eq!(format.print(&short), two, "{format:?}");
    }
}

#[test]
fn the_formats_are_chosen_by_v_or_android_printf_log() {
    let shell = quiet_shell();
    write(&shell, Buffer::Main, 4321, Priority::Warn, "MyApp", "hello");
    let line = |format: &str| run(&shell, &format!("logcat -d -v {format}")).1;
    assert_eq!(
        line("brief"),
        "--------- beginning of main\nW/MyApp   ( 4321): hello\n"
    );
    assert_eq!(
        line("tag"),
        "--------- beginning of main\nW/MyApp   : hello\n"
    );
    assert_eq!(line("raw,usec"), "--------- beginning of main\nhello\n");
    assert_eq!(
        run(&shell, "ANDROID_PRINTF_LOG=process logcat -d").1,
        "--------- beginning of main\nW( 4321) hello  (MyApp)\n"
    );
    assert_eq!(
        run(&shell, "logcat -d").1,
        "--------- beginning of main\n12-01 00:00:00.000  4321  4328 W MyApp   : hello\n"
    );
}

#[test]
fn the_adb_clis_logcat_line_dumps_the_default_buffers() {
    let shell = SimShell::new(VirtualClock::new(), 3, Profile::Instant);
    // What `adb logcat -d` sends.
    let (status, out, err) = run(&shell, r#"export ANDROID_LOG_TAGS="''"; exec logcat '-d'"#);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "--------- beginning of system\n\
         12-01 00:00:00.000   587   587 I SystemServer: Entered the Android system server!\n\
         12-01 00:00:00.000   587  1604 I ActivityTaskManager: START u0 \
         {act=android.intent.action.MAIN cat=[android.intent.category.HOME] flg=0x10000100 \
         cmp=com.google.android.apps.nexuslauncher/.NexusLauncherActivity} with LAUNCH_SINGLE_TASK \
         from uid 0 (BAL_ALLOW_ALLOWLISTED_UID) result code=0\n"
    );
}

#[test]
fn filterspecs_and_log_tags_pick_the_lines() {
    let shell = quiet_shell();
    write(
        &shell,
        Buffer::Main,
        4321,
        Priority::Debug,
        "MyApp",
        "debug",
    );
    write(
        &shell,
        Buffer::Main,
        4321,
        Priority::Error,
        "MyApp",
        "error",
    );
    write(
        &shell,
        Buffer::System,
        SYSTEM_SERVER,
        Priority::Info,
        "ActivityManager",
        "info",
    );
    let messages = |line: &str| -> Vec<String> {
        let (status, out, err) = run(&shell, line);
        assert_eq!((status, err.as_str()), (0, ""), "{line}");
        out.lines()
            .filter(|l| !l.starts_with("---------"))
            .map(|l| l.rsplit(": ").next().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(messages("logcat -d"), ["debug", "error", "info"]);
    assert_eq!(messages("logcat -d MyApp:E *:S"), ["error"]);
    assert_eq!(
        messages("logcat -d -s myapp"),
        ["debug", "error"],
        "tags match in any case"
    );
    assert_eq!(messages("logcat -d '*:I'"), ["error", "info"]);
    assert_eq!(messages("logcat -d MyApp:S"), ["info"]);
    assert_eq!(
        messages("logcat -d '*:W' ActivityManager"),
        ["error", "info"]
    );
    // The environment's tags hold only when the command line gives none.
    assert_eq!(messages("ANDROID_LOG_TAGS='MyApp:S' logcat -d"), ["info"]);
    assert_eq!(
        messages("ANDROID_LOG_TAGS='MyApp:S' logcat -d '*:V'"),
        ["debug", "error", "info"]
    );
    assert_eq!(messages("logcat -d --pid=587"), ["info"]);
    assert_eq!(messages("logcat -d -e 'err|inf'"), ["error", "info"]);
    assert_eq!(messages("logcat -d -m 2"), ["debug", "error"]);
    assert_eq!(messages("logcat -d -b system"), ["info"]);
    // Filtered out, a buffer's entries still print its divider, as logcat's do.
    assert_eq!(
        run(&shell, "logcat -d -s Nothing").1,
        "--------- beginning of main\n--------- beginning of system\n"
    );
}

#[test]
fn tails_by_count_or_time() {
    let shell = quiet_shell();
    for k in 0..5 {
        write(
            &shell,
            Buffer::Main,
            4321,
            Priority::Info,
            "Tick",
            &format!("tick {k}"),
        );
        advance(&shell, Duration::from_secs(1));
    }
    let ticks = |line: &str| -> String {
        let out = run(&shell, line).1;
        out.lines()
            .filter_map(|l| {
                l.strip_prefix("--------- ")
                    .map_or_else(|| l.rsplit("tick ").next(), |_| None)
            })
            .collect()
    };
    assert_eq!(ticks("logcat -t 2"), "34", "-t implies -d");
    assert_eq!(ticks("logcat -d -T 3"), "234");
    assert_eq!(ticks("logcat -t '12-01 00:00:02.000'"), "234");
    assert_eq!(ticks("logcat -d -T '12-01 00:00:03.500'"), "4");
    assert_eq!(
        ticks("logcat -t '2024-12-01 00:00:01.000'"),
        "1234",
        "a year is allowed"
    );
    let (status, out, err) = run(&shell, "logcat -t 0");
    assert_eq!(
        (status, err.as_str()),
        (0, "WARNING: -t 0 invalid, setting to 1\n")
    );
    assert!(out.ends_with("tick 4\n"), "{out}");
    assert_eq!(
        run(&shell, "logcat -t yesterday"),
        (
            1,
            String::new(),
            "logcat: -t 'yesterday' not in time format.\n".into()
        )
    );
}

#[test]
fn clear_empties_the_buffers_named() {
    let shell = quiet_shell();
    write(&shell, Buffer::Main, 4321, Priority::Info, "A", "in main");
    write(
        &shell,
        Buffer::Events,
        SYSTEM_SERVER,
        Priority::Info,
        "wm_x",
        "[1]",
    );
    assert_eq!(run(&shell, "logcat -b main -c").0, 0);
    assert_eq!(
        run(&shell, "logcat -d -b all").1,
        "--------- beginning of events\n12-01 00:00:00.000   587   594 I wm_x    : [1]\n"
    );
    write(&shell, Buffer::Main, 4321, Priority::Info, "A", "again");
    assert_eq!(run(&shell, "logcat -c; logcat -d").1, "");
    assert!(
        run(&shell, "logcat -d -b events").1.contains("[1]"),
        "-c clears the default buffers only"
    );
    let sizes = run(&shell, "logcat -g -b main,events").1;
    assert_eq!(
        sizes,
        "main: ring buffer is 256 KiB (0 B consumed), max entry is 5120 B, max payload is 4068 B\n\
         events: ring buffer is 256 KiB (39 B consumed), max entry is 5120 B, max payload is 4068 B\n"
    );
}

#[test]
fn each_buffer_keeps_its_newest_entries_within_its_bounds() {
    let mut log = Log::new(Limits {
        bytes: 1000,
        entries: 5,
    });
    for k in 0..10 {
        log.append(Buffer::Main, entry(k, "T", &format!("{k}")));
    }
    log.append(Buffer::System, entry(3, "T", "system"));
    let now = Duration::from_secs(1);
    let kept: Vec<String> = log
        .read(&[Buffer::Main], Mark::START, now, None)
        .into_iter()
        .map(|r| r.entry.message)
        .collect();
    assert_eq!(kept, ["5", "6", "7", "8", "9"]);
    assert_eq!(
        log.read(&[Buffer::System], Mark::START, now, None).len(),
        1,
        "each its own"
    );
    // By bytes: each entry costs its tag, its message and 32 bytes of header.
    let mut log = Log::new(Limits {
        bytes: 200,
        entries: 100,
    });
    for k in 0..10 {
        log.append(Buffer::Main, entry(k, "T", &"x".repeat(30)));
    }
    assert_eq!(log.read(&[Buffer::Main], Mark::START, now, None).len(), 3);
    assert_eq!(log.used(Buffer::Main), 3 * 63);
    // The sim's own: 4096 entries at most.
    let shell = quiet_shell();
    for k in 0..5000 {
        write(
            &shell,
            Buffer::Main,
            4321,
            Priority::Info,
            "N",
            &k.to_string(),
        );
    }
    let out = run(&shell, "logcat -d -v raw").1;
    assert_eq!(out.lines().count(), 1 + 4096);
    assert!(
        out.starts_with("--------- beginning of main\n904\n"),
        "{}",
        &out[..60]
    );
}

#[test]
fn an_entry_stamped_ahead_is_read_once_the_clock_reaches_it() {
    let mut log = Log::default();
    log.append(
        Buffer::System,
        entry(600, "ActivityTaskManager", "Displayed"),
    );
    log.append(Buffer::Main, entry(100, "InputDispatcher", "tap"));
    let at = |ms| Duration::from_millis(ms);
    let early = log.read(&Buffer::ALL, Mark::START, at(150), None);
    assert_eq!(early.len(), 1);
    let cursor = log.end(at(150));
    assert_eq!(cursor, early[0].mark);
    let late = log.read(&Buffer::ALL, cursor, at(700), None);
    assert_eq!(
        late.iter()
            .map(|r| r.entry.message.as_str())
            .collect::<Vec<_>>(),
        ["Displayed"]
    );
    log.clear(Buffer::System, at(150));
    assert_eq!(
        log.read(&Buffer::ALL, cursor, at(700), None).len(),
        1,
        "not written yet at the clear"
    );
}

#[test]
fn bad_options_get_logcats_own_errors() {
    let shell = quiet_shell();
    let cases = [
        ("logcat -z", "logcat: Unknown option '-z'.\n"),
        ("logcat -dz", "logcat: Unknown option '-dz'.\n"),
        (
            "logcat --frobnicate",
            "logcat: Unknown option '--frobnicate'.\n",
        ),
        ("logcat -t", "logcat: Option '-t' needs an argument.\n"),
        (
            "logcat -b nope",
            "logcat: Unknown buffer 'nope' listed for -b.\n",
        ),
        (
            "logcat -v fancy",
            "logcat: Invalid parameter 'fancy' to -v.\n",
        ),
        (
            "logcat -d Tag:X",
            "logcat: Invalid filter expression 'Tag:X'.\n",
        ),
        ("logcat --pid=0", "logcat: pid 0 out of range.\n"),
        (
            "logcat --pid=1 --pid=2",
            "logcat: Only one --pid argument can be provided.\n",
        ),
        (
            "logcat -m x",
            "logcat: -m 'x' isn't an integer greater than zero.\n",
        ),
        (
            "logcat -m 1 -t 1",
            "logcat: Cannot use -m (--max-count) and -t together.\n",
        ),
        (
            "ANDROID_LOG_TAGS=':' logcat -d",
            "logcat: Invalid filter expression in ANDROID_LOG_TAGS.\n",
        ),
    ];
    for (line, said) in cases {
        assert_eq!(
            run(&shell, line),
            (1, String::new(), said.to_owned()),
            "{line}"
        );
    }
    let (status, _, usage) = run(&shell, "logcat --help");
    assert_eq!(status, 0);
    assert!(
        usage.starts_with("Usage: logcat [options] [filterspecs]\n"),
        "{usage}"
    );
    assert_eq!(
        run(&shell, "logcat -d --form=brief -bmain"),
        (0, String::new(), String::new()),
        "a long option's prefix, an attached argument"
    );
}
