//! Renderers of a pruned snapshot: the pseudo-YAML an agent reads, and JSON of the same tree.

mod json;
mod yaml;

pub use json::json;
pub use yaml::{escape, node_line, quote, yaml};

use crate::model::Flags;

/// Flag words in the order they are printed, with the flag each stands for.
const FLAG_WORDS: [(Flags, &str, &str); 7] = [
    (Flags::CLICKABLE, "click", "clickable"),
    (Flags::LONG_CLICKABLE, "long", "long-clickable"),
    (Flags::SCROLLABLE, "scroll", "scrollable"),
    (Flags::CHECKED, "checked", "checked"),
    (Flags::SELECTED, "selected", "selected"),
    (Flags::FOCUSED, "focused", "focused"),
    (Flags::PASSWORD, "password", "password"),
];

/// The bare words for the true flags (`click`, …), then `disabled` when not enabled.
pub fn flag_words(flags: Flags) -> impl Iterator<Item = &'static str> {
    FLAG_WORDS
        .iter()
        .filter(move |(flag, _, _)| flags.contains(*flag))
        .map(|(_, word, _)| *word)
        .chain((!flags.contains(Flags::ENABLED)).then_some("disabled"))
}

/// Every flag spelled out with its value, for the rule `omit_false_flags = false`.
fn all_flags(flags: Flags) -> impl Iterator<Item = String> {
    FLAG_WORDS
        .iter()
        .map(move |(flag, _, name)| format!("{name}={}", flags.contains(*flag)))
        .chain(std::iter::once(format!(
            "enabled={}",
            flags.contains(Flags::ENABLED)
        )))
}
