//! Re-pruning recordings written here: small ones of literal dumps, whose every target is
//! known, and generated ones from the sim, damaged on purpose.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use super::*;
use crate::parse::parse_str;
use crate::prune::KeyboardMode;
use crate::recording::{self, Header, ProblemKind, RecordingWriter, ScreenFiles, StepOutcome};
use crate::render;
use crate::session::synthetic;

/// A search screen: a field, a result, and a keyboard with three keys.
const SEARCH: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
    <node text="Search videos" class="android.widget.EditText" package="app" clickable="true" focused="true" bounds="[0,0][1080,150]"/>
    <node text="cello for beginners" class="android.widget.TextView" package="app" clickable="true" bounds="[0,200][1080,350]"/>
  </node>
  <node class="android.widget.FrameLayout" package="com.android.inputmethod.latin" bounds="[0,1600][1080,2400]">
    <node text="q" class="android.widget.Button" package="com.android.inputmethod.latin" clickable="true" bounds="[0,1600][100,1700]"/>
    <node text="w" class="android.widget.Button" package="com.android.inputmethod.latin" clickable="true" bounds="[100,1600][200,1700]"/>
    <node content-desc="Search" class="android.widget.ImageButton" package="com.android.inputmethod.latin" clickable="true" bounds="[900,2200][1080,2400]"/>
  </node>
</hierarchy>"#;

/// The same screen after typing a letter.
const TYPED: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
    <node text="q" class="android.widget.EditText" package="app" clickable="true" focused="true" bounds="[0,0][1080,150]"/>
  </node>
  <node class="android.widget.FrameLayout" package="com.android.inputmethod.latin" bounds="[0,1600][1080,2400]">
    <node text="q" class="android.widget.Button" package="com.android.inputmethod.latin" clickable="true" bounds="[0,1600][100,1700]"/>
  </node>
</hierarchy>"#;

fn collapse() -> PruneRules {
    PruneRules {
        keyboard: KeyboardMode::Collapse,
        ..PruneRules::default()
    }
}

/// Stores `xml` as a session would under `rules` (the defaults, unless testing others).
fn store(writer: &mut RecordingWriter, xml: &str, rules: &PruneRules) -> ScreenRef {
    let (_, text) = render::versioned(&parse_str(xml).unwrap(), rules);
    let version = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("version: \""))
        .map(|v| v.trim_end_matches('"').to_owned())
        .unwrap_or_default();
    let count = |t: &str| Encoding::O200k.count(t).tokens() as u32;
    writer
        .store_screen(&ScreenFiles {
            pixel_text: None,
            version: &version,
            dump: xml,
            pruned: &text,
            screenshot: None,
            raw_tokens: count(xml),
            pruned_tokens: count(&text),
        })
        .unwrap()
}

fn tap(handle: String, before: &ScreenRef, after: Option<&ScreenRef>) -> Step {
    Step {
        tool: "tap".into(),
        version_used: handle.split('_').next().map(str::to_owned),
        handle: Some(handle),
        before: Some(before.clone()),
        after: after.cloned(),
        ..Step::default()
    }
}

/// Observe the search screen, tap the field (i 1), the key "q" (i 3), then Search (i 5)
/// with a handle of the screen before typing.
fn write_search(dir: &Path, stored_rules: &PruneRules) -> Recording {
    let header = Header::new("sim", "0.1.0", "o200k_base", 0);
    let mut writer = RecordingWriter::create(dir, &header).unwrap();
    let search = store(&mut writer, SEARCH, stored_rules);
    let typed = store(&mut writer, TYPED, stored_rules);
    let observe = Step {
        tool: "screen_operation_accessibility".into(),
        after: Some(search.clone()),
        ..Step::default()
    };
    let mut stale = tap(format!("{}_5", search.version), &typed, None);
    stale.outcome = StepOutcome::Refused;
    let steps = [
        observe,
        tap(format!("{}_1", search.version), &search, Some(&search)),
        tap(format!("{}_3", search.version), &search, Some(&typed)),
        stale,
    ];
    for step in &steps {
        writer.append(step).unwrap();
    }
    recording::read(dir).unwrap()
}

fn generated(steps: usize, seed: u64) -> (tempfile::TempDir, Recording) {
    let dir = tempfile::tempdir().unwrap();
    synthetic::write(&dir.path().join("rec"), steps, seed).unwrap();
    let recording = recording::read(&dir.path().join("rec")).unwrap();
    (dir, recording)
}

