//! What a recording's reader finds on disk: links, FIFOs and devices where its files should
//! be are refused with the path and what to do, never followed or waited on; files larger
//! than the format allows are refused before they are read; only full-hash screen names are
//! read; a leading byte-order mark is no obstacle.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use tapscope_core::recording::{
    self, Header, MAX_LOG_BYTES, MAX_SCREEN_BYTES, RecordingError, RecordingWriter, SESSION_FILE,
    ScreenFiles, Step,
};

/// A recording of one step with a screen (dump, pruned text, screenshot) after it.
fn one_step(dir: &Path) -> PathBuf {
    let folder = dir.join("rec");
    let header = Header::new("sim", "0.1.0", "o200k_base", 1_764_000_000_000);
    let mut writer = RecordingWriter::create(&folder, &header).expect("create");
    let after = writer
        .store_screen(&ScreenFiles {
            version: "a1",
            dump: "<hierarchy>1</hierarchy>",
            pruned: "[1] \"Send\"\n",
            screenshot: Some(b"\x89PNG\r\n\x1a\nnot really"),
            pixel_text: None,
            raw_tokens: 12,
            pruned_tokens: 5,
        })
        .expect("screen");
    let step = Step {
        tool: "tap".into(),
        after: Some(after),
        ..Step::default()
    };
    writer.append(&step).expect("append");
    folder
}

fn dump_of(folder: &Path) -> String {
    let read = recording::read(folder).expect("reads");
    read.steps[0].after.as_ref().expect("a screen").dump.clone()
}

/// `f` run on a thread of its own; the test fails, rather than hangs, if it waits.
fn without_waiting<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(f());
    });
    result
        .recv_timeout(Duration::from_secs(30))
        .expect("the read ends at once instead of waiting")
}

