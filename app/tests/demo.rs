//! The committed demo recording is exactly what `tapscope record-demo` produces today, on
//! any machine (its game's text is the sim's transcript, not Tesseract's reading), and it
//! shows what it is meant to: a stale-handle refusal, a fallback screenshot, the end of a
//! list. Replayed on the sim it reads the same whatever engine reads the game's pixels.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tapscope_core::recording::{self, StepOutcome};

const REGENERATE: &str = "regenerate it with `cargo run -p tapscope -- record-demo` and commit \
recordings/demo";

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("a readable file");
                found.insert(path.strip_prefix(dir).expect("inside").to_path_buf(), bytes);
            }
        }
    }
    found
}

#[test]
fn the_committed_demo_is_what_record_demo_writes() {
    let committed = tapscope::demo::source_tree_demo();
    let fresh = std::env::temp_dir().join(format!("tapscope-demo-{}", std::process::id()));
    let summary = tapscope::demo::record(&fresh).expect("the demo records");
    assert!(
        summary.refusals >= 1 && summary.fallbacks >= 1,
        "{summary:?}"
    );

    let (want, got) = (files(&committed), files(&fresh));
    let _ = std::fs::remove_dir_all(&fresh);
    assert!(
        !want.is_empty(),
        "no demo at {}: {REGENERATE}",
        committed.display()
    );
    let names = |m: &BTreeMap<PathBuf, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&want),
        names(&got),
        "the demo's files differ: {REGENERATE}"
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{} differs: {REGENERATE}",
            name.display()
        );
    }
}

#[test]
fn the_demo_reads_back_with_the_moments_it_is_there_to_show() {
    let demo = recording::read(&tapscope::demo::source_tree_demo()).expect("the demo reads");
    assert!(demo.problems.is_empty(), "{:?}", demo.problems);
    let steps = &demo.steps;
    assert!(steps.len() >= 15, "{} steps", steps.len());

    let stale = steps
        .iter()
        .find(|s| s.outcome == StepOutcome::Refused)
        .expect("a refused step");
    assert!(
        stale.message.contains("Token version mismatch"),
        "{}",
        stale.message
    );
    assert_ne!(
        stale.version_used, stale.version_before,
        "stale means another version"
    );

    assert!(
        steps.iter().any(|s| s.bottomed_out),
        "a scroll reached the end of the list"
    );
    let shell = steps
        .iter()
        .find(|s| s.tool == "screen_operation_shell")
        .expect("a pixel tap");
    assert_eq!(shell.outcome, StepOutcome::Ok);
    let [[x, y]] = shell.path[..] else {
        panic!("one point: {:?}", shell.path)
    };
    assert!(
        (x - 540).abs() <= 3 && (y - 1750).abs() <= 3,
        "scaled to the display, on the game's drawn Play: {x},{y}"
    );

    for step in steps.iter().filter(|s| s.after.is_some()) {
        let after = step.after.as_ref().expect("checked");
        let tree = demo
            .load_text(&after.pruned)
            .expect("the pruned tree is there");
        assert!(tree.contains(&after.version), "step {}", step.step);
        assert!(after.raw_tokens > after.pruned_tokens, "step {}", step.step);
        let png = demo
            .load_bytes(after.screenshot.as_deref().expect("a screenshot"))
            .expect("the screenshot is there");
        assert!(png.starts_with(b"\x89PNG"), "step {}", step.step);
    }
}

#[test]
fn the_demo_reads_its_games_text_as_the_sim_drew_it() {
    let demo = recording::read(&tapscope::demo::source_tree_demo()).expect("the demo reads");
    let mut read = Vec::new();
    for step in &demo.steps {
        let Some(after) = &step.after else { continue };
        for line in demo.load_pixel_text(after).expect("its pixel text reads") {
            assert_eq!(line.confidence, 100.0, "step {}: {line:?}", step.step);
            read.push(line.text);
        }
    }
    for drawn in [
        "Blocks", "Score 0", "Play", "Settings", "Score 10", "Level 1", "15:46",
    ] {
        assert!(read.iter().any(|t| t == drawn), "{drawn} in {read:?}");
    }
}

/// `tapscope` run with `args` and `PATH` set to `path`.
fn tapscope_on(path: &std::ffi::OsStr, args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .env("PATH", path)
        .output()
        .expect("tapscope runs")
}

#[test]
fn record_demo_writes_the_same_demo_on_a_machine_without_tesseract() {
    let dir = tempfile::tempdir().unwrap();
    let (empty, fresh) = (dir.path().join("bin"), dir.path().join("demo"));
    std::fs::create_dir(&empty).unwrap();
    let output = tapscope_on(
        empty.as_os_str(),
        &["record-demo".as_ref(), fresh.as_os_str()],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let (want, got) = (files(&tapscope::demo::source_tree_demo()), files(&fresh));
    assert!(
        want == got,
        "the demo differs without Tesseract: {REGENERATE}"
    );
}

/// Another machine's Tesseract, at `dir/tesseract`: it reads every picture as two
/// misread words.
#[cfg(unix)]
fn another_tesseract(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let script = "#!/bin/sh\n\
        case \"$1\" in\n\
          --version) echo 'tesseract 9.9.9'; exit 0;;\n\
          --list-langs) printf 'List of available languages (1):\\neng\\n'; exit 0;;\n\
        esac\n\
        cat >/dev/null\n\
        printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'\n\
        printf '5\\t1\\t1\\t1\\t1\\t1\\t469\\t1734\\t187\\t103\\t71.5\\tPl4y\\n'\n\
        printf '5\\t1\\t2\\t1\\t1\\t1\\t422\\t328\\t211\\t117\\t88.25\\tB1ocks\\n'\n";
    let program = dir.join("tesseract");
    std::fs::write(&program, script).expect("the program is written");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))
        .expect("the program is made runnable");
}

