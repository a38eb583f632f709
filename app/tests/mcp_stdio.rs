//! End to end: an rmcp client starts `tapscope serve --device sim --stdio --record DIR` and
//! drives the sim through it: observe, tap, the stale refusal, the fallback screenshot,
//! a pixel tap on it; then the recording is read back whole. `--device sim-next` serves
//! the next build and records it under that name.

mod common;

use common::{STALE, ask, handle_of, ok, refused, temp_dir, text, version_of};
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;
use tapscope_core::recording::{self, StepOutcome};

#[tokio::test(flavor = "multi_thread")]
async fn serve_stdio_observe_tap_stale_fallback_and_record() {
    let record = temp_dir("stdio-record");
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_tapscope")).configure(|cmd| {
            cmd.args(["serve", "--device", "sim", "--stdio", "--record"])
                .arg(&record);
        }),
    )
    .expect("the server starts");
    let client = ().serve(transport).await.expect("the client initializes");
    let info = client.peer_info().expect("the server introduced itself");
    assert_eq!(
        info.server_info.as_ref().expect("server info").name,
        "tapscope"
    );
    assert!(
        info.instructions
            .as_deref()
            .is_some_and(|i| i.contains("load_skill"))
    );
    assert_eq!(
        client.list_all_tools().await.expect("tools listed").len(),
        13
    );

    let skill = ok(&client, "load_skill", json!({})).await;
    assert_eq!(skill, tapscope::mcp::PHONE_USE_SKILL);

    let home = ok(&client, "screen_operation_accessibility", json!({})).await;
    let handle = handle_of(&home, "TapTube");
    let after = ok(&client, "tap", json!({ "target": handle })).await;
    assert!(after.contains("acted on: \"TapTube\""), "{after}");
    assert!(after.contains("\"settled\":true"), "{after}");
    assert!(
        after.contains("Search videos"),
        "the feed's tree in the same result:\n{after}"
    );
    assert_ne!(version_of(&after), version_of(&home));

    let stale = refused(&client, "tap", json!({ "target": handle })).await;
    assert_eq!(stale, STALE);

    ok(&client, "press_key", json!({ "key": "home" })).await;
    let game = ask(
        &client,
        "launch_app",
        json!({ "package": "tv.tapscope.blocks" }),
    )
    .await;
    assert!(
        text(&game).contains("fallback: screenshot"),
        "{}",
        text(&game)
    );
    assert!(game.content.iter().any(|c| c.as_image().is_some()));
    ok(
        &client,
        "screen_operation_shell",
        json!({ "command": "input tap 230 896" }),
    )
    .await;
    client.cancel().await.expect("the client closes");

    let recorded = recording::read(&record).expect("the recording reads back");
    assert!(recorded.problems.is_empty(), "{:?}", recorded.problems);
    assert_eq!(recorded.header.device, "sim");
    let tools: Vec<&str> = recorded.steps.iter().map(|s| s.tool.as_str()).collect();
    assert_eq!(
        tools,
        [
            "load_skill",
            "screen_operation_accessibility",
            "tap",
            "tap",
            "press_key",
            "launch_app",
            "screen_operation_shell"
        ]
    );
    let (tap, stale, pixel) = (&recorded.steps[2], &recorded.steps[3], &recorded.steps[6]);
    assert_eq!(tap.outcome, StepOutcome::Ok);
    assert_eq!(tap.handle.as_deref(), Some(handle.as_str()));
    assert_eq!(
        tap.version_after.as_deref(),
        Some(version_of(&after).as_str())
    );
    assert!(tap.settle.is_some() && tap.path.len() == 1);
    assert_eq!(stale.outcome, StepOutcome::Refused);
    assert_eq!(stale.message, STALE);
    assert_ne!(stale.version_used, stale.version_before);
    assert_eq!(
        pixel.version_used, recorded.steps[5].version_after,
        "the screenshot's version"
    );
    let [[x, y]] = pixel.path[..] else {
        panic!("one point: {:?}", pixel.path)
    };
    assert!(
        (x - 540).abs() <= 3 && (y - 2100).abs() <= 3,
        "scaled to the display: {x},{y}"
    );
    for step in recorded.steps.iter().filter_map(|s| s.after.as_ref()) {
        let tree = recorded
            .load_text(&step.pruned)
            .expect("pruned text stored");
        assert!(tree.contains(&step.version));
        recorded.load_text(&step.dump).expect("dump stored");
        recorded
            .load_bytes(step.screenshot.as_deref().expect("a screenshot"))
            .expect("png stored");
    }
    let _ = std::fs::remove_dir_all(&record);
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_stdio_on_sim_next_serves_the_next_build_and_records_its_name() {
    let record = temp_dir("stdio-next");
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_tapscope")).configure(|cmd| {
            cmd.args(["serve", "--device", "sim-next", "--stdio", "--record"])
                .arg(&record);
        }),
    )
    .expect("the server starts");
    let client = ().serve(transport).await.expect("the client initializes");
    let home = ok(&client, "screen_operation_accessibility", json!({})).await;
    assert!(home.contains("\"TapTube Video\""), "{home}");
    client.cancel().await.expect("the client closes");

    let recorded = recording::read(&record).expect("the recording reads back");
    assert_eq!(recorded.header.device, "sim-next");
    assert_eq!(recorded.steps.len(), 1);
    let _ = std::fs::remove_dir_all(&record);
}
