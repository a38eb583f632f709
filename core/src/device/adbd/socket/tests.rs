//! Socket services over a real loopback connection, spoken by a raw host: refused where
//! nothing listens, bytes both ways with flow control where something does, the socket
//! dropped when the host closes; and the sim's `tcp:9008`, served only while
//! uiautomator2's server runs, after its jar was pushed and checked as uiautomator2 does.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use md5::{Digest, Md5};

use crate::device::adbd::command::Command;
use crate::device::adbd::message::{self, Message, VERSION, encode};
use crate::device::adbd::{
    Backend, CommandOutput, DeviceSocket, Identity, SocketName, bind, serve,
};
use crate::device::sim::costs::Profile;
use crate::device::sim::phone::UiClient;
use crate::device::sim::shell::SimShell;
use crate::stability::RealClock;

/// How long the host waits for an answer before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);
/// The most one message carries, as the host offers it.
const MAX_PAYLOAD: u32 = 256 * 1024;

/// A host speaking the transport by hand.
struct Host {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    next_id: u32,
}

impl Host {
    fn connect(addr: std::net::SocketAddr) -> Self {
        let socket = TcpStream::connect(addr).unwrap();
        socket.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut host = Host {
            writer: socket.try_clone().unwrap(),
            reader: BufReader::new(socket),
            next_id: 1,
        };
        host.send(Command::Connect, VERSION, MAX_PAYLOAD, b"host::\0");
        assert_eq!(host.next().command, Command::Connect);
        host
    }

    fn send(&mut self, command: Command, arg0: u32, arg1: u32, data: &[u8]) {
        self.writer
            .write_all(&encode(command, arg0, arg1, data))
            .unwrap();
    }

    fn next(&mut self) -> Message {
        message::read(&mut self.reader, MAX_PAYLOAD as usize, false)
            .unwrap()
            .expect("a message before the device hung up")
    }

    /// OPENs `service`: our id and the device's answer.
    fn open(&mut self, service: &str) -> (u32, Message) {
        let id = self.next_id;
        self.next_id += 1;
        self.send(Command::Open, id, 0, format!("{service}\0").as_bytes());
        (id, self.next())
    }

    /// OPENs `service`, which must be accepted: (our id, the device's).
    fn accepted(&mut self, service: &str) -> (u32, u32) {
        let (id, answer) = self.open(service);
        assert_eq!(
            (answer.command, answer.arg1),
            (Command::Okay, id),
            "{service}"
        );
        (id, answer.arg0)
    }

    /// Writes `bytes` as one WRTE, then waits for its OKAY; what the device wrote
    /// meanwhile is acknowledged and kept.
    fn write(&mut self, (id, device): (u32, u32), bytes: &[u8], got: &mut Vec<u8>) {
        self.send(Command::Write, id, device, bytes);
        loop {
            let message = self.next();
            match message.command {
                Command::Okay => return,
                Command::Write => {
                    got.extend_from_slice(&message.data);
                    self.send(Command::Okay, id, device, &[]);
                }
                other => panic!("{other} while writing"),
            }
        }
    }

    /// What the device writes, acknowledged, until `done` says enough or it closes.
    fn read_until(
        &mut self,
        (id, device): (u32, u32),
        got: &mut Vec<u8>,
        done: impl Fn(&[u8]) -> bool,
    ) -> Command {
        while !done(got) {
            let message = self.next();
            assert_eq!(message.arg1, id, "{}", message.command);
            match message.command {
                Command::Write => {
                    got.extend_from_slice(&message.data);
                    self.send(Command::Okay, id, device, &[]);
                }
                other => return other,
            }
        }
        Command::Write
    }

    /// Runs `command` over `service` (`shell:`, `shell,v2,raw:`): everything it printed.
    fn run(&mut self, service: &str, command: &str) -> Vec<u8> {
        let stream = self.accepted(&format!("{service}{command}"));
        let mut out = Vec::new();
        assert_eq!(self.read_until(stream, &mut out, |_| false), Command::Close);
        out
    }
}

