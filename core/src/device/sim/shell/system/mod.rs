//! The system services' commands as a stock Android 14 phone prints them, with the exact
//! shapes tools parse (adbutils, uiautomator2, mobile-mcp, tapscope's own ADB device): `pm`
//! and `cmd package` ([`package`], [`install`], [`dumpsys_package`]), `am` and `cmd
//! activity` ([`activity`], resolving intents with [`intent`]), `dumpsys` ([`services`]:
//! `power`, `battery`; [`tasks`]: `activity`; [`window`]: `window`, `display`, `input`),
//! `settings` and the settings provider ([`settings`], which also holds the display's
//! rotation), `getprop` ([`props`]); here `wm`, `monkey` and one line of `uiautomator
//! events`. What is installed and which activity each screen is: [`apps`].

mod activity;
mod apps;
mod dumpsys_package;
mod install;
mod intent;
mod package;
mod props;
mod resolve;
mod services;
mod settings;
mod settings_provider;
mod tasks;
#[cfg(test)]
mod tests;
mod window;

pub(super) use settings_provider::content as settings_content;

use super::{Io, SimShell};
use crate::device::Device;
use crate::device::sim::{Event, Sim};
use crate::stability::Clock;

pub(super) const PRODUCT: &str = "tapscope_sim";
pub(super) const MODEL: &str = "tapscope sim";
pub(super) const DEVICE: &str = "tapscope";
const SDK: &str = "34";
const RELEASE: &str = "14";
const DENSITY: u32 = 420;

pub(super) const INPUT_SOURCES: [&str; 8] = [
    "keyboard",
    "mouse",
    "joystick",
    "touchnavigation",
    "touchpad",
    "trackball",
    "stylus",
    "touchscreen",
];

pub(super) const INPUT_USAGE: &str = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\n\
The commands and default sources are:\n\
      text <string> (Default: keyboard)\n\
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n\
      tap <x> <y> (Default: touchscreen)\n\
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n";

/// The `KEYCODE_` names `input keyevent` takes, with their numbers.
pub(super) const KEYCODE_NAMES: [(&str, u16); 10] = [
    ("KEYCODE_HOME", 3),
    ("KEYCODE_BACK", 4),
    ("KEYCODE_VOLUME_UP", 24),
    ("KEYCODE_VOLUME_DOWN", 25),
    ("KEYCODE_POWER", 26),
    ("KEYCODE_TAB", 61),
    ("KEYCODE_ENTER", 66),
    ("KEYCODE_DEL", 67),
    ("KEYCODE_SEARCH", 84),
    ("KEYCODE_APP_SWITCH", 187),
];

/// Runs `wm`, `dumpsys`, `pm`, `am`, `settings`, `getprop` (a native or `cmd` command's
/// cost) or `monkey` (a Java one's).
pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    name: &str,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let phone = &shell.phone;
    match name {
        "monkey" => phone.java(|sim| monkey(sim, args, io)),
        _ => phone.native(|sim| match name {
            "wm" => wm(args, io),
            "dumpsys" => services::dumpsys(shell, sim, args, io),
            "pm" => package::pm(shell, sim, args, io),
            "am" => activity::am(shell, sim, args, io),
            "settings" => settings::run(shell, args, io),
            _ => props::getprop(args, io),
        }),
    }
}

/// `wm size` (the physical size, whatever the rotation, as on a phone) and `wm density`.
fn wm(args: &[&str], io: &mut Io<'_>) -> u8 {
    match args.first() {
        Some(&"size") => {
            let (w, h) = window::logical(settings::Rotation::R0);
            io.say(&format!("Physical size: {w}x{h}\n"));
            0
        }
        Some(&"density") => {
            io.say(&format!("Physical density: {DENSITY}\n"));
            0
        }
        _ => {
            io.complain("Window manager (window) commands:\n  size [reset|WxH|WdpxHdp]\n  density [reset|DENSITY]\n");
            1
        }
    }
}

/// `monkey -p PACKAGE -c android.intent.category.LAUNCHER 1`: the app started.
fn monkey<C: Clock + Clone + Send>(sim: &mut Sim<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    for arg in args {
        io.say(&format!("  bash arg: {arg}\n"));
    }
    let package = args
        .windows(2)
        .find(|pair| pair[0] == "-p")
        .map(|pair| pair[1]);
    match package.map(|p| sim.launch(p)) {
        Some(Ok(())) => {
            io.say("Events injected: 1\n## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, 14ms not connected)\n");
            0
        }
        // As monkey's own `return -4`.
        _ => {
            io.say("** No activities found to run, monkey aborted.\n");
            252
        }
    }
}

/// One line of `uiautomator events`: a clock prefix, then `AccessibilityEvent.toString()`.
pub(super) fn event_line(event: &Event) -> String {
    let ms = event.at.as_millis();
    let (h, m, s, frac) = (
        (ms / 3_600_000) % 24,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000,
    );
    format!(
        "12-01 {h:02}:{m:02}:{s:02}.{frac:03} EventType: {}; EventTime: {ms}; PackageName: {}; \
         MovementGranularity: 0; Action: 0; ContentChangeTypes: [CONTENT_CHANGE_TYPE_SUBTREE]; \
         WindowChangeTypes: [] [ ClassName: android.widget.FrameLayout; Text: []; \
         ContentDescription: null; ItemCount: -1; CurrentItemIndex: -1; Enabled: true; \
         Password: false; Checked: false; FullScreen: false; Scrollable: false; BeforeText: \
         null; FromIndex: -1; ToIndex: -1; ScrollX: -1; ScrollY: -1; MaxScrollX: -1; \
         MaxScrollY: -1; AddedCount: -1; RemovedCount: -1; ParcelableData: null ]; recordCount: 0\n",
        event.kind.name(),
        event.package,
    )
}
