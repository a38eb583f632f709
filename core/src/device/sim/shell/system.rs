//! The system services' commands as a stock phone prints them: `wm`, `dumpsys window` and
//! `input`, `pm list packages`, `monkey`, `am start`, `getprop`; and one line of
//! `uiautomator events`.

use super::{Io, SimShell};
use crate::device::Device;
use crate::device::helper_wire::PORTAL_PACKAGE;
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

/// The properties `getprop` lists.
fn properties() -> [(&'static str, &'static str); 14] {
    [
        (
            "ro.build.fingerprint",
            "tapscope/tapscope_sim/tapscope:14/TS1/1:user/release-keys",
        ),
        ("ro.build.type", "user"),
        ("ro.build.version.release", RELEASE),
        ("ro.build.version.sdk", SDK),
        ("ro.debuggable", "0"),
        ("ro.product.brand", "tapscope"),
        ("ro.product.device", DEVICE),
        ("ro.product.manufacturer", "tapscope"),
        ("ro.product.model", MODEL),
        ("ro.product.name", PRODUCT),
        ("ro.secure", "1"),
        ("ro.sf.lcd_density", "420"),
        ("persist.sys.locale", "en-US"),
        ("sys.boot_completed", "1"),
    ]
}

pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    name: &str,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let phone = &shell.phone;
    // Apps installed on the sim besides its own (droidrun's Portal).
    let installed: Vec<&str> = shell
        .portal_installed()
        .then_some(PORTAL_PACKAGE)
        .into_iter()
        .collect();
    match name {
        "monkey" => phone.java(|sim| monkey(sim, args, io)),
        _ => phone.native(|sim| match name {
            "wm" => wm(sim, args, io),
            "dumpsys" => dumpsys(sim, args, io),
            "pm" => pm(sim, &installed, args, io),
            "am" => am(sim, args, io),
            _ => getprop(args, io),
        }),
    }
}

/// The activity the sim's screen stands for: its package and the screen's name.
fn activity<C: Clock + Clone + Send>(sim: &Sim<C>) -> String {
    let screen = sim.screen_name();
    let mut name: Vec<char> = screen.chars().collect();
    if let Some(first) = name.first_mut() {
        *first = first.to_ascii_uppercase();
    }
    let name: String = name.into_iter().collect();
    format!("{}/.{name}Activity", sim.package())
}

fn wm<C: Clock + Clone + Send>(sim: &mut Sim<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    match args.first() {
        Some(&"size") => match sim.display() {
            Ok(display) => {
                io.say(&format!(
                    "Physical size: {}x{}\n",
                    display.size.width, display.size.height
                ));
                0
            }
            Err(e) => {
                io.complain(&format!("{e}\n"));
                1
            }
        },
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

fn dumpsys<C: Clock + Clone + Send>(sim: &mut Sim<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let focus = activity(sim);
    match args.first() {
        Some(&"window") => {
            io.say(&format!(
                "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  \
                 Window #0 Window{{7c1a2f0 u0 {focus}}}:\n    mDisplayId=0 rootTaskId=12 \
                 mSession=Session{{4e2b1d9 1234:u0a10123}}\n    mHasSurface=true \
                 isReadyForDisplay()=true\n  Window #1 Window{{2d9e7b1 u0 StatusBar}}:\n    \
                 mDisplayId=0 mHasSurface=true\n\n  mGlobalConfiguration={{1.0 ?mcc?mnc \
                 [en_US] ldltr sw411dp w411dp h914dp {DENSITY}dpi nrml long port}}\n  \
                 mCurrentFocus=Window{{7c1a2f0 u0 {focus}}}\n  \
                 mFocusedApp=ActivityRecord{{9f3c6a4 u0 {focus} t12}}\n  \
                 mCurrentRotation=ROTATION_0\n"
            ));
            0
        }
        Some(&"input") => {
            io.say(
                "INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n  Interactive: true\n\n\
                 Input Reader State (Nums of device: 1):\n  Device 1: sim-touchscreen\n    \
                 Touch Input Mapper (mode - DIRECT):\n      Viewport INTERNAL: displayId=0, \
                 orientation=0, logicalFrame=[0, 0, 1080, 2400]\n      \
                 InputDeviceOrientation: 0\n      SurfaceOrientation: 0\n",
            );
            0
        }
        Some(&"activity") => {
            io.say(&format!(
                "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  \
                 mResumedActivity: ActivityRecord{{9f3c6a4 u0 {focus} t12}}\n  \
                 topResumedActivity=ActivityRecord{{9f3c6a4 u0 {focus} t12}}\n"
            ));
            0
        }
        Some(service) => {
            io.say(&format!("Can't find service: {service}\n"));
            0
        }
        None => {
            io.say("Currently running services:\n  activity\n  input\n  window\n");
            0
        }
    }
}

fn pm<C: Clock + Clone + Send>(
    sim: &mut Sim<C>,
    installed: &[&str],
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let mut packages = sim.packages().unwrap_or_default();
    packages.extend(installed.iter().map(|p| (*p).to_owned()));
    match args {
        ["list", "packages", rest @ ..] => {
            let filter = rest
                .iter()
                .find(|a| !a.starts_with('-'))
                .copied()
                .unwrap_or("");
            for package in &packages {
                if package.contains(filter) {
                    io.say(&format!("package:{package}\n"));
                }
            }
            0
        }
        ["path", package] if packages.iter().any(|p| p == package) => {
            io.say(&format!("package:/data/app/{package}/base.apk\n"));
            0
        }
        ["path", _] => 1,
        _ => {
            io.complain("Package manager (package) commands:\n  list packages [-f] [-3] [FILTER]\n  path PACKAGE\n");
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

/// `am start [-W] -n PACKAGE/ACTIVITY`, and the home intent.
fn am<C: Clock + Clone + Send>(sim: &mut Sim<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    match args.first() {
        Some(&"start" | &"start-activity") => {}
        Some(&"force-stop") => return 0,
        _ => {
            io.complain("Activity manager (activity) commands:\n  start [-W] [-n COMPONENT] [-a ACTION] [-c CATEGORY]\n  force-stop PACKAGE\n");
            return 1;
        }
    }
    let value = |flag: &str| args.windows(2).find(|p| p[0] == flag).map(|p| p[1]);
    let home = value("-c") == Some("android.intent.category.HOME");
    let component = value("-n").unwrap_or_default();
    let intent = if home {
        "act=android.intent.action.MAIN cat=[android.intent.category.HOME]".to_owned()
    } else {
        format!("cmp={component}")
    };
    io.say(&format!("Starting: Intent {{ {intent} }}\n"));
    let started = if home {
        sim.key(crate::device::Key::Home).is_ok()
    } else {
        let package = component.split('/').next().unwrap_or_default();
        !package.is_empty() && sim.launch(package).is_ok()
    };
    if !started {
        io.complain(&format!(
            "Error type 3\nError: Activity class {{{component}}} does not exist.\n"
        ));
        return 1;
    }
    if args.contains(&"-W") {
        io.say(&format!(
            "Status: ok\nLaunchState: WARM\nActivity: {}\nTotalTime: 600\nWaitTime: 612\nComplete\n",
            activity(sim)
        ));
    }
    0
}

fn getprop(args: &[&str], io: &mut Io<'_>) -> u8 {
    match args.first() {
        Some(key) => {
            let value = properties()
                .into_iter()
                .find(|(k, _)| k == key)
                .map_or("", |(_, v)| v);
            io.say(&format!("{value}\n"));
        }
        None => {
            for (key, value) in properties() {
                io.say(&format!("[{key}]: [{value}]\n"));
            }
        }
    }
    0
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
