//! `tapscope replay` and `tapscope forensics` on a copy of the demo whose files are not
//! what the format has there: a screen that is a FIFO or a link to /dev/zero is never read
//! (the command ends, and says so), and a `session.jsonl` that is a link is refused with
//! exit code 2 and what to do.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The feed after the last scroll (steps 23 and 25 leave it); no later handle names it.
const FEED_DUMP: &str = "screens/5736b4bdc85d4535.xml";

fn demo_copy(dir: &Path) -> PathBuf {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings/demo");
    let copy = dir.join("demo");
    std::fs::create_dir_all(copy.join("screens")).expect("the demo copies");
    for entry in std::fs::read_dir(demo.join("screens")).expect("the demo copies") {
        let entry = entry.expect("the demo copies");
        std::fs::copy(entry.path(), copy.join("screens").join(entry.file_name()))
            .expect("the demo copies");
    }
    std::fs::copy(demo.join("session.jsonl"), copy.join("session.jsonl")).expect("copies");
    copy
}

/// Runs `tapscope ARGS`, failing the test, and ending the run, if it has not ended within
/// two minutes.
fn within_deadline(args: &[&str]) -> (Option<i32>, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tapscope starts");
    let pid = child.id();
    let (done, output) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output: Output = match output.recv_timeout(Duration::from_secs(120)) {
        Ok(output) => output.expect("tapscope's output"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("tapscope {args:?} is still running after two minutes");
        }
    };
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn a_replay_reads_no_screen_that_is_a_fifo_or_a_link_and_replays_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let copy = demo_copy(dir.path());
    let dump = copy.join(FEED_DUMP);
    let folder = copy.to_str().unwrap();
    let cases: [(&dyn Fn(), &str); 2] = [
        (&|| mkfifo(&dump), "is a FIFO (named pipe)"),
        (
            &|| std::os::unix::fs::symlink("/dev/zero", &dump).expect("linked"),
            "is a symbolic link",
        ),
    ];
    for (make, why) in cases {
        std::fs::remove_file(&dump).expect("the dump goes");
        make();
        let (code, stdout, stderr) = within_deadline(&["replay", folder]);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert!(stdout.contains("25 same of 25 steps"), "{stdout}");
        for step in [23, 25] {
            let note = format!(
                "note: step {step}: the recorded screen after it ({FEED_DUMP}) cannot be read"
            );
            assert!(stdout.contains(&note), "{stdout}");
            // The note says why, as the recording's reader does.
            let line = stdout.lines().find(|l| l.contains(&note)).unwrap();
            assert!(
                line.contains(why) && line.contains("never through a link"),
                "{line}"
            );
        }
    }
}

#[test]
fn a_session_log_that_is_a_link_is_refused_by_replay_and_forensics() {
    let dir = tempfile::tempdir().unwrap();
    let copy = demo_copy(dir.path());
    let log = copy.join("session.jsonl");
    let outside = dir.path().join("elsewhere.jsonl");
    std::fs::rename(&log, &outside).expect("moved");
    std::os::unix::fs::symlink(&outside, &log).expect("linked");
    let folder = copy.to_str().unwrap();
    for command in ["replay", "forensics"] {
        let (code, stdout, stderr) = within_deadline(&[command, folder]);
        assert_eq!(code, Some(2), "{command}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!("{} is a symbolic link", log.display())),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("put the real one there"), "{stderr}");
    }
}

#[test]
fn forensics_names_a_screen_that_is_a_fifo_and_reviews_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let copy = demo_copy(dir.path());
    let dump = copy.join(FEED_DUMP);
    std::fs::remove_file(&dump).expect("the dump goes");
    mkfifo(&dump);
    let (code, stdout, stderr) = within_deadline(&["forensics", copy.to_str().unwrap()]);
    assert_eq!(
        code,
        Some(1),
        "the demo's stale tap is still named: {stdout}{stderr}"
    );
    assert!(stdout.contains("step 13: tap refused"), "{stdout}");
    assert!(
        stderr.contains(&format!("{} is a FIFO (named pipe)", dump.display())),
        "{stderr}"
    );
}
