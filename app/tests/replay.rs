//! `tapscope replay` as a user runs it: the demo on the sim reads the same throughout, an
//! edited recording diverges with the reason in a sentence, JSON and JUnit for programs and
//! CI, shards, `--record`, `--update`, and bad input refused with exit code 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .output()
        .expect("tapscope runs")
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/demo")
}

fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A copy of the demo in `dir`, with `edit` applied to its step lines.
fn edited_demo(dir: &Path, edit: impl Fn(usize, &mut serde_json::Value)) -> PathBuf {
    let copy = dir.join("demo");
    std::fs::create_dir_all(copy.join("screens")).expect("the demo copies");
    for entry in std::fs::read_dir(demo().join("screens")).expect("the demo copies") {
        let entry = entry.expect("the demo copies");
        std::fs::copy(entry.path(), copy.join("screens").join(entry.file_name()))
            .expect("the demo copies");
    }
    let log = std::fs::read_to_string(demo().join("session.jsonl")).expect("the demo copies");
    let mut lines = Vec::new();
    for (k, line) in log.lines().enumerate() {
        let mut value: serde_json::Value = serde_json::from_str(line).expect("the demo copies");
        if k > 0 {
            edit(k, &mut value);
        }
        lines.push(serde_json::to_string(&value).expect("the demo copies"));
    }
    std::fs::write(copy.join("session.jsonl"), lines.join("\n") + "\n").expect("the demo copies");
    copy
}

#[test]
fn the_demo_replays_the_same_on_the_sim_with_junit_and_a_recording_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (junit, run) = (dir.path().join("junit.xml"), dir.path().join("run"));
    let output = tapscope(&[
        "replay",
        demo().to_str().unwrap(),
        "--device",
        "sim",
        "--junit",
        junit.to_str().unwrap(),
        "--record",
        run.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let steps: Vec<&str> = stdout.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(steps.len(), 25, "{stdout}");
    assert!(steps.iter().all(|l| l.contains(" same ")), "{stdout}");
    assert!(stdout.contains("25 same of 25 steps"), "{stdout}");

    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 25, "{xml}");
    assert_eq!(xml.matches("</testcase>").count(), 25, "{xml}");
    assert!(
        xml.contains("failures=\"0\"") && !xml.contains("<failure"),
        "{xml}"
    );

    let replayed = tapscope_core::recording::read(&run).unwrap();
    assert_eq!(replayed.steps.len(), 25);
    let named = replayed.header.replay_of.unwrap();
    assert!(named.ends_with("recordings/demo"), "{named}");
    let report = tapscope_core::replay::Report::read(&run).unwrap().unwrap();
    assert_eq!(report.steps.len(), 25);
    assert!(report.passed(true));
}

