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
//! - `service`: `shell:`, `shell,v2,…:`, `exec:` and `sync:`; anything else is refused.
//! - `shell`, `session`, `line_editor` (and `device::shell_v2`): commands, shell protocol
//!   v2, interactive and piped sessions with a pty's echo, line editing and `\r\n`.
//! - `sync`: STAT, STA2, LST2, LIST, LIS2, RECV, QUIT; SEND refused (read-only).
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
mod server;
mod service;
mod session;
mod shell;
mod stream;
mod sync;

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

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
}

/// Where a running command writes; see [`Backend::run`].
pub trait CommandOutput {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()>;
    /// The host closed the stream (CLSE), the connection is gone, or Ctrl-C was typed
    /// under a pty.
    fn closed(&self) -> bool;
}

/// Locks a mutex; a thread that panicked while holding it left plain data behind, still
/// fit to use.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits on a condition variable, with the same tolerance of poisoning as [`lock`].
fn wait<'a, T>(signal: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    signal.wait(guard).unwrap_or_else(PoisonError::into_inner)
}