/// A device whose `tcp:7` echoes; `bye` is echoed, then the socket closes.
struct Echo {
    dropped: Mutex<Sender<()>>,
}

struct EchoSocket {
    dropped: Sender<()>,
}

impl DeviceSocket for EchoSocket {
    fn received(&mut self, bytes: &[u8]) -> (Vec<u8>, bool) {
        (bytes.to_vec(), bytes == b"bye")
    }
}

impl Drop for EchoSocket {
    fn drop(&mut self) {
        let _ = self.dropped.send(());
    }
}

impl Backend for Echo {
    fn identity(&self) -> Identity {
        Identity {
            product: "p".into(),
            model: "m".into(),
            device: "d".into(),
        }
    }

    fn run(&self, _: &str, _: &mut dyn CommandOutput) -> u8 {
        127
    }

    fn file(&self, _: &str) -> Option<Vec<u8>> {
        None
    }

    fn open_socket(&self, destination: &SocketName) -> Option<Box<dyn DeviceSocket + '_>> {
        let dropped = self.dropped.lock().unwrap().clone();
        (*destination == SocketName::Tcp(7))
            .then(|| Box::new(EchoSocket { dropped }) as Box<dyn DeviceSocket>)
    }
}

fn echo_device() -> (crate::device::adbd::Server, Receiver<()>) {
    let (sender, dropped) = channel();
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let device = Arc::new(Echo {
        dropped: Mutex::new(sender),
    });
    (serve(listener, device).unwrap(), dropped)
}

#[test]
fn a_port_nothing_listens_on_is_refused_with_clse() {
    let (server, _) = echo_device();
    let mut host = Host::connect(server.local_addr());
    for service in ["tcp:9008", "localabstract:scrcpy"] {
        let (id, answer) = host.open(service);
        assert_eq!(
            (answer.command, answer.arg0, answer.arg1),
            (Command::Close, 0, id),
            "{service}"
        );
    }
    // The connection goes on.
    host.accepted("tcp:7");
}

#[test]
fn a_listened_on_port_answers_with_flow_control_and_is_dropped_when_the_host_closes() {
    let (server, dropped) = echo_device();
    let mut host = Host::connect(server.local_addr());
    let stream = host.accepted("tcp:7");
    let mut echoed = Vec::new();
    // More than the device buffers before holding its OKAY back, one WRTE at a time.
    let sent: Vec<u8> = (0..600_000u32).map(|i| (i % 251) as u8).collect();
    for part in sent.chunks(100_000) {
        host.write(stream, part, &mut echoed);
    }
    host.read_until(stream, &mut echoed, |got| got.len() >= sent.len());
    assert!(echoed == sent, "echoed {} bytes, differently", echoed.len());
    assert!(dropped.try_recv().is_err(), "dropped while open");

    host.send(Command::Close, stream.0, stream.1, &[]);
    let answer = host.next();
    assert_eq!((answer.command, answer.arg1), (Command::Close, stream.0));
    dropped
        .recv_timeout(PATIENCE)
        .expect("the socket dropped once the host closed it");

    // A socket that asks to close: its answer, then CLSE.
    let stream = host.accepted("tcp:7");
    let mut said = Vec::new();
    host.write(stream, b"bye", &mut said);
    assert_eq!(
        host.read_until(stream, &mut said, |_| false),
        Command::Close
    );
    assert_eq!(said, b"bye");
    dropped
        .recv_timeout(PATIENCE)
        .expect("dropped after closing");
}

/// Waits for `ready`, failing the test past [`PATIENCE`].
fn until(what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < PATIENCE, "never: {what}");
        std::thread::yield_now();
    }
}

