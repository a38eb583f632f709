//! The applets that describe the phone (`pidof` among them), `export`'s listings, and the
//! directories the sync protocol lists, on literal output.

use super::super::*;
use super::{run, shell};

#[test]
fn every_command_which_names_is_one_the_shell_answers() {
    let shell = shell();
    for name in toybox::SYSTEM_BIN {
        let (status, out, _) = run(&shell, &format!("which {name}"));
        assert_eq!((status, out), (0, format!("/system/bin/{name}\n")));
        // A bad option, which every command refuses or ignores at once; none is unknown.
        let (_, _, err) = run(&shell, &format!("{name} --tapscope-bad-option"));
        assert!(!err.contains("inaccessible or not found"), "{name}: {err}");
    }
    let (status, out, _) = run(&shell, "which sh su busybox; echo $?");
    assert_eq!((status, out.as_str()), (0, "/system/bin/sh\n1\n"));
}

#[test]
fn uname_and_id_print_as_toybox() {
    let shell = shell();
    assert_eq!(run(&shell, "uname").1, "Linux\n");
    assert_eq!(run(&shell, "uname -m").1, "aarch64\n");
    assert_eq!(
        run(&shell, "uname -a").1,
        "Linux localhost 5.15.148-android14-11-gd7a2c0f7c5b2-ab11837013 #1 SMP PREEMPT \
         Mon Jun 10 12:00:00 UTC 2024 aarch64 Toybox\n"
    );
    let (status, _, err) = run(&shell, "uname -z");
    assert_eq!(
        (status, err.as_str()),
        (1, "uname: Unknown option 'z' (see \"uname --help\")\n")
    );
    assert!(
        run(&shell, "toybox id")
            .1
            .starts_with("uid=2000(shell) gid=2000(shell) ")
    );
}

#[test]
fn pidof_prints_what_runs_on_one_line_and_nothing_with_1_for_what_does_not() {
    let shell = shell();
    let demo = "tv.tapscope.demo";
    let (status, out, err) = run(&shell, &format!("pidof {demo}"));
    assert_eq!((status, out.as_str(), err.as_str()), (1, "", ""));
    run(
        &shell,
        "monkey -p tv.tapscope.demo -c android.intent.category.LAUNCHER 1",
    );
    let (status, out, err) = run(&shell, &format!("pidof {demo}"));
    assert_eq!((status, err.as_str()), (0, ""));
    let pid = out.trim_end();
    assert_eq!(out, format!("{pid}\n"));
    // The pid the log and `dumpsys` give, and the sim's own.
    assert_eq!(shell.phone().sim().running_pid(demo), pid.parse().ok());
    let started = run(&shell, "logcat -d -s ActivityManager").1;
    assert!(
        started.contains(&format!("Start proc {pid}:tv.tapscope.demo/u0a210 ")),
        "{started}"
    );
    let top = run(&shell, "dumpsys activity top").1;
    assert!(top.contains(&format!(" pid={pid}\n")), "{top}");
    // Several names: every pid, ascending, on one line; `-s` the first, `-o` leaves out.
    assert_eq!(
        run(&shell, &format!("pidof {demo} system_server")).1,
        format!("587 {pid}\n")
    );
    assert_eq!(
        run(&shell, &format!("pidof -s {demo} system_server")).1,
        "587\n"
    );
    assert_eq!(
        run(&shell, "pidof -o 587 system_server nothing.here; echo $?").1,
        "1\n"
    );
    assert_eq!(run(&shell, "toybox pidof system_server").1, "587\n");
    assert_eq!(
        run(&shell, "pidof"),
        (
            1,
            String::new(),
            "pidof: Needs 1 argument (see \"pidof --help\")\n".to_owned()
        )
    );
    assert_eq!(
        run(&shell, "pidof -z system_server").2,
        "pidof: Unknown option 'z' (see \"pidof --help\")\n"
    );
}

