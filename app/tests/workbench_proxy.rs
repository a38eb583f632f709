//! The workbench on a recording `tapscope proxy` wrote, headless with egui_kittest: a
//! recording of a feed written here (a look, a tap aimed at a row that an ad replaced, a tap
//! that hit its button after a clock ticked, a shell command) opens as any other; the stale
//! tap alone is marked, its forensics and adb facts show; steps appended while it is open
//! reach the timeline, the step on show staying; one opened before its first step opens
//! with it; a snapshot image of the stale tap.

#[path = "common/screens.rs"]
mod screens;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use screens::store_screen;
use serde_json::json;
use tapscope::gui::Workbench;
use tapscope_core::forensics;
use tapscope_core::recording::{
    self, AdbCommand, Check, CommandKind, Header, Landed, ProxyHeader, RecordingWriter,
    SESSION_FILE, ScreenRef, Step,
};

const SIZE: egui::Vec2 = egui::vec2(1600.0, 960.0);
const SERIAL: &str = "emulator-5554";

/// The feed as the agent read it, the same feed with an ad where its first video was, and
/// that feed a minute later.
const FEED: &str = "a1a1a1a1a1a1";
const AD: &str = "b2b2b2b2b2b2";
const TICKED: &str = "c3c3c3c3c3c3";

/// Where the agent tapped: the feed's first row, then its like button.
const ROW: [i32; 2] = [540, 1210];
const LIKE: [i32; 2] = [930, 1480];

const STALE_TAP: &str = "shell,v2,raw:input tap 540 1210";
const GETPROP: &str = "shell,v2,raw:getprop ro.build.version.sdk";

/// A feed whose status bar shows `clock` and whose first row says `row`.
fn feed(clock: &str, row: &str) -> String {
    let node = |text: &str, clickable: bool, bounds: &str| {
        format!(
            r#"<node text="{text}" class="android.widget.TextView" package="com.feed" clickable="{clickable}" enabled="true" bounds="{bounds}"/>"#
        )
    };
    [
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.feed" bounds="[0,0][1080,2400]">"#.to_owned(),
        node(clock, false, "[40,10][200,70]"),
        node("Feed", false, "[0,80][1080,240]"),
        node(row, true, "[0,1100][1080,1320]"),
        node("Video: Bridges of Lisbon", true, "[0,1320][1080,1380]"),
        node("Like 12", true, "[800,1400][1060,1560]"),
        "</node></hierarchy>".to_owned(),
    ]
    .concat()
}

/// What the proxy records of a service a client opened on connection `connection`.
fn adb(connection: u64, service: &str, kind: CommandKind, landed: Option<Landed>) -> AdbCommand {
    AdbCommand {
        serial: SERIAL.into(),
        connection,
        service: service.into(),
        kind,
        exit: Some(0),
        sent: 0,
        received: 1480,
        landed,
    }
}

/// A step of `tool` at `at_ms` taking 200 ms, its command the service's after the colon.
fn proxied(tool: &str, at_ms: u64, adb: AdbCommand) -> Step {
    let command = adb
        .service
        .split_once(':')
        .map_or("", |(_, c)| c)
        .to_owned();
    Step {
        at_ms,
        duration_ms: 200,
        tool: tool.into(),
        arguments: json!({ "command": command }),
        adb: Some(adb),
        ..Step::default()
    }
}

/// The agent's look at `screen`.
fn look(at_ms: u64, connection: u64, screen: &ScreenRef) -> Step {
    let service = "shell,v2,raw:uiautomator dump /dev/tty";
    Step {
        version_after: Some(screen.version.clone()),
        after: Some(screen.clone()),
        message: "read 6 nodes".into(),
        ..proxied(
            "look",
            at_ms,
            adb(connection, service, CommandKind::Look, None),
        )
    }
}

