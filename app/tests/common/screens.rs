//! A screen stored in a recording as tapscope stores one: the dump, and the pruned text
//! the agent would have read under `version`, with their token counts. For tests that
//! write recordings by hand (`#[path = "common/screens.rs"] mod screens;`).

use tapscope_core::parse::parse_str;
use tapscope_core::prune::{PruneRules, prune_with_version};
use tapscope_core::recording::{RecordingWriter, ScreenFiles, ScreenRef};
use tapscope_core::render;
use tapscope_core::tokens::Encoding;

/// Stores `dump` under `version` in `writer`'s recording.
pub fn store_screen(writer: &mut RecordingWriter, version: &str, dump: &str) -> ScreenRef {
    let tree = parse_str(dump).expect("the dump parses");
    let pruned = render::yaml(&prune_with_version(
        &tree,
        &PruneRules::default(),
        version.into(),
    ));
    let count =
        |text: &str| u32::try_from(Encoding::O200k.count(text).tokens()).unwrap_or(u32::MAX);
    let files = ScreenFiles {
        version,
        dump,
        pruned: &pruned,
        screenshot: None,
        pixel_text: None,
        raw_tokens: count(dump),
        pruned_tokens: count(&pruned),
    };
    writer.store_screen(&files).expect("the screen is stored")
}
