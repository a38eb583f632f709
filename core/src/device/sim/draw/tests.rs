//! The painter on literal scenes: a node's text lands inside its bounds and nowhere else,
//! a blank node draws nothing, the status bar's clock and the keyboard's letters are
//! drawn, a field's hint is grey, drawing follows the scale.

use image::RgbImage;

use super::*;
use crate::device::sim::view;
use crate::model::Flags;

const DISPLAY: Size = Size {
    width: 1080,
    height: 2400,
};

fn node(class: &str, text: &str, bounds: Rect) -> Shown {
    Shown {
        window: Win::App,
        depth: 1,
        item: Some(0),
        class: format!("android.widget.{class}"),
        text: text.into(),
        desc: String::new(),
        resource_id: String::new(),
        package: "p".into(),
        bounds,
        visible: bounds,
        flags: Flags::ENABLED,
        showing_hint: false,
        authored: bounds,
    }
}

fn draw(nodes: &[Shown], scale: f64) -> (RgbImage, Vec<(String, Rect)>) {
    let scene = Scene {
        nodes,
        paint: &[],
        shift_x: 0,
        tick: None,
    };
    pixels(&scene, DISPLAY, scale, true).unwrap()
}

/// Pixels darker than mid-grey inside `r` and outside it.
fn dark_inside_and_out(img: &RgbImage, r: Rect) -> (usize, usize) {
    let (mut inside, mut outside) = (0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        // The navigation handle is drawn on every screen.
        if y >= 2360 || p.0.iter().map(|&v| u32::from(v)).sum::<u32>() >= 3 * 128 {
            continue;
        }
        if r.contains_rect(&Rect::new(x as i32, y as i32, x as i32 + 1, y as i32 + 1)) {
            inside += 1;
        } else {
            outside += 1;
        }
    }
    (inside, outside)
}

#[test]
fn a_nodes_text_lands_inside_its_bounds_and_nowhere_else() {
    let bounds = Rect::new(36, 560, 516, 684);
    let (img, words) = draw(
        &[node(
            "TextView",
            "Every Apollo landing site from orbit",
            bounds,
        )],
        1.0,
    );
    let (inside, outside) = dark_inside_and_out(&img, bounds);
    assert!(inside > 1500, "{inside} dark pixels inside");
    assert_eq!(outside, 0);
    let drawn: Vec<&str> = words.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(
        drawn,
        ["Every", "Apollo", "landing", "site", "from", "orbit"],
        "wrapped, nothing cut"
    );
    for (word, r) in &words {
        assert!(bounds.contains_rect(r), "{word} {r}");
        assert!(
            r.height() >= 20,
            "no tiny text where there is room: {word} {r}"
        );
    }
}

#[test]
fn a_blank_node_draws_nothing_and_a_long_text_is_cut_to_its_box() {
    let (empty, _) = draw(&[], 1.0);
    let (blank, words) = draw(&[node("TextView", "", Rect::new(0, 300, 1080, 400))], 1.0);
    assert!(words.is_empty());
    assert!(empty == blank, "a node with nothing to say leaves no mark");

    let bounds = Rect::new(100, 300, 400, 350);
    let long = "a title far too long to fit in three hundred pixels at any readable size";
    let (img, words) = draw(&[node("TextView", long, bounds)], 1.0);
    assert_eq!(dark_inside_and_out(&img, bounds).1, 0);
    assert!(
        words.last().is_some_and(|(w, _)| w.ends_with('…')),
        "{words:?}"
    );
}

#[test]
fn the_status_bar_shows_its_clock_and_battery_light_on_dark() {
    let (img, words) = draw(&view::status_bar("12:34", 80, 1080), 1.0);
    let clock = words
        .iter()
        .find(|(w, _)| w == "12:34")
        .expect("the clock is drawn");
    assert!(
        Rect::new(32, 20, 140, 76).contains_rect(&clock.1),
        "{}",
        clock.1
    );
    assert!(words.iter().any(|(w, _)| w == "80%"), "{words:?}");
    let bright = (clock.1.left..clock.1.right)
        .filter(|&x| {
            img.get_pixel(x as u32, (clock.1.top + clock.1.bottom) as u32 / 2)
                .0[0]
                > 200
        })
        .count();
    assert!(bright > 5, "light ink");
    assert_eq!(img.get_pixel(500, 50).0, system::BAR.0, "a dark bar");
}

#[test]
fn the_keyboard_shows_its_letters_on_its_keys() {
    let (_, words) = draw(&view::keyboard(1080, 2400), 1.0);
    let letters: String = words.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(letters, "qwertyuiopasdfghjklzxcvbnm");
    let q = &words[0].1;
    assert!(Rect::new(0, 1590, 108, 1740).contains_rect(q), "{q}");
}

#[test]
fn a_fields_hint_is_grey_and_its_text_dark() {
    let bounds = Rect::new(120, 108, 960, 228);
    let mut hint = node("EditText", "Search videos", bounds);
    hint.flags |= Flags::EDITABLE;
    hint.showing_hint = true;
    let mut typed = hint.clone();
    typed.showing_hint = false;
    let darkest = |n: &Shown| {
        let (img, _) = draw(std::slice::from_ref(n), 1.0);
        img.enumerate_pixels()
            .filter(|(x, y, _)| {
                bounds.contains_rect(&Rect::new(
                    *x as i32,
                    *y as i32,
                    *x as i32 + 1,
                    *y as i32 + 1,
                ))
            })
            .map(|(_, _, p)| p.0[1])
            .min()
            .unwrap()
    };
    let (grey, dark) = (darkest(&hint), darkest(&typed));
    assert!(grey > dark + 30, "hint {grey}, text {dark}");
}

#[test]
fn a_switch_shows_whether_it_is_on() {
    let bounds = Rect::new(0, 264, 1080, 420);
    let off = node("Switch", "Wi-Fi", bounds);
    let mut on = off.clone();
    on.flags |= Flags::CHECKED;
    let track = |n: &Shown| draw(std::slice::from_ref(n), 1.0).0.get_pixel(960, 342).0;
    assert_eq!(track(&on), PRIMARY.0);
    assert_ne!(track(&off), PRIMARY.0);
}

#[test]
fn drawing_follows_the_scale_and_the_visible_part() {
    let bounds = Rect::new(36, 560, 516, 684);
    let mut half = node("TextView", "Every Apollo landing site from orbit", bounds);
    let (full, words) = draw(std::slice::from_ref(&half), 1.0);
    let (small, small_words) = draw(std::slice::from_ref(&half), 0.5);
    assert_eq!(
        (small.width(), small.height()),
        (full.width() / 2, full.height() / 2)
    );
    assert_eq!(words.len(), small_words.len());
    let (a, b) = (words[0].1, small_words[0].1);
    assert!(
        (a.left / 2 - b.left).abs() <= 1 && (a.top / 2 - b.top).abs() <= 1,
        "{a} {b}"
    );

    // Scrolled half under the top of its list: nothing drawn above the visible part.
    half.visible = Rect::new(36, 622, 516, 684);
    let (img, _) = draw(&[half.clone()], 1.0);
    assert_eq!(dark_inside_and_out(&img, half.visible).1, 0);
}
