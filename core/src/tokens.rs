//! Token counts with a real BPE tokenizer (o200k_base or cl100k_base), loaded once per process.

use serde::{Deserialize, Serialize};

/// A tokenizer encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// GPT-4o family; the default.
    #[default]
    O200k,
    /// GPT-4 / GPT-3.5 family.
    Cl100k,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200k, Encoding::Cl100k];

    /// Counts the tokens of `text`. The first call per encoding loads its tables (~0.2 s).
    pub fn count(self, text: &str) -> usize {
        let bpe = match self {
            Encoding::O200k => tiktoken_rs::o200k_base_singleton(),
            Encoding::Cl100k => tiktoken_rs::cl100k_base_singleton(),
        };
        bpe.count_ordinary(text)
    }

    /// The encoding's full name, as tiktoken spells it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200k => "o200k_base",
            Encoding::Cl100k => "cl100k_base",
        }
    }
}

impl std::str::FromStr for Encoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "o200k" | "o200k_base" => Ok(Encoding::O200k),
            "cl100k" | "cl100k_base" => Ok(Encoding::Cl100k),
            other => Err(format!("unknown encoding {other:?}: use o200k or cl100k")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Encoding;

    #[test]
    fn counts_real_bpe_tokens() {
        // Known counts: "hello world" is two tokens in both encodings.
        assert_eq!(Encoding::O200k.count("hello world"), 2);
        assert_eq!(Encoding::Cl100k.count("hello world"), 2);
        assert_eq!(Encoding::O200k.count(""), 0);
        let xml = r#"<node index="0" text="" resource-id="" class="android.widget.FrameLayout"/>"#;
        assert!(Encoding::O200k.count(xml) > 15);
    }

    #[test]
    fn parses_both_spellings() {
        assert_eq!("cl100k".parse::<Encoding>(), Ok(Encoding::Cl100k));
        assert_eq!("o200k_base".parse::<Encoding>(), Ok(Encoding::O200k));
        assert!(
            "gpt2"
                .parse::<Encoding>()
                .unwrap_err()
                .contains("o200k or cl100k")
        );
    }
}
