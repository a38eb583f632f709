//! `tapscope replay`'s engine: a recorded session re-run on a fresh session of a device,
//! call by call over the device's MCP tools (in process), recorded as a new recording that
//! names the original, and judged step by step against it (see `tapscope_core::replay`).
//!
//! A recorded handle is turned into today's: its node is found again by identity on the
//! screen today's run showed in its place. A pixel action is sent as recorded. A step that
//! does not read the same is looked at again (a fresh look, not another call) up to
//! `retries` times; one that then reads the same is flaky. The replay stops at the first
//! divergence.

mod run;
pub mod scratch;

use std::path::PathBuf;

use tapscope_core::recording::Durability;
use tapscope_core::replay::{Ignore, SLOWER_FACTOR};

pub use run::replay;

/// How a replay runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// What is not compared.
    pub ignore: Ignore,
    /// Fresh looks at a step that did not read the same, before it counts.
    pub retries: u32,
    /// A settle this many times as long as recorded is flagged.
    pub slower_factor: f64,
    /// Where the replay is recorded, and how safely.
    pub record: PathBuf,
    pub durability: Durability,
    /// Name the original in the new recording's header (not for a baseline that will
    /// replace it).
    pub name_original: bool,
}

impl Options {
    /// Recording into `record` unsynced, the default patterns ignored, one retry, a settle
    /// twice as long flagged, the original named.
    pub fn recording_to(record: PathBuf) -> Self {
        Self {
            ignore: Ignore::default(),
            retries: 1,
            slower_factor: SLOWER_FACTOR,
            record,
            durability: Durability::None,
            name_original: true,
        }
    }
}
