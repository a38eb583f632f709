//! The sim's shell as the adb command line reaches it through Debian's real adb server:
//! `$?`, variables, `export`, `sh -c` and `exec`, as mksh on a phone runs them; `adb logcat`.

use tapscope_tests::adb::{PrivateAdb, text};

#[test]
fn the_adb_shell_expands_status_and_variables_and_runs_nested_shells() {
    let adb = PrivateAdb::start();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(["sim", "--adb", "127.0.0.1:0"]);
    let (_sim, serial) = adb.connect_sim(command);

    let ran = adb.on(
        &serial,
        &["shell", r#"false; echo $?; X=5; echo $X; sh -c "echo hi""#],
    );
    assert_eq!(text(&ran.stdout), "1\n5\nhi\n", "{}", text(&ran.stderr));

    // Exported variables reach a nested shell; plain ones do not; quotes decide.
    let ran = adb.on(
        &serial,
        &[
            "shell",
            r#"A=1; export B=2; sh -c 'echo "[$A][$B]"'; echo '$B' "$B""#,
        ],
    );
    assert_eq!(text(&ran.stdout), "[][2]\n$B 2\n", "{}", text(&ran.stderr));

    // `exec` ends the line with its command's status, as adb's own `logcat` line needs.
    let ran = adb.on(&serial, &["shell", "exec false; echo never"]);
    assert_eq!(text(&ran.stdout), "");
    assert_eq!(ran.status.code(), Some(1));
}

#[test]
fn adb_logcat_dumps_what_the_sim_wrote_and_clears_it() {
    let adb = PrivateAdb::start();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(["sim", "--adb", "127.0.0.1:0"]);
    let (_sim, serial) = adb.connect_sim(command);

    // TapTube's launcher icon: the tap, then the activity it starts.
    let ran = adb.on(&serial, &["shell", "input", "tap", "160", "430"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let ran = adb.on(&serial, &["logcat", "-d"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let before = text(&ran.stdout);
    assert!(
        before.contains(" D InputDispatcher: Injected tap (160, 430) to 7c1a2f0 "),
        "{before}"
    );
    assert!(
        before
            .lines()
            .any(|l| l.contains(" I ActivityTaskManager: START u0 {")
                && l.contains(" cmp=tv.tapscope.demo/.MainActivity}")),
        "{before}"
    );

    let ran = adb.on(&serial, &["logcat", "-c"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let ran = adb.on(&serial, &["logcat", "-d"]);
    let after = text(&ran.stdout);
    // Only the launch time may follow, if it was not written yet when the log was cleared.
    for line in before.lines().filter(|l| !l.starts_with("---------")) {
        assert!(!after.contains(line), "{line} survived the clear:\n{after}");
    }
    assert!(
        after
            .lines()
            .all(|l| l.starts_with("---------") || l.contains("Displayed")),
        "{after}"
    );
}
