//! What can go wrong opening things in the workbench, kept typed until a banner or a pane
//! shows it.

use std::fmt;
use std::path::PathBuf;

use tapscope_core::recording::RecordingError;

/// A dump, a folder of dumps or a recording that could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// A dump's bytes are not a dump tapscope reads.
    Dump {
        name: String,
        source: tapscope_core::Error,
    },
    /// A folder holds no dump, or none that could be read (each failure beside it).
    NoDumps {
        dir: PathBuf,
        failed: Vec<OpenError>,
    },
    /// A recording could not be read at all (another format or version, no log).
    Recording(RecordingError),
    /// A recording whose log holds no step that could be read.
    NoSteps { name: String, problems: Vec<String> },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dump { name, source } => write!(f, "{name}: {source}"),
            Self::NoDumps { dir, failed } if failed.is_empty() => {
                write!(f, "{} holds no .xml or .json dump", dir.display())
            }
            Self::NoDumps { dir, failed } => {
                write!(
                    f,
                    "{} holds no readable dump ({} failed)",
                    dir.display(),
                    failed.len()
                )?;
                failed.iter().try_for_each(|e| write!(f, "\n{e}"))
            }
            Self::Recording(e) => e.fmt(f),
            Self::NoSteps { name, problems } => {
                write!(f, "{name} holds no readable step")?;
                problems.iter().try_for_each(|p| write!(f, "\n{p}"))
            }
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Dump { source, .. } => Some(source),
            Self::Recording(e) => Some(e),
            Self::NoDumps { .. } | Self::NoSteps { .. } => None,
        }
    }
}

impl From<RecordingError> for OpenError {
    fn from(e: RecordingError) -> Self {
        Self::Recording(e)
    }
}

/// Why a screenshot could not be shown: its file could not be read, or its bytes are not
/// a PNG tapscope decodes.
#[derive(Debug)]
pub enum ScreenshotError {
    Read {
        file: String,
        source: std::io::Error,
    },
    Recorded(RecordingError),
    Decode {
        file: String,
        source: image::ImageError,
    },
}

impl fmt::Display for ScreenshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { file, source } => write!(f, "{file} could not be read ({source})"),
            Self::Recorded(e) => e.fmt(f),
            Self::Decode { file, source } => write!(f, "{file} is not a readable PNG ({source})"),
        }
    }
}

impl std::error::Error for ScreenshotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } => Some(source),
            Self::Recorded(e) => Some(e),
            Self::Decode { source, .. } => Some(source),
        }
    }
}

/// Why a recorded screen could not be loaded: its dump could not be read, or is not a dump.
#[derive(Debug)]
pub enum ScreenError {
    Dump(RecordingError),
    Parse(OpenError),
}

impl fmt::Display for ScreenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Dump(e) => e.fmt(f),
            Self::Parse(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ScreenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Dump(e) => Some(e),
            Self::Parse(e) => Some(e),
        }
    }
}
