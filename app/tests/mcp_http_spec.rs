//! End to end: `tapscope serve --http` answering what rmcp's client never sends, with the
//! status the MCP specification (2025-11-25, Streamable HTTP) gives: malformed bodies and
//! batches, params that do not fit, DELETE of live and unknown sessions, `Origin` against
//! DNS rebinding, and the cap on live sessions.

use rmcp::ServiceExt;
use rmcp::model::ClientConfig;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use tapscope::mcp::http::MAX_SESSIONS;

mod common;
mod served;

use common::{call, text};
use served::{Answer, INITIALIZE, Server, in_session, open_session, raw};

const PING: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;

async fn ping(server: &Server, session: &str) -> Answer {
    raw(server.addr, "POST", &in_session(session), PING).await
}

/// A JSON-RPC error answered as one JSON object with `status`: its code, its message,
/// and its id (`Value::Null` when it has none).
fn json_rpc_error(answer: &Answer, status: u16) -> (i64, String, Value) {
    assert_eq!(answer.status, status, "{answer:?}");
    assert_eq!(
        answer.header("content-type"),
        Some("application/json"),
        "{answer:?}"
    );
    let error = answer.json();
    assert_eq!(error["jsonrpc"], "2.0", "{error}");
    let code = error["error"]["code"].as_i64().expect("a code");
    let message = error["error"]["message"].as_str().expect("a message");
    (
        code,
        message.to_owned(),
        error.get("id").cloned().unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn bodies_that_are_not_one_message_get_400_and_the_json_rpc_error() {
    let server = Server::start(&[], None);
    let cases = [
        (
            "{\"jsonrpc\": \"2.0\", \"id\": 1,",
            -32700,
            "not JSON",
            Value::Null,
        ),
        ("\u{ff}\u{fe}", -32700, "not JSON", Value::Null),
        ("{}", -32600, "\"jsonrpc\": \"2.0\" is missing", Value::Null),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            -32600,
            "batch",
            Value::Null,
        ),
        (
            r#"{"id":3,"method":"ping"}"#,
            -32600,
            "\"jsonrpc\"",
            json!(3),
        ),
        (
            r#"{"jsonrpc":"2.0","id":4}"#,
            -32600,
            "not a JSON-RPC request",
            json!(4),
        ),
        ("\"ping\"", -32600, "not an object", Value::Null),
    ];
    for (body, code, says, id) in cases {
        let answer = raw(server.addr, "POST", &[], body).await;
        let (got, message, got_id) = json_rpc_error(&answer, 400);
        assert_eq!((got, &got_id), (code, &id), "{body}: {message}");
        assert!(message.contains(says), "{body}: {message}");
    }

    // What is not declared JSON stays 415, and a good body still opens a session.
    let plain = raw(
        server.addr,
        "POST",
        &[("Content-Type", "text/plain")],
        INITIALIZE,
    )
    .await;
    assert_eq!(plain.status, 415, "{plain:?}");
    let session = open_session(&server).await;
    assert_eq!(ping(&server, &session).await.json()["result"], json!({}));
}

#[tokio::test(flavor = "multi_thread")]
async fn params_that_do_not_fit_get_invalid_params() {
    let server = Server::start(&[], None);
    let session = open_session(&server).await;
    let send = |body: Value| {
        let session = session.clone();
        async move {
            raw(
                server.addr,
                "POST",
                &in_session(&session),
                &body.to_string(),
            )
            .await
        }
    };

    let as_string = send(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "tap", "arguments": "{\"target\":\"x_1\"}" }
    }))
    .await;
    let (code, message, id) = json_rpc_error(&as_string, 200);
    assert_eq!((code, id), (-32602, json!(2)), "{message}");
    assert!(
        message.contains("`params.arguments`") && message.contains("not a string"),
        "{message}"
    );

    let nameless = send(json!({
        "jsonrpc": "2.0", "id": "n", "method": "tools/call", "params": { "arguments": {} }
    }))
    .await;
    let (code, message, id) = json_rpc_error(&nameless, 200);
    assert_eq!((code, id), (-32602, json!("n")), "{message}");
    assert!(
        message.contains("tools/call") && message.contains("name"),
        "{message}"
    );

    // A method tapscope does not answer is still -32601, in rmcp's event stream.
    let unknown =
        send(json!({ "jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {} })).await;
    assert_eq!(unknown.status, 200, "{unknown:?}");
    assert_eq!(unknown.json()["error"]["code"], -32601, "{unknown:?}");

    // A session that is gone is 404 first, whatever the params.
    raw(server.addr, "DELETE", &in_session(&session), "").await;
    let gone = send(json!({
        "jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": { "name": "tap", "arguments": "x" }
    }))
    .await;
    assert_eq!(gone.status, 404, "{gone:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_key_lists_the_names_the_schema_gives() {
    let server = Server::start(&[], None);
    let client = ClientConfig::default()
        .serve(StreamableHttpClientTransport::from_uri(server.url()))
        .await
        .expect("the client initializes");
    let result = client
        .call_tool(call("press_key", json!({ "key": "jump" })))
        .await
        .expect("answered");
    assert_eq!(result.is_error, Some(true));
    let message = text(&result);
    assert!(
        message.contains("search, volume_up, volume_down, power"),
        "{message}"
    );
    let volume = client
        .call_tool(call("press_key", json!({ "key": "volume_up" })))
        .await
        .expect("answered");
    assert_ne!(volume.is_error, Some(true), "{}", text(&volume));
    client.cancel().await.expect("the client closes");
}

#[tokio::test(flavor = "multi_thread")]
async fn delete_ends_a_live_session_and_unknown_ones_are_404() {
    let server = Server::start(&[], None);
    let unknown = raw(server.addr, "DELETE", &in_session("no-such-session"), "").await;
    assert_eq!(unknown.status, 404, "{unknown:?}");
    assert!(unknown.body.contains("initialize"), "{unknown:?}");

    let session = open_session(&server).await;
    let closed = raw(server.addr, "DELETE", &in_session(&session), "").await;
    assert_eq!(closed.status, 204, "{closed:?}");
    assert!(closed.body.is_empty(), "{closed:?}");
    assert_eq!(ping(&server, &session).await.status, 404);
    let again = raw(server.addr, "DELETE", &in_session(&session), "").await;
    assert_eq!(again.status, 404, "{again:?}");

    // Without a session id the server cannot know what to end.
    let nameless = raw(server.addr, "DELETE", &[], "").await;
    assert_eq!(nameless.status, 400, "{nameless:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn origins_other_than_this_machine_get_403() {
    let server = Server::start(&[], None);
    for origin in ["http://evil.example", "https://evil.example:8791", "null"] {
        let headers = [("Origin", origin)];
        let post = raw(server.addr, "POST", &headers, INITIALIZE).await;
        let (code, message, id) = json_rpc_error(&post, 403);
        assert_eq!((code, id), (-32000, Value::Null), "{message}");
        assert!(
            message.contains(origin) && message.contains("DNS rebinding"),
            "{message}"
        );
        // Before anything else about the request.
        assert_eq!(raw(server.addr, "POST", &headers, "{").await.status, 403);
        assert_eq!(raw(server.addr, "DELETE", &headers, "").await.status, 403);
        assert_eq!(raw(server.addr, "GET", &headers, "").await.status, 403);
    }
    for origin in [
        "http://localhost:6274",
        "https://localhost",
        "http://127.0.0.1:3000",
        "http://[::1]:5173",
    ] {
        let post = raw(server.addr, "POST", &[("Origin", origin)], INITIALIZE).await;
        assert_eq!(post.status, 200, "{origin}: {post:?}");
    }
    assert_eq!(raw(server.addr, "POST", &[], INITIALIZE).await.status, 200);

    // A token on loopback does not lift the rule: the page could be this machine's user.
    let guarded = Server::start(&["--token", "s3cret"], None);
    let headers = [
        ("Origin", "http://evil.example"),
        ("Authorization", "Bearer s3cret"),
    ];
    assert_eq!(
        raw(guarded.addr, "POST", &headers, INITIALIZE).await.status,
        403
    );
    let headers = [
        ("Origin", "http://localhost"),
        ("Authorization", "Bearer s3cret"),
    ];
    assert_eq!(
        raw(guarded.addr, "POST", &headers, INITIALIZE).await.status,
        200
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_past_the_cap_close_the_least_recently_used() {
    let server = Server::start(&[], None);
    let oldest = open_session(&server).await;
    let mut newer = Vec::new();
    for _ in 0..MAX_SESSIONS {
        newer.push(open_session(&server).await);
    }
    // The oldest made room for the last; its client is told to start anew.
    assert_eq!(ping(&server, &oldest).await.status, 404);
    assert_eq!(
        raw(server.addr, "DELETE", &in_session(&oldest), "")
            .await
            .status,
        404
    );
    // Exactly the cap is live: every newer session answers.
    for session in &newer {
        let answer = ping(&server, session).await;
        assert_eq!(answer.json()["result"], json!({}), "{answer:?}");
    }

    // A real client past the cap works, and closed the least recently pinged.
    let client = ClientConfig::default()
        .serve(StreamableHttpClientTransport::from_uri(server.url()))
        .await
        .expect("the client initializes");
    let observed = client
        .call_tool(call("screen_operation_accessibility", json!({})))
        .await
        .expect("observed");
    assert!(text(&observed).contains("version: "), "{}", text(&observed));
    assert_eq!(ping(&server, &newer[0]).await.status, 404);
    assert_eq!(ping(&server, &newer[1]).await.status, 200);
    client.cancel().await.expect("the client closes");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_refused_for_its_params_is_a_step_of_the_recording() {
    let dir = tempfile::tempdir().expect("a folder");
    let run = dir.path().join("run");
    let mut server = Server::start(&["--record", run.to_str().expect("UTF-8 path")], None);
    let session = open_session(&server).await;
    let body = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "tap", "arguments": "{\"target\":\"x_1\"}" }
    });
    let answer = raw(
        server.addr,
        "POST",
        &in_session(&session),
        &body.to_string(),
    )
    .await;
    let (code, message, _) = json_rpc_error(&answer, 200);
    assert_eq!(code, -32602, "{message}");
    // Answered means written: the step is there however the server ends.
    server.child.kill().expect("the server stops");
    server.child.wait().expect("the server is gone");

    let recorded = tapscope_core::recording::read(&run).expect("the recording reads");
    let step = recorded.steps.last().expect("the refused call is a step");
    assert_eq!(step.tool, "tap");
    assert_eq!(step.outcome, tapscope_core::recording::StepOutcome::Refused);
    assert_eq!(step.message, message);
    assert_eq!(step.arguments, json!("{\"target\":\"x_1\"}"));
}