#[test]
fn the_default_rules_change_nothing_on_a_generated_recording() {
    let (_dir, recording) = generated(80, 3);
    let result = reprune(&recording, &PruneRules::default()).unwrap();
    let refs: Vec<&ScreenRef> = recording
        .steps
        .iter()
        .flat_map(|s| [&s.before, &s.after])
        .flatten()
        .collect();
    let distinct: HashSet<(&str, Option<&str>)> = refs
        .iter()
        .map(|s| (s.dump.as_str(), s.pixel_text.as_deref()))
        .collect();
    assert_eq!(result.screens.len(), distinct.len(), "each screen once");
    assert!(distinct.len() * 2 < refs.len(), "steps share screens");
    for screen in &result.screens {
        let ScreenNow::Repruned {
            pruned_tokens,
            lost,
        } = &screen.now
        else {
            panic!("{} could not be re-pruned", screen.recorded.dump);
        };
        assert_eq!(
            pruned_tokens.tokens(),
            screen.recorded.pruned_tokens as usize
        );
        assert!(lost.is_empty(), "{lost:?}");
    }
    let mut kept = 0;
    for step in &result.steps {
        assert!(!result.changed(step), "step {}", step.step);
        match &step.target {
            Some(TargetCheck::Kept { i_then, i_now, .. }) => {
                assert_eq!(i_then, i_now);
                kept += 1;
            }
            // The generated agent also taps handles past the end of the tree.
            Some(TargetCheck::Unchecked(Unchecked::NoSuchNode { .. })) | None => {}
            Some(other) => panic!("step {}: {other:?}", step.step),
        }
    }
    assert!(kept > 10, "{kept} targets checked");
    let totals = result.totals();
    assert!(!totals.tokens.changed());
    assert_eq!(totals.steps, 80);
    assert!(!totals.loses_anything());
}

#[test]
fn collapsing_the_keyboard_names_the_keys_and_the_targets_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let recording = write_search(&dir.path().join("rec"), &PruneRules::default());
    let result = reprune(&recording, &collapse()).unwrap();
    assert_eq!(result.screens.len(), 2);
    let names: Vec<&str> = result.screens[0]
        .now
        .lost()
        .iter()
        .map(|l| l.name.as_str())
        .collect();
    assert_eq!(names, ["q (Button)", "w (Button)", "Search (ImageButton)"]);

    let field = &result.steps[1];
    assert!(matches!(
        &field.target,
        Some(TargetCheck::Kept { target, i_then: 1, i_now: 1 }) if target == "edit \"Search videos\""
    ));
    let key = &result.steps[2];
    let Some(TargetCheck::Lost {
        target,
        i_then,
        why,
    }) = &key.target
    else {
        panic!("{:?}", key.target);
    };
    assert_eq!((target.as_str(), *i_then), ("\"q\"", 3));
    assert!(why.to_string().contains("keyboard = collapse"), "{why}");
    // A refused stale handle names the screen of its version, not the step's own.
    assert!(
        matches!(&result.steps[3].target, Some(TargetCheck::Lost { target, .. }) if target == "\"Search\"")
    );
    assert!(result.changed(key) && result.changed(&result.steps[0]));
    assert_eq!(
        result.lost_nodes(key).len(),
        2,
        "before and after both lose keys"
    );

    let totals = result.totals();
    assert_eq!(totals.lost_nodes, 3 + 1);
    assert_eq!(totals.lost_targets, 2);
    assert_eq!(totals.steps_with_lost_nodes, 4);
    assert!(totals.tokens.now.tokens() < totals.tokens.then);
    assert!(totals.loses_anything());
}

#[test]
fn json_holds_totals_steps_and_named_losses() {
    let dir = tempfile::tempdir().unwrap();
    let recording = write_search(&dir.path().join("rec"), &PruneRules::default());
    let json = serde_json::to_value(reprune(&recording, &collapse()).unwrap()).unwrap();
    assert_eq!(json["totals"]["lost_targets"], 2);
    assert_eq!(json["totals"]["loses_anything"], true);
    assert_eq!(json["rules"]["keyboard"], "collapse");
    assert_eq!(json["steps"][2]["target"]["check"], "lost");
    assert_eq!(json["steps"][2]["target"]["target"], "\"q\"");
    assert_eq!(json["steps"][1]["target"]["i_now"], 1);
    assert_eq!(json["steps"][0]["lost_nodes"], 3);
    assert_eq!(json["screens"][0]["lost"][0]["name"], "q (Button)");
    assert_eq!(json["screens"][0]["lost"][0]["text"], "q");
    assert_eq!(json["unreadable_files"], serde_json::json!([]));
}

