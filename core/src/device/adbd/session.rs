//! Shell sessions, opened with no command: interactive under a pty (`adb shell` from a
//! terminal: prompt, echo, line editing) or piped (`echo ls | adb shell`: each line run
//! in turn until stdin closes). `exit [N]` or Ctrl-D ends either.

use std::collections::VecDeque;

use super::Backend;
use super::line_editor::{Edit, LineEditor};
use super::shell_stream::{INTERRUPTED, ShellInput, ShellMode, ShellOutput, run_command};
use super::stream::Stream;

/// Serves a session; under shell protocol v2 its exit status is the last command's, or
/// the one `exit` was given.
pub(super) fn serve(stream: &Stream, backend: &dyn Backend, mode: ShellMode) {
    let output = ShellOutput::new(stream, mode);
    let mut input = ShellInput::new(stream, mode);
    let device = backend.identity().device;
    let status = run(backend, &output, &mut input, &device);
    let _ = output.exit(status);
}

fn run<'s>(
    backend: &dyn Backend,
    output: &ShellOutput<'s>,
    input: &mut ShellInput<'s>,
    device: &str,
) -> u8 {
    let pty = output.mode().pty;
    let mut editor = LineEditor::new(pty);
    let mut pending: VecDeque<u8> = VecDeque::new();
    let mut status = 0;
    let mut prompt_due = pty;
    loop {
        if prompt_due {
            if output.echo(prompt(device, status).as_bytes()).is_err() {
                return status;
            }
            prompt_due = false;
        }
        if pending.is_empty() {
            match input.next(true) {
                Some(bytes) => pending.extend(bytes),
                None => {
                    // Piped input may end without a last newline; that line still runs.
                    if let Some(line) = editor.take_rest() {
                        return run_line(backend, output, input, &line, status).0;
                    }
                    return status;
                }
            }
        }
        let mut echo = Vec::new();
        let mut edit = None;
        while edit.is_none() {
            let Some(byte) = pending.pop_front() else {
                break;
            };
            edit = editor.push(byte, &mut echo);
        }
        if output.echo(&echo).is_err() {
            return status;
        }
        match edit {
            None => {}
            Some(Edit::EndOfInput) => return status,
            Some(Edit::Interrupt) => {
                status = INTERRUPTED;
                prompt_due = true;
            }
            Some(Edit::Line(line)) => {
                let (code, next) = run_line(backend, output, input, &line, status);
                status = code;
                match next {
                    Next::Exit => return status,
                    Next::Prompt(typed) => pending.extend(typed),
                }
                prompt_due = pty;
            }
        }
    }
}

enum Next {
    Exit,
    /// Carry on with what was typed while the command ran.
    Prompt(Vec<u8>),
}

/// Runs one line: `exit [N]` ends the session, a blank line does nothing, anything
/// else goes to the backend.
fn run_line<'s>(
    backend: &dyn Backend,
    output: &ShellOutput<'s>,
    input: &mut ShellInput<'s>,
    line: &str,
    last_status: u8,
) -> (u8, Next) {
    if let Some(code) = exit_request(line, last_status) {
        return (code, Next::Exit);
    }
    if line.trim().is_empty() {
        return (last_status, Next::Prompt(Vec::new()));
    }
    let ran = run_command(backend, line, output, input, true);
    if ran.interrupted {
        let _ = output.echo(b"^C\r\n");
    }
    (ran.status, Next::Prompt(ran.typed_ahead))
}

/// Android's prompt: the device name, the directory, and a nonzero last status first.
fn prompt(device: &str, status: u8) -> String {
    if status == 0 {
        format!("{device}:/ $ ")
    } else {
        format!("{status}|{device}:/ $ ")
    }
}

/// `exit` ends the session with the last status, `exit N` with N modulo 256; anything
/// else is not an exit.
fn exit_request(line: &str, last_status: u8) -> Option<u8> {
    let mut words = line.split_whitespace();
    if words.next() != Some("exit") {
        return None;
    }
    let code = match words.next() {
        None => last_status,
        Some(word) => word
            .parse::<i64>()
            .map_or(last_status, |n| n.rem_euclid(256) as u8),
    };
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_shows_a_failed_status_as_android_does() {
        assert_eq!(prompt("tapsim", 0), "tapsim:/ $ ");
        assert_eq!(prompt("tapsim", 130), "130|tapsim:/ $ ");
    }

    #[test]
    fn exit_takes_an_optional_status() {
        assert_eq!(exit_request("exit", 3), Some(3));
        assert_eq!(exit_request("  exit 7 ", 0), Some(7));
        assert_eq!(exit_request("exit 257", 0), Some(1));
        assert_eq!(exit_request("exit -1", 0), Some(255));
        assert_eq!(exit_request("exit x", 4), Some(4));
        assert_eq!(exit_request("exited", 0), None);
        assert_eq!(exit_request("echo exit", 0), None);
    }
}
