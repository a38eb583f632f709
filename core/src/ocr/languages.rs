//! Which installed languages to read a screen in, guessed from the scripts its dump's own
//! texts are written in: a game draws its words, but the phone around it (status bar,
//! notifications, an overlay) still writes its language into the tree.

use crate::model::Tree;
use crate::prune::OcrLanguages;

/// Whether a character is of one script, and the languages whose data read it, the first
/// installed one used.
type Script = (fn(char) -> bool, &'static [&'static str]);

/// The scripts Tesseract has trained data for, other than Latin.
const SCRIPTS: [Script; 9] = [
    (is_han, &["chi_sim", "chi_tra"]),
    (is_kana, &["jpn"]),
    (is_hangul, &["kor"]),
    (is_cyrillic, &["rus", "ukr"]),
    (is_arabic, &["ara"]),
    (is_devanagari, &["hin"]),
    (is_thai, &["tha"]),
    (is_greek, &["ell"]),
    (is_hebrew, &["heb"]),
];

/// The languages `asked` names, or for `auto` those [`guess`] finds in `tree`'s texts and
/// descriptions among `installed`.
pub fn chosen(asked: &OcrLanguages, installed: &[String], tree: &Tree) -> Vec<String> {
    match asked {
        OcrLanguages::Auto => guess(
            installed,
            tree.nodes
                .iter()
                .flat_map(|n| [n.text.as_str(), n.desc.as_str()]),
        ),
        OcrLanguages::Named(names) => names.clone(),
    }
}

/// `eng`, then each installed language whose script appears in `texts`, in the order of
/// [`SCRIPTS`].
pub fn guess<'a>(installed: &[String], texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen = [false; SCRIPTS.len()];
    for text in texts {
        for c in text.chars().filter(|c| !c.is_ascii()) {
            for (n, (is, _)) in SCRIPTS.iter().enumerate() {
                seen[n] |= is(c);
            }
        }
    }
    let mut languages = vec!["eng".to_owned()];
    for (_, names) in SCRIPTS
        .iter()
        .zip(seen)
        .filter(|(_, seen)| *seen)
        .map(|(s, _)| s)
    {
        if let Some(name) = names.iter().find(|n| installed.iter().any(|i| i == *n)) {
            languages.push((*name).to_owned());
        }
    }
    languages
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}')
}

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}')
}

fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{04FF}')
}

fn is_arabic(c: char) -> bool {
    matches!(c, '\u{0600}'..='\u{06FF}')
}

fn is_devanagari(c: char) -> bool {
    matches!(c, '\u{0900}'..='\u{097F}')
}

fn is_thai(c: char) -> bool {
    matches!(c, '\u{0E00}'..='\u{0E7F}')
}

fn is_greek(c: char) -> bool {
    matches!(c, '\u{0370}'..='\u{03FF}')
}

fn is_hebrew(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{05FF}')
}

#[cfg(test)]
mod tests {
    use super::guess;

    fn installed(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn the_dumps_scripts_choose_among_what_is_installed() {
        let all = installed(&["eng", "chi_sim", "chi_tra", "jpn", "rus"]);
        assert_eq!(guess(&all, ["Settings", "Wi-Fi"]), ["eng"]);
        assert_eq!(guess(&all, ["14:32", "新建闹钟"]), ["eng", "chi_sim"]);
        // Kanji are Han too: a Japanese screen reads with both.
        assert_eq!(guess(&all, ["設定", "ひらがな"]), ["eng", "chi_sim", "jpn"]);
        assert_eq!(guess(&all, ["Настройки"]), ["eng", "rus"]);
        // Only installed data is used: Hangul with no `kor` reads in English alone.
        assert_eq!(guess(&all, ["설정"]), ["eng"]);
        assert_eq!(
            guess(&installed(&["eng", "chi_tra"]), ["繁體"]),
            ["eng", "chi_tra"]
        );
        assert_eq!(guess(&all, std::iter::empty()), ["eng"]);
    }
}
