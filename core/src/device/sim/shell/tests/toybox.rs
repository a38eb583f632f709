//! The applets that describe the phone, `export`'s listings, and the directories the sync
//! protocol lists, on literal output.

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
