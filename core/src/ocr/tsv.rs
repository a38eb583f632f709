//! Tesseract's TSV (`tsv` config) read into lines of words: one row per page, block,
//! paragraph, line and word (levels 1 to 5); only word rows carry text and a confidence,
//! and a word's line is the block, paragraph and line numbers it is filed under.

use std::collections::HashMap;

use super::{OcrError, TextLine, Word};
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
/// `min_confidence` that hold a letter or a digit (not blank, not `—` or `|` alone); a
/// line left with no word is dropped.
/// Empty output is no lines; a missing or different header, a short row or a field that
/// is not a number is [`OcrError::BadOutput`].
pub(super) fn lines(tsv: &str, min_confidence: f32) -> Result<Vec<TextLine>, OcrError> {
    let mut rows = tsv.lines().enumerate().map(|(i, row)| (i + 1, row));
    let Some((at, header)) = rows.find(|(_, row)| !row.trim().is_empty()) else {
        return Ok(Vec::new());
    };
    if !header.trim_end().split('\t').eq(HEADER) {
        return Err(bad(
            at,
            format!("the header is {header:?}, not Tesseract's TSV header"),
        ));
    }
    let mut lines: Vec<TextLine> = Vec::new();
    let mut index: HashMap<[u32; 4], usize> = HashMap::new();
    for (number, row) in rows {
        if row.is_empty() {
            continue;
        }
        let Some((key, word)) = word(row, number)? else {
            continue;
        };
        if word.confidence < min_confidence || !word.text.chars().any(char::is_alphanumeric) {
            continue;
        }
        match index.get(&key) {
            Some(&at) => {
                let line = &mut lines[at];
                line.text.push(' ');
                line.text.push_str(&word.text);
                line.confidence = line.confidence.min(word.confidence);
                line.bounds = line.bounds.union(&word.bounds);
                line.words.push(word);
            }
            None => {
                index.insert(key, lines.len());
                lines.push(TextLine {
                    text: word.text.clone(),
                    confidence: word.confidence,
                    bounds: word.bounds,
                    words: vec![word],
                });
            }
        }
    }
    Ok(lines)
}

/// A word row's line key (page, block, paragraph, line) and word; `None` for the rows
/// of the other levels, and for a word without a confidence (`-1`).
fn word(row: &str, number: usize) -> Result<Option<([u32; 4], Word)>, OcrError> {
    // The text is the last field and may itself hold a tab: split off eleven fields only.
    let fields: Vec<&str> = row.splitn(HEADER.len(), '\t').collect();
    if fields.len() < HEADER.len() {
        return Err(bad(
            number,
            format!("{} fields where Tesseract writes 12: {row:?}", fields.len()),
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
    let text = fields[11].trim_end_matches('\r').trim().to_string();
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
#[path = "tsv_tests.rs"]
mod tests;
