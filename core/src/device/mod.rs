//! Devices tapscope drives: a phone over ADB, or the built-in simulated phone, behind one trait.

pub mod adb;
pub mod adb_command;
pub mod adb_output;
#[cfg(feature = "sim")]
pub mod adbd;
pub mod helper_wire;
pub mod host_service;
pub mod http_stream;
pub mod look;
pub mod shell_line;
pub mod shell_v2;
#[cfg(feature = "sim")]
pub mod sim;
pub mod sync_stream;
pub mod u2_rpc;

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::geometry::Point;
use crate::model::Size;
use crate::stability::Dumps;
use crate::stability::look::{Fallback, HelperFault, LookBackend};

/// The display as the device reports it: size in the current rotation, and the rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Display {
    pub size: Size,
    /// 0–3 quarter turns.
    pub rotation: u8,
}

/// How long a swipe's finger moves when no duration is given: what Android's own `input
/// swipe` takes, and so every swipe of tapscope's that names none (a scroll, a person's drag,
/// an agent's swipe without `duration_ms`).
pub const DEFAULT_SWIPE: Duration = Duration::from_millis(300);

/// Keys an agent or a person can press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Key {
    Back,
    Home,
    Recents,
    Enter,
    Delete,
    Tab,
    Search,
    VolumeUp,
    VolumeDown,
    Power,
}

impl Key {
    pub const ALL: [Key; 10] = [
        Key::Back,
        Key::Home,
        Key::Recents,
        Key::Enter,
        Key::Delete,
        Key::Tab,
        Key::Search,
        Key::VolumeUp,
        Key::VolumeDown,
        Key::Power,
    ];

    /// Android's `KEYCODE_*` number, as `input keyevent` takes it.
    pub fn keycode(self) -> u16 {
        match self {
            Key::Home => 3,
            Key::Back => 4,
            Key::VolumeUp => 24,
            Key::VolumeDown => 25,
            Key::Power => 26,
            Key::Tab => 61,
            Key::Enter => 66,
            Key::Delete => 67,
            Key::Search => 84,
            Key::Recents => 187,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Key::Back => "back",
            Key::Home => "home",
            Key::Recents => "recents",
            Key::Enter => "enter",
            Key::Delete => "delete",
            Key::Tab => "tab",
            Key::Search => "search",
            Key::VolumeUp => "volumeup",
            Key::VolumeDown => "volumedown",
            Key::Power => "power",
        }
    }

    /// The name as the tools' schemas and the manual spell it: words joined by `_`.
    /// Parsing accepts either spelling.
    fn spelled(self) -> &'static str {
        match self {
            Key::VolumeUp => "volume_up",
            Key::VolumeDown => "volume_down",
            other => other.name(),
        }
    }
}

impl std::str::FromStr for Key {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace(['_', '-', ' '], "");
        Key::ALL
            .into_iter()
            .find(|k| k.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = Key::ALL.iter().map(|k| k.spelled()).collect();
                format!("unknown key {s:?}: use one of {}", names.join(", "))
            })
    }
}

/// A screenshot as the device gave it.
#[derive(Clone)]
pub enum Capture {
    /// Encoded, the whole display, as phones send it (`screencap -p`).
    Png(Vec<u8>),
    /// Pixels not yet encoded, perhaps drawn smaller than the display (the sim): encoding
    /// is left to whoever needs a PNG, off the session's lock.
    Pixels {
        pixels: image::RgbImage,
        /// The display they show.
        display: Size,
    },
}

/// Sizes rather than contents: a screenshot is megabytes.
impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Capture::Png(png) => write!(f, "Capture::Png({} bytes)", png.len()),
            Capture::Pixels { pixels, display } => write!(
                f,
                "Capture::Pixels({}x{} of {}x{})",
                pixels.width(),
                pixels.height(),
                display.width,
                display.height
            ),
        }
    }
}

impl Capture {
    /// The pixels, decoded if need be.
    pub fn image(&self) -> Result<image::DynamicImage, String> {
        match self {
            Capture::Png(png) => image::load_from_memory_with_format(png, image::ImageFormat::Png)
                .map_err(|e| e.to_string()),
            Capture::Pixels { pixels, .. } => Ok(image::DynamicImage::ImageRgb8(pixels.clone())),
        }
    }
}

