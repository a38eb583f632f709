//! What a replay does not compare: text that changes between two runs of the same build —
//! clock times, battery and other percentages, counters — masked on both screens before
//! they are matched, plus the patterns a user adds; and the crashes in the log a user
//! expects (`--ignore-log`), matched against each crash's sentence.

use regex::Regex;

use crate::prune::Pruned;

/// Each volatile pattern, with why it is ignored by default.
pub const DEFAULT_PATTERNS: &[(&str, &str)] = &[
    (
        r"\b\d{1,2}:\d{2}(:\d{2})?(\s?[AaPp]\.?[Mm]\.?)?",
        "clock times and durations (9:41, 12:05 PM, 45:10)",
    ),
    (r"\d{1,3}(\.\d+)?\s?%", "percentages (battery, progress)"),
    (
        r"\b\d[\d,.\u{a0}\u{202f}]*[KkMmBb]?\b",
        "counters and other numbers (1,204 views, 3.4K, 12)",
    ),
];

/// What stands for masked text.
const MASK: &str = "#";

/// The patterns a replay masks, and the log's crashes it lets pass.
#[derive(Clone, Debug)]
pub struct Ignore {
    patterns: Vec<Regex>,
    log: Vec<Regex>,
}

/// A pattern that is not a regular expression.
#[derive(Debug, thiserror::Error)]
#[error("{option} {pattern:?} is not a valid regular expression: {reason}")]
pub struct BadPattern {
    /// The option that gave it: `--ignore` or `--ignore-log`.
    pub option: &'static str,
    pub pattern: String,
    pub reason: String,
}

fn compiled(option: &'static str, pattern: &str) -> Result<Regex, BadPattern> {
    Regex::new(pattern).map_err(|error| BadPattern {
        option,
        pattern: pattern.to_owned(),
        reason: error.to_string(),
    })
}

impl Default for Ignore {
    /// The default patterns.
    fn default() -> Self {
        Self::new(true, &[]).unwrap_or_else(|_| Self::nothing())
    }
}

impl Ignore {
    /// `extra`, then the default patterns (when `defaults`): a user's pattern sees the
    /// text as it is.
    pub fn new(defaults: bool, extra: &[String]) -> Result<Self, BadPattern> {
        let builtin = DEFAULT_PATTERNS
            .iter()
            .filter(|_| defaults)
            .map(|(p, _)| *p);
        let patterns = extra
            .iter()
            .map(String::as_str)
            .chain(builtin)
            .map(|pattern| compiled("--ignore", pattern))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            patterns,
            log: Vec::new(),
        })
    }

    /// The same, letting pass the crashes whose sentence (`12-01 00:00:05.000 crash in
    /// com.example (pid 3101): java.lang.…`) matches one of `patterns`.
    pub fn with_log(mut self, patterns: &[String]) -> Result<Self, BadPattern> {
        for pattern in patterns {
            self.log.push(compiled("--ignore-log", pattern)?);
        }
        Ok(self)
    }

    /// Nothing is ignored.
    pub fn nothing() -> Self {
        Self {
            patterns: Vec::new(),
            log: Vec::new(),
        }
    }

    /// Whether a crash said as `said` is one the user expects.
    pub fn lets_crash_pass(&self, said: &str) -> bool {
        self.log.iter().any(|p| p.is_match(said))
    }

    /// `text` with every match masked.
    pub fn mask(&self, text: &str) -> String {
        let mut masked = text.to_owned();
        for pattern in &self.patterns {
            if pattern.is_match(&masked) {
                masked = pattern.replace_all(&masked, MASK).into_owned();
            }
        }
        masked
    }

    /// A copy of `pruned` whose labels, descriptions and hints are masked.
    pub fn masked(&self, pruned: &Pruned) -> Pruned {
        let mut copy = pruned.clone();
        if self.patterns.is_empty() {
            return copy;
        }
        for node in &mut copy.nodes {
            node.label = self.mask(&node.label);
            node.desc = self.mask(&node.desc);
            node.hint = self.mask(&node.hint);
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_batteries_and_counters_are_masked_and_words_are_not() {
        let ignore = Ignore::default();
        assert_eq!(ignore.mask("9:41"), "#");
        assert_eq!(ignore.mask("12:05 PM"), "#");
        assert_eq!(ignore.mask("Battery 85%"), "Battery #");
        assert_eq!(ignore.mask("1,204 views · 3.4K likes"), "# views · # likes");
        assert_eq!(ignore.mask("Live: 41213 watching"), "Live: # watching");
        assert_eq!(ignore.mask("Search videos"), "Search videos");
        assert_eq!(ignore.mask("Play"), "Play");
    }

    #[test]
    fn extra_patterns_add_to_the_defaults_or_replace_them() {
        let both = Ignore::new(true, &["Guest-\\w+".into()]).unwrap();
        assert_eq!(both.mask("Guest-ab12 at 9:41"), "# at #");
        let only = Ignore::new(false, &["Guest-\\w+".into()]).unwrap();
        assert_eq!(only.mask("Guest-ab12 at 9:41"), "# at 9:41");
        assert_eq!(Ignore::nothing().mask("9:41"), "9:41");
    }

    #[test]
    fn a_pattern_that_is_not_an_expression_is_named_with_the_reason() {
        let error = Ignore::new(true, &["(unclosed".into()]).unwrap_err();
        assert_eq!(error.pattern, "(unclosed");
        let log = Ignore::default().with_log(&["[".into()]).unwrap_err();
        assert!(log.to_string().starts_with("--ignore-log \"[\""), "{log}");
        let passing = Ignore::default()
            .with_log(&["NullPointerException".into()])
            .unwrap();
        assert!(passing.lets_crash_pass("crash in a (pid 1): java.lang.NullPointerException"));
        assert!(!passing.lets_crash_pass("ANR in a: Input dispatching timed out"));
        let said = error.to_string();
        assert!(
            said.contains("(unclosed") && said.contains("not a valid"),
            "{said}"
        );
    }
}
