//! The commands of the simulated phone's shell: `uiautomator`, `input`, `screencap`, the
//! files (`cat`, `rm`, `ls`, `md5sum`), `toybox NAME` and builtins (`echo`, `grep`,
//! `head`, `sleep`, `pkill`, …); the system services' commands are in [`super::system`],
//! `app_process` in [`super::server`].

use std::time::Duration;

use md5::{Digest, Md5};

use super::{Io, Ran, SimShell, server, system, toybox};
use crate::device::sim::costs::DUMP_IDLE_TIMEOUT;
use crate::device::sim::phone::{UiAutomationError, UiClient};
use crate::device::{DEFAULT_SWIPE, Device, Key};
use crate::geometry::Point;
use crate::stability::Clock;

/// Where `uiautomator dump` writes without a file named.
pub(super) const DEFAULT_DUMP: &str = "/sdcard/window_dump.xml";
/// The longest `sleep` honoured; a longer one is surely a mistake in the caller.
const MAX_SLEEP: Duration = Duration::from_secs(600);

/// The toybox applets here, which `toybox NAME …` runs as `NAME …`.
const TOYBOX: [&str; 20] = [
    "cat",
    "echo",
    "false",
    "getenforce",
    "grep",
    "head",
    "id",
    "ifconfig",
    "ls",
    "md5sum",
    "mv",
    "pidof",
    "pkill",
    "rm",
    "sleep",
    "true",
    "uname",
    "which",
    "whoami",
    "toybox",
];

/// Runs one command: its words, expanded, and the environment its assignments gave it.
pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    words: &[String],
    env: &[(String, String)],
    io: &mut Io<'_>,
) -> Ran {
    let args: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
    let Some(name) = words.first().map(String::as_str) else {
        // Assignments alone: they set nothing that lasts.
        return Ran::Status(0);
    };
    let status = match name {
        "uiautomator" => uiautomator(shell, &args, io),
        "input" => input(shell, &args, io),
        "screencap" => screencap(shell, &args, io),
        "content" => super::content::run(shell, &args, io),
        "logcat" => super::logcat::run(shell, &args, env, io),
        "cmd" => return cmd(shell, &args, env, io),
        "app_process" => server::app_process(shell, &args, env, io),
        "toybox" => match args.first() {
            Some(applet) if TOYBOX.contains(applet) => return run(shell, &words[1..], env, io),
            Some(other) => {
                io.complain(&format!("toybox: Unknown command {other}\n"));
                127
            }
            None => {
                io.say(&format!("{}\n", TOYBOX.join(" ")));
                0
            }
        },
        "md5sum" => md5sum(shell, &args, io, Md5Style::Toybox),
        "md5" => md5sum(shell, &args, io, Md5Style::Toolbox),
        "wm" | "dumpsys" | "pm" | "monkey" | "am" | "getprop" | "settings" => {
            system::run(shell, name, &args, io)
        }
        "cat" => cat(shell, &args, io),
        "rm" => rm(shell, &args, io),
        "mv" => mv(shell, &args, io),
        "ls" => ls(shell, &args, io),
        "echo" => echo(&args, io),
        "true" => 0,
        "false" => 1,
        "exit" => return Ran::Exit(args.first().and_then(|a| a.parse().ok()).unwrap_or(0)),
        "grep" => grep(&args, io),
        "head" => head(&args, io),
        "sleep" => sleep(shell, &args, io),
        "pkill" => pkill(shell, &args),
        "pidof" => shell.phone.native(|sim| toybox::pidof(sim, &args, io)),
        other => match toybox::run(other, &args, io) {
            Some(status) => status,
            None => {
                io.complain(&format!(
                    "/system/bin/sh: {other}: inaccessible or not found\n"
                ));
                127
            }
        },
    };
    Ran::Status(status)
}

/// `cmd SERVICE …`: the binder front of `input`, `pm`, `wm`, `am` and `settings`.
fn cmd<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    env: &[(String, String)],
    io: &mut Io<'_>,
) -> Ran {
    let command = match args.first() {
        Some(&"input") => "input",
        Some(&"package") => "pm",
        Some(&"window") => "wm",
        Some(&"activity") => "am",
        Some(&"settings") => "settings",
        Some(other) => {
            io.complain(&format!("cmd: Can't find service: {other}\n"));
            return Ran::Status(20);
        }
        None => {
            io.complain("cmd: No service specified; use -l to list all running services.\n");
            return Ran::Status(20);
        }
    };
    let words: Vec<String> = std::iter::once(command)
        .chain(args.iter().skip(1).copied())
        .map(str::to_owned)
        .collect();
    run(shell, &words, env, io)
}