/// A tap at `point` on connection `connection`, aimed from screen `used`, that landed on
/// `landed_on`.
fn tap(
    (at_ms, connection): (u64, u64),
    point: [i32; 2],
    used: &str,
    landed_on: &ScreenRef,
    landed: Landed,
) -> Step {
    let [x, y] = point;
    let service = format!("shell,v2,raw:input tap {x} {y}");
    let adb = adb(connection, &service, CommandKind::Action, Some(landed));
    Step {
        version_used: Some(used.into()),
        version_before: Some(landed_on.version.clone()),
        before: Some(landed_on.clone()),
        path: vec![point],
        message: "exit 0; 0 bytes of output, 0 bytes of input".into(),
        ..proxied("tap", at_ms, adb)
    }
}

/// A shell command the client sent on connection `connection`.
fn shell(at_ms: u64, connection: u64, service: &str) -> Step {
    Step {
        message: "exit 0; 3 bytes of output, 0 bytes of input".into(),
        ..proxied(
            "shell",
            at_ms,
            adb(connection, service, CommandKind::Command, None),
        )
    }
}

/// A fresh folder `name` for a test's recording.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The header of a recording `tapscope proxy` makes with `--check tree`.
fn proxy_header() -> Header {
    Header {
        proxy: Some(ProxyHeader {
            upstream: "127.0.0.1:5037".into(),
            check: Check::Tree,
        }),
        ..Header::new(SERIAL, "0.1.0", "o200k_base", 0)
    }
}

/// A proxy's recording of five steps in a fresh folder `name`: 1 a look at the feed; 2 a
/// tap on its first row 1.8 s later, when an ad had taken the row's place (landed
/// elsewhere); 3 a look at the feed with the ad; 4 a tap on "Like" after the clock ticked
/// (landed on the same button); 5 a shell command. Its folder, and the feed with the ad.
fn proxy_recording(name: &str) -> (PathBuf, ScreenRef) {
    let dir = scratch(name);
    let mut writer = RecordingWriter::create(&dir, &proxy_header()).expect("the recording starts");
    let feed_screen = store_screen(&mut writer, FEED, &feed("9:41", "Video: Cats at sea"));
    let ad = store_screen(&mut writer, AD, &feed("9:41", "Sponsored: Buy now"));
    let ticked = store_screen(&mut writer, TICKED, &feed("9:42", "Sponsored: Buy now"));
    let steps = [
        look(1000, 1, &feed_screen),
        tap((3000, 2), ROW, FEED, &ad, Landed::Elsewhere),
        look(6000, 3, &ad),
        tap((9000, 4), LIKE, AD, &ticked, Landed::Same),
        shell(11_000, 5, GETPROP),
    ];
    for step in &steps {
        writer.append(step).expect("the step is written");
    }
    (dir, ad)
}

/// Appends `text` to the recording's log as another writer would.
fn append(dir: &Path, text: &str) {
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join(SESSION_FILE))
        .expect("the log opens");
    log.write_all(text.as_bytes()).expect("appended");
}

/// `step` as its line in the log, numbered `number`.
fn line(number: u64, step: Step) -> String {
    let step = Step {
        step: number,
        ..step
    };
    serde_json::to_string(&step).expect("a step encodes") + "\n"
}

fn harness(builder: egui_kittest::HarnessBuilder<Workbench>) -> Harness<'static, Workbench> {
    builder.with_size(SIZE).with_max_steps(16).build_ui_state(
        |ui, workbench: &mut Workbench| workbench.ui(ui),
        Workbench::new(),
    )
}

/// The workbench with `dir` opened the way `tapscope open DIR` opens it.
fn opened(
    builder: egui_kittest::HarnessBuilder<Workbench>,
    dir: &Path,
) -> Harness<'static, Workbench> {
    let mut harness = harness(builder);
    let ctx = harness.ctx.clone();
    harness.state_mut().open(dir.to_path_buf(), &ctx);
    harness.state_mut().finish_loading();
    harness.run();
    harness
}

