//! Where a pruned tree's tokens go: its tokens by part (labels, handles, anchors, …) and by
//! kind of line, for the people tuning rules and the workbench's stats bar.

use serde::Serialize;

use crate::prune::Pruned;
use crate::render::{self, LineClass, Part, Parted};
use crate::tokens::Encoding;

/// How many tokens, and in how many pieces or lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub tokens: usize,
    pub count: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Self) {
        self.tokens += other.tokens;
        self.count += other.count;
    }
}

/// A pruned tree's tokens by part and by kind of line. Each piece is counted on its own, so
/// the parts add up to about the text's count (a token seldom spans two parts), not exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    parts: [Tally; Part::ALL.len()],
    lines: [Tally; LineClass::ALL.len()],
}

impl Breakdown {
    /// Renders `pruned` as the agent reads it and counts each part and line.
    pub fn measure(pruned: &Pruned, encoding: Encoding) -> Self {
        Self::of(&render::parted(pruned), encoding)
    }

    /// Counts each part and line of a snapshot already rendered with its parts.
    pub fn of(parted: &Parted, encoding: Encoding) -> Self {
        let mut breakdown = Self::default();
        for (part, range) in &parted.parts {
            breakdown.parts[*part as usize] += Tally {
                tokens: encoding.count(&parted.text[range.clone()]).tokens(),
                count: 1,
            };
        }
        for (class, range) in &parted.lines {
            breakdown.lines[*class as usize] += Tally {
                tokens: encoding.count(&parted.text[range.clone()]).tokens(),
                count: 1,
            };
        }
        breakdown
    }

    /// Adds another tree's tallies: the breakdown of a whole corpus.
    pub fn add(&mut self, other: &Breakdown) {
        for (mine, theirs) in self.parts.iter_mut().zip(&other.parts) {
            *mine += *theirs;
        }
        for (mine, theirs) in self.lines.iter_mut().zip(&other.lines) {
            *mine += *theirs;
        }
    }

    pub fn part(&self, part: Part) -> Tally {
        self.parts[part as usize]
    }

    pub fn line(&self, class: LineClass) -> Tally {
        self.lines[class as usize]
    }

    /// The parts' tokens added up.
    pub fn total(&self) -> usize {
        self.parts.iter().map(|t| t.tokens).sum()
    }

    /// Parts that hold tokens, the most first.
    pub fn parts(&self) -> Vec<(Part, Tally)> {
        largest_first(Part::ALL.iter().map(|&p| (p, self.part(p))))
    }

    /// Kinds of line that hold tokens, the most first.
    pub fn lines(&self) -> Vec<(LineClass, Tally)> {
        largest_first(LineClass::ALL.iter().map(|&c| (c, self.line(c))))
    }

    /// `share` of the parts' total, in per cent.
    pub fn percent(&self, tally: Tally) -> f64 {
        100.0 * tally.tokens as f64 / self.total().max(1) as f64
    }
}

fn largest_first<K>(tallies: impl Iterator<Item = (K, Tally)>) -> Vec<(K, Tally)> {
    let mut kept: Vec<_> = tallies.filter(|(_, t)| t.tokens > 0).collect();
    kept.sort_by_key(|(_, t)| std::cmp::Reverse(t.tokens));
    kept
}

/// As JSON: `{"parts": {"label": {"tokens": …, "count": …}, …}, "lines": {…}}`, largest first.
impl Serialize for Breakdown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeStruct};
        struct Named<K: Copy + 'static>(Vec<(K, Tally)>, fn(K) -> &'static str);
        impl<K: Copy> Serialize for Named<K> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (key, tally) in &self.0 {
                    map.serialize_entry((self.1)(*key), tally)?;
                }
                map.end()
            }
        }
        let mut out = serializer.serialize_struct("Breakdown", 2)?;
        out.serialize_field("parts", &Named(self.parts(), Part::name))?;
        out.serialize_field("lines", &Named(self.lines(), LineClass::name))?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune};

    const SCREEN: &str = r#"<hierarchy rotation="0"><node package="app" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]"><node text="Inbox" class="android.widget.TextView" package="app" bounds="[0,0][1080,200]"/><node text="Send" clickable="true" class="android.widget.Button" package="app" bounds="[0,2200][540,2400]"/><node content-desc="Search" clickable="true" class="android.widget.ImageButton" package="app" bounds="[540,2200][1080,2400]"/></node></hierarchy>"#;

    #[test]
    fn the_parts_cover_the_text_and_name_what_each_piece_says() {
        let tree = parse_str(SCREEN).unwrap();
        let pruned = prune(&tree, &PruneRules::default());
        let parted = render::parted(&pruned);
        assert_eq!(parted.text, render::yaml(&pruned));
        let mut end = 0;
        for (_, range) in &parted.parts {
            assert_eq!(range.start, end, "{:?}", parted.parts);
            end = range.end;
        }
        assert_eq!(end, parted.text.len());
        let said = |part: Part| -> Vec<&str> {
            parted
                .parts
                .iter()
                .filter(|(p, _)| *p == part)
                .map(|(_, r)| &parted.text[r.clone()])
                .collect()
        };
        assert_eq!(
            said(Part::Label),
            [r#""Inbox""#, r#" "Send""#, r#" "Search""#]
        );
        assert_eq!(said(Part::Handle), ["[1]", "[2]"]);
        let classes: Vec<LineClass> = parted.lines.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            classes.iter().filter(|c| **c == LineClass::Header).count(),
            3
        );
        assert_eq!(
            classes
                .iter()
                .filter(|c| **c == LineClass::Actionable)
                .count(),
            2
        );
        assert_eq!(classes.iter().filter(|c| **c == LineClass::Text).count(), 1);
    }

    #[test]
    fn tallies_add_up_and_come_largest_first() {
        let tree = parse_str(SCREEN).unwrap();
        let pruned = prune(&tree, &PruneRules::default());
        let one = Breakdown::measure(&pruned, Encoding::O200k);
        let text_tokens = Encoding::O200k.count(&render::yaml(&pruned)).tokens();
        // Counted piece by piece, the parts come close to the whole text's count.
        assert!(
            one.total().abs_diff(text_tokens) * 10 <= text_tokens,
            "{one:?} vs {text_tokens}"
        );
        assert_eq!(one.part(Part::Handle).count, 2);
        let parts = one.parts();
        assert!(parts.windows(2).all(|w| w[0].1.tokens >= w[1].1.tokens));
        let mut two = one.clone();
        two.add(&one);
        assert_eq!(two.total(), 2 * one.total());
        assert_eq!(two.line(LineClass::Actionable).count, 4);
        let json = serde_json::to_value(&one).unwrap();
        assert_eq!(json["parts"]["handle"]["count"], 2);
        assert_eq!(json["lines"]["text node"]["count"], 1);
    }
}
