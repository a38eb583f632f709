//! `tapscope proxy` between adb clients and Debian's real adb server, with `tapscope sim
//! --adb` as the phone: a naive agent on the adb CLI (`adb -P PORT`) that dumps, waits and
//! taps coordinates while the screen is changed behind its back (its stale tap flagged, and
//! no other); outputs through the proxy equal to direct ones byte for byte; adbutils
//! through it; and bad input: garbage, clients that vanish, an upstream that dies, a phone
//! unplugged mid-transfer.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use tapscope_core::forensics;
use tapscope_core::model::Tree;
use tapscope_core::parse::parse_str;
use tapscope_core::recording::{self, CommandKind, Landed};
use tapscope_tests::adb::{PrivateAdb, text};
use tapscope_tests::child::Running;

const PATIENCE: Duration = Duration::from_secs(60);

fn tapscope(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(args);
    command
}

/// The real adb server, the sim connected to it, and the proxy in front of it.
struct Rig {
    adb: PrivateAdb,
    sim: Running,
    serial: String,
    proxy: Running,
    port: u16,
    folder: tempfile::TempDir,
}

impl Rig {
    fn start(check: &str) -> Rig {
        Rig::start_with(check, &[])
    }

    /// [`Rig::start`] with more of the proxy's options.
    fn start_with(check: &str, more: &[&str]) -> Rig {
        let adb = PrivateAdb::start();
        let mut sim = Running::spawn(tapscope(&["sim", "--adb", "127.0.0.1:0"]));
        let serial = sim
            .address_after(" is an ADB device at ", PATIENCE)
            .to_string();
        adb.connect(&serial);
        let folder = tempfile::tempdir().expect("a temporary folder");
        let upstream = adb.server_address().to_string();
        let record = folder.path().join("rec");
        let mut proxy = Running::spawn(tapscope(
            &[
                "proxy",
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                &upstream,
                "--record",
                record.to_str().expect("a UTF-8 path"),
                "--check",
                check,
            ]
            .iter()
            .chain(more)
            .copied()
            .collect::<Vec<&str>>(),
        ));
        let port = proxy.address_after("an adb server at ", PATIENCE).port();
        Rig {
            adb,
            sim,
            serial,
            proxy,
            port,
            folder,
        }
    }

    fn record(&self) -> PathBuf {
        self.folder.path().join("rec")
    }

    /// `adb -P PORT -s SERIAL ARGS…` through the proxy.
    fn through(&self, args: &[&str]) -> Output {
        let port = self.port.to_string();
        let base = ["-P", &port, "-s", &self.serial];
        self.adb
            .command(&[&base[..], args].concat())
            .output()
            .expect("adb runs")
    }

    /// The same, straight to the adb server: a change behind the agent's back.
    fn direct(&self, args: &[&str]) -> Output {
        self.adb.on(&self.serial, args)
    }

    /// The agent's look: a dump through the proxy, parsed.
    fn look(&self) -> Tree {
        let dumped = self.through(&["exec-out", "uiautomator", "dump", "/dev/tty"]);
        assert!(dumped.status.success(), "{dumped:?}");
        let xml = text(&dumped.stdout);
        let xml = xml
            .split_once("UI hierchary dumped")
            .map_or(xml.as_str(), |(xml, _)| xml);
        parse_str(xml).expect("the dump parses")
    }

    fn tap(&self, (x, y): (i32, i32)) {
        let (x, y) = (x.to_string(), y.to_string());
        let tapped = self.through(&["shell", "input", "tap", &x, &y]);
        assert!(tapped.status.success(), "{tapped:?}");
    }

