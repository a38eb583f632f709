//! Reads a recording and lists its steps: number, who acted, the tool, its outcome and
//! what it acted on. The default is the demo recording of this repository.
//!
//! ```sh
//! cargo run -p tapscope-core --example recording [-- DIR]
//! ```

use std::path::PathBuf;

use tapscope_core::recording::{self, RecordingError};

fn main() -> Result<(), RecordingError> {
    let dir = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../recordings/demo"),
        PathBuf::from,
    );
    let recording = recording::read(&dir)?;
    let header = &recording.header;
    println!(
        "{}: {} steps on {} (tapscope {})",
        dir.display(),
        recording.steps.len(),
        header.device,
        header.tapscope
    );
    for step in &recording.steps {
        let acted_on = step.acted_on.as_deref().unwrap_or("-");
        println!(
            "{:>4} {:?} {} {:?}: {acted_on}",
            step.step, step.actor, step.tool, step.outcome
        );
    }
    for problem in &recording.problems {
        println!("line {}: {:?}", problem.line, problem.kind);
    }
    Ok(())
}
