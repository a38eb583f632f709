//! The transport's commands (CNXN, OPEN, OKAY, WRTE, CLSE, AUTH, STLS, SYNC): each one's
//! four ASCII letters and the little-endian code they make on the wire.

use std::fmt;

/// The transport's message types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Connect,
    Open,
    Okay,
    Write,
    Close,
    Auth,
    StartTls,
    Sync,
}

impl Command {
    pub(super) const ALL: [Command; 8] = [
        Command::Connect,
        Command::Open,
        Command::Okay,
        Command::Write,
        Command::Close,
        Command::Auth,
        Command::StartTls,
        Command::Sync,
    ];

    /// The four ASCII letters that are the command on the wire, little-endian.
    fn tag(self) -> &'static [u8; 4] {
        match self {
            Command::Connect => b"CNXN",
            Command::Open => b"OPEN",
            Command::Okay => b"OKAY",
            Command::Write => b"WRTE",
            Command::Close => b"CLSE",
            Command::Auth => b"AUTH",
            Command::StartTls => b"STLS",
            Command::Sync => b"SYNC",
        }
    }

    pub(super) fn code(self) -> u32 {
        u32::from_le_bytes(*self.tag())
    }

    pub(super) fn from_code(code: u32) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.code() == code)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.tag()))
    }
}