    /// The naive agent's path: it opens the feed (a tap on the screen it just read), reads
    /// it, and taps a video while the feed is scrolled behind its back; the point tapped.
    fn tap_behind_a_scroll(&self) -> (i32, i32) {
        let home = self.look();
        self.tap(centre_of(&home, "TapTube"));
        let feed = self.look();
        let apollo = centre_of(&feed, "Every Apollo landing site from orbit");
        let scrolled = self.direct(&[
            "shell", "input", "swipe", "540", "1800", "540", "900", "300",
        ]);
        assert!(scrolled.status.success(), "{scrolled:?}");
        // The scroll ends before the agent's tap: a dump waits until the screen is idle.
        let settled = self.direct(&["exec-out", "uiautomator", "dump", "/dev/tty"]);
        assert!(settled.status.success(), "{settled:?}");
        self.tap(apollo);
        apollo
    }

    /// Stops the proxy as Ctrl-C does, so it closes the recording; what it said.
    fn stop_proxy(&mut self) -> Vec<String> {
        let pid = self.proxy.child.id().to_string();
        let signalled = Command::new("kill").args(["-INT", &pid]).status();
        assert!(signalled.is_ok_and(|s| s.success()));
        self.proxy
            .wait_for(PATIENCE, |line| line.contains("stopped;").then_some(()));
        let status = self.proxy.child.wait().expect("the proxy exits");
        assert!(status.success(), "{status:?}");
        self.proxy.said.clone()
    }
}

/// Where each tap of a recording landed, as the proxy found.
fn taps_landed(recording: &recording::Recording) -> Vec<Option<Landed>> {
    recording
        .steps
        .iter()
        .filter(|s| s.tool == "tap")
        .map(|s| s.adb.as_ref().and_then(|a| a.landed))
        .collect()
}

/// The centre of the node whose text is `label`.
fn centre_of(tree: &Tree, label: &str) -> (i32, i32) {
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == label)
        .unwrap_or_else(|| panic!("{label:?} is not on the screen"));
    let b = node.bounds;
    ((b.left + b.right) / 2, (b.top + b.bottom) / 2)
}

#[test]
fn a_naive_agents_stale_tap_is_flagged_and_no_other() {
    let mut rig = Rig::start("tree");
    let apollo = rig.tap_behind_a_scroll();
    // The agent looks again and taps what it now sees: no alarm.
    let video = rig.look();
    rig.through(&["shell", "input", "keyevent", "BACK"]);
    let back = rig.look();
    let first = back
        .nodes
        .iter()
        .find(|n| n.text.ends_with(" views") && n.bounds.top > 300 && n.bounds.bottom < 2000)
        .map(|n| n.text.clone())
        .expect("the feed is back");
    rig.tap(centre_of(&back, &first));
    assert!(!video.nodes.is_empty());

    let said = rig.stop_proxy();
    let stale_lines: Vec<&String> = said.iter().filter(|l| l.contains("stale tap")).collect();
    assert_eq!(stale_lines.len(), 1, "{said:#?}");
    assert!(
        stale_lines[0].contains("Every Apollo landing site")
            && stale_lines[0].contains(&rig.serial),
        "{}",
        stale_lines[0]
    );

    let recording = recording::read(&rig.record()).expect("the recording reads");
    assert!(recording.problems.is_empty(), "{:?}", recording.problems);
    let header = recording.header.proxy.as_ref().expect("a proxy's header");
    assert_eq!(header.upstream, rig.adb.server_address().to_string());
    let tools: Vec<&str> = recording.steps.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(
        tools,
        ["look", "tap", "look", "tap", "look", "key", "look", "tap"],
        "every look and action, in order"
    );
    let kinds: Vec<CommandKind> = recording
        .steps
        .iter()
        .map(|s| s.adb.as_ref().expect("a proxied step").kind)
        .collect();
    assert_eq!(kinds[0], CommandKind::Look);
    assert_eq!(kinds[1], CommandKind::Action);
    let landed = taps_landed(&recording);
    assert_eq!(
        landed,
        [
            Some(Landed::Same),
            Some(Landed::Elsewhere),
            Some(Landed::Same)
        ]
    );
    // The stale tap carries the screen read and the point, and forensics explains it.
    let stale_tap = &recording.steps[3];
    assert_eq!(stale_tap.path, [[apollo.0, apollo.1]]);
    assert!(
        stale_tap
            .acted_on
            .as_deref()
            .is_some_and(|aimed| aimed.contains("Every Apollo landing site")),
        "what the point met on the screen read: {:?}",
        stale_tap.acted_on
    );
    assert_eq!(
        stale_tap.version_used, recording.steps[2].version_after,
        "aimed from the look before it"
    );
    let flagged: Vec<usize> = (0..recording.steps.len())
        .filter(|&i| {
            forensics::review(&recording, i)
                .expect("reviewed")
                .stale
                .is_some()
        })
        .collect();
    assert_eq!(flagged, [3], "the stale tap and no other");
    let sentence = forensics::review(&recording, 3)
        .unwrap()
        .stale
        .unwrap()
        .sentence;
    assert!(
        sentence.starts_with(&format!("tapped ({}, {})", apollo.0, apollo.1))
            && sentence.contains("Every Apollo landing site")
            && sentence.contains("when the tap landed it was on"),
        "{sentence}"
    );

    // Replay sends a recording's tool calls again: a proxy's holds none, and says so.
    let replayed = tapscope(&["replay", rig.record().to_str().unwrap(), "--device", "sim"])
        .output()
        .expect("tapscope replay runs");
    assert_eq!(replayed.status.code(), Some(2), "{replayed:?}");
    assert!(text(&replayed.stderr).contains("tapscope proxy recorded it"));

    // The command line says the same, and exits 1 for it.
    let listed = tapscope(&["forensics", rig.record().to_str().unwrap()])
        .output()
        .expect("tapscope forensics runs");
    assert_eq!(listed.status.code(), Some(1), "{listed:?}");
    let out = text(&listed.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("step 4: tapped"), "{out}");
}

