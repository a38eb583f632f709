//! Parsers of what `adb` and the device shell print: `adb devices -l`, `wm size`,
//! `pm list packages`, and `uiautomator events`. Each is tested on literal captured output.

use serde::Serialize;

use crate::model::Size;

/// One line of `adb devices -l`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeviceEntry {
    pub serial: String,
    pub state: DeviceState,
    /// `model:` from the `-l` details, when given.
    pub model: Option<String>,
    /// `transport_id:` from the `-l` details, when given: what `host:transport-id:N` and
    /// `host:tport:` name the device by.
    pub transport_id: Option<u64>,
}

/// The state column of `adb devices`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DeviceState {
    /// Ready for commands.
    Device,
    /// USB debugging not yet allowed on the phone.
    Unauthorized,
    Offline,
    /// The host lacks permission to open the USB device (udev rules).
    NoPermissions,
    Other(String),
}

impl DeviceState {
    /// What a person should do to make the device usable, if anything.
    pub fn advice(&self) -> Option<&'static str> {
        match self {
            DeviceState::Device => None,
            DeviceState::Unauthorized => {
                Some("unlock the phone and allow USB debugging from this computer")
            }
            DeviceState::Offline => Some("reconnect the cable, or run `adb reconnect`"),
            DeviceState::NoPermissions => {
                Some("add a udev rule for the phone (or run the adb server as root)")
            }
            DeviceState::Other(_) => Some("check the phone's connection"),
        }
    }
}

/// Parses `adb devices` or `adb devices -l`; banner and daemon lines are skipped.
pub fn parse_devices(output: &str) -> Vec<DeviceEntry> {
    output
        .lines()
        .map(str::trim)
        .filter(|line| {
            !line.is_empty() && !line.starts_with("List of devices") && !line.starts_with('*')
        })
        .filter_map(|line| {
            let (serial, rest) = line.split_once(char::is_whitespace)?;
            let rest = rest.trim_start();
            let (state, details) = if let Some(after) = rest.strip_prefix("no permissions") {
                (DeviceState::NoPermissions, after)
            } else {
                let (word, details) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let state = match word {
                    "device" => DeviceState::Device,
                    "unauthorized" => DeviceState::Unauthorized,
                    "offline" => DeviceState::Offline,
                    other => DeviceState::Other(other.to_owned()),
                };
                (state, details)
            };
            let field = |name: &str| {
                details
                    .split_whitespace()
                    .find_map(|field| field.strip_prefix(name))
            };
            Some(DeviceEntry {
                serial: serial.to_owned(),
                state,
                model: field("model:").map(str::to_owned),
                transport_id: field("transport_id:").and_then(|id| id.parse().ok()),
            })
        })
        .collect()
}

/// Parses `wm size`: the override size when one is set, else the physical size.
pub fn parse_wm_size(output: &str) -> Option<Size> {
    let size_after = |label: &str| {
        output.lines().find_map(|line| {
            let value = line.trim().strip_prefix(label)?.trim();
            let (w, h) = value.split_once('x')?;
            Some(Size {
                width: w.trim().parse().ok()?,
                height: h.trim().parse().ok()?,
            })
        })
    };
    size_after("Override size:").or_else(|| size_after("Physical size:"))
}

/// Parses `pm list packages` (with or without `-f`), sorted and without duplicates.
pub fn parse_packages(output: &str) -> Vec<String> {
    let mut packages: Vec<String> = output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("package:"))
        .map(|entry| {
            entry
                .rsplit_once('=')
                .map_or(entry, |(_, name)| name)
                .to_owned()
        })
        .filter(|name| !name.is_empty())
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

/// One accessibility event from `uiautomator events`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccessibilityEvent {
    /// `TYPE_WINDOW_CONTENT_CHANGED`, `TYPE_VIEW_SCROLLED`, …
    pub kind: String,
    /// The device's uptime in milliseconds when the event fired.
    pub time_ms: Option<u64>,
    pub package: Option<String>,
}

