//! The text lines of a screenshot, read as a session reads a self-drawn screen:
//! `cargo run --release -p tapscope-core --features ppocr --example read -- SCREEN.png
//! [--engine auto|ppocr|tesseract] [--lang auto|eng+chi_sim] [--floor 60]`. A line a row:
//! confidence, box in the image's pixels, text; then how long the read took. A JPG is read
//! too (decoded and given to the reader as a PNG).

use std::error::Error;
use std::io::Cursor;
use std::time::Instant;

use tapscope_core::ocr::Engines;
use tapscope_core::prune::{OcrEngine, OcrLanguages, PruneRules};

fn main() -> Result<(), Box<dyn Error>> {
    let mut path = None;
    let mut engine = OcrEngine::Auto;
    let mut languages = OcrLanguages::Auto;
    let mut floor = f32::from(PruneRules::default().ocr_min_confidence);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--engine" => engine = OcrEngine::parse(&value()?)?,
            "--lang" => languages = OcrLanguages::parse(&value()?)?,
            "--floor" => floor = value()?.parse()?,
            _ if path.is_none() && !arg.starts_with("--") => path = Some(arg),
            _ => return Err(format!("unknown argument {arg}").into()),
        }
    }
    let path = path.ok_or("give a screenshot: `--example read -- SCREEN.png`")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let png = if bytes.starts_with(b"\x89PNG") {
        bytes
    } else {
        let mut png = Vec::new();
        image::load_from_memory(&bytes)?
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)?;
        png
    };
    // No dump: the languages `--lang` names, or for `auto` English (which PP-OCR's
    // dictionary holds with Chinese).
    let tree = tapscope_core::parse::parse_str(
        r#"<hierarchy rotation="0"><node bounds="[0,0][1,1]"/></hierarchy>"#,
    )?;
    let reader = Engines::find().reader_for(engine, &languages, &tree)?;
    let started = Instant::now();
    let lines = reader.read(&png, floor)?;
    let took = started.elapsed();
    for line in &lines {
        println!("{:5.1} {} {}", line.confidence, line.bounds, line.text);
    }
    eprintln!(
        "{} lines in {} ms ({reader:?})",
        lines.len(),
        took.as_millis()
    );
    Ok(())
}