fn refused_as(error: &RecordingError, path: &Path, found: &str) {
    assert!(
        matches!(error, RecordingError::NotInside { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("{} is {found}", path.display())),
        "{message}"
    );
    assert!(message.contains("put the real one there"), "{message}");
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_screen_that_is_a_link_is_refused_wherever_it_points() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let dump = dump_of(&folder);
    let file = folder.join(&dump);
    let outside = temp.path().join("copy.xml");
    fs::copy(&file, &outside).unwrap();
    for target in [Path::new("/dev/zero"), outside.as_path()] {
        fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(target, &file).unwrap();
        let read = recording::read(&folder).unwrap();
        let path = dump.clone();
        let error = without_waiting(move || read.load_bytes(&path).unwrap_err());
        refused_as(&error, &file, "a symbolic link");
        let read = recording::read(&folder).unwrap();
        let probed = read.screen_file(&dump).unwrap_err();
        refused_as(&probed, &file, "a symbolic link");
    }

    // screens/ itself a link to a copy elsewhere.
    let screens = folder.join("screens");
    let elsewhere = temp.path().join("elsewhere");
    fs::rename(&screens, &elsewhere).unwrap();
    fs::remove_file(elsewhere.join(dump.trim_start_matches("screens/"))).unwrap();
    fs::copy(
        &outside,
        elsewhere.join(dump.trim_start_matches("screens/")),
    )
    .unwrap();
    std::os::unix::fs::symlink(&elsewhere, &screens).unwrap();
    let read = recording::read(&folder).unwrap();
    let error = read.load_text(&dump).unwrap_err();
    refused_as(&error, &screens, "a symbolic link");
    assert!(error.to_string().contains("holds a folder"), "{error}");
}

#[cfg(unix)]
#[test]
fn a_session_log_that_is_a_link_is_refused_wherever_it_points() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let log = folder.join(SESSION_FILE);
    let outside = temp.path().join("copy.jsonl");
    fs::copy(&log, &outside).unwrap();
    for target in [Path::new("/dev/zero"), outside.as_path()] {
        fs::remove_file(&log).unwrap();
        std::os::unix::fs::symlink(target, &log).unwrap();
        // Named by its folder, or itself.
        for named in [folder.clone(), log.clone()] {
            let error = without_waiting(move || recording::read(&named).unwrap_err());
            refused_as(&error, &log, "a symbolic link");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_in_a_recording_is_refused_without_waiting() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let dump = dump_of(&folder);
    let file = folder.join(&dump);
    fs::remove_file(&file).unwrap();
    mkfifo(&file);
    let read = recording::read(&folder).unwrap();
    let path = dump.clone();
    let error = without_waiting(move || read.load_bytes(&path).unwrap_err());
    refused_as(&error, &file, "a FIFO (named pipe)");

    let log = folder.join(SESSION_FILE);
    fs::remove_file(&log).unwrap();
    mkfifo(&log);
    for named in [folder.clone(), log.clone()] {
        let error = without_waiting(move || recording::read(&named).unwrap_err());
        refused_as(&error, &log, "a FIFO (named pipe)");
    }
    // A device named as the log itself: no folder holds it, and it is refused all the same.
    let error = without_waiting(|| recording::read(Path::new("/dev/zero")).unwrap_err());
    refused_as(&error, Path::new("/dev/zero"), "a device");
}

#[test]
fn files_larger_than_the_format_allows_are_refused_before_they_are_read() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let dump = dump_of(&folder);
    let file = folder.join(&dump);
    // Sparse: the size is there, the bytes are not.
    fs::File::options()
        .write(true)
        .open(&file)
        .and_then(|f| f.set_len(MAX_SCREEN_BYTES + 1))
        .unwrap();
    let read = recording::read(&folder).unwrap();
    let error = read.load_bytes(&dump).unwrap_err();
    assert!(
        matches!(error, RecordingError::TooLarge { limit, .. } if limit == MAX_SCREEN_BYTES),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "{} is {} bytes, over the {MAX_SCREEN_BYTES}-byte limit for a screen file",
            file.display(),
            MAX_SCREEN_BYTES + 1
        )),
        "{message}"
    );
    assert!(matches!(
        read.screen_file(&dump),
        Err(RecordingError::TooLarge { .. })
    ));

    let log = folder.join(SESSION_FILE);
    fs::File::options()
        .append(true)
        .open(&log)
        .and_then(|f| f.set_len(MAX_LOG_BYTES + 1))
        .unwrap();
    let error = recording::read(&folder).unwrap_err();
    assert!(
        matches!(error, RecordingError::TooLarge { limit, .. } if limit == MAX_LOG_BYTES),
        "{error:?}"
    );
    assert!(
        error.to_string().contains(&format!(
            "{} is {} bytes, over the {MAX_LOG_BYTES}-byte limit for a recording's session.jsonl",
            log.display(),
            MAX_LOG_BYTES + 1
        )),
        "{error}"
    );
}

#[test]
fn only_screen_names_of_the_full_hash_are_read() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let dump = dump_of(&folder);
    let short = "screens/ab.xml";
    fs::copy(folder.join(&dump), folder.join(short)).unwrap();
    let read = recording::read(&folder).unwrap();
    for error in [
        read.load_text(short).unwrap_err(),
        read.screen_file(short).unwrap_err(),
    ] {
        assert!(
            matches!(error, RecordingError::BadScreenPath { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("16 lower-case hex"), "{error}");
    }
    assert_eq!(read.screen_file(&dump).unwrap(), folder.join(&dump));
    assert_eq!(read.load_text(&dump).unwrap(), "<hierarchy>1</hierarchy>");
}

#[test]
fn a_byte_order_mark_before_the_header_is_skipped() {
    let temp = tempfile::tempdir().unwrap();
    let folder = one_step(temp.path());
    let log = folder.join(SESSION_FILE);
    let plain = recording::read(&folder).unwrap();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(fs::read(&log).unwrap());
    fs::write(&log, bytes).unwrap();
    let marked = recording::read(&folder).unwrap();
    assert_eq!(marked, plain);
    assert!(marked.problems.is_empty(), "{:?}", marked.problems);

    // Only at the start: one before a later line is that line's problem.
    let mut text = fs::read(&log).unwrap();
    text.extend(b"\xEF\xBB\xBF{\"step\":2,\"tool\":\"tap\"}\n");
    fs::write(&log, text).unwrap();
    let later = recording::read(&folder).unwrap();
    assert_eq!(later.steps.len(), 1);
    assert_eq!(later.problems.len(), 1, "{:?}", later.problems);
}