fn uiautomator<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let cmdline = format!(
        "app_process /system/bin com.android.commands.uiautomator.Launcher {}",
        args.join(" ")
    );
    match args.first() {
        Some(&"dump") => {
            let file = args[1..]
                .iter()
                .find(|a| !a.starts_with("--"))
                .copied()
                .unwrap_or(DEFAULT_DUMP);
            let job = shell.start_job(cmdline);
            let closed = || io.closed();
            let dumped = shell
                .phone
                .uiautomator_dump(DUMP_IDLE_TIMEOUT * 2, &|| job.killed() || closed());
            drop(job);
            match dumped {
                Ok(xml) if file == "/dev/tty" => {
                    // The status line follows the XML on the same line, as on a phone.
                    io.say(xml.trim_end());
                    io.say("UI hierchary dumped to: /dev/tty\n");
                    0
                }
                Ok(xml) => match shell.write_file(file, xml.as_bytes(), false) {
                    Ok(()) => {
                        io.say(&format!("UI hierchary dumped to: {file}\n"));
                        0
                    }
                    Err(refused) => {
                        io.complain(&format!("ERROR: could not write {file}: {refused}\n"));
                        1
                    }
                },
                Err(error) => ui_automation_failed(error, io),
            }
        }
        Some(&"events") => {
            let job = shell.start_job(cmdline);
            let mut lease = match shell.phone.events() {
                Ok(lease) => lease,
                Err(error) => return ui_automation_failed(error, io),
            };
            while !job.killed() && !io.closed() {
                let Some(event) = lease.next(Duration::from_millis(100)) else {
                    continue;
                };
                let line = system::event_line(&event);
                if io.out(line.as_bytes()).is_err() {
                    break;
                }
            }
            // Killed, or the host hung up: a signal, as the shell reports it.
            130
        }
        _ => {
            io.complain(
                "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n\
                 help: displays help message\n\n\
                 dump: creates an XML dump of current UI hierarchy\n    dump [--verbose][file]\n\n\
                 events: prints out accessibility events until terminated\n",
            );
            1
        }
    }
}

/// What `uiautomator` prints when it cannot do its work, and its status.
fn ui_automation_failed(error: UiAutomationError, io: &mut Io<'_>) -> u8 {
    match error {
        // The stock dump prints this on stderr and still exits 0.
        UiAutomationError::NotIdle { .. } => {
            io.complain("ERROR: could not get idle state.\n");
            0
        }
        UiAutomationError::Busy(holder) => {
            let held_by = match holder {
                UiClient::Dump => "a running dump",
                UiClient::Events => "uiautomator events",
                UiClient::Helper => "the uiautomator2 server",
            };
            io.complain(&format!(
                "java.lang.IllegalStateException: UiAutomationService \
                 android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5d1f0a2\
                 already registered! (held by {held_by})\n"
            ));
            1
        }
        // Killed: what a shell reports for SIGTERM.
        UiAutomationError::Stopped => 143,
    }
}

fn input<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    // A source word (`touchscreen`, `keyboard`, …) may come first.
    let args = match args.first() {
        Some(source) if system::INPUT_SOURCES.contains(source) => &args[1..],
        _ => args,
    };
    let Some((&command, rest)) = args.split_first() else {
        io.complain(system::INPUT_USAGE);
        return 1;
    };
    let numbers: Option<Vec<i32>> = rest.iter().map(|a| a.parse().ok()).collect();
    let phone = &shell.phone;
    let done = match (command, numbers.as_deref()) {
        ("tap", Some([x, y])) => phone.input(|sim| sim.tap(Point::new(*x, *y))),
        ("swipe", Some([x1, y1, x2, y2, rest @ ..])) if rest.len() <= 1 => {
            let duration = rest.first().map_or(DEFAULT_SWIPE, |&ms| {
                Duration::from_millis(u64::try_from(ms).unwrap_or(0))
            });
            let (from, to) = (Point::new(*x1, *y1), Point::new(*x2, *y2));
            phone.input(|sim| sim.swipe(from, to, duration))
        }
        ("text", _) if !rest.is_empty() => {
            // Android's `input text` types its first argument alone (the shell split an
            // unquoted text into words) and `%s` as a space.
            let text = rest[0].replace("%s", " ");
            phone.input(|sim| sim.input_text(&text))
        }
        ("keyevent", _) if !rest.is_empty() => {
            let keys: Option<Vec<Option<Key>>> = rest
                .iter()
                .filter(|a| !a.starts_with("--"))
                .map(|a| keycode(a))
                .collect();
            let Some(keys) = keys else {
                return input_exception(command, io);
            };
            // Keys the simulated app has no use for are delivered and ignored.
            phone.input(|sim| keys.iter().flatten().try_for_each(|&key| sim.key(key)))
        }
        ("tap" | "swipe" | "text" | "keyevent", _) => return input_exception(command, io),
        (other, _) => {
            io.complain(&format!(
                "Error: Unknown command: {other}\n{}",
                system::INPUT_USAGE
            ));
            return 1;
        }
    };
    match done {
        Ok(()) => 0,
        Err(error) => {
            io.complain(&format!(
                "Exception occurred while executing '{command}':\n\
                 java.lang.IllegalArgumentException: {error}\n"
            ));
            255
        }
    }
}

