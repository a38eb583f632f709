//! The self-drawn game on a virtual clock: its words in pixels only, a tap on the drawn
//! "Play" starting a game whose drawn score ticks, "Settings" and its "Back".

use std::time::Duration;

use super::super::*;
use crate::model::Rect;
use crate::stability::VirtualClock;

fn game() -> (Sim<VirtualClock>, VirtualClock) {
    let mut clock = VirtualClock::new();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.launch("tv.tapscope.blocks").unwrap();
    clock.sleep(Duration::from_secs(2));
    (sim, clock)
}

fn words(sim: &Sim<VirtualClock>) -> Vec<(String, Rect)> {
    sim.draw_words(1.0, true).unwrap().1
}

fn box_of(words: &[(String, Rect)], word: &str) -> Rect {
    words
        .iter()
        .find(|(w, _)| w == word)
        .unwrap_or_else(|| panic!("no {word:?} in {words:?}"))
        .1
}

/// The dump's app window: one empty `SurfaceView`.
fn one_empty_surface(sim: &Sim<VirtualClock>) -> bool {
    let xml = sim.xml();
    xml.matches("tv.tapscope.blocks").count() == 1 && xml.contains("android.view.SurfaceView")
}

#[test]
fn the_title_screen_draws_its_words_in_large_text_and_none_in_its_tree() {
    let (sim, _) = game();
    assert!(one_empty_surface(&sim), "{}", sim.xml());
    let words = words(&sim);
    for word in ["Blocks", "Score", "0", "Play", "Settings"] {
        let r = box_of(&words, word);
        assert!(
            r.height() >= 48 || word == "Score" || word == "0",
            "{word} {r}"
        );
    }
    assert!(box_of(&words, "Score").height() >= 40);
    assert!(Rect::new(240, 1640, 840, 1860).contains_rect(&box_of(&words, "Play")));
}

#[test]
fn a_tap_on_the_drawn_play_starts_a_game_whose_score_ticks() {
    let (mut sim, mut clock) = game();
    sim.tap(Point::new(100, 1750)).unwrap();
    assert_eq!(sim.screen_name(), "game", "beside the button, nothing");
    sim.tap(Point::new(540, 1750)).unwrap();
    assert_eq!(sim.screen_name(), "game_play");
    assert!(one_empty_surface(&sim));
    let settled = sim.animation_end().unwrap();
    clock.sleep(Duration::from_millis(400));
    let score = |sim: &Sim<VirtualClock>| {
        let words = words(sim);
        let at = words.iter().position(|(w, _)| w == "Score").unwrap();
        words[at + 1].0.clone()
    };
    assert_eq!(score(&sim), "0");
    let shot = sim.screenshot_png().unwrap();
    clock.sleep(Duration::from_millis(200));
    assert_eq!(score(&sim), "10");
    clock.sleep(Duration::from_millis(500));
    assert_eq!(score(&sim), "20");
    assert_ne!(sim.screenshot_png().unwrap(), shot, "its pixels change");
    let dump = sim.xml();
    clock.sleep(Duration::from_secs(3));
    assert_eq!(sim.xml(), dump, "its tree does not");
    assert_eq!(
        sim.last_event().map(|e| e.at),
        Some(settled),
        "pixels alone raise no event"
    );
}

#[test]
fn settings_opens_the_games_own_settings_and_back_returns() {
    let (mut sim, mut clock) = game();
    sim.tap(Point::new(540, 2030)).unwrap();
    assert_eq!(sim.screen_name(), "game_settings");
    clock.sleep(Duration::from_secs(1));
    let words = words(&sim);
    assert!(words.iter().any(|(w, _)| w == "Vibration:"), "{words:?}");
    sim.tap(Point::new(540, 2030)).unwrap();
    assert_eq!(sim.screen_name(), "game");
}
