//! A read of a real screenshot scored against the dump taken with it: the dump's visible
//! text nodes are the truth ([`visible_texts`]), and [`score_against_dump`] counts how many
//! of them the read recalled and how many of its lines match none (junk).
//!
//! The rule is on [`score_against_dump`].

use std::path::{Path, PathBuf};

use crate::model::{Rect, Tree};
use crate::ocr::TextLine;
use crate::prune::{Fate, PruneRules, Visibility, prune};

/// The similarity from which two normalized texts count as the same.
pub const SIMILAR: f64 = 0.8;

/// The truth: the text nodes of `tree` (their `text`, trimmed, non-empty) that pruning
/// shows (fate printed or merged; not hidden, covered, off-screen or summarised), each with
/// its on-screen part (its bounds clipped to the display and to its scrolling ancestors),
/// in document order.
pub fn visible_texts(tree: &Tree) -> Vec<(String, Rect)> {
    visible(tree, |node| &node.text)
}

/// The content descriptions of the nodes [`visible_texts`] keeps: what the dump says a
/// picture or a row shows, often drawn as text (a chat's title, a time), so a line that
/// reads one is not junk, though they are not counted for recall.
pub fn visible_descriptions(tree: &Tree) -> Vec<(String, Rect)> {
    visible(tree, |node| &node.desc)
}

fn visible(tree: &Tree, said: impl Fn(&crate::model::Node) -> &String) -> Vec<(String, Rect)> {
    let pruned = prune(tree, &PruneRules::default());
    let visibility = Visibility::of(tree);
    tree.nodes
        .iter()
        .enumerate()
        .filter(|&(id, _)| {
            matches!(
                pruned.fates.get(id),
                Some(Fate::Printed { .. } | Fate::Merged { .. })
            )
        })
        .filter_map(|(id, node)| {
            let text = said(node).trim();
            let bounds = visibility.get(id).unwrap_or(node.bounds);
            (!text.is_empty()).then(|| (text.to_string(), bounds))
        })
        .collect()
}

/// Counts of one or more screenshots read against their dumps' texts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairScore {
    /// Truth texts (those with a letter or a digit).
    pub texts: usize,
    /// Truth texts recalled.
    pub recalled: usize,
    /// Lines read.
    pub lines: usize,
    /// Lines that match no truth text.
    pub junk: usize,
    /// The truth texts not recalled.
    pub missed: Vec<String>,
    /// The junk lines' text.
    pub junk_lines: Vec<String>,
}

impl PairScore {
    /// Recalled over truth texts; 1 without a truth text.
    pub fn recall(&self) -> f64 {
        if self.texts == 0 {
            1.0
        } else {
            self.recalled as f64 / self.texts as f64
        }
    }

    /// Junk over lines read; 0 without a line.
    pub fn junk_share(&self) -> f64 {
        if self.lines == 0 {
            0.0
        } else {
            self.junk as f64 / self.lines as f64
        }
    }

    /// Both scores' counts together.
    pub fn add(&mut self, other: &PairScore) {
        self.texts += other.texts;
        self.recalled += other.recalled;
        self.lines += other.lines;
        self.junk += other.junk;
        self.missed.extend_from_slice(&other.missed);
        self.junk_lines.extend_from_slice(&other.junk_lines);
    }
}

