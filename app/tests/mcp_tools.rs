//! Every tool through a real MCP client, on the sim in this process: what each returns,
//! and a clear error for each kind of bad input, after which the server keeps serving.

mod common;

use common::{ask, handle_of, handle_where, in_process, ok, refused, text};
use serde_json::json;

const TOOLS: [&str; 13] = [
    "screen_operation_accessibility",
    "tap",
    "long_press",
    "swipe",
    "scroll",
    "input_text",
    "press_key",
    "launch_app",
    "list_packages",
    "screenshot",
    "screen_operation_shell",
    "logcat",
    "load_skill",
];
const OBSERVE: &str = "screen_operation_accessibility";

#[tokio::test(flavor = "multi_thread")]
async fn every_tool_is_listed_with_a_schema_that_teaches_its_arguments() {
    let client = in_process(None).await;
    let tools = client.list_all_tools().await.expect("tools listed");
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    let mut expected = TOOLS.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or("");
        assert!(description.len() > 60, "{} is barely described", tool.name);
        let properties = tool
            .input_schema
            .get("properties")
            .and_then(|p| p.as_object());
        for (name, schema) in properties.into_iter().flatten() {
            let described = schema.get("description").and_then(|d| d.as_str());
            assert!(
                described.is_some_and(|d| d.len() > 15),
                "{}.{name} has no description: {schema}",
                tool.name
            );
        }
    }
    let scroll = tools.iter().find(|t| t.name == "scroll").expect("scroll");
    let schema = serde_json::Value::Object((*scroll.input_schema).clone()).to_string();
    assert!(
        schema.contains("\"down\""),
        "directions are enumerated: {schema}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn scroll_to_the_end_swipe_type_launch_and_list() {
    let client = in_process(None).await;
    let home = ok(&client, OBSERVE, json!({})).await;
    let mut tree = ok(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
    let mut ended = false;
    for _ in 0..10 {
        let list = handle_where(&tree, |l| l.contains(" scroll"));
        tree = ok(
            &client,
            "scroll",
            json!({ "target": list, "direction": "down" }),
        )
        .await;
        assert!(tree.contains("acted on: #feed"), "{tree}");
        if tree.contains("its end is reached") {
            ended = true;
            break;
        }
    }
    assert!(ended, "the feed's end was never recognised:\n{tree}");

    let card = handle_where(&tree, |l| l.contains("views"));
    let swiped = ok(
        &client,
        "swipe",
        json!({ "target": card, "direction": "left" }),
    )
    .await;
    assert!(swiped.contains(" -> "), "the path is given: {swiped}");

    let search = handle_of(&swiped, "Search videos");
    ok(&client, "tap", json!({ "target": search })).await;
    let typed = ok(&client, "input_text", json!({ "text": "cello" })).await;
    assert!(typed.contains("cello"), "the field shows it:\n{typed}");

    let packages = ok(&client, "list_packages", json!({})).await;
    assert!(
        packages.lines().any(|l| l == "tv.tapscope.blocks"),
        "{packages}"
    );
    let filtered = ok(&client, "list_packages", json!({ "filter": "BLOCKS" })).await;
    assert_eq!(filtered, "tv.tapscope.blocks");
    let launched = ask(
        &client,
        "launch_app",
        json!({ "package": "tv.tapscope.blocks" }),
    )
    .await;
    assert!(
        text(&launched).contains("fallback: screenshot"),
        "{}",
        text(&launched)
    );
    assert!(
        launched.content.iter().any(|c| c.as_image().is_some()),
        "the image comes with it"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn pixel_gestures_use_the_screenshot_and_nothing_else_runs() {
    let client = in_process(None).await;
    ok(&client, OBSERVE, json!({})).await;
    let tap = |x: i32, y: i32| json!({ "command": format!("adb shell input tap {x} {y}") });

    let early = refused(&client, "screen_operation_shell", tap(10, 10)).await;
    assert!(early.contains("call screenshot first"), "{early}");

    let shot = ask(&client, "screenshot", json!({})).await;
    assert!(
        text(&shot).contains("screenshot 461x1024 of a 1080x2400 display"),
        "{}",
        text(&shot)
    );
    let image = shot
        .content
        .iter()
        .find_map(|c| c.as_image())
        .expect("an image block");
    assert_eq!(image.mime_type, "image/png");

    // TapTube's icon is at display (40..280, 300..560): (68, 183) in the image.
    let tapped = ok(&client, "screen_operation_shell", tap(68, 183)).await;
    assert!(
        tapped.contains("Search videos"),
        "the tap opened the feed:\n{tapped}"
    );
    let outside = refused(&client, "screen_operation_shell", tap(5000, 10)).await;
    assert!(outside.contains("outside the 461x1024 image"), "{outside}");

    for command in [
        "rm -rf /sdcard",
        "input text hi",
        "input tap 1 2; reboot",
        "am start x",
    ] {
        let message = refused(
            &client,
            "screen_operation_shell",
            json!({ "command": command }),
        )
        .await;
        assert!(
            message.contains("runs only `input tap X Y`"),
            "{command}: {message}"
        );
    }
    let mixed = refused(
        &client,
        "swipe",
        json!({ "from": [10, 900], "direction": "up" }),
    )
    .await;
    assert!(mixed.contains("not a mix"), "{mixed}");
    let path = json!({ "from": [230, 700], "to": [230, 300], "duration_ms": 200 });
    ok(&client, "swipe", path).await;
}

/// The message of a call that must fail, as a tool error or a protocol error.
async fn error(
    client: &rmcp::service::Peer<rmcp::RoleClient>,
    tool: &'static str,
    args: serde_json::Value,
) -> String {
    match client.call_tool(common::call(tool, args)).await {
        Ok(result) => {
            assert_eq!(
                result.is_error,
                Some(true),
                "not an error: {}",
                text(&result)
            );
            text(&result)
        }
        Err(e) => e.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_gets_a_clear_error_and_the_server_keeps_serving() {
    let client = in_process(None).await;
    let home = ok(&client, OBSERVE, json!({})).await;

    let unknown = error(&client, "teleport", json!({})).await;
    assert!(
        unknown.contains("teleport") || unknown.contains("not found"),
        "{unknown}"
    );
    let wrong_type = error(&client, "tap", json!({ "target": 5 })).await;
    assert!(wrong_type.contains("expected a string"), "{wrong_type}");
    let sideways = error(
        &client,
        "scroll",
        json!({ "target": "ab_1", "direction": "sideways" }),
    )
    .await;
    assert!(
        sideways.contains("sideways") && sideways.contains("down"),
        "{sideways}"
    );
    let missing = error(&client, "tap", json!({})).await;
    assert!(missing.contains("target"), "{missing}");

    let malformed = refused(&client, "tap", json!({ "target": "the blue button" })).await;
    assert!(malformed.contains("is not a handle"), "{malformed}");
    let huge = refused(
        &client,
        "input_text",
        json!({ "text": "x".repeat(1 << 20) }),
    )
    .await;
    assert!(huge.contains("the text is 1048576 characters"), "{huge}");
    let unknown_app = refused(&client, "launch_app", json!({ "package": "com.nope" })).await;
    assert!(unknown_app.contains("installed:"), "{unknown_app}");

    // Still serving, and the handles of the first tree still work: nothing moved.
    ok(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
}
