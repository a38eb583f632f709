//! `AdbDevice` against a fake ADB server on loopback: the commands it sends, and how it
//! reads what comes back. No phone needed.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::AdbDevice;
use crate::device::{Device, DeviceError, Key};
use crate::geometry::Point;
use crate::model::Size;
use crate::stability::Clock;

const XML: &str = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node text=\"a\" /></hierarchy>";

type Script = dyn Fn(&str, usize) -> String + Send + Sync;

/// A fake server: one phone `FAKE`; each shell command is recorded and answered by
/// `script(command, how many times it ran before)`.
struct Fake {
    address: SocketAddrV4,
    commands: Arc<Mutex<Vec<String>>>,
}

impl Fake {
    fn start(script: impl Fn(&str, usize) -> String + Send + Sync + 'static) -> Self {
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

    /// Shell commands run so far, the events stream left out.
    fn commands(&self) -> Vec<String> {
        let all = self.commands.lock().unwrap().clone();
        all.into_iter()
            .filter(|c| c != "uiautomator events")
            .collect()
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
                let command = other.strip_prefix("shell:").unwrap().to_owned();
                let runs = {
                    let mut log = log.lock().unwrap();
                    let runs = log.iter().filter(|c| **c == command).count();
                    log.push(command.clone());
                    runs
                };
                let _ = stream.write_all(b"OKAY");
                let _ = stream.write_all(script(&command, runs).as_bytes());
                return;
            }
        }
    }
}

#[test]
fn input_commands_are_sent_as_the_shell_expects() {
    let fake = Fake::start(|_, _| String::new());
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
    let fake = Fake::start(|_, _| String::new());
    let mut device = fake.device();
    let err = device.input_text("naïve").unwrap_err();
    assert!(matches!(err, DeviceError::InvalidInput(_)), "{err}");
    assert!(device.tap(Point::new(-1, 5)).is_err());
    assert!(device.launch("com.x; reboot").is_err());
    assert!(fake.commands().is_empty(), "{:?}", fake.commands());
}

#[test]
fn dump_from_stdout_retries_idle_state_and_falls_back_to_a_file() {
    let fake = Fake::start(|command, runs| match (command, runs) {
        ("uiautomator dump /dev/tty", 0) => "ERROR: could not get idle state.\n".into(),
        ("uiautomator dump /dev/tty", _) => format!("{XML}UI hierchary dumped to: /dev/tty\n"),
        _ => String::new(),
    });
    assert_eq!(fake.device().dump().unwrap(), XML);

    let fake = Fake::start(|command, _| {
        if command.contains("/dev/tty") {
            "ERROR: could not open /dev/tty\n".into()
        } else {
            format!("UI hierchary dumped to: /sdcard/window_dump.xml\n{XML}")
        }
    });
    let mut device = fake.device();
    assert_eq!(device.dump().unwrap(), XML);
    assert_eq!(device.dump().unwrap(), XML);
    // Once /dev/tty failed, later dumps go straight to the file.
    assert_eq!(fake.commands().len(), 3, "{:?}", fake.commands());
}

#[test]
fn a_screen_that_never_idles_is_reported() {
    let fake = Fake::start(|_, _| "ERROR: could not get idle state.\n".into());
    let err = fake.device().dump().unwrap_err().to_string();
    assert!(
        err.contains("could not get idle state after 3 tries"),
        "{err}"
    );
}

#[test]
fn display_size_follows_the_rotation() {
    let fake = Fake::start(|command, _| match command {
        "wm size" => "Physical size: 1080x2400\n".into(),
        _ => "    SurfaceOrientation: 1\n".into(),
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
        "pm list packages" => "package:com.b\npackage:com.a\n".into(),
        "screencap -p" => "\u{89}PNG".into(),
        _ => "** No activities found to run, monkey aborted.\n".into(),
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
    let fake = Fake::start(|_, _| String::new());
    let err = AdbDevice::connect_at(fake.address, Some("X")).unwrap_err();
    assert!(matches!(err, DeviceError::NoDevice { .. }), "{err}");
}

#[test]
fn accessibility_events_set_the_last_event_time() {
    let fake = Fake::start(|command, _| match command {
        "uiautomator events" => {
            "EventType: TYPE_WINDOW_CONTENT_CHANGED; EventTime: 1; PackageName: com.a; \n".into()
        }
        _ => String::new(),
    });
    let mut device = fake.device();
    let deadline = Instant::now() + Duration::from_secs(5);
    while device.last_event_at().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let at = device.last_event_at().expect("an event arrived");
    assert!(at <= device.clock().now());
}

#[test]
fn a_dump_blocked_by_the_events_stream_stops_the_stream() {
    let fake = Fake::start(|command, runs| match (command, runs) {
        ("uiautomator dump /dev/tty", 0) => {
            "java.lang.IllegalStateException: UiAutomationService already registered!\n".into()
        }
        ("uiautomator dump /dev/tty", _) => format!("{XML}UI hierchary dumped to: /dev/tty\n"),
        _ => String::new(),
    });
    let mut device = fake.device();
    assert_eq!(device.dump().unwrap(), XML);
    assert!(device.events_conflict);
    assert!(device.events.is_none());
    device.last_event_at();
    assert!(device.events.is_none(), "the stream stays off");
}
