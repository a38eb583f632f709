//! Shell streams: the mode a shell stream is opened in ([`ShellMode`]), output framed as
//! the host expects it (raw, or shell protocol v2 packets; `\n` as `\r\n` under a pty),
//! stdin as the shell reads it, and one command run through the backend while the host's
//! input is watched for Ctrl-C.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io;

use super::stream::Stream;
use super::{Backend, CommandOutput};
use crate::device::shell_v2::{self, Decoder, HostEvent, PacketId};

/// How a shell stream is framed and whether it behaves like a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ShellMode {
    /// Shell protocol v2: packets for stdin, stdout, stderr and the exit status.
    pub(super) packets: bool,
    /// A pseudo-terminal: echo, line editing, `\n` written as `\r\n`, stderr into stdout.
    pub(super) pty: bool,
}

/// The exit status of a command stopped by Ctrl-C: 128 + SIGINT, as `sh` reports it.
pub(super) const INTERRUPTED: u8 = 130;
const CTRL_C: u8 = 0x03;
/// Input typed while a command runs is kept up to this much for the next prompt; past
/// it, flow control holds the host back.
const TYPED_AHEAD_LIMIT: usize = 64 * 1024;

/// What a shell stream sends.
pub(super) struct ShellOutput<'a> {
    stream: &'a Stream,
    mode: ShellMode,
}

impl<'a> ShellOutput<'a> {
    pub(super) fn new(stream: &'a Stream, mode: ShellMode) -> Self {
        Self { stream, mode }
    }

    pub(super) fn mode(&self) -> ShellMode {
        self.mode
    }

    pub(super) fn stdout(&self, bytes: &[u8]) -> io::Result<()> {
        self.send(PacketId::Stdout, &self.as_terminal(bytes))
    }

    /// Under a pty stderr is the same terminal as stdout; without shell protocol v2 the
    /// two cannot be told apart either.
    pub(super) fn stderr(&self, bytes: &[u8]) -> io::Result<()> {
        let id = if self.mode.pty {
            PacketId::Stdout
        } else {
            PacketId::Stderr
        };
        self.send(id, &self.as_terminal(bytes))
    }

    /// What a terminal echoes and prompts: sent as it is.
    pub(super) fn echo(&self, bytes: &[u8]) -> io::Result<()> {
        self.send(PacketId::Stdout, bytes)
    }

    /// The exit packet, under shell protocol v2; the stream's CLSE follows.
    pub(super) fn exit(&self, status: u8) -> io::Result<()> {
        if !self.mode.packets {
            return Ok(());
        }
        self.send(PacketId::Exit, &[status])
    }

    fn send(&self, id: PacketId, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if !self.mode.packets {
            return self.stream.write(bytes);
        }
        let mut framed = Vec::with_capacity(bytes.len() + shell_v2::HEADER_LEN);
        shell_v2::frame(id, bytes, &mut framed);
        self.stream.write(&framed)
    }

    fn as_terminal<'b>(&self, bytes: &'b [u8]) -> Cow<'b, [u8]> {
        if self.mode.pty {
            onlcr(bytes)
        } else {
            Cow::Borrowed(bytes)
        }
    }
}

/// A pty's output processing (`onlcr`): every `\n` goes out as `\r\n`.
fn onlcr(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'\n') {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    for byte in bytes {
        if *byte == b'\n' {
            out.push(b'\r');
        }
        out.push(*byte);
    }
    Cow::Owned(out)
}

/// Stdin as the shell reads it: the stream's bytes, or the stdin packets of shell
/// protocol v2 (where close-stdin ends it while output goes on).
pub(super) struct ShellInput<'a> {
    stream: &'a Stream,
    /// `None` without shell protocol v2.
    decoder: Option<Decoder>,
    ended: bool,
}

impl<'a> ShellInput<'a> {
    pub(super) fn new(stream: &'a Stream, mode: ShellMode) -> Self {
        Self {
            stream,
            decoder: mode.packets.then(Decoder::default),
            ended: false,
        }
    }

    /// The next bytes typed or piped: blocks for some when `block`, else may give none;
    /// `None` once stdin has ended.
    pub(super) fn next(&mut self, block: bool) -> Option<Vec<u8>> {
        loop {
            if self.ended {
                return None;
            }
            let Some(raw) = self.stream.take_input(block) else {
                self.ended = true;
                return None;
            };
            let Some(decoder) = &mut self.decoder else {
                return Some(raw);
            };
            let mut events = Vec::new();
            shell_v2::host_events(decoder, &raw, &mut events);
            let mut stdin = Vec::new();
            for event in events {
                match event {
                    HostEvent::Stdin(bytes) => stdin.extend_from_slice(&bytes),
                    HostEvent::CloseStdin => self.ended = true,
                }
            }
            if !stdin.is_empty() || !block {
                return Some(stdin);
            }
        }
    }
}

