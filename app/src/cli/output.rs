//! The command line's own output, which never panics: standard output through one handle
//! whose failures are an [`OutputError`] (a reader that went away ends the command quietly,
//! anything else is reported once), messages to standard error that are dropped when
//! standard error itself cannot be written, and progress bars drawn on standard error only
//! when it is a terminal.

use std::fmt;
use std::io::{self, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

/// Standard output, locked for the whole command; `write!` and `writeln!` on it give
/// [`OutputError`]s.
pub(crate) struct Stdout(io::StdoutLock<'static>);

impl Stdout {
    pub(crate) fn lock() -> Self {
        Self(io::stdout().lock())
    }

    pub(crate) fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), OutputError> {
        self.0.write_fmt(args).map_err(OutputError::from)
    }

    /// Writes out what is still buffered; commands end with it, so a full disk is reported
    /// rather than lost when the process exits.
    pub(crate) fn flush(&mut self) -> Result<(), OutputError> {
        self.0.flush().map_err(OutputError::from)
    }
}

/// Standard output could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// The reader closed the pipe (`| head`): it wants no more, so the command ends with
    /// exit code 0 and no message.
    Closed,
    /// Anything else: a full disk (`> /dev/full`), a device error.
    Failed(io::Error),
}

impl From<io::Error> for OutputError {
    fn from(error: io::Error) -> Self {
        match error.kind() {
            io::ErrorKind::BrokenPipe => OutputError::Closed,
            _ => OutputError::Failed(error),
        }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Closed => f.write_str("standard output was closed"),
            OutputError::Failed(error) => write!(
                f,
                "cannot write the output ({error}): make room where standard output goes, or \
                 send it elsewhere"
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// Whether `error` is only that standard output's reader went away.
pub fn output_closed(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| matches!(cause.downcast_ref(), Some(OutputError::Closed)))
}

/// Writes `message` and a newline to standard error. A standard error that cannot be
/// written is ignored: there is nowhere left to say so.
pub fn note_line(message: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}

/// How a progress bar reads: `replaying demo [=====>    ] 12/25 (3s)`.
const PROGRESS: &str = "{msg} [{bar:32}] {human_pos}/{human_len} ({eta})";

/// A bar of `len` steps on standard error, headed by `message`: drawn when standard error
/// is a terminal, hidden otherwise (a pipe, a file, a test reads nothing of it). Cleared
/// when dropped; clear it with `finish_and_clear` before writing to the terminal, or write
/// with its `suspend`.
pub(crate) fn progress(len: usize, message: String) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(u64::try_from(len).unwrap_or(u64::MAX)),
        ProgressDrawTarget::stderr(),
    )
    // A command that fails part way says why on a line of its own.
    .with_finish(ProgressFinish::AndClear);
    let style = ProgressStyle::with_template(PROGRESS)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(message);
    bar
}

/// `eprintln!` that never panics: see [`note_line`].
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::output::note_line(format_args!($($arg)*))
    };
}
pub(crate) use note;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_reads_as_its_template_says() {
        assert!(ProgressStyle::with_template(PROGRESS).is_ok());
        let bar = progress(25, "replaying demo".to_owned());
        bar.set_position(12);
        assert_eq!(bar.length(), Some(25));
        assert_eq!(bar.message(), "replaying demo");
    }

    #[test]
    fn a_broken_pipe_is_a_closed_output_and_nothing_else_is() {
        let closed: OutputError = io::Error::from(io::ErrorKind::BrokenPipe).into();
        assert!(output_closed(
            &anyhow::Error::new(closed).context("writing")
        ));
        let full: OutputError = io::Error::from(io::ErrorKind::StorageFull).into();
        let full = anyhow::Error::new(full);
        assert!(!output_closed(&full));
        assert!(
            full.to_string().starts_with("cannot write the output ("),
            "{full}"
        );
    }
}
