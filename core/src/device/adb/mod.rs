//! `AdbDevice`: a phone driven through a running ADB server, whose host protocol and shell
//! protocol v2 are spoken directly (`adb::server`): every command has a deadline and an exit
//! status.
//!
//! Every call blocks on the network: run it on a blocking thread (`std::thread`,
//! `tokio::task::spawn_blocking`), never on an async executor or the UI thread.

pub mod helper;
mod looks;
mod mobilecli;
mod push;
mod server;
mod socket;
#[cfg(test)]
mod tests;
pub mod text;
mod u2;

use std::net::SocketAddrV4;
use std::time::{Duration, Instant};

use self::looks::Looks;
use self::server::{Output, Ran};
pub use self::server::{list_devices, server_address};
use self::text::{
    DumpOutput, choose_device, clean_dump, input_text_commands, is_package_name, parse_orientation,
    state_word,
};
use super::adb_output::{DeviceState, parse_packages, parse_wm_size};
use super::{Device, DeviceError, Display, Key};
use crate::geometry::Point;
use crate::model::Size;
use crate::stability::look::{Fallback, LookBackend, LookChoice};
use crate::stability::{Dumps, RealClock};

const DUMP_ATTEMPTS: usize = 3;
const DUMP_RETRY_PAUSE: Duration = Duration::from_millis(300);
/// Stock `uiautomator dump` waits until no accessibility event came for this long.
const DUMP_QUIET: Duration = Duration::from_millis(1000);
/// The least a stock dump spends before it begins watching: adb's round trip and the
/// JVM start of `uiautomator` (300 ms at the fastest in public measurements).
const DUMP_WATCHES_AFTER: Duration = Duration::from_millis(300);
/// The longest any other command may take (a screenshot of a large display is the slowest).
const COMMAND_LIMIT: Duration = Duration::from_secs(30);
/// A dump's own limit: its 10 s idle timeout, its start, and the write of a large tree.
const DUMP_LIMIT: Duration = Duration::from_secs(20);
/// Ends a dump the caller stopped waiting for, which would hold UiAutomation until its
/// own 10 s timeout and make the next dump fail. Only dumps match.
const KILL_DUMPS: &str = "pkill -f 'uiautomator.Launcher dump'";
const DUMP_TO_TTY: &str = "uiautomator dump /dev/tty";
/// The display's rotation: `SurfaceOrientation` before Android 14, `InputDeviceOrientation` after.
const ORIENTATION: &str = "dumpsys input | grep -E 'SurfaceOrientation|InputDeviceOrientation'";
const DUMP_TO_FILE: &str = "rm -f /sdcard/window_dump.xml; uiautomator dump /sdcard/window_dump.xml; cat /sdcard/window_dump.xml";

/// A phone behind a running ADB server. Blocking: see the module documentation.
#[derive(Debug)]
pub struct AdbDevice {
    serial: String,
    address: SocketAddrV4,
    clock: RealClock,
    /// Set once `/dev/tty` gave no dump, so later dumps go straight to a file.
    dump_to_file: bool,
    looks: Looks,
}

impl AdbDevice {
    /// Opens the device with this serial, or the only device when `serial` is `None`,
    /// on the server named by adb's environment variables.
    pub fn connect(serial: Option<&str>) -> Result<Self, DeviceError> {
        Self::connect_at(server_address()?, serial)
    }

    /// Opens the device as [`AdbDevice::connect`] does, on the server at `address`,
    /// looking with stock dumps only.
    pub fn connect_at(address: SocketAddrV4, serial: Option<&str>) -> Result<Self, DeviceError> {
        let serial = choose_device(&list_devices(address)?, serial)?;
        Ok(Self {
            serial,
            address,
            clock: RealClock::new(),
            dump_to_file: false,
            looks: Looks::stock(),
        })
    }

    /// Opens the device and finds the ways to look that `choice` allows and that answer
    /// (`Auto`: the fastest helper running on the phone, else stock dumps).
    pub fn connect_looking(
        address: SocketAddrV4,
        serial: Option<&str>,
        choice: LookChoice,
    ) -> Result<Self, DeviceError> {
        let mut device = Self::connect_at(address, serial)?;
        device.find_looks(choice)?;
        Ok(device)
    }

