//! The requests an adb client sends an adb server on its host face (the smart-socket
//! protocol: 4 hex digits of length, then the request; `OKAY`, or `FAIL` and a
//! length-prefixed reason), read as adb's own server reads them (`adb/sockets.cpp`,
//! `adb/services.cpp`; SERVICES.TXT is out of date).
//!
//! ```
//! use tapscope_core::device::host_service::{Request, Select};
//! assert_eq!(
//!     Request::parse("host:tport:serial:127.0.0.1:5555"),
//!     Request::Transport { select: Select::Serial("127.0.0.1:5555"), says_id: true }
//! );
//! assert_eq!(
//!     Request::parse("host-serial:127.0.0.1:5555:get-state"),
//!     Request::ForDevice { select: Select::Serial("127.0.0.1:5555"), service: "get-state" }
//! );
//! ```

use std::io::{self, Read, Write};

/// The longest request the protocol can say (4 hex digits).
pub const MAX_REQUEST: usize = 0xffff;

/// Which device a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select<'a> {
    Serial(&'a str),
    /// `transport-id:N`, the number `adb devices -l` lists as `transport_id:N`.
    Id(u64),
    /// The only device.
    Any,
    /// The only USB device.
    Usb,
    /// The only emulator or network device.
    Local,
}

/// What a request asks of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// Switches the connection to a device (`host:transport…`, `host:tport:…`): after
    /// `OKAY` (and, when `says_id`, the transport's id as 8 bytes little-endian), the next
    /// request is a device service.
    Transport { select: Select<'a>, says_id: bool },
    /// A host service about one device: `host-serial:S:…`, `host-transport-id:N:…`,
    /// `host-usb:…`, `host-local:…` (e.g. `get-state`, `forward:…`).
    ForDevice {
        select: Select<'a>,
        service: &'a str,
    },
    /// Another host service: `host:version`, `host:devices-l`, `host:track-devices`,
    /// `host:features`, `host:connect:…`, `host:kill`, …
    Host(&'a str),
    /// A device service, once a transport is chosen: `shell:…`, `exec:…`, `sync:`, …
    Device(&'a str),
}

impl<'a> Request<'a> {
    pub fn parse(request: &'a str) -> Request<'a> {
        if let Some(rest) = request.strip_prefix("host:tport:") {
            if let Some(select) = tport_select(rest) {
                return Request::Transport {
                    select,
                    says_id: true,
                };
            }
        } else if let Some(rest) = request.strip_prefix("host:") {
            if let Some(select) = transport_select(rest) {
                return Request::Transport {
                    select,
                    says_id: false,
                };
            }
            return Request::Host(rest);
        } else if let Some(rest) = request.strip_prefix("host-serial:")
            && let Some(end) = serial_end(rest)
        {
            return Request::ForDevice {
                select: Select::Serial(&rest[..end]),
                service: &rest[end + 1..],
            };
        } else if let Some(rest) = request.strip_prefix("host-transport-id:")
            && let Some((id, service)) = rest.split_once(':')
            && let Ok(id) = id.parse()
        {
            return Request::ForDevice {
                select: Select::Id(id),
                service,
            };
        } else if let Some(service) = request.strip_prefix("host-usb:") {
            return Request::ForDevice {
                select: Select::Usb,
                service,
            };
        } else if let Some(service) = request.strip_prefix("host-local:") {
            return Request::ForDevice {
                select: Select::Local,
                service,
            };
        }
        Request::Device(request)
    }
}

/// A device service as a client opens it once a transport is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceService<'a> {
    /// `shell[,ARG…]:COMMAND`: by shell protocol v2 (`packets`) when an argument says
    /// `v2`; an empty command is an interactive session.
    Shell { command: &'a str, packets: bool },
    /// `exec:COMMAND`: the command's raw output, no terminal, no exit status.
    Exec(&'a str),
    /// `sync:`: file transfers.
    Sync,
    /// Anything else: `tcp:9008`, `localabstract:…`, `reverse:…`, `framebuffer:`, …
    Other(&'a str),
}

impl<'a> DeviceService<'a> {
    pub fn parse(service: &'a str) -> DeviceService<'a> {
        if service == "sync:" {
            return DeviceService::Sync;
        }
        if let Some(command) = service.strip_prefix("exec:") {
            return DeviceService::Exec(command);
        }
        if let Some(rest) = service.strip_prefix("shell")
            && let Some((arguments, command)) = rest.split_once(':')
            && (arguments.is_empty() || arguments.starts_with(','))
        {
            return DeviceService::Shell {
                command,
                packets: arguments.split(',').any(|a| a == "v2"),
            };
        }
        DeviceService::Other(service)
    }

    /// The command line it runs, if it runs one.
    pub fn command(&self) -> Option<&'a str> {
        match *self {
            DeviceService::Shell { command, .. } | DeviceService::Exec(command) => Some(command),
            DeviceService::Sync | DeviceService::Other(_) => None,
        }
    }
}

/// `transport:S`, `transport-id:N`, `transport-any`, `transport-usb`, `transport-local`.
fn transport_select(rest: &str) -> Option<Select<'_>> {
    Some(match rest {
        "transport-any" => Select::Any,
        "transport-usb" => Select::Usb,
        "transport-local" => Select::Local,
        _ => {
            if let Some(serial) = rest.strip_prefix("transport:") {
                Select::Serial(serial)
            } else {
                Select::Id(rest.strip_prefix("transport-id:")?.parse().ok()?)
            }
        }
    })
}

/// `serial:S`, `id:N`, `any`, `usb`, `local` after `host:tport:`.
fn tport_select(rest: &str) -> Option<Select<'_>> {
    Some(match rest {
        "any" => Select::Any,
        "usb" => Select::Usb,
        "local" => Select::Local,
        _ => {
            if let Some(serial) = rest.strip_prefix("serial:") {
                Select::Serial(serial)
            } else {
                Select::Id(rest.strip_prefix("id:")?.parse().ok()?)
            }
        }
    })
}

/// Where the serial ends in `host-serial:SERIAL:SERVICE`, as adb's `skip_host_serial`
/// finds it: serials may hold colons (`127.0.0.1:5555`, `[::1]:5555`, `usb:1-1`).
fn serial_end(rest: &str) -> Option<usize> {
    for prefix in ["usb:", "product:", "model:", "device:"] {
        if let Some(after) = rest.strip_prefix(prefix) {
            return after.find(':').map(|at| at + prefix.len());
        }
    }
    let skipped = if rest.starts_with("tcp:") || rest.starts_with("udp:") {
        4
    } else {
        0
    };
    let body = &rest[skipped..];
    let colon = if body.starts_with('[') {
        // An IPv6 address is bracketed; its port follows the bracket.
        let close = body.find(']')?;
        let after = &body[close + 1..];
        return match after.strip_prefix(':') {
            Some(port) => {
                let digits = port.bytes().take_while(u8::is_ascii_digit).count();
                let end = close + 2 + digits;
                (body.as_bytes().get(end) == Some(&b':')).then_some(skipped + end)
            }
            None => None,
        };
    } else {
        body.find(':')?
    };
    let digits = body[colon + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let end = if digits > 0 && body.as_bytes().get(colon + 1 + digits) == Some(&b':') {
        colon + 1 + digits
    } else {
        colon
    };
    Some(skipped + end)
}

/// Why a request could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("the client closed the connection")]
    Closed,
    #[error("bad request length {0:?}: a request starts with 4 hex digits")]
    BadLength(String),
    #[error("the request is not text")]
    NotText,
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Reads one request: its 4 hex digits of length, then the request.
pub fn read_request(input: &mut impl Read) -> Result<String, RequestError> {
    let mut length = [0u8; 4];
    match input.read_exact(&mut length) {
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Err(RequestError::Closed),
        other => other?,
    }
    let length = hex_length(&length)
        .ok_or_else(|| RequestError::BadLength(String::from_utf8_lossy(&length).into_owned()))?;
    let mut request = vec![0; length];
    input.read_exact(&mut request)?;
    String::from_utf8(request).map_err(|_| RequestError::NotText)
}

fn hex_length(digits: &[u8; 4]) -> Option<usize> {
    let text = std::str::from_utf8(digits).ok()?;
    text.bytes()
        .all(|b| b.is_ascii_hexdigit())
        .then(|| usize::from_str_radix(text, 16).ok())?
}

/// Writes `request` with its length.
pub fn write_request(output: &mut impl Write, request: &str) -> io::Result<()> {
    if request.len() > MAX_REQUEST {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a request of {} bytes is longer than the adb protocol's {MAX_REQUEST}",
                request.len()
            ),
        ));
    }
    output.write_all(format!("{:04x}{request}", request.len()).as_bytes())
}

/// A server's answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Okay,
    /// `FAIL` and the reason the server gave.
    Fail(String),
}

