//! One text counted with the tokenizer, except for its long whitespace runs. A run of one
//! space-like byte, where the tokenizer's regex provably starts a piece before and after
//! it, is counted exactly without the regex; any other run too long for the regex is
//! counted in parts, which makes the count an estimate.
//!
//! Why the cuts are exact, for both encodings' regexes: no regex piece holds a character
//! that is not whitespace followed by a space-like one, so a piece starts at a run that
//! follows such a character; after a newline a piece starts too (the newline ends the
//! whitespace piece before, `\s*[\r\n]`). A run of one space-like byte followed by something
//! else is then one piece (`\s+(?!\S)`) but for its last byte, which starts the next piece;
//! at the end of the text the whole run is one piece. No pattern looks behind.

use super::run::RUN_BYTES;
use super::{Encoding, TokenCount};

/// Runs of one space-like byte at least this long are counted without the regex (shorter
/// ones, such as any indentation, cost it little).
const LONG_RUN: usize = 256;

/// Other whitespace runs longer than this are counted in parts of this size: the regex's
/// stack overflows on a run of a million, and it spends about a microsecond per character.
const MAX_REGEX_RUN: usize = 4096;

/// Counts `text` (see [`Encoding::count`] for what is exact).
pub(super) fn count(encoding: Encoding, text: &str) -> TokenCount {
    let bytes = text.as_bytes();
    let mut tally = Tally {
        encoding,
        text,
        counted_to: 0,
        total: TokenCount::Exact(0),
    };
    let mut from = 0;
    while let Some((start, end)) = next_whitespace_run(text, from, LONG_RUN) {
        from = end;
        let exact_run = uniform_tail(bytes, start, end)
            .filter(|&tail| end - tail >= LONG_RUN && starts_pieces(bytes, start, tail, end));
        let Some(tail) = exact_run else {
            tally.in_parts(start, end);
            continue;
        };
        tally.in_parts(start, tail);
        tally.with_regex(tail);
        let piece = if end < bytes.len() {
            end - tail - 1
        } else {
            end - tail
        };
        tally.total = tally.total + encoding.run_tokens(bytes[tail], piece);
        tally.counted_to = tail + piece;
    }
    tally.with_regex(bytes.len());
    tally.total
}

/// The count so far: `text[..counted_to]` is in `total`.
struct Tally<'a> {
    encoding: Encoding,
    text: &'a str,
    counted_to: usize,
    total: TokenCount,
}

impl Tally<'_> {
    /// Counts the text up to `end` with the tokenizer itself.
    fn with_regex(&mut self, end: usize) {
        if end > self.counted_to {
            let tokens = self
                .encoding
                .bpe()
                .count_ordinary(&self.text[self.counted_to..end]);
            self.total = self.total + TokenCount::Exact(tokens);
        }
        self.counted_to = end;
    }

    /// Counts the whitespace `text[start..end]` in parts the regex copes with, when it is too
    /// long for the regex in one piece.
    fn in_parts(&mut self, start: usize, end: usize) {
        if end - start <= MAX_REGEX_RUN {
            return;
        }
        let mut cut = start + MAX_REGEX_RUN;
        while cut < end {
            let at = self.text.floor_char_boundary(cut);
            self.with_regex(at);
            self.total = self.total.estimated();
            cut = at + MAX_REGEX_RUN;
        }
    }
}

/// The next maximal run of whitespace at or after `from` (the start of the text or just
/// after whitespace), at least `min` bytes long. Only every `min`-th byte is looked at
/// until one is whitespace: a run that long holds one of them.
fn next_whitespace_run(text: &str, from: usize, min: usize) -> Option<(usize, usize)> {
    let stride = min.max(1);
    let mut probe = from.next_multiple_of(stride);
    while probe < text.len() {
        let at = text.floor_char_boundary(probe);
        if !text[at..].chars().next().is_some_and(char::is_whitespace) {
            probe += stride;
            continue;
        }
        let width = |chars: &mut dyn Iterator<Item = char>| -> usize {
            chars
                .take_while(|c| c.is_whitespace())
                .map(char::len_utf8)
                .sum()
        };
        let start = at - width(&mut text[from..at].chars().rev());
        let end = at + width(&mut text[at..].chars());
        if end - start >= min {
            return Some((start, end));
        }
        probe = end.next_multiple_of(stride).max(probe + stride);
    }
    None
}

/// Where the run `bytes[start..end]` ends in a run of one space-like byte, its start.
fn uniform_tail(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let last = bytes[end - 1];
    if !RUN_BYTES.contains(&last) {
        return None;
    }
    let same = bytes[start..end]
        .iter()
        .rev()
        .take_while(|&&b| b == last)
        .count();
    Some(end - same)
}

/// Whether the regex starts a piece at `tail` in the whitespace run `start..end` and
/// again at its last byte (see the module's comment).
fn starts_pieces(bytes: &[u8], start: usize, tail: usize, end: usize) -> bool {
    let whole_run = tail == start;
    let after_newline = tail > start && matches!(bytes[tail - 1], b'\n' | b'\r');
    // At the end of the text cl100k makes one piece of a newline and the spaces after it.
    whole_run || (after_newline && end < bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_long_runs_only() {
        let text = "a  b\u{3000}\u{3000} \n\n\nc     ";
        assert_eq!(next_whitespace_run(text, 0, 1), Some((1, 3)));
        assert_eq!(next_whitespace_run(text, 0, 4), Some((4, 14)));
        assert_eq!(next_whitespace_run(text, 14, 4), Some((15, 20)));
        assert_eq!(next_whitespace_run(text, 14, 6), None);
    }

    #[test]
    fn a_uniform_tail_counts_only_after_text_or_a_newline() {
        let bytes = b"x\n\n      y";
        assert_eq!(uniform_tail(bytes, 1, 9), Some(3));
        assert!(starts_pieces(bytes, 1, 3, 9));
        let bytes = b"x\t      y";
        assert_eq!(uniform_tail(bytes, 1, 8), Some(2));
        assert!(!starts_pieces(bytes, 1, 2, 8));
        assert!(starts_pieces(b"x      ", 1, 1, 7));
        // At the end of the text a newline before the run joins it in one cl100k piece.
        assert!(!starts_pieces(b"x\n      ", 1, 2, 8));
        assert_eq!(uniform_tail(b"x \n", 1, 3), None);
    }
}
