//! The specimens on literal expectations: words inside the image where they were drawn,
//! the same picture for the same seed, the contrast asked for, the game's words.

use super::*;

fn pixels(s: &Specimen) -> image::RgbImage {
    image::load_from_memory(&s.png).unwrap().to_rgb8()
}

#[test]
fn every_word_is_inside_the_picture_and_inked_there() {
    for px in [12, 24, 48] {
        let s = render(7, px, Contrast::High).unwrap();
        let img = pixels(&s);
        assert_eq!((s.width, s.height), (1080, 2400));
        assert_eq!((img.width(), img.height()), (s.width, s.height));
        assert!(s.words.len() > 40, "{px} px: {} words", s.words.len());
        for (word, r) in &s.words {
            assert!(!word.is_empty() && !word.contains(' '), "{word:?}");
            assert!(r.left >= 0 && r.top >= 0, "{word} {r}");
            assert!(r.right <= 1080 && r.bottom <= 2400, "{word} {r}");
            assert!(r.width() > 0 && r.height() > 0, "{word} {r}");
            // As tall as the size asked for allows: a capital or a digit and no more
            // than ascent to descent.
            assert!(r.height() <= px as i32 + 2, "{word} {r} at {px} px");
            let inked = (r.left..r.right)
                .flat_map(|x| (r.top..r.bottom).map(move |y| (x, y)))
                .any(|(x, y)| {
                    img.get_pixel(x as u32, y as u32).0[0] < 128
                        || img.get_pixel(x as u32, y as u32).0[0] > 200
                });
            assert!(inked, "{word} {r}");
        }
        // Words of capitals and x-height letters alone: as tall as a capital.
        let flat = ["OK", "Home", "Save", "Create", "Camera"];
        let capital = s.words.iter().find(|(w, _)| flat.contains(&w.as_str()));
        let (word, r) = capital.expect("a word without ascenders or descenders");
        let cap = r.height() as f32;
        // A capital is 0.62 of the size; anti-aliasing inks a pixel more either side.
        assert!(
            (cap - 0.62 * px as f32 - 1.0).abs() <= 1.5,
            "{word}: {cap} px at {px} px"
        );
    }
}

#[test]
fn a_seed_gives_one_picture_and_another_seed_another() {
    let a = render(3, 32, Contrast::Medium).unwrap();
    assert_eq!(a, render(3, 32, Contrast::Medium).unwrap());
    let b = render(4, 32, Contrast::Medium).unwrap();
    assert_ne!(a.words, b.words);
}

#[test]
fn lower_contrast_is_fainter_ink() {
    let darkest = |c: Contrast| {
        let s = render(5, 40, c).unwrap();
        let img = pixels(&s);
        // The first word on a light line: its darkest pixel.
        let (_, r) = &s.words[0];
        (r.left..r.right)
            .flat_map(|x| (r.top..r.bottom).map(move |y| (x, y)))
            .map(|(x, y)| img.get_pixel(x as u32, y as u32).0[0])
            .min()
            .unwrap()
    };
    let (high, medium, low) = (
        darkest(Contrast::High),
        darkest(Contrast::Medium),
        darkest(Contrast::Low),
    );
    assert!(high < medium && medium < low, "{high} {medium} {low}");
}

#[test]
fn the_game_title_has_its_words_where_it_draws_them() {
    let full = game_title(2400).unwrap();
    assert_eq!((full.width, full.height), (1080, 2400));
    let find = |s: &Specimen, w: &str| s.words.iter().find(|(x, _)| x == w).map(|(_, r)| *r);
    for word in ["Blocks", "Score", "0", "Play", "Settings"] {
        assert!(find(&full, word).is_some(), "{word} in {:?}", full.words);
    }
    let play = find(&full, "Play").unwrap();
    assert!(
        Rect::new(240, 1640, 840, 1860).contains_rect(&play),
        "{play}"
    );
    assert!(play.height() >= 48, "large text: {play}");
    let title = find(&full, "Blocks").unwrap();
    assert!(title.height() >= 96, "{title}");

    let small = game_title(1024).unwrap();
    assert_eq!((small.width, small.height), (461, 1024));
    let play_small = find(&small, "Play").unwrap();
    let (cx, cy) = play_small.center();
    assert!(
        (cx - 230).abs() < 8 && (cy - 750).abs() < 12,
        "{play_small}"
    );
    assert_eq!(small, game_title(1024).unwrap());
}
