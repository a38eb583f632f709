//! tapscope-core: parse Android accessibility dumps, prune them into a compact versioned
//! tree an LLM can read, and check that nothing an agent could act on was lost.
//!
//! ```
//! use tapscope_core::{parse, prune::{prune, PruneRules}, render};
//! let xml = r#"<hierarchy rotation="0">
//!   <node class="android.widget.FrameLayout" package="com.chat" bounds="[0,0][1080,2400]">
//!     <node text="Send" class="android.widget.Button" package="com.chat"
//!           clickable="true" bounds="[800,2200][1060,2380]"/>
//!   </node></hierarchy>"#;
//! let tree = parse::parse_str(xml).unwrap();
//! let pruned = prune(&tree, &PruneRules::default());
//! let text = render::yaml(&pruned);
//! // `[1]` is the button's handle, which says it can be tapped.
//! assert!(text.lines().any(|line| line == r#"[1] "Send""#));
//! assert!(tapscope_core::recall::check(&tree, &pruned).lost.is_empty());
//! ```
//!
//! # Features
//!
//! Parsing ([`parse`]), pruning ([`prune`]), rendering and versions ([`render`]), the
//! recall check ([`recall`]), handles ([`handle`], [`geometry`]) and settling
//! ([`stability`]) are always built: the default, for a library user who parses and
//! prunes. The rest is behind features:
//!
//! | feature | brings | dependencies |
//! |---|---|---|
//! | `tokens` | `tokens` (BPE token counts), `report` (`Stats`), `inspect` (the workbench's view of a dump, line and tree diffs) | `tiktoken-rs`, `similar` |
//! | `device` | `device` (the `Device` trait, phones over ADB, the on-device helpers' wire formats), `session` (the agent runtime) | `image`, `parking_lot` (locks a panic does not poison) |
//! | `sim` | `device::sim`, the simulated phone, and `device::adbd`, the ADB device side it is served on | `device`, `ab_glyph`, `epaint_default_fonts` (the sim's screenshots), `md-5` (the sim's `md5sum`, which uiautomator2 checks its jar with) |
//! | `recording` | `recording` (the recording format, reader, writer and screen store), `forensics` (stale-action review); with `tokens`, `reprune` (a whole recording re-pruned under new rules) | `libc` on Unix (its files opened without following a link or waiting on a FIFO) |
//! | `replay` | `replay`: how a replayed step compares with its recording (targets found again by identity, volatile text ignored, verdicts, JUnit XML) | `recording`, `tokens`, `regex` |
//! | `ocr` | `ocr`: text lines read from a screenshot by the `tesseract` command (found at run time, not linked), behind the `TextReader` trait with a stand-in (`Transcript`, and with `sim` the sim's `Sim::transcript`) | `image`, `imageproc` (preparing the screenshot), `wait-timeout` (the run's ceiling), `csv` (its TSV), `parking_lot` (the stand-in's transcript) |
//! | `ppocr` | `ocr::ppocr`: text found, then read, by PP-OCR's detector and recognizer (ONNX files the user installs, found at run time, never downloaded), and `ocr::Engines`' choice of it | `ocr`, `rten`, `rten-tensor`, `rayon` |
//! | `synthetic` | `session::synthetic`, long generated recordings for tests and benchmarks | `sim`, `recording`, `tokens` |
//! | `measure` | `device::sim::specimen` and `ocr::score`: the known-word specimens tapscope's own OCR tests, bench and example measure with; not a stable API | `sim`, `ocr`, `ppocr` |
//!
//! `sha2` is not optional: a snapshot's version is the SHA-256 of what the agent reads
//! ([`render::versioned`]), and a pruning user should print the same version a session
//! gives the same screen. With `default-features = false` the dependencies are `serde`,
//! `serde_json`, `toml`, `thiserror`, `memchr`, `bitflags`, `fastrand` and `sha2`.
//!
//! # Examples
//!
//! `examples/prune.rs` prunes a dump file (no feature needed); `examples/session.rs`
//! drives the simulated phone through a session and shows a stale handle refused
//! (`sim`); `examples/recording.rs` lists a recording's steps (`recording`).

// Layer 1: the tree model and its parsers, and the phone's log as logcat prints it.
pub mod error;
pub mod logcat;
pub mod model;
pub mod parse;
// Layer 2: pruning.
pub mod prune;
// Layer 3: rendering, tokens, the recall check that audits the rendering, and the
// workbench's view of a dump built from them.
#[cfg(feature = "tokens")]
pub mod inspect;
pub mod recall;
pub mod render;
#[cfg(feature = "tokens")]
pub mod report;
#[cfg(feature = "tokens")]
pub mod tokens;
// Layer 4: handles and actions.
pub mod geometry;
pub mod handle;
// Layer 5: settling.
pub mod stability;
// Layer 6: the recording format.
#[cfg(feature = "recording")]
pub mod forensics;
#[cfg(feature = "recording")]
pub mod recording;
#[cfg(feature = "replay")]
pub mod replay;
#[cfg(all(feature = "recording", feature = "tokens"))]
pub mod reprune;
// Layer 7: devices.
#[cfg(feature = "device")]
pub mod device;
#[cfg(feature = "ocr")]
pub mod ocr;
#[cfg(any(feature = "device", feature = "ocr"))]
mod png;
// Layer 8: the session runtime.
#[cfg(feature = "device")]
pub mod session;

pub use error::{Error, InputSize, Result};
pub use model::{DumpFormat, Flags, Node, NodeId, Rect, Size, Tree, Window, WindowKind};
