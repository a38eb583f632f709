//! Stale-action forensics: the demo recording's refused stale tap, and hand-built
//! recordings where a pixel tap lands on what replaced its target, a handle is read off
//! the stored pruned text, the old screen is missing, and a screen had not settled; and
//! actions on raw coordinates as `tapscope proxy` records them: a row replaced under the
//! point, a clock or a counter that ticked, a swipe, a landed screen not recorded, and
//! `coordinate::landing` on two trees.

use std::fs;
use std::path::Path;

use serde_json::json;
use tapscope_core::forensics::{Stale, Target, coordinate, review};
use tapscope_core::geometry::Point;
use tapscope_core::parse::parse_str;
use tapscope_core::prune::{PruneRules, prune_with_version};
use tapscope_core::recording::{
    self, AdbCommand, CommandKind, Header, Landed, Recording, RecordingError, RecordingWriter,
    ScreenFiles, ScreenRef, Step, StepOutcome,
};
use tapscope_core::{Rect, render};
use tapscope_tests::feed::feed_xml;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings/demo");

fn demo() -> Recording {
    recording::read(Path::new(DEMO)).expect("the demo recording reads")
}

#[test]
fn the_demo_stale_tap_was_refused_two_screens_later() {
    let recording = demo();
    let index = recording.steps.iter().position(|s| s.step == 13).unwrap();
    let step = &recording.steps[index];
    assert_eq!(
        (step.tool.as_str(), step.outcome),
        ("tap", StepOutcome::Refused)
    );

    let stale = review(&recording, index)
        .unwrap()
        .stale
        .expect("step 13 is stale");
    assert_eq!(stale.version_used, "c97d0606e6bb");
    assert_eq!(stale.version_at_action, "0565bc3655e4");
    // Two scrolls moved the list (0d5ee3942f46, 0565bc3655e4); the third found its end
    // and left the screen as it was.
    assert_eq!(stale.screens_ago, 2);
    assert!(stale.refused);
    // The handle c97d0606e6bb_4 named the top-left video card of the old screen.
    let meant = stale.meant.as_ref().unwrap();
    assert_eq!(meant.label, "\"45:10 · Every Apollo landing site from o…\"");
    assert_eq!(meant.bounds, Some(Rect::new(24, 84, 528, 644)));
    // Where a tap on it would have landed, the current screen shows another card.
    let [x, y] = stale.point.unwrap();
    assert!(meant.bounds.unwrap().left <= x && y < meant.bounds.unwrap().bottom);
    let now = stale.now_there.as_ref().unwrap();
    assert_eq!(now.label, "\"9:45 · Restoring a rusted hand plane · 8…\"");
    let now_bounds = now.bounds.unwrap();
    assert!((now_bounds.left..now_bounds.right).contains(&x));
    assert!((now_bounds.top..now_bounds.bottom).contains(&y));
    assert_eq!(
        stale.sentence,
        "tap refused: the handle named \"45:10 · Every Apollo landing site from o…\" from 2 \
         screens ago; that point now shows \"9:45 · Restoring a rusted hand plane · 8…\"; \
         nothing was touched"
    );
}

#[test]
fn the_demo_pixel_tap_from_an_old_screenshot_landed_elsewhere() {
    let recording = demo();
    let index = recording
        .steps
        .iter()
        .rposition(|s| s.tool == "screen_operation_shell")
        .expect("the last pixel tap");
    let stale = review(&recording, index).unwrap().stale.expect("stale");
    assert!(!stale.refused, "it happened");
    assert_eq!(stale.screens_ago, 1);
    let (meant, now) = (stale.meant.expect("meant"), stale.now_there.expect("now"));
    assert_ne!(meant.label, now.label, "another card is there now");
    assert_eq!(
        stale.sentence,
        format!(
            "tapped where {} was 1 screen ago; that point is now {}",
            meant.label, now.label
        )
    );
}

#[test]
fn every_other_demo_step_is_fresh_and_settled() {
    let recording = demo();
    for (index, step) in recording.steps.iter().enumerate() {
        let review = review(&recording, index).unwrap();
        assert_eq!(
            review.stale.is_some(),
            step.step == 13 || step.step == 24,
            "step {}",
            step.step
        );
        assert!(!review.unsettled, "step {}", step.step);
    }
    // Past the end there is nothing to review.
    assert_eq!(review(&recording, 999).unwrap(), Default::default());
}

