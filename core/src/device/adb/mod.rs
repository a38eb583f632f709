//! `AdbDevice`: a phone driven through a running ADB server with the `adb_client` crate.
//!
//! Every call blocks on the network: run it on a blocking thread (`std::thread`,
//! `tokio::task::spawn_blocking`), never on an async executor or the UI thread.

mod events;
mod server;
pub mod shell;
#[cfg(test)]
mod tests;

use std::net::SocketAddrV4;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use adb_client::server_device::ADBServerDevice;
use adb_client::{ADBDeviceExt, RustADBError};

use self::events::EventStream;
pub use self::server::{list_devices, server_address};
use self::shell::{
    DumpOutput, choose_device, clean_dump, input_text_commands, is_package_name, parse_orientation,
    state_word,
};
use super::adb_output::{DeviceState, parse_packages, parse_wm_size};
use super::{Device, DeviceError, Display, Key};
use crate::geometry::Point;
use crate::model::Size;
use crate::stability::RealClock;

const DUMP_ATTEMPTS: usize = 3;
const DUMP_RETRY_PAUSE: Duration = Duration::from_millis(300);
/// How long a stopped events stream waits before it is opened again.
const EVENTS_RETRY: Duration = Duration::from_secs(2);
const DUMP_TO_TTY: &str = "uiautomator dump /dev/tty";
const DUMP_TO_FILE: &str = "rm -f /sdcard/window_dump.xml; uiautomator dump /sdcard/window_dump.xml; cat /sdcard/window_dump.xml";

/// A phone behind a running ADB server. Blocking: see the module documentation.
#[derive(Debug)]
pub struct AdbDevice {
    serial: String,
    address: SocketAddrV4,
    inner: ADBServerDevice,
    clock: RealClock,
    /// Nanoseconds on `clock` of the latest accessibility event, plus one; 0 for none.
    last_event: Arc<AtomicU64>,
    events: Option<EventStream>,
    events_opened: Option<Instant>,
    /// Set when `uiautomator events` kept `uiautomator dump` from running: the device
    /// allows one UiAutomation client, and the dump matters more.
    events_conflict: bool,
    /// Set once `/dev/tty` gave no dump, so later dumps go straight to a file.
    dump_to_file: bool,
}

impl AdbDevice {
    /// Opens the device with this serial, or the only device when `serial` is `None`,
    /// on the server named by adb's environment variables.
    pub fn connect(serial: Option<&str>) -> Result<Self, DeviceError> {
        Self::connect_at(server_address()?, serial)
    }

    pub fn connect_at(address: SocketAddrV4, serial: Option<&str>) -> Result<Self, DeviceError> {
        let serial = choose_device(&list_devices(address)?, serial)?;
        let mut device = Self {
            inner: ADBServerDevice::new(serial.clone(), Some(address)),
            serial,
            address,
            clock: RealClock::new(),
            last_event: Arc::new(AtomicU64::new(0)),
            events: None,
            events_opened: None,
            events_conflict: false,
            dump_to_file: false,
        };
        device.ensure_events();
        Ok(device)
    }

    /// The clock [`Device::last_event_at`] reads: time since the device was opened.
    pub fn clock(&self) -> RealClock {
        self.clock
    }

    /// Runs a shell command; stdout and stderr together, or why it could not run.
    fn shell(&mut self, command: &str) -> Result<Vec<u8>, DeviceError> {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let status = self
            .inner
            .shell_command(&command, Some(&mut out), Some(&mut err))
            .map_err(|e| self.error(command, e))?;
        out.extend_from_slice(&err);
        match status {
            Some(code) if code != 0 => Err(DeviceError::Command {
                command: command.to_owned(),
                output: format!(
                    "exit status {code}: {}",
                    String::from_utf8_lossy(&out).trim()
                ),
            }),
            _ => Ok(out),
        }
    }

    fn shell_text(&mut self, command: &str) -> Result<String, DeviceError> {
        Ok(String::from_utf8_lossy(&self.shell(command)?).into_owned())
    }

    /// Runs an `input` command; old Androids print errors and still exit 0.
    fn input(&mut self, command: &str) -> Result<(), DeviceError> {
        let output = self.shell_text(command)?;
        if output.contains("Exception") || output.trim_start().starts_with("Error") {
            return Err(DeviceError::Command {
                command: command.to_owned(),
                output: output.trim().to_owned(),
            });
        }
        Ok(())
    }

    fn error(&self, command: &str, error: RustADBError) -> DeviceError {
        let message = match error {
            RustADBError::IOError(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                return DeviceError::NoServer {
                    address: self.address.to_string(),
                };
            }
            RustADBError::IOError(e) => return DeviceError::Disconnected(e.to_string()),
            RustADBError::ADBRequestFailed(m) | RustADBError::DeviceNotFound(m) => m,
            other => other.to_string(),
        };
        let unusable = |state: DeviceState| DeviceError::Unusable {
            serial: self.serial.clone(),
            state: state_word(&state),
            advice: state.advice().unwrap_or_default().to_owned(),
        };
        if message.contains("not found") {
            DeviceError::NoDevice {
                wanted: format!("with serial {}", self.serial),
            }
        } else if message.contains("unauthorized") {
            unusable(DeviceState::Unauthorized)
        } else if message.contains("offline") {
            unusable(DeviceState::Offline)
        } else {
            DeviceError::Command {
                command: command.to_owned(),
                output: message,
            }
        }
    }

    /// (Re)opens the events stream when it is not running, at most every few seconds.
    fn ensure_events(&mut self) {
        if self.events_conflict || self.events.as_ref().is_some_and(EventStream::is_running) {
            return;
        }
        if self
            .events_opened
            .is_some_and(|at| at.elapsed() < EVENTS_RETRY)
        {
            return;
        }
        self.events_opened = Some(Instant::now());
        self.events = EventStream::start(
            self.address,
            &self.serial,
            self.clock,
            self.last_event.clone(),
        )
        .ok();
    }

