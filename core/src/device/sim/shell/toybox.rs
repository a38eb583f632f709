//! The toybox applets that describe the phone rather than act on it: `id`, `whoami`,
//! `which`, `uname`, `pidof` (the running apps by package, and `system_server`), and
//! `ip`/`ifconfig`, which show the one interface the sim has (it is on no network: no
//! `wlan0`), as toybox prints them.

use super::Io;
use crate::device::sim::Sim;
use crate::stability::Clock;

/// What `/system/bin` holds here: every command the sim's shell answers.
pub(super) const SYSTEM_BIN: [&str; 37] = [
    "am",
    "app_process",
    "cat",
    "cmd",
    "content",
    "dumpsys",
    "echo",
    "false",
    "getprop",
    "grep",
    "head",
    "id",
    "ifconfig",
    "input",
    "ip",
    "logcat",
    "ls",
    "md5",
    "md5sum",
    "monkey",
    "mv",
    "pidof",
    "pkill",
    "pm",
    "rm",
    "screencap",
    "settings",
    "sh",
    "sleep",
    "toybox",
    "true",
    "uiautomator",
    "uname",
    "which",
    "whoami",
    "wm",
    "getenforce",
];

/// Runs the applet `name`; `None` for a name that is not one of these.
pub(super) fn run(name: &str, args: &[&str], io: &mut Io<'_>) -> Option<u8> {
    let status = match name {
        "id" => id(args, io),
        "whoami" => {
            io.say("shell\n");
            0
        }
        "getenforce" => {
            io.say("Enforcing\n");
            0
        }
        "which" => which(args, io),
        "uname" => uname(args, io),
        "ip" => ip(args, io),
        "ifconfig" => ifconfig(args, io),
        _ => return None,
    };
    Some(status)
}

/// `id [-u|-g] [-n]`: the shell user, with its groups and SELinux context by default.
fn id(args: &[&str], io: &mut Io<'_>) -> u8 {
    let flags: String = args.iter().filter_map(|a| a.strip_prefix('-')).collect();
    let line = match (
        flags.contains('u') || flags.contains('g'),
        flags.contains('n'),
    ) {
        (true, true) => "shell",
        (true, false) => "2000",
        _ => {
            "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),\
             1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),\
             3003(inet),3006(net_bw_stats) context=u:r:shell:s0"
        }
    };
    io.say(&format!("{line}\n"));
    0
}

/// `which [-a] NAME…`: each command's path; 1 if one is not found (printing nothing for
/// it, as toybox).
fn which(args: &[&str], io: &mut Io<'_>) -> u8 {
    let mut status = 0;
    for name in args.iter().filter(|a| !a.starts_with('-')) {
        let bare = name.strip_prefix("/system/bin/").unwrap_or(name);
        if SYSTEM_BIN.contains(&bare) {
            io.say(&format!("/system/bin/{bare}\n"));
        } else {
            status = 1;
        }
    }
    status
}

/// `pidof [-s] [-o PID[,PID…]] [-x] NAME…`: the pids of the processes so named (an app by
/// its package), ascending as `/proc` lists them, on one line, exit 0; nothing and exit 1
/// when none runs. `-s` prints the first alone, `-o` leaves those pids out.
pub(super) fn pidof<C: Clock + Clone + Send>(sim: &Sim<C>, args: &[&str], io: &mut Io<'_>) -> u8 {
    let mut single = false;
    let mut omit: Vec<&str> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut options_ended = false;
    let mut words = args.iter().copied();
    while let Some(word) = words.next() {
        let flags = match word.strip_prefix('-') {
            Some(flags) if !options_ended && !flags.is_empty() => flags,
            _ => {
                // toybox compares a name's last part with each process's.
                names.push(word.rsplit('/').next().unwrap_or(word));
                continue;
            }
        };
        if flags == "-" {
            options_ended = true;
            continue;
        }
        if let Some(long) = flags.strip_prefix('-') {
            return pidof_refused(&format!("Unknown option '{long}'"), io);
        }
        for (at, flag) in flags.char_indices() {
            match flag {
                's' => single = true,
                // Scripts run as their interpreter: the sim runs none.
                'x' => {}
                'o' => {
                    let attached = &flags[at + flag.len_utf8()..];
                    let list = if attached.is_empty() {
                        words.next()
                    } else {
                        Some(attached)
                    };
                    let Some(list) = list else {
                        return pidof_refused("Missing argument to -o", io);
                    };
                    // The last `-o` counts, as toybox keeps one.
                    omit = list.split(',').collect();
                    break;
                }
                other => return pidof_refused(&format!("Unknown option '{other}'"), io),
            }
        }
    }
    if names.is_empty() {
        return pidof_refused("Needs 1 argument", io);
    }
    let mut pids: Vec<String> = sim
        .pids_named(&names)
        .into_iter()
        .map(|pid| pid.to_string())
        .filter(|pid| !omit.contains(&pid.as_str()))
        .collect();
    if single {
        pids.truncate(1);
    }
    if pids.is_empty() {
        return 1;
    }
    io.say(&format!("{}\n", pids.join(" ")));
    0
}

