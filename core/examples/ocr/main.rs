//! The numbers of docs/ocr.md ("Text from pixels"): Tesseract on the sim's specimens (known words
//! at known boxes) at each text size and contrast, and on the game's title screen; word
//! recall, precision, median box error and milliseconds per read; then what the game's
//! and the feed's 1024-px screenshots cost in tokens against the text of their lines (with
//! the feature `tokens`).
//!
//! `cargo run --release -p tapscope-core --features measure,tokens --example ocr --
//! [--seeds N] [--side PX] [--floor CONF] [--sizes 24,48] [--psm N] [--upscale-below PX]
//! [--timeout S] [--lang eng+chi_sim] [--misses] [--dump DIR]`: `--side 1024` reads the
//! specimens scaled to the fallback screenshot's size (boxes then in its pixels);
//! `--misses` lists every word missed or read wrongly on stderr; `--dump` writes the
//! specimens' PNGs instead.
//!
//! `cargo run --release -p tapscope-core --features measure --example ocr -- --pairs DIR
//! [--lang auto|eng+chi_sim] [--psm N] [--floor CONF] [--timeout S] [--misses]` reads real
//! screenshots (the floor a session reads at, 60, unless `--floor` says otherwise)
//! screenshots instead (`NAME.xml` and `NAME.png` or `NAME.jpg` in DIR, such as
//! `../shared/pairs`) at full resolution and scores each read against its dump's visible
//! texts (`pairs.rs`): a row a pair, then the totals; `--misses` lists each pair's missed
//! texts and junk lines on stderr.

#[cfg(feature = "tokens")]
mod costs;

use std::time::{Duration, Instant};

use image::ImageEncoder;
use tapscope_core::Rect;
use tapscope_core::device::sim::specimen::{self, Contrast, Specimen};
use tapscope_core::ocr::ppocr::PpOcr;
use tapscope_core::ocr::ppocr::detect::Boxes;
use tapscope_core::ocr::score::{Score, evaluate, score, trim_punctuation};
use tapscope_core::ocr::{Engines, OcrError, Tesseract, TextReader, Word};
use tapscope_core::prune::{OcrEngine, OcrLanguages, PruneRules};

const SIZES: [u32; 5] = [16, 20, 24, 32, 48];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut seeds = 3;
    let mut side = 2400;
    let mut floor = None;
    let mut dump = None;
    let mut timeout = 60;
    let mut sizes = SIZES.to_vec();
    let mut misses = false;
    let mut psm = tapscope_core::ocr::PAGE_SEGMENTATION;
    let mut upscale_below = 0;
    let mut pairs_dir = None;
    let mut languages = String::from("auto");
    let mut engine_name = String::from("auto");
    let mut detect_side = tapscope_core::ocr::ppocr::DETECT_SIDE;
    let mut box_threshold = None;
    let mut threads = 0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--misses" {
            misses = true;
            continue;
        }
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--seeds" => seeds = value.parse()?,
            "--side" => side = value.parse()?,
            "--floor" => floor = Some(value.parse()?),
            "--timeout" => timeout = value.parse()?,
            "--psm" => psm = value.parse()?,
            "--upscale-below" => upscale_below = value.parse()?,
            "--sizes" => {
                sizes = value
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::parse)
                    .collect::<Result<_, _>>()?;
            }
            "--dump" => dump = Some(std::path::PathBuf::from(value)),
            "--pairs" => pairs_dir = Some(std::path::PathBuf::from(value)),
            "--lang" => languages = value,
            "--engine" => engine_name = value,
            "--detect-side" => detect_side = value.parse()?,
            "--box-threshold" => box_threshold = Some(value.parse()?),
            "--threads" => threads = value.parse()?,
            _ => return Err(format!("unknown argument {arg}").into()),
        }
    }
    if let Some(dir) = dump {
        std::fs::create_dir_all(&dir)?;
        for &px in &sizes {
            for contrast in Contrast::ALL {
                let drawn = scaled(specimen::render(0, px, contrast)?, side)?;
                std::fs::write(dir.join(format!("{px}-{contrast:?}.png")), &drawn.png)?;
            }
        }
        std::fs::write(dir.join("game.png"), specimen::game_title(side)?.png)?;
        return Ok(());
    }
    let languages = OcrLanguages::parse(&languages)?;
    let engine = OcrEngine::parse(&engine_name)?;
    let named: Vec<&str> = match &languages {
        OcrLanguages::Named(names) => names.iter().map(String::as_str).collect(),
        OcrLanguages::Auto => Vec::new(),
    };
    let tesseract = Tesseract::find().and_then(|t| {
        Ok(t.with_languages(&named)?
            .with_timeout(Duration::from_secs(timeout))
            .with_page_segmentation(psm)
            .with_upscale_below(upscale_below))
    });
    let mut boxes = Boxes::default();
    if let Some(t) = box_threshold {
        boxes.box_threshold = t;
    }
    let ppocr = PpOcr::find().map(|p| {
        let p = p
            .with_detect_side(detect_side)
            .with_boxes(boxes)
            .with_timeout(Duration::from_secs(timeout));
        if threads > 0 {
            p.with_threads(threads)
        } else {
            p
        }
    });
    let describe = |floor: f32| -> String {
        let tesseract = match &tesseract {
            Ok(t) => format!("Tesseract {} `{}`", t.version(), t.arguments().join(" ")),
            Err(e) => format!("no Tesseract ({e})"),
        };
        let ppocr = match &ppocr {
            Ok(p) => format!(
                "PP-OCR from {}, detector side {detect_side}, box threshold {}, threads {}",
                p.files()
                    .detector
                    .parent()
                    .map_or("?".into(), |d| d.display().to_string()),
                boxes.box_threshold,
                if threads > 0 {
                    threads.to_string()
                } else {
                    "one a core".into()
                }
            ),
            Err(e) => format!("no PP-OCR ({e})"),
        };
        format!("engine {engine}, languages {languages}, floor {floor}; {ppocr}; {tesseract}")
    };
    let engines = Engines::new(tesseract.clone(), ppocr.clone());
    if let Some(dir) = pairs_dir {
        // What a session drops: the default rules' floor.
        let floor = floor.unwrap_or_else(|| f32::from(PruneRules::default().ocr_min_confidence));
        println!(
            "{}; full resolution, pairs in {}",
            describe(floor),
            dir.display()
        );
        let measured = evaluate::measure_all(
            &dir,
            &|tree| engines.reader_for(engine, &languages, tree),
            floor,
        )?;
        print!("{}", evaluate::table(&measured));
        if misses {
            eprint!("{}", evaluate::misses(&measured));
        }
        return Ok(());
    }
    // The specimens have no dump: the reader for a screen whose tree says nothing.
    let blank = tapscope_core::parse::parse_str(
        r#"<hierarchy rotation="0"><node bounds="[0,0][1080,2400]"/></hierarchy>"#,
    )?;
    let reader = engines.reader_for(engine, &languages, &blank)?;
    let floor = floor.unwrap_or(50.0);
    println!(
        "{}; {seeds} seeds, longest side {side}, doubled under {upscale_below}",
        describe(floor)
    );
    println!("| text px | contrast | words | recall | precision | box error px | ms/read |");
    println!("|---|---|---|---|---|---|---|");
    for &px in &sizes {
        for contrast in Contrast::ALL {
            let mut total = Score::default();
            let mut took = Duration::ZERO;
            for seed in 0..seeds {
                let drawn = scaled(specimen::render(seed, px, contrast)?, side)?;
                let (s, t) = measure(reader.as_ref(), &drawn, floor, misses)?;
                total.add(&s);
                took += t;
            }
            row(
                &format!("{px}"),
                &format!("{contrast:?}"),
                &total,
                took / seeds as u32,
            );
        }
    }
    for side in [2400, 1024] {
        let title = specimen::game_title(side)?;
        let (s, t) = measure(reader.as_ref(), &title, floor, misses)?;
        row(&format!("game title {side}"), "-", &s, t);
    }
    #[cfg(feature = "tokens")]
    costs::print(reader.as_ref(), floor)?;
    #[cfg(not(feature = "tokens"))]
    println!("\n(what the screenshots cost in tokens needs --features tokens)");
    Ok(())
}