/// Why a device could not do what was asked; each says what to do about it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeviceError {
    #[error(
        "no ADB server answers at {address}: start it with `adb start-server` (Android \
         platform-tools), then connect the phone"
    )]
    NoServer { address: String },
    #[error(
        "no device {wanted}: connect the phone by USB, enable USB debugging in Developer \
         options, and check `tapscope devices`"
    )]
    NoDevice { wanted: String },
    #[error("device {serial} is {state}: {advice}")]
    Unusable {
        serial: String,
        state: String,
        advice: String,
    },
    #[error("the device disconnected: {0}")]
    Disconnected(String),
    #[error("`{command}` failed on the device: {output}")]
    Command { command: String, output: String },
    #[error(
        "the screen never went idle: a dump waits until no accessibility event has come for \
         {}, and events kept coming for {} (a video, an animation or a live counter keeps \
         changing it): observe again once it is still, or use a screenshot",
        millis(*quiet),
        millis(*waited)
    )]
    NotIdle { quiet: Duration, waited: Duration },
    #[error("{} on {serial} {}: {advice}", helper.describe(), fault.describe())]
    Helper {
        serial: String,
        helper: LookBackend,
        fault: HelperFault,
        advice: String,
    },
    #[error("{0}")]
    InvalidInput(String),
    /// The device gives no log tapscope can read.
    #[error("{device}'s log cannot be read: {why}")]
    NoLog { device: String, why: String },
}

fn millis(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

/// A phone tapscope can observe and drive. Calls block: run them off async executors
/// and UI threads.
pub trait Device: Send {
    /// How a person names this device (`sim`, or the ADB serial).
    fn name(&self) -> String;
    /// The UI tree as uiautomator XML.
    fn dump(&mut self) -> Result<String, DeviceError>;
    /// A dump that gives up after `limit` ([`DeviceError::NotIdle`] when it was still
    /// waiting for the screen to go idle). Devices whose dumps return at once need not
    /// override it.
    fn dump_within(&mut self, limit: Duration) -> Result<String, DeviceError> {
        let _ = limit;
        self.dump()
    }
    /// What a dump of this device promises about the moment it shows; settling plans its
    /// dumps by it. Snapshots unless the device says otherwise.
    fn dumps(&self) -> Dumps {
        Dumps::Snapshot
    }
    /// The way this device reads its screen now (the simulated phone unless it says otherwise).
    fn look_backend(&self) -> LookBackend {
        LookBackend::Sim
    }
    /// A helper that failed a look since this was last asked, and the way taken instead:
    /// each said once.
    fn take_fallback(&mut self) -> Option<Fallback> {
        None
    }
    /// A PNG screenshot of the whole display.
    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError>;
    /// A screenshot as cheaply as the device gives one, for a picture at most
    /// `longest_side` pixels long: the whole display's PNG unless the device can do better.
    fn capture(&mut self, longest_side: u32) -> Result<Capture, DeviceError> {
        let _ = longest_side;
        self.screenshot_png().map(Capture::Png)
    }
    fn display(&mut self) -> Result<Display, DeviceError>;
    fn tap(&mut self, at: Point) -> Result<(), DeviceError>;
    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError>;
    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError>;
    fn input_text(&mut self, text: &str) -> Result<(), DeviceError>;
    fn key(&mut self, key: Key) -> Result<(), DeviceError>;
    /// When the latest accessibility event arrived, on the device's settle clock
    /// (see [`crate::stability::Clock`]); `None` if none has yet.
    fn last_event_at(&mut self) -> Option<Duration>;
    fn packages(&mut self) -> Result<Vec<String>, DeviceError>;
    fn launch(&mut self, package: &str) -> Result<(), DeviceError>;
    /// What `logcat` prints of `request` on the device (`request.command()`, threadtime).
    /// Devices without a log say so.
    fn logcat(&mut self, request: &crate::logcat::LogRequest) -> Result<String, DeviceError> {
        let _ = request;
        Err(DeviceError::NoLog {
            device: self.name(),
            why: "this device keeps no log".into(),
        })
    }
    /// The pid of `package`'s process while it runs (`pidof`), `None` when it does not.
    fn pid_of(&mut self, package: &str) -> Result<Option<u32>, DeviceError> {
        let _ = package;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn keys_parse_in_any_spelling_and_map_to_keycodes() {
        assert_eq!("Back".parse::<Key>(), Ok(Key::Back));
        assert_eq!("volume_up".parse::<Key>(), Ok(Key::VolumeUp));
        assert_eq!(Key::Recents.keycode(), 187);
        assert_eq!(Key::Enter.keycode(), 66);
        let err = "menu".parse::<Key>().unwrap_err();
        assert!(err.contains("back, home, recents"), "{err}");
        assert!(
            err.contains("search, volume_up, volume_down, power"),
            "{err}"
        );
        for key in Key::ALL {
            assert_eq!(key.name().parse::<Key>(), Ok(key));
            assert_eq!(key.spelled().parse::<Key>(), Ok(key));
        }
    }
}