const SEND: &str = "aaaaaaaaaaaa";
const SENDING: &str = "bbbbbbbbbbbb";
const DELETE: &str = "cccccccccccc";
const AFTER: &str = "dddddddddddd";

/// A chat screen whose bottom-right button says `button`, or none.
fn chat(title: &str, button: Option<&str>) -> String {
    let button = button.map_or_else(String::new, |text| {
        format!(
            r#"<node text="{text}" class="android.widget.Button" clickable="true" package="com.chat" bounds="[800,2200][1060,2380]"/>"#
        )
    });
    format!(
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.chat" bounds="[0,0][1080,2400]"><node text="{title}" class="android.widget.TextView" package="com.chat" bounds="[0,0][1080,200]"/>{button}</node></hierarchy>"#
    )
}

/// Stores a screen with the pruned text tapscope would have shown for it.
fn store(writer: &mut RecordingWriter, version: &str, dump: &str) -> ScreenRef {
    let pruned = prune_with_version(
        &parse_str(dump).expect("the dump parses"),
        &PruneRules::default(),
        version.into(),
    );
    store_text(writer, version, dump, &render::yaml(&pruned))
}

fn store_text(writer: &mut RecordingWriter, version: &str, dump: &str, text: &str) -> ScreenRef {
    let files = ScreenFiles {
        pixel_text: None,
        version,
        dump,
        pruned: text,
        screenshot: None,
        raw_tokens: 100,
        pruned_tokens: 10,
    };
    writer.store_screen(&files).expect("the screen is stored")
}

fn act(tool: &str, before: &ScreenRef, after: &ScreenRef, settled: bool) -> Step {
    Step {
        tool: tool.into(),
        version_before: Some(before.version.clone()),
        version_after: Some(after.version.clone()),
        settle: Some(json!({ "settled": settled, "total_ms": 500 })),
        before: Some(before.clone()),
        after: Some(after.clone()),
        ..Step::default()
    }
}

/// 1 observe "Send"; 2 a key, to "Sending…"; 3 a key, to "Delete", unsettled; 4 a pixel
/// tap measured on the "Send" screenshot; 5 an observation.
fn pixel_tap_recording(dir: &Path) -> (Recording, ScreenRef) {
    let mut writer = RecordingWriter::create(dir, &Header::new("sim", "0.1.0", "o200k", 0))
        .expect("the recording is written and read");
    let send = store(&mut writer, SEND, &chat("Draft", Some("Send")));
    let sending = store(&mut writer, SENDING, &chat("Sending…", None));
    let delete = store(&mut writer, DELETE, &chat("Sent", Some("Delete")));
    let after = store(&mut writer, AFTER, &chat("Deleted", None));
    let observe = Step {
        tool: "screen_operation_accessibility".into(),
        version_after: Some(SEND.into()),
        after: Some(send.clone()),
        ..Step::default()
    };
    writer
        .append(&observe)
        .expect("the recording is written and read");
    writer
        .append(&act("press_key", &send, &sending, true))
        .expect("the recording is written and read");
    writer
        .append(&act("press_key", &sending, &delete, false))
        .expect("the recording is written and read");
    let tap = Step {
        arguments: json!({ "command": "input tap 431 1017" }),
        version_used: Some(SEND.into()),
        path: vec![[930, 2290]],
        ..act("screen_operation_shell", &delete, &after, true)
    };
    writer
        .append(&tap)
        .expect("the recording is written and read");
    let look = Step {
        tool: "screen_operation_accessibility".into(),
        version_before: Some(AFTER.into()),
        version_after: Some(AFTER.into()),
        before: Some(after.clone()),
        after: Some(after),
        ..Step::default()
    };
    writer
        .append(&look)
        .expect("the recording is written and read");
    (
        recording::read(dir).expect("the recording is written and read"),
        send,
    )
}

#[test]
fn a_pixel_tap_lands_on_what_replaced_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let (recording, _) = pixel_tap_recording(dir.path());
    let review = review(&recording, 3).unwrap();
    let stale = review.stale.unwrap();
    assert_eq!(
        stale.sentence,
        "tapped where \"Send\" was 2 screens ago; that point is now \"Delete\""
    );
    assert_eq!((stale.screens_ago, stale.refused), (2, false));
    assert_eq!(stale.point, Some([930, 2290]));
    let button = Some(Rect::new(800, 2200, 1060, 2380));
    let target = |label: &str| Target {
        label: label.into(),
        bounds: button,
    };
    assert_eq!(stale.meant, Some(target("\"Send\"")));
    assert_eq!(stale.now_there, Some(target("\"Delete\"")));
    assert!(!review.unsettled);
}

