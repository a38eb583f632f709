//! `Tesseract` against stand-in programs (shell scripts): finding, languages, and every
//! way a run can fail, without Tesseract installed. The real engine is in `tests/ocr.rs`.

use std::io::ErrorKind;
use std::path::PathBuf;
use std::time::Instant;

use super::*;
use crate::model::Rect;

/// A 1×1 PNG, enough to get past the header check.
fn pixel() -> Vec<u8> {
    crate::png::encode_fast(&::image::GrayImage::new(1, 1)).unwrap()
}

/// A stand-in `tesseract`: `version` and `langs` answer the finding, `read` runs for
/// everything else.
struct Fake {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn fake(version: &str, langs: &[&str], read: &str) -> Fake {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tesseract");
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in\n--version) printf '%s\\n leptonica-1.82.0\\n' '{version}';;\n\
         --list-langs) echo 'List of available languages in \"/x/\" ({n}):'; printf '%s\\n' {langs};;\n\
         *) {read};;\nesac\n",
        n = langs.len(),
        langs = langs.join(" "),
    );
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another test's fork may briefly hold the file open for writing (ETXTBSY): run it
    // once until the kernel lets it execute.
    for _ in 0..100 {
        match std::process::Command::new(&path).arg("--version").output() {
            Err(e) if e.kind() == ErrorKind::ExecutableFileBusy => std::thread::yield_now(),
            _ => break,
        }
    }
    Fake { _dir: dir, path }
}

fn found(read: &str) -> (Fake, Tesseract) {
    let fake = fake("tesseract 5.3.0", &["eng", "osd", "deu"], read);
    let engine = Tesseract::find_at(&fake.path).unwrap();
    (fake, engine)
}

#[test]
fn a_missing_program_says_how_to_install_tesseract() {
    let e = Tesseract::find_at("/nonexistent/tesseract").unwrap_err();
    assert!(matches!(e, OcrError::NotInstalled { .. }), "{e:?}");
    let message = e.to_string();
    assert!(
        message.contains("apt-get install tesseract-ocr tesseract-ocr-eng"),
        "{message}"
    );
    assert!(message.contains("/nonexistent/tesseract"), "{message}");
}

#[test]
fn a_program_that_is_not_tesseract_or_too_old_is_refused() {
    let other = fake("Python 3.11.2", &["eng"], "true");
    let e = Tesseract::find_at(&other.path).unwrap_err();
    assert!(matches!(e, OcrError::NotInstalled { .. }), "{e:?}");
    let old = fake("tesseract 3.05.02", &["eng"], "true");
    match Tesseract::find_at(&old.path).unwrap_err() {
        OcrError::TooOld { version } => assert_eq!(version, "3.05.02"),
        e => panic!("{e:?}"),
    }
    let alpha = fake("tesseract v5.0.0-alpha-20201224", &["eng"], "true");
    assert_eq!(
        Tesseract::find_at(&alpha.path).unwrap().version(),
        "5.0.0-alpha-20201224"
    );
}

#[test]
fn english_is_always_read_and_other_languages_only_when_installed() {
    let (_fake, engine) = found("true");
    assert_eq!(engine.version(), "5.3.0");
    assert_eq!(engine.installed(), ["eng", "osd", "deu"]);
    assert_eq!(engine.languages(), ["eng"]);
    let both = engine.clone().with_languages(&["deu", "eng"]).unwrap();
    assert_eq!(both.languages(), ["eng", "deu"]);
    assert!(both.arguments().join(" ").contains("-l eng+deu "));
    match engine.with_languages(&["chi_sim"]).unwrap_err() {
        e @ OcrError::MissingLanguage { .. } => {
            let message = e.to_string();
            assert!(
                message.contains("apt-get install tesseract-ocr-chi-sim"),
                "{message}"
            );
            assert!(message.contains("eng, osd, deu"), "{message}");
        }
        e => panic!("{e:?}"),
    }
    let no_english = fake("tesseract 5.3.0", &["osd"], "true");
    match Tesseract::find_at(&no_english.path).unwrap_err() {
        OcrError::MissingLanguage { language, .. } => assert_eq!(language, "eng"),
        e => panic!("{e:?}"),
    }
}

#[test]
fn a_read_passes_the_arguments_on_one_core_and_parses_the_tsv() {
    // The stand-in reads the PNG, then echoes its arguments and OMP_THREAD_LIMIT as a word.
    let header = "level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext";
    let read = format!(
        "n=$(wc -c); printf '{header}\\n5\\t1\\t1\\t1\\t1\\t1\\t2\\t3\\t10\\t20\\t91.5\\t%s\\n' \"$n $OMP_THREAD_LIMIT $*\""
    );
    let (_fake, engine) = found(&read);
    let png = pixel();
    let lines = engine.read(&png, 50.0).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0].text,
        format!("{} 1 stdin stdout -l eng --oem 1 --psm 11 tsv", png.len())
    );
    assert_eq!(lines[0].bounds, Rect::new(2, 3, 12, 23));
    assert_eq!(lines[0].confidence, 91.5);
}

#[test]
fn a_read_past_the_ceiling_is_killed_and_says_timed_out() {
    let (_fake, engine) = found("exec sleep 30");
    let engine = engine.with_timeout(Duration::from_millis(300));
    let started = Instant::now();
    match engine.read(&pixel(), 0.0).unwrap_err() {
        e @ OcrError::TimedOut { .. } => {
            assert!(e.to_string().contains("with_timeout"), "{e}");
        }
        e => panic!("{e:?}"),
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_failing_run_gives_its_stderr_and_garbage_is_bad_output() {
    let (_fake, failing) = found("echo 'Error in pixReadMem: Unknown format' >&2; exit 1");
    match failing.read(&pixel(), 0.0).unwrap_err() {
        OcrError::Failed { status, stderr } => {
            assert!(status.contains('1'), "{status}");
            assert_eq!(stderr, "Error in pixReadMem: Unknown format");
        }
        e => panic!("{e:?}"),
    }
    let (_fake, garbage) = found("cat >/dev/null; echo 'Segmentation fault'");
    assert!(matches!(
        garbage.read(&pixel(), 0.0).unwrap_err(),
        OcrError::BadOutput { line: 1, .. }
    ));
    // Not a PNG: refused before anything runs.
    assert!(matches!(
        garbage
            .read(b"GIF89a......................", 0.0)
            .unwrap_err(),
        OcrError::NotPng { .. }
    ));
}
