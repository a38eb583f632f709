//! The ADB server's host protocol, spoken directly: where the server is, the device
//! list, and a command run with a deadline by shell protocol v2.

use std::io::{ErrorKind, Read};
use std::net::{Shutdown, SocketAddrV4, TcpStream};
use std::time::{Duration, Instant};

use super::text::server_address_from;
use crate::device::DeviceError;
use crate::device::adb_output::{DeviceEntry, parse_devices};
use crate::device::host_service::{Status, read_status, write_request};
pub(super) use crate::device::shell_v2::Output;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The ADB server address from adb's own environment variables (`ADB_SERVER_SOCKET`,
/// `ANDROID_ADB_SERVER_PORT`), else 127.0.0.1:5037.
pub fn server_address() -> Result<SocketAddrV4, DeviceError> {
    let socket = std::env::var("ADB_SERVER_SOCKET").ok();
    let port = std::env::var("ANDROID_ADB_SERVER_PORT").ok();
    server_address_from(socket.as_deref(), port.as_deref())
}

/// The devices the server knows, as `adb devices -l` lists them.
///
/// Never starts a server: a missing one is [`DeviceError::NoServer`].
pub fn list_devices(address: SocketAddrV4) -> Result<Vec<DeviceEntry>, DeviceError> {
    let no_server = || DeviceError::NoServer {
        address: address.to_string(),
    };
    let mut stream = open(address).map_err(|_| no_server())?;
    let lost =
        |e: std::io::Error| DeviceError::Disconnected(format!("ADB server at {address}: {e}"));
    request(&mut stream, "host:devices-l").map_err(lost)?;
    let body = read_hex_block(&mut stream).map_err(lost)?;
    Ok(parse_devices(&String::from_utf8_lossy(&body)))
}

pub(super) fn open(address: SocketAddrV4) -> std::io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&address.into(), CONNECT_TIMEOUT)?;
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    Ok(stream)
}

/// Sends one length-prefixed request and reads `OKAY`, or the reason after `FAIL` as a
/// [`Refused`] inside the error.
pub(super) fn request(stream: &mut TcpStream, service: &str) -> std::io::Result<()> {
    write_request(stream, service)?;
    match read_status(stream)?.0 {
        Status::Okay => Ok(()),
        Status::Fail(reason) => Err(std::io::Error::other(Refused(reason))),
    }
}

/// The server refused a request: the reason it gave after `FAIL`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct Refused(pub String);

/// The reason the server gave, when `error` is its refusal.
fn refusal(error: &std::io::Error) -> Option<&str> {
    let refused = error.get_ref()?.downcast_ref::<Refused>()?;
    Some(&refused.0)
}

/// The most a command's output may hold: a dump or a raw frame is far less.
const MAX_OUTPUT_BYTES: usize = 64 * 1024 * 1024;

/// How a command run with a deadline ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ran {
    Done(Output),
    /// Still running at the deadline: the stream was closed.
    TimedOut,
}

/// Runs `command` on `serial` without a terminal, reading until the device closes the
/// stream or `deadline` passes: by shell protocol v2 (output, errors and exit status
/// apart), or by `exec:` on devices that lack it.
///
/// Spoken over the host protocol directly, so each command has a deadline.
pub(super) fn run(
    address: SocketAddrV4,
    serial: &str,
    command: &str,
    deadline: Instant,
) -> std::io::Result<Ran> {
    match read_until(
        address,
        serial,
        &format!("shell,v2,raw:{command}"),
        deadline,
    ) {
        Ok(Some(bytes)) => Ok(Ran::Done(Output::of(&bytes))),
        Ok(None) => Ok(Ran::TimedOut),
        // A device without shell v2 closes the stream it does not know, and the server
        // says so as `FAIL` "closed".
        Err(e) if refusal(&e) == Some("closed") => Ok(
            match read_until(address, serial, &format!("exec:{command}"), deadline)? {
                Some(stdout) => Ran::Done(Output {
                    stdout,
                    ..Output::default()
                }),
                None => Ran::TimedOut,
            },
        ),
        Err(e) => Err(e),
    }
}

/// Opens `service` on `serial` and reads everything it sends; `None` at the deadline.
fn read_until(
    address: SocketAddrV4,
    serial: &str,
    service: &str,
    deadline: Instant,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut stream = open(address)?;
    request(&mut stream, &format!("host:transport:{serial}"))?;
    request(&mut stream, service)?;
    let mut output = Vec::new();
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let _ = stream.shutdown(Shutdown::Both);
            return Ok(None);
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut buffer) {
            Ok(0) => return Ok(Some(output)),
            Ok(n) if output.len() + n > MAX_OUTPUT_BYTES => {
                let _ = stream.shutdown(Shutdown::Both);
                return Err(std::io::Error::other(format!(
                    "the device sent more than {} MiB for `{service}`: \
                     read large files with `adb pull` instead",
                    MAX_OUTPUT_BYTES >> 20
                )));
            }
            Ok(n) => output.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => return Err(e),
        }
    }
}

