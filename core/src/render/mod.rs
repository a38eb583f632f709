//! Renderers of a pruned snapshot: the pseudo-YAML an agent reads, and JSON of the same
//! tree; a snapshot's version, derived from what the agent reads of it; and text escaped
//! for XML (the sim's dumps, JUnit reports).

mod json;
mod parts;
mod xml;
mod yaml;

pub use crate::prune::{escape, quote};
pub use json::json;
pub use parts::{LineClass, Part, Parted};
pub use xml::xml_escape;
pub use yaml::{line_handle, node_line, parted, yaml};

use sha2::{Digest, Sha256};

use crate::model::{Flags, Tree};
use crate::prune::{PruneRules, Pruned, prune_with_version};

/// Prunes `tree` under the version its own content gives, and renders it: the same screen
/// keeps its version (and so its handles) however often it is looked at, and any change
/// an agent could read gives a new one.
pub fn versioned(tree: &Tree, rules: &PruneRules) -> (Pruned, String) {
    let mut pruned = prune_with_version(tree, rules, String::new());
    let body = yaml::body(&pruned);
    pruned.version = content_version(&body);
    let text = yaml::with_version(&pruned, &body);
    (pruned, text)
}

/// The version of a snapshot whose text below the version line is `body`: the first 12
/// hex digits of its SHA-256.
pub fn content_version(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
}

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

/// Every flag a line can print a word for: the actions and states, and `enabled` (as
/// `disabled` when false).
fn printed_flags() -> Flags {
    FLAG_WORDS
        .iter()
        .fold(Flags::ENABLED, |all, (flag, _, _)| all | *flag)
}

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