/// Parses one line of `uiautomator events`; lines that are not events give `None`.
pub fn parse_event(line: &str) -> Option<AccessibilityEvent> {
    let field = |name: &str| {
        let start = line.find(&format!("{name}: "))? + name.len() + 2;
        let value = line[start..].split(';').next()?.trim();
        (!value.is_empty() && value != "null").then(|| value.to_owned())
    };
    Some(AccessibilityEvent {
        kind: field("EventType")?,
        time_ms: field("EventTime").and_then(|t| t.parse().ok()),
        package: field("PackageName"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_list_with_every_state() {
        let output = "* daemon not running; starting now at tcp:5037\n\
* daemon started successfully\n\
List of devices attached\n\
emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n\
R58M12345AB            unauthorized usb:1-1 transport_id:2\n\
0123456789ABCDEF       offline transport_id:3\n\
ZY2242ABCD             no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-2\n\
192.168.1.5:5555	device\n\n";
        let devices = parse_devices(output);
        assert_eq!(devices.len(), 5);
        assert_eq!(devices[0].serial, "emulator-5554");
        assert_eq!(devices[0].state, DeviceState::Device);
        assert_eq!(devices[0].model.as_deref(), Some("sdk_gphone64_x86_64"));
        assert_eq!(devices[1].state, DeviceState::Unauthorized);
        assert!(
            devices[1]
                .state
                .advice()
                .unwrap()
                .contains("allow USB debugging")
        );
        assert_eq!(devices[2].state, DeviceState::Offline);
        assert_eq!(devices[2].transport_id, Some(3));
        assert_eq!(devices[3].state, DeviceState::NoPermissions);
        assert_eq!(devices[4].serial, "192.168.1.5:5555");
        assert_eq!((&devices[4].model, devices[4].transport_id), (&None, None));
        assert!(parse_devices("List of devices attached\n\n").is_empty());
    }

    #[test]
    fn wm_size_prefers_the_override() {
        assert_eq!(
            parse_wm_size("Physical size: 1080x2400\n"),
            Some(Size {
                width: 1080,
                height: 2400
            })
        );
        let both = "Physical size: 1440x3120\r\nOverride size: 1080x2340\r\n";
        assert_eq!(
            parse_wm_size(both),
            Some(Size {
                width: 1080,
                height: 2340
            })
        );
        assert_eq!(parse_wm_size("error: no devices/emulators found"), None);
        assert_eq!(parse_wm_size("Physical size: 1080x"), None);
    }

    #[test]
    fn package_lists_in_both_forms() {
        let plain = "package:com.android.settings\npackage:com.google.android.youtube\npackage:com.android.settings\n";
        assert_eq!(
            parse_packages(plain),
            ["com.android.settings", "com.google.android.youtube"]
        );
        let with_paths = "package:/data/app/~~Xy1==/com.whatsapp-AbC==/base.apk=com.whatsapp\n\
package:/system/priv-app/Settings/Settings.apk=com.android.settings\n";
        assert_eq!(
            parse_packages(with_paths),
            ["com.android.settings", "com.whatsapp"]
        );
        assert!(parse_packages("Error: java.lang.SecurityException\n").is_empty());
    }

    #[test]
    fn events_lines_and_noise() {
        let line = "EventType: TYPE_WINDOW_CONTENT_CHANGED; EventTime: 6203467; PackageName: com.android.launcher3; \
MovementGranularity: 0; Action: 0; ContentChangeTypes: [CONTENT_CHANGE_TYPE_SUBTREE]; WindowChangeTypes: [] \
[ ClassName: android.widget.FrameLayout; Text: []; ContentDescription: null; ItemCount: -1 ]";
        assert_eq!(
            parse_event(line),
            Some(AccessibilityEvent {
                kind: "TYPE_WINDOW_CONTENT_CHANGED".into(),
                time_ms: Some(6203467),
                package: Some("com.android.launcher3".into()),
            })
        );
        let scrolled = "EventType: TYPE_VIEW_SCROLLED; EventTime: 77; PackageName: null; ";
        assert_eq!(parse_event(scrolled).unwrap().package, None);
        assert_eq!(parse_event("Events are printed until interrupted"), None);
        assert_eq!(parse_event(""), None);
    }
}
