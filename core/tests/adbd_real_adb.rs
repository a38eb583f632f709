//! The real `adb` (Debian's 1.0.41) against the fake phone behind adbd, as against a
//! phone: a private adb server per test on its own port, `adb connect`, then `shell`
//! with exit codes and stderr apart, `exec-out` byte for byte, `pull`, piped stdin,
//! `devices -l`, an interactive shell under a pseudo-terminal (`script`), and tapscope's
//! own ADB device through that same server.

mod adbd_support;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use adbd_support::adb_server::Adb;
use adbd_support::{BIG_LEN, BIG_PATH, DEVICE, DUMP, DUMP_PATH, PATIENCE, Seen, blob, expect_seen};
use tapscope_core::device::Device;
use tapscope_core::device::adb::AdbDevice;
use tapscope_tests::adb::{require, text};

#[test]
fn shell_gives_output_exit_codes_and_stderr_apart() {
    let adb = Adb::start();
    let echo = adb.on_phone(&["shell", "echo", "hello", "phone"]);
    assert_eq!(
        (text(&echo.stdout), echo.status.code()),
        ("hello phone\n".into(), Some(0))
    );
    expect_seen(&adb.seen, &Seen::Ran("echo hello phone".into()));

    assert_eq!(adb.on_phone(&["shell", "false"]).status.code(), Some(1));
    assert_eq!(
        adb.on_phone(&["shell", "exit-with", "42"]).status.code(),
        Some(42)
    );

    let warn = adb.on_phone(&["shell", "warn", "careful"]);
    assert_eq!(
        (text(&warn.stdout), text(&warn.stderr)),
        (String::new(), "careful\n".into())
    );

    let missing = adb.on_phone(&["shell", "frobnicate"]);
    assert_eq!(missing.status.code(), Some(127));
    assert!(text(&missing.stderr).contains("frobnicate: inaccessible or not found"));

    // Many small writes arrive whole and in order.
    let lines = adb.on_phone(&["shell", "lines", "2000"]);
    let expected: String = (0..2000).map(|i| format!("line {i}\n")).collect();
    assert!(
        text(&lines.stdout) == expected,
        "lines out of order or lost"
    );
}