    fn dump_once(&mut self, command: &str) -> Result<DumpOutput, DeviceError> {
        // A failed dump exits non-zero; its output says why, so read it either way.
        match self.shell_text(command) {
            Ok(output) => Ok(clean_dump(&output)),
            Err(DeviceError::Command { output, .. }) => Ok(clean_dump(&output)),
            Err(e) => Err(e),
        }
    }
}

impl Drop for AdbDevice {
    fn drop(&mut self) {
        if let Some(events) = self.events.take() {
            events.stop();
        }
    }
}

impl Device for AdbDevice {
    fn name(&self) -> String {
        self.serial.clone()
    }

    fn dump(&mut self) -> Result<String, DeviceError> {
        let mut last = DumpOutput::Failed(String::new());
        for attempt in 0..DUMP_ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(DUMP_RETRY_PAUSE);
            }
            let mut output = if self.dump_to_file {
                self.dump_once(DUMP_TO_FILE)?
            } else {
                self.dump_once(DUMP_TO_TTY)?
            };
            if !self.dump_to_file && matches!(output, DumpOutput::Failed(_)) {
                // Some devices refuse /dev/tty; a file on the device works everywhere.
                output = self.dump_once(DUMP_TO_FILE)?;
                self.dump_to_file = matches!(output, DumpOutput::Xml(_));
            }
            match output {
                DumpOutput::Xml(xml) => return Ok(xml),
                DumpOutput::Busy => {
                    self.events_conflict = true;
                    if let Some(events) = self.events.take() {
                        events.stop();
                    }
                }
                DumpOutput::NotIdle | DumpOutput::Failed(_) => {}
            }
            last = output;
        }
        let output = match last {
            DumpOutput::NotIdle => format!(
                "could not get idle state after {DUMP_ATTEMPTS} tries: the screen keeps \
                 changing (an animation or a video); try again when it is still"
            ),
            DumpOutput::Busy => "another UiAutomation client (Appium, a test, a `uiautomator` \
                                 still ending) holds the accessibility service: stop it or \
                                 try again"
                .to_owned(),
            DumpOutput::Failed(text) | DumpOutput::Xml(text) => text,
        };
        Err(DeviceError::Command {
            command: "uiautomator dump".to_owned(),
            output,
        })
    }

    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        let png = self.shell("screencap -p")?;
        if !png.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Err(DeviceError::Command {
                command: "screencap -p".to_owned(),
                output: String::from_utf8_lossy(&png[..png.len().min(400)]).into_owned(),
            });
        }
        Ok(png)
    }

    fn display(&mut self) -> Result<Display, DeviceError> {
        let output = self.shell_text("wm size")?;
        let natural = parse_wm_size(&output).ok_or_else(|| DeviceError::Command {
            command: "wm size".to_owned(),
            output: output.trim().to_owned(),
        })?;
        // grep exits 1 when nothing matches; the rotation is then taken as 0.
        let rotation = match self.shell_text("dumpsys input | grep SurfaceOrientation") {
            Ok(text) => parse_orientation(&text),
            Err(DeviceError::Command { .. }) => 0,
            Err(e) => return Err(e),
        };
        // `wm size` is the natural (portrait) size; a quarter turn swaps the sides.
        let size = if rotation % 2 == 1 {
            Size {
                width: natural.height,
                height: natural.width,
            }
        } else {
            natural
        };
        Ok(Display { size, rotation })
    }

    fn tap(&mut self, at: Point) -> Result<(), DeviceError> {
        check_point(at)?;
        self.input(&format!("input tap {} {}", at.x, at.y))
    }

    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError> {
        self.swipe(at, at, duration)
    }

    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError> {
        check_point(from)?;
        check_point(to)?;
        self.input(&format!(
            "input swipe {} {} {} {} {}",
            from.x,
            from.y,
            to.x,
            to.y,
            duration.as_millis()
        ))
    }

    fn input_text(&mut self, text: &str) -> Result<(), DeviceError> {
        for command in input_text_commands(text)? {
            self.input(&command)?;
        }
        Ok(())
    }

    fn key(&mut self, key: Key) -> Result<(), DeviceError> {
        self.input(&format!("input keyevent {}", key.keycode()))
    }

    fn last_event_at(&mut self) -> Option<Duration> {
        self.ensure_events();
        match self.last_event.load(Ordering::SeqCst) {
            0 => None,
            nanos => Some(Duration::from_nanos(nanos - 1)),
        }
    }

    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        Ok(parse_packages(&self.shell_text("pm list packages")?))
    }

    fn launch(&mut self, package: &str) -> Result<(), DeviceError> {
        if !is_package_name(package) {
            return Err(DeviceError::InvalidInput(format!(
                "{package:?} is not a package name (letters, digits, `_` and `.`, as \
                 `tapscope` lists them)"
            )));
        }
        let command = format!("monkey -p {package} -c android.intent.category.LAUNCHER 1");
        let output = self.shell_text(&command)?;
        if output.contains("No activities found") || output.contains("monkey aborted") {
            return Err(DeviceError::Command {
                command,
                output: format!("{package} is not installed or has no launcher activity"),
            });
        }
        Ok(())
    }
}

fn check_point(at: Point) -> Result<(), DeviceError> {
    if at.x < 0 || at.y < 0 {
        return Err(DeviceError::InvalidInput(format!(
            "{at} is outside the display: coordinates start at (0, 0)"
        )));
    }
    Ok(())
}
