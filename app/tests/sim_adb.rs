//! The sim as the adb command line reaches it through Debian's real adb server: `adb ls`
//! (the sync LIST) of what was pushed, `adb reverse`, `adb root` refused as a production
//! build refuses it, and its memory bounded: a file tripled 30 times is refused once it
//! is too large, and the sim goes on answering.

use tapscope_tests::adb::{PrivateAdb, text};
use tapscope_tests::child::Running;

fn sim(adb: &PrivateAdb) -> (Running, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(["sim", "--adb", "127.0.0.1:0"]);
    adb.connect_sim(command)
}

#[test]
fn adb_ls_lists_what_was_pushed_and_pull_gives_it_back() {
    let adb = PrivateAdb::start();
    let (_sim, serial) = sim(&adb);
    let local = adb.home().join("hello.txt");
    std::fs::write(&local, "hello from the host\n").unwrap();
    let local = local.to_str().unwrap();
    let ran = adb.on(&serial, &["push", local, "/sdcard/Download/hello.txt"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));

    let ran = adb.on(&serial, &["ls", "/sdcard/Download"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let listing = text(&ran.stdout);
    // `adb ls` prints mode, size and mtime in hex, then the name.
    let line = listing
        .lines()
        .find(|l| l.ends_with(" hello.txt"))
        .unwrap_or_else(|| panic!("no hello.txt in\n{listing}"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields[..2], ["000081b6", "00000014"], "{line}");
    assert!(listing.lines().any(|l| l.ends_with(" .")), "{listing}");

    let ran = adb.on(&serial, &["ls", "/sdcard"]);
    assert!(
        text(&ran.stdout)
            .lines()
            .any(|l| l.starts_with("000041f9 ") && l.ends_with(" Download")),
        "{}",
        text(&ran.stdout)
    );

    let back = adb.home().join("back.txt");
    let ran = adb.on(
        &serial,
        &["pull", "/sdcard/Download/hello.txt", back.to_str().unwrap()],
    );
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    assert_eq!(
        std::fs::read_to_string(back).unwrap(),
        "hello from the host\n"
    );
}

#[test]
fn adb_reverse_is_kept_listed_and_removed_and_root_is_refused() {
    let adb = PrivateAdb::start();
    let (_sim, serial) = sim(&adb);
    let ran = adb.on(&serial, &["reverse", "tcp:8081", "tcp:8081"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let ran = adb.on(&serial, &["reverse", "--list"]);
    // adb prints the listing, then a newline of its own.
    assert_eq!(text(&ran.stdout), "host-1 tcp:8081 tcp:8081\n\n");
    let ran = adb.on(&serial, &["reverse", "--no-rebind", "tcp:8081", "tcp:9"]);
    assert!(!ran.status.success());
    assert!(
        text(&ran.stderr).contains("cannot rebind existing socket"),
        "{}",
        text(&ran.stderr)
    );
    let ran = adb.on(&serial, &["reverse", "--remove", "tcp:8081"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    assert_eq!(text(&adb.on(&serial, &["reverse", "--list"]).stdout), "\n");

    let ran = adb.on(&serial, &["root"]);
    let said = format!("{}{}", text(&ran.stdout), text(&ran.stderr));
    assert!(
        said.contains("adbd cannot run as root in production builds"),
        "{said}"
    );
    // The device is still there and still the shell user.
    let ran = adb.on(&serial, &["shell", "id", "-un"]);
    assert_eq!(text(&ran.stdout), "shell\n");
}

#[test]
fn a_file_tripled_thirty_times_is_refused_at_its_limit_and_the_sim_goes_on() {
    let adb = PrivateAdb::start();
    let (_sim, serial) = sim(&adb);
    let ran = adb.on(&serial, &["shell", "echo x > /sdcard/a"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
    let mut refused = 0;
    for _ in 0..30 {
        let ran = adb.on(&serial, &["shell", "cat /sdcard/a /sdcard/a >> /sdcard/a"]);
        if !ran.status.success() {
            assert_eq!(ran.status.code(), Some(1));
            let err = text(&ran.stderr);
            assert!(
                err.contains("File too large") || err.contains("No space left on device"),
                "{err}"
            );
            refused += 1;
        }
    }
    // 2 × 3^15 bytes (28.7 MB) fit in a 64 MiB file; the 16th tripling does not.
    assert_eq!(refused, 15);
    let ran = adb.on(&serial, &["shell", "ls -l /sdcard/a; echo alive"]);
    assert!(
        text(&ran.stdout).ends_with("alive\n"),
        "{}",
        text(&ran.stdout)
    );
    let ran = adb.on(&serial, &["shell", "md5sum /sdcard/a"]);
    assert!(ran.status.success(), "{}", text(&ran.stderr));
}
