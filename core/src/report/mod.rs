//! Size and recall statistics of one dump, raw against pruned — what `tapscope prune --stats` prints —
//! and where the pruned tree's tokens go.

mod breakdown;

use serde::{Serialize, Serializer};

use crate::model::{DumpFormat, Tree};
use crate::prune::Pruned;
use crate::recall::{self, LostNode};
use crate::render;
use crate::tokens::{Encoding, TokenCount};

pub use breakdown::{Breakdown, Tally};

/// The size of a raw dump in bytes and tokens of one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawSize {
    pub bytes: usize,
    pub tokens: TokenCount,
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

/// Raw vs pruned sizes, and the recall check's verdict. As JSON, token counts are numbers,
/// and `estimated` names those that are estimates, only when one is.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub format: DumpFormat,
    pub raw_bytes: usize,
    pub raw_tokens: TokenCount,
    pub pruned_bytes: usize,
    pub pruned_tokens: TokenCount,
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
        self.raw_tokens.tokens() as f64 / self.pruned_tokens.tokens().max(1) as f64
    }
}

/// `--stats`' JSON: the fields of [`Stats`] in order, counts as numbers.
#[derive(Serialize)]
struct StatsJson<'a> {
    format: DumpFormat,
    raw_bytes: usize,
    raw_tokens: usize,
    pruned_bytes: usize,
    pruned_tokens: usize,
    raw_nodes: usize,
    kept_nodes: usize,
    semantic_nodes: usize,
    lost_semantic_nodes: &'a [LostNode],
    encoding: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    estimated: Vec<&'static str>,
    fallback: bool,
}

impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let estimated = [
            ("raw_tokens", self.raw_tokens),
            ("pruned_tokens", self.pruned_tokens),
        ]
        .into_iter()
        .filter(|(_, count)| !count.is_exact())
        .map(|(name, _)| name)
        .collect();
        StatsJson {
            format: self.format,
            raw_bytes: self.raw_bytes,
            raw_tokens: self.raw_tokens.tokens(),
            pruned_bytes: self.pruned_bytes,
            pruned_tokens: self.pruned_tokens.tokens(),
            raw_nodes: self.raw_nodes,
            kept_nodes: self.kept_nodes,
            semantic_nodes: self.semantic_nodes,
            lost_semantic_nodes: &self.lost_semantic_nodes,
            encoding: self.encoding,
            estimated,
            fallback: self.fallback,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune};

    #[test]
    fn json_names_estimated_counts_only_when_there_are_some() {
        let xml = r#"<hierarchy><node text="Send" clickable="true" class="android.widget.Button" package="app" bounds="[0,0][200,100]"/></hierarchy>"#;
        let tree = parse_str(xml).unwrap();
        let mut stats = Stats::measure(
            xml,
            &tree,
            &prune(&tree, &PruneRules::default()),
            Encoding::O200k,
        );
        let json = serde_json::to_value(&stats).unwrap();
        assert!(json.get("estimated").is_none(), "{json}");
        assert_eq!(json["raw_tokens"], stats.raw_tokens.tokens());
        stats.raw_tokens = stats.raw_tokens.estimated();
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(json["estimated"], serde_json::json!(["raw_tokens"]));
        assert_eq!(json["raw_tokens"], stats.raw_tokens.tokens());
    }
}
