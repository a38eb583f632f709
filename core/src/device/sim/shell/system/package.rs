//! `pm` and `cmd package` (one implementation, as `pm` is `cmd package "$@"` on Android
//! 14) as `PackageManagerShellCommand` answers: `list packages [-f] [-3] [-s] [-U] [-i]
//! [--show-versioncode] [FILTER]` (`package:[APK=]NAME[ versionCode:N][ uid:U]`), `list
//! features` (`feature:NAME[=VERSION]`, sorted, `reqGlEsVersion` first), `path`, `clear`
//! (`Success`; the app's screens as installed again, stopped), `uninstall` (Portal goes; a
//! system app is refused with `Failure [DELETE_FAILED_INTERNAL_ERROR]` as the shell user's
//! uninstall of one is, and so is an unknown package), `query-activities` and
//! `resolve-activity` (`--brief`: `priority=0 … isDefault=false` then `PKG/.Class`; without,
//! `ResolveInfo.dump`), `has-feature`, `dump PKG` and `install` ([`super::install`]).

use super::super::{Io, SimShell};
use super::apps::{self, App, Origin};
use super::resolve::{self, Query};
use super::{activity, dumpsys_package, install};
use crate::device::sim::Sim;
use crate::stability::Clock;

/// The features of an arm64 phone of 2024, as `pm list features` lists them (by name; the
/// GL ES version, which has none, first). mobile-mcp reads `android.software.leanback` and
/// `android.hardware.type.television` from here to tell a TV: the sim is a phone.
const FEATURES: [&str; 52] = [
    "reqGlEsVersion=0x30002",
    "android.hardware.audio.low_latency",
    "android.hardware.audio.output",
    "android.hardware.audio.pro",
    "android.hardware.bluetooth",
    "android.hardware.bluetooth_le",
    "android.hardware.camera",
    "android.hardware.camera.any",
    "android.hardware.camera.autofocus",
    "android.hardware.camera.flash",
    "android.hardware.camera.front",
    "android.hardware.faketouch",
    "android.hardware.fingerprint",
    "android.hardware.location",
    "android.hardware.location.gps",
    "android.hardware.location.network",
    "android.hardware.microphone",
    "android.hardware.nfc",
    "android.hardware.opengles.aep",
    "android.hardware.ram.normal",
    "android.hardware.screen.landscape",
    "android.hardware.screen.portrait",
    "android.hardware.sensor.accelerometer",
    "android.hardware.sensor.compass",
    "android.hardware.sensor.gyroscope",
    "android.hardware.sensor.light",
    "android.hardware.sensor.proximity",
    "android.hardware.telephony",
    "android.hardware.telephony.gsm",
    "android.hardware.touchscreen",
    "android.hardware.touchscreen.multitouch",
    "android.hardware.touchscreen.multitouch.distinct",
    "android.hardware.touchscreen.multitouch.jazzhand",
    "android.hardware.usb.accessory",
    "android.hardware.usb.host",
    "android.hardware.vulkan.compute",
    "android.hardware.vulkan.level=1",
    "android.hardware.vulkan.version=4206592",
    "android.hardware.wifi",
    "android.hardware.wifi.direct",
    "android.software.activities_on_secondary_displays",
    "android.software.app_widgets",
    "android.software.autofill",
    "android.software.backup",
    "android.software.device_admin",
    "android.software.home_screen",
    "android.software.input_methods",
    "android.software.live_wallpaper",
    "android.software.midi",
    "android.software.print",
    "android.software.verified_boot",
    "android.software.webview",
];

/// `pm …`, `cmd package …`.
pub(super) fn pm<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let Some((&command, rest)) = args.split_first() else {
        io.say(USAGE);
        return 255;
    };
    match command {
        "list" => list(shell, sim, rest, io),
        "path" => path(shell, sim, rest, io),
        "clear" => clear(shell, sim, rest, io),
        "uninstall" => uninstall(shell, sim, rest, io),
        "install" => install::install(shell, rest, io),
        "query-activities" => resolve::query(shell, sim, rest, io, Query::All),
        "resolve-activity" => resolve::query(shell, sim, rest, io, Query::Best),
        "dump" => dumpsys_package::dump(shell, sim, rest, io),
        "has-feature" => {
            let wanted = rest.first().copied().unwrap_or("");
            let has = FEATURES.iter().any(|f| f.split('=').next() == Some(wanted));
            io.say(if has { "true\n" } else { "false\n" });
            u8::from(!has)
        }
        "help" | "-h" => {
            io.say(USAGE);
            255
        }
        other => {
            io.say(&format!("Unknown command: {other}\n"));
            255
        }
    }
}

