//! Token counts with a real BPE tokenizer (o200k_base or cl100k_base), loaded once per
//! process: exact on every real dump, fast and without a panic on any text, and marked as an
//! estimate where counting exactly would be too slow or is beyond the tokenizer.

pub mod image_cost;
mod run;
mod span;

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tiktoken_rs::CoreBPE;

use run::RunRanks;

/// Texts up to this size are counted in full (real dumps are under 4 MiB); longer ones are
/// estimated from 64 (`SAMPLES`) evenly spread parts that add up to this size.
pub const MAX_COUNTED_BYTES: usize = 4 << 20;

/// How many parts of a text over [`MAX_COUNTED_BYTES`] are counted.
const SAMPLES: usize = 64;
const SAMPLE_BYTES: usize = MAX_COUNTED_BYTES / SAMPLES;

/// How many tokens a text is: what the tokenizer counts, or an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenCount {
    /// Exactly what the tokenizer makes of the text.
    Exact(usize),
    /// An estimate: see [`Encoding::count`] for when a count is one.
    Estimate(usize),
}

impl TokenCount {
    pub fn tokens(self) -> usize {
        match self {
            TokenCount::Exact(n) | TokenCount::Estimate(n) => n,
        }
    }

    pub fn is_exact(self) -> bool {
        matches!(self, TokenCount::Exact(_))
    }

    /// The same number, as an estimate.
    pub fn estimated(self) -> Self {
        TokenCount::Estimate(self.tokens())
    }
}

/// The tokens of two texts: exact only if both counts are.
impl std::ops::Add for TokenCount {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        let sum = self.tokens() + other.tokens();
        if self.is_exact() && other.is_exact() {
            TokenCount::Exact(sum)
        } else {
            TokenCount::Estimate(sum)
        }
    }
}

/// The number, after `≈` when it is an estimate; widths and alignment apply to the whole.
impl fmt::Display for TokenCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenCount::Exact(n) => f.pad(&n.to_string()),
            TokenCount::Estimate(n) => f.pad(&format!("≈{n}")),
        }
    }
}

/// A tokenizer encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Encoding {
    /// GPT-4o family; the default.
    #[default]
    O200k,
    /// GPT-4 / GPT-3.5 family.
    Cl100k,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200k, Encoding::Cl100k];

    /// Counts the tokens of `text`; the first call per encoding loads its tables (~0.2 s).
    ///
    /// The count is [`TokenCount::Exact`] unless the text holds one of these, which no real
    /// dump does:
    /// - more than [`MAX_COUNTED_BYTES`]: estimated from evenly spread parts;
    /// - a whitespace run over 4 KiB (spaces and tabs mixed, newlines, no-break spaces):
    ///   counted in 4 KiB parts; one space, tab, vertical tab or form feed repeated, alone
    ///   or after newlines (but not those at the text's end), is counted exactly;
    /// - a run of one space, tab, vertical tab or form feed over 1 MiB: scaled from 1 MiB.
    ///
    /// Shorter runs of 256 or more of one space-like byte are counted exactly without the
    /// tokenizer's regex, which overflows its stack near a million spaces.
    pub fn count(self, text: &str) -> TokenCount {
        if text.len() <= MAX_COUNTED_BYTES {
            return span::count(self, text);
        }
        // Parts at even strides, the last ending at the text's end.
        let stride = (text.len() - SAMPLE_BYTES) / (SAMPLES - 1);
        let (mut tokens, mut bytes) = (0, 0);
        for k in 0..SAMPLES {
            let start = text.floor_char_boundary(k * stride);
            let end = text.floor_char_boundary(k * stride + SAMPLE_BYTES);
            tokens += span::count(self, &text[start..end]).tokens();
            bytes += end - start;
        }
        let scaled = tokens as f64 * text.len() as f64 / bytes.max(1) as f64;
        TokenCount::Estimate(scaled.round() as usize)
    }

    fn bpe(self) -> &'static CoreBPE {
        match self {
            Encoding::O200k => tiktoken_rs::o200k_base_singleton(),
            Encoding::Cl100k => tiktoken_rs::cl100k_base_singleton(),
        }
    }

    /// The tokens of `byte` (one of `run::RUN_BYTES`) repeated `length` times as one piece.
    fn run_tokens(self, byte: u8, length: usize) -> TokenCount {
        static O200K: OnceLock<RunRanks> = OnceLock::new();
        static CL100K: OnceLock<RunRanks> = OnceLock::new();
        let ranks = match self {
            Encoding::O200k => &O200K,
            Encoding::Cl100k => &CL100K,
        };
        match ranks
            .get_or_init(|| RunRanks::of(self.bpe()))
            .tokens(byte, length)
        {
            (tokens, true) => TokenCount::Exact(tokens),
            (tokens, false) => TokenCount::Estimate(tokens),
        }
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
    use super::{Encoding, MAX_COUNTED_BYTES, TokenCount};

    #[test]
    fn counts_real_bpe_tokens() {
        // Known counts: "hello world" is two tokens in both encodings.
        assert_eq!(Encoding::O200k.count("hello world"), TokenCount::Exact(2));
        assert_eq!(Encoding::Cl100k.count("hello world"), TokenCount::Exact(2));
        assert_eq!(Encoding::O200k.count(""), TokenCount::Exact(0));
        let xml = r#"<node index="0" text="" resource-id="" class="android.widget.FrameLayout"/>"#;
        assert!(Encoding::O200k.count(xml).tokens() > 15);
    }

    #[test]
    fn estimates_show_and_spread() {
        assert_eq!(TokenCount::Exact(12).to_string(), "12");
        assert_eq!(format!("{:>5}", TokenCount::Estimate(12)), "  ≈12");
        assert_eq!(
            TokenCount::Exact(2) + TokenCount::Exact(3),
            TokenCount::Exact(5)
        );
        assert_eq!(
            TokenCount::Exact(2) + TokenCount::Estimate(3),
            TokenCount::Estimate(5)
        );
    }

    #[test]
    fn a_text_over_the_counted_size_is_estimated_close_to_its_count() {
        let line =
            "<node text=\"Item\" class=\"android.widget.TextView\" bounds=\"[0,0][10,10]\"/>\n";
        let text = line.repeat(MAX_COUNTED_BYTES / line.len() + 1000);
        let exact = Encoding::O200k.count(line).tokens() * (MAX_COUNTED_BYTES / line.len() + 1000);
        let TokenCount::Estimate(estimate) = Encoding::O200k.count(&text) else {
            panic!("a text over {MAX_COUNTED_BYTES} bytes is estimated");
        };
        assert!(
            estimate.abs_diff(exact) * 100 < exact,
            "{estimate} vs {exact}"
        );
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