#[test]
fn unsettled_acts_and_the_observations_after_them_are_marked() {
    let dir = tempfile::tempdir().unwrap();
    let (recording, _) = pixel_tap_recording(dir.path());
    let marked: Vec<bool> = (0..recording.steps.len())
        .map(|index| review(&recording, index).unwrap().unsettled)
        .collect();
    // Step 3 did not settle; step 4's own report did; step 5 observes after step 4.
    assert_eq!(marked, [false, false, true, false, false]);

    // An observation straight after an unsettled act is marked too.
    let mut steps = recording.steps.clone();
    steps.remove(3);
    let shortened = Recording { steps, ..recording };
    assert!(review(&shortened, 3).unwrap().unsettled);
}

#[test]
fn a_tap_on_an_empty_spot_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (mut recording, _) = pixel_tap_recording(dir.path());
    recording.steps[3].path = vec![[540, 1200]];
    let stale = review(&recording, 3).unwrap().stale.unwrap();
    assert_eq!(stale.meant, None);
    assert_eq!(stale.now_there, None);
    assert_eq!(
        stale.sentence,
        "tapped where nothing was 2 screens ago; that point is now empty"
    );
}

#[test]
fn a_refused_handle_is_read_off_the_stored_text_when_the_dump_prunes_otherwise() {
    // Recorded under other rules: the stored text is not what the default rules give. In
    // the notation trees were printed in before, and in the current one.
    for old_text in [
        "version: \"aaaaaaaaaaaa\"\n- i: 1 \"Send \\\"now\\\"\" click\n",
        "version: \"aaaaaaaaaaaa\"\n[1] \"Send \\\"now\\\"\" pos: bottom-right\n",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut writer =
            RecordingWriter::create(dir.path(), &Header::new("sim", "0.1.0", "o200k", 0)).unwrap();
        let send = store_text(&mut writer, SEND, &chat("Draft", Some("Send")), old_text);
        let sending = store(&mut writer, SENDING, &chat("Sending…", None));
        let delete = store(&mut writer, DELETE, &chat("Sent", Some("Delete")));
        writer
            .append(&act("press_key", &send, &sending, true))
            .unwrap();
        writer
            .append(&act("press_key", &sending, &delete, true))
            .unwrap();
        let tap = Step {
            tool: "tap".into(),
            handle: Some(format!("{SEND}_1")),
            version_used: Some(SEND.into()),
            version_before: Some(DELETE.into()),
            outcome: StepOutcome::Refused,
            before: Some(delete),
            ..Step::default()
        };
        writer.append(&tap).unwrap();
        let recording = recording::read(dir.path()).unwrap();
        let stale = review(&recording, 2).unwrap().stale.unwrap();
        let meant = Target {
            label: "\"Send \"now\"\"".into(),
            bounds: None,
        };
        assert_eq!(stale.meant, Some(meant), "{old_text}");
        assert_eq!((stale.point, stale.now_there), (None, None));
        assert!(stale.refused);
        assert_eq!(
            stale.sentence,
            "tap refused: the handle named \"Send \"now\"\" from 2 screens ago; nothing was touched"
        );
    }
}

#[test]
fn an_old_screen_the_recording_never_had_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (mut recording, _) = pixel_tap_recording(dir.path());
    recording.steps[3].version_used = Some("0123456789ab".into());
    let stale = review(&recording, 3).unwrap().stale.unwrap();
    assert_eq!((stale.meant, stale.screens_ago), (None, 0));
    assert_eq!(
        stale.sentence,
        "tapped on screen 0123456789ab, which is not in the recording; that point is now \
         \"Delete\""
    );
}

#[test]
fn a_deleted_old_screen_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (recording, send) = pixel_tap_recording(dir.path());
    fs::remove_file(dir.path().join(&send.dump)).unwrap();
    let error = review(&recording, 3).unwrap_err();
    assert!(
        matches!(&error, RecordingError::ScreenMissing { path, .. } if *path == send.dump),
        "{error:?}"
    );
    assert!(error.to_string().contains("is missing from"));
    // Steps that need no screen are still reviewed.
    assert!(review(&recording, 1).is_ok());
}

// Actions on raw coordinates recorded by `tapscope proxy`: the agent's look, then an action
// whose screen before is the one the proxy saw when it landed.

const READ: &str = "111111111111";
const LANDED: &str = "222222222222";
/// The point the agent taps: the fourth row of a feed.
const POINT: [i32; 2] = [540, 1210];