/// The proxy's recording in folder `name`, opened, its stale tap clicked on the timeline.
fn on_the_stale_tap(name: &str) -> (PathBuf, ScreenRef, Harness<'static, Workbench>) {
    let (dir, ad) = proxy_recording(name);
    let mut harness = opened(Harness::builder(), &dir);
    harness
        .get_by_label("timeline step 2: tap, ok, stale")
        .click();
    harness.run();
    let on_show = harness.state().step().expect("a step");
    assert_eq!((on_show.step.step, on_show.step.tool.as_str()), (2, "tap"));
    (dir, ad, harness)
}

fn no_banner(workbench: &Workbench) {
    let messages = &workbench.banner.messages;
    assert!(messages.is_empty(), "{messages:?}");
}

fn steps_open(workbench: &Workbench) -> usize {
    workbench.recording().map_or(0, |r| r.steps().len())
}

/// Runs frames until `done`, failing with `what` after a few seconds; the recording is
/// read again on a thread of its own, which wakes the window when it has.
fn until(harness: &mut Harness<'_, Workbench>, what: &str, done: impl Fn(&Workbench) -> bool) {
    let started = Instant::now();
    while !done(harness.state()) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "timed out waiting until {what}"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run();
}

#[test]
fn a_proxied_recording_opens_with_the_stale_tap_alone_marked() {
    let (dir, _) = proxy_recording("proxy_open");
    let mut harness = opened(Harness::builder(), &dir);
    let workbench = harness.state();
    no_banner(workbench);
    assert_eq!(steps_open(workbench), 5);
    // The look left the screen it read: that is where the recording opens.
    assert_eq!(workbench.title(), "tapscope — proxy_open — step 1/5 · look");
    assert_eq!(workbench.document().expect("a screen").version, FEED);
    harness.get_by_label("after, version a1a1a1a1a1a1");

    harness.get_by_label("timeline step 1: look, ok");
    harness.get_by_label("timeline step 2: tap, ok, stale");
    // Its versions differ as the stale tap's do, but it hit the button it aimed at.
    harness.get_by_label("timeline step 4: tap, ok");
    harness.get_by_label("timeline step 5: shell, ok");
    let stale = harness.query_all_by_label_contains(", stale").count();
    assert_eq!(stale, 1, "only the tap that landed elsewhere is stale");

    // A tap left no screen: the one it landed on is shown.
    harness.get_by_label("timeline step 4: tap, ok").click();
    harness.run();
    harness.get_by_label_contains("before, version c3c3c3c3c3c3: the step left no screen");
    harness.get_by_label(
        "on what the agent aimed at; the screen changed elsewhere (b2b2b2b2b2b2 -> c3c3c3c3c3c3)",
    );
    assert!(
        harness
            .query_by_label_contains("when the tap landed")
            .is_none(),
        "no forensics for a tap that hit its button"
    );

    // The shell command read and changed no screen.
    harness.get_by_label("timeline step 5: shell, ok").click();
    harness.run();
    harness.get_by_label("No screen");
    harness.get_by_label_contains("step 5 · shell recorded no screen");
    harness.get_by_label(GETPROP);
    harness.get_by_label("exit 0; 3 bytes of output, 0 bytes of input");
    harness.get_by_label("not an action on a coordinate");
}

#[test]
fn the_stale_tap_shows_what_it_aimed_at_and_where_it_landed() {
    let (dir, _, harness) = on_the_stale_tap("proxy_stale");

    let read = recording::read(&dir).expect("the recording reads");
    let review = forensics::review(&read, 1).expect("reviewed");
    let sentence = review.stale.expect("a stale tap").sentence;
    assert!(
        sentence.contains("1.8 s after reading")
            && sentence.contains("Cats at sea")
            && sentence.ends_with("when the tap landed it was on \"Sponsored: Buy now\""),
        "{sentence}"
    );
    harness.get_by_label(&sentence);
    // The screen the agent read beside the one the tap landed on.
    harness.get_by_label("Aimed at, on the screen the agent read");
    harness.get_by_label("Hit when it landed, on the screen of that moment");
    harness.get_by_label("version a1a1a1a1a1a1");
    harness.get_by_label("version b2b2b2b2b2b2");
    harness.get_by_label(concat!(
        "stale: aimed on the screen of version a1a1a1a1a1a1, ",
        "landed on version b2b2b2b2b2b2 on something else"
    ));

    // The command as the client sent it, and what passed.
    harness.get_by_label(STALE_TAP);
    harness.get_by_label("emulator-5554 · client connection 2");
    harness.get_by_label("action: acted on the phone");
    harness.get_by_label("0 bytes sent · 1480 bytes received");
    harness.get_by_label_contains("elsewhere: the point hit something other than");
    harness.get_by_label_contains("proxy to 127.0.0.1:5037 · check tree");
}

