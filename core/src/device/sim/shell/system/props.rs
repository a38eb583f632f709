//! `getprop`: the system properties of a stock Android 14 phone of the sim's own make
//! (`tapscope sim`, an arm64 phone of a `user` build with release keys), as toybox's
//! `getprop` prints them: `[name]: [value]` a line with no name, the value alone (an empty
//! line for an unknown name, or the default given after it). It is no emulator:
//! `ro.kernel.qemu` and `ro.boot.qemu.*` are absent, as on a phone.

use super::super::Io;
use super::{DENSITY, DEVICE, MODEL, PRODUCT, RELEASE, SDK};

/// The build's id, as an Android 14 QPR2 build is named.
const BUILD_ID: &str = "UQ1A.240205.004";
const INCREMENTAL: &str = "11269751";

/// The properties, the build's first: a phone sorts them by name; the sim keeps
/// `ro.build.*` ahead, as its tests of `getprop | head` expect.
fn properties() -> Vec<(&'static str, String)> {
    let fingerprint =
        format!("tapscope/{PRODUCT}/{DEVICE}:{RELEASE}/{BUILD_ID}/{INCREMENTAL}:user/release-keys");
    let fixed: [(&str, &str); 45] = [
        ("ro.build.characteristics", "nosdcard"),
        ("ro.build.date", "Mon Jan 22 21:14:27 UTC 2024"),
        ("ro.build.date.utc", "1705958067"),
        ("ro.build.display.id", BUILD_ID),
        ("ro.build.flavor", "tapscope_sim-user"),
        ("ro.build.id", BUILD_ID),
        ("ro.build.product", DEVICE),
        ("ro.build.tags", "release-keys"),
        ("ro.build.type", "user"),
        ("ro.build.version.codename", "REL"),
        ("ro.build.version.incremental", INCREMENTAL),
        ("ro.build.version.release", RELEASE),
        ("ro.build.version.release_or_codename", RELEASE),
        ("ro.build.version.sdk", SDK),
        ("ro.build.version.security_patch", "2024-02-05"),
        ("dev.bootcomplete", "1"),
        ("init.svc.adbd", "running"),
        ("persist.sys.locale", "en-US"),
        ("persist.sys.timezone", "America/Los_Angeles"),
        ("persist.sys.usb.config", "adb"),
        ("ro.adb.secure", "1"),
        ("ro.board.platform", DEVICE),
        ("ro.boot.hardware", DEVICE),
        ("ro.boot.serialno", SERIAL),
        ("ro.crypto.state", "encrypted"),
        ("ro.crypto.type", "file"),
        ("ro.debuggable", "0"),
        ("ro.hardware", DEVICE),
        ("ro.opengles.version", "196610"),
        ("ro.product.board", DEVICE),
        ("ro.product.brand", "tapscope"),
        ("ro.product.cpu.abi", "arm64-v8a"),
        ("ro.product.cpu.abilist", "arm64-v8a"),
        ("ro.product.cpu.abilist64", "arm64-v8a"),
        ("ro.product.device", DEVICE),
        ("ro.product.first_api_level", SDK),
        ("ro.product.locale", "en-US"),
        ("ro.product.manufacturer", "tapscope"),
        ("ro.product.model", MODEL),
        ("ro.product.name", PRODUCT),
        ("ro.secure", "1"),
        ("ro.serialno", SERIAL),
        ("ro.sf.lcd_density", DENSITY_TEXT),
        ("sys.boot_completed", "1"),
        ("sys.usb.config", "adb"),
    ];
    let mut all = vec![("ro.build.fingerprint", fingerprint)];
    all.extend(fixed.iter().map(|(k, v)| (*k, (*v).to_owned())));
    // The build's own first (as they are above), then the rest by name.
    let (mut build, mut rest): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|(k, _)| k.starts_with("ro.build."));
    build.sort();
    rest.sort();
    build.extend(rest);
    build
}

/// The phone's serial number (`adb get-serialno` over USB would print it).
pub(super) const SERIAL: &str = "TS5A3C9E01";
const DENSITY_TEXT: &str = "420";
const _: () = assert!(DENSITY == 420, "ro.sf.lcd_density follows wm density");

/// `getprop [NAME [DEFAULT]]`.
pub(super) fn getprop(args: &[&str], io: &mut Io<'_>) -> u8 {
    match args {
        [] => {
            for (key, value) in properties() {
                io.say(&format!("[{key}]: [{value}]\n"));
            }
        }
        [key, rest @ ..] => {
            let value = properties()
                .into_iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .or_else(|| rest.first().map(|d| (*d).to_owned()))
                .unwrap_or_default();
            io.say(&format!("{value}\n"));
        }
    }
    0
}