const FEED: [&str; 5] = [
    "Home",
    "Trending",
    "Subscriptions",
    "Video: Rust in 100 s",
    "Video: Lo-fi beats",
];

/// The feed with the fourth row's text replaced.
fn feed_with(clock: &str, fourth: &str) -> String {
    let mut rows = FEED;
    rows[3] = fourth;
    feed_xml(clock, &rows)
}

/// A step as the proxy records a command that passed through it.
fn through_proxy(tool: &str, kind: CommandKind, service: String) -> Step {
    Step {
        tool: tool.into(),
        adb: Some(AdbCommand {
            serial: "emulator-5554".into(),
            connection: 1,
            service,
            kind,
            exit: Some(0),
            sent: 40,
            received: 4_000,
            landed: None,
        }),
        ..Step::default()
    }
}

/// The agent's look at `read` from 1.0 s to 1.2 s, then `tool` through `path` at 3.0 s:
/// aimed from `read`, landing on `landed` (`None`: a screen the recording does not hold).
fn proxied_action(
    dir: &Path,
    read: &str,
    landed: Option<(&str, &str)>,
    tool: &str,
    path: &[[i32; 2]],
) -> Recording {
    let mut writer =
        RecordingWriter::create(dir, &Header::new("emulator-5554", "0.1.0", "o200k", 0))
            .expect("the recording is created");
    let read = store(&mut writer, READ, read);
    let look = Step {
        at_ms: 1_000,
        duration_ms: 200,
        version_after: Some(READ.into()),
        after: Some(read),
        ..through_proxy(
            "look",
            CommandKind::Look,
            "exec:uiautomator dump /dev/tty".into(),
        )
    };
    writer.append(&look).expect("the look is written");
    let coordinates: Vec<String> = path.iter().flatten().map(i32::to_string).collect();
    let service = format!("shell,v2,raw:input {tool} {}", coordinates.join(" "));
    let mut action = Step {
        at_ms: 3_000,
        duration_ms: 100,
        path: path.to_vec(),
        version_used: Some(READ.into()),
        version_before: Some(landed.map_or(LANDED, |(version, _)| version).into()),
        ..through_proxy(tool, CommandKind::Action, service)
    };
    if let Some((version, dump)) = landed {
        action.before = Some(store(&mut writer, version, dump));
    }
    writer.append(&action).expect("the action is written");
    recording::read(dir).expect("the recording reads")
}

/// The review of a tap at [`POINT`] aimed from `read` that landed on `landed`.
fn tap_review(read: &str, landed: &str) -> Option<Stale> {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let recording = proxied_action(dir.path(), read, Some((LANDED, landed)), "tap", &[POINT]);
    review(&recording, 1).expect("the screens load").stale
}

#[test]
fn a_proxied_tap_on_a_row_that_was_replaced_names_both_and_the_delay() {
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let landed = feed_with("9:41", "Sponsored: Buy now");
    let stale = tap_review(&read, &landed).expect("the tap met another row");
    assert_eq!(
        stale.sentence,
        "tapped (540, 1210) 1.8 s after reading a screen where that point was \"Video: Rust \
         in 100 s\"; when the tap landed it was on \"Sponsored: Buy now\""
    );
    let row = Some(Rect::new(0, 1100, 1080, 1400));
    let target = |label: &str| Target {
        label: format!("\"{label}\""),
        bounds: row,
    };
    assert_eq!(stale.meant, Some(target("Video: Rust in 100 s")));
    assert_eq!(stale.now_there, Some(target("Sponsored: Buy now")));
    assert_eq!(stale.point, Some(POINT));
    assert_eq!((stale.refused, stale.screens_ago), (false, 1));
    assert_eq!(
        (
            stale.version_used.as_str(),
            stale.version_at_action.as_str()
        ),
        (READ, LANDED)
    );
}

#[test]
fn a_clock_that_ticked_elsewhere_is_not_a_stale_tap() {
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let landed = feed_with("9:42", "Video: Rust in 100 s");
    assert_eq!(tap_review(&read, &landed), None);
}

#[test]
fn a_counter_that_ticked_under_the_point_is_the_same_element() {
    for (then, now) in [
        ("Like 12", "Like 13"),
        ("Like 999", "Like 1,000"),
        ("483K views", "1.2M views"),
        // Long names are cut at 40 characters: one more digit moves the cut.
        (
            "Comments 9 · a long title that runs past the cut",
            "Comments 10 · a long title that runs past the cut",
        ),
    ] {
        let review = tap_review(&feed_with("9:41", then), &feed_with("9:41", now));
        assert_eq!(review, None, "{then} → {now}");
    }
    // A long name that differs after the number is another element.
    let stale = tap_review(
        &feed_with("9:41", "Comments 9 · a long title that runs past the cut"),
        &feed_with("9:41", "Comments 10 · another title that runs past the cut"),
    );
    assert!(stale.is_some());
}