#[test]
fn screens_recorded_under_other_rules_leave_targets_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let other = PruneRules {
        anchors: true,
        ..PruneRules::default()
    };
    let recording = write_search(&dir.path().join("rec"), &other);
    let result = reprune(&recording, &collapse()).unwrap();
    for step in &result.steps[1..] {
        let Some(TargetCheck::Unchecked(why @ Unchecked::OtherRules { .. })) = &step.target else {
            panic!("{:?}", step.target);
        };
        assert!(why.to_string().contains("other rules"), "{why}");
    }
    assert_eq!(result.totals().unchecked_targets, 3);
    assert_eq!(result.totals().lost_nodes, 4, "nodes are still checked");
}

#[test]
fn handles_that_are_malformed_or_name_no_recorded_screen_are_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rec");
    let mut writer =
        RecordingWriter::create(&folder, &Header::new("sim", "0.1.0", "o200k", 0)).unwrap();
    let search = store(&mut writer, SEARCH, &PruneRules::default());
    writer.append(&tap("abc_1".into(), &search, None)).unwrap();
    writer
        .append(&tap("0123456789ab_1".into(), &search, None))
        .unwrap();
    let result = reprune(&recording::read(&folder).unwrap(), &collapse()).unwrap();
    assert!(matches!(
        &result.steps[0].target,
        Some(TargetCheck::Unchecked(Unchecked::MalformedHandle { handle, .. })) if handle == "abc_1"
    ));
    assert_eq!(
        result.steps[1].target,
        Some(TargetCheck::Unchecked(Unchecked::ScreenNotRecorded {
            version: "0123456789ab".into()
        }))
    );
    assert_eq!(result.totals().lost_targets, 0);
}

#[test]
fn a_missing_screen_file_is_named_and_the_rest_repruned() {
    let (dir, recording) = generated(40, 5);
    let (at, gone) = (recording.steps.iter().enumerate().skip(3))
        .find_map(|(k, s)| Some((k, s.after.clone()?)))
        .unwrap();
    fs::remove_file(dir.path().join("rec").join(&gone.dump)).unwrap();
    let result = reprune(&recording, &collapse()).unwrap();
    let files: Vec<&str> = result.unreadable_files().iter().map(|p| p.file()).collect();
    assert_eq!(files, [gone.dump.as_str()]);
    let message = result.unreadable_files()[0].to_string();
    assert!(
        message.contains("is missing") && message.contains("copy it back"),
        "{message}"
    );
    let totals = result.totals();
    assert_eq!(totals.unreadable_screens, 1);
    assert_eq!(
        totals.screens - 1,
        result
            .screens
            .iter()
            .filter(|s| !s.now.is_unreadable())
            .count()
    );
    let step = &result.steps[at];
    assert_eq!(result.tokens(step), StepTokens::Unreadable);
    assert!(totals.counted_steps < result.steps.iter().filter(|s| s.after.is_some()).count());
    let unchecked = result.steps.iter().filter_map(|s| s.target.as_ref()).any(|t| {
        matches!(t, TargetCheck::Unchecked(Unchecked::ScreenUnreadable(ScreenProblem::Missing { file, .. })) if *file == gone.dump)
    });
    let named = (recording.steps.iter())
        .any(|s| s.handle.is_some() && s.version_used.as_deref() == Some(gone.version.as_str()));
    assert_eq!(
        unchecked, named,
        "targets on the missing screen are unchecked"
    );
}

#[test]
fn a_missing_pruned_text_leaves_its_targets_unchecked_and_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rec");
    let recording = write_search(&folder, &PruneRules::default());
    let pruned = recording.steps[0].after.clone().unwrap().pruned;
    fs::remove_file(folder.join(&pruned)).unwrap();
    let result = reprune(&recording, &collapse()).unwrap();
    assert!(matches!(
        &result.steps[1].target,
        Some(TargetCheck::Unchecked(Unchecked::ScreenUnreadable(ScreenProblem::Missing { file, .. }))) if *file == pruned
    ));
    let files: Vec<&str> = result.unreadable_files().iter().map(|p| p.file()).collect();
    assert_eq!(files, [pruned.as_str()]);
    assert_eq!(
        result.totals().lost_nodes,
        4,
        "the dumps are re-pruned still"
    );
}

