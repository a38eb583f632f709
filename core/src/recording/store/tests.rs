//! A screen store's screens read back from the recording as they were seen, each file
//! named by its content, and a screen seen again neither written nor counted again.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::model::Rect;
use crate::recording::reader::screen_hash;
use crate::recording::{self, Header, Recording, Step};

const DUMP: &str = "<hierarchy rotation=\"0\"><node text=\"Send\"/></hierarchy>";
const PRUNED: &str = "[1] \"Send\"\n";
const PNG: &[u8] = b"\x89PNG a screenshot";

/// A store in `dir/rec` counting a text's tokens as its bytes, and how many it counted.
fn store_in(dir: &std::path::Path) -> (ScreenStore, Arc<AtomicUsize>) {
    let header = Header::new("sim", "0.1.0", "o200k_base", 1_700_000_000_000);
    let writer = RecordingWriter::create(&dir.join("rec"), &header).unwrap();
    let counted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&counted);
    let store = ScreenStore::new(writer, move |text| {
        counter.fetch_add(1, Ordering::Relaxed);
        u32::try_from(text.len()).unwrap()
    });
    (store, counted)
}

/// The recording with one step whose screens are `before` and `after`.
fn read_back(mut store: ScreenStore, before: ScreenRef, after: ScreenRef) -> Recording {
    let dir = store.writer().dir().to_path_buf();
    let step = Step {
        tool: "tap".into(),
        before: Some(before),
        after: Some(after),
        ..Step::default()
    };
    store.writer().append(&step).unwrap();
    drop(store);
    recording::read(&dir).unwrap()
}

/// `path` is `screens/<the content's hash>.<ext>`.
fn named_by_content(path: &str, content: &[u8]) {
    assert_eq!(
        screen_hash(path),
        Some(content_hash(content).as_str()),
        "{path}"
    );
}

#[test]
fn a_stored_screen_reads_back_as_it_was_seen_each_file_named_by_its_content() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = store_in(dir.path());
    let read = [PixelText {
        text: "Score 120".into(),
        confidence: 91.0,
        bounds: Rect::new(10, 20, 200, 60),
    }];
    let seen = SeenScreen::new("a1b2c3d4e5f6", DUMP, PRUNED, &read, None).unwrap();
    let plain = SeenScreen::new("0123456789ab", "<hierarchy/>", "", &[], None).unwrap();
    let shown = store.store_shown(&seen, || Some(PNG.to_vec())).unwrap();
    let unshown = store.store(&plain).unwrap();
    assert_eq!(shown.version, "a1b2c3d4e5f6");
    assert_eq!(
        (shown.raw_tokens, shown.pruned_tokens),
        (DUMP.len() as u32, PRUNED.len() as u32)
    );
    assert_eq!(unshown.screenshot, None);
    assert_eq!(unshown.pixel_text, None);

    let recording = read_back(store, shown.clone(), unshown);
    let step = &recording.steps[0];
    assert_eq!(
        step.before.as_ref(),
        Some(&shown),
        "the step names what was stored"
    );
    assert_eq!(recording.load_text(&shown.dump).unwrap(), DUMP);
    assert_eq!(recording.load_text(&shown.pruned).unwrap(), PRUNED);
    let screenshot = shown.screenshot.as_deref().expect("a screenshot");
    assert_eq!(recording.load_bytes(screenshot).unwrap(), PNG);
    assert_eq!(recording.load_pixel_text(&shown).unwrap(), read);
    named_by_content(&shown.dump, DUMP.as_bytes());
    named_by_content(&shown.pruned, PRUNED.as_bytes());
    named_by_content(screenshot, PNG);
    let json = shown.pixel_text.as_deref().expect("its pixel text");
    named_by_content(json, &serde_json::to_vec(&read).unwrap());
    assert_eq!(
        step.after.as_ref().unwrap().dump,
        "screens/".to_owned() + &content_hash(b"<hierarchy/>") + ".xml"
    );
}

#[test]
fn a_screen_seen_again_is_neither_written_nor_counted_again_and_is_shown_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, counted) = store_in(dir.path());
    let seen = || SeenScreen::new("a1b2c3d4e5f6", DUMP, PRUNED, &[], None).unwrap();
    let first = store.store(&seen()).unwrap();
    assert_eq!(first.screenshot, None);
    assert_eq!(
        counted.load(Ordering::Relaxed),
        2,
        "its dump and its pruned text"
    );
    let screens = dir.path().join("rec/screens");
    let files = || std::fs::read_dir(&screens).unwrap().count();
    assert_eq!(files(), 2);

    // Seen again, now with a screenshot: the screenshot is added, nothing counted again.
    let asked = Cell::new(0);
    let shot = || {
        asked.set(asked.get() + 1);
        Some(PNG.to_vec())
    };
    let shown = store.store_shown(&seen(), shot).unwrap();
    assert_eq!(
        (shown.dump.as_str(), shown.pruned.as_str()),
        (first.dump.as_str(), first.pruned.as_str())
    );
    assert!(shown.screenshot.is_some());
    assert_eq!(
        (shown.raw_tokens, shown.pruned_tokens),
        (first.raw_tokens, first.pruned_tokens)
    );
    assert_eq!(files(), 3, "the screenshot only");

    // Once shown, no screenshot is asked for, and every later sight is the same screen.
    assert_eq!(store.store_shown(&seen(), shot).unwrap(), shown);
    assert_eq!(store.store(&seen()).unwrap(), shown);
    assert_eq!(asked.get(), 1);
    assert_eq!(counted.load(Ordering::Relaxed), 2);
    assert_eq!(files(), 3);
}

#[test]
fn a_screenshot_that_cannot_be_had_leaves_the_screen_to_be_shown_later() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = store_in(dir.path());
    let seen = SeenScreen::new("a1b2c3d4e5f6", DUMP, PRUNED, &[], None).unwrap();
    let unshown = store.store_shown(&seen, || None).unwrap();
    assert_eq!(unshown.screenshot, None);
    let shown = store.store_shown(&seen, || Some(PNG.to_vec())).unwrap();
    assert!(shown.screenshot.is_some());
}

#[test]
fn screens_of_one_tree_told_apart_by_their_pixels_or_version_are_stored_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = store_in(dir.path());
    let (red, blue) = (b"\x89PNG red".as_slice(), b"\x89PNG blue".as_slice());
    let game = |pixels| SeenScreen::new("a1b2c3d4e5f6", DUMP, PRUNED, &[], Some(pixels)).unwrap();
    let first = store
        .store_shown(&game(red), || Some(red.to_vec()))
        .unwrap();
    let second = store
        .store_shown(&game(blue), || Some(blue.to_vec()))
        .unwrap();
    assert_ne!(game(red).key(), game(blue).key());
    assert_eq!(first.dump, second.dump, "one dump file for both");
    assert_ne!(
        first.screenshot, second.screenshot,
        "each with its own pixels"
    );
    assert_eq!(store.store_shown(&game(red), || None).unwrap(), first);

    let other = SeenScreen::new("ffffffffffff", DUMP, PRUNED, &[], None).unwrap();
    assert_ne!(
        other.key(),
        SeenScreen::new("a1b2c3d4e5f6", DUMP, PRUNED, &[], None)
            .unwrap()
            .key()
    );
    assert_eq!(store.store(&other).unwrap().version, "ffffffffffff");
}
