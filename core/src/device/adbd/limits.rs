//! The bounds a server holds its hosts to ([`Limits`]): connections, streams, payload
//! size, buffered input and timeouts.

use std::time::Duration;

/// Bounds on what hosts may hold; [`Limits::default`] suits the real `adb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once. At the limit, the oldest one still without its CNXN
    /// is closed to make room; when every one has connected, more are closed at once.
    pub max_connections: usize,
    /// Open streams per connection; more OPENs are refused with CLSE.
    pub max_streams: usize,
    /// The most data in one message either way, offered in CNXN (hosts offer 1 MiB);
    /// kept within 4 KiB–1 MiB, what hosts accept.
    pub max_payload: usize,
    /// Host input held per stream before our OKAY is kept back.
    pub max_input_buffered: usize,
    /// How long a write may wait for a host that does not read.
    pub write_timeout: Duration,
    /// How long a new connection has to send its CNXN.
    pub handshake_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: 32,
            max_streams: 64,
            max_payload: 256 * 1024,
            max_input_buffered: 64 * 1024,
            write_timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(10),
        }
    }
}