/// Bad arguments to an `input` command, as `cmd input` reports them.
fn input_exception(command: &str, io: &mut Io<'_>) -> u8 {
    io.complain(&format!(
        "Exception occurred while executing '{command}':\n\
         java.lang.IllegalArgumentException: Error: Invalid arguments for command: {command}\n"
    ));
    255
}

/// A key by number or `KEYCODE_` name: `Some(None)` for a real key the sim ignores.
fn keycode(word: &str) -> Option<Option<Key>> {
    let code = match word.parse::<u16>() {
        Ok(code) => code,
        Err(_) => system::KEYCODE_NAMES
            .iter()
            .find(|(name, _)| {
                word.eq_ignore_ascii_case(name) || word.eq_ignore_ascii_case(&name[8..])
            })
            .map(|(_, code)| *code)?,
    };
    Some(Key::ALL.into_iter().find(|key| key.keycode() == code))
}

fn screencap<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let png_flag = args.contains(&"-p");
    let file = args.iter().find(|a| !a.starts_with('-')).copied();
    let png = match shell.phone.screencap() {
        Ok(png) => png,
        Err(error) => {
            io.complain(&format!("screencap: {error}\n"));
            return 1;
        }
    };
    let as_png = png_flag || file.is_some_and(|f| f.ends_with(".png"));
    let bytes = if as_png { png } else { raw_frame(&png) };
    match file.map(|file| shell.write_file(file, &bytes, false)) {
        Some(Err(refused)) => {
            io.complain(&format!("screencap: write error: {refused}\n"));
            1
        }
        Some(Ok(())) => 0,
        None => {
            let _ = io.out(&bytes);
            0
        }
    }
}

/// `screencap` without `-p`: width, height, format (1, RGBA_8888) and colour space (0),
/// little-endian, then the pixels.
fn raw_frame(png: &[u8]) -> Vec<u8> {
    let Ok(image) = image::load_from_memory_with_format(png, image::ImageFormat::Png) else {
        return Vec::new();
    };
    let rgba = image.to_rgba8();
    let mut raw = Vec::with_capacity(16 + rgba.as_raw().len());
    for word in [rgba.width(), rgba.height(), 1, 0] {
        raw.extend_from_slice(&word.to_le_bytes());
    }
    raw.extend_from_slice(rgba.as_raw());
    raw
}

fn cat<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    if args.is_empty() {
        let stdin = std::mem::take(&mut io.stdin);
        let _ = io.out(&stdin);
        return 0;
    }
    let mut status = 0;
    for path in args {
        match shell.phone.native(|_| shell.read_file(path)) {
            Some(bytes) => {
                if io.out(&bytes).is_err() {
                    // Refused (no space, a full pipe) or nobody reading: stop here.
                    return 1;
                }
            }
            None if *path == "/dev/null" => {}
            None => {
                io.complain(&format!("cat: {path}: No such file or directory\n"));
                status = 1;
            }
        }
    }
    status
}

/// Whose `md5` output and errors: toybox's `md5sum`, or the old toolbox's `md5`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Md5Style {
    Toybox,
    Toolbox,
}

/// `md5sum [FILE…]`: `<32 hex>  <file>` a line, stdin (`-`) without a file; 1 when one
/// is missing, as toybox's.
fn md5sum<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    io: &mut Io<'_>,
    style: Md5Style,
) -> u8 {
    let hex = |bytes: &[u8]| -> String {
        Md5::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let files: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    if files.is_empty() {
        let stdin = std::mem::take(&mut io.stdin);
        io.say(&format!("{}  -\n", hex(&stdin)));
        return 0;
    }
    let mut status = 0;
    for path in files {
        match shell.phone.native(|_| shell.with_file(path, hex)) {
            Some(sum) => io.say(&format!("{sum}  {path}\n")),
            None if style == Md5Style::Toybox => {
                io.complain(&format!("md5sum: {path}: No such file or directory\n"));
                status = 1;
            }
            None => {
                io.complain(&format!(
                    "could not open {path}, No such file or directory\n"
                ));
                status = 1;
            }
        }
    }
    status
}

fn rm<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
    let mut status = 0;
    for path in args.iter().filter(|a| !a.starts_with('-')) {
        if !shell.remove_file(path) && !force {
            io.complain(&format!("rm: {path}: No such file or directory\n"));
            status = 1;
        }
    }
    status
}