#[test]
fn a_step_that_ends_otherwise_diverges_with_a_sentence_and_stops_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    // Step 4 (tap "Search videos") recorded as refused: today it goes through.
    let copy = edited_demo(dir.path(), |k, step| {
        if k == 4 {
            step["outcome"] = "refused".into();
        }
    });
    let junit = dir.path().join("junit.xml");
    let output = tapscope(&[
        "replay",
        copy.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "step 4 tap \"Search videos\" diverged: it was refused when recorded and is ok now"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("21 steps were not run"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert_eq!(xml.matches("<skipped ").count(), 21, "{xml}");
}

#[test]
fn json_says_every_step_and_the_totals() {
    let output = tapscope(&["replay", demo().to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let all: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(all["passed"], true);
    let run = &all["recordings"][0];
    assert_eq!(run["steps"].as_array().unwrap().len(), 25);
    assert_eq!(run["totals"]["same"], 25);
    assert_eq!(run["steps"][2]["target"], "\"TapTube\"");
    assert_eq!(run["steps"][2]["verdict"], "same");
}

#[test]
fn a_shard_takes_every_nth_recording() {
    let demo = demo();
    let demo = demo.to_str().unwrap();
    let output = tapscope(&["replay", demo, demo, demo, "--shard", "2/2", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let all: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(all["recordings"].as_array().unwrap().len(), 1);
}

#[test]
fn update_replaces_the_recording_with_its_replay() {
    let dir = tempfile::tempdir().unwrap();
    let copy = edited_demo(dir.path(), |_, _| {});
    let output = tapscope(&["replay", copy.to_str().unwrap(), "--update"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("updated "), "{stdout}");
    let updated = tapscope_core::recording::read(&copy).unwrap();
    assert_eq!(updated.steps.len(), 25);
    // A baseline names no original: it is one.
    assert_eq!(updated.header.replay_of, None);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["demo"]);
}

#[test]
fn bad_input_is_refused_with_exit_code_2_and_says_what_to_do() {
    let demo = demo();
    let demo = demo.to_str().unwrap();
    for (args, said) in [
        (
            vec!["replay", demo, "--ignore", "(unclosed"],
            "not a valid regular expression",
        ),
        (vec!["replay", demo, "--shard", "3/2"], "1 <= K <= N"),
        (vec!["replay", demo, "--shard", "0/2"], "1 <= K <= N"),
        (vec!["replay", "/no/such/recording"], "/no/such/recording"),
        (
            vec!["replay", demo, "--update", "--record", "/tmp/x"],
            "without --record",
        ),
        (
            vec!["replay", demo, "--slower", "0.5"],
            "factor of 1 or more",
        ),
        (vec!["replay", demo, "--device", "sim:tablet"], "sim:tablet"),
    ] {
        let output = tapscope(&args);
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}

#[test]
fn a_missing_screen_file_is_named_and_the_rest_is_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let copy = edited_demo(dir.path(), |_, _| {});
    // The feed after the last scroll (steps 23 and 25 leave it); no later handle names it.
    std::fs::remove_file(copy.join("screens/5736b4bdc85d4535.xml")).unwrap();
    let output = tapscope(&["replay", copy.to_str().unwrap()]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("25 same of 25 steps"), "{stdout}");
    for step in [23, 25] {
        let note = format!(
            "note: step {step}: the recorded screen after it (screens/5736b4bdc85d4535.xml) cannot be read"
        );
        assert!(stdout.contains(&note), "{stdout}");
        // The note says why: the reader's own sentence, with what to do.
        let line = stdout.lines().find(|l| l.contains(&note)).unwrap();
        assert!(
            line.contains(
                "only its outcome was compared: screens/5736b4bdc85d4535.xml is missing from"
            ) && line.contains("copied only in part"),
            "{line}"
        );
    }
}

#[test]
fn the_next_build_of_the_sim_shows_its_regressions_explained() {
    let output = tapscope(&["replay", demo().to_str().unwrap(), "--device", "sim-next"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let line = |n: usize| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line(1).contains(" same "), "{stdout}");
    assert!(
        line(2).contains("\"TapTube\" → \"TapTube Video\" (text)"),
        "{stdout}"
    );
    let launch = line(3);
    assert!(
        launch.contains("changed") && launch.contains("(much slower)"),
        "{stdout}"
    );
    assert!(
        launch.contains("1 disappeared (\"Search videos\")"),
        "{stdout}"
    );
    assert!(launch.contains("\"Account\" (moved)"), "{stdout}");
    assert!(
        stdout.contains(
            "step 4 tap \"Search videos\" diverged: \"Search videos\" is not on today's screen"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("21 steps were not run"), "{stdout}");
}

#[test]
fn a_persons_steps_are_made_again_as_a_persons() {
    use tapscope::journal::Journal;
    use tapscope::mcp::PhoneServer;
    use tapscope_core::device::Key;
    use tapscope_core::device::sim::Sim;
    use tapscope_core::geometry::Point;
    use tapscope_core::recording::{Actor, Durability};
    use tapscope_core::session::{Action, Session, SessionConfig};
    use tapscope_core::stability::{Clock, VirtualClock};

    let dir = tempfile::tempdir().unwrap();
    let (original, run) = (dir.path().join("held"), dir.path().join("run"));
    {
        let clock = VirtualClock::default();
        let session = Session::new(
            Sim::new(clock.clone(), 1),
            clock.clone(),
            SessionConfig::default(),
        );
        let journal =
            Journal::create_with(&original, "sim", clock.now(), Durability::None).unwrap();
        let server = PhoneServer::new(session).with_journal(journal);
        let seen = server.person_observe().unwrap();
        let icon = seen.handle_where(|n| n.label == "TapTube").unwrap();
        server.person_act(&Action::Tap(icon)).unwrap();
        let (from, to) = (Point::new(540, 1800), Point::new(540, 900));
        let duration = std::time::Duration::from_millis(300);
        server
            .person_act(&Action::Swipe { from, to, duration })
            .unwrap();
        server.person_act(&Action::Key(Key::Back)).unwrap();
    }
    let output = tapscope(&[
        "replay",
        original.to_str().unwrap(),
        "--record",
        run.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("4 same of 4 steps"), "{stdout}");
    let replayed = tapscope_core::recording::read(&run).unwrap();
    let tools: Vec<(&str, Actor)> = replayed
        .steps
        .iter()
        .map(|s| (s.tool.as_str(), s.actor))
        .collect();
    assert_eq!(
        tools,
        [
            ("screen_operation_accessibility", Actor::Person),
            ("tap", Actor::Person),
            ("swipe", Actor::Person),
            ("press_key", Actor::Person)
        ]
    );
    assert_eq!(replayed.steps[2].arguments["pixels"], "display");
}

#[test]
fn a_phone_that_goes_away_mid_replay_ends_the_report_there_and_junit_still_says_so() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use common::unpluggable::Unpluggable;
    use tapscope::replay::{self, Options};
    use tapscope_core::device::sim::Sim;
    use tapscope_core::replay::{Divergence, Verdict, junit};
    use tapscope_core::session::{Session, SessionConfig};
    use tapscope_core::stability::VirtualClock;

    let original = tapscope_core::recording::read(&demo()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plugged = Arc::new(AtomicBool::new(true));
    let clock = VirtualClock::default();
    let device = Unpluggable {
        sim: Sim::new(clock.clone(), 1),
        plugged: Arc::clone(&plugged),
    };
    let options = Options::recording_to(dir.path().join("run"));
    // The cable comes out once step 8 is done.
    let mut pull = |done: usize, _: usize| {
        if done == 8 {
            plugged.store(false, Ordering::SeqCst);
        }
    };
    let session = Session::new(device, clock, SessionConfig::default());
    let report = replay::replay(session, &original, "demo", "sim", &options, &mut pull).unwrap();
    assert_eq!(report.steps.len(), 9);
    assert_eq!(report.not_run, 16);
    let Verdict::Diverged(Divergence::Outcome { said, .. }) = &report.steps[8].verdict else {
        panic!("{:?}", report.steps[8]);
    };
    assert!(said.contains("not found"), "{said}");
    let explained = report.explanation().unwrap();
    assert!(
        explained.starts_with(
            "step 9 scroll list #feed diverged: it was ok when recorded and is an error now"
        ),
        "{explained}"
    );
    let xml = junit(&[report], false);
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert_eq!(xml.matches("<skipped ").count(), 16, "{xml}");
}

/// The names in `dir`.
fn names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn a_replay_killed_mid_run_leaves_a_folder_the_next_replay_removes() {
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // An adb server that never answers: the replay, its folder made, waits on it.
    let adb = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let socket = format!("tcp:{}", adb.local_addr().unwrap());
    let mut replay = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args([
            "replay",
            demo().to_str().unwrap(),
            "--device",
            "emulator-5554",
        ])
        .env("TMPDIR", &tmp)
        .env("TMP", &tmp)
        .env("TEMP", &tmp)
        .env("ADB_SERVER_SOCKET", &socket)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tapscope starts");
    let (connected, connection) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = connected.send(adb.accept());
    });
    // A bound on a replay that never asks for its phone, not a signal.
    let asked = connection.recv_timeout(Duration::from_secs(300));
    replay.kill().unwrap();
    replay.wait().unwrap();
    let _held = asked
        .expect("the replay asked the adb server for its phone")
        .unwrap();
    let left = names(&tmp);
    assert!(
        left.len() == 1 && left[0].starts_with("tapscope-replay-"),
        "a killed replay leaves its folder: {left:?}"
    );

    let output = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(["replay", demo().to_str().unwrap()])
        .env("TMPDIR", &tmp)
        .env("TMP", &tmp)
        .env("TEMP", &tmp)
        .output()
        .expect("tapscope runs");
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(
        names(&tmp),
        Vec::<String>::new(),
        "the next replay removes it, and its own"
    );
}
