//! The services a host opens, named as adbd reads them (`shell,v2,pty:ls`, `exec:…`,
//! `sync:`, `tcp:9008`, `localabstract:NAME`), and the thread that serves each opened
//! stream.

use std::sync::Arc;

use super::reverse::{self, Reverses};
use super::shell_stream::ShellMode;
use super::stream::Stream;
use super::{Backend, SocketName, session, shell_stream, socket, sync};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Service {
    /// `command: None` is a session: lines typed or piped in, each run in turn.
    Shell {
        mode: ShellMode,
        command: Option<String>,
    },
    Sync,
    /// A connection to a socket on the device; OKAY or CLSE once the backend says
    /// whether anything listens there.
    Socket(SocketName),
    /// `reverse:…`, answered from the connection's reverses.
    Reverse(reverse::Request),
    /// A fixed answer, then the stream closes (`root:` on a production build).
    Reply(&'static str),
}

impl Service {
    /// Whether the OPEN is answered OKAY at once; a socket's answer waits for its thread.
    pub(super) fn accepted_at_once(&self) -> bool {
        !matches!(self, Service::Socket(_))
    }
}

/// The service an OPEN names, or `None` for one this device does not offer (`reboot:`,
/// `tcpip:`, `jdwp`, …), which the host is refused with CLSE.
pub(super) fn parse(name: &[u8]) -> Option<Service> {
    // Hosts end the name with a NUL; adbd reads up to the first one.
    let end = name.iter().position(|b| *b == 0).unwrap_or(name.len());
    let name = String::from_utf8_lossy(&name[..end]);
    match name.as_ref() {
        "sync:" => return Some(Service::Sync),
        "root:" => return Some(Service::Reply(reverse::CANNOT_ROOT)),
        "unroot:" => return Some(Service::Reply(reverse::NOT_ROOT)),
        _ => {}
    }
    if let Some(request) = name.strip_prefix("reverse:") {
        return reverse::parse(request).map(Service::Reverse);
    }
    if let Some(port) = name.strip_prefix("tcp:") {
        // `tcp:HOST:PORT` would reach beyond the device: not offered.
        let port = port.parse().ok().filter(|port| *port != 0)?;
        return Some(Service::Socket(SocketName::Tcp(port)));
    }
    if let Some(socket) = name.strip_prefix("localabstract:") {
        return (!socket.is_empty())
            .then(|| Service::Socket(SocketName::LocalAbstract(socket.to_owned())));
    }
    if let Some(command) = name.strip_prefix("exec:") {
        let mode = ShellMode {
            packets: false,
            pty: false,
        };
        return Some(shell_service(mode, command));
    }
    let rest = name.strip_prefix("shell")?;
    if !rest.starts_with([':', ',']) {
        return None;
    }
    let (options, command) = rest.split_once(':')?;
    // As adbd: a pty when there is no command, unless an option says otherwise.
    let mut mode = ShellMode {
        packets: false,
        pty: command.is_empty(),
    };
    for option in options.split(',') {
        match option {
            "v2" => mode.packets = true,
            "raw" => mode.pty = false,
            "pty" => mode.pty = true,
            // `TERM=…` and options of later versions change nothing here.
            _ => {}
        }
    }
    Some(shell_service(mode, command))
}

fn shell_service(mode: ShellMode, command: &str) -> Service {
    Service::Shell {
        mode,
        command: (!command.is_empty()).then(|| command.to_owned()),
    }
}

/// Serves `service` on a thread of its own; the stream is closed when it ends, even if
/// the backend panics, or at once if no thread can be had.
pub(super) fn start(
    service: Service,
    stream: Arc<Stream>,
    backend: Arc<dyn Backend>,
    reverses: Arc<Reverses>,
) {
    let worker = Arc::clone(&stream);
    let spawned = std::thread::Builder::new()
        .name(format!("adbd stream {}", stream.local_id))
        .spawn(move || {
            let _close = CloseOnDrop(&worker);
            match service {
                Service::Shell {
                    mode,
                    command: Some(command),
                } => shell_stream::serve_command(&worker, &*backend, mode, &command),
                Service::Shell {
                    mode,
                    command: None,
                } => session::serve(&worker, &*backend, mode),
                Service::Sync => sync::serve(&worker, &*backend),
                Service::Socket(name) => socket::serve(&worker, &*backend, &name),
                Service::Reverse(request) => {
                    let _ = worker.write(&reverses.answer(&request));
                }
                Service::Reply(text) => {
                    let _ = worker.write(text.as_bytes());
                }
            }
        });
    if spawned.is_err() {
        stream.finish();
    }
}

struct CloseOnDrop<'a>(&'a Stream);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(packets: bool, pty: bool, command: Option<&str>) -> Option<Service> {
        Some(Service::Shell {
            mode: ShellMode { packets, pty },
            command: command.map(str::to_owned),
        })
    }

    #[test]
    fn shell_services_read_as_adbd_reads_them() {
        // What adb 1.0.41 opens for `adb shell ls`, `adb shell`, `echo ls | adb shell`,
        // `adb shell -t ls`, and an old host's `adb shell ls`.
        assert_eq!(
            parse(b"shell,v2,raw:ls -l\0"),
            shell(true, false, Some("ls -l"))
        );
        assert_eq!(
            parse(b"shell,v2,TERM=xterm-256color,pty:\0"),
            shell(true, true, None)
        );
        assert_eq!(parse(b"shell,v2,raw:\0"), shell(true, false, None));
        assert_eq!(
            parse(b"shell,v2,TERM=xterm,pty:ls"),
            shell(true, true, Some("ls"))
        );
        assert_eq!(parse(b"shell:ls\0"), shell(false, false, Some("ls")));
        assert_eq!(parse(b"shell:\0"), shell(false, true, None));
        assert_eq!(parse(b"shell,v2:\0"), shell(true, true, None));
        assert_eq!(
            parse(b"shell,v2,future-option:id"),
            shell(true, false, Some("id"))
        );
        assert_eq!(
            parse(b"exec:screencap -p\0"),
            shell(false, false, Some("screencap -p"))
        );
        assert_eq!(parse(b"exec:\0"), shell(false, false, None));
    }

    #[test]
    fn a_command_keeps_its_colons_and_commas() {
        assert_eq!(
            parse(b"shell,v2,raw:echo a:b,c\0"),
            shell(true, false, Some("echo a:b,c"))
        );
    }

    #[test]
    fn sockets_on_the_device_by_port_or_name() {
        // What adbutils' `create_connection(Network.TCP, 9008)` opens.
        assert_eq!(
            parse(b"tcp:9008\0"),
            Some(Service::Socket(SocketName::Tcp(9008)))
        );
        assert_eq!(
            parse(b"localabstract:scrcpy\0"),
            Some(Service::Socket(SocketName::LocalAbstract("scrcpy".into())))
        );
        for name in [
            &b"tcp:0\0"[..],
            b"tcp:65536\0",
            b"tcp:90x8\0",
            b"tcp:\0",
            b"tcp:10.0.0.1:80\0",
            b"localabstract:\0",
        ] {
            assert_eq!(parse(name), None, "{:?}", String::from_utf8_lossy(name));
        }
        assert!(!parse(b"tcp:9008").unwrap().accepted_at_once());
        assert!(parse(b"sync:").unwrap().accepted_at_once());
    }

    #[test]
    fn root_has_its_production_answer_and_reverse_its_requests() {
        assert_eq!(
            parse(b"root:\0"),
            Some(Service::Reply(
                "adbd cannot run as root in production builds\n"
            ))
        );
        assert_eq!(
            parse(b"unroot:\0"),
            Some(Service::Reply("adbd not running as root\n"))
        );
        assert_eq!(
            parse(b"reverse:list-forward\0"),
            Some(Service::Reverse(reverse::Request::List))
        );
    }

    #[test]
    fn sync_and_nothing_else() {
        assert_eq!(parse(b"sync:\0"), Some(Service::Sync));
        for name in [
            &b"reboot:\0"[..],
            b"tcpip:5555\0",
            b"remount:\0",
            b"jdwp\0",
            b"track-jdwp\0",
            b"framebuffer:\0",
            b"reverse:frobnicate\0",
            b"shell\0",
            b"shellx:ls\0",
            b"sync\0",
            b"\0",
            b"",
        ] {
            assert_eq!(parse(name), None, "{:?}", String::from_utf8_lossy(name));
        }
    }
}
