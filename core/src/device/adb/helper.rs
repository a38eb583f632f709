//! Starting and stopping uiautomator2's server on a phone, as uiautomator2's own client
//! does: its `u2.jar` pushed to `/data/local/tmp`, `app_process` run over a shell that is
//! kept open, ready once `/ping` answers. A server tapscope started is stopped when its
//! [`RunningU2`] is dropped, so nothing is left holding UiAutomation unasked.

use std::io::{ErrorKind, Read};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use super::{AdbDevice, server, u2};
use crate::device::DeviceError;
use crate::stability::look::{HelperFault, LookBackend};

/// Where uiautomator2's client puts the server's jar, and where `app_process` finds it.
pub const U2_JAR_ON_DEVICE: &str = "/data/local/tmp/u2.jar";
/// The server's main class (uiautomator2 3.x, `u2.jar` 0.4).
pub const U2_MAIN: &str = "com.wetest.uia2.Main";
/// How long a start may take before the server answers (the client's own limit).
const READY_LIMIT: Duration = Duration::from_secs(30);
/// How long each wait for the server's output lasts between pings.
const PING_EVERY: Duration = Duration::from_millis(250);
const STOP_LIMIT: Duration = Duration::from_secs(10);
/// The most of the server's start output kept.
const MAX_OUTPUT: usize = 64 * 1024;

/// How a start ended.
#[derive(Debug)]
pub enum U2Start {
    /// A server already answered: nothing was pushed or started.
    AlreadyRunning,
    /// Started by tapscope: it runs until this is dropped.
    Started(RunningU2),
}

/// uiautomator2's server that tapscope started: stopped when dropped.
#[derive(Debug)]
pub struct RunningU2 {
    shell: TcpStream,
    device: AdbDevice,
    /// What the server printed while starting.
    pub output: String,
}

impl RunningU2 {
    /// Whether the server still runs (its shell is open).
    pub fn is_running(&mut self) -> bool {
        let _ = self.shell.set_nonblocking(true);
        let mut byte = [0u8; 256];
        let open = match self.shell.read(&mut byte) {
            Ok(0) => false,
            Ok(_) => true,
            Err(e) => e.kind() == ErrorKind::WouldBlock,
        };
        let _ = self.shell.set_nonblocking(false);
        open
    }
}

impl Drop for RunningU2 {
    fn drop(&mut self) {
        let _ = self.shell.shutdown(Shutdown::Both);
        let _ = self.device.stop_u2();
    }
}

impl AdbDevice {
    /// Whether uiautomator2's server answers on this phone.
    pub fn u2_answers(&self) -> bool {
        u2::ping(
            self.address,
            &self.serial,
            Instant::now() + Duration::from_secs(2),
        )
        .is_ok()
    }

    /// Pushes `jar` (uiautomator2's `assets/u2.jar`) and starts its server, unless one
    /// already answers; returns once it answers `/ping`.
    pub fn start_u2(&self, jar: &[u8]) -> Result<U2Start, DeviceError> {
        if self.u2_answers() {
            return Ok(U2Start::AlreadyRunning);
        }
        let failed = |output: String| DeviceError::Command {
            command: format!("app_process / {U2_MAIN}"),
            output,
        };
        super::push::push(self.address, &self.serial, U2_JAR_ON_DEVICE, 0o644, jar)
            .map_err(|e| failed(format!("pushing {U2_JAR_ON_DEVICE}: {e}")))?;
        let command = format!(
            "CLASSPATH={U2_JAR_ON_DEVICE} app_process / {U2_MAIN} -p {}",
            u2::PORT
        );
        let mut shell = server::open(self.address).map_err(|e| failed(e.to_string()))?;
        server::request(&mut shell, &format!("host:transport:{}", self.serial))
            .and_then(|()| server::request(&mut shell, &format!("shell:{command}")))
            .map_err(|e| failed(e.to_string()))?;
        let deadline = Instant::now() + READY_LIMIT;
        let mut output = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            shell
                .set_read_timeout(Some(PING_EVERY))
                .map_err(|e| failed(e.to_string()))?;
            match shell.read(&mut buffer) {
                Ok(0) => {
                    return Err(failed(format!(
                        "the server quit while starting: {}",
                        String::from_utf8_lossy(&output).trim()
                    )));
                }
                Ok(n) => {
                    let room = MAX_OUTPUT.saturating_sub(output.len());
                    output.extend_from_slice(&buffer[..n.min(room)]);
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) => return Err(failed(e.to_string())),
            }
            let said = String::from_utf8_lossy(&output).into_owned();
            if said.contains("already registered") {
                return Err(DeviceError::Helper {
                    serial: self.serial.clone(),
                    helper: LookBackend::U2,
                    fault: HelperFault::Refused,
                    advice: "another UiAutomation client holds the accessibility service \
                             (Appium, a test, a dump): stop it, then start again"
                        .to_owned(),
                });
            }
            if self.u2_answers() {
                let device = AdbDevice {
                    serial: self.serial.clone(),
                    address: self.address,
                    clock: self.clock,
                    dump_to_file: false,
                    looks: super::looks::Looks::stock(),
                };
                return Ok(U2Start::Started(RunningU2 {
                    shell,
                    device,
                    output: said,
                }));
            }
            if Instant::now() >= deadline {
                return Err(failed(format!(
                    "no answer on port {} within {} s: {}",
                    u2::PORT,
                    READY_LIMIT.as_secs(),
                    said.trim()
                )));
            }
        }
    }

    /// Stops every uiautomator2 server on the phone, so stock dumps work again; whether one
    /// was answering.
    pub fn stop_u2(&self) -> Result<bool, DeviceError> {
        let was_running = self.u2_answers();
        // pkill exits 1 when nothing matched: not a failure here.
        let _ = server::run(
            self.address,
            &self.serial,
            &format!("pkill -f {U2_MAIN}"),
            Instant::now() + STOP_LIMIT,
        )
        .map_err(|e| DeviceError::Disconnected(e.to_string()))?;
        let deadline = Instant::now() + STOP_LIMIT;
        while self.u2_answers() {
            if Instant::now() >= deadline {
                return Err(DeviceError::Command {
                    command: format!("pkill -f {U2_MAIN}"),
                    output: format!(
                        "uiautomator2's server still answers after {} s",
                        STOP_LIMIT.as_secs()
                    ),
                });
            }
            std::thread::sleep(PING_EVERY);
        }
        Ok(was_running)
    }
}
