//! Whether what Tesseract read looks like text a screen shows, judged without a dictionary
//! (any language, any app's names): icons and photo texture read as `eee`, `oO` or a lone
//! `Y` become handles an agent may tap, and a word that cannot be read is better missing
//! than wrong.

use super::TextLine;

/// A lone character is kept only when Tesseract is at least this sure of it.
const LONE_CHARACTER_CONFIDENCE: f32 = 95.0;

/// Whether `word` has the shape of texture rather than writing: one letter three times or
/// more (`eee`, `ooo`), or a short word whose case turns back up after a lower-case letter
/// (`oO`, `xX`, `WwW`; names such as `eBay` are longer).
pub(super) fn is_texture(word: &str) -> bool {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() != word.chars().filter(|c| c.is_alphanumeric()).count() {
        return false;
    }
    let repeated = letters.len() >= 3
        && letters
            .iter()
            .all(|c| c.to_lowercase().eq(letters[0].to_lowercase()));
    let turns_up = letters.len() <= 3
        && letters
            .windows(2)
            .any(|pair| pair[0].is_lowercase() && pair[1].is_uppercase());
    repeated || turns_up
}

/// Whether `line` is kept: a lone letter or digit needs [`LONE_CHARACTER_CONFIDENCE`].
pub(super) fn is_plausible(line: &TextLine) -> bool {
    let characters = line.text.chars().filter(|c| c.is_alphanumeric()).count();
    characters > 1 || line.confidence >= LONE_CHARACTER_CONFIDENCE
}

/// Whether a space goes between two words of a line: not between two characters of a
/// script written without spaces (Chinese, Japanese), which Tesseract reads as words.
pub(super) fn spaced(before: &str, after: &str) -> bool {
    let unspaced = |c: Option<char>| {
        c.is_some_and(|c| {
            matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
                | '\u{F900}'..='\u{FAFF}' | '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
        })
    };
    !(unspaced(before.chars().next_back()) && unspaced(after.chars().next()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rect;

    fn line(text: &str, confidence: f32) -> TextLine {
        TextLine {
            text: text.into(),
            confidence,
            bounds: Rect::new(0, 0, 10, 10),
            words: Vec::new(),
        }
    }

    #[test]
    fn texture_is_told_from_words() {
        for texture in ["eee", "ooo", "OOO", "oO", "xX", "WwW"] {
            assert!(is_texture(texture), "{texture}");
        }
        for word in [
            "Settings", "eBay", "TV", "Wi-Fi,", "100%", "4:55", "ee", "See", "搜索", "Oo",
        ] {
            assert!(!is_texture(word), "{word}");
        }
    }

    #[test]
    fn a_lone_character_needs_to_be_sure() {
        assert!(!is_plausible(&line("Y", 80.0)));
        assert!(!is_plausible(&line("前", 90.0)));
        assert!(is_plausible(&line("4", 96.0)));
        assert!(is_plausible(&line("OK", 70.0)));
        assert!(is_plausible(&line("Q 搜索", 70.0)));
    }

    #[test]
    fn chinese_and_japanese_characters_join_without_spaces() {
        assert!(!spaced("上", "午"));
        assert!(!spaced("昨天", "、"));
        assert!(spaced("昨天", "23:25"));
        assert!(spaced("Pure", "Music"));
        assert!(spaced("BUAA-", "青"));
    }
}
