//! The sim's system services read by the real tools, end to end through Debian's adb
//! server: the adb command line's `install` and `uninstall` (a streamed install, `cmd
//! package install -S SIZE` with the file on stdin, as the sim's banner offers `cmd`), and
//! Python's adbutils — `window_size()`
//! and `rotation()` turning with `settings put system user_rotation 1`, `app_info()`,
//! `app_current()` (through `dumpsys activity`, as on Android 13 and later), `is_screen_on()`,
//! `battery()`, `list_packages()`, `install()` of a file that is no APK, `app_clear()`; and
//! its sync service — `push`, `stat`, `list`, `pull`, `read_text` — and `dump_hierarchy()`.

use std::process::Command;

use serde_json::Value;
use tapscope_tests::adb::{PrivateAdb, text};
use tapscope_tests::child::Running;

/// The private adb server and the sim connected to it, with the sim's serial.
fn phone() -> (PrivateAdb, Running, String) {
    let adb = PrivateAdb::start();
    let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(["sim", "--adb", "127.0.0.1:0"]);
    let (sim, serial) = adb.connect_sim(command);
    (adb, sim, serial)
}

#[test]
fn the_adb_cli_streams_an_install_and_pm_refuses_a_file_that_is_no_apk() {
    let (adb, _sim, serial) = phone();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let not_apk = dir.path().join("not.apk");
    std::fs::write(&not_apk, b"not an APK\n").expect("the file is written");
    let installed = adb.on(&serial, &["install", &not_apk.to_string_lossy()]);
    let said = format!("{}{}", text(&installed.stdout), text(&installed.stderr));
    assert!(!installed.status.success(), "{said}");
    // The sim's banner offers `cmd`, so adb streams the file to `cmd package install -S`,
    // which refuses it as it would on a phone.
    assert!(said.contains("Performing Streamed Install"), "{said}");
    assert!(
        said.contains("Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl"),
        "{said}"
    );
    let removed = adb.on(&serial, &["uninstall", "com.example.none"]);
    assert!(!removed.status.success());
    assert_eq!(
        text(&removed.stdout).trim(),
        "Failure [DELETE_FAILED_INTERNAL_ERROR]"
    );
}

/// What the Python side asks adbutils, printed as one JSON line after `RESULT `.
const ADBUTILS_USER: &str = r#"
import json, os, sys
import adbutils
from adbutils.errors import AdbInstallError

client = adbutils.AdbClient(host="127.0.0.1", port=int(os.environ["ANDROID_ADB_SERVER_PORT"]))
d = client.device(sys.argv[1])
result = {}
result["size"] = list(d.window_size())
result["rotation"] = d.rotation()
d.shell("settings put system user_rotation 1")
result["turned_rotation"] = d.rotation()
result["turned_size"] = list(d.window_size())
d.shell("settings put system user_rotation 0")
info = d.app_info("tv.tapscope.demo")
result["info"] = {
    "version_name": info.version_name,
    "version_code": info.version_code,
    "path": info.path,
    "flags": info.flags,
    "first_install_time": str(info.first_install_time),
    "signature": info.signature is not None,
}
result["no_info"] = d.app_info("com.example.none") is None
d.app_start("tv.tapscope.demo")
current = d.app_current()
result["current"] = [current.package, current.activity, current.pid]
result["screen_on"] = d.is_screen_on()
battery = d.battery()
result["battery"] = [battery.level, battery.scale, battery.usb_powered, battery.status]
result["packages"] = d.list_packages()
result["third_party"] = d.list_packages(["-3"])
path = os.path.join(sys.argv[2], "not.apk")
with open(path, "w") as f:
    f.write("not an APK\n")
try:
    d.install(path, silent=True)
    result["install"] = "installed"
except AdbInstallError as e:
    result["install"] = e.output
d.app_clear("tv.tapscope.demo")
result["after_clear"] = d.app_current().package
result["uninstall"] = d.uninstall("com.example.none")
print("RESULT " + json.dumps(result))
"#;

