//! Lines from a session's stdin. Under a pty, a terminal's line discipline: echo, Enter
//! as `\r` or `\n`, backspace, Ctrl-U, Ctrl-C, Ctrl-D, escape sequences (arrow keys)
//! dropped. Piped input is split on `\n` and nothing is echoed.

/// The longest line kept; a terminal rings its bell at more.
const MAX_LINE: usize = 16 * 1024;
const BELL: u8 = 0x07;
const ERASE: &[u8] = b"\x08 \x08";

/// What a byte of input completed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Edit {
    Line(String),
    /// Ctrl-C: the line so far is dropped.
    Interrupt,
    /// Ctrl-D on an empty line.
    EndOfInput,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Escape {
    #[default]
    None,
    /// ESC seen.
    Started,
    /// `ESC [`: parameters until a final byte.
    Csi,
    /// `ESC O`: one more byte.
    Ss3,
}

#[derive(Debug)]
pub(super) struct LineEditor {
    pty: bool,
    line: Vec<u8>,
    escape: Escape,
    /// The last byte was `\r`: a `\n` right after it ends no second line.
    after_cr: bool,
}

impl LineEditor {
    pub(super) fn new(pty: bool) -> Self {
        Self {
            pty,
            line: Vec::new(),
            escape: Escape::None,
            after_cr: false,
        }
    }

    /// Takes one byte of input; appends what a terminal would echo to `echo`.
    pub(super) fn push(&mut self, byte: u8, echo: &mut Vec<u8>) -> Option<Edit> {
        if self.pty {
            self.push_typed(byte, echo)
        } else {
            self.push_piped(byte)
        }
    }

    /// When input ends: the last piped line, if it had no `\n`. Typed text without Enter
    /// is not run, as on a terminal.
    pub(super) fn take_rest(&mut self) -> Option<String> {
        if self.pty || self.line.is_empty() {
            return None;
        }
        Some(self.take_line())
    }

    fn push_piped(&mut self, byte: u8) -> Option<Edit> {
        if byte == b'\n' {
            if self.line.last() == Some(&b'\r') {
                self.line.pop();
            }
            return Some(Edit::Line(self.take_line()));
        }
        if self.line.len() < MAX_LINE {
            self.line.push(byte);
        }
        None
    }

    fn push_typed(&mut self, byte: u8, echo: &mut Vec<u8>) -> Option<Edit> {
        let after_cr = std::mem::replace(&mut self.after_cr, false);
        match self.escape {
            Escape::None => {}
            Escape::Started => {
                self.escape = match byte {
                    b'[' => Escape::Csi,
                    b'O' => Escape::Ss3,
                    _ => Escape::None,
                };
                return None;
            }
            Escape::Csi => {
                if (0x40..=0x7e).contains(&byte) {
                    self.escape = Escape::None;
                }
                return None;
            }
            Escape::Ss3 => {
                self.escape = Escape::None;
                return None;
            }
        }
        match byte {
            0x1b => self.escape = Escape::Started,
            b'\n' if after_cr => {}
            b'\r' | b'\n' => {
                self.after_cr = byte == b'\r';
                echo.extend_from_slice(b"\r\n");
                return Some(Edit::Line(self.take_line()));
            }
            0x7f | 0x08 => self.erase(false, echo),
            // Ctrl-U.
            0x15 => self.erase(true, echo),
            0x03 => {
                self.line.clear();
                echo.extend_from_slice(b"^C\r\n");
                return Some(Edit::Interrupt);
            }
            0x04 if self.line.is_empty() => return Some(Edit::EndOfInput),
            b'\t' | 0x20.. => {
                if self.line.len() < MAX_LINE {
                    self.line.push(byte);
                    echo.push(byte);
                } else {
                    echo.push(BELL);
                }
            }
            // Other control characters do nothing.
            _ => {}
        }
        None
    }

    /// Erases the last character, or `whole_line`, on screen too.
    fn erase(&mut self, whole_line: bool, echo: &mut Vec<u8>) {
        while self.erase_char() {
            echo.extend_from_slice(ERASE);
            if !whole_line {
                return;
            }
        }
    }

