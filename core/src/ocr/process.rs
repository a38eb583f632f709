//! One run of a program with bytes on its stdin and a ceiling: stdin written and stdout
//! and stderr read on their own threads, so no full pipe blocks either side, while the
//! caller waits for the exit under the ceiling (`wait-timeout`); past it the process is
//! killed and reaped. The outputs are then taken from the readers in what is left of the
//! ceiling (a process the program started may still hold a pipe). Nothing sleeps or polls.

use std::io::{self, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// More output than this from one stream is refused (the TSV of a phone screen is a
/// few kilobytes; this is a runaway program).
pub(super) const MAX_OUTPUT: u64 = 32 << 20;

/// What a finished run left.
#[derive(Debug)]
pub(super) struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

#[derive(Debug)]
pub(super) enum RunError {
    /// The program could not be started.
    Spawn(io::Error),
    /// Still running at the ceiling: killed.
    TimedOut,
    /// A pipe or the wait failed, or a stream went over [`MAX_OUTPUT`].
    Io(io::Error),
}

enum Stream {
    Out,
    Err,
}

/// Runs `command` with `input` on its stdin; its stdout and stderr are piped to us.
pub(super) fn run(
    mut command: Command,
    input: Vec<u8>,
    ceiling: Duration,
) -> Result<Finished, RunError> {
    let started = Instant::now();
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(RunError::Spawn)?;
    let finished = finish(&mut child, input, started, ceiling);
    if finished.is_err() {
        // Errors here only mean it already exited (and was reaped).
        let _ = child.kill();
        let _ = child.wait();
    }
    finished
}

/// Feeds `input`, waits for the exit and gathers both outputs, or gives up at
/// `started + ceiling`.
fn finish(
    child: &mut Child,
    input: Vec<u8>,
    started: Instant,
    ceiling: Duration,
) -> Result<Finished, RunError> {
    if let Some(mut stdin) = child.stdin.take() {
        // A program that exits without reading all of it breaks the pipe: its exit
        // status and stderr say why, so the write's own error is not reported.
        thread::Builder::new()
            .name("ocr-stdin".into())
            .spawn(move || {
                let _ = stdin.write_all(&input);
            })
            .map_err(RunError::Io)?;
    }
    let (tx, rx) = mpsc::channel();
    let no_pipe = || RunError::Io(io::Error::other("a pipe was not made"));
    let stdout = child.stdout.take().ok_or_else(no_pipe)?;
    read_on_thread(stdout, Stream::Out, tx.clone())?;
    let stderr = child.stderr.take().ok_or_else(no_pipe)?;
    read_on_thread(stderr, Stream::Err, tx)?;
    let left = || ceiling.saturating_sub(started.elapsed());
    let status = child
        .wait_timeout(left())
        .map_err(RunError::Io)?
        .ok_or(RunError::TimedOut)?;
    let (mut out, mut err) = (None, None);
    while out.is_none() || err.is_none() {
        match rx.recv_timeout(left()) {
            Ok((Stream::Out, read)) => out = Some(read.map_err(RunError::Io)?),
            Ok((Stream::Err, read)) => err = Some(read.map_err(RunError::Io)?),
            Err(RecvTimeoutError::Timeout) => return Err(RunError::TimedOut),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(RunError::Io(io::Error::other("an output reader stopped")));
            }
        }
    }
    Ok(Finished {
        status,
        stdout: out.unwrap_or_default(),
        stderr: err.unwrap_or_default(),
    })
}

type Report = (Stream, io::Result<Vec<u8>>);

/// Reads `pipe` to its end on a thread of its own and sends what it read on `tx`: past
/// [`MAX_OUTPUT`] the rest is drained unkept (so the program is not blocked on a full
/// pipe) and an error is sent instead.
fn read_on_thread(
    pipe: impl Read + Send + 'static,
    stream: Stream,
    tx: Sender<Report>,
) -> Result<(), RunError> {
    thread::Builder::new()
        .name("ocr-output".into())
        .spawn(move || {
            let mut pipe = pipe;
            let mut bytes = Vec::new();
            let read = (&mut pipe)
                .take(MAX_OUTPUT + 1)
                .read_to_end(&mut bytes)
                .and_then(|n| {
                    if n as u64 > MAX_OUTPUT {
                        let _ = io::copy(&mut pipe, &mut io::sink());
                        Err(io::Error::other(format!(
                            "more than {} MiB of output",
                            MAX_OUTPUT >> 20
                        )))
                    } else {
                        Ok(bytes)
                    }
                });
            // The receiver is gone only when the run already ended.
            let _ = tx.send((stream, read));
        })
        .map(drop)
        .map_err(RunError::Io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn stdin_reaches_the_program_and_both_outputs_come_back() {
        let done = run(
            sh("cat; echo oops >&2; exit 3"),
            b"png".to_vec(),
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(done.stdout, b"png");
        assert_eq!(done.stderr, b"oops\n");
        assert_eq!(done.status.code(), Some(3));
    }

    #[test]
    fn output_larger_than_a_pipe_on_both_streams_does_not_block() {
        // 1 MiB on each stream, far over a pipe's 64 KiB, written before stdin is read.
        let script = "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; cat >/dev/null";
        let input = vec![7u8; 1 << 20];
        let done = run(sh(script), input, Duration::from_secs(10)).unwrap();
        assert_eq!(done.stdout.len(), 1 << 20);
        assert_eq!(done.stderr.len(), 1 << 20);
    }

    #[test]
    fn output_over_the_limit_is_refused_and_drained_so_the_program_ends() {
        let script = format!("head -c {} /dev/zero; echo done >&2", MAX_OUTPUT + 1);
        let outcome = run(sh(&script), Vec::new(), Duration::from_secs(30));
        match outcome {
            Err(RunError::Io(e)) => assert!(e.to_string().contains("32 MiB"), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_program_past_the_ceiling_is_killed_at_it() {
        let started = Instant::now();
        let outcome = run(sh("exec sleep 30"), Vec::new(), Duration::from_millis(200));
        assert!(matches!(outcome, Err(RunError::TimedOut)), "{outcome:?}");
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "took {took:?}");
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let outcome = run(
            Command::new("/nonexistent/tesseract"),
            Vec::new(),
            Duration::from_secs(1),
        );
        assert!(matches!(outcome, Err(RunError::Spawn(_))), "{outcome:?}");
    }
}
