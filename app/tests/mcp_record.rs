//! `--record`: every call becomes a step in order, refusals included; a recording that
//! can no longer be written stops with one clear message while the server keeps serving,
//! and what was written stays readable.

mod common;

use common::{handle_of, in_process, in_process_on, ok, refused, temp_dir};
use serde_json::json;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::recording::{self, StepOutcome};
use tapscope_core::stability::VirtualClock;

const OBSERVE: &str = "screen_operation_accessibility";

#[tokio::test(flavor = "multi_thread")]
async fn every_call_is_a_step_and_the_screens_are_stored_once() {
    let dir = temp_dir("record-steps");
    let client = in_process(Some(&dir)).await;
    let home = ok(&client, OBSERVE, json!({})).await;
    let handle = handle_of(&home, "TapTube");
    ok(&client, "tap", json!({ "target": handle })).await;
    refused(&client, "tap", json!({ "target": handle })).await;
    refused(&client, "press_key", json!({ "key": "jump" })).await;
    ok(&client, "press_key", json!({ "key": "home" })).await;
    client.cancel().await.unwrap();

    let recorded = recording::read(&dir).expect("readable");
    let outcomes: Vec<(&str, StepOutcome)> = recorded
        .steps
        .iter()
        .map(|s| (s.tool.as_str(), s.outcome))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("screen_operation_accessibility", StepOutcome::Ok),
            ("tap", StepOutcome::Ok),
            ("tap", StepOutcome::Refused),
            ("press_key", StepOutcome::Refused),
            ("press_key", StepOutcome::Ok),
        ]
    );
    assert!(recorded.steps[3].message.contains("unknown key \"jump\""));
    let first = recorded.steps[0].after.as_ref().expect("the home screen");
    let last = recorded.steps[4].after.as_ref().expect("home again");
    assert_eq!(first.dump, last.dump, "the same dump is stored once");
    assert_eq!(
        first.version, last.version,
        "the same screen, the same version"
    );
    assert_eq!(
        recorded.steps[1].before.as_ref(),
        Some(first),
        "before = what the agent saw"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recording_that_cannot_be_written_stops_once_and_the_server_goes_on() {
    let dir = temp_dir("record-broken");
    let client = in_process(Some(&dir)).await;
    let home = ok(&client, OBSERVE, json!({})).await;
    // The screens folder becomes a file: no screen can be written any more (even as root).
    std::fs::remove_dir_all(dir.join("screens")).unwrap();
    std::fs::write(dir.join("screens"), b"not a folder").unwrap();

    // A new screen to store.
    let said = ok(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
    assert!(said.contains("tapscope stopped recording to"), "{said}");
    let next = ok(&client, OBSERVE, json!({})).await;
    assert!(!next.contains("stopped recording"), "said once");
    client.cancel().await.unwrap();

    let recorded = recording::read(&dir).expect("still readable");
    assert_eq!(recorded.steps.len(), 1, "the step before the failure");
    assert!(recorded.problems.is_empty(), "{:?}", recorded.problems);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_refuses_a_record_folder_it_cannot_create() {
    let blocker = temp_dir("record-blocker");
    std::fs::write(&blocker, b"a file, not a folder").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(["serve", "--stdio", "--record"])
        .arg(blocker.join("run"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("tapscope runs");
    let _ = std::fs::remove_file(&blocker);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("run"), "names the folder: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "reported once: {stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_phone_a_screen_that_never_settles_is_an_error_step_with_its_settle_report() {
    let dir = temp_dir("record-never-idle");
    let clock = VirtualClock::default();
    let phone = SimPhone::new(clock.clone(), 1, Profile::Phone);
    let client = in_process_on(phone, clock, Some(&dir)).await;
    let home = ok(&client, OBSERVE, json!({})).await;
    let said = refused(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "Live TV") }),
    )
    .await;
    assert!(said.contains("never went idle"), "{said}");
    // The handles of the screen before are gone with it.
    let again = refused(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
    assert!(again.contains("screen_operation_accessibility"), "{again}");
    client.cancel().await.unwrap();

    let recorded = recording::read(&dir).expect("readable");
    let tap = &recorded.steps[1];
    assert_eq!(tap.outcome, StepOutcome::Error);
    assert!(tap.message.contains("never went idle"), "{}", tap.message);
    assert!(
        tap.acted_on
            .as_deref()
            .is_some_and(|a| a.contains("Live TV"))
    );
    let settle = tap.settle.as_ref().expect("the wait's report");
    assert_eq!(settle["settled"], json!(false));
    assert_eq!(settle["dumps"], json!(1));
    assert_eq!(settle["total_ms"], json!(5000), "never past the ceiling");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn calls_refused_before_any_tool_runs_are_steps_too() {
    let dir = temp_dir("record-rejected");
    let client = in_process(Some(&dir)).await;
    let home = ok(&client, OBSERVE, json!({})).await;
    // Each of these is answered with an error and none reaches a tool.
    let rejected: [(&'static str, serde_json::Value); 4] = [
        ("tap", json!({})),
        ("tap", json!({ "target": 5 })),
        (
            "scroll",
            json!({ "target": handle_of(&home, "TapTube"), "direction": "sideways" }),
        ),
        ("fly", json!({ "to": "moon" })),
    ];
    for (tool, arguments) in rejected {
        let answer = client.call_tool(common::call(tool, arguments)).await;
        let refused = match answer {
            Err(_) => true,
            Ok(result) => result.is_error == Some(true),
        };
        assert!(refused, "{tool} was accepted");
    }
    ok(&client, "press_key", json!({ "key": "home" })).await;
    client.cancel().await.unwrap();

    let recorded = recording::read(&dir).expect("readable");
    let steps: Vec<(&str, StepOutcome)> = recorded
        .steps
        .iter()
        .map(|s| (s.tool.as_str(), s.outcome))
        .collect();
    assert_eq!(
        steps,
        [
            (OBSERVE, StepOutcome::Ok),
            ("tap", StepOutcome::Refused),
            ("tap", StepOutcome::Refused),
            ("scroll", StepOutcome::Refused),
            ("fly", StepOutcome::Refused),
            ("press_key", StepOutcome::Ok),
        ],
        "every call made is a step"
    );
    assert_eq!(recorded.steps[2].arguments, json!({ "target": 5 }));
    assert!(
        recorded.steps[1].message.contains("target"),
        "{}",
        recorded.steps[1].message
    );
    assert!(
        recorded.steps[3].message.contains("sideways"),
        "{}",
        recorded.steps[3].message
    );
    assert_eq!(
        recorded.header.sync,
        Some(tapscope_core::recording::Durability::Step)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