/// Runs `script` with adbutils against the sim, with the sim's serial and a temporary
/// folder as its arguments, and returns what it printed after `RESULT `; `None`, with a
/// note on the terminal, when adbutils is not installed.
fn adbutils(script: &str) -> Option<Value> {
    let has_adbutils = Command::new("python3")
        .args(["-c", "import adbutils"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_adbutils {
        eprintln!("note: Python's adbutils is not installed (pip install adbutils): not run");
        return None;
    }
    let (adb, _sim, serial) = phone();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let ran = adb
        .environment(&mut Command::new("python3"))
        .args(["-c", script, &serial, &dir.path().to_string_lossy()])
        .output()
        .expect("python3 runs");
    let stdout = text(&ran.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("adbutils failed:\n{stdout}\n{}", text(&ran.stderr)));
    Some(serde_json::from_str(line).expect("the result is JSON"))
}

#[test]
fn adbutils_reads_the_sims_services_as_a_phones() {
    let Some(got) = adbutils(ADBUTILS_USER) else {
        return;
    };

    assert_eq!(got["size"], serde_json::json!([1080, 2400]));
    assert_eq!(got["rotation"], 0);
    assert_eq!(got["turned_rotation"], 1);
    assert_eq!(got["turned_size"], serde_json::json!([2400, 1080]));
    let info = &got["info"];
    assert_eq!(info["version_name"], "3.2.1");
    assert_eq!(info["version_code"], 30201);
    assert_eq!(info["path"], "/product/app/TapTube/TapTube.apk");
    assert_eq!(info["first_install_time"], "2025-03-03 09:14:27");
    assert_eq!(info["signature"], true);
    assert!(
        info["flags"]
            .as_array()
            .is_some_and(|f| f.contains(&"SYSTEM".into())),
        "{info}"
    );
    assert_eq!(got["no_info"], true);
    let current = &got["current"];
    assert_eq!(current[0], "tv.tapscope.demo", "{current}");
    assert_eq!(current[1], ".MainActivity", "{current}");
    assert!(current[2].as_u64().is_some_and(|pid| pid > 0), "{current}");
    assert_eq!(got["screen_on"], true);
    let battery = &got["battery"];
    assert!(
        battery[0].as_u64().is_some_and(|l| (20..=100).contains(&l)),
        "{battery}"
    );
    assert_eq!(battery[1], 100);
    assert_eq!(battery[2], true);
    let packages = got["packages"].as_array().expect("a list");
    assert!(
        packages.contains(&"tv.tapscope.demo".into()),
        "{packages:?}"
    );
    assert!(
        packages.contains(&"com.android.settings".into()),
        "{packages:?}"
    );
    assert_eq!(got["third_party"], serde_json::json!([]));
    let install = got["install"].as_str().unwrap_or_default();
    assert!(
        install.contains("Error: Failed to parse APK file: /data/local/tmp/unknown.apk"),
        "{install}"
    );
    assert_eq!(got["after_clear"], "com.google.android.apps.nexuslauncher");
    assert_eq!(
        got["uninstall"].as_str().map(str::trim),
        Some("Failure [DELETE_FAILED_INTERNAL_ERROR]")
    );
}

/// adbutils' sync service and `dump_hierarchy()`, printed as one JSON line after `RESULT `.
const ADBUTILS_FILES: &str = r#"
import json, os, stat, sys
import xml.etree.ElementTree as ET
import adbutils

client = adbutils.AdbClient(host="127.0.0.1", port=int(os.environ["ANDROID_ADB_SERVER_PORT"]))
d = client.device(sys.argv[1])
result = {}
result["pushed"] = d.sync.push(b"hello from adbutils\n", "/sdcard/Download/note.txt")
info = d.sync.stat("/sdcard/Download/note.txt")
result["stat"] = [info.size, stat.S_ISREG(info.mode)]
result["missing"] = d.sync.exists("/sdcard/Download/none.txt")
result["listed"] = sorted(
    [e.path, e.size, stat.S_ISDIR(e.mode)] for e in d.sync.list("/sdcard")
)
result["listed_download"] = sorted(e.path for e in d.sync.list("/sdcard/Download"))
local = os.path.join(sys.argv[2], "note.txt")
result["pulled"] = d.sync.pull("/sdcard/Download/note.txt", local)
with open(local) as f:
    result["pulled_text"] = f.read()
result["read_text"] = d.sync.read_text("/sdcard/Download/note.txt")
result["cat"] = d.shell("cat /sdcard/Download/note.txt")
xml = d.dump_hierarchy()
root = ET.fromstring(xml)
result["root"] = root.tag
result["windows"] = len(root.findall("node"))
bounds = []
texts = []
for node in root.iter("node"):
    texts.append(node.get("text"))
    x1, y1, x2, y2 = map(int, node.get("bounds").replace("][", ",").strip("[]").split(","))
    bounds.append([x1, y1, x2, y2])
result["texts"] = texts
result["off_display"] = [
    b for b in bounds if b[0] < 0 or b[1] < 0 or b[2] > 1080 or b[3] > 2400 or b[0] >= b[2] or b[1] >= b[3]
]
result["nodes"] = len(bounds)
print("RESULT " + json.dumps(result))
"#;

#[test]
fn adbutils_pushes_lists_pulls_and_dumps_as_on_a_phone() {
    let Some(got) = adbutils(ADBUTILS_FILES) else {
        return;
    };
    let hello = "hello from adbutils\n";
    assert_eq!(got["pushed"], hello.len());
    assert_eq!(got["stat"], serde_json::json!([hello.len(), true]));
    assert_eq!(got["missing"], false);
    let listed = got["listed"].as_array().expect("a list");
    assert!(
        listed.contains(&serde_json::json!(["Download", 4096, true])),
        "{listed:?}"
    );
    assert_eq!(
        got["listed_download"],
        serde_json::json!([".", "..", "note.txt"])
    );
    assert_eq!(got["pulled"], hello.len());
    assert_eq!(got["pulled_text"], hello);
    assert_eq!(got["read_text"], hello);
    assert_eq!(got["cat"], hello.trim_end());
    // The stock dump: the launcher's window alone, every node on the display.
    assert_eq!(got["root"], "hierarchy");
    assert_eq!(got["windows"], 1);
    assert!(got["nodes"].as_u64().is_some_and(|n| n > 5), "{got}");
    assert_eq!(got["off_display"], serde_json::json!([]));
    let texts = got["texts"].as_array().expect("a list");
    assert!(texts.contains(&"TapTube".into()), "{texts:?}");
}