fn measure(
    engine: &dyn TextReader,
    s: &Specimen,
    floor: f32,
    misses: bool,
) -> Result<(Score, Duration), OcrError> {
    let started = Instant::now();
    let lines = engine.read(&s.png, floor)?;
    let took = started.elapsed();
    if misses {
        let read: Vec<&Word> = lines.iter().flat_map(|l| &l.words).collect();
        let same = |w: &Word, t: &str, r: &Rect| {
            trim_punctuation(&w.text) == trim_punctuation(t) && !w.bounds.intersect(r).is_empty()
        };
        for (t, r) in &s.words {
            if !read.iter().any(|w| same(w, t, r)) {
                let near: Vec<String> = read
                    .iter()
                    .filter(|w| !w.bounds.intersect(r).is_empty())
                    .map(|w| format!("{:?} at {:.0}", w.text, w.confidence))
                    .collect();
                eprintln!("missed {t:?} {r}, read there: {near:?}");
            }
        }
        for w in read {
            if !s.words.iter().any(|(t, r)| same(w, t, r)) {
                eprintln!("extra {:?} at {:.0} {}", w.text, w.confidence, w.bounds);
            }
        }
    }
    Ok((score(&s.words, &lines), took))
}

fn row(size: &str, contrast: &str, s: &Score, took: Duration) {
    let error = s
        .median_box_error()
        .map_or("-".to_string(), |e| format!("{e:.1}"));
    println!(
        "| {size} | {contrast} | {} | {:.1} % | {:.1} % | {error} | {} |",
        s.known,
        s.recall() * 100.0,
        s.precision() * 100.0,
        took.as_millis()
    );
}

/// `s` no longer than `side` on its longest side, its boxes scaled with it.
fn scaled(s: Specimen, side: u32) -> Result<Specimen, Box<dyn std::error::Error>> {
    if s.width.max(s.height) <= side {
        return Ok(s);
    }
    let f = f64::from(side) / f64::from(s.width.max(s.height));
    let (w, h) = (
        (f64::from(s.width) * f).round() as u32,
        (f64::from(s.height) * f).round() as u32,
    );
    let img = image::load_from_memory(&s.png)?.into_rgb8();
    let small = image::imageops::thumbnail(&img, w, h);
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png).write_image(
        small.as_raw(),
        w,
        h,
        image::ExtendedColorType::Rgb8,
    )?;
    let at = |v: i32| (f64::from(v) * f).round() as i32;
    let words = s
        .words
        .into_iter()
        .map(|(t, r)| {
            (
                t,
                Rect::new(at(r.left), at(r.top), at(r.right), at(r.bottom)),
            )
        })
        .collect();
    Ok(Specimen {
        png,
        width: w,
        height: h,
        words,
    })
}
