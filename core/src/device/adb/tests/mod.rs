//! `AdbDevice` against a fake ADB server on loopback: the commands it sends, and how it
//! reads what comes back. No phone needed.

mod looks;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::AdbDevice;
use crate::device::{Device, DeviceError, Key};
use crate::geometry::Point;
use crate::model::Size;

const XML: &str = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node text=\"a\" /></hierarchy>";

type Script = dyn Fn(&str, usize) -> Reply + Send + Sync;

/// What the fake phone answers a command with.
struct Reply {
    stdout: String,
    status: u8,
    /// Sent only 3 s later: a phone whose dump still waits for the screen to go idle.
    late: bool,
}

fn say(stdout: impl Into<String>) -> Reply {
    Reply {
        stdout: stdout.into(),
        status: 0,
        late: false,
    }
}

fn fail(status: u8, stdout: impl Into<String>) -> Reply {
    Reply {
        status,
        ..say(stdout)
    }
}

fn late(stdout: impl Into<String>) -> Reply {
    Reply {
        late: true,
        ..say(stdout)
    }
}

/// One shell protocol v2 packet.
fn packet(id: u8, data: &[u8]) -> Vec<u8> {
    let mut bytes = vec![id];
    bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
    bytes.extend_from_slice(data);
    bytes
}

/// A fake server: one phone `FAKE`; each shell command is recorded and answered by
/// `script(command, how many times it ran before)`.
struct Fake {
    address: SocketAddrV4,
    commands: Arc<Mutex<Vec<String>>>,
}

impl Fake {
    fn start(script: impl Fn(&str, usize) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let std::net::SocketAddr::V4(address) = listener.local_addr().unwrap() else {
            panic!("bound to IPv4")
        };
        let commands = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let log = commands.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let (log, script) = (log.clone(), script.clone());
                std::thread::spawn(move || serve(stream.unwrap(), &log, &*script));
            }
        });
        Self { address, commands }
    }

    fn device(&self) -> AdbDevice {
        AdbDevice::connect_at(self.address, None).unwrap()
    }

    /// Shell commands run so far.
    fn commands(&self) -> Vec<String> {
        self.commands.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, log: &Mutex<Vec<String>>, script: &Script) {
    loop {
        let mut len = [0u8; 4];
        if stream.read_exact(&mut len).is_err() {
            return;
        }
        let len = usize::from_str_radix(std::str::from_utf8(&len).unwrap(), 16).unwrap();
        let mut service = vec![0; len];
        stream.read_exact(&mut service).unwrap();
        let service = String::from_utf8(service).unwrap();
        let reply = |stream: &mut TcpStream, body: &str| {
            let _ = stream.write_all(format!("OKAY{:04x}{body}", body.len()).as_bytes());
        };
        match service.as_str() {
            "host:devices-l" => return reply(&mut stream, "FAKE\tdevice model:Pixel_7\n"),
            "host:features" => return reply(&mut stream, ""),
            "host:transport:FAKE" => {
                let _ = stream.write_all(b"OKAY");
            }
            transport if transport.starts_with("host:transport:") => {
                let reason = "device 'X' not found";
                let _ = write!(stream, "FAIL{:04x}{reason}", reason.len());
                return;
            }
            other => {
                let command = other.strip_prefix("shell,v2,raw:").unwrap().to_owned();
                let runs = {
                    let mut log = log.lock().unwrap();
                    let runs = log.iter().filter(|c| **c == command).count();
                    log.push(command.clone());
                    runs
                };
                let _ = stream.write_all(b"OKAY");
                let reply = script(&command, runs);
                if reply.late {
                    std::thread::sleep(Duration::from_secs(3));
                }
                let mut bytes = packet(1, reply.stdout.as_bytes());
                bytes.extend(packet(3, &[reply.status]));
                let _ = stream.write_all(&bytes);
                return;
            }
        }
    }
}

#[test]
fn input_commands_are_sent_as_the_shell_expects() {
    let fake = Fake::start(|_, _| say(""));
    let mut device = fake.device();
    assert_eq!(device.name(), "FAKE");
    device.tap(Point::new(540, 1200)).unwrap();
    let (from, to) = (Point::new(540, 1800), Point::new(540, 600));
    device.swipe(from, to, Duration::from_millis(300)).unwrap();
    device.long_press(from, Duration::from_secs(1)).unwrap();
    device.input_text("it's here").unwrap();
    device.key(Key::Back).unwrap();
    assert_eq!(
        fake.commands(),
        [
            "input tap 540 1200",
            "input swipe 540 1800 540 600 300",
            "input swipe 540 1800 540 1800 1000",
            r"input text 'it'\''s%shere'",
            "input keyevent 4",
        ]
    );
}

#[test]
fn bad_input_is_refused_before_the_device_is_touched() {
    let fake = Fake::start(|_, _| say(""));
    let mut device = fake.device();
    let err = device.input_text("naïve").unwrap_err();
    assert!(matches!(err, DeviceError::InvalidInput(_)), "{err}");
    assert!(device.tap(Point::new(-1, 5)).is_err());
    assert!(device.launch("com.x; reboot").is_err());
    assert!(fake.commands().is_empty(), "{:?}", fake.commands());
}

