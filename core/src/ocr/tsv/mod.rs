//! Tesseract's TSV (`tsv` config) read into lines of words: one row per page, block,
//! paragraph, line and word (levels 1 to 5); only word rows carry text and a confidence,
//! and a word's line is the block, paragraph and line numbers it is filed under.
//!
//! Rows are split by the `csv` crate with a tab delimiter and quoting off (Tesseract
//! quotes nothing: a `"` is a character of a word), `flexible` so that a short row is this
//! reader's error, with its line, rather than the crate's.

use std::collections::HashMap;

use csv::{ReaderBuilder, StringRecord, Terminator};

use super::{OcrError, TextLine, Word, plausible};
use crate::model::Rect;

/// The header Tesseract 4 and 5 write; anything else is not its TSV.
const HEADER: [&str; 12] = [
    "level",
    "page_num",
    "block_num",
    "par_num",
    "line_num",
    "word_num",
    "left",
    "top",
    "width",
    "height",
    "conf",
    "text",
];

/// The level of a word row.
const WORD: u8 = 5;

/// The lines of `tsv`, in Tesseract's reading order, made of the words at or over
/// `min_confidence` that hold a letter or a digit (not blank, not `—` or `|` alone) and do
/// not have the shape of texture (`plausible`); a line left with no word, or with one
/// character Tesseract is not sure of, is dropped.
/// Empty output is no lines; a missing or different header, a short row or a field that
/// is not a number is [`OcrError::BadOutput`].
pub(super) fn lines(tsv: &str, min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
    let mut reader = ReaderBuilder::new()
        .delimiter(b'\t')
        .quoting(false)
        .flexible(true)
        .has_headers(false)
        .terminator(Terminator::Any(b'\n'))
        .from_reader(tsv.as_bytes());
    let mut lines = Lines::default();
    let mut header_seen = false;
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            bad(line, e.to_string())
        })?;
        let number = record.position().map_or(0, |p| p.line() as usize);
        if header_seen {
            if let Some((key, word)) = word(&record, number)?
                && word.confidence >= min_confidence
                && word.text.chars().any(char::is_alphanumeric)
                && !plausible::is_texture(&word.text)
            {
                lines.add(key, word);
            }
        } else if !record.iter().all(|f| f.trim().is_empty()) {
            check_header(&record, number)?;
            header_seen = true;
        }
    }
    let mut lines = lines.lines;
    lines.retain(plausible::is_plausible);
    Ok(lines)
}

/// The lines so far, and where each line key's is.
#[derive(Default)]
struct Lines {
    lines: Vec<TextLine>,
    index: HashMap<[u32; 4], usize>,
}

impl Lines {
    /// `word` added to the end of its line, a new one if it is the line's first.
    fn add(&mut self, key: [u32; 4], word: Word) {
        match self.index.get(&key) {
            Some(&at) => {
                let line = &mut self.lines[at];
                if plausible::spaced(&line.text, &word.text) {
                    line.text.push(' ');
                }
                line.text.push_str(&word.text);
                line.confidence = line.confidence.min(word.confidence);
                line.bounds = line.bounds.union(&word.bounds);
                line.words.push(word);
            }
            None => {
                self.index.insert(key, self.lines.len());
                self.lines.push(TextLine {
                    text: word.text.clone(),
                    confidence: word.confidence,
                    bounds: word.bounds,
                    words: vec![word],
                });
            }
        }
    }
}

/// The first row that is not blank must be [`HEADER`] (trailing blanks aside).
fn check_header(record: &StringRecord, number: usize) -> Result<(), OcrError> {
    let fields: Vec<&str> = record.iter().map(str::trim_end).collect();
    let used = fields
        .iter()
        .rposition(|f| !f.is_empty())
        .map_or(0, |at| at + 1);
    if fields[..used] == HEADER {
        return Ok(());
    }
    let header = record.iter().collect::<Vec<_>>().join("\t");
    Err(bad(
        number,
        format!("the header is {header:?}, not Tesseract's TSV header"),
    ))
}

/// A word row's line key (page, block, paragraph, line) and word; `None` for the rows
/// of the other levels, and for a word without a confidence (`-1`).
fn word(row: &StringRecord, number: usize) -> Result<Option<([u32; 4], Word)>, OcrError> {
    let fields: Vec<&str> = row.iter().collect();
    if fields.len() < HEADER.len() {
        return Err(bad(
            number,
            format!(
                "{} fields where Tesseract writes 12: {:?}",
                fields.len(),
                fields.join("\t")
            ),
        ));
    }
    let level: u8 = number_at(&fields, 0, number)?;
    if level != WORD {
        return Ok(None);
    }
    let key = [
        number_at(&fields, 1, number)?,
        number_at(&fields, 2, number)?,
        number_at(&fields, 3, number)?,
        number_at(&fields, 4, number)?,
    ];
    let [left, top, width, height]: [i32; 4] = [
        number_at(&fields, 6, number)?,
        number_at(&fields, 7, number)?,
        number_at(&fields, 8, number)?,
        number_at(&fields, 9, number)?,
    ];
    // Some locales print a decimal comma.
    let conf = fields[10].trim().replace(',', ".");
    let confidence: f32 = conf.parse().map_err(|_| {
        bad(
            number,
            format!("the confidence {:?} is not a number", fields[10]),
        )
    })?;
    if confidence.is_nan() {
        return Err(bad(
            number,
            format!("the confidence {:?} is not a number", fields[10]),
        ));
    }
    if confidence < 0.0 {
        return Ok(None);
    }
    // The text is the last field and may itself hold a tab: the fields after the
    // eleventh are its pieces.
    let text = fields[HEADER.len() - 1..].join("\t");
    let text = text.trim_end_matches('\r').trim().to_string();
    let bounds = Rect::new(
        left,
        top,
        left.saturating_add(width.max(0)),
        top.saturating_add(height.max(0)),
    );
    Ok(Some((
        key,
        Word {
            text,
            confidence: confidence.min(100.0),
            bounds,
        },
    )))
}

fn number_at<T: std::str::FromStr>(fields: &[&str], at: usize, line: usize) -> Result<T, OcrError> {
    fields[at].trim().parse().map_err(|_| {
        bad(
            line,
            format!("{} {:?} is not a whole number", HEADER[at], fields[at]),
        )
    })
}

fn bad(line: usize, message: String) -> OcrError {
    OcrError::BadOutput { line, message }
}

#[cfg(test)]
mod tests;