#[test]
fn a_cut_short_last_line_is_reported_and_the_steps_before_kept() {
    let (dir, _) = generated(20, 9);
    let log = dir.path().join("rec").join(recording::SESSION_FILE);
    let mut text = fs::read_to_string(&log).unwrap();
    text.push_str(r#"{"step":21,"at_ms":9000,"tool":"ta"#);
    fs::write(&log, text).unwrap();
    let recording = recording::read(&dir.path().join("rec")).unwrap();
    let result = reprune(&recording, &PruneRules::default()).unwrap();
    assert_eq!(result.steps.len(), 20);
    assert_eq!(result.skipped_lines.len(), 1);
    assert_eq!(result.skipped_lines[0].kind, ProblemKind::TruncatedLastLine);
    assert_eq!(result.skipped_lines[0].line, 22);
    assert!(!result.totals().loses_anything());
}

#[test]
fn an_unknown_encoding_is_an_error_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rec");
    RecordingWriter::create(&folder, &Header::new("sim", "0.1.0", "p50k_base", 0)).unwrap();
    let error = reprune(&recording::read(&folder).unwrap(), &collapse()).unwrap_err();
    assert!(matches!(&error, RepruneError::UnknownEncoding { found, .. } if found == "p50k_base"));
    assert!(error.to_string().contains("does not know"), "{error}");
}

#[test]
fn unchecked_targets_are_json_with_their_reason_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rec");
    let recording = write_search(&folder, &PruneRules::default());
    let pruned = recording.steps[0].after.clone().unwrap().pruned;
    fs::remove_file(folder.join(&pruned)).unwrap();
    let json = serde_json::to_value(reprune(&recording, &collapse()).unwrap()).unwrap();
    let target = &json["steps"][1]["target"];
    assert_eq!(target["check"], "unchecked", "{target}");
    assert_eq!(target["reason"], "screen-unreadable", "{target}");
    assert_eq!(target["file"], pruned.as_str(), "{target}");
    let why = target["why"].as_str().unwrap();
    assert!(why.contains(&format!("{pruned} is missing")), "{why}");
    assert_eq!(json["totals"]["unchecked_targets"], 3);

    let other = tempfile::tempdir().unwrap();
    let folder = other.path().join("rec");
    let mut writer =
        RecordingWriter::create(&folder, &Header::new("sim", "0.1.0", "o200k", 0)).unwrap();
    let search = store(&mut writer, SEARCH, &PruneRules::default());
    writer.append(&tap("abc_1".into(), &search, None)).unwrap();
    writer
        .append(&tap("0123456789ab_1".into(), &search, None))
        .unwrap();
    let result = reprune(&recording::read(&folder).unwrap(), &collapse()).unwrap();
    let json = serde_json::to_value(&result).unwrap();
    let reasons: Vec<&serde_json::Value> = (0..2)
        .map(|k| &json["steps"][k]["target"]["reason"])
        .collect();
    assert_eq!(reasons, ["malformed-handle", "screen-not-recorded"]);
    assert!(json["steps"][0]["target"].get("file").is_none());
}

#[cfg(unix)]
#[test]
fn a_screen_that_is_a_link_is_named_unreadable_and_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rec");
    let recording = write_search(&folder, &PruneRules::default());
    let dump = recording.steps[0].after.clone().unwrap().dump;
    fs::remove_file(folder.join(&dump)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", folder.join(&dump)).unwrap();
    let result = reprune(&recording, &collapse()).unwrap();
    let files = result.unreadable_files();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].file(), dump);
    let message = files[0].to_string();
    assert!(
        message.contains(&format!(
            "{} is a symbolic link",
            folder.join(&dump).display()
        )),
        "{message}"
    );
}

#[test]
fn progress_hears_of_each_distinct_screen_once_in_order() {
    let (_dir, recording) = generated(30, 5);
    let mut heard = Vec::new();
    let result = reprune_with_progress(&recording, &PruneRules::default(), &mut |done, all| {
        heard.push((done, all));
    })
    .unwrap();
    let screens = result.screens.len();
    assert!(screens > 1, "{screens}");
    let expected: Vec<(usize, usize)> = (1..=screens).map(|k| (k, screens)).collect();
    assert_eq!(heard, expected);
    assert_eq!(result, reprune(&recording, &PruneRules::default()).unwrap());
}