const USAGE: &str = "Package manager (package) commands:\n  help\n    Print this help text.\n\n  \
    path [--user USER_ID] PACKAGE\n    Print the path to the .apk of the given PACKAGE.\n\n  \
    list features\n    Prints all features of the system.\n\n  list packages [-f] [-d] [-e] \
    [-s] [-3] [-i] [-l] [-u] [-U]\n      [--show-versioncode] [--uid UID] [--user USER_ID] \
    [FILTER]\n    Prints all packages; optionally only those whose name contains\n    the text \
    in FILTER.\n\n  resolve-activity [--brief] [--components] [--query-flags FLAGS]\n       \
    [--user USER_ID] INTENT\n    Prints the activity that resolves to the given INTENT.\n\n  \
    query-activities [--brief] [--components] [--query-flags FLAGS]\n       [--user USER_ID] \
    INTENT\n    Prints all activities that can handle the given INTENT.\n\n  install [-rtfdg] \
    [-i PACKAGE] [--user USER_ID|all|current]\n       [-p INHERIT_PACKAGE] [-S BYTES] [PATH|-]\n    \
    Install an application.\n\n  uninstall [-k] [--user USER_ID] [--versionCode VERSION] \
    PACKAGE\n    Remove the given package name from the system.\n\n  clear [--user USER_ID] \
    PACKAGE\n    Deletes all data associated with a package.\n";

/// What `list packages` keeps.
#[derive(Default)]
struct Listing {
    paths: bool,
    uids: bool,
    versions: bool,
    installer: bool,
    /// `-d`: disabled packages only (the sim has none).
    disabled: bool,
    only: Option<Origin>,
    filter: Option<String>,
}

fn list<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    match args.split_first() {
        Some((&"features", _)) => {
            for feature in FEATURES {
                io.say(&format!("feature:{feature}\n"));
            }
            0
        }
        Some((&("packages" | "package"), rest)) => {
            let mut listing = Listing::default();
            let mut words = rest.iter();
            while let Some(&word) = words.next() {
                match word {
                    "-f" => listing.paths = true,
                    "-U" => listing.uids = true,
                    "-i" => listing.installer = true,
                    "--show-versioncode" => listing.versions = true,
                    "-s" => listing.only = Some(Origin::System),
                    "-3" => listing.only = Some(Origin::User),
                    // Enabled, all, uninstalled too, libraries: every package here.
                    "-e" | "-a" | "-u" | "-l" | "--apex-only" => {}
                    // Nothing on the sim is disabled.
                    "-d" => listing.disabled = true,
                    "--user" | "--uid" => {
                        words.next();
                    }
                    option if option.starts_with('-') => {
                        io.say(&format!("Error: Unknown option: {option}\n"));
                        return 255;
                    }
                    filter => listing.filter = Some(filter.to_owned()),
                }
            }
            for app in apps::installed(shell, sim) {
                if let Some(line) = package_line(&app, &listing) {
                    io.say(&line);
                }
            }
            0
        }
        Some((&other, _)) => {
            io.say(&format!("Error: unknown list type '{other}'\n"));
            255
        }
        None => {
            io.say("Error: didn't specify type of data to list\n");
            255
        }
    }
}

/// One line of `list packages`, if the app is listed.
fn package_line(app: &App, listing: &Listing) -> Option<String> {
    if listing.disabled
        || listing.only.is_some_and(|o| o != app.origin)
        || listing
            .filter
            .as_ref()
            .is_some_and(|f| !app.package.contains(f.as_str()))
    {
        return None;
    }
    let mut line = String::from("package:");
    if listing.paths {
        line.push_str(&format!("{}=", app.apk));
    }
    line.push_str(&app.package);
    if listing.versions {
        line.push_str(&format!(" versionCode:{}", app.version_code));
    }
    if listing.installer {
        let installer = match app.origin {
            Origin::System => "null",
            Origin::User => "com.android.shell",
        };
        line.push_str(&format!("  installer={installer}"));
    }
    if listing.uids {
        line.push_str(&format!(" uid:{}", app.uid));
    }
    line.push('\n');
    Some(line)
}

/// The package named last, after any `--user N`.
fn package_arg<'a>(args: &[&'a str]) -> Option<&'a str> {
    let mut words = args.iter();
    let mut package = None;
    while let Some(&word) = words.next() {
        match word {
            "--user" | "--versionCode" => {
                words.next();
            }
            option if option.starts_with('-') => {}
            name => package = Some(name),
        }
    }
    package
}

/// `path PACKAGE`: `package:APK`; nothing and 1 for a package not installed.
fn path<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let Some(package) = package_arg(args) else {
        io.complain("Error: no package specified\n");
        return 1;
    };
    match apps::installed(shell, sim)
        .iter()
        .find(|a| a.package == package)
    {
        Some(app) => {
            io.say(&format!("package:{}\n", app.apk));
            0
        }
        None => 1,
    }
}

/// `clear PACKAGE`: `Success`, or `Failed` (on stderr) for a package not installed.
fn clear<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let installed = apps::installed(shell, sim);
    match package_arg(args).filter(|p| installed.iter().any(|a| a.package == *p)) {
        Some(package) => {
            activity::clear_data(sim, package);
            io.say("Success\n");
            0
        }
        None => {
            io.complain("Failed\n");
            1
        }
    }
}

/// `uninstall PACKAGE`: Portal can go; the system image's apps cannot, for the shell user.
fn uninstall<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let Some(package) = package_arg(args) else {
        io.say("Error: package name not specified\n");
        return 1;
    };
    let app = apps::installed(shell, sim)
        .into_iter()
        .find(|a| a.package == package);
    match app {
        Some(app) if app.origin == Origin::User => {
            activity::force_stop(sim, package);
            shell.uninstall_portal();
            io.say("Success\n");
            0
        }
        // What `deletePackageX` reports for an unknown package and for a system app the
        // shell user may not remove.
        _ => {
            io.say("Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
            1
        }
    }
}
