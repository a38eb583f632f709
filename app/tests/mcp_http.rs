//! End to end: `tapscope serve --http` started as a child process and driven by rmcp's
//! streamable-HTTP client on loopback: tools, observe, tap, stale handles, bearer tokens,
//! two clients on one device, refused bindings, a client that leaves mid-call, and the
//! protocol revisions clients speak.

use std::net::{SocketAddr, TcpListener as StdListener};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{ClientConfig, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

mod common;
mod served;

use common::{STALE, call, handle_of, text};
use served::{INITIALIZE, Server, free_addr, head_only, in_session, open_session, tapscope};
use tapscope_tests::tree::{handle_where, line_of, version};

const TOKEN: &str = "s3cret";
const OBSERVE: &str = "screen_operation_accessibility";

type Client = RunningService<RoleClient, ClientConfig>;

async fn connect(url: &str, token: Option<&str>, version: ProtocolVersion) -> Client {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    ClientConfig::default()
        .with_protocol_version(version)
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("the client initializes")
}

async fn observe(client: &Client) -> String {
    let result = client
        .call_tool(call(OBSERVE, serde_json::json!({})))
        .await
        .expect("observe answered");
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    text(&result)
}

/// The version of the tree in `text` and the tree below its version line.
fn screen_of(text: &str) -> (String, String) {
    let version = version(text).expect("a version");
    let body = text
        .split_once(&format!("version: \"{version}\"\n"))
        .map_or("", |(_, body)| body);
    (version.to_owned(), body.to_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn observe_tap_and_stale_over_http() {
    let server = Server::start(&[], None);
    let client = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    let info = client.peer_info().expect("the server introduced itself");
    assert_eq!(
        info.server_info.as_ref().expect("server info").name,
        "tapscope"
    );

    let tools = client.list_all_tools().await.expect("tools listed");
    for name in [OBSERVE, "tap", "long_press", "press_key", "load_skill"] {
        assert!(tools.iter().any(|t| t.name == name), "{name} not listed");
    }

    let tree = observe(&client).await;
    let handle = handle_of(&tree, "TapTube");
    let tapped = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("tap answered");
    assert_ne!(tapped.is_error, Some(true), "{}", text(&tapped));
    let after = text(&tapped);
    assert!(after.contains("acted on: "), "{after}");
    let new_version = version(&after).expect("the post-action tree in the same result");
    assert!(!handle.starts_with(new_version));

    let stale = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("stale tap answered");
    assert_eq!(stale.is_error, Some(true));
    assert!(text(&stale).contains(STALE), "{}", text(&stale));
    client.cancel().await.expect("the client closes");
}

/// An `initialize` POST to /mcp without going through rmcp: the status, head and body.
async fn raw_post(addr: SocketAddr, authorization: Option<&str>) -> (u16, String, String) {
    let headers: Vec<_> = authorization
        .map(|a| ("Authorization", a))
        .into_iter()
        .collect();
    let answer = served::raw(addr, "POST", &headers, INITIALIZE).await;
    (answer.status, answer.head, answer.body)
}

#[tokio::test(flavor = "multi_thread")]
async fn bearer_token_required_when_given() {
    let server = Server::start(&["--token", TOKEN], None);

    let client = connect(&server.url(), Some(TOKEN), ProtocolVersion::V_2025_11_25).await;
    assert!(version(&observe(&client).await).is_some());
    client.cancel().await.expect("the client closes");

    let (status, head, body) = raw_post(server.addr, None).await;
    assert_eq!(status, 401, "{head}{body}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    assert!(body.contains("missing bearer token"), "{body}");

    let (status, head, body) = raw_post(server.addr, Some("Bearer s3cre")).await;
    assert_eq!(status, 401, "{head}{body}");
    assert!(head.contains("www-authenticate: bearer"), "{head}");
    assert!(body.contains("wrong bearer token"), "{body}");

    let (status, _, body) = raw_post(server.addr, Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(status, 200, "{body}");

    // An rmcp client without the token is turned away too.
    let transport = StreamableHttpClientTransport::from_uri(server.url());
    assert!(ClientConfig::default().serve(transport).await.is_err());
}

#[tokio::test(flavor = "multi_thread")]
async fn token_from_the_environment() {
    let server = Server::start(&[], Some(TOKEN));
    let (status, _, body) = raw_post(server.addr, None).await;
    assert_eq!(status, 401, "{body}");
    let (status, _, body) = raw_post(server.addr, Some(&format!("Bearer {TOKEN}"))).await;
    assert_eq!(status, 200, "{body}");
}

/// What one client saw: every version it was handed, and how many of its taps the
/// session accepted.
#[derive(Debug, Default)]
struct Seen {
    /// Each tree's version and the tree below its version line.
    versions: Vec<(String, String)>,
    /// Taps the session accepted.
    accepted: usize,
}

async fn drive(client: Client, rounds: usize) -> (Client, Seen) {
    let mut seen = Seen::default();
    for round in 0..rounds {
        let tree = observe(&client).await;
        seen.versions.push(screen_of(&tree));
        let (request, handle) = match handle_where(&tree, |_| true) {
            Some(handle) if round % 2 == 0 => (
                call("tap", serde_json::json!({ "target": handle })),
                Some(handle),
            ),
            _ => (
                call("press_key", serde_json::json!({ "key": "back" })),
                None,
            ),
        };
        let result = client.call_tool(request).await.expect("the act answered");
        let answer = text(&result);
        if result.is_error == Some(true) {
            assert!(handle.is_some(), "press_key back failed: {answer}");
            assert!(
                answer.contains(STALE),
                "not a clean stale refusal: {answer}"
            );
        } else {
            assert!(answer.contains("acted on: "), "{answer}");
            seen.versions.push(screen_of(&answer));
            if let Some(handle) = handle {
                // Acted on what this client saw under the handle, never on another screen.
                let line = line_of(&tree, &handle)
                    .unwrap_or_else(|| panic!("no line of {handle} in {tree}"));
                let acted = answer
                    .lines()
                    .find_map(|l| l.strip_prefix("acted on: "))
                    .expect("an acted-on line");
                let label = line.split('"').nth(1).unwrap_or_default();
                assert!(acted.contains(label), "{acted} is not {line}");
                seen.accepted += 1;
            }
        }
    }
    (client, seen)
}

#[tokio::test(flavor = "multi_thread")]
async fn two_clients_share_one_serialized_session() {
    let server = Server::start(&[], None);
    let a = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    let b = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;

    let (ra, rb) = tokio::join!(tokio::spawn(drive(a, 10)), tokio::spawn(drive(b, 10)));
    let ((a, seen_a), (b, seen_b)) = (ra.expect("client a"), rb.expect("client b"));

    // A version names one screen: whoever looked, the same version read the same tree.
    let mut screens = std::collections::HashMap::new();
    for (version, body) in seen_a.versions.iter().chain(&seen_b.versions) {
        let first = screens.entry(version).or_insert(body);
        assert_eq!(*first, body, "version {version} named two screens");
    }
    assert!(
        seen_a.accepted + seen_b.accepted > 0,
        "some taps went through"
    );

    // One session: b looking again leaves a's handle good; b moving the screen makes it stale.
    let _ = observe(&b).await;
    let tree = observe(&a).await;
    let handle = handle_of(&tree, "Settings");
    let _ = observe(&b).await;
    let tapped = a
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("answered");
    assert_ne!(tapped.is_error, Some(true), "{}", text(&tapped));
    let tree = observe(&a).await;
    let handle = handle_where(&tree, |_| true).expect("an actionable node");
    let back = b
        .call_tool(call("press_key", serde_json::json!({ "key": "home" })))
        .await
        .expect("answered");
    assert_ne!(back.is_error, Some(true), "{}", text(&back));
    let stale = a
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("answered");
    assert_eq!(stale.is_error, Some(true), "{}", text(&stale));
    assert!(text(&stale).contains(STALE));

    a.cancel().await.expect("a closes");
    b.cancel().await.expect("b closes");
}

fn run_refused(args: &[&str]) -> Output {
    let output = tapscope()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tapscope runs");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn refused_bindings_and_usage() {
    let open = run_refused(&["serve", "--http", "0.0.0.0:0"]);
    let message = stderr(&open);
    assert!(
        message.contains("--token") && message.contains("127.0.0.1"),
        "{message}"
    );

    let both = run_refused(&["serve", "--stdio", "--http", "127.0.0.1:0"]);
    assert!(stderr(&both).contains("--http"), "{}", stderr(&both));

    let empty = run_refused(&["serve", "--http", "127.0.0.1:0", "--token", ""]);
    assert!(stderr(&empty).contains("empty"), "{}", stderr(&empty));

    // HTTP trims the header that carries it: no request could ever match.
    let padded = run_refused(&["serve", "--http", "127.0.0.1:0", "--token", " s3cret"]);
    assert!(
        stderr(&padded).contains("whitespace"),
        "{}",
        stderr(&padded)
    );

    let taken = StdListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    let in_use = run_refused(&["serve", "--http", &addr]);
    let message = stderr(&in_use);
    assert!(
        message.contains("in use") && message.contains("--http 127.0.0.1:PORT"),
        "{message}"
    );

    // No ADB server where the environment points: a clear error, not a hang.
    let nowhere = free_addr().port().to_string();
    let output = tapscope()
        .args([
            "serve",
            "--device",
            "emulator-5554",
            "--http",
            "127.0.0.1:0",
        ])
        .env_remove("ADB_SERVER_SOCKET")
        .env("ANDROID_ADB_SERVER_PORT", &nowhere)
        .stdin(Stdio::null())
        .output()
        .expect("tapscope runs");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr(&output).contains("ADB"), "{}", stderr(&output));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_leaving_mid_call_does_not_stop_the_server() {
    let mut server = Server::start(&[], None);
    let client = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    let tree = observe(&client).await;
    let handle = handle_of(&tree, "TapTube");
    client.cancel().await.expect("closes");

    // A tap sent in a session of its own; the server starts its event stream once it has
    // taken the call, and the tap then waits for the screen to settle. The client leaves
    // as soon as the stream starts.
    let session = open_session(&server).await;
    let tap = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": { "name": "tap", "arguments": { "target": handle } },
    });
    let (head, stream) = head_only(server.addr, &in_session(&session), &tap.to_string()).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    drop(stream);

    let again = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    assert!(version(&observe(&again).await).is_some());
    again.cancel().await.expect("closes");
    assert!(server.is_running());
}

#[tokio::test(flavor = "multi_thread")]
async fn protocol_revisions_initialize() {
    let server = Server::start(&[], None);

    let old = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    let info = old.peer_info().expect("peer info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert!(version(&observe(&old).await).is_some());
    old.cancel().await.expect("closes");

    // The newest revision rmcp knows, asked for in `initialize`: the server answers
    // with a revision that has the handshake.
    let newest = connect(&server.url(), None, ProtocolVersion::LATEST).await;
    let info = newest.peer_info().expect("peer info");
    assert!(info.protocol_version >= ProtocolVersion::V_2025_11_25);
    assert!(version(&observe(&newest).await).is_some());
    newest.cancel().await.expect("closes");

    // The newest revision as its clients start: `server/discover`, no handshake.
    let transport = StreamableHttpClientTransport::from_uri(server.url());
    let discovered = ClientConfig::default()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::LATEST],
            },
        )
        .await
        .expect("the newest revision starts");
    let info = discovered.peer_info().expect("peer info");
    assert_eq!(info.protocol_version, ProtocolVersion::LATEST);
    let tools = discovered.list_all_tools().await.expect("tools listed");
    assert!(tools.iter().any(|t| t.name == OBSERVE));
    assert!(version(&observe(&discovered).await).is_some());
    discovered.cancel().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&[], None);
    // A client still connected (its session's event stream open) does not hold it up.
    let client = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    assert!(version(&observe(&client).await).is_some());
    let pid = server.child.id().to_string();
    let sent = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().expect("child status") {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "still running after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    drop(client);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_answered_call_is_in_the_recording_after_kill_9() {
    let dir = tempfile::tempdir().expect("a folder");
    let run = dir.path().join("run");
    let mut server = Server::start(&["--record", run.to_str().expect("UTF-8 path")], None);
    let url = server.url();
    // Two agents at once, each observing and tapping what it saw.
    let agents = (0..2).map(|_| {
        let url = url.clone();
        tokio::spawn(async move {
            let client = connect(&url, None, ProtocolVersion::V_2025_11_25).await;
            let mut answered = 0;
            for _ in 0..15 {
                let tree = observe(&client).await;
                answered += 1;
                if let Some(handle) = handle_where(&tree, |_| true) {
                    let tap = call("tap", serde_json::json!({ "target": handle }));
                    client.call_tool(tap).await.expect("tap answered");
                    answered += 1;
                }
            }
            answered
        })
    });
    let mut answered = 0;
    for agent in agents.collect::<Vec<_>>() {
        answered += agent.await.expect("an agent");
    }
    // The last answer is in; the server dies without a chance to flush anything.
    server.child.kill().expect("SIGKILL sent");
    server.child.wait().expect("the server is gone");

    let recorded = tapscope_core::recording::read(&run).expect("the recording reads");
    assert_eq!(recorded.steps.len(), answered, "one step per answered call");
    for step in &recorded.steps {
        for screen in [&step.before, &step.after].into_iter().flatten() {
            recorded
                .load_text(&screen.dump)
                .expect("every screen a step names is whole");
            recorded.load_text(&screen.pruned).expect("its pruned text");
        }
    }
}