/// `lines` read from a screenshot scored against `truth`, its dump's [`visible_texts`], and
/// `described`, its [`visible_descriptions`] (bounds in the same pixels).
///
/// Texts are compared [`normalize`]d: lowercased, with everything but letters and digits
/// removed (whitespace, punctuation, symbols; Unicode-aware, so `新建 闹钟。` is `新建闹钟`).
/// Two normalized texts are *similar* when their [`similarity`], one minus their edit
/// distance over the longer one's length in characters, is at least [`SIMILAR`] (0.8).
///
/// - A truth text is **recalled** when its normalized form is a substring of the normalized
///   concatenation, in reading order (rows top to bottom, each left to right), of the lines
///   whose boxes overlap its bounds; or when one of those lines alone is similar to it;
///   or when one of them ends in an ellipsis (`...`, `…`: the screen cut the text the dump
///   has whole) and is similar to as much of the text's start. A truth text whose
///   normalized form is empty (all punctuation, such as a `:` span) is not counted.
/// - A line is **junk** when it matches no truth text nor description: its normalized text is neither a
///   substring of, nor similar to, the normalized text of a truth node its box overlaps
///   (or, when it overlaps none, of any truth text), nor of the concatenation in reading
///   order of the truth texts it overlaps (a line across a row the dump splits into spans).
///   A line whose normalized text is empty is junk.
///
/// Both are lenient where OCR and dumps disagree in form, not in content: case, spacing,
/// punctuation, a text wrapped over lines, a line that reads part of a long text. What a
/// screenshot shows that the dump has no node for (a status bar's clock in an Appium dump,
/// a window behind a scrim, text drawn in a picture) counts as junk: the figure is an
/// upper bound on what a read invents.
pub fn score_against_dump(
    truth: &[(String, Rect)],
    described: &[(String, Rect)],
    lines: &[TextLine],
) -> PairScore {
    let normalized = |texts: &'_ [(String, Rect)]| -> Vec<(String, String, Rect)> {
        texts
            .iter()
            .map(|(t, r)| (t.clone(), normalize(t), *r))
            .filter(|(_, n, _)| !n.is_empty())
            .collect()
    };
    let truth = normalized(truth);
    let shown: Vec<(String, String, Rect)> =
        truth.iter().cloned().chain(normalized(described)).collect();
    let read: Vec<(String, &TextLine)> = lines.iter().map(|l| (normalize(&l.text), l)).collect();
    let overlap = |a: &Rect, b: &Rect| !a.intersect(b).is_empty();
    let mut out = PairScore {
        texts: truth.len(),
        lines: lines.len(),
        ..PairScore::default()
    };
    for (text, norm, bounds) in &truth {
        let near: Vec<&(String, &TextLine)> = read
            .iter()
            .filter(|(_, l)| overlap(&l.bounds, bounds))
            .collect();
        let joined: String = reading_order(near.iter().map(|(n, l)| (n.as_str(), l.bounds)))
            .into_iter()
            .collect();
        let found = joined.contains(norm.as_str())
            || near.iter().any(|(n, _)| similarity(n, norm) >= SIMILAR)
            || near.iter().any(|(n, l)| is_cut(&l.text) && begins(norm, n));
        if found {
            out.recalled += 1;
        } else {
            out.missed.push(text.clone());
        }
    }
    for (norm, line) in &read {
        let matches = |t: &str| t.contains(norm.as_str()) || similarity(norm, t) >= SIMILAR;
        let under: Vec<(&str, Rect)> = shown
            .iter()
            .filter(|(_, _, r)| overlap(r, &line.bounds))
            .map(|(_, n, r)| (n.as_str(), *r))
            .collect();
        let matched = !norm.is_empty()
            && if under.is_empty() {
                shown.iter().any(|(_, n, _)| matches(n))
            } else {
                under.iter().any(|(n, _)| matches(n))
                    || matches(&reading_order(under.into_iter()).concat())
            };
        if !matched {
            out.junk += 1;
            out.junk_lines.push(line.text.clone());
        }
    }
    out
}

/// Whether a line read ends in an ellipsis.
fn is_cut(text: &str) -> bool {
    let text = text.trim_end();
    text.ends_with("...") || text.ends_with('…')
}

/// Whether `read` (normalized, not empty) is similar to as many characters of the start of
/// `text` (normalized).
fn begins(text: &str, read: &str) -> bool {
    let start: String = text.chars().take(read.chars().count()).collect();
    !read.is_empty() && similarity(read, &start) >= SIMILAR
}

/// Texts in reading order ([`crate::ocr::order`]).
fn reading_order<'a>(texts: impl Iterator<Item = (&'a str, Rect)>) -> Vec<&'a str> {
    crate::ocr::order::reading_order(texts.collect(), |(_, r)| *r)
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

/// `text` lowercased with every character but letters and digits removed (Unicode's
/// alphabetic and numeric classes, so Chinese characters stay): `"Wi-Fi & more"` →
/// `wifimore`.
pub fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One minus the edit distance (Levenshtein, in characters) of `a` and `b` over the longer
/// one's length: 1 for equal texts (and two empty ones), 0 for wholly different ones.
pub fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 1.0;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitute.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    1.0 - previous[b.len()] as f64 / longest as f64
}