/// How a command run ended.
pub(super) struct Ran {
    pub(super) status: u8,
    pub(super) interrupted: bool,
    /// Input that came while it ran, when asked to keep it.
    pub(super) typed_ahead: Vec<u8>,
}

/// Runs `command` on the backend. Input arriving meanwhile is read whenever the command
/// writes or asks [`CommandOutput::closed`]: Ctrl-C under a pty interrupts it; the rest
/// is kept (bounded) for the command's own reads ([`CommandOutput::stdin`]), and what it
/// did not read for a session's next line (`keep_typed`).
pub(super) fn run_command<'s>(
    backend: &dyn Backend,
    command: &str,
    output: &ShellOutput<'s>,
    input: &mut ShellInput<'s>,
    keep_typed: bool,
) -> Ran {
    let mut running = Running {
        output,
        input: RefCell::new(input),
        typed_ahead: RefCell::new(Vec::new()),
        keep_typed,
        interrupted: Cell::new(false),
    };
    let status = backend.run(command, &mut running);
    let interrupted = running.interrupted.get();
    let typed_ahead = if running.keep_typed {
        running.typed_ahead.into_inner()
    } else {
        Vec::new()
    };
    Ran {
        status: if interrupted { INTERRUPTED } else { status },
        interrupted,
        typed_ahead,
    }
}

/// `shell:CMD`, `exec:CMD` and `shell,v2,…:CMD`: one command, its exit status under v2.
pub(super) fn serve_command(
    stream: &Stream,
    backend: &dyn Backend,
    mode: ShellMode,
    command: &str,
) {
    let output = ShellOutput::new(stream, mode);
    let mut input = ShellInput::new(stream, mode);
    let ran = run_command(backend, command, &output, &mut input, false);
    let _ = output.exit(ran.status);
}

struct Running<'o, 's, 'i> {
    output: &'o ShellOutput<'s>,
    input: RefCell<&'i mut ShellInput<'s>>,
    typed_ahead: RefCell<Vec<u8>>,
    keep_typed: bool,
    interrupted: Cell<bool>,
}

impl Running<'_, '_, '_> {
    fn poll_input(&self) {
        if self.interrupted.get() || self.typed_ahead.borrow().len() >= TYPED_AHEAD_LIMIT {
            return;
        }
        let Ok(mut input) = self.input.try_borrow_mut() else {
            return;
        };
        let Some(bytes) = input.next(false) else {
            return;
        };
        let mut kept = &bytes[..];
        if self.output.mode().pty
            && let Some(at) = bytes.iter().position(|b| *b == CTRL_C)
        {
            // A terminal's SIGINT also flushes what was typed after it.
            self.interrupted.set(true);
            kept = &bytes[..at];
        }
        self.typed_ahead.borrow_mut().extend_from_slice(kept);
    }

    fn check(&self) -> io::Result<()> {
        if self.interrupted.get() {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "interrupted by Ctrl-C",
            ));
        }
        Ok(())
    }
}

impl CommandOutput for Running<'_, '_, '_> {
    fn stdout(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.poll_input();
        self.check()?;
        self.output.stdout(bytes)
    }

    fn stderr(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.poll_input();
        self.check()?;
        self.output.stderr(bytes)
    }

    fn closed(&self) -> bool {
        self.poll_input();
        self.interrupted.get() || self.output.stream.is_closed()
    }

    fn stdin(&mut self) -> Option<Vec<u8>> {
        let kept = std::mem::take(&mut *self.typed_ahead.borrow_mut());
        if !kept.is_empty() {
            return Some(kept);
        }
        if self.interrupted.get() {
            return None;
        }
        self.input.get_mut().next(true)
    }
}

#[cfg(test)]
mod tests {
    use super::onlcr;

    #[test]
    fn a_pty_writes_every_newline_as_cr_lf() {
        assert_eq!(onlcr(b"a\nb\n"), &b"a\r\nb\r\n"[..]);
        // As a real pty: a `\r\n` already there gets a second `\r`.
        assert_eq!(onlcr(b"x\r\n"), &b"x\r\r\n"[..]);
        assert_eq!(onlcr(b"no newline"), &b"no newline"[..]);
    }
}
