//! logcat's filterspecs as liblog's `android_log_addFilterString` reads them: `TAG[:P]`
//! rules separated by spaces, tabs or commas, the latest rule for a tag first, `*` the
//! rule for every other tag. What the sim's shell filters with, and what tapscope asks a
//! phone's logcat for ([`super::LogRequest`]).

use super::Priority;

/// A rule's threshold: a line passes at or above it; silent passes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    From(Priority),
    Silent,
}

impl Level {
    fn passes(self, priority: Priority) -> bool {
        match self {
            Level::From(least) => priority >= least,
            Level::Silent => false,
        }
    }
}

/// A rule that is not `TAG[:P]` with P one of `V D I W E F S` (or liblog's digits).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a filter `TAG:P` (P one of V, D, I, W, E, F, S)")]
pub struct BadFilter(pub String);

/// A global level and per-tag levels, the latest rule first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filters {
    global: Level,
    tags: Vec<(String, Level)>,
}

impl Default for Filters {
    /// logcat's with no rule: everything passes.
    fn default() -> Self {
        Filters {
            global: Level::From(Priority::Verbose),
            tags: Vec::new(),
        }
    }
}

impl Filters {
    /// The default with `rules` added in order.
    pub fn of<S: AsRef<str>>(rules: &[S]) -> Result<Filters, BadFilter> {
        let mut filters = Filters::default();
        for rule in rules {
            filters.add_all(rule.as_ref())?;
        }
        Ok(filters)
    }

    pub fn passes(&self, tag: &str, priority: Priority) -> bool {
        let level = self
            .tags
            .iter()
            .find(|(t, _)| t.eq_ignore_ascii_case(tag))
            .map_or(self.global, |(_, level)| *level);
        level.passes(priority)
    }

    /// `-s`: every tag without a rule of its own is silent.
    pub fn silence(&mut self) {
        self.global = Level::Silent;
    }

    /// `TAG[:P]` (`android_log_addFilterRule`): `*` alone is the global rule, `D` when
    /// unsaid; a tag's is `V` when unsaid.
    pub fn add(&mut self, rule: &str) -> Result<(), BadFilter> {
        let bad = || BadFilter(rule.to_owned());
        let (tag, letter) = match rule.split_once(':') {
            Some((tag, rest)) => (tag, Some(rest.chars().next().ok_or_else(bad)?)),
            None => (rule, None),
        };
        if tag.is_empty() {
            return Err(bad());
        }
        // `None`: the default for the rule's kind.
        let level = match letter.map(|c| c.to_ascii_lowercase()) {
            None | Some('*' | '1') => None,
            Some(c) => Some(match c {
                'v' | '2' | '8'..='9' => Level::From(Priority::Verbose),
                'd' | '3' => Level::From(Priority::Debug),
                'i' | '4' => Level::From(Priority::Info),
                'w' | '5' => Level::From(Priority::Warn),
                'e' | '6' => Level::From(Priority::Error),
                'f' | '7' => Level::From(Priority::Fatal),
                's' => Level::Silent,
                _ => return Err(bad()),
            }),
        };
        if tag == "*" {
            self.global = level.unwrap_or(Level::From(Priority::Debug));
        } else {
            let level = level.unwrap_or(Level::From(Priority::Verbose));
            self.tags.insert(0, (tag.to_owned(), level));
        }
        Ok(())
    }

    /// Rules separated by spaces, tabs or commas (`android_log_addFilterString`).
    pub fn add_all(&mut self, rules: &str) -> Result<(), BadFilter> {
        rules
            .split([' ', '\t', ','])
            .filter(|r| !r.is_empty())
            .try_for_each(|rule| self.add(rule))
    }
}