#[test]
fn exec_out_is_byte_exact_for_megabytes() {
    let adb = Adb::start();
    let out = adb.on_phone(&["exec-out", "blob 3000000 9"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(out.stdout.len(), 3_000_000);
    assert!(out.stdout == blob(3_000_000, 9), "exec-out bytes differ");
}

#[test]
fn pull_copies_files_and_names_missing_ones() {
    let adb = Adb::start();
    let into = adb.home().join("big.bin");
    let pulled = adb.on_phone(&["pull", BIG_PATH, into.to_str().unwrap()]);
    assert!(pulled.status.success(), "{pulled:?}");
    let bytes = std::fs::read(&into).unwrap();
    assert_eq!(bytes.len(), BIG_LEN);
    assert!(bytes == blob(BIG_LEN, 5), "pulled bytes differ");

    let dump = adb.home().join("dump.xml");
    assert!(
        adb.on_phone(&["pull", DUMP_PATH, dump.to_str().unwrap()])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&dump).unwrap(), DUMP);

    let missing = adb.on_phone(&["pull", "/sdcard/nope.txt", dump.to_str().unwrap()]);
    assert!(!missing.status.success());
    // adb 1.0.41 prints this error on stdout.
    let said = text(&[missing.stdout, missing.stderr].concat());
    assert!(
        said.contains("'/sdcard/nope.txt': No such file or directory"),
        "{said}"
    );

    let pushed = adb.on_phone(&["push", into.to_str().unwrap(), "/sdcard/copy.bin"]);
    assert!(!pushed.status.success());
    let said = text(&[pushed.stdout, pushed.stderr].concat());
    assert!(said.contains("Read-only file system"), "{said}");
    // The phone still answers after the refused push.
    assert_eq!(
        text(&adb.on_phone(&["shell", "echo", "still here"]).stdout),
        "still here\n"
    );
}

#[test]
fn piped_stdin_runs_each_line_and_exits_with_the_last_status() {
    let adb = Adb::start();
    let mut child = adb
        .command(&["-s", &adb.serial, "shell"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"echo first\necho second\nfalse\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stdout), "first\nsecond\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn devices_l_shows_the_identity() {
    let adb = Adb::start();
    let listed = text(&adb.run(&["devices", "-l"]).stdout);
    let line = listed
        .lines()
        .find(|l| l.starts_with(&adb.serial))
        .unwrap_or_else(|| panic!("{listed}"));
    for word in [
        "device",
        "product:tapscope_fake",
        "model:Fake_Phone_7",
        "device:fakephone",
    ] {
        assert!(
            line.split_whitespace().any(|w| w == word),
            "{word} in {line}"
        );
    }
}

/// tapscope's own ADB device speaks shell protocol v2 through the same server: what a
/// command printed on stderr and its exit status come back.
#[test]
fn tapscopes_adb_device_gets_exit_statuses_through_the_real_server() {
    let adb = Adb::start();
    let mut device = AdbDevice::connect_at(adb.server_address(), Some(&adb.serial)).unwrap();
    assert_eq!(device.name(), adb.serial);
    // The fake phone has no `pm`: status 127 and the shell's complaint, as on a phone.
    let err = device.packages().unwrap_err().to_string();
    assert!(err.contains("exit status 127"), "{err}");
    assert!(err.contains("pm: inaccessible or not found"), "{err}");
    expect_seen(&adb.seen, &Seen::Ran("pm list packages".into()));
}

/// `adb shell` with a terminal: `script` gives it a pseudo-terminal, fed from a pipe;
/// killed on drop if the test fails before it exits.
struct Terminal {
    child: Child,
    keys: ChildStdin,
    screen: Receiver<Vec<u8>>,
    seen_so_far: Vec<u8>,
}

impl Terminal {
    fn open(adb: &Adb) -> Terminal {
        require("script", "--version", "apt-get install bsdutils");
        let adb_shell = format!("adb -s {} shell", adb.serial);
        let mut child = adb
            .environment(&mut Command::new("script"))
            // Quiet, the child's exit status, flush at once, no typescript file.
            .args(["-qefc", &adb_shell, "/dev/null"])
            .env("TERM", "xterm")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("running script");
        let keys = child.stdin.take().expect("script's stdin");
        let mut stdout = child.stdout.take().expect("script's stdout");
        let (sender, screen) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buffer) {
                if sender.send(buffer[..n].to_vec()).is_err() {
                    return;
                }
            }
        });
        Terminal {
            child,
            keys,
            screen,
            seen_so_far: Vec::new(),
        }
    }

    fn type_keys(&mut self, keys: &[u8]) {
        self.keys
            .write_all(keys)
            .and_then(|()| self.keys.flush())
            .expect("typing into script");
    }

    /// Waits until the screen shows `wanted` after what was already read; returns what
    /// came up to and including it.
    fn expect(&mut self, wanted: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let shown = text(&self.seen_so_far);
            if let Some(at) = shown.find(wanted) {
                let upto = at + wanted.len();
                self.seen_so_far.drain(..upto);
                return shown[..upto].to_owned();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.screen.recv_timeout(left) {
                Ok(bytes) => self.seen_so_far.extend(bytes),
                Err(e) => panic!("{wanted:?} never shown ({e}); screen: {shown:?}"),
            }
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn interactive_shell_under_a_pty_prompts_echoes_edits_and_exits() {
    let adb = Adb::start();
    let mut terminal = Terminal::open(&adb);
    let prompt = format!("{DEVICE}:/ $ ");
    terminal.expect(&prompt);

    terminal.type_keys(b"echo hx\x7fi there\r");
    let shown = terminal.expect(&prompt);
    assert!(shown.contains("echo hx\x08 \x08i there\r\n"), "{shown:?}");
    assert!(shown.contains("hi there\r\n"), "{shown:?}");
    expect_seen(&adb.seen, &Seen::Ran("echo hi there".into()));

    terminal.type_keys(b"false\r");
    terminal.expect(&format!("1|{prompt}"));

    // Ctrl-C stops a running command; its status shows in the prompt.
    terminal.type_keys(b"wait\r");
    expect_seen(&adb.seen, &Seen::Ran("wait".into()));
    terminal.type_keys(b"\x03");
    expect_seen(&adb.seen, &Seen::Stopped("wait".into()));
    terminal.expect(&format!("^C\r\n130|{prompt}"));

    terminal.type_keys(b"exit 3\r");
    let status = terminal.child.wait().unwrap();
    assert_eq!(status.code(), Some(3));
}
