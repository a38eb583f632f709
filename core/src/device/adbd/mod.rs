//! The device side of ADB's transport protocol over TCP: what a phone's `adbd` speaks.
//!
//! The real `adb` server connects to [`serve`]'s listener (`adb connect 127.0.0.1:PORT`)
//! and runs `adb shell`, `adb exec-out`, `adb pull` and interactive shells against it as
//! against a phone. Every command goes to a [`Backend`], which decides what it prints;
//! nothing here runs anything on the host.
//!
//! What is spoken (AOSP's `protocol.txt`, `SERVICES.TXT`, `SYNC.TXT`):
//! - `message`, `command`: the 24-byte header, CNXN, OPEN, OKAY, WRTE, CLSE; no AUTH is
//!   ever asked.
//! - `stream`: one WRTE in flight per stream until the host's OKAY; host input bounded.
//! - `service`: `shell:`, `shell,v2,…:`, `exec:`, `sync:`, the sockets `tcp:PORT` and
//!   `localabstract:NAME`, `reverse:` and `root:`/`unroot:` (`reverse`: kept and listed
//!   per connection; root refused as on a production build); anything else is refused.
//! - `shell`, `session`, `line_editor` (and `device::shell_v2`): commands, shell protocol
//!   v2, interactive and piped sessions with a pty's echo, line editing and `\r\n`.
//! - `sync`: STAT, STA2, LST2, LIST, LIS2, RECV, SEND, QUIT; a push goes to the backend
//!   as it arrives ([`Backend::push`]; refused, read-only, by default), a listing comes
//!   from [`Backend::list`].
//! - `socket`: a host's connection to a socket the backend listens on
//!   ([`Backend::open_socket`]; refused with CLSE, nothing listening, by default).
//!
//! Bad input closes that one connection and is kept in [`Server::dropped`]; every other
//! connection keeps working. Connections, streams and buffered input are bounded by
//! [`Limits`].

mod banner;
mod command;
mod connection;
mod error;
mod limits;
mod line_editor;
mod message;
mod reverse;
mod server;
mod service;
mod session;
mod shell_stream;
mod socket;
mod stream;
mod sync;

pub use self::error::AdbdError;
pub use self::limits::Limits;
pub use self::server::{Dropped, Server, bind, serve, serve_with};

/// Who the device says it is in its CNXN banner
/// (`device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`).
///
/// `adb devices -l` shows them as `product:`, `model:` and `device:`; the interactive
/// prompt is `{device}:/ $ `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub product: String,
    pub model: String,
    pub device: String,
}

/// What the device behind the transport runs.
pub trait Backend: Send + Sync + 'static {
    fn identity(&self) -> Identity;
    /// Runs one command line as the device's shell would; writes output as it is
    /// produced; returns the exit status (0–255).
    ///
    /// Long-running commands (e.g. a streaming `uiautomator events`) return once
    /// `out.closed()` is true or a write fails.
    fn run(&self, command: &str, out: &mut dyn CommandOutput) -> u8;
    /// A file's bytes for the sync protocol (STAT/STA2/LST2, RECV): `None` when there is
    /// no such file.
    fn file(&self, path: &str) -> Option<Vec<u8>>;
    /// What STAT, STA2 and LST2 say of `path`: `None` when there is no such file. By
    /// default the file's size read through [`Backend::file`], mode `0o644`.
    fn stat(&self, path: &str) -> Option<FileStat> {
        self.file(path).map(|bytes| FileStat {
            kind: FileKind::Regular,
            mode: 0o644,
            size: bytes.len() as u64,
            mtime: None,
        })
    }
    /// What LIST and LIS2 list in the directory `dir`, `.` and `..` included; nothing for
    /// no such directory, as adbd answers. By default no directory has entries.
    fn list(&self, dir: &str) -> Vec<DirEntry> {
        let _ = dir;
        Vec::new()
    }
    /// Starts a push (sync SEND) of `path` with permission bits `mode`: where its bytes go
    /// as they arrive, or the reason it is refused, which the host shows (`adb: error:
    /// failed to copy …: REASON`). By default every push is refused: a read-only device.
    fn push(&self, path: &str, mode: u32) -> Result<Box<dyn PushedFile + '_>, String> {
        let _ = (path, mode);
        Err(READ_ONLY.into())
    }
    /// A connection to a socket on the device (OPEN `tcp:9008`), or `None` when nothing
    /// listens there, which the host is refused with CLSE. By default nothing listens.
    fn open_socket(&self, destination: &SocketName) -> Option<Box<dyn DeviceSocket + '_>> {
        let _ = destination;
        None
    }
}

/// Why a push is refused on a device that takes none.
pub const READ_ONLY: &str = "couldn't create file: Read-only file system";

/// A file as STAT and STA2 describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStat {
    pub kind: FileKind,
    /// Permission bits, `0o644`.
    pub mode: u32,
    pub size: u64,
    /// Seconds since the epoch; `None` says the sync session's start.
    pub mtime: Option<u64>,
}

/// The file types this device has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Regular,
    Directory,
}

/// One entry of a directory listing: its name in the directory, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub stat: FileStat,
}

/// A file being pushed: its bytes come as they arrive, then [`PushedFile::finish`] keeps
/// it. Dropped unfinished (the host left, a chunk was refused), nothing is kept.
pub trait PushedFile {
    /// More of the file; `Err` refuses the push with that reason (too big, no space).
    fn write(&mut self, bytes: &[u8]) -> Result<(), String>;
    /// The whole file arrived, last modified at `mtime` (seconds since the epoch).
    fn finish(self: Box<Self>, mtime: u64) -> Result<(), String>;
}

/// Where a socket service connects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SocketName {
    /// `tcp:PORT`: a TCP port on the device's loopback.
    Tcp(u16),
    /// `localabstract:NAME`: a Unix socket in the abstract namespace.
    LocalAbstract(String),
}

/// A socket on the device a host connected to (`tcp:9008`): bytes in, bytes out.
pub trait DeviceSocket: Send {
    /// The host sent `bytes`; what to send back now (perhaps nothing yet), and whether to
    /// close after it.
    fn received(&mut self, bytes: &[u8]) -> (Vec<u8>, bool);
}

/// Where a running command writes; see [`Backend::run`].
pub trait CommandOutput {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    /// The host closed the stream (CLSE), the connection is gone, or Ctrl-C was typed
    /// under a pty.
    fn closed(&self) -> bool;
    /// The next bytes the host sent the command (`cmd package install -S SIZE` reads the
    /// APK so), waiting for some; `None` once its input has ended. By default a command
    /// has no input.
    fn stdin(&mut self) -> Option<Vec<u8>> {
        None
    }
}