#[test]
fn with_logs_each_action_keeps_what_the_phone_logged_after_it() {
    let mut rig = Rig::start_with("none", &["--logs"]);
    let home = rig.look();
    rig.tap(centre_of(&home, "TapTube"));
    rig.stop_proxy();
    let recording = recording::read(&rig.record()).expect("the recording reads");
    let tap = recording
        .steps
        .iter()
        .find(|s| s.tool == "tap")
        .expect("the tap is a step");
    let log = tap.log.as_ref().expect("the tap's log is kept");
    assert!(log.notes.is_empty(), "{:?}", log.notes);
    let lines = recording.load_log(log).expect("its lines read back");
    // The phone's own record of the tap and of the activity it started.
    assert!(
        lines
            .iter()
            .any(|l| l.tag == "ActivityTaskManager" && l.message.contains("tv.tapscope.demo")),
        "{lines:?}"
    );
    // A look is not an action: it keeps no log.
    assert!(
        recording
            .steps
            .iter()
            .filter(|s| s.tool == "look")
            .all(|s| s.log.is_none())
    );
}

#[test]
fn with_pixels_the_stale_tap_is_flagged_by_what_the_screen_showed() {
    let mut rig = Rig::start("pixels");
    rig.tap_behind_a_scroll();

    let said = rig.stop_proxy();
    let stale: Vec<&String> = said.iter().filter(|l| l.contains("stale tap")).collect();
    assert_eq!(stale.len(), 1, "{said:#?}");
    assert!(
        stale[0].contains("the pixels there had changed"),
        "{}",
        stale[0]
    );
    let recording = recording::read(&rig.record()).expect("the recording reads");
    let landed = taps_landed(&recording);
    assert_eq!(landed, [Some(Landed::Same), Some(Landed::Elsewhere)]);
    // Each look was photographed by the proxy for the comparison.
    let looks = recording.steps.iter().filter(|s| s.tool == "look");
    assert!(looks.clone().count() == 2);
    assert!(
        looks
            .into_iter()
            .all(|s| s.after.as_ref().is_some_and(|a| a.screenshot.is_some()))
    );
    let flagged: Vec<String> = (0..recording.steps.len())
        .filter_map(|i| forensics::review(&recording, i).unwrap().stale)
        .map(|stale| stale.sentence)
        .collect();
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert!(
        flagged[0].contains("Every Apollo landing site"),
        "{}",
        flagged[0]
    );
}

