//! A bounded fuzzer that runs in `cargo test`: the project's own dumps (every fixture and
//! the shipped sample), mutated — bytes flipped, cut short, spliced with another dump,
//! nodes repeated, huge attributes, deep nesting, long runs of one character — then parsed,
//! pruned under two rule sets, rendered, audited and counted. Every input must give a
//! typed error or a result; none may panic.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use tapscope_core::inspect::{Inspection, RawView};
use tapscope_core::prune::{PruneRules, prune_with_version};
use tapscope_core::report::RawSize;
use tapscope_core::tokens::Encoding;
use tapscope_core::{parse, recall, render};

/// Every fixture and sample: the seeds.
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths: Vec<PathBuf> = ["tests/fixtures", "../assets/samples"]
            .iter()
            .flat_map(|dir| std::fs::read_dir(root.join(dir)).expect("seed folder"))
            .map(|entry| entry.expect("seed entry").path())
            .collect();
        paths.sort();
        let seeds: Vec<Vec<u8>> = paths
            .iter()
            .map(|path| std::fs::read(path).expect("seed readable"))
            .collect();
        assert!(seeds.len() >= 15, "seeds from {}", root.display());
        seeds
    })
}

/// One change to a dump's bytes; positions are taken modulo the length.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: usize,
        bit: u8,
    },
    CutAt {
        at: usize,
    },
    /// Bytes of seed `from` (`start`, `len`) put in at `at`.
    Splice {
        at: usize,
        from: usize,
        start: usize,
        len: usize,
    },
    /// The `which`-th `<node …/>` (or `{…}`) repeated `times` times after itself.
    RepeatNode {
        which: usize,
        times: usize,
    },
    /// `unit` repeated `times` put in at `at`: inside an attribute, between tags, anywhere.
    Run {
        at: usize,
        unit: &'static str,
        times: usize,
    },
    /// `unit` repeated `times` at the start of the `which`-th text (`text="` or `"text": "`).
    RunInText {
        which: usize,
        unit: &'static str,
        times: usize,
    },
    /// The dump wrapped `depth` levels deep (XML nodes or JSON objects).
    Nest {
        depth: usize,
    },
    Insert {
        at: usize,
        bytes: &'static [u8],
    },
}

/// Pieces that mean something to the parsers.
const SNIPPETS: [&[u8]; 12] = [
    b"<",
    b"\"",
    b"/>",
    b"</node>",
    b"&#x0;",
    b"&amp",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b" bounds=\"[0,0][2147483648,1]\"",
    b"{\"children\": [",
    b"]}",
    b"\x00",
];

const UNITS: [&str; 8] = [" ", "\t", "\n", "a", "7", "中", "😀", " \t"];

/// Mutations that keep a dump readable come three times as often as those that break it.
fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    let unit = prop::sample::select(&UNITS[..]);
    prop_oneof![
        1 => (at, 0..8u8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        1 => at.prop_map(|at| Mutation::CutAt { at }),
        1 => (at, any::<usize>(), any::<usize>(), 1..2000usize)
            .prop_map(|(at, from, start, len)| Mutation::Splice { at, from, start, len }),
        1 => (at, unit.clone(), 1..30_000usize)
            .prop_map(|(at, unit, times)| Mutation::Run { at, unit, times }),
        1 => (at, prop::sample::select(&SNIPPETS[..]))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        3 => (0..40usize, 1..300usize)
            .prop_map(|(which, times)| Mutation::RepeatNode { which, times }),
        3 => (0..20usize, unit, 1..30_000usize)
            .prop_map(|(which, unit, times)| Mutation::RunInText { which, unit, times }),
        3 => (1..1500usize).prop_map(|depth| Mutation::Nest { depth }),
    ]
}