#[cfg(unix)]
#[test]
fn the_demo_replays_the_same_on_the_sim_whatever_tesseract_reads_its_game_as() {
    let dir = tempfile::tempdir().unwrap();
    another_tesseract(dir.path());
    let mut path = std::ffi::OsString::from(dir.path());
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let demo = tapscope::demo::source_tree_demo();
    let output = tapscope_on(
        &path,
        &[
            "replay".as_ref(),
            demo.as_os_str(),
            "--device".as_ref(),
            "sim".as_ref(),
            "--ocr-engine".as_ref(),
            "tesseract".as_ref(),
        ],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // The game was read otherwise: its words, its tokens.
    assert!(stdout.contains("now ocr \"Pl4y\""), "{stdout}");
    assert!(stdout.contains("25 same of 25 steps"), "{stdout}");
}

fn record_demo(dir: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .arg("record-demo")
        .arg(dir)
        .output()
        .expect("tapscope runs")
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A copy of the committed demo at `dir`.
fn copy_of_the_demo(dir: &Path) {
    for (name, bytes) in files(&tapscope::demo::source_tree_demo()) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("in a folder")).expect("the demo copies");
        std::fs::write(path, bytes).expect("the demo copies");
    }
}

/// A folder's name, how it is made, and what the refusal of it says.
type Case<'a> = (&'a str, &'a dyn Fn(&Path), &'a str);

#[test]
fn record_demo_refuses_what_it_did_not_write_and_leaves_it_as_it_was() {
    let parent = tempfile::tempdir().unwrap();
    let demo_log =
        std::fs::read_to_string(tapscope::demo::source_tree_demo().join("session.jsonl"))
            .expect("the demo reads");
    let (header, steps) = demo_log.split_once('\n').expect("a header line");
    let another_start = header.replace("1796083200000", "1796083200001");
    let cases: [Case; 5] = [
        (
            "notes",
            &|dir| {
                std::fs::create_dir(dir).unwrap();
                std::fs::write(dir.join("notes.txt"), "mine").unwrap();
            },
            "holds notes.txt",
        ),
        (
            "a-log-of-mine",
            &|dir| {
                std::fs::create_dir(dir).unwrap();
                std::fs::write(dir.join("session.jsonl"), "my own log\n").unwrap();
            },
            "is not a recording tapscope reads",
        ),
        (
            "another-recording",
            &|dir| {
                copy_of_the_demo(dir);
                let log = format!("{another_start}\n{steps}");
                std::fs::write(dir.join("session.jsonl"), log).unwrap();
            },
            "not the demo",
        ),
        (
            "the-demo-and-more",
            &|dir| {
                copy_of_the_demo(dir);
                std::fs::create_dir(dir.join("screens/mine")).unwrap();
            },
            "holds screens/mine/",
        ),
        (
            "a-file",
            &|dir| std::fs::write(dir, "a file").unwrap(),
            "is not a folder",
        ),
    ];
    for (name, make, said) in &cases {
        let dir = parent.path().join(name);
        (*make)(&dir);
        let before = if dir.is_dir() {
            files(&dir)
        } else {
            BTreeMap::new()
        };
        let output = record_demo(&dir);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&dir.display().to_string())
                && stderr.contains(*said)
                && stderr.contains("record-demo will not replace it")
                && stderr.contains("give a new or empty folder"),
            "{name}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{name}: said once: {stderr}");
        if dir.is_dir() {
            assert!(files(&dir) == before, "{name}: left as it was");
        } else {
            assert_eq!(std::fs::read_to_string(&dir).unwrap(), "a file");
        }
    }
    let mut made: Vec<&str> = cases.iter().map(|(name, ..)| *name).collect();
    made.sort_unstable();
    assert_eq!(
        names(parent.path()),
        made,
        "nothing else was written beside them"
    );
}

#[test]
fn record_demo_replaces_its_own_recording_and_nothing_beside_it() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("demo");
    copy_of_the_demo(&dir);
    // An old demo with a screen missing: replaced whole.
    let missing = dir.join("screens/07da80b018b493ed.png");
    std::fs::remove_file(&missing).unwrap();
    // The folder the old record-demo cleared as its own: someone's, kept.
    let partial = parent.path().join("demo.partial");
    std::fs::create_dir(&partial).unwrap();
    std::fs::write(partial.join("notes.txt"), "mine").unwrap();

    let output = record_demo(&dir);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("recorded "), "{stdout}");
    let listed = |dir: &Path| files(dir).into_keys().collect::<Vec<_>>();
    assert_eq!(
        listed(&dir),
        listed(&tapscope::demo::source_tree_demo()),
        "the demo is whole again"
    );
    assert!(missing.exists());
    assert_eq!(names(parent.path()), ["demo", "demo.partial"]);
    assert_eq!(names(&partial), ["notes.txt"]);

    // An empty folder is taken too.
    let empty = parent.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let output = record_demo(&empty);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(tapscope_core::recording::read(&empty).is_ok());
    assert_eq!(names(parent.path()), ["demo", "demo.partial", "empty"]);
}