#[test]
fn outputs_through_the_proxy_equal_direct_ones_byte_for_byte() {
    let mut rig = Rig::start("none");
    // A screenshot: the clock may turn a minute between two captures, never in both gaps.
    let before = rig.direct(&["exec-out", "screencap", "-p"]).stdout;
    let proxied = rig.through(&["exec-out", "screencap", "-p"]).stdout;
    let after = rig.direct(&["exec-out", "screencap", "-p"]).stdout;
    assert!(proxied.starts_with(b"\x89PNG"), "{} bytes", proxied.len());
    assert!(
        proxied == before || proxied == after,
        "the screenshot changed on the way"
    );

    // A 3 MB output: a file made on the phone by doubling, cut to 3,000,000 bytes.
    let mut make = String::from("echo 0123456789abcdefghijklmnopqrstuvwxyz > /sdcard/big");
    for _ in 0..17 {
        make.push_str(
            "; cat /sdcard/big /sdcard/big > /sdcard/twice; cat /sdcard/twice > /sdcard/big",
        );
    }
    let made = rig.direct(&["shell", &make]);
    assert!(made.status.success(), "{made:?}");
    let cut = ["exec-out", "cat /sdcard/big | head -c 3000000"];
    let direct = rig.direct(&cut).stdout;
    let through = rig.through(&cut).stdout;
    assert_eq!(direct.len(), 3_000_000);
    assert!(through == direct, "the 3 MB output changed on the way");

    // Exit statuses, stderr and a pull pass as they are.
    for (command, code) in [("true", 0), ("false", 1), ("exit 7", 7)] {
        assert_eq!(rig.through(&["shell", command]).status.code(), Some(code));
    }
    let dumped = rig.through(&["shell", "uiautomator", "dump"]);
    assert_eq!(
        text(&dumped.stdout),
        "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    );
    let pulled = rig.folder.path().join("pulled.xml");
    let pull = rig.through(&["pull", "/sdcard/window_dump.xml", pulled.to_str().unwrap()]);
    assert!(pull.status.success(), "{pull:?}");
    let pulled_direct = rig.folder.path().join("direct.xml");
    rig.direct(&[
        "pull",
        "/sdcard/window_dump.xml",
        pulled_direct.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&pulled).unwrap(),
        std::fs::read(&pulled_direct).unwrap()
    );
    // A push streams through and is one line; what was pushed reads back the same.
    let local = rig.folder.path().join("push.bin");
    std::fs::write(&local, vec![7u8; 300_000]).expect("a file to push");
    let push = rig.through(&["push", local.to_str().unwrap(), "/sdcard/push.bin"]);
    assert!(push.status.success(), "{push:?}");
    let back = rig.folder.path().join("pushed-back.bin");
    rig.direct(&["pull", "/sdcard/push.bin", back.to_str().unwrap()]);
    assert_eq!(std::fs::read(&back).unwrap(), vec![7u8; 300_000]);
    // Host services too.
    let devices = text(&rig.through(&["devices", "-l"]).stdout);
    assert!(
        devices.contains(&rig.serial) && devices.contains("tapscope_sim"),
        "{devices}"
    );

    rig.stop_proxy();
    let recording = recording::read(&rig.record()).expect("the recording reads");
    let steps: Vec<(&str, String)> = recording
        .steps
        .iter()
        .map(|s| {
            (
                s.tool.as_str(),
                s.arguments["command"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    assert!(
        steps.contains(&("screenshot", "screencap '-p'".into())),
        "{steps:?}"
    );
    assert!(
        steps.contains(&("look", "pull /sdcard/window_dump.xml".into())),
        "the pulled dump is a look: {steps:?}"
    );
    let pushes: Vec<&str> = recording
        .steps
        .iter()
        .filter(|s| s.tool == "push")
        .map(|s| s.message.as_str())
        .collect();
    assert_eq!(pushes.len(), 1, "{pushes:?}");
    assert!(
        pushes[0] == "pushed /sdcard/push.bin (300000 bytes)",
        "{}",
        pushes[0]
    );
    let big = recording
        .steps
        .iter()
        .find(|s| s.arguments["command"] == "cat /sdcard/big | head -c 3000000")
        .expect("the 3 MB command is a step");
    assert_eq!(big.adb.as_ref().unwrap().received, 3_000_000);
    assert_eq!(big.adb.as_ref().unwrap().kind, CommandKind::Command);
    let exits: Vec<Option<u8>> = recording
        .steps
        .iter()
        .filter(|s| {
            ["true", "false", "exit 7"].contains(&s.arguments["command"].as_str().unwrap_or(""))
        })
        .map(|s| s.adb.as_ref().unwrap().exit)
        .collect();
    assert_eq!(exits, [Some(0), Some(1), Some(7)]);
}

/// The Python program a user of adbutils writes, pointed at the proxy.
const ADBUTILS_AGENT: &str = r#"
import sys, adbutils
port, serial, pulled = int(sys.argv[1]), sys.argv[2], sys.argv[3]
client = adbutils.AdbClient(host="127.0.0.1", port=port)
assert serial in [d.serial for d in client.device_list()]
device = client.device(serial)
xml = device.shell("uiautomator dump /dev/tty")
assert "<hierarchy" in xml, xml[:200]
device.shell("uiautomator dump /sdcard/window_dump.xml")
device.sync.pull("/sdcard/window_dump.xml", pulled)
device.click(160, 430)
device.swipe(540, 1800, 540, 900, 0.3)
print("done")
"#;

#[test]
fn adbutils_drives_the_sim_through_the_proxy() {
    let has_adbutils = Command::new("python3")
        .args(["-c", "import adbutils"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_adbutils {
        // .ci/run installs it and says so when it cannot; the adb CLI tests above still ran.
        println!("note: Python's adbutils is not installed (pip install adbutils): not run");
        return;
    }
    let mut rig = Rig::start("none");
    let pulled = rig.folder.path().join("pulled.xml");
    let ran = rig
        .adb
        .environment(&mut Command::new("python3"))
        .args([
            "-c",
            ADBUTILS_AGENT,
            &rig.port.to_string(),
            &rig.serial,
            pulled.to_str().unwrap(),
        ])
        .output()
        .expect("python3 runs");
    assert!(
        ran.status.success(),
        "{}{}",
        text(&ran.stdout),
        text(&ran.stderr)
    );
    assert!(text(&std::fs::read(&pulled).unwrap()).contains("<hierarchy"));
    rig.stop_proxy();
    let recording = recording::read(&rig.record()).expect("the recording reads");
    let looks = recording.steps.iter().filter(|s| s.tool == "look").count();
    assert_eq!(looks, 2, "the shell dump and the pulled one");
    let tap = recording
        .steps
        .iter()
        .find(|s| s.tool == "tap")
        .expect("adbutils' click");
    assert_eq!(tap.path, [[160, 430]]);
    let swipe = recording
        .steps
        .iter()
        .find(|s| s.tool == "swipe")
        .expect("its swipe");
    assert_eq!(swipe.path, [[540, 1800], [540, 900]]);
    assert!(
        tap.version_used.is_some(),
        "aimed from the screen read before it"
    );
}

fn raw_request(port: u16, bytes: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the proxy accepts");
    stream.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    stream.write_all(bytes).expect("the request is sent");
    stream
        .shutdown(std::net::Shutdown::Write)
        .expect("the request ends");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer
}

#[test]
fn bad_input_ends_one_connection_and_the_proxy_serves_on() {
    let mut rig = Rig::start("none");
    // Garbage instead of a length.
    let answer = raw_request(rig.port, b"zzzzhost:version");
    assert!(text(&answer).starts_with("FAIL"), "{}", text(&answer));
    assert!(text(&answer).contains("4 hex digits"), "{}", text(&answer));
    // A request cut short, a client gone at once.
    drop(raw_request(rig.port, b"0040host:ver"));
    drop(TcpStream::connect(("127.0.0.1", rig.port)));
    // A client that leaves in the middle of a large output.
    let mut leaving = rig
        .adb
        .command(&[
            "-P",
            &rig.port.to_string(),
            "-s",
            &rig.serial,
            "exec-out",
            "screencap",
            "-p",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 8];
    leaving
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    leaving.kill().unwrap();
    let _ = leaving.wait();
    // Every other client is served.
    let devices = rig.through(&["shell", "echo", "still"]);
    assert_eq!(text(&devices.stdout), "still\n");

    // The phone unplugged: its commands fail with adb's words, host services go on.
    rig.sim.child.kill().unwrap();
    let _ = rig.sim.child.wait();
    let gone = rig.through(&["shell", "echo", "x"]);
    assert!(!gone.status.success());
    let listed = rig
        .adb
        .command(&["-P", &rig.port.to_string(), "version"])
        .output()
        .unwrap();
    assert!(text(&listed.stdout).contains("Android Debug Bridge"));

    // The upstream dies: clients hear adb's own wording, the recording stays whole.
    assert!(rig.adb.run(&["kill-server"]).status.success());
    let answer = raw_request(rig.port, b"000chost:version");
    assert!(
        text(&answer).starts_with("FAIL") && text(&answer).contains("cannot connect to daemon"),
        "{}",
        text(&answer)
    );
    rig.stop_proxy();
    let recording = recording::read(&rig.record()).expect("the recording reads");
    assert!(recording.problems.is_empty(), "{:?}", recording.problems);
    assert!(
        recording
            .steps
            .iter()
            .any(|s| s.arguments["command"] == "echo still")
    );
}

#[test]
fn a_recording_that_stops_is_said_once_and_the_proxy_serves_on() {
    let mut rig = Rig::start("tree");
    rig.look();
    // The recording's folder goes away under the proxy: its next screen cannot be kept.
    std::fs::remove_dir_all(rig.record()).expect("the recording is removed");
    rig.tap((540, 1200));
    rig.look();
    let said = rig.proxy.wait_for(PATIENCE, |line| {
        line.contains("stopped recording to")
            .then(|| line.to_owned())
    });
    assert!(said.contains("no longer recorded"), "{said}");
    // The agent's calls still pass.
    rig.look();
    let echoed = rig.through(&["shell", "echo", "still"]);
    assert_eq!(text(&echoed.stdout).trim(), "still");
    let lines = rig.stop_proxy();
    let stopped = lines
        .iter()
        .filter(|l| l.contains("stopped recording to"))
        .count();
    assert_eq!(stopped, 1, "{lines:?}");
}

#[test]
fn the_proxy_refuses_what_it_cannot_do_safely() {
    let folder = tempfile::tempdir().unwrap();
    let record = folder.path().join("rec");
    let record = record.to_str().unwrap();
    let refused = |args: &[&str]| {
        let out = tapscope(&[&["proxy", "--record", record][..], args].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        text(&out.stderr)
    };
    let remote = refused(&["--listen", "0.0.0.0:5038"]);
    assert!(remote.contains("loopback only"), "{remote}");
    let itself = refused(&["--listen", "127.0.0.1:5999", "--upstream", "127.0.0.1:5999"]);
    assert!(
        itself.contains("cannot stand in front of itself"),
        "{itself}"
    );
    // Nothing listens on port 1.
    let none = refused(&["--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:1"]);
    assert!(
        none.contains("127.0.0.1:1") && none.contains("adb start-server"),
        "{none}"
    );
    let check = refused(&["--check", "maybe"]);
    assert!(check.contains("tree"), "{check}");
    assert!(!Path::new(record).exists(), "nothing was recorded");
}