#[test]
fn the_sims_tcp_9008_is_served_only_while_the_u2_server_runs() {
    let shell = Arc::new(SimShell::new(RealClock::new(), 3, Profile::Instant));
    let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let server = serve(listener, Arc::clone(&shell)).unwrap();
    let mut host = Host::connect(server.local_addr());
    let (id, refused) = host.open("tcp:9008");
    assert_eq!(
        (refused.command, refused.arg0, refused.arg1),
        (Command::Close, 0, id)
    );

    // uiautomator2's start: the jar's md5 (missing), the push, the md5 again.
    let jar: Vec<u8> = (0..300_000u32).map(|i| (i * 31 % 256) as u8).collect();
    let sum: String = Md5::digest(&jar)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let check = "toybox md5sum /data/local/tmp/u2.jar; echo X4EXIT:$?";
    assert_eq!(
        String::from_utf8_lossy(&host.run("shell:", check)),
        "md5sum: /data/local/tmp/u2.jar: No such file or directory\nX4EXIT:1\n"
    );
    let sync = host.accepted("sync:");
    let path = "/data/local/tmp/u2.jar,33261";
    let mut push = b"SEND".to_vec();
    push.extend_from_slice(&(path.len() as u32).to_le_bytes());
    push.extend_from_slice(path.as_bytes());
    for chunk in jar.chunks(4096) {
        push.extend_from_slice(b"DATA");
        push.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        push.extend_from_slice(chunk);
    }
    push.extend_from_slice(b"DONE\0\0\0\x66");
    let mut answer = Vec::new();
    // WRTEs cut across DATA frames, as the adb server forwards them.
    for part in push.chunks(10_000) {
        host.write(sync, part, &mut answer);
    }
    host.read_until(sync, &mut answer, |got| got.len() >= 8);
    assert_eq!(answer, b"OKAY\0\0\0\0");
    host.send(Command::Close, sync.0, sync.1, &[]);
    assert_eq!(host.next().command, Command::Close);
    assert_eq!(
        String::from_utf8_lossy(&host.run("shell:", check)),
        format!("{sum}  /data/local/tmp/u2.jar\nX4EXIT:0\n")
    );
    // Shell protocol v2 gives the status itself.
    let v2 = host.run("shell,v2,raw:", "md5sum /nope");
    let exit = v2.len() - 6;
    assert_eq!(&v2[exit..], b"\x03\x01\0\0\0\x01", "exit 1 last");

    let launch =
        "shell:CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008";
    let u2 = host.accepted(launch);
    let mut printed = Vec::new();
    let listening = |got: &[u8]| String::from_utf8_lossy(got).contains("listening on *:9008");
    assert_eq!(host.read_until(u2, &mut printed, listening), Command::Write);
    assert!(
        printed.starts_with(b"[server] INFO: [UiAutomator2Server] Starting Server\n"),
        "{}",
        String::from_utf8_lossy(&printed)
    );
    assert_eq!(shell.phone().ui_client(), Some(UiClient::Helper));
    let socket = host.accepted("tcp:9008");
    let mut pong = Vec::new();
    host.write(
        socket,
        b"GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n",
        &mut pong,
    );
    host.read_until(socket, &mut pong, |got| got.ends_with(b"pong"));
    assert!(
        pong.starts_with(b"HTTP/1.1 200 OK"),
        "{}",
        String::from_utf8_lossy(&pong)
    );

    // uiautomator2 stops its server by closing the stream.
    host.send(Command::Close, u2.0, u2.1, &[]);
    assert_eq!(host.next().command, Command::Close);
    until("UiAutomation released", || {
        shell.phone().ui_client().is_none()
    });
    // The open connection is reset at its next use; new ones are refused.
    host.send(
        Command::Write,
        socket.0,
        socket.1,
        b"GET /ping HTTP/1.1\r\n\r\n",
    );
    assert_eq!(host.next().command, Command::Okay);
    let reset = host.next();
    assert_eq!((reset.command, reset.arg1), (Command::Close, socket.0));
    let (id, refused) = host.open("tcp:9008");
    assert_eq!(
        (refused.command, refused.arg0, refused.arg1),
        (Command::Close, 0, id)
    );
}