/// Reads `OKAY`, or `FAIL` and its reason, returning the bytes read as they came.
pub fn read_status(input: &mut impl Read) -> io::Result<(Status, Vec<u8>)> {
    let mut word = [0u8; 4];
    input.read_exact(&mut word)?;
    match &word {
        b"OKAY" => Ok((Status::Okay, word.to_vec())),
        b"FAIL" => {
            let mut length = [0u8; 4];
            input.read_exact(&mut length)?;
            let size = hex_length(&length)
                .ok_or_else(|| io::Error::other("bad FAIL length from the adb server"))?;
            let mut reason = vec![0; size];
            input.read_exact(&mut reason)?;
            let mut raw = word.to_vec();
            raw.extend_from_slice(&length);
            raw.extend_from_slice(&reason);
            Ok((
                Status::Fail(String::from_utf8_lossy(&reason).into_owned()),
                raw,
            ))
        }
        other => Err(io::Error::other(format!(
            "unexpected answer {:?} from the adb server",
            String::from_utf8_lossy(other)
        ))),
    }
}

/// `FAIL` with `reason`, as adb's server words a refusal.
pub fn fail(reason: &str) -> Vec<u8> {
    let reason = &reason.as_bytes()[..reason.len().min(MAX_REQUEST)];
    let mut out = format!("FAIL{:04x}", reason.len()).into_bytes();
    out.extend_from_slice(reason);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests as captured from adb 1.0.41, adbutils 2.x and mobile-mcp on the wire.
    #[test]
    fn captured_requests_are_read_as_adb_reads_them() {
        let serial = |s| Select::Serial(s);
        let cases = [
            (
                "host:tport:serial:emulator-5554",
                Request::Transport {
                    select: serial("emulator-5554"),
                    says_id: true,
                },
            ),
            (
                "host:tport:any",
                Request::Transport {
                    select: Select::Any,
                    says_id: true,
                },
            ),
            (
                "host:tport:id:7",
                Request::Transport {
                    select: Select::Id(7),
                    says_id: true,
                },
            ),
            (
                "host:transport:127.0.0.1:40123",
                Request::Transport {
                    select: serial("127.0.0.1:40123"),
                    says_id: false,
                },
            ),
            (
                "host:transport-id:3",
                Request::Transport {
                    select: Select::Id(3),
                    says_id: false,
                },
            ),
            (
                "host:transport-any",
                Request::Transport {
                    select: Select::Any,
                    says_id: false,
                },
            ),
            (
                "host:transport-usb",
                Request::Transport {
                    select: Select::Usb,
                    says_id: false,
                },
            ),
            ("host:version", Request::Host("version")),
            ("host:devices-l", Request::Host("devices-l")),
            ("host:track-devices", Request::Host("track-devices")),
            (
                "host:connect:127.0.0.1:5555",
                Request::Host("connect:127.0.0.1:5555"),
            ),
            (
                "host-serial:127.0.0.1:5555:forward:tcp:9008;tcp:9008",
                Request::ForDevice {
                    select: serial("127.0.0.1:5555"),
                    service: "forward:tcp:9008;tcp:9008",
                },
            ),
            (
                "host-serial:emulator-5554:get-state",
                Request::ForDevice {
                    select: serial("emulator-5554"),
                    service: "get-state",
                },
            ),
            (
                "host-serial:[::1]:5555:features",
                Request::ForDevice {
                    select: serial("[::1]:5555"),
                    service: "features",
                },
            ),
            (
                "host-serial:usb:1-1:get-devpath",
                Request::ForDevice {
                    select: serial("usb:1-1"),
                    service: "get-devpath",
                },
            ),
            (
                "host-serial:tcp:10.0.0.2:5555:get-state",
                Request::ForDevice {
                    select: serial("tcp:10.0.0.2:5555"),
                    service: "get-state",
                },
            ),
            (
                "host-transport-id:4:killforward-all",
                Request::ForDevice {
                    select: Select::Id(4),
                    service: "killforward-all",
                },
            ),
            (
                "host-usb:get-state",
                Request::ForDevice {
                    select: Select::Usb,
                    service: "get-state",
                },
            ),
            (
                "shell,v2,raw:input tap 540 1210",
                Request::Device("shell,v2,raw:input tap 540 1210"),
            ),
            ("sync:", Request::Device("sync:")),
        ];
        for (text, expected) in cases {
            assert_eq!(Request::parse(text), expected, "{text}");
        }
    }

    #[test]
    fn device_services_are_told_apart() {
        let cases = [
            (
                "shell,v2,raw:input tap 1 2",
                DeviceService::Shell {
                    command: "input tap 1 2",
                    packets: true,
                },
            ),
            (
                "shell,v2,TERM=xterm-256color,pty:",
                DeviceService::Shell {
                    command: "",
                    packets: true,
                },
            ),
            (
                "shell:uiautomator dump /dev/tty",
                DeviceService::Shell {
                    command: "uiautomator dump /dev/tty",
                    packets: false,
                },
            ),
            ("exec:screencap -p", DeviceService::Exec("screencap -p")),
            ("sync:", DeviceService::Sync),
            ("tcp:9008", DeviceService::Other("tcp:9008")),
            ("shellx:1", DeviceService::Other("shellx:1")),
        ];
        for (text, expected) in cases {
            assert_eq!(DeviceService::parse(text), expected, "{text}");
        }
        assert_eq!(DeviceService::Sync.command(), None);
    }

    #[test]
    fn a_serial_whose_port_is_not_followed_by_a_colon_ends_at_the_first() {
        // "host-serial:abc:12x" is serial "abc" and service "12x".
        assert_eq!(
            Request::parse("host-serial:abc:12x"),
            Request::ForDevice {
                select: Select::Serial("abc"),
                service: "12x"
            }
        );
        // No colon at all: not a request about a device.
        assert_eq!(
            Request::parse("host-serial:abc"),
            Request::Device("host-serial:abc")
        );
    }

    #[test]
    fn requests_round_trip_through_their_framing() {
        let mut wire = Vec::new();
        write_request(&mut wire, "host:version").unwrap();
        assert_eq!(wire, b"000chost:version");
        assert_eq!(read_request(&mut wire.as_slice()).unwrap(), "host:version");
        assert!(matches!(
            read_request(&mut &b"zz12host"[..]),
            Err(RequestError::BadLength(l)) if l == "zz12"
        ));
        assert!(matches!(
            read_request(&mut &b""[..]),
            Err(RequestError::Closed)
        ));
        assert!(write_request(&mut Vec::new(), &"x".repeat(MAX_REQUEST + 1)).is_err());
    }

    #[test]
    fn statuses_are_read_with_their_bytes() {
        let (status, raw) = read_status(&mut &b"OKAYrest"[..]).unwrap();
        assert_eq!((status, raw), (Status::Okay, b"OKAY".to_vec()));
        let failed = fail("device 'x' not found");
        assert_eq!(failed, b"FAIL0014device 'x' not found");
        let (status, raw) = read_status(&mut failed.as_slice()).unwrap();
        assert_eq!(status, Status::Fail("device 'x' not found".into()));
        assert_eq!(raw, failed);
        assert!(read_status(&mut &b"WHAT"[..]).is_err());
    }
}