/// What toybox says of a `pidof` line it cannot take.
fn pidof_refused(why: &str, io: &mut Io<'_>) -> u8 {
    io.complain(&format!("pidof: {why} (see \"pidof --help\")\n"));
    1
}

/// What `uname` reports: a GKI kernel of Android 14's, on arm64.
const KERNEL: [(char, &str); 5] = [
    ('s', "Linux"),
    ('n', "localhost"),
    ('r', "5.15.148-android14-11-gd7a2c0f7c5b2-ab11837013"),
    ('v', "#1 SMP PREEMPT Mon Jun 10 12:00:00 UTC 2024"),
    ('m', "aarch64"),
];

/// `uname [-asnrvmo]`: `-s` alone by default; `-a` all of them, then `Toybox`.
fn uname(args: &[&str], io: &mut Io<'_>) -> u8 {
    let flags: String = args.iter().filter_map(|a| a.strip_prefix('-')).collect();
    if let Some(bad) = flags.chars().find(|c| !"asnrvmo".contains(*c)) {
        io.complain(&format!(
            "uname: Unknown option '{bad}' (see \"uname --help\")\n"
        ));
        return 1;
    }
    let all = flags.contains('a');
    let mut fields: Vec<&str> = KERNEL
        .iter()
        .filter(|(flag, _)| all || flags.contains(*flag))
        .map(|(_, value)| *value)
        .collect();
    if fields.is_empty() && !flags.contains('o') {
        fields.push(KERNEL[0].1);
    }
    if all || flags.contains('o') {
        fields.push("Toybox");
    }
    io.say(&format!("{}\n", fields.join(" ")));
    0
}

const LOOPBACK: &str = "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n";

/// `ip addr|a|address [show [dev] IFACE]` and `ip route`: the loopback interface only.
fn ip(args: &[&str], io: &mut Io<'_>) -> u8 {
    let args: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    match args.as_slice() {
        ["addr" | "a" | "address", rest @ ..] => {
            let iface = rest
                .iter()
                .copied()
                .find(|a| !matches!(*a, "show" | "list" | "dev"));
            match iface {
                None | Some("lo") => {
                    io.say(LOOPBACK);
                    0
                }
                Some(other) => {
                    io.complain(&format!("Device \"{other}\" does not exist.\n"));
                    1
                }
            }
        }
        // No network: no routes in the main table.
        ["route" | "r", ..] => 0,
        _ => {
            io.complain("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\nwhere  OBJECT := { address | route }\n");
            255
        }
    }
}

/// `ifconfig [IFACE]`: the loopback interface only.
fn ifconfig(args: &[&str], io: &mut Io<'_>) -> u8 {
    match args.iter().find(|a| !a.starts_with('-')) {
        None | Some(&"lo") => {
            io.say("lo        Link encap:Local Loopback\n          inet addr:127.0.0.1  Mask:255.0.0.0 \n          inet6 addr: ::1/128 Scope: Host\n          UP LOOPBACK RUNNING  MTU:65536  Metric:1\n          RX packets:0 errors:0 dropped:0 overruns:0 frame:0 \n          TX packets:0 errors:0 dropped:0 overruns:0 carrier:0 \n          collisions:0 txqueuelen:1000 \n          RX bytes:0 TX bytes:0 \n\n");
            0
        }
        Some(other) => {
            io.complain(&format!("ifconfig: {other}: No such device\n"));
            1
        }
    }
}