    /// Drops the last character (all bytes of it in UTF-8); false on an empty line.
    fn erase_char(&mut self) -> bool {
        let Some(mut at) = self.line.len().checked_sub(1) else {
            return false;
        };
        while at > 0 && self.line[at] & 0xc0 == 0x80 {
            at -= 1;
        }
        self.line.truncate(at);
        true
    }

    fn take_line(&mut self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `input`; returns the edits made and everything echoed.
    fn feed(pty: bool, input: &[u8]) -> (Vec<Edit>, Vec<u8>) {
        let mut editor = LineEditor::new(pty);
        let mut echo = Vec::new();
        let edits = input
            .iter()
            .filter_map(|byte| editor.push(*byte, &mut echo))
            .collect();
        (edits, echo)
    }

    fn line(text: &str) -> Edit {
        Edit::Line(text.to_owned())
    }

    #[test]
    fn typed_text_is_echoed_and_enter_ends_the_line() {
        assert_eq!(
            feed(true, b"ls -l\r"),
            (vec![line("ls -l")], b"ls -l\r\n".to_vec())
        );
        // Enter as `\r\n` (or `\n` from a pipe into a pty) is still one line.
        assert_eq!(feed(true, b"a\r\nb\n").0, [line("a"), line("b")]);
        assert_eq!(feed(true, b"\r\r").0, [line(""), line("")]);
    }

    #[test]
    fn backspace_erases_one_character_even_a_multibyte_one() {
        let (edits, echo) = feed(true, b"lx\x7fs\r");
        assert_eq!(edits, [line("ls")]);
        assert_eq!(echo, b"lx\x08 \x08s\r\n");
        assert_eq!(feed(true, "é\x08e\r".as_bytes()).0, [line("e")]);
        // Nothing to erase: nothing echoed.
        assert_eq!(feed(true, b"\x7f\x7fa\r").1, b"a\r\n");
    }

    #[test]
    fn ctrl_u_erases_the_line_and_arrow_keys_are_dropped() {
        assert_eq!(
            feed(true, b"abc\x15d\r"),
            (
                vec![line("d")],
                b"abc\x08 \x08\x08 \x08\x08 \x08d\r\n".to_vec()
            )
        );
        assert_eq!(
            feed(true, b"\x1b[A\x1b[1;5Cl\x1bOBs\r"),
            (vec![line("ls")], b"ls\r\n".to_vec())
        );
    }

    #[test]
    fn ctrl_c_drops_the_line_and_ctrl_d_ends_only_an_empty_one() {
        assert_eq!(
            feed(true, b"rm x\x03"),
            (vec![Edit::Interrupt], b"rm x^C\r\n".to_vec())
        );
        assert_eq!(feed(true, b"\x04").0, [Edit::EndOfInput]);
        assert_eq!(feed(true, b"ab\x04\r").0, [line("ab")]);
    }

    #[test]
    fn a_line_longer_than_the_limit_rings_the_bell() {
        let mut input = vec![b'x'; MAX_LINE + 2];
        input.push(b'\r');
        let (edits, echo) = feed(true, &input);
        assert_eq!(edits, [line(&"x".repeat(MAX_LINE))]);
        assert!(echo.ends_with(&[BELL, BELL, b'\r', b'\n']));
    }

    #[test]
    fn piped_input_splits_on_newlines_without_echo() {
        let (edits, echo) = feed(false, b"echo a\r\necho \x03b\n\nlast");
        assert_eq!(edits, [line("echo a"), line("echo \x03b"), line("")]);
        assert!(echo.is_empty());
        let mut editor = LineEditor::new(false);
        for byte in b"no newline" {
            editor.push(*byte, &mut Vec::new());
        }
        assert_eq!(editor.take_rest().as_deref(), Some("no newline"));
        assert_eq!(editor.take_rest(), None);
        let mut typed = LineEditor::new(true);
        typed.push(b'x', &mut Vec::new());
        assert_eq!(typed.take_rest(), None);
    }
}