#[test]
fn steps_appended_while_open_reach_the_timeline_and_the_step_on_show_stays() {
    let (dir, ad, mut harness) = on_the_stale_tap("proxy_follow");

    append(&dir, &line(6, look(13_000, 6, &ad)));
    until(&mut harness, "the appended look is on the timeline", |w| {
        steps_open(w) == 6
    });
    harness.get_by_label("timeline step 6: look, ok");
    let workbench = harness.state();
    assert_eq!(
        workbench.step().expect("a step").index,
        1,
        "still on the tap"
    );
    assert!(workbench.document().is_some(), "its screen still drawn");
    assert_eq!(
        workbench.title(),
        "tapscope — proxy_follow — step 2/6 · tap"
    );

    // A line written in two parts counts once whole.
    let next = line(
        7,
        shell(
            15_000,
            7,
            "shell,v2,raw:settings get global airplane_mode_on",
        ),
    );
    let (first, rest) = next.split_at(next.len() / 2);
    append(&dir, first);
    until(&mut harness, "the half line is read", |w| {
        w.recording()
            .is_some_and(|r| !r.recording.problems.is_empty())
    });
    assert_eq!(steps_open(harness.state()), 6);
    append(&dir, rest);
    until(&mut harness, "the whole line is read", |w| {
        steps_open(w) == 7
    });
    harness.get_by_label("timeline step 7: shell, ok");
    let workbench = harness.state();
    assert!(
        workbench
            .recording()
            .expect("open")
            .recording
            .problems
            .is_empty()
    );
    no_banner(workbench);
    assert_eq!(workbench.step().expect("a step").index, 1);
}

#[test]
fn a_recording_opened_before_its_first_step_opens_with_it() {
    let dir = scratch("proxy_empty");
    let mut writer = RecordingWriter::create(&dir, &proxy_header()).expect("the recording starts");
    let screen = store_screen(&mut writer, FEED, &feed("9:41", "Video: Cats at sea"));
    let mut harness = opened(Harness::builder(), &dir);
    let workbench = harness.state();
    assert!(workbench.opened.is_empty());
    no_banner(workbench);
    assert_eq!(workbench.waiting_for(), Some("proxy_empty"));
    let note = "proxy_empty has no step yet: it opens when one is written";
    assert!(
        harness.query_all_by_label(note).count() > 0,
        "the wait is said"
    );

    writer
        .append(&look(1000, 1, &screen))
        .expect("the first step is written");
    until(
        &mut harness,
        "the recording opens with its first step",
        |w| steps_open(w) == 1,
    );
    let workbench = harness.state();
    assert_eq!(workbench.waiting_for(), None);
    assert_eq!(
        workbench.title(),
        "tapscope — proxy_empty — step 1/1 · look"
    );
    no_banner(workbench);
    harness.get_by_label("timeline step 1: look, ok");
    assert!(harness.query_by_label(note).is_none());

    // It is followed from there on.
    writer
        .append(&shell(3000, 2, GETPROP))
        .expect("the next step is written");
    until(&mut harness, "the next step shows", |w| steps_open(w) == 2);
    harness.get_by_label("timeline step 2: shell, ok");
}

#[test]
fn renders_the_stale_tap_to_a_snapshot() {
    let (dir, _) = proxy_recording("proxy_snapshot");
    let mut harness = opened(Harness::builder().wgpu(), &dir);
    harness.state_mut().go_to_step(1);
    harness.run();
    let options = egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(2000);
    harness.snapshot_options("workbench_proxy_stale", &options);
}
