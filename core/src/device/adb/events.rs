//! `uiautomator events` streamed on a thread of its own into the shared time of the
//! latest accessibility event.

use std::io::{BufRead, BufReader};
use std::net::{Shutdown, SocketAddrV4, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;

use super::server::{open, request};
use crate::device::adb_output::parse_event;
use crate::stability::{Clock, RealClock};

/// `uiautomator events` read on a thread of its own into the shared "last event" time.
/// Spoken over the raw server protocol so the socket can be shut down from here.
#[derive(Debug)]
pub(super) struct EventStream {
    socket: TcpStream,
    reader: JoinHandle<()>,
}

impl EventStream {
    pub(super) fn start(
        address: SocketAddrV4,
        serial: &str,
        clock: RealClock,
        last_event: Arc<AtomicU64>,
    ) -> std::io::Result<Self> {
        let mut socket = open(address)?;
        request(&mut socket, &format!("host:transport:{serial}"))?;
        request(&mut socket, "shell:uiautomator events")?;
        // Events may be minutes apart.
        socket.set_read_timeout(None)?;
        let stream = socket.try_clone()?;
        let reader = std::thread::Builder::new()
            .name(format!("adb events {serial}"))
            .spawn(move || {
                let mut reader = BufReader::new(stream);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    if parse_event(&String::from_utf8_lossy(&line)).is_some() {
                        let nanos = u64::try_from(clock.now().as_nanos()).unwrap_or(u64::MAX);
                        last_event.store(nanos.saturating_add(1), Ordering::SeqCst);
                    }
                }
            })?;
        Ok(Self { socket, reader })
    }

    pub(super) fn is_running(&self) -> bool {
        !self.reader.is_finished()
    }

    /// Closing the socket ends the reader and, on the device, the `uiautomator` process.
    pub(super) fn stop(self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }
}