    /// The session's clock for this device: time since it was opened.
    pub fn clock(&self) -> RealClock {
        self.clock
    }

    /// Runs `command` until it ends or `deadline`; why it could not run otherwise.
    fn run(&self, command: &str, deadline: Instant) -> Result<Ran, DeviceError> {
        server::run(self.address, &self.serial, command, deadline)
            .map_err(|e| self.io_error(command, e))
    }

    /// Runs a shell command; stdout and stderr together, or why it failed (a non-zero
    /// exit status among them).
    fn shell(&mut self, command: &str) -> Result<Vec<u8>, DeviceError> {
        let Ran::Done(Output {
            mut stdout,
            stderr,
            status,
        }) = self.run(command, Instant::now() + COMMAND_LIMIT)?
        else {
            return Err(DeviceError::Command {
                command: command.to_owned(),
                output: format!("no answer within {} s", COMMAND_LIMIT.as_secs()),
            });
        };
        stdout.extend_from_slice(&stderr);
        match status {
            Some(code) if code != 0 => Err(DeviceError::Command {
                command: command.to_owned(),
                output: format!(
                    "exit status {code}: {}",
                    String::from_utf8_lossy(&stdout).trim()
                ),
            }),
            _ => Ok(stdout),
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

    /// What a failure to speak to the server means: no server, a refusal, a lost link.
    fn io_error(&self, command: &str, error: std::io::Error) -> DeviceError {
        match error.kind() {
            std::io::ErrorKind::ConnectionRefused => DeviceError::NoServer {
                address: self.address.to_string(),
            },
            // The server's FAIL reply arrives as an `Other` error carrying its reason.
            std::io::ErrorKind::Other => self.refused(command, error.to_string()),
            _ => DeviceError::Disconnected(error.to_string()),
        }
    }

    /// What the server's refusal `message` means for this device.
    fn refused(&self, command: &str, message: String) -> DeviceError {
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
        } else if message.contains("offline") && self.serial.contains(':') {
            // Connected over the network (`adb connect`), not by a cable.
            DeviceError::Unusable {
                serial: self.serial.clone(),
                state: "offline".into(),
                advice: format!(
                    "check that it still runs, then `adb connect {}` again",
                    self.serial
                ),
            }
        } else if message.contains("offline") {
            unusable(DeviceState::Offline)
        } else {
            DeviceError::Command {
                command: command.to_owned(),
                output: message,
            }
        }
    }

    /// One dump by `command`, given up at `deadline` (the dump is then ended on the device).
    fn dump_once(&mut self, command: &str, deadline: Instant) -> Result<DumpOutput, DeviceError> {
        let started = Instant::now();
        match self.run(command, deadline)? {
            // A failed dump still prints why, and may exit 0: the output tells.
            Ran::Done(Output {
                mut stdout, stderr, ..
            }) => {
                stdout.extend_from_slice(&stderr);
                Ok(clean_dump(&String::from_utf8_lossy(&stdout)))
            }
            Ran::TimedOut => {
                let _ = self.run(KILL_DUMPS, Instant::now() + DUMP_RETRY_PAUSE);
                Err(DeviceError::NotIdle {
                    quiet: DUMP_QUIET,
                    waited: started.elapsed(),
                })
            }
        }
    }

    /// One stock `uiautomator dump` (to `/dev/tty`, else a file), tried again while
    /// UiAutomation is briefly held, given up at `limit`.
    fn stock_dump_within(&mut self, limit: Duration) -> Result<String, DeviceError> {
        let deadline = Instant::now() + limit;
        let mut last = DumpOutput::Failed(String::new());
        for attempt in 0..DUMP_ATTEMPTS {
            if attempt > 0 {
                let left = deadline.saturating_duration_since(Instant::now());
                std::thread::sleep(DUMP_RETRY_PAUSE.min(left));
            }
            let command = if self.dump_to_file {
                DUMP_TO_FILE
            } else {
                DUMP_TO_TTY
            };
            let mut output = self.dump_once(command, deadline)?;
            if !self.dump_to_file && matches!(output, DumpOutput::Failed(_)) {
                // Some devices refuse /dev/tty; a file on the device works everywhere.
                output = self.dump_once(DUMP_TO_FILE, deadline)?;
                self.dump_to_file = matches!(output, DumpOutput::Xml(_));
            }
            match output {
                DumpOutput::Xml(xml) => return Ok(xml),
                // It waited its own 10 s already: another try would wait as long.
                DumpOutput::NotIdle => {
                    return Err(DeviceError::NotIdle {
                        quiet: DUMP_QUIET,
                        waited: Duration::from_secs(10),
                    });
                }
                // Another client (or a dump still ending) holds UiAutomation: try again.
                DumpOutput::Busy | DumpOutput::Failed(_) => {}
            }
            last = output;
        }
        let output = match last {
            DumpOutput::Busy => "another UiAutomation client (uiautomator2's server, Appium, a \
                                 test, `uiautomator events`, a dump still ending) holds the \
                                 accessibility service: look through it with --look auto, stop \
                                 it, or try again"
                .to_owned(),
            DumpOutput::Failed(text) | DumpOutput::Xml(text) => text,
            DumpOutput::NotIdle => String::new(),
        };
        Err(DeviceError::Command {
            command: "uiautomator dump".to_owned(),
            output,
        })
    }
}

impl Device for AdbDevice {
    fn name(&self) -> String {
        self.serial.clone()
    }