fn read_hex_block(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    stream.read_exact(&mut len)?;
    let len = std::str::from_utf8(&len)
        .ok()
        .and_then(|hex| usize::from_str_radix(hex, 16).ok())
        .ok_or_else(|| std::io::Error::other("bad length from the ADB server"))?;
    let mut body = vec![0; len];
    stream.read_exact(&mut body)?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::{Ipv4Addr, TcpListener};

    use super::*;
    use crate::device::adb::AdbDevice;
    use crate::device::adb_output::DeviceState;

    /// A one-shot fake ADB server on loopback that answers `host:devices-l`.
    fn fake_server(reply: &'static str) -> SocketAddrV4 {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let std::net::SocketAddr::V4(address) = listener.local_addr().unwrap() else {
            panic!("bound to IPv4")
        };
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut len = [0u8; 4];
            stream.read_exact(&mut len).unwrap();
            let len = usize::from_str_radix(std::str::from_utf8(&len).unwrap(), 16).unwrap();
            let mut service = vec![0; len];
            stream.read_exact(&mut service).unwrap();
            assert_eq!(service, b"host:devices-l");
            let answer = format!("OKAY{:04x}{reply}", reply.len());
            stream.write_all(answer.as_bytes()).unwrap();
        });
        address
    }

    #[test]
    fn devices_come_from_the_host_protocol() {
        let address = fake_server(
            "emulator-5554          device product:sdk model:Pixel_7 device:emu transport_id:1\n\
             R58M12345AB            unauthorized usb:1-1 transport_id:2\n",
        );
        let devices = list_devices(address).unwrap();
        assert_eq!(devices.len(), 2);
        assert_eq!(devices[0].model.as_deref(), Some("Pixel_7"));
        assert_eq!(devices[1].state, DeviceState::Unauthorized);
    }

    #[test]
    fn unusable_device_is_refused_with_advice() {
        let address = fake_server("R58M12345AB\tunauthorized\n");
        let err = AdbDevice::connect_at(address, None).unwrap_err();
        assert!(matches!(err, DeviceError::Unusable { .. }), "{err}");
        assert!(err.to_string().contains("allow USB debugging"), "{err}");
    }

    #[test]
    fn no_server_names_the_address() {
        // Nothing listens on port 1 of loopback.
        let address = SocketAddrV4::new(Ipv4Addr::LOCALHOST, 1);
        let err = list_devices(address).unwrap_err();
        assert!(matches!(err, DeviceError::NoServer { .. }), "{err}");
        assert!(err.to_string().contains("127.0.0.1:1"), "{err}");
        assert!(err.to_string().contains("adb start-server"), "{err}");
    }

    /// A fake ADB server on loopback: each connection's requests are answered by `answer`
    /// (with what to send and whether to close after it), until it closes.
    fn scripted(answer: fn(&str) -> (Vec<u8>, bool)) -> SocketAddrV4 {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let std::net::SocketAddr::V4(address) = listener.local_addr().unwrap() else {
            panic!("bound to IPv4")
        };
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let mut stream = stream.unwrap();
                while let Ok(service) = crate::device::host_service::read_request(&mut stream) {
                    let (reply, close) = answer(&service);
                    if stream.write_all(&reply).is_err() || close {
                        break;
                    }
                }
            }
        });
        address
    }

    fn deadline() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[test]
    fn a_request_too_long_for_four_hex_digits_is_refused_unsent() {
        let mut wire = Vec::new();
        let err = write_request(&mut wire, &"x".repeat(0x1_0000)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.to_string().contains("65536 bytes"), "{err}");
        assert!(wire.is_empty());
    }

    #[test]
    fn a_device_without_shell_v2_is_run_by_exec() {
        let address = scripted(|service| match service {
            "host:transport:s" => (b"OKAY".to_vec(), false),
            "shell,v2,raw:echo hi" => (b"FAIL0006closed".to_vec(), true),
            "exec:echo hi" => (b"OKAYhi\n".to_vec(), true),
            other => panic!("unexpected {other}"),
        });
        let ran = run(address, "s", "echo hi", deadline()).unwrap();
        let Ran::Done(output) = ran else {
            panic!("timed out")
        };
        assert_eq!(output.stdout, b"hi\n");
    }

    #[test]
    fn another_refusal_is_reported_and_not_retried() {
        let address = scripted(|service| match service {
            "host:transport:s" => (b"OKAY".to_vec(), false),
            "shell,v2,raw:echo hi" => (b"FAIL000edevice offline".to_vec(), true),
            other => panic!("unexpected {other}"),
        });
        let err = run(address, "s", "echo hi", deadline()).unwrap_err();
        assert_eq!(refusal(&err), Some("device offline"), "{err}");
    }

    #[test]
    fn output_past_the_cap_is_refused_with_advice() {
        let address = scripted(|service| match service {
            "host:transport:s" => (b"OKAY".to_vec(), false),
            _ => {
                let mut reply = b"OKAY".to_vec();
                reply.resize(4 + MAX_OUTPUT_BYTES + 1, 0);
                (reply, true)
            }
        });
        let err = run(address, "s", "cat big", deadline()).unwrap_err();
        assert!(err.to_string().contains("more than 64 MiB"), "{err}");
        assert!(err.to_string().contains("adb pull"), "{err}");
    }
}
