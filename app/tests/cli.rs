//! The CLI as a user runs it: real files, standard input, pipes that close, full disks,
//! exit codes and error messages.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tapscope_tests::dumps::{RunAt, dump_with_run};

fn tapscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .output()
        .expect("tapscope runs")
}

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tapscope starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("input is written");
    child.wait_with_output().expect("tapscope finishes")
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/samples/video_feed.xml")
        .display()
        .to_string()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// A scratch file under the target directory, unique per test.
fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("scratch file");
    path
}

#[test]
fn prunes_the_shipped_sample_to_yaml() {
    let output = tapscope(&["prune", &sample()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let first = text.lines().next().expect("output has lines");
    assert!(
        first.starts_with("version: \"") && first.len() == "version: \"\"".len() + 12,
        "{first}"
    );
    assert!(text.contains("app: tv.tapscope.demo\n"));
    assert!(text.contains("display: 1080x2400\n"));
    assert!(
        text.contains("\n[2] edit \"Search videos\" long\n"),
        "{text}"
    );
    assert!(
        text.contains(r#"more: [2 below: "Street food in Osaka", "Fixing a 1970s synthesizer"]"#),
        "{text}"
    );
}

#[test]
fn the_version_is_the_screens_own_in_every_run_and_format() {
    let first = stdout(&tapscope(&["prune", &sample()]));
    let again = stdout(&tapscope(&["prune", &sample()]));
    assert_eq!(first, again, "the same dump prunes to the same text");
    let (version_line, body) = first.split_once('\n').expect("a version line");
    let version = version_line
        .strip_prefix("version: \"")
        .and_then(|v| v.strip_suffix('"'))
        .expect("the version quoted");
    assert_eq!(version, tapscope_core::render::content_version(body));
    let json = stdout(&tapscope(&["prune", "--format", "json", &sample()]));
    let json: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(json["version"], version, "JSON names the same screen");
}

#[test]
fn json_format_is_valid_json_with_bounds_and_raw_ids() {
    let output = tapscope(&["prune", "--format", "json", &sample()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    let nodes = json["nodes"].as_array().expect("nodes array");
    let search = nodes
        .iter()
        .find(|n| n["text"] == "Search videos")
        .expect("search box listed");
    assert_eq!(search["i"], 2);
    assert_eq!(search["role"], "edit");
    assert_eq!(search["bounds"]["left"], 144);
    assert!(search["raw"].as_u64().is_some());
}

#[test]
fn stats_report_sizes_tokens_and_no_loss() {
    let output = tapscope(&["prune", "--stats", &sample()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    for key in [
        "raw_bytes",
        "raw_tokens",
        "pruned_bytes",
        "pruned_tokens",
        "raw_nodes",
        "kept_nodes",
        "semantic_nodes",
    ] {
        assert!(stats[key].as_u64().is_some_and(|v| v > 0), "{key}: {stats}");
    }
    assert_eq!(stats["lost_semantic_nodes"], serde_json::json!([]));
    assert_eq!(stats["encoding"], "o200k_base");
    assert_eq!(stats["fallback"], false);
    let raw = stats["raw_tokens"].as_u64().unwrap_or(0);
    let pruned = stats["pruned_tokens"].as_u64().unwrap_or(u64::MAX);
    assert!(raw >= 10 * pruned, "raw {raw} vs pruned {pruned}");
}

#[test]
fn cl100k_encoding_is_selectable() {
    let output = tapscope(&["prune", "--stats", "--encoding", "cl100k", &sample()]);
    let stats: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    assert_eq!(stats["encoding"], "cl100k_base");
}

#[test]
fn reads_standard_input() {
    let xml = std::fs::read(sample()).expect("sample readable");
    let output = with_stdin(&["prune", "-"], &xml);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("\"Search videos\""));
}

#[test]
fn a_lost_semantic_node_fails_the_stats_check_with_exit_1() {
    let rules = scratch("collapse.toml", b"keyboard = \"collapse\"\n");
    let xml = br#"<hierarchy><node class="android.widget.FrameLayout" package="app" bounds="[0,0][100,200]"><node text="Go" clickable="true" class="android.widget.Button" package="app" bounds="[0,0][50,50]"/></node><node class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,150][100,200]"><node content-desc="q" clickable="true" class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,150][10,200]"/></node></hierarchy>"#;
    let dump = scratch("keyboard.xml", xml);
    let output = tapscope(&[
        "prune",
        "--stats",
        "--rules",
        &rules.display().to_string(),
        &dump.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    assert_eq!(stats["lost_semantic_nodes"][0]["desc"], "q");
}

#[test]
fn malformed_xml_names_the_position_and_exits_2() {
    let dump = scratch(
        "broken.xml",
        b"<hierarchy>\n  <node text=\"a\" bounds=\"[0,0][1,1]\">\n  </wrong>\n</hierarchy>",
    );
    let output = tapscope(&["prune", &dump.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("malformed XML at line 3"), "{message}");
    assert_eq!(message.lines().count(), 1, "reported once: {message}");
    assert!(stdout(&output).is_empty());
}

#[test]
fn missing_file_and_bad_rules_are_usage_errors() {
    let output = tapscope(&["prune", "/definitely/not/here.xml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("/definitely/not/here.xml"),
        "{}",
        stderr(&output)
    );

    let rules = scratch("typo.toml", b"anchor = false\n");
    let output = tapscope(&["prune", "--rules", &rules.display().to_string(), &sample()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown field `anchor`"),
        "{}",
        stderr(&output)
    );

    let output = tapscope(&["prune", "--format", "yml", &sample()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("possible values"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn not_a_dump_says_what_was_expected() {
    let output = with_stdin(&["prune", "-"], b"hello world");
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("unrecognised dump format"), "{message}");
    assert!(message.contains("uiautomator"), "{message}");
}

/// `tapscope devices` against the ADB server at `server` (`tcp:HOST:PORT`).
fn devices_at(server: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .arg("devices")
        .env("ADB_SERVER_SOCKET", server)
        .env_remove("ANDROID_ADB_SERVER_PORT")
        .output()
        .expect("tapscope runs")
}

#[test]
fn devices_without_an_adb_server_lists_sim_and_says_to_start_adb() {
    // Nothing listens on loopback port 1, so this never depends on the machine's adb.
    let output = devices_at("tcp:127.0.0.1:1");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("sim "), "{}", stdout(&output));
    let message = stderr(&output);
    assert!(
        message.contains("no ADB server answers at 127.0.0.1:1"),
        "{message}"
    );
    assert!(message.contains("adb start-server"), "{message}");
}

#[test]
fn devices_lists_phones_with_advice_for_unusable_ones() {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("loopback port");
    let port = listener.local_addr().expect("bound").port();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("tapscope connects");
        let mut request = [0u8; 4 + "host:devices-l".len()];
        stream.read_exact(&mut request).expect("request");
        assert_eq!(&request, b"000ehost:devices-l");
        let list = "emulator-5554\tdevice product:sdk model:Pixel_7 device:emu transport_id:1\n\
                    R58M12345AB\tunauthorized usb:1-1 transport_id:2\n";
        let reply = format!("OKAY{:04x}{list}", list.len());
        stream.write_all(reply.as_bytes()).expect("reply");
    });
    let output = devices_at(&format!("tcp:127.0.0.1:{port}"));
    server.join().expect("fake server");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[0].starts_with("sim "), "{text}");
    assert!(lines[1].starts_with("sim:phone "), "{text}");
    assert!(lines[1].contains("stock phone"), "{text}");
    assert!(lines[2].starts_with("sim-next "), "{text}");
    assert!(lines[2].ends_with("no search)"), "{text}");
    assert!(lines[3].starts_with("sim-next:phone "), "{text}");
    assert!(lines[3].contains("next release") && lines[3].contains("stock phone"));
    assert!(lines[4].starts_with("emulator-5554   device "), "{text}");
    assert!(lines[4].contains("Pixel_7"), "{text}");
    assert!(lines[5].contains("unauthorized"), "{text}");
    assert!(
        lines[5].ends_with("allow USB debugging from this computer"),
        "{text}"
    );
}

#[test]
fn observe_drives_the_simulated_phone_through_scripted_steps() {
    let output = tapscope(&["observe", "--step", "tap:TapTube", "--step", "key:back"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let acts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("# acted on"))
        .collect();
    assert_eq!(acts.len(), 2, "{text}");
    assert!(
        acts[0].contains("\"TapTube\"") && acts[0].contains("\"settled\":true"),
        "{}",
        acts[0]
    );
    assert!(acts[1].contains("the back key"), "{}", acts[1]);
    // Back on the launcher, under a fresh version.
    assert!(text.contains("\n[1] \"TapTube\" long\n"), "{text}");
}

#[test]
fn observe_reads_the_next_build_of_the_sim() {
    let output = tapscope(&["observe", "--device", "sim-next"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("\n[1] \"TapTube Video\" long\n"), "{text}");
    assert!(!text.contains("\"TapTube\""), "{text}");

    let output = tapscope(&["observe", "--device", "sim-nxt"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("use sim, sim:phone, sim-next, sim-next:phone"),
        "{message}"
    );
}

#[test]
fn observe_refuses_bad_steps_before_touching_the_device() {
    let output = tapscope(&["observe", "--step", "swipe:left"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("use tap, key, scroll or text"),
        "{}",
        stderr(&output)
    );
    let output = tapscope(&["observe", "--step", "tap:Nothing like this"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no actionable \"Nothing like this\""),
        "{}",
        stderr(&output)
    );
}

/// `tapscope ARGS` with standard output and standard error sent where given.
fn with_outputs(args: &[&str], out: Stdio, err: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .stdout(out)
        .stderr(err)
        .output()
        .expect("tapscope runs")
}

fn dev_full() -> Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full opens")
        .into()
}

fn samples_dir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../assets/samples")
        .display()
        .to_string()
}

/// A fresh scratch folder under the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn a_million_of_one_character_anywhere_is_counted() {
    let units = [" ", "\t", "a", "7", "中", "😀"];
    for (n, unit) in units.into_iter().enumerate() {
        for at in [RunAt::InAttribute, RunAt::BetweenNodes] {
            let dump = dump_with_run(unit, 1_000_000, at);
            let path = scratch(&format!("run_{n}_{at:?}.xml"), dump.as_bytes());
            let output = tapscope(&["prune", "--stats", &path.display().to_string()]);
            assert_eq!(
                output.status.code(),
                Some(0),
                "{unit:?} {at:?}: {}",
                stderr(&output)
            );
            let stats: serde_json::Value =
                serde_json::from_str(&stdout(&output)).expect("valid JSON");
            let raw = stats["raw_tokens"].as_u64().unwrap_or(0);
            assert!(raw > 7000, "{unit:?} {at:?}: {stats}");
            assert!(stats.get("estimated").is_none(), "{unit:?} {at:?}: {stats}");
        }
    }
}

#[test]
fn stats_counts_a_folder_with_long_runs_and_marks_estimates() {
    let dir = scratch_dir("long_runs");
    let spaces = dump_with_run(" ", 1_000_000, RunAt::BetweenNodes);
    std::fs::write(dir.join("spaces.xml"), spaces).expect("write");
    let mixed = dump_with_run(" \t", 1_000_000, RunAt::InAttribute);
    std::fs::write(dir.join("mixed.xml"), mixed).expect("write");
    let output = tapscope(&["stats", &dir.display().to_string()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}: {text}"))
            .to_owned()
    };
    assert!(!row("spaces.xml").contains('≈'), "{text}");
    assert!(row("mixed.xml").contains('≈'), "{text}");
    assert!(text.contains("≈ marks an estimated count"), "{text}");
    let said = stderr(&output);
    assert!(
        said.is_empty(),
        "no progress bar on a standard error that is not a terminal: {said}"
    );
}

#[test]
fn a_reader_that_goes_away_ends_every_command_quietly() {
    let (sample, samples) = (sample(), samples_dir());
    for args in [
        vec!["stats", samples.as_str()],
        vec!["prune", sample.as_str()],
        vec!["prune", "--format", "json", sample.as_str()],
        vec!["prune", "--stats", sample.as_str()],
        vec!["--help"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tapscope starts");
        // The reader is gone before tapscope writes anything (`| head -c0`).
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("tapscope finishes");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(output.stderr.is_empty(), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn a_full_disk_under_the_output_is_one_message_and_exit_2() {
    let (sample, samples) = (sample(), samples_dir());
    for args in [
        vec!["stats", samples.as_str()],
        vec!["prune", sample.as_str()],
        vec!["prune", "--stats", sample.as_str()],
        vec!["--version"],
    ] {
        let output = with_outputs(&args, dev_full(), Stdio::piped());
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
        assert!(
            message.starts_with("tapscope: cannot write the output (No space left on device"),
            "{args:?}: {message}"
        );
    }
    // Nowhere to say it either: still exit 2, never a panic (101).
    let output = with_outputs(&["prune", &sample], dev_full(), dev_full());
    assert_eq!(output.status.code(), Some(2));
    let output = with_outputs(
        &["prune", "/definitely/not/here.xml"],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(output.status.code(), Some(2));
}

/// Runs `tapscope ARGS`, failing the test if it has not ended within 20 seconds.
fn within_deadline(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tapscope starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().expect("status").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("tapscope {args:?} is still running after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn rules_that_are_not_a_small_file_are_refused_at_once() {
    let sample = sample();
    let output = within_deadline(&["prune", "--rules", "/dev/zero", &sample]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "tapscope: /dev/zero is a device: give a rules file (TOML, like \
         assets/rules/default.toml)\n"
    );

    // A FIFO nobody writes to would block the open: refused before it.
    let dir = scratch_dir("rules");
    let fifo = dir.join("rules.fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let output = within_deadline(&["prune", "--rules", &fifo.display().to_string(), &sample]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is a FIFO (named pipe): give a rules file"),
        "{}",
        stderr(&output)
    );

    // 100 MB: named with its size, and none of it echoed.
    let huge = dir.join("huge.toml");
    std::fs::File::create(&huge)
        .and_then(|file| file.set_len(100_000_000))
        .expect("sparse file");
    let output = within_deadline(&["prune", "--rules", &huge.display().to_string(), &sample]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains(&huge.display().to_string()), "{message}");
    assert!(
        message.contains("the file is 100000000 bytes, over the 65536-byte limit for rules"),
        "{message}"
    );
    assert!(message.len() < 400, "{} bytes of message", message.len());

    let output = within_deadline(&["stats", "--rules", &dir.display().to_string(), &sample]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is a folder: give a rules file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_folder_given_as_a_dump_is_said_to_be_one_once() {
    let dir = scratch_dir("a_folder");
    let shown = dir.display().to_string();
    for args in [
        vec!["prune", shown.as_str()],
        vec!["prune", "--stats", shown.as_str()],
    ] {
        let output = tapscope(&args);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "tapscope: {shown} is a folder: give a dump file (.xml or .json); `tapscope \
                 stats` and `tapscope open` take folders\n"
            )
        );
    }
}

#[test]
fn bounds_out_of_range_say_the_number_is() {
    let dump = scratch(
        "out_of_range.xml",
        br#"<hierarchy><node text="a" bounds="[0,0][2147483648,1]"/></hierarchy>"#,
    );
    let output = tapscope(&["prune", &dump.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("2147483648 is out of range"), "{message}");
    assert!(!message.contains("not of the form"), "{message}");
}

#[test]
fn a_dump_over_the_size_limit_is_named_with_its_size() {
    let huge = scratch_dir("too_large").join("huge.xml");
    std::fs::File::create(&huge)
        .and_then(|file| file.set_len(70_000_000))
        .expect("sparse file");
    let output = tapscope(&["prune", &huge.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with(&format!(
            "tapscope: {} is 70000000 bytes, over the 67108864-byte limit",
            huge.display()
        )),
        "{message}"
    );
}

#[test]
fn serve_says_how_it_syncs_in_the_recording_and_wants_a_folder_for_it() {
    let lone = tapscope(&["serve", "--stdio", "--sync", "none"]);
    assert_eq!(lone.status.code(), Some(2), "{}", stderr(&lone));
    assert!(stderr(&lone).contains("--record"), "{}", stderr(&lone));

    let dir = tempfile::tempdir().expect("a folder");
    let run = dir.path().join("run");
    // No client comes (stdin is empty): the server stops, its recording started.
    tapscope(&[
        "serve",
        "--stdio",
        "--record",
        run.to_str().unwrap(),
        "--sync",
        "none",
    ]);
    let header = std::fs::read_to_string(run.join("session.jsonl")).expect("a recording");
    assert!(header.contains(r#""sync":"none""#), "{header}");
}

#[test]
fn open_against_wants_two_recordings_that_are_there() {
    let demo = tapscope::demo::source_tree_demo();
    let demo = demo.to_str().expect("a UTF-8 path");
    let missing = tapscope(&["open", demo, "--against", "no-such-recording"]);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    assert_eq!(
        stderr(&missing),
        "tapscope: no-such-recording: no such file or folder\n"
    );
    let dump = tapscope(&["open", &sample(), "--against", demo]);
    assert_eq!(dump.status.code(), Some(2), "{}", stderr(&dump));
    assert_eq!(
        stderr(&dump),
        format!(
            "tapscope: {}: --against compares two recordings, and this is not one\n",
            sample()
        )
    );
}