    fn dump(&mut self) -> Result<String, DeviceError> {
        self.dump_within(DUMP_LIMIT)
    }

    fn dump_within(&mut self, limit: Duration) -> Result<String, DeviceError> {
        self.look_within(limit)
    }

    /// Snapshots through a helper; a stock dump waits for idle itself, so one dump
    /// settles an action.
    fn dumps(&self) -> Dumps {
        match self.looks.current() {
            LookBackend::Stock => Dumps::AfterIdle {
                quiet: DUMP_QUIET,
                watches_after: DUMP_WATCHES_AFTER,
            },
            _ => Dumps::Snapshot,
        }
    }

    fn look_backend(&self) -> LookBackend {
        self.looks.current()
    }

    fn take_fallback(&mut self) -> Option<Fallback> {
        self.looks.take_fallback()
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
        let rotation = match self.shell_text(ORIENTATION) {
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

    /// None: `uiautomator events` would hold the one UiAutomation connection and make
    /// every dump fail, and the dump waits for idle itself.
    fn last_event_at(&mut self) -> Option<Duration> {
        None
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
        // Monkey says so and may still exit 0 when nothing could be launched.
        let output = match self.shell_text(&command) {
            Ok(output) | Err(DeviceError::Command { output, .. }) => output,
            Err(e) => return Err(e),
        };
        if output.contains("No activities found") || output.contains("monkey aborted") {
            return Err(DeviceError::Command {
                command,
                output: format!("{package} is not installed or has no launcher activity"),
            });
        }
        if output.starts_with("exit status") {
            return Err(DeviceError::Command { command, output });
        }
        Ok(())
    }

    /// `logcat -d …` through the shell: a dump of what the buffers hold, so it ends
    /// however fast the phone logs.
    fn logcat(&mut self, request: &crate::logcat::LogRequest) -> Result<String, DeviceError> {
        self.shell_text(&request.command()).map_err(|e| match e {
            DeviceError::Command { command, output } => DeviceError::NoLog {
                device: self.serial.clone(),
                why: format!("`{command}` failed: {output}"),
            },
            other => other,
        })
    }

    /// `pidof PACKAGE` (toybox, Android 7 and later), which exits 1 when none runs.
    fn pid_of(&mut self, package: &str) -> Result<Option<u32>, DeviceError> {
        if !is_package_name(package) {
            return Err(DeviceError::InvalidInput(format!(
                "{package:?} is not a package name (letters, digits, `_` and `.`)"
            )));
        }
        match self.shell_text(&format!("pidof {package}")) {
            Ok(out) => Ok(out.split_whitespace().next().and_then(|p| p.parse().ok())),
            Err(DeviceError::Command { .. }) => Ok(None),
            Err(e) => Err(e),
        }
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