#[test]
fn dump_from_stdout_falls_back_to_a_file() {
    let fake = Fake::start(|command, _| match command {
        "uiautomator dump /dev/tty" => say(format!("{XML}UI hierchary dumped to: /dev/tty")),
        _ => say(""),
    });
    assert_eq!(fake.device().dump().unwrap(), XML);

    let fake = Fake::start(|command, _| {
        if command.contains("/dev/tty") {
            say("ERROR: could not open /dev/tty\n")
        } else {
            say(format!(
                "UI hierchary dumped to: /sdcard/window_dump.xml\n{XML}"
            ))
        }
    });
    let mut device = fake.device();
    assert_eq!(device.dump().unwrap(), XML);
    assert_eq!(device.dump().unwrap(), XML);
    // Once /dev/tty failed, later dumps go straight to the file.
    assert_eq!(fake.commands().len(), 3, "{:?}", fake.commands());
}

#[test]
fn a_screen_that_never_idles_is_reported_without_waiting_again() {
    let fake = Fake::start(|_, _| say("ERROR: could not get idle state.\n"));
    let mut device = fake.device();
    let err = device.dump().unwrap_err();
    assert!(matches!(err, DeviceError::NotIdle { .. }), "{err}");
    assert!(err.to_string().contains("never went idle"), "{err}");
    // The phone waited its own 10 s: one dump, not three.
    assert_eq!(fake.commands(), ["uiautomator dump /dev/tty"]);
}

#[test]
fn a_dump_past_its_limit_is_given_up_and_ended_on_the_phone() {
    let fake = Fake::start(|command, _| match command {
        "uiautomator dump /dev/tty" => late(XML),
        _ => say(""),
    });
    let mut device = fake.device();
    let started = Instant::now();
    let err = device.dump_within(Duration::from_millis(300)).unwrap_err();
    assert!(matches!(err, DeviceError::NotIdle { .. }), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        fake.commands(),
        [
            "uiautomator dump /dev/tty",
            "pkill -f 'uiautomator.Launcher dump'"
        ]
    );
}

#[test]
fn a_dump_blocked_by_another_uiautomation_client_is_tried_again() {
    let fake = Fake::start(|command, runs| match (command, runs) {
        ("uiautomator dump /dev/tty", 0) => fail(
            1,
            "java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@f18df39already registered!\n",
        ),
        ("uiautomator dump /dev/tty", _) => say(format!("{XML}UI hierchary dumped to: /dev/tty\n")),
        _ => say(""),
    });
    let mut device = fake.device();
    assert_eq!(device.dump().unwrap(), XML);
    assert_eq!(fake.commands().len(), 2, "{:?}", fake.commands());
    assert_eq!(
        device.last_event_at(),
        None,
        "no events stream competes with dumps"
    );
    assert!(matches!(
        device.dumps(),
        crate::stability::Dumps::AfterIdle { .. }
    ));
}

#[test]
fn display_size_follows_the_rotation() {
    let fake = Fake::start(|command, _| match command {
        "wm size" => say("Physical size: 1080x2400\n"),
        _ => say("    InputDeviceOrientation: 1\n"),
    });
    let display = fake.device().display().unwrap();
    assert_eq!(display.rotation, 1);
    assert_eq!(
        display.size,
        Size {
            width: 2400,
            height: 1080
        }
    );
}

#[test]
fn packages_launch_and_screenshots() {
    let fake = Fake::start(|command, _| match command {
        "pm list packages" => say("package:com.b\npackage:com.a\n"),
        "screencap -p" => say("\u{89}PNG"),
        _ => fail(252, "** No activities found to run, monkey aborted.\n"),
    });
    let mut device = fake.device();
    assert_eq!(device.packages().unwrap(), ["com.a", "com.b"]);
    let err = device.launch("com.a").unwrap_err().to_string();
    assert!(err.contains("no launcher activity"), "{err}");
    // UTF-8 of U+0089 is not the PNG signature: refused, not passed on.
    assert!(device.screenshot_png().is_err());
}

#[test]
fn unknown_serial_is_no_device() {
    let fake = Fake::start(|_, _| say(""));
    let err = AdbDevice::connect_at(fake.address, Some("X")).unwrap_err();
    assert!(matches!(err, DeviceError::NoDevice { .. }), "{err}");
}

#[test]
fn exit_statuses_and_exceptions_of_input_are_errors() {
    let fake = Fake::start(|command, _| match command {
        "input tap 5000 10" => fail(
            255,
            "Exception occurred while executing 'tap':\njava.lang.IllegalArgumentException: \
             (5000, 10) is outside the display\n",
        ),
        // Old Androids print the exception and exit 0.
        "input keyevent 4" => say(
            "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n",
        ),
        _ => say(""),
    });
    let mut device = fake.device();
    let err = device.tap(Point::new(5000, 10)).unwrap_err();
    assert!(matches!(err, DeviceError::Command { .. }), "{err}");
    let said = err.to_string();
    assert!(
        said.contains("exit status 255") && said.contains("outside the display"),
        "{said}"
    );
    let err = device.key(Key::Back).unwrap_err().to_string();
    assert!(err.contains("SecurityException"), "{err}");
}