#[test]
fn the_sim_has_loopback_and_no_wifi() {
    let shell = shell();
    let (status, out, _) = run(&shell, "ip addr show lo");
    assert_eq!(status, 0);
    assert!(
        out.contains("    inet 127.0.0.1/8 scope host lo\n"),
        "{out}"
    );
    // adbutils' `wlan_ip` asks these; a phone with no Wi-Fi answers so.
    let (status, _, err) = run(&shell, "ip addr show wlan0");
    assert_eq!(
        (status, err.as_str()),
        (1, "Device \"wlan0\" does not exist.\n")
    );
    let (status, _, err) = run(&shell, "ifconfig wlan0");
    assert_eq!(
        (status, err.as_str()),
        (1, "ifconfig: wlan0: No such device\n")
    );
    assert!(
        run(&shell, "ifconfig")
            .1
            .contains("inet addr:127.0.0.1  Mask:255.0.0.0")
    );
}

#[test]
fn export_lists_names_and_dash_p_lists_commands_to_set_them() {
    let shell = shell();
    let (status, out, _) = run(&shell, "export A_B='x y'; export");
    assert_eq!(status, 0);
    let names: Vec<&str> = out.lines().collect();
    assert!(names.contains(&"A_B") && names.contains(&"PATH"), "{out}");
    assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted: {out}");
    let out = run(&shell, "export A_B=\"it's\"; export -p").1;
    assert!(out.contains("export A_B='it'\\''s'\n"), "{out}");
    assert!(out.contains("export EXTERNAL_STORAGE=/sdcard\n"), "{out}");
}

#[test]
fn directories_list_dot_entries_files_and_subdirectories() {
    let shell = shell();
    run(
        &shell,
        "echo hi > /sdcard/Download/a.txt; echo x > /sdcard/b",
    );
    let names = |dir: &str| -> Vec<(String, FileKind)> {
        shell
            .entries(dir)
            .into_iter()
            .map(|e| (e.name, e.stat.kind))
            .collect()
    };
    let dir = FileKind::Directory;
    assert_eq!(
        names("/storage/emulated/0/"),
        [
            (".".into(), dir),
            ("..".into(), dir),
            ("Download".into(), dir),
            ("b".into(), FileKind::Regular),
        ]
    );
    assert_eq!(names("/sdcard/Download")[2].0, "a.txt");
    assert_eq!(names("/data/local/tmp").len(), 2);
    assert!(names("/sdcard/nothing").is_empty());
    assert!(names("/sdcard/b").is_empty());
    let stat = shell.stat("/sdcard/Download").unwrap();
    assert_eq!((stat.kind, stat.mode), (FileKind::Directory, 0o771));
}

#[test]
fn input_comes_from_a_file_or_from_nothing() {
    let shell = shell();
    run(
        &shell,
        "echo one > /data/local/tmp/in; echo two >> /data/local/tmp/in",
    );
    assert_eq!(run(&shell, "grep two < /data/local/tmp/in").1, "two\n");
    // What adb 1.0.41 runs after a push install.
    let (status, _, err) = run(&shell, "rm -f '/data/local/tmp/in' </dev/null");
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(shell.stat("/data/local/tmp/in"), None);
    let (status, out, err) = run(&shell, "cat < /sdcard/none; echo $?");
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (
            0,
            "1\n",
            "/system/bin/sh: can't open /sdcard/none: No such file or directory\n"
        )
    );
}

#[test]
fn mv_renames_a_file_over_another() {
    let shell = shell();
    run(
        &shell,
        "echo new > /data/local/tmp/a.tmp; echo old > /data/local/tmp/a",
    );
    assert_eq!(
        run(&shell, "mv -f /data/local/tmp/a.tmp /data/local/tmp/a").0,
        0
    );
    assert_eq!(run(&shell, "cat /data/local/tmp/a").1, "new\n");
    assert_eq!(shell.stat("/data/local/tmp/a.tmp"), None);
    let (status, _, err) = run(&shell, "mv /sdcard/none /sdcard/b");
    assert_eq!(
        (status, err.as_str()),
        (1, "mv: /sdcard/none: No such file or directory\n")
    );
}
