//! Size and recall statistics of one dump, raw against pruned — what `tapscope prune --stats` prints.

use serde::Serialize;

use crate::model::{DumpFormat, Tree};
use crate::prune::Pruned;
use crate::recall::{self, LostNode};
use crate::render;
use crate::tokens::Encoding;

/// The size of a raw dump in bytes and tokens of one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawSize {
    pub bytes: usize,
    pub tokens: usize,
    pub encoding: Encoding,
}

impl RawSize {
    pub fn measure(raw: &str, encoding: Encoding) -> Self {
        Self {
            bytes: raw.len(),
            tokens: encoding.count(raw),
            encoding,
        }
    }
}

/// Raw vs pruned sizes, and the recall check's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub format: DumpFormat,
    pub raw_bytes: usize,
    pub raw_tokens: usize,
    pub pruned_bytes: usize,
    pub pruned_tokens: usize,
    pub raw_nodes: usize,
    /// Nodes printed on lines of their own.
    pub kept_nodes: usize,
    pub semantic_nodes: usize,
    pub lost_semantic_nodes: Vec<LostNode>,
    pub encoding: &'static str,
    pub fallback: bool,
}

impl Stats {
    /// Measures `raw` (the dump's text) against its pruned YAML.
    pub fn measure(raw: &str, tree: &Tree, pruned: &Pruned, encoding: Encoding) -> Self {
        let yaml = render::yaml(pruned);
        Self::of_rendered(RawSize::measure(raw, encoding), tree, pruned, &yaml)
    }

    /// Statistics of an already rendered `yaml`, with the raw side measured once beforehand
    /// (tokenizing a large raw dump is far slower than pruning it).
    pub fn of_rendered(raw: RawSize, tree: &Tree, pruned: &Pruned, yaml: &str) -> Self {
        let recall = recall::check(tree, pruned);
        Self {
            format: tree.format,
            raw_bytes: raw.bytes,
            raw_tokens: raw.tokens,
            pruned_bytes: yaml.len(),
            pruned_tokens: raw.encoding.count(yaml),
            raw_nodes: tree.nodes.len(),
            kept_nodes: pruned.nodes.len(),
            semantic_nodes: recall.semantic.len(),
            lost_semantic_nodes: recall.lost,
            encoding: raw.encoding.name(),
            fallback: pruned.fallback,
        }
    }

    /// Raw tokens per pruned token.
    pub fn reduction(&self) -> f64 {
        self.raw_tokens as f64 / self.pruned_tokens.max(1) as f64
    }
}
