//! End to end: an rmcp client starts `tapscope serve --stdio` and drives the sim through it.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};

const STALE: &str = "Token version mismatch, viewport updated. Call screen_operation_accessibility to fetch the latest tree.";

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn call(name: &'static str, args: serde_json::Value) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name);
    match args {
        serde_json::Value::Object(map) => params.with_arguments(map),
        _ => params,
    }
}

/// The version at the top of a tree, and the `i` on the line that mentions `label`.
fn handle_of(tree: &str, label: &str) -> String {
    let version = tree
        .lines()
        .find_map(|l| l.strip_prefix("version: "))
        .expect("a version line")
        .trim_matches('"');
    let line = tree
        .lines()
        .find(|l| l.contains(&format!("\"{label}\"")))
        .unwrap_or_else(|| panic!("no {label:?} in:\n{tree}"));
    let i = line
        .split("i: ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("an i on the line");
    format!("{version}_{i}")
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_stdio_observe_tap_stale_and_skill() {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_tapscope")).configure(|cmd| {
            cmd.args(["serve", "--stdio", "--seed", "1"]);
        }),
    )
    .expect("the server starts");
    let client = ().serve(transport).await.expect("the client initializes");
    let info = client.peer_info().expect("the server introduced itself");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, "tapscope");
    assert!(
        info.instructions
            .as_deref()
            .is_some_and(|i| i.contains("load_skill"))
    );

    let tools = client.list_all_tools().await.expect("tools listed");
    for name in [
        "screen_operation_accessibility",
        "tap",
        "long_press",
        "press_key",
        "load_skill",
    ] {
        let tool = tools.iter().find(|t| t.name == name);
        let described = tool.and_then(|t| t.description.as_deref()).unwrap_or("");
        assert!(described.len() > 40, "{name} missing or undescribed");
    }

    let observed = client
        .call_tool(call(
            "screen_operation_accessibility",
            serde_json::json!({}),
        ))
        .await
        .expect("observe");
    assert_ne!(observed.is_error, Some(true));
    let tree = text(&observed);
    let handle = handle_of(&tree, "TapTube");

    let tapped = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("tap");
    assert_ne!(tapped.is_error, Some(true), "{}", text(&tapped));
    let after = text(&tapped);
    assert!(after.contains("acted on: "), "{after}");
    assert!(after.contains("\"settled\""), "{after}");
    let new_version = after
        .lines()
        .find_map(|l| l.strip_prefix("version: "))
        .expect("the post-action tree in the same result");
    assert!(!handle.starts_with(new_version.trim_matches('"')));

    let stale = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("stale tap answered");
    assert_eq!(stale.is_error, Some(true));
    assert_eq!(text(&stale), STALE);

    let bad_key = client
        .call_tool(call("press_key", serde_json::json!({ "key": "jump" })))
        .await
        .expect("bad key answered");
    assert_eq!(bad_key.is_error, Some(true));

    let skill = client
        .call_tool(call("load_skill", serde_json::json!({})))
        .await
        .expect("skill");
    assert_eq!(text(&skill), tapscope::mcp::PHONE_USE_SKILL);

    client.cancel().await.expect("the client closes");
}
