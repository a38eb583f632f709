//! What can go wrong in the workbench — opening things, loading a recorded screen, finding
//! the recording a run replays, the live phone — kept typed until a banner or a pane shows
//! it.

use std::fmt;
use std::path::PathBuf;

use tapscope_core::device::DeviceError;
use tapscope_core::recording::RecordingError;
use tapscope_core::session::SessionError;
use thiserror::Error;

use crate::mcp::Failure;
use crate::mcp::http::BindError;

/// A dump, a folder of dumps or a recording that could not be opened.
#[derive(Debug, Error)]
pub enum OpenError {
    /// A dump's bytes are not a dump tapscope reads.
    #[error("{name}: {source}")]
    Dump {
        name: String,
        source: tapscope_core::Error,
    },
    /// A folder holds no dump, or none that could be read (each failure beside it).
    #[error("{}", no_dumps(dir, failed))]
    NoDumps {
        dir: PathBuf,
        failed: Vec<OpenError>,
    },
    /// A recording could not be read at all (another format or version, no log).
    #[error(transparent)]
    Recording(#[from] RecordingError),
    /// A recording whose log holds no step that could be read.
    #[error("{name} holds no readable step{}", lines(problems))]
    NoSteps { name: String, problems: Vec<String> },
}

fn no_dumps(dir: &std::path::Path, failed: &[OpenError]) -> String {
    if failed.is_empty() {
        return format!("{} holds no .xml or .json dump", dir.display());
    }
    format!(
        "{} holds no readable dump ({} failed){}",
        dir.display(),
        failed.len(),
        lines(failed)
    )
}

/// Each of `items` on a line of its own, after a newline.
fn lines(items: &[impl fmt::Display]) -> String {
    items.iter().map(|item| format!("\n{item}")).collect()
}

/// Why a screenshot could not be shown: its file could not be read, or its bytes are not
/// a PNG tapscope decodes.
#[derive(Debug, Error)]
pub enum ScreenshotError {
    #[error("{file} could not be read ({source})")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Recorded(RecordingError),
    #[error("{file} is not a readable PNG ({source})")]
    Decode {
        file: String,
        source: image::ImageError,
    },
}

/// Why a recorded screen could not be loaded: its dump could not be read, or is not a dump.
#[derive(Debug, Error)]
pub enum ScreenError {
    #[error(transparent)]
    Dump(RecordingError),
    #[error(transparent)]
    Parse(OpenError),
}

/// Why a run opened alone, without the recording it is compared with.
#[derive(Debug, Error)]
pub enum CompareError {
    /// The recording the run's header names (or `--against` names) is not where it looked.
    #[error(
        "{run} replays {named}, which is not a recording at {}; the run opens alone",
        paths(tried)
    )]
    NotFound {
        run: String,
        named: String,
        tried: Vec<PathBuf>,
    },
    /// The original is there but could not be opened.
    #[error("{run} opens alone: the recording it replays could not be opened ({source})")]
    Unreadable {
        run: String,
        #[source]
        source: Box<OpenError>,
    },
}

/// `a`, `a or b`, `a, b or c`.
fn paths(tried: &[PathBuf]) -> String {
    let shown: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    match shown.split_last() {
        None => "no path".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// What went wrong with the live phone, shown in the live panel.
#[derive(Debug, Error)]
pub enum LiveError {
    /// A device name that is neither a sim nor a serial (the message lists what is).
    #[error("{0}")]
    UnknownDevice(String),
    /// The device could not be opened.
    #[error(transparent)]
    Open(#[from] DeviceError),
    /// The session could not be recorded into the folder named.
    #[error(
        "not recording this session: {0}. Name another folder in \"Record to\" and connect \
         again."
    )]
    Record(RecordingError),
    /// The recording could not be read back for the timeline.
    #[error("the timeline could not read the recording: {0}")]
    Timeline(OpenError),
    /// The MCP server could not have its address.
    #[error("the MCP server: {0}")]
    Bind(#[from] BindError),
    /// The MCP server's runtime or thread could not start.
    #[error("the MCP server could not start: {0}")]
    Serve(std::io::Error),
    /// The phone did not answer an action, an observation or a screenshot.
    #[error(
        "the phone did not answer: {0}. Check that it is connected (`tapscope devices`), \
         then press Refresh, or disconnect and connect again."
    )]
    Phone(PhoneFailure),
}

/// What the phone failed to do.
#[derive(Debug, Error)]
pub enum PhoneFailure {
    #[error("{}", .0.message())]
    Call(Failure),
    #[error("no screenshot: {0}")]
    Screenshot(SessionError),
    #[error(transparent)]
    Screen(OpenError),
}
