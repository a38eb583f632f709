//! The phone's log end to end on the sim: an agent reads `sim-next`'s crash through the
//! `logcat` tool after tapping the button that throws; a recording keeps each step's log
//! with the crash on its step; a replay on `sim-next` of a recording made on `sim` that taps
//! that button diverges there naming the crash, in its output and its JUnit.

mod common;

use common::{handle_of, handle_where, in_process_with, ok, refused, temp_dir};
use serde_json::json;
use tapscope_core::device::sim::{Build, Sim};
use tapscope_core::recording;
use tapscope_core::session::SessionConfig;
use tapscope_core::stability::VirtualClock;

const OBSERVE: &str = "screen_operation_accessibility";

/// A client of a server on `build`, reading logs around each step, recording into `dir`.
async fn client_of(
    build: Build,
    dir: Option<&std::path::Path>,
) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let clock = VirtualClock::default();
    let config = SessionConfig {
        step_logs: true,
        ..SessionConfig::default()
    };
    let sim = Sim::with_build(clock.clone(), 1, build);
    in_process_with(sim, clock, config, dir).await
}

/// Opens TapTube from the launcher and taps its Account button; the tree after.
async fn tap_account(client: &rmcp::service::Peer<rmcp::RoleClient>) -> String {
    let home = ok(client, OBSERVE, json!({})).await;
    // `TapTube`, or `TapTube Video` on sim-next.
    let app = handle_where(&home, |label| label.contains("TapTube"));
    let feed = ok(client, "tap", json!({ "target": app })).await;
    let feed = if feed.contains("Account") {
        feed
    } else {
        ok(client, OBSERVE, json!({})).await
    };
    ok(
        client,
        "tap",
        json!({ "target": handle_of(&feed, "Account") }),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_reads_the_crash_through_logcat_after_the_tap_that_threw() {
    let client = client_of(Build::Next, None).await;
    let after = tap_account(&client).await;
    // The app is gone: the launcher is in front.
    assert!(after.contains("nexuslauncher"), "{after}");
    let log = ok(&client, "logcat", json!({})).await;
    assert!(log.contains("crashes: 1\n"), "{log}");
    assert!(
        log.contains("crash in tv.tapscope.demo")
            && log.contains("java.lang.NullPointerException")
            && log.contains("AccountActivity.onCreate(AccountActivity.java:42)"),
        "{log}"
    );
    // Read once: the next call has nothing new.
    let again = ok(&client, "logcat", json!({})).await;
    assert!(!again.contains("crashes:"), "{again}");
    // The app's own lines, asked for by name from the start.
    let app = ok(
        &client,
        "logcat",
        json!({ "package": "tv.tapscope.demo", "since": "start", "priority": "E" }),
    )
    .await;
    assert!(app.contains("FATAL EXCEPTION: main"), "{app}");
    let bad = refused(&client, "logcat", json!({ "priority": "loud" })).await;
    assert!(bad.contains("is not one of V, D, I, W, E, F"), "{bad}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_current_build_does_not_crash_and_the_recording_keeps_each_steps_log() {
    let dir = temp_dir("logcat-record");
    let client = client_of(Build::Current, Some(&dir)).await;
    let after = tap_account(&client).await;
    assert!(!after.contains("nexuslauncher"), "{after}");
    let log = ok(&client, "logcat", json!({})).await;
    assert!(!log.contains("crashes:"), "{log}");
    client.cancel().await.unwrap();
    let recorded = recording::read(&dir).unwrap();
    let taps: Vec<_> = recorded.steps.iter().filter(|s| s.tool == "tap").collect();
    let logged = taps[0].log.as_ref().expect("a tap's log is kept");
    assert!(logged.lines > 0 && logged.file.is_some(), "{logged:?}");
    let lines = recorded.load_log(logged).unwrap();
    assert!(
        lines.iter().any(|l| l.tag == "ActivityTaskManager"),
        "{lines:?}"
    );
    assert!(
        taps.iter()
            .all(|s| s.log.as_ref().unwrap().crashes.is_empty())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recording_on_sim_that_taps_account_diverges_on_sim_next_naming_the_crash() {
    let dir = temp_dir("logcat-replay");
    let client = client_of(Build::Current, Some(&dir)).await;
    tap_account(&client).await;
    client.cancel().await.unwrap();
    let junit = dir.with_extension("junit.xml");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args([
            "replay",
            dir.to_str().unwrap(),
            "--device",
            "sim-next",
            "--junit",
        ])
        .arg(&junit)
        .output()
        .expect("tapscope runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        stdout.contains("the log said what it did not when recorded")
            && stdout.contains("crash in tv.tapscope.demo")
            && stdout.contains("java.lang.NullPointerException"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("type=\"diverged\"") && xml.contains("NullPointerException"),
        "{xml}"
    );
    // A crash the user expects passes: the replay goes on past that step.
    let passing = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(["replay", dir.to_str().unwrap(), "--device", "sim-next"])
        .args(["--ignore-log", "NullPointerException"])
        .output()
        .expect("tapscope runs");
    let said = String::from_utf8_lossy(&passing.stdout);
    assert!(!said.contains("the log said"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&junit);
}

#[test]
fn a_pattern_that_is_not_an_expression_is_a_usage_error() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(["replay", "../recordings/demo", "--ignore-log", "(unclosed"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("tapscope runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--ignore-log \"(unclosed\""), "{stderr}");
}