fn insert(bytes: &mut Vec<u8>, at: usize, what: &[u8]) {
    let at = at % (bytes.len() + 1);
    bytes.splice(at..at, what.iter().copied());
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    match *mutation {
        Mutation::FlipBit { at, bit } => {
            if let Some(len) = std::num::NonZeroUsize::new(bytes.len()) {
                bytes[at % len] ^= 1 << bit;
            }
        }
        Mutation::CutAt { at } => bytes.truncate(at % (bytes.len() + 1)),
        Mutation::Splice {
            at,
            from,
            start,
            len,
        } => {
            let other = &seeds()[from % seeds().len()];
            let start = start % other.len();
            let end = (start + len).min(other.len());
            insert(bytes, at, &other[start..end]);
        }
        Mutation::RepeatNode { which, times } => {
            let xml = bytes.starts_with(b"<") || bytes.windows(5).any(|w| w == b"<node");
            let (open, close): (&[u8], &[u8]) = if xml { (b"<node", b"/>") } else { (b"{", b"}") };
            let starts: Vec<usize> = (0..bytes.len().saturating_sub(open.len()))
                .filter(|&i| bytes[i..].starts_with(open))
                .collect();
            let Some(&start) = starts.get(which % starts.len().max(1)) else {
                return;
            };
            let Some(end) = (start..bytes.len() - close.len() + 1)
                .find(|&i| bytes[i..].starts_with(close))
                .map(|i| i + close.len())
            else {
                return;
            };
            let node = bytes[start..end].to_vec();
            let separator: &[u8] = if xml { b"" } else { b"," };
            let repeated: Vec<u8> = (0..times)
                .flat_map(|_| separator.iter().chain(&node).copied())
                .collect();
            insert(bytes, end, &repeated);
        }
        Mutation::Run { at, unit, times } => insert(bytes, at, unit.repeat(times).as_bytes()),
        Mutation::RunInText { which, unit, times } => {
            let texts: Vec<usize> = (0..bytes.len())
                .filter_map(|i| {
                    [&b"text=\""[..], b"\"text\": \""]
                        .iter()
                        .find(|key| bytes[i..].starts_with(key))
                        .map(|key| i + key.len())
                })
                .collect();
            if let Some(&at) = texts.get(which % texts.len().max(1)) {
                insert(bytes, at, unit.repeat(times).as_bytes());
            }
        }
        Mutation::Nest { depth } => {
            let xml = bytes.trim_ascii_start().starts_with(b"<");
            let (open, close): (&[u8], &[u8]) = if xml {
                (b"<node bounds=\"[0,0][100,100]\">", b"</node>")
            } else {
                (b"{\"a\": ", b"}")
            };
            let mut nested = open.repeat(depth);
            nested.append(bytes);
            nested.extend(close.repeat(depth));
            *bytes = nested;
        }
        Mutation::Insert { at, bytes: what } => insert(bytes, at, what),
    }
}

/// Everything tapscope does with a dump; only a typed error may stop it, and says whether
/// one did.
fn run_everything(bytes: &[u8]) -> bool {
    let Ok(text) = parse::decode(bytes) else {
        return false;
    };
    let Ok(tree) = parse::parse_str(&text) else {
        return false;
    };
    for rules in [PruneRules::default(), PruneRules::all_off()] {
        let pruned = prune_with_version(&tree, &rules, "0123456789ab".into());
        let yaml = render::yaml(&pruned);
        render::json(&pruned);
        recall::check(&tree, &pruned);
        for i in 1..=pruned.handles.len() {
            assert!(pruned.resolve(i).is_some(), "handle {i} resolves");
        }
        Encoding::O200k.count(&yaml);
    }
    RawView::of(&tree, &text);
    let raw = RawSize::measure(&text, Encoding::O200k);
    Inspection::new(&tree, &PruneRules::default(), "0123456789ab", raw);
    true
}

/// 200 cases from a fixed seed, so every run tries the same inputs; set
/// `PROPTEST_RNG_SEED` (and `PROPTEST_CASES`) to explore others.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig {
        failure_persistence: None,
        cases: 200,
        ..ProptestConfig::default()
    };
    if let Some(cases) = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
    {
        config.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(0xf022_5eed);
    }
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_dumps_give_an_error_or_a_result(
        seed in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut bytes = seeds()[seed % seeds().len()].clone();
        for mutation in &mutations {
            apply(&mut bytes, mutation);
        }
        run_everything(&bytes);
    }
}

#[test]
fn every_seed_is_a_dump_tapscope_reads() {
    for seed in seeds() {
        assert!(
            run_everything(seed),
            "{}",
            String::from_utf8_lossy(&seed[..seed.len().min(80)])
        );
    }
}
