//! End to end: `tapscope serve --http` started as a child process and driven by rmcp's
//! streamable-HTTP client on loopback: tools, observe, tap, stale handles, bearer tokens,
//! two clients on one device, refused bindings, a client that leaves mid-call, and the
//! protocol revisions clients speak.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener as StdListener};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{ClientConfig, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

mod common;

use common::{STALE, call, text};

const TOKEN: &str = "s3cret";
const OBSERVE: &str = "screen_operation_accessibility";

type Client = RunningService<RoleClient, ClientConfig>;

/// A running `tapscope serve`, killed when dropped, even when a test fails.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `tapscope serve --http 127.0.0.1:0` plus `extra` and waits until it says
    /// where it listens (the port the system gave it: no race for a free one).
    fn start(extra: &[&str], env_token: Option<&str>) -> Self {
        let mut command = tapscope();
        command
            .args(["serve", "--http", "127.0.0.1:0", "--seed", "1"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(token) = env_token {
            command.env("TAPSCOPE_TOKEN", token);
        }
        let mut child = command.spawn().expect("tapscope serve starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let addr = listening_at(stderr, Duration::from_secs(30));
        Server { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("child status").is_none()
    }
}

/// The binary, with no token inherited from the environment.
fn tapscope() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.env_remove("TAPSCOPE_TOKEN");
    command
}

/// The address in the server's "MCP over streamable HTTP at http://ADDR/mcp" line; what it
/// said instead when it exits or stays silent. Its stderr is drained after that line.
fn listening_at(stderr: impl Read + Send + 'static, timeout: Duration) -> SocketAddr {
    let (lines, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let deadline = Instant::now() + timeout;
    let mut before = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = said.recv_timeout(left).unwrap_or_else(|e| {
            panic!("tapscope serve did not say where it listens ({e}); it said: {before:?}")
        });
        if let Some(at) = line.split("at http://").nth(1) {
            let addr = at.split('/').next().unwrap_or_default();
            return addr.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        before.push(line);
    }
}

/// A loopback port nobody listens on right now.
fn free_addr() -> SocketAddr {
    let listener = StdListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

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

/// The version at the top of a tree (or of an act's result).
fn version_of(tree: &str) -> Option<String> {
    tree.lines()
        .find_map(|l| l.strip_prefix("version: "))
        .map(|v| v.trim_matches('"').to_owned())
}

/// The handle of the first actionable line, or of the first one that mentions `label`.
fn handle_in(tree: &str, label: Option<&str>) -> Option<String> {
    let version = version_of(tree)?;
    let i = tree
        .lines()
        .filter(|l| label.is_none_or(|label| l.contains(&format!("\"{label}\""))))
        .find_map(|l| l.split("i: ").nth(1))
        .and_then(|rest| rest.split_whitespace().next())?;
    Some(format!("{version}_{i}"))
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
    let handle = handle_in(&tree, Some("TapTube")).expect("a TapTube handle");
    let tapped = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("tap answered");
    assert_ne!(tapped.is_error, Some(true), "{}", text(&tapped));
    let after = text(&tapped);
    assert!(after.contains("acted on: "), "{after}");
    let new_version = version_of(&after).expect("the post-action tree in the same result");
    assert!(!handle.starts_with(&new_version));

    let stale = client
        .call_tool(call("tap", serde_json::json!({ "target": handle })))
        .await
        .expect("stale tap answered");
    assert_eq!(stale.is_error, Some(true));
    assert!(text(&stale).contains(STALE), "{}", text(&stale));
    client.cancel().await.expect("the client closes");
}

/// A POST to /mcp without going through rmcp: the status line and the body.
async fn raw_post(addr: SocketAddr, authorization: Option<&str>) -> (u16, String, String) {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let auth = authorization
        .map(|a| format!("Authorization: {a}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{auth}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("a response within 10 s")
    .expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("head and body");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    (status, head.to_ascii_lowercase(), body.to_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn bearer_token_required_when_given() {
    let server = Server::start(&["--token", TOKEN], None);

    let client = connect(&server.url(), Some(TOKEN), ProtocolVersion::V_2025_11_25).await;
    assert!(version_of(&observe(&client).await).is_some());
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

/// What one client saw: every version it was handed, and the handle versions of its
/// taps that the session accepted.
#[derive(Debug, Default)]
struct Seen {
    versions: Vec<String>,
    accepted_from: Vec<String>,
}

async fn drive(client: Client, rounds: usize) -> (Client, Seen) {
    let mut seen = Seen::default();
    for round in 0..rounds {
        let tree = observe(&client).await;
        seen.versions.push(version_of(&tree).expect("a version"));
        let (request, handle) = match handle_in(&tree, None) {
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
            seen.versions
                .push(version_of(&answer).expect("the new tree's version"));
            if let Some(handle) = handle {
                let (version, _) = handle.split_once('_').expect("{version}_{i}");
                seen.accepted_from.push(version.to_owned());
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

    // One chain: every observation and act issued a version of its own, and a version
    // was acted on at most once.
    let versions: Vec<_> = seen_a.versions.iter().chain(&seen_b.versions).collect();
    let distinct: HashSet<_> = versions.iter().collect();
    assert_eq!(distinct.len(), versions.len(), "a version was issued twice");
    let from: Vec<_> = seen_a
        .accepted_from
        .iter()
        .chain(&seen_b.accepted_from)
        .collect();
    let distinct: HashSet<_> = from.iter().collect();
    assert_eq!(
        distinct.len(),
        from.len(),
        "two acts from the same tree succeeded"
    );

    // The same session: what b does makes a's handle stale.
    let tree = observe(&a).await;
    let handle = handle_in(&tree, None).expect("an actionable node");
    let _ = observe(&b).await;
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
    let handle = handle_in(&tree, Some("TapTube")).expect("a TapTube handle");
    let tap = tokio::spawn(async move {
        client
            .call_tool(call("tap", serde_json::json!({ "target": handle })))
            .await
    });
    // The tap waits for the screen to settle, far longer than this.
    tokio::time::sleep(Duration::from_millis(30)).await;
    tap.abort();
    assert!(
        tap.await.is_err_and(|e| e.is_cancelled()),
        "the tap ended first"
    );

    let again = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    assert!(version_of(&observe(&again).await).is_some());
    again.cancel().await.expect("closes");
    assert!(server.is_running());
}

#[tokio::test(flavor = "multi_thread")]
async fn protocol_revisions_initialize() {
    let server = Server::start(&[], None);

    let old = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    let info = old.peer_info().expect("peer info");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert!(version_of(&observe(&old).await).is_some());
    old.cancel().await.expect("closes");

    // The newest revision rmcp knows, asked for in `initialize`: the server answers
    // with a revision that has the handshake.
    let newest = connect(&server.url(), None, ProtocolVersion::LATEST).await;
    let info = newest.peer_info().expect("peer info");
    assert!(info.protocol_version >= ProtocolVersion::V_2025_11_25);
    assert!(version_of(&observe(&newest).await).is_some());
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
    assert!(version_of(&observe(&discovered).await).is_some());
    discovered.cancel().await.expect("closes");
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&[], None);
    // A client still connected (its session's event stream open) does not hold it up.
    let client = connect(&server.url(), None, ProtocolVersion::V_2025_11_25).await;
    assert!(version_of(&observe(&client).await).is_some());
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
