//! A reader on real phone screenshots, scored against the dump taken with each: the
//! evaluation `--example ocr -- --pairs DIR` prints and `tests/ocr_pairs.rs` asserts. A
//! pair is `NAME.xml` and `NAME.png` or `NAME.jpg`; the truth is the dump's visible text
//! nodes ([`visible_texts`]) and the hand-labelled texts of `NAME.words` when there
//! ([`super::words`]), the rule [`score_against_dump`]'s.

use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{PairScore, pairs_in, score_against_dump, visible_descriptions, visible_texts};
use crate::model::{Rect, Tree};
use crate::ocr::{OcrError, TextReader, languages, png_size};

/// The reader for a pair, given its dump's tree (whose texts choose the languages).
pub type ReaderFor<'a> = dyn Fn(&Tree) -> Result<Box<dyn TextReader>, OcrError> + 'a;

/// One pair read and scored.
#[derive(Debug)]
pub struct Measured {
    pub name: String,
    /// The screenshot's size in pixels, read at full resolution.
    pub width: u32,
    pub height: u32,
    pub score: PairScore,
    /// The read alone (preparing the image included, decoding a JPG not).
    pub took: Duration,
    /// The languages whose scripts the dump's texts use (`eng` first, then `chi_sim`…).
    pub written_in: Vec<String>,
}

/// Every pair in `dir`, by name, read by the reader `reader_for` gives for its dump's tree
/// (the languages a session would choose from it, say) with words under `floor` dropped.
pub fn measure_all(
    dir: &Path,
    reader_for: &ReaderFor<'_>,
    floor: f32,
) -> Result<Vec<Measured>, Box<dyn Error>> {
    let mut out = Vec::new();
    for pair in pairs_in(dir)? {
        let failed = |e: &dyn std::fmt::Display| format!("{}: {e}", pair.name);
        let xml = std::fs::read_to_string(&pair.dump).map_err(|e| failed(&e))?;
        let tree = crate::parse::parse_str(&xml).map_err(|e| failed(&e))?;
        let png =
            as_png(&std::fs::read(&pair.image).map_err(|e| failed(&e))?).map_err(|e| failed(&e))?;
        let (width, height) = png_size(&png).map_err(|e| failed(&e))?;
        let display = (tree.display.width, tree.display.height);
        let mut truth = in_pixels(visible_texts(&tree), display, (width, height));
        if let Some(words) = &pair.words {
            let text = std::fs::read_to_string(words).map_err(|e| failed(&e))?;
            let screen = Rect::new(0, 0, width as i32, height as i32);
            truth.extend(super::words::labelled(&text, screen).map_err(|e| failed(&e))?);
        }
        let described = in_pixels(visible_descriptions(&tree), display, (width, height));
        let reader = reader_for(&tree).map_err(|e| failed(&e))?;
        let started = Instant::now();
        let lines = reader.read(&png, floor).map_err(|e| failed(&e))?;
        let took = started.elapsed();
        out.push(Measured {
            name: pair.name,
            width,
            height,
            score: score_against_dump(&truth, &described, &lines),
            took,
            written_in: languages::written_in(&tree),
        });
    }
    Ok(out)
}

/// `bytes` as a PNG: a PNG as it is, anything else (a JPG) decoded and encoded.
fn as_png(bytes: &[u8]) -> Result<Vec<u8>, Box<dyn Error>> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(bytes.to_vec());
    }
    let img = image::load_from_memory(bytes)?.into_rgb8();
    Ok(crate::png::encode_fast(&img)?)
}

/// The truth's boxes, in the dump's display coordinates, in the screenshot's pixels (the
/// same unless the screenshot was scaled).
fn in_pixels(
    truth: Vec<(String, Rect)>,
    display: (i32, i32),
    image: (u32, u32),
) -> Vec<(String, Rect)> {
    let (w, h) = (f64::from(image.0), f64::from(image.1));
    if display.0 <= 0 || display.1 <= 0 || (f64::from(display.0), f64::from(display.1)) == (w, h) {
        return truth;
    }
    let (fx, fy) = (w / f64::from(display.0), h / f64::from(display.1));
    let at = |v: i32, f: f64| (f64::from(v) * f).round() as i32;
    truth
        .into_iter()
        .map(|(t, r)| {
            let r = Rect::new(
                at(r.left, fx),
                at(r.top, fy),
                at(r.right, fx),
                at(r.bottom, fy),
            );
            (t, r)
        })
        .collect()
}

/// The pairs' scores added up.
pub fn total(measured: &[Measured]) -> (PairScore, Duration) {
    let mut score = PairScore::default();
    let mut took = Duration::ZERO;
    for m in measured {
        score.add(&m.score);
        took += m.took;
    }
    (score, took)
}

/// A Markdown table: a row a pair, then the totals.
pub fn table(measured: &[Measured]) -> String {
    let mut out = String::from(
        "| pair | image | texts | recalled | recall | lines | junk | junk share | ms |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    let mut row = |name: &str, image: &str, s: &PairScore, took: Duration| {
        let _ = writeln!(
            out,
            "| {name} | {image} | {} | {} | {:.1} % | {} | {} | {:.1} % | {} |",
            s.texts,
            s.recalled,
            s.recall() * 100.0,
            s.lines,
            s.junk,
            s.junk_share() * 100.0,
            took.as_millis()
        );
    };
    for m in measured {
        let image = format!("{}×{}", m.width, m.height);
        row(&m.name, &image, &m.score, m.took);
    }
    let (all, took) = total(measured);
    row(&format!("total ({})", measured.len()), "-", &all, took);
    out
}

/// Each pair's missed texts and junk lines, a line each.
pub fn misses(measured: &[Measured]) -> String {
    let mut out = String::new();
    for m in measured {
        for text in &m.score.missed {
            let _ = writeln!(out, "{}: missed {text:?}", m.name);
        }
        for line in &m.score.junk_lines {
            let _ = writeln!(out, "{}: junk {line:?}", m.name);
        }
    }
    out
}
