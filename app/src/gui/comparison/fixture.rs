//! Small recordings written for the comparison's tests: each step a tap that leaves a
//! screen of one named button, or a refusal that leaves none.

use std::sync::Arc;

use tapscope_core::parse::parse_str;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::{
    Header, RecordingWriter, ScreenFiles, ScreenRef, Step, StepOutcome,
};
use tapscope_core::render::versioned;

use crate::gui::recording::Recording;

/// One step of a written recording.
#[derive(Clone, Copy, Debug)]
pub enum Made {
    /// A tap that left a screen with the button `name` (its resource id too).
    Ok(&'static str),
    /// A tap refused on the screen it would have left.
    Refused(&'static str),
}

/// A scratch folder for recordings side by side.
#[derive(Debug)]
pub struct Fixture {
    pub dir: tempfile::TempDir,
}

impl Fixture {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a scratch folder"),
        }
    }

    /// Writes recording `name` of `steps`, replaying `replay_of` when given, and opens it.
    pub fn write(&self, name: &str, replay_of: Option<&str>, steps: &[Made]) -> Arc<Recording> {
        let dir = self.dir.path().join(name);
        let mut header = Header::new("sim", "0.1.0", "o200k_base", 0);
        if let Some(original) = replay_of {
            header = header.replaying(original);
        }
        let mut writer = RecordingWriter::create(&dir, &header).expect("created");
        let mut before: Option<ScreenRef> = None;
        for made in steps {
            let (outcome, button) = match *made {
                Made::Ok(button) => (StepOutcome::Ok, button),
                Made::Refused(button) => (StepOutcome::Refused, button),
            };
            let after = (outcome == StepOutcome::Ok).then(|| screen(&mut writer, button));
            let step = Step {
                tool: "tap".into(),
                outcome,
                message: format!("{outcome:?}"),
                acted_on: Some(format!("\"Button {button}\" (i 1)")),
                settle: Some(serde_json::json!({
                    "floor_ms": 200, "idle_ms": 300, "polls": 4, "settled": true,
                    "total_ms": 500
                })),
                before: before.clone(),
                after: after.clone(),
                ..Step::default()
            };
            writer.append(&step).expect("appended");
            before = after.or(before);
        }
        Arc::new(Recording::read(&dir, None).expect("reads"))
    }

    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }
}

/// Stores the screen of one button called `name`, pruned as the agent reads it.
fn screen(writer: &mut RecordingWriter, name: &str) -> ScreenRef {
    let dump = format!(
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]"><node text="Button {name}" resource-id="app:id/{name}" class="android.widget.Button" clickable="true" package="app" bounds="[0,0][500,200]"/></node></hierarchy>"#
    );
    let tree = parse_str(&dump).expect("parses");
    let (pruned, text) = versioned(&tree, &PruneRules::default());
    let files = ScreenFiles {
        pixel_text: None,
        version: &pruned.version,
        dump: &dump,
        pruned: &text,
        screenshot: None,
        raw_tokens: 100,
        pruned_tokens: 10,
    };
    writer.store_screen(&files).expect("stored")
}