/// A dump and the screenshot taken with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The files' shared stem.
    pub name: String,
    pub dump: PathBuf,
    /// `NAME.png`, or `NAME.jpg` / `NAME.jpeg` when there is no PNG.
    pub image: PathBuf,
    /// `NAME.words`, hand-labelled texts the dump lacks ([`super::words`]), when there.
    pub words: Option<PathBuf>,
}

/// Every `NAME.xml` in `dir` with a same-stem image beside it (and `NAME.words` when
/// there), by name.
pub fn pairs_in(dir: &Path) -> std::io::Result<Vec<Pair>> {
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let dump = entry?.path();
        if dump.extension().and_then(|e| e.to_str()) != Some("xml") {
            continue;
        }
        let Some(name) = dump.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let image = ["png", "jpg", "jpeg"]
            .iter()
            .map(|ext| dump.with_extension(ext))
            .find(|p| p.is_file());
        let words = Some(dump.with_extension("words")).filter(|p| p.is_file());
        if let Some(image) = image {
            pairs.push(Pair {
                name: name.to_string(),
                dump: dump.clone(),
                image,
                words,
            });
        }
    }
    pairs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;

    fn line(text: &str, bounds: Rect) -> TextLine {
        TextLine {
            text: text.into(),
            confidence: 90.0,
            bounds,
            words: Vec::new(),
        }
    }

    fn truth(items: &[(&str, Rect)]) -> Vec<(String, Rect)> {
        items.iter().map(|(t, r)| ((*t).to_string(), *r)).collect()
    }

    #[test]
    fn texts_are_compared_lowercased_without_spacing_or_punctuation() {
        assert_eq!(normalize(" Wi-Fi & more… "), "wifimore");
        assert_eq!(normalize("新建 闹钟。"), "新建闹钟");
        assert_eq!(normalize("— · —"), "");
        assert_eq!(similarity("kitten", "sitting"), 1.0 - 3.0 / 7.0);
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abc", ""), 0.0);
        assert_eq!(similarity("闹钟铃声", "闹钟铃芦"), 0.75);
    }

    #[test]
    fn a_text_is_recalled_across_wrapped_lines_or_by_one_close_line() {
        let truth = truth(&[
            ("Network & internet", Rect::new(0, 0, 600, 50)),
            ("Mobile, Wi-Fi, hotspot", Rect::new(0, 50, 600, 100)),
            ("Connected devices", Rect::new(0, 200, 600, 250)),
            ("Apps", Rect::new(0, 300, 600, 350)),
            ("Battery", Rect::new(0, 400, 600, 450)),
            ("Copy to clipboard", Rect::new(0, 500, 300, 550)),
            ("Home - YouTube", Rect::new(0, 600, 300, 650)),
            // Spans of one row, split by the dump.
            ("QQ", Rect::new(0, 700, 100, 750)),
            (":", Rect::new(100, 700, 110, 750)),
            ("Rain", Rect::new(110, 700, 300, 750)),
        ]);
        let lines = [
            // Wrapped into two lines, given bottom first: joined in reading order.
            line("internet", Rect::new(200, 8, 330, 40)),
            line("Network &", Rect::new(10, 10, 190, 42)),
            // Read with one letter of 17 wrong: similar.
            line("Mobile, Wi-Fi, hotspat", Rect::new(10, 55, 400, 90)),
            // Part of a text: the text is missed, the line is not junk.
            line("Connected", Rect::new(10, 205, 200, 240)),
            // The right text far from its node: missed here, not junk (it overlaps none).
            line("Apps", Rect::new(700, 900, 800, 950)),
            // Over a node whose text it does not match: junk, as is an empty one.
            line("Storage", Rect::new(10, 405, 200, 440)),
            line("|", Rect::new(500, 405, 510, 440)),
            // Cut by the screen: the start of the text, with an ellipsis, recalls it.
            line("Copy to clip...", Rect::new(10, 505, 250, 545)),
            // Without one, it is only part of it.
            line("Home YouT", Rect::new(10, 605, 250, 645)),
            // One line across the row's spans: not junk, and each span recalled.
            line("QQ: Rain", Rect::new(5, 705, 290, 745)),
        ];
        let s = score_against_dump(&truth, &[], &lines);
        // The `:` has nothing to read: not counted.
        assert_eq!((s.texts, s.recalled, s.lines, s.junk), (9, 5, 10, 2));
        assert_eq!(
            s.missed,
            ["Connected devices", "Apps", "Battery", "Home - YouTube"]
        );
        assert_eq!(s.junk_lines, ["Storage", "|"]);
        assert_eq!(s.recall(), 5.0 / 9.0);
        assert_eq!(s.junk_share(), 0.2);
    }

    #[test]
    fn chinese_is_compared_character_by_character() {
        let truth = truth(&[
            ("新建闹钟", Rect::new(0, 0, 400, 80)),
            ("闹钟铃声", Rect::new(0, 100, 400, 180)),
            ("响铃时长 5 分钟", Rect::new(0, 200, 400, 280)),
        ]);
        let lines = [
            // Tesseract's chi_sim spaces its characters.
            line("新 建 闹 钟", Rect::new(10, 10, 300, 70)),
            // One character of four wrong: 0.75, under the 0.8 of similar.
            line("闹 钟 铃 芦", Rect::new(10, 110, 300, 170)),
            // One of seven: similar.
            line("响铃时长 5 分种", Rect::new(10, 210, 300, 270)),
        ];
        let s = score_against_dump(&truth, &[], &lines);
        assert_eq!((s.recalled, s.junk), (2, 1));
        assert_eq!(s.missed, ["闹钟铃声"]);
        assert_eq!(s.junk_lines, ["闹 钟 铃 芦"]);
    }

    #[test]
    fn nothing_to_find_or_read_scores_clean_and_scores_add_up() {
        // A line that reads a description is not junk, and the description is not truth.
        let titled = score_against_dump(
            &truth(&[("OK", Rect::new(0, 0, 10, 10))]),
            &truth(&[("Yesterday 22:28", Rect::new(0, 20, 90, 30))]),
            &[line("Yesterday 22:28", Rect::new(0, 20, 90, 30))],
        );
        assert_eq!((titled.texts, titled.recalled, titled.junk), (1, 0, 0));
        let none = score_against_dump(&[], &[], &[]);
        assert_eq!((none.recall(), none.junk_share()), (1.0, 0.0));
        let mut total = PairScore::default();
        total.add(&score_against_dump(
            &truth(&[("OK", Rect::new(0, 0, 10, 10))]),
            &[],
            &[line("Cancel", Rect::new(0, 0, 10, 10))],
        ));
        total.add(&none);
        assert_eq!((total.texts, total.lines, total.junk), (1, 1, 1));
        assert_eq!((total.recall(), total.junk_share()), (0.0, 1.0));
        assert_eq!((total.missed.len(), total.junk_lines.len()), (1, 1));
    }

    #[test]
    fn the_truth_is_the_text_pruning_shows() {
        let node = |text: &str, bounds: &str, extra: &str| {
            format!(
                r#"<node index="0" text="{text}" resource-id="" class="android.widget.TextView" package="p" content-desc="" clickable="false" enabled="true" bounds="{bounds}" {extra}/>"#
            )
        };
        let xml = format!(
            r#"<?xml version="1.0"?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="p" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2400]">{}{}{}{}</node></hierarchy>"#,
            node(" Wi-Fi ", "[0,100][500,200]", ""),
            node("   ", "[0,200][500,300]", ""),
            node("Gone", "[0,300][500,400]", r#"visible-to-user="false""#),
            node("Half", "[900,400][1300,500]", ""),
        );
        let tree = parse_str(&xml).unwrap();
        assert_eq!(
            visible_texts(&tree),
            [
                ("Wi-Fi".to_string(), Rect::new(0, 100, 500, 200)),
                ("Half".to_string(), Rect::new(900, 400, 1080, 500)),
            ]
        );
    }

    #[test]
    fn pairs_are_dumps_with_a_same_stem_image() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "a.xml",
            "a.png",
            "b.xml",
            "b.jpg",
            "c.xml",
            "d.png",
            "b.words",
            "MANIFEST.tsv",
        ] {
            std::fs::write(dir.path().join(file), b"").unwrap();
        }
        let pairs = pairs_in(dir.path()).unwrap();
        let got: Vec<(&str, String)> = pairs
            .iter()
            .map(|p| {
                let image = p.image.file_name().unwrap().to_string_lossy().into_owned();
                (p.name.as_str(), image)
            })
            .collect();
        assert_eq!(
            got,
            [("a", "a.png".to_string()), ("b", "b.jpg".to_string())]
        );
        assert_eq!(pairs[0].words, None);
        assert_eq!(pairs[1].words, Some(dir.path().join("b.words")));
    }
}