#[test]
fn a_tap_on_the_screen_it_read_is_not_stale() {
    let dir = tempfile::tempdir().unwrap();
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let recording = proxied_action(dir.path(), &read, Some((READ, &read)), "tap", &[POINT]);
    assert_eq!(
        recording.steps[1].version_used,
        recording.steps[1].version_before
    );
    assert_eq!(review(&recording, 1).unwrap(), Default::default());
}

#[test]
fn a_swipe_from_a_replaced_row_is_said_as_a_swipe() {
    let dir = tempfile::tempdir().unwrap();
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let landed = feed_with("9:41", "Sponsored: Buy now");
    let path = [POINT, [540, 400]];
    let recording = proxied_action(dir.path(), &read, Some((LANDED, &landed)), "swipe", &path);
    let stale = review(&recording, 1).unwrap().stale.expect("stale");
    assert_eq!(
        stale.sentence,
        "swiped from (540, 1210) 1.8 s after reading a screen where that point was \"Video: \
         Rust in 100 s\"; when the swipe landed it was on \"Sponsored: Buy now\""
    );
}

#[test]
fn a_landed_screen_the_recording_does_not_hold_is_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let recording = proxied_action(dir.path(), &read, None, "tap", &[POINT]);
    assert_eq!(recording.steps[1].before, None);
    assert_eq!(review(&recording, 1).unwrap().stale, None);
}

#[test]
fn a_look_that_ends_past_the_clock_says_no_delay_rather_than_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let read = feed_with("9:41", "Video: Rust in 100 s");
    let landed = feed_with("9:41", "Sponsored: Buy now");
    let mut recording = proxied_action(dir.path(), &read, Some((LANDED, &landed)), "tap", &[POINT]);
    recording.steps[0].at_ms = u64::MAX - 10;
    let stale = review(&recording, 1).unwrap().stale.expect("stale");
    assert!(
        stale
            .sentence
            .starts_with("tapped (540, 1210) 0.0 s after reading"),
        "{}",
        stale.sentence
    );
}

#[test]
fn landing_compares_what_a_point_meets_on_two_trees() {
    let tree = |xml: &str| parse_str(xml).expect("the dump parses");
    let read = tree(&feed_with("9:41", "Video: Rust in 100 s"));
    let point = Point::new(POINT[0], POINT[1]);

    let landing = coordinate::landing(
        &read,
        &tree(&feed_with("9:41", "Sponsored: Buy now")),
        point,
    );
    assert_eq!(landing.landed, Landed::Elsewhere);
    assert_eq!(landing.then.unwrap().label, "\"Video: Rust in 100 s\"");
    assert_eq!(landing.now.unwrap().label, "\"Sponsored: Buy now\"");

    let ticked = tree(&feed_with("10:02", "Video: Rust in 100 s"));
    assert_eq!(
        coordinate::landing(&read, &ticked, point).landed,
        Landed::Same
    );

    // Below the last row nothing is hit, then or now: the same nothing.
    let empty = coordinate::landing(&read, &ticked, Point::new(540, 2300));
    assert_eq!(
        (empty.then, empty.now, empty.landed),
        (None, None, Landed::Same)
    );

    // The row gone: the point meets nothing now.
    let shorter = tree(&feed_xml("9:41", &FEED[..3]));
    let gone = coordinate::landing(&read, &shorter, point);
    assert_eq!((gone.now, gone.landed), (None, Landed::Elsewhere));
}

#[test]
fn landing_on_rows_as_wide_as_coordinates_go_does_not_overflow() {
    let wide = |text: &str| {
        format!(
            r#"<hierarchy rotation="0"><node text="{text}" class="android.widget.TextView" package="com.tube" clickable="true" bounds="[-2147483648,-2147483648][2147483647,2147483647]"/></hierarchy>"#
        )
    };
    let (then, now) = (
        parse_str(&wide("Like 1")).unwrap(),
        parse_str(&wide("Like 2")).unwrap(),
    );
    let landing = coordinate::landing(&then, &now, Point::new(540, 1210));
    assert_eq!(landing.landed, Landed::Same);
}
