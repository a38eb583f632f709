//! The reader a session is given: the sim's transcript reads the game's drawn words with
//! no Tesseract, a line's confidence never reaches the version, and a reader that fails
//! leaves the screenshot and says why.

use std::sync::Arc;

use crate::device::sim::Sim;
use crate::handle::Handle;
use crate::model::Rect;
use crate::ocr::{KNOWN, OcrError, TextLine, TextReader, Transcript, Word};
use crate::session::Unread;
use crate::session::{Action, Observation, Session, SessionConfig};
use crate::stability::VirtualClock;

type SimSession = Session<Sim<VirtualClock>, VirtualClock>;

fn session(reader: impl FnOnce(&mut Sim<VirtualClock>) -> Arc<dyn TextReader>) -> SimSession {
    let clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    let reader = reader(&mut sim);
    Session::new(sim, clock, SessionConfig::default()).with_text_reader(reader)
}

fn handle_of(observation: &Observation, text: &str) -> Handle {
    observation
        .handle_where(|n| n.label.contains(text))
        .unwrap_or_else(|| panic!("no actionable {text:?} in\n{}", observation.text))
}

/// The game's title screen, opened from the launcher.
fn game(session: &SimSession) -> Observation {
    let home = session.observe().expect("the launcher is observed");
    session
        .act(&Action::Tap(handle_of(&home, "Blocks")))
        .expect("the game opens")
        .observation
}

/// A stand-in that reads the same lines in any picture.
#[derive(Debug)]
struct Always(Result<Vec<TextLine>, String>);

impl TextReader for Always {
    fn read(&self, _png: &[u8], _min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
        self.0.clone().map_err(|stderr| OcrError::Failed {
            status: "exit status: 1".into(),
            stderr,
        })
    }
}

fn line(text: &str, confidence: f32, top: i32) -> TextLine {
    let bounds = Rect::new(150, top, 300, top + 40);
    TextLine {
        text: text.into(),
        confidence,
        bounds,
        words: vec![Word {
            text: text.into(),
            confidence,
            bounds,
        }],
    }
}

#[test]
fn the_sims_transcript_reads_the_games_drawn_words_and_the_score_as_it_ticks() {
    let session = session(|sim| Arc::new(sim.transcript()));
    let title = game(&session);
    assert_eq!(title.pixel_note, None, "{}", title.text);
    for word in ["Blocks", "Score 0", "Play", "Settings"] {
        let wanted = format!("ocr \"{word}\"");
        assert!(title.text.contains(&wanted), "{word} in:\n{}", title.text);
    }
    assert!(title.pixel_text.iter().all(|l| l.confidence == KNOWN));
    // "Play" is where the sim drew it, in display pixels: around (540, 1750).
    let play = title.pixel_text.iter().find(|l| l.text == "Play").unwrap();
    let (x, y) = play.bounds.center();
    assert!(
        (x - 540).abs() < 30 && (y - 1750).abs() < 30,
        "{}",
        play.bounds
    );

    let played = session
        .act(&Action::Tap(handle_of(&title, "Play")))
        .unwrap()
        .observation;
    assert!(played.text.contains("ocr \"Level 1\""), "{}", played.text);
    assert!(!played.text.contains("ocr \"Play\""), "{}", played.text);
    let mut later = session.observe().unwrap();
    for _ in 0..8 {
        if later.version != played.version {
            break;
        }
        session
            .act(&Action::Key(crate::device::Key::VolumeUp))
            .unwrap();
        later = session.observe().unwrap();
    }
    assert_ne!(later.version, played.version, "the drawn score ticks");
}

#[test]
fn a_lines_confidence_never_reaches_the_version() {
    let read = |confidence: f32, text: &str| {
        let lines = vec![line(text, confidence, 300), line("Play", confidence, 1700)];
        game(&session(|_| Arc::new(Always(Ok(lines)))))
    };
    let (sure, unsure) = (read(99.0, "Blocks"), read(61.5, "Blocks"));
    assert!(sure.text.contains("ocr \"Blocks\""), "{}", sure.text);
    assert_eq!(sure.version, unsure.version);
    assert_eq!(sure.text, unsure.text);
    assert_ne!(sure.pixel_text, unsure.pixel_text, "kept beside the tree");
    assert_ne!(sure.version, read(99.0, "Bl0cks").version, "the text does");
}

#[test]
fn a_reader_that_fails_leaves_the_screenshot_and_says_why() {
    let failing = game(&session(|_| {
        Arc::new(Always(Err("the model is missing".into())))
    }));
    assert!(failing.fallback.is_some());
    match &failing.pixel_note {
        Some(Unread::Failed(why)) => assert!(why.contains("the model is missing"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Another phone's transcript knows none of this one's pictures.
    let stranger = game(&session(|_| Arc::new(Transcript::new())));
    match &stranger.pixel_note {
        Some(Unread::Failed(why)) => assert!(why.contains("no words were filed"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(!stranger.text.contains("ocr "), "{}", stranger.text);
}
