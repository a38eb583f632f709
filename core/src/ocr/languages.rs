//! Which installed languages to read a screen in, guessed from the scripts its dump's own
//! texts are written in: a game draws its words, but the phone around it (status bar,
//! notifications, an overlay) still writes its language into the tree.

use crate::model::Tree;
use crate::prune::OcrLanguages;

/// Whether a character is of one script, the languages whose data read it (the first
/// installed one used), and a few of its characters, which a recognizer's dictionary must
/// hold to write it.
type Script = (fn(char) -> bool, &'static [&'static str], &'static str);

/// The scripts Tesseract has trained data for, other than Latin.
const SCRIPTS: [Script; 9] = [
    (is_han, &["chi_sim", "chi_tra"], "的是中國"),
    (is_kana, &["jpn"], "あのア"),
    (is_hangul, &["kor"], "한국어"),
    (is_cyrillic, &["rus", "ukr"], "двя"),
    (is_arabic, &["ara"], "بيت"),
    (is_devanagari, &["hin"], "कहि"),
    (is_thai, &["tha"], "การ"),
    (is_greek, &["ell"], "αβγ"),
    (is_hebrew, &["heb"], "אבג"),
];

/// Characters of the script `language` (Tesseract's name) is written in: Latin letters for
/// a language of no script in [`SCRIPTS`] (`eng`, `deu`, `spa`).
pub fn sample(language: &str) -> &'static str {
    SCRIPTS
        .iter()
        .find(|(_, names, _)| names.contains(&language))
        .map_or("Aaz", |(_, _, sample)| sample)
}

/// Each language of [`SCRIPTS`] whose script appears in `tree`'s texts and descriptions,
/// the first of its names, installed or not; `eng` first.
pub fn written_in(tree: &Tree) -> Vec<String> {
    let seen = scripts_in(
        tree.nodes
            .iter()
            .flat_map(|n| [n.text.as_str(), n.desc.as_str()]),
    );
    let mut languages = vec!["eng".to_owned()];
    languages.extend(
        SCRIPTS
            .iter()
            .zip(seen)
            .filter(|(_, seen)| *seen)
            .map(|((_, names, _), _)| names[0].to_owned()),
    );
    languages
}

/// Which of [`SCRIPTS`] appear in `texts`.
fn scripts_in<'a>(texts: impl IntoIterator<Item = &'a str>) -> [bool; SCRIPTS.len()] {
    let mut seen = [false; SCRIPTS.len()];
    for text in texts {
        for c in text.chars().filter(|c| !c.is_ascii()) {
            for (n, (is, _, _)) in SCRIPTS.iter().enumerate() {
                seen[n] |= is(c);
            }
        }
    }
    seen
}

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
    let seen = scripts_in(texts);
    let mut languages = vec!["eng".to_owned()];
    for (_, names, _) in SCRIPTS
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
    use super::{guess, sample, written_in};
    use crate::parse::parse_str;

    #[test]
    fn scripts_are_found_installed_or_not_and_sampled() {
        let tree = parse_str(
            r#"<hierarchy rotation="0"><node text="闹钟" bounds="[0,0][100,50]"/><node text="Настройки" bounds="[0,50][100,100]"/></hierarchy>"#,
        )
        .unwrap();
        assert_eq!(written_in(&tree), ["eng", "chi_sim", "rus"]);
        assert_eq!(sample("chi_tra"), "的是中國");
        assert_eq!(sample("kor"), "한국어");
        assert_eq!(sample("deu"), "Aaz");
    }

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