/// `mv [-f] FROM TO`: a file renamed (mobilecli pushes its dex as `.tmp`, then moves it).
fn mv<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let paths: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let [from, to] = paths[..] else {
        io.complain("usage: mv [-fin] FROM... TO\n");
        return 1;
    };
    if shell.rename_file(from, to) {
        0
    } else {
        io.complain(&format!("mv: {from}: No such file or directory\n"));
        1
    }
}

fn ls<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let dir = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .copied()
        .unwrap_or("/sdcard");
    if shell.read_file(dir).is_some() {
        io.say(&format!("{dir}\n"));
        return 0;
    }
    let mut names = shell.list(dir);
    names.dedup();
    for name in names {
        io.say(&format!("{name}\n"));
    }
    0
}

fn echo(args: &[&str], io: &mut Io<'_>) -> u8 {
    let (newline, words) = match args.first() {
        Some(&"-n") => (false, &args[1..]),
        _ => (true, args),
    };
    io.say(&words.join(" "));
    if newline {
        io.say("\n");
    }
    0
}

/// `grep [-i] [-v] [-q] [-c] [-E|-F] PATTERN` over stdin: plain text, `a|b` with `-E`.
fn grep(args: &[&str], io: &mut Io<'_>) -> u8 {
    let flags: String = args
        .iter()
        .filter(|a| a.starts_with('-'))
        .flat_map(|a| a.chars().skip(1))
        .collect();
    let Some(pattern) = args.iter().find(|a| !a.starts_with('-')) else {
        io.complain("usage: grep [-civqEF] PATTERN\n");
        return 2;
    };
    let fold = |s: &str| {
        if flags.contains('i') {
            s.to_lowercase()
        } else {
            s.to_owned()
        }
    };
    let alternatives: Vec<String> = if flags.contains('E') {
        pattern.split('|').map(fold).collect()
    } else {
        vec![fold(pattern)]
    };
    let stdin = std::mem::take(&mut io.stdin);
    let text = String::from_utf8_lossy(&stdin);
    let matching: Vec<&str> = text
        .lines()
        .filter(|line| {
            let line = fold(line);
            alternatives.iter().any(|a| line.contains(a.as_str())) != flags.contains('v')
        })
        .collect();
    if flags.contains('c') {
        io.say(&format!("{}\n", matching.len()));
    } else if !flags.contains('q') {
        for line in &matching {
            io.say(&format!("{line}\n"));
        }
    }
    u8::from(matching.is_empty())
}

/// `head [-n N | -N | -c BYTES]` over stdin.
fn head(args: &[&str], io: &mut Io<'_>) -> u8 {
    let stdin = std::mem::take(&mut io.stdin);
    let count = |n: &str| n.parse::<usize>().ok();
    let lines = match args {
        ["-c", n, ..] => {
            let Some(bytes) = count(n) else {
                io.complain("head: bad byte count\n");
                return 1;
            };
            let _ = io.out(&stdin[..bytes.min(stdin.len())]);
            return 0;
        }
        ["-n", n, ..] => count(n),
        [flag, ..] if flag.starts_with('-') => count(&flag[1..]),
        _ => Some(10),
    };
    let Some(lines) = lines else {
        io.complain("head: bad line count\n");
        return 1;
    };
    for line in String::from_utf8_lossy(&stdin).lines().take(lines) {
        io.say(&format!("{line}\n"));
    }
    0
}

fn sleep<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let Some(seconds) = args
        .first()
        .and_then(|a| a.parse::<f64>().ok())
        .filter(|s| *s >= 0.0)
    else {
        io.complain("sleep: need a number of seconds\n");
        return 1;
    };
    let wanted = Duration::try_from_secs_f64(seconds)
        .unwrap_or(MAX_SLEEP)
        .min(MAX_SLEEP);
    let mut clock = shell.phone.clock();
    let until = clock.now() + wanted;
    while clock.now() < until && !io.closed() {
        clock.sleep((until - clock.now()).min(Duration::from_millis(100)));
    }
    0
}

/// `pkill [-f] [-SIGNAL] PATTERN`: ends the running `uiautomator` commands and servers
/// (`app_process …`) whose command line contains the pattern; 1 when none matched, as
/// toybox's does.
fn pkill<C: Clock + Clone + Send>(shell: &SimShell<C>, args: &[&str]) -> u8 {
    match args.iter().rev().find(|a| !a.starts_with('-')) {
        Some(pattern) if shell.kill_matching(pattern) > 0 => 0,
        _ => 1,
    }
}
