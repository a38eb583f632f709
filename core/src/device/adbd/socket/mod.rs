//! A host's connection to a socket on the device (`tcp:9008`, `localabstract:NAME`): the
//! backend's [`DeviceSocket`] fed what the host writes, its answers written back with
//! ADB's flow control, until either side closes.

use super::stream::Stream;
use super::{Backend, DeviceSocket, SocketName};

/// Serves one socket stream: OKAY and the exchange while the backend listens on `name`,
/// else CLSE at once. The socket is dropped when the host closes the stream, or when it
/// asks to close (its CLSE follows its last answer).
pub(super) fn serve(stream: &Stream, backend: &dyn Backend, name: &SocketName) {
    let Some(socket) = backend.open_socket(name) else {
        stream.refuse();
        return;
    };
    if stream.accept().is_ok() {
        exchange(stream, socket);
    }
}

/// Host input in, answers out. Input is taken as it arrives (at most what
/// `Limits::max_input_buffered` lets the host send before our OKAY); each answer is
/// queued one WRTE at a time, so a host that stops reading holds the socket back.
fn exchange(stream: &Stream, mut socket: Box<dyn DeviceSocket + '_>) {
    while let Some(bytes) = stream.take_input(true) {
        let (answer, close) = socket.received(&bytes);
        if stream.write(&answer).is_err() || close {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
