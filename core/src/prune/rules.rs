//! `PruneRules`: every pruning rule's switch and parameters, read from and written to a TOML rules file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// How an on-screen keyboard window is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyboardMode {
    /// Every key is a node with its own `i` (nothing on screen is lost).
    #[default]
    Keys,
    /// Only `keyboard: open` in the header; type with text input instead of keys.
    Collapse,
}

/// All pruning rules; `Default` is what `assets/rules/default.toml` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PruneRules {
    /// Drop nodes with no text, description, action or kept id; their children move up.
    pub flatten_shells: bool,
    /// A clickable node whose only content is text absorbs that text into its own line.
    pub merge_clickable_text: bool,
    /// At most this many text nodes merge into one clickable line.
    pub max_merged_texts: usize,
    /// Print containers that have nothing but a readable resource id.
    pub keep_id_containers: bool,
    /// Print only true flags as bare words (`click`), and `disabled` for enabled=false.
    pub omit_false_flags: bool,
    /// Give every printed node an `i` and `pos:`, not only those an agent can act on.
    pub index_all: bool,
    /// Print `pos:`, the 3×3 cell of the node's visible centre.
    pub anchors: bool,
    /// Summarise off-viewport children of scrollables as `more: [N below: …]`.
    pub more_summaries: bool,
    /// How many first words of off-viewport items a `more:` line quotes, per direction.
    pub more_samples: usize,
    /// Words quoted from each off-viewport item.
    pub more_words: usize,
    /// Longer text is cut to this many characters and ends with `…`.
    pub max_text_chars: usize,
    /// Print `#id` (the resource id's name) for actionable nodes that have no text.
    pub ids: bool,
    /// Print the `version:` header line.
    pub version_header: bool,
    pub keyboard: KeyboardMode,
}

impl Default for PruneRules {
    fn default() -> Self {
        Self {
            flatten_shells: true,
            merge_clickable_text: true,
            max_merged_texts: 6,
            keep_id_containers: false,
            omit_false_flags: true,
            index_all: false,
            anchors: true,
            more_summaries: true,
            more_samples: 2,
            more_words: 4,
            max_text_chars: 100,
            ids: true,
            version_header: true,
            keyboard: KeyboardMode::Keys,
        }
    }
}

impl PruneRules {
    /// Every rule switched off: the tree as close to raw as the format allows.
    pub fn all_off() -> Self {
        Self {
            flatten_shells: false,
            merge_clickable_text: false,
            keep_id_containers: true,
            omit_false_flags: false,
            index_all: true,
            anchors: false,
            more_summaries: false,
            ids: true,
            version_header: true,
            ..Self::default()
        }
    }

    /// Reads a rules file; missing keys keep their defaults, unknown keys are an error.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.into(),
            source,
        })?;
        Self::from_toml(&text).map_err(|message| Error::Rules {
            path: path.into(),
            message,
        })
    }

    /// Parses rules from TOML text; the error names the offending key and line.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())
    }

    /// The rules as a TOML document, exactly what [`PruneRules::load`] reads back.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| unreachable!("PruneRules always serialises: {e}"))
    }

    /// Writes the rules file.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_toml()).map_err(|source| Error::Io {
            path: path.into(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_round_trip_keeps_every_rule() {
        let rules = PruneRules {
            anchors: false,
            max_text_chars: 7,
            keyboard: KeyboardMode::Collapse,
            ..PruneRules::default()
        };
        assert_eq!(PruneRules::from_toml(&rules.to_toml()).unwrap(), rules);
        assert_eq!(
            PruneRules::from_toml(&PruneRules::all_off().to_toml()).unwrap(),
            PruneRules::all_off()
        );
    }

    #[test]
    fn partial_files_keep_defaults_and_typos_are_named() {
        let rules = PruneRules::from_toml("anchors = false\n").unwrap();
        assert_eq!(
            rules,
            PruneRules {
                anchors: false,
                ..PruneRules::default()
            }
        );
        let err = PruneRules::from_toml("anchor = false\n").unwrap_err();
        assert!(err.contains("unknown field `anchor`"), "{err}");
        let err = PruneRules::from_toml("max_text_chars = \"ten\"\n").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
    }

    #[test]
    fn shipped_default_file_is_the_default() {
        let shipped = include_str!("../../../assets/rules/default.toml");
        assert_eq!(
            PruneRules::from_toml(shipped).unwrap(),
            PruneRules::default()
        );
    }
}
